"""Session 55 s55-gfix2: a toolchain value naming the folder a call runs in, or one above it
(issue 29; review s54-greview3 D1, D1b, D1c, D2, P1b, K1, K2). The names gcc, cpp, ld, the
loader and make look up in such a folder are guarded there (``gate/toolnames``), the folder
itself left writable. Each attack is proved by real bash, make and gcc in a scratch copy
first (``bash_review.proved_case``), then the printed hook is asked call by call; each cost
case asks the hook for an everyday write under such a value."""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved_case

#: Real bash, make, gcc, ld and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open here, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

#: An executable running the payload, as gcc runs its assembler or make a program.
SH_PAYLOAD = "#!/bin/sh\ntouch zz\n"
#: A header whose constructor runs the payload in the built program, standing for the one it
#: shadows (``#include_next``: the system's is read after it).
HEADER = ('__attribute__((constructor)) static void zz(void)'
          ' { int system(const char *); system("touch zz"); }\n')
#: A program including ``<arpa/inet.h>`` and ``<cfg.h>`` (a header of the project's, by the
#: include path), and one including ``<stdio.h>``.
ARPA_INET = "#include <arpa/inet.h>\nint main(void) { return 0; }\n"
PROJECTS = "#include <cfg.h>\nint main(void) { return 0; }\n"
STDIO = "#include <stdio.h>\nint main(void) { return 0; }\n"
#: A Makefile building its test program and running it; one compiling by a prefix of names.
BUILDS = "test: t.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) t.c -o t $(LDFLAGS)\n\t./t\n"
PREFIXED = "test: t.c\n\t$(CROSS_COMPILE)gcc -c t.c -o t.o\n"

#: Each case: the session's variables, the plan's entries (beside ``Bash(cp *)``, ``Bash(mkdir
#: *)``), the files, the calls. gcc reads ``<arpa/inet.h>`` from ``./arpa/`` under ``-I.``, a
#: header the folder holds (``cfg.h``) by the include path, ``<stdio.h>`` from ``./include``
#: under ``-B./`` (a prefix's ``include``), runs ``../as`` under ``-B../``, make runs
#: ``./x-gcc`` and ``<project>/x-gcc`` by ``CROSS_COMPILE``, gcc reads ``specs`` from
#: ``LIBRARY_PATH``'s ``.`` by itself (one naming ``./w`` its linker: gcc runs it; the proof
#: runs each).
ATTACKS = {
    "include-dot-a-system-subfolder": (
        {"CPPFLAGS": "-I."}, ["Bash(make test)"],
        {"Makefile": BUILDS, "t.c": ARPA_INET, "src/h": "#include_next <arpa/inet.h>\n" + HEADER},
        ["mkdir -p arpa", "cp src/h arpa/inet.h", "make test"]),
    "include-dot-a-header-it-holds": (
        {"CFLAGS": "-I."}, ["Bash(make test)"],
        {"Makefile": BUILDS, "t.c": PROJECTS, "cfg.h": "", "src/h": HEADER},
        ["cp src/h cfg.h", "make test"]),
    "prefix-dot-its-include-folder": (
        {"CFLAGS": "-B./"}, ["Bash(make test)"],
        {"Makefile": BUILDS, "t.c": STDIO, "src/h": "#include_next <stdio.h>\n" + HEADER},
        ["mkdir -p include", "cp src/h include/stdio.h", "make test"]),
    "entry-prefix-parent": (
        {}, ["Bash(gcc -B../ -c t.c)"], {"t.c": "int x;\n", "src/x": SH_PAYLOAD},
        ["cp src/x ../as", "gcc -B../ -c t.c"]),
    "cross-compile-dot-name-prefix": (
        {"CROSS_COMPILE": "./x-"}, ["Bash(make test)"],
        {"Makefile": PREFIXED, "t.c": "int x;\n", "src/x": SH_PAYLOAD},
        ["cp src/x x-gcc", "make test"]),
    "cross-compile-the-projects-name-prefix": (
        {"CROSS_COMPILE": "{P}/x-"}, ["Bash(make test)"],
        {"Makefile": PREFIXED, "t.c": "int x;\n", "src/x": SH_PAYLOAD},
        ["cp src/x x-gcc", "make test"]),
    # make runs any name a Makefile spells after the prefix (refused: s55-greview2 G4)
    "cross-compile-dot-any-name": (
        {"CROSS_COMPILE": "./x-"}, ["Bash(make test)"],
        {"Makefile": "test:\n\t$(CROSS_COMPILE)tool\n", "src/x": SH_PAYLOAD},
        ["cp src/x x-tool", "make test"]),
    "entry-cross-compile-dot-slash": (
        {}, ["Bash(make test CROSS_COMPILE=./)"],
        {"Makefile": "test:\n\t$(CROSS_COMPILE)tool\n", "src/x": SH_PAYLOAD},
        ["cp src/x tool", "make test CROSS_COMPILE=./"]),
    # a gcc option under a name the toolchain's list lacks (automake's INCLUDES)
    "includes-dot": (
        {"INCLUDES": "-I."}, ["Bash(make test)"],
        {"Makefile": "test: t.c\n\t$(CC) $(INCLUDES) t.c -o t\n\t./t\n", "t.c": STDIO,
         "src/h": "#include_next <stdio.h>\n" + HEADER}, ["cp src/h stdio.h", "make test"]),
    # the same, escaped: the recipe's sh drops the backslash (`-I.`)
    "includes-escaped-dot": (
        {"INCLUDES": "\\-I."}, ["Bash(make test)"],
        {"Makefile": "test: t.c\n\t$(CC) $(INCLUDES) t.c -o t\n\t./t\n", "t.c": STDIO,
         "src/h": "#include_next <stdio.h>\n" + HEADER}, ["cp src/h stdio.h", "make test"]),
    # pkg-config searches PKG_CONFIG_PATH's `.` for a system package's `.pc` first
    "pkg-config-path-dot": (
        {"PKG_CONFIG_PATH": "."}, ["Bash(make test)"],
        {"Makefile": "test: t.c\n\t$(CC) $$(pkg-config --cflags expat) -c t.c\n",
         "t.c": "int x;\n", "src/x": SH_PAYLOAD,
         "src/pc": "Name: expat\nDescription: x\nVersion: 9\nCflags: -wrapper ./w\n"},
        ["cp src/x w", "cp src/pc expat.pc", "make test"]),
    # a name a later folder of the search holds (include/cfg.h, guarded whole), new in `.`
    "shadowing-a-later-folder": (
        {"CPPFLAGS": "-I. -Iinclude"}, ["Bash(make test)"],
        {"Makefile": BUILDS, "t.c": PROJECTS, "include/cfg.h": "", "src/h": HEADER},
        ["cp src/h cfg.h", "make test"]),
    "library-path-dot-specs": (
        {"LIBRARY_PATH": "."}, ["Bash(make test)"],
        {"Makefile": BUILDS, "t.c": STDIO, "src/specs": "*linker:\n./w\n",
         "src/x": SH_PAYLOAD}, ["cp src/x w", "cp src/specs specs", "make test"]),
}


@pytest.mark.parametrize("case", list(ATTACKS))
def test_a_name_looked_up_in_the_calls_folder(tmp_path: Path, case: str) -> None:
    """The session's variables, plan ``<entries>``, ``Bash(cp *)``, ``Bash(mkdir *)``: a call
    is denied."""
    needs("bash", "make", "gcc", *(["pkg-config"] if case.startswith("pkg-config") else []))
    extra, entries, files, calls = ATTACKS[case]
    denied = proved_case(tmp_path, [*entries, "Bash(cp *)", "Bash(mkdir *)"], files, calls,
                         extra, executable=("src/x",) if "src/x" in files else ())
    assert denied is not None, "the hook allows every call, and gcc or make runs the payload"


#: A Makefile in ``sub`` building its program and running it; one compiling by gcc's programs.
SUB_BUILDS = "test: t.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) t.c -o t\n\t./t\n"
SUB_COMPILES = "test: t.c\n\t$(CC) $(CFLAGS) -c t.c -o t.o\n"

#: Each case: the session's variables, the plan's entry (beside ``Bash(cp *)``, ``Bash(mkdir
#: *)``), the sub folder's Makefile, the calls before the entry. The entry runs make in
#: ``sub`` (``-C``, a ``cd``): gcc reads the session's relative ``-Iinc``, ``CPATH=inc``,
#: ``COMPILER_PATH=v`` from there (``sub/inc/stdio.h``, ``sub/v/as``; the proof runs them).
ENTRY_FOLDERS = {
    "make-c-include-folder": ({"CFLAGS": "-Iinc"}, "make -C sub test", SUB_BUILDS,
                              ["mkdir -p sub/inc", "cp src/h sub/inc/stdio.h"]),
    "cd-make-cpath": ({"CPATH": "inc"}, "cd sub && make test", SUB_BUILDS,
                      ["mkdir -p sub/inc", "cp src/h sub/inc/stdio.h"]),
    "make-c-compiler-path": ({"COMPILER_PATH": "v"}, "make -C sub test", SUB_COMPILES,
                             ["mkdir -p sub/v", "cp src/x sub/v/as"]),
    "make-c-include-dot": ({"CPPFLAGS": "-I."}, "make -C sub test", SUB_BUILDS,
                           ["cp src/h sub/stdio.h"]),
}


@pytest.mark.parametrize("case", list(ENTRY_FOLDERS))
def test_a_relative_value_read_where_an_entry_runs_make(tmp_path: Path, case: str) -> None:
    """The session's variables; plan ``Bash(<entry>)``, ``Bash(cp *)``, ``Bash(mkdir *)``: a
    call is denied."""
    needs("bash", "make", "gcc")
    extra, entry, makefile, calls = ENTRY_FOLDERS[case]
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)", "Bash(mkdir *)"],
                         {"sub/Makefile": makefile, "sub/t.c": STDIO, "src/x": SH_PAYLOAD,
                          "src/h": "#include_next <stdio.h>\n" + HEADER},
                         [*calls, entry], extra, executable=("src/x",))
    assert denied is not None, "the hook allows every call, and gcc runs the payload"


#: Each case: the session's variables, the plan's entry, the everyday calls (allowed: the
#: folder a value names keeps its own files writable; a macro's value names no file).
EVERYDAY = {
    "include-dot": ({"CPPFLAGS": "-I."}, "make test",
                    ["cp notes.txt notes2.txt", "cp t.c t2.c", "mkdir -p docs",
                     "cp notes.txt docs/notes.txt"]),
    "prefix-dot-slash": ({"CFLAGS": "-B./"}, "make test",
                         ["cp notes.txt notes2.txt", "cp t.c t2.c"]),
    "library-folder-dot": ({"LDFLAGS": "-L. -Wl,-rpath,."}, "make test",
                           ["cp notes.txt notes2.txt", "cp t.c t2.c"]),
    "session-macro-value": ({"CFLAGS": "-O2 -DMODE=test -D DATA=data -std=c11 -Wall"},
                            "make test", ["cp notes.txt test/notes.txt",
                                          "cp notes.txt data/notes.txt"]),
    "entry-include-dot": ({}, "make test CPPFLAGS=-I.", ["cp notes.txt notes2.txt",
                                                         "cp t.c t2.c"]),
    # a link to the call's folder (`here -> .`): its names, not the folder whole
    "include-a-link-to-the-calls-folder": ({"CFLAGS": "-Ihere"}, "make test",
                                           ["cp notes.txt notes2.txt"]),
}


@pytest.mark.parametrize("case", list(EVERYDAY))
def test_an_everyday_write_beside_a_looked_up_folder(tmp_path: Path, case: str) -> None:
    """The session's variables, plan ``Bash(<entry>)``, ``Bash(cp *)``, ``Bash(mkdir *)``:
    each call is allowed."""
    needs("bash")
    extra, entry, calls = EVERYDAY[case]
    project = hooked_project(tmp_path, [f"Bash({entry})", "Bash(cp *)", "Bash(mkdir *)"])
    (project / "t.c").write_text(STDIO)
    (project / "test").mkdir()
    (project / "data").mkdir()
    (project / "here").symlink_to(".")
    env = {**home_env(tmp_path / "home"), **extra}
    assert first_denied(project, calls, env) is None, "the hook denies an everyday call"
