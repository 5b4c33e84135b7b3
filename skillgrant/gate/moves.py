"""The folders a shell command moves to (``cd``, ``pushd``, ``-C``, ``--chdir``, git's
``--git-dir``, ``--work-tree`` and ``GIT_DIR``), read from its words as sh splits them: where
its git may run (``git_folders``; issue 29, review s40 V3, V9, V10) and where its relative
words are read from (``moved_folders``; review s42 W6). (Files: through ``gate.files``.)"""

from __future__ import annotations

import functools
import os
import re
import shlex

from ..lazy import compile_on_use
from . import files as fs
from .andlists import CHAINED, CONTROLS, PUNCTUATION, after_a_move, chained, last, shell_move
from .folded import folded
from .movedoubts import (
    BACK,
    MAY_MOVE,
    QUOTED_PAREN,
    REDIRECTS,
    REPEAT,
    UNQUOTED,
    home,
    leads,
    marks,
    physical_dotdot,
    trusted,
)
from .writers import braced

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Programs that run git in their folder.
GITS: Final = frozenset({"git", "gh", "hub", "tig", "lazygit", "gitk", "pre-commit"})
#: Words whose next word names the folder a program runs in, or the repository git reads.
_MOVES: Final = frozenset({"cd", "pushd", "-C", "--chdir", "--directory", "--git-dir",
                           "--work-tree", "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR",
                           # util-linux's `unshare`/`nsenter --wd`, gdb's `--cd`/`-cd`,
                           # systemd-run's (review s44 M3)
                           "--wd", "--cd", "-cd", "--working-directory",
                           "--prefix",  # (npm's `--prefix DIR`: the package's root, M9)
                           "--cwd"})  # (bun's, yarn's, deno task's: s51-gfix3 I2)
#: Of those, the long options a getopt_long program (env, make) takes by a prefix too.
_LONG_MOVES: Final = ("--chdir", "--directory", "--working-directory", "--wd", "--cwd")
#: Programs whose ``-w`` moves the folder they run their program in (``unshare -w ..``: M3).
_W_MOVES: Final = frozenset({"unshare", "nsenter"})
#: Of those, the ones that give git its repository or working tree by name.
_NAMED: Final = frozenset({"--git-dir", "--work-tree", "GIT_DIR", "GIT_WORK_TREE",
                           "GIT_COMMON_DIR"})
#: An operand naming a folder as it is written (no expansion, no operator).
_LITERAL: Final = re.compile(r"[\w./+@,:=-]+")
#: How deep quoted texts are read as commands.
_MAX_NESTING: Final = 3


def command_words(text: str) -> list[list[str]]:
    """The words of ``text`` as sh splits them (quotes kept together and removed, operators
    apart), and those of each word holding a space, an operator or an expansion read again as
    a command (``sh -c 'cd x && git status'``), a few levels deep; a ``--git-dir=x`` or
    ``GIT_DIR=x`` word split at its ``=``; comments and literal here-documents as words of
    their command (``folded``). Raises ValueError on an open quote. (Asked often: kept.)"""
    texts = [folded(text)]
    if "\\\n" in texts[0]:  # a comment's last backslash: bash ends the line (review s43 M1)
        texts.append(texts[0].replace("\\\n", "\n"))
    return [list(words) for read in texts for words in _command_words(read, 0)]


@functools.lru_cache(maxsize=64)
def _command_words(text: str, depth: int) -> tuple[tuple[str, ...], ...]:
    words = _words(text)
    found = [tuple(words)]
    if depth < _MAX_NESTING:
        for word in words:
            if _REREAD.search(word):
                try:
                    found += _command_words(word.replace("$(", " ").replace("`", " "),
                                            depth + 1)
                except ValueError:  # `gh pr create --title "it's"`: a quote that is data,
                    if MAY_MOVE.search(UNQUOTED.sub("", word)):  # unless it may hide a
                        raise  # move however the quotes pair
    return tuple(found)


def _words(text: str) -> list[str]:
    """The words of ``text`` as sh splits them, a move's ``--opt=value`` split at its ``=``."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    words: list[str] = []
    for word in lexer:
        name, equals, value = word.partition("=")
        name = _long_move(name)  # `env --chd=..`: getopt_long's prefixes (review s43 M2)
        words += [name, value] if equals and name in _MOVES else [name if name in _MOVES
                                                                  else word]
    return words


#: A word holding a space, an operator, an expansion or a quote: read again as a command.
_REREAD: Final = re.compile(r"[ \t\n;&|()<>`$'\"]")


def _long_move(name: str) -> str:
    """``name``, or the long option moving a folder it is a prefix of (``--chd``: ``--chdir``;
    getopt_long takes any unique prefix)."""
    if name[:2] != "--" or len(name) < 3:
        return name
    return next((long for long in _LONG_MOVES if long.startswith(name)), name)


def git_folders(text: str, directory: str) -> list[str] | str:
    """The folders git may run in for the shell command ``text`` run in ``directory``: it,
    and each folder a ``cd``, ``pushd``, ``-C``, ``--chdir``, ``--git-dir``, ``--work-tree``
    or ``GIT_DIR``-like assignment of the text names, read from each folder found before it
    (a ``cd`` after a ``cd``), the home folder after a ``cd`` without operand, and each
    folder a word names that holds a ``.git``; [] when no program of the text runs git. Why
    not, when a folder cannot be named (a variable, a pattern, ``cd -``, ``CDPATH``,
    ``-execdir``, an open quote) or there are more than ``MAX_FOLDERS``."""
    try:
        commands = command_words(text)
    except ValueError as e:
        return f"the gate cannot read the command's words ({e})"
    if not any(w.rsplit("/", 1)[-1] in GITS or w.rsplit("/", 1)[-1].startswith("git-")
               for words in commands for w in words):
        return []
    folders = moved_folders(text, directory)
    if isinstance(folders, str):
        return folders
    # a repository a word names (`git add vendor/lib` makes a clone a submodule, which a
    # `git status` after it in the call goes into: review s41 N2)
    return folders + [path for words in commands for word in words
                      if _LITERAL.fullmatch(word)
                      for path in (os.path.normpath(os.path.join(f, word)) for f in folders)
                      if path not in folders and fs.entry(os.path.join(path, ".git"))]


def moved_folders(text: str, directory: str) -> list[str] | str:
    """``directory`` and each folder a move of ``text`` names, read from each folder found
    before it (a ``cd`` after a ``cd``, kept too: the move may fail, or move a subshell or a
    child only), the home after a bare ``cd``; why not, as ``git_folders`` (``folder_moves``)."""
    moves = folder_moves(text)
    if isinstance(moves, str):
        return moves
    folders, last = [directory], [directory]
    for operand in moves:
        chained = operand[:2] == CHAINED  # (from the folders of the move before it alone)
        operand = operand[2:] if chained else operand
        if "$" in operand or _PATTERNED.search(operand):
            return f"git may run in a folder the gate cannot name ({operand})"
        # bash's `cd` reads `..` from the path as written, git's `-C` from the real one (each
        # form once: a chain of 16 `cd out &&` made 2**16 of them, s59-hfix)
        last = list(dict.fromkeys(form for f in (last if chained else list(folders)) for form in (
            os.path.normpath(os.path.join(f, operand)), fs.realpath(os.path.join(f, operand)))))
        folders[:] = list(dict.fromkeys([*folders, *last]))
        if len(folders) > MAX_FOLDERS:
            return f"git may run in more than {MAX_FOLDERS} folders the command names"
    return folders


def folder_moves(text: str) -> tuple[str, ...] | str:
    """The operand of each move of ``text`` (``cd``, ``pushd``, ``-C``, ``--chdir``, …), in
    text order, a quoted word's code read as a command in its place (``bash -c 'cd sub'``),
    a comment's words too, the home folder for a ``cd`` without one; an operand holding ``$``
    or a pattern as it is (the caller decides). Why not, where a move cannot be named: ``CDPATH``,
    ``-execdir``, ``popd``, ``cd -``, a pattern, an open quote, code nested too deep, bash's
    ``cdable_vars`` (``cd NAME`` moves to ``$NAME``), a relative move a loop, a function or a
    trap may make again (session 50)."""
    try:
        text = folded(text)
        found = [m for read in (text, *([text.replace("\\\n", "\n")] if "\\\n" in text
                                        else [])) for m in _operands(read, 0)]
    except _Unnamed as e:
        return str(e)
    except ValueError as e:
        return f"the gate cannot read the command's words ({e})"
    return trusted(text, tuple(found))


#: The folders a command's moves are followed into at most (their closure).
MAX_FOLDERS: Final = 16
#: The loops, which may make a move in them again (so may a function, a trap's code:
#: ``movedoubts.marks``).
_LOOPS: Final = frozenset({"for", "while", "until", "select"})
_NEWLINE: Final = compile_on_use(r"(?<!\\)\n")


#: A pattern's characters (``cd *``; ``$``: a variable's folder).
_PATTERNED: Final = compile_on_use(r"[*?\[]")


class _Unnamed(ValueError):
    """A move whose folder the gate cannot name (the reason)."""


@functools.lru_cache(maxsize=64)
def _operands(text: str, depth: int) -> tuple[str, ...]:
    """``folder_moves``' operands of ``text`` and ``movedoubts``' marks, ``depth`` levels of
    quoted code in; ``_Unnamed`` for a move it cannot name."""
    words = _words(_NEWLINE.sub(" ; ", text))  # (a line ends a command: `cd` ⏎ `make`)
    found: list[str] = []
    loops: list[int] = []  # (the subshells open at each loop's start the word is in)
    parens, chain = 0, (-1, -1)  # (a `cd`'s word and how many were found after it)
    plain = not QUOTED_PAREN.search(text)  # (a quoted `(` is no subshell: s51-greview3 E1)
    top, before, perl = depth == 0 and "trap" not in words, set[str](), False  # (s58 T1)
    memo: dict[tuple[str, int], str] = {}  # (each move's operand from where it starts: T4)
    physical: list[bool] = []  # (whether `set -P` or the like is among the words: T3)
    for at, word in enumerate(words):
        lead = leads(words, at, memo)
        loops = [*loops, parens] if lead and word in _LOOPS else loops[:-1] if (
            lead and word == "done") else loops
        parens += word.count("(") - word.count(")") if plain and PUNCTUATION.fullmatch(
            word) else 0
        if lead and (depth == 0 or len(words) > 1):  # (not a word read again alone: `$f`)
            try:
                found += marks(words, at)
            except ValueError as e:
                raise _Unnamed(str(e)) from None
        operand = _move_at(words, at, top, (before, perl), memo)
        before.add(name := word.rsplit("/", 1)[-1])
        perl = perl or name[:4] == "perl"
        chainable = operand is not None and lead and shell_move(words, at) and \
            _LITERAL.fullmatch(operand) is not None and operand[:1] != "/"
        if chainable and plain and chain[1] == len(found) and chained(words, chain[0], at, memo):
            operand = CHAINED + str(operand)
        if operand is not None and physical_dotdot(words, at, operand, found, physical):
            raise _Unnamed(f"a physical '..' ({word} {operand.removeprefix(CHAINED)}) goes to "
                           "the parent of where a "
                           "link it passes points, a folder the gate does not name")
        nested = _nested(word, text, depth)
        # (a move in a subshell the loop opened is not made again from where it went; nor
        # a child's `-C`, `--chdir`, …: each run starts from the shell's folder, s51-greview3
        # K1; an `eval`'s or a `-c` text's move is taken as the shell's)
        again = [*([operand] if operand is not None and word in ("cd", "pushd") else []),
                 *nested]
        found += [*([operand] if operand is not None else []), *nested, *([REPEAT] if (
            loops and parens <= loops[-1] and any(
                m[:1] != "\0" or m[:2] == CHAINED for m in again)) else [])]
        chain = (at, len(found)) if chainable else chain
    return tuple(found)


def _nested(word: str, text: str, depth: int) -> tuple[str, ...]:
    """``_operands`` of the word ``word`` of ``text`` read again as a command (quoted code,
    a substitution's), ``depth`` levels in; () for a word that holds none."""
    inner = word.replace("$(", " ").replace("`", " ")
    if not _REREAD.search(word) or inner == text:
        return ()
    if depth >= _MAX_NESTING and MAY_MOVE.search(word):
        raise _Unnamed(f"a move in code nested more than {_MAX_NESTING} deep ({word!r})")
    if depth >= _MAX_NESTING:
        return ()
    try:
        return _operands(inner, depth + 1)
    except _Unnamed:
        raise
    except ValueError:  # a quote that is data, unless it may hide a move
        if MAY_MOVE.search(UNQUOTED.sub("", word)):
            raise
    return ()


def _move_at(words: list[str], at: int, top: bool, before: tuple[set[str], bool],
             memo: dict[tuple[str, int], str]) -> str | None:
    """The operand of the move ``words[at]`` starts, None where it starts none; ``_Unnamed``
    where its folder cannot be named. ``top``: ``words`` are the whole text's, with no ``trap``
    (nothing runs after their last command). ``before``: ``_as_c``'s, and ``memo``
    ``_operand``'s, kept by the caller as it goes (review s58-hreview T1, T4)."""
    word = words[at]
    if word == "CDPATH" or word.startswith("CDPATH="):  # N3
        raise _Unnamed("CDPATH may send a 'cd' to a folder the gate cannot name")
    if word == "popd":
        return BACK  # (to a folder of the stack: `movedoubts.trusted`)
    if word in ("-execdir", "-okdir") or (
            "{" in word and _MOVES.intersection(braced(word))):  # `{cd,} ..` (s44 M4)
        raise _Unnamed(f"{word!r} runs git in a folder the gate cannot name")
    word = _as_c(word, *before)
    cluster = _C_CLUSTER.fullmatch(word)  # `env -Cdir`, `env -vC..`, `env -vC ..` (M2)
    attached = cluster is not None and bool(cluster.group(1))
    word = "-C" if cluster is not None and not attached else word
    if word not in _MOVES and not attached:
        return None
    operand = cluster.group(1) if attached and cluster else _operand(word, words, at + 1, memo)
    if word in ("cd", "pushd"):
        back = _back(word, operand, words, at, top, memo)
        if back is not None:
            return back
    if "$" in operand or _PATTERNED.search(operand):
        return operand  # (a plan entry's `cd *`: the caller decides)
    if _LITERAL.fullmatch(operand.replace(" ", "_")) is None or operand == "-":  # `{}`,
        # `xargs git -C`; a quoted blank is the folder's (`cd 'my dir'`)
        raise _Unnamed(f"git may run in a folder the gate cannot name ({word} {operand})")
    return operand


def _as_c(word: str, before: set[str], perl: bool) -> str:
    """``word`` after the programs ``before`` it (``perl``: one is), as the ``-C`` it is where
    it moves one: ``unshare -w ..``, ``nsenter -w..``, ``sudo -D ..`` (M3), perl's ``-xsub``,
    ``-wxsub`` (perl goes to ``sub`` before its script runs: perlrun; s50-greview2 I2)."""
    if (word[:2] == "-w" and _W_MOVES.intersection(before)) or (
            word[:2] == "-D" and "sudo" in before):
        return "-C" + word[2:]
    perl_x = _PERL_X.fullmatch(word) if perl else None
    return word if perl_x is None else "-C" + perl_x.group(1)


def _operand(word: str, words: list[str], at: int, memo: dict[tuple[str, int], str]) -> str:
    """The operand of the move ``word`` in ``words`` from ``at`` to a control operator, past
    redirections (``cd>/dev/null sub``: s50-greview2 O1) and cd's options; "" for none. ``memo``:
    the answer from each place a walk passed (10,000 quoted ``cd x`` took minutes: T4)."""
    if word in ("cd", "pushd") and os.environ.get("CDPATH"):
        raise _Unnamed("CDPATH may send a 'cd' to a folder the gate cannot name")
    kind = word if word in ("cd", "pushd") else ""
    passed, found = list[int](), None
    while found is None and (kind, at) not in memo and at < len(words) and \
            words[at] not in _CONTROLS:
        passed.append(at)
        if words[at] in REDIRECTS:
            at += 2
        elif words[at].isdigit() and words[at + 1:at + 2] and words[at + 1] in REDIRECTS:
            at += 3
        elif kind and (words[at] == "--" or _CD_OPTIONS.fullmatch(words[at]) or (
                kind == "pushd" and words[at] == "-n")):
            at += 1
        else:
            found = words[at]
    found = memo.get((kind, at), "") if found is None else found
    memo.update(dict.fromkeys([(kind, place) for place in passed], found))
    return found


def _back(word: str, operand: str, words: list[str], at: int, top: bool,
          memo: dict[tuple[str, int], str]) -> str | None:
    """``BACK`` for ``cd -``, ``pushd +1``, a bare pushd (a folder of the stack), the home
    folder for a bare ``cd``; None for any other. ``_Unnamed`` for a move to ``OLDPWD``
    (``cd -``, ``~-``) that may run before any move of the shell succeeded (bash keeps the
    session's ``OLDPWD``: s50-greview2 D3), unless nothing runs after it (``top``: the
    text's last command)."""
    if operand in ("-", "~-") and not after_a_move(words, at, leads) and not (
            top and last(words, at)):
        raise _Unnamed(f"'{word} {operand}' may go to the session's OLDPWD, a folder the "
                       "command does not name (only one run after a 'cd' by '&&' is read)")
    if operand in ("-", "~-", "~+") or _ROTATION.fullmatch(operand) or (
            word == "pushd" and (not operand or operand in _OPERATORS)):
        return BACK
    if not operand or operand in _OPERATORS or operand == "~":
        try:
            return home(words, memo)  # no operand: the home folder
        except ValueError as e:
            raise _Unnamed(str(e)) from None
    return None


#: The shell's control operators, as ``_words`` splits them; a directory stack's index
#: (``pushd +1``, ``cd ~-2``).
_CONTROLS: Final = CONTROLS
_ROTATION: Final = compile_on_use(r"[+-][0-9]+|~[+-][0-9]+")


#: perl's ``-x`` with its folder attached, after other switches (``-wxsub``; ``-x`` alone
#: moves nothing, ``-x DIR`` takes DIR as the script).
_PERL_X: Final = re.compile(r"-[A-Za-wyz0-9]*x(.+)")
#: A cluster of short options ending in ``-C``, with its value attached or not.
_C_CLUSTER: Final = re.compile(r"-[A-Za-z]*C(.*)")
#: ``cd``'s options, clustered too (``cd -Pe``: review s43 M1).
_CD_OPTIONS: Final = compile_on_use(r"-[LPe@]+")
#: The shell's operators, as ``_commands`` gives them.
_OPERATORS: Final = frozenset({";", "&", "&&", "|", "||", "(", ")", "<", ">", ">>", ";;",
                               "|&", "<<", "<<<", ">&", "<&", "&>", ">|", "<>"})


def names_repository(text: str) -> bool:
    """Whether ``text`` gives git its repository or working tree by name."""
    try:
        return any(w in _NAMED for words in command_words(text) for w in words)
    except ValueError:
        return True
