"""Everything else (SPEC §4.6): a bare name covers every use of its tool; specifiers compare as
star-only globs (as §4.1 GLOB, without the trailing-space rule); identical entries always cover
each other. A specifier with a backslash is decided by identity only (``base.BACKSLASH_REASON``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..grants import Grant
from .base import (
    BACKSLASH_REASON,
    Context,
    Glob,
    Outcome,
    approved_filler,
    has_backslash,
    loose_doubt,
    loose_globs,
    parse_star_glob,
    union_cover,
)

_ESCAPE = re.compile(r"\\([()\\*])")


def unescape(text: str) -> str:
    return _ESCAPE.sub(r"\1", text)


def language(grant: Grant) -> tuple[Glob, ...]:
    if grant.content is None:
        return (Glob(("", "")),)
    return (parse_star_glob(grant.content, unescape),)


def decide(submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
    """Decide a grant for a tool without its own semantics, against grants of the same tool."""
    for index, grant in enumerate(approved):
        if grant.content is None:
            return Outcome("covered", "the approved grant allows every use of the tool",
                           covered_by=index)
        if grant == submitted:
            return Outcome("covered", "an identical grant is approved", covered_by=index)
    if has_backslash(submitted.content):
        return Outcome("unknown", f"not decided: {BACKSLASH_REASON}")
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
    what = "every use of the tool" if submitted.content is None else "a specifier"
    return Outcome("not_covered", f"it allows {what}; no approved grant allows {witness!r}",
                   witness=witness)
