"""Review s52 (s52-greview) of s52-gfix (``gate/deepnames.py``: the folders a plan's programs
run in across calls, and inside the build files and scripts they run). Each case proves with
real bash (GNU make, npm, find, python3) in a scratch project that the calls run the payload
(``touch zz``), then asks the printed hook for each call in turn, running the allowed ones;
the hook allowing them all is the finding: these tests fail while the hole is open (``OPEN``
marks them strict xfails).

The cases across calls run as Claude Code 2.1.332's Bash tool runs a command: ``eval CMD &&
pwd -P >| FILE`` in the folder the last call left (its binary's own text), the next call in
the physical folder written there (docs/call-gate.md G-6), a folder outside the project reset
to the project's."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, home_env, hook_allows, hooked_project, needs, proved_case
from test_gate_files import _settings_hook, payload, run_hook

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

MAKEFILE = "test:\n\techo ok\n"
MAKE_PAYLOAD = "test:\n\ttouch zz\n"
PACKAGE_PAYLOAD = '{"name":"sub","scripts":{"test":"touch zz"}}'


def _session(tmp_path: Path, entries: list[str], files: dict[str, str], calls: list[str],
             links: dict[str, str] | None = None, base: str = "") -> str | None:
    """Runs ``calls`` as the runtime's Bash tool does (each in the folder the last one left,
    read by ``pwd -P`` after it succeeded; ``CLAUDE_PROJECT_DIR`` the project, as the runtime
    sets it for its hooks) under real bash in a hooked project with plan
    ``entries``, ``files`` and the symbolic ``links`` (name: target; the project in the
    folder ``base`` of the scratch folder when given), asserting the payload
    ran; then in a second such project asks the printed hook for each call, with that folder
    as its ``cwd``, running the allowed ones: the first call denied, or None (the hole)."""
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side / base, entries)
        for name, text in files.items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(text)
        for name, to in (links or {}).items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(to, project / name)
        env = {**home_env(tmp_path / side / "home"), "CLAUDE_PROJECT_DIR": str(project)}
        hook = _settings_hook(project)
        real = folder = project.resolve()
        denied, kept = None, tmp_path / side / "cwd"
        for call in calls:
            said = subprocess.run(["/bin/sh", "-c", hook], input=payload(call, folder),
                                  cwd=folder, env=env, capture_output=True, timeout=60,
                                  check=False)
            if side == "run" and said.returncode == 2:
                denied = call
                break
            kept.unlink(missing_ok=True)
            subprocess.run(["bash", "-c", 'eval "$1" && pwd -P >| "$2"', "_", call, str(kept)],
                           cwd=folder, env=env, capture_output=True, timeout=60, check=False)
            if kept.exists():
                moved = Path(kept.read_text().strip())
                folder = moved if moved.is_relative_to(real) else real
        if side == "proof":
            assert any(project.rglob("zz")), "bash ran no payload"
        else:
            found.append(denied)
    return found[0]


def _build(tmp_path: Path, entry: str, files: dict[str, str], target: str,
           source: str = "src/mk") -> str | None:
    """Proves that ``cp SOURCE TARGET`` then ``entry`` (from the project's folder) run the
    payload under real bash, plan ``Bash(<entry>)``, ``Bash(cp *)``, the project holding
    ``files``, ``src/mk`` (a makefile running the payload), ``src/pj`` (a package.json
    whose ``test`` script runs it) and ``src/x`` (shell text running it); the first call the
    printed hook denies, or None."""
    more = {"src/mk": MAKE_PAYLOAD, "src/pj": PACKAGE_PAYLOAD, "src/x": "touch zz\n", **files}
    return proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], more,
                       [f"cp {source} {target}", entry], {"CLAUDE_PROJECT_DIR": "{P}"})


# --- W: an approved build file moves by a spelling the move reading does not name ----------------


#: A root makefile or package.json (guarded, approved) whose recipe or script runs make or npm
#: in ``sub`` by a move ``deepnames._MOVES_IN`` does not name: GNU make's clustered
#: ``-BC`` (an upper-case flag before ``C``) and its long options by a unique prefix
#: (getopt_long: ``--di=``, ``--direc``); npm's workspaces (``--workspaces``, ``-ws``,
#: ``--workspace=``: npm runs the script in each workspace's folder); find's ``-execdir``
#: (runs make in each folder holding a match); cmake's ``-S sub`` (configures from
#: ``sub/CMakeLists.txt``, running its ``execute_process``); perl's ``-xDIR`` (perlrun: "Perl
#: will switch to that directory before running the program"); pip's ``install ./sub``
#: (runs ``sub/setup.py`` in ``sub``; the entry is ``make install``); npm's ``file:./sub``
#: dependency (``npm install`` runs its lifecycle scripts in ``sub``).
UNNAMED = {
    "make-BC": ("make", "make test", {"Makefile": "test:\n\t$(MAKE) -BC sub test\n"},
                "sub/Makefile", "src/mk"),
    "make-di-prefix": ("make", "make test", {"Makefile": "test:\n\t$(MAKE) --di=sub test\n"},
                       "sub/Makefile", "src/mk"),
    "make-direc-prefix": ("make", "make test",
                          {"Makefile": "test:\n\t$(MAKE) --direc sub test\n"},
                          "sub/Makefile", "src/mk"),
    "find-execdir": ("find", "make test",
                     {"Makefile": "test:\n\tfind . -mindepth 2 -name Makefile "
                                  "-execdir $(MAKE) test \\;\n"},
                     "sub/Makefile", "src/mk"),
    "cmake-S": ("cmake", "make test",
                {"Makefile": "test:\n\tcmake -S sub -B build\n",
                 "sub/CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(p NONE)\n",
                 "src/cm": "cmake_minimum_required(VERSION 3.10)\nproject(p NONE)\n"
                           "execute_process(COMMAND touch zz)\n"},
                "sub/CMakeLists.txt", "src/cm"),
    "perl-x-dir": ("perl", "make test",
                   {"Makefile": "test:\n\tperl -xsub tool.pl\n",
                    "tool.pl": "#!/usr/bin/perl\nsystem 'make test';\n"},
                   "sub/Makefile", "src/mk"),
    "pip-install-dir": ("python3", "make install",
                        {"Makefile": "install:\n\tpython3 -m pip install -q --no-build-isolation "
                                     "--no-deps --no-index --target $(CURDIR)/out/t ./sub\n",
                         "sub/setup.py": "from setuptools import setup\nsetup(name='s')\n",
                         "src/setup.py": "import os\nos.system('touch zz')\n"},
                        "sub/setup.py", "src/setup.py"),
    "npm-file-dependency": ("npm", "npm install",
                            {"package.json": '{"name":"r","version":"1.0.0",'
                                             '"dependencies":{"s":"file:./sub"}}',
                             ".npmrc": "offline=true\naudit=false\nfund=false\n"
                                       "update-notifier=false\n",
                             "payload/pj": '{"name":"s","version":"1.0.0",'
                                           '"scripts":{"postinstall":"touch zz"}}'},
                            "sub/package.json", "payload/pj"),
    "npm-workspaces": ("npm", "npm test",
                       {"package.json": '{"name":"r","workspaces":["sub"],'
                                        '"scripts":{"test":"npm test --workspaces"}}'},
                       "sub/package.json", "src/pj"),
    "npm-ws": ("npm", "npm test",
               {"package.json": '{"name":"r","workspaces":["sub"],'
                                '"scripts":{"test":"npm test -ws"}}'},
               "sub/package.json", "src/pj"),
    "npm-workspace-eq": ("npm", "npm test",
                         {"package.json": '{"name":"r","workspaces":["sub"],'
                                          '"scripts":{"test":"npm test --workspace=sub"}}'},
                         "sub/package.json", "src/pj"),
}


@pytest.mark.parametrize("case", list(UNNAMED))
def test_w_an_approved_file_moves_by_a_spelling_the_reading_misses(tmp_path: Path,
                                                                   case: str) -> None:
    """s52-gfix guards every program's start names at any depth where an approved file's
    text names a move (``cd``, ``-C``/``-sC``, ``--directory``, ``--prefix``, ``-w``, …);
    make takes ``-BC sub`` (``-B``, then ``-C sub``) and any unique prefix of
    ``--directory``, npm runs a script in every workspace folder under ``--workspaces``,
    ``-ws`` and ``--workspace=NAME``, ``find -execdir`` runs its command in the folder of each
    match. Plan ``Bash(<entry>)``, ``Bash(cp *)``: the copy over ``sub``'s makefile or
    package.json is allowed, the entry runs the payload."""
    program, entry, files, target, source = UNNAMED[case]
    needs("bash", "make", program)
    denied = _build(tmp_path, entry, {"sub/Makefile": MAKEFILE,
                                      "sub/package.json": '{"name":"sub","scripts":'
                                                          '{"test":"echo ok"}}', **files},
                    target, source)
    assert denied is not None, "the hook allows the start file of the folder it moves to"


# (test_w_an_approved_file_moves_by_a_spelling_the_reading_misses: closed by s53-gfix:
# every program's start names are guarded at any depth where a plan's program reads project
# code, whatever the approved text says; rows removed)


#: ``cmake -B build`` left a configured build folder (its cache names Unix Makefiles), as in
#: s51-greview3 B7; the project's makefile wraps the build.
_CMAKE_CACHE = ("mkdir -p build && printf 'CMAKE_GENERATOR:INTERNAL=Unix Makefiles\\n"
                "CMAKE_MAKE_PROGRAM:FILEPATH=/usr/bin/make\\nCMAKE_PROJECT_NAME:STATIC=p\\n"
                "CMAKE_HOME_DIRECTORY:INTERNAL=%s\\nCMAKE_CACHEFILE_DIR:INTERNAL=%s/build\\n' "
                "\"$PWD\" \"$PWD\" > build/CMakeCache.txt && printf 'all:\\n\\techo ok\\n' "
                "> build/Makefile")


def test_w_a_recipe_runs_cmake_build(tmp_path: Path) -> None:
    """``cmake --build build`` in the approved recipe runs the cache's generator (make) in
    ``build``: make reads ``build/Makefile`` (held for the entry ``cmake --build build``
    itself, s51-greview3 B7). ``--build`` is not among ``_MOVES_IN``'s spellings. Plan
    ``Bash(make test)``, ``Bash(cp *)``: ``cp src/mk build/Makefile`` is allowed, ``make
    test`` runs the payload."""
    needs("bash", "make", "cmake")
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)"],
                         {"Makefile": "test:\n\tcmake --build build\n",
                          "src/mk": "all:\n\ttouch zz\n"},
                         ["cp src/mk build/Makefile", "make test"], setup=_CMAKE_CACHE,
                         in_place=True)
    assert denied is not None, "the hook allows the makefile cmake --build runs"


# (test_w_a_recipe_runs_cmake_build: closed by s53-gfix, as above)


# --- S: a script an approved file runs moves (one level further than the entry) ---------------


#: An approved makefile or package.json that runs a project script (not the entry's own
#: words: ``sh build.sh`` in a recipe, ``sh scripts/test.sh`` in an npm script, a python
#: tool) or the other runner (a recipe's ``npm test``, an npm script's ``make test``), whose
#: own file moves to ``sub`` and runs make there.
SCRIPTS = {
    "make-runs-sh": ("make", "make test", {"Makefile": "test:\n\tsh build.sh\n",
                                           "build.sh": "cd sub && make test\n"}),
    "make-runs-python": ("python3", "make test",
                         {"Makefile": "test:\n\tpython3 tools/run.py\n",
                          "tools/run.py": "import os, subprocess\nos.chdir('sub')\n"
                                          "subprocess.run(['make', 'test'])\n"}),
    "npm-runs-sh": ("npm", "npm test",
                    {"package.json": '{"scripts":{"test":"sh scripts/test.sh"}}',
                     "scripts/test.sh": "cd sub && make test\n"}),
    "make-runs-npm": ("npm", "make test",
                      {"Makefile": "test:\n\tnpm test\n",
                       "package.json": '{"scripts":{"test":"cd sub && make test"}}'}),
    "npm-runs-make": ("npm", "npm test",
                      {"package.json": '{"scripts":{"test":"make test"}}',
                       "Makefile": "test:\n\t$(MAKE) -C sub test\n"}),
}


@pytest.mark.parametrize("case", list(SCRIPTS))
def test_s_a_script_an_approved_file_runs_moves(tmp_path: Path, case: str) -> None:
    """s52-gfix reads the entry's own files for a move (its makefile, package.json, the
    script it names, a makefile's includes); a script *they* run, or the other runner's file
    (package.json under ``make test``, the Makefile under ``npm test``), is read nowhere, so its
    ``cd sub && make test`` / ``os.chdir('sub')`` leaves ``sub/Makefile`` unguarded. (The
    script itself is writable too: the documented residual "a file a build file names";
    this row is the move it hides.) Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk
    sub/Makefile`` is allowed, the entry runs the payload."""
    program, entry, files = SCRIPTS[case]
    needs("bash", "make", program)
    denied = _build(tmp_path, entry, {"sub/Makefile": MAKEFILE, **files}, "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder the script moves to"


# (test_s_a_script_an_approved_file_runs_moves: closed by s53-gfix, as above)


# --- F: a recipe reads another makefile by -f, without moving -------------------------------


def test_f_a_recipe_reads_a_makefile_by_f(tmp_path: Path) -> None:
    """``$(MAKE) -f sub/Makefile test`` in the approved recipe: make stays in the call's
    folder and reads ``sub/Makefile`` (make(1): ``-f`` names the makefile; no ``-C``). The
    recipe names no move, so nothing guards ``sub/Makefile`` (the brief's angle; the class of
    the residual "a file a build file names"). Plan ``Bash(make test)``, ``Bash(cp *)``."""
    needs("bash", "make")
    denied = _build(tmp_path, "make test", {"Makefile": "test:\n\t$(MAKE) -f sub/Makefile test\n",
                                            "sub/Makefile": MAKEFILE}, "sub/Makefile")
    assert denied is not None, "the hook allows the makefile the recipe names"


# (test_f_a_recipe_reads_a_makefile_by_f: closed by s53-gfix, as above)


# --- L: a start file that is a link to a file of another name ---------------------------------


#: ``sub/Makefile`` is a symbolic link to ``../shared/common.mk`` (a shared makefile: a
#: project's own layout); the plan moves the tool (C1) or a recursive make moves (B5).
LINKED = {
    "cd-then-make": (["Bash(cd sub)", "Bash(make test)", "Bash(cp *)"],
                     {"Makefile": MAKEFILE}, ["cp src/mk shared/common.mk", "cd sub",
                                              "make test"]),
    "recursive-make": (["Bash(make test)", "Bash(cp *)"],
                       {"Makefile": "test:\n\t$(MAKE) -C sub test\n"},
                       ["cp src/mk shared/common.mk", "make test"]),
}


@pytest.mark.parametrize("case", list(LINKED))
def test_l_a_start_file_linked_to_a_file_of_another_name(tmp_path: Path, case: str) -> None:
    """The names s52-gfix guards at any depth are matched against the path a call writes;
    ``shared/common.mk`` holds no guarded name, but make in ``sub`` opens ``sub/Makefile``,
    the link to it. Plan as listed: ``cp src/mk shared/common.mk`` is allowed, make in
    ``sub`` runs the payload."""
    needs("bash", "make")
    entries, files, calls = LINKED[case]
    denied = _session(tmp_path, entries, {**files, "shared/common.mk": MAKEFILE,
                                          "src/mk": MAKE_PAYLOAD}, calls,
                      links={"sub/Makefile": "../shared/common.mk"})
    assert denied is not None, "the hook allows the file the makefile links to"


# (test_l_a_start_file_linked_to_a_file_of_another_name: cd-then-make held since s52-gfix's
# run folders; recursive-make since s53-gfix, only as its target ends in `.mk`: the class
# stays open, test_s53_gfix.py::test_a_start_file_linked_to_a_file_of_no_guarded_name)


# --- M: a standard module shadowed in the folder a cd left ------------------------------------


def test_m_a_standard_module_in_the_folder_a_cd_left(tmp_path: Path) -> None:
    """``python3 tool.py`` puts the script's folder first on ``sys.path``; at the call's
    folder ``json.py`` beside it is guarded (s44 P3, ``+`` items), but ``deep_names`` leaves
    those marks out: after ``cd sub`` the project's ``sub/tool.py`` imports
    ``sub/json.py``, written from the project's folder. Plan ``Bash(cd sub)``, ``Bash(python3
    tool.py)``, ``Bash(cp *)``. (s52-gfix names this class in its C1b row's reason; this is
    its case.)"""
    needs("bash", "python3")
    denied = _session(tmp_path, ["Bash(cd sub)", "Bash(python3 tool.py)", "Bash(cp *)"],
                      {"tool.py": "import json\nprint(json.dumps(1))\n",
                       "sub/tool.py": "import json\nprint(json.dumps(1))\n",
                       "src/p.py": "import os\nos.system('touch zz')\n"},
                      ["cp src/p.py sub/json.py", "cd sub", "python3 tool.py"])
    assert denied is not None, "the hook allows the module the script imports"


def test_m_a_standard_module_where_a_recipe_moves(tmp_path: Path) -> None:
    """B5's side of M: the approved recipe ``cd sub && python3 -m pytest -q`` names a move,
    so every program's start names are guarded at any depth, but not the standard modules
    ``python3 -m`` finds first in its folder (``json.py`` is guarded in the call's folder:
    held). Plan ``Bash(make test)``, ``Bash(cp *)``: ``cp payload/p sub/json.py`` is allowed,
    ``make test`` imports it in ``sub``."""
    needs("bash", "make", "python3")
    denied = _build(tmp_path, "make test",
                    {"Makefile": "test:\n\tcd sub && python3 -m pytest -q\n",
                     "sub/test_a.py": "def test_a():\n    pass\n",
                     "payload/p": "import os\nos.system('touch zz')\n"},
                    "sub/json.py", "payload/p")
    assert denied is not None, "the hook allows the module python3 -m imports in sub"


# (held since s54-gfix2: a standard module's file is guarded at any depth)


# (test_m_a_standard_module_in_the_folder_a_cd_left: held since s52-gfix's run folders,
# 2452836: python3 in sub, no run folder, is denied)


# --- G: an approved file that moves, in a folder the plan's cd reaches -----------------------


#: A plan moving the Bash tool (``cd x``, ``cd *``) beside a script entry whose copy in ``x``
#: (the project's own) moves to ``sub`` and runs make; the script in the project's folder
#: moves nowhere.
REACHED = {
    "sh-script": (["Bash(cd x)", "Bash(sh build.sh)", "Bash(cp *)"],
                  {"build.sh": "echo ok\n", "x/build.sh": "cd ../sub && make test\n"},
                  "sh build.sh"),
    "python-script": (["Bash(cd *)", "Bash(python3 tool.py)", "Bash(cp *)"],
                      {"tool.py": "print(1)\n",
                       "x/tool.py": "import os, subprocess\nos.chdir('../sub')\n"
                                    "subprocess.run(['make', 'test'])\n"},
                      "python3 tool.py"),
}


@pytest.mark.parametrize("case", list(REACHED))
def test_g_a_file_that_moves_in_a_folder_a_cd_reaches(tmp_path: Path, case: str) -> None:
    """s52-gfix reads a plan's files for a move in the call's and the project's folders only
    (``deep_names``' roots); the plan's ``cd x`` takes later calls to ``x``, whose
    ``build.sh``/``tool.py`` moves to ``sub`` and runs make. From the project's folder the
    script there names no move, so the deep names are the plan's own (``build.sh``,
    ``tool.py``: no makefile): ``cp src/mk sub/Makefile`` is allowed; then ``cd x`` and the
    entry (cwd ``x``) run ``sub/Makefile``."""
    needs("bash", "make", "python3")
    entries, files, entry = REACHED[case]
    denied = _session(tmp_path, entries, {**files, "sub/Makefile": MAKEFILE,
                                          "src/mk": MAKE_PAYLOAD},
                      ["cp src/mk sub/Makefile", "cd x", entry])
    assert denied is not None, "the hook allows the makefile of the folder the script moves to"


# (test_g_a_file_that_moves_in_a_folder_a_cd_reaches: held since s52-gfix's run folders,
# 2452836: the script in x, no run folder, is denied)


# --- COST: deep names where nothing moves -------------------------------------------------------


#: A careful user's copy over a workspace member's package.json or a docs makefile (allowed
#: before s52-gfix: a member's manifest is the work, P1g), newly denied: a plan entry whose
#: command is a pattern (``./scripts/*`` runs a child: it cannot move the Bash tool's
#: shell), a package.json whose description says ``CI/CD`` (read as ``cd``), a recipe's
#: ``grep -C 2`` (read as ``-C``); an exact ``cd docs``, which reaches ``docs``,
#: ``docs/docs``, … only, guarding ``run.py`` in ``src/app`` (no program of the plan runs
#: there); the last name of ``pytest/__main__.py`` (``python3 -m pytest``'s shadowing
#: module folder) guarding every ``__main__.py``; ``source .venv/bin/activate`` (a
#: virtual environment's script, which sets variables and moves nothing) guarding a
#: workspace member's ``pyproject.toml``.
COSTS = {
    "pattern-command": (["Bash(./scripts/*)", "Bash(npm test)"],
                        {"package.json": '{"name":"r","scripts":{"test":"echo ok"}}',
                         "scripts/check.sh": "echo ok\n"}, "packages/a/package.json"),
    "ci-cd-description": (["Bash(npm test)"],
                          {"package.json": '{"name":"r","description":"CI/CD helpers",'
                                           '"scripts":{"test":"echo ok"}}'},
                          "packages/a/package.json"),
    "grep-C-recipe": (["Bash(make test)"],
                      {"Makefile": "test:\n\tgrep -C 2 TODO README || true\n"},
                      "docs/Makefile"),
    "exact-cd-guards-everywhere": (["Bash(cd docs)", "Bash(python3 tools/run.py)"],
                                   {"tools/run.py": "print(1)\n", "docs/x": ""},
                                   "src/app/run.py"),
    "module-folder-main": (["Bash(cd docs)", "Bash(python3 -m pytest -q)"], {"docs/x": ""},
                           "src/pkg/__main__.py"),
    "source-activate": (["Bash(source .venv/bin/activate)", "Bash(python3 -m pytest -q)"],
                        {".venv/bin/activate": "PATH=$PWD/.venv/bin:$PATH\n"},
                        "packages/a/pyproject.toml"),
}


def _cost_project(tmp_path: Path, entries: list[str], files: dict[str, str],
                  target: str) -> Path:
    """A hooked project with plan ``entries``, ``files``, ``target`` and ``src/new``."""
    project = hooked_project(tmp_path, entries)
    for name, text in {**files, target: "{}\n", "src/new": "{}\n"}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    return project


#: The rows denied by design since s53-gfix (a plan's program reads project code: every
#: program's start names are guarded at any depth; docs/call-gate.md, "Start files in every
#: folder"), and the one allowed again (a package's ``__main__.py``).
DENIED_COSTS = [c for c in COSTS if c != "module-folder-main"]


@pytest.mark.parametrize("case", DENIED_COSTS)
def test_cost_a_copy_of_a_start_file_elsewhere_is_denied_by_design(tmp_path: Path,
                                                                    case: str) -> None:
    """s52-greview K1-K4, K6, pinned as costs: the plan's ``npm test``, ``make test``,
    ``python3 tools/run.py`` or ``python3 -m pytest`` reads project code, which may start any
    program in any folder, so a start file's name (``package.json``, ``Makefile``,
    ``pyproject.toml``) and the plan's own paths' last names (``run.py``) are guarded at any
    depth under ``Bash(cp *)``; the hook names the path it refuses. (The user's way: an
    exact ``Edit``/``Write`` grant of the file: ``test_cost_an_edit_grant_of_the_file_is_
    allowed``.)"""
    entries, files, target = COSTS[case]
    project = _cost_project(tmp_path, [*entries, "Bash(cp *)"], files, target)
    said = run_hook(_settings_hook(project), f"cp src/new {target}", project)
    assert said.returncode == 2
    assert f"the command names {target!r}" in said.stderr.decode()


def test_cost_a_package_main_elsewhere_is_allowed(tmp_path: Path) -> None:
    """s52-greview K5, allowed since s53-gfix: ``python3 -m pytest``'s shadowing module folder
    ``pytest/__main__.py`` guards the name ``pytest`` at any depth, not every package's
    ``__main__.py``; ``cp src/new src/pkg/__main__.py`` is allowed."""
    entries, files, target = COSTS["module-folder-main"]
    project = _cost_project(tmp_path, [*entries, "Bash(cp *)"], files, target)
    assert hook_allows(project, f"cp src/new {target}")
    assert not hook_allows(project, "cp src/new src/pytest/__main__.py")


def test_cost_an_edit_grant_of_the_file_is_allowed(tmp_path: Path) -> None:
    """The costs' way out (held): the plan's own exact ``Edit`` grant of the file covers it
    (``named.planned_only``: the names guarded at any depth are what the plan's programs
    read, s45's rule), and a plan whose programs read no project code (``Bash(cd docs)``
    alone) guards no name below: both copies and edits of each cost row's file allowed."""
    for i, case in enumerate(DENIED_COSTS):
        entries, files, target = COSTS[case]
        project = _cost_project(tmp_path / str(i), [*entries, f"Edit({target})"], files, target)
        call = {"session_id": "s", "hook_event_name": "PreToolUse", "cwd": str(project),
                "tool_name": "Edit", "tool_input": {"file_path": str(project / target),
                                                    "old_string": "{}", "new_string": "{ }"}}
        said = subprocess.run(["/bin/sh", "-c", _settings_hook(project)],
                              input=json.dumps(call).encode(), cwd=project,
                              capture_output=True, timeout=60, check=False)
        assert said.returncode != 2, (case, said.stderr.decode())
        bare = _cost_project(tmp_path / f"{i}-bare", ["Bash(cd docs)", "Bash(cp *)"], files,
                             target)
        assert hook_allows(bare, f"cp src/new {target}"), case


# --- R: a project script runs a program in the call's own folder ------------------------------


#: Entries running a project script that starts make (no move), and the script.
RUNS = {
    "sh": ("sh", "sh build.sh", {"build.sh": "make test\n"}),
    "python3": ("python3", "python3 tool.py",
                {"tool.py": "import subprocess\nsubprocess.run(['make', 'test'])\n"}),
    "node": ("node", "node tool.js",
             {"tool.js": "require('child_process').execSync('make test');\n"}),
    "perl": ("perl", "perl tool.pl", {"tool.pl": "system 'make test';\n"}),
    "sh-sources": ("sh", "sh build.sh", {"build.sh": ". ./lib.mk\n", "lib.mk": "echo\n"}),
}


@pytest.mark.parametrize("case", list(RUNS))
def test_r_a_script_starts_make_in_the_calls_folder(tmp_path: Path, case: str) -> None:
    """B5's base case, without a move: the approved script runs ``make test`` in the call's
    own folder. A runner of project commands (make, npm, …) guards every program's start
    names (H2, H3); an interpreter's or a shell's script is read for a move only
    (``deepnames``), not as running any program, so the project's ``Makefile`` is writable
    under ``Bash(sh build.sh)``. (Before s52-gfix too; s52-gfix guards it only when the
    script also names a move.) Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk
    Makefile`` is allowed, the entry runs the payload. ``sh-sources``: ``build.sh`` sources
    ``./lib.mk`` (what a script sources beside it is guarded for a program run by its path,
    ``./build.sh``, not under ``sh build.sh``): the copy over ``lib.mk`` runs the payload."""
    program, entry, files = RUNS[case]
    needs("bash", "make", program)
    target = "lib.mk" if case == "sh-sources" else "Makefile"
    denied = _build(tmp_path, entry, {"Makefile": MAKEFILE, **files}, target,
                    "src/x" if case == "sh-sources" else "src/mk")
    assert denied is not None, "the hook allows the makefile the script's make reads"


# (test_r_a_script_starts_make_in_the_calls_folder: closed by s53-gfix, every start name at
# any depth; sh-sources only as its file ends in `.mk`: a file a plan's script sources is
# P1g, open on purpose, test_n_…[sourced-lib]; rows removed)


# --- N: a name a project file gives, in the folder a cd left ----------------------------------


#: Plans moving the tool to ``sub``, whose project files there name another file the plan's
#: program loads: pytest's ``addopts = -p helper_plugin`` (imported from the folder first on
#: ``sys.path``, the call's under ``python3 -m``), a shell script's ``. ./lib.sh``.
NAMED = {
    "pytest-plugin": ("python3", ["Bash(cd sub)", "Bash(python3 -m pytest -q)", "Bash(cp *)"],
                      {"pytest.ini": "[pytest]\n", "test_a.py": "def test_a():\n    pass\n",
                       "sub/pytest.ini": "[pytest]\naddopts = -p helper_plugin\n",
                       "sub/helper_plugin.py": "\n",
                       "sub/test_b.py": "def test_b():\n    pass\n",
                       "src/p": "import os\nos.system('touch zz')\n"},
                      ["cp src/p sub/helper_plugin.py", "cd sub", "python3 -m pytest -q"]),
    "sourced-lib": ("sh", ["Bash(cd sub)", "Bash(sh build.sh)", "Bash(cp *)"],
                    {"build.sh": ". ./lib.sh\necho ok\n", "lib.sh": "echo lib\n",
                     "sub/build.sh": ". ./lib.sh\necho ok\n", "sub/lib.sh": "echo lib\n",
                     "src/p": "touch zz\n"},
                    ["cp src/p sub/lib.sh", "cd sub", "sh build.sh"]),
    "recursive-make-include": ("make", ["Bash(make test)", "Bash(cp *)"],
                               {"Makefile": "test:\n\t$(MAKE) -C sub test\n",
                                "sub/Makefile": "include common.mk\n",
                                "sub/common.mk": MAKEFILE, "src/p": MAKE_PAYLOAD},
                               ["cp src/p sub/common.mk", "make test"]),
}


@pytest.mark.parametrize("case", list(NAMED))
def test_n_a_name_a_project_file_gives_in_the_folder_a_cd_left(tmp_path: Path,
                                                                case: str) -> None:
    """The class of s52-gfix's own C1b row (a name a guarded file gives is read at the call's
    and the project's folders only), in two more programs: ``sub/pytest.ini``'s ``-p
    helper_plugin`` (pytest imports ``sub/helper_plugin.py`` when run in ``sub``) and
    ``sub/build.sh``'s ``. ./lib.sh``. The file is written from the project's folder, then
    ``cd sub`` and the entry run it. ``recursive-make-include``: B5's side of it, no ``cd``:
    the approved recipe's ``$(MAKE) -C sub`` reads ``sub/Makefile``, which includes
    ``common.mk`` (the deep names guard ``Makefile``, not what it includes)."""
    program, entries, files, calls = NAMED[case]
    needs("bash", program)
    denied = _session(tmp_path, entries, files, calls)
    assert denied is not None, "the hook allows the file the project's file names"


_open("test_n_a_name_a_project_file_gives_in_the_folder_a_cd_left",
      "P1g, open on purpose: a file the plan's script sources is the project's code "
      "(pytest-plugin held since s52-gfix's run folders; recursive-make-include closed by "
      "s53-gfix: every `*.mk` at any depth)", "sourced-lib")


# --- P: a deep name left out while the session sits in a folder of that name ------------------


#: Plans moving the tool beside a script in a folder (``tools/``, ``scripts/``: guarded whole
#: in the call's folder, and by its name at any depth since s52-gfix); ``sub`` holds the
#: project's copy of the script, which loads a file beside it.
PASSED = {
    "python-tools": (["Bash(cd *)", "Bash(python3 tools/run.py)", "Bash(cp *)"],
                     {"tools/run.py": "import helper\n", "tools/helper.py": "print('ok')\n",
                      "sub/tools/run.py": "import helper\n",
                      "sub/tools/helper.py": "print('ok')\n",
                      "src/p": "import os\nos.system('touch zz')\n"},
                     ["cd tools", "cp ../src/p ../sub/tools/helper.py", "cd ../sub",
                      "python3 tools/run.py"]),
    "shell-scripts": (["Bash(cd *)", "Bash(bash scripts/test.sh)", "Bash(cp *)"],
                      {"scripts/test.sh": '. "$(dirname "$0")/lib.sh"\n',
                       "scripts/lib.sh": "echo ok\n",
                       "sub/scripts/test.sh": '. "$(dirname "$0")/lib.sh"\n',
                       "sub/scripts/lib.sh": "echo ok\n", "src/p": "touch zz\n"},
                      ["cd scripts", "cp ../src/p ../sub/scripts/lib.sh", "cd ../sub",
                       "bash scripts/test.sh"]),
    "project-under-src": (["Bash(cd sub)", "Bash(python3 src/x.py)", "Bash(cp *)"],
                          {"src/x.py": "import helper\n", "src/helper.py": "print('ok')\n",
                           "sub/src/x.py": "import helper\n",
                           "sub/src/helper.py": "print('ok')\n",
                           "payload/p": "import os\nos.system('touch zz')\n"},
                          ["cp payload/p sub/src/helper.py", "cd sub", "python3 src/x.py"]),
}


@pytest.mark.parametrize("case", list(PASSED))
def test_p_a_deep_name_dropped_while_the_session_is_in_a_folder_of_that_name(
        tmp_path: Path, case: str) -> None:
    """``deep_names`` leaves out a name that is a part of the call's (or the project's) path
    ("every path written there would hold it"); the runtime's Bash tool sits wherever the
    plan's ``cd`` left it, so after ``cd tools`` the name ``tools`` is no deep name; the
    copy ``cp ../src/p ../sub/tools/helper.py`` is denied all the same (held, with the
    runtime's ``CLAUDE_PROJECT_DIR``: the call's folder is in the guarded ``tools/``).
    ``project-under-src``: the project's own path passes ``src`` (``~/src/app``, a common
    layout; here ``…/src/project``), so ``src`` of ``Bash(python3 src/x.py)`` is guarded
    nowhere below in every call: ``cp payload/p sub/src/helper.py`` from the project's folder
    (denied for a project elsewhere)."""
    needs("bash", "python3")
    entries, files, calls = PASSED[case]
    denied = _session(tmp_path, entries, files, calls,
                      base="src" if case == "project-under-src" else "")
    assert denied is not None, "the hook allows the file beside the script in sub"


# (test_p_a_deep_name_dropped_while_the_session_is_in_a_folder_of_that_name: held since
# s52-gfix's run folders, 2452836: no any-depth names with a project folder)


def test_p_mirror_the_same_copy_from_the_projects_folder_is_denied(tmp_path: Path) -> None:
    """The mirror (held): the same copy made from the project's folder, then ``cd sub`` and
    the entry: a call of the sequence is denied (since s52-gfix's run folders the entry in
    ``sub``, no run folder, rather than the copy)."""
    entries, files, _ = PASSED["python-tools"]
    denied = _session(tmp_path, entries, files,
                      ["cp src/p sub/tools/helper.py", "cd sub", "python3 tools/run.py"])
    assert denied is not None


# --- B: the entry's own script fed on standard input --------------------------------------------


#: Entries running ``build.sh`` as a shell's standard input (the gate guards it as the
#: shell's script, review S3), whose text moves to ``sub`` and runs make.
STDIN = {"sh-stdin": "sh < build.sh", "bash-s-stdin": "bash -s < build.sh"}


@pytest.mark.parametrize("case", list(STDIN))
def test_b_a_script_fed_on_stdin_is_not_read_for_a_move(tmp_path: Path, case: str) -> None:
    """s52-gfix marks an interpreter's or a shell's script for the move reading
    (``planprograms._read_files``: its words); ``sh < build.sh`` names it by a redirection,
    which the reading does not take, so ``cd sub && make test`` there guards nothing below.
    (``sh build.sh`` is held.) Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk
    sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "make")
    denied = _build(tmp_path, STDIN[case], {"build.sh": "cd sub && make test\n",
                                            "Makefile": MAKEFILE, "sub/Makefile": MAKEFILE},
                    "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder the script moves to"


# (test_b_a_script_fed_on_stdin_is_not_read_for_a_move: closed by s53-gfix, as above)


def test_b_a_script_named_under_the_project_placeholder_is_held(tmp_path: Path) -> None:
    """``${CLAUDE_PROJECT_DIR}/scripts/build.sh``, the usual way a plan names a project script,
    is not marked for the move reading (``plan_programs`` gives no ``@`` item), yet the copy
    below is denied (held: pinned here, as the stdin rows are not). Plan
    ``Bash(${CLAUDE_PROJECT_DIR}/scripts/build.sh)``, ``Bash(cp *)``, the session's
    ``CLAUDE_PROJECT_DIR`` the project: real bash runs the payload after ``cp src/mk
    sub/Makefile``; the hook denies a call."""
    needs("bash", "make")
    entry = "${CLAUDE_PROJECT_DIR}/scripts/build.sh"
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                         {"scripts/build.sh": "#!/bin/sh\ncd sub && make test\n",
                          "Makefile": MAKEFILE, "sub/Makefile": MAKEFILE,
                          "src/mk": MAKE_PAYLOAD},
                         ["cp src/mk sub/Makefile", entry], {"CLAUDE_PROJECT_DIR": "{P}"},
                         executable=("scripts/build.sh",))
    assert denied is not None, "the hook allows the makefile of the folder the script moves to"



# --- T: a test file the runner collects starts a program in another folder ----------------------


#: A test runner entry and a project test (guarded: test files at any depth) that runs make in
#: a fixture project (``cwd=``: a move ``_MOVES_IN`` names, in a file it does not read).
TESTS = {
    "pytest": ("python3", "python3 -m pytest -q",
               {"tests/test_build.py": "import subprocess\n\n\ndef test_build():\n"
                                       "    subprocess.run(['make', 'test'], "
                                       "cwd='fixtures/proj', check=True)\n"}),
    "node-test": ("node", "node --test",
                  {"test/build.test.js": "const {test} = require('node:test');\n"
                                         "test('b', () => { require('child_process')"
                                         ".execSync('make test', {cwd: 'fixtures/proj'}); });\n"}),
}


@pytest.mark.parametrize("case", list(TESTS))
def test_t_a_test_file_starts_make_in_a_fixture_folder(tmp_path: Path, case: str) -> None:
    """An integration test running a build in a fixture project (``cwd='fixtures/proj'``) is
    the project's approved code the runner runs; s52-gfix reads the entry's script or
    module for a move, not the tests the runner collects, so ``fixtures/proj/Makefile`` is
    guarded nowhere. Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp payload/mk
    fixtures/proj/Makefile`` is allowed, the test run runs the payload."""
    program, entry, files = TESTS[case]
    needs("bash", "make", program)
    denied = _build(tmp_path, entry, {**files, "fixtures/proj/Makefile": MAKEFILE,
                                      "payload/mk": MAKE_PAYLOAD},
                    "fixtures/proj/Makefile", "payload/mk")
    assert denied is not None, "the hook allows the makefile the test's make reads"


# (test_t_a_test_file_starts_make_in_a_fixture_folder: closed by s53-gfix, as above)


# --- U: a recipe unpacks the folder it moves to -------------------------------------------------


def test_u_a_recipe_unpacks_the_folder_it_moves_to(tmp_path: Path) -> None:
    """The recipe ``tar -xf vendor/dep.tar -C build && $(MAKE) -C build test`` names a move,
    so s52-gfix guards every start name at any depth, by the name of the path a call
    writes; the makefile make reads in ``build`` comes out of ``vendor/dep.tar``, whose name
    is no start name: ``cp payload/dep.tar vendor/dep.tar`` is allowed (a data file), then
    ``make test`` unpacks and runs the payload. Plan ``Bash(make test)``, ``Bash(cp *)``."""
    needs("bash", "make", "tar")
    denied = proved_case(
        tmp_path, ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": "test:\n\tmkdir -p build && tar -xf vendor/dep.tar -C build "
                     "&& $(MAKE) -C build test\n",
         "x/Makefile": MAKEFILE, "y/Makefile": MAKE_PAYLOAD},
        ["cp payload/dep.tar vendor/dep.tar", "make test"],
        setup="mkdir -p vendor payload && tar -cf vendor/dep.tar -C x Makefile && "
              "tar -cf payload/dep.tar -C y Makefile && rm -r x y")
    assert denied is not None, "the hook allows the archive the recipe unpacks and runs"




def test_w_a_recipe_runs_make_in_each_submodule(tmp_path: Path) -> None:
    """``git submodule foreach make test`` (git-submodule(1): "Evaluates an arbitrary shell
    command in each checked out submodule", run in the submodule's folder) in the approved
    recipe: a move ``_MOVES_IN`` does not name. Plan ``Bash(make test)``, ``Bash(cp *)``, the
    project holding the submodule ``sub``: ``cp payload/mk sub/Makefile`` is allowed,
    ``make test`` runs the payload in ``sub``."""
    needs("bash", "make", "git")
    git = "git -c user.email=a@b -c user.name=a"
    denied = proved_case(
        tmp_path, ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": "test:\n\tgit submodule foreach -q make test\n",
         "payload/mk": MAKE_PAYLOAD},
        ["cp payload/mk sub/Makefile", "make test"],
        setup=f"git init -q $T/subrepo && printf 'test:\\n\\techo ok\\n' > $T/subrepo/Makefile "
              f"&& git -C $T/subrepo add Makefile && {git} -C $T/subrepo commit -qm m && "
              f"git -c protocol.file.allow=always submodule add -q $T/subrepo sub && "
              f"{git} commit -qm sub")
    assert denied is not None, "the hook allows the submodule's makefile"


# (test_w_a_recipe_runs_make_in_each_submodule: closed by s53-gfix, as above)


def test_b_a_script_with_a_nul_byte_is_taken_for_a_compiled_program(tmp_path: Path) -> None:
    """``deepnames._moves_in`` takes a file with a NUL in its first 4 KiB for a compiled
    program and reads no move in it; ``sh`` (dash) runs a script holding a NUL in a comment
    line as text (bash too, past its first line), so its ``cd sub && make test`` is unread.
    Plan ``Bash(sh build.sh)``, ``Bash(cp *)``: ``cp payload/mk sub/Makefile`` is allowed,
    the entry runs the payload."""
    needs("bash", "make", "sh")
    denied = _build(tmp_path, "sh build.sh",
                    {"build.sh": "echo start\n# \x00\ncd sub && make test\n",
                     "sub/Makefile": MAKEFILE, "payload/mk": MAKE_PAYLOAD},
                    "sub/Makefile", "payload/mk")
    assert denied is not None, "the hook allows the makefile of the folder the script moves to"


# (test_b_a_script_with_a_nul_byte_is_taken_for_a_compiled_program: closed by s53-gfix,
# as above: no file is read for a move)
