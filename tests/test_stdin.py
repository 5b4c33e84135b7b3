"""Standard input: a SKILL.md piped in as the plan gets a hint to read it as one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

APPROVED = "---\nname: x\ndescription: d\nallowed-tools: Bash(gh *)\n---\nbody\n"
SUBMITTED = "---\nname: t\ndescription: d\nallowed-tools: Bash(gh pr list)\n---\n"


def _run(root: Path, stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skillgrant", *args], cwd=root, input=stdin,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("args", "option"), [
    (["check", "SKILL.md", "--plan", "-"], "--plan-kind skill"),
    (["lint", "-"], "--kind skill"),
])
def test_a_skill_md_piped_as_the_plan_gets_a_hint(tmp_path: Path, args: list[str],
                                                  option: str) -> None:
    (tmp_path / "SKILL.md").write_text(SUBMITTED)
    done = _run(tmp_path, APPROVED, *args)
    assert done.returncode == 2
    assert f"as a SKILL.md does: to read it as an approved SKILL.md, give {option}" in \
        done.stderr
    hinted = _run(tmp_path, APPROVED, *args, *option.split())
    assert hinted.returncode == 0, hinted.stderr


def test_no_hint_for_a_plan_that_is_not_a_skill(tmp_path: Path) -> None:
    (tmp_path / "SKILL.md").write_text(SUBMITTED)
    done = _run(tmp_path, "allowed-tools: [Bash(gh *\n", "check", "SKILL.md", "--plan", "-")
    assert done.returncode == 2 and "SKILL.md does" not in done.stderr
