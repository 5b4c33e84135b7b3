"""``Skill`` rules under a runtime that reads them as Claude Code 2.1.332 does (a runtime
profile's ``skill_rules``, ``runtimes.profile.SKILL_EXACT_OR_RAW_PREFIX``):

===================  =====================================================
rule                 skills it allows
===================  =====================================================
``Skill``            every skill (also ``Skill()`` and ``Skill(*)``)
``Skill(x)``         ``x`` only; a leading ``/`` is dropped (``Skill(/x)``)
``Skill(x *)``       every name that starts with ``x``: a raw string prefix,
``Skill(x:*)``       so ``xy`` and ``x:sub`` too
``Skill(x*)``        nothing (any other star)
===================  =====================================================

Each language is one star-only glob over skill names, so inclusion is the shared
``cover.union_cover``. A content with a backslash is decided by identity only.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..grants import Grant
from .base import EVERY_TEXT, Context, Glob, Outcome, same_tool
from .cover import approved_filler, union_cover
from .loose import BACKSLASH_REASON, has_backslash

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

relevant = same_tool

#: Why a ``Skill(…)`` rule with any other star grants nothing there.
STAR_GRANTS_NOTHING: Final = ("a Skill rule with a '*' other than a trailing ' *' or ':*' "
                              "grants nothing")


def language(content: str | None) -> Glob | None:
    """The skill names a rule allows, as one star-only glob; None when it allows none."""
    if content is None:
        return EVERY_TEXT
    for suffix in (" *", ":*"):
        if content.endswith(suffix):
            prefix = content[:-len(suffix)]
            return None if "*" in prefix else Glob((prefix.removeprefix("/"), ""))
    if "*" in content:
        return None
    return Glob((content.removeprefix("/"),))


def inert_reason(grant: Grant) -> str | None:
    """Why a Skill entry grants nothing under such a runtime, or None."""
    if grant.content is not None and not has_backslash(grant.content) and \
            language(grant.content) is None:
        return STAR_GRANTS_NOTHING
    return None


def decide(submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
    """``submitted`` (a Skill grant) against the approved Skill grants, by their languages."""
    for index, grant in enumerate(approved):
        if grant.is_tool_wide:
            return Outcome("covered", "the approved grant allows every skill", covered_by=index)
        if grant.content == submitted.content:
            return Outcome("covered", "an identical grant is approved", covered_by=index)
    if has_backslash(submitted.content):
        return Outcome("unknown", f"not decided: {BACKSLASH_REASON}")
    mine = language(submitted.content)
    if mine is None:  # screened as inert before a domain decides; never kept
        return Outcome("unknown", STAR_GRANTS_NOTHING)
    languages = [(i, (glob,)) for i, a in enumerate(approved)
                 if not has_backslash(a.content) and (glob := language(a.content)) is not None]
    filler = approved_filler(languages, context.budget)
    covering, witness = union_cover((mine,), languages, context.budget, filler=filler)
    if witness is None:
        first, *rest = covering
        return Outcome("covered", _COVERED, covered_by=first,
                       also=tuple(dict.fromkeys(i for i in rest if i != first)))
    if any(has_backslash(a.content) for a in approved):
        # An approved rule decided by identity may allow the witness: it is not certain.
        return Outcome("unknown", "not decided: an approved Skill rule holds a backslash, "
                       f"so no witness is certain ({BACKSLASH_REASON})")
    if submitted.is_tool_wide:
        # A name that reads as "any", when no approved rule allows it.
        named = next((n for n in _ANY_NAMES
                      if not any(g.matches(n, context.budget) for _, (g,) in languages)), witness)
        return Outcome("not_covered", f"it allows every skill; no approved grant allows the "
                       f"skill {named!r}", witness=named)
    return Outcome("not_covered", f"it allows the skill {witness!r}, which no approved grant "
                   "allows", witness=witness)


_ANY_NAMES: Final = ("any-skill", "any-other-skill")


_COVERED: Final = "every skill it allows is allowed by an approved grant"
