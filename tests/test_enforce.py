"""``apply --enforce``: the skill-scoped hook that runs the call gate (skillfile/enforce.py)."""

from __future__ import annotations

import hashlib
import json
import shlex
import subprocess
import sys
from pathlib import Path

import forkrun
import pytest
import yaml

from skillgrant import SkillFileError
from skillgrant.gate.config import HOOK_CODE, command, earlier
from skillgrant.gate.config import claude_hooks as hooks_value
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_file, apply_to_text
from skillgrant.skillfile.enforce import enforce_text

#: The printed hook after its interpreter (gate/config.py).
PRINTED = shlex.join(["-I", "-c", HOOK_CODE, "hook"])

PLAN = Plan.from_entries(["Bash(gh *)"])
HOOK = "skillgrant hook --plan /plans/p.yaml"
SKILL = "---\nname: x\ndescription: d\nallowed-tools: Bash(gh pr list), Bash(rm -rf /)\n---\nbody\n"


def _frontmatter(text: str) -> dict[str, object]:
    loaded = yaml.safe_load(text.split("---")[1])
    assert isinstance(loaded, dict)
    return loaded


def test_the_hook_is_added_after_the_rest_of_the_frontmatter() -> None:
    text, decision = apply_to_text(SKILL, PLAN, enforce=HOOK)
    assert decision.allowed == ["Bash(gh pr list)"]
    head, hooks = text.split("hooks:\n", 1)
    assert head == "---\nname: x\ndescription: d\nallowed-tools: Bash(gh pr list)\n"
    assert hooks.endswith("---\nbody\n")
    assert _frontmatter(text)["hooks"] == hooks_value(HOOK)


def test_applying_twice_equals_applying_once() -> None:
    once, _ = apply_to_text(SKILL, PLAN, enforce=HOOK)
    assert apply_to_text(once, PLAN, enforce=HOOK)[0] == once


def test_without_enforce_nothing_but_allowed_tools_changes() -> None:
    assert "hooks" not in apply_to_text(SKILL, PLAN)[0]


def test_crlf_and_a_missing_final_newline_are_kept() -> None:
    text = "---\r\nname: x\r\nallowed-tools: Bash(gh x)\r\n---\r\nbody"
    out = enforce_text(text, HOOK)
    assert out.endswith("---\r\nbody") and "\n" not in out.replace("\r\n", "")
    assert _frontmatter(out.replace("\r\n", "\n"))["hooks"] == hooks_value(HOOK)


def test_quotes_and_non_ascii_in_the_command_survive_yaml() -> None:
    command = "skillgrant hook --plan '/pläns/a \"b\".yaml'"
    out = enforce_text(SKILL, command)
    assert _frontmatter(out)["hooks"] == hooks_value(command)


def test_other_hooks_are_refused_never_merged() -> None:
    text = "---\nname: x\nhooks:\n  Stop: []\n---\n"
    with pytest.raises(SkillFileError, match="already has a 'hooks' key"):
        enforce_text(text, HOOK)


def test_the_cli_flag_writes_the_plan_by_its_absolute_path(tmp_path: Path) -> None:
    skill = tmp_path / "s" / "SKILL.md"
    skill.parent.mkdir()
    skill.write_text(SKILL)
    (tmp_path / "plan.yaml").write_text("allowed-tools: [Bash(gh *)]\n")
    for extra in ([], ["--jobs", "2"]):  # the fast reader, and typer through a second file
        done = forkrun.run_text(["apply", str(skill), "--plan", "plan.yaml", "--enforce",
                                 *extra], cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        hooks = _frontmatter(skill.read_text())["hooks"]
        # This installation by absolute path (here the interpreter, as the test ran it).
        expected = (f"{sys.executable} {PRINTED} --plan {tmp_path / 'plan.yaml'} "
                    f"--plan-sha256 {_pin(tmp_path / 'plan.yaml')} "  # issue 29, W1c
                    f"--skill-dir {skill.parent}")  # the skill's folder: ${CLAUDE_SKILL_DIR}
        assert hooks == hooks_value(expected)


def _pin(plan: Path) -> str:
    """The plan's digest the hook pins: SHA-256 of its text."""
    return hashlib.sha256(plan.read_text(encoding="utf-8-sig").encode()).hexdigest()


@pytest.mark.parametrize("extra", [[], ["--jobs", "2"], ["--dry-run"]])
def test_apply_enforce_says_it_added_a_hooks_key(tmp_path: Path, extra: list[str]) -> None:
    """The one change outside allowed-tools is never silent: standard error names the file,
    the key and the command; a second run, which leaves the hook as it is, says nothing."""
    skills = [tmp_path / name / "SKILL.md" for name in ("a", "b")]
    for skill in skills:
        skill.parent.mkdir()
        skill.write_text(SKILL)
    (tmp_path / "plan.yaml").write_text("allowed-tools: [Bash(gh *)]\n")

    def apply() -> subprocess.CompletedProcess[str]:
        return forkrun.run_text(["apply", "a", "b", "--plan", "plan.yaml", "--enforce", *extra],
                                cwd=tmp_path)

    done = apply()
    assert done.returncode == 0, done.stderr
    said = "would add" if extra == ["--dry-run"] else "added"
    notes = [line for line in done.stderr.splitlines() if line.startswith("skillgrant: note:")]
    assert notes == [f"skillgrant: note: {name}/SKILL.md: {said} a hooks: key to the frontmatter: "
                     "a PreToolUse hook that runs the gate on every tool call once the skill "
                     f"loads: {sys.executable} {PRINTED} --plan "
                     f"{tmp_path / 'plan.yaml'} --plan-sha256 {_pin(tmp_path / 'plan.yaml')} "
                     f"--skill-dir {tmp_path / name}" for name in ("a", "b")]
    again = apply()
    assert again.returncode == 0
    assert ("note:" in again.stderr) == (extra == ["--dry-run"]), again.stderr


def test_enforce_needs_a_plan_file(tmp_path: Path) -> None:
    skill = tmp_path / "SKILL.md"
    skill.write_text(SKILL)
    done = forkrun.run_text(["apply", str(skill), "--plan", "-", "--enforce"],
                            input="allowed-tools: [Bash(gh *)]\n")
    assert done.returncode == 2 and "--enforce needs the plan as a file" in done.stderr
    assert skill.read_text() == SKILL


# --- issue 27: a skill's own hooks (skillfile/keys.py) ---------------------------------------

def test_a_hook_with_other_arguments_is_refused(tmp_path: Path) -> None:
    """The hook runs ``skillgrant hook`` but with a plan and options of the skill's choosing
    (``--inside allow`` pre-approves what that plan covers): not the one --enforce writes."""
    plan_file = tmp_path / "plan.json"
    plan_file.write_text('{"allowed-tools": ["Read"]}', encoding="utf-8")
    plan = Plan.load(plan_file)
    skill = tmp_path / "SKILL.md"
    for run in ("skillgrant hook --plan wide.yaml --inside allow",
                    f"skillgrant hook --plan {plan_file} --inside allow",
                    f"skillgrant hook --plan {plan_file} --audit-log /tmp/x"):
        text = ("---\nname: x\nallowed-tools: Read\nhooks:\n  PreToolUse:\n    - matcher: '*'\n"
                "      hooks:\n        - type: command\n          command: "
                f"{json.dumps(run)}\n          timeout: 30\n          onFailure: block\n"
                "---\nBody\n")
        skill.write_text(text, encoding="utf-8")
        with pytest.raises(SkillFileError, match="'hooks' lets the skill go beyond its plan"):
            apply_to_file(skill, plan)
        assert skill.read_text(encoding="utf-8") == text


def test_the_hook_enforce_wrote_for_this_plan_passes(tmp_path: Path) -> None:
    plan_file = tmp_path / "plan.json"
    plan_file.write_text('{"allowed-tools": ["Read"]}', encoding="utf-8")
    skill = tmp_path / "SKILL.md"
    skill.write_text("---\nname: x\nallowed-tools: Read\n---\nBody\n", encoding="utf-8")
    apply_to_file(skill, Plan.load(plan_file), enforce=command("claude-code", str(plan_file)))
    assert "hooks:" in skill.read_text(encoding="utf-8")
    assert not apply_to_file(skill, Plan.load(plan_file)).changed  # checked as ours
    other = tmp_path / "other.json"
    other.write_text('{"allowed-tools": ["Read"]}', encoding="utf-8")
    with pytest.raises(SkillFileError, match="'hooks'"):  # not written for that plan
        apply_to_file(skill, Plan.load(other))


def test_the_hook_printed_before_session_48_is_still_ours(tmp_path: Path) -> None:
    """s48-hookspeed: the hook is printed as ``python -I -c HOOK_CODE hook …``; a SKILL.md an
    earlier ``apply --enforce`` wrote holds ``python -I -m skillgrant hook …``: check takes
    it as skillgrant's own, and ``apply --enforce`` leaves it as it is (the same hook)."""
    plan_file = tmp_path / "plan.json"
    plan_file.write_text('{"allowed-tools": ["Read"]}', encoding="utf-8")
    skill = tmp_path / "SKILL.md"
    printed = command("claude-code", str(plan_file))
    old = earlier(printed)
    assert shlex.split(old)[1:4] == ["-I", "-m", "skillgrant"] and old != printed
    assert shlex.split(printed)[1:4] == ["-I", "-c", HOOK_CODE]
    text = enforce_text("---\nname: x\nallowed-tools: Read\n---\nBody\n", old,
                        path=str(skill))
    skill.write_text(text, encoding="utf-8")
    assert not apply_to_file(skill, Plan.load(plan_file)).changed  # checked as ours
    done = apply_to_file(skill, Plan.load(plan_file), enforce=printed)  # re-enforced
    assert not done.changed and skill.read_text(encoding="utf-8") == text
    assert enforce_text(text, printed, path=str(skill)) == text
    other = tmp_path / "other.json"
    other.write_text('{"allowed-tools": ["Read"]}', encoding="utf-8")
    with pytest.raises(SkillFileError, match="'hooks'"):  # not written for that plan
        apply_to_file(skill, Plan.load(other))


def test_an_agent_key_is_refused() -> None:
    with pytest.raises(SkillFileError, match="'agent' lets the skill go beyond its plan"):
        apply_to_text("---\nname: x\nagent: general-purpose\ncontext: fork\n---\n", PLAN)
