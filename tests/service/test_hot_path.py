"""The hook endpoint's hot path, in process (issue 29): what the service reads once and keeps
— a session's headers and what they say, the payload read once for the project folder and the
decision — answers exactly as reading it all again would. The reference is ``gate.hook.decide``
on the payload's bytes, as the ``skillgrant hook`` process reads them."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import session_headers, transcript

from skillgrant.gate.hook import Options, decide
from skillgrant.gate.options import PROJECT_OPTION
from skillgrant.service.app import Service, create_app, front
from skillgrant.service.plans import Plans, PlanSpec
from skillgrant.service.registry import REGISTERED

FOLDER = "/srv/project"


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(git status)", "Read(//srv/**)"]}))
    made = Service(Plans([PlanSpec("p", str(plan))], lambda *a, **k: None), audit=None,
                   handler_timeout=10.0)
    made.registry.register("s", {n: os.environ.get(n) for n in REGISTERED})  # (SessionStart)
    yield made
    for pool in made.pools:
        pool.shutdown(wait=False)


def _answer(service: Service, body: bytes, env: dict[str, str] | None = None) -> str:
    """The hook endpoint's answer to ``body``, sent from a session whose environment is
    ``env`` (the service's own when None), started in FOLDER."""
    headers = session_headers(dict(os.environ) if env is None else env, FOLDER)
    scope = {"type": "http", "method": "POST", "path": "/v1/hook/p", "query_string": b"",
             "headers": [(k.lower().encode(), v.encode("latin-1")) for k, v in headers.items()]}
    app = front(service, create_app(service))
    sent: list[bytes] = []

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, object]) -> None:
        if message["type"] == "http.response.body":
            body = message["body"]
            assert isinstance(body, (bytes, bytearray))
            sent.append(bytes(body))

    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    return b"".join(sent).decode()


def _call(command: str, **extra: object) -> dict[str, object]:
    return {"session_id": "s", "cwd": FOLDER, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command},
            "transcript_path": transcript(os.environ, FOLDER), **extra}


def test_a_kept_session_is_read_again_when_the_services_environment_changes(
        service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    body = json.dumps(_call("git status")).encode()
    sent_env = dict(os.environ)
    assert _answer(service, body, sent_env) == ""  # inside the plan: no decision
    monkeypatch.setenv("PATH", "/opt/elsewhere/bin:" + os.environ.get("PATH", ""))
    denied = json.loads(_answer(service, body, sent_env))  # the same headers, kept before
    reason = denied["hookSpecificOutput"]["permissionDecisionReason"]
    assert "PATH differs from the service's" in reason
    assert _answer(service, body) == ""  # a session in the new environment is decided


def test_sessions_kept_are_bounded(service: Service) -> None:
    body = json.dumps(_call("git status")).encode()
    for i in range(300):
        env = {**os.environ, "HOME": f"/home/u{i}"}  # each its own session, each denied
        assert "HOME differs" in _answer(service, body, env)
    assert len(service.sessions) <= 256


@pytest.mark.parametrize("body", [
    b"not json", b"\xef\xbb\xbf" + json.dumps(_call("git status")).encode(),
    json.dumps(_call("git status")).encode("utf-16"), b"[" * 5000 + b"]" * 5000,
    b"[" * 70 + b"{}" + b"]" * 70, b"null", b"[]", b'"text"', b"\xff\xfe",
    json.dumps(_call("rm -rf /")).encode(), json.dumps(_call("git status")).encode(),
    json.dumps({**_call("git status"), "tool_name": 5}).encode(),
], ids=lambda b: repr(b[:24]))
def test_a_payload_read_once_is_answered_as_the_hook_reads_its_bytes(
        service: Service, body: bytes) -> None:
    served = service.plans.get("p")
    assert served is not None
    options = Options()
    options.values["--plan"] = served.spec.path
    options.values[PROJECT_OPTION] = FOLDER
    expected = decide(options, body, served.loaded).stdout
    assert _answer(service, body) == expected


def test_a_payload_without_a_transcript_is_denied_unless_denied_anyway(service: Service) -> None:
    for transcript_path in (7, None, "/elsewhere/t.jsonl"):
        inside = json.dumps(_call("git status", transcript_path=transcript_path)).encode()
        assert "the session's project folder is not known" in _answer(service, inside)
        outside = json.dumps(_call("rm -rf /", transcript_path=transcript_path)).encode()
        assert "outside the approved plan" in _answer(service, outside)


def test_a_heads_end_in_a_chunk_is_found_at_most_where_the_parser_ends_it() -> None:
    """review s41 F2: the pieces the parser hands over leave out the blanks around values, so
    a head ending in a chunk is counted to its first empty line (never before it)."""
    from skillgrant.service.transport import _head_end

    head = b"GET / HTTP/1.1\r\nA:" + b" " * 50 + b"b\r\n\r\n"
    assert _head_end(head + b"body\r\n\r\n", began_inside=False) == len(head)
    assert _head_end(b"x\n\ny", began_inside=False) == 3  # a bare LF's empty line
    assert _head_end(b"\nrest", began_inside=False) == 5  # its empty line began before
    assert _head_end(head + b"body", began_inside=True) == len(head) + 4


_NAMES = [b"host", b"Host", b"origin", b"content-type", b"CONTENT-LENGTH", b"authorization",
          b"x-skillgrant-env-path", b"X-Skillgrant-Env-Home", b"1", b"-", b"x\xc9", b"\xe9"]


@pytest.mark.parametrize("seed", range(400))
def test_the_header_table_is_each_value_in_order_under_its_lower_case_name(seed: int) -> None:
    """``guard.header_table`` (one ``dict`` call when each name is sent once, in lower case)
    against a table made header by header: every value of each name, in order, and the last;
    names repeated, in upper case, without any letter, or non-ASCII."""
    import random

    from skillgrant.service.guard import header_table

    rng = random.Random(seed)
    headers = [(rng.choice(_NAMES), b"v%d" % i) for i in range(rng.randrange(0, 8))]
    if rng.random() < 0.5:  # as uvicorn hands them over: lower case, each name once
        headers = list({name.lower(): (name.lower(), value) for name, value in headers}.values())
    elif rng.random() < 0.5:  # lower case, names repeated (a session's npm_config_prefix
        headers = [(name.lower(), value) for name, value in headers]  # and NPM_CONFIG_PREFIX)
    reference: dict[bytes, list[bytes]] = {}
    for name, value in headers:
        reference.setdefault(name.lower(), []).append(value)
    given = headers if rng.random() < 0.5 else tuple(headers)
    table = header_table({"headers": given})
    assert table.last == {name: values[-1] for name, values in reference.items()}
    for name in {n.lower() for n in _NAMES}:
        assert table.values(name) == reference.get(name, [])


@pytest.mark.parametrize("seed", range(200))
def test_the_request_event_is_written_as_any_event_is(seed: int) -> None:
    """``EventLog.request`` (the line written out field by field) against the event written
    by ``EventLog.__call__`` (the JSON encoder), byte for byte: paths with quotes, controls,
    non-ASCII and lone surrogates, fields missing (None), sizes and times of every size."""
    import io
    import random

    from skillgrant.service.server import EventLog

    rng = random.Random(seed)
    alphabet = ["a", "/", '"', "\\", "\n", "\x00", "\x7f", "é", "\u2028", "\ud800", "😀", " "]
    def text() -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))

    fields = {"method": rng.choice([None, "POST", "GET", text()]), "path": text(),
              "status": rng.choice([None, 200, 403, 500]),
              "request_bytes": rng.randrange(0, 10 ** rng.randrange(1, 12)),
              "response_bytes": rng.randrange(0, 10 ** rng.randrange(1, 12)),
              "refused": rng.choice([None, "host", text()]),
              "ms": round(rng.random() * 10 ** rng.randrange(-3, 7), 3),
              "client": rng.choice([None, "127.0.0.1:5555", text()])}
    lines = []
    for write in ("generic", "request"):
        stream = io.StringIO()
        log = EventLog(stream)
        log._stamp = lambda: "2026-12-05T00:00:00.000Z"
        if write == "generic":
            log("request", **fields)
        else:
            log.request(*fields.values())
        lines.append(stream.getvalue())
    assert lines[0] == lines[1]


@pytest.mark.parametrize("seed", range(200))
def test_the_protocols_header_callback_is_uvicorns_and_makes_the_header_table(seed: int) -> None:
    """``transport.HeadLimited.on_header`` does what uvicorn's ``on_header`` does (the headers
    kept, ``Expect: 100-continue`` noted; a uvicorn that changes its own fails here), and the
    table it makes as they come is ``guard.header_table`` of them: names in any case, sent
    more than once, values with blanks after them."""
    import random
    from types import SimpleNamespace

    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from skillgrant.service.guard import HeaderTable, header_table
    from skillgrant.service.transport import HeadLimited

    rng = random.Random(seed)
    names = [*_NAMES, b"Expect", b"expect", b"EXPECT", b"Transfer-Encoding"]
    values = [b"", b"v", b"v \t", b" v", b"100-continue", b"100-Continue \t", b"\t"]
    theirs = SimpleNamespace(headers=[], expect_100_continue=False)
    ours = SimpleNamespace(headers=[], expect_100_continue=False, _table={}, _twice={})
    for _ in range(rng.randrange(0, 12)):
        name, value = rng.choice(names), rng.choice(values) + rng.choice([b"", b"x"])
        HttpToolsProtocol.on_header(theirs, name, value)  # type: ignore[arg-type]
        HeadLimited.on_header(ours, name, value)  # type: ignore[arg-type]
    assert ours.headers == theirs.headers
    assert ours.expect_100_continue == theirs.expect_100_continue
    assert HeaderTable(ours._table, ours._twice) == header_table({"headers": theirs.headers})
