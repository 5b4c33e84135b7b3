"""Session 46 (s46-gfix), K1's leftovers: a ``Skill`` call's args are judged in the file the
runtime runs, wherever the runtime finds it (``gate/skillfiles.py``): a skill known by its
frontmatter's ``name``, a folder added to the session, a ``.claude`` nested below the
project; where the gate cannot list them, the call is refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from skillgrant.gate import skillfiles
from skillgrant.gate.call import check_call

#: A skill whose command takes the call's args, under a name; one that runs nothing.
RUNS = ("---\nname: {name}\ndescription: echo things\nallowed-tools: Bash(echo *)\n---\n"
        "Result: !`echo $ARGUMENTS`\n")
QUIET = "---\nname: {name}\ndescription: says hello\n---\nHello.\n"
PLAN = ["Skill(other)", "Bash(echo *)"]
CALL = {"skill": "other", "args": "hi; touch zz"}


def _skill(root: Path, folder: str, text: str) -> None:
    (root / ".claude" / "skills" / folder).mkdir(parents=True, exist_ok=True)
    (root / ".claude" / "skills" / folder / "SKILL.md").write_text(text)


@pytest.fixture(autouse=True)
def _session(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)


def test_the_skill_found_by_its_folder_is_judged(tmp_path: Path) -> None:
    _skill(tmp_path, "other", RUNS.format(name="other"))
    assert check_call("Skill", CALL, PLAN, cwd=str(tmp_path)).status == "not_covered"
    assert check_call("Skill", {**CALL, "args": "hi"}, PLAN, cwd=str(tmp_path)).status \
        == "covered"


def test_a_skill_known_by_its_frontmatters_name_is_judged(tmp_path: Path) -> None:
    """``skills/bar/SKILL.md`` saying ``name: other`` is ``other`` to the runtime too: its
    command is judged beside the quiet ``skills/other``'s."""
    _skill(tmp_path, "other", QUIET.format(name="other"))
    _skill(tmp_path, "bar", RUNS.format(name="other"))
    assert check_call("Skill", CALL, PLAN, cwd=str(tmp_path)).status == "not_covered"


def test_a_skill_in_a_folder_the_settings_add_is_judged(tmp_path: Path) -> None:
    project = tmp_path / "project"
    _skill(project, "other", QUIET.format(name="other"))
    _skill(tmp_path / "extra", "other", RUNS.format(name="other"))
    (project / ".claude" / "settings.json").write_text(json.dumps(
        {"permissions": {"additionalDirectories": ["../extra"]}}))
    assert check_call("Skill", CALL, PLAN, cwd=str(project)).status == "not_covered"


def test_a_skill_nested_below_the_project_is_judged(tmp_path: Path) -> None:
    """A ``.claude/skills`` below the project, which the runtime discovers as the session
    works there."""
    project = tmp_path / "project"
    _skill(project, "other", QUIET.format(name="other"))
    _skill(project / "packages" / "web", "other", RUNS.format(name="other"))
    assert check_call("Skill", CALL, PLAN, cwd=str(project)).status == "not_covered"


def test_a_tree_the_gate_cannot_list_refuses_the_call(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _skill(tmp_path, "other", QUIET.format(name="other"))
    for k in range(20):
        (tmp_path / f"f{k}").write_text("")
    monkeypatch.setattr(skillfiles, "_MAX_ENTRIES", 10)
    judged = check_call("Skill", {**CALL, "args": "hi"}, PLAN, cwd=str(tmp_path))
    assert judged.status == "unknown" and "more than 10 entries" in judged.reason
    assert check_call("Skill", {"skill": "other"}, PLAN, cwd=str(tmp_path)).status == "covered"


def test_the_add_dir_of_the_runtimes_command_line(tmp_path: Path) -> None:
    """``--add-dir`` on the command line of a process the hook runs under (the runtime's),
    read from ``/proc``: its skills are judged."""
    if not Path("/proc/self/cmdline").exists():
        pytest.skip("no /proc")
    project = tmp_path / "project"
    _skill(project, "other", QUIET.format(name="other"))
    _skill(tmp_path / "extra", "other", RUNS.format(name="other"))
    probe = ("from skillgrant.gate.call import check_call; import sys; print(check_call("
             f"'Skill', {CALL!r}, {PLAN!r}, cwd=sys.argv[1]).status)")
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    # (bash runs the probe as a child, not by exec: `; true`)
    done = subprocess.run(["bash", "-c", f'{sys.executable} -c "$1" "$2"; true', "claude",
                           probe, str(project), "--add-dir", "../extra"], cwd=project,
                          capture_output=True, text=True, env=env, check=True)
    assert done.stdout.split() == ["not_covered"], done.stderr


@pytest.mark.parametrize("given", ["--add-dir ../extra", "--plugin-dir ../plug",
                                   "--settings ../s.json", "--settings={inline}"])
def test_the_folders_the_runtimes_command_line_adds(tmp_path: Path, given: str) -> None:
    """``--add-dir``, ``--plugin-dir``, ``--settings`` (a file or inline JSON naming
    ``additionalDirectories``) on the command line of a process the hook runs under (the
    runtime's, read from ``/proc``): the skills there are judged."""
    if not Path("/proc/self/cmdline").exists():
        pytest.skip("no /proc")
    project = tmp_path / "project"
    _skill(project, "other", QUIET.format(name="other"))
    _skill(tmp_path / "extra", "other", RUNS.format(name="other"))
    (tmp_path / "plug" / "skills" / "other").mkdir(parents=True)
    (tmp_path / "plug" / "skills" / "other" / "SKILL.md").write_text(RUNS.format(name="other"))
    listed = json.dumps({"permissions": {"additionalDirectories": ["../extra"]}})
    (tmp_path / "s.json").write_text(listed)
    probe = ("from skillgrant.gate.call import check_call; import sys; print(check_call("
             f"'Skill', {CALL!r}, {PLAN!r}, cwd=sys.argv[1]).status)")
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    words = [f"--settings={listed}"] if "{inline}" in given else given.split(" ", 1)
    done = subprocess.run(["bash", "-c", f'{sys.executable} -c "$1" "$2"; true', "claude",
                           probe, str(project), *words], cwd=project,
                          capture_output=True, text=True, env=env, check=True)
    assert done.stdout.split() == ["not_covered"], done.stderr


@pytest.mark.parametrize(("words", "dirs"), [
    (["claude", "--add-dir", "a", "b", "-p", "x"], ["a", "b"]),
    (["claude", "--add-dir=a", "b"], ["a"]),
    (["claude", "-p", "--add-dir"], []),
])
def test_add_dir_values(words: list[str], dirs: list[str]) -> None:
    assert skillfiles._values(words, "--add-dir", True) == dirs


@pytest.mark.parametrize(("text", "names"), [
    ("\ufeff---\narguments: [who]\n---\nx", ["who"]),
    ("---\narguments:\n- who\n- what\nname: x\n---\nx", ["who", "what"]),
    ("---\narguments:\n  - who\n---\nx", ["who"]),
    ("---\narguments: who what\n---\nx", ["who", "what"]),
    ("---\n\"arguments\": [who]\n---\nx", ["who"]),
    ("---\narguments: [who] # c\n---\nx", ["who"]),
    ("---\narguments:\n  who\n---\nx", ["who"]),
    ("---\narguments:\n- who\n# c\n- what\n---\nx", ["who", "what"]),
    ("---\narguments: [a]\narguments: [b]\n---\nx", ["b"]),
    ("---\nname: x\n---\nx", []),
    ("---\narguments: {a: b}\n---\nx", None),
    ("---\narguments: [a, [b]]\n---\nx", None),
    ("---\narguments: [a\n---\nx", None),
    ("---\narguments: who\n  what\n---\nx", ["who", "what"]),
    ("---\narguments: [who]\n  # c\n---\nx", ["who"]),
])
def test_k2_the_arguments_read_as_the_runtime_reads_them(text: str,
                                                         names: list[str] | None) -> None:
    """Review s46 K2: the frontmatter as ``K0`` cuts it, a byte-order mark dropped; its
    ``arguments`` as the project's reader predicts Bun reads them (the last key), else None
    (refused with args)."""
    from skillgrant.gate.skillargs import _frontmatter

    assert _frontmatter(text)[1] == names


@pytest.mark.parametrize(("text", "body"), [
    ("---\ndescription: a --- b\nc\n---\nd", "b\nc\n---\nd"),
    ("----\nx\n---\ny", "----\nx\n---\ny"),
    ("\ufeff---\na: b\n---\nc", "c"),
])
def test_k2_the_body_is_cut_as_the_runtime_cuts_it(text: str, body: str) -> None:
    from skillgrant.gate.skillargs import _frontmatter

    assert _frontmatter(text)[0] == body
