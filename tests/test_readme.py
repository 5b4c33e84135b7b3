"""The README's Python examples run as written (doctest), and its two newcomer commands name
files that exist."""

from __future__ import annotations

import doctest
import os
import re
import shlex
from pathlib import Path

import pytest
from conftest import FIXED_PORT, REPO
from installed import Installed, hook_commands, outside_env, run_hook

from skillgrant.gate.config import HOOK_CODE


def _skillgrant() -> str:
    """The ``skillgrant`` the tests run with (what ``.venv/bin/skillgrant`` stands for)."""
    import sys

    script = Path(sys.executable).parent / "skillgrant"
    return str(script) if script.exists() else f"{sys.executable} -m skillgrant"


def test_readme_examples_run() -> None:
    result = doctest.testfile(str(REPO / "README.md"), module_relative=False)
    assert result.attempted >= 3
    assert result.failed == 0


def test_quick_start_names_the_shipped_samples() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "pip install '.[test]' && .venv/bin/python -m pytest -q" in readme
    samples = sorted(p.parent.name for p in (REPO / "samples").glob("*/SKILL.md"))
    assert len(samples) >= 3
    for name in samples:
        assert (REPO / "samples" / name / "plan.yaml").is_file(), name
    assert re.search(r'skillgrant check "\$d"SKILL\.md --plan "\$d"plan\.yaml', readme)


def test_the_quick_start_checks_run_as_written() -> None:
    """The quick start after its install: the loop of checks over the samples, each exiting 1
    (each sample would change), run with the environment the tests run in."""
    import subprocess

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    command = re.search(r"pip install \. && (for d in samples.*?done)", readme)
    assert command is not None
    run = _skillgrant()
    loop = command.group(1).replace(".venv/bin/skillgrant", run).replace(
        "; done", "; echo \"exit $?\"; done")
    done = subprocess.run(["bash", "-c", loop], cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    statuses = [line for line in done.stdout.splitlines() if line.startswith("exit ")]
    samples = list((REPO / "samples").glob("*/SKILL.md"))
    assert statuses == ["exit 1"] * len(samples), done.stdout[-2000:]


def test_conformance_command_matches_ci() -> None:
    # The README's conformance command and .ci/run install and run the same suite.
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = (REPO / ".ci" / "steps" / "50-claude-code.sh").read_text(encoding="utf-8")
    for text in (readme, ci):
        assert "tests/conformance/cc_runtime.py install" in text
        assert "pytest -q" in text and "tests/conformance --conformance" in text
    assert (REPO / "tests" / "conformance" / "cc_runtime.py").is_file()
    assert "CONFORMANCE SUITE NOT RUN" in ci


def _section(readme: str, title: str) -> str:
    start = readme.index(f"## {title}\n")
    end = readme.index("\n## ", start + 1)
    return readme[start:end]


def _checkout(tmp_path: Path, installed: Installed) -> Path:
    """A folder standing for a fresh clone after the quick start: the samples and ``.venv``, the
    fresh installation (never activated)."""
    import shutil

    work = tmp_path / "clone"
    work.mkdir()
    shutil.copytree(REPO / "samples", work / "samples")
    (work / ".venv").symlink_to(installed.venv, target_is_directory=True)
    return work


def _listing(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")
            if ".venv" not in p.relative_to(folder).parts}


def _bash(block: str, work: Path) -> str:
    import subprocess

    done = subprocess.run(["bash", "-c", block], cwd=work, env=outside_env(),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_run_time_section_runs_as_written(tmp_path: Path, installed: Installed) -> None:
    """Each shell snippet of "Enforce the plan at run time", as written, from a clone whose
    ``.venv`` is a fresh installation that is not activated (no environment on PATH); then the
    command of each printed configuration, and the one ``apply --enforce`` wrote, run as a
    runtime runs them: by ``sh``, from another folder, still with no environment on PATH."""
    import json

    import yaml

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", _section(readme, "Enforce the plan at run time"),
                        re.DOTALL)
    assert len(blocks) == 4
    work = _checkout(tmp_path, installed)
    claude_text, copilot_text, judged, enforced = (_bash(block, work) for block in blocks)
    claude, copilot = json.loads(claude_text), json.loads(copilot_text)
    assert claude["hooks"]["PreToolUse"][0]["hooks"][0]["onFailure"] == "block"
    assert copilot["version"] == 1 and "preToolUse" in copilot["hooks"]
    denial, allowed = judged.split("exit 2\n")
    assert json.loads(denial)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert allowed == "exit 0\n"
    key = enforced[enforced.index("\nhooks:\n") + 1:]  # after apply's report, sed's lines
    written = yaml.safe_load(key[:key.index("\n---")])["hooks"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for document, is_copilot in ((claude, False), (copilot, True), (written, False)):
        (command,) = hook_commands(document)
        words = shlex.split(command)  # this installation's interpreter, isolated (G-18)
        assert os.path.isabs(words[0]) and words[1:5] == ["-I", "-c", HOOK_CODE, "hook"]
        outside = run_hook(command, _payload(is_copilot, "gh issue list && rm -rf /tmp/x",
                                             elsewhere), elsewhere)
        assert outside.returncode == 2 and "rm -rf /tmp/x" in outside.stderr, outside.stderr
        inside = run_hook(command, _payload(is_copilot, "gh issue list --label bug", elsewhere),
                          elsewhere)
        # Copilot CLI needs one JSON object on stdout: an empty one is no decision (issue 30).
        no_decision = "{}\n" if is_copilot else ""
        assert (inside.returncode, inside.stdout, inside.stderr) == (0, no_decision, "")


def _payload(copilot: bool, command: str, cwd: Path) -> dict[str, object]:
    import json

    if copilot:
        return {"sessionId": "s", "timestamp": 0, "cwd": str(cwd), "toolName": "bash",
                "toolArgs": json.dumps({"command": command})}
    return {"session_id": "s", "cwd": str(cwd), "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}}


@FIXED_PORT
def test_the_service_section_runs_as_written(tmp_path: Path, installed: Installed) -> None:
    """The shell snippets of "Run the grant service", as written, from a clone whose ``.venv``
    is a fresh installation that is not activated (the second starts the service on port
    8750, and stops it)."""
    import json
    import shutil

    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", _section(readme, "Run the grant service"), re.DOTALL)
    assert len(blocks) == 2
    work = _checkout(tmp_path, installed)
    printed, served = (_bash(block, work) for block in blocks)
    (hook,) = json.loads(printed)["hooks"]["PreToolUse"][0]["hooks"]
    assert hook["type"] == "http" and hook["onFailure"] == "block"
    url, _, pin = hook["url"].partition("?plan-sha256=")  # the plan's digest (issue 29)
    assert url == "http://127.0.0.1:8750/v1/hook/gh-triage" and re.fullmatch("[0-9a-f]{64}", pin)
    denial, allowed = served.split("\n", 1)
    assert json.loads(denial)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert allowed == "[0]\n"


@FIXED_PORT
def test_the_service_snippet_leaves_no_file_in_the_checkout(tmp_path: Path,
                                                            installed: Installed) -> None:
    """Its log goes to a temporary file, removed when the service stops: the clone holds what
    it held before (issue 31: it used to leave ``serve.log``)."""
    import shutil

    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", _section(readme, "Run the grant service"), re.DOTALL)
    work = _checkout(tmp_path, installed)
    before = _listing(work)
    _bash(blocks[1], work)
    assert _listing(work) == before


def test_the_readme_gives_the_test_command_time_it_was_measured_at() -> None:
    """The quick start's test command says how many tests and how long, as measured (issue
    31: it said five to fifteen minutes for a run measured at about four)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    found = re.search(r"Install and run the tests \(about ([\d,]+) tests, (.+?) on two cores",
                      readme)
    assert found is not None
    assert "five to fifteen minutes" not in found.group(2)
