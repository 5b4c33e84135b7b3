"""Session-40 review of 9b43ed4 (the service keeps the guarded set whole): each test is a
sequence of filesystem changes after which the service's view must answer
``guards.guarded_items`` as the system does afresh (what a fresh ``skillgrant hook`` process
asks). A test that fails here is a finding (report: /work/wt/reports/s40-review-report.md)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest
from serving import start

from skillgrant.gate import files, guards, named
from skillgrant.gate.guardedset import GUARDED
from skillgrant.service.watched import Watched

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="no git here")




def _git(*args: str | Path, cwd: Path | None = None) -> None:
    subprocess.run(["git", *map(str, args)], check=True, capture_output=True, cwd=cwd)


@pytest.fixture
def quiet_path(tmp_path: Path) -> Iterator[Path]:
    """``tmp_path``, or a folder under ``$S40_QUIET``: the service forgets its kept set at any
    entry made or removed in any folder above the call's (`/tmp` on a busy machine), so an
    end-to-end reproduction may pass by luck there; under a quiet folder it fails every time
    on 9b43ed4."""
    base = os.environ.get("S40_QUIET")
    if not base:
        yield tmp_path
        return
    import tempfile

    found = Path(tempfile.mkdtemp(prefix="s40q-", dir=base))
    yield found
    shutil.rmtree(found, ignore_errors=True)


@pytest.fixture
def quiet_home(quiet_path: Path, clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``clean_env``'s environment with the home folder under ``quiet_path``."""
    home = quiet_path / "home"
    home.mkdir(exist_ok=True)  # (``clean_env``'s own when ``quiet_path`` is ``tmp_path``)
    monkeypatch.setenv("HOME", str(home))
    return home


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
    """The guarded set; a ValueError's text as its one item (a file with a second name:
    every call is denied, review s41 H1)."""
    files.use(view)
    try:
        return guards.guarded_items(str(plan), None, None, cwd, project)
    except ValueError as e:
        return ((str(e), False),)
    finally:
        files.use(None)


def _differential(view: Watched, plan: Path, cwd: str, project: str,
                  change: Callable[[], object]) -> bool:
    """The kept answer equals the system's before ``change``, and after it and a refresh
    (the soundness property only: a fixed view may keep less); whether the set was kept
    whole before the change (printed, for the counts of the report)."""
    view.refresh()
    for _ in range(2):
        assert _guarded(view, plan, cwd, project) == _guarded(None, plan, cwd, project)
    was_kept = bool(view._composites)
    print("KEPT" if was_kept else "UNKEPT", "before the change")
    change()
    view.refresh()
    fresh = _guarded(None, plan, cwd, project)
    kept = _guarded(view, plan, cwd, project)
    assert set(fresh) - set(kept) == set(), "guarded afresh, not by the service"
    assert kept == fresh
    return was_kept


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


def _hook(plan: Path, payload: Mapping[str, object], env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-P", "-m", "skillgrant", "hook", "--plan", str(plan)],
                          input=json.dumps(payload), capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)
    return done.stdout + done.stderr


@pytest.mark.slow
def test_r1_end_to_end_the_service_allows_a_write_to_the_hooks_folder(
        quiet_path: Path, quiet_home: Path) -> None:
    """Through a real service and a real hook process: after `git config --global
    core.hooksPath` (the configuration in a stow-linked ``~/.config/git``), an Edit of a hook
    is denied by the hook, and must be by the service."""
    tmp_path = quiet_path
    _stow(quiet_home, "config-git-link")
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


# --- Scenarios: (setup -> (cwd, project, change)); each is one change sequence ----------

class World:
    def __init__(self, tmp: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.tmp, self.home, self.mp = tmp, home, monkeypatch
        self.repo = tmp / "repo"
        self.other = tmp / "other"
        self.hooks = tmp / "hooks"


def _worktree(w: World) -> Path:
    _git("init", "-q", w.repo)
    _git("-C", w.repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
         "--allow-empty", "-m", "x", "--no-gpg-sign")
    _git("-C", w.repo, "worktree", "add", "-q", w.tmp / "wt")
    return next((w.repo / ".git" / "worktrees").iterdir())


def _append(path: Path, text: str) -> None:
    with open(path, "a") as f:
        f.write(text)


def _s_xdg_link(w: World) -> tuple[str, str, Callable[[], object]]:
    """XDG_CONFIG_HOME is a link to a dotfiles folder."""
    (w.tmp / "dots" / "git").mkdir(parents=True)
    (w.tmp / "dots" / "git" / "config").write_text("[user]\n\tname = x\n")
    (w.tmp / "xdg").symlink_to("dots")
    w.mp.setenv("XDG_CONFIG_HOME", str(w.tmp / "xdg"))
    _git("init", "-q", w.repo)
    return str(w.repo), str(w.repo), lambda: _git("config", "--global", "core.hooksPath",
                                                  w.hooks)


def _s_xdg_dot(w: World) -> tuple[str, str, Callable[[], object]]:
    """XDG_CONFIG_HOME is absolute but not normalized (`/./`): no link anywhere."""
    (w.tmp / "xdg" / "git").mkdir(parents=True)
    (w.tmp / "xdg" / "git" / "config").write_text("[user]\n\tname = x\n")
    w.mp.setenv("XDG_CONFIG_HOME", f"{w.tmp}/./xdg")
    _git("init", "-q", w.repo)
    return str(w.repo), str(w.repo), lambda: _append(
        w.tmp / "xdg" / "git" / "config", f"[core]\n\thooksPath = {w.hooks}\n")


def _s_home_double_slash(w: World) -> tuple[str, str, Callable[[], object]]:
    """HOME written with `//`: ~/.gitconfig is read by a path that is not normalized."""
    (w.home / ".gitconfig").write_text("[user]\n\tname = x\n")
    (w.home / ".config" / "git").mkdir(parents=True)  # both of git's user files there
    (w.home / ".config" / "git" / "config").write_text("[user]\n\tname = x\n")
    w.mp.setenv("HOME", str(w.home).replace("/home", "//home"))
    _git("init", "-q", w.repo)
    return str(w.repo), str(w.repo), lambda: _append(
        w.home / ".gitconfig", f"[core]\n\thooksPath = {w.hooks}\n")


def _s_worktree_gitdir_link_config(w: World) -> tuple[str, str, Callable[[], object]]:
    """A linked worktree whose `.git` file names a link to its git folder, with a
    `config.worktree` (extensions.worktreeConfig)."""
    gd = _worktree(w)
    _git("-C", w.repo, "config", "extensions.worktreeConfig", "true")
    (gd / "config.worktree").write_text("[user]\n\tname = x\n")
    (w.tmp / "gdlink").symlink_to(gd)
    (w.tmp / "wt" / ".git").write_text(f"gitdir: {w.tmp / 'gdlink'}\n")
    return str(w.tmp / "wt"), str(w.tmp / "wt"), lambda: _git(
        "-C", w.tmp / "wt", "config", "--worktree", "core.hooksPath", w.hooks)


def _s_worktree_gitdir_link_commondir(w: World) -> tuple[str, str, Callable[[], object]]:
    """The same worktree; its `commondir` rewritten in place to another repository."""
    gd = _worktree(w)
    _git("init", "-q", w.other)
    (gd / "config.worktree").write_text("[user]\n\tname = x\n")
    (w.tmp / "gdlink").symlink_to(gd)
    (w.tmp / "wt" / ".git").write_text(f"gitdir: {w.tmp / 'gdlink'}\n")
    return str(w.tmp / "wt"), str(w.tmp / "wt"), lambda: (gd / "commondir").write_text(
        f"{w.other / '.git'}\n")


def _s_ancestor_git_dir(w: World) -> tuple[str, str, Callable[[], object]]:
    """A repository appears above the call's repository (a superproject)."""
    (w.tmp / "up").mkdir()
    _git("init", "-q", w.tmp / "up" / "repo")
    return str(w.tmp / "up" / "repo"), str(w.tmp / "up" / "repo"), lambda: _git(
        "init", "-q", w.tmp / "up")


def _s_ancestor_git_file(w: World) -> tuple[str, str, Callable[[], object]]:
    """A `.git` file appears in an ancestor of a folder in no repository."""
    (w.tmp / "a" / "b").mkdir(parents=True)
    _git("init", "-q", w.other)
    return str(w.tmp / "a" / "b"), str(w.tmp / "a" / "b"), lambda: (
        w.tmp / "a" / ".git").write_text(f"gitdir: {w.other / '.git'}\n")


def _s_ancestor_renamed(w: World) -> tuple[str, str, Callable[[], object]]:
    """The call's folder's grandparent renamed away and replaced by a repository."""
    (w.tmp / "a" / "b").mkdir(parents=True)

    def change() -> None:
        (w.tmp / "a").rename(w.tmp / "a-old")
        (w.tmp / "a" / "b").mkdir(parents=True)
        _git("init", "-q", w.tmp / "a")
    return str(w.tmp / "a" / "b"), str(w.tmp / "a" / "b"), change


def _s_git_folder_to_link(w: World) -> tuple[str, str, Callable[[], object]]:
    """The `.git` folder renamed away and replaced by a link to another repository's."""
    _git("init", "-q", w.repo)
    _git("init", "-q", w.other)

    def change() -> None:
        (w.repo / ".git").rename(w.tmp / "old-git")
        (w.repo / ".git").symlink_to(w.other / ".git")
    return str(w.repo), str(w.repo), change


def _s_gitconfig_renamed_over(w: World) -> tuple[str, str, Callable[[], object]]:
    """~/.gitconfig replaced by rename (as `sed -i` and editors do)."""
    (w.home / ".gitconfig").write_text("[user]\n\tname = x\n")
    _git("init", "-q", w.repo)

    def change() -> None:
        (w.tmp / "new").write_text(f"[core]\n\thooksPath = {w.hooks}\n")
        (w.tmp / "new").rename(w.home / ".gitconfig")
    return str(w.repo), str(w.repo), change


def _s_config_hard_link_elsewhere(w: World) -> tuple[str, str, Callable[[], object]]:
    """~/.config/git/config is a hard link to a file in a folder nothing watches."""
    (w.tmp / "far" / "away").mkdir(parents=True)
    (w.tmp / "far" / "away" / "cfg").write_text("[user]\n\tname = x\n")
    (w.home / ".config" / "git").mkdir(parents=True)
    os.link(w.tmp / "far" / "away" / "cfg", w.home / ".config" / "git" / "config")
    _git("init", "-q", w.repo)
    return str(w.repo), str(w.repo), lambda: _append(
        w.tmp / "far" / "away" / "cfg", f"[core]\n\thooksPath = {w.hooks}\n")


def _s_xdg_made_deep(w: World) -> tuple[str, str, Callable[[], object]]:
    """XDG_CONFIG_HOME names folders that do not exist yet; they come with a config."""
    w.mp.setenv("XDG_CONFIG_HOME", str(w.tmp / "x1" / "x2" / "x3"))
    _git("init", "-q", w.repo)

    def change() -> None:
        (w.tmp / "x1" / "x2" / "x3" / "git").mkdir(parents=True)
        (w.tmp / "x1" / "x2" / "x3" / "git" / "config").write_text(
            f"[core]\n\thooksPath = {w.hooks}\n")
    return str(w.repo), str(w.repo), change


def _s_xdg_folder_moved_in(w: World) -> tuple[str, str, Callable[[], object]]:
    """A prepared folder holding git/config is renamed to be XDG_CONFIG_HOME."""
    w.mp.setenv("XDG_CONFIG_HOME", str(w.tmp / "xdg"))
    _git("init", "-q", w.repo)
    (w.tmp / "prep" / "git").mkdir(parents=True)
    (w.tmp / "prep" / "git" / "config").write_text(f"[core]\n\thooksPath = {w.hooks}\n")
    return str(w.repo), str(w.repo), lambda: (w.tmp / "prep").rename(w.tmp / "xdg")


def _s_path_chain_deep(w: World) -> tuple[str, str, Callable[[], object]]:
    """A PATH entry through a chain of links; the last link retargeted."""
    for name in ("bin1", "bin2", "links"):
        (w.tmp / name).mkdir()
    (w.tmp / "links" / "l3").symlink_to("../bin1")
    (w.tmp / "links" / "l2").symlink_to("l3")
    (w.tmp / "bin").symlink_to("links/l2")
    w.mp.setenv("PATH", f"{w.tmp / 'bin'}:/usr/bin:/bin")
    _git("init", "-q", w.repo)

    def change() -> None:
        (w.tmp / "links" / "l3").unlink()
        (w.tmp / "links" / "l3").symlink_to("../bin2")
    return str(w.repo), str(w.repo), change


def _s_path_folder_of_link_renamed(w: World) -> tuple[str, str, Callable[[], object]]:
    """The folder holding the PATH link's target's link renamed and replaced."""
    for name in ("bin1", "bin2"):
        (w.tmp / name).mkdir()
    (w.tmp / "links").mkdir()
    (w.tmp / "links" / "l").symlink_to("../bin1")
    (w.tmp / "bin").symlink_to("links/l")
    w.mp.setenv("PATH", f"{w.tmp / 'bin'}:/usr/bin:/bin")
    _git("init", "-q", w.repo)

    def change() -> None:
        (w.tmp / "links").rename(w.tmp / "links-old")
        (w.tmp / "links").mkdir()
        (w.tmp / "links" / "l").symlink_to("../bin2")
    return str(w.repo), str(w.repo), change


def _s_path_dotdot_target(w: World) -> tuple[str, str, Callable[[], object]]:
    """A PATH entry whose link target has `..` after a link (`sub/../bin1`, sub a link)."""
    for name in ("bin1", "bin2", "deep/er"):
        (w.tmp / name).mkdir(parents=True)
    (w.tmp / "sub").symlink_to("deep/er")
    (w.tmp / "bin").symlink_to("sub/../bin1")
    w.mp.setenv("PATH", f"{w.tmp / 'bin'}:/usr/bin:/bin")
    _git("init", "-q", w.repo)

    def change() -> None:
        (w.tmp / "deep" / "bin1").mkdir()
        (w.tmp / "sub").unlink()
        (w.tmp / "sub").symlink_to("deep/er2")
    return str(w.repo), str(w.repo), change


def _s_claude_folder_replaced(w: World) -> tuple[str, str, Callable[[], object]]:
    """The project's `.claude` folder replaced by a link elsewhere."""
    _git("init", "-q", w.repo)
    (w.repo / ".claude").mkdir()
    w.other.mkdir()

    def change() -> None:
        (w.repo / ".claude").rename(w.tmp / "claude-old")
        (w.repo / ".claude").symlink_to(w.other)
    return str(w.repo / "src"), str(w.repo), change


def _s_dot_git_file_rewritten(w: World) -> tuple[str, str, Callable[[], object]]:
    """A linked worktree's `.git` file rewritten in place to another worktree's git folder."""
    _worktree(w)
    _git("-C", w.repo, "worktree", "add", "-q", w.tmp / "wt2")
    second = (w.tmp / "wt2" / ".git").read_text()
    return str(w.tmp / "wt"), str(w.tmp / "wt"), lambda: (w.tmp / "wt" / ".git").write_text(
        second)


def _s_submodule_relative(w: World) -> tuple[str, str, Callable[[], object]]:
    """A submodule-like `.git` file with a relative gitdir; its config gets a hooksPath."""
    _git("init", "-q", w.repo)
    _git("init", "-q", w.repo / "sub")
    (w.repo / ".git" / "modules").mkdir()
    (w.repo / "sub" / ".git").rename(w.repo / ".git" / "modules" / "sub")
    (w.repo / "sub" / ".git").write_text("gitdir: ../.git/modules/sub\n")
    return str(w.repo / "sub"), str(w.repo / "sub"), lambda: _append(
        w.repo / ".git" / "modules" / "sub" / "config",
        f"[core]\n\thooksPath = {w.hooks}\n")


def _s_sys_executable_link(w: World) -> tuple[str, str, Callable[[], object]]:
    """The interpreter named through a link (a venv's `python`, `update-alternatives`)
    retargeted: the installation's folder is asked with `os.path.realpath` directly."""
    alt = w.tmp / "far" / "alternatives"  # a folder the view does not watch
    alt.mkdir(parents=True)
    (w.tmp / "py2").mkdir()
    (w.tmp / "py2" / "python3").write_text("another interpreter")
    (alt / "python3").symlink_to(os.path.realpath(sys.executable))
    (w.tmp / "python3").symlink_to(alt / "python3")
    w.mp.setattr(sys, "executable", str(w.tmp / "python3"))
    _git("init", "-q", w.repo)

    def change() -> None:
        (alt / "python3").unlink()
        (alt / "python3").symlink_to(w.tmp / "py2" / "python3")
    return str(w.repo), str(w.repo), change


def _s_cwd_through_a_link(w: World) -> tuple[str, str, Callable[[], object]]:
    """The call's folder named through a folder link (`_watch` stops at it: ENOTDIR); a
    `.git` file written beside the link's target's repository's folder."""
    (w.tmp / "real" / "repo" / "src").mkdir(parents=True)
    (w.tmp / "lnk").symlink_to("real")
    _git("init", "-q", w.other)
    return str(w.tmp / "lnk" / "repo" / "src"), str(w.tmp / "lnk" / "repo" / "src"), \
        lambda: (w.tmp / "real" / "repo" / ".git").write_text(
            f"gitdir: {w.other / '.git'}\n")


def _s_link_target_folder_replaced(w: World) -> tuple[str, str, Callable[[], object]]:
    """`~/.claude` a link to `dots/claude`; `dots` renamed away and replaced by a folder
    whose `claude` is a link elsewhere (the link's target's folder replaced)."""
    (w.home / "dots" / "claude").mkdir(parents=True)
    (w.home / ".claude").symlink_to("dots/claude")
    (w.tmp / "elsewhere").mkdir()
    _git("init", "-q", w.repo)

    def change() -> None:
        (w.home / "dots").rename(w.home / "dots-old")
        (w.home / "dots").mkdir()
        (w.home / "dots" / "claude").symlink_to(w.tmp / "elsewhere")
    return str(w.repo), str(w.repo), change


def _s_relative_link_chain_moved(w: World) -> tuple[str, str, Callable[[], object]]:
    """A PATH entry `bin -> a/b/l`, `l -> ../../bin1`; folder `a` moved under `x` and a new
    `a/b/l -> ../../bin2` made."""
    for name in ("bin1", "bin2", "a/b", "x"):
        (w.tmp / name).mkdir(parents=True)
    (w.tmp / "a" / "b" / "l").symlink_to("../../bin1")
    (w.tmp / "bin").symlink_to("a/b/l")
    w.mp.setenv("PATH", f"{w.tmp / 'bin'}:/usr/bin:/bin")
    _git("init", "-q", w.repo)

    def change() -> None:
        (w.tmp / "a").rename(w.tmp / "x" / "a")
        (w.tmp / "a" / "b").mkdir(parents=True)
        (w.tmp / "a" / "b" / "l").symlink_to("../../bin2")
    return str(w.repo), str(w.repo), change


def _exchange(a: Path, b: Path) -> None:
    """`renameat2(RENAME_EXCHANGE)`: two entries swapped at once."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    at_fdcwd, exchange = -100, 2
    if libc.renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), exchange) != 0:
        raise OSError(ctypes.get_errno(), "renameat2", str(a))


def _s_ancestor_exchanged(w: World) -> tuple[str, str, Callable[[], object]]:
    """The call's repository's folder swapped at once with one holding another repository
    whose configuration names a hooks folder."""
    (w.tmp / "a" / "repo" / "src").mkdir(parents=True)
    _git("init", "-q", w.tmp / "a" / "repo")
    (w.tmp / "b" / "repo" / "src").mkdir(parents=True)
    _git("init", "-q", w.tmp / "b" / "repo")
    _append(w.tmp / "b" / "repo" / ".git" / "config", f"[core]\n\thooksPath = {w.hooks}\n")
    return str(w.tmp / "a" / "repo" / "src"), str(w.tmp / "a" / "repo" / "src"), \
        lambda: _exchange(w.tmp / "a", w.tmp / "b")


def _s_config_exchanged(w: World) -> tuple[str, str, Callable[[], object]]:
    """~/.gitconfig swapped at once with a file naming a hooks folder."""
    (w.home / ".gitconfig").write_text("[user]\n\tname = x\n")
    (w.home / "other").write_text(f"[core]\n\thooksPath = {w.hooks}\n")
    _git("init", "-q", w.repo)
    return str(w.repo), str(w.repo), lambda: _exchange(w.home / ".gitconfig",
                                                       w.home / "other")


SCENARIOS: dict[str, Callable[[World], tuple[str, str, Callable[[], object]]]] = {
    "xdg-link": _s_xdg_link,
    "xdg-dot": _s_xdg_dot,
    "home-double-slash": _s_home_double_slash,
    "worktree-gitdir-link-config": _s_worktree_gitdir_link_config,
    "worktree-gitdir-link-commondir": _s_worktree_gitdir_link_commondir,
    "ancestor-git-dir": _s_ancestor_git_dir,
    "ancestor-git-file": _s_ancestor_git_file,
    "ancestor-renamed": _s_ancestor_renamed,
    "git-folder-to-link": _s_git_folder_to_link,
    "gitconfig-renamed-over": _s_gitconfig_renamed_over,
    "config-hard-link-elsewhere": _s_config_hard_link_elsewhere,
    "xdg-made-deep": _s_xdg_made_deep,
    "xdg-folder-moved-in": _s_xdg_folder_moved_in,
    "path-chain-deep": _s_path_chain_deep,
    "path-folder-of-link-renamed": _s_path_folder_of_link_renamed,
    "path-dotdot-target": _s_path_dotdot_target,
    "claude-folder-replaced": _s_claude_folder_replaced,
    "dot-git-file-rewritten": _s_dot_git_file_rewritten,
    "submodule-relative": _s_submodule_relative,
    "sys-executable-link": _s_sys_executable_link,
    "cwd-through-a-link": _s_cwd_through_a_link,
    "link-target-folder-replaced": _s_link_target_folder_replaced,
    "relative-link-chain-moved": _s_relative_link_chain_moved,
    "ancestor-exchanged": _s_ancestor_exchanged,
    "config-exchanged": _s_config_exchanged,
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_scenario(view: Watched, tmp_path: Path, clean_env: Path,
                  monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    cwd, project, change = SCENARIOS[name](World(tmp_path, clean_env, monkeypatch))
    os.makedirs(cwd, exist_ok=True)
    _differential(view, tmp_path / "plan.json", cwd, project, change)


# --- R3: a folder read through the view --------------------------------------------------

def _error(view: files.View, path: str) -> str:
    try:
        view.read(path, 100)
    except OSError as e:
        return f"{type(e).__name__}: {e}"
    return "read"


def test_r3_a_folder_read_fails_as_the_systems_and_leaks_nothing(view: Watched,
                                                                tmp_path: Path) -> None:
    folder = str(tmp_path)
    assert _error(view, folder) == _error(files.System(), folder)
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(50):
        _error(view, folder)
    assert len(os.listdir("/proc/self/fd")) == before, "descriptors left open"


def test_r3_a_worktree_whose_commondir_is_a_folder_is_denied_alike(
        view: Watched, tmp_path: Path, clean_env: Path, monkeypatch: pytest.MonkeyPatch
        ) -> None:
    w = World(tmp_path, clean_env, monkeypatch)
    gd = _worktree(w)
    (gd / "commondir").unlink()
    (gd / "commondir").mkdir()
    said = [_guarded(v, tmp_path / "plan.json", str(tmp_path / "wt"), str(tmp_path / "wt"))
            for v in (None, view)]
    assert said[0] == said[1] and len(said[0]) == 1 and "commondir" in said[0][0][0]


# --- R4: a watch registered after a refresh forgot its folder ----------------------------

class _Interleaved:
    """The view's libc, with one interleaving of two threads made certain: right after the
    kernel returns the watch of ``folder`` (a decision in a hook thread), ``meanwhile`` runs
    (the event loop: a change, and the refresh before the next request), and only then does
    the decision's thread go on to record the watch."""

    def __init__(self, libc: object, folder: str, meanwhile: Callable[[], object]) -> None:
        self._libc, self._folder = libc, os.fsencode(folder)
        self._meanwhile: Callable[[], object] | None = meanwhile

    def inotify_add_watch(self, fd: int, name: bytes, mask: int) -> int:
        wd = int(self._libc.inotify_add_watch(fd, name, mask))  # type: ignore[attr-defined]
        if name == self._folder and self._meanwhile:
            meanwhile, self._meanwhile = self._meanwhile, None
            meanwhile()
        return wd

    def __getattr__(self, name: str) -> object:
        return getattr(self._libc, name)


def test_r4_a_folder_replaced_while_a_thread_watches_it(
        view: Watched, tmp_path: Path, clean_env: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    cwd = str(tmp_path / "a" / "b")
    plan = tmp_path / "plan.json"
    _git("init", "-q", tmp_path / "other")

    def loop_thread() -> None:  # `a` replaced; the loop's refresh before the next request
        (tmp_path / "a").rename(tmp_path / "a-old")
        (tmp_path / "a" / "b").mkdir(parents=True)
        view.refresh()

    view._libc = _Interleaved(view._libc, str(tmp_path / "a"), loop_thread)  # type: ignore
    view.refresh()
    _guarded(view, plan, cwd, cwd)  # the decision in a hook thread
    view.refresh()
    assert _guarded(view, plan, cwd, cwd) == _guarded(None, plan, cwd, cwd)
    # the call's folder now in a linked repository whose git folder is elsewhere
    (tmp_path / "a" / ".git").write_text(f"gitdir: {tmp_path / 'other' / '.git'}\n")
    view.refresh()
    fresh = _guarded(None, plan, cwd, cwd)
    assert set(fresh) - set(_guarded(view, plan, cwd, cwd)) == set()


class _NoMoreWatches:
    """The view's libc when the user's inotify watches are used up (``max_user_watches``,
    shared by every process of the user: editors, file indexers) for new inodes."""

    def __init__(self, libc: object, refused: str) -> None:
        self._libc, self._refused = libc, os.fsencode(refused)

    def inotify_add_watch(self, fd: int, name: bytes, mask: int) -> int:
        if name == self._refused:
            import ctypes
            import errno

            ctypes.set_errno(errno.ENOSPC)
            return -1
        return int(self._libc.inotify_add_watch(fd, name, mask))  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self._libc, name)


def test_r1_a_config_file_whose_watch_is_refused(view: Watched, tmp_path: Path,
                                                 clean_env: Path) -> None:
    """No link at all: ``inotify_add_watch`` refuses the file's watch (ENOSPC), the read
    succeeds, and the set is kept anyway."""
    (clean_env / ".gitconfig").write_text("[user]\n\tname = x\n")
    _git("init", "-q", tmp_path / "repo")
    view._libc = _NoMoreWatches(view._libc, str(clean_env / ".gitconfig"))  # type: ignore
    _differential(view, tmp_path / "plan.json", str(tmp_path / "repo"), str(tmp_path / "repo"),
                  lambda: _append(clean_env / ".gitconfig",
                                  f"[core]\n\thooksPath = {tmp_path / 'hooks'}\n"))


@pytest.fixture
def mounts() -> Iterator[list[Path]]:
    made: list[Path] = []
    yield made
    for point in reversed(made):
        subprocess.run(["umount", "-l", str(point)], check=False, capture_output=True)


def _bind(source: Path, target: Path, made: list[Path]) -> None:
    done = subprocess.run(["mount", "--bind", str(source), str(target)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"no bind mount here: {done.stderr!r}")
    made.append(target)


@pytest.mark.parametrize("where", ["git-folder", "config-git", "gitconfig-file", "ancestor"])
def test_a_bind_mount_over_a_place_the_set_rests_on(
        view: Watched, tmp_path: Path, clean_env: Path, mounts: list[Path], where: str) -> None:
    repo, other = tmp_path / "repo", tmp_path / "other"
    _git("init", "-q", repo)
    _git("init", "-q", other)
    (repo / "src").mkdir()
    (other / ".git" / "config").write_text(f"[core]\n\thooksPath = {tmp_path / 'hooks'}\n")
    (clean_env / ".config" / "git").mkdir(parents=True)
    (clean_env / ".gitconfig").write_text("[user]\n\tname = x\n")
    (tmp_path / "evil").mkdir()
    (tmp_path / "evil" / "config").write_text(f"[core]\n\thooksPath = {tmp_path / 'hooks'}\n")
    (tmp_path / "sub" / "src").mkdir(parents=True)
    (tmp_path / "sub" / ".git").write_text(f"gitdir: {other / '.git'}\n")
    change = {
        "git-folder": lambda: _bind(other / ".git", repo / ".git", mounts),
        "config-git": lambda: _bind(tmp_path / "evil", clean_env / ".config" / "git", mounts),
        "gitconfig-file": lambda: _bind(tmp_path / "evil" / "config", clean_env / ".gitconfig",
                                        mounts),
        "ancestor": lambda: _bind(tmp_path / "sub", repo, mounts),
    }[where]
    _differential(view, tmp_path / "plan.json", str(repo / "src"), str(repo / "src"), change)


@pytest.mark.slow
def test_r5_a_fifo_named_dot_git_does_not_stop_the_service(tmp_path: Path) -> None:
    """A `.git` FIFO in the call's folder: the gate opens it to read a gitdir line, and the
    open waits for a writer. A hook process waits alone (until the runtime's hook timeout);
    the service must still answer other calls (inline decisions run on its event loop)."""
    work, sub = tmp_path / "work", tmp_path / "work" / "sub"
    sub.mkdir(parents=True)
    os.mkfifo(sub / ".git")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{work}/**)"]}))

    def payload(cwd: Path) -> dict[str, object]:
        return {"session_id": "s", "cwd": str(cwd), "hook_event_name": "PreToolUse",
                "tool_name": "Edit", "tool_input": {"file_path": str(work / "notes.txt"),
                                                    "old_string": "a", "new_string": "b"}}

    with start([f"p={plan}"]) as served:
        assert served.post("/v1/hook/p", payload(work)).body == b""
        with contextlib.suppress(TimeoutError):  # (a fixed service answers it: deny)
            served.post("/v1/hook/p", payload(sub), timeout=3)
        try:
            answered = served.post("/v1/hook/p", payload(work), timeout=10).body
        except TimeoutError:
            answered = None
        finally:
            # a writer, without waiting for a reader: the waiting open, if any, returns
            # (ENXIO when there is none: a service that did not open the FIFO)
            with contextlib.suppress(OSError):
                os.close(os.open(sub / ".git", os.O_WRONLY | os.O_NONBLOCK))
        assert answered == b"", "the service stopped answering every session"


# --- R6: overlayfs is taken as reporting every change, but a change made in its upper layer
# (written at the layer's own path) is reported to no watch on the merged folder ----------

def test_r6_a_change_in_an_overlays_upper_layer(view: Watched, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 mounts: list[Path]) -> None:
    lower, upper, work, merged = (tmp_path / n for n in ("lower", "upper", "work", "merged"))
    for folder in (lower, upper, work, merged):
        folder.mkdir()
    done = subprocess.run(["mount", "-t", "overlay", "overlay", "-o",
                           f"lowerdir={lower},upperdir={upper},workdir={work}", str(merged)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"no overlay mount here: {done.stderr!r}")
    mounts.append(merged)
    home = merged / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = x\n")  # made in the merged folder
    (home / ".config" / "git").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    for name in ("XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_DIR", "GIT_CONFIG_SYSTEM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    repo = tmp_path / "repo"
    _git("init", "-q", repo)
    _differential(view, tmp_path / "plan.json", str(repo), str(repo), lambda: _append(
        upper / "home" / ".gitconfig", f"[core]\n\thooksPath = {tmp_path / 'hooks'}\n"))


# --- R9 (main after f225834): the guarded set's index builds its files' identities in place,
# and another thread's lookup may see them half built ------------------------------------

def test_r9_a_hard_link_to_the_plan_looked_up_while_another_thread_builds_the_index(
        tmp_path: Path) -> None:
    plan, other, unrelated = tmp_path / "plan.json", tmp_path / "other", tmp_path / "x"
    for path in (plan, other, unrelated):
        path.write_text("{}")
    link = tmp_path / "work" / "notes.txt"
    link.parent.mkdir()
    os.link(plan, link)
    seen: list[str | None] = []

    class Interleaved(files.System):
        """The system's answers; while the first thread asks the first guarded file's
        identity (``os.stat`` lets go of the GIL), a second thread's call looks its path up."""

        def identity(self, path: str) -> tuple[int, int, int] | None:
            if path == str(other) and not seen:
                seen.append(None)
                seen[0] = named.guarded_path(str(link))  # the second thread's call
            return super().identity(path)

    token = GUARDED.set(((str(other), False), (str(plan), False)))
    files.use(Interleaved())
    try:
        assert named.guarded_path(str(unrelated)) is None  # the first thread's call
        alone = named.guarded_path(str(link))
    finally:
        files.use(None)
        GUARDED.reset(token)
    assert alone == str(plan)
    assert seen == [str(plan)], "a hard link to the plan not seen by the second thread"


def test_r7_a_repository_named_in_another_case_in_a_casefolded_folder(
        view: Watched, tmp_path: Path, clean_env: Path, mounts: list[Path]) -> None:
    """A case-insensitive folder (tmpfs mounted with casefold, the folder `chattr +F`): the
    view asked about `F/.git` (none); `F/.GIT` made, which git and the system find as `.git`;
    the event names `.GIT`. (Skipped where the kernel has no casefold: CONFIG_UNICODE.)"""
    disk = tmp_path / "cf"
    disk.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "casefold", "tmpfs", str(disk)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"no casefolded tmpfs here: {done.stderr!r}")
    mounts.append(disk)
    folder = disk / "F"
    folder.mkdir()
    if subprocess.run(["chattr", "+F", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("no case-insensitive folder here")
    (folder / "sub").mkdir()
    _git("init", "-q", tmp_path / "donor")
    cwd = str(folder / "sub")

    def change() -> None:
        shutil.copytree(tmp_path / "donor" / ".git", folder / ".GIT")
        _append(folder / ".GIT" / "config", f"[core]\n\thooksPath = {tmp_path / 'hooks'}\n")

    _differential(view, tmp_path / "plan.json", cwd, cwd, change)


@pytest.mark.slow
def test_an_overflowed_queue_forgets_the_set(view: Watched, tmp_path: Path,
                                            clean_env: Path) -> None:
    """More events than the queue holds (``max_queued_events``), the change that matters
    among the last ones (dropped by the kernel, IN_Q_OVERFLOW queued instead)."""
    try:
        limit = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())
    except OSError:
        pytest.skip("no inotify limits here")
    if limit > 100_000:
        pytest.skip("a queue too long to fill in a test")
    repo = tmp_path / "repo"
    _git("init", "-q", repo)

    def change() -> None:
        for i in range(limit // 2 + 10):  # two events each: created, deleted
            (repo / f"f{i}").touch()
            (repo / f"f{i}").unlink()
        _append(repo / ".git" / "config", f"[core]\n\thooksPath = {tmp_path / 'hooks'}\n")

    _differential(view, tmp_path / "plan.json", str(repo), str(repo), change)


# --- R10 (pre-existing, both hook and service): the user's settings under CLAUDE_CONFIG_DIR

def test_r10_the_users_settings_under_claude_config_dir_are_guarded(
        tmp_path: Path, clean_env: Path) -> None:
    """Claude Code reads the user's settings from `$CLAUDE_CONFIG_DIR/settings.json` when it
    is set (docs/decisions.md, "Which files"), and a `disableAllHooks` there switches every
    hook off (measured, R-1..R-3). The gate guards `~/.claude`, and must guard that file."""
    conf, work = tmp_path / "conf", tmp_path / "work"
    conf.mkdir()
    work.mkdir()
    (conf / "settings.json").write_text("{}")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{tmp_path}/**)"]}))
    payload = {"session_id": "s", "cwd": str(work), "hook_event_name": "PreToolUse",
               "tool_name": "Edit", "tool_input": {
                   "file_path": str(conf / "settings.json"), "old_string": "{}",
                   "new_string": '{"disableAllHooks": true}'}}
    said = _hook(plan, payload, {**os.environ, "CLAUDE_CONFIG_DIR": str(conf)}, work)
    assert '"deny"' in said, "the user's settings file may be written"


def _served_and_fresh(tmp_path: Path, work: Path, env: dict[str, str],
                      change: Callable[[], object]) -> tuple[bytes, str]:
    """A real service and a real hook process, same plan, environment and folder: an Edit of
    `work/hooks/pre-commit`, allowed by both before ``change``; their answers after it."""
    (work / "hooks").mkdir(exist_ok=True)
    target = work / "hooks" / "pre-commit"
    target.write_text("#!/bin/sh\n")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{work}/**)"]}))
    payload = {"session_id": "s", "cwd": str(work), "hook_event_name": "PreToolUse",
               "tool_name": "Edit", "tool_input": {"file_path": str(target),
                                                   "old_string": "#", "new_string": "#"}}
    with start([f"p={plan}"], env=env) as served:
        for _ in range(3):
            assert served.post("/v1/hook/p", payload).body == b""
        assert '"deny"' not in _hook(plan, payload, env, work)
        change()
        fresh = _hook(plan, payload, env, work)
        return served.post("/v1/hook/p", payload).body, fresh


@pytest.mark.slow
def test_r6_end_to_end_overlay_upper_layer(quiet_path: Path, quiet_home: Path,
                                          mounts: list[Path]) -> None:
    tmp_path = quiet_path
    lower, upper, work_dir, merged = (tmp_path / n for n in ("lower", "upper", "ow", "merged"))
    for folder in (lower, upper, work_dir, merged):
        folder.mkdir()
    done = subprocess.run(["mount", "-t", "overlay", "overlay", "-o",
                           f"lowerdir={lower},upperdir={upper},workdir={work_dir}",
                           str(merged)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"no overlay mount here: {done.stderr!r}")
    mounts.append(merged)
    home = merged / "home"
    (home / ".config" / "git").mkdir(parents=True)
    (home / ".gitconfig").write_text("[user]\n\tname = x\n")
    work = tmp_path / "work"
    _git("init", "-q", work)
    env = {**os.environ, "HOME": str(home)}
    served, fresh = _served_and_fresh(tmp_path, work, env, lambda: _append(
        upper / "home" / ".gitconfig", f"[core]\n\thooksPath = {work / 'hooks'}\n"))
    assert '"deny"' in fresh, fresh
    assert b'"deny"' in served, (served, fresh)


@pytest.mark.slow
def test_r1_end_to_end_xdg_config_home_not_normalized(quiet_path: Path,
                                                      quiet_home: Path) -> None:
    tmp_path = quiet_path
    xdg = tmp_path / "xdg"
    (xdg / "git").mkdir(parents=True)
    (xdg / "git" / "config").write_text("[user]\n\tname = x\n")
    work = tmp_path / "work"
    _git("init", "-q", work)
    env = {**os.environ, "XDG_CONFIG_HOME": f"{tmp_path}/./xdg"}
    served, fresh = _served_and_fresh(tmp_path, work, env, lambda: _append(
        xdg / "git" / "config", f"[core]\n\thooksPath = {work / 'hooks'}\n"))
    assert '"deny"' in fresh, fresh
    assert b'"deny"' in served, (served, fresh)


@pytest.mark.parametrize("most", [pytest.param(8, marks=pytest.mark.slow), 30, 45, 60, 90])
def test_restarts_past_max_watches_keep_nothing_stale(
        view: Watched, tmp_path: Path, clean_env: Path, monkeypatch: pytest.MonkeyPatch,
        most: int) -> None:
    """MAX_WATCHES low enough that a set's questions pass it (the view starts over with a new
    descriptor mid-way, or at the next call): after a change, the system's answer."""
    import skillgrant.service.watched as watched_module

    monkeypatch.setattr(watched_module, "MAX_WATCHES", most)
    (clean_env / ".gitconfig").write_text("[user]\n\tname = x\n")
    repo = tmp_path / "a" / "b" / "repo"
    repo.mkdir(parents=True)
    _git("init", "-q", repo)
    plan = tmp_path / "plan.json"
    _git("init", "-q", tmp_path / "other")
    for change in (lambda: _append(clean_env / ".gitconfig",
                                   f"[core]\n\thooksPath = {tmp_path / 'hooks'}\n"),
                   lambda: (tmp_path / "a" / ".git").write_text(
                       f"gitdir: {tmp_path / 'other' / '.git'}\n")):
        _differential(view, plan, str(repo), str(repo), change)
        for _ in range(3):
            view.refresh()
            assert _guarded(view, plan, str(repo), str(repo)) == \
                _guarded(None, plan, str(repo), str(repo))


def test_the_key_holds_the_process_folder(view: Watched, tmp_path: Path, clean_env: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A relative plan and call folder are read from the process's folder: a set kept in one
    folder is not the answer in another."""
    for name in ("one", "two"):
        _git("init", "-q", tmp_path / name / "repo")
    _append(tmp_path / "two" / "repo" / ".git" / "config",
            f"[core]\n\thooksPath = {tmp_path / 'hooks'}\n")
    for name in ("one", "two", "one"):
        monkeypatch.chdir(tmp_path / name)
        view.refresh()
        kept = _guarded(view, Path("plan.json"), "repo", "repo")
        assert kept == _guarded(None, Path("plan.json"), "repo", "repo")


@pytest.mark.slow
def test_r5b_a_fifo_as_a_repositorys_config_does_not_stop_the_service(tmp_path: Path) -> None:
    """R5 through git: a nested repository's `.git/config` a FIFO. The gate's own read of it
    (non-blocking, a regular file only) takes it as "may mention a hooks folder" and asks git,
    whose read of it waits for a writer until `run_git`'s timeout (30 s), on the service's
    event loop: every other session must still be answered."""
    work, sub = tmp_path / "work", tmp_path / "work" / "sub"
    work.mkdir()
    _git("init", "-q", sub)
    (sub / ".git" / "config").unlink()
    os.mkfifo(sub / ".git" / "config")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{work}/**)"]}))

    def payload(cwd: Path) -> dict[str, object]:
        return {"session_id": "s", "cwd": str(cwd), "hook_event_name": "PreToolUse",
                "tool_name": "Edit", "tool_input": {"file_path": str(work / "notes.txt"),
                                                    "old_string": "a", "new_string": "b"}}

    with start([f"p={plan}"]) as served:
        assert served.post("/v1/hook/p", payload(work)).body == b""
        with contextlib.suppress(TimeoutError):
            served.post("/v1/hook/p", payload(sub), timeout=3)
        try:
            answered = served.post("/v1/hook/p", payload(work), timeout=10).body
        except TimeoutError:
            answered = None
        finally:
            with contextlib.suppress(OSError):  # a writer, if git still waits for one
                os.close(os.open(sub / ".git" / "config", os.O_WRONLY | os.O_NONBLOCK))
        assert answered == b"", "the service stopped answering every session"


def _evict(path: Path) -> None:
    """The page cache's copy of ``path``'s data dropped (as memory pressure drops it)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd) if os.access(path, os.W_OK) and path.is_file() else None
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


@pytest.mark.xfail(strict=False, reason="open (review s40 R6b): a filesystem mounted from an "
                   "image file changes with no event when the image is written (docs/service.md); "
                   "not strict: on a loaded machine the service's periodic re-check sometimes "
                   "reads the new bytes in time (it passed so once, session 45)")
def test_r6b_a_change_in_a_loop_mounted_images_backing_file(
        view: Watched, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        mounts: list[Path]) -> None:
    """An ext4 image mounted through a loop device (ext4: local, watched), HOME in it; the
    image file itself written where ~/.gitconfig's bytes lie. No event on the mounted file;
    once the page cache lets go of the old bytes, the system reads the new ones."""
    image, mounted = tmp_path / "disk.img", tmp_path / "mnt"
    mounted.mkdir()
    with open(image, "wb") as f:
        f.truncate(16 << 20)
    if subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], capture_output=True).returncode:
        pytest.skip("no mkfs.ext4 here")
    done = subprocess.run(["mount", "-o", "loop", str(image), str(mounted)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"no loop mount here: {done.stderr!r}")
    mounts.append(mounted)
    home = mounted / "home"
    (home / ".config" / "git").mkdir(parents=True)
    old = b"[user]\n\tname = " + b"x" * 60 + b"\n"
    hooks = b"[core]\n\thooksPath = /h"
    new = hooks + b"\n" + b"#" * (len(old) - len(hooks) - 2) + b"\n"
    assert len(new) == len(old)
    (home / ".gitconfig").write_bytes(old)
    subprocess.run(["sync"], check=True)
    monkeypatch.setenv("HOME", str(home))
    for name in ("XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_DIR", "GIT_CONFIG_SYSTEM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    repo = tmp_path / "repo"
    _git("init", "-q", repo)

    def change() -> None:
        data = image.read_bytes()
        at = data.find(old)
        assert at >= 0 and data.find(old, at + 1) < 0
        with open(image, "r+b") as f:
            f.seek(at)
            f.write(new)
            f.flush()
            os.fsync(f.fileno())
        device = os.open(_loop_of(mounted), os.O_RDONLY)  # the loop device's own cache
        try:
            os.fsync(device)
            os.posix_fadvise(device, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(device)
        _evict(home / ".gitconfig")
        assert (home / ".gitconfig").read_bytes() == new, "the mounted file shows the change"

    _differential(view, tmp_path / "plan.json", str(repo), str(repo), change)


def _loop_of(mounted: Path) -> str:
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        fields = line.split(" ")
        if fields[4] == str(mounted):
            return fields[fields.index("-", 6) + 2]
    return ""


def test_r12_the_template_folder_gits_configuration_names_is_guarded(
        tmp_path: Path, clean_env: Path) -> None:
    """`init.templateDir` in the user's git configuration: `git init` and `git clone` copy its
    `hooks/` into the new repository, whose next `git commit` runs them."""
    templates = clean_env / ".git-templates"
    (templates / "hooks").mkdir(parents=True)
    (clean_env / ".gitconfig").write_text(f"[init]\n\ttemplateDir = {templates}\n")
    work = tmp_path / "work"
    work.mkdir()
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{tmp_path}/**)"]}))
    payload = {"session_id": "s", "cwd": str(work), "hook_event_name": "PreToolUse",
               "tool_name": "Write", "tool_input": {
                   "file_path": str(templates / "hooks" / "pre-commit"),
                   "content": "#!/bin/sh\necho ran\n"}}
    said = _hook(plan, payload, {**os.environ}, work)
    assert '"deny"' in said, "a hook every new repository copies may be written"


@pytest.mark.parametrize("inside", [".git/config", ".git/hooks/pre-commit.sample"])
def test_r13_an_edit_through_a_hard_link_to_a_file_in_a_guarded_folder_is_denied(
        tmp_path: Path, clean_env: Path, inside: str) -> None:
    """Review W1b looks for hard links to the guarded *files*; a file inside a guarded
    *folder* (the repository's `.git`) reached through a hard link made earlier (a `cp -al`
    or `rsync --link-dest` backup in the project, say) is written all the same."""
    work = tmp_path / "work"
    _git("init", "-q", work)
    (work / "backup").mkdir()
    os.link(work / inside, work / "backup" / "linked")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{work}/**)"]}))
    first = (work / inside).read_text().splitlines()[0]
    payload = {"session_id": "s", "cwd": str(work), "hook_event_name": "PreToolUse",
               "tool_name": "Edit", "tool_input": {
                   "file_path": str(work / "backup" / "linked"), "old_string": first,
                   "new_string": first + "\n\thooksPath = evil"}}
    said = _hook(plan, payload, {**os.environ}, work)
    assert '"deny"' in said, "a file of the repository's git folder written through a link"


def _chain(folder: Path, count: int) -> Path:
    (folder / "target").mkdir()
    for i in range(count):
        (folder / f"l{i}").symlink_to(f"l{i + 1}" if i + 1 < count else "target")
    return folder / "l0"


def test_r14_a_long_chain_of_links_is_answered_as_the_system_answers(
        view: Watched, tmp_path: Path) -> None:
    """`os.path.realpath` follows a chain of 600 links; the view's `_link_kept` asks
    `realpath` again for each link's target (its `links` budget is never spent), and runs out
    of Python's recursion first."""
    first = _chain(tmp_path, 600)
    want = os.path.realpath(first)
    assert view.realpath(str(first)) == want


@pytest.mark.slow
def test_r14_end_to_end_a_command_naming_a_long_chain(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    first = _chain(work, 600)
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(cat *)"]}))
    payload = {"session_id": "s", "cwd": str(work), "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": f"cat {first.name}"}}
    fresh = _hook(plan, payload, {**os.environ}, work)
    with start([f"p={plan}"]) as served:
        answer = served.post("/v1/hook/p", payload)
    assert (b'"deny"' in answer.body) == ('"deny"' in fresh), (answer, fresh)
