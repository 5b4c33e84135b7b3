"""The folders a plan entry's programs may run in (issue 29, session 50, review s49-greview3
L1, M1, P1, T1, V1, H1, S1, F1, K2, C1, R1).

bash does not take one path through an entry: a ``cd`` may fail and leave the shell where it
was, move a subshell only (a pipeline's element, an ``&`` job, ``( … )``, ``<( … )``) or a
child (``bash -c 'cd sub'``, ``env -C sub``), and a trap's code runs where the shell is when it
fires. So the folders are the closure over every move the entry makes anywhere, in text order
(``moves.folder_moves``: nested ``-c`` code, a substitution's, a comment's words too; adding
a folder is sound): from the call's folder (``""``), each move's operand joined to every
folder found so far, each earlier folder kept. Every program of the entry is read in every
one of them. A move the gate cannot name (``cd -``, a pattern, ``CDPATH``, bash's
``cdable_vars``, a relative move a loop, a function or a trap may repeat), or more than
``moves.MAX_FOLDERS`` folders, refuses the plan; a move to a ``$`` folder is left to
``planprograms`` (refused where a program runs after it), one into
``${CLAUDE_SKILL_DIR}`` (guarded whole: G-13) adds no folder. An interpreter's code
that may reach ``chdir`` by a name it computes refuses the plan (``codemoves``). Each
command's own reading (``runneropts.entry_run``: the runners' option tables) must give a
folder of the set, or the plan is refused: the two readings never disagree silently."""

from __future__ import annotations

import functools
import itertools
import os

from ..lazy import compile_on_use
from .andlists import CHAINED
from .codemoves import code_doubt
from .environment import values
from .movedoubts import ASSIGNMENT
from .moves import MAX_FOLDERS, folder_moves
from .planpaths import RESERVED, by_name, family
from .wrapped import RUNNERS, WRAPPERS

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The runtime's placeholders an entry may name its program by (``${CLAUDE_SKILL_DIR}``'s
#: folder is guarded whole, G-13), and the call's folder (``$PWD``, ``$(pwd)``: s44 P7).
PLACEHOLDERS: Final = ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")
#: The session's values the folders depend on (the placeholders; ``cd`` alone; cdable_vars;
#: CDPATH).
ENTRY_ENVIRONMENT: Final = (*PLACEHOLDERS, "HOME", "BASHOPTS", "CDPATH")
_PWD: Final = compile_on_use(r"(?:\$PWD|\$\{PWD\}|\$\(pwd\))/")
_PWD_ALONE: Final = compile_on_use(r"(?:\$PWD|\$\{PWD\}|\$\(pwd\))(?![\w/])")
_HOME: Final = compile_on_use(r"(?:(?<=[\s(])|^)(?:~|\$HOME|\$\{HOME\})/")
_QUOTES: Final = compile_on_use(r"['\"]")
_PATTERN: Final = compile_on_use(r"[*?\[]")
#: ``cd``'s and ``pushd``'s words going back to a folder of the stack (``moves._back``).
_BACK: Final = compile_on_use(r"(?:-[LPe@n]+ )*(?:-|~[+-][0-9]*|[+-][0-9]+)")
#: What separates the commands of an entry's text (not `2>&1`: P2f); a substitution's start.
_PARTS: Final = compile_on_use(r"(&&|\|\||[;|\n]|(?<![<>])&(?![>]))")
_SUBSTITUTED: Final = compile_on_use(r"[<>$]\(|`")
_REDIRECTION: Final = compile_on_use(r"[0-9]*[<>]")
_OPERATOR: Final = compile_on_use(r"[0-9]*(?:>>?|<|&>>?|>&|>\|)")  # (its target follows)


def entry_folders(entry: str) -> tuple[str, ...]:
    """The folders the programs of the plan entry ``entry`` (``Bash(cd sub && make)``) may
    run in: relative to the call's folder (``""`` is the call's; an absolute one, the
    session's home after a bare ``cd``), the call's first. ValueError, naming the entry,
    where one cannot be named (the plan is refused). () for an entry of another tool."""
    return _entry_folders(entry, values(ENTRY_ENVIRONMENT))


@functools.lru_cache(maxsize=64)
def _entry_folders(entry: str, given: tuple[str | None, ...]) -> tuple[str, ...]:
    tool, text = entry_text(entry, tuple(v or "" for v in given[:len(PLACEHOLDERS)]))
    if tool not in ("Bash", "Shell", "PowerShell"):
        return ()
    return folders_of(entry, text)


def entry_text(entry: str, placeholders: tuple[str, ...]) -> tuple[str, str]:
    """The tool of the plan entry ``entry`` and its text (quotes kept), with the home folder,
    the call's folder and the runtime's placeholders (``placeholders``: their values, in
    ``PLACEHOLDERS``' order) written out (s43 P2d, s44 P7, P9)."""
    tool, _, rest = entry.partition("(")
    home = os.path.expanduser("~")
    rest = _HOME.sub(lambda _: home + "/", rest)  # `~/bin/x.sh`, `$HOME/…` (s43 P2d)
    rest = _PWD_ALONE.sub(".", _PWD.sub("./", rest))  # (`cd "$PWD" && make`: s48-greview P2)
    for name, value in zip(PLACEHOLDERS, placeholders, strict=True):
        if value[:1] == "/":
            rest = rest.replace("${" + name + "}", value).replace("$" + name, value)
    return tool.strip(), rest.rstrip(")").removesuffix(":*")


def unquoted(text: str) -> str:
    """An entry's text with its quotes gone (``bash -c "./x.sh"``: P2), as ``pieces`` reads
    it."""
    return _QUOTES.sub("", text)


def pieces(text: str) -> list[str]:
    """The commands of an entry's text ``text`` (its quotes gone) and the operators between
    them (``_PARTS``), a substitution's command apart (``cat <(make)``: s49-greview3 P1)."""
    text = _SUBSTITUTED.sub(";", text)
    return _PARTS.split(text.replace("(", " ").replace(")", " "))


def folders_of(entry: str, text: str) -> tuple[str, ...]:
    """``entry_folders`` of the entry ``entry`` whose text is ``text`` (quotes kept)."""
    moves = code_doubt(text) or folder_moves(text)  # (an interpreter's: s50-greview2 I2)
    if isinstance(moves, str):
        raise ValueError(f"the plan's entry {entry!r} runs its programs in a folder the gate "
                         f"cannot name: {moves}")
    folders, skill, last = [""], False, [""]
    for operand in moves:
        chained = operand[:2] == CHAINED  # (from the folders of the move before it alone)
        operand = operand[2:] if chained else operand
        skill = skill or "CLAUDE_SKILL_DIR" in operand
        if skill and ".." in operand.split("/"):  # (out of the skill's folder)
            raise ValueError(f"the plan's entry {entry!r} moves out of the skill's folder "
                             f"({operand!r}), to a folder the gate does not guard")
        if unnamed(operand):  # (`planprograms`; the skill's folder: guarded whole)
            continue
        last = [os.path.join(f, operand) for f in (last if chained else folders)]
        folders = list(dict.fromkeys([*folders, *last]))
        if len(folders) > MAX_FOLDERS:
            raise ValueError(f"the plan's entry {entry!r} runs its programs in more than "
                             f"{MAX_FOLDERS} folders")
    named = {os.path.normpath(f) for f in folders}
    spaced = {m.split()[0] for m in (m.removeprefix(CHAINED) for m in moves)
              if m.split() and m.split()[0] != m}
    after = {os.path.normpath(m[2:]) for m in moves if m[:2] == CHAINED}
    for part in pieces(unquoted(text))[::2]:
        moved = entry_words(part)[0]  # (its quotes gone: `cd 'my dir'` is `cd my`, read whole
        if moved and not unnamed(moved) and os.path.normpath(moved) not in named and \
                os.path.basename(os.path.normpath(moved)) not in spaced and not (  # by the
                os.path.normpath(moved) in after and part.split()[:1] in (  # scan; a cd
                    ["cd"], ["pushd"])):  # after a cd: read from its folders)
            raise ValueError(f"the plan's entry {entry!r} moves a program into {moved!r}, "
                             "which the gate's reading of its moves does not name")
    return tuple(folders)


def unnamed(folder: str) -> bool:
    """Whether ``folder`` is a variable's or a pattern's (``cd $DIR``, an entry's ``cd *``):
    no folder the gate can name."""
    return "$" in folder or _PATTERN.search(folder) is not None


def entry_words(part: str) -> tuple[str | None, list[str]]:
    """The folder a command of an entry moves to (``cd -P DIR``, ``env -C DIR``: s43 P2c; a
    bare ``cd``: the home folder), and the words of the program it runs, past ``env``,
    wrappers, assignments, redirections, reserved words, ``time`` and ``!`` (K2)."""
    split = part.split()  # a redirection with its target apart, a reserved word (s43 P2f)
    given = [w for at, w in enumerate(split) if not ASSIGNMENT.match(w) and not (
        _REDIRECTION.match(w) or (at and _OPERATOR.fullmatch(split[at - 1])))]
    words = list(itertools.dropwhile(RESERVED.__contains__, given))
    moved: str | None = None
    lead = by_name(words[0]) if words else ""
    if lead in WRAPPERS or lead in RUNNERS or family(lead) == "shell":  # (`env --chdir=sub
        from .runneropts import entry_run  # make`, `bash -c -- 'cd sub && make'`: R1, S4b)

        moved, words = entry_run(words)
    if words[:1] in (["cd"], ["pushd"]):
        operands = [w for w in words[1:] if w[:1] not in "-+"]
        if _BACK.fullmatch(" ".join(words[1:])) or (words[0] == "pushd" and not operands):
            return moved, []  # (`cd -`, `pushd +1`, a bare pushd: a folder of the closure)
        operand = operands[0] if operands and operands[0] != "~" else os.path.expanduser("~")
        return os.path.join(moved or "", operand), []
    return moved, words

