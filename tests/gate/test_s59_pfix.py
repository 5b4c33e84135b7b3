"""Session 59 (s59-pfix): module code read by an allow-list of shapes (``exactcode``) in place
of deny-lists of spellings. A conftest's ``pytest_plugins`` is read only where every statement
run at import has a shape whose effect is known; anything else makes every module a plugin's
(s58-preview P-DYNAMIC6: each spelling a review found, and the everyday shapes of real
conftests kept read)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from skillgrant.gate.conftestplugins import _names

#: Conftests the allow-list does not read (each sets ``pytest_plugins`` to ``['helpers']`` when
#: run, or may): None.
UNREAD = {
    # s58-preview P-DYNAMIC6
    "decorated-def": "@lambda function: ['helpers']\ndef pytest_plugins():\n    pass\n",
    "match-capture": "match ['helpers']:\n    case [*pytest_plugins]:\n        pass\n",
    "metaclass": ("class _Meta(type):\n    pass\n\n\nclass pytest_plugins(metaclass=_Meta):\n"
                  "    pass\n"),
    "builtins-self": ("import sys\n\nprint.__self__.setattr(sys.modules[__name__], "
                      "'pytest_' + 'plugins', ['helpers'])\n"),
    "getattr-of-a-variable": ("import sys\n\nm = sys.modules[__name__]\ngetattr(m, '__di' + "
                              "'ct__').update({'pytest_' + 'plugins': ['helpers']})\n"),
    # the module's own function called at import, given to a call, a subclass hook
    "own-function-called": "def f():\n    globals()['pytest_plugins'] = ['helpers']\n\n\nf()\n",
    "own-function-given": ("import atexit\n\n\ndef f():\n    pass\n\n\nsorted([1], key=f)\n"),
    "init-subclass": ("class A:\n    def __init_subclass__(cls):\n        pass\n\n\n"
                      "class B(A):\n    pass\n"),
    # a library's function not listed (code from data), a module by another name
    "timeit-string": "import timeit\ntimeit.timeit('import sys', number=1)\n",
    "runpy": "import runpy\nrunpy.run_path('x.py')\n",
    "modules-aliased": "from sys import modules\nmodules['conftest'] = 1\n",
    "global-statement": "global pytest_plugins\n",
    "computed-getattr": "import ssl\nX = getattr(ssl, 'PROTO' + 'COL')\n",
    "dunder-attribute": "import os\nX = os.__dict__\n",
    "unlisted-decorator": "import functools\n\n\n@functools.singledispatch\ndef f(x):\n    pass\n",
    # s59-preview P-EXACT-MUTATE: the read literal changed through a load of the name
    "mutated": "pytest_plugins = []\npytest_plugins.append('helpers')\n",
    "slice-assigned": "pytest_plugins = []\npytest_plugins[:] = ['helpers']\n",
    # P-EXACT-HOOK: a historic hook's body runs as pytest registers the conftest, before the read
    "addoption-mutates": ("pytest_plugins = []\n\n\ndef pytest_addoption(parser):\n"
                          "    pytest_plugins.append('helpers')\n"),
    "addoption-globals": ("def pytest_addoption(parser):\n    globals().update({'pytest_' + "
                          "'plugins': ['helpers']})\n"),
    "addhooks-global": ("def pytest_addhooks(pluginmanager):\n    global pytest_plugins\n"
                        "    pytest_plugins = ['helpers']\n"),
    "hook-by-specname": ("import pytest\n\n\n@pytest.hookimpl(specname='pytest_addoption')\n"
                         "def f(parser):\n    globals()['x'] = 1\n"),
    "hook-bound-by-import": "from timeit import timeit as pytest_configure\n",
    "helper-called-by-a-hook": ("def _f():\n    globals()['pytest_plugins'] = ['helpers']\n\n\n"
                                "def pytest_configure(config):\n    _f()\n"),
    # P-EXACT-FRAME: a frame reached by a generator's attribute, no call
    "generator-frame": ("(x for x in ()).gi_frame.f_globals.update({'pytest_' + 'plugins': "
                        "['helpers']})\n"),
    "generator-frame-subscript": ("(x for x in ()).gi_frame.f_globals['pytest_' + 'plugins'] = "
                                  "['helpers']\n"),
    "getattr-frame": ("X = getattr(getattr((x for x in ()), 'gi_frame'), 'f_globals')\n"
                      "X['pytest_' + 'plugins'] = ['helpers']\n"),
    # P-EXACT-DESCRIPTOR: an own class's attribute read runs a descriptor's body
    "descriptor-in-an-annotation": ("class C:\n    @classmethod\n    @property\n    def p(cls):"
                                    "\n        return 1\n\n\nsize: C.p = 1\n"),
    "descriptor-of-a-kept-class": ("import pytest\n\n\nclass C:\n    pass\n\n\n"
                                   "X = pytest.mark.skip(C).p\n"),
    # P-EXACT-DUNDER: code the class machinery runs at import
    "enum-init": ("import enum\n\n\nclass E(enum.Enum):\n    A = 1\n\n"
                  "    def __init__(self, v):\n        globals()['x'] = v\n"),
    "class-getitem": ("class Box:\n    def __class_getitem__(cls, item):\n        return item"
                      "\n\n\nsize: Box[int] = 1\n"),
}
#: Everyday conftests the allow-list reads (the shapes of this machine's real ones).
READ = {
    "fixtures-and-hooks": ("import pytest\n\n\n@pytest.fixture(scope='session', autouse=True)\n"
                           "def db(request: pytest.FixtureRequest) -> None:\n"
                           "    return getattr(request, request.param)\n\n\n"
                           "def pytest_configure(config):\n"
                           "    config.addinivalue_line('m', 'x')\n"),
    "optional-imports": ("try:\n    import numpy as np\n    HAS = True\nexcept ImportError:\n"
                         "    HAS = False\ncollect_ignore = []\nif not HAS:\n"
                         "    collect_ignore += ['a.py']\n"),
    "hypothesis-profiles": ("import os\nfrom hypothesis import HealthCheck, settings\n"
                            "settings.register_profile('ci', suppress_health_check=["
                            "HealthCheck.too_slow])\nsettings.load_profile('ci' if os.environ"
                            ".get('CI') else 'dev')\n"),
    "paths-and-env": ("import os\nimport sys\nfrom pathlib import Path\nHERE = Path(__file__)"
                      ".resolve().parents[1]\nos.environ['X'] = '1'\nsys.path.insert(0, str("
                      "HERE / 'src'))\nsys._running = True\n"),
    "a-named-tuple-class": ("import typing\n\n\nclass C(typing.NamedTuple):\n    a: str\n\n"
                            "    @property\n    def b(self) -> 'C':\n        return self\n"),
    "annotation-names-own-class": ("import pytest\n\n\nclass S:\n    pass\n\n\n@pytest.fixture"
                                   "\ndef s() -> S:\n    return S()\n"),
    "literal-plugins": "pytest_plugins = ['helpers']\n",
    "historic-hooks-read": ("def pytest_addoption(parser):\n    group = parser.getgroup('x')\n"
                            "    group.addoption('--x', action='store_true')\n\n\n"
                            "def pytest_configure(config):\n    _markers(config)\n\n\n"
                            "def _markers(config):\n    config.addinivalue_line('markers', 'a')\n"),
    "a-pytest-collector": ("import pytest\n\n\nclass YamlFile(pytest.File):\n"
                           "    def collect(self):\n        return []\n"),
    "kept-own-function": ("import pytest\n\n\ndef retry(e):\n    return True\n\n\n"
                          "FLAKY = pytest.mark.flaky(reruns=5, cause=retry)\n"),
}


def test_a_conftest_outside_the_allow_list_is_not_read() -> None:
    assert [c for c in UNREAD if _names(UNREAD[c].encode()) is not None] == []


def test_an_everyday_conftest_is_read() -> None:
    assert [c for c in READ if _names(READ[c].encode()) != (
        ["helpers"] if c == "literal-plugins" else [])] == []


# --- site start code: a .pth import line, sitecustomize (sitecode.site_code) ---------------------

#: Site code the allow-list reads: each found on this machine (setuptools' distutils line, the
#: sandbox's CA line, Debian's sitecustomize).
SITE_READ = {
    "distutils-precedence": ("import os; var = 'SETUPTOOLS_USE_DISTUTILS'; enabled = os.environ"
                             ".get(var, 'local') == 'local'; enabled and __import__("
                             "'_distutils_hack').add_shim(); "),
    "sandbox-ca": ("import os;exec(\"try:\\n import certifi\\n _p=certifi.where(); _c='/c.pem'"
                   "\\n if os.path.isfile(_c) and os.path.getsize(_c)<65536:\\n  with open(_c,"
                   "'rb') as _f: _t=_f.read()\\n  with open(_p,'ab') as _f: _f.write(b'\\\\n'+_t)"
                   "\\nexcept Exception: pass\\n\")"),
    "pytest-cov": ("import os, sys;exec('if \\'COV_CORE_SOURCE\\' in os.environ:\\n try:\\n  "
                   "from pytest_cov.embed import init\\n  init()\\n except Exception as exc:"
                   "\\n  sys.stderr.write(\\n    \"pytest-cov: {0}\\\\n\".format(dict((k, v) for "
                   "k, v in os.environ.items() if k.startswith(\"COV_CORE\")))\\n  )\\n')"),
    "apport-sitecustomize": ("try:\n    import apport_python_hook\nexcept ImportError:\n    pass"
                             "\nelse:\n    apport_python_hook.install()\n"),
}
#: Site code it does not read (s58-preview E-DENYLIST-2 and the spellings before it).
SITE_UNREAD = {
    "runpy": "import runpy; runpy.run_path('/x/boot.py')",
    "timeit": "import timeit; timeit.timeit('import s' + 'ys', number=1)",
    "sys-path": "import sys; sys.path.append('/x')",
    "sys-path-aliased": "from sys import path; path.append('/x')",
    "addsitedir": "import site; site.addsitedir('/x')",
    "exec-computed": "import os; exec('import s' + 'ys')",
    "exec-literal-moving": "import os; exec('import sys; os = sys; os.path.append(1)')",
    "meta-path": "import sys; sys.meta_path.append(object())",
    "importlib": "import importlib; importlib.import_module('x')",
    "import-computed": "import os; __import__(os.environ['X'])",
    # s59-preview E-SITE-ENV: pytest reads the environment after site's code ran
    "environment-written": "import os; os.environ['PYTEST_PLUGINS'] = 'helpers'",
    "environment-defaulted": "import os; os.environ.setdefault('PYTEST_ADDOPTS', '-p helpers')",
    "environb-written": "import os; os.environb[b'PYTEST_PLUGINS'] = b'helpers'",
    "environb-updated": "import os; os.environb.update({b'PYTEST_ADDOPTS': b'-p helpers'})",
    "putenv": "import os; os.putenv('PYTEST_PLUGINS', 'helpers')",
    # E-SITE-FRAME: site's addsitedir through a frame, called as a sort key
    "sort-key-frame": ("import os; ['/x'].sort(key=(x for x in ()).gi_frame.f_globals["
                       "'addsitedir'])"),
}


def test_a_pth_line_rebinding_sites_names_is_not_read() -> None:
    """s59-preview E-PTH-SITE-GLOBALS: a ``.pth`` line runs in ``site``'s namespace."""
    from skillgrant.gate.sitecode import site_code

    for line in ("import os; makepath = lambda *p: (os.path.join('/x', p[-1]),) * 2",
                 "import os as addsitedir", "import os; exec('def addpackage(*a): pass')"):
        assert site_code(line.encode(), set(), True) is None, line


def test_site_code_of_this_machine_is_read() -> None:
    from skillgrant.gate.sitecode import site_code

    assert [c for c in SITE_READ if site_code(SITE_READ[c].encode(), {
        "_distutils_hack", "certifi", "apport_python_hook", "pytest_cov"},
        c != "apport-sitecustomize") is
        None] == []


def test_site_code_outside_the_allow_list_is_not_read() -> None:
    from skillgrant.gate.sitecode import site_code

    assert [c for c in SITE_UNREAD if site_code(SITE_UNREAD[c].encode(), set()) is not None] \
        == []


# --- archives and PYTHONPATH at start (s58-preview E-ZIP-SUBPATH, A, E-PRESENT-PYTHONPATH) --


def test_a_folder_inside_an_archive_is_read_as_zipimport_reads_it(tmp_path: Path) -> None:
    """``PYTHONPATH=deps.zip/lib``: its names; a conftest's aggregator in a zip on sys.path:
    its ``pytest_plugins``."""
    from skillgrant.gate import sitenames
    from skillgrant.gate.conftestplugins import _read

    with zipfile.ZipFile(tmp_path / "deps.zip", "w") as archive:
        archive.writestr("lib/acme_utils/__init__.py", "")
        archive.writestr("plugs.py", "pytest_plugins = ['helpers']\n")
    assert sitenames._listing(str(tmp_path / "deps.zip" / "lib")) == frozenset({"acme_utils"})
    assert _read(str(tmp_path / "deps.zip" / "plugs.py")) == ["helpers"]
    assert _read(str(tmp_path / "deps.zip" / "other.py")) == []


def test_a_pth_lines_module_is_read_where_pythonpath_holds_it(tmp_path: Path) -> None:
    """A ``.pth`` line's ``import acme_boot`` found in a PYTHONPATH folder (before the site
    folder on sys.path) that appends to ``sys.path``: the site folder's names not known."""
    from skillgrant.gate import sitenames

    site, given = tmp_path / "site", tmp_path / "pp"
    site.mkdir()
    given.mkdir()
    (site / "acme_boot.pth").write_text("import acme_boot\n")
    (given / "acme_boot.py").write_text("import sys\nsys.path.append('/x')\n")
    assert sitenames._listing(str(site)) is not None
    assert sitenames._listing(str(site), (str(given),)) is None


@pytest.mark.parametrize("module", [
    "import runpy\nrunpy.run_path('/x/boot.py')\n",
    "exec(open('/x/boot.py').read())\n",
    "import sys\nsys.path.append('/x')\n",
])
@pytest.mark.parametrize("pth", ["acme.pth", "sitecustomize.py"])
def test_a_module_site_code_imports_is_read_by_the_allow_list(tmp_path: Path, module: str,
                                                              pth: str) -> None:
    """s59-preview E-DENYLIST-DEEPER: a ``.pth`` line's (or sitecustomize's) ``import
    acme_boot``, whose import-time code the regex ``appends`` did not follow."""
    from skillgrant.gate import sitenames

    site = tmp_path / "site"
    site.mkdir()
    (site / pth).write_text("import acme_boot\n")
    (site / "acme_boot.py").write_text("X = 1\n")
    assert sitenames._listing(str(site)) is not None
    (site / "acme_boot.py").write_text(module)
    sitenames._listing.cache_clear()
    assert sitenames._listing(str(site)) is None


@pytest.mark.parametrize("where", ["folder", "zip"])
def test_a_sourceless_aggregator_makes_every_module_one(tmp_path: Path, where: str) -> None:
    """s59-preview A-SOURCELESS: ``plugs.pyc`` (no source: its names not read) where a
    conftest's ``pytest_plugins = ['plugs']`` is found on sys.path."""
    import py_compile

    from skillgrant.gate.conftestplugins import conftest_plugins

    (tmp_path / "src.py").write_text("pytest_plugins = ['helpers']\n")
    (tmp_path / "pp").mkdir()
    py_compile.compile(str(tmp_path / "src.py"), str(tmp_path / "pp" / "plugs.pyc"))
    with zipfile.ZipFile(tmp_path / "z.zip", "w") as archive:
        archive.write(tmp_path / "pp" / "plugs.pyc", "plugs.pyc")
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "conftest.py").write_text("pytest_plugins = ['plugs']\n")
    root = str(tmp_path / ("pp" if where == "folder" else "z.zip"))
    assert conftest_plugins(str(tmp_path / "proj"), (), lambda: (root,))[0]
    assert not conftest_plugins(str(tmp_path / "proj"), (), lambda: (str(tmp_path),))[0]


@pytest.mark.parametrize(("folder", "line"), [
    ("mypkg-1.0.dist-info", "mypkg = mypkg.testing.plugin"),
    ("mypkg-1.0.dist-info", "mypkg = mypkg.testing.plugin [testing]"),  # (E-EP-EXTRAS)
    ("MYPKG-1.0.DIST-INFO", "mypkg = mypkg.testing.plugin"),  # (E-EP-CASE)
])
def test_an_entry_points_module_and_packages_are_site_names(tmp_path: Path, folder: str,
                                                            line: str) -> None:
    """s58-preview E-EP-SUBMODULE: pytest imports ``mypkg.testing.plugin`` at its start."""
    from skillgrant.gate.sitearchives import plugin_tops

    (tmp_path / folder).mkdir()
    (tmp_path / folder / "entry_points.txt").write_text(f"[pytest11]\n{line}\n")
    assert {"mypkg", "mypkg/testing", "mypkg/testing/plugin"} <= plugin_tops(str(tmp_path))


@pytest.mark.parametrize(("addopts", "every"), [
    ("--strict-markers -ra", False),
    ("-ra -q --cov=src -n auto -p no:cacheprovider -W error", False),
    ("--trace --pdbcls=helpers:Pdb", True),  # (s59-preview O-IMPORTING-OPTIONS)
    ("--benchmark-timer=helpers.clock", True),
    ("--benchmark-disable --no-success-flaky-report -ra", False),  # (flags: s59-preview K-ADDOPTS)
    ("--reactor=asyncio", True),
])
def test_the_inis_addopts_are_read_by_the_allow_list(tmp_path: Path, addopts: str,
                                                     every: bool) -> None:
    """An ``addopts`` option outside callpytest's allow-list may import a module by name:
    every module below is one."""
    from skillgrant.gate import pytestini
    from skillgrant.gate.placed import fold

    (tmp_path / "pytest.ini").write_text(f"[pytest]\naddopts = {addopts}\n")
    real = fold(str(tmp_path.resolve()))
    guards = type("G", (), {"run_folders": frozenset({str(tmp_path.resolve())}),
                            "python_libs": frozenset(), "named": ()})()
    assert bool(pytestini._reading(real, guards)[0]) is every


def test_the_sessions_pytest_addopts_is_read_as_pytest_splits_it() -> None:
    """s59-preview O-ADDOPTS-WORDS: quotes, clusters, options outside the allow-list."""
    from skillgrant.gate.collectopts import addopts

    for value in ("'-phelpers'", '"-p helpers"', "-qW error::helpers.Warn",
                  "--pdb --pdbcls=helpers:Pdb", "--benchmark-timer=helpers.clock"):
        with pytest.raises(ValueError):
            addopts("the session's PYTEST_ADDOPTS", value)
    addopts("the session's PYTEST_ADDOPTS", "-ra -q --tb=short -n 2")
