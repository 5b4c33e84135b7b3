"""The assignments a plan's entry makes that reach the programs it runs (issue 29, review
s49-greview3 V2, V3): a prefix (``PYTHONPATH=lib python3 …``), ``env [-opts] N=v``,
``export``/``declare``/``typeset``/``local``/``readonly`` (``-x`` or not), a plain ``N=v``
statement under ``set -a``/``set -o allexport`` or exported by name later, make's ``N=v``
arguments (make exports them to its recipes, and reads ``MAKEFILES``), also in a shell's ``-c``
code (every quoted part of the entry, and each word holding quotes, is read as code too:
``bash -c '…'``, ``su -c``, ``env -S``). ``entry_values`` gives each (``ASSIGNED``,
``NAME=value``) to the plan's paths (``startvars`` reads them); a value the gate cannot know (a
``$``, a backquote, a pattern, a brace list, ANSI-C quoting; make's ``!=``) refuses the plan
(ValueError: every call denied, naming it), never guessed."""

from __future__ import annotations

import os

from .collectopts import addopts, collecting
from .environment import COMPARED
from .startflags import ENV_FILE, make_definitions, option_assignments

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: What ``entry_values`` writes before an assignment (``NAME=value``) among the plan's paths.
ASSIGNED: Final = "\x06"
#: The builtins whose operands are assignments (exported: ``export``, ``-x``; or exported by
#: a later ``export NAME``, ``set -a``).
_DECLARERS: Final = frozenset(("export", "declare", "typeset", "local", "readonly"))
#: Programs whose later words ``N=v`` are assignments of their program's environment (env's,
#: sudo's) or variables exported to recipes (make's).
_TAKERS: Final = frozenset(("env", "sudo", "doas", "make", "gmake"))
#: What ends a word of an entry outside quotes; what ends a command.
_BLANKS: Final = frozenset(" \t\n;&|()<>")
_ENDS: Final = frozenset("\n;&|()")
#: The quotes and backslash bash drops from a word.
_UNQUOTED: Final = str.maketrans(dict.fromkeys("\"'\\", None))
#: Quoted parts read as code at most this deep (``bash -c "sh -c '…'"``).
_DEPTH: Final = 4


class _Word:
    """A word of an entry: its text with quotes removed, where its first quote was, and
    whether a shell expands part of it (``$``, a backquote, a pattern, a brace list)."""

    __slots__ = ("dynamic", "quote_at", "text")

    def __init__(self) -> None:
        self.text = ""
        self.quote_at = -1
        self.dynamic = False


def _lexed(text: str, quoted: list[str]) -> list[list[_Word]]:
    """``text``'s commands, each a list of words as bash splits them (roughly: quotes joined,
    operators and redirections ending a word), and into ``quoted`` each quoted part's text."""
    commands: list[list[_Word]] = [[]]
    word: _Word | None = None
    at = 0
    while at < len(text):
        char = text[at]
        if text[at:at + 2] == "\\\n":  # (a line continuation: nothing)
            at += 2
            continue
        if char in ("'", '"', "\\", "`") or (char == "$" and text[at + 1:at + 2] in ("(", "{")):
            word = word or _Word()
            at = _quoted(text, at, word, quoted)
            continue
        if char == "#" and word is None:  # a comment, to the line's end
            at = text.find("\n", at)
            at = len(text) if at < 0 else at
            continue
        if char in _BLANKS or char.isspace():
            if word is not None:
                commands[-1].append(word)
                word = None
            if char in _ENDS and commands[-1]:
                commands.append([])
        else:
            word = word or _Word()
            word.dynamic |= char in "$`*?[" or (char == "{" and "," in text[at:text.find(
                "}", at) + 1])
            word.text += char
        at += 1
    if word is not None:
        commands[-1].append(word)
    return [c for c in commands if c]


def _quoted(text: str, at: int, word: _Word, quoted: list[str]) -> int:
    """Adds the quoted part (or escaped character, or substitution) at ``text[at]`` to
    ``word`` (and a part's or a substitution's text to ``quoted``, read as code); where it
    ends. (A backslash escapes in ``"…"``.)"""
    char, end = text[at], at + 1
    if char == "\\":
        word.text += text[at + 1:at + 2]
        return at + 2
    if char in ("$", "`"):  # a substitution: part of the word, its code read too
        end = _closed(text, at)
        quoted.append(text[at + 1:end])
        word.dynamic = True
        word.text += text[at:end]
        return end
    while end < len(text) and text[end] != char:
        end += 2 if char == '"' and text[end] == "\\" else 1
    end = min(end, len(text))
    part = text[at + 1:end]
    if char == '"':  # (`\$`, `\"`, … are the characters they escape)
        for escaped in ("\\\n", "\\$", "\\`", '\\"', "\\\\"):
            part = part.replace(escaped, escaped[1:])
    word.quote_at = len(word.text) if word.quote_at < 0 else word.quote_at
    word.dynamic |= char == '"' and ("$" in part or "`" in part)
    word.dynamic |= text[at - 1:at] == "$" and word.text[-1:] == "$"  # ($'…', $"…")
    word.text += part
    return end + 1


def _closed(text: str, at: int) -> int:
    """Where the substitution at ``text[at]`` (``$(…)``, ``${…}``, a backquote) ends: past its
    close (nested ones counted), or the end."""
    if text[at] == "`":
        end = text.find("`", at + 1)
        return len(text) if end < 0 else end + 1
    opens, closes = ("(", ")") if text[at + 1] == "(" else ("{", "}")
    depth = 0
    for k in range(at + 1, len(text)):
        depth += (text[k] == opens) - (text[k] == closes)
        if depth == 0:
            return k + 1
    return len(text)


def _assignment(word: _Word, make: bool, quoted: bool = False) -> tuple[str, str] | None:
    """The name and value ``word`` assigns (``N=v``, ``N+=v``; make's ``N:=v``, ``N?=v``,
    ``N::=v``, ``N!=v`` too), or None; the name holds no quote."""
    text = word.text
    equal = text.find("=")
    if equal <= 0 or (0 <= word.quote_at <= equal and not quoted):  # (a declarer's may be)
        return None
    name = text[:equal]
    op = ""
    while name[-1:] in ((":", "+", "?", "!") if make else ("+",)):
        op, name = name[-1] + op, name[:-1]
    if not name or not (name[0].isalpha() or name[0] == "_") or not name.replace(
            "_", "a").replace(".", "a" if make else "-").isalnum() or not name.isascii():
        return None
    if "!" in op:
        return name, "$(" + text[equal + 1:] + ")"  # (a shell command's output: unknown)
    return name, text[equal + 1:]


def entry_values(entry: str, text: str) -> list[str]:
    """Each assignment the plan's entry ``entry`` (its text ``text``) makes that reaches a
    program it runs (see the module's text), as ``ASSIGNED`` + ``NAME=value``. Raises
    ValueError for one whose value the gate cannot know."""
    found: dict[str, set[str]] = {}
    _scan(entry, text, found, _DEPTH)
    if "test" in text:  # (pytest, py.test, unittest: their own options, s50-greview3 C1)
        for code in (text, *(w.text for c in _lexed(text, []) for w in c if " " in w.text)):
            for command in _lexed(code, []):
                collecting(entry, [w.text for w in command])
    return [f"{ASSIGNED}{k}{_BY}{' '.join(sorted(v))}" for k, v in found.items()]


#: What separates an assignment from the programs of the commands it is made for.
_BY: Final = "\x00"


def _scan(entry: str, text: str, found: dict[str, set[str]], depth: int) -> None:
    """``entry_values`` of ``text`` (and of its quoted parts, to ``depth`` levels) into
    ``found`` (each assignment, with the names of the words of the commands it reaches)."""
    bare = text.translate(_UNQUOTED)  # (`gcc -"B"pre`: bash drops the quotes)
    if "=" not in text and not any(n in bare for n in (*KNOWN, "perl", ENV_FILE, "-S", "node",
                                                        "--openssl-config", "make", "-B",
                                                        "--pref", "-i", "--include-p",
                                                        "-wrapper", "-f", "-spec", "-W", "-X")):
        return  # (perl's `-I inc`, `--env-file F`, gcc's `-B pre`: `_prefix`)
    quoted: list[str] = []
    commands = [_unreserved(c) for c in _lexed(text, quoted)]
    state = _State({os.path.basename(w.text) for c in commands for w in c})
    for words in commands:
        _command(entry, words, found, state)
    _take(entry, [w for n, w in state.plain if state.every or n in state.exported or n in KNOWN
                  or n in os.environ], False, found, state.anywhere, state.taken)
    if state.keyword:  # (`set -k`: every `N=v` word is an assignment)
        _take(entry, [w for c in commands for w in c], False, found, state.anywhere,
              state.taken)
    for word in (w for c in commands if not _inert(c) for w in c if id(w) not in state.taken):
        if word.text.split("=", 1)[0].rstrip("+") in KNOWN and word.text not in found and \
                not any(c.isspace() for c in word.text):  # (s50-greview3 S1; a word of code
            # is read as code below; one read already: a MAKEFLAGS' definition, U3)
            raise ValueError(f"the plan's entry {entry!r} names the start variable "
                             f"{word.text.split('=', 1)[0]!r} where the gate does not read "
                             "what it is set to")
    joined = [w.text for c in commands for w in c if w.quote_at >= 0]  # (`-c "X="l" y"`)
    joined += [s for c in commands for w in c for s in [_split_string(w.text)] if s]
    for part in dict.fromkeys([*quoted, *joined]) if depth > 0 else ():
        _scan(entry, part, found, depth - 1)


def _split_string(word: str) -> str | None:
    """The text env's ``-S`` is given attached in ``word``, read as code (s51-greview G1,
    G13): after ``-S`` in a cluster of env's flags (``-S'X=v bash'``, ``-vS…``, ``-i0S…``), or
    ``--split-string=``'s under any prefix getopt takes (``--split=``, ``--s=``); else None."""
    if word[:2] == "--":
        name, _, value = word.partition("=")
        return value if len(name) > 2 and "--split-string".startswith(name) and _ else None
    flags = word[1:].partition("S")
    return flags[2] if word[:1] == "-" and flags[1] and set(flags[0]) <= set("i0v") else None


def _inert(words: list[_Word]) -> bool:
    """Whether ``words`` is a command of a program that sets no variable and runs no other
    program (``printenv PATH``, ``grep -rn PYTHONPATH src``: s50-greview3 K2): its words are
    data, a start variable's name among them names nothing it sets."""
    at = 0
    while at < len(words) and _assignment(words[at], False):
        at += 1
    return at < len(words) and not words[at].dynamic and words[at].text in _INERT


#: Programs whose words set no variable and start no program (``printf`` has ``-v``, ``ack``
#: a pager, ``sed`` its ``e`` command: not these).
_INERT: Final = frozenset(("printenv", "grep", "egrep", "fgrep", "rg", "echo", "cat", "head",
                           "tail", "wc", "ls", "which"))


class _State:
    """What ``_scan`` learns of a text command by command."""

    __slots__ = ("anywhere", "every", "exported", "keyword", "plain", "taken")

    def __init__(self, anywhere: set[str]) -> None:
        self.anywhere = anywhere  # (the names of every word: what a plain one may reach)
        self.plain: list[tuple[str, _Word]] = []  # (assignment-only statements)
        self.exported: set[str] = set()
        self.every = False  # (`set -a`, `set -o allexport`, `shopt -so allexport`)
        self.keyword = False  # (`set -k`, `set -o keyword`)
        self.taken: set[int] = set()  # (the words read: assignments, a declarer's names)


def _unreserved(words: list[_Word]) -> list[_Word]:
    """``words`` past bash's reserved words (``{ X=v make; }``, ``if``, ``time -p``, ``!``)."""
    at = 0
    while at < len(words) and ((words[at].text in _RESERVED and words[at].quote_at < 0) or (
            words[at].text == "-p" and at and words[at - 1].text == "time")):
        at += 1
    return words[at:]


def _command(entry: str, words: list[_Word], found: dict[str, set[str]],
             state: _State) -> None:
    """``_scan`` of one simple command's ``words``."""
    at = 0
    while at < len(words) and _assignment(words[at], False):
        at += 1
    if at == len(words):
        state.plain += [(w.text.split("=", 1)[0].rstrip("+"), w) for w in words]
        return
    here = {os.path.basename(w.text) for w in words[at:]}
    _take(entry, words[:at], False, found, here, state.taken)
    name, rest = os.path.basename(words[at].text), words[at + 1:]
    options = [w.text for w in rest if w.text[:1] in ("-", "+")]
    if name in _TARGETS and any(w.dynamic for w in (rest[:1] if name in ("for", "select") else
                                                    rest)):
        raise ValueError(f"the plan's entry {entry!r} sets a variable whose name it builds "
                         f"({name} …): what its programs read at their start is not known")
    if name in _DECLARERS:
        if any("n" in o for o in options if o[:2] != "--"):
            raise ValueError(f"the plan's entry {entry!r} declares a name reference")
        _take(entry, rest, False, found, state.anywhere, state.taken, quoted=True)
        bare = [w for w in rest if "=" not in w.text and w.text[:1] not in ("-", "+")]
        state.exported |= {w.text for w in bare}
        state.taken |= {id(w) for w in bare}
    elif name in ("set", "shopt"):
        state.every |= "allexport" in [w.text for w in rest] or (name == "set" and any(
            "a" in o for o in options if o[:2] != "--"))
        state.keyword |= "keyword" in [w.text for w in rest] or (name == "set" and any(
            "k" in o for o in options if o[:2] != "--"))
    _prefix(words[at:], found, here)
    taker = next((k for k, w in enumerate(words[at:], at)
                  if os.path.basename(w.text) in _TAKERS), -1)
    if taker >= 0:
        make = os.path.basename(words[taker].text) in ("make", "gmake")
        _take(entry, words[taker + 1:], make, found, here, state.taken, quoted=make)  # (make
        # gets `N=v` however quoted: `make 'CFLAGS!=cmd'`, s54-greview3 G1; env's `-S '…'`
        # is a string it splits)


def _prefix(words: list[_Word], found: dict[str, set[str]], programs: set[str]) -> None:
    """The start variables the options among ``words`` stand for (``startflags.
    option_assignments``: python's ``-X pycache_prefix=``, perl's ``-I``/``-Mlib=``, node's
    ``--openssl-config``, an ``--env-file``), each with the words spelling it (its own
    call's: ``own_dropped``), into ``found`` for ``programs``."""
    for key, word in option_assignments([w.text for w in words]):
        for spelled in filter(None, (key, word)):
            found.setdefault(spelled, set()).update(programs)


#: Builtins that set a variable they name (``printf -v``, ``read``, ``mapfile``, a loop's).
_TARGETS: Final = frozenset(("export", "declare", "typeset", "local", "readonly", "read",
                             "mapfile", "readarray", "for", "select", "getopts", "unset"))


def _take(entry: str, words: list[_Word], make: bool, found: dict[str, set[str]],
          programs: set[str], taken: set[int], quoted: bool = False) -> None:
    """The assignments among ``words`` into ``found``, each for ``programs``, their words into
    ``taken``; raises ValueError for one whose value is not known."""
    for word in words:
        pair = _assignment(word, make, quoted)
        if pair is None:
            continue
        taken.add(id(word))
        name, value = pair
        if word.dynamic or "$" in value:
            raise ValueError(f"the plan's entry {entry!r} sets {name} to {value!r}, whose value "
                             "the gate cannot know: what its programs read at their start is "
                             "not known")
        if name in _REFUSED:
            raise ValueError(f"the plan's entry {entry!r} sets {name}: what its programs read "
                             "at their start under it is not known")
        if name == "PYTEST_PLUGINS" and value:  # (modules imported from sys.path: U7)
            raise ValueError(f"the plan's entry {entry!r} sets PYTEST_PLUGINS: pytest imports "
                             "the modules it names from folders the gate does not name")
        if name == "PYTEST_ADDOPTS":  # (pytest's first options: read as its own, U7)
            addopts(entry, value)
        if name in ("MAKEFLAGS", "GNUMAKEFLAGS"):  # (make's definitions: MAKEFILES=mk, U3)
            _take(entry, [_made(d) for d in make_definitions(entry, value)], True, found, programs,
                  taken)
        found.setdefault(f"{name}={value}", set()).update(programs)
        if word.text != f"{name}={value}":  # (make's `N:=v`: the word as the call spells it)
            found.setdefault(word.text, set()).update(programs)


def _made(text: str) -> _Word:
    """A word of ``text`` (no quotes, nothing expanded)."""
    word = _Word()
    word.text = text
    return word


def own_dropped(command: tuple[str, ...], guards: object, mark: str) -> tuple[str, ...]:
    """``command``'s words less the assignments a plan's entry makes itself for a program
    ``command`` names (``guards.assigned``: the entry's program reading its own start input
    is what the plan approved; any other assignment's value may be written by the program,
    review s42 GF8). A word may begin with ``mark`` (``folded.NOT_ASSIGNED``: an argument, as
    make's ``N=v``)."""
    assigned: frozenset[str] = getattr(guards, "assigned", frozenset())
    if not assigned:
        return command
    names = {os.path.basename(w) for w in command}
    bare = [w.removeprefix(mark) for w in command]  # (a word spelling one: `-I inc`'s too)
    return tuple(w for w, b in zip(command, bare, strict=True) if b.split("=", 1)[0] in
                 _SHELLS_OWN or not any(f"{b}{_BY}{n}" in assigned for n in names))


def own_text(text: str, guards: object) -> str:
    """``text`` less the assignments a plan's entry makes itself for a program ``text``
    names (``own_dropped``): no longer a doubt of the program a name runs."""
    assigned: frozenset[str] = getattr(guards, "assigned", frozenset())
    if not assigned:
        return text
    for pair in assigned:
        made, _, program = pair.partition(_BY)
        if " " in made and made in text and program in text:  # (`-I inc`: as words only)
            text = _words_dropped(text, made)
        elif "=" in made and made in text and program in text and made.split(
                "=", 1)[0] not in _SHELLS_OWN:
            text = text.replace(made, " ")
    return text


def _words_dropped(text: str, words: str) -> str:
    """``text`` less each place ``words`` stand as whole words (white space or an operator
    before and after them)."""
    at = text.find(words)
    while at >= 0:
        end = at + len(words)
        if (at == 0 or text[at - 1] in " \t\n;&|(") and (
                end == len(text) or text[end] in " \t\n;&|)"):
            text = text[:at] + " " + text[end:]
        at = text.find(words, at + 1)
    return text


#: The shell's own names: a value of one changes what a name runs or how words are read
#: (``readers._SETS``), never left out.
_SHELLS_OWN: Final = frozenset(("PATH", "IFS", "BASH_ENV", "ENV", "GLOBIGNORE"))


#: The start variables the gate knows (the session's it reads, and Python's that move where it
#: reads or writes its code): an entry naming one where no assignment is read refuses the plan.
KNOWN: Final = frozenset((*COMPARED, "PYTHONPYCACHEPREFIX", "PYTHONHOME", "PYTHONSAFEPATH",
                          "PYTHONNOUSERSITE", "PYTHONINSPECT", "LD_AUDIT", "PERL5DB",
                          "PYTEST_PLUGINS", "PYTEST_ADDOPTS", "MAKEFLAGS", "GNUMAKEFLAGS"))
#: bash's reserved words (and ``time``), which may stand before a command's assignments.
_RESERVED: Final = frozenset(("{", "}", "!", "if", "then", "else", "elif", "fi", "do", "done",
                              "while", "until", "time", "case", "esac", "coproc", "function"))
#: Names an entry may not set: the home (every program's settings under it), the folders
#: ``cd`` searches, the shell's options (``cdable_vars``, ``globstar``).
_REFUSED: Final = frozenset(("HOME", "CDPATH", "BASHOPTS", "SHELLOPTS", "ZDOTDIR"))
