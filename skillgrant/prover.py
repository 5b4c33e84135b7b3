"""``prove()`` and ``constrain()`` (semantics §1, §5, §10): entries in, verdicts with evidence out.

The order of checks for a submitted entry is the order of the statuses' strength: an entry that
is not text we can read is ``invalid``, one the runtime would cut differently is ``ambiguous``,
one past a limit is ``unknown``, one that grants nothing is ``inert``; only then does a domain
decide. Anything that goes wrong inside a domain is ``unknown``: fail closed.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final

from . import combined, vocabulary
from .domains.base import Budget, Context, NoFreeFiller, Outcome, OverBudget
from .domains.command import COVERED
from .domains.commandpattern import PLAIN_CONTENT
from .domains.cover import MATCHED_CHARS, Alternation
from .domains.registry import rules_for
from .domains.witness import plain_certain
from .errors import AllowedToolsError, GrantSyntaxError
from .grants import Grant, parse_grant, split_allowed_tools
from .limits import (
    MAX_ENTRIES_PER_VALUE,
    MAX_ENTRY_LENGTH,
    MAX_WILDCARDS_PER_PATTERN,
    MAX_WORK_PER_DECISION,
    MAX_WORK_PER_VALUE,
)
from .log import heard, library_logger
from .log import loaded as log_loaded
from .prepared import PlainTool, PreparedPlan, plan_for
from .runtimes import Profile, entry_verdict, profiles
from .screening import check_approved_entry as check_approved_entry
from .screening import inert_reason, runtime_inert_reason, screen
from .verdicts import Decision, Verdict


def _decide(entry: str, plan: PreparedPlan, value_budget: Budget | None = None) -> Verdict:
    remembered = plan.remembered.get(entry)
    if remembered is not None:
        # The same entry against the same plan: the same verdict, and the same work charged to
        # the value's budget. Charging it all at once stops exactly where the decision would
        # have stopped, since a decision's work does not depend on the budget left.
        verdict, units = remembered
        if units and value_budget is not None:
            try:
                value_budget.charge(units)
            except OverBudget as e:
                return Verdict(entry, "unknown", f"the decision was stopped: {e}")
        return verdict
    if plan.profile is not None and plan.profile.entry_reading is not None:
        # A runtime whose language no domain has reads the entry whole, against the plan's
        # entries as written (a canonical spelling may read otherwise there): a function of
        # the entry and the plan alone, which charges no work.
        whole = entry_verdict(plan.profile, entry, [a.entry for a in plan.entries])
        if whole is not None:
            plan.remember_cheap(entry, (whole, 0))
            return whole
    plain = _decide_plain(entry, plan, value_budget)
    if plain is not None:
        plan.remember_cheap(entry, plain)
        return plain[0]
    # The work passed on to the value's budget is counted apart, so that a decision stopped by
    # its own limit (not the value's) is remembered with the work it charged the value.
    passed_on = Budget(limit=sys.maxsize, parent=value_budget, name="")
    verdict, final = _decide_once(entry, plan, passed_on)
    if final:
        plan.remember(entry, verdict, passed_on.spent)
    return verdict


#: An entry of a tool name and a plain content (``commandpattern.PLAIN_CONTENT``).
_PLAIN_ENTRY: Final = re.compile(rf"({vocabulary.TOOL_NAME_PATTERN})\(({PLAIN_CONTENT})\)")


def _decide_plain(entry: str, plan: PreparedPlan,
                  value_budget: Budget | None) -> tuple[Verdict, int] | None:
    """The verdict on a grant with a plain content, and the work it charged, in a few C-level
    steps (``decide_plain`` of the command and generic domains): what ``_decide_once`` would
    answer, or None when it must answer. Such an entry is screened whole, parses as written
    and is not inert; tests/test_compiled_plan.py compares the two paths."""
    matched = _PLAIN_ENTRY.fullmatch(entry)
    if matched is None:
        return None
    name, content = matched.groups()
    tool = plan.plain_tools.get(name) or plan.plain_tool(name)
    if tool is None or (tool.whole is not None and tool.whole(content)):
        return None
    room = MAX_WORK_PER_DECISION if value_budget is None else min(MAX_WORK_PER_DECISION,
                                                                  value_budget.room())
    literal = tool.literal
    if literal is not None and "*" not in content and len(entry) <= MATCHED_CHARS:
        found = _literal(entry, content, tool, literal, room, value_budget)
        if found is not None:
            return found
    if (content == "*" or len(entry) > MAX_ENTRY_LENGTH
            or content.count("*") > MAX_WILDCARDS_PER_PATTERN):
        return None
    try:
        decided = tool.decide(content, tool.side, room)
    except Exception:  # the general path decides, and fails closed
        return None
    if decided is None:
        return None
    outcome, units = decided
    if outcome.covered_by is None:
        return _outside(entry, outcome, units, value_budget)
    return _covered(entry, content, tool, outcome.covered_by, units, value_budget,
                    outcome.reason, outcome.also)


def _literal(entry: str, content: str, tool: PlainTool, literal: tuple[Alternation, int, bool],
             room: int, value_budget: Budget | None) -> tuple[Verdict, int] | None:
    """The usual command: one fullmatch of the tool's languages (``literal_matcher``); the
    content is at most ``MATCHED_CHARS`` long, as ``Alternation.counted`` needs."""
    alternation, units, refutable = literal
    covered_by, scanned = alternation.counted(content)
    units += scanned
    if units > room:
        return None
    if covered_by is not None:  # _covered's verdict, made here: the most common decision
        if units and value_budget is not None:
            value_budget.charge(units)
        return _new_verdict(Verdict, (entry, "covered", COVERED, tool.entries[covered_by], None,
                                      f"{tool.written[covered_by]}({content})", (), False)), units
    if refutable:
        return _outside(entry, plain_certain(content), units, value_budget)
    return None


def _outside(entry: str, outcome: Outcome, units: int,
             value_budget: Budget | None) -> tuple[Verdict, int]:
    """The plain path's verdict on an entry no approved grant covers, its work charged to the
    value (within its room)."""
    if units and value_budget is not None:
        value_budget.charge(units)
    return _new_verdict(Verdict, (entry, outcome.status, outcome.reason, None, outcome.witness,
                                  None, (), False)), units


def _covered(entry: str, content: str, tool: PlainTool, covered_by: int, units: int,
             value_budget: Budget | None, reason: str = COVERED,
             also: tuple[int, ...] = ()) -> tuple[Verdict, int]:
    """The plain path's ``covered`` verdict, its work charged to the value (within its room)."""
    if units and value_budget is not None:
        value_budget.charge(units)
    entries = tool.entries
    # Made as a tuple, without the named tuple's Python-level constructor: the hot path.
    return _new_verdict(Verdict, (
        entry, "covered", reason, entries[covered_by], None,
        f"{tool.written[covered_by]}({content})",
        tuple([entries[i] for i in also]) if also else (), False)), units


_new_verdict: Final = tuple.__new__


def _decide_once(entry: str, plan: PreparedPlan, value_budget: Budget) -> tuple[Verdict, bool]:
    """The verdict, and whether it depends on the entry and the plan alone (not on how much of
    the value's budget was left, nor on a failure)."""
    text, problem = screen(entry)
    if problem is not None:
        return Verdict(entry, problem[0], f"the entry is {problem[0]}: {problem[1]}"), True
    try:
        grant = parse_grant(text)
    except GrantSyntaxError as e:
        return Verdict(entry, "invalid", str(e)), True
    inert = inert_reason(grant) or runtime_inert_reason(text, grant, plan.profile)
    if inert is not None:
        return Verdict(entry, "inert", inert), True
    candidates = plan.candidates(grant)
    context = plan.context(value_budget)
    try:
        outcome = _dispatch(grant, plan.grants(grant), context)
    except OverBudget as e:
        own = context.budget.spent > context.budget.limit  # not the value's limit
        return Verdict(entry, "unknown", f"the decision was stopped: {e}"), own
    except NoFreeFiller as e:  # depends on the entry and the plan alone
        return Verdict(entry, "unknown", f"not decided: {e}, so no generic instance can be "
                       "built; not kept"), True
    except RecursionError:
        return Verdict(entry, "unknown", "the decision was stopped: too deeply nested"), False
    except Exception as e:  # fail closed (semantics §1.1): a crash never keeps a grant
        if log_loaded():  # rare: made whenever anything could listen
            library_logger().error("prover failure on %r", entry, exc_info=True)
        return Verdict(entry, "unknown",
                       f"the prover failed ({type(e).__name__}); not kept"), False
    if outcome.status != "covered" or outcome.covered_by is None:
        return Verdict(entry, outcome.status,
                       plan.bare_alone_note(grant, outcome.reason, outcome.witness),
                       witness=outcome.witness), True
    cover = candidates[outcome.covered_by]
    return Verdict(
        entry,
        "covered",
        outcome.reason,
        covered_by=cover.entry,
        written=str(plan.spelled(grant, cover.grant)),
        also_covered_by=tuple(candidates[i].entry for i in outcome.also),
    ), True


def _dispatch(grant: Grant, approved: list[Grant], context: Context) -> Outcome:
    profile = context.profile
    assert profile is None or isinstance(profile, Profile)
    return rules_for(grant.key, context.shell_tools, profile).decide(grant, approved, context)


#: A runtime selection: a profile name, comma-separated names, a sequence of names, or None
#: (``runtimes.DEFAULT_RUNTIMES``: every runtime that reads ``allowed-tools``).
Runtimes = str | Sequence[str] | None


def _combined(verdicts: Sequence[Verdict], readings: Sequence[Profile],
              again: Callable[[str], Sequence[Verdict]] | None) -> Verdict:
    """One verdict from each runtime's (semantics §1 under several runtimes): an entry is kept
    only when, under each runtime, it grants nothing or is covered, and is covered under one.
    A drop is the first runtime's that refuses it, named when there are several. ``again``
    decides another entry under every runtime: the spelling a kept entry is written with is
    checked the same way when it is not the entry itself, and where some runtime reads it
    otherwise the entry is kept as the file spells it (covered or inert under each)."""
    if len(verdicts) == 1:
        return verdicts[0]
    for verdict, profile in zip(verdicts, readings, strict=True):
        if verdict.status not in ("covered", "inert"):
            return verdict._replace(reason=f"under {profile.title}: {verdict.reason}")
    covered = next((v for v in verdicts if v.status == "covered"), None)
    if covered is None:
        return verdicts[0]
    written = covered.written or covered.entry
    if written != covered.entry and again is not None:
        checked = _combined(again(written), readings, None)
        if checked.status not in ("covered", "inert"):  # (the entry's own spelling is,
            return covered._replace(written=None)  # under each: `Bash(*)`, s52-freview R1)
    return covered


def prove(
    entry: str,
    approved: str | Sequence[str],
    *,
    shell_tools: Mapping[str, object] | Iterable[str] | None = None,
    base_dirs: Mapping[str, str | None] | None = None,
    runtime: Runtimes = None,
) -> Verdict:
    """Decide whether one submitted entry is covered by the approved entries (semantics §1, §10),
    under each runtime ``runtime`` names (``runtimes.profiles``; default: every runtime that
    reads ``allowed-tools``).

    Raises PlanError when an approved entry is invalid or a runtime is unknown; a submitted
    entry that is invalid, ambiguous, inert, over a limit or not covered is a Verdict, never an
    exception.

    >>> prove("Bash(gh pr list)", ["Bash(gh *)"]).covered_by
    'Bash(gh *)'
    """
    if not isinstance(entry, str):
        raise AllowedToolsError(f"an entry must be a string, not {type(entry).__name__}")
    readings = profiles(runtime)
    plans = [plan_for(approved, shell_tools, base_dirs, p) for p in readings]

    def each(text: str) -> list[Verdict]:
        return [_decide(text, plan) for plan in plans]

    return _combined(each(entry), readings, each)


def prove_prepared(entry: str, plan: PreparedPlan) -> Verdict:
    """``prove`` against a plan prepared once (``prepared.plan_for``), for callers that decide
    many entries against one plan (the call gate)."""
    return _decide(entry, plan)


def constrain(
    submitted: str | Sequence[str],
    approved: str | Sequence[str],
    *,
    shell_tools: Mapping[str, object] | Iterable[str] | None = None,
    base_dirs: Mapping[str, str | None] | None = None,
    source: str | None = None,
    runtime: Runtimes = None,
) -> Decision:
    """Keep the submitted entries the approved ones cover; drop the rest with evidence (semantics
    §5).

    Each entry is judged under each runtime ``runtime`` names (as ``prove``). Kept entries keep
    their order and take their canonical spelling; duplicates collapse. When nothing survives,
    the approved entries are restored as the plan writes them; when nothing is approved, nothing
    is kept. Every drop and restore is logged on the ``skillgrant`` logger, tagged with
    ``source``. Raises PlanError when an approved entry is invalid or a runtime is unknown.

    >>> constrain(["Bash(gh pr list)", "Bash(rm -rf /)"], ["Bash(gh *)"]).allowed
    ['Bash(gh pr list)']
    """
    readings = profiles(runtime)
    plans = [plan_for(approved, shell_tools, base_dirs, p) for p in readings]
    plan = plans[0]
    entries = split_allowed_tools(submitted)
    if len(entries) > MAX_ENTRIES_PER_VALUE:
        reason = (f"the value has {len(entries)} entries, over the limit of "
                  f"{MAX_ENTRIES_PER_VALUE} (MAX_ENTRIES_PER_VALUE); rejected whole")
        verdicts = [Verdict(e, "unknown", reason) for e in entries]
    else:
        verdicts = _decide_value(entries, plans, readings)
    allowed: list[str] = []
    kept: list[Verdict] = []
    dropped: list[Verdict] = []
    for i, verdict in enumerate(verdicts):
        if verdict.status != "covered":
            dropped.append(verdict)
        elif (verdict.written or verdict.entry) in allowed:
            verdicts[i] = verdict._replace(duplicate=True)
        else:
            allowed.append(verdict.written or verdict.entry)
            kept.append(verdict)
    restored = not allowed and bool(plan.entries)
    if restored:
        allowed = _restored(plans)
    if (dropped or restored) and heard():  # asked once a value, not once a record
        for verdict in dropped:
            _log_drop(verdict, source)
        if restored:
            _log_restore(source, "nothing submitted was covered" if entries
                         else "the submitted allowed-tools was empty", allowed)
    return Decision(allowed, kept, dropped, restored, verdicts)


def _decide_value(entries: list[str], plans: Sequence[PreparedPlan],
                  readings: Sequence[Profile]) -> list[Verdict]:
    """Each entry's verdict under every runtime, combined (``_combined``)."""
    # One budget for the whole value (MAX_WORK_PER_VALUE) under each runtime, and each
    # distinct entry decided once: a value of many copies of one hostile entry costs one
    # decision.
    budgets = [Budget(limit=MAX_WORK_PER_VALUE, name="MAX_WORK_PER_VALUE") for _ in plans]
    asked: list[str] = []  # the texts each() decided for one entry (``combined.verdict``)

    def each(text: str) -> list[Verdict]:
        asked.append(text)
        return [_decide(text, p, b) for p, b in zip(plans, budgets, strict=True)]

    def combine(text: str) -> Verdict:
        return _combined(each(text), readings, each)

    kept = combined.kept_for(plans, readings)
    # A kept verdict that charged no work is ``combined.verdict``'s answer while no budget
    # is past its limit (``fits``; the budgets have no parent, and only ``combined.verdict``
    # charges them): taken here without its call.
    free, fits = (0,) * len(plans), True
    decided: dict[str, Verdict] = {}
    verdicts = []
    for e in entries:
        verdict = decided.get(e)
        if verdict is None:  # a copy is decided once; each position has its verdict
            found = None if kept is None else kept.get(e)
            if found is not None and fits and found[1] == free:
                verdict = found[0]
            else:
                verdict = combined.verdict(kept, e, plans, budgets, asked, combine)
                fits = all(budget.spent <= budget.limit for budget in budgets)
            decided[e] = verdict
        verdicts.append(verdict)
    return verdicts


def _restored(plans: Sequence[PreparedPlan]) -> list[str]:
    """The approved entries a restore writes: as the plan writes them, duplicates collapsed.
    A canonical spelling is read more widely by some runtime (review s52-freview R1: the plan's
    ``Bash(*)`` is nothing to Copilot CLI, the canonical ``Bash`` every command there), and
    the plan's own spelling is, under each runtime, exactly what was approved."""
    return list(dict.fromkeys(a.entry for a in plans[0].entries))


def _log_restore(source: str | None, reason: str, allowed: list[str]) -> None:
    """The record of a restore (one per file at most), made when ``heard`` says anything
    could listen (``constrain`` asks)."""
    library_logger().warning("restored the approved allowed-tools: %s", reason, extra={
        "skillgrant": {"file": source, "event": "restored", "entry": ", ".join(allowed),
                       "status": "restored",
                       "reason": f"{reason}; the approved entries were restored",
                       "witness": None, "allowed": allowed}})


def _log_drop(verdict: Verdict, source: str | None) -> None:
    library_logger().warning("dropped %s: %s", verdict.entry, verdict.reason, extra={
        "skillgrant": {"file": source, "event": "dropped", "entry": verdict.entry,
                       "status": verdict.status, "reason": verdict.reason,
                       "witness": verdict.witness}})
