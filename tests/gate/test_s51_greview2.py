"""Review s51 (s51-greview2) of s51-gfix2: the files a test runner the plan allows loads because
of their name or place (pytest's settings found from its arguments, its default doctest
files, the distributions on its ``sys.path``; node's and bun's test files; unittest's
discovery), and the everyday calls a pytest plan needs. Each hole is proved with real bash in
a scratch copy first (a scratch home), then the printed hook is asked for each call in turn,
running the allowed ones; the hook allowing them all is the finding: these tests fail while
the hole is open (``OPEN`` marks them strict xfails)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved_case

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

PYTHON = "/usr/bin/python3"
VENV_PYTHON = "/work/venv/bin/python"
BUN = Path.home() / ".cache/skillgrant-runtime/bun-1.4.5/package/bin"
#: Python code running the payload.
PY_PAYLOAD = "import os; os.system('touch zz')\n"
#: JavaScript running the payload.
JS_PAYLOAD = "require('child_process').execSync('touch zz')\n"
#: A doctest running the payload.
DOCTEST = ">>> import os; _ = os.system('touch zz')\n"
#: A test of the project's own.
OWN_TEST = "def test_a():\n    pass\n"


def _case(tmp_path: Path, entry: str, copies: list[str], more: dict[str, str | bytes],
          extra: dict[str, str] | None = None, writer: str = "cp *") -> str | None:
    """Proves that the calls ``copies`` then ``entry`` run the payload under real bash
    (scratch home, the session's ``extra`` values) in a hooked project holding ``more``,
    plan ``Bash(<entry>)``, ``Bash(<writer>)``; the first call the printed hook denies, or
    None."""
    return proved_case(tmp_path, [f"Bash({entry})", f"Bash({writer})"], more,
                       [*copies, entry], extra)


# --- D1: the doctest files pytest collects by default -----------------------------------------


#: Each case: the entry, the file the payload goes to, the project's own files. pytest's
#: doctest plugin collects ``test*.txt`` (``--doctest-glob``'s default) at any depth below
#: the folders it collects, without any option, and runs each example in it.
DOCTESTS = {"root": (f"{VENV_PYTHON} -m pytest", "test_notes.txt", {}),
            "tests-folder": (f"{VENV_PYTHON} -m pytest", "tests/test_notes.txt",
                             {"tests/test_a.py": OWN_TEST}),
            "named-folder": (f"{VENV_PYTHON} -m pytest tests", "tests/deep/testing.txt",
                             {"tests/test_a.py": OWN_TEST, "tests/deep/keep": ""}),
            "console-script": ("/work/venv/bin/pytest", "tests/test_x.txt",
                               {"tests/test_a.py": OWN_TEST})}


@pytest.mark.parametrize("case", list(DOCTESTS))
def test_d1_the_doctest_files_pytest_collects_by_default(tmp_path: Path, case: str) -> None:
    """pytest collects ``test*.txt`` below its folders (``_pytest/doctest.py``:
    ``config.getoption("doctestglob") or ["test*.txt"]``) and runs their examples;
    ``testfiles.test_name`` reads python names only: plan ``Bash(<entry>)``, ``Bash(cp *)``,
    ``cp src/d <file>`` is allowed and pytest runs the example."""
    entry, target, more = DOCTESTS[case]
    needs("bash", VENV_PYTHON)
    denied = _case(tmp_path, entry, [f"cp src/d {target}"], {**more, "src/d": DOCTEST})
    assert denied is not None, "the hook allows a doctest file pytest collects"


# (test_d1_the_doctest_files_pytest_collects_by_default: held since the s51 merge)


# --- I1: pytest's settings found from its arguments' folder ------------------------------------


#: Each settings file pytest finds first walking up from its arguments' common folder
#: (``findpaths.locate_config``: ``pytest.toml``, ``.pytest.toml``, ``pytest.ini``,
#: ``.pytest.ini``, ``pyproject.toml``, ``tox.ini``, ``setup.cfg``), here ``tests/``, and
#: its text making pytest collect every ``*.py`` there (``python_files``).
SETTINGS = {"pytest.ini": "[pytest]\npython_files = *.py\n",
            ".pytest.ini": "[pytest]\npython_files = *.py\n",
            "pytest.toml": "[pytest]\npython_files = ['*.py']\n",
            ".pytest.toml": "[pytest]\npython_files = ['*.py']\n",
            "pyproject.toml": "[tool.pytest.ini_options]\npython_files = ['*.py']\n",
            "tox.ini": "[pytest]\npython_files = *.py\n",
            "setup.cfg": "[tool:pytest]\npython_files = *.py\n"}


@pytest.mark.parametrize("case", list(SETTINGS))
def test_i1_settings_in_the_folder_pytest_is_given(tmp_path: Path, case: str) -> None:
    """``pytest tests`` looks for its settings in ``tests/`` first (the common folder of its
    arguments), then above; the gate guards those names in the call's folder and above
    (``starttables``' ``^pytest.ini``…), not in ``tests/``: plan ``Bash(python -m pytest
    tests)``, ``Bash(cp *)``: ``cp src/s tests/<settings>``, ``cp src/h tests/helper.py``
    are allowed and pytest imports ``helper.py``."""
    needs("bash", VENV_PYTHON)
    entry = f"{VENV_PYTHON} -m pytest tests"
    denied = _case(tmp_path, entry, [f"cp src/s tests/{case}", "cp src/h tests/helper.py"],
                   {"tests/test_a.py": OWN_TEST, "src/s": SETTINGS[case], "src/h": PY_PAYLOAD})
    assert denied is not None, "the hook allows settings pytest reads from its argument's folder"


# --- P2: a distribution's pytest plugin, in the spellings importlib.metadata reads -------------


def _plugin(info: str) -> dict[str, str | bytes]:
    """A distribution's metadata folder ``src/pl/<info>`` declaring the pytest plugin
    ``xmod`` and the module, running the payload."""
    return {f"src/pl/{info}/METADATA": "Metadata-Version: 2.1\nName: xplug\nVersion: 1\n",
            f"src/pl/{info}/PKG-INFO": "Metadata-Version: 2.1\nName: xplug\nVersion: 1\n",
            f"src/pl/{info}/entry_points.txt": "[pytest11]\nxplug = xmod\n",
            "src/pl/xmod.py": PY_PAYLOAD}


#: Each case: the metadata folder's name (``importlib.metadata``'s ``Lookup`` folds the name's
#: case and reads ``.dist-info`` and ``.egg-info``), the entry, the folder on its sys.path,
#: the session's extra values.
INFOS = {"upper-dist-info": ("x.DIST-INFO", f"{VENV_PYTHON} -m pytest", ".", {}),
         "egg-info": ("x.egg-info", f"{VENV_PYTHON} -m pytest", ".", {}),
         "mixed-egg-info": ("x-1.Egg-Info", f"{VENV_PYTHON} -m pytest", ".", {}),
         "session-pythonpath": ("x.dist-info", "/work/venv/bin/pytest tests", "lib",
                                {"PYTHONPATH": "{P}/lib"})}


@pytest.mark.parametrize("case", list(INFOS))
def test_p2_a_distributions_plugin_in_other_spellings(tmp_path: Path, case: str) -> None:
    """pytest loads the ``pytest11`` entry points of every distribution on ``sys.path``;
    ``importlib.metadata`` finds a metadata folder by its name ending in ``.dist-info`` or
    ``.egg-info`` in any case: plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp -r
    src/pl/<info> <folder>/``, ``cp src/pl/xmod.py <folder>/`` are allowed and pytest imports
    the plugin."""
    info, entry, folder, extra = INFOS[case]
    needs("bash", VENV_PYTHON)
    more: dict[str, str | bytes] = {"tests/test_a.py": OWN_TEST, "lib/keep": "",
                                    **_plugin(info)}
    denied = _case(tmp_path, entry, [f"cp -r src/pl/{info} {folder}/{info}",
                                     f"cp src/pl/xmod.py {folder}/xmod.py"], more, extra)
    assert denied is not None, "the hook allows a pytest plugin's distribution on sys.path"


# --- C4: the integration tests cargo collects -------------------------------------------------


#: A test running the payload, and a crate with no dependency (cargo builds it offline).
RUST_TEST = ('#[test]\nfn t() { std::process::Command::new("touch").arg("zz").status()'
             '.unwrap(); }\n')
CRATE = {"Cargo.toml": '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n',
         "src/lib.rs": "pub fn f() {}\n", "tests/keep": "", "tests/sub/keep": ""}
#: Each case: the file cargo finds by its place (its target auto-discovery: each
#: ``tests/*.rs`` and ``tests/*/main.rs`` an integration test it builds and runs).
CARGO_TESTS = {"tests-rs": "tests/evil.rs", "tests-main": "tests/sub/main.rs"}


@pytest.mark.parametrize("case", list(CARGO_TESTS))
def test_c4_the_tests_cargo_collects(tmp_path: Path, case: str) -> None:
    """``cargo test`` builds and runs each integration test it finds by its place
    (``tests/*.rs``, ``tests/*/main.rs``); planprograms marks cargo a collector (``&*``) but
    ``testfiles.test_name`` reads python and node names only: plan ``Bash(cargo test)``,
    ``Bash(cp *)``: ``cp src/t tests/evil.rs`` is allowed and cargo runs the test."""
    needs("bash", "cargo")
    target = CARGO_TESTS[case]
    denied = _case(tmp_path, "cargo test", [f"cp src/t {target}"],
                   {**CRATE, "src/t": RUST_TEST})
    assert denied is not None, "the hook allows a test cargo collects"


# (test_c4_the_tests_cargo_collects: held since the s51 merge)


# --- N1 (held): node's and bun's test files, by node 20's and bun 1.4.5's own patterns ---------


#: Each case: the entry, the file it runs (measured: node 20.20 runs ``test.js``,
#: ``test-a.js``, ``a-test.js``, ``a_test.js``, ``a.test.cjs``/``.mjs``, each script below
#: any ``test/`` folder, a hidden folder's; bun 1.4.5 ``.test``/``_test``/``.spec``/``_spec`` of
#: js/jsx/ts/tsx and mjs/cjs/mts/cts), the project's files.
JS_RUNS = {"node-bare-test": ("node --test", "test.js", {}),
           "node-dash": ("node --test", "lib/x-test.js", {"lib/keep": ""}),
           "node-test-prefix": ("node --test", "test-a.cjs", {}),
           "node-deep-test-folder": ("node --test", "lib/test/sub/x.js",
                                     {"lib/test/sub/keep": ""}),
           "node-hidden": ("node --test", ".cache/a.test.js", {".cache/keep": ""}),
           "bun-mts": ("bun test", "a.test.mts", {}),
           "bun-cjs-spec": ("bun test", "lib/x.spec.cjs", {"lib/keep": ""})}


@pytest.mark.parametrize("case", list(JS_RUNS))
def test_n1_node_and_bun_test_files(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/j <test>`` is denied (the runner
    would run it: proved with real bash first)."""
    entry, target, more = JS_RUNS[case]
    needs("bash", "node")
    extra = {"PATH": f"{BUN}:{os.environ['PATH']}"} if entry.startswith("bun") else None
    if extra and not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    denied = _case(tmp_path, entry, [f"cp src/j {target}"], {**more, "src/j": JS_PAYLOAD},
                   extra)
    assert denied is not None, "the hook allows a test file the runner collects"


# --- V1: pytest's own start variables naming what it imports ------------------------------------


#: Each case: the entry, the file the payload goes to, the session's extra values. pytest
#: imports each module ``PYTEST_PLUGINS`` names (comma-separated) at its start, and reads
#: ``PYTEST_ADDOPTS`` as options before its command line's (``-p plug``, ``--doctest-modules``:
#: each module below its folder), under ``python -m`` from the folder it runs in.
PYTEST_VARS = {
    "entry-plugins": (f"PYTEST_PLUGINS=plug {VENV_PYTHON} -m pytest", "plug.py", {}),
    "entry-addopts-p": (f"PYTEST_ADDOPTS='-p plug' {VENV_PYTHON} -m pytest", "plug.py", {}),
    "entry-addopts-doctest": (f"PYTEST_ADDOPTS=--doctest-modules {VENV_PYTHON} -m pytest",
                              "helper.py", {}),
    "entry-export-plugins": (f"export PYTEST_PLUGINS=plug; {VENV_PYTHON} -m pytest", "plug.py",
                             {}),
    "session-plugins": (f"{VENV_PYTHON} -m pytest", "plug.py", {"PYTEST_PLUGINS": "plug"}),
    "session-addopts": (f"{VENV_PYTHON} -m pytest", "helper.py",
                        {"PYTEST_ADDOPTS": "--doctest-modules"})}


@pytest.mark.parametrize("case", list(PYTEST_VARS))
def test_v1_pytests_own_variables_name_what_it_imports(tmp_path: Path, case: str) -> None:
    """``collectopts`` reads pytest's ``-p``/``--doctest-modules`` among the entry's words;
    the same given through pytest's own variables (``PYTEST_PLUGINS=plug``,
    ``PYTEST_ADDOPTS='-p plug'``/``--doctest-modules``, the entry's or the session's) is read
    by no rule: plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/h <module>`` is allowed and
    pytest imports it."""
    entry, target, extra = PYTEST_VARS[case]
    needs("bash", VENV_PYTHON)
    denied = _case(tmp_path, entry, [f"cp src/h {target}"],
                   {"test_a.py": OWN_TEST, "src/h": PY_PAYLOAD}, extra)
    assert denied is not None, "the hook allows a module pytest's own variable names"


# (test_v1_pytests_own_variables_name_what_it_imports: held since the s51 merge)


# --- K4: pytest's -p plugin module, in a folder on sys.path other than the call's -----------------


#: Each case: the entry, the session's extra values. ``-p plug`` imports ``plug`` from the
#: first folder of ``sys.path`` holding it: an entry's ``PYTHONPATH=lib`` or the session's
#: put ``lib`` before the folder ``python -m`` runs in.
PLUGIN_PATHS = {"entry-pythonpath": (f"PYTHONPATH=lib {VENV_PYTHON} -m pytest -p plug", {}),
                "session-pythonpath": (f"{VENV_PYTHON} -m pytest -p plug",
                                       {"PYTHONPATH": "{P}/lib"})}


@pytest.mark.parametrize("case", list(PLUGIN_PATHS))
def test_k4_a_plugin_module_in_a_pythonpath_folder(tmp_path: Path, case: str) -> None:
    """pytest imports ``-p plug`` from ``PYTHONPATH``'s folder first (whose standard
    modules' names only are guarded): plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/h
    lib/plug.py`` then the entry is denied (s51-gfix2 dbc0ec5: such a plan refuses)."""
    entry, extra = PLUGIN_PATHS[case]
    needs("bash", VENV_PYTHON)
    denied = _case(tmp_path, entry, ["cp src/h lib/plug.py"],
                   {"test_a.py": OWN_TEST, "lib/keep": "", "src/h": PY_PAYLOAD}, extra)
    assert denied is not None, "the hook allows a -p plugin module on PYTHONPATH"


# --- K5 (cost): a pytest plan's everyday calls denied -------------------------------------------


#: Each case: the plan's entries, the call they approve that the hook denies. A test removed
#: through git (``git rm``, ``--cached``: the file stays) or renamed to another test's name in
#: its folder (``mv``, ``git mv``: the same code collected under another name) runs no code
#: the plan did not approve; a plan naming pytest's console script by its path (a venv's
#: ``.venv/bin/pytest``, ``/work/venv/bin/pytest``) with a test folder or a ``-k`` denies its
#: own entry (measured on the base too: ``python3 -m pytest tests`` and ``pytest tests`` are
#: allowed).
EVERYDAY = {"git-rm": (["python3 -m pytest", "git rm *"], "git rm tests/test_a.py"),
            "git-rm-cached": (["python3 -m pytest", "git rm *"],
                              "git rm --cached tests/test_a.py"),
            "mv-rename": (["python3 -m pytest", "mv *"], "mv tests/test_a.py tests/test_z.py"),
            "git-mv-rename": (["python3 -m pytest", "git mv *"],
                              "git mv tests/test_a.py tests/test_z.py"),
            "venv-script-folder": ([".venv/bin/pytest tests"], ".venv/bin/pytest tests"),
            "path-script-folder": (["/work/venv/bin/pytest tests"],
                                   "/work/venv/bin/pytest tests"),
            "path-script-k": (["/work/venv/bin/pytest -k a tests"],
                              "/work/venv/bin/pytest -k a tests"),
            # (s51-gfix2's collectopts: a --doctest-modules entry needs a path operand; the
            # natural one, the folder itself, denies the entry: "the command names '-m'")
            "doctest-modules-dot": (["python3 -m pytest --doctest-modules ."],
                                    "python3 -m pytest --doctest-modules ."),
            # an option given its value attached, which pytest writes to (a report, its
            # temporary folder), makes the next operand read as written (pytest_reads: only
            # PYTEST_DATA's are read past), though no pytest option takes two values
            "junitxml-attached": (["python3 -m pytest --junitxml=report.xml tests"],
                                  "python3 -m pytest --junitxml=report.xml tests"),
            "cov-report-dest": (["python3 -m pytest --cov=src --cov-report=xml:cov.xml tests"],
                                "python3 -m pytest --cov=src --cov-report=xml:cov.xml tests"),
            "basetemp-attached": (["python3 -m pytest --basetemp=/tmp/pt tests"],
                                  "python3 -m pytest --basetemp=/tmp/pt tests"),
            # node's and bun's test runners given their folder, or an option's value
            "node-test-folder": (["node --test test/"], "node --test test/"),
            "bun-test-timeout": (["bun test --timeout 5000"], "bun test --timeout 5000")}


@pytest.mark.parametrize("case", list(EVERYDAY))
def test_k5_a_pytest_plans_everyday_call_is_denied(tmp_path: Path, case: str) -> None:
    """The plan approves the call (its own entry, or a remover's/renamer's entry on a test
    the plan's runner collects); the hook denies it."""
    needs("git")
    entries, call = EVERYDAY[case]
    project = hooked_project(tmp_path, [f"Bash({e})" for e in entries])
    (project / "tests").mkdir()
    (project / "tests" / "test_a.py").write_text(OWN_TEST)
    (project / "test").mkdir()
    (project / "test" / "a.test.js").write_text('require("node:test")("x", () => {})\n')
    (project / ".venv" / "bin").mkdir(parents=True)
    script = project / ".venv" / "bin" / "pytest"
    script.write_text(f"#!{VENV_PYTHON}\nimport sys\nfrom pytest import console_main\n"
                      "sys.exit(console_main())\n")
    script.chmod(0o755)
    env = home_env(tmp_path / "home")
    assert first_denied(project, [call], env) is None, "the hook denies an approved call"


# (s52-gfix2 closed mv/git mv renames in a folder, the console script by its path, node --test's
# operands, bun's --timeout value; --doctest-modules . stays refused: tests/gate/test_s52_gfix2.py)
_open("test_k5_a_pytest_plans_everyday_call_is_denied",
      "cost kept (s52-gfix2, s53-gfix2): python3 -m pytest --doctest-modules . imports every "
      "module below the folder it runs in, which cannot be guarded whole (collectopts refuses "
      "the plan); guarding every .py there as a collected test needs a mark from the plan's "
      "programs (planprograms, s53-gfix's) carried in Guarded (startvars.entry_starts, "
      "s53-hookspeed's) for testfiles.collected, and intotests' copy rules for trees to "
      "deny .py files brought in (C3's class for scripts)", "doctest-modules-dot")
_open("test_k5_a_pytest_plans_everyday_call_is_denied",
      "cost (session 53, s53-gfix rule 1): the last name of each path a plan names is guarded "
      "at any depth where a plan's program reads code, so pytest's own basetemp (`/tmp/pt`), "
      "a folder the entry writes, is denied to the plan's own call", "basetemp-attached")


# --- X1: a module pytest imports by name from a path operand, read as another file ------------


#: A shared library whose constructor runs the payload when python loads it.
LIBRARY = ("#include <stdlib.h>\n"
           "__attribute__((constructor)) static void run(void) { system(\"touch zz\"); }\n")
#: Each case: the entry, naming a module of the project that is no test's name; pytest
#: (prepend import mode) puts its folder first on ``sys.path`` and imports it by its name,
#: and python's path finder takes ``NAME.so`` (any extension suffix) before ``NAME.py``.
NAMED_MODULES = {"operand": f"{VENV_PYTHON} -m pytest src/check.py",
                 "doctest-modules": f"{VENV_PYTHON} -m pytest --doctest-modules src/check.py"}


def _library(tmp_path: Path) -> bytes:
    """``LIBRARY`` built (gcc)."""
    import subprocess

    (tmp_path / "lib.c").write_text(LIBRARY)
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(tmp_path / "lib.so"),
                    str(tmp_path / "lib.c")], check=True, capture_output=True, timeout=120)
    return (tmp_path / "lib.so").read_bytes()


@pytest.mark.parametrize("case", list(NAMED_MODULES))
def test_x1_an_extension_module_beside_a_named_module(tmp_path: Path, case: str) -> None:
    """The entry names ``src/check.py`` (guarded: a plan's path); pytest imports ``check``
    from ``src/``, where ``check.so`` comes first: plan ``Bash(<entry>)``, ``Bash(cp *)``,
    ``cp src/so src/check.so`` is allowed and pytest loads it."""
    needs("bash", "gcc", VENV_PYTHON)
    more: dict[str, str | bytes] = {"src/check.py": "def test_c():\n    pass\n",
                                    "src/so": _library(tmp_path)}
    denied = _case(tmp_path, NAMED_MODULES[case], ["cp src/so src/check.so"], more)
    assert denied is not None, "the hook allows an extension module beside a named module"


# --- B2: the file bun's settings preload before its tests ----------------------------------------


#: Each case: the entry, the project's files. ``bunfig.toml``'s ``[test] preload`` names
#: scripts bun runs before the tests (measured: bun 1.4.5's ``bun test`` does not run a
#: top-level ``preload``); the entry's own ``--preload ./setup.js`` names it (held).
PRELOADS = {"test-preload": ("bun test", {"bunfig.toml": '[test]\npreload = ["./setup.js"]\n'}),
            "option": ("bun test --preload ./setup.js", {})}


@pytest.mark.parametrize("case", list(PRELOADS))
def test_b2_the_script_buns_settings_preload(tmp_path: Path, case: str) -> None:
    """``bunfig.toml`` is guarded (``starttables``: ``^bunfig.toml``) but the script its
    ``preload`` names is not read: plan ``Bash(bun test)``, ``Bash(cp *)``: ``cp src/j
    setup.js`` is allowed and bun runs it before the project's ``a.test.js``."""
    entry, more = PRELOADS[case]
    needs("bash")
    if not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    files: dict[str, str | bytes] = {**more, "a.test.js": 'test("x", () => {})\n',
                                     "src/j": JS_PAYLOAD}
    denied = _case(tmp_path, entry, ["cp src/j setup.js"], files,
                   {"PATH": f"{BUN}:{os.environ['PATH']}"})
    assert denied is not None, "the hook allows the script bun's settings preload"


# (test_b2_the_script_buns_settings_preload: held since the s51 merge)


# --- X2: --doctest-modules given the call's own folder under another spelling ------------------


#: Each case: the operand naming the folder pytest runs in (``collectopts``: a path operand
#: of a ``--doctest-modules`` entry is guarded whole; the call's folder is never guarded
#: whole, docs/call-gate.md), under which pytest imports every module.
HERE = {"dot-slash": "./", "dot-slash-dot": "./.", "up-again": "src/.."}


@pytest.mark.parametrize("case", list(HERE))
def test_x2_doctest_modules_of_the_calls_own_folder(tmp_path: Path, case: str) -> None:
    """``python -m pytest --doctest-modules ./`` imports every ``*.py`` below the folder it
    runs in; ``collectopts`` takes ``./`` for a path operand, guarded whole, where the call's
    folder is never guarded whole: plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/h
    helper.py`` is allowed and pytest imports it."""
    needs("bash", VENV_PYTHON)
    entry = f"{VENV_PYTHON} -m pytest --doctest-modules {HERE[case]}"
    denied = _case(tmp_path, entry, ["cp src/h helper.py"],
                   {"test_a.py": OWN_TEST, "src/h": PY_PAYLOAD})
    assert denied is not None, "the hook allows a module --doctest-modules imports"


# (test_x2_doctest_modules_of_the_calls_own_folder: held since the s51 merge)
