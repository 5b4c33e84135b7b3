"""The hook's failure path cannot fail (review K-2), and a lone surrogate is a named denial,
not an internal error (review K-0).

A hook that raises prints a traceback and exits 1, which Claude Code reads as a non-blocking
error: the call runs. So each test breaks something the hook uses — ``re.compile``, the audit
sink, the JSON writer — in a real hook process and checks that the call is still denied in the
dialect's contract: the deny JSON on standard output, the reason on standard error, exit 2.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

#: Runs the hook's ``main`` after ``sys.argv[1]`` (Python source) has broken something, with the
#: rest of the command line as the hook's.
BROKEN = """
import sys
import skillgrant.gate.hook as hook
exec(sys.argv[1])
sys.exit(hook.main(sys.argv[2:]))
"""

PAYLOAD = {"session_id": "s", "cwd": "/repo", "hook_event_name": "PreToolUse",
           "tool_name": "Bash", "tool_input": {"command": "git status"}}


@pytest.fixture
def plan(tmp_path: Path) -> Path:
    path = tmp_path / "plan.json"
    path.write_text(json.dumps({"allowed-tools": ["Bash(git *)", "Read(//repo/**)"]}))
    return path


def _broken_hook(breakage: str, *args: str, payload: object = PAYLOAD
                 ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-I", "-c", BROKEN, breakage, *args],
                          input=json.dumps(payload), capture_output=True, text=True,
                          timeout=60, check=False)


def _denied(done: subprocess.CompletedProcess[str], shape: str = "claude-code") -> str:
    """The reason of a denial in the dialect's contract; fails the test otherwise."""
    assert done.returncode == 2, (done.returncode, done.stderr[-800:])
    assert "Traceback" not in done.stderr, done.stderr[-800:]
    body = json.loads(done.stdout)
    if shape == "copilot-cli":
        decision, reason = body["permissionDecision"], body["permissionDecisionReason"]
    else:
        answer = body["hookSpecificOutput"]
        decision, reason = answer["permissionDecision"], answer["permissionDecisionReason"]
    assert decision == "deny", body
    assert done.stderr.strip(), "no reason on standard error"
    return str(reason)


def test_the_control_call_is_allowed(plan: Path) -> None:
    """The breakages below are what turn this allowed call into a denial."""
    done = _broken_hook("pass", "--plan", str(plan))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_a_regex_that_cannot_compile_denies(plan: Path) -> None:
    """Every pattern compiled after the hook module loaded fails (a pattern compiled on use
    among them): deciding fails, and the failure's answer, which compiles nothing, denies."""
    breakage = ("import re\n"
                "def boom(*a, **k): raise RuntimeError('no regex today')\n"
                "re.compile = boom; re._compile = boom")
    reason = _denied(_broken_hook(breakage, "--plan", str(plan)))
    assert "failed closed" in reason and "RuntimeError" in reason, reason


def test_a_regex_that_cannot_compile_denies_a_payload_with_a_lone_surrogate(plan: Path) -> None:
    """The same, with a lone surrogate in the reason (the failure path replaces it, without a
    regex), in the Copilot CLI dialect."""
    breakage = ("import re\n"
                "def boom(*a, **k): raise RuntimeError('no regex \\ud800 today')\n"
                "re.compile = boom; re._compile = boom")
    payload = {"toolName": "bash", "toolArgs": json.dumps({"command": "git status"}),
               "cwd": "/repo"}
    done = _broken_hook(breakage, "--plan", str(plan), "--dialect", "copilot-cli",
                        payload=payload)
    reason = _denied(done, "copilot-cli")
    assert "\ufffd" in reason and "\\ud800" not in done.stdout, done.stdout


def test_an_audit_sink_that_raises_anything_denies(plan: Path, tmp_path: Path) -> None:
    """An audit log whose writer raises something other than OSError: the decision's record
    fails, then the failure's record fails too, and the call is still denied."""
    breakage = ("import skillgrant.gate.audit as audit\n"
                "def boom(*a, **k): raise RuntimeError('the disk ate it')\n"
                "audit.append = boom")
    done = _broken_hook(breakage, "--plan", str(plan), "--audit-log", str(tmp_path / "a.jsonl"))
    reason = _denied(done)
    assert "RuntimeError" in reason and "the disk ate it" in reason, reason


def test_an_audit_log_that_cannot_be_written_denies(plan: Path, tmp_path: Path) -> None:
    reason = _denied(_broken_hook("pass", "--plan", str(plan), "--audit-log", str(tmp_path)))
    assert "the audit log cannot be written" in reason, reason


def test_an_answer_that_cannot_be_composed_is_the_fixed_denial(plan: Path) -> None:
    """The JSON writer itself fails, for the decision and for the failure: the hook prints its
    fixed denial."""
    breakage = ("import skillgrant.gate.hook as h\n"
                "def boom(*a, **k): raise RuntimeError('no JSON today')\n"
                "h.render = boom")
    reason = _denied(_broken_hook(breakage, "--plan", str(plan), "--inside", "allow"))
    assert reason == ("skillgrant hook failed closed, so the call is denied: its answer could "
                      "not be composed"), reason


def test_an_error_whose_message_raises_still_denies(plan: Path) -> None:
    breakage = ("import skillgrant.gate.hook as h\n"
                "class Odd(Exception):\n"
                "    def __str__(self): raise ValueError('no words')\n"
                "def boom(*a, **k): raise Odd()\n"
                "h._judge = boom")
    reason = _denied(_broken_hook(breakage, "--plan", str(plan)))
    assert reason.endswith("internal error (Odd)"), reason


def _hook(plan: Path, payload: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-I", "-m", "skillgrant", "hook", "--plan", str(plan)],
                          input=json.dumps(payload), capture_output=True, text=True,
                          timeout=60, check=False)


@pytest.mark.parametrize(("tool", "tool_input"), [
    ("Read", {"file_path": "/repo/a\ud800"}),
    ("Read", {"file_path": "/repo/\udbff\udbffb"}),
    ("Edit", {"file_path": "/repo/out/\ud800", "old_string": "a", "new_string": "b"}),
    ("Grep", {"pattern": "x", "path": "/repo/\ud800"}),
    ("Bash", {"command": "git status > /repo/\ud800"}),
], ids=["read", "read-two-high", "edit", "grep", "bash-redirect"])
def test_a_lone_surrogate_in_a_path_is_a_named_denial(plan: Path, tool: str,
                                                      tool_input: dict[str, str]) -> None:
    """K-0: JSON's ``\\ud800`` in a path decodes to a lone surrogate, which no file name is
    written with (Node would write U+FFFD in its place): denied, the reason saying why."""
    payload = {"session_id": "s", "cwd": "/repo", "hook_event_name": "PreToolUse",
               "tool_name": tool, "tool_input": tool_input}
    reason = _denied(_hook(plan, payload))
    assert "internal error" not in reason and "failed closed" not in reason, reason
    assert "lone surrogate" in reason, reason


def test_a_lone_surrogate_in_the_working_directory_is_a_named_denial(plan: Path) -> None:
    """A session directory named with a lone surrogate names none (main's K-0 fix: a payload
    error): denied, naming why, not as an internal error."""
    payload = {"session_id": "s", "cwd": "/repo/\ud800", "hook_event_name": "PreToolUse",
               "tool_name": "Read", "tool_input": {"file_path": "/repo/a"}}
    reason = _denied(_hook(plan, payload))
    assert "lone surrogate" in reason and "internal error" not in reason, reason
