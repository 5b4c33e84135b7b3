"""s54-gfix: what make and cmake read as their own instructions, computed from the plan's
makefiles and CMakeLists with their grammar (``gate/makereads.py``, ``makerecipes.py``,
``cmakereads.py``), by real bash, GNU make 4.3, cmake and the printed hook
(``test_s53_greview._session``: the payload proved to run, then each call asked of the hook).
A computed include of the plan's own makefile refuses the plan (as before), naming its line;
what else the reading cannot compute is left open (strict-xfail rows). Every payload
only touches a file (``touch zz``); one read through ``BASH_ENV`` unsets it first."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, home_env, hooked_project, needs
from test_gate_files import _settings_hook, payload
from test_s53_greview import MAKE_INCLUDED, _session

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open, by test name (and case): strict xfails (tests/conftest.py reads it).
OPEN = LeftOpen()

OK = "test:\n\t@echo ok\n"
#: Files make reads by a name only the makefiles' text gives (none of them `*.mk`): a
#: makefile a rule with no prerequisite remakes by copying another (its recipe's word); one
#: make's built-in `%: %.sh` rule remakes (`cat gen.conf.sh > gen.conf`); a sub-make started by
#: a variable holding `$(MAKE) -C sub`, whose makefile includes `local.conf`; `MAKEFILES` of
#: another ending before a recipe's sub-make; a sub-make's long options by abbreviations
#: (`--dir=sub --fi=build.conf`) and `--debug` (an optional value: `-f` is still read); a
#: target's own exported `BASH_ENV` (bash reads it for the recipe); an exported
#: `NODE_OPTIONS` preload the recipe's node loads.
READS = {
    "recipe-word-remakes": ({"Makefile": "-include config.mk\nconfig.mk:\n"
                                         "\tcp config.example config.mk\n" + OK,
                             "src/p": MAKE_INCLUDED},
                            ["cp src/p config.example", "make test"]),
    "built-in-sh-rule": ({"Makefile": "-include gen.conf\n" + OK, "src/p": MAKE_INCLUDED},
                         ["cp src/p gen.conf.sh", "make test"]),
    "variable-sub-make": ({"Makefile": "SUB = $(MAKE) -C sub\ntest:\n\t$(SUB) test\n",
                           "sub/Makefile": "-include local.conf\n" + OK,
                           "src/p": MAKE_INCLUDED},
                          ["cp src/p sub/local.conf", "make test"]),
    "makefiles-other-ending": ({"Makefile": "test:\n\tMAKEFILES=common.conf $(MAKE) -C sub "
                                            "test\n", "sub/Makefile": OK,
                                "src/p": MAKE_INCLUDED},
                               ["cp src/p sub/common.conf", "make test"]),
    "abbreviated-options": ({"Makefile": "test:\n\t$(MAKE) --dir=sub --fi=build.conf test\n",
                             "sub/.keep": "", "src/p": OK.replace("@echo ok", "touch zz")},
                            ["cp src/p sub/build.conf", "make test"]),
    "debug-then-f": ({"Makefile": "test:\n\t$(MAKE) --debug=n -f x.conf test\n",
                      "src/p": OK.replace("@echo ok", "touch zz")},
                     ["cp src/p x.conf", "make test"]),
    "target-exported-bash-env": ({"Makefile": "SHELL := /bin/bash\n"
                                              "test: export BASH_ENV = env.sh\n" + OK,
                                  "src/p": "unset BASH_ENV; touch zz\n"},
                                 ["cp src/p env.sh", "make test"]),
    "exported-node-options": ({"Makefile": "export NODE_OPTIONS = --require ./pre.js\n"
                                           "test:\n\tnode -e 0\n",
                               "src/p": "require('fs').writeFileSync('zz', '')\n"},
                              ["cp src/p pre.js", "make test"]),
}


@pytest.mark.parametrize("case", READS)
def test_a_file_the_makefiles_text_makes_make_read_is_guarded(case: str,
                                                              tmp_path: Path) -> None:
    """Plan ``Bash(make test)``, ``Bash(cp *)``: make runs the payload from the copied file
    (proved), and the hook denies the copy."""
    needs("make", *(["node"] if "node" in case else []))
    files, calls = READS[case]
    assert _session(tmp_path, ["Bash(make test)", "Bash(cp *)"], files, calls) == calls[0]


#: CMake's: a subdirectory's own optional include of another ending; an include by the list's
#: folder (``${CMAKE_CURRENT_LIST_DIR}``).
CMAKE = {
    "subdirectory-include": ({"CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\n"
                                                "project(p NONE)\nadd_subdirectory(sub)\n",
                              "sub/CMakeLists.txt": "include(local.txt OPTIONAL)\n"},
                             "sub/local.txt"),
    "list-dir-include": ({"CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\n"
                                            "project(p NONE)\n"
                                            "include(${CMAKE_CURRENT_LIST_DIR}/conf/local.txt "
                                            "OPTIONAL)\n", "conf/.keep": ""},
                         "conf/local.txt"),
}


@pytest.mark.parametrize("case", CMAKE)
def test_a_file_the_cmake_lists_include_is_guarded(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(cmake -S . -B build)``, ``Bash(cp *)``: cmake runs the copied file's
    ``execute_process`` (proved), and the hook denies the copy."""
    needs("cmake")
    files, target = CMAKE[case]
    files = {**files, "src/p": "execute_process(COMMAND touch zz)\n"}
    call = f"cp src/p {target}"
    assert _session(tmp_path, ["Bash(cmake -S . -B build)", "Bash(cp *)"], files,
                    [call, "cmake -S . -B build"]) == call


def _said(tmp_path: Path, entries: list[str], files: dict[str, str], call: str
          ) -> subprocess.CompletedProcess[bytes]:
    """The printed hook's answer to ``call`` in a hooked project with ``entries``, ``files``."""
    project = hooked_project(tmp_path, entries)
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    return subprocess.run(["/bin/sh", "-c", _settings_hook(project)],
                          input=payload(call, project), cwd=project, env=env,
                          capture_output=True, timeout=60, check=False)


#: A computed include of the plan's own makefile: a doubt since session 56 (review s55-greview
#: K5), which write-guarded make's folder where it refused the whole plan before; read exactly
#: since session 57 (``makeexpand.include_words``: ``$(DEPS)`` of ``DEPS = a.d`` is ``a.d``).
REFUSED = {"root-computed-include": ({"Makefile": "DEPS = a.d\n-include $(DEPS)\n" + OK},
                                     "a.d")}


@pytest.mark.parametrize("case", REFUSED)
def test_a_computed_include_of_the_plans_make_refuses_the_plan(case: str,
                                                             tmp_path: Path) -> None:
    """The plan's own ``make test`` is allowed; a copy over the name the include stands for is
    denied, one beside it allowed."""
    files, name = REFUSED[case]
    said = _said(tmp_path / "make", ["Bash(make test)", "Bash(cp *)"], files, "make test")
    assert said.returncode != 2, said.stderr.decode()
    said = _said(tmp_path / "cp", ["Bash(make test)", "Bash(cp *)"], files,
                 "cp src/x.sh docs.txt")
    assert said.returncode != 2, said.stderr.decode()
    said = _said(tmp_path / "cp2", ["Bash(make test)", "Bash(cp *)"], files,
                 f"cp src/x.sh {name}")
    assert said.returncode == 2, said.stderr.decode()


#: What the reading cannot compute, left open (the lead's call, 11:00: no new whole-plan
#: refusal; the sound form, denying a broad grant's writes while the plan's own make runs,
#: needs the word check to tell a plan entry's words from a write: docs/decisions.md): a
#: pattern rule remaking an included makefile (make copies ``config.in`` over it), a sub-make's
#: ``-include $(wildcard *.d)``, a sub-make in a computed folder, a test runner after a
#: computed ``cd`` reading its ini's plugin.
UNCOMPUTED = {
    "pattern-remake": ({"Makefile": "-include config.mk\n%.mk: %.in\n\tcp $< $@\n" + OK,
                        "src/p": MAKE_INCLUDED}, ["cp src/p config.in", "make test"]),
    "sub-make-wildcard": ({"Makefile": "test:\n\t$(MAKE) -C sub test\n",
                           "sub/Makefile": "-include $(wildcard *.d)\n" + OK,
                           "src/p": MAKE_INCLUDED}, ["cp src/p sub/main.d", "make test"]),
    "computed-folder": ({"Makefile": "DIRS = sub\ntest:\n\tfor d in $(DIRS); do "
                                     "$(MAKE) -C $$d test; done\n",
                         "sub/Makefile": "-include local.conf\n" + OK, "src/p": MAKE_INCLUDED},
                        ["cp src/p sub/local.conf", "make test"]),
    "checker-after-computed-cd": ({"Makefile": "SUB = sub\ntest:\n\tcd $(SUB) && "
                                               "python3 -m pytest -q\n",
                                   "sub/pytest.ini": "[pytest]\naddopts = -p helper_plugin\n",
                                   "sub/test_a.py": "def test_a():\n    pass\n",
                                   "src/p": "open('zz', 'w').close()\n"},
                                  ["cp src/p sub/helper_plugin.py", "make test"]),
}

@pytest.mark.parametrize("case", UNCOMPUTED)
def test_a_name_the_gate_cannot_compute_is_left_open(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)``, ``Bash(cp *)``: make runs the payload from the copied file
    (proved); the hook must deny a call of the sequence."""
    needs("make", *(["python3"] if "checker" in case else []))
    files, calls = UNCOMPUTED[case]
    assert _session(tmp_path, ["Bash(make test)", "Bash(cp *)"], files, calls) is not None


def test_the_plans_make_over_an_uncomputed_makefile_runs(tmp_path: Path) -> None:
    """The cost the refusal had, gone: ``make test`` over a makefile with a computed rule
    target, a sub-make loop, an exported ``PATH`` and sphinx's catch-all is allowed."""
    files = {"Makefile": "PROG = app\nDIRS = a b\nexport PATH := $(CURDIR)/bin:$(PATH)\n"
                         "$(PROG): main.o\n\tcc -o $@ main.o\n"
                         "test:\n\tfor d in $(DIRS); do $(MAKE) -C $$d; done\n"
                         ".PHONY: help Makefile\n%: Makefile\n\t@echo $@\n"}
    said = _said(tmp_path, ["Bash(make test)", "Bash(cp *)"], files, "make test")
    assert said.returncode != 2, said.stderr.decode()


def test_the_pattern_remake_runs_the_copied_file(tmp_path: Path) -> None:
    """The oracle of ``pattern-remake``: ``cp src/p config.in``, ``make test``: make remakes
    ``config.mk`` from it by the pattern rule, restarts, and runs the payload."""
    needs("make")
    (tmp_path / "src").mkdir()
    (tmp_path / "Makefile").write_text(UNCOMPUTED["pattern-remake"][0]["Makefile"])
    (tmp_path / "src" / "p").write_text(MAKE_INCLUDED)
    subprocess.run("cp src/p config.in && make test", shell=True, cwd=tmp_path, timeout=60,
                   capture_output=True, check=False)
    assert (tmp_path / "zz").exists()


#: Everyday calls a plan whose makefiles name only literal files keeps (today's behaviour):
#: a copy beside an include of a literal name, a recursive make's folder's other files.
KEPT = {
    "literal-include": ({"Makefile": "-include config.mk\n" + OK}, "cp src/x.sh notes.txt"),
    "recursive-other-file": ({"Makefile": "test:\n\t$(MAKE) -C sub test\n",
                              "sub/Makefile": "-include local.conf\n" + OK},
                             "cp src/x.sh sub/data.txt"),
    "cd-docs-then-sphinx": ({"Makefile": "docs:\n\tcd $(DOCS) && sphinx-build . out\n" + OK},
                            "cp src/x.sh notes.txt"),
}


@pytest.mark.parametrize("case", KEPT)
def test_an_everyday_call_stays_allowed(case: str, tmp_path: Path) -> None:
    """The call is allowed under ``Bash(make test)``, ``Bash(cp *)``."""
    files, call = KEPT[case]
    said = _said(tmp_path, ["Bash(make test)", "Bash(cp *)"], files, call)
    assert said.returncode != 2, said.stderr.decode()


def test_make_test_itself_stays_allowed(tmp_path: Path) -> None:
    """The plan's own ``make test`` with a recursive make and a literal include."""
    files = {"Makefile": "-include config.mk\ntest:\n\t$(MAKE) -C sub test\n",
             "sub/Makefile": "-include local.conf\n" + OK}
    said = _said(tmp_path, ["Bash(make test)", "Bash(cp *)"], files, "make test")
    assert said.returncode != 2, said.stderr.decode()
