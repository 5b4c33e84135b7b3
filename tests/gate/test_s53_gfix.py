"""Session 53's fix (s53-gfix) of build files and scripts that start programs elsewhere (issue
29; review s52-greview W1-W7, S1, S2, F1, R1, B1, B2, T1): where a plan's program reads
project code, the start names of every program and the last names of the plan's own paths
are guarded at any depth, whatever the approved text says (no reading of it for a move). The
real-bash cases prove the payload runs and that the printed hook denies a call of each, with
moves no reading of the text could name; the costs are pinned as the hook gives them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, hook_allows, hooked_project, needs, proved_case
from test_gate_files import _settings_hook

from skillgrant.gate.deepnames import deep_names
from skillgrant.gate.planprograms import plan_programs
from skillgrant.gate.starttables import ALL_STARTS

#: The holes left open, by test name: each a strict xfail (tests/conftest.py reads it).
OPEN = LeftOpen()

MAKEFILE = "test:\n\techo ok\n"
MAKE_PAYLOAD = "test:\n\ttouch zz\n"

#: Approved files that move by a spelling built from pieces (session 52's documented residual
#: "a move the text builds from pieces is not seen"): make's ``$(C)d``, a Python tool's
#: ``getattr(os, "ch" + "dir")``, a shell script's ``$(printf c)d``, a node tool's
#: ``process["ch" + "dir"]``; each then runs make in ``sub``.
PIECES = {
    "make-variable-cd": ("make", "make test", {"Makefile": "C = c\ntest:\n\t$(C)d sub && "
                                                          "$(MAKE) test\n"}),
    "python-getattr-chdir": ("python3", "python3 tool.py",
                             {"tool.py": "import os, subprocess\n"
                                         "getattr(os, 'ch' + 'dir')('s' + 'ub')\n"
                                         "subprocess.run(['make', 'test'])\n"}),
    "sh-printf-cd": ("sh", "sh build.sh", {"build.sh": "$(printf c)d sub && make test\n"}),
    "node-computed-chdir": ("node", "node tool.js",
                            {"tool.js": "process['ch' + 'dir']('s' + 'ub');\n"
                                        "require('child_process').execSync('make test');\n"}),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(PIECES))
def test_a_move_built_from_pieces_guards_the_folder_it_reaches(tmp_path: Path,
                                                               case: str) -> None:
    """No reading of the approved text names these moves; the plan's program reads project
    code, so ``sub/Makefile`` is guarded by its name: real bash runs the payload after ``cp
    src/mk sub/Makefile``, the printed hook denies the copy. Plan ``Bash(<entry>)``,
    ``Bash(cp *)``."""
    program, entry, files = PIECES[case]
    needs("bash", "make", program)
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                         {"sub/Makefile": MAKEFILE, "src/mk": MAKE_PAYLOAD, **files},
                         ["cp src/mk sub/Makefile", entry], {"CLAUDE_PROJECT_DIR": "{P}"})
    assert denied == "cp src/mk sub/Makefile"


@pytest.mark.slow
def test_a_test_runner_with_no_script_guards_the_fixture_makefile(tmp_path: Path) -> None:
    """``python3 -m pytest`` names no script of the project, yet the tests it collects run
    make in ``fixtures/proj`` (s52-greview T1's kind, with the folder built from pieces):
    ``fixtures/proj/Makefile`` is guarded by its name."""
    needs("bash", "make", "python3")
    test = ("import os, subprocess\n\n\ndef test_build():\n"
            "    subprocess.run(['make', 'test'], cwd=os.path.join('fix' + 'tures', 'proj'),"
            " check=True)\n")
    denied = proved_case(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
                         {"tests/test_build.py": test, "fixtures/proj/Makefile": MAKEFILE,
                          "payload/mk": MAKE_PAYLOAD},
                         ["cp payload/mk fixtures/proj/Makefile", "python3 -m pytest -q"],
                         {"CLAUDE_PROJECT_DIR": "{P}"})
    assert denied == "cp payload/mk fixtures/proj/Makefile"


def test_the_deep_names_follow_the_plans_programs_not_their_text(tmp_path: Path) -> None:
    """``deep_names`` reads no file: the same names whatever the approved files hold (a
    makefile with a move, one without, none at all); none for a plan whose programs read no
    project code (``cd sub``, ``jq . x.json``, ``cp *``); a package's ``__main__.py`` guards
    its folder's name (``pytest``), not every ``__main__.py``."""
    roots = [str(tmp_path)]
    make = plan_programs(("Bash(make test)",))
    before = deep_names(make, roots)
    assert {"Makefile", "package.json", "CMakeLists.txt", "setup.py"} <= before
    assert set(deep_names(plan_programs(("Bash(sh build.sh)",)), roots)) >= {
        "build.sh", "Makefile"}
    (tmp_path / "Makefile").write_text("test:\n\tcd sub && $(MAKE) test\n")
    assert deep_names(make, roots) == before
    for entries in [("Bash(cd sub)",), ("Bash(jq . x.json)",), ("Bash(cp *)",), ()]:
        assert deep_names(plan_programs(entries), roots) == frozenset(), entries
    pytest_names = deep_names(plan_programs(("Bash(python3 -m pytest -q)",)), roots)
    assert "pytest" in pytest_names
    assert not {"__main__.py", "__init__.py"} & pytest_names
    assert {n.removeprefix("^").rstrip("/").rsplit("/", 1)[-1]
            for n in ALL_STARTS} - {"lib", "blib", "t", "tasks"} <= pytest_names
    assert {"lib/*.pm", "t/*.t", "tasks/*.py", "*.mk", "*.cmake"} <= pytest_names


def _edit(project: Path, target: str) -> subprocess.CompletedProcess[bytes]:
    """The printed hook asked for an ``Edit`` of ``target`` in ``project``."""
    call = {"session_id": "s", "hook_event_name": "PreToolUse", "cwd": str(project),
            "tool_name": "Edit", "tool_input": {"file_path": str(project / target),
                                                "old_string": "a", "new_string": "b"}}
    return subprocess.run(["/bin/sh", "-c", _settings_hook(project)],
                          input=json.dumps(call).encode(), cwd=project, capture_output=True,
                          timeout=60, check=False)


#: A start file below the project, under a plan with a program reading project code: a module
#: perl loads from a ``lib/`` (prove's start folder), a workspace member's ``package.json``.
BELOW = {"lib-folder": (["Bash(make test)"], {"Makefile": MAKEFILE}, "src/lib/X.pm", "src/**"),
         "member-manifest": (["Bash(npm test)"], {"package.json": '{"scripts":{"test":"true"}}'},
                             "packages/a/package.json", "packages/**")}


@pytest.mark.parametrize("case", list(BELOW))
def test_cost_a_start_name_below_is_denied_to_cp_and_allowed_to_an_edit_grant(
        tmp_path: Path, case: str) -> None:
    """The cost of guarding start names at any depth, pinned: ``cp`` over ``src/lib/X.pm`` (a
    perl module in a ``lib``) or ``packages/a/package.json`` under ``Bash(cp *)`` is denied,
    naming the path; the plan's own ``Edit`` grant of it (``Edit(src/**)``) is allowed,
    as for what a plan's program reads (s45; ``named.planned_only``)."""
    entries, files, target, grant = BELOW[case]
    for kind, plan in (("cp", [*entries, "Bash(cp *)"]), ("edit", [*entries, f"Edit({grant})"])):
        project = hooked_project(tmp_path / kind, plan)
        for name, text in {**files, target: "a\n", "src/new": "a\n"}.items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(text)
        if kind == "cp":
            assert not hook_allows(project, f"cp src/new {target}")
        else:
            said = _edit(project, target)
            assert said.returncode != 2, said.stderr.decode()



def test_a_skills_own_script_guards_every_start_name(tmp_path: Path) -> None:
    """Rule 2 for the usual skill entry (review s53-greview R): a script named by the
    runtime's placeholder (``${CLAUDE_SKILL_DIR}/scripts/run.sh``, the skill's folder guarded
    whole) may start any program in the call's folder: every start name is guarded there
    (``Makefile``, ``package.json``) and at any depth."""
    for entry in ("${CLAUDE_SKILL_DIR}/scripts/run.sh", "bash ${CLAUDE_SKILL_DIR}/scripts/run.sh",
                  "python3 ${CLAUDE_SKILL_DIR}/tool.py"):
        named = plan_programs((f"Bash({entry})",))
        assert {"Makefile", "package.json"} <= set(named), entry
        assert {"Makefile", "package.json"} <= deep_names(named, [str(tmp_path)])

#: Files below folders named as a program's start folder that the program does not load
#: (review s53-greview C1): a C source in ``src/lib``, a Python module in a package's
#: ``lib``, notes in ``docs/t`` and ``docs/tasks``.
NOT_LOADED = ["src/lib/y.c", "mypkg/lib/old.py", "docs/t/a.md", "docs/tasks/a.md"]


def test_a_file_a_start_folders_program_does_not_load_is_writable(tmp_path: Path) -> None:
    """``lib/``, ``blib/``, ``t/``, ``tasks/`` guard at any depth only the files perl,
    prove and invoke load from them (``lib/*.pm``, ``t/*.t``, ``tasks/*.py``): plan
    ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: each copy of ``NOT_LOADED`` is allowed;
    the loaded files' copies are denied. (A make plan's own ``^tasks/``, invoke's, is a name
    found walking up, guarded whole by ``guards``.)"""
    project = hooked_project(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)"])
    for name in [*NOT_LOADED, "src/new"]:
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text("a\n")
    for name in NOT_LOADED:
        assert hook_allows(project, f"cp src/new {name}"), name
    for name in ["src/lib/Y.pm", "sub/t/a.t", "sub/tasks/x.py", "sub/blib/lib/Z.pm",
                 "sub/lib/auto/Z/Z.so", "cmake/local.cmake", "sub/common.mk"]:
        assert not hook_allows(project, f"cp src/new {name}"), name


#: A recipe running perl's prove in ``sub`` (``-l``: ``sub/lib`` first on ``@INC``), and the
#: file a copy puts there: a module a test loads, a test prove runs.
PROVE = {"lib-module": ("sub/lib/Helper.pm", "package Helper; system('touch zz'); 1;\n"),
         "test-file": ("sub/t/b.t", "system('touch zz'); print \"1..0\\n\";\n")}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(PROVE))
def test_a_file_prove_loads_below_is_guarded(tmp_path: Path, case: str) -> None:
    """The narrowed start folders, measured with real prove: ``cd sub && prove -l t`` runs
    ``sub/t/*.t``, each loading ``Helper`` from ``sub/lib``; the copy over either runs the
    payload under bash, and the printed hook denies it."""
    needs("bash", "make", "prove")
    target, text = PROVE[case]
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)"],
                         {"Makefile": "test:\n\tcd sub && prove -l t\n",
                          "sub/lib/Helper.pm": "package Helper; 1;\n",
                          "sub/t/a.t": "use lib 'lib'; use Helper; print \"1..0\\n\";\n",
                          "payload/x": text}, [f"cp payload/x {target}", "make test"],
                         {"CLAUDE_PROJECT_DIR": "{P}"})
    assert denied == f"cp payload/x {target}"


@pytest.mark.slow
def test_a_start_file_linked_to_a_file_of_no_guarded_name(tmp_path: Path) -> None:
    """s52-greview L1: ``sub/Makefile -> ../shared/rules.txt`` (a start file a link to a file
    of a name no rule guards); the approved recursive make reads it through the link. Plan
    ``Bash(make test)``, ``Bash(cp *)``: ``make test`` runs the payload from it; ``cp src/mk
    shared/rules.txt`` is denied (s54-gfix: the makefile a recipe's ``$(MAKE) -C sub`` reads
    is guarded, as its real path)."""
    needs("bash", "make")
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)"],
                         {"Makefile": "test:\n\t$(MAKE) -C sub test\n",
                          "shared/rules.txt": MAKEFILE, "src/mk": MAKE_PAYLOAD,
                          "sub/README": ""},
                         ["cp src/mk shared/rules.txt", "make test"],
                         {"CLAUDE_PROJECT_DIR": "{P}"},
                         links={"sub/Makefile": "../shared/rules.txt"})
    assert denied is not None, "the hook allows the file the start file links to"


