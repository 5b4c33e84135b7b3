"""The command domain (semantics §4.1): ``Bash``, ``Monitor``, ``PowerShell``, ``Skill`` and
declared shell aliases.

Every command pattern denotes a union of at most two star-only globs:

=========  ================  ==========================================
kind       example           language
=========  ================  ==========================================
ANY        ``Bash``          every command
PREFIX     ``git add:*``     ``{P} ∪ {P␠w}``: globs ``P`` and ``P␠*``
GLOB       ``ls *``          ``{ls} ∪ {ls␠w}`` (a lone trailing ``␠*``)
GLOB       ``git * main``    the glob itself
EXACT      ``npm test``      the one command
=========  ================  ==========================================

A submitted EXACT or PREFIX whose literal holds a shell control operator is special: the runtime
approves such a compound string at once (semantics §4.1), so it is covered only by a tool-wide
grant, an approved EXACT/PREFIX with the same literal, or an unambiguous split whose every part is
covered.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from ..grants import Grant
from ..lazy import compile_on_use
from ..records import NamedTuple
from .base import RESERVED, Budget, Context, Fold, Glob, NoFreeFiller, Outcome
from .commandpattern import ANY_COMMAND as ANY_COMMAND
from .commandpattern import (
    PLACEHOLDERS,
    SHELL_RUNNERS,
    SPACE_RUN,
    SPLIT,
    UNSPLITTABLE,
    WHOLE_REASON,
)
from .commandpattern import SPACING_REASON as SPACING_REASON
from .commandpattern import CommandPattern as CommandPattern
from .commandpattern import Kind as Kind
from .commandpattern import ascii_fold as ascii_fold
from .commandpattern import case_fold as case_fold
from .commandpattern import compile_pattern as compile_pattern
from .commandpattern import has_reserved as has_reserved
from .commandpattern import identity_reason as identity_reason
from .commandpattern import read_literal as read_literal
from .commandpattern import render as render
from .commandpattern import whole_shape as whole_shape
from .cover import (
    FILLERS_USED_UP,
    Alternation,
    Languages,
    approved_filler,
    union_cover,
)
from .loose import loose_globs
from .witness import RUNTIME_WRAPPERS as RUNTIME_WRAPPERS
from .witness import certain, refute

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def group(key: str, shell_tools: frozenset[str]) -> str:
    """The tool group a command tool is judged in: declared shell aliases join ``Bash`` (semantics
    §3); ``Monitor``, ``PowerShell`` and ``Skill`` are each their own."""
    return "Bash" if key == "Bash" or key in shell_tools else key


def relevant(submitted: Grant, other: Grant, shell_tools: frozenset[str]) -> bool:
    """Whether ``other`` can cover ``submitted`` at all: a grant of the same tool group."""
    return group(submitted.key, shell_tools) == group(other.key, shell_tools)


def decide(submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
    """Decide a command-domain grant against approved grants of the same tool group.

    A pattern whose content holds a backslash or a run of spaces is decided by identity only
    (``identity_reason``): the runtime unescapes backslashes twice and collapses spacing, so its
    language is not the one it is written with. Such an approved grant covers only the
    identical entry; it is still consulted, read loosely, before a witness is reported.
    The approved side is compiled once per plan (``_ApprovedSide``).
    """
    if has_reserved(submitted.content):
        return Outcome("unknown", "the entry holds reserved Unicode noncharacters")
    fold = case_fold(submitted.key)
    side = context.approved_side(approved, lambda: _ApprovedSide.of(approved, fold))
    outright = side.covers_outright(submitted)
    if outright is not None:
        return outright
    pattern = compile_pattern(submitted.content)
    whole = submitted.key == "Bash" and pattern.whole and getattr(context.profile,
                                                                  "whole_exact_rules", False)
    if whole:
        same = _same_literal(pattern.literal, side.compiled, (pattern.kind,), fold)
        if same is not None:
            return Outcome("covered", "an approved grant is the same rule", covered_by=same)
    outcome = _decide_language(submitted, pattern, side, approved, context, fold)
    if whole and (outcome.status == "covered" or (outcome.status == "unknown"
                  and _CHAINED.search(pattern.literal) is not None)):
        # The runtime may approve this rule's command whole, skipping what the approved
        # rule's analysis checks (commandpattern.plain_command): not decided, unless no
        # approved language holds it (then its witness stands).
        return Outcome("unknown", f"not decided: {WHOLE_REASON}")
    if outcome.witness is not None and submitted.key == "Bash" and getattr(
            context.profile, "whole_exact_rules", False) and \
            outcome.witness.split(" ", 1)[0] in SHELL_RUNNERS:
        # A witness whose program is a word of the shell (`exec`, `eval`): the runtime's
        # analysis refuses it under a rule of this shape, so it would not show the entry
        # wider (conformance: `Bash(exec:*)`'s witness `exec` was denied under the entry).
        return Outcome("unknown", f"not decided: its witness {outcome.witness!r} starts with "
                       f"the shell's word {outcome.witness.split(' ', 1)[0]!r}, which the "
                       "runtime's analysis checks on its own, so whether the entry allows it "
                       "there is not known")
    return outcome


def _decide_language(submitted: Grant, pattern: CommandPattern, side: _ApprovedSide,
                     approved: Sequence[Grant], context: Context, fold: Fold | None) -> Outcome:
    """``decide`` by the patterns' languages (and the compound reading)."""
    if pattern.compound:
        return _decide_compound(pattern, side.compiled, context, fold)
    # The filler avoids the loose readings' literals too, so a witness can escape them.
    filler = side.filler(context.budget)
    covering, witness = union_cover(pattern.globs, side.languages, context.budget, fold, filler)
    if witness is None and pattern.kind is Kind.ANY:
        return Outcome("unknown", _STARS_ONLY_REASON)
    if witness is None:
        first, *rest = covering
        also = tuple(dict.fromkeys(i for i in rest if i != first))
        return Outcome("covered", COVERED, covered_by=first, also=also)
    # Approved patterns decided by identity still shape the witness: it must escape every
    # reading the runtime may give them (spacing collapsed, escapes read either way).
    return refute(witness, submitted.key, pattern, approved, [*side.languages, *side.loose],
                  side.loose, context, fold)


#: What chains commands or expands in a literal (a pipe or `&` does not: the runtime checks
#: such parts one by one, and the compound reading says why one is not covered).
_CHAINED: Final = compile_on_use(r"&&|\|\||[;\n\r$`{}]|[<>]\(")
#: The reason of a covered decision by the patterns' languages.
COVERED: Final = "every command it allows is allowed by an approved grant"
_TOOL_WIDE = "covered by a tool-wide approved grant"
_STARS_ONLY_REASON = (
    "not decided: it allows every command, and the approved grant whose stars match every "
    "command is a glob rule, which the runtime still checks (subshells, ${VAR}, paths outside "
    "the project are refused under it); only a tool-wide grant (`Bash`, `Bash(*)`) covers it")


def compiled_side(approved: Sequence[Grant], context: Context, key: str) -> object:
    """The approved side ``decide`` compiles for ``approved`` (submitted grants of tool
    ``key``), as ``decide_plain`` takes it."""
    fold = case_fold(key)
    return context.approved_side(approved, lambda: _ApprovedSide.of(approved, fold))


def decide_plain(content: str, side: object, room: int) -> tuple[Outcome, int] | None:
    """``decide`` for a grant of a tool compared exactly whose content is plain
    (``commandpattern.PLAIN_CONTENT``: no backslash, placeholder, control operator,
    parenthesis, run of spaces or edge blank), its work counted, not charged: the outcome and
    the units ``decide`` would charge, or None when those pass ``room`` or the general path
    must decide (no compiled languages, a loose reading in the way of a witness, a content of
    stars only). tests/test_compiled_plan.py compares the two."""
    assert isinstance(side, _ApprovedSide)
    if side.tool_wide is not None:
        return Outcome("covered", _TOOL_WIDE, side.tool_wide), 0
    units, filler = side.chosen
    if filler is None or (content[0] == "*" and not content.strip("*")):
        return None
    if content.endswith(":*") or (content.endswith(" *") and content.count("*") == 1):
        return _decide_two(content, side, room, units, filler)
    instance = content.replace("*", filler)  # the one glob's generic instance
    counted = side.languages.counted(instance)
    if counted is None or units + counted[1] > room:
        return None
    if counted[0] is None:
        return _plain_refuted(instance, side, units + counted[1])
    return side.covered[counted[0]], units + counted[1]


def _decide_two(content: str, side: _ApprovedSide, room: int, units: int,
                filler: str) -> tuple[Outcome, int] | None:
    """``decide_plain`` for a prefix rule (``P:*``: ``P`` and ``P␠*``) or a lone trailing
    ``␠*`` (the command bare, and with words): two globs, each covered."""
    prefix = content[:-2]  # a star inside a prefix rule's prefix is a literal star
    covering: list[int] = []
    for instance in (prefix, f"{prefix} {filler}"):
        counted = side.languages.counted(instance)
        if counted is None:
            return None
        units += counted[1]
        if units > room:
            return None
        if counted[0] is None:
            return _plain_refuted(instance, side, units)
        covering.append(counted[0])
    first, second = covering
    also = (second,) if second != first else ()
    return Outcome("covered", COVERED, first, None, also), units


def literal_matcher(side: object) -> tuple[Alternation, int, bool] | None:
    """What ``decide_plain`` reads for a content without a star, when the answer is the
    compiled languages' alone (no tool-wide grant, a filler, no folding): the languages
    compiled (``Alternation.counted``), the units choosing the filler charges, and whether a content
    they do not hold is refuted at once (no loose reading to consult: ``witness.certain``). A
    content they hold is ``COVERED`` by the grant they name."""
    assert isinstance(side, _ApprovedSide)
    units, filler = side.chosen
    alternation = side.languages.alternation()
    if alternation is None or side.tool_wide is not None or filler is None or side.fold:
        return None
    return alternation, units, not side.loose


def whole_command(side: object, command: str) -> int | None:
    """The approved grant that allows the concrete ``command`` string at once, as the runtime
    does (the call gate's first question): the first, in order, that is tool-wide or an EXACT
    or PREFIX literal equal to it. A placeholder stands for a directory not known here, so a
    literal holding one (or a command holding its symbol) equals nothing."""
    assert isinstance(side, _ApprovedSide)
    # (the reserved noncharacters are not ASCII: an ASCII command is not read for them)
    same = None if not command.isascii() and not RESERVED.isdisjoint(command) else \
        side.literals.get(side.fold(command) if side.fold is not None else command)
    if side.tool_wide is None or (same is not None and same < side.tool_wide):
        return same
    return side.tool_wide


def tool_wide(side: object) -> int | None:
    """The first approved grant allowing every command, or None."""
    assert isinstance(side, _ApprovedSide)
    return side.tool_wide


def member(side: object, command: str) -> int | None:
    """The first approved grant whose language holds the concrete ``command``, decided by its
    language (those decided by identity hold no concrete command here)."""
    assert isinstance(side, _ApprovedSide)
    if not command.isascii() and max(command) >= _FIRST_RESERVED and \
            not RESERVED.isdisjoint(command):
        return None  # the noncharacters that stand for placeholders inside patterns
    return side.languages.holder(command)


_FIRST_RESERVED: Final = min(RESERVED)


def ascii_member(side: object) -> Callable[[str], int | None]:
    """``member(side, command)`` for an ASCII ``command`` (which holds no reserved
    noncharacter), as one call."""
    assert isinstance(side, _ApprovedSide)
    return side.languages.holder


def _plain_refuted(witness: str, side: _ApprovedSide, units: int) -> tuple[Outcome, int] | None:
    """``refute`` for a plain content's witness: no control operator, no placeholder symbol,
    a pattern narrower than every command, and no loose reading to consult (else None: the
    general path reports it)."""
    if side.loose:
        return None
    return certain(witness), units


class _ApprovedSide(NamedTuple):
    """The approved grants as a decision reads them, compiled once: ``usable`` (no reserved
    characters), of which ``compiled`` are decided by their language (``languages``, one
    regular expression) and the rest (``by_identity``) only by identity, read ``loose``ly
    before a witness is reported; ``tool_wide``, the first grant allowing every command."""

    usable: list[tuple[int, Grant]]
    by_identity: frozenset[int]
    compiled: list[tuple[int, CommandPattern]]
    tool_wide: int | None
    languages: Languages
    loose: list[tuple[int, tuple[Glob, ...]]]
    fold: Fold | None
    chosen: tuple[int, str | None]
    #: ``covered`` by each approved grant, by its language, made once.
    covered: tuple[Outcome, ...]
    #: The first EXACT or PREFIX grant with each literal (folded), for ``whole_command``.
    literals: dict[str, int]

    @classmethod
    def of(cls, approved: Sequence[Grant], fold: Fold | None) -> _ApprovedSide:
        usable = [(i, a) for i, a in enumerate(approved) if not has_reserved(a.content)]
        by_identity = frozenset(i for i, a in usable if identity_reason(a.content) is not None)
        compiled = [(i, compile_pattern(a.content)) for i, a in usable if i not in by_identity]
        tool_wide = next((i for i, p in compiled if p.kind is Kind.ANY), None)
        languages = Languages(((i, p.globs) for i, p in compiled), fold)
        loose = [(i, loose_globs(text, PLACEHOLDERS)) for i, a in usable if i in by_identity
                 for text in dict.fromkeys((a.content or "",
                                            SPACE_RUN.sub(" ", a.content or "")))]
        chosen = _chosen_filler([*languages, *loose], fold)
        covered = tuple(Outcome("covered", COVERED, i) for i in range(len(approved)))
        literals: dict[str, int] = {}
        for i, pattern in compiled:
            if pattern.kind in (Kind.EXACT, Kind.PREFIX) and RESERVED.isdisjoint(pattern.literal):
                literals.setdefault(fold(pattern.literal) if fold else pattern.literal, i)
        return cls(usable, by_identity, compiled, tool_wide, languages, loose, fold, chosen,
                   covered, literals)

    def covers_outright(self, submitted: Grant) -> Outcome | None:
        """``covered`` by a tool-wide approved grant, or, for a submitted pattern decided by
        identity, by an identical one (else ``unknown``); None when its language decides."""
        if self.tool_wide is not None:
            return Outcome("covered", _TOOL_WIDE, covered_by=self.tool_wide)
        reason = identity_reason(submitted.content)
        if reason is None:
            return None
        same = next((i for i, a in self.usable if a == submitted), None)
        if same is not None:
            return Outcome("covered", "an identical grant is approved", covered_by=same)
        return Outcome("unknown", f"not decided: {reason}")

    def filler(self, budget: Budget) -> str:
        """``approved_filler`` of the languages and the loose readings, chosen once; the work
        of reading their literals is charged each time, as choosing it would charge."""
        units, chosen = self.chosen
        if not budget.charge_at_once(units):
            return approved_filler([*self.languages, *self.loose], budget, self.fold)
        if chosen is None:
            raise NoFreeFiller(FILLERS_USED_UP)
        return chosen


def _chosen_filler(readings: Sequence[tuple[int, Sequence[Glob]]],
                   fold: Fold | None) -> tuple[int, str | None]:
    """The units choosing a filler for ``readings`` charges, and the filler (None: none is
    free)."""
    budget = Budget(limit=sys.maxsize)
    try:
        filler: str | None = approved_filler(readings, budget, fold)
    except NoFreeFiller:
        filler = None
    return budget.spent, filler


def _decide_compound(
    pattern: CommandPattern,
    compiled: Sequence[tuple[int, CommandPattern]],
    context: Context,
    fold: Fold | None,
) -> Outcome:
    # An approved EXACT or PREFIX with the same literal approves that compound string whole.
    # A submitted PREFIX may approve more than its literal, so only a PREFIX matches it.
    kinds = (Kind.PREFIX,) if pattern.kind is Kind.PREFIX else (Kind.EXACT, Kind.PREFIX)
    same = _same_literal(pattern.literal, compiled, kinds, fold)
    if same is not None:
        return Outcome("covered", "an approved grant allows the same compound command",
                       covered_by=same)
    if pattern.kind is Kind.PREFIX:
        return Outcome(
            "unknown",
            "a prefix rule whose prefix is a compound command is covered only by the same "
            "prefix rule or a tool-wide grant",
        )
    parts = [part.strip(" \t") for part in SPLIT.split(pattern.literal)]
    if "$(" in pattern.literal or any(not p or UNSPLITTABLE.search(p) for p in parts):
        return Outcome(
            "unknown",
            "a compound command that cannot be split unambiguously (quotes, substitutions, "
            "parentheses or an empty part) is covered only by an identical or tool-wide grant",
        )
    languages = [(i, p.globs) for i, p in compiled if not p.compound]
    filler = approved_filler(languages, context.budget, fold)
    covering: list[int] = []
    for part in parts:
        found, witness = union_cover((Glob((part,)),), languages, context.budget, fold, filler)
        if witness is not None:
            # Whether the runtime approves a compound rule whole or checks it part by part
            # depends on its operators and commands (2.1.332 approves `touch a && touch b`
            # whole, but neither a pipe nor `git status && touch x`): no certain witness.
            return Outcome("unknown", f"its part {render(part)!r} is allowed by no approved "
                           "grant, but the runtime approves some compound rules whole and "
                           "checks others part by part, so the compound string is no certain "
                           "witness")
        covering.extend(found)
    first, *rest = covering
    return Outcome("covered", "every part of the compound command is covered",
                   covered_by=first, also=tuple(dict.fromkeys(i for i in rest if i != first)))


def _same_literal(
    literal: str,
    compiled: Sequence[tuple[int, CommandPattern]],
    kinds: tuple[Kind, ...],
    fold: Fold | None,
) -> int | None:
    key = fold(literal) if fold else literal
    for index, other in compiled:
        if other.kind in kinds and (fold(other.literal) if fold else other.literal) == key:
            return index
    return None
