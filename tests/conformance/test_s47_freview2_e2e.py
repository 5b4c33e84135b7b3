"""Review s47-freview2 through Claude Code 2.1.332 (run with ``--conformance``): files
``apply --enforce`` writes whose hook the runtime drops (tests/test_s47_freview2.py: R1-R4,
R6, R7).
Each hole row fails today (strict xfail, ``HOLES``); its control row passes."""

from __future__ import annotations

import os
import sys

import pytest
from cc_probe import Judge
from cc_runtime import run_session
from file_review import work_folder

from skillgrant import SkillFileError
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_file

HOLES: dict[str, str] = {}  # (all closed in session 47: the lead's fixes)

ENFORCE_ROWS = {"r1-pretooluse": ("PreToolUse: &a # c\r  !!null x", "r1"),
                "r2-comment": ("x: [PreToolUse: y, : b] # ${V}", "r2"),
                "r3-mapping-after": ("x: \r: b\ny: {PreToolUse: y}", "r3"),
                "r4-anchor": ("x: &a , a\ny: {PreToolUse: y}", "r4"),
                "r6-form-feed": ("x: \x0c@\ny: {PreToolUse: y}", "r6"),
                "r7-tab-comment": ("x: 1\n\t# c\ny: {PreToolUse: y}", "r7"),
                "control": ("x: y\ny: '{PreToolUse: y}'", None)}


@pytest.mark.parametrize("row", [pytest.param(r, marks=[pytest.mark.xfail(
    strict=True, reason=HOLES[hole])] if (hole := ENFORCE_ROWS[r][1]) in HOLES else [])
    for r in sorted(ENFORCE_ROWS)])
def test_enforce_writes_a_hook_the_runtime_drops(judge: Judge, row: str) -> None:
    """s47-freview's F1 --enforce session: ``apply --enforce`` (plan ``Bash(echo *)``) writes
    its hook; under a session allowing Bash the ceiling must deny ``touch zz``."""
    with work_folder("sg-s47fr2-") as work:
        plan = work / "plan.json"
        plan.write_text('{"allowed-tools": ["Bash(echo *)"]}')
        command = f"{sys.executable} -m skillgrant hook --plan {plan}"
        where = work / "project" / ".claude" / "skills" / "probe" / "SKILL.md"
        where.parent.mkdir(parents=True)
        where.write_bytes((f"---\nname: probe\ndescription: d\nallowed-tools: Bash(echo *)\n"
                           f"{ENFORCE_ROWS[row][0]}\n---\nRun it.\n").encode())
        try:
            apply_to_file(where, Plan.from_entries(["Bash(echo *)"]), enforce=command)
        except SkillFileError:
            return  # refused: sound
        url, session = judge.standin.session([("Skill", {"skill": "probe"}), (
            "Bash", {"command": "touch zz", "description": "probe", "timeout": 5000})])
        done, _ = run_session(judge.binary, url, work, None,
                              extra_args=["--allowedTools", "Bash"],
                              env={"PYTHONPATH": os.environ.get("PYTHONPATH", "")})
        judge.sessions += 1
        result = session.results.get(session.call_id(1))
        assert result is not None, done.stderr[-600:]
        assert not (work / "project" / "zz").exists(), (
            f"apply --enforce wrote its hook beside {ENFORCE_ROWS[row][0]!r}; Claude Code ran "
            f"touch zz outside the plan ({result[1][:200]!r})")
