"""How the pinned Claude Code treats a PreToolUse hook that fails (issue 28: the last row of
docs/runtime-conformance.md that was documented only).

A hook's exit 1 and a hook command that does not exist let the call through, unless the hook
has ``onFailure: "block"``; invalid JSON on exit 0 lets it through even then. So every failure
of ``skillgrant hook`` is a JSON deny and exit 2, and every hook it prints has
``onFailure: "block"`` (``test_a_hook_that_fails_denies_every_call``).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from cc_probe import TALLY, Judge
from cc_runtime import run_session
from gate_sessions import WIDE

_EXIT_1 = "cat > /dev/null; echo failed >&2; exit 1"
_MISSING = "/nonexistent/skillgrant-hook"
_BAD_JSON = "cat > /dev/null; echo '{not json'; exit 0"


@pytest.mark.parametrize(("answer", "on_failure", "through"), [
    (_EXIT_1, None, True), (_MISSING, None, True), (_BAD_JSON, "block", True),
    (_EXIT_1, "block", False), (_MISSING, "block", False),
], ids=["exit-1", "missing-command", "invalid-json-exit-0-block", "exit-1-block",
        "missing-command-block"])
def test_a_hook_failure_other_than_exit_2_may_let_the_call_through(
        judge: Judge, answer: str, on_failure: str | None, through: bool) -> None:
    work = Path(tempfile.mkdtemp(prefix="sg-hookfail-", dir="/var/tmp"))
    try:
        hook: dict[str, object] = {"type": "command", "command": answer, "timeout": 30}
        if on_failure is not None:
            hook["onFailure"] = on_failure
        settings = {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [hook]}]}}
        url, script = judge.standin.session([("Bash", {"command": "touch zz",
                                                       "description": "probe"})])
        _, report = run_session(judge.binary, url, work, None, extra_args=WIDE,
                                settings=settings)
        refused, text = script.results[script.call_id(0)]
        assert refused is not through, text
        assert (report.get("permission_denials", []) == []) is through
        assert (work / "project" / "zz").exists() is through
        TALLY["hook failure cases"] = TALLY.get("hook failure cases", 0) + 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
