"""What every domain shares: the outcome value, the decision context and its work budget, and
the star-only glob that most languages reduce to.

A star-only glob is a tuple of literal segments with a ``*`` between each pair: ``gh * list``
is ``("gh ", " list")``. Membership is a greedy left-to-right scan (first segment anchored at
the start, last at the end, each middle one at its leftmost occurrence), which is exact for
star-only globs and linear in practice.

The inclusion test built on it is domains/cover.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..grants import Grant
from ..lazy import compile_on_use
from ..limits import MAX_WORK_PER_DECISION
from ..records import NamedTuple

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final, Literal, TypeVar
    Status = Literal["covered", "not_covered", "unknown"]
    T = TypeVar("T")

#: A case folding applied to both sides before comparing (PowerShell's ASCII one, semantics §4.1).
Fold = Callable[[str], str]

# Unassigned noncharacters: the opaque placeholder symbols (never a filler).
RESERVED = frozenset(chr(c) for c in range(0xFDD0, 0xFDF0))


class OverBudget(Exception):
    """Internal: a decision used more than MAX_WORK_PER_DECISION. Becomes ``unknown``."""


class NoFreeFiller(Exception):
    """Internal: the approved literals use every character a filler could be, so no generic
    instance can be built. Becomes ``unknown`` (fail closed)."""


class Budget:
    """Counts work units for one decision and stops it past the limit; with a ``parent`` (the
    whole value's budget), every unit is charged there too."""

    __slots__ = ("limit", "name", "parent", "spent")

    def __init__(self, limit: int = MAX_WORK_PER_DECISION, spent: int = 0,
                 parent: Budget | None = None, name: str = "MAX_WORK_PER_DECISION") -> None:
        self.limit = limit
        self.spent = spent
        self.parent = parent
        self.name = name

    def __repr__(self) -> str:
        return f"Budget(limit={self.limit}, spent={self.spent}, name={self.name!r})"

    def charge(self, units: int) -> None:
        self.spent += units
        if self.spent > self.limit:
            raise OverBudget(f"more than {self.limit} units of work ({self.name})")
        if self.parent is not None:
            self.parent.charge(units)

    def room(self) -> int:
        """The units that can still be charged before any budget up the chain runs out."""
        room = self.limit - self.spent
        budget = self.parent
        while budget is not None:
            room = min(room, budget.limit - budget.spent)
            budget = budget.parent
        return room

    def charge_at_once(self, units: int) -> bool:
        """Charge ``units`` in one step when no budget up the chain would run out, and say
        whether it did. A caller that gets False does the work step by step instead, so a
        budget that runs out stops the work where it always did, with the same message."""
        if units > self.room():
            return False
        budget: Budget | None = self
        while budget is not None:
            budget.spent += units
            budget = budget.parent
        return True


class Context:
    """What a decision needs beyond the two grants: plan settings, the runtime profile, the
    budget (a fresh one unless given), and ``compiled``: what a domain compiled of the
    approved grants, kept by the plan between its decisions (``approved_side``)."""

    __slots__ = ("base_dirs", "budget", "compiled", "profile", "shell_tools")

    def __init__(self, shell_tools: frozenset[str] = frozenset(),
                 base_dirs: Mapping[str, str] | None = None,
                 budget: Budget | None = None,
                 compiled: dict[int, tuple[object, object]] | None = None,
                 profile: object = None) -> None:
        self.shell_tools = shell_tools
        #: The runtime profile the decision is for (``runtimes.Profile``), or None: the plan's
        #: own vocabulary (the call gate, which translates each runtime's tools itself).
        self.profile = profile
        self.base_dirs: Mapping[str, str] = {} if base_dirs is None else base_dirs
        self.budget = Budget() if budget is None else budget
        self.compiled = {} if compiled is None else compiled

    def approved_side(self, approved: Sequence[Grant], build: Callable[[], T]) -> T:
        """``build()``, compiled once per approved sequence for as long as the plan keeps its
        context (a prepared plan's candidates for a tool are one list, kept with it)."""
        found = self.compiled.get(id(approved))
        if found is not None and found[0] is approved:
            return found[1]  # type: ignore[return-value]
        side = build()
        self.compiled[id(approved)] = (approved, side)
        return side


class Outcome(NamedTuple):
    """A domain's answer for one submitted grant against the approved ones.

    ``covered_by`` indexes the approved sequence the domain was given; ``also`` lists further
    approved indexes that were needed (a submitted grant covered only by a union).
    """

    status: Status
    reason: str
    covered_by: int | None = None
    witness: str | None = None
    also: tuple[int, ...] = ()


class Glob(NamedTuple):
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

    def matches(self, text: str, budget: Budget, fold: Fold | None = None) -> bool:
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


#: The top of star-only globs: one star, no literal, every text. A tool-wide grant's language in
#: the command and generic domains; as a path or host item, any one part.
EVERY_TEXT: Final = Glob(("", ""))

_ESCAPE = compile_on_use(r"\\([()\\*])")


def unescape(text: str) -> str:
    """Resolve the grant syntax's escapes ``\\( \\) \\\\ \\*`` (semantics §2) to the characters."""
    return _ESCAPE.sub(r"\1", text) if "\\" in text else text


class Undecided(NamedTuple):
    """A specifier outside a domain's decided fragment, and why: covered only by an identical
    approved entry (or a tool-wide one), otherwise ``unknown``."""

    reason: str


def covered_outright(
    submitted: Grant, approved: Sequence[Grant], *, every: str, same: str
) -> Outcome | None:
    """``covered`` by the first approved grant that is tool-wide (it allows ``every``) or has the
    submitted grant's very specifier (``same`` says so); None when there is none. The opening of
    every domain whose top is the bare grant, before any language is compiled.

    >>> covered_outright(Grant("Read", "Read", "x"), [Grant("Read", "Read", None)],
    ...                  every="every path", same="the same path pattern is approved").reason
    'the approved grant allows every path'
    """
    for index, grant in enumerate(approved):
        if grant.is_tool_wide:
            return Outcome("covered", f"the approved grant allows {every}", covered_by=index)
        if grant.content == submitted.content:
            return Outcome("covered", same, covered_by=index)
    return None


class OutrightSide(NamedTuple):
    """``covered_outright`` compiled once for concrete values: the first index holding each
    content that comes before the first tool-wide grant, and that tool-wide grant's index."""

    same: Mapping[str, int]
    tool_wide: int | None

    def get(self, content: str) -> int | None:
        """The index ``covered_outright`` names for a submitted grant with ``content``."""
        found = self.same.get(content)
        return self.tool_wide if found is None else found


def outright_side(approved: Sequence[Grant], indexes: Sequence[int] | None = None
                  ) -> OutrightSide:
    """The ``OutrightSide`` of the approved grants at ``indexes`` (all, by default), in order."""
    same: dict[str, int] = {}
    for index in range(len(approved)) if indexes is None else indexes:
        grant = approved[index]
        if grant.content is None:
            return OutrightSide(same, index)
        same.setdefault(grant.content, index)
    return OutrightSide(same, None)


def covered_or_compiled(
    submitted: Grant,
    approved: Sequence[Grant],
    compile_specifier: Callable[[str | None], T | Undecided],
    *,
    every: str,
    same: str,
    specifier: str,
) -> Outcome | T:
    """``covered_outright``, else the submitted specifier compiled; ``unknown`` when it is
    ``Undecided`` (only an identical approved ``specifier`` covers such a one, seen above)."""
    outright = covered_outright(submitted, approved, every=every, same=same)
    if outright is not None:
        return outright
    compiled = compile_specifier(submitted.content)
    if isinstance(compiled, Undecided):
        return Outcome("unknown", f"{compiled.reason}; only an identical approved {specifier} "
                       "covers it")
    return compiled


def same_tool(submitted: Grant, other: Grant, shell_tools: frozenset[str]) -> bool:
    """Relevance in a domain where only grants of the submitted grant's own tool can cover it."""
    del shell_tools  # no alias joins these tools
    return other.key == submitted.key


def parse_star_glob(text: str, read: Callable[[str], str] = unescape) -> Glob:
    """Split raw content on unescaped ``*``; each segment is then read with ``read``
    (``unescape`` unless a domain reads more, as placeholders in commands)."""
    if "\\" not in text:  # no escape: every star is one
        return Glob(tuple(map(read, text.split("*"))))
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
            segments.append(read("".join(current)))
            current = []
        else:
            current.append(char)
        index += 1
    segments.append(read("".join(current)))
    return Glob(tuple(segments))


def count_wildcards(text: str) -> int:
    """Unescaped ``*`` characters in raw content: the stars ``parse_star_glob`` splits on."""
    return parse_star_glob(text, str).stars
