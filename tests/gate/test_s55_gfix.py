"""s55-gfix: what make's (and cmake's) reading cannot compute write-guards the folders it may
read from (``gate/writeguard.py``, ``makebounds.py``; the lead's rule for issue 29): a write
there by a broad grant (``Bash(cp *)``, ``tee``) is denied, naming the makefile's line; the
plan's own exact entries (``make test``), read-only commands and writes outside the folders
stay allowed; a plan without doubts keeps today's behaviour. Proved with real bash and GNU
make 4.3 (``test_s53_greview._session``: the payload runs, then each call is asked of the
printed hook). Every payload only touches a file (``touch zz``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, home_env, hooked_project, needs
from test_gate_files import _settings_hook, payload
from test_s53_greview import MAKE_INCLUDED, _session

from skillgrant.gate.makebounds import EVERYWHERE, bound
from skillgrant.gate.makereads import makefile_reads

#: Real bash, make and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open, by test name (and case): strict xfails (tests/conftest.py reads it).
OPEN = LeftOpen()

OK = "test:\n\t@echo ok\n"
EVAL = "$(foreach f,local.conf,$(eval -include $(f)))\n" + OK
#: A doubt bounded to make's folder (an `$(eval` is every folder's since session 57).
BOUNDED = "-include $(wildcard *.conf)\n" + OK
PLAN = ["Bash(make test)", "Bash(cp *)", "Bash(tee *)", "Bash(cat *)", "Bash(ls *)",
        "Bash(grep *)", "Bash(npm test)", "Edit(**)"]

#: Writes into make's folder (a doubt bounded there) by each broad grant; proved by make.
HELD = {
    "cp": ["cp src/p local.conf", "make test"],
    "tee": ["tee local.conf < src/p", "make test"],
    "redirection": ["cat src/p > local.conf", "make test"],
    "after-the-plans-make": ["make test && cp src/p local.conf", "make test"],
    "after-a-cd": ["cd src && cp p ../local.conf && cd ..", "make test"],
}


@pytest.mark.parametrize("case", HELD)
def test_a_write_where_a_doubt_reads_is_denied(case: str, tmp_path: Path) -> None:
    """Makefile ``$(foreach f,local.conf,$(eval -include $(f)))``: the calls run the payload
    (proved), the hook denies one of them."""
    needs("make")
    assert _session(tmp_path, PLAN, {"Makefile": EVAL, "src/p": MAKE_INCLUDED},
                    HELD[case]) is not None


def _said(tmp_path: Path, entries: list[str], files: dict[str, str], call: str
          ) -> subprocess.CompletedProcess[bytes]:
    """The printed hook's answer to ``call`` in a hooked project with ``entries``, ``files``."""
    project = hooked_project(tmp_path, entries)
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    (tmp_path / "elsewhere").mkdir(exist_ok=True)
    (tmp_path / "elsewhere" / "a").write_text("x\n")
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    return subprocess.run(["/bin/sh", "-c", _settings_hook(project)],
                          input=payload(call, project), cwd=project, env=env,
                          capture_output=True, timeout=60, check=False)


#: Calls a plan whose makefile holds a doubt of make's folder keeps: its own exact entry,
#: read-only commands, a write the gate proves outside the project (``cp``'s sources read).
KEPT = {"own-entry": "make test", "cat": "cat Makefile", "grep": "grep -rn include .",
        "ls": "ls -la", "piped": "cat Makefile | grep eval",
        "outside": "cp ../elsewhere/a ../elsewhere/copy", "exact-npm": "npm test",
        "own-then-read": "make test && grep -c ok Makefile", "to-a-device": "make test >/dev/null",
        "copied-out": "cp src/p ../elsewhere/copy"}


@pytest.mark.parametrize("case", KEPT)
def test_a_call_writing_nothing_there_stays_allowed(case: str, tmp_path: Path) -> None:
    said = _said(tmp_path, PLAN, {"Makefile": BOUNDED, "src/p": "x\n"}, KEPT[case])
    assert said.returncode != 2, said.stderr.decode()


def test_the_denial_names_the_makefiles_line(tmp_path: Path) -> None:
    said = _said(tmp_path, PLAN, {"Makefile": BOUNDED, "src/p": "x\n"}, "cp src/p notes.txt")
    assert said.returncode == 2
    assert "Makefile:1" in said.stderr.decode()


def test_a_doubt_reaching_outside_guards_every_folder(tmp_path: Path) -> None:
    """``TOP := ..`` and a sub-make ``-C $(TOP)/lib``: a write beside the project is denied
    too; the plan's own ``make test`` is not."""
    files = {"Makefile": "TOP := ..\ntest:\n\t$(MAKE) -C $(TOP)/lib test\n", "src/p": "x\n"}
    said = _said(tmp_path / "1", PLAN, files, "cp ../elsewhere/a ../elsewhere/copy")
    assert said.returncode == 2, said.stderr.decode()
    said = _said(tmp_path / "2", PLAN, files, "make test")
    assert said.returncode != 2, said.stderr.decode()


def test_a_plan_without_doubts_keeps_its_writes(tmp_path: Path) -> None:
    """A literal include: only the file it names is guarded, a copy beside it allowed."""
    files = {"Makefile": "-include local.conf\n" + OK, "src/p": "x\n"}
    said = _said(tmp_path, PLAN, files, "cp src/p notes.txt")
    assert said.returncode != 2, said.stderr.decode()
    assert _said(tmp_path / "2", PLAN, files, "cp src/p local.conf").returncode == 2


#: A doubt's text, and whether it reads below make's folder only (``makebounds.bound``).
BOUNDS = {
    # (every function but a words-of-its-argument one is not read since session 57: the
    # lead's call on s57-greview's findings, docs/decisions.md)
    "foreach-eval": ("$(foreach f,local.conf,$(eval -include $(f)))", False),
    "eval-of-a-define": ("$(eval $(INC))", False),
    "sub-make-of-a-literal-folder": ("$(MAKE) -C $(BUILDDIR)/latex", True),
    "loop-over-literal-words": ("for d in $(DIRS); do $(MAKE) -C $$d; done", True),
    "pattern-rule": ("%.conf: %.conf.in", True),
    "climbing-variable": ("-include $(TOP)/x.conf", False),
    "environment-variable": ("-include $(HOME)/x.conf", False),
    "optional-assignment": ("-include $(OPT)/x.conf", False),
    "shell-function": ("-include $(shell cat list)", False),
    "shell-variable": ("cd $$HOME && $(MAKE)", False),
    "command-substitution": ("cd $$(dirname x) && $(MAKE)", False),
    "absolute": ("vpath %.conf /etc", False),
    "computed-name": ("-include $($(X))", False),
    "unknown-call": ("$(call U,x)", False),
}


@pytest.mark.parametrize("case", BOUNDS)
def test_what_a_doubt_may_read(case: str) -> None:
    text, below = BOUNDS[case]
    definitions = {"INC": ["-include local.conf"], "BUILDDIR": ["_build"], "DIRS": ["a b"],
                   "TOP": [".."], "OPT": ["x"]}
    assigned = {"INC", "BUILDDIR", "DIRS", "TOP"}  # (OPT by `?=`: the environment's first)
    assert (bound(text, "/p", definitions, assigned) == "/p") is below
    assert below or bound(text, "/p", definitions, assigned) == EVERYWHERE


def test_a_literal_target_is_no_makefile(tmp_path: Path) -> None:
    """``MAIN := app`` + ``$(MAIN): main.o`` with a recipe remakes ``app``, not the makefile
    (git contrib's idiom): no doubt; a target of an unassigned variable keeps one."""
    (tmp_path / "Makefile").write_text("MAIN := app\n$(MAIN): main.o\n\tcc -o $@ $^\n")
    held: list[tuple[str, str]] = []
    makefile_reads(str(tmp_path / "Makefile"), str(tmp_path), held)
    assert held == []
    (tmp_path / "Makefile").write_text("$(MAIN): main.o\n\tcc -o $@ $^\n")
    makefile_reads(str(tmp_path / "Makefile"), str(tmp_path), held)
    assert held and {f for f, _ in held} == {EVERYWHERE}


#: Calls a doubt's write guard denies though make may never read what they write (the rule's
#: cost: a write into make's folder by a broad grant, a redirection beside the exact entry).
COSTS = {"a-copy-in-the-project": "cp src/p src/q", "a-log-beside-make": "make test > build.log"}


@pytest.mark.parametrize("case", COSTS)
def test_the_rules_cost_is_a_denial_naming_the_doubt(case: str, tmp_path: Path) -> None:
    said = _said(tmp_path, PLAN, {"Makefile": BOUNDED, "src/p": "x\n"}, COSTS[case])
    assert said.returncode == 2 and "Makefile:1" in said.stderr.decode()


def test_a_cmake_build_reads_the_source_its_cache_names(tmp_path: Path) -> None:
    """``cmake --build build`` over a build configured from ``cpp/``: ``cpp/CMakeLists.txt``'s
    ``include(opts.txt)`` is guarded (s54-greview C5), a copy beside it is not."""
    files = {"build/CMakeCache.txt": f"CMAKE_HOME_DIRECTORY:INTERNAL={tmp_path}/project/cpp\n",
             "cpp/CMakeLists.txt": "include(opts.txt)\n", "cpp/opts.txt": "", "src/p": "x\n"}
    plan = ["Bash(cmake --build build)", "Bash(cp *)"]
    assert _said(tmp_path, plan, files, "cp src/p cpp/opts.txt").returncode == 2
    said = _said(tmp_path / "2", plan, {**files, "build/CMakeCache.txt": "CMAKE_HOME_DIRECTORY:"
                                        f"INTERNAL={tmp_path}/2/project/cpp\n"},
                 "cp src/p cpp/notes.txt")
    assert said.returncode != 2, said.stderr.decode()


def test_a_starred_make_entry_keeps_its_own_commands(tmp_path: Path) -> None:
    """``Bash(make *)``: ``make html`` (its target a word of make's folder) stays allowed under a
    doubt (make's own command: what it reads under its own grant is the person's, P1g); a
    ``cp`` into the folder does not."""
    plan = ["Bash(make *)", "Bash(cp *)"]
    files = {"Makefile": EVAL, "src/p": "x\n"}
    said = _said(tmp_path / "1", plan, files, "make -C . html")
    assert said.returncode != 2, said.stderr.decode()
    assert _said(tmp_path / "2", plan, files, "make html && cp src/p local.conf").returncode == 2


def _tool(tmp_path: Path, entries: list[str], files: dict[str, str], tool: str,
          tool_input: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    """The printed hook's answer to a file tool's call in a hooked project."""
    import json

    project = hooked_project(tmp_path, entries)
    for name, text in files.items():
        (project / name).write_text(text)
    given = {k: v.replace("{P}", str(project)) for k, v in tool_input.items()}
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    return subprocess.run(["/bin/sh", "-c", _settings_hook(project)], input=json.dumps({
        "session_id": "s", "cwd": str(project), "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": given}).encode(), cwd=project, env=env,
        capture_output=True, timeout=60, check=False)


def test_a_file_tool_writing_where_a_doubt_reads_is_denied(tmp_path: Path) -> None:
    """Write and Edit of a file in make's folder under a doubt are denied naming the line
    (review s55-greview T1); without a doubt, allowed."""
    plan = ["Bash(make test)", "Edit(**)"]
    said = _tool(tmp_path / "1", plan, {"Makefile": EVAL}, "Write",
                 {"file_path": "{P}/local.conf", "content": "$(shell touch zz)\n"})
    assert said.returncode == 2 and "Makefile:1" in said.stderr.decode()
    said = _tool(tmp_path / "2", plan, {"Makefile": EVAL, "notes.txt": "a\n"}, "Edit",
                 {"file_path": "{P}/notes.txt", "old_string": "a", "new_string": "b"})
    assert said.returncode == 2 and "Makefile:1" in said.stderr.decode()
    said = _tool(tmp_path / "3", plan, {"Makefile": OK, "notes.txt": "a\n"}, "Edit",
                 {"file_path": "{P}/notes.txt", "old_string": "a", "new_string": "b"})
    assert said.returncode != 2, said.stderr.decode()
