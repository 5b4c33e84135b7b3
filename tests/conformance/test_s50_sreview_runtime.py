"""Session-50 review (s50-sreview) of the SessionStart registration through the pinned Claude
Code 2.1.332: the ways a session goes on that s50-servenpm did not measure (``--continue``,
``--resume ID --fork-session``). The registration holds only if every PreToolUse payload's
``session_id`` is one a SessionStart hook of the same process posted first."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from cc_probe import Judge
from cc_runtime import run_session
from gate_sessions import WIDE, denied_by_gate
from review_table import LeftOpen
from test_s50_session_start import _bash, _records, recording_settings
from test_service_e2e import ServiceHook

pytestmark = [pytest.mark.slow]


@pytest.mark.parametrize("how", ["continue", "fork-session"])
def test_a_continued_or_forked_session_starts_with_its_own_id_first(
        judge: Judge, how: str) -> None:
    work = Path(tempfile.mkdtemp(prefix="sg-s50r-", dir="/var/tmp"))
    try:
        settings, log = recording_settings(work)
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
        if how == "fork-session":  # (a new id, registered at its start: how a session whose
            # SessionStart failed resumes under the service's late rule, s51-gfix3)
            assert [r["hook"] for r in records] == ["SessionStart", "PreToolUse"], records
            assert records[0]["payload"]["source"] == "fork"
            assert started == {calls[0]["payload"]["session_id"]} and first not in started
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_a_subagents_calls_carry_the_registered_session_id(judge: Judge) -> None:
    """An ``Agent`` (subagent) call's tools: their PreToolUse payloads must name the session id
    the SessionStart hook registered (else a subagent's writing calls are denied through the
    service), and no SessionStart of its own may register another id."""
    from cc_standin import marker
    work = Path(tempfile.mkdtemp(prefix="sg-s50r-", dir="/var/tmp"))
    try:
        settings, log = recording_settings(work)
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


_NPMRC_CASES = {"control-lower": "npm_config_userconfig", "mixed": "Npm_Config_Userconfig",
                "PREFIX": "PREFIX"}
OPEN = LeftOpen()
# (mixed, PREFIX: closed in s50-servenpm, the registration carries every spelling and PREFIX,
# DESTDIR; the session then differs from the service and its writing calls are denied)


@pytest.mark.parametrize("case", list(_NPMRC_CASES))
def test_a_session_npm_reads_otherwise_cannot_write_its_npmrc_through_the_service(
        judge: Judge, case: str) -> None:
    """Plan ``Bash(touch *)``; the session's environment names ``<work>/npmrc`` (or
    ``<work>/pfx``) as npm's user config (global prefix); the printed SessionStart and http
    hooks: ``touch`` of the npmrc npm then reads must be denied."""
    name = _NPMRC_CASES[case]
    work = Path(tempfile.mkdtemp(prefix="sg-s50r-", dir="/var/tmp"))
    hook = ServiceHook()
    try:
        plan = work / "plan.yaml"
        plan.write_text("allowed-tools:\n  - Bash(touch *)\n")
        entry = hook(work, plan)
        assert hook.session_start is not None
        settings = {"hooks": {"SessionStart": [{"hooks": [hook.session_start]}],
                              "PreToolUse": [{"matcher": "*", "hooks": [entry]}]}}
        value, target = ((str(work / "project" / "pfx"), work / "project" / "pfx" / "etc"
                          / "npmrc") if name == "PREFIX" else
                         (str(work / "project" / "npmrc"), work / "project" / "npmrc"))
        target.parent.mkdir(parents=True, exist_ok=True)
        touch = ("Bash", {"command": f"touch {target}", "description": "probe",
                          "timeout": 5000})
        control = ("Bash", {"command": "touch plain", "description": "probe",
                            "timeout": 5000})
        url, script = judge.standin.session([control, touch])
        run_session(judge.binary, url, work, None, extra_args=WIDE, settings=settings,
                    env={name: value})
        first, second = script.results.get(script.call_id(0)), script.results.get(
            script.call_id(1))
        events = [e for e in hook.stop() if e.get("event") == "session"]
        hook.served = None
        assert [e["outcome"] for e in events] == ["registered"], events
        # differs from the service's: every writing call denied (s50-servenpm, all cases)
        assert first is not None and denied_by_gate(first), first
        assert "differs from the service's" in first[1], first
        assert second is not None and denied_by_gate(second), second
        assert not target.exists()
    finally:
        if hook.served is not None:
            hook.stop()
        shutil.rmtree(work, ignore_errors=True)


# --- F4: what ~/.bashrc exports reaches the Bash tool, not the hooks ------------------------

# (F4, command-bashrc and serve-bashrc: open until session 62; a decided boundary since
# (docs/decisions.md, s62-mfix): the gate does not evaluate ~/.bashrc; the rows pin it)


@pytest.mark.parametrize("where", ["env", "bashrc"])
@pytest.mark.parametrize("kind", ["command", "serve"])
def test_a_variable_bashrc_exports_is_known_to_the_gate(
        judge: Judge, kind: str, where: str) -> None:
    """Plan ``Bash(touch *)``; the user's npm config ``<project>/ci.npmrc`` named by
    ``npm_config_userconfig`` in the runtime's environment: ``touch ci.npmrc`` is denied.
    Exported by ``~/.bashrc`` (in the Bash tool's environment, not the hooks'): allowed, the
    decided boundary (docs/decisions.md, session 62, s62-mfix: the gate does not evaluate
    the user's shell start-up files; the session cannot write them)."""
    from test_gate_e2e import command_hook
    work = Path(tempfile.mkdtemp(prefix="sg-s50r-", dir="/var/tmp"))
    hook = ServiceHook() if kind == "serve" else None
    try:
        plan = work / "plan.yaml"
        plan.write_text("allowed-tools:\n  - Bash(touch *)\n")
        target = work / "project" / "ci.npmrc"
        (work / "home").mkdir(parents=True)
        (work / "project").mkdir()
        env: dict[str, str] = {}
        if where == "bashrc":
            (work / "home" / ".bashrc").write_text(f"export npm_config_userconfig={target}\n")
        else:
            env["npm_config_userconfig"] = str(target)
        hooks: dict[str, Any] = {}
        if hook is not None:
            entry = hook(work, plan)
            assert hook.session_start is not None
            hooks["SessionStart"] = [{"hooks": [hook.session_start]}]
        else:
            entry = command_hook(work, plan)
        hooks["PreToolUse"] = [{"matcher": "*", "hooks": [entry]}]
        touch = ("Bash", {"command": f"touch {target.name}", "description": "probe",
                          "timeout": 5000})
        url, script = judge.standin.session([touch])
        run_session(judge.binary, url, work, None, extra_args=WIDE,
                    settings={"hooks": hooks}, env=env)
        result = script.results.get(script.call_id(0))
        if where == "bashrc":  # (the boundary: the touch runs)
            assert result is not None and not denied_by_gate(result), result
            assert target.exists()
            return
        assert result is not None and denied_by_gate(result), result
        assert not target.exists()
    finally:
        if hook is not None and hook.served is not None:
            hook.stop()
        shutil.rmtree(work, ignore_errors=True)
