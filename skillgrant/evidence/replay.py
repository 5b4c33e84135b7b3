"""``replay``: every logged call decided again under a new plan, and what changed.

Each distinct call (tool, input, working directory) is decided with ``check_call`` under the
new plan, as the gate reads it (``gate.hook.load_plan``), and compared with its decision
before: under the old plan when one is given (``--against``), else the status the audit log
recorded for it. A call is *allowed* when its status is ``covered``; anything else is denied.
A call allowed before and denied now is *now denied*; one denied before and allowed now is
*now allowed*. Counts are of calls as logged (a call seen 3 times counts 3).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import SkillgrantError
from .read import Evidence, Observed, Skipped


class ReplayError(SkillgrantError, ValueError):
    """The calls cannot be compared as asked (no decision before to compare with)."""


@dataclass
class Change:
    """One distinct call whose decision changed: where it was first seen, how often, its
    status before and now, and the gate's reason now."""

    call: Observed
    count: int
    before: str
    after: str
    reason: str
    covered_by: tuple[str, ...] = ()


@dataclass
class Replay:
    """What replaying the evidence under ``plan`` (against ``against``, or the log) found."""

    plan: str
    against: str | None
    calls: int = 0
    distinct: int = 0
    now_denied: list[Change] = field(default_factory=list)
    now_allowed: list[Change] = field(default_factory=list)
    unchanged: int = 0
    skipped: list[Skipped] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.now_denied or self.now_allowed)

    def count(self, changes: list[Change]) -> int:
        """The calls (as logged) of ``changes``."""
        return sum(c.count for c in changes)


def replay(evidence: Evidence, plan: str, against: str | None = None, *,
           plan_kind: str = "auto") -> Replay:
    """Decide every call of ``evidence`` under the plan file ``plan`` and compare. Raises
    PlanError for a plan that does not load, ReplayError when a call has no logged decision
    and no ``against`` plan is given."""
    from ..gate.hook import load_plan

    new = load_plan(plan, plan_kind, {})
    old = load_plan(against, plan_kind, {}) if against is not None else None
    result = Replay(plan, against, calls=len(evidence.calls), skipped=list(evidence.skipped))
    seen: dict[str, tuple[Observed, list[int]]] = {}
    for call in evidence.calls:
        if old is None and call.logged is None:
            raise ReplayError(f"{call.where}: the call has no logged decision to compare with "
                              "(a transcript, not an audit log): give --against OLD")
        key = call.key() + "\x00" + str(call.logged if old is None else "")
        found = seen.setdefault(key, (call, [0]))
        found[1][0] += 1
    result.distinct = len(seen)
    for call, (count,) in seen.values():
        now = _decide(call, new.plan)
        before = _decide(call, old.plan)[0] if old is not None else str(call.logged)
        change = Change(call, count, before, now[0], now[1], now[2])
        if (before == "covered") == (now[0] == "covered"):
            result.unchanged += count
        elif now[0] == "covered":
            result.now_allowed.append(change)
        else:
            result.now_denied.append(change)
    return result


def _decide(call: Observed, plan: object) -> tuple[str, str, tuple[str, ...]]:
    from ..gate.call import check_call

    verdict = check_call(call.tool, call.tool_input, plan,  # type: ignore[arg-type]
                         cwd=call.cwd)
    return verdict.status, verdict.reason, verdict.covered_by
