"""The lexical pieces of GNU make's grammar ``makereads`` reads a makefile by (issue 29;
split from ``makereads`` in session 57): its logical lines, its comments, an automatic
variable's reference, the paths a start variable's value names (``start_paths``) and
those the session's relative values name where a recipe runs (``recipes_paths``)."""

from __future__ import annotations

import os
import re

from .envpaths import named_paths, relative_values, session_paths
from .makebounds import EVERYWHERE, SHELLFLAGS, SHELLS
from .makeexpand import include_words
from .makerecipes import Unbounded, Unread
from .makerecipes import exact as _exact_name
from .named import above
from .startvars import WHOLE

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: A variable's assignment: its name, its value (the operator between).
ASSIGNMENT: Final = re.compile(r"([^\s:#=]+?)\s*(?:::?=|:::=|\?=|\+=|!=|=)\s*(.*)")
#: GNU make 4.3's default include folders (``make -p -f /dev/null``: ``.INCLUDE_DIRS``), where
#: an included name not found in make's folder is looked for.
INCLUDE_DIRS: Final = ("/usr/local/include", "/usr/gnu/include", "/usr/include")
CONDITIONALS: Final = frozenset(("ifeq", "ifneq", "ifdef", "ifndef", "else", "endif"))
INCLUDES: Final = frozenset(("include", "-include", "sinclude"))
#: A recipe's move to another folder, where a relative path is read from there.
MOVES: Final = re.compile(r"\b(?:cd|pushd)\s|\s-C\s?\S|--directory")
#: ``.EXPORT_ALL_VARIABLES``, or ``export`` alone: every variable reaches the recipes.
EXPORT_ALL: Final = re.compile(r"(?m)^(?:\.EXPORT_ALL_VARIABLES[ \t]*:|export[ \t]*(?:#.*)?$)")
#: Variables make reads itself for what it runs or reads (beside ``startvars.WHOLE``).
MAKES_OWN: Final = frozenset(("SHELL", ".SHELLFLAGS", "MAKESHELL"))
FLAGS: Final = frozenset(("MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS"))
#: make's options a ``MAKEFLAGS`` value may hold that name no file make reads.
PLAIN_FLAGS: Final = re.compile(
    r"-?[bBeiknqrRsStwL]+|-j[0-9]*|-O\w*|--(?:no-print-directory|print-directory|silent|quiet|"
    r"warn-undefined-variables|no-builtin-rules|no-builtin-variables|keep-going|"
    r"environment-overrides|ignore-errors|always-make|check-symlink-times|no-silent|trace|"
    r"jobs(?:=[0-9]+)?|output-sync(?:=\w+)?|debug(?:=\w+)?|no-keep-going|stop)")


def lines(text: str) -> list[tuple[int, str]]:
    """Each logical line of ``text`` (a ``\\``-newline joined, ``\\``-CR-LF too, as make
    joins them: kept, a recipe's goes to its shell, ``_joined``) with its first line's
    number."""
    joined: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for number, line in enumerate(text.split("\n"), 1):
        line = line.removesuffix("\r") if line.rstrip("\r").endswith("\\") else line
        if pending is not None:
            number, line = pending[0], pending[1] + "\\\n" + line
        trailing = len(line) - len(line.rstrip("\\"))
        pending = (number, line[:-1]) if trailing % 2 else None
        if pending is None:
            joined.append((number, line))
    return joined + ([pending] if pending else [])


#: An automatic variable's reference (``$@``, ``$(<D)``).
AUTOMATIC: Final = re.compile(r"\$[@<^+?*|]|\$[({][@<^+?*|][DF]?[)}]")


def uncommented(line: str) -> str:
    """``line`` up to its comment: a ``#`` not escaped nor inside a reference (make reads
    ``$(if ,#,../lib)``'s ``#`` as text: review s56-greview B)."""
    depth, at = 0, 0
    while at < len(line):
        char = line[at]
        if char == "\\":
            at += 2
            continue
        if char == "$" and line[at + 1:at + 2] in ("(", "{"):
            depth, at = depth + 1, at + 2
            continue
        depth -= depth > 0 and char in ")}"
        if char == "#" and depth == 0:
            return line[:at]
        at += 1
    return line


def one_name(name: str, where: str) -> list[str]:
    """``[exact(name, where)]``: an include's one name (``_Reading.attempt``'s reading);
    Unbounded where a ``..`` follows a part that may be a link (``/proc/self/cwd/..``: the
    kernel resolves the link first, review s57-greview G)."""
    parts = _exact_name(name, where).split("/")
    if any(p == ".." and set(parts[:i]) - {"", ".", ".."} for i, p in enumerate(parts)):
        raise Unbounded(f"{where} names a file past a part that may be a link ({name!r})")
    return [name]


def start_paths(names: list[str], value: str, where: str, folder: str,
              exported: bool) -> list[str]:
    """The paths a start variable of ``names`` given ``value`` makes a program read, from
    ``folder``: each word of a ``WHOLE`` one, ``MAKEFLAGS``' files, an exported one's paths
    (as the session's: ``envpaths.named_paths``); Unread for a ``$`` there."""
    found: list[str] = []
    for name in names:
        starts = name in WHOLE or name in MAKES_OWN
        if not (starts or exported or name in FLAGS):
            continue
        if "$" in value:
            raise Unread(f"{where} gives {name} a value the gate cannot compute ({value!r}), "
                         "naming what the recipes' programs read")
        if name in FLAGS:
            if not all(PLAIN_FLAGS.fullmatch(w) for w in value.split()):
                raise Unread(f"{where} gives {name} options naming what make reads "
                             f"({value!r}), which the gate does not read")
            continue
        words = value.replace(":", " ").split() if name in WHOLE else named_paths(value)
        found += [os.path.join(folder, os.path.expanduser(w)) for w in words
                  if w not in (".", "..")]  # (a relative one from make's folder only: a
        # recipe's `cd sub && bash` reads sub/env.sh, and `.` is every folder: left open)
    return found


def recipes_paths(moved: list[str], folder: str, held: list[tuple[str, str]] | None
                     ) -> list[str]:
    """What a relative path the session's variables name (``-Iinc``, ``CPATH=inc``) names from
    each folder a recipe runs in (``moved``: a sub-make's, a ``cd``'s), as the call's folder
    is read (``envpaths.session_paths``, ``folder`` and those above it kept: gcc's names
    there); a doubt of every folder where one such folder is not known (review s54-greview3
    R, s55-greview R)."""
    folders = [f for f in dict.fromkeys(os.path.normpath(m) for m in moved if m)
               if f != os.path.normpath(folder)]
    if not (folders or "" in moved) or not (relative_values() or moved_parts()):
        return []
    if "" in moved and held is not None:
        held.append((EVERYWHERE, "a recipe moves to a folder the gate cannot compute, where "
                     "the session's relative paths (a toolchain's variable) are read"))
    kept = {os.path.normpath(folder), *above(os.path.normpath(folder))}
    moved_code = [p for f in folders for p in (os.path.normpath(os.path.join(f, part))
                                                for part in moved_parts()) if p not in kept]
    return [*(p for p, _ in session_paths(folders, [folder])), *moved_code]


def moved_parts() -> list[str]:
    """The relative folders the session's variables moving a program's code name
    (``homefiles.MOVED_CODE``: ``LD_LIBRARY_PATH=v``, whose empty entry is the folder the
    program runs in), read from each folder a program runs in (``startvars``; a recipe's:
    ``makereads``)."""
    from .homefiles import MOVED_CODE

    found: list[str] = []
    for name in MOVED_CODE:
        value = os.environ.get(name) or ""
        parts = value.replace(";", ":").split(":") if name == "LD_LIBRARY_PATH" else [
            p for p in value.split(":") if p]
        found += [p.removesuffix("/*") or "." for p in parts if value and p[:1] not in ("/", "~")]
    return found


def unbounded(definitions: dict[str, list[str]], specific: set[str]) -> str:
    """Why every doubt of a reading (its variables' ``definitions``, those ``specific`` to a
    target) may read anywhere (empty if none): a ``SHELL`` or ``.SHELLFLAGS`` the bound does
    not read a recipe in (``SHELL := /usr/bin/python3``), a ``.RECIPEPREFIX`` (each recipe
    after it read as no recipe), ``.LIBPATTERNS``: review s56-greview B."""
    for name, allowed in (("SHELL", SHELLS.__contains__), (".SHELLFLAGS", SHELLFLAGS.fullmatch),
                          (".RECIPEPREFIX", None), (".LIBPATTERNS", None)):
        if name in specific or (name in definitions and (allowed is None or not all(
                allowed(v.strip()) for v in definitions[name]))):
            return f"{name} is set"
    return ""


def included(operands: str, folder: str, definitions: dict[str, list[str]],
             trusted: set[str]) -> tuple[list[str], list[str]]:
    """The names a computed include's ``operands`` stand for, where make's expansion of them
    is read exactly (``include $(DEPS)``); a ``$(wildcard …)``'s, those in ``folder`` now, its
    pattern kept a doubt (a name made later); else the operands a doubt alone (review
    s56-greview B: what a computed include reads is read, and the rules remaking it). Its
    answer: the names, the texts doubted."""
    import glob

    words = include_words(operands, definitions, trusted)
    if words is None or any(w[:1] in ("/", "~") or ".." in w.split("/") for w in words):
        return [], [operands]
    found = [w for w in words if not any(c in w for c in "*?[")]
    patterns = [w for w in words if w not in found]
    for pattern in patterns:
        found += sorted(os.path.relpath(m, folder) for m in glob.glob(
            os.path.join(glob.escape(folder), pattern)))[:256]
    return found, patterns


def doubted(code: str, head: str | None, heads: dict[str, str]) -> str | None:
    """A doubt's text of the recipe line ``code`` (its rule's ``head``, ``targets:
    prerequisites``; ``heads``, every rule line's): with the heads of its targets' rule lines
    where it names an automatic variable (``make -C $@``, ``$(<D)``: s57-greview N); None
    (every folder) for a pattern's or a special target's (any name)."""
    if not AUTOMATIC.search(code):
        return code
    if head is None or "%" in head or head.lstrip()[:1] == "." or "$" in head:
        return None
    targets = set(head.partition(":")[0].split())
    return "\n".join([code, *dict.fromkeys(
        h for h in heads.values() if targets & set(h.partition(":")[0].split()))])


def before(head: str | None, makers: list[str], sub: bool) -> bool:
    """Whether a recipe line of the rule ``head`` (``targets:prerequisites``; None: a canned
    recipe's) may run before a sub-make (``makers``: the heads of the rules starting one): a
    line of such a rule or of a prerequisite's rule of it; any in a sub-make of siblings
    (``sub``). Review s57-greview N: a ``clean`` rule's ``rm`` beside ``$(MAKE) -C lib`` is
    no such line."""
    names = {n for h in makers for n in h.replace(":", " ").split()}
    return sub or (bool(makers) and (head is None or bool(
        names & set(head.partition(":")[0].split()))))


def command_line(words: list[str]) -> tuple[dict[str, str], frozenset[str]]:
    """The values the plan's make's command line ``words`` gives variables (``make test
    DIRS=lib``: make keeps them over the makefiles' own, but an ``override``'s; review
    s57-greview W), and the names it gives a value the gate does not read exactly (``X+=v``,
    ``X:=$(Y)``, a word after an option, which may be its value; ``*``: any, under ``-e``,
    a ``MAKEFLAGS`` given, a word not plain: a quote, ``$``, a backslash, a blank's split)."""
    given: dict[str, str] = {}
    others: set[str] = set()
    for at, word in enumerate(words):
        found = ASSIGNMENT.fullmatch(word) if word[:1] != "-" else None
        if environment_first([word], False) or word[:1] == "=" or not _PLAIN_WORD.fullmatch(
                word if found is None else found.group(1)):
            others.add("*")  # (the environment's values over the makefiles'; not read)
        elif found and not _PLAIN_WORD.fullmatch(found.group(2)):
            others.add(found.group(1))  # (a value of blanks, quotes: `CFLAGS="-O2 -g"`)
            continue
        if found is None:
            continue
        name, value = found.group(1), found.group(2)
        operator = word[len(name):len(word) - len(value)]
        if name in FLAGS or name == "MAKEOVERRIDES" or "$" in name:
            others.add("*")
        elif operator == "=" and (not at or words[at - 1][:1] != "-") and name not in given:
            given[name] = value
        else:
            others.add(name)
    return {n: v for n, v in given.items() if n not in others}, frozenset(others)


def environment_first(values: list[str], flags: bool = True) -> bool:
    """Whether make's options ``values`` (a command line's words; ``flags``: a ``MAKEFLAGS``'
    values, whose first word may be letters without ``-``) may hold ``-e`` (the
    environment's values over the makefiles')."""
    for at, word in enumerate(w for v in values for w in v.split()):
        if (word[:1] == "-" and word[1:2] != "-" and "e" in word) or (word[:4] == "--en" and
                "--environment-overrides".startswith(word.split("=", 1)[0])) or (
                flags and not at and word[:1] != "-" and "e" in word and "=" not in word):
            return True
    return False


def special(name: str) -> bool:
    """Whether the variable ``name`` is one make reads itself (``.RECIPEPREFIX``, ``SHELL``,
    ``VPATH``, ``MAKEFILES``…): given on the plan's command line, a doubt of every folder."""
    return name[:1] == "." or name in MAKES_OWN or name in FLAGS or name in (
        "MAKEFILES", "VPATH", "MAKEOVERRIDES", "MAKE", "CURDIR", "MAKELEVEL", "SUFFIXES")


#: A command line's word read as written (no quote, escape or expansion of the shell's).
_PLAIN_WORD: Final = re.compile(r"[\w./,:@%+=-]*")
