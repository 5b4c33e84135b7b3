"""The ceiling reaches subagents (issue 33, ``gate.subagents``): the hook that follows a skill
(``--for-skill``) judges only the sessions where the skill is active, the skill-scoped hook
(``--skill``) marks it active, and ``apply --enforce`` refuses a plan granting ``Agent``
without the settings-level hook. End to end through Claude Code: tests/conformance/
test_subagents_e2e.py."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from skillgrant.errors import SkillFileError
from skillgrant.gate.config import snippet
from skillgrant.gate.hook import Options, decide
from skillgrant.gate.subagents import enforce_command, grants_agent, loads_skill
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_text


@pytest.fixture(autouse=True)
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state"


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


def touch(name: str = "zz") -> tuple[str, dict[str, Any]]:
    return "Bash", {"command": f"touch {name}"}


def test_the_following_hook_leaves_a_session_where_the_skill_is_not_active(
        tmp_path: Path) -> None:
    options = Options({"--plan": str(plan_file(tmp_path, ["Bash(echo *)"])),
                       "--for-skill": "probe"})
    assert decide(options, payload(*touch())).status == 0
    assert decide(options, payload("Skill", {"skill": "probe"})) == ("", "", 0)
    # from then on every call of that session is judged, a subagent's included
    denied = decide(options, payload(*touch(), agent="a1"))
    assert denied.status == 2 and "touch zz" in denied.stderr
    assert decide(options, payload("Bash", {"command": "echo hi"}, agent="a1")).status == 0
    assert decide(options, payload(*touch())).status == 2
    # another session, and another skill, are not
    assert decide(options, payload(*touch(), session="s2", agent="a2")).status == 0
    other = Options({**options.values, "--for-skill": "other"})
    assert decide(other, payload(*touch(), agent="a1")).status == 0


def test_the_skill_hook_marks_the_skill_active(tmp_path: Path) -> None:
    plan = str(plan_file(tmp_path, ["Bash(echo *)"]))
    scoped = Options({"--plan": plan, "--skill": "probe"})
    following = Options({"--plan": plan, "--for-skill": "probe"})
    assert decide(following, payload(*touch(), agent="a1")).status == 0
    assert decide(scoped, payload("Bash", {"command": "echo main"})).status == 0
    assert decide(following, payload(*touch(), agent="a1")).status == 2


def test_a_call_without_a_session_is_judged(tmp_path: Path) -> None:
    options = Options({"--plan": str(plan_file(tmp_path, ["Bash(echo *)"])),
                       "--for-skill": "probe"})
    assert decide(options, payload(*touch(), session="")).status == 2


def test_an_unwritable_record_denies(tmp_path: Path, state: Path) -> None:
    state.parent.mkdir(exist_ok=True)
    state.write_text("not a folder")
    options = Options({"--plan": str(plan_file(tmp_path, ["Bash(echo *)"])), "--skill": "probe"})
    answer = decide(options, payload("Bash", {"command": "echo hi"}))
    assert answer.status == 2 and "activity cannot be recorded" in answer.stderr
    following = Options({**options.values})
    del following.values["--skill"]
    following.values["--for-skill"] = "probe"
    assert decide(following, payload("Skill", {"skill": "probe"})).status == 2


@pytest.mark.parametrize(("tool", "named", "loads"), [
    ("Skill", "probe", True), ("Skill", "/probe", True), ("Skill", "plugin:probe", True),
    ("Skill", "probe2", False), ("Bash", "probe", False)])
def test_the_skill_call_that_loads_it(tool: str, named: str, loads: bool) -> None:
    assert loads_skill(tool, {"skill": named}, "probe") is loads


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
    assert f"{run} --skill probe --skill-dir" in text
    # a plan without Agent: the hook as before
    assert enforce_command("c", "probe", ["Bash(echo *)"], None) == "c"


def test_a_settings_hook_for_another_skill_does_not_count(tmp_path: Path) -> None:
    project = tmp_path / "project"
    path = project / ".claude" / "skills" / "probe" / "SKILL.md"
    path.parent.mkdir(parents=True)
    printed, _ = snippet("claude-code", {"--plan": "p.json", "--for-skill": "other"})
    (project / ".claude" / "settings.json").write_text(printed)
    with pytest.raises(ValueError, match="--for-skill probe"):
        enforce_command("c", "probe", ["Agent"], str(path))
    assert os.path.exists(project / ".claude" / "settings.json")
