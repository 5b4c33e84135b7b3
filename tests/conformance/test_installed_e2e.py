"""A newcomer's wiring end to end: a fresh installation that was never activated
(tests/installed.py), the configuration it prints taken verbatim, and the pinned Claude Code
started with a ``PATH`` that holds no virtual environment.

- ``hook --print-config claude-code``: the printed PreToolUse entry as the project's settings.
- ``apply --enforce``: the skill the installed ``skillgrant`` rewrote, hook and all.
- ``serve --print-config``: the printed http hook and SessionStart hook, the service started
  from the installation.

In each, the calls inside the plan run and the calls outside it are denied by the gate, with
the gate's reason, as in test_gate_e2e.py (which runs the gate with the test interpreter).
"""

from __future__ import annotations

import json
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml
from cc_probe import TALLY, Judge
from cc_runtime import SKILL_NAME, run_session, session_tmp
from gate_sessions import CALLS, PLAN, WIDE, denied_by_gate, session, wrong_decisions
from installed import OUTSIDE_PATH, Installed, hook_commands, isolated_interpreter, outside_env

from skillgrant.gate.environment import COMPARED

#: The runtime's environment: no virtual environment on its PATH.
RUNTIME_ENV = {"PATH": OUTSIDE_PATH}


def _printed(argv: list[str]) -> dict[str, Any]:
    done = subprocess.run(argv, env=outside_env(), capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    document: dict[str, Any] = json.loads(done.stdout)
    return document


def _entry(document: dict[str, Any]) -> dict[str, Any]:
    (group,) = document["hooks"]["PreToolUse"]
    assert group["matcher"] == "*"
    (entry,) = group["hooks"]
    assert entry["onFailure"] == "block"
    return dict(entry)


def test_the_printed_settings_hook_gates_claude_code_without_the_venv(
        judge: Judge, installed: Installed) -> None:
    def printed_hook(work: Path, plan: Path) -> dict[str, Any]:
        return _entry(_printed([str(installed.skillgrant), "hook", "--print-config",
                                "claude-code", "--plan", str(plan)]))

    gated = session(judge, CALLS, hook=printed_hook, plan_text=PLAN, env=RUNTIME_ENV)
    wrong = wrong_decisions(gated, "gate")
    assert not wrong, "\n".join(wrong)
    assert any(not c.inside and denied_by_gate(r) for c, r in gated.results.items())
    TALLY["installed gate calls"] = TALLY.get("installed gate calls", 0) + len(gated.results)


def test_the_hook_apply_enforce_wrote_gates_claude_code_without_the_venv(
        judge: Judge, installed: Installed) -> None:
    work = Path(tempfile.mkdtemp(prefix="sg-installed-", dir="/var/tmp"))
    try:
        plan = work / "plan.yaml"
        plan.write_text("allowed-tools: [Bash(touch in*)]\n")
        skill = work / "draft" / "SKILL.md"
        skill.parent.mkdir()
        skill.write_text("---\nname: probe\ndescription: probe\n"
                         "allowed-tools: Bash(touch *), Bash(rm *)\n---\nprobe\n")
        done = subprocess.run([str(installed.skillgrant), "apply", "--enforce", str(skill),
                               "--plan", str(plan)], env=outside_env(), capture_output=True,
                              text=True, timeout=120, check=False)
        assert done.returncode == 0 and "added a hooks: key" in done.stderr, done.stderr
        # The hook apply wrote starts the installation's own interpreter, isolated (-I).
        (command,) = hook_commands(yaml.safe_load(skill.read_text().split("---\n")[1])["hooks"])
        assert isolated_interpreter(installed, shlex.split(command)), command
        (work / "project").mkdir()
        (work / "project" / "victim").write_text("keep me\n")
        script = [("Skill", {"skill": SKILL_NAME}),
                  ("Bash", {"command": "touch in1", "description": "probe"}),
                  ("Bash", {"command": "touch out1", "description": "probe"}),
                  ("Bash", {"command": "rm -f victim", "description": "probe"})]
        url, probe = judge.standin.session(script)
        run_session(judge.binary, url, work, skill.read_text(), extra_args=WIDE,
                    env=RUNTIME_ENV)
        results = [probe.results.get(probe.call_id(i)) for i in range(len(script))]
        assert all(r is not None for r in results), results
        loaded, inside, touched, removed = (r for r in results if r is not None)
        assert not loaded[0] and not inside[0], results
        assert denied_by_gate(touched) and denied_by_gate(removed), results
        assert (work / "project" / "in1").exists() and not (work / "project" / "out1").exists()
        assert (work / "project" / "victim").exists()
        TALLY["installed enforce calls"] = TALLY.get("installed enforce calls", 0) + len(script)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for(port: int, server: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        assert server.poll() is None, "the service stopped"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the service never listened")


def test_the_printed_http_hook_gates_claude_code_through_the_installed_service(
        judge: Judge, installed: Installed) -> None:
    servers: list[subprocess.Popen[bytes]] = []

    def printed_http_hook(work: Path, plan: Path) -> dict[str, Any]:
        port = str(_free_port())
        spec = f"gate={plan}"
        printed = _printed([str(installed.skillgrant), "serve", "--plan", spec, "--port",
                            port, "--print-config"])
        entry = _entry(printed)
        # and the SessionStart hook registering the session's npm variables, as printed
        (group,) = printed["hooks"]["SessionStart"]
        (start,) = group["hooks"]
        assert isolated_interpreter(installed, shlex.split(start["command"])), start
        printed_http_hook.session_start = start  # type: ignore[attr-defined]
        # from the session's environment (review M-1): its PATH and HOME, none of the other
        # variables the gate reads that the session does not have
        session_env = {name: "" for name in COMPARED if name not in ("PATH", "HOME")}
        session_env["TMPDIR"] = str(session_tmp(work))  # (the session's: cc_runtime)
        server = subprocess.Popen([str(installed.skillgrant), "serve", "--plan", spec,
                                   "--port", port],
                                  env=outside_env(HOME=str(work / "home"), **session_env),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        servers.append(server)
        _wait_for(int(port), server)
        return entry

    try:
        gated = session(judge, CALLS, hook=printed_http_hook, plan_text=PLAN, env=RUNTIME_ENV)
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=60)
    wrong = wrong_decisions(gated, "service")
    assert not wrong, "\n".join(wrong)
    TALLY["installed service calls"] = TALLY.get("installed service calls", 0) + len(
        gated.results)


def test_a_bare_skillgrant_command_is_not_found_and_every_call_is_blocked(
        judge: Judge, installed: Installed) -> None:
    """Why the printed command names the installation: the runtime runs a hook's command with
    ``/bin/sh`` and its own ``PATH``, where the console script of an environment that is not
    activated is not found; with ``onFailure: "block"`` every call is then blocked, the calls
    inside the plan too (issue 31, measured)."""
    calls = [c for c in CALLS if c.inside][:2]

    def bare_hook(work: Path, plan: Path) -> dict[str, Any]:
        return {"type": "command", "command": f"skillgrant hook --plan {plan}", "timeout": 30,
                "onFailure": "block"}

    bare = session(judge, calls, hook=bare_hook, plan_text=PLAN, env=RUNTIME_ENV)
    assert all(r[0] and "not found" in r[1] for r in bare.results.values()), bare.results
    assert not any(c.leaves in bare.files for c in calls if c.leaves), bare.files
