"""Review s55 (s55-greview3) of s55-gfix3 (issue 29: what python, pytest, jest and git read
first: the modules pytest's installed plugins import at start, the folders put on
``sys.path``, the ini's ``addopts``/``python_files``, jest's settings, git layouts completed
across calls). Each case proves with real bash and the real programs (python3 3.11/pytest 9
and its installed plugins, node 20/npm/jest 29.7, git 2.39, GNU make) in a scratch project
that the calls run the payload (``touch zz``, ``open('zz', 'w')``), then asks the printed
hook for each call in turn as Claude Code 2.1.332's Bash tool runs them
(``test_s53_greview._session``: the folder a call leaves kept for the next,
``CLAUDE_PROJECT_DIR`` the project): the hook allowing them all is the finding, a strict
xfail row of ``OPEN`` while it is open. A case the change holds is a plain test pinning it.

Every payload only touches a file."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, hooked_project, needs
from test_s53_greview import PY_PAYLOAD, _jest, _session

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail.
OPEN = LeftOpen()
_open = OPEN.add

#: A test that passes and imports nothing.
PASSES = "def test_a():\n    pass\n"
#: A doctest (in a text file pytest's ``--doctest-glob`` collects) that runs the payload.
DOCTEST = ">>> open('zz', 'w').close()\n"
#: The plan of a Python project's test run, with a copy.
PYTEST = ["Bash(python3 -m pytest -q)", "Bash(cp *)"]


# --- P: what pytest's settings make it import or run ------------------------------------------

#: Each case: the plan's entries, the files, the calls. The settings are the project's own
#: (present before the session); the call writes the file they name.
SETTINGS = {
    # `--doctest-glob` in the ini's addopts: every matching text file is a doctest pytest runs
    # (a common setting: `--doctest-glob='*.md'` runs README's examples)
    "ini-doctest-glob-md": (
        PYTEST, {"pytest.ini": "[pytest]\naddopts = --doctest-glob=*.md\n",
                 "tests/test_a.py": PASSES, "README.md": "hi\n"},
        ["cp src/md README.md", "python3 -m pytest -q"]),
    "ini-doctest-glob-rst-below": (
        PYTEST, {"pytest.ini": "[pytest]\naddopts = --doctest-glob=*.rst\n",
                 "tests/test_a.py": PASSES, "docs/index.rst": "hi\n"},
        ["cp src/md docs/usage.rst", "python3 -m pytest -q"]),
    # pytest 9's native TOML table `[tool.pytest]` (arrays, not ini strings)
    "pyproject-native-python-files": (
        PYTEST, {"pyproject.toml": '[tool.pytest]\npython_files = ["check_*.py"]\n',
                 "tests/check_b.py": ""},
        ["cp src/p tests/check_a.py", "python3 -m pytest -q"]),
    # the ini-style table of pyproject.toml
    "pyproject-doctest-modules": (
        PYTEST, {"pyproject.toml": '[tool.pytest.ini_options]\naddopts = "--doctest-modules"\n',
                 "pkg/__init__.py": "", "tests/test_a.py": PASSES},
        ["cp src/p pkg/util.py", "python3 -m pytest -q"]),
    # the ini's `-p` is read (held at 42437dd)
    "ini-addopts-plugin": (
        PYTEST, {"pytest.ini": "[pytest]\naddopts = -p helper\n", "tests/test_a.py": PASSES,
                 "helper.py": ""},
        ["cp src/p helper.py", "python3 -m pytest -q"]),
    "pyproject-native-addopts-plugin": (
        PYTEST, {"pyproject.toml": '[tool.pytest]\naddopts = ["-p", "helper"]\n',
                 "tests/test_a.py": PASSES, "helper.py": ""},
        ["cp src/p helper.py", "python3 -m pytest -q"]),
    "pyproject-native-pythonpath": (
        PYTEST, {"pyproject.toml": '[tool.pytest]\npythonpath = ["helpers"]\n',
                 "helpers/.keep": "", "tests/test_a.py": "import colorsys\n" + PASSES},
        ["cp src/p helpers/colorsys.py", "python3 -m pytest -q"]),
    # the ini's values as pytest reads them: addopts and pythonpath split by shlex (quotes
    # removed), a pattern with a folder matched against the whole path (`fnmatch_ex`)
    "doctest-glob-quoted": (
        PYTEST, {"pytest.ini": "[pytest]\naddopts = --doctest-glob='*.md'\n",
                 "tests/test_a.py": PASSES, "README.md": "hi\n"},
        ["cp src/md README.md", "python3 -m pytest -q"]),
    "doctest-glob-with-a-folder": (
        PYTEST, {"pytest.ini": "[pytest]\naddopts = --doctest-glob=docs/*.rst\n",
                 "tests/test_a.py": PASSES, "docs/index.rst": "hi\n"},
        ["cp src/md docs/usage.rst", "python3 -m pytest -q"]),
    "python-files-with-a-folder": (
        PYTEST, {"pytest.ini": "[pytest]\npython_files = checks/*.py\n", "checks/b.py": PASSES},
        ["cp src/p checks/a.py", "python3 -m pytest -q"]),
    "pythonpath-quoted-package": (
        PYTEST, {"pytest.ini": '[pytest]\npythonpath = "mypkg"\n', "mypkg/__init__.py": "",
                 "tests/test_a.py": "import colorsys\n" + PASSES},
        ["cp src/p mypkg/colorsys.py", "python3 -m pytest -q"]),
    # held at 6f28a71: pytest 9's native arrays, the plan's own --doctest-glob, an ini below
    # the plan's operand, pythonpath naming a package (native) or a link to one
    "doctest-glob-native-words": (
        PYTEST, {"pyproject.toml": '[tool.pytest]\naddopts = ["--doctest-glob", "*.md"]\n',
                 "tests/test_a.py": PASSES, "README.md": "hi\n"},
        ["cp src/md README.md", "python3 -m pytest -q"]),
    "doctest-glob-on-the-plans-line": (
        ["Bash(python3 -m pytest -q --doctest-glob '*.md')", "Bash(cp *)"],
        {"tests/test_a.py": PASSES, "README.md": "hi\n"},
        ["cp src/md README.md", "python3 -m pytest -q --doctest-glob '*.md'"]),
    "doctest-glob-ini-below-the-operand": (
        ["Bash(python3 -m pytest -q docs)", "Bash(cp *)"],
        {"docs/pytest.ini": "[pytest]\naddopts = --doctest-glob=*.md\n", "docs/index.md": "hi\n"},
        ["cp src/md docs/guide.md", "python3 -m pytest -q docs"]),
    "pythonpath-native-package": (
        PYTEST, {"pyproject.toml": '[tool.pytest]\npythonpath = ["mypkg"]\n',
                 "mypkg/__init__.py": "", "tests/test_a.py": "import colorsys\n" + PASSES},
        ["cp src/p mypkg/colorsys.py", "python3 -m pytest -q"]),
    "pythonpath-a-link-to-a-package": (
        [*PYTEST, "Bash(ln *)"], {"pytest.ini": "[pytest]\npythonpath = lib\n",
                                  "mypkg/__init__.py": "",
                                  "tests/test_a.py": "import colorsys\n" + PASSES},
        ["cp src/p mypkg/colorsys.py", "ln -s mypkg lib", "python3 -m pytest -q"]),
    # a script of the plan runs Python in a package's folder (the exemption is for a plan
    # running a test runner alone, 4cbb1e8)
    "plans-script-runs-python-in-a-package": (
        [*PYTEST, "Bash(python3 tools/run.py)"],
        {"tools/run.py": "import subprocess\nsubprocess.run(['python3', '-c', 'import colorsys'],"
                         " cwd='mypkg')\n", "mypkg/__init__.py": "", "tests/test_a.py": PASSES},
        ["cp src/p mypkg/colorsys.py", "python3 tools/run.py"]),
    # the ini's pythonpath naming a zip archive (a vendored library): zipimport reads the
    # modules in it first (sys.path[0]), `import colorsys` in a test loads the archive's
    "ini-pythonpath-zip-archive": (
        PYTEST, {"pytest.ini": "[pytest]\npythonpath = vendor/libs.zip\n", "vendor/.keep": "",
                 "tests/test_a.py": "import colorsys\n" + PASSES},
        ["cp src/zip vendor/libs.zip", "python3 -m pytest -q"]),
    # a conftest's `pytest_plugins` (pytest's own setting, as `-p` is: the module named is
    # imported at the conftest's load, from sys.path)
    "conftest-pytest-plugins-dotted": (
        PYTEST, {"conftest.py": "pytest_plugins = ['fixtures.db']\n", "fixtures/__init__.py": "",
                 "fixtures/db.py": "", "tests/test_a.py": PASSES},
        ["cp src/p fixtures/db.py", "python3 -m pytest -q"]),
    "conftest-pytest-plugins-top": (
        PYTEST, {"conftest.py": "pytest_plugins = ['helpers']\n", "helpers.py": "",
                 "tests/test_a.py": PASSES},
        ["cp src/p helpers.py", "python3 -m pytest -q"]),
}

# (ini-doctest-glob-md, ini-doctest-glob-rst-below, pyproject-native-python-files,
# pyproject-doctest-modules: held since 6f28a71's pytestini.widened; doctest-glob-quoted,
# doctest-glob-with-a-folder, python-files-with-a-folder, pythonpath-quoted-package since
# d38c446; ini-pythonpath-zip-archive since 2035e3a)
# (plans-script-runs-python-in-a-package: held since s56-gfix3's Guarded.runs_any;
# conftest-pytest-plugins-dotted, -top: since s56-gfix3's conftestplugins)


#: ``src/zip`` holds ``colorsys.py`` (the payload), ``vendor/libs.zip`` a harmless ``six.py``.
ZIPS = ("python3 -c \"import zipfile; z = zipfile.ZipFile('src/zip', 'w'); "
        "z.writestr('colorsys.py', open('src/p').read()); z.close(); "
        "import os; os.path.isdir('vendor') and zipfile.ZipFile('vendor/libs.zip', 'w').close()\"")


@pytest.mark.parametrize("case", SETTINGS)
def test_p_a_file_pytests_settings_make_it_run(case: str, tmp_path: Path) -> None:
    """The copy, then the plan's pytest imports or runs the copied file."""
    needs("python3", "pytest")
    entries, files, calls = SETTINGS[case]
    files = {**files, "src/p": PY_PAYLOAD, "src/md": DOCTEST}
    assert _session(tmp_path, entries, files, calls, setup=ZIPS) is not None


# --- A: what pytest's installed plugins import at start ----------------------------------------

#: Modules python3's pytest here imports at every start from ``sys.path`` (the call's folder
#: first under ``python3 -m pytest``): the plugins' entry points' modules and what they import
#: at load (measured: sys.modules at a test's run less the standard names).
STARTED = {
    # a plugin's dependency: hypothesis's plugin imports _hypothesis_globals
    "plugin-dependency-hypothesis-globals": "_hypothesis_globals",
    # pytest-benchmark's own module (its entry point names pytest_benchmark.plugin)
    "entry-point-package": "pytest_benchmark",
}

# (plugin-dependency-hypothesis-globals, entry-point-package: held since fe12967's
# sitenames.site_names)


@pytest.mark.parametrize("case", STARTED)
def test_a_a_module_pytests_plugins_import_at_start(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p NAME.py``, then pytest
    imports it at its start."""
    needs("python3", "pytest")
    name = STARTED[case]
    if subprocess.run(["python3", "-c", "import pytest_benchmark, _hypothesis_pytestplugin"],
                      capture_output=True, check=False).returncode:
        pytest.skip(f"{name} is not installed beside python3's pytest")
    assert _session(tmp_path, PYTEST, {"tests/test_a.py": PASSES, "src/p": PY_PAYLOAD},
                    [f"cp src/p {name}.py", "python3 -m pytest -q"]) is not None


def test_b_an_optional_import_installed_nowhere(tmp_path: Path) -> None:
    """The boundary (docs/decisions.md, sessions 56 and 61; was the open row
    ``optional-import-installed-nowhere``): an optional import a plugin tries at its load
    that no site folder holds (pytest_benchmark/timers.py: ``try: import __pypy__``) is a
    new module of the project's own folder, read by no name the gate can list: ``cp src/p
    __pypy__.py`` and pytest after it are allowed (and run the payload), as a new module a
    test imports is."""
    needs("python3", "pytest")
    if subprocess.run(["python3", "-c", "import pytest_benchmark"], capture_output=True,
                      check=False).returncode:
        pytest.skip("pytest_benchmark is not installed beside python3's pytest")
    assert _session(tmp_path, PYTEST, {"tests/test_a.py": PASSES, "src/p": PY_PAYLOAD},
                    ["cp src/p __pypy__.py", "python3 -m pytest -q"]) is None


#: A pytest plugin installed in a virtual environment (by its metadata: an entry point of group
#: pytest11 naming the module ``zzplug``), whose site folder the gate does not read when the
#: plan names its Python: by an absolute path outside the project (a CI cache's, a
#: virtualenvwrapper's ``~/.virtualenvs/p``), or two folders below the project (tox's
#: ``.tox/py311``, ``tools/env``).
VENVS = {
    "venv-outside-the-project": "{V}",
    "venv-two-folders-below": ".tox/py311",
    # two folders below, not tox's or nox's
    "venv-in-a-tools-folder": "tools/env",
}
#: Makes the virtual environment at ``$1`` with the plugin's metadata and a harmless module.
VENV_SETUP = (
    'python3 -m venv --without-pip --system-site-packages "$1" && '
    's=$(echo "$1"/lib/python3*/site-packages) && mkdir -p "$s/zzplug-1.0.dist-info" && '
    ': > "$s/zzplug.py" && printf "Metadata-Version: 2.1\\nName: zzplug\\nVersion: 1.0\\n" '
    '> "$s/zzplug-1.0.dist-info/METADATA" && printf "[pytest11]\\nzzplug = zzplug\\n" > '
    '"$s/zzplug-1.0.dist-info/entry_points.txt"')


@pytest.mark.parametrize("case", VENVS)
def test_a_a_module_a_venvs_plugin_imports_at_start(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(<venv>/bin/python -m pytest -q)``, ``Bash(cp *)``: ``cp src/p zzplug.py``
    (the call's folder is first on sys.path), then pytest imports it as the plugin."""
    needs("python3")
    venv = VENVS[case].replace("{V}", str(tmp_path / "venvs" / "p"))
    if subprocess.run(["python3", "-c", "import pytest"], capture_output=True,
                      check=False).returncode:
        pytest.skip("python3 has no pytest")
    if venv[:1] == "/":  # (outside the project: made once, for both sides)
        subprocess.run(["bash", "-c", VENV_SETUP, "_", venv], check=True, timeout=120)
    python = f"{venv}/bin/python"
    assert _session(tmp_path, [f"Bash({python} -m pytest -q)", "Bash(cp *)"],
                    {"tests/test_a.py": PASSES, "src/p": PY_PAYLOAD},
                    ["cp src/p zzplug.py", f"{python} -m pytest -q"],
                    setup="" if venv[:1] == "/" else f"bash -c '{VENV_SETUP}' _ {venv}"
                    ) is not None


# (venv-two-folders-below: held since af72579, .tox/* and .nox/* read; venv-outside-the-project,
# venv-in-a-tools-folder: since s56-gfix3's Guarded.python_libs)


# --- J: what jest's settings name as code -----------------------------------------------------

JS_PAYLOAD = "require('fs').writeFileSync(process.cwd() + '/zz', '');\nmodule.exports = {};\n"
JEST_TEST = "test('a', () => {});\n"
#: Each case: package.json's "jest" settings, the files, the file the payload is copied over
#: (present, harmless, before the session). Every setting jest 29.7 loads as a module.
JEST = {
    "setup-files-after-env": ({"setupFilesAfterEnv": ["<rootDir>/tools/after.js"]},
                              {"a.test.js": JEST_TEST}, "tools/after.js"),
    "global-setup": ({"globalSetup": "<rootDir>/tools/gs.js"}, {"a.test.js": JEST_TEST},
                     "tools/gs.js"),
    "global-teardown": ({"globalTeardown": "<rootDir>/tools/gt.js"}, {"a.test.js": JEST_TEST},
                        "tools/gt.js"),
    "test-environment": ({"testEnvironment": "<rootDir>/tools/env.js"},
                         {"a.test.js": JEST_TEST}, "tools/env.js"),
    "transform": ({"transform": {"\\.js$": "<rootDir>/tools/tr.js"}}, {"a.test.js": JEST_TEST},
                  "tools/tr.js"),
    "reporters": ({"reporters": ["<rootDir>/tools/rep.js"]}, {"a.test.js": JEST_TEST},
                  "tools/rep.js"),
    "test-sequencer": ({"testSequencer": "<rootDir>/tools/seq.js"}, {"a.test.js": JEST_TEST},
                       "tools/seq.js"),
    "resolver": ({"resolver": "<rootDir>/tools/res.js"}, {"a.test.js": JEST_TEST},
                 "tools/res.js"),
    "snapshot-resolver": ({"snapshotResolver": "<rootDir>/tools/snap.js"},
                          {"a.test.js": JEST_TEST}, "tools/snap.js"),
    "test-results-processor": ({"testResultsProcessor": "<rootDir>/tools/proc.js"},
                               {"a.test.js": JEST_TEST}, "tools/proc.js"),
    "test-runner": ({"testRunner": "<rootDir>/tools/runner.js"}, {"a.test.js": JEST_TEST},
                    "tools/runner.js"),
    "runner": ({"runner": "<rootDir>/tools/run.js"}, {"a.test.js": JEST_TEST}, "tools/run.js"),
    "haste-impl": ({"haste": {"hasteImplModulePath": "<rootDir>/tools/haste.js"}},
                   {"a.test.js": JEST_TEST}, "tools/haste.js"),
    "dependency-extractor": ({"dependencyExtractor": "<rootDir>/tools/dep.js"},
                             {"a.test.js": JEST_TEST}, "tools/dep.js"),
    # a module the test requires, mapped to a project file
    "module-name-mapper": ({"moduleNameMapper": {"^chalk$": "<rootDir>/lib/ch.js"}},
                           {"a.test.js": "require('chalk');\n" + JEST_TEST}, "lib/ch.js"),
    # a preset file (JSON naming a setup file; a JS preset is code)
    "preset-json-setup": ({"preset": "./preset/jest-preset.json"},
                          {"a.test.js": JEST_TEST, "preset/jest-preset.json":
                           '{"setupFiles": ["<rootDir>/tools/s.js"]}'}, "tools/s.js"),
    "preset-js": ({"preset": "./preset/jest-preset.js"}, {"a.test.js": JEST_TEST},
                  "preset/jest-preset.js"),
    # module folders searched like node_modules (from the test's folder up) and after them
    "module-directories": ({"moduleDirectories": ["node_modules", "lib"]},
                           {"src/a.test.js": "require('chalk');\n" + JEST_TEST,
                            "src/lib/.keep": ""}, "src/lib/chalk.js"),
    "module-paths": ({"modulePaths": ["<rootDir>/lib"]},
                     {"a.test.js": "try { require('optdep'); } catch (e) {}\n" + JEST_TEST},
                     "lib/optdep.js"),
    # the rootDir moved: its __mocks__ replaces a package
    "root-dir-mocks": ({"rootDir": "src"},
                       {"src/a.test.js": "require('chalk');\n" + JEST_TEST},
                       "src/__mocks__/chalk.js"),
    # a project's own jest.config.js (a start name: held at 42437dd)
    "projects-config": ({"projects": ["<rootDir>/pkg/a"]},
                        {"pkg/a/a.test.js": JEST_TEST, "pkg/a/package.json": '{"name":"a"}'},
                        "pkg/a/jest.config.js"),
}

# (every case: held since afd07ea's jestsettings.widened and af72579)


@pytest.mark.parametrize("case", JEST)
def test_j_a_file_jests_settings_load(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(npm test)`` (``"test": "jest"``), ``Bash(cp *)``: the copy, then jest
    loads the payload."""
    modules = _jest()
    settings, files, target = JEST[case]
    files = {target: "module.exports = {};\n", **files, "src/js": JS_PAYLOAD,
             "package.json": json.dumps({"name": "jt", "scripts": {"test": "jest"},
                                         "jest": settings})}
    assert _session(tmp_path, ["Bash(npm test)", "Bash(cp *)"], files,
                    [f"cp src/js {target}", "npm test"],
                    links={"node_modules": str(modules)}) is not None


# --- G: a folder git takes as its git directory ------------------------------------------------

#: The settings that make git run a command at ``git status`` (core.fsmonitor), with the
#: working tree at the folder above.
GIT_CONFIG = ("[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n"
              "\tfsmonitor = touch zz; false\n")
#: The calls before the last writer: the config and both folders written while ``sub`` holds
#: no ``HEAD`` (each allowed: no layout yet).
GIT_FIRST = ["cp src/cfg sub/config", "mkdir sub/objects sub/refs"]
#: Each case: the writer's entry, the call bringing ``sub/HEAD``. git 2.39's
#: ``validate_headref`` takes a symbolic link named HEAD whose text starts with ``refs/`` as
#: a valid HEAD (setup.c), whatever it leads to: ``ln -s refs/HEAD sub/`` makes one without
#: naming HEAD as its destination.
GIT_HEADS = {
    "symbolic-link-into-the-folder": ("Bash(ln *)", "ln -s refs/HEAD sub/"),
    "symbolic-link-by-target-folder": ("Bash(ln *)", "ln -s -t sub refs/HEAD"),
    # held at 71cbb8a: a HEAD copied, moved, linked, installed, unpacked, patched in
    "copied-into-the-folder": ("Bash(cp *)", "cp a/HEAD sub/"),
    "moved-by-target-folder": ("Bash(mv *)", "mv -t sub a/HEAD"),
    "hard-link-into-the-folder": ("Bash(ln *)", "ln a/HEAD sub/"),
    "installed-by-target-folder": ("Bash(install *)", "install -m 644 -t sub a/HEAD"),
    "tree-contents-copied": ("Bash(cp *)", "cp -rT a sub"),
    "tar-member-below-dash-c": ("Bash(tar *)", "tar -xf src/h.tar -C sub"),
    "patch-making-the-file": ("Bash(patch *)", "patch -p1 -i src/h.patch"),
}
#: An archive holding a member ``HEAD``, a patch making ``sub/HEAD``.
GIT_SETUP = ("mkdir -p /tmp/h$$ && printf 'ref: refs/heads/main\\n' > /tmp/h$$/HEAD && "
             "tar -C /tmp/h$$ -cf src/h.tar HEAD && rm -r /tmp/h$$ && printf -- '--- /dev/null"
             "\\n+++ b/sub/HEAD\\n@@ -0,0 +1 @@\\n+ref: refs/heads/main\\n' > src/h.patch")



# (symbolic-link-into-the-folder, symbolic-link-by-target-folder: held since af72579)


@pytest.mark.parametrize("case", GIT_HEADS)
def test_g_a_head_brought_last_makes_a_git_directory(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)`` (recipe ``cd sub && git status --porcelain``), ``Bash(cp *)``,
    ``Bash(mkdir *)`` and the writer's: the config and folders first, the HEAD last; git takes
    ``sub`` as its git directory and runs fsmonitor."""
    needs("make", "git", "patch", "tar")
    entry, call = GIT_HEADS[case]
    files = {"Makefile": "test:\n\tcd sub && git status --porcelain\n", "sub/.keep": "",
             "a/HEAD": "ref: refs/heads/main\n", "src/cfg": GIT_CONFIG}
    assert _session(tmp_path, ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)", entry], files,
                    [*GIT_FIRST, call, "make test"], setup=GIT_SETUP) is not None


#: Jest's settings found elsewhere than package.json's "jest", or given on the plan's line:
#: the plan's entry, package.json's "jest" (None: none), the other files, the file the
#: payload is copied over, the call running jest.
JEST_ELSEWHERE = {
    # a regular expression naming the tests (not a glob: `lib/a.check.js` is a test)
    "test-regex": ("npm test", {"testRegex": "\\.check\\.js$"}, {"lib/b.check.js": JEST_TEST},
                   "lib/a.check.js"),
    # a glob naming every script below a folder a test
    "test-match-every-script": ("npm test", {"testMatch": ["<rootDir>/checks/**/*.js"]},
                                {"checks/b.js": JEST_TEST}, "checks/a.js"),
    # a project's settings given inline in `projects`
    "projects-inline-settings": ("npm test", {"projects": [
        {"displayName": "a", "setupFiles": ["<rootDir>/tools/s.js"]}]},
        {"a.test.js": JEST_TEST}, "tools/s.js"),
    # jest.config.json (literal JSON) beside package.json
    "jest-config-json": ("npm test", None, {"a.test.js": JEST_TEST, "jest.config.json":
                                            '{"setupFiles": ["<rootDir>/tools/s.js"]}'},
                         "tools/s.js"),
    # a settings file the plan's line names by --config
    "config-option-file": ("npx jest --config ci/jest.json", None, {
        "a.test.js": JEST_TEST,
        "ci/jest.json": '{"rootDir": "..", "setupFiles": ["<rootDir>/tools/s.js"]}'},
        "tools/s.js"),
    # a module the plan's line names as an option's attached value (`--opt=PATH`): the
    # spaced form `--globalSetup ./tools/s.js` is held, the attached one is not read
    "global-setup-attached": ("npx jest --globalSetup=./tools/s.js", None,
                              {"a.test.js": JEST_TEST}, "tools/s.js"),
    "setup-files-attached": ("npx jest --setupFiles=./tools/s.js", None,
                             {"a.test.js": JEST_TEST}, "tools/s.js"),
    "environment-attached": ("npx jest --env=./tools/s.js", None, {"a.test.js": JEST_TEST},
                             "tools/s.js"),
    "npm-test-arguments-attached": ("npm test -- --globalSetup=./tools/s.js", None,
                                    {"a.test.js": JEST_TEST}, "tools/s.js"),
    # held at fe12967: the spaced forms, a JSON text given to --config
    "global-setup-spaced": ("npx jest --globalSetup ./tools/s.js", None,
                            {"a.test.js": JEST_TEST}, "tools/s.js"),
    "setup-files-spaced": ("npx jest --setupFiles ./tools/s.js", None,
                           {"a.test.js": JEST_TEST}, "tools/s.js"),
}

# (test-regex, test-match-every-script, projects-inline-settings, jest-config-json: held
# since afd07ea; config-option-file and the attached values since s56-sfix's jestsettings
# reading of the words the plan's entries give jest)


@pytest.mark.parametrize("case", JEST_ELSEWHERE)
def test_j_a_file_jests_settings_load_from_elsewhere(case: str, tmp_path: Path) -> None:
    """Plan: the entry running jest 29.7, ``Bash(cp *)``: the copy, then jest loads it."""
    modules = _jest()
    entry, settings, files, target = JEST_ELSEWHERE[case]
    package = {"name": "jt", "scripts": {"test": "jest"}}
    files = {target: "module.exports = {};\n", **files, "src/js": JS_PAYLOAD,
             "package.json": json.dumps(package if settings is None else
                                        {**package, "jest": settings})}
    assert _session(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                    [f"cp src/js {target}", entry],
                    links={"node_modules": str(modules)}) is not None


# --- K: costs: everyday calls the change denies ------------------------------------------------

#: A package (``mypkg``, with ``__init__.py``), plain folders of helper scripts, a test.
EVERYDAY = {"mypkg/__init__.py": "", "mypkg/types.py": "A = 1\n", "mypkg/core.py": "A = 1\n",
            "notes.py": "\n", "tests/test_a.py": PASSES, "tools/yaml.py": "A = 1\n",
            "scripts/six.py": "A = 1\n",
            "Makefile": "test:\n\tpython3 -m pytest -q\n"}
#: Each case: the plan's entries, an extra file, the call (allowed by the plan's grant).
COSTS = {
    # 4cbb1e8: under a make plan a package's module of a standard name is guarded again
    # (s54-greview2 K1's everyday edits), though no recipe runs Python in the package: the
    # recipes are the plan's approved text, readable
    "make-plan-sed-a-packages-types": (["Bash(make test)", "Bash(sed *)"], {},
                                       "sed -i s/A/B/ mypkg/types.py"),
    "make-plan-copy-a-packages-logging": (["Bash(make test)", "Bash(cp *)"], {},
                                          "cp notes.py mypkg/logging.py"),
    # fe12967: a helper named like any installed distribution's module (the hook's Python's,
    # the system's, PATH's: machine-dependent) in a folder nothing puts on sys.path
    "pytest-plan-sed-a-helper-named-like-a-site-module": (
        ["Bash(python3 -m pytest -q)", "Bash(sed *)"], {}, "sed -i s/A/B/ tools/yaml.py"),
    "pytest-plan-sed-a-script-named-like-a-site-module": (
        ["Bash(python3 -m pytest -q)", "Bash(sed *)"], {}, "sed -i s/A/B/ scripts/six.py"),
}

_open("test_k_an_everyday_call_stays_allowed",
      "4cbb1e8 guards a package's standard-named modules under every plan running make/npm, "
      "recipes unread", "make-plan-sed-a-packages-types", "make-plan-copy-a-packages-logging")
# (pytest-plan-sed-a-helper-named-like-a-site-module, …-a-script-…: allowed since s56-gfix3's
# syspathdirs: a site name is asked only in a folder a pytest-only plan may put on sys.path;
# doctest-modules-sed-a-packages-module: kept denied on purpose, pinned in test_s56_gfix3)


@pytest.mark.parametrize("case", COSTS)
def test_k_an_everyday_call_stays_allowed(case: str, tmp_path: Path) -> None:
    """The call is allowed (a strict-xfail cost row while the change denies it)."""
    entries, extra, call = COSTS[case]
    if "site-module" in case and subprocess.run(["python3", "-c", "import yaml, six"],
                                                capture_output=True, check=False).returncode:
        pytest.skip("yaml/six are not installed beside python3")
    project = hooked_project(tmp_path, entries)
    for name, text in {**EVERYDAY, **extra}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    assert first_denied(project, [call],
                        {**os.environ, "CLAUDE_PROJECT_DIR": str(project)}) is None


#: Against afd07ea (jestsettings): the plan's entry, package.json's "jest" (None: none), the
#: other files, the file the payload is copied over, where node_modules is linked.
JEST_READ = {
    # a jest.config.js (code: the most common form) naming a setup file
    "config-js-names-a-setup-file": (
        "npm test", None, {"jest.config.js": "module.exports = {setupFiles: "
                           "['<rootDir>/tools/s.js']};\n", "a.test.js": JEST_TEST},
        "tools/s.js", "node_modules"),
    # micromatch's extglob (`+(a|b)`, `?(x)`: jest's own default testMatch uses them)
    "test-match-extglob": ("npm test", {"testMatch": ["**/*.+(check|e2e).js"]},
                           {"lib/b.check.js": JEST_TEST}, "lib/a.check.js", "node_modules"),
    # an inline project's testMatch (a glob, not a path)
    "inline-projects-test-match": ("npm test", {"projects": [
        {"displayName": "c", "testMatch": ["**/*.check.js"]}]}, {"lib/b.check.js": JEST_TEST},
        "lib/a.check.js", "node_modules"),
    # a project folder's own package.json "jest" settings
    "project-folders-settings": ("npm test", {"projects": ["<rootDir>/pkg/a"]}, {
        "pkg/a/package.json": '{"name": "a", "jest": {"setupFiles": ["<rootDir>/setup/s.js"]}}',
        "pkg/a/a.test.js": JEST_TEST}, "pkg/a/setup/s.js", "node_modules"),
    # a setup file above the collecting folder (a monorepo's shared setup)
    "setup-file-above-the-folder": (
        "cd web && npx jest", None, {"web/package.json": '{"name": "w", "jest": {"setupFiles": '
                                     '["<rootDir>/../shared/s.js"]}}', "web/a.test.js": JEST_TEST},
        "shared/s.js", "web/node_modules"),
    # a settings file package.json's test script names by --config (the plan's `npm test`)
    "config-file-the-test-script-names": (
        "npm test", None, {"a.test.js": JEST_TEST, "jest.ci.json":
                           '{"setupFiles": ["<rootDir>/tools/s.js"]}'}, "tools/s.js",
        "node_modules"),
    # held at afd07ea: the settings of a package.json above a folder without one
    "settings-of-the-folder-above": ("cd web && npx jest", {"setupFiles": ["<rootDir>/tools/s.js"]},
                                     {"web/a.test.js": JEST_TEST}, "tools/s.js", "node_modules"),
}

# (every case: held since s56-sfix's jestsettings reading: a code config fails closed,
# extglobs, inline projects, project folders' settings, paths above, a script's --config)


@pytest.mark.parametrize("case", JEST_READ)
def test_j_a_file_jests_settings_read_by_afd07ea(case: str, tmp_path: Path) -> None:
    """Plan: the entry running jest 29.7, ``Bash(cp *)``: the copy, then jest loads it."""
    modules = _jest()
    entry, settings, files, target, linked = JEST_READ[case]
    script = "jest --config jest.ci.json" if "script" in case else "jest"
    package = {"name": "jt", "scripts": {"test": script}}
    files = {target: "module.exports = {};\n", **files, "src/js": JS_PAYLOAD,
             "package.json": json.dumps(package if settings is None else
                                        {**package, "jest": settings})}
    assert _session(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                    [f"cp src/js {target}", entry],
                    links={"node_modules": str(modules), linked: str(modules)}) is not None


#: A recipe pushing to a bare repository the project keeps as a fixture (a git tool's tests):
#: git runs the fixture's receive hooks (pre-receive, post-receive, reference-transaction),
#: in its folder. The fixture is made before the session (``git init --bare``: HEAD, objects,
#: refs, config, hooks/ holding samples).
PUSH = ("test:\n\trm -rf w && git init -q w && cd w && git -c user.email=a@b -c user.name=a "
        "commit -q --allow-empty -m x && git push -q ../fixtures/repo HEAD:refs/heads/main\n")
#: Each case: the writer's entry, the call writing a hook below the fixture's hooks folder.
FIXTURE_HOOKS = {
    "copied-pre-receive": ("Bash(cp *)", "cp src/hook fixtures/repo/hooks/pre-receive"),
    "moved-post-receive": ("Bash(mv *)", "mv src/hook fixtures/repo/hooks/post-receive"),
    "copied-reference-transaction": ("Bash(cp *)",
                                     "cp src/hook fixtures/repo/hooks/reference-transaction"),
}

# (every case: held since ba52116's gitdirs.makes_git_dir)


@pytest.mark.parametrize("case", FIXTURE_HOOKS)
def test_g_a_hook_of_a_git_directory_the_project_keeps(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)`` (the recipe pushing to ``fixtures/repo``) and the writer's:
    the hook written (executable), then git runs it."""
    needs("make", "git")
    entry, call = FIXTURE_HOOKS[case]
    files = {"Makefile": PUSH, "src/hook": "#!/bin/sh\ntouch zz\n", ".gitignore": "zz\nw/\n"}
    assert _session(tmp_path, ["Bash(make test)", entry], files, [call, "make test"],
                    setup="git init -q --bare fixtures/repo && chmod +x src/hook") is not None
