"""Review s47-freview2 through Claude Code 2.1.332 (run with ``--conformance``): files
``apply --enforce`` writes whose hook the runtime drops (tests/test_s47_freview2.py: R1-R4,
R6, R7).
Each hole row fails today (strict xfail, ``OPEN``); its control row passes."""

from __future__ import annotations

import pytest
from cc_probe import Judge
from file_review import enforce_session
from review_table import LeftOpen

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()  # (all closed in session 47: the lead's fixes)

ENFORCE_ROWS = {"r1-pretooluse": ("PreToolUse: &a # c\r  !!null x", "r1"),
                "r2-comment": ("x: [PreToolUse: y, : b] # ${V}", "r2"),
                "r3-mapping-after": ("x: \r: b\ny: {PreToolUse: y}", "r3"),
                "r4-anchor": ("x: &a , a\ny: {PreToolUse: y}", "r4"),
                "r6-form-feed": ("x: \x0c@\ny: {PreToolUse: y}", "r6"),
                "r7-tab-comment": ("x: 1\n\t# c\ny: {PreToolUse: y}", "r7"),
                "control": ("x: y\ny: '{PreToolUse: y}'", None)}


@pytest.mark.parametrize("row", sorted(ENFORCE_ROWS))
def test_enforce_writes_a_hook_the_runtime_drops(judge: Judge, row: str) -> None:
    """s47-freview's F1 --enforce session: ``apply --enforce`` (plan ``Bash(echo *)``) writes
    its hook; under a session allowing Bash the ceiling must deny ``touch zz``."""
    enforce_session(judge, "---\nname: probe\ndescription: d\nallowed-tools: Bash(echo *)\n"
                           f"{ENFORCE_ROWS[row][0]}\n---\nRun it.\n")
