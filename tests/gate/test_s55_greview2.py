"""Session 55 review s55-greview2 of s55-gfix2 (a toolchain value naming the call's folder, one
above it, or a recipe's: the files gcc, cpp, ld, as and the loader look up there by name become
guarded). Each hole is proved by real bash and the real program (GNU make 4.3, gcc 12, ld 2.40,
glibc 2.36's loader, the built program) in a scratch copy first (``bash_review.proved_case``),
then the printed hook is asked call by call: the hook allowing every call is the finding (a
strict-xfail row in ``OPEN``); a case the change holds is a plain test pinning it.

The names are the oracle's, not the fix's list: ``gcc -B./ -print-search-dirs`` (programs and
libraries under ``./x86_64-linux-gnu/12/``, ``./x86_64-linux-gnu/``, ``./``), ``gcc -B./ -v``
(``-isystem ./include``, ``-L.``, ``collect2``, ``liblto_plugin.so``, ``Scrt1.o``, ``crti.o``,
``crtbeginS.o``, ``crtendS.o``, ``crtn.o``), collect2's search for ``real-ld``,
``collect-ld``, ``ld``; cpp's ``<name>.gch`` (a file or a folder of them) before each header,
and a header's own includes (``<stdio.h>`` includes ``<bits/libc-header-start.h>``); the
loader's ``LD_DEBUG=libs`` (``glibc-hwcaps/x86-64-v2/``, ``tls/``, ``x86_64/`` under each
folder)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved_case

#: Real bash, make, gcc, ld and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open here, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

#: An executable running the payload, as gcc runs its assembler (``cp`` keeps the mode).
SH_PAYLOAD = "#!/bin/sh\ntouch zz\n"
#: The payload's constructor (the built program, or a library at its load, runs it).
_CONSTRUCTOR = ('__attribute__((constructor)) static void zz(void) { int system(const char *); '
                'system("touch zz"); }\n')
#: A header shadowing ``<stdio.h>`` (``src/h``), one shadowing ``<bits/libc-header-start.h>``
#: (``src/hbits``), one standing alone (``src/hself``: a sysroot holds no other), the source of
#: a precompiled header (``src/pchsrc``; the setup ``PCH`` compiles it to ``src/pch``), a C++
#: one shadowing ``<cstdio>`` (a header without a suffix).
HEADER = "#include_next <stdio.h>\n" + _CONSTRUCTOR
BITS_HEADER = "#include_next <bits/libc-header-start.h>\n" + _CONSTRUCTOR
LONE_HEADER = _CONSTRUCTOR
CXX_BACKWARD = ('#include_next <strstream>\nextern "C" int system(const char *);\n'
                '__attribute__((constructor)) static void zz(void) { system("touch zz"); }\n')
CXX_HEADER = ('#include_next <cstdio>\nextern "C" int system(const char *);\n'
              '__attribute__((constructor)) static void zz(void) { system("touch zz"); }\n')
#: A library whose constructor runs the payload (for libm: ``cos``); the setups build it.
LIBRARY = ('#include <stdlib.h>\n__attribute__((constructor)) static void zz(void) '
           '{ system("touch zz"); }\ndouble cos(double x) { return x; }\n')
#: A specs file naming the plugin ``./p.so`` (cc1 dlopens it: its constructor runs).
SPECS = "*cc1:\n+ -iplugindir=. -fplugin=p\n"
#: A package's settings shadowing the system's ``expat.pc``: gcc runs ``./w`` (``-wrapper``).
PC = "Name: expat\nDescription: x\nVersion: 9\nCflags: -wrapper ./w\n"
#: A linker script standing for ``libm.so`` (ld reads it by that name in a ``-L`` folder).
SCRIPT = "INPUT(src/liba)\n"

#: The setups: a shared library (``src/lib``), one named libm.so.6 (``src/lib6``), an archive
#: (``src/liba``), a startfile joined with the payload's object (``src/<name>``: ld -r keeps
#: the real one's sections), a precompiled header (``src/pch``).
LIB = "gcc -shared -fPIC -o src/lib pl.c"
LIB6 = "gcc -shared -fPIC -o src/lib6 pl.c -Wl,-soname,libm.so.6"
LIBA = "gcc -c -fPIC -o pl.o pl.c && ar rcs src/liba pl.o"
PCH = "cp src/pchsrc x.h && gcc -I. x.h -o src/pch && rm x.h"


def startfile(name: str) -> str:
    """The setup making ``src/<name>``: gcc's own ``<name>.o`` with the payload's object."""
    return (f"gcc -c -fPIC -o pl.o pl.c && ld -r \"$(gcc -print-file-name={name}.o)\" pl.o "
            f"-o src/{name}")


#: A Makefile compiling as most do (make takes each variable of its environment as its own);
#: one building its test program and running it; one linking libm too; a C++ one.
COMPILES = "test: t.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -c t.c -o t.o\n"
BUILDS = "test: t.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) t.c -o t $(LDFLAGS)\n\t./t\n"
LINKS_LIBM = "test: m.c\n\t$(CC) $(CFLAGS) m.c -o t $(LDFLAGS) -lm\n\t./t\n"
CXX_BUILDS = "test: t.cc\n\t$(CXX) $(CPPFLAGS) $(CXXFLAGS) t.cc -o t\n\t./t\n"
CXX_BACKWARD_BUILDS = ("test: s.cc\n\t$(CXX) $(CPPFLAGS) $(CXXFLAGS) -Wno-deprecated s.cc -o t"
                       "\n\t./t\n")
#: Sub-makes in ``sub`` (kbuild's, automake's recursive make); a recipe cd-ing there.
SUBMAKE = "test:\n\t$(MAKE) -C sub\n"
SUB_BUILDS = "all: t.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) t.c -o t $(LDFLAGS)\n\t./t\n"
CD_COMPILES = "test:\n\tcd sub && $(CC) $(CFLAGS) -c t.c -o t.o\n"

#: The project's files beside the Makefile.
FILES = {"t.c": "#include <stdio.h>\nint main(void) { return 0; }\n",
         "m.c": "#include <math.h>\nint main(int c, char **v) { return (int)cos(c) - 1; }\n",
         "t.cc": "#include <cstdio>\nint main() { return 0; }\n",
         "s.cc": "#include <strstream>\nint main() { return 0; }\n", "src/cxxs": CXX_BACKWARD,
         "sub/t.c": "#include <stdio.h>\nint main(void) { return 0; }\n",
         "sub/Makefile": SUB_BUILDS,
         "src/x": SH_PAYLOAD, "src/h": HEADER, "src/hbits": BITS_HEADER,
         "src/hself": LONE_HEADER, "src/pchsrc": _CONSTRUCTOR, "src/cxx": CXX_HEADER,
         "pl.c": LIBRARY, "src/specs": SPECS, "src/script": SCRIPT, "src/pc": PC}
#: The plan of the session cases.
PLAN = ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)"]


def _case(tmp_path: Path, entries: list[str], makefile: str, calls: list[str],
          extra: dict[str, str] | None = None, setup: str = "") -> str | None:
    """``proved_case`` with the project's ``FILES`` and ``makefile``: the first call the
    printed hook denies, or None."""
    return proved_case(tmp_path, entries, {**FILES, "Makefile": makefile}, calls, extra,
                       setup=setup, executable=("src/x",))


def _machine() -> str:
    """gcc's machine (``x86_64-linux-gnu``) and version folder (``x86_64-linux-gnu/12``)."""
    import subprocess

    machine = subprocess.run(["gcc", "-dumpmachine"], capture_output=True, text=True,
                             check=True).stdout.strip()
    version = subprocess.run(["gcc", "-dumpversion"], capture_output=True, text=True,
                             check=True).stdout.strip()
    return f"{machine}/{version}"


MV = "x86_64-linux-gnu/12"  # (the cases' folder; test_n checks gcc's own below)


# --- N: a file gcc, ld, cpp or the loader looks up by name in a folder a value names ------------

#: Each case: the session's variables, the Makefile, the calls (before ``make test``), the
#: setup. The value names the call's folder (``-B./``, ``COMPILER_PATH=.``, ``LIBRARY_PATH=.``,
#: ``-I.``, ``-L.``, ``LD_LIBRARY_PATH=.``, ``-Wl,-rpath,.``); the file is one the program looks
#: up there by a name beside the plain ``as``/``stdio.h``/``libm.a``/``libm.so.6`` (the proof
#: runs each).
NAMES = {
    # gcc's programs' search (-print-search-dirs): <prefix><machine>/<version>/, <machine>/
    "b-machine-version-as": ({"CFLAGS": "-B./"}, COMPILES,
                             [f"mkdir -p {MV}", f"cp src/x {MV}/as"], ""),
    "b-machine-as": ({"CFLAGS": "-B./"}, COMPILES,
                     ["mkdir -p x86_64-linux-gnu", "cp src/x x86_64-linux-gnu/as"], ""),
    "b-cc1": ({"CFLAGS": "-B./"}, COMPILES, ["cp src/x cc1"], ""),
    "b-collect2": ({"CFLAGS": "-B./"}, BUILDS, ["cp src/x collect2"], ""),
    "b-lto-plugin": ({"CFLAGS": "-B./"}, BUILDS, ["cp src/lib liblto_plugin.so"], LIB),
    "b-specs": ({"CFLAGS": "-B./"}, COMPILES, ["cp src/lib p.so", "cp src/specs specs"], LIB),
    # collect2 runs the first of real-ld, collect-ld, ld in the compiler's path
    "b-real-ld": ({"CFLAGS": "-B./"}, BUILDS, ["cp src/x real-ld"], ""),
    "b-collect-ld": ({"CFLAGS": "-B./"}, BUILDS, ["cp src/x collect-ld"], ""),
    "b-ld": ({"CFLAGS": "-B./"}, BUILDS, ["cp src/x ld"], ""),
    # the startfiles gcc links in from -B's folder (PIE: Scrt1.o, crtbeginS.o, crtendS.o)
    "b-scrt1": ({"CFLAGS": "-B./"}, BUILDS, ["cp src/Scrt1 Scrt1.o"], startfile("Scrt1")),
    "b-crti": ({"CFLAGS": "-B./"}, BUILDS, ["cp src/crti crti.o"], startfile("crti")),
    "b-crtbegin": ({"CFLAGS": "-B./"}, BUILDS, ["cp src/crtbeginS crtbeginS.o"],
                   startfile("crtbeginS")),
    "b-crtend": ({"CFLAGS": "-B./"}, BUILDS, ["cp src/crtendS crtendS.o"],
                 startfile("crtendS")),
    "b-crtn": ({"CFLAGS": "-B./"}, BUILDS, ["cp src/crtn crtn.o"], startfile("crtn")),
    # -B./ is `-isystem ./include` (gcc's manual) and `-L.`
    "b-include-folder": ({"CFLAGS": "-B./"}, BUILDS,
                         ["mkdir -p include", "cp src/h include/stdio.h"], ""),
    "b-library-script": ({"CFLAGS": "-B./"}, LINKS_LIBM, ["cp src/script libm.so"], LIBA),
    # COMPILER_PATH's folders are -B's for programs
    "compiler-path-collect2": ({"COMPILER_PATH": "."}, BUILDS, ["cp src/x collect2"], ""),
    "compiler-path-lto-plugin": ({"COMPILER_PATH": "."}, BUILDS,
                                 ["cp src/lib liblto_plugin.so"], LIB),
    "compiler-path-real-ld": ({"COMPILER_PATH": "."}, BUILDS, ["cp src/x real-ld"], ""),
    "compiler-path-machine-as": ({"COMPILER_PATH": "."}, COMPILES,
                                 [f"mkdir -p {MV}", f"cp src/x {MV}/as"], ""),
    "compiler-path-cc1": ({"COMPILER_PATH": "."}, COMPILES, ["cp src/x cc1"], ""),
    # LIBRARY_PATH's folders are searched for specs (and under <machine>/<version>/)
    "library-path-specs": ({"LIBRARY_PATH": "."}, COMPILES,
                           ["cp src/lib p.so", "cp src/specs specs"], LIB),
    "library-path-machine-specs": ({"LIBRARY_PATH": "."}, COMPILES,
                                   [f"mkdir -p {MV}", "cp src/lib p.so",
                                    f"cp src/specs {MV}/specs"], LIB),
    # cpp: a header's own includes, a precompiled header (a file, or a folder of them), a
    # C++ header without a suffix
    "include-header-of-a-header": ({"CPPFLAGS": "-I."}, BUILDS,
                                   ["mkdir -p bits", "cp src/hbits bits/libc-header-start.h"],
                                   ""),
    "include-precompiled-header": ({"CPPFLAGS": "-I."}, BUILDS, ["cp src/pch stdio.h.gch"],
                                   PCH),
    "include-precompiled-folder": ({"CPPFLAGS": "-I."}, BUILDS,
                                   ["mkdir -p stdio.h.gch", "cp src/pch stdio.h.gch/any"],
                                   PCH),
    "include-cxx-header": ({"CPPFLAGS": "-I."}, CXX_BUILDS, ["cp src/cxx cstdio"], ""),
    # g++'s default include path holds /usr/include/c++/12/backward: <strstream>, <hash_map>
    "include-cxx-backward-header": ({"CPPFLAGS": "-I."}, CXX_BACKWARD_BUILDS,
                                    ["cp src/cxxs strstream"], ""),
    # ld: a linker script named as the library
    "library-folder-script": ({"LDFLAGS": "-L."}, LINKS_LIBM, ["cp src/script libm.so"],
                              LIBA),
    # the loader's subfolders of each folder (LD_DEBUG=libs)
    "ld-library-path-hwcaps": ({"LD_LIBRARY_PATH": "."}, LINKS_LIBM,
                               ["mkdir -p glibc-hwcaps/x86-64-v2",
                                "cp src/lib6 glibc-hwcaps/x86-64-v2/libm.so.6"], LIB6),
    "ld-library-path-tls": ({"LD_LIBRARY_PATH": "."}, LINKS_LIBM,
                            ["mkdir -p tls", "cp src/lib6 tls/libm.so.6"], LIB6),
    "run-path-platform": ({"LDFLAGS": "-Wl,-rpath,."}, LINKS_LIBM,
                          ["mkdir -p x86_64", "cp src/lib6 x86_64/libm.so.6"], LIB6),
    "ld-run-path-hwcaps": ({"LD_RUN_PATH": "."}, LINKS_LIBM,
                           ["mkdir -p glibc-hwcaps/x86-64-v2",
                            "cp src/lib6 glibc-hwcaps/x86-64-v2/libm.so.6"], LIB6),
}


@pytest.mark.parametrize("case", list(NAMES))
def test_n_a_name_looked_up_in_the_calls_folder(tmp_path: Path, case: str) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``:
    a call is denied."""
    needs("bash", "make", "gcc", "g++", "ar", "ld")
    if MV in " ".join(NAMES[case][2]) and _machine() != MV:
        pytest.skip(f"gcc's machine folder here is {_machine()}, not {MV}")
    extra, makefile, calls, setup = NAMES[case]
    denied = _case(tmp_path, PLAN, makefile, [*calls, "make test"], extra, setup)
    assert denied is not None, "the hook allows every call, and make's gcc runs the payload"



# --- S: spellings of the call's folder, or one above it -----------------------------------------

#: Each case: the session's variables, the Makefile, the calls (before ``make test``), the
#: setup. The plain spellings (``-I.``, ``-B./``, ``-L.``, ``..``) are test_s54_greview3's D
#: rows; these name the same folder as gcc and the shell read them (``{P}``: the folder bash
#: runs in; make turns ``$$`` into ``$`` and sh expands ``$PWD`` in the recipe; make's own
#: ``$(CURDIR)``; a link in the project to ``.``; gcc's long spellings and the words it hands
#: cpp and ld; a sysroot whose ``usr/include`` it reads).
SPELLINGS = {
    "include-dot-slash-dot": ({"CFLAGS": "-I./."}, BUILDS, ["cp src/h stdio.h"], ""),
    "include-through-src": ({"CFLAGS": "-Isrc/.."}, BUILDS, ["cp src/h stdio.h"], ""),
    "include-double-slash": ({"CFLAGS": "-I.//"}, BUILDS, ["cp src/h stdio.h"], ""),
    "include-quoted": ({"CFLAGS": '-I"."'}, BUILDS, ["cp src/h stdio.h"], ""),
    "include-two-words": ({"CFLAGS": "-I ."}, BUILDS, ["cp src/h stdio.h"], ""),
    "include-long-option": ({"CFLAGS": "--include-directory=."}, BUILDS,
                            ["cp src/h stdio.h"], ""),
    "include-long-option-apart": ({"CFLAGS": "--include-directory ."}, BUILDS,
                                  ["cp src/h stdio.h"], ""),
    "include-through-wp": ({"CFLAGS": "-Wp,-I."}, BUILDS, ["cp src/h stdio.h"], ""),
    "include-through-xpreprocessor": ({"CFLAGS": "-Xpreprocessor -I."}, BUILDS,
                                      ["cp src/h stdio.h"], ""),
    "include-iwithprefixbefore": ({"CFLAGS": "-iprefix ./ -iwithprefixbefore ."}, BUILDS,
                                  ["cp src/h stdio.h"], ""),
    "include-the-project-dot": ({"CFLAGS": "-I{P}/."}, BUILDS, ["cp src/h stdio.h"], ""),
    "include-the-project-through-src": ({"CFLAGS": "-I{P}/src/.."}, BUILDS,
                                        ["cp src/h stdio.h"], ""),
    "include-a-link-to-dot": ({"CFLAGS": "-Ihere"}, BUILDS, ["cp src/h stdio.h"],
                              "ln -s . here"),
    "include-recipes-pwd": ({"CFLAGS": "-I$$PWD"}, BUILDS, ["cp src/h stdio.h"], ""),
    "include-makes-curdir": ({"CFLAGS": "-I$(CURDIR)"}, BUILDS, ["cp src/h stdio.h"], ""),
    "include-isystem-attached": ({"CFLAGS": "-isystem./"}, BUILDS, ["cp src/h stdio.h"], ""),
    "sysroot": ({"CFLAGS": "--sysroot=."}, BUILDS,
                ["mkdir -p usr/include", "cp src/hself usr/include/stdio.h"], ""),
    # a library folder beside it makes toolnames.kinds read "libraries only"
    "sysroot-beside-a-library-folder": ({"CFLAGS": "--sysroot=. -Llib"}, BUILDS,
                                        ["mkdir -p usr/include",
                                         "cp src/hself usr/include/stdio.h"], ""),
    "isysroot": ({"CFLAGS": "-isysroot ."}, BUILDS,
                 ["mkdir -p usr/include", "cp src/hself usr/include/stdio.h"], ""),
    "cpath-dot-slash-dot": ({"CPATH": "./."}, BUILDS, ["cp src/h stdio.h"], ""),
    "cpath-through-src": ({"CPATH": "src/.."}, BUILDS, ["cp src/h stdio.h"], ""),
    "prefix-double-slash": ({"CFLAGS": "-B.//"}, COMPILES, ["cp src/x as"], ""),
    "prefix-through-src": ({"CFLAGS": "-Bsrc/../"}, COMPILES, ["cp src/x as"], ""),
    "prefix-quoted": ({"CFLAGS": '-B"./"'}, COMPILES, ["cp src/x as"], ""),
    "prefix-long-option": ({"CFLAGS": "--prefix=./"}, COMPILES, ["cp src/x as"], ""),
    "prefix-two-words": ({"CFLAGS": "-B ./"}, COMPILES, ["cp src/x as"], ""),
    "prefix-the-project-dot": ({"CFLAGS": "-B{P}/./"}, COMPILES, ["cp src/x as"], ""),
    "compiler-path-through-src": ({"COMPILER_PATH": "src/.."}, COMPILES, ["cp src/x as"], ""),
    "library-folder-through-src": ({"LDFLAGS": "-Lsrc/.."}, LINKS_LIBM,
                                   ["cp src/liba libm.a"], LIBA),
    # gcc's long -L beside a header's folder (a value naming headers only, by its words)
    "library-folder-long-beside-include": ({"LDFLAGS": "-Iinc --library-directory=."},
                                           LINKS_LIBM, ["cp src/liba libm.a"], LIBA),
    "run-path-r": ({"LDFLAGS": "-Wl,-R."}, LINKS_LIBM, ["cp src/lib6 libm.so.6"], LIB6),
    "run-path-equals": ({"LDFLAGS": "-Wl,-rpath=."}, LINKS_LIBM, ["cp src/lib6 libm.so.6"],
                        LIB6),
    "run-path-through-src": ({"LDFLAGS": "-Wl,-rpath,src/.."}, LINKS_LIBM,
                             ["cp src/lib6 libm.so.6"], LIB6),
    # one above the call's folder
    "include-parent-through-dot": ({"CFLAGS": "-I./.."}, BUILDS, ["cp src/h ../stdio.h"], ""),
    "include-parent-through-src": ({"CFLAGS": "-Isrc/../.."}, BUILDS,
                                   ["cp src/h ../stdio.h"], ""),
    "include-the-projects-parent": ({"CFLAGS": "-I{P}/.."}, BUILDS, ["cp src/h ../stdio.h"],
                                    ""),
    "prefix-the-projects-parent": ({"CFLAGS": "-B{P}/../"}, COMPILES, ["cp src/x ../as"], ""),
}


@pytest.mark.parametrize("case", list(SPELLINGS))
def test_s_a_spelling_of_the_calls_folder(tmp_path: Path, case: str) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``:
    a call is denied."""
    needs("bash", "make", "gcc", "ar")
    extra, makefile, calls, setup = SPELLINGS[case]
    denied = _case(tmp_path, PLAN, makefile, [*calls, "make test"], extra, setup)
    assert denied is not None, "the hook allows every call, and make's gcc runs the payload"



# --- E: the plan's own entry naming the call's folder --------------------------------------------

#: Each case: the plan's entry (beside ``Bash(cp *)``, ``Bash(mkdir *)``), the Makefile, the
#: calls before it, the setup.
ENTRIES = {
    "make-prefix-collect2": ("make test CFLAGS=-B./", BUILDS, ["cp src/x collect2"], ""),
    "make-prefix-machine-as": ("make test CFLAGS=-B./", COMPILES,
                               [f"mkdir -p {MV}", f"cp src/x {MV}/as"], ""),
    "make-include-header-of-a-header": ("make test CPPFLAGS=-I.", BUILDS,
                                        ["mkdir -p bits",
                                         "cp src/hbits bits/libc-header-start.h"], ""),
    "make-include-precompiled-header": ("make test CPPFLAGS=-I.", BUILDS,
                                        ["cp src/pch stdio.h.gch"], PCH),
    "make-include-dot-slash-dot": ("make test CPPFLAGS=-I./.", BUILDS, ["cp src/h stdio.h"],
                                   ""),
    "make-include-curdir": ("make test 'CPPFLAGS=-I$(CURDIR)'", BUILDS, ["cp src/h stdio.h"],
                            ""),
    "gcc-prefix-machine-as": ("gcc -B./ -c t.c", COMPILES,
                              [f"mkdir -p {MV}", f"cp src/x {MV}/as"], ""),
    "gcc-prefix-collect2": ("gcc -B./ t.c -o t", COMPILES, ["cp src/x collect2"], ""),
    "gcc-prefix-specs": ("gcc -B./ -c t.c", COMPILES, ["cp src/lib p.so",
                                                        "cp src/specs specs"], LIB),
    "compiler-path-lto-plugin": ("COMPILER_PATH=. make test", BUILDS,
                                 ["cp src/lib liblto_plugin.so"], LIB),
    "make-dot-prefix-versioned-compiler": ("make test CROSS_COMPILE=./x-",
                                           "test:\n\t$(CROSS_COMPILE)gcc-12 -c t.c\n",
                                           ["cp src/x x-gcc-12"], ""),
}


@pytest.mark.parametrize("case", list(ENTRIES))
def test_e_an_entry_naming_the_calls_folder(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``, ``Bash(mkdir *)``: a call is denied."""
    needs("bash", "make", "gcc")
    entry, makefile, calls, setup = ENTRIES[case]
    if MV in " ".join(calls) and _machine() != MV:
        pytest.skip(f"gcc's machine folder here is {_machine()}, not {MV}")
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)", "Bash(mkdir *)"], makefile,
                   [*calls, entry], setup=setup)
    assert denied is not None, "the hook allows every call, and gcc runs the payload"



# --- R: the folder a recipe runs in -------------------------------------------------------------

#: Each case: the session's variables, the Makefile, the calls (before ``make test``). ``.``
#: and ``..`` are read by gcc from the folder the recipe runs in: ``sub`` (a sub-make's, a
#: ``cd``'s); ``..`` there is the call's own folder.
RECIPES = {
    "submake-include-dot": ({"CFLAGS": "-I."}, SUBMAKE, ["cp src/h sub/stdio.h"]),
    "submake-include-parent-is-the-calls": ({"CFLAGS": "-I.."}, SUBMAKE, ["cp src/h stdio.h"]),
    "cd-prefix-dot": ({"CFLAGS": "-B./"}, CD_COMPILES, ["cp src/x sub/as"]),
    "cd-prefix-parent-is-the-calls": ({"CFLAGS": "-B../"}, CD_COMPILES, ["cp src/x as"]),
    "submake-library-path-specs": ({"LIBRARY_PATH": "."}, "test:\n\t$(MAKE) -C sub\n",
                                   ["cp src/lib sub/p.so", "cp src/specs sub/specs"]),
}


@pytest.mark.parametrize("case", list(RECIPES))
def test_r_the_folder_a_recipe_runs_in(tmp_path: Path, case: str) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``:
    a call is denied."""
    needs("bash", "make", "gcc")
    extra, makefile, calls = RECIPES[case]
    denied = _case(tmp_path, PLAN, makefile, [*calls, "make test"], extra, LIB)
    assert denied is not None, "the hook allows every call, and the recipe runs the payload"



# --- H: a file the project holds (or a program's source asks for) in a folder a value names -----

#: The setups of the vendored library: the project's own ``libfoo.so``/``libfoo.a`` (``foo``
#: returning 0) and the payload's (``src/foo``, ``src/fooa``: ``foo`` and a constructor).
FOO = ("printf 'int foo(void) { return 0; }\\n' > foo.c && "
       "gcc -shared -fPIC -o libfoo.so foo.c && gcc -c -o foo.o foo.c && ar rcs libfoo.a foo.o"
       " && printf '#include <stdlib.h>\\n__attribute__((constructor)) static void zz(void) "
       "{ system(\"touch zz\"); }\\nint foo(void) { return 0; }\\n' > pf.c && "
       "gcc -shared -fPIC -o src/foo pf.c && gcc -c -o pf.o pf.c && ar rcs src/fooa pf.o && "
       "rm -f foo.c foo.o pf.c pf.o")
#: A program using the project's library ``-lfoo``. (The cases of a header no folder holds
#: and one below the call's folder are the boundary session 56 pins:
#: tests/gate/test_s56_gfix2.py ``test_b_the_projects_own_header_is_its_source``.)
USES_FOO = "int foo(void);\nint main(void) { return foo(); }\n"
LINKS_FOO = "test: t.c\n\t$(CC) $(CFLAGS) t.c -o t $(LDFLAGS) -lfoo\n\t./t\n"

#: Each case: the session's variables, the Makefile, the program, the project's other files,
#: the calls (before ``make test``), the setup.
HELD_FILES = {
    # ld links ./libfoo.so (or .a) by -lfoo, the loader loads it by the run path
    "vendored-shared-library": ({"LDFLAGS": "-L. -Wl,-rpath,."}, LINKS_FOO, USES_FOO, {},
                                ["cp src/foo libfoo.so"], FOO),
    "vendored-archive": ({"LDFLAGS": "-L."}, LINKS_FOO, USES_FOO, {}, ["cp src/fooa libfoo.a"],
                         f"{FOO} && rm libfoo.so"),
    "vendored-shared-library-loader": ({"LD_LIBRARY_PATH": "."}, "test: t.c\n\t$(CC) t.c -o t"
                                       " -L. -lfoo\n\t./t\n", USES_FOO, {},
                                       ["cp src/foo libfoo.so"], FOO),
    # a name a later folder of the same search list holds (guarded whole there), new in `.`
    # (the earlier folder): cpp and ld take the first
    "shadowing-a-later-include-folder": ({"CPPFLAGS": "-I. -Iinclude"}, BUILDS,
                                         "#include <cfg.h>\nint main(void) { return 0; }\n",
                                         {"include/cfg.h": "\n"}, ["cp src/hself cfg.h"], ""),
    "shadowing-a-later-library-folder": ({"LDFLAGS": "-L. -Lvendor"}, LINKS_FOO, USES_FOO, {},
                                         ["cp src/fooa libfoo.a"],
                                         f"{FOO} && mkdir -p vendor && mv libfoo.a vendor/ && "
                                         "rm libfoo.so"),
    "shadowing-a-later-run-path": ({"LDFLAGS": "-Lvendor -Wl,-rpath,.:vendor"}, LINKS_FOO,
                                   USES_FOO, {}, ["cp src/foo libfoo.so"],
                                   f"{FOO} && mkdir -p vendor && mv libfoo.so vendor/ && "
                                   "rm libfoo.a"),
    # a later folder's subfolder (include/cfg/c.h) where `.` has a folder of that name
    "shadowing-a-later-folders-subfolder": ({"CPPFLAGS": "-I. -Iinclude"}, BUILDS,
                                            "#include <cfg/c.h>\nint main(void) { return 0; }"
                                            "\n", {"include/cfg/c.h": "\n",
                                                    "cfg/readme.txt": "notes\n"},
                                            ["cp src/hself cfg/c.h"], ""),
    # ld's `-l:NAME` links the file NAME (no lib prefix) from a -L folder
    "a-library-by-its-file-name": ({"LDFLAGS": "-L. -Wl,-rpath,."},
                                   "test: t.c\n\t$(CC) t.c -o t $(LDFLAGS) -l:foo.so\n\t./t\n",
                                   USES_FOO, {}, ["cp src/foo foo.so"],
                                   f"{FOO} && mv libfoo.so foo.so"),
    # the project's header's precompiled form beside it
    "a-precompiled-project-header": ({"CPPFLAGS": "-I."}, BUILDS,
                                     "#include <c.h>\nint main(void) { return 0; }\n",
                                     {"c.h": "\n"}, ["cp src/pch c.h.gch"], PCH),
}


@pytest.mark.parametrize("case", list(HELD_FILES))
def test_h_a_file_the_project_holds_in_the_calls_folder(tmp_path: Path, case: str) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``:
    a call is denied."""
    needs("bash", "make", "gcc", "ar")
    extra, makefile, program, more, calls, setup = HELD_FILES[case]
    denied = proved_case(tmp_path, PLAN, {**FILES, **more, "Makefile": makefile,
                                          "t.c": program}, [*calls, "make test"], extra,
                         setup=f"{setup} && {PCH}" if setup else PCH, executable=("src/x",))
    assert denied is not None, "the hook allows every call, and make's gcc runs the payload"



# --- P: a prefix of programs' names naming the call's folder ------------------------------------

#: Each case: the session's ``CROSS_COMPILE`` (``{P}``: the call's folder), the Makefile's
#: program after it, the file written.
PREFIXED = {
    "versioned-compiler": ("{P}/", "gcc-12", "gcc-12"),
    "resource-compiler": ("{P}/", "windres --version >/dev/null; true", "windres"),
    "parent-versioned-compiler": ("{P}/../", "gcc-12", "../gcc-12"),
    # a prefix of names in the call's folder (`./x-`: refused at 42437dd, "names no folder")
    "dot-prefix-versioned-compiler": ("./x-", "gcc-12", "x-gcc-12"),
    "dot-prefix-resource-compiler": ("./x-", "windres --version >/dev/null; true",
                                     "x-windres"),
    "parent-prefix-versioned-compiler": ("../x-", "gcc-12", "../x-gcc-12"),
}


@pytest.mark.parametrize("case", list(PREFIXED))
def test_p_a_prefix_naming_the_calls_folder(tmp_path: Path, case: str) -> None:
    """The session's ``CROSS_COMPILE``; plan ``Bash(make test)``, ``Bash(cp *)``: a call is
    denied."""
    needs("bash", "make", "gcc")
    value, program, target = PREFIXED[case]
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)"],
                         {"Makefile": f"test:\n\t$(CROSS_COMPILE){program}\n",
                          "src/x": SH_PAYLOAD}, [f"cp src/x {target}", "make test"],
                         {"CROSS_COMPILE": value}, executable=("src/x",))
    assert denied is not None, "the hook allows every call, and make runs the payload"




# --- C: the plan's own compiler command line naming the call's folder -----------------------------

#: Each case: the plan's gcc entry (beside ``Bash(./t)``, ``Bash(cp *)``, ``Bash(mkdir *)``),
#: the calls before it, whether ``./t`` runs after it. gcc's own words (not a variable's):
#: ``-I.``, ``-Iinc``, ``-L.``, ``-Wl,-rpath,.``, ``--sysroot=.``, ``@opts`` (a response file
#: gcc reads its options from, here ``-wrapper ./w``: gcc runs ./w at once).
COMPILER_LINES = {
    "gcc-include-dot": ("gcc -I. t.c -o t", ["cp src/h stdio.h"], True),
    "gcc-include-folder": ("gcc -Iinc t.c -o t", ["mkdir -p inc", "cp src/h inc/stdio.h"],
                           True),
    "gcc-library-folder-dot": ("gcc m.c -o t -L. -lm", ["cp src/liba libm.a"], True),
    "gcc-run-path-dot": ("gcc m.c -o t -Wl,-rpath,. -lm", ["cp src/lib6 libm.so.6"], True),
    "gcc-sysroot-dot": ("gcc --sysroot=. t.c -o t",
                        ["mkdir -p usr/include", "cp src/hself usr/include/stdio.h"], True),
    "gxx-include-dot": ("g++ -I. t.cc -o t", ["cp src/cxx cstdio"], True),
    "gcc-response-file": ("gcc @opts -c t.c", ["cp src/x w", "cp src/opts opts"], False),
}


@pytest.mark.parametrize("case", list(COMPILER_LINES))
def test_c_the_plans_compiler_line_naming_the_calls_folder(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(./t)``, ``Bash(cp *)``, ``Bash(mkdir *)``: a call is
    denied."""
    needs("bash", "gcc", "g++", "ar")
    entry, calls, runs = COMPILER_LINES[case]
    setup = {"gcc-library-folder-dot": LIBA, "gcc-run-path-dot": LIB6}.get(case, "")
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(./t)", "Bash(cp *)",
                                    "Bash(mkdir *)"],
                         {**FILES, "Makefile": BUILDS, "src/opts": "-wrapper ./w\n"},
                         [*calls, entry, *(["./t"] if runs else [])], setup=setup,
                         executable=("src/x",))
    assert denied is not None, "the hook allows every call, and gcc or ./t runs the payload"

# --- V: a toolchain value under a name the gate does not read as the toolchain's ----------------

#: Each case: the session's variable, its value, the Makefile, the calls (before ``make
#: test``). automake's Makefiles compile with ``$(CC) $(DEFS) $(DEFAULT_INCLUDES) $(INCLUDES)
#: $(AM_CPPFLAGS) $(CPPFLAGS) …`` and define no ``INCLUDES`` (make takes it from the
#: environment); hand-written ones use ``$(INC)``, ``$(OPT)``.
NAMED = {
    "automakes-includes-dot": ("INCLUDES", "-I.",
                               "test: t.c\n\t$(CC) $(INCLUDES) $(CFLAGS) t.c -o t\n\t./t\n",
                               ["cp src/h stdio.h"]),
    "automakes-includes-folder": ("INCLUDES", "-Iinc",
                                  "test: t.c\n\t$(CC) $(INCLUDES) $(CFLAGS) t.c -o t\n\t./t\n",
                                  ["mkdir -p inc", "cp src/h inc/stdio.h"]),
    "inc-prefix": ("INC", "-B./", "test: t.c\n\t$(CC) $(INC) t.c -o t\n\t./t\n",
                   ["cp src/x collect2"]),
    "opt-prefix-folder": ("OPT", "-Bv/", "test: t.c\n\t$(CC) $(OPT) -c t.c\n",
                          ["mkdir -p v", "cp src/x v/as"]),
    # the same, spelled as make and the recipe's sh read it: make's `$X` (X unset: empty),
    # sh's backslash and empty quotes inside the option's word
    "includes-beside-a-make-variable": ("INCLUDES", "-I. $X",
                                        "test: t.c\n\t$(CC) $(INCLUDES) t.c -o t\n\t./t\n",
                                        ["cp src/h stdio.h"]),
    "includes-escaped": ("INCLUDES", "\\-I.",
                         "test: t.c\n\t$(CC) $(INCLUDES) t.c -o t\n\t./t\n",
                         ["cp src/h stdio.h"]),
    "includes-empty-quotes-inside": ("INCLUDES", '-""I.',
                                     "test: t.c\n\t$(CC) $(INCLUDES) t.c -o t\n\t./t\n",
                                     ["cp src/h stdio.h"]),
}


@pytest.mark.parametrize("case", list(NAMED))
def test_v_a_toolchain_value_under_another_name(tmp_path: Path, case: str) -> None:
    """The session's ``<NAME>=<value>``; plan ``Bash(make test)``, ``Bash(cp *)``,
    ``Bash(mkdir *)``: a call is denied."""
    needs("bash", "make", "gcc")
    name, value, makefile, calls = NAMED[case]
    denied = _case(tmp_path, PLAN, makefile, [*calls, "make test"], {name: value})
    assert denied is not None, "the hook allows every call, and make's gcc runs the payload"



# --- X: pkg-config's folders naming the call's folder ------------------------------------------

#: A Makefile compiling with a system package's flags (``pkg-config --cflags expat``).
PKG_COMPILES = "test: t.c\n\t$(CC) $$(pkg-config --cflags expat) -c t.c\n"


#: Each case: the variable naming ``.``, the file pkg-config reads there (pkgconf 1.8 takes
#: ``<package>-uninstalled.pc`` before ``<package>.pc``).
PKG_FOLDERS = {"PKG_CONFIG_PATH": ("PKG_CONFIG_PATH", "expat.pc"),
               "PKG_CONFIG_LIBDIR": ("PKG_CONFIG_LIBDIR", "expat.pc"),
               "uninstalled": ("PKG_CONFIG_PATH", "expat-uninstalled.pc")}


@pytest.mark.parametrize("case", list(PKG_FOLDERS))
def test_x_pkg_configs_folder_naming_the_calls_folder(tmp_path: Path, case: str) -> None:
    """The session's ``<name>=.`` (pkg-config reads ``<folder>/<package>.pc`` there first);
    plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``: a call is denied."""
    import subprocess

    needs("bash", "make", "gcc", "pkg-config")
    if subprocess.run(["pkg-config", "--exists", "expat"], check=False).returncode:
        pytest.skip("no expat.pc here")
    name, target = PKG_FOLDERS[case]
    denied = _case(tmp_path, PLAN, PKG_COMPILES, ["cp src/x w", f"cp src/pc {target}",
                                                  "make test"], {name: "."})
    assert denied is not None, "the hook allows every call, and gcc runs ./w"

# --- K: what the change costs a C project ---------------------------------------------------------

#: Each case: the session's variables, the project's links, the calls a careful user makes in
#: a C project (a Makefile compiling ``$(CC) $(CPPFLAGS) t.c``; no C++), each harmless: cpp
#: looks up ``<misc/x.h>`` in ``./misc`` only for a name the system's ``misc/`` holds (a
#: source including it), libstdc++'s ``<version>`` and ``<debug/…>`` only for C++; a link
#: ``here`` to ``.`` names the call's folder, whose names toolnames guards.
COSTS = {
    "a-folder-named-as-the-systems-misc": ({"CPPFLAGS": "-I."}, {},
                                           ["mkdir misc", "cp notes.txt misc/notes.txt"]),
    "a-debug-build-folder": ({"CPPFLAGS": "-I."}, {}, ["mkdir debug", "cp notes.txt debug/"]),
    "a-version-file": ({"CPPFLAGS": "-I."}, {}, ["cp notes.txt version"]),
    "a-link-to-the-calls-folder": ({"CFLAGS": "-Ihere"}, {"here": "."},
                                   ["cp notes.txt notes2.txt"]),
    # a name another folder of the value holds that no compiler or linker looks up (cpp a
    # header's, ld a library's): src/README.md, vendor/LICENSE
    "a-readme-beside-a-source-folder": ({"CPPFLAGS": "-I. -Isrc"}, {},
                                        ["cp notes.txt README.md", "cp notes.txt data.json"]),
    "a-license-beside-a-vendor-folder": ({"LDFLAGS": "-L. -Lvendor"}, {},
                                         ["cp notes.txt LICENSE"]),
}


@pytest.mark.parametrize("case", list(COSTS))
def test_k_an_everyday_call_under_a_folder_value(tmp_path: Path, case: str) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``:
    the calls are allowed."""
    import os

    extra, links, calls = COSTS[case]
    project = hooked_project(tmp_path, PLAN)
    (project / "Makefile").write_text(BUILDS)
    (project / "t.c").write_text(FILES["t.c"])
    (project / "notes.txt").write_text("notes\n")
    for name in ("src/README.md", "src/data.json", "vendor/LICENSE", "vendor/libfoo.a"):
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text("x\n")
    for name, to in links.items():
        os.symlink(to, project / name)
    assert first_denied(project, calls, {**home_env(tmp_path / "home"), **extra}) is None

# --- The rows open at s56-gfix2, each proved above ---------------------------------------------

OPEN.add("test_k_an_everyday_call_under_a_folder_value",
         "cost kept at s56-gfix2: under -I. a name of the system's include folders that the "
         "call's folder does not hold as a folder of its own is guarded whole there (mkdir "
         "misc, mkdir debug); guarding the names below each instead is 5,000 items a call "
         "(867 M instructions a hook's call against 365 M), and the gate's writers deny a "
         "mkdir of a folder holding a guarded path anyway; a folder the project holds already "
         "keeps its files but the system's names (tests/gate/test_s56_gfix2.py). `version` is "
         "libstdc++'s <version>, which g++ takes from ./version (CPPFLAGS reaches make's C++ "
         "rule)", "a-folder-named-as-the-systems-misc", "a-debug-build-folder",
         "a-version-file")
