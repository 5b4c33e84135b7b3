"""Review s53 (s53-greview) of s53-gfix, end to end through the pinned Claude Code 2.1.332
(``--conformance``): a skill whose own script starts make in the project's folder (tests/gate/
test_s53_greview.py R rows, proved there by real bash with the printed hook): here the skill
is loaded by the runtime, its hook written by ``apply --enforce`` (with ``--skill-dir``), and
the model's calls run by the runtime's Bash tool."""

from __future__ import annotations

from pathlib import Path

from cc_probe import Judge
from cc_runtime import SKILL_NAME
from gate_sessions import denied_by_gate
from review_table import LeftOpen
from test_subagents_e2e import bash, enforced_skill, load, run, work  # noqa: F401

#: The holes left open by this review here (tests/conftest.py reads it): none since s53-gfix
#: ce95f49 (a script named by an expansion guards every start name in the call's folders).
OPEN = LeftOpen()

ENTRIES = ["Bash(${CLAUDE_SKILL_DIR}/scripts/run.sh)", "Bash(cp *)"]


def test_r1_the_skills_own_script_runs_a_makefile_a_copy_put_here(judge: Judge,
                                                                   work: Path) -> None:  # noqa: F811
    """The skill ``probe`` (plan ``Bash(${CLAUDE_SKILL_DIR}/scripts/run.sh)``, ``Bash(cp
    *)``; ``scripts/run.sh`` runs ``make test``): the runtime loads it, then runs ``touch
    yy`` (outside the plan: the skill's hook is live, it denies it), ``cp payload/mk
    Makefile`` and the script by its path; the payload makes ``zz`` in the project unless a
    call is denied. The hole at 5a848e9 (the runtime ran the payload); held since ce95f49."""
    project = work / "project"
    (project / "payload").mkdir(parents=True)
    (project / "payload" / "mk").write_text("test:\n\ttouch zz\n")
    skill = project / ".claude" / "skills" / SKILL_NAME
    (skill / "scripts").mkdir(parents=True)
    (skill / "scripts" / "run.sh").write_text("#!/bin/sh\nmake test\n")
    (skill / "scripts" / "run.sh").chmod(0o755)
    _, text = enforced_skill(work, ENTRIES)
    got = run(judge, work, text, [load(), bash("touch yy"), bash("cp payload/mk Makefile"),
                                  bash(f"{skill}/scripts/run.sh")], {})
    assert all(r is not None for r in got.main), got.main
    outside = got.main[1]
    assert outside is not None and denied_by_gate(outside), got.main
    assert not (project / "zz").exists(), f"the runtime ran the payload: {got.main}"
    assert any(r is not None and denied_by_gate(r) for r in got.main[2:]), got.main

