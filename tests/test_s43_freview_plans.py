"""Session 43's review (s43-freview), F6: which plan ``check`` judges a file against when no
``--plan`` is given (cli/discovery.py: the nearest ``skillgrant-plan.yaml``/``plan.yaml`` beside
the file or above it, up to the repository's root).

A submitted skill folder can carry its own ``plan.yaml``: it is nearer to its SKILL.md than the
repository's plan, so the skill is judged against the plan it brought. ``check .`` then passes
a skill whose ``allowed-tools: Bash`` the repository's plan (``Read``) does not approve, and
its report does not say which plan it used. (Claude Code 2.1.332 reads a skill's bare ``Bash``
as every command: docs/runtime-conformance.md.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def skill(name: str, allowed: str) -> str:
    return f"---\nname: {name}\ndescription: d\nallowed-tools: {allowed}\n---\nbody\n"


@pytest.mark.xfail(strict=True, reason="a boundary (docs/decisions.md, review s43-freview F6): "
                   "the plan beside a SKILL.md is its approved plan by design; a repository "
                   "checking submitted skills pins their plans with the configuration's "
                   "`plans` globs, which win over the nearest plan file")
def test_f6_a_skill_folder_does_not_bring_its_own_plan(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)  # the repository's root, as discovery finds it
    (repo / "plan.yaml").write_text("allowed-tools: Read\n")
    good = repo / ".claude" / "skills" / "good"
    evil = repo / ".claude" / "skills" / "evil"
    good.mkdir(parents=True)
    evil.mkdir(parents=True)
    (good / "SKILL.md").write_text(skill("good", "Read"))
    (evil / "SKILL.md").write_text(skill("evil", "Bash"))
    (evil / "plan.yaml").write_text("allowed-tools: Bash\n")  # shipped with the skill
    done = subprocess.run([sys.executable, "-m", "skillgrant", "check", "."], cwd=repo,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode != 0, (
        "check . passed (exit 0): the submitted skill was judged against the plan.yaml in its "
        f"own folder, not the repository's plan (Read):\n{done.stdout}{done.stderr}")


def test_f6_a_repository_pins_its_plans_by_configuration(tmp_path: Path) -> None:
    """What docs/decisions.md recommends for submitted skills: the configuration's ``plans``
    glob wins over the plan file a skill folder brings, and ``check .`` fails."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "plan.yaml").write_text("allowed-tools: Read\n")
    (repo / ".skillgrant.toml").write_text('plans = { ".claude/**" = "plan.yaml" }\n')
    evil = repo / ".claude" / "skills" / "evil"
    evil.mkdir(parents=True)
    (evil / "SKILL.md").write_text(skill("evil", "Bash"))
    (evil / "plan.yaml").write_text("allowed-tools: Bash\n")
    done = subprocess.run([sys.executable, "-m", "skillgrant", "check", "."], cwd=repo,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode != 0, done.stdout + done.stderr
    assert "drop" in done.stdout, done.stdout
