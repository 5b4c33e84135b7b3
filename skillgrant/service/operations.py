"""What each endpoint does, as plain functions of the served plans and a request model: the
library's own calls (``check_call``, ``prove``, ``constrain``, ``apply_to_text``,
``lint_entries``, ``diff_entries``) with their answers as response models. They run in the
service's worker threads, bounded by its handler timeout (app.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..errors import SkillgrantError
from . import models as m

if TYPE_CHECKING:
    from ..gate.verdict import CallPlan
    from ..plan.light import ApprovedPlan
    from ..plan.model import Plan
    from ..verdicts import Decision, Verdict
    from .plans import Plans


class NotServed(SkillgrantError, LookupError):
    """A request named a plan the service does not serve."""


def served_plan(plans: Plans, name: str) -> ApprovedPlan | Plan:
    found = plans.get(name)
    if found is None:
        raise NotServed(f"no plan named {name!r} is served (served: "
                        f"{', '.join(p.spec.name for p in plans.served())})")
    return found.plan


def approved_plan(plans: Plans, choice: m.PlanChoice) -> ApprovedPlan | Plan:
    """The plan a request names: a served one, or its own entries. Raises PlanError."""
    if choice.plan is not None:
        return served_plan(plans, choice.plan)
    from ..plan.model import Plan

    assert choice.approved is not None  # the model checks exactly one is given
    return Plan.from_entries(choice.approved, shell_tools=choice.shell_tools,
                             base_dirs=choice.base_dirs, source="<request>")


def check_call(plans: Plans, request: m.CheckCallRequest) -> m.CallVerdictModel:
    from ..gate.call import check_call as check

    plan: ApprovedPlan | Plan | CallPlan
    served = plans.get(request.plan) if request.plan is not None else None
    # A served plan's gate plan is prepared once and kept (placeholders substituted).
    plan = served.loaded.plan if served is not None else approved_plan(plans, request)
    verdict = check(request.tool, request.tool_input, plan, cwd=request.cwd)
    return m.CallVerdictModel(
        status=verdict.status, covered=verdict.covered, reason=verdict.reason,
        runtime_tool=verdict.runtime_tool, tool=verdict.tool,
        covered_by=list(verdict.covered_by), witness=verdict.witness,
        findings=[m.FindingModel(rule=f.rule, message=f.message) for f in verdict.findings])


def prove(plans: Plans, request: m.ProveRequest) -> m.VerdictModel:
    from ..prover import prove as prove_entry

    plan = approved_plan(plans, request)
    return verdict_model(prove_entry(request.grant, plan.allowed_tools,
                                     **plan.constrain_kwargs()))


def constrain(plans: Plans, request: m.ConstrainRequest) -> m.DecisionModel:
    from ..prover import constrain as constrain_value

    plan = approved_plan(plans, request)
    return decision_model(constrain_value(request.submitted, plan.allowed_tools,
                                          source="<request>", **plan.constrain_kwargs()))


def apply(plans: Plans, request: m.ApplyRequest) -> m.ApplyResponse:
    from ..skillfile.builder import apply_to_text

    # Typed for a Plan, apply_to_text reads no more of it than the light plan has.
    plan = cast("Plan", approved_plan(plans, request))
    text, decision = apply_to_text(request.text, plan, path=request.path or "<request>")
    return m.ApplyResponse(text=text, changed=text != request.text,
                           decision=decision_model(decision))


def lint(plans: Plans, request: m.LintRequest) -> m.LintResponse:
    from ..review.lint import lint_entries

    if request.plan is not None:
        plan = served_plan(plans, request.plan)
        entries: m.Entries = list(plan.allowed_tools)
        shell_tools: dict[str, Any] | list[str] | None = list(
            getattr(plan, "shell_tools", None) or {}) or None
    else:
        assert request.entries is not None
        entries, shell_tools = request.entries, request.shell_tools
    found = lint_entries(entries, shell_tools=shell_tools)
    return m.LintResponse(findings=[m.LintFindingModel(
        rule=f.rule_id, name=f.name, severity=f.severity, category=f.category, entry=f.entry,
        index=f.index, message=f.message, hint=f.hint, example=f.example,
        replacement=f.replacement) for f in found])


def diff(plans: Plans, request: m.DiffRequest) -> m.DiffResponse:
    from ..review.lint import diff_entries

    result = diff_entries(request.old, request.new, shell_tools=request.shell_tools,
                          base_dirs=request.base_dirs)
    return m.DiffResponse(escalates=result.escalates, grants=[m.DiffEntryModel(
        kind=e.kind, escalates=e.escalates, entry=e.entry,
        side="old" if e.kind == "removed" else "new", index=e.index, old=e.old,
        verdict=verdict_model(e.verdict)) for e in result.entries])


def health(plans: Plans, version: str) -> m.HealthResponse:
    return m.HealthResponse(status="ok", version=version, plans=[m.PlanHealth(
        name=p.spec.name, path=p.spec.path, digest=p.digest, entries=len(p.loaded.allowed_tools),
        loaded_at=p.loaded_at, reload_error=plans.errors.get(p.spec.name))
        for p in plans.served()])


def verdict_model(verdict: Verdict) -> m.VerdictModel:
    return m.VerdictModel(
        entry=verdict.entry, status=verdict.status, covered=verdict.covered,
        reason=verdict.reason, covered_by=verdict.covered_by,
        also_covered_by=list(verdict.also_covered_by), witness=verdict.witness,
        written=verdict.written, duplicate=verdict.duplicate)


def decision_model(decision: Decision) -> m.DecisionModel:
    return m.DecisionModel(allowed=list(decision.allowed), restored=decision.restored,
                           verdicts=[verdict_model(v) for v in decision.verdicts])
