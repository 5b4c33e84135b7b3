"""What a newcomer trips on (issue 31), each row a behaviour: a configuration request that is
wrong is a usage error, not a hook's denial; the serve extra's install hint names where this
installation came from; ``explain`` needs something to judge against; click's own usage errors
carry the ``skillgrant: error:`` prefix; a plan spelling ``allowed_tools`` is warned about; an
over-indented list item is named as what YAML read it as.

(The printed commands run from a fresh installation: tests/test_installed.py. ``apply
--enforce``'s note: tests/test_enforce.py. The README's snippets: tests/test_readme.py.)
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import forkrun
import pytest
from typer.testing import CliRunner

from skillgrant.cli.app import app
from skillgrant.cli.extras import requirement
from skillgrant.gate.config import HOOK_CODE

SKILLGRANT = [sys.executable, "-m", "skillgrant"]


def run(*args: str, cwd: Path | None = None,
        stdin: str = "") -> subprocess.CompletedProcess[str]:
    """What ``skillgrant ARGS`` prints, forked from tests/forkrun.py's server."""
    return forkrun.run_text(list(args), cwd=cwd, input=stdin, timeout=120)


def process(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m skillgrant ARGS`` in a new process: for what the console's own process does
    (its usage errors and help, a hook's failing closed)."""
    return subprocess.run([*SKILLGRANT, *args], input=stdin, capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.fixture
def plan(tmp_path: Path) -> Path:
    path = tmp_path / "plan.yaml"
    path.write_text("allowed-tools: [Bash(gh *)]\n")
    return path


# --- row 3: --print-config validates --------------------------------------------------------

@pytest.mark.parametrize(("args", "said"), [
    (["--print-config", "claude"], "--print-config must be one of claude-code, copilot-cli"),
    (["--print-config", "claude-code"], "--print-config needs --plan PLAN"),
    (["--print-config", "claude-code", "--plan", "nope.yaml"],
     "the plan does not load, so the hook would deny every call: nope.yaml: cannot read"),
    (["--print-config", "claude-code", "--plan", "bad.yaml"],
     "the plan does not load, so the hook would deny every call: bad.yaml:1:17:"),
    (["--print-config", "codex", "--dialect", "vscode", "--plan", "plan.yaml"],
     "--print-config codex prints the hook for codex; leave out --dialect vscode"),
    (["--print-config", "claude-code", "--plan", "plan.yaml", "--outside", "maybe"],
     "--outside must be one of deny, ask"),
])
def test_print_config_answers_a_wrong_request_with_a_usage_error(
        tmp_path: Path, plan: Path, args: list[str], said: str) -> None:
    (tmp_path / "bad.yaml").write_text("allowed-tools: [Bash(gh *]\n")
    done = run("hook", *args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""  # no JSON: the fail-closed denial is for hook payloads
    assert done.stderr.startswith(f"skillgrant: error: {said}"), done.stderr
    assert "Usage: skillgrant hook" in done.stderr


def test_a_hook_payload_with_a_bad_command_line_still_gets_the_denial(plan: Path) -> None:
    payload = {"tool_name": "Bash", "tool_input": {"command": "gh pr list"}}
    done = process("hook", "--plan", str(plan), "--outside", "maybe",
                   stdin=json.dumps(payload))
    assert done.returncode == 2
    document = json.loads(done.stdout)
    assert document["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "failed closed" in done.stderr


def test_print_config_prints_the_configuration_for_a_good_request(plan: Path) -> None:
    done = run("hook", "--print-config", "claude-code", "--plan", str(plan))
    assert done.returncode == 0, done.stderr
    (group,) = json.loads(done.stdout)["hooks"]["PreToolUse"]
    command = group["hooks"][0]["command"]
    # isolated (-I): the project's folder is not on sys.path (review R3 of issue 29)
    pin = hashlib.sha256(plan.read_text(encoding="utf-8-sig").encode()).hexdigest()
    moved = os.environ.get("SKILLGRANT_STATE_DIR")  # carried (s53-sreview R3; the suite's)
    assert shlex.split(command) == [sys.executable, "-I", "-c", HOOK_CODE, "hook", "--plan",
                                    str(plan), "--plan-sha256", pin,
                                    *(["--state-dir", moved] if moved else [])]  # issue 29
    assert done.stderr.startswith("Merge into .claude/settings.json")


# --- row 2: the serve extra's install hint ---------------------------------------------------

@pytest.mark.parametrize(("direct", "expected"), [
    (None, ["skillgrant[serve]"]),  # from an index
    ({"url": "file:///src/skill%20grant", "dir_info": {}}, ["/src/skill grant[serve]"]),
    ({"url": "file:///src/sg", "dir_info": {"editable": True}}, ["-e", "/src/sg[serve]"]),
    ({"url": "file:///dl/skillgrant-0.1.0-py3-none-any.whl", "archive_info": {}},
     ["/dl/skillgrant-0.1.0-py3-none-any.whl[serve]"]),
    ({"url": "https://example.com/skillgrant-0.1.0.tar.gz", "archive_info": {}},
     ["skillgrant[serve] @ https://example.com/skillgrant-0.1.0.tar.gz"]),
    ({"url": "https://github.com/o/skillgrant", "vcs_info": {"vcs": "git", "commit_id": "abc"}},
     ["skillgrant[serve] @ git+https://github.com/o/skillgrant@abc"]),
])
def test_the_serve_extra_hint_installs_from_where_skillgrant_came_from(
        direct: dict[str, object] | None, expected: list[str]) -> None:
    assert requirement("serve", direct) == expected


def test_serve_without_its_extra_names_the_command_that_installs_it(
        plan: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_fastapi(name: str, *args: object, **kwargs: object) -> object:
        if name in ("fastapi", "uvicorn"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_fastapi)
    result = CliRunner().invoke(app, ["serve", "--plan", str(plan)])
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert line.startswith("skillgrant: error: skillgrant serve needs the serve extra")
    hint = shlex.split(line.split("install it with: ", 1)[1])
    assert hint[:4] == [sys.executable, "-m", "pip", "install"]
    assert hint[-1].endswith("[serve]")


# --- row 6: explain needs what to judge against ---------------------------------------------

def test_explain_without_approved_or_plan_is_a_usage_error() -> None:
    done = run("explain", "Bash(x)")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("skillgrant: error: explain needs what the grant is judged against: "
                           "--approved ENTRY (repeatable) or --plan PLAN\n")


def test_explain_with_an_empty_approval_still_judges_against_nothing() -> None:
    """``--approved ''`` is a choice, not an omission: nothing is approved, and it says so."""
    done = run("explain", "Bash(x)", "--approved", "")
    assert done.returncode == 1 and "(nothing)" in done.stdout


# --- row 7: click's usage errors get the prefix ---------------------------------------------

@pytest.mark.parametrize(("args", "said"), [
    (["check", "--plna", "x", "."], "No such option: --plna (Possible options: --plan)"),
    (["chek", "x"], "No such command 'chek'."),
    (["check", "--format", "jsn", "x"], "Invalid value for '--format' / '-f': 'jsn' is not one"),
    (["serve", "--plan", "p", "--port", "99999"], "Invalid value for '--port'"),
])
def test_usage_errors_of_the_command_line_carry_the_skillgrant_error_prefix(
        args: list[str], said: str) -> None:
    for stderr, status in _both_ways(args):
        assert status == 2
        lines = stderr.splitlines()
        assert lines[0].startswith("Usage: skillgrant")
        assert lines[-1].startswith(f"skillgrant: error: {said}"), stderr
        assert not any(line.startswith("Error:") for line in lines), stderr


def _both_ways(args: list[str]) -> list[tuple[str, int]]:
    """The stderr and status of ``args`` run by the console's process and by typer's runner."""
    done = process(*args)
    result = CliRunner().invoke(app, args)
    return [(done.stderr, done.returncode), (result.stderr, result.exit_code)]


def test_no_command_still_prints_the_help() -> None:
    done = process()
    assert done.returncode == 2 and "Commands:" in done.stdout + done.stderr


# --- row 8: allowed_tools in a plan ---------------------------------------------------------

@pytest.mark.parametrize(("name", "text", "line"), [
    ("plan.yaml", "# approved\nallowed_tools:\n  - Bash(gh *)\n", 2),
    ("plan.json", '{"x-by": "me",\n "allowed_tools": ["Bash(gh *)"]}\n', 2),
])
def test_a_plan_spelling_allowed_tools_with_an_underscore_warns_naming_allowed_tools(
        tmp_path: Path, name: str, text: str, line: int) -> None:
    (tmp_path / name).write_text(text)
    done = run("explain", "Bash(gh pr list)", "--plan", name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr  # still read: the plan is what was approved
    assert done.stderr == (f"skillgrant: warning: {name}: line {line}: the key allowed_tools is "
                           "read as allowed-tools, but write allowed-tools: a SKILL.md spelled "
                           "allowed_tools grants nothing (the runtime reads only "
                           "allowed-tools)\n")
    printed = run("hook", "--print-config", "claude-code", "--plan", name, cwd=tmp_path)
    assert printed.returncode == 0 and "allowed_tools grants nothing" in printed.stderr


def test_the_written_spelling_and_allowedtools_are_read_without_a_warning(tmp_path: Path) -> None:
    for text in ("allowed-tools: [Read]\n", '{"allowedTools": ["Read"]}\n'):
        (tmp_path / "plan.yaml").write_text(text)
        done = run("explain", "Read", "--plan", "plan.yaml", cwd=tmp_path)
        assert (done.returncode, done.stderr) == (0, "")


# --- row 9: an over-indented list item ------------------------------------------------------

@pytest.mark.parametrize(("text", "where", "item"), [
    ("allowed-tools:\n  - Bash(gh *)\n   - Read\n", "3:4", "line 3 is read as more of the "
     "list item on line 2 (one item, 'Bash(gh *) - Read')"),
    ("allowed-tools:\n- Read\n- Edit\n    - Bash(gh *)\n", "4:5", "line 4 is read as more of "
     "the list item on line 3 (one item, 'Edit - Bash(gh *)')"),
])
def test_an_over_indented_list_item_is_named_as_more_of_the_item_above(
        tmp_path: Path, text: str, where: str, item: str) -> None:
    (tmp_path / "plan.yaml").write_text(text)
    done = run("explain", "Read", "--plan", "plan.yaml", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == (f"skillgrant: error: plan.yaml:{where}: allowed-tools: {item}, not as "
                           "an item of its own: its '-' is indented more than the '-' above it; "
                           "indent every '- ' of the list alike\n")


def test_an_invalid_entry_that_is_no_continuation_keeps_its_own_message(tmp_path: Path) -> None:
    (tmp_path / "plan.yaml").write_text("allowed-tools:\n  - Bash(gh *)\n  - -Read\n")
    done = run("explain", "Read", "--plan", "plan.yaml", cwd=tmp_path)
    assert done.returncode == 2 and "a tool name must start with an ASCII letter" in done.stderr


@pytest.mark.parametrize(("plan_text", "said"), [
    (None, "cannot read the plan"),
    ("allowed-tools: [Bash(gh *]\n", "plan.yaml:1:17: allowed-tools: approved entry is invalid"),
])
def test_serve_print_config_answers_a_plan_that_does_not_load_with_an_error(
        tmp_path: Path, plan_text: str | None, said: str) -> None:
    if plan_text is not None:
        (tmp_path / "plan.yaml").write_text(plan_text)
    done = run("serve", "--plan", "gate=plan.yaml", "--print-config", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"skillgrant: error: {tmp_path}/plan.yaml"), done.stderr
    assert said in done.stderr
