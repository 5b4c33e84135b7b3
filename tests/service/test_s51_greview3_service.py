"""Review s51 (s51-greview3) of s51-gfix3's rule that a registration must precede the
session's first call (service/registry.py ``Registry.called``, sessions.py ``in_session``;
review s50-sreview F2). Each case drives a real ``skillgrant serve``: a call of the victim the
service decides (denies) without noting it, then another session's registration of the
victim's id, then the victim's write of the npmrc its npm reads. A test that fails here is a
hole left open: strict xfails through ``OPEN``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from review_table import LeftOpen
from serving import Served, registering

from skillgrant.limits import MAX_HOOK_PAYLOAD_BYTES
from skillgrant.service.registry import REGISTERED

#: A real service (seconds each): CI's slow step runs them.
pytestmark = [pytest.mark.slow]

OPEN = LeftOpen()
_open = OPEN.add

TOKEN_ENV = "SG_S51GR3_TOKEN"
TOKEN = "s51gr3-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
UNSET = dict.fromkeys(REGISTERED)
NPMRC = "/srv/project/npmrc"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with registering(tmp_path_factory.mktemp("s51gr3"), TOKEN_ENV, TOKEN) as service:
        yield service


def _payload(session_id: str, tool: str, **given: str) -> dict[str, Any]:
    return {"session_id": session_id, "cwd": "/srv/project", "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": given}


def _decision(served: Served, body: dict[str, Any] | bytes) -> str:
    reply = served.post("/v1/hook/p", body, headers=AUTH, register=False) \
        if isinstance(body, dict) else served.request("POST", "/v1/hook/p", body, headers=AUTH,
                                                      register=False)
    assert reply.status == 200
    return json.loads(reply.body)["hookSpecificOutput"]["permissionDecisionReason"] \
        if reply.body else "allowed"


def _write(served: Served, session_id: str) -> str:
    return _decision(served, _payload(session_id, "Write", file_path=NPMRC,
                                      content="registry=x"))


def _register(served: Served, session_id: str) -> Any:
    body = {"session_id": session_id, "source": "startup", "environment": UNSET}
    return served.request("POST", "/v1/sessions", body, headers=AUTH)


#: A first call of the victim the service denies without reading its session: a payload over
#: ``MAX_HOOK_PAYLOAD_BYTES`` (a Write of a 4 MB file: the model chooses its content).
FIRST = {"oversize-write": lambda sid: json.dumps(_payload(
    sid, "Write", file_path="/srv/project/big.txt",
    content="x" * MAX_HOOK_PAYLOAD_BYTES)).encode()}


@pytest.mark.parametrize("case", list(FIRST))
def test_g1_a_call_denied_unread_leaves_the_id_registrable(served: Served, case: str) -> None:
    """Session ``victim-…`` (its SessionStart failed; its npm reads npm_config_userconfig=
    NPMRC) makes its first call: the service denies it (the payload is over its limit) but
    ``in_session`` reads no session id from it, so ``Registry.called`` notes nothing. Another
    session's Bash tool (curl, the token from its environment) then registers the victim's id
    with the service's values: 200, not 409 ``late``; the victim's write of the npmrc its npm
    reads is then decided with values that are not its own, and allowed."""
    sid = f"victim-{case}"
    assert _decision(served, FIRST[case](sid)) != "allowed"  # (decided: denied)
    posted = _register(served, sid)
    assert posted.status == 409 and b"late" in posted.body, (posted.status, posted.body)
    assert _write(served, sid) != "allowed"


def test_g1_held_a_readable_first_call_makes_the_id_late(served: Served) -> None:
    """The rule's own case (held): a first call the service reads, then the registration: 409
    ``late``, and the write stays denied."""
    assert "registered no environment" in _write(served, "victim-read")
    posted = _register(served, "victim-read")
    assert posted.status == 409 and b"late" in posted.body
    assert _write(served, "victim-read") != "allowed"
