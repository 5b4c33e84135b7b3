"""Review s50 (s50-greview) of the call gate's decision of one concrete call, judged by real
bash and the real programs: each case proves its hole in a scratch copy first (a scratch home),
then asks the printed hook for each call in turn, running the allowed ones; the hook allowing
them all is the finding: these tests fail while the hole is open (``OPEN`` marks them strict
xfails)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, needs
from files_fixture import gated_project, git

#: Real programs and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

# --- B1: pytest's --basetemp removes the folder it names --------------------------------------

#: A test that asks for ``tmp_path``: pytest then makes its base folder, clearing the one
#: ``--basetemp`` names first (``rm_rf``); it refuses only the working folder and its parents.
TEST_A = "def test_a(tmp_path):\n    assert tmp_path.is_dir()\n"


def _pytest_project(root: Path, entries: list[str]) -> tuple[Path, dict[str, str]]:
    """A gated project with ``tests/test_a.py`` (plan ``entries``) beside a scratch home whose
    user settings hold the same hook (Claude Code reads them from every folder: the hook that
    follows a skill into its subagents may live there); the project and the session's
    environment."""
    project = root / "project"
    gated_project(project, entries)
    (project / "tests").mkdir()
    (project / "tests" / "test_a.py").write_text(TEST_A)
    env = home_env(root / "home")
    (root / "home" / ".claude").mkdir()
    shutil.copy(project / ".claude" / "settings.json", root / "home" / ".claude")
    return project, env


def _needs_pytest() -> None:
    """Skip unless the ``python3`` on ``PATH`` runs pytest (the entry names it)."""
    needs("python3")
    found = subprocess.run(["python3", "-c", "import pytest"], capture_output=True, timeout=60,
                           check=False)
    if found.returncode != 0:
        pytest.skip("python3 on PATH has no pytest")


def _pytest(folder: Path, basetemp: str, env: dict[str, str]) -> str:
    call = f"python3 -m pytest -q -p no:cacheprovider --basetemp={basetemp} tests"
    subprocess.run(["bash", "-c", call], cwd=folder, env=env, capture_output=True, timeout=120,
                   check=False)
    return call


def test_b1_pytests_basetemp_removes_the_users_settings(tmp_path: Path) -> None:
    """``--basetemp=DIR`` makes pytest remove DIR whole before its first ``tmp_path``
    (``TempPathFactory.getbasetemp``: ``rm_rf``; it refuses only the working folder and its
    parents). A project outside the home (a container's ``/workspace``, CI): plan
    ``Bash(python3 -m pytest *)`` alone, ``python3 -m pytest --basetemp=<home> tests`` is
    allowed and removes ``~/.claude/settings.json`` (the user's settings, where the hook that
    follows a skill into its subagents may be; ``--basetemp=<home>/.claude`` is denied: the
    gate guards words naming a folder that holds a guarded file only for the programs it lists
    as writers)."""
    _needs_pytest()
    proof, env = _pytest_project(tmp_path / "proof", ["Bash(python3 -m pytest *)"])
    home = tmp_path / "proof" / "home"
    _pytest(proof, str(home), env)
    assert not (home / ".claude" / "settings.json").exists(), "pytest kept the user settings"
    project, env = _pytest_project(tmp_path / "run", ["Bash(python3 -m pytest *)"])
    call = f"python3 -m pytest -q -p no:cacheprovider --basetemp={tmp_path / 'run' / 'home'} tests"
    denied = first_denied(project, [call], env)
    assert denied is not None, "the hook allows pytest to remove the user's settings"


def test_b1_pytests_basetemp_removes_the_main_checkout(tmp_path: Path) -> None:
    """The same from a linked worktree beside its main checkout (``git worktree add ../wt``):
    ``--basetemp=<main>`` is neither the working folder nor a parent of it, so pytest removes
    the main checkout whole, its ``.claude/settings.json`` (the gate's hook; Claude Code reads
    the main checkout's settings in a linked worktree) with it."""
    _needs_pytest()
    needs("git")
    found: list[str | None] = []
    for side in ("proof", "run"):
        main, env = _pytest_project(tmp_path / side, ["Bash(python3 -m pytest *)"])
        git(main, "add", "tests")
        git(main, "commit", "-qm", "tests")
        worktree = tmp_path / side / "wt"
        git(main, "worktree", "add", "-q", str(worktree))
        if side == "proof":
            _pytest(worktree, str(main), env)
            assert not (main / ".claude" / "settings.json").exists(), "pytest kept the main"
        else:
            call = f"python3 -m pytest -q -p no:cacheprovider --basetemp={main} tests"
            found.append(first_denied(main, [call], env, cwd=worktree))
    assert found[0] is not None, "the hook allows pytest to remove the main checkout"


_open("test_b1_pytests_basetemp_removes_the_users_settings",
      "pytest's --basetemp value is a folder pytest removes whole: a folder holding a guarded "
      "file (the home) is not refused for a program outside the writers' lists")
_open("test_b1_pytests_basetemp_removes_the_main_checkout",
      "pytest's --basetemp value is a folder pytest removes whole: a linked worktree's main "
      "checkout (its .claude) is not refused")

