"""Review s48-freview through Claude Code 2.1.332 (run with ``--conformance``): files
``apply --enforce`` writes whose hook the runtime drops, or never loads
(tests/test_s48_freview.py: H1-H8, H10, H11).
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

HOLES: dict[str, str] = {}  # (h1-h8, h10, h11: closed by s48-ffix)

ENFORCE_ROWS = {"h1-tag-comma": ("x: !a,b\ny: {PreToolUse: y}", "h1"),
                "h2-tab-line-crlf": ("x: 1\n\t\r\ny: {PreToolUse: y}", "h2"),
                "h3-block-header": ("x: | -\ny: {PreToolUse: y}", "h3"),
                "h4-complex-key-cr": ("x: 1\r? |#", "h4"),
                "h5-tab-bracket": ("x: [a,\r\t]\ny: {PreToolUse: y}", "h5"),
                "h6-glued-after-anchor": ("x: &a\n  |#", "h6"),
                "h7-tab-line-cr-quoted": ("x: 'a\n\t\r  b'\ny: {PreToolUse: y}", "h7"),
                "h10-cut-anchor-cr": ("x: 1\r&a: b", "h10"),
                "h11-item-under-properties": ("x:\n  - &a\n  |+", "h11"),
                "h8-comma-after-nested": ("x: [[x]\n,b]", "h8"),
                "control": ("x: y\ny: '{PreToolUse: y}'", None)}


@pytest.mark.parametrize("row", [pytest.param(r, marks=[pytest.mark.xfail(
    strict=True, reason=HOLES[hole])] if (hole := ENFORCE_ROWS[r][1]) in HOLES else [])
    for r in sorted(ENFORCE_ROWS)])
def test_enforce_writes_a_hook_the_runtime_drops(judge: Judge, row: str) -> None:
    """``apply --enforce`` (plan ``Bash(echo *)``) writes its hook; under a session allowing
    Bash the skill's hook must deny ``touch zz``."""
    with work_folder("sg-s48fr-") as work:
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
