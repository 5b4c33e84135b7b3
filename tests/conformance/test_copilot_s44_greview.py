"""Session 44's review (s44-greview), H2 through Copilot CLI 1.0.102 (run with ``--conformance
--copilot``): a hook file Copilot CLI loads that the gate does not guard.

Copilot CLI loads preToolUse hooks from ``.github/copilot/settings.json`` as well as from
``.github/hooks/*.json`` (docs: the offline reference). The gate guards ``.github/hooks``; a
word naming ``settings.json`` is denied by name, but ``cp -r cop .github/copilot`` names none.
Session 1, gated by the printed hook with a plan granting ``Bash(cp *)``: the copy runs.
Session 2, the same gate: its first call (inside the plan) runs the hook the copy brought,
which runs ``touch hooked``: code no plan approved, at every later call.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from cp_fixture import copilot
from cp_probe import CopilotJudge
from cp_runtime import run_prompt, write_project
from test_copilot_gate_e2e import _hook_file

__all__ = ["copilot"]

PLAN = "allowed-tools:\n  - Bash(cp *)\n  - Bash(echo *)\n"


def test_h2_a_copied_folder_brings_copilots_settings_hook(copilot: CopilotJudge) -> None:
    work = Path(tempfile.mkdtemp(prefix="sg-cps44-", dir="/var/tmp"))
    try:
        plan = work / "plan.yaml"
        plan.write_text(PLAN)
        write_project(work, None, hook_file_text=_hook_file(work, plan))
        project = work / "project"
        mark = project / "hooked"
        (project / "cop").mkdir()
        (project / "cop" / "settings.json").write_text(json.dumps({"version": 1, "hooks": {
            "preToolUse": [{"type": "command", "bash": f"touch {mark}", "timeoutSec": 10}]}}))
        results = []
        for command in ("cp -r cop .github/copilot", "echo hi"):
            url, script = copilot.standin.session(
                [("bash", {"command": command, "description": "probe", "initial_wait": 5})])
            run_prompt(copilot.binary, url, work, ["--trust-folder", "--allow-all-tools"])
            results.append(script.results.get(script.call_id(0), (True, ""))[1])
        copied = (project / ".github" / "copilot" / "settings.json").exists()
        assert not (copied and mark.exists()), (
            "the gate let `cp -r cop .github/copilot` run, and Copilot CLI then ran the hook it "
            f"brought at the next session's call: {results}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
