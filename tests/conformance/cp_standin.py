"""A stand-in for the OpenAI chat completions API on 127.0.0.1, scripted per session, for
Copilot CLI run with a custom model provider (``COPILOT_PROVIDER_BASE_URL``).

Copilot CLI POSTs ``<base>/chat/completions`` (``stream: true``). Each session gets its own base
URL, ``http://127.0.0.1:PORT/s/<id>/v1``, and a script: the tool calls the "model" makes, one per
turn, in order. An answer is a stream of ``chat.completion.chunk`` events: one ``tool_calls``
delta while the script lasts, then a text that ends the turn. The tool results the runtime sends
back (``role: tool`` messages) are recorded by call id.

Which call comes next is the number of assistant ``tool_calls`` already in the conversation the
runtime sends (it resends it whole). The session object is ``cc_standin.Session``: the two
stand-ins keep the same record, only the wire format differs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cc_standin
from cc_standin import Call, Session, marker, text_of, whose

__all__ = ["Call", "CopilotSession", "Session", "StandIn", "answer", "marker"]


@dataclass
class CopilotSession(Session):
    """A session that also knows which call it handed out last (-1: none yet) and whether it
    has given its closing answer (the script is played)."""

    issued: int = -1
    closed: bool = False


class StandIn(cc_standin.StandIn):
    """The server (``cc_standin.StandIn``'s, speaking this API); ``with StandIn() as s: url,
    session = s.session(script)``."""

    session_type = CopilotSession
    suffix = "/v1"
    not_found = b'{"error":{"message":"no such session"}}'
    not_json = b'{"error":{"message":"not JSON"}}'

    def serves(self, path: str) -> bool:
        return path.endswith("/chat/completions")

    def reply(self, session: Session, body: Mapping[str, Any]) -> bytes:
        assert isinstance(session, CopilotSession)
        return answer(session, body)

    def get(self, path: str) -> bytes | None:
        if not path.endswith("/models"):
            return None
        return json.dumps({"object": "list", "data": [{
            "id": "gpt-4.1", "object": "model", "created": 1_700_000_000,
            "owned_by": "stand-in"}]}).encode()

    def session(self, script: Sequence[Call],
                subagents: Mapping[str, Sequence[Call]] | None = None
                ) -> tuple[str, CopilotSession]:
        url, session = super().session(script, subagents)
        assert isinstance(session, CopilotSession)
        return url, session

    def lookup(self, path: str) -> CopilotSession | None:
        found = super().lookup(path)
        return found if isinstance(found, CopilotSession) else None


def answer(session: CopilotSession, body: Mapping[str, Any]) -> bytes:
    """The event stream for one request of ``session``: the main conversation's, or a
    subagent's (a user message holds its ``marker``; it follows its own script, and its calls'
    ids are ``session.sub_id``)."""
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    script, call_id, start = whose(session, messages)
    main = script is session.script
    used = 0
    for at, message in enumerate(messages):
        if message.get("role") == "assistant" and at >= start:
            used += len(message.get("tool_calls") or [])
        elif message.get("role") == "tool":
            text = text_of(message.get("content"))
            session.results[str(message.get("tool_call_id"))] = (False, text)
    model = str(body.get("model", "stand-in"))
    chunks: list[dict[str, Any]] = []

    def chunk(delta: Mapping[str, Any], finish: str | None = None) -> None:
        chunks.append({"id": f"chatcmpl-{session.requests:04d}", "object": "chat.completion.chunk",
                       "created": 1_700_000_000, "model": model,
                       "choices": [{"index": 0, "delta": dict(delta), "finish_reason": finish}]})

    # Only the main conversation carries the tools; any other request (a title, a summary)
    # gets a short text answer.
    if body.get("tools") and used < len(script):
        name, tool_input = script[used]
        chunk({"role": "assistant", "content": None, "tool_calls": [{
            "index": 0, "id": call_id(used), "type": "function",
            "function": {"name": name, "arguments": ""}}]})
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": json.dumps(tool_input)}}]})
        chunk({}, "tool_calls")
        if main:
            session.issued = used
    else:
        if main:  # a subagent's closing answer does not end the session
            session.closed = session.closed or bool(body.get("tools"))
        chunk({"role": "assistant", "content": "done"})
        chunk({}, "stop")
    session.requests += 1
    events = [f"data: {json.dumps(c)}\n\n" for c in chunks]
    events.append("data: [DONE]\n\n")
    return "".join(events).encode()
