"""make's expansion of a makefile's text (issue 29; session 57, ``makebounds``' allow-list),
kept to what the gate proves (the lead's call, 21:50: a new model of make is attacked
forever): a reference to a variable the makefiles assign once themselves (``assigned``: by
``=``, ``:=``, ``define``; not ``?=``, ``+=``, ``!=``, a target's own, a command line's,
``override``, ``undefine``), make's own ``MAKE`` and ``CURDIR`` where the makefiles never
assign them, an automatic variable as a name's piece (``PLACE``), and the functions whose
text is words of their argument's (``_FUNCTIONS``: ``strip``, ``filter``…; ``wildcard`` as
its pattern). Any other (``subst``, ``if``, ``foreach``, ``call``, ``origin``, ``MAKELEVEL``,
a substitution reference, the environment's value) is ``Inexact``: a doubt of every folder."""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: A piece of a word the gate knows only as a name make gives (an automatic variable's, a
#: glob's match): no folder but by the text around it.
PLACE: Final = "\x02"
#: A glob's piece of an include's ``$(wildcard …)`` (``include_words``).
GLOB: Final = "\x03"
#: ``$(CURDIR)``: make's folder, as a word's first part only (``$(CURDIR).bak`` is outside).
CURDIR: Final = "\x01"
#: How many texts one doubt's expansion may stand for (each value of each variable).
MAX_TEXTS: Final = 64
_MAX_DEPTH: Final = 24
#: make's own variables and their values as the bound reads them.
_OWN: Final = {"MAKE": "make", "CURDIR": CURDIR}
class Inexact(ValueError):
    """The text is not one the gate expands exactly."""


def expanded(text: str, definitions: dict[str, list[str]], assigned: frozenset[str] | set[str],
             globs: bool = False) -> list[str] | None:
    """Each text the makefile text ``text`` stands for as make expands it (``Expander``), by
    the variables' ``definitions`` (of them ``assigned``: those the makefiles assign
    themselves); None where it is not read exactly, or its reading fails (``$(subst {,x,y)``:
    a doubt, never a failed hook)."""
    try:
        return Expander(definitions, frozenset(assigned), globs=globs).expand(text, {}, 0)
    except (Inexact, RecursionError, LookupError, ValueError):
        return None


def include_words(text: str, definitions: dict[str, list[str]],
                  assigned: frozenset[str] | set[str]) -> list[str] | None:
    """The words of an ``include``'s operands ``text`` as make expands them (each value of
    each variable; a ``$(wildcard …)``'s as its patterns), where read exactly; else None."""
    texts = expanded(text, definitions, assigned, globs=True)
    if texts is None:
        return None
    words = [w.replace(GLOB, "*") for t in texts for w in t.split()]
    if any(c in w for w in words for c in (PLACE, CURDIR, "$")):
        return None
    return list(dict.fromkeys(words))


#: make's functions the expander computes: those whose text is words of their argument's
#: (by their arguments' count: 0, one, commas its text).
_FUNCTIONS: Final = {"strip": 0, "sort": 0, "firstword": 0, "lastword": 0, "wildcard": 0,
                     "filter": 2, "filter-out": 2}


class Expander:
    """make's expansion of a text into each text it may stand for."""

    def __init__(self, definitions: dict[str, list[str]], assigned: frozenset[str],
                 globs: bool = False) -> None:
        self.definitions, self.assigned, self.globs = definitions, assigned, globs

    def expand(self, text: str, bound: dict[str, str], depth: int) -> list[str]:
        """Each text ``text`` stands for (``bound``: no names bound since session 57's trim)."""
        if depth > _MAX_DEPTH:
            raise Inexact(text)
        texts, at = [""], 0
        while at < len(text):
            dollar = text.find("$", at)
            if dollar < 0:
                return [t + text[at:] for t in texts]
            pieces = [text[at:dollar]]
            opening = text[dollar + 1:dollar + 2]
            if opening in ("(", "{"):
                end = _closing(text, dollar + 1)
                pieces = [pieces[0] + v for v in self.reference(text[dollar + 2:end], depth)]
                at = end + 1
            elif opening == "$":
                pieces, at = [pieces[0] + "$"], dollar + 2
            elif opening:
                pieces = [pieces[0] + v for v in self.variable(opening, depth)]
                at = dollar + 2
            else:
                raise Inexact(text)
            texts = [t + p for t in texts for p in pieces]
            if len(texts) > MAX_TEXTS:
                raise Inexact(text)
        return texts

    def reference(self, inner: str, depth: int) -> list[str]:
        """The texts of a reference ``$(inner)``: a function's of ``_FUNCTIONS`` or a plain
        variable's; Inexact for any other."""
        called = re.match(r"([^\s$(){}:,=]+)[ \t]", inner)
        if called and called.group(1) in _FUNCTIONS:
            return self.function(called.group(1), inner[called.end():].lstrip(" \t"),
                                 depth + 1)
        if not re.fullmatch(r"[A-Za-z0-9_.@<^+?*%|-]+", inner):
            raise Inexact(inner)  # (a function, a substitution reference, a computed name)
        return self.variable(inner, depth)

    def variable(self, name: str, depth: int) -> list[str]:
        """The texts of each value of the variable ``name``, expanded (each it may hold at
        the end of the reading: ``assigned`` only by plain assignments, session 58)."""
        if name in _OWN and name not in self.definitions:  # (the makefile's own value else)
            return [_OWN[name]]
        if len(name) <= 2 and name[:1] in "@<^+?*%|" and name[1:] in ("", "D", "F"):
            return [PLACE]  # (an automatic variable: a name make gives)
        values = self.definitions.get(name, [])
        if name not in self.assigned or not values:
            raise Inexact(name)  # (the environment's, an appended value, a target's own…)
        found = [t for value in values for t in self.expand(value.strip(), {}, depth + 1)]
        if len(found) > MAX_TEXTS:
            raise Inexact(name)
        return list(dict.fromkeys(found))

    def function(self, name: str, text: str, depth: int) -> list[str]:
        """The texts of the function ``name`` of the argument text ``text``."""
        alternatives: list[list[str]] = [[]]
        for argument in _arguments(text, _FUNCTIONS[name]):
            alternatives = [[*a, v] for a in alternatives for v in self.expand(argument, {},
                                                                                 depth)]
            if len(alternatives) > MAX_TEXTS:
                raise Inexact(text)
        found: list[str] = []
        for args in alternatives:
            if any(PLACE in a or CURDIR in a for a in args) and name != "strip":
                raise Inexact(text)  # (a name's piece: its words not known)
            words = [a.split() for a in args]
            if name == "wildcard":  # (an include's: its patterns, as written)
                shapes = _wildcard(args[0])
                found += [" ".join(re.sub(r"[*?]+", GLOB, w) for w in words[0])] if \
                    self.globs else shapes
            elif name in ("filter", "filter-out"):
                found.append(" ".join(w for w in words[1] if any(
                    _matches(p, w) for p in words[0]) == (name == "filter")))
            else:
                found.append(" ".join({"strip": words[0], "sort": sorted(set(words[0])),
                                       "firstword": words[0][:1],
                                       "lastword": words[0][-1:]}[name]))
        return found


def _closing(text: str, opening: int) -> int:
    """Where the reference opened at ``opening`` (``(`` or ``{``) closes (make counts only
    its own kind)."""
    open_, close = text[opening], ")" if text[opening] == "(" else "}"
    depth = 0
    for at in range(opening, len(text)):
        depth += (text[at] == open_) - (text[at] == close)
        if depth == 0:
            return at
    raise Inexact(text)


def _arguments(text: str, count: int) -> list[str]:
    """A function's arguments: ``text`` split at its top commas (at most ``count``; 0: one);
    Inexact where a parenthesis or brace is unbalanced (make counts its own kind only)."""
    if text.count("(") != text.count(")") or text.count("{") != text.count("}"):
        raise Inexact(text)
    if count == 0:
        return [text]
    found: list[str] = []
    depth, start = 0, 0
    for at, char in enumerate(text):
        depth += (char in "({") - (char in ")}")
        if char == "," and depth == 0 and len(found) < count - 1:
            found.append(text[start:at])
            start = at + 1
    return [*found, text[start:]]


def _wildcard(pattern: str) -> list[str]:
    """``$(wildcard …)``'s texts: every word or none found (a glob's match a name's piece);
    a word whose part starts with a dot and globs (`.*` matches `..`) is not read."""
    words = pattern.split()
    if len(words) > 4 or any(c in pattern for c in (PLACE, CURDIR, GLOB)):
        raise Inexact(pattern)
    for word in words:
        if "[" in word or "\\" in word or any(p[:1] == "." and re.search(r"[*?]", p)
                                              for p in word.split("/")):
            raise Inexact(word)
    shapes = [re.sub(r"[*?]+", PLACE, w) for w in words]
    found = [""]
    for shape in shapes:
        found = [f for t in found for f in (t, (t + " " + shape).strip())]
    return found


def _matches(pattern: str, word: str) -> bool:
    """Whether make's ``pattern`` (at most one ``%``) matches ``word``."""
    head, percent, tail = pattern.partition("%")
    if not percent:
        return pattern == word
    return len(word) >= len(head) + len(tail) and word.startswith(head) and word.endswith(tail)
