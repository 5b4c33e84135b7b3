"""The inclusion test of star-only globs (``union_cover``), and the approved languages compiled
once into one regular expression (``Languages``).

Inclusion of one glob in another is decided with a *generic instance*: replace each star of the
narrower glob by a character that occurs in no literal of the wider one (a filler,
``choose_filler``). Every such character must then be absorbed by a star of the wider glob, and
so would any text put in its place; hence ``G ⊆ A`` iff ``A`` matches the generic instance of
``G``, and ``G ⊆ A1 ∪ … ∪ An`` iff one ``Ai`` does. The same instance, when no glob matches it,
is the witness.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from ..lazy import compile_on_use
from ..records import NamedTuple
from .base import Budget, Fold, Glob, NoFreeFiller

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

# Readable characters tried, in order, as the stand-in for a star in a witness.
_FILLERS = "xyzqwkjvbgfmp0123456789_"
# Tried next, when the approved literals use every readable filler: private-use characters,
# which no case folding changes and which are no separator, blank, wildcard or placeholder
# symbol in any domain. Each is checked against the literals like the readable ones.
_LAST_RESORT_FILLERS = range(0xE000, 0xF900)

def choose_filler(
    literals: Iterable[str],
    fold: Fold | None = None,
    budget: Budget | None = None,
) -> str:
    """A character absent from every literal given (so it can stand for any text): a readable
    one when possible. Raises NoFreeFiller when every candidate occurs in the literals; a filler
    is never returned unchecked."""
    used: set[str] = set()
    for literal in literals:
        if budget is not None:
            budget.charge(len(literal) + 1)
        used.update(fold(literal) if fold else literal)
    for char in _filler_candidates():
        if used.isdisjoint(fold(char) if fold else char):
            return char
    raise NoFreeFiller(FILLERS_USED_UP)


FILLERS_USED_UP: Final = "the approved patterns use every character that could stand for a wildcard"


def _filler_candidates() -> Iterator[str]:
    yield from _FILLERS
    yield from map(chr, _LAST_RESORT_FILLERS)


def first_match(
    text: str,
    approved: Sequence[tuple[int, Sequence[Glob]]],
    budget: Budget,
    fold: Fold | None = None,
    *,
    steps: bool = False,
) -> int | None:
    """The index of the first approved pattern (a union of globs) whose language holds ``text``
    (``Languages.first`` when they were compiled). With ``steps``, or for languages not
    compiled: the scan, one glob at a time, each charged as it is tried (what the compiled
    match declines to, and what it is compared with)."""
    if isinstance(approved, Languages) and not steps:
        return approved.first(text, budget, fold)
    for index, globs in approved:
        if any(glob.matches(text, budget, fold) for glob in globs):
            return index
    return None


def approved_filler(
    approved: Sequence[tuple[int, Sequence[Glob]]],
    budget: Budget,
    fold: Fold | None = None,
) -> str:
    """The filler for generic instances tested against ``approved``: in none of its literals."""
    return choose_filler((s for _, globs in approved for g in globs for s in g.segments),
                         fold, budget)


def union_cover(
    language: Sequence[Glob],
    approved: Sequence[tuple[int, Sequence[Glob]]],
    budget: Budget,
    fold: Fold | None = None,
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


class Languages(tuple[tuple[int, tuple[Glob, ...]], ...]):
    """Approved languages (each an approved index and its globs) compiled once into regular
    expressions, alternations of their globs in order, so ``first_match`` is one C-level
    ``fullmatch``: the branch that matched names the approved pattern, as the scan one glob at
    a time would have (the first glob, in order, whose language holds the text). A text is
    matched against the branches that can start with its first character: those whose first
    segment starts with it, and those with an empty one (``Alternation``).

    A star is ``(?>.*?segment)``, an atomic group that takes the segment's leftmost occurrence
    and never gives it back, as ``fnmatch`` has matched ``*`` since Python 3.11: exact for
    star-only globs, and no backtracking but the last segment's, at the end. The work charged
    is what the scan would charge, computed from the branch (``Budget.charge_at_once``); near
    a limit, over ``MATCHED_CHARS``, or when ``fold`` is not the one compiled with, the scan
    runs instead. tests/property/test_compiled_languages.py compares the two.
    """

    def __new__(cls, items: Iterable[tuple[int, Sequence[Glob]]],
                fold: Fold | None = None) -> Languages:
        languages = super().__new__(cls, ((i, tuple(globs)) for i, globs in items))
        languages._fold = fold
        languages._compiled = _alternation(languages, fold)
        return languages

    _fold: Fold | None
    _compiled: Alternation | None

    def first(self, text: str, budget: Budget, fold: Fold | None = None) -> int | None:
        counted = self.counted(text) if fold is self._fold else None
        if counted is None or not budget.charge_at_once(counted[1]):
            return first_match(text, self, budget, fold, steps=True)
        return counted[0]

    def holder(self, text: str) -> int | None:
        """``first`` for one concrete text under a budget of its own. A compiled match is never
        charged: it costs the scan at most ``_COMPILED_SCAN`` branches of ``MATCHED_CHARS + 1``
        units plus ``_COMPILED_CHARS``, far under that budget (``MAX_WORK_PER_DECISION``).
        ``counted``'s match without its units, written out (the gate's path: each call it
        saves is a tenth of a simple command's decision)."""
        compiled = self._compiled
        if compiled is None or len(text) > MATCHED_CHARS:
            return first_match(text, self, Budget(), self._fold, steps=True)
        if self._fold is not None:
            text = self._fold(text)
        found = compiled.by_first.get(text[:1], compiled.otherwise)
        if found is None:
            return None
        match = found[0].fullmatch(text)
        return None if match is None else compiled.owners[found[1][(match.lastindex or 0) - 1] - 1]

    def alternation(self) -> Alternation | None:
        """The compiled alternations (None when the languages are not compiled)."""
        return self._compiled

    def counted(self, text: str) -> tuple[int | None, int] | None:
        """``first`` in the fold compiled with, and the work the scan would charge for it,
        charging nothing; None when the scan must run (not compiled, or a long text)."""
        compiled = self._compiled
        if compiled is None or len(text) > MATCHED_CHARS:
            return None
        return compiled.counted(text if self._fold is None else self._fold(text))


class Alternation(NamedTuple):
    """Compiled languages: for each first character, the alternation of the branches that can
    start with it (the position of each in the whole sequence of globs, from 1); the one for
    any other text (the branches with an empty first segment, or None); the approved index of
    every branch; and the units the scan charges for the segments of the first ``n``
    branches (``spent[n]``). A text matched at branch ``b`` cost the scan
    ``b * (len(text) + 1) + spent[b]``; one no branch holds, ``none_spent`` plus the number
    of branches times its length."""

    by_first: dict[str, tuple[re.Pattern[str], tuple[int, ...]]]
    otherwise: tuple[re.Pattern[str], tuple[int, ...]] | None
    owners: tuple[int, ...]
    spent: tuple[int, ...]
    none_spent: int

    def counted(self, text: str) -> tuple[int | None, int]:
        """The approved index of the first branch whose glob holds ``text`` (None when none
        does), and the units the scan one glob at a time would charge to find it
        (``Languages.counted``, for a text of at most ``MATCHED_CHARS``, already folded)."""
        found = self.by_first.get(text[:1], self.otherwise)
        if found is not None:
            match = found[0].fullmatch(text)
            if match is not None:
                branch = found[1][(match.lastindex or 0) - 1]
                return self.owners[branch - 1], branch * (len(text) + 1) + self.spent[branch]
        return None, self.none_spent + len(self.owners) * len(text)

#: Texts longer than this are matched one glob at a time (real commands are far shorter).
MATCHED_CHARS: Final = 2048
#: Languages are compiled only while the scanning a match may do stays small (every branch's
#: longest unanchored segment, summed: real plans sum to a few hundred), and while compiling
#: them stays cheap (their stars and literal characters, counted).
_COMPILED_SCAN: Final = 2048
_COMPILED_STARS: Final = 1024
_COMPILED_CHARS: Final = 65_536


def _alternation(languages: Sequence[tuple[int, tuple[Glob, ...]]],
                 fold: Fold | None) -> Alternation | None:
    """The languages compiled (``Alternation``), or None when they are too large to compile
    or there is nothing to compile."""
    branches: list[tuple[str, str]] = []  # (first character or "", the branch's regex)
    owners: list[int] = []
    spent = [0]
    scan = stars = chars = 0
    for index, globs in languages:
        for glob in globs:
            segments = [fold(s) for s in glob.segments] if fold is not None else glob.segments
            scan += max(map(len, segments[1:]), default=0) + 1
            stars += len(segments) - 1
            chars += sum(map(len, segments))
            if scan > _COMPILED_SCAN or stars > _COMPILED_STARS or chars > _COMPILED_CHARS:
                return None
            branches.append((segments[0][:1], _glob_regex(segments)))
            owners.append(index)
            spent.append(spent[-1] + sum(map(len, glob.segments)))
    if not branches:
        return None
    by_first = {char: _compiled(branches, char) for char in {c for c, _ in branches if c}}
    anywhere = any(not c for c, _ in branches)
    return Alternation(by_first, _compiled(branches, "") if anywhere else None, tuple(owners),
                       tuple(spent), len(owners) + spent[-1])


def _compiled(branches: list[tuple[str, str]],
              char: str) -> tuple[re.Pattern[str], tuple[int, ...]]:
    """The alternation of the branches a text starting with ``char`` can match (``""``: those
    with an empty first segment), and the position of each."""
    chosen = [(n, regex) for n, (first, regex) in enumerate(branches, start=1)
              if first in ("", char)]
    # (compiled when a text starting with ``char`` is asked: a hook asks one or two of them)
    return (compile_on_use("|".join(f"({regex})" for _, regex in chosen), re.DOTALL),
            tuple(n for n, _ in chosen))


def _glob_regex(segments: Sequence[str]) -> str:
    first, *rest = map(re.escape, segments)
    if not rest:
        return first
    *middle, last = rest
    return first + "".join(f"(?>.*?{m})" for m in middle) + ".*" + last
