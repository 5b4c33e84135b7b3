"""Review s62 (s62-greview) of s62-gfix (issue 29): the folders pytest's prepend mode puts first
on ``sys.path`` (``syspathdirs``, ``pymodule``: a package's folder is none), a project module's
names read by the allow-list (``pathcode``, ``pathimports``, ``pathpatch``), the names gcc looks
up in a folder a toolchain value names (``toolnames``, ``includes``, ``flagpaths``' response
files), and the values make takes from the session (``makesession``). The method is
test_s61_greview's (its ``_row``): a row is a class of spellings, asked of the printed hook
until one it allows entirely, whose payload the real programs then run (python3 3.11 + pytest 9,
gcc 12, GNU make 4.3); a row of ``OPEN`` is a strict xfail. Spellings of an open row other than
the first allowed were proved during the review (/work/wt/reports/s62-greview.md, the batches
in /tmp/s62g); held rows ask the hook only. Costs (``test_k``) assert an everyday call is
allowed; boundaries s62-gfix decided (``test_b``) are pinned as allowed. Every payload only
touches a file."""

from __future__ import annotations

import resource
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, home_env, hooked_project, needs
from test_gate_files import _settings_hook, payload
from test_s57_greview2 import _session
from test_s61_greview import BUILDS, HEADER, MAIN, MAKE, PYTEST, Case, Linked, _row

#: Real bash, python3, pytest, gcc, make and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name and row: each a strict xfail.
OPEN = LeftOpen()


# --- P: a folder pytest puts first on sys.path that the gate takes for a package's ----------

#: A module of the tests' folder that imports the site package ``yaml`` (PyYAML), and a test
#: importing it: ``cp src/p <folder>/yaml.py`` makes the import run the payload where pytest
#: put ``<folder>`` first.
def _first(folder: str, more: dict[str, str] | None = None, test: str = "def test_a():\n"
           "    import uses_yaml\n") -> Case:
    """The case: ``folder`` a package (its ``__init__.py``) holding tests/test_a.py's test and
    ``uses_yaml``; ``cp src/p <folder>/yaml.py``, ``python3 -m pytest -q``."""
    files = {f"{folder}/__init__.py": "", f"{folder}/test_a.py": test,
             f"{folder}/uses_yaml.py": "import yaml\n", **(more or {})}
    return PYTEST, files, [f"cp src/p {folder}/yaml.py", "python3 -m pytest -q"], {}


FIRST: dict[str, dict[str, Case]] = {
    # G1: _pytest/pathlib.resolve_package_path stops at a folder whose name is not an
    # identifier (`parent.name.isidentifier()`): the folder holding the test and an
    # `__init__.py` is the basedir prepend mode inserts at sys.path[0]
    "a-package-folder-not-an-identifier": {
        "a-dash": _first("my-tests"),  # (also tried: tests.unit, 1tests, tests/unit-a)
        # (a conftest's basedir: inserted at its load, before the tests)
        "a-conftests-folder": (PYTEST, {"my-tests/__init__.py": "", "my-tests/conftest.py": "",
                                        "tests/test_a.py": "def test_a():\n    import uses_yaml"
                                        "\n", "tests/uses_yaml.py": "import yaml\n"},
                               ["cp src/p my-tests/yaml.py", "python3 -m pytest -q"], {})},
}

# (a-package-folder-not-an-identifier: open at b3a74e29 and s62-hmain, held since 28954d99)


@pytest.mark.parametrize("row", list(FIRST))
def test_f_pytest_puts_a_folder_first(row: str, tmp_path: Path) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p <folder>/yaml.py``, then
    the test's ``import uses_yaml`` imports ``yaml`` from the folder pytest put first."""
    needs("python3", "pytest")
    _row(FIRST[row], tmp_path)


# --- M: a module the reading misreads or does not read moves the path -----------------------

#: tests/../src from a test module; the test's import of ``uses_yaml`` after its call.
TSRC = "os.path.join(os.path.dirname(__file__), '..', 'src')"
AFTER = "(0, " + TSRC + ")\n    import uses_yaml\n"
IMPORTS = "def test_a():\n    import uses_yaml\n"
#: An extension module ``helpers`` binding ``s`` to the sys module.
EXT = ('#include <Python.h>\nstatic struct PyModuleDef m = {PyModuleDef_HEAD_INIT, "helpers", '
       'NULL, -1, NULL};\nPyMODINIT_FUNC PyInit_helpers(void) {\n    PyObject *mod = '
       'PyModule_Create(&m);\n    PyModule_AddObject(mod, "s", PyImport_ImportModule("sys"));\n'
       '    return mod;\n}\n')
#: A module putting src first at its import.
MOVER = "import os\nimport sys\n\nsys.path.insert(0, os.path.abspath('src'))\n"


def _m(test: str, more: dict[str, str]) -> Case:
    """The case: tests/test_a.py ``import os`` and ``test``, tests/uses_yaml.py importing
    ``yaml``, ``more``; ``cp src/p src/yaml.py``, ``python3 -m pytest -q``."""
    files = {"tests/uses_yaml.py": "import yaml\n", "tests/test_a.py": "import os\n" + test,
             **more}
    return PYTEST, files, ["cp src/p src/yaml.py", "python3 -m pytest -q"], {}


MODULES: dict[str, dict[str, Case | Linked]] = {
    # G4: a project module named like a listed standard one that pytest has not imported
    # (hashlib, gzip, tarfile, asyncio): CPython takes tests/hashlib.py (tests/ first); the
    # reading takes the standard module's listed names
    "a-project-module-named-like-a-standard-one": {
        "from-import": _m("from hashlib import md5\n\n\ndef test_a():\n    md5" + AFTER,
                          {"tests/hashlib.py": "import sys\nmd5 = sys.path.insert\n"}),
        "attribute": _m("import gzip\n\n\ndef test_a():\n    gzip.open" + AFTER,
                        {"tests/gzip.py": "import sys\nopen = sys.path.insert\n"}),
        # (G4b, bypass of e470fe6e: a sourceless module, which pathimports._in does not see)
        "sourceless": (*_m("from hashlib import md5\n\n\ndef test_a():\n    md5" + AFTER,
                           {"src/hl": "import sys\nmd5 = sys.path.insert\n"}),
                       "python3 -c 'import py_compile as c; c.compile(\"src/hl\", "
                       "cfile=\"tests/hashlib.pyc\")'")},
    # G12 (bypass of 5795f711): a package's __init__ built as an extension module beside its
    # __init__.py (FileFinder tries the extension suffixes first), binding `s` to sys
    "a-packages-compiled-init": {
        "extension": (*_m("from helpers import s\n\n\ndef test_a():\n    s.path" + ".insert" +
                          AFTER, {"tests/helpers/__init__.py": "s = None\n", "src/ext.c": EXT}),
                      "gcc -shared -fPIC $(python3-config --includes) src/ext.c -o tests/helpers/"
                      "__init__$(python3 -c 'import sysconfig; print(sysconfig.get_config_var("
                      "\"EXT_SUFFIX\"))')")},
    # G14 (bypass of 8330945b): a name the project module does not bind, set on it by another
    # project module the test imports (never read: no name is taken from it)
    "a-name-another-module-sets": {
        "an-assignment": _m("import boot\nfrom helpers import s\n\n\ndef test_a():\n    s.path."
                            "insert" + AFTER, {"tests/helpers.py": "X = 1\n", "tests/boot.py":
                                               "import sys\nimport helpers\nhelpers.s = sys\n"}),
        "a-submodule-sets-its-package": _m("import helpers.boot\nfrom helpers import s\n\n\ndef "
                                           "test_a():\n    s.path.insert" + AFTER, {
                                               "tests/helpers/__init__.py": "",
                                               "tests/helpers/boot.py": "import sys\nimport "
                                               "helpers\nhelpers.s = sys\n"}),
        # (G14b, bypass of 7f61b2d9: helpers binds `s` as a value; boot rebinds it)
        "bound-as-a-value-then-set": _m("import boot\nfrom helpers import s\n\n\ndef test_a():\n"
                                        "    s.path.insert" + AFTER, {
                                            "tests/helpers.py": "s = None\n", "tests/boot.py":
                                            "import sys\nimport helpers\nhelpers.s = sys\n"})},
    # G15 (bypass of 8330945b): a stub src/six.py read for `six`, while CPython imports the
    # site package (src is not on sys.path), whose `six.sys` is sys
    "a-site-package-over-a-project-stub": {
        "six": _m("from six import sys as s\n\n\ndef test_a():\n    s.path.insert" + AFTER,
                  {"src/six.py": "sys = None\n"}),
        # (G15b: the session's PYTHONPATH folder holds the module CPython imports)
        "the-sessions-pythonpath": (*_m("from helpers import s\n\n\ndef test_a():\n    s.path."
                                        "insert" + AFTER, {"src/helpers.py": "s = None\n",
                                                           "lib/helpers.py": "import sys as s\n"}
                                        )[:3], {"PYTHONPATH": "lib"})},
    # G7: a plugin module pytest imports at its start (pytest_plugins, -p) moves the path; the
    # module is a start file (guarded: not the project's writable source, P1g), unread
    "a-plugin-module-moves-the-path": {
        "a-conftests-plugins": _m(IMPORTS, {"conftest.py": "pytest_plugins = ['helpers_plug']\n",
                                            "helpers_plug.py": MOVER}),
        "the-inis-p": _m(IMPORTS, {"pytest.ini": "[pytest]\naddopts = -p helpers_plug\n",
                                   "helpers_plug.py": MOVER}),
        # (G7b, bypasses of e470fe6e: the plan's own -p; a plugin found outside the folder)
        "the-plans-own-p": (["Bash(python3 -m pytest -q -p helpers_plug)", "Bash(cp *)"],
                            _m(IMPORTS, {"helpers_plug.py": MOVER})[1],
                            ["cp src/p src/yaml.py", "python3 -m pytest -q -p helpers_plug"], {}),
        "found-outside-the-folder": (
            *_m(IMPORTS, {"pytest.ini": "[pytest]\naddopts = -p helpers_plug\n"})[:3],
            {"PYTHONPATH": "../lib"}, "mkdir -p ../lib && printf 'import os, sys\\nsys.path."
            "insert(0, os.path.abspath(\"src\"))\\n' > ../lib/helpers_plug.py")},
}
# (held since 8330945b, each open at b3a74e29: a star import, a function returning sys, a
# module attribute holding sys.path, `from sys import path` re-exported, a package __init__, a
# class attribute, a module's module, sys.modules, os.sys, a lambda, a module of src)

_M = "test_m_a_project_module_moves_the_path"
# (from-import, attribute: open at 8330945b, held since e470fe6e; the first four plugin
# spellings: open at s62-hmain and 9410e5a9, held since e470fe6e)
# (sourceless: open at e470fe6e, held since 5795f711)
# (the-plans-own-p: open at e470fe6e, held since 5795f711)
OPEN.add(_M, "pathimports.Imports.top (8330945b) reads src/six.py for `six` where src is not "
         "on sys.path: CPython imports the site package", "a-site-package-over-a-project-stub")
# (a-name-another-module-sets: an-assignment, a-submodule-sets-its-package open at 8330945b,
# held since 7f61b2d9)
OPEN.add(_M, "pathimports (7f61b2d9) reads a project module's own bindings; another project "
         "module the test imports (unread) rebinds the name", "a-name-another-module-sets")
OPEN.add(_M, "pathcode._plugins (5795f711) reads the plugin modules found below the walked "
         "folder; a plugin named but found outside it (the session's PYTHONPATH) is read as "
         "nothing", "a-plugin-module-moves-the-path")


@pytest.mark.parametrize("row", list(MODULES))
def test_m_a_project_module_moves_the_path(row: str, tmp_path: Path) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p src/yaml.py``, then the
    test module's own call puts src first and its ``import uses_yaml`` imports it."""
    needs("python3", "pytest", *(("gcc", "python3-config") if row == "a-packages-compiled-init"
                                 else ()))
    if row == "a-site-package-over-a-project-stub" and subprocess.run(
            ["python3", "-c", "import six"], capture_output=True, check=False).returncode:
        pytest.skip("six is not installed beside python3's pytest")
    _row(MODULES[row], tmp_path)


# --- H: a folder gcc searches that the gate does not read -----------------------------------

STDIO = "#include <stdio.h>\n"


def _h(include: str, makefile: str = BUILDS, env: dict[str, str] | None = None,
       more: dict[str, str] | None = None, copy: str = "cp src/hself stdio.h") -> Case:
    """The case: t.c starting with ``include``, the ``makefile``, the session's ``env``;
    ``copy`` (a top ``stdio.h``), ``make test``."""
    files = {"Makefile": makefile, "t.c": include + MAIN, "src/hself": HEADER, **(more or {})}
    return MAKE, files, [copy, "make test"], env or {}


HEADERS: dict[str, dict[str, Case | Linked]] = {
    # G3: a response file of the session's value holds the folder: the file is guarded, its
    # options are not read
    "a-response-file-holds-the-folder": {
        "cppflags-at-file": _h("#include <cfg>\n", env={"CPPFLAGS": "@opts"}, more={
            "opts": "-I.\n", "cfg": "\n"}, copy="cp src/hself cfg"),
        "a-system-name": _h(STDIO, env={"CPPFLAGS": "@opts"}, more={"opts": "-I.\n"}),
        "an-included-file": _h("", env={"CPPFLAGS": "@opts"}, more={"opts": "-include cfg\n",
                                                                    "cfg": "\n"},
                               copy="cp src/hself cfg"),
        "a-program-prefix": ([*MAKE, "Bash(chmod *)"], {
            "Makefile": BUILDS, "t.c": MAIN, "opts": "-Btools/\n", "tools/README": "\n",
            "src/as": "#!/bin/sh\ntouch zz\nexec /usr/bin/as \"$@\"\n"},
            ["cp src/as tools/as && chmod +x tools/as", "make test"], {"CFLAGS": "@opts"}),
        # (G3d, bypass of 0aaf6e4f: `@@opts` is the response file named `@opts`)
        "a-doubled-at": _h("#include <cfg>\n", env={"CPPFLAGS": "@@opts"}, more={
            "@opts": "-I.\n", "cfg": "\n"}, copy="cp src/hself cfg")},
    # G6 (bypass of 9410e5a9, H5b): a later folder of the search outside the project (made
    # before the session) holds the included file naming <cfg>: its text is not read
    "a-later-folder-outside": {
        "relative": (*_h("#include <a.tbl>\n", env={"CPPFLAGS": "-I. -I../inc"}, more={
            "cfg": "\n"}, copy="cp src/hself cfg"),
                     "mkdir -p ../inc && printf '#include <cfg>\\n' > ../inc/a.tbl")},
}

_H = "test_h_gcc_reads_a_header_unguarded"
# (a-response-file-holds-the-folder: cppflags-at-file, a-system-name open at b3a74e29, held
# since 0aaf6e4f; an-included-file, a-program-prefix open at 0aaf6e4f, held since fe274ae2)
OPEN.add(_H, "flagpaths.response_paths (0aaf6e4f) skips a word starting @@, which gcc reads as "
         "the response file named @opts", "a-response-file-holds-the-folder")
# (a-later-folder-outside: open at 9410e5a9, held since a8ba432c)


@pytest.mark.parametrize("row", list(HEADERS))
def test_h_gcc_reads_a_header_unguarded(row: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``: ``cp src/hself stdio.h``
    (or ``cfg``), then make's gcc compiles it into the program it runs."""
    needs("make", "gcc")
    _row(HEADERS[row], tmp_path)


# --- S: a value of the session's environment make's recipe gives pytest -------------------

PASSES = "def test_a():\n    pass\n"
RECIPE = "test:\n\tpython3 -m pytest -q $(PYTESTFLAGS)\n"
PLUGIN = {"PYTESTFLAGS": "-phelpers"}


def _s(makefile: str, env: dict[str, str], more: dict[str, str] | None = None,
       copy: str = "cp src/p helpers.py") -> Case:
    """The case: plan ``Bash(make test)``, ``Bash(cp *)``; the session's ``env``; ``copy``
    (the plugin ``helpers``), ``make test``."""
    return (["Bash(make test)", "Bash(cp *)"], {"Makefile": makefile, "tests/test_a.py": PASSES,
                                                "helpers.py": "", **(more or {})},
            [copy, "make test"], env)


VALUES: dict[str, dict[str, Case | Linked]] = {
    # G8 (bypass of 346df853): the recipe's shell reads the environment by a command or an
    # indirect expansion, not a `$$NAME` spelling
    "the-shell-reads-the-environment-otherwise": {
        "printenv": _s("test:\n\tpython3 -m pytest -q $$(printenv PYTESTFLAGS)\n", PLUGIN),
        "bash-indirect": _s("SHELL = /bin/bash\ntest:\n\tn=PYTESTFLAGS; python3 -m pytest -q "
                            "$${!n}\n", PLUGIN),
        # (G8b, bypasses of 6bafe847's _READS: Python's os.environ in a pytest line's -c code;
        # a line naming no pytest is not asked)
        "python-c-code": _s("test:\n\tpython3 -c \"import os, pytest; pytest.main(os.environ["
                            "'PYTESTFLAGS'].split())\"\n", PLUGIN),
        # (G8c, bypasses of the _READS list: awk's ENVIRON piped to xargs, a variable read)
        "awk-to-xargs": _s("test:\n\tawk 'BEGIN{print ENVIRON[\"PYTESTFLAGS\"]}' | xargs "
                           "python3 -m pytest -q\n", PLUGIN),
        "a-read-variable": _s("test:\n\tawk 'BEGIN{print ENVIRON[\"PYTESTFLAGS\"]}' > .flags; "
                              "read F < .flags; python3 -m pytest -q $$F\n", PLUGIN)},
    # G13 (regression of ba44ff51, held at 6bafe847): the line names pytest only through the
    # session's value (a runner the Makefile lets the session choose)
    "pytest-named-by-the-sessions-value": {
        "a-runner-variable": _s("RUNNER ?= unittest\ntest:\n\tpython3 -m $(RUNNER) $(ARGS)\n",
                                {"RUNNER": "pytest", "ARGS": "-phelpers"}),
        "c-code": _s("test:\n\tpython3 -c \"$(CODE)\"\n",
                     {"CODE": "import pytest; pytest.main(['-phelpers'])"}),
        # (G13b, bypass of 7f61b2d9: the makefile spells the runner in pieces)
        "spelled-in-pieces": _s("E :=\nPY = pyth$(E)on3\nRUNNER = py$(E)test\ntest:\n\t$(PY) -m "
                                "$(RUNNER) $(ARGS)\n", {"ARGS": "-phelpers"})},
    # G16 (open at b3a74e29, held at 6bafe847, reopened by ba44ff51): the session's value names
    # the module another Python runner imports (unittest's names, `-m`)
    "a-session-value-another-runner-imports": {
        "unittest": _s("test:\n\tpython3 -m unittest $(ARGS)\n", {"ARGS": "helpers"}),
        "python-m": _s("test:\n\tpython3 -m $(MOD)\n", {"MOD": "helpers"}),
        # (G16b, bypass of 7f61b2d9: the program word is the session's, one PATH finds, read
        # as the makefile's literal; the line names no runner)
        "the-sessions-program": _s("test:\n\t$(RUNNER) $(ARGS)\n", {"RUNNER": "python3",
                                                                     "ARGS": "-mhelpers"}),
        # (G16c, bypass of 56c0596b: a Python program named by no runner word: pydoc imports
        # the module it documents)
        "pydoc": _s("test:\n\tpydoc3 $(ARGS) > /dev/null\n", {"ARGS": "helpers"})},
    # G11: make's default variables, which its built-in rules' recipes use (not a line of the
    # makefiles), taken from the session
    "a-built-in-rules-variable": {
        "link-c": _s("test: t\n\t./t\n", {"LINK.c": "sh tools/cc.sh"}, {
            "t.c": MAIN, "tools/cc.sh": "exec gcc \"$@\"\n",
            "src/ccsh": "touch zz\nexec gcc \"$@\"\n"}, "cp src/ccsh tools/cc.sh"),
        "compile-c": _s("test: t.o\n\tcc t.o -o t\n\t./t\n", {"COMPILE.c": "sh tools/cc.sh -c"}, {
            "t.c": MAIN, "tools/cc.sh": "exec gcc \"$@\"\n",
            "src/ccsh": "touch zz\nexec gcc \"$@\"\n"}, "cp src/ccsh tools/cc.sh")},
    # G9 (and G10: the script reads `$ARGS` itself; a script line's `$$(printenv ARGS)`): a
    # session value handed to the project's script, which hands it to pytest. s62-gfix read it
    # as the script's (P1g); the lead (session 62): a hole of s59-preview N's class one level
    # down: the value is the session's, not the project's text
    "a-session-value-through-a-script": {
        "a-script": _s("test:\n\tsh tests/run.sh $(ARGS)\n", {"ARGS": "-phelpers"},
                       {"tests/run.sh": "python3 -m pytest -q \"$@\"\n"})},
    # held since 346df853 (each open at b3a74e29; CI's budget keeps three of the review's
    # sixteen: an assignment under a condition, an exported variable the shell reads, a
    # sub-make's exported value, MAKEFLAGS' --environment-overrides, `-j2 -e`, the plan's own
    # `make -e` were held too)
    "held": {
        "a-self-referencing-simple-value": _s("PYTESTFLAGS := $(PYTESTFLAGS) -q\n" + RECIPE,
                                              PLUGIN),
        "a-sub-makes-command-line": _s("test:\n\t$(MAKE) -C sub PYTESTFLAGS='$(ARGS)'\n",
                                       {"ARGS": "-phelpers"}, {"sub/Makefile": RECIPE,
                                                               "sub/tests/test_a.py": PASSES},
                                       "cp src/p sub/helpers.py"),
        "makeflags-cluster": _s("PYTESTFLAGS = -q\n" + RECIPE, {**PLUGIN, "MAKEFLAGS": "ke"})},
}

_S = "test_s_a_session_value_reaches_pytest"
# (the-shell-reads-the-environment-otherwise: printenv, env-and-sed, bash-indirect open at
# 346df853, held since 6bafe847; python-c-code open at 6bafe847, held since ba44ff51)
OPEN.add(_S, "makesession._READS (6bafe847) lists spellings that read the environment; awk's "
         "ENVIRON piped to xargs, a shell variable read from a file are not among them",
         "the-shell-reads-the-environment-otherwise")
# (a-built-in-rules-variable: open at 6bafe847, held since 25d47260; a-runner-variable, c-code,
# unittest, python-m: open at ba44ff51, held since 7f61b2d9)
OPEN.add(_S, "makesession._RUNNERS (7f61b2d9) is a list of names a line's text must hold: a "
         "runner the makefile spells in pieces is not read", "pytest-named-by-the-sessions-value")
# (a-session-value-another-runner-imports: the-sessions-program open at 7f61b2d9, held since
# 56c0596b)
OPEN.add(_S, "makesession._RUNNERS (56c0596b) names the programs read: pydoc3 (any Python "
         "program) imports by its words too", "a-session-value-another-runner-imports")

OPEN.add(_S, "makesession (56c0596b) reads the session's values on lines naming a runner; one "
         "a line hands to a project script (`sh tests/run.sh $(ARGS)`) reaches the runner the "
         "script runs", "a-session-value-through-a-script")


@pytest.mark.parametrize("row", list(VALUES))
def test_s_a_session_value_reaches_pytest(row: str, tmp_path: Path) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(cp *)``: ``cp src/p
    helpers.py``, then make's pytest imports the plugin ``helpers``."""
    needs("make", "python3", "pytest")
    _row(VALUES[row], tmp_path)


# --- K: costs — everyday calls denied though harmless ----------------------------------------

#: Each case: the Makefile beside tests/test_a.py, the session's variables; the everyday call
#: ``sed -i s/a/b/ notes.txt`` under plan ``Bash(make test)``, ``Bash(sed -i *)`` (each
#: allowed at s62-hmain).
T = "test:\n\tpython3 -m pytest -q\n"
MAKE_COSTS: dict[str, tuple[str, dict[str, str]]] = {
    # (denied since 6bafe847: any line referring to a session variable is a doubt of every
    # folder, a target's the plan never runs too)
    "another-targets-editor": (T + "edit:\n\t$(EDITOR) notes.txt\n", {"EDITOR": "vim"}),
    "a-jdk-folder": (T + "docs:\n\t$(JAVA_HOME)/bin/java -version\n",
                     {"JAVA_HOME": "/usr/lib/jvm/default"}),
    "a-conda-prefix": (T + "env:\n\techo $(CONDA_PREFIX)\n", {"CONDA_PREFIX": "/opt/conda"}),
    # (denied since 346df853: the session's own value, plain, on the pytest line)
    "the-sessions-python": ("PYTHON ?= python3\ntest:\n\t$(PYTHON) -m pytest -q\n",
                            {"PYTHON": "python3"}),
    # held (allowed at s62-hmain and since): a condition on a session variable, an unused `?=`
    "a-ci-condition": ("ifdef CI\nFLAGS = -x\nendif\ntest:\n\tpython3 -m pytest -q $(FLAGS)\n",
                       {"CI": "true"}),
}
# (another-targets-editor, a-jdk-folder, a-conda-prefix: denied at 6bafe847, the-sessions-
# python at 346df853 and 6bafe847; each allowed again since ba44ff51)


@pytest.mark.parametrize("case", list(MAKE_COSTS))
def test_k_an_everyday_edit_beside_a_makefile(case: str, tmp_path: Path) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(sed -i *)``: ``sed -i s/a/b/
    notes.txt`` is allowed."""
    makefile, env = MAKE_COSTS[case]
    files = {"Makefile": makefile, "tests/test_a.py": PASSES, "notes.txt": "a\n"}
    assert _session(tmp_path, ["Bash(make test)", "Bash(sed -i *)"], files,
                    ["sed -i s/a/b/ notes.txt"], env=env, proof=False) is None


#: Each case: the files beside pkg/flask.py (a package's module named like a site package) and
#: tests/test_a.py; ``sed -i s/1/2/ pkg/flask.py`` under plan ``Bash(python3 -m pytest -q)``,
#: ``Bash(sed -i *)`` (each allowed at s62-hmain).
FIXTURES = ("import pytest\nimport yaml\n\n\n@pytest.fixture\ndef cfg():\n    return yaml."
            "safe_load('a: 1')\n")
PY_COSTS: dict[str, dict[str, str]] = {
    # (denied since 8330945b: a name taken from a project module reads the whole module, and
    # its third-party import refuses)
    "a-helpers-function-using-a-library": {
        "tests/test_a.py": "from helpers import load\n\n\ndef test_a():\n    assert load()\n",
        "tests/helpers.py": "import yaml\n\n\ndef load():\n    return yaml.safe_load('a: 1')\n"},
    # (denied since e470fe6e: the plugin module read, its third-party import refuses)
    "a-fixtures-plugin-using-a-library": {
        "conftest.py": "pytest_plugins = ['tests.fixtures']\n", "tests/__init__.py": "",
        "tests/fixtures.py": FIXTURES, "tests/test_a.py": PASSES},
    # (denied since e470fe6e, G4's fix: a project file named like a listed standard module
    # refuses it, though pytest's start loaded `platform` already: CPython takes sys.modules')
    "a-project-module-named-like-a-loaded-standard-one": {
        "src/platform.py": "NAME = 'x'\n", "tests/test_a.py": "import platform\n\n\ndef test_a()"
        ":\n    assert platform.system()\n"},
    # held (allowed at s62-hmain and since): a plugin of listed names only
    "a-plain-fixtures-plugin": {
        "conftest.py": "pytest_plugins = ['tests.fixtures']\n", "tests/__init__.py": "",
        "tests/fixtures.py": "import pytest\n\n\n@pytest.fixture\ndef cfg():\n    return 1\n",
        "tests/test_a.py": PASSES},
}
OPEN.add("test_k_an_everyday_edit_beside_pytests_modules", "pathimports (8330945b) reads the "
         "whole project module a name is taken from, pathcode._plugins (e470fe6e) each plugin "
         "module: a third-party import there makes every folder one that may be first (s61's "
         "a-third-party-import cost, now for modules the tests only use)",
         "a-helpers-function-using-a-library", "a-fixtures-plugin-using-a-library")
OPEN.add("test_k_an_everyday_edit_beside_pytests_modules", "pathimports.Imports.listed "
         "(e470fe6e) refuses a listed standard module a project file is named like, also one "
         "pytest's start imported (the project's file never loads)",
         "a-project-module-named-like-a-loaded-standard-one")


@pytest.mark.parametrize("case", list(PY_COSTS))
def test_k_an_everyday_edit_beside_pytests_modules(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(sed -i *)``: ``sed -i s/1/2/ pkg/flask.py``
    is allowed."""
    files = {"pkg/__init__.py": "", "pkg/flask.py": "X = 1\n", "tests/test_a.py": PASSES,
             **PY_COSTS[case]}
    assert _session(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(sed -i *)"], files,
                    ["sed -i s/1/2/ pkg/flask.py"], proof=False) is None


# --- B: boundaries s62-gfix decided (docs/decisions.md, session 62): pinned as allowed (each
# ran the payload during the review; G9/G10, a session value through a script, is an open
# row of S: the lead's decision) ---------------------------------------------------------

BOUNDARIES: dict[str, Case] = {
    # G2 (and G2b, G2c: `-I../inc`, `CFLAGS = -Btools/`, `-specs=`, a recipe's `gcc @opts`): a
    # makefile's own gcc values are the project's text (P1g); the session's are read
    "a-makefiles-own-include-folder": _h(STDIO, "CPPFLAGS = -I.\n" + BUILDS),
}


@pytest.mark.parametrize("case", list(BOUNDARIES))
def test_b_a_boundary_s62_gfix_decided(case: str, tmp_path: Path) -> None:
    """The printed hook allows every call of the case (proved to run the payload during the
    review: /work/wt/reports/s62-greview.md)."""
    needs("make", "gcc", "python3", "pytest")
    entries, files, calls, env = BOUNDARIES[case]
    assert _session(tmp_path, entries, files, calls, env=env, proof=False) is None


# --- T: time — a hook past the runtime's timeout lets the call run --------------------------

#: T1: makesession follows each line's variables anew: 60 lines ``V<i> = $(A)``, ``A`` naming
#: 200 definitions of 1,000 ``$x`` each (400 KB): the hook's CPU 4.9 s at 983659a4 vs 2.3 s at
#: s62-hmain (450 lines: 32.4 s vs 12.5 s, past the printed hook's 30 s).
SLOW_MAKEFILE = "\n".join(["A = " + " ".join(f"$(B{i})" for i in range(200)),
                           *(f"B{i} = " + "$x" * 1000 for i in range(200)),
                           *(f"V{i} = $(A)" for i in range(60)),
                           "test:", "\tpython3 -m pytest -q"]) + "\n"
# (open at 346df853: 4.9 s; held since 7f61b2d9)


def test_t_a_makefiles_values_are_read_in_time(tmp_path: Path) -> None:
    """The hook decides ``cp notes.txt n2.txt`` (plan ``Bash(make test)``, ``Bash(cp *)``)
    beside ``SLOW_MAKEFILE`` within 3.5 CPU seconds."""
    project = hooked_project(tmp_path, ["Bash(make test)", "Bash(cp *)"])
    (project / "Makefile").write_text(SLOW_MAKEFILE)
    (project / "notes.txt").write_text("n\n")
    assert _hook_cpu(project, "cp notes.txt n2.txt", tmp_path) < 3.5


def _hook_cpu(project: Path, call: str, tmp_path: Path) -> float:
    """The CPU seconds the printed hook of ``project`` uses to decide ``call`` there."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["/bin/sh", "-c", _settings_hook(project)], cwd=project, input=payload(
        call, project), env={**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)},
                   capture_output=True, timeout=300, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


#: T2 (s62-hmain too, not a regression; held since by pathcode._TOTAL): pathcode read every
#: test module below with no total budget: 2 test modules of 1 MB of assignments took 4.7 s
#: of the hook's CPU (16 of them: 36.1 s, past the printed hook's 30 s) for a write it asks
#: moves_path of.
BIG_TEST = "".join(f"x{i} = {i}\n" for i in range(83000)) + "def test_a():\n    pass\n"


def test_t_the_test_modules_are_read_in_time(tmp_path: Path) -> None:
    """The hook decides ``cp src/p src/yaml.py`` (plan ``Bash(python3 -m pytest -q)``,
    ``Bash(cp *)``) beside two 1 MB test modules within 3 CPU seconds."""
    project = hooked_project(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)"])
    (project / "tests").mkdir()
    for name in ("test_0.py", "test_1.py"):
        (project / "tests" / name).write_text(BIG_TEST)
    (project / "src" / "p").write_text("\n")
    assert _hook_cpu(project, "cp src/p src/yaml.py", tmp_path) < 3.0
