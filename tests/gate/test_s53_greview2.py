"""Session 53 review s53-greview2 of s53-gfix2 (a test folder reached through a link, issue 29's
R10; the session's compiler and linker variables, R6d). Each hole is proved by real bash and
the real program (node 20's test runner, pytest, python's unittest, GNU make 4.3 and gcc 12) in
a scratch copy first (``bash_review.proved_case``), then the printed hook is asked call by call:
the hook allowing every call is the finding (a strict-xfail row in ``OPEN``); a case the change
holds is a plain test pinning it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved_case
from test_gate_files import _settings_hook, payload

import skillgrant

#: The package's folder above it, and the site folder its modules import from.
ROOT = str(Path(skillgrant.__file__).parent.parent)
SITE = next(p for p in sys.path if p.endswith("site-packages") and "tree_sitter" in os.listdir(p))

#: Real bash, node, python, make and gcc, and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open here, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

#: node code running the payload (``touch zz``); Python's.
JS_PAYLOAD = "require('child_process').execSync('touch zz')\n"
PY_PAYLOAD = "import os\nos.system('touch zz')\n"
#: An executable running the payload, as gcc runs its assembler (``cp`` keeps the mode).
SH_PAYLOAD = "#!/bin/sh\ntouch zz\n"
#: A header shadowing ``<stdio.h>`` whose constructor runs the payload in the built program.
HEADER_PAYLOAD = ('#include_next <stdio.h>\n__attribute__((constructor)) static void zz(void)'
                  ' { int system(const char *); system("touch zz"); }\n')
#: 64 links at the project's top, each to ``shared`` (made by the session: ``ln -s``).
BUN = Path.home() / ".cache/skillgrant-runtime/bun-1.4.5/package/bin"
SIXTY_FOUR = "for i in $(seq 1 64); do ln -s shared a$i; done\n"
#: 6000 files in ``test/fx`` and a link ``test/fx/s<k> -> ../../shared`` past the 4200th entry
#: ``os.scandir`` lists there (ext4 lists by a hash of the name: the first such name).
BIG_FOLDER = """python3 - <<'E'
import os
os.makedirs("test/fx", exist_ok=True)
for i in range(6000):
    open(f"test/fx/f{i}.json", "w").close()
for k in range(1000):
    os.symlink("../../shared", f"test/fx/s{k}")
    if [e.name for e in os.scandir("test/fx")].index(f"s{k}") > 4200:
        break
    os.remove(f"test/fx/s{k}")
E
"""


# --- T: node's test runner meets a file through a link --------------------------------------------


#: Each case: the plan's entry (beside ``Bash(cp *)``, ``Bash(ln *)``), the project's links
#: (name: target), the bash text making more (``$T``: the folder above the project), the calls
#: (the last runs the tests). node 20's ``--test`` walks its folders through every link and
#: runs each script below a ``test`` folder, at the path it meets it at (the proof runs it).
LINKED = {
    # the R10 rows, again at the fix
    "held-link-in-the-test-folder": ("node --test test/", {"test/shared": "../shared"}, "",
                                     ["cp src/mk shared/x.js", "node --test test/"]),
    "held-link-named-test": ("node --test", {"lib/test": "../shared"}, "",
                             ["cp src/mk shared/x.js", "node --test"]),
    # a link to a file, named as a test: node runs its target
    "file-link-in-the-test-folder": ("node --test test/", {"test/b.test.js": "../lib/z.js"}, "",
                                     ["cp src/mk lib/z.js", "node --test test/"]),
    "file-link-named-as-a-test": ("node --test", {"b.test.js": "lib/z.js"}, "",
                                  ["cp src/mk lib/z.js", "node --test"]),
    # a link in the test folder leading out of the project
    "link-out-of-the-project": ("node --test test/", {"test/ext": "../../ext"}, "mkdir -p ../ext",
                                ["cp src/mk ../ext/x.js", "node --test test/"]),
    # a link leading out of the project to a folder holding a test folder (a sibling checkout)
    "link-to-a-sibling-with-tests": ("node --test", {"pkg": "../ext"}, "mkdir -p ../ext/test",
                                     ["cp src/mk ../ext/test/x.js", "node --test"]),
    # a chain: test/s -> ../shared, shared/test -> ../lib
    "chain-of-links": ("node --test test/", {"test/s": "../shared", "shared/deep": "../lib"}, "",
                       ["cp src/mk lib/y.js", "node --test test/"]),
    # test/s -> ../alias -> lib: the session moves the link between (after the write)
    "link-between-moved-after-the-write": (
        "node --test test/", {"test/s": "../alias", "alias": "lib"}, "",
        ["cp src/mk shared/x.js", "ln -sfn shared alias", "node --test test/"]),
    # the session writes out of the project first, then links to it from a folder below (the
    # link's text read from the call's folder names no folder: from lib/, the sibling's)
    "link-made-after-the-write": ("node --test", {}, "mkdir -p ../ext/test",
                                  ["cp src/mk ../ext/test/x.js", "ln -s ../../ext lib/pkg",
                                   "node --test"]),
    "dangling-link-then-its-target": ("node --test", {}, "mkdir -p ../ext/test",
                                      ["cp src/mk ../ext/test/x.js", "ln -s ../ext2 pkg",
                                       "ln -s ext ../ext2", "node --test"]),
    # test/s -> ../mid, mid/deep -> ../shared (held alone) past 64 links to shared
    "chain-past-sixty-four-links": ("node --test test/",
                                    {"test/s": "../mid", "mid/deep": "../shared"}, SIXTY_FOUR,
                                    ["cp src/mk shared/x.js", "node --test test/"]),
    # a link named .git (not the repository's: node's runner walks it), or one in such a folder
    "link-named-dot-git": ("node --test", {"lib/.git": "../../ext"}, "mkdir -p ../ext/test",
                           ["cp src/mk ../ext/test/x.js", "node --test"]),
    "link-in-a-dot-git-folder": ("node --test", {}, "mkdir -p ../ext/test lib/.git && "
                                 "ln -s ../../../ext lib/.git/pkg",
                                 ["cp src/mk ../ext/test/x.js", "node --test"]),
    # a link to nothing yet (allowed since af16ceb: read when its target comes), whose target's
    # parent then comes as a link out of the project (../d -> extB), which no rule reads
    "link-to-nothing-then-its-parent": ("node --test", {}, "mkdir -p ../extB/ext/test",
                                        ["ln -s ../d/ext pkg", "cp src/mk ../extB/ext/test/x.js",
                                         "ln -s extB ../d", "node --test"]),
    # a test folder of more than 4096 entries, the link past them (linked.entries' bound)
    "link-in-a-big-folder": ("node --test test/", {}, BIG_FOLDER,
                             ["cp src/mk shared/x.js", "node --test test/"]),
    # the plan runs the tests of a folder beside the project, which links out
    "link-in-an-operands-folder": ("node --test ../ext/", {},
                                   "mkdir -p ../ext/test ../other && "
                                   "ln -s ../../other ../ext/test/o",
                                   ["cp src/mk ../other/x.js", "node --test ../ext/"]),
    # a copy of a tree holding a relative link named test, to another depth: the link leads
    # elsewhere from there (src/a/tpl/test -> ../../shared is src/shared; lib/tpl/test, shared)
    "copy-re-aims-a-link-named-test": ("node --test", {},
                                       "mkdir -p src/a/tpl src/shared && "
                                       "ln -s ../../shared src/a/tpl/test",
                                       ["cp src/mk shared/x.js", "cp -r src/a/tpl lib/",
                                        "node --test"]),
    "copy-keeping-links-re-aims-it": ("node --test", {},
                                      "mkdir -p src/a/tpl src/shared && "
                                      "ln -s ../../shared src/a/tpl/test",
                                      ["cp src/mk shared/x.js", "cp -a src/a/tpl lib/",
                                       "node --test"]),
    "move-re-aims-it": ("node --test", {},
                        "mkdir -p src/a/tpl src/shared && ln -s ../../shared src/a/tpl/test",
                        ["cp src/mk shared/x.js", "mv src/a/tpl lib/", "node --test"]),
    # the same with a guarded file copied beside it (.claude/settings.json: read, not written)
    "copy-re-aims-it-beside-a-guarded-file": ("node --test", {},
                                              "mkdir -p src/a/tpl src/shared && "
                                              "ln -s ../../shared src/a/tpl/test",
                                              ["cp src/mk shared/x.js",
                                               "cp -r src/a/tpl .claude/settings.json lib/",
                                               "node --test"]),
    # the same from a package's folder (node_modules: neither node nor the walk enter it)
    "copy-from-node-modules-re-aims-it": ("node --test", {},
                                          "mkdir -p node_modules/a/tpl && "
                                          "ln -s ../../shared node_modules/a/tpl/test",
                                          ["cp src/mk shared/x.js",
                                           "cp -r node_modules/a/tpl lib/", "node --test"]),
}


@pytest.mark.parametrize("case", list(LINKED))
def test_t_a_test_file_met_through_a_link(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``, ``Bash(ln *)``, ``Bash(mv *)``: one of the calls
    is denied."""
    needs("bash", "node")
    entry, links, setup, calls = LINKED[case]
    files = {"test/a.test.js": "0\n", "shared/keep": "", "lib/keep": "", "mid/keep": "",
             "src/mk": JS_PAYLOAD}
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)", "Bash(ln *)", "Bash(mv *)"],
                         files, calls, setup=setup, links=links)
    assert denied is not None, "the hook allows every call, and node's test runner runs it"


# (T1-T5 open at 51a8b1e: closed by s53-gfix2 4965cd0: a link placed below a collecting folder
# read by where it leads; places refuses past its bound; .git walked; a folder listed whole)
# (link-in-an-operands-folder open at 51a8b1e: closed by s55-sfix, testroots: the plan's
# operand folder beside the run folders walked)
# (link-to-nothing-then-its-parent open at af16ceb, copy-from-node-modules-re-aims-it and
# copy-re-aims-it-beside-a-guarded-file open at fbedcbc: closed by s53-gfix2 aa70455)
# (copy-re-aims-a-link-named-test, copy-keeping-links-re-aims-it, move-re-aims-it open at
# 51a8b1e: closed by s53-gfix2 fbedcbc)


#: Each case: the calls (beside the plan's ``Bash(cd *)``), the bash text making the folders
#: beside the project. node's test runner, moved by ``cd`` to a folder beside the project,
#: runs its tests there: a script written there, or met through a link there.
MOVED_RUNNERS = {
    "written-in-a-test-folder-beside": ("mkdir -p ../ext/test",
                                        ["cp src/out ../ext/test/y.js",
                                         "cd ../ext && node --test"]),
    "met-through-a-link-beside": ("mkdir -p ../ext/test ../other && "
                                  "ln -s ../../other ../ext/test/o",
                                  ["cp src/out ../other/x.js", "cd ../ext && node --test"]),
}


@pytest.mark.parametrize("case", list(MOVED_RUNNERS))
def test_t_a_runner_moved_out_of_the_project(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(node --test)``, ``Bash(cd *)``, ``Bash(cp *)``: a call is denied."""
    needs("bash", "node")
    setup, calls = MOVED_RUNNERS[case]
    denied = proved_case(tmp_path, ["Bash(node --test)", "Bash(cd *)", "Bash(cp *)"],
                         {"test/a.test.js": "0\n",
                          "src/out": "require('child_process').execSync('touch ../project/zz')\n"},
                         calls, setup=setup, in_place=True)
    assert denied is not None, "the hook allows every call, and node's test runner runs it"


# (open at af16ceb where no project folder is known; held since session 57: s57-sfix's
# jestargs.unseen reads a `node --test` plan as one that may run jest with unseen words, so
# every script jest may load is guarded and the copy is denied)


#: Each case (a cost): the plan's entry, the project's files and links, the everyday link a
#: careful user makes, which leads to no script a runner meets at a test's path it did not
#: meet already: a folder whose tests node runs where they are; a build's output holding a
#: library's version link; clangd's compile_commands.json before the build makes it.
EVERYDAY_LINKS = {
    "folder-holding-tests": ("node --test", {"src/components/Button.test.js": "0\n"}, {},
                             "ln -s src/components components"),
    "build-output-with-a-version-link": ("make test", {"build/Release/libfoo.so.1": ""},
                                         {"build/Release/libfoo.so": "libfoo.so.1"},
                                         "ln -s build/Release rel"),
    "compile-commands-before-the-build": ("python3 -m pytest", {},
                                          {}, "ln -s build/compile_commands.json "
                                          "compile_commands.json"),
}


OPEN.add("test_c_an_everyday_link_is_allowed",
         "cost K2, denied again on merged main (session 53's merge: the gate names "
         "'build/Release' as holding a guarded file for a make plan; s53-gfix2 had eased it "
         "on its branch): a link to a build output holding a version link",
         "build-output-with-a-version-link")


@pytest.mark.parametrize("case", list(EVERYDAY_LINKS))
def test_c_an_everyday_link_is_allowed(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(ln *)``: the link is allowed (as it was at 7b9db0b)."""
    needs("bash")
    entry, files, links, call = EVERYDAY_LINKS[case]
    project = hooked_project(tmp_path, [f"Bash({entry})", "Bash(ln *)"])
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    for name, target in links.items():
        os.symlink(target, project / name)
    assert first_denied(project, [call], home_env(tmp_path / "home")) is None, "denied"


# (cost at 4965cd0: eased by s53-gfix2 af16ceb, a link to a folder the runners walk or to nothing)


def test_c_a_write_in_a_big_project_is_allowed(tmp_path: Path) -> None:
    """Plan ``Bash(node --test)``, ``Bash(cp *)``, a project of 205,000 files below ``data/``
    (a data set, cargo's ``target/``, a ``.venv``: no runner's test among them): ``cp
    notes.txt notes2.txt`` is allowed (as it was at 7b9db0b)."""
    needs("bash")
    project = hooked_project(tmp_path, ["Bash(node --test)", "Bash(cp *)"])
    for k in range(205):
        folder = project / "data" / f"d{k}"
        folder.mkdir(parents=True)
        for j in range(1000):
            (folder / f"f{j}").touch()
    call = "cp notes.txt notes2.txt"
    try:
        denied = first_denied(project, [call], home_env(tmp_path / "home"))
    finally:
        shutil.rmtree(project / "data")  # (pytest keeps its last folders)
    assert denied is None, "denied"


# (test_c_a_write_in_a_big_project_is_allowed, a cost at 4965cd0: eased by s55-sfix, a hook's
# walk lists up to MAX_HOOK_ENTRIES entries and keeps unchanged folders' listings: walkcache)


#: pytest's settings naming a folder beside the project (``testpaths``), a test there a link
#: to a file the session writes (in the project, or beside it). pytest 9 imports the link's
#: target (the proof runs it).
PYTEST_LINKED = {
    "testpaths-beside-a-link-out": ("[pytest]\ntestpaths = ../ext\n",
                                    "mkdir -p ../ext ../other && "
                                    "ln -s ../other/h.py ../ext/test_h.py",
                                    "cp src/py ../other/h.py"),
    "testpaths-beside-a-link-in": ("[pytest]\ntestpaths = tests ../ext\n",
                                   "mkdir -p ../ext && ln -s ../project/lib/h.py ../ext/test_h.py",
                                   "cp src/py lib/h.py"),
}


@pytest.mark.parametrize("case", list(PYTEST_LINKED))
def test_t_pytests_testpaths_through_a_link(tmp_path: Path, case: str) -> None:
    """pytest.ini ``testpaths``; plan ``Bash(python3 -m pytest)``, ``Bash(cp *)``: the write
    is denied."""
    needs("bash", "python3")
    settings, setup, write = PYTEST_LINKED[case]
    calls = [write, "python3 -m pytest"]
    denied = proved_case(tmp_path, ["Bash(python3 -m pytest)", "Bash(cp *)"],
                         {"pytest.ini": settings, "tests/test_a.py": "def test_a():\n    pass\n",
                          "lib/keep": "", "src/py": PY_PAYLOAD}, calls, setup=setup,
                         in_place=True)
    assert denied is not None, "the hook allows every call, and pytest imports the payload"


# (test_t_pytests_testpaths_through_a_link open at 51a8b1e: closed by s55-sfix, testroots:
# pytest's testpaths read)


# --- V: the session's compiler and linker variables ---------------------------------------------


#: A Makefile compiling as most do (make takes each variable of its environment as its own).
COMPILES = "test: t.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -c t.c -o t.o\n"
#: One building its test program and running it.
BUILDS = "test: t.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) t.c -o t $(LDFLAGS)\n\t./t\n"
#: The same handing gcc a variable of the Makefile's own name (``{}``).
OWN = "test: t.c\n\t$(CC) $({}) -c t.c -o t.o\n"
OWN_BUILDS = "test: t.c\n\t$(CC) $({}) t.c -o t\n\t./t\n"

#: Each case: the session's variable and value, the Makefile, the file the payload goes to
#: and the payload. gcc 12 runs ``<prefix>as`` for ``-B<prefix>`` (``v/as`` when ``v`` is a
#: folder, ``vas`` when not), a program of ``COMPILER_PATH``'s folders, reads options from
#: ``@FILE``, and headers from ``CPATH``, ``-I`` folders and ``-include`` files into the
#: program ``make test`` runs (the proof runs it).
COMPILER_VARIABLES = {
    "cflags-program-prefix-folder": ("CFLAGS", "-Bv/", COMPILES, "v/as", SH_PAYLOAD),
    "cppflags-program-prefix-folder": ("CPPFLAGS", "-Bv/", COMPILES, "v/as", SH_PAYLOAD),
    "cflags-prefix-a-folder-without-slash": ("CFLAGS", "-Bv", COMPILES, "v/as", SH_PAYLOAD),
    "cflags-prefix-of-a-name": ("CFLAGS", "-Bpre", COMPILES, "preas", SH_PAYLOAD),
    "cflags-prefix-apart": ("CFLAGS", "-B pre", COMPILES, "preas", SH_PAYLOAD),
    "ldflags-prefix": ("LDFLAGS", "-Bpre", COMPILES, "preas", SH_PAYLOAD),
    "cc-with-a-prefix": ("CC", "gcc -Bpre", COMPILES, "preas", SH_PAYLOAD),
    "cc-with-a-prefix-folder": ("CC", "gcc -Bv/", COMPILES, "v/as", SH_PAYLOAD),
    "compiler-path": ("COMPILER_PATH", "v", COMPILES, "v/as", SH_PAYLOAD),
    "cflags-response-file": ("CFLAGS", "@opts", COMPILES, "opts", "-Bv/\n"),
    "cpath": ("CPATH", "inc", BUILDS, "inc/stdio.h", HEADER_PAYLOAD),
    "c-include-path": ("C_INCLUDE_PATH", "inc", BUILDS, "inc/stdio.h", HEADER_PAYLOAD),
    "cflags-include-folder": ("CFLAGS", "-Iinc", BUILDS, "inc/stdio.h", HEADER_PAYLOAD),
    "cflags-forced-include": ("CFLAGS", "-include pre", BUILDS, "pre", HEADER_PAYLOAD),
    # gcc's long spelling of -B (its option_map: --prefix)
    "cflags-long-prefix": ("CFLAGS", "--prefix=pre", COMPILES, "preas", SH_PAYLOAD),
    "cflags-long-prefix-apart": ("CFLAGS", "--prefix pre", COMPILES, "preas", SH_PAYLOAD),
    # -iprefix's prefix joined to -iwithprefixbefore's folder: headers from preinc/
    "cppflags-include-prefix": ("CPPFLAGS", "-iprefix pre -iwithprefixbefore inc", BUILDS,
                                "preinc/stdio.h", HEADER_PAYLOAD),
    "cppflags-include-prefix-long": ("CPPFLAGS",
                                     "--include-prefix=pre --include-with-prefix-before=inc",
                                     BUILDS, "preinc/stdio.h", HEADER_PAYLOAD),
    # make's built-in rule `%.o: %.c` runs `$(COMPILE.c) $(OUTPUT_OPTION) $<`
    "output-option-prefix": ("OUTPUT_OPTION", "-Bv -o $@", "test: t.o\n", "v/as", SH_PAYLOAD),
    # the names kbuild and many Makefiles hand gcc beside CFLAGS
    "extra-cflags-prefix-a-folder": ("EXTRA_CFLAGS", "-Bv", OWN.format("EXTRA_CFLAGS"), "v/as",
                                     SH_PAYLOAD),
    "kcflags-response-file": ("KCFLAGS", "@opts", OWN.format("KCFLAGS"), "opts", "-Bv/\n"),
    "hostcflags-forced-include": ("HOSTCFLAGS", "-include pre", OWN_BUILDS.format("HOSTCFLAGS"),
                                  "pre", HEADER_PAYLOAD),
    "extra-cflags-include-folder": ("EXTRA_CFLAGS", "-Iinc", OWN_BUILDS.format("EXTRA_CFLAGS"),
                                    "inc/stdio.h", HEADER_PAYLOAD),
    # names for the build machine's compiler (kbuild's, autoconf's), ending in no FLAGS
    "hostcc-prefix": ("HOSTCC", "gcc -Bpre", "test: t.c\n\t$(HOSTCC) -c t.c -o t.o\n", "preas",
                      SH_PAYLOAD),
    "cc-for-build-prefix": ("CC_FOR_BUILD", "gcc -Bpre",
                            "test: t.c\n\t$(CC_FOR_BUILD) -c t.c -o t.o\n", "preas", SH_PAYLOAD),
    "cflags-module-prefix": ("CFLAGS_MODULE", "-Bpre", OWN.format("CFLAGS_MODULE"), "preas",
                             SH_PAYLOAD),
    "cflags-for-build-long-prefix": ("CFLAGS_FOR_BUILD", "--prefix=pre",
                                     OWN.format("CFLAGS_FOR_BUILD"), "preas", SH_PAYLOAD),
    "cppflags-for-build-include-folder": ("CPPFLAGS_FOR_BUILD", "-Iinc",
                                          OWN_BUILDS.format("CPPFLAGS_FOR_BUILD"),
                                          "inc/stdio.h", HEADER_PAYLOAD),
    "held-cflags-for-build-response-file": ("CFLAGS_FOR_BUILD", "@opts",
                                            OWN.format("CFLAGS_FOR_BUILD"), "opts", "-Bv/\n"),
    # kbuild's prefix of the compiler's name (make runs $(CROSS_COMPILE)gcc: ./x-gcc)
    "cross-compile-prefix": ("CROSS_COMPILE", "./x-",
                             "test: t.c\n\t$(CROSS_COMPILE)gcc -c t.c -o t.o\n", "x-gcc",
                             SH_PAYLOAD),
    # the link line's LIBS: gcc -Bv runs v/collect2; -Wl,-rpath,v: the program loads from v/
    "libs-prefix-a-folder": ("LIBS", "-Bv", "test: t.c\n\t$(CC) t.c -o t $(LIBS)\n",
                             "v/collect2", SH_PAYLOAD),
    # the same in the session's MAKEFLAGS definitions (startvars reads them, not flagpaths)
    "makeflags-long-prefix": ("MAKEFLAGS", "CFLAGS=--prefix=pre", COMPILES, "preas",
                              SH_PAYLOAD),
    "makeflags-cross-compile-prefix": ("MAKEFLAGS", "CROSS_COMPILE=./x-",
                                       "test: t.c\n\t$(CROSS_COMPILE)gcc -c t.c -o t.o\n",
                                       "x-gcc", SH_PAYLOAD),
    "held-makeflags-compiler-prefix": ("MAKEFLAGS", "HOSTCC=gcc\\ -Bpre",
                                       "test: t.c\n\t$(HOSTCC) -c t.c -o t.o\n", "preas",
                                       SH_PAYLOAD),
    # make reads `$D` as the variable D (unset: nothing), then `x/`: gcc -Bx/
    "make-one-letter-variable": ("CFLAGS", "-B$Dx/", COMPILES, "x/as", SH_PAYLOAD),
}


@pytest.mark.parametrize("case", list(COMPILER_VARIABLES))
def test_v_the_sessions_compiler_variables(tmp_path: Path, case: str) -> None:
    """The session's ``<NAME>=<value>``; plan ``Bash(make test)``, ``Bash(cp *)``: ``cp src/x
    <file>`` (then, for a response file, ``cp src/as v/as``) is denied."""
    needs("bash", "make", "gcc")
    name, value, makefile, target, text = COMPILER_VARIABLES[case]
    calls = [*([f"mkdir -p {target.split('/')[0]}"] if target.startswith(("preinc/", "x/"))
               else []),
             f"cp src/x {target}", *(["cp src/as v/as"] if target == "opts" else []),
             "make test"]
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)"],
                         {"Makefile": makefile, "t.c": "#include <stdio.h>\nint main(void) "
                          "{ return 0; }\n", "v/keep": "", "inc/keep": "", "src/x": text,
                          "src/as": SH_PAYLOAD}, calls, {name: value},
                         executable=("src/x", "src/as"))
    assert denied is not None, "the hook allows every call, and make's gcc runs the payload"


# (compiler-path, cpath, c-include-path open at 836e7a4: closed by s53-gfix2 4965cd0; the long
# prefix, -iprefix, OUTPUT_OPTION and *FLAGS rows open at 836e7a4: closed by af16ceb; the
# build machine's names and make's `$D` open at af16ceb: closed by aa70455)
# (cross-compile-prefix, libs-prefix-a-folder, makeflags-long-prefix,
# makeflags-cross-compile-prefix open at aa70455: closed by s54-gfix3, flagpaths read for
# LIBS, CROSS_COMPILE and the session's MAKEFLAGS definitions)


#: Each case: the plan's entry (beside ``Bash(cp *)``, ``Bash(mkdir *)``), the Makefile, the
#: file the payload goes to and the payload. The entry sets the variable itself (a prefix
#: assignment, ``export``, make's command-line definition, an entry's ``MAKEFLAGS``), or runs
#: gcc with the option: gcc runs ``<prefix>as``, or reads the header, as under the session's
#: variable (the proof runs it).
ENTRY_VARIABLES = {
    "prefix-assignment": ("CFLAGS=-Bpre make test", COMPILES, "preas", SH_PAYLOAD),
    "prefix-assignment-long-prefix": ("CFLAGS=--prefix=pre make test", COMPILES, "preas",
                                      SH_PAYLOAD),
    "export-before-make": ("export CFLAGS=--prefix=pre; make test", COMPILES, "preas",
                           SH_PAYLOAD),
    "make-definition": ("make test CFLAGS=-Bpre", COMPILES, "preas", SH_PAYLOAD),
    "make-definition-include-prefix": ("make test CPPFLAGS='-iprefix pre -iwithprefixbefore inc'",
                                       BUILDS, "preinc/stdio.h", HEADER_PAYLOAD),
    "make-definition-own-name": ("make test EXTRA_CFLAGS=-Bv", OWN.format("EXTRA_CFLAGS"),
                                 "v/as", SH_PAYLOAD),
    "entry-makeflags": ("MAKEFLAGS=CFLAGS=--prefix=pre make test", COMPILES, "preas",
                        SH_PAYLOAD),
    "compiler-path-assignment": ("COMPILER_PATH=v make test", COMPILES, "v/as", SH_PAYLOAD),
    "cpath-assignment": ("CPATH=inc make test", BUILDS, "inc/stdio.h", HEADER_PAYLOAD),
    "hostcc-assignment": ("HOSTCC='gcc -Bpre' make test",
                          "test: t.c\n\t$(HOSTCC) -c t.c -o t.o\n", "preas", SH_PAYLOAD),
    "held-make-definition-prefix-folder": ("make test CFLAGS=-Bv/", COMPILES, "v/as", SH_PAYLOAD),
    # gcc run by the entry with the option itself
    "gcc-prefix": ("gcc -Bpre -c t.c", COMPILES, "preas", SH_PAYLOAD),
    "gcc-prefix-folder": ("gcc -Bv/ -c t.c", COMPILES, "v/as", SH_PAYLOAD),
    "gcc-long-prefix": ("gcc --prefix=pre -c t.c", COMPILES, "preas", SH_PAYLOAD),
    "gcc-compiler-path": ("COMPILER_PATH=v gcc -c t.c", COMPILES, "v/as", SH_PAYLOAD),
}


@pytest.mark.parametrize("case", list(ENTRY_VARIABLES))
def test_v_an_entrys_own_compiler_variables(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``, ``Bash(mkdir *)``: ``cp src/x <file>`` is
    denied."""
    needs("bash", "make", "gcc")
    entry, makefile, target, text = ENTRY_VARIABLES[case]
    calls = [*(["mkdir -p preinc"] if target.startswith("preinc/") else []),
             f"cp src/x {target}", entry]
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)", "Bash(mkdir *)"],
                         {"Makefile": makefile, "t.c": "#include <stdio.h>\nint main(void) "
                          "{ return 0; }\n", "v/keep": "", "inc/keep": "", "src/x": text},
                         calls, executable=("src/x",))
    assert denied is not None, "the hook allows every call, and gcc runs the payload"


# (every row open at af16ceb, pre-existing at 7b9db0b: closed by s54-gfix3, an entry's own
# toolchain values and a compiler's prefixes on its command line read by flagpaths)


#: Each case (a cost): the session's variable whose name ends in FLAGS but that no Makefile
#: hands gcc (Go's, cargo's), the plan's entry, the everyday write into a folder its value's
#: word names (none a program reads as a file by that word).
OTHER_FLAGS = {
    "goflags-vendor": ("GOFLAGS", "-mod=vendor", "go test ./...", "cp notes.txt vendor/notes.txt"),
    "goflags-tags": ("GOFLAGS", "-tags=integration", "go test ./...",
                     "cp notes.txt integration/notes.txt"),
    "rustflags-target-cpu": ("RUSTFLAGS", "-C target-cpu=native", "cargo test",
                             "cp notes.txt native/notes.txt"),
}


@pytest.mark.parametrize("case", list(OTHER_FLAGS))
def test_c_another_programs_flags_keep_writes(tmp_path: Path, case: str) -> None:
    """The session's ``<NAME>=<value>``; plan ``Bash(<entry>)``, ``Bash(cp *)``: the write is
    allowed (as it was at 7b9db0b)."""
    needs("bash")
    name, value, entry, call = OTHER_FLAGS[case]
    project = hooked_project(tmp_path, [f"Bash({entry})", "Bash(cp *)"])
    for folder in ("vendor", "integration", "native"):
        (project / folder).mkdir()
    env = {**home_env(tmp_path / "home"), name: value}
    assert first_denied(project, [call], env) is None, "denied"




#: Each case: the plan's entry, the project's files, the bash text making the folders beside
#: the project, the write. The runner collects a folder beside the project that its settings
#: name (bun 1.4.5's bunfig.toml ``[test] root``; a package.json script running ``node --test
#: ../ext/``), and meets the written file there through a link (the proof runs it).
SETTINGS_BESIDE = {
    "bunfig-test-root": ("bun test", {"bunfig.toml": '[test]\nroot = "../ext"\n',
                                      "a.test.js": "0\n"},
                         "mkdir -p ../ext ../other && ln -s ../other/b.js ../ext/a.test.js",
                         "cp src/mk ../other/b.js"),
    "npm-script-test-folder": ("npm test", {"package.json": '{"name":"p","scripts":'
                                            '{"test":"node --test ../ext/"}}'},
                               "mkdir -p ../ext/test ../other && ln -s ../../other ../ext/test/o",
                               "cp src/mk ../other/x.js"),
}


@pytest.mark.parametrize("case", list(SETTINGS_BESIDE))
def test_t_a_runners_settings_name_a_folder_beside(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: the write is denied."""
    needs("bash", "node", "npm")
    if not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    entry, files, setup, write = SETTINGS_BESIDE[case]
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                         {**files, "src/mk": JS_PAYLOAD}, [write, entry],
                         {"PATH": f"{BUN}:{os.environ['PATH']}"}, setup=setup)
    assert denied is not None, "the hook allows every call, and the runner runs the payload"


# (test_t_a_runners_settings_name_a_folder_beside open at af16ceb: closed by s55-sfix,
# testroots: bunfig's [test] root, a package.json script's folder read)


#: A library standing for libm.so.6 whose constructor runs the payload (built by the setup).
LIBRARY_PAYLOAD = ('#include <stdlib.h>\n__attribute__((constructor)) static void zz(void) '
                   '{ system("touch zz"); }\ndouble cos(double x) { return x; }\n')
#: A Makefile building a program that calls libm's cos, and running it.
LINKS_LIBM = "test: t.c\n\t$(CC) t.c -o t -lm\n\t./t\n"


#: Each case: the plan's entry, the session's variables, the Makefile. ld writes LD_RUN_PATH as
#: the program's RUNPATH when no -rpath is given; a Makefile's link line takes LIBS.
RUN_PATHS = {
    "session-ld-run-path": ("make test", {"LD_RUN_PATH": "v"}, LINKS_LIBM),
    "entry-ld-run-path": ("LD_RUN_PATH=v make test", {}, LINKS_LIBM),
    "session-libs-run-path": ("make test", {"LIBS": "-Wl,-rpath,v"},
                              "test: t.c\n\t$(CC) t.c -o t -lm $(LIBS)\n\t./t\n"),
}


@pytest.mark.parametrize("case", list(RUN_PATHS))
def test_v_the_linkers_run_path(tmp_path: Path, case: str) -> None:
    """The session's (or the entry's) run path ``v``; plan ``Bash(<entry>)``, ``Bash(cp *)``:
    ``cp src/lib v/libm.so.6`` is denied (the built program loads it, and its constructor
    runs)."""
    needs("bash", "make", "gcc")
    entry, extra, makefile = RUN_PATHS[case]
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                         {"Makefile": makefile, "pl.c": LIBRARY_PAYLOAD, "v/keep": "",
                          "t.c": "#include <math.h>\nint main(int c, char **v) "
                          "{ return (int)cos(c) - 1; }\n"},
                         ["cp src/lib v/libm.so.6", entry], extra,
                         setup="gcc -shared -fPIC -o src/lib pl.c -Wl,-soname,libm.so.6")
    assert denied is not None, "the hook allows every call, and the built program runs it"


# (session-ld-run-path open at af16ceb: closed by s53-gfix2 bc6c361)
# (entry-ld-run-path, session-libs-run-path open at bc6c361: closed by s54-gfix3)


#: CMake code running the payload where it lies (a toolchain file, a package's config file).
CMAKE_PAYLOAD = "execute_process(COMMAND touch ${CMAKE_CURRENT_LIST_DIR}/zz)\n"
#: Each case: the session's variable and value, the plan's entry, the project's files, the
#: calls. pkg-config 1.8 reads ``<folder>/foo.pc`` of PKG_CONFIG_PATH's bare folder (its
#: Cflags ``-Bv/`` then reach gcc), cmake 3.25 runs CMAKE_TOOLCHAIN_FILE's bare file and
#: find_package's config file below CMAKE_PREFIX_PATH's bare folder (the proof runs them).
BUILD_TOOL_VARIABLES = {
    "pkg-config-path": ("PKG_CONFIG_PATH", "pc", "make test",
                        {"Makefile": "test: t.c\n\t$(CC) $$(pkg-config --cflags foo) -c t.c "
                         "-o t.o\n", "t.c": "int x;\n", "pc/keep": "", "v/keep": "",
                         "src/pc": "Name: foo\nDescription: f\nVersion: 1\nCflags: -Bv/\n"},
                        ["cp src/pc pc/foo.pc", "cp src/x v/as", "make test"]),
    "cmake-toolchain-file": ("CMAKE_TOOLCHAIN_FILE", "tc", "cmake -S . -B build",
                             {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\n"
                              "project(p NONE)\n"},
                             ["cp src/cm tc", "cmake -S . -B build"]),
    "cmake-prefix-path": ("CMAKE_PREFIX_PATH", "deps", "cmake -S . -B build",
                          {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\n"
                           "project(p NONE)\nfind_package(Foo CONFIG)\n", "deps/keep": ""},
                          ["cp src/cm deps/FooConfig.cmake", "cmake -S . -B build"]),
    # find_package's other places: <Package>_DIR, <Package>_ROOT (policy CMP0074, 3.12),
    # CMAKE_APPBUNDLE_PATH
    "package-dir": ("Foo_DIR", "deps", "cmake -S . -B build",
                    {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\n"
                     "project(p NONE)\nfind_package(Foo CONFIG)\n", "deps/keep": ""},
                    ["cp src/cm deps/FooConfig.cmake", "cmake -S . -B build"]),
    "package-root": ("Foo_ROOT", "deps", "cmake -S . -B build",
                     {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.12)\n"
                      "project(p NONE)\nfind_package(Foo CONFIG)\n", "deps/keep": ""},
                     ["cp src/cm deps/FooConfig.cmake", "cmake -S . -B build"]),
    "cmake-appbundle-path": ("CMAKE_APPBUNDLE_PATH", "deps", "cmake -S . -B build",
                             {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\n"
                              "project(p NONE)\nfind_package(Foo CONFIG)\n", "deps/keep": ""},
                             ["cp src/cm deps/FooConfig.cmake", "cmake -S . -B build"]),
}


@pytest.mark.parametrize("case", list(BUILD_TOOL_VARIABLES))
def test_v_a_build_tools_variables(tmp_path: Path, case: str) -> None:
    """The session's ``<NAME>=<value>``; plan ``Bash(<entry>)``, ``Bash(cp *)``: a call is
    denied."""
    needs("bash", "make", "gcc", "pkg-config", "cmake")
    name, value, entry, files, calls = BUILD_TOOL_VARIABLES[case]
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                         {**files, "src/x": SH_PAYLOAD, "src/cm": CMAKE_PAYLOAD}, calls,
                         {name: value}, executable=("src/x",))
    assert denied is not None, "the hook allows every call, and the build tool runs it"


# (pkg-config-path, cmake-toolchain-file, cmake-prefix-path open at af16ceb: closed by
# s53-gfix2 bc6c361)
# (package-dir, package-root, cmake-appbundle-path: held on session 53's merged main)


#: Running a command as an unprivileged user (root lists every folder whatever its mode).
AS_NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def _others_may_read(folder: Path) -> bool:
    """Whether a user other than the owner may read ``folder`` (and pass each folder above)."""
    import stat

    return bool(folder.stat().st_mode & stat.S_IROTH) and all(
        above.stat().st_mode & stat.S_IXOTH for above in (folder, *folder.parents))


def _as_nobody(project: Path, calls: list[str], hook: str | None) -> str | None:
    """Runs ``calls`` under bash as ``nobody`` in ``project`` (asking ``hook`` first for each,
    as ``nobody`` too, when given): the first call denied, or None."""
    if hook is not None and not all(_others_may_read(Path(f)) for f in (ROOT, SITE)):
        pytest.skip("nobody may not read the installation the hook imports (CI's environment "
                    "is in a private temporary folder): its hook would fail, denying all")
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(project.parent / "home")}
    for call in calls:
        if hook is not None:
            said = subprocess.run([*AS_NOBODY, "/bin/sh", "-c", hook], input=payload(call, project),
                                  cwd=project, env=env, capture_output=True, timeout=60,
                                  check=False)
            if said.returncode == 2:
                return call
        subprocess.run([*AS_NOBODY, "bash", "-c", call], cwd=project, env=env,
                       capture_output=True, timeout=120, check=False)
    return None


def test_t_a_folder_the_walk_cannot_list() -> None:
    """Plan ``Bash(node --test)``, ``Bash(cp *)``, ``Bash(chmod *)``, the project's link
    ``lib/test -> ../shared`` (R10, held), the session a user's: ``chmod 000 lib`` hides the
    link from the walk (testlinks._listing: PermissionError, not listed), ``cp src/mk
    shared/x.js``, ``chmod 755 lib``, ``node --test``: one is denied (node runs shared/x.js)."""
    needs("bash", "node", "setpriv", "/usr/bin/python3")
    if os.geteuid() != 0:
        pytest.skip("runs the session as nobody: needs root")
    calls = ["chmod 000 lib", "cp src/mk shared/x.js", "chmod 755 lib", "node --test"]
    found = {}
    top = Path(tempfile.mkdtemp(prefix="s53-greview2-"))  # (pytest's folders are root's alone)
    top.chmod(0o755)
    try:
        for side in ("proof", "run"):
            found[side] = _nobody_side(top / side, calls, side)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    assert found["run"] is not None, "the hook allows every call, and node's runner runs it"


def _nobody_side(folder: Path, calls: list[str], side: str) -> str | None:
    """One side of ``test_t_a_folder_the_walk_cannot_list`` in ``folder``: the proof (runs the
    calls, asserts the payload ran) or the run (asks the hook first: the call it denies)."""
    folder.mkdir()
    project = hooked_project(folder, ["Bash(node --test)", "Bash(cp *)", "Bash(chmod *)"])
    for name in ("lib", "shared", "test"):
        (project / name).mkdir(exist_ok=True)
    (project / "test" / "a.test.js").write_text("0\n")
    (project / "src" / "mk").write_text(JS_PAYLOAD)
    os.symlink("../shared", project / "lib" / "test")
    (folder / "home").mkdir()
    subprocess.run(["chown", "-R", "nobody:nogroup", str(folder)], check=True)
    folder.chmod(0o777)
    # the printed hook, its package read by the system's python (nobody cannot enter /root)
    rest = _settings_hook(project).split(" -I -c 'from", 1)[1]
    hook = (f"/usr/bin/python3 -I -c 'import sys; sys.path[:0] = [\"{ROOT}\", \"{SITE}\"]; "
            f"from{rest}")
    denied = _as_nobody(project, calls, hook if side == "run" else None)
    if side == "proof":
        assert any(project.rglob("zz")), "bash ran no payload"
    return denied




def test_c_a_sessions_origin_run_path_keeps_make(tmp_path: Path) -> None:
    """The session's ``LDFLAGS='-Wl,-rpath,$ORIGIN/../lib'`` (the linker's own ``$ORIGIN``, the
    program's folder); plan ``Bash(make test)``: ``make test`` is allowed (as at 7b9db0b)."""
    needs("bash", "make")
    project = hooked_project(tmp_path, ["Bash(make test)"])
    (project / "Makefile").write_text("test:\n\t@echo ok\n")
    env = {**home_env(tmp_path / "home"), "LDFLAGS": "-Wl,-rpath,$ORIGIN/../lib"}
    assert first_denied(project, ["make test"], env) is None, "the hook denies make test"


OPEN.add("test_c_a_sessions_origin_run_path_keeps_make",
         "cost kept (s54-gfix3; s56-gfix2): flagpaths refuses every call of a session whose "
         "toolchain variable holds a `$`. make's reading is computable where no makefile sets O "
         "(`$O` empty: `RIGIN/../lib`), but make exports the value unchanged to its recipes, "
         "and a program reading the environment there (a recipe's `$$LDFLAGS`, setuptools, "
         "cmake, meson) hands ld `$ORIGIN` itself: the built program's folder, which no rule "
         "computes (proved: tests/gate/test_s56_gfix2.py "
         "test_a_the_linkers_origin_through_the_environment, ./t loads ../lib/libm.so.6)")


def test_c_a_folder_a_user_cannot_list_keeps_writes() -> None:
    """The session a user's (nobody), the project holding a folder only root may list (a
    database's data folder a container made: ``pgdata``, mode 700); plan ``Bash(node --test)``,
    ``Bash(cp *)``: ``cp notes.txt notes2.txt`` is allowed (node's runner cannot list it
    either: it meets nothing there)."""
    needs("bash", "setpriv", "/usr/bin/python3")
    if os.geteuid() != 0:
        pytest.skip("runs the session as nobody: needs root")
    top = Path(tempfile.mkdtemp(prefix="s53-greview2-"))
    top.chmod(0o755)
    try:
        project = hooked_project(top, ["Bash(node --test)", "Bash(cp *)"])
        (top / "home").mkdir()
        subprocess.run(["chown", "-R", "nobody:nogroup", str(top)], check=True)
        (project / "pgdata").mkdir(mode=0o700)  # (root's)
        (project / "pgdata").chmod(0o700)
        rest = _settings_hook(project).split(" -I -c 'from", 1)[1]
        hook = (f"/usr/bin/python3 -I -c 'import sys; sys.path[:0] = [\"{ROOT}\", \"{SITE}\"]; "
                f"from{rest}")
        denied = _as_nobody(project, ["cp notes.txt notes2.txt"], hook)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    assert denied is None, "the hook denies the write"


# (test_c_a_folder_a_user_cannot_list_keeps_writes, a cost at 6b5b7e4: eased by s55-sfix, a
# folder another user owns that this one may not list is listed as none: testlinks._not_ours)
