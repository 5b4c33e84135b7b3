"""A request's body read without a timer when the server's protocol has it whole
(``transport.HeadLimited`` sets ``guard.BODY_WHOLE``; the guard reads it straight away), and
under the read timeout otherwise: the application gets the same body either way."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import uvicorn
from uvicorn.server import ServerState

from skillgrant.service.guard import BODY_WHOLE, Guard, HostRule
from skillgrant.service.transport import header_deadline

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from memory_transport import PORT, MemoryTransport


def _request(body: bytes) -> bytes:
    return (b"POST /v1/x HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % (PORT, len(body))) + body


def _served(chunks: list[bytes], pause: float = 0.0) -> list[tuple[bool, bytes]]:
    """What the application behind the guard saw of each request sent in ``chunks``: whether
    the guard read the body under its timer, and the body; each chunk ``pause`` seconds after
    the one before."""
    seen: list[tuple[bool, bytes]] = []
    timed: list[bool] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        message = await receive()
        seen.append((timed.pop() if timed else False, message["body"]))
        assert scope[BODY_WHOLE] is True  # by now
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})

    async def main() -> None:
        guarded = Guard(app, hosts=HostRule("127.0.0.1", PORT), token=None, max_body=10_000,
                        read_timeout=5.0, hook_refusal=lambda scope, message: "",
                        log=lambda *a, **k: None)
        read = guarded._read

        async def read_timed(receive: Any) -> bytes:
            timed.append(True)
            return await read(receive)

        guarded._read = read_timed  # type: ignore[method-assign]
        config = uvicorn.Config(guarded, http=header_deadline(5.0, 65_536), lifespan="off",
                                log_config=None)
        config.load()
        state = ServerState()
        protocol = config.http_protocol_class(config=config, server_state=state,  # type: ignore[call-arg]
                                              app_state={}, _loop=asyncio.get_running_loop())
        transport = MemoryTransport()
        protocol.connection_made(transport)
        for chunk in chunks:
            protocol.data_received(chunk)
            await asyncio.sleep(pause)
        while state.tasks:
            await asyncio.sleep(0.01)
        assert not transport.closed

    asyncio.run(main())
    return seen


def test_a_body_arrived_with_its_head_is_read_without_a_timer() -> None:
    assert _served([_request(b'{"a": 1}')]) == [(False, b'{"a": 1}')]


def test_pipelined_requests_in_one_chunk_are_each_read_whole() -> None:
    assert _served([_request(b'{"a": 1}') + _request(b'{"b": 22}')]) == [
        (False, b'{"a": 1}'), (False, b'{"b": 22}')]


def test_a_body_arriving_later_is_read_under_the_timeout() -> None:
    whole = _request(b'{"a": 1, "later": true}')
    cut = whole.index(b"\r\n\r\n") + 4 + 3  # the head and three bytes of the body
    assert _served([whole[:cut], whole[cut:]], pause=0.05) == [
        (True, b'{"a": 1, "later": true}')]
