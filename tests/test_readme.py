"""The README's Python examples run as written (doctest), and its two newcomer commands name
files that exist."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest
from conftest import REPO


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


def test_the_run_time_section_runs_as_written() -> None:
    """Each shell snippet of "Enforce the plan at run time", with ``.venv/bin/`` standing for
    the environment the tests run in: the snippets print what the section says."""
    import json
    import subprocess

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", _section(readme, "Enforce the plan at run time"),
                        re.DOTALL)
    assert len(blocks) == 3
    run = _skillgrant()
    outputs = []
    for block in blocks:
        command = block.replace(".venv/bin/skillgrant", run)
        done = subprocess.run(["bash", "-c", command], cwd=REPO, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    claude, copilot = json.loads(outputs[0]), json.loads(outputs[1])
    assert claude["hooks"]["PreToolUse"][0]["hooks"][0]["onFailure"] == "block"
    assert copilot["version"] == 1 and "preToolUse" in copilot["hooks"]
    denial, allowed = outputs[2].split("exit 2\n")
    assert json.loads(denial)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert allowed == "exit 0\n"


def test_the_service_section_runs_as_written(tmp_path: Path) -> None:
    """The shell snippets of "Run the grant service", with ``.venv/bin/`` standing for the
    environment the tests run in (the second starts the service on port 8750, and stops it)."""
    import json
    import shutil
    import subprocess

    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", _section(readme, "Run the grant service"), re.DOTALL)
    assert len(blocks) == 2
    run = _skillgrant()
    outputs = []
    for block in blocks:
        command = block.replace(".venv/bin/skillgrant", run).replace(
            "samples/", f"{REPO}/samples/")
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    (hook,) = json.loads(outputs[0])["hooks"]["PreToolUse"][0]["hooks"]
    assert hook["type"] == "http" and hook["onFailure"] == "block"
    assert hook["url"] == "http://127.0.0.1:8750/v1/hook/gh-triage"
    denial, allowed = outputs[1].split("\n", 1)
    assert json.loads(denial)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert allowed == "[0]\n"
