"""The README's "In other repositories" snippets, as written: the local pre-commit hook run by
pre-commit itself, and the GitHub Actions workflow's ``run:`` steps in a copy of a repository
(with this checkout where the workflow checks skillgrant out, and a fresh virtual environment
for its ``pip install``). The workflow's install is marked ``slow``: it runs with ``--slow``
(.ci/steps/30-slow.sh), not in the README's test command."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO

WIDE = ("---\nname: triage\ndescription: d\nallowed-tools: Bash(gh issue list *), "
        "Bash(rm -rf /tmp/cache)\n---\nbody\n")
NARROW = "---\nname: triage\ndescription: d\nallowed-tools: Bash(gh issue list *)\n---\nbody\n"
PLAN = "allowed-tools:\n  - Bash(gh *)\n"


def _blocks(language: str) -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    start = readme.index("### In other repositories")
    section = readme[start:readme.index("\n## ", start)]
    return re.findall(rf"```{language}\n(.*?)```", section, re.DOTALL)


def _repository(root: Path, skills: str, skill: str) -> Path:
    folder = root / skills / "triage"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(skill)
    (root / skills / "plan.yaml").write_text(PLAN)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    return root


def _env(tmp_path: Path, first: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLGRANT_", "VIRTUAL"))}
    env["PATH"] = f"{first}{os.pathsep}{env['PATH']}"
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    return env


def test_the_local_pre_commit_hook_runs_as_written(tmp_path: Path) -> None:
    if shutil.which("pre-commit", path=f"{Path(sys.executable).parent}") is None:
        pytest.skip("pre-commit is not installed (the test extra has it)")
    (config,) = (b for b in _blocks("yaml") if "repo: local" in b)
    root = _repository(tmp_path / "repo", "skills", WIDE)
    (root / ".pre-commit-config.yaml").write_text(config)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    env = _env(tmp_path, Path(sys.executable).parent)
    run = [str(Path(sys.executable).parent / "pre-commit"), "run", "--all-files"]
    failed = subprocess.run(run, cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "skillgrant check" in failed.stdout and "drop  Bash(rm -rf /tmp/cache)" in \
        failed.stdout
    (root / "skills" / "triage" / "SKILL.md").write_text(NARROW)
    passed = subprocess.run(run, cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert passed.returncode == 0, passed.stdout + passed.stderr


@pytest.mark.slow  # a fresh environment and a pip install of a copy: .ci/steps/30-slow.sh
def test_the_workflow_steps_run_as_written(tmp_path: Path) -> None:
    (workflow,) = (b for b in _blocks("yaml") if "actions/checkout" in b)
    steps = yaml.safe_load(workflow)
    commands = [step["run"] for step in steps if "run" in step]
    assert commands[0] == "pip install ./.skillgrant"
    root = _repository(tmp_path / "repo", ".claude/skills", WIDE)
    # What the second checkout step leaves: this repository at .skillgrant.
    shutil.copytree(REPO, root / ".skillgrant", ignore=shutil.ignore_patterns(
        ".git", ".venv", "__pycache__", "*.egg-info", "build", "dist", ".pytest_cache"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    env = _env(tmp_path, venv / "bin")
    statuses = []
    for command in commands:
        done = subprocess.run(["bash", "-c", command], cwd=root, env=env, capture_output=True,
                              text=True, timeout=600)
        statuses.append(done.returncode)
        if command.startswith("pip"):
            assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        elif "--format github" in command:
            assert "::error file=.claude/skills/triage/SKILL.md" in done.stdout
    assert statuses == [0, 1, 0]  # the annotations step fails the job; the SARIF one does not
    sarif = (root / "skillgrant.sarif").read_text()
    assert '"ruleId": "SG001"' in sarif
