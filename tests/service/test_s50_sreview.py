"""Session-50 review of s50-servenpm's session registration (service/registry.py,
``POST /v1/sessions``, ``skillgrant session-start``). A test that fails here is a hole left
open (report: /work/wt/reports/s50-sreview-report.md): strict xfails through ``OPEN``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from review_table import LeftOpen
from serving import Served, registering, start

from skillgrant.gate.homefiles import npm_global
from skillgrant.service.registry import REGISTERED

#: A real service (seconds each): CI's slow step runs them.
pytestmark = [pytest.mark.slow]

OPEN = LeftOpen()
_open = OPEN.add

TOKEN_ENV = "SG_S50R_TOKEN"
TOKEN = "s50r-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
UNSET = dict.fromkeys(REGISTERED)
NPMRC = "/srv/project/npmrc"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with registering(tmp_path_factory.mktemp("s50r"), TOKEN_ENV, TOKEN) as service:
        yield service


def _decision(served: Served, session_id: str, tool: str, **given: str) -> str:
    payload = {"session_id": session_id, "cwd": "/srv/project",
               "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": given}
    reply = served.post("/v1/hook/p", payload, headers=AUTH, register=False)
    assert reply.status == 200
    return json.loads(reply.body)["hookSpecificOutput"]["permissionDecisionReason"] \
        if reply.body else "allowed"


def _write(served: Served, session_id: str, path: str = NPMRC) -> str:
    return _decision(served, session_id, "Write", file_path=path, content="registry=x")


def _session_start(served: Served, session_id: str, **env: str) -> subprocess.CompletedProcess[
        str]:
    """The printed SessionStart hook's command, in a session environment ``env``."""
    return subprocess.run(
        [sys.executable, "-I", "-c", "from skillgrant.cli.entry import main; main()",
         "session-start", f"{served.url}/v1/sessions", "--token-env", TOKEN_ENV],
        input=json.dumps({"session_id": session_id, "hook_event_name": "SessionStart",
                          "source": "startup"}), capture_output=True, text=True, timeout=60,
        env={**{k: v for k, v in os.environ.items() if k.lower() not in
                {n.lower() for n in REGISTERED}}, TOKEN_ENV: TOKEN, **env})


def _register(served: Served, session_id: str, given: Any) -> Any:
    body = {"session_id": session_id, "source": "startup", "environment": given}
    return served.request("POST", "/v1/sessions", body, headers=AUTH)


# --- F1: npm reads npm_config_* in any case; the registration carries two spellings ----------

# (closed in s50-servenpm: the registration carries every spelling, registry.carried)


@pytest.mark.parametrize(("name", "target"), [
    ("Npm_Config_Userconfig", NPMRC),
    ("nPm_CoNfIg_PrEfIx", "/srv/project/prefix/etc/npmrc"),
    ("Npm_config_globalconfig", NPMRC),
], ids=["Npm_Config_Userconfig", "nPm_CoNfIg_PrEfIx", "Npm_config_globalconfig"])
def test_a_mixed_case_npm_variable_reaches_the_decision(
        served: Served, name: str, target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A session whose environment names npm's user/global config or prefix in a case other
    than the two registered ones: `skillgrant hook` (the command) guards the file npm reads
    (npm_global lowers every name), the service must deny a write of it too."""
    value = target if not name.lower().endswith("prefix") else "/srv/project/prefix"
    for n in list(os.environ):
        if n.lower().startswith("npm_config_"):
            monkeypatch.delenv(n)
    monkeypatch.setenv(name, value)
    assert (target, False) in npm_global(str(Path.home())) or \
        ("/srv/project/prefix/etc", True) in npm_global(str(Path.home()))  # the gate reads it
    session = f"mixed-{name}"
    done = _session_start(served, session, **{name: value})
    assert done.returncode == 0, done.stderr
    assert _decision(served, session, "Read", file_path="/srv/project/notes") == "allowed"
    assert _write(served, session, target) != "allowed"


# --- F2: anyone who reaches the port registers an id that has not registered yet ------------

# (closed in s51-gfix3: an id the service decided a call of is never registered afterwards;
# a restart forgets that: tests/service/test_s51_gfix3_registration.py's OPEN row)


def test_a_session_is_registered_only_by_its_own_session_start(served: Served) -> None:
    """Session ``victim`` runs with npm_config_userconfig=NPMRC (its SessionStart hook failed:
    the service was down, or restarted since); session ``other`` (registered, its model runs
    curl from the Bash tool, having read the victim's id from ~/.claude/projects) posts the
    victim's id with the service's values."""
    assert "registered no environment" in _write(served, "victim")
    assert _session_start(served, "other").returncode == 0
    # what `curl -d ... $URL/v1/sessions` from the other session's Bash tool sends: refused,
    # as a call of the victim was decided before (s51-gfix3)
    posted = _register(served, "victim", UNSET)
    assert posted.status == 409 and b"late" in posted.body
    # and the victim's write of the npmrc its npm reads is still not decided without it:
    assert _write(served, "victim") != "allowed"


# --- F3: npm's global prefix from PREFIX / DESTDIR: neither compared nor registered -----------

# (closed in s50-servenpm: PREFIX and DESTDIR are registered and compared)


@pytest.mark.parametrize(("name", "target"), [
    ("PREFIX", "/srv/project/tools/etc/npmrc"),
    ("DESTDIR", "/srv/project/tools/usr/etc/npmrc"),
], ids=["PREFIX", "DESTDIR"])
def test_a_prefix_npm_reads_is_known_to_the_service(
        served: Served, name: str, target: str) -> None:
    session = f"prefix-{name}"
    done = _session_start(served, session, **{name: "/srv/project/tools"})
    assert done.returncode == 0, done.stderr
    # the service decides with its own environment: a session whose PREFIX differs has its
    # writing calls denied, naming it (s50-servenpm), its reads decided as before
    assert f"{name} differs" in _write(served, session, "/srv/project/tools/a.txt")
    assert _write(served, session, target) != "allowed"
    assert _decision(served, session, "Read", file_path="/srv/project/notes") == "allowed"


# --- held: what a registration cannot change ------------------------------------------------


def test_a_registration_cannot_be_widened_by_its_spelling(served: Served) -> None:
    """A key in another case is refused (422, nothing kept); an id in another Unicode form or
    case is another id (never the session's); duplicate keys in the body: the poster's own
    values, then a conflict, never a second registration."""
    assert _session_start(served, "held-a").returncode == 0
    # (s50-servenpm: a name in any case is carried, as npm reads it; another name is not)
    cased = {**{k: v for k, v in UNSET.items() if k != "npm_config_userconfig"},
             "Npm_Config_Userconfig": NPMRC}
    assert _register(served, "held-b", cased).status == 200
    assert "Npm_Config_Userconfig differs" in _write(served, "held-b")
    assert _register(served, "held-d", {**UNSET, "npm_config_cache": None}).status == 422
    assert "registered no environment" in _write(served, "held-d")
    for other in ("HELD-A", "held\u2010a", "held-a "):
        assert _register(served, other, UNSET).status == 200
    assert _write(served, "held-a") == "allowed"
    names = list(UNSET)
    body = ('{"session_id": "held-a", "session_id": "held-c", "environment": {'
            + ", ".join(f'"{n}": null' for n in names)
            + ', "npm_config_userconfig": "/srv/project/npmrc"}}')
    reply = served.request("POST", "/v1/sessions", body.encode(), headers=AUTH)
    assert reply.status == 200 and reply.json()["session_id"] == "held-c"
    assert "npm_config_userconfig differs" in _write(served, "held-c")
    assert _write(served, "held-a") == "allowed"


# (closed in s50-servenpm: session-start reads sessionId too)


def test_the_session_start_command_reads_a_copilot_payloads_session_id(
        served: Served) -> None:
    """The service reads ``sessionId`` (Copilot CLI's payloads) to decide; the command that
    registers reads ``session_id`` only."""
    done = subprocess.run(
        [sys.executable, "-I", "-c", "from skillgrant.cli.entry import main; main()",
         "session-start", f"{served.url}/v1/sessions", "--token-env", TOKEN_ENV],
        input=json.dumps({"sessionId": "copilot-1", "timestamp": 1, "cwd": "/srv/project"}),
        capture_output=True, text=True, timeout=60, env={**os.environ, TOKEN_ENV: TOKEN,
                                                         **dict.fromkeys(REGISTERED, "")})
    assert done.returncode == 0, done.stderr


def test_a_relative_npm_value_equal_to_the_services_guards_the_calls_folder(
        tmp_path: Path) -> None:
    """The service (started in /tmp) and the session share ``npm_config_userconfig=ci.npmrc``
    (relative: npm reads it from the command's folder): equal values, so the call is decided
    with the service's; the npmrc of the session's folder stays guarded (held)."""
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(touch *)", "Edit(//srv/**)"]}))
    relative = {"npm_config_userconfig": "ci.npmrc", "NPM_CONFIG_USERCONFIG": "ci.npmrc"}
    env = {name: "" for name in REGISTERED} | {TOKEN_ENV: TOKEN} | relative
    with start([f"p={plan}"], "--token-env", TOKEN_ENV, env=env, cwd="/tmp") as service:
        assert _session_start(service, "rel", **relative).returncode == 0
        assert _write(service, "rel", "/srv/project/other") == "allowed"
        assert _write(service, "rel", "/srv/project/ci.npmrc") != "allowed"
        assert _decision(service, "rel", "Bash", command="touch ci.npmrc") != "allowed"
