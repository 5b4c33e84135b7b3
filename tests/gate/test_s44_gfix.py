"""The fixes of review s44 (s44-gfix), checked against the real programs where one is here:
git's parse-options reads any unique prefix of ``--template`` and ``--separate-git-dir`` (G1);
the files a plan's programs read at their start (P1, P3: ``planprograms``); an activated
environment's prefix (P2: ``homefiles.prefixes``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from skillgrant.gate.homefiles import prefixes
from skillgrant.gate.nodeworkspaces import workspaces
from skillgrant.gate.planprograms import plan_programs
from skillgrant.gate.planscripts import ENTRY
from skillgrant.gate.writers import writes


def test_every_prefix_git_init_reads_as_a_template_or_git_dir_is_a_write_of_git(
        tmp_path: Path) -> None:
    """G1: for each prefix of ``--template`` and ``--separate-git-dir`` (``=DIR`` and apart)
    with which git init copies the template (its file lands in the new ``.git``) or puts the
    repository elsewhere, ``writes`` says the command writes folders, and git the tree."""
    if shutil.which("git") is None:
        pytest.skip("no git")
    (tmp_path / "tpl").mkdir()
    (tmp_path / "tpl" / "marker").write_text("x\n")
    ran = 0
    for option, made in (("template", "sub/.git/marker"), ("separate-git-dir", "gd/HEAD")):
        for end in range(1, len(option) + 1):
            for form in (f"--{option[:end]}={'tpl' if made[0] == 's' else 'gd'}",
                         f"--{option[:end]} {'tpl' if made[0] == 's' else 'gd'}"):
                for leftover in ("sub", "gd"):
                    shutil.rmtree(tmp_path / leftover, ignore_errors=True)
                words = ["git", "init", "-q", *form.split(" "), "sub"]
                subprocess.run(words, cwd=tmp_path, capture_output=True, timeout=30,
                               check=False)
                if (tmp_path / made).exists():
                    ran += 1
                    assert writes(words) == (True, "git"), form
    assert ran > 10, "git read no prefix: the case proves nothing"


@pytest.mark.parametrize("words", [["git", "init", "sub"], ["git", "log", "--stat"],
                                   ["git", "status", "--short"]])
def test_git_without_those_options_is_read_as_before(words: list[str]) -> None:
    assert writes(words) == (False, None)


@pytest.mark.parametrize("options", ["", "-s", "-E", "-X dev", "-W error", "-u", "-I", "-P",
                                     "-sP", "-IS", "-Es -P", "-BI"])
def test_python_m_keeps_the_calls_folder_guarded_exactly_when_it_is_on_sys_path(
        tmp_path: Path, options: str) -> None:
    """P3 (python -m): the call's folder is guarded whole unless the options keep it off
    sys.path, decided against the real interpreter: an ``argparse.py`` there runs under
    ``python3 OPTIONS -m json.tool`` exactly when plan_programs guards ``./``."""
    (tmp_path / "argparse.py").write_text("open('zz', 'w').close()\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "in.json").write_text("{}\n")  # (an operand's folder is guarded)
    words = ["python3", *options.split(), "-m", "json.tool", "data/in.json"]
    subprocess.run(words, cwd=tmp_path, capture_output=True, timeout=60, check=False)
    ran = (tmp_path / "zz").exists()
    # (the call's folder itself is not guarded whole, docs/call-gate.md: after a `cd`)
    entry = f"Bash(cd sub && {' '.join(words)})"
    assert ("sub/./" in plan_programs((entry,))) == ran, options


@pytest.mark.parametrize(("entry", "expected"), [
    # P1: Maven's `.mvn` from every folder up; its -f folder's, and each on the way
    ("Bash(mvn -v)", {"^.mvn/"}),
    ("Bash(cd a && mvn -f b/pom.xml test)", {"^.mvn/", "a/.mvn/", "a/b/.mvn/", "a/b/pom.xml"}),
    ("Bash(./mvnw -q verify)", {"./mvnw", "^.mvn/", "pom.xml"}),
    # P3: an interpreter outside RUNS_OPERAND; the files an option names it runs
    ("Bash(java tools/Run.java)", {"tools/Run.java", "tools/"}),
    ("Bash(awk -f tools/x.awk notes.txt)", {"tools/x.awk"}),
    ("Bash(gawk --file=tools/x.awk -i lib.awk n)", {"tools/x.awk", "lib.awk"}),
    ("Bash(cmake -P tools/x.cmake)", {"tools/x.cmake"}),
    # a build tool's folder, in each form getopt reads, and the file it names there
    ("Bash(ninja -C tools)", {"tools/build.ninja"}),
    ("Bash(ninja -C out -f b.ninja)", {"out/b.ninja", "out/build.ninja"}),
    ("Bash(make --directory=tools)", {"tools/Makefile"}),
    ("Bash(make --dir tools)", {"tools/Makefile"}),
    ("Bash(make -Ctools)", {"tools/Makefile"}),
    ("Bash(make -sC tools all)", {"tools/Makefile", "Makefile"}),
    # pytest's settings from its paths' folders up; conftest.py on the way
    ("Bash(pytest -q tests/a/test_x.py)", {"^pytest.toml", "^.pytest.ini", "^conftest.py",
                                           "tests/conftest.py", "tests/a/conftest.py"}),
    ("Bash(python3 -m pytest -c cfg/p.ini)", {"cfg/p.ini", "^pytest.ini"}),
    ("Bash(python3 -m mypy --config-file c/m.ini src)", {"c/m.ini", "^mypy.ini"}),
    ("Bash(mypy src)", {"^mypy.ini", "^.mypy.ini", "^pyproject.toml", "^setup.cfg"}),
    ("Bash(pip install -r req/a.txt -c c.txt)", {"req/a.txt", "c.txt"}),
    ("Bash(pip install -e .)", {"pyproject.toml", "setup.py"}),
    ("Bash(lli tools/x.ll)", {"tools/x.ll", "tools/"}),
    ("Bash($PWD/tools/run.sh)", {"./tools/run.sh"}),
    ("Bash(node -r ./setup/hook.js tools/run.js)", {"./setup/hook.js", "tools/run.js"}),
    ("Bash(bash -c ./tools/x.sh)", {"./tools/x.sh"}),
    # npm's workspaces, any form: those the folder's package.json lists (guards reads them)
    ("Bash(npm run build --workspaces)", {"%"}), ("Bash(npm run build -ws)", {"%"}),
    ("Bash(npm run build --worksp=a)", {"%"}), ("Bash(pnpm -r build)", {"%"}),
    ("Bash(npm test -w packages/a)", {"%"}), ("Bash(npm --prefix web -ws test)", {"%web"}),
    ("Bash(cd web && yarn workspaces foreach run build)", {"%web"}),
    # a script in the call's folder: the folder (relative, after the entry's `cd`)
    ("Bash(cd sub && python3 x.py)", {"sub/x.py", "sub/./"}),
])
def test_plan_programs_names_what_the_entrys_program_reads_at_its_start(
        entry: str, expected: set[str]) -> None:
    found = set(plan_programs((entry,)))
    assert expected <= found, expected - found


@pytest.mark.parametrize("entry", [
    "Bash(npm run build)", "Bash(make)", "Bash(mvn -v)", "Bash(python3 -I -m json.tool data/x)",
    # review s44 C2, C4, C6: code, a subcommand, the call's folder
    "Bash(python3 -c print(1))", "Bash(node -e 1)", "Bash(perl -e 1)",
    "Bash(bash -c 'echo hi')", "Bash(bun test)", "Bash(python3 x.py)", "Bash(bash run.sh)",
    "Bash(python3 -m pytest -q)", "Bash(python3 -m json.tool notes.txt)"])
def test_an_entry_without_those_forms_guards_no_whole_folder(entry: str) -> None:
    found = plan_programs((entry,))
    assert not {"./", "/", ".", "print(1)", "1", "echo", "test"} & set(found), found


def test_an_activated_environments_prefix_and_a_system_lib_are_guarded(
        tmp_path: Path) -> None:
    """P2: the folder holding ``bin`` and ``pyvenv.cfg`` (or ``conda-meta``) is guarded whole;
    a folder of programs outside an environment adds nothing, a system one its ``lib``."""
    venv, conda, plain = tmp_path / "venv", tmp_path / "conda", tmp_path / "plain"
    for prefix in (venv, conda, plain):
        (prefix / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (conda / "conda-meta").mkdir()
    found = prefixes([str(venv / "bin"), str(conda / "bin"), str(plain / "bin"),
                      "/usr/local/bin"])
    # (P2d: the lib of the interpreter the pyvenv.cfg's `home` names, whole)
    assert found == [(str(venv), True), ("/usr/lib", True), (str(conda), True),
                     ("/usr/local/lib", True)]


@pytest.mark.parametrize(("files", "expected"), [
    ({"package.json": '{"workspaces": ["packages/*", "tools/cli", "!packages/x"]}'},
     ["packages/", "tools/cli/package.json", "tools/cli/node_modules"]),
    ({"package.json": '{"workspaces": {"packages": ["libs/**"]}}'}, ["libs/"]),
    ({"package.json": '{"name": "a"}',
      "pnpm-workspace.yaml": "# the packages\npackages:\n  - 'apps/*'\n  - \"lib\"\n"
                             "onlyBuiltDependencies:\n  - esbuild\n"},
     ["apps/", "lib/package.json", "lib/node_modules"]),
    ({}, []),
    # a list not read here: the folder whole
    ({"package.json": '{"workspaces": "packages/*"}'}, [""]),
    ({"pnpm-workspace.yaml": "packages: ['apps/*']\n"}, [""]),
    ({"package.json": "{not json"}, [""]),
])
def test_the_workspaces_a_folders_package_json_lists(
        tmp_path: Path, files: dict[str, str], expected: list[str]) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    found = workspaces(str(tmp_path))
    assert found == [str(tmp_path / e) if e else str(tmp_path) for e in expected]


@pytest.mark.parametrize(("words", "expected"), [
    # W2: a pattern bash expands to a listed program in a folder of PATH, git's dashed
    # builtins in its exec path; W1: cmake -E's file commands
    (["/usr/bin/gi[t]", "checkout", "rev"], (True, "git")),
    (["/usr/bin/[g]it", "stash", "pop"], (True, "git")),
    (["/usr/bin/c[p]", "-r", "evil/.", "."], (True, None)),
    (["/usr/bin/t[a]r", "-xf", "evil.tar"], (True, "tar")),
    (["/usr/bin/unzi?", "-o", "evil.zip"], (True, "unzip")),
    (["/usr/lib/git-core/git-checkout", "rev"], (True, "git")),
    (["/usr/lib/git-core/git-restore", "--source=rev", "."], (True, None)),
    (["cmake", "-E", "copy_directory", "evil", "."], (True, None)),
    (["cmake", "-E", "tar", "xf", "a.tar"], (True, "cmake")),
    # read as before: a pattern that is an operand in no folder of programs, git's dashed
    # builtin that writes nothing, cmake configuring
    (["cat", "src/c[p]"], (False, None)), (["ls", "docs/*"], (False, None)),
    (["cat", "git-guide.md"], (False, None)), (["git-lfs", "checkout"], (True, "git")),
    (["/usr/lib/git-core/git-status"], (False, None)),
    # W2c, W2d: a pattern in a folder of programs may be any program there (git's builtins)
    (["/usr/lib/git-core/git-c[h]eckout", "rev"], (True, "git")),
    (["cat", "/usr/lib/git-core/gi[t]-add"], (True, "git")), (["cmake", "-S", ".", "-B", "b"],
                                                         (False, None)),
])
def test_a_writer_named_by_a_pattern_or_a_dashed_name_is_read_as_it(
        words: list[str], expected: tuple[bool, str | None], tmp_path: Path) -> None:
    assert writes(words, str(tmp_path)) == expected


def test_a_bare_pattern_names_a_writer_only_where_its_folder_holds_that_name(
        tmp_path: Path) -> None:
    """Against bash: ``gi[t] --version`` expands to ``git`` (then found on PATH) only where
    the call's folder holds an entry named git; ``writes`` reads it as git exactly then."""
    words = ["gi[t]", "checkout", "rev"]
    for present in (False, True):
        if present:
            (tmp_path / "git").write_text("")
        done = subprocess.run(["bash", "-c", "gi[t] --version"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=30, check=False)
        assert ("git version" in done.stdout) == present
        assert writes(words, str(tmp_path)) == ((True, "git") if present else (False, None))


def test_a_placeholder_entry_names_its_program_in_the_project(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """P9: ``${CLAUDE_PROJECT_DIR}`` as the hook's environment gives it; unset, the script is
    named by an expansion: no path of its own, and every start name in the call's folder, as
    for any program so named (since s53-gfix: it may start any program there)."""
    entry = "Bash(${CLAUDE_PROJECT_DIR}/scripts/check.sh)"
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", "/p/q")
    assert "/p/q/scripts/check.sh" in plan_programs((entry,))
    monkeypatch.delenv("CLAUDE_PROJECT_DIR")
    unset = plan_programs((entry,))
    assert not any("check.sh" in p for p in unset if p[:1] != ENTRY) and "Makefile" in unset


def test_pre_commits_settings_are_guarded_in_a_repositorys_top_folder(
        tmp_path: Path) -> None:
    """H6: ``.pre-commit-config.yaml`` names the commands pre-commit's git hook runs; it is
    guarded in a folder holding ``.git``, not elsewhere."""
    from skillgrant.gate.guardfolders import folder_items

    item = (str(tmp_path / ".pre-commit-config.yaml"), False)
    assert item not in folder_items(str(tmp_path), [])
    (tmp_path / ".git").mkdir()
    assert item in folder_items(str(tmp_path), [])


#: Review s44 C2, C4, C6 (costs of the plan's own programs): each entry's own run, and a plain
#: copy into the project under the same plan, are allowed (the guard reads no code option as
#: a script, and the call's folder itself is not guarded whole).
OWN_RUNS = [
    ("Bash(python3 -m pytest *)", "python3 -m pytest -q"),
    ("Bash(python3 -m json.tool *)", "python3 -m json.tool notes.txt"),
    ("Bash(bash run.sh)", "bash run.sh"), ("Bash(python3 x.py)", "python3 x.py"),
    ('Bash(python3 -c "print(1)")', 'python3 -c "print(1)"'), ("Bash(node -e 1)", "node -e 1"),
    ("Bash(perl -e 1)", "perl -e 1"), ('Bash(bash -c "echo hi")', 'bash -c "echo hi"'),
    ("Bash(bun test)", "bun test"), ("Bash(mvn -v)", "mvn -v"),
    ("Bash(npm run build -ws)", "npm run build -ws"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("entry", "run"), OWN_RUNS, ids=[r for _, r in OWN_RUNS])
def test_the_plans_own_run_and_a_plain_copy_stay_allowed(tmp_path: Path, entry: str,
                                                         run: str) -> None:
    from files_fixture import gated_project
    from test_gate_files import _settings_hook, run_hook

    project = tmp_path / "project"
    gated_project(project, [entry, "Bash(cp *)"])
    (project / "a").write_text("a\n")
    hook = _settings_hook(project)
    assert run_hook(hook, run, project).returncode == 0, run
    assert run_hook(hook, "cp a out/b", project).returncode == 0, entry


@pytest.mark.parametrize(("command", "word", "runs"), [
    ("awk -f tools/x.awk notes.txt", "tools/x.awk", True),
    ("awk -ftools/x.awk notes.txt", "-ftools/x.awk", True),
    ("gawk --file=tools/x.awk notes.txt", "--file=tools/x.awk", True),
    ("mawk -f tools/x.awk notes.txt", "tools/x.awk", True),
    ("cmake -Ptools/x.cmake", "-Ptools/x.cmake", True),
    ("make -f tools/x.mk", "tools/x.mk", True),
    # not the file it runs: an operand, or the same name written twice (an output too)
    ("awk -f tools/x.awk notes.txt", "notes.txt", False),
    ("awk -f tools/x.awk tools/x.awk", "tools/x.awk", False),
    ("cp tools/x.awk out/y", "tools/x.awk", False),
])
def test_the_file_an_option_names_a_program_to_run(command: str, word: str,
                                                   runs: bool) -> None:
    """C7: what the readers rule may take as the script a program runs (not wired here:
    readers.py is the lead's)."""
    from skillgrant.gate.planprograms import runs_named_file

    name, *rest = command.split()
    assert runs_named_file(name, rest, word) == runs
