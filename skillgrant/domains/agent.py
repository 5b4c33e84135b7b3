"""``Agent(type)`` (alias ``Task``, semantics §4.5): type equality; every ``Agent(t)`` ⊑
``Agent``."""

from __future__ import annotations

from collections.abc import Sequence

from ..grants import Grant
from .base import Context, Outcome, OutrightSide, covered_outright, outright_side, same_tool
from .cover import choose_filler

# Only Agent grants cover Agent grants.
relevant = same_tool


def decide(submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
    del context  # equality needs no budget
    outright = covered_outright(submitted, approved, every="every agent type",
                                same="the same agent type is approved")
    if outright is not None:
        return outright
    if submitted.is_tool_wide:
        types = [g.content or "" for g in approved]
        witness = "general-purpose" if "general-purpose" not in types else (
            choose_filler(types) * (1 + max(map(len, types), default=0)))
        # `approved` holds only Agent grants (``relevant``): none means no agent at all.
        some = "only some are approved" if approved else "no approved entry allows any agent"
        return Outcome("not_covered", f"it allows every agent type; {some}", witness=witness)
    agent_type = submitted.content or ""
    if "*" in agent_type:
        return Outcome("unknown", "agent types compare by equality; a '*' in a type is not "
                       "a wildcard the runtime documents")
    return Outcome("not_covered", f"agent type {agent_type!r} is not approved",
                   witness=agent_type)


def member_side(approved: Sequence[Grant]) -> OutrightSide:
    """The approved Agent grants compiled for concrete agent types (``member``)."""
    return outright_side(approved)


def member(side: OutrightSide, agent_type: str) -> int | None:
    """The index of the approved grant covering the concrete ``agent_type`` (no ``*``), as
    ``decide`` names it: the first tool-wide or identical grant."""
    return side.get(agent_type)
