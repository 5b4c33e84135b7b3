"""A hook request answered in line by the service's protocol (``transport.HeadLimited.direct``,
``guard.Guard.direct``: no task, no ASGI messages) against the same request through uvicorn's
ASGI cycle, the guard and ``front``: the same bytes written, the connection closed or kept
alike, the same ``request`` events and the same audit records, over random sequences of
requests on one connection — hook calls allowed and denied, refused ones (a foreign Host, an
Origin, a body not JSON, an oversized body, a bad query, a plan not served), a body arriving
in a later chunk, pipelined requests, ``Connection: close``, HTTP/1.0, ``Expect``, a path
with escapes, a GET, a library request."""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from examples import seeds
from serving import session_headers, transcript
from uvicorn.server import ServerState

from skillgrant.service.app import Service, create_app, front, hook_now
from skillgrant.service.auditlog import AuditLog
from skillgrant.service.guard import Guard, HostRule
from skillgrant.service.plans import Plans, PlanSpec
from skillgrant.service.transport import header_deadline

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from memory_transport import PORT, MemoryTransport

FOLDER = "/srv/project"
COMMANDS = ["git status", "rm -rf /", "git push", "npm test", "ls $(cat x)", "echo hi > /etc/x"]


class _Closing(MemoryTransport):
    """Writes nothing once closed, as a socket's transport."""

    def write(self, data: Any) -> None:
        if not self.closed:
            super().write(data)


def _payload(rng: random.Random) -> bytes:
    call: dict[str, object] = {
        "session_id": "s", "cwd": FOLDER, "hook_event_name": "PreToolUse",
        "transcript_path": transcript(os.environ, FOLDER)}
    if rng.random() < 0.7:
        call.update(tool_name="Bash", tool_input={"command": rng.choice(COMMANDS)})
    else:
        call.update(tool_name="Read", tool_input={"file_path": rng.choice(
            ["/srv/a", "/etc/passwd", "relative"])})
    if rng.random() < 0.05:
        call.pop("transcript_path")
    return json.dumps(call).encode()


#: Headers a request may send a second time, in another case. (Not ``Content-Length``: the
#: parser refuses the request, and the connection, before the application sees it; pipelined
#: after a hook call in the same chunk, that call is answered in line first and not through
#: the ASGI cycle, which the 400 cuts short.)
_AGAIN = [f"HOST: 127.0.0.1:{PORT}", "content-TYPE: application/json",
          "X-SKILLGRANT-ENV-PWD: </elsewhere>", "X-Skillgrant-Env-HOME: <>"]


def _sent_once(request: bytes) -> bool:
    """Whether no header of ``_AGAIN`` is sent again in ``request``."""
    return not any(again.encode() + b"\r\n" in request for again in _AGAIN)


def _request(rng: random.Random) -> bytes:
    body = _payload(rng) if rng.random() < 0.9 else b"not json"
    headers = {"Host": f"127.0.0.1:{PORT}", "Content-Type": "application/json",
               **session_headers(dict(os.environ), FOLDER)}
    target, version = "/v1/hook/p", "HTTP/1.1"
    twist = rng.random() * 0.5  # (a twist in two requests of three)
    if twist < 0.04:
        headers["Host"] = "evil.example:80"
    elif twist < 0.08:
        headers["Origin"] = "http://evil.example"
    elif twist < 0.12:
        headers["Content-Type"] = "text/plain"
    elif twist < 0.16:
        target = rng.choice(["/v1/hook/p?dialect=nope", "/v1/hook/p?dialect=codex",
                             "/v1/hook/other", "/v1/hook/%70", "//v1/hook/p", "/v1/lint"])
    elif twist < 0.19:
        headers["Connection"] = "close"
    elif twist < 0.21:
        version = "HTTP/1.0"
    elif twist < 0.23:
        headers["Expect"] = "100-continue"
    elif twist < 0.26:
        body = b'{"pad": "' + b"x" * 3000 + b'"}'  # over the body limit below
    extra = ""  # a header sent again, in another case (the protocol's table: issue 29)
    if 0.26 <= twist < 0.34:
        extra = rng.choice(_AGAIN) + "\r\n"
    method = "GET" if rng.random() < 0.03 else "POST"
    head = f"{method} {target} {version}\r\n" + "".join(
        f"{k}: {v}\r\n" for k, v in headers.items()) + extra + \
        f"Content-Length: {len(body)}\r\n\r\n"
    return head.encode("latin-1") + body


def _served(tmp: Path, chunks: list[bytes], *, direct: bool
            ) -> tuple[list[bytes], bool, list[dict[str, object]], bytes]:
    """What the service wrote on one connection fed ``chunks``, whether it closed it, its
    ``request`` events (less their time) and its audit log."""
    plan = tmp / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(git status)", "Bash(npm *)",
                                                  "Read(//srv/**)"]}))
    audit = AuditLog(str(tmp / f"audit-{direct}.jsonl"))
    events: list[dict[str, object]] = []

    def log(event: str, **fields: object) -> None:
        if event == "request":
            fields.pop("ms")
            events.append(fields)

    service = Service(Plans([PlanSpec("p", str(plan))], log), audit=audit,
                      handler_timeout=10.0)
    guarded = Guard(front(service, create_app(service)), hosts=HostRule("127.0.0.1", PORT),
                    token=None, max_body=2000, read_timeout=10.0, hook_refusal=service.refusal,
                    log=log, hook_now=hook_now(service) if direct else None)

    async def main() -> tuple[list[bytes], bool]:
        config = uvicorn.Config(guarded, http=header_deadline(10.0, 65_536, guarded.direct),
                                lifespan="off", log_config=None, server_header=False,
                                date_header=False)
        config.load()
        state = ServerState()
        protocol = config.http_protocol_class(config=config, server_state=state,  # type: ignore[call-arg]
                                              app_state={}, _loop=asyncio.get_running_loop())
        transport = _Closing()
        protocol.connection_made(transport)
        for chunk in chunks:
            if not transport.closed:
                protocol.data_received(chunk)
            for _ in range(50):  # what a loop turn would run, and a hook thread's answer
                await asyncio.sleep(0.002 if state.tasks else 0)
                if not state.tasks:
                    break
        closed = transport.closed  # (before the client goes away, which closes it)
        protocol.connection_lost(None)
        return transport.written, closed

    try:
        written, closed = asyncio.run(main())
    finally:
        audit.close()
        for pool in service.pools:
            pool.shutdown(wait=True)
    records = (tmp / f"audit-{direct}.jsonl").read_bytes()
    return written, closed, events, records


def _without_times(records: bytes) -> list[object]:
    found = []
    for line in records.splitlines():
        record = json.loads(line)
        record.pop("time", None)
        record.pop("prev", None)
        found.append(record)
    return found


#: 600 random streams at the full count (CI's quick step: 150), a twentieth in the README's
#: command (tests/examples.py).
@pytest.mark.parametrize("seed", seeds(600))
def test_a_hook_request_answered_in_line_is_answered_as_through_the_asgi_cycle(
        seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    stream = b"".join(_request(rng) for _ in range(rng.randrange(1, 6)))
    cuts = sorted(rng.sample(range(1, len(stream)), k=min(len(stream) - 1, rng.randrange(0, 3))))
    if rng.random() < 0.5:  # whole requests, pipelined in one chunk or one a chunk
        cuts = []
    chunks = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True)]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    inline = _served(tmp_path / "a", chunks, direct=True)
    through = _served(tmp_path / "b", chunks, direct=False)
    assert b"".join(inline[0]) == b"".join(through[0])
    assert inline[1] == through[1]
    assert inline[2] == through[2]
    assert _without_times(inline[3]) == _without_times(through[3])


def test_the_requests_answered_in_line_are_most_hook_requests(tmp_path: Path) -> None:
    """The path taken (not only its answers): a hook call whose body came with its head is
    answered in line, one whose body comes later goes through the ASGI cycle."""
    import skillgrant.service.transport as transport

    taken: list[bool] = []
    answer = transport.HeadLimited._answer

    def counted(self: Any, body: bytes) -> None:
        taken.append(True)
        answer(self, body)

    rng = random.Random(7)
    plain = [_request(rng) for _ in range(200)]
    whole = [r for r in plain if b"Host: 127.0.0.1" in r and b"Origin" not in r
             and b"text/plain" not in r and b" /v1/hook/p HTTP/1.1" in r
             and b"Connection: close" not in r and b"Expect" not in r and b"pad" not in r
             and b"not json" not in r and _sent_once(r)][:5]
    transport.HeadLimited._answer = counted  # type: ignore[method-assign]
    try:
        _served(tmp_path, [b"".join(whole)], direct=True)
        assert len(taken) == len(whole) == 5
        cut = whole[0].index(b"\r\n\r\n") + 6
        _served(tmp_path, [whole[0][:cut], whole[0][cut:]], direct=True)
        assert len(taken) == 5
    finally:
        transport.HeadLimited._answer = answer  # type: ignore[method-assign]


def test_an_event_log_that_fails_does_not_keep_the_answer_back(tmp_path: Path) -> None:
    """The ``request`` event is written before an answer made in line is sent (the ASGI path
    sends first): a log that raises leaves the answer as it is, a denial or an empty 200."""
    import skillgrant.service.guard as guard

    rng = random.Random(3)
    requests = [r for r in (_request(rng) for _ in range(60))
                if b"Host: 127.0.0.1" in r and b"Origin" not in r and b"text/plain" not in r
                and b" /v1/hook/p HTTP/1.1" in r and b"Connection: close" not in r
                and b"Expect" not in r and b"pad" not in r and b"not json" not in r
                and _sent_once(r)][:4]
    (tmp_path / "a").mkdir()
    expected = _served(tmp_path / "a", [b"".join(requests)], direct=True)[0]
    made = guard.Guard.__init__

    def failing(self: Any, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)

        def raising(*fields: object) -> None:
            raise RuntimeError("the log is gone")

        self._request = raising

    guard.Guard.__init__ = failing  # type: ignore[method-assign]
    try:
        (tmp_path / "b").mkdir()
        written, closed, _, _ = _served(tmp_path / "b", [b"".join(requests)], direct=True)
    finally:
        guard.Guard.__init__ = made  # type: ignore[method-assign]
    assert b"".join(written) == b"".join(expected) and not closed
    assert b"".join(written).count(b"HTTP/1.1 200 OK") == 4
