"""Session-43 review of ``skillgrant serve``'s in-line answer path (s43-serve: transport.
HeadLimited's ``_direct``/``_release``/``_answer``, ``Guard.direct``, ``Service.hook_now``) and
of the protocol's bounds around it. Each test is a sequence of bytes on real sockets (or fed to
the protocol) after which the service must have answered as the report's invariant says; a test
that fails here is a finding (report: /work/wt/reports/s43-sreview-report.md)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from serving import Served, session_headers, start, transcript
from uvicorn.server import ServerState

from skillgrant.service.app import Service, create_app, front, hook_now
from skillgrant.service.auditlog import AuditLog
from skillgrant.service.guard import Guard, HostRule
from skillgrant.service.plans import Plans, PlanSpec
from skillgrant.service.transport import header_deadline

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from memory_transport import PORT, MemoryTransport

#: Real sockets and a real service (seconds each): CI's slow step runs them
#: (.ci/steps/30-slow.sh), as `pytest --slow -m slow` does here.
pytestmark = [pytest.mark.slow]

PLAN = ["Bash(git status)", "Bash(npm *)"]


def _plan(folder: Path) -> Path:
    path = folder / "p.json"
    path.write_text(json.dumps({"allowed-tools": PLAN}))
    return path


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    # a long read timeout: a connection closed within the test's seconds was cut, not timed out
    with start([str(_plan(tmp_path_factory.mktemp("s43sreview")))],
               "--read-timeout", "60") as service:
        yield service


def _closed_soon(sock: socket.socket, seconds: float) -> bool:
    """Whether the service closed (or reset) the connection within ``seconds``, reading and
    dropping whatever it answered first."""
    sock.settimeout(seconds)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            if not sock.recv(65536):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False
    return False


def test_s1_a_chunked_bodys_trailer_is_bounded_as_a_head_is(served: Served) -> None:
    """S1: a chunked body's trailer section (header lines after the last chunk) is parsed by
    httptools as headers (each kept in ``headers``, its value grown piece by piece) but counted
    by nothing: the head's limit (``HeadLimited``) stops at the end of the head, the body's
    limit (``Guard._chunks``) counts only chunk data. One client sending one endless trailer
    value made the service's memory grow by ~140 MB in 8 s and stalled every other client's
    request by up to 3.8 s (a /v1/health probe), until the read timeout. A trailer past the
    head's limit must cut the connection, as a head past it does."""
    from skillgrant.limits import MAX_REQUEST_HEADER_BYTES

    sock = socket.create_connection((served.host, served.port), timeout=30)
    with sock:
        sock.sendall(f"POST /v1/hook/p HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
                     "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                     "2\r\n{}\r\n0\r\nX-Trailer: ".encode())
        piece = b"a" * 65536
        sent = 0
        try:
            while sent < 128 * MAX_REQUEST_HEADER_BYTES:  # 8 MiB of one trailer's value
                sock.sendall(piece)
                sent += len(piece)
        except (ConnectionResetError, BrokenPipeError):
            return  # cut off while sending: bounded
        assert _closed_soon(sock, 5.0), f"{sent} bytes of one trailer taken, still open"


# --- the protocol driven in process (as tests/service/test_direct.py drives it) ----------

FOLDER = "/srv/project"
#: A plan whose weight (``app.inline_weight``: 2 entries, one wildcard, 26) sends a payload
#: over ~1260 bytes to a hook thread: the request then goes through uvicorn's cycle.
PROTOCOL_PLAN = ["Bash(git status)", "Bash(npm *)"]


class _Closing(MemoryTransport):
    """Writes nothing once closed, as a socket's transport."""

    def write(self, data: Any) -> None:
        if not self.closed:
            super().write(data)


class Fed:
    """What the service did with the chunks one connection was fed: bytes written, whether it
    closed the connection, its ``request`` events and its audit records."""

    def __init__(self, written: bytes, closed: bool, events: list[dict[str, Any]],
                 records: list[dict[str, Any]]) -> None:
        self.written, self.closed, self.events, self.records = written, closed, events, records


def _fed(tmp: Path, chunks: list[bytes], *, max_body: int = 1_000_000,
         limit: int = 65_536) -> Fed:
    plan = tmp / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": PROTOCOL_PLAN}))
    audit = AuditLog(str(tmp / "audit.jsonl"))
    events: list[dict[str, Any]] = []

    def log(event: str, **fields: Any) -> None:
        if event == "request":
            events.append(fields)

    service = Service(Plans([PlanSpec("p", str(plan))], log), audit=audit, handler_timeout=10.0)
    guarded = Guard(front(service, create_app(service)), hosts=HostRule("127.0.0.1", PORT),
                    token=None, max_body=max_body, read_timeout=10.0,
                    hook_refusal=service.refusal, log=log, hook_now=hook_now(service))

    async def main() -> tuple[bytes, bool]:
        config = uvicorn.Config(guarded, http=header_deadline(10.0, limit, guarded.direct),
                                lifespan="off", log_config=None, server_header=False,
                                date_header=False)
        config.load()
        state = ServerState()
        protocol = config.http_protocol_class(  # type: ignore[call-arg]
            config=config, server_state=state, app_state={}, _loop=asyncio.get_running_loop())
        transport = _Closing()
        protocol.connection_made(transport)
        for chunk in chunks:
            if not transport.closed:
                protocol.data_received(chunk)
            for _ in range(200):  # what loop turns run, and a hook thread's answer
                await asyncio.sleep(0.005 if state.tasks else 0)
                if not state.tasks:
                    break
        closed = transport.closed
        protocol.connection_lost(None)
        return b"".join(transport.written), closed

    try:
        written, closed = asyncio.run(main())
    finally:
        audit.close()
        for pool in service.pools:
            pool.shutdown(wait=True)
    records = [json.loads(line) for line in (tmp / "audit.jsonl").read_bytes().splitlines()]
    return Fed(written, closed, events, records)


def _payload(command: str) -> dict[str, Any]:
    return {"session_id": "s", "cwd": FOLDER, "hook_event_name": "PreToolUse",
            "transcript_path": transcript(os.environ, FOLDER), "tool_name": "Bash",
            "tool_input": {"command": command}}


def _hook_request(body: bytes, target: str = "/v1/hook/p", **extra: str) -> bytes:
    headers = {"Host": f"127.0.0.1:{PORT}", "Content-Type": "application/json",
               **session_headers(dict(os.environ), FOLDER), **extra,
               "Content-Length": str(len(body))}
    return (f"POST {target} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
            + "\r\n").encode("latin-1") + body


def test_s2_the_bodies_of_requests_cut_off_are_not_read_as_the_last_ones(tmp_path: Path
                                                                        ) -> None:
    """S2: a chunk past the head's limit cuts the connection at the next head
    (``HeadLimited._expire``), but httptools parses the rest of the chunk: each later request's
    head is dropped (no cycle is made for it) and its body goes to uvicorn's ``on_body``,
    which appends it to the last cycle still open, the request before. The guard then reads
    request 1's body as its own bytes and every later body's, and decides that. Here request
    1's body alone is not JSON (its command cut after ``git``; over ``INLINE_WORK``, so
    decided in a hook thread), request 2's body ends it (``" status"}}`` and 70 kB of
    blanks): the audit log records ``git status`` decided inside the plan (decision
    ``none``), a call no request carried, and the ``request`` event counts 71 kB for a
    request that declared 1.5 kB. Nothing reaches the client (the connection is closed), so
    the harm is a record of a decision no runtime asked for, made on smuggled bytes."""
    whole = json.dumps(_payload("git status"))
    cut = whole.index("git status") + len("git")
    first = ("{" + " " * 1300 + whole[1:cut]).encode()  # not JSON alone
    second = whole[cut:].encode() + b" " * 70_000  # the rest of the JSON, and blanks
    with pytest.raises(ValueError):
        json.loads(first)
    fed = _fed(tmp_path, [_hook_request(first) + _hook_request(second)])
    declared = max(len(first), len(second))
    assert all(event["request_bytes"] <= declared for event in fed.events), fed.events
    assert [r for r in fed.records if r.get("decision") != "deny"] == [], fed.records


def test_s3_pipelined_requests_within_the_limit_are_answered_whatever_the_read(
        tmp_path: Path) -> None:
    """S3 (a cost, not a hole): a head that begins inside a chunk after a request ended in it
    is counted as the whole chunk (``_head_end`` gives the chunk's length when ``_ended``), so
    a read of more than the head's limit holding two requests cuts the connection at the
    second, though each request is under 2 kB. 30 pipelined ``git status`` calls in one read are
    answered; 60 (over 64 kB) are cut after the first, and the client, reset, reads none
    of the answers. uvicorn alone frames and answers all of them."""
    one = _hook_request(json.dumps(_payload("git status")).encode())
    assert len(one) < 2_000
    for count in (30, 60):
        (tmp_path / str(count)).mkdir()
        fed = _fed(tmp_path / str(count), [one * count])
        assert fed.written.count(b"HTTP/1.1 200 OK") == count, (count, len(fed.events))


def test_s4_an_idle_connection_is_closed_whatever_blank_lines_it_sends(tmp_path: Path
                                                                         ) -> None:
    """S4 (low, pre-existing): docs/service.md says an idle kept-alive connection is closed
    after 5 s, and a head not whole within the read timeout is cut. After an answer, a client
    that sends an empty line (``\\r\\n``, which the parser skips before a request line) every
    1.5 s keeps its connection forever: uvicorn cancels the keep-alive timer at every chunk,
    and no head has begun, so ``HeadLimited`` arms no deadline. Each such connection holds a
    descriptor with no request in it (with a read timeout of 2 s, still open after 12 s)."""
    plan = _plan(tmp_path)
    with start([str(plan)], "--read-timeout", "2") as served:
        sock = socket.create_connection((served.host, served.port), timeout=10)
        with sock:
            sock.sendall(f"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
                         "\r\n".encode())
            assert sock.recv(65536).startswith(b"HTTP/1.1 200")
            started = time.monotonic()
            closed = False
            while not closed and time.monotonic() - started < 12:
                time.sleep(1.5)
                try:
                    sock.sendall(b"\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    closed = True
                    break
                closed = _closed_soon(sock, 0.05)
            assert closed, "a connection sending only empty lines is still open after 12 s"
