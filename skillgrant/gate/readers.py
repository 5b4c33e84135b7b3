"""Programs known to write nothing their words name (review s41 W2).

``writers`` lists programs that write folders, and ``guards._named_file`` stops any program
naming a guarded *file*. A path inside a guarded *folder* (``.claude/hooks/x.sh``, a file of a
skill, of a ``PATH`` folder, of the plan's Python) was stopped only for the listed writers, and
a program in no list writes what its words name as well: ``gcc -E -P -x c src/x.sh -o
.claude/hooks/x.sh`` rewrites a hook script Claude Code runs outside the gate. The lists of
writers cannot be complete; the list of readers can be exact. So a word naming such a path, or
one the gate cannot name (an expansion, ``~user``), is let through only where each simple
command holding it is a program here that writes nothing its words name (``cat``, ``grep``,
``ls``, ``diff``; ``find`` without an action; ``git`` reading), or runs the path as the
program, or as the script of an interpreter (``python .claude/skills/x/run.py``: the script's
own code is the plan's to grant). Anything else holding it is ``unknown``.
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Sequence
from typing import Final

from .writers import GIT_KEEPS, _edits, _git_subcommand

#: Programs that write no file their words name, whatever the words (no output option, no
#: in-place edit, no command run from their words). Not here: ``less`` (``-o`` logs),
#: ``file`` (``-C`` writes a compiled magic file), ``tree`` (``-o``), ``sort``/``uniq``
#: (outputs), ``awk``/``sed``/``perl`` (programs that write), ``yq`` (``-i``), wrappers
#: (``env``, ``timeout``, ``xargs``, ``command``, ``sudo``), which run their words.
READERS: Final = frozenset({
    "cat", "tac", "head", "tail", "nl", "od", "hexdump", "strings", "wc", "cut", "paste",
    "join", "comm", "fold", "fmt", "expand", "unexpand", "column", "rev", "base64", "base32",
    "grep", "egrep", "fgrep", "rg", "ls", "stat", "du", "lsattr", "getfacl", "readlink",
    "realpath", "basename", "dirname", "diff", "cmp", "md5sum", "sha1sum", "sha224sum",
    "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum", "test", "[", "echo",
    "printf", "true", "false", "pwd", "cd", "pushd", "jq",
})
#: ``git`` subcommands that write no file their words name, ``.git`` apart (``writers``'
#: ``GIT_KEEPS`` but ``config``, which writes a ``--file``, and ``init``, its folder; and but
#: ``--output``, which any of them takes).
GIT_READS: Final = GIT_KEEPS - {"config", "init"} | {"check-ignore", "check-attr"}
#: Interpreters whose first operand is the script they run (read, not written).
_INTERPRETER: Final = re.compile(r"python(?:[0-9.]*)|bash|sh|dash|zsh|node")
#: Options an interpreter may take before its script (none of them names a file or code).
_BEFORE_SCRIPT: Final = frozenset({"-u", "-B", "-E", "-I", "-s", "-S", "-O", "-OO", "-q",
                                   "-x", "-e", "-v", "-eu", "-ex", "--"})
#: Words in front of a simple command's program: assignments, and bash's reserved words.
_ASSIGNMENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_RESERVED: Final = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "{",
                              "}", "time", "fi", "done", "esac"})
#: A substitution: a command inside a word, which the words here do not separate.
_SUBSTITUTION: Final = re.compile(r"`|\$\(|[<>]\(")
_OPERATOR: Final = frozenset("();|&\n")


def writer_of(text: str, doubtful: Sequence[str]) -> str | None:
    """The first of ``doubtful`` (words of the shell command ``text`` naming a path in a
    guarded folder, or one the gate cannot name) that a simple command of ``text`` may write:
    one holding it that is not a reader (``READERS``) or its program, or that the gate
    cannot separate (a substitution, an open quote). None when each is only read or run."""
    commands = _commands(text)
    for word in doubtful:
        holding = [c for c in commands or () if any(word in w for w in c)]
        if not holding or not all(_reads(c, word) for c in holding):
            return word
    return None


def _reads(command: tuple[str, ...], word: str) -> bool:
    """Whether the simple command ``command`` writes nothing ``word`` names."""
    at = 0
    while at < len(command) and (command[at] in _RESERVED or _ASSIGNMENT.match(command[at])):
        at += 1
    if at == len(command) or command[0] == ">":
        return False  # a redirection's target, or an assignment's value
    program, rest = command[at], list(command[at + 1:])
    if not any(word in w for w in rest):
        return True  # the path is the program run
    name = program if "/" not in program else ""  # `./cat` is a script of the project
    if name in READERS:
        return True
    if name == "find":
        return not _edits("find", rest)
    if name == "git":
        return _git_subcommand(rest) in GIT_READS and not any(
            w.startswith(("--output", "-o", "--ext", "-O", "--open")) for w in rest)
    if _INTERPRETER.fullmatch(name):
        script = next((i for i, w in enumerate(rest) if w not in _BEFORE_SCRIPT), None)
        return script is not None and word in rest[script] and not any(
            word in w for w in rest[script + 1:])
    return False


@functools.lru_cache(maxsize=64)
def _commands(text: str) -> tuple[tuple[str, ...], ...] | None:
    """The simple commands of ``text`` (each redirection's target apart, led by ``>``);
    None when a substitution or an open quote keeps the gate from separating them."""
    if _SUBSTITUTION.search(text):
        return None
    lexer = shlex.shlex(text, posix=True, punctuation_chars="();<>|&\n")
    lexer.whitespace = " \t"
    lexer.whitespace_split = True
    lexer.commenters = ""  # a comment read as words: more commands, never fewer
    found: list[tuple[str, ...]] = []
    words: list[str] = []
    target = False
    try:
        for token in lexer:
            if token and set(token) <= _OPERATOR | {"<", ">"}:
                target = "<" in token or ">" in token  # `gcc -o > log x`: one command
                if not target:
                    found.append(tuple(words))
                    words = []
            elif target:
                found.append((">", token))
                target = False
            else:
                words.append(token)
    except ValueError:
        return None
    return tuple(c for c in (*found, tuple(words)) if c)
