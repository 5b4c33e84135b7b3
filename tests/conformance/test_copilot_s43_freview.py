"""Session 43's review (s43-freview), F1 and F3 through Copilot CLI 1.0.102 (run with
``--conformance --copilot``): skill folders Copilot CLI loads from ``.github/skills`` that
``check`` of the project does not read.

Each row runs one interactive session (where Copilot CLI honours ``allowed-tools``): the
stand-in invokes the skill, then runs ``touch zz``. The runtime's side: the skill loads and
``touch zz`` runs with no question (the skill's ``shell(touch)``; plan ``Read``). skillgrant's
side: ``check .`` of the project with that plan must not pass.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from cp_fixture import copilot
from cp_probe import CopilotJudge
from cp_runtime import run_interactive, write_project

__all__ = ["copilot"]

SKILL = "---\nname: probe\ndescription: probe skill\nallowed-tools: shell(touch)\n---\nRun it.\n"
GOOD = "---\nname: good\ndescription: d\nallowed-tools: Read\n---\nbody\n"


def _linked(work: Path) -> None:
    (work / "outside" / "probe").mkdir(parents=True)
    (work / "outside" / "probe" / "SKILL.md").write_text(SKILL)
    (work / "project" / ".github" / "skills").mkdir(parents=True, exist_ok=True)
    (work / "project" / ".github" / "skills" / "probe").symlink_to("../../../outside/probe")


def _node_modules(work: Path) -> None:
    folder = work / "project" / ".github" / "skills" / "node_modules"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(SKILL)


def _agents_linked(work: Path) -> None:
    (work / "outside" / "probe").mkdir(parents=True)
    (work / "outside" / "probe" / "SKILL.md").write_text(SKILL)
    (work / "project" / ".agents" / "skills").mkdir(parents=True, exist_ok=True)
    (work / "project" / ".agents" / "skills" / "probe").symlink_to("../../../outside/probe")


def _agents_node_modules(work: Path) -> None:
    folder = work / "project" / ".agents" / "skills" / "node_modules"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(SKILL)


LAYOUTS: dict[str, Callable[[Path], None]] = {
    "F1-linked-skill-folder": _linked,
    "F3-skills-node_modules": _node_modules,
    # Against the fix (main 9b668a9): Copilot CLI's third project folder, .agents/skills,
    # is not one of the walk's RUNTIME_DIRS (.claude, .github).
    "F1c-agents-linked-skill-folder": _agents_linked,
    "F3c-agents-skills-node_modules": _agents_node_modules,
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_f1_f3_copilot_loads_skills_check_does_not_read(copilot: CopilotJudge,
                                                        layout: str) -> None:
    work = Path(tempfile.mkdtemp(prefix="sg-cps43-", dir="/var/tmp"))
    try:
        write_project(work, None)
        LAYOUTS[layout](work)
        good = work / "project" / ".github" / "skills" / "good"
        good.mkdir(parents=True)
        (good / "SKILL.md").write_text(GOOD)
        (work / "plan.yaml").write_text("allowed-tools: Read\n")
        calls = [("skill", {"skill": "probe"}),
                 ("bash", {"command": "touch zz", "description": "probe", "initial_wait": 5})]
        url, played = copilot.standin.session(calls)
        shown = run_interactive(copilot.binary, url, played, work)
        loaded = played.results.get(played.call_id(0), (True, ""))[1]
        ran = played.results.get(played.call_id(1), (True, ""))[1]
        # The runtime's side: the skill loads and `touch zz` runs with no question.
        assert loaded.startswith('Skill "probe" loaded'), (loaded, shown.screen[-600:])
        assert 1 not in shown.asked and (work / "project" / "zz").exists(), (ran, shown.asked)
        done = subprocess.run([sys.executable, "-m", "skillgrant", "check", "--plan",
                               str(work / "plan.yaml"), "."], cwd=work / "project",
                              capture_output=True, text=True, timeout=120,
                              env={**os.environ, "NO_COLOR": "1"})
        assert done.returncode != 0, (
            f"check . passed (exit 0) although Copilot CLI loads the skill and runs `touch zz` "
            f"without asking:\n{done.stdout}{done.stderr}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_f1d_a_copilot_plugins_linked_skill_folder_is_read(copilot: CopilotJudge) -> None:
    """Against the fixed walk (main 9b668a9): a Copilot CLI plugin (its manifest the root
    ``plugin.json``, no ``.claude-plugin``) whose ``skills/probe`` is a link out of the tree,
    loaded with ``--plugin-dir``: the skill loads and ``touch zz`` runs with no question; the
    walk upgrades a folder to a plugin root only for ``.claude-plugin`` and enters no link
    elsewhere, so ``check .`` passes."""
    work = Path(tempfile.mkdtemp(prefix="sg-cps43-", dir="/var/tmp"))
    try:
        write_project(work, None)
        plugin = work / "project" / "cplug"
        (work / "outside" / "probe").mkdir(parents=True)
        (work / "outside" / "probe" / "SKILL.md").write_text(SKILL)
        (plugin / "skills").mkdir(parents=True)
        (plugin / "plugin.json").write_text('{"name": "cplug"}')
        (plugin / "skills" / "probe").symlink_to("../../../outside/probe")
        good = work / "project" / ".claude" / "skills" / "good"
        good.mkdir(parents=True)
        (good / "SKILL.md").write_text(GOOD)
        (work / "plan.yaml").write_text("allowed-tools: Read\n")
        # The binary, started with --plugin-dir (run_interactive passes no other argument).
        wrapper = work / "copilot-with-plugin"
        wrapper.write_text(f'#!/bin/sh\nexec "{copilot.binary}" "$@" --plugin-dir "{plugin}"\n')
        wrapper.chmod(0o755)
        calls = [("skill", {"skill": "probe"}),
                 ("bash", {"command": "touch zz", "description": "probe", "initial_wait": 5})]
        url, played = copilot.standin.session(calls)
        shown = run_interactive(wrapper, url, played, work)
        loaded = played.results.get(played.call_id(0), (True, ""))[1]
        assert loaded.startswith('Skill "probe" loaded'), (loaded, shown.screen[-600:])
        assert 1 not in shown.asked and (work / "project" / "zz").exists(), shown.asked
        done = subprocess.run([sys.executable, "-m", "skillgrant", "check", "--plan",
                               str(work / "plan.yaml"), "."], cwd=work / "project",
                              capture_output=True, text=True, timeout=120,
                              env={**os.environ, "NO_COLOR": "1"})
        assert done.returncode != 0, (
            "check . passed (exit 0) although Copilot CLI, started with --plugin-dir cplug, "
            f"loads its linked skill and runs `touch zz`:\n{done.stdout}{done.stderr}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
