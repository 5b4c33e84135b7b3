"""What the service asks of uvicorn beyond its options: a protocol that bounds a request's
head in time and size, a server that exits 0 after a graceful stop, and uvicorn's own log
records as the service's JSON events."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable, Iterator
from itertools import chain
from typing import Any

import httptools
import uvicorn
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from .guard import BODY_WHOLE, HEADERS, HOOK_PREFIX, HeaderTable

_HOOK = HOOK_PREFIX.encode()


def events_of_uvicorn(log: Callable[..., None]) -> None:
    """Send uvicorn's log records (a bad request line, an error in the application) to
    ``log`` as ``uvicorn`` events, so standard error stays JSON Lines."""

    class Events(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            text = record.getMessage()
            if record.exc_info and record.exc_info[1] is not None:
                error = record.exc_info[1]
                text += f" ({type(error).__name__}: {error})"
            log("uvicorn", level=record.levelname.lower(), message=text[:2000])

    for name in ("uvicorn", "uvicorn.error", "uvicorn.asgi"):
        logger = logging.getLogger(name)
        logger.handlers = [Events()]
        logger.propagate = False


class Server(uvicorn.Server):
    """uvicorn's server, without raising the stopping signal again once it has stopped: a
    graceful stop exits 0. Once a stop was asked for, a second SIGTERM or SIGINT while the
    process winds down (its threads, the interpreter's exit: about 0.1 s) is ignored, where
    the handler restored before would have killed it with the signal's status."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        previous = {sig: signal.signal(sig, self.handle_exit)
                    for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, signal.SIG_IGN if self.should_exit else handler)


class HeadLimited(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose request's line and headers
    have not all arrived ``seconds`` after the chunk holding its first byte (or after the
    connection opened), are
    over ``limit`` bytes, or whose target is not a path (``POST http://elsewhere/...``).
    httptools alone bounds neither time nor size, and parsing a header that keeps growing
    costs more than linear time. ``header_deadline`` sets the two numbers."""

    seconds = 10.0
    limit = 65_536
    body_limit = 1_000_000  # (``--max-body-bytes``; a chunked body's framing fits twice it)
    _deadline: asyncio.TimerHandle | None = None
    _received: int | None = 0  # bytes received in the unfinished head; None: in a body
    _url_begun = False
    url = b""  # uvicorn's, set at each request's first byte
    _cut = False
    _chunk = b""  # the chunk being parsed, and the head's bytes received before it
    _chunk_at: int | None = 0
    _ended = False  # a request ended in the chunk: a head begun after it began inside it
    _table: dict[bytes, bytes]  # the request's headers' last values (``on_header``)
    _twice: dict[bytes, list[bytes]]  # and every value of each name sent more than once
    #: A hook request's answer made in line (``guard.Guard.direct``: the body's bytes, or
    #: None when the request is to go to the application as any other).
    direct: Callable[[Any, bytes], bytes | None] | None = None
    _held: list[bytes] | None = None  # the body of a request held back for ``direct``
    _chunked: int | None = None  # bytes of a chunked body received (None: not chunked)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._cut:
            return
        self._chunk, self._chunk_at, self._ended = data, self._received, False
        super().data_received(data)
        if self._held is not None:  # a body still arriving: the application reads the rest
            held, self._held = self._held, None
            if not self.transport.is_closing():
                self._release(b"".join(held))
        # Still inside a head after this chunk: count it. (A chunk that also ends a
        # pipelined request counts whole: the count is over by less than one chunk.) The
        # head's pieces the parser has handed over are counted too, here, after each chunk
        # (parsing one chunk is linear), and when the head is whole.
        if self._received is not None:
            self._received += len(data)
            self._check()
            if self._deadline is None and not self._cut:
                self._arm()  # a head begun in this chunk and not whole in it: timed from now
        elif self._chunked is not None:  # a chunked body and its trailer: bounded as a whole
            self._chunked += len(data)  # (the guard counts the chunks' data, not the trailer
            if self._chunked > self.limit + 2 * self.body_limit:  # review s43 S1)
                self._expire()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._received, self._url_begun, self._chunked = 0, False, None
        self._table, self._twice = {}, {}
        # a request begun: not idle (an answer made in line in this chunk armed the timer)
        self._unset_keepalive_if_required()
        # Timed from the end of the chunk it began in, when it is not whole by then (most
        # heads arrive whole in one chunk: no timer is made for them).
        self._disarm()

    def on_header(self, name: bytes, value: bytes) -> None:
        """uvicorn's (``HttpToolsProtocol.on_header``: tests/service/test_hot_path.py holds
        the two equal), and the request's ``guard.HeaderTable`` made as its headers come (a
        session sends some ninety: the table made of them afterwards, three names of them
        twice, was a fifth of the service's own work a request; issue 29)."""
        name = name.lower()
        value = value.rstrip(b" \t")
        if name == b"expect" and value.lower() == b"100-continue":
            self.expect_100_continue = True
        self.headers.append((name, value))
        table = self._table
        if name in table:  # sent before: every value of it, in order (``repeated``)
            self._twice.setdefault(name, [table[name]]).append(value)
        table[name] = value

    def on_url(self, url: bytes) -> None:
        if not self._url_begun and not url.startswith(b"/"):
            self._expire()
        self._url_begun = True
        super().on_url(url)

    def on_body(self, body: bytes) -> None:
        if self._cut:  # the parser goes on through a chunk whose connection is cut: nothing
            return  # after the cut reaches a request (review s43 S2)
        if self._held is not None:
            self._held.append(body)
        else:
            super().on_body(body)

    def on_message_complete(self) -> None:
        self._ended = True
        if self._cut:
            return
        if self._held is not None:  # the body came whole with its head
            body, self._held = b"".join(self._held), None
            # the request's headers as ``guard.header_table`` reads them, made as they came
            self.scope[HEADERS] = HeaderTable(self._table, self._twice)  # type: ignore[literal-required]
            try:  # (a crash here would be the parser's 400: the application answers instead)
                answer = self.direct(self.scope, body) if self.direct is not None else None
            except Exception:
                answer = None
            if answer is not None:
                if not self.transport.is_closing():
                    self._answer(answer)
                return
            self._release(body)
        super().on_message_complete()
        if not self._cut and self.cycle is not None and not self.cycle.more_body:
            # the body is whole: the guard's first ``receive`` gives it without waiting
            self.scope[BODY_WHOLE] = True  # type: ignore[literal-required]

    def on_headers_complete(self) -> None:
        self._disarm()
        self._received = None
        if b"transfer-encoding" in self._table:
            self._chunked = 0
        before = self._chunk_at or 0
        # The head's bytes are at most ``received``; its pieces at most its bytes and two a
        # header (a header's line holds its name, a colon, its value and a line feed; the
        # pieces count four): a head far within the limit, as most are, needs no count.
        received = before + len(self._chunk)
        if received + 2 * len(self.headers) > self.limit and (self._pieces() > self.limit or (
                received > self.limit and
                before + _head_end(self._chunk, self._ended) > self.limit)):
            self._expire()  # (the pieces leave out blanks around values: review s41 F2)
        if self._cut:  # a request cut off is never handed to the application
            return
        if self._direct():
            self._held = []  # until its body is whole, in this chunk (``on_message_complete``)
        else:
            super().on_headers_complete()

    def _direct(self) -> bool:
        """Whether the request may be answered in line (``direct``), its body held until then:
        a POST to the hook endpoint's path as written, HTTP/1.1 kept alive, with no Expect, no
        upgrade, nothing left to write and no answer before it still to come (pipelined
        requests are answered in order). Its scope gets what uvicorn would give it."""
        if self.direct is None or not self.url.startswith(_HOOK) or b"%" in self.url or \
                not self.url.isascii() or self.expect_100_continue or self.pipeline or \
                (self.cycle is not None and not self.cycle.response_complete) or \
                self.flow.write_paused or self.limit_concurrency is not None or \
                self.parser.get_method() != b"POST" or \
                self.parser.get_http_version() != "1.1" or \
                not self.parser.should_keep_alive() or self.parser.should_upgrade():
            return False
        try:
            url = httptools.parse_url(self.url)
        except httptools.HttpParserInvalidURLError:
            return False
        path = url.path.decode("ascii")
        self.scope.update({"method": "POST", "path": self.root_path + path,
                           "raw_path": self.root_path.encode("ascii") + url.path,
                           "query_string": url.query or b""})
        return True

    def _release(self, body: bytes) -> None:
        """The request held for ``direct`` handed to the application, as uvicorn hands one
        over: its cycle started, the body received so far given."""
        HttpToolsProtocol.on_headers_complete(self)
        if body:
            HttpToolsProtocol.on_body(self, body)

    def _answer(self, body: bytes) -> None:
        """The answer written as uvicorn writes a 200 of these headers (``front``'s), and the
        request finished as uvicorn finishes one (the keep-alive timer, the next request)."""
        self.transport.write(b"".join([
            STATUS_LINE[200], *(name + b": " + value + b"\r\n"
                                for name, value in self.server_state.default_headers),
            b"content-type: application/json\r\ncontent-length: %d\r\n\r\n" % len(body),
            body]))
        self.on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _check(self) -> None:
        if (self._received or 0) > self.limit or self._pieces() > self.limit:
            self._expire()

    def _pieces(self) -> int:
        """Bytes of the head's line and headers the parser has handed over (uvicorn keeps
        them: the target in ``url``, each header in ``headers``, its value without the blanks
        that end it), and four more a header. Counted when checked, not as each header comes
        (a request carries some thirty: a Python call each was a tenth of the service's layers)."""
        headers = self.headers or ()
        return len(self.url) + 4 * len(headers) + sum(map(len, chain.from_iterable(headers)))

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.seconds, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._disarm()
        self._cut = True
        self.transport.close()


def _head_end(chunk: bytes, began_inside: bool) -> int:
    """Where in ``chunk`` a head that ends in it ends, at most: after its first empty line
    (the parser's end of a head), or the chunk's end when the head began inside the chunk or
    its empty line began in the chunk before."""
    if began_inside:
        return len(chunk)
    ends = [at + len(mark) for mark in (b"\r\n\r\n", b"\n\n") if (at := chunk.find(mark)) >= 0]
    return min(ends) if ends else len(chunk)


def header_deadline(seconds: float, limit: int,
                    direct: Callable[[Any, bytes], bytes | None] | None = None,
                    body_limit: int = HeadLimited.body_limit) -> type[HeadLimited]:
    """``HeadLimited`` with its deadline, its size limits, and what answers hook requests in
    line (``direct``: none when None)."""
    return type("HeadLimited", (HeadLimited,), {"seconds": seconds, "limit": limit,
                                                "body_limit": body_limit,
                                                "direct": staticmethod(direct) if direct
                                                else None})
