"""A real service over its life: plans reloaded when their file changes or on SIGHUP (a bad
plan keeps the old one), a graceful stop that lets a request in flight finish, and an audit
log that loses no line under concurrent requests or a kill -9 of the server."""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from serving import Served, start
from statehome import scratch_state  # noqa: F401 (autouse: a state folder of its own)

CWD = "/srv/project"


def _payload(command: str, session: str = "s") -> dict[str, object]:
    return {"session_id": session, "cwd": CWD, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}}


def _allowed(served: Served, command: str) -> bool:
    reply = served.post("/v1/hook/p", _payload(command))
    assert reply.status == 200
    return reply.body == b""


def _until(check: Callable[[], bool], seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def _write(path: Path, entries: list[str] | str) -> None:
    """Replace the plan as an editor does: a new file renamed over the old."""
    temporary = path.with_suffix(".tmp")
    text = entries if isinstance(entries, str) else json.dumps({"allowed-tools": entries})
    temporary.write_text(text)
    os.replace(temporary, path)


def test_a_changed_plan_file_is_reloaded_and_a_bad_one_keeps_the_old(tmp_path: Path) -> None:
    plan = tmp_path / "p.json"
    _write(plan, ["Bash(echo *)"])
    with start([str(plan)], "--poll", "0.1") as served:
        assert _allowed(served, "echo hi") and not _allowed(served, "touch x")
        _write(plan, ["Bash(touch *)"])
        assert _until(lambda: _allowed(served, "touch x")), served.errors.read_text()
        assert not _allowed(served, "echo hi")
        _write(plan, '{"allowed-tools": ["Bash(touch *"]}')  # does not parse
        assert _until(lambda: any(e["event"] == "reload-failed" for e in served.events()))
        assert _allowed(served, "touch x")  # the old plan still serves
        health = served.request("GET", "/v1/health").json()["plans"][0]
        assert health["reload_error"] and "p.json" in health["reload_error"]
        failures = [e for e in served.events() if e["event"] == "reload-failed"]
        time.sleep(0.5)  # a file that stays broken is reported once, not on every poll
        assert len([e for e in served.events() if e["event"] == "reload-failed"]) == \
            len(failures) == 1
        _write(plan, ["Bash(echo *)"])
        assert _until(lambda: _allowed(served, "echo hi"))
        assert served.request("GET", "/v1/health").json()["plans"][0]["reload_error"] is None


def test_sighup_reloads_every_plan(tmp_path: Path) -> None:
    plan = tmp_path / "p.json"
    _write(plan, ["Bash(echo *)"])
    with start([str(plan)], "--poll", "0") as served:
        _write(plan, ["Bash(touch *)"])
        time.sleep(0.3)
        assert not _allowed(served, "touch x")  # no polling: not yet
        served.process.send_signal(signal.SIGHUP)
        assert _until(lambda: _allowed(served, "touch x"))
        assert any(e["event"] == "reloaded" for e in served.events())


def test_sigterm_lets_a_request_in_flight_finish(tmp_path: Path) -> None:
    plan = tmp_path / "p.json"
    _write(plan, ["Bash(echo *)"])
    served = start([str(plan)])
    body = json.dumps(_payload("rm -rf /")).encode()
    with socket.create_connection((served.host, served.port), timeout=30) as sock:
        sock.sendall((f"POST /v1/hook/p HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
                      f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
                      ).encode() + body[:20])
        time.sleep(0.3)
        served.process.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        assert served.process.poll() is None  # waiting for the request in flight
        sock.sendall(body[20:])
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200") and b'"deny"' in answer
    assert served.stop() == 0
    with socket.socket() as probe:  # and it no longer listens
        assert probe.connect_ex((served.host, served.port)) != 0
    assert served.events()[-1]["event"] == "stopped"


def _hammer(served: Served, count: int, clients: int, tag: str) -> list[str]:
    """``count`` hook requests from ``clients`` threads; the sessions answered."""
    def one(i: int) -> str | None:
        session = f"{tag}-{i}"
        try:
            reply = served.post("/v1/hook/p", _payload(f"rm -rf /{'x' * (i % 4000)}", session),
                                timeout=10)
        except (OSError, http.client.HTTPException):  # killed mid-answer: not answered
            return None
        return session if reply.status == 200 and b'"deny"' in reply.body else None

    with ThreadPoolExecutor(clients) as pool:
        return [s for s in pool.map(one, range(count)) if s is not None]


def _records(audit: Path) -> list[dict[str, object]]:
    records = [json.loads(line) for line in audit.read_text().splitlines()]  # every line whole
    return [r for r in records if r["status"] != "sessions-file"]  # (the sessions file's)


@pytest.mark.slow
def test_concurrent_requests_lose_no_audit_line(tmp_path: Path) -> None:
    plan, audit = tmp_path / "p.json", tmp_path / "audit.jsonl"
    _write(plan, ["Bash(echo *)"])
    with start([str(plan)], "--audit-log", str(audit)) as served:
        answered = _hammer(served, 600, 32, "c")
    assert len(answered) == 600
    sessions = [str(r["session_id"]) for r in _records(audit)]
    assert sorted(sessions) == sorted(answered)


@pytest.mark.slow
def test_a_kill_9_loses_no_audit_line_of_an_answered_call(tmp_path: Path) -> None:
    """Each record is written before its answer: every call answered before the kill has its
    record, and no record is torn."""
    plan, audit = tmp_path / "p.json", tmp_path / "audit.jsonl"
    _write(plan, ["Bash(echo *)"])
    served = start([str(plan)], "--audit-log", str(audit))
    with ThreadPoolExecutor(1) as pool:
        hammering = pool.submit(_hammer, served, 3000, 16, "k")
        assert _until(lambda: audit.exists() and audit.stat().st_size > 20_000)
        served.process.kill()
        answered = hammering.result()
    served.stop()
    # The kill may cut the record being written short (Linux stops a write between pages for a
    # fatal signal): only the last line, whose call was never answered.
    *whole, last = audit.read_text().splitlines()
    recorded = {str(json.loads(line)["session_id"]) for line in whole}
    try:
        recorded.add(str(json.loads(last)["session_id"]))
    except json.JSONDecodeError:
        assert last.startswith('{"time": ') and not audit.read_text().endswith("\n")
    assert answered and set(answered) <= recorded
    assert len(recorded) < 3000  # the kill did land mid-run


def test_print_config_prints_the_http_hook_with_on_failure_block(tmp_path: Path) -> None:
    plan = tmp_path / "gate.json"
    _write(plan, ["Bash(echo *)"])
    done = subprocess.run([sys.executable, "-P", "-m", "skillgrant", "serve", "--plan", str(plan),
                           "--port", "9123", "--print-config"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    (hook,) = json.loads(done.stdout)["hooks"]["PreToolUse"][0]["hooks"]
    pin = hashlib.sha256(plan.read_bytes()).hexdigest()  # issue 29: the plan's digest
    session = hook.pop("headers"), hook.pop("allowedEnvVars")
    assert hook == {"type": "http", "url": f"http://127.0.0.1:9123/v1/hook/gate?plan-sha256={pin}",
                    "timeout": 30, "onFailure": "block"}
    # The session's environment, each variable it sends allowed (review M-1).
    assert {"PATH", "HOME", "PWD", "GIT_DIR", "XDG_CONFIG_HOME"} <= set(session[1])
    assert session[0] == {f"X-Skillgrant-Env-{name}": f"<${{{name}}}>" for name in session[1]}
    assert "service is down" in done.stderr and "every tool call is denied" in done.stderr
    token = subprocess.run([sys.executable, "-P", "-m", "skillgrant", "serve", "--plan", str(plan),
                            "--host", "0.0.0.0", "--token-env", "SG_TOKEN", "--print-config"],
                           capture_output=True, text=True, timeout=60,
                           env={**os.environ, "SG_TOKEN": "0123456789abcdef"})
    assert token.returncode == 0, token.stderr
    (hook,) = json.loads(token.stdout)["hooks"]["PreToolUse"][0]["hooks"]
    assert hook["headers"] == {"Authorization": "Bearer ${SG_TOKEN}", **session[0]}
    assert hook["allowedEnvVars"] == ["SG_TOKEN", *session[1]]


@pytest.mark.slow
def test_the_printed_hook_pins_the_plan_and_a_changed_plan_denies(tmp_path: Path) -> None:
    """Issue 29, W1c: the service reloads a changed file, so a call that rewrites the plan
    would widen it; ``serve --print-config`` pins the digest in the url, and the service then
    denies every call under a changed plan, and serves the pinned plan again when it is back."""
    plan = tmp_path / "p.json"
    _write(plan, ["Bash(echo *)"])
    printed = subprocess.run([sys.executable, "-P", "-m", "skillgrant",
                              "serve", "--plan", str(plan),
                              "--print-config"], capture_output=True, text=True, timeout=60)
    assert printed.returncode == 0, printed.stderr
    url = json.loads(printed.stdout)["hooks"]["PreToolUse"][0]["hooks"][0]["url"]
    path = url[url.index("/v1/hook/"):]
    assert "?plan-sha256=" in path

    def allowed(command: str) -> bool:
        reply = served.post(path, _payload(command))
        assert reply.status == 200
        return reply.body == b""

    with start([str(plan)], "--poll", "0.1") as served:
        assert allowed("echo hi") and not allowed("touch x")
        _write(plan, ["Bash"])
        assert _until(lambda: _allowed(served, "touch x")), served.errors.read_text()
        assert not allowed("touch x") and not allowed("echo hi")  # pinned: every call denied
        assert b"holds another plan" in served.post(path, _payload("echo hi")).body
        _write(plan, ["Bash(echo *)"])
        assert _until(lambda: allowed("echo hi"))
        assert not allowed("touch x")
        bad = served.post("/v1/hook/p?plan-sha256=" + "0" * 64, _payload("echo hi"))
        assert bad.status == 200 and bad.body != b""
