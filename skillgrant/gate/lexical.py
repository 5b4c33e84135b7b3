"""What makes a shell command unreadable before it is parsed: text where bash and tree-sitter
part ways, or where bash runs code the grammar leaves as plain text.

tests/gate/test_bash_differential.py found each of these against GNU bash; docs/call-gate.md
lists them. A doubt here is the gate's ``unknown``.
"""

from __future__ import annotations

import re
from typing import Final

from ..grants import lone_surrogate
from ..lazy import compile_on_use

#: The ``${…}`` forms read here: a plain name (or positional, special, ``name[@]``…) with a
#: default, an alternative, a length, a pattern removal or replacement, or a case change. Not
#: ``${x:=word}`` and ``${x=word}``: they assign the variable (``${CDPATH:=/evil}``). Bash
#: evaluates the others arithmetically or indirectly (``${x:$i}``, ``${a[$i]}``, ``${!x}``,
#: ``${x@P}``), and a variable's value can then run a command (``x='a[$(id)]'``).
_EXPANSION_START = re.compile(r"\$\{")
PLAIN_EXPANSION = re.compile(
    r"\$\{#?(?:[A-Za-z_][A-Za-z0-9_]*(?:\[[@*0-9]\])?|[0-9]+|[@*#?$!-])"
    r"(?:\}|(?::?[-?+]|##?|%%?|//?|\^\^?|,,?)[^}]*\})", re.DOTALL)

#: A line continuation (backslash, newline) not after a space or a tab: bash removes it before
#: it reads words, so it can join two words (`rm -f\<nl>r`) or hide a substitution inside
#: quotes (`"$\<nl>(…)"`), and tree-sitter keeps the pieces apart.
_JOINING_CONTINUATION = re.compile(r"(?<![ \t])\\\n")
#: Text bash runs or evaluates where tree-sitter may see plain text: arithmetic, command and
#: process substitution (inside ``${…}`` words and here-document bodies the grammar leaves
#: them unparsed).
_HIDDEN_CODE = ("$[", "$((", "`", "<(", ">(")
#: Characters tree-sitter reads as blanks where bash does not: a carriage return, a form feed,
#: a vertical tab, and a backslash before a space or a tab (an escaped blank, inside a word).
#: A ``#`` after one starts a comment for tree-sitter and not for bash.
_FALSE_BLANK = re.compile(r"[\r\f\v]|\\[ \t]")
#: ``{name}>`` and the like: bash opens a descriptor and assigns its number to the variable.
_FD_VARIABLE = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:\[[^]]*\])?\}[<>]")
#: ``"$@"`` and ``"${name[@]}"``: a quoted expansion that may give no word or several.
SPLITS_IN_QUOTES = re.compile(r"\$@|\$\{[^}]*\[@\][^}]*\}|\$\{@")


def lexical_doubt(command: str) -> str | None:
    """Why ``command`` is not analysed before it is parsed, or None."""
    if "\x00" in command:
        return "the command holds a NUL character"
    if lone_surrogate(command) is not None:
        return "the command holds a lone surrogate, which is not text bash can be given"
    if _JOINING_CONTINUATION.search(command):
        return ("the command has a line continuation inside a word, which bash removes before "
                "it reads the words")
    if _FALSE_BLANK.search(command):
        return ("the command holds a carriage return, a form feed, a vertical tab or an escaped "
                "blank, which bash and the parser read differently")
    if _FD_VARIABLE.search(command):
        return ("the command holds a redirection to a descriptor variable ({name}>), which "
                "assigns the variable")
    marker = next((m for m in _HIDDEN_CODE if m in command), None)
    if marker is not None:
        return (f"the command holds {marker!r}: a substitution or arithmetic, whose code the "
                "gate does not analyse")
    for start in _EXPANSION_START.finditer(command):
        if not PLAIN_EXPANSION.match(command, start.start()):
            end = command.find("}", start.start())
            shown = command[start.start():end + 1 if end >= 0 else start.start() + 20]
            return (f"the expansion {shown!r} is evaluated arithmetically or indirectly, where "
                    "a variable's value can run a command")
    return None


#: A bracket expression Python's ``fnmatch`` does not read as bash: ``[^x]``, a class
#: (``[:alpha:]``, ``[=a=]``, ``[.a.]``) anywhere inside one, after a ``]`` first too
#: (review s43 G1, G1c, G1e, G1f).
BASH_CLASS: Final = compile_on_use(r"\[\^|\[!?\]?[^\]]*\[[:=.]")
