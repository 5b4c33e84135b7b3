"""Review s49 (s49-greview2) of the call gate, s49-gfix's and s49-gfix2's changes first (the
start tables of ``gate/starttables.py``, the runner option tables): sequences of calls the
printed hook allows under a narrow plan, after which real bash (or the real program) runs a
payload (``touch zz``). Each case proves the hole with real bash in a scratch copy first (a
scratch home), then asks the printed hook for each call in turn, running the allowed ones;
the hook allowing them all is the finding: these tests fail while the hole is open (``OPEN``
marks them strict xfails)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved_case

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

#: Python code running the payload.
PY_PAYLOAD = "import os\nos.system('touch zz')\n"


def _case(tmp_path: Path, entries: list[str], files: dict[str, str], calls: list[str],
          setup: str = "", extra: dict[str, str] | None = None) -> str | None:
    """``bash_review.proved_case``."""
    return proved_case(tmp_path, entries, files, calls, extra, setup)


def _tool_path(name: str) -> dict[str, str]:
    """``PATH`` with the folder holding the review tool ``name`` first:
    ``SKILLGRANT_REVIEW_TOOLS`` (folders of review tools, ``:``-separated: a venv's ``bin``
    with tox, nox, pre-commit, meson from PyPI, one with scons and uv) or ``PATH``'s; the
    test skips without it."""
    tools = os.environ.get("SKILLGRANT_REVIEW_TOOLS", "").split(os.pathsep)
    found = [t for t in tools if t and (Path(t) / name).exists()] + [
        os.path.dirname(shutil.which(name) or "")]
    for folder in [f for f in found if f]:
        return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}
    pytest.skip(f"not installed: {name} (SKILLGRANT_REVIEW_TOOLS)")


# --- T1: tox 4 imports the project's `toxfile.py` (its inline plugin) at every start ---------


#: Each case: the entry, and the folder of the tox root it reads (``-c``'s file's folder).
#: (The root's own ``toxfile.py`` under ``Bash(tox l)``: s49-greview T1[toxfile].)
TOXFILES = {"conf": ("tox --conf=ci/tox.ini l", "ci/"),
            "conf-prefix": ("tox --con ci/tox.ini l", "ci/")}


@pytest.mark.parametrize("case", list(TOXFILES))
def test_t1_tox_imports_the_inline_plugin_beside_its_settings(tmp_path: Path,
                                                              case: str) -> None:
    """tox 4 loads ``toxfile.py`` from its root folder (the folder of the settings file, ``-c``'s
    too) as an inline plugin (tox's docs, "Extending tox": "inline plugin", any command:
    ``tox l``); s49-gfix's table for tox guards ``tox.toml``, ``tox.ini``, ``pyproject.toml``,
    ``setup.cfg``, ``.tox/`` only. Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/p.py
    <root>toxfile.py`` is allowed, the entry runs the payload (tox 4.67 from PyPI; ``--con``:
    argparse's prefix of ``--conf``)."""
    extra = _tool_path("tox")
    entry, root = TOXFILES[case]
    files = {f"{root}tox.ini": "[tox]\nenv_list = a\n[testenv:a]\ncommands = echo hi\n",
             "src/p.py": PY_PAYLOAD}
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                   [f"cp src/p.py {root}toxfile.py", entry], extra=extra)
    assert denied is not None, "the hook allows tox's inline plugin to be written"


# --- B1: Python runs a start file's cached bytecode where its header matches the source -----


#: Writes ``$OUT``: CPython bytecode of the payload followed by ``$SRC``'s code, with the
#: header (magic, flags 0, the source's mtime and size) the import system checks against
#: ``$SRC``, by the interpreter ``$PY`` (the one that will read it).
PYC = ('"$PY" - <<\'EOF\'\nimport importlib.util, marshal, os, struct\n'
       'src, out = os.environ["SRC"], os.environ["OUT"]\nst = os.stat(src)\n'
       'code = compile("import os\\nos.system(\'touch zz\')\\n" + open(src).read(), src, '
       '"exec")\nhead = struct.pack("<III", 0, int(st.st_mtime) & 0xFFFFFFFF, '
       'st.st_size & 0xFFFFFFFF)\nopen(out, "wb").write(importlib.util.MAGIC_NUMBER + head + '
       'marshal.dumps(code))\nEOF\n')


def _python_of(program: str, path: dict[str, str]) -> tuple[str, str]:
    """The interpreter running ``program`` (found on ``path``'s ``PATH``: its ``#!`` line),
    and its cache tag (``cpython-311``)."""
    found = shutil.which(program, path=path["PATH"])
    if found is None:
        pytest.skip(f"not installed: {program}")
    first = Path(found).read_text(errors="replace").split("\n", 1)[0]
    python = first[2:].strip() if first.startswith("#!") and "python" in first else found
    said = subprocess.run([python, "-c", "import sys; print(sys.implementation.cache_tag)"],
                          capture_output=True, text=True, timeout=60, check=False)
    if said.returncode != 0:
        pytest.skip(f"no Python behind {program}")
    return python, said.stdout.strip()


#: Each case: the plan's runner, the files, the start file whose bytecode is written, the
#: cached file's name (``{tag}``: the interpreter's cache tag; ``{pytest}``: pytest's version)
#: and the call. nox imports ``noxfile.py`` by its path (``SourceFileLoader``: its cache
#: ``__pycache__/noxfile.<tag>.pyc``); ``python3 -m m`` imports ``m`` from the call's folder;
#: pytest's assertion rewriter caches ``conftest.py`` as ``conftest.<tag>-pytest-<v>.pyc``.
BYTECODE = {
    "nox": ("nox", {"noxfile.py": "import nox\n\n\n@nox.session(python=False)\n"
                                  "def t(s):\n    s.run('echo', 'hi')\n"},
            "noxfile.py", "noxfile.{tag}.pyc", "nox -s t"),
    "python-m": ("python3", {"m.py": "print(1)\n"}, "m.py", "m.{tag}.pyc", "python3 -m m"),
    "pytest-conftest": ("python3", {"conftest.py": "x = 1\n",
                                   "tests/test_a.py": "def test_a():\n    pass\n"},
                        "conftest.py", "conftest.{tag}-pytest-{pytest}.pyc",
                        "python3 -m pytest tests")}


@pytest.mark.parametrize("case", list(BYTECODE))
def test_b1_python_runs_a_start_files_cached_bytecode(tmp_path: Path, case: str) -> None:
    """CPython's source loader runs ``__pycache__/<name>.<tag>.pyc`` instead of the source
    when the cache's header holds the source's mtime and size (PEP 3147, PEP 552's default
    timestamp validation); pytest's rewriter checks its own cache the same way. The gate
    guards the start file (``noxfile.py``, a ``-m`` module's ``m.py``/``m.pyc``, ``conftest.py``),
    not its cache: ``mkdir -p __pycache__``, ``cp src/c.pyc __pycache__/...`` are allowed
    beside the entry and the run runs the payload (the source unchanged). Plan: the entry,
    ``Bash(cp *)``, ``Bash(mkdir *)``."""
    program, files, source, cached, call = BYTECODE[case]
    extra = _tool_path(program) if program == "nox" else {"PATH": os.environ["PATH"]}
    python, tag = _python_of(program, extra)
    version = ""
    if "pytest" in call:
        said = subprocess.run([python, "-c", "import pytest; print(pytest.__version__)"],
                              capture_output=True, text=True, timeout=60, check=False)
        version = said.stdout.strip()
        if said.returncode != 0:
            pytest.skip("no pytest")
    name = cached.format(tag=tag, pytest=version)
    setup = f"export PY={python} SRC={source} OUT=src/c.pyc\n{PYC}"
    denied = _case(tmp_path, [f"Bash({call})", "Bash(cp *)", "Bash(mkdir *)"],
                   {**files, "src/keep": ""}, ["mkdir -p __pycache__",
                                               f"cp src/c.pyc __pycache__/{name}", call],
                   setup, extra=extra)
    assert denied is not None, "the hook allows a start file's cached bytecode to be written"


# --- X1: xargs makes the words of the file it reads its program's options -----------------


#: The project's own makefile, and one whose ``test`` target runs the payload.
MAKEFILE = "test:\n\techo ok\n"
MAKE_PAYLOAD = "test:\n\ttouch zz\n"
#: Each case: an entry running make through xargs, whose words come from ``args.txt``.
XARGS = {"a": "xargs -a args.txt make", "arg-file": "xargs --arg-file=args.txt make",
         "a-attached": "xargs -aargs.txt make", "stdin": "xargs make < args.txt",
         "pipe": "cat args.txt | xargs make", "L1": "xargs -L1 make < args.txt"}


@pytest.mark.parametrize("case", list(XARGS))
def test_x1_xargs_reads_its_programs_options_from_a_file(tmp_path: Path, case: str) -> None:
    """``xargs -a FILE PROG`` (``--arg-file``; or its input, ``< FILE``, ``cat FILE |``)
    runs ``PROG`` with the words of ``FILE``: they are the program's options as much as the
    entry's own words are, but the gate guards neither the file nor what it may name. Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/args args.txt`` (``-f src/mk test``) is
    allowed, and make reads ``src/mk`` (GNU xargs, GNU make: the payload runs). The same for
    any program of a plan entry (``xargs npm``, ``xargs pytest``: ``-p``, ``--rootdir``)."""
    needs("xargs", "make")
    files = {"Makefile": MAKEFILE, "src/mk": MAKE_PAYLOAD, "args.txt": "test\n",
             "src/args": "-f src/mk test\n"}
    denied = _case(tmp_path, [f"Bash({XARGS[case]})", "Bash(cp *)"], files,
                   ["cp src/args args.txt", XARGS[case]])
    assert denied is not None, "the hook allows the file xargs reads its words from"


# --- R2: R restores the folder's saved workspace, whose `.First` runs at start --------------


#: Entries running R on a script (R restores ``.RData`` unless ``--no-restore``/``--vanilla``).
R_RESTORES = {"f": "R -f x.R", "no-echo": "R --no-echo -f x.R", "batch": "R CMD BATCH x.R"}


@pytest.mark.parametrize("case", list(R_RESTORES))
def test_r2_r_restores_the_workspace_of_its_folder(tmp_path: Path, case: str) -> None:
    """R's start (``?Startup``): after ``.Renviron`` and ``.Rprofile`` it restores the saved
    workspace ``.RData`` of the folder it starts in, and then runs ``.First()`` if the search
    path holds one: a saved ``.First`` runs. s49-gfix's table for R guards ``.Renviron`` and
    ``.Rprofile`` (s48-greview2 I1), not ``.RData``. Plan ``Bash(<entry>)``, ``Bash(cp *)``:
    ``cp src/RData .RData`` is allowed, the entry runs the payload (R 4.x)."""
    needs("R", "Rscript")
    setup = ('Rscript -e ".First <- function() system(\\"touch zz\\"); '
             'save(.First, file=\\"src/RData\\")"')
    denied = _case(tmp_path, [f"Bash({R_RESTORES[case]})", "Bash(cp *)"],
                   {"x.R": "cat(1)\n"}, ["cp src/RData .RData", R_RESTORES[case]], setup)
    assert denied is not None, "the hook allows R's saved workspace to be written"


# --- COST: a test runner's own entry naming its test folder denies itself ------------------


#: Entries running a test runner on its tests (the folder made, its file touched).
RUNNER_ENTRIES = ["prove t", "prove -v t/a.t", "bats test", "rspec spec", "mocha test",
                  "jest tests", "phpunit tests", "python3 -m pytest t"]


@pytest.mark.parametrize("entry", RUNNER_ENTRIES)
def test_cost_a_test_runners_entry_allows_its_own_call(tmp_path: Path, entry: str) -> None:
    """s49-gfix guards a test runner's operands (s48-greview S6: its tests are code it runs)
    and then reads the plan's own call as naming a guarded path it may write ("the command
    names 't': a file the gate itself reads or runs … may be written by it"): ``Bash(prove
    t)`` denies ``prove t`` (main before s49-gfix allowed the first seven; ``pytest t`` and
    ``python3 -m unittest tests.test_a`` stay allowed)."""
    project = hooked_project(tmp_path, [f"Bash({entry})"])
    for folder in ("t", "test", "tests", "spec"):
        (project / folder).mkdir()
    (project / "t" / "a.t").write_text("ok 1\n1..1\n")
    assert first_denied(project, [entry], home_env(tmp_path / "home")) is None


# --- N1: a runner outside runneropts' tables moves its program into a folder ---------------


#: Entries whose runner moves make into ``sub`` (nsenter's ``--wd=DIR``/``-wDIR``: util-linux
#: 2.38, an optional value, no namespace given: it only moves), or runs a shell whose code
#: moves it there (``su -c``, ``runuser``, ``setsid``, ``fakeroot``, ``prlimit``, ``setarch``,
#: ``dbus-run-session``, ``ssh-agent``: each runs its words as the command).
MOVED = {"nsenter-wd": "nsenter --wd=sub make test",
         "nsenter-w-attached": "nsenter -wsub make test",
         "su-c": "su -c 'cd sub && make test'",
         "runuser": "runuser -u root -- bash -c 'cd sub && make test'",
         "setsid": "setsid -w bash -c 'cd sub && make test'",
         "fakeroot": "fakeroot -- bash -c 'cd sub && make test'",
         "prlimit": "prlimit --nofile=1024 bash -c 'cd sub && make test'",
         "setarch": "setarch x86_64 bash -c 'cd sub && make test'",
         "dbus-run-session": "dbus-run-session -- bash -c 'cd sub && make test'",
         "ssh-agent": "ssh-agent bash -c 'cd sub && make test'"}


@pytest.mark.parametrize("case", list(MOVED))
def test_n1_a_runner_the_tables_miss_moves_make_into_a_folder(tmp_path: Path,
                                                              case: str) -> None:
    """s49-gfix2's ``runneropts.entry_run`` reads ``env``, ``unshare``, ``gdb`` and the
    wrappers (``timeout``, ``nice``, …) and refuses their unknown options; every other runner
    of ``wrapped.RUNNERS`` is not read at all: its words stay the entry's, so neither
    nsenter's ``--wd`` nor the ``cd`` inside the shell code it runs moves the start files the
    gate guards (``bash -c 'cd sub && make test'`` alone is read: ``sub/Makefile`` guarded).
    Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is allowed, the entry
    runs the payload (as root: ``su``, ``runuser`` need it)."""
    program = MOVED[case].split()[0]
    needs(program, "make", "bash")
    if program in ("su", "runuser", "nsenter") and os.geteuid() != 0:
        pytest.skip(f"{program} needs root here")
    files = {"sub/Makefile": MAKEFILE, "src/mk": MAKE_PAYLOAD}
    denied = _case(tmp_path, [f"Bash({MOVED[case]})", "Bash(cp *)"], files,
                   ["cp src/mk sub/Makefile", MOVED[case]])
    assert denied is not None, "the hook allows the makefile of the folder the runner moves to"


# --- S1: SCons unpickles the signature database of its top folder --------------------------


#: An SConstruct with one target (SCons reads its signatures to decide it is up to date).
SCONSTRUCT = "env = Environment()\nenv.Command('out', 'SConstruct', 'cp $SOURCE $TARGET')\n"
#: Writes ``src/sc``: a pickle whose loading runs the payload.
PICKLE = ('python3 -c "import os, pickle\nclass P:\n    def __reduce__(self):\n'
          '        return (os.system, (\'touch zz\',))\n'
          'open(\'src/sc\', \'wb\').write(pickle.dumps(P()))"')


def test_s1_scons_unpickles_its_signature_database(tmp_path: Path) -> None:
    """SCons keeps its signatures in ``.sconsign.dblite`` beside the SConstruct and loads it
    with ``pickle`` (``SCons.dblite``) on every build: a pickle runs code as it loads.
    s49-gfix's table for scons guards the SConstruct spellings and ``site_scons/``, not the
    database. Plan ``Bash(scons)``, ``Bash(cp *)``: ``cp src/sc .sconsign.dblite`` is
    allowed, ``scons`` runs the payload (SCons 4.x from PyPI). (Other programs' pickled
    state of the project: meson's ``meson-private/coredata.dat`` is guarded.)"""
    extra = _tool_path("scons")
    needs("python3")
    denied = _case(tmp_path, ["Bash(scons)", "Bash(cp *)"], {"SConstruct": SCONSTRUCT},
                   ["cp src/sc .sconsign.dblite", "scons"], PICKLE, extra=extra)
    assert denied is not None, "the hook allows SCons' pickled signatures to be written"


# --- G1: gdb runs its user's init files, the command files `-x` names, and its `cd` ----------


#: gdb commands running the payload.
GDB_PAYLOAD = "shell touch zz\n"
#: Each case: the entry, the copy, the payload file copied. gdb reads ``~/.gdbinit`` and
#: ``~/.config/gdb/gdbinit`` (``$XDG_CONFIG_HOME``) at every start, runs the commands of the
#: file ``-x`` (``-ix``: before its init files) names, and ``-ex 'cd sub'`` or ``-ex 'set
#: cwd sub'`` moves the program it runs (its ``--cd`` is read). (A local ``.gdbinit`` is
#: refused by gdb's auto-load safe-path: held.)
GDB = {"home-gdbinit": ("gdb -batch -ex run --args make test", "cp src/g ../home/.gdbinit",
                        GDB_PAYLOAD),
       "xdg-gdbinit": ("gdb -batch -ex run --args make test",
                       "cp src/g ../home/.config/gdb/gdbinit", GDB_PAYLOAD),
       "x-file": ("gdb -batch -x cmds.gdb -ex run --args make test", "cp src/g cmds.gdb",
                  GDB_PAYLOAD),
       "ix-file": ("gdb -batch -ix cmds.gdb -ex run --args make test", "cp src/g cmds.gdb",
                   GDB_PAYLOAD),
       "ex-cd": ("gdb -batch -ex 'cd sub' -ex run --args make test", "cp src/g sub/Makefile",
                 MAKE_PAYLOAD),
       "ex-set-cwd": ("gdb -batch -ex 'set cwd sub' -ex run --args make test",
                      "cp src/g sub/Makefile", MAKE_PAYLOAD)}


@pytest.mark.parametrize("case", list(GDB))
def test_g1_gdb_runs_commands_of_files_the_gate_leaves_writable(tmp_path: Path,
                                                               case: str) -> None:
    """s49-gfix2's gdb table reads ``--cd`` and ``--args`` (s48-greview2 R1); gdb's own start
    files are code too (its commands: ``shell``, ``python``): the user's ``~/.gdbinit`` and
    ``~/.config/gdb/gdbinit`` (gdb 13, "Startup"), the command file ``-x``/``--command``
    names (and ``-ix``), and an ``-ex 'cd DIR'`` before ``run`` moves make as ``--cd`` does.
    Plan ``Bash(<entry>)``, ``Bash(cp *)``, ``Bash(mkdir *)``: the copy is allowed, the entry
    runs the payload (GNU gdb 13, GNU make)."""
    needs("gdb", "make")
    entry, copy, text = GDB[case]
    files = {"Makefile": MAKEFILE, "sub/Makefile": MAKEFILE, "cmds.gdb": "echo hi\n",
             "src/g": text}
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)", "Bash(mkdir *)"], files,
                   ["mkdir -p ../home/.config/gdb", copy, entry])
    assert denied is not None, "the hook allows a file of commands gdb runs to be written"


# --- H1: an interactive shell runs the file its `--rcfile`/`--init-file` names first --------


#: Entries running an interactive bash (``-i``) whose start file the entry names.
RCFILES = {"rcfile": "bash --rcfile env.sh -i -c 'make test'",
           "init-file": "bash --init-file env.sh -ic 'make test'",
           "rcfile-ic": "bash --rcfile env.sh -ic make"}


@pytest.mark.parametrize("case", list(RCFILES))
def test_h1_an_interactive_shell_runs_the_rcfile_its_entry_names(tmp_path: Path,
                                                                 case: str) -> None:
    """bash ``-i`` runs the file ``--rcfile``/``--init-file`` names before the ``-c`` code
    (bash(1), INVOCATION). s49-gfix2's ``runneropts._shell_code`` reads the option's value
    to skip it (``_VALUED``), and guards nothing it names. Plan ``Bash(<entry>)``,
    ``Bash(cp *)``: ``cp src/x.sh env.sh`` is allowed, the entry runs the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, [f"Bash({RCFILES[case]})", "Bash(cp *)"],
                   {"Makefile": MAKEFILE, "env.sh": "echo hi\n"},
                   ["cp src/x.sh env.sh", RCFILES[case]])
    assert denied is not None, "the hook allows the shell's rcfile to be written"


# --- M1: meson finds a machine file named by a bare name in the user's data folder ----------


#: A native file whose C compiler runs the payload first (``sh -c 'touch "$0"; exec gcc'``).
NATIVE = ("[binaries]\nc = ['sh', '-c', 'touch \"$0\"; exec gcc \"$@\"', 'zz']\n")


def test_m1_meson_reads_a_machine_file_from_the_users_data_folder(tmp_path: Path) -> None:
    """``meson setup build --native-file myenv`` with no ``myenv`` in the call's folder
    reads ``$XDG_DATA_HOME/meson/native/myenv`` (``~/.local/share``, then
    ``$XDG_DATA_DIRS``; ``--cross-file``: ``…/meson/cross/``: meson's docs, "Machine files"),
    whose ``[binaries]`` are the programs meson runs (the compiler it detects at setup). The
    gate guards the name in the call's folder (held), not the user's data folder. Plan
    ``Bash(meson setup build --native-file myenv)``, ``Bash(cp *)``, ``Bash(mkdir *)``:
    ``mkdir -p ../home/.local/share/meson/native``, ``cp src/n …/myenv`` allowed, the setup
    runs the payload (meson 1.12 from PyPI, gcc)."""
    extra = _tool_path("meson")
    needs("gcc", "ninja")
    entry = "meson setup build --native-file myenv"
    folder = "../home/.local/share/meson/native"
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)", "Bash(mkdir *)"],
                   {"meson.build": "project('p', 'c')\n", "src/n": NATIVE},
                   [f"mkdir -p {folder}", f"cp src/n {folder}/myenv", entry], extra=extra)
    assert denied is not None, "the hook allows meson's machine file in the user's data folder"


# --- W1: a wrapper with an attached option value hides the runner inside it -----------------


#: Entries whose wrapper (``nice``, ``timeout``) gives a short option its value attached
#: (getopt's ``-n5``, ``-k5``, ``-sKILL``), in front of a runner moving make into ``sub``.
WRAPPED = {"nice-n5-env": "nice -n5 env -C sub make test",
           "timeout-k5-env": "timeout -k5 60 env -C sub make test",
           "timeout-sKILL-env": "timeout -sKILL 60 env -C sub make test",
           "nice-n5-bash": "nice -n5 bash -c 'cd sub && make test'",
           "timeout-k5-bash": "timeout -k5 60 bash -c 'cd sub && make test'"}


@pytest.mark.parametrize("case", list(WRAPPED))
def test_w1_an_attached_wrapper_option_hides_the_runner_inside(tmp_path: Path,
                                                               case: str) -> None:
    """``words.strip_wrappers`` reads ``nice -n 5``, ``timeout -k 5``, ``--kill-after=5``,
    not a value attached to a short option (``-n5``, ``-k5``, ``-sKILL``: coreutils' getopt
    reads them alike); the wrapper then stays the entry's program, ``runneropts.entry_run``
    stops at it, and the ``env -C sub`` or ``bash -c 'cd sub && …'`` inside is not read (the
    same entries with ``-n 5`` hold). Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk
    sub/Makefile`` is allowed, the entry runs the payload (GNU coreutils 9.1)."""
    needs("nice", "timeout", "make", "bash")
    denied = _case(tmp_path, [f"Bash({WRAPPED[case]})", "Bash(cp *)"],
                   {"sub/Makefile": MAKEFILE, "src/mk": MAKE_PAYLOAD},
                   ["cp src/mk sub/Makefile", WRAPPED[case]])
    assert denied is not None, "the hook allows the makefile of the folder the runner moves to"


# --- P1: a file piped into a runner whose shell reads its input --------------------------------


#: Entries piping a script into a runner that, given no command, starts a shell reading
#: its input (``su``, ``runuser USER``: the user's shell; ``fakeroot``, ``setarch ARCH``:
#: ``$SHELL``, ``/bin/sh``).
PIPED = {"su": "cat x.sh | su", "runuser": "cat x.sh | runuser root",
         "fakeroot": "cat x.sh | fakeroot", "setarch": "cat x.sh | setarch x86_64"}


@pytest.mark.parametrize("case", list(PIPED))
def test_p1_a_script_piped_into_a_runners_shell(tmp_path: Path, case: str) -> None:
    """The gate guards a file a reader pipes into a shell or an interpreter (``cat x.sh |
    bash``, ``| env bash``, ``| runuser -u root bash``…: 33 forms hold), not one
    piped into a runner that starts a shell of its own when given no command. Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/x.sh x.sh`` is allowed, the entry runs the
    payload (as root: ``su``, ``runuser``)."""
    program = PIPED[case].split("| ")[1].split()[0]
    needs(program)
    if program in ("su", "runuser") and os.geteuid() != 0:
        pytest.skip(f"{program} needs root here")
    denied = _case(tmp_path, [f"Bash({PIPED[case]})", "Bash(cp *)"], {"x.sh": "echo hi\n"},
                   ["cp src/x.sh x.sh", PIPED[case]])
    assert denied is not None, "the hook allows the script piped into the runner's shell"


# --- C2: pytest without paths collects every folder below the call's -------------------------


#: Each case: the entry, the copy (pytest's default ``python_files``: ``test_*.py``,
#: ``*_test.py``; a ``conftest.py`` in any folder it collects).
COLLECTED = {"bare-conftest": ("pytest", "cp src/p.py docs/conftest.py"),
             "bare-test-file": ("pytest", "cp src/p.py docs/test_z.py"),
             "x-suffix-test-file": ("pytest -x", "cp src/p.py docs/x_test.py"),
             "m-conftest": ("python3 -m pytest", "cp src/p.py docs/conftest.py")}


@pytest.mark.parametrize("case", list(COLLECTED))
def test_c2_pytest_without_paths_collects_every_folder(tmp_path: Path, case: str) -> None:
    """``pytest`` with no path (and no ``testpaths`` setting) collects the call's folder
    recursively: it imports the ``conftest.py`` of each folder it enters and each test file
    there. The gate guards the paths a pytest entry names (``pytest tests``: held) and the
    ``conftest.py`` from the call's folder up, not those below it. Plan ``Bash(<entry>)``,
    ``Bash(cp *)``: ``cp src/p.py docs/…`` is allowed, the entry runs the payload."""
    entry, copy = COLLECTED[case]
    python = shutil.which("python3")
    if python is None or subprocess.run([python, "-c", "import pytest"], check=False,
                                        capture_output=True).returncode != 0:
        pytest.skip("no pytest")
    if entry.startswith("pytest"):
        needs("pytest")
    files = {"tests/test_a.py": "def test_a():\n    pass\n", "docs/a.md": "",
             "src/p.py": PY_PAYLOAD}
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files, [copy, entry])
    assert denied is not None, "the hook allows a file pytest collects below the call's folder"


_open("test_c2_pytest_without_paths_collects_every_folder",
      "pytest without paths collects every folder below the call's (conftest.py, test_*.py, "
      "*_test.py): only the call's folder up is guarded", *COLLECTED)


# --- PR1: prove without paths runs `t/*.t`; `-l` puts `lib` first for every test -------------


#: A Perl test that passes, and one running the payload; a Test::More of the payload's.
T_OK = 'print "ok 1\\n1..1\\n";\n'
T_PAYLOAD = 'system("touch zz"); print "ok 1\\n1..1\\n";\n'
MORE_PAYLOAD = 'package Test::More; system("touch zz"); 1;\n'
#: Each case: the entry, the calls before it.
PROVED = {"bare": ("prove", ["cp src/t.t t/a.t"]), "v": ("prove -v", ["cp src/t.t t/b.t"]),
          "r": ("prove -r", ["cp src/t.t t/sub/c.t"]), "j2": ("prove -j2", ["cp src/t.t t/b.t"]),
          "l-lib": ("prove -l", ["mkdir -p lib/Test", "cp src/More.pm lib/Test/More.pm"])}


@pytest.mark.parametrize("case", list(PROVED))
def test_pr1_prove_without_paths_runs_the_t_folder(tmp_path: Path, case: str) -> None:
    """prove with no test named runs ``t/*.t`` (``-r``: ``t/`` recursively; App::Prove's
    default), and ``-l`` puts ``lib`` first on every test's ``@INC`` (``use Test::More``
    loads ``lib/Test/More.pm``). s49-gfix guards the tests a prove entry names and
    ``.proverc`` (s48-greview S6), not its default folder or ``lib``. Plan ``Bash(<entry>)``,
    ``Bash(cp *)``, ``Bash(mkdir *)``: the calls are allowed, the entry runs the payload
    (prove 3.x, perl 5.36)."""
    needs("prove", "perl")
    entry, calls = PROVED[case]
    files = {"t/a.t": "use Test::More;\nok(1);\ndone_testing;\n" if case == "l-lib" else T_OK,
             "t/sub/.keep": "", "src/t.t": T_PAYLOAD, "src/More.pm": MORE_PAYLOAD}
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)", "Bash(mkdir *)"], files,
                   [*calls, entry])
    assert denied is not None, "the hook allows a test prove runs by default to be written"


# --- U1: unittest without names discovers the call's folder -----------------------------------


#: A unittest test case.
UNIT_OK = "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n"
#: Each case: the entry, the copy.
DISCOVERED = {"bare-top": ("python3 -m unittest", "cp src/p.py test_z.py"),
              "bare-package": ("python3 -m unittest", "cp src/p.py tests/test_z.py"),
              "discover": ("python3 -m unittest discover", "cp src/p.py tests/test_z.py"),
              "v-init": ("python3 -m unittest -v", "cp src/p.py tests/__init__.py")}


@pytest.mark.parametrize("case", list(DISCOVERED))
def test_u1_unittest_without_names_discovers_the_calls_folder(tmp_path: Path,
                                                              case: str) -> None:
    """``python -m unittest`` with no test named is ``discover -s . -p 'test*.py'``: it
    imports every ``test*.py`` of the call's folder and of each package below it (and the
    packages' ``__init__.py``). The gate guards a named test (``unittest test_x.TestA``:
    s48-greview S5) and ``discover -s tests``'s folder (held, with ``discover tests``), not
    the default start folder's. Plan ``Bash(<entry>)``, ``Bash(cp *)``: the copy is
    allowed, the entry runs the payload."""
    needs("python3")
    entry, copy = DISCOVERED[case]
    files = {"tests/__init__.py": "", "tests/test_a.py": UNIT_OK, "src/p.py": PY_PAYLOAD}
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files, [copy, entry])
    assert denied is not None, "the hook allows a test unittest discovers to be written"


_open("test_u1_unittest_without_names_discovers_the_calls_folder",
      "`python -m unittest` (discover) with no start folder imports test*.py of the call's "
      "folder and its packages: not guarded", *DISCOVERED)


# --- CT1: ctest's script mode and cpack's configuration are CMake code ------------------------


#: CMake code running the payload.
CMAKE_PAYLOAD = "execute_process(COMMAND touch zz)\n"
#: Each case: the entry, the file it runs (``ctest --script``: a dashboard script, the long
#: spelling of ``-S``; ``-S``, ``-SP``, cpack's ``CPackConfig.cmake``, ``--config``: s49-greview
#: C2, C3).
CMAKE_CODE = {"ctest-script": ("ctest --script ci.cmake", "ci.cmake")}


@pytest.mark.parametrize("case", list(CMAKE_CODE))
def test_ct1_ctest_and_cpack_run_cmake_code_the_gate_leaves_writable(tmp_path: Path,
                                                                      case: str) -> None:
    """``ctest -S FILE`` runs a CMake script (``cmake -P``'s file is guarded: held), and
    cpack reads ``CPackConfig.cmake`` (CMake code) from the call's folder or ``--config``'s
    file. ctest is in ``RUNS_ANY`` with no file options of its own; cpack is in no table.
    Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/ci <file>`` is allowed, the entry runs
    the payload (cmake 3.25)."""
    entry, target = CMAKE_CODE[case]
    needs(entry.split()[0])
    files = {"ci.cmake": "message(hi)\n", "CPackConfig.cmake": "message(hi)\n",
             "src/ci": CMAKE_PAYLOAD}
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                   [f"cp src/ci {target}", entry])
    assert denied is not None, "the hook allows the CMake code ctest or cpack runs"


# --- N2: su, runuser, sg take their command after the user or group (permuted options) ----------


#: Entries whose runner's ``-c`` follows its operand: util-linux su and runuser permute
#: their options (``getopt_long`` without ``+``), sg takes ``GROUP -c COMMAND``.
PERMUTED = {"su": "su root -c 'cd sub && make test'",
            "runuser": "runuser root -c 'cd sub && make test'",
            "sg": "sg root -c 'cd sub && make test'",
            "su-dashdash": "su root -- -c 'cd sub && make test'"}


@pytest.mark.parametrize("case", list(PERMUTED))
def test_n2_a_runners_command_after_its_operand(tmp_path: Path, case: str) -> None:
    """s49-gfix2's tables (13d1d58) read su's and runuser's options up to their first
    operand and sg as a plain runner whose second word is the program: ``su root -c CMD``
    (the user first, then ``-c``: getopt permutes), ``runuser root -c CMD`` and ``sg root -c
    CMD`` run ``CMD`` through a shell, whose ``cd`` the gate does not read (``su -c CMD``
    holds); ``su root -- -c CMD`` hands ``-c CMD`` to the user's shell. Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is allowed, the entry runs
    the payload (as root)."""
    program = PERMUTED[case].split()[0]
    needs(program, "make")
    if os.geteuid() != 0:
        pytest.skip(f"{program} needs root here")
    denied = _case(tmp_path, [f"Bash({PERMUTED[case]})", "Bash(cp *)"],
                   {"sub/Makefile": MAKEFILE, "src/mk": MAKE_PAYLOAD},
                   ["cp src/mk sub/Makefile", PERMUTED[case]])
    assert denied is not None, "the hook allows the makefile of the folder the command moves to"


# --- G2: gdb imports its Python package from the data directory its entry names --------------


#: Entries giving gdb a data directory in the project (``-D``/``--data-directory``).
GDB_DATA = {"D": "gdb -batch -D gdbdata -ex run --args make test",
            "data-directory": "gdb -batch --data-directory=gdbdata -ex run --args make test"}


@pytest.mark.parametrize("case", list(GDB_DATA))
def test_g2_gdb_imports_the_data_directorys_python(tmp_path: Path, case: str) -> None:
    """gdb imports ``<data-directory>/python/gdb/__init__.py`` at start (its Python API; and
    runs ``system-gdbinit/``): s49-gfix2's gdb table (13d1d58) reads ``-D``/
    ``--data-directory`` as a plain value, and nothing guards the folder. Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: a copy of ``/usr/share/gdb`` in ``gdbdata``, ``cp
    src/init.py gdbdata/python/gdb/__init__.py`` allowed, the entry runs the payload (gdb
    13)."""
    needs("gdb", "make")
    if not Path("/usr/share/gdb/python/gdb/__init__.py").is_file():
        pytest.skip("no gdb data directory at /usr/share/gdb")
    setup = ("cp -r /usr/share/gdb gdbdata && (echo 'import os; os.system(\"touch zz\")'; "
             "cat gdbdata/python/gdb/__init__.py) > src/init.py")
    denied = _case(tmp_path, [f"Bash({GDB_DATA[case]})", "Bash(cp *)"],
                   {"Makefile": MAKEFILE},
                   ["cp src/init.py gdbdata/python/gdb/__init__.py", GDB_DATA[case]], setup)
    assert denied is not None, "the hook allows gdb's data directory to be written"


# --- Y1: yarn 4 injects `.env.yarn` into every script's environment ---------------------------


def _yarn4() -> dict[str, str]:
    """``PATH`` with a Yarn 4 first (a ``SKILLGRANT_REVIEW_TOOLS`` folder, or ``PATH``'s
    yarn, whose ``--version`` starts ``4.``), or skip."""
    tools = [t for t in os.environ.get("SKILLGRANT_REVIEW_TOOLS", "").split(os.pathsep) if t]
    for folder in [*tools, os.path.dirname(shutil.which("yarn") or "")]:
        if folder and (Path(folder) / "yarn").exists():
            said = subprocess.run([str(Path(folder) / "yarn"), "--version"], cwd="/",
                                  capture_output=True, text=True, timeout=60, check=False)
            if said.stdout.startswith("4."):
                return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}
    pytest.skip("not installed: yarn 4 (SKILLGRANT_REVIEW_TOOLS)")


def test_y1_yarn_injects_its_env_file_into_scripts(tmp_path: Path) -> None:
    """Yarn 4 reads ``.env.yarn`` of the project (``injectEnvironmentFiles``' default,
    ``.env.yarn?``) and puts its variables in every script's environment: a
    ``NODE_OPTIONS=--require ./src/evil.js`` there preloads a file into the script's node.
    The node runners' STARTS guard ``.env``, ``.env.local``, ``.env.<mode>[.local]``
    (``planpaths.DOTENV``), not ``.env.yarn``. Plan ``Bash(yarn t)``, ``Bash(cp *)``: ``cp
    src/envy .env.yarn`` is allowed, ``yarn t`` (``node -e 0``) runs the payload (yarn 4.18,
    installed first, offline)."""
    extra = {**_yarn4(), "YARN_ENABLE_TELEMETRY": "0", "YARN_ENABLE_GLOBAL_CACHE": "0"}
    needs("node")
    files = {"package.json": '{"name": "a", "version": "1.0.0", "scripts": {"t": "node -e 0"}}\n',
             "yarn.lock": "", "src/evil.js": "require('fs').writeFileSync('zz', '')\n",
             "src/envy": "NODE_OPTIONS=--require ./src/evil.js\n"}
    denied = _case(tmp_path, ["Bash(yarn t)", "Bash(cp *)"], files,
                   ["cp src/envy .env.yarn", "yarn t"], "yarn install", extra=extra)
    assert denied is not None, "the hook allows yarn's injected environment file to be written"


# --- K1: a reserved word before a shell code's `cd` ---------------------------------------------


#: Entries whose ``bash -c`` code moves make into ``sub`` behind a reserved word (the same
#: text as the entry itself, outside ``bash -c``, holds: ``if cd sub; then make test; fi``).
RESERVED = {"if": "bash -c 'if cd sub; then make test; fi'",
            "while": "bash -c 'while cd sub; do make test; break; done'",
            "until": "bash -c 'until ! cd sub; do make test; break; done'",
            "bang": "bash -c '! cd sub || make test'",
            "time": "bash -c 'time cd sub && make test'"}


@pytest.mark.parametrize("case", list(RESERVED))
def test_k1_a_reserved_word_before_the_codes_cd(tmp_path: Path, case: str) -> None:
    """``runneropts._shell_code`` hands a shell's ``-c`` code to planprograms, which reads its
    ``cd DIR`` (``bash -c 'cd sub && make test'``: ``sub/Makefile`` guarded, held) only as a
    command's first word: behind ``if``, ``while``, ``until``, ``!`` or ``time`` the ``cd``
    is not seen and make's start files are guarded in the call's folder. Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is allowed, the entry runs
    the payload (on main before session 49 too)."""
    needs("bash", "make")
    denied = _case(tmp_path, [f"Bash({RESERVED[case]})", "Bash(cp *)"],
                   {"sub/Makefile": MAKEFILE, "src/mk": MAKE_PAYLOAD},
                   ["cp src/mk sub/Makefile", RESERVED[case]])
    assert denied is not None, "the hook allows the makefile of the folder the code moves to"


# --- G3: the program gdb runs is itself a runner moving make ---------------------------------


#: Entries whose gdb ``--args`` program is ``env -C sub`` (``-args``: gdb's one-dash
#: spelling; a wrapper in front of it).
GDB_RUNNER = {"env-C": "gdb -batch -ex run --args env -C sub make test",
              "one-dash-args": "gdb -batch -ex r -args env -C sub make test",
              "nice-env-C": "gdb -batch -ex run --args nice -n5 env -C sub make test"}


@pytest.mark.parametrize("case", list(GDB_RUNNER))
def test_g3_gdbs_program_is_a_runner_moving_make(tmp_path: Path, case: str) -> None:
    """``runneropts.entry_run`` stops at gdb (13d1d58: "its words stay"), so the program
    after ``--args`` is not read as a runner in turn: ``env -C sub make test`` under gdb runs
    make in ``sub`` while the gate guards make's start files in the call's folder (``gdb …
    --args bash -c 'cd sub && make test'`` is denied: held). Plan ``Bash(<entry>)``,
    ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is allowed, the entry runs the payload (gdb
    13)."""
    needs("gdb", "env", "make")
    denied = _case(tmp_path, [f"Bash({GDB_RUNNER[case]})", "Bash(cp *)"],
                   {"sub/Makefile": MAKEFILE, "src/mk": MAKE_PAYLOAD},
                   ["cp src/mk sub/Makefile", GDB_RUNNER[case]])
    assert denied is not None, "the hook allows the makefile of the folder gdb's program moves to"


