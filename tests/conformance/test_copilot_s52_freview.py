"""Review s52-freview through Copilot CLI 1.0.102 (run with ``--conformance --copilot``): R1,
``apply``'s restore writes each approved entry canonically (``PreparedPlan.restored``), and a
tool-wide content (``Bash(*)``, ``Bash()``, ``shell(*)``) becomes the bare tool. Copilot CLI has
no globs: the plan's ``Bash(*)`` pre-approves no command there, the bare ``Bash`` every one
(tests/conformance/test_copilot_conformance.py's MEASURED rows). The soundness rule of that
suite: a probe Copilot CLI pre-approves under A (the file after ``apply``, judged under every
runtime, the default) must be pre-approved under P (the plan as a SKILL.md)."""

from __future__ import annotations

import pytest
from cc_cases import block_list, plan_skill, skill
from cp_fixture import copilot
from cp_probe import CopilotJudge
from review_table import LeftOpen
from test_copilot_conformance import CREATE, TOUCH

from skillgrant.plan.model import Plan
from skillgrant.skillfile import apply_to_text

__all__ = ["copilot"]

OPEN = LeftOpen()

#: (the plan, the file's entries): the file grants nothing the plan covers, so it is restored
#: (``-kept``: the file's entry is the plan's, kept as spelled).
R1_ROWS = {"bash-star": (["Bash(*)"], ["Grep"]), "bash-empty": (["Bash()"], ["Grep"]),
           "shell-star": (["shell(*)"], ["Grep"]), "control-gh": (["Bash(touch:*)"], ["Grep"]),
           "bash-star-kept": (["Bash(*)", "Read"], ["Bash(*)"]),
           "write-empty": (["Write()"], ["Grep"]), "write-star": (["Write(*)"], ["Grep"]),
           "edit-empty": (["Edit()"], ["Grep"])}
# (test_copilot_r1_a_restore_grants_no_more_than_the_plan: held since the restore and a kept
# entry write the plan's and the file's own spelling, session 52)


@pytest.mark.parametrize("row", sorted(R1_ROWS))
def test_copilot_r1_a_restore_grants_no_more_than_the_plan(copilot: CopilotJudge,
                                                           row: str) -> None:
    plan, entries = R1_ROWS[row]
    applied, decision = apply_to_text(skill(block_list(entries)), Plan.from_entries(plan))
    assert decision.restored or row.endswith("-kept")  # (kept, as the file spells it)
    probe = CREATE if plan[0].startswith(("Write", "Edit")) else TOUCH
    under_a, under_p = copilot.allowed_many([(applied, [probe]), (plan_skill(plan), [probe])])
    assert not under_a[probe] or under_p[probe], (applied, decision.allowed)
