"""Each runtime's PreToolUse hook contract: how its payload names the call, and how a decision
is written back.

Facts (docs/call-gate.md cites them; Claude Code's are measured by the conformance suite):

============  ===========================================  ================================
dialect       payload                                      decision on standard output
============  ===========================================  ================================
claude-code   ``tool_name``, ``tool_input``, ``cwd``        ``hookSpecificOutput`` with
codex         (Codex adds ``turn_id``, ``model``)            ``permissionDecision`` and
vscode        (VS Code: camelCase ``hookEventName``)         ``permissionDecisionReason``
copilot-cli   ``toolName``, ``toolArgs`` (an object or a   ``permissionDecision``,
              JSON string), ``cwd``, ``sessionId``         ``permissionDecisionReason``
gemini-cli    ``hook_event_name: BeforeTool``, ``tool_*``  ``decision``, ``reason``
============  ===========================================  ================================

Every runtime blocks a call whose hook exits 2 (Codex only with a reason on standard error), so
a denial is the dialect's JSON, the reason on standard error, and exit status 2.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from ..grants import lone_surrogate
from ..limits import MAX_PAYLOAD_DEPTH
from ..records import NamedTuple

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final, Literal
    Decision = Literal["deny", "ask", "allow"]

DIALECTS: Final = ("claude-code", "copilot-cli", "codex", "vscode", "gemini-cli")
_EVENTS: Final = frozenset({"PreToolUse", "preToolUse", "BeforeTool"})
_GEMINI_EVENTS: Final = frozenset({"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent",
                                   "BeforeModel", "AfterModel", "BeforeToolSelection",
                                   "SessionStart", "SessionEnd", "PreCompress", "Notification"})


class PayloadError(ValueError):
    """The payload is not a PreToolUse call this gate can read; the message says why."""


class Call(NamedTuple):
    """One tool call as the hook payload gives it."""

    dialect: str
    tool: str
    tool_input: Mapping[str, object]
    cwd: str | None
    session: str | None
    #: the subagent making the call (Claude Code's ``agent_id``, else its ``agent_type``;
    #: Copilot CLI's ``agentId``, else its ``agentType``);
    #: None for the main agent's
    agent: str | None = None


def detect(payload: Mapping[str, object]) -> str:
    """The dialect a payload is written in, told by its field names."""
    if "toolName" in payload:
        return "copilot-cli"
    if payload.get("hook_event_name") in _GEMINI_EVENTS:
        return "gemini-cli"
    if "hookEventName" in payload:
        return "vscode"
    if "turn_id" in payload:
        return "codex"
    return "claude-code"


def read_call(payload: object, dialect: str) -> Call:
    """The call in ``payload``; PayloadError when it is not one."""
    if not isinstance(payload, dict):
        raise PayloadError(f"the payload is a JSON {_json_type(payload)}, not an object")
    if dialect == "auto":
        dialect = detect(payload)
    event = payload.get("hook_event_name", payload.get("hookEventName"))
    if event is not None and event not in _EVENTS:
        raise PayloadError(f"the hook was called for the event {str(event)[:80]!r}; skillgrant "
                           "hook answers PreToolUse only")
    camel = dialect == "copilot-cli" and "toolName" in payload
    tool = payload.get("toolName" if camel else "tool_name")
    if not isinstance(tool, str):
        raise PayloadError(f"the payload's tool name is a JSON {_json_type(tool)}, not a string")
    tool_input = payload.get("toolArgs" if camel else "tool_input", {})
    if isinstance(tool_input, str) and camel:
        try:
            tool_input = json.loads(tool_input)
        except RecursionError:
            raise PayloadError("the payload's toolArgs is nested too deeply") from None
        except ValueError as e:
            raise PayloadError(f"the payload's toolArgs is not JSON: {e}") from None
        if depth_over(tool_input, MAX_PAYLOAD_DEPTH - 1):
            raise PayloadError(f"the payload's toolArgs nests deeper than {MAX_PAYLOAD_DEPTH} "
                               "(MAX_PAYLOAD_DEPTH)")
    if not isinstance(tool_input, dict):
        raise PayloadError(f"the payload's tool input is a JSON {_json_type(tool_input)}, not "
                           "an object")
    cwd = _folder(payload.get("cwd"))
    session = payload.get("sessionId" if camel else "session_id")
    # Copilot CLI names a subagent's call `agentId`/`agentType` (measured, issue 33).
    agent = (payload.get("agentId") or payload.get("agentType")) if camel else (
        payload.get("agent_id") or payload.get("agent_type"))
    return Call(dialect, tool, tool_input, cwd,
                session if isinstance(session, str) else None,
                str(agent) if agent is not None and agent != "" else None)


def _folder(cwd: object) -> str | None:
    """The payload's ``cwd`` when it is a string; PayloadError when no folder is named so."""
    if not isinstance(cwd, str):
        return None
    if "\x00" in cwd or lone_surrogate(cwd) is not None:  # review K-0
        raise PayloadError(f"the payload's cwd {printable(cwd)[:200]!r} holds a NUL or a lone "
                           "surrogate, which no folder's name is")
    return cwd


def render(dialect: str, decision: Decision, reason: str) -> str:
    """The JSON a runtime reads as ``decision`` (one line, ASCII, no lone surrogates); kept for
    the last answers given (a service's calls repeat their denials: ``json.dumps`` each time
    was a few microseconds of a served call)."""
    if len(reason) > 2048:  # (kept small: a stream of long distinct reasons keeps nothing)
        return _render(dialect, decision, printable(reason))
    key = (dialect, decision, reason)
    found = _RENDERED.get(key)
    if found is None:
        if len(_RENDERED) >= 256:
            _RENDERED.clear()
        found = _RENDERED[key] = _render(dialect, decision, printable(reason))
    return found


_RENDERED: dict[tuple[str, str, str], str] = {}


def _render(dialect: str, decision: Decision, reason: str) -> str:
    if dialect == "gemini-cli":
        body: dict[str, object] = {"decision": decision, "reason": reason}
    elif dialect == "copilot-cli":
        body = {"permissionDecision": decision, "permissionDecisionReason": reason}
    else:
        body = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                       "permissionDecision": decision,
                                       "permissionDecisionReason": reason}}
    return json.dumps(body, ensure_ascii=True) + "\n"


def printable(text: str) -> str:
    """``text`` with each lone surrogate (a payload may carry one) replaced by U+FFFD: strict
    JSON readers, Codex's among them, refuse the escape of one. Every failure's answer passes
    through here, so it compiles nothing and cannot raise (review K-2)."""
    if lone_surrogate(text) is None:
        return text
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)


def depth_over(value: object, limit: int) -> bool:
    """Whether JSON data nests deeper than ``limit`` (counted without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return False


def supports(dialect: str, decision: Decision) -> bool:
    """Whether the runtime honours ``decision`` written as JSON: Codex reads neither a plain
    ``allow`` nor ``ask`` (it fails open on both). Copilot CLI is never answered ``allow``: it
    runs such a call without any approval, over even ``--deny-tool shell`` (measured on
    1.0.102), so inside the plan the gate defers instead."""
    if dialect == "copilot-cli":
        return decision != "allow"
    return not (dialect == "codex" and decision in ("allow", "ask"))


def no_decision(dialect: str) -> str:
    """What the hook prints when it defers to the runtime's own permissions: nothing, or for
    Copilot CLI one JSON object without a decision (it reads ``{}`` as no decision: the call
    runs when its rules pre-approve it, and is put to the person or refused otherwise,
    measured on 1.0.102), so that every answer is one JSON object."""
    return "{}\n" if dialect == "copilot-cli" else ""


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "boolean", int: "number", float: "number", str: "string", list: "array",
            dict: "object"}.get(type(value), type(value).__name__)
