"""Session 54 review s54-greview3 of s54-gfix3 (the values that reach gcc, ld and make, read
by one function wherever they are set; quoted words read as literal). Each hole is proved by
real bash and the real program (GNU make 4.3, gcc 12, ld 2.40, the built program) in a scratch
copy first (``bash_review.proved_case``), then the printed hook is asked call by call: the hook
allowing every call is the finding (a strict-xfail row in ``OPEN``); a case the change holds is
a plain test pinning it."""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_review import (
    LeftOpen,
    first_denied,
    home_env,
    hook_allows,
    hooked_project,
    needs,
    proved_case,
)

#: Real bash, make, gcc, ld and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open here, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

#: An executable running the payload, as gcc runs its assembler (``cp`` keeps the mode).
SH_PAYLOAD = "#!/bin/sh\ntouch zz\n"
#: A header shadowing ``<stdio.h>`` whose constructor runs the payload in the built program.
HEADER_PAYLOAD = ('#include_next <stdio.h>\n__attribute__((constructor)) static void zz(void)'
                  ' { int system(const char *); system("touch zz"); }\n')
#: A library standing for libm (``cos``) whose constructor runs the payload; the setups build
#: it as ``src/lib`` (a shared ``libm.so.6``) or ``src/liba`` (an archive ``libm.a``).
LIBRARY_PAYLOAD = ('#include <stdlib.h>\n__attribute__((constructor)) static void zz(void) '
                   '{ system("touch zz"); }\ndouble cos(double x) { return x; }\n')
SHARED = "gcc -shared -fPIC -o src/lib pl.c -Wl,-soname,libm.so.6"
ARCHIVE = "gcc -c -o pl.o pl.c && ar rcs src/liba pl.o"
#: A specs file gcc reads by itself (``specs`` in a folder it searches), loading the plugin
#: ``./p.so`` into cc1.
SPECS = "*cc1:\n+ -iplugindir=. -fplugin=p\n"
#: A program including ``<stdio.h>``; one calling libm's ``cos``.
PROGRAM = "#include <stdio.h>\nint main(void) { return 0; }\n"
USES_LIBM = "#include <math.h>\nint main(int c, char **v) { return (int)cos(c) - 1; }\n"

#: A Makefile compiling as most do (make takes each variable of its environment as its own).
COMPILES = "test: t.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -c t.c -o t.o\n"
#: One building its test program and running it; one linking libm too.
BUILDS = "test: t.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) t.c -o t $(LDFLAGS)\n\t./t\n"
LINKS_LIBM = "test: t.c\n\t$(CC) $(CFLAGS) t.c -o t $(LDFLAGS) -lm\n\t./t\n"


# --- D: the call's own folder, named in a toolchain variable -----------------------------------

#: Each case: the session's variable and value, the Makefile, the program, the calls, the
#: setup. The value names the folder the call runs in (``.``, ``./``, its absolute path, or
#: the empty element of a colon list, which gcc, cpp and ld.so read as ``.``): gcc runs
#: ``./as``, cpp reads ``./stdio.h`` for ``<stdio.h>``, ld links ``./libm.a``, the built
#: program loads ``./libm.so.6`` (the proof runs them). envpaths drops a folder a call runs in
#: ("guarded by what it holds"), and nothing reads what gcc takes from it.
CALLS_FOLDER = {
    "compiler-path-empty-element": ("COMPILER_PATH", "/nonexist:", COMPILES, PROGRAM,
                                    ["cp src/x as", "make test"], ""),
    "compiler-path-dot": ("COMPILER_PATH", ".", COMPILES, PROGRAM,
                          ["cp src/x as", "make test"], ""),
    "cflags-prefix-dot-slash": ("CFLAGS", "-B./", COMPILES, PROGRAM,
                                ["cp src/x as", "make test"], ""),
    "cppflags-include-dot": ("CPPFLAGS", "-I.", BUILDS, PROGRAM,
                             ["cp src/h stdio.h", "make test"], ""),
    "cflags-include-dot-slash": ("CFLAGS", "-I./", BUILDS, PROGRAM,
                                 ["cp src/h stdio.h", "make test"], ""),
    "cflags-include-the-project": ("CFLAGS", "-I{P}", BUILDS, PROGRAM,
                                   ["cp src/h stdio.h", "make test"], ""),
    "cflags-isystem-dot": ("CFLAGS", "-isystem .", BUILDS, PROGRAM,
                           ["cp src/h stdio.h", "make test"], ""),
    "cpath-empty-element": ("CPATH", ":/nonexist", BUILDS, PROGRAM,
                            ["cp src/h stdio.h", "make test"], ""),
    "cpath-dot": ("CPATH", ".", BUILDS, PROGRAM, ["cp src/h stdio.h", "make test"], ""),
    "c-include-path-empty-element": ("C_INCLUDE_PATH", "/nonexist:", BUILDS, PROGRAM,
                                     ["cp src/h stdio.h", "make test"], ""),
    "ldflags-library-folder-dot": ("LDFLAGS", "-L.", LINKS_LIBM, USES_LIBM,
                                   ["cp src/liba libm.a", "make test"], ARCHIVE),
    "ldflags-run-path-dot": ("LDFLAGS", "-Wl,-rpath,.", LINKS_LIBM, USES_LIBM,
                             ["cp src/lib libm.so.6", "make test"], SHARED),
    "ld-run-path-dot": ("LD_RUN_PATH", ".", LINKS_LIBM, USES_LIBM,
                        ["cp src/lib libm.so.6", "make test"], SHARED),
    "ld-run-path-empty-element": ("LD_RUN_PATH", ":/nonexist", LINKS_LIBM, USES_LIBM,
                                  ["cp src/lib libm.so.6", "make test"], SHARED),
    # cc1 loads `<-iplugindir>/p.so` for `-fplugin=p` (its constructor runs at dlopen); gcc
    # reads `specs` from LIBRARY_PATH's folders (an empty element: `./`), here naming that plugin
    "cflags-plugin-folder-dot": ("CFLAGS", "-iplugindir=. -fplugin=p", COMPILES, PROGRAM,
                                 ["cp src/lib p.so", "make test"], SHARED),
    "library-path-empty-element-specs": ("LIBRARY_PATH", "/nonexist:", COMPILES, PROGRAM,
                                         ["cp src/lib p.so", "cp src/specs specs",
                                          "make test"], SHARED),
    # a folder above the call's (envpaths drops them too): ../stdio.h, ../as, ../libm.a
    "cflags-include-parent": ("CFLAGS", "-I..", BUILDS, PROGRAM,
                              ["cp src/h ../stdio.h", "make test"], ""),
    "cflags-prefix-parent": ("CFLAGS", "-B../", COMPILES, PROGRAM,
                             ["cp src/x ../as", "make test"], ""),
    "ldflags-library-folder-parent": ("LDFLAGS", "-L..", LINKS_LIBM, USES_LIBM,
                                      ["cp src/liba ../libm.a", "make test"], ARCHIVE),
    # held at 371c13f: the loader's own variable (a library's name in a folder holding one)
    "held-ld-library-path-empty-element": ("LD_LIBRARY_PATH", ":/nonexist", LINKS_LIBM,
                                           USES_LIBM, ["cp src/lib libm.so.6", "make test"],
                                           SHARED),
}


@pytest.mark.parametrize("case", list(CALLS_FOLDER))
def test_d_the_calls_folder_in_a_sessions_variable(tmp_path: Path, case: str) -> None:
    """The session's ``<NAME>=<value>``; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir
    *)``: a call is denied."""
    needs("bash", "make", "gcc", "ar")
    name, value, makefile, program, calls, setup = CALLS_FOLDER[case]
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)"],
                         {"Makefile": makefile, "t.c": program, "src/x": SH_PAYLOAD,
                          "src/h": HEADER_PAYLOAD, "pl.c": LIBRARY_PAYLOAD,
                          "src/specs": SPECS}, calls, {name: value}, setup=setup,
                         executable=("src/x",))
    assert denied is not None, "the hook allows every call, and make's gcc runs the payload"


# (open at 371c13f/2763873, closed by s55-gfix2: the cases pin the fix)


#: Each case: the plan's entry (beside ``Bash(cp *)``), the Makefile, the program, the calls,
#: the setup. The entry names the call's folder itself (a prefix assignment, make's definition,
#: gcc's option): gcc runs ./as, cpp reads ./stdio.h, ld links ./libm.a, the built program
#: loads ./libm.so.6 (the proof runs them).
ENTRY_CALLS_FOLDER = {
    "gcc-prefix-dot-slash": ("gcc -B./ -c t.c", COMPILES, PROGRAM, ["cp src/x as"], ""),
    "compiler-path-empty-assignment": ("COMPILER_PATH=: make test", COMPILES, PROGRAM,
                                       ["cp src/x as"], ""),
    "cpath-dot-assignment": ("CPATH=. make test", BUILDS, PROGRAM, ["cp src/h stdio.h"], ""),
    "make-definition-include-dot": ("make test CPPFLAGS=-I.", BUILDS, PROGRAM,
                                    ["cp src/h stdio.h"], ""),
    "make-definition-library-folder-dot": ("make test LDFLAGS=-L.", LINKS_LIBM, USES_LIBM,
                                           ["cp src/liba libm.a"], ARCHIVE),
    "ld-run-path-dot-assignment": ("LD_RUN_PATH=. make test", LINKS_LIBM, USES_LIBM,
                                   ["cp src/lib libm.so.6"], SHARED),
}


@pytest.mark.parametrize("case", list(ENTRY_CALLS_FOLDER))
def test_d_the_calls_folder_in_an_entrys_variable(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: the write or the entry is denied."""
    needs("bash", "make", "gcc", "ar")
    entry, makefile, program, calls, setup = ENTRY_CALLS_FOLDER[case]
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                         {"Makefile": makefile, "t.c": program, "src/x": SH_PAYLOAD,
                          "src/h": HEADER_PAYLOAD, "pl.c": LIBRARY_PAYLOAD}, [*calls, entry],
                         setup=setup, executable=("src/x",))
    assert denied is not None, "the hook allows every call, and gcc runs the payload"


# (open at 371c13f/2763873, closed by s55-gfix2: the cases pin the fix)


# --- R: a relative value read from the folder a recipe runs in ---------------------------------

#: A Makefile handing its work to a sub-make in ``sub`` (kbuild's, automake's recursive make),
#: and sub-makes compiling, building and running (``-lm``) their program there.
SUBMAKE = "test:\n\t$(MAKE) -C sub\n"
SUB_COMPILES = "all: t.c\n\t$(CC) $(CFLAGS) -c t.c -o t.o\n"
SUB_BUILDS = "all: t.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) t.c -o t $(LDFLAGS)\n\t./t\n"
SUB_LINKS_LIBM = "all: t.c\n\t$(CC) $(CFLAGS) t.c -o t $(LDFLAGS) -lm\n\t./t\n"

#: Each case: the session's variables, the top Makefile, the sub-make's, the program, the calls,
#: the setup. A relative folder in a value is read by gcc, cpp, ld and the loader from the
#: folder the recipe runs in (``sub``), not the call's or the project's (envpaths reads it
#: from those two): ``sub/inc/stdio.h``, ``sub/v/as``, ``sub/v/libm.so.6`` (the proof runs
#: them).
RECIPES_FOLDER = {
    "submake-include-folder": ({"CFLAGS": "-Iinc"}, SUBMAKE, SUB_BUILDS, PROGRAM,
                               ["mkdir -p sub/inc", "cp src/h sub/inc/stdio.h"], ""),
    "submake-prefix-folder": ({"CFLAGS": "-Bv/"}, SUBMAKE, SUB_COMPILES, PROGRAM,
                              ["mkdir -p sub/v", "cp src/x sub/v/as"], ""),
    "submake-cpath": ({"CPATH": "inc"}, SUBMAKE, SUB_BUILDS, PROGRAM,
                      ["mkdir -p sub/inc", "cp src/h sub/inc/stdio.h"], ""),
    "submake-compiler-path": ({"COMPILER_PATH": "v"}, SUBMAKE, SUB_COMPILES, PROGRAM,
                              ["mkdir -p sub/v", "cp src/x sub/v/as"], ""),
    "submake-run-path": ({"LDFLAGS": "-Wl,-rpath,v"}, SUBMAKE, SUB_LINKS_LIBM, USES_LIBM,
                         ["mkdir -p sub/v", "cp src/lib sub/v/libm.so.6"], SHARED),
    "submake-ld-library-path": ({"LD_LIBRARY_PATH": "v"}, SUBMAKE, SUB_LINKS_LIBM, USES_LIBM,
                                ["mkdir -p sub/v", "cp src/lib sub/v/libm.so.6"], SHARED),
    # make reads MAKEFILES' files from its own folder first: the sub-make from sub/
    "held-submake-makefiles": ({"MAKEFILES": "common.mk"}, SUBMAKE, SUB_COMPILES, PROGRAM,
                               ["cp src/mk sub/common.mk"], ""),
    "recipe-cd-include-folder": ({"CFLAGS": "-Iinc"},
                                 "test:\n\tcd sub && $(CC) $(CFLAGS) t.c -o t && ./t\n", "",
                                 PROGRAM, ["mkdir -p sub/inc", "cp src/h sub/inc/stdio.h"], ""),
}


@pytest.mark.parametrize("case", list(RECIPES_FOLDER))
def test_r_a_relative_value_read_where_a_recipe_runs(tmp_path: Path, case: str) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``:
    a call is denied."""
    needs("bash", "make", "gcc")
    extra, top, sub, program, calls, setup = RECIPES_FOLDER[case]
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)"],
                         {"Makefile": top, "sub/Makefile": sub, "sub/t.c": program,
                          "t.c": program, "src/x": SH_PAYLOAD, "src/h": HEADER_PAYLOAD,
                          "pl.c": LIBRARY_PAYLOAD, "inc/keep": "", "v/keep": "",
                          "src/mk": "X := $(shell touch zz)\n"},
                         [*calls, "make test"], extra, setup=setup, executable=("src/x",))
    assert denied is not None, "the hook allows every call, and the sub-make runs the payload"


# --- G: the plan's own compiler command line -----------------------------------------------------

#: A plugin (``src/lib`` built from ``pl.c``: its constructor runs at dlopen, before cc1 or ld
#: check it) and a specs file naming it.
PLUGIN = "gcc -shared -fPIC -o src/lib pl.c"
SPECS_PLUGIN = "*cc1:\n+ -iplugindir=. -fplugin=p\n"

#: Each case: the plan's entry (beside ``Bash(cp *)``, ``Bash(mkdir *)``), the calls before
#: it. gcc 12 runs the program ``-wrapper`` names (``./w cc1 …``), cc1 loads ``-fplugin=p``
#: from ``-iplugindir``'s folder (``pl/p.so``), gcc reads ``-specs=``'s file (one naming
#: ``./p.so``), ld loads ``-Wl,-plugin``'s library; the POSIX drivers ``c99``, ``c89`` (sh
#: scripts running gcc) and ``cpp`` (gcc -E: ``<prefix>cc1``) take ``-B`` as gcc does; make
#: runs ``$(TOOLPREFIX)gcc`` (xv6's name for kbuild's CROSS_COMPILE) and takes a ``!=``
#: definition's value from the shell (the proof runs each).
COMPILER_LINES = {
    "gcc-wrapper": ("gcc -wrapper ./w -c t.c", ["cp src/x w"]),
    "gcc-plugin-folder": ("gcc -iplugindir=pl -fplugin=p -c t.c",
                          ["mkdir -p pl", "cp src/lib pl/p.so"]),
    "gcc-specs": ("gcc -specs=sp -c t.c", ["cp src/lib p.so", "cp src/specs sp"]),
    "gcc-linker-plugin": ("gcc -Wl,-plugin,./p.so t.c -o t", ["cp src/lib p.so"]),
    "c99-prefix": ("c99 -Bpre -c t.c", ["cp src/x preas"]),
    "c89-prefix": ("c89 -Bpre -c t.c", ["cp src/x preas"]),
    "cpp-prefix": ("cpp -Bpre t.c", ["cp src/x precc1"]),
    "make-toolprefix": ("make test TOOLPREFIX=./x-", ["cp src/x x-gcc"]),
    "make-shell-definition": ("make test 'CFLAGS!=echo LUJwcmU= | base64 -d'",
                              ["cp src/x preas"]),
    "gcc-quoted-prefix": ('gcc -"B"pre -c t.c', ["cp src/x preas"]),
    # ld's plugin handed through -Xlinker pairs (open at a103a47)
    "gcc-xlinker-plugin": ("gcc -Xlinker -plugin -Xlinker ./p.so t.c -o t", ["cp src/lib p.so"]),
    # held at s54-gfix3's working tree (10:30)
    "held-gcc-plugin-path": ("gcc -fplugin=./p.so -c t.c", ["cp src/lib p.so"]),
    "held-make-definition-wrapper": ("make test CFLAGS='-wrapper ./w'", ["cp src/x w"]),
    "held-make-cross-compile": ("make test CROSS_COMPILE=./x-", ["cp src/x x-gcc"]),
    "held-make-append": ("make test CFLAGS+=-Bpre", ["cp src/x preas"]),
    "held-env-prefix": ("env CFLAGS=-Bpre make test", ["cp src/x preas"]),
    "held-set-allexport": ("set -a; CFLAGS=-Bpre; make test", ["cp src/x preas"]),
}
#: The Makefile of the make entries: compiles with CFLAGS, by a prefix of the names.
PREFIXED = ("test: t.c\n\t$(CROSS_COMPILE)$(TOOLPREFIX)gcc $(CFLAGS) -c t.c -o t.o\n")


@pytest.mark.parametrize("case", list(COMPILER_LINES))
def test_g_the_plans_compiler_command_line(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``, ``Bash(mkdir *)``: a call is denied."""
    needs("bash", "make", "gcc", "c99", "c89", "cpp", "base64")
    entry, calls = COMPILER_LINES[case]
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)", "Bash(mkdir *)"],
                         {"Makefile": PREFIXED, "t.c": "int x;\n", "src/x": SH_PAYLOAD,
                          "pl.c": LIBRARY_PAYLOAD, "src/specs": SPECS_PLUGIN},
                         [*calls, entry], setup=PLUGIN, executable=("src/x",))
    assert denied is not None, "the hook allows every call, and gcc runs the payload"


# (open at a103a47, closed by s54-gfix3 e8257f4/b99faff: the cases pin the fix)
# (every row open at 4e28550 closed by s54-gfix3 a103a47: the cases pin the fix)


# --- P: a prefix of the programs' names in the session's variables -------------------------------

#: Each case: the session's variable and value, the Makefile (make runs ``<prefix>gcc``), the
#: file the payload goes to. kbuild's ``CROSS_COMPILE`` ending in ``/`` names a folder: the
#: call's (``./``) or one above it, which envpaths drops (D1's class); xv6's ``TOOLPREFIX``
#: is the same prefix under another name (read by named_paths: ``./x-`` guards ./x-).
PREFIXES = {
    "cross-compile-dot-slash": ("CROSS_COMPILE", "./", "CROSS_COMPILE", "gcc"),
    "cross-compile-parent": ("CROSS_COMPILE", "../", "CROSS_COMPILE", "../gcc"),
    "makeflags-cross-compile-dot-slash": ("MAKEFLAGS", "CROSS_COMPILE=./", "CROSS_COMPILE",
                                          "gcc"),
    "toolprefix": ("TOOLPREFIX", "./x-", "TOOLPREFIX", "x-gcc"),
    # the same folders spelled absolute (open at a103a47)
    "cross-compile-the-project": ("CROSS_COMPILE", "{P}/", "CROSS_COMPILE", "gcc"),
    "cross-compile-the-projects-parent": ("CROSS_COMPILE", "{P}/../", "CROSS_COMPILE",
                                          "../gcc"),
}


@pytest.mark.parametrize("case", list(PREFIXES))
def test_p_a_prefix_of_names_in_a_sessions_variable(tmp_path: Path, case: str) -> None:
    """The session's ``<NAME>=<value>``; plan ``Bash(make test)``, ``Bash(cp *)``: ``cp src/x
    <file>`` or ``make test`` is denied."""
    needs("bash", "make", "gcc")
    name, value, used, target = PREFIXES[case]
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)"],
                         {"Makefile": f"test: t.c\n\t$({used})gcc -c t.c -o t.o\n",
                          "t.c": "int x;\n", "src/x": SH_PAYLOAD},
                         [f"cp src/x {target}", "make test"], {name: value},
                         executable=("src/x",))
    assert denied is not None, "the hook allows every call, and make runs the payload"


# (open at a103a47, closed by s55-gfix2: the cases pin the fix)
# (every row open at 4e28550 closed by s54-gfix3 a103a47: the cases pin the fix)


# --- Q: a command's words as the guard reads them (quoted words, a loop's name) -------------------

#: A Makefile whose ``test`` runs the payload, written by printf through tee.
WRITES_MAKEFILE = "printf 'test:\\n\\ttouch zz\\n' | "
#: Each case: the tee call (after ``WRITES_MAKEFILE``). bash runs tee with every word an
#: operand (``do``, ``else``, ``for`` are plain words there: no loop), writing ``Makefile``;
#: the guard's reading drops a word after `for`/`select` that follows `do`/`else`/`then`/
#: `time` as a loop's variable (``textwords._LOOP_NAME``), so the plan's make reads the new
#: Makefile.
LOOP_LOOKALIKES = {
    "do-for-semicolon": "tee do for Makefile;",
    "else-for-do": "tee else for Makefile do",
    "do-for-newline": "tee do for Makefile\necho",
    "held-plain": "tee Makefile",
    # escaped operators are plain words to bash (open at a103a47)
    "escaped-semicolons": "tee \\; for Makefile in x \\; do",
    "escaped-ampersand": "tee \\& for Makefile in x \\; do",
}


@pytest.mark.parametrize("case", list(LOOP_LOOKALIKES))
def test_q_a_word_read_as_a_loops_name(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(make test)``, ``Bash(tee *)``, ``Bash(printf *)``, ``Bash(echo *)``, the
    project's Makefile: the write of the Makefile is denied."""
    needs("bash", "make")
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(tee *)", "Bash(printf *)",
                                    "Bash(echo *)"],
                         {"Makefile": "test:\n\techo ok\n"},
                         [WRITES_MAKEFILE + LOOP_LOOKALIKES[case], "make test"])
    assert denied is not None, "the hook allows every call, and make runs the payload"


# (open at a103a47, closed by s54-gfix3 e8257f4/b99faff: the cases pin the fix)
# (every row open at 4e28550 closed by s54-gfix3 a103a47: the cases pin the fix)


# --- S: a toolchain value as the recipe's shell reads it -----------------------------------------

#: Each case: the session's variable and value, the Makefile, the file the payload goes to.
#: make pastes the value into a recipe line that ``/bin/sh -c`` runs: the shell removes its
#: quotes and backslashes, so ``-"B"pre``, ``-\\Bpre``, ``'-Bpre'`` reach gcc as ``-Bpre``
#: (gcc runs ./preas), ``-I"inc"`` as ``-Iinc`` (the proof runs them); flagpaths reads the
#: raw value (no ``-B`` at the word's start: no refusal; ``"inc"`` guarded with its quotes).
QUOTED_VALUES = {
    "cflags-quoted-prefix": ("CFLAGS", '-"B"pre', COMPILES, "preas", SH_PAYLOAD),
    "cflags-escaped-prefix": ("CFLAGS", "-\\Bpre", COMPILES, "preas", SH_PAYLOAD),
    "cflags-single-quoted-prefix": ("CFLAGS", "'-Bpre'", COMPILES, "preas", SH_PAYLOAD),
    "cflags-quoted-long-prefix": ("CFLAGS", '--pre""fix=pre', COMPILES, "preas", SH_PAYLOAD),
    "cc-quoted-prefix": ("CC", 'gcc -"B"pre', COMPILES, "preas", SH_PAYLOAD),
    "cppflags-quoted-include-folder": ("CPPFLAGS", '-I"inc"', BUILDS, "inc/stdio.h",
                                       HEADER_PAYLOAD),
    "makeflags-quoted-prefix": ("MAKEFLAGS", 'CFLAGS=-"B"pre', COMPILES, "preas", SH_PAYLOAD),
    # a Makefile whose recipes bash runs (`SHELL := /bin/bash`, common): bash expands a brace
    # list in the value (`-Iinc -Ix`); open at a103a47
    "bash-recipes-brace-list": ("CPPFLAGS", "-I{inc,x}", "SHELL := /bin/bash\n" + BUILDS,
                                "inc/stdio.h", HEADER_PAYLOAD),
}
# (open at a103a47, closed by s54-gfix3 e8257f4/b99faff: the cases pin the fix)


@pytest.mark.parametrize("case", list(QUOTED_VALUES))
def test_s_a_quoted_toolchain_value(tmp_path: Path, case: str) -> None:
    """The session's ``<NAME>=<value>``; plan ``Bash(make test)``, ``Bash(cp *)``: ``cp src/x
    <file>`` or ``make test`` is denied."""
    needs("bash", "make", "gcc")
    name, value, makefile, target, text = QUOTED_VALUES[case]
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)"],
                         {"Makefile": makefile, "t.c": PROGRAM, "inc/keep": "", "src/x": text},
                         [f"cp src/x {target}", "make test"], {name: value},
                         executable=("src/x",))
    assert denied is not None, "the hook allows every call, and make's gcc runs the payload"


# (every row open at 4e28550 closed by s54-gfix3 a103a47: the cases pin the fix)


# --- J: gcc joins two values into a folder --------------------------------------------------------

#: A header whose constructor runs the payload in the program built with it (no
#: ``#include_next``: under a sysroot there is no system ``<stdio.h>`` to go on to).
HEADER_ALONE = ('__attribute__((constructor)) static void zz(void) { int system(const char *);'
                ' system("touch zz"); }\n')
#: A Makefile compiling with the flags, linking without them, running the program.
COMPILES_THEN_LINKS = ("test: t.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) -c t.c -o t.o\n\t$(CC) t.o -o t"
                       "\n\t./t\n")
#: Each case: the session's variable and value, the folder of the header cc1 reads for
#: ``<stdio.h>``. ``-Wp,`` hands cc1 its ``-iprefix pre`` and ``-iwithprefixbefore inc``
#: (``preinc/``) inside one word, which flagpaths' prefix check (a word starting with
#: ``-iprefix``) passes by; an include folder starting with ``=`` is the sysroot joined to the
#: rest (``--sysroot=s -I=inc``: ``sinc/``; gcc 12's manual: "the = is replaced by the
#: sysroot prefix") — the words guarded are ``pre``, ``inc``, ``s`` (the proof runs them).
JOINED = {
    "wp-include-prefix": ("CPPFLAGS", "-Wp,-iprefix,pre,-iwithprefixbefore,inc", "preinc"),
    "sysroot-equals-include": ("CPPFLAGS", "--sysroot=s -I=inc", "sinc"),
    "sysroot-equals-isystem": ("CFLAGS", "--sysroot=s -isystem =inc", "sinc"),
    "isysroot-equals-include": ("CPPFLAGS", "-isysroot s -I=inc", "sinc"),
}


@pytest.mark.parametrize("case", list(JOINED))
def test_j_a_folder_gcc_joins(tmp_path: Path, case: str) -> None:
    """The session's ``<NAME>=<value>``; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir
    *)``: a call is denied."""
    needs("bash", "make", "gcc")
    name, value, folder = JOINED[case]
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)"],
                         {"Makefile": COMPILES_THEN_LINKS, "t.c": PROGRAM,
                          "src/h": HEADER_ALONE},
                         [f"mkdir -p {folder}", f"cp src/h {folder}/stdio.h", "make test"],
                         {name: value})
    assert denied is not None, "the hook allows every call, and the built program runs it"


# (every row open at 4e28550 closed by s54-gfix3 a103a47: the cases pin the fix)


# --- C: a command line a variable names (s47-greview2 E1's rule) --------------------------------

#: ssh settings whose ProxyCommand runs the payload (ssh runs it before it connects: no
#: network needed).
SSH_SETTINGS = "Host *\n  ProxyCommand touch zz\n"
#: Each case: the session's GIT_SSH_COMMAND. ssh takes ``-F``'s file attached (``-Fsshcfg``),
#: also after other flags in a cluster (``-qFsshcfg``): getopt's reading, as ``-F sshcfg``.
SSH_COMMANDS = {
    "settings-attached": "ssh -Fsshcfg",
    "settings-in-a-cluster": "ssh -qFsshcfg",
    "held-settings-apart": "ssh -F sshcfg",
    # an option whose value is a command line ssh runs (`sh x` runs ./x)
    "proxy-command-option": 'ssh -o "ProxyCommand=sh sshcfg"',
    "proxy-command-attached": "ssh -oProxyCommand='bash sshcfg'",
}


@pytest.mark.parametrize("case", list(SSH_COMMANDS))
def test_c_an_option_attached_in_a_variables_command(tmp_path: Path, case: str) -> None:
    """The session's ``GIT_SSH_COMMAND``, the project's remote over ssh; plan ``Bash(git
    fetch)``, ``Bash(cp *)``: ``cp src/cfg sshcfg`` or ``git fetch`` is denied."""
    needs("bash", "git", "ssh")
    denied = proved_case(tmp_path, ["Bash(git fetch)", "Bash(cp *)"],
                         {"src/cfg": SSH_SETTINGS if "Proxy" not in SSH_COMMANDS[case]
                          else "touch zz\n"}, ["cp src/cfg sshcfg", "git fetch"],
                         {"GIT_SSH_COMMAND": SSH_COMMANDS[case]},
                         setup="git remote add origin ssh://example.invalid/x.git")
    assert denied is not None, "the hook allows every call, and ssh runs the ProxyCommand"


# (every row open at 4e28550 closed by s54-gfix3 a103a47: the cases pin the fix)


#: vim settings running the payload (``:silent !touch zz``), then quitting.
VIM_SETTINGS = "silent !touch zz\nqa!\n"
#: Each case: the session's variable and value (the editor ``git commit`` runs): vim runs
#: an Ex command given with ``-c``, ``+``, ``--cmd``, here ``:source vrc``: the file is a word
#: inside one of the command line's words, after a blank.
EDITOR_COMMANDS = {
    "editor-c-source": ("EDITOR", "vim -c 'so vrc'"),
    "editor-plus-source": ("EDITOR", "vim +'source vrc'"),
    "editor-cmd-source": ("EDITOR", "vim --cmd 'so vrc'"),
    "visual-c-source": ("VISUAL", "vim -c 'so vrc'"),
    "git-editor-c-source": ("GIT_EDITOR", "vim -c 'so vrc'"),
    "held-editor-settings-file": ("EDITOR", "vim -u vrc"),
    "held-editor-source-option": ("EDITOR", "vim -S vrc"),
}


@pytest.mark.parametrize("case", list(EDITOR_COMMANDS))
def test_c_a_file_inside_an_editors_command(tmp_path: Path, case: str) -> None:
    """The session's editor; plan ``Bash(git commit --allow-empty)``, ``Bash(cp *)``: ``cp
    src/v vrc`` or the commit is denied."""
    needs("bash", "git", "vim")
    name, value = EDITOR_COMMANDS[case]
    denied = proved_case(tmp_path, ["Bash(git commit --allow-empty)", "Bash(cp *)"],
                         {"src/v": VIM_SETTINGS}, ["cp src/v vrc", "git commit --allow-empty"],
                         {name: value}, setup="git config user.email a@b && git config "
                         "user.name a")
    assert denied is not None, "the hook allows every call, and vim runs the payload"


# (every row open at 4e28550 closed by s54-gfix3 a103a47: the cases pin the fix)


# --- T: a tilde no one expands ------------------------------------------------------------------

#: Each case: the session's variable and value, the Makefile, the folder (``./~/…``) and the
#: file the payload goes to. gcc reads COMPILER_PATH as it is, and the recipe's shell expands
#: no ``~`` inside a word (``-I~/inc``: only at a word's start or after an assignment's ``=``/
#: ``:``), so gcc reads the folder ``~`` in the recipe's folder; the gate reads the home's.
TILDES = {
    "cflags-include-tilde-attached": ("CFLAGS", "-I~/inc", BUILDS, "./~/inc", "stdio.h",
                                      HEADER_PAYLOAD),
    "compiler-path-tilde": ("COMPILER_PATH", "~/v", COMPILES, "./~/v", "as", SH_PAYLOAD),
    "cpath-tilde": ("CPATH", "~/inc", BUILDS, "./~/inc", "stdio.h", HEADER_PAYLOAD),
}


@pytest.mark.parametrize("case", list(TILDES))
def test_t_a_tilde_no_one_expands(tmp_path: Path, case: str) -> None:
    """The session's ``<NAME>=<value>``; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir
    *)``: a call is denied."""
    needs("bash", "make", "gcc")
    name, value, makefile, folder, file, text = TILDES[case]
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)"],
                         {"Makefile": makefile, "t.c": PROGRAM, "src/x": text},
                         [f"mkdir -p {folder}", f"cp src/x {folder}/{file}", "make test"],
                         {name: value}, executable=("src/x",))
    assert denied is not None, "the hook allows every call, and gcc reads ./~/…"


# (open at a103a47, closed by s54-gfix3 e8257f4/b99faff: the cases pin the fix)


#: Each case: the call of a session under a tool-wide plan (``Bash``) writing the gate's audit
#: log ``{log}`` through a loop's variable whose body unsets it (bash: ``$t`` is empty there,
#: the word is the log); textwords reads ``$t`` as the loop list's words (``audit.logx``).
UNSET_IN_THE_BODY = {
    "unset-in-the-body": "for t in x; do unset t; cp /dev/null {log}$t; done",
    "unset-v-in-the-body": "for t in x; do unset -v t; cp /dev/null {log}$t; done",
    # IFS holding the value: field splitting drops it from the unquoted word
    "ifs-in-the-body": "for t in x; do IFS=x; cp /dev/null {log}$t; done",
    "held-plain": "cp /dev/null {log}",
    "held-unset-before": "unset t; cp /dev/null {log}$t",
}


@pytest.mark.parametrize("case", list(UNSET_IN_THE_BODY))
def test_q_a_loops_variable_unset_in_its_body(tmp_path: Path, case: str) -> None:
    """Plan ``Bash`` (tool-wide: the guard alone keeps the gate's own files), the printed hook
    with ``--audit-log``: the call is denied; real bash empties the log."""
    import json
    import subprocess

    from test_gate_files import payload

    from skillgrant.gate.config import snippet

    needs("bash")
    project, log = tmp_path / "project", tmp_path / "logs" / "audit.log"
    project.mkdir()
    log.parent.mkdir()
    (project / "plan.json").write_text(json.dumps({"allowed-tools": ["Bash"]}))
    printed = json.loads(snippet("claude-code", {"--plan": str(project / "plan.json"),
                                                 "--audit-log": str(log)})[0])
    hook = printed["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    log.write_text('{"kept": 1}\n')
    call = UNSET_IN_THE_BODY[case].format(log=log)
    scratch = tmp_path / "scratch.log"
    scratch.write_text("kept\n")
    subprocess.run(["bash", "-c", call.replace(str(log), str(scratch))], cwd=project,
                   timeout=60, check=False)
    assert scratch.read_text() == "", "bash left the log"
    said = subprocess.run(["/bin/sh", "-c", hook], input=payload(call, project), cwd=project,
                          capture_output=True, timeout=60, check=False)
    assert said.returncode == 2 or b'"deny"' in said.stdout, "the hook allows the call"


# (open at a103a47, closed by s54-gfix3 e8257f4/b99faff: the cases pin the fix)


# --- K: costs -------------------------------------------------------------------------------------

def test_k_a_cross_compilers_path_prefix_keeps_writes(tmp_path: Path) -> None:
    """The session's ``CROSS_COMPILE=<T>/tc/bin/aarch64-linux-gnu-`` (an embedded developer's
    toolchain outside PATH, kbuild's usual spelling); plan ``Bash(make test)``, ``Bash(cp
    *)``: ``cp notes.txt notes2.txt`` is allowed (as at 371c13f). Guarding the prefix's
    folder whole (or its entries beginning with the prefix) would be sound: make runs
    ``<folder>/aarch64-linux-gnu-gcc`` and nothing else there."""
    needs("bash")
    project = hooked_project(tmp_path, ["Bash(make test)", "Bash(cp *)"])
    (tmp_path / "tc" / "bin").mkdir(parents=True)
    env = {**home_env(tmp_path / "home"),
           "CROSS_COMPILE": f"{tmp_path}/tc/bin/aarch64-linux-gnu-"}
    assert first_denied(project, ["cp notes.txt notes2.txt"], env) is None, "denied"


# (open at 371c13f/2763873, closed by s55-gfix2: the cases pin the fix)


#: Each case: the plan's entry (a macro's value on make's command line: cpp's `-D NAME=VALUE`
#: defines text, names no file), the folder the everyday write goes into.
MACROS = {
    "mode-test": ("make test CPPFLAGS=-DMODE=test", "test"),
    "data-folder-name": ("make CFLAGS=-DDATA_DIR=data test", "data"),
}


@pytest.mark.parametrize("case", list(MACROS))
def test_k_a_macros_value_keeps_writes(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp notes.txt <folder>/notes.txt`` is allowed
    (as at 371c13f): gcc reads no file by a ``-D`` macro's value."""
    needs("bash")
    entry, folder = MACROS[case]
    project = hooked_project(tmp_path, [f"Bash({entry})", "Bash(cp *)"])
    (project / folder).mkdir()
    env = home_env(tmp_path / "home")
    assert first_denied(project, [f"cp notes.txt {folder}/notes.txt"], env) is None, "denied"


# (open at 371c13f/2763873, closed by s55-gfix2: the cases pin the fix)


def test_k_mounting_the_tables_entries_keeps_a_plan(tmp_path: Path) -> None:
    """Plan ``Bash(mount -a)`` (after an administrator adds an entry to ``/etc/fstab``), on a
    machine whose table names no folder that is, holds or lies above a guarded path (this
    one's: none, or a device's own folder): ``mount -a`` is allowed, as at 371c13f. The gate
    reads the table already (``mounters.named_targets``); its targets could be read as the
    call's folder words instead of refusing. (Asked only: the call is never run.)"""
    with open("/etc/fstab", encoding="utf-8") as table:
        targets = [f.split()[1] for f in table if f.split() and not f.startswith("#")]
    if any(t in ("/", "/root", "/home", "/tmp") or t.startswith(("/root/", "/home/"))
           for t in targets):
        pytest.skip("this machine's table names a folder above a guarded path")
    project = hooked_project(tmp_path, ["Bash(mount -a)"])
    assert hook_allows(project, "mount -a"), "denied"


# (test_k_mounting_the_tables_entries_keeps_a_plan: held since s55-sfix, mounters._table)
