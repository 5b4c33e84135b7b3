"""Why the folder moves ``moves.folder_moves`` reads from a command cannot be taken as they
are (session 50, reviews s49-greview3 V1, s50-greview2 A1 R2 D1 N1 I1): what may send a
``cd`` elsewhere than its operand (bash's ``cdable_vars``, ``CDPATH`` or ``HOME`` set under
any spelling), make a relative move again (a loop, a function, a trap's code, the shell's
history), go back to a folder the entry did not name (``cd -``, ``popd``, a bare ``pushd``
with no move before them, or ``DIRSTACK``/``OLDPWD`` set), or move a program with no shell
move at all (an interpreter's ``chdir``). Each is refused, naming why: never guessed."""

from __future__ import annotations

import os

from ..lazy import compile_on_use
from .andlists import CHAINED
from .writers import braced

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: What ``moves._operands`` gives for a move that may be made again, a command it cannot
#: name (it may set cdable_vars, CDPATH, HOME by a name it computes), and a move back to an
#: earlier folder (``cd -``, ``popd``, a bare ``pushd``).
REPEAT: Final = "\0"
DOUBT: Final = "\0?"
BACK: Final = "\0<"
#: What may set (or spell) bash's cdable_vars once quotes are gone; an ANSI-C escape.
_CDABLE: Final = compile_on_use(r"shopt|BASHOPTS|cdable")
_ANSI_ESCAPE: Final = compile_on_use(r"\$'[^']*\\")
#: What a move back may go to besides the folders named before it.
_STACK: Final = compile_on_use(r"DIRSTACK|OLDPWD")
#: An interpreter's own folder change (perl's and PHP's ``chdir``, ``os.chdir``,
#: ``process.chdir()``, ``Dir.chdir``, Go's ``os.Chdir``, R's ``setwd``, PowerShell's).
#: Only as code: a call, an argument or a block after it (``npm run chdir`` is a script's name).
_CHDIR: Final = compile_on_use(r"(?i)(?<![-\w])(?:f?chdir|setwd|set-location|push-location)"
                               r"(?=\s*[(\"'${]|[ \t]+[\w./~])")
UNQUOTED: Final = compile_on_use(r"['\"\\]")


def trusted(text: str, found: tuple[str, ...]) -> tuple[str, ...] | str:
    """The moves of ``found`` (``moves._operands``' answers for the command ``text``, its
    marks gone), or why they cannot be taken as they are."""
    lowered = text.lower()  # (the cheap tests first: a hook process asks for every entry)
    unquoted = UNQUOTED.sub("", text) if any(c in text for c in "'\"\\") else text
    if any(n in lowered for n in ("chdir", "setwd", "-location")) and _CHDIR.search(unquoted):
        return "an interpreter's code may change its folder (chdir) before it runs a program"
    if ("auto" in lowered or "shopt" in lowered or "-O" in text) and _autocd(unquoted):
        return "bash's autocd may run a folder's name as a 'cd' (s51-greview3 B4)"
    moves = tuple(m for m in found if m[:1] != "\0" or m[:2] == CHAINED)
    if BACK in found and (_STACK.search(unquoted) or found.index(BACK) < next(
            (at for at, m in enumerate(found) if m[:1] != "\0"), len(found))):
        return "'cd -', 'popd' or a bare 'pushd' may go to a folder the command does not name"
    if not moves:
        return ()
    spelled = {form for word in unquoted.split() for form in braced(word)}
    if any("CDPATH" in form for form in spelled):
        return "CDPATH may send a 'cd' to a folder the gate cannot name"
    if REPEAT in found and any(m[:1] != "/" for m in moves):
        return "a loop, a function, a trap or the shell's history may repeat a relative move"
    if DOUBT in found or _CDABLE.search(unquoted) or _ANSI_ESCAPE.search(text) or \
            "cdable_vars" in os.environ.get("BASHOPTS", ""):
        return ("bash's cdable_vars (or a variable the command names by an expansion) may "
                "send a 'cd' to a variable's folder")
    if os.path.expanduser("~") in moves and any("HOME" in form for form in spelled):
        return "'cd' goes to a home folder the command may set"
    return moves


def _autocd(text: str) -> bool:
    """Whether ``text`` (its quotes gone) may set bash's autocd (``bash -O autocd``, ``shopt
    -s autocd`` in any brace spelling, or a ``shopt``/``-O`` whose option is an expansion)."""
    words = text.split()
    return any("autocd" in form for w in words for form in braced(w)) or any(
        w in ("shopt", "-O", "+O") and any(c in f for f in words[at + 1:at + 3] for c in "$`")
        for at, w in enumerate(words))


#: Commands that assign the variables their words name (a nameref with ``-n``).
_ASSIGNERS: Final = frozenset({"declare", "typeset", "local", "export", "readonly", "read",
                               "mapfile", "readarray"})


_MARKED: Final = frozenset({"alias", "function", "trap", "fc", "history", "set", "printf",
                            *_ASSIGNERS})


def marks(words: list[str], at: int) -> list[str]:
    """What the command whose name is ``words[at]`` gives ``trusted`` besides its moves:
    ``REPEAT`` for a loop's or a function's start, a trap whose code may move, the history's
    ``fc`` or ``set -H``; ``DOUBT`` for a command named by an expansion, a nameref, a
    variable named by an expansion. ValueError for an alias (it may name a move)."""
    word = words[at]
    following = words[at + 1:at + 3]
    if word not in _MARKED and "$" not in word and "BASH_ALIASES" not in word and \
            following[:1] not in (["("], ["()"]):
        return []  # (most commands: none of these)
    if word == "alias" or "BASH_ALIASES" in word:
        raise ValueError("an alias may name a move ('alias c=cd'), which the gate does not "
                         "read")
    if word == "function" or following[:2] == ["(", ")"] or following[:1] == ["()"] or (
            word == "trap" and any(MAY_MOVE.search(w) for w in following)) or (
            word in ("fc", "history") or (word == "set" and any(
                _SET_H.fullmatch(f) or f in ("history", "histexpand")
                for w in _until_operator(words[at + 1:]) for f in braced(w)))):
        return [REPEAT]  # (the shell's history: `fc -s`, `!!` run a move again)
    rest = list(_until_operator(words[at + 1:]))
    if ("$" in word and not ASSIGNMENT.match(word)) or (word in _ASSIGNERS and any(
            _NAMEREF.fullmatch(w) or any(c in w.partition("=")[0] for c in "$`")
            for w in rest)) or (word == "printf" and _PRINTF_V.search(" ".join(rest))):
        return [DOUBT]
    return []


def _until_operator(words: list[str]) -> list[str]:
    """``words`` up to the first of the shell's control operators."""
    return list(words[:next((at for at, w in enumerate(words) if w in _CONTROLS), len(words))])


_CONTROLS: Final = frozenset({";", "&&", "||", "|", "&", "|&", "(", ")", ";;"})
#: What a word must hold to move a folder (a move's word, an expansion) once ``UNQUOTED``'s quotes
#: are removed (``moves``, and a trap's code here); an assignment's start.
MAY_MOVE: Final = compile_on_use(r"cd|pushd|popd|-C|--ch|--dir|--git-dir|--work-tree|GIT_|"
                                  r"CDPATH|-execdir|[$`]")
_SET_H: Final = compile_on_use(r"[-+][A-Za-z]*H[A-Za-z]*")
_NAMEREF: Final = compile_on_use(r"-[A-Za-z]*n[A-Za-z]*")
_PRINTF_V: Final = compile_on_use(r"(?:^|\s)-v\s*\S*[$`]")
ASSIGNMENT: Final = compile_on_use(r"[A-Za-z_][A-Za-z0-9_]*=")


#: A parenthesis in quotes or after a backslash (the words lose them: E1).
QUOTED_PAREN: Final = compile_on_use(r"\\[()]|'[^']*[()]|\"[^\"]*[()]")


def physical_dotdot(words: list[str], at: int, operand: str, found: list[str],
                    physical: list[bool]) -> bool:
    """Whether the move at ``words[at]`` resolves a ``..`` of ``operand`` physically (a
    ``chdir``: ``-C``, ``--chdir``…, ``cd -P``, or ``cd`` after ``set -P``) past a folder
    that may be a link: one the operand names before it, or one an earlier move went to
    (review s51-greview3 E2). ``physical``: the caller's for ``words``, whether one of them
    sets ``-P`` (read once: 1,500 `cd ..` reading them all each took minutes, s58 T3)."""
    operand = operand.removeprefix(CHAINED)
    parts = operand.split("/")
    if ".." not in parts or operand[:1] == "\0":
        return False
    past = parts.index("..") > 0 or any(m[:1] != "\0" or m[:2] == CHAINED for m in found)
    logical = words[at] in ("cd", "pushd") and "-P" not in words[at + 1:at + 4]
    if logical and not physical:
        physical.append(any(w in ("-P", "physical") or (
            w[:1] == "-" and "P" in w and w[1:].isalpha() and words[i - 1] == "set")
            for i, w in enumerate(words)))
    return past and not (logical and not physical[0])


#: Words after which a word is a command's name (operators, reserved words, ``eval``, …).
LEADS: Final = frozenset({";", "&&", "||", "|", "&", "|&", "(", "{", "}", ")", ";;", "do",
                           "then", "else", "elif", "!", "time", "eval", "builtin", "command",
                           "exec", "if", "while", "until"})
#: The shell's redirection operators, as ``moves._words`` splits them.
REDIRECTS: Final = frozenset({"<", ">", ">>", "<<", "<<<", ">&", "<&", "&>", "&>>", ">|", "<>",
                              "<<-"})


def leads(words: list[str], at: int, memo: dict[tuple[str, int], str] | None = None) -> bool:
    """Whether ``words[at]`` is a command's name (past its assignments and redirections).
    ``memo``: the caller's for ``words``, the answer from each place a walk passed (each word
    walking back over 6,000 quoted ``cd >`` took minutes: s59-hfix's long calls)."""
    passed: list[int] = []
    answer = None
    while answer is None and at and (memo is None or ("lead", at) not in memo):
        passed.append(at)
        if ASSIGNMENT.match(words[at - 1]):
            at -= 1
        elif at >= 2 and words[at - 2] in REDIRECTS:  # (`>/dev/null trap …`: L2)
            at -= 2 + (at >= 3 and words[at - 3].isdigit())
        else:
            answer = words[at - 1] in LEADS
    if answer is None:
        answer = not at or (memo is not None and memo["lead", at] == "y")
    if memo is not None:
        memo.update(dict.fromkeys([("lead", place) for place in passed], "y" if answer else ""))
    return answer


def home(words: list[str], memo: dict[tuple[str, int], str]) -> str:
    """The folder ``cd`` without an operand goes to: the home folder, unless the command sets
    ``HOME`` (``HOME=.. cd``: review s44 M5), where it is a folder the gate cannot name.
    ``memo``: the caller's for ``words`` (read once: each bare ``cd`` read them all)."""
    if ("HOME", 0) not in memo:
        memo["HOME", 0] = "y" if any(w.startswith("HOME=") or w == "HOME" for w in words) else ""
    if memo["HOME", 0]:
        raise ValueError("'cd' goes to a home folder the command sets")
    return os.path.expanduser("~")
