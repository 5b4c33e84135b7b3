"""Review holes of the gate's own files left open in session 36 (issue 29): G-5, G-10, G-12,
G-16b, G-17, G-19, each judged with real bash first (the command, run in a copy of the
project, replaces the gate's settings or runs a program outside the plan) and then through
the printed hook (denied). The options of programs that write files or run others are read
from an allow-list (gate/optables.py); sed's script command by command (gate/sedscript.py),
checked against GNU sed itself; git's hooks folder and a linked worktree's main checkout are
found where git and Claude Code look (gate/worktree.py). End to end through Claude Code:
tests/conformance/test_gate_files_e2e.py (G-10, G-12).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from files_fixture import gated_project, git
from test_gate_files import _hook_gone, _settings_hook, run_hook

#: Real bash and a fresh hook process for each case: .ci/steps/47-gate-holes.sh runs them.
pytestmark = pytest.mark.slow

PROGRAMS = ["sed", "install", "split", "sort", "tar", "zip", "git", "sqlite3", "ed", "vim",
            "ex", "cp", "echo"]
#: Each runs evil/h2 (which copies evil/. over the project) under real bash.
HOLES = [
    "sed -n -f evil/s.sed notes.txt", "sed -n --file=evil/s.sed notes.txt",
    "sed -n --fi=evil/s.sed notes.txt", "sed 's/.*/evil\\/h2/ge' notes.txt",
    "install -s --strip-program=evil/h2 notes.txt out/b",
    "install -s --strip-prog=evil/h2 notes.txt out/b",
    "split --filter=evil/h2 notes.txt out/p", "split --filt=evil/h2 notes.txt out/p",
    "tar --checkpoint=1 --checkpoint-act=exec=evil/h2 -cf out/x.tar notes.txt",
    "tar cfI out/x.tar evil/h2 notes.txt",  # the old style: I's value is the word after f's
    "zip -q -T --unzip-com evil/h2 out/x.zip notes.txt",
    "git grep --open-files-in-pager=evil/h2 notes", "git grep -Oevil/h2 notes",
    "git grep --open=evil/h2 notes", "git -c core.pager=evil/h2 grep -O notes",
    "sqlite3 out/db '.shell evil/h2'", "sqlite3 out/db '.system evil/h2'",
    "sqlite3 -cmd '.shell evil/h2' -safe out/db 'select 1'",
    "ed -s notes.txt <<< '!evil/h2'", "vim -es -c '!evil/h2' -c q",
    "ex -s -c '!evil/h2' -c q notes.txt", "git -c core.fsmonitor=evil/h2 status",
    # git's subcommands whose options run a program (the allow-list of git's subcommands)
    "git fetch -q --upload-pack='cp -r evil/. .; git-upload-pack' .",
    "git fetch -q --upl='cp -r evil/. .; git-upload-pack' .",
    "git ls-remote --upload-pack='cp -r evil/. .; git-upload-pack' .",
    "git rebase -q -x 'cp -r evil/. .' --root"]
#: Denied without a run under bash: they run the program only on large inputs.
REASONED = ["sort --compress-prog=evil/h2 notes.txt", "sort --compress-p=evil/h2 notes.txt",
            "tar -cf out/x.tar --use-compress-prog=evil/h2 notes.txt"]
#: Inside the plan still, and nothing of the gate's is written.
KEPT = ["git fetch -q origin", "git fetch --no-tags -q origin", "git log --oneline",
        "sed -n p notes.txt", "sed -e 's/a/b/g' -e p notes.txt", "sed -n '1~2p' notes.txt",
        "install -m 644 notes.txt out/n", "split -l 1 notes.txt out/p", "sort -o out/s notes.txt",
        "sort -k2,2n -t, notes.txt", "tar -czf out/x.tgz notes.txt", "tar tf evil.tar",
        "git grep -n notes", "git grep --no-textconv -3 -e notes", "git -C . status",
        "sqlite3 -safe out/db 'create table t(x)'", "cp -r out out2", "cp notes.txt out/",
        "echo hi"]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("holes") / "project"
    gated_project(folder, [f"Bash({p} *)" for p in PROGRAMS])
    evil = folder / "evil"
    (evil / "h2").write_text("#!/bin/sh\ncp -r evil/. .\ncat >/dev/null\n")
    (evil / "h2").chmod(0o755)
    (evil / "s.sed").write_text("1e evil/h2\n")
    git(folder, "config", "user.email", "a@b")
    git(folder, "config", "user.name", "a")
    return folder


def _escapes(project: Path, scratch: Path, command: str) -> bool:
    """Whether bash, running ``command`` in a fresh copy of the project, takes the hook away."""
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60,
                   stdin=subprocess.DEVNULL, env={**os.environ, "HOME": str(scratch.parent),
                                                  "PAGER": "cat", "TERM": "dumb"})
    return _hook_gone(scratch / ".claude" / "settings.json")


@pytest.mark.parametrize("command", HOLES)
def test_a_program_run_through_an_option_is_denied(project: Path, tmp_path: Path,
                                                    command: str) -> None:
    """G-5, G-16b, G-17, G-19: bash runs evil/h2 (the settings lose the hook); the hook
    denies the command."""
    program = command.split()[0]
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")
    assert _escapes(project, tmp_path / "scratch", command), "bash ran no program: no case"
    done = run_hook(_settings_hook(project), command, project)
    assert done.returncode == 2, (command, done)


@pytest.mark.parametrize("command", REASONED)
def test_a_program_named_by_an_abbreviated_option_is_denied(project: Path,
                                                             command: str) -> None:
    assert run_hook(_settings_hook(project), command, project).returncode == 2, command


@pytest.mark.parametrize("command", KEPT)
def test_a_program_with_options_the_gate_reads_is_covered(project: Path, tmp_path: Path,
                                                           command: str) -> None:
    assert not _escapes(project, tmp_path / "scratch", command), command
    done = run_hook(_settings_hook(project), command, project)
    assert done.returncode == 0, (command, done)


# -- sed's script against GNU sed ---------------------------------------------------------------

FRAGMENTS = ["p", "d", "n", "N", "$!N", "s/a/b/", "s/a/b/g", "s|x|y|2", "s/./E/", "y/ab/ba/",
             "1", "$", "/a/", "\\%a%", "2,4", "1~2", "0,/a/", "!", "{", "}", ":l", "bl", "tl",
             "a text e", "i\\\ne x", "c\\", "#e x", "w out/w", "l 5", "q", "=", "h;G",
             "e touch M", "1e touch M", "s/.*/touch M/e", "s/.*/touch M/ge", "s/.*/touch M/pe",
             "s/.*/touch M/2e", "s/.*/touch M/w out/v", "s/e/e/", "/e/e touch M", "v",
             ";", "\n", " ", "\\\n", "s/a\\/b/e/", "s/x/touch M/;e", "z;s/^/touch M/e"]


def test_seds_script_is_read_as_gnu_sed_runs_it(tmp_path: Path) -> None:
    """Each generated script GNU sed runs a program for (a marker file appears) is one
    ``sed_script_runs`` answers True for; the counts are printed."""
    from skillgrant.gate.sedscript import sed_script_runs

    sed = shutil.which("sed")
    if sed is None or b"GNU" not in subprocess.run([sed, "--version"],
                                                    capture_output=True).stdout:
        pytest.skip("GNU sed is not installed")
    rng = random.Random(os.environ.get("SKILLGRANT_SED_SEED", "sed-scripts"))
    (tmp_path / "out").mkdir()
    (tmp_path / "in.txt").write_text("abc\nxyz\ne\n")
    ran = missed = 0
    count = int(os.environ.get("SKILLGRANT_SED_SCRIPTS", "400"))
    for _ in range(count):
        script = "".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 5)))
        (tmp_path / "M").unlink(missing_ok=True)
        subprocess.run([sed, "-n", script, "in.txt"], cwd=tmp_path, capture_output=True,
                       timeout=30)
        if (tmp_path / "M").exists():
            ran += 1
            missed += not sed_script_runs(script)
            assert sed_script_runs(script), script
    print(f"\nsed scripts: {count} generated, {ran} ran a program under GNU sed, "
          f"{missed} read as running none")
    assert ran >= count // 40  # the generator reaches the `e` command and flag


# -- G-10 and G-12: where git and Claude Code look --------------------------------------------

def test_the_hooks_folder_git_is_configured_with_is_guarded(tmp_path: Path) -> None:
    """Review G-10: with ``core.hooksPath .husky`` (husky), ``cp`` into it then ``git commit``
    runs a program under bash; the hook denies the copy (and leaves ``git commit`` alone)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(git commit *)"])
    git(project, "config", "core.hooksPath", ".husky")
    (project / ".husky").mkdir()
    hook = project / "evil" / "pre-commit"
    hook.write_text("#!/bin/sh\ntouch zz\n")
    hook.chmod(0o755)
    copy, commit = "cp evil/pre-commit .husky/", "git commit --allow-empty -qm x"
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    git(scratch, "config", "user.email", "a@b")
    git(scratch, "config", "user.name", "a")
    subprocess.run(["bash", "-c", f"{copy} && {commit}"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no hook: the case proves nothing"
    settings = _settings_hook(project)
    for command in (copy, "cp -r evil/. .husky", "sort -o .husky/pre-commit evil/pre-commit"):
        assert run_hook(settings, command, project).returncode == 2, command
    git(project, "config", "core.hooksPath", ".husky/_")  # husky 9: `_` runs `.husky/*`
    assert run_hook(settings, copy, project).returncode == 2
    assert run_hook(settings, "cp evil/pre-commit out/", project).returncode == 0


#: Settings naming a program in the working tree, and the covered git command that runs it.
NAMED_PROGRAMS = [("core.fsmonitor", "tools/x.sh", "git status"),
                  ("alias.st", "!tools/x.sh", "git st"),
                  ("filter.x.clean", "tools/x.sh", "git add notes.txt"),
                  ("diff.external", "sh tools/x.sh", "git diff")]


@pytest.mark.parametrize(("setting", "value", "runs"), NAMED_PROGRAMS)
def test_a_program_git_is_configured_to_run_is_guarded(tmp_path: Path, setting: str,
                                                        value: str, runs: str) -> None:
    """Review F15: the repository's configuration (guarded) names a program in the working
    tree; a copy over it, then a covered git command, runs it under bash. The hook denies the
    copy, and leaves a copy elsewhere alone."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", f"Bash({runs})"])
    (project / "tools").mkdir()
    (project / "tools" / "x.sh").write_text("#!/bin/sh\nexit 0\n")
    (project / "tools" / "x.sh").chmod(0o755)
    git(project, "config", setting, value)
    evil = project / "evil" / "payload.sh"
    evil.parent.mkdir(exist_ok=True)
    evil.write_text("#!/bin/sh\ntouch zz\n")
    evil.chmod(0o755)
    (project / "notes.txt").write_text("changed\n")  # `git diff` has a change to show
    (project / ".gitattributes").write_text("*.txt filter=x\n")  # filter.x applies
    copy = "cp evil/payload.sh tools/x.sh"
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", f"{copy} && {runs}"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    assert run_hook(settings, copy, project).returncode == 2
    assert run_hook(settings, "cp evil/payload.sh out/", project).returncode == 0


def test_a_linked_worktrees_main_checkout_settings_are_guarded(tmp_path: Path) -> None:
    """Review G-12: the session runs in a linked worktree; Claude Code reads the main
    checkout's ``.claude/settings.local.json``; a folder copy there is denied."""
    main = tmp_path / "main"
    main.mkdir()
    git(main, "init", "-q")
    git(main, "commit", "-q", "--allow-empty", "-m", "root")
    git(main, "worktree", "add", "-q", str(tmp_path / "project"))
    project = tmp_path / "project"
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(cp *)", "Bash(echo *)"]}))
    from skillgrant.gate.config import snippet

    printed = json.loads(snippet("claude-code", {"--plan": str(plan)})[0])
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(printed))
    (project / "evil" / "c").mkdir(parents=True)
    (project / "evil" / "c" / "settings.local.json").write_text('{"disableAllHooks": true}')
    settings = _settings_hook(project)
    for command in ("cp -r evil/c/. ../main/.claude", f"cp -r evil/c {main}/.claude"):
        assert run_hook(settings, command, project).returncode == 2, command
    assert run_hook(settings, "cp -r evil/c ../main/other", project).returncode == 0
    subprocess.run(["bash", "-c", "cp -r evil/c/. ../main/.claude"], cwd=project, check=True)
    assert json.loads((main / ".claude" / "settings.local.json").read_text()) == {
        "disableAllHooks": True}


# -- the tables against the programs' own --help -----------------------------------------------

HELPED = {"cp": "cp", "mv": "mv", "rm": "rm", "ln": "ln", "install": "install", "mkdir": "mkdir",
          "touch": "touch", "chmod": "chmod", "tee": "tee", "split": "split", "sort": "sort",
          "uniq": "uniq", "sed": "sed", "tar": "tar", "gzip": "gzip", "shred": "shred",
          "truncate": "truncate", "csplit": "csplit", "chown": "chown", "rmdir": "rmdir"}


GIT_HELPED = ["grep", "fetch", "pull", "push", "clone", "ls-remote", "archive", "rebase",
              "difftool"]


@pytest.mark.parametrize("sub", GIT_HELPED)
def test_each_long_option_git_lists_for_a_subcommand_is_in_its_table(sub: str) -> None:
    """The same for git's subcommands with a table (``git X -h``, git's parse-options)."""
    import re

    from skillgrant.gate.optables import TABLES

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    done = subprocess.run(["git", sub, "-h"], capture_output=True, text=True)
    usage = done.stdout + done.stderr
    listed = set(re.findall(r"^\s+(?:-\w, )?--(?:\[no-\])?([a-z0-9][a-z0-9-]*)", usage, re.M))
    assert listed, usage
    missing = sorted(listed - set(TABLES[f"git {sub}"].longs))
    assert not missing, missing


@pytest.mark.parametrize("program", sorted(HELPED))
def test_each_long_option_the_program_lists_is_in_its_table(program: str) -> None:
    """A table missing an option could read its exact name as the prefix of another one
    (getopt_long takes an exact name first): every ``--name`` the installed program's
    ``--help`` lists is in the table (read at its GNU version; skipped elsewhere)."""
    import re

    from skillgrant.gate.optables import TABLES

    path = shutil.which(program)
    if path is None:
        pytest.skip(f"{program} is not installed")
    version = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
    if "GNU" not in version and "Free Software" not in version:
        pytest.skip(f"{program} is not GNU's")
    listed = set(re.findall(r"(?<![\w-])--([a-z0-9][a-z0-9-]*)", subprocess.run(
        [path, "--help"], capture_output=True, text=True).stdout))
    missing = sorted(listed - set(TABLES[program].longs))
    assert not missing, missing


# -- the review of this branch (H-…) ----------------------------------------------------------

@pytest.mark.parametrize(("command", "entries"), [
    ("sed -n 'w.git/config' evil/s.sed", ["Bash(sed *)"]),  # H-8: no blank before the name
    ("sed -n 's/^/x/w.claude/settings.json' notes.txt", ["Bash(sed *)"]),
    ("tar -cf out/x.tar --remove-files .claude", ["Bash(tar *)"]),  # H-16
    ("tar -cf out/x.tar --remove-f .claude", ["Bash(tar *)"]),
    ("tar -cvf out/x.tar --index-file=.git/hooks/pre-commit notes.txt", ["Bash(tar *)"]),  # H-17
    ("tar -cf .git/config notes.txt", ["Bash(tar *)"]),
    ("sqlite3 -safe out/db '.trace .git/hooks/pre-commit' 'select 1'", ["Bash(sqlite3 *)"]),
    ("sqlite3 -safe out/db", ["Bash(sqlite3 *)"]),  # H-13: its commands from its input
    ("sqlite3 -safe .git/x.db 'select 1'", ["Bash(sqlite3 *)"]),
    ("cd out && cp -r ../evil/. ../../project", ["Bash(cp *)", "Bash(cd *)"]),  # H-20
    ("ln -s ../../project out/p && cp -r evil/. out/p/", ["Bash(cp *)", "Bash(ln *)"]),
    ("tar -C out -cf x.tar --remove-files ../../project/.claude", ["Bash(tar *)"])])
def test_the_reviews_writes_are_denied(tmp_path: Path, command: str,
                                       entries: list[str]) -> None:
    project = tmp_path / "project"
    gated_project(project, entries)
    scratch = tmp_path / "copy" / "project"  # the same name: `../../project` is itself
    shutil.copytree(project, scratch, symlinks=True)
    before = {p: p.read_bytes() for p in (scratch / ".git").rglob("*") if p.is_file()}
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60,
                   stdin=subprocess.DEVNULL)
    after = {p: p.read_bytes() for p in (scratch / ".git").rglob("*") if p.is_file()}
    if command != "sqlite3 -safe out/db":  # bash writes a file of git's or the settings
        assert before != after or _hook_gone(scratch / ".claude" / "settings.json"), command
    assert run_hook(_settings_hook(project), command, project).returncode == 2, command


def test_the_sessions_repository_stays_guarded_from_a_nested_one(tmp_path: Path) -> None:
    """H-9, H-11: from a nested repository the session's hooks folder, and a git folder a
    ``.git`` file names, stay guarded; R-2: a bare common folder denies nothing else."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(echo *)"])
    git(project, "config", "core.hooksPath", ".husky")
    (project / ".husky").mkdir()
    git(project / "out", "init", "-q")
    settings = _settings_hook(project)
    assert run_hook(settings, "cp ../evil/s.sed ../.husky/pre-commit", project / "out"
                    ).returncode == 2
    separate = tmp_path / "sep"
    git(tmp_path, "init", "-q", "--separate-git-dir", str(separate), str(tmp_path / "other"))
    assert run_hook(settings, f"cp evil/s.sed {separate}/config", tmp_path / "other"
                    ).returncode == 2
    git(tmp_path, "clone", "-q", "--bare", str(project), str(tmp_path / "repo.git"))
    git(tmp_path / "repo.git", "worktree", "add", "-q", str(tmp_path / "wt"))
    assert run_hook(settings, "echo hi", tmp_path / "wt").returncode == 0


def test_a_configuration_file_git_includes_is_guarded(tmp_path: Path) -> None:
    """H-14: the repository's configuration includes a file of the working tree; git reads
    it as its configuration (under bash a `core.fsmonitor` there runs at `git status`)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(git status)"])
    git(project, "config", "include.path", "../tools/p.cfg")
    (project / "tools").mkdir()
    (project / "tools" / "p.cfg").write_text("[user]\n\tname = a\n")
    (project / "evil" / "cfg").write_text('[core]\n\tfsmonitor = "touch zzinc"\n')
    scratch = tmp_path / "copy" / "project"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", "cp evil/cfg tools/p.cfg && git status"], cwd=scratch,
                   capture_output=True, timeout=60)
    assert (scratch / "zzinc").exists(), "bash ran no program: the case proves nothing"
    settings = _settings_hook(project)
    assert run_hook(settings, "cp evil/cfg tools/p.cfg", project).returncode == 2
    assert run_hook(settings, "cp evil/cfg tools/other.cfg", project).returncode == 0


@pytest.mark.parametrize(("command", "denied"), [
    ("ln -s notes.txt out/l", False), ("ln notes.txt out/h", False),  # ln alone
    ("ln -s ../../project out/p && cp -r evil/. out/p/", True),
    ("tar cCf out x.tar --remove-files ../../project/.claude", True)])  # the old style's C
def test_a_link_alone_is_covered_and_a_moved_base_is_not(tmp_path: Path, command: str,
                                                           denied: bool) -> None:
    project = tmp_path / "project"
    gated_project(project, ["Bash(ln *)", "Bash(cp *)", "Bash(tar *)"])
    assert (run_hook(_settings_hook(project), command, project).returncode == 2) == denied


@pytest.mark.parametrize(("command", "denied"), [
    ("cd out && cp ../notes.txt n.txt", False),  # read from the folder the cd names
    ("cd out && cp -r ../evil/. ..", True), ("cd out && cp -r ../evil/. ../../project", True),
    ("cd nx && echo hi || cp -r evil/. .", True),  # H-31: the cd fails, the rest runs here
    ("cd out && echo hi & cp -r evil/. .", True),
    ("tar -cf x.tar --remove-files -T evil/list", True),  # H-29: names from a file
    ("tar -czf out/x.tgz notes.txt", False)])
def test_a_cd_first_is_followed_and_a_list_file_is_not_read(tmp_path: Path, command: str,
                                                             denied: bool) -> None:
    project = tmp_path / "project"
    gated_project(project, ["Bash(cd *)", "Bash(cp *)", "Bash(tar *)", "Bash(echo *)"])
    (project / "evil" / "list").write_text(".claude\nplan.json\n")
    assert (run_hook(_settings_hook(project), command, project).returncode == 2) == denied


def test_a_push_to_a_repository_on_this_machine_is_denied(tmp_path: Path) -> None:
    """H-1's residue: a remote's name bound to a local folder, a folder named without a `/`:
    git runs that repository's pre-receive hook under bash; the hook denies the push."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(git push *)", "Bash(git remote *)"])
    git(project, "init", "-q", "--bare", "r.git")
    hook = project / "r.git" / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\ntouch zzpr\ncat >/dev/null\n")
    hook.chmod(0o755)
    settings = _settings_hook(project)
    assert run_hook(settings, "git push -q r.git HEAD:refs/heads/x", project).returncode == 2
    assert run_hook(settings, "git push -q origin HEAD", project).returncode == 0
    git(project, "remote", "add", "x", "r.git")
    assert run_hook(settings, "git push -q x HEAD:refs/heads/x", project).returncode == 2
    subprocess.run(["bash", "-c", "git push -q x HEAD:refs/heads/x"], cwd=project,
                   capture_output=True, timeout=60)
    assert (project / "r.git" / "zzpr").exists(), "bash ran no hook: the case proves nothing"


def test_a_program_in_a_guarded_folder_adds_no_name(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``gh auth setup-git`` writes ``credential.helper = !/usr/bin/gh auth git-credential``
    to ~/.gitconfig: /usr/bin is guarded whole already (a PATH folder), and guarding the
    file again would deny every word holding its name (``gh pr list``); a program the
    settings name in the working tree is still guarded."""
    from skillgrant.gate import guards
    from skillgrant.gate.guardedset import GUARDED

    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    git(tmp_path, "init", "-q", str(project))
    (home / ".gitconfig").write_text(
        "[credential]\n\thelper = !/usr/bin/gh auth git-credential\n"
        "[core]\n\tfsmonitor = tools/x.sh\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    for name in ("XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_DIR"):
        monkeypatch.delenv(name, raising=False)
    items = guards.guarded_items(str(tmp_path / "plan.json"), None, None, str(project),
                                 str(project))
    assert (os.path.realpath(project / "tools" / "x.sh"), False) in items
    assert not any(os.path.basename(item) == "gh" for item, tree in items if not tree)
    token = GUARDED.set(items)
    try:
        assert guards.guarded_word("gh pr list --limit 5", str(project)) is None
        assert guards.guarded_word("cp a tools/x.sh", str(project)) is not None
    finally:
        GUARDED.reset(token)


def test_a_program_named_through_a_substitution_denies_with_its_reason(tmp_path: Path) -> None:
    """A setting whose program git runs is named through a command substitution: the gate
    cannot name the file, so a call is denied, saying why (not as an internal error)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(git status)"])
    git(project, "config", "diff.external", 'sh "$(pwd)"/tools/x.sh')
    done = run_hook(_settings_hook(project), "git status", project)
    said = (done.stdout + done.stderr).decode() if isinstance(done.stdout, bytes) else \
        done.stdout + done.stderr
    assert done.returncode == 2
    assert "what the call must not write is not known" in said
    assert "internal error" not in said
