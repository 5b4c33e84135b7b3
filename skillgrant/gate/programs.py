"""How far a command grant's star reaches: into the program, and out of a folder.

**A star in the program word** (``Bash(* --help)``, ``Bash(py* *)``, ``Bash(FOO=1 *)``) approves,
by the rule's letter, any program that fits it. ``words.RUNNERS`` refuses the programs known to
run a command given in their words, but no such list is ever complete (``faketime``,
``chronic``, ``docker exec``, ``kubectl exec``, ``ssh host cmd``, every interpreter's ``-c``:
review N1 of issue 29). So a grant whose program is open (``program_open``) covers only the
programs of ``INERT``, an allow-list of programs and builtins that run no program named in their
words or options: a command led by any other program is judged against the grants that name
their program. A star after a folder (``Bash(${CLAUDE_SKILL_DIR}/scripts/*)``, ``Bash(./bin/*)``)
confines the program to that folder, not to a list: the folder's files are the plan's to name
(``..`` out of it is refused, ``words._name``). A grant naming its program, and a tool-wide
grant, are read as before.

**A word after the folder a writing program's star confines** (``Bash(rm -rf ./build/*)``,
``Bash(tee ./out/*)``): the star spans words, so ``rm -rf ./build/x /home/u`` fits the rule's
letter; a later word that does not start with that folder is ``unknown`` (``folder_star``,
``leaves``; review T2b). Only for the programs of ``writers.FOLDER_WRITERS``: a script's own
arguments (``Bash(python3 ${CLAUDE_SKILL_DIR}/scripts/*)``) are the script's to read.

**A word that climbs out of a folder it names** (``rm -rf ./build/../../home``) is ``unknown``
under a grant with a star (``climbs``): the runtime path-checks a command a glob rule approves
and refuses a path outside the working directories (docs/call-gate.md), and the gate cannot
tell which folder the star meant. A leading ``../`` names no folder first and is read as
written; an EXACT grant names the climb itself.
"""

from __future__ import annotations

import re

from ..domains.base import Glob
from .writers import FOLDER_WRITERS

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Programs and builtins that run no program named in their words or options, whatever those
#: hold (checked against GNU coreutils, grep, and bash's builtins; ``printf -v``, ``test -v``,
#: ``read`` and the declarations are judged by ``words.check_runnable`` first). Left out on
#: purpose: ``sort`` (``--compress-program``), ``diff`` (``-l`` runs ``pr``), ``tar``, ``less``,
#: ``man``, ``find``, ``git``, ``file``, every interpreter and package manager.
INERT: Final = frozenset({
    # bash builtins that run nothing (``words.CARRY_FREE``)
    "echo", "printf", ":", "true", "false", "test", "[", "read", "cd", "pwd", "exit", "return",
    "break", "continue", "shift", "export", "declare", "typeset", "local", "readonly", "unset",
    "wait", "getopts",
    # reading and printing
    "ls", "cat", "head", "tail", "wc", "nl", "tac", "rev", "cut", "paste", "tr", "uniq",
    "fold", "fmt", "expand", "unexpand", "comm", "join", "column", "od", "hexdump", "xxd",
    "base64", "base32", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum",
    "sha512sum", "b2sum", "cksum", "grep", "egrep", "fgrep", "cmp", "stat", "du", "df",
    "basename", "dirname", "realpath", "readlink", "seq", "date", "uname", "whoami", "id",
    "groups", "nproc", "arch", "printenv", "tty", "sleep", "yes",
    # writing files (judged by the rule's letter, as any named program is)
    "mkdir", "rmdir", "touch", "cp", "mv", "rm", "ln", "chmod", "tee", "truncate", "mktemp",
})
_ASSIGNMENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
_QUOTING: Final = frozenset("'\"\\$`")


def inert(program: str | None) -> bool:
    """Whether ``program`` (a simple command's program word, after its assignments and the
    stripped wrappers) is one a grant with an open program may cover: on ``INERT``, or an
    assignment standing alone (it runs nothing)."""
    return program is not None and (program in INERT or _ASSIGNMENT.match(program) is not None)


def program_open(globs: tuple[Glob, ...]) -> bool:
    """Whether a command pattern's globs let a star stand in its program word (after its
    assignment words) without a folder before it: ``* --help``, ``py* *``, ``FOO=1 *``,
    ``/*``. A program written with quotes or an escape counts as open too (its words are
    not told apart here)."""
    for glob in globs:
        if glob.stars == 0:
            continue
        words = glob.segments[0].split(" ")
        i = 0
        while i < len(words) - 1 and _ASSIGNMENT.match(words[i]) and \
                _QUOTING.isdisjoint(words[i]):
            i += 1
        if i < len(words) - 1:  # a whole program word before the first star
            if not _QUOTING.isdisjoint(words[i]):
                return True
            continue
        partial = words[-1]
        if partial.rfind("/") <= 0 or not _QUOTING.isdisjoint(partial) or \
                _ASSIGNMENT.match(partial):  # `FOO=/a/*`: the star may end the value (N1b)
            return True
    return False


def climbs(text: str) -> bool:
    """Whether a command's text holds a word that names a folder and then climbs out of it
    with ``..`` (``./build/../x``, ``a/..``, ``--out=src/../..``); a leading ``../`` and a
    root's ``/..`` do not count."""
    start = text.find("/..")
    while start >= 0:
        end = start + 3
        if end == len(text) or text[end] in "/ '\"":
            before = start
            while before > 0 and text[before - 1] not in "/ '\"=":
                before -= 1
            if text[before:start] not in ("", ".."):
                return True
        start = text.find("/..", start + 1)
    return False


def folder_star(globs: tuple[Glob, ...]) -> tuple[int, str] | None:
    """Where a pattern's first star follows a folder in a path operand of a program that
    writes what its words name (``writers.FOLDER_WRITERS``): the index of that word and the
    folder (``rm -rf ./build/*``: ``(2, "./build/")``); None for any other pattern."""
    for glob in globs:
        if glob.stars == 0:
            continue
        words = glob.segments[0].split(" ")
        i = 0
        while i < len(words) - 1 and _ASSIGNMENT.match(words[i]):
            i += 1
        partial = words[-1]
        if len(words) - 1 > i and words[i].rsplit("/", 1)[-1] in FOLDER_WRITERS and \
                "/" in partial and not partial.startswith("-") and \
                _ASSIGNMENT.match(partial) is None:
            return len(words) - 1, partial[:partial.rfind("/") + 1]
        return None
    return None


def leaves(text: str, at: int, folder: str) -> bool:
    """Whether a word of a command's text after its ``at``-th (the words a star after
    ``folder`` spans) names a path that does not start with ``folder``: an option's value
    after ``=`` too, and any quoted word."""
    for word in text.split(" ")[at + 1:]:
        value = word.partition("=")[2] if word.startswith("-") else word
        if value and not value.startswith(folder):
            return True
    return False
