"""A request's body read without a timer when the server's protocol has it whole
(``transport.HeadLimited`` sets ``guard.BODY_WHOLE``; the guard reads it straight away), and
under the read timeout otherwise: the application gets the same body either way."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
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

        async def read_timed(scope: Any, receive: Any) -> bytes:
            timed.append(True)
            return await read(scope, receive)

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


class _Closing(MemoryTransport):
    """Writes nothing once closed, as a socket's transport."""

    def write(self, data: Any) -> None:
        if not self.closed:
            super().write(data)


def _cut(head: bytes, chunks: int, limit: int) -> bool:
    """Whether the service's protocol, at a head limit of ``limit``, closes the connection
    on ``head`` sent in ``chunks`` pieces, before the application sees it."""
    seen: list[object] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def main() -> bool:
        config = uvicorn.Config(app, http=header_deadline(5.0, limit), lifespan="off",
                                log_config=None)
        config.load()
        state = ServerState()
        protocol = config.http_protocol_class(config=config, server_state=state,  # type: ignore[call-arg]
                                              app_state={}, _loop=asyncio.get_running_loop())
        transport = _Closing()
        protocol.connection_made(transport)
        size = -(-len(head) // chunks)
        for at in range(0, len(head), size):
            if not transport.closed:
                protocol.data_received(head[at:at + size])
        while state.tasks:
            await asyncio.sleep(0)
        assert transport.closed == (not seen)
        # closed unanswered (not a 400 of the parser's)
        assert not (transport.closed and transport.written)
        return transport.closed

    return asyncio.run(main())


@pytest.mark.parametrize("seed", range(300))
def test_a_head_is_cut_off_exactly_when_its_bytes_or_its_pieces_are_over_the_limit(
        seed: int) -> None:
    """``HeadLimited`` counts a head's pieces only when its bytes and two a header could
    be over the limit: against a count made here of the head's bytes (to its empty line) and of
    its pieces (the target; each header's name and value, the blanks that end it left out,
    and four), near a limit of 600, with headers small (``h1:``: the pieces over the bytes)
    and large, blanks around values, in one chunk and in three."""
    import random

    rng = random.Random(seed)
    limit = 600
    end = b"\r\n"  # (the parser refuses a bare line feed)
    target = b"/" + b"t" * rng.randrange(0, 60)
    small = rng.random() < 0.5
    headers = [(b"h%d" % i, b"" if small else b" " * rng.randrange(0, 3) +
                b"v" * rng.randrange(0, 40) + b" " * rng.randrange(0, 3))
               for i in range(rng.randrange(80, 130) if small else rng.randrange(0, 40))]
    head = b"GET " + target + b" HTTP/1.1" + end + b"".join(
        name + b":" + value + end for name, value in headers) + end
    pieces = len(target) + sum(len(n) + len(v.rstrip(b" ")) + 4 for n, v in headers)
    expected = len(head) > limit or pieces > limit
    assert _cut(head, rng.choice([1, 3]), limit) == expected, (len(head), pieces)
