"""Session 46's second review of the reader (s46-freview2) through Copilot CLI 1.0.102 (run with
``--conformance --copilot``): files ``apply`` keeps that Copilot CLI reads with more grants than
the plan, and files it loads that ``check`` does not read.

Each hole row has two sides: the runtime's (the skill loads and ``touch zz`` runs with no
question: the layout is real) and skillgrant's (``apply`` must refuse, or ``check`` must not
pass). A control row, the plan's own reading, passes.
"""

from __future__ import annotations

import json
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

HOLES: dict[str, str] = {}  # (C1, D1: fixed by s46-ffix)

CALLS = [("skill", {"skill": "probe"}),
         ("bash", {"command": "touch zz", "description": "probe", "initial_wait": 5})]

#: C1's file, and a control with the key untagged (apply drops it: the call is asked).
C1_ROWS = {
    "tagged-key": "---\nname: probe\ndescription: a---b\n!!binary allowed-tools: shell(touch)\n"
                  "---\nRun it.\n",
}
C1_CONTROL = "---\nname: probe\ndescription: a---b\nallowed-tools: shell(touch)\n---\nRun it.\n"


def _skillgrant(command: str, work: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skillgrant", command, "--plan",
                           str(work / "plan.yaml"), "."], cwd=work / "project",
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
                          env={**os.environ, "NO_COLOR": "1"})


def _session(copilot: CopilotJudge, work: Path) -> bool:
    """Whether ``touch zz`` ran with no question once the skill loaded."""
    url, played = copilot.standin.session(CALLS)
    shown = run_interactive(copilot.binary, url, played, work)
    loaded = played.results.get(played.call_id(0), (True, ""))[1]
    assert "probe" in loaded, (loaded, shown.screen[-600:])
    return 1 not in shown.asked and (work / "project" / "zz").exists()


def _c1(copilot: CopilotJudge, text: str) -> tuple[subprocess.CompletedProcess[str], str, bool]:
    work = Path(tempfile.mkdtemp(prefix="sg-cpfr2-", dir="/var/tmp"))
    try:
        write_project(work, text)
        (work / "plan.yaml").write_text("allowed-tools: []\n")
        done = _skillgrant("apply", work)
        applied = (work / "project" / ".github" / "skills" / "probe" / "SKILL.md").read_text()
        ran = _session(copilot, work) if done.returncode == 0 else False
        return done, applied, ran
    finally:
        shutil.rmtree(work, ignore_errors=True)


@pytest.mark.parametrize("row", sorted(C1_ROWS))
def test_copilot_c1_a_tagged_key_past_claude_codes_span_grants_the_shell(
        copilot: CopilotJudge, row: str) -> None:
    """Plan: nothing. apply keeps the file (exit 0); Copilot CLI reads allowed-tools
    shell(touch) and runs ``touch zz`` unasked."""
    done, applied, ran = _c1(copilot, C1_ROWS[row])
    assert not ran, (f"apply (plan: nothing) exit {done.returncode} left {applied!r}; Copilot "
                     f"CLI ran touch zz with no question\n{done.stdout}")


def test_copilot_c1_control_the_untagged_key_is_dropped(copilot: CopilotJudge) -> None:
    done, applied, ran = _c1(copilot, C1_CONTROL)
    assert done.returncode == 0 and "shell(touch)" not in applied, done.stdout
    assert not ran


D1_FOLDERS = {"node-modules": "node_modules/pkg/skills", "git": ".git/sk"}


@pytest.mark.parametrize("row", sorted(D1_FOLDERS))
def test_copilot_d1_settings_local_skill_directories_load_a_skill_check_never_reads(
        copilot: CopilotJudge, row: str) -> None:
    """``.github/copilot/settings.local.json`` ``{"skillDirectories": [FOLDER]}``: Copilot CLI
    loads FOLDER/probe/SKILL.md (``allowed-tools: shell(touch)``) and runs ``touch zz``
    unasked; ``check --plan Read .`` must not pass the project."""
    folder = D1_FOLDERS[row]
    work = Path(tempfile.mkdtemp(prefix="sg-cpfr2-", dir="/var/tmp"))
    try:
        write_project(work, "---\nname: good\ndescription: d\nallowed-tools: Read\n---\nb\n")
        project = work / "project"
        for rel, text in {".github/copilot/settings.local.json":
                          json.dumps({"skillDirectories": [folder]}),
                          f"{folder}/probe/SKILL.md": C1_CONTROL}.items():
            (project / rel).parent.mkdir(parents=True, exist_ok=True)
            (project / rel).write_text(text)
        # write_project put the good skill at .github/skills/probe: move it aside
        (project / ".github" / "skills" / "probe").rename(project / ".github" / "skills" / "good")
        assert _session(copilot, work), "the layout is not real: touch zz was asked"
        (work / "plan.yaml").write_text("allowed-tools: Read\n")
        done = _skillgrant("check", work)
        assert done.returncode != 0, f"check . passed; Copilot CLI ran touch zz:\n{done.stdout}"
    finally:
        shutil.rmtree(work, ignore_errors=True)
