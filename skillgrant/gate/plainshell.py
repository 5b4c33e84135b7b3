"""The fast path of the shell analysis: a command that is plainly a list of simple commands,
read by regular expressions instead of the bash grammar.

``plain_commands(command)`` reads a command made only of simple commands

* joined by ``" && "``, ``" || "``, ``" | "`` or ``"; "``, written exactly so;
* each a name and its arguments, separated by single spaces;
* whose name is unquoted, of letters, digits and ``_./+-`` (``+`` and ``-`` not first), and
  no runner, wrapper or declaration (``check_runnable`` lets it through) nor a keyword;
* whose arguments are each one of: a run of letters, digits and ``_./:=@%+,-``; a
  single-quoted string; a double-quoted string without ``$``, a backquote, a backslash or
  ``!`` (nor blanks only). Quoted strings hold printable ASCII only, and never ``$``, a
  backquote, a backslash, ``<(`` or ``>(``, so nothing ``lexical_doubt`` refuses is read here;
* no keyword (``KEYWORDS``) unquoted anywhere.

Bash reads each such command the same way: no character outside quotes expands, globs,
redirects, starts a comment or an assignment, and none inside them is special there; so each
word is the characters between two separators, one pair of quotes removed. Its answer is each
simple command's words and text, exactly as ``shell.analyse`` reads them with tree-sitter; for
any other command it answers None, and the grammar decides. tests/gate/test_plain_shell.py
checks both, against tree-sitter and under bash.
"""

from __future__ import annotations

import re
from shlex import quote

from ..lazy import compile_on_use
from ..limits import MAX_SHELL_NODES
from .optables import READ as OPTIONS_READ
from .optspecs import GIT_RUNNING, SPECS
from .words import EXAMINED, FAMILY_NAMES, Doubt, Word, check_runnable, examined

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Words bash or tree-sitter's grammar gives a meaning of their own (reserved words; the
#: grammar's declaration and ``unset`` keywords and its ``==``), refused unquoted anywhere.
KEYWORDS: Final = frozenset({
    "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
    "in", "function", "select", "time", "coproc", "declare", "typeset", "export", "readonly",
    "local", "unset", "unsetenv", "==",
})
#: The longest command read here. Each character makes at most three syntax nodes and each
#: operator one level of nesting, so a command this short is far under ``MAX_SHELL_NODES`` and
#: under the depth the tree-sitter walk can follow: the grammar would not refuse it as too big.
MAX_PLAIN_CHARS: Final = MAX_SHELL_NODES // 10

#: Tokens a simple command is looked at further for: a keyword anywhere, or a name
#: ``check_runnable`` examines (it examines the last part of a path too).
_LOOKED_AT: Final = KEYWORDS | EXAMINED
#: Those ``plain_texts`` looks at anywhere; a program whose options are read (``OPTIONS_READ``)
#: leads its command, and is looked at there.
_TEXT_LOOKED_AT: Final = KEYWORDS | (EXAMINED - OPTIONS_READ)
#: git's subcommands a plain command reads further (all others run no program they name).
GIT_READ: Final = GIT_RUNNING | {"bisect", "submodule"} | {
    name.split(" ", 1)[1] for name in SPECS if name.startswith("git ")}
#: A simple command as ``shell.Simple`` holds it: its words, its text, the wrappers stripped
#: (none: a wrapper is a name ``check_runnable`` refuses).
PlainCommand = tuple[tuple[Word, ...], str, tuple[str, ...]]

_SAFE = r"[A-Za-z0-9_./:=@%+,-]"
#: Builtins that set variables for later commands: the grammar's reading carries them.
_ASSIGNING: Final = frozenset({"read", "getopts", "wait", "printf", "mapfile", "readarray"})


def _quoted(quote: str, barred: str) -> str:
    """A quoted string of printable ASCII, without ``barred`` (what expands inside the quotes,
    and what ``lexical_doubt`` reads as code anywhere), nor ``<(`` or ``>(``."""
    run = "[" + "".join(re.escape(chr(c)) for c in range(0x20, 0x7F)
                        if chr(c) not in quote + barred + "<>") + "]*"
    return rf"{quote}{run}(?:[<>](?!\(){run})*{quote}"


_SINGLE = _quoted("'", "$`\\")
#: tree-sitter reads a double-quoted string of blanks as empty (bash keeps the blanks): left to
#: the grammar, so that both paths give the same answer.
_DOUBLE = r'(?!" +")' + _quoted('"', "$`\\!")
_ARGUMENT = rf"(?:{_SAFE}+|{_SINGLE}|{_DOUBLE})"
#: A command name: tree-sitter misreads some with ``@``, ``%`` or ``+:`` (``a@b``, ``a%``), so
#: fewer characters than in an argument.
_NAME = r"[A-Za-z0-9_./][A-Za-z0-9_./+-]*"
#: A plain command: simple commands joined by operators, each written with single spaces (a
#: name, then arguments, each after a blank, and operators, each before a name).
PLAIN: Final = re.compile(rf"{_NAME}(?: {_ARGUMENT}|(?: && | \|\| | \| |; ){_NAME})*")
#: In a plain command, one word (quoted strings may hold blanks and operators), and one simple
#: command: its words, single-spaced.
_WORD = re.compile(r"[^ ;&|'\"]+|'[^']*'|\"[^\"]*\"")
_COMMAND = re.compile(rf"(?:{_WORD.pattern})(?: (?:{_WORD.pattern}))*")
#: The operators between a plain command's simple commands, where it holds no quotes.
_OPERATOR = compile_on_use(r" && | \|\| | \| |; ")


def plain_commands(command: str) -> list[PlainCommand] | None:
    """The simple commands of a plain ``command``, or None when ``command`` is not plain (the
    grammar decides it) or a command in it is not runnable (the grammar says why).

    >>> plain_commands("git add -A && git commit -m 'fix 12'")[1][1]
    "git commit -m 'fix 12'"
    """
    parts = _parts(command)
    if parts is None:
        return None
    commands: list[PlainCommand] = []
    for text, tokens in parts:
        words = tuple(map(_WORDS.__getitem__, tokens))
        if (not (_LOOKED_AT.isdisjoint(tokens) and "/" not in tokens[0] and not examined(
                tokens[0])) and \
                not _understood(tokens, words)) or tokens[0] in _ASSIGNING:
            return None  # the grammar says why, or what the command assigns
        commands.append((words, text, ()))
    return commands


def plain_texts(command: str) -> list[str] | None:
    """The call gate's shortcut: for a plain ``command`` whose tokens hold no keyword and no
    name ``check_runnable`` examines, each simple command's words as ``shlex.join`` writes
    them (the text the gate matches); None for any other command, which ``plain_commands``
    or the grammar reads. An unquoted simple command is its own text: its tokens are
    characters ``shlex.quote`` leaves as they are, single-spaced.

    >>> plain_texts('git add -A && git commit -m "fix 12"')
    ['git add -A', "git commit -m 'fix 12'"]
    """
    parts = _parts(command)
    if parts is None:
        return None
    texts: list[str] = []
    for text, tokens in parts:
        if not _TEXT_LOOKED_AT.isdisjoint(tokens) or "/" in tokens[0] or (
                ("-" in tokens[0] or tokens[0] in FAMILY_NAMES) and examined(tokens[0])):
            return None
        # A program whose options are read has them read, but git with a plain subcommand
        # first that has no table and runs nothing its words name (``git add``)
        if tokens[0] in OPTIONS_READ and (
                tokens[0] != "git" or len(tokens) < 2 or tokens[1] in GIT_READ or
                tokens[1][:1] in ("-", "'", '"')) and not _understood(
                tokens, tuple(map(_WORDS.__getitem__, tokens))):
            return None  # its options, as the program reads them (optables)
        if "'" in text or '"' in text:
            # An unquoted token is a word shlex.quote leaves as it is.
            text = " ".join([quote(t[1:-1]) if t[0] in "'\"" else t for t in tokens])
        texts.append(text)
    return texts


def _parts(command: str) -> list[tuple[str, list[str]]] | None:
    """The simple commands of a plain ``command``, each its text and its tokens;
    None when it is not plain."""
    if len(command) > MAX_PLAIN_CHARS or not PLAIN.fullmatch(command):
        return None
    if "'" in command or '"' in command:
        texts = _COMMAND.findall(command)
    elif "|" in command or ";" in command:
        texts = _OPERATOR.split(command)
    else:  # "&" is in no unquoted word: every "&&" joins two commands
        texts = command.split(" && ")
    # The tokens of each: its words, quotes kept.
    return [(text, _WORD.findall(text) if "'" in text or '"' in text else text.split(" "))
            for text in texts]


def joined_words(values: list[str]) -> str:
    """``shlex.join(values)``, at once when no word needs quoting (none is empty, holds a blank
    or anything but the characters ``shlex.quote`` leaves as they are)."""
    joined = " ".join(values)
    if "" in values or joined.count(" ") != len(values) - 1 or _NEEDS_QUOTES.search(joined):
        return " ".join(map(rendered, values))
    return joined


def rendered(value: str) -> str:
    """One literal word as the gate matches it: as ``shlex.quote`` writes it, but ``[`` and
    ``]`` (``test``'s brackets) bare, as a plan writes them (``Bash([ -f *)``)."""
    if value in ("[", "]") or (value and not _SHLEX_UNSAFE(value)):
        return value
    return quote(value)


#: What ``shlex.quote`` quotes (its own test), and the same with a blank allowed.
_SHLEX_UNSAFE: Final = re.compile(r"[^\w@%+=:,./-]", re.ASCII).search
_NEEDS_QUOTES: Final = compile_on_use(r"[^\w@%+=:,./ -]", re.ASCII)


def _understood(tokens: list[str], words: tuple[Word, ...]) -> bool:
    """Whether a simple command holds no keyword and ``check_runnable`` lets it through."""
    if not KEYWORDS.isdisjoint(tokens):
        return False
    try:
        check_runnable(list(words))
    except Doubt:
        return False
    return True


class _Words(dict[str, Word]):
    """The word each token stands for, its quotes removed (nothing inside them is special
    here). Kept while there are few: most words (``git``, ``-m``) come again and again."""

    def __missing__(self, token: str) -> Word:
        if len(self) >= _KEPT_WORDS:
            self.clear()
        word = self[token] = _new_word(Word, (token[1:-1] if token[0] in "'\"" else token,
                                                 False, ""))  # (``Word(value)``, at once)
        return word


_KEPT_WORDS: Final = 4096
_new_word: Final = tuple.__new__
_WORDS: Final = _Words()
