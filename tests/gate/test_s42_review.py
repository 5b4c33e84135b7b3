"""Review s42 of the call gate: calls the hook allows that make bash run something outside the
plan, now or at a later call, by writing a file git, bash, the runtime or a granted program
later reads as what to run. Each case proves the hole with real bash (in a scratch copy, or
in the project itself call by call), then asks the printed hook; the hook allowing every
call of the sequence is the finding: these tests fail while the hole is open."""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest
from files_fixture import gated_project
from test_gate_files import _settings_hook, run_hook

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh), as
#: `pytest --slow -m slow` does here.
pytestmark = pytest.mark.slow

#: A repository configuration whose ``core.fsmonitor`` git runs at ``git status``.
FSMONITOR = '[core]\n\tfsmonitor = "touch zz; false"\n'


def _needs(*programs: str) -> None:
    missing = [p for p in programs if shutil.which(p) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")


def _bash(command: str, cwd: Path, env: dict[str, str] | None = None) -> None:
    subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, timeout=60,
                   env=env, check=False)


def _proved(project: Path, tmp_path: Path, calls: list[str],
            env: dict[str, str] | None = None) -> bool:
    """Whether real bash, running ``calls`` one after the other in a copy of ``project``
    (links kept), runs the payload (``touch zz``)."""
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        _bash(call, scratch, env)
    return (scratch / "zz").exists()


def _first_denied(project: Path, calls: list[str]) -> str | None:
    """Asks the hook for each call in turn, running each allowed one under bash in the
    project (so that the next call is decided on the state the last one left); the first
    call denied, or None when the hook allowed them all."""
    hook = _settings_hook(project)
    for call in calls:
        if run_hook(hook, call, project).returncode == 2:
            return call
        _bash(call, project)
    return None


def _archive_tree(tmp_path: Path) -> Path:
    """A folder holding ``.git/config`` (with FSMONITOR) and ``.claude/settings.json``
    (``{}``: no hook), what an archive brings over a project."""
    tree = tmp_path / "tree"
    (tree / ".git").mkdir(parents=True)
    (tree / ".claude").mkdir()
    (tree / ".git" / "config").write_text(FSMONITOR)
    (tree / ".claude" / "settings.json").write_text("{}")
    return tree


def _ptar_archive(tree: Path, project: Path) -> None:
    with tarfile.open(project / "e.tar", "w") as archive:
        archive.add(tree / ".git" / "config", arcname=".git/config")
        archive.add(tree / ".claude" / "settings.json", arcname=".claude/settings.json")


def _deb_archive(tree: Path, project: Path) -> None:
    package = tree.parent / "deb"
    shutil.copytree(tree, package)
    (package / "DEBIAN").mkdir()
    (package / "DEBIAN" / "control").write_text(
        "Package: e\nVersion: 1\nArchitecture: all\nMaintainer: a <a@b>\nDescription: e\n")
    subprocess.run(["dpkg-deb", "-b", str(package), str(project / "e.deb")], check=True,
                   capture_output=True, timeout=60)


def _gpgtar_archive(tree: Path, project: Path) -> None:
    subprocess.run(["gpgtar", "--skip-crypto", "--encrypt", "-o", str(project / "e.gpgtar"),
                    ".git/config", ".claude/settings.json"], cwd=tree, check=True,
                   capture_output=True, timeout=60,
                   env={**os.environ, "GNUPGHOME": str(tree.parent / "gnupg")})


#: Programs that unpack an archive into the working directory (or a folder given as `.`)
#: that are in no list of ``gate/writers.py`` (``WORKTREE`` holds ``tar``, ``unzip``,
#: ``7z``, ``dpkg-deb``, ``cpio``, …): no word names ``.git`` or ``.claude``.
UNPACKERS = [
    ("ptar", "ptar -x -f e.tar", _ptar_archive),  # Perl's tar (perl's Archive::Tar)
    ("dpkg", "dpkg -x e.deb .", _deb_archive),  # dpkg-deb -x under dpkg's own name
    ("gpgtar", "gpgtar --decrypt --skip-crypto --directory . e.gpgtar", _gpgtar_archive),
]


@pytest.mark.parametrize(("program", "unpack", "make"), UNPACKERS,
                         ids=[u[0] for u in UNPACKERS])
def test_w3_an_unpacker_outside_the_lists_writes_git_and_claude(
        tmp_path: Path, program: str, unpack: str, make: object) -> None:
    """W3: an unpacker in no list of ``writers`` brings ``.git/config`` (git runs its
    fsmonitor at the covered ``git status``) and ``.claude/settings.json`` (the hook gone)
    over the project; no word of the command names either."""
    _needs(program, "dpkg-deb" if program == "dpkg" else program)
    project = tmp_path / "project"
    gated_project(project, [f"Bash({program} *)", "Bash(git status)"])
    make(_archive_tree(tmp_path), project)  # type: ignore[operator]
    calls = [unpack, "git status"]
    assert _proved(project, tmp_path, calls), "bash ran no program: the case proves nothing"
    assert _first_denied(project, calls) is not None, \
        "the hook allows the unpacking over .git and .claude, and the git run after it"


#: util-linux's ``rename`` (``rename.ul``, Debian's name for it; ``writers`` lists ``rename``
#: and ``prename``) replaces the first ``-`` of a path with ``/``: the new path is no word.
RENAMES = ["rename.ul -- - / .git-config", "rename.ul -- -c /c .git-config"]


@pytest.mark.parametrize("rename", RENAMES)
def test_w4_a_rename_composes_a_guarded_path_from_pieces(tmp_path: Path, rename: str) -> None:
    """W4: ``rename.ul FROM TO FILE`` renames FILE to FILE with FROM replaced by TO; the
    path it writes (``.git/config``) is made of three words, none of which names it (or any
    ``.git``), so neither the guarded files' names nor ``into_git`` see it."""
    _needs("rename.ul")
    project = tmp_path / "project"
    gated_project(project, ["Bash(rename.ul *)", "Bash(git status)"])
    (project / ".git-config").write_text(FSMONITOR)
    calls = [rename, "git status"]
    assert _proved(project, tmp_path, calls), "bash ran no program: the case proves nothing"
    assert _first_denied(project, calls) is not None, \
        "the hook allows the rename into .git/config and the git run after it"
