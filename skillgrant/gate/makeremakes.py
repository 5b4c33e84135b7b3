"""The files make may remake a makefile it read from (issue 29; session 54, ``makereads``;
split from it in session 55): GNU make's "How Makefiles Are Remade" — an explicit rule's
prerequisites and recipe's words, the built-in rules' sources (``maketables.BUILT_IN``), each
in turn; what the gate cannot name there (a pattern, suffix or ``.DEFAULT`` rule that may
remake one, a computed target or word) raises ``Unread`` (a doubt of the reading)."""

from __future__ import annotations

import os
import re

from .makerecipes import Unread
from .maketables import BUILT_IN, COPIERS, SPECIAL, SUFFIXES

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

#: How many names one reading follows at most.
_MAX_READ: Final = 256
_SUFFIX_RULE: Final = re.compile(r"(\.[^./%\s]+)(\.[^./%\s]+)?")


def remade(read: set[str], rules: list[tuple[list[str], list[str], list[str], str]],
            folder: str, attempt: Callable[..., list[str]]) -> list[str]:
    """The files make in ``folder`` may remake a makefile it read (``read``) from, and each
    of those in turn: an explicit rule's prerequisites and recipe's words, the built-in
    rules' sources; Unread for a pattern, suffix or ``.DEFAULT`` rule that may remake one,
    or a computed name there."""
    found: list[str] = []
    added = {p for t, ps, _, _ in rules if t == [".SUFFIXES"] for p in ps}
    known = (SUFFIXES | added if not any("$" in p for p in added) else _ANY_SUFFIX,
             frozenset(os.path.normpath(p) for t, ps, _, _ in rules if t == [".PHONY"]
                       for p in ps if "$" not in p))  # (.SUFFIXES: their union, a superset)
    wanted = dict.fromkeys(sorted(read), False)  # (a name, made by a match-anything rule)
    at = 0
    while at < len(wanted):  # (in order, each once; it grows as it goes)
        name, through = list(wanted.items())[at]
        at += 1
        if len(wanted) > _MAX_READ:
            break
        head, base = os.path.split(name)
        for target, sources, text in BUILT_IN if name not in known[1] else ():  # (phony:
            if not _matches(target, base) or (through and target == "%"):  # no implicit rule)
                continue  # (make chains a match-anything rule once: "Chains of Implicit Rules")
            made = [os.path.join(head, s.replace("%", base, 1)) for s in sources]
            found += made
            for m in made if text else ():
                wanted.setdefault(m, target == "%")
        for targets, prerequisites, recipe, where in rules:
            remade = attempt(_sources, " ".join([name, *targets, *prerequisites, *recipe]),
                             name, targets, prerequisites, recipe, where, known)
            found += remade
            for m in remade:
                wanted.setdefault(os.path.normpath(m), False)
    return [os.path.join(folder, f) for f in found]


def _sources(name: str, targets: list[str], prerequisites: list[str], recipe: list[str],
             where: str, known: tuple[frozenset[str], frozenset[str]] = (SUFFIXES,
                                                                         frozenset())
             ) -> list[str]:
    """The files the rule at ``where`` remakes the makefile ``name`` from (none when it does
    not make it); Unread where the gate cannot name them. ``known``: the suffixes
    (``.SUFFIXES``) and the phony targets, for which make searches no implicit rule."""
    suffixes, phony = known
    base = os.path.basename(name)
    # A pattern, suffix or .DEFAULT rule without a recipe makes nothing: it cancels a rule
    # (GNU make 4.3: `%.mk : %.in` alone, cmake's generated `% : %,v`) or means nothing
    # (a suffix rule's); checked with make, session 55.
    if recipe and name not in phony and any(
            t == ".DEFAULT" or ("%" in t and (_matches(t, name) or _matches(t, base))) or
            _suffix_rule(t, suffixes) for t in targets):
        raise Unread(f"{where}: a pattern, suffix or .DEFAULT rule may remake a makefile "
                     f"make reads ({name!r}), from files the gate cannot name")
    if recipe and any(_may_be(t, name) for t in targets if "$" in t):
        raise Unread(f"{where}: a rule of computed targets may remake a makefile make reads "
                     f"({name!r})")
    if name not in {os.path.normpath(t) for t in targets}:
        return []
    segments = [s for r in recipe for s in re.split(r"[;&|()\n]+", r) if s.strip()]
    other = next((p for p in map(_program, segments) if p not in COPIERS), None)
    if other is not None:
        raise Unread(f"{where} remakes a makefile make reads ({name!r}) by a program that may "
                     f"read files its words do not name ({other!r})")
    words = [*prerequisites, *(w for segment in segments for w in _operands(segment))]
    found: list[str] = []
    for word in (w.lstrip("@+-") for w in words if w and (w[:1] != "-" or "=" in w)):
        for part in dict.fromkeys((word, word.partition("=")[2])):
            if "$" in re.sub(r"\$[@<^+?*]|\$\([@<^*][DF]\)|\$[({]MAKE[)}]", "", part) or any(
                    c in part for c in "*?[%"):
                raise Unread(f"{where} remakes a makefile make reads from files the gate "
                             f"cannot name ({word!r})")
            found += [part] if part and "$" not in part else []
    return found


def _suffix_rule(target: str, suffixes: frozenset[str]) -> bool:
    """Whether ``target`` is a suffix rule's (``.c.o``, ``.el``) of the known ``suffixes``
    (``_ANY_SUFFIX``: a ``.SUFFIXES`` the gate cannot compute, every one)."""
    match = _SUFFIX_RULE.fullmatch(target)
    return match is not None and target not in SPECIAL and (suffixes is _ANY_SUFFIX or all(
        part in suffixes for part in match.groups() if part))


#: The suffixes where a ``.SUFFIXES`` line names them by a variable: any.
_ANY_SUFFIX: Final = frozenset(("*",))


def _may_be(target: str, name: str) -> bool:
    """Whether the computed ``target`` may expand to ``name``: its literal end (after its last
    reference, past a ``%``) ends ``name`` (``$(OBJDIR)/%.o`` is no ``config.mk``)."""
    tail = re.split(r"\$(?:\([^()]*\)|\{[^{}]*\}|.)", target)[-1].rpartition("%")[2]
    return name.endswith(tail)


def _matches(pattern: str, name: str) -> bool:
    """Whether make's ``pattern`` (one ``%``) matches the file's ``name``."""
    head, percent, tail = pattern.partition("%")
    if not percent:
        return pattern == name
    return len(name) >= len(head) + len(tail) and name.startswith(head) and name.endswith(tail)


def _program(segment: str) -> str:
    """The name of the program a remaking recipe's simple command ``segment`` runs (past its
    assignments and make's ``@+-``), as written (a path's last part only when it is the
    system's: ``/bin/cp``)."""
    words = [w for w in re.split(r"[\s<>'\"`]+", segment) if w]
    at = 0
    while at < len(words) and _ASSIGNMENT.match(words[at]):
        at += 1
    program = words[at].lstrip("@+-") if at < len(words) else ":"
    return os.path.basename(program) if program.startswith(("/bin/", "/usr/bin/")) else program


def _operands(segment: str) -> list[str]:
    """The words of a remaking recipe's simple command ``segment`` that may name a file it
    reads: all but its program's literal name, found on ``PATH`` (``cp``; review s54-greview
    K5: guarded as a file of make's folder, every ``cp`` call was denied); a name with a
    ``/`` or a ``$`` is read as a file."""
    words = [w for w in re.split(r"[\s<>'\"`]+", segment) if w]
    at = 0
    while at < len(words) and _ASSIGNMENT.match(words[at]):
        at += 1  # (`LC_ALL=C sort …`: the values read as words)
    program = words[at].lstrip("@+-") if at < len(words) else ""
    return words[:at] + words[at + 1:] if program and "/" not in program and \
        "$" not in program else words


_ASSIGNMENT: Final = re.compile(r"[A-Za-z_]\w*=")
