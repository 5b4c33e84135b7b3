"""Review s48-freview through Claude Code 2.1.332 (run with ``--conformance``): files
``apply --enforce`` writes whose hook the runtime drops, or never loads
(tests/test_s48_freview.py: H1-H8, H10, H11).
Each hole row fails today (strict xfail, ``HOLES``); its control row passes."""

from __future__ import annotations

import pytest
from cc_probe import Judge
from file_review import enforce_session

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
    enforce_session(judge, "---\nname: probe\ndescription: d\nallowed-tools: Bash(echo *)\n"
                           f"{ENFORCE_ROWS[row][0]}\n---\nRun it.\n")
