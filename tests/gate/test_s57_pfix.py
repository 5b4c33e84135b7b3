"""Session 57 (s57-pfix, issue 29): what pytest and Python import at start, failing closed.
Pins the rules without real programs: an interpreter's site folders as CPython's getpath
finds its prefix (``sitenames.interpreter_libs``: a link's installation, a venv's base, a
version manager's shims; None where not exact), a ``.pth``'s module appending a finder, the
conftests read at any depth and at the plan's anchors (``conftestplugins``), a computed
``pytest_plugins``, a plan's ``python -c`` importing a project module (``planruns``) and
pytest's attached ``-pNAME`` (``planprograms``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillgrant.gate.conftestplugins import conftest_plugins
from skillgrant.gate.interpreters import interpreter_libs
from skillgrant.gate.loadedlibs import pth_files
from skillgrant.gate.planprograms import plan_programs
from skillgrant.gate.planruns import _imports_project
from skillgrant.gate.sitefinders import _finders_read as _read_finders
from skillgrant.gate.sitenames import _listing, line_names


def _finders_read(folder: str) -> bool:
    """``sitefinders._finders_read`` of ``folder``'s ``.pth`` files."""
    return _read_finders(folder, pth_files(folder), line_names)


#: The start of an ELF binary (what ``interpreter_libs`` takes as an interpreter, no script).
ELF = b"\x7fELF" + b"\0" * 12


def _install(prefix: Path) -> Path:
    """A Python installation at ``prefix``: its binary ``bin/python3.11`` (``python3`` a link
    to it), its standard library's landmark, its site folder; its binary's path."""
    (prefix / "bin").mkdir(parents=True)
    (prefix / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    (prefix / "lib" / "python3.11" / "os.py").write_text("")
    exe = prefix / "bin" / "python3.11"
    exe.write_bytes(ELF)
    (prefix / "bin" / "python3").symlink_to("python3.11")
    return exe


def _venv(at: Path, cfg: str) -> Path:
    """A virtual environment at ``at`` whose ``pyvenv.cfg`` is ``cfg``; its ``python``."""
    (at / "bin").mkdir(parents=True)
    (at / "pyvenv.cfg").write_text(cfg)
    (at / "bin" / "python").write_bytes(ELF)
    return at / "bin" / "python"


# --- an interpreter's library folders ------------------------------------------------------

def test_a_link_reads_its_real_installation(tmp_path: Path) -> None:
    exe = _install(tmp_path / "py")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python3").symlink_to(exe)
    assert str(tmp_path / "py" / "lib") in (interpreter_libs(str(tmp_path / "bin/python3"))
                                            or ())
    (tmp_path / "py" / "bin" / "python3.11").write_bytes(b"\xca\xfe\xba\xbe" + ELF[4:])
    interpreter_libs.cache_clear()  # (macOS's universal binary: no script; K-MACOS)
    assert interpreter_libs(str(tmp_path / "bin/python3")) is not None


@pytest.mark.parametrize("cfg", [
    "home = {B}\ninclude-system-site-packages = true\n",
    "home = {B}\n",  # (no line: site.venv's "true")
    "home = {B}\nhome = /nowhere/bin\ninclude-system-site-packages = true\n",  # (each home)
])
def test_a_venv_with_system_site_packages_reads_its_base(cfg: str, tmp_path: Path) -> None:
    _install(tmp_path / "py")
    found = interpreter_libs(str(_venv(tmp_path / "v", cfg.replace(
        "{B}", str(tmp_path / "py" / "bin")))))
    assert found is None or {str(tmp_path / "v/lib"), str(tmp_path / "py/lib")} <= set(found)
    assert found is not None or "/nowhere" in cfg  # (a home with no landmark: not known)


def test_a_venv_without_system_site_packages_reads_its_own(tmp_path: Path) -> None:
    exe = _venv(tmp_path / "v", "home = /x/bin\ninclude-system-site-packages = false\n")
    assert interpreter_libs(str(exe)) == [str(tmp_path / "v/lib")]


def test_a_script_in_an_interpreters_stead_is_not_known(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python3").write_text("#!/bin/sh\nexec /opt/x/python3 \"$@\"\n")
    assert interpreter_libs(str(tmp_path / "bin/python3")) is None


def test_a_version_managers_shims_read_its_installs(tmp_path: Path) -> None:
    _install(tmp_path / ".asdf/installs/python/3.11.7")
    (tmp_path / ".asdf/shims").mkdir(parents=True)
    (tmp_path / ".asdf/shims/python3").write_text("#!/bin/sh\nexec asdf exec python3\n")
    found = interpreter_libs(str(tmp_path / ".asdf/shims/python3"))
    assert found is not None and str(tmp_path / ".asdf/installs/python/3.11.7/lib") in found


def test_no_landmark_is_not_known(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python3").write_bytes(ELF)
    if os.path.exists("/lib/python3") or any(Path("/lib").glob("python[23]*/os.py")):
        pytest.skip("a landmark at / (merged /usr)")
    assert interpreter_libs(str(tmp_path / "bin/python3")) is None


# --- a site folder's finders ---------------------------------------------------------------

def test_a_pth_module_appending_a_finder_makes_every_name_one(tmp_path: Path) -> None:
    """editables' layout: its names are not known; _distutils_hack's (its finder first) is
    (vetted by its text since session 60, s59-preview E-VETTED; a module of that name with
    another text is read by the allow-list: s59-preview E-DENYLIST-DEEPER)."""
    import _distutils_hack

    (tmp_path / "_distutils_hack").mkdir()
    (tmp_path / "_distutils_hack" / "__init__.py").write_text(
        "import sys\nsys.meta_path.insert(0, F)\n")
    (tmp_path / "hack.pth").write_text("import _distutils_hack\n")
    assert not _finders_read(str(tmp_path))
    (tmp_path / "_distutils_hack" / "__init__.py").write_bytes(
        Path(_distutils_hack.__file__).read_bytes())
    assert _finders_read(str(tmp_path))
    (tmp_path / "editables").mkdir()
    (tmp_path / "editables" / "__init__.py").write_text("from .redirector import F\n")
    (tmp_path / "editables" / "redirector.py").write_text("sys.meta_path.append(cls())\n")
    (tmp_path / "_impl_x.py").write_text("from editables import F\nF.map_module('x', 'p')\n")
    (tmp_path / "_impl_x.pth").write_text("import _impl_x\n")
    assert not _finders_read(str(tmp_path)) and _listing(str(tmp_path)) is None


def test_an_egg_info_entry_point_and_a_finders_mapping_are_read(tmp_path: Path) -> None:
    source = tmp_path / "src"
    (source / "acme_testing.egg-info").mkdir(parents=True)
    (source / "acme_testing.egg-info" / "entry_points.txt").write_text(
        "[pytest11]\nx = acme.testing.plugin\n")
    site = tmp_path / "site-packages"
    site.mkdir()
    (site / "a.pth").write_text(f"{source}\n")
    (site / "__editable___b_1_0_finder.py").write_text("MAPPING = {'bpkg': '/x'}\n")
    assert {"acme", "bpkg"} <= (_listing(str(site)) or set())


# --- conftests ------------------------------------------------------------------------------

def test_a_venv_marked_tests_folders_conftest_is_read(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "pyvenv.cfg").write_text("")
    (tmp_path / "tests" / "conftest.py").write_text("pytest_plugins = ['helpers']\n")
    assert "helpers.py" in conftest_plugins(str(tmp_path))[1]
    (tmp_path / "tests" / "integration").mkdir()  # (an anchor below it: P-VENVMARK2)
    (tmp_path / "tests" / "integration" / "conftest.py").write_text("pytest_plugins = ['b']\n")
    assert "b.py" in conftest_plugins(str(tmp_path), anchors=(
        str(tmp_path / "tests" / "integration"),))[1]


def test_an_anchor_outside_is_read(tmp_path: Path) -> None:
    (tmp_path / "ext" / "sub").mkdir(parents=True)
    (tmp_path / "ext" / "sub" / "conftest.py").write_text("pytest_plugins = ['helpers']\n")
    (tmp_path / "p").mkdir()
    assert "helpers.py" not in conftest_plugins(str(tmp_path / "p"))[1]
    assert "helpers.py" in conftest_plugins(str(tmp_path / "p"), anchors=(
        str(tmp_path / "ext"),))[1]


def test_a_bare_f_string_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text("X = 'a,b'\npytest_plugins = f'tests.f.{X}'\n")
    assert conftest_plugins(str(tmp_path))[0]


# --- the plan's code, its attached -pNAME ----------------------------------------------------

@pytest.mark.parametrize(("entry", "imports"), [
    ("python3 -c 'import tools.run'", True),
    ("python3 -Ic 'from tools import run'", True),
    ("python3 -X dev -c 'from . import x'", True),
    ("python3 -c '__import__(\"tools\")'", True),
    ("python3 -c 'import sys, json; print(sys.version)'", False),
    ("python3 -m pytest -q -c ci/pytest.ini", False),
])
def test_a_plans_code_importing_a_project_module(entry: str, imports: bool) -> None:
    assert _imports_project(entry) is imports


@pytest.mark.parametrize("word", ["-phelper", "-qphelper", "-p helper"])
def test_an_attached_plugin_option_names_its_module(word: str) -> None:
    assert "helper.py" in plan_programs((f"Bash(python3 -m pytest -q {word})",))


# --- s57-greview2's findings ------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "globals().update(pytest_plugins=['helpers'])\n",
    "import sys\nsys.modules[__name__].pytest_plugins = ['helpers']\n",
    "setattr(sys.modules[__name__], 'pytest_' + 'plugins', ['helpers'])\n",
    "def __getattr__(name):\n    return ['helpers']\n",
])
def test_a_conftest_setting_its_names_dynamically_is_not_read(text: str,
                                                               tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(text)
    assert conftest_plugins(str(tmp_path))[0]


@pytest.mark.parametrize("line", [
    "import site; site.addsitedir('/x')",
    "import sys; sys.path.append('/x')",
    "import _f",  # (_f.py: an alias of sys.meta_path appended to)
])
def test_a_pth_line_moving_what_python_imports_is_not_read(line: str, tmp_path: Path) -> None:
    (tmp_path / "_f.py").write_text("import sys\nfinders = sys.meta_path\nfinders.append(F)\n")
    (tmp_path / ".hidden.pth").write_text(line + "\n")
    assert not _finders_read(str(tmp_path))


def test_a_named_module_is_read_where_sys_path_finds_it(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "conftest.py").write_text("pytest_plugins = ['plugs']\n")
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "plugs.py").write_text("pytest_plugins = ['helpers']\n")
    assert "helpers.py" in conftest_plugins(str(tmp_path / "p"), roots=lambda: (
        str(tmp_path / "shared"),))[1]


def test_a_site_namespaces_members_are_site_names(tmp_path: Path) -> None:
    site = tmp_path / "site-packages"
    (site / "acme" / "sub").mkdir(parents=True)
    (site / "acme" / "utils.py").write_text("")
    (site / "acme" / "sub" / "__init__.py").write_text("")
    (site / "regular").mkdir()
    (site / "regular" / "__init__.py").write_text("")
    (site / "regular" / "x.py").write_text("")
    listed = _listing(str(site)) or frozenset()
    assert {"acme/utils", "acme/sub"} <= listed and "regular/x" not in listed


@pytest.mark.slow
def test_an_installations_standard_zip_on_path_is_guarded(tmp_path: Path) -> None:
    """s57-greview2 V-ZIP: ``PREFIX/lib/python311.zip`` of a ``PATH`` folder's installation
    is first on ``sys.path`` after the script's folder (the hook's decision only)."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from bash_review import first_denied, hooked_project

    project = hooked_project(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)"])
    (project / "py" / "bin").mkdir(parents=True)
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(project),
           "PATH": f"{project}/py/bin:{os.environ['PATH']}"}
    assert first_denied(project, ["cp src/x.sh py/lib/python311.zip"], env) is not None


def test_nested_site_namespaces_members_are_site_names(tmp_path: Path) -> None:
    site = tmp_path / "site-packages"
    (site / "acme" / "cloud").mkdir(parents=True)
    (site / "acme" / "cloud" / "utils.py").write_text("")
    assert "acme/cloud/utils" in (_listing(str(site)) or set())


@pytest.mark.parametrize("text", [
    "locals().update({'pytest_' + 'plugins': ['helpers']})\n",
    "import sys\nsys._getframe().f_globals['pytest_' + 'plugins'] = ['helpers']\n",
    "import sys\nimport conf_base\nsys.modules[__name__] = conf_base\n",  # (P-SYSMODULES)
    "import builtins\nbuiltins.setattr(sys.modules[__name__], 'pytest_plugins', ['h'])\n",
])
def test_a_conftest_reaching_its_namespace_is_not_read(text: str, tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(text)
    assert conftest_plugins(str(tmp_path))[0]


@pytest.mark.parametrize(("line", "module"), [
    ("import sys; sys.path += ['/x']", ""),
    ("import _f", "import sys\npaths = sys.path\npaths.append('/x')\n"),
])
def test_sys_path_moved_by_a_pth_is_not_read(line: str, module: str, tmp_path: Path) -> None:
    (tmp_path / "_f.py").write_text(module)
    (tmp_path / "a.pth").write_text(line + "\n")
    assert not _finders_read(str(tmp_path))


def test_an_aliased_sys_path_and_a_module_beside_the_pth_are_read(tmp_path: Path) -> None:
    """s57-greview2 E-REGEX2: ``import sys as s; s.path.append(…)``; a module the ``.pth``
    imports from the folder its own path line adds."""
    (tmp_path / "a.pth").write_text("import sys as s; s.path.append('/x')\n")
    assert not _finders_read(str(tmp_path))
    (tmp_path / "a.pth").write_text(f"{tmp_path}/boot\nimport acme_boot\n")
    (tmp_path / "boot").mkdir()
    (tmp_path / "boot" / "acme_boot.py").write_text("import sys\nsys.path.append('/x')\n")
    assert not _finders_read(str(tmp_path))
