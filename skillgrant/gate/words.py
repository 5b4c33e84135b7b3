"""Shell words as the call gate reads them, and the command they lead.

``Word`` is one word once quotes and escapes are removed (a literal), or a word that may take
any value (a pattern: it holds an expansion, a glob, a brace or a leading tilde). Unquoted
expansions may also vanish or split into several words (``Word.vanishes``). ``strip_wrappers``
removes the wrappers that only run their argument; ``check_runnable`` refuses a command led by
an expansion or by a program that runs another command given in its words (``RUNNERS``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..lazy import compile_on_use
from ..records import NamedTuple
from .optables import READ as OPTIONS_READ
from .optables import Head, OptionDoubt, check_options
from .wrapped import RUNNERS, WRAPPERS

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


class Doubt(Exception):
    """The analysis does not understand the command; the message says why."""


class Word(NamedTuple):
    """One shell word: ``value`` when it is a literal, else None (a pattern); ``vanishes`` when,
    as a pattern outside quotes, it may expand to no word at all or to several."""

    value: str | None
    vanishes: bool = False
    #: A pattern's literal text before its first expansion or glob: what every value starts
    #: with (``src/`` of ``src/*.py``; ``""``: it may start with anything, ``-`` too).
    head: str = ""

    @property
    def literal(self) -> bool:
        return self.value is not None


#: Words bash never runs as a program in command position: reserved words and ``!``.
_NOT_PROGRAMS: Final = frozenset({
    "!", "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case",
    "esac", "in", "function", "select", "time", "coproc", "{", "}", "[[", "]]"})
ASSIGNMENT_WORD: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
#: Builtins whose words name variables: a subscript there is evaluated arithmetically
#: (`read 'a[$(id)]'` runs id), so each word must be a literal without ``[``, and an option
#: (`declare -i`, `-n`, `-a`) is refused: it gives later assignments the same evaluation.
_DECLARING: Final = frozenset({"declare", "typeset", "local", "readonly", "export", "unset"})
_NAMING: Final = _DECLARING | {"read", "getopts", "wait"}
#: The program families whose options or inputs ``runsby`` reads (reviews s42 R1/R2, s43
#: R2b–R7, W15): compiler drivers, binutils loading ``--plugin``, linkers, and single names.
_FAMILIES: Final = {
    **dict.fromkeys(("gcc", "g++", "cc", "c++", "clang", "clang++", "cpp", "gfortran", "c89",
                     "c99", "gccgo", "gdc", "gm2"), "compiler"),
    **dict.fromkeys(("nm", "ranlib", "ar"), "plugins"),
    **dict.fromkeys(("ld", "ld.bfd", "ld.gold", "ld.lld", "ld.mold", "gold", "mold", "lld",
                     "ld64.lld"), "linker"),
    **{n: n for n in ("find", "rg", "diff3", "sdiff", "groff", "troff", "nroff", "javac",
                      "rustc", "kubectl", "man", "less", "pygmentize", "javadoc",
                      "cmake")}, "catman": "man",
    **dict.fromkeys(("npm", "npx", "pnpm", "pnpx"), "npm"),
    **dict.fromkeys(("opt", "llc", "clang-tidy", "mlir-opt"), "llvm"),
    **dict.fromkeys(("mypy", "dmypy"), "mypy"), "pylint": "pylint",  # (review s46 M1)
    "cargo": "cargo"}  # (C2, C3)
_BY_OPTION: Final = frozenset(_FAMILIES)
_PYTHONS: Final = ("pyth", "pypy")  # (their `-m mypy`: ``pymodule``)
#: The names ``examined`` is true of without a ``-`` in them (a quick test before it).
FAMILY_NAMES: Final = _BY_OPTION
#: A version or a thread model after a tool's name (``gcc-12``, ``clang++-15``,
#: ``x86_64-w64-mingw32-gcc-10-posix``).
_SUFFIX = compile_on_use(r"(?:-[0-9][0-9.]*)?(?:-(?:posix|win32))?$")
#: The command names ``check_runnable`` looks at further, as the whole name or as the last part
#: of a path: a command led by any other literal name is runnable.
#: (``examined`` answers for the names of ``_FAMILIES`` under other spellings).
EXAMINED: Final = RUNNERS | _NAMING | OPTIONS_READ | {"printf"} | _BY_OPTION
_DURATION = compile_on_use(r"[0-9]+(\.[0-9]+)?[smhd]?")
_PLAIN = compile_on_use(r"[^\\*?\[\]{}~]*")


def family(program: str) -> str:
    """The tool the program name ``program`` (its last path part) stands for: the part after
    a target prefix, a version and a thread model removed (``x86_64-linux-gnu-gcc-nm-12`` is
    ``nm``, ``x86_64-linux-gnu-gcc-12`` is ``gcc``, review s43 R2b); the name itself when that
    part is none of ``_FAMILIES``."""
    if program in _FAMILIES or "-" not in program:
        return program
    last = _SUFFIX.sub("", program).rsplit("-", 1)[-1]
    return last if last in _FAMILIES else program


def examined(program: str) -> bool:
    """Whether ``runsby`` has a rule for the program named ``program`` (by its family)."""
    return family(program) in _FAMILIES


def strip_wrappers(words: list[Word]) -> tuple[list[Word], tuple[str, ...]]:
    """The command inside the wrappers that only run their argument (``timeout N``, ``nice``,
    ``nohup``, ``time``, ``stdbuf``), when each is written in a form read here; the wrappers
    removed. A wrapper in any other form stays, and is a runner."""
    stripped: list[str] = []
    while len(words) > 1 and words[0].value in _WRAPPER_READERS:
        name = words[0].value or ""
        rest = _WRAPPER_READERS[name](words[1:])
        if not rest:
            break
        stripped.append(name)
        words = rest
    return words, tuple(stripped)


def _after_options(words: list[Word], takes_value: frozenset[str], flags: frozenset[str],
                   attached: re.Pattern[str] | None = None) -> list[Word] | None:
    """``words`` after the wrapper's options (literal only), or None when one is not read."""
    i = 0
    while i < len(words):
        value = words[i].value
        if value is None:
            return None
        if value == "--":
            return words[i + 1:]
        if not value.startswith("-") or value == "-":
            return words[i:]
        name = value.split("=", 1)[0]
        if value in flags or (attached is not None and attached.fullmatch(value)):
            i += 1
        elif value in takes_value:
            if i + 1 >= len(words) or words[i + 1].value is None:
                return None
            i += 2
        elif name in takes_value and "=" in value:
            i += 1
        else:
            return None
    return []


def _timeout(words: list[Word]) -> list[Word] | None:
    rest = _after_options(words, frozenset({"-s", "--signal", "-k", "--kill-after"}),
                          frozenset({"--preserve-status", "--foreground", "-v", "--verbose"}))
    if not rest or rest[0].value is None or not _DURATION.fullmatch(rest[0].value):
        return None
    return rest[1:]


def _nice(words: list[Word]) -> list[Word] | None:
    return _after_options(words, frozenset({"-n", "--adjustment"}), frozenset(),
                          re.compile(r"-[0-9]+"))


def _nohup(words: list[Word]) -> list[Word] | None:
    return words[1:] if words and words[0].value == "--" else words


def _time(words: list[Word]) -> list[Word] | None:
    return _after_options(words, frozenset(), frozenset({"-p"}))


def _stdbuf(words: list[Word]) -> list[Word] | None:
    return _after_options(words, frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}),
                          frozenset(), re.compile(r"-[ioe](L|[0-9]+[KMGkmg]?B?)"))


_WRAPPER_READERS: Final[dict[str, Callable[[list[Word]], list[Word] | None]]] = {
    "timeout": _timeout, "nice": _nice, "nohup": _nohup, "time": _time, "stdbuf": _stdbuf}
assert frozenset(_WRAPPER_READERS) == WRAPPERS  # (``programs.WRAPPERS``: the readers here)


def check_runnable(words: list[Word]) -> None:
    """Raise Doubt unless ``words`` is a command led by a literal program name that runs no
    command given in its words."""
    name = _name(words)
    program = name.rsplit("/", 1)[-1]
    if name in ("test", "[") and plain_test(words):
        return
    if program.startswith("pydoc") and program in RUNNERS:  # (review s44 R5)
        raise Doubt(f"{name!r} imports the module its words name, the call's folder first on "
                    "sys.path: it runs the code of any module the project holds")
    if name in RUNNERS or program in RUNNERS:
        raise Doubt(f"{name!r} runs a command given in its words, which the gate does not "
                    "analyse")
    if program in _FAMILIES or "-" in program or program[:4] in _PYTHONS:  # (``family`` is
        # the name itself otherwise; an interpreter's `-m MODULE`: s47)
        _check_by_option(program, words)
    if name in _FLAGS_ONLY:
        _check_attached(name, words)
    if program in OPTIONS_READ:  # an allow-list of the options of writers (optables)
        try:
            check_options(program, [w.value if w.value is not None or not w.head or
                                    w.head.startswith("-") else Head(w.head) for w in words])
        except OptionDoubt as e:
            raise Doubt(str(e)) from None
    if program == "printf" or name in _NAMING:  # (the builtins that name variables)
        _check_names(name, program, words)


def _check_names(name: str, program: str, words: list[Word]) -> None:
    """Raise Doubt when ``printf`` is given a pattern first, or a builtin that names variables
    names one with an expansion, a subscript, an option, or a variable that may not be set."""
    if program == "printf" and len(words) > 1 and words[1].value is None:
        raise Doubt("'printf' is given a pattern first, which may expand to -v and name a "
                    "variable")
    names = words[1:] if name in _NAMING else words[2:3] if name == "printf" and \
        words[1:2] == [Word("-v")] else []
    for word in names:
        if word.value is None or "[" in word.value or (
                name in _DECLARING and word.value.startswith(("-", "+"))):
            raise Doubt(f"{name!r} names a variable with {word.value or 'an expansion'!r}, "
                        "which bash may evaluate arithmetically (a subscript can run a command)")
        if not word.value.startswith("-"):
            check_variable(word.value.split("=", 1)[0], name)


def _check_by_option(program: str, words: list[Word]) -> None:
    """Raise Doubt when ``runsby``'s rule for the program's family finds that its options or
    inputs name code it runs or a file it writes."""
    rule = _FAMILIES.get(family(program), "python" if program[:4] in _PYTHONS else None)
    if rule is not None:
        from .runsby import runs_by_option  # loaded for these programs only

        runs = runs_by_option(rule, program, words[1:])
        if runs is not None:
            raise Doubt(runs)


def _name(words: list[Word]) -> str:
    """The literal program name leading ``words``; Doubt for an expansion, and for a keyword
    or an assignment (``time ! cmd``, ``! ! cmd``, ``time X=1 cmd``: bash reads a keyword or an
    assignment where the grammar saw a program name)."""
    if not words:
        raise Doubt("a command has no name")
    name = words[0].value
    if name is None:
        raise Doubt("an expansion stands in command position: it may run any program")
    if name in _NOT_PROGRAMS or ("=" in name and ASSIGNMENT_WORD.match(name)):
        raise Doubt(f"{name!r} stands where the grammar reads a program name; bash reads it "
                    "as a keyword or an assignment")
    if ".." in name.split("/")[:-1]:
        raise Doubt(f"the program path {name!r} climbs with '..', out of the folder a grant "
                    "may name")
    return name


#: The options of the builtins that name variables which take no value: any other option
#: written with more after it (``printf -vPATH``, ``read -raIFS``, ``wait -pPATH``) has its
#: value, a variable's name, attached.
_FLAGS_ONLY: Final = {"read": frozenset("ers"), "wait": frozenset("fn"),
                      "printf": frozenset(), "getopts": frozenset()}


def _check_attached(name: str, words: list[Word]) -> None:
    """Raise Doubt when a builtin that names variables has an option with its value attached
    (the variable it names would escape ``check_variable``)."""
    flags = _FLAGS_ONLY.get(name)
    if flags is None:
        return
    for word in words[1:]:
        value = word.value
        if value == "--":
            return
        if value is not None and value.startswith("-") and len(value) > 2 and not (
                flags.issuperset(value[1:])):
            raise Doubt(f"{name!r} has the option {value!r}, whose attached value may name a "
                        "variable bash or a later program gives a meaning to")


#: ``test`` operators that compare or test strings and files, and never evaluate a word
#: arithmetically or as a variable's name (``-eq``, ``-v``, ``-R`` do).
_UNARY: Final = frozenset(f"-{c}" for c in "abcdefghkprstuwxzGLNOSn")
_BINARY: Final = frozenset({"=", "==", "!=", "<", ">", "-nt", "-ot", "-ef"})


def plain_test(words: list[Word]) -> bool:
    """Whether ``test …`` or ``[ … ]`` is read the same whatever its operands hold: one to
    three operands, none of which may vanish or split (so their count fixes how test reads
    them, POSIX's rule), each operator literal and one of ``_UNARY`` (after an optional
    ``!``) or ``_BINARY``; nothing is then evaluated arithmetically or as a variable name."""
    args = words[1:]
    if words[0].value == "[":
        if not args or args[-1] != Word("]"):
            return False
        args = args[:-1]
    if any(w.vanishes for w in args):
        return False
    shape = [w.value for w in args]
    if len(shape) == 2 and shape[0] == "!":
        return True
    if len(shape) == 3 and shape[0] == "!":
        shape = shape[1:]
    if len(shape) == 1:
        return True
    if len(shape) == 2:
        return shape[0] in _UNARY
    return len(shape) == 3 and shape[1] in _BINARY


#: Builtins that run no program and read no variable a command may set for later ones (a
#: lower-case name, ``check_variable``): a variable the command sets is not part of their
#: text. Every other command is judged with those variables before it (``carried_past``).
CARRY_FREE: Final = frozenset({
    "echo", "printf", ":", "true", "false", "test", "[", "read", "cd", "pwd", "exit", "return",
    "break", "continue", "shift", "export", "declare", "typeset", "local", "readonly", "unset",
    "wait", "getopts"})


def assigned_names(words: list[Word]) -> list[Word]:
    """The variables a command sets for the commands after it, each as an assignment word
    (``x=1``) or a pattern (any name, any value): a declaration's names, and the targets of
    ``read``, ``getopts``, ``wait`` and ``printf -v``."""
    name = words[0].value if words else None
    if name in _DECLARING:
        found = [Word(w.value) if w.value is not None and "=" in w.value else Word(None)
                 for w in words[1:] if w.value is None or not w.value.startswith(("-", "+"))]
        return found
    if name in ("read", "getopts", "wait") or (name == "printf" and "-v" in [
            w.value for w in words[1:2]]):
        return [Word(None)] if len(words) > 1 else ([Word(None)] if name == "read" else [])
    return []


#: Variables with a lower-case name that bash still gives a meaning to.
_SPECIAL_LOWER: Final = frozenset({"auto_resume", "histchars"})


def check_variable(name: str, where: str) -> None:
    """Raise Doubt unless ``name`` is a variable no later command depends on. Bash and the
    programs it runs give meaning to upper-case names: ``PATH`` picks the program a later word
    runs, ``IFS`` splits words, an assignment to ``OPTIND`` or ``RANDOM`` is evaluated
    arithmetically (``for OPTIND in 'a[$(id)]'`` runs id), ``GIT_SSH_COMMAND`` is run by git.
    So a name the command assigns for later commands must hold a lower-case letter."""
    if not any("a" <= c <= "z" for c in name) or name in _SPECIAL_LOWER:
        raise Doubt(f"{where!r} assigns {name!r}, a variable bash or a later program may give "
                    "a meaning to (PATH, IFS, OPTIND, …)")


def bare(text: str) -> Word:
    """An unquoted word: its value with backslash escapes removed, or a pattern when it holds a
    glob, a brace or a leading tilde (expanded by the shell)."""
    if _PLAIN.fullmatch(text):
        return Word(text)
    value: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\":
            if i + 1 < len(text) and text[i + 1] != "\n":
                value.append(text[i + 1])
            i += 2
            continue
        if char in "*?[]{}~":  # a glob, a brace, a tilde (after `=` or `:` too)
            return Word(None, vanishes=True, head="".join(value))
        value.append(char)
        i += 1
    return Word("".join(value))


def unescape_double(text: str) -> str:
    """Inside double quotes a backslash escapes only ``$``, a backquote, ``"``, ``\\`` and a
    newline (removed with it)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in '$`"\\\n':
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def run_words(words: list[str]) -> list[str]:
    """A command's words past ``env`` (with only ``-i``, ``-0``, ``-u NAME`` and assignments)
    and the wrappers ``strip_wrappers`` reads: the program it runs first. ``env`` with any
    other option (``-S``, ``-C``) stays, as a runner (review s43 P2)."""
    while words[:1] == ["env"] or (words and words[0] in WRAPPERS):
        if words[0] == "env":
            rest = words[1:]
            while rest and (rest[0] in _ENV_FLAGS or ASSIGNMENT_WORD.match(rest[0])):
                rest = rest[2:] if rest[0] in ("-u", "--unset", "-C", "--chdir") else rest[1:]
            if not rest or rest[0][:1] == "-":
                break
            words = rest
            continue
        inside, stripped = strip_wrappers([Word(w) for w in words])
        if not stripped:
            break
        words = [w.value or "" for w in inside]
    return words


#: ``env``'s options that change no program it runs and run none.
_ENV_FLAGS: Final = frozenset({"-i", "-0", "--ignore-environment", "--null", "-u", "--unset",
                               "-", "-C", "--chdir"})  # (-C's folder: ``moves``)
