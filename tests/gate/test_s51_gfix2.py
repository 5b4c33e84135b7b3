"""Session 51 (s51-gfix2): the tests other runners collect (node's ``--test``, ``bun test``:
s50-greview3 C3), a distribution's metadata on a plan's Python's ``sys.path`` (P1), the
settings file a pytest call names (B1), pytest's plugins' options and a test file removed
(K1), a runner's option naming nothing of the project (K3). Each hole is proved by real bash
in a scratch copy first (``bash_review.proved_case``), then the printed hook is asked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved, proved_case

from skillgrant.gate.placed import shadows
from skillgrant.gate.testfiles import collected, settings_file

#: The holes left open here, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

BUN = Path.home() / ".cache/skillgrant-runtime/bun-1.4.5/package/bin"
VENV_PYTHON = "/work/venv/bin/python"
JS_PAYLOAD = "require('child_process').execSync('touch zz')\n"
PY_PAYLOAD = "import os; os.system('touch zz')\n"
OWN_TEST = {"test_a.py": "def test_a():\n    pass\n"}


# --- C3: the files node's and bun's test runners collect --------------------------------------


@pytest.mark.parametrize(("path", "found"), [
    ("/p/a.test.js", True), ("/p/src/a-test.mjs", True), ("/p/test.cjs", True),
    ("/p/test-x.js", True), ("/p/src/a_spec.ts", True), ("/p/a.spec.tsx", True),
    ("/p/test/helper.js", True), ("/p/src/__tests__/x.jsx", True),
    ("/p/test/deep/x.mjs", True), ("/p/src/app.js", False), ("/p/src/contest.ts", False),
    ("/p/docs/a.md", False), ("/q/a.test.js", False), ("/p/testing/x.js", False),
    ("/p/tests/a.rs", True), ("/p/tests/sub/main.rs", True), ("/p/examples/e.rs", True),
    ("/p/tests/sub/helper.rs", False), ("/p/src/lib.rs", False),
    ("/p/tests/test_notes.txt", True), ("/p/notes.txt", False)])
def test_a_node_runners_test_is_found_below_the_folder(path: str, found: bool) -> None:
    """``collected`` reads node's, bun's, jest's names (a superset), and every script below
    a ``test``/``__tests__`` folder, below the folders tests are collected in only."""
    class Guards(tuple):  # type: ignore[type-arg]
        collected = frozenset({"/p"})

    assert collected(path, Guards()) is found


#: Each case: the entry, the file the payload goes to, the project's files, the session's
#: extra values. node 20's ``--test`` runs every ``.js`` below a ``test`` folder whatever its
#: name, and ``test.cjs``, ``*-test.mjs`` anywhere; bun 1.4.5's ``bun test`` ``*_test.ts``,
#: ``*.spec.tsx``.
BUN_PATH = {"PATH": f"{BUN}:{os.environ['PATH']}"}
NODE_TESTS = {"node-test-folder": ("node --test", "test/helper.js", {"test/keep": ""}, {}),
              "node-test-cjs": ("node --test", "src/test.cjs", {"src/keep": ""}, {}),
              "node-dash-test": ("node --test", "a-test.mjs", {}, {}),
              "bun-underscore-test": ("bun test", "src/a_test.ts", {"src/keep": ""}, BUN_PATH),
              "bun-spec-tsx": ("bun test", "a.spec.tsx", {}, BUN_PATH)}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(NODE_TESTS))
def test_c3_a_node_runners_collected_test_is_guarded(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: under real bash ``cp src/mk <test>`` then the
    entry runs the payload; the hook denies the copy."""
    entry, target, more, extra = NODE_TESTS[case]
    needs("bash", "node")
    if case.startswith("bun") and not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    payload = JS_PAYLOAD if target.endswith((".js", ".cjs")) else \
        "import {execSync} from 'child_process'; execSync('touch zz');\n"
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                         {**more, "src/mk": payload}, [f"cp src/mk {target}", entry], extra)
    assert denied == f"cp src/mk {target}"


#: Each case: calls bringing a script the project holds under no test's name (``src/x.js``,
#: writable) into a ``test`` folder, where ``node --test`` runs every script: a tree copied
#: or moved to it or below it, a script moved into it by the folder's name, a folder with a
#: dot in its name (``test/v1.2``: a name with a dot is read as a file's, left open).
INTO_TEST = {"cp-r-into": "cp -r src test", "cp-r-contents": "cp -r src/. test/",
             "cp-r-below": "cp -r src test/sub", "mv-into-folder": "mv src/x.js test/",
             "mv-tree": "mv src test", "cp-r-dotted": "cp -r src test/v1.2"}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(INTO_TEST))
def test_c3_a_script_brought_into_a_test_folder(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(node --test)``, ``Bash(cp *)``, ``Bash(mv *)``: ``cp src/mk src/x.js``
    (allowed: no test's name), then the case's call, then ``node --test`` runs the payload
    under real bash; the hook denies the case's call."""
    needs("bash", "node")
    calls = ["cp src/mk src/x.js", INTO_TEST[case], "node --test"]
    denied = proved_case(tmp_path, ["Bash(node --test)", "Bash(cp *)", "Bash(mv *)"],
                         {"test/a.test.js": "", "src/mk": JS_PAYLOAD}, calls)
    assert denied == calls[1]


OPEN.add("test_c3_a_script_brought_into_a_test_folder",
         "cost (session 57, s57-sfix failing closed): under a `node --test` plan in a project "
         "holding a test jest's defaults collect (test/a.test.js), jestargs.unseen takes the "
         "plan as one that may run jest with words it does not see, so every script jest may "
         "load is guarded: the first call, `cp src/mk src/x.js`, is denied (the hole stays "
         "closed, earlier); the case's own call is never reached")


# (open at ba4fc22; closed by s52-gfix2: gate/intotests.py reads where each source lands)


@pytest.mark.slow
def test_c3_a_script_of_no_tests_name_stays_writable(tmp_path: Path) -> None:
    """The cost is the tests' names only: ``cp src/x.sh lib/app.js`` stays allowed under a
    ``node --test`` plan."""
    project = hooked_project(tmp_path, ["Bash(node --test)", "Bash(cp *)"])
    (project / "lib").mkdir()
    assert first_denied(project, ["cp src/x.sh lib/app.js"], home_env(tmp_path / "h")) is None


# --- P1: a distribution's metadata on the plan's Python's sys.path ----------------------------


@pytest.mark.parametrize(("path", "found"), [
    ("/p/x.dist-info", True), ("/p/x.dist-info/entry_points.txt", True),
    ("/p/x.egg-info", True), ("/p/X.EGG-INFO/entry_points.txt", True), ("/p/x.egg-link", True),
    ("/p/x.pth", True), ("/p/sub/x.dist-info", False), ("/p/xdist.py", False),
    ("/q/x.dist-info/METADATA", False)])
def test_a_distributions_metadata_is_found_in_a_module_folder(path: str, found: bool) -> None:
    assert shadows(path, frozenset({"/p"})) is found


#: Each case: where the distribution's metadata goes (``python -m pytest``'s folder), and its
#: kind: ``importlib.metadata`` reads an ``.egg-info`` folder's ``entry_points.txt`` as a
#: ``.dist-info``'s.
EGGS = {"egg-info": "x.egg-info", "dist-info-upper": "X.dist-info"}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(EGGS))
def test_p1_a_distributions_plugin_in_the_run_folder(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<python> -m pytest)``, ``Bash(cp *)``: ``cp -r src/pl/meta <metadata>``
    and ``cp src/pl/xmod.py xmod.py`` then pytest imports the plugin; the first is denied."""
    needs("bash", VENV_PYTHON)
    entry = f"{VENV_PYTHON} -m pytest"
    files: dict[str, str | bytes] = {
        **OWN_TEST, "src/pl/meta/PKG-INFO": "Metadata-Version: 2.1\nName: xplug\nVersion: 1\n",
        "src/pl/meta/METADATA": "Metadata-Version: 2.1\nName: xplug\nVersion: 1\n",
        "src/pl/meta/entry_points.txt": "[pytest11]\nxplug = xmod\n", "src/pl/xmod.py": PY_PAYLOAD}
    calls = [f"cp -r src/pl/meta {EGGS[case]}", "cp src/pl/xmod.py xmod.py", entry]
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files, calls)
    assert denied == calls[0]


# --- B1: the settings file a pytest call names -------------------------------------------------


@pytest.mark.parametrize(("call", "found"), [
    ("python3 -m pytest @a.txt", "@a.txt"), ("pytest -c x.ini", "-c x.ini"),
    ("pytest -cx.ini", "-cx.ini"), ("pytest -qc x.ini", "-qc x.ini"),
    ("pytest --config-file x.ini", "--config-file x.ini"),
    ("pytest --config-file=x.ini", "--config-file=x.ini"),
    ("pytest -o addopts=-x", "addopts=-x"), ("pytest -c pytest.ini", None),
    ("pytest -rc tests", None), ("pytest -k c tests", None), ("bash -c x", None),
    ("pytest -c $X", "-c $X")])
def test_a_pytest_settings_file_the_gate_does_not_read(call: str, found: str | None) -> None:
    """``settings_file``: a file pytest reads options from, not guarded (here: every file but
    ``pytest.ini``)."""
    assert settings_file(call.split(), "/p", lambda p: p == "/p/pytest.ini") == found


#: Each case: the file copied in, its name, and the call's pytest options reading it.
SETTINGS_FILES = {"ini-attached": ("[pytest]\naddopts = --basetemp=.claude\n", "x.ini",
                                   "-cx.ini"),
                  "config-file": ("[pytest]\naddopts = --basetemp=.claude\n", "x.ini",
                                  "--config-file=x.ini"),
                  "override-addopts": ("", "unused.txt", "-o addopts=--basetemp=.claude")}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(SETTINGS_FILES))
def test_b1_pytest_options_from_a_file_the_call_names(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<python> -m pytest *)``, ``Bash(cp *)``: pytest reading ``--basetemp
    =.claude`` from an ini file the call names (or ``-o addopts=``) removes ``.claude`` under
    real bash; the hook denies the pytest call."""
    needs("bash", VENV_PYTHON)
    text, name, option = SETTINGS_FILES[case]
    calls = [f"cp src/args {name}", f"{VENV_PYTHON} -m pytest -q {option}"]
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, [f"Bash({VENV_PYTHON} -m pytest *)",
                                                   "Bash(cp *)"])
        (project / "test_a.py").write_text("def test_a(tmp_path):\n    pass\n")
        (project / "src" / "args").write_text(text)
        env = home_env(tmp_path / side / "home")
        if side == "proof":
            proved(project, tmp_path / side, calls, env)
            assert not (tmp_path / side / "scratch" / ".claude" / "settings.json").exists()
        else:
            found.append(first_denied(project, calls, env))
    assert found == [calls[1]]


# --- K1: pytest's plugins' options, a test removed or formatted ------------------------------


#: Each case: the plan's entries and the call they approve, allowed now: pytest's operands
#: read past its plugins' options (xdist's ``-n``, ``--dist``; pytest-timeout's; pytest-cov's
#: ``--cov`` optional value, ``--cov-report`` given apart), a test removed or formatted.
APPROVED = {"dist": (["python3 -m pytest -n 2 --dist loadfile tests"],
                     "python3 -m pytest -n 2 --dist loadfile tests"),
            "cov-report-apart": (["python3 -m pytest --cov src --cov-report term tests"],
                                 "python3 -m pytest --cov src --cov-report term tests"),
            "numprocesses": (["python3 -m pytest --numprocesses=2 tests"],
                             "python3 -m pytest --numprocesses=2 tests"),
            "rm-conftest": (["python3 -m pytest", "rm *"], "rm tests/conftest.py"),
            "rm-two": (["python3 -m pytest", "rm *"], "rm -f tests/test_a.py tests/test_b.py"),
            "black": (["python3 -m pytest", "black *"], "black tests/test_a.py"),
            "node-rm": (["node --test", "rm *"], "rm test/a.test.js"),
            "git-rm": (["python3 -m pytest", "git rm *"], "git rm -q --cached tests/test_a.py"),
            "junitxml-attached": (["python3 -m pytest --junitxml=report.xml tests"],
                                  "python3 -m pytest --junitxml=report.xml tests"),
            "make-test": (["make test"], "make test"), "npm-test": (["npm test"], "npm test")}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(APPROVED))
def test_k1_an_approved_call_is_allowed(tmp_path: Path, case: str) -> None:
    entries, call = APPROVED[case]
    project = hooked_project(tmp_path, [f"Bash({e})" for e in entries])
    for name in ("tests/test_a.py", "tests/test_b.py", "tests/conftest.py", "test/a.test.js"):
        (project / name).parent.mkdir(exist_ok=True)
        (project / name).write_text("")
    assert first_denied(project, [call], home_env(tmp_path / "home")) is None


#: Each case: calls that stay denied under a plan collecting tests: a package's ``__init__``
#: removed (pytest then puts its folder on ``sys.path``), a test written after a removal or
#: by a redirection, a ``--cov-report`` writing into ``.claude``.
STILL_DENIED = {"rm-init": (["python3 -m pytest", "rm *"], "rm tests/__init__.py"),
                "rm-then-cp": (["python3 -m pytest", "rm *", "cp *"],
                               "rm tests/test_a.py && cp src/x.sh tests/test_a.py"),
                "format-redirect": (["python3 -m pytest", "ruff format *"],
                                    "ruff format tests/test_b.py > tests/test_a.py"),
                "cov-report-dest": (["python3 -m pytest *"],
                                    "python3 -m pytest --cov-report json:.claude/settings.json"),
                "junitxml-claude": (["python3 -m pytest *"],
                                    "python3 -m pytest --junitxml=.claude/settings.json tests")}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(STILL_DENIED))
def test_k1_a_test_written_stays_denied(tmp_path: Path, case: str) -> None:
    entries, call = STILL_DENIED[case]
    project = hooked_project(tmp_path, [f"Bash({e})" for e in entries])
    for name in ("tests/test_a.py", "tests/test_b.py", "tests/__init__.py"):
        (project / name).parent.mkdir(exist_ok=True)
        (project / name).write_text("")
    assert first_denied(project, [call], home_env(tmp_path / "home")) == call


# --- K3: a runner's options read where what they import is named ------------------------------


@pytest.mark.parametrize(("entry", "refused"), [
    ("python3 -m unittest discover -p 'test*.py'", False),
    ("python3 -m unittest discover -p '*_test.py'", False),
    ("python3 -m unittest discover -p '*_spec.py'", True),
    ("python3 -m unittest discover . '*_spec.py'", True),
    ("python3 -m unittest discover -s tests -p 'test_*.py'", False),
    ("python3 -m pytest -p xdist -n 2", False), ("python3 -m pytest -p no:cacheprovider", False),
    ("python3 -m pytest -p 'pl*'", True), ("PYTHONPATH=lib python3 -m pytest -p plug", True),
    ("python3 -m pytest --doctest-modules src", False),
    ("python3 -m pytest --doctest-modules", True),
    ("python3 -m pytest --doctest-modules ./", True),
    ("python3 -m pytest --doctest-modules ..", True),
    ("python3 -m pytest --doctest-modules ./src", False),
    ("python3 -m pytest --doctest-modules -k x", True),
    ("python3 -m pytest --doctest-glob='*.txt' src", True),
    ("python3 -m pytest -o python_files=x.py", True),
    ("python3 -m pytest -W error::plug.W", True), ("python3 -m pytest -W ignore:m:plug.W", True),
    ("python3 -m pytest --pythonwarnings=error::a.B", True),
    ("python3 -m pytest -W error::DeprecationWarning", False),
    ("python3 -m pytest -W error::warnings.Warning", False)])
def test_k3_a_runners_option_is_read(entry: str, refused: bool) -> None:
    from skillgrant.gate.entryvars import entry_values

    if refused:
        with pytest.raises(ValueError, match="import files the gate does not name"):
            entry_values(entry, entry)
    else:
        entry_values(entry, entry)


#: Each case: the entry K3 no longer refuses, the file its option makes the runner import,
#: and what the payload is: ``-p plug`` imports ``plug.py`` from ``python -m``'s folder (its
#: files guarded: ``planprograms``), ``--doctest-modules src`` every module of ``src``.
IMPORTED = {"pytest-p": (f"{VENV_PYTHON} -m pytest -p plug", "plug.py"),
            "doctest-src": (f"{VENV_PYTHON} -m pytest --doctest-modules src", "src/helper.py")}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(IMPORTED))
def test_k3_what_a_read_option_imports_is_guarded(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk <file>`` then the entry runs the
    payload under real bash; the hook denies the copy."""
    needs("bash", VENV_PYTHON)
    entry, target = IMPORTED[case]
    calls = [f"cp src/mk {target}", entry]
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                         {**OWN_TEST, "src/mk": PY_PAYLOAD}, calls)
    assert denied == calls[0]


# --- D1 (s51-greview2): the text files pytest collects as doctests by default -----------------


#: Each case: where the doctest file goes: pytest's default ``--doctest-glob`` is ``test*.txt``,
#: collected at any depth below its folder.
DOCTESTS = {"root": "test_notes.txt", "below": "tests/test_notes.txt"}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(DOCTESTS))
def test_d1_a_doctest_file_pytest_collects(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<python> -m pytest)``, ``Bash(cp *)``: ``cp src/mk <file>`` then pytest
    runs its example under real bash; the hook denies the copy."""
    needs("bash", VENV_PYTHON)
    entry = f"{VENV_PYTHON} -m pytest"
    calls = [f"cp src/mk {DOCTESTS[case]}", entry]
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], {
        **OWN_TEST, "tests/keep": "", "src/mk": ">>> import os; _ = os.system('touch zz')\n"},
        calls)
    assert denied == calls[0]
