"""The repositories a call's git may run in beyond the session's (issue 29, review s40 V3, V9,
V10; ``gate/nested.py``, ``gate/gitreach.py``): each case is proven with real bash in a
scratch copy (the program runs), then the hook is asked; the hook allowing every call of the
case is the hole. The index reader is compared with git's own listing of the index."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from files_fixture import gated_project, git
from test_gate_files import _settings_hook, run_hook

from skillgrant.gate.moves import git_folders
from skillgrant.gate.nested import gitlinks


def _lib(tmp_path: Path, name: str = "libsrc", *init: str) -> Path:
    """A repository with tools/run committed (exit 0)."""
    source = tmp_path / name
    (source / "tools").mkdir(parents=True)
    git(source, "init", "-q", *init)
    (source / "tools" / "run").write_text("#!/bin/sh\nexit 0\n")
    (source / "tools" / "run").chmod(0o755)
    (source / "a.txt").write_text("a\n")
    git(source, "add", ".")
    git(source, "commit", "-qm", "lib")
    return source


def _payload(project: Path, scratch: Path) -> str:
    evil = project / "evil" / "payload.sh"
    evil.parent.mkdir(exist_ok=True)
    evil.write_text(f"#!/bin/sh\ntouch {scratch}/zz\ncat >/dev/null 2>&1\nexit 0\n")
    evil.chmod(0o755)
    return "evil/payload.sh"


def _proven(project: Path, scratch: Path, steps: list[tuple[str, str]]) -> None:
    """Runs each (folder from the top, command) under bash in a copy of ``project`` at
    ``scratch``; the last must have run the payload."""
    shutil.copytree(project, scratch, symlinks=True)
    for folder, command in steps:
        subprocess.run(["bash", "-c", command], cwd=scratch / folder, capture_output=True,
                       timeout=60, stdin=subprocess.DEVNULL)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"


def _denied(project: Path, steps: list[tuple[str, str]]) -> list[tuple[str, str]]:
    settings = _settings_hook(project)
    return [(folder, command) for folder, command in steps
            if run_hook(settings, command, project / folder).returncode == 2]


def test_an_embedded_repository_git_status_recurses_into_is_guarded(tmp_path: Path) -> None:
    """A clone added to the index as it is (``git add vendor/lib``: a submodule with no
    ``.gitmodules`` and no ``.git/modules``): ``git status`` in the top runs its
    ``core.fsmonitor``. The copy over its program is denied, and so is ``git status``: the
    clone may have become a submodule since an earlier call (review s41 N2)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(git status)"])
    git(project, "clone", "-q", str(_lib(tmp_path)), "vendor/lib")
    git(project, "add", "vendor/lib")
    lib = project / "vendor" / "lib"
    git(lib, "config", "core.fsmonitor", "tools/run")
    (lib / "a.txt").write_text("changed\n")
    steps = [(".", f"cp {_payload(project, tmp_path / 'scratch')} vendor/lib/tools/run"),
             (".", "git status")]
    _proven(project, tmp_path / "scratch", steps)
    assert _denied(project, steps) == steps


def test_a_nested_repository_the_session_moved_into_runs_nothing_written_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three calls: the copy from the project's folder (where vendor/lib's programs are not
    guarded), a ``cd`` into the clone (the Bash tool keeps its folder), ``git status`` there.
    The last is denied: the session's repositories are the project's."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(cd *)", "Bash(git status)"])
    (project / "vendor").mkdir()
    git(project, "clone", "-q", str(_lib(tmp_path)), "vendor/lib")
    lib = project / "vendor" / "lib"
    git(lib, "config", "core.fsmonitor", "tools/run")
    (lib / "a.txt").write_text("changed\n")
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    steps = [(".", f"cp {_payload(project, tmp_path / 'scratch')} vendor/lib/tools/run"),
             (".", "cd vendor/lib"), ("vendor/lib", "git status")]
    _proven(project, tmp_path / "scratch", steps)
    assert _denied(project, steps) == steps[2:]


def test_a_bare_repository_whose_configuration_a_call_wrote_runs_nothing(
        tmp_path: Path) -> None:
    """A bare repository in the project (``store.git``: its configuration is no ``.git``
    path, so a copy may write it) and ``git -C store.git diff``, which runs the
    ``diff.external`` that configuration names."""
    project = tmp_path / "project"
    runs = "git -C store.git diff HEAD~1 HEAD"
    gated_project(project, ["Bash(cp *)", f"Bash({runs})"])
    source = _lib(tmp_path)
    (source / "a.txt").write_text("b\n")
    git(source, "commit", "-qam", "b")
    git(project, "clone", "-q", "--bare", str(source), "store.git")
    scratch = tmp_path / "scratch"
    (project / "evil" / "config").write_text(
        f"[core]\n\tbare = true\n[diff]\n\texternal = touch {scratch}/zz\n")
    steps = [(".", "cp evil/config store.git/config"), (".", runs)]
    _proven(project, scratch, steps)
    # (the copy too since s54-gfix2: gitdirs, a git directory's config under a plan reading code)
    assert _denied(project, steps) == steps


def test_a_working_tree_given_by_name_runs_nothing_written_before(tmp_path: Path) -> None:
    """``git --work-tree=other status``: git runs the project's ``core.fsmonitor`` (a path
    from the working tree) in ``other``, which is no working tree the gate guards."""
    project = tmp_path / "project"
    runs = "git --work-tree=other status"
    gated_project(project, ["Bash(cp *)", f"Bash({runs})"])
    git(project, "config", "core.fsmonitor", "tools/run")
    (project / "tools").mkdir()
    (project / "tools" / "run").write_text("#!/bin/sh\nexit 0\n")
    (project / "tools" / "run").chmod(0o755)
    (project / "other" / "tools").mkdir(parents=True)
    (project / "evil" / "t").mkdir(parents=True)
    shutil.copy(project / _payload(project, tmp_path / "scratch"), project / "evil" / "t" / "run")
    # a folder copy: no word holds the name `run`, which the project's guarded program has
    steps = [(".", "cp -r evil/t/. other/tools"), (".", runs)]
    _proven(project, tmp_path / "scratch", steps)
    assert _denied(project, steps) == steps[1:]


@pytest.mark.parametrize(("value", "written"), [
    ("python3 -m clean", "json.py"),  # -m: the folder it runs in is first on sys.path
    ("env PYTHONPATH=lib python3 {tools}/clean.py", "lib/json.py"),
])
def test_a_module_a_python_filter_imports_is_guarded(tmp_path: Path, value: str,
                                                     written: str) -> None:
    """Review s40 V7's other forms: ``python3 -m`` and a ``PYTHONPATH`` in the value."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(git add notes.txt)"])
    tools = tmp_path / "tools"
    tools.mkdir()
    clean = "import json\nimport sys\n\nsys.stdout.write(sys.stdin.read())\n"
    (tools / "clean.py").write_text(clean)
    (project / "clean.py").write_text(clean)
    (project / "lib").mkdir()
    git(project, "config", "filter.x.clean", value.format(tools=tools))
    (project / ".gitattributes").write_text("*.txt filter=x\n")
    (project / "notes.txt").write_text("changed\n")
    scratch = tmp_path / "scratch"
    (project / "evil" / "json.py").write_text(
        f"import pathlib\npathlib.Path({str(scratch / 'zz')!r}).touch()\n")
    steps = [(".", f"cp evil/json.py {written}"), (".", "git add notes.txt")]
    _proven(project, scratch, steps)
    assert _denied(project, steps) == steps[:1]


def test_a_command_moving_git_to_a_folder_the_gate_cannot_name_is_denied(
        tmp_path: Path) -> None:
    assert isinstance(git_folders("cd $D && git status", str(tmp_path)), str)
    assert isinstance(git_folders("git -C vendor/* status", str(tmp_path)), str)
    assert isinstance(git_folders("cd - && git status", str(tmp_path)), str)
    assert isinstance(git_folders("find . -execdir git status ;", str(tmp_path)), str)
    assert git_folders("ls vendor/lib", str(tmp_path)) == []
    # (`cd b` runs only once `cd a` succeeded: read from `a` alone, s51-gfix3 326fa2f)
    assert git_folders("cd a && cd b && git status", "/p") == ["/p", "/p/a", "/p/a/b"]
    assert git_folders("cd a; cd b && git status", "/p") == [
        "/p", "/p/a", "/p/b", "/p/a/b"]
    assert git_folders("cd && git status", "/p") == ["/p", str(Path.home())]


def _index_cases(tmp_path: Path) -> list[Path]:
    """Repositories whose indexes hold submodules in git's formats 2, 3 (an intent-to-add
    entry's extended flags), 4 (paths prefix-compressed), split, and SHA-256."""
    made = []
    for name, setup in [("v2", []), ("v3", ["add", "-N", "later.txt"]),
                        ("v4", ["update-index", "--index-version", "4"]),
                        ("split", ["update-index", "--split-index"]),
                        ("sha256", [])]:
        top = tmp_path / name
        top.mkdir()
        sha = ["--object-format=sha256"] if name == "sha256" else []
        git(top, "init", "-q", *sha)
        source = _lib(tmp_path, f"src-{name}", *sha)
        for path in ("a/lib", "a/lib2", "b/deep/er/lib", "zz"):
            git(top, "-c", "protocol.file.allow=always", "clone", "-q", str(source), path)
            (top / f"{path}-file.txt").write_text("x\n")
        (top / "later.txt").write_text("x\n")
        git(top, "add", "a", "b", "zz", "a/lib-file.txt", "zz-file.txt")
        if setup:
            git(top, *setup)
        git(top, "add", "b")  # after the split: in the index's own part
        made.append(top)
    return made


def test_the_index_reader_finds_what_git_lists(tmp_path: Path) -> None:
    for top in _index_cases(tmp_path):
        listed = subprocess.run(["git", "ls-files", "-s"], cwd=top, capture_output=True,
                                text=True, check=True).stdout.splitlines()
        expected = sorted(line.split("\t", 1)[1] for line in listed
                          if line.startswith("160000 "))
        assert expected, top
        version = int.from_bytes((top / ".git" / "index").read_bytes()[4:8], "big")
        assert version == {"v3": 3, "v4": 4}.get(top.name, 2), top.name  # the premise
        assert any((top / ".git").glob("sharedindex.*")) == (top.name == "split")
        found = sorted(gitlinks(str(top / ".git"), str(top / ".git")))
        assert found == expected, top.name


def test_an_index_without_submodules_is_not_parsed(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Review s41 C2: a path holding ``link`` (``src/linker.c``) made every call parse the
    whole index; only a ``link`` followed by an existing shared index's name is followed."""
    from skillgrant.gate import nested

    top = tmp_path / "r"
    (top / "src").mkdir(parents=True)
    git(top, "init", "-q")
    for name in ("linker.c", "symlink.h", "hyperlink.py"):
        (top / "src" / name).write_text("x\n")
    git(top, "add", ".")

    def parse(*_: object) -> None:
        raise AssertionError("the index was parsed")

    monkeypatch.setattr(nested, "_parsed", parse)
    assert gitlinks(str(top / ".git"), str(top / ".git")) == []


def test_each_repository_asks_git_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Review s41 C1: with an ``[include]`` in ``~/.gitconfig`` (the common ``path =
    ~/.gitconfig.local``), every repository's settings are asked of git; its included files,
    hooks folder and programs come from one ``git config --list`` of it, not four runs."""
    from skillgrant.gate import worktree
    from skillgrant.gate.guards import guarded_items

    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[include]\n\tpath = ~/.gitconfig.local\n")
    (home / ".gitconfig.local").write_text("[core]\n\thooksPath = .githooks\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    project = tmp_path / "project"
    gated_project(project, ["Bash(git status)"])
    source = _lib(tmp_path)
    for name in ("a", "b", "c"):
        git(project, "-c", "protocol.file.allow=always", "submodule", "add", "-q",
            str(source), f"vendor/{name}")
    runs: list[tuple[str, ...]] = []
    real = worktree.run_git

    def counted(folder: str, *args: str) -> bytes | None:
        runs.append(args)
        return real(folder, *args)

    monkeypatch.setattr(worktree, "run_git", counted)
    found = guarded_items(str(project / "plan.json"), None, None, str(project), str(project))
    # the project, its three submodules, and the user's settings from the folder above it
    assert len(runs) == 5, runs
    assert str(project / "vendor" / "b" / ".githooks") in dict(found)


@pytest.mark.parametrize(("command", "denied"), [
    ("shuf -o vendor/lib/.git/config payload", True),  # a writer in no list (review s41 N1)
    ("sort payload -o.git/config", True),  # an attached option value
    ("cat payload > vendor/lib/.git/hooks/pre-commit", True),
    ("cd vendor/lib/.git && shuf -o config payload", True),
    ("find . -path ./.git/objects -prune -o -print", False),  # a pattern, not a path
    ("grep -rn todo --exclude-dir=.git .", False),
    ("ls -la", False),
])
def test_a_word_into_a_git_folder_is_denied(tmp_path: Path, command: str,
                                            denied: bool) -> None:
    from skillgrant.gate.guardedset import GUARDED
    from skillgrant.gate.guards import guarded_word
    from skillgrant.gate.nested import Guarded

    (tmp_path / ".git").mkdir()
    token = GUARDED.set(Guarded([(str(tmp_path / "plan.json"), False)], always=(),
                                tops=frozenset()))
    try:
        assert (guarded_word(command, str(tmp_path)) is not None) == denied
    finally:
        GUARDED.reset(token)


@pytest.mark.parametrize("runs", ["git add -A && git status", "git add vendor && git status"])
def test_a_clone_made_a_submodule_in_the_call_runs_nothing_written_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, runs: str) -> None:
    """Review s41 N2c: ``git add -A`` (or of a folder above the clone) makes a clone a
    submodule, and ``git status`` after it in the call runs its ``core.fsmonitor``, whose
    program an earlier call wrote while the clone was no submodule."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", f"Bash({runs.split(' && ')[0]})",
                            "Bash(git status)"])
    (project / "vendor").mkdir()
    git(project, "clone", "-q", str(_lib(tmp_path)), "vendor/lib")
    git(project, "config", "user.email", "a@b")
    git(project, "config", "user.name", "a")
    lib = project / "vendor" / "lib"
    git(lib, "config", "core.fsmonitor", "tools/run")
    (lib / "a.txt").write_text("changed\n")
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    steps = [(".", f"cp {_payload(project, tmp_path / 'scratch')} vendor/lib/tools/run"),
             (".", runs)]
    _proven(project, tmp_path / "scratch", steps)
    assert _denied(project, steps) == steps[1:]


def test_the_site_folders_of_a_python_filter_are_guarded(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Review s41 V7f: Python runs the ``.pth`` files of the user's site folder as it starts
    (``~/.local/lib/python3.X/site-packages``, made by any copy): guarded whole, and a named
    virtual environment's ``lib``."""
    from skillgrant.gate.guards import guarded_items

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    project = tmp_path / "project"
    gated_project(project, ["Bash(git add notes.txt)"])
    git(project, "config", "filter.x.clean", ".venv/bin/python tools/clean.py")
    found = dict(guarded_items(str(project / "plan.json"), None, None, str(project),
                               str(project)))
    assert found.get(str(home / ".local" / "lib")) is True
    assert found.get(str(project / ".venv" / "lib")) is True


def test_a_clone_absorbed_as_a_submodule_runs_nothing_written_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Five calls: the program written while ``vendor/lib`` is a clone, ``git add -A`` (a
    submodule whose git folder is its own: checked at every git run), a ``.gitmodules``
    naming it, ``git submodule absorbgitdirs`` (its git folder moved into ``.git/modules``,
    where it would count as guarded at every call), ``git status``. The absorbing run is
    denied by the run-time rule (a git run in the project checks the submodules that may be
    new), asked alone in the state before it; the hook denies it too."""
    from skillgrant.gate.gitreach import foreign_git
    from skillgrant.gate.guardedset import GUARDED
    from skillgrant.gate.guards import guarded_items

    project = tmp_path / "project"
    absorb = "git submodule absorbgitdirs"
    gated_project(project, ["Bash(cp *)", "Bash(git add -A)", f"Bash({absorb})",
                            "Bash(git status)"])
    (project / "vendor").mkdir()
    source = _lib(tmp_path)
    git(project, "clone", "-q", str(source), "vendor/lib")
    lib = project / "vendor" / "lib"
    git(lib, "config", "core.fsmonitor", "tools/run")
    (lib / "a.txt").write_text("changed\n")
    (project / "evil" / "gitmodules").parent.mkdir(exist_ok=True)
    (project / "evil" / "gitmodules").write_text(
        f'[submodule "vendor/lib"]\n\tpath = vendor/lib\n\turl = {source}\n')
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    steps = [(".", f"cp {_payload(project, tmp_path / 'scratch')} vendor/lib/tools/run"),
             (".", "git add -A"), (".", "cp evil/gitmodules .gitmodules"), (".", absorb),
             (".", "git status")]
    _proven(project, tmp_path / "scratch", steps)
    assert (tmp_path / "scratch" / ".git" / "modules" / "vendor" / "lib").is_dir()  # absorbed
    settings = _settings_hook(project)
    for folder, command in steps:  # each decided in the state the calls before it left
        if command == absorb:
            token = GUARDED.set(guarded_items(str(project / "plan.json"), None, None,
                                              str(project), str(project)))
            try:
                why = foreign_git(command, str(project))
            finally:
                GUARDED.reset(token)
            assert why is not None and "tools/run" in why, why
            assert run_hook(settings, command, project).returncode == 2
            return
        subprocess.run(["bash", "-c", command], cwd=project / folder, capture_output=True,
                       timeout=60)
