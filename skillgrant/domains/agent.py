"""``Agent(type)`` (alias ``Task``, SPEC §4.5): type equality; every ``Agent(t)`` ⊑ ``Agent``."""

from __future__ import annotations

from collections.abc import Sequence

from ..grants import Grant
from .base import Context, Outcome, choose_filler


def decide(submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
    del context  # equality needs no budget
    for index, grant in enumerate(approved):
        if grant.content is None:
            return Outcome("covered", "the approved grant allows every agent type",
                           covered_by=index)
        if grant.content == submitted.content:
            return Outcome("covered", "the same agent type is approved", covered_by=index)
    if submitted.content is not None and "*" in submitted.content:
        return Outcome("unknown", "agent types compare by equality; a '*' in a type is not "
                       "a wildcard the runtime documents")
    if submitted.content is None:
        types = [g.content or "" for g in approved]
        witness = "general-purpose" if "general-purpose" not in types else (
            choose_filler(types) * (1 + max(map(len, types), default=0)))
        return Outcome("not_covered", "it allows every agent type; only some are approved",
                       witness=witness)
    return Outcome("not_covered", f"agent type {submitted.content!r} is not approved",
                   witness=submitted.content)
