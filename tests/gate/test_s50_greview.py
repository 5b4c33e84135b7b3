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


def _project_and_home(root: Path, entries: list[str]) -> tuple[Path, dict[str, str]]:
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
    proof, env = _project_and_home(tmp_path / "proof", ["Bash(python3 -m pytest *)"])
    home = tmp_path / "proof" / "home"
    _pytest(proof, str(home), env)
    assert not (home / ".claude" / "settings.json").exists(), "pytest kept the user settings"
    project, env = _project_and_home(tmp_path / "run", ["Bash(python3 -m pytest *)"])
    call = f"python3 -m pytest -q -p no:cacheprovider --basetemp={tmp_path / 'run' / 'home'} tests"
    denied = first_denied(project, [call], env)
    assert denied is not None, "the hook allows pytest to remove the user's settings"


#: How the worktree's call names the main checkout (``{main}``: its absolute path).
MAIN_SPELLINGS = {"absolute": "--basetemp={main}", "relative": "--basetemp=../project",
                  "apart": "--basetemp ../project"}


@pytest.mark.parametrize("case", list(MAIN_SPELLINGS))
def test_b1_pytests_basetemp_removes_the_main_checkout(tmp_path: Path, case: str) -> None:
    """The same from a linked worktree beside its main checkout (``git worktree add ../wt``):
    ``--basetemp=<main>`` is neither the working folder nor a parent of it, so pytest removes
    the main checkout whole, its ``.claude/settings.json`` (the gate's hook; Claude Code reads
    the main checkout's settings in a linked worktree) with it."""
    _needs_pytest()
    needs("git")
    found: list[str | None] = []
    for side in ("proof", "run"):
        main, env = _project_and_home(tmp_path / side, ["Bash(python3 -m pytest *)"])
        git(main, "add", "tests")
        git(main, "commit", "-qm", "tests")
        worktree = tmp_path / side / "wt"
        git(main, "worktree", "add", "-q", str(worktree))
        option = MAIN_SPELLINGS[case].format(main=main)
        call = f"python3 -m pytest -q -p no:cacheprovider {option} tests"
        if side == "proof":
            subprocess.run(["bash", "-c", call], cwd=worktree, env=env, capture_output=True,
                           timeout=120, check=False)
            assert not (main / ".claude" / "settings.json").exists(), "pytest kept the main"
        else:
            found.append(first_denied(main, [call], env, cwd=worktree))
    assert found[0] is not None, "the hook allows pytest to remove the main checkout"





# --- V1: python3 -m venv --clear empties the folder it names ----------------------------------

#: ``venv --clear DIR`` removes every entry of DIR before it makes the environment there
#: (``EnvBuilder.clear_directory``), the working folder and its parents included.
CLEARED = {"dot": "python3 -m venv --without-pip --clear .",
           "dot-last": "python3 -m venv --without-pip . --clear",
           "absolute": "python3 -m venv --without-pip --clear {project}",
           "parent": "python3 -m venv --without-pip --clear ..",
           "home": "python3 -m venv --without-pip --clear {home}"}


@pytest.mark.parametrize("case", list(CLEARED))
def test_v1_venv_clear_empties_a_folder_holding_the_settings(tmp_path: Path, case: str) -> None:
    """``python3 -m venv --clear DIR`` removes everything in DIR, then makes a virtual
    environment there. Plan ``Bash(python3 -m venv *)`` alone (a setup skill's usual grant):
    ``--clear .`` (or the project by its path, its parent, the home) is allowed and removes
    ``.claude/settings.json`` (the gate's hook) with the rest; ``--clear .claude`` and
    ``--clear .git`` are denied (a word naming a guarded path), and ``--clear .venv`` is the
    entry's own use. pytest's ``--basetemp`` (B1) is the same class: a program outside the
    writers' lists removing a folder its option names."""
    needs("python3")
    found: list[str | None] = []
    for side in ("proof", "run"):
        root = tmp_path / side
        project, env = _project_and_home(root, ["Bash(python3 -m venv *)"])
        call = CLEARED[case].format(project=project, home=root / "home")
        if side == "proof":
            subprocess.run(["bash", "-c", call], cwd=project, env=env, capture_output=True,
                           timeout=120, check=False)
            settings = (root / "home" if case == "home" else project) / ".claude"
            assert not (settings / "settings.json").exists(), "venv kept the settings"
        else:
            found.append(first_denied(project, [call], env))
    assert found[0] is not None, "the hook allows venv to empty a folder holding the settings"


