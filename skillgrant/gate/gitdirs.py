"""A folder a write makes a git directory (issue 29; reviews s53-greview G2, s54-greview2 A5).

git's discovery (``setup.c``: ``is_git_directory``, git 2.39) takes a folder holding a
``HEAD``, an ``objects`` and a ``refs`` (or a ``commondir`` naming a folder that holds them)
as a repository, in the folder it runs in and in each folder above it, with no ``.git`` name
anywhere: it then reads that folder's ``config`` (``core.fsmonitor``, ``core.worktree``: a
command it runs) and runs its ``hooks``. Where a plan's program reads project code, a build may
run git in any folder (session 53's reasoning for start names), so a write that leaves a folder
holding such a layout (a ``HEAD`` anywhere, the rest beside one), or writes a ``config`` or
``hooks`` in one, is a write of what git runs (each folder a write makes above its path
too: ``mkdir -p sub/objects/info``; a ``HEAD`` copied into a folder, by its source's name:
``copied.held``; s54-greview2 C1) (``testlinks.read_at_any_depth``); a tree a writer
copies holding a ``HEAD`` or a ``commondir`` is one too (``composed.holds_walked``). Cost: a
file named ``HEAD`` written by a Bash writer under such a plan, or in a tree it copies, is
denied."""

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
    """Whether a write of ``path`` may leave its folder, or a folder above it the write makes
    (``mkdir -p sub/objects/info``, ``install -D``, an archive's member: each missing folder
    of its path; s54-greview2 C1), a git directory git's discovery takes (a ``HEAD`` with
    ``objects`` and ``refs``, or with a ``commondir``): see ``_layout``; or writes a file in
    the ``hooks`` of one (``cp h fixtures/repo.git/hooks/pre-receive``)."""
    path = path.rstrip("/")
    hooks = path.rpartition("/")[0]
    if hooks.rpartition("/")[2].lower() == "hooks" and _layout(hooks):
        return True  # (a hook of a git directory there: a bare fixture's; s55-greview3 G2)
    while True:
        if _layout(path):
            return True
        folder = path.rpartition("/")[0]
        if not folder or fs.entry(folder) is not None:
            return False  # (the folders from here up are there: the write makes none)
        path = folder


def _layout(path: str) -> bool:
    """Whether the entry ``path`` a call makes or writes is a ``HEAD`` (anywhere), an
    ``objects``, ``refs`` or ``commondir`` beside a ``HEAD`` (one call may write the others
    too: s54-greview2 C1), or the ``config`` or ``hooks`` of a folder holding the layout."""
    folder, _, name = path.rpartition("/")
    if name.lower() not in _LAYOUT:
        return False
    fs.watch_folder(folder)
    try:
        there = {entry.lower() for entry in os.listdir(folder or "/")} | {name.lower()}
    except OSError:
        return False  # (no folder: the write fails; an unreadable one is the call's to fail)
    if name.lower() in ("config", "hooks"):
        return "head" in there and ("commondir" in there or {"objects", "refs"} <= there)
    return name.lower() == "head" or "head" in there  # (one call may write the others: C1)
