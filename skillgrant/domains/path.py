"""Paths for ``Read`` and ``Edit`` (SPEC §4.2). Conservative core: bare grants and identical
patterns only; everything else is ``unknown`` (never kept)."""

from __future__ import annotations

from collections.abc import Sequence

from ..grants import Grant
from .base import Context, Outcome


def decide(submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
    del context
    for index, grant in enumerate(approved):
        if grant.content is None:
            return Outcome("covered", "the approved grant allows every path", covered_by=index)
        if grant.content == submitted.content:
            return Outcome("covered", "the same path pattern is approved", covered_by=index)
    return Outcome("unknown", "path patterns other than identical ones are not decided yet")
