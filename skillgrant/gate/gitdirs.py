"""A folder a write makes a git directory (issue 29; reviews s53-greview G2, s54-greview2 A5).

git's discovery (``setup.c``: ``is_git_directory``, git 2.39) takes a folder holding a
``HEAD``, an ``objects`` and a ``refs`` (or a ``commondir`` naming a folder that holds them)
as a repository, in the folder it runs in and in each folder above it, with no ``.git`` name
anywhere: it then reads that folder's ``config`` (``core.fsmonitor``, ``core.worktree``: a
command it runs) and runs its ``hooks``. Where a plan's program reads project code, a build may
run git in any folder (session 53's reasoning for start names), so a write that leaves a folder
holding such a layout, or writes a ``config`` or ``hooks`` in one, is a write of what git runs
(``testlinks.read_at_any_depth``); a tree a writer copies holding a ``HEAD`` or a
``commondir`` is one too (``composed.holds_walked``). Cost: a file named ``HEAD`` in a tree a
Bash writer copies under such a plan is denied."""

from __future__ import annotations

import os

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The entries of a git directory that make it one or that git reads as what to run there,
#: folded (a file system that folds case finds ``head`` as ``HEAD``).
_LAYOUT: Final = frozenset(("head", "objects", "refs", "commondir", "config", "hooks"))
#: A tree's entries that make its folder a git directory with the others (``holds_walked``).
TREE_NAMES: Final = frozenset(("HEAD", "commondir"))


def makes_git_dir(path: str) -> bool:
    """Whether a write of ``path`` leaves its folder a git directory git's discovery takes
    (a ``HEAD`` with ``objects`` and ``refs``, or with a ``commondir``), counting ``path``
    itself as there, and it is one of those entries or the folder's ``config`` or
    ``hooks``."""
    folder, _, name = path.rstrip("/").rpartition("/")
    if name.lower() not in _LAYOUT:
        return False
    try:
        there = {entry.lower() for entry in os.listdir(folder or "/")} | {name.lower()}
    except OSError:
        return False  # (no folder: the write fails; an unreadable one is the call's to fail)
    fs.islink(os.path.join(folder or "/", "settings.json"))  # (the view watches the folder)
    return "head" in there and ("commondir" in there or {"objects", "refs"} <= there)
