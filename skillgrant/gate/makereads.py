"""What GNU make reads as its own instructions from a makefile's text (issue 29; session 54,
review s53-greview M1): the files a makefile the plan's make reads (``planprograms``' ``:``
items, guarded) makes make read next, computed with make's grammar (GNU make 4.3's manual,
``make -p``): the ``include`` operands (a computed one as make expands it: ``makelines.
included``), from make's folder, the makefile's and ``.INCLUDE_DIRS``; the files make may
remake each read makefile from ("How Makefiles Are Remade": ``makeremakes``), and what the
remade one holds, read (a copier's sources, ``echo``'s words, a plain ``sed``'s edits; another
program's text: a doubt of every folder, session 57); ``load``'s objects; the paths a start
variable the makefile assigns or exports names (``startvars.WHOLE``; an exported one as the
session's, ``envpaths.named_paths``; ``SHELL``, ``.SHELLFLAGS``); the makefiles a sub-make
reads, wherever a line (a recipe, a variable's value, ``$(shell …)``) starts make after a
literal ``cd`` or ``-C`` (``makerecipes``), each read again; and the session's relative values
from each folder a recipe runs in (``makelines.recipes_paths``). What the gate cannot compute
exactly is a doubt (``_Reading.doubts``), the reading going on: no plan refused (the lead's
call, docs/decisions.md). Each doubt write-guards the folders it may read from
(``makebounds.bound``, an allow-list since session 57; ``writeguard``): make's folder, or
every one."""

from __future__ import annotations

import os
import re

from .envpaths import named_paths
from .makebounds import EVERYWHERE, bound, expansions, literal
from .makelines import (
    ASSIGNMENT,
    CONDITIONALS,
    EXPORT_ALL,
    FLAGS,
    INCLUDE_DIRS,
    INCLUDES,
    MAKES_OWN,
    MOVES,
    PLAIN_FLAGS,
    before,
    command_line,
    doubted,
    environment_first,
    included,
    lines,
    one_name,
    recipes_paths,
    special,
    start_paths,
    unbounded,
    uncommented,
)
from .makerecipes import Unbounded, Unread, build_text, exact, make_words, sub_makes, writes
from .makeremade import Remaking
from .makeremakes import remade
from .makesession import session_doubts
from .makevalues import Values
from .startvars import WHOLE

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

#: How many makefiles one plan's reading reads at most (their bytes: ``build_text``).
_MAX_READ: Final = 256


#: A recipe's own make options for its sub-makes (``MAKEFLAGS=-e $(MAKE)``, ``export
#: MAKEFLAGS=e``: review s58-mreview M2b): any value over the makefiles'.
_FLAGS_SET: Final = re.compile(r"\b(?:GNU)?MAKEFLAGS\s*\+?=|\bMFLAGS\s*\+?=")


def makefile_reads(path: str, folder: str, held: list[tuple[str, str]] | None = None,
                   line: list[str] | None = None) -> list[str]:
    """What make reads as its instructions from the makefile ``path`` in ``folder`` (see the
    module's text), and each sub-make; each doubt added to ``held``: its bound, and why.
    ``line``: the plan's make's words after its name (its command line's values:
    ``command_line``)."""
    found: list[str] = []
    moved: list[str] = []  # (the folders a recipe runs in: `recipes_paths`)
    given, overriding = command_line(line or [])
    if environment_first([os.environ.get(n, "") for n in FLAGS]) or any(
            "=" in os.environ.get(n, "") for n in FLAGS):  # (the session's MAKEFLAGS)
        overriding |= {"*"}
    top, queue = folder, [(path, folder, overriding, False)]
    seen = set[tuple[str, str, frozenset[str]]]()
    while queue and len(seen) < _MAX_READ:
        path, folder, overridden, siblings = queue.pop()
        if (path, folder, overridden) in seen:
            continue
        reading = _Reading(folder, overridden, sub=siblings, given={} if seen else given)
        reading.doubts += [(f"the plan's make is given {n}, which the gate does not read",
                            None) for n in (*given, *overriding) if not seen and special(n)]
        seen.add((path, folder, overridden))
        try:  # (a fault of the reading: a doubt of every folder, not a failed hook)
            reading.file(path)
            found += reading.finish()
        except (LookupError, TypeError, AttributeError, RecursionError, re.error) as e:
            reading.doubts.append((f"the reading of {path} failed ({e!r})", None))
        queue += [(*sub, len(reading.makers) > 1) for sub in reading.subs]
        moved += [reading.folder, *reading.moves]
        if held is not None:
            held += [(EVERYWHERE if unbounded(reading.definitions, reading.specific) or text is
                      None else bound(text, reading.folder, reading.definitions,
                                      reading.trusted(), reading.cdpath()), doubt)
                     for doubt, text in reading.doubts]
    return list(dict.fromkeys(found + recipes_paths(moved, top, held)))




class _Reading(Values, Remaking):
    """One make's reading of its makefile and what it includes, in order, line by line (make's
    grammar: a recipe line is a tab's line in a rule's context; a ``define``'s lines are text;
    every other line a directive, a variable's assignment or a rule); then the files its
    rules remake them from and the sub-makes its lines start (``finish``)."""

    def __init__(self, folder: str, overridden: frozenset[str], sub: bool,
                 given: dict[str, str]) -> None:
        self.folder, self.sub = folder, sub  # (a sub-make's of siblings: its writes, theirs)
        self.makers: list[str] = []  # (the heads of the rules each sub-make starts in)
        self.heads: dict[str, str] = {}  # (a recipe line's rule: its targets, prerequisites)
        self.moves: list[str] = []  # (each folder a recipe's cd moves to; "": not known)
        self.values: set[str] = set()  # (the lines of a variable's value: no commands)
        self.remakers: set[str] = set()  # (the rules remaking a makefile read, read: where)
        self.branches = self.rule_branch = 0  # (conditionals read; at the last rule: -1, none)
        self.doubts: list[tuple[str, str | None]] = []  # (why, its text: None, everywhere)
        self.found: list[str] = []
        self.subs: list[tuple[str, str, frozenset[str]]] = []
        self.files: set[str] = set()
        self.read: set[str] = set()  # (names of the makefiles read: rules' targets)
        self.rules: list[tuple[list[str], list[str], list[str], str]] = []
        Values.__init__(self, overridden, given)
        self.defining = ""
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
        self.text(path, build_text(path))

    def text(self, path: str, text: str) -> None:
        """Reads ``text`` as the makefile ``path``'s lines."""
        self.exporting = self.exporting or EXPORT_ALL.search(text) is not None
        self.in_rule, self.in_define = False, 0
        for number, line in lines(text):
            self.line(f"{path}:{number}", line)

    def line(self, where: str, line: str) -> None:
        """Reads the logical line ``line`` (at ``where``): what it cannot compute is a doubt,
        left open (``attempt``)."""
        if not ((line.startswith("\t") and self.in_rule) or self.in_define):
            line = re.sub(r"[ \t]*\\\n[ \t]*", " ", line)  # (a recipe's goes to the shell)
        else:
            line = line.replace("\\\n\t", "\\\n")  # (its next line's tab removed)
        self.attempt(self._line, line, where, line)

    def attempt(self, read: Callable[..., list[str] | None], text: str | None,
                *args: object) -> list[str]:
        """``read(*args)``, or nothing where it raises Unread: a doubt kept of the makefile
        ``text`` (the reading goes on)."""
        try:
            return read(*args) or []
        except Unread as e:
            self.doubts.append((str(e), None if isinstance(e, Unbounded) else text))
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
            self._recipe(where, line)
            return
        bare = uncommented(line).strip().replace("\\#", "#")
        words = bare.split()
        exported, overriding = self.exporting, False
        while words[:1] in (["override"], ["export"], ["private"], ["unexport"]) and words[1:]:
            exported = exported or words[0] == "export"
            overriding = overriding or words[0] == "override"
            words, bare = words[1:], bare.split(None, 1)[1]
        if not words or words[0] in CONDITIONALS:
            self.branches += bool(words)
            self._conditional(words) if words else None
            return
        self.in_rule = False
        assigned = ASSIGNMENT.fullmatch(bare)
        if not assigned and self._directive(words, where, exported):
            return
        if assigned:
            self._assignment(assigned.group(1), assigned.group(2), where, exported,
                             overriding, bare[assigned.end(1):assigned.start(2)].strip())
            self.values -= {where} if "!=" in bare[:assigned.start(2)] else set()  # (a command)
        elif ":" in bare:
            self._rule(bare, where)
        else:  # (`export X Y`: each exported; a function's line: `$(shell …)`)
            self.exported |= set(words) if exported else set()
            self.code.append((where, bare))

    def _recipe(self, where: str, line: str) -> None:
        """Reads the recipe line ``line``; also as a makefile's line where its rule is in a
        conditional's branch make may not take (review s57-greview G)."""
        self.code.append((where, line))
        self.heads[where] = self.heads.get(self.rules[-1][3], "")
        self.rules[-1][2].append(line)
        if self.branches != self.rule_branch:
            self._line(where, line.lstrip("\t"))
            self.in_rule = True

    def _directive(self, words: list[str], where: str, exported: bool) -> bool:
        """Whether ``words`` are a directive's, read: ``include``'s, ``load``'s names."""
        if words[0] == "define":
            self.in_define, self.defining = 1, words[1] if words[1:] else ""
            self._value(self.defining, words[2:] in ([], ["="], [":="], ["::="], [":::="]))
            self.definitions.setdefault(self.defining, []).append("")
            self.assigned.add(self.defining)
            self.found += start_paths(words[1:2], "$", where, self.folder, exported=exported)
        elif words[0] in INCLUDES:  # (each name apart: a computed one is a doubt, K5)
            line = " ".join(words)
            names = [n for w in words[1:] for n in self.attempt(one_name, line, w, where)] if \
                "$" not in line else self._computed(line, where)
            for name in (os.path.expanduser(n) for n in names):
                self.read.add(os.path.normpath(name))
                self.found += [os.path.join(d, name) for d in INCLUDE_DIRS if name[:1] != "/"]
                for base in dict.fromkeys((self.folder, os.path.dirname(where.rsplit(":", 1)[0]))):
                    self.found.append(os.path.join(base, name))
                    self.file(os.path.join(base, name))
        elif words[0] in ("load", "-load"):
            for name in (exact(w.split("(", 1)[0], where) for w in words[1:]):
                self.read.add(os.path.normpath(name))
                self.found.append(os.path.join(self.folder, name))
        elif words[0] == "vpath" and len(words) > 2:
            raise Unread(f"{where}: vpath makes make look for files elsewhere")
        self._undefined(words, where)
        return words[0] in ("define", "vpath", "undefine", "load", "-load", *INCLUDES)

    def _undefined(self, words: list[str], where: str) -> None:
        """``undefine``'s: an empty value more; ``define .RECIPEPREFIX``, VPATH: Unbounded."""
        for name in words[1:] if words[0] == "undefine" else ():
            self._value(name, False)
            self.definitions.setdefault(name, []).append("")
        if words[0] == "define" and re.match(r"(?:\.RECIPEPREFIX|VPATH)\b", " ".join(words[1:2])):
            raise Unbounded(f"{where} defines {words[1]}, which the gate does not read")

    def _computed(self, line: str, where: str) -> list[str]:
        """The names a computed include ``line`` stands for (``included``; doubts kept)."""
        found, doubted = included(line.split(None, 1)[1], self.folder, self.definitions,
                                  self.trusted())
        for text in doubted:
            self.attempt(one_name, line, text, where)
        return found

    def _assignment(self, name: str, value: str, where: str, exported: bool,
                    overriding: bool, operator: str) -> None:
        """Reads the assignment by ``operator`` of ``value`` to the variable ``name`` (make
        keeps the command line's value of ``name`` but where the makefile's is
        ``override``'s)."""
        plain = operator in ("=", ":=", "::=", ":::=")  # (not ?=, +=, !=: another value)
        self.assigned |= {name} if plain else set()
        if plain and operator != "=" and not self.known_now(value):
            self.mixed.add(name)  # (`:=` expands it now: a later assignment not its)
        if name not in self.given or overriding:
            self._value(name, plain)
            self.definitions.setdefault(name, []).append(value)
        self.computed = self.computed or "$" in name  # (which variable it sets: B5, L1)
        if name in (".RECIPEPREFIX", "VPATH"):
            raise Unread(f"{where} sets {name}, which the gate does not read")
        if name == "MAKEOVERRIDES":  # (each sub-make's command line: review s58-mreview M1)
            raise Unbounded(f"{where} sets {name}, each sub-make's values")
        self.code.append((where, value))
        self.values.add(where)
        self.found += self._starts([name], value, where, exported)

    def _rule(self, bare: str, where: str) -> None:
        """Reads the rule line ``bare``: its targets, prerequisites, a recipe after ``;``, or
        a target's own variable (``t: export X = v``)."""
        target, _, rest = bare.partition(":")
        self.in_rule = True
        prerequisites, _, recipe = rest.lstrip(":&").partition(";")
        own = ASSIGNMENT.fullmatch(re.sub(r"^\s*(?:(?:override|export|private)\s+)+", "",
                                           prerequisites.strip()))
        if own:
            self.specific.add(own.group(1))  # (its value in that rule's recipe: review
            # s56-greview B, `test: DIRS := ..`)
            self.found += self._starts([own.group(1)], own.group(2), where, True)
            self.code.append((where, own.group(2)))
            self.rules.append((target.split(), [], [], where))
            return
        self.heads[where] = f"{target}:{prerequisites}"  # (`$(info a:b)`: maybe no rule)
        self.rule_branch = self.branches if "$" not in target else -1
        static = ":" in prerequisites  # (a static pattern rule: `t: %.conf: %.in`)
        self.rules.append((target.split(), prerequisites.replace("|", " ").split() + (
            ["%"] if static else []), [recipe] if recipe else [], where))
        self.code.append((where, recipe))
        if not self.known_now(target):  # (make expands it here: a later value is not its)
            raise Unbounded(f"{where}: a rule's target refers to a variable not yet assigned")

    def finish(self) -> list[str]:
        """What the reading names: its files, what remakes a makefile it read, what a start
        variable exported later names, and each sub-make's makefiles (to be read: ``subs``)."""
        for name in self.exported & self.definitions.keys():
            for value in self.definitions[name]:
                self.found += self.attempt(self._starts, value, [name], value,
                                           f"the export of {name}", True)
        while self._remade_text():  # (what a remade makefile holds, read)
            pass
        self.found += remade(self.read, literal(self.rules, self.definitions, self.trusted()),
                              self.folder, self.attempt)
        spelled = make_words(self.definitions)
        if any(t == [".ONESHELL"] for t, _, _, _ in self.rules):  # (one shell a recipe)
            self.code += [(where, "\n".join(r)) for _, _, r, where in self.rules if r]
        for where, code in self.code:
            self.attempt(self._started, doubted(code, self.heads.get(where), self.heads), where,
                         code, spelled)
        self.doubts += [(f"{where} writes a file before a sub-make may read it", code)
                        for where, code in self.code if (where not in self.values or "shell" in
                        code) and before(self.heads.get(where), self.makers, self.sub) and
                        writes(code)]
        self.doubts += session_doubts(self.code, self.definitions, self.trusted())
        recipes = "\n".join(code for _, code in self.code)
        self.relative += self.moved if MOVES.search(recipes) else []
        self.doubts += [(f"{where} gives a start variable a relative value ({value!r}), read "
                         "from the folder each program of a recipe runs in", value + "\n" +
                         recipes) for where, value in dict.fromkeys(self.relative)]
        return self.found

    def _starts(self, names: list[str], value: str, where: str, exported: bool) -> list[str]:
        """``assigned``'s paths of a start variable (joined to make's folder), the assignment
        of a ``WHOLE`` one (or make's ``SHELL``) kept where one is relative (``relative``: a
        doubt of each recipe's folder; ``.`` too, every folder a program runs in)."""
        found = start_paths(names, value, where, self.folder, exported)
        if any(w[:1] not in ("/", "~") for name in names if name in WHOLE or name in
               MAKES_OWN for w in value.replace(":", " ").split()):
            self.relative.append((where, value))
        elif exported and found and any(w[:1] not in ("/", "~") for w in named_paths(value)):
            self.moved.append((where, value))  # (a doubt where a recipe moves: `finish`)
        return found

    def _started(self, where: str, code: str, spelled: re.Pattern[str]) -> None:
        """The sub-makes (and checkers) ``code`` starts, to be read (``subs``): its expansions'.
        A line setting make's options (``export MAKEFLAGS=e;``): a doubt of every folder."""
        if _FLAGS_SET.search(code):  # (review s58-mreview M2b)
            self.doubts.append((f"{where} sets make's options for its sub-makes", None))
        try:
            started, plugins = sub_makes(code, where, self.folder, spelled, self.cdpath() or
                                         "CDPATH" in code, where not in self.values, self.moves)
        except Unread:  # (`for d in lib; do $(MAKE) -C $$d; done`: lib/Makefile, s57-greview N)
            for text in set(expansions(code, self.definitions, self.trusted())) - {code}:
                self.attempt(self._started, text, where, text, spelled)
            raise
        self.found += [p for p, _ in plugins]
        self.makers += [self.heads.get(where, "")] * len(started)
        for sub_folder, makefiles, assignments in started:  # ("!I", "!E": -I, --eval given)
            self.doubts += [(f"{where} gives a sub-make -{a[1]}, not read", code if a == "!I"
                             else None) for a in assignments if a in ("!I", "!E")]
            if any(n in FLAGS and not all(PLAIN_FLAGS.fullmatch(w) for w in v.split())
                   for n, _, v in (a.partition("=") for a in assignments)):
                raise Unread(f"{where} gives a sub-make options naming what it reads, which "
                             "the gate does not read")
            extra = [p for name, _, value in (a.partition("=") for a in assignments)
                     for p in ([os.path.join(sub_folder, exact(v, where))
                                for v in value.split()]
                               if name in ("MAKEFILES", "MAKEFLAGS", "GNUMAKEFLAGS") else
                               start_paths([name], value, where, sub_folder, True))]
            self.found += makefiles + extra
            overridden = self.overridden | frozenset(self.given) | {  # (the plan's: not
                a.partition("=")[0] for a in assignments} | (  # read for a sub-make; "*":
                {"*"} if self.environment_first() or _FLAGS_SET.search(code) else set())
            # `-e`, the environment's values first: none the makefile's)
            self.subs += [(m, sub_folder, overridden) for m in makefiles + extra]
            if any(a.partition("=")[0] in WHOLE | FLAGS for a in assignments):
                self.doubts.append((f"{where} gives a sub-make a start variable, which every "
                                    "make it starts inherits (read for it only)", code))


