"""Review s56 (s56-greview3) of s56-gfix3 (issue 29: what python and pytest import first: the
package exemption under script plans, a conftest's ``pytest_plugins``, venvs named by path, the
site-name cache keyed by site folders, editable installs' ``.pth`` folders, the narrowed guards
of site-named modules). Each case proves with real bash and the real programs (python3 3.11,
pytest 9 and its installed plugins, setuptools' editable finder) in a scratch project that the
calls run the payload (``open('zz', 'w')``), then asks the printed hook for each call in turn
as Claude Code 2.1.332's Bash tool runs them (``_session``: the session's environment with
``env``'s additions, ``CLAUDE_PROJECT_DIR`` the project): the hook allowing them all is the
finding, a strict xfail row of ``OPEN`` while it is open. A case the change holds is a plain
test pinning it.

Every payload only touches a file."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs
from test_gate_files import _settings_hook, payload

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail.
OPEN = LeftOpen()
_open = OPEN.add

#: What the copied module runs at its import.
PY_PAYLOAD = "open('zz', 'w').close()\n"
#: A test that passes and imports nothing; one that imports ``colorsys``.
PASSES = "def test_a():\n    pass\n"
IMPORTS = "import colorsys\n" + PASSES


def _session(tmp_path: Path, entries: list[str], files: dict[str, str], calls: list[str],
             setup: str = "", env: dict[str, str] | None = None) -> str | None:
    """Runs ``calls`` one after the other under real bash in the project's folder of a hooked
    project with plan ``entries`` and ``files``, in the session's environment with ``env``'s
    values, asserting the payload ran; then in a second such project asks the printed hook for
    each call, running the allowed ones but the last: the first call denied, or None (the hole).
    What the bash text ``setup`` makes in ``$T`` (a folder outside both projects: a Python, a
    venv) serves both; ``{T}`` stands for it in ``env``'s values, the entries and the calls,
    ``{PATH}`` for the test's ``PATH``."""
    shared = tmp_path / "shared"
    shared.mkdir()

    def fill(text: str) -> str:
        return text.replace("{T}", str(shared)).replace("{PATH}", os.environ["PATH"])

    if setup:
        subprocess.run(["bash", "-c", setup], cwd=shared, check=True, timeout=120,
                       capture_output=True, env={**home_env(tmp_path / "home"), "T": str(shared)})
    found: list[str | None] = []
    for side in ("proof", "run"):
        folder = tmp_path / side
        project = hooked_project(folder, [fill(e) for e in entries])
        for name, text in {**files, "src/p": PY_PAYLOAD}.items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(text)
        made = {**home_env(folder / "home"), "CLAUDE_PROJECT_DIR": str(project),
                **{k: fill(v) for k, v in (env or {}).items()}}
        hook = _settings_hook(project)
        denied = None
        for at, call in enumerate(fill(c) for c in calls):
            if side == "run" and subprocess.run(
                    ["/bin/sh", "-c", hook], input=payload(call, project), cwd=project,
                    env=made, capture_output=True, timeout=60, check=False).returncode == 2:
                denied = call
                break
            if side == "proof" or at < len(calls) - 1:
                subprocess.run(["timeout", "60", "bash", "-c", call], cwd=project, env=made,
                               capture_output=True, timeout=90, check=False)
        if side == "proof":
            assert any(project.rglob("zz")), "bash ran no payload"
        found.append(denied)
    return found[1]


# --- E: an editable install's modules ----------------------------------------------------------

#: Makes the virtual environment ``$T/venv`` (outside the project) holding an editable install of
#: the pytest plugin ``acme_testing`` as setuptools >= 64 makes one for a flat layout (its "finder"
#: mode, the real template of the installed setuptools): a ``.pth`` importing a finder whose
#: ``MAPPING`` names the package's folder (``$T/acme``), appended to ``sys.meta_path``; the
#: distribution's entry point ``pytest11: acme_testing = acme_testing.plugin``.
EDITABLE = r'''set -e
V=$T/venv; A=$(dirname "$V")/acme
mkdir -p "$A/acme_testing" && : > "$A/acme_testing/__init__.py" && : > "$A/acme_testing/plugin.py"
python3 -m venv --without-pip --system-site-packages "$V"
python3 - "$(echo "$V"/lib/python3*/site-packages)" "$A" <<'PY'
import os, sys
from setuptools.command.editable_wheel import _finder_template, _make_identifier
site, folder = sys.argv[1:]
name = "__editable__.acme_testing-1.0.finder"
finder = _make_identifier(name)
with open(os.path.join(site, finder + ".py"), "w") as f:
    f.write(_finder_template(name, {"acme_testing": folder + "/acme_testing"}, {}))
with open(os.path.join(site, "__editable__.acme_testing-1.0.pth"), "w") as f:
    f.write(f"import {finder}; {finder}.install()")
info = os.path.join(site, "acme_testing-1.0.dist-info")
os.mkdir(info)
with open(os.path.join(info, "METADATA"), "w") as f:
    f.write("Metadata-Version: 2.1\nName: acme-testing\nVersion: 1.0\n")
with open(os.path.join(info, "entry_points.txt"), "w") as f:
    f.write("[pytest11]\nacme_testing = acme_testing.plugin\n")
PY
'''
#: Makes the virtual environment ``$T/venv`` (outside the project) holding an editable install of
#: the pytest plugin ``acme.testing`` (a namespace package ``acme``, PEP 420: no
#: ``__init__.py``) by a ``.pth`` naming its source folder (setuptools' src layout, hatchling's
#: default): a plain folder of that source folder is a namespace the path finder takes.
NAMESPACE = r'''set -e
V=$T/venv; A=$(dirname "$V")/acme-testing/src
mkdir -p "$A/acme/testing" && : > "$A/acme/testing/__init__.py" && : > "$A/acme/testing/plugin.py"
python3 -m venv --without-pip --system-site-packages "$V"
S=$(echo "$V"/lib/python3*/site-packages)
echo "$A" > "$S/__editable__.acme_testing-1.0.pth"
mkdir "$S/acme_testing-1.0.dist-info"
D="$S/acme_testing-1.0.dist-info"
printf 'Metadata-Version: 2.1\nName: acme-testing\nVersion: 1.0\n' > "$D/METADATA"
printf '[pytest11]\nacme_testing = acme.testing.plugin\n' > "$D/entry_points.txt"
'''
#: Makes ``$T/venv`` holding the plugin ``zzplug`` (installed: its module in the site folder,
#: ``pytest11: zzplug = zzplug``), which imports at its load ``acme_utils``, a package installed
#: editable in setuptools' finder mode (a monorepo's other package).
DEPENDENCY = EDITABLE.replace("acme_testing", "acme_utils") + r'''
S=$(echo "$V"/lib/python3*/site-packages)
rm -r "$S/acme_utils-1.0.dist-info"; echo "import acme_utils" > "$S/zzplug.py"
mkdir "$S/zzplug-1.0.dist-info"
printf 'Metadata-Version: 2.1\nName: zzplug\nVersion: 1.0\n' > "$S/zzplug-1.0.dist-info/METADATA"
printf '[pytest11]\nzzplug = zzplug\n' > "$S/zzplug-1.0.dist-info/entry_points.txt"
'''
#: Makes ``$T/venv`` holding a legacy editable install (``setup.py develop``: a path in
#: ``easy-install.pth``, the metadata an ``.egg-info`` in the source folder) of the plugin
#: ``acme.testing`` in the namespace package ``acme``.
LEGACY = r'''set -e
V=$T/venv; A=$T/acme-testing/src
E="$A/acme_testing.egg-info"; mkdir -p "$A/acme/testing" "$E"
: > "$A/acme/testing/__init__.py"; : > "$A/acme/testing/plugin.py"
printf 'Metadata-Version: 2.1\nName: acme-testing\nVersion: 1.0\n' > "$E/PKG-INFO"
printf '[pytest11]\nacme_testing = acme.testing.plugin\n' > "$E/entry_points.txt"
python3 -m venv --without-pip --system-site-packages "$V"
echo "$A" > "$(echo "$V"/lib/python3*/site-packages)/easy-install.pth"
'''
#: The environment of an active venv (its bin first on PATH).
ACTIVE = {"PATH": "{T}/venv/bin:{PATH}", "VIRTUAL_ENV": "{T}/venv"}
#: Each case: the venv's maker, the module the call writes, the plan's Python (``{T}``: the
#: side's folder), the environment's additions.
EDITABLES = {
    "setuptools-finder-active-venv": (EDITABLE, "acme_testing.py", "python3", ACTIVE),
    "setuptools-finder-named-venv": (EDITABLE, "acme_testing.py", "{T}/venv/bin/python", {}),
    "pth-namespace-active-venv": (NAMESPACE, "acme.py", "python3", ACTIVE),
    # a plugin's dependency installed editable (finder mode)
    "finder-package-a-plugin-imports": (DEPENDENCY, "acme_utils.py", "python3", ACTIVE),
    # setup.py develop's layout: the entry point in an .egg-info of the source folder
    "legacy-develop-namespace": (LEGACY, "acme.py", "python3", ACTIVE),
}


def _setuptools() -> None:
    """Skip unless python3's setuptools has the editable finder's template."""
    needs("python3")
    if subprocess.run(["python3", "-c", "import pytest\nfrom setuptools.command.editable_wheel "
                       "import _finder_template"], capture_output=True, check=False).returncode:
        pytest.skip("python3 has no pytest or no setuptools >= 64")


@pytest.mark.parametrize("case", EDITABLES)
def test_e_an_editable_install_imports_at_start(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(PYTHON -m pytest -q)``, ``Bash(cp *)``: the module written in the project's
    folder (first on ``sys.path``), then pytest loads the plugin's entry point: the path finder
    meets the call's folder's module before the editable finder (last on ``sys.meta_path``), or
    the namespace's portion, is taken."""
    _setuptools()
    maker, module, python, env = EDITABLES[case]
    assert _session(tmp_path, [f"Bash({python} -m pytest -q)", "Bash(cp *)"],
                    {"tests/test_a.py": PASSES},
                    [f"cp src/p {module}", f"{python} -m pytest -q"],
                    setup=maker, env=env) is not None


# (setuptools-finder-active-venv, setuptools-finder-named-venv, pth-namespace-active-venv: held
# since 378e7dd, the pytest11 entry points' top names read)


# --- O: pytest's pythonpath where the gate does not read it --------------------------------------

#: The package ``mypkg`` (a test imports ``colorsys``: the package's ``colorsys.py`` when
#: ``mypkg`` is first on ``sys.path``); the plain folder ``tools`` (a test imports ``yaml``, a
#: site module: ``tools/yaml.py`` when ``tools`` is).
PACKAGE = ({"mypkg/__init__.py": "", "tests/test_a.py": IMPORTS}, "mypkg/colorsys.py")
PLAIN = ({"tools/.keep": "", "tests/test_a.py": "def test_a():\n    import yaml\n"},
         "tools/yaml.py")
#: The same, the tests and their settings in ``sub`` (a monorepo's service), ``pythonpath``
#: naming a folder beside it.
SUB_PACKAGE = ({"mypkg/__init__.py": "", "sub/test_a.py": IMPORTS,
                "sub/pytest.ini": "[pytest]\npythonpath = ../mypkg\n"}, "mypkg/colorsys.py")
SUB_PLAIN = ({"tools/.keep": "", "sub/test_a.py": "def test_a():\n    import yaml\n",
              "sub/pytest.ini": "[pytest]\npythonpath = ../tools\n"}, "tools/yaml.py")
#: Each case: the plan's entry running pytest with ``pythonpath`` naming the folder (``{D}``)
#: by ``-o``/``--override-ini`` (on its line or in the session's ``PYTEST_ADDOPTS``) or in an
#: ini the gate does not read for it, the session's environment's additions, the files and the
#: module written (and the plan's entry when not the line).
OVERRIDES: dict[str, tuple[Any, ...]] = {
    "override-ini-attached": ("python3 -m pytest -q --override-ini=pythonpath={D}", {},
                              PACKAGE),
    "o-attached": ("python3 -m pytest -q -opythonpath={D}", {}, PACKAGE),
    # argparse splits a short option's word at its first `=` too
    "o-equals": ("python3 -m pytest -q -o=pythonpath={D}", {}, PACKAGE),
    "pytest-script": ("pytest -q --override-ini=pythonpath={D}", {}, PACKAGE),
    "addopts-variable": ("python3 -m pytest -q", {"PYTEST_ADDOPTS": "-o pythonpath={D}"},
                         PACKAGE),
    # the site names asked in a folder first on sys.path only (6ba97f0's syspathdirs)
    "site-name-o-attached": ("python3 -m pytest -q -opythonpath={D}", {}, PLAIN),
    # a plan granting pytest any words, the call giving the override (pytest's own words read)
    "pattern-plan": ("python3 -m pytest -q --override-ini=pythonpath={D}", {}, PACKAGE,
                     "python3 -m pytest *"),
    # the ini of the plan's operand (found from it up) naming a folder beside it
    "ini-of-the-operand": ("python3 -m pytest -q sub", {}, SUB_PACKAGE),
    "site-name-ini-of-the-operand": ("python3 -m pytest -q sub", {}, SUB_PLAIN),
    # (held at 3a66bc8: the spaced forms on the line, the run denied)
}

# (override-ini-attached, o-attached, o-equals, pytest-script, addopts-variable,
# site-name-o-attached: held since 378e7dd, collectopts refusing a pythonpath override)
# (pattern-plan: held since s58-pfix, callpytest reading a pattern entry's call)
# (site-name-addopts-variable, PYTEST_ADDOPTS' for a plain folder: held since c325de9, every
# folder taken under PYTEST_ADDOPTS; test_s56_gfix3 pins it)


@pytest.mark.parametrize("case", OVERRIDES)
def test_o_a_pythonpath_the_gate_does_not_read(case: str, tmp_path: Path) -> None:
    """Plan: the entry, ``Bash(cp *)``: the copy over the folder's module (``mypkg`` a
    package, ``tools`` a plain folder), then a test's import runs it."""
    needs("python3", "pytest")
    line, env, (files, module), *plan = OVERRIDES[case]
    folder = module.partition("/")[0]
    if "yaml" in module and subprocess.run(["python3", "-c", "import yaml"],
                                           capture_output=True, check=False).returncode:
        pytest.skip("yaml is not installed beside python3")
    line = line.replace("{D}", folder)
    assert _session(tmp_path, [f"Bash({plan[0] if plan else line})", "Bash(cp *)"], files,
                    [f"cp src/p {module}", line],
                    env={k: v.replace("{D}", folder) for k, v in env.items()}) is not None


# --- P: the modules a conftest's pytest_plugins names -------------------------------------------

PYTEST = ["Bash(python3 -m pytest -q)", "Bash(cp *)"]
#: Each case: the project's files (present before the session), the module the call writes (a
#: harmless one there before), the call's pytest line (``python3 -m pytest -q`` when not
#: given) and the plan's entry (the line when not given). pytest imports at its start every
#: module the initial conftests' ``pytest_plugins`` name, and (``PytestPluginManager.register``)
#: the ones each imported plugin module's own ``pytest_plugins`` names.
CONFTESTS: dict[str, tuple[Any, ...]] = {
    # a conftest taking a shared base's names by a star import
    "star-import-of-a-base": ({"conftest.py": "from conf_base import *\n",
                               "conf_base.py": "pytest_plugins = ['helpers']\n"}, "helpers.py"),
    # a plugin module naming plugins (an aggregator), by the conftest or the ini's -p
    "aggregator-package": ({"conftest.py": "pytest_plugins = ['plugs']\n",
                            "plugs/__init__.py": "pytest_plugins = ['plugs.db', 'plugs.api']\n",
                            "plugs/api.py": ""}, "plugs/db.py"),
    "aggregator-module": ({"conftest.py": "pytest_plugins = ['plugs']\n",
                           "plugs.py": "pytest_plugins = ['helpers']\n"}, "helpers.py"),
    "ini-plugin-names-plugins": ({"pytest.ini": "[pytest]\naddopts = -p plugs\n",
                                  "plugs.py": "pytest_plugins = ['helpers']\n"}, "helpers.py"),
    # the aggregator where the path finder finds it: the conftest's folder (its basedir), the
    # ini's pythonpath
    "aggregator-in-the-conftests-folder": ({"tests/conftest.py": "pytest_plugins = ['plugs']\n",
                                            "tests/plugs.py": "pytest_plugins = ['helpers']\n"},
                                           "tests/helpers.py"),
    "aggregator-in-pythonpath": ({"pytest.ini": "[pytest]\npythonpath = lib\n",
                                  "conftest.py": "pytest_plugins = ['plugs']\n",
                                  "lib/plugs.py": "pytest_plugins = ['helpers']\n"},
                                 "lib/helpers.py"),
    # a conftest between the root and the testpaths entry
    "testpaths-below-a-conftest": ({"pytest.ini": "[pytest]\ntestpaths = src/tests\n",
                                    "src/conftest.py": "pytest_plugins = ['helpers']\n",
                                    "src/tests/test_a.py": PASSES}, "helpers.py"),
    # the initial conftests of the plan's operands (each an anchor: its folders from the root
    # down, a node id's file's too), and under --pyargs every conftest collected (pytest honours
    # pytest_plugins in a non-top conftest there)
    "operand-folders-conftest": ({"tests/integration/conftest.py": "pytest_plugins = ['helpers']\n",
                                  "tests/integration/test_b.py": PASSES}, "helpers.py",
                                 "python3 -m pytest -q tests/integration"),
    "node-id-folders-conftest": ({"tests/sub/conftest.py": "pytest_plugins = ['helpers']\n",
                                  "tests/sub/test_b.py": PASSES}, "helpers.py",
                                 "python3 -m pytest -q tests/sub/test_b.py::test_a"),
    "pyargs-package-conftest": ({"mypkg/__init__.py": "", "mypkg/sub/__init__.py": "",
                                 "mypkg/sub/conftest.py": "pytest_plugins = ['helpers']\n",
                                 "mypkg/sub/test_a.py": PASSES}, "helpers.py",
                                "python3 -m pytest -q --pyargs mypkg"),
    # a plan granting pytest any words, the call naming the operand
    "pattern-plan-operand": ({"tests/integration/conftest.py": "pytest_plugins = ['helpers']\n",
                              "tests/integration/test_b.py": PASSES}, "helpers.py",
                             "python3 -m pytest -q tests/integration", "python3 -m pytest *"),
    # (held at e9c362a, pinned by test_s56_gfix3: the literal list, a name bound by an import)
}

# (star-import-of-a-base, aggregator-package, aggregator-module, ini-plugin-names-plugins: held
# since 378e7dd)


@pytest.mark.parametrize("case", CONFTESTS)
def test_p_a_conftests_plugins_import_at_start(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: the copy over the named module,
    then pytest imports it at its start."""
    needs("python3", "pytest")
    files, module, *given = CONFTESTS[case]
    line = given[0] if given else "python3 -m pytest -q"
    files = {"tests/test_a.py": PASSES, module: "", **files}
    assert _session(tmp_path, [f"Bash({given[-1] if given else line})", "Bash(cp *)"], files,
                    [f"cp src/p {module}", line]) is not None


# --- C: a plan's program running Python in a package's folder ----------------------------------

#: What the project's code runs: Python in the package's folder (s55-greview3 C1's shape).
RUN = "import subprocess\nsubprocess.run(['python3', '-c', 'import colorsys'], cwd='mypkg')\n"
#: Each case: the plan's entry beside pytest's (run last), the project's files running ``RUN``.
PROGRAMS = {
    # a folder run as a script (its __main__.py)
    "folder-run-as-a-script": ("python3 tools", {"tools/__main__.py": RUN}),
    # the plan's own code importing a project module
    "code-importing-a-project-module": ("python3 -c 'import tools.run'",
                                        {"tools/__init__.py": "", "tools/run.py": RUN}),
    # (held at 6ba97f0 and pinned by test_s56_gfix3: a script, one named like a test)
}

# (folder-run-as-a-script: held since 378e7dd)


@pytest.mark.parametrize("case", PROGRAMS)
def test_c_a_plans_program_runs_python_in_a_package(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)`` and the entry: ``cp src/p
    mypkg/colorsys.py`` (``mypkg`` a package), then the entry's program runs Python there."""
    needs("python3", "pytest")
    line, files = PROGRAMS[case]
    assert _session(tmp_path, [*PYTEST, f"Bash({line})"],
                    {"mypkg/__init__.py": "", "tests/test_a.py": PASSES, **files},
                    ["cp src/p mypkg/colorsys.py", line]) is not None


# --- A: a plugin the plan's line names -------------------------------------------------------

#: Each case: the plan's pytest line naming a plugin module by ``-p`` (pytest's
#: ``consider_preparse``: ``-p NAME`` or ``-pNAME``), the files, the module written.
PLUGINS_NAMED = {
    "p-attached": ("python3 -m pytest -q -phelper", {}, "helper.py"),
    "p-attached-dotted": ("python3 -m pytest -q -ptools.plug", {"tools/__init__.py": ""},
                          "tools/plug.py"),
    # (held at c325de9: the spaced form, planprograms guarding the module's files)
}



@pytest.mark.parametrize("case", PLUGINS_NAMED)
def test_a_a_plugin_the_plans_line_names_imports_at_start(case: str, tmp_path: Path) -> None:
    """Plan: the line, ``Bash(cp *)``: the copy over the named plugin's module, then pytest
    imports it at its start."""
    needs("python3", "pytest")
    line, files, module = PLUGINS_NAMED[case]
    assert _session(tmp_path, [f"Bash({line})", "Bash(cp *)"],
                    {"tests/test_a.py": PASSES, module: "", **files},
                    [f"cp src/p {module}", line]) is not None


# --- R: the run folder is a package's -------------------------------------------------------

#: Each case: the module written in the project's folder, which holds an ``__init__.py`` (a
#: repository that is itself a package: a Django app's, an Ansible collection's), and the test
#: file. ``python3 -m pytest`` puts the call's folder first on ``sys.path`` whatever it holds.
ROOTS = {
    # pytest's own module, imported at its start
    "runner-module": ("pluggy.py", PASSES),
    # a plugin's dependency, imported at its start (hypothesis' plugin)
    "plugin-dependency": ("_hypothesis_globals.py", PASSES),
    # a site module a test imports
    "site-module": ("yaml.py", "def test_a():\n    import yaml\n"),
    # (held at c325de9: a standard module's name, the -m folder's rule)
    # the tests' folder holding a FOLDER named __init__.py (no package to pytest, whose
    # resolve_package_path asks is_file(): tests is the test's basedir, first on sys.path)
    "init-is-a-folder": ("tests/colorsys.py", IMPORTS),
}

# (every case: held since 378e7dd, a run folder no exempt package, an __init__.py a file)


@pytest.mark.parametrize("case", ROOTS)
def test_r_a_module_in_a_package_run_folder_imports_first(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``; the project's folder holds
    ``__init__.py``: ``cp src/p MODULE``, then pytest imports it from the call's folder."""
    needs("python3", "pytest")
    module, test = ROOTS[case]
    name = module.rpartition("/")[2][:-3]
    if subprocess.run(["python3", "-c", f"import {name}"], capture_output=True,
                      check=False).returncode:
        pytest.skip(f"{name} is not installed beside python3")
    files = {"tests/__init__.py/.keep": ""} if "/" in module else {"__init__.py": ""}
    assert _session(tmp_path, PYTEST, {**files, "tests/test_a.py": test},
                    [f"cp src/p {module}", "python3 -m pytest -q"]) is not None


# --- V: the site folders of the plan's Python -------------------------------------------------

#: Makes a Python installation at ``$T/py`` (outside the project; a copy of python3's binary, its
#: standard library linked entry by entry: CPython finds its prefix from the binary's real
#: folder) whose own site folder holds the pytest plugin ``zzplug`` (a harmless module, an
#: entry point ``pytest11``) and a ``.pth`` naming python3's site folder (pytest).
BASE = r'''set -e
B=$T/py; R=$(python3 -c 'import sys; print(sys.base_prefix)')
V=$(python3 -c 'import sys; print("python%d.%d" % sys.version_info[:2])')
mkdir -p "$B/bin" "$B/lib/$V/site-packages"
cp "$(python3 -c 'import sys, os; print(os.path.realpath(sys.executable))')" "$B/bin/$V"
ln -s "$V" "$B/bin/python3"
for e in "$R/lib/$V"/*; do
    n=$(basename "$e"); [ "$n" = site-packages ] || ln -s "$e" "$B/lib/$V/$n"
done
S="$B/lib/$V/site-packages"
python3 -c 'import pytest, os; print(os.path.dirname(os.path.dirname(pytest.__file__)))' \
    > "$S/pytest-site.pth"
: > "$S/zzplug.py"; mkdir "$S/zzplug-1.0.dist-info"
printf "Metadata-Version: 2.1\nName: zzplug\nVersion: 1.0\n" > "$S/zzplug-1.0.dist-info/METADATA"
printf "[pytest11]\nzzplug = zzplug\n" > "$S/zzplug-1.0.dist-info/entry_points.txt"
'''
#: Makes the folder ``$T/plugins`` holding the pytest plugin ``zzplug`` as an installed
#: distribution (``pip install --target``'s layout).
PLUGINS = r'''set -e
D="$T/plugins/zzplug-1.0.dist-info"; mkdir -p "$D"; : > "$T/plugins/zzplug.py"
printf "Metadata-Version: 2.1\nName: zzplug\nVersion: 1.0\n" > "$D/METADATA"
printf "[pytest11]\nzzplug = zzplug\n" > "$D/entry_points.txt"
'''
#: Each case: the plan's Python (``{T}``: the folder outside the projects), what is made besides
#: the installation ``$T/py`` (None: only the plugin's folder ``PLUGINS``), the environment's
#: additions.
PYTHONS: dict[str, tuple[str, str | None, dict[str, str]]] = {
    # a venv (system site packages) of that installation, named by its path
    "venv-of-another-base": ("{T}/v/bin/python", "$T/py/bin/python3 -m venv --without-pip "
                             "--system-site-packages $T/v", {}),
    # a link to its interpreter elsewhere (uv's ~/.local/bin/python3.12, /usr/local/bin/python3
    # -> /opt/...), named by the plan or found on PATH
    "linked-interpreter-named": ("{T}/bin/python3", "mkdir -p $T/bin && ln -s "
                                 "$T/py/bin/python3.11 $T/bin/python3", {}),
    "linked-interpreter-on-path": ("python3", "mkdir -p $T/bin && ln -s $T/py/bin/python3.11 "
                                   "$T/bin/python3", {"PATH": "{T}/bin:{PATH}"}),
    # a version manager's shims on PATH (asdf's: ~/.asdf/shims, its installs elsewhere)
    "asdf-shims-on-path": ("python3", "mkdir -p $T/.asdf/installs/python $T/.asdf/shims && "
                           "mv $T/py $T/.asdf/installs/python/3.11.7 && printf '#!/bin/sh\\n"
                           "exec %s/.asdf/installs/python/3.11.7/bin/python3 \"$@\"\\n' \"$T\""
                           " > $T/.asdf/shims/python3 && chmod +x $T/.asdf/shims/python3",
                           {"PATH": "{T}/.asdf/shims:{PATH}"}),
    # a folder of installed distributions on the session's PYTHONPATH (pip --target's)
    "pythonpath-folder-of-distributions": ("python3", None, {"PYTHONPATH": "{T}/plugins"}),
}



@pytest.mark.parametrize("case", PYTHONS)
def test_v_a_plugin_of_the_plans_python_imports_at_start(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(PYTHON -m pytest -q)``, ``Bash(cp *)``: ``cp src/p zzplug.py`` (the call's
    folder is first on ``sys.path``), then pytest loads the plugin ``zzplug`` from it."""
    needs("python3", "pytest")
    python, made, env = PYTHONS[case]
    assert _session(tmp_path, [f"Bash({python} -m pytest -q)", "Bash(cp *)"],
                    {"tests/test_a.py": PASSES}, ["cp src/p zzplug.py", f"{python} -m pytest -q"],
                    setup=PLUGINS if made is None else f"{BASE}{made}\n", env=env) is not None


# --- K: costs: everyday calls the change denies -----------------------------------------------

#: A conftest computing its plugins (a common idiom: each fixtures module of a folder), a
#: package, a plain folder of helpers.
COMPUTED = {"conftest.py": "import glob, os\npytest_plugins = [f'tests.fixtures."
                           "{os.path.basename(f)[:-3]}' for f in glob.glob('tests/fixtures/"
                           "[!_]*.py')]\n",
            "tests/__init__.py": "", "tests/fixtures/__init__.py": "", "tests/fixtures/db.py": "",
            "tests/test_a.py": PASSES, "mypkg/__init__.py": "", "mypkg/core.py": "A = 1\n",
            "tools/helper.py": "A = 1\n"}
#: Each case: the call (allowed by the plan's grant ``Bash(sed *)``).
COSTS = {
    # e9c362a: a conftest's pytest_plugins not literal takes every module below the collecting
    # folder as a plugin: every Bash edit of a .py file is denied, though the computed names
    # are the fixtures folder's (its literal prefix `tests.fixtures.`)
    "computed-plugins-sed-a-packages-module": "sed -i s/A/B/ mypkg/core.py",
    "computed-plugins-sed-a-helper": "sed -i s/A/B/ tools/helper.py",
}



@pytest.mark.parametrize("case", COSTS)
def test_k_an_everyday_call_stays_allowed(case: str, tmp_path: Path) -> None:
    """The call is allowed (a strict-xfail cost row while the change denies it)."""
    project = hooked_project(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(sed *)"])
    for name, text in COMPUTED.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    assert first_denied(project, [COSTS[case]],
                        {**os.environ, "CLAUDE_PROJECT_DIR": str(project)}) is None
