"""Session 56 review s56-greview2 of s56-gfix2 (a toolchain value naming the call's folder or one
above it: which names in it are guarded; the subfolders of later folders; the folders a recipe
runs in; a ``$`` in a session's value). Each hole is proved by real bash and the real program
(GNU make 4.3, gcc 12, ld 2.40, glibc 2.36's loader, pkgconf 1.8, the built program) in a scratch
copy first (``bash_review.proved_case``), then the printed hook is asked call by call: the hook
allowing every call is the finding (a strict-xfail row in ``OPEN``); a case the change holds is a
plain test pinning it.

The readings are the oracles': ld.so(8)'s dynamic string tokens (``$ORIGIN``: the program's own
folder; ``$LIB``: ``lib/x86_64-linux-gnu`` here, relative; ``$PLATFORM``: the CPU's name, relative)
in ``LD_LIBRARY_PATH`` and ``LD_PRELOAD`` (``LD_DEBUG=libs`` shows the search); cpp's search
(``gcc -v -E``): a quoted include's own folder first, then each ``-I`` folder for any name a
source spells (``<cfg>``, ``<cfg/config>``: no ending needed), and what libstdc++'s own headers
ask for (``__has_include(<tbb/tbb.h>)``); what gcc 12's driver, collect2 and ld look up in a
folder a value names (``strace -f -e trace=file,execve``: ``x86_64-linux-gnu-as``, ld's
``lib<n>.so`` then ``lib<n>.a``), glibc's name services and iconv modules (nsswitch.conf,
``gconv-modules``); pkgconf's sysroot; the kernel's reading of ``..`` after a link."""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_review import LeftOpen, needs, proved_case

#: Real bash, make, gcc, ld and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open here, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

#: The payload's constructor (the built program, or a library at its load, runs it): it makes
#: the file ``zz`` itself (no program started), the preload's first unsetting its variable.
_CONSTRUCTOR = ('#include <fcntl.h>\n#include <stdlib.h>\n#include <unistd.h>\n'
                '__attribute__((constructor)) static void zz(void) { unsetenv("LD_PRELOAD"); '
                'close(open("zz", O_CREAT | O_WRONLY, 0644)); }\n')
#: A library standing for libm (``cos``), whose constructor runs the payload; a header whose
#: constructor does (the built program runs it).
LIBRARY = _CONSTRUCTOR + "double cos(double x) { return x; }\n"
HEADER = _CONSTRUCTOR
#: The setups: a library named libm.so.6 (``src/lib6``), a preload (``src/pre``).
LIB6 = "gcc -shared -fPIC -o src/lib6 pl.c -Wl,-soname,libm.so.6"
PRE = "gcc -shared -fPIC -o src/pre pl.c"

#: A Makefile building a program linking libm and running it; one building any program.
LINKS_LIBM = "test: m.c\n\t$(CC) m.c -o t -lm\n\t./t\n"
BUILDS = "test: t.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) t.c -o t $(LDFLAGS)\n\t./t\n"

#: The project's files beside the Makefile.
FILES = {"t.c": "#include <stdio.h>\nint main(void) { return 0; }\n",
         "m.c": "#include <math.h>\nint main(int c, char **v) { return (int)cos(c) - 1; }\n",
         "pl.c": LIBRARY, "src/hself": HEADER, "notes.txt": "notes\n"}
#: The plan of the session cases.
PLAN = ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)"]


# --- D: the dynamic loader's own tokens in a session's value ----------------------------------

#: Each case: the session's variables, the Makefile, the calls (before ``make test``), the
#: setup. ld.so(8) expands ``$ORIGIN`` (``${ORIGIN}``) in ``LD_LIBRARY_PATH`` and ``LD_PRELOAD``
#: to each program's own folder (``./t``: the call's), ``$LIB`` and ``$PLATFORM`` to relative
#: folders read from the folder each program runs in (``LD_DEBUG=libs``).
TOKENS = {
    "library-path-origin": ({"LD_LIBRARY_PATH": "$ORIGIN"}, LINKS_LIBM,
                            ["cp src/lib6 libm.so.6"], LIB6),
    "library-path-lib": ({"LD_LIBRARY_PATH": "$LIB"}, LINKS_LIBM,
                         ["mkdir -p lib/x86_64-linux-gnu",
                          "cp src/lib6 lib/x86_64-linux-gnu/libm.so.6"], LIB6),
    "library-path-platform": ({"LD_LIBRARY_PATH": "/opt/none:$PLATFORM"}, LINKS_LIBM,
                              ["mkdir -p haswell x86_64 xeon_phi",
                               "cp src/lib6 haswell/libm.so.6", "cp src/lib6 x86_64/libm.so.6",
                               "cp src/lib6 xeon_phi/libm.so.6"], LIB6),
    "preload-origin": ({"LD_PRELOAD": "$ORIGIN/p.so"}, LINKS_LIBM, ["cp src/pre p.so"], PRE),
}


@pytest.mark.parametrize("case", list(TOKENS))
def test_d_a_loader_token_in_a_sessions_value(tmp_path: Path, case: str) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``:
    a call is denied."""
    needs("bash", "make", "gcc")
    extra, makefile, calls, setup = TOKENS[case]
    denied = proved_case(tmp_path, PLAN, {**FILES, "Makefile": makefile},
                         [*calls, "make test"], extra, setup=setup)
    assert denied is not None, "the hook allows every call, and the loader loads the payload"


# --- L: a name a later folder of the search holds, in an earlier one ---------------------------

#: Each case: the session's variables, the program, the project's other files, the calls
#: (before ``make test``). The later folder (``include``) is guarded whole (the value names
#: it); cpp takes the name from the earlier folder first: any name a source spells (``<cfg>``,
#: ``<cfg/config>``, ``<cfg/c.inl>``), and for a quoted include the including file's own folder
#: before every ``-I`` folder.
LATER = {
    "a-header-without-an-ending": ({"CPPFLAGS": "-I. -Iinclude"}, "#include <cfg>\n",
                                   {"include/cfg": "\n"}, ["cp src/hself cfg"]),
    "a-subfolders-header-without-an-ending": ({"CPPFLAGS": "-I. -Iinclude"},
                                              "#include <cfg/config>\n",
                                              {"include/cfg/config": "\n"},
                                              ["mkdir -p cfg", "cp src/hself cfg/config"]),
    "a-subfolders-inline-file": ({"CPPFLAGS": "-I. -Iinclude"}, "#include <cfg/c.inl>\n",
                                 {"include/cfg/c.inl": "\n"},
                                 ["mkdir -p cfg", "cp src/hself cfg/c.inl"]),
    # (a quoted include's own folder, `#include "cfg.h"` under `-Iinclude`: the project's own
    # source, as t.c is: the lead's call at the merge, session 56; s56-gfix2's pin holds it)
    # a data table a source includes inside an initializer (cpp takes any name; the payload
    # closes the initializer, defines its constructor, opens another)
    "a-data-table-a-source-includes": ({"CPPFLAGS": "-I. -Iinclude"},
                                       "int table[] = {\n#include <table.csv>\n};\n",
                                       {"include/table.csv": "0, 1, 2\n",
                                        "src/csv": "0 };\n" + HEADER + "int zz_after[] = { 0\n"},
                                       ["cp src/csv table.csv"]),
    # held by the G8b fix: a later folder's subfolders, any depth, from any later variable
    "a-deep-subfolders-header": ({"CPPFLAGS": "-I.", "CPATH": "include"},
                                 "#include <a/b/c.h>\n", {"include/a/b/c.h": "\n"},
                                 ["mkdir -p a/b", "cp src/hself a/b/c.h"]),
}


#: A later folder that is itself one a call runs in or above it (``..``: its own headers and
#: libraries are guarded there by name), each case's setup filling it (``../cfg.h``,
#: ``../libfoo.a``); the earlier ``.`` holds no such name yet.
PARENT_HEADER = "printf '\\n' > ../cfg.h"
PARENT_LIBRARY = ("printf 'int foo(void) { return 0; }\\n' > f.c && gcc -c f.c -o f.o && "
                  "ar rcs ../libfoo.a f.o && cat pl.c f.c > g.c && gcc -c g.c -o g.o && "
                  "ar rcs src/fooa g.o && rm f.c f.o g.c g.o")
KEPT_LATER = {
    "a-kept-later-folders-header": ({"CPPFLAGS": "-I. -I.."}, BUILDS, "#include <cfg.h>\n",
                                    ["cp src/hself cfg.h"], PARENT_HEADER),
    "a-kept-later-folders-library": ({"LDFLAGS": "-L. -L.."},
                                     "test: t.c\n\t$(CC) t.c -o t $(LDFLAGS) -lfoo\n\t./t\n",
                                     "int foo(void);\n", ["cp src/fooa libfoo.a"],
                                     PARENT_LIBRARY),
}


#: The call's folder's own headers, held at its top (guarded there since session 55: "a header
#: there is code the build compiles", ``./c.h`` is): any name a source spells, ``<cfg>`` (an
#: extensionless one, C++'s and Qt's style), ``<c.inl>``.
OWN = {
    "its-own-header-without-an-ending": ({"CPPFLAGS": "-I."}, "#include <cfg>\n", {"cfg": "\n"},
                                         ["cp src/hself cfg"]),
    "its-own-inline-file": ({"CPPFLAGS": "-I."}, "#include <c.inl>\n", {"c.inl": "\n"},
                            ["cp src/hself c.inl"]),
}
LATER.update(OWN)
#: K1's relief (a35688f: a folder `.` holds named as a system include folder, net/, is guarded
#: by the system's names below it, not whole) where a later folder's subfolder of that name is
#: a link (G8b's fix guards such a subfolder's name whole in `.`): the relief drops it.
LATER["a-linked-later-subfolder-named-as-the-systems"] = (
    {"CPPFLAGS": "-I. -Iinclude"}, "#include <net/x.h>\n",
    {"vendor/net/x.h": "\n", "net/notes.txt": "notes\n", "include/a.h": "\n"},
    ["cp src/hself net/x.h"])


@pytest.mark.parametrize("case", [*LATER, *KEPT_LATER])
def test_l_a_later_folders_name_in_an_earlier_one(tmp_path: Path, case: str) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``:
    a call is denied."""
    needs("bash", "make", "gcc", "ar")
    if case in KEPT_LATER:
        extra, makefile, include, calls, setup = KEPT_LATER[case]
        more: dict[str, str] = {}
    else:
        (extra, include, more, calls), makefile, setup = LATER[case], BUILDS, ""
    program = include + "int main(void) { return 0; }\n"
    if "foo" in include:
        program = include + "int main(void) { return foo(); }\n"
    links = {"include/net": "../vendor/net"} if "named-as-the-systems" in case else {}
    denied = proved_case(tmp_path, PLAN, {**FILES, **more, "Makefile": makefile,
                                          "t.c": program}, [*calls, "make test"], extra,
                         setup=setup, links=links)
    assert denied is not None, "the hook allows every call, and make's gcc runs the payload"


# --- B: a header a system header asks for by ``__has_include`` -----------------------------------

#: libstdc++'s ``<bits/c++config.h>`` (every C++17 compile) defines
#: ``_GLIBCXX_USE_TBB_PAR_BACKEND __has_include(<tbb/tbb.h>)``; where it is found, ``<execution>``
#: compiles its parallel algorithms against ``<tbb/blocked_range.h>``, ``<tbb/task.h>``… (pstl's
#: parallel_backend_tbb.h). A stand-in for the old TBB interface it reads, whose constructor runs
#: the payload (no TBB is installed here: no folder of the search holds ``tbb/``).
TBB = ('#pragma once\n#include <cstddef>\n#include <fcntl.h>\n#include <unistd.h>\n'
       '__attribute__((constructor)) static void zz() { close(open("zz", O_CREAT | O_WRONLY, '
       '0644)); }\n#define TBB_INTERFACE_VERSION 11000\nnamespace tbb {\nstruct split {};\n'
       'struct pre_scan_tag { static bool is_final_scan() { return false; } };\n'
       'struct final_scan_tag { static bool is_final_scan() { return true; } };\n'
       'template <class T> struct blocked_range {\n  typedef T const_iterator;\n'
       '  blocked_range(T b, T e, std::size_t = 1) : b_(b), e_(e) {}\n'
       '  blocked_range(blocked_range &r, split) : b_(r.b_), e_(r.e_) {}\n'
       '  T begin() const { return b_; } T end() const { return e_; }\n'
       '  std::size_t size() const { return e_ - b_; } bool empty() const { return !(b_ < e_); }'
       '\n  bool is_divisible() const { return false; } std::size_t grainsize() const '
       '{ return 1; }\n  T b_, e_;\n};\n'
       'template <class... A> void parallel_for(A &&...) {}\n'
       'template <class... A> void parallel_invoke(A &&...) {}\n'
       'template <class... A> int parallel_reduce(A &&...) { return 0; }\n'
       'template <class... A> void parallel_scan(A &&...) {}\n'
       'template <class T> struct tbb_allocator { typedef T value_type; T *allocate(std::size_t);'
       ' void deallocate(T *, std::size_t); };\n'
       'template <class T> using allocator = tbb_allocator<T>;\n'
       'struct task_group_context { void cancel_group_execution() {} };\n'
       'struct task {\n  virtual ~task() {}\n  virtual task *execute() = 0;\n'
       '  static task &self() { static task *t; return *t; }\n'
       '  template <class... A> static task &allocate_root(A &&...);\n'
       '  template <class... A> task &allocate_additional_child_of(A &&...);\n'
       '  void recycle_as_child_of(task &); void recycle_as_continuation();\n'
       '  task_group_context *context(); static task_group_context *current_context();\n'
       '  template <class... A> static void spawn(A &&...);\n'
       '  template <class... A> static void spawn_root_and_wait(A &&...);\n'
       '  void set_ref_count(int); int ref_count(); int decrement_ref_count(); '
       'void increment_ref_count(); task *parent(); void set_parent(task *);\n'
       '  template <class... A> task &allocate_continuation(A &&...);\n'
       '  template <class... A> task &allocate_child(A &&...);\n'
       '  bool is_cancelled(); task_group_context *group();\n};\n'
       'namespace this_task_arena { template <class F> auto isolate(F f) -> decltype(f()) '
       '{ return f(); } inline int max_concurrency() { return 1; } }\n}\n')
#: The headers pstl's TBB backend includes (each the stand-in's).
TBB_HEADERS = ("blocked_range", "parallel_for", "parallel_reduce", "parallel_scan",
               "parallel_invoke", "task_arena", "tbb_allocator", "task")


def test_b_a_header_a_system_header_asks_for(tmp_path: Path) -> None:
    """The session's ``CPPFLAGS=-I.``, a C++17 program including only ``<execution>``; plan
    ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``: ``cp -r src/tbb tbb`` (or ``make
    test`` after it) is denied. The project's sources name no ``tbb`` header: the system's own
    c++config.h asks for it, which the boundary's premise ("a header no folder holds is one the
    project's sources ask for: its source") does not cover."""
    import os

    needs("bash", "make", "g++")
    if os.path.isdir("/usr/include/tbb"):
        pytest.skip("TBB is installed here: <tbb/tbb.h> is a system header")
    files = {"Makefile": "test: t.cc\n\t$(CXX) $(CPPFLAGS) -std=c++17 t.cc -o t\n\t./t\n",
             "t.cc": "#include <execution>\nint main() { return 0; }\n", "src/tbb/tbb.h": TBB,
             **{f"src/tbb/{h}.h": '#include "tbb.h"\n' for h in TBB_HEADERS}}
    denied = proved_case(tmp_path, PLAN, files, ["cp -r src/tbb tbb", "make test"],
                         {"CPPFLAGS": "-I."})
    assert denied is not None, "the hook allows every call, and g++ compiles the payload in"


# --- P: pkg-config's sysroot naming the call's folder --------------------------------------------

#: Makefiles compiling and linking with a system package's flags (expat: ``-lexpat``; pkgconf 1.8
#: drops ``-I/usr/include`` as the system's, but puts ``PKG_CONFIG_SYSROOT_DIR`` before each
#: folder it prints: ``-I./usr/include -L./usr/lib/x86_64-linux-gnu``, searched before the
#: system's own).
PKG_COMPILES = "test: t.c\n\t$(CC) $$(pkg-config --cflags expat) t.c -o t\n\t./t\n"
PKG_LINKS = ("test: m.c\n\t$(CC) m.c -o t $$(pkg-config --libs expat) -lm\n\t./t\n")

#: Each case: the session's variables, the Makefile, the calls (before ``make test``), the setup.
SYSROOTS = {
    "sysroot-headers": ({"PKG_CONFIG_SYSROOT_DIR": "."}, PKG_COMPILES,
                        ["mkdir -p usr/include", "cp src/hself usr/include/stdio.h"], ""),
    "sysroot-libraries": ({"PKG_CONFIG_SYSROOT_DIR": "."}, PKG_LINKS,
                          ["mkdir -p usr/lib/x86_64-linux-gnu",
                           "cp src/liba usr/lib/x86_64-linux-gnu/libm.a"],
                          "gcc -c -fPIC -o pl.o pl.c && ar rcs src/liba pl.o"),
}


@pytest.mark.parametrize("case", list(SYSROOTS))
def test_p_pkg_configs_sysroot_naming_the_calls_folder(tmp_path: Path, case: str) -> None:
    """The session's ``PKG_CONFIG_SYSROOT_DIR``; plan ``Bash(make test)``, ``Bash(cp *)``,
    ``Bash(mkdir *)``: a call is denied."""
    import subprocess

    needs("bash", "make", "gcc", "ar", "pkg-config")
    libdir = subprocess.run(["pkg-config", "--variable=libdir", "expat"], capture_output=True,
                            text=True, check=False).stdout.strip()
    if libdir != "/usr/lib/x86_64-linux-gnu":
        pytest.skip(f"expat's libdir here is {libdir!r}, not the cases' /usr/lib/x86_64-linux-gnu")
    extra, makefile, calls, setup = SYSROOTS[case]
    denied = proved_case(tmp_path, PLAN, {**FILES, "Makefile": makefile}, [*calls, "make test"],
                         extra, setup=setup)
    assert denied is not None, "the hook allows every call, and gcc reads the payload"


# --- N: a name gcc's driver or ld looks up in a folder a value names ----------------------------

#: An executable running the payload, as gcc runs its assembler (``cp`` keeps the mode).
SH_PAYLOAD = "#!/bin/sh\ntouch zz\n"
#: An archive member defining ``puts`` (gcc turns ``printf("x\n")`` into it) whose constructor
#: runs the payload: ld pulls it in for the program's undefined ``puts`` (``src/puts``).
PUTS = _CONSTRUCTOR + "int puts(const char *s) { return 0; }\n"
PUTS_ARCHIVE = "gcc -c -fPIC -o pf.o pf.c && ar rcs src/puts pf.o"
PRINTS = '#include <stdio.h>\nint main(void) { printf("x\\n"); return 0; }\n'
NSS_USER = '#include <netdb.h>\nint main(void) { getservbyname("http", "tcp"); return 0; }\n'

#: Each case: the session's variables, the Makefile, the calls (before ``make test``), the
#: setup. strace of gcc 12 (``-e trace=file,execve``) lists what it looks up there: the driver
#: tries ``<machine>-as`` in each program prefix (``-B./``, ``COMPILER_PATH``) and runs it;
#: ld tries ``lib<name>.so`` then ``lib<name>.a`` in each ``-L`` folder for each ``-l<name>``
#: gcc passes (``-lgcc -lgcc_s -lc``), where the system holds one ending only (libgcc_s.so,
#: libgcc.a, libpthread.a, libgcov.a), the other is no name toolnames knows.
LOOKUPS = {
    "prefix-machine-assembler": ({"CFLAGS": "-B./"},
                                 "test: t.c\n\t$(CC) $(CFLAGS) -c t.c -o t.o\n",
                                 ["cp src/x x86_64-linux-gnu-as"], ""),
    "library-folder-other-ending": ({"LDFLAGS": "-L."},
                                    "test: p.c\n\t$(CC) p.c -o t $(LDFLAGS)\n\t./t\n",
                                    ["cp src/puts libgcc_s.a"], PUTS_ARCHIVE),
    # cc1 converts its input by glibc's iconv, which reads `<GCONV_PATH>/gconv-modules` and
    # dlopens the module it names there (`pay` -> ./pay.so)
    "gconv-folder-compiler": ({"GCONV_PATH": "."},
                              "test: t.c\n\t$(CC) -finput-charset=ISO-8859-1 -c t.c\n",
                              ["cp src/mods gconv-modules", "cp src/pre pay.so"],
                              "gcc -shared -fPIC -o src/pre pl.c"),
    # glibc dlopens the NSS module /etc/nsswitch.conf names (`services: db files`:
    # libnss_db.so.2, not installed) by the program's DT_RPATH (old tags) first
    "run-path-nss-module": ({"LDFLAGS": "-Wl,--disable-new-dtags,-rpath,."},
                            "test: n.c\n\t$(CC) n.c -o t $(LDFLAGS)\n\t./t\n",
                            ["cp src/nss libnss_db.so.2"],
                            "gcc -shared -fPIC -o src/nss pl.c -Wl,-soname,libnss_db.so.2"),
}


@pytest.mark.parametrize("case", list(LOOKUPS))
def test_n_a_name_the_toolchain_looks_up(tmp_path: Path, case: str) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``:
    a call is denied."""
    import os
    import subprocess

    needs("bash", "make", "gcc", "ar")
    machine = subprocess.run(["gcc", "-dumpmachine"], capture_output=True, text=True,
                             check=True).stdout.strip()
    if machine != "x86_64-linux-gnu":
        pytest.skip(f"gcc's machine here is {machine}, not the cases' x86_64-linux-gnu")
    extra, makefile, calls, setup = LOOKUPS[case]
    if case == "run-path-nss-module" and (os.path.exists("/usr/lib/x86_64-linux-gnu/libnss_db.so.2")
                                          or "services: db" not in " ".join(
                                              Path("/etc/nsswitch.conf").read_text().split())):
        pytest.skip("nsswitch.conf names no uninstalled libnss_db.so.2 for services here")
    files = {**FILES, "Makefile": makefile, "src/x": SH_PAYLOAD, "pf.c": PUTS, "p.c": PRINTS,
             "n.c": NSS_USER, "src/mods": "module ISO-8859-1// INTERNAL pay 1\n"
                                          "module INTERNAL ISO-8859-1// pay 1\n"}
    denied = proved_case(tmp_path, PLAN, files, [*calls, "make test"], extra, setup=setup,
                         executable=("src/x",))
    assert denied is not None, "the hook allows every call, and gcc runs the payload"


# --- S: a spelling of the call's folder through a link ------------------------------------------


#: Each case: the calls before ``make test``, the project's links. The kernel reads ``..``
#: after a link's target (``link -> sub/deeper``: ``link/../..`` is the call's own folder),
#: not as a lexical step back (``..``: the folder above it); a link made after the write too
#: (``cp -P`` copies the project's own link ``cur -> a/b``).
LINKED = {
    "a-links-parent": (["cp src/h stdio.h"], {"link": "sub/deeper"}),
    "a-link-made-after-the-write": (["cp src/h stdio.h", "cp -P cur link"], {"cur": "a/b"}),
}


@pytest.mark.parametrize("case", list(LINKED))
def test_s_a_links_parent_is_the_calls_folder(tmp_path: Path, case: str) -> None:
    """The session's ``CPPFLAGS=-Ilink/../..``; plan ``Bash(make test)``, ``Bash(cp *)``,
    ``Bash(mkdir *)``: a call is denied."""
    needs("bash", "make", "gcc")
    calls, links = LINKED[case]
    denied = proved_case(tmp_path, PLAN, {**FILES, "Makefile": BUILDS, "sub/deeper/keep": "k\n",
                                          "a/b/keep": "k\n",
                                          "src/h": "#include_next <stdio.h>\n" + HEADER},
                         [*calls, "make test"], {"CPPFLAGS": "-Ilink/../.."}, links=links)
    assert denied is not None, "the hook allows every call, and make's gcc runs the payload"

# --- R: `..` read where a recipe runs (s55-greview2 G6's class, other forms) -------------------

#: A sub-make's Makefile in ``sub`` building and running its program (``$(CFLAGS)`` from the
#: session's environment).
SUB_BUILDS = "all: t.c\n\t$(CC) $(CFLAGS) t.c -o t\n\t./t\n"
#: Each case: the Makefile. ``-I..`` read from the folder gcc runs in is the call's own folder:
#: a folder make's ``$(foreach)`` names (kbuild's, automake's SUBDIRS loops), an out-of-tree
#: build folder the recipe makes itself (none exists at the write).
RECIPES = {
    "a-foreach-sub-make": "DIRS = sub\ntest:\n\t$(foreach d,$(DIRS),$(MAKE) -C $(d);)\n",
    "a-build-folder-the-recipe-makes": ("test:\n\tmkdir -p build && cd build && $(CC) $(CFLAGS) "
                                        "../t.c -o t && ./t\n"),
}


@pytest.mark.parametrize("case", list(RECIPES))
def test_r_the_parent_of_a_recipes_folder(tmp_path: Path, case: str) -> None:
    """The session's ``CFLAGS=-I..``; plan ``Bash(make test)``, ``Bash(cp *)``,
    ``Bash(mkdir *)``: a call is denied."""
    needs("bash", "make", "gcc")
    files = {**FILES, "Makefile": RECIPES[case], "sub/Makefile": SUB_BUILDS,
             "sub/t.c": FILES["t.c"], "src/h": "#include_next <stdio.h>\n" + HEADER}
    denied = proved_case(tmp_path, PLAN, files, ["cp src/h stdio.h", "make test"],
                         {"CFLAGS": "-I.."})
    assert denied is not None, "the hook allows every call, and the recipe's gcc runs the payload"


# --- W: a folder a value names, guarded whole, and the links it holds -----------------------------

#: Each case: the session's variables, the Makefile, the project's links (a vendored layout),
#: the file the payload is written to (where a link leads), the program. The value's folder is
#: guarded whole; gcc and cpp read through its links (include/cfg/c.h is vendor/cfg/c.h; gcc's
#: prefix v/ runs v/as, which is other/as).
LINKS_OUT = {
    "a-linked-subfolder": ({"CPPFLAGS": "-Iinclude"}, BUILDS, {"include/cfg": "../vendor/cfg"},
                           "vendor/cfg/c.h", "#include <cfg/c.h>\n"),
    "a-linked-program": ({"CFLAGS": "-Bv/"}, "test: t.c\n\t$(CC) $(CFLAGS) -c t.c -o t.o\n",
                         {"v/as": "../other/as"}, "other/as", ""),
}


@pytest.mark.parametrize("case", list(LINKS_OUT))
def test_w_where_a_guarded_folders_links_lead(tmp_path: Path, case: str) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``:
    a call is denied."""
    needs("bash", "make", "gcc")
    extra, makefile, links, target, include = LINKS_OUT[case]
    files = {**FILES, "Makefile": makefile, "include/a.h": "\n", "v/keep": "k\n",
             "vendor/cfg/c.h": "\n", "other/as": "#!/bin/sh\nexec as \"$@\"\n",
             "src/x": "#!/bin/sh\ntouch zz\n",
             "t.c": include + "int main(void) { return 0; }\n"}
    source = "src/x" if target == "other/as" else "src/hself"
    denied = proved_case(tmp_path, PLAN, files, [f"cp {source} {target}", "make test"], extra,
                         links=links, executable=("src/x", "other/as"))
    assert denied is not None, "the hook allows every call, and gcc runs the payload"

# --- The rows open, each proved above ---------------------------------------------------------

