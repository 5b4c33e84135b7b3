"""Review s56 (s56-greview) of s56-gfix (make's and cmake's doubts write-guard the folders they
may read from; the fixer closes s55-greview's rows B3 (links out), B6 (bash's braces), R1 (a
remaking recipe's program reads unnamed files) and narrows the costs K1, K2, K4, K5). Each case
proves with real bash 5.2, GNU make 4.3 (its recipes under /bin/sh = dash), cmake 3.25 and gcc
in a scratch project that the calls run the payload, then asks the printed hook for each call
in turn, running the allowed ones, as Claude Code 2.1.332's Bash tool runs them
(``test_s53_greview._session``): the hook allowing them all is the finding. A hole left open
is a strict xfail (``OPEN``); a case the change holds is a plain test pinning it; a cost (a
call a careful user needs, denied though harmless) is a row asserting the call is allowed.

Every payload only touches a file (``$(shell touch zz)``; ``$(shell open('zz','w'))`` where
the makefile's SHELL is python3; cmake's ``execute_process(COMMAND touch zz)``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs
from test_s53_greview import _session

#: Real bash, make, cmake and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()


def _open(test: str, reason: str, *cases: str) -> None:
    """``OPEN.add`` of the cases still open (none: the whole test is no longer open)."""
    if cases:
        OPEN.add(test, reason, *cases)


#: A makefile's ``test`` that prints; the plan of the cases: make's call and a copier.
TEST = "test:\n\t@echo ok\n"
MAKE_PLAN = ["Bash(make test)", "Bash(cp *)"]
#: The payload, written beside the project (``../pay/p``: outside every folder make reads by
#: the plan's text; an agent's download or its own file under /tmp would do the same).
PAY = "mkdir -p ../pay && printf '%s\\n' '$(shell touch zz)' > ../pay/p && "
#: A makefile beside the project (``../lib``) including ``local.conf``, and the payload made
#: to touch the project's ``zz`` (a sub-make there runs it in ``../lib``).
LIB = ("sed -i 's#touch zz#touch $(CLAUDE_PROJECT_DIR)/zz#' ../pay/p && mkdir -p ../lib && "
       "printf -- '-include local.conf\\ntest:\\n\\t@echo ok\\n' > ../lib/Makefile")


#: The programs a case runs beside make, bash and cc (skipped where one is not installed).
PROGRAMS: dict[str, tuple[str, ...]] = {
    "a-preprocessors-include-outside": ("cpp",),
    "dots-in-a-recipe-of-another-shells-language": ("/usr/bin/python3",),
    "a-copiers-backticked-preprocessor": ("cpp",),
    "sub-make-by-makes-own-wrapper": ("make-first-existing-target",),
}


# --- B: what a doubt reads outside the folder the guard bounds it to ---------------------------

#: Each case: the plan's makefile (and files), the setup (bash, in the project, after ``PAY``),
#: the file the copy from ``../pay/p`` writes: make reads it by a text the guard bounds to
#: make's folder, though what runs names a folder outside it.
BOUNDS: dict[str, tuple[dict[str, str], str, str]] = {
    "dots-by-braces-of-a-bash-in-the-recipe": (
        {"Makefile": "-include local.conf\n.DEFAULT:\n\tbash -c 'cat .{.,.}/shared/$@' > $@\n"
         + TEST}, "mkdir -p ../shared", "../shared/local.conf"),
    "dots-split-by-quotes": ({"Makefile": "-include local.conf\n.DEFAULT:\n"
                              "\tcp .''./shared/$@ $@\n" + TEST},
                             "mkdir -p ../shared", "../shared/local.conf"),
    "a-target-specific-value": ({"Makefile": "DIRS := lib\ntest: DIRS := ..\ntest:\n\tfor d in "
                                 "$(DIRS); do $(MAKE) -C $$d/lib test; done\n"},
                                LIB, "../lib/local.conf"),
    "a-sub-makes-command-line-value": ({"Makefile": "test:\n\t$(MAKE) -C sub DIRS=.. test\n",
                                        "sub/Makefile": "DIRS := lib\ntest:\n\t$(MAKE) -C "
                                        "$(DIRS)/$(DIRS)/lib test\n"}, LIB, "../lib/local.conf"),
    "dots-of-a-shell-loops-variable-twice": ({"Makefile": "-include local.conf\n.DEFAULT:\n"
                                              "\tfor d in . ; do cp $$d$$d/shared/$@ $@; done\n"
                                              + TEST}, "mkdir -p ../shared",
                                             "../shared/local.conf"),
    "dots-of-a-foreach-variable-twice": ({"Makefile": "-include local.conf\n.DEFAULT:\n"
                                          "\t$(foreach d,.,cp $(d)$(d)/shared/$@ $@)\n" + TEST},
                                         "mkdir -p ../shared", "../shared/local.conf"),
    "dots-of-a-functions-value-and-a-dot": ({"Makefile": "-include local.conf\n.DEFAULT:\n"
                                             "\tcp $(strip .)./shared/$@ $@\n" + TEST},
                                            "mkdir -p ../shared", "../shared/local.conf"),
    "dots-joined-by-the-shells-star": ({"Makefile": "-include local.conf\n.DEFAULT:\n"
                                        "\tset -- . . && IFS= && cp \"$$*/shared/$@\" $@\n"
                                        + TEST}, "mkdir -p ../shared", "../shared/local.conf"),
    "dots-by-a-brace-list-around-a-brace-group": ({"Makefile": "SHELL := /bin/bash\n"
                                                   "-include local.conf\n.DEFAULT:\n"
                                                   "\t-cat .{{.},.}/shared/$@ > $@ 2>/dev/null\n"
                                                   + TEST}, "mkdir -p ../shared",
                                                  "../shared/local.conf"),
    "dots-by-a-brace-list-of-a-comma-variable": ({"Makefile": "comma := ,\nifdef NEVER\n"
                                                  "comma := ,\nendif\nSHELL := /bin/bash\n"
                                                  "-include local.conf\n.DEFAULT:\n"
                                                  "\tcat .{.$(comma).}/shared/$@ > $@\n" + TEST},
                                                 "mkdir -p ../shared", "../shared/local.conf"),
    "a-value-past-a-hash-in-a-function": ({"Makefile": "DIRS := $(if ,#,../lib)\ntest:\n\tfor d "
                                          "in $(DIRS); do $(MAKE) -C $$d test; done\n"},
                                         LIB,
                                         "../lib/local.conf"),
    "a-recipe-past-a-hash-in-a-function": ({"Makefile": "-include site.conf\n.DEFAULT: ; cp "
                                            "$(if ,#,..)/shared/$@ $@\n" + TEST},
                                           "mkdir -p ../shared", "../shared/site.conf"),
    "dots-joined-by-the-shells-line-continuation": ({"Makefile": "-include site.conf\n.DEFAULT:"
                                                     "\n\tcp .\\\n\t./shared/$@ $@\n" + TEST},
                                                    "mkdir -p ../shared", "../shared/site.conf"),
    "recipes-of-another-prefix": ({"Makefile": ".RECIPEPREFIX := >\n-include site.conf\n"
                                   "site.conf:\n> cp ../shared/site.conf $@\ntest:\n> @echo ok\n"},
                                  "mkdir -p ../shared", "../shared/site.conf"),
    "a-preprocessors-include-outside": ({"Makefile": "-include site.conf\nsite.conf: site.S\n"
                                         "\tcpp -P site.S > $@\n" + TEST,
                                         "site.S": "#include \"../shared/defaults.h\"\n"},
                                        "mkdir -p ../shared", "../shared/defaults.h"),
    "a-sed-scripts-read-outside": ({"Makefile": "-include site.conf\nsite.conf: site.in edit.sed\n"
                                    "\tsed -f edit.sed site.in > $@\n" + TEST, "site.in": "\n",
                                    "edit.sed": "r ../shared/defaults.txt\n"},
                                   "mkdir -p ../shared", "../shared/defaults.txt"),
    "a-target-named-by-a-remade-includes-value": (
        {"Makefile": "PROG := app\n-include vars.mk\nvars.mk: vars.in\n\tcp $< $@\n$(PROG): "
         "../shared/tmpl.in\n\tcp $< $@\n" + TEST, "vars.in": "PROG := Makefile\n"},
        "mkdir -p ../shared", "../shared/tmpl.in"),
    "a-loop-over-a-remade-includes-value": (
        {"Makefile": "DIRS := lib\n-include vars.mk\nvars.mk: vars.in\n\tcp $< $@\ntest:\n"
         "\tfor d in $(DIRS); do $(MAKE) -C $$d test; done\n", "vars.in": "DIRS := ../lib\n"},
        LIB, "../lib/local.conf"),
    "dots-in-a-recipe-of-another-shells-language": (
        {"Makefile": "SHELL := /usr/bin/python3\n-include site.conf\n.DEFAULT:\n\timport os, "
         "shutil; shutil.copy(os.path.join('.'+'.', 'shared', '$@'), '$@')\ntest:\n"
         "\tprint('ok')\n"},
        "mkdir -p ../shared && printf '%s\\n' \"\\$(shell open('zz','w'))\" > ../pay/p",
        "../shared/site.conf"),
    "computed-include-remade-by-a-pattern-rule-from-outside": (
        {"Makefile": "-include $(wildcard *.d)\n%.d: ../shared/%.in\n\tcp $< $@\n" + TEST,
         "site.d": "\n"}, "mkdir -p ../shared", "../shared/site.in"),
    "computed-include-remade-by-an-explicit-rule-from-outside": (
        {"Makefile": "-include $(wildcard *.d)\nsite.d: ../shared/site.in\n\tcp $< $@\n" + TEST,
         "site.d": "\n"}, "mkdir -p ../shared", "../shared/site.in"),
}
#: Cases the change holds (pins): a brace list in a recipe's `bash -c` (s56-gfix a8d7f7b).
CLOSED = frozenset(("dots-by-braces-of-a-bash-in-the-recipe",))
#: Why each case is open (the row's reason), by the class of the hole.
WHY: dict[str, str] = {
    "dots-split-by-quotes": "makebounds.bound reads a doubt's text lexically: dash's quote "
    "removal makes `.''./` `../`",
    "a-target-specific-value": "makebounds reads a variable by its global assignments: a "
    "target- or pattern-specific one (`test: DIRS := ..`) gives the recipe another value",
    "a-sub-makes-command-line-value": "makebounds reads a sub-makefile's variable by its "
    "assignments: the parent's `$(MAKE) -C sub DIRS=..` overrides sub/Makefile's `DIRS := lib`",
    "dots-of-a-shell-loops-variable-twice": "a name bound by the text (a shell loop's `$$d`) is "
    "trusted whole, though `.` twice is `..`",
    "dots-of-a-foreach-variable-twice": "a name bound by the text (a foreach's `$(d)`) is "
    "trusted whole, though `.` twice is `..`",
    "dots-of-a-functions-value-and-a-dot": "a function's value beside a dot (`$(strip .).`, "
    "`$(if x,.).`) is read as a word",
    "dots-joined-by-the-shells-star": "dash's `$$*` (joined by an empty IFS) is no variable to "
    "the bound",
    "dots-by-a-brace-list-around-a-brace-group": "a8d7f7b's brace list (`{` then a comma before "
    "any brace) misses a list around a group (`.{{.},.}/` is `.{.}/ ../`)",
    "dots-by-a-brace-list-of-a-comma-variable": "a8d7f7b's brace list misses a comma a variable "
    "of two values gives (`$(comma)`, read as a word)",
    "a-value-past-a-hash-in-a-function": "makereads strips `#…` from an assignment, though make "
    "reads a `#` inside a function call literally (`DIRS := $(if ,#,../lib)` is `../lib`)",
    "a-recipe-past-a-hash-in-a-function": "makereads strips `#…` from a rule line's recipe after "
    "`;`, though make reads a `#` inside a function call literally",
    "dots-joined-by-the-shells-line-continuation": "makereads._lines joins a recipe's "
    "backslash-newline with a space; make passes it to the shell, which removes it",
    "recipes-of-another-prefix": "a `.RECIPEPREFIX := >` doubt is bounded by its own line's "
    "text, while every recipe after it is read as no recipe (`> cp ../shared/site.conf $@`)",
    "a-preprocessors-include-outside": "e26a344 (R1) bounds a remaking recipe of a program "
    "that is no copier by the makefile's text, but the program reads by its inputs' text: the "
    "approved site.S's `#include \"../shared/defaults.h\"`",
    "a-sed-scripts-read-outside": "e26a344 (R1) bounds sed's doubt by the makefile's text: the "
    "approved edit.sed's `r ../shared/defaults.txt`",
    "a-target-named-by-a-remade-includes-value": "makebounds.literal reads `$(PROG)` by the "
    "makefiles' text as it is: the include make remakes first (vars.mk from the approved "
    "vars.in, `PROG := Makefile`) is not read, so `$(PROG): ../shared/tmpl.in` remakes "
    "Makefile, no doubt",
    "a-loop-over-a-remade-includes-value": "makebounds.bound trusts `DIRS := lib`: the include "
    "make remakes first (vars.mk from the approved vars.in, `DIRS := ../lib`) is not read",
    "dots-in-a-recipe-of-another-shells-language": "a8d7f7b reads a recipe as sh text (and "
    "bash's brace lists); `SHELL := /usr/bin/python3` makes each recipe Python (`'.'+'.'`)",
    "computed-include-remade-by-a-pattern-rule-from-outside": "b8f6551 (K5) bounds a computed "
    "include to make's folder, but the names it stands for are not read makefiles: the rule "
    "remaking them from outside (`%.d: ../shared/%.in`) is no doubt and guards nothing",
    "computed-include-remade-by-an-explicit-rule-from-outside": "b8f6551 (K5): a computed "
    "include's existing file remade by an explicit rule from outside (`site.d: "
    "../shared/site.in`), no doubt, nothing guarded",
}


@pytest.mark.parametrize("case", BOUNDS)
def test_b_a_doubt_reads_outside_its_bound(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)``, ``Bash(cp *)``: ``cp ../pay/p FILE`` (outside the project),
    ``make test``: make reads FILE by a text the guard bounds to make's folder. The hook must
    deny a call."""
    needs("make", "bash", *PROGRAMS.get(case, ()))
    files, setup, target = BOUNDS[case]
    assert _session(tmp_path, MAKE_PLAN, files, [f"cp ../pay/p {target}", "make test"],
                    setup=PAY + setup) is not None


# --- G: what make reads with no doubt of the reading at all ----------------------------------

#: A template in the session's home (``$HOME/templates``, beside the project) and the payload
#: touching the project's ``zz`` (make reads it in the project).
TEMPLATES = ("mkdir -p \"$HOME/templates\" && : > \"$HOME/templates/site.conf\" && "
             "printf '%s\\n' '$(shell touch $(CLAUDE_PROJECT_DIR)/zz)' > src/p")
#: A sub-make's makefile (``lib/Makefile``, including ``site.conf``) and the payload.
SUB = {"lib/Makefile": "-include site.conf\n" + TEST, "src/p": "$(shell touch zz)\n"}
#: Each case: the plan's makefile and files, the setup (bash, in the project), the copy; make
#: reads the copy where the reading names another file (or none).
READS: dict[str, tuple[dict[str, str], str, str]] = {
    "cd-by-an-exported-cdpath": ({"Makefile": "export CDPATH := ..\ntest:\n\tcd lib && "
                                  "$(MAKE) test\n", "lib/Makefile": TEST},
                                 PAY + LIB, "../pay/p ../lib/local.conf"),
    "built-in-preprocessing-includes-a-header": ({"Makefile": "-include local.s\n" + TEST,
                                                  "local.S": "#include \"defaults.h\"\n",
                                                  "src/p": "$(shell touch zz)\n"},
                                                 "", "src/p defaults.h"),
    "a-copiers-backticked-preprocessor": ({"Makefile": "-include site.conf\nsite.conf: site.S\n"
                                           "\techo \"`cpp -P site.S`\" > $@\n" + TEST,
                                           "site.S": "#include \"defaults.h\"\n",
                                           "src/p": "$(shell touch zz)\n"}, "",
                                          "src/p defaults.h"),
    "a-printfs-escaped-include": ({"Makefile": "-include site.conf\nsite.conf:\n\tprintf "
                                   "'include \\056\\056/shared/x.conf\\n' > $@\n" + TEST},
                                  PAY + "mkdir -p ../shared", "../pay/p ../shared/x.conf"),
    "a-library-prerequisite-make-searches": ({"Makefile": "-include site.conf\nsite.conf: -lconf"
                                              "\n\tcat $^ > $@\n" + TEST,
                                              "src/p": "$(shell touch zz)\n"}, "",
                                             "src/p libconf.a"),
    "sub-make-in-a-folder-of-the-home": ({"Makefile": "test:\n\t$(MAKE) -C ~/lib test\n"},
                                         "mkdir -p \"$HOME/lib\" && printf -- '-include site.conf"
                                         "\\ntest:\\n\\t@echo ok\\n' > \"$HOME/lib/Makefile\" && "
                                         "printf '%s\\n' '$(shell touch $(CLAUDE_PROJECT_DIR)/zz)'"
                                         " > src/p", "src/p ../home/lib/site.conf"),
    "a-remade-makefiles-source-in-the-home": ({"Makefile": "-include site.conf\nsite.conf: "
                                               "~/templates/site.conf\n\tcp ~/templates/site.conf"
                                               " $@\n" + TEST}, TEMPLATES,
                                              "src/p ../home/templates/site.conf"),
    "sub-make-of-a-quote-split-name": ({"Makefile": "test:\n\tm''ake -C lib test\n", **SUB},
                                       "", "src/p lib/site.conf"),
    "sub-make-of-a-functions-value": ({"Makefile": "test:\n\t$(firstword $(MAKE)) -C lib test\n",
                                       **SUB}, "", "src/p lib/site.conf"),
    "sub-make-of-a-command-substitution": ({"Makefile": "test:\n\t$$(echo make) -C lib test\n",
                                            **SUB}, "", "src/p lib/site.conf"),
    "sub-make-by-makes-own-wrapper": ({"Makefile": "test:\n\tmake-first-existing-target test "
                                       "-- -C lib\n", **SUB}, "", "src/p lib/site.conf"),
}
#: Why each case of ``READS`` is open.
WHY_READS: dict[str, str] = {
    "cd-by-an-exported-cdpath": "makerecipes.sub_makes reads a recipe's literal `cd lib` from "
    "make's folder: dash's cd searches the CDPATH the makefile exports (`..`: ../lib)",
    "built-in-preprocessing-includes-a-header": "make's built-in `%.s: %.S` remakes an "
    "included local.s by `cc -E`, whose #include reads a file no word names (R1 by a "
    "built-in rule: e26a344 asks explicit recipes only)",
    "a-copiers-backticked-preprocessor": "e26a344 reads a remaking recipe's program by its "
    "first word (`echo`, a copier) while a backticked `cpp` runs inside it",
    "a-printfs-escaped-include": "printf, a copier, writes a remade makefile's text from its "
    "escapes (`include \\056\\056/shared/x.conf` is `include ../shared/x.conf`)",
    "a-library-prerequisite-make-searches": "makeremakes skips a `-lconf` prerequisite (a word "
    "from `-`), which make finds as libconf.so or libconf.a (make's folder, VPATH, /lib, "
    "/usr/lib, /usr/local/lib)",
    "sub-make-in-a-folder-of-the-home": "makerecipes joins a recipe's `-C ~/lib` to make's "
    "folder; dash expands `~` ($HOME/lib)",
    "a-remade-makefiles-source-in-the-home": "makeremakes joins a remaking rule's "
    "`~/templates/site.conf` to make's folder; make and dash expand `~`",
    "sub-make-of-a-quote-split-name": "makerecipes takes make only by its spelled word: dash's "
    "quote removal makes `m''ake` make",
    "sub-make-of-a-functions-value": "makerecipes takes make only by its spelled word: "
    "`$(firstword $(MAKE))` is make",
    "sub-make-of-a-command-substitution": "makerecipes takes make only by its spelled word: "
    "`$$(echo make)` is make",
    "sub-make-by-makes-own-wrapper": "make-first-existing-target (Debian's make package) runs "
    "make with the options after `--`: no sub-make to the reading",
}


@pytest.mark.parametrize("case", READS)
def test_g_what_make_reads_by_no_doubt(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)``, ``Bash(cp *)``: the copy, then ``make test`` reads it as
    makefile text. The hook must deny a call."""
    needs("make", "cc", *PROGRAMS.get(case, ()))
    files, setup, copy = READS[case]
    assert _session(tmp_path, MAKE_PLAN, files, [f"cp {copy}", "make test"],
                    setup=setup) is not None




# --- C: what cmake reads past a doubt's bound ------------------------------------------------

LISTS = "cmake_minimum_required(VERSION 3.10)\nproject(p NONE)\n"
#: Each case: the lists and files, the file the copy from ``../pay/p`` (an
#: ``execute_process(COMMAND touch zz)``) writes beside the project.
CMAKE: dict[str, tuple[dict[str, str], str]] = {
    "a-configured-templates-include-outside": (
        {"CMakeLists.txt": LISTS + "configure_file(tmpl.in ${CMAKE_CURRENT_SOURCE_DIR}/gen.txt "
         "COPYONLY)\ninclude(gen.txt)\n", "tmpl.in": "include(../shared/x.txt OPTIONAL)\n"},
        "../shared/x.txt"),
}


@pytest.mark.parametrize("case", CMAKE)
def test_c_cmake_reads_past_a_doubts_bound(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(cmake -S . -B build)``, ``Bash(cp *)``: the copy beside the project, then
    the configure runs its ``execute_process``. The hook must deny a call."""
    needs("cmake")
    files, target = CMAKE[case]
    made = ("mkdir -p ../pay ../shared && printf '%s\\n' 'execute_process(COMMAND touch zz)' "
            "> ../pay/p")
    assert _session(tmp_path, ["Bash(cmake -S . -B build)", "Bash(cp *)"], files,
                    [f"cp ../pay/p {target}", "cmake -S . -B build"], setup=made) is not None

# --- P: pins, the same shapes as the costs the change eases, which it still denies ----------

#: Each case: the plan's entries beside ``make test``, the makefile and files, the setup (bash,
#: in the project, after ``PAY``), the calls before ``make test``.
PINS: dict[str, tuple[list[str], dict[str, str], str, list[str]]] = {
    # K1's eased option words (aa0e703) beside a name no shell word holds (s55-greview's pins
    # name `local.conf`, whose `local` makes the reader keep every word asked)
    "a-hard-link-out-then-a-write-through-it": (
        ["Bash(cp *)"], {"Makefile": "$(foreach f,site.conf,$(eval -include $(f)))\n" + TEST,
                         "site.conf": "\n"}, "true", ["cp -l site.conf ../h", "cp ../pay/p ../h"]),
    # B3's walk (a8d7f7b) resolves a link once a call: an outside link on its path, re-pointed
    "an-outside-link-on-a-links-path-re-pointed": (
        ["Bash(cp *)", "Bash(ln *)", "Bash(mkdir *)"],
        {"Makefile": "VPATH = tmpl\n-include site.conf\nsite.conf: site.in\n\tcp $< $@\n"
         + TEST}, "mkdir -p ../a_real/shared && ln -s a_real ../a && ln -s ../a/shared tmpl",
        ["mkdir -p ../evil/shared", "cp ../pay/p ../evil/shared/site.in", "ln -sfn evil ../a"]),
}


@pytest.mark.parametrize("case", PINS)
def test_p_the_same_shape_still_denied(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)`` and the writers; the calls put the payload where make reads it
    (through a hard link, a re-pointed link), ``make test`` runs it. The hook must deny a
    call."""
    needs("make")
    entries, files, setup, calls = PINS[case]
    assert _session(tmp_path, ["Bash(make test)", *entries], files, [*calls, "make test"],
                    setup=PAY + setup) is not None

# --- K: costs, everyday calls the change newly denies ---------------------------------------

#: A makefile whose pattern rule may remake the included ``site.conf`` (a doubt bounded to make's
#: folder: its folder write-guarded).
PATTERN = "%.conf: %.conf.in\n\tcp $< $@\n-include site.conf\n" + TEST
#: Each case: the plan's entries, the setup (bash, in the project), the everyday calls, each
#: harmless: no file make reads is written.
COSTS: dict[str, tuple[list[str], str, list[str]]] = {
    "a-write-outside-beside-installed-packages": (
        ["Bash(make test)", "Bash(mkdir *)"],
        "mkdir -p node_modules/p{1..200} && for d in node_modules/p*; do touch $d/f{1..101}; done",
        ["mkdir -p ../out"]),
    "a-mode-and-a-script-of-writes-outside": (
        ["Bash(make test)", "Bash(chmod *)", "Bash(sed *)"],
        "mkdir -p ../out && echo a > ../out/f && touch ../out/x.sh",
        ["chmod +x ../out/x.sh", "chmod 755 ../out/x.sh", "sed -i s/a/b/ ../out/f"]),
    "a-source-copied-where-sed-remakes-an-include": (
        ["Bash(make test)", "Bash(cp *)"],
        "printf -- '-include config.mk\\nconfig.mk: config.mk.in\\n\\tsed -e s/@CC@/cc/ $< > "
        "$@\\n' > Makefile && echo 'CC = @CC@' > config.mk.in && echo 'int a;' > src/a.c",
        ["cp src/a.c src/b.c"]),
}
_open("test_cost_an_everyday_call_under_a_doubt",
      "writeguard._linked_out (a8d7f7b) walks make's folder for links leading out and past "
      "20,000 entries guards every folder: a project with its packages installed in it "
      "(node_modules, a .venv: tens of thousands of files) denies every write anywhere "
      "(`mkdir -p ../out`), as a doubt bounded to every folder does; unwritten (aa0e703) leaves "
      "out option names only: chmod's mode (`+x`, `755`) and sed's script (`s/a/b/`) are "
      "still read as paths in make's folder (a write outside denied); e26a344 makes every "
      "remaking recipe of a program that is no copier a doubt: `config.mk: config.mk.in` + "
      "`sed -e s/@CC@/cc/ $< > $@` (sed given its script whole, no `r`/`w`/`e`, reads only "
      "its operands) write-guards the project: `cp src/a.c src/b.c` (and every Edit) denied",
      *(c for c in COSTS if c != "a-source-copied-where-sed-remakes-an-include"))


@pytest.mark.parametrize("case", COSTS)
def test_cost_an_everyday_call_under_a_doubt(case: str, tmp_path: Path) -> None:
    """The plan and its makefile (a doubt bounded to make's folder); each everyday call,
    harmless, must be allowed."""
    needs("make")
    entries, setup, calls = COSTS[case]
    project = hooked_project(tmp_path, entries)
    (project / "Makefile").write_text(PATTERN)  # (a setup may write its own)
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    subprocess.run(["bash", "-c", setup], cwd=project, env=env, check=True,
                   capture_output=True, timeout=120)
    assert first_denied(project, calls, env) is None
