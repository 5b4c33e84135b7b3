"""Review s60 (s60-preview2, a second review) of s60-pfix (issue 29): what it built this
session, attacked afresh — ``pathcode.moves_path`` (the code that may put a folder first on
``sys.path``: a deny-list of spelled names), ``collectopts.pytest_start`` (pytest found behind a
runner: ``timeout``, ``nohup``, ``env -u``; fd801fc) and ``code_runs_pytest`` (51a13e9),
``checkersettings._iniconfig`` (9d5aa72), ``exactlists.spelled`` (names as Python reads
them), test modules' ``pytest_plugins`` (b743f91). Each case proves with real bash 5.2 and
the real programs (python3 3.11, pytest 9.0, ``cProfile``/``profile``, ``pdb``, ``ionice``,
``chrt``, ``stdbuf``, ``taskset``, ``setsid``, ``flock``) in a scratch project that the calls
run the payload (``open('zz', 'w')``), then asks the printed hook for each call in turn as
Claude Code 2.1.332's Bash tool runs them (``test_s57_greview2._session``): the hook
allowing them all is the finding, a strict xfail row of ``OPEN`` while it is open. The cases
the change holds are pinned by one ``held`` item per test asking the hook only for each
(``_rows``, as test_s60_preview's); a cost (a careful user's everyday call denied though harmless)
is a row asserting the call is allowed.

Every payload only touches a file."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from bash_review import LeftOpen, needs
from test_s57_greview2 import _session

#: Real bash, python3, pytest and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail.
OPEN = LeftOpen()
_open = OPEN.add

#: A test that passes; a test importing a site folder's module (``yaml``: PyYAML is in the
#: machine's python3's site folder, not imported by pytest at its start).
PASSES = "def test_a():\n    pass\n"
IMPORTS = "def test_a():\n    import yaml\n"
#: A case: the plan's entries, the project's files, the calls (the last one runs the payload).
Case = tuple[list[str], dict[str, str], list[str]]


def _rows(test: str, table: Mapping[str, object]) -> list[str]:
    """``OPEN.rows``: the open cases of ``table`` and ``held`` for the others."""
    return OPEN.rows(test, table)


def _each(table: Mapping[str, object], case: str, tmp_path: Path,
          request: pytest.FixtureRequest) -> list[tuple[str, bool, Path]]:
    """``OPEN.each``: the cases the item ``case`` of the running test runs."""
    return OPEN.each(request.node.originalname, table, case, tmp_path)


def _run(case: Case, folder: Path, proof: bool, prepare: str = "") -> str | None:
    """``_session`` of ``case`` in ``folder`` (``prepare``: bash making links there)."""
    entries, files, calls = case
    return _session(folder, entries, files, calls, proof=proof, prepare=prepare)


# --- O: pytest run by a stdlib runner module the plan's words do not name as pytest --------

#: The root conftest naming the plugin ``helpers`` (guarded where the gate sees pytest run).
PLUGGED = {"tests/test_a.py": PASSES, "conftest.py": "pytest_plugins = ['helpers']\n",
           "helpers.py": ""}


def _line(line: str, files: dict[str, str] | None = None) -> Case:
    """The case: plan ``Bash(line)``, ``Bash(cp *)``; ``cp src/p helpers.py``, then ``line``."""
    return ([f"Bash({line})", "Bash(cp *)"], files or PLUGGED, ["cp src/p helpers.py", line])


#: ``python3 -m cProfile -m MODULE`` (``profile`` alike) runs MODULE by runpy: pytest's
#: ``__main__`` is pytest. ``collectopts.pytest_start(anywhere)`` reads an interpreter's own
#: ``-m`` (cProfile) and words NAMED ``pytest`` (``-m pytest`` here is caught by its name).
WARNED = "-q -W error::helpers.Warn"
#: pytest's ``__main__`` in the machine's python3's site folder.
MAIN = "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/pytest/__main__.py"
RUNNERS = {
    "cprofile-runs-pytest-main": _line("python3 -m cProfile -m pytest.__main__ -q"),
    "profile-runs-pytest-main": _line("python3 -m profile -m pytest.__main__ -q"),
    # held: pdb's `-c` (a command) read as -c code naming pytest; cProfile's `-m pytest`
    "pdb-runs-pytest-main": _line("python3 -m pdb -c continue -m pytest.__main__ -q"),
    "cprofile-runs-pytest": _line("python3 -m cProfile -m pytest -q"),
    # held: runners before an interpreter's attached -m (pytest_start(anywhere), fd801fc)
    **{f"{name}-before-attached-m-warning": _line(f"{pre} python3 -mpytest {WARNED}", {
        "tests/test_a.py": PASSES, "helpers.py": ""}) for name, pre in (
        ("ionice", "ionice -c 3"), ("chrt", "chrt --idle 0"), ("stdbuf", "stdbuf -oL"),
        ("taskset", "taskset -c 0"), ("setsid", "setsid -w"), ("env-split", "env -S"))},
    "x-importtime-attached-m-plugin-conftest": _line("python3 -X importtime -Wd -mpytest -q"),
    "sh-c-attached-m-plugin-conftest": _line("sh -c 'python3 -mpytest -q'"),
    # -c code's class (51a13e9) given by a here-string to `python3 -I -` (the pipe forms and
    # `python3 <<<` held)
    "here-string-code-calls-pytest-main": _line(
        "python3 -I - <<< 'import pytest; pytest.main()'"),
    "here-string-no-operand-calls-pytest-main": _line(
        "python3 <<< 'import pytest; pytest.main()'"),
    "pipe-code-calls-pytest-main": _line("echo 'import pytest; pytest.main()' | python3 -"),
    # -c code naming pytest by a fullwidth letter (U+FF50: Python NFKC-normalizes identifiers)
    "c-code-imports-pytest-in-fullwidth": _line(
        "python3 -c 'import \uff50ytest; \uff50ytest.main()'"),
    "here-string-imports-pytest-in-fullwidth": _line(
        "python3 - <<< 'import \uff50ytest; \uff50ytest.main()'"),
    # IPython's interpreter (`ipython`: -c and -m as python's; is_interpreter takes `python*`)
    "ipython-c-code-calls-pytest-main": _line("ipython -c 'import pytest; pytest.main()'"),
    "ipython-m-pytest-main": _line("ipython -m pytest.__main__ -- -q"),
    # pytest's __main__ as a script path (the machine's python3's site folder)
    "script-path-of-pytest-main": _line(f"python3 {MAIN} -q"),
}

# (cprofile-/profile-runs-pytest-main: open at base e0fd15f and fd801fc; held since a4a2736,
# a module run by a module; the here-string and script-path rows: open at base and a4a2736,
# held at 12ad031, the here-string ones open again at 6868d5e, held since e471bbb; the
# fullwidth -c and ipython rows: open at 12ad031, held since 6868d5e)


@pytest.mark.parametrize("case", _rows("test_o_a_runner_module_runs_pytest", RUNNERS))
def test_o_a_runner_module_runs_pytest(case: str, tmp_path: Path,
                                       request: pytest.FixtureRequest) -> None:
    """Plan: the line, ``Bash(cp *)``: ``cp src/p helpers.py``, then pytest imports the plugin
    the root conftest (or the line's ``-W``) names."""
    needs("python3", "pytest", "ionice", "chrt", "stdbuf", "taskset", "setsid")
    for row, proof, folder in _each(RUNNERS, case, tmp_path, request):
        if MAIN in RUNNERS[row][2][-1] and not Path(MAIN).exists():
            pytest.skip(f"not installed here: {MAIN}")
        if RUNNERS[row][2][-1].startswith("ipython"):
            needs("ipython")
        assert _run(RUNNERS[row], folder, proof) is not None


# --- S: a conftest's or test's code putting a folder first without spelling a listed name ---

#: Each case: the project's files; ``cp src/p src/yaml.py``, ``python3 -m pytest -q``: the
#: code puts ``src`` first on ``sys.path`` at test time, the test's ``import yaml`` meets
#: ``src/yaml.py``. ``pathcode.moves_path`` asks whether a conftest or test module spells
#: ``sys``, ``syspath_prepend``, ``syspathinsert`` or ``addsitedir`` (a deny-list of names); a
#: function's body is not read by ``exactcode`` (it runs at test time).
SRC = "os.path.join(os.path.dirname(__file__), 'src')"
FIXTURE = "import os, pytest\n\n\n@pytest.fixture(autouse=True)\ndef _src(monkeypatch):\n    "
MOVERS = {
    # pytest's documented monkeypatch.syspath_prepend, its name joined
    "fixture-prepends-by-getattr-joined": {
        "conftest.py": FIXTURE + f"getattr(monkeypatch, 'syspath_' + 'prepend')({SRC})\n",
        "tests/test_a.py": IMPORTS},
    # `sys` by a string escape (`'\x73ys'`: no word `sys` in the text)
    "fixture-inserts-by-escaped-sys": {
        "conftest.py": FIXTURE + f"__import__('\\x73ys').path.insert(0, {SRC})\n",
        "tests/test_a.py": IMPORTS},
    # pytest's own importer in prepend mode (inserts the package root `src`; no `sys` spelled)
    "fixture-import-path-prepends": {
        "conftest.py": "import pytest\nfrom pathlib import Path\nfrom _pytest.pathlib import "
                       "import_path\n\n\n@pytest.fixture(autouse=True)\ndef _m():\n    "
                       "import_path(Path(__file__).parent / 'src' / 'app' / 'mod.py', mode="
                       "'prepend', root=Path(__file__).parent, consider_namespace_packages="
                       "False)\n", "src/app/__init__.py": "", "src/app/mod.py": "",
        "tests/test_a.py": IMPORTS},
    "test-inserts-by-escaped-sys": {
        "tests/test_a.py": "import os\n\n\ndef test_a():\n    __import__('\\x73ys').path.insert("
                           "0, os.path.join(os.path.dirname(__file__), '..', 'src'))\n"
                           "    import yaml\n"},
    # a folder holding `__init__.py` put first (syspathdirs takes a package's folder as never
    # first): the tests package's own folder (a common idiom), a source package's
    "package-tests-conftest-inserts-its-folder": {
        "tests/__init__.py": "", "tests/test_a.py": IMPORTS, "tests/conftest.py":
            "import os, sys\nsys.path.insert(0, os.path.dirname(__file__))\n",
        "CALL": "cp src/p tests/yaml.py"},
    "conftest-inserts-a-package-folder": {
        "src/app/__init__.py": "", "tests/test_a.py": IMPORTS, "tests/conftest.py":
            "import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', "
            "'src', 'app'))\n", "CALL": "cp src/p src/app/yaml.py"},
    # the ini's testpaths outside the project: its conftest (in `$T`, made by ``SETUP``)
    "testpaths-outside-conftest-inserts": {
        "pytest.ini": "[pytest]\ntestpaths = {T}/ext\n", "SETUP": (
            "mkdir -p ext && printf 'import os, sys\\nsys.path.insert(0, os.path.join("
            "os.getcwd(), \"src\"))\\n' > ext/conftest.py && printf 'def test_x():\\n    "
            "import yaml\\n' > ext/test_x.py\n")},
    # (the two package-folder rows: open at a4a2736, held since 12ad031: syspathdirs.moved)
    # held: the same at a conftest's top level (not exact: every folder guarded); a module
    # of the ini's python_files spelling sys
    "conftest-top-inserts-by-escaped-sys": {
        "conftest.py": f"import os\n__import__('\\x73ys').path.insert(0, {SRC})\n",
        "tests/test_a.py": IMPORTS},
    "python-files-module-inserts": {
        "pytest.ini": "[pytest]\npython_files = check_*.py\n",
        "tests/check_a.py": "import sys, os\nsys.path.insert(0, os.path.join(os.path.dirname("
                            "__file__), '..', 'src'))\n\n\n" + IMPORTS},
}
# (the getattr-joined and escaped-sys rows: open at 12ad031, held since 4ec9a45; the
# testpaths-outside row: open at 12ad031, held since 6868d5e; import_path: open at 6868d5e,
# held since e471bbb)


@pytest.mark.parametrize("case", _rows("test_s_code_puts_a_folder_first_unspelled", MOVERS))
def test_s_code_puts_a_folder_first_unspelled(case: str, tmp_path: Path,
                                              request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p src/yaml.py`` (or the
    case's ``CALL``), then pytest's test imports it as ``yaml``."""
    needs("python3", "pytest")
    for row, proof, folder in _each(MOVERS, case, tmp_path, request):
        files = dict(MOVERS[row])
        call, setup = files.pop("CALL", "cp src/p src/yaml.py"), files.pop("SETUP", "")
        assert _session(folder, ["Bash(python3 -m pytest -q)", "Bash(cp *)"], files,
                        [call, "python3 -m pytest -q"], setup=setup, proof=proof) is not None


# --- H: held — files pytest or pdb read, written (each proved at e8659ced) ------------------

#: Each case: a plan, files and calls the change holds (pins: the hook denies a call).
RC = "import os; open('zz', 'w').close()\ncontinue\n"
HELD: dict[str, Case] = {
    # pytest's prepend import mode puts a test's and a conftest's folder first
    "test-folder-shadows-a-standard-module": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"tests/test_a.py": "def test_a():\n    import colorsys\n"},
        ["cp src/p tests/colorsys.py", "python3 -m pytest -q"]),
    "conftest-folder-shadows-a-standard-module": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"tests/test_a.py": "def test_a():\n    import colorsys\n", "tools/conftest.py": "",
         "tools/test_b.py": PASSES},
        ["cp src/p tools/colorsys.py", "python3 -m pytest -q"]),
    # the ini's python_files by continuation lines, by a path glob, by pytest 9's TOML table
    "python-files-continuation": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"pytest.ini": "[pytest]\npython_files =\n    test_*.py\n    check_*.py\n",
         "tests/test_a.py": PASSES}, ["cp src/p tests/check_a.py", "python3 -m pytest -q"]),
    "python-files-path-glob": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"pytest.ini": "[pytest]\npython_files = tests/*.py\n", "tests/test_a.py": PASSES},
        ["cp src/p tests/a.py", "python3 -m pytest -q"]),
    "pytest-table-python-files": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"pyproject.toml": "[tool.pytest]\npython_files = [\"check_*.py\"]\n",
         "tests/test_a.py": PASSES}, ["cp src/p tests/check_a.py", "python3 -m pytest -q"]),
    # pdb reads the run folder's .pdbrc (pytest's --pdb/--trace, python -m pdb)
    "pdbrc-under-pytest-pdb": (
        ["Bash(python3 -m pytest -q --pdb)", "Bash(cp *)"],
        {"src/rc": RC, "tests/test_a.py": "def test_a():\n    assert 0\n"},
        ["cp src/rc .pdbrc", "python3 -m pytest -q --pdb < /dev/null"]),
    "pdbrc-under-pytest-trace": (
        ["Bash(python3 -m pytest -q --trace)", "Bash(cp *)"],
        {"src/rc": RC, "tests/test_a.py": PASSES},
        ["cp src/rc .pdbrc", "python3 -m pytest -q --trace < /dev/null"]),
}
#: Each case (held): the links the project holds (``prepare``), then a case as ``HELD``'s:
#: the target of a settings file's or a conftest's link written (c4f3651's class).
LINKED: dict[str, tuple[str, Case]] = {
    "pytest-ini-links-to-a-file-written": ("ln -s cfg/pt.ini pytest.ini", (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"cfg/pt.ini": "[pytest]\n", "tests/test_a.py": PASSES,
         "src/ini": "[pytest]\naddopts = -p helpers\n"},
        ["cp src/p helpers.py", "cp src/ini cfg/pt.ini", "python3 -m pytest -q"])),
    "pytest-toml-links-to-a-file-written": ("ln -s cfg/x.toml pytest.toml", (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"cfg/x.toml": "[pytest]\n", "tests/test_a.py": PASSES,
         "src/t": "[pytest]\naddopts = [\"-p\", \"helpers\"]\n"},
        ["cp src/p helpers.py", "cp src/t cfg/x.toml", "python3 -m pytest -q"])),
    "conftest-links-to-a-file-written": ("ln -s ../lib/conf.py tests/conftest.py", (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"lib/conf.py": "", "tests/test_a.py": PASSES},
        ["cp src/p lib/conf.py", "python3 -m pytest -q"])),
    "folder-link-holds-a-conftest-written": ("ln -s ../shared tests/sub", (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"shared/conftest.py": "", "tests/test_a.py": PASSES},
        ["cp src/p shared/conftest.py", "python3 -m pytest -q"])),
}


def test_h_held(tmp_path: Path) -> None:
    """Each ``HELD`` and ``LINKED`` case: the hook denies one of its calls (hook only)."""
    needs("python3", "pytest")
    for name, case in HELD.items():
        (tmp_path / name).mkdir()
        assert _run(case, tmp_path / name, False) is not None, name
    for name, (links, case) in LINKED.items():
        (tmp_path / name).mkdir()
        assert _run(case, tmp_path / name, False, links) is not None, name


# --- K: costs — everyday calls denied though harmless ----------------------------------------

#: A test module holding a non-ASCII character and a string literal with a lone surrogate
#: escape (pydantic-core's real ``tests/validators/test_json.py``, ``test_bytes.py``):
#: ``exactlists.spelled`` encodes the literal's value (UnicodeEncodeError), the hook fails
#: closed, every write of the project is denied (allowed at base e0fd15f; open at 9d5aa72,
#: held since a4a2736: the decoded text searched).
SURROGATE = "# caf\u00e9\nS = '\\ud800'\n\n\ndef test_a():\n    pass\n"
COSTS = {
    "surrogate-literal-in-a-test-module": {"tests/test_a.py": SURROGATE},
    # a conftest reading `sys.platform` (moving no path) makes a module named like a site
    # folder's (`yaml`) guarded in every folder: `tools/yaml.py` edited (allowed at base)
    "conftest-reads-sys-platform": {
        "tests/conftest.py": "import sys\n\ncollect_ignore = ['setup.py'] if sys.platform == "
                             "'win32' else []\n", "tests/test_a.py": PASSES,
        "CALL": "sed -i s/1/2/ tools/yaml.py", "tools/yaml.py": "X = 1\n"},
    # the same conftest: a package's module named like a site folder's (`flask`: sentry-python's
    # sentry_sdk/integrations/flask.py; 21 such files in 7 of the 19 mirrored repos) edited
    # (allowed at base and a4a2736; denied since 12ad031: a package's folder may be first)
    "conftest-reads-sys-platform-package-module": {
        "tests/conftest.py": "import sys\n\ncollect_ignore = ['setup.py'] if sys.platform == "
                             "'win32' else []\n", "tests/test_a.py": PASSES,
        "sentry_sdk/__init__.py": "", "sentry_sdk/integrations/__init__.py": "",
        "sentry_sdk/integrations/flask.py": "X = 1\n",
        "CALL": "sed -i s/1/2/ sentry_sdk/integrations/flask.py"},
    # held: the same module without the surrogate
    "non-ascii-test-module": {"tests/test_a.py": SURROGATE.replace("\\ud800", "x")},
    # a plan installing a pytest plugin beside its pytest line: the pip entry read as pytest
    # run with unread words (12ad031: any word naming pytest after an interpreter), every
    # module a plugin's (allowed at base and a4a2736)
    "pip-installs-a-pytest-plugin-beside-pytest": {
        "tests/test_a.py": PASSES, "ENTRY": "Bash(python3 -m pip install -U pytest-timeout)"},
}
# (pip-installs-a-pytest-plugin-beside-pytest: open at 12ad031, held since 6868d5e)


@pytest.mark.parametrize("case", list(COSTS))
def test_k_an_everyday_edit_is_allowed(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(sed -i *)`` (and the case's ``ENTRY``):
    ``sed -i s/1/2/ src/app.py`` (a module no test imports) is allowed."""
    needs("python3", "pytest")
    files = {"src/app.py": "X = 1\n", **COSTS[case]}
    call, entry = files.pop("CALL", "sed -i s/1/2/ src/app.py"), files.pop("ENTRY", "")
    assert _run(([*([entry] if entry else []), "Bash(python3 -m pytest -q)", "Bash(sed -i *)"],
                 files, [call]), tmp_path, False) is None
