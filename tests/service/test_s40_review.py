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
                  change: Callable[[], object], *, must_keep: bool = True) -> bool:
    """The kept answer equals the system's before ``change``, and after it and a refresh;
    whether the set was kept whole before the change."""
    view.refresh()
    for _ in range(2):
        assert _guarded(view, plan, cwd, project) == _guarded(None, plan, cwd, project)
    was_kept = bool(view._composites)
    print("KEPT" if was_kept else "UNKEPT", "before the change")
    if must_keep:
        assert was_kept, "kept whole (the setup is one the service keeps)"
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
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_scenario(view: Watched, tmp_path: Path, clean_env: Path,
                  monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    cwd, project, change = SCENARIOS[name](World(tmp_path, clean_env, monkeypatch))
    os.makedirs(cwd, exist_ok=True)
    _differential(view, tmp_path / "plan.json", cwd, project, change, must_keep=False)


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
    said = []
    for v in (None, view):
        with pytest.raises(ValueError) as e:
            _guarded(v, tmp_path / "plan.json", str(tmp_path / "wt"), str(tmp_path / "wt"))
        said.append(str(e.value))
    assert said[0] == said[1]


# --- R4: a watch registered after a refresh forgot its folder ----------------------------

class _Interleaved:
    """The view's libc, with one interleaving of two threads made certain: right after the
    kernel returns the watch of ``folder`` (a decision in a hook thread), ``meanwhile`` runs
    (the event loop: a change, and the refresh before the next request), and only then does
    the decision's thread go on to record the watch."""

    def __init__(self, libc: object, folder: str, meanwhile: Callable[[], object]) -> None:
        self._libc, self._folder, self._meanwhile = libc, os.fsencode(folder), meanwhile

    def inotify_add_watch(self, fd: int, name: bytes, mask: int) -> int:
        wd = int(self._libc.inotify_add_watch(fd, name, mask))  # type: ignore[attr-defined]
        if name == self._folder and self._meanwhile:
            meanwhile, self._meanwhile = self._meanwhile, None  # type: ignore[assignment]
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
    assert view._composites, "kept whole"
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
