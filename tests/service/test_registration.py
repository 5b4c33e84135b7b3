"""Session 50 (s50-servenpm): a session's npm variables, registered when it starts
(service/registry.py, ``POST /v1/sessions``, ``skillgrant session-start``), and the hook
decisions made with them. Through the runtime: tests/conformance/test_s50_session_start.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import Served, registering

from skillgrant.service import registry as reg
from skillgrant.service.registry import REGISTERED, Registry

UNSET = dict.fromkeys(REGISTERED)


def _with(**values: str) -> dict[str, str | None]:
    return {**UNSET, **values}


@pytest.fixture
def clean_npm(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in REGISTERED:
        monkeypatch.delenv(name, raising=False)


def test_the_first_registration_is_kept_and_other_values_deny_the_session(
        clean_npm: None) -> None:
    registry, events = Registry(), []
    registry.log = lambda event, **fields: events.append((event, fields))
    assert registry.problem("a") is not None and "registered no environment" in \
        str(registry.problem("a"))
    assert registry.register("a", UNSET, "startup")[0] == reg.REGISTERED_NEW
    assert registry.problem("a") is None
    assert registry.register("a", _with(npm_config_prefix=""), "clear")[0] == reg.SAME
    assert registry.problem("a") is None
    # another program posting the id (the model, from the Bash tool), or a session resumed
    # with other values: refused, and the session is denied from then on, whatever comes
    assert registry.register("a", _with(npm_config_userconfig="/x/npmrc"))[0] == reg.CONFLICT
    assert "two different environments" in str(registry.problem("a"))
    assert registry.register("a", UNSET)[0] == reg.CONFLICT
    assert "two different environments" in str(registry.problem("a"))
    assert [f["outcome"] for _, f in events] == ["registered", "same", "conflict", "conflict"]
    assert all("environment" not in f and "/x/npmrc" not in str(f) for _, f in events)
    for never in ("b", None, 7, ["a"]):
        assert "registered no environment" in str(registry.problem(never))


def test_a_registration_is_compared_with_the_services_own_values(
        clean_npm: None, monkeypatch: pytest.MonkeyPatch) -> None:
    registry = Registry()
    registry.register("lower", _with(npm_config_userconfig="/x/npmrc"))
    registry.register("upper", _with(NPM_CONFIG_USERCONFIG="/x/npmrc"))
    assert "the session's npm_config_userconfig differs from the service's" in \
        str(registry.problem("lower"))
    assert "NPM_CONFIG_USERCONFIG differs" in str(registry.problem("upper"))
    monkeypatch.setenv("npm_config_userconfig", "/x/npmrc")
    assert registry.problem("lower") is None
    assert "NPM_CONFIG_USERCONFIG" in str(registry.problem("upper"))
    monkeypatch.setenv("npm_config_userconfig", "")  # the service's empty value: unset
    registry.register("empty", UNSET)
    assert registry.problem("empty") is None


@pytest.mark.parametrize(("session_id", "given", "why"), [
    ("", UNSET, "session_id"),
    ("x" * (reg.MAX_ID_CHARS + 1), UNSET, "session_id"),
    ("a\nb", UNSET, "session_id"),
    (7, UNSET, "session_id"),
    ("a", {**UNSET, "npm_config_cache": None}, "at most"),
    ("a", {**UNSET, "PATH": "/bin"}, "at most"),
    ("a", {f"npm_config_prefi{'x' if n % 2 else 'X'}" * 1: None for n in range(2)}
     | {f"{c}pm_config_prefix{'_' * 0}": None for c in "nN"} | {str(n): None for n in range(70)},
     "at most"),
    ("a", [], "at most"),
    ("a", _with(npm_config_prefix="x" * (reg.MAX_VALUE_CHARS + 1)), "at most"),
    ("a", {**UNSET, "npm_config_prefix": 3}, "at most"),
])
def test_an_invalid_registration_is_refused_and_registers_nothing(
        session_id: Any, given: Any, why: str) -> None:
    registry = Registry()
    outcome, message = registry.register(session_id, given)
    assert outcome == reg.INVALID and why in message
    assert len(registry) == 0


def test_a_full_registry_refuses_new_ids_and_forgets_none(
        clean_npm: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Eviction would reopen an id to registration (anyone who knows it could register it
    again): past the bounds a new id is refused, and its calls denied."""
    monkeypatch.setattr(reg, "MAX_SESSIONS", 3)
    registry = Registry()
    for n in range(3):
        assert registry.register(f"s{n}", UNSET)[0] == reg.REGISTERED_NEW
    assert registry.register("late", UNSET)[0] == reg.FULL
    assert "registered no environment" in str(registry.problem("late"))
    assert registry.register("s0", UNSET)[0] == reg.SAME  # the kept ones still answer
    assert all(registry.problem(f"s{n}") is None for n in range(3))
    monkeypatch.setattr(reg, "MAX_SESSIONS", 100)
    monkeypatch.setattr(reg, "MAX_KEPT_CHARS", 30)  # (names and values)
    assert registry.register("long", _with(npm_config_prefix="/" * 20))[0] == reg.FULL
    assert registry.register("short", _with(npm_config_prefix="/a"))[0] == reg.REGISTERED_NEW
    assert registry.register("shared", _with(npm_config_prefix="/a"))[0] == \
        reg.REGISTERED_NEW  # the same values are kept once
    assert len(registry) == 5


# --- over HTTP --------------------------------------------------------------------------

TOKEN_ENV = "SG_S50_TOKEN"
TOKEN = "s50-token-0123456789"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with registering(tmp_path_factory.mktemp("s50"), TOKEN_ENV, TOKEN) as service:
        yield service


AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _payload(session_id: str, tool: str = "Bash", **given: str) -> dict[str, Any]:
    return {"session_id": session_id, "cwd": "/srv/project", "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": given or {"command": "touch x"}}


def _decision(served: Served, session_id: str, register: bool = False, tool: str = "Bash",
              **given: str) -> str:
    reply = served.post("/v1/hook/p", _payload(session_id, tool, **given), headers=AUTH,
                        register=register)
    assert reply.status == 200
    return json.loads(reply.body)["hookSpecificOutput"]["permissionDecisionReason"] \
        if reply.body else "allowed"


def _register(served: Served, session_id: str, given: Any, **headers: str) -> Any:
    body = {"session_id": session_id, "source": "startup", "environment": given}
    return served.request("POST", "/v1/sessions", body, headers={**AUTH, **headers})


def test_the_endpoint_registers_once_and_the_hook_decides_with_it(served: Served) -> None:
    assert "registered no environment" in _decision(served, "h0")
    late = _register(served, "h0", UNSET)  # (after a call of it: s51-gfix3, s50-sreview F2)
    assert late.status == 409 and late.json()["error"]["code"] == "late"
    assert "registered no environment" in _decision(served, "h0")
    first = _register(served, "h1", UNSET)
    assert (first.status, first.json()) == (200, {"session_id": "h1", "outcome": "registered"})
    assert _decision(served, "h1") == "allowed"
    again = _register(served, "h1", UNSET)
    assert (again.status, again.json()["outcome"]) == (200, "same")
    other = _register(served, "h1", _with(npm_config_userconfig="/tmp/npmrc"))
    assert other.status == 409 and other.json()["error"]["code"] == "conflict"
    assert "two different environments" in _decision(served, "h1")
    events = [e for e in served.events() if e.get("event") == "session"]
    assert [(e["session_id"], e["outcome"]) for e in events if e["session_id"] == "h1"] == \
        [("h1", "registered"), ("h1", "same"), ("h1", "conflict")]
    assert "/tmp/npmrc" not in served.errors.read_text()  # values are never logged


def test_the_endpoint_is_guarded_as_every_request(served: Served) -> None:
    body = {"session_id": "g1", "environment": UNSET}
    no_token = served.request("POST", "/v1/sessions", body)
    assert no_token.status == 401
    as_text = served.request("POST", "/v1/sessions", json.dumps(body).encode(),
                             headers={**AUTH, "Content-Type": "text/plain"})
    assert as_text.status == 415
    invalid = _register(served, "g1", {"npm_config_cache": None})
    assert invalid.status == 422 and invalid.json()["error"]["code"] == "invalid"
    extra = served.request("POST", "/v1/sessions", {**body, "more": 1}, headers=AUTH)
    assert extra.status == 422
    assert "registered no environment" in _decision(served, "g1")


def _session_start(served: Served, session_id: str, **env: str) -> subprocess.CompletedProcess[
        str]:
    return subprocess.run(
        [sys.executable, "-I", "-c", "from skillgrant.cli.entry import main; main()",
         "session-start", f"{served.url}/v1/sessions", "--token-env", TOKEN_ENV],
        input=json.dumps({"session_id": session_id, "hook_event_name": "SessionStart",
                          "source": "startup"}), capture_output=True, text=True, timeout=60,
        env={**{k: v for k, v in os.environ.items() if k not in REGISTERED},
             TOKEN_ENV: TOKEN, "http_proxy": "http://127.0.0.1:9", **env})


def test_the_session_start_command_registers_the_environment_it_runs_in(
        served: Served) -> None:
    """The command the printed SessionStart hook runs: its own environment's npm variables
    (a proxy in the environment is not used: the service is local)."""
    done = _session_start(served, "c1")
    assert done.returncode == 0, done.stderr
    assert _decision(served, "c1") == "allowed"
    lower = _session_start(served, "c2", npm_config_userconfig="/tmp/c2/npmrc")
    assert lower.returncode == 0, lower.stderr
    assert "npm_config_userconfig differs from the service's" in _decision(served, "c2")
    changed = _session_start(served, "c1", npm_config_prefix="/tmp/elsewhere")
    assert changed.returncode == 2
    assert "refused the registration (409)" in changed.stderr
    assert "two different environments" in _decision(served, "c1")
    nothing = subprocess.run([sys.executable, "-m", "skillgrant", "session-start",
                              f"{served.url}/v1/sessions"], input="{}", capture_output=True,
                             text=True, timeout=60)
    assert nothing.returncode == 2 and "no session_id" in nothing.stderr


def test_print_config_prints_the_session_start_hook(tmp_path: Path) -> None:
    plan = tmp_path / "gate.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(echo *)"]}))
    done = subprocess.run([sys.executable, "-P", "-m", "skillgrant", "serve", "--plan", str(plan),
                           "--port", "9123", "--token-env", TOKEN_ENV, "--print-config"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, TOKEN_ENV: TOKEN})
    assert done.returncode == 0, done.stderr
    hooks = json.loads(done.stdout)["hooks"]
    (entry,) = hooks["SessionStart"]
    (hook,) = entry["hooks"]
    assert "matcher" not in entry  # startup, resume, clear and compact alike
    assert hook["type"] == "command" and hook["timeout"] == 30
    assert hook["command"].endswith(
        f"session-start http://127.0.0.1:9123/v1/sessions --token-env {TOKEN_ENV}")
    assert hook["command"].startswith(f"{os.path.abspath(sys.executable)} -I -c ")
    assert "SessionStart hook registers" in done.stderr


@pytest.mark.parametrize(("tool", "given"), [
    ("Read", {"file_path": "/srv/project/notes.txt"}),
    ("Glob", {"pattern": "*.md", "path": "/srv/project"}),
    ("Grep", {"pattern": "x", "path": "/srv/project"}),
    ("view", {"path": "/srv/project/notes.txt"}),  # (Copilot CLI's name)
])
def test_a_session_that_never_registered_has_its_reads_decided_as_before(
        served: Served, tool: str, given: dict[str, str]) -> None:
    """The lead's narrowing (a service restarted, a session started before it): the npm
    variables guard only what a call writes (``judge.path_part`` checks the guarded set for
    writing tools alone), so a read is decided without them; every call that may write is
    denied, naming the registration."""
    assert _decision(served, f"r-{tool}", register=False, tool=tool, **given) == "allowed"
    outside = _decision(served, f"r-{tool}", register=False, tool=tool,
                        **{k: v.replace("/srv", "/etc") for k, v in given.items()})
    assert "registered no environment" not in outside and outside != "allowed"


@pytest.mark.parametrize(("tool", "given"), [
    ("Write", {"file_path": "/srv/project/npmrc", "content": "x"}),
    ("Edit", {"file_path": "/srv/project/npmrc", "old_string": "a", "new_string": "b"}),
    ("Bash", {"command": "touch x"}),
    ("NotebookEdit", {"notebook_path": "/srv/project/n.ipynb", "new_source": "x"}),
])
def test_a_session_that_never_registered_has_every_call_that_may_write_denied(
        served: Served, tool: str, given: dict[str, str]) -> None:
    denied = _decision(served, f"w-{tool}", register=False, tool=tool, **given)
    assert "registered no environment" in denied


def test_a_conflicting_session_has_its_reads_decided_as_before(served: Served) -> None:
    assert _register(served, "rc", UNSET).status == 200
    assert _register(served, "rc", _with(npm_config_prefix="/p")).status == 409
    assert _decision(served, "rc", tool="Read", file_path="/srv/project/notes.txt") == \
        "allowed"
    assert "two different environments" in _decision(served, "rc")


def test_the_npm_variables_guard_writes_under_a_plan_that_runs_no_npm(tmp_path: Path) -> None:
    """Why an unregistered session's writing calls are denied under every plan (the lead's
    question, 21:22): the `skillgrant hook` command, in a session naming its npm user config
    in lower case, denies a write of that file under a plan that runs no npm program
    (guards.guarded_items adds homefiles.npm_global unconditionally); without the variable,
    the same write is allowed. So the service cannot decide it without the session's value."""
    npmrc = tmp_path / "npmrc"
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{tmp_path}/**)"]}))
    call = json.dumps({"session_id": "n", "cwd": str(tmp_path), "hook_event_name": "PreToolUse",
                       "tool_name": "Write", "tool_input": {"file_path": str(npmrc),
                                                            "content": "x"}})
    base = {k: v for k, v in os.environ.items() if k not in REGISTERED}

    def hook(**env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-P", "-m", "skillgrant",
                               "hook", "--plan", str(plan)],
                              input=call, capture_output=True, text=True, timeout=60,
                              env={**base, **env})

    assert hook().stdout == ""
    denied = hook(npm_config_userconfig=str(npmrc))
    assert denied.returncode == 2 and "deny" in denied.stdout, denied.stdout
