"""The service's view of the filesystem (``service/watched.py``): every answer is the system's
own, before and after the paths it was asked about change; and a decision on the event loop
hands a question to bash over to a thread (``crosscheck.MAY_WAIT``)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from serving import start

from skillgrant.gate import crosscheck, files, guards
from skillgrant.gate.files import System, entry_kind, file_identity
from skillgrant.service.mounts import mount_types
from skillgrant.service.watched import Watched


def _paths(root: Path) -> list[str]:
    """Paths of every kind under ``root``: files, folders, missing ones, through links, with
    ``..``, relative."""
    return [str(root / name) for name in (
        "a", "a/f", "a/missing", "a/missing/deeper", "a/f/under-a-file", "link", "link/f",
        "loop", "loop/x", "a/../a/f", "a//f", "hard", ".claude", ".claude/settings.json",
        "chain", "chain/f", "rel", "rel/f", "twisted", "twisted/f", "up", "up/f")] + [
        "relative/f", "/", "//", str(root) + "/a/"]


def _world(root: Path) -> None:
    (root / "a").mkdir()
    (root / "a" / "f").write_text("x")
    (root / "link").symlink_to(root / "a")
    (root / "loop").symlink_to(root / "loop")
    os.link(root / "a" / "f", root / "hard")
    (root / "chain").symlink_to("link")  # a link to a link, relative
    (root / "rel").symlink_to("./a")
    (root / "twisted").symlink_to("link/../a")  # `..` after a link: the link's target's parent
    (root / "up").symlink_to(f"../{root.name}/a")


def _same(view: Watched, root: Path) -> None:
    for path in _paths(root):
        for _ in range(2):  # asked, then answered again from what the view kept
            assert view.realpath(path) == os.path.realpath(path), path
            assert view.identity(path) == file_identity(path), path
            assert view.islink(path) == os.path.islink(path), path
            assert view.entry(path) == entry_kind(path), path
            assert _read(view, path) == _read(System(), path), path


def _read(view: files.View, path: str) -> bytes | str:
    try:
        return view.read(path, 100)
    except OSError as e:
        return type(e).__name__


def test_the_answers_are_the_systems(view: Watched, tmp_path: Path) -> None:
    _world(tmp_path)
    view.refresh()
    _same(view, tmp_path)


def _retarget(root: Path, elsewhere: Path) -> None:
    """The link a chain ends in now leads elsewhere."""
    (root / "link").unlink()
    (root / "link").symlink_to(elsewhere)


def _target_replaced(root: Path, elsewhere: Path) -> None:
    """The folder a link leads to is replaced by a link."""
    os.rename(root / "a", root / "b")
    (root / "a").symlink_to(elsewhere)
    (elsewhere / "f").write_text("w")


def _written(root: Path, elsewhere: Path) -> None:
    """A file's bytes, written through another of its names."""
    with open(root / "hard", "w") as f:
        f.write("written")


_LINK_CHANGES: dict[str, Callable[[Path, Path], None]] = {
    "retarget": _retarget, "target-replaced": _target_replaced, "written": _written}


@pytest.mark.parametrize("change", ["link-folder", "link-file", "hard-link", "move-folder",
                                    "mkdir", "chmod", "recreate", "rename-over", "beside",
                                    *_LINK_CHANGES])
def test_a_change_on_a_path_is_seen_at_the_next_refresh(view: Watched, tmp_path: Path,
                                                       change: str) -> None:
    """Each answer kept is asked for, the path changes (a component becomes a link, a file a
    hard link to another, a folder moves away and another takes its place), and after the
    refresh a decision starts with, every answer is the system's again."""
    _world(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "settings.json").write_text("{}")
    view.refresh()
    _same(view, tmp_path)
    if change == "link-folder":  # .claude did not exist: now it leads elsewhere
        (tmp_path / ".claude").symlink_to(elsewhere)
    elif change == "link-file":
        (tmp_path / "a" / "f").unlink()
        (tmp_path / "a" / "f").symlink_to(elsewhere / "settings.json")
    elif change == "hard-link":
        (tmp_path / "hard").unlink()
        os.link(elsewhere / "settings.json", tmp_path / "hard")
    elif change == "move-folder":
        os.rename(tmp_path / "a", tmp_path / "b")
        (tmp_path / "a").symlink_to(elsewhere)
    elif change == "mkdir":
        (tmp_path / "a" / "missing").mkdir()
        (tmp_path / "a" / "missing" / "deeper").symlink_to(elsewhere)
    elif change == "chmod":
        (tmp_path / "a").chmod(0o700)
    elif change in ("recreate", "rename-over"):  # a watched folder replaced, then changed
        if change == "recreate":
            shutil.rmtree(tmp_path / "a")
        else:  # a folder renamed over an empty one
            (tmp_path / "a" / "f").unlink()
        (tmp_path / "b").mkdir()
        (tmp_path / "b" / "f").write_text("y")
        os.rename(tmp_path / "b", tmp_path / "a")
        view.refresh()
        _same(view, tmp_path)  # the new folder is watched again
        (tmp_path / "a" / "f").unlink()
        (tmp_path / "a" / "f").symlink_to(elsewhere / "settings.json")
    elif change in _LINK_CHANGES:
        _LINK_CHANGES[change](tmp_path, elsewhere)
    else:  # a change beside the paths asked about forgets none of them, and a later one counts
        (tmp_path / "unrelated").write_text("z")
        view.refresh()
        _same(view, tmp_path)
        (tmp_path / "a" / "missing").symlink_to(elsewhere)
    view.refresh()
    _same(view, tmp_path)


def test_an_edit_that_becomes_a_hard_link_to_the_plan_is_denied(tmp_path: Path) -> None:
    """Through the service: an Edit of a file is covered; the file is then replaced by a hard
    link to the plan, and the same call is denied (the view's answer about the file is not
    kept past the change)."""
    work = tmp_path / "work"
    work.mkdir()
    target = work / "notes.txt"
    target.write_text("x")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{work}/**)"]}))
    payload = {"session_id": "s", "cwd": str(work), "hook_event_name": "PreToolUse",
               "tool_name": "Edit", "tool_input": {"file_path": str(target),
                                                   "old_string": "x", "new_string": "y"}}
    with start([f"p={plan}"]) as served:
        for _ in range(3):
            assert served.post("/v1/hook/p", payload).body == b""
        target.unlink()
        os.link(plan, target)
        denied = served.post("/v1/hook/p", payload).body
        assert b'"deny"' in denied and b"plan.json" in denied, denied


def test_a_question_to_bash_is_not_waited_for_where_that_is_refused() -> None:
    if crosscheck.bash_path() is None:
        pytest.skip("no bash 5.2 here")
    command = "for f in a b; do echo \"$f\" ; done # " + os.urandom(8).hex()
    token = crosscheck.MAY_WAIT.set(False)
    try:
        with pytest.raises(crosscheck.BashNeeded):
            crosscheck.disagreement(command, command)
    finally:
        crosscheck.MAY_WAIT.reset(token)
    answer = crosscheck.disagreement(command, command)  # asked: now it is kept
    token = crosscheck.MAY_WAIT.set(False)
    try:
        assert crosscheck.disagreement(command, command) == answer
    finally:
        crosscheck.MAY_WAIT.reset(token)


def test_a_library_check_call_sees_a_link_made_since_the_last_decision(tmp_path: Path) -> None:
    """``/v1/check-call`` asks the same view: a file that becomes a link out of the plan
    between two requests, with no hook call between them, is judged through the link."""
    work, outside = tmp_path / "work", tmp_path / "outside"
    work.mkdir()
    outside.mkdir()
    (outside / "secret").write_text("s")
    target = work / "notes.txt"
    target.write_text("x")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Read(/{work}/**)"]}))
    call = {"plan": "p", "tool": "Read", "tool_input": {"file_path": str(target)},
            "cwd": str(work)}
    with start([f"p={plan}"]) as served:
        for _ in range(3):
            assert served.post("/v1/check-call", call).json()["status"] == "covered"
        target.unlink()
        target.symlink_to(outside / "secret")
        assert served.post("/v1/check-call", call).json()["status"] == "not_covered"


def test_nothing_is_kept_about_a_path_in_a_network_filesystem(view: Watched,
                                                               tmp_path: Path) -> None:
    """A change made on another machine to an NFS (or FUSE, SMB...) folder is reported to no
    one: answers about paths there are the system's each time."""
    escaped = str(tmp_path).replace(" ", "\\040")
    view._types = mount_types(  # as /proc/self/mountinfo names them, the deepest first
        f"36 35 98:0 / / rw - ext4 /dev/root rw\n"
        f"37 36 0:50 / {escaped}/share rw,relatime - nfs4 server:/export rw\n".encode())
    (tmp_path / "share").mkdir()
    (tmp_path / "local").mkdir()
    inside, beside = str(tmp_path / "share" / "f"), str(tmp_path / "local" / "f")
    for path in (inside, beside):
        assert view.realpath(path) == path and view.identity(path) is None
    assert inside not in view._real and inside not in view._ids
    assert beside in view._real and beside in view._ids


@pytest.mark.slow
def test_past_its_watches_the_view_starts_over_and_still_sees_changes(
        view: Watched, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from skillgrant.service import watched as module

    monkeypatch.setattr(module, "MAX_WATCHES", len(tmp_path.parts))  # tmp_path/a is one more
    restarts: list[int] = []
    restart = view._restart

    def counted() -> None:
        restarts.append(1)
        restart()

    monkeypatch.setattr(view, "_restart", counted)
    _world(tmp_path)
    view.refresh()
    for _ in range(3):  # asking past the watches starts over, more than once
        _same(view, tmp_path)
        view.refresh()
    (tmp_path / "a" / "f").unlink()
    (tmp_path / "a" / "f").symlink_to(tmp_path / "hard")
    view.refresh()
    _same(view, tmp_path)
    assert restarts


def test_of_mounts_stacked_on_one_point_the_visible_one_counts() -> None:
    """Review SV-2: a FUSE filesystem mounted over a tmpfs mount point hides it."""
    found = mount_types(b"22 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
                        b"40 22 0:35 / /run/user/1000 rw - tmpfs tmpfs rw\n"
                        b"57 40 0:50 / /run/user/1000 rw - fuse.sshfs host: rw\n")
    assert found[0] == ("/run/user/1000", "fuse.sshfs")


def _git(*args: str | Path) -> None:
    import subprocess

    subprocess.run(["git", *map(str, args)], check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="no git here")
@pytest.mark.parametrize("change", [
    "hooks-path", "hooks-path-hard-link", "home-include", "git-file", "git-link",
    "nested-repository", "claude-link", "path-link", "worktree-commondir", "nothing"])
def test_a_kept_guarded_set_is_the_systems_after_any_change(
        view: Watched, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    """What a call must not write (``guards.guarded_items``), kept whole by the service's
    view, is after each change and refresh what the system gives when asked afresh (the hook
    process's answer): git's configuration written (through the file, or through a hard link
    to it), a ``.git`` folder becoming a file or a link, a repository made in the call's
    folder, a ``.claude`` link, a link on ``PATH`` moved, a linked worktree's ``commondir``."""
    home, repo, other = tmp_path / "home", tmp_path / "repo", tmp_path / "other"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ("XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_DIR", "GIT_CONFIG_SYSTEM"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "bin1").mkdir()
    (tmp_path / "bin2").mkdir()
    (tmp_path / "bin").symlink_to("bin1")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    _git("init", "-q", repo)
    _git("init", "-q", other)
    (repo / "src").mkdir()
    hard = tmp_path / "config-link"
    if change == "hooks-path-hard-link":  # the gate then says it cannot tell (review s40 R13)
        os.link(repo / ".git" / "config", hard)
    cwd = str(repo / "src")
    if change == "worktree-commondir":
        _git("-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
             "--allow-empty", "-m", "x", "--no-gpg-sign")
        _git("-C", repo, "worktree", "add", "-q", tmp_path / "wt")
        cwd = str(tmp_path / "wt")

    def guarded(kept: bool) -> tuple[tuple[str, bool], ...] | str:
        files.use(view if kept else None)
        try:
            return guards.guarded_items(str(tmp_path / "plan.json"), None, None, cwd,
                                        str(repo))
        except ValueError as e:
            return str(e)
        finally:
            files.use(None)

    view.refresh()
    for _ in range(2):
        assert guarded(True) == guarded(False)
    assert view._composites or hard.exists(), "kept whole"
    _REPOSITORY_CHANGES[change](tmp_path, repo, other, home, hard)
    view.refresh()
    after = guarded(False)
    assert guarded(True) == after
    assert guarded(True) == after


def _append_hooks_path(config: Path) -> None:
    with open(config, "a") as f:
        f.write("[core]\n\thooksPath = tools/hooks\n")


def _git_file(repo: Path, other: Path) -> None:
    shutil.rmtree(repo / ".git")
    (repo / ".git").write_text(f"gitdir: {other / '.git'}\n")


def _git_link(repo: Path, other: Path) -> None:
    shutil.rmtree(repo / ".git")
    (repo / ".git").symlink_to(other / ".git")


def _path_link(tmp: Path) -> None:
    (tmp / "bin").unlink()
    (tmp / "bin").symlink_to("bin2")


def _commondir(repo: Path, other: Path) -> None:
    found = next((repo / ".git" / "worktrees").iterdir()) / "commondir"
    found.write_text(str(other / ".git") + "\n")


_REPOSITORY_CHANGES: dict[str, Callable[[Path, Path, Path, Path, Path], object]] = {
    "hooks-path": lambda tmp, repo, other, home, hard: _append_hooks_path(repo / ".git" /
                                                                          "config"),
    "hooks-path-hard-link": lambda tmp, repo, other, home, hard: _append_hooks_path(hard),
    "home-include": lambda tmp, repo, other, home, hard: (home / ".gitconfig").write_text(
        f"[include]\n\tpath = {tmp / 'inc'}\n"),
    "git-file": lambda tmp, repo, other, home, hard: _git_file(repo, other),
    "git-link": lambda tmp, repo, other, home, hard: _git_link(repo, other),
    "nested-repository": lambda tmp, repo, other, home, hard: _git("init", "-q", repo / "src"),
    "claude-link": lambda tmp, repo, other, home, hard: (repo / ".claude").symlink_to(other),
    "path-link": lambda tmp, repo, other, home, hard: _path_link(tmp),
    "worktree-commondir": lambda tmp, repo, other, home, hard: _commondir(repo, other),
    "nothing": lambda tmp, repo, other, home, hard: None,
}


def test_a_name_made_elsewhere_changes_the_kept_count_of_names(view: Watched,
                                                                 tmp_path: Path) -> None:
    """Review s41 S2: a hard link made in a folder the view never watched changes the file's
    count of names, which no folder event reports; the file's own watch does."""
    (tmp_path / "tools").mkdir()
    (tmp_path / "elsewhere").mkdir()
    script = tmp_path / "tools" / "hook.sh"
    script.write_text("#!/bin/sh\n")
    assert view.identity(str(script)) == file_identity(str(script))
    os.link(script, tmp_path / "elsewhere" / "x")
    view.refresh()
    assert view.identity(str(script)) == file_identity(str(script))
    assert file_identity(str(script))[2] == 2  # type: ignore[index]
