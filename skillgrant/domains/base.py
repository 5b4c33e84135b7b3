"""What every domain shares: the outcome value, the decision context and its work budget, and
the star-only glob that most languages reduce to.

A star-only glob is a tuple of literal segments with a ``*`` between each pair: ``gh * list``
is ``("gh ", " list")``. Membership is a greedy left-to-right scan (first segment anchored at
the start, last at the end, each middle one at its leftmost occurrence), which is exact for
star-only globs and linear in practice: no regex is ever built from an untrusted pattern.

Inclusion of one glob in another is decided with a *generic instance*: replace each star of the
narrower glob by a character that occurs in no literal of the wider one. Every such character
must then be absorbed by a star of the wider glob, and so would any text put in its place;
hence ``G ⊆ A`` iff ``A`` matches the generic instance of ``G``, and ``G ⊆ A1 ∪ … ∪ An`` iff
one ``Ai`` does. The same instance, when no glob matches it, is the witness.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..limits import MAX_WORK_PER_DECISION

Status = Literal["covered", "not_covered", "unknown"]

# Readable characters tried, in order, as the stand-in for a star in a witness.
_FILLERS = "xyzqwkjvbgfmp0123456789_"
# Unassigned noncharacters: the last resort filler, and the opaque placeholder symbols.
_LAST_RESORT_FILLER = "\ufdef"
RESERVED = frozenset(chr(c) for c in range(0xFDD0, 0xFDF0))


class OverBudget(Exception):
    """Internal: a decision used more than MAX_WORK_PER_DECISION. Becomes ``unknown``."""


@dataclass
class Budget:
    """Counts work units for one decision and stops it past the limit; with a ``parent`` (the
    whole value's budget), every unit is charged there too."""

    limit: int = MAX_WORK_PER_DECISION
    spent: int = 0
    parent: Budget | None = None
    name: str = "MAX_WORK_PER_DECISION"

    def charge(self, units: int) -> None:
        self.spent += units
        if self.spent > self.limit:
            raise OverBudget(f"more than {self.limit} units of work ({self.name})")
        if self.parent is not None:
            self.parent.charge(units)


@dataclass(frozen=True)
class Context:
    """What a decision needs beyond the two grants: plan settings and the budget."""

    shell_tools: frozenset[str] = frozenset()
    base_dirs: Mapping[str, str] = field(default_factory=dict)
    budget: Budget = field(default_factory=Budget)


@dataclass(frozen=True)
class Outcome:
    """A domain's answer for one submitted grant against the approved ones.

    ``covered_by`` indexes the approved sequence the domain was given; ``also`` lists further
    approved indexes that were needed (a submitted grant covered only by a union).
    """

    status: Status
    reason: str
    covered_by: int | None = None
    witness: str | None = None
    also: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Glob:
    """A star-only glob: literal segments separated by stars (``len(segments) == stars + 1``)."""

    segments: tuple[str, ...]

    @property
    def stars(self) -> int:
        return len(self.segments) - 1

    @property
    def is_everything(self) -> bool:
        return self.stars > 0 and not any(self.segments)

    def literal_chars(self) -> set[str]:
        return set("".join(self.segments))

    def instance(self, filler: str) -> str:
        """This glob with every star replaced by ``filler``."""
        return filler.join(self.segments)

    def matches(self, text: str, budget: Budget, fold: Callable[[str], str] | None = None) -> bool:
        """Whether ``text`` is in this glob's language (exact for star-only globs)."""
        budget.charge(len(text) + sum(map(len, self.segments)) + 1)
        segments = self.segments
        if fold is not None:
            text = fold(text)
            segments = tuple(fold(s) for s in segments)
        if len(segments) == 1:
            return text == segments[0]
        first, *middle, last = segments
        if len(text) < len(first) + len(last) or not text.startswith(first):
            return False
        if not text.endswith(last):
            return False
        position, end = len(first), len(text) - len(last)
        for segment in middle:
            found = text.find(segment, position, end)
            if found < 0:
                return False
            position = found + len(segment)
        return True


def parse_star_glob(text: str, unescape: Callable[[str], str]) -> Glob:
    """Split raw content on unescaped ``*``; each segment is then unescaped."""
    segments: list[str] = []
    current: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            current.append(text[index : index + 2])
            index += 2
            continue
        if char == "*":
            segments.append(unescape("".join(current)))
            current = []
        else:
            current.append(char)
        index += 1
    segments.append(unescape("".join(current)))
    return Glob(tuple(segments))


def count_wildcards(text: str) -> int:
    """Unescaped ``*`` characters in raw content."""
    count = 0
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        count += char == "*"
        index += 1
    return count


def choose_filler(
    literals: Iterable[str],
    fold: Callable[[str], str] | None = None,
    budget: Budget | None = None,
) -> str:
    """A readable character absent from every literal given (so it can stand for any text)."""
    used: set[str] = set()
    for literal in literals:
        if budget is not None:
            budget.charge(len(literal) + 1)
        used.update(fold(literal) if fold else literal)
    for char in _FILLERS:
        if char not in used:
            return char
    return _LAST_RESORT_FILLER


def first_match(
    text: str,
    approved: Sequence[tuple[int, Sequence[Glob]]],
    budget: Budget,
    fold: Callable[[str], str] | None = None,
) -> int | None:
    """The index of the first approved pattern (a union of globs) whose language holds ``text``."""
    for index, globs in approved:
        if any(glob.matches(text, budget, fold) for glob in globs):
            return index
    return None


def approved_filler(
    approved: Sequence[tuple[int, Sequence[Glob]]],
    budget: Budget,
    fold: Callable[[str], str] | None = None,
) -> str:
    """The filler for generic instances tested against ``approved``: in none of its literals."""
    return choose_filler((s for _, globs in approved for g in globs for s in g.segments),
                         fold, budget)


def union_cover(
    language: Sequence[Glob],
    approved: Sequence[tuple[int, Sequence[Glob]]],
    budget: Budget,
    fold: Callable[[str], str] | None = None,
    filler: str | None = None,
) -> tuple[list[int], str | None]:
    """Decide ``union(language) ⊆ union(approved)``.

    Returns the covering approved indexes (one per glob of ``language``, in order) and None, or
    the indexes found so far and the generic instance of the first glob nobody covers (the
    witness). Pass ``filler`` (from ``approved_filler``) when deciding many languages against
    the same approved set, so the approved literals are scanned once.
    """
    if filler is None:
        filler = approved_filler(approved, budget, fold)
    covering: list[int] = []
    for glob in language:
        instance = glob.instance(filler)
        index = first_match(instance, approved, budget, fold)
        if index is None:
            return covering, instance
        covering.append(index)
    return covering, None
