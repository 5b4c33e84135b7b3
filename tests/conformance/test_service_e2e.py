"""The grant service end to end: ``skillgrant serve`` answering the pinned Claude Code's
``http`` PreToolUse hook, with the scripted calls of the command hook's test
(gate_sessions.py) and the same expectations: the calls inside the plan run, the calls outside
it are denied by the gate with no effect on disk.

It also measures what the runtime does when the service is not there, which is why
``serve --print-config`` writes ``onFailure: "block"``: with it every call is blocked; without
it the runtime lets the calls through.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any

import pytest
from cc_probe import TALLY, Judge
from cc_runtime import session_tmp
from gate_sessions import CALLS, PLAN, denied_by_gate, session, wrong_decisions
from serving import Served, start

from skillgrant.gate.environment import COMPARED
from skillgrant.gate.homefiles import STATE, STATE_VARIABLE
from skillgrant.service.config import http_hook, session_start_hook

TOKEN_ENV = "SKILLGRANT_E2E_TOKEN"
TOKEN = "e2e-token-0123456789abcdef"


class ServiceHook:
    """Starts the service for the session's plan and gives the http hook entry posting to it
    (the entry ``serve --print-config`` prints)."""

    def __init__(self, *, token: bool = False) -> None:
        self.token = token
        self.served: Served | None = None
        self.session_start: dict[str, Any] | None = None

    def __call__(self, work: Path, plan: Path) -> dict[str, Any]:
        options = ["--audit-log", str(work / "audit.jsonl")]
        # Started from the session's environment (review M-1): its HOME, and none of the
        # other variables the gate reads that the session does not have.
        env = {name: "" for name in COMPARED if name not in ("PATH", "HOME")}
        env["HOME"] = str(work / "home")
        env["TMPDIR"] = str(session_tmp(work))
        env[STATE_VARIABLE] = str(work / "home" / STATE)  # (its sessions file: never the runner's)
        if self.token:
            options += ["--token-env", TOKEN_ENV]
            env[TOKEN_ENV] = TOKEN
        self.served = start([f"gate={plan}"], *options, env=env)
        # the SessionStart hook registering the session's npm variables (registry.py)
        self.session_start = session_start_hook(self.served.url,
                                                TOKEN_ENV if self.token else None)
        return http_hook(f"{self.served.url}/v1/hook/gate", TOKEN_ENV if self.token else None)

    def stop(self) -> list[dict[str, Any]]:
        assert self.served is not None
        assert self.served.stop() == 0, self.served.errors.read_text()[-2000:]
        return self.served.events()


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("token", [False, True], ids=["loopback", "token"])
def test_the_http_hook_gives_the_command_hooks_decisions(judge: Judge, token: bool) -> None:
    hook = ServiceHook(token=token)
    try:
        gated = session(judge, CALLS, hook=hook, plan_text=PLAN,
                        env={TOKEN_ENV: TOKEN} if token else None)
    finally:
        events = hook.stop() if hook.served is not None else []
    wrong = wrong_decisions(gated, "service")
    assert not wrong, "\n".join(wrong)
    hooks = [e for e in events if e.get("event") == "request"
             and str(e.get("path", "")).startswith("/v1/hook/")]
    # Every call reached the service (the Skill call aside, none is scripted) and none was
    # refused at the door: the token and the Host header Claude Code sends are accepted.
    assert len(hooks) >= len(CALLS) - 1, hooks
    assert all(e["status"] == 200 and e["refused"] is None for e in hooks), hooks
    TALLY["service hook calls"] = TALLY.get("service hook calls", 0) + len(hooks)
    TALLY["service denials"] = TALLY.get("service denials", 0) + sum(
        denied_by_gate(r) for r in gated.results.values())


def test_a_service_that_is_down_blocks_every_call(judge: Judge) -> None:
    """``onFailure: "block"``: the connection is refused, and every call is denied, the ones
    inside the plan too."""
    url = f"http://127.0.0.1:{_closed_port()}/v1/hook/gate"
    calls = [c for c in CALLS if c.inside][:3]
    down = session(judge, calls, hook=lambda work, plan: http_hook(url, None),
                   plan_text=PLAN)
    assert all(r[0] for r in down.results.values()), down.results
    assert not any(c.leaves in down.files for c in calls if c.leaves), down.files
    TALLY["service down denials"] = TALLY.get("service down denials", 0) + len(calls)


def test_without_on_failure_block_a_service_that_is_down_lets_calls_through(
        judge: Judge) -> None:
    """The runtime's own rule, measured: an http hook that cannot connect is a non-blocking
    error. This is why the printed hook always carries ``onFailure: "block"``."""
    url = f"http://127.0.0.1:{_closed_port()}/v1/hook/gate"
    calls = [c for c in CALLS if c.inside][:2]

    def open_hook(work: Path, plan: Path) -> dict[str, Any]:
        entry = http_hook(url, None)
        del entry["onFailure"]
        return entry

    down = session(judge, calls, hook=open_hook, plan_text=PLAN)
    assert not any(r[0] for r in down.results.values()), down.results
    assert all(c.leaves in down.files for c in calls if c.leaves), down.files


def test_a_session_in_another_environment_than_the_service_is_denied_every_call(
        judge: Judge) -> None:
    """Review M-1, through the runtime: the session's PATH (filled by Claude Code into the
    printed hook's headers) is not the service's, so the service cannot know which folders a
    program's name is looked up in: every call is denied, those inside the plan too, and says
    why."""
    calls = [c for c in CALLS if c.inside][:3]
    hook = ServiceHook()
    try:
        other = session(judge, calls, hook=hook, plan_text=PLAN,
                        env={"PATH": "/opt/session-only/bin:" + os.environ.get("PATH", "")})
    finally:
        hook.stop()
    assert all(denied_by_gate(r) and "PATH differs from the service's" in r[1]
               for r in other.results.values()), other.results
    assert not any(c.leaves in other.files for c in calls if c.leaves), other.files
