"""Review s54 (s54-greview) of s54-gfix (what the plan's makefiles and CMakeLists make make and
cmake read: includes, remade makefiles' sources, ``load``, exported variables, ``-f``,
``MAKEFILES``, read from their text; failing closed where the text names files by what the
gate cannot compute). Each case proves with real bash, GNU make 4.3, cmake 3.25 and gcc in a
scratch project that the calls run the payload (``touch zz``), then asks the printed hook for
each call in turn, running the allowed ones, as Claude Code 2.1.332's Bash tool runs them
(``test_s53_greview._session``: the folder a call leaves kept for the next; ``CLAUDE_PROJECT_DIR``
the project): the hook allowing them all is the finding. A hole left open is a strict xfail
(``OPEN``); a case the change holds is a plain test pinning it; a cost (a call a careful user
needs, denied though harmless) is a row asserting the call is allowed.

Every payload only touches a file (``$(shell touch zz)``, ``execute_process(COMMAND touch
zz)``, ``touch zz``); a payload read through ``BASH_ENV`` or ``LD_PRELOAD`` unsets it first and
the preloaded object makes the file with ``creat``, starting no program."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs
from test_s53_greview import _session

#: Real bash, make, cmake and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

#: A makefile fragment running the payload when make reads it; a makefile whose ``test`` runs it.
READ = "$(shell touch zz)\n"
RUN = "test:\n\ttouch zz\n"
TEST = "test:\n\t@echo ok\n"
MAKE_PLAN = ["Bash(make test)", "Bash(cp *)"]
#: A shared object made with ``gcc -shared``: its constructor forgets ``LD_PRELOAD`` and makes
#: ``zz`` with ``creat`` (it starts no program: safe under a preload).
PRELOADED_C = ("#include <fcntl.h>\n#include <stdlib.h>\n"
               "__attribute__((constructor)) static void f(void) {\n"
               "  unsetenv(\"LD_PRELOAD\"); int fd = creat(\"zz\", 0644); (void)fd; }\n")
BASH = "SHELL := /bin/bash\n"
ENV_PAYLOAD = "unset BASH_ENV; touch zz\n"
NODE_PAYLOAD = "require('fs').writeFileSync('zz', '');\n"


def _chain(length: int) -> dict[str, str]:
    """A makefile including ``c1.conf``, which includes ``c2.conf``, …, up to ``c{length}``
    (absent)."""
    return {"Makefile": "-include c1.conf\n" + TEST,
            **{f"c{i}.conf": f"-include c{i + 1}.conf\n" for i in range(1, length)}}


# --- M: what GNU make 4.3 reads as a makefile, or runs, by the plan's makefiles' text ---------

#: Each case: the plan's files (``src/p`` is the payload a copy puts in place) and the calls
#: (``cp``, then ``make test``) after which real make ran the payload. The makefiles are the
#: plan's approved text; what they make make read is named by them, in make's grammar.
MAKE_CASES: dict[str, tuple[dict[str, str], list[str]]] = {
    # the include line's own spelling, as make 4.3 reads it
    "tab-before-include": ({"Makefile": "\t-include local.conf\n" + TEST, "src/p": READ},
                           ["cp src/p local.conf", "make test"]),
    "crlf-continuation": ({"Makefile": "-include \\\r\n local.conf\r\n" + TEST,
                           "src/p": READ}, ["cp src/p local.conf", "make test"]),
    "escaped-hash": ({"Makefile": "-include conf\\#local\n" + TEST, "src/p": READ},
                     ["cp src/p 'conf#local'", "make test"]),
    "unit-separator-in-name": ({"Makefile": "-include local\x1cconf\n" + TEST, "src/p": READ},
                               ["cp src/p $'local\\x1cconf'", "make test"]),
    "no-break-space-in-name": ({"Makefile": "-include local\u00a0conf\n" + TEST,
                                "src/p": READ}, ["cp src/p $'local\\xc2\\xa0conf'",
                                                 "make test"]),
    "deep-include-chain": ({**_chain(12), "src/p": READ}, ["cp src/p c12.conf", "make test"]),
    # an include make evaluates
    "define-eval": ({"Makefile": "define INC\n-include local.conf\nendef\n$(eval $(INC))\n" + TEST,
                     "src/p": READ}, ["cp src/p local.conf", "make test"]),
    "foreach-eval": ({"Makefile": "$(foreach f,local.conf,$(eval -include $(f)))\n" + TEST,
                      "src/p": READ}, ["cp src/p local.conf", "make test"]),
    "file-function-eval": ({"Makefile": "$(eval $(file <local.conf))\n" + TEST, "src/p": READ},
                           ["cp src/p local.conf", "make test"]),
    # where make looks for an include that is not in its folder (``-I``)
    "plan-include-dir": ({"Makefile": "-include local.conf\n" + TEST, "mk/.keep": "",
                          "src/p": READ}, ["cp src/p mk/local.conf", "make -I mk test"]),
    # a rule remaking an included makefile: what its recipe reads is the makefile's text
    "remade-by-recipe-reading-unlisted": ({"Makefile": "-include local.conf\nlocal.conf:\n"
                                           "\tcat tmpl.conf > $@\n" + TEST, "src/p": READ},
                                          ["cp src/p tmpl.conf", "make test"]),
    "remade-by-default-rule": ({"Makefile": "-include local.conf\n.DEFAULT:\n"
                                "\tcp defaults/$@ $@\n" + TEST, "defaults/.keep": "",
                                "src/p": READ}, ["cp src/p defaults/local.conf", "make test"]),
    "remade-by-pattern-rule": ({"Makefile": "%.conf: %.conf.in\n\tcp $< $@\n"
                                "-include local.conf\n" + TEST, "src/p": READ},
                               ["cp src/p local.conf.in", "make test"]),
    "remade-by-double-colon-rule": ({"Makefile": "-include local.conf\nlocal.conf:: tmpl\n"
                                     "\tcp tmpl $@\n" + TEST, "src/p": READ},
                                    ["cp src/p tmpl", "make test"]),
    "remade-order-only": ({"Makefile": "-include local.conf\nlocal.conf: | tmpl.conf\n"
                           "\tcp tmpl.conf $@\n" + TEST, "src/p": READ},
                          ["cp src/p tmpl.conf", "make test"]),
    "remade-static-pattern": ({"Makefile": "-include local.conf\nlocal.conf: %.conf: %.in\n"
                               "\tcp $< $@\n" + TEST, "src/p": READ},
                              ["cp src/p local.in", "make test"]),
    "remade-prerequisite-by-vpath": ({"Makefile": "VPATH = tmpl\n-include local.conf\n"
                                      "local.conf: local.in\n\tcp $< $@\n" + TEST,
                                      "tmpl/.keep": "", "src/p": READ},
                                     ["cp src/p tmpl/local.in", "make test"]),
    "builtin-remade-from-sh": ({"Makefile": "-include local.conf\n" + TEST, "src/p": READ},
                               ["cp src/p local.conf.sh", "make test"]),
    "main-makefile-remade-from-in": ({"Makefile": "Makefile: Makefile.in\n\tcp $< $@\n" + TEST,
                                      "src/p": RUN}, ["cp src/p Makefile.in", "make test"]),
    # what the makefile makes the recipes' shell read
    "exported-bash-env-equals": ({"Makefile": BASH + "export BASH_ENV = env.sh\n" + TEST,
                                  "src/p": ENV_PAYLOAD}, ["cp src/p env.sh", "make test"]),
    "exported-bash-env-later": ({"Makefile": BASH + "BASH_ENV := env.sh\nexport BASH_ENV\n"
                                 + TEST, "src/p": ENV_PAYLOAD},
                                ["cp src/p env.sh", "make test"]),
    "exported-bash-env-all": ({"Makefile": BASH + ".EXPORT_ALL_VARIABLES:\nBASH_ENV := env.sh\n"
                               + TEST, "src/p": ENV_PAYLOAD}, ["cp src/p env.sh", "make test"]),
    "exported-bash-env-target": ({"Makefile": BASH + "test: export BASH_ENV := env.sh\n" + TEST,
                                  "src/p": ENV_PAYLOAD}, ["cp src/p env.sh", "make test"]),
    "shellflags-rcfile": ({"Makefile": BASH + ".SHELLFLAGS := --rcfile etc.rc -ic\n" + TEST,
                           "src/p": "touch zz\n"}, ["cp src/p etc.rc", "make test </dev/null"]),
    "shell-a-project-script": ({"Makefile": "SHELL := ./tools/sh\n" + TEST,
                                "tools/sh": "#!/bin/sh\nexec /bin/sh \"$@\"\n",
                                "src/p": "#!/bin/sh\ntouch zz\n"},
                               ["cp src/p tools/sh", "make test"]),
    # a recursive make and what its makefile includes
    "exported-makefiles": ({"Makefile": "export MAKEFILES := common.conf\n"
                            "test:\n\t$(MAKE) -C sub test\n", "sub/Makefile": TEST,
                            "src/p": READ}, ["cp src/p sub/common.conf", "make test"]),
    "recursive-cd-include": ({"Makefile": "test:\n\tcd sub && $(MAKE) test\n",
                              "sub/Makefile": "-include local.conf\n" + TEST, "src/p": READ},
                             ["cp src/p sub/local.conf", "make test"]),
    "recursive-directory-include": ({"Makefile": "test:\n\t$(MAKE) --directory=sub test\n",
                                     "sub/Makefile": "-include local.conf\n" + TEST,
                                     "src/p": READ},
                                    ["cp src/p sub/local.conf", "make test"]),
    "recursive-loop-include": ({"Makefile": "DIRS := sub\ntest:\n\tfor d in $(DIRS); do "
                                "$(MAKE) -C $$d test; done\n",
                                "sub/Makefile": "-include local.conf\n" + TEST, "src/p": READ},
                               ["cp src/p sub/local.conf", "make test"]),
    "recursive-include-dir": ({"Makefile": "test:\n\t$(MAKE) -I ../mk -C sub test\n",
                               "sub/Makefile": "-include local.conf\n" + TEST, "mk/.keep": "",
                               "src/p": READ}, ["cp src/p mk/local.conf", "make test"]),
    # where make's grammar and the reading's part (session 54, after 113e6cd)
    "define-body-says-define": ({"Makefile": "define HELP\necho define it\nendef\n"
                                 "-include local.conf\n" + TEST, "src/p": READ},
                                ["cp src/p local.conf", "make test"]),
    "variable-named-define": ({"Makefile": "define = 5\n-include local.conf\n" + TEST,
                               "src/p": READ}, ["cp src/p local.conf", "make test"]),
    "override-define-in-a-body": ({"Makefile": "define X\noverride define Y\nendef\n"
                                   "-include local.conf\n" + TEST, "src/p": READ},
                                  ["cp src/p local.conf", "make test"]),
    "tab-include-after-an-include-in-a-rule": ({"Makefile": TEST + "-include a.conf\n"
                                                "\t-include local.conf\n", "src/p": READ},
                                               ["cp src/p local.conf", "make test"]),
    "remade-static-pattern-caret": ({"Makefile": "-include local.conf\nlocal.conf: %.conf: %.in\n"
                                     "\tcat $^ > $@\n" + TEST, "src/p": READ},
                                    ["cp src/p local.in", "make test"]),
    "remade-by-single-suffix-rule": ({"Makefile": "-include local.conf\n.el:\n\tcat $^ > $@\n"
                                      + TEST, "src/p": READ},
                                     ["cp src/p local.conf.el", "make test"]),
    "remade-by-double-suffix-rule": ({"Makefile": ".SUFFIXES: .in .conf\n-include local.conf\n"
                                      ".in.conf:\n\tcat $^ > $@\n" + TEST, "src/p": READ},
                                     ["cp src/p local.in", "make test"]),
    "remade-by-a-rule-of-another-makefile": ({"Makefile": "-include local.conf\n"
                                              "include rules.conf\n" + TEST,
                                              "rules.conf": "local.conf: tmpl\n"
                                              "\tcp tmpl local.conf\n", "src/p": READ},
                                             ["cp src/p tmpl", "make test"]),
    "remade-through-an-intermediate": ({"Makefile": "-include local.conf\nlocal.conf.sh: tmpl\n"
                                        "\tcp tmpl $@\n" + TEST, "src/p": READ},
                                       ["cp src/p tmpl", "make test"]),
    "remade-by-recipe-glob": ({"Makefile": "-include local.conf\nlocal.conf:\n"
                               "\tcat tmpl/*.conf > $@\n" + TEST, "tmpl/.keep": "",
                               "src/p": READ}, ["cp src/p tmpl/a.conf", "make test"]),
    "remade-by-recipe-dd": ({"Makefile": "-include local.conf\nlocal.conf:\n"
                             "\tdd if=tmpl.conf of=$@ status=none\n" + TEST, "src/p": READ},
                            ["cp src/p tmpl.conf", "make test"]),
    "bash-env-after-cd": ({"Makefile": BASH + "export BASH_ENV := env.sh\ntest:\n"
                           "\tcd sub && bash -c true\n", "sub/.keep": "", "src/p": ENV_PAYLOAD},
                          ["cp src/p sub/env.sh", "make test"]),
    "perl5lib-the-folder": ({"Makefile": "export PERL5LIB := .\ntest:\n"
                                         "\tperl -MTest::More -e 1\n", "Test/.keep": "",
                             "src/p": "package Test::More; system('touch zz'); 1;\n"},
                            ["cp src/p Test/More.pm", "make test"]),
    "node-options-exported-later": ({"Makefile": "NODE_OPTIONS := --require ./hook.js\n"
                                     "export NODE_OPTIONS\ntest:\n\tnode -e 0\n",
                                     "src/p": NODE_PAYLOAD}, ["cp src/p hook.js", "make test"]),
    "node-options-all-exported-by-a-commented-export": ({"Makefile": "export # all\n"
                                                         "NODE_OPTIONS := --require ./hook.js\n"
                                                         "test:\n\tnode -e 0\n",
                                                         "src/p": NODE_PAYLOAD},
                                                        ["cp src/p hook.js", "make test"]),
    "plan-include-dir-in-a-sub-make": ({"Makefile": "test:\n\t$(MAKE) -C sub test\n",
                                        "sub/Makefile": "-include local.conf\n" + TEST,
                                        "sub/mk/.keep": "", "src/p": READ},
                                       ["cp src/p sub/mk/local.conf", "make -I mk test"]),
    # a sub-make makerecipes (6f2c083) does not follow into its folder
    "oneshell-cd-then-make": ({"Makefile": ".ONESHELL:\ntest:\n\tcd sub\n\t$(MAKE) test\n",
                               "sub/Makefile": "-include local.conf\n" + TEST, "src/p": READ},
                              ["cp src/p sub/local.conf", "make test"]),
    "xargs-sub-make": ({"Makefile": "test:\n\techo sub | xargs -I{} $(MAKE) -C {} test\n",
                        "sub/Makefile": "-include local.conf\n" + TEST, "src/p": READ},
                       ["cp src/p sub/local.conf", "make test"]),
    "env-chdir-sub-make": ({"Makefile": "test:\n\tenv -C sub $(MAKE) test\n",
                            "sub/Makefile": "-include local.conf\n" + TEST, "src/p": READ},
                           ["cp src/p sub/local.conf", "make test"]),
    "find-execdir-sub-make": ({"Makefile": "test:\n\tfind . -mindepth 2 -name Makefile "
                                           "-execdir $(MAKE) test \\;\n",
                               "sub/Makefile": "-include local.conf\n" + TEST, "src/p": READ},
                              ["cp src/p sub/local.conf", "make test"]),
    "makefiles-exported-in-the-recipe": ({"Makefile": "test:\n\texport MAKEFILES=common.conf; "
                                                      "$(MAKE) -C sub test\n",
                                          "sub/Makefile": TEST, "src/p": READ},
                                         ["cp src/p sub/common.conf", "make test"]),
    "pytest-operand-finds-a-sub-ini": ({"Makefile": "test:\n\tpython3 -m pytest -q sub/tests\n",
                                        "sub/pytest.ini": "[pytest]\naddopts = -p helper_plugin\n"
                                                          "pythonpath = .\n",
                                        "sub/tests/test_a.py": "def test_a():\n    pass\n",
                                        "src/p": "open('zz', 'w').close()\n"},
                                       ["cp src/p sub/helper_plugin.py", "make test"]),
    # a prerequisite of a remaking rule, remade in turn (GNU make remakes it first)
    "remade-prerequisite-explicit-chain": ({"Makefile": "-include local.conf\nlocal.conf: "
                                            "tmpl.conf\n\tcat tmpl.conf > $@\ntmpl.conf: tmpl.in\n"
                                            "\tcat tmpl.in > $@\n" + TEST, "src/p": READ},
                                           ["cp src/p tmpl.in", "make test"]),
    "remade-prerequisite-by-a-pattern-rule": ({"Makefile": "-include local.conf\nlocal.conf: "
                                               "tmpl.x\n\tcat tmpl.x > $@\n%.x: %.y\n"
                                               "\tcat $^ > $@\n" + TEST, "src/p": READ},
                                              ["cp src/p tmpl.y", "make test"]),
    "remade-prerequisite-by-a-built-in-rule": ({"Makefile": "-include local.conf\nlocal.conf: "
                                                "tmpl\n\tcat tmpl > $@\n" + TEST, "src/p": READ},
                                               ["cp src/p tmpl.sh", "make test"]),
    # a makefile's text that writes an included makefile before make reads it
    "shell-copies-a-default-config": ({"Makefile": "$(shell test -f config.mk || "
                                                   "cp config.mk.dist config.mk)\n"
                                                   "-include config.mk\n" + TEST,
                                       "config.mk.dist": "", "src/p": READ},
                                      ["cp src/p config.mk.dist", "make test"]),
    "recipe-copies-a-sub-makes-include": ({"Makefile": "test:\n\tcp config.default "
                                                       "sub/local.conf && $(MAKE) -C sub test\n",
                                           "sub/Makefile": "-include local.conf\n" + TEST,
                                           "config.default": "", "src/p": READ},
                                          ["cp src/p config.default", "make test"]),
    # after ad4cdd6
    "tab-define-in-a-body": ({"Makefile": "define X\n\tdefine Y\nendef\n-include local.conf\n"
                              + TEST, "src/p": READ}, ["cp src/p local.conf", "make test"]),
    "node-options-after-cd": ({"Makefile": "export NODE_OPTIONS := --require ./hook.js\ntest:\n"
                               "\tcd sub && node -e 0\n", "sub/.keep": "",
                               "src/p": NODE_PAYLOAD}, ["cp src/p sub/hook.js", "make test"]),
    "remade-by-tar-file-option": ({"Makefile": "-include local.conf\nlocal.conf:\n"
                                   "\ttar -xO --file=conf.tar local.conf > $@\n" + TEST},
                                  ["cp src/conf.tar conf.tar", "make test"]),
    "makeflags-given-to-a-sub-make": ({"Makefile": "test:\n\tMAKEFLAGS=-I../mk $(MAKE) -C sub "
                                                   "test\n",
                                       "sub/Makefile": "-include local.conf\n" + TEST,
                                       "mk/.keep": "", "src/p": READ},
                                      ["cp src/p mk/local.conf", "make test"]),
    "gnumakeflags-exported": ({"Makefile": "export GNUMAKEFLAGS := -I../mk\ntest:\n"
                                           "\t$(MAKE) -C sub test\n",
                               "sub/Makefile": "-include local.conf\n" + TEST, "mk/.keep": "",
                               "src/p": READ}, ["cp src/p mk/local.conf", "make test"]),
    "makefiles-inherited-by-a-grandchild": ({"Makefile": "test:\n\t$(MAKE) -C a "
                                                         "MAKEFILES=common.conf test\n",
                                             "a/Makefile": "test:\n\t$(MAKE) -C b test\n",
                                             "a/common.conf": "", "a/b/Makefile": TEST,
                                             "src/p": READ},
                                            ["cp src/p a/b/common.conf", "make test"]),
    "suffixes-by-a-variable": ({"Makefile": "MY := .in .conf\n.SUFFIXES: $(MY)\n"
                                            "-include local.conf\n.in.conf:\n\tcat $^ > $@\n"
                                            + TEST, "src/p": READ},
                               ["cp src/p local.in", "make test"]),
    "sub-make-reads-its-standard-input": ({"Makefile": "test:\n\tsed s/X/t/ rules.in | "
                                                       "$(MAKE) -f - t\n",
                                           "rules.in": "X:\n\t@echo ok\n",
                                           "src/p": "X:\n\ttouch zz\n"},
                                          ["cp src/p rules.in", "make test"]),
    "computed-include-in-an-included-makefile": ({"Makefile": "include rules.conf\n" + TEST,
                                                  "rules.conf": "-include $(wildcard "
                                                                "local/*.conf)\n",
                                                  "local/.keep": "", "src/p": READ},
                                                 ["cp src/p local/x.conf", "make test"]),
    "computed-include-in-a-sub-makes-makefile": ({"Makefile": "test:\n\t$(MAKE) -C sub test\n",
                                                  "sub/Makefile": "-include $(wildcard *.d)\n"
                                                                  + TEST, "src/p": READ},
                                                 ["cp src/p sub/main.d", "make test"]),
    # make's own choice of makefile (GNU make's "What Name to Give Your Makefile")
    "gnumakefile-first": ({"Makefile": TEST, "src/p": RUN}, ["cp src/p GNUmakefile", "make test"]),
    "sub-gnumakefile-first": ({"Makefile": "test:\n\t$(MAKE) -C sub test\n", "sub/Makefile": TEST,
                               "src/p": RUN}, ["cp src/p sub/GNUmakefile", "make test"]),
}




@pytest.mark.parametrize("case", MAKE_CASES)
def test_m_make_reads_what_its_makefiles_name(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)`` (``make -I mk test``), ``Bash(cp *)``: the copy puts the payload
    where make reads it as a makefile (or its recipes' shell as its start); the hook must deny
    a call of the sequence."""
    needs("make")
    files, calls = MAKE_CASES[case]
    entry = calls[-1].split(" <", 1)[0]
    assert _session(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files, calls,
                    setup=SETUPS.get(case, "")) is not None


#: What a case's project holds beyond its text files, made by bash before the calls.
SETUPS = {"shell-a-project-script": "chmod +x tools/sh",
          "remade-by-tar-file-option": "mkdir pay && printf '%s' '" + READ + "' > pay/local.conf"
                                       " && tar -C pay -cf src/conf.tar local.conf && rm -r pay"}


def test_m_an_exported_preload_names_an_object(tmp_path: Path) -> None:
    """``export LD_PRELOAD := ./hook.so`` in the plan's makefile: every recipe's program loads
    the object; ``cp src/hook.so hook.so``, ``make test`` runs its constructor."""
    needs("make", "gcc")
    files = {"Makefile": "export LD_PRELOAD := ./hook.so\n" + TEST, "src/hook.c": PRELOADED_C}
    assert _session(tmp_path, MAKE_PLAN, files, ["cp src/hook.so hook.so", "make test"],
                    setup="gcc -shared -fPIC -o src/hook.so src/hook.c") is not None


def test_m_an_include_found_in_a_shared_include_folder(tmp_path: Path) -> None:
    """``-include NAME`` not in make's folder is looked for in ``/usr/local/include`` (GNU
    make's "Including Other Makefiles"; a user's own folder under Homebrew on macOS):
    ``cp src/p /usr/local/include/NAME``, ``make test``."""
    needs("make")
    shared = Path("/usr/local/include")
    if not os.access(shared, os.W_OK):
        pytest.skip("/usr/local/include is not writable here")
    name = f"s54greview-{os.getpid()}.conf"
    try:
        assert _session(tmp_path, MAKE_PLAN, {"Makefile": f"-include {name}\n" + TEST,
                                              "src/p": READ},
                        [f"cp src/p {shared / name}", "make test"]) is not None
    finally:
        (shared / name).unlink(missing_ok=True)


def test_m_an_include_in_the_home(tmp_path: Path) -> None:
    """``-include ~/.s54.conf``: make expands the ``~``; ``cp src/p ../home/.s54.conf`` (the
    home beside the project: ``~/…`` spelled is denied as an expansion)."""
    needs("make")
    assert _session(tmp_path, MAKE_PLAN, {"Makefile": "-include ~/.s54.conf\n" + TEST,
                                          "src/p": READ},
                    ["cp src/p ../home/.s54.conf", "make test"]) is not None


# --- C: what cmake 3.25 reads as its language by the plan's CMakeLists' text ------------------

LISTS = "cmake_minimum_required(VERSION 3.10)\n"
PROJECT = "project(p NONE)\n"
CMAKE_PAYLOAD = "execute_process(COMMAND touch zz)\n"
CONFIGURE = "cmake -S . -B build"
#: Each case: the plan's entry, its files (``src/p`` is the payload) and the file the copy
#: writes, after which the entry ran the payload.
CMAKE_CASES: dict[str, tuple[str, dict[str, str], str]] = {
    "subdirectory-include": (CONFIGURE, {"CMakeLists.txt": LISTS + PROJECT +
                                         "add_subdirectory(sub)\n",
                                         "sub/CMakeLists.txt": "include(local.txt OPTIONAL)\n"},
                             "sub/local.txt"),
    "list-dir-include": (CONFIGURE, {"CMakeLists.txt": LISTS + PROJECT +
                                     "include(${CMAKE_CURRENT_LIST_DIR}/local.txt OPTIONAL)\n"},
                         "local.txt"),
    "project-include-variable": (CONFIGURE, {"CMakeLists.txt": LISTS +
                                             "set(CMAKE_PROJECT_INCLUDE local.txt)\n" + PROJECT,
                                             "local.txt": ""}, "local.txt"),
    "rules-override": (CONFIGURE, {"CMakeLists.txt": LISTS + "set(CMAKE_USER_MAKE_RULES_OVERRIDE"
                                   " local.txt)\nproject(p C)\n", "local.txt": ""}, "local.txt"),
    "read-and-eval": (CONFIGURE, {"CMakeLists.txt": LISTS + PROJECT +
                                  "if(EXISTS ${CMAKE_SOURCE_DIR}/local.txt)\n"
                                  "  file(READ local.txt X)\n  cmake_language(EVAL CODE \"${X}\")\n"
                                  "endif()\n"}, "local.txt"),
    "initial-cache-include": ("cmake -C init.txt -S . -B build",
                              {"CMakeLists.txt": LISTS + PROJECT,
                               "init.txt": "include(local.txt OPTIONAL)\n"}, "local.txt"),
    "script-include": ("cmake -P script.txt", {"script.txt": "include(local.txt OPTIONAL)\n"},
                       "local.txt"),
    "preset-toolchain": ("cmake --preset dev", {"CMakeLists.txt": LISTS + PROJECT,
                                                "CMakePresets.json": '{"version": 3, '
                                                '"configurePresets": [{"name": "dev", '
                                                '"binaryDir": "build", "toolchainFile": '
                                                '"tc.txt"}]}', "tc.txt": ""}, "tc.txt"),
    # where cmake's grammar and the reading's part (session 54, after 113e6cd)
    "a-hash-in-a-string-before": (CONFIGURE, {"CMakeLists.txt": LISTS + PROJECT +
                                              "message(STATUS \"see issue #12\")\n"
                                              "include(local.txt OPTIONAL)\n"}, "local.txt"),
    "bracket-argument": (CONFIGURE, {"CMakeLists.txt": LISTS + PROJECT +
                                     "include([[local.txt]] OPTIONAL)\n"}, "local.txt"),
    "language-call": (CONFIGURE, {"CMakeLists.txt": LISTS + PROJECT +
                                  "cmake_language(CALL include local.txt OPTIONAL)\n"},
                      "local.txt"),
    "fetchcontent-source-dir": (CONFIGURE, {"CMakeLists.txt": LISTS + PROJECT +
                                            "include(FetchContent)\nFetchContent_Declare(foo "
                                            "SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR}/"
                                            "third_party/foo)\nFetchContent_MakeAvailable(foo)\n",
                                            "third_party/foo/CMakeLists.txt":
                                            "include(local.txt OPTIONAL)\n"},
                                "third_party/foo/local.txt"),
    "configure-file-then-include": (CONFIGURE, {"CMakeLists.txt": LISTS + PROJECT +
                                                "configure_file(local.in "
                                                "${CMAKE_CURRENT_SOURCE_DIR}/gen.txt COPYONLY)\n"
                                                "include(gen.txt)\n",
                                                "local.in": ""}, "local.in"),
    "subdirs-command": (CONFIGURE, {"CMakeLists.txt": LISTS + PROJECT + "subdirs(sub)\n",
                                    "sub/CMakeLists.txt": "include(local.txt OPTIONAL)\n"},
                        "sub/local.txt"),
    "try-compile-project": (CONFIGURE, {"CMakeLists.txt": LISTS + PROJECT + "try_compile(RES "
                                        "${CMAKE_BINARY_DIR}/tc ${CMAKE_SOURCE_DIR}/checks/foo "
                                        "foo)\n", "checks/foo/CMakeLists.txt": LISTS +
                                        "project(foo NONE)\ninclude(local.txt OPTIONAL)\n"},
                            "checks/foo/local.txt"),
    "top-level-includes": (CONFIGURE, {"CMakeLists.txt": LISTS + "set(CMAKE_PROJECT_TOP_LEVEL_"
                                       "INCLUDES local.txt)\n" + PROJECT, "local.txt": ""},
                           "local.txt"),
    "project-include-appended": (CONFIGURE, {"CMakeLists.txt": LISTS + "list(APPEND CMAKE_"
                                             "PROJECT_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/local.txt)"
                                             "\n" + PROJECT, "local.txt": ""}, "local.txt"),
    "fetchcontent-url-of-a-project-tarball": (CONFIGURE, {
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.14)\n" + PROJECT +
                          "include(FetchContent)\nFetchContent_Declare(foo URL "
                          "${CMAKE_CURRENT_SOURCE_DIR}/third_party/foo.tar.gz)\n"
                          "FetchContent_MakeAvailable(foo)\n"}, "third_party/foo.tar.gz"),
    "a-recipe-configures": ("make test", {"Makefile": "test:\n\tcmake -S . -B build "
                                                      ">/dev/null\n",
                                          "CMakeLists.txt": LISTS + PROJECT +
                                          "include(local.txt OPTIONAL)\n"}, "local.txt"),
    "module-path-include": (CONFIGURE, {"CMakeLists.txt": LISTS + PROJECT + "list(APPEND "
                                        "CMAKE_MODULE_PATH ${CMAKE_SOURCE_DIR}/mods)\n"
                                        "include(Local OPTIONAL)\n", "mods/.keep": ""},
                            "mods/Local.cmake"),
    "package-dir-config": (CONFIGURE, {"CMakeLists.txt": LISTS + PROJECT +
                                       "set(Foo_DIR ${CMAKE_SOURCE_DIR}/deps)\n"
                                       "find_package(Foo CONFIG QUIET)\n", "deps/.keep": ""},
                           "deps/foo-config.cmake"),
}



@pytest.mark.parametrize("case", CMAKE_CASES)
def test_c_cmake_reads_what_its_lists_name(case: str, tmp_path: Path) -> None:
    """Plan: the entry, ``Bash(cp *)``; ``cp src/p FILE``, the entry: cmake reads the copy as
    its language and runs its ``execute_process``."""
    needs("cmake")
    entry, files, target = CMAKE_CASES[case]
    source, setup = "src/p", ""
    if target.endswith(".tar.gz"):  # (a tarball of a CMakeLists.txt: the approved one empty;
        # copied from a name of no archive's ending: copying an archive is denied whatever)
        source, setup = "src/foo.dat", (
            "mkdir -p pay/foo third_party && tar -C pay -czf third_party/foo.tar.gz foo && "
            "printf '%s' 'execute_process(COMMAND touch ${CMAKE_SOURCE_DIR}/zz)' > "
            "pay/foo/CMakeLists.txt && tar -C pay -czf src/foo.dat foo && rm -r pay")
    assert _session(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                    {**files, "src/p": CMAKE_PAYLOAD}, [f"cp {source} {target}", entry],
                    setup=setup) is not None


def test_c_a_seeded_cache_names_a_project_include(tmp_path: Path) -> None:
    """``build/CMakeCache.txt`` written before the configure (``CMAKE_PROJECT_INCLUDE:FILEPATH=
    src/p``): cmake reads the cache and includes the file it names."""
    needs("cmake")
    files = {"CMakeLists.txt": LISTS + PROJECT, "build/.keep": "", "src/p": CMAKE_PAYLOAD,
             "src/cache": "CMAKE_PROJECT_INCLUDE:FILEPATH=src/p\n"}
    assert _session(tmp_path, [f"Bash({CONFIGURE})", "Bash(cp *)"], files,
                    ["cp src/cache build/CMakeCache.txt", CONFIGURE]) is not None


# --- K: costs, everyday plans the reading refuses whole -------------------------------------------

#: Makefiles and CMakeLists of everyday projects, each read by real make or cmake without any
#: write before: a refusal of the plan (``Unread``) denies the plan's own entry at the first
#: call, and every call after it.
REFUSED_PLANS: dict[str, tuple[str, dict[str, str]]] = {
    "computed-target": ("make test", {"Makefile": "PROG := app\n$(PROG): main.o\n"
                                                  "\t$(CC) -o $@ $^\n" + TEST}),
    "sphinx-catch-all": ("make test", {"Makefile": "SPHINXBUILD = sphinx-build\nhelp:\n"
                                                   "\t@$(SPHINXBUILD) -M help . _build\n"
                                                   ".PHONY: help Makefile\n%: Makefile\n"
                                                   "\t@$(SPHINXBUILD) -M $@ . _build\n" + TEST}),
    "subdirs-loop": ("make test", {"Makefile": "SUBDIRS := lib\ntest:\n\tfor d in $(SUBDIRS); "
                                               "do $(MAKE) -C $$d test; done\n",
                                   "lib/Makefile": TEST}),
    "sub-make-of-the-goal": ("make test", {"Makefile": "test:\n\t$(MAKE) -C lib $@\n",
                                           "lib/Makefile": TEST}),
    "exported-path": ("make test", {"Makefile": "export PATH := $(CURDIR)/node_modules/.bin:"
                                                "$(PATH)\n" + TEST}),
    "remade-from-first-prerequisite": ("make test", {"Makefile": "-include config.mk\n"
                                                     "config.mk: config.mk.in\n\tcp $< $@\n"
                                                     + TEST, "config.mk.in": ""}),
    "eval-template": ("make test", {"Makefile": "define T\n$(1): ; @echo $(1)\nendef\n"
                                                "$(foreach p,a b,$(eval $(call T,$(p))))\n"
                                                "test: a b\n"}),
    "vpath": ("make test", {"Makefile": "vpath %.c src\n" + TEST}),
    "makeflags-jobs": ("make test", {"Makefile": "MAKEFLAGS += -j$(shell nproc)\n" + TEST}),
    "catch-all-with-makefile-rule": ("make test", {"Makefile": "Makefile: ;\n%:\n\t@echo $@\n"
                                                               + TEST}),
    "exported-folder-ending-in-a-slash": ("make test", {"Makefile": "export BUILD_DIR := build/\n"
                                                                    + TEST}),
    "exported-include-flag": ("make test", {"Makefile": "export CFLAGS := -O2 -I./src\n"
                                                        + TEST}),
    "remade-by-a-cp-recipe": ("make test", {"Makefile": "-include config.mk\nconfig.mk: "
                                                        "config.mk.in\n\tcp config.mk.in "
                                                        "config.mk\n" + TEST,
                                            "config.mk.in": ""}),
    "a-dot-target": ("make test", {"Makefile": ".venv: requirements.txt\n"
                                               "\tpython3 -m venv .venv\n" + TEST}),
    "a-force-target": ("make test", {"Makefile": "test: .FORCE\n\t@echo ok\n.FORCE:\n"}),
    "exported-bash-env-relative": ("make test", {"Makefile": BASH + "export BASH_ENV := "
                                                             "scripts/env.sh\n" + TEST,
                                                 "scripts/env.sh": ""}),
    "cmake-initial-cache": ("cmake -C init.txt -S . -B build",
                            {"CMakeLists.txt": LISTS + PROJECT,
                             "init.txt": "set(X 1 CACHE STRING \"\")\n"}),
    "cmake-project-source-dir": (CONFIGURE, {"CMakeLists.txt": LISTS + PROJECT + "include("
                                             "${PROJECT_SOURCE_DIR}/cmake/Warnings.cmake)\n",
                                             "cmake/Warnings.cmake": ""}),
    "cmake-binary-dir": (CONFIGURE, {"CMakeLists.txt": LISTS + PROJECT + "include("
                                     "${CMAKE_BINARY_DIR}/conan_paths.cmake OPTIONAL)\n"}),
}
_open("test_cost_a_plan_the_reading_refuses",
      "an exported variable's value is read by envpaths.named_paths (not s55-gfix's): "
      "-I./src guards src whole; (K1, pre-existing) cmake -C init.txt denied as if -C named "
      "a folder (moves._MOVES reads -C as a move for any program). ('build/' gave '/': held "
      "since s55-gfix2)",
      "exported-include-flag", "cmake-initial-cache")


@pytest.mark.parametrize("case", REFUSED_PLANS)
def test_cost_a_plan_the_reading_refuses(case: str, tmp_path: Path) -> None:
    """Plan: the entry, ``Bash(cp *)``; the entry itself, first, must be allowed (a write by
    the broad grant where make may read is the fail-closed rule's to deny: not asserted)."""
    entry, files = REFUSED_PLANS[case]
    project = hooked_project(tmp_path, [f"Bash({entry})", "Bash(cp *)"])
    for name, text in {**files, "src/a.c": "int a;\n"}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    calls = [entry, "cp src/a.c src/b.c"] if case in WRITES_KEPT else [entry]
    assert first_denied(project, calls, env) is None


#: The costs whose denied call is a write nothing reads as instructions (``cp src/a.c
#: src/b.c``: src/ guarded whole by an exported -I./src; cp guarded as a recipe's word).
WRITES_KEPT = frozenset(("exported-include-flag", "remade-by-a-cp-recipe"))


def test_cost_a_build_after_cmake_configured_it(tmp_path: Path) -> None:
    """Plan ``Bash(cmake -S . -B build)``, ``Bash(make -C build)``, ``Bash(cp *)`` (cmake's
    workflow with make run in the build folder): after the configure, the build must be
    allowed. cmake's generated ``build/Makefile`` cancels make's VCS
    rules with pattern rules of no recipe (``% : %,v``), which remake nothing."""
    needs("cmake", "make", "cc")
    project = hooked_project(tmp_path, [f"Bash({CONFIGURE})", "Bash(make -C build)",
                                        "Bash(cp *)"])
    (project / "CMakeLists.txt").write_text(LISTS + "project(p C)\nadd_executable(app main.c)\n")
    (project / "main.c").write_text("int main(void) { return 0; }\n")
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    assert first_denied(project, [CONFIGURE, "make -C build"], env) is None



def test_c_a_build_reconfigures_the_source_its_cache_names(tmp_path: Path) -> None:
    """Plan ``Bash(cmake --build build)``, ``Bash(cp *)``; the build folder was configured
    from ``cpp/`` (``cmake -S cpp -B build``: the cache names the source folder), whose
    ``CMakeLists.txt`` includes ``opts.txt``: ``cp src/p cpp/opts.txt``, ``cmake --build build``
    (make's check of the build system sees a changed input and runs the configure again)."""
    needs("cmake", "make")
    files = {"cpp/CMakeLists.txt": LISTS + PROJECT + "include(opts.txt)\n",
             "cpp/opts.txt": "set(X 1)\n", "src/p": CMAKE_PAYLOAD}
    assert _session(tmp_path, ["Bash(cmake --build build)", "Bash(cp *)"], files,
                    ["cp src/p cpp/opts.txt", "cmake --build build"],
                    setup="cmake -S cpp -B build") is not None



# --- F: what a computed name may reach, outside the folders make runs in --------------------------

#: Computed names (refused at 84e9d72; left open at 98c88fc but the plan's own include, refused
#: as at base: pins and rows for a fail-closed rule that guards writes instead)
#: naming a file outside the project: the plan, its files, the setup (bash, in the project:
#: what is made beside it), the file the copy writes, the entry.
OUTSIDE: dict[str, tuple[list[str], dict[str, str], str, str]] = {
    "make-include-beside-the-project": (MAKE_PLAN, {"Makefile": "TOP := ..\n-include "
                                                    "$(TOP)/shared/local.conf\n" + TEST,
                                                    "src/p": READ},
                                        "mkdir -p ../shared", "../shared/local.conf"),
    "make-include-in-the-home": (MAKE_PLAN, {"Makefile": "-include $(HOME)/.mk/local.conf\n"
                                             + TEST, "src/p": READ},
                                 "mkdir -p ../home/.mk", "../home/.mk/local.conf"),
    "sub-make-beside-the-project": (MAKE_PLAN, {"Makefile": "TOP := ..\ntest:\n"
                                                "\t$(MAKE) -C $(TOP)/lib test\n",
                                                "src/p": "$(shell touch ../project/zz)\n"},
                                    "mkdir -p ../lib && printf -- '-include local.conf\\n"
                                    "test:\\n\\t@echo ok\\n' > ../lib/Makefile",
                                    "../lib/local.conf"),
    "cmake-include-beside-the-project": ([f"Bash({CONFIGURE})", "Bash(cp *)"],
                                         {"CMakeLists.txt": LISTS + PROJECT + "include(${PROJECT_"
                                          "SOURCE_DIR}/../shared/local.txt OPTIONAL)\n",
                                          "src/p": CMAKE_PAYLOAD},
                                         "mkdir -p ../shared", "../shared/local.txt"),
}



@pytest.mark.parametrize("case", OUTSIDE)
def test_f_a_computed_name_outside_the_project(case: str, tmp_path: Path) -> None:
    """``cp src/p FILE`` (outside the project), then the entry: make or cmake reads FILE by
    a name the gate cannot compute; the hook must deny a call of the sequence."""
    needs("make", "cmake")
    entries, files, setup, target = OUTSIDE[case]
    entry = entries[0][5:-1]
    assert _session(tmp_path, entries, files, [f"cp src/p {target}", entry],
                    setup=setup) is not None
