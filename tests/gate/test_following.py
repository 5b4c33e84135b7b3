"""Issue 33's residue (review R-1..R-5): settings files read as Claude Code reads them
(``subagents.read_settings``), and the skill's own hook that lets the main agent start a
subagent only in a session that runs the hook that follows the skill (``gate.following``).
End to end through Claude Code: tests/conformance/test_subagents_review.py."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from skillgrant.errors import SkillFileError
from skillgrant.gate.config import snippet
from skillgrant.gate.hook import Options, decide
from skillgrant.gate.subagents import follow_hook, read_settings, session_files, settings_hook_for
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_text

ENTRIES = ["Bash(echo *)", "Agent(general-purpose)"]
SKILL = ("---\nname: probe\ndescription: d\nallowed-tools: Bash(echo *), Agent(general-purpose)"
         "\n---\nbody\n")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_CODE_USE_COWORK_PLUGINS", raising=False)
    return folder


@pytest.mark.parametrize(("data", "problem"), [
    (b"\xef\xbb\xbf{}", None),  # one BOM stripped, as Claude Code does
    (b"\xef\xbb\xbf\xef\xbb\xbf{}", "1:1: the settings file is not JSON"),  # not a second
    (b'{"x": "\xff"}', "byte 8: the settings file is not UTF-8"),
    (b'\xef\xbb\xbf{"x": "\xff"}', "byte 11: "),
    (b"[" * 5000 + b"]" * 5000, "nests too deeply"),
    (b'{"x": NaN}', "not read as Claude Code reads it"),
    (b'{"x": 1' + b"0" * 5000 + b"}", "not read as Claude Code reads it"),  # Python's limit
    (b"// c\n{}", "1:1: the settings file is not JSON"),
    (b'{"a": 1,}', "1:9: the settings file is not JSON"),
])
def test_a_settings_file_is_read_exactly_or_refused(tmp_path: Path, data: bytes,
                                                    problem: str | None) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(data)
    value, found = read_settings(path)
    if problem is None:
        assert (value, found) == ({}, None)
    else:
        assert found is not None and found.startswith(f"{path}") and problem in found, found


def test_a_missing_file_is_no_problem_and_a_folder_is(tmp_path: Path) -> None:
    assert read_settings(tmp_path / "none.json")[1] is None
    assert read_settings(tmp_path / "f" / "x.json")[1] is None
    (tmp_path / "f").write_text("")
    assert read_settings(tmp_path / "f" / "x.json")[1] is None  # ENOTDIR
    (tmp_path / "d.json").mkdir()
    assert "cannot be read" in str(read_settings(tmp_path / "d.json")[1])
    os.mkfifo(tmp_path / "fifo.json")  # refused without waiting for a writer
    assert "not a regular file" in str(read_settings(tmp_path / "fifo.json")[1])


def printed(plan: Path) -> str:
    return snippet("claude-code", {"--plan": str(plan), "--for-skill": "probe"})[0]


def layout(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The plan, the project, and its skill's path, the printed hook in the project's
    settings."""
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ENTRIES}))
    project = tmp_path / "project"
    skill = project / ".claude" / "skills" / "probe" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(printed(plan))
    return plan, project, skill


def test_a_bom_before_the_hook_file_is_read_as_claude_code_reads_it(tmp_path: Path,
                                                                    home: Path) -> None:
    plan, project, skill = layout(tmp_path)
    hooks = project / ".claude" / "settings.json"
    hooks.write_bytes(b"\xef\xbb\xbf" + hooks.read_bytes())
    assert settings_hook_for("probe", str(skill), str(plan)) == hooks


@pytest.mark.parametrize("where", ["project/.claude/settings.local.json",
                                   "home/.claude/settings.json"])
def test_apply_refuses_with_an_unreadable_settings_file_named(tmp_path: Path, home: Path,
                                                              where: str) -> None:
    plan, _, skill = layout(tmp_path)
    other = tmp_path / where
    other.parent.mkdir(parents=True, exist_ok=True)
    other.write_bytes(b'{"permissions": {}\n  "x": 1}')
    with pytest.raises(SkillFileError) as caught:
        apply_to_text(SKILL, Plan.load(plan), enforce=f"skillgrant hook --plan {plan}",
                      path=str(skill))
    assert f"{other}:2:3: the settings file is not JSON" in caught.value.message


def skill_hook(plan: Path, skill: Path) -> Options:
    """The options of the hook ``apply --enforce`` writes into the skill."""
    return Options({"--plan": str(plan), "--skill-dir": str(skill.parent)})


def call(tool: str, tool_input: dict[str, Any], cwd: Path, agent: str | None = None) -> bytes:
    body: dict[str, Any] = {"session_id": "s", "hook_event_name": "PreToolUse",
                            "tool_name": tool, "tool_input": tool_input, "cwd": str(cwd)}
    if agent is not None:
        body |= {"agent_id": agent, "agent_type": "general-purpose"}
    return json.dumps(body).encode()


START = ("Agent", {"description": "d", "prompt": "p", "subagent_type": "general-purpose"})


def test_the_skill_hook_starts_a_subagent_only_where_the_following_hook_runs(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plan, project, skill = layout(tmp_path)
    skill.write_text(SKILL)
    options = skill_hook(plan, skill)
    assert decide(options, call(*START, project)).status == 0
    sub = project / "sub"  # Claude Code reads no settings of the parent
    denied = decide(options, call(*START, sub))
    assert denied.status == 2 and f"in a session started in {sub}: no settings file" in \
        denied.stderr
    assert decide(options, call("Skill", {"skill": "other"}, sub)).status == 2
    assert decide(options, call("Bash", {"command": "echo hi"}, sub)).status == 0
    assert decide(options, call(*START, sub, agent="a1")).status == 2  # a subagent's too
    follower = Options({"--plan": str(plan), "--for-skill": "probe"})  # judged against P alone
    assert decide(follower, call(*START, sub, agent="a1")).status == 0
    # each folder the session may have been started in must run it
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(sub))
    assert decide(options, call(*START, project)).status == 2
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    assert decide(options, call(*START, project)).status == 0
    # the user's settings are read in every folder
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text(printed(plan))
    assert decide(options, call(*START, sub)).status == 0
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "config"))
    assert decide(options, call(*START, sub)).status == 2
    os.rename(home / ".claude", tmp_path / "config")
    assert decide(options, call(*START, sub)).status == 0
    monkeypatch.setenv("CLAUDE_CODE_USE_COWORK_PLUGINS", "0")  # any value: cowork_settings.json
    assert decide(options, call(*START, sub)).status == 2
    os.rename(tmp_path / "config" / "settings.json", tmp_path / "config" / "cowork_settings.json")
    assert decide(options, call(*START, sub)).status == 0


@pytest.mark.parametrize("data", [b"\xef\xbb\xbf{\"disableAllHooks\": true}", b"{\xff}",
                                  b"[" * 3000 + b"]" * 3000])
def test_the_skill_hook_reads_the_sessions_settings_as_claude_code_does(
        tmp_path: Path, home: Path, data: bytes) -> None:
    plan, project, skill = layout(tmp_path)
    skill.write_text(SKILL)
    (project / ".claude" / "settings.local.json").write_bytes(data)
    denied = decide(skill_hook(plan, skill), call(*START, project))
    assert denied.status == 2 and "settings.local.json" in denied.stderr


def test_the_skill_hook_denies_when_it_cannot_read_its_skill(tmp_path: Path,
                                                             home: Path) -> None:
    plan, project, skill = layout(tmp_path)
    assert decide(skill_hook(plan, skill), call(*START, project)).status == 2  # no SKILL.md
    skill.write_text(SKILL.replace("name: probe", "name: other"))  # another skill's name
    assert decide(skill_hook(plan, skill), call(*START, project)).status == 2
    skill.write_text(SKILL.replace("name: probe\n", ""))  # the folder's name
    assert decide(skill_hook(plan, skill), call(*START, project)).status == 0


def test_a_settings_hook_without_skill_dir_is_left_as_it_was(tmp_path: Path,
                                                             home: Path) -> None:
    plan, project, _ = layout(tmp_path)
    options = Options({"--plan": str(plan)})
    assert decide(options, call(*START, project / "sub")).status == 0


def test_workflow_starts_subagents_for_apply_and_lint() -> None:
    """Review R-10: ``Workflow`` (alias ``RunWorkflow``) starts subagents from a script."""
    from skillgrant.gate.subagents import grants_agent
    from skillgrant.review.checks import agent_reach

    entries = ["Bash(touch *)", "Workflow", "RunWorkflow", "SendMessage", "Read"]
    assert grants_agent(entries) == ["Workflow", "RunWorkflow", "SendMessage"]
    assert [i for i, hit in agent_reach(entries) if hit.rule_id == "SGL117"] == [1, 2, 3]


def test_a_settings_file_over_the_limit_is_refused(tmp_path: Path, home: Path) -> None:
    """Review R-12: Claude Code drops a settings file of 2 MiB, hooks and all."""
    from skillgrant.gate.subagents import MAX_SETTINGS_BYTES

    plan, project, skill = layout(tmp_path)
    hooks = project / ".claude" / "settings.json"
    assert settings_hook_for("probe", str(skill), str(plan)) == hooks
    text = hooks.read_text()
    pad = MAX_SETTINGS_BYTES - len(text.encode()) - len(', "$schema": ""')
    grown = text.replace('{\n  "hooks"', '{"$schema": "' + "x" * pad + '",\n  "hooks"', 1)
    hooks.write_text(grown)
    assert len(grown.encode()) == MAX_SETTINGS_BYTES - 1
    assert settings_hook_for("probe", str(skill), str(plan)) == hooks
    hooks.write_text(grown.replace('"x', '"xx', 1).replace('"x', '"xx', 1))
    assert read_settings(hooks)[1] == f"{hooks}: the settings file holds more than " \
        f"{MAX_SETTINGS_BYTES} bytes (Claude Code drops one of 2 MiB)"
    assert settings_hook_for("probe", str(skill), str(plan)) is None


def test_a_hook_that_may_rewrite_the_call_beside_the_follower_does_not_count(
        tmp_path: Path, home: Path) -> None:
    """Review R-11: another PreToolUse (or PermissionRequest) hook in the file may answer with
    ``updatedInput`` after the gate judged the call; one on another event may not."""
    plan, project, skill = layout(tmp_path)
    hooks = project / ".claude" / "settings.json"
    printed_hooks = json.loads(hooks.read_text())
    other = {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo {}"}]}
    for event, counts in (("PreToolUse", False), ("PermissionRequest", False),
                          ("PostToolUse", True)):
        changed = json.loads(json.dumps(printed_hooks))
        changed["hooks"].setdefault(event, []).append(other)
        hooks.write_text(json.dumps(changed))
        assert (settings_hook_for("probe", str(skill), str(plan)) == hooks) is counts, event


def test_a_linked_worktrees_main_checkout(tmp_path: Path, home: Path) -> None:
    """Review S-1: in a linked worktree the main checkout's local settings are read too; a
    worktree whose repository cannot be read refuses."""
    from skillgrant.gate.worktree import main_checkout

    main = tmp_path / "main"
    admin = main / ".git" / "worktrees" / "wt"
    admin.mkdir(parents=True)
    (admin / "commondir").write_text("../..\n")
    tree = tmp_path / "wt"
    (tree / "sub").mkdir(parents=True)
    (tree / ".git").write_text(f"gitdir: {admin}\n")
    assert main_checkout(str(tree / "sub")) == main
    assert main_checkout(str(main)) == main  # the main checkout itself
    assert main_checkout(str(main / ".git" / "worktrees")) == main  # a plain repository (S-2)
    assert main_checkout(str(tmp_path)) is None  # no repository
    plan, project, skill = layout(tmp_path)
    (project / ".git").write_text(f"gitdir: {admin}\n")  # the project is the worktree
    (main / ".claude").mkdir()
    (main / ".claude" / "settings.local.json").write_text('{"disableAllHooks": true}')
    found, why = follow_hook("probe", str(skill), str(plan), "auto",
                             session_files(str(project)))
    assert found is None and why is not None and str(main / ".claude") in why
    (admin / "commondir").write_text("../../../elsewhere\n")  # not a .git folder
    assert "main checkout is not known" in str(follow_hook(
        "probe", str(skill), str(plan), "auto", session_files(str(project)))[1])
    (project / ".git").write_text("nonsense\n")
    assert "cannot be read" in str(follow_hook(
        "probe", str(skill), str(plan), "auto", session_files(str(project)))[1])


def test_a_subfolder_reads_the_repositorys_local_settings(tmp_path: Path, home: Path) -> None:
    """Review S-2: in a subfolder of a repository Claude Code reads the repository root's
    ``.claude/settings.local.json`` too (its ``settings.json`` not: R-4)."""
    plan, project, skill = layout(tmp_path)
    (project / ".git").mkdir()
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text(printed(plan))
    sub = str(project / "sub")
    assert follow_hook("probe", str(skill), str(plan), "auto", session_files(sub))[0] is not None
    (project / ".claude" / "settings.local.json").write_text('{"disableAllHooks": true}')
    found, why = follow_hook("probe", str(skill), str(plan), "auto", session_files(sub))
    assert found is None and "settings.local.json: it sets 'disableAllHooks'" in str(why)
