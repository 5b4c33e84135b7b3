"""``suggest``: the narrowest plan, at a level of generalization, that covers every observed
call the gate understands.

1. Calls are grouped by what they are (tool, input, working directory): a distinct call is
   judged once, however often it was seen.
2. Each distinct call gets its candidate entries (``candidates``, at the level asked). A call
   whose part cannot be named at its level has none.
3. Calls asking for the same candidates are checked together: the candidates are made a plan
   and each call is judged against it with ``check_call``. Candidates that cover at least one
   of their calls go into the suggestion; the others are dropped. A call its own candidates
   do not cover asks again at the next narrower level, down to ``exact``.
4. Every distinct call is judged against the whole suggestion. Each covered call is listed
   under its own candidates (or, when they did not cover it alone, under the verdict's
   ``covered_by``); a call not covered is *not suggestible*, with the gate's status and reason.

The entries are sorted, so the same evidence gives the same plan, byte for byte. Adding calls
never takes a call out of the covered set: each call's candidates depend on it alone, the
suggestion only grows, and the gate covers no less under a larger plan. No entry is wider than
its level (``candidates``), and only ``--generalize tool`` writes a tool-wide one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..errors import PlanError, SkillgrantError
from ..limits import MAX_ENTRIES_PER_VALUE, MAX_FILE_BYTES
from .candidates import Unsuggestible, candidates
from .levels import LEVELS, Level
from .read import Evidence, Observed


class SuggestError(SkillgrantError, ValueError):
    """No plan can be suggested as asked (too many entries for a plan)."""


@dataclass
class Distinct:
    """One distinct call: where it was first seen, how often, and what the gate says of it
    under the suggestion."""

    call: Observed
    count: int = 1
    status: str = "unknown"
    reason: str = ""
    why: str | None = None  # why no candidate was made for it, when none was
    covered_by: tuple[str, ...] = ()
    asked: tuple[str, ...] = ()  # its candidates, when they covered it on their own


@dataclass
class Suggestion:
    """The suggested ``allowed-tools`` (sorted), the distinct calls each entry covers, and the
    calls not suggestible."""

    level: Level
    entries: list[str]
    covers: dict[str, list[Distinct]]
    not_suggestible: list[Distinct]
    calls: int
    distinct: int
    skipped: list[object] = field(default_factory=list)


def suggest(evidence: Evidence, level: Level = "command") -> Suggestion:
    """The suggestion for the calls in ``evidence`` at ``level``. Raises SuggestError when it
    would have more entries than a plan may hold.

    >>> from skillgrant.evidence.read import Evidence, Observed
    >>> calls = [Observed("log", i, "Bash", {"command": c}, "/w")
    ...          for i, c in enumerate(["git status -s", "git status", "eval x"])]
    >>> found = suggest(Evidence(calls))
    >>> found.entries, [d.call.line for d in found.not_suggestible]
    (['Bash(git status *)'], [2])
    """
    distinct = _distinct(evidence.calls)
    accepted = _accepted(distinct, level)
    if len(accepted) > MAX_ENTRIES_PER_VALUE:
        raise SuggestError(f"the suggestion has {len(accepted)} entries, over the "
                           f"{MAX_ENTRIES_PER_VALUE} a plan may hold (MAX_ENTRIES_PER_VALUE): "
                           "use a wider --generalize level, or less evidence at a time")
    size = sum(len(entry.encode("utf-8")) + 8 for entry in accepted)
    if size > MAX_FILE_BYTES:
        raise SuggestError(f"the suggestion's entries take {size:,} bytes, over the "
                           f"{MAX_FILE_BYTES:,} a plan file may hold (MAX_FILE_BYTES): use a "
                           "wider --generalize level, or less evidence at a time")
    ordered = sorted(accepted, key=_order)
    covers: dict[str, list[Distinct]] = {entry: [] for entry in ordered}
    outside: list[Distinct] = []
    plan = _plan(ordered)
    for item in distinct:
        verdict = _judge(item, plan)
        item.status, item.reason = verdict.status, verdict.reason
        item.covered_by = tuple(dict.fromkeys(verdict.covered_by))
        if verdict.status != "covered" or item.why is not None:
            # At --generalize tool a bare entry other calls asked for may cover a call the
            # gate does not understand: still listed, as no entry was made for it. Where no
            # entry was made on purpose, the listing says why, not what the plan lacks.
            if item.why is not None:
                item.reason = item.why
            outside.append(item)
            continue
        # Listed under its own candidates when they cover it (an Edit grant the gate names
        # first for a read does not hide the Read entry made for it), else under what covers.
        for entry in item.asked or item.covered_by:
            covers.setdefault(entry, []).append(item)
    return Suggestion(level, ordered, covers, outside, len(evidence.calls), len(distinct),
                      list(evidence.skipped))


def _accepted(distinct: list[Distinct], level: Level) -> set[str]:
    """The candidates that cover at least one of the calls asking for them (steps 2 and 3). A
    call its level's candidates do not cover (a directory entry the gate cannot bound, a group
    the runtime reads otherwise) asks again at each narrower level, down to ``exact``: a call
    a narrower level covers, a wider one covers too."""
    accepted: set[str] = set()
    pending = distinct
    for step in _steps(level):
        groups: dict[tuple[str, ...], list[Distinct]] = {}
        again: list[Distinct] = []
        for item in pending:
            try:
                found = candidates(item.call, step)
            except Unsuggestible as e:
                item.why = str(e)
                again.append(item)
                continue
            item.why = None
            groups.setdefault(found, []).append(item)
        for entries, members in groups.items():
            try:
                own = _plan(list(entries))
            except PlanError:
                again.extend(members)
                continue
            covered = [m for m in members if _judge(m, own).status == "covered"]
            for member in covered:
                member.asked = entries
            again.extend(m for m in members if not m.asked)
            if covered:
                accepted.update(entries)
        pending = again
    return accepted


def _steps(level: Level) -> tuple[Level, ...]:
    """``level``, then the narrower ones a call falls back to (``tool`` has none: a bare tool
    that does not cover a call is a call the gate does not understand)."""
    if level == "tool":
        return ("tool",)
    return LEVELS[LEVELS.index(level)::-1]


def _distinct(calls: Iterable[Observed]) -> list[Distinct]:
    seen: dict[str, Distinct] = {}
    for call in calls:
        key = call.key()
        found = seen.get(key)
        if found is None:
            seen[key] = Distinct(call)
        else:
            found.count += 1
    return list(seen.values())


def _plan(entries: list[str]) -> object:
    from ..gate.verdict import call_plan

    return call_plan(entries)


def _judge(item: Distinct, plan: object) -> _Verdict:
    """``check_call`` for one distinct call; a plan the prover refuses covers nothing."""
    from ..gate.call import check_call

    call = item.call
    try:
        verdict = check_call(call.tool, call.tool_input, plan,  # type: ignore[arg-type]
                             cwd=call.cwd)
    except PlanError as e:
        return _Verdict("unknown", f"the candidate entries are not a valid plan: {e}", ())
    except OSError as e:  # a link the gate cannot read (/proc/1/cwd): not judged, not covered
        return _Verdict("unknown", f"a path of the call cannot be resolved: {e}", ())
    return _Verdict(verdict.status, verdict.reason, verdict.covered_by)


@dataclass(frozen=True)
class _Verdict:
    status: str
    reason: str
    covered_by: tuple[str, ...]


def _order(entry: str) -> tuple[str, str]:
    return (entry.split("(", 1)[0], entry)
