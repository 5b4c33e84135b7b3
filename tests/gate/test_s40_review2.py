"""Review s40-review2 of F15 (programs git's settings name are guarded): configurations under
which a covered call writes a file git's settings run, and a covered git command then runs it
under real bash. Each case proves the hole with bash in a scratch copy, then asks the hook;
the hook allowing the write is the finding (these tests fail while the hole is open)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from files_fixture import gated_project, git
from test_gate_files import _settings_hook, run_hook

#: A review's cases under real bash and a fresh hook process each: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: (id, setting, value, the file the value runs (from the top), the covered git command).
CASES = [
    # a backslash the shell removes: `tools/r\\un` is tools/run to sh; the gate guards the
    # word as written (tools/r\\un), and no guarded name is in `tools/run`
    ("alias-backslash", "alias.t", "!tools/r\\un", "tools/run", "git t"),
    ("filter-backslash", "filter.x.clean", "tools/r\\un", "tools/run", "git add notes.txt"),
    ("diff-external-backslash", "diff.external", "sh tools/r\\un", "tools/run", "git diff"),
    # a pattern the shell expands: `tools/ru?` runs tools/run
    ("alias-glob", "alias.t", "!tools/ru?", "tools/run", "git t"),
    ("fsmonitor-glob", "core.fsmonitor", "tools/ru[n]", "tools/run", "git status"),
    ("diff-external-glob", "diff.external", "sh tools/*", "tools/run", "git diff"),
    # a relative PATH given in the value: `run` is looked up in tools/
    ("diff-external-env-path", "diff.external", "env PATH=tools:/usr/bin:/bin run",
     "tools/run", "git diff"),
]


@pytest.mark.parametrize(("setting", "value", "target", "runs"),
                         [pytest.param(*c[1:], id=c[0]) for c in CASES])
def test_a_program_git_runs_is_guarded(tmp_path: Path, setting: str, value: str, target: str,
                                       runs: str) -> None:
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", f"Bash({runs})"])
    (project / "tools").mkdir()
    (project / "tools" / "run").write_text("#!/bin/sh\ncat >/dev/null\nexit 0\n")
    (project / "tools" / "run").chmod(0o755)
    git(project, "config", setting, value)
    git(project, "config", "color.ui", "always")
    (project / ".gitattributes").write_text("*.txt filter=x\n")  # filter.x applies
    evil = project / "evil" / "payload.sh"
    evil.parent.mkdir(exist_ok=True)
    evil.write_text("#!/bin/sh\ntouch \"$(git rev-parse --show-toplevel)/zz\"\ncat\n")
    evil.chmod(0o755)
    (project / "notes.txt").write_text("changed\n")
    copy = f"cp evil/payload.sh {target}"
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{copy} && {runs} </dev/null"], cwd=scratch,
                   capture_output=True, timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (copy, runs) if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the write and the git command that runs it"


def test_an_aliases_cd_then_a_folder_copy(tmp_path: Path) -> None:
    """``alias.t = !cd tools && ./run``: the gate guards ``<top>/./run`` (its words, not the
    shell's moves); a copy of a folder over ``tools`` names no guarded name, and ``git t``
    runs the copied ``tools/run``."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(git t)"])
    (project / "tools").mkdir()
    (project / "tools" / "run").write_text("#!/bin/sh\nexit 0\n")
    (project / "tools" / "run").chmod(0o755)
    git(project, "config", "alias.t", "!cd tools && ./run")
    (project / "evil" / "t").mkdir(parents=True, exist_ok=True)
    (project / "evil" / "t" / "run").write_text("#!/bin/sh\ntouch ../zz\n")
    (project / "evil" / "t" / "run").chmod(0o755)
    copy = "cp -r evil/t/. tools"
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{copy} && git t"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (copy, "git t") if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the copy and the git command that runs it"


def _nested(project: Path, tmp_path: Path, how: str) -> Path:
    """A repository inside ``project`` at ``vendor/lib`` (a submodule, or a clone of its own),
    with tools/run committed; its own configuration (the user's, git-guarded) runs it."""
    source = tmp_path / "libsrc"
    source.mkdir()
    git(source, "init", "-q")
    (source / "tools").mkdir()
    (source / "tools" / "run").write_text("#!/bin/sh\nexit 0\n")
    (source / "tools" / "run").chmod(0o755)
    (source / "a.txt").write_text("a\n")
    git(source, "add", ".")
    git(source, "commit", "-qm", "lib")
    if how == "submodule":
        git(project, "-c", "protocol.file.allow=always", "submodule", "add", "-q",
            str(source), "vendor/lib")
        git(project, "commit", "-qm", "lib")
    else:
        (project / "vendor").mkdir()
        git(project, "clone", "-q", str(source), "vendor/lib")
    lib = project / "vendor" / "lib"
    git(lib, "config", "core.fsmonitor", "tools/run")
    (lib / "a.txt").write_text("changed\n")  # status has something to ask about
    return lib


@pytest.mark.parametrize(("how", "runs"), [("submodule", "git status"),
                                           ("clone", "git -C vendor/lib status"),
                                           ("clone", "cd vendor/lib && git status")])
def test_a_program_a_nested_repositorys_settings_name_is_guarded(tmp_path: Path, how: str,
                                                                 runs: str) -> None:
    """A repository inside the project (a submodule, whose configuration is in the guarded
    .git/modules, or a clone) runs ``tools/run`` at its ``git status``: the gate reads the
    settings of the call folder's repositories and those above; now the submodules git
    recurses into (their programs guarded), and a clone git is moved to (denied)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", f"Bash({runs})"])
    _nested(project, tmp_path, how)
    scratch = tmp_path / "scratch"
    evil = project / "evil" / "payload.sh"
    evil.parent.mkdir(exist_ok=True)
    evil.write_text(f"#!/bin/sh\ntouch {scratch}/zz\n")
    evil.chmod(0o755)
    copy = "cp evil/payload.sh vendor/lib/tools/run"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{copy} && {runs}"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (copy, runs) if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the write and the git command that runs it"


#: (id, text appended to .git/config, a file written into .git, what git runs).
RAW_CONFIGS = [
    # a relative include (`path = .gitconfig.local` in ~/.gitconfig is the common form): the
    # including line has no slash, the included file is never looked at
    ("include-relative", "[include]\n\tpath = extra.inc\n",
     ("extra.inc", "[core]\n\tfsmonitor = tools/run\n"), "tools/run"),
    ("includeif-relative", '[includeIf "gitdir:/"]\n\tpath = extra.inc\n',
     ("extra.inc", "[core]\n\tfsmonitor = tools/run\n"), "tools/run"),
    # a continuation line ending in CRLF: git joins `tools\\` CR LF `/run`; the gate joins
    # only backslash-LF, and neither line has the setting's name with a slash
    ("crlf-continuation", "[core]\r\n\tfsmonitor = tools\\\r\n/run\r\n", None, "tools/run"),
    # git's escape `\\t`: one word in the file, `sh<TAB>run.sh` to git and sh
    ("tab-escape", "[core]\n\tfsmonitor = sh\\trun.sh\n", None, "run.sh"),
]


@pytest.mark.parametrize(("text", "extra", "target"),
                         [pytest.param(*c[1:], id=c[0]) for c in RAW_CONFIGS])
def test_a_program_named_in_a_configuration_git_reads_is_guarded(
        tmp_path: Path, text: str, extra: tuple[str, str] | None, target: str) -> None:
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(git status)"])
    (project / "tools").mkdir()
    (project / target).write_text("#!/bin/sh\nexit 0\n")
    (project / target).chmod(0o755)
    with (project / ".git" / "config").open("a", newline="") as f:
        f.write(text)
    if extra is not None:
        (project / ".git" / extra[0]).write_text(extra[1])
    (project / "notes.txt").write_text("changed\n")
    scratch = tmp_path / "scratch"
    evil = project / "evil" / "payload.sh"
    evil.parent.mkdir(exist_ok=True)
    evil.write_text(f"#!/bin/sh\ntouch {scratch}/zz\n")
    evil.chmod(0o755)
    copy = f"cp evil/payload.sh {target}"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{copy} && git status"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (copy, "git status") if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the write and the git command that runs it"


def test_a_module_beside_a_python_program_git_runs_is_guarded(tmp_path: Path) -> None:
    """``filter.x.clean = python3 tools/clean.py``: the gate guards tools/clean.py (a file),
    but Python puts the script's folder first on ``sys.path``, so a ``tools/json.py`` written
    beside it runs at ``git add`` when clean.py imports json: the script's folder is now
    guarded whole."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(git add notes.txt)"])
    (project / "tools").mkdir()
    (project / "tools" / "clean.py").write_text(
        "import json\nimport sys\n\nsys.stdout.write(sys.stdin.read())\n")
    git(project, "config", "filter.x.clean", "python3 tools/clean.py")
    (project / ".gitattributes").write_text("*.txt filter=x\n")
    (project / "notes.txt").write_text("changed\n")
    scratch = tmp_path / "scratch"
    (project / "evil" / "json.py").write_text(
        f"import pathlib\npathlib.Path({str(scratch / 'zz')!r}).touch()\n")
    copy, runs = "cp evil/json.py tools/json.py", "git add notes.txt"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{copy} && {runs}"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (copy, runs) if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the write and the git command that runs it"


def test_a_nested_repositorys_hooks_folder_is_guarded(tmp_path: Path) -> None:
    """Review G-10's case one level down: a clone inside the project with ``core.hooksPath
    .githooks``; a git run moved into it (``-C``) is now denied: its hooks were not guarded
    at the calls before."""
    project = tmp_path / "project"
    runs = "git -C vendor/lib commit --allow-empty -qm x"
    gated_project(project, ["Bash(cp *)", f"Bash({runs})"])
    lib = _nested(project, tmp_path, "clone")
    git(lib, "config", "core.hooksPath", ".githooks")
    git(lib, "config", "user.email", "a@b")
    git(lib, "config", "user.name", "a")
    (lib / ".githooks").mkdir()
    scratch = tmp_path / "scratch"
    evil = project / "evil" / "pre-commit"
    evil.parent.mkdir(exist_ok=True)
    evil.write_text(f"#!/bin/sh\ntouch {scratch}/zz\n")
    evil.chmod(0o755)
    copy = "cp evil/pre-commit vendor/lib/.githooks/pre-commit"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{copy} && {runs}"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no hook: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (copy, runs) if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the write and the git command that runs it"


def test_a_program_a_linked_worktree_runs_is_guarded(tmp_path: Path) -> None:
    """``core.fsmonitor = tools/run`` in the repository's configuration, shared by a linked
    worktree at ``wt`` (inside the project here; anywhere a call writes in general): the gate
    guards ``<top>/tools/run`` only; ``git -C wt status`` runs ``wt/tools/run``, which a
    folder copy (naming no guarded name) writes: the git run is now denied."""
    project = tmp_path / "project"
    runs = "git -C wt status"
    gated_project(project, ["Bash(cp *)", f"Bash({runs})"])
    (project / "tools").mkdir()
    (project / "tools" / "run").write_text("#!/bin/sh\nexit 0\n")
    (project / "tools" / "run").chmod(0o755)
    git(project, "add", "tools")
    git(project, "commit", "-qm", "tools")
    git(project, "worktree", "add", "-q", "wt")
    git(project, "config", "core.fsmonitor", "tools/run")
    scratch = tmp_path / "scratch"
    (project / "evil" / "t").mkdir(parents=True, exist_ok=True)
    (project / "evil" / "t" / "run").write_text(f"#!/bin/sh\ntouch {scratch}/zz\n")
    (project / "evil" / "t" / "run").chmod(0o755)
    copy = "cp -r evil/t/. wt/tools"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{copy} && {runs}"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (copy, runs) if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the write and the git command that runs it"


def test_a_relative_template_folder_is_guarded(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """``init.templateDir = .tmpl`` in the user's ~/.gitconfig (relative: read from the folder
    git runs in): one word without a slash, so the pre-check asks git nothing; ``git clone``
    copies ``.tmpl/hooks/post-checkout`` into the clone and runs it."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[init]\n\ttemplateDir = .tmpl\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    project = tmp_path / "project"
    source = tmp_path / "src"
    runs = f"git clone -q {source} dst"
    gated_project(project, ["Bash(cp *)", f"Bash({runs})"])
    source.mkdir()
    git(source, "init", "-q")
    git(source, "commit", "-q", "--allow-empty", "-m", "a")
    (project / ".tmpl" / "hooks").mkdir(parents=True)
    scratch = tmp_path / "scratch"
    evil = project / "evil" / "post-checkout"
    evil.parent.mkdir(exist_ok=True)
    evil.write_text(f"#!/bin/sh\ntouch {scratch}/zz\n")
    evil.chmod(0o755)
    copy = "cp evil/post-checkout .tmpl/hooks/post-checkout"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{copy} && {runs}"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no hook: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (copy, runs) if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the write and the git command that runs it"


def test_a_program_run_from_the_calls_folder_is_guarded(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``core.sshCommand = sh tools/x.sh`` (the user's ~/.gitconfig): ``git clone`` does not
    move to the repository's top, so it runs ``tools/x.sh`` from the call's folder; the gate
    guards it from the top only (``named_programs(top)``), and a folder copy in ``sub``
    naming no guarded name writes ``sub/tools/x.sh``."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[core]\n\tsshCommand = sh tools/x.sh\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    project = tmp_path / "project"
    runs = "git clone -q ssh://example.invalid/r dst"
    gated_project(project, ["Bash(cp *)", f"Bash({runs})"])
    (project / "sub" / "tools").mkdir(parents=True)
    scratch = tmp_path / "scratch"
    (project / "evil" / "t").mkdir(parents=True, exist_ok=True)
    (project / "evil" / "t" / "x.sh").write_text(f"#!/bin/sh\ntouch {scratch}/zz\n")
    copy = "cp -r ../evil/t/. tools"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{copy} && {runs}"], cwd=scratch / "sub",
                   capture_output=True, timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (copy, runs)
              if run_hook(settings, c, project / "sub").returncode == 2]
    assert denied, "the hook allows the write and the git command that runs it"


@pytest.mark.parametrize("value", ['sh "$PWD"/tools/run', "sh 'tools'/run",
                                   'sh "$(git rev-parse --show-toplevel)"/tools/run',
                                   "sh -c 'cd tools && sh ./run'"])
def test_a_quoted_part_of_a_program_git_runs_is_guarded(tmp_path: Path, value: str) -> None:
    """Shell quotes inside a value split the word the gate reads (its `_VALUE_WORD` stops at
    a quote): `"$PWD"/tools/run` is guarded as ``/tools/run``, `'tools'/run` as ``/run``;
    a folder copy over ``tools`` then writes what sh runs at ``git diff``."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(git diff)"])
    (project / "tools").mkdir()
    (project / "tools" / "run").write_text("exit 0\n")
    git(project, "config", "diff.external", value)
    (project / "notes.txt").write_text("changed\n")
    scratch = tmp_path / "scratch"
    (project / "evil" / "t").mkdir(parents=True, exist_ok=True)
    (project / "evil" / "t" / "run").write_text(f"touch {scratch}/zz\n")
    copy = "cp -r evil/t/. tools"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{copy} && git diff"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (copy, "git diff") if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the write and the git command that runs it"


@pytest.mark.parametrize("unpack", ["tar -xf evil/r.tar -C out", "cd out && tar -xf ../evil/r.tar"])
def test_a_repository_the_call_unpacks_runs_nothing(tmp_path: Path, unpack: str) -> None:
    """The model writes its own repository's configuration: an archive (bytes any covered
    `base64 -d > f` writes) holding ``r/.git/config`` with ``core.fsmonitor``, unpacked into
    ``out`` (no word names a ``.git``), then ``git -C out/r status`` runs the program."""
    project = tmp_path / "project"
    runs = "git -C out/r status"
    gated_project(project, ["Bash(cp *)", "Bash(tar *)", "Bash(cd *)", f"Bash({runs})"])
    scratch = tmp_path / "scratch"
    made = tmp_path / "made" / "r"
    made.mkdir(parents=True)
    git(made, "init", "-q")
    (made / "a.txt").write_text("a\n")
    git(made, "add", ".")
    git(made, "commit", "-qm", "a")
    (made / "a.txt").write_text("b\n")
    git(made, "config", "core.fsmonitor", f"sh -c 'touch {scratch}/zz'")
    subprocess.run(["tar", "-cf", str(project / "evil" / "r.tar"), "-C", str(made.parent), "r"],
                   check=True)
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{unpack} && cd {scratch} && {runs}"], cwd=scratch,
                   capture_output=True, timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (unpack, runs) if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the unpacking and the git command that runs it"


@pytest.mark.parametrize("copy", ["cp evil/pre-commit evil/r/.gi?/hooks/",
                                  "cp evil/pre-commit evil/r/.g*/hooks"])
def test_a_pattern_naming_a_new_repositorys_git_folder_is_denied(tmp_path: Path,
                                                                 copy: str) -> None:
    """Review G-15's rule (a path through ``/.git/`` at any depth) read after bash's
    expansion: ``git init -q evil/r`` (allowed), a copy into ``evil/r/.gi?/hooks`` (a
    pattern: the gate reads the folder before it, ``evil/r``, which holds nothing guarded),
    then ``git -C evil/r commit`` runs the hook."""
    project = tmp_path / "project"
    init, runs = "git init -q evil/r", "git -C evil/r commit --allow-empty -qm x"
    gated_project(project, ["Bash(cp *)", f"Bash({init})", f"Bash({runs})"])
    scratch = tmp_path / "scratch"
    evil = project / "evil" / "pre-commit"
    evil.parent.mkdir(exist_ok=True)
    evil.write_text(f"#!/bin/sh\ntouch {scratch}/zz\n")
    evil.chmod(0o755)
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{init} && {copy} && git -c user.email=a@b -c user.name=a "
                    f"-C evil/r commit --allow-empty -qm x"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no hook: the case proves nothing"
    settings = _settings_hook(project)
    assert run_hook(settings, init, project).returncode == 0  # the premise: allowed
    subprocess.run(["bash", "-c", init], cwd=project, check=True, timeout=60)
    denied = [c for c in (copy, runs) if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the write and the git command that runs it"
