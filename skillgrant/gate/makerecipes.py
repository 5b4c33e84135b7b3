"""The makes a makefile's line starts (issue 29; session 54: ``makereads``' recipes): a recipe,
a variable's value or a ``$(shell …)`` line naming ``make``, ``$(MAKE)`` or a variable holding
either starts make in the folder a literal ``cd``/``pushd`` before it (in the same line) and
its ``-C`` options reach, reading its ``-f`` operands or that folder's default makefiles and
the makefiles its ``MAKEFILES`` names; make's options are read as its getopt reads them (a
cluster, an attached value, a long option's unique abbreviation). A Python checker or test
runner started after such a ``cd`` reads its settings' plugins there (review s53-greview I1:
``checkersettings.plugin_paths``). What the gate cannot compute there (a ``$`` in the folder,
a file, or a word that may be an option; ``-I``, ``--eval``) raises ``Unread`` (a doubt the
reading keeps: ``makereads``)."""

from __future__ import annotations

import os
import re

from . import files as fs
from .checkersettings import plugin_paths

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: A word that starts make (GNU make's ``$(MAKE)``, its spellings, a program ``make``).
_MAKE_WORD: Final = r"(?:[^\s$]*/)?g?make|\$\{MAKE(?:_COMMAND)?\}"
#: make's long options (getopt takes any unique abbreviation): the letter of those the gate
#: reads, ``=`` for one taking the next word as its value, ``-`` for any other.
_LONG: Final = {"directory": "C", "file": "f", "makefile": "f", "include-dir": "I",
                "eval": "E", "old-file": "=", "new-file": "=", "assume-old": "=",
                "assume-new": "=", "what-if": "=", "jobs": "-", "load-average": "-",
                "debug": "-", "output-sync": "-", "shuffle": "-", "environment-overrides": "-",
                "ignore-errors": "-", "keep-going": "-", "just-print": "-", "dry-run": "-",
                "recon": "-", "print-data-base": "-", "question": "-", "no-builtin-rules": "-",
                "no-builtin-variables": "-", "silent": "-", "quiet": "-", "stop": "-",
                "no-keep-going": "-", "touch": "-", "trace": "-", "version": "-",
                "print-directory": "-", "no-print-directory": "-", "check-symlink-times": "-",
                "always-make": "-", "warn-undefined-variables": "-", "no-silent": "-",
                "help": "-"}
#: The Python checkers and test runners whose settings name plugins they import.
_CHECKERS: Final = frozenset(("pytest", "py.test", "mypy", "dmypy", "pylint", "flake8",
                              "coverage"))
#: The names make looks for in a folder (GNU make's "What Name to Give Your Makefile").
DEFAULTS: Final = ("GNUmakefile", "makefile", "Makefile")


#: Programs that run make from their words elsewhere or with words the gate does not read
#: (``xargs``' ``{}``, ``env -C``, ``find -execdir``, a shell's ``-c``).
_WRAPPERS: Final = frozenset(("xargs", "env", "find", "parallel", "sh", "bash", "dash", "zsh",
                              "sudo", "chroot", "setsid", "flock", "watch"))
#: Text writing files (a makefile make or a sub-make then reads) or exporting what a sub-make
#: reads from its environment; ``$(shell …)``'s redirection.
_WRITING: Final = re.compile(r"(?:^|[\s;&|(@+-])(?:cp|mv|ln|install|rsync|tee|tar|unzip|patch|"
                             r"dd|export|declare|typeset|sed\s[^;&|]*-i)\s|"
                             r"\$[({]shell\s[^)}]*>")


#: Programs that may run a program in another folder (beside ``cd``, make's ``-C``).
_CHANGERS: Final = frozenset(("unshare", "nsenter", "start-stop-daemon", "systemd-run",
                              "chroot", "runuser", "su", "sudo"))
#: Words by which a program runs one in another folder (``env -C``, ``git -C``, ``sh -c 'cd
#: sub …'``, ``find -execdir``, ``--wd``, ``os.chdir``).
_FOLDER_WORDS: Final = re.compile(r"\s-C|--(?:wd|chdir|work|dir|cwd)|-execdir|chdir|cwd|\bcd\b|"
                                  r"\bpushd\b")


class Unread(ValueError):
    """A makefile names what make reads by what the gate cannot compute exactly."""


class Unbounded(Unread):
    """A makefile names what make reads by what the gate cannot bound to a folder either (a
    doubt of every folder: session 57)."""


#: The bytes of a build file read (make's, cmake's lists): past them the text is cut.
_LIMIT: Final = 1 << 20


def build_text(path: str) -> str:
    """The text of the build file ``path`` (a makefile, a CMake lists file), empty when it is
    not there; Unread when it cannot be read (``makereads``, ``cmakereads``)."""
    try:
        return fs.read(path, _LIMIT).decode(errors="replace")
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return ""
    except (OSError, ValueError) as e:
        raise Unread(f"{path!r} cannot be read for the files it names: {e}") from e


def exact(name: str, where: str) -> str:
    """``name`` as the makefile gives it; Unread where make computes it (a ``$``, a pattern)."""
    if "$" in name or any(c in name for c in "*?[%"):
        raise Unread(f"{where} names a file the gate cannot name exactly ({name!r}), which "
                     "make reads")
    return name


def make_words(definitions: dict[str, list[str]]) -> re.Pattern[str]:
    """A word that starts make in a makefile of the variables' ``definitions``: ``make``,
    ``$(MAKE)``, a variable whose value holds one (``M = $(MAKE) -C sub``), read braced."""
    makers: set[str] = set()
    spelled = re.compile(_MAKE_WORD)
    while True:
        more = {n for n, values in definitions.items()
                if any(spelled.search(_braced(re.sub(r"['\"\\]", "", v))) or spelled.search(
                    _pieces(_braced(v))) for v in values)}
        if more <= makers:
            return spelled
        makers |= more
        spelled = re.compile("|".join([_MAKE_WORD, *(rf"\${{{re.escape(n)}}}"
                                                     for n in sorted(makers))]))


def _braced(text: str) -> str:
    """``text`` with each ``$(…)`` written ``${…}`` (so a subshell's parentheses split)."""
    while (nested := re.sub(r"\$\(([^()]*)\)", r"${\1}", text)) != text:
        text = nested
    return text


def sub_makes(text: str, where: str, folder: str, spelled: re.Pattern[str],
              cdpath: bool = False, commands: bool = True, moves: list[str] | None = None
              ) -> tuple[list[tuple[str, list[str], list[str]]], list[tuple[str, bool]]]:
    """Each make the line ``text`` (make in ``folder``) starts: its folder, the makefiles it
    reads (its ``-f`` operands or its folder's default ones), its assignments (``X=v``
    words); and the plugins a checker started there after a ``cd`` imports. Unread for a
    computed folder, file or option there; Unbounded for a program that may be make by
    another spelling (``_other_make``: in ``text``'s commands, or where it is no commands, a
    variable's value, in its ``$(shell …)``) or a ``cd`` that may search ``cdpath``. Each
    folder a ``cd`` moves to is added to ``moves`` (empty: one the gate cannot compute)."""
    found: list[tuple[str, list[str], list[str]]] = []
    plugins: list[tuple[str, bool]] = []
    base, unknown = folder, ""
    text = _checked(text, where, spelled, commands)
    pieces = re.split(r"(&&|\|\||[;&|()\n])", _braced(text))
    for segment, after in zip(pieces[::2], [*pieces[1::2], ""], strict=True):
        words = [w.lstrip("@+-") if at == 0 else w for at, w in enumerate(
            segment.replace("'", " ").replace('"', " ").split())]
        if words[:1] in (["cd"], ["pushd"], ["popd"]):
            base, unknown = _moved(words, base, unknown, cdpath)
            unknown = unknown or ("" if after in ("&&", "") else f"{words[1:2]} (it may fail)")
            if moves is not None:
                moves.append("" if unknown else base)
            continue
        at = next((i for i, w in enumerate(words) if spelled.fullmatch(w.lstrip("@+-"))), None)
        if moves is not None and at is None and (not _CHANGERS.isdisjoint(
                os.path.basename(w) for w in words) or _FOLDER_WORDS.search(segment)):
            moves.append("")  # (`env -C sub`, `sh -c 'cd sub …'`, `find -execdir`, `unshare
            # --wd=sub`: a folder the gate does not read, s57-greview T)
        _wrapped(words, at, where)
        checkers = [c for c in _CHECKERS if c in (os.path.basename(w) for w in words)]
        if (at is not None or (checkers and base != folder)) and unknown:
            raise (Unbounded if "CDPATH" in unknown else Unread)(
                f"{where} starts a program after a cd to a folder the gate cannot compute "
                f"({unknown!r})")
        plugins += _plugins(checkers, words, where, base, folder) if checkers else []
        raw = segment.split()
        if at is not None and any(re.search(r"['\"\\]", w) and re.match(
                r"-[a-zA-Z]*[Cf]|--(?:di|fi|ma)", w if re.match(r"-[a-zA-Z]*[Cf]\S", w) or i == 0
                else raw[i - 1]) for i, w in enumerate(raw)):  # (`-C l''i\b`: s57-greview G)
            raise Unread(f"{where} starts make in a folder or of a file quoted, which the gate "
                         "does not read")
        if at is not None:
            try:
                found.append(_sub_make(words[at + 1:], [w for w in words[:at] if "=" in w],
                                       where, base))
            except Unread:
                if moves is not None:
                    moves.append("")  # (a sub-make's folder not known)
                raise
    return found, plugins


def _checked(text: str, where: str, spelled: re.Pattern[str], commands: bool) -> str:
    """``text`` with its backslash-newlines removed (a recipe's: the shell's); Unread where it
    writes a file before a make reads it, Unbounded where it may start make by another
    spelling (``_other_make``: in its commands, or where it is no commands, in its
    ``$(shell …)``)."""
    text = text.replace("\\\n", "")
    _other_make(text if commands else " ; ".join(_SHELL_CALL.findall(text)), where, spelled)
    if ("$(shell" in text or "${shell" in text or spelled.search(_braced(text))) and \
            _WRITING.search(text):  # (make's `$(shell cp …)`, a recipe's cp before a sub-make)
        raise Unread(f"{where} writes a file before make reads it (a makefile it includes, "
                     "or a sub-make's), or sets what a sub-make reads, from what the gate "
                     "does not read")
    return text


#: Programs read as writing no file (``writes``: an allow-list; a redirection aside).
_READ_ONLY: Final = frozenset(("echo", "printf", "true", "false", "test", "[", ":", "mkdir",
                               "cd", "sleep", "exit", "set", "make", "gmake", "${MAKE}",
                               "pwd", "ls", "cat", "grep", "which", "done", "fi", "esac",
                               "}", "for", "case"))
#: Words before a simple command's program (judged next: ``do cp``, ``command cp``).
_BEFORE: Final = frozenset(("do", "then", "else", "elif", "if", "while", "until", "!", "{",
                            "command", "exec", "time", "nice", "nohup"))


def writes(code: str) -> bool:
    """Whether the recipe line ``code`` may write a file a later sub-make reads: a program
    but ``_READ_ONLY``'s (``cp``, ``command cp``, a script, ``$(SPHINXBUILD)``), or a
    redirection but to /dev/null (review s57-greview N: an allow-list)."""
    if "`" in code or "$$(" in code:  # (a command substitution's program: s57-greview N)
        return True
    bare = code.replace("2>&1", "").replace(">&2", "")
    if re.search(r">+\s*(?!/dev/null)\S", re.sub(r"'[^']*'|\"(?:\\.|[^\"\\])*\"", "", bare)):
        return True
    for segment in re.split(r"&&|\|\||[;&|()\n]", _braced(code)):
        words = [w for w in segment.split() if not re.fullmatch(r"[@+-]*[A-Za-z_]\w*=\S*", w)]
        while words and words[0].lstrip("@+-") in _BEFORE:
            words = words[1:]
        if words and words[0].lstrip("@+-") not in _READ_ONLY:
            return True
    return False


#: Programs named for make that run no make (they write makefiles).
_NOT_MAKE: Final = frozenset(("make", "gmake", "cmake", "qmake", "automake", "imake"))


def _pieces(word: str) -> str:
    """``word`` without its quotes, backslashes and references (``ma$(E)ke``, ``m''ake``)."""
    return re.sub(r"\$\{[^{}]*\}|['\"\\]", "", word)


def _wrapped(words: list[str], at: int | None, where: str) -> None:
    """Unread where the simple command ``words`` runs cmake (its lists: not followed here) or
    starts make (at ``at``) by another program."""
    if "cmake" in (os.path.basename(w) for w in words):
        raise Unread(f"{where} runs cmake, which reads CMake code the gate does not follow "
                     "from a recipe")
    if at is not None and not _WRAPPERS.isdisjoint(os.path.basename(w) for w in words[:at]):
        raise Unread(f"{where} starts make by another program ({words[0]!r}), in a folder or "
                     "with words the gate does not read")


def _moved(words: list[str], base: str, unknown: str, cdpath: bool) -> tuple[str, str]:
    """The folder a ``cd``'s (``pushd``'s, ``popd``'s) ``words`` move from ``base`` to, and
    what the gate cannot compute of it (``unknown``: kept once set; a ``$``, ``-``, a bare
    ``cd``, ``popd``, a relative one searched in ``CDPATH``)."""
    target = words[1] if len(words) > 1 else "~"
    if cdpath and target[:1] not in ("/", "~") and words[0] != "popd":
        unknown = unknown or f"{target} (searched in CDPATH)"
    unknown = unknown or (target if words[0] == "popd" or "$" in target or target in (
        "-", "~") or re.search(r"[^/.][^/]*/(?:\.?/)*\.\.(?:/|$)", target) else "")
    return os.path.join(base, os.path.expanduser(target) if target != "~" else target), unknown


#: A ``$(shell …)`` call's command.
_SHELL_CALL: Final = re.compile(r"\$[({]shell\s+([^)}]*)")
#: What precedes a simple command's program (its prefix words, a keyword).
_PREFIXES: Final = frozenset(("exec", "command", "nice", "time", "then", "do", "else", "!",
                              "{", "if", "while", "until", "nohup", "${shell"))


def _other_make(text: str, where: str, spelled: re.Pattern[str]) -> None:
    """Unbounded where a simple command of ``text`` runs a program the gate does not read as
    make or as no make: a program word quoted or escaped (``m''ake``), computed by a command
    (``$$(echo make)``, a backtick) or a function (``$(firstword $(MAKE))``), or another
    program named for make (``make-first-existing-target``, ``bmake``): review s56-greview
    G (a sub-make by another spelling is a doubt of every folder)."""
    for segment in re.split(r"&&|\|\||[;&|()\n]", _braced(text).replace("$$", "\x00")):
        words = segment.split()
        at = 0
        while at < len(words) and (words[at] in _PREFIXES or re.fullmatch(
                r"[@+-]*[A-Za-z_]\w*=\S*", words[at]) or not words[at].strip("@+-")):
            at += 1
        if at == len(words):
            continue
        word = words[at].lstrip("@+-")
        plain = re.sub(r"['\"\\]", "", word)
        name = os.path.basename(plain)
        named = re.match(r"[a-z]*make(?:[-_.]|$)", name.lower()) and "$" not in word and \
            "/" not in word and name not in _NOT_MAKE  # (bmake, `make-first-existing-target`;
        quoted = any(_pieces(w) != w and spelled.fullmatch(  # `timeout 9 m''ake`, `ma$(E)ke`)
            _pieces(w).lstrip("@+-")) for w in words)
        if "\x00" in word or "`" in word or re.search(r"\$\{[^{}]*$", word) or named or quoted:
            raise Unbounded(f"{where} runs a program the gate cannot tell from make "
                            f"({word!r}), whose makefiles it does not read")


def _plugins(checkers: list[str], words: list[str], where: str, base: str, folder: str
             ) -> list[tuple[str, bool]]:
    """The plugins ``checkers`` (started with ``words`` in ``base``, make in ``folder``) import
    from settings found in ``base`` after a ``cd`` (review s53-greview I1) and from each
    operand's folder up (pytest's rootdir and ini: s54-greview M13); Unread for a ``$`` in an
    operand."""
    places = [base] if base != folder else []
    at = next((k for k, w in enumerate(words) if os.path.basename(w) in checkers), 0)
    for operand in (w for w in words[at + 1:] if w[:1] != "-"):
        path = os.path.normpath(os.path.join(base, os.path.expanduser(operand)))
        if not (path + "/").startswith(folder.rstrip("/") + "/") and "$" not in operand:
            raise Unbounded(f"{where}: a checker's operand outside make's folder "
                            f"({operand!r}), whose conftests the gate does not read")
    for operand in (w for w in words if "/" in w and w[:1] != "-"):
        if "$" in operand:
            raise Unread(f"{where}: a checker's operand the gate cannot compute ({operand!r})")
        places.append(os.path.join(base, operand))
    home = os.path.expanduser("~")
    return [p for place in places for p in plugin_paths(checkers, _upwards(place, folder), home)]


def _upwards(folder: str, top: str) -> list[str]:
    """``folder`` and each folder above it to ``top`` (where pytest finds its settings)."""
    found = [os.path.normpath(folder)]
    while found[-1] != os.path.normpath(top) and os.path.dirname(found[-1]) != found[-1] \
            and len(found) < 64:
        found.append(os.path.dirname(found[-1]))
    return found


def _sub_make(words: list[str], prefix: list[str], where: str, folder: str
              ) -> tuple[str, list[str], list[str]]:
    """One sub-make of the options ``words`` (after its name), ``prefix`` its assignments:
    its folder, its makefiles, its assignments."""
    files: list[str] = []
    at = 0
    while at < len(words):
        word, at = words[at], at + 1
        option, value = _option(word, words[at] if at < len(words) else None, where)
        at += option[1:] == "+"
        if option[:1] in ("I", "E"):  # (a doubt, its makefiles read still: s57-greview N)
            prefix.append("!" + option[:1])
        elif option[:1] in ("C", "f"):
            if value is None or value == "-":  # (`-f -`: a pipe)
                raise Unread(f"{where}: a sub-make's -{option[:1]} names what it reads "
                             "otherwise, or lacks its value")
            if re.search(r"[^/.][^/]*/(?:\.?/)*\.\.(?:/|$)", value):  # (`/proc/self/cwd/..`:
                raise Unbounded(f"{where}: a sub-make's -{option[:1]} climbs past a part that "
                                f"may be a link ({value!r})")  # the link first, s57-greview N)
            folder = os.path.join(folder, os.path.expanduser(exact(value, where))) \
                if option[:1] == "C" else folder
            files += [exact(value, where)] if option[:1] == "f" else []
        elif not option and "=" in word:
            prefix.append(word)
        elif re.fullmatch(r"-[a-zA-Z]*e[a-zA-Z]*|--env[a-z-]*", word):  # (`-e`: the
            prefix.append("*=")  # environment's values over every makefile's, s57-greview N)
        elif "$" in word:
            raise Unread(f"{where}: a sub-make's word {word!r} may be an option naming what "
                         "it reads, which the gate cannot compute")
    makefiles = [os.path.join(folder, f) for f in files] or [
        os.path.join(folder, d) for d in DEFAULTS]
    return folder, makefiles, prefix


def _option(word: str, following: str | None, where: str) -> tuple[str, str | None]:
    """The make option ``word`` is (``C``, ``f``, ``I``, ``E``, another: ``-``; ``""`` for no
    option) and its value, ``+`` after it when the value is ``following``."""
    if word[:2] == "--":
        name, equals, value = word[2:].partition("=")
        known = [n for n in _LONG if n.startswith(name)] if name else []
        if name not in _LONG and len({_LONG[n] for n in known}) > 1:
            raise Unread(f"{where}: make's option {word!r} is ambiguous")
        letter = _LONG[name] if name in _LONG else _LONG[known[0]] if known else "-"
        if equals or letter == "-":
            return letter if letter != "=" else "-", value if equals else None
        return ("-" if letter == "=" else letter) + "+", following
    if word[:1] != "-" or len(word) < 2:
        return "", None
    for i, letter in enumerate(word[1:], 1):
        if letter in "CfIEoWlj":
            rest = word[i + 1:]
            if letter in "lj":
                return "-", None
            letter = letter if letter in "CfIE" else "-"
            return (letter, rest) if rest else (letter + "+", following)
    return "-", None
