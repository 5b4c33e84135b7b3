"""The files git writes from a revision or its index into the folders a pathspec names (review
s53-greview G1).

``git checkout REV -- sub``, ``git restore --source=REV sub`` (``-s REV -W``), ``git checkout
-- sub`` and ``git restore sub`` (from the index) write every file the revision's (the
index's) tree holds under ``sub``; the pathspec's own name is no start name, and ``sub`` may
hold none yet (``sub/Makefile`` comes from ``evil``). So each such pathspec is read in the
tree git writes from: ``git ls-tree -r --name-only REV -- SPEC`` (``git ls-files -- SPEC`` for
the index), run by the repository's own git with no hooks or fsmonitor, under a timeout, and
each path listed is judged as a write (``touches``). A pathspec git reads as a pattern or with
its magic (``:(glob)``) lists the revision's whole tree. What cannot be listed (no
repository, an unknown revision, too many paths, a git that fails) is the answer: denied."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Sequence

from .wrapped import long_prefix

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Options of ``git checkout`` / ``git restore`` taking a value in the next word (the source
#: apart), and the long ones by their names (git takes a prefix).
_VALUED: Final = frozenset({"-b", "-B"})
_LONG_VALUED: Final = ("conflict", "pathspec-from-file", "orphan")
#: Paths one listing is judged for; past them the call is denied (a cost, said in the reason).
_MAX_PATHS: Final = 50_000
#: git's settings that would run a program or read another folder while it lists a tree.
_QUIET: Final = ("-c", "core.fsmonitor=", "-c", "core.hooksPath=/dev/null",
                 "-c", "core.untrackedCache=false", "--no-optional-locks")


def from_revision(words: Sequence[str], directory: str | None,
                  touches: Callable[[str], bool]) -> str | None:
    """The first pathspec word of a ``git checkout … -- SPEC`` or ``git restore … SPEC`` in
    ``words`` under which the tree git writes from holds
    a path that ``touches`` a guarded item, or that cannot be listed; None otherwise."""
    for at, word in enumerate(words):
        last = word.rsplit("/", 1)[-1]  # (git's dashed builtins: `git-core/git-checkout`)
        if last not in ("git", "git-checkout", "git-restore"):
            continue
        rest = [*([last[4:]] if last != "git" else []), *words[at + 1:]]
        sub = next((i for i, w in enumerate(rest[:12]) if w in ("checkout", "restore")), None)
        if sub is None:
            continue
        source, specs = _parts(rest[sub], rest[sub + 1:])
        if not specs:
            continue
        if directory is None:
            return specs[0]
        found = _listed_word(source, specs, directory, touches)
        if found is not None:
            return found
    return None


def _parts(sub: str, rest: list[str]) -> tuple[str | None, list[str]]:
    """The revision (None: the index) and the pathspecs of ``checkout``'s or ``restore``'s
    words ``rest``; no pathspecs for a ``checkout`` without ``--`` (the judge reads it as a
    writer of the whole working tree)."""
    if sub == "checkout" and "--" not in rest:
        return None, []
    source: str | None = None
    specs: list[str] = []
    taken: str | None = None  # what the next word is: a source, another option's value
    ended = False
    for word in rest:
        if taken is not None:
            source, taken = (word if taken == "source" else source), None
        elif ended or (sub == "restore" and word[:1] != "-"):
            specs.append(word)
        elif word == "--":
            ended = True
        elif long_prefix(word, "source"):  # (`--source=REV`, `--sou REV`: git's prefixes)
            value = word.split("=", 1)[1] if "=" in word else ""
            source, taken = value or source, None if "=" in word else "source"
        elif word in _VALUED or ("=" not in word and long_prefix(word, *_LONG_VALUED)):
            taken = "value"
        elif word[:1] == "-" and word[1:2] != "-" and "s" in word:  # `-s REV`, `-sREV`, `-Ws REV`
            value = word[word.index("s") + 1:]
            source, taken = value or source, None if value else "source"
        elif sub == "checkout" and word[:1] != "-" and source is None:
            source = word
    return source or ("HEAD" if _staged(sub, rest) else None), specs


def _staged(sub: str, rest: list[str]) -> bool:
    """Whether ``restore``'s words ``rest`` (before a ``--``) name ``--staged`` (``-S``,
    clustered too): it then restores from ``HEAD``, not the index."""
    options = rest[:rest.index("--")] if "--" in rest else rest
    return sub == "restore" and any(long_prefix(w, "staged") or (w[:1] == "-" and w[1:2] != "-" and
                                                        "S" in w) for w in options)


def _listed_word(source: str | None, specs: list[str], directory: str,
                 touches: Callable[[str], bool]) -> str | None:
    """The first of ``specs`` under which the listing of ``source``'s tree from ``directory``
    holds a path that ``touches`` a guarded item, or that cannot be listed."""
    from .writers import top_folder

    top = top_folder(directory)
    for spec in specs:
        pattern = spec[:1] == ":" or any(c in spec for c in "*?[")
        if source is None:  # (ls-files reads a pattern and git's magic as checkout does)
            args = ["ls-files", "-z", "--full-name", "--", spec]
        elif pattern:  # (ls-tree reads a pathspec as a path's start only: the whole tree)
            args = ["ls-tree", "-r", "-z", "--name-only", "--full-tree", source]
        else:
            args = ["ls-tree", "-r", "-z", "--name-only", "--full-name", source, "--", spec]
        listed = _run(directory, args)
        if listed is None or len(listed) > _MAX_PATHS:
            return spec
        if any(touches(p) for p in (posixpath.join(top, path) for path in listed)):
            return spec
    return None


def _run(directory: str, args: list[str]) -> list[str] | None:
    """The NUL-separated paths git prints for ``args`` run in ``directory``, or None when it
    cannot tell (no git, no repository, an unknown revision, a timeout)."""
    from .worktree import run_git

    try:
        out = run_git(directory, *_QUIET, *args)
    except (ValueError, OSError):
        return None
    if out is None:
        return None
    return [os.fsdecode(p) for p in out.split(b"\0") if p]
