"""What a guarded folder reaches through a link, and guarded files with more than one name.

A folder is guarded by its path; a link inside it leads out of it (reviews s41 S1, S1b, S3):
git runs ``.git/hooks/pre-commit`` where it is a link to ``tools/pre-commit`` (the common way
to share hooks), and Claude Code reads ``.claude/skills/x`` where it is a link to a folder
the gate does not guard. Each such link's target is guarded too: a file as a file, a folder
whole. And a file the gate guards, or one git reads as what to run, with a second name (a
hard link made before the session: review s40 R13, s41 H1–H3) may be written through that
name by any writer, in a folder copy or by a pattern the gate cannot tie to it: the gate
cannot know where the other name lies, so it cannot say what the call must not write
(``ValueError``: the hook denies, naming the file)."""

from __future__ import annotations

import itertools
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The hooks git runs, by name (githooks(5), git 2.x): a hook is found only by these names.
GIT_HOOKS: Final = frozenset({
    "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit",
    "pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase",
    "post-checkout", "post-merge", "pre-push", "pre-receive", "update", "proc-receive",
    "post-receive", "post-update", "reference-transaction", "push-to-checkout",
    "pre-auto-gc", "post-rewrite", "sendemail-validate", "fsmonitor-watchman",
    "p4-changelist", "p4-prepare-changelist", "p4-post-changelist", "p4-pre-submit",
    "post-index-change"})
#: The files of a git folder whose text decides what git reads or runs: its settings, and
#: the files that move its common folder or its working tree elsewhere.
GIT_FILES: Final = ("config", "config.worktree", "commondir", "gitdir",
                    os.path.join("info", "attributes"))
#: The folders of a ``.claude`` folder whose entries Claude Code reads (a skill's folder, an
#: agent's or command's file, a hook's script; plugins' folders): walked at any depth, a
#: plugin's own folder not below its entry (``claude_items``).
CLAUDE_FOLDERS: Final = ("skills", "agents", "commands", "hooks", "output-styles", "plugins",
                         "rules")
#: Entries of a folder looked at for links, at most (more: the folder is not read, and the
#: gate denies: it cannot say what the call must not write).
MAX_ENTRIES: Final = 4096


def git_items(git_dirs: Iterable[str], hooks: str | None) -> list[tuple[str, bool]]:
    """What the git folders ``git_dirs`` and the hooks folder ``hooks`` reach through links:
    each hook and each of ``GIT_FILES`` that is a link, its target (a file); the hooks folder,
    when it is a link, its target whole. Raises ValueError when one of their files git reads
    or runs has another name."""
    dirs = list(dict.fromkeys(git_dirs))
    folders = [*(os.path.join(d, "hooks") for d in dirs), *([hooks] if hooks else [])]
    for common in list(dirs):  # a linked worktree's own folder (review s41 L3)
        dirs += [os.path.join(common, "worktrees", name)
                 for name, kind in entries(os.path.join(common, "worktrees")) if kind == "dir"]
    return _hooks(dict.fromkeys(folders)) + _git_files(dict.fromkeys(dirs))


def _hooks(folders: Iterable[str]) -> list[tuple[str, bool]]:
    items: list[tuple[str, bool]] = []
    for folder in folders:
        real = fs.realpath(folder)
        if real != folder:
            items.append((real, True))  # `.git/hooks -> ../tools` (S1b)
        for name, kind in entries(real):  # one listing, not a question a hook's name
            path = os.path.join(real, name)
            if name in GIT_HOOKS and kind == "link":  # `pre-commit -> ../../tools/x` (S1)
                items.append((fs.realpath(path), False))
            elif name in GIT_HOOKS and kind == "file":
                single_name(path)
    return items


def _git_files(git_dirs: Iterable[str]) -> list[tuple[str, bool]]:
    items: list[tuple[str, bool]] = []
    for git_dir in git_dirs:
        for name in GIT_FILES:
            path = os.path.join(git_dir, name)
            if fs.islink(path):  # `.git/config -> ../repo.cfg` (review s41 S1c)
                items.append((fs.realpath(path), False))
            single_name(path)
    return items


def claude_items(folders: Iterable[str]) -> list[tuple[str, bool]]:
    """What each ``.claude`` folder of ``folders`` reaches through links, and its files with
    second names: its own entries, and everything under its ``CLAUDE_FOLDERS``, at any depth
    (``.claude/hooks -> ../scripts``: S3; ``hooks/fmt/run.sh -> ../../../tools/fmt.sh``:
    L1; a second name of ``.claude/hooks/x.sh``: L4). A link's target is guarded whole.
    Raises ValueError for a file with a second name, and past ``MAX_ENTRIES`` entries."""
    return walked(folders, lambda depth, name, top: name in CLAUDE_FOLDERS if depth == 0
                  else top != "plugins")  # a plugin's own folders: not read (docs)


def walked(folders: Iterable[str], into: Callable[[int, str, str], bool], *,
           named: bool = True) -> list[tuple[str, bool]]:
    """The targets of the links met in ``folders`` (each guarded whole), going into a
    folder named ``name`` at ``depth`` (0: an entry of one of ``folders``; ``top``, the
    entry it lies under) where ``into`` says so; each regular file met is asked
    ``single_name`` when ``named``. Raises ValueError past ``MAX_ENTRIES`` entries in all."""
    items: list[tuple[str, bool]] = []
    pending = [(folder, 0, "") for folder in folders]
    seen = 0
    while pending:
        folder, depth, top = pending.pop()
        listed = entries(folder)
        for (name, kind), path in zip(listed, fs.joined(folder, [n for n, _ in listed]),
                                      strict=True):
            seen += 1
            if seen > MAX_ENTRIES:
                raise ValueError(f"{folder!r}: more than {MAX_ENTRIES} entries in the "
                                 "folders the gate reads for links and second names")
            if kind == "link" and not _beside(path):
                items.append((fs.realpath(path), True))
            elif kind == "dir":
                if into(depth, name, top):
                    pending.append((path, depth + 1, top or name))
            elif named:
                single_name(path)
    return items


def _beside(link: str) -> bool:
    """Whether ``link`` names an entry of its own folder (``python3 -> python3.11``), which
    the walk meets itself. (Read after the folder's listing, which the view watches.)"""
    try:
        target = os.readlink(link)
    except OSError:
        return False
    return "/" not in target and target not in (".", "..")


def single_name(path: str) -> None:
    """Raises ValueError when the file at ``path`` has more than one name."""
    found = fs.identity(path)
    if found is not None and found[2] > 1:
        raise ValueError(
            f"{path!r} has {found[2]} names (a hard link), and a write to another of them "
            f"writes it; find them with `find / -xdev -samefile {path}` and remove them")


def entries(folder: str) -> list[tuple[str, str]]:
    """The names in ``folder`` with what each is (``"link"``, ``"dir"`` or ``"file"``: as
    ``files.entry``); none when it is missing or no folder. The folder is asked through the
    view first, so that a kept answer sees an entry come."""
    fs.watch_folder(folder)
    try:
        with os.scandir(folder) as listing:
            return [(entry.name, "link" if entry.is_symlink() else
                     "dir" if entry.is_dir(follow_symlinks=False) else "file")
                    for entry in itertools.islice(listing, MAX_ENTRIES + 1)]
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as e:
        raise ValueError(f"{folder!r} cannot be read for links: {e.strerror}") from e


def real_paths(paths: list[str], missing: set[str] | None = None) -> dict[str, str]:
    """Each of ``paths`` with its real path (``os.path.realpath``), asked of the view: a
    folder's real path once, and a folder asked for many of them listed once. Into
    ``missing`` go the real paths found to name nothing (``single_name`` need not ask them):
    an entry its folder does not hold, or one in a folder that is not there (or is a file),
    whose entries are not asked one by one."""
    kept: dict[str, str] = {}
    absent: set[str] = set()
    split: dict[str, tuple[str, str]] = {}  # (each path once: the hook repeats some)
    for path in paths:
        if path not in split:
            at = path.rfind("/") if _NORMAL.fullmatch(path) else -1
            split[path] = (path[:at] or "/", path[at + 1:]) if at >= 0 else _split(path)
    links = _links([folder for folder, _ in split.values()], kept, absent)
    found: dict[str, str] = {}
    for path, (folder, name) in split.items():  # (each folder's real path asked once)
        real = kept.get(folder) or _folder(folder, kept, absent)
        full = (real + name if real[-1:] == "/" else f"{real}/{name}") if name else real
        listed = links.get(real)
        if listed is not None:
            kind = "link" if name in listed[0] else "file" if name in listed[1] else None
        else:
            kind = None if real in absent else fs.entry(full)
        found[path] = fs.realpath(full) if kind == "link" else full
        if kind is None and missing is not None:
            missing.add(full)
    return found


#: A normal absolute path: no empty, ``.`` or ``..`` part, no ``/`` at its end (most of the
#: hook's hundreds), which ``real_paths`` cuts at its last ``/`` without posixpath's calls.
_NORMAL: Final = re.compile(r"(?:/(?!\.\.?(?:/|$))[^/]+)+")


def _split(path: str) -> tuple[str, str]:
    """``os.path.split(os.path.abspath(path))``, a leading ``//`` read as ``/`` (as
    ``os.path.realpath`` reads it, and the system: ``HOME=//home/me`` names ``/home/me``, whose
    files a call names with one ``/``)."""
    absolute = os.path.abspath(path)
    return os.path.split("/" + absolute.lstrip("/") if absolute[:2] == "//" else absolute)


def _links(folders: list[str], kept: dict[str, str],
           absent: set[str]) -> dict[str, tuple[set[str], set[str]]]:
    """The names that are links in each real folder asked for many items (the home's
    ``HOME_CODE``), and all its names: one listing (``entries``, through the view) for many
    questions."""
    many = {folder for folder, count in Counter(folders).items() if count >= _LISTED}
    listed = {real: entries(real) for real in {_folder(f, kept, absent) for f in many}}
    return {real: ({name for name, kind in names if kind == "link"}, {name for name, _ in names})
            for real, names in listed.items()}


def _folder(folder: str, kept: dict[str, str], absent: set[str]) -> str:
    """The real path of the normalized absolute ``folder``, from its parent's (kept in
    ``kept``: the items' folders share most of their ancestors) and whether its last part is
    a link: what ``os.path.realpath`` answers, asking each folder once. A folder that is not
    there, or is no folder, or lies in one of those, goes into ``absent``."""
    found = kept.get(folder)
    if found is None:
        at = folder.rfind("/")  # (os.path.split of a normal absolute path)
        parent, name = folder[:at] or "/", folder[at + 1:]
        if not name:
            found = folder
        else:
            above = _folder(parent, kept, absent)
            found = above + name if above[-1:] == "/" else f"{above}/{name}"
            kind = None if above in absent else fs.entry(found)
            if kind == "link":
                found = fs.realpath(found)
            elif kind != "dir":
                absent.add(found)
        kept[folder] = found
    return found


#: Items in one folder from which it is listed once rather than asked name by name (a
#: folder's own items, the version files and the plan's programs' names read from each
#: folder up among them, are asked one by one: a listing of `/tmp` costs more; s44).
_LISTED: Final = 48
