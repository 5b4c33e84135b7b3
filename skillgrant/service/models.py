"""The service's request and response bodies (pydantic), as ``/openapi.json`` documents them.

A request names the approved plan one of two ways: ``plan``, the name of a plan the service
serves, or ``approved``, the entries themselves (with ``shell_tools`` and ``base_dirs`` as a
plan file gives them). Exactly one. Responses carry the same fields as the library's answers
(``Verdict``, ``Decision``, ``CallVerdict``) and the CLI's JSON documents.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Entries = list[str] | str


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlanChoice(_Strict):
    plan: str | None = Field(None, description="The name of a plan this service serves.")
    approved: Entries | None = Field(None, description="Approved allowed-tools entries, "
                                     "instead of a served plan.")
    shell_tools: dict[str, Any] | list[str] | None = Field(
        None, description="With approved: the plan's shell-tools.")
    base_dirs: dict[str, str | None] | None = Field(
        None, description="With approved: the plan's base-dirs.")

    @model_validator(mode="after")
    def _one_plan(self) -> PlanChoice:
        if (self.plan is None) == (self.approved is None):
            raise ValueError("give exactly one of plan (a served plan's name) and approved "
                             "(the entries)")
        if self.plan is not None and (self.shell_tools is not None
                                      or self.base_dirs is not None):
            raise ValueError("shell_tools and base_dirs go with approved; a served plan has "
                             "its own")
        return self


class CheckCallRequest(PlanChoice):
    tool: str = Field(description="The tool's name as the runtime calls it.")
    tool_input: dict[str, Any] = Field(description="The call's input, as the runtime gives it.")
    cwd: str | None = Field(None, description="The session's working directory (absolute).")


class FindingModel(_Strict):
    rule: str
    message: str


class CallVerdictModel(_Strict):
    status: Literal["covered", "not_covered", "unknown", "invalid"]
    covered: bool
    reason: str
    runtime_tool: str
    tool: str | None
    covered_by: list[str]
    witness: str | None
    findings: list[FindingModel]


class ProveRequest(PlanChoice):
    grant: str = Field(description="One submitted allowed-tools entry.")


class VerdictModel(_Strict):
    entry: str
    status: Literal["covered", "not_covered", "unknown", "invalid", "inert", "ambiguous"]
    covered: bool
    reason: str
    covered_by: str | None
    also_covered_by: list[str]
    witness: str | None
    written: str | None
    duplicate: bool


class ConstrainRequest(PlanChoice):
    submitted: Entries = Field(description="The submitted allowed-tools value.")


class DecisionModel(_Strict):
    allowed: list[str]
    restored: bool
    verdicts: list[VerdictModel]


class ApplyRequest(PlanChoice):
    text: str = Field(description="A SKILL.md's text.")
    path: str | None = Field(None, description="The file's name, for messages only: the "
                             "service never reads or writes files.")


class ApplyResponse(_Strict):
    text: str
    changed: bool
    decision: DecisionModel


class LintRequest(_Strict):
    plan: str | None = Field(None, description="The name of a plan this service serves.")
    entries: Entries | None = Field(None, description="Entries to review, instead of a plan.")
    shell_tools: dict[str, Any] | list[str] | None = None

    @model_validator(mode="after")
    def _one_source(self) -> LintRequest:
        if (self.plan is None) == (self.entries is None):
            raise ValueError("give exactly one of plan and entries")
        return self


class LintFindingModel(_Strict):
    rule: str
    name: str
    severity: Literal["error", "warning", "info"]
    category: str
    entry: str
    index: int | None
    message: str
    hint: str
    example: str | None
    replacement: str | None


class LintResponse(_Strict):
    findings: list[LintFindingModel]


class DiffRequest(_Strict):
    old: Entries = Field(description="The grant list before (judged as the approved plan).")
    new: Entries = Field(description="The grant list after.")
    shell_tools: dict[str, Any] | list[str] | None = None
    base_dirs: dict[str, str | None] | None = None


class DiffEntryModel(_Strict):
    kind: str
    escalates: bool
    entry: str
    side: Literal["old", "new"]
    index: int
    old: str | None
    verdict: VerdictModel


class DiffResponse(_Strict):
    escalates: bool
    grants: list[DiffEntryModel]


class PlanHealth(_Strict):
    name: str
    path: str
    digest: str
    entries: int
    loaded_at: float
    reload_error: str | None


class HealthResponse(_Strict):
    status: Literal["ok"]
    version: str
    plans: list[PlanHealth]


class ErrorBody(_Strict):
    code: str
    message: str


class ErrorResponse(_Strict):
    error: ErrorBody


class SessionRequest(_Strict):
    session_id: str = Field(description="The SessionStart payload's session_id.")
    environment: dict[str, str | None] = Field(
        description="npm_config_prefix, npm_config_globalconfig, npm_config_userconfig in "
                    "any case, PREFIX and DESTDIR, as the session has them: each value, or "
                    "null when unset.")
    source: str | None = Field(None, description="The payload's source (startup, resume, "
                               "clear, compact): logged.")


class SessionResponse(_Strict):
    session_id: str
    outcome: Literal["registered", "same"]
