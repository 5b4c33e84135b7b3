"""Review s58 (s58-preview) of s58-pfix (issue 29: what Python and pytest import at their start,
failing closed: the site folders of the plan's Pythons (``interpreters``, ``sitenames``), what
their ``.pth`` files, editable finders and entry points add (``sitefinders``), the conftests
and the modules their ``pytest_plugins`` name (``conftestplugins``), pytest's settings and
anchors (``pytestini``), and a faster site reading that must give the same answers). Each
case proves with real bash 5.2 and the real programs (python3 3.11, pytest 9) in a scratch
project that the calls run the payload (``open('zz', 'w')``), then asks the printed hook for
each call in turn as Claude Code 2.1.332's Bash tool runs them (the session's environment with
the case's additions, ``CLAUDE_PROJECT_DIR`` the project): the hook allowing them all is the
finding, a strict xfail row of ``OPEN`` while it is open. A case the change holds is a plain
test pinning it; a cost (a careful user's everyday call denied though harmless) is a row
asserting the call is allowed.

Every payload only touches a file."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs
from test_s56_greview3 import BASE
from test_s57_greview2 import _session

#: Real bash, python3, pytest and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail.
OPEN = LeftOpen()
_open = OPEN.add

#: A test that passes; the plan of most cases: pytest's line and a copier.
PASSES = "def test_a():\n    pass\n"
PLAN = ["Bash(python3 -m pytest -q)", "Bash(cp *)"]

def _proof(request: pytest.FixtureRequest) -> bool:
    """Whether the running case is a row of ``OPEN`` (its payload proved each run)."""
    return OPEN.reason(request.node.name) is not None


# --- T: where the session's environment puts the plan's Python's site folders ----------------

#: Makes ``~/venv`` (``$T/home``: the case's home), a venv with system site packages holding
#: the pytest plugin ``zzplug``, whose ``pytest_configure`` imports ``acme_utils`` (installed
#: beside it: a plugin importing its dependency lazily), and a ``pytest`` console script.
HOME_VENV = r"""set -e
V=$T/home/venv
python3 -m venv --without-pip --system-site-packages "$V"
S=$(echo "$V"/lib/python3*/site-packages)
printf 'def pytest_configure(config):\n    import acme_utils\n' > "$S/zzplug.py"
: > "$S/acme_utils.py"
mkdir "$S/zzplug-1.0.dist-info"
printf 'Metadata-Version: 2.1\nName: zzplug\nVersion: 1.0\n' > "$S/zzplug-1.0.dist-info/METADATA"
printf '[pytest11]\nzzplug = zzplug\n' > "$S/zzplug-1.0.dist-info/entry_points.txt"
printf '#!%s/bin/python3\nimport sys\nfrom pytest import console_main\nsys.exit(console_main())\n' \
    "$V" > "$V/bin/pytest"
chmod +x "$V/bin/pytest"
"""
#: ``BASE``'s installation ``$T/py`` with its plugin moved to the ``lib64`` site folder that
#: ``PYTHONPLATLIBDIR=lib64`` makes ``site`` read (``prefix/<platlibdir>/pythonX.Y/site-packages``
#: first; the standard library then found there too: its entries linked).
LIB64 = BASE + r"""
V=$(python3 -c 'import sys; print("python%d.%d" % sys.version_info[:2])')
mkdir -p $T/py/lib64/$V/site-packages
mv $T/py/lib/$V/site-packages/zzplug* $T/py/lib64/$V/site-packages/
for e in $T/py/lib/$V/*; do n=$(basename $e); [ -e $T/py/lib64/$V/$n ] || ln -s $e $T/py/lib64/$V/$n
done
"""
#: Makes ``$T/bin/pytest``, a link to the console script of ``$T/pipx/venvs/pytest`` (pipx's
#: and ``uv tool``'s layout: a venv of its own, no folder of it on PATH), whose site folder
#: holds ``HOME_VENV``'s plugin.
PIPX = r"""set -e
V=$T/pipx/venvs/pytest
python3 -m venv --without-pip --system-site-packages "$V"
S=$(echo "$V"/lib/python3*/site-packages)
printf 'def pytest_configure(config):\n    import acme_utils\n' > "$S/zzplug.py"
: > "$S/acme_utils.py"
mkdir "$S/zzplug-1.0.dist-info"
printf 'Metadata-Version: 2.1\nName: zzplug\nVersion: 1.0\n' > "$S/zzplug-1.0.dist-info/METADATA"
printf '[pytest11]\nzzplug = zzplug\n' > "$S/zzplug-1.0.dist-info/entry_points.txt"
printf '#!%s/bin/python\nimport sys\nfrom pytest import console_main\nsys.exit(console_main())\n' \
    "$V" > "$V/bin/pytest"
chmod +x "$V/bin/pytest"
mkdir -p $T/bin && ln -s "$V/bin/pytest" $T/bin/pytest
"""
#: ``BASE``'s installation ``$T/py`` and a copy of its binary in ``$T/py/x/bin`` beside another
#: version's standard library (``$T/py/x/lib/python3.12/os.py``): getpath searches up for its
#: own version's landmark (``lib/python3.11/os.py``) and finds ``$T/py``.
DECOY = BASE + r"""
mkdir -p $T/py/x/bin $T/py/x/lib/python3.12
cp $T/py/bin/python3.11 $T/py/x/bin/python3.11
cp $T/py/bin/python3.11 $T/py/x/bin/python3
: > $T/py/x/lib/python3.12/os.py
$T/py/x/bin/python3.11 -m venv --without-pip --system-site-packages $T/v
"""
#: ``PIPX``'s venv under ``$T/pixi/envs/pytest`` and, on PATH, ``$T/bin/pytest``: a compiled
#: launcher exec-ing its console script (pixi global's layout: its exposed programs are
#: trampolines).
TRAMPOLINE = PIPX.replace("pipx/venvs", "pixi/envs").replace(
    'mkdir -p $T/bin && ln -s "$V/bin/pytest" $T/bin/pytest', """mkdir -p $T/bin
cat > $T/tramp.c <<C
#include <unistd.h>
int main(int c, char **v) { v[0] = "$V/bin/pytest"; execv(v[0], v); return 127; }
C
gcc -o $T/bin/pytest $T/tramp.c""")
#: ``$T/ub``, a ``PYTHONUSERBASE`` whose Python 3.12 user site holds pytest (copied from the
#: test's Python's site folder) and the plugin ``zzplug``.
USERBASE = r"""set -e
U=$T/ub/lib/python3.12/site-packages
mkdir -p $U
SP=$(python3 -c 'import os, pytest; print(os.path.dirname(os.path.dirname(pytest.__file__)))')
for m in pytest _pytest pluggy iniconfig packaging py.py pygments; do cp -r $SP/$m $U/; done
: > $U/zzplug.py
mkdir $U/zzplug-1.0.dist-info
printf 'Metadata-Version: 2.1\nName: zzplug\nVersion: 1.0\n' > $U/zzplug-1.0.dist-info/METADATA
printf '[pytest11]\nzzplug = zzplug\n' > $U/zzplug-1.0.dist-info/entry_points.txt
"""
#: A Python 3.12 (pyenv's) beside the test's 3.11.
PY312 = "/root/.pyenv/versions/3.12.1/bin/python3.12"
#: ``$T/bin/pytest``, a wrapper exec-ing a venv's Python on a script that puts ``$T/acme`` on
#: ``sys.path`` before running pytest; the venv's plugin imports ``acme_utils`` from there.
WRAPPED = r"""set -e
V=$T/venv; A=$T/acme
mkdir -p "$A" && : > "$A/acme_utils.py"
python3 -m venv --without-pip --system-site-packages "$V"
S=$(echo "$V"/lib/python3*/site-packages)
printf 'def pytest_configure(config):\n    import acme_utils\n' > "$S/zzplug.py"
mkdir "$S/zzplug-1.0.dist-info"
printf 'Metadata-Version: 2.1\nName: zzplug\nVersion: 1.0\n' > "$S/zzplug-1.0.dist-info/METADATA"
printf '[pytest11]\nzzplug = zzplug\n' > "$S/zzplug-1.0.dist-info/entry_points.txt"
mkdir -p $T/boot $T/bin
printf 'import sys\nsys.path.append("%s")\nimport pytest\nsys.exit(pytest.console_main())\n' \
    "$A" > $T/boot/run.py
printf '#!/bin/sh\nexec %s/bin/python3 %s/boot/run.py "$@"\n' "$V" "$T" > $T/bin/pytest
chmod +x $T/bin/pytest
"""
#: ``WRAPPED``'s venv and, for ``$T/bin/pytest``, a console script of its Python that puts
#: ``$T/acme`` on ``sys.path`` before running pytest (a repository's own launcher).
LAUNCHER_SCRIPT = WRAPPED.replace(
    """printf '#!/bin/sh\\nexec %s/bin/python3 %s/boot/run.py "$@"\\n' "$V" "$T" > $T/bin/pytest""",
    """printf '#!%s/bin/python3\\nimport sys\\nsys.path.append("%s")\\nfrom pytest import """
    """console_main\\nsys.exit(console_main())\\n' "$V" "$A" > $T/bin/pytest""")
#: Each case: the plan's pytest line, the module copied, the setup, the environment's additions,
#: the project's files besides the test.
SESSIONS: dict[str, tuple[str, str, str, dict[str, str], dict[str, str]]] = {
    # a `~` in a PATH entry (`export PATH="~/venv/bin:$PATH"` keeps it): bash expands it when
    # it looks a program up; the venv's console script runs the venv's Python (its shebang)
    "tilde-in-a-path-entry": ("pytest -q", "acme_utils", HOME_VENV,
                              {"HOME": "{T}/home", "PATH": "~/venv/bin:{PATH}"},
                              {"conftest.py": ""}),
    # a console script on PATH whose shebang names a venv's Python (pipx, uv tool)
    "console-script-of-a-venv-off-path": ("pytest -q", "acme_utils", PIPX,
                                          {"PATH": "{T}/bin:{PATH}"}, {"conftest.py": ""}),
    # a compiled launcher in a test runner's stead (held since 8bbf9f9)
    "launcher-of-a-venv-off-path": ("pytest -q", "acme_utils", TRAMPOLINE,
                                    {"PATH": "{T}/bin:{PATH}"}, {"conftest.py": ""}),
    # a test runner's wrapper exec-ing its Python on a script of its own (held since 7cd576b),
    # and a console script whose own body puts the folder on sys.path (held since 733b63e)
    "console-script-body-adds-a-folder": ("pytest -q", "acme_utils", LAUNCHER_SCRIPT,
                                          {"PATH": "{T}/bin:{PATH}"}, {"conftest.py": ""}),
    # PYTHONUSERBASE's user site of another version than the hook's (held since s58-pfix's
    # user-site commit)
    "userbase-of-another-version": (f"{PY312} -m pytest -q -p no:cacheprovider", "zzplug",
                                    USERBASE, {"PYTHONUSERBASE": "{T}/ub"}, {}),
    # a prefix holding another version's standard library (its binary `python3.11`: held since
    # 6d72baf), the same binary copied under a name without its version (held since b5cafcb)
    "landmark-of-another-version-versionless-name": ("{T}/py/x/bin/python3 -m pytest -q",
                                                     "zzplug", DECOY, {}, {}),
    # a venv of that copy: its `home` is searched for the venv's own version's landmark too
    # (held since 6f76968)
    "venv-home-beside-another-versions-landmark": ("{T}/v/bin/python -m pytest -q", "zzplug",
                                                   DECOY, {}, {}),
    # PYTHONPLATLIBDIR (the layout of Fedora's, RHEL's, openSUSE's builds: lib64)
    "platlibdir-lib64": ("{T}/py/bin/python3 -m pytest -q", "zzplug", LIB64,
                         {"PYTHONPLATLIBDIR": "lib64"}, {}),
}

# (console-script-of-a-venv-off-path: held since f24336d)


# (tilde-in-a-path-entry, platlibdir-lib64, and PYTHONHOME's `{T}/py:{T}/py`: held since 5c5a038)


@pytest.mark.parametrize("case", SESSIONS)
def test_t_the_sessions_environment_moves_the_site_folders(
        case: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Plan: the pytest line, ``Bash(cp *)``: ``cp src/p MODULE`` (a module the site folder's
    plugin imports), then pytest loads the plugin, whose import meets the copy first."""
    needs("python3", "pytest", *(("gcc",) if "launcher" in case else ()),
          *((PY312,) if "userbase" in case else ()))
    line, module, setup, env, files = SESSIONS[case]
    assert _session(tmp_path, [f"Bash({line})", "Bash(cp *)"], {"tests/test_a.py": PASSES,
                                                                 **files},
                    [f"cp src/p {module}.py", line], setup=setup, env=env,
                    proof=_proof(request)) is not None


# --- E: what a site folder's start code adds to sys.path --------------------------------------

#: test_s57_greview2's ``PLUGIN``: the active venv ``$T/venv`` holding the plugin ``zzplug``,
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
#: ``$T/boot/boot.py``, outside every site folder, putting ``$T/acme`` on ``sys.path``.
BOOT = ("mkdir -p $T/boot && printf 'import sys\\nsys.path.append(\"%s\")\\n' \"$A\" > "
        "$T/boot/boot.py\n")
#: Each case: what makes ``acme_utils`` importable.
STARTS = {
    # site.main imports sitecustomize after the .pth files (Debian's, Homebrew's, an image's)
    "sitecustomize-appends-a-folder": ("printf 'import sys\\nsys.path.append(\"%s\")\\n' \"$A\" "
                                       "> \"$S/sitecustomize.py\"\n"),
    # a .pth import line running code the deny-list of spellings does not name
    "pth-line-execs-a-string": ("echo \"import os; exec('import s'+'ys; s'+'ys.pa'+'th.append("
                                "\\\"$A\\\")')\" > \"$S/acme.pth\"\n"),
    # (the three above: held since 79a66f2, 6e5a462) a sitecustomize and .pth lines running code
    # the reading of spellings does not follow: a file outside every site folder, timeit's string
    "sitecustomize-runs-a-file": (BOOT + "printf 'import runpy\\nrunpy.run_path("
                                  "\"%s/boot/boot.py\")\\n' \"$T\" > \"$S/sitecustomize.py\"\n"),
    "pth-line-runs-a-file": (BOOT + "echo \"import runpy; runpy.run_path('$T/boot/boot.py')\" > "
                             "\"$S/acme.pth\"\n"),
    "pth-line-times-a-string": ("echo \"import timeit; timeit.timeit('import s' + 'ys; s' + "
                                "'ys.pa' + 'th.append(\\\"$A\\\")', number=1)\" > "
                                "\"$S/acme.pth\"\n"),
    # a .pth longer than the part the gate reads (site reads it whole; held since 4d2219b)
    "pythonpath-folder-inside-a-zip": ("python3 -c \"import sys, zipfile; zipfile.ZipFile(sys."
                                       "argv[1], 'w').writestr('lib/acme_utils/__init__.py', '')"
                                       "\" \"$T/deps.zip\" && rm -rf \"$A\"\n"),
    "pth-imports-a-pythonpath-module": ("mkdir -p $T/pp && printf 'import sys\\nsys.path.append("
                                        "\"%s\")\\n' \"$A\" > $T/pp/acme_boot.py && echo 'import "
                                        "acme_boot' > \"$S/acme_boot.pth\"\n"),
    "pth-path-line-past-its-first-mib": ("python3 -c \"import sys; open(sys.argv[1], 'w').write(("
                                         "'#' * 99 + '\\\\n') * 11000 + sys.argv[2] + "
                                         "'\\\\n')\" \"$S/acme.pth\" \"$A\"\n"),
    # a line holding the two substrings by which setuptools' nspkg template was exempted (held
    # since c14919b)
    "pth-line-like-the-nspkg-template": ("echo \"import sys; has_mfs = 1; p = 0; mp = []; "
                                         "mp.append(p); sys.path.append('$A')\" > "
                                         "\"$S/acme-nspkg.pth\"\n"),
}
#: Each case: the session's environment's additions (the active venv's besides).
STARTED = {
    # a PYTHONPATH folder holding no distribution's metadata (held since 6e5a462)
    "pythonpath-plain-folder": {"PYTHONPATH": "{T}/acme"},
    # a PYTHONPATH path inside an archive (zipimport's `deps.zip/lib`)
    "pythonpath-folder-inside-a-zip": {"PYTHONPATH": "{T}/deps.zip/lib"},
    # a .pth line importing a module only a PYTHONPATH folder holds (on sys.path before site)
    "pth-imports-a-pythonpath-module": {"PYTHONPATH": "{T}/pp"},
}





@pytest.mark.parametrize("case", [*(c for c in STARTS if c not in STARTED), *STARTED])
def test_e_site_start_code_adds_a_folder(case: str, tmp_path: Path,
                                         request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p acme_utils.py``, then
    pytest loads ``zzplug``, whose import meets the call's folder's module first."""
    needs("python3", "pytest")
    assert _session(tmp_path, PLAN, {"tests/test_a.py": PASSES},
                    ["cp src/p acme_utils.py", "python3 -m pytest -q"],
                    setup=PLUGIN + STARTS.get(case, ""), env={**ACTIVE, **STARTED.get(case, {})},
                    proof=_proof(request)) is not None


# --- P: conftests naming plugins by a spelling the gate does not read -------------------------

#: Each case: the root conftest (it names ``helpers``, as Python reads it).
SPELLINGS = {
    # Python's parser NFKC-normalizes identifiers: U+FF50 is `p`
    "nfkc-normalized-name": "\uff50ytest_plugins = ['helpers']\n",
    # a source encoding whose bytes spell no `pytest_plugins`
    "utf-7-source": "# coding: utf-7\n+AHA-ytest_plugins = +AFs-'helpers'+AF0-\n",
}
#: Each case: a root conftest setting its ``pytest_plugins`` by a spelling of its namespace or a
#: binding ``conftestplugins._dynamic`` does not list (its deny-list: a fifth and sixth round).
DYNAMIC = {
    # (held since cc48145: getattr by a string, builtins' setattr imported under a name:
    # `getattr(builtins, 'set' + 'attr')(…)`, `getattr(mod, '__di' + 'ct__').update(…)`,
    # `from builtins import setattr as put`; an assigned module `__getattr__`, held since 17117aa)
    # the name bound by a decorated def, a match capture, a class pytest takes as a Sequence
    "decorated-def": "@lambda function: ['helpers']\ndef pytest_plugins():\n    pass\n",
    "match-capture": "match ['helpers']:\n    case [*pytest_plugins]:\n        pass\n",
    "class-of-a-sequence-metaclass": (
        "import collections.abc\n\n\nclass _Meta(type):\n    def __len__(cls):\n        return 1"
        "\n\n    def __getitem__(cls, i):\n        if i == 0:\n            return 'helpers'\n"
        "        raise IndexError(i)\n\n\ncollections.abc.Sequence.register(_Meta)\n\n\n"
        "class pytest_plugins(metaclass=_Meta):\n    pass\n"),
    # the builtins module reached as a builtin's __self__
    "builtins-by-a-builtins-self": ("import sys\n\nprint.__self__.setattr(sys.modules[__name__], "
                                    "'pytest_' + 'plugins', ['helpers'])\n"),
    "globals-by-a-builtins-self": ("print.__self__.globals().update({'pytest_' + 'plugins': "
                                   "['helpers']})\n"),
    # the module reached through a variable, its __dict__ by a computed getattr (babc46b reads
    # a computed getattr of any object but sys, builtins, importlib…)
    "getattr-of-a-variable-holding-the-module": ("import sys\n\nm = sys.modules[__name__]\n"
                                                 "getattr(m, '__di' + 'ct__').update({'pytest_' "
                                                 "+ 'plugins': ['helpers']})\n"),
}

# (nfkc-normalized-name, utf-7-source: held since 17117aa)


@pytest.mark.parametrize("case", [*SPELLINGS, *DYNAMIC])
def test_p_a_conftest_names_its_plugins_by_another_spelling(
        case: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p helpers.py``, then
    pytest imports the plugin the root conftest names."""
    needs("python3", "pytest")
    conftest = SPELLINGS.get(case) or DYNAMIC[case]
    assert _session(tmp_path, PLAN, {"conftest.py": conftest, "helpers.py": "",
                                     "tests/test_a.py": PASSES},
                    ["cp src/p helpers.py", "python3 -m pytest -q"],
                    proof=_proof(request)) is not None


# --- S: a folder a project's own code puts first on sys.path ---------------------------------

#: The idiom: a conftest putting the project's ``src`` first on ``sys.path`` (a root test module
#: doing it: proved too).
INSERT = ("import os\nimport sys\n\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), "
          "'src'))\n")
#: Each case: the project's files (a test imports ``yaml``, a site module of the test's Python).
FIRSTS = {
    "conftest-inserts-src": {"conftest.py": INSERT, "src/app.py": "A = 1\n",
                             "tests/test_a.py": "import yaml\n" + PASSES},
}

# (conftest-inserts-src: held since s60-pfix, conftestplugins.moves_path)


@pytest.mark.parametrize("case", FIRSTS)
def test_s_a_projects_code_puts_a_folder_first(case: str, tmp_path: Path,
                                              request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p src/yaml.py``, then the
    test's ``import yaml`` meets the copy first."""
    needs("python3", "pytest")
    assert _session(tmp_path, PLAN, FIRSTS[case], ["cp src/p src/yaml.py", "python3 -m pytest -q"],
                    proof=_proof(request)) is not None


# --- R: a site distribution's entry point naming a package's module; the lazy site reading ------

#: Makes the active venv ``$T/venv`` whose site folder holds the metadata of the project's own
#: pytest plugin (an editable install of a pytest-plugin project registers it so): its
#: ``pytest11`` entry point names ``mypkg.testing.plugin``, found from ``-m``'s folder.
ENTRY = r"""set -e
V=$T/venv
python3 -m venv --without-pip --system-site-packages "$V"
S=$(echo "$V"/lib/python3*/site-packages)
mkdir "$S/mypkg-1.0.dist-info"
printf 'Metadata-Version: 2.1\nName: mypkg\nVersion: 1.0\n' > "$S/mypkg-1.0.dist-info/METADATA"
printf '[pytest11]\nmypkg = mypkg.testing.plugin\n' > "$S/mypkg-1.0.dist-info/entry_points.txt"
"""
#: The same venv run by a shell shim first on PATH (``exec $T/venv/bin/python3``): the gate
#: cannot know its ``sys.path`` (every module a plugin's).
SHIMMED = ENTRY + r"""
mkdir -p $T/shimbin
printf '#!/bin/sh\nexec %s/venv/bin/python3 "$@"\n' "$T" > $T/shimbin/python3
chmod +x $T/shimbin/python3
"""
PACKAGE = {"tests/test_a.py": PASSES, "mypkg/__init__.py": "", "mypkg/testing/__init__.py": "",
           "mypkg/testing/plugin.py": ""}
#: Each case: the setup, the session's environment's additions, the project's files besides.
ENTRIES: dict[str, tuple[str, dict[str, str], dict[str, str]]] = {
    # the entry point's module below its top package
    "site-entry-point-names-a-package-module": (ENTRY, ACTIVE, {}),
    # (a regression of cc48145: denied at 599c5f0; held since 247d243) sys.path not known, and
    # the ini holds an everyday addopts word: the lazy reading's "not yet known" read as "no"
    "shim-and-an-addopts-word": (SHIMMED, {"PATH": "{T}/shimbin:{PATH}"},
                                 {"pytest.ini": "[pytest]\naddopts = -ra\n"}),
}


@pytest.mark.parametrize("case", ENTRIES)
def test_r_an_entry_points_package_module_loads_at_start(case: str, tmp_path: Path,
                                                         request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p mypkg/testing/plugin.py``,
    then pytest loads the entry point's module from the call's folder."""
    needs("python3", "pytest")
    setup, env, files = ENTRIES[case]
    assert _session(tmp_path, PLAN, {**PACKAGE, **files},
                    ["cp src/p mypkg/testing/plugin.py", "python3 -m pytest -q"], setup=setup,
                    env=env, proof=_proof(request)) is not None


# --- A: an aggregator a conftest names, found in an archive on sys.path ------------------------

#: Each case: the setup making ``plugs`` (``pytest_plugins = ['helpers']``) importable from an
#: archive, and the session's environment's additions.
ARCHIVES = {
    # a zip on the session's PYTHONPATH (a zipped egg easy-install.pth lists: proved too)
    "pythonpath-zip": (r"""set -e
python3 - "$T/plugs.zip" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.writestr("plugs.py", "pytest_plugins = ['helpers']\n")
PY
""", {"PYTHONPATH": "{T}/plugs.zip"}),
}



@pytest.mark.parametrize("case", ARCHIVES)
def test_a_an_archives_aggregator_names_a_plugin(case: str, tmp_path: Path,
                                                 request: pytest.FixtureRequest) -> None:
    """Root conftest ``pytest_plugins = ['plugs']``; plan ``Bash(python3 -m pytest -q)``,
    ``Bash(cp *)``: ``cp src/p helpers.py``, then pytest imports ``plugs`` from the archive and
    the ``helpers`` it names from the call's folder."""
    needs("python3", "pytest")
    setup, env = ARCHIVES[case]
    assert _session(tmp_path, PLAN, {"conftest.py": "pytest_plugins = ['plugs']\n",
                                     "helpers.py": "", "tests/test_a.py": PASSES},
                    ["cp src/p helpers.py", "python3 -m pytest -q"], setup=setup, env=env,
                    proof=_proof(request)) is not None


# --- O: an optional import of the standard library's, of a name installed nowhere -------------



# (held since e9a33df)


def test_o_the_standard_librarys_optional_import_meets_a_project_module(
        tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p org.py``, then pytest's
    start imports ``copy`` (or ``pickle``), whose ``from org.python.core import PyStringMap``
    (Jython's, in a ``try``) imports the call's folder's ``org.py``."""
    needs("python3", "pytest")
    assert _session(tmp_path, PLAN, {"tests/test_a.py": PASSES},
                    ["cp src/p org.py", "python3 -m pytest -q"],
                    proof=_proof(request)) is not None


# --- C: a pattern entry's call read by callpytest's allow-list --------------------------------

#: Each case: the pytest call (under ``Bash(python3 -m pytest *)``) importing ``helpers`` by a
#: warning filter's category in a cluster of short options (argparse: ``-x -W …``).
CLUSTERS = {
    # (held since 24241e8; `-sxW error::helpers.Warn` too)
    "flag-cluster-with-w-attached": "python3 -m pytest -q -xWerror::helpers.Warn",
    # -V and -h are flags to argparse too; -W's filter is applied before they exit
    "version-flag-cluster-with-w": "python3 -m pytest -q -VWerror::helpers.Warn",
    # an operand bash expands into a folder below a nested settings file (its `-p helpers`)
    "operand-globbed-below-a-nested-ini": "python3 -m pytest -q tests/s*/test_x.py",
}

# (operand-globbed-below-a-nested-ini: held since 2308550)


@pytest.mark.parametrize("case", CLUSTERS)
def test_c_a_pattern_entrys_call_imports_a_written_module(case: str, tmp_path: Path,
                                                          request: pytest.FixtureRequest) -> None:
    """Plan ``Bash(python3 -m pytest *)``, ``Bash(cp *)``: ``cp src/p helpers.py``, then the call
    whose ``-W error::helpers.Warn`` makes pytest import ``helpers`` at collection."""
    needs("python3", "pytest")
    assert _session(tmp_path, ["Bash(python3 -m pytest *)", "Bash(cp *)"],
                    {"helpers.py": "", "tests/test_a.py": PASSES, "tests/sub/test_x.py": PASSES,
                     "tests/sub/pytest.ini": "[pytest]\naddopts = -p helpers\n"},
                    ["cp src/p helpers.py", CLUSTERS[case]], proof=_proof(request)) is not None


# --- K: costs: everyday calls the change denies -------------------------------------------------

#: Each case: the session's environment's additions, the call (its grant: ``Bash(sed *)``) on a
#: module of a flat project whose test imports it.
COSTS: dict[str, tuple[dict[str, str], str]] = {
    # (a regression of 733b63e: allowed at ba24a2b) conda's console script for pytest on PATH
    # (older pip's too: its regex `pyw?`); uv's launcher template (no `re`) alike
    "conda-pytest-on-path-sed-a-root-module": ({"PATH": "{T}/bin:{PATH}"},
                                               "sed -i s/A/B/ app.py"),
    # (a regression of cc48145: allowed at ba24a2b; held since babc46b) a conftest's fixture
    # reading an attribute by a computed name (urllib3's test/conftest.py; scipy's alike)
    "conftest-getattr-by-a-parameter-sed-a-module": ({}, "sed -i s/A/B/ src/app.py"),
    # (a regression of f24336d: allowed at ba24a2b; held since bba393d) a wrapper script named
    # pytest on PATH (Nix's makeWrapper layout), under a plan running `python3 -m pytest`
    "pytest-wrapper-on-path-sed-a-root-module": ({"PATH": "{T}/bin:{PATH}"},
                                                 "sed -i s/A/B/ app.py"),
    # (a regression of 6e5a462: allowed at ba24a2b; held since 247d243) the project's root on
    # PYTHONPATH (`export PYTHONPATH=.`; direnv's `$PWD` alike): its own modules read as site
    # modules in their own folder
    "pythonpath-the-root-sed-a-root-module": ({"PYTHONPATH": "."}, "sed -i s/A/B/ app.py"),
}

#: A conftest's everyday fixture reading an attribute by its parameter's name.
GETATTR = ("import ssl\n\nimport pytest\n\n\n@pytest.fixture(params=['PROTOCOL_TLS_CLIENT'])\n"
           "def ssl_version(request):\n    return getattr(ssl, request.param, 0)\n")
#: conda's console script for pytest in ``$T/bin`` (the test's Python its interpreter).
CONDA = ("#!{PY}\n# -*- coding: utf-8 -*-\nimport re\nimport sys\n\nfrom pytest import "
         "console_main\n\nif __name__ == '__main__':\n    sys.argv[0] = re.sub("
         "r'(-script\\.pyw?|\\.exe)?$', '', sys.argv[0])\n    sys.exit(console_main())\n")
#: A wrapper named ``pytest`` in ``$T/bin`` (Nix's makeWrapper: ``exec -a "$0" …wrapped``).
WRAPPER = ("mkdir -p $T/bin && printf '#! /bin/bash -e\\nexport PYTHONNOUSERSITE=true\\nexec -a "
           "\"$0\" \"%s/bin/.pytest-wrapped\" \"$@\"\\n' \"$T\" > $T/bin/pytest && chmod +x "
           "$T/bin/pytest")

#: uv's console script for pytest (its launcher template: no ``re``).
UV = ("#!{PY}\n# -*- coding: utf-8 -*-\nimport sys\nfrom pytest import console_main\n"
      "if __name__ == \"__main__\":\n    if sys.argv[0].endswith(\"-script.pyw\"):\n"
      "        sys.argv[0] = sys.argv[0][:-11]\n    elif sys.argv[0].endswith(\".exe\"):\n"
      "        sys.argv[0] = sys.argv[0][:-4]\n    sys.exit(console_main())\n")

@pytest.mark.parametrize("case", COSTS)
def test_k_an_everyday_call_stays_allowed(case: str, tmp_path: Path) -> None:
    """The call is allowed (a strict-xfail cost row while the change denies it)."""
    extra, call = COSTS[case]
    project = hooked_project(tmp_path / "run", ["Bash(python3 -m pytest -q)", "Bash(sed *)"])
    for name, text in {"tests/test_a.py": "import app\n" + PASSES, "app.py": "A = 1\n",
                       "util.py": "B = 1\n", "src/app.py": "A = 1\n",
                       **({"conftest.py": GETATTR} if "getattr" in case else {})}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    shared = tmp_path / "shared"
    shared.mkdir()
    if "wrapper" in case:
        subprocess.run(["bash", "-c", WRAPPER], check=True, env={**os.environ, "T": str(shared)})
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project),
           **{k: v.replace("{P}", str(project)).replace("{T}", str(shared)).replace(
               "{PATH}", os.environ["PATH"]) for k, v in extra.items()}}
    if "conda" in case:  # (closed by the lead: conda's, older pip's and uv's templates)
        (shared / "bin").mkdir()
        python = subprocess.run(["python3", "-c", "import sys; print(sys.executable)"],
                                capture_output=True, text=True, check=True).stdout.strip()
        for script in (CONDA, UV):
            (shared / "bin" / "pytest").write_text(script.replace("{PY}", python))
            (shared / "bin" / "pytest").chmod(0o755)
            assert first_denied(project, [call], env) is None, script
        # a script that is no template's (a line more) is not known: every name
        (shared / "bin" / "pytest").write_text(UV.replace("{PY}", python).replace(
            "import sys\n", "import sys\nsys.path.insert(0, '.')\n", 1))
        assert first_denied(project, [call], env) is not None
        return
    assert first_denied(project, [call], env) is None


# --- N: a runner's pattern entry giving pytest words no entry gives --------------------------

#: Each case: the plan's runner entry, the project's runner file, the call.
RUNNERS = {
    # npm appends the words after `--` to the script (`python3 -m pytest -q -p helpers`)
    "npm-test-appends-a-plugin": ("Bash(npm test *)", {"package.json": (
        '{"name": "p", "version": "1.0.0", "scripts": {"test": "python3 -m pytest -q"}}\n')},
        "npm test -- -p helpers"),
    # make exports a command-line variable to its recipes
    "make-exports-pytest-addopts": ("Bash(make test *)", {"Makefile": "test:\n\tpython3 -m "
                                                                     "pytest -q\n"},
                                    "make test PYTEST_ADDOPTS=-phelpers"),
}

# (make-exports-pytest-addopts: held since s60-pfix, a pattern call's make variables)
# (npm-test-appends-a-plugin holds on merged main: a collecting plan's script running an
# interpreter but `node --test` refuses the plan's writes, s58-mfix testroots._code_read)


@pytest.mark.parametrize("case", RUNNERS)
def test_n_a_runners_pattern_entry_gives_pytest_a_plugin(case: str, tmp_path: Path,
                                                         request: pytest.FixtureRequest) -> None:
    """Plan: the runner's pattern entry, ``Bash(cp *)``: ``cp src/p helpers.py``, then the call,
    whose pytest loads ``helpers`` as a plugin."""
    needs("python3", "pytest", "npm" if case.startswith("npm") else "make")
    entry, files, call = RUNNERS[case]
    assert _session(tmp_path, [entry, "Bash(cp *)"], {"helpers.py": "", "tests/test_a.py": PASSES,
                                                       **files},
                    ["cp src/p helpers.py", call], proof=_proof(request)) is not None
