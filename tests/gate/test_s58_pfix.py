"""Session 58 (s58-pfix, issue 29): what pytest and Python import at start, failing closed,
read only where a call needs it. Pins, without real programs: the site folders read by
``pytestini`` only for a module's file or a named module (the hook's cost on every plan
running make/npm/pytest), a conftest reaching the builtins' module by another name
(s57-greview2 P-DYNAMIC4), an archive on ``sys.path`` (E-EGGZIP), an editable install's
source folder's namespaces (N-EDITABLE-SRC) and macOS's ``python3`` stub (K-MACOS)."""

from __future__ import annotations

import os
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from skillgrant.gate import interpreters, loadedlibs, pytestini, sitenames
from skillgrant.gate.conftestplugins import _names
from skillgrant.gate.placed import fold
from skillgrant.gate.sitearchives import archive_tops

# --- the site folders read only where a call needs them ----------------------------------------


def _widened(project: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> tuple[bool, int]:
    """``pytestini.widened`` of ``project/name`` for a plan collecting in ``project``, and how
    many times the site folders were read (``sys_path_folders`` answers None: not known)."""
    asked: list[int] = []

    def unknown(*_: object) -> None:
        asked.append(1)

    monkeypatch.setattr(sitenames, "sys_path_folders", unknown)
    real = fold(os.path.realpath(project))
    guards = SimpleNamespace(run_folders=frozenset({str(project)}), python_libs=frozenset(),
                             named=(), collected=frozenset({real}))
    pytestini._LAST.clear()
    return pytestini.widened(f"{real}/{name}", frozenset({real}), guards), len(asked)


@pytest.mark.parametrize(("conftest", "name", "expected"), [
    ("", "a.txt", (False, 0)),  # (no module's file, no module named: no site folder read)
    ("", "app.py", (True, 1)),  # (a module's: every one where sys.path is not known)
    ("pytest_plugins = ['plugs']\n", "a.txt", (False, 1)),  # (a named module looked up)
])
def test_the_site_folders_are_read_only_where_they_can_change_the_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, conftest: str, name: str,
        expected: tuple[bool, int]) -> None:
    (tmp_path / "conftest.py").write_text(conftest)
    assert _widened(tmp_path, name, monkeypatch) == expected


# --- a conftest reaching the builtins' module otherwise (P-DYNAMIC4) --------------------------

SET = "(sys.modules[__name__], 'pytest_' + 'plugins', ['helpers'])\n"


ANOTHER_NAME = [
    "import builtins as b\nimport sys\nb.setattr" + SET,
    "from builtins import setattr as s\nimport sys\ns" + SET,
    "import builtins, sys\ngetattr(builtins, 'setattr')" + SET,
    "import builtins, sys\ngetattr(builtins, 'set' + 'attr')" + SET,
    "import builtins, sys\ndef f(b):\n    b.setattr" + SET + "f(builtins)\n",
    "import builtins, sys\nb = builtins\nb.setattr" + SET,
    "(lambda: 0).__globals__.update({'pytest_' + 'plugins': ['helpers']})\n",
    "import pickle\npickle.loads(b'cbuiltins\\nsetattr\\n')\n",
]


def test_the_builtins_module_by_another_name_is_not_read() -> None:
    for text in ANOTHER_NAME:
        assert _names(text.encode()) is None, text


@pytest.mark.parametrize(("text", "names"), [
    ("import pytest\n\n\n@pytest.fixture\ndef f(monkeypatch):\n    monkeypatch.setattr("
     "'builtins.input', None)\n    return getattr(monkeypatch, 'undo', None)\n", []),
    ("import builtins\nREAL = builtins.open\npytest_plugins = ['a']\n", ["a"]),
])
def test_everyday_conftests_stay_read(text: str, names: list[str]) -> None:
    assert _names(text.encode()) == names


# --- an archive on sys.path (E-EGGZIP) -----------------------------------------------------------

def test_a_zipped_eggs_names_and_entry_points_are_read(tmp_path: Path) -> None:
    egg = tmp_path / "zzegg-1.0-py3.11.egg"
    with zipfile.ZipFile(egg, "w") as z:
        z.writestr("zzegg.py", "")
        z.writestr("zzpkg/__init__.py", "")
        z.writestr("zzns/member.py", "")
        z.writestr("EGG-INFO/entry_points.txt", "[pytest11]\nzzplug = zzother.plugin\n")
    assert archive_tops(str(egg)) == {"zzegg", "zzpkg", "zzns", "zzns/member", "zzother",
                                      "zzother/plugin"}  # (s59: an entry point's module too)
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "easy-install.pth").write_text(f"{egg}\n")
    assert {"zzegg", "zzother"} <= (sitenames._listing(str(tmp_path / "site")) or set())


def test_a_file_that_is_no_archive_names_nothing(tmp_path: Path) -> None:
    (tmp_path / "no.zip").write_text("not an archive")  # (zipimport skips it)
    assert archive_tops(str(tmp_path / "no.zip")) == set()
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "a.pth").write_text(f"{tmp_path / 'gone.egg'}\n{tmp_path}\n")
    (tmp_path / "site" / "b.pth").write_text(f"{tmp_path / 'site'}\n")
    os.mkfifo(tmp_path / "fifo.egg")  # (a file not read: no listing)
    (tmp_path / "site" / "c.pth").write_text(f"{tmp_path / 'fifo.egg'}\n")
    assert sitenames._listing(str(tmp_path / "site")) is not None  # (a fifo is no file)


# --- an editable install's source folder (N-EDITABLE-SRC) --------------------------------------

def test_a_source_folders_namespaces_are_site_names(tmp_path: Path) -> None:
    source, site = tmp_path / "acme-utils" / "src", tmp_path / "site-packages"
    (source / "acme" / "utils").mkdir(parents=True)
    (source / "acme" / "utils" / "__init__.py").write_text("")
    site.mkdir()
    (site / "__editable__.acme_utils-1.0.pth").write_text(f"{source}\n")
    assert "acme" in (sitenames._listing(str(site)) or set())
    assert sitenames._source_members(str(site), (str(tmp_path / "p"),)) == {"acme/utils"}
    assert sitenames._source_members(str(site), (str(tmp_path / "acme-utils"),)) == set()


# --- macOS's python3 stub (K-MACOS) ------------------------------------------------------------

def test_macos_stub_reads_its_developer_folders_python(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    stub = tmp_path / "usr" / "bin" / "python3"
    stub.parent.mkdir(parents=True)
    stub.write_bytes(b"\xca\xfe\xba\xbe\x00\x00\x00\x02")
    developer = tmp_path / "CommandLineTools"
    (developer / "usr" / "bin").mkdir(parents=True)
    link = tmp_path / "xcode_select_link"
    link.symlink_to(developer)
    monkeypatch.setattr(interpreters, "_STUB", str(stub))
    monkeypatch.setattr(interpreters, "_XCODE_SELECT", str(link))
    monkeypatch.setattr(interpreters, "_DARWIN", [True])
    monkeypatch.delenv("DEVELOPER_DIR", raising=False)
    interpreters.interpreter_libs.cache_clear()
    assert interpreters.interpreter_libs(str(stub)) == []  # (no python3 there: none runs)
    real = os.path.join(sys.base_prefix, "bin", "python3")
    (developer / "usr" / "bin" / "python3").symlink_to(real)
    interpreters.interpreter_libs.cache_clear()
    assert interpreters.interpreter_libs(str(stub)) == interpreters.interpreter_libs(real)
    monkeypatch.setattr(interpreters, "_DARWIN", [False])  # (elsewhere: a script, not known)
    interpreters.interpreter_libs.cache_clear()
    assert interpreters.interpreter_libs(str(stub)) is None
    interpreters.interpreter_libs.cache_clear()


# --- a FIFO is read by no one: not waited for ------------------------------------------------

def test_a_fifo_in_an_interpreters_or_a_pth_files_stead_is_not_known(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "python3")
    interpreters.interpreter_libs.cache_clear()
    assert interpreters.interpreter_libs(str(tmp_path / "python3")) is None
    (tmp_path / "site").mkdir()
    os.mkfifo(tmp_path / "site" / "zz.pth")
    assert sitenames._listing(str(tmp_path / "site")) is None


# --- a folder a site .pth adds, holding a pytest plugin (real bash, python3, pytest) -----------

#: Makes, in ``$D``, the distribution ``zzpkg`` whose ``pytest11`` entry point names the
#: package module ``zzpkg.plugin``.
DIST = ('mkdir -p "$D/zzpkg-1.0.dist-info" "$D/zzpkg" && printf "Metadata-Version: 2.1\\nName: '
        'zzpkg\\nVersion: 1.0\\n" > "$D/zzpkg-1.0.dist-info/METADATA" && printf "[pytest11]\\n'
        'zz = zzpkg.plugin\\n" > "$D/zzpkg-1.0.dist-info/entry_points.txt" && : > '
        '"$D/zzpkg/__init__.py" && : > "$D/zzpkg/plugin.py"')
#: Each case: what each project's ``prepare`` makes (an in-project venv, its ``.pth`` naming
#: ``vendor/``), the session's environment, the calls.
PLUGIN_FOLDERS = {
    # (open before s58-pfix: the module a folder of the project a site .pth adds was written)
    "in-project-pth-folder": (
        'python3 -m venv --without-pip --system-site-packages .venv && S=$(echo .venv/lib/'
        'python3*/site-packages) && echo ../../../../vendor > "$S/ext.pth" && D=vendor && '
        + DIST, {"PATH": "{P}/.venv/bin:{PATH}", "VIRTUAL_ENV": "{P}/.venv"},
        ["cp src/p vendor/zzpkg/plugin.py", "python3 -m pytest -q"]),
    # (held) a PYTHONPATH folder's distribution naming a package module: its package shadowed
    "pythonpath-distribution-package-module": (
        "D=$PWD/../shared && " + DIST, {"PYTHONPATH": "{P}/../shared"},
        ["cp src/p zzpkg.py", "python3 -m pytest -q"]),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", PLUGIN_FOLDERS)
def test_a_plugin_a_folder_on_sys_path_holds_is_not_written(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: the write, then pytest imports
    the plugin's module at its start (the payload proved to run each time)."""
    from bash_review import needs
    from test_s57_greview2 import PASSES, _session

    needs("python3", "pytest")
    prepare, env, calls = PLUGIN_FOLDERS[case]
    assert _session(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
                    {"tests/test_a.py": PASSES}, calls, env=env, prepare=prepare) == calls[0]


# --- pytest's words in a pattern entry's call (s56-greview3 O pattern-plan) --------------------

#: Each call, and a word of what it gives pytest that denies it (None: allowed).
CALLS: list[tuple[str, str | None]] = [
    ("python3 -m pytest -q", None),
    ("python3 -m pytest -qx --lf tests/test_a.py::test_a -k 'a or b' -n 4", None),
    ("pytest -vv --tb short -p no:cacheprovider -rA --cov=src --junitxml=r.xml", None),
    ("grep -r pytest /etc", None),  # (a word, not the program)
    ("python3 -m pytest -q -p helpers", "-p"),
    ("python3 -m pytest -qphelpers", "-p"),
    ("python3 -m pytest --override-ini=pythonpath=mypkg", "--override-ini=pythonpath=mypkg"),
    ("python3 -m pytest -c other.ini", "-c"),
    ("python3 -m pytest --rootdir=/tmp", "--rootdir=/tmp"),
    ("python3 -m pytest /etc", "/etc"),  # (an anchor outside: its conftests unread)
    ("cd sub && python3 -m pytest -q", None),
    ("python3 -m pytest sub", "sub"),  # (below a settings file the plan does not read)
    ("uv run pytest --pyargs acme", "--pyargs"),
    ("python3 -m pytest -q $(echo -p helpers)", "$"),
    ("X='-p helpers'; python3 -m pytest $X", "$X"),
    ("PYTEST_ADDOPTS='-p helpers' python3 -m pytest -q", "PYTEST_ADDOPTS"),
    ("CI=1 python3 -m pytest -q", None),
    ("python3 -m pytest {-p,helpers}", "{"),
    ("python3 -m pytest *", "*"),  # (a file named `-phelpers` matches)
    ("python3 -m pytest 'tests/test_a.py::test_b[1-2]'", None),
    ("python3 -Im pytest -p helpers", "-p"),  # (python's options however spelled)
    ("python3 -mpytest -p helpers", "-p"),
    ("python3 -m pytest -o log_cli=true -olog_cli_level=INFO", None),
    ("python3 -m pytest -o addopts=-phelpers", "-o"),
    ("python3 -m pytest --override-ini=testpaths=/etc", "--override-ini=testpaths=/etc"),
    ("python3 -m pytest -q -xWerror::helpers.Warn", "helpers"),  # (s58-preview C-CLUSTER-W)
    ("python3 -m pytest -sxW error::helpers.Warn", "helpers"),
    ("python3 -m pytest -rA -n4 -vvx", None),
]


def test_a_pattern_entrys_pytest_words_are_read(tmp_path: Path) -> None:
    from skillgrant.gate.callpytest import pattern_word

    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pytest.ini").write_text("[pytest]\n")
    for call, word in CALLS:
        found = pattern_word(call, str(tmp_path), [], (str(tmp_path),))
        assert (found is None) == (word is None), (call, found)
        assert word is None or word in (found or ""), call


def test_a_plan_entrys_own_text_is_read_at_plan_time() -> None:
    from skillgrant.gate.callpytest import pattern_word

    assert pattern_word("python3 -m pytest -q -p helpers", "/", [
        "python3 -m pytest -q -p helpers"], ("/",)) is None


# --- s58-preview's findings ----------------------------------------------------------------------

@pytest.mark.parametrize("data", [
    "ｐytest_plugins = ['helpers']\n".encode(),  # (NFKC: Python's identifier is pytest_plugins)
    b"# -*- coding: utf-7 -*-\n" + "pytest_plugins = ['helpers']\n".encode("utf-7"),
])
def test_a_conftest_spelled_otherwise_is_parsed(tmp_path: Path, data: bytes) -> None:
    from skillgrant.gate.conftestplugins import _read

    (tmp_path / "conftest.py").write_bytes(data)
    assert _read(str(tmp_path / "conftest.py")) == ["helpers"]


@pytest.mark.parametrize("text", [
    "__getattr__ = lambda n: ['helpers'] if n == 'pytest_' + 'plugins' else None\n",
    "import sys\ngetattr(sys.modules[__name__], '__di' + 'ct__').update(x=1)\n",
])
def test_a_module_getattr_or_namespace_by_a_computed_name_is_not_read(text: str) -> None:
    assert _names(text.encode()) is None


START_CODE: list[tuple[dict[str, str], bool]] = [
    ({"a.pth": "import os; exec('import sys; sys.pa' + 'th.append(\"/x\")')\n"}, False),
    ({"a.pth": "import os; run = exec; run('x = 1')\n"}, False),
    ({"a.pth": "import os; exec('try:\\n import certifi\\nexcept Exception: pass\\n')\n"}, True),
    ({"sitecustomize.py": "import sys\nsys.path.append('/x')\n"}, False),  # (E-SITECUSTOMIZE)
    ({"sitecustomize.py": "import os\n"}, True),
]


def test_a_site_folders_start_code_is_read(tmp_path: Path) -> None:
    from skillgrant.gate.sitefinders import _finders_read

    for at, (files, read) in enumerate(START_CODE):
        (tmp_path / str(at)).mkdir()
        for name, text in files.items():
            (tmp_path / str(at) / name).write_text(text)
        assert _finders_read(str(tmp_path / str(at)), loadedlibs.pth_files(str(
            tmp_path / str(at))), sitenames.line_names) is read, files


def test_the_sessions_python_variables_and_a_tilde_path_are_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    site = home / "venv" / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    (home / "venv" / "bin").mkdir()
    (home / "venv" / "pyvenv.cfg").write_text("include-system-site-packages = false\n")
    (home / "venv" / "bin" / "python3").write_bytes(b"\x7fELF" + b"\0" * 12)
    (site / "zztilde.py").write_text("")
    pair = tmp_path / "exec" / "lib" / "python3.11" / "site-packages"
    pair.mkdir(parents=True)
    (pair / "zzpair.py").write_text("")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", "~/venv/bin:/usr/bin:/bin")  # (T-TILDE-PATH)
    monkeypatch.setenv("PYTHONHOME", f"{tmp_path / 'prefix'}:{tmp_path / 'exec'}")  # (T-PAIR)
    interpreters.interpreter_libs.cache_clear()
    names = sitenames.site_names(frozenset({str(tmp_path / "p")})) or frozenset()
    assert {"zztilde", "zzpair"} <= names
    monkeypatch.setenv("PYTHONPLATLIBDIR", "lib64")  # (T-PLATLIBDIR: not read)
    assert sitenames.site_names(frozenset({str(tmp_path / "p")})) is None


def test_a_pythonpath_folders_modules_are_site_names(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "zzshared.py").write_text("")  # (no distribution's metadata there)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "shared"))
    assert "zzshared" in (sitenames.site_names(frozenset({str(tmp_path / "p")})) or set())


#: pip's console script's body (after its ``#!``), running pytest's entry point.
CONSOLE = ("# -*- coding: utf-8 -*-\nimport re\nimport sys\nfrom pytest import console_main\n"
           "if __name__ == '__main__':\n    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', "
           "sys.argv[0])\n    sys.exit(console_main())\n")


#: Each script on PATH named pytest, and whether its interpreter is known.
SCRIPTS: list[tuple[str, bool]] = [
    ("#!{V}/bin/python\n" + CONSOLE, True),
    ("#!{V}/bin/python\nimport sys\nsys.path.append('/x')\n" + CONSOLE, False),  # (T-SCRIPT-BODY)
    ("#!/bin/sh\n'''exec' \"{V}/bin/python\" \"$0\" \"$@\"\n' '''\n" + CONSOLE, True),
    ("#!/usr/bin/env bash\nexec {V}/bin/python -m pytest \"$@\"\n", True),
    ("#!/usr/bin/env bash\nexport PYTHONPATH=/x\nexec {V}/bin/python -m pytest \"$@\"\n", False),
    ("#! /bin/bash -e\nexport PYTHONNOUSERSITE=true\nexec -a \"$0\" \"{V}/bin/python\" -m pytest "
     "\"$@\"\n", True),  # (Nix's makeWrapper: s58-preview K-WRAPPER)
    ("#!/bin/sh\nexec {V}/bin/python /x/run.py \"$@\"\n", False),  # (T-WRAPPER-SCRIPT)
]


def test_a_test_runners_script_on_path_reads_its_interpreter(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    venv = tmp_path / "pipx" / "venvs" / "pytest"  # (off PATH: s58-preview T-SHEBANG)
    (venv / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    (venv / "lib" / "python3.11" / "site-packages" / "zzpipx.py").write_text("")
    (venv / "bin").mkdir()
    (venv / "bin" / "python").write_bytes(b"\x7fELF" + b"\0" * 12)
    (venv / "pyvenv.cfg").write_text("include-system-site-packages = false\n")
    for at, (script, known) in enumerate(SCRIPTS):
        (tmp_path / str(at)).mkdir()
        (tmp_path / str(at) / "pytest").write_text(script.replace("{V}", str(venv)))
        monkeypatch.setenv("PATH", f"{tmp_path / str(at)}:/usr/bin:/bin")
        names = sitenames.site_names(frozenset({str(tmp_path / "p")}))
        assert ((names is not None and "zzpipx" in names) if known else names is None), script


def test_an_installation_holding_another_versions_landmark_is_not_known(
        tmp_path: Path) -> None:
    (tmp_path / "py" / "bin").mkdir(parents=True)  # (s58-preview V-LANDMARK-VERSION)
    (tmp_path / "py" / "lib" / "python3.12").mkdir(parents=True)
    (tmp_path / "py" / "lib" / "python3.12" / "os.py").write_text("")
    (tmp_path / "py" / "bin" / "python3.11").write_bytes(b"\x7fELF" + b"\0" * 12)
    interpreters.interpreter_libs.cache_clear()
    assert interpreters.interpreter_libs(str(tmp_path / "py" / "bin" / "python3.11")) is None
    (tmp_path / "py" / "lib" / "python3.11").mkdir()
    (tmp_path / "py" / "lib" / "python3.11" / "os.py").write_text("")
    interpreters.interpreter_libs.cache_clear()
    interpreters._landmark.cache_clear()
    assert interpreters.interpreter_libs(str(tmp_path / "py" / "bin" / "python3.11")) == [
        str(tmp_path / "py" / "lib")]


def test_a_source_folders_test_folder_is_no_namespace(tmp_path: Path) -> None:
    source, site = tmp_path / "flat", tmp_path / "site-packages"  # (an editable flat layout)
    (source / "tests").mkdir(parents=True)
    (source / "tests" / "test_a.py").write_text("")
    (source / "tests" / "helpers.py").write_text("")
    site.mkdir()
    (site / "__editable__.flat-1.0.pth").write_text(f"{source}\n")
    assert "tests" not in (sitenames._listing(str(site)) or set())
    assert sitenames._source_members(str(site), (str(tmp_path / "p"),)) == set()


def test_the_projects_own_pythonpath_folder_is_no_site_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "p").mkdir()  # (s58-preview K-PYTHONPATH-DOT: `PYTHONPATH=.`)
    (tmp_path / "p" / "zzapp.py").write_text("")
    monkeypatch.setenv("PYTHONPATH", ".")
    assert "zzapp" not in (sitenames.site_names(frozenset({str(tmp_path / "p")})) or {"zzapp"})


def test_an_ini_option_making_every_module_a_plugin_keeps_the_lazy_reading(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -q\n")  # (R-LAZY-ADDOPTS)
    assert _widened(tmp_path, "app.py", monkeypatch) == (True, 1)


GETATTRS: list[tuple[str, bool]] = [
    ("import ssl\n\n\ndef v(request):\n    return getattr(ssl, request.param, 0)\n", True),
    ("import pytest\n\n\ndef f(request, how):\n    getattr(pytest, how)(reason='x')\n", True),
    ("import sys\ngetattr(sys, 'mod' + 'ules')\n", False),  # (s58-preview K-GETATTR)
    ("import ssl\ngetattr(ssl, '__buil' + 'tins__')['set' + 'attr']\n", False),
]


def test_a_computed_getattr_is_read_but_of_a_namespace() -> None:
    for text, read in GETATTRS:
        assert (_names(text.encode()) is not None) is read, text


def test_a_pth_file_longer_than_read_is_not_known(tmp_path: Path) -> None:
    (tmp_path / "a.pth").write_text("#\n" * (1 << 21) + "/elsewhere\n")  # (E-PTH-TRUNCATED)
    assert sitenames._listing(str(tmp_path)) is None
    (tmp_path / "a.pth").write_text("#\n" * 600_000 + f"{tmp_path / 'acme'}\n")  # (1.2 MB)
    (tmp_path / "acme").mkdir()
    (tmp_path / "acme" / "zzlong.py").write_text("")
    sitenames._listing.cache_clear()
    assert "zzlong" in (sitenames._listing(str(tmp_path)) or set())


def test_the_sessions_user_base_is_read_for_every_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "ub" / "lib" / "python3.12" / "site-packages"  # (T-USERBASE-VERSION)
    site.mkdir(parents=True)
    (site / "zzuser.py").write_text("")
    monkeypatch.setenv("PYTHONUSERBASE", str(tmp_path / "ub"))
    assert "zzuser" in (sitenames.site_names(frozenset({str(tmp_path / "p")})) or set())


def test_only_setuptools_namespace_line_itself_is_exempt(tmp_path: Path) -> None:
    from skillgrant.gate.sitefinders import _finders_read

    (tmp_path / "acme-nspkg.pth").write_text(  # (s58-preview E-NSPKG-LOOKALIKE)
        "import sys; has_mfs = 1; p = 0; mp = []; mp.append(p); sys.path.append('/x')\n")
    assert not _finders_read(str(tmp_path), loadedlibs.pth_files(str(tmp_path)),
                             sitenames.line_names)


def test_a_binary_test_runner_on_path_is_not_known(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bin").mkdir()  # (s58-preview T-TRAMPOLINE: pixi's, a launcher's)
    (tmp_path / "bin" / "pytest").write_bytes(b"\x7fELF" + b"\0" * 12)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    assert sitenames.site_names(frozenset({str(tmp_path / "p")})) is None


def test_an_installation_whose_binary_names_no_version_is_not_known(tmp_path: Path) -> None:
    (tmp_path / "py" / "x" / "bin").mkdir(parents=True)  # (V-LANDMARK-VERSIONLESS)
    (tmp_path / "py" / "x" / "lib" / "python3.12").mkdir(parents=True)
    (tmp_path / "py" / "x" / "lib" / "python3.12" / "os.py").write_text("")
    (tmp_path / "py" / "x" / "bin" / "python3").write_bytes(b"\x7fELF" + b"\0" * 12)
    interpreters.interpreter_libs.cache_clear()
    assert interpreters.interpreter_libs(str(tmp_path / "py" / "x" / "bin" / "python3")) is None


def test_a_module_the_standard_library_tries_is_guarded() -> None:
    from skillgrant.gate.pymodule import module_path

    for key in ("/p/org.py", "/p/org/__init__.py", "/p/java.py"):
        assert module_path(key)  # (copy's `from org.python.core import …`: O-STDLIB-OPTIONAL)


def test_a_venvs_base_is_found_by_the_venvs_version(tmp_path: Path) -> None:
    (tmp_path / "py" / "x" / "bin").mkdir(parents=True)  # (V-LANDMARK-VENV-HOME)
    (tmp_path / "py" / "x" / "lib" / "python3.12").mkdir(parents=True)
    (tmp_path / "py" / "x" / "lib" / "python3.12" / "os.py").write_text("")
    (tmp_path / "py" / "lib" / "python3.11").mkdir(parents=True)
    (tmp_path / "py" / "lib" / "python3.11" / "os.py").write_text("")
    venv = tmp_path / "v"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_bytes(b"\x7fELF" + b"\0" * 12)
    (venv / "pyvenv.cfg").write_text(f"home = {tmp_path / 'py' / 'x' / 'bin'}\n"
                                     "include-system-site-packages = true\nversion = 3.11.7\n")
    interpreters.interpreter_libs.cache_clear()
    assert str(tmp_path / "py" / "lib") in (interpreters.interpreter_libs(
        str(venv / "bin" / "python")) or [])
