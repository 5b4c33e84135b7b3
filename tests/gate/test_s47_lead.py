"""Session 47, the lead's cost fix from review s47-greview (C-git): a new branch at ``HEAD``
keeps the working tree, so ``git checkout -b NAME`` and ``git switch -c NAME`` pass under
their own entries where a working-tree writer would not; with a start point, or beside
``git pull``, the call stays judged as one."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from bash_review import first_denied
from files_fixture import gated_project

#: (the plan, the calls, the call denied or None): the plan's `git pull` guards what a
#: project's runner reads at its start, which a working-tree writer may put there.
CASES = {
    "checkout-b": (["Bash(git checkout *)", "Bash(git pull)"], ["git checkout -b feat/x"], None),
    "switch-c": (["Bash(git switch *)", "Bash(git pull)"], ["git switch -c feat/y"], None),
    "start-point": (["Bash(git checkout *)", "Bash(git pull)"],
                    ["git checkout -b feat/z HEAD~0"], "git checkout -b feat/z HEAD~0"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_new_branch_at_head_keeps_the_working_tree(tmp_path: Path, case: str) -> None:
    entries, calls, denied = CASES[case]
    project = tmp_path / "project"
    gated_project(project, entries)
    before = subprocess.run(["git", "status", "--porcelain"], cwd=project, capture_output=True,
                            text=True, check=True).stdout
    assert first_denied(project, calls) == denied
    after = subprocess.run(["git", "status", "--porcelain"], cwd=project, capture_output=True,
                           text=True, check=True).stdout
    assert after == before  # (bash ran the allowed calls: the tree is as it was)
