"""The ceiling reaches subagents (issue 33, ``gate.subagents``): the hook that follows a skill
(``--for-skill``) judges every subagent's call and leaves the main agent's to the skill's own
hook, and ``apply --enforce`` refuses a plan granting ``Agent`` without it. End to end through
Claude Code: tests/conformance/test_subagents_e2e.py."""

from __future__ import annotations

import json
import os
import shlex
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from skillgrant.errors import SkillFileError
from skillgrant.gate.config import HOOK_CODE, snippet
from skillgrant.gate.hook import Options, decide
from skillgrant.gate.subagents import enforce_command, grants_agent
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_text


def plan_file(tmp_path: Path, entries: list[str]) -> Path:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": entries}))
    return plan


def payload(tool: str, tool_input: dict[str, Any], session: str = "s1",
            agent: str | None = None) -> bytes:
    body: dict[str, Any] = {"session_id": session, "hook_event_name": "PreToolUse",
                            "tool_name": tool, "tool_input": tool_input, "cwd": "/tmp"}
    if agent is not None:
        body |= {"agent_id": agent, "agent_type": "general-purpose"}
    return json.dumps(body).encode()


#: This installation's hook program, as ``--print-config`` names it (an absolute path).
HOOK = f"{sys.executable} -I -m skillgrant hook"
#: A plan file for the tests that only compare hook commands: ``--print-config`` pins the
#: digest of a plan it can read (issue 29, W1c). One path for every xdist worker (it names
#: parametrized cases), written whole by a rename.
_PLANS = os.path.join(tempfile.gettempdir(), f"sg-subagents-{os.getuid()}")
P = os.path.join(_PLANS, "p.json")


def _write_plan() -> None:
    os.makedirs(_PLANS, exist_ok=True)
    fd, part = tempfile.mkstemp(dir=_PLANS)
    with os.fdopen(fd, "w") as handle:
        handle.write(json.dumps({"allowed-tools": ["Bash(echo *)", "Agent"]}))
    os.replace(part, P)


_write_plan()


def touch(name: str = "zz") -> tuple[str, dict[str, Any]]:
    return "Bash", {"command": f"touch {name}"}


def test_the_following_hook_judges_every_subagent_call_and_leaves_the_main_agents(
        tmp_path: Path) -> None:
    options = Options({"--plan": str(plan_file(tmp_path, ["Bash(echo *)"])),
                       "--for-skill": "probe"})
    assert decide(options, payload(*touch())) == ("", "", 0)  # the main agent's
    denied = decide(options, payload(*touch(), agent="a1"))
    assert denied.status == 2 and "touch zz" in denied.stderr
    assert decide(options, payload("Bash", {"command": "echo hi"}, agent="a1")).status == 0
    # in any session: no record of which skill is active could be deleted to switch it off
    assert decide(options, payload(*touch(), session="s2", agent="a2")).status == 2
    typed = json.loads(payload(*touch()))
    typed["agent_type"] = "fork"
    assert decide(options, json.dumps(typed).encode()).status == 2


def test_without_for_skill_every_call_is_judged(tmp_path: Path) -> None:
    options = Options({"--plan": str(plan_file(tmp_path, ["Bash(echo *)"]))})
    assert decide(options, payload(*touch())).status == 2
    assert decide(options, payload(*touch(), agent="a1")).status == 2


def test_agent_entries() -> None:
    assert grants_agent(["Bash(x)", "Agent(general-purpose)", "Task", "Agent"]) == [
        "Agent(general-purpose)", "Task", "Agent"]


SKILL = "---\nname: probe\ndescription: d\nallowed-tools: Bash(echo *), Agent(fork)\n---\nbody\n"


def test_enforce_refuses_an_agent_grant_without_the_following_hook(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, ["Bash(echo *)", "Agent(fork)"])
    path = tmp_path / "project" / ".claude" / "skills" / "probe" / "SKILL.md"
    path.parent.mkdir(parents=True)
    with pytest.raises(SkillFileError) as caught:
        apply_to_text(SKILL, Plan.load(plan), enforce="skillgrant hook --plan P",
                      path=str(path))
    error = caught.value
    assert (error.line, error.column) == (4, 30)  # the Agent entry
    assert "--for-skill probe" in error.message and "'Agent(fork)'" in error.message


def test_enforce_follows_the_skill_once_the_settings_hook_is_installed(tmp_path: Path) -> None:
    plan = plan_file(tmp_path, ["Bash(echo *)", "Agent(fork)"])
    project = tmp_path / "project"
    path = project / ".claude" / "skills" / "probe" / "SKILL.md"
    path.parent.mkdir(parents=True)
    printed, _ = snippet("claude-code", {"--plan": str(plan), "--for-skill": "probe"})
    assert "--for-skill probe" in printed
    (project / ".claude" / "settings.json").write_text(printed)
    with pytest.raises(SkillFileError, match="--for-skill probe"):  # another plan's hook
        apply_to_text(SKILL, Plan.load(plan), enforce="skillgrant hook --plan P", path=str(path))
    run = f"skillgrant hook --plan {plan}"
    text, _ = apply_to_text(SKILL, Plan.load(plan), enforce=run, path=str(path))
    assert f"{run} --skill-dir" in text
    # a plan without Agent: the hook as before
    assert enforce_command("c", "probe", ["Bash(echo *)"], None) == "c"


@pytest.mark.parametrize("form", ["-m", "-c"])
def test_the_following_hook_counts_as_printed_now_and_before(tmp_path: Path, form: str) -> None:
    """s48-hookspeed: the settings hook printed now (``-I -c HOOK_CODE hook``) and as printed
    before session 48 (``-I -m skillgrant hook``) both follow the skill."""
    plan = plan_file(tmp_path, ["Bash(echo *)", "Agent(fork)"])
    project = tmp_path / "project"
    path = project / ".claude" / "skills" / "probe" / "SKILL.md"
    path.parent.mkdir(parents=True)
    printed, _ = snippet("claude-code", {"--plan": str(plan), "--for-skill": "probe"})
    if form == "-m":
        printed = printed.replace(json.dumps(shlex.join(["-I", "-c", HOOK_CODE]))[1:-1],
                                  "-I -m skillgrant")
    assert ("-m skillgrant hook" in printed) == (form == "-m")
    (project / ".claude" / "settings.json").write_text(printed)
    run = f"skillgrant hook --plan {plan}"
    text, _ = apply_to_text(SKILL, Plan.load(plan), enforce=run, path=str(path))
    assert f"{run} --skill-dir" in text


def test_a_settings_hook_for_another_skill_does_not_count(tmp_path: Path) -> None:
    project = tmp_path / "project"
    path = project / ".claude" / "skills" / "probe" / "SKILL.md"
    path.parent.mkdir(parents=True)
    printed, _ = snippet("claude-code", {"--plan": P, "--for-skill": "other"})
    (project / ".claude" / "settings.json").write_text(printed)
    with pytest.raises(ValueError, match="--for-skill probe"):
        enforce_command("c", "probe", ["Agent"], str(path))
    assert os.path.exists(project / ".claude" / "settings.json")


@pytest.mark.parametrize("where", [".claude/skills/probe/.claude/settings.json",
                                   ".claude/skills/.claude/settings.json"])
def test_a_settings_file_claude_code_does_not_read_does_not_count(tmp_path: Path,
                                                                  where: str) -> None:
    project = tmp_path / "project"
    path = project / ".claude" / "skills" / "probe" / "SKILL.md"
    path.parent.mkdir(parents=True)
    printed, _ = snippet("claude-code", {"--plan": P, "--for-skill": "probe"})
    (project / where).parent.mkdir(parents=True, exist_ok=True)
    (project / where).write_text(printed)
    with pytest.raises(ValueError):
        enforce_command(f"skillgrant hook --plan {P}", "probe", ["Agent"], str(path))
    (project / ".claude" / "settings.local.json").write_text(printed)
    assert enforce_command(f"skillgrant hook --plan {P}", "probe", ["Agent"],
                           str(path)) == f"skillgrant hook --plan {P}"


@pytest.mark.parametrize("command", [
    f"true hook --for-skill probe --plan {P}",
    f"{HOOK} --plan /wide.json --for-skill probe",
    f"{HOOK} --print-config claude-code --plan {P} --for-skill probe",
    f"{HOOK} --plan {P} --for-skill probe --outside ask",
    f"{HOOK} --plan {P} --for-skill probe --dialect codex",
    f"{HOOK} --plan {P} --for-skill probe --bogus x",
    f"{HOOK} --plan {P} --for-skill other",
    # S1/R2: found through the runtime's PATH (a project's own `skillgrant`), or missing
    f"skillgrant hook --plan {P} --for-skill probe",
    f"node_modules/.bin/skillgrant hook --plan {P} --for-skill probe",
    f"/nonexistent/python3 -I -m skillgrant hook --plan {P} --for-skill probe",
    # R3: without -I (or -P) the project's folder comes first on sys.path, and its own
    # `skillgrant` package replaces the gate
    f"{sys.executable} -P -m skillgrant hook --plan {P} --for-skill probe",
    f"/nonexistent/skillgrant hook --plan {P} --for-skill probe",
    # s49-greview G1: -P and the console script read PYTHONPATH ahead of the packages
    f"{sys.executable} -P -m skillgrant hook --plan {P} --for-skill probe",
    f"{shlex.join([sys.executable, '-P', '-c', HOOK_CODE])} hook --plan {P} --for-skill probe",
    f"{os.path.join(os.path.dirname(sys.executable), 'skillgrant')} hook --plan {P} "
    "--for-skill probe"])
def test_only_the_hook_that_follows_the_skill_counts(tmp_path: Path, command: str) -> None:
    project = tmp_path / "project"
    path = project / ".claude" / "skills" / "probe" / "SKILL.md"
    path.parent.mkdir(parents=True)
    settings = {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
        {"type": "command", "command": command, "onFailure": "block"}]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    with pytest.raises(ValueError):
        enforce_command(f"skillgrant hook --plan {P}", "probe", ["Agent"], str(path))


@pytest.mark.parametrize("change", [
    {"type": "prompt"}, {"timeout": 0.001}, {"command": f"{HOOK} --plan {P} "
                                                        "--for-skill probe --skill-dir /"},
    # S1: without `onFailure: block` a hook that fails or times out lets the call go on
    {"onFailure": None}, {"onFailure": "continue"},
    # S2: keys that keep it from running, or from blocking
    {"async": True}, {"asyncRewake": True}, {"once": True}, {"if": "Bash(nothing *)"},
    {"shell": "powershell"},
    {"command": f"{HOOK} --plan {P} --for-skill probe --observe --audit-log /tmp/x.log"},
    # S2b: types Claude Code's schema refuses, dropping the file
    {"statusMessage": 5}, {"timeout": True}])
def test_a_hook_that_would_not_hold_does_not_count(tmp_path: Path, change: dict[str, Any]) -> None:
    project = tmp_path / "project"
    path = project / ".claude" / "skills" / "probe" / "SKILL.md"
    path.parent.mkdir(parents=True)
    hook = {"type": "command", "command": f"{HOOK} --plan {P} --for-skill probe",
            "onFailure": "block"}
    changed = {k: v for k, v in (hook | change).items() if v is not None}
    settings = {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [changed]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    with pytest.raises(ValueError):
        enforce_command(f"skillgrant hook --plan {P}", "probe", ["Agent"], str(path))
    settings["hooks"]["PreToolUse"][0]["hooks"] = [hook]
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    assert enforce_command(f"skillgrant hook --plan {P}", "probe", ["Agent"], str(path))
    (project / ".claude" / "settings.local.json").write_text('{"disableAllHooks": true}')
    with pytest.raises(ValueError):
        enforce_command(f"skillgrant hook --plan {P}", "probe", ["Agent"], str(path))


def test_check_says_when_an_agent_grant_lets_pre_approvals_reach_subagents(
        tmp_path: Path) -> None:
    """Issue 33 item 2: `check` names SGL117 with its fix when the kept entries grant Agent
    beside other pre-approvals, and says nothing when the Agent grant stands alone."""
    from typer.testing import CliRunner

    from skillgrant.cli.app import app

    skill = tmp_path / "SKILL.md"
    plan = plan_file(tmp_path, ["Bash(echo *)", "Agent(general-purpose)"])
    skill.write_text("---\nname: t\ndescription: d\nallowed-tools: Bash(echo *), "
                     "Agent(general-purpose)\n---\nbody\n")
    result = CliRunner().invoke(app, ["check", str(skill), "--plan", str(plan)])
    assert result.exit_code == 0, result.output
    assert "[SGL117 agent-reach]" in result.stdout and "--for-skill NAME" in result.stdout
    sarif = CliRunner().invoke(app, ["check", str(skill), "--plan", str(plan), "-f", "sarif"])
    assert [r["ruleId"] for r in json.loads(sarif.stdout)["runs"][0]["results"]] == ["SGL117"]
    skill.write_text("---\nname: t\ndescription: d\nallowed-tools: Agent(general-purpose)\n"
                     "---\nbody\n")
    alone = CliRunner().invoke(app, ["check", str(skill), "--plan", str(plan)])
    assert "SGL117" not in alone.stdout


FORKED = "---\nname: probe\ndescription: d\ncontext: fork\nallowed-tools: Bash(echo *)\n---\nbody\n"


def test_a_forked_skill_needs_the_hook_that_follows_it(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Review S3: `context: fork` runs the skill's body in a subagent, which its own hook never
    sees and its allowed-tools reach: `apply --enforce` refuses it until the settings hook that
    follows the skill is installed in the user's settings (review R-4: a project's are not read
    in a session started in a subfolder), and `check` says so (SGL117)."""
    from typer.testing import CliRunner

    from skillgrant.cli.app import app
    from skillgrant.gate.subagents import ForkedSkillError

    plan = plan_file(tmp_path, ["Bash(echo *)"])
    project = tmp_path / "project"
    path = project / ".claude" / "skills" / "probe" / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(FORKED)
    run = f"{HOOK} --plan {plan}"
    with pytest.raises(ForkedSkillError, match="context: fork"):
        apply_to_text(FORKED, Plan.load(plan), enforce=run, path=str(path))
    checked = CliRunner().invoke(app, ["check", str(path), "--plan", str(plan)])
    assert "[SGL117 agent-reach]" in checked.stdout and "context: fork" in checked.stdout
    printed, _ = snippet("claude-code", {"--plan": str(plan), "--for-skill": "probe"})
    (project / ".claude" / "settings.json").write_text(printed)
    with pytest.raises(ForkedSkillError, match=r"the user's ~/\.claude/settings\.json"):
        apply_to_text(FORKED, Plan.load(plan), enforce=run, path=str(path))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    (tmp_path / "home" / ".claude").mkdir(parents=True)
    (tmp_path / "home" / ".claude" / "settings.json").write_text(printed)
    text, _ = apply_to_text(FORKED, Plan.load(plan), enforce=run, path=str(path))
    assert f"{run} --skill-dir" in text


@pytest.mark.parametrize("spoil", [
    lambda text: text.replace('"timeout": 30', '"timeout": Infinity'),
    lambda text: text.replace('{\n  "hooks"', '{\n  "permissions": 5,\n  "hooks"'),
    lambda text: text.replace('{\n  "hooks"', '{\n  "env": {"A": 1},\n  "hooks"'),
    # S2d: types no list of keys keeps up with (each dropped the file through Claude Code), so
    # a file holding anything but hooks does not count
    lambda text: text.replace('{\n  "hooks"', '{\n  "permissions": {"allow": "Bash"},\n  "hooks"'),
    lambda text: text.replace('{\n  "hooks"', '{\n  "cleanupPeriodDays": "x",\n  "hooks"'),
    lambda text: text.replace('{\n  "hooks"', '{\n  "includeCoAuthoredBy": "x",\n  "hooks"'),
    lambda text: text.replace('{\n  "hooks"', '{\n  "model": "sonnet",\n  "hooks"'),
    lambda text: text.replace('"PreToolUse": [', '"PreToolUse": [5, '),
    lambda text: text.replace('"PreToolUse": [', '"PreToolUse": [{"matcher": 5, "hooks": []}, '),
    lambda text: text.replace('"PreToolUse": [', '"PostToolUse": 5, "PreToolUse": ['),
    lambda text: text.replace('"PreToolUse": [', '"PreToolUse": [{"hooks": [{"type": "command", '
                              '"command": "true", "timeout": "x"}]}, ')])
def test_a_settings_file_claude_code_would_drop_does_not_count(tmp_path: Path,
                                                               spoil: Any) -> None:
    """Review S2b: Python's json reads what JavaScript's JSON.parse or Claude Code's schema
    refuses; such a file runs no hook, so it holds none here either."""
    project = tmp_path / "project"
    path = project / ".claude" / "skills" / "probe" / "SKILL.md"
    path.parent.mkdir(parents=True)
    printed, _ = snippet("claude-code", {"--plan": P, "--for-skill": "probe"})
    (project / ".claude" / "settings.json").write_text(printed)
    assert enforce_command(f"skillgrant hook --plan {P}", "probe", ["Agent"], str(path))
    spoiled = spoil(printed)
    assert spoiled != printed
    (project / ".claude" / "settings.json").write_text(spoiled)
    with pytest.raises(ValueError):
        enforce_command(f"skillgrant hook --plan {P}", "probe", ["Agent"], str(path))


def test_the_hook_must_read_the_plan_as_the_skill_hook_does(tmp_path: Path) -> None:
    """Review S2f: one file is two plans as `--plan-kind plan` and as `settings`; the settings
    hook must read it as the skill's hook does."""
    project = tmp_path / "project"
    path = project / ".claude" / "skills" / "probe" / "SKILL.md"
    path.parent.mkdir(parents=True)
    printed, _ = snippet("claude-code", {"--plan": P, "--for-skill": "probe",
                                         "--plan-kind": "settings"})
    (project / ".claude" / "settings.json").write_text(printed)
    with pytest.raises(ValueError):
        enforce_command(f"skillgrant hook --plan {P} --plan-kind plan", "probe", ["Agent"],
                        str(path))
    assert enforce_command(f"skillgrant hook --plan {P} --plan-kind settings", "probe",
                           ["Agent"], str(path))


def test_a_user_skill_counts_only_the_users_settings(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Review S2c: ~/.claude/settings.local.json is no project's local settings."""
    monkeypatch.setenv("HOME", str(tmp_path))
    path = tmp_path / ".claude" / "skills" / "probe" / "SKILL.md"
    path.parent.mkdir(parents=True)
    printed, _ = snippet("claude-code", {"--plan": P, "--for-skill": "probe"})
    (tmp_path / ".claude" / "settings.local.json").write_text(printed)
    with pytest.raises(ValueError):
        enforce_command(f"skillgrant hook --plan {P}", "probe", ["Agent"], str(path))
    (tmp_path / ".claude" / "settings.json").write_text(printed)
    assert enforce_command(f"skillgrant hook --plan {P}", "probe", ["Agent"], str(path))


def test_a_local_settings_file_holding_only_the_hook_counts_beside_a_busy_one(
        tmp_path: Path) -> None:
    """Review S2d's way out: the project's settings.json keeps its other keys, and the hook
    that follows the skill lives in .claude/settings.local.json, which holds only hooks."""
    project = tmp_path / "project"
    path = project / ".claude" / "skills" / "probe" / "SKILL.md"
    path.parent.mkdir(parents=True)
    printed, _ = snippet("claude-code", {"--plan": P, "--for-skill": "probe"})
    (project / ".claude" / "settings.json").write_text(
        printed.replace('{\n  "hooks"', '{\n  "model": "sonnet",\n  "hooks"'))
    with pytest.raises(ValueError, match="holds only hooks"):
        enforce_command(f"skillgrant hook --plan {P}", "probe", ["Agent"], str(path))
    (project / ".claude" / "settings.local.json").write_text(printed)
    assert enforce_command(f"skillgrant hook --plan {P}", "probe", ["Agent"], str(path))


def test_the_text_being_applied_decides_whether_the_skill_forks(tmp_path: Path) -> None:
    """Review S3r: the text `apply_to_text` is given is what will be written, whatever the
    file on disk says (here a file without `context: fork`, or none at all)."""
    from skillgrant.gate.subagents import ForkedSkillError

    plan = plan_file(tmp_path, ["Bash(echo *)"])
    path = tmp_path / "project" / ".claude" / "skills" / "probe" / "SKILL.md"
    path.parent.mkdir(parents=True)
    with pytest.raises(ForkedSkillError, match="context: fork"):
        apply_to_text(FORKED, Plan.load(plan), enforce=f"{HOOK} --plan {plan}", path=str(path))
    path.write_text(FORKED.replace("context: fork\n", ""))
    with pytest.raises(ForkedSkillError, match="context: fork"):
        apply_to_text(FORKED, Plan.load(plan), enforce=f"{HOOK} --plan {plan}", path=str(path))
