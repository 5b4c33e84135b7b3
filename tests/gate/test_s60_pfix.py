"""Session 60 (s60-pfix): s59-preview's and s58-preview's open rows closed at their root, failing
closed (issue 29): pytest's ini read as iniconfig reads it, the plan's own pytest options by
the allow-list, a pattern call's file operand a test's name, test modules' ``pytest_plugins``,
site start code (line breaks, vetted texts, called functions, archives), a classmethod over a
descriptor, the run folder's entry points, a conftest's ``sys.path`` code. The review files
prove each with the real programs; these pin the readings cheaply."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrant.gate.checkersettings import _ini


def test_an_ini_with_another_line_break_is_not_read() -> None:
    """s59-preview I: iniconfig breaks lines by ``str.splitlines``, configparser at ``\\n``;
    a file of ``\\r\\n`` lines (read in text mode: ``\\n``) is read."""
    for brk in ("\r", "\f", "\v", "\x1c", "\x85", "\u2028", "\u2029"):
        with pytest.raises(ValueError):
            _ini(f"[pytest]\nminversion = 1{brk}addopts = -p helpers\n", "pytest", ("addopts",))
    assert _ini("[pytest]\r\naddopts = -q\r\n", "pytest", ("addopts",)) == [("addopts", "-q")]


class _Guards:
    """A guarded set's attributes ``pytestini`` reads."""

    run_folders: frozenset[str] = frozenset()

    def __init__(self, *entries: str) -> None:
        self.named = [f"@{e}" for e in entries]


@pytest.mark.parametrize(("line", "every"), [
    ("python3 -m pytest -q --trace --pdbcls=helpers:Pdb", True),
    ("python3 -m pytest -q --benchmark-histogram", True),
    ("python3 -m pytest -q -n 4 --benchmark-disable tests", None),
    ("python3 -m pytest -q && ls -la", None),
])
def test_the_plans_own_options_read_by_the_allow_list(line: str, every: object,
                                                        tmp_path: Path) -> None:
    """s59-preview O: an option of the plan's own pytest line outside the allow-list of options
    known to import nothing (``--pdbcls``, a plugin's flag) makes every module a plugin's."""
    from skillgrant.gate import pytestini

    assert pytestini._reading(str(tmp_path), _Guards(line))[0] is every


@pytest.mark.parametrize(("operand", "held"), [
    ("helpers.py", False), ("README.rst", False), ("notes.txt", False),
    ("tests/test_a.py::test_a", True), ("tests", True), ("test_doc.txt", True)])
def test_a_pattern_calls_file_operand_is_a_test_files(operand: str, held: bool,
                                                      tmp_path: Path) -> None:
    """s59-preview C: pytest collects a file operand whatever its name: a pattern entry's call
    naming a file is allowed only where the file is a test's by its name."""
    from skillgrant.gate.callpytest import pattern_word

    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("def test_a():\n    pass\n")
    found = pattern_word(f"python3 -m pytest -q {operand}", str(tmp_path), [],
                         (str(tmp_path),))
    assert (found is None) is held


@pytest.mark.parametrize(("files", "every", "named"), [
    ({"tests/__init__.py": "pytest_plugins = ['helpers']\n"}, False, True),
    ({"tests/test_a.py": "pytest_plugins = ['helpers']\n"}, False, True),
    ({"tests/__init__.py": "import sys\nimport types\n\nm = types.ModuleType('tests.conftest')\n"
                           "m.pytest_plugins = ['helpers']\nsys.modules['tests.conftest'] = m\n"},
     True, False),
    # the boundary (decisions.md, session 60): a test module not spelling the name is code a
    # test runs, as its own `import helpers` would be
    ({"tests/test_a.py": "globals()['pytest_' + 'plugins'] = ['helpers']\n"}, False, False),
    ({"tests/test_a.py": "import app\n\nAPP = app.make()\n"}, False, False),
    # s60-preview M: spelled as Python reads it (UTF-7's `+AF8-` is `_`)
    ({"tests/test_a.py": "# coding: utf-7\npytest+AF8-plugins = ['helpers']\n"}, False, True),
])
def test_a_test_module_or_package_init_names_plugins(files: dict[str, str], every: bool,
                                                      named: bool, tmp_path: Path) -> None:
    """s59-preview M: pytest reads ``pytest_plugins`` of test modules and packages too."""
    from skillgrant.gate.conftestplugins import conftest_plugins

    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found, patterns = conftest_plugins(str(tmp_path))
    assert (found, "helpers.py" in patterns) == (every, named)


#: Site folders' files and whether their start code is read (s59-preview E): a .pth line
#: split by a form feed (site reads text lines), a module trusted by its name, a site
#: module's function called (its body read, a re-export followed).
SITES = {
    "form-feed": ({"acme.pth": "import os\f;import sys;sys.path.append('/x')\n"}, False),
    "vetted-name": ({"_virtualenv.pth": "import _virtualenv\n",
                     "_virtualenv.py": "import runpy\nrunpy.run_path('x')\n"}, False),
    "called-body": ({"acme.pth": "import acme_boot; acme_boot.setup()\n",
                     "acme_boot.py": "def setup():\n    import runpy\n    runpy.run_path('x')\n"},
                    False),
    "called-reexport": ({"acme.pth": "import acme_boot; acme_boot.run_path('x')\n",
                         "acme_boot.py": "from runpy import run_path\n"}, False),
    "called-through-package": ({"acme.pth": "import acme; acme.setup()\n",
                                "acme/__init__.py": "from .core import setup\n",
                                "acme/core.py": "def setup():\n    import runpy\n"
                                                "    runpy.run_path('x')\n"}, False),
    "called-body-read": ({"acme.pth": "import acme; acme.setup()\n",
                          "acme/__init__.py": "from .core import setup\n",
                          "acme/core.py": "def setup():\n    import os\n"
                                          "    x = os.environ.get('A')\n"}, True),
}


@pytest.mark.parametrize("case", SITES)
def test_site_start_code_read(case: str, tmp_path: Path) -> None:
    from skillgrant.gate.sitefinders import _finders_read
    from skillgrant.gate.sitenames import line_names

    files, read = SITES[case]
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    pths = sorted(str(p) for p in tmp_path.glob("*.pth"))
    assert _finders_read(str(tmp_path), pths, line_names) is read


@pytest.mark.parametrize("member", ["sitecustomize.py", "acme_boot.py"])
def test_site_code_found_in_a_pythonpath_zip_is_not_known(member: str, tmp_path: Path) -> None:
    """s59-preview E-ZIP-SITECUSTOMIZE, E-ZIP-SITE-CODE: a module site code imports (a
    sitecustomize) found in an archive before the site folder is not read."""
    import zipfile

    from skillgrant.gate.sitefinders import _finders_read
    from skillgrant.gate.sitenames import line_names

    with zipfile.ZipFile(tmp_path / "pp.zip", "w") as archive:
        archive.writestr(member, "import sys; sys.path.append('/x')\n")
    site = tmp_path / "site"
    site.mkdir()
    (site / "acme.pth").write_text("import acme_boot\n")
    assert not _finders_read(str(site), [str(site / "acme.pth")], line_names,
                             (str(tmp_path / "pp.zip"),))
    assert _finders_read(str(site), [str(site / "acme.pth")], line_names)


@pytest.mark.parametrize(("decorators", "read"), [
    ("@classmethod\n    @property\n", False), ("@classmethod\n    @functools.cache\n", False),
    ("@property\n", True), ("@classmethod\n", True), ("@staticmethod\n", True)])
def test_a_classmethod_over_a_descriptor_is_not_read(decorators: str, read: bool) -> None:
    """s59-preview P-EXACT-DESCRIPTOR-2: ABCMeta and dataclass read a classmethod-wrapped
    property at the class's creation (Python 3.11 chains them): not read."""
    from skillgrant.gate.conftestplugins import _names

    text = (f"import functools\n\n\nclass Config:\n    {decorators}    def plugins(cls):\n"
            "        return 1\n")
    assert (_names(text.encode()) is not None) is read


def test_an_entry_point_in_the_run_folders_metadata_is_a_plugin(tmp_path: Path) -> None:
    """s59-preview R: importlib.metadata reads the metadata of the folder ``-m`` puts first:
    its ``pytest11`` entry point's module is a plugin's."""
    from skillgrant.gate import pytestini

    (tmp_path / "mypkg.egg-info").mkdir()
    (tmp_path / "mypkg.egg-info" / "entry_points.txt").write_text(
        "[pytest11]\nmypkg = mypkg.testing.plugin\n")
    every, patterns = pytestini._reading(str(tmp_path), _Guards("python3 -m pytest -q"))
    assert not every and "mypkg/testing/plugin.py" in patterns


@pytest.mark.parametrize(("name", "text", "moves"), [
    ("conftest.py", "import sys\n\nsys.path.insert(0, 'src')\n", True),
    ("conftest.py", "# coding: utf-7\nimport +AHMAeQBz-\n+AHMAeQBz-.path.insert(0, 'src')\n",
     True),
    ("conftest.py", "def _src(monkeypatch):\n    getattr(monkeypatch, 'syspath_' + 'prepend')"
                    "('src')\n", True),
    ("tests/test_a.py", "def test_a():\n    __import__('\\x73ys').path.insert(0, 'src')\n",
     True),
    ("conftest.py", "import os\n\nX = os.path.join('a', 'b')\n", False),
    ("tools/helper.py", "import sys\n\nsys.path.insert(0, 'src')\n", False)])
def test_a_projects_test_code_puts_any_folder_first(name: str, text: str, moves: bool,
                                                    tmp_path: Path) -> None:
    """s58-preview S, s60-preview S, s60-preview2 S: a conftest or test module naming ``sys``,
    pytest's syspath methods or any way to reach a name by data may put any folder first: a
    site name's module anywhere is guarded (``syspathdirs.first_on_path``)."""
    from skillgrant.gate.pathcode import moves_path

    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(text)
    assert moves_path(str(tmp_path)) is moves


def test_one_reader_of_whether_a_command_runs_pytest() -> None:
    """s60-preview O, s60-preview2 O: ``-mpytest``, a wrapper before it, a profiler's ``-m``."""
    from skillgrant.gate.collectopts import pytest_start

    for line, rest in (("python3 -mpytest -q", ["-q"]),
                       ("timeout 600 python3 -m pytest.__main__ -x", ["-x"]),
                       ("python3 -m cProfile -m pytest.__main__ -q", ["-q"]),
                       ("python3 -m http.server", None)):
        words = line.split()
        at = pytest_start(words, True)
        assert (None if at is None else words[at + 1:]) == rest, line
