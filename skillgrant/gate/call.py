"""``check_call``: one concrete tool call against the approved plan, the plan as a ceiling.

The call is judged with the prover's semantics, per domain: a shell command by what it would
run (``shell.analyse``), each simple command a member of an approved command grant; a path
against the path grants; a URL's host against ``domain:`` grants; an MCP tool by its name; an
agent by its type; a skill by its name; any other tool by its bare name. Anything the gate does
not understand is ``unknown``; only ``covered`` passes. docs/call-gate.md has the model.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence

from .. import vocabulary
from ..grants import lone_surrogate
from . import commands, judge
from .judge import Judged, Part
from .tools import Spec, argument, entry_tool, translate
from .verdict import CallPlan, CallVerdict, Finding, call_plan

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

    from ..plan.light import ApprovedPlan
    from ..plan.model import Plan

UNNORMALIZED = "tool-name-unnormalized"


def check_call(
    tool: str,
    tool_input: object,
    plan: Plan | ApprovedPlan | str | Sequence[str] | CallPlan,
    *,
    cwd: str | None = None,
    shell_tools: Mapping[str, object] | Sequence[str] | None = None,
    base_dirs: Mapping[str, str | None] | None = None,
    placeholders: Mapping[str, str] | None = None,
) -> CallVerdict:
    """Whether the call of ``tool`` with ``tool_input`` is inside the approved ``plan``.

    ``cwd`` is the session's working directory (relative paths and cwd-anchored path rules
    resolve from it). ``placeholders`` maps ``CLAUDE_SKILL_DIR`` (and ``CLAUDE_PROJECT_DIR``,
    ``CLAUDE_PLUGIN_ROOT``, ``CLAUDE_PLUGIN_DATA``) to the directory the runtime substitutes;
    a command grant holding a placeholder not given covers no concrete command. Raises
    PlanError when the plan is invalid; a malformed call is ``invalid``, never an exception.

    >>> check_call("Bash", {"command": "git status && rm -rf /"}, ["Bash(git *)"]).witness
    'rm -rf /'
    """
    approved = call_plan(plan, shell_tools=shell_tools, base_dirs=base_dirs,
                         placeholders=placeholders)
    approved.prepared()  # PlanError for an invalid plan, whatever the call
    if not isinstance(tool, str):
        return CallVerdict("invalid", f"the tool name is a {type(tool).__name__}, not a string",
                           repr(tool))
    if cwd is not None and not (cwd.startswith("/") if type(cwd) is str else posixpath.isabs(cwd)):
        cwd = None  # a relative working directory anchors nothing
    if cwd is not None and ("\x00" in cwd or lone_surrogate(cwd) is not None):  # review K-0
        return CallVerdict("unknown", f"the working directory {cwd!r} holds a NUL or a lone "
                           "surrogate, which no folder's name is", tool)
    if type(tool_input) is not dict and not isinstance(tool_input, Mapping):
        return CallVerdict("invalid", f"the tool input is a {type(tool_input).__name__}, not "
                           "an object", tool)
    spec = translate(tool, approved.shell_tools)
    if spec is None:
        return _untranslated(tool, approved, cwd)
    judged = _judge(spec, tool_input, approved, cwd)
    return _verdict(tool, spec.tool, judged, approved)


def _judge(spec: Spec, tool_input: Mapping[str, object], plan: CallPlan,
           cwd: str | None) -> Judged:
    if spec.domain == "shell":
        return commands.shell(spec, tool_input, plan, cwd)
    if spec.domain in ("read", "edit", "search"):
        return judge.path(spec, tool_input, plan, cwd)
    if spec.domain == "patch":
        return judge.patch(spec, tool_input, plan, cwd)
    if spec.domain == "web":
        return judge.web(spec, tool_input, plan, cwd)
    if spec.domain in ("agent", "skill"):
        name = argument(tool_input, spec.subject)
        if spec.domain == "agent" and tool_input.get("isolation", "worktree") != "worktree":
            return judge.outside("unknown", "the subagent would run with isolation "
                                 f"{tool_input.get('isolation')!r}: Claude Code runs a "
                                 "'remote' one in a cloud sandbox, where no hook of this "
                                 "machine judges its calls", name if isinstance(name, str)
                                 else None)
        judged = judge.named(spec, name, plan)
        if spec.domain == "skill" and judged.status == "covered" and "args" in tool_input:
            from . import skillargs  # only a Skill call with args loads it

            assert isinstance(name, str)
            return skillargs.judge(tool_input, name, plan, cwd, judged)
        return judged
    return judge.whole(spec.tool, plan)


def _verdict(runtime_tool: str, tool: str, judged: Judged, plan: CallPlan) -> CallVerdict:
    if judged.status != "covered":
        return CallVerdict(judged.status, judged.reason, runtime_tool, tool,
                           witness=judged.witness)
    covering = plan.all_as_written([p.covered_by for p in judged.parts
                                    if p.covered_by is not None])
    return _new_verdict(CallVerdict, ("covered", judged.reason, runtime_tool, tool, covering,
                                      None, ()))  # (``CallVerdict(…)``, at once: the hot path)


_new_verdict: Final = tuple.__new__


def _untranslated(tool: str, plan: CallPlan, cwd: str | None) -> CallVerdict:
    """A tool name the gate does not translate: an MCP tool by its name verbatim, another tool
    named exactly in the plan by its bare name; a case-insensitive match is never allowed."""
    if vocabulary.is_mcp(tool) or vocabulary.is_tool_name(tool):
        judged = judge.whole(tool, plan) if vocabulary.is_tool_name(tool) else None
        if judged is not None and judged.status == "covered" and _named_exactly(tool, plan):
            return _verdict(tool, tool, judged, plan)
    findings = _case_findings(tool, plan)
    reason = f"the tool {tool!r} is not in the plan"
    if findings:
        reason = findings[0].message
    return CallVerdict("not_covered", reason, tool, None, witness=tool, findings=findings)


def _named_exactly(tool: str, plan: CallPlan) -> bool:
    """Whether a covering entry spells the tool as the runtime does (MCP names are verbatim,
    and other names the runtime compares exactly)."""
    return vocabulary.is_mcp(tool) or any(entry_tool(entry) == tool for entry in plan.entries)


def _case_findings(tool: str, plan: CallPlan) -> tuple[Finding, ...]:
    if vocabulary.is_mcp(tool):
        return ()
    folded = tool.lower()
    for entry in plan.entries:
        name = entry_tool(entry) or ""
        if name == tool or name.lower() != folded:
            continue
        if vocabulary.canonical_name(name) == name or name in plan.shell_tools:
            side = (f"the runtime's name {tool!r} is not translated to {name!r}: the runtime "
                    "adapter is wrong")
        else:
            side = (f"the plan entry {entry!r} is not spelled as the runtime names the tool "
                    f"({tool!r}): the plan entry is wrong")
        return (Finding(UNNORMALIZED, f"{side}; names differing in case are never allowed"),)
    return ()


__all__ = ["CallVerdict", "Finding", "Part", "check_call"]
