"""The ceiling reaches subagents: which skill is active in a session, and where the gate's hook
must be installed for a plan that grants ``Agent``.

Measured on Claude Code 2.1.332 (tests/conformance/test_subagents_e2e.py): a skill-scoped hook
(what ``apply --enforce`` writes) sees the main agent's calls and never a subagent's, while the
skill's ``allowed-tools`` pre-approvals do reach its subagents; a hook in a settings file sees
every call, a subagent's payload carrying the parent's ``session_id`` with ``agent_id`` and
``agent_type``. So a plan that grants ``Agent``/``Task`` is a ceiling only with a settings-level
hook that follows the skill:

* ``skillgrant hook --plan P --skill NAME`` (the skill-scoped hook ``apply --enforce`` writes for
  such a plan) records, on every call it judges, that NAME is active in the call's session;
* ``skillgrant hook --plan P --for-skill NAME`` (a settings-level hook, printed by ``hook
  --print-config claude-code --plan P --for-skill NAME``) records the same when it sees the
  ``Skill`` call that loads NAME, and judges every call of a session where NAME is active, a
  subagent's (and its subagents') included; in any other session it gives no decision.

A session stays active once the skill loads: Claude Code runs a skill's hooks on every later
call of the session. The records are empty files named by a digest of the session and the
skill, in ``$XDG_STATE_HOME/skillgrant/active`` (default ``~/.local/state``); a record that
cannot be written or read denies the call (``ActivityError``).

``apply --enforce`` refuses a plan that grants ``Agent`` or ``Task`` unless a settings file
that applies to the skill's project (``.claude/settings.json``, ``.claude/settings.local.json``
in the skill's folder or any folder above it, or ``~/.claude/settings.json``) runs ``skillgrant
hook`` with ``--for-skill NAME`` and the same ``--plan`` (``enforce_command``).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shlex
from collections.abc import Iterator, Mapping
from pathlib import Path

#: Tools that start a subagent (Claude Code's, and its former name).
AGENT_TOOLS = frozenset({"Agent", "Task"})


class ActivityError(OSError):
    """A skill's activity record could not be written or read."""


def state_dir() -> str:
    """The folder of activity records."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                             "state")
    return os.path.join(base, "skillgrant", "active")


def _record(session: str, skill: str) -> str:
    digest = hashlib.sha256(f"{session}\0{skill}".encode("utf-8", "surrogatepass"))
    return os.path.join(state_dir(), digest.hexdigest()[:40])


def mark_active(session: str, skill: str) -> None:
    """Record that ``skill`` is active in ``session``. Raises ActivityError."""
    path = _record(session, skill)
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    except OSError as e:
        raise ActivityError(e.errno, f"the skill's activity cannot be recorded: {e}") from e


def is_active(session: str, skill: str) -> bool:
    """Whether ``skill`` was recorded active in ``session``. Raises ActivityError when the
    record cannot be read (any failure but its absence)."""
    try:
        os.stat(_record(session, skill))
    except FileNotFoundError:
        return False
    except OSError as e:
        if e.errno == errno.ENOTDIR:
            return False
        raise ActivityError(e.errno, f"the skill's activity cannot be read: {e}") from e
    return True


def loads_skill(tool: str, tool_input: Mapping[str, object], skill: str) -> bool:
    """Whether the call is the ``Skill`` call that loads ``skill`` (its input's ``skill``, with
    or without a plugin's ``name:`` prefix and a leading ``/``)."""
    if tool != "Skill":
        return False
    named = tool_input.get("skill")
    if not isinstance(named, str):
        return False
    named = named.strip().lstrip("/")
    return named == skill or named.rsplit(":", 1)[-1] == skill


def grants_agent(entries: tuple[str, ...] | list[str]) -> list[str]:
    """The entries of an allowed-tools list that start a subagent (``Agent``, ``Agent(x)``,
    ``Task(…)``)."""
    return [e for e in entries if e.split("(", 1)[0].strip() in AGENT_TOOLS]


def _settings_files(skill_path: str) -> Iterator[Path]:
    folder = Path(os.path.abspath(skill_path)).parent
    for above in (folder, *folder.parents):
        for name in ("settings.json", "settings.local.json"):
            yield above / ".claude" / name
    yield Path(os.path.expanduser("~")) / ".claude" / "settings.json"


def settings_hook_for(skill: str, skill_path: str, plan: str | None = None) -> Path | None:
    """The settings file that runs ``skillgrant hook … --for-skill skill`` (with ``--plan
    plan``, when given) on every PreToolUse, or None."""
    for path in _settings_files(skill_path):
        try:
            settings = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if any(_follows(command, skill, plan) for command in _pre_tool_commands(settings)):
            return path
    return None


def _pre_tool_commands(settings: object) -> Iterator[str]:
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    groups = hooks.get("PreToolUse") if isinstance(hooks, dict) else None
    for group in groups if isinstance(groups, list) else []:
        if not isinstance(group, dict) or group.get("matcher", "*") not in ("*", "", None):
            continue
        for hook in group.get("hooks") or []:
            if isinstance(hook, dict) and isinstance(hook.get("command"), str):
                yield hook["command"]


def _option(words: list[str], name: str) -> str | None:
    for i, word in enumerate(words):
        if word.startswith(name + "="):
            return word.partition("=")[2]
        if word == name and i + 1 < len(words):
            return words[i + 1]
    return None


def _follows(command: str, skill: str, plan: str | None) -> bool:
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    return "hook" in words and _option(words, "--for-skill") == skill and (
        plan is None or _option(words, "--plan") == plan)


def enforce_command(command: str, skill: str, entries: tuple[str, ...] | list[str],
                    skill_path: str | None) -> str:
    """The command ``apply --enforce`` writes for a skill whose allowed-tools are ``entries``:
    unchanged when none starts a subagent; else with ``--skill NAME``, once a settings file
    runs the hook that follows the skill into its subagents. Raises ValueError, naming the
    entry and what to install, when none does."""
    agents = grants_agent(entries)
    if not agents:
        return command
    try:
        plan = _option(shlex.split(command), "--plan")
    except ValueError:
        plan = None
    if skill_path is None or settings_hook_for(skill, skill_path, plan) is None:
        raise ValueError(
            f"the plan grants {agents[0]!r}, and a skill's own hook does not see its subagents' "
            "calls (Claude Code 2.1.332), while its allowed-tools reach them: a subagent would "
            "run outside the plan. Install the hook that follows the skill into its subagents "
            "first: merge the output of `skillgrant hook --print-config claude-code --plan "
            f"{plan or 'PLAN'} --for-skill {skill}` into the project's .claude/settings.json, "
            "then apply again (or remove the Agent entries from the plan)")
    return command + " " + shlex.join(["--skill", skill])
