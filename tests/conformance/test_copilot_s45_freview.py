"""Session 45's review (s45-freview) through Copilot CLI 1.0.102 (run with ``--conformance
--copilot``): skills ``apply`` writes (or keeps) that Copilot CLI reads with more grants than
the plan.

Each row runs ``apply --plan`` on the project, then one interactive session (where Copilot CLI
honours ``allowed-tools``) with the file as ``apply`` left it: the stand-in invokes the skill,
then runs ``touch zz``. Under the plan's own file (P) that call is put to the person; under the
applied file (A) it must be too. Each fails today (strict xfail, ``HOLES``).
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

HOLES = {
    "F1": "Copilot CLI splits a value whose parentheses do not balance at every comma: "
          "Read(x, Bash(touch:*) is Read(x and Bash(touch:*); skillgrant keeps the one Read "
          "entry Claude Code reads",
}

#: Each row: the submitted allowed-tools value and the plan.
ROWS = {
    "F1-read-then-bash": ("Read(x, Bash(touch:*)", "Read"),
    "F1-read-path-then-shell": ("Read(//usr/**, shell(touch)", "Read(//usr/**)"),
}


def _apply(work: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skillgrant", "apply", "--plan",
                           str(work / "plan.yaml"), "."], cwd=work / "project",
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})


@pytest.mark.xfail(strict=True, reason=HOLES["F1"])
@pytest.mark.parametrize("row", sorted(ROWS))
def test_f1_an_applied_skill_copilot_splits_otherwise(copilot: CopilotJudge, row: str) -> None:
    value, plan = ROWS[row]
    work = Path(tempfile.mkdtemp(prefix="sg-cps45-", dir="/var/tmp"))
    try:
        write_project(work, f"---\nname: probe\ndescription: probe skill\nallowed-tools: "
                            f"{value}\n---\nRun it.\n")
        (work / "plan.yaml").write_text(f"allowed-tools: {plan}\n")
        done = _apply(work)
        if done.returncode != 0:
            return  # refused: sound
        applied = (work / "project" / ".github" / "skills" / "probe" / "SKILL.md").read_text()
        calls = [("skill", {"skill": "probe"}),
                 ("bash", {"command": "touch zz", "description": "probe", "initial_wait": 5})]
        url, played = copilot.standin.session(calls)
        shown = run_interactive(copilot.binary, url, played, work)
        loaded = played.results.get(played.call_id(0), (True, ""))[1]
        assert "probe" in loaded, (loaded, shown.screen[-600:])
        ran = 1 not in shown.asked and (work / "project" / "zz").exists()
        assert not ran, (f"apply --plan {plan!r} left allowed-tools as {applied!r}, and Copilot "
                         "CLI ran `touch zz` with no question (the plan's file asks)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
