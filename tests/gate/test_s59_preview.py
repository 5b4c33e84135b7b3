"""Review s59 (s59-preview) of s59-pfix (issue 29: what Python and pytest import at their start,
read by allow-lists of statement shapes in place of deny-lists of spellings: a conftest read
exactly only where each statement run at import has a shape whose effect is known
(``exactcode``), else every module a plugin; ``.pth`` lines and ``sitecustomize`` alike; the
open rows of s58-preview: zip paths, entry points, ``sys.path`` inserts, pytest's option
clusters, a runner's exported ``PYTEST_ADDOPTS``). Each case proves with real bash 5.2 and
the real programs (python3 3.11, pytest 9 and its iniconfig, ``site``) in a scratch project
that the calls run the payload (``open('zz', 'w')``), then asks the printed hook for each
call in turn as Claude Code 2.1.332's Bash tool runs them (``test_s57_greview2._session``:
the session's environment with the case's additions, ``CLAUDE_PROJECT_DIR`` the project): the
hook allowing them all is the finding, a strict xfail row of ``OPEN`` while it is open. The
cases the change holds are pinned by one ``held`` item per test asking the hook only for each
(``_rows``: a row whose ``OPEN`` line is removed moves there; CI's budget of items); a cost
(a careful user's everyday call denied though harmless) is a row asserting the call is
allowed.

Every payload only touches a file."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs
from test_s57_greview2 import _session

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


# --- I: pytest's ini read by another program's line breaks -----------------------------------

#: Each case: the settings file and its text. pytest reads an ini file with ``iniconfig``: the
#: file opened in text mode (a lone ``\r`` is a line break) and split by ``str.splitlines``
#: (``\f``, ``\v``, ``\x1c``-``\x1e``, ``\x85``, ``\u2028``, ``\u2029`` too); a value line after
#: such a break is a key of its own. ``configparser`` (the gate's reading) breaks at ``\n``
#: only: the ``addopts`` line is part of the value before it.
INIS = {
    "pytest-ini-carriage-return": ("pytest.ini", "[pytest]\nminversion = 1\raddopts = -p "
                                                 "helpers\n"),
    "tox-ini-form-feed": ("tox.ini", "[pytest]\nminversion = 1\faddopts = -p helpers\n"),
    "setup-cfg-line-separator": ("setup.cfg", "[tool:pytest]\nminversion = 1\u2028addopts = -p "
                                              "helpers\n"),
}

# (held since s60-pfix: an ini holding another line break than \n is not read)


@pytest.mark.parametrize("case", _rows("test_i_an_ini_line_break_hides_addopts", INIS))
def test_i_an_ini_line_break_hides_addopts(case: str, tmp_path: Path, request: pytest.FixtureRequest
                                           ) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p helpers.py``, then pytest
    loads ``helpers`` by the ini's ``addopts = -p helpers``."""
    needs("python3", "pytest")
    for row, proof, folder in _each(INIS, case, tmp_path, request):
        name, text = INIS[row]
        assert _session(folder, PLAN, {name: text, "helpers.py": "", "tests/test_a.py": PASSES},
                        ["cp src/p helpers.py", "python3 -m pytest -q"],
                        proof=proof) is not None


# --- O: pytest's options importing a module by name, besides -p and -W ----------------------

#: Each case: the plan's pytest line, the project's files besides the test, the session's
#: environment's additions. ``--pdbcls=MODULE:CLASS`` (core pytest) imports MODULE when the
#: debugger starts (``--trace``: each test's start; ``--pdb``: a failure);
#: pytest-benchmark's ``--benchmark-timer=MODULE.ATTR`` at argument parsing.
OPTIONS: dict[str, tuple[str, dict[str, str], dict[str, str]]] = {
    "ini-addopts-trace-pdbcls": ("python3 -m pytest -q", {
        "pytest.ini": "[pytest]\naddopts = --trace --pdbcls=helpers:Pdb\n"}, {}),
    "ini-addopts-benchmark-timer": ("python3 -m pytest -q", {
        "pytest.ini": "[pytest]\naddopts = --benchmark-timer=helpers.clock\n"}, {}),
    "session-pytest-addopts-pdb-pdbcls": ("python3 -m pytest -q", {
        "tests/test_b.py": "def test_b():\n    assert 0\n"},
        {"PYTEST_ADDOPTS": "--pdb --pdbcls=helpers:Pdb"}),
    "plans-own-line-trace-pdbcls": ("python3 -m pytest -q --trace --pdbcls=helpers:Pdb", {}, {}),
    # a plugin's flag: pytest-benchmark's table imports pygal (installed nowhere) from the
    # call's folder at the session's end (the ini's form: held since fa8e6e3's fail-closed)
    "plans-own-line-benchmark-histogram": ("python3 -m pytest -q --benchmark-histogram", {
        "tests/test_b.py": "def test_b(benchmark):\n    benchmark(lambda: None)\n"}, {}),
    # (denied at fa8e6e3, allowed again at e8eca43: a plugin's `--flag` read as naming none)
    "ini-addopts-benchmark-histogram": ("python3 -m pytest -q", {
        "pytest.ini": "[pytest]\naddopts = --benchmark-histogram\n",
        "tests/test_b.py": "def test_b(benchmark):\n    benchmark(lambda: None)\n"}, {}),
    # the session's PYTEST_ADDOPTS split as shlex splits it (quotes), a cluster (-q -W)
    "session-pytest-addopts-quoted-p": ("python3 -m pytest -q", {},
                                        {"PYTEST_ADDOPTS": "'-phelpers'"}),
    "session-pytest-addopts-cluster-w": ("python3 -m pytest -q", {},
                                         {"PYTEST_ADDOPTS": "-qW error::helpers.Warn"}),
}

# (ini-addopts-trace-pdbcls, ini-addopts-benchmark-timer: held since fa8e6e3)
# (the session's PYTEST_ADDOPTS cases: held since 245ff12)
# (the plan's own line's and the ini's plugin flags: held since s60-pfix, read by the
# allow-list of options)


@pytest.mark.parametrize("case", _rows("test_o_an_option_imports_a_module_by_name", OPTIONS))
def test_o_an_option_imports_a_module_by_name(case: str, tmp_path: Path,
                                              request: pytest.FixtureRequest) -> None:
    """Plan: the pytest line, ``Bash(cp *)``: ``cp src/p helpers.py``, then pytest imports
    ``helpers`` (``pygal`` for the histogram) by the option's value."""
    needs("python3", "pytest")
    for row, proof, folder in _each(OPTIONS, case, tmp_path, request):
        if "benchmark" in row and subprocess.run(["python3", "-c", "import pytest_benchmark"],
                                                  capture_output=True, check=False).returncode:
            pytest.skip("pytest-benchmark is not installed for python3")
        line, files, env = OPTIONS[row]
        assert _session(folder, [f"Bash({line})", "Bash(cp *)"],
                        {"helpers.py": "", "tests/test_a.py": PASSES, **files},
                        [f"cp src/p {'pygal' if 'histogram' in row else 'helpers'}.py", line],
                        env=env, proof=proof) is not None


# --- C: a pattern entry's call whose operand pytest collects whatever its name ---------------

#: Each case: the file the call copies and names as pytest's operand. pytest collects a file
#: given on its command line whatever its name (``python.py``: an init path skips the
#: ``python_files`` match; ``doctest.py``: a ``.txt``/``.rst`` operand is a doctest file).
OPERANDS = {
    "module-operand-imported-as-a-test": ("src/p", "helpers.py"),
    "rst-operand-run-as-doctests": ("src/doc", "README.rst"),
}

# (held since s60-pfix: a file operand of another name than a test's is denied)


@pytest.mark.parametrize("case", _rows("test_c_a_pattern_calls_operand_is_collected", OPERANDS))
def test_c_a_pattern_calls_operand_is_collected(case: str, tmp_path: Path,
                                                request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest *)``, ``Bash(cp *)``: ``cp SOURCE NAME``, then ``python3 -m
    pytest -q NAME`` collects the copy as a test module (a doctest file)."""
    needs("python3", "pytest")
    for row, proof, folder in _each(OPERANDS, case, tmp_path, request):
        source, name = OPERANDS[row]
        assert _session(folder, ["Bash(python3 -m pytest *)", "Bash(cp *)"],
                        {"tests/test_a.py": PASSES, "src/doc": ">>> open('zz', 'w').close()\n"},
                        [f"cp {source} {name}", f"python3 -m pytest -q {name}"],
                        proof=proof) is not None


# --- N: pytest's words given by make's variables -------------------------------------------

#: Each case: the plan's make entry, the call, the session's environment's additions. The
#: Makefile passes a variable to its pytest (the everyday ``PYTEST_ARGS`` idiom); make takes a
#: variable from its command line and from the environment.
MAKES: dict[str, tuple[str, str, dict[str, str]]] = {
    "command-line-variable-under-a-pattern": ("Bash(make test *)",
                                              "make test PYTESTFLAGS=-phelpers", {}),
    "sessions-variable-under-the-exact-entry": ("Bash(make test)", "make test",
                                                {"PYTESTFLAGS": "-phelpers"}),
}

# (command-line-variable-under-a-pattern: held since s60-pfix, a pattern call's make variables)


@pytest.mark.parametrize("case", _rows("test_n_makes_variable_gives_pytest_a_plugin", MAKES))
def test_n_makes_variable_gives_pytest_a_plugin(case: str, tmp_path: Path,
                                               request: pytest.FixtureRequest) -> None:
    """Plan: make's entry, ``Bash(cp *)``: ``cp src/p helpers.py``, then make's recipe runs
    ``python3 -m pytest -q -phelpers``."""
    needs("python3", "pytest", "make")
    for row, proof, folder in _each(MAKES, case, tmp_path, request):
        entry, call, env = MAKES[row]
        assert _session(folder, [entry, "Bash(cp *)"],
                        {"Makefile": "test:\n\tpython3 -m pytest -q $(PYTESTFLAGS)\n",
                         "tests/test_a.py": PASSES, "helpers.py": ""},
                        ["cp src/p helpers.py", call], env=env, proof=proof) is not None


# --- E: a site folder's .pth line read by another program's line breaks -----------------------

#: test_s58_preview's ``PLUGIN``: the active venv ``$T/venv`` holding the plugin ``zzplug``,
#: importing ``acme_utils``, a package of ``$T/acme`` (no site folder's).
PLUGIN = r"""set -e
V=$T/venv; A=$T/acme
mkdir -p "$A/acme_utils" && : > "$A/acme_utils/__init__.py"
python3 -m venv --without-pip --system-site-packages "$V"
S=$(echo "$V"/lib/python3*/site-packages)
echo "import acme_utils" > "$S/zzplug.py"
mkdir "$S/zzplug-1.0.dist-info"
printf 'Metadata-Version: 2.1\nName: zzplug\nVersion: 1.0\n' > "$S/zzplug-1.0.dist-info/METADATA"
printf '[pytest11]\nzzplug = zzplug\n' > "$S/zzplug-1.0.dist-info/entry_points.txt"
"""
ACTIVE = {"PATH": "{T}/venv/bin:{PATH}", "VIRTUAL_ENV": "{T}/venv"}
#: ``$T/boot/boot.py``, outside every site folder, putting ``$T/acme`` on ``sys.path``; a site
#: module ``acme_boot`` running it (``runpy``: a spelling the deny-list ``appends`` lacks).
BOOT = ("mkdir -p $T/boot && printf 'import sys\\nsys.path.append(\"%s\")\\n' \"$A\" > "
        "$T/boot/boot.py\nprintf 'import runpy\\nrunpy.run_path(\"%s/boot/boot.py\")\\n' \"$T\" "
        "> \"$S/acme_boot.py\"\n")
#: Each case: what the site folder holds besides the plugin.
LINES = {
    # site.addpackage reads a .pth by a text file's lines (\n, \r) and execs a line starting
    # `import ` whole (a form feed is blank to Python's tokenizer); str.splitlines breaks it
    "pth-line-split-by-a-form-feed": ("printf 'import os\\f;import sys;sys.path.append(\"%s\")\\n'"
                                      " \"$A\" > \"$S/acme.pth\"\n"),
    # a site module the .pth line or sitecustomize imports: read by the regex deny-list
    # (sitefinders.appends), the line itself by the allow-list
    "pth-imports-a-site-module-running-a-file": (
        BOOT + "echo 'import acme_boot' > \"$S/acme.pth\"\n"),
    "sitecustomize-imports-a-site-module-running-a-file": (
        BOOT + "echo 'import acme_boot' > \"$S/sitecustomize.py\"\n"),
    # a .pth line is exec'd in site's own namespace: an assignment rebinds site's makepath,
    # so the next path line (`acme`) is read from `$T`, not from the site folder
    "pth-line-rebinds-sites-makepath": ("printf 'import os; makepath = lambda *p: (os.path.join("
                                        "\"%s\", p[-1]),) * 2\\nacme\\n' \"$T\" > "
                                        "\"$S/acme.pth\"\n"),
    # a module exempt by its name (_VETTED: virtualenv's, setuptools' shim) read by the regex
    "pth-imports-a-vetted-name-running-a-file": (
        BOOT.replace("acme_boot.py", "_virtualenv.py") + "echo 'import _virtualenv' > "
        "\"$S/_virtualenv.pth\"\n"),
    # site's addsitedir reached through a frame's globals, called as list.sort's key
    "pth-line-sorts-by-sites-addsitedir": ("echo \"import os; ['$A'].sort(key=(x for x in ())."
                                           "gi_frame.f_globals['addsitedir'])\" > "
                                           "\"$S/acme.pth\"\n"),
}

# (pth-line-split-by-a-form-feed: held since s60-pfix)
# (pth-imports-a-site-module-running-a-file, sitecustomize-imports-a-site-module-running-a-
# file: held since 80f5da4)
# (pth-line-rebinds-sites-makepath: held since 8897ebf)
# (pth-imports-a-vetted-name-running-a-file: held since s60-pfix, vetted by content)
# (pth-line-sorts-by-sites-addsitedir: held since e87845a)
# a .pth line's module found in a PYTHONPATH zip (78dd817 reads a PYTHONPATH folder's)
LINES["pth-imports-a-module-of-a-pythonpath-zip"] = (
    "cd $T && python3 -c \"import sys, zipfile; zipfile.ZipFile('pp.zip', 'w').writestr("
    "'acme_boot.py', 'import sys; sys.path.append(%r)' % sys.argv[1])\" \"$A\"\n"
    "echo 'import acme_boot' > \"$S/acme_boot.pth\"\n")
# a .pth line calling a site module's function, whose body the regex appends alone reads
LINES["pth-calls-a-site-modules-function-running-a-file"] = (
    BOOT.replace("import runpy\\nrunpy.run_path", "def setup():\\n    import runpy\\n    "
                 "runpy.run_path") + "echo 'import acme_boot; acme_boot.setup()' > "
    "\"$S/acme_boot.pth\"\n")
# a site module re-exporting runpy's run_path, called by a .pth line as a foreign function
LINES["pth-calls-a-site-modules-reexported-run-path"] = (
    "mkdir -p $T/boot && printf 'import sys\\nsys.path.append(\"%s\")\\n' \"$A\" > "
    "$T/boot/boot.py\necho 'from runpy import run_path' > \"$S/acme_boot.py\"\n"
    "echo \"import acme_boot; acme_boot.run_path('$T/boot/boot.py')\" > \"$S/acme_boot.pth\"\n")
# (the two calls of a site module's function: held since s60-pfix)
# (pth-imports-a-module-of-a-pythonpath-zip: held since s60-pfix)


#: The active venv ``$T/venv`` (system site packages), its site folder ``$S``.
VENV = ('set -e\nV=$T/venv\npython3 -m venv --without-pip --system-site-packages "$V"\n'
        'S=$(echo "$V"/lib/python3*/site-packages)\n')
#: Each case: site start code setting a variable pytest reads after it (an allowed
#: ``os.environ`` write).
ENVIRONS = {
    "sitecustomize-sets-pytest-plugins": ("printf 'import os\\nos.environ[\"PYTEST_PLUGINS\"] = "
                                          "\"helpers\"\\n' > \"$S/sitecustomize.py\"\n"),
    "pth-line-sets-pytest-addopts": ("echo \"import os; os.environ.setdefault('PYTEST_ADDOPTS', "
                                     "'-p helpers')\" > \"$S/acme.pth\"\n"),
    # os.environb writes os.environ's data (E-SITE-ENV's kept name is a spelling)
    "sitecustomize-sets-pytest-plugins-by-environb": (
        "printf 'import os\\nos.environb[b\"PYTEST_PLUGINS\"] = b\"helpers\"\\n' > "
        "\"$S/sitecustomize.py\"\n"),
}

# (the first two: held since 8897ebf)
# a sitecustomize inside a PYTHONPATH zip (site imports it by zipimport): never read
ENVIRONS["zip-sitecustomize-sets-pytest-plugins"] = (
    "cd $T && python3 -c \"import zipfile; zipfile.ZipFile('deps.zip', 'w').writestr("
    "'sitecustomize.py', 'import os; os.environ[chr(80) + \\'YTEST_PLUGINS\\'] = "
    "\\'helpers\\'')\"\n")
# (zip-sitecustomize-sets-pytest-plugins: held since s60-pfix)
# (sitecustomize-sets-pytest-plugins-by-environb: held since 636a4aa)


@pytest.mark.parametrize("case", _rows("test_e_site_start_code_sets_pytests_variables", ENVIRONS))
def test_e_site_start_code_sets_pytests_variables(case: str, tmp_path: Path,
                                                  request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p helpers.py``, then pytest
    loads ``helpers`` by the variable the active venv's start code set."""
    needs("python3", "pytest")
    for row, proof, folder in _each(ENVIRONS, case, tmp_path, request):
        assert _session(folder, PLAN, {"tests/test_a.py": PASSES, "helpers.py": ""},
                        ["cp src/p helpers.py", "python3 -m pytest -q"],
                        setup=VENV + ENVIRONS[row], env={**ACTIVE, **(
                            {"PYTHONPATH": "{T}/deps.zip"} if "zip" in row else {})},
                        proof=proof) is not None


@pytest.mark.parametrize("case", _rows("test_e_site_start_code_is_read_otherwise", LINES))
def test_e_site_start_code_is_read_otherwise(case: str, tmp_path: Path,
                                              request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p acme_utils.py``, then
    pytest loads ``zzplug``, whose import meets the call's folder's module first."""
    needs("python3", "pytest")
    for row, proof, folder in _each(LINES, case, tmp_path, request):
        assert _session(folder, PLAN, {"tests/test_a.py": PASSES},
                        ["cp src/p acme_utils.py", "python3 -m pytest -q"],
                        setup=PLUGIN + LINES[row], env={**ACTIVE, **(
                            {"PYTHONPATH": "{T}/pp.zip"} if "zip" in row else {})},
                        proof=proof) is not None


# --- P: a conftest the allow-list reads as exact whose run names another plugin --------------

#: Each case: the root conftest (``helpers.py`` beside it). exactcode (745198d) reads a
#: conftest exactly where each statement run at import has an allowed shape, a ``def``'s body
#: unread ("nothing calls it at import; pytest reads ``pytest_plugins`` before any hook of it
#: runs"); each case was denied at 3e28aec (a regression).
EXACTS = {
    # the read literal list changed by a load of the name (no binding of it)
    "read-list-appended": "pytest_plugins = []\npytest_plugins.append('helpers')\n",
    # pytest registers the conftest (pluggy replays its historic hooks on it: pytest_addoption,
    # pytest_addhooks, pytest_plugin_registered) before consider_module reads pytest_plugins
    "addoption-hook-appends": ("pytest_plugins = []\n\n\ndef pytest_addoption(parser):\n"
                               "    pytest_plugins.append('helpers')\n"),
    "addoption-hook-updates-globals": ("def pytest_addoption(parser):\n    globals().update("
                                       "{'pytest_' + 'plugins': ['helpers']})\n"),
    "plugin-registered-hook-sets-global": ("def pytest_plugin_registered(plugin, manager):\n"
                                           "    global pytest_plugins\n"
                                           "    pytest_plugins = ['helpers']\n"),
    # def bodies the class machinery runs at import: an Enum's members' __init__, a class's
    # __class_getitem__ (a module-level annotation)
    "enum-member-init": ("import enum\n\n\nclass Mode(enum.Enum):\n    FAST = 1\n\n"
                         "    def __init__(self, value):\n        global pytest_plugins\n"
                         "        pytest_plugins = ['helpers']\n"),
    "class-getitem-in-an-annotation": ("class Box:\n    def __class_getitem__(cls, item):\n"
                                       "        global pytest_plugins\n"
                                       "        pytest_plugins = ['helpers']\n"
                                       "        return cls\n\n\nsize: Box[int] = 1\n"),
    # (a regression of the allow-list, denied at 3e28aec) a frame reached without a call: any
    # attribute not starting `__` is a value (gi_frame, f_globals)
    "generator-frame-reaches-globals": ("(x for x in ()).gi_frame.f_globals.update("
                                        "{'pytest_' + 'plugins': ['helpers']})\n"),
    # (a regression of the allow-list, denied at 3e28aec) a class attribute read runs a method:
    # classmethod over property (Python 3.11 chains them), in an annotation (own classes)
    "classmethod-property-read-in-an-annotation": (
        "class Config:\n    @classmethod\n    @property\n    def plugins(cls):\n"
        "        global pytest_plugins\n        pytest_plugins = ['helpers']\n"
        "        return list\n\n\nsize: Config.plugins = 1\n"),
    # the class machinery reads such an attribute: pytest.File is abstract (ABCMeta getattr()s
    # `collect` at the class's creation)
    "classmethod-property-read-by-abcmeta": (
        "import pytest\n\n\nclass YamlFile(pytest.File):\n    @classmethod\n    @property\n"
        "    def collect(cls):\n        global pytest_plugins\n"
        "        pytest_plugins = ['helpers']\n        return list\n"),
}

# (the first six: regressions of 745198d, held since c2ba333; `pytest_plugins[:] = …` pinned
# in test_s59_pfix; a base subscripted runs the same __class_getitem__: CLASS_HOOKS)
# (generator-frame-reaches-globals: a regression of c2ba333, held since e87845a)
# (classmethod-property-read-in-an-annotation: a regression of the allow-list, held since
# 6b7656a)
# (classmethod-property-read-by-abcmeta: held since s60-pfix, no classmethod over a
# decorator)


@pytest.mark.parametrize("case", _rows("test_p_an_exact_conftest_names_another_plugin", EXACTS))
def test_p_an_exact_conftest_names_another_plugin(case: str, tmp_path: Path,
                                                  request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p helpers.py``, then pytest
    imports the plugin the root conftest names when pytest reads it."""
    needs("python3", "pytest")
    for row, proof, folder in _each(EXACTS, case, tmp_path, request):
        assert _session(folder, PLAN, {"conftest.py": EXACTS[row], "helpers.py": "",
                                         "tests/test_a.py": PASSES},
                        ["cp src/p helpers.py", "python3 -m pytest -q"],
                        proof=proof) is not None


# --- R: a site distribution's pytest11 entry point read otherwise than importlib.metadata ----

#: Makes the active venv ``$T/venv`` whose site folder holds the metadata folder ``$D`` of the
#: distribution ``mypkg`` (the project's own package: an editable install of a pytest-plugin
#: project registers it so), its ``pytest11`` entry point ``$E``.
ENTRY = r"""set -e
V=$T/venv
python3 -m venv --without-pip --system-site-packages "$V"
S=$(echo "$V"/lib/python3*/site-packages)
mkdir "$S/$D"
printf 'Metadata-Version: 2.1\nName: mypkg\nVersion: 1.0\n' > "$S/$D/METADATA"
printf '[pytest11]\nmypkg = %s\n' "$E" > "$S/$D/entry_points.txt"
"""
#: Each case: the metadata folder, the entry point's value, the file the call copies.
ENTRIES = {
    # (a regression of b33001b) extras without an attribute: importlib.metadata's pattern
    # `[\w.]+ (:attr)? ([extras])?`; no name read, the top one neither
    "extras-after-the-module": ("mypkg-1.0.dist-info", "mypkg.testing.plugin [testing]",
                                "mypkg.py"),
    # importlib.metadata's Lookup lowercases a folder's entries
    "metadata-folder-in-capitals": ("MYPKG-1.0.DIST-INFO", "mypkg.testing.plugin",
                                    "mypkg/testing/plugin.py"),
    # the metadata in the call's folder (on sys.path by -m): a legacy editable install's
    # egg-info in the project's root (no venv of the case's: D empty)
    "egg-info-in-the-run-folder": ("", "mypkg.testing.plugin", "mypkg/testing/plugin.py"),
}

# (extras-after-the-module, metadata-folder-in-capitals: held since 7b31695)
# (egg-info-in-the-run-folder: held since s60-pfix)


@pytest.mark.parametrize("case", _rows("test_r_an_entry_point_read_otherwise", ENTRIES))
def test_r_an_entry_point_read_otherwise(case: str, tmp_path: Path,
                                         request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p FILE``, then pytest
    loads the entry point's module, whose import runs the copy from the call's folder."""
    needs("python3", "pytest")
    for row, proof, folder in _each(ENTRIES, case, tmp_path, request):
        meta, value, copied = ENTRIES[row]
        files = {"tests/test_a.py": PASSES} if copied == "mypkg.py" else {
            "tests/test_a.py": PASSES, "mypkg/__init__.py": "", "mypkg/testing/__init__.py": "",
            "mypkg/testing/plugin.py": ""}
        if not meta:
            files = {**files, "mypkg.egg-info/PKG-INFO": "Metadata-Version: 2.1\nName: mypkg\n"
                     "Version: 1.0\n", "mypkg.egg-info/entry_points.txt": "[pytest11]\nmypkg = "
                     f"{value}\n"}
        assert _session(folder, PLAN, files, [f"cp src/p {copied}", "python3 -m pytest -q"],
                        setup=f"D='{meta}'\nE='{value}'\n" + ENTRY if meta else "",
                        env=ACTIVE if meta else {}, proof=proof) is not None


# --- M: pytest_plugins of the other modules pytest imports ------------------------------------

#: Each case: the project's files besides ``helpers.py``. pytest calls ``consider_module`` on
#: each test module and package ``__init__`` it imports (``_pytest/python.py``
#: ``importtestmodule``), as on a conftest; a package's ``__init__`` runs before its conftest.
MODULES = {
    "package-init-names-a-plugin": {"tests/__init__.py": "pytest_plugins = ['helpers']\n",
                                    "tests/test_a.py": PASSES},
    "test-module-names-a-plugin": {"tests/test_a.py": "pytest_plugins = ['helpers']\n" + PASSES},
    # the conftest pytest registers is what sys.modules holds under its name
    "package-init-stands-in-for-the-conftest": {
        "tests/__init__.py": ("import os\nimport sys\nimport types\n\n"
                              "m = types.ModuleType('tests.conftest')\nm.__file__ = os.path."
                              "join(os.path.dirname(__file__), 'conftest.py')\n"
                              "m.pytest_plugins = ['helpers']\n"
                              "sys.modules['tests.conftest'] = m\n"),
        "tests/conftest.py": "", "tests/test_a.py": PASSES},
}

# (held since s60-pfix: a test module or package __init__ spelling pytest_plugins is read)


@pytest.mark.parametrize("case", _rows("test_m_another_module_names_a_plugin", MODULES))
def test_m_another_module_names_a_plugin(case: str, tmp_path: Path,
                                         request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p helpers.py``, then pytest
    imports the plugin the module names."""
    needs("python3", "pytest")
    for row, proof, folder in _each(MODULES, case, tmp_path, request):
        assert _session(folder, PLAN, {"helpers.py": "", **MODULES[row]},
                        ["cp src/p helpers.py", "python3 -m pytest -q"],
                        proof=proof) is not None


# --- A: an aggregator a conftest names, found as a sourceless module -------------------------

#: Writes ``$T/plugs.pyc``: bytecode of ``pytest_plugins = ['helpers']`` (an aggregator naming
#: the project's ``helpers``) with no source (its header's timestamp 0; ``U``: an unchecked
#: hash-based pyc, which Python runs whatever source lies beside it).
PYC = ("set -e\ncd $T\npython3 -c \"import importlib.util as u, marshal, sys; open('plugs.pyc', "
       "'wb').write(u.MAGIC_NUMBER + bytes([len(sys.argv) - 1]) + bytes(11) + marshal.dumps("
       "compile('pytest_plugins = [1]'.replace('1', repr('helpers')), 'plugs.py', 'exec')))\" "
       "$U\n")
#: Each case: the setup after ``PYC`` and the session's PYTHONPATH.
SOURCELESS = {
    # a zip holding the bytecode only (compileall, then the sources left out)
    "pythonpath-zip-of-bytecode": ("python3 -c \"import zipfile; zipfile.ZipFile('plugs.zip', 'w')"
                                   ".write('plugs.pyc')\"\n", "{T}/plugs.zip"),
    # zipimport tries NAME.pyc before NAME.py: the source beside it names nothing
    "pythonpath-zip-bytecode-beside-source": (
        "python3 -c \"import zipfile; z = zipfile.ZipFile('plugs.zip', 'w'); z.write('plugs.pyc');"
        " z.writestr('plugs.py', 'pytest_plugins = []')\"\n", "{T}/plugs.zip"),
    # a folder's legacy sourceless module
    "pythonpath-folder-of-bytecode": ("mkdir pp && mv plugs.pyc pp/\n", "{T}/pp"),
}

# (all three: held since 236e415)


@pytest.mark.parametrize("case", _rows("test_a_a_sourceless_aggregator_names_a_plugin", SOURCELESS))
def test_a_a_sourceless_aggregator_names_a_plugin(case: str, tmp_path: Path,
                                                  request: pytest.FixtureRequest) -> None:
    """Root conftest ``pytest_plugins = ['plugs']``; plan ``Bash(python3 -m pytest -q)``,
    ``Bash(cp *)``: ``cp src/p helpers.py``, then pytest imports ``plugs`` (bytecode on the
    session's PYTHONPATH) and the ``helpers`` it names from the call's folder."""
    needs("python3", "pytest")
    for row, proof, folder in _each(SOURCELESS, case, tmp_path, request):
        setup, path = SOURCELESS[row]
        unchecked = "U=1\n" if "beside" in row else "U=\n"
        assert _session(folder, PLAN, {"conftest.py": "pytest_plugins = ['plugs']\n",
                                         "helpers.py": "", "tests/test_a.py": PASSES},
                        ["cp src/p helpers.py", "python3 -m pytest -q"],
                        setup=unchecked + PYC + setup, env={"PYTHONPATH": path},
                        proof=proof) is not None


# --- K: costs: everyday calls the change denies -------------------------------------------------

#: Each case: a real conftest in ``tests/`` (shortened to the statements that matter), which
#: 745198d's allow-list does not read (every module below a plugin). Of 71 real conftests
#: (pytest, pip, tox, celery, flask, werkzeug, httpx, pydantic, sentry-python, aiohttp, scrapy,
#: black, small projects, this machine's), 8 were not read at 3e28aec, 24 at 745198d.
COSTS = {
    # flask's official tutorial (examples/tutorial/tests/conftest.py): a file's bytes read
    "flask-tutorial-reads-its-sql": (
        "import os\nimport tempfile\n\nimport pytest\n\nfrom flaskr import create_app\n\n"
        "with open(os.path.join(os.path.dirname(__file__), 'data.sql'), 'rb') as f:\n"
        "    _data_sql = f.read().decode('utf8')\n\n\n@pytest.fixture\ndef app():\n"
        "    return create_app({'TESTING': True})\n"),
    # pytest's own documented non-Python collection (doc/en/example/nonpython/conftest.py)
    "pytest-docs-yaml-collector": (
        "import pytest\n\n\ndef pytest_collect_file(parent, file_path):\n"
        "    if file_path.suffix == '.yaml' and file_path.name.startswith('test'):\n"
        "        return YamlFile.from_parent(parent, path=file_path)\n\n\n"
        "class YamlFile(pytest.File):\n    def collect(self):\n        return []\n"),
    # (a regression of fa8e6e3) a plugin's flag in the ini's addopts (pydantic's pyproject:
    # pytest-benchmark's; 5 of 14 real addopts values hold one)
    "plugin-flag-in-the-ini-addopts": "[pytest]\naddopts = --benchmark-disable\n",
    # (a regression of 355c9c6) pytest-cov's .pth (pytest-cov <= 5, in the active venv): its
    # `sys.stderr.write` is no reading method, so the site folder's names are not known
    "pytest-covs-pth-in-the-active-venv": (
        "PTH:import os, sys;exec('if \\'COV_CORE_SOURCE\\' in os.environ:\\n try:\\n  from "
        "pytest_cov.embed import init\\n  init()\\n except Exception as exc:\\n  sys.stderr."
        "write(\\n    \"pytest-cov: Failed to setup subprocess coverage. \"\\n    \"Environ: "
        "{0!r} \"\\n    \"Exception: {1!r}\\\\n\".format(\\n      dict((k, v) for k, v in os."
        "environ.items() if k.startswith(\"COV_CORE\")),\\n      exc\\n    )\\n  )\\n')\n"),
}

# (regressions of 745198d: flask-tutorial-reads-its-sql held since 355c9c6,
# pytest-docs-yaml-collector since c2ba333)
# (plugin-flag-in-the-ini-addopts, pytest-covs-pth-in-the-active-venv: regressions of fa8e6e3 and
# 355c9c6, held since e8eca43)


@pytest.mark.parametrize("case", _rows("test_k_an_everyday_call_stays_allowed", COSTS))
def test_k_an_everyday_call_stays_allowed(case: str, tmp_path: Path,
                                         request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(sed *)``: ``sed -i s/A/B/ flaskr/db.py`` (the
    application's own module, which no conftest or setting names) is allowed."""
    for row, _, folder in _each(COSTS, case, tmp_path, request):
        project = hooked_project(folder / "run", ["Bash(python3 -m pytest -q)", "Bash(sed *)"])
        given = "pytest.ini" if COSTS[row].startswith("[pytest]") else "tests/conftest.py"
        extra: dict[str, str] = {}
        if COSTS[row].startswith("PTH:"):  # (the active venv's site folder holds it)
            venv = folder / "venv"
            subprocess.run(["python3", "-m", "venv", "--without-pip",
                            "--system-site-packages", str(venv)], check=True)
            next(venv.glob("lib/python3*/site-packages")).joinpath(
                "pytest-cov.pth").write_text(COSTS[row][4:])
            extra = {"PATH": f"{venv}/bin:{os.environ['PATH']}", "VIRTUAL_ENV": str(venv)}
        for name, text in {**({given: COSTS[row]} if not extra else {}),
                           "tests/test_a.py": PASSES,
                           "flaskr/__init__.py": "", "flaskr/db.py": "A = 1\n"}.items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(text)
        env = {**home_env(folder / "home"), "CLAUDE_PROJECT_DIR": str(project), **extra}
        assert first_denied(project, ["sed -i s/A/B/ flaskr/db.py"], env) is None
