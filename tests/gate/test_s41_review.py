"""Review s41 of the gate's guards (R13, the hard links; s41-nested, the repositories below the
call's folder): calls the hook allows that write a file git or the gate later reads or runs.
Each case proves the hole with real bash in a scratch copy, then asks the hook; the hook
allowing the call (or each of the calls) is the finding: these tests fail while the hole is
open."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from files_fixture import gated_project, git
from test_gate_files import _settings_hook, run_hook
from test_s40_review2 import _nested

#: About two minutes of CPU (real bash and fresh hook processes): CI's slow step runs them
#: (.ci/steps/30-slow.sh), as `pytest --slow -m slow` does here.
pytestmark = pytest.mark.slow

PAYLOAD = "[core]\n\thooksPath = evil-hooks\n"


def _linked_project(tmp_path: Path, program: str) -> Path:
    """A gated project granting ``program``, where ``backup/linked`` and ``backup/xaa`` are
    other names of ``.git/config`` (a ``cp -al`` snapshot made before the session), and
    ``linked``, ``src/linked``, ``payload`` hold a configuration that names a hooks folder."""
    project = tmp_path / "project"
    gated_project(project, [f"Bash({program} *)", "Bash(git status)", f"Read(/{project}/**)"])
    (project / "backup").mkdir()
    os.link(project / ".git" / "config", project / "backup" / "linked")
    os.link(project / ".git" / "config", project / "backup" / "xaa")
    (project / "backup" / "a" / "b").mkdir(parents=True)  # a name deeper in the folder
    os.link(project / ".git" / "config", project / "backup" / "a" / "b" / "deep")
    os.symlink("backup/linked", project / "sl")
    (project / "src" / "a" / "b").mkdir(parents=True)
    for name in ("payload", "linked", "src/linked", "src/a/b/deep"):
        (project / name).write_text(PAYLOAD)
    return project


def _written_through(project: Path, tmp_path: Path, command: str) -> bool:
    """Whether real bash, running ``command`` in a copy of ``project`` (links kept), rewrites
    the copy's ``.git/config``."""
    scratch = tmp_path / "scratch"
    subprocess.run(["cp", "-a", str(project), str(scratch)], check=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60)
    return "evil-hooks" in (scratch / ".git" / "config").read_text()


#: R13's rule looks at the files a command's words name; a program writing into a folder it
#: is given writes files no word names (the source's name, or a prefix's: `split`'s xaa).
INTO_A_FOLDER = ["cp linked backup/", "cp linked backup", "cp -r src/. backup",
                 "cp -t backup linked", "cp src/linked backup", "split -b 1000 payload backup/x",
                 "cp -u linked backup/", "cp -r src/a backup", "cp -rT src backup"]


@pytest.mark.parametrize("command", INTO_A_FOLDER)
def test_h1_a_write_into_a_folder_through_a_hard_link_into_git(tmp_path: Path,
                                                                command: str) -> None:
    project = _linked_project(tmp_path, command.split()[0])
    assert _written_through(project, tmp_path, command), "bash wrote nothing through the link"
    said = run_hook(_settings_hook(project), command, project)
    assert said.returncode == 2, "the hook allows a write through a hard link into .git"


#: A word with a pattern (`?`, `[d]`) is never asked about its file's names (`_named_file`
#: passes over it; `tree_word` looks at the folder before the pattern, by its path only).
PATTERNED = ["cp payload backup/linke?", "cp payload backup/linke[d]",
             "cp payload backup/lin?ed", "uniq payload backup/linke?",
             "cp backup/{../payload,linked}", "tee backup/linke? < payload",
             "tee -a backup/{linked,zz} < payload", "cp payload backup/a/*/deep",
             # an expansion in the operand of a program without an options table
             "shuf -o $PWD/backup/linked payload"]


@pytest.mark.parametrize("command", PATTERNED)
def test_h2_a_pattern_naming_a_hard_link_into_git(tmp_path: Path, command: str) -> None:
    project = _linked_project(tmp_path, command.split()[0])
    assert _written_through(project, tmp_path, command), "bash wrote nothing through the link"
    said = run_hook(_settings_hook(project), command, project)
    assert said.returncode == 2, "the hook allows a write through a hard link into .git"


#: A short option's attached value (``-oFILE``) is looked at by ``tree_word`` (by its path),
#: never by ``_named_file`` (by the file's names).
ATTACHED = ["sort -obackup/linked payload", "shuf -obackup/linked payload",
            "sort payload -o./backup/linked", "sort payload -osl"]


@pytest.mark.parametrize("command", ATTACHED)
def test_h3_an_attached_option_value_naming_a_hard_link_into_git(tmp_path: Path,
                                                                  command: str) -> None:
    project = _linked_project(tmp_path, command.split()[0])
    assert _written_through(project, tmp_path, command), "bash wrote nothing through the link"
    said = run_hook(_settings_hook(project), command, project)
    assert said.returncode == 2, "the hook allows a write through a hard link into .git"


@pytest.mark.parametrize("how", ["hook-file-link", "hooks-folder-link"])
def test_s1_a_hook_symlinked_from_git_into_the_tree(tmp_path: Path, how: str) -> None:
    """``.git/hooks/pre-commit -> ../../tools/pre-commit``, or ``.git/hooks -> ../tools``
    (the common ways to share hooks): git runs ``tools/pre-commit`` at ``git commit``; the
    gate guards ``.git`` by its path, and ``tools/pre-commit`` is no name in it nor another
    name of a file in it."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(git commit *)"])
    git(project, "config", "user.email", "a@b")
    git(project, "config", "user.name", "a")
    (project / "tools").mkdir()
    (project / "tools" / "pre-commit").write_text("#!/bin/sh\nexit 0\n")
    (project / "tools" / "pre-commit").chmod(0o755)
    if how == "hook-file-link":
        os.symlink("../../tools/pre-commit", project / ".git" / "hooks" / "pre-commit")
    else:
        shutil.rmtree(project / ".git" / "hooks")
        os.symlink("../tools", project / ".git" / "hooks")
    scratch = tmp_path / "scratch"
    (project / "payload").write_text(f"#!/bin/sh\ntouch {scratch}/zz\n")
    (project / "payload").chmod(0o755)
    (project / "notes.txt").write_text("changed\n")
    copy, runs = "cp payload tools/pre-commit", "git commit -qam x"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{copy} && {runs}"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (copy, runs, f"{copy} && {runs}")
              if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the write and the git command that runs it"


def test_s2_the_service_keeps_a_files_count_of_names_stale(tmp_path: Path) -> None:
    """``skillgrant serve`` keeps a file's identity, names counted, until an event names its
    entry; a hard link made to it from another folder (``ln tools/hook.sh
    .git/hooks/pre-commit``, a hook installed by hand) raises the count with no event on
    the file's folder (the kernel reports IN_ATTRIB to the inode's own watches only). The
    hook process then denies an Edit of ``tools/hook.sh``; the service must too."""
    import json
    import sys

    from serving import start

    work = tmp_path / "work"
    git(tmp_path, "init", "-q", str(work))
    (work / "tools").mkdir()
    target = work / "tools" / "hook.sh"
    target.write_text("#!/bin/sh\nexit 0\n")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{work}/**)"]}))
    payload = {"session_id": "s", "cwd": str(work), "hook_event_name": "PreToolUse",
               "tool_name": "Edit", "tool_input": {"file_path": str(target),
                                                   "old_string": "exit 0",
                                                   "new_string": "exit 1"}}

    def hook() -> str:
        done = subprocess.run([sys.executable, "-P", "-m", "skillgrant", "hook", "--plan",
                               str(plan)], input=json.dumps(payload), capture_output=True,
                              text=True, cwd=work, timeout=120)
        return done.stdout + done.stderr

    with start([f"p={plan}"]) as served:
        for _ in range(3):
            assert served.post("/v1/hook/p", payload).body == b""
        assert '"deny"' not in hook()
        os.link(target, work / ".git" / "hooks" / "pre-commit")
        fresh = hook()
        assert "2 names" in fresh, fresh  # the premise: R13's rule, asked afresh
        served_answer = served.post("/v1/hook/p", payload).body
        assert b'"deny"' in served_answer, (served_answer, fresh)


def test_s3_a_claude_folder_reached_by_a_link_from_claude(tmp_path: Path) -> None:
    """``.claude/hooks -> ../scripts`` (a project keeping its Claude Code hook scripts in the
    tree): the gate denies ``cp payload .claude/hooks/x.sh`` (the ``.claude`` folder the
    runtime reads its hooks from), and allows the same write by the file's other path."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)"])
    (project / "scripts").mkdir()
    (project / "scripts" / "x.sh").write_text("#!/bin/sh\n")
    os.symlink("../scripts", project / ".claude" / "hooks")
    (project / "payload").write_text("#!/bin/sh\ntouch zz\n")
    settings = _settings_hook(project)
    assert run_hook(settings, "cp payload .claude/hooks/x.sh", project).returncode == 2
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", "cp payload scripts/x.sh"], cwd=scratch, timeout=60)
    assert "zz" in (scratch / ".claude" / "hooks" / "x.sh").read_text()
    said = run_hook(settings, "cp payload scripts/x.sh", project)
    assert said.returncode == 2, "the same file is written by its other path"


@pytest.mark.parametrize("command", ["shuf -o .git/config payload",
                                     "shuf payload -o.git/config",
                                     "cpp -P payload .git/config",
                                     "objcopy -I binary -O binary payload .git/config",
                                     "gcc -E -P -x c payload -o .git/config"])
def test_w1_a_writer_outside_the_lists_writes_into_git(tmp_path: Path, command: str) -> None:
    """``shuf -o FILE`` is in no list of ``writers``: its operand is looked at by the guarded
    files' names only (``_named_file``, files only), never against the guarded folders, so
    it writes ``.git/config`` and the covered ``git status`` runs ``core.fsmonitor``.
    (docs/decisions.md says "a plain file writer outside the lists can still replace the
    settings file"; .git is not the settings file, and the name rule does not hold here.)"""
    project = tmp_path / "project"
    gated_project(project, [f"Bash({command.split()[0]} *)", "Bash(git status)"])
    (project / "payload").write_text('[core] fsmonitor = "touch zz; false"\n')
    (project / "notes.txt").write_text("changed\n")
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{command} && git status"], cwd=scratch,
                   capture_output=True, timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (command, "git status")
              if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the write into .git and the git command that runs it"


#: Writers that reach a nested repository's ``.git/config`` (the `/.git/` rule of review G-15
#: is ``tree_word``'s, for the listed folder writers only).
NESTED_GIT_WRITES = ["cat payload >> vendor/lib/.git/config",
                     "cat payload > vendor/lib/.git/config.worktree",
                     "shuf -o vendor/lib/.git/config.worktree payload"]


@pytest.mark.parametrize("write", NESTED_GIT_WRITES)
def test_n1_a_nested_repositorys_git_folder_written_then_run(tmp_path: Path,
                                                             write: str) -> None:
    """A clone inside the project (``vendor/lib``): a redirection, or a writer outside the
    lists, writes its ``.git/config`` (no call may, by review G-15; the s41 nested change
    leaves every ``.git`` path out of what it asks about, on that ground), and ``git -C
    vendor/lib status`` runs the ``core.fsmonitor`` written there."""
    project = tmp_path / "project"
    runs = "git -C vendor/lib status"
    gated_project(project, ["Bash(cat *)", "Bash(shuf *)", f"Edit(/{project}/**)",
                            f"Bash({runs})"])
    (project / "vendor").mkdir()
    git(project / "vendor", "init", "-q", "lib")
    git(project / "vendor" / "lib", "config", "extensions.worktreeConfig", "true")
    (project / "vendor" / "lib" / "a.txt").write_text("a\n")
    (project / "payload").write_text('[core] fsmonitor = "touch ../../zz; false"\n')
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{write} && {runs}"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (write, runs) if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the write into a nested .git and the git command"


def _clone_inside(project: Path, tmp_path: Path) -> Path:
    """A clone of a library at ``vendor/lib`` inside the project (no submodule), whose own
    configuration runs ``tools/run`` at ``git status``; the library's file changed."""
    return _nested(project, tmp_path, "clone")


@pytest.mark.parametrize("runs", ["git add vendor/lib && git status", "git add . && git status",
                                  "git add -A && git status", "git add vendor && git status",
                                  "git add --all && git status", "git add :/ && git status"])
def test_n2_a_nested_clone_made_a_submodule_by_git_add(tmp_path: Path, runs: str) -> None:
    """The submodules are read from the index when a call is decided; ``git add vendor/lib``
    (a clone inside the project: git adds it as a gitlink, with a warning) makes it one, and
    the ``git status`` after it in the same call recurses into it and runs its
    ``core.fsmonitor``, whose file an earlier call wrote while the clone was no submodule."""
    project = tmp_path / "project"
    copy = "cp evil/payload.sh vendor/lib/tools/run"
    gated_project(project, ["Bash(cp *)", "Bash(git add *)", "Bash(git status)"])
    _clone_inside(project, tmp_path)
    scratch = tmp_path / "scratch"
    evil = project / "evil" / "payload.sh"
    evil.write_text(f"#!/bin/sh\ntouch {scratch}/zz\nexit 0\n")
    evil.chmod(0o755)
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{copy} && {runs}"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (copy, runs) if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the write and the git command that runs it"


@pytest.mark.parametrize("name", ["x=lib", "a;b", "a|b", "a&b"])
def test_n4_a_cd_operand_read_through_another_tokenizer(tmp_path: Path, name: str) -> None:
    """A copy of a nested clone (its ``.git`` with it) under a name holding ``=`` or a quoted
    operator; the s41-nested draft's ``git_folders`` removes the quotes and splits at ``=``,
    ``;``, ``|``, ``&``, so ``cd 'a;b'`` reads as ``cd a`` (a folder of the project's own
    repository), and git runs the copy's ``core.fsmonitor``."""
    project = tmp_path / "project"
    calls = [f"cp -r vendor/lib '{name}'", f"cp evil/payload.sh '{name}/tools/run'",
             f"cd '{name}' && git status"]
    gated_project(project, ["Bash(cp *)", "Bash(cd *)", "Bash(git status)"])
    _clone_inside(project, tmp_path)
    scratch = tmp_path / "scratch"
    evil = project / "evil" / "payload.sh"
    evil.write_text("#!/bin/sh\ntouch ../zz\nexit 0\n")  # from the copy's top
    evil.chmod(0o755)
    shutil.copytree(project, scratch, symlinks=True)
    settings = _settings_hook(project)
    denied = []
    for call in calls:  # each decided in the state the calls before it left
        if run_hook(settings, call, project).returncode == 2:
            denied.append(call)
        subprocess.run(["bash", "-c", call], cwd=project, capture_output=True, timeout=60)
        subprocess.run(["bash", "-c", call], cwd=scratch, capture_output=True, timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    assert denied, "the hook allows the copy, the write and the git command that runs it"


@pytest.mark.parametrize("runs", ["cp -rT vendor/lib sub && git status",
                                  "rmdir sub && mv vendor/lib sub && git status"])
def test_n2b_a_registered_submodule_populated_by_a_copy(tmp_path: Path, runs: str) -> None:
    """N2's sibling: a submodule registered but not checked out (``sub``, skipped when the
    call is decided), filled in the call by a copy or a move of a nested clone, whose
    ``core.fsmonitor`` the ``git status`` after it then runs."""
    project = tmp_path / "project"
    copy = "cp evil/payload.sh vendor/lib/tools/run"
    gated_project(project, ["Bash(cp *)", "Bash(mv *)", "Bash(rmdir *)", "Bash(git status)"])
    _clone_inside(project, tmp_path)
    git(project, "-c", "protocol.file.allow=always", "submodule", "add", "-q",
        str(tmp_path / "libsrc"), "sub")
    git(project, "commit", "-qm", "sub")
    git(project, "submodule", "deinit", "-q", "-f", "sub")
    scratch = tmp_path / "scratch"
    evil = project / "evil" / "payload.sh"
    evil.write_text(f"#!/bin/sh\ntouch {scratch}/zz\nexit 0\n")
    evil.chmod(0o755)
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{copy} && {runs}"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (copy, runs) if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the write and the git command that runs it"


_PY_FILTER = ("#!/usr/bin/env python3\nimport json\nimport sys\n\n"
              "sys.stdout.write(sys.stdin.read())\n")


@pytest.mark.parametrize("how", ["shebang", "symlinked-script"])
def test_v7_a_module_beside_a_python_program_reached_otherwise(tmp_path: Path,
                                                               how: str) -> None:
    """V7 is closed for a setting naming the interpreter (``python3 tools/clean.py`` guards
    ``tools/``). A Python program run by its ``#!`` line (``filter.x.clean = tools/clean``)
    names no interpreter; a script that is a link (``tools/clean.py -> ../lib/clean.py``)
    has Python put the folder of its target first on ``sys.path`` (``lib/``). Either way a
    ``json.py`` written beside it runs at ``git add``."""
    project = tmp_path / "project"
    runs = "git add notes.txt"
    gated_project(project, ["Bash(cp *)", f"Bash({runs})"])
    if how == "shebang":
        (project / "tools").mkdir()
        (project / "tools" / "clean").write_text(_PY_FILTER)
        (project / "tools" / "clean").chmod(0o755)
        git(project, "config", "filter.x.clean", "tools/clean")
        copy = "cp evil/json.py tools/json.py"
    else:
        (project / "lib").mkdir()
        (project / "lib" / "clean.py").write_text(_PY_FILTER)
        (project / "tools").mkdir()
        os.symlink("../lib/clean.py", project / "tools" / "clean.py")
        git(project, "config", "filter.x.clean", "python3 tools/clean.py")
        copy = "cp evil/json.py lib/json.py"
    (project / ".gitattributes").write_text("*.txt filter=x\n")
    (project / "notes.txt").write_text("changed\n")
    scratch = tmp_path / "scratch"
    (project / "evil" / "json.py").write_text(
        f"import pathlib\npathlib.Path({str(scratch / 'zz')!r}).touch()\n")
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{copy} && {runs}"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    denied = [c for c in (copy, runs) if run_hook(settings, c, project).returncode == 2]
    assert denied, "the hook allows the write and the git command that runs it"


@pytest.mark.parametrize("how", ["new-git-file", "submodule-git-file"])
def test_n5_a_git_file_written_in_the_call_names_a_git_folder(tmp_path: Path,
                                                               how: str) -> None:
    """A ``.git`` file is a working-tree file a redirection may write (no `/.git/` in its
    path). ``git init --bare evilgit`` with ``cp evilcfg evilgit/config`` builds a git folder
    named without ``.git``; then, in one call, ``echo 'gitdir: …' > sub/.git`` (a new one:
    when the call is decided ``sub`` is a folder of the project's repository) or ``> vendor
    /lib/.git`` (a submodule's, read as it was before the call) sends the git run after it
    there, and git runs its ``core.fsmonitor``."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(echo *)", "Bash(git status)",
                            "Bash(git init *)", "Bash(git -C *)", f"Edit(/{project}/**)"])
    if how == "new-git-file":
        (project / "sub").mkdir()
        (project / "sub" / "a.txt").write_text("a\n")
        runs = "echo 'gitdir: ../evilgit' > sub/.git && git -C sub status"
        climb = ".."
    else:
        source = tmp_path / "libsrc"
        source.mkdir()
        git(source, "init", "-q")
        (source / "a.txt").write_text("a\n")
        git(source, "add", ".")
        git(source, "commit", "-qm", "lib")
        git(project, "-c", "protocol.file.allow=always", "submodule", "add", "-q",
            str(source), "vendor/lib")
        git(project, "commit", "-qm", "lib")
        (project / "vendor" / "lib" / "a.txt").write_text("changed\n")
        runs = "echo 'gitdir: ../../evilgit' > vendor/lib/.git && git status"
        climb = "../.."
    (project / "evilcfg").write_text(
        f'[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch {climb}/zz; false"\n')
    calls = ["git init -q --bare evilgit && cp evilcfg evilgit/config", runs]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    settings = _settings_hook(project)
    denied = []
    for call in calls:  # each decided in the state the calls before it left
        if run_hook(settings, call, project).returncode == 2:
            denied.append(call)
        subprocess.run(["bash", "-c", call], cwd=project, capture_output=True, timeout=60)
        subprocess.run(["bash", "-c", call], cwd=scratch, capture_output=True, timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    assert denied, "the hook allows the git folder, the .git file and the git run"


def test_n6_a_second_name_makes_a_written_program_count_as_guarded(tmp_path: Path) -> None:
    """R13 and the s41-nested change together: ``Index.find`` answers a folder for any file
    with two names on a guarded folder's device (R13's reason to deny a write), and
    ``gitreach._unguarded`` reads any answer as "guarded at every call". So a nested clone's
    ``tools/run``, written while it had one name, then given another by ``ln``, counts as
    guarded, and ``git -C vendor/lib status`` runs it."""
    project = tmp_path / "project"
    calls = ["cp evil/payload.sh vendor/lib/tools/run", "ln vendor/lib/tools/run spare",
             "git -C vendor/lib status"]
    gated_project(project, ["Bash(cp *)", "Bash(ln *)", f"Bash({calls[2]})"])
    _clone_inside(project, tmp_path)
    evil = project / "evil" / "payload.sh"
    evil.write_text("#!/bin/sh\ntouch ../../zz\nexit 0\n")  # from the clone's top
    evil.chmod(0o755)
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    settings = _settings_hook(project)
    denied = []
    for call in calls:  # each decided in the state the calls before it left
        if run_hook(settings, call, project).returncode == 2:
            denied.append(call)
        subprocess.run(["bash", "-c", call], cwd=project, capture_output=True, timeout=60)
        subprocess.run(["bash", "-c", call], cwd=scratch, capture_output=True, timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    assert denied, "the hook allows the write, the second name and the git run"


def test_s1c_the_repositorys_configuration_a_link_into_the_tree(tmp_path: Path) -> None:
    """S1's root for git's own configuration: ``.git/config -> ../repo.cfg`` (kept in the
    tree); ``cp payload repo.cfg && git status`` writes it and runs its fsmonitor."""
    project = tmp_path / "project"
    command = "cp payload repo.cfg && git status"
    gated_project(project, ["Bash(cp *)", "Bash(git status)"])
    os.rename(project / ".git" / "config", project / "repo.cfg")
    os.symlink("../repo.cfg", project / ".git" / "config")
    (project / "payload").write_text('[core] fsmonitor = "touch zz; false"\n')
    (project / "notes.txt").write_text("changed\n")
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    assert run_hook(_settings_hook(project), command, project).returncode == 2, \
        "the hook allows the write of git's configuration and the git run"


@pytest.mark.parametrize("how", ["hook-script", "skill-file"])
def test_l1_a_link_two_levels_down_in_claude(tmp_path: Path, how: str) -> None:
    """main 05a3854 follows links in ``.claude`` and one level into its folders
    (``linked.claude_items``); a link one level further (``.claude/hooks/fmt/run.sh ->
    ../../../tools/fmt.sh``, ``.claude/skills/y/SKILL.md -> …``) is not followed: the gate
    denies the write by the ``.claude`` path and allows it by the file's other path."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)"])
    if how == "hook-script":
        (project / "tools").mkdir()
        target = project / "tools" / "fmt.sh"
        inside = project / ".claude" / "hooks" / "fmt" / "run.sh"
    else:
        (project / "myskills" / "x").mkdir(parents=True)
        target = project / "myskills" / "x" / "SKILL.md"
        inside = project / ".claude" / "skills" / "y" / "SKILL.md"
    target.write_text("#!/bin/sh\n")
    inside.parent.mkdir(parents=True)
    os.symlink(os.path.relpath(target, inside.parent), inside)
    (project / "payload").write_text("#!/bin/sh\ntouch zz\n")
    settings = _settings_hook(project)
    direct = f"cp payload {inside.relative_to(project)}"
    other = f"cp payload {target.relative_to(project)}"
    assert run_hook(settings, direct, project).returncode == 2
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", other], cwd=scratch, timeout=60)
    assert "zz" in (scratch / inside.relative_to(project)).read_text()
    assert run_hook(settings, other, project).returncode == 2, \
        "the same file is written by its other path"


@pytest.mark.xfail(strict=True, reason="open (review s41 L2, a class): what a hook runs "
                   "(docs/decisions.md)")
def test_l2_a_hook_that_runs_a_tracked_script(tmp_path: Path) -> None:
    """``.git/hooks/pre-commit`` is a plain file (guarded) that runs ``scripts/precommit.sh``
    of the working tree (as the pre-commit framework runs what ``.pre-commit-config.yaml``
    names): the script is no hook and no named program, so ``cp payload
    scripts/precommit.sh && git commit`` runs the payload."""
    project = tmp_path / "project"
    command = "cp payload scripts/precommit.sh && git commit -qam x"
    gated_project(project, ["Bash(cp *)", "Bash(git commit *)"])
    git(project, "config", "user.email", "a@b")
    git(project, "config", "user.name", "a")
    (project / "scripts").mkdir()
    (project / "scripts" / "precommit.sh").write_text("exit 0\n")
    hook = project / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\nexec sh scripts/precommit.sh\n")
    hook.chmod(0o755)
    scratch = tmp_path / "scratch"
    (project / "payload").write_text(f"touch {scratch}/zz\n")
    (project / "notes.txt").write_text("changed\n")
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60)
    assert (scratch / "zz").exists(), "bash ran no hook: the case proves nothing"
    assert run_hook(_settings_hook(project), command, project).returncode == 2, \
        "the hook allows the write of what the git hook runs, and the commit"


@pytest.mark.parametrize("how", ["submodule-config", "worktree-config"])
def test_l3_a_second_name_of_a_git_file_not_in_git_files(tmp_path: Path, how: str) -> None:
    """main 05a3854 denies every call while a file of ``linked.GIT_FILES`` (config,
    config.worktree, commondir, gitdir of the session's git folders) or a hook has a second
    name; a submodule's configuration (``.git/modules/vendor/lib/config``) and a linked
    worktree's (``.git/worktrees/wt/config.worktree``) are none of them. A folder copy
    writes one through ``backup/``, and git runs its ``core.fsmonitor``."""
    project = tmp_path / "project"
    if how == "submodule-config":
        calls = ["cp src/config backup/", "git status"]
    else:
        calls = ["cp src/config.worktree backup/", "git -C wt status"]
    gated_project(project, ["Bash(cp *)", f"Bash({calls[1]})"])
    (project / "backup").mkdir()
    (project / "src").mkdir()
    if how == "submodule-config":
        source = tmp_path / "libsrc"
        source.mkdir()
        git(source, "init", "-q")
        (source / "a.txt").write_text("a\n")
        git(source, "add", ".")
        git(source, "commit", "-qm", "lib")
        git(project, "-c", "protocol.file.allow=always", "submodule", "add", "-q",
            str(source), "vendor/lib")
        git(project, "commit", "-qm", "lib")
        (project / "vendor" / "lib" / "a.txt").write_text("changed\n")
        config = project / ".git" / "modules" / "vendor" / "lib" / "config"
        os.link(config, project / "backup" / "config")
        (project / "src" / "config").write_text(
            config.read_text() + '[core]\n\tfsmonitor = "touch zz; false"\n')
        ran = "vendor/lib/zz"
    else:
        git(project, "config", "extensions.worktreeConfig", "true")
        git(project, "worktree", "add", "-q", "wt")
        git(project / "wt", "config", "--worktree", "color.ui", "auto")
        (project / "wt" / "notes.txt").write_text("changed\n")
        os.link(project / ".git" / "worktrees" / "wt" / "config.worktree",
                project / "backup" / "config.worktree")
        (project / "src" / "config.worktree").write_text(
            '[core]\n\tfsmonitor = "touch zz; false"\n')  # (no path: no named file)
        ran = "wt/zz"
    scratch = tmp_path / "scratch"
    subprocess.run(["cp", "-a", str(project), str(scratch)], check=True)  # links kept
    settings = _settings_hook(project)
    denied = []
    for call in calls:  # each decided in the state the calls before it left
        if run_hook(settings, call, project).returncode == 2:
            denied.append(call)
        subprocess.run(["bash", "-c", call], cwd=project, capture_output=True, timeout=60)
        subprocess.run(["bash", "-c", call], cwd=scratch, capture_output=True, timeout=60)
    assert (scratch / ran).exists(), "bash ran no program: the case proves nothing"
    assert denied, "the hook allows the copy through the second name and the git run"


@pytest.mark.parametrize("inside", [".claude/hooks/x.sh", ".claude/skills/y/SKILL.md",
                                    ".claude/agents/a.md", ".github/hooks/hooks.json",
                                    ".codex/config.toml", ".git/info/attributes"])
def test_l4_a_second_name_of_a_file_inside_a_guarded_folder(tmp_path: Path,
                                                            inside: str) -> None:
    """main 05a3854 closes H1 by denying every call while a guarded FILE (or a git file of
    ``linked.GIT_FILES``/``GIT_HOOKS``) has a second name. A file inside a guarded FOLDER
    (a Claude Code hook script, a skill, an agent, Copilot's hooks file, Codex's settings)
    is neither, and ``cp src/NAME backup/`` still writes it through its other name
    (R13's own premise: a ``cp -al`` snapshot made before the session)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)"])
    target = project / inside
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("orig\n")
    (project / "backup").mkdir()
    os.link(target, project / "backup" / target.name)
    (project / "src").mkdir()
    (project / "src" / target.name).write_text("EVIL\n")
    command = f"cp src/{target.name} backup/"
    scratch = tmp_path / "scratch"
    subprocess.run(["cp", "-a", str(project), str(scratch)], check=True)  # links kept
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60)
    assert "EVIL" in (scratch / inside).read_text(), "bash wrote nothing through the link"
    said = run_hook(_settings_hook(project), command, project)
    assert said.returncode == 2, "the hook allows a write through a second name"


@pytest.mark.parametrize("inside", [".claude/hooks/x.sh", ".github/hooks/hooks.json",
                                    ".claude/agents/a.md"])
def test_l5_link_makes_the_second_name_in_the_session(tmp_path: Path, inside: str) -> None:
    """L4 with no snapshot made before the session: coreutils' ``link`` (in no list of
    ``writers``; its operand lies in a guarded folder, which ``_named_file`` does not look
    at) makes ``backup/NAME`` another name of a file in ``.claude`` or ``.github/hooks``,
    and a folder copy then writes through it."""
    project = tmp_path / "project"
    calls = [f"link {inside} backup/{inside.rsplit('/', 1)[1]}",
             f"cp src/{inside.rsplit('/', 1)[1]} backup/"]
    gated_project(project, ["Bash(cp *)", "Bash(link *)"])
    target = project / inside
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("orig\n")
    (project / "backup").mkdir()
    (project / "src").mkdir()
    (project / "src" / target.name).write_text("EVIL\n")
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    settings = _settings_hook(project)
    denied = []
    for call in calls:  # each decided in the state the calls before it left
        if run_hook(settings, call, project).returncode == 2:
            denied.append(call)
        subprocess.run(["bash", "-c", call], cwd=project, capture_output=True, timeout=60)
        subprocess.run(["bash", "-c", call], cwd=scratch, capture_output=True, timeout=60)
    assert "EVIL" in (scratch / inside).read_text(), "bash wrote nothing through the link"
    assert denied, "the hook allows the second name and the write through it"


def test_s4_a_link_inside_the_users_git_folder(tmp_path: Path) -> None:
    """S3's root in the home folder: ``~/.config/git/config -> ~/dotfiles/git-config`` (GNU
    stow without folding links each file). The gate denies a write to the link's path and
    allows it to the target's, and git reads the target as the user's configuration:
    ``git status`` then runs its ``core.fsmonitor``. (Likewise ``~/.ssh/config``,
    ``.github/hooks/hooks.json``, ``.codex/config.toml`` as links: measured, not tested
    here.)"""
    from test_gate_files import payload as call_payload

    home = tmp_path / "home"
    (home / ".config" / "git").mkdir(parents=True)
    (tmp_path / "dotfiles").mkdir()
    target = tmp_path / "dotfiles" / "git-config"
    target.write_text("[user]\n\tname = someone\n")
    os.symlink(target, home / ".config" / "git" / "config")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(git status)"])
    (project / "payload").write_text('[core] fsmonitor = "touch zz; false"\n')
    (project / "notes.txt").write_text("changed\n")
    env = {**os.environ, "HOME": str(home)}
    env.pop("XDG_CONFIG_HOME", None)
    env.pop("GIT_CONFIG_GLOBAL", None)
    settings = _settings_hook(project)

    def hook(call: str) -> int:
        return subprocess.run(["/bin/sh", "-c", settings], input=call_payload(call, project),
                              cwd=project, env=env, capture_output=True, timeout=60).returncode

    assert hook(f"cp payload {home}/.config/git/config") == 2
    copy = f"cp payload {target}"
    denied = [c for c in (copy, "git status") if hook(c) == 2]
    subprocess.run(["bash", "-c", f"{copy} && git status"], cwd=project, env=env,
                   capture_output=True, timeout=60)
    assert (project / "zz").exists(), "bash ran no program: the case proves nothing"
    assert denied, "the hook allows the write of git's configuration by its other path"


@pytest.mark.parametrize("command", [
    "gcc -E -P -x c src/x.sh -o .claude/hooks/x.sh",
    "link .claude/hooks/x.sh b && gcc -E -P -x c src/x.sh -o b"])
def test_w2_a_writer_outside_the_lists_writes_into_claude(tmp_path: Path, command: str) -> None:
    """W1 outside ``.git``: a writer in no list (``gcc -E -o``) writes a Claude Code hook
    script in ``.claude/hooks`` (the folder is guarded, but ``_named_file`` looks at
    guarded files only, and only listed writers' words are looked at by path), directly or
    through a second name ``link`` makes in the same call (every later call would be
    denied: ``linked.single_name``)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(gcc *)", "Bash(link *)"])
    (project / ".claude" / "hooks").mkdir()
    (project / ".claude" / "hooks" / "x.sh").write_text("#!/bin/sh\n")
    (project / "src").mkdir()
    (project / "src" / "x.sh").write_text("touch zz\n")
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60)
    assert "touch zz" in (scratch / ".claude" / "hooks" / "x.sh").read_text(), \
        "bash wrote nothing: the case proves nothing"
    assert run_hook(_settings_hook(project), command, project).returncode == 2, \
        "the hook allows the write of a Claude Code hook script"


def test_s5_a_program_on_path_that_is_a_link_into_the_tree(tmp_path: Path) -> None:
    """Review H-12 guards the folders of ``PATH`` (a write there is a write to the program
    the gate judged by its name); ``~/.local/bin/mytool -> ~/code/project/tools/mytool.sh``
    (a tool installed by a link, the common way for one's own scripts) leads out of the
    folder: ``cp payload tools/mytool.sh && mytool`` runs the payload under a plan that
    granted ``mytool``."""
    from test_gate_files import payload as call_payload

    project = tmp_path / "project"
    command = "cp payload tools/mytool.sh && mytool"
    gated_project(project, ["Bash(cp *)", "Bash(mytool)"])
    (project / "tools").mkdir()
    (project / "tools" / "mytool.sh").write_text("#!/bin/sh\necho hi\n")
    (project / "tools" / "mytool.sh").chmod(0o755)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    os.symlink(project / "tools" / "mytool.sh", bindir / "mytool")
    scratch = tmp_path / "scratch"
    (project / "payload").write_text(f"#!/bin/sh\ntouch {scratch}/zz\n")
    env = {**os.environ, "PATH": f"{bindir}:{os.environ['PATH']}"}
    settings = _settings_hook(project)
    said = subprocess.run(["/bin/sh", "-c", settings], input=call_payload(command, project),
                          cwd=project, env=env, capture_output=True, timeout=60)
    scratch.mkdir()
    subprocess.run(["bash", "-c", command], cwd=project, env=env, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    assert said.returncode == 2, "the hook allows the write of a program on PATH, and its run"


def test_s6_a_skills_script_that_is_a_link_into_the_tree(tmp_path: Path) -> None:
    """Review G-13 guards the skill's folder whole (the scripts ``${CLAUDE_SKILL_DIR}``
    entries run); a script there that is a link (``scripts/run.sh -> project/tools/run.sh``)
    leads out of it, and the skill's folder is walked for links only under a ``.claude``
    (a plugin's skill, or one applied with ``--skill-dir`` elsewhere, is not): ``cp payload
    tools/run.sh``, then the granted ``${CLAUDE_SKILL_DIR}/scripts/run.sh``, runs it."""
    import json

    from test_gate_files import payload as call_payload

    from skillgrant.gate.config import snippet

    project = tmp_path / "project"
    project.mkdir()
    git(project, "init", "-q")
    skill = tmp_path / "plugins" / "x" / "skills" / "s"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: s\n---\n")
    (project / "tools").mkdir()
    (project / "tools" / "run.sh").write_text("#!/bin/sh\necho ok\n")
    (project / "tools" / "run.sh").chmod(0o755)
    os.symlink(project / "tools" / "run.sh", skill / "scripts" / "run.sh")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [
        "Bash(cp *)", "Bash(${CLAUDE_SKILL_DIR}/scripts/run.sh)"]}))
    printed = json.loads(snippet("claude-code", {"--plan": str(plan),
                                                 "--skill-dir": str(skill)})[0])
    settings = printed["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    (project / "payload").write_text(f"#!/bin/sh\ntouch {tmp_path}/zz\n")
    calls = ["cp payload tools/run.sh", f"{skill}/scripts/run.sh"]
    denied = []
    for call in calls:
        said = subprocess.run(["/bin/sh", "-c", settings], input=call_payload(call, project),
                              cwd=project, capture_output=True, timeout=60)
        if said.returncode == 2:
            denied.append(call)
        subprocess.run(["bash", "-c", call], cwd=project, capture_output=True, timeout=60)
    assert (tmp_path / "zz").exists(), "bash ran no program: the case proves nothing"
    assert denied, "the hook allows the write of the skill's script and its run"


def test_v7f_a_pth_file_in_the_users_site_packages(tmp_path: Path) -> None:
    """V7's other door: a Python program git runs (``filter.x.clean = python3
    tools/clean.py``, its folder guarded whole since s41) first reads the user's
    site-packages (``~/.local/lib/python3.X/site-packages``), and runs every ``import`` line
    of a ``.pth`` file there. Nothing guards that folder: ``cp evil.pth <user site>/`` and
    ``git add notes.txt`` run the payload."""
    from test_gate_files import payload as call_payload

    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "PATH": "/usr/bin:/bin"}
    env.pop("XDG_CONFIG_HOME", None)
    env.pop("PYTHONNOUSERSITE", None)
    site = subprocess.run(["python3", "-m", "site", "--user-site"], env=env,
                          capture_output=True, text=True, check=True).stdout.strip()
    project = tmp_path / "project"
    calls = [f"mkdir -p {site} && cp evil.pth {site}/evil.pth", "git add notes.txt"]
    gated_project(project, ["Bash(cp *)", "Bash(mkdir *)", f"Bash({calls[1]})"])
    (project / "tools").mkdir()
    (project / "tools" / "clean.py").write_text(
        "import sys\nsys.stdout.write(sys.stdin.read())\n")
    git(project, "config", "filter.x.clean", "python3 tools/clean.py")
    (project / ".gitattributes").write_text("*.txt filter=x\n")
    (project / "notes.txt").write_text("changed\n")
    (project / "evil.pth").write_text(f"import os; os.system('touch {tmp_path}/zz')\n")
    settings = _settings_hook(project)
    denied = []
    for call in calls:
        said = subprocess.run(["/bin/sh", "-c", settings], input=call_payload(call, project),
                              cwd=project, env=env, capture_output=True, timeout=60)
        if said.returncode == 2:
            denied.append(call)
        subprocess.run(["bash", "-c", call], cwd=project, env=env, capture_output=True,
                       timeout=60)
    assert (tmp_path / "zz").exists(), "bash ran no program: the case proves nothing"
    assert denied, "the hook allows the .pth and the git command that runs Python"


def test_e1_the_editor_git_starts_reads_the_users_vimrc(tmp_path: Path) -> None:
    """``git commit`` without ``-m`` (or ``--amend``) starts the editor (no ``core.editor``
    nor ``$EDITOR``: ``vi``), which runs the commands of ``~/.vimrc``. The gate guards the
    shell's start-up files in the home folder (``_HOME_CODE``) and git's configuration, not
    the editor's: ``cp vimrc ~/.vimrc`` and ``git commit`` run the payload."""
    from test_gate_files import payload as call_payload

    if shutil.which("vi") is None:
        pytest.skip("no vi here")
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("EDITOR", "VISUAL", "GIT_EDITOR", "XDG_CONFIG_HOME", "EXINIT",
                        "VIMINIT")}
    env.update({"HOME": str(home), "TERM": "xterm"})
    project = tmp_path / "project"
    calls = [f"cp vimrc {home}/.vimrc", "git commit"]
    gated_project(project, ["Bash(cp *)", "Bash(git commit *)"])
    git(project, "config", "user.email", "a@b")
    git(project, "config", "user.name", "a")
    (project / "notes.txt").write_text("changed\n")
    git(project, "add", "notes.txt")
    (project / "vimrc").write_text(f"silent !touch {tmp_path}/zz\nautocmd VimEnter * cq\n")
    settings = _settings_hook(project)
    denied = []
    for call in calls:
        said = subprocess.run(["/bin/sh", "-c", settings], input=call_payload(call, project),
                              cwd=project, env=env, capture_output=True, timeout=60)
        if said.returncode == 2:
            denied.append(call)
        subprocess.run(["bash", "-c", call], cwd=project, env=env, capture_output=True,
                       timeout=60, stdin=subprocess.DEVNULL)
    assert (tmp_path / "zz").exists(), "bash ran no editor: the case proves nothing"
    assert denied, "the hook allows the editor's start-up file and the commit that runs it"


_KUBECONFIG = """apiVersion: v1
kind: Config
clusters:
- cluster: {server: "https://127.0.0.1:1"}
  name: c
contexts:
- context: {cluster: c, user: u}
  name: x
current-context: x
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: sh
      args: ["-c", "touch RAN; exit 1"]
      interactiveMode: Never
"""


def test_k1_kubectls_configuration_runs_a_credential_program(tmp_path: Path) -> None:
    """As ``~/.sqliterc``, ``~/.curlrc`` and ``~/.ssh`` (``_HOME_CODE``): a program a plan
    covers reads its configuration in the home folder as what to run. ``kubectl`` runs a
    user's ``exec`` credential program (``~/.kube/config``) before it asks the server:
    ``cp kubeconfig ~/.kube/config`` and ``kubectl get pods`` run the payload. (Likewise
    ``~/.aws/config``'s ``credential_process`` for ``aws``: not run here.)"""
    from test_gate_files import payload as call_payload

    if shutil.which("kubectl") is None:
        pytest.skip("no kubectl here")
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home)}
    env.pop("KUBECONFIG", None)
    project = tmp_path / "project"
    calls = [f"mkdir -p {home}/.kube && cp kubeconfig {home}/.kube/config",
             "kubectl get pods --request-timeout=2s"]
    gated_project(project, ["Bash(cp *)", "Bash(mkdir *)", "Bash(kubectl get *)"])
    (project / "kubeconfig").write_text(_KUBECONFIG.replace("RAN", str(tmp_path / "zz")))
    settings = _settings_hook(project)
    denied = []
    for call in calls:
        said = subprocess.run(["/bin/sh", "-c", settings], input=call_payload(call, project),
                              cwd=project, env=env, capture_output=True, timeout=60)
        if said.returncode == 2:
            denied.append(call)
        subprocess.run(["bash", "-c", call], cwd=project, env=env, capture_output=True,
                       timeout=60)
    assert (tmp_path / "zz").exists(), "kubectl ran no program: the case proves nothing"
    assert denied, "the hook allows kubectl's configuration and the kubectl run"
