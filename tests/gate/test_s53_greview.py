"""Review s53 (s53-greview) of s53-gfix (``gate/deepnames.py``: the start names of every program
and the plan's named paths guarded at any depth wherever the plan holds a program that reads
project code). Each case proves with real bash and the real programs (GNU make, cmake,
python3/pytest, prove, node, npm) in a scratch project that the calls run the payload (``touch
zz``), then asks the printed hook for each call in turn, running the allowed ones, as Claude
Code 2.1.332's Bash tool runs them (the folder a call leaves kept for the next, read by ``pwd
-P``; ``CLAUDE_PROJECT_DIR`` the project): the hook allowing them all is the finding. These
tests fail while the hole is open (``OPEN`` marks them strict xfails); a case the change holds
is a plain test pinning it.

Every payload only touches a file (``touch zz``, ``open('zz', 'w')``); a payload read through
``BASH_ENV`` unsets it first."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, home_env, hooked_project, needs
from test_gate_files import _settings_hook, payload

from skillgrant.gate.config import snippet

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

MAKE_PAYLOAD = "test:\n\ttouch zz\n"
#: A makefile fragment running the payload when make reads it.
MAKE_INCLUDED = "$(shell touch zz)\n"
PY_PAYLOAD = "open('zz', 'w').close()\n"
PERL_PAYLOAD = ("package Test::More; system('touch zz'); sub ok {} sub done_testing {} "
                "sub import {} 1;\n")


def _session(tmp_path: Path, entries: list[str], files: dict[str, str], calls: list[str],
             links: dict[str, str] | None = None, base: str = "", setup: str = "",
             project_folder: bool = True) -> str | None:
    """Runs ``calls`` as the runtime's Bash tool does (each in the folder the last one left,
    read by ``pwd -P`` after it succeeded; ``CLAUDE_PROJECT_DIR`` the project, as the runtime
    sets it for its hooks, unless not ``project_folder``) under real bash in a hooked project
    (in the folder ``base`` of the scratch folder when given) with plan ``entries``, ``files``,
    the symbolic ``links`` (name: target) and what the bash text ``setup`` made there,
    asserting the payload ran; then in a second such project asks the printed hook for each
    call, from that folder, running the allowed ones: the first call denied, or None (the
    hole). ``{P}`` in a call stands for the project's folder."""
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side / base, entries)
        for name, text in files.items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(text)
        for name, to in (links or {}).items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(to, project / name)
        env = home_env(tmp_path / side / "home")
        if project_folder:
            env["CLAUDE_PROJECT_DIR"] = str(project)
        if setup:
            subprocess.run(["bash", "-c", setup], cwd=project, env=env, check=True,
                           capture_output=True, timeout=60)
        hook = _settings_hook(project)
        real = folder = project.resolve()
        denied, kept = None, tmp_path / side / "cwd"
        for call in (c.replace("{P}", str(project)) for c in calls):
            if side == "run" and subprocess.run(
                    ["/bin/sh", "-c", hook], input=payload(call, folder), cwd=folder, env=env,
                    capture_output=True, timeout=60, check=False).returncode == 2:
                denied = call
                break
            kept.unlink(missing_ok=True)
            subprocess.run(["timeout", "60", "bash", "-c", 'eval "$1" && pwd -P >| "$2"', "_",
                            call, str(kept)], cwd=folder, env=env, capture_output=True,
                           timeout=90, check=False)
            if kept.exists():
                moved = Path(kept.read_text().strip())
                folder = moved if moved.is_relative_to(real) else real
        if side == "proof":
            assert any(project.rglob("zz")), "bash ran no payload"
        else:
            found.append(denied)
    return found[0]


# --- M: what make reads that no table and no reading of a makefile holds --------------------------

#: Files GNU make 4.3 reads as code, or runs a recipe of, that the gate's reading of the plan's
#: makefiles (``buildnames``: ``include`` lines and the built-in remaking rules) and the
#: start names (``ALL_STARTS``) leave writable under ``Bash(make test)``, ``Bash(cp *)``:
#: an included makefile remade by the makefile's own rule from a source (GNU make's "How
#: Makefiles Are Remade": it runs the rule, restarts, reads the new file); an ``include`` make
#: evaluates (``$(eval -include …)``); the file bash reads first for every recipe line where
#: the makefile exports ``BASH_ENV`` with ``SHELL := /bin/bash`` (a known idiom for shared
#: recipe functions); a makefile a recipe names by ``-f`` under another name; and (review
#: s52-greview N2) a makefile that a recursive make's own makefile includes in its folder. (A
#: script a recipe runs or sources, ``sh scripts/gen.sh``, ``. ./env.sh``, is P1g: the
#: project's code a runner runs, open on purpose; not rows here.)
MAKE_READS = {
    "explicit-remake": ({"Makefile": "-include config.mk\nconfig.mk: config.in\n"
                                     "\tcp config.in config.mk\ntest:\n\t@echo ok\n",
                         "src/p": MAKE_INCLUDED},
                        ["cp src/p config.in", "make test"]),
    "eval-include": ({"Makefile": "$(eval -include local.mk)\ntest:\n\t@echo ok\n",
                      "src/p": MAKE_INCLUDED},
                     ["cp src/p local.mk", "make test"]),
    "exported-bash-env": ({"Makefile": "SHELL := /bin/bash\nexport BASH_ENV := scripts/env.sh\n"
                                       "test:\n\t@echo ok\n",
                           "scripts/.keep": "", "src/p": "unset BASH_ENV; touch zz\n"},
                          ["cp src/p scripts/env.sh", "make test"]),
    "recipe-f-other-name": ({"Makefile": "test:\n\t$(MAKE) -C sub -f rules.mk test\n",
                             "sub/.keep": "", "src/p": MAKE_PAYLOAD},
                            ["cp src/p sub/rules.mk", "make test"]),
    "recipe-makefiles-variable": ({"Makefile": "test:\n\tMAKEFILES=common.mk $(MAKE) -C sub test\n",
                                   "sub/Makefile": "test:\n\t@echo ok\n",
                                   "src/p": MAKE_INCLUDED},
                                  ["cp src/p sub/common.mk", "make test"]),
    # (a39559d guards every *.mk: names of other endings, the usual ones)
    "recursive-include-dep-files": ({"Makefile": "test:\n\t$(MAKE) -C sub test\n",
                                     "sub/Makefile": "-include $(wildcard *.d)\n"
                                                     "test:\n\t@echo ok\n",
                                     "src/p": MAKE_INCLUDED},
                                    ["cp src/p sub/main.d", "make test"]),
    "recursive-include-makefile-local": ({"Makefile": "test:\n\t$(MAKE) -C sub test\n",
                                          "sub/Makefile": "-include Makefile.local\n"
                                                          "test:\n\t@echo ok\n",
                                          "src/p": MAKE_INCLUDED},
                                         ["cp src/p sub/Makefile.local", "make test"]),
    "recursive-include-dot-config": ({"Makefile": "test:\n\t$(MAKE) -C sub test\n",
                                      "sub/Makefile": "-include .config\ntest:\n\t@echo ok\n",
                                      "src/p": MAKE_INCLUDED},
                                     ["cp src/p sub/.config", "make test"]),
    "eval-include-other-ending": ({"Makefile": "$(eval -include config.local)\n"
                                               "test:\n\t@echo ok\n", "src/p": MAKE_INCLUDED},
                                  ["cp src/p config.local", "make test"]),
    "recipe-f-other-ending": ({"Makefile": "test:\n\t$(MAKE) -C sub -f build.make test\n",
                               "sub/.keep": "", "src/p": MAKE_PAYLOAD},
                              ["cp src/p sub/build.make", "make test"]),
    "load-directive": ({"Makefile": "-load plug.so\ntest:\n\t@echo ok\n", "src/p": ""},
                       ["cp src/plug.so plug.so", "make test"]),
    "recursive-include": ({"Makefile": "test:\n\t$(MAKE) -C sub test\n",
                           "sub/Makefile": "-include local.mk\ntest:\n\t@echo ok\n",
                           "src/p": MAKE_INCLUDED},
                          ["cp src/p sub/local.mk", "make test"]),
}


@pytest.mark.parametrize("case", MAKE_READS)
def test_m_make_reads_a_file_no_name_guards(case: str, tmp_path: Path) -> None:
    """GNU make runs the payload from a file the plan's makefile (or one it starts) reads
    under a name the gate does not guard; the hook must deny a call of the sequence."""
    needs("make")
    files, calls = MAKE_READS[case]
    setup = ""
    if case == "load-directive":
        needs("gcc")
        files = {**files, "src/plug.c": PLUGIN_C}
        setup = "gcc -shared -fPIC -o src/plug.so src/plug.c"
    assert _session(tmp_path, ["Bash(make test)", "Bash(cp *)"], files, calls,
                    setup=setup) is not None


#: A shared object whose constructor runs the payload when make loads it.
PLUGIN_C = ("#include <stdlib.h>\n"
            "__attribute__((constructor)) static void f(void) { system(\"touch zz\"); }\n"
            "int plug_gmk_setup(void) { return 1; }\n")


#: cmake's own instruction files beyond ``CMakeLists.txt``: a file its ``include(…
#: OPTIONAL)`` names (local overrides, absent), under the plan's own ``cmake -S . -B build``
#: and a recipe's; a find module ``find_package(Foo QUIET)`` looks for in the project's
#: ``CMAKE_MODULE_PATH`` (``cmake/FindFoo.cmake``, absent: Foo is optional).
CMAKE_LISTS = "cmake_minimum_required(VERSION 3.10)\nproject(p NONE)\n"
CMAKE_RECIPE = "test:\n\tcmake -S . -B build >/dev/null\n"
CMAKE_READS = {
    "include-optional-recipe": ("make test", {"Makefile": CMAKE_RECIPE,
                                              "CMakeLists.txt": CMAKE_LISTS +
                                              "include(cmake/local.cmake OPTIONAL)\n"},
                                "cmake/local.cmake"),
    "include-optional-plan": ("cmake -S . -B build",
                              {"CMakeLists.txt": CMAKE_LISTS +
                               "include(cmake/local.cmake OPTIONAL)\n"}, "cmake/local.cmake"),
    "find-module": ("make test", {"Makefile": CMAKE_RECIPE,
                                  "CMakeLists.txt": CMAKE_LISTS + "list(APPEND CMAKE_MODULE_PATH "
                                  "${CMAKE_SOURCE_DIR}/cmake)\nfind_package(Foo QUIET)\n"},
                    "cmake/FindFoo.cmake"),
    "include-other-ending": ("cmake -S . -B build",
                             {"CMakeLists.txt": CMAKE_LISTS +
                              "include(CMakeLocal.txt OPTIONAL)\n"}, "CMakeLocal.txt"),
}
@pytest.mark.parametrize("case", CMAKE_READS)
def test_m_cmake_reads_a_file_its_lists_name(case: str, tmp_path: Path) -> None:
    """``cp src/p <file>``, then the entry: cmake reads the copied file and runs its
    ``execute_process``."""
    needs("make", "cmake")
    entry, files, target = CMAKE_READS[case]
    files = {**files, "cmake/.keep": "", "src/p": "execute_process(COMMAND touch zz)\n"}
    assert _session(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                    [f"cp src/p {target}", entry]) is not None


# --- P: a module shadowed in a folder python puts first on sys.path -------------------------------

#: A standard module (``colorsys``, which pytest itself does not import) or the runner's own
#: module in a folder python or pytest puts first on ``sys.path`` that is not the call's
#: folder: pytest's default ``prepend`` import mode inserts each collected test file's folder
#: (``tests/`` without an ``__init__.py``, the usual layout) at ``sys.path[0]``, so
#: ``tests/colorsys.py`` is what ``import colorsys`` in a test loads (under the plan's own
#: ``python3 -m pytest`` and ``pytest``); a recipe's ``cd sub && python3 -m pytest`` runs
#: ``sub/pytest.py`` (review s52-greview M2, with the runner's name).
SHADOWED = {
    "pytest-test-folder": (["Bash(python3 -m pytest -q)"],
                           {"tests/test_a.py": "import colorsys\n\ndef test_a():\n    pass\n"},
                           ["cp src/p tests/colorsys.py", "python3 -m pytest -q"]),
    "pytest-script-test-folder": (["Bash(pytest -q)"],
                                  {"tests/test_a.py": "import colorsys\n\n"
                                                      "def test_a():\n    pass\n"},
                                  ["cp src/p tests/colorsys.py", "pytest -q"]),
    "recipe-module-runner": (["Bash(make test)"],
                             {"Makefile": "test:\n\tcd sub && python3 -m pytest -q\n",
                              "sub/test_a.py": "def test_a():\n    pass\n"},
                             ["cp src/p sub/pytest.py", "make test"]),
}
# (P1, P2: held since s54-gfix2, testlinks.read_at_any_depth: a standard module's file at any depth)


@pytest.mark.parametrize("case", SHADOWED)
def test_p_a_module_shadowed_where_python_looks_first(case: str, tmp_path: Path) -> None:
    """Python imports the copied module before the standard library's (or the runner's)."""
    needs("python3", "make")
    entries, files, calls = SHADOWED[case]
    if "pytest" in entries[0]:
        needs("pytest")
    assert _session(tmp_path, [*entries, "Bash(cp *)"], {**files, "src/p": PY_PAYLOAD},
                    calls) is not None


# --- L: a start file that is a link to a file of another name -------------------------------------

#: A start file that is a link (git keeps links: a monorepo sharing one file) to a file of
#: another name: the write lands on the target, whose name is guarded only by chance (a39559d
#: guards every ``*.mk``: ``sub/Makefile -> ../shared/common.mk`` is held). Each case: the
#: plan's entry, the project's files, the link (name, target), the target written.
LINKED = {
    "makefile-to-common-mk": ("make test", {"Makefile": "test:\n\t-$(MAKE) -C sub test\n",
                                            "shared/common.mk": "test:\n\t@echo ok\n"},
                              ("sub/Makefile", "../shared/common.mk"), "shared/common.mk",
                              MAKE_PAYLOAD),
    "makefile-to-missing-mk": ("make test", {"Makefile": "test:\n\t-$(MAKE) -C sub test\n",
                                             "shared/.keep": ""},
                               ("sub/Makefile", "../shared/local.mk"), "shared/local.mk",
                               MAKE_PAYLOAD),
    "makefile-to-rules": ("make test", {"Makefile": "test:\n\t-$(MAKE) -C sub test\n",
                                        "shared/rules": "test:\n\t@echo ok\n"},
                          ("sub/Makefile", "../shared/rules"), "shared/rules", MAKE_PAYLOAD),
    "package-json-to-base": ("npm test",
                             {"package.json": '{"name":"r","scripts":{"test":"npm --prefix sub '
                                              'test"}}',
                              "shared/base.json": '{"name":"s","scripts":{"test":"echo ok"}}'},
                             ("sub/package.json", "../shared/base.json"), "shared/base.json",
                             '{"name":"s","scripts":{"test":"touch zz"}}'),
    "conftest-to-fixtures": ("python3 -m pytest -q",
                             {"tests/test_a.py": "def test_a():\n    pass\n",
                              "shared/fixtures.py": "\n"},
                             ("tests/conftest.py", "../shared/fixtures.py"),
                             "shared/fixtures.py", PY_PAYLOAD),
}
# (L2's rows makefile-to-rules, package-json-to-base: held since s54-gfix2, testlinks.through_links)


@pytest.mark.parametrize("case", LINKED)
def test_l_a_start_file_linked_to_a_file_of_another_name(case: str, tmp_path: Path) -> None:
    """``cp src/p <the link's target>``, then the entry: the program opens the start file
    through the link and runs the payload (``conftest-to-fixtures``: the plan's own pytest,
    no recipe)."""
    entry, files, (link, to), target, text = LINKED[case]
    needs(entry.split()[0])
    assert _session(tmp_path, [f"Bash({entry})", "Bash(cp *)"], {**files, "src/p": text},
                    [f"cp src/p {target}", entry], links={link: to}) is not None


# --- N: a project under a folder whose name is a start name ---------------------------------------

#: A perl test run in ``sub`` by a recipe (``prove -l`` loads ``lib/Test/More.pm`` before
#: perl's own), the payload copied there.
UNDER_LIB = {"Makefile": "test:\n\tcd sub && prove -l t\n",
             "sub/t/a.t": "use Test::More;\nok(1);\ndone_testing;\n",
             "sub/lib/Test/.keep": "", "src/p": PERL_PAYLOAD}


def test_n_a_project_under_a_folder_named_lib(tmp_path: Path) -> None:
    """The project at ``…/lib/project`` (a CI agent's ``/var/lib/jenkins/workspace/…``): deep
    names leave out every name of a folder on the way to the project, so ``lib`` (prove's
    ``-l`` folder, a start name) is guarded at no depth: ``cp src/p sub/lib/Test/More.pm``
    then ``make test`` runs the payload. The same calls in a project elsewhere are denied
    (``test_n_mirror_…``). (A run folder named ``lib``, ``make -C lib test``, is no way in:
    the plan's own entry is denied, its word ``lib`` naming prove's folder: a COST.)"""
    needs("make", "prove")
    assert _session(tmp_path, ["Bash(make test)", "Bash(cp *)"], UNDER_LIB,
                    ["cp src/p sub/lib/Test/More.pm", "make test"], base="lib") is not None




def test_n_mirror_a_project_elsewhere_is_denied(tmp_path: Path) -> None:
    """The same sequence in a project under no folder named ``lib``: the copy is denied."""
    needs("make", "prove")
    assert _session(tmp_path, ["Bash(make test)", "Bash(cp *)"], UNDER_LIB,
                    ["cp src/p sub/lib/Test/More.pm", "make test"]) == \
        "cp src/p sub/lib/Test/More.pm"


# --- F: the fallback without a project folder ----------------------------------------------------

#: Without ``CLAUDE_PROJECT_DIR`` (the gate's fallback: no run folders), the session ``cd``s
#: into the project's ``lib/`` or ``t/`` and copies from there: the call's folder is a root,
#: and deep names leave out every name on its path, so ``lib`` (prove's ``-l`` folder) or
#: ``t`` (prove's test folder) is guarded nowhere for that call; back in the project's
#: folder, ``make test`` runs ``prove`` in ``sub``. With the project folder the copy is
#: denied (``test_f_mirror_…``).
FALLBACK = {
    "from-lib": ({"Makefile": "test:\n\tcd sub && prove -l t\n", "lib/.keep": "",
                  "sub/t/a.t": "use Test::More;\nok(1);\ndone_testing;\n",
                  "sub/lib/Test/.keep": "", "src/p": PERL_PAYLOAD},
                 ["cd lib", "cp ../src/p ../sub/lib/Test/More.pm", "cd ..", "make test"]),
    "from-t": ({"Makefile": "test:\n\t$(MAKE) -C sub test\n", "t/.keep": "",
                "sub/Makefile": "test:\n\tprove\n", "sub/t/.keep": "",
                "src/p": "system('touch zz');\nprint \"1..1\\nok 1\\n\";\n"},
               ["cd t", "cp ../src/p ../sub/t/a.t", "cd ..", "make test"]),
}


@pytest.mark.parametrize("case", FALLBACK)
def test_f_without_a_project_folder_a_copy_from_a_folder_named_like_a_start_folder(
        case: str, tmp_path: Path) -> None:
    """Plan ``Bash(cd *)``, ``Bash(make test)``, ``Bash(cp *)``, no project folder."""
    needs("make", "prove")
    files, calls = FALLBACK[case]
    assert _session(tmp_path, ["Bash(cd *)", "Bash(make test)", "Bash(cp *)"], files, calls,
                    project_folder=False) is not None


def test_f_mirror_with_the_project_folder_the_copy_is_denied(tmp_path: Path) -> None:
    """The same ``from-t`` calls with ``CLAUDE_PROJECT_DIR`` set: the copy is denied."""
    needs("make", "prove")
    files, calls = FALLBACK["from-t"]
    assert _session(tmp_path, ["Bash(cd *)", "Bash(make test)", "Bash(cp *)"], files,
                    calls) == calls[1]


# --- G: a folder git brings from a revision -------------------------------------------------------

#: Commits a branch ``evil`` whose ``sub/Makefile`` runs the payload (a branch the repository
#: holds: a contributor's, a fetched pull request), and goes back to the first branch.
EVIL_BRANCH = ("git -c user.email=a@b -c user.name=a checkout -qb evil && mkdir -p sub && "
               "printf 'test:\\n\\ttouch zz\\n' > sub/Makefile && git add sub/Makefile && "
               "git -c user.email=a@b -c user.name=a commit -qm e && git checkout -q - && "
               "rm -f sub/Makefile")
#: git writes a folder's files from a revision (``git checkout REV -- sub``, ``git restore
#: --source=REV sub``): the folder's name is no start name, and the revision's tree is not
#: read for one (``cp -r pay sub`` IS walked, and ``git checkout evil -- sub/Makefile``,
#: ``git checkout evil``, ``-- .``, ``git merge``, ``git switch`` are denied).
FROM_REVISION = {
    "checkout-folder": "git checkout evil -- sub",
    "checkout-folder-slash": "git checkout evil -- sub/",
    "restore-folder": "git restore --source=evil sub",
}


@pytest.mark.parametrize("case", FROM_REVISION)
def test_g_a_folder_git_brings_from_a_revision(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)`` (recursive into ``sub``), ``Bash(git checkout *)``, ``Bash(git
    restore *)``: the call brings ``sub/Makefile`` from ``evil``, ``make test`` runs it."""
    needs("make", "git")
    files = {"Makefile": "test:\n\t-$(MAKE) -C sub test\n", "sub/.keep": ""}
    assert _session(tmp_path, ["Bash(make test)", "Bash(git checkout *)",
                               "Bash(git restore *)"], files,
                    [FROM_REVISION[case], "make test"], setup=EVIL_BRANCH) is not None


def test_g_mirror_the_start_file_by_its_name_is_denied(tmp_path: Path) -> None:
    """The same file named by its path (``-- sub/Makefile``): denied."""
    needs("make", "git")
    files = {"Makefile": "test:\n\t-$(MAKE) -C sub test\n", "sub/.keep": ""}
    call = "git checkout evil -- sub/Makefile"
    assert _session(tmp_path, ["Bash(make test)", "Bash(git checkout *)"], files,
                    [call, "make test"], setup=EVIL_BRANCH) == call


#: A folder made a git directory without a ``.git`` name (git's discovery takes a folder
#: holding ``HEAD``, ``objects/``, ``refs/`` as one, ``safe.bareRepository`` defaulting to
#: ``all``): its ``config`` sets ``core.worktree = ..`` and ``core.fsmonitor``, which
#: ``git status`` runs. ``cp -r out …`` makes the two folders (any folder will do). The
#: printed hook denies the plan's own ``git status`` / ``git -C sub status`` there (gitreach
#: reads the layout); a recipe's is not read.
GITDIR_CALLS = ["cp -r out sub/objects", "cp -r out sub/refs", "cp src/head sub/HEAD",
                "cp src/cfg sub/config"]
GITDIR_FILES = {"sub/.keep": "", "src/head": "ref: refs/heads/main\n",
                "src/cfg": "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
                           "\tworktree = ..\n\tfsmonitor = touch zz; false\n"}


def test_g_a_recipe_runs_git_in_a_folder_made_a_git_directory(tmp_path: Path) -> None:
    """Plan ``Bash(make test)`` (recipe ``cd sub && git status --porcelain``), ``Bash(cp *)``:
    the copies, then ``make test``: git runs the fsmonitor command."""
    needs("make", "git")
    files = {"Makefile": "test:\n\tcd sub && git status --porcelain\n", **GITDIR_FILES}
    assert _session(tmp_path, ["Bash(make test)", "Bash(cp *)"], files,
                    [*GITDIR_CALLS, "make test"]) is not None


# (G2: held since s54-gfix2, gitdirs.makes_git_dir)


def test_g_mirror_the_plans_own_git_there_is_denied(tmp_path: Path) -> None:
    """Plan ``Bash(git -C sub status)``, ``Bash(cp *)``: the copy of ``HEAD`` that makes
    ``sub`` a git directory is denied (s54-gfix2: gitdirs; before it, the copies passed and
    gitreach denied the entry, finding the repository at ``sub``)."""
    needs("git")
    assert _session(tmp_path, ["Bash(git -C sub status)", "Bash(cp *)"], GITDIR_FILES,
                    [*GITDIR_CALLS, "git -C sub status"]) == "cp src/head sub/HEAD"


def test_i_a_plugin_a_start_file_names_where_a_recipe_runs(tmp_path: Path) -> None:
    """Plan ``Bash(make test)`` (recipe ``cd sub && python3 -m pytest -q``), ``Bash(cp *)``;
    ``sub/pytest.ini`` (guarded by its name) has ``addopts = -p helper_plugin``: ``cp src/p
    sub/helper_plugin.py``, ``make test``: pytest imports the plugin. The plan's own pytest
    with the same ini at the project's folder is held (the ini's ``-p`` is read there)."""
    needs("make", "python3", "pytest")
    files = {"Makefile": "test:\n\tcd sub && python3 -m pytest -q\n",
             "sub/pytest.ini": "[pytest]\naddopts = -p helper_plugin\n",
             "sub/test_a.py": "def test_a():\n    pass\n", "src/p": PY_PAYLOAD}
    assert _session(tmp_path, ["Bash(make test)", "Bash(cp *)"], files,
                    ["cp src/p sub/helper_plugin.py", "make test"]) is not None


# --- R: a script of the skill's own folder starts a program in the call's folder -----------------

def _skill_session(tmp_path: Path, entry: str, script: str, files: dict[str, str],
                   calls: list[str], where: str) -> str | None:
    """As ``_session``, for a plan ``Bash(<entry>)``, ``Bash(cp *)`` of a skill whose folder
    (``where``: the project's ``.claude/skills/s`` or the home's ``~/.claude/skills/s``) holds
    ``scripts/run.sh`` (``script``), the hook printed with ``--skill-dir`` (as ``apply
    --enforce`` writes it); ``{S}`` in a call stands for the skill's folder. Every call runs
    from the project's folder."""
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, [f"Bash({entry})", "Bash(cp *)"])
        home = tmp_path / side / "home"
        env = {**home_env(home), "CLAUDE_PROJECT_DIR": str(project)}
        skill = (project if where == "project" else home) / ".claude" / "skills" / "s"
        (skill / "scripts").mkdir(parents=True)
        (skill / "SKILL.md").write_text("---\nname: s\ndescription: d\n---\n")
        (skill / "scripts" / "run.sh").write_text(script)
        (skill / "scripts" / "run.sh").chmod(0o755)
        printed = json.loads(snippet("claude-code", {"--plan": str(project / "plan.json"),
                                                     "--skill-dir": str(skill)})[0])
        hook = printed["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        for name, text in files.items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(text)
        denied = None
        for call in (c.replace("{S}", str(skill)) for c in calls):
            if side == "run" and subprocess.run(
                    ["/bin/sh", "-c", hook], input=payload(call, project), cwd=project,
                    env=env, capture_output=True, timeout=60, check=False).returncode == 2:
                denied = call
                break
            subprocess.run(["timeout", "60", "bash", "-c", call], cwd=project, env=env,
                           capture_output=True, timeout=90, check=False)
        if side == "proof":
            assert any(project.rglob("zz")), "bash ran no payload"
        else:
            found.append(denied)
    return found[0]


#: The skill's own script (the usual entry of a skill, ``${CLAUDE_SKILL_DIR}/scripts/…``)
#: starts make or npm in the call's folder (review s52-greview R1, there for ``sh build.sh``,
#: which rule 1 now holds): ``planprograms`` gives no path for an entry naming its program by
#: a placeholder, so rule 1 guards no start name and rule 2 is not applied.
SKILL_STARTS = {
    "make-here": ("${CLAUDE_SKILL_DIR}/scripts/run.sh", "#!/bin/sh\nmake test\n",
                  "Makefile", MAKE_PAYLOAD),
    "make-in-sub": ("${CLAUDE_SKILL_DIR}/scripts/run.sh", "#!/bin/sh\nmake -C sub test\n",
                    "sub/Makefile", MAKE_PAYLOAD),
    "npm-here": ("${CLAUDE_SKILL_DIR}/scripts/run.sh", "#!/bin/sh\nnpm test\n",
                 "package.json", '{"name":"x","scripts":{"test":"touch zz"}}'),
    "bash-make-here": ("bash ${CLAUDE_SKILL_DIR}/scripts/run.sh", "#!/bin/sh\nmake test\n",
                       "Makefile", MAKE_PAYLOAD),
}
SKILL_CASES = [f"{where}-{case}" for where in ("project-skill", "home-skill")
               for case in SKILL_STARTS]
@pytest.mark.parametrize("case", SKILL_CASES)
def test_r_a_script_of_the_skills_folder_starts_a_program_here(case: str,
                                                               tmp_path: Path) -> None:
    """``cp src/p <start file>``, then the skill's script: make (npm) reads the copy."""
    where, _, name = case.partition("-skill-")
    entry, script, target, text = SKILL_STARTS[name]
    needs("make", "npm")
    files = {"src/p": text, "sub/.keep": ""}
    call = entry.replace("${CLAUDE_SKILL_DIR}", "{S}")
    assert _skill_session(tmp_path, entry, script, files, [f"cp src/p {target}", call],
                          where) is not None


# --- J: jest's Babel configuration --------------------------------------------------------------

#: Where jest 29.7.0 is installed for these rows (``npm install`` from the registry, once; the
#: runtime cache the pinned oracles share, ``SKILLGRANT_RUNTIME_CACHE`` overriding it).
JEST = Path(os.environ.get("SKILLGRANT_RUNTIME_CACHE",
                           Path.home() / ".cache" / "skillgrant-runtime")) / "jest-29.7.0"


def _jest() -> Path:
    """The ``node_modules`` holding jest 29.7.0, installed when missing (skips when npm
    cannot install it)."""
    needs("npm", "node")
    modules = JEST / "node_modules"
    JEST.mkdir(parents=True, exist_ok=True)
    with open(JEST / ".lock", "w") as lock:  # (one install at a time: xdist's workers)
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (modules / ".bin" / "jest").exists():
            subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(JEST),
                            "jest@29.7.0"], capture_output=True, timeout=600, check=False)
    if not (modules / ".bin" / "jest").exists():
        pytest.skip("jest 29.7.0 could not be installed")
    return modules


#: jest runs ``babel-jest`` on every test file and Babel loads its configuration as code:
#: ``babel.config.js`` at the root, ``.babelrc.js`` there or beside the test (file-relative
#: configuration); jest's own ``jest.config.*`` are start names, Babel's are not (nor is a
#: JSON ``.babelrc``, whose ``plugins`` name code). Plan ``Bash(npm test)`` (``"test":
#: "jest"``) or ``Bash(npx jest)``, ``Bash(cp *)``; no recipe, no move.
BABEL = {
    "babel-config": ("npm test", "babel.config.js"),
    "babelrc-js": ("npm test", ".babelrc.js"),
    "babelrc-js-beside-a-test": ("npm test", "sub/.babelrc.js"),
    "npx-babel-config": ("npx jest", "babel.config.js"),
    # (jest's convention, not Babel's: a root ``__mocks__/<package>.js`` beside node_modules
    # replaces the package for every test, no jest.mock call needed)
    "root-mocks-of-a-package": ("npm test", "__mocks__/chalk.js"),
}
# (root-mocks-of-a-package: held since s55-gfix3, every __mocks__ folder's scripts are test code)


@pytest.mark.parametrize("case", BABEL)
def test_j_jest_runs_a_babel_configuration(case: str, tmp_path: Path) -> None:
    """``cp src/p <babel file>``, then the plan's entry: jest's Babel runs the payload."""
    modules = _jest()
    entry, target = BABEL[case]
    files = {"package.json": '{"name":"jt","scripts":{"test":"jest"}}',
             "a.test.js": "require('chalk');\ntest('a', () => {});\n",
             "sub/b.test.js": "test('b', () => {});\n", "__mocks__/.keep": "",
             "src/p": "require('fs').writeFileSync(__dirname + '/zz', '');\n"
                      "module.exports = {};\n"}
    assert _session(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                    [f"cp src/p {target}", entry],
                    links={"node_modules": str(modules)}) is not None


# --- S: a script file a program outside the tables runs as code -------------------------------

#: A plan entry feeding a program a script file by name, where the program runs shell
#: commands from it (sqlite3's ``.system``, vim's ``:!``, ed's ``!``, GNU sed's ``e``):
#: ``planprograms`` gives no path for these entries (``sqlite3 out/db < x.sql`` is a schema
#: load, a common entry), so neither the script is guarded nor, under rule 1, any start name
#: (the plan "reads no project code"). The payload overwrites the script; or the approved
#: script runs ``make -C sub test`` and the payload is ``sub/Makefile``.
SCRIPT_FED = {
    "sqlite3-stdin": ("sqlite3 out/db < x.sql", "x.sql", "select 1;\n", ".system touch zz\n"),
    "sqlite3-init": ("sqlite3 -init x.sql out/db .quit", "x.sql", "select 1;\n",
                     ".system touch zz\n"),
    "vim-S": ("vim -es -S x.vim notes.txt", "x.vim", "qa!\n", "silent !touch zz\nqa!\n"),
    "ed-stdin": ("ed -s notes.txt < x.ed", "x.ed", "q\n", "!touch zz\nq\n"),
    "sed-f": ("sed -f x.sed notes.txt", "x.sed", "p\n", "1e touch zz\n"),
    "sqlite3-runs-make": ("sqlite3 out/db < x.sql", "x.sql", ".system make -C sub test\n", ""),
    "ed-runs-make": ("ed -s notes.txt < x.ed", "x.ed", "!make -C sub test\nq\n", ""),
    "sed-runs-make": ("sed -f x.sed notes.txt", "x.sed", "1e make -C sub test\n", ""),
}


@pytest.mark.parametrize("case", SCRIPT_FED)
def test_s_a_script_a_program_outside_the_tables_runs(case: str, tmp_path: Path) -> None:
    """``cp src/p <script>`` (or ``cp src/p sub/Makefile`` where the approved script runs
    make there), then the plan's entry: the program runs the payload."""
    entry, script, approved, evil = SCRIPT_FED[case]
    needs(entry.split()[0], "make")
    target = script if evil else "sub/Makefile"
    files = {script: approved, "sub/.keep": "", "src/p": evil or MAKE_PAYLOAD}
    assert _session(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                    [f"cp src/p {target}", entry]) is not None


# --- COST: calls a careful user needs that rule 1 newly denies ---------------------------------

#: Under rule 1 every program's start names are guarded at any depth, folders among them
#: (perl's ``lib/``, prove's ``t/``, invoke's ``tasks/``) and ``.env``: a call writing or
#: removing any file below any folder of such a name is denied under any plan reading code,
#: though only perl reads ``lib/`` as code (``*.pm``), only prove ``t/`` (``*.t``), only invoke
#: ``tasks/`` (``tasks/__init__.py``). Each was allowed at 7b9db0b (before s53-gfix). A
#: C project's ``src/lib``, a Python package's ``lib`` subpackage, a docs folder ``tasks``.
COSTS = {
    "git-restore-in-src-lib": (["Bash(make test)", "Bash(git restore *)"],
                               {"Makefile": "test:\n\t@echo ok\n", "src/lib/a.c": "x\n"},
                               "git restore src/lib/a.c"),
    "rm-in-a-package-lib": (["Bash(python3 -m pytest -q)", "Bash(rm *)"],
                            {"mypkg/lib/old.py": "x\n"}, "rm mypkg/lib/old.py"),
    "mv-in-a-package-lib": (["Bash(python3 -m pytest -q)", "Bash(mv *)"],
                            {"mypkg/lib/old.py": "x\n"}, "mv mypkg/lib/old.py mypkg/lib/new.py"),
    "cp-in-a-package-lib": (["Bash(python3 -m pytest -q)", "Bash(cp *)"],
                            {"mypkg/lib/a.py": "x\n"}, "cp mypkg/lib/a.py mypkg/lib/b.py"),
    "cp-a-dotenv-fixture": (["Bash(python3 -m pytest -q)", "Bash(cp *)"],
                            {"tests/data/.keep": "", "fixtures/a.env": "A=1\n"},
                            "cp fixtures/a.env tests/data/.env"),
    "cp-into-docs-tasks": (["Bash(python3 -m pytest -q)", "Bash(cp *)"],
                           {"docs/tasks/.keep": "", "a.md": "x\n"}, "cp a.md docs/tasks/a.md"),
    "cp-env-example": (["Bash(python3 -m pytest -q)", "Bash(cp *)"],
                       {".env.example": "A=1\n"}, "cp .env.example .env"),
    "cp-env-example-of-a-service": (["Bash(python3 -m pytest -q)", "Bash(cp *)"],
                                    {"services/api/.env.example": "A=1\n"},
                                    "cp services/api/.env.example services/api/.env"),
    "cp-into-docs-t": (["Bash(npm test)", "Bash(cp *)"],
                       {"package.json": '{"name":"a"}', "docs/t/.keep": "", "a.md": "x\n"},
                       "cp a.md docs/t/a.md"),
}
_open("test_cost_a_file_below_a_folder_named_like_a_start_folder",
      "rule 1 guards a start folder's name (lib/, t/, tasks/) and .env at any depth under any "
      "plan reading code, whatever file below it is written: a cost (harmless: no program "
      "of these plans reads these files as code; a39559d narrowed lib/, t/, tasks/ to the "
      "files their program loads: those rows are held)",
      "cp-a-dotenv-fixture", "cp-env-example", "cp-env-example-of-a-service")


@pytest.mark.parametrize("case", COSTS)
def test_cost_a_file_below_a_folder_named_like_a_start_folder(case: str,
                                                             tmp_path: Path) -> None:
    """The call (no program reads what it writes as code) is allowed."""
    entries, files, call = COSTS[case]
    project = hooked_project(tmp_path, entries)
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    said = subprocess.run(["/bin/sh", "-c", _settings_hook(project)],
                          input=payload(call, project), cwd=project, env=env,
                          capture_output=True, timeout=60, check=False)
    assert said.returncode != 2, said.stderr.decode()
