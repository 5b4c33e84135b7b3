"""What skillgrant prints or writes for a runtime runs as written, from a fresh installation that
was never activated (tests/installed.py): ``hook --print-config`` for every dialect (run by the
console script and by ``python -m skillgrant``), the hook ``apply --enforce`` writes, and
``serve --print-config``'s http hook. Each command is run by ``/bin/sh -c`` verbatim, from a
folder that is not the checkout, with a ``PATH`` that holds no virtual environment — as a
runtime runs it. The serve extra's install hint is run as printed (by the fixture).

Every test here is about the fresh installation itself, so the module is marked ``slow``: it
runs with ``--slow`` (.ci/steps/30-slow.sh), where ``installed`` is one.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from installed import REPO, Installed, hook_commands, isolated_interpreter, outside_env, run_hook
from serving import transcript

DIALECTS = ("claude-code", "copilot-cli", "codex", "vscode", "gemini-cli")
pytestmark = pytest.mark.slow
SHELL_TOOL = {"claude-code": "Bash", "copilot-cli": "bash", "codex": "Bash",
              "vscode": "run_in_terminal", "gemini-cli": "run_shell_command"}


def payload(dialect: str, command: str, cwd: Path) -> dict[str, Any]:
    """A shell call as ``dialect``'s PreToolUse payload."""
    tool = SHELL_TOOL[dialect]
    if dialect == "copilot-cli":
        return {"sessionId": "s-1", "timestamp": 1767225600000, "cwd": str(cwd),
                "toolName": tool, "toolArgs": json.dumps({"command": command})}
    document: dict[str, Any] = {"session_id": "s-1", "transcript_path": "/dev/null",
                                "cwd": str(cwd), "hook_event_name": "PreToolUse",
                                "tool_name": tool, "tool_input": {"command": command}}
    if dialect == "codex":
        document |= {"turn_id": "turn-1", "model": "gpt-5-codex", "tool_use_id": "call-1"}
    elif dialect == "vscode":
        del document["hook_event_name"]
        document |= {"hookEventName": "PreToolUse", "timestamp": "2026-01-01T00:00:00Z"}
    elif dialect == "gemini-cli":
        document["hook_event_name"] = "BeforeTool"
    return document


def denial(dialect: str, stdout: str) -> str:
    """The decision a hook's answer gives, in ``dialect``'s shape."""
    document = json.loads(stdout)
    if dialect == "gemini-cli":
        return str(document["decision"])
    if dialect == "copilot-cli":
        return str(document["permissionDecision"])
    return str(document["hookSpecificOutput"]["permissionDecision"])


@pytest.fixture
def odd_plan(tmp_path: Path) -> Path:
    """A plan under a path a shell must be given quoted."""
    path = tmp_path / "my plans" / "it's $HOME `x`.yaml"
    path.parent.mkdir()
    path.write_text("allowed-tools:\n  - Bash(gh *)\n  - Read\n")
    return path


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A folder that is neither the checkout nor the environment: where the runtime is."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return folder


def printed(argv: list[str], cwd: Path) -> tuple[dict[str, Any], str]:
    done = subprocess.run(argv, cwd=cwd, env=outside_env(), capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    document: dict[str, Any] = json.loads(done.stdout)
    return document, done.stderr


def assert_gates(command: str, dialect: str, cwd: Path) -> None:
    """``command`` run as written denies a call outside the plan and passes one inside it."""
    outside = run_hook(command, payload(dialect, "gh pr list && rm -rf /tmp/x", cwd), cwd)
    assert outside.returncode == 2, outside.stderr
    assert denial(dialect, outside.stdout) == "deny", outside.stdout
    assert "not found" not in outside.stderr and "rm -rf /tmp/x" in outside.stderr
    inside = run_hook(command, payload(dialect, "gh pr list", cwd), cwd)
    # Copilot CLI runs a call on an empty object ("no decision"); it needs one JSON object on
    # stdout, on every path (issue 30). The others take an empty answer.
    no_decision = "{}\n" if dialect == "copilot-cli" else ""
    assert (inside.returncode, inside.stdout, inside.stderr) == (0, no_decision, "")


@pytest.mark.parametrize("way", ["console script", "python -m"])
@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_printed_hook_configuration_runs_as_written_outside_the_venv(
        installed: Installed, odd_plan: Path, elsewhere: Path, dialect: str, way: str) -> None:
    program = ([str(installed.skillgrant)] if way == "console script"
               else [str(installed.python), "-m", "skillgrant"])
    document, _ = printed([*program, "hook", "--print-config", dialect, "--plan",
                           str(odd_plan)], elsewhere)
    (command,) = hook_commands(document)
    words = shlex.split(command)
    assert isolated_interpreter(installed, words)  # the installation, by absolute path
    assert words[4:7] == ["hook", "--plan", str(odd_plan)]
    assert_gates(command, dialect, elsewhere)


def test_the_hook_apply_enforce_writes_runs_as_written_outside_the_venv(
        installed: Installed, odd_plan: Path, elsewhere: Path) -> None:
    import yaml

    skill = elsewhere / "skills" / "triage" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: triage\ndescription: d\nallowed-tools: Bash(gh pr *), "
                     "Bash(rm *)\n---\nbody\n")
    done = subprocess.run([str(installed.skillgrant), "apply", "--enforce", str(skill),
                           "--plan", str(odd_plan)], cwd=elsewhere, env=outside_env(),
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    front = yaml.safe_load(skill.read_text().split("---\n")[1])
    (command,) = hook_commands(front["hooks"])
    assert isolated_interpreter(installed, shlex.split(command))
    assert "added a hooks: key" in done.stderr and command in done.stderr
    assert_gates(command, "claude-code", elsewhere)


def test_the_http_hook_serve_prints_reaches_the_service(installed: Installed, odd_plan: Path,
                                                       elsewhere: Path) -> None:
    """``serve --print-config``'s http hook names no program: it is run as written when the
    runtime posts to its url, which the service started from the same installation answers;
    its SessionStart hook's command, run as written, registers the session first."""
    import socket

    with socket.socket() as probe:  # a free port, for the service and the url printed for it
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    document, _ = printed([str(installed.skillgrant), "serve", "--plan", f"p={odd_plan}",
                           "--port", port, "--print-config"], elsewhere)
    (group,) = document["hooks"]["PreToolUse"]
    (hook,) = group["hooks"]
    assert hook["type"] == "http" and hook["onFailure"] == "block"
    server = subprocess.Popen([str(installed.skillgrant), "serve", "--plan", f"p={odd_plan}",
                               "--port", port], cwd=elsewhere, env=outside_env(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # As Claude Code sends it from a session in the service's environment, started in
        # `elsewhere`: the printed headers filled, a transcript in its project folder (M-1).
        session = {**outside_env(), "PWD": str(elsewhere)}
        # The session first registers, by the printed SessionStart hook's command run as
        # written (the installation's interpreter, isolated): a session that did not has its
        # writing calls denied (service/registry.py).
        (start,) = document["hooks"]["SessionStart"][0]["hooks"]
        _registered(start["command"], session, elsewhere)
        headers = {name: re.sub(r"\$\{(\w+)\}", lambda m: session.get(m.group(1), ""), value)
                   for name, value in hook["headers"].items()}
        answers = [_post(hook["url"], {**payload("claude-code", command, elsewhere),
                                       "transcript_path": transcript(session, str(elsewhere))},
                         headers)
                   for command in ("gh pr list && rm -rf /tmp/x", "gh pr list")]
    finally:
        server.terminate()
        server.wait(timeout=60)
    assert json.loads(answers[0])["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert answers[1] == ""


def _registered(command: str, env: dict[str, str], cwd: Path) -> None:
    """Run the SessionStart hook's ``command`` with a payload of session ``s-1`` on its
    standard input, as Claude Code runs it (``/bin/sh -c``), retrying while the service
    starts."""
    import time

    for _ in range(300):
        done = subprocess.run(["/bin/sh", "-c", command], input='{"session_id": "s-1", '
                              '"hook_event_name": "SessionStart", "source": "startup"}',
                              env=env, cwd=cwd, capture_output=True, text=True, timeout=60,
                              check=False)
        if done.returncode == 0:
            return
        assert "cannot be reached" in done.stderr, done.stderr
        time.sleep(0.2)
    raise AssertionError("the service never registered the session")


def _post(url: str, body: dict[str, Any], headers: dict[str, str]) -> str:
    """POST ``body`` as Claude Code's http hook does, retrying while the service starts."""
    import time

    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **headers})
    for _ in range(300):
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return str(answer.read().decode())
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"the service never answered at {url}")


def test_the_serve_extra_hint_names_the_checkout_it_was_installed_from(
        installed: Installed) -> None:
    """The hint ``serve`` printed for a core install from a checkout installs the extra from
    that checkout, into that environment (the fixture ran it, as printed: serve ran above)."""
    words = shlex.split(installed.serve_hint)
    assert words == [str(installed.python), "-m", "pip", "install", f"{REPO}[serve]"]
    done = subprocess.run([str(installed.python), "-c", "import fastapi, uvicorn"],
                          env=outside_env(), capture_output=True, timeout=120, check=False)
    assert done.returncode == 0


def test_the_installed_package_is_not_the_checkout(installed: Installed) -> None:
    """The environment runs its own copy (not editable): what the tests above ran is what a
    newcomer's ``pip install`` gives."""
    done = subprocess.run([str(installed.python), "-c",
                           "import skillgrant, os; print(os.path.dirname(skillgrant.__file__))"],
                          cwd="/", env=outside_env(), capture_output=True, text=True,
                          timeout=120, check=True)
    location = Path(done.stdout.strip())
    assert installed.venv in location.parents and REPO not in location.parents
    assert os.access(installed.skillgrant, os.X_OK)
