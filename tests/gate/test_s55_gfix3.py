"""Session 55's fix (s55-gfix3) of what python, pytest, jest and git read first (issue 29;
review s54-greview2 A6, A7, A8, C1, C2, C3). Each hole is proved by real bash and the real
program (GNU make, git, python3/pytest, node/jest) in a scratch project first
(``test_s53_greview._session``: the payload ran), then the printed hook is asked call by call
as the runtime's Bash tool runs them: the call named is the first one denied. The writes the
rules keep allowed are pinned as plain tests.

Every payload only touches a file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, hooked_project, needs
from test_s53_greview import _session

#: Real bash and the real programs, and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open here, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

#: git's settings running a command at ``git status`` (core.fsmonitor), the work tree above.
GIT_CONFIG = ("[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n"
              "\tfsmonitor = touch zz; false\n")
#: A makefile whose recipe runs git in ``sub``.
GIT_IN_SUB = "test:\n\tcd sub && git status --porcelain\n"


# --- C1: a git layout completed by a copy into a folder ------------------------------------------

#: Each case: the plan's entries, the files, the calls; the call the hook denies.
LAYOUTS = {
    # objects/ and refs/ first (no HEAD beside them: allowed), then HEAD and config copied
    # INTO the folder (the copy's destination is `sub/`: the names arrive from the sources)
    "head-copied-into-the-folder": (
        {"sub/.keep": ""},
        ["mkdir -p sub/objects/info sub/refs/heads", "cp a/HEAD a/config sub/", "make test"],
        "cp a/HEAD a/config sub/"),
    "head-copied-by-target-directory": (
        {"sub/.keep": ""},
        ["mkdir -p sub/objects/info sub/refs/heads", "cp -t sub a/HEAD a/config", "make test"],
        "cp -t sub a/HEAD a/config"),
    # HEAD first, objects/ and refs/ as parents mkdir -p makes (s54-greview2 C1's row)
    "layout-by-parents": (
        {"sub/.keep": ""},
        ["cp a/HEAD a/config sub/", "mkdir -p sub/objects/info", "mkdir -p sub/refs/heads",
         "make test"],
        "cp a/HEAD a/config sub/"),
}


@pytest.mark.parametrize("case", LAYOUTS)
def test_c1_a_git_layout_completed_in_a_folder(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)`` (a recipe running git in ``sub``), ``Bash(cp *)``,
    ``Bash(mkdir *)``: git takes ``sub`` as its git directory and runs fsmonitor; the call
    named is denied."""
    needs("make", "git")
    files, calls, denied = LAYOUTS[case]
    files = {**files, "Makefile": GIT_IN_SUB, "a/HEAD": "ref: refs/heads/main\n",
             "a/config": GIT_CONFIG}
    assert _session(tmp_path, ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)"], files,
                    calls) == denied


def test_c1_parents_mkdir_makes_elsewhere_are_allowed(tmp_path: Path) -> None:
    """``mkdir -p`` of folders named ``objects``/``refs`` beside no ``HEAD``, and a plain
    copy into a folder, stay allowed under the same plan."""
    project = hooked_project(tmp_path, ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)"])
    (project / "Makefile").write_text(GIT_IN_SUB)
    (project / "a").mkdir()
    (project / "a/notes.txt").write_text("\n")
    assert first_denied(project, ["mkdir -p data/objects/info data/refs/heads",
                                  "mkdir -p build/x/y", "cp a/notes.txt data/"],
                        {**os.environ, "CLAUDE_PROJECT_DIR": str(project)}) is None
