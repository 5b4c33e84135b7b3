"""What GNU make reads as its own instructions from a makefile's text (issue 29; session 54,
review s53-greview M1): the files a makefile the plan's make reads (``planprograms``' ``:``
items, guarded) makes make read next, computed from the text with make's grammar (GNU make
4.3's manual and ``make -p``): the ``include``/``-include``/``sinclude`` operands, each from the
folder make runs in and the makefile's, and in make's default include folders
(``.INCLUDE_DIRS``); the files make may remake each read makefile from (GNU make's "How
Makefiles Are Remade": an explicit rule's prerequisites and the words of its recipe, and the
built-in rules' sources, ``BUILT_IN``); ``load``'s objects; the paths a start variable the
makefile assigns or exports names (``startvars.WHOLE``: ``BASH_ENV``, ``MAKEFILES``, …; any
exported one as the session's, ``envpaths.named_paths``; ``SHELL``, ``.SHELLFLAGS``); and the
makefiles a sub-make reads, wherever a line (a recipe, a variable's value, ``$(shell …)``)
starts make (``make``, ``$(MAKE)``, a variable holding either) after a literal ``cd`` or
``-C``: its ``-f`` operands or its folder's default makefiles, and ``MAKEFILES``' names, each
read again. Where the text names what make reads by anything the gate cannot compute exactly
(a ``$`` in such a name, a pattern, ``$(eval …)``, a pattern rule or ``.DEFAULT`` that may
remake a read makefile, ``vpath``, ``-I``, ``--eval``, ``.RECIPEPREFIX``), ``Unread`` is
raised naming the file and its line: the plan is refused (docs/call-gate.md, the cost)."""

from __future__ import annotations

import os
import re

from . import files as fs
from .envpaths import named_paths
from .makerecipes import Unread, exact, make_words, sub_makes
from .startvars import WHOLE

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The bytes of a makefile read, and how many makefiles one plan's reading reads at most.
_LIMIT: Final = 1 << 20
_MAX_READ: Final = 256
#: GNU make 4.3's default include folders (``make -p -f /dev/null``: ``.INCLUDE_DIRS``), where
#: an included name not found in make's folder is looked for.
_INCLUDE_DIRS: Final = ("/usr/local/include", "/usr/gnu/include", "/usr/include")
#: GNU make 4.3's built-in rules (``make -p -f /dev/null``): a target pattern, its sources.
_BUILT_IN_RULES: Final = (
    "%:%.o", "%:%.c", "%.ln:%.c", "%.o:%.c", "%:%.cc", "%.o:%.cc", "%:%.C", "%.o:%.C", "%:%.cpp",
    "%.o:%.cpp", "%:%.p", "%.o:%.p", "%:%.f", "%.o:%.f", "%:%.F", "%.o:%.F", "%.f:%.F", "%:%.m",
    "%.o:%.m", "%:%.r", "%.o:%.r", "%.f:%.r", "%.ln:%.y", "%.c:%.y", "%.ln:%.l", "%.c:%.l",
    "%.r:%.l", "%.m:%.ym", "%:%.s", "%.o:%.s", "%:%.S", "%.o:%.S", "%.s:%.S", "%:%.mod",
    "%.o:%.mod", "%.sym:%.def", "%.dvi:%.tex", "%.info:%.texinfo", "%.dvi:%.texinfo",
    "%.info:%.texi", "%.dvi:%.texi", "%.info:%.txinfo", "%.dvi:%.txinfo", "%.c:%.w %.ch",
    "%.tex:%.w %.ch", "%.p:%.web", "%.tex:%.web", "%:%.sh", "%.out:%", "%:%,v", "%:RCS/%,v",
    "%:RCS/%", "%:s.%", "%:SCCS/s.%",
)
BUILT_IN: Final = tuple((t, tuple(p.split())) for t, p in (r.split(":", 1)
                                                            for r in _BUILT_IN_RULES))
#: Variables make reads itself for what it runs or reads (beside ``startvars.WHOLE``).
_MAKES_OWN: Final = frozenset(("SHELL", ".SHELLFLAGS", "MAKESHELL"))
_FLAGS: Final = frozenset(("MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS"))
#: make's options a ``MAKEFLAGS`` value may hold that name no file make reads.
_PLAIN_FLAGS: Final = re.compile(
    r"-?[bBeiknqrRsStwL]+|-j[0-9]*|-O\w*|--(?:no-print-directory|print-directory|silent|quiet|"
    r"warn-undefined-variables|no-builtin-rules|no-builtin-variables|keep-going|"
    r"environment-overrides|ignore-errors|always-make|check-symlink-times|no-silent|trace|"
    r"jobs(?:=[0-9]+)?|output-sync(?:=\w+)?|debug(?:=\w+)?|no-keep-going|stop)")
_ASSIGNMENT: Final = re.compile(r"([^\s:#=]+)\s*(?:::?=|:::=|\?=|\+=|!=|=)\s*(.*)")
_DIRECTIVES: Final = frozenset(("ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "vpath",
                                "undefine", "export", "unexport"))
def makefile_reads(path: str, folder: str) -> list[str]:
    """The files make, reading the makefile ``path`` in ``folder`` (its named folder: the
    call's, the project's, ``-C``'s), reads or may run as its instructions (see the module's
    text), each makefile they name read again; Unread where the gate cannot say."""
    found: list[str] = []
    queue, seen = [(path, folder)], set()
    while queue:
        path, folder = queue.pop()
        if (path, folder) in seen:
            continue
        seen.add((path, folder))
        if len(seen) > _MAX_READ:
            raise Unread(f"{path!r}: more than {_MAX_READ} makefiles to read")
        names, subs = _read(path, folder)
        found += names
        queue += subs
    return list(dict.fromkeys(found))


def _text(path: str) -> str:
    """The text of ``path``, empty when it is not there; Unread when it cannot be read."""
    try:
        return fs.read(path, _LIMIT).decode(errors="replace")
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return ""
    except (OSError, ValueError) as e:
        raise Unread(f"{path!r} cannot be read for the files it names: {e}") from e


def _lines(text: str) -> list[tuple[int, str]]:
    """Each logical line of ``text`` (a ``\\``-newline joined) with its first line's number."""
    joined: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for number, line in enumerate(text.split("\n"), 1):
        if pending is not None:
            number, line = pending[0], pending[1] + " " + line.lstrip()
        trailing = len(line) - len(line.rstrip("\\"))
        pending = (number, line[:-1]) if trailing % 2 else None
        if pending is None:
            joined.append((number, line))
    return joined + ([pending] if pending else [])


def _read(path: str, folder: str) -> tuple[list[str], list[tuple[str, str]]]:
    """What the makefile ``path`` (make in ``folder``) names: the files (``makefile_reads``),
    and the makefiles read next with the folder of their make."""
    reading = _Reading(path, folder)
    text = _text(path)
    reading.exporting = _EXPORT_ALL.search(text) is not None
    for number, line in _lines(text):
        reading.line(number, line)
    reading.found += _remade({os.path.normpath(n) for n in reading.read}, reading.rules, path,
                             (folder, reading.here))
    spelled = make_words(reading.definitions)
    for number, code in reading.code:
        where = f"{path}:{number}"
        started, plugins = sub_makes(code, where, folder, spelled)
        reading.found += [p for p, _ in plugins]
        for sub_folder, makefiles, assignments in started:
            extra = [p for name, _, value in (a.partition("=") for a in assignments) for p in (
                [os.path.join(sub_folder, exact(v, where)) for v in value.split()]
                if name in ("MAKEFILES", "MAKEFLAGS", "GNUMAKEFLAGS") else
                _assigned([name], value, where, sub_folder, exported=True))]
            reading.found += makefiles + extra
            reading.subs += [(m, sub_folder) for m in makefiles + extra]
    return reading.found, reading.subs


#: ``.EXPORT_ALL_VARIABLES``, or ``export`` alone: every variable reaches the recipes.
_EXPORT_ALL: Final = re.compile(r"(?m)^(?:\.EXPORT_ALL_VARIABLES[ \t]*:|export[ \t]*$)")


class _Reading:
    """One makefile's reading, line by line (make's grammar: a recipe line is a tab's line
    after a rule's; a ``define``'s lines are text; every other line a directive, a variable's
    assignment or a rule)."""

    def __init__(self, path: str, folder: str) -> None:
        self.path, self.folder = path, folder
        self.here = os.path.dirname(path) or "."
        self.found: list[str] = []
        self.subs: list[tuple[str, str]] = []
        self.read = {os.path.basename(path), os.path.relpath(path, folder)}  # (rules' targets)
        self.rules: list[tuple[list[str], list[str], list[str], int]] = []
        self.definitions: dict[str, list[str]] = {}
        self.code: list[tuple[int, str]] = []  # (every text that may run: for sub-makes)
        self.in_rule, self.in_define, self.exporting = False, 0, False

    def line(self, number: int, line: str) -> None:
        """Reads the logical line ``line`` (numbered ``number``)."""
        where = f"{self.path}:{number}"
        if "$(eval" in line or "${eval" in line:
            raise Unread(f"{where} evaluates text as makefile lines ($(eval …)), which the "
                         "gate cannot read exactly")
        if self.in_define:  # (a canned recipe's lines may start make)
            words = line.split()
            self.in_define += ("define" in words[:3]) - (words[:1] == ["endef"])
            self.code.append((number, line))
            return
        if line.startswith("\t") and self.in_rule:
            self.code.append((number, line))
            self.rules[-1][2].append(line)
            return
        bare = re.sub(r"(?<!\\)#.*", "", line).strip()
        words = bare.split()
        exported = self.exporting
        while words[:1] in (["override"], ["export"], ["private"], ["unexport"]) and words[1:]:
            exported = exported or words[0] == "export"
            words, bare = words[1:], bare.split(None, 1)[1]
        if not words or self._directive(words, where, exported):
            return
        self.in_rule = False
        assigned = _ASSIGNMENT.fullmatch(bare)
        if assigned:
            self._assignment(assigned.group(1), assigned.group(2), number, exported)
        elif ":" in bare:
            self._rule(bare, number)
        else:  # (`export X Y`, a function's line: `$(shell …)`)
            self.code.append((number, bare))

    def _directive(self, words: list[str], where: str, exported: bool) -> bool:
        """Whether ``words`` are a directive's, read: ``include``'s, ``load``'s names."""
        if words[0] == "define":
            self.in_define = 1
            self.found += _assigned(words[1:2], "$", where, self.folder, exported=exported)
        elif words[0] in ("include", "-include", "sinclude"):
            for name in (exact(w, where) for w in words[1:]):
                self.read.add(name)
                for base in dict.fromkeys((self.folder, self.here)):
                    self.found.append(os.path.join(base, name))
                    self.subs.append((os.path.join(base, name), self.folder))
                self.found += [os.path.join(d, name) for d in _INCLUDE_DIRS if name[:1] != "/"]
        elif words[0] in ("load", "-load"):
            for name in (exact(w.split("(", 1)[0], where) for w in words[1:]):
                self.read.add(name)
                self.found.append(os.path.join(self.folder, name))
        elif words[0] == "vpath" and len(words) > 2:
            raise Unread(f"{where}: vpath makes make look for files elsewhere")
        return words[0] in _DIRECTIVES or words[0] in ("define", "include", "-include",
                                                       "sinclude", "load", "-load")

    def _assignment(self, name: str, value: str, number: int, exported: bool) -> None:
        """Reads the assignment of ``value`` to the variable ``name``."""
        self.definitions.setdefault(name, []).append(value)
        if name in (".RECIPEPREFIX", "VPATH"):
            raise Unread(f"{self.path}:{number} sets {name}, which the gate does not read")
        self.found += _assigned([name], value, f"{self.path}:{number}", self.folder,
                                exported=exported)
        self.code.append((number, value))

    def _rule(self, bare: str, number: int) -> None:
        """Reads the rule line ``bare``: its targets, prerequisites, a recipe after ``;``, or
        a target's own variable (``t: export X = v``)."""
        target, _, rest = bare.partition(":")
        self.in_rule = True
        prerequisites, _, recipe = rest.lstrip(":&").partition(";")
        own = _ASSIGNMENT.fullmatch(re.sub(r"^\s*(?:override|export|private)\s+", "",
                                           prerequisites.strip()))
        if own:
            self.found += _assigned([own.group(1)], own.group(2), f"{self.path}:{number}",
                                    self.folder, exported=True)
            self.code.append((number, own.group(2)))
            self.rules.append((target.split(), [], [], number))
            return
        self.rules.append((target.split(), prerequisites.replace("|", " ").split(),
                           [recipe] if recipe else [], number))
        self.code.append((number, recipe))


def _assigned(names: list[str], value: str, where: str, folder: str, *, exported: bool,
              names_only: bool = False) -> list[str]:
    """The paths a start variable of ``names`` given ``value`` makes a program read, from
    ``folder``: each word of a ``WHOLE`` one, ``MAKEFLAGS``' files, an exported one's paths
    (as the session's: ``envpaths.named_paths``); Unread for a ``$`` there."""
    found: list[str] = []
    for name in names:
        starts = name in WHOLE or name in _MAKES_OWN
        if names_only or not (starts or exported or name in _FLAGS):
            continue
        if "$" in value and (starts or name in _FLAGS or named_paths(value.replace("$", ""))):
            raise Unread(f"{where} gives {name} a value the gate cannot compute ({value!r}), "
                         "naming what the recipes' programs read")
        if name in _FLAGS:
            if not all(_PLAIN_FLAGS.fullmatch(w) for w in value.split()):
                raise Unread(f"{where} gives {name} options naming what make reads "
                             f"({value!r}), which the gate does not read")
            continue
        words = value.replace(":", " ").split() if name in WHOLE else named_paths(value)
        found += [os.path.join(folder, w) for w in words if w not in (".", "..")]
    return found


def _remade(read: set[str], rules: list[tuple[list[str], list[str], list[str], int]],
            path: str, bases: tuple[str, str]) -> list[str]:
    """The files make may remake a read makefile (``read``) of ``path`` from: an explicit
    rule's prerequisites and recipe's words, the built-in rules' sources; Unread for a
    pattern rule or ``.DEFAULT`` that may remake one, or a computed name there."""
    found = [os.path.join(b, os.path.dirname(n), s.replace("%", os.path.basename(n), 1))
             for n in read for t, sources in BUILT_IN for s in sources
             if _matches(t, os.path.basename(n)) for b in dict.fromkeys(bases)]
    for targets, prerequisites, recipe, number in rules:
        where = f"{path}:{number}"
        patterned = [t for t in targets if "%" in t or t == ".DEFAULT"]
        if any(_matches(t, n) or t == ".DEFAULT" for t in patterned for n in read):
            raise Unread(f"{where}: a pattern rule may remake a makefile make reads, from "
                         "files the gate cannot name")
        if "$" in " ".join(targets) and recipe:
            raise Unread(f"{where}: a rule of computed targets may remake a makefile")
        if read.isdisjoint(os.path.normpath(t) for t in targets):
            continue
        words = [*prerequisites, *(w for r in recipe for w in re.split(r"[\s;&|<>()'\"`]+", r))]
        for word in (w.lstrip("@+-") for w in words if w and w[:1] != "-"):
            if "$" in re.sub(r"\$[@<^+?*]|\$\([@<^*][DF]\)", "", word):
                raise Unread(f"{where} remakes a makefile make reads from files the gate "
                             f"cannot name ({word!r})")
            found += [os.path.join(b, word) for b in dict.fromkeys(bases) if word]
    return found


def _matches(pattern: str, name: str) -> bool:
    """Whether make's ``pattern`` (one ``%``) matches the file's ``name``."""
    head, percent, tail = pattern.partition("%")
    if not percent:
        return pattern == name
    return len(name) >= len(head) + len(tail) and name.startswith(head) and name.endswith(tail)
