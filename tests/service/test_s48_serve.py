"""Session 48 (s48-servespeed): a session whose variables are named alike but for case sends
one header name twice; the service denies its calls where the two values differ."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from serving import session_headers, transcript

from skillgrant.gate.hook import Options, decide
from skillgrant.service.app import Service, create_app, front
from skillgrant.service.plans import Plans, PlanSpec

FOLDER = "/srv/project"


def test_a_variable_set_in_lower_case_only_is_read_as_the_session_set_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A session setting ``npm_config_userconfig`` (and not ``NPM_CONFIG_USERCONFIG``): the
    hook in that session denies an Edit of the file it names (review s46 N2); the service,
    started without it, must not decide the call as if the session had not set it."""
    for name in ("npm_config_userconfig", "NPM_CONFIG_USERCONFIG"):
        monkeypatch.delenv(name, raising=False)
    npmrc = tmp_path / "npmrc"
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{tmp_path}/**)"]}))
    payload = json.dumps({
        "session_id": "s", "cwd": FOLDER, "hook_event_name": "PreToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": str(npmrc), "old_string": "a", "new_string": "b"},
        "transcript_path": transcript(os.environ, FOLDER)}).encode()
    session = {**os.environ, "npm_config_userconfig": str(npmrc)}
    service = Service(Plans([PlanSpec("p", str(plan))], lambda *a, **k: None), audit=None,
                      handler_timeout=10.0)
    headers = session_headers(session, FOLDER)
    scope = {"type": "http", "method": "POST", "path": "/v1/hook/p", "query_string": b"",
             "headers": [(k.lower().encode(), v.encode("latin-1")) for k, v in headers.items()]}
    sent: list[bytes] = []

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": payload, "more_body": False}

    async def send(message: dict[str, object]) -> None:
        if message["type"] == "http.response.body":
            body = message["body"]
            assert isinstance(body, (bytes, bytearray))
            sent.append(bytes(body))

    try:
        asyncio.run(front(service, create_app(service))(scope, receive, send))  # type: ignore[arg-type]
    finally:
        for pool in service.pools:
            pool.shutdown(wait=False)
    monkeypatch.setenv("npm_config_userconfig", str(npmrc))
    options = Options()
    options.values["--plan"] = str(plan)
    hooks = decide(options, payload)
    assert "deny" in hooks.stdout  # the hook in the session
    answer = b"".join(sent).decode()  # the service: denied, the header named
    assert "deny" in answer and "npm_config_userconfig" in answer
