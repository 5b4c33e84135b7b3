"""Review s40 R13: a hard link made before the session, from the project to a file inside a
guarded folder (a ``cp -al`` or ``rsync --link-dest`` snapshot holds ``.git/config``'s other
name). A covered ``cp`` onto that name rewrites the repository's configuration under real
bash; the gate cannot see where a file's other names lie, so a write to a file with more
than one name on a guarded folder's device is denied (docs/decisions.md)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from files_fixture import gated_project
from test_gate_files import _settings_hook, run_hook


def _snapshot(project: Path, inside: str) -> None:
    (project / "backup").mkdir()
    os.link(project / inside, project / "backup" / "linked")
    (project / "payload").write_text("[core]\n\thooksPath = evil-hooks\n")


@pytest.mark.parametrize("inside", [".git/config", ".git/hooks/pre-commit.sample"])
@pytest.mark.parametrize("command", ["cp payload backup/linked", "cat payload > backup/linked",
                                     "dd if=payload of=backup/linked"])
def test_a_write_through_an_earlier_hard_link_into_git_is_denied(
        tmp_path: Path, inside: str, command: str) -> None:
    project = tmp_path / "project"
    program = command.split()[0]
    gated_project(project, [f"Bash({program} *)", "Bash(git status)"])
    _snapshot(project, inside)
    scratch = tmp_path / "scratch"  # the hole, shown by bash on a copy (links kept)
    subprocess.run(["cp", "-a", str(project), str(scratch)], check=True)
    before = (scratch / inside).read_bytes()
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60)
    assert (scratch / inside).read_bytes() != before, "bash wrote nothing through the link"
    said = run_hook(_settings_hook(project), command, project)
    assert said.returncode == 2, said.stdout
    assert b"names" in said.stderr + said.stdout or b"backup/linked" in said.stderr, said.stderr


def test_a_file_with_one_name_is_written(tmp_path: Path) -> None:
    """The rule asks for a second name: a plain file of the project is written as before."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)"])
    (project / "payload").write_text("x\n")
    (project / "mine").write_text("y\n")
    assert run_hook(_settings_hook(project), "cp payload mine", project).returncode == 0


def test_the_rule_is_by_device_not_by_where_the_other_name_lies(tmp_path: Path) -> None:
    """Both names in the project, neither in a guarded folder: the gate cannot tell that
    without a walk of every guarded folder, so the write is denied all the same (the cost of
    the rule: copy the file to a new name first)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(rm *)"])
    (project / "a").write_text("x\n")
    os.link(project / "a", project / "b")
    (project / "payload").write_text("x\n")
    assert run_hook(_settings_hook(project), "cp payload b", project).returncode == 2
