"""The paths a plain ``git merge REF`` or ``git rebase REF`` may write in the working tree
(review s47-greview C-git, a cost): each path whose content differs between ``HEAD`` and
``REF`` (``git diff --name-only HEAD REF``), asked of git at decision time. A merge writes
only the paths ``REF`` changed since their merge base (a conflict leaves markers in one of
them); a rebase checks out ``REF`` and replays ``HEAD``'s own commits, each step writing a
path where the two trees differ. Any other form (``git pull``, whose commits are not fetched
yet; options beyond the plain ones; ``--abort``, ``--exec``) stays a writer of the whole
working tree (``writers.tree_word``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from ..lazy import compile_on_use
from . import files

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The options a plain merge or rebase may carry (no strategy, no command, no other source).
_PLAIN: Final = {"merge": frozenset({"--ff-only", "--no-ff", "--ff", "--no-edit", "-q",
                                     "--quiet", "--no-stat", "-n", "--stat"}),
                 "rebase": frozenset({"-q", "--quiet"})}
#: A ref's spelling git reads as a name (no expansion, no option, no path magic).
_REF: Final = compile_on_use(r"[A-Za-z0-9_][A-Za-z0-9._/@{}~^-]*")


def merged_paths(words: list[str], top: str) -> list[str] | None:
    """The paths (from ``top``, the working tree's top folder) that the command ``words``
    writes when it is exactly ``git merge [plain options] REF`` or ``git rebase [-q] REF``;
    None for any other command, or when git cannot say."""
    if len(words) < 3 or os.path.basename(words[0]) != "git" or words[1] not in _PLAIN:
        return None
    options, refs = words[2:-1], words[-1]
    if not set(options) <= _PLAIN[words[1]] or not _REF.fullmatch(refs):
        return None
    import subprocess

    try:
        done = subprocess.run(["git", "-C", top, "diff", "--no-ext-diff", "--no-textconv",
                               "--no-renames", "--name-only", "-z", "HEAD", refs, "--"],
                              capture_output=True, timeout=10, check=False,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    try:
        return [os.path.join(top, p) for p in done.stdout.decode().split("\0") if p]
    except UnicodeDecodeError:
        return None


def tree_touched(worktree: str, words: Sequence[str], directory: str,
                 touches: Callable[[str], bool]) -> bool:
    """Whether the working tree the program ``worktree`` writes touches a guarded item: for
    git, the paths a plain merge or rebase writes (``merged_paths``), else its top folder;
    for another program, ``directory``."""
    if worktree != "git":
        return touches(directory)
    top = top_folder(directory)
    paths = merged_paths(list(words), top)
    return touches(top) if paths is None else any(map(touches, paths))


def top_folder(directory: str) -> str:
    """The top folder of the git repository holding ``directory`` (the folder with ``.git``),
    or ``directory`` itself."""
    folder = directory
    while True:
        if files.exists(os.path.join(folder, ".git")):  # asked of the gate's view
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return directory
        folder = parent
