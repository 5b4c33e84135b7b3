"""Session 56's fix (s56-gfix3) of what python and pytest import first (issue 29; review
s55-greview3 C1, P3, A3, K2, K3): which plans may run Python in any folder
(``planruns.runs_any``), the interpreters a plan names by a path (``planruns.python_libs``),
a conftest's ``pytest_plugins`` (``conftestplugins``), the folders a pytest-only plan may put
first on ``sys.path`` (``syspathdirs``), and the site folders' listing (``sitenames``).

The proofs run real bash and python3/pytest in a scratch project first
(``test_s53_greview._session``: the payload ran), then ask the printed hook call by call as
the runtime's Bash tool runs them: the call named is the first one denied. Every payload only
touches a file."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from bash_review import needs
from test_s53_greview import PY_PAYLOAD, _session

from skillgrant.gate.conftestplugins import _names, conftest_plugins
from skillgrant.gate.planprograms import plan_programs
from skillgrant.gate.planruns import python_libs, runs_any
from skillgrant.gate.sitenames import _listing

#: The marks of the plan's paths that are no program's (``guards``' ``skipped``).
MARKED = ("^", "&", "\x06", "\x07", "|", "@", "%", "+", "=", ":", ";", "!", ">")
#: A test importing nothing pytest does not.
PASSES = "def test_a():\n    pass\n"
#: The plan of a Python project's test run, with a copy.
PYTEST = ["Bash(python3 -m pytest -q)", "Bash(cp *)"]


# --- which plans run Python in any folder (C1) ---------------------------------------------------

#: Each plan (entries joined by `;;`), and whether a program of it may run Python anywhere.
RUNS_ANY = {
    "python3 -m pytest -q ;; cp *": False,
    "python3 -m pytest -q tests ;; sed *": False,
    "python3 -m pytest -q tests/test_a.py": False,
    "python3 -m unittest discover": False,
    "pytest -q ;; git status ;; ruff check .": False,
    "tools/env/bin/python -m pytest -q": False,
    "/opt/x/venv/bin/python -m pytest -q": False,
    "cd sub && python3 -m pytest -q": False,
    # the plan's own inline code (approved text)
    "python3 -c 'print(1)' ;; python3 -m pytest -q": False,
    # a script, a project module, a program by its path, a node script, a runner
    "python3 -m pytest -q ;; python3 tools/run.py": True,
    "python3 -m pytest -q ;; python3 run.py": True,
    # a script named like pytest's `py` shim is no runner's module (no `-m` forms named)
    "python3 -m pytest -q ;; python3 py.py": True,
    "python3 -m pytest -q ;; python3 -m mypkg.tool": True,
    "python3 -m pytest -q ;; ./run.sh": True,
    "python3 -m pytest -q ;; bash tools/run.sh": True,
    "python3 -m pytest -q ;; node x.js": True,
    "python3 -m pytest -q ;; make test": True,
    "python3 -m pytest -q ;; npm test": True,
    "tox": True,
}


@pytest.mark.parametrize("plan", RUNS_ANY)
def test_a_plans_programs_run_python_in_any_folder(plan: str, tmp_path: Path) -> None:
    named = plan_programs(tuple(f"Bash({e})" for e in plan.split(" ;; ")))
    assert runs_any(named, MARKED, [str(tmp_path)]) is RUNS_ANY[plan]


def test_an_interpreter_named_by_a_path_hands_its_library_folder() -> None:
    named = plan_programs(("Bash(/opt/x/venv/bin/python -m pytest -q)",
                           "Bash(tools/env/bin/python -m pytest -q)"))
    assert {"/opt/x/venv/lib", "/p/tools/env/lib"} <= python_libs(named, MARKED, ["/p"])


# --- a conftest's pytest_plugins (P3) ------------------------------------------------------------

#: A conftest's text, and the names read (None: not a literal, every module taken).
CONFTESTS = {
    "pytest_plugins = ['fixtures.db', 'helpers']\n": ["fixtures.db", "helpers"],
    'pytest_plugins = "a, b.c"\n': ["a", "b.c"],
    "pytest_plugins: tuple[str, ...] = ('a',)\n": ["a"],
    '"""Mentions pytest_plugins."""\nX = 1\n': [],
    "pytest_plugins = [NAME]\n": None,
    "pytest_plugins = ['a']\npytest_plugins += ['b']\n": None,
    "if X:\n    pytest_plugins = ['a']\n": None,
    "from shared import *\n": ["=shared"],  # (read as an aggregator: s57-greview2 K-STAR)
    "from shared import pytest_plugins\n": None,
    "globals()['pytest_plugins'] = ['a']\n": None,
    "def f(:\n": None,
}


@pytest.mark.parametrize("text", CONFTESTS)
def test_a_conftests_plugins_are_read_as_literals(text: str) -> None:
    names = _names(text.encode())
    expected = CONFTESTS[text]
    assert (names if names is None else [n.strip() for n in names]) == expected


def test_the_conftests_pytest_loads_first_are_read(tmp_path: Path) -> None:
    """The collecting folder's, those above it, and (session 57: any anchor's, ``--pyargs``'
    nested ones) every one at any depth below it; a venv's, ``node_modules``' are not."""
    (tmp_path / "conftest.py").write_text("pytest_plugins = ['fixtures.db']\n")
    for folder, text in (("tests", "['helpers']"), ("src/a/b", "['deep']"),
                         ("node_modules/x", "[x]"), ("env/lib", "[x]")):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "conftest.py").write_text(f"pytest_plugins = {text}\n")
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    every, patterns = conftest_plugins(str(tmp_path))
    assert not every and {"fixtures/db.py", "fixtures/__init__.*", "fixtures.py",
                          "helpers.py", "deep.py"} <= set(patterns)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "conftest.py").write_text("pytest_plugins = [x]\n")
    assert conftest_plugins(str(tmp_path))[0]  # (one below: no literal)


def test_a_computed_pytest_plugins_of_a_package_is_that_package(tmp_path: Path) -> None:
    """``[f"tests.fixtures.{n}" for n in …]``: every module below ``tests/fixtures``, each
    read for its own ``pytest_plugins`` (s56-greview3 K)."""
    (tmp_path / "conftest.py").write_text(
        "import glob\npytest_plugins = ['a'] + [f'tests.fixtures.{f}' for f in glob.glob('x')]\n")
    (tmp_path / "tests" / "fixtures").mkdir(parents=True)
    (tmp_path / "tests" / "fixtures" / "db.py").write_text("pytest_plugins = ['b']\n")
    every, patterns = conftest_plugins(str(tmp_path))
    assert not every and {"a.py", "b.py", "tests/fixtures/*", "tests/__init__.*"} <= set(
        patterns)
    (tmp_path / "conftest.py").write_text("pytest_plugins = [f'{x}.db' for x in y]\n")
    assert conftest_plugins(str(tmp_path))[0]  # (no package's literal start)


# --- the site folders' listing -------------------------------------------------------------------

def test_a_pth_source_folders_plain_folders_are_namespaces(tmp_path: Path) -> None:
    """An editable install's ``.pth`` names a project's folder: its modules, regular
    packages and plain folders (``tests``, ``docs``: namespaces; s58-pfix, s57-greview2
    N-EDITABLE-SRC) are site names; another site folder a ``.pth`` names is read whole (a
    namespace package's folder)."""
    site, source, other = (tmp_path / n for n in ("site-packages", "src", "o/site-packages"))
    for folder in ("tests", "docs", "zzpkg", "__pycache__"):
        (source / folder).mkdir(parents=True)
    (source / "zzpkg/__init__.py").write_text("")
    (source / "zzmod.py").write_text("")
    (other / "zzspace").mkdir(parents=True)
    site.mkdir()
    (site / "zzinstalled").mkdir()
    (site / "a.pth").write_text(f"{source}\n{other}\nimport os\n")
    assert _listing(str(site)) == frozenset(
        {"zzinstalled", "zzpkg", "zzmod", "zzspace", "tests", "docs"})


# --- proofs: what stays denied -------------------------------------------------------------------

#: An entry giving pytest its first options.
ADDOPTS = "PYTEST_ADDOPTS='-o pythonpath=tools' python3 -m pytest -q"
#: Each case: the plan's entries, the files, the calls; the call the hook denies.
DENIED = {
    # a site module's name in a folder pytest puts first on sys.path: a test's basedir (K2's
    # rule reads the folders holding tests)
    "site-module-beside-a-test": (
        PYTEST, {"tests/test_a.py": "import packaging\n" + PASSES},
        ["cp src/p tests/packaging.py", "python3 -m pytest -q"], "cp src/p tests/packaging.py"),
    # the basedir of a test in packages below a plain folder is that folder
    "site-module-above-a-package-of-tests": (
        PYTEST, {"lib/x/__init__.py": "", "lib/x/t/__init__.py": "",
                 "lib/x/t/test_c.py": "import packaging\n" + PASSES},
        ["cp src/p lib/packaging.py", "python3 -m pytest -q"], "cp src/p lib/packaging.py"),
    # pytest's first options (an entry's PYTEST_ADDOPTS, the session's) put a plain folder on
    # sys.path: every folder is taken
    "addopts-put-a-folder-on-sys-path": (
        [f"Bash({ADDOPTS})", "Bash(cp *)"],
        {"tools/.keep": "", "tests/test_a.py": "import packaging\n" + PASSES},
        ["cp src/p tools/packaging.py", ADDOPTS],
        "cp src/p tools/packaging.py"),
    # a conftest's pytest_plugins that is no literal: every module below is taken
    "conftest-plugins-computed": (
        PYTEST, {"conftest.py": "pytest_plugins = ['help' + 'ers']\n", "helpers.py": "",
                 "tests/test_a.py": PASSES},
        ["cp src/p helpers.py", "python3 -m pytest -q"], "cp src/p helpers.py"),
    # a project module of the plan runs Python in a package's folder (C1's class)
    "plans-module-runs-python-in-a-package": (
        [*PYTEST, "Bash(python3 -m tools.run)"],
        {"tools/__init__.py": "", "tools/run.py": "import subprocess\nsubprocess.run("
         "['python3', '-c', 'import colorsys'], cwd='mypkg')\n", "mypkg/__init__.py": "",
         "tests/test_a.py": PASSES},
        ["cp src/p mypkg/colorsys.py", "python3 -m tools.run"], "cp src/p mypkg/colorsys.py"),
    # K3, kept on purpose: under `addopts = --doctest-modules` pytest imports every module
    # below, one nothing imports too (its top-level code runs): a module write is a write
    # of code the plan runs (docs/decisions.md, session 56)
    "doctest-modules-a-module-nothing-imports": (
        PYTEST, {"pytest.ini": "[pytest]\naddopts = --doctest-modules\n",
                 "scripts/x.py": "A = 1\n", "tests/test_a.py": PASSES},
        ["cp src/p scripts/x.py", "python3 -m pytest -q"], "cp src/p scripts/x.py"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", DENIED)
def test_a_module_python_imports_first_stays_denied(case: str, tmp_path: Path) -> None:
    needs("python3", "pytest")
    if subprocess.run(["python3", "-c", "import packaging"], capture_output=True,
                      check=False).returncode:
        pytest.skip("packaging is not installed beside python3's pytest")
    entries, files, calls, denied = DENIED[case]
    assert _session(tmp_path, entries, {**files, "src/p": PY_PAYLOAD}, calls) == denied
