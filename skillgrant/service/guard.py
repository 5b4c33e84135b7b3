"""The service's front door: an ASGI middleware every request passes before the application.

In order, a request is refused when
- its ``Host`` header is not one the service answers to (``HostRule``): a web page that made a
  name resolve to 127.0.0.1 (DNS rebinding) sends its own name, and is refused;
- it carries an ``Origin`` header: runtimes and pipelines send none, browsers do;
- the service has a token and the request's ``Authorization: Bearer`` is not it (compared in
  constant time);
- a POST's ``Content-Type`` is not ``application/json``: a cross-site form can send
  ``text/plain`` without asking, never JSON;
- its body is over the limit (counted as it arrives), or does not arrive whole within the
  read timeout.

A refused hook request (``/v1/hook/...``) is answered like any hook failure: 200 with a denial
in the runtime's JSON, and an audit record. Any other is an HTTP error with a JSON body. There
are no CORS headers. Each request gives one access-log record: method, path, status, sizes and
time, never the body.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import json
import re
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from itertools import count
from operator import itemgetter
from typing import Any, NamedTuple

from .payloadid import SCAN_BYTES

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The path prefix of the hook endpoint, whose every answer is a hook answer.
HOOK_PREFIX = "/v1/hook/"
#: Bytes of an oversized body read and dropped before its refusal is sent; past them (or
#: declared past them: at the first chunk) the refusal is sent, and the connection closed.
DRAIN_BYTES = 64_000_000
_MAX_LOGGED_PATH = 200
#: The ``request`` event's fields, in order.
_REQUEST_FIELDS = ("method", "path", "status", "request_bytes", "response_bytes", "refused",
                   "ms", "client")
_SLASHES = re.compile("/+")


def is_hook(scope: Scope) -> bool:
    """Whether a request is for the hook endpoint, however its path is spelled (``/v1/hook``,
    ``//V1/hook/x``): every such request gets a hook answer, a denial when it is not exact."""
    path = str(scope.get("path", ""))
    if path.startswith(HOOK_PREFIX):
        return True
    return _SLASHES.sub("/", path).lower().startswith(HOOK_PREFIX.rstrip("/"))


class Refusal(Exception):
    """A request the guard does not let through: HTTP status, stable code, one sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class HostRule:
    """The ``Host`` values the service answers to, for the address and port it listens on.

    A loopback address answers to itself and ``localhost``; another address to itself; a
    wildcard address (``0.0.0.0``, ``::``) to any IP literal (a literal cannot be rebound to
    another machine). Names given with ``--allow-host`` are added. The port must match.
    """

    def __init__(self, host: str, port: int, names: Iterable[str] = ()) -> None:
        self.port = port
        address = ipaddress.ip_address(host)
        self.any_literal = address.is_unspecified
        self.hosts = {_host_key(host)} | {n.lower() for n in names}
        if address.is_loopback:
            self.hosts.add("localhost")
        self._seen: dict[str, bool] = {}  # each client sends the same value each time

    def allows(self, value: str) -> bool:
        found = self._seen.get(value)
        if found is None:
            if len(self._seen) >= 64:
                self._seen.clear()
            found = self._seen[value] = self._allows(value)
        return found

    def _allows(self, value: str) -> bool:
        host, port = _split_host(value)
        if host is None or port != self.port:
            return False
        if host in self.hosts:
            return True
        if self.any_literal:
            try:
                ipaddress.ip_address(host.strip("[]"))
            except ValueError:
                return False
            return True
        return False


def _host_key(host: str) -> str:
    return f"[{host}]" if ":" in host else host.lower()


def _split_host(value: str) -> tuple[str | None, int | None]:
    """``host:port`` (``[v6]:port``) split, the host lower-cased; the port 80 when absent."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None, None
        host, rest = value[:end + 1], value[end + 1:]
    else:
        host, sep, port_text = value.partition(":")
        rest = sep + port_text
    if not rest:
        return host, 80
    digits = rest[1:]
    # ASCII digits, written as the port is (no leading zero): "²" is a digit to isdigit().
    if not rest.startswith(":") or not digits.isascii() or not digits.isdigit() \
            or len(digits) > 5 or str(int(digits)) != digits:
        return None, None
    return host or None, int(digits)


class Guard:
    """The middleware. ``hook_refusal(scope, message)`` gives the hook answer (JSON text, or
    empty) for a refused hook request; ``log`` receives an event name and its fields."""

    def __init__(self, app: ASGIApp, *, hosts: HostRule, token: str | None, max_body: int,
                 read_timeout: float, hook_refusal: Callable[[Scope, str], str],
                 log: Callable[..., None],
                 hook_now: Callable[[Scope, bytes], str | None] | None = None) -> None:
        self.app = app
        self.hook_now = hook_now
        self.hosts = hosts
        self.token = token.encode() if token is not None else None
        self.max_body = max_body
        self.read_timeout = read_timeout
        self.hook_refusal = hook_refusal
        self.log = log
        # the ``request`` event: written by the log's own ``request`` when it has one
        # (``server.EventLog``: the same line, made faster), else as any event
        self._request: Callable[..., None] = getattr(log, "request", None) or (
            lambda *fields: log("request", **dict(zip(_REQUEST_FIELDS, fields, strict=True))))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":  # never served: closed before anything is read
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)  # lifespan
            return
        started = time.perf_counter()
        sent = _Counted(send)
        size = 0
        try:
            headers = scope[HEADERS] = header_table(scope)
            self._check(scope, headers)
            body = await (self._chunks(scope, receive) if scope.get(BODY_WHOLE) is True
                          else self._read(scope, receive))
            size = len(body)
            await self.app(scope, _replay(body, receive), sent)
        except Refusal as refusal:
            await self._refuse(scope, sent, refusal)
        except _Disconnected:
            pass  # the client went away: no one to answer
        except Exception as e:  # fail closed: a crash is a refusal (a denial on the hook path)
            self.log("error", where="guard", error=f"{type(e).__name__}: {e}"[:500])
            await self._refuse(scope, sent, Refusal(500, "internal", "internal error"))
        finally:
            self._request(scope.get("method"), str(scope.get("path", ""))[:_MAX_LOGGED_PATH],
                          sent.status, size, sent.size, sent.refused,
                          round((time.perf_counter() - started) * 1000, 3), _client(scope))

    def direct(self, scope: Scope, body: bytes) -> bytes | None:
        """The answer's body to a hook request whose body came whole with its head, made in
        line by ``hook_now`` (``transport.HeadLimited`` writes it: no task, no ASGI messages),
        when the request passes every check above; None when it is to go through the guard
        as any request (a refusal, a decision made in a thread, a crash: answered there)."""
        if self.hook_now is None:
            return None
        started = time.perf_counter()
        try:
            headers = scope.get(HEADERS)  # (the server's protocol made it: ``transport``)
            if headers is None:
                headers = scope[HEADERS] = header_table(scope)
            self._check(scope, headers)
            answer = self.hook_now(scope, body) if len(body) <= self.max_body else None
        except Exception:  # (a Refusal too: the guard refuses it again, and says why)
            return None
        if answer is None:
            return None
        data = answer.encode("utf-8")
        # the event never keeps the answer from being written (the ASGI path writes it first)
        with contextlib.suppress(Exception):
            self._request(scope.get("method"), str(scope.get("path", ""))[:_MAX_LOGGED_PATH],
                          200, len(body), len(data), None,
                          round((time.perf_counter() - started) * 1000, 3), _client(scope))
        return data

    def _check(self, scope: Scope, headers: HeaderTable) -> None:
        hosts = headers.values(b"host")
        if len(hosts) != 1 or not self.hosts.allows(hosts[0].decode("latin-1")):
            raise Refusal(403, "host", "the Host header is not an address this service "
                          "answers to")
        if is_hook(scope) and scope.get("method") != "POST":
            raise Refusal(405, "method", "the hook endpoint takes POST")
        if b"origin" in headers.last:
            raise Refusal(403, "origin", "requests from web pages (with an Origin header) "
                          "are refused")
        if self.token is not None:
            given = headers.values(b"authorization")
            scheme, _, credential = (given[0] if len(given) == 1 else b"").partition(b" ")
            if scheme.lower() != b"bearer" or not hmac.compare_digest(credential.strip(),
                                                                      self.token):
                raise Refusal(401, "token", "a valid 'Authorization: Bearer' token is "
                              "required")
        if scope.get("method") == "POST":
            kinds = headers.values(b"content-type")
            kind = kinds[0].split(b";")[0].strip().lower() if len(kinds) == 1 else b""
            if kind != b"application/json":
                raise Refusal(415, "content-type", "the body must be sent as "
                              "'Content-Type: application/json'")
        lengths = headers.values(b"content-length")
        if any(not v.strip().isdigit() for v in lengths):  # (one past DRAIN_BYTES: _chunks)
            raise Refusal(413, "body-size", f"the body is over {self.max_body} bytes "
                          "(--max-body-bytes)")

    async def _read(self, scope: Scope, receive: Receive) -> bytes:
        """The body, whole, within the read timeout."""
        try:
            async with asyncio.timeout(self.read_timeout):
                return await self._chunks(scope, receive)
        except TimeoutError:
            raise Refusal(408, "read-timeout", f"the body did not arrive within "
                          f"{self.read_timeout:g} s") from None

    async def _chunks(self, scope: Scope, receive: Receive) -> bytes:
        """The body, whole. A body over the limit is read on and dropped, up to DRAIN_BYTES,
        so the client, still sending, reads the refusal rather than a reset connection. Its
        first ``SCAN_BYTES`` are kept (``SEEN``): a hook refusal reads the session id there."""
        chunks: list[bytes] = []
        size, over = 0, any(int(v) > DRAIN_BYTES for v in scope[HEADERS].values(
            b"content-length"))
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _Disconnected
            chunk = message.get("body", b"")
            if size < SCAN_BYTES:
                scope[SEEN] = scope.get(SEEN, b"") + chunk[:SCAN_BYTES - size]
            size += len(chunk)
            if size <= self.max_body:
                chunks.append(chunk)
            more = message.get("more_body", False)
            if over or (size > self.max_body and (not more or size > DRAIN_BYTES)):
                raise Refusal(413, "body-size", f"the body is over {self.max_body} bytes "
                              "(--max-body-bytes)")
            if not more:
                return b"".join(chunks)

    async def _refuse(self, scope: Scope, send: _Counted, refusal: Refusal) -> None:
        if send.status is not None:
            return  # the answer has started: nothing more can be said
        send.refused = refusal.code
        if is_hook(scope):
            text = self.hook_refusal(scope, refusal.message)
            status, extra = (200, []) if scope.get("method") == "POST" else (
                405, [(b"allow", b"POST")])
            await _respond(send, status, text.encode("utf-8"), extra)
            return
        body = json.dumps({"error": {"code": refusal.code, "message": refusal.message}})
        extra = [(b"www-authenticate", b"Bearer")] if refusal.status == 401 else []
        await _respond(send, refusal.status, body.encode("utf-8"), extra)


class _Disconnected(Exception):
    pass


class _Counted:
    """``send``, noting the status and the body's size."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.status: int | None = None
        self.size = 0
        self.refused: str | None = None

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = int(message["status"])
        elif message["type"] == "http.response.body":
            self.size += len(message.get("body", b""))
        await self._send(message)


#: The scope's key for the request's headers as the guard read them (``header_table``).
HEADERS = "skillgrant.headers"
#: The scope's key for the body's first ``SCAN_BYTES`` (``Guard._chunks``), read only once
#: the request passed the checks of its Host, Origin, token and content type (review G1).
SEEN = "skillgrant.seen"
#: The scope's key the server's protocol sets once the request's body has arrived whole
#: (``transport.HeadLimited``): reading it then waits for nothing, and needs no timer.
BODY_WHOLE = "skillgrant.body-whole"


class HeaderTable(NamedTuple):
    """A request's headers by their names in lower case: each name's last value (``last``),
    and every value, in order, of a name sent more than once (``repeated``)."""

    last: dict[bytes, bytes]
    repeated: dict[bytes, list[bytes]]

    def values(self, name: bytes) -> list[bytes]:
        """Every value of the header ``name`` (in lower case), in order."""
        found = self.repeated.get(name)
        if found is not None:
            return found
        value = self.last.get(name)
        return [] if value is None else [value]


def header_table(scope: Scope) -> HeaderTable:
    """The request's headers (``HeaderTable``). A request names each header once, in lower
    case (uvicorn lowers them): then the table is made in one call; else header by header."""
    headers = scope.get("headers", ())  # pairs of bytes (the ASGI specification)
    if not isinstance(headers, list):
        headers = list(headers)
    last: dict[bytes, bytes] = dict(headers)
    # (a name with no lower-case letter, or any upper-case one, is read the long way)
    if b"".join(last).islower():
        return HeaderTable(last, {} if len(last) == len(headers) else _repeated(headers, last))
    last = {}
    repeated: dict[bytes, list[bytes]] = {}
    for name, value in headers:
        key = name.lower()
        if key in last:
            repeated.setdefault(key, [last[key]]).append(value)
        last[key] = value
    return HeaderTable(last, repeated)


def _repeated(headers: list[tuple[bytes, bytes]], last: dict[bytes, bytes]
              ) -> dict[bytes, list[bytes]]:
    """``HeaderTable.repeated`` of ``headers`` whose names are in lower case, ``last`` their
    table: found at C speed, each place that is not its name's last (a session sends some
    ninety headers, three names of them twice: ``npm_config_prefix`` beside
    ``NPM_CONFIG_PREFIX``; a loop over all of them was a fifth of the service's layers)."""
    ends = dict(zip(map(itemgetter(0), headers), count()))  # each name's last place
    repeated: dict[bytes, list[bytes]] = {}
    for at in sorted(set(range(len(headers))).difference(ends.values())):
        name, value = headers[at]
        repeated.setdefault(name, []).append(value)
    for name, values in repeated.items():
        values.append(last[name])
    return repeated


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body read already, then what the client sends next (its
    disconnection)."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _respond(send: Send, status: int, body: bytes,
                   extra: list[tuple[bytes, bytes]]) -> None:
    # A refused request's body may be partly unread: the connection is not used again.
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"), *extra]})
    await send({"type": "http.response.body", "body": body})


def _client(scope: Scope) -> str | None:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else None

