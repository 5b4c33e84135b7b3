"""Languages of part sequences: the machinery under paths (parts split on ``/``, semantics §4.2) and
hosts (labels split on ``.``, semantics §4.3).

A pattern is a tuple of *items*. An item is either a ``Glob`` (a star-only glob that matches
exactly one non-empty part; its stars never cross a separator) or ``ANY_PARTS`` (gitignore's
``**``: any number of parts, zero included). A concrete value is a tuple of parts.

Inclusion
---------
``included`` is a dynamic programme over (submitted item, approved item): an approved
``ANY_PARTS`` absorbs any run of submitted items, a submitted ``ANY_PARTS`` is absorbed only by
an approved one, and glob against glob is the generic-instance test of ``base.py``. It is sound
and polynomial, but not complete: ``*/**`` and ``**/*`` denote the same paths ("at least one
part"), which no item-by-item alignment shows. Inclusion in this fragment (one-part wildcards
plus ``**``) is coNP-hard in general, so exactness needs a search, bounded by the budget.

``scan`` is that search, and it is exact for unions too. Choose a filler character in no
approved literal. Replace every submitted glob by its generic instance and every submitted
``ANY_PARTS`` by ``k`` copies of the filler, for every ``k`` in ``0..K+1`` where ``K`` is the
largest number of glob items in an approved pattern. If some approved pattern matches such an
instance, it covers every value of that shape: a filler part can only be matched by an approved
``*`` part or ``ANY_PARTS`` (either takes any part), a filler inside a glob only by a star; and
a block of ``K+1`` fillers has at least one part absorbed by an approved ``ANY_PARTS``, which
absorbs any longer block as well. So the submitted language is covered by the union iff every
instance is matched, and an instance nobody matches is a witness.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence

from .base import EVERY_TEXT, Budget, Fold, Glob
from .cover import choose_filler

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


class AnyParts:
    """The ``**`` item: any number of parts, zero included. Use the ``ANY_PARTS`` singleton."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ANY_PARTS"


ANY_PARTS: Final = AnyParts()
#: One part, whatever it holds (a lone ``*``).
ANY_PART: Final = EVERY_TEXT

Item = Glob | AnyParts
Items = tuple[Item, ...]
Parts = tuple[str, ...]

_STARS = re.compile(r"\*+")
# Work units charged per automaton state visited and per DP cell. The budget's unit is a
# character scanned by ``Glob.matches`` (C speed); a state visit is Python-level work, so it
# costs more, keeping the worst case of a path decision near that of a command decision.
STATE_COST: Final = 32
CELL_COST: Final = 8


def part_glob(text: str) -> Glob:
    """One part of a pattern as a glob; a run of stars is one star (gitignore: ``a**b`` is
    ``a*b``)."""
    return Glob(tuple(_STARS.sub("*", text).split("*")))


def literal(text: str) -> Glob:
    """A part that matches exactly ``text`` (a star in it is an ordinary character)."""
    return Glob((text,))


def _runs(items: Items) -> int:
    return sum(1 for item in items if isinstance(item, AnyParts))


def glob_items(items: Iterable[Item]) -> int:
    return sum(1 for item in items if isinstance(item, Glob))


def collapse(items: Iterable[Item]) -> Items:
    """Merge runs of ``ANY_PARTS`` (``**/**`` is ``**``)."""
    out: list[Item] = []
    for item in items:
        if isinstance(item, AnyParts) and out and isinstance(out[-1], AnyParts):
            continue
        out.append(item)
    return tuple(out)


def _closure(items: Items, positions: Iterable[int]) -> set[int]:
    """The positions reachable from ``positions`` by letting ``ANY_PARTS`` take nothing."""
    reached: set[int] = set()
    stack = list(positions)
    while stack:
        position = stack.pop()
        if position in reached:
            continue
        reached.add(position)
        if position < len(items) and isinstance(items[position], AnyParts):
            stack.append(position + 1)
    return reached


def _step(
    items: Items, states: set[int], part: str, budget: Budget, fold: Fold | None
) -> set[int]:
    budget.charge(STATE_COST * (len(states) + 1))
    following: set[int] = set()
    for position in states:
        if position == len(items):
            continue
        item = items[position]
        if isinstance(item, AnyParts):
            following.add(position)
        elif part and item.matches(part, budget, fold):
            following.add(position + 1)
    return _closure(items, following)


def matches(items: Items, parts: Sequence[str], budget: Budget, fold: Fold | None = None) -> bool:
    """Whether the concrete value ``parts`` is in the language of ``items``.

    Tracks the set of item positions reachable after each part: O(parts × items) glob tests.
    """
    # The items before the first `**` and after the last one match a fixed number of parts at
    # either end: test those directly, and run the automaton only on what lies between.
    anys = [i for i, item in enumerate(items) if isinstance(item, AnyParts)]
    head = anys[0] if anys else len(items)
    tail = len(items) - 1 - anys[-1] if anys else 0
    if len(parts) < head + tail or (not anys and len(parts) != head):
        return False
    budget.charge(STATE_COST)
    ends = zip(items[:head] + items[len(items) - tail:],
               [*parts[:head], *parts[len(parts) - tail:]], strict=True)
    if not all(part and glob.matches(part, budget, fold) for glob, part in ends
               if isinstance(glob, Glob)):
        return False
    if not anys:
        return True
    middle = items[head:len(items) - tail]
    states = _closure(middle, (0,))
    for part in parts[head:len(parts) - tail]:
        states = _step(middle, states, part, budget, fold)
        if not states:
            return False
    return len(middle) in states


def prefix_matches(
    items: Items,
    parts: Sequence[str],
    budget: Budget,
    fold: Fold | None = None,
    *,
    anywhere: bool = False,
) -> list[bool]:
    """For each ``k`` in ``0..len(parts)``: whether ``items`` matches ``parts[:k]`` or, with
    ``anywhere``, some ``parts[j:k]``. One pass, O(parts × items) glob tests."""
    start = _closure(items, (0,))
    states = set(start)
    found = [len(items) in states]
    for part in parts:
        states = _step(items, states, part, budget, fold)
        if anywhere:
            states |= start
        elif not states:
            break
        found.append(len(items) in states)
    return found + [False] * (len(parts) + 1 - len(found))


def glob_included(narrow: Glob, wide: Glob, budget: Budget) -> bool:
    """``narrow ⊆ wide`` for one-part globs (the generic instance of ``base.py``)."""
    if narrow == wide:
        return True
    filler = choose_filler(wide.segments)
    return wide.matches(narrow.instance(filler), budget)


def included(sub: Items, app: Items, budget: Budget) -> bool:
    """A sound, polynomial test of ``L(sub) ⊆ L(app)`` (see the module docstring: a True is a
    proof, a False is not a disproof)."""
    n, m = len(sub), len(app)
    budget.charge(CELL_COST * (n + 1) * (m + 1))
    # below[j] is "sub[i+1:] ⊆ app[j:]" while row i is computed; rows run from the end.
    below = [all(isinstance(a, AnyParts) for a in app[j:]) for j in range(m + 1)]
    for i in range(n - 1, -1, -1):
        row = [False] * (m + 1)
        item = sub[i]
        for j in range(m - 1, -1, -1):
            wide = app[j]
            if isinstance(wide, AnyParts):
                row[j] = row[j + 1] or below[j]
            elif isinstance(item, Glob):
                row[j] = below[j + 1] and glob_included(item, wide, budget)
        below = row
    return below[0]


def instance(items: Items, filler: str, counts: Sequence[int]) -> Parts:
    """``items`` with every glob's stars replaced by ``filler`` and the ``i``-th ``ANY_PARTS``
    replaced by ``counts[i]`` filler parts."""
    parts: list[str] = []
    runs = iter(counts)
    for item in items:
        if isinstance(item, AnyParts):
            parts.extend([filler] * next(runs))
        else:
            parts.append(item.instance(filler))
    return tuple(parts)


def generic_filler(approved: Sequence[tuple[int, Items]], budget: Budget) -> str:
    """The filler ``scan`` uses: a readable character in no approved literal."""
    literals = [s for _, items in approved for g in items if isinstance(g, Glob)
                for s in g.segments]
    budget.charge(sum(map(len, literals)) + len(literals))
    return choose_filler(literals)


def scan(
    sub: Items, approved: Sequence[tuple[int, Items]], budget: Budget
) -> Iterator[tuple[Parts, int | None]]:
    """Every generic instance of ``sub`` (see the module docstring) with the index of the first
    approved pattern that matches it, or None. Short instances come first: they make the most
    readable witnesses."""
    filler = generic_filler(approved, budget)
    widest = max((glob_items(items) for _, items in approved), default=0)
    for counts in itertools.product(range(widest + 2), repeat=_runs(sub)):
        parts = instance(sub, filler, counts)
        budget.charge(STATE_COST * (len(parts) + 1))
        yield parts, next((i for i, items in approved if matches(items, parts, budget)), None)


def cover(
    sub: Items, approved: Sequence[tuple[int, Items]], budget: Budget
) -> tuple[int, tuple[int, ...]] | None:
    """``(covered_by, also)`` when the approved patterns cover ``sub`` (one of them, or several
    together), else None. The polynomial test runs first; the search only when it fails."""
    # A cheap necessary condition first: an approved pattern that covers ``sub`` matches its
    # shortest generic instance (the first one ``scan`` would try).
    probe = instance(sub, generic_filler(approved, budget), [0] * _runs(sub))
    candidates = [(i, wide) for i, wide in approved if matches(wide, probe, budget)]
    if not candidates:
        return None
    for index, wide in candidates:
        if included(sub, wide, budget):
            return index, ()
    covering: list[int] = []
    for _, found in scan(sub, approved, budget):
        if found is None:
            return None
        covering.append(found)
    first, *rest = covering
    return first, tuple(dict.fromkeys(i for i in rest if i != first))


#: Stars (``**`` items included, one of them at most) a ``FirstMatch`` expression holds for one
#: pattern at most, and the longest value it reads (and literal text a pattern in it holds):
#: each star multiplies the backtracking a regular expression may do on a long value, and a
#: long literal the time it takes to build, so a pattern with more, or a longer value, is
#: matched by ``matches`` (linear in the value) instead.
_MAX_EXPRESSION_STARS: Final = 2
_MAX_EXPRESSION_VALUE: Final = 256


class FirstMatch:
    """Which of several patterns (each with an index, in order) first matches a concrete
    value: one regular expression over the value joined with ``sep`` (``/a/b``, ``.a.b``), an
    alternative per pattern (the first that matches wins, as a loop over ``matches`` finds
    it), and ``matches`` for the patterns with many stars."""

    __slots__ = ("everything", "expression", "indexes", "rest", "sep")

    def __init__(self, patterns: Iterable[tuple[int, Items]], sep: str) -> None:
        self.sep = sep
        patterns = list(patterns)
        self.everything = [(order, index, items)
                           for order, (index, items) in enumerate(patterns)]
        alternatives: list[str] = []
        indexes: list[tuple[int, int]] = []  # (order, index) of each alternative
        self.rest: list[tuple[int, int, Items]] = []  # (order, index, items) matched slowly
        for order, (index, items) in enumerate(patterns):
            stars = sum(1 if isinstance(i, AnyParts) else i.stars for i in items)
            anys = sum(isinstance(i, AnyParts) for i in items)
            chars = sum(len(s) for i in items if isinstance(i, Glob) for s in i.segments)
            if stars > _MAX_EXPRESSION_STARS or anys > 1 or chars > _MAX_EXPRESSION_VALUE:
                self.rest.append((order, index, items))
                continue
            alternatives.append(f"(?P<p{len(indexes)}>{_expression(items, sep)})")
            indexes.append((order, index))
        self.indexes = indexes
        self.expression = re.compile("|".join(alternatives)) if alternatives else None

    def first(self, value: str) -> int | None:
        """The index of the first pattern matching the concrete ``value``: its parts, each
        non-empty and written after ``sep`` (``/a/b``, ``.a.b``); or None."""
        found = None
        rest = self.rest
        if self.expression is not None and len(value) > _MAX_EXPRESSION_VALUE:
            rest = self.everything
        elif self.expression is not None:
            hit = self.expression.fullmatch(value)
            if hit is not None:
                found = self.indexes[int(hit.lastgroup[1:])]  # type: ignore[index]
        if rest:
            parts = value[1:].split(self.sep)
            budget = Budget()
            for order, index, items in rest:
                if found is not None and order > found[0]:
                    break
                if matches(items, parts, budget):
                    return index
        return None if found is None else found[1]


def _expression(items: Items, sep: str) -> str:
    """A regular expression for ``items`` over a value written ``sep`` before each part."""
    separator, part = re.escape(sep), f"[^{re.escape(sep)}]"
    written = []
    for item in items:
        if isinstance(item, AnyParts):
            written.append(f"(?:{separator}{part}+)*")
        else:
            written.append(separator + f"{part}*".join(map(re.escape, item.segments)))
    return "".join(written)
