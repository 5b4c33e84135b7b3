"""The ceiling reaches subagents: the settings-level hook that follows a skill into its
subagents, and where it must be installed for a plan that grants ``Agent``.

Measured on Claude Code 2.1.332 (tests/conformance/test_subagents_e2e.py): a skill-scoped hook
(what ``apply --enforce`` writes) sees the main agent's calls and never a subagent's, while the
skill's ``allowed-tools`` pre-approvals do reach its subagents; a hook in a settings file sees
every call, a subagent's payload carrying the parent's ``session_id`` with ``agent_id`` and
``agent_type``. So a plan that grants ``Agent``/``Task`` is a ceiling only with a settings-level
hook that judges the subagents' calls:

* ``skillgrant hook --plan P --for-skill NAME`` (printed by ``hook --print-config claude-code
  --plan P --for-skill NAME``) judges every call a subagent makes (its payload names the agent)
  against P, and gives no decision on the main agent's calls, which the skill's own hook judges
  while the skill is active. It keeps no state: a record of which skill is active in which
  session could be deleted by a command the plan allows (``rm``), and the subagents would run
  unjudged. So the project's subagents are held to P in every session, the skill's or not: the
  price of a ceiling nothing in the session can switch off.

``apply --enforce`` refuses a plan that grants ``Agent`` or ``Task`` unless a settings file
Claude Code reads for the skill (its project's ``.claude/settings.json`` or
``.claude/settings.local.json``, for a skill at ``<project>/.claude/skills/NAME/SKILL.md``, or
``~/.claude/settings.json``) runs ``skillgrant hook --plan <the same plan> --for-skill NAME``,
denying what is outside it (``enforce_command``): a ``command`` hook on every tool, with
``"onFailure": "block"`` and a timeout of at least ``MIN_TIMEOUT``, whose program is named by
an absolute path to an executable file, as ``--print-config`` prints it, in a file that holds
nothing but hooks (``_only_hooks``: Claude Code drops a file with a key of a wrong type).
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from ..errors import SkillgrantError

#: The least timeout (seconds) a settings hook that follows a skill may have: one that times out
#: lets the call go on.
MIN_TIMEOUT = 10
#: Tools that start a subagent (Claude Code's, and its former name), and ``Skill``: a skill it
#: names may run forked (``context: fork``), now or after an edit (review S3b).
AGENT_TOOLS = frozenset({"Agent", "Task", "Skill"})
#: The keys a settings hook that follows a skill may have (what ``--print-config`` prints, and
#: a status message): any other key of Claude Code 2.1.332's hook schema can keep it from
#: running or blocking (``async``, ``asyncRewake``, ``if``, ``once``, ``shell``; review S2).
_HOOK_KEYS = frozenset({"type", "command", "timeout", "onFailure", "statusMessage"})


def grants_agent(entries: tuple[str, ...] | list[str]) -> list[str]:
    """The entries of an allowed-tools list that start a subagent (``Agent``, ``Agent(x)``,
    ``Task(…)``, ``Skill(…)``: a skill may run forked)."""
    return [e for e in entries if e.split("(", 1)[0].strip() in AGENT_TOOLS]


def _settings_files(skill_path: str) -> Iterator[Path]:
    """The settings files Claude Code reads for a skill at ``skill_path``: its project's
    (``<project>/.claude/skills/NAME/SKILL.md``: ``<project>/.claude/settings.json`` and
    ``settings.local.json``) and the user's ``~/.claude/settings.json``."""
    path = Path(os.path.abspath(skill_path))
    home = Path(os.path.expanduser("~"))
    if len(path.parts) >= 5 and path.parts[-4:-2] == (".claude", "skills") and \
            path.parents[3] != home:  # a user skill has no project: ~/.claude alone (S2c)
        project = path.parents[3]
        yield project / ".claude" / "settings.json"
        yield project / ".claude" / "settings.local.json"
    yield home / ".claude" / "settings.json"


def settings_hook_for(skill: str, skill_path: str, plan: str | None = None,
                      kind: str = "auto", pin: str | None = None) -> Path | None:
    """The settings file that runs ``skillgrant hook … --for-skill skill`` (with ``--plan
    plan``, when given, read as ``kind``, pinned to the digest ``pin`` as the skill's own hook
    is) on every PreToolUse, or None. The file must hold nothing but hooks of the shape
    checked here (``_only_hooks``)."""
    found = None
    for path in _settings_files(skill_path):
        try:
            settings = json.loads(path.read_text(encoding="utf-8"), parse_constant=_no_constant)
        except (OSError, ValueError):
            continue
        if isinstance(settings, dict) and settings.get("disableAllHooks", False) is not False:
            return None  # Claude Code may then run no hook at all
        if not _only_hooks(settings):
            continue  # Claude Code drops a settings file it cannot validate, hooks and all
        if found is None and any(_follows(command, skill, plan, skill_path, kind, pin)
                                 for command in _pre_tool_commands(settings)):
            found = path
    return found


def _no_constant(name: str) -> object:
    """JavaScript's ``JSON.parse`` reads no ``NaN``, ``Infinity`` or ``-Infinity``: a file
    holding one is not read by Claude Code at all (review S2b)."""
    raise ValueError(f"{name} is not JSON")


#: The types of a hook's keys as Claude Code 2.1.332 validates them.
_HOOK_TYPES: Final[dict[str, type | tuple[type, ...]]] = {
    "type": str, "command": str, "timeout": (int, float), "onFailure": str,
    "statusMessage": str}


def _only_hooks(settings: object) -> bool:
    """Whether a settings file holds nothing but ``hooks`` (and a ``$schema`` string), each
    event a list of groups ``{matcher, hooks}`` whose hooks have only the keys and types of
    ``_HOOK_TYPES``. Claude Code validates the whole file against its schema and drops it, its
    hooks with it, on any error; a list of the other keys' types would always trail that
    schema (review S2d: `"cleanupPeriodDays": "x"`, `"permissions": {"allow": "Bash"}`, a
    second group `5`), so a file that holds anything else does not count as running the hook
    that follows a skill."""
    if not isinstance(settings, dict) or not {"hooks", "$schema"}.issuperset(settings) or \
            not isinstance(settings.get("$schema", ""), str):
        return False
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return False
    groups = [group for event in hooks.values() for group in
              (event if isinstance(event, list) else [None])]
    return all(isinstance(group, dict) and {"matcher", "hooks"}.issuperset(group)
               and isinstance(group.get("matcher", ""), str)
               and isinstance(group.get("hooks"), list)
               and all(_typed_hook(hook) for hook in group["hooks"]) for group in groups)


def _typed_hook(hook: object) -> bool:
    return isinstance(hook, dict) and _HOOK_KEYS.issuperset(hook) and all(
        isinstance(value, _HOOK_TYPES[key]) and not isinstance(value, bool)
        for key, value in hook.items())


def _pre_tool_commands(settings: object) -> Iterator[str]:
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    groups = hooks.get("PreToolUse") if isinstance(hooks, dict) else None
    for group in groups if isinstance(groups, list) else []:
        if not isinstance(group, dict) or group.get("matcher", "*") not in ("*", ""):
            continue
        for hook in group.get("hooks") or []:
            if not isinstance(hook, dict) or hook.get("type") != "command" or \
                    not isinstance(hook.get("command"), str):
                continue
            if not _HOOK_KEYS.issuperset(hook):
                continue  # `async`, `if`, `once`, `shell`, …: it may not run, or not block
            timeout = hook.get("timeout", MIN_TIMEOUT)
            message = hook.get("statusMessage", "")
            # A hook that times out, or fails (a missing interpreter: exit 127), lets the call
            # go on unless it is marked `"onFailure": "block"` (Claude Code 2.1.332); a key of
            # the wrong type drops the file (S2b).
            if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and \
                    MIN_TIMEOUT <= timeout < 1e9 and hook.get("onFailure") == "block" and \
                    isinstance(message, str):
                yield hook["command"]


def _option(words: list[str], name: str) -> str | None:
    for i, word in enumerate(words):
        if word.startswith(name + "="):
            return word.partition("=")[2]
        if word == name and i + 1 < len(words):
            return words[i + 1]
    return None


def _program(word: str) -> bool:
    """Whether ``word`` names, by absolute path, an executable file that exists: the runtime
    looks a bare name up on its own ``PATH``, where a project's ``node_modules/.bin`` or an
    activated ``.venv/bin`` can hold a ``skillgrant`` of its own, and a hook whose program is
    missing fails (exit 127), which lets the call go on unless the hook blocks on failure."""
    return os.path.isabs(word) and os.path.isfile(word) and os.access(word, os.X_OK)


def _this_installation(word: str, python: bool) -> bool:
    """Whether ``word`` is this installation's program: its interpreter (``python``: the path
    ``sys.executable`` has, not resolved, as ``config.executable`` prints it), or else its
    console script (beside the interpreter, or the one running). A stub that is merely named
    ``skillgrant`` or ``python3`` and exits 0 decides nothing (review S2e)."""
    import sys

    if python:
        return word == os.path.abspath(sys.executable)
    scripts = [os.path.join(os.path.dirname(os.path.abspath(sys.executable)), "skillgrant")]
    if sys.argv and os.path.basename(sys.argv[0]) == "skillgrant":
        scripts.append(os.path.abspath(sys.argv[0]))
    for script in scripts:
        try:
            if os.path.samefile(word, script):
                return True
        except OSError:
            continue
    return False


def _follows(command: str, skill: str, plan: str | None, skill_path: str,
             kind: str = "auto", pin: str | None = None) -> bool:
    """Whether ``command`` runs ``skillgrant hook`` (or ``python -I -m skillgrant hook``) of
    this installation (``_this_installation``), named by an absolute path to an executable
    file (``_program``), as the hook that
    follows ``skill``: ``--for-skill skill``, the plan ``plan`` (when given), a
    denial for a call outside it, in Claude Code's dialect, and nothing else that changes
    what it judges; pinned to the plan's digest ``pin`` when the skill's hook is (a hook that
    reads whatever the file holds would follow a replaced plan; issue 29, W1c)."""
    from .hook import UsageError, read_options

    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if not words or not _program(words[0]):
        return False
    if len(words) > 1 and os.path.basename(words[0]) == "skillgrant" and words[1] == "hook" \
            and _this_installation(words[0], python=False):
        rest = words[2:]
    elif len(words) > 4 and words[1] in ("-I", "-P") and \
            words[2:5] == ["-m", "skillgrant", "hook"] and _this_installation(words[0], True):
        rest = words[5:]  # -I/-P: the project's folder is not on sys.path (review R3)
    else:
        return False
    try:
        options = read_options(rest)
    except UsageError:
        return False
    given = options.get
    return (not options.help and given("--for-skill") == skill
            and given("--observe") is None  # observing denies nothing (review S2)
            and (given("--plan-kind") or "auto") == kind  # one file, two plans (S2f)
            and pin in (None, given("--plan-sha256"))
            and given("--print-config") is None and given("--outside") in (None, "deny")
            and given("--dialect") in (None, "auto", "claude-code")
            and given("--plan") is not None
            and (plan is None or os.path.abspath(given("--plan") or "") == os.path.abspath(plan))
            and given("--skill-dir") in (None, os.path.dirname(os.path.abspath(skill_path))))


class ForkedSkillError(SkillgrantError):
    """``apply --enforce`` on a skill that runs in a forked subagent (``context: fork``)
    without the settings hook that follows it there (review S3)."""


def forks(skill_path: str | None) -> bool:
    """Whether the SKILL.md at ``skill_path`` runs its body in a forked subagent: its
    frontmatter's ``context`` is ``fork``, as Claude Code 2.1.332 reads it (a file that is not
    there, or not read, does not fork here)."""
    if skill_path is None:
        return False
    from ..skillfile.spans import read_skill

    try:
        with open(skill_path, encoding="utf-8") as handle:
            doc = read_skill(handle.read(), skill_path)
    except (OSError, ValueError):
        return False
    return doc.metadata.get("context") == "fork"


def enforce_command(command: str, skill: str, entries: tuple[str, ...] | list[str],
                    skill_path: str | None, forked: bool | None = None) -> str:
    """The command ``apply --enforce`` writes for a skill whose allowed-tools are ``entries``
    (unchanged), once a settings file runs the hook that follows the skill into its subagents
    when one of them starts a subagent, or the skill runs forked (``forks``). Raises
    ValueError, naming the entry and what to install, when none does (ForkedSkillError for a
    forked skill without an Agent entry). ``forked``, when given, says whether the text being
    written forks (review S3r: the file on disk may not be what is applied); else the file at
    ``skill_path`` is read."""
    agents = grants_agent(entries)
    forked = forks(skill_path) if forked is None else forked
    if not agents and not forked:
        return command
    try:
        words = shlex.split(command)
    except ValueError:
        words = []
    plan, kind = _option(words, "--plan"), _option(words, "--plan-kind") or "auto"
    followed = skill_path is not None and settings_hook_for(
        skill, skill_path, plan, kind, _option(words, "--plan-sha256")) is not None
    if not agents and not followed:
        raise ForkedSkillError(
            f"{skill_path}: the skill runs in a forked subagent (`context: fork`), whose calls "
            "a skill's own hook never sees (Claude Code 2.1.332), while its allowed-tools "
            "reach them. Install the hook that follows the skill into its subagents first: "
            "merge the output of `skillgrant hook --print-config claude-code --plan "
            f"{plan or 'PLAN'} --for-skill {skill}` into a settings file that holds only hooks "
            "(the project's .claude/settings.json or .claude/settings.local.json; a file with "
            "other keys does not count, as skillgrant cannot check them and a file Claude Code "
            "drops runs no hook), "
            "then apply again (or remove `context: fork`)")
    if not followed:
        raise ValueError(
            f"the plan grants {agents[0]!r}, and a skill's own hook does not see its subagents' "
            "calls (Claude Code 2.1.332), while its allowed-tools reach them: a subagent would "
            "run outside the plan. Install the hook that follows the skill into its subagents "
            "first: merge the output of `skillgrant hook --print-config claude-code --plan "
            f"{plan or 'PLAN'} --for-skill {skill}` into a settings file that holds only hooks "
            "(the project's .claude/settings.json or .claude/settings.local.json; a file with "
            "other keys does not count, as skillgrant cannot check them and a file Claude Code "
            "drops runs no hook), "
            "then apply again (or remove the Agent entries from the plan)")
    return command
