"""Review s57 (s57-greview) of s57-gfix (make's doubts bounded by an allow-list of plain text;
sub-makes and remaking recipes failing closed). Each case proves with real bash 5.2, GNU make
4.3 (its recipes under /bin/sh = dash), cmake 3.25 and gcc in a scratch project that the calls
run the payload, then asks the printed hook for each call in turn, running the allowed ones, as
Claude Code 2.1.332's Bash tool runs them (``test_s53_greview._session``): the hook allowing
them all is the finding. A hole left open is a strict xfail (``OPEN``); a case the change holds
is a plain test pinning it; a cost (a call a careful user needs, denied though harmless) is a
row asserting the call is allowed.

Every payload only touches a file (``$(shell touch zz)``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved_case
from test_s53_greview import _session
from test_s54_greview3 import HEADER_PAYLOAD, PROGRAM

#: Real bash, make, cmake and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()


def _open(test: str, reason: str, *cases: str) -> None:
    """``OPEN.add`` of the cases still open (none: the whole test is no longer open)."""
    if cases:
        OPEN.add(test, reason, *cases)


#: The cases s57-gfix closed during the review (each a pin now), by the commit that closed it.
CLOSED: dict[str, str] = {
    "a-write-outside-beside-a-loop-over-a-value-of-two-branches": "s58-mfix",
    "a-copy-of-the-first-prerequisite": "28ad2bc1",
    "a-write-outside-beside-a-sed-remade-include": "28ad2bc1",
    "a-substitution-reference-of-an-automatic-variable": "f57490c6",
    "a-write-outside-under-a-relative-cflags-beside-a-recipes-git": "f57490c6",
    "a-recipe-copies-after-a-keyword-before-a-sub-make": "7913e8b1",
    "a-sub-makes-recipe-copies-before-another-sub-make": "7913e8b1",
    "a-write-beside-a-recursive-makes-clean-rule": "ea3892ae",
    **dict.fromkeys(("a-tab-line-after-a-line-expanding-to-nothing",
                     "a-make-named-by-a-references-pieces",
                     "a-bounded-sub-make-of-an-include-folder-naming-outside"),
                    "6b6703c3..f07cd15f"),
    **dict.fromkeys(("recipes-of-an-evaluated-prefix",
                     "a-shell-assignment-copies-before-a-sub-make",
                     "a-command-substitution-copies-before-a-sub-make"), "eba07d1c..48e0289e"),
    **dict.fromkeys((
        "an-include-through-procs-own-folder-link",
        "a-source-named-by-the-targets-name", "makes-own-folder-variable-reassigned",
        "an-include-of-a-subst-of-nothing", "an-include-named-by-a-variables-origin",
        "a-sub-makes-include-named-by-its-level", "a-recipe-copies-what-a-later-sub-make-reads",
        "a-configured-template-included-from-a-subfolder"),
        "21175885"),
    **dict.fromkeys((
        "a-tab-line-after-a-rule-of-a-false-conditional",
        "sub-make-folder-split-by-quotes-and-a-backslash", "recipes-of-a-defined-prefix",
        "a-source-in-a-brace-list-of-bash",
        "a-sub-makes-folder-attached-to-its-option", "an-automatic-variable-of-another-rule-line",
        "a-make-named-by-a-quoted-variable", "a-brace-in-a-functions-argument",
        "an-empty-loop-beside-the-doubt", "a-value-undefined-after-its-use",
        "a-bounded-sub-makes-makefile-naming-outside",
        "a-recipe-copies-by-another-word-before-a-sub-make",
        "a-sub-makes-folder-through-procs-own-folder-link",
        "a-recipe-links-where-a-later-sub-make-reads", "a-compile-run-by-unshare-wd",
        "a-write-outside-beside-a-recursive-makes-loop-of-lines",
        "a-write-outside-beside-a-script-named-for-make"), "46a365c4..3b7471df"),
}
#: A makefile's ``test`` that prints; the plan of the cases: make's call and a copier.
TEST = "test:\n\t@echo ok\n"
MAKE_PLAN = ["Bash(make test)", "Bash(cp *)"]
#: The payload in the project's ``src/p`` (an agent's own file would do the same).
SRC = {"src/p": "$(shell touch zz)\n"}
#: A sub-make's makefile (``lib/Makefile``, including ``site.conf``) and the payload.
SUB = {"lib/Makefile": "-include site.conf\n" + TEST, **SRC}


# --- G: what make reads as a makefile by no doubt at all ----------------------------------

#: Each case: the plan's makefile and files, the setup (bash, in the project), the copy; make
#: reads the copy as makefile text where the gate's reading names another file (or none).
READS: dict[str, tuple[dict[str, str], str, str]] = {
    "a-tab-line-after-a-rule-of-a-false-conditional": (
        {"Makefile": "ifdef NEVER\nnever:\nendif\n\t-include local.conf\n" + TEST, **SRC},
        "", "src/p local.conf"),
    "sub-make-folder-split-by-quotes-and-a-backslash": (
        {"Makefile": "test:\n\t$(MAKE) -C l''i\\b test\n", **SUB}, "", "src/p lib/site.conf"),
    "an-include-through-procs-own-folder-link": (
        {"Makefile": "-include /proc/self/cwd/../shared/site.conf\n" + TEST, **SRC},
        "mkdir -p ../shared", "src/p ../shared/site.conf"),
    "a-tab-line-after-a-line-expanding-to-nothing": (
        {"Makefile": "$(info a:b)\n\t-include local.conf\n" + TEST, **SRC}, "",
        "src/p local.conf"),
    "recipes-of-an-evaluated-prefix": (
        {"Makefile": "$(eval .RECIPEPREFIX := >)\n-include site.conf\nsite.conf:\n> cp "
         "../shared/site.conf $@\ntest:\n> @echo ok\n", **SRC},
        "mkdir -p ../shared", "src/p ../shared/site.conf"),
    "recipes-of-a-defined-prefix": (
        {"Makefile": "define .RECIPEPREFIX\n>\nendef\n-include site.conf\nsite.conf:\n> cp "
         "src/x $@\ntest:\n> @echo ok\n", **SRC}, "", "src/p src/x"),
}
#: Why each case of ``READS`` is open.
WHY_READS: dict[str, str] = {
    "a-tab-line-after-a-rule-of-a-false-conditional": "makereads._Reading reads every branch of a "
    "conditional: `never:` of a false `ifdef` opens a rule, so the tab line after `endif` is read "
    "as its recipe; make never saw the rule, and reads the line as an `include` (at f07cd15f "
    "(s57-gfix))",
    "sub-make-folder-split-by-quotes-and-a-backslash": "makerecipes.sub_makes replaces quotes by "
    "spaces and keeps backslashes: `-C l''i\\b` is `-C l`; dash reads `lib` (at f07cd15f "
    "(s57-gfix))",
    "an-include-through-procs-own-folder-link": "the include's path is read lexically "
    "(`/proc/self/cwd/..` is /proc/self): the kernel resolves /proc/self/cwd, make's folder, "
    "then `..` (at f07cd15f (s57-gfix))",
    "a-tab-line-after-a-line-expanding-to-nothing": "makereads takes any line with `:` as a "
    "rule (`$(info a:b)`): make ends the rule context there (the line expands to no rule) and "
    "reads the tab line after it as an `include`; 3b7471df reads a tab line as a makefile "
    "line after a conditional's rule only (at f07cd15f)",
    "recipes-of-an-evaluated-prefix": "makereads (3b7471df) refuses `.RECIPEPREFIX` set by "
    "`:=` and `define NAME` only: `$(eval .RECIPEPREFIX := >)` (a doubt bounded to make's "
    "folder) or `define .RECIPEPREFIX:=` hides every recipe after it (at f07cd15f)",
    "recipes-of-a-defined-prefix": "makereads checks `.RECIPEPREFIX` (and VPATH) in `_assignment` "
    "only: `define .RECIPEPREFIX` changes every recipe after it with no doubt (at f07cd15f "
    "(s57-gfix))",
}
for _case in (c for c in READS if c not in CLOSED):
    OPEN.add("test_g_what_make_reads_by_no_doubt", WHY_READS.get(_case, "?"), _case)


@pytest.mark.parametrize("case", READS)
def test_g_what_make_reads_by_no_doubt(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)``, ``Bash(cp *)``: the copy, then ``make test`` reads it as
    makefile text. The hook must deny a call."""
    needs("make", "bash")
    files, setup, copy = READS[case]
    assert _session(tmp_path, MAKE_PLAN, files, [f"cp {copy}", "make test"],
                    setup=setup) is not None


# --- R: what a remaking recipe of copiers reads, or writes, by no doubt ----------------------

#: The payload beside the project (``../pay/p``) and the folder ``../shared``.
PAY = ("mkdir -p ../pay ../shared && printf '%s\\n' '$(shell touch zz)' > ../pay/p")
#: Each case: the plan's makefile (``site.conf`` included, remade by its rule of copiers), the
#: setup (bash, in the project), the copy: the remade ``site.conf`` reads the copy (as its
#: source, or as a file its text includes) where the gate's reading names another file.
REMAKES: dict[str, tuple[dict[str, str], str, str]] = {
    "a-source-named-by-the-targets-name": (
        {"Makefile": "-include site.conf\nsite.conf:\n\tcat $@.in > $@\n" + TEST, **SRC},
        "", "src/p site.conf.in"),
    "a-source-in-a-brace-list-of-bash": (
        {"Makefile": "SHELL := /bin/bash\n-include site.conf\nsite.conf:\n\tcp {src/x,$@}\n"
         + TEST, **SRC}, "", "src/p src/x"),
}
#: Why each case of ``REMAKES`` is open.
WHY_REMAKES: dict[str, str] = {
    "a-source-named-by-the-targets-name": "makeremakes._sources drops a word holding an automatic "
    "variable (`$@.in`) instead of reading it or keeping a doubt (at f07cd15f (s57-gfix))",
    "a-source-in-a-brace-list-of-bash": "under `SHELL := /bin/bash` a remaking recipe's "
    "`cp {src/x,$@}` is `cp src/x site.conf`: makeremakes._sources drops the word (it holds "
    "`$@`) and remade_text reads no copy into site.conf (its last word is no `$@`) (at "
    "f07cd15f (s57-gfix))",
}
for _case in (c for c in REMAKES if c not in CLOSED):
    OPEN.add("test_r_a_remaking_recipe_of_copiers", WHY_REMAKES.get(_case, "?"), _case)


@pytest.mark.parametrize("case", REMAKES)
def test_r_a_remaking_recipe_of_copiers(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)``, ``Bash(cp *)``: the copy, then ``make test`` remakes
    ``site.conf`` and reads it. The hook must deny a call."""
    needs("make", "bash")
    files, setup, copy = REMAKES[case]
    assert _session(tmp_path, MAKE_PLAN, files, [f"cp {copy}", "make test"],
                    setup=setup) is not None


# --- N: what the new rules read as plain or exact that make reads otherwise ----------------

#: A makefile beside the project (``../lib``) including ``local.conf``, and the payload
#: (``../pay/p``) made to touch the project's ``zz`` (a sub-make there runs it in ``../lib``).
LIB = (PAY + " && sed -i 's#touch zz#touch $(CLAUDE_PROJECT_DIR)/zz#' ../pay/p && mkdir -p "
       "../lib && printf -- '-include local.conf\\ntest:\\n\\t@echo ok\\n' > ../lib/Makefile")
#: Each case: the plan's makefile (and files), the setup (bash, in the project), the copy.
NEW: dict[str, tuple[dict[str, str], str, str]] = {
    "a-sub-makes-folder-attached-to-its-option": (
        {"Makefile": "test:\n\tfor d in lib; do $(MAKE) -C.. -C $$d test; done\n"}, LIB,
        "../pay/p ../lib/local.conf"),
    "makes-own-folder-variable-reassigned": (
        {"Makefile": "CURDIR := ..\ntest:\n\t$(MAKE) -C $(CURDIR)/lib test\n"}, LIB,
        "../pay/p ../lib/local.conf"),
    "an-automatic-variable-of-another-rule-line": (
        {"Makefile": "test: ../lib/Makefile\ntest:\n\t$(MAKE) -C $(<D) test\n"}, LIB,
        "../pay/p ../lib/local.conf"),
    "a-make-named-by-a-quoted-variable": (
        {"Makefile": "M := m''ake\ntest:\n\t$(M) -C lib test\n", **SUB}, "",
        "src/p lib/site.conf"),
    "a-brace-in-a-functions-argument": (
        {"Makefile": "DIRS := $(if ,},../lib)\ntest:\n\tfor d in $(DIRS); do $(MAKE) -C $$d "
         "test; done\n"}, LIB, "../pay/p ../lib/local.conf"),
    "an-empty-loop-beside-the-doubt": (
        {"Makefile": "test:\n\tfor d in ; do echo $$d; done; for e in ..; do $(MAKE) -C "
         "$$e/lib test; done\n"}, LIB, "../pay/p ../lib/local.conf"),
    "a-value-undefined-after-its-use": (
        {"Makefile": "X := /\ntest:\n\tfor d in lib; do $(MAKE) -C .$(X)./$$d test; done\n"
         "undefine X\n"}, LIB, "../pay/p ../lib/local.conf"),
    "a-bounded-sub-makes-makefile-naming-outside": (
        {"Makefile": "test:\n\tfor d in lib; do $(MAKE) -C $$d test; done\n",
         "lib/Makefile": "-include ../../shared/site.conf\n" + TEST}, PAY,
        "../pay/p ../shared/site.conf"),
    "an-include-of-a-subst-of-nothing": (
        {"Makefile": "-include $(subst ,.,.)/shared/site.conf\n" + TEST}, PAY,
        "../pay/p ../shared/site.conf"),
    "an-include-named-by-a-variables-origin": (
        {"Makefile": "-include $(origin NOPE).conf\n" + TEST}, PAY, "../pay/p undefined.conf"),
    "a-sub-makes-include-named-by-its-level": (
        {"Makefile": "test:\n\t$(MAKE) -C lib test\n",
         "lib/Makefile": "-include level$(MAKELEVEL).conf\n" + TEST}, PAY,
        "../pay/p lib/level1.conf"),
    "a-recipe-copies-what-a-later-sub-make-reads": (
        {"Makefile": "test:\n\tcp ../shared/local.conf lib/local.conf\n\t$(MAKE) -C lib test\n",
         "lib/Makefile": "-include local.conf\n" + TEST}, LIB, "../pay/p ../shared/local.conf"),
    "a-recipe-copies-by-another-word-before-a-sub-make": (
        {"Makefile": "test:\n\tcommand cp ../shared/local.conf lib/local.conf\n\t$(MAKE) -C "
         "lib test\n", "lib/Makefile": "-include local.conf\n" + TEST}, LIB,
        "../pay/p ../shared/local.conf"),
    "a-sub-makes-folder-through-procs-own-folder-link": (
        {"Makefile": "test:\n\t$(MAKE) -C /proc/self/cwd/../lib test\n"}, LIB,
        "../pay/p ../lib/local.conf"),
    "a-substitution-reference-of-an-automatic-variable": (
        {"Makefile": "test:\n\t$(MAKE) -C $(@D:.=..)/lib test\n"}, LIB,
        "../pay/p ../lib/local.conf"),
    "a-recipe-copies-after-a-keyword-before-a-sub-make": (
        {"Makefile": "test:\n\tfor f in 1; do cp ../shared/local.conf lib/local.conf; done\n"
         "\t$(MAKE) -C lib test\n", "lib/Makefile": "-include local.conf\n" + TEST}, LIB,
        "../pay/p ../shared/local.conf"),
    "a-sub-makes-recipe-copies-before-another-sub-make": (
        {"Makefile": "test:\n\t$(MAKE) -f copy.mk\n\t$(MAKE) -C lib test\n",
         "copy.mk": "all:\n\tcp ../shared/local.conf lib/local.conf\n",
         "lib/Makefile": "-include local.conf\n" + TEST}, LIB, "../pay/p ../shared/local.conf"),
    "a-make-named-by-a-references-pieces": (
        {"Makefile": "E :=\ntest:\n\tma$(E)ke -C lib test\n", **SUB}, "", "src/p lib/site.conf"),
    "a-shell-assignment-copies-before-a-sub-make": (
        {"Makefile": "X != cp ../shared/local.conf lib/local.conf\ntest:\n\t$(MAKE) -C lib test\n",
         "lib/Makefile": "-include local.conf\n" + TEST}, LIB, "../pay/p ../shared/local.conf"),
    "a-bounded-sub-make-of-an-include-folder-naming-outside": (
        {"Makefile": "test:\n\t$(MAKE) -C lib -I inc test\n",
         "lib/Makefile": "-include ../../shared/site.conf\n" + TEST}, PAY,
        "../pay/p ../shared/site.conf"),
    "a-command-substitution-copies-before-a-sub-make": (
        {"Makefile": "test:\n\techo \"$$(cp ../shared/local.conf lib/local.conf)\"\n\t$(MAKE) "
         "-C lib test\n", "lib/Makefile": "-include local.conf\n" + TEST}, LIB,
        "../pay/p ../shared/local.conf"),
    "a-recipe-links-where-a-later-sub-make-reads": (
        {"Makefile": "test:\n\tln -sfn ../lib sub\n\tfor d in sub; do $(MAKE) -C $$d test; "
         "done\n"}, LIB, "../pay/p ../lib/local.conf"),
}
#: Why each case of ``NEW`` is open.
WHY_NEW: dict[str, str] = {
    "a-sub-makes-folder-attached-to-its-option": "makebounds._plain (s57-gfix) splits words at "
    "`=:,` and strips a `-X` option only before a `/`: `-C..` (and `-I..`) is no `..` part "
    "(at f07cd15f (s57-gfix))",
    "makes-own-folder-variable-reassigned": "makeexpand.Expander.variable (s57-gfix) reads _OWN "
    "before the makefile's assignments: `CURDIR := ..` makes `$(CURDIR)` `..` (so do "
    "`.DEFAULT_GOAL := ../lib`, `MAKECMDGOALS`, `MAKELEVEL`, read as a name) (at f07cd15f "
    "(s57-gfix))",
    "an-automatic-variable-of-another-rule-line": "makereads._doubted (s57-gfix) joins the "
    "recipe's own rule line only: `$<` is the first prerequisite of any rule line of the target "
    "(`test: ../lib/Makefile`) (at f07cd15f (s57-gfix))",
    "a-make-named-by-a-quoted-variable": "make_words reads a value's text by a regex and "
    "_other_make (s57-gfix) checks the recipe's word `$(M)`, not its value `m''ake` (at f07cd15f "
    "(s57-gfix))",
    "a-brace-in-a-functions-argument": "makeexpand._arguments (s57-gfix) counts `{}` with `()`: "
    "make splits `$(if ,},../lib)`'s arguments counting its own kind only (the else branch "
    "`../lib`), the gate reads `''` (at f07cd15f (s57-gfix))",
    "an-empty-loop-beside-the-doubt": "makebounds._loops (s57-gfix) returns no text for a loop of "
    "no words (`for d in ; do`), and _plain is then true for the whole text, `..` unread (at "
    "f07cd15f (s57-gfix))",
    "a-value-undefined-after-its-use": "makeexpand.Expander (s57-gfix) never takes the empty "
    "value an `undefine` gives: make expands the recipe after reading, `.$(X).` is `..` (at "
    "f07cd15f (s57-gfix))",
    "a-bounded-sub-makes-makefile-naming-outside": "a doubt bounded to make's folder (a loop's "
    "sub-make in `lib`) guards that folder only; the approved lib/Makefile it reads names "
    "../../shared/site.conf, never read (at f07cd15f (s57-gfix))",
    "an-include-of-a-subst-of-nothing": "makeexpand._composed (s57-gfix) returns the text "
    "unchanged for `$(subst ,.,.)`; make appends the replacement (`..`): the include is read "
    "exactly, as ./shared/site.conf (at f07cd15f)",
    "an-include-named-by-a-variables-origin": "makeexpand._computed (s57-gfix) reads every "
    "`$(origin …)`/`$(flavor …)` as `file`; make gives `undefined` (or `environment`, "
    "`default`…): the include is read exactly as file.conf (at f07cd15f)",
    "a-sub-makes-include-named-by-its-level": "makeexpand._OWN (s57-gfix) reads `$(MAKELEVEL)` "
    "as 0 in every reading, a sub-make's too (1): lib/level0.conf is read, lib/level1.conf "
    "included (at f07cd15f)",
    "a-recipe-copies-what-a-later-sub-make-reads": "makerecipes.sub_makes refuses a write "
    "before a sub-make on the same line only (_WRITING): a recipe's earlier line copies "
    "../shared/local.conf over the lib/local.conf the sub-make includes (at f07cd15f)",
    "a-recipe-copies-by-another-word-before-a-sub-make": "makerecipes.writes (21175885) "
    "takes a segment's first word as its program: `command cp ../shared/local.conf "
    "lib/local.conf` (also `nice cp`, `env cp`, `\\cp`, `c''p`) writes before the sub-make, no "
    "doubt",
    "a-sub-makes-folder-through-procs-own-folder-link": "21175885 refuses a `..` past a link "
    "in an include's name only (makelines.one_name): a sub-make's `-C /proc/self/cwd/../lib` "
    "is joined lexically (make's chdir: ../lib) (at f07cd15f)",
    "a-substitution-reference-of-an-automatic-variable": "makeexpand.Expander.reference "
    "(s57-gfix) applies a substitution reference to a name piece (PLACE, CURDIR) as if it "
    "matched nothing: `$(@D:.=..)` is `..` for make (`$(@D)` is `.`); the same root fails "
    "test_s55_greview's pin substitution-reference-of-curdir (at f07cd15f)",
    "a-recipe-copies-after-a-keyword-before-a-sub-make": "makerecipes.writes (3b7471df) "
    "reads a segment's first word against _READ_ONLY, which holds the shell's keywords: "
    "`do cp …` (`then cp`, `else cp`) is read as writing nothing (at f57490c6)",
    "a-sub-makes-recipe-copies-before-another-sub-make": "makerecipes._READ_ONLY (3b7471df) "
    "holds make: `$(MAKE) -f copy.mk` runs a recipe copying ../shared/local.conf into lib/, and "
    "copy.mk's own reading starts no sub-make, so its `cp` is no doubt (at f07cd15f)",
    "a-make-named-by-a-references-pieces": "makerecipes (3b7471df) takes make by its "
    "spelling, quotes removed: `ma$(E)ke` (and `M := ma$(E)ke` + `$(M)`) is make once make "
    "expands it; neither _other_make nor make_words expands the word (at f07cd15f)",
    "a-shell-assignment-copies-before-a-sub-make": "makereads runs writes() on recipe lines "
    "only (`where not in self.values`): `X != cp ../shared/local.conf lib/local.conf` (or `X "
    ":= $(shell python3 -c \"…shutil.copy(…)\")`: no _WRITING word) runs as make reads the "
    "makefile, before the sub-make (at f07cd15f)",
    "a-bounded-sub-make-of-an-include-folder-naming-outside": "46a365c4 reads a bounded "
    "sub-make's makefile where its doubt is a loop's (`expansions`); a sub-make refused for "
    "`-I inc` (or `--eval=…`) is bounded to make's folder and lib/Makefile, naming "
    "../../shared/site.conf, is never read (at f07cd15f)",
    "a-command-substitution-copies-before-a-sub-make": "makerecipes.writes (7913e8b1) "
    "judges a segment by its program word: `echo \"$$(cp ../shared/local.conf "
    "lib/local.conf)\"` (a backticked cp, `for f in $$(cp …)`, `[ -n \"$$(cp …)\" ]`) runs "
    "cp inside a read-only program's words (at f07cd15f)",
    "a-recipe-links-where-a-later-sub-make-reads": "writeguard._linked_out follows the links "
    "there at the call; a recipe's earlier line makes one (`ln -sfn ../lib sub`) before the "
    "bounded sub-make reads through it (at f07cd15f)",
}
for _case in (c for c in NEW if c not in CLOSED):
    OPEN.add("test_n_the_new_rules_read_otherwise", WHY_NEW.get(_case, "?"), _case)


@pytest.mark.parametrize("case", NEW)
def test_n_the_new_rules_read_otherwise(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)``, ``Bash(cp *)``: the copy, then ``make test`` (or a sub-make)
    reads it as makefile text. The hook must deny a call."""
    needs("make", "bash")
    files, setup, copy = NEW[case]
    assert _session(tmp_path, MAKE_PLAN, files, [f"cp {copy}", "make test"],
                    setup=setup) is not None


# --- W: the plan's own words ----------------------------------------------------------------

#: Each case: the plan's make call, its makefile, the setup (bash, in the project), the copy.
WORDS: dict[str, tuple[str, dict[str, str], str, str]] = {
    "a-command-line-value-of-the-plans-make": (
        "make test DIRS=..", {"Makefile": "DIRS := lib\ntest:\n\tfor d in $(DIRS); do $(MAKE) "
                               "-C $$d/lib test; done\n"}, LIB, "../pay/p ../lib/local.conf"),
}


@pytest.mark.parametrize("case", WORDS)
def test_w_the_plans_own_words(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(<its make call>)``, ``Bash(cp *)``: the copy, then the plan's make call
    reads it as makefile text. The hook must deny a call."""
    needs("make", "bash")
    call, files, setup, copy = WORDS[case]
    assert _session(tmp_path, [f"Bash({call})", "Bash(cp *)"], files, [f"cp {copy}", call],
                    setup=setup) is not None


# --- C: what cmake reads by no doubt -------------------------------------------------------

LISTS = "cmake_minimum_required(VERSION 3.10)\nproject(p NONE)\n"
#: Each case: the lists, the file the copy from ``../pay/p`` (an
#: ``execute_process(COMMAND touch zz)``) writes beside the project.
CMAKE: dict[str, tuple[dict[str, str], str]] = {
    "a-configured-template-included-from-a-subfolder": (
        {"CMakeLists.txt": LISTS + "configure_file(tmpl.in ${CMAKE_CURRENT_SOURCE_DIR}/gen.txt "
         "COPYONLY)\nadd_subdirectory(sub)\n",
         "sub/CMakeLists.txt": "include(${CMAKE_SOURCE_DIR}/gen.txt)\n",
         "tmpl.in": "include(../../x.txt OPTIONAL)\n"}, "../x.txt"),
}
#: Why each case of ``CMAKE`` is open.
WHY_CMAKE: dict[str, str] = {
    "a-configured-template-included-from-a-subfolder": "cmakereads (s57-gfix's working tree, "
    "21:30) reads configure_file's template as code of the folder of the lists that configure "
    "it; sub/CMakeLists.txt includes the copy, whose `../../x.txt` is read from sub (../x.txt "
    "beside the project), not from the top (../../x.txt)",
}
for _case in (c for c in CMAKE if c not in CLOSED):
    OPEN.add("test_c_what_cmake_reads_by_no_doubt", WHY_CMAKE[_case], _case)


@pytest.mark.parametrize("case", CMAKE)
def test_c_what_cmake_reads_by_no_doubt(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(cmake -S . -B build)``, ``Bash(cp *)``: the copy beside the project, then
    the configure runs its ``execute_process``. The hook must deny a call."""
    needs("cmake")
    files, target = CMAKE[case]
    made = ("mkdir -p ../pay ../shared && printf '%s\\n' 'execute_process(COMMAND touch zz)' "
            "> ../pay/p")
    assert _session(tmp_path, ["Bash(cmake -S . -B build)", "Bash(cp *)"], files,
                    [f"cp ../pay/p {target}", "cmake -S . -B build"], setup=made) is not None


# --- T: a session's relative toolchain value, read where a recipe runs gcc -------------------

#: Each case: the plan's makefile running gcc (and the program it builds) in ``sub`` by a move
#: no ``cd`` word makes; the session's ``CFLAGS=-Iinc`` makes gcc read ``sub/inc/stdio.h``.
TOOLS: dict[str, str] = {
    "a-compile-run-by-unshare-wd": "test:\n\tunshare --wd=sub $(CC) $(CFLAGS) t.c -o t && sub/t\n",
}
_open("test_t_a_toolchain_value_where_a_recipe_runs", "makerecipes._CHANGERS (21175885) "
      "lists the programs that run one in another folder (a deny-list): util-linux's `unshare "
      "--wd=sub` (also nsenter --wd, start-stop-daemon --chdir, systemd-run "
      "--working-directory) runs gcc in sub, which reads sub/inc",
      *(c for c in TOOLS if c not in CLOSED))


@pytest.mark.parametrize("case", TOOLS)
def test_t_a_toolchain_value_where_a_recipe_runs(case: str, tmp_path: Path) -> None:
    """The session's ``CFLAGS=-Iinc``; plan ``Bash(make test)``, ``Bash(cp *)``,
    ``Bash(mkdir *)``: the header copied into ``sub/inc``, then ``make test`` builds and runs
    the program in ``sub``. The hook must deny a call."""
    needs("make", "gcc")
    denied = proved_case(tmp_path, [*MAKE_PLAN, "Bash(mkdir *)"],
                         {"Makefile": TOOLS[case], "sub/t.c": PROGRAM, "src/h": HEADER_PAYLOAD,
                          "inc/keep": ""},
                         ["mkdir -p sub/inc", "cp src/h sub/inc/stdio.h", "make test"],
                         {"CFLAGS": "-Iinc"})
    assert denied is not None


# --- K: costs, everyday calls denied though harmless --------------------------------------

#: Each case: the plan's makefile and files; the everyday calls, each harmless: no file make
#: reads is written.
COSTS: dict[str, tuple[dict[str, str], list[str]]] = {
    "a-write-outside-beside-a-loop-over-a-value-of-two-branches": (
        {"Makefile": "ifeq ($(X),1)\nSUBDIRS := a b\nelse\nSUBDIRS := a\nendif\ntest:\n\tfor d in "
         "$(SUBDIRS); do $(MAKE) -C $$d test; done\n"}, ["mkdir -p ../out"]),
    "a-write-beside-a-recursive-makes-clean-rule": (
        {"Makefile": "test:\n\t$(MAKE) -C lib test\nclean:\n\trm -f *.o\n",
         "lib/Makefile": TEST, "src/a.c": "int a;\n"}, ["mkdir -p ../out", "cp src/a.c src/b.c"]),
    "a-write-outside-under-a-relative-cflags-beside-a-recipes-git": (
        {"Makefile": "test:\n\tgit --version\n"}, ["mkdir -p ../out"]),
    "a-copy-of-the-first-prerequisite": (
        {"Makefile": "-include config.mk\nconfig.mk: config.mk.in\n\tcp $< $@\n" + TEST,
         "config.mk.in": "CC = cc\n", "src/a.c": "int a;\n"}, ["cp src/a.c src/b.c"]),
    "a-write-outside-beside-a-recursive-makes-loop-of-lines": (
        {"Makefile": "SUBDIRS := lib\ntest:\n\tfor d in $(SUBDIRS); do \\\n\t\t$(MAKE) -C $$d "
         "test; \\\n\tdone\n", "lib/Makefile": TEST}, ["mkdir -p ../out"]),
    "a-write-outside-beside-a-script-named-for-make": (
        {"Makefile": "dist:\n\t./scripts/make-dist.sh\n" + TEST}, ["mkdir -p ../out"]),
    "a-write-outside-beside-a-sed-remade-include": (
        {"Makefile": "-include config.mk\nconfig.mk: config.mk.in\n\tsed -e s/@CC@/cc/ $< > $@\n"
         + TEST, "config.mk.in": "CC = @CC@\n"}, ["mkdir -p ../out"]),
}
#: Why each cost row is open.
WHY_COSTS: dict[str, str] = {
    "a-copy-of-the-first-prerequisite": "makeremakes._operands splits a recipe's words at `<` "
    "(a redirection's), so `cp $< $@`, the commonest remaking recipe, leaves a word `$`: a "
    "doubt write-guarding make's folder (every write in the project denied)",
    "a-write-outside-beside-a-loop-over-a-value-of-two-branches": "makeexpand trimmed "
    "(6731466e, the lead's call): a variable of two values is not exact, so the commonest "
    "recursive loop over `SUBDIRS` set in an `ifeq`'s two branches is a doubt of every folder: "
    "`mkdir -p ../out` denied (allowed at 86e0897c: each value plain, make's folder)",
    "a-write-beside-a-recursive-makes-clean-rule": "makereads (3b7471df) makes every code line "
    "of a reading with a sub-make that runs a program not read-only a doubt (`rm -f *.o` of "
    "`clean:`, never run by `make test`), bound to every folder (a glob): `mkdir -p ../out`, "
    "`cp src/a.c src/b.c` denied (allowed at 86e0897c) (at f07cd15f)",
    "a-write-outside-under-a-relative-cflags-beside-a-recipes-git": "makelines.recipes_paths "
    "(21175885): under the session's relative `CFLAGS=-Iinclude` a recipe naming a program of "
    "makerecipes._CHANGERS (git, python3, node, timeout…: most never change folder) is a "
    "recipe folder not known, a doubt of every folder: `mkdir -p ../out` denied (allowed at "
    "86e0897c)",
    "a-write-outside-beside-a-recursive-makes-loop-of-lines": "s57-gfix keeps a recipe's "
    "backslash-newline (makereads._lines) and makebounds._plain refuses a backslash: the "
    "commonest recursive make's loop of lines is a doubt of every folder",
    "a-write-outside-beside-a-sed-remade-include": "makeremakes.remade_text (s57-gfix) makes a "
    "remaking recipe of any program but cp/cat/install/ln/echo/printf a doubt of every folder: "
    "the configure idiom `sed -e s/@CC@/cc/ $< > $@` (no `r`/`w`/`e`: it reads its operand "
    "only) denies every write anywhere (`mkdir -p ../out`; at 86e0897c the project's folder "
    "only)",
    "a-write-outside-beside-a-script-named-for-make": "makerecipes._other_make (s57-gfix) "
    "makes any program whose name holds `make` a doubt of every folder (`./scripts/make-dist.sh`)",
}
for _case in (c for c in COSTS if c not in CLOSED):
    OPEN.add("test_cost_an_everyday_call", WHY_COSTS[_case], _case)


@pytest.mark.parametrize("case", COSTS)
def test_cost_an_everyday_call(case: str, tmp_path: Path) -> None:
    """The plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(mkdir *)`` and its makefile; each
    everyday call, harmless, must be allowed."""
    needs("make")
    files, calls = COSTS[case]
    project = hooked_project(tmp_path, [*MAKE_PLAN, "Bash(mkdir *)"])
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project),
           **({"CFLAGS": "-Iinclude"} if "relative-cflags" in case else {})}
    assert first_denied(project, calls, env) is None
