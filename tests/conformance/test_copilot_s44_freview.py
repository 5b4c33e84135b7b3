"""Session 44's review (s44-freview) through Copilot CLI 1.0.102 (run with ``--conformance
--copilot``): files Copilot CLI loads and honours that ``check`` of the project does not read.

Each row runs one interactive session (where Copilot CLI honours ``allowed-tools``): the
stand-in invokes the file, then runs ``touch zz``. The runtime's side: the file loads and
``touch zz`` runs with no question (its ``shell(touch)``; plan ``Read``). skillgrant's side:
``check .`` of the project with that plan must not pass.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from cp_fixture import copilot
from cp_probe import CopilotJudge
from cp_runtime import run_interactive, write_project

__all__ = ["copilot"]

COMMAND = "---\ndescription: probe command\nallowed-tools: shell(touch)\n---\nRun it.\n"
GOOD = "---\nname: good\ndescription: d\nallowed-tools: Read\n---\nbody\n"

#: Each row: the command file's path under the project.
COMMANDS = {
    # Copilot CLI's command loader takes `.MD` (any case) as Markdown; the walk wants `.md`.
    "N1-upper-case-extension": ".claude/commands/probe.MD",
    "N1-mixed-case-extension": ".claude/commands/probe.Md",
}


def _check(work: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skillgrant", "check", "--plan",
                           str(work / "plan.yaml"), "."], cwd=work / "project",
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})


@pytest.mark.parametrize("row", sorted(COMMANDS))
def test_n1_copilot_loads_command_files_check_does_not_read(copilot: CopilotJudge,
                                                           row: str) -> None:
    work = Path(tempfile.mkdtemp(prefix="sg-cps44-", dir="/var/tmp"))
    try:
        write_project(work, None)
        path = work / "project" / COMMANDS[row]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(COMMAND)
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
        # The runtime's side: the command loads and `touch zz` runs with no question.
        assert 'probe' in loaded and 'loaded' in loaded, (loaded, shown.screen[-600:])
        assert 1 not in shown.asked and (work / "project" / "zz").exists(), (ran, shown.asked)
        done = _check(work)
        assert done.returncode != 0, (
            f"check . passed (exit 0) although Copilot CLI loads {COMMANDS[row]} and runs "
            f"`touch zz` without asking:\n{done.stdout}{done.stderr}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
