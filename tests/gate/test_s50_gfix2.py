"""Session 50 (s50-gfix2): the start variables a plan's entry sets itself (``entryvars``), the
session's relative ones read where the plan's programs run (``startvars``), the tests a runner
collects below its folder (``testfiles``). The holes are reviews s49-greview3 E1, E2, U1, V2,
V3 and s49-greview2 C2, U1 (their tests prove them under real bash); these are the rules'
own cases and what they must keep allowing (the costs)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen
from files_fixture import gated_project
from test_gate_files import _settings_hook

from skillgrant.gate.entryvars import ASSIGNED, entry_values
from skillgrant.gate.testfiles import collected

#: Each entry, and the assignments read from it (``NAME=value``).
READ = {"MAKEFILES=mk/Makefile make test": ["MAKEFILES=mk/Makefile"],
        "make -C sub MAKEFILES=mk/Makefile test": ["MAKEFILES=mk/Makefile"],
        "env -u X -C sub PYTHONPATH=lib python3 -c pass": ["PYTHONPATH=lib"],
        "nice -n5 env PERL5LIB=lib perl -e 1": ["PERL5LIB=lib"],
        "export BASH_ENV=x.sh; bash -c true": ["BASH_ENV=x.sh"],
        "declare -x BASH_ENV=x.sh; bash -c true": ["BASH_ENV=x.sh"],
        "set -o allexport; MAKEFILES=m.mk; make": ["MAKEFILES=m.mk"],
        "set -ea; X=x.sh; bash -c true": ["X=x.sh"],
        "X=x.sh; export X; bash -c true": ["X=x.sh"],
        "bash -c 'set -a; BASH_ENV=x.sh; bash -c true'": ["BASH_ENV=x.sh"],
        'sh -c "PYTHONPATH="lib" python3 -c pass"': ["PYTHONPATH=lib"],
        "env -S 'BASH_ENV=x.sh bash -c true'": ["BASH_ENV=x.sh"],
        "echo $(PYTHONPATH=lib python3 x.py)": ["PYTHONPATH=lib"],
        "X=1 \\\n make": ["X=1"],
        "{ X=a.sh make; }": ["X=a.sh"], "if time -p X=a.sh make; then :; fi": ["X=a.sh"],
        "for i in 1; do ! X=a.sh make; done": ["X=a.sh"],
        # not assignments reaching a program: a plain statement unexported, a program's own
        # operand, a quoted name, a comment
        "X=x.sh; make": [], "dd if=a of=b": [], "git commit -m 'a=b'": [],
        "'X'=1 make": [], "make # X=1": []}


@pytest.mark.parametrize("entry", list(READ))
def test_an_entrys_own_assignments_are_read(entry: str) -> None:
    assert [v.partition("\x00")[0] for v in entry_values(entry, entry)] == [
        ASSIGNED + a for a in READ[entry]]


@pytest.mark.parametrize("entry", ["X=$(date) make", "X=`date` make", "X=${Y:-a} make",
                                   "PATH=$PATH:./bin make", "X=a*b make", "X=$'a' make",
                                   "make X!=ls", "env X={a,b} make",
                                   "bash -c \"X=\\$(date) make\"", "HOME=sub git status",
                                   "CDPATH=. bash -c 'cd x'"])
def test_an_assignment_the_gate_cannot_know_refuses_the_plan(entry: str) -> None:
    with pytest.raises(ValueError, match="the plan's entry"):
        entry_values(entry, entry)


@pytest.mark.parametrize(("path", "found"), [
    ("/p/docs/conftest.py", True), ("/p/docs/test_z.py", True), ("/p/x_test.py", True),
    ("/p/tests/__init__.py", True), ("/p/testing.py", True),
    ("/p/tests/__pycache__/test_z.cpython-311.pyc", True),
    ("/p/docs/__pycache__/conftest.cpython-311-pytest-9.0.3.pyc", True),
    ("/p/src/app.py", False), ("/p/docs/a.md", False), ("/q/test_z.py", False),
    ("/p/tests/data.json", False), ("/p/tests/test_z.cpython-311-x86_64-linux-gnu.so", True),
    ("/p/tests/test_z.abi3.so", True), ("/p/conftest.so", True), ("/p/tests/test_z.pyd", True)])
def test_a_collected_test_is_found_below_the_folder(path: str, found: bool) -> None:
    class Guards(tuple):  # type: ignore[type-arg]
        collected = frozenset({"/p"})

    assert collected(path, Guards()) is found


def _write(project: Path, path: Path) -> int:
    call = json.dumps({"session_id": "s", "cwd": str(project), "hook_event_name": "PreToolUse",
                       "tool_name": "Write", "tool_input": {"file_path": str(path),
                                                            "content": "x = 1\n"}}).encode()
    return subprocess.run(["/bin/sh", "-c", _settings_hook(project)], input=call, cwd=project,
                          capture_output=True, timeout=60, check=False).returncode


#: The plan's own Edit grant writes the tests its runner collects (they are planned reads),
#: and a Bash writer does not.
EDITS = [(["Edit(tests/**)", "Bash(pytest)"], "tests/test_new.py", True),
         (["Edit(**)", "Bash(python3 -m unittest)"], "tests/__init__.py", True),
         (["Edit(docs/**)", "Bash(pytest -x)"], "docs/conftest.py", True),
         (["Edit(src/**)", "Bash(pytest)"], "tests/test_new.py", False)]


@pytest.mark.slow
@pytest.mark.parametrize(("entries", "path", "allowed"), EDITS,
                         ids=[f"{e[1]}:{p}" for e, p, _ in EDITS])
def test_the_plans_edit_grant_writes_the_tests_its_runner_collects(
        tmp_path: Path, entries: list[str], path: str, allowed: bool) -> None:
    project = tmp_path / "project"
    gated_project(project, entries)
    for folder in ("tests", "src", "docs"):
        (project / folder).mkdir()
    assert (_write(project, project / path) == 0) == allowed, path


#: Rows left open (tests/conftest.py reads a module's ``OPEN``): costs of session 53.
OPEN = LeftOpen()
OPEN.add("test_a_tree_copied_in_brings_no_test_file",
         "cost (session 53): a tree of the project's own copied or archived out, holding its "
         "tests, is denied (s53-gfix rule 1 guards the plan's names at any depth; s53-gfix2's "
         "link reading of copied trees): the copy out writes nothing a runner collects",
         "cp -r tests {ext}/copy", "tar -czf {ext}/a.tgz tests")
OPEN.add("test_pytests_basetemp_is_a_folder_it_removes",
         "cost (session 53, s53-gfix rule 1): the last name of each path a plan names is "
         "guarded at any depth where a plan's program reads code, pytest's own --basetemp "
         "folder too, which the plan's own call writes", "--basetemp={tmp}/bt")


#: Each call under ``Bash(pytest)``, ``Bash(cp *)``, ``Bash(tar *)``, and whether the hook
#: allows it: a tree from outside the collected folders holding a test file brings it in
#: (``composed.holds_walked``); a tree of the project's own holds the tests as they are.
TREES = {"cp -r {ext}/evil docs": False, "cp -r {ext}/evil/ .": False,
         "cp -r {ext}/evil/test_e.py docs/": False, "cp -r tests {ext}/copy": True,
         "tar -czf {ext}/a.tgz tests": True, "cp -r {ext}/plain docs": True}


@pytest.mark.slow
@pytest.mark.parametrize("call", list(TREES))
def test_a_tree_copied_in_brings_no_test_file(tmp_path: Path, call: str) -> None:
    from bash_review import first_denied

    ext = tmp_path / "ext"
    for name in ("evil/test_e.py", "plain/a.txt"):
        (ext / name).parent.mkdir(parents=True, exist_ok=True)
        (ext / name).write_text("x = 1\n")
    project = tmp_path / "project"
    gated_project(project, ["Bash(pytest)", "Bash(cp *)", "Bash(tar *)"])
    (project / "tests").mkdir()
    (project / "tests" / "test_a.py").write_text("def test_a():\n    pass\n")
    (project / "docs").mkdir()
    command = call.format(ext=ext)
    assert (first_denied(project, [command]) is None) == TREES[call], command


#: Each plan (an entry setting a start variable, and a writer), a call, and whether the hook
#: allows it: the entry's own call reads its own start input (lead, session 50: no entry
#: denies itself); the same value set for another program, or another value, stays a
#: possible write (review s42 GF8); the file stays guarded from other writers.
OWN = [(["Bash(make MAKEFILES=mk/Makefile test)"], "make MAKEFILES=mk/Makefile test", True),
       (["Bash(KUBECONFIG=./kube.yaml kubectl get pods)"],
        "KUBECONFIG=./kube.yaml kubectl get pods", True),
       (["Bash(CONFIG=config/dev.json node app.js)"], "CONFIG=config/dev.json node app.js", True),
       (["Bash(env -C sub MAKEFILES=mk/Makefile make test)"],
        "env -C sub MAKEFILES=mk/Makefile make test", True),
       (["Bash(KUBECONFIG=./kube.yaml kubectl get pods)", "Bash(gcc *)"],
        "DEPENDENCIES_OUTPUT=kube.yaml gcc -c x.c", False),
       (["Bash(KUBECONFIG=./kube.yaml kubectl get pods)", "Bash(gcc *)"],
        "KUBECONFIG=./kube.yaml gcc -c x.c", False),
       (["Bash(KUBECONFIG=./kube.yaml kubectl get pods)", "Bash(cp *)"],
        "cp src/x.sh kube.yaml", False),
       (["Bash(make MAKEFILES=mk/Makefile test)", "Bash(cp *)"], "cp src/x.sh mk/Makefile",
        False),
       # pytest's flags from its own table: the test path after one is its operand (s50-greview)
       (["Bash(python3 -m pytest --pdb tests)"], "python3 -m pytest --pdb tests", True),
       (["Bash(python3 -m pytest --trace tests/test_a.py)"],
        "python3 -m pytest --trace tests/test_a.py", True),
       (["Bash(python3 -X pycache_prefix=pc -c pass)"], "python3 -X pycache_prefix=pc -c pass",
        True),
       (["Bash(PERL5OPT=-Iinc perl -e 1)"], "PERL5OPT=-Iinc perl -e 1", True),
       (["Bash(pytest --runxfail --strict-markers tests)"],
        "pytest --runxfail --strict-markers tests", True)]


@pytest.mark.slow
@pytest.mark.parametrize(("entries", "call", "allowed"), OWN, ids=[c for _, c, _ in OWN])
def test_an_entrys_own_assignment_is_its_own_read(tmp_path: Path, entries: list[str],
                                                 call: str, allowed: bool) -> None:
    from bash_review import first_denied

    project = tmp_path / "project"
    gated_project(project, entries)
    for name in ("mk/Makefile", "sub/mk/Makefile", "kube.yaml", "config/dev.json", "app.js",
                 "src/x.sh", "x.c", "tests/test_a.py"):
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text("")
    assert (first_denied(project, [call], None) is None) == allowed, call


#: pytest's ``--basetemp`` folder is removed whole (s50-greview B1): one holding or inside a
#: guarded item, or one the gate cannot name, is refused; a scratch folder is not.
BASETEMPS = {"--basetemp=.tmp": True, "--basetemp .tmp": True, "--basetemp={tmp}/bt": True,
             "--basetemp=.": False, "--basetemp=.claude": False, "--basetemp=$HOME/x": False,
             "--basetemp={tmp}/home": False}


@pytest.mark.slow
@pytest.mark.parametrize("option", list(BASETEMPS))
def test_pytests_basetemp_is_a_folder_it_removes(tmp_path: Path, option: str) -> None:
    from bash_review import first_denied, home_env

    project = tmp_path / "project"
    gated_project(project, ["Bash(python3 -m pytest *)"])
    # (the operand a folder there: a file operand, or one not there yet that a call running
    # beside this one may make a file, is read as a test module since s60-pfix f2431ac)
    (project / "tests").mkdir()
    (project / "tests" / "test_a.py").write_text("def test_a():\n    pass\n")
    env = home_env(tmp_path / "home")
    (tmp_path / "home" / ".claude").mkdir()
    (tmp_path / "home" / ".claude" / "settings.json").write_text("{}")
    call = f"python3 -m pytest -q {option.format(tmp=tmp_path)} tests"
    assert (first_denied(project, [call], env) is None) == BASETEMPS[option], call
