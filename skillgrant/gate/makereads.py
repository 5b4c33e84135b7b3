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
(a ``$`` in such a name, a pattern, ``$(eval …)``, a pattern, suffix or ``.DEFAULT`` rule that
may remake a read makefile, ``vpath``, ``-I``, ``--eval``, ``.RECIPEPREFIX``), the reading
keeps a doubt (``_Reading.doubts``) and goes on: no plan refused (the lead's call on the cost,
docs/decisions.md; a computed include of the plan's own makefile too since session 56:
``-include $(wildcard *.d)``, review s55-greview K5). Each doubt write-guards the folders it may
read from (session 55: ``makebounds.bound``; ``writeguard``): make's folder, or every one."""

from __future__ import annotations

import os
import re

from .envpaths import named_paths
from .makebounds import bound, literal
from .makerecipes import Unread, build_text, exact, make_words, sub_makes
from .makeremakes import remade
from .startvars import WHOLE

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

#: How many makefiles one plan's reading reads at most (their bytes: ``build_text``).
_MAX_READ: Final = 256
#: GNU make 4.3's default include folders (``make -p -f /dev/null``: ``.INCLUDE_DIRS``), where
#: an included name not found in make's folder is looked for.
_INCLUDE_DIRS: Final = ("/usr/local/include", "/usr/gnu/include", "/usr/include")
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
_CONDITIONALS: Final = frozenset(("ifeq", "ifneq", "ifdef", "ifndef", "else", "endif"))
_INCLUDES: Final = frozenset(("include", "-include", "sinclude"))
#: A recipe's move to another folder, where a relative path is read from there.
_MOVES: Final = re.compile(r"\b(?:cd|pushd)\s|\s-C\s?\S|--directory")


def makefile_reads(path: str, folder: str,
                   held: list[tuple[str, str]] | None = None) -> list[str]:
    """The files make, reading the makefile ``path`` in ``folder`` (its named folder: the
    call's, the project's, ``-C``'s), reads or may run as its instructions (see the module's
    text), and those of each sub-make it starts. Each doubt (what the gate cannot compute) is
    added to ``held``: the folder it may read below (``makebounds.bound``) and why, naming the
    makefile and its line."""
    found: list[str] = []
    queue, seen = [(path, folder)], set[tuple[str, str]]()
    while queue and len(seen) < _MAX_READ:
        path, folder = queue.pop()
        if (path, folder) in seen:
            continue
        reading = _Reading(folder)
        seen.add((path, folder))
        reading.file(path)
        found += reading.finish()
        queue += reading.subs
        if held is not None:
            held += [(bound(text, reading.folder, reading.definitions, reading.trusted()),
                      doubt) for doubt, text in reading.doubts]
    return list(dict.fromkeys(found))


def _lines(text: str) -> list[tuple[int, str]]:
    """Each logical line of ``text`` (a ``\\``-newline joined, ``\\``-CR-LF too, as make
    joins them) with its first line's number."""
    joined: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for number, line in enumerate(text.split("\n"), 1):
        line = line.removesuffix("\r") if line.rstrip("\r").endswith("\\") else line
        if pending is not None:
            number, line = pending[0], pending[1] + " " + line.lstrip()
        trailing = len(line) - len(line.rstrip("\\"))
        pending = (number, line[:-1]) if trailing % 2 else None
        if pending is None:
            joined.append((number, line))
    return joined + ([pending] if pending else [])


#: ``.EXPORT_ALL_VARIABLES``, or ``export`` alone: every variable reaches the recipes.
_EXPORT_ALL: Final = re.compile(r"(?m)^(?:\.EXPORT_ALL_VARIABLES[ \t]*:|export[ \t]*(?:#.*)?$)")


class _Reading:
    """One make's reading of its makefile and what it includes, in order, line by line (make's
    grammar: a recipe line is a tab's line in a rule's context; a ``define``'s lines are text;
    every other line a directive, a variable's assignment or a rule); then the files its
    rules remake them from and the sub-makes its lines start (``finish``)."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.doubts: list[tuple[str, str]] = []  # (what it cannot compute, of which text)
        self.found: list[str] = []
        self.subs: list[tuple[str, str]] = []
        self.files: set[str] = set()
        self.read: set[str] = set()  # (names of the makefiles read: rules' targets)
        self.rules: list[tuple[list[str], list[str], list[str], str]] = []
        self.definitions: dict[str, list[str]] = {}
        self.assigned: set[str] = set()  # (by the makefiles themselves: `makebounds`)
        self.defining, self.computed = "", False  # (an `$(eval`, a `$(X) :=`: any variable)
        self.relative: list[tuple[str, str]] = []  # (start variables' relative values)
        self.moved: list[tuple[str, str]] = []  # (exported ones': where a recipe moves)
        self.exported: set[str] = set()
        self.code: list[tuple[str, str]] = []  # (every text that may run: for sub-makes)
        self.in_rule, self.in_define, self.exporting = False, 0, False

    def file(self, path: str) -> None:
        """Reads the makefile ``path`` (an included one where its ``include`` is)."""
        if path in self.files or len(self.files) > _MAX_READ:
            return
        self.files.add(path)
        self.read |= {os.path.basename(path), os.path.normpath(os.path.relpath(path,
                                                                               self.folder))}
        text = build_text(path)
        self.exporting = self.exporting or _EXPORT_ALL.search(text) is not None
        self.in_rule, self.in_define = False, 0
        for number, line in _lines(text):
            self.line(f"{path}:{number}", line)

    def line(self, where: str, line: str) -> None:
        """Reads the logical line ``line`` (at ``where``): what it cannot compute is a doubt,
        left open (``attempt``)."""
        self.attempt(self._line, line, where, line)

    def attempt(self, read: Callable[..., list[str] | None], text: str,
                *args: object) -> list[str]:
        """``read(*args)``, or nothing where it raises Unread: a doubt kept of the makefile
        ``text`` (the reading goes on)."""
        try:
            return read(*args) or []
        except Unread as e:
            self.doubts.append((str(e), text))
            return []

    def _line(self, where: str, line: str) -> None:
        """``line``, read."""
        if "$(eval" in line or "${eval" in line:
            self.computed = True
            raise Unread(f"{where} evaluates text as makefile lines ($(eval …)), which the "
                         "gate cannot read exactly")
        if self.in_define:  # (a canned recipe's lines may start make)
            words = line.split() if line[:1] != "\t" else []  # (make counts an untabbed one)
            self.in_define += (words[:1] == ["define"]) - (words[:1] == ["endef"])
            self.code.append((where, line))
            self.definitions[self.defining][-1] += "\n" + line
            return
        if line.startswith("\t") and self.in_rule:
            self.code.append((where, line))
            self.rules[-1][2].append(line)
            return
        bare = re.sub(r"(?<!\\)#.*", "", line).strip().replace("\\#", "#")
        words = bare.split()
        exported = self.exporting
        while words[:1] in (["override"], ["export"], ["private"], ["unexport"]) and words[1:]:
            exported = exported or words[0] == "export"
            words, bare = words[1:], bare.split(None, 1)[1]
        if not words or words[0] in _CONDITIONALS:
            return
        self.in_rule = False
        assigned = _ASSIGNMENT.fullmatch(bare)
        if not assigned and self._directive(words, where, exported):
            return
        if assigned:
            if bare[assigned.end(1):assigned.start(2)].strip() in ("=", ":=", "::=", ":::="):
                self.assigned.add(assigned.group(1))  # (not `?=`, `+=`, `!=`: the
                # environment's value or a command's output may be taken)
            self._assignment(assigned.group(1), assigned.group(2), where, exported)
        elif ":" in bare:
            self._rule(bare, where)
        else:  # (`export X Y`: each exported; a function's line: `$(shell …)`)
            self.exported |= set(words) if exported else set()
            self.code.append((where, bare))

    def _directive(self, words: list[str], where: str, exported: bool) -> bool:
        """Whether ``words`` are a directive's, read: ``include``'s, ``load``'s names."""
        if words[0] == "define":
            self.in_define, self.defining = 1, words[1] if words[1:] else ""
            self.definitions.setdefault(self.defining, []).append("")
            self.assigned.add(self.defining)
            self.found += _assigned(words[1:2], "$", where, self.folder, exported=exported)
        elif words[0] in _INCLUDES:  # (each name apart: a computed one is a doubt, K5)
            line = " ".join(words)
            for name in (os.path.expanduser(n) for w in words[1:]
                         for n in self.attempt(_exact, line, w, where)):
                self.read.add(os.path.normpath(name))
                self.found += [os.path.join(d, name) for d in _INCLUDE_DIRS if name[:1] != "/"]
                for base in dict.fromkeys((self.folder, os.path.dirname(where.rsplit(":", 1)[0]))):
                    self.found.append(os.path.join(base, name))
                    self.file(os.path.join(base, name))
        elif words[0] in ("load", "-load"):
            for name in (exact(w.split("(", 1)[0], where) for w in words[1:]):
                self.read.add(os.path.normpath(name))
                self.found.append(os.path.join(self.folder, name))
        elif words[0] == "vpath" and len(words) > 2:
            raise Unread(f"{where}: vpath makes make look for files elsewhere")
        return words[0] in ("define", "vpath", "undefine", "load", "-load", *_INCLUDES)

    def _assignment(self, name: str, value: str, where: str, exported: bool) -> None:
        """Reads the assignment of ``value`` to the variable ``name``."""
        self.definitions.setdefault(name, []).append(value)
        self.computed = self.computed or "$" in name  # (which variable it sets: B5, L1)
        if name in (".RECIPEPREFIX", "VPATH"):
            raise Unread(f"{where} sets {name}, which the gate does not read")
        self.code.append((where, value))
        self.found += self._starts([name], value, where, exported)

    def _rule(self, bare: str, where: str) -> None:
        """Reads the rule line ``bare``: its targets, prerequisites, a recipe after ``;``, or
        a target's own variable (``t: export X = v``)."""
        target, _, rest = bare.partition(":")
        self.in_rule = True
        prerequisites, _, recipe = rest.lstrip(":&").partition(";")
        own = _ASSIGNMENT.fullmatch(re.sub(r"^\s*(?:override|export|private)\s+", "",
                                           prerequisites.strip()))
        if own:
            self.found += self._starts([own.group(1)], own.group(2), where, True)
            self.code.append((where, own.group(2)))
            self.rules.append((target.split(), [], [], where))
            return
        static = ":" in prerequisites  # (a static pattern rule: `t: %.conf: %.in`)
        self.rules.append((target.split(), prerequisites.replace("|", " ").split() + (
            ["%"] if static else []), [recipe] if recipe else [], where))
        self.code.append((where, recipe))

    def finish(self) -> list[str]:
        """What the reading names: its files, what remakes a makefile it read, what a start
        variable exported later names, and each sub-make's makefiles (to be read: ``subs``)."""
        for name in self.exported & self.definitions.keys():
            for value in self.definitions[name]:
                self.found += self.attempt(self._starts, value, [name], value,
                                           f"the export of {name}", True)
        self.found += remade(self.read, literal(self.rules, self.definitions, self.trusted()),
                              self.folder, self.attempt)
        spelled = make_words(self.definitions)
        if any(t == [".ONESHELL"] for t, _, _, _ in self.rules):  # (one shell a recipe)
            self.code += [(where, "\n".join(r)) for _, _, r, where in self.rules if r]
        for where, code in self.code:
            self.attempt(self._started, code, where, code, spelled)
        recipes = "\n".join(code for _, code in self.code)
        self.relative += self.moved if _MOVES.search(recipes) else []
        self.doubts += [(f"{where} gives a start variable a relative value ({value!r}), read "
                         "from the folder each program of a recipe runs in", value + "\n" +
                         recipes) for where, value in dict.fromkeys(self.relative)]
        return self.found

    def trusted(self) -> set[str]:
        """The variables whose values are the makefiles' assignments, as read: none where an
        ``$(eval`` or an assignment to a computed name may set any (review s55-greview B5)."""
        return set() if self.computed else self.assigned

    def _starts(self, names: list[str], value: str, where: str, exported: bool) -> list[str]:
        """``_assigned``'s paths of a start variable (joined to make's folder), the assignment
        of a ``WHOLE`` one (or make's ``SHELL``) kept where one is relative (``relative``: a
        doubt of each recipe's folder; ``.`` too, every folder a program runs in)."""
        found = _assigned(names, value, where, self.folder, exported)
        if any(w[:1] not in ("/", "~") for name in names if name in WHOLE or name in
               _MAKES_OWN for w in value.replace(":", " ").split()):
            self.relative.append((where, value))
        elif exported and found and any(w[:1] not in ("/", "~") for w in named_paths(value)):
            self.moved.append((where, value))  # (a doubt where a recipe moves: `finish`)
        return found

    def _started(self, where: str, code: str, spelled: re.Pattern[str]) -> None:
        """The sub-makes (and checkers) the text ``code`` starts, to be read (``subs``)."""
        started, plugins = sub_makes(code, where, self.folder, spelled)
        self.found += [p for p, _ in plugins]
        for sub_folder, makefiles, assignments in started:
            if any(n in _FLAGS and not all(_PLAIN_FLAGS.fullmatch(w) for w in v.split())
                   for n, _, v in (a.partition("=") for a in assignments)):
                raise Unread(f"{where} gives a sub-make options naming what it reads, which "
                             "the gate does not read")
            extra = [p for name, _, value in (a.partition("=") for a in assignments)
                     for p in ([os.path.join(sub_folder, exact(v, where))
                                for v in value.split()]
                               if name in ("MAKEFILES", "MAKEFLAGS", "GNUMAKEFLAGS") else
                               _assigned([name], value, where, sub_folder, True))]
            self.found += makefiles + extra
            self.subs += [(m, sub_folder) for m in makefiles + extra]
            if any(a.partition("=")[0] in WHOLE | _FLAGS for a in assignments):
                self.doubts.append((f"{where} gives a sub-make a start variable, which every "
                                    "make it starts inherits (read for it only)", code))


def _exact(name: str, where: str) -> list[str]:
    """``[exact(name, where)]``: an include's one name (``_Reading.attempt``'s reading)."""
    return [exact(name, where)]


def _assigned(names: list[str], value: str, where: str, folder: str,
              exported: bool) -> list[str]:
    """The paths a start variable of ``names`` given ``value`` makes a program read, from
    ``folder``: each word of a ``WHOLE`` one, ``MAKEFLAGS``' files, an exported one's paths
    (as the session's: ``envpaths.named_paths``); Unread for a ``$`` there."""
    found: list[str] = []
    for name in names:
        starts = name in WHOLE or name in _MAKES_OWN
        if not (starts or exported or name in _FLAGS):
            continue
        if "$" in value:
            raise Unread(f"{where} gives {name} a value the gate cannot compute ({value!r}), "
                         "naming what the recipes' programs read")
        if name in _FLAGS:
            if not all(_PLAIN_FLAGS.fullmatch(w) for w in value.split()):
                raise Unread(f"{where} gives {name} options naming what make reads "
                             f"({value!r}), which the gate does not read")
            continue
        words = value.replace(":", " ").split() if name in WHOLE else named_paths(value)
        found += [os.path.join(folder, os.path.expanduser(w)) for w in words
                  if w not in (".", "..")]  # (a relative one from make's folder only: a
        # recipe's `cd sub && bash` reads sub/env.sh, and `.` is every folder: left open)
    return found
