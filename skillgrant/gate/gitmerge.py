"""The paths a plain ``git merge REF`` or ``git rebase REF`` may write in the working tree
(review s47-greview C-git, a cost): each path whose content differs between ``HEAD`` and
``REF`` (``git diff --name-only HEAD REF``), asked of git at decision time. A merge writes
only the paths ``REF`` changed since their merge base (a conflict leaves markers in one of
them); a rebase checks out ``REF`` and replays ``HEAD``'s own commits, each step writing a
path where the two trees differ. Any other form (``git pull``, whose commits are not fetched
yet; options beyond the plain ones; ``--abort``, ``--exec``; ``FETCH_HEAD``, an octopus of
every head fetched), and a merge where either side removed a path since their merge base (a
rename's source: git moves the other side's new files into a renamed folder, a path neither
tree holds), or with more than one merge base, stays a writer of the whole working tree
(``writers.tree_word``)."""

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
    if _PSEUDO.fullmatch(refs):  # `FETCH_HEAD` merges every head it marks (s48-greview2 G2)
        return None
    bases = _git(top, "merge-base", "--all", "HEAD", refs)
    if bases is None or len(bases.split()) != 1:
        return None  # (no base, or a criss-cross merge: a virtual base git makes)
    base = bases.split()[0]
    for side in ("HEAD", refs):  # a path removed on either side may be a rename's source,
        removed = _git(top, "diff", "--no-renames", "--diff-filter=D", "--name-only", "-z",
                       base, side, "--")  # and git moves the other side's new files of a
        if removed != "":  # renamed folder into its new place (review s48-greview2 G1)
            return None
    if words[1] == "rebase" and _git(top, "log", "--format=", "--no-renames", "--diff-filter=D",
                                     "--name-only", "-z", f"{base}..HEAD", "--") != "":
        return None  # (each commit it replays is a merge: a removal in one of them, G1)
    changed = _git(top, "diff", "--no-ext-diff", "--no-textconv", "--no-renames",
                   "--name-only", "-z", "HEAD", refs, "--")
    return None if changed is None else [os.path.join(top, p) for p in changed.split("\0")
                                         if p]


#: git's pseudo-refs and other names in capitals (a file in the git folder git reads itself).
_PSEUDO: Final = compile_on_use(r"[A-Z_]+(?:[@{~^].*)?")


def _git(top: str, *args: str) -> str | None:
    """The output of ``git -C top ARGS`` (read, no pager, no external diff), or None when it
    fails."""
    import subprocess

    try:
        done = subprocess.run(["git", "-C", top, "--no-pager", *args], capture_output=True,
                              timeout=10, check=False, stdin=subprocess.DEVNULL)
        return done.stdout.decode() if done.returncode == 0 else None
    except (OSError, subprocess.SubprocessError, UnicodeDecodeError):
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
