"""Session-50 review (s50-sreview) of the SessionStart registration through the pinned Claude
Code 2.1.332: the ways a session goes on that s50-servenpm did not measure (``--continue``,
``--resume ID --fork-session``). The registration holds only if every PreToolUse payload's
``session_id`` is one a SessionStart hook of the same process posted first."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from cc_probe import Judge
from cc_runtime import run_session
from gate_sessions import WIDE
from test_s50_session_start import _RECORD, _bash, _records

pytestmark = [pytest.mark.slow]


@pytest.mark.parametrize("how", ["continue", "fork-session"])
def test_a_continued_or_forked_session_starts_with_its_own_id_first(
        judge: Judge, how: str) -> None:
    work = Path(tempfile.mkdtemp(prefix="sg-s50r-", dir="/var/tmp"))
    try:
        (work / "record.py").write_text(_RECORD)
        log = work / "hooks.jsonl"

        def command(event: str) -> dict[str, Any]:
            return {"type": "command",
                    "command": f"{sys.executable} {work / 'record.py'} {event} {log}"}

        settings = {"hooks": {"SessionStart": [{"hooks": [command("SessionStart")]}],
                              "PreToolUse": [{"matcher": "*",
                                              "hooks": [command("PreToolUse")]}]}}
        url, _ = judge.standin.session([_bash(work, 1)])
        done, report = run_session(judge.binary, url, work, None, extra_args=WIDE,
                                   settings=settings)
        assert done.returncode == 0, done.stderr[-400:]
        first = report["session_id"]
        log.unlink()
        more = ["--continue"] if how == "continue" else ["--resume", first, "--fork-session"]
        url, _ = judge.standin.session([_bash(work, 1), _bash(work, 2)])
        done, report = run_session(judge.binary, url, work, None, extra_args=[*WIDE, *more],
                                   settings=settings, prompt="again")
        assert done.returncode == 0, done.stderr[-400:]
        records = _records(log)
        assert [r["hook"] for r in records][:1] == ["SessionStart"], records
        calls = [r for r in records if r["hook"] == "PreToolUse"]
        started = {r["payload"]["session_id"] for r in records if r["hook"] == "SessionStart"}
        assert calls and all(r["payload"]["session_id"] in started for r in calls)
        assert all(r["began"] >= records[0]["ended"] for r in calls)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_a_subagents_calls_carry_the_registered_session_id(judge: Judge) -> None:
    """An ``Agent`` (subagent) call's tools: their PreToolUse payloads must name the session id
    the SessionStart hook registered (else a subagent's writing calls are denied through the
    service), and no SessionStart of its own may register another id."""
    from cc_standin import marker
    work = Path(tempfile.mkdtemp(prefix="sg-s50r-", dir="/var/tmp"))
    try:
        (work / "record.py").write_text(_RECORD)
        log = work / "hooks.jsonl"

        def command(event: str) -> dict[str, Any]:
            return {"type": "command",
                    "command": f"{sys.executable} {work / 'record.py'} {event} {log}"}

        settings = {"hooks": {"SessionStart": [{"hooks": [command("SessionStart")]}],
                              "PreToolUse": [{"matcher": "*",
                                              "hooks": [command("PreToolUse")]}]}}
        agent = ("Agent", {"description": "probe", "prompt": f"run {marker('sub')}",
                           "subagent_type": "general-purpose"})
        url, _ = judge.standin.session([agent], subagents={"sub": [_bash(work, 1)]})
        done, report = run_session(judge.binary, url, work, None,
                                   extra_args=[*WIDE, "--allowedTools", "Agent"],
                                   settings=settings)
        assert done.returncode == 0, done.stderr[-400:]
        records = _records(log)
        seen = [(r["hook"], r["payload"].get("session_id"), r["payload"].get("tool_name"))
                for r in records]
        assert ("PreToolUse", report["session_id"], "Bash") in seen, seen
        assert {s for h, s, _ in seen} == {report["session_id"]}, seen
    finally:
        shutil.rmtree(work, ignore_errors=True)
