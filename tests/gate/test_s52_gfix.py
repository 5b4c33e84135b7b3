"""Session 52's fix (s52-gfix) of the folders a plan's programs run in (issue 29; review
s51-greview3 K1, C1, B5): a child's ``-C`` repeated by a loop is no repeated move of the
shell (K1); a plan that moves the Bash tool's folder guards its programs' start names at any
depth, as a later call may run them from wherever its ``cd`` left the tool (C1). The
real-bash cases prove the payload runs without the fix and that the printed hook now denies
a call of each."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from bash_review import (
    LeftOpen,
    bash,
    first_denied,
    home_env,
    hooked_project,
    needs,
    proved_case,
)
from test_gate_files import _settings_hook, payload

from skillgrant.gate.deepnames import deep_names, moves_tool
from skillgrant.gate.entryfolders import entry_folders
from skillgrant.gate.moves import folder_moves
from skillgrant.gate.planprograms import plan_programs
from skillgrant.gate.runfolders import outside

#: The holes left open, by test name: each a strict xfail (tests/conftest.py reads it).
OPEN = LeftOpen()
_open = OPEN.add

# --- K1: a loop repeating a child's move ---------------------------------------------------


#: Loops whose moves are a child's only (``-C``, ``--chdir``, ``env -C``): each run starts
#: from the shell's folder, which the loop does not move; their folders.
CHILD_ONLY = {
    "for t in a b; do make -C sub lint; done": ("", "sub"),
    "for r in a b; do git -C sub status; done": ("", "sub"),
    "while false; do env -C sub make; done": ("", "sub"),
    "until true; do make --directory=sub; done; make -C x": ("", "sub", "x", "sub/x"),
}


@pytest.mark.parametrize("entry", list(CHILD_ONLY))
def test_a_loop_repeating_a_childs_move_is_read(entry: str) -> None:
    assert entry_folders(f"Bash({entry})") == CHILD_ONLY[entry]


#: Loops that do move their shell (a ``cd``, a ``pushd``, by ``builtin``/``command``, in an
#: ``eval``'s text) or a child's move beside one: refused as before.
SHELL_MOVES = ["for t in a b; do cd sub; done; make",
               "for t in a b; do pushd sub; done; make",
               "while true; do builtin cd sub; make; done",
               "for t in a b; do command cd sub; done; make",
               "for t in a b; do eval 'cd sub'; done; make",
               "for t in a b; do make -C sub; cd x; done"]


@pytest.mark.parametrize("entry", SHELL_MOVES)
def test_a_loop_moving_its_shell_is_still_refused(entry: str) -> None:
    assert "repeat a relative move" in str(folder_moves(entry))
    with pytest.raises(ValueError, match="repeat a relative move"):
        entry_folders(f"Bash({entry})")


# --- C1: the Bash tool's folder kept from call to call ---------------------------------------


MAKEFILE = "test:\n\techo ok\n"
MAKE_PAYLOAD = "test:\n\ttouch zz\n"
FILES = {"Makefile": MAKEFILE, "sub/Makefile": MAKEFILE, "sub/sub/Makefile": MAKEFILE,
         "x/Makefile": MAKEFILE, "src/mk": MAKE_PAYLOAD}


def _calls(tmp_path: Path, entries: list[str], calls: list[tuple[str, str]],
           files: dict[str, str] | None = None, project: bool = False) -> str | None:
    """Runs ``calls`` (a command and the folder under the project the runtime runs it in,
    sent as the hook's ``cwd``) under real bash in a project with plan ``entries`` and
    ``FILES`` (and ``files``), asserting the payload ran; then asks the printed hook for
    each in a second such project (its ``CLAUDE_PROJECT_DIR`` given with ``project``, as
    Claude Code gives it), running the allowed ones: the first denied, or None."""
    found: list[str | None] = []
    for side in ("proof", "run"):
        folder = hooked_project(tmp_path / side, entries)
        for name, text in {**FILES, **(files or {})}.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text)
        env = home_env(tmp_path / side / "home")
        env.update({"CLAUDE_PROJECT_DIR": str(folder)} if project and side == "run" else {})
        hook = _settings_hook(folder)
        denied = None
        for call, where in calls:
            said = subprocess.run(["/bin/sh", "-c", hook], input=payload(call, folder / where),
                                  cwd=folder / where, env=env, capture_output=True,
                                  timeout=60, check=False)
            if side == "run" and said.returncode == 2:
                denied = call
                break
            bash(call, folder / where, env)
        if side == "proof":
            assert any(folder.rglob("zz")), "bash ran no payload"
        else:
            found.append(denied)
    return found[0]


#: Plans whose entries move the Bash tool's folder, and calls that run make, in a later call,
#: in a folder no call named when its makefile was written: the same ``cd sub && make test``
#: made twice (``sub/sub``), a pattern ``cd`` going up and sideways.
KEPT = {
    "repeated-cd": (["Bash(cd sub && make test)", "Bash(cp *)"],
                    [("cp src/mk sub/sub/Makefile", ""), ("cd sub && make test", ""),
                     ("cd sub && make test", "sub")]),
    "up-and-sideways": (["Bash(cd *)", "Bash(make test)", "Bash(cp *)"],
                        [("cd sub", ""), ("cp ../src/mk ../x/Makefile", "sub"),
                         ("cd ../x", "sub"), ("make test", "x")]),
}


@pytest.mark.slow
@pytest.mark.parametrize("project", [True, False], ids=["project", "no-project"])
@pytest.mark.parametrize("case", list(KEPT))
def test_a_later_call_in_the_folder_a_cd_left_finds_its_makefile_guarded(
        tmp_path: Path, case: str, project: bool) -> None:
    """With the session's project folder (``runfolders``: the plan's names read in its run
    folders, a program denied outside them) and without (``deepnames``' fallback)."""
    needs("bash", "make")
    entries, calls = KEPT[case]
    assert _calls(tmp_path, entries, calls, project=project) is not None, \
        "the hook allows the makefile"


@pytest.mark.slow
def test_a_tool_moving_plan_with_a_project_runs_in_its_run_folders_only(tmp_path: Path) -> None:
    """With the project folder known, ``Bash(cd sub)`` beside ``Bash(make test)`` runs make
    in ``sub``; after a second ``cd sub`` it is denied in ``sub/sub``. (``x/Makefile`` is
    guarded too since s53-gfix, as every start name at any depth is: a cost by design.)"""
    needs("bash", "make")
    project = hooked_project(tmp_path, ["Bash(cd sub)", "Bash(make test)", "Bash(cp *)",
                                        "Bash(cat *)"])
    for name, text in FILES.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    hook = _settings_hook(project)

    def allowed(call: str, where: str) -> bool:
        return subprocess.run(["/bin/sh", "-c", hook], input=payload(call, project / where),
                              cwd=project / where, env=env, capture_output=True, timeout=60,
                              check=False).returncode != 2

    assert not allowed("cp src/mk x/Makefile", "") and not allowed("cp src/mk sub/Makefile", "")
    assert allowed("cp src/mk x/notes.txt", "")
    assert allowed("make test", "sub") and allowed("cd sub", "sub")
    assert not allowed("make test", "sub/sub") and allowed("cat Makefile", "sub/sub")


@pytest.mark.slow
@pytest.mark.parametrize("project", [True, False], ids=["project", "no-project"])
def test_a_later_call_in_the_folder_a_cd_left_reads_a_file_its_makefile_includes(
        tmp_path: Path, project: bool) -> None:
    """What a plan's program reads by a name a file gives, not by its own (a makefile's
    ``include``, read by ``buildnames`` where the makefile is guarded; standard modules'
    names in a Python's first folder; a relative session value's folder), is guarded in the
    call's and the project's folders (and, with the project folder known, the plan's run
    folders: held there): without it ``sub/Makefile`` includes ``common.mk``, written from
    the project's folder, then ``cd sub``, ``make test`` runs it."""
    needs("bash", "make")
    denied = _calls(tmp_path, ["Bash(cd sub)", "Bash(make test)", "Bash(cp *)"],
                    [("cp src/mk sub/common.mk", ""), ("cd sub", ""), ("make test", "sub")],
                    {"sub/Makefile": "include common.mk\n", "sub/common.mk": MAKEFILE},
                    project=project)
    assert denied is not None, "the hook allows the file the makefile includes"


# (test_a_later_call_in_the_folder_a_cd_left_reads_a_file_its_makefile_includes[no-project]:
# closed by s53-gfix: every `*.mk` is guarded at any depth; row removed)


#: Entries that may move the runtime's Bash tool for the calls after it, and others.
TOOL_MOVERS = ["cd sub", "cd *", "cd sub && make test", "pushd x", "popd", "source env.sh",
               "Set-Location sub",
               ". ./env.sh", "eval \"$X\"", "* x", "$CMD sub", "c? sub", "make; builtin cd x"]
NO_TOOL_MOVE = ["make test", "make -C sub test", "git -C sub status", "cp *", "npm run build",
                "pytest tests/cd_test.py", "env -C sub make", "python3 -m tools.cd",
                "${CLAUDE_PROJECT_DIR}/scripts/check.sh"]


@pytest.mark.parametrize("entry", TOOL_MOVERS)
def test_an_entry_moving_the_tool_is_named(entry: str) -> None:
    assert moves_tool(entry)


@pytest.mark.parametrize("entry", NO_TOOL_MOVE)
def test_an_entry_moving_no_tool_is_not(entry: str) -> None:
    assert not moves_tool(entry)


def test_a_tool_moving_plan_guards_its_names_at_any_depth(tmp_path: Path) -> None:
    """Since s53-gfix the plan's program reading project code guards its names and every
    program's start names at any depth, with a project folder or without, moving or not."""
    named = plan_programs(("Bash(cd sub)", "Bash(python3 tools/run.py)"))
    deep = deep_names(named, [str(tmp_path)])
    assert {"run.py", "tools", "Makefile"} <= deep
    assert deep_names(plan_programs(("Bash(python3 tools/run.py)",)), [str(tmp_path)]) == deep
    assert deep_names(plan_programs(("Bash(cd sub)",)), [str(tmp_path)]) == set()


def test_a_name_on_the_way_to_the_project_is_not_guarded_at_any_depth(tmp_path: Path) -> None:
    """Every path written in ``~/src/p`` holds ``src``: guarding the name at any depth would
    deny every write there (the name's folders below are left: a residual)."""
    root = tmp_path / "SRC" / "p"
    root.mkdir(parents=True)
    deep = deep_names(plan_programs(("Bash(cd sub)", "Bash(python3 src/x.py)")), [str(root)])
    assert "x.py" in deep and "src" not in deep


# --- B5: an approved build file or script that moves ---------------------------------------


#: Each case: the entry, the project's file that moves (or not: ``None``, the plan's names
#: then stay where they are read) before it starts a program.
MOVING_FILES = {
    "make-cluster-C": ("make test", {"Makefile": "test:\n\t$(MAKE) -sC sub test\n"}),
    "make-directory": ("make test", {"Makefile": "test:\n\t$(MAKE) --directory=sub test\n"}),
    "sh-pushd": ("bash build.sh", {"build.sh": "pushd sub >/dev/null\nmake test\n"}),
    "python-cwd": ("python3 tool.py", {
        "tool.py": "import subprocess\nsubprocess.run(['make', 'test'], cwd='sub')\n"}),
    "make-up": ("make -C x test", {"x/Makefile": "test:\n\tcd .. && cd sub && $(MAKE) test\n"}),
    "make-include": ("make test", {"Makefile": "include common.mk\n",
                                   "common.mk": "test:\n\tcd sub && $(MAKE) test\n"}),
    "script-by-path": ("./build.sh", {"build.sh": "#!/bin/sh\ncd sub && make test\n"}),
    "npx-node": ("npx node tool.js", {"tool.js": "process.chdir('sub');\n"
                                      "require('child_process').execSync('make test');\n"}),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(MOVING_FILES))
def test_an_approved_file_that_moves_guards_the_start_names_at_any_depth(
        tmp_path: Path, case: str) -> None:
    entry, more = MOVING_FILES[case]
    needs("bash", "make", entry.split()[0].removeprefix("./").replace("build.sh", "sh"))
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], {**FILES, **more},
                         ["cp src/mk sub/Makefile", entry], executable=("build.sh",) if
                         "build.sh" in more else ())
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


@pytest.mark.slow
def test_a_makefile_that_does_not_move_guards_other_makefiles_too(tmp_path: Path) -> None:
    """A cost by design since s53-gfix (session 52 kept ``sub/Makefile`` writable where the
    makefile named no move; review s52-greview beat that reading 34 ways): under
    ``Bash(make test)`` ``sub/Makefile`` is guarded by its name, as ``Makefile`` is."""
    needs("bash", "make")
    project = hooked_project(tmp_path, ["Bash(make test)", "Bash(cp *)"])
    for name, text in FILES.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    assert first_denied(project, ["cp src/mk sub/Makefile", "make test"]) == \
        "cp src/mk sub/Makefile"
    assert first_denied(project, ["cp src/mk Makefile"]) == "cp src/mk Makefile"


#: A file's text, the file and the entry reading it, and whether session 52's reading named a
#: move in it (``deepnames._moves_in``, gone since s53-gfix).
TEXTS = {"test:\n\tcd sub && $(MAKE)\n": ("Makefile", "make test", True),
         "all:\n\t$(MAKE) -C lib\n": ("Makefile", "make", True),
         "all:\n\t$(MAKE) -sC lib\n": ("GNUmakefile", "make", True),
         "import os\nos.chdir('x')\n": ("tool.py", "python3 tool.py", True),
         "process.chdir('x')\n": ("t.js", "node t.js", True),
         "all:\n\t$(CC) -DCONFIG -o x x.c\n": ("Makefile", "make", False),
         "test:\n\tpytest -q tests\n": ("Makefile", "make test", False),
         '{"scripts":{"test":"jest"}}': ("package.json", "npm test", False),
         '{"scripts":{"test":"npm --prefix web test"}}': ("package.json", "npm test", True),
         "[testenv]\nchangedir = sub\ncommands = make test\n": ("tox.ini", "tox", True),
         "tasks:\n  test:\n    dir: sub\n    cmds: [make test]\n": ("Taskfile.yml",
                                                                  "task test", True),
         "set working-directory := 'sub'\ntest:\n  make test\n": ("justfile", "just test",
                                                                     True),
         "[testenv]\ncommands = pytest\n": ("tox.ini", "tox", False)}


@pytest.mark.parametrize("text", list(TEXTS))
def test_a_files_text_does_not_change_the_deep_names(tmp_path: Path, text: str) -> None:
    """Since s53-gfix the names guarded at any depth are the plan's programs', whether the
    file names a move or not (``makefile``: the start names of every program among them)."""
    name, entry, _ = TEXTS[text]
    named = plan_programs((f"Bash({entry})",))
    before = deep_names(named, [str(tmp_path)])
    (tmp_path / name).write_text(text)
    assert deep_names(named, [str(tmp_path)]) == before
    assert {"Makefile", "package.json", "tox.ini"} <= before


#: A call, the folder it runs in (under ``/p``, the project; ``sub`` its one run folder) and
#: the folder ``runfolders.outside`` names: a program the plan's names concern run outside
#: the run folders by the session's folder or the call's own ``cd``; not a child's ``-C`` (its
#: entry's), not a call starting none (``cp``, ``cd``).
OUTSIDE = {("make test", "x"): "/p/x", ("cd x && make test", ""): "/p/x",
           ("eval cd x; make test", ""): "/p/x", ("cd $D && make test", ""): "/p",
           ("make -C x test", ""): None, ("cd x && cp a b", ""): None, ("cd x", "sub"): None,
           ("make test", "sub"): None, ("cd .. && make test", "sub"): None}


@pytest.mark.parametrize("call", list(OUTSIDE))
def test_a_program_outside_the_run_folders_is_named(call: tuple[str, str]) -> None:
    text, where = call
    assert outside(text, os.path.join("/p", where).rstrip("/"),
                   frozenset({"/p", "/p/sub"})) == OUTSIDE[call]
