"""Review s60 (s60-preview) of s60-pfix (issue 29: what Python and pytest import at their start;
s59-preview's open rows closed at their root: pytest's ini read as ``iniconfig`` reads it,
``pytest_plugins`` of test modules and packages, site start code read by content, a file
operand of pytest a test module, the plan's own pytest options read by an allow-list, entry
points of the run folder's metadata). Each case proves with real bash 5.2 and the real
programs (python3 3.11, pytest 9.0 and its ``iniconfig`` 2.3, ``argparse``, ``site``) in a
scratch project that the calls run the payload (``open('zz', 'w')``), then asks the printed
hook for each call in turn as Claude Code 2.1.332's Bash tool runs them
(``test_s57_greview2._session``: the session's environment with the case's additions,
``CLAUDE_PROJECT_DIR`` the project): the hook allowing them all is the finding, a strict
xfail row of ``OPEN`` while it is open. The cases the change holds are pinned by one
``held`` item per test asking the hook only for each (``_rows``: a row whose ``OPEN`` line
is removed moves there; CI's budget of items); a cost (a careful user's everyday call
denied though harmless) is a row asserting the call is allowed.

Every payload only touches a file."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from bash_review import LeftOpen, needs
from test_s57_greview2 import _session
from test_s59_preview import ACTIVE, PLUGIN

#: Real bash, python3, pytest and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail.
OPEN = LeftOpen()
_open = OPEN.add

#: A test that passes; the plan of most cases: pytest's line and a copier.
PASSES = "def test_a():\n    pass\n"
PLAN = ["Bash(python3 -m pytest -q)", "Bash(cp *)"]


def _rows(test: str, table: Mapping[str, object]) -> list[str]:
    """``OPEN.rows``: the open cases of ``table`` and ``held`` for the others."""
    return OPEN.rows(test, table)


def _each(table: Mapping[str, object], case: str, tmp_path: Path,
          request: pytest.FixtureRequest) -> list[tuple[str, bool, Path]]:
    """``OPEN.each``: the cases the item ``case`` of the running test runs."""
    return OPEN.each(request.node.originalname, table, case, tmp_path)


# --- I: pytest's ini read otherwise than iniconfig reads it ------------------------------------

#: Each case: the settings file and its text (``helpers.py`` the plugin its ``addopts`` names).
#: pytest reads an ``.ini``/``.cfg`` file by ``iniconfig`` (a section line's comment cut at
#: ``#``/``;`` before its ``]``; names kept as spelled); the gate by ``configparser`` (a
#: section's name up to its line's LAST ``]``; option names lowercased, the last of equal
#: names kept).
INIS = {
    # iniconfig: section `pytest`; configparser: section `pytest] ; `
    "section-line-comment-holds-a-bracket": ("pytest.ini", "[pytest] ; ]\naddopts = -p helpers\n"),
    "setup-cfg-section-comment-holds-a-bracket": ("setup.cfg", "[tool:pytest] # [x]\n"
                                                               "addopts = -p helpers\n"),
    # iniconfig: `addopts` and `Addopts` two names (pytest warns of the unknown one);
    # configparser: one name, the last value kept
    "key-spelled-again-in-capitals": ("pytest.ini", "[pytest]\naddopts = -p helpers\n"
                                                    "Addopts = -q\n"),
    # pyproject's ini-mode table: a list's items are pytest's words as they are; the gate joins
    # them with spaces and splits the text by shlex (quotes in an item swallow the next items)
    # TOML's escapes in a quoted key: tomllib reads `addopts`; the text holds no `addopts`
    # (checkersettings._settings looks for the key's spelling before parsing)
    "pyproject-key-spelled-by-an-escape": (
        "pyproject.toml", "[tool.pytest.ini_options]\n\"add\\u006fpts\" = \"-p helpers\"\n"),
    "pytest-toml-key-spelled-by-an-escape": ("pytest.toml", "[pytest]\n\"add\\u006fpts\" = "
                                                            "[\"-p\", \"helpers\"]\n"),
    "pyproject-list-item-quotes-hide-a-plugin": (
        "pyproject.toml", "[tool.pytest.ini_options]\naddopts = [\"--junit-prefix=x'\", "
                          "\"--trace\", \"--pdbcls=helpers:Pdb\", \"--junit-prefix='y\"]\n"),
}

# (every case open at e0fd15f — configparser's section name up to the line's last `]` and
# lowercased names; the text's key spelling looked for before TOML's escapes are read; a TOML
# list joined and split again by shlex — held since 9d5aa72: iniconfig's rules, items kept)


@pytest.mark.parametrize("case", _rows("test_i_the_ini_is_read_otherwise", INIS))
def test_i_the_ini_is_read_otherwise(case: str, tmp_path: Path, request: pytest.FixtureRequest
                                     ) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p helpers.py``, then pytest
    imports ``helpers`` by the ini's ``addopts``."""
    needs("python3", "pytest")
    for row, proof, folder in _each(INIS, case, tmp_path, request):
        name, text = INIS[row]
        assert _session(folder, PLAN, {name: text, "helpers.py": "",
                                       "tests/test_a.py": PASSES},
                        ["cp src/p helpers.py", "python3 -m pytest -q"],
                        proof=proof) is not None


# --- F: an args file pytest reads (``@FILE``: argparse's fromfile_prefix_chars) -------------

#: Each case: the plan's pytest entry, the call, the project's files besides the test, the
#: session's environment's additions. pytest 8.2+ reads a word ``@FILE`` as FILE's lines, each
#: a word (argparse's ``fromfile_prefix_chars="@"``), wherever the word comes from (its command
#: line, the ini's ``addopts``, ``PYTEST_ADDOPTS``): ``-W error::helpers.Warn`` there imports
#: ``helpers`` (consider_preparse reads no ``-p`` there; argparse's other options all apply).
ARGFILES: dict[str, tuple[str, str, dict[str, str], dict[str, str]]] = {
    "pattern-entry-call-names-an-args-file": ("Bash(python3 -m pytest *)",
                                              "python3 -m pytest -q @args", {}, {}),
    "exact-entry-names-an-args-file": ("Bash(python3 -m pytest -q @args)",
                                       "python3 -m pytest -q @args", {}, {}),
    "session-pytest-addopts-names-an-args-file": ("Bash(python3 -m pytest -q)",
                                                  "python3 -m pytest -q", {},
                                                  {"PYTEST_ADDOPTS": "@args"}),
    # the ini's word `@args` read as an operand (no option)
    "ini-addopts-names-an-args-file": ("Bash(python3 -m pytest -q)", "python3 -m pytest -q",
                                       {"pytest.ini": "[pytest]\naddopts = @args\n"}, {}),
}

# (the three first: held at e0fd15f, the word `@args` names the file `args`: envpaths)
# (ini-addopts-names-an-args-file: open at e0fd15f, the ini's `@args` read as an operand;
# held since 9d5aa72)


@pytest.mark.parametrize("case", _rows("test_f_an_args_file_gives_pytest_words", ARGFILES))
def test_f_an_args_file_gives_pytest_words(case: str, tmp_path: Path,
                                           request: pytest.FixtureRequest) -> None:
    """Plan: the entry, ``Bash(cp *)``: ``cp src/p helpers.py``, ``cp src/a args``, then pytest
    reads ``-W error::helpers.Warn`` from ``args`` and imports ``helpers``."""
    needs("python3", "pytest")
    for row, proof, folder in _each(ARGFILES, case, tmp_path, request):
        entry, call, files, env = ARGFILES[row]
        assert _session(folder, [entry, "Bash(cp *)"],
                        {"tests/test_a.py": PASSES, "src/a": "-W\nerror::helpers.Warn\n",
                         "args": "-q\n", **files},
                        ["cp src/p helpers.py", "cp src/a args", call], env=env,
                        proof=proof) is not None


# --- O: the plan's own pytest line read where pytest's name is spelled otherwise ------------

#: Each case: the plan's pytest line (``helpers.py`` imported by its option). ``collectopts``
#: (the plan's ``-p``, ``-W``) and ``pytestini._plan_words`` (its allow-list) find pytest by a
#: word whose name is ``pytest``: ``-m`` attached to its module (``-mpytest``), or pytest's
#: ``__main__`` module, runs the same pytest.
OWN = {
    "attached-m-plugin": "python3 -mpytest -q -phelpers",
    "attached-m-warning-category": "python3 -mpytest -q -W error::helpers.Warn",
    "attached-m-trace-pdbcls": "python3 -mpytest -q --trace --pdbcls=helpers:Pdb",
    "pytest-main-module-warning-category": "python3 -m pytest.__main__ -q -W error::helpers.Warn",
    # a runner before the interpreter whose own words come first (its operand, its option)
    "timeout-before-attached-m-warning": "timeout 600 python3 -mpytest -q -W error::helpers.Warn",
    "nohup-before-attached-m-trace-pdbcls": ("nohup python3 -mpytest -q --trace "
                                             "--pdbcls=helpers:Pdb"),
    "env-option-before-attached-m-warning": ("env -u FOO python3 -mpytest -q -W "
                                             "error::helpers.Warn"),
}

# (the first four: open at e0fd15f and 7296d14, pytest found by a word named `pytest`; held
# since 8ba185d, collectopts.pytest_start)
# (the last three: open at 8ba185d, an interpreter read only right after a _BEFORE word; held
# since fd801fc)

#: Each case: a plan's line running pytest by ``-c`` code (``pytest.main()``), the root
#: conftest naming ``helpers`` (``python3 -m pytest -q`` guards ``helpers.py`` for it: the
#: s59 rows).
MAINS = {
    "c-code-calls-pytest-main": "python3 -c \"import pytest; pytest.main()\"",
    "c-code-exits-with-pytest-main": "python3 -c 'import pytest,sys; sys.exit(pytest.main())'",
}

# (both: open at fd801fc and at base, -c code running pytest not read as pytest; held since
# 51a13e9, collectopts.code_runs_pytest)


@pytest.mark.parametrize("case", _rows("test_o_c_code_runs_pytest", MAINS))
def test_o_c_code_runs_pytest(case: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Plan: the line, ``Bash(cp *)``: ``cp src/p helpers.py``, then pytest imports the plugin
    the root conftest names."""
    needs("python3", "pytest")
    for row, proof, folder in _each(MAINS, case, tmp_path, request):
        assert _session(folder, [f"Bash({MAINS[row]})", "Bash(cp *)"], {
            "tests/test_a.py": PASSES, "conftest.py": "pytest_plugins = ['helpers']\n",
            "helpers.py": ""}, ["cp src/p helpers.py", MAINS[row]], proof=proof) is not None


def test_o_a_project_script_calling_pytest_main_is_the_boundary(tmp_path: Path) -> None:
    """Pins the boundary of docs/decisions.md (session 60, "pytest run by a plan's `-c`
    code"): plan ``Bash(python3 run_tests.py)``, ``Bash(cp *)``, ``run_tests.py`` calling
    ``pytest.main()``, a root conftest naming ``helpers``: ``cp src/p helpers.py`` and the run
    are allowed (the project's script is the project's code, P1g: it could import the plugin
    itself; proved to run the payload with the real programs at 51a13e9). Hook only."""
    line = "python3 run_tests.py"
    assert _session(tmp_path, [f"Bash({line})", "Bash(cp *)"], {
        "tests/test_a.py": PASSES, "conftest.py": "pytest_plugins = ['helpers']\n",
        "helpers.py": "", "run_tests.py": "import pytest\n\nraise SystemExit(pytest.main())\n"},
        ["cp src/p helpers.py", line], proof=False) is None


@pytest.mark.parametrize("case", _rows("test_o_the_plans_own_line_spells_pytest_otherwise", OWN))
def test_o_the_plans_own_line_spells_pytest_otherwise(case: str, tmp_path: Path,
                                                      request: pytest.FixtureRequest) -> None:
    """Plan: the pytest line, ``Bash(cp *)``: ``cp src/p helpers.py``, then the line's option
    imports ``helpers``."""
    needs("python3", "pytest")
    for row, proof, folder in _each(OWN, case, tmp_path, request):
        assert _session(folder, [f"Bash({OWN[row]})", "Bash(cp *)"], {"tests/test_a.py": PASSES},
                        ["cp src/p helpers.py", OWN[row]], proof=proof) is not None


# --- M: pytest_plugins of a test module pytest imports, read otherwise ---------------------

#: Each case: the plan's pytest line and the project's files (``helpers.py`` the plugin).
#: pytest reads ``pytest_plugins`` of each module it imports as a test (``importtestmodule``:
#: ``consider_module``): of ``python_files``' names (the ini's), of a file operand's whatever
#: its name, and as Python decodes its text (a coding cookie).
TESTMODULES: dict[str, tuple[str, dict[str, str]]] = {
    "ini-python-files-module-names-a-plugin": ("python3 -m pytest -q", {
        "pytest.ini": "[pytest]\npython_files = check_*.py\n",
        "tests/check_a.py": "pytest_plugins = ['helpers']\n\n\n" + PASSES}),
    "plans-operand-module-names-a-plugin": ("python3 -m pytest -q tests/check_a.py", {
        "tests/check_a.py": "pytest_plugins = ['helpers']\n\n\n" + PASSES}),
    # UTF-7 (a text codec Python takes as a source encoding): `+AF8-` is `_`
    "utf7-test-module-names-a-plugin": ("python3 -m pytest -q", {
        "tests/test_a.py": "# coding: utf-7\npytest+AF8-plugins = ['helpers']\n\n\n" + PASSES}),
    # a testpaths entry outside the collecting folder (its test modules: anchors' conftests
    # are read, their test modules not); PREPARE writes ../ext/test_x.py
    "testpaths-outside-module-names-a-plugin": ("python3 -m pytest -q", {
        "pytest.ini": "[pytest]\ntestpaths = ../ext tests\n", "tests/test_a.py": PASSES}),
    # the ini's norecursedirs replaces pytest's default (which skips node_modules)
    "norecursedirs-collects-node-modules": ("python3 -m pytest -q", {
        "pytest.ini": "[pytest]\nnorecursedirs = build\n",
        "node_modules/test_x.py": "pytest_plugins = ['helpers']\n\n\n" + PASSES}),
}

# (ini-python-files-module-names-a-plugin, plans-operand-module-names-a-plugin: open at
# da74890, pytest's default test names only; testpaths-outside-module-names-a-plugin: open at
# da74890, the collecting folder's test modules only; norecursedirs-collects-node-modules: open
# at da74890, node_modules skipped whatever the ini says; all held since b743f91)
# (utf7-test-module-names-a-plugin: open at da74890, the bytes `pytest_plugins` looked for;
# held since 9d5aa72, exactlists.spelled)


@pytest.mark.parametrize("case", _rows("test_m_a_test_module_names_a_plugin", TESTMODULES))
def test_m_a_test_module_names_a_plugin(case: str, tmp_path: Path,
                                        request: pytest.FixtureRequest) -> None:
    """Plan: the pytest line, ``Bash(cp *)``: ``cp src/p helpers.py``, then pytest imports the
    test module and the plugin it names."""
    needs("python3", "pytest")
    for row, proof, folder in _each(TESTMODULES, case, tmp_path, request):
        line, files = TESTMODULES[row]
        assert _session(folder, [f"Bash({line})", "Bash(cp *)"], {"helpers.py": "", **files},
                        ["cp src/p helpers.py", line], proof=proof, prepare=(
                            "mkdir -p ../ext && printf \"pytest_plugins = ['helpers']\\n\\n"
                            "def test_x():\\n    pass\\n\" > ../ext/test_x.py"
                            if "outside" in row else "")) is not None


# --- L: a file read up to a limit as if whole ------------------------------------------------

#: Comment lines past the gate's read limit (4 MiB: ``1 << 22`` bytes) of a conftest or a
#: pytest ini: the part read parses (a cut comment is a comment), what follows is not read.
_LONG = ("# " + "x" * 98 + "\n") * ((1 << 22) // 100 + 1)
#: Each case: the project's files besides ``helpers.py`` and the test.
LONGS = {
    "conftest-past-the-read-limit": {"conftest.py": _LONG + "pytest_plugins = ['helpers']\n"},
    "ini-past-the-read-limit": {"pytest.ini": "[pytest]\n" + _LONG + "addopts = -p helpers\n"},
    "test-module-past-the-read-limit": {
        "tests/test_b.py": _LONG + "pytest_plugins = ['helpers']\n\n\n" + PASSES},
}

# (every case open at e0fd15f/da74890, a file's first 4 MiB read as the whole file; held
# since 9d5aa72)


@pytest.mark.parametrize("case", _rows("test_l_a_file_read_up_to_a_limit", LONGS))
def test_l_a_file_read_up_to_a_limit(case: str, tmp_path: Path,
                                     request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p helpers.py``, then pytest
    imports the plugin the file names past the limit."""
    needs("python3", "pytest")
    for row, proof, folder in _each(LONGS, case, tmp_path, request):
        assert _session(folder, PLAN, {"helpers.py": "", "tests/test_a.py": PASSES, **LONGS[row]},
                        ["cp src/p helpers.py", "python3 -m pytest -q"],
                        proof=proof) is not None


# --- E: site start code calling a function read nowhere -------------------------------------

#: Each case: what the active venv's site folder ``$S`` holds besides test_s59_preview's
#: ``PLUGIN`` (the plugin ``zzplug`` importing ``acme_utils``, a package of ``$A``, no site
#: folder's). A ``.pth`` import line calling a function of a module of the base installation's
#: site folder (``six.exec_`` is ``exec``). NOT a hole's proof (found after the fixer's
#: c9ec163): at the venv's ``.pth`` time the base's site folder is not yet on ``sys.path``
#: (site adds the venv's first), so the line fails; the payload runs because ``acme_utils`` is
#: installed nowhere and ``zzplug`` finds the call's folder's (decisions.md: "an optional
#: import installed nowhere", the ``__pypy__`` boundary; ``PLUGIN`` alone is allowed too). Kept
#: as a pin: the gate now denies it (fails closed on the unread call).
CALLED = {
    "pth-calls-a-base-site-modules-exec": (
        "echo \"import six; six.exec_('import sys; sys.path.append(%r)' % '$A')\" > "
        "\"$S/acme.pth\"\n"),
}

# (pth-calls-a-base-site-modules-exec: allowed at 3dd5deb, denied since c9ec163)


@pytest.mark.parametrize("case", _rows("test_e_site_code_calls_a_function_read_nowhere", CALLED))
def test_e_site_code_calls_a_function_read_nowhere(case: str, tmp_path: Path,
                                                   request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p acme_utils.py``, then
    pytest loads ``zzplug``, whose import meets the call's folder's module first."""
    needs("python3", "pytest")
    for row, proof, folder in _each(CALLED, case, tmp_path, request):
        assert _session(folder, PLAN, {"tests/test_a.py": PASSES},
                        ["cp src/p acme_utils.py", "python3 -m pytest -q"],
                        setup=PLUGIN + CALLED[row], env=ACTIVE, proof=proof) is not None


# --- C: the ini pytest finds from an operand through a link -----------------------------------

#: Each case: the plan's pytest entry and the call. pytest finds its ini from its operands'
#: common folder up as spelled (``absolutepath``: a link not resolved): ``sub/link/test_x.py``
#: (``sub/link -> ../elsewhere``) takes ``sub/pytest.ini`` (``addopts = -p helpers``); the
#: gate reads the settings above the operand's real path (``elsewhere``).
LINKED = {
    "pattern-call-operand-through-a-link": ("Bash(python3 -m pytest *)",
                                            "python3 -m pytest -q sub/link/test_x.py"),
    "exact-entry-operand-through-a-link": ("Bash(python3 -m pytest -q sub/link/test_x.py)",
                                           "python3 -m pytest -q sub/link/test_x.py"),
}

# (both: open at e0fd15f, the settings above an operand's real path read; held since
# c4f3651, its spelled path's too)


@pytest.mark.parametrize("case", _rows("test_c_an_operand_through_a_link_finds_another_ini",
                                       LINKED))
def test_c_an_operand_through_a_link_finds_another_ini(case: str, tmp_path: Path,
                                                       request: pytest.FixtureRequest) -> None:
    """Plan: the entry, ``Bash(cp *)``: ``cp src/p helpers.py``, then pytest reads
    ``sub/pytest.ini`` and loads ``helpers``."""
    needs("python3", "pytest")
    for row, proof, folder in _each(LINKED, case, tmp_path, request):
        entry, call = LINKED[row]
        assert _session(folder, [entry, "Bash(cp *)"], {
            "tests/test_a.py": PASSES, "elsewhere/test_x.py": PASSES,
            "sub/pytest.ini": "[pytest]\naddopts = -p helpers\n"},
            ["cp src/p helpers.py", call], prepare="ln -s ../elsewhere sub/link",
            proof=proof) is not None


# --- S: a folder the project's code puts first on sys.path, named otherwise -------------------

#: Each case: the project's files (a test imports ``yaml``, a site module of the test's
#: Python; ``src`` holds the project's code). A conftest or test module putting ``src`` first
#: on ``sys.path`` (test_s58_preview's S idiom) by a spelling ``moves_path`` does not read.
_SRC = "os.path.join(os.path.dirname(__file__), 'src')"
SPELLED = {
    # exactcode reads the conftest (`getattr` of a literal public name, a value's `insert`)
    "conftest-inserts-src-by-getattr": {
        "conftest.py": f"import os\nimport sys\n\ngetattr(sys, 'path').insert(0, {_SRC})\n",
        "src/app.py": "A = 1\n", "tests/test_a.py": "import yaml\n" + PASSES},
    # UTF-7: `+AHMAeQBz-` is `sys` (moves_path looks for the bytes `sys` first)
    "conftest-inserts-src-in-utf7": {
        "conftest.py": f"# coding: utf-7\nimport os\nimport +AHMAeQBz-\n\n+AHMAeQBz-.path."
                       f"insert(0, {_SRC})\n",
        "src/app.py": "A = 1\n", "tests/test_a.py": "import yaml\n" + PASSES},
    "test-module-inserts-src-by-getattr": {
        "tests/test_0.py": "import os\nimport sys\n\ngetattr(sys, 'path').insert(0, os.path."
                           "join(os.path.dirname(__file__), '..', 'src'))\n\n\n" + PASSES,
        "src/app.py": "A = 1\n", "tests/test_a.py": "import yaml\n" + PASSES},
    # pytest's own fixture puts the folder first (`syspath_prepend` holds no word `sys`);
    # the test imports `yaml` when it runs
    "fixture-prepends-src-by-monkeypatch": {
        "conftest.py": "import os\n\nimport pytest\n\n\n@pytest.fixture(autouse=True)\n"
                       f"def _src(monkeypatch):\n    monkeypatch.syspath_prepend({_SRC})\n",
        "src/app.py": "A = 1\n", "tests/test_a.py": "def test_a():\n    import yaml\n"},
}

# (fixture-prepends-src-by-monkeypatch: open at 9d5aa72, the word `sys` looked for; held since
# fd801fc, syspath_prepend read as moving the path)
# (the first three: open at 90b54e1, `sys.path` read as an attribute chain of an import,
# the bytes `sys` before a coding cookie's decoding; held since 9d5aa72, pathcode: any `sys`)


@pytest.mark.parametrize("case", _rows("test_s_a_folder_put_first_by_another_spelling", SPELLED))
def test_s_a_folder_put_first_by_another_spelling(case: str, tmp_path: Path,
                                                  request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p src/yaml.py``, then the
    test's ``import yaml`` meets the copy first."""
    needs("python3", "pytest")
    for row, proof, folder in _each(SPELLED, case, tmp_path, request):
        assert _session(folder, PLAN, SPELLED[row], ["cp src/p src/yaml.py",
                                                     "python3 -m pytest -q"],
                        proof=proof) is not None


# --- P: the plugin a conftest names, found where its own code puts a folder first ------------

#: Each case: the root conftest (read exactly: ``sys.path.*`` and ``os.path.*`` are its
#: allowed calls), the file the call copies. A monorepo's idiom: the shared test plugins'
#: folder put first on ``sys.path``, a plugin of it named (``../shared``: PREPARE makes it).
INSERTED = {
    "conftest-inserts-a-folder-outside-for-its-plugin": (
        "import os\nimport sys\n\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), "
        "'..', 'shared'))\npytest_plugins = ['myplug']\n", "../shared/myplug.py"),
}

# (open at 90b54e1, the named plugin looked up below the collecting folder, the ini's
# pythonpath, the site folders; held since 23887f8, asked in any folder that may be first)


@pytest.mark.parametrize("case", _rows("test_p_a_conftests_plugin_found_where_it_puts_a_folder",
                                       INSERTED))
def test_p_a_conftests_plugin_found_where_it_puts_a_folder(
        case: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p ../shared/myplug.py``,
    then pytest imports the conftest's plugin from the folder it put first."""
    needs("python3", "pytest")
    for row, proof, folder in _each(INSERTED, case, tmp_path, request):
        conftest, copied = INSERTED[row]
        assert _session(folder, PLAN, {"conftest.py": conftest, "tests/test_a.py": PASSES},
                        [f"cp src/p {copied}", "python3 -m pytest -q"],
                        prepare="mkdir -p ../shared && : > ../shared/myplug.py",
                        proof=proof) is not None
