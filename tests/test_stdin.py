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


WIDE = "---\nname: t\ndescription: d\nallowed-tools: Bash(gh pr list), Bash(rm -rf /)\n---\nb\n"
NARROWED = "---\nname: t\ndescription: d\nallowed-tools: Bash(gh pr list)\n---\nb\n"


def _plan(root: Path) -> Path:
    (root / "plan.yaml").write_text("allowed-tools:\n  - Bash(gh *)\n")
    return root / "plan.yaml"


def test_check_reads_one_skill_from_standard_input(tmp_path: Path) -> None:
    _plan(tmp_path)
    done = _run(tmp_path, WIDE, "check", "-", "--plan", "plan.yaml")
    assert done.returncode == 1 and done.stdout.startswith("<stdin>:4: would change")
    assert _run(tmp_path, NARROWED, "check", "-", "-p", "plan.yaml").returncode == 0


def test_apply_prints_the_new_text_and_writes_nothing(tmp_path: Path) -> None:
    _plan(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    done = _run(tmp_path, WIDE, "apply", "-", "--plan", "plan.yaml")
    assert (done.returncode, done.stdout) == (0, NARROWED)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_apply_json_carries_the_new_text_and_matches_its_schema(tmp_path: Path) -> None:
    import json

    import jsonschema

    from skillgrant.reports.schemas import report_schema

    _plan(tmp_path)
    done = _run(tmp_path, WIDE, "apply", "-", "--plan", "plan.yaml", "--format", "json")
    document = json.loads(done.stdout)
    jsonschema.validate(document, report_schema("apply"))
    (item,) = document["files"]
    assert item["path"] == "<stdin>" and item["text"] == NARROWED
    assert item["allowed"] == ["Bash(gh pr list)"] and item["applied"] is False


@pytest.mark.parametrize(("args", "stdin", "said"), [
    (["check", "-"], WIDE, "needs --plan, given as a file"),
    (["check", "-", "-p", "-"], WIDE, "needs --plan, given as a file"),
    (["check", "-", "SKILL.md", "-p", "plan.yaml"], WIDE, "must be the only path"),
    (["check", "-", "-p", "plan.yaml"], "no frontmatter\n", "<stdin>:1:1: no frontmatter"),
])
def test_standard_input_errors(tmp_path: Path, args: list[str], stdin: str, said: str) -> None:
    _plan(tmp_path)
    (tmp_path / "SKILL.md").write_text(WIDE)
    done = _run(tmp_path, stdin, *args)
    assert done.returncode == 2 and said in done.stderr, done.stderr
