"""Everything else (semantics §4.6): a bare name covers every use of its tool; specifiers compare as
star-only globs (as §4.1 GLOB, without the trailing-space rule); identical entries always cover
each other. A specifier with a backslash is decided by identity only
(``loose.BACKSLASH_REASON``)."""

from __future__ import annotations

from collections.abc import Sequence

from .. import vocabulary
from ..grants import Grant
from ..records import NamedTuple
from .base import EVERY_TEXT, Context, Glob, Outcome, covered_outright, parse_star_glob, same_tool
from .cover import approved_filler, union_cover
from .loose import BACKSLASH_REASON, has_backslash, loose_doubt, loose_globs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The language of a tool-wide grant: every use of the tool (top).
EVERY_USE: Final = (EVERY_TEXT,)

# Only grants of the same tool cover each other here.
relevant = same_tool


def language(grant: Grant) -> tuple[Glob, ...]:
    if grant.content is None:
        return EVERY_USE
    return (parse_star_glob(grant.content),)


def decide(submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
    """Decide a grant for a tool without its own semantics, against grants of the same tool.
    When it is not covered and its tool name looks like a misspelt built-in one, the reason
    ends by saying which (``vocabulary.close_names``)."""
    outcome = _decide(submitted, approved, context)
    if outcome.status == "covered":
        return outcome
    return outcome._replace(reason=outcome.reason + _unknown_name_note(submitted))


def _decide(submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
    outright = covered_outright(submitted, approved, every="every use of the tool",
                                same=_IDENTICAL)
    if outright is not None:
        return outright
    if has_backslash(submitted.content):
        return Outcome("unknown", f"not decided: {BACKSLASH_REASON}")
    if submitted.is_tool_wide and any(a.content is not None and not a.content.strip("*")
                                      for a in approved):
        # Only `T`, `T()` and `T(*)` are the bare grant at runtime; `T(**)` is a rule with a
        # content, read by the tool itself (issue 28): it covers no bare grant.
        return Outcome("unknown", "not decided: it allows every use of the tool, and a rule "
                       "of stars only is a rule with a content, not the bare grant")
    # An approved specifier with a backslash covers only the identical entry (above); read
    # loosely, it still stops a witness it might allow.
    languages = [(i, language(a)) for i, a in enumerate(approved)
                 if not has_backslash(a.content)]
    loose = [(i, loose_globs(a.content or "")) for i, a in enumerate(approved)
             if has_backslash(a.content)]
    filler = approved_filler([*languages, *loose], context.budget)
    covering, witness = union_cover(language(submitted), languages, context.budget,
                                    filler=filler)
    if witness is None:
        return Outcome("covered", "every specifier it allows is allowed by an approved grant",
                       covered_by=covering[0])
    doubt = loose_doubt(witness, witness, approved, loose, context.budget)
    if doubt is not None:
        return doubt
    tool = submitted.tool
    if submitted.is_tool_wide and not approved:
        # No approved grant is for this tool at all: a stand-in specifier such as 'x' would
        # read as one particular use, when every use is the point.
        return Outcome("not_covered", f"it allows every use of {tool}, and no approved grant "
                       f"is for {tool}", witness=f"any use of {tool}")
    what = f"every use of {tool}" if submitted.is_tool_wide else "a specifier"
    return Outcome("not_covered", f"it allows {what}; no approved grant allows {witness!r}",
                   witness=witness)


class OutrightSide(NamedTuple):
    """What ``covered_outright`` finds among the approved grants, compiled once: the outcome
    for each specifier an approved grant has before any tool-wide one (the first identical
    grant's), and ``otherwise`` (the first tool-wide grant's, or None)."""

    otherwise: Outcome | None
    by_specifier: dict[str | None, Outcome]


_EVERY_USE = "the approved grant allows every use of the tool"
_IDENTICAL = "an identical grant is approved"


def compiled_side(approved: Sequence[Grant], context: Context, key: str) -> object:
    """The approved side ``decide_plain`` takes, compiled once per plan."""
    del key  # the same for every tool of this domain

    def build() -> OutrightSide:
        first_with: dict[str | None, int] = {}
        for i, grant in enumerate(approved):
            first_with.setdefault(grant.content, i)
        wide = first_with.get(None)
        otherwise = None if wide is None else Outcome("covered", _EVERY_USE, wide)
        return OutrightSide(otherwise, {
            content: Outcome("covered", _IDENTICAL, i) for content, i in first_with.items()
            if content is not None and (wide is None or i < wide)})

    return context.approved_side(approved, build)


def literal_matcher(side: object) -> None:
    """None: this domain's plain decisions are one lookup already (``decide_plain``)."""
    del side


def decide_plain(content: str, side: object, room: int) -> tuple[Outcome, int] | None:
    """``decide`` for a plain specifier (no backslash) that an approved grant covers
    outright, tool-wide or identical: the first such, as ``covered_outright`` finds it, with no
    work charged; None when none does (the general path decides)."""
    del room  # nothing is charged
    assert isinstance(side, OutrightSide)
    outcome = side.by_specifier.get(content, side.otherwise)
    return None if outcome is None else (outcome, 0)


def _unknown_name_note(grant: Grant) -> str:
    """``; the runtime knows no tool named 'Wirte' (did you mean 'Write'?)`` for a tool name
    that looks like a misspelt built-in one, else "" (semantics §3: such an entry grants nothing at
    runtime, though it is judged here like any other tool)."""
    near = vocabulary.close_names(grant.tool)
    if not near:
        return ""
    return (f"; the runtime knows no tool named {grant.tool!r} (did you mean "
            f"{' or '.join(map(repr, near))}?)")
