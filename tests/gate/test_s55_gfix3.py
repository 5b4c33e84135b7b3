"""Session 55's fix (s55-gfix3) of what python, pytest, jest and git read first (issue 29;
review s54-greview2 A6, A7, A8, C1, C2, C3). Each hole is proved by real bash and the real
program (GNU make, git, python3/pytest, node/jest) in a scratch project first
(``test_s53_greview._session``: the payload ran), then the printed hook is asked call by call
as the runtime's Bash tool runs them: the call named is the first one denied. The writes the
rules keep allowed are pinned as plain tests.

Every payload only touches a file."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, hooked_project, needs
from test_s53_greview import PY_PAYLOAD, _session

#: Real bash and the real programs, and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open here, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

#: git's settings running a command at ``git status`` (core.fsmonitor), the work tree above.
GIT_CONFIG = ("[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n"
              "\tfsmonitor = touch zz; false\n")
#: A makefile whose recipe runs git in ``sub``.
GIT_IN_SUB = "test:\n\tcd sub && git status --porcelain\n"


# --- C1: a git layout completed by a copy into a folder ------------------------------------------

#: Each case: the plan's entries, the files, the calls; the call the hook denies.
LAYOUTS = {
    # objects/ and refs/ first (no HEAD beside them: allowed), then HEAD and config copied
    # INTO the folder (the copy's destination is `sub/`: the names arrive from the sources)
    "head-copied-into-the-folder": (
        {"sub/.keep": ""},
        ["mkdir -p sub/objects/info sub/refs/heads", "cp a/HEAD a/config sub/", "make test"],
        "cp a/HEAD a/config sub/"),
    "head-copied-by-target-directory": (
        {"sub/.keep": ""},
        ["mkdir -p sub/objects/info sub/refs/heads", "cp -t sub a/HEAD a/config", "make test"],
        "cp -t sub a/HEAD a/config"),
    # HEAD a symbolic link brought by ln into the folder, by its source's name (git takes a
    # link whose text starts with refs/ as a HEAD: s55-greview3 G1)
    "head-linked-into-the-folder": (
        {"sub/.keep": ""},
        ["cp a/config sub/config", "mkdir sub/objects sub/refs", "ln -s refs/HEAD sub/",
         "make test"],
        "ln -s refs/HEAD sub/"),
    # HEAD first, objects/ and refs/ as parents mkdir -p makes (s54-greview2 C1's row)
    "layout-by-parents": (
        {"sub/.keep": ""},
        ["cp a/HEAD a/config sub/", "mkdir -p sub/objects/info", "mkdir -p sub/refs/heads",
         "make test"],
        "cp a/HEAD a/config sub/"),
}


@pytest.mark.parametrize("case", LAYOUTS)
def test_c1_a_git_layout_completed_in_a_folder(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)`` (a recipe running git in ``sub``), ``Bash(cp *)``,
    ``Bash(mkdir *)``: git takes ``sub`` as its git directory and runs fsmonitor; the call
    named is denied."""
    needs("make", "git")
    files, calls, denied = LAYOUTS[case]
    files = {**files, "Makefile": GIT_IN_SUB, "a/HEAD": "ref: refs/heads/main\n",
             "a/config": GIT_CONFIG}
    assert _session(tmp_path, ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)",
                               "Bash(ln *)"], files, calls) == denied


def test_c1_parents_mkdir_makes_elsewhere_are_allowed(tmp_path: Path) -> None:
    """``mkdir -p`` of folders named ``objects``/``refs`` beside no ``HEAD``, and a plain
    copy into a folder, stay allowed under the same plan."""
    project = hooked_project(tmp_path, ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)"])
    (project / "Makefile").write_text(GIT_IN_SUB)
    (project / "a").mkdir()
    (project / "a/notes.txt").write_text("\n")
    assert first_denied(project, ["mkdir -p data/objects/info data/refs/heads",
                                  "mkdir -p build/x/y", "cp a/notes.txt data/"],
                        {**os.environ, "CLAUDE_PROJECT_DIR": str(project)}) is None


# --- A8: a module of the plan's Python's site folders, C2: a link named as a package ------------

#: A test importing nothing pytest does not.
PLAIN_TEST = "def test_a():\n    pass\n"
#: Each case: the plan's entries, the files, the links, the calls; the call the hook denies.
MODULES = {
    # pytest-benchmark's plugin module (entry point pytest11), in the call's folder
    "plugin-module-in-the-calls-folder": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"], {"tests/test_a.py": PLAIN_TEST}, {},
        ["cp src/p pytest_benchmark.py", "python3 -m pytest -q"], "cp src/p pytest_benchmark.py"),
    # a module a plugin imports at its load, as a package's __init__ in a recipe's folder
    "plugin-dependency-package-in-a-recipes-folder": (
        ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)"],
        {"Makefile": "test:\n\tcd sub && python3 -m pytest -q\n", "sub/test_a.py": PLAIN_TEST},
        {}, ["mkdir sub/pygments", "cp src/p sub/pygments/__init__.py", "make test"],
        "cp src/p sub/pygments/__init__.py"),
    # a cp into a folder, by the folder's name (the copy's name is the source's)
    "module-copied-into-a-recipes-folder": (
        ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": "test:\n\tcd sub && python3 -c 'import colorsys'\n", "sub/.keep": "",
         "src/colorsys.py": PY_PAYLOAD}, {},
        ["cp src/colorsys.py sub/", "make test"], "cp src/colorsys.py sub/"),
    # a link named as a standard package made to a folder holding the payload's __init__.py
    "package-linked-in": (
        ["Bash(python3 -m pytest -q)", "Bash(ln *)"],
        {"tests/test_a.py": "import colorsys\n\n" + PLAIN_TEST, "pay/__init__.py": PY_PAYLOAD},
        {}, ["ln -s ../pay tests/colorsys", "python3 -m pytest -q"],
        "ln -s ../pay tests/colorsys"),
    # the same link made to nothing, the folder copied there after
    "package-linked-to-nothing-then-filled": (
        ["Bash(python3 -m pytest -q)", "Bash(ln *)", "Bash(cp *)"],
        {"tests/test_a.py": "import colorsys\n\n" + PLAIN_TEST, "pay/__init__.py": PY_PAYLOAD},
        {}, ["ln -s ../later tests/colorsys", "cp -r pay later", "python3 -m pytest -q"],
        "ln -s ../later tests/colorsys"),
    # a link kept as a link by a move, to a folder holding an __init__.py
    "package-link-moved-in": (
        ["Bash(python3 -m pytest -q)", "Bash(mv *)"],
        {"tests/test_a.py": "import colorsys\n\n" + PLAIN_TEST, "pay/__init__.py": PY_PAYLOAD},
        {"lnk": "../pay"}, ["mv lnk tests/colorsys", "python3 -m pytest -q"],
        "mv lnk tests/colorsys"),
}


@pytest.mark.parametrize("case", MODULES)
def test_a8_c2_a_module_python_imports_first(case: str, tmp_path: Path) -> None:
    """The calls put a module where the plan's Python (or pytest's start) imports it first:
    the call named is denied."""
    needs("make", "python3", "pytest")
    if subprocess.run(["python3", "-c", "import pytest_benchmark, pygments"],
                      capture_output=True, check=False).returncode:
        pytest.skip("pytest-benchmark is not installed beside python3's pytest")
    entries, files, links, calls, denied = MODULES[case]
    assert _session(tmp_path, entries, {**files, "src/p": PY_PAYLOAD}, calls,
                    links=links) == denied


#: Writes the rules keep allowed under ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``,
#: ``Bash(ln *)``, ``Bash(mkdir *)``: a package's module of a site name (``mypkg/yaml.py``),
#: a link named as a standard package to a folder holding no ``__init__`` (data), a link of
#: such a name in a package, a plain module.
ALLOWED = ["cp notes.py mypkg/yaml.py", "ln -s ../data tests/json", "ln -s ../pay mypkg/json",
           "cp notes.py tools/helpers.py", "mkdir tests/email"]


def test_a8_c2_everyday_writes_stay_allowed(tmp_path: Path) -> None:
    """The writes of ``ALLOWED`` are allowed."""
    project = hooked_project(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)",
                                        "Bash(ln *)", "Bash(mkdir *)"])
    for name, text in {"mypkg/__init__.py": "", "notes.py": "\n", "data/a.json": "{}",
                       "pay/__init__.py": "", "tools/.keep": "",
                       "tests/test_a.py": PLAIN_TEST}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    assert first_denied(project, ALLOWED,
                        {**os.environ, "CLAUDE_PROJECT_DIR": str(project)}) is None


# --- C3: a package's folder first on sys.path --------------------------------------------------

#: A test importing a standard module pytest does not import itself.
IMPORTS = "import colorsys\n\n" + PLAIN_TEST
#: Each case: the plan's entries, the files; the calls are the copy of ``colorsys.py`` into
#: the package ``mypkg`` and the plan's run, the copy denied.
PACKAGES = {
    # pyproject.toml's pytest table names the package's folder in `pythonpath`
    "pyproject-pythonpath": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["mypkg"]\n',
         "mypkg/__init__.py": "", "tests/test_a.py": IMPORTS}, "python3 -m pytest -q"),
    # setup.cfg's, by a path through `..`
    "setup-cfg-pythonpath": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"setup.cfg": "[tool:pytest]\npythonpath = tests/../mypkg\n",
         "mypkg/__init__.py": "", "tests/test_a.py": IMPORTS}, "python3 -m pytest -q"),
    # an npm script's python run in the package
    "npm-script-in-a-package": (
        ["Bash(npm test)", "Bash(cp *)"],
        {"package.json": '{"name":"p","scripts":{"test":"cd mypkg && python3 -m pytest -q"}}',
         "mypkg/__init__.py": "", "mypkg/test_a.py": IMPORTS}, "npm test"),
    # a script of the plan running python in the package (no test runner in the plan)
    "script-runs-python-in-a-package": (
        ["Bash(bash tools/run.sh)", "Bash(cp *)"],
        {"tools/run.sh": "cd mypkg && python3 -c 'import colorsys'\n",
         "mypkg/__init__.py": ""}, "bash tools/run.sh"),
}


@pytest.mark.parametrize("case", PACKAGES)
def test_c3_a_packages_folder_first_on_sys_path(case: str, tmp_path: Path) -> None:
    """``cp src/p mypkg/colorsys.py`` (a package's folder), then the plan's run imports it:
    the copy is denied."""
    needs("python3", "pytest", "npm")
    entries, files, run = PACKAGES[case]
    assert _session(tmp_path, entries, {**files, "src/p": PY_PAYLOAD},
                    ["cp src/p mypkg/colorsys.py", run]) == "cp src/p mypkg/colorsys.py"


def test_c3_a_packages_module_stays_writable_under_a_test_runner(tmp_path: Path) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``, ``Bash(sed *)``, pytest.ini's
    ``pythonpath`` naming ``src`` (not the package): ``sed -i … mypkg/types.py`` and ``cp
    notes.py mypkg/logging.py`` stay allowed (s54-greview2 K1)."""
    project = hooked_project(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)",
                                        "Bash(sed *)"])
    for name, text in {"pytest.ini": "[pytest]\npythonpath = src\n", "src/.keep": "",
                       "mypkg/__init__.py": "", "mypkg/types.py": "A = 1\n", "notes.py": "\n",
                       "tests/test_a.py": PLAIN_TEST}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    assert first_denied(project, ["sed -i s/A/B/ mypkg/types.py", "cp notes.py mypkg/logging.py"],
                        {**os.environ, "CLAUDE_PROJECT_DIR": str(project)}) is None


# --- A6: what pytest's settings make it collect ------------------------------------------------

#: Each case: the settings file and its text, the file the payload is copied to.
COLLECTED = {
    "pyproject-doctest-modules": (
        "pyproject.toml", '[tool.pytest.ini_options]\naddopts = "-q --doctest-modules"\n',
        "pkg/util.py"),
    "setup-cfg-python-files": ("setup.cfg", "[tool:pytest]\npython_files = check_*.py\n",
                               "tests/check_a.py"),
    # (a doctest file: the payload as its example; pytest 9 ignores `-o python_files` there)
    "ini-doctest-glob": ("pytest.ini", "[pytest]\naddopts = --doctest-glob=*.rst\n",
                         "docs/a.rst"),
    "tox-ini-doctest-modules": ("tox.ini", "[pytest]\naddopts = --doctest-modules\n",
                                "pkg/util.py"),
    # a quoted pattern holding a folder (pytest splits addopts with shlex; fnmatch_ex)
    "ini-doctest-glob-quoted-folder": ("pytest.ini",
                                       "[pytest]\naddopts = --doctest-glob='docs/*.rst'\n",
                                       "docs/a.rst"),
}


#: A doctest file whose example touches a file.
DOCTEST = ">>> open('zz', 'w').close()\n"


@pytest.mark.parametrize("case", COLLECTED)
def test_a6_a_file_pytests_settings_collect(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: the copy of the payload to a
    file pytest's settings make it import is denied."""
    needs("python3", "pytest")
    name, text, target = COLLECTED[case]
    files = {name: text, "pkg/__init__.py": "", "tests/test_b.py": PLAIN_TEST,
             "tests/check_b.py": PLAIN_TEST, "docs/.keep": "",
             "src/p": DOCTEST if target.endswith(".rst") else PY_PAYLOAD}
    assert _session(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)"], files,
                    [f"cp src/p {target}", "python3 -m pytest -q"]) == f"cp src/p {target}"


def test_a6_a_module_stays_writable_where_the_settings_widen_nothing(tmp_path: Path) -> None:
    """The same plan, pytest.ini holding other ``addopts`` and the default ``python_files``:
    ``cp notes.py pkg/util.py``, ``cp notes.py tests/check_a.py`` stay allowed."""
    project = hooked_project(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)"])
    for name, text in {"pytest.ini": "[pytest]\naddopts = -q -ra\npython_files = test_*.py\n",
                       "pkg/__init__.py": "", "notes.py": "\n", "tests/test_a.py": PLAIN_TEST
                       }.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    assert first_denied(project, ["cp notes.py pkg/util.py", "cp notes.py tests/check_a.py"],
                        {**os.environ, "CLAUDE_PROJECT_DIR": str(project)}) is None


# --- A7: what jest's settings make it run ----------------------------------------------------

#: A script touching a file when loaded.
JS_PAYLOAD = "require('fs').writeFileSync(process.cwd() + '/zz', '');\nmodule.exports = {};\n"
#: Each case: package.json's "jest" settings (None: none), jest.config.json's, the files, the
#: file the payload is copied to.
JEST = {
    # a package's mock in the default root's __mocks__ (jest mocks node_modules packages
    # from it without a jest.mock call)
    "default-root-mock-of-a-package": (None, None, {
        "a.test.js": "require('chalk');\ntest('a', () => {});\n", "__mocks__/.keep": ""},
        "__mocks__/chalk.js"),
    "test-regex": ('{"testRegex": "/checks/.*\\\\.js$"}', None,
                   {"checks/b.js": "test('b', () => {});\n"}, "checks/a.js"),
    "config-json-setup-after-env": (None, '{"setupFilesAfterEnv": ["./tools/env"]}',
                                    {"tools/env.js": "\n", "a.test.js": "test('a', () => {});\n"},
                                    "tools/env.js"),
}


@pytest.mark.parametrize("case", JEST)
def test_a7_a_file_jests_settings_name(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(npm test)`` (``"test": "jest"``), ``Bash(cp *)``: the copy of the
    payload to a file jest's settings make it run is denied."""
    from test_s53_greview import _jest

    modules = _jest()
    settings, config, files, target = JEST[case]
    package = '{"name":"jt","scripts":{"test":"jest"}' + (
        f',"jest":{settings}' if settings else "") + "}"
    files = {**files, "package.json": package, "src/js": JS_PAYLOAD,
             **({"jest.config.json": config} if config else {})}
    assert _session(tmp_path, ["Bash(npm test)", "Bash(cp *)"], files,
                    [f"cp src/js {target}", "npm test"],
                    links={"node_modules": str(modules)}) == f"cp src/js {target}"


def test_a7_scripts_jests_settings_do_not_name_stay_writable(tmp_path: Path) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``, jest's ``testMatch`` ``**/*.check.js`` and
    ``setupFiles`` ``<rootDir>/tools/setup.js``: a source module, a fixture, a tool beside
    the setup file stay writable."""
    project = hooked_project(tmp_path, ["Bash(npm test)", "Bash(cp *)"])
    for name, text in {"package.json": '{"name":"jt","scripts":{"test":"jest"},"jest":'
                       '{"testMatch":["**/*.check.js"],"setupFiles":["<rootDir>/tools/setup.js"]}}',
                       "notes.js": "\n", "data.json": "{}", "src/.keep": "", "tools/.keep": "",
                       "lib/fixtures/.keep": ""}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    assert first_denied(project, ["cp notes.js src/util.js", "cp data.json lib/fixtures/",
                                  "cp notes.js tools/other.js"],
                        {**os.environ, "CLAUDE_PROJECT_DIR": str(project)}) is None
