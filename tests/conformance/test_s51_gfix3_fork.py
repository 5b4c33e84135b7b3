"""Session 51 (s51-gfix3): what the service's late-registration rule (service/registry.py: a
registration must precede the session's first call) leaves a session whose SessionStart
failed, measured on the pinned Claude Code 2.1.332: ``claude --resume ID --fork-session``
runs the SessionStart hook with a *new* ``session_id`` (``source: fork``), waited for
before the first PreToolUse, whose payload carries that new id. So such a session resumes
as a new one that registers at its start."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from cc_probe import Judge
from cc_runtime import run_session
from gate_sessions import WIDE
from test_s50_session_start import _bash, _records, recording_settings


def test_a_forked_resume_starts_a_new_session_id_before_its_first_call(judge: Judge) -> None:
    work = Path(tempfile.mkdtemp(prefix="sg-s51-", dir="/var/tmp"))
    try:
        settings, log = recording_settings(work)
        url, _ = judge.standin.session([_bash(work, 1)])
        done, report = run_session(judge.binary, url, work, None, extra_args=WIDE,
                                   settings=settings)
        assert done.returncode == 0, done.stderr[-400:]
        first = report["session_id"]
        log.unlink()
        url, _ = judge.standin.session([_bash(work, 1), _bash(work, 2)])
        done, report = run_session(judge.binary, url, work, None,
                                   extra_args=[*WIDE, "--resume", first, "--fork-session"],
                                   settings=settings, prompt="again")
        assert done.returncode == 0, done.stderr[-400:]
        records = _records(log)
        assert [r["hook"] for r in records] == ["SessionStart", "PreToolUse"], records
        start, call = records
        assert start["payload"]["source"] == "fork"
        forked = start["payload"]["session_id"]
        assert forked != first and call["payload"]["session_id"] == forked
        assert call["began"] >= start["ended"]
    finally:
        shutil.rmtree(work, ignore_errors=True)
