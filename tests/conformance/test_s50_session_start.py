"""Session 50 (s50-servenpm): the SessionStart registration of ``skillgrant serve``
(service/registry.py), through the pinned Claude Code.

What the design rests on, measured here on 2.1.332:
- a ``SessionStart`` command hook runs when a session starts (``source: startup``), and the
  runtime waits for it before the session's first tool call, even when it takes seconds;
- its ``session_id`` is the one of every PreToolUse payload of the session, and of the
  session's result;
- its environment is the one the Bash tool's commands and the PreToolUse command hook run in
  (npm's variables in either case; only ``CLAUDE_ENV_FILE`` and ``CLAUDE_EFFORT`` differ);
- ``claude --resume ID`` runs it again with ``source: resume``, the same ``session_id`` and
  the resumed process's environment, which may hold other values: the service refuses other
  values for a registered id, and denies the session's calls from then on;
- a variable a SessionStart hook exports through ``CLAUDE_ENV_FILE`` reaches the Bash tool's
  commands, and neither a PreToolUse command hook's environment nor an http hook's header
  (so no header can carry what the registration carries).
"""

from __future__ import annotations

import http.server
import json
import shutil
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from cc_probe import Judge
from cc_runtime import run_session
from gate_sessions import WIDE, denied_by_gate
from test_s49_serve_npm import _Recorder
from test_service_e2e import ServiceHook

_RECORD = r'''
import json, os, sys, time
began = time.time()
data = sys.stdin.read()
if sys.argv[1] == "SessionStart":
    time.sleep(2)
with open(sys.argv[2], "a") as f:
    f.write(json.dumps({"hook": sys.argv[1], "began": began, "ended": time.time(),
                        "payload": json.loads(data or "null"), "env": dict(os.environ)}) + "\n")
'''
_NPM = ("npm_config_userconfig", "NPM_CONFIG_PREFIX", "npm_config_globalconfig")


def _bash(work: Path, n: int) -> tuple[str, dict[str, Any]]:
    return ("Bash", {"command": f"env > {work}/bash{n}.env", "description": "probe",
                     "timeout": 5000})


def _records(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def _npm(env: dict[str, str]) -> dict[str, str | None]:
    return {name: env.get(name) for name in _NPM}


def recording_settings(work: Path) -> tuple[dict[str, Any], Path]:
    """Settings whose SessionStart and PreToolUse command hooks append each payload, with the
    hook's environment, to ``work/hooks.jsonl`` (``_RECORD``, written to ``work``), and that
    log's path."""
    (work / "record.py").write_text(_RECORD)
    log = work / "hooks.jsonl"

    def command(event: str) -> dict[str, Any]:
        return {"type": "command",
                "command": f"{sys.executable} {work / 'record.py'} {event} {log}"}

    return ({"hooks": {"SessionStart": [{"hooks": [command("SessionStart")]}],
                       "PreToolUse": [{"matcher": "*", "hooks": [command("PreToolUse")]}]}},
            log)


def _bash_env(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)


def test_session_start_runs_first_in_the_tools_environment_and_again_on_resume(
        judge: Judge) -> None:
    work = Path(tempfile.mkdtemp(prefix="sg-s50-", dir="/var/tmp"))
    try:
        settings, log = recording_settings(work)
        first = {"npm_config_userconfig": "/lower/npmrc", "NPM_CONFIG_PREFIX": "/upper"}
        url, _ = judge.standin.session([_bash(work, 1)])
        done, report = run_session(judge.binary, url, work, None, extra_args=WIDE,
                                   settings=settings, env=first)
        assert done.returncode == 0, done.stderr[-400:]
        session_id = report["session_id"]
        started = _records(log)
        log.unlink()
        # resumed, in an environment with another npm user config
        resumed_env = {**first, "npm_config_userconfig": "/lower2/npmrc"}
        url, _ = judge.standin.session([_bash(work, 1), _bash(work, 2)])
        done, report = run_session(judge.binary, url, work, None,
                                   extra_args=[*WIDE, "--resume", session_id],
                                   settings=settings, env=resumed_env, prompt="again")
        assert done.returncode == 0, done.stderr[-400:]
        resumed = _records(log)
        for records, source, env, bash in ((started, "startup", first, "bash1.env"),
                                           (resumed, "resume", resumed_env, "bash2.env")):
            assert [r["hook"] for r in records] == ["SessionStart", "PreToolUse"], records
            start, call = records
            assert start["payload"]["source"] == source
            assert start["payload"]["session_id"] == call["payload"]["session_id"] \
                == session_id
            assert start["ended"] - start["began"] >= 2 and call["began"] >= start["ended"]
            assert _npm(start["env"]) == _npm(call["env"]) == _npm(env) \
                == _npm(_bash_env(work / bash))
            assert set(start["env"]) ^ set(call["env"]) <= {"CLAUDE_ENV_FILE",
                                                             "CLAUDE_EFFORT"}
        assert report["session_id"] == session_id
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_an_env_file_export_reaches_the_bash_tool_only(judge: Judge) -> None:
    """A SessionStart hook's ``CLAUDE_ENV_FILE`` export: in the Bash tool's environment, not
    in a PreToolUse command hook's nor in an http hook's header."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _Recorder.seen = []
    work = Path(tempfile.mkdtemp(prefix="sg-s50-", dir="/var/tmp"))
    try:
        export = (r'printf "export SG_PROBE_UP=exported\nexport npm_config_cache=/x\n" '
                  '>> "$CLAUDE_ENV_FILE"')
        settings = {"hooks": {
            "SessionStart": [{"hooks": [{"type": "command", "command": export}]}],
            "PreToolUse": [{"matcher": "*", "hooks": [
                {"type": "http", "url": f"http://127.0.0.1:{server.server_address[1]}/h",
                 "timeout": 10, "headers": {"X-Up": "<${SG_PROBE_UP}>"},
                 "allowedEnvVars": ["SG_PROBE_UP"]},
                {"type": "command", "command": f"env > {work}/hook.env"}]}]}}
        url, _ = judge.standin.session([_bash(work, 1)])
        done, _ = run_session(judge.binary, url, work, None, extra_args=WIDE,
                              settings=settings)
        assert done.returncode == 0, done.stderr[-400:]
    finally:
        server.shutdown()
        server.server_close()
        try:
            bash, hook = _bash_env(work / "bash1.env"), _bash_env(work / "hook.env")
        finally:
            shutil.rmtree(work, ignore_errors=True)
    assert bash.get("SG_PROBE_UP") == "exported" and bash.get("npm_config_cache") == "/x"
    assert "SG_PROBE_UP" not in hook and "npm_config_cache" not in hook
    assert [dict(seen).get("X-Up") for seen in _Recorder.seen] == ["<>"], _Recorder.seen


def _touch(n: int) -> tuple[str, dict[str, Any]]:
    return ("Bash", {"command": f"touch in{n}", "description": "probe", "timeout": 5000})


def test_a_session_is_decided_with_its_registration_and_denied_once_it_changes(
        judge: Judge) -> None:
    """Through the service: a session started with the printed hooks registers and its call
    inside the plan runs; resumed in the same environment it registers the same values
    (``same``) and runs; resumed with another ``npm_config_userconfig`` it is refused
    (``conflict``) and its calls are denied; a session without the SessionStart hook has its
    writing calls denied and its reads decided as before."""
    work = Path(tempfile.mkdtemp(prefix="sg-s50-", dir="/var/tmp"))
    hook = ServiceHook()
    try:
        plan = work / "plan.yaml"
        plan.write_text("allowed-tools:\n  - Bash(touch *)\n"
                        f"  - Read(//{str(work).lstrip('/')}/**)\n")
        (work / "outside").mkdir()
        (work / "outside" / "notes.txt").write_text("notes\n")
        entry = hook(work, plan)
        assert hook.served is not None and hook.session_start is not None
        settings = {"hooks": {"SessionStart": [{"hooks": [hook.session_start]}],
                              "PreToolUse": [{"matcher": "*", "hooks": [entry]}]}}
        outcomes = []
        session_id = None
        for n, env in enumerate([{}, {}, {"npm_config_userconfig": str(work / "npmrc")}]):
            url, script = judge.standin.session([_touch(i) for i in range(n + 1)])
            resume: list[str] = ["--resume", session_id] if session_id else []
            done, report = run_session(judge.binary, url, work, None,
                                       extra_args=[*WIDE, *resume], settings=settings,
                                       env=env, prompt="again" if resume else "start")
            session_id = report.get("session_id")
            assert session_id, done.stderr[-400:]
            outcomes.append(script.results.get(script.call_id(n)))
        assert outcomes[0] == outcomes[1] == (False, "(Bash completed with no output)"), \
            outcomes
        assert outcomes[2] is not None and denied_by_gate(outcomes[2]), outcomes
        assert "registered two different environments" in outcomes[2][1]
        assert (work / "project" / "in1").exists() and not (work / "project" / "in2").exists()
        # a session without the SessionStart hook (or whose service restarted): never
        # registered, its calls that may write denied, its reads decided as before
        bare = {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [entry]}]}}
        url, script = judge.standin.session([
            _touch(9), ("Read", {"file_path": str(work / "outside" / "notes.txt")})])
        run_session(judge.binary, url, work, None, extra_args=WIDE, settings=bare)
        unregistered = script.results.get(script.call_id(0))
        assert unregistered is not None and denied_by_gate(unregistered), unregistered
        assert "registered no environment" in unregistered[1]
        read = script.results.get(script.call_id(1))
        assert read is not None and not read[0] and "notes" in read[1], read
    finally:
        events = hook.stop() if hook.served is not None else []
        shutil.rmtree(work, ignore_errors=True)
    sessions = [(e["outcome"], e["source"]) for e in events if e.get("event") == "session"]
    assert sessions == [("registered", "startup"), ("same", "resume"),
                        ("conflict", "resume")], sessions
