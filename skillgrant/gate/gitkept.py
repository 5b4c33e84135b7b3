"""git's subcommands that write no file of the working tree (``writers``' and ``readers``'
reading of a git command: one table)."""

from __future__ import annotations

from collections.abc import Sequence

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: ``git`` subcommands that write no file of the working tree (``.git`` apart).
GIT_KEEPS: Final = frozenset({
    "status", "log", "diff", "show", "add", "commit", "push", "fetch", "branch", "tag",
    "remote", "rev-parse", "ls-files", "ls-tree", "blame", "grep", "describe", "shortlog",
    "reflog", "cat-file", "rev-list", "config", "init", "help", "version", "show-ref",
    "for-each-ref", "var", "whatchanged", "range-diff", "count-objects", "fsck", "gc",
    "ls-remote", "show-branch", "cherry", "merge-base", "name-rev",  # and a subcommand's
    "stash list", "stash show", "worktree list", "submodule status"})  # (review s45: a cost)


def git_kept(rest: Sequence[str], sub: str) -> str:
    """git's subcommand ``sub`` (of its words ``rest``) as ``GIT_KEEPS`` names it: with the
    word after it where the two are one there (``stash list``: review s55-greview K4)."""
    two = " ".join(rest[rest.index(sub):][:2])
    return two if two in GIT_KEEPS else sub
