"""What an adversarial review of the service found, each pinned as a case that failed before its
fix: a Host header with a digit only Unicode calls one, floods of slow library requests and of
header bytes, a double audit record at the handler timeout, NaN in a library request, an audit
log that would block, plan edits the watcher missed, and paths and targets past the guard.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import Served, start
from statehome import state_env

PLAN = ["Bash(git status)", "Bash(echo *)"]
INSIDE = json.dumps({"session_id": "in", "cwd": "/srv", "hook_event_name": "PreToolUse",
                     "tool_name": "Bash", "tool_input": {"command": "git status"}}).encode()
SLOW = json.dumps({"session_id": "slow", "cwd": "/srv", "hook_event_name": "PreToolUse",
                   "tool_name": "Bash",
                   "tool_input": {"command": "echo " + "a*b?c " * 10000}}).encode()


def _plan(folder: Path) -> Path:
    path = folder / "p.json"
    path.write_text(json.dumps({"allowed-tools": PLAN}))
    return path


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with start([str(_plan(tmp_path_factory.mktemp("hardening")))]) as service:
        # (its SessionStart: the hand-written requests below, denied, note the id: s52)
        assert service.register("in").status == 200
        yield service


def _post(served: Served, path: str, host: bytes, body: bytes = INSIDE,
          target: bytes | None = None) -> bytes:
    line = target if target is not None else path.encode()
    return served.raw(b"POST " + line + b" HTTP/1.1\r\nHost: " + host +
                b"\r\nContent-Type: application/json\r\nContent-Length: " +
                str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)


@pytest.mark.parametrize("port", ["\xb2", "0{port}", "{port}0", "+{port}", "", "-1"])
def test_a_port_that_is_not_the_served_one_is_refused(served: Served, port: str) -> None:
    host = f"127.0.0.1:{port.format(port=served.port)}".encode("latin-1")
    got = _post(served, "/v1/hook/p", host)
    assert got.startswith(b"HTTP/1.1 200") and b'"deny"' in got and b"Host header" in got
    assert _post(served, "/v1/prove", host, b"{}").startswith(b"HTTP/1.1 403")


@pytest.mark.parametrize("path", ["/v1/hook", "//v1/hook/p", "/v1//hook/p", "/V1/HOOK/p",
                                  "/v1/hook/"])
def test_every_spelling_of_the_hook_path_is_answered_with_a_denial(served: Served,
                                                                  path: str) -> None:
    got = _post(served, path, f"127.0.0.1:{served.port}".encode())
    assert got.startswith(b"HTTP/1.1 200") and b'"deny"' in got, got[:300]


def test_an_absolute_request_target_is_refused(served: Served) -> None:
    """``POST http://evil.example/...``: the target's authority would override Host (RFC
    9112), so the connection is closed unanswered (or the parser refuses it)."""
    for target in (b"http://evil.example/v1/hook/p", b"evil.example:80", b"*"):
        got = _post(served, "", f"127.0.0.1:{served.port}".encode(), target=target)
        assert got == b"" or got.startswith(b"HTTP/1.1 400"), (target, got[:200])


def test_a_head_over_the_limit_is_cut_off(served: Served) -> None:
    from skillgrant.limits import MAX_REQUEST_HEADER_BYTES

    big = b"X-Pad: " + b"a" * (MAX_REQUEST_HEADER_BYTES + 10) + b"\r\n"
    head = (f"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n").encode()
    assert served.raw(head + big + b"\r\n") == b""
    fits = b"X-Pad: " + b"a" * (MAX_REQUEST_HEADER_BYTES // 2) + b"\r\nConnection: close\r\n"
    assert served.raw(head + fits + b"\r\n").startswith(b"HTTP/1.1 200")


def test_a_flood_of_header_bytes_does_not_hold_up_hook_calls(served: Served) -> None:
    stop = threading.Event()

    def flood() -> None:
        while not stop.is_set():
            try:
                with socket.create_connection((served.host, served.port), timeout=5) as sock:
                    sock.sendall(f"POST /v1/hook/p HTTP/1.1\r\nHost: 127.0.0.1:{served.port}"
                                 "\r\nX-A: ".encode())
                    while not stop.is_set():
                        sock.sendall(b"a" * 65536)
            except OSError:
                continue

    threads = [threading.Thread(target=flood) for _ in range(4)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(0.5)
        started = time.monotonic()
        for _ in range(5):
            assert served.post("/v1/hook/p", INSIDE, timeout=10).body == b""
        assert time.monotonic() - started < 5
    finally:
        stop.set()
        for thread in threads:
            thread.join()


@pytest.mark.parametrize(("path", "body"), [
    ("/v1/prove", b'{"plan": "p", "grant": NaN}'),
    ("/v1/prove", b'{"approved": ["x"], "grant": 1e999999}'),
    ("/v1/lint", b'{"entries": -Infinity}'),
    ("/v1/constrain", b'{"plan": "p", "submitted": [1e400]}'),
    ("/v1/prove", b'{"plan": '),
    ("/v1/nothing-here", b"{}"),
])
def test_a_bad_library_request_is_an_error_in_the_documented_shape(served: Served, path: str,
                                                                   body: bytes) -> None:
    reply = served.post(path, body)
    assert 400 <= reply.status < 500, reply
    error = reply.json()["error"]
    assert set(error) == {"code", "message"} and error["message"]


def test_forwarded_headers_are_not_believed(served: Served) -> None:
    served.request("GET", "/v1/health", headers={"X-Forwarded-For": "203.0.113.9"})
    time.sleep(0.2)
    last = [e for e in served.events() if e["event"] == "request"][-1]
    assert last["client"].startswith("127.0.0.1:")


def test_standard_error_stays_json_lines(served: Served) -> None:
    served.raw(b"GARBAGE / HTTP/1.1\r\nHost: x\r\n\r\n")
    served.raw((f"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nUpgrade: "
                  "websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").encode(), wait=2)
    time.sleep(0.2)
    lines = served.errors.read_text().splitlines()
    assert lines and all(json.loads(line) for line in lines)
    assert any(json.loads(line)["event"] == "uvicorn" for line in lines)


@pytest.mark.slow
def test_slow_library_requests_do_not_hold_up_hook_calls(tmp_path: Path) -> None:
    """Each diff of two 512-entry lists takes many seconds (the six run on for minutes); the
    hook calls have threads of their own, and are answered meanwhile, each within the handler
    timeout (5 s: 1 s denied calls on a machine busy with other tests)."""
    old = [f"Bash(x{i} *a*b*c)" for i in range(512)]
    new = ["Bash(x* " + "*a" * 100 + ")"] * 512
    with start([str(_plan(tmp_path))], "--handler-timeout", "5") as served:
        def diff() -> None:
            with contextlib.suppress(OSError):
                served.post("/v1/diff", {"old": old, "new": new}, timeout=30)

        floods = [threading.Thread(target=diff) for _ in range(6)]
        for thread in floods:
            thread.start()
        time.sleep(1.5)  # the library threads are busy, and the queue is full
        started = time.monotonic()
        for _ in range(5):
            assert served.post("/v1/hook/p", INSIDE, timeout=10).body == b""
        assert time.monotonic() - started < 25
        served.process.kill()  # the diffs would run on for minutes
        for thread in floods:
            thread.join()


@pytest.mark.slow
def test_a_decision_past_the_handler_timeout_is_recorded_once(tmp_path: Path) -> None:
    audit = tmp_path / "audit.jsonl"
    with start([str(_plan(tmp_path))], "--handler-timeout", "0.2",
               "--audit-log", str(audit), env=state_env(tmp_path)) as served:
        assert b"took longer" in served.post("/v1/hook/p", SLOW).body
        time.sleep(2.5)  # the abandoned decision has finished meanwhile
    records = [json.loads(line) for line in audit.read_text().splitlines()]
    records = [r for r in records if r["status"] != "sessions-file"]  # (witnesses: s52-sfix2)
    assert [(r["session_id"], r["decision"], r["status"]) for r in records] == [
        (None, "deny", "error")]


def test_an_audit_log_that_could_block_is_refused_at_start(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-P", "-m", "skillgrant", "serve", "--port", "0",
                           "--plan", str(_plan(tmp_path)), "--audit-log", str(fifo)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "cannot open the audit log" in done.stderr, done.stderr


def _allowed(served: Served, command: str) -> bool:
    payload = {"session_id": "s", "cwd": "/srv", "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": command}}
    return served.post("/v1/hook/p", payload).body == b""


def test_an_edit_that_keeps_the_size_and_the_modification_time_is_reloaded(
        tmp_path: Path) -> None:
    plan = tmp_path / "p.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(rm *)"]}))
    with start([str(plan)], "--poll", "0.1") as served:
        assert _allowed(served, "rm x")
        before = plan.stat()
        plan.write_text(json.dumps({"allowed-tools": ["Bash(ls  )"]}))  # same length
        os.utime(plan, ns=(before.st_atime_ns, before.st_mtime_ns))
        deadline = time.monotonic() + 10
        while _allowed(served, "rm x") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _allowed(served, "rm x")


def test_a_reload_error_clears_when_the_served_file_is_back(tmp_path: Path) -> None:
    real = _plan(tmp_path)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    with start([f"p={link}"], "--poll", "0.1") as served:
        def error() -> object:
            return served.request("GET", "/v1/health").json()["plans"][0]["reload_error"]

        link.unlink()
        link.symlink_to(tmp_path / "absent.json")
        deadline = time.monotonic() + 10
        while error() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert error() is not None
        link.unlink()
        link.symlink_to(real)
        while error() is not None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert error() is None


@pytest.mark.parametrize("before", [b"", b'{"time": "x"}\n', b'{"time": "2026-12-02T00:0', b"\n"])
def test_a_record_cut_short_by_a_kill_leaves_the_next_one_whole(tmp_path: Path,
                                                                before: bytes) -> None:
    """After a writer killed mid-record (its call never answered), the service's and the
    hook's next records each start on their own line, and nothing written before is changed."""
    from skillgrant.evidence.chain import verify
    from skillgrant.gate.audit import append, link, record
    from skillgrant.service.auditlog import AuditLog

    log = tmp_path / "audit.jsonl"
    log.write_bytes(before)
    line = record(session="s1", runtime_tool="Bash", tool="Bash", decision="deny",
                  status="not_covered", reason="r")
    served = AuditLog(str(log))
    served.write(line)
    served.close()
    log.write_bytes(log.read_bytes() + b'{"time": "cut')  # a hook killed mid-record
    append(str(log), line)
    text = log.read_bytes()
    assert text.startswith(before)
    lines = text[len(before):].split(b"\n")
    if before and not before.endswith(b"\n"):
        assert lines[0] == b""  # the fragment before ended where it was
        lines = lines[1:]
    # Each record as written, with its link to the chain (issue 32); the cut line is named in
    # the next record's "torn", and the chain holds.
    assert [x[:len(line) - 2] for x in lines] == [line[:-2], b'{"time": "cut', line[:-2], b""]
    assert lines[2].endswith(b', "torn": ["' + link(b'{"time": "cut\n').encode() + b'"]}')
    checked = verify(str(log))
    if before == b'{"time": "x"}\n':  # a record written before the chain: named as such
        assert checked.broken is not None and checked.broken.line == 1
    else:
        assert checked.valid and checked.cut[-1:] == [text.count(b"\n") - 1]
