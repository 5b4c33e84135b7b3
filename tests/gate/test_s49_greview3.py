"""Review s49 (s49-greview3) of the merged call gate: the lead's reading of a shell's ``-c``
code as a command (``runneropts._code_run``), then the runner tables' folder moves against the
start tables' folders and the session's values. Each case proves the hole with real bash in a
scratch copy first (a scratch home), then asks the printed hook for each call in turn, running
the allowed ones; the hook allowing them all is the finding: these tests fail while the hole
is open (``OPEN`` marks them strict xfails)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, needs, proved_case

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

MAKEFILE = "test:\n\techo ok\n"
MAKE_PAYLOAD = "test:\n\ttouch zz\n"
#: Makefiles in the call's folder, ``sub``, ``x`` and ``sub/x``, the payload in ``src/mk``.
FILES = {"Makefile": MAKEFILE, "sub/Makefile": MAKEFILE, "x/Makefile": MAKEFILE,
         "sub/x/Makefile": MAKEFILE, "sub/d/Makefile": MAKEFILE, "src/mk": MAKE_PAYLOAD}


def _case(tmp_path: Path, entry: str, target: str, extra: dict[str, str] | None = None,
          payload: str = MAKE_PAYLOAD, more: dict[str, str] | None = None) -> str | None:
    """Proves that ``cp src/mk <target>`` then ``entry`` run the payload under real bash
    (scratch home; ``{P}`` in ``extra``'s values is the folder bash runs in) in a hooked project
    with ``FILES`` and ``more`` (``src/mk`` holding ``payload``), plan ``Bash(<entry>)``,
    ``Bash(cp *)``; the first call the printed hook denies, or None."""
    files = {**FILES, "src/mk": payload, "sub/lib/keep": "", **(more or {})}
    return proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                       [f"cp src/mk {target}", entry], extra)


# --- L1: a child's folder move carried to the line's next command ----------------------------


#: Entries whose first command moves a child process (a shell's ``-c`` code, ``env -C``),
#: not the calling shell; make then runs in the call's folder.
LEAKED = {"bash-c-semicolon": "bash -c 'cd sub'; make test",
          "sh-c-and": "sh -c 'cd sub' && make test",
          "bash-c-code-and": "bash -c 'cd sub && true' && make test",
          "bash-c-make-then-make": "bash -c 'cd sub; make test'; make test",
          "env-C": "env -C sub true && make test"}


@pytest.mark.parametrize("case", list(LEAKED))
def test_l1_a_childs_folder_move_is_carried_to_the_next_command(tmp_path: Path,
                                                                 case: str) -> None:
    """A shell's ``-c`` code (and ``env -C``) moves its own process only: the calling shell's
    next command (``make test``) runs in the call's folder. The gate carries the child's
    ``cd sub`` to the rest of the line, so it guards ``sub/Makefile`` and leaves the call's
    ``Makefile`` writable (``(cd sub) && make test`` holds). Plan ``Bash(<entry>)``,
    ``Bash(cp *)``: ``cp src/mk Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "make", "env")
    denied = _case(tmp_path, LEAKED[case], "Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


_open("test_l1_a_childs_folder_move_is_carried_to_the_next_command",
      "a child's folder move (a shell's -c code, env -C) is carried to the line's next "
      "command: the call's Makefile is left writable", *LEAKED)


# --- M1: make's repeated -C options are relative to each other --------------------------------


#: Entries giving make two ``-C`` folders (GNU make: "each is interpreted relative to the
#: previous one": ``sub/x``).
REPEATED = {"C-C": "make -C sub -C x test", "attached": "make -Csub -Cx test",
            "long": "make --directory=sub --directory=x test",
            "gdb-args": "gdb -batch -ex run --args make -C sub -C x test"}


@pytest.mark.parametrize("case", list(REPEATED))
def test_m1_makes_repeated_directory_options_add_up(tmp_path: Path, case: str) -> None:
    """GNU make reads ``-C sub -C x`` as ``sub/x`` (the manual, "Options Summary": "If multiple
    -C options are specified, each is interpreted relative to the previous one"); the gate
    guards ``sub/Makefile`` and ``x/Makefile`` but not ``sub/x/Makefile`` (``env -C sub
    make -C x`` holds; under gdb's ``--args`` too). Plan ``Bash(<entry>)``, ``Bash(cp *)``:
    ``cp src/mk sub/x/Makefile`` is allowed, the entry runs the payload."""
    needs(REPEATED[case].split()[0], "make")
    denied = _case(tmp_path, REPEATED[case], "sub/x/Makefile")
    assert denied is not None, "the hook allows the makefile of make's last folder"


_open("test_m1_makes_repeated_directory_options_add_up",
      "make's repeated -C folders are joined (sub/x): each is read from the call's folder",
      *REPEATED)


# --- P1: a process substitution's command ---------------------------------------------------


#: Entries running make in a process substitution (``<(…)``) after a ``cd`` or inside one.
SUBSTITUTED = {"top-after-cd": "cd sub && cat <(make test)",
               "top-inside": "cat <(cd sub && make test)",
               "bash-c-after-cd": "bash -c 'cd sub && cat < <(make test)'"}


@pytest.mark.parametrize("case", list(SUBSTITUTED))
def test_p1_a_process_substitutions_make_in_a_moved_folder(tmp_path: Path, case: str) -> None:
    """A process substitution's ``make test`` runs in the folder the shell is in (``sub``):
    the gate guards make's start files in the call's folder only (``echo $(make test)`` is
    refused, ``tee >(make test)`` held). Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk
    sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "make", "cat")
    denied = _case(tmp_path, SUBSTITUTED[case], "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


_open("test_p1_a_process_substitutions_make_in_a_moved_folder",
      "a <(…) process substitution's command is not read in the shell's moved folder",
      *SUBSTITUTED)


# --- T1: a trap's code runs where the shell is when it fires ----------------------------------


#: Entries setting a trap that runs make, then moving the shell into ``sub``.
TRAPPED = {"top-exit": "trap 'make test' EXIT; cd sub",
           "bash-c-exit": "bash -c 'trap \"make test\" EXIT; cd sub'",
           "bash-c-err": "bash -c 'trap \"make test\" ERR; cd sub; false'"}


@pytest.mark.parametrize("case", list(TRAPPED))
def test_t1_a_traps_make_runs_in_the_folder_the_shell_moved_to(tmp_path: Path,
                                                                case: str) -> None:
    """``trap CODE EXIT`` (or ``ERR``) runs ``CODE`` when the shell exits (fails), in the
    folder it is in then (``sub``); the gate reads the trap's code in the folder of the
    ``trap`` command (``cd sub && trap "make test" EXIT`` holds). Plan ``Bash(<entry>)``,
    ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, TRAPPED[case], "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder the trap runs in"


_open("test_t1_a_traps_make_runs_in_the_folder_the_shell_moved_to",
      "a trap's code is read in the folder of the trap command, not where the shell is when "
      "it fires", *TRAPPED)


# --- V1: cdable_vars: `cd NAME` moves to the variable's value ---------------------------------


#: Each case: the entry, and the session's extra values. ``d`` is no folder of the project.
CDABLE = {"shopt": ("shopt -s cdable_vars; d=sub; cd d && make test", {}),
          "session-bashopts-bash-c": ("bash -c 'cd d && make test'",
                                      {"BASHOPTS": "cdable_vars", "d": "sub"}),
          "session-bashopts": ("cd d && make test", {"BASHOPTS": "cdable_vars", "d": "sub"})}


@pytest.mark.parametrize("case", list(CDABLE))
def test_v1_cdable_vars_moves_cd_to_a_variables_value(tmp_path: Path, case: str) -> None:
    """With bash's ``cdable_vars`` (``shopt -s``, or ``BASHOPTS`` in the environment, which
    bash reads at start), ``cd d`` where ``d`` is no folder moves to ``$d`` (``sub``); the
    gate reads ``cd d`` as the folder ``d``. Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp
    src/mk sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "make")
    entry, extra = CDABLE[case]
    denied = _case(tmp_path, entry, "sub/Makefile", extra)
    assert denied is not None, "the hook allows the makefile of the folder cd moves to"


_open("test_v1_cdable_vars_moves_cd_to_a_variables_value",
      "bash's cdable_vars (shopt, or BASHOPTS of the session) makes `cd d` move to $d",
      *CDABLE)


# --- H1: a bare `cd` moves to the session's HOME --------------------------------------------


#: Entries whose ``cd`` has no operand (bash: ``$HOME``); the session's ``HOME`` is ``sub``.
BARE_CD = {"top": "cd && make test", "bash-c": "bash -c 'cd && make test'"}


@pytest.mark.parametrize("case", list(BARE_CD))
def test_h1_a_bare_cd_moves_to_the_sessions_home(tmp_path: Path, case: str) -> None:
    """``cd`` without an operand moves to ``$HOME``; with the session's ``HOME`` a folder of
    the project (``sub``), make runs there, while the gate guards the call's folder
    (``cd "$HOME" && make test`` is read: held). Plan ``Bash(<entry>)``, ``Bash(cp *)``:
    ``cp src/mk sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, BARE_CD[case], "sub/Makefile", {"HOME": "{P}/sub"})
    assert denied is not None, "the hook allows the makefile of the session's home"


_open("test_h1_a_bare_cd_moves_to_the_sessions_home",
      "a bare `cd` is not read as a move to the session's HOME", *BARE_CD)


# --- S1: a `cd` in a pipeline or in the background moves a subshell only ----------------------


#: Entries whose ``cd sub`` is a pipeline's element or an ``&`` job: make runs in the call's
#: folder.
SUBSHELL = {"pipe": "cd sub | make test", "background": "cd sub & make test",
            "bash-c-pipe": "bash -c 'cd sub | make test'",
            "bash-c-background": "bash -c 'cd sub & make test'"}


@pytest.mark.parametrize("case", list(SUBSHELL))
def test_s1_a_cd_in_a_pipeline_or_job_moves_a_subshell(tmp_path: Path, case: str) -> None:
    """Each element of a pipeline and an ``&`` job runs in a subshell (bash(1), "Pipelines",
    "Lists"; ``lastpipe`` aside): ``cd sub | make test`` and ``cd sub & make test`` run make
    in the call's folder; the gate reads the ``cd`` as the next command's folder and guards
    ``sub/Makefile`` only. Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk Makefile`` is
    allowed, the entry runs the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, SUBSHELL[case], "Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


_open("test_s1_a_cd_in_a_pipeline_or_job_moves_a_subshell",
      "a cd that is a pipeline's element or an & job is read as moving the next command",
      *SUBSHELL)


# --- F1: a `cd` that fails leaves the shell where it was -------------------------------------


#: Each case: the entry, and the makefile make reads. ``d`` and ``nosuch`` are no folders
#: of the call's folder (``sub/sub`` neither): each such ``cd`` fails and the shell stays.
FAILED = {"missing-then-semicolon": ("cd d 2>/dev/null; make test", "Makefile"),
          "missing-then-cd": ("cd nosuch; cd sub; make test", "sub/Makefile"),
          "cd-twice": ("cd sub; cd sub; make test", "sub/Makefile"),
          "or-else": ("cd nosuch || cd sub && make test", "sub/Makefile"),
          "bash-c-or-else": ("bash -c 'cd nosuch || cd sub && make test'", "sub/Makefile"),
          "bash-c-cd-twice": ("bash -c 'cd sub; cd sub; make test'", "sub/Makefile")}


@pytest.mark.parametrize("case", list(FAILED))
def test_f1_a_failed_cd_is_read_as_a_move(tmp_path: Path, case: str) -> None:
    """A ``cd`` to a folder that is not there fails and leaves the shell where it was; after
    ``;`` or ``||`` the next command runs there. The gate joins every ``cd``'s operand
    (``d/``, ``nosuch/sub/``, ``sub/sub/``) and guards make's start files there only (``cd
    sub; cd x; make test`` and ``cd sub || :; make test`` hold). Plan ``Bash(<entry>)``,
    ``Bash(cp *)``: ``cp src/mk <makefile>`` is allowed, the entry runs the payload."""
    needs("bash", "make")
    entry, target = FAILED[case]
    denied = _case(tmp_path, entry, target)
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


_open("test_f1_a_failed_cd_is_read_as_a_move",
      "a cd whose folder is missing is read as a move: the folder the shell stays in is left "
      "writable", *FAILED)


# --- E1: a relative PYTHONPATH read from the call's folder, not the folder python runs in ----


#: Each case: the entry, and the session's extra values (``PYTHONPATH=lib``, relative). (A
#: ``cd sub &&`` before python is the documented residual, s47-greview2 E3: not filed.)
PYTHONPATHS = {"session-env-C": ("env -C sub python3 -c pass", {"PYTHONPATH": "lib"}),
               "session-env-C-second": ("env -C sub python3 -c pass",
                                        {"PYTHONPATH": "/nonexistent:lib"})}


@pytest.mark.parametrize("case", list(PYTHONPATHS))
def test_e1_a_relative_pythonpath_after_a_folder_move(tmp_path: Path, case: str) -> None:
    """python imports ``sitecustomize`` from ``sys.path`` at start, ``PYTHONPATH``'s folders
    first, a relative one from python's own folder (``sub/lib``). The gate guards ``lib/``
    of the call's folder (``python3 -c pass`` with the session's ``PYTHONPATH=lib`` holds,
    as ``BASH_ENV`` and ``NODE_OPTIONS`` after ``env -C sub`` do, s49-gfix2's folders the
    plan's programs run in), not ``sub/lib/``. Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk sub/lib/sitecustomize.py`` is allowed, the
    entry runs the payload."""
    needs("bash", "env", "python3")
    entry, extra = PYTHONPATHS[case]
    denied = _case(tmp_path, entry, "sub/lib/sitecustomize.py", extra,
                   "import os\nos.system('touch zz')\n")
    assert denied is not None, "the hook allows a start module of python's PYTHONPATH"


_open("test_e1_a_relative_pythonpath_after_a_folder_move",
      "the session's relative PYTHONPATH is read from the call's folder, not the folder "
      "env -C moves python to", *PYTHONPATHS)


# --- R1: a runner named by its path is not read by its option table ----------------------------


#: Entries whose runner (env, nice, timeout, unshare) is named by its absolute path.
BY_PATH = {"usr-bin-env": "/usr/bin/env -C sub make test",
           "usr-bin-env-chdir": "/usr/bin/env --chdir=sub make test",
           "bin-env": "/bin/env -C sub make test",
           "nice-path-env": "/usr/bin/nice env -C sub make test",
           "timeout-path-env": "/usr/bin/timeout 60 env -C sub make test",
           "unshare-w": "/usr/bin/unshare -w sub make test",
           "nice-then-path": "nice /usr/bin/env -C sub make test",
           "bash-c": "bash -c '/usr/bin/env -C sub make test'"}


@pytest.mark.parametrize("case", list(BY_PATH))
def test_r1_a_runner_named_by_its_path_moves_make(tmp_path: Path, case: str) -> None:
    """``runneropts``' tables are found by the runner's bare name: ``/usr/bin/env -C sub make
    test`` (the same program as ``env -C sub make test``, which holds) is not read as env, so
    its ``-C sub`` does not move make's start files; make runs ``sub/Makefile`` while the gate
    guards the call's (``/bin/bash -c …``, ``/usr/bin/env bash -c …`` and ``/usr/bin/make -C
    sub`` hold). Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is
    allowed, the entry runs the payload."""
    entry = BY_PATH[case]
    needs("bash", "make")
    for word in entry.split():
        if word.startswith("/") and not Path(word).exists():
            pytest.skip(f"not here: {word}")
    denied = _case(tmp_path, entry, "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder the runner moves to"


_open("test_r1_a_runner_named_by_its_path_moves_make",
      "a runner named by its path (/usr/bin/env, /usr/bin/nice, /usr/bin/timeout, "
      "/usr/bin/unshare) is not read by its option table: its folder move is missed", *BY_PATH)


# --- E2: perl's and node's relative library paths after a folder move ----------------------


#: Each case: the entry, the module file it loads, the session's values and the payload
#: (``cd sub && perl -e 1``: the documented residual, s47-greview2 E3, not filed).
LIBPATHS = {"perl5lib-env-C": ("env -C sub perl -e 1", "sub/lib/evil.pm",
                               {"PERL5LIB": "lib", "PERL5OPT": "-Mevil"},
                               "system('touch zz'); 1;\n"),
            "node-path-env-C": ("env -C sub node -e 'require(\"evil\")'", "sub/lib/evil.js",
                                {"NODE_PATH": "lib"},
                                "require('fs').writeFileSync('zz', '')\n")}


@pytest.mark.parametrize("case", list(LIBPATHS))
def test_e2_a_relative_library_path_after_a_folder_move(tmp_path: Path, case: str) -> None:
    """As E1 for perl (``PERL5LIB=lib``, ``PERL5OPT=-Mevil``: ``evil.pm`` loaded at start) and
    node (``NODE_PATH=lib``): the session's relative folder is guarded from the call's folder
    (``perl -e 1`` holds), not from the folder ``env -C sub`` moves the program to. Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk sub/lib/<module>`` is allowed, the entry
    runs the payload."""
    entry, target, extra, payload = LIBPATHS[case]
    needs("bash", "env", "node" if "node" in entry else "perl")
    denied = _case(tmp_path, entry, target, extra, payload)
    assert denied is not None, "the hook allows a module of the program's library path"


_open("test_e2_a_relative_library_path_after_a_folder_move",
      "a relative PERL5LIB or NODE_PATH of the session is read from the call's folder, not "
      "the folder env -C moves the program to", *LIBPATHS)


# --- U1: python's user site from PYTHONUSERBASE ------------------------------------------------


#: Each case: the entry, and the session's ``PYTHONUSERBASE``, relative (an absolute
#: ``<project>/x`` holds).
USERBASES = {"relative": ("python3 -c pass", "x"),
             "relative-env-C": ("env -C sub python3 -c pass", "x")}


@pytest.mark.parametrize("case", list(USERBASES))
def test_u1_python_runs_the_pth_files_of_its_user_site(tmp_path: Path, case: str) -> None:
    """python's ``site`` runs the ``import`` lines of ``.pth`` files in the user site,
    ``$PYTHONUSERBASE/lib/pythonX.Y/site-packages`` (the ``site`` docs), a relative value from
    python's folder; the gate guards an absolute one, not a relative one. Plan ``Bash(<entry>)``,
    ``Bash(cp *)``: ``cp src/mk <user site>/evil.pth`` is allowed, the entry runs the
    payload."""
    needs("env", "python3")
    entry, base = USERBASES[case]
    said = subprocess.run(["python3", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                          capture_output=True, text=True, check=True)
    site = f"x/lib/python{said.stdout.strip()}/site-packages"
    folder = f"sub/{site}" if "-C" in entry else site
    made = {f"{folder}/keep": ""}
    denied = _case(tmp_path, entry, f"{folder}/evil.pth", {"PYTHONUSERBASE": base},
                   "import os; os.system('touch zz')\n", made)
    assert denied is not None, "the hook allows a .pth file of python's user site"


_open("test_u1_python_runs_the_pth_files_of_its_user_site",
      "a relative PYTHONUSERBASE of the session names a user site whose .pth files python "
      "runs: not guarded (an absolute one is)", *USERBASES)


# --- V2: MAKEFILES set by the entry itself ----------------------------------------------------


#: Each case: the entry (setting ``MAKEFILES`` itself) and the makefile make reads first.
ENTRY_MAKEFILES = {"make-variable": ("make MAKEFILES=mk/Makefile test", "mk/Makefile"),
                   "variable-after": ("make test MAKEFILES=mk/Makefile", "mk/Makefile"),
                   "assignment": ("MAKEFILES=mk/Makefile make test", "mk/Makefile"),
                   "env": ("env MAKEFILES=mk/Makefile make test", "mk/Makefile"),
                   "export": ("export MAKEFILES=mk/Makefile; make test", "mk/Makefile"),
                   "env-C": ("env -C sub MAKEFILES=mk/Makefile make test", "sub/mk/Makefile"),
                   "make-C": ("make -C sub MAKEFILES=mk/Makefile test", "sub/mk/Makefile"),
                   "allexport": ("set -o allexport; MAKEFILES=mk/Makefile; make test",
                                 "mk/Makefile")}


@pytest.mark.parametrize("case", list(ENTRY_MAKEFILES))
def test_v2_makefiles_set_by_the_entry(tmp_path: Path, case: str) -> None:
    """GNU make reads the makefiles ``MAKEFILES`` names before the others (the manual, "The
    Variable MAKEFILES"; a command-line variable too): the session's ``MAKEFILES`` is
    guarded (held, after ``make -C sub`` too), one the entry sets (a make variable, an
    assignment, ``env``, ``export``) is not. Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp
    src/mk <file>`` (``$(shell touch zz)``) is allowed, the entry runs the payload."""
    needs("env", "make")
    entry, target = ENTRY_MAKEFILES[case]
    denied = _case(tmp_path, entry, target, None, "$(shell touch zz)\n",
                   {"mk/keep": "", "sub/mk/keep": ""})
    assert denied is not None, "the hook allows a makefile MAKEFILES names"


_open("test_v2_makefiles_set_by_the_entry",
      "MAKEFILES set by the entry (make variable, assignment, env, export) is not read: the "
      "makefile it names is left writable", *ENTRY_MAKEFILES)


# --- V3: a start variable set by the entry itself --------------------------------------------


SH = "touch zz\n"
PY = "import os\nos.system('touch zz')\n"
PL = "system('touch zz'); 1;\n"
#: Each case: the entry (setting the variable itself), the file the program runs at start, and
#: the payload there. (The same values in the session's environment are guarded: held.)
ENTRY_SET = {"bash-env-prefix": ("BASH_ENV=x.sh bash -c true", "x.sh", SH),
             "bash-env-export": ("export BASH_ENV=x.sh; bash -c true", "x.sh", SH),
             "bash-env-declare": ("declare -x BASH_ENV=x.sh; bash -c true", "x.sh", SH),
             "bash-env-allexport": ("set -a; BASH_ENV=x.sh; bash -c true", "x.sh", SH),
             "bash-env-in-code": ("bash -c 'set -a; BASH_ENV=x.sh; bash -c true'", "x.sh", SH),
             "pythonpath-prefix": ("PYTHONPATH=lib python3 -c pass", "lib/sitecustomize.py",
                                   PY),
             "pythonpath-env": ("env PYTHONPATH=lib python3 -c pass", "lib/sitecustomize.py",
                                PY),
             "pythonpath-export": ("export PYTHONPATH=lib; python3 -c pass",
                                   "lib/sitecustomize.py", PY),
             "pythonpath-env-C": ("env -C sub PYTHONPATH=lib python3 -c pass",
                                  "sub/lib/sitecustomize.py", PY),
             "pythonpath-cd": ("cd sub && PYTHONPATH=lib python3 -c pass",
                               "sub/lib/sitecustomize.py", PY),
             "perl5lib-prefix": ("PERL5LIB=lib PERL5OPT=-Mevil perl -e 1", "lib/evil.pm", PL)}


@pytest.mark.parametrize("case", list(ENTRY_SET))
def test_v3_a_start_variable_set_by_the_entry(tmp_path: Path, case: str) -> None:
    """bash runs ``BASH_ENV``'s file before a ``-c`` script, python imports ``sitecustomize``
    from ``PYTHONPATH``, perl loads ``PERL5OPT``'s ``-M`` module from ``PERL5LIB``: the
    session's values are guarded (envpaths), the same values set by the entry (a prefix
    assignment, ``env``, ``export``, ``declare -x``, ``set -a``) are not (an entry's
    ``NODE_OPTIONS='--require ./x.js' node -e 0`` holds). Plan ``Bash(<entry>)``, ``Bash(cp
    *)``: ``cp src/mk <file>`` is allowed, the entry runs the payload."""
    entry, target, payload = ENTRY_SET[case]
    needs("bash", "env", "perl" if "perl" in entry else "python3")
    denied = _case(tmp_path, entry, target, None, payload, {"lib/keep": ""})
    assert denied is not None, "the hook allows the start file the entry's variable names"


_open("test_v3_a_start_variable_set_by_the_entry",
      "BASH_ENV, PYTHONPATH, PERL5LIB set by the entry itself (prefix, env, export, declare "
      "-x, set -a) are not read for the files they name", *ENTRY_SET)


# --- K2: `time` then `!` before a code's `cd` ------------------------------------------------


#: Entries whose ``cd sub`` follows ``time`` and ``!`` together (each alone holds: s49-greview2
#: K1 closed); the negated ``cd`` succeeds, so ``||``'s (``else``'s) make runs in ``sub``.
TIMED_BANG = {"bash-c": "bash -c 'time ! cd sub || make test'",
              "bash-c-p": "bash -c 'time -p ! cd sub || make test'",
              "bash-c-if": "bash -c 'if time ! cd sub; then :; else make test; fi'",
              "bash-c-while": "bash -c 'while time ! cd sub; do :; done; make test'",
              "top": "time ! cd sub || make test"}


@pytest.mark.parametrize("case", list(TIMED_BANG))
def test_k2_time_then_bang_before_the_codes_cd(tmp_path: Path, case: str) -> None:
    """bash's pipeline grammar is ``[time [-p]] [!] command``: ``time ! cd sub`` moves the
    shell (the ``!`` only negates the status), and ``|| make test`` runs make in ``sub``. The
    lead's ``_code_run`` reads past ``time`` or ``!`` alone (``! cd sub || make test`` and
    ``time cd sub && make test`` hold), not both, at the top level either. Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is allowed, the entry runs
    the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, TIMED_BANG[case], "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder the code moves to"


_open("test_k2_time_then_bang_before_the_codes_cd",
      "`time ! cd sub` (time then !) hides the cd from the folder reading", *TIMED_BANG)


# --- C1: a comment's words read as commands --------------------------------------------------


#: Entries with a comment holding ``; cd ..`` (or ``&& cd ..``) after ``cd sub``; make, on the
#: next line, runs in ``sub``.
COMMENTED = {"bash-c": "bash -c 'cd sub #; cd ..\nmake test'",
             "bash-c-and": "bash -c 'cd sub # && cd ..\nmake test'",
             "bash-c-after-semicolon": "bash -c 'cd sub;#; cd ..\nmake test'",
             "sh-c": "sh -c 'cd sub #; cd ..\nmake test'",
             "top": "cd sub #; cd ..\nmake test"}


@pytest.mark.parametrize("case", list(COMMENTED))
def test_c1_a_comments_cd_is_read_as_a_move(tmp_path: Path, case: str) -> None:
    """``#`` starts a comment to the end of the line (bash(1), "COMMENTS"): ``cd sub #; cd
    ..`` moves to ``sub`` only, and the next line's make runs there. The gate reads the
    comment's ``cd ..`` as a move back and guards the call's ``Makefile`` (``cd sub # cd ..``
    without an operator holds). Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk
    sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, COMMENTED[case], "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


_open("test_c1_a_comments_cd_is_read_as_a_move",
      "a comment's `; cd ..` after `cd sub` is read as a move back", *COMMENTED)


def test_bash_is_real() -> None:
    """The review's oracle is GNU bash (``BASHOPTS``, ``cdable_vars``, ``<(…)``)."""
    needs("bash")
    said = subprocess.run(["bash", "--version"], capture_output=True, text=True, check=True)
    assert "GNU bash" in said.stdout
