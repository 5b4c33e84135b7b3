"""make's expansion of a makefile's text (issue 29; session 57, ``makebounds``' allow-list):
each text a reference may stand for, computed as GNU make 4.3 expands it: a variable the
makefiles assign themselves (``assigned``) as each of its values, make's own (``MAKE``,
``CURDIR``), an automatic variable as a name's piece (``PLACE``), the functions of
``_FUNCTIONS`` as make computes them; ``Inexact`` for any other (``shell``, ``file``, ``let``,
the environment's value, a computed name of an unknown piece)."""

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
_OWN: Final = {"MAKE": "make", "MAKE_COMMAND": "make", "CURDIR": CURDIR,
               "MAKECMDGOALS": PLACE, "MAKELEVEL": PLACE, "MAKE_VERSION": PLACE,
               ".DEFAULT_GOAL": PLACE}
class Inexact(ValueError):
    """The text is not one the gate expands exactly."""


def include_words(text: str, definitions: dict[str, list[str]],
                  assigned: frozenset[str] | set[str]) -> list[str] | None:
    """The words of an ``include``'s operands ``text`` as make expands them (each value of
    each variable; a ``$(wildcard …)``'s as its patterns), where read exactly; else None."""
    try:
        texts = Expander(definitions, frozenset(assigned), globs=True).expand(text, {}, 0)
    except (Inexact, RecursionError, LookupError, ValueError):  # (`$(subst {,x,y)`: not read)
        return None
    words = [w.replace(GLOB, "*") for t in texts for w in t.split()]
    if any(c in w for w in words for c in (PLACE, CURDIR, "$")):
        return None
    return list(dict.fromkeys(words))


#: make's functions the expander computes (GNU make 4.3), by the number of their arguments
#: (0: one argument, commas its text).
_FUNCTIONS: Final = {"strip": 0, "sort": 0, "words": 0, "firstword": 0, "lastword": 0,
                     "wildcard": 0, "notdir": 0, "dir": 0, "basename": 0, "suffix": 0,
                     "value": 0, "eval": 0, "info": 0,
                     "warning": 0, "error": 0, "word": 2, "wordlist": 3, "filter": 2,
                     "filter-out": 2, "findstring": 2, "if": 3, "or": 99, "and": 99,
                     "foreach": 3, "call": 99, "addprefix": 2, "addsuffix": 2, "subst": 3,
                     "patsubst": 3, "join": 2}


class Expander:
    """make's expansion of a text into each text it may stand for."""

    def __init__(self, definitions: dict[str, list[str]], assigned: frozenset[str],
                 globs: bool = False) -> None:
        self.definitions, self.assigned, self.globs = definitions, assigned, globs

    def expand(self, text: str, bound: dict[str, str], depth: int) -> list[str]:
        """Each text ``text`` stands for, ``bound`` the values of a ``foreach``'s or a
        ``call``'s names."""
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
                pieces = [pieces[0] + v for v in
                          self.reference(text[dollar + 2:end], bound, depth)]
                at = end + 1
            elif opening == "$":
                pieces, at = [pieces[0] + "$"], dollar + 2
            elif opening:
                pieces = [pieces[0] + v for v in self.variable(opening, bound, depth)]
                at = dollar + 2
            else:
                raise Inexact(text)
            texts = [t + p for t in texts for p in pieces]
            if len(texts) > MAX_TEXTS:
                raise Inexact(text)
        return texts

    def reference(self, inner: str, bound: dict[str, str], depth: int) -> list[str]:
        """The texts of a reference ``$(inner)``: a function's or a variable's."""
        called = re.match(r"([^\s$(){}:,=]+)[ \t]", inner)
        if called and called.group(1) in _FUNCTIONS:
            return self.function(called.group(1), inner[called.end():].lstrip(" \t"), bound,
                                 depth + 1)
        if called or re.match(r"[ \t]", inner):
            raise Inexact(inner)  # (`shell`, `file`, `let`…: a command's, a file's text)
        names = self.expand(inner, bound, depth + 1)
        found: list[str] = []
        for one in names:
            variable, colon, substitution = one.partition(":")
            if PLACE in one or CURDIR in one or "$" in one:
                raise Inexact(inner)
            values = self.variable(variable, bound, depth)
            if colon and any(PLACE in v or CURDIR in v for v in values):
                raise Inexact(inner)  # (`$(CURDIR:project=shared)`, `$(@D:.=..)`)
            if colon:  # (a substitution reference: `$(OBJS:.o=.c)`)
                old, equals, new = substitution.partition("=")
                if not equals:
                    raise Inexact(inner)
                if "%" not in old:
                    old, new = "%" + old, "%" + new
                values = [_patsubst(old, new, v) for v in values]
            found += values
        return found

    def variable(self, name: str, bound: dict[str, str], depth: int) -> list[str]:
        """The texts of the variable ``name``'s values, expanded."""
        if name in bound:
            return [bound[name]]
        if name in _OWN and name not in self.definitions:  # (the makefile's own value else)
            return [_OWN[name]]
        if len(name) <= 2 and name[:1] in "@<^+?*%|" and name[1:] in ("", "D", "F"):
            return [PLACE]  # (an automatic variable: a name make gives)
        if name not in self.assigned or name not in self.definitions:
            raise Inexact(name)  # (the environment's, a computed one's, a target's own…)
        found: list[str] = []
        for value in self.definitions[name]:
            found += self.expand(value.strip(), bound, depth + 1)
        return found

    def function(self, name: str, text: str, bound: dict[str, str], depth: int) -> list[str]:
        """The texts of the function ``name`` of the argument text ``text``."""
        count = _FUNCTIONS[name]
        raw = _arguments(text, count)
        if name == "foreach":
            return self.foreach(raw, bound, depth)
        if name in ("if", "or", "and"):
            return self.conditional(name, raw, bound, depth)
        if name == "call":
            return self.call(raw, bound, depth)
        if name == "value":
            variable = raw[0].strip()
            if variable not in self.assigned or variable not in self.definitions:
                raise Inexact(text)
            return [v.strip() for v in self.definitions[variable]]
        alternatives: list[list[str]] = [[]]
        for argument in raw:
            alternatives = [[*a, v] for a in alternatives for v in
                            self.expand(argument, bound, depth)]
            if len(alternatives) > MAX_TEXTS:
                raise Inexact(text)
        if name == "wildcard" and self.globs:  # (an include's: its patterns, as written)
            for args in alternatives:
                _wildcard(args[0])  # (a pattern not read: `.*`, `[`)
            return [" ".join(re.sub(r"[*?]+", GLOB, w) for w in a[0].split())
                    for a in alternatives]
        return [v for args in alternatives for v in _computed(name, args)]

    def foreach(self, raw: list[str], bound: dict[str, str], depth: int) -> list[str]:
        """``$(foreach v,list,text)``: each word's text, joined."""
        if len(raw) != 3:
            raise Inexact(",".join(raw))
        found: list[str] = []
        for variable in self.expand(raw[0], bound, depth):
            for words in self.expand(raw[1], bound, depth):
                if PLACE in words or CURDIR in words or len(words.split()) > MAX_TEXTS:
                    raise Inexact(words)
                texts = [""]
                for word in words.split():
                    values = self.expand(raw[2], {**bound, variable.strip(): word}, depth)
                    texts = [(t + " " + v if t else v) for t in texts for v in values]
                    if len(texts) > MAX_TEXTS:
                        raise Inexact(words)
                found += texts
        return found

    def conditional(self, name: str, raw: list[str], bound: dict[str, str],
                    depth: int) -> list[str]:
        """``$(if c,then,else)``, ``$(or …)``, ``$(and …)``: each branch a condition may take
        (a name's piece counts as not empty)."""
        if name == "if":
            found: list[str] = []
            for condition in self.expand(raw[0].strip(), bound, depth):
                branch = raw[1] if condition else (raw[2] if raw[2:] else "")  # (make: any
                # text, blanks too, is true: `$(if $(E) $(E),…)`)
                found += self.expand(branch, bound, depth)
            return found
        return self.either(name, raw, 0, bound, depth)

    def either(self, name: str, raw: list[str], at: int, bound: dict[str, str],
               depth: int) -> list[str]:
        """``$(or …)``'s first not empty argument, ``$(and …)``'s last or first empty one,
        from the argument ``at`` on."""
        if at == len(raw):
            return [""]
        found: list[str] = []
        for value in self.expand(raw[at].strip(), bound, depth):
            last = at == len(raw) - 1
            if name == "or":
                found += [value] if value or last else self.either(
                    name, raw, at + 1, bound, depth)
            else:
                found += [""] if not value else [value] if last else self.either(
                    name, raw, at + 1, bound, depth)
            if len(found) > MAX_TEXTS:
                raise Inexact(raw[at])
        return found

    def call(self, raw: list[str], bound: dict[str, str], depth: int) -> list[str]:
        """``$(call name,a,b)``: the variable's values with ``$(1)``, ``$(2)`` bound."""
        found: list[str] = []
        alternatives: list[list[str]] = [[]]
        for argument in raw:
            alternatives = [[*a, v] for a in alternatives for v in
                            self.expand(argument, bound, depth)]
            if len(alternatives) > MAX_TEXTS:
                raise Inexact(raw[0])
        for args in alternatives:
            variable = args[0].strip()
            if variable not in self.assigned or variable not in self.definitions:
                raise Inexact(variable)
            names = {str(i): a for i, a in enumerate(args[1:], 1)} | {"0": variable}
            for value in self.definitions[variable]:
                found += self.expand(value.strip(), {**bound, **names}, depth + 1)
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
    """A function's arguments: ``text`` split at its top commas (at most ``count``; 0: one)."""
    if count == 0:
        return [text]
    found: list[str] = []
    depth, start = 0, 0
    if text.count("(") != text.count(")") or text.count("{") != text.count("}"):
        raise Inexact(text)  # (`$(if ,},../lib)`: make counts its own parentheses only)
    for at, char in enumerate(text):
        depth += (char in "({") - (char in ")}")
        if char == "," and depth == 0 and len(found) < count - 1:
            found.append(text[start:at])
            start = at + 1
    return [*found, text[start:]]


#: The functions whose text is one a makefile's text does not choose.
_CONSTANT: Final = {"info": "", "warning": "", "error": ""}


def _computed(name: str, args: list[str]) -> list[str]:
    """The texts of the function ``name`` of the expanded ``args`` (each a text make gives a
    name's piece only as a whole word: ``PLACE``)."""
    words = [a.split() for a in args]
    unknown = any(PLACE in a or CURDIR in a for a in args)
    if name in _CONSTANT:
        return [_CONSTANT[name]]
    if name == "eval":
        return [args[0]]  # (its text read as makefile lines: checked as such)
    if name == "wildcard":
        return _wildcard(args[0])
    if name in ("strip", "firstword", "lastword") or (name in ("sort", "words") and not unknown):
        value = {"strip": words[0], "sort": sorted(set(words[0])),
                 "words": [str(len(words[0]))], "firstword": words[0][:1],
                 "lastword": words[0][-1:]}[name]
        return [" ".join(value)]
    if name in ("addprefix", "addsuffix"):
        return [" ".join((args[0].strip() + w) if name == "addprefix" else (w + args[0].strip())
                         for w in words[1])]
    if unknown:
        raise Inexact(name)  # (a name's piece composed anew: `$(subst x,.,$@)`)
    return _composed(name, args, words)


def _composed(name: str, args: list[str], words: list[list[str]]) -> list[str]:
    """``_computed``'s texts of a function composing new text of its known ``args``."""
    if name in ("word", "wordlist"):
        numbers = [int(a) for a in args[:-1] if a.strip().isdigit()]
        if len(numbers) != len(args) - 1 or not all(numbers):
            raise Inexact(name)
        last = numbers[-1] if name == "wordlist" else numbers[0]
        return [" ".join(words[-1][numbers[0] - 1:last])]
    if name in ("filter", "filter-out"):
        keep = [w for w in words[1] if any(_matches(p, w) for p in words[0]) == (
            name == "filter")]
        return [" ".join(keep)]
    if name == "findstring":
        return [args[0] if args[0] in args[1] else ""]
    if name in ("notdir", "dir", "basename", "suffix"):
        return [" ".join(_path_part(name, w) for w in words[0] if _path_part(name, w) or
                         name != "suffix")]
    if name == "subst":
        return [args[2].replace(args[0], args[1]) if args[0] else args[2] + args[1]]  # (make
        # appends to a text where the search is empty: `$(subst ,.,.)` is `..`)
    if name == "patsubst" and not args[0].strip():
        raise Inexact(name)  # (`$(patsubst ,X,)` is `X`)
    if name == "patsubst":
        return [" ".join(_patsubst(args[0].strip(), args[1].strip(), w) for w in words[2])]
    if name == "join":
        a, b = words
        return [" ".join((a[i] if i < len(a) else "") + (b[i] if i < len(b) else "")
                         for i in range(max(len(a), len(b))))]
    raise Inexact(name)


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


def _path_part(name: str, word: str) -> str:
    """make's ``notdir``, ``dir``, ``basename``, ``suffix`` of one word."""
    head, slash, tail = word.rpartition("/")
    if name == "notdir":
        return tail
    if name == "dir":
        return head + slash if slash else "./"
    stem, dot, suffix = tail.rpartition(".")
    if name == "basename":
        return head + slash + stem if dot else word
    return "." + suffix if dot else ""


def _matches(pattern: str, word: str) -> bool:
    """Whether make's ``pattern`` (at most one ``%``) matches ``word``."""
    head, percent, tail = pattern.partition("%")
    if not percent:
        return pattern == word
    return len(word) >= len(head) + len(tail) and word.startswith(head) and word.endswith(tail)


def _patsubst(old: str, new: str, word: str) -> str:
    """make's ``patsubst`` of one word (``%`` the stem)."""
    if not _matches(old, word):
        return word
    head, percent, tail = old.partition("%")
    if not percent:
        return new
    stem = word[len(head):len(word) - len(tail)]
    return new.replace("%", stem, 1) if "%" in new else new
