"""The service fails closed: every hook request it can answer is answered with 200 and a
denial in the runtime's JSON, whatever is wrong with it, and the service stays up.

The hostile payloads of ``skillgrant hook``'s corpus (tests/payload_corpus.py) are sent over
HTTP, and so are oversized bodies, slow clients, wrong content types, methods, Host headers,
Origins and tokens. Every request goes to a real server over a real socket.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from payload_corpus import CASES, PLAN, Case, denial_reason
from serving import Served, start, transcript, with_transcript

from skillgrant.limits import MAX_REQUEST_BODY_BYTES

READ_TIMEOUT = 1.0
INSIDE = json.dumps({"session_id": "s", "cwd": "/srv/project", "hook_event_name": "PreToolUse",
                     "tool_name": "Bash", "tool_input": {"command": "git status"}}).encode()


def _serve(tmp_path_factory: pytest.TempPathFactory, handler_timeout: str) -> Iterator[Served]:
    plan = tmp_path_factory.mktemp("plans") / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": PLAN}))
    with start([f"plan={plan}"], "--read-timeout", str(READ_TIMEOUT),
               "--handler-timeout", handler_timeout) as service:
        yield service


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The service, with a handler timeout the hostile payloads' decisions stay within on a
    machine busy with other tests (pytest-xdist runs two at once)."""
    yield from _serve(tmp_path_factory, "10")


@pytest.fixture
def hasty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The service with a handler timeout of 0.3 s."""
    yield from _serve(tmp_path_factory, "0.3")


def _query(case: Case) -> str:
    """The case's hook options as the query (``--dialect X`` is ``dialect=X``)."""
    words, pairs = list(case.args), []
    while words:
        name = words.pop(0).lstrip("-")
        value = words.pop(0) if words and not words[0].startswith("--") else ""
        pairs.append(f"{name}={value}")
    return "&".join(pairs)


def _denial(served: Served, path: str, data: bytes, shape: str = "claude-code",
            headers: dict[str, str] | None = None, method: str = "POST") -> str:
    reply = served.request(method, path, data, headers=headers)
    assert reply.status == (200 if method == "POST" else 405), reply
    text = reply.body.decode("ascii")
    assert text.count("\n") == 1, text[:300]
    return denial_reason(shape, json.loads(text))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_hostile_payload_over_http_is_denied(served: Served, case: Case) -> None:
    plan = {"plan": "plan", "absent": "absent", "none": ""}[case.plan]
    reason = _denial(served, f"/v1/hook/{plan}?{_query(case)}", case.data, case.shape)
    assert "internal error" not in reason
    if len(case.data) > MAX_REQUEST_BODY_BYTES:
        assert "--max-body-bytes" in reason, reason[:300]
    elif not case.args and case.plan == "plan":
        assert case.fragment in reason, reason[:300]  # the hook command's own reason
    assert served.request("GET", "/v1/health").status == 200


@pytest.mark.parametrize("kind", [None, "text/plain", "application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x", "application/jsonx"])
def test_a_body_not_sent_as_json_is_refused(served: Served, kind: str | None) -> None:
    headers = {"Content-Type": kind} if kind else {"Content-Type": ""}
    assert "Content-Type: application/json" in _denial(served, "/v1/hook/plan", INSIDE,
                                                       headers=headers)
    reply = served.post("/v1/prove", {"approved": ["Bash(x)"], "grant": "Bash(x)"},
                        headers=headers)
    assert reply.status == 415 and reply.json()["error"]["code"] == "content-type"


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_the_hook_endpoint_takes_only_post(served: Served, method: str) -> None:
    assert "takes POST" in _denial(served, "/v1/hook/plan", INSIDE, method=method)


def test_no_cors_an_options_request_gets_no_allow_origin(served: Served) -> None:
    reply = served.request("OPTIONS", "/v1/prove", headers={
        "Access-Control-Request-Method": "POST"})
    assert reply.status in (403, 405) and "access-control-allow-origin" not in reply.headers


@pytest.mark.parametrize("host", ["evil.example:{port}", "127.0.0.1:1", "localhost",
                                  "127.0.0.1.nip.io:{port}", "[::1]:{port}", ""])
def test_a_foreign_host_header_is_refused(served: Served, host: str) -> None:
    headers = {"Host": host.format(port=served.port)}
    assert "Host header" in _denial(served, "/v1/hook/plan", INSIDE, headers=headers)
    reply = served.request("GET", "/v1/health", headers=headers)
    assert reply.status == 403 and reply.json()["error"]["code"] == "host"


def test_localhost_and_the_served_address_are_answered(served: Served) -> None:
    for host in (f"localhost:{served.port}", f"LOCALHOST:{served.port}",
                 f"127.0.0.1:{served.port}"):
        assert served.request("GET", "/v1/health", headers={"Host": host}).status == 200


def test_a_request_from_a_web_page_is_refused(served: Served) -> None:
    origin = {"Origin": "https://evil.example"}
    assert "Origin" in _denial(served, "/v1/hook/plan", INSIDE, headers=origin)
    assert served.request("GET", "/v1/health", headers=origin).status == 403


def _head(served: Served, path: str, length: int, **more: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{served.port}",
             "Content-Type: application/json", f"Content-Length: {length}",
             *(f"{k}: {v}" for k, v in more.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def test_an_oversized_body_is_refused(served: Served) -> None:
    """Read to its end and dropped, so the client reads the refusal; one declared past
    DRAIN_BYTES is refused at once."""
    from skillgrant.service.guard import DRAIN_BYTES

    over = MAX_REQUEST_BODY_BYTES + 1
    got = served.raw(_head(served, "/v1/hook/plan", over) + b" " * over)
    assert got.startswith(b"HTTP/1.1 200") and b'"deny"' in got and b"--max-body-bytes" in got
    got = served.raw(_head(served, "/v1/prove", over) + b" " * over)
    assert got.startswith(b"HTTP/1.1 413")
    started = time.monotonic()
    got = served.raw(_head(served, "/v1/hook/plan", DRAIN_BYTES + 1) + b"{")
    assert b"--max-body-bytes" in got and time.monotonic() - started < READ_TIMEOUT


def test_the_body_limit_is_exact(served: Served) -> None:
    """A call inside the plan padded to exactly MAX_REQUEST_BODY_BYTES is judged (no
    decision); one byte more is denied for the limit alone."""
    inside = with_transcript(INSIDE, transcript(served.env, "/srv/project"))
    at = inside + b" " * (MAX_REQUEST_BODY_BYTES - len(inside))
    reply = served.post("/v1/hook/plan", at)
    assert (reply.status, reply.body) == (200, b"")
    assert "--max-body-bytes" in _denial(served, "/v1/hook/plan", at + b" ")


def test_a_chunked_body_is_counted_as_it_arrives(served: Served) -> None:
    head = (f"POST /v1/hook/plan HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").encode()
    chunk = b"a" * 65536
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk)
                    for _ in range(MAX_REQUEST_BODY_BYTES // len(chunk) + 2))
    got = served.raw(head + body + b"0\r\n\r\n")
    assert got.startswith(b"HTTP/1.1 200") and b"--max-body-bytes" in got


def test_a_body_that_stalls_is_denied_after_the_read_timeout(served: Served) -> None:
    started = time.monotonic()
    got = served.raw(_head(served, "/v1/hook/plan", len(INSIDE)) + INSIDE[:10])
    assert got.startswith(b"HTTP/1.1 200") and b"did not arrive within" in got
    assert READ_TIMEOUT <= time.monotonic() - started < READ_TIMEOUT + 5
    got = served.raw(_head(served, "/v1/prove", 50) + b"{")
    assert got.startswith(b"HTTP/1.1 408")


def test_a_client_that_never_finishes_its_headers_is_disconnected(served: Served) -> None:
    """Slow headers (slowloris): the connection is closed after the read timeout, and the
    service answers others meanwhile."""
    started = time.monotonic()
    with socket.create_connection((served.host, served.port), timeout=10) as sock:
        sock.sendall(b"POST /v1/hook/plan HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert served.request("GET", "/v1/health").status == 200
        for _ in range(3):
            time.sleep(READ_TIMEOUT / 3)
            try:
                sock.sendall(b"X-Slow: 1\r\n")
            except OSError:
                break
        assert sock.recv(100) == b""
    assert time.monotonic() - started < READ_TIMEOUT + 5
    silent = served.raw(b"", wait=READ_TIMEOUT + 5)  # a connection that sends nothing
    assert silent == b""


def test_a_decision_past_the_handler_timeout_is_denied(hasty: Served) -> None:
    """A command of ten thousand pattern words takes about a second to judge; past the
    handler timeout (0.3 s here) the call is denied and the service goes on."""
    slow = json.dumps({"session_id": "s", "cwd": "/srv/project", "tool_name": "Bash",
                       "hook_event_name": "PreToolUse",
                       "tool_input": {"command": "echo " + "a*b?c " * 10000}}).encode()
    assert "took longer than 0.3 s" in _denial(hasty, "/v1/hook/plan", slow)
    assert hasty.request("GET", "/v1/health").status == 200


@pytest.fixture(scope="module")
def with_token(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    plan = tmp_path_factory.mktemp("token") / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": PLAN}))
    with start([str(plan)], "--token-env", "SG_TEST_TOKEN",
               env={"SG_TEST_TOKEN": "s3cret-token-for-tests"}) as service:
        yield service


@pytest.mark.parametrize("authorization", [None, "Bearer wrong-token-for-tests", "Bearer ",
                                           "Basic s3cret-token-for-tests",
                                           "Bearer s3cret-token-for-tests-and-more"])
def test_without_the_token_nothing_is_answered(with_token: Served,
                                               authorization: str | None) -> None:
    headers = {"Authorization": authorization} if authorization else {}
    assert "token" in _denial(with_token, "/v1/hook/plan", INSIDE, headers=headers)
    reply = with_token.request("GET", "/v1/health", headers=headers)
    assert reply.status == 401 and reply.headers["www-authenticate"] == "Bearer"


def test_with_the_token_the_service_answers(with_token: Served) -> None:
    good = {"Authorization": "Bearer s3cret-token-for-tests"}
    assert with_token.request("GET", "/v1/health", headers=good).status == 200
    reply = with_token.post("/v1/hook/plan", INSIDE, headers=good)
    assert (reply.status, reply.body) == (200, b"")  # inside the plan: no decision


@pytest.mark.parametrize(("options", "env", "said"), [
    (["--host", "0.0.0.0"], {}, "not a loopback address: give --token-env"),
    (["--host", "0.0.0.0", "--token-env", "SG_SHORT"], {"SG_SHORT": "short"},
     "at least 16 characters"),
    (["--host", "localhost"], {}, "must be an IP address"),
    (["--plan", "x=/nonexistent/plan.json"], {}, "/nonexistent/plan.json"),
])
def test_the_service_refuses_to_start_unsafely(tmp_path: Path, options: list[str],
                                               env: dict[str, str], said: str) -> None:
    import os
    import subprocess
    import sys

    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": PLAN}))
    done = subprocess.run([sys.executable, "-P", "-m", "skillgrant", "serve", "--port", "0",
                           "--plan", str(plan), *options], capture_output=True, text=True,
                          timeout=60, env={**os.environ, **env})
    assert done.returncode == 2, done
    assert said in done.stderr and "Traceback" not in done.stderr, done.stderr
