"""The canonical git root of a folder, whose ``.claude/settings.local.json`` Claude Code 2.1.332
reads in a session started in the folder (review S-1, S-2: local settings are canonicalised to
the repository's root, for a linked worktree its main checkout; measured through the runtime by
the reviewer, and its ``disableAllHooks`` switched the hooks off)."""

from __future__ import annotations

import os
from pathlib import Path


def main_checkout(folder: str) -> Path | None:
    """The canonical git root of ``folder``, whose ``.claude/settings.local.json`` Claude Code
    reads (review S-2: in a subfolder too): the main working tree of the linked worktree
    holding it (its ``.git`` a file naming a git folder that has a ``commondir``), else the
    top of its repository (or submodule); None outside one. Raises ValueError when it is in a
    linked worktree and the main working tree cannot be found."""
    here = Path(os.path.abspath(folder))
    for top in (here, *here.parents):
        dot_git = top / ".git"
        if dot_git.is_dir() or not dot_git.exists():
            if dot_git.is_dir():
                return top  # a plain repository's root (S-2)
            continue
        try:
            text = dot_git.read_text(encoding="utf-8")
            if not text.startswith("gitdir: "):
                raise ValueError("no gitdir line")
            git_dir = top / text[len("gitdir: "):].strip()
            common_file = git_dir / "commondir"
            if not common_file.exists():
                return top  # a submodule's own root (the superproject's is not read)
            common = (git_dir / common_file.read_text(encoding="utf-8").strip()).resolve()
        except (OSError, ValueError) as e:
            raise ValueError(f"{dot_git}: the linked worktree's repository cannot be read "
                             f"({e})") from e
        if common.name != ".git":
            raise ValueError(f"{dot_git}: the linked worktree's main checkout is not known "
                             f"(its repository is {common})")
        return common.parent
    return None
