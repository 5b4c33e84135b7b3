"""Session 56 s56-gfix2: the names cpp looks up below a toolchain value's folder that is the
call's (issue 29; review s55-greview2 G8b, K1, G5, G8c). Under ``-I. -Iinclude`` the headers a
later folder holds in its subfolders are guarded by their paths below the call's folder
(``include/cfg/c.h``: ``./cfg/c.h``), and under ``-I.`` a folder of the project's named as one of
the system's include folders (``net/``, ``misc/``, ``debug/``) keeps its own files writable but
the names the system's folder holds (``net/if.h``). Each attack is proved by real bash, make
and gcc in a scratch copy first (``bash_review.proved_case``), then the printed hook is asked
call by call; each cost and boundary case asks the hook only."""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved_case

#: Real bash, make, gcc and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open here, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

#: A header whose constructor runs the payload in the built program.
HEADER = ('__attribute__((constructor)) static void zz(void)'
          ' { int system(const char *); system("touch zz"); }\n')
#: A Makefile building its test program and running it.
BUILDS = "test: t.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) t.c -o t $(LDFLAGS)\n\t./t\n"
PLAN = ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)"]


def _program(header: str) -> str:
    """A test program including ``<header>``."""
    return f"#include <{header}>\nint main(void) {{ return 0; }}\n"


#: Each case: the session's variables, the project's files, its links, the calls. cpp takes
#: ``<a/b/c.h>`` from ``./a/b/c.h`` before ``include/a/b/c.h`` (a later folder's header two
#: folders down), ``<cfg/c.h>`` from ``./cfg/`` where the later folder's ``cfg`` is a link
#: (guarded whole in ``.``), ``<net/if.h>`` from the project's own ``net/`` before the
#: system's.
ATTACKS = {
    "shadowing-a-later-folders-deeper-header": (
        {"CPPFLAGS": "-I. -Iinclude"},
        {"t.c": _program("a/b/c.h"), "include/a/b/c.h": "\n", "a/b/readme.txt": "notes\n",
         "src/h": HEADER}, {}, ["cp src/h a/b/c.h", "make test"]),
    "shadowing-a-later-folders-linked-subfolder": (
        {"CPPFLAGS": "-I. -Iinclude"},
        {"t.c": _program("cfg/c.h"), "vendor/cfg/c.h": "\n", "include/x.h": "\n",
         "src/h": HEADER}, {"include/cfg": "../vendor/cfg"},
        ["mkdir cfg", "cp src/h cfg/c.h", "make test"]),
    "a-project-folder-named-as-the-systems": (
        {"CPPFLAGS": "-I."},
        {"t.c": _program("net/if.h"), "net/notes.txt": "notes\n",
         "src/h": "#include_next <net/if.h>\n" + HEADER}, {},
        ["cp src/h net/if.h", "make test"]),
}


@pytest.mark.parametrize("case", list(ATTACKS))
def test_a_name_looked_up_below_the_calls_folder(tmp_path: Path, case: str) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``:
    a call is denied."""
    needs("bash", "make", "gcc")
    extra, files, links, calls = ATTACKS[case]
    denied = proved_case(tmp_path, PLAN, {**files, "Makefile": BUILDS}, calls, extra,
                         links=links)
    assert denied is not None, "the hook allows every call, and make's gcc runs the payload"


#: Each case: the session's variables, the project's files, the everyday calls (allowed: a
#: folder of the project's named as a system include folder keeps its files but the system's
#: names; a later folder's subfolder name in ``.`` keeps its files but the later folder's
#: headers).
EVERYDAY = {
    "a-project-folder-named-as-the-systems": (
        {"CPPFLAGS": "-I."}, {"net/notes.txt": "n\n", "misc/a.txt": "n\n", "debug/a.txt": "n\n"},
        ["cp notes.txt net/notes2.txt", "cp notes.txt misc/notes2.txt",
         "cp notes.txt debug/run.log", "mkdir -p debug/x86", "cp t.c net/local.h"]),
    "a-later-folders-subfolder-name": (
        {"CPPFLAGS": "-I. -Iinclude"}, {"include/cfg/c.h": "\n", "cfg/readme.txt": "n\n"},
        ["cp notes.txt cfg/notes.txt", "cp notes.txt cfg/d.h", "cp notes.txt c.h.txt"]),
    # a later folder's documents and data (no source includes them: s55-greview2 K3), and a
    # sysroot's other names (pkg-config puts it before each folder: usr/, lib*/ only)
    "a-later-folders-documents": (
        {"CPPFLAGS": "-I. -Iinclude"}, {"include/README.md": "n\n", "include/LICENSE": "n\n",
                                        "include/cfg/README.md": "n\n", "include/cfg/c": "\n",
                                        "cfg/readme.txt": "n\n"},
        ["cp notes.txt README.md", "cp notes.txt LICENSE", "cp notes.txt cfg/notes.txt"]),
    "pkg-config-sysroot-dot": ({"PKG_CONFIG_SYSROOT_DIR": "."}, {},
                               ["cp notes.txt notes2.txt", "mkdir build", "cp t.c build/t.c"]),
}


@pytest.mark.parametrize("case", list(EVERYDAY))
def test_k_an_everyday_write_below_the_calls_folder(tmp_path: Path, case: str) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``:
    each call is allowed."""
    needs("bash")
    extra, files, calls = EVERYDAY[case]
    project = hooked_project(tmp_path, PLAN)
    for name, text in {**files, "t.c": _program("stdio.h"), "notes.txt": "notes\n",
                       "Makefile": BUILDS}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    env = {**home_env(tmp_path / "home"), **extra}
    assert first_denied(project, calls, env) is None, "the hook denies an everyday call"


#: The boundary (docs/decisions.md, session 56): a header no folder of the search holds at the
#: call (one a source asks for by ``__has_include``; one the build generates later in a folder
#: that does not exist yet), a header below the call's folder (``<cfg/c.h>`` under ``-I.``) and
#: one beside the source including it by quotes (``"cfg.h"``) are the project's own sources,
#: which the session writes as it writes ``t.c`` (the plan's ``make test`` compiles and runs
#: either). Each case: the session's variables, the Makefile, the source, more files, the
#: header's write.
BOUNDARY = {
    "a-header-the-source-asks-for": (
        {"CPPFLAGS": "-I."}, BUILDS,
        "#if __has_include(<zz.h>)\n#include <zz.h>\n#endif\nint main(void) { return 0; }\n",
        {}, "cp src/h zz.h"),
    "a-header-in-a-subfolder": ({"CPPFLAGS": "-I."}, BUILDS, _program("cfg/c.h"),
                                {"cfg/c.h": "\n"}, "cp src/h cfg/c.h"),
    "shadowing-a-generated-header": (
        {"CPPFLAGS": "-I. -Ibuild/include"},
        "test: t.c\n\tmkdir -p build/include\n\techo '#define X 1' > build/include/config.h\n"
        "\t$(CC) $(CPPFLAGS) t.c -o t\n\t./t\n", _program("config.h"), {},
        "cp src/h config.h"),
    # a quoted include reads the including source's own folder first (s56-greview2 L2)
    "a-quoted-include-its-own-folder": ({"CPPFLAGS": "-Iinclude"}, BUILDS,
                                        '#include "cfg.h"\nint main(void) { return 0; }\n',
                                        {"include/cfg.h": "\n"}, "cp src/h cfg.h"),
}


@pytest.mark.parametrize("case", list(BOUNDARY))
def test_b_the_projects_own_header_is_its_source(tmp_path: Path, case: str) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``:
    the header's write is allowed exactly as the source's is (``cp src/h t.c``), and ``make
    test`` after it."""
    needs("bash")
    extra, makefile, program, more, write = BOUNDARY[case]
    answers = []
    for side, calls in (("header", [write, "make test"]), ("source", ["cp src/h t.c"])):
        project = hooked_project(tmp_path / side, PLAN)
        for name, text in {**more, "Makefile": makefile, "t.c": program,
                           "src/h": HEADER}.items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(text)
        env = {**home_env(tmp_path / side / "home"), **extra}
        answers.append(first_denied(project, calls, env))
    assert answers == [None, None], "the header's write and the source's are told apart"


#: A library named libm.so.6 whose constructor runs the payload (``src/lib6``, the setup builds
#: it); a program linking libm.
LIBRARY = ('#include <stdlib.h>\n__attribute__((constructor)) static void zz(void) '
           '{ system("touch zz"); }\ndouble cos(double x) { return x; }\n')
USES_LIBM = "#include <math.h>\nint main(int c, char **v) { return (int)cos(c) - 1; }\n"


def test_a_the_linkers_origin_through_the_environment(tmp_path: Path) -> None:
    """The session's ``LDFLAGS='-Wl,-rpath,$ORIGIN/../lib'`` (s53-greview2's K6 cost row:
    refused); plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)``: a call is denied.
    make reads ``$(LDFLAGS)`` as ``$O`` then ``RIGIN/../lib`` (O empty: ``./lib``), but exports
    the value unchanged to its recipes, where a program reading the environment (here the
    recipe's ``$$LDFLAGS``; setuptools, cmake, meson alike) hands ld ``$ORIGIN`` itself: the
    built program's folder, ``../lib`` from ``./t``, which make's reading never names. So a
    ``$`` in a toolchain value stays refused."""
    needs("bash", "make", "gcc")
    denied = proved_case(
        tmp_path, PLAN, {"Makefile": "test: m.c\n\t$(CC) m.c -o t $$LDFLAGS -lm\n\t./t\n",
                         "m.c": USES_LIBM, "pl.c": LIBRARY},
        ["mkdir -p ../lib", "cp src/lib6 ../lib/libm.so.6", "make test"],
        {"LDFLAGS": "-Wl,-rpath,$ORIGIN/../lib"},
        setup="gcc -shared -fPIC -o src/lib6 pl.c -Wl,-soname,libm.so.6")
    assert denied is not None, "the hook allows every call, and ./t loads ../lib/libm.so.6"
