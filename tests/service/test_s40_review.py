"""Session-40 review of 9b43ed4 (the service keeps the guarded set whole): each test is a
sequence of filesystem changes after which the service's view must answer
``guards.guarded_items`` as the system does afresh (what a fresh ``skillgrant hook`` process
asks). A test that fails here is a finding (report: /work/wt/reports/s40-review-report.md)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from serving import start

from skillgrant.gate import files, guards
from skillgrant.service.watched import Watched, watched

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="no git here")


@pytest.fixture
def view() -> Iterator[Watched]:
    found = watched()
    if found is None:
        pytest.skip("inotify is not to be had here")
    yield found
    found.close()


def _git(*args: str | Path, cwd: Path | None = None) -> None:
    subprocess.run(["git", *map(str, args)], check=True, capture_output=True, cwd=cwd)


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ("XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_DIR", "GIT_CONFIG_SYSTEM",
                 "GIT_COMMON_DIR", "GIT_CONFIG", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS",
                 "GIT_TEMPLATE_DIR", "GIT_EXEC_PATH", "BASH_ENV", "ENV"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    return home


def _guarded(view: Watched | None, plan: Path, cwd: str, project: str
             ) -> tuple[tuple[str, bool], ...]:
    files.use(view)
    try:
        return guards.guarded_items(str(plan), None, None, cwd, project)
    finally:
        files.use(None)


def _differential(view: Watched, plan: Path, cwd: str, project: str,
                  change: Callable[[], object], *, must_keep: bool = True) -> None:
    """The kept answer equals the system's before ``change``, and after it and a refresh."""
    view.refresh()
    for _ in range(2):
        assert _guarded(view, plan, cwd, project) == _guarded(None, plan, cwd, project)
    if must_keep:
        assert view._composites, "kept whole (the setup is one the service keeps)"
    change()
    view.refresh()
    fresh = _guarded(None, plan, cwd, project)
    kept = _guarded(view, plan, cwd, project)
    assert set(fresh) - set(kept) == set(), "guarded afresh, not by the service"
    assert kept == fresh


# --- R1: a file read through a folder link is neither watched nor made unkept -----------

def _stow(home: Path, kind: str) -> Path:
    """Git's user configuration in a dotfiles folder, linked into ``~/.config`` as GNU stow
    does; the real configuration file."""
    dot = home / "dotfiles" / "git" / ".config" / "git"
    dot.mkdir(parents=True)
    (dot / "config").write_text("[user]\n\tname = someone\n")
    if kind == "config-git-link":
        (home / ".config").mkdir()
        (home / ".config" / "git").symlink_to("../dotfiles/git/.config/git")
    else:
        (home / ".config").symlink_to("dotfiles/git/.config")
    return dot / "config"


@pytest.mark.parametrize("kind", ["config-git-link", "config-link"])
@pytest.mark.parametrize("how", ["git-config-global", "appended"])
def test_r1_git_config_through_a_stow_link(view: Watched, tmp_path: Path, clean_env: Path,
                                          kind: str, how: str) -> None:
    config = _stow(clean_env, kind)
    repo = tmp_path / "repo"
    _git("init", "-q", repo)
    hooks = tmp_path / "hooks"

    def change() -> None:
        if how == "appended":
            with open(config, "a") as f:
                f.write(f"[core]\n\thooksPath = {hooks}\n")
        else:
            _git("config", "--global", "core.hooksPath", hooks)

    _differential(view, tmp_path / "plan.json", str(repo), str(repo), change)


def _hook(plan: Path, payload: dict[str, object], env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "skillgrant", "hook", "--plan", str(plan)],
                          input=json.dumps(payload), capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)
    return done.stdout + done.stderr


def test_r1_end_to_end_the_service_allows_a_write_to_the_hooks_folder(
        tmp_path: Path, clean_env: Path) -> None:
    """Through a real service and a real hook process: after `git config --global
    core.hooksPath` (the configuration in a stow-linked ``~/.config/git``), an Edit of a hook
    is denied by the hook, and must be by the service."""
    _stow(clean_env, "config-git-link")
    work = tmp_path / "work"
    _git("init", "-q", work)
    (work / "hooks").mkdir()
    target = work / "hooks" / "pre-commit"
    target.write_text("#!/bin/sh\n")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{work}/**)"]}))
    payload = {"session_id": "s", "cwd": str(work), "hook_event_name": "PreToolUse",
               "tool_name": "Edit", "tool_input": {"file_path": str(target),
                                                   "old_string": "#", "new_string": "#"}}
    env = {**os.environ}
    with start([f"p={plan}"], env=env) as served:
        for _ in range(3):
            assert served.post("/v1/hook/p", payload).body == b""
        assert '"deny"' not in _hook(plan, payload, env, work)
        _git("config", "--global", "core.hooksPath", work / "hooks")
        fresh = _hook(plan, payload, env, work)
        assert '"deny"' in fresh, fresh
        served_answer = served.post("/v1/hook/p", payload).body
        assert b'"deny"' in served_answer, (served_answer, fresh)
