"""Where a test runner finds a file through a link (issue 29, review s52-greview2 R10).

Every runner the gate knows walks the folder it collects in through links, measured on this
machine: node 20's ``--test`` (``test/shared -> ../shared`` runs ``shared/x.js`` as
``test/shared/x.js``; a link named ``test`` makes every script in its target a test), bun
1.4.5's ``test`` (a folder link, and a link named ``x.test.js`` to ``../pkg/b.js``), pytest 9
(a folder link, and ``tests/test_h.py -> ../pkg/h.py`` imports ``pkg/h.py``). So a file is a
collected test by the path the runner meets it at, which ``testfiles.collected`` reads:
``places`` gives each path through the links below the collecting folders (and below what
they lead to, link after link) at which a runner meets a real path, and ``testfiles`` asks
each as it asks the path itself. A link made by the session counts from the next call on (the
link's own name below a test folder is guarded: ``intotests``).

The walk is of every folder below the collecting folders but ``node_modules`` (node's, bun's,
jest's and pytest's own defaults skip it; node walks ``.git`` and dot folders: so does the
walk), following each link to a folder once. It is made at a call's first question about a
path (a call that writes nothing does not pay for it), kept with the guarded set it was made
for, and bounded: past ``MAX_ENTRIES`` entries listed at a call (a hook's: ``MAX_HOOK_ENTRIES``,
its unchanged folders' listings kept across calls: ``walkcache``) the gate cannot say which
files a runner meets, and the question raises ValueError (the call is denied, naming why).
"""

from __future__ import annotations

import os
import time

from . import files as fs
from .below import under
from .gitdirs import makes_git_dir
from .placed import fold
from .pymodule import module_path
from .testroots import runner_roots
from .walkcache import Kept

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Entries the walk below the collecting folders lists at a call, at most (a project of ten
#: thousand files takes some 10 ms; past the bound the question is refused): a service's
#: (its view watches every folder listed); a hook's, whose listings of unchanged folders are
#: kept for the next call (``walkcache``: 205,000 files listed in some 0.2 s once, then 1 ms).
MAX_ENTRIES: Final = 200_000
MAX_HOOK_ENTRIES: Final = 1_000_000
#: Seconds the walk may take at a call, at most: past them the question is refused (the call
#: denied) rather than left to the runtime's hook timeout, past which a runtime lets the call
#: run (a session in ``/`` under a collecting plan: the walk listed ``/proc``'s 189,000
#: folders, 26 s of CPU and 236 s in all on a loaded machine, s60-sreview). The listings
#: made so far are kept for the next call (``walkcache``), so a large tree's walk goes on
#: from them.
MAX_WALK_SECONDS: Final = 10.0
#: The roots whose walk this process refused past ``MAX_WALK_SECONDS`` (a hook's: asked again
#: for the call's next word, it is refused at once).
_SLOW: list[tuple[str, ...]] = []
#: The folders (and links) the walk does not enter (see the module's text), by their exact
#: names: node's, bun's, jest's and pytest's runners skip them.
SKIPPED: Final = frozenset(("node_modules",))
#: The paths through links ``places`` gives one path at most; past them it raises.
MAX_PLACES: Final = 4096
#: Each folded collecting folder's real path (``remember``): the walk reads the folders, the
#: guarded set keeps their folded paths.
_REAL: dict[str, str] = {}
#: The guarded set the last walk was made for (by identity: a hook decides one call; the
#: service makes a new set at any change its view reports), and the walk's links.
_LAST: list[tuple[object, tuple[tuple[str, str, tuple[str, ...]], ...]]] = []


def remember(real: str) -> str:
    """The folded ``real`` path of a collecting folder, its real spelling kept for the walk."""
    key = fold(real).rstrip("/")
    _REAL[key] = real
    return key


def places(key: str, guards: object) -> list[str]:
    """The folded paths at which a runner walking the collecting folders of ``guards``
    (``Guarded.collected``) meets the folded real path ``key`` through a link: a link's own
    path for its target, then each path below it, link after link, each link once a chain (a
    link met again adds only the parts the path holds already: ``test/up -> ..``). None when
    no link leads to ``key`` or a folder above it. Raises ValueError past ``MAX_ENTRIES``
    entries walked, or past ``MAX_PLACES`` paths."""
    links = _links(guards)
    found: dict[str, None] = {}
    pending: list[tuple[str, frozenset[int]]] = [(key, frozenset())]
    while pending:
        path, used = pending.pop()
        for at, (target, place, _) in enumerate(links):
            if at not in used and (path == target or path.startswith(target + "/")):
                moved = place + path[len(target):]
                if moved not in found and moved != key:
                    found[moved] = None
                    pending.append((moved, used | {at}))
                    if len(found) > MAX_PLACES:
                        raise ValueError(
                            f"more than {MAX_PLACES} paths through links lead to {key!r} "
                            "below the folders the plan's test runners collect in, so "
                            "whether a runner runs it is not known")
    return list(found)


def leads_below(path: str, guards: object) -> bool:
    """Whether a link below the collecting folders of ``guards`` leads below the folded
    ``path`` (to something there or not there yet: what comes at ``path`` comes where a
    runner meets it; s53-greview2 T10)."""
    return any(target.startswith(path.rstrip("/") + "/") for target, _, _ in _links(guards))


def leads_to(path: str, guards: object) -> bool:
    """Whether a link the walk of ``guards`` meets leads to the folded ``path`` or below it
    (a mount there lays its tree where a program meets it through the link)."""
    return any(target == path or target.startswith(path + "/")
               for target, _, _ in _links(guards))


def read_at_any_depth(path: str, key: str, guards: object, walked: frozenset[str],
                      kept: bool) -> bool:
    """Whether, where the plan's programs read project code (``walked``, the folded names
    guarded at any depth, not empty), the folded real path ``key`` is a file Python imports
    for a standard module (``pymodule.module_path``) or what git reads in a folder its write
    makes a git directory (``gitdirs.makes_git_dir`` of ``path``, its spelling), or is met
    through a link below the folders the plan's programs run in at a path holding a name of
    ``walked`` (as
    ``below.under`` reads it) or such a module's: ``sub/Makefile -> ../shared/rules`` makes
    a write to ``shared/rules`` one to the makefile a recursive make reads in ``sub``
    (s52-greview L1, s53-greview L2). Never where the call only removes or formats (``kept``).
    Raises ValueError as ``places``."""
    if kept:
        return False
    beside = _beside(guards)
    if beside and (_below(key, beside) or any(_below(p, beside) for p in places(key, guards))):
        return True  # (a runner's folder beside the run folders: testroots)
    if not walked:
        return False
    return module_path(key, path) or makes_git_dir(path) or any(
        under(place, walked) or module_path(place)
        for place in places(key, guards)) or any(
        key in crossed for _, place, crossed in _links(guards) if crossed and _read(
            place, guards, walked))


def holds_through_links(path: str, guards: object, walked: frozenset[str]) -> bool:
    """Whether a link below the folders the plan's programs run in whose own path a program
    reads (``_read``) leads below the folded ``path`` (a tree written there writes what the
    link's program reads: ``cp -r pay/. shared``), or crosses a link below it (moving the
    folder re-aims it)."""
    above = path.rstrip("/") + "/"
    return bool(walked) and any(
        (target.startswith(above) or any(c.startswith(above) for c in crossed)) and _read(
            place, guards, walked) for target, place, crossed in _links(guards))


def _read(place: str, guards: object, walked: frozenset[str]) -> bool:
    """Whether a program of the plan reads what a link at the folded path ``place`` leads to:
    a name guarded at any depth (``walked``) or a standard module's file, or a place below the
    folders tests are collected in (a runner walks the link)."""
    folders: frozenset[str] = getattr(guards, "collected", frozenset())
    return under(place, walked) or module_path(place) or any(
        place.startswith(f + "/") for f in folders) or _below(place, _beside(guards))


def _links(guards: object) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """Each link below the collecting folders of ``guards`` and, where it guards names at
    any depth (``walked``), below the folders the plan's programs run in (``run_folders``:
    the project's among them), below the folders beside them a runner collects in
    (``testroots``: s53-greview2 T6, T11, T12), and below the folders they lead to, as its
    folded target's
    real path, its own folded path and the folded real places of the links the system
    crosses resolving it (``_crossed``: re-aiming one re-aims it; s54-greview2 B1): walked
    once for a set."""
    if _LAST and _LAST[0][0] is guards:
        return _LAST[0][1]
    roots = _roots(guards)
    roots = tuple(sorted({*roots, *runner_roots(guards, roots)}))
    found = fs.kept(lambda: ("test links", roots), lambda: _walked(roots))
    _LAST[:] = [(guards, found)]
    return found


def _beside(guards: object) -> tuple[str, ...]:
    """The folded folders beside the run folders a runner of ``guards`` collects in
    (``testroots.runner_roots``), each ending in ``/``."""
    if not getattr(guards, "collected", None):
        return ()
    return tuple(fold(r).rstrip("/") + "/" for r in runner_roots(guards, _roots(guards)))


def _roots(guards: object) -> tuple[str, ...]:
    """The real folders the walk starts at: the collecting folders of ``guards`` and, where it
    guards names at any depth, the folders the plan's programs run in."""
    folders: frozenset[str] = getattr(guards, "collected", frozenset())
    runs: frozenset[str] = getattr(guards, "run_folders", frozenset()) if getattr(
        guards, "walked", None) else frozenset()
    return tuple(sorted({*(_REAL.get(f, f) for f in folders),
                         *(fs.realpath(f) for f in runs)}))


def _below(path: str, folders: tuple[str, ...]) -> bool:
    """Whether the folded ``path`` is one of the folded ``folders`` (each ending in ``/``) or
    lies below one."""
    return bool(folders) and (path.rstrip("/") + "/").startswith(folders)


def _walked(roots: tuple[str, ...]) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """``_links`` of the real folders ``roots``."""
    if roots in _SLOW:  # (a hook's process: one call, its walk refused once)
        raise ValueError(_slow(roots))
    deadline = time.monotonic() + MAX_WALK_SECONDS  # (the kept listings' reading counts)
    kept = Kept(roots)
    pending = [r for r in roots if not any(r.startswith(o + "/") for o in roots if o != r)]
    seen = set(pending)
    links: list[tuple[str, str, tuple[str, ...]]] = []
    bound = MAX_HOOK_ENTRIES if kept.path else MAX_ENTRIES
    left = bound
    while pending:
        folder = pending.pop()
        listed, fresh = kept.listing(folder, _listing)
        left -= fresh
        _within(left, bound, deadline, roots, kept)
        base = folder.rstrip("/") + "/"
        for name, kind in listed:
            if kind == "file" or name in SKIPPED:
                continue
            path = base + name
            if kind == "dir" and path not in seen:
                seen.add(path)
                pending.append(path)
            elif kind == "link":
                target = fs.realpath(path)
                links.append((fold(target), fold(path), tuple(map(fold, _crossed(path)))))
                if target not in seen and fs.is_folder(target):
                    seen.add(target)  # (each folder walked once, however reached: loops end)
                    pending.append(target)
    kept.save()
    return tuple(links)


def _within(left: int, bound: int, deadline: float, roots: tuple[str, ...], kept: Kept
            ) -> None:
    """Raise ValueError where the walk of ``roots`` is past its ``deadline`` (its listings so
    far kept) or past its ``bound`` of entries (``left`` below 0)."""
    if time.monotonic() > deadline:
        kept.save()
        if kept.path:  # (a service's next call walks again)
            _SLOW.append(roots)
        raise ValueError(_slow(roots))
    if left < 0:
        raise ValueError(
            f"the folders the plan's test runners collect in hold more than {bound} "
            "entries, which the gate walks to find the links a runner follows (below "
            f"{roots[0]!r}), so the files they run are not known")


def _slow(roots: tuple[str, ...]) -> str:
    """Why a walk of ``roots`` past ``MAX_WALK_SECONDS`` is refused."""
    return (f"the walk of the folders the plan's test runners collect in (below {roots[0]!r}) "
            f"took more than {MAX_WALK_SECONDS:g} seconds, so the files they run are not known "
            "within the runtime's hook time")


def _crossed(link: str) -> list[str]:
    """The real places of the links the system crosses resolving the link ``link`` (in a
    real folder), past ``link`` itself, in order (``a -> r1``, ``r1/b -> ../v1`` for
    ``sub/Makefile -> ../a/b/rules``), as the kernel resolves it: a link's text before a
    ``..`` after it. At most 40 (the kernel's bound: ELOOP)."""
    crossed: list[str] = []
    try:
        text = os.readlink(link)
    except OSError:
        return crossed
    resolved = "/" if text[:1] == "/" else link.rpartition("/")[0] or "/"
    pending = text.split("/")[::-1]
    while pending:
        part = pending.pop()
        if part in ("", "."):
            continue
        if part == "..":
            resolved = resolved.rpartition("/")[0] or "/"
            continue
        path = resolved.rstrip("/") + "/" + part
        if not fs.islink(path):
            resolved = path
            continue
        crossed.append(path)
        try:
            text = os.readlink(path)
        except OSError:
            break
        if len(crossed) > 40:
            break
        resolved = "/" if text[:1] == "/" else resolved
        pending += text.split("/")[::-1]
    return crossed


def _listing(folder: str) -> list[tuple[str, str]]:
    """The names in ``folder``, each with what it is (``"link"``, ``"dir"``, ``"file"``), all
    of them (``linked.entries`` stops past its bound: s53-greview2 T5); none where it is not
    there. One this user may not list raises ValueError: a call may take the right away and
    give it back once its write is judged (``chmod 000 lib``: T13); but one another user owns
    (this user not root) is none: the session cannot change its mode, and a runner of this
    user cannot list it either (a database's data folder: s53-greview2 K7). The view watches
    the folder first, so that a kept walk sees an entry come."""
    fs.islink(folder.rstrip("/") + "/settings.json")
    try:
        with os.scandir(folder) as listing:
            return [(entry.name, "link" if entry.is_symlink() else
                     "dir" if entry.is_dir(follow_symlinks=False) else "file")
                    for entry in listing]
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as e:
        if isinstance(e, PermissionError) and _not_ours(folder):
            return []
        raise ValueError(f"{folder!r} cannot be read for the links a test runner follows: "
                         f"{e.strerror}") from e


def _not_ours(folder: str) -> bool:
    """Whether ``folder`` is another user's and this one is not root (it cannot ``chmod``
    it)."""
    try:
        return os.geteuid() != 0 and os.stat(folder).st_uid != os.geteuid()
    except OSError:
        return False
