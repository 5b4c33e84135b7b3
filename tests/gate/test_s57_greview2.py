"""Review s57 (s57-greview2) of s57-pfix (issue 29: what pytest and Python import at their start,
failing closed: ``sitenames`` resolving each interpreter as CPython's ``getpath`` does (a venv's
``pyvenv.cfg``, its base, a link's installation, shims) and reading editable finders' mappings;
``conftestplugins`` reading every conftest below the collecting folder and a computed
``pytest_plugins`` of f-strings; ``planruns`` counting a plan's ``-c`` code importing a project
module; ``planprograms`` reading an attached ``-pNAME``). Each case proves with real bash and the
real programs (python3 3.11, pytest 9) in a scratch project that the calls run the payload
(``open('zz', 'w')``), then asks the printed hook for each call in turn as Claude Code 2.1.332's
Bash tool runs them (the session's environment with ``env``'s additions, ``CLAUDE_PROJECT_DIR``
the project): the hook allowing them all is the finding, a strict xfail row of ``OPEN`` while
it is open. A case the change holds is a plain test pinning it.

Every payload only touches a file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs
from test_gate_files import _settings_hook, payload
from test_s56_greview3 import BASE

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail.
OPEN = LeftOpen()
_open = OPEN.add

#: What the copied module runs at its import; a test that passes.
PY_PAYLOAD = "open('zz', 'w').close()\n"
PASSES = "def test_a():\n    pass\n"


def _session(tmp_path: Path, entries: list[str], files: dict[str, str], calls: list[str],
             setup: str = "", env: dict[str, str] | None = None, proof: bool = True,
             base: str = "", prepare: str = "") -> str | None:
    """Runs ``calls`` one after the other under real bash in the project's folder of a hooked
    project with plan ``entries`` and ``files``, in the session's environment with ``env``'s
    values, asserting the payload ran (unless not ``proof``: a case the change holds, proved
    while it was open, asks only the hook: CI's budget); then in a second such project asks
    the printed hook for each call, running the allowed ones but the last: the first call
    denied, or None (the hole).
    What the bash text ``setup`` makes in ``$T`` (a folder outside both projects: a Python, a
    venv, a test folder; ``$B``: ``base``, a Python installation made once) serves both;
    what the bash text ``prepare`` makes in each project (``$B`` too) is there before its
    calls; ``{T}`` stands for it in ``env``'s values, the entries,
    the files and the calls, ``{PATH}`` for the test's ``PATH``. (``$T`` is made outside
    pytest's ``tmp_path``, whose ``pytest-of-USER`` would put the runner's name in a plan's
    operand.)"""
    shared = Path(tempfile.mkdtemp(prefix="s57g2-"))
    try:
        return _calls(tmp_path, shared, entries, files, calls, setup, env, proof, base,
                      prepare)
    finally:
        shutil.rmtree(shared, ignore_errors=True)


def _calls(tmp_path: Path, shared: Path, entries: list[str], files: dict[str, str],
           calls: list[str], setup: str, env: dict[str, str] | None, proof: bool,
           base: str, prepare: str) -> str | None:
    """``_session``'s work, ``$T`` being ``shared``."""

    def fill(text: str) -> str:
        return text.replace("{T}", str(shared)).replace("{PATH}", os.environ["PATH"])

    if setup:
        subprocess.run(["bash", "-c", setup], cwd=shared, check=True, timeout=120,
                       capture_output=True, env={**home_env(tmp_path / "home"), "T": str(shared),
                                                 "B": base})
    found: list[str | None] = []
    for side in ("proof", "run") if proof else ("run",):
        folder = tmp_path / side
        project = hooked_project(folder, [fill(e) for e in entries])
        for name, text in {**files, "src/p": PY_PAYLOAD}.items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(fill(text))
        if prepare:
            subprocess.run(["bash", "-c", prepare], cwd=project, check=True, timeout=120,
                           capture_output=True, env={**os.environ, "B": base})
        made = {**home_env(folder / "home"), "CLAUDE_PROJECT_DIR": str(project),
                **{k: fill(v).replace("{P}", str(project)) for k, v in (env or {}).items()}}
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
    return found[-1]


def _proof(request: pytest.FixtureRequest) -> bool:
    """Whether the running case is a row of ``OPEN`` (its payload proved each run)."""
    return OPEN.reason(request.node.name) is not None


# --- V: the site folders of a venv, read from its pyvenv.cfg --------------------------------------

#: ``BASE`` (test_s56_greview3: a Python installation, here ``$B/py``, whose own site folder
#: holds the pytest plugin ``zzplug``), and a venv ``$T/v`` of it, its ``pyvenv.cfg`` then
#: changed.
#: CPython reads ``pyvenv.cfg`` twice: ``getpath`` takes the FIRST ``home`` line (its loop
#: breaks), ``site.venv()`` starts from ``system_site = "true"`` and only an
#: ``include-system-site-packages`` line changes it (Lib/site.py 3.11, line 514).
VENVS = {
    # no include-system-site-packages line (a venv written by a tool that leaves it out): the
    # base's site folders are read
    "pyvenv-without-the-system-site-line": "$B/py/bin/python3 -m venv --without-pip $T/v\n"
                                           "sed -i /include-system-site-packages/d "
                                           "$T/v/pyvenv.cfg\n",
    # a second home line (the base CPython runs: the first)
    "pyvenv-two-home-lines": "$B/py/bin/python3 -m venv --without-pip --system-site-packages "
                             "$T/v\nprintf 'home = %s\\n' \"$(dirname \"$(python3 -c 'import "
                             "sys; print(sys.executable)')\")\" >> $T/v/pyvenv.cfg\n",
}

# (every case: held since e095b80, each home read, a missing line read as true)


@pytest.fixture(scope="module")
def base_python() -> Iterator[str]:
    """A folder holding ``BASE``'s installation ``py`` (made once: its copy is slow)."""
    folder = tempfile.mkdtemp(prefix="s57g2-base-")
    try:
        subprocess.run(["bash", "-c", BASE], env={**os.environ, "T": folder}, check=True,
                       capture_output=True, timeout=120)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("case", VENVS)
def test_v_a_venvs_base_plugin_imports_at_start(case: str, tmp_path: Path, base_python: str,
                                               request: pytest.FixtureRequest) -> None:
    """Plan ``Bash({T}/v/bin/python -m pytest -q)``, ``Bash(cp *)``: ``cp src/p zzplug.py``
    (the call's folder first on ``sys.path``), then pytest loads the base's plugin ``zzplug``
    from it."""
    needs("python3", "pytest")
    assert _session(tmp_path, ["Bash({T}/v/bin/python -m pytest -q)", "Bash(cp *)"],
                    {"tests/test_a.py": PASSES},
                    ["cp src/p zzplug.py", "{T}/v/bin/python -m pytest -q"],
                    setup="set -e\n" + VENVS[case], proof=_proof(request),
                    base=base_python) is not None


# --- L: a compiled launcher in the interpreter's stead ---------------------------------------

#: Makes ``$T/mise/shims/python3``, an ELF launcher (as mise's shims, symlinks to the mise
#: binary, and rye's are) running ``base_python``'s installation (its site folder holds the
#: plugin ``zzplug``).
LAUNCHER = r"""mkdir -p $T/mise/shims
cat > $T/shim.c <<C
#include <unistd.h>
int main(int c, char **v) { v[0] = "$B/py/bin/python3.11"; execv(v[0], v); return 127; }
C
gcc -o $T/mise/shims/python3 $T/shim.c
"""

# (held since 0d6217b: a launcher in an interpreter's stead is a shim)



def test_l_a_launchers_target_plugin_imports_at_start(tmp_path: Path, base_python: str,
                                                      request: pytest.FixtureRequest) -> None:
    """The launcher's folder first on PATH; plan ``Bash(python3 -m pytest -q)``, ``Bash(cp
    *)``: ``cp src/p zzplug.py``, then pytest (the launcher's target) loads ``zzplug`` from the
    call's folder."""
    needs("python3", "pytest", "gcc")
    assert _session(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
                    {"tests/test_a.py": PASSES}, ["cp src/p zzplug.py", "python3 -m pytest -q"],
                    setup="set -e\n" + LAUNCHER, env={"PATH": "{T}/mise/shims:{PATH}"},
                    base=base_python, proof=_proof(request)) is not None


# --- E: what a site folder's .pth files add, read as not exact -----------------------------------

#: Makes the active venv ``$T/venv`` holding the plugin ``zzplug`` (``pytest11``), which imports
#: at its load ``acme_utils``: a package of ``$T/acme``, no site folder's, that the venv's
#: ``.pth`` files make importable (each case's lines, after these).
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
#: The ``editables`` project's layout (hatchling's ``dev-mode-exact``, pdm-backend's
#: ``editable-backend = "editables"``): ``_editable_impl_NAME.pth`` importing
#: ``_editable_impl_NAME``, which appends editables' ``RedirectingFinder`` to ``sys.meta_path``
#: and maps the module to its source (``editables.redirector``'s behaviour written out here).
EDITABLES = r"""mkdir "$S/editables" && : > "$S/editables/__init__.py"
cat > "$S/editables/redirector.py" <<'PY'
import importlib.abc, importlib.util, sys


class RedirectingFinder(importlib.abc.MetaPathFinder):
    _redirections = {}

    @classmethod
    def map_module(cls, name, path):
        cls._redirections[name] = path

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if "." in fullname or path is not None or fullname not in cls._redirections:
            return None
        return importlib.util.spec_from_file_location(fullname, cls._redirections[fullname])

    @classmethod
    def install(cls):
        if cls not in sys.meta_path:
            sys.meta_path.append(cls)
PY
cat > "$S/_editable_impl_acme_utils.py" <<PY
from editables.redirector import RedirectingFinder as F
F.install()
F.map_module('acme_utils', '$A/acme_utils/__init__.py')
PY
echo "import _editable_impl_acme_utils" > "$S/_editable_impl_acme_utils.pth"
"""
#: Each case: the lines making ``acme_utils`` importable.
ADDED = {
    # a finder of another name than setuptools' (its MAPPING not read)
    "editables-redirecting-finder": EDITABLES,
    # a .pth import line adding the folder itself (site's own idiom; `import sys;
    # sys.path.append(...)` alike, proved too)
    "pth-line-addsitedir": """echo "import site; site.addsitedir('$A')" > "$S/acme.pth"\n""",
    # a hidden .pth's path line (3.11.7's site.addsitedir reads every name ending in .pth)
    "hidden-pth-path-line": 'echo "$A" > "$S/.acme.pth"\n',
    # a .pth line's own code adding to sys.path by an operator; a module appending to an
    # alias of sys.path
    "pth-line-adds-to-sys-path": """echo "import sys; sys.path += ['$A']" > "$S/acme.pth"\n""",
    "module-appends-by-an-alias": ("printf 'import sys\\npaths = sys.path\\npaths.append(\"%s\")"
                                   "\\n' \"$A\" > \"$S/_acme_paths.py\"\n"
                                   "echo 'import _acme_paths' > \"$S/acme_paths.pth\"\n"),
    # sys imported under another name, in a .pth line and in a module a .pth imports
    "pth-line-sys-imported-as": """echo "import sys as s; s.path.append('$A')" > "$S/acme.pth"\n""",
    "module-sys-imported-as": ("printf 'import sys as s\\np = s.path\\np.append(\"%s\")\\n' "
                               "\"$A\" > \"$S/_acme_paths.py\"\n"
                               "echo 'import _acme_paths' > \"$S/acme_paths.pth\"\n"),
    # a .pth's path line, then an import line taking a module from that folder
    "pth-imports-from-its-path-line": ("mkdir -p $T/boot && printf 'import sys\\n"
                                       "sys.path.append(\"%s\")\\n' \"$A\" > "
                                       "$T/boot/acme_boot.py\n"
                                       "printf '%s\\nimport acme_boot\\n' \"$T/boot\" > "
                                       "\"$S/acme.pth\"\n"),
    # a .pth importing a module of the folder another .pth adds
    "pth-imports-from-another-pths-folder": ("mkdir -p $T/boot && printf 'import sys\\n"
                                             "sys.path.append(\"%s\")\\n' \"$A\" > "
                                             "$T/boot/acme_boot.py\n"
                                             "echo \"$T/boot\" > \"$S/a_boot.pth\"\n"
                                             "echo 'import acme_boot' > \"$S/b_boot.pth\"\n"),
    # a finder module appending by an alias of sys.meta_path
    "finder-appended-by-an-alias": r"""cat > "$S/_acme_finder.py" <<PY
import importlib.abc, importlib.util, sys


class F(importlib.abc.MetaPathFinder):
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name == 'acme_utils':
            return importlib.util.spec_from_file_location(name, '$A/acme_utils/__init__.py')


finders = sys.meta_path
finders.append(F)
PY
echo "import _acme_finder" > "$S/_acme_finder.pth"
""",
}
#: The environment of an active venv (its bin first on PATH).
ACTIVE = {"PATH": "{T}/venv/bin:{PATH}", "VIRTUAL_ENV": "{T}/venv"}

# (editables-redirecting-finder: held since 29a052b; pth-line-addsitedir, hidden-pth-path-line,
# finder-appended-by-an-alias: held since 229132d)
# (pth-line-adds-to-sys-path, module-appends-by-an-alias: held since 5bbb9bb)
# (pth-line-sys-imported-as, module-sys-imported-as, pth-imports-from-its-path-line: held
# since c7fe9a3; pth-imports-from-another-pths-folder since f957d30)


@pytest.mark.parametrize("case", ADDED)
def test_e_a_pth_makes_a_plugins_import_found_elsewhere(case: str, tmp_path: Path,
                                                       request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p acme_utils.py``, then
    pytest loads ``zzplug``, whose import meets the call's folder's module first (``-m``'s
    folder leads ``sys.path``; a finder appended comes after the path finder)."""
    needs("python3", "pytest")
    assert _session(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
                    {"tests/test_a.py": PASSES},
                    ["cp src/p acme_utils.py", "python3 -m pytest -q"],
                    setup=PLUGIN + ADDED[case], env=ACTIVE, proof=_proof(request)) is not None


# --- P: the conftests whose pytest_plugins pytest imports ----------------------------------------

#: A conftest naming ``helpers``; the test folder ``$T/ext`` outside the project holding one.
NAMES_HELPERS = "pytest_plugins = ['helpers']\n"
EXT = ("mkdir -p $T/ext && printf \"pytest_plugins = ['helpers']\\n\" > $T/ext/conftest.py && "
       "printf 'def test_a():\\n    pass\\n' > $T/ext/test_e.py")
DEEP = ("mkdir -p $T/libs/a/b/tests && printf \"pytest_plugins = ['helpers']\\n\" > "
        "$T/libs/a/b/tests/conftest.py && printf 'def test_a():\\n    pass\\n' > "
        "$T/libs/a/b/tests/test_e.py")
#: A monorepo's shared fixtures outside the project (on the session's PYTHONPATH): an
#: aggregator naming ``helpers``.
SHARED = ("mkdir -p $T/shared && printf \"pytest_plugins = ['helpers']\\n\" > "
          "$T/shared/plugs.py")
#: Each case: the project's files (present before the session), the calls (the last: the
#: pytest line), the plan's pytest entry (the last call's when not given), the setup, the
#: environment's additions.
CONFTESTS: dict[str, tuple[Any, ...]] = {
    # (a regression of 3096751: main read tests/conftest.py) a file named pyvenv.cfg makes
    # conftestplugins._below skip the folder as a venv's, but pytest's _try_load_conftest loads
    # the anchor's test* folders' conftests whatever they hold
    "pyvenv-cfg-beside-a-test-folders-conftest": (
        {"tests/test_a.py": PASSES, "tests/conftest.py": NAMES_HELPERS, "tests/helpers.py": ""},
        ["cp src/p tests/pyvenv.cfg", "cp src/p tests/helpers.py", "python3 -m pytest -q"]),
    # the same above a testpaths entry (pytest loads an anchor's conftests, its folders' from
    # the root down, whatever their names)
    "pyvenv-cfg-above-a-testpaths-entry": (
        {"src/integration/test_a.py": PASSES, "src/integration/conftest.py": NAMES_HELPERS,
         "helpers.py": "", "pytest.ini": "[pytest]\ntestpaths = src/integration\n"},
        ["cp src/p src/pyvenv.cfg", "cp src/p helpers.py", "python3 -m pytest -q"]),
    # an anchor outside the project: an operand, a testpaths entry
    "operand-outside-the-project": ({"helpers.py": ""}, ["cp src/p helpers.py",
                                                         "python3 -m pytest -q {T}/ext"], None,
                                    EXT),
    "testpaths-outside-the-project": ({"helpers.py": "", "pytest.ini": "[pytest]\ntestpaths = "
                                       "{T}/ext\n"}, ["cp src/p helpers.py",
                                                      "python3 -m pytest -q"], None, EXT),
    # a str value is split at its commas: an f-string's interpolation may hold one
    "f-string-value-split-at-commas": (
        {"conftest.py": "EXTRA = 'db,helpers'\npytest_plugins = f'tests.fixtures.{EXTRA}'\n",
         "tests/__init__.py": "", "tests/fixtures/__init__.py": "", "tests/fixtures/db.py": "",
         "tests/test_a.py": PASSES, "helpers.py": ""},
        ["cp src/p helpers.py", "python3 -m pytest -q"]),
    # the module's attribute set by no assignment to the name
    "globals-update": ({"conftest.py": "globals().update(pytest_plugins=['helpers'])\n",
                        "tests/test_a.py": PASSES, "helpers.py": ""},
                       ["cp src/p helpers.py", "python3 -m pytest -q"]),
    # (`import sys; sys.modules[__name__].pytest_plugins = [...]`: an attribute, proved too)
    "locals-update": ({"conftest.py": "locals().update({'pytest_' + 'plugins': ['helpers']})\n",
                       "tests/test_a.py": PASSES, "helpers.py": ""},
                      ["cp src/p helpers.py", "python3 -m pytest -q"]),
    # the conftest replacing itself in sys.modules by a module naming plugins (pytest's
    # import_path returns sys.modules' entry; the mismatch check reads its __file__)
    "conftest-replaced-in-sys-modules": (
        {"conftest.py": "import sys\n\nimport conf_base\n\nconf_base.__file__ = __file__\n"
                        "sys.modules[__name__] = conf_base\n",
         "conf_base.py": NAMES_HELPERS, "tests/test_a.py": PASSES, "helpers.py": ""},
        ["cp src/p helpers.py", "python3 -m pytest -q"]),
    # (a regression of 0d6217b: denied at f957d30) setattr reached by an attribute, the name split
    "builtins-setattr": ({"conftest.py": "import builtins\nimport sys\n\nbuiltins.setattr("
                                         "sys.modules[__name__], 'pytest_' + 'plugins', "
                                         "['helpers'])\n",
                          "tests/test_a.py": PASSES, "helpers.py": ""},
                         ["cp src/p helpers.py", "python3 -m pytest -q"]),
    # builtins imported under another name
    "builtins-alias-setattr": ({"conftest.py": "import builtins as b\nimport sys\n\nb.setattr("
                                               "sys.modules[__name__], 'pytest_' + 'plugins', "
                                               "['helpers'])\n",
                                "tests/test_a.py": PASSES, "helpers.py": ""},
                               ["cp src/p helpers.py", "python3 -m pytest -q"]),
    # the anchor outside the project named by a runner's recipe, not the plan
    "anchor-in-a-makefile-recipe": ({"helpers.py": "", "Makefile": "test:\n\tpython3 -m pytest "
                                     "-q {T}/ext\n"}, ["cp src/p helpers.py", "make test"], None,
                                    EXT),
    # a named module found where conftestplugins does not read (the session's PYTHONPATH;
    # an installed module of the venv's site folder alike, proved too) naming its own
    "aggregator-on-pythonpath": ({"conftest.py": "pytest_plugins = ['plugs']\n",
                                  "tests/test_a.py": PASSES, "helpers.py": ""},
                                 ["cp src/p helpers.py", "python3 -m pytest -q"], None, SHARED,
                                 {"PYTHONPATH": "{T}/shared"}),
    # pytest's testpaths glob is recursive (glob.iglob(path, recursive=True))
    "testpaths-recursive-glob": ({"helpers.py": "", "pytest.ini": "[pytest]\ntestpaths = "
                                  "{T}/libs/**/tests\n"}, ["cp src/p helpers.py",
                                                          "python3 -m pytest -q"], None, DEEP),
}

# (pyvenv-cfg-beside-a-test-folders-conftest, operand-outside-the-project,
# testpaths-outside-the-project, f-string-value-split-at-commas: held since e095b80)
# (globals-update, testpaths-recursive-glob, aggregator-on-pythonpath: held since 229132d)
# (locals-update: held since 5bbb9bb; pyvenv-cfg-above-a-testpaths-entry,
# conftest-replaced-in-sys-modules since f957d30)
# (builtins-setattr: held since 80ad7a0)
# (anchor-in-a-makefile-recipe: held since s62-gfix, a recipe's pytest operand outside make's
# folder a doubt of every folder)


@pytest.mark.parametrize("case", CONFTESTS)
def test_p_a_conftests_plugins_import_at_start(case: str, tmp_path: Path,
                                               request: pytest.FixtureRequest) -> None:
    """Plan: the pytest line, ``Bash(cp *)``: the copies, then pytest imports the module a
    conftest it loads first names."""
    needs("python3", "pytest")
    files, calls, *more = CONFTESTS[case]
    entry = more[0] if more and more[0] else calls[-1]
    assert _session(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files, calls,
                    setup=more[1] if len(more) > 1 else "",
                    env=more[2] if len(more) > 2 else None, proof=_proof(request)) is not None


# --- G: a zipped egg's plugin --------------------------------------------------------------------

#: Makes the active venv ``$T/venv`` holding a zipped egg (easy_install's layout) listed in
#: ``easy-install.pth``: the pytest plugin ``zzegg``, its module and metadata in the archive
#: (importlib.metadata reads it through zipfile.Path).
EGG = r"""set -e
python3 -m venv --without-pip --system-site-packages "$T/venv"
S=$(echo "$T"/venv/lib/python3*/site-packages)
python3 - "$S" <<'PY'
import os, sys, zipfile
site = sys.argv[1]
with zipfile.ZipFile(os.path.join(site, "zzegg-1.0-py3.11.egg"), "w") as z:
    z.writestr("zzegg.py", "")
    z.writestr("EGG-INFO/PKG-INFO", "Metadata-Version: 1.1\nName: zzegg\nVersion: 1.0\n")
    z.writestr("EGG-INFO/entry_points.txt", "[pytest11]\nzzegg = zzegg\n")
with open(os.path.join(site, "easy-install.pth"), "w") as f:
    f.write("./zzegg-1.0-py3.11.egg\n")
PY
"""

# (held since s58-pfix: sitefinders.archive_tops)


def test_g_a_zipped_eggs_plugin_imports_at_start(tmp_path: Path,
                                                request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p zzegg.py``, then pytest
    loads the egg's entry point ``zzegg``: the call's folder's module comes first."""
    needs("python3", "pytest")
    assert _session(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
                    {"tests/test_a.py": PASSES}, ["cp src/p zzegg.py", "python3 -m pytest -q"],
                    setup=EGG, env=ACTIVE, proof=_proof(request)) is not None


# --- N: a submodule of a namespace package a plugin imports ------------------------------------

#: Makes the active venv ``$T/venv`` holding the plugin ``zzplug`` (``pytest11``), whose module
#: each case writes (with what it imports).
NS_PLUGIN = r"""set -e
V=$T/venv
python3 -m venv --without-pip --system-site-packages "$V"
S=$(echo "$V"/lib/python3*/site-packages)
mkdir "$S/zzplug-1.0.dist-info"
printf 'Metadata-Version: 2.1\nName: zzplug\nVersion: 1.0\n' > "$S/zzplug-1.0.dist-info/METADATA"
printf '[pytest11]\nzzplug = zzplug\n' > "$S/zzplug-1.0.dist-info/entry_points.txt"
"""
#: Each case: what the venv holds, the project's portion of the namespace, the module written.
NAMESPACES = {
    # the site folder's namespace `acme` (no __init__) holding acme/utils.py
    "site-namespace-member": ('mkdir -p "$S/acme" && : > "$S/acme/utils.py"\n'
                              'echo "import acme.utils" > "$S/zzplug.py"\n',
                              "acme/foo/__init__.py", "acme/utils.py"),
    # two levels of namespaces (google-cloud-*'s google/cloud/, azure-mgmt-*'s azure/mgmt/)
    "nested-namespace-member": ('mkdir -p "$S/acme/cloud" && : > "$S/acme/cloud/utils.py"\n'
                                'echo "import acme.cloud.utils" > "$S/zzplug.py"\n',
                                "acme/cloud/foo/__init__.py", "acme/cloud/utils.py"),
    # the namespace in an editable install's source folder (a .pth path line: setuptools' src
    # layout, hatchling's default): a module `acme.py` of the call's folder beats it
    "editable-source-namespace": ('A=$T/acme-utils/src; mkdir -p "$A/acme/utils" && '
                                  ': > "$A/acme/utils/__init__.py"\n'
                                  'echo "$A" > "$S/__editable__.acme_utils-1.0.pth"\n'
                                  'echo "import acme.utils" > "$S/zzplug.py"\n', "", "acme.py"),
}

# (site-namespace-member: held since 56e2246; nested-namespace-member since 5bbb9bb)


@pytest.mark.parametrize("case", NAMESPACES)
def test_n_a_namespace_member_a_plugin_imports(case: str, tmp_path: Path,
                                             request: pytest.FixtureRequest) -> None:
    """The project a portion of the namespace (a namespace package's repository, as
    ``sphinxcontrib-*``, ``jaraco.*``, ``google-cloud-*`` lay themselves out) where the case
    names one. Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p MODULE``, then
    pytest loads ``zzplug``: the namespace's first portion is the call's folder's."""
    needs("python3", "pytest")
    venv, portion, module = NAMESPACES[case]
    assert _session(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
                    {"tests/test_a.py": PASSES, **({portion: "A = 1\n"} if portion else {})},
                    [f"cp src/p {module}", "python3 -m pytest -q"],
                    setup=NS_PLUGIN + venv, env=ACTIVE, proof=_proof(request)) is not None


# --- Z: an installation's own sys.path entries -------------------------------------------------

#: ``base_python``'s installation copied into the project (``py``: a python-build-standalone
#: tree unpacked there, a hermetic toolchain's), and the payload ``src/z``: a zip holding
#: ``colorsys.py`` (the session's file: its text the payload).
LOCAL = ("cp -a \"$B/py\" py && python3 -c \"import zipfile; z = zipfile.ZipFile('src/z', 'w'); "
         "z.writestr('colorsys.py', open('src/p').read()); z.close()\"")

# (held since cedc343: each PATH folder's installation's zip guarded)


def test_z_an_installations_zip_entry_comes_before_its_standard_library(
        tmp_path: Path, base_python: str, request: pytest.FixtureRequest) -> None:
    """The installation's ``bin`` first on the session's PATH; plan ``Bash(python3 -m pytest
    -q)``, ``Bash(cp *)``: ``cp src/z py/lib/python311.zip``, then a test's ``import
    colorsys`` takes the zip's (sys.path: the test's folder, the zip, the standard library)."""
    needs("python3", "pytest")
    version = "".join(map(str, sys.version_info[:2]))
    assert _session(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
                    {"tests/test_a.py": "import colorsys\n" + PASSES,
                     "pytest.ini": "[pytest]\ntestpaths = tests\n"},
                    [f"cp src/z py/lib/python{version}.zip", "python3 -m pytest -q"],
                    env={"PATH": "{P}/py/bin:{PATH}"}, base=base_python, prepare=LOCAL,
                    proof=_proof(request)) is not None


# --- K: costs: everyday calls the change denies -------------------------------------------------

#: Makes ``$T/macbin/python3``, a file opening as a Mach-O universal binary does (``ca fe ba
#: be``: every Mac's ``/usr/bin/python3``, the Xcode stub, is one), last on the session's PATH.
UNIVERSAL = ("mkdir -p $T/macbin && printf '\\xca\\xfe\\xba\\xbe\\x00\\x00\\x00\\x02' > "
             "$T/macbin/python3 && chmod +x $T/macbin/python3")
#: Makes the active venv ``$T/venv`` holding ``zope.interface`` with setuptools' namespace
#: ``.pth`` (its ``_nspkg_tmpl`` line, as zope's wheels still ship it).
NSPKG = r"""set -e
V=$T/venv
python3 -m venv --without-pip --system-site-packages "$V"
S=$(echo "$V"/lib/python3*/site-packages)
mkdir -p "$S/zope/interface" && : > "$S/zope/interface/__init__.py"
cat > "$S/zope.interface-6.0-py3.11-nspkg.pth" <<'PTH'
import sys, types, os;has_mfs = sys.version_info > (3, 5);p = os.path.join(sys._getframe(1).f_locals['sitedir'], *('zope',));importlib = has_mfs and __import__('importlib.util');has_mfs and __import__('importlib.machinery');m = has_mfs and sys.modules.setdefault('zope', importlib.util.module_from_spec(importlib.machinery.PathFinder.find_spec('zope', [os.path.dirname(p)])));m = m or sys.modules.setdefault('zope', types.ModuleType('zope'));mp = (m or []) and m.__dict__.setdefault('__path__',[]);(p not in mp) and mp.append(p)
PTH
"""  # noqa: E501
#: A nested conftest sharing fixtures by a star import (a common idiom; the module holds no
#: pytest_plugins).
STAR = {"tests/__init__.py": "", "tests/fixtures.py": "import pytest\n\n\n@pytest.fixture\n"
        "def db():\n    return 1\n", "tests/unit/__init__.py": "",
        "tests/unit/conftest.py": "from tests.fixtures import *  # noqa: F403\n",
        "tests/unit/test_b.py": "def test_b(db):\n    pass\n", "src/app.py": "A = 1\n"}
#: Each case: the call (allowed by the plan's grant ``Bash(sed *)``) on a module of a project
#: whose tests' folder holds a helper, and what the project or the session holds besides.
COSTS: dict[str, tuple[str, str, dict[str, str]]] = {
    "universal-binary-on-path-sed-a-root-module": ("sed -i s/A/B/ app.py", UNIVERSAL, {}),
    "universal-binary-on-path-sed-a-tests-helper": ("sed -i s/A/B/ tests/helpers.py", UNIVERSAL,
                                                    {}),
    # (a regression of 3096751: main allowed it)
    "nested-conftest-star-import-sed-a-module": ("sed -i s/A/B/ src/app.py", "", STAR),
    # (a regression of 0d6217b, held since 80ad7a0) the star's own module
    "nested-conftest-star-import-sed-its-module": ("sed -i s/1/2/ tests/fixtures.py", "", STAR),
    # (a regression of 229132d: main allowed it) setuptools' namespace .pth in the active venv
    "setuptools-nspkg-pth-sed-a-root-module": ("sed -i s/A/B/ app.py", NSPKG, {}),
    # (a regression of 229132d: main allowed it) a conftest's everyday monkeypatch fixture
    "monkeypatch-setattr-in-a-conftest-sed-a-module": ("sed -i s/A/B/ src/app.py", "", {
        "conftest.py": "import pytest\n\n\n@pytest.fixture(autouse=True)\ndef no_network("
                       "monkeypatch):\n    monkeypatch.setattr('socket.socket', None)\n",
        "src/app.py": "A = 1\n"}),
}



# (nested-conftest-star-import-sed-a-module, monkeypatch-setattr-in-a-conftest-sed-a-module,
# setuptools-nspkg-pth-sed-a-root-module: held since 0d6217b)
_open("test_k_an_everyday_call_stays_allowed", "at 0d6217b (held at f957d30) a binary whose "
      "prefix is not at bin/.. is read as a shim: macOS's /usr/bin/python3 stub makes every "
      "module a site name again", "universal-binary-on-path-sed-a-root-module",
      "universal-binary-on-path-sed-a-tests-helper")


@pytest.mark.parametrize("case", COSTS)
def test_k_an_everyday_call_stays_allowed(case: str, tmp_path: Path) -> None:
    """The call is allowed (a strict-xfail cost row while the change denies it)."""
    call, setup, more = COSTS[case]
    shared = tmp_path / "shared"
    shared.mkdir()
    if setup:
        subprocess.run(["bash", "-c", setup], check=True, env={**os.environ, "T": str(shared)})
    project = hooked_project(tmp_path / "run", ["Bash(python3 -m pytest -q)", "Bash(sed *)"])
    for name, text in {"tests/test_a.py": PASSES, "tests/helpers.py": "A = 1\n",
                       "app.py": "A = 1\n", **more}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(project),
           "PATH": f"{shared}/venv/bin:{os.environ['PATH']}:{shared}/macbin"}
    assert first_denied(project, [call], env) is None
