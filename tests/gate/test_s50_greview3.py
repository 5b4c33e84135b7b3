"""Review s50 (s50-greview3) of s50-gfix2: the start variables a plan's entry sets itself
(``entryvars``), the variables no rule reads, and the tests a runner collects
(``testfiles``). Each case proves the hole with real bash in a scratch copy first (a scratch
home), then asks the printed hook for each call in turn, running the allowed ones; the hook
allowing them all is the finding: these tests fail while the hole is open (``OPEN`` marks them
strict xfails)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved, proved_case

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

#: A shell script running the payload (``touch zz``).
SCRIPT = "touch zz\n"


def _case(tmp_path: Path, entry: str, target: str, payload: str = SCRIPT,
          more: dict[str, str | bytes] | None = None, extra: dict[str, str] | None = None,
          source: str = "src/mk", copies: list[str] | None = None,
          executable: tuple[str, ...] = ()) -> str | None:
    """Proves that ``cp -r <source> <target>`` (or the calls ``copies``) then ``entry`` run
    the payload under real bash
    (scratch home, the session's ``extra`` values) in a hooked project holding ``more`` and
    ``src/mk`` (``payload``; ``executable``'s files made so), plan ``Bash(<entry>)``,
    ``Bash(cp *)``; the first call the printed hook denies, or None."""
    return proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                       {**(more or {}), "src/mk": payload},
                       [*(copies or [f"cp -r {source} {target}"]), entry], extra,
                       executable=executable)


# --- S1: an entry's own assignment the scan does not read ------------------------------------


#: Entries exporting ``BASH_ENV=e.sh`` (bash runs the file at a non-interactive start) in a
#: form ``entryvars`` does not read: a compound command's or a function's body (after a
#: keyword: ``then``, ``do``), a builtin run
#: through ``command``/``builtin``/``eval``/``time``/``!``, a value set by ``read``, ``printf
#: -v``, ``for`` or a nameref, an assignment word after the program's name under ``set -k``,
#: allexport set by ``shopt -so``.
MISSED = {"brace-group": "{ export BASH_ENV=e.sh; bash -c true; }",
          "if-then": "if true; then export BASH_ENV=e.sh; fi; bash -c true",
          "function": "f() { export BASH_ENV=e.sh; }; f; bash -c true",
          "command": "command export BASH_ENV=e.sh; bash -c true",
          "builtin": "builtin export BASH_ENV=e.sh; bash -c true",
          "eval": "eval export BASH_ENV=e.sh; bash -c true",
          "time": "time export BASH_ENV=e.sh; bash -c true",
          "bang": "! export BASH_ENV=e.sh; bash -c true",
          "read": "read -r BASH_ENV <<< e.sh; export BASH_ENV; bash -c true",
          "printf-v": "printf -v BASH_ENV e.sh; export BASH_ENV; bash -c true",
          "for": "for BASH_ENV in e.sh; do export BASH_ENV; bash -c true; done",
          "while-do": "while true; do export BASH_ENV=e.sh; break; done; bash -c true",
          "nameref": "declare -n r=BASH_ENV; export r=e.sh; bash -c true",
          "set-k": "set -k; bash -c true BASH_ENV=e.sh",
          "shopt-so-allexport": "shopt -so allexport; BASH_ENV=e.sh; bash -c true",
          "function-keyword": "function f { export BASH_ENV=e.sh; }; f; bash -c true",
          "time-dashdash": "time -- export BASH_ENV=e.sh; bash -c true",
          "export-quoted-name": "export 'BASH_ENV'=e.sh; bash -c true",
          "export-quoted-word": "export \"BASH_ENV=e.sh\"; bash -c true",
          "declare-empty-quotes": "declare -x BA''SH_ENV=e.sh; bash -c true",
          "allexport-brace": "set -a; { BASH_ENV=e.sh; }; bash -c true"}


@pytest.mark.parametrize("case", list(MISSED))
def test_s1_an_entrys_own_assignment_the_scan_misses(tmp_path: Path, case: str) -> None:
    """``export BASH_ENV=e.sh; bash -c true`` guards ``e.sh`` (``entryvars``: ``WHOLE``); the
    same assignment inside ``{ …; }``, ``if``, ``while``, a function, after ``command``/``builtin``/
    ``eval``/``time``/``!``, by ``read``/``printf -v``/``for``/a nameref, under ``set -k``
    or ``shopt -so allexport``, or with a quoted name (an ``export`` operand's quotes are
    removed before the builtin reads it) is not read: plan ``Bash(<entry>)``,
    ``Bash(cp *)``, ``cp src/mk e.sh`` is allowed and the entry's bash runs it."""
    needs("bash")
    denied = _case(tmp_path, MISSED[case], "e.sh")
    assert denied is not None, "the hook allows the file the entry's BASH_ENV names"




# --- U1: perl's PERL5OPT -I: a module folder no rule reads -----------------------------------


#: Each case: the entry, and the session's extra values. ``PERL5OPT=-Iinc`` puts ``inc``
#: before perl's own module folders (perlrun: "Only the -[CDIMTUWdmtw] switches are allowed"),
#: as ``PERL5LIB=inc`` does (guarded whole: ``startvars.WHOLE``).
PERL_OPT = {"entry": ("PERL5OPT=-Iinc perl -e 'use strict; print 1'", {}, "inc/strict.pm"),
            "session": ("perl -e 'use strict; print 1'", {"PERL5OPT": "-Iinc"},
                        "inc/strict.pm"),
            # `-Mlib=inc` (lib.pm puts inc first; it loads strict itself: List::Util then)
            "entry-mlib": ("PERL5OPT=-Mlib=inc perl -e 'use List::Util; 1'", {},
                           "inc/List/Util.pm"),
            "session-mlib": ("perl -e 'use List::Util; 1'", {"PERL5OPT": "-Mlib=inc"},
                             "inc/List/Util.pm"),
            "argv-mlib": ("perl -Mlib=inc -e 'use List::Util; 1'", {}, "inc/List/Util.pm")}


@pytest.mark.parametrize("case", list(PERL_OPT))
def test_u1_perl5opt_names_a_module_folder(tmp_path: Path, case: str) -> None:
    """``PERL5OPT=-Iinc`` (the entry's or the session's) makes perl load ``inc/strict.pm``
    for ``use strict``; ``envpaths.named_paths`` reads no path in ``-Iinc`` (no ``/``, no
    file name) and no rule reads PERL5OPT's ``-I``: plan ``Bash(<entry>)``, ``Bash(cp *)``,
    ``cp -r src/mk inc/strict.pm`` is allowed and perl runs it."""
    needs("bash", "perl")
    entry, extra, target = PERL_OPT[case]
    denied = _case(tmp_path, entry, target, 'system("touch zz"); 1;\n',
                   {"inc/keep": "", "inc/List/keep": ""}, extra)
    assert denied is not None, "the hook allows a module of the folder PERL5OPT's -I names"


# --- U2: python's pycache prefix: where every module's bytecode is read from ------------------


PYTHON = "/usr/bin/python3"
#: Each case: the entry, and the session's extra values: a pycache prefix ``pc`` (python's
#: ``PYTHONPYCACHEPREFIX``, ``-X pycache_prefix``) read relative to python's folder.
PREFIXED = {"entry": (f"PYTHONPYCACHEPREFIX=pc {PYTHON} -c pass", {}),
            "entry-X": (f"{PYTHON} -X pycache_prefix=pc -c pass", {}),
            "entry-X-attached": (f"{PYTHON} -Xpycache_prefix=pc -c pass", {}),
            "entry-X-bundled": (f"{PYTHON} -BXpycache_prefix=pc -c pass", {}),
            "entry-env-X": (f"env PYTHONPYCACHEPREFIX=pc {PYTHON} -c pass", {}),
            "session": (f"{PYTHON} -c pass", {"PYTHONPYCACHEPREFIX": "pc"})}


def _site_bytecode(tmp_path: Path) -> tuple[str, bytes]:
    """The path below a pycache prefix of ``PYTHON``'s ``sitecustomize`` bytecode, and an
    unchecked hash-based one running the payload (``touch zz``): python reads it without its
    source's (``py_compile.PycInvalidationMode.UNCHECKED_HASH``)."""
    code = ("import importlib.util as u, py_compile as p, sys, sysconfig\n"
            "f = sysconfig.get_path('stdlib') + '/sitecustomize.py'\n"
            "print(u.cache_from_source(f).replace('__pycache__/', '').lstrip('/'))\n"
            "p.compile(sys.argv[1], cfile=sys.argv[2], "
            "invalidation_mode=p.PycInvalidationMode.UNCHECKED_HASH)\n")
    (tmp_path / "p.py").write_text("import os; os.system('touch zz')\n")
    said = subprocess.run([PYTHON, "-I", "-c", code, str(tmp_path / "p.py"),
                           str(tmp_path / "p.pyc")], capture_output=True, text=True,
                          check=True, timeout=60)
    return said.stdout.strip(), (tmp_path / "p.pyc").read_bytes()


@pytest.mark.parametrize("case", list(PREFIXED))
def test_u2_a_pycache_prefix_names_every_modules_bytecode(tmp_path: Path, case: str) -> None:
    """With a pycache prefix ``pc`` python reads each module's bytecode from
    ``pc/<its source's folder>/`` (the standard library's too: ``sitecustomize``, imported at
    every start), an unchecked hash-based one whatever the source holds; no rule reads
    ``PYTHONPYCACHEPREFIX`` or ``-X pycache_prefix`` (``pc`` is a bare word): plan
    ``Bash(<entry>)``, ``Bash(cp *)``, ``cp -r src/pc pc`` is allowed and python runs it."""
    needs("bash", PYTHON)
    below, pyc = _site_bytecode(tmp_path)
    entry, extra = PREFIXED[case]
    denied = _case(tmp_path, entry, "pc", more={f"src/pc/{below}": pyc}, extra=extra,
                   source="src/pc")
    assert denied is not None, "the hook allows the bytecode below python's pycache prefix"


# --- C1: what a runner collects by the entry's own options ------------------------------------


VENV_PYTHON = "/work/venv/bin/python"
#: Python code running the payload.
PY_PAYLOAD = "import os; os.system('touch zz')\n"
#: A test of the project's own.
OWN_TEST = {"test_a.py": "def test_a():\n    pass\n"}
#: Each case: the entry, the file it collects and imports (or runs), and what the payload is
#: there. unittest's ``-p`` pattern; pytest's ``-o python_files=``, ``--doctest-modules``
#: (every ``*.py`` imported), ``--doctest-glob`` (each matching file's examples run), ``-p``
#: (a plugin module imported from ``sys.path``: the folder under ``python -m``).
OPTED = {"unittest-p": (f"{PYTHON} -m unittest discover -p '*_spec.py'", "a_spec.py",
                        PY_PAYLOAD),
         "pytest-o-python-files": (f"{VENV_PYTHON} -m pytest -o 'python_files=check_*.py'",
                                   "check_a.py", PY_PAYLOAD),
         "pytest-doctest-modules": (f"{VENV_PYTHON} -m pytest --doctest-modules", "helper.py",
                                    PY_PAYLOAD),
         "pytest-doctest-glob": (f"{VENV_PYTHON} -m pytest --doctest-glob='*.txt'", "notes.txt",
                                 ">>> import os; _ = os.system('touch zz')\n"),
         "pytest-p-plugin": (f"{VENV_PYTHON} -m pytest -p plug", "plug.py", PY_PAYLOAD),
         # (after s50-gfix2 2097207: -p, -o python_files= refuse the plan; -o addopts= does not)
         "pytest-o-addopts-p": (f"{VENV_PYTHON} -m pytest -o 'addopts=-p plug'", "plug.py",
                                PY_PAYLOAD)}


@pytest.mark.parametrize("case", list(OPTED))
def test_c1_a_runners_own_options_collect_other_files(tmp_path: Path, case: str) -> None:
    """``testfiles`` guards ``conftest.py``, ``test*.py``, ``*_test.py`` and ``__init__.py``
    below the folders a runner runs in; the entry's own options make it import others:
    ``unittest discover -p '*_spec.py'``, pytest's ``-o python_files=check_*.py``,
    ``--doctest-modules`` (every module), ``--doctest-glob='*.txt'``, ``-p plug``. Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp -r src/mk <file>`` is allowed, the runner runs
    it."""
    entry, target, payload = OPTED[case]
    needs("bash", entry.split()[0])
    denied = _case(tmp_path, entry, target, payload, dict(OWN_TEST))
    assert denied is not None, "the hook allows a file the entry's runner collects"




# --- C2: an extension module beside a collected test ------------------------------------------


#: A shared library whose constructor runs the payload when python loads it (before python
#: looks for its ``PyInit_`` function).
LIBRARY = ("#include <stdlib.h>\n"
           "__attribute__((constructor)) static void run(void) { system(\"touch zz\"); }\n")
#: Each case: the entry, the project's own file, and the extension module beside it: python's
#: path finder tries a folder's extension suffixes (``.so`` among them) before ``.py``, so
#: ``import conftest`` (pytest's prepend import mode) and ``import test_a`` (pytest's, and
#: unittest's discovery) load ``conftest.so``/``test_a.so``.
BESIDE = {"pytest-conftest": (f"{VENV_PYTHON} -m pytest", "conftest.py", "conftest.so"),
          "pytest-test": (f"{VENV_PYTHON} -m pytest", "test_a.py", "test_a.so"),
          "pytest-abi3": (f"{VENV_PYTHON} -m pytest", "test_a.py", "test_a.abi3.so"),
          "unittest-test": (f"{PYTHON} -m unittest", "test_a.py", "test_a.so")}


def _library(tmp_path: Path) -> bytes:
    """``LIBRARY`` built (gcc)."""
    (tmp_path / "lib.c").write_text(LIBRARY)
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(tmp_path / "lib.so"),
                    str(tmp_path / "lib.c")], check=True, capture_output=True, timeout=120)
    return (tmp_path / "lib.so").read_bytes()


@pytest.mark.parametrize("case", list(BESIDE))
def test_c2_an_extension_module_beside_a_collected_test(tmp_path: Path, case: str) -> None:
    """``testfiles.test_name`` reads ``.py`` and ``.pyc`` names only; python imports a test
    module (or conftest) from ``NAME.so`` (``NAME.abi3.so``, ``NAME.cpython-311-…so``) first
    when it is beside ``NAME.py``: plan ``Bash(<entry>)``, ``Bash(cp *)``, ``cp -r src/so
    <NAME>.so`` is allowed and the runner loads it."""
    entry, own, target = BESIDE[case]
    needs("bash", "gcc", entry.split()[0])
    more: dict[str, str | bytes] = {"test_a.py": OWN_TEST["test_a.py"], own: "",
                                    "src/so": _library(tmp_path)}
    denied = _case(tmp_path, entry, target, more=more, source="src/so")
    assert denied is not None, "the hook allows an extension module beside a collected test"


# --- E1: start variables an env file the entry's program loads sets ---------------------------


BUN = Path.home() / ".cache/skillgrant-runtime/bun-1.4.5/package/bin"
JS_PAYLOAD = "require('child_process').execSync('touch zz')\n"
#: Each case: the entry, the file the payload goes to, the payload, the project's files, the
#: session's extra values. node's ``--env-file=.env`` sets the file's variables before node
#: reads ``NODE_OPTIONS`` (its ``--require ./pre.js``); bun loads ``.env`` by itself at every
#: start (its ``BASH_ENV`` reaches the shell a script starts).
ENV_FILES = {"node-env-file": ("node --env-file=.env -e 0", "pre.js", JS_PAYLOAD,
                               {".env": "NODE_OPTIONS=--require ./pre.js\n"}, {}),
             "bun-dotenv": ("bun x.js", "e.sh", SCRIPT,
                            {".env": "BASH_ENV=e.sh\n",
                             "x.js": "require('child_process').execSync('bash -c true')\n"},
                            {"PATH": f"{BUN}:{os.environ['PATH']}"})}


@pytest.mark.parametrize("case", list(ENV_FILES))
def test_e1_an_env_files_start_variables(tmp_path: Path, case: str) -> None:
    """An env file the entry's program loads (``node --env-file=.env``; bun's ``.env``, read
    at every start) sets start variables the gate does not read (``.env`` itself is the
    project's, unchanged): the file its ``NODE_OPTIONS``/``BASH_ENV`` names is left writable.
    Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp -r src/mk <file>`` is allowed, the entry runs
    it."""
    entry, target, payload, more, extra = ENV_FILES[case]
    needs("bash", "node")
    if case.startswith("bun") and not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    denied = _case(tmp_path, entry, target, payload, dict(more), extra)
    assert denied is not None, "the hook allows the file an env file's start variable names"


# --- C3: the tests other runners collect ------------------------------------------------------


#: Each case: the entry, the test file it collects and runs, the project's files, the
#: session's extra values. node's ``--test`` without a path runs ``**/*.test.js``,
#: ``**/test/**/*.js``, …; ``bun test`` runs ``*.test.*``, ``*_spec.*``, … at any depth.
RUNNERS = {"node-test": ("node --test", "test/a.test.js", {"test/keep": ""}, {}),
           "node-test-root": ("node --test", "a.test.js", {}, {}),
           "bun-test": ("bun test", "a.test.js", {}, {"PATH": f"{BUN}:{os.environ['PATH']}"}),
           "bun-test-spec": ("bun test", "src/a_spec.ts", {"src/keep": ""},
                             {"PATH": f"{BUN}:{os.environ['PATH']}"})}


@pytest.mark.parametrize("case", list(RUNNERS))
def test_c3_the_tests_other_runners_collect(tmp_path: Path, case: str) -> None:
    """``testfiles`` guards the files python's runners collect; node's (``node --test``) and
    bun's (``bun test``) collect their own names below their folder (``*.test.js``,
    ``*_spec.ts``), not guarded: plan ``Bash(<entry>)``, ``Bash(cp *)``, ``cp -r src/mk
    <test>`` is allowed and the runner runs it."""
    entry, target, more, extra = RUNNERS[case]
    needs("bash", "node")
    if case.startswith("bun") and not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    denied = _case(tmp_path, entry, target, JS_PAYLOAD, dict(more), extra)
    assert denied is not None, "the hook allows a test file the runner collects"


_open("test_c3_the_tests_other_runners_collect",
      "node --test's and bun test's collected files (*.test.js, *_spec.ts) are not guarded",
      *RUNNERS)


# --- K1 (cost): approved calls denied ---------------------------------------------------------


#: Each case: the plan's entries, and the call they approve that the hook denies. A make
#: variable (or a prefix) naming an absolute folder outside the project (``DESTDIR``, allowed
#: before session 50) is now guarded whole as the entry's own start value, and the call that
#: names it denied; a test file's removal or formatting by name is denied while ``ruff format
#: .`` (every test file) is allowed.
DENIED = {"make-destdir": (["make install DESTDIR=/tmp/stage"], "make install DESTDIR=/tmp/stage"),
          "prefix-destdir": (["DESTDIR=/tmp/stage make install"],
                             "DESTDIR=/tmp/stage make install"),
          "rm-test": (["python3 -m pytest", "rm *"], "rm tests/test_a.py"),
          "format-test": (["python3 -m pytest", "ruff format *"], "ruff format tests/test_a.py"),
          # pytest's plugins' options (pytest-xdist's -n, pytest-cov's --cov, pytest-timeout's
          # --timeout) are not in pytest's own table: their operands are read as written
          "xdist-n": (["python3 -m pytest -n 2 tests", "cp *"], "python3 -m pytest -n 2 tests"),
          "cov": (["python3 -m pytest --cov tests", "cp *"], "python3 -m pytest --cov tests"),
          "cov-report": (["python3 -m pytest --cov=src --cov-report=term tests", "cp *"],
                         "python3 -m pytest --cov=src --cov-report=term tests"),
          "timeout": (["python3 -m pytest --timeout 30 tests", "cp *"],
                      "python3 -m pytest --timeout 30 tests")}


@pytest.mark.parametrize("case", list(DENIED))
def test_k1_an_approved_call_is_denied(tmp_path: Path, case: str) -> None:
    """The plan approves the call (its own entry, or a writer's entry on a test file the plan
    may write: an Edit grant covers it, ``ruff format .`` is allowed); the hook denies it."""
    entries, call = DENIED[case]
    project = hooked_project(tmp_path, [f"Bash({e})" for e in entries])
    (project / "tests").mkdir()
    (project / "tests" / "test_a.py").write_text(OWN_TEST["test_a.py"])
    (project / "Makefile").write_text("install:\n\ttrue\n")
    env = home_env(tmp_path / "home")
    assert first_denied(project, [call], env) is None, "the hook denies an approved call"


_open("test_k1_an_approved_call_is_denied",
      "cost: a test file removed or formatted by name under a pytest plan is denied; pytest's "
      "plugins' options (-n 2, --cov, --timeout 30) deny their own entry's call "
      "(make-destdir, prefix-destdir closed by s50-gfix2)", "rm-test", "format-test",
      "xdist-n", "cov", "cov-report", "timeout")


# --- P1: a pytest plugin an installed distribution's metadata names, on sys.path --------------


#: A distribution's metadata declaring a pytest plugin (pluggy loads each ``pytest11`` entry
#: point of every distribution ``importlib.metadata`` finds on ``sys.path`` at pytest's start),
#: and the plugin's module running the payload.
PLUGIN = {"src/pl/x.dist-info/METADATA": "Metadata-Version: 2.1\nName: xplug\nVersion: 1\n",
          "src/pl/x.dist-info/entry_points.txt": "[pytest11]\nxplug = xmod\n",
          "src/pl/xmod.py": PY_PAYLOAD}
#: Each case: the entry, the folder on its ``sys.path`` the files go to, the project's files:
#: ``python -m`` puts its folder first; an entry's ``PYTHONPATH=lib`` (the folder's standard
#: modules' names guarded only, review s46 L2).
PLUGGED = {"python-m-pytest": (f"{VENV_PYTHON} -m pytest", ".", {}),
           "pythonpath-lib": (f"PYTHONPATH=lib {VENV_PYTHON} -m pytest tests", "lib",
                              {"lib/keep": "", "tests/test_a.py": OWN_TEST["test_a.py"]})}


@pytest.mark.parametrize("case", list(PLUGGED))
def test_p1_a_distributions_pytest_plugin_on_sys_path(tmp_path: Path, case: str) -> None:
    """pytest loads each ``pytest11`` entry point of the distributions on ``sys.path`` (a
    ``NAME.dist-info`` folder's ``entry_points.txt``) at its start: under ``python -m
    pytest`` the folder it runs in is first, under an entry's ``PYTHONPATH=lib`` ``lib``; no
    rule guards a ``*.dist-info`` there, nor the plugin's module (no test's name). Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp -r src/pl/x.dist-info <folder>/x.dist-info`` and
    ``cp src/pl/xmod.py <folder>/xmod.py`` are allowed and pytest imports the plugin."""
    entry, folder, more = PLUGGED[case]
    needs("bash", VENV_PYTHON)
    files: dict[str, str | bytes] = {**OWN_TEST, **more, **PLUGIN}
    denied = _case(tmp_path, entry, folder, more=files,
                   copies=[f"cp -r src/pl/x.dist-info {folder}/x.dist-info",
                           f"cp src/pl/xmod.py {folder}/xmod.py"])
    assert denied is not None, "the hook allows a pytest plugin's distribution on sys.path"


_open("test_p1_a_distributions_pytest_plugin_on_sys_path",
      "a *.dist-info declaring a pytest11 entry point (and its module) in a folder on pytest's "
      "sys.path (python -m's folder, an entry's PYTHONPATH) is not guarded", *PLUGGED)


# --- S2: allexport the scan does not see ------------------------------------------------------


#: Each case: an entry making a plain ``BASH_ENV=e.sh`` statement (read as reaching no
#: program), and the session's extra values. It is exported when allexport is on: bash's
#: ``-a``/``-o allexport`` options (``bash -a -c '…'``), or the session's ``SHELLOPTS`` (bash
#: sets the options it lists at its start when it is in the environment).
ALLEXPORT = {"bash-a": ("bash -a -c 'BASH_ENV=e.sh; bash -c true'", {}),
             "bash-ac": ("bash -ac 'BASH_ENV=e.sh; bash -c true'", {}),
             "bash-o-allexport": ("bash -o allexport -c 'BASH_ENV=e.sh; bash -c true'", {}),
             "session-shellopts": ("BASH_ENV=e.sh; bash -c true", {"SHELLOPTS": "allexport"}),
             "session-shellopts-bash-c": ("bash -c 'BASH_ENV=e.sh; bash -c true'",
                                          {"SHELLOPTS": "allexport"})}


@pytest.mark.parametrize("case", list(ALLEXPORT))
def test_s2_allexport_from_a_shells_options_or_the_session(tmp_path: Path, case: str) -> None:
    """``entryvars`` reads a plain ``N=v`` statement as exported under ``set -a``/``set -o
    allexport`` in the same code only; a shell started with ``-a`` (``-ac``, ``-o
    allexport``) or under the session's ``SHELLOPTS=allexport`` exports it too: plan
    ``Bash(<entry>)``, ``Bash(cp *)``, ``cp -r src/mk e.sh`` is allowed and the inner bash
    runs it."""
    needs("bash")
    entry, extra = ALLEXPORT[case]
    denied = _case(tmp_path, entry, "e.sh", extra=extra)
    assert denied is not None, "the hook allows the file an exported BASH_ENV names"




# --- U3: make's variables given through MAKEFLAGS ---------------------------------------------


#: Entries giving make ``MAKEFILES=mk`` through ``MAKEFLAGS``/``GNUMAKEFLAGS`` (make reads the
#: variable definitions they hold as its command line's, ``MAKEFILES`` among them), where an
#: entry's own ``MAKEFILES=mk`` is guarded whole (``startvars.WHOLE``).
FLAGGED = {"makeflags": "MAKEFLAGS=MAKEFILES=mk make test",
           "gnumakeflags": "GNUMAKEFLAGS=MAKEFILES=mk make test",
           "export-makeflags": "export MAKEFLAGS=MAKEFILES=mk; make test"}


@pytest.mark.parametrize("case", list(FLAGGED))
def test_u3_makeflags_gives_make_its_makefiles(tmp_path: Path, case: str) -> None:
    """``MAKEFLAGS=MAKEFILES=mk make test`` reads ``mk`` before the Makefile (its ``$(shell
    …)`` runs) as ``make test MAKEFILES=mk`` does; the gate reads the entry's ``MAKEFLAGS``
    value as a path list (``mk``: a bare word, not named): plan ``Bash(<entry>)``, ``Bash(cp
    *)``, ``cp -r src/mk mk`` is allowed and make runs it."""
    needs("bash", "make")
    denied = _case(tmp_path, FLAGGED[case], "mk", "$(shell touch zz)\n",
                   {"Makefile": "test:\n\techo ok\n"})
    assert denied is not None, "the hook allows the makefile MAKEFLAGS's MAKEFILES names"


# --- U5: git's settings given by the entry's GIT_CONFIG_* (held: the entry is denied) -----------


#: Each case: the entry, setting ``core.hooksPath`` to ``hk`` (a bare word: no path named)
#: through git's ``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_<n>``/``GIT_CONFIG_VALUE_<n>``; git
#: runs ``hk/pre-commit`` (a relative hooks folder is the work tree's).
GIT_HOOKS = {"prefix": "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath "
                       "GIT_CONFIG_VALUE_0=hk git -c user.name=a -c user.email=a@b commit -q "
                       "--allow-empty -m x"}


@pytest.mark.parametrize("case", list(GIT_HOOKS))
def test_u5_an_entrys_git_config_variables_name_a_hooks_folder(tmp_path: Path,
                                                               case: str) -> None:
    """The entry's ``GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=hk`` makes ``git
    commit`` run ``hk/pre-commit``; the gate reads the values as paths (``hk``: a bare word,
    not named), not as git's settings: plan ``Bash(<entry>)``, ``Bash(cp *)``, ``cp -r
    src/hk hk`` is allowed and git runs the hook."""
    needs("bash", "git")
    denied = _case(tmp_path, GIT_HOOKS[case], "hk", more={"src/hk/pre-commit": SCRIPT},
                   source="src/hk", executable=("src/hk/pre-commit",))
    assert denied is not None, "the hook allows the hooks folder the entry's git settings name"


# --- U4: NODE_OPTIONS preloading a bare module name -------------------------------------------


#: Each case: the entry, and the session's extra values. node resolves a preload's bare name
#: (``--require pre``, ``-r pre``, ``--import pre``) as ``require('pre')`` from its folder:
#: ``node_modules/pre.js`` (``node -r pre``, ``--require=pre`` and the session's are held).
PRELOADED = {"entry-require": ("NODE_OPTIONS='--require pre' node -e 0", {}),
             "entry-r": ("NODE_OPTIONS='-r pre' node -e 0", {}),
             "session-require": ("node -e 0", {"NODE_OPTIONS": "--require pre"})}


@pytest.mark.parametrize("case", list(PRELOADED))
def test_u4_node_options_preloads_a_bare_module_name(tmp_path: Path, case: str) -> None:
    """``NODE_OPTIONS='--require pre'`` (the entry's or the session's) makes node load
    ``node_modules/pre.js`` at start; ``named_paths`` reads a preload's name apart from its
    option only when it starts with ``.`` or ``/``: plan ``Bash(<entry>)``, ``Bash(cp *)``,
    ``cp -r src/mk node_modules/pre.js`` is allowed and node runs it."""
    needs("bash", "node")
    entry, extra = PRELOADED[case]
    denied = _case(tmp_path, entry, "node_modules/pre.js", JS_PAYLOAD,
                   {"node_modules/keep": ""}, extra)
    assert denied is not None, "the hook allows the module NODE_OPTIONS preloads"


# --- B1: pytest's --basetemp given in a file the call names -----------------------------------


#: Each case: the file a call copies in, and the pytest call reading ``--basetemp=.claude``
#: from it: an argument file (``@args.txt``, argparse's ``fromfile_prefix_chars``) or an ini
#: file's ``addopts`` (``-c x.ini``). pytest removes its basetemp folder whole at start: the
#: gate's own ``.claude`` (its settings: the hook).
BASETEMP = {"argsfile": ("--basetemp=.claude\n", "args.txt", "@args.txt"),
            "inifile-c": ("[pytest]\naddopts = --basetemp=.claude\n", "x.ini", "-c x.ini")}


@pytest.mark.parametrize("case", list(BASETEMP))
def test_b1_a_basetemp_given_in_a_file_the_call_names(tmp_path: Path, case: str) -> None:
    """``pytest --basetemp=.claude`` is refused (s50-gfix2 1395f9f); the same option read
    from an argument file (``pytest @args.txt``) or an ini file's ``addopts`` (``pytest -c
    x.ini``) is not: plan ``Bash(<python> -m pytest *)``, ``Bash(cp *)``, ``cp src/args
    <file>`` and the pytest call are allowed, and pytest removes ``.claude`` (its
    ``settings.json`` gone) under real bash."""
    needs("bash", VENV_PYTHON)
    text, name, option = BASETEMP[case]
    calls = [f"cp src/args {name}", f"{VENV_PYTHON} -m pytest -q {option}"]
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, [f"Bash({VENV_PYTHON} -m pytest *)",
                                                   "Bash(cp *)"])
        (project / "test_a.py").write_text("def test_a(tmp_path):\n    pass\n")
        (project / "src" / "args").write_text(text)
        env = home_env(tmp_path / side / "home")
        if side == "proof":
            scratch = tmp_path / side / "scratch"
            proved(project, tmp_path / side, calls, env)
            assert not (scratch / ".claude" / "settings.json").exists(), "pytest removed nothing"
        else:
            found.append(first_denied(project, calls, env))
    assert found[0] is not None, "the hook allows a pytest run removing the gate's settings"


_open("test_b1_a_basetemp_given_in_a_file_the_call_names",
      "pytest's --basetemp read from an @argument file or a -c ini file's addopts is not read",
      *BASETEMP)


# --- U6: a module a site .pth file imports at every start, in a PYTHONPATH folder -------------


#: Each case: the entry, and the session's extra values: a ``PYTHONPATH`` folder ``lib`` (the
#: entry's, or the session's relative one) for a python whose site-packages hold setuptools'
#: ``distutils-precedence.pth`` (``import _distutils_hack`` at every start, after
#: ``PYTHONPATH`` is on ``sys.path``).
PTH_IMPORTED = {"entry-system": (f"PYTHONPATH=lib {PYTHON} -c pass", {}),
                "entry-venv": (f"PYTHONPATH=lib {VENV_PYTHON} -c pass", {}),
                "session-venv": (f"{VENV_PYTHON} -c pass", {"PYTHONPATH": "lib"})}


@pytest.mark.parametrize("case", list(PTH_IMPORTED))
def test_u6_a_module_a_site_pth_imports_in_a_pythonpath_folder(tmp_path: Path,
                                                               case: str) -> None:
    """A ``PYTHONPATH`` folder's standard modules' names are guarded (review s46 L2:
    ``sitecustomize``, ``usercustomize`` held); ``_distutils_hack``, which setuptools'
    ``distutils-precedence.pth`` imports at every start, is no standard module: plan
    ``Bash(<entry>)``, ``Bash(cp *)``, ``cp -r src/mk lib/_distutils_hack.py`` is allowed and
    python runs it."""
    entry, extra = PTH_IMPORTED[case]
    python = PYTHON if "system" in case else VENV_PYTHON
    needs("bash", python)
    site = subprocess.run([python, "-I", "-c", "import sysconfig; print(sysconfig.get_path("
                           "'purelib'))"], capture_output=True, text=True, check=True,
                          timeout=60).stdout.strip()
    pths = [Path(site), Path("/usr/lib/python3/dist-packages")] if "system" in case else \
        [Path(site)]
    if not any((p / "distutils-precedence.pth").exists() for p in pths):
        pytest.skip(f"{python} has no distutils-precedence.pth")
    denied = _case(tmp_path, entry, "lib/_distutils_hack.py", PY_PAYLOAD, {"lib/keep": ""},
                   extra)
    assert denied is not None, "the hook allows a module a site .pth imports at start"


# --- U7: pytest's own start variables: PYTEST_PLUGINS, PYTEST_ADDOPTS -------------------------


#: Each case: the entry, the file pytest imports, and the session's extra values. pytest
#: imports each module ``PYTEST_PLUGINS`` names at its start, and reads ``PYTEST_ADDOPTS`` as
#: its command line's first options (``-p plug``, ``--doctest-modules``): ``python -m``'s
#: folder is on ``sys.path`` (``pytest -p plug`` is held).
PYTEST_VARS = {"entry-plugins": (f"PYTEST_PLUGINS=plug {VENV_PYTHON} -m pytest", "plug.py", {}),
               "entry-addopts-p": (f"PYTEST_ADDOPTS='-p plug' {VENV_PYTHON} -m pytest",
                                   "plug.py", {}),
               "entry-addopts-doctest": (f"PYTEST_ADDOPTS=--doctest-modules {VENV_PYTHON} -m "
                                         "pytest", "helper.py", {}),
               "session-plugins": (f"{VENV_PYTHON} -m pytest", "plug.py",
                                   {"PYTEST_PLUGINS": "plug"}),
               "session-addopts-p": (f"{VENV_PYTHON} -m pytest", "plug.py",
                                     {"PYTEST_ADDOPTS": "-p plug"})}


@pytest.mark.parametrize("case", list(PYTEST_VARS))
def test_u7_pytests_own_start_variables_name_a_plugin(tmp_path: Path, case: str) -> None:
    """``PYTEST_PLUGINS=plug`` and ``PYTEST_ADDOPTS='-p plug'`` (the entry's or the
    session's) make pytest import ``plug.py`` from its folder at start, ``PYTEST_ADDOPTS
    =--doctest-modules`` every module; no rule reads them (``plug``: a bare word): plan
    ``Bash(<entry>)``, ``Bash(cp *)``, ``cp -r src/mk <file>`` is allowed and pytest imports
    it."""
    entry, target, extra = PYTEST_VARS[case]
    needs("bash", VENV_PYTHON)
    denied = _case(tmp_path, entry, target, PY_PAYLOAD, dict(OWN_TEST), extra)
    assert denied is not None, "the hook allows a module pytest's start variables import"


# --- K3 (cost): a runner's option naming no file of the project refuses the plan -------------


#: Entries s50-gfix2 2097207 refuses (every call denied) whose option imports nothing the
#: project holds: unittest's default pattern given explicitly, an installed plugin by name,
#: ``--doctest-modules`` with an explicit folder.
RUNNER_OPTIONS = {"unittest-p-default": "python3 -m unittest discover -p 'test*.py'",
                  "pytest-p-installed": "python3 -m pytest -p xdist -n 2",
                  "pytest-doctest-modules-src": "python3 -m pytest --doctest-modules src"}


@pytest.mark.parametrize("case", list(RUNNER_OPTIONS))
def test_k3_a_runners_option_refuses_the_plan(tmp_path: Path, case: str) -> None:
    """The plan ``Bash(<entry>)`` approves the call; the hook denies it (the plan refused)."""
    entry = RUNNER_OPTIONS[case]
    project = hooked_project(tmp_path, [f"Bash({entry})"])
    (project / "src").mkdir(exist_ok=True)
    assert first_denied(project, [entry], home_env(tmp_path / "home")) is None, \
        "the hook denies the entry's own call"


_open("test_k3_a_runners_option_refuses_the_plan",
      "cost (s50-gfix2 2097207): a runner option importing nothing of the project (unittest -p "
      "'test*.py', pytest -p xdist, --doctest-modules src) refuses the plan", *RUNNER_OPTIONS)


# --- K2 (cost): an entry naming a start variable it does not set refuses the plan -------------


#: Entries that name a variable the gate knows without setting it (s50-gfix2 204e279: "a start
#: variable the gate knows named where no assignment of it is read refuses the plan"):
#: reading it, searching for its name, or removing it from a program's environment (which
#: leaves the program less to read at its start, never more).
NAMED_ONLY = {"printenv": "printenv PATH", "grep": "grep -rn PYTHONPATH src",
              "rg": "rg NODE_OPTIONS", "env-grep": "env | grep PATH",
              "unset": "unset PYTHONPATH && python3 -m pytest",
              "env-u": "env -u NODE_OPTIONS node -e 0",
              "docker-e": "docker run -e PYTHONPATH=/app img"}


@pytest.mark.parametrize("case", list(NAMED_ONLY))
def test_k2_an_entry_naming_a_variable_it_does_not_set(tmp_path: Path, case: str) -> None:
    """The plan ``Bash(<entry>)`` approves the call; the hook denies it (the plan refused:
    every call denied)."""
    entry = NAMED_ONLY[case]
    project = hooked_project(tmp_path, [f"Bash({entry})"])
    assert first_denied(project, [entry], home_env(tmp_path / "home")) is None, \
        "the hook denies the entry's own call"


_open("test_k2_an_entry_naming_a_variable_it_does_not_set",
      "cost (s50-gfix2 204e279), kept: an entry removing a known start variable (unset, env -u: "
      "a removed safety variable such as PYTHONSAFEPATH widens what a program reads) or giving "
      "it to a container (docker -e) refuses the plan; a program whose words are data "
      "(printenv, grep, rg: entryvars._INERT) does not", "unset", "env-u", "docker-e")


# --- F1: the files bun's own settings (bunfig.toml) preload ------------------------------------


#: Each case: the entry, and the project's ``bunfig.toml`` (guarded: ``starttables``) naming a
#: file bun loads before the entry's code at every start (``preload``) or before its tests
#: (``[test] preload``).
BUNFIG = {"preload": ("bun x.js", 'preload = ["./pre.js"]\n'),
          "test-preload": ("bun test", '[test]\npreload = ["./pre.js"]\n')}


@pytest.mark.parametrize("case", list(BUNFIG))
def test_f1_the_file_bunfigs_preload_names(tmp_path: Path, case: str) -> None:
    """``bunfig.toml`` is guarded, the file its ``preload`` names is not (npm's settings'
    relative values and a makefile's includes are read, review s49): plan ``Bash(<entry>)``,
    ``Bash(cp *)``, ``cp src/pre pre.js`` is allowed and bun runs it at its start."""
    entry, bunfig = BUNFIG[case]
    needs("bash")
    if not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    more: dict[str, str | bytes] = {
        "x.js": "0\n", "bunfig.toml": bunfig, "src/pre": JS_PAYLOAD,
        "a.test.js": "import {test} from 'bun:test'; test('a', () => {});\n"}
    denied = _case(tmp_path, entry, "", more=more, extra={"PATH": f"{BUN}:{os.environ['PATH']}"},
                   copies=["cp src/pre pre.js"])
    assert denied is not None, "the hook allows the file bun's settings preload"
