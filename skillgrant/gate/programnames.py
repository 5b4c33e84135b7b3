"""A program word the writers' lists cannot read by its name (review s44 W2): a pattern bash
expands to the name of a program of theirs (``/usr/bin/gi[t]``, ``/usr/bin/[c]p``; a bare
``gi[t]`` beside a file named ``git``, which bash then finds on ``PATH``), and git's builtins
under their dashed names in git's exec path (``/usr/lib/git-core/git-checkout``).

A copy of a program under another name (``out/gg``, review s44 W2b) is no name of the lists:
the boundary docs/call-gate.md states ("What is left")."""

from __future__ import annotations

import fnmatch
import os
import posixpath
from collections.abc import Collection

from ..lazy import compile_on_use
from . import files

#: A bracket expression ``fnmatch`` reads otherwise than bash: ``[^x]``, a class anywhere in
#: one, after a ``]`` first too (``[]x[:alpha:]]``; review s43 G1, G1c, G1e, G1f).
BASH_CLASS: Final = compile_on_use(r"\[\^|\[!?\]?[^\]]*\[[:=.]")
#: Pattern characters in a word's last part.
_PATTERN = compile_on_use(r"[*?\[]")
#: git's exec paths, where its builtins are programs of their own (``git-checkout``).
_GIT_EXEC: Final = ("/usr/lib/git-core", "/usr/libexec/git-core")

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def program_named(word: str, names: Collection[str],
                  directory: str | None) -> tuple[str, list[str]] | None:
    """The program of ``names`` that ``word`` may run as, with the words it stands before
    (``git-checkout``: ``git``, ``["checkout"]``), when the word is a pattern bash may expand
    to one of them in a folder of programs (or, bare, in ``directory``), or git's dashed
    builtin in a folder of programs or git's exec path; None otherwise."""
    head, _, last = word.rpartition("/")
    if last[:4] == "git-" and "git" in names and not _PATTERN.search(last) and (
            "." not in last if head == "" else _programs_folder(head, directory)):
        # (a bare `git-NAME` on PATH: `git-lfs`; `git-guide.md` is an operand's name)
        return "git", [last[4:]]
    if not _PATTERN.search(last):
        return None
    # a bracket expression fnmatch reads otherwise than bash: any name
    matched = sorted(names) if BASH_CLASS.search(last) else [
        n for n in sorted(names) if fnmatch.fnmatchcase(n, last)]
    first = "git" if "git" in matched else matched[0] if matched else None
    if head:  # a path: a pattern in a folder of programs may be any of them, git's dashed
        # builtins too (`git-c[h]eckout`: review s44 W2c, W2d), read as git
        if not _programs_folder(head, directory):
            return None
        return (first, []) if first is not None else ("git", ["?"])
    if first is None:
        return None
    if directory is None:  # bare: bash expands it in the call's folder, then finds it on PATH
        return first, []
    found = next((n for n in matched if files.exists(posixpath.join(directory, n))), None)
    return (found, []) if found is not None else None


def _programs_folder(head: str, directory: str | None) -> bool:
    """Whether the folder ``head`` (maybe a pattern; relative from ``directory``) may be a
    folder of ``PATH`` or git's exec path."""
    if directory is None and head[:1] != "/":
        return True
    folder = posixpath.normpath(posixpath.join(directory or "/", head or "/"))
    places = [p for p in os.environ.get("PATH", "").split(":") if p]
    places += [*_GIT_EXEC, os.environ.get("GIT_EXEC_PATH") or _GIT_EXEC[0]]
    places = [posixpath.normpath(p) for p in places]
    if _PATTERN.search(folder):
        return any(fnmatch.fnmatchcase(p, folder) for p in places)
    try:
        real = files.realpath(folder)
    except (OSError, ValueError):
        return True
    return folder in places or real in {files.realpath(p) for p in places}


def is_interpreter(name: str) -> bool:
    """Whether ``name`` is an interpreter's (``python``, ``python3``, ``python3.11``)."""
    return name.startswith("python") and all(c.isdigit() or c == "." for c in name[6:])
