"""Review s51 (s51-greview3) of s51-gfix3's entry folders (``gate/entryfolders.py``,
``movedoubts.py``, ``moves.py``, ``codemoves.py``: the folders a plan entry's programs run
in). Each case proves with real bash, in a scratch copy (a scratch home), that ``cp src/mk
<file>`` then the approved entry run the payload, then asks the printed hook for each call in
turn, running the allowed ones; the hook allowing them all is the finding: these tests fail
while the hole is open (``OPEN`` marks them strict xfails)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, bash, home_env, hook_allows, hooked_project, needs, proved_case
from test_gate_files import _settings_hook, payload

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

MAKEFILE = "test:\n\techo ok\n"
MAKE_PAYLOAD = "test:\n\ttouch zz\n"
#: Makefiles in the call's folder and a few below it, the payload in ``src/mk``.
FILES = {"Makefile": MAKEFILE, "sub/Makefile": MAKEFILE, "x/Makefile": MAKEFILE,
         "sub/x/Makefile": MAKEFILE, "src/mk": MAKE_PAYLOAD}


def _case(tmp_path: Path, entry: str, target: str, more: dict[str, str] | None = None,
          extra: dict[str, str] | None = None,
          links: dict[str, str] | None = None) -> str | None:
    """Proves that ``cp src/mk <target>`` then ``entry`` run the payload under real bash
    (scratch home; the session's ``extra`` values, ``{P}`` in them the folder bash runs in) in
    a hooked project with ``FILES`` and ``more``, plan ``Bash(<entry>)``, ``Bash(cp *)``; the
    first call the printed hook denies, or None (as tests/gate/test_s50_greview2.py's)."""
    return proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], {**FILES, **(more or {})},
                       [f"cp src/mk {target}", entry], extra, links=links)


# --- B1: an interpreter's code builds the shell text that moves ------------------------------


#: Entries whose code joins ``cd`` from pieces (perl's ``.``, JavaScript's ``+``) or has sed's
#: ``e`` flag run a pattern space it rewrote into ``cd sub && make test``: the shell the
#: program starts moves, then runs make in ``sub``.
BUILT = {"perl-concat": ("perl", "perl -e 'system \"c\".\"d sub && make test\"'"),
         "node-concat": ("node", "node -e 'require(\"child_process\")"
                                 ".execSync(\"c\"+\"d sub && make test\")'"),
         "sed-e-flag": ("sed", "echo 'Xd sub && make test' | sed s/X/c/e"),
         "awk-concat": ("awk", "awk 'BEGIN{system(\"c\" \"d sub; make test\")}'")}


@pytest.mark.parametrize("case", list(BUILT))
def test_b1_code_builds_the_shell_text_that_moves(tmp_path: Path, case: str) -> None:
    """perl's ``system "c"."d sub && make test"`` hands ``/bin/sh -c 'cd sub && make test'``
    to a shell; node's ``execSync("c"+"d …")`` too; GNU sed's ``s/X/c/e`` runs the rewritten
    line as a command. The scanner reads each quoted piece as a command (``d sub && make
    test``: no move), so the entry's folders are the call's only. Plan ``Bash(<entry>)``,
    ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is allowed, the entry runs the payload."""
    program, entry = BUILT[case]
    needs("bash", "make", program)
    denied = _case(tmp_path, entry, "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# --- B2: perl's chdir spelled so the chdir pattern misses it ---------------------------------


#: perl's ``chdir`` with its operand after a unary ``+`` or after a comment and a line end
#: (``movedoubts._CHDIR`` wants ``(``, a quote, ``$``, ``{`` or a blank and a word); node's
#: ``process.chdir`` called through ``Function.prototype.call``/``apply``.
CHDIRS = {"unary-plus": "perl -e 'chdir+\"sub\"; system \"make test\"'",
          "comment-newline": "perl -e 'chdir#\n\"sub\"; system \"make test\"'",
          "node-call": "node -e 'process.chdir.call(process,\"sub\");"
                       "require(\"child_process\").execSync(\"make test\")'",
          "node-apply": "node -e 'process.chdir.apply(0,[\"sub\"]);"
                        "require(\"child_process\").execSync(\"make test\")'"}


@pytest.mark.parametrize("case", list(CHDIRS))
def test_b2_perls_chdir_spelled_past_the_pattern(tmp_path: Path, case: str) -> None:
    """``chdir+"sub"`` and ``chdir#`` ⏎ ``"sub"`` are perl's ``chdir("sub")``, node's
    ``process.chdir.call(process, "sub")`` its ``chdir("sub")`` (no computed name, no
    ``chdir(``); make then runs ``sub/Makefile``. (``chdir "sub"``, ``chdir("sub")`` are
    refused: held.) Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is allowed, the entry runs
    the payload."""
    needs("bash", "perl", "node", "make")
    denied = _case(tmp_path, CHDIRS[case], "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# --- B3: a program started in a folder a computed option key names ---------------------------


#: node's ``execSync`` given ``cwd`` as a literal key and as a computed one.
STARTED = {"cwd-key": "node -e 'require(\"child_process\").execSync(\"make test\","
                      "{cwd:\"sub\"})'",
           "computed-key": "node -e 'require(\"child_process\").execSync(\"make test\","
                           "{[\"cw\"+\"d\"]:\"sub\"})'",
           "from-entries": "node -e 'require(\"child_process\").execSync(\"make test\","
                           "Object.fromEntries([[\"cw\"+\"d\",\"sub\"]]))'"}


@pytest.mark.parametrize("case", list(STARTED))
def test_b3_a_program_started_in_a_named_folder(tmp_path: Path, case: str) -> None:
    """``execSync("make test", {cwd: "sub"})`` starts make in ``sub`` (refused since
    s51-gfix3 5ce68da: held); ``{["cw"+"d"]: "sub"}`` and ``Object.fromEntries([["cw"+"d",
    "sub"]])`` are the same object (``codemoves._DYNAMIC`` reads ``x[k]`` after a word only).
    Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is
    allowed, the entry runs the payload."""
    needs("bash", "node", "make")
    denied = _case(tmp_path, STARTED[case], "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# --- B4: bash's autocd: a folder's name as a command is a cd ---------------------------------


def test_b4_autocd_makes_a_folders_name_a_move(tmp_path: Path) -> None:
    """bash(1), ``autocd``: "a command name that is the name of a directory is executed as if
    it were the argument to the cd command" in an interactive shell; ``bash -i -O autocd -c
    'sub`` ⏎ ``make test'`` sets it by ``-O`` (no ``shopt`` word) and moves to ``sub``. Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is allowed, the entry runs
    the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, "bash -i -O autocd -c 'sub\nmake test'", "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# --- B6: vim's script language builds the shell text that moves --------------------------------


#: vim (and ex, the same program) in silent ex mode: ``exe "!c"."d sub && make test"`` joins
#: the ``:!`` command from pieces and runs it in a shell.
VIM = {"vim": "vim -es -c 'exe \"!c\".\"d sub && make test\"' -c q",
       "ex": "ex -s -c 'exe \"!c\".\"d sub && make test\"' -c q"}


@pytest.mark.parametrize("case", list(VIM))
def test_b6_vims_exe_builds_the_shell_text_that_moves(tmp_path: Path, case: str) -> None:
    """s51-gfix3 8d135c9 refuses an interpreter's, sed's and awk's code that starts programs
    (B1 held); vim's ``:execute`` joins strings with ``.`` and ``:!`` runs the result in a
    shell (``cd sub && make test``): vim is not read as an interpreter. Plan ``Bash(<entry>)``,
    ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "make", case)
    denied = _case(tmp_path, VIM[case], "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# (test_b6_vims_exe_builds_the_shell_text_that_moves: held since the s51 merge)


# --- B7: cmake --build DIR runs the build tool in DIR --------------------------------------------


#: A configured build folder ``build`` (its cache names Unix Makefiles), as ``cmake -B build``
#: leaves it, with a plain makefile.
_CMAKE_CACHE = ("mkdir -p build && printf 'CMAKE_GENERATOR:INTERNAL=Unix Makefiles\\n"
                "CMAKE_MAKE_PROGRAM:FILEPATH=/usr/bin/make\\nCMAKE_PROJECT_NAME:STATIC=p\\n"
                "CMAKE_HOME_DIRECTORY:INTERNAL=%s\\nCMAKE_CACHEFILE_DIR:INTERNAL=%s/build\\n' "
                "\"$PWD\" \"$PWD\" > build/CMakeCache.txt && printf 'test:\\n\\techo ok\\n' "
                "> build/Makefile")


def test_b7_cmake_build_runs_make_in_its_folder(tmp_path: Path) -> None:
    """``cmake --build build`` runs the cache's generator (make) in ``build``: make reads
    ``build/Makefile``. Plan ``Bash(cmake --build build)``, ``Bash(cp *)``: real bash runs the
    payload after ``cp src/mk build/Makefile``; the hook denies a call (held)."""
    needs("bash", "make", "cmake")
    denied = proved_case(tmp_path, ["Bash(cmake --build build)", "Bash(cp *)"], FILES,
                         ["cp src/mk build/Makefile", "cmake --build build"],
                         setup=_CMAKE_CACHE, in_place=True)
    assert denied is not None, "the hook allows the makefile of the folder make runs in"



# --- B5: a guarded build file or script moves, then starts a program --------------------------


#: Each case: the entry, the project's own file (guarded: the entry's folders' start files or
#: its script) that moves to ``sub`` and runs make there (a recursive make, an npm script, a
#: shell, perl, node or python script).
OWN = {"make-cd-recipe": ("make", "make test", {"Makefile": "test:\n\tcd sub && $(MAKE) test\n"}),
       "make-C-recipe": ("make", "make test", {"Makefile": "test:\n\t$(MAKE) -C sub test\n"}),
       "make-sideways-recipe": ("make", "make -C x test",  # (sub: not below the entry's x)
                                {"x/Makefile": "test:\n\tcd ../sub && $(MAKE) test\n"}),
       "npm-script": ("npm", "npm test",
                      {"package.json": '{"scripts":{"test":"cd sub && make test"}}'}),
       "sh-script": ("sh", "sh build.sh", {"build.sh": "cd sub && make test\n"}),
       "perl-script": ("perl", "perl tool.pl", {"tool.pl": "chdir 'sub'; system 'make test';\n"}),
       "node-script": ("node", "node tool.js",
                       {"tool.js": "process.chdir('sub');\n"
                                   "require('child_process').execSync('make test');\n"}),
       "python-script": ("python3", "python3 tool.py",
                         {"tool.py": "import os\nos.chdir('sub')\nos.system('make test')\n"})}


@pytest.mark.parametrize("case", list(OWN))
def test_b5_a_guarded_build_file_moves_its_programs(tmp_path: Path, case: str) -> None:
    """The entry runs a file of the project the gate guards where the entry runs (the
    Makefile's recipe, package.json's script, the script the entry names): it is the
    reviewed one, but it moves (``cd sub && $(MAKE)``, ``$(MAKE) -C sub``, a script's
    ``chdir``) and starts make there: what make reads in ``sub`` is guarded nowhere. A
    recursive make is the common case. Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk
    sub/Makefile`` is allowed, the entry runs the payload."""
    program, entry, more = OWN[case]
    needs("bash", "make", program)
    denied = _case(tmp_path, entry, "sub/Makefile", more)
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# (test_b5_a_guarded_build_file_moves_its_programs: held since s52-gfix, deepnames)


# --- E1: a quoted parenthesis read as a subshell the loop opened ------------------------------


def test_e1_a_quoted_parenthesis_hides_a_loops_repeated_move(tmp_path: Path) -> None:
    """s51-gfix3 326fa2f reads a ``cd`` in a subshell a loop opens as made once (the subshell
    ends each time), counting ``(`` and ``)`` words; the word ``"("`` (quotes gone) counts as
    one, so ``for d in a b; do echo "(" >/dev/null; cd sub; done; make test`` is read as a
    ``cd`` in a subshell: folders ``""``, ``sub``. bash runs ``cd sub`` twice in the loop's
    own shell: make runs ``sub/sub/Makefile``. (At 49c1243 the plan was refused.) Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk sub/sub/Makefile`` is allowed, the entry
    runs the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, 'for d in a b; do echo "(" >/dev/null; cd sub; done; make test',
                   "sub/sub/Makefile", {"sub/sub/Makefile": MAKEFILE})
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# --- E2: cd -P .. from a link's folder goes to the link target's parent ------------------------


def test_e2_a_physical_dotdot_after_a_link(tmp_path: Path) -> None:
    """``x/link`` is a link to ``../sub/d``; ``cd x/link && cd -P .. && make test``: ``cd -P
    ..`` resolves the link (bash(1): "use the physical directory structure"), so make runs in
    ``sub``; the gate joins ``..`` to ``x/link`` as written: ``x``. (``cd x/link/..`` is read
    both ways: held in s50.) Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk
    sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, "cd x/link && cd -P .. && make test", "sub/Makefile",
                   {"sub/d/Makefile": MAKEFILE}, links={"x/link": "../sub/d"})
    assert denied is not None, "the hook allows the makefile of the folder make runs in"



# --- D3b: pushd -n succeeds without moving: cd - still goes to the session's OLDPWD ----------


def test_d3b_cd_back_after_pushd_n_goes_to_the_sessions_oldpwd(tmp_path: Path) -> None:
    """s51-gfix3 5ce68da reads ``cd -`` only after a ``cd`` or ``pushd`` that ran by ``&&``
    (bash then set ``OLDPWD``); ``pushd -n x`` succeeds and adds ``x`` to the stack without
    changing the folder (bash(1): "-n Suppresses the normal change of directory"), so
    ``OLDPWD`` is still the session's: here ``sub``. Plan ``Bash(<entry>)``, ``Bash(cp *)``:
    ``cp src/mk sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, "pushd -n x && cd - && make test", "sub/Makefile",
                   extra={"OLDPWD": "{P}/sub"})
    assert denied is not None, "the hook allows the makefile of the folder make runs in"



# --- E3: a cd chained to a pushd -n, which moved nothing ----------------------------------------


#: Entries where ``pushd -n d`` (adds ``d`` to the stack, no move) precedes a ``cd`` by ``&&``.
PUSHD_N = {"first": "pushd -n d && cd sub && make test",
           "after-cd": "cd x && pushd -n d && cd ../sub && make test"}


@pytest.mark.parametrize("case", list(PUSHD_N))
def test_e3_a_cd_chained_to_pushd_n(tmp_path: Path, case: str) -> None:
    """s51-gfix3 326fa2f reads a ``cd`` run after another ``cd``/``pushd`` by ``&&`` from that
    one's folders alone; ``pushd -n d`` is taken as a move to ``d``, so ``cd sub`` is read as
    ``d/sub`` (``x/d/../sub``: ``x/sub``). bash's ``pushd -n`` does not move: ``cd sub`` runs
    from the call's folder (``x``'s parent), make runs ``sub/Makefile``. (At 49c1243 the
    closure held ``sub``: refused.) Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk
    sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, PUSHD_N[case], "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"



# --- C1: the Bash tool's folder kept from call to call -----------------------------------------


def _calls_in_folders(tmp_path: Path, entries: list[str],
                      calls: list[tuple[str, str]]) -> str | None:
    """Runs ``calls`` (each a command and the folder, under the project, the runtime runs it
    in and sends as the hook's ``cwd``) under real bash in a scratch project with plan
    ``entries`` and ``FILES``, asserting the payload ran; then asks the printed hook for each in
    a second project, running the allowed ones: the first denied, or None (the hole)."""
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, entries)
        for name, text in FILES.items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(text)
        env = home_env(tmp_path / side / "home")
        hook = _settings_hook(project)
        denied = None
        for call, folder in calls:
            where = project / folder
            said = subprocess.run(["/bin/sh", "-c", hook], input=payload(call, where), cwd=where,
                                  env=env, capture_output=True, timeout=60, check=False)
            if side == "run" and said.returncode == 2:
                denied = call
                break
            bash(call, where, env)
        if side == "proof":
            assert any(project.rglob("zz")), "bash ran no payload"
        else:
            found.append(denied)
    return found[0]


#: Plans moving the Bash tool (``cd *``, ``cd sub``) beside ``make test``: Claude Code keeps
#: the Bash tool's folder from one call to the next and sends it as the hook's ``cwd``.
KEPT_FOLDER = {"cd-pattern": ["Bash(cd *)", "Bash(make test)", "Bash(cp *)"],
               "cd-sub": ["Bash(cd sub)", "Bash(make test)", "Bash(cp *)"]}


@pytest.mark.parametrize("case", list(KEPT_FOLDER))
def test_c1_a_later_call_runs_make_in_the_folder_an_earlier_cd_left(tmp_path: Path,
                                                                      case: str) -> None:
    """``cp src/mk sub/Makefile`` from the project's folder (make's makefile there is
    ``Makefile``, guarded; ``sub``'s is not: no entry of the plan moves ``make``), then the call
    ``cd sub`` (the Bash tool's folder is now ``sub``: docs/call-gate.md G-6), then ``make
    test`` with ``cwd`` ``sub``: make runs ``sub/Makefile``, written when it was guarded
    nowhere. Each call is allowed."""
    needs("bash", "make")
    denied = _calls_in_folders(tmp_path, KEPT_FOLDER[case], [
        ("cp src/mk sub/Makefile", ""), ("cd sub", ""), ("make test", "sub")])
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# (test_c1_a_later_call_runs_make_in_the_folder_an_earlier_cd_left: held since s52-gfix)


# --- COST K1: a loop repeating a child's -C, which moves no shell ------------------------------


#: Entries repeating ``make -C sub``/``git -C sub`` in a loop: ``-C`` moves the child only, so
#: each run starts from the call's folder and runs in ``sub`` (the folders ``""``, ``sub``).
CHILD_LOOPS = {"make-C": "for t in lint test; do make -C sub $t; done",
               "git-C": "for t in a b; do git -C sub status; done"}


@pytest.mark.parametrize("case", list(CHILD_LOOPS))
def test_cost_k1_a_loop_repeating_a_childs_C_is_allowed(tmp_path: Path, case: str) -> None:
    """The scanner marks any move in a loop as repeated (``a loop, a function, a trap or the
    shell's history may repeat a relative move``) and refuses the plan, but ``-C`` moves no
    shell: bash runs each ``make -C sub`` from the call's folder. The entry itself is then
    denied (its plan refused)."""
    needs("bash", "make", "git")
    project = hooked_project(tmp_path, [f"Bash({CHILD_LOOPS[case]})", "Bash(cp *)"])
    (project / "sub").mkdir()
    (project / "sub" / "Makefile").write_text("lint test:\n\t@pwd > ../ran\n")
    bash(CHILD_LOOPS[case], project)  # (real bash: make ran in sub, from the call's folder)
    assert case != "make-C" or (project / "ran").read_text().strip().endswith("/sub")
    assert hook_allows(project, CHILD_LOOPS[case])


# (make-C, a cost kept since s53-gfix2: closed by s54-gfix3, gate/textwords: a loop's name is
# no path, and `$t` takes the loop's plain words)
