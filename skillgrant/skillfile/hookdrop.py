"""Whether Claude Code 2.1.332 loads a skill with no hooks at all, whatever its ``hooks`` key
says: ``apply --enforce`` must not write its ceiling hook into such a frontmatter (review
s45-freview F5), for the hook would never run.

The runtime's test, read from the JavaScript embedded in the binary (``w3i``, for a skill;
``bwe``, ``pe``, ``Prt``, ``Zje``; ``FV``, ``Oc`` and ``BZn`` its sets): "PreToolUse/
PermissionRequest is declared at the frontmatter top level, outside "hooks" ... (the skill
loads with no hooks and no allowed-tools)". A key of ``FV`` holding something at the top
level, or a key other than ``hooks`` and ``BZn``'s whose value holds (three levels down) such a
key or a hook matcher, drops every hook. ``declares_hooks_outside`` is that test, line for line
(tests/test_s45_ffix.py compares it with the runtime's own functions, run by Bun).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

#: The keys whose presence outside ``hooks`` drops the skill's hooks (``FV``).
_DROPPING: Final = frozenset(("PreToolUse", "PermissionRequest", "PreSkillShellCommand"))
#: Top-level keys the runtime does not scan (``BZn``), at any depth.
_UNSCANNED: Final = frozenset(("metadata", "mcpServers", "lspServers"))
#: The hook event names (``Oc``).
_EVENTS: Final = frozenset((
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
    "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "SessionEnd", "Stop",
    "StopFailure", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact",
    "PreModelSwitch", "PostModelSwitch", "PermissionRequest", "PermissionDenied", "Setup",
    "TeammateIdle", "TaskCreated", "TaskCompleted", "Elicitation", "ElicitationResult",
    "ConfigChange", "WorktreeCreate", "WorktreeRemove", "InstructionsLoaded", "CwdChanged",
    "FileChanged", "DirectoryAdded", "MessageDisplay", "PreSkillShellCommand"))


def declares_hooks_outside(metadata: Mapping[str, object]) -> str | None:
    """The top-level key of ``metadata`` (the frontmatter as the runtime reads it) that makes
    the runtime drop the skill's hooks, or None (``bwe(e, BZn)``)."""
    found = _holds_dropping(dict(metadata))
    if found is not None:
        return found
    for key, value in metadata.items():
        if key != "hooks" and key not in _UNSCANNED and _scan(value, 3, key not in _EVENTS,
                                                              False):
            return str(key)
    return None


def _holds_dropping(value: object) -> str | None:
    """``pe``: a key of ``_DROPPING`` whose value is not null and not an empty list."""
    if not isinstance(value, dict):
        return None
    for key, held in value.items():
        if key in _DROPPING and held is not None and held != []:
            return str(key)
    return None


def _is_matcher(value: object) -> bool:
    """``Zje``: a mapping that looks like a hook matcher (``{matcher, hooks: [...]}``)."""
    if not isinstance(value, dict):
        return False
    if "matcher" not in value and any(key in _EVENTS for key in value):
        return False
    hooks = value.get("hooks")
    if isinstance(hooks, list):
        return len(hooks) > 0
    return isinstance(hooks, dict) and (  # (JavaScript's !!{} is true)
        "matcher" in value or isinstance(hooks.get("type"), str))


def _scan(value: object, depth: int, matchers: bool, in_hooks_list: bool) -> bool:
    """``Prt``: ``depth`` levels down (``_UNSCANNED`` keys skipped at every one)."""
    if _holds_dropping(value) is not None or (matchers and _is_matcher(value)):
        return True
    if depth == 0:
        return False
    if isinstance(value, list):
        return any(_scan(item, depth - 1, matchers, in_hooks_list) for item in value)
    if not isinstance(value, dict):
        return False
    if in_hooks_list and isinstance(value.get("type"), str):
        return False
    return any(key not in _UNSCANNED and _scan(
        held, depth - 1, matchers and key not in _EVENTS,
        key == "hooks" and isinstance(held, list)) for key, held in value.items())
