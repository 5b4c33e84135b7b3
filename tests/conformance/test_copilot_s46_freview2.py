"""Session 46's second review of the reader (s46-freview2) through Copilot CLI 1.0.102 (run with
``--conformance --copilot``): files ``apply`` keeps that Copilot CLI reads with more grants than
the plan, and files it loads that ``check`` does not read.

Each hole row has two sides: the runtime's (the skill loads and ``touch zz`` runs with no
question: the layout is real) and skillgrant's (``apply`` must refuse, or ``check`` must not
pass). A control row, the plan's own reading, passes.
"""

from __future__ import annotations

import json

import pytest
from cp_fixture import copilot
from cp_probe import CopilotJudge
from cp_runtime import write_project
from file_review import copilot_applied, lay_out, unasked_then_checked, work_folder
from review_table import LeftOpen

__all__ = ["copilot"]

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()  # (C1, D1: fixed by s46-ffix)

#: C1's file, and a control with the key untagged (apply drops it: the call is asked).
C1_ROWS = {
    "tagged-key": "---\nname: probe\ndescription: a---b\n!!binary allowed-tools: shell(touch)\n"
                  "---\nRun it.\n",
}
C1_CONTROL = "---\nname: probe\ndescription: a---b\nallowed-tools: shell(touch)\n---\nRun it.\n"


@pytest.mark.parametrize("row", sorted(C1_ROWS))
def test_copilot_c1_a_tagged_key_past_claude_codes_span_grants_the_shell(
        copilot: CopilotJudge, row: str) -> None:
    """Plan: nothing. apply keeps the file (exit 0); Copilot CLI reads allowed-tools
    shell(touch) and runs ``touch zz`` unasked."""
    done, applied, played = copilot_applied(copilot, C1_ROWS[row])
    assert played is None or not played.ran, (
        f"apply (plan: nothing) exit {done.returncode} left {applied!r}; Copilot CLI ran touch "
        f"zz with no question\n{done.stdout}")


def test_copilot_c1_control_the_untagged_key_is_dropped(copilot: CopilotJudge) -> None:
    done, applied, played = copilot_applied(copilot, C1_CONTROL)
    assert done.returncode == 0 and b"shell(touch)" not in applied, done.stdout
    assert played is None or not played.ran


D1_FOLDERS = {"node-modules": "node_modules/pkg/skills", "git": ".git/sk"}


@pytest.mark.parametrize("row", sorted(D1_FOLDERS))
def test_copilot_d1_settings_local_skill_directories_load_a_skill_check_never_reads(
        copilot: CopilotJudge, row: str) -> None:
    """``.github/copilot/settings.local.json`` ``{"skillDirectories": [FOLDER]}``: Copilot CLI
    loads FOLDER/probe/SKILL.md (``allowed-tools: shell(touch)``) and runs ``touch zz``
    unasked; ``check --plan Read .`` must not pass the project."""
    folder = D1_FOLDERS[row]
    with work_folder("sg-cpfr2-") as work:
        write_project(work, "---\nname: good\ndescription: d\nallowed-tools: Read\n---\nb\n")
        project = work / "project"
        lay_out(project, {".github/copilot/settings.local.json":
                          json.dumps({"skillDirectories": [folder]}),
                          f"{folder}/probe/SKILL.md": C1_CONTROL})
        # write_project put the good skill at .github/skills/probe: move it aside
        (project / ".github" / "skills" / "probe").rename(project / ".github" / "skills" / "good")
        done = unasked_then_checked(copilot, work)  # (the layout is real: touch zz ran)
        assert done.returncode != 0, f"check . passed; Copilot CLI ran touch zz:\n{done.stdout}"
