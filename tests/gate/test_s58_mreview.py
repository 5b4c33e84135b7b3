"""Review s58 (s58-mreview) of s58-mfix (issue 29: make's command-line values from the plan,
variables of several ``ifeq`` branches, npm scripts running code, jest's presence and settings,
npm workspaces). Each case proves with real bash 5.2, GNU make 4.3 (its recipes under /bin/sh =
dash), dash, npm 11, node 20 and jest 29.7 in a scratch project that the calls run the payload,
then asks the printed hook for each call in turn, running the allowed ones, as Claude Code
2.1.332's Bash tool runs them (``test_s53_greview._session``, ``test_s56_sreview._case``): the
hook allowing them all is the finding. A hole left open is a strict xfail (``OPEN``, its reason
naming the module and the commit that misreads); a case the change holds is a plain test
pinning it; a cost (a call a careful user needs, denied though harmless) is a row asserting the
call is allowed.

Every payload only makes a file (``$(shell touch zz)``, ``touch zz``, node's ``zz``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved_case
from test_s53_greview import _jest as _installed_jest
from test_s53_greview import _session
from test_s56_sreview import JEST_TEST, JS_PAYLOAD, NODE_PAYLOAD, SETUP_JSON, _case, _jest_case

#: Real bash, make, npm and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()

#: The cases s58-mfix closed during the review (each a pin now), by the commit that closed it.
CLOSED: dict[str, str] = {
    "an-assignment-before-make-e": "f41cc72e",
    **dict.fromkeys(("node-runs-a-folder", "node-adds-the-ending", "node-runs-the-package",
                     "python-runs-a-folder", "python-runs-a-package",
                     "python-text-imports-a-module", "npx-runs-a-local-packages-bin"),
                    "fbf26c3e"),
    **dict.fromkeys(("a-makefiles-makeoverrides", "a-makefiles-makeflags-environment-overrides",
                     "the-plans-recipe-prefix", "the-plans-assignment-where-no-branch-is-taken",
                     "a-parents-export-where-no-branch-is-taken",
                     "makeflags-assigned-before-make", "makeflags-given-by-env",
                     "gnumakeflags-assigned-before-make", "a-quoted-value-of-two-words",
                     "a-quoted-assignment-of-two-words", "a-quoted-assignment-with-blanks"),
                    "a92d8a76"),
    "a-simple-value-read-before-its-assignment": "6b667a47",
    "a-sub-make-runs-a-runner-outside": "cc125206",
    **dict.fromkeys(("a-recipes-makeflags-environment-overrides",
                     "an-override-shell-assignment-over-the-plans", "a-versioned-interpreter",
                     "an-interpreter-of-no-table", "an-interpreter-in-a-shells-text",
                     "an-interpreter-after-a-wrappers-option", "an-interpreter-finds-exec-runs",
                     "a-pragmas-value-on-the-next-line", "a-pragma-past-8-kib",
                     "a-test-named-test-js", "a-root-dir-setting"), "1d265db3"),
    "a-recipes-exported-makeflags": "c160192f",
    "a-scripts-copy-under-a-make-plan": "16b854ad",
    "a-test-outside-its-root-dir": "28f7f8f9",
    "a-pragma-ending-at-the-comments-close": "fa58c83b",
    **dict.fromkeys(("a-scripts-copy-under-a-make-plan-in-a-jest-named-folder",
                     "a-write-outside-under-a-plans-quoted-value"), "32c39d42"),
    **dict.fromkeys(("a-program-built-then-run", "gits-alias-runs-a-shell-text",
                     "npx-runs-a-scoped-file-spec"), "23605c28"),
    **dict.fromkeys(("seds-e-command-runs-a-file", "finds-exec-runs-each-match"), "e133c7b7"),
    **dict.fromkeys(("sqlites-read-file-runs-a-shell", "gdbs-command-file-runs-a-shell",
                     "a-built-program-run-by-a-wrapper", "a-built-program-in-npms-bin-folder"),
                    "s59-mfix"),
    **dict.fromkeys(("a-recipes-script-runs-the-runner", "a-recipes-program-linked-to-the-runner",
                     "cmake-runs-a-runner-outside"), "s59-mfix jestargs._runs_named"),
    "the-plans-script-runs-a-runner-outside": "s59-mfix planprograms (a project's program: &*)",
    **dict.fromkeys(("an-unread-pragma-names-a-text-file",
                     "an-unread-next-line-pragma-names-a-text-file",
                     "a-climbing-pragma-names-a-text-file"), "s59-mfix jestdocblocks.EVERY"),
    # (held when first tried, at cc125206)
    "a-config-files-folder": "held", "a-folders-index": "held",
}



def _rows(test: str, rows: dict[str, tuple[str, ...]], why: dict[str, str]) -> None:
    """``OPEN.add_rows``: each row holding a case not ``CLOSED``, left open."""
    OPEN.add_rows(test, rows, why, CLOSED)


def _hidden_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test's id out of the hook's environment: pytest's PYTEST_CURRENT_TEST names the
    test (`…jest…`), and e133c7b7 takes jest as present where any value of the session's
    environment holds `jest` (a real session's environment holds no test's name)."""
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)


#: A makefile's ``test`` that prints; the plan of the cases: make's call and a copier.
TEST = "test:\n\t@echo ok\n"
#: The payload beside the project (``../pay/p.in``) and the folder ``../shared``.
PAY = "mkdir -p ../pay ../shared && printf '%s\\n' '$(shell touch zz)' > ../pay/p.in"
#: A makefile beside the project (``../lib``) including ``local.conf``, and the payload made to
#: touch the project's ``zz`` (a sub-make there runs it in ``../lib``).
LIB = (PAY + " && sed -i 's#touch zz#touch $(CLAUDE_PROJECT_DIR)/zz#' ../pay/p.in && mkdir -p "
       "../lib && printf -- '-include local.conf\\ntest:\\n\\t@echo ok\\n' > ../lib/Makefile")


# --- V: a value make takes over the makefile's own that the reading trusts -----------------------

#: Each case: the plan's make call, its makefiles, the setup (bash, in the project), the copy's
#: operands: make (or a sub-make) reads the copy as makefile text.
VALUES: dict[str, tuple[str, dict[str, str], str, str]] = {
    # make passes MAKEOVERRIDES to each sub-make as its command line (`-- INC=…` in
    # MAKEFLAGS): the sub-make's INC is a command line's value over lib/Makefile's `:=`
    "a-makefiles-makeoverrides": (
        "make test", {"Makefile": "MAKEOVERRIDES := D=x\ntest:\n\t$(MAKE) -C lib test\n",
                      "lib/Makefile": "D := y\n-include $(D)/site.conf\n" + TEST,
                      "lib/x/.keep": ""}, PAY, "../pay/p.in lib/x/site.conf"),
    # `-e` in a makefile's MAKEFLAGS reaches every sub-make: the environment's values (an
    # exported `P := ..`) over the sub-make's makefile's own
    "a-makefiles-makeflags-environment-overrides": (
        "make test", {"Makefile": "export P := ..\nMAKEFLAGS += -e\ntest:\n\t$(MAKE) -f lib.mk "
                      "test\n", "lib.mk": "P := .\n-include $(P)/shared/site.conf\n" + TEST},
        PAY, "../pay/p.in ../shared/site.conf"),
    # the plan's own `.RECIPEPREFIX`: a tab line after a rule is a makefile line (an include)
    "the-plans-recipe-prefix": (
        "make test .RECIPEPREFIX=+", {"Makefile": "test:\n+@echo ok\nx:\n\t-include "
                                      "local.conf\n"}, PAY, "../pay/p.in local.conf"),
    # M2's `-e` given to a sub-make by its recipe's environment (an assignment, an export)
    "a-recipes-makeflags-environment-overrides": (
        "make test", {"Makefile": "export P := ..\ntest:\n\tMAKEFLAGS=-e $(MAKE) -f lib.mk "
                      "test\n", "lib.mk": "P := .\n-include $(P)/shared/site.conf\n" + TEST},
        PAY, "../pay/p.in ../shared/site.conf"),
    "a-recipes-exported-makeflags": (
        "make test", {"Makefile": "export P := ..\ntest:\n\texport MAKEFLAGS=e; $(MAKE) -f "
                      "lib.mk test\n", "lib.mk": "P := .\n-include $(P)/shared/site.conf\n"
                      + TEST}, PAY, "../pay/p.in ../shared/site.conf"),
}
#: Why each case of ``VALUES`` is open.
WHY_VALUES: dict[str, str] = {
    "a-makefiles-makeoverrides": "makereads/makelines know MAKEFLAGS, GNUMAKEFLAGS, MFLAGS "
    "only: a makefile's `MAKEOVERRIDES := D=x` is each sub-make's command-line value, over "
    "lib/Makefile's `D := y` (lib/y/site.conf read, lib/x/site.conf included) (at ba24a2b8)",
    "a-makefiles-makeflags-environment-overrides": "makelines.PLAIN_FLAGS holds `-e`: a "
    "makefile's `MAKEFLAGS += -e` is no doubt, yet every sub-make then takes the environment's "
    "values (an exported `P := ..`, which named_paths skips) over its makefile's (at ba24a2b8)",
    "the-plans-recipe-prefix": "makereads.command_line (f41cc72e) puts the plan's values into "
    "the definitions, unchecked: a makefile's own `.RECIPEPREFIX` is Unread (_assignment), the "
    "plan's makes the tab line `\\t-include local.conf` a makefile line the gate reads as a "
    "recipe",
    "a-recipes-makeflags-environment-overrides": "makerecipes.sub_makes reads a recipe's "
    "`MAKEFLAGS=-e` before $(MAKE) as the name MAKEFLAGS overridden, not `*` (the sub-make "
    "takes the environment's values: the exported `P := ..`) (at 6b667a47 and ba24a2b8)",
    "a-recipes-exported-makeflags": "a recipe's `export MAKEFLAGS=e;` before $(MAKE) is not "
    "read: the sub-make runs with -e (at 6b667a47 and ba24a2b8)",
}
for _row in (c for c in VALUES if c not in CLOSED):
    OPEN.add("test_v_a_value_over_the_makefiles", WHY_VALUES[_row], _row)


@pytest.mark.parametrize("case", VALUES)
def test_v_a_value_over_the_makefiles(case: str, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan ``Bash(<its make call>)``, ``Bash(cp *)``: the copy, then the make call reads it as
    makefile text. The hook must deny a call."""
    _hidden_name(monkeypatch)
    needs("make", "bash")
    call, files, setup, copy = VALUES[case]
    assert _session(tmp_path, [f"Bash({call})", "Bash(cp *)"], files, [f"cp {copy}", call],
                    setup=setup) is not None


# --- B: a variable of several values read as each (s58-mfix b66fac10) --------------------------

#: Each case: the plan's make call, its makefiles, the copy's operands (setup: ``LIB``): a
#: variable assigned in a branch only is, where no branch is taken, the environment's (the
#: plan entry's own assignment; a parent make's export), not empty.
BRANCHES: dict[str, tuple[str, dict[str, str], str]] = {
    "the-plans-assignment-where-no-branch-is-taken": (
        "D=../ make test", {"Makefile": "ifeq ($(X),1)\nD := sub/\nendif\ntest:\n\tfor d in "
                            "$(D)lib; do $(MAKE) -C $$d test; done\n", "lib/Makefile": TEST,
                            "sub/lib/Makefile": TEST}, "../pay/p.in ../lib/local.conf"),
    "a-parents-export-where-no-branch-is-taken": (
        "make test", {"Makefile": "export D := ..\ntest:\n\t$(MAKE) -f lib.mk test\n",
                      "lib.mk": "ifeq ($(X),1)\nD := x\nendif\ntest:\n\tfor d in $(D) lib; "
                      "do $(MAKE) -C $$d/lib test; done\n", "lib/lib/Makefile": TEST,
                      "x/lib/Makefile": TEST}, "../pay/p.in ../lib/local.conf"),
    # a `:=` expands the variable before the makefile assigns it: the environment's value
    "a-simple-value-read-before-its-assignment": (
        "D=../ make test", {"Makefile": "A := $(D)lib\nD := sub/\ntest:\n\t$(MAKE) -C $(A) "
                            "test\n", "sub/lib/Makefile": TEST}, "../pay/p.in ../lib/local.conf"),
}
#: Why each case of ``BRANCHES`` is open.
WHY_BRANCHES: dict[str, str] = {
    "the-plans-assignment-where-no-branch-is-taken": "makereads._value (b66fac10) reads a "
    "variable first assigned in a branch as also empty unless its name is in the hook's "
    "os.environ: the plan entry's `D=../` is make's environment, `-C ../lib`",
    "a-parents-export-where-no-branch-is-taken": "makereads._value (b66fac10): a sub-make's "
    "environment holds its parent's exports (`export D := ..`, which named_paths skips), not "
    "the hook's os.environ",
    "a-simple-value-read-before-its-assignment": "makeexpand reads a variable as the values "
    "the makefiles assign it anywhere: `A := $(D)lib` before `D := sub/` takes the "
    "environment's D (the plan entry's `D=../`) (at fbf26c3e and ba24a2b8)",
}
for _row in (c for c in BRANCHES if c not in CLOSED):
    OPEN.add("test_b_a_value_where_no_branch_is_taken", WHY_BRANCHES[_row], _row)


@pytest.mark.parametrize("case", BRANCHES)
def test_b_a_value_where_no_branch_is_taken(case: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan ``Bash(<its make call>)``, ``Bash(cp *)``: the copy into ``../lib/local.conf``,
    then the make call's sub-make reads it. The hook must deny a call."""
    _hidden_name(monkeypatch)
    needs("make", "bash")
    call, files, copy = BRANCHES[case]
    assert _session(tmp_path, [f"Bash({call})", "Bash(cp *)"], files, [f"cp {copy}", call],
                    setup=LIB) is not None


# --- W: the plan's own words giving make a value -------------------------------------------------

#: The plan's makefile: its own `DIRS := lib`, read by a loop of sub-makes.
LOOP = {"Makefile": "DIRS := lib\ntest:\n\tfor d in $(DIRS); do $(MAKE) -C $$d/lib test; done\n"}
#: Each case: the plan's make call giving DIRS `..` (make then reads ../lib/local.conf).
WORDS: dict[str, str] = {
    # the environment's MAKEFLAGS holding a variable's value is make's command line
    "makeflags-assigned-before-make": "MAKEFLAGS=DIRS=.. make test",
    "makeflags-given-by-env": "env MAKEFLAGS=DIRS=.. make test",
    "gnumakeflags-assigned-before-make": "GNUMAKEFLAGS=DIRS=.. make test",
    # `-e`: the environment's value (the entry's assignment) over the makefile's `:=`
    "an-assignment-before-make-e": "DIRS=.. make -e test",
    # a quoted value holding a blank; blanks around the `=` of a quoted word
    "a-quoted-value-of-two-words": 'make test DIRS="lib .."',
    "a-quoted-assignment-of-two-words": 'make test "DIRS=lib .."',
    "a-quoted-assignment-with-blanks": "make test 'DIRS = ..'",
    # the makefile's `override` of a shell assignment beats the plan's value
    "an-override-shell-assignment-over-the-plans": "make test DIRS=lib",
}
#: Why each case of ``WORDS`` is open.
WHY_WORDS: dict[str, str] = {
    "makeflags-assigned-before-make": "the plan's command-line values are read from make's "
    "words only (s58-mfix's makereads.command_line): an entry's `MAKEFLAGS=DIRS=..` before make "
    "gives make the value too (at ba24a2b8)",
    "makeflags-given-by-env": "as makeflags-assigned-before-make, `env MAKEFLAGS=…` (at "
    "ba24a2b8)",
    "gnumakeflags-assigned-before-make": "as makeflags-assigned-before-make, GNUMAKEFLAGS (at "
    "ba24a2b8)",
    "an-assignment-before-make-e": "the entry's `DIRS=..` before `make -e` is the environment's "
    "value over the makefile's `DIRS := lib` (at ba24a2b8)",
    "a-quoted-value-of-two-words": "makereads.command_line (f41cc72e) reads the plan's words "
    "split at blanks before quotes are removed: `DIRS=\"lib ..\"` is read `DIRS=lib`; make's "
    "DIRS is `lib ..`",
    "a-quoted-assignment-of-two-words": "as a-quoted-value-of-two-words (`\"DIRS=lib ..\"`) "
    "(at f41cc72e)",
    "a-quoted-assignment-with-blanks": "makereads.command_line (f41cc72e) reads no assignment "
    "in `'DIRS = ..'` (split at its blanks); make reads the word as `DIRS = ..`",
    "an-override-shell-assignment-over-the-plans": "REGRESSION of f41cc72e (denied at "
    "ba24a2b8): makereads.trusted keeps a name the plan gives trusted, and `override DIRS != "
    "printf %s%s . .` adds its command's text (plain) as a value; make's DIRS is `..`",
}
#: The rows: each a class of WORDS' spellings (all run).
WORD_ROWS: dict[str, tuple[str, ...]] = {
    "makeflags-before-make": ("makeflags-assigned-before-make", "makeflags-given-by-env",
                              "gnumakeflags-assigned-before-make"),
    "an-assignment-before-make-e": ("an-assignment-before-make-e",),
    "quoted-words": ("a-quoted-value-of-two-words", "a-quoted-assignment-of-two-words",
                     "a-quoted-assignment-with-blanks"),
    "an-override-shell-assignment-over-the-plans": (
        "an-override-shell-assignment-over-the-plans",),
}
_rows("test_w_the_plans_own_words", WORD_ROWS, WHY_WORDS)


def _word(tmp_path: Path, case: str) -> str | None:
    """WORDS' ``case``: the first call the hook denies, or None."""
    call = WORDS[case]
    loop = {"Makefile": "override " + LOOP["Makefile"].replace(":=", "!= printf %s%s . . #")
            } if case.startswith("an-override") else LOOP
    return _session(tmp_path, [f"Bash({call})", "Bash(cp *)"],
                    {**loop, "lib/lib/Makefile": TEST},
                    ["cp ../pay/p.in ../lib/local.conf", call], setup=LIB)


@pytest.mark.parametrize("row", WORD_ROWS)
def test_w_the_plans_own_words(row: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan ``Bash(<its make call>)``, ``Bash(cp *)``: the copy into ``../lib/local.conf``,
    then the plan's make call reads it. The hook must deny a call of each spelling."""
    _hidden_name(monkeypatch)
    needs("make", "bash")
    allowed = [c for c in WORD_ROWS[row] if _word(tmp_path / c, c) is None]
    assert not allowed, f"the hook allows every call of {allowed}, and make reads the copy"


# --- S: code an npm script runs that no word names as a file (s57-sreview R18's class) -----------

#: The payload of a Python module: a file ``zz`` in the folder npm runs the script in.
PY_PAYLOAD = "open('zz', 'w')\n"
#: A C program's payload (built, then run).
C_PAYLOAD = '#include <stdio.h>\nint main(void) { fclose(fopen("zz", "w")); return 0; }\n'
#: A Java source file's payload (java's source launcher runs it).
JAVA_PAYLOAD = ("public class Run { public static void main(String[] a) throws Exception { "
                "new java.io.File(\"zz\").createNewFile(); } }\n")
#: Each case: the ``test`` script, the other files, the file the copy writes, the payload's
#: language (``py`` or node's).
SCRIPT_CODE: dict[str, tuple[str, dict[str, str], str, str]] = {
    # node runs a folder's index.js (or its package.json's main), a name with .js added
    "node-runs-a-folder": ("node tools", {"tools/index.js": "1\n"}, "tools/index.js", "js"),
    "node-adds-the-ending": ("node tools/run", {"tools/run.js": "1\n"}, "tools/run.js", "js"),
    "node-runs-the-package": ("node .", {"index.js": "1\n"}, "index.js", "js"),
    # python runs a folder's __main__.py, a package's (-m), a module a -c text imports
    "python-runs-a-folder": ("python3 tools", {"tools/__main__.py": "1\n"},
                             "tools/__main__.py", "py"),
    "python-runs-a-package": ("python3 -m tools", {"tools/__init__.py": "",
                                                   "tools/__main__.py": "1\n"},
                              "tools/__main__.py", "py"),
    "python-text-imports-a-module": ('python3 -c "import tools.run"', {"tools/run.py": "1\n"},
                                     "tools/run.py", "py"),
    # npx installs a local folder's package (`--package=`) and runs its bin
    "npx-runs-a-local-packages-bin": ("npx --package=./tools/pkg tpkg", {
        "tools/pkg/package.json": json.dumps({"name": "tpkg", "version": "1.0.0",
                                              "bin": {"tpkg": "cli.js"}}),
        "tools/pkg/cli.js": "#!/usr/bin/env node\n1\n"}, "tools/pkg/cli.js", "bin"),
    # an interpreter by its versioned name; an interpreter after an option word (a shell's
    # `-c` text, a wrapper's option, find's `-exec`)
    "a-versioned-interpreter": ("python3.11 -m tools.run", {"tools/run.py": "1\n"},
                                "tools/run.py", "py"),
    # an interpreter no table names: java's source launcher
    "an-interpreter-of-no-table": ("java tools/Run.java", {
        "tools/Run.java": "public class Run { public static void main(String[] a) {} }\n"},
        "tools/Run.java", "java"),
    # a tool reading a project file as its commands, which hold a shell escape
    "sqlites-read-file-runs-a-shell": ("sqlite3 :memory: '.read tools/x.sql'",
                                       {"tools/x.sql": "select 1;\n"}, "tools/x.sql", "sql"),
    "gdbs-command-file-runs-a-shell": ("gdb -batch -x tools/x.gdb", {"tools/x.gdb": "echo\n"},
                                       "tools/x.gdb", "gdb"),
    "an-interpreter-in-a-shells-text": ("sh -c 'python3 -m tools.run'",
                                        {"tools/run.py": "1\n"}, "tools/run.py", "py"),
    "an-interpreter-after-a-wrappers-option": ("stdbuf -oL python3 -m tools.run",
                                               {"tools/run.py": "1\n"}, "tools/run.py", "py"),
    "an-interpreter-finds-exec-runs": ("find tools -name run.js -exec node '{}' +",
                                       {"tools/run.js": "1\n"}, "tools/run.js", "js"),
    # no interpreter: sed's `e` command, find's `-exec` of each match (an executable script)
    "seds-e-command-runs-a-file": ("sed -n 1e./tools/run.sh package.json",
                                   {"tools/run.sh": "#!/bin/sh\ntrue\n"}, "tools/run.sh", "sh"),
    "finds-exec-runs-each-match": ("find tools -name run.sh -exec '{}' +",
                                   {"tools/run.sh": "#!/bin/sh\ntrue\n"}, "tools/run.sh", "sh"),
    # a program the script builds from a project source, then runs (no file at the hook's
    # time); git's `!` alias runs a shell text
    "a-program-built-then-run": ("cc tools/gen.c -o gen && ./gen",
                                 {"tools/gen.c": "int main(void) { return 0; }\n"},
                                 "tools/gen.c", "c"),
    "a-built-program-run-by-a-wrapper": ("cc tools/gen.c -o gen && timeout 60 ./gen",
                                         {"tools/gen.c": "int main(void) { return 0; }\n"},
                                         "tools/gen.c", "c"),
    "a-built-program-in-npms-bin-folder": ("cc tools/gen.c -o node_modules/.bin/gen && gen",
                                           {"tools/gen.c": "int main(void) { return 0; }\n",
                                            "node_modules/.bin/.keep": ""}, "tools/gen.c", "c"),
    # a scoped package's `@file:` spec (npm-package-arg: name@spec)
    "npx-runs-a-scoped-file-spec": ("npx --package=@me/tpkg@file:tools/pkg tpkg", {
        "tools/pkg/package.json": json.dumps({"name": "@me/tpkg", "version": "1.0.0",
                                              "bin": {"tpkg": "cli.js"}}),
        "tools/pkg/cli.js": "#!/usr/bin/env node\n1\n"}, "tools/pkg/cli.js", "bin"),
    "gits-alias-runs-a-shell-text": ("git -c alias.t='!sh tools/x.sh' t",
                                     {"tools/x.sh": "true\n"}, "tools/x.sh", "text"),
}
#: Why each case of ``SCRIPT_CODE`` is open.
WHY_CODE: dict[str, str] = {
    "a-versioned-interpreter": "testroots._code_read (fbf26c3e) takes an interpreter by its "
    "name in _INTERPRETERS: `python3.11` (any pythonX.Y) is none",
    "an-interpreter-of-no-table": "testroots._INTERPRETERS is a list of interpreters (a "
    "deny-list): java 11+ runs a source file (tclsh, lua… alike) (at 6b667a47)",
    "sqlites-read-file-runs-a-shell": "scriptcode's _INTERPRETER (1d265db3) is a list of "
    "interpreters: sqlite3's `.read tools/x.sql` runs the file's `.shell` (at 23605c28 and "
    "ba24a2b8)",
    "gdbs-command-file-runs-a-shell": "as sqlites-read-file-runs-a-shell: `gdb -batch -x "
    "tools/x.gdb` runs its `shell` (at 23605c28 and ba24a2b8)",
    "an-interpreter-in-a-shells-text": "testroots._code_read (fbf26c3e) reads a word after an "
    "option as the option's value, not a program: `sh -c 'python3 -m tools.run'` runs python3",
    "an-interpreter-after-a-wrappers-option": "as an-interpreter-in-a-shells-text: "
    "`stdbuf -oL python3` (`ionice -c3`, `nice -5`) (at fbf26c3e)",
    "an-interpreter-finds-exec-runs": "as an-interpreter-in-a-shells-text: find's `-exec node "
    "'{}' +` runs node on tools/run.js (at fbf26c3e)",
    "seds-e-command-runs-a-file": "testroots._code_read (1d265db3) refuses interpreters "
    "(_INTERPRETER, a list): GNU sed's `1e./tools/run.sh` runs the file, no word names it "
    "(at c160192f and ba24a2b8)",
    "finds-exec-runs-each-match": "as seds-e-command-runs-a-file: find's `-exec '{}' +` runs "
    "each match (tools/run.sh) (at c160192f and ba24a2b8)",
    "a-program-built-then-run": "testroots._code_run skips a word naming no file at the "
    "hook's time (`./gen`, built by the script from tools/gen.c, which nothing guards) (at "
    "e133c7b7 and ba24a2b8)",
    "npx-runs-a-scoped-file-spec": "scriptcode (fbf26c3e) takes a package starting with `@` "
    "as a registry's: `@me/tpkg@file:tools/pkg` is a local folder (at e133c7b7)",
    "a-built-program-run-by-a-wrapper": "scriptcode (23605c28) refuses a program of a path "
    "not there yet as the command's first word only: `timeout 60 ./gen` (`sh -c ./gen`) runs "
    "the program the script built from tools/gen.c",
    "a-built-program-in-npms-bin-folder": "as a-built-program-run-by-a-wrapper: built into "
    "node_modules/.bin, run by its name (npm puts the folder first on PATH) (at 23605c28)",
    "gits-alias-runs-a-shell-text": "scriptcode reads git as running nothing: `-c "
    "alias.t='!sh tools/x.sh'` runs a shell text (the word `alias.t=!sh` hides the shell) (at "
    "e133c7b7 and ba24a2b8)",
}
# (node-runs-a-folder … npx-runs-a-local-packages-bin: open at ba24a2b8, testroots._code_run
# refused a word naming an existing file only; closed by s58-mfix fbf26c3e)
#: The rows: each a class of SCRIPT_CODE's spellings (all run).
CODE_ROWS: dict[str, tuple[str, ...]] = {
    "a-folder-or-a-completed-name": ("node-runs-a-folder", "node-adds-the-ending",
                                     "node-runs-the-package", "python-runs-a-folder"),
    "a-module-by-name": ("python-runs-a-package", "python-text-imports-a-module"),
    "npx-runs-a-local-packages-bin": ("npx-runs-a-local-packages-bin",),
    "npx-runs-a-scoped-file-spec": ("npx-runs-a-scoped-file-spec",),
    "a-versioned-interpreter": ("a-versioned-interpreter",),
    "an-interpreter-of-no-table": ("an-interpreter-of-no-table", "sqlites-read-file-runs-a-shell",
                                   "gdbs-command-file-runs-a-shell"),
    "an-interpreter-after-an-option": ("an-interpreter-in-a-shells-text",
                                       "an-interpreter-after-a-wrappers-option",
                                       "an-interpreter-finds-exec-runs"),
    "seds-e-command-runs-a-file": ("seds-e-command-runs-a-file",),
    "finds-exec-runs-each-match": ("finds-exec-runs-each-match",),
    "a-program-built-then-run": ("a-program-built-then-run",
                                 "a-built-program-run-by-a-wrapper",
                                 "a-built-program-in-npms-bin-folder"),
    "gits-alias-runs-a-shell-text": ("gits-alias-runs-a-shell-text",),
}
_rows("test_s_code_no_word_names_as_a_file", CODE_ROWS, WHY_CODE)


@pytest.mark.parametrize("row", CODE_ROWS)
def test_s_code_no_word_names_as_a_file(row: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``: the copy over the code the script runs, then
    ``npm test`` runs it. The hook must deny a call of each spelling."""
    _hidden_name(monkeypatch)
    allowed = [c for c in CODE_ROWS[row] if _code(tmp_path / c, c) is None]
    assert not allowed, f"the hook allows every call of {allowed}, and the script runs the copy"


def _code(tmp_path: Path, case: str) -> str | None:
    """SCRIPT_CODE's ``case``: the first call the hook denies, or None."""
    script, files, target, language = SCRIPT_CODE[case]
    needs("node", "npm", "python3",
          *{"java": ["java"], "sql": ["sqlite3"], "gdb": ["gdb"]}.get(language, []))
    files = {"package.json": json.dumps({"name": "p", "scripts": {"test": script}}),
             "src/mk": {"py": PY_PAYLOAD, "java": JAVA_PAYLOAD, "c": C_PAYLOAD,
                        "text": 'touch "$INIT_CWD/zz"\n', "sql": ".shell touch zz\n",
                        "gdb": "shell touch zz\n",
                        "sh": '#!/bin/sh\ntouch "$INIT_CWD/zz"\n'}.get(language, NODE_PAYLOAD),
             **files}
    if language == "bin":  # (a bin keeps its mode: the copy keeps its `#!` line)
        files["src/mk"] = "#!/usr/bin/env node\n" + NODE_PAYLOAD
    return _case(tmp_path, ["Bash(npm test)", "Bash(cp *)"], files,
                 [f"cp src/mk {target}", "npm test"],
                 setup={"bin": "chmod +x tools/pkg/cli.js", "sh": "chmod +x tools/*.sh"}.get(
                     language, ""))


# --- J: what jest 29.7 loads where the gate guesses it absent or reads its settings otherwise ----

#: Each case: the plan's entry, the files (``JESTBIN``: an installed jest outside the project,
#: no package.json nor node_modules in it), the file the copy writes (jest loads it).
JEST: dict[str, tuple[str, dict[str, str], str]] = {
    # a sub-make's makefile runs jest with its settings (jestargs.present reads the top folder)
    "a-sub-make-runs-a-runner-outside": (
        "make test", {"Makefile": "test:\n\t$(MAKE) -C lib test\n",
                      "lib/Makefile": "test:\n\tJESTBIN --config ci.json\n",
                      "lib/ci.json": SETUP_JSON, "lib/unit/a.test.js": JEST_TEST},
        "lib/tools/s.js"),
    # a recipe runs a script that runs jest; a recipe's program is a link to jest's bin
    "a-recipes-script-runs-the-runner": (
        "make test", {"Makefile": "test:\n\tsh scripts/test.sh\n",
                      "scripts/test.sh": "JESTBIN --config ci.json\n", "ci.json": SETUP_JSON,
                      "lib/unit/a.test.js": JEST_TEST}, "tools/s.js"),
    "a-recipes-program-linked-to-the-runner": (
        "make test", {"Makefile": "test:\n\ttools/runner --config ci.json\n",
                      "ci.json": SETUP_JSON, "lib/unit/a.test.js": JEST_TEST}, "tools/s.js"),
    # another program of the plan runs it: cmake's configure, the plan's own script
    "cmake-runs-a-runner-outside": (
        "cmake -S . -B build", {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\n"
                                "project(p NONE)\nexecute_process(COMMAND JESTBIN --config "
                                "ci.json WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})\n",
                                "ci.json": SETUP_JSON, "lib/unit/a.test.js": JEST_TEST},
        "tools/s.js"),
    "the-plans-script-runs-a-runner-outside": (
        "./ci.sh", {"ci.sh": "#!/bin/sh\nJESTBIN --config ci.json\n", "ci.json": SETUP_JSON,
                    "lib/unit/a.test.js": JEST_TEST}, "tools/s.js"),
}
#: Why each case of ``JEST`` is open.
WHY_JEST: dict[str, str] = {
    "a-sub-make-runs-a-runner-outside": "jestargs.present (s57-sfix) guesses jest absent where "
    "the top folder's Makefile, package.json files, node_modules, PATH and test folders do not "
    "name it: a sub-make's lib/Makefile runs it (at fbf26c3e)",
    "a-recipes-script-runs-the-runner": "jestargs.present asks Guarded.jest_by_make (16b854ad): "
    "whether a makefile make reads names jest; a recipe's `sh scripts/test.sh` runs it, no "
    "makefile names it (at c160192f and ba24a2b8)",
    "a-recipes-program-linked-to-the-runner": "as a-recipes-script-runs-the-runner: the recipe's "
    "`tools/runner` is a link to jest's bin; no word says jest (at c160192f and ba24a2b8)",
    "cmake-runs-a-runner-outside": "jestargs.present guesses jest absent for a cmake plan "
    "(no package.json, node_modules, PATH's jest, makefile, test in the folder): its "
    "execute_process runs one (at cc125206 and ba24a2b8)",
    "the-plans-script-runs-a-runner-outside": "as cmake-runs-a-runner-outside: the plan's own "
    "`./ci.sh` runs a jest installed anywhere (at cc125206 and ba24a2b8)",
}
for _row in (c for c in JEST if c not in CLOSED):
    OPEN.add("test_j_the_runner_loads_a_file", WHY_JEST[_row], _row)


@pytest.mark.parametrize("case", JEST)
def test_j_the_runner_loads_a_file(case: str, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: the copy, then jest loads it."""
    _hidden_name(monkeypatch)
    entry, files, target = JEST[case]
    jest = str(_installed_jest() / ".bin" / "jest")
    files = {**{k: v.replace("JESTBIN", jest) for k, v in files.items()},
             target: "module.exports = {};\n", "src/js": JS_PAYLOAD}
    links = {"tools/runner": jest} if "linked" in case else None
    needs(*(["cmake"] if entry.startswith("cmake") else []))
    assert _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                 [f"cp src/js {target}", entry], links=links,
                 setup="chmod +x ci.sh" if "ci.sh" in files else "") is not None


#: Spellings of jest in a makefile's recipe with no word `jest` (16b854ad reads the text):
#: each the recipe's program, and the session's environment.
NAMED_OTHERWISE: dict[str, tuple[str, dict[str, str]]] = {
    "a-variable-of-the-sessions-environment": ("$(JS_RUNNER)", {"JS_RUNNER": "JESTBIN"}),
    "a-quoted-name": ("QUOTED", {}),
}
# (open at c160192f, jestargs.present asked Guarded.jest_by_make (16b854ad): whether a
# makefile's text holds `jest`; closed by s58-mfix e133c7b7: quotes dropped, the session's
# environment read)


def test_j_a_makefile_runs_the_runner_by_another_word(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan ``Bash(make test)``, ``Bash(cp *)``: the copy over the setup file ci.json names,
    then the recipe's jest loads it. The hook must deny a call of each spelling."""
    _hidden_name(monkeypatch)
    needs("make")
    jest = str(_installed_jest() / ".bin" / "jest")
    allowed = []
    for case, (program, extra) in NAMED_OTHERWISE.items():
        recipe = program.replace("QUOTED", jest.replace("/jest", "/je''st"))
        files = {"Makefile": f"test:\n\t{recipe} --config ci.json\n", "ci.json": SETUP_JSON,
                 "lib/unit/a.test.js": JEST_TEST, "tools/s.js": "module.exports = {};\n",
                 "src/js": JS_PAYLOAD}
        if proved_case(tmp_path / case, ["Bash(make test)", "Bash(cp *)"], files,
                       ["cp src/js tools/s.js", "make test"],
                       {k: v.replace("JESTBIN", jest) for k, v in extra.items()}) is None:
            allowed.append(case)
    assert not allowed, f"the hook allows every call of {allowed}, and jest loads the copy"


#: A test's docblock naming its environment by a path (jest resolves it from its rootDir).
PRAGMA = "/**\n * @jest-environment ./tools/s.js\n */\n"
#: Each case: package.json's ``"jest"`` settings (None: none), the files, the ``test``
#: script, the file the copy writes (jest loads it as the test's environment).
DOCBLOCKS: dict[str, tuple[dict[str, object] | None, dict[str, str], str, str]] = {
    # jest-docblock joins a pragma's value written on the next line
    "a-pragmas-value-on-the-next-line": (None, {"a.test.js": "/**\n * @jest-environment\n * "
                                                "./tools/s.js\n */\n" + JEST_TEST},
                                         "jest", "tools/s.js"),
    # jest reads the whole first comment
    "a-pragma-past-8-kib": (None, {"a.test.js": "/**\n" + " * license text line\n" * 500
                                   + " * @jest-environment ./tools/s.js\n */\n" + JEST_TEST},
                            "jest", "tools/s.js"),
    # jest's default testMatch takes a bare `test.js` (`?(*.)+(spec|test).[jt]s?(x)`)
    "a-test-named-test-js": (None, {"lib/test.js": PRAGMA + JEST_TEST}, "jest", "tools/s.js"),
    # the environment is resolved from the settings' rootDir
    "a-root-dir-setting": ({"rootDir": "src"}, {"src/__tests__/a.js": PRAGMA + JEST_TEST},
                           "jest", "src/tools/s.js"),
    # a test outside its rootDir (roots naming a sibling folder)
    "a-test-outside-its-root-dir": ({"rootDir": "config", "roots": ["<rootDir>/../src"]},
                                    {"src/a.test.js": PRAGMA + JEST_TEST, "config/.keep": ""},
                                    "jest", "config/tools/s.js"),
    # a docblock not read (past 8 KiB, a value on the next line) naming a file of any ending
    "an-unread-pragma-names-a-text-file": (None, {"a.test.js": "/**\n" + " * license text "
                                                  "line\n" * 500 + " * @jest-environment "
                                                  "./tools/s.txt\n */\n" + JEST_TEST},
                                           "jest", "tools/s.txt"),
    # a one-line docblock closing right after the value (jest strips the `*/`)
    "a-pragma-ending-at-the-comments-close": (None, {"a.test.js": "/** @jest-environment "
                                                     "./tools/s.js*/\n" + JEST_TEST},
                                              "jest", "tools/s.js"),
    "a-climbing-pragma-names-a-text-file": (
        {"rootDir": "src"}, {"src/__tests__/a.js": "/**\n * @jest-environment <rootDir>/../tools/"
                             "s.txt\n */\n" + JEST_TEST}, "jest", "tools/s.txt"),
    "an-unread-next-line-pragma-names-a-text-file": (
        None, {"a.test.js": "/**\n * @jest-environment\n * ./tools/s.txt\n */\n" + JEST_TEST},
        "jest", "tools/s.txt"),
    # held at cc125206: a --config's folder (its rootDir), a folder's index.js
    "a-config-files-folder": (None, {"cfg/jest.json": "{}", "cfg/a.test.js": PRAGMA + JEST_TEST},
                              "jest --config cfg/jest.json", "cfg/tools/s.js"),
    "a-folders-index": (None, {"a.test.js": PRAGMA.replace("s.js", "env") + JEST_TEST,
                               "tools/env/package.json": "{}"}, "jest", "tools/env/index.js"),
}
#: Why each case of ``DOCBLOCKS`` is open.
WHY_DOCBLOCKS: dict[str, str] = {
    "a-pragmas-value-on-the-next-line": "jestdocblocks._PRAGMA (cc125206) wants the value after "
    "blanks on the pragma's line; jest-docblock's multilineRe joins the next line's",
    "a-pragma-past-8-kib": "jestdocblocks reads a test's first _HEAD (8,192) bytes; jest reads "
    "the whole first comment (at cc125206)",
    "a-test-named-test-js": "jestdocblocks._TEST_NAME (cc125206) wants `.test.`/`.spec.` "
    "after a name; jest's default `**/?(*.)+(spec|test).[jt]s?(x)` takes `test.js`, "
    "`x.testspec.js`",
    "a-root-dir-setting": "jestdocblocks resolves a pragma from the collecting folder and the "
    "test's; jest from the settings' rootDir (`src`) (at cc125206)",
    "a-test-outside-its-root-dir": "jestdocblocks (1d265db3) resolves a pragma from each "
    "folder between the test's and the collecting folder; jest from rootDir (`config`), "
    "which `roots` puts beside the tests (at 6c9ddc62)",
    "an-unread-pragma-names-a-text-file": "jestdocblocks (1d265db3) fails closed on a docblock "
    "it does not read by reading the settings as code, which guards script endings and files "
    "of no ending only: jest loads `./tools/s.txt` as JS (at e133c7b7)",
    "an-unread-next-line-pragma-names-a-text-file": "as an-unread-pragma-names-a-text-file "
    "(at e133c7b7)",
    "a-pragma-ending-at-the-comments-close": "jestdocblocks._PRAGMA reads the value as `\\S+`: "
    "`./tools/s.js*/`; jest-docblock strips the comment's close first (at 28f7f8f9)",
    "a-climbing-pragma-names-a-text-file": "as an-unread-pragma-names-a-text-file: 28f7f8f9 "
    "fails closed on a pragma's `..` the same way (at 28f7f8f9)",
}
DOCBLOCK_ROWS: dict[str, tuple[str, ...]] = {
    **{c: (c,) for c in WHY_DOCBLOCKS if "-text-file" not in c},
    "an-unread-pragma-names-a-text-file": ("an-unread-pragma-names-a-text-file",
                                           "an-unread-next-line-pragma-names-a-text-file",
                                           "a-climbing-pragma-names-a-text-file"),
    "held-rootdirs-and-folders": ("a-config-files-folder", "a-folders-index"),
}
_rows("test_j_a_tests_docblock_names_its_environment", DOCBLOCK_ROWS, WHY_DOCBLOCKS)


@pytest.mark.parametrize("row", DOCBLOCK_ROWS)
def test_j_a_tests_docblock_names_its_environment(row: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``: the copy over the environment a test's
    docblock names, then ``npm test`` (jest) loads it. The hook must deny a call."""
    _hidden_name(monkeypatch)
    allowed = []
    for case in DOCBLOCK_ROWS[row]:
        settings, files, script, target = DOCBLOCKS[case]
        if _jest_case(tmp_path / case, "npm test", settings, files, target, script) is None:
            allowed.append(case)
    assert not allowed, f"the hook allows every call of {allowed}, and jest loads the copy"


# --- K: costs, everyday calls denied though harmless -----------------------------------------

#: Each case: the plan's entries, its files, the everyday calls (each harmless).
COSTS: dict[str, tuple[list[str], dict[str, str], list[str]]] = {
    # a C project's make plan: no JavaScript, no jest anywhere
    "a-scripts-copy-under-a-make-plan": (
        ["Bash(make test)", "Bash(cp *)"], {"Makefile": "test:\n\tcc -o t t.c && ./t\n",
                                            "t.c": "int main(void) { return 0; }\n",
                                            "src/a.js": "1\n", "tools/gen": "#!/bin/sh\n"},
        ["cp src/a.js src/b.js", "cp tools/gen tools/gen2"]),
    # the same, the project checked out in a folder whose name holds "jest"
    "a-scripts-copy-under-a-make-plan-in-a-jest-named-folder": (
        ["Bash(make test)", "Bash(cp *)"], {"Makefile": "test:\n\tcc -o t t.c && ./t\n",
                                            "t.c": "int main(void) { return 0; }\n",
                                            "src/a.js": "1\n", "tools/gen": "#!/bin/sh\n"},
        ["cp src/a.js src/b.js", "cp tools/gen tools/gen2"]),
    # the plan gives a toolchain value of two words (quoted); the everyday recursive loop
    "a-write-outside-under-a-plans-quoted-value": (
        ['Bash(make test CFLAGS="-O2 -g")', "Bash(mkdir *)", "Bash(cp *)"],
        {"Makefile": "SUBDIRS := lib\ntest:\n\tfor d in $(SUBDIRS); do $(MAKE) -C $$d test; "
                     "done\n", "lib/Makefile": TEST},
        ["mkdir -p ../out", "cp notes.txt ../out/n.txt"]),
}
#: Why each cost row is open.
WHY_COSTS: dict[str, str] = {
    "a-scripts-copy-under-a-make-plan": "REGRESSION of cc125206 (allowed at ba24a2b8): "
    "jestargs.present is true wherever a Makefile is, and a make plan's words are unseen, so "
    "jestsettings reads jest's settings as code: every script and every present file of no "
    "ending anywhere is guarded",
    "a-scripts-copy-under-a-make-plan-in-a-jest-named-folder": "REGRESSION of e133c7b7 "
    "(allowed at ba24a2b8): jest is present where any value of the session's environment "
    "holds `jest` (the project's path: PWD, CLAUDE_PROJECT_DIR), and a make plan's words are "
    "unseen: every script and file of no ending anywhere guarded",
    "a-write-outside-under-a-plans-quoted-value": "REGRESSION of a92d8a76 (allowed at "
    "ba24a2b8): any quote in the plan's make entry makes every value inexact "
    "(makelines.command_line's '*'), so the loop over SUBDIRS is a doubt of every folder",
}
for _row in (c for c in COSTS if c not in CLOSED):
    OPEN.add("test_cost_an_everyday_call", WHY_COSTS[_row], _row)


@pytest.mark.parametrize("case", COSTS)
def test_cost_an_everyday_call(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan and its files; each everyday call, harmless, must be allowed."""
    _hidden_name(monkeypatch)
    entries, files, calls = COSTS[case]
    if "jest-named" in case:  # (the checkout's folder: …/jest-preset-acme/project)
        tmp_path = tmp_path / "jest-preset-acme"
        tmp_path.mkdir()
    project = hooked_project(tmp_path, entries)
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    assert first_denied(project, calls, env) is None
