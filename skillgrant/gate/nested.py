"""The repositories a call's git may run in beyond the ones holding its folder (issue 29, review
s40 V3, V9, V10): the populated submodules git recurses into (``git status`` runs a
submodule's ``core.fsmonitor``), found in each repository's index, and the folders a command
moves git to (``git -C vendor/lib``, ``cd vendor/lib && git …``, ``--git-dir``).

What git runs from files in a repository (``repository_items``) is guarded for the
repositories holding the session's folder and their submodules at every call; a call whose git
may run in any other repository, one that runs a file of its working tree or keeps its git
folder outside a ``.git`` folder, is denied (``foreign_git``): an earlier call, guarded then
by the session's repositories only, may have written that file. (Files: through ``gate.files``.)"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from . import files as fs
from . import linked
from .worktree import (
    asking,
    hooks_folder,
    included_files,
    main_folder,
    named_programs,
    repository,
)

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: An index read further than this is refused (the call denied, naming it).
_MAX_INDEX: Final = 64 << 20
#: Populated submodules followed at most below one repository, and how deep.
_MAX_NESTED: Final = 256
_MAX_DEPTH: Final = 8
#: A submodule's mode in an index entry (``160000``, a 32-bit big-endian number: ``struct``'s
#: ``pack(">I", 0o160000)``; struct is loaded only to parse an index that may hold one).
_GITLINK: Final = b"\x00\x00\xe0\x00"
#: Places of ``link`` in an index looked at before it is parsed instead.
_MAX_LINKS: Final = 1024


def gitlinks(git_dir: str, common: str) -> list[str]:
    """The paths of the submodules (entries of mode ``160000``) in the index of the repository
    whose git folder is ``git_dir``: git's format 2 to 4, SHA-1 or SHA-256 names, and a split
    index's shared part (git's ``Documentation/gitformat-index.txt``). An index is parsed only
    when it holds a submodule's mode somewhere; its shared part is looked for where ``link``
    is followed by the name of a ``sharedindex`` file that exists (review s41 C2: a path
    holding ``link`` made every call parse the index). Raises ValueError when the index
    cannot be read or parsed."""
    index = os.path.join(git_dir, "index")
    data = _read(index)
    if _GITLINK not in data and b"link" not in data:  # no submodule, no shared index
        return []
    width = 32 if _sha256(common) else 20
    import struct

    try:
        paths = _entries(data, width) if _GITLINK in data else []
        for shared in _shared(data, git_dir, width):
            more = _read(shared)
            paths += _entries(more, width) if _GITLINK in more else []
    except (struct.error, IndexError, ValueError) as e:
        raise ValueError(f"{index}: git's index cannot be read ({e})") from e
    return list(dict.fromkeys(paths))


def _shared(data: bytes, git_dir: str, width: int) -> list[str]:
    """The ``sharedindex`` files that a ``link`` in ``data`` may name (a split index's
    extension: ``link``, its size, the shared index's name); past ``_MAX_LINKS`` of them,
    every ``sharedindex`` file the index's own extensions name (a parse)."""
    found: list[str] = []
    at = data.find(b"link")
    for _ in range(_MAX_LINKS):
        if at < 0:
            return found
        name = os.path.join(git_dir, f"sharedindex.{data[at + 8:at + 8 + width].hex()}")
        if len(data) >= at + 8 + width and fs.entry(name) == "file":
            found.append(name)
        at = data.find(b"link", at + 1)
    return [os.path.join(git_dir, f"sharedindex.{name}") for name in _links(data, width)]


def _read(path: str) -> bytes:
    try:
        data = fs.read(path, _MAX_INDEX + 1)
    except (FileNotFoundError, NotADirectoryError):
        return b""
    except OSError as e:
        raise ValueError(f"{path}: git's index cannot be read ({e})") from e
    if len(data) > _MAX_INDEX:
        raise ValueError(f"{path}: git's index is larger than {_MAX_INDEX} bytes, which the "
                         "gate reads at most to find the submodules git runs in")
    return data


def _sha256(common: str) -> bool:
    try:
        text = fs.read(os.path.join(common, "config"), 1 << 20).lower()
    except OSError:
        return False
    return b"objectformat" in text and b"sha256" in text


def _entries(data: bytes, width: int) -> list[str]:
    """The submodules' paths of an index's bytes."""
    return _parsed(data, width)[0]


def _links(data: bytes, width: int) -> list[str]:
    """The name of the shared index an index's bytes name ([] when it is not split)."""
    return _parsed(data, width)[1]


def _parsed(data: bytes, width: int) -> tuple[list[str], list[str]]:
    """The submodules' paths of an index's bytes, and the name of its shared index ([]: not
    split)."""
    if not data:
        return [], []
    import struct

    header = struct.Struct(">4sII")
    signature, version, count = header.unpack_from(data)
    if signature != b"DIRC" or version not in (2, 3, 4):
        raise ValueError(f"not an index of format 2 to 4 ({signature!r}, {version})")
    at, previous, found = header.size, b"", []
    for _ in range(count):
        start = at
        mode = struct.unpack_from(">I", data, start + 24)[0]
        flags = struct.unpack_from(">H", data, start + 40 + width)[0]
        at = start + 42 + width + (2 if version >= 3 and flags & 0x4000 else 0)
        if version == 4:  # the previous path's tail removed, then this one's rest
            strip, at = _varint(data, at)
            end = data.index(b"\0", at)
            path = previous[:len(previous) - strip] + data[at:end]
            at = end + 1
        else:
            end = data.index(b"\0", at)
            path = data[at:end]
            at = start + ((end - start + 8) & ~7)
        previous = path
        if mode == 0o160000:
            found.append(path.decode("utf-8", "surrogateescape"))
    shared = []
    while at + 8 <= len(data) - width:  # the extensions, then the checksum
        name, size = struct.unpack_from(">4sI", data, at)
        if name == b"link":
            shared.append(data[at + 8:at + 8 + width].hex())
        at += 8 + size
    return found, shared


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """git's offset number (``varint.c``) at ``at``, and where it ends."""
    byte = data[at]
    value = byte & 127
    while byte & 128:
        at += 1
        byte = data[at]
        value = ((value + 1) << 7) | (byte & 127)
    return value, at + 1


def submodules(top: str, git_dir: str, common: str,
               depth: int = 0) -> list[tuple[str, str, str]]:
    """The populated submodules of the repository at ``top`` (a ``.git`` in the submodule's
    folder), and theirs, as ``worktree.repository`` gives each. Raises ValueError past
    ``_MAX_NESTED`` of them or ``_MAX_DEPTH`` levels."""
    found: list[tuple[str, str, str]] = []
    for path in gitlinks(git_dir, common):
        folder = os.path.normpath(os.path.join(top, path))
        if not folder.startswith(top.rstrip("/") + "/") or \
                fs.entry(os.path.join(folder, ".git")) is None:
            continue  # not checked out: git does not go in (nor outside the working tree)
        nested = repository(folder)
        if nested is None or nested[0] != folder:
            continue
        if depth >= _MAX_DEPTH:
            raise ValueError(f"{folder}: submodules nested deeper than {_MAX_DEPTH} levels, "
                             "whose programs the gate does not read")
        found += [nested, *submodules(*nested, depth=depth + 1)]
        if len(found) > _MAX_NESTED:
            raise ValueError(f"{top}: more than {_MAX_NESTED} submodules, whose programs the "
                             "gate reads at most")
    return found


def repository_items(top: str, git_dir: str, common: str, folder: str | None = None
                     ) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]]:
    """What git run in the repository at ``top`` reads as what to run, and the files it runs:
    its git folder and common folder, the configuration files its configuration includes,
    its hooks folder when its configuration names one (with husky's folder above ``_``); and
    the files its settings name as programs (``worktree.named_programs``, from the top, and
    from ``folder`` when given: review s40 V12). Pairs of a path and whether it is a folder's
    tree."""
    with asking():  # one git run for the three (review s41 C1)
        return _repository_items(top, git_dir, common, folder)


def _repository_items(top: str, git_dir: str, common: str, folder: str | None
                      ) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]]:
    items = [(git_dir, True), (common, True)]
    items += [(path, False) for path in included_files(top)]  # H-14
    hooks = hooks_folder(top)
    items += linked.git_items((git_dir, common), hooks)  # review s41 S1, S1b, H1-H3
    if hooks is not None:
        items.append((hooks, True))
        if os.path.basename(os.path.normpath(hooks)) == "_":
            items.append((os.path.dirname(os.path.normpath(hooks)), True))
    return items, named_programs(folder or top)


def repositories(start: str, programs: list[tuple[str, bool]], tops: set[str],
                 local: list[tuple[str, bool]],
                 local_programs: list[tuple[str, bool]],
                 loose: list[tuple[str, str, str]] | None = None) -> list[tuple[str, bool]]:
    """The places of the repositories holding ``start`` (the call's folder, or the session's:
    ``$CLAUDE_PROJECT_DIR``), each superproject above them, and their populated submodules
    (``submodules``: git recurses into them; review s40 V3), that no folder walk finds:
    the git folder and common git folder (a ``.git`` file may name any folder: review H-11), a
    linked worktree's main checkout's ``.claude`` (Claude Code reads its
    ``settings.local.json``; review G-12; a bare common folder has none, review R-2), the
    included configuration files and the hooks folder the configuration names
    (``repository_items``; review G-10). After a ``cd`` into a nested repository the
    session's stay guarded (review H-9). What their settings run (``named_programs``) goes to
    ``programs``; each repository's top (or ``start`` outside one) to ``tops``. A submodule
    whose git folder is not in its superproject's (a clone made one by ``git add``: review
    s41 N2) may have become one since an earlier call: its places go to ``local`` and
    ``local_programs``, it to ``loose``, and its top to no ``tops``. Raises ValueError when
    git's places
    cannot be read (the hook then denies)."""
    items: list[tuple[str, bool]] = []
    done: set[str] = set()
    seen: set[str] = set()
    folder: str | None = start
    while folder:
        found = repository(folder)
        if found is None:  # what the user's settings run (review s40 R12)
            programs += named_programs(folder)
            tops.add(folder)
            break
        top, git_dir, common = found
        main = main_folder(top) if os.path.basename(common) == ".git" or \
            common == git_dir else None
        if main is not None:
            items += [(os.path.join(main, ".claude"), True),
                      (os.path.join(main, ".claude", "settings.json"), False),
                      (os.path.join(main, ".claude", "settings.local.json"), False),
                      *linked.claude_items([os.path.join(main, ".claude")])]
        inside = fs.realpath(common) + "/"
        for at, repo in enumerate([found, *submodules(*found)]):
            if at and repo[0] in seen:  # the repository a superproject's submodule is
                continue
            seen.add(repo[0])
            # F15: what git's settings run, from the call's folder too (review V12)
            places, run = repository_items(*repo, folder if at == 0 else None)
            absorbed = at == 0 or fs.realpath(repo[1]).startswith(inside)
            (items if absorbed else local).extend(places)
            (programs if absorbed else local_programs).extend(run)
            if not absorbed and loose is not None:
                loose.append(repo)
            if absorbed:
                done.add(repo[0])
        parent = os.path.dirname(top)
        folder = None if parent == top else parent
    tops.update(done)
    return items


class Guarded(tuple[tuple[str, bool], ...]):
    """``GUARDED``'s items, and of them what every call of the session guards (``always``:
    what follows its project folder, not the call's) with the tops of the repositories whose
    programs are among them (``tops``), and the submodules of those that may be new
    (``loose``, each with its top's real path; issue 29, review s40 V3, s41 N2), and the
    folders first on a plan's Python's ``sys.path`` whose files of a standard module's name
    are guarded (``modules``: ``named.Index``; review s44 P3), and the names of the settings
    a program finds by walking up, guarded at any depth (``walked``: review s44 P10, with the
    start names of session 53; ``found_up``: the settings' alone), and of
    the items those the plan's programs read (``planned``: an Edit grant covers them, s45)."""

    always: tuple[tuple[str, bool], ...]
    tops: frozenset[str]
    loose: tuple[tuple[str, tuple[str, str, str]], ...]
    modules: frozenset[str]
    walked: frozenset[str]
    found_up: frozenset[str]
    collected: frozenset[str]
    assigned: frozenset[str]
    planning: Callable[[], frozenset[str]] | None
    run_folders: frozenset[str]
    #: The library folders of the interpreters the plan names by a path (``sitenames``).
    python_libs: frozenset[str] = frozenset()
    #: Whether a plan's program may run Python in any folder (``planruns.runs_any``).
    runs_any: bool = True
    #: make's and cmake's doubts: each folder they may read below, and why (``writeguard``).
    written_below: tuple[tuple[str, str], ...] = ()
    jest_by_make: frozenset[str] = frozenset()  # (folders whose makefiles name jest: J6)
    #: The plan's programs' paths and marks (``plan_programs``; ``planscripts`` reads its
    #: entries' texts there: the npm scripts and jest options a plan runs).
    named: tuple[str, ...] = ()

    def __new__(cls, items: Iterable[tuple[str, bool]], *,
                always: Iterable[tuple[str, bool]], tops: frozenset[str],
                loose: Iterable[tuple[str, str, str]] = (),
                modules: frozenset[str] = frozenset(),
                walked: frozenset[str] = frozenset(),
                found_up: frozenset[str] = frozenset(),
                collected: frozenset[str] = frozenset(),
                assigned: frozenset[str] = frozenset(),
                planned: Callable[[], frozenset[str]] | None = None,
                run_folders: frozenset[str] = frozenset()) -> Guarded:
        made = super().__new__(cls, items)
        made.always = tuple(always)
        made.tops = tops
        made.modules = modules
        made.walked = walked
        made.found_up = found_up  # (of ``walked``, the settings' names: no Edit grant's, s45)
        made.collected = collected  # (the folders below which tests are found: testfiles)
        made.assigned = assigned  # (the plan's entries' own assignments: entryvars)
        made.planning = planned  # (asked only by an Edit that needs it: the hook's time)
        made.run_folders = run_folders  # (where the plan's programs may run: runfolders)
        made.loose = tuple((fs.realpath(repo[0]), repo) for repo in loose)
        return made


def only_planned(planned: list[tuple[str, bool]], every: list[tuple[str, bool]],
                 reals: dict[str, str]) -> frozenset[str]:
    """The real paths of ``planned`` (``Guarded.planned``) that no other of ``every`` guards
    (each planned one is in ``every`` once): ``~/.npmrc`` is the user's too."""
    counts: dict[str, int] = {}
    for path, _ in every:
        counts[reals[path]] = counts.get(reals[path], 0) + 1
    for path, _ in planned:
        counts[reals[path]] = counts.get(reals[path], 0) - 1
    return frozenset(reals[p] for p, _ in planned if counts[reals[p]] == 0)


def planned_of(guards: object) -> frozenset[str]:
    """``Guarded.planned``'s paths, made at the first question and kept."""
    planning = getattr(guards, "planning", None)
    if planning is None:
        return frozenset()
    made: frozenset[str] = planning()
    guards.planning = lambda: made  # type: ignore[attr-defined]
    return made
