"""One lookup per concrete part of a call: the approved grants each domain's ``member`` reads,
compiled once per plan (and working directory), and the values each decides.

A concrete path, host, agent type, skill name or MCP tool name is judged by its domain's
``member`` on the plan's candidates for it (``PreparedPlan.candidates``, the very grants the
prover would decide against), without being written back into a grant and proved. Each
answer names the approved entry the prover names for the singleton entry of that value
(``Read(//a/b)``, ``WebFetch(domain:h)``, ``Agent(t)``, …), or None when the prover would not
answer ``covered``; tests/test_gate_members.py compares the two over generated values.

A value outside the fragment a ``member`` decides (``OUTSIDE``: a character or length the
prover's screening reads otherwise, a path of pattern syntax) is not decided here: the caller
proves its singleton entry, as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..domains import command as command_domain
from ..domains import pathpattern
from ..domains.base import OverBudget
from ..grants import Grant, parse_grant
from ..limits import MAX_ENTRY_LENGTH
from .verdict import OUTSIDE, CallPlan, Found, Outside

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final, TypeVar

    T = TypeVar("T")

__all__ = ["OUTSIDE", "Found", "Outside", "agent_type", "host", "mcp_tool", "path", "skill"]

#: Characters that keep an entry from the screening's plain reading, or that a domain reads
#: as pattern syntax: control characters (C0, DEL, C1), parentheses, backslashes, wildcards,
#: brackets and braces.
_NOT_PLAIN: Final = re.compile(r"[\x00-\x1f\x7f-\x9f()\\*?\[\]{}]")
#: A path the path domain does not read as a plain literal: ``_NOT_PLAIN``, an empty, ``.`` or
#: ``..`` part, or a trailing blank (gitignore drops it; ``str.strip``'s blanks).
_NOT_PLAIN_PATH: Final = re.compile(rf"{_NOT_PLAIN.pattern}|//|/\.\.?(?:/|\Z)|\s\Z|./\Z")
#: An agent type or MCP tool name as runtimes spell them.
_PLAIN_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:@+-]*")
#: A skill name read as a command's single word: no blank, quote or shell syntax.
_PLAIN_SKILL: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:@+/-]*")
_READ: Final = Grant("Read", "Read", "x")
_EDIT: Final = Grant("Edit", "Edit", "x")


def path(plan: CallPlan, kind: str, absolute: str, cwd: str | None) -> Found:
    """The approved entry covering ``kind`` (``Read`` or ``Edit``) of the normalized absolute
    path ``absolute``, as proving ``kind(/absolute)`` names it; None, or ``OUTSIDE``."""
    if (len(absolute) + len(kind) + 3 > MAX_ENTRY_LENGTH or not absolute.startswith("/")
            or _NOT_PLAIN_PATH.search(absolute)):
        return OUTSIDE
    content = "/" + absolute
    entries, reads, edits = plan.kept(("paths", cwd), lambda: _path_sides(plan, cwd))
    try:
        found = pathpattern.member(reads, content)
        if kind == "Edit" and found is not None:  # an Edit grant must allow editing it too
            found = pathpattern.member(edits, content)
    except OverBudget:  # the prover decides, within its own budget (review F1)
        return OUTSIDE
    return None if found is None else entries[found]


def _path_sides(plan: CallPlan, cwd: str | None) -> tuple[
        tuple[str, ...], pathpattern.MemberSide, pathpattern.MemberSide]:
    """The path grants' entries, and their sides for reading (``Read`` grants and ``Edit``
    grants with a path, as ``path.decide`` reads them) and for editing (``Edit`` grants)."""
    prepared = plan.prepared(cwd)
    approved = prepared.grants(_READ)
    entries = tuple(a.entry for a in prepared.candidates(_READ))
    reads = [i for i, g in enumerate(approved)
             if g.key == "Read" or (g.key == "Edit" and not g.is_tool_wide)]
    edits = [i for i, g in enumerate(approved) if g.key == "Edit"]
    base_dirs = prepared.base_dirs
    return (entries, pathpattern.member_side(approved, reads, base_dirs),
            pathpattern.member_side(approved, edits, base_dirs))


def host(plan: CallPlan, name: str) -> Found:
    """The approved entry covering a fetch from ``name`` (as ``judge`` reads a URL's host:
    lower case, no trailing dot), as proving ``WebFetch(domain:name)`` names it; None, or
    ``OUTSIDE``."""
    if len(name) + 24 > MAX_ENTRY_LENGTH:
        return OUTSIDE
    from ..domains import web  # each domain loads when a call of it comes (issue 29)

    return _looked_up(plan, "WebFetch", web.member_side, web.member, name)


def agent_type(plan: CallPlan, value: str) -> Found:
    """The approved entry covering the agent type ``value``, as proving ``Agent(value)`` names
    it; None, or ``OUTSIDE``."""
    if len(value) > 256 or not _PLAIN_NAME.fullmatch(value):
        return OUTSIDE
    from ..domains import agent

    return _looked_up(plan, "Agent", agent.member_side, agent.member, value)


def mcp_tool(plan: CallPlan, name: str) -> Found:
    """The approved entry covering the MCP tool ``name``, as proving the entry ``name`` names
    it; None, or ``OUTSIDE`` (a name of other characters, a server's name without a tool,
    which stands for all its tools, or one the runtime matches no grant of:
    ``mcp.is_inert``)."""
    from ..domains import mcp

    if len(name) > 256 or not _PLAIN_NAME.fullmatch(name) or mcp.is_inert(name) \
            or mcp.split_name(name)[1] is None:
        return OUTSIDE
    return _looked_up(plan, "mcp__x", mcp.member_side, mcp.member, name)


def skill(plan: CallPlan, name: str) -> Found:
    """The approved entry covering the skill ``name``: the plan's own vocabulary reads
    ``Skill(…)`` as a command pattern (the tool-wide grant, else the first pattern holding the
    name, ``command.member``), as proving ``Skill(name)`` does; or None. Stricter than that
    proof in two ways (review F2): a rule with a star other than a trailing `` *`` or ``:*``
    covers nothing, as Claude Code reads it (``skill.inert_reason``: ``Skill(x*)`` would hold
    ``xevil`` as a command pattern); and a name with other characters than letters, digits and
    ``_.:@+/-`` (a blank, shell syntax), which no skill has, is never covered."""
    if len(name) > 256 or not _PLAIN_SKILL.fullmatch(name):
        return None
    entries, side = plan.kept(("skill",), lambda: _skill_side(plan))
    found = command_domain.tool_wide(side)
    if found is None:  # no name here is identical to a grant decided by identity only
        found = command_domain.member(side, name)
    return None if found is None else entries[found]


def _skill_side(plan: CallPlan) -> tuple[tuple[str, ...], object]:
    """The Skill rules that grant something under Claude Code's reading, compiled as command
    patterns."""
    from ..domains import skill as skill_domain

    prepared = plan.prepared()
    grant = parse_grant("Skill(x)")
    kept = [(a.entry, g) for a, g in zip(prepared.candidates(grant), prepared.grants(grant),
                                         strict=True)
            if skill_domain.inert_reason(g) is None]
    side = command_domain.compiled_side([g for _, g in kept], prepared.context(), grant.key)
    return tuple(e for e, _ in kept), side


def _looked_up(plan: CallPlan, entry: str, build: Callable[[Sequence[Grant]], T],
               member: Callable[[T, str], int | None], value: str) -> Found:
    """``member`` of ``value`` on the side ``build`` makes of the plan's candidates for
    ``entry``'s tool (kept with the plan): the approved entry it names, None, or ``OUTSIDE``
    when the lookup runs past its budget (the prover decides, within its own)."""
    entries, side = plan.kept((entry,), lambda: _side(plan, entry, build))
    try:
        found = member(side, value)
    except OverBudget:
        return OUTSIDE
    return None if found is None else entries[found]


def _side(plan: CallPlan, entry: str, build: Callable[[Sequence[Grant]], T]
          ) -> tuple[tuple[str, ...], T]:
    """A domain's member side of the plan's candidates for ``entry``'s tool."""
    prepared = plan.prepared()
    grant = parse_grant(entry)
    return (tuple(a.entry for a in prepared.candidates(grant)),
            build(prepared.grants(grant)))
