"""What the guard finds of a covered shell command (``gitreach.findings``: a word naming a
guarded file, git run in a repository not guarded at every call), kept whole by the service's
view between calls: after each change of the filesystem and a refresh, the kept answer is the
one the system gives when asked afresh (the hook process's), and the change does change it
(a kept answer not forgotten would fail here)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from skillgrant.gate import files, gitreach, guards
from skillgrant.gate.guardedset import GUARDED
from skillgrant.service.watched import Watched

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="no git here")


def _git(*args: object) -> None:
    subprocess.run(["git", *map(str, args)], check=True, capture_output=True)


def _nested_repository(tmp: Path, project: Path) -> None:
    """A repository made in a folder of the project, whose settings run a program elsewhere."""
    _git("init", "-q", project / "sub")
    with open(project / "sub" / ".git" / "config", "a") as config:
        config.write(f"[core]\n\tfsmonitor = {tmp / 'elsewhere' / 'monitor.sh'}\n")


#: Each change, the command whose findings it changes, and what they were before it.
CHANGES: dict[str, tuple[Callable[[Path, Path], object], str, tuple[bool, bool]]] = {
    # `git -C sub` then runs git in a repository whose programs are not guarded (V3)
    "nested-repository": (_nested_repository, "git -C sub status", (False, False)),
    # a word that then names the plan through a link (W1b)
    "word-made-a-link": (lambda tmp, project: (project / "out.json").symlink_to(
        tmp / "plan.json"), "cp notes.txt out.json", (False, False)),
    # `git push mirror` then pushes to a folder on this machine, whose hooks run (H-1)
    "push-target-made": (lambda tmp, project: (project / "mirror").mkdir(),
                         "git push mirror", (False, False)),
    # a file git reads moved away and back: the findings stay what they were
    "nothing": (lambda tmp, project: None, "git status", (False, False)),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_kept_findings_are_the_systems_after_a_change(
        view: Watched, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "plan.json").write_text('{"allowed-tools": ["Bash(git *)"]}')
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    for name in ("XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_DIR", "GIT_CONFIG_SYSTEM",
                 "GIT_CONFIG_COUNT", "CDPATH"):
        monkeypatch.delenv(name, raising=False)
    _git("init", "-q", project)
    (project / "sub").mkdir()
    (project / "notes.txt").write_text("x")
    made, command, before = CHANGES[change]

    def found(kept: bool) -> tuple[str | None, str | None] | str:
        files.use(view if kept else None)
        try:
            token = GUARDED.set(guards.guarded_items(
                str(tmp_path / "plan.json"), None, None, str(project), str(project)))
            try:
                return gitreach.findings(command, str(project))
            finally:
                GUARDED.reset(token)
        except ValueError as e:
            return str(e)
        finally:
            files.use(None)

    view.refresh()
    first = found(False)
    assert isinstance(first, tuple)
    assert (first[0] is not None, first[1] is not None) == before
    for _ in range(2):  # asked, then answered from what the view kept
        assert found(True) == first
    assert view._composites.get("findings"), "kept whole"
    made(tmp_path, project)
    view.refresh()
    after = found(False)
    assert found(True) == after
    assert found(True) == after
    assert (after != first) == (change != "nothing"), after


def test_a_question_the_view_cannot_watch_keeps_nothing(
        view: Watched, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command's folder reached through a link: its answers are the system's each time, and
    the findings made of them are not kept."""
    project = tmp_path / "project"
    project.mkdir()
    (tmp_path / "via").symlink_to(project)
    (tmp_path / "plan.json").write_text('{"allowed-tools": ["Bash(cp *)"]}')
    monkeypatch.setenv("HOME", str(tmp_path))
    files.use(view)
    try:
        token = GUARDED.set(guards.guarded_items(
            str(tmp_path / "plan.json"), None, None, str(project), str(project)))
        try:
            view.refresh()
            assert gitreach.findings("cp a b", str(tmp_path / "via")) == (None, None)
            assert not view._composites.get("findings")
            os.symlink(tmp_path / "plan.json", project / "b")
            # no refresh: nothing kept to forget, the system is asked again
            assert gitreach.findings("cp a b", str(tmp_path / "via")) == ("b", None)
        finally:
            GUARDED.reset(token)
    finally:
        files.use(None)
