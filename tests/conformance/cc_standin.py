"""A stand-in for the Anthropic Messages API on 127.0.0.1, scripted per session.

Claude Code in ``-p`` mode POSTs ``/v1/messages?beta=true`` (``stream: true``) below its
``ANTHROPIC_BASE_URL``. Each session gets its own base URL, ``http://127.0.0.1:PORT/s/<id>``, and
a script: the tool calls the "model" makes, one per turn, in order. Every answer is a stream of
server-sent events; a turn holds one ``tool_use`` block until the script is used up, then one
text block that ends the turn. The tool results the runtime sends back are recorded by id, so a
probe's outcome can be read from the runtime's own words as well as from its
``permission_denials``.

The server keeps no state but the scripts and the results; which call comes next is the number
of ``tool_use`` blocks already in the conversation the runtime sends (it resends it whole).

**Subagents.** A session may script subagents too (``Session.subagents``): the parent passes a
prompt holding ``marker(name)`` to ``Agent``, and every request whose conversation holds that
marker is the subagent's, answered from its own script; its results are recorded under
``Session.sub_id(name, i)``.
"""

from __future__ import annotations

import functools
import http.server
import itertools
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

#: A tool call the stand-in makes: the tool's name and its input object.
Call = tuple[str, Mapping[str, Any]]


@dataclass
class Session:
    """One scripted conversation and what the runtime answered to each call."""

    script: Sequence[Call]
    #: tool_use id -> (is_error, the result's text)
    results: dict[str, tuple[bool, str]] = field(default_factory=dict)
    requests: int = 0
    #: a subagent's name -> its script (module docstring)
    subagents: Mapping[str, Sequence[Call]] = field(default_factory=dict)

    def call_id(self, index: int) -> str:
        return f"toolu_probe_{index:04d}"

    def sub_id(self, name: str, index: int) -> str:
        return f"toolu_sub_{name}_{index:04d}"


def marker(name: str) -> str:
    """The text a parent's ``Agent`` prompt holds to start the scripted subagent ``name``."""
    return f"[standin-subagent:{name}]"


class StandIn:
    """The server; ``with StandIn() as s: url = s.session(script)`` ... ``s.result(url)``.

    A stand-in for another API (``cp_standin``) is a subclass: ``serves``, ``reply`` and
    ``get`` speak it, ``session_type`` is its sessions' class and ``suffix`` ends its base
    URLs."""

    session_type: type[Session] = Session
    suffix = ""
    #: The bodies of a 404 (no such session) and a 400 (not JSON) in this API.
    not_found = b'{"type":"error","error":{"type":"not_found_error","message":"no such session"}}'
    not_json = b'{"type":"error"}'

    def __init__(self) -> None:
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._server = _Server(("127.0.0.1", 0), self.handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def handler(self) -> type[http.server.BaseHTTPRequestHandler]:
        """The request handler: it asks ``serves``, ``reply`` and ``get``."""
        return _handler(self)

    def serves(self, path: str) -> bool:
        """Whether a POST to ``path`` is a request of this API."""
        return "/v1/messages" in path

    def reply(self, session: Session, body: Mapping[str, Any]) -> bytes:
        """The event stream answering one request of ``session``."""
        return answer(session, body)

    def get(self, path: str) -> bytes | None:
        """The answer to a GET of ``path``, or None (404)."""
        return None

    def session(self, script: Sequence[Call], subagents: Mapping[str, Sequence[Call]] | None = None
                ) -> tuple[str, Session]:
        """Register a script (and the subagents' scripts); returns the base URL the runtime
        must use, and the session."""
        with self._lock:
            sid = f"{next(self._ids):06d}"
            session = self.session_type(list(script), subagents=dict(subagents or {}))
            self._sessions[sid] = session
        return f"http://127.0.0.1:{self.port}/s/{sid}{self.suffix}", session

    def lookup(self, path: str) -> Session | None:
        parts = path.split("/")
        if len(parts) < 3 or parts[1] != "s":
            return None
        with self._lock:
            return self._sessions.get(parts[2])


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a session killed mid-request resets its connection: nothing to report


def text_of(content: object) -> str:
    """A message's text: the string, or its blocks' texts joined (both APIs' forms)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(block.get("text", "")) for block in content
                       if isinstance(block, dict))
    return ""


def whose(session: Session, messages: Sequence[Mapping[str, Any]]
           ) -> tuple[Sequence[Call], Callable[[int], str], int]:
    """The script a conversation follows (the main one, or the subagent whose marker a user
    message holds), the ids of its calls, and where its own messages start (a fork's
    conversation holds its parent's first)."""
    script, call_id, start = session.script, session.call_id, 0
    for at, message in enumerate(messages):
        if message.get("role") != "user":
            continue
        said = text_of(message.get("content"))
        for name, sub_script in session.subagents.items():
            if marker(name) in said:
                script, start = sub_script, at
                call_id = functools.partial(session.sub_id, name)
    return script, call_id, start


#: In an Agent probe's prompt: the sub-agent's own conversation (it shares the session's base
#: URL, and must not replay the main script). After the mark, ``CALL:`` and a JSON ``[name,
#: input]`` is the one tool call the sub-agent makes (its id ``SUBAGENT_CALL_ID``) before it
#: answers with text.
SUBAGENT_MARK = "SKILLGRANT-SUBAGENT-PROBE"
SUBAGENT_CALL_ID = "toolu_subagent_0000"


def _subagent(messages: Sequence[Any]) -> bool:
    first = messages[0] if messages and isinstance(messages[0], dict) else {}
    return SUBAGENT_MARK in text_of(first.get("content"))


def _subagent_call(messages: Sequence[Any], used: int) -> Call | None:
    """The sub-agent's one scripted call, while it has not made it."""
    text = text_of(messages[0].get("content"))
    _, found, rest = text.partition("CALL:")
    if not found or used:
        return None
    try:
        name, tool_input = json.loads(rest.strip().splitlines()[0])
    except (ValueError, IndexError):
        return None
    return str(name), dict(tool_input)


def answer(session: Session, body: Mapping[str, Any]) -> bytes:
    """The event stream for one request of ``session``."""
    messages = body.get("messages") or []
    script, call_id, start = whose(session, messages)
    used = 0
    for message in messages[start:]:
        content = message.get("content")
        if not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, dict):
                continue
            if message.get("role") == "assistant" and block.get("type") == "tool_use":
                used += 1
            elif block.get("type") == "tool_result":
                session.results[str(block.get("tool_use_id"))] = (
                    bool(block.get("is_error")), text_of(block.get("content")))
    events: list[str] = []

    def event(name: str, data: Mapping[str, Any]) -> None:
        events.append(f"event: {name}\ndata: {json.dumps({'type': name, **data})}\n\n")

    event("message_start", {"message": {
        "id": f"msg_{session.requests:04d}", "type": "message", "role": "assistant",
        "model": body.get("model", "stand-in"), "content": [], "stop_reason": None,
        "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}})
    # Only the main conversation carries the tools; any other request (a title, a summary)
    # gets a short text answer.
    # A sub-agent marked with SUBAGENT_MARK makes its one scripted call (issue 28's probes); a
    # sub-agent named in ``session.subagents`` follows its own script (issue 33's cases).
    sub = _subagent(messages)
    scripted = _subagent_call(messages, used) if sub and body.get("tools") else None
    if scripted is not None or (body.get("tools") and used < len(script) and not sub):
        name, tool_input = scripted or script[used]
        tool_id = SUBAGENT_CALL_ID if scripted else call_id(used)
        event("content_block_start", {"index": 0, "content_block": {
            "type": "tool_use", "id": tool_id, "name": name, "input": {}}})
        event("content_block_delta", {"index": 0, "delta": {
            "type": "input_json_delta", "partial_json": json.dumps(tool_input)}})
        stop = "tool_use"
    else:
        event("content_block_start", {"index": 0, "content_block": {"type": "text", "text": ""}})
        event("content_block_delta", {"index": 0, "delta": {"type": "text_delta",
                                                           "text": "done"}})
        stop = "end_turn"
    event("content_block_stop", {"index": 0})
    event("message_delta", {"delta": {"stop_reason": stop, "stop_sequence": None},
                            "usage": {"output_tokens": 1}})
    event("message_stop", {})
    session.requests += 1
    return "".join(events).encode()


def _handler(owner: StandIn) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length)
            session = owner.lookup(self.path)
            if session is None or not owner.serves(self.path):
                self._send(404, owner.not_found, "application/json")
                return
            try:
                body = json.loads(raw)
            except ValueError:
                self._send(400, owner.not_json, "application/json")
                return
            self._send(200, owner.reply(session, body), "text/event-stream")

        def do_GET(self) -> None:
            found = owner.get(self.path)
            self._send(404 if found is None else 200, b"{}" if found is None else found,
                       "application/json")

        def _send(self, status: int, data: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
