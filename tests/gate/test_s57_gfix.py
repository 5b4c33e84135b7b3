"""Session 57 (s57-gfix): make's reading fails closed (issue 29). A doubt is bounded to make's
folder only where its text, expanded exactly as make expands it (``makeexpand``), is plain
(``makebounds``: an allow-list); a remade makefile is read as what it becomes (a copier's
sources, ``echo``'s words) or its doubt is every folder; a target's own and a sub-make's
command-line values are not the makefile's; a sub-make by another spelling, a ``cd`` under
CDPATH, a ``SHELL`` not read are every folder; a relative value of the session's is read from
each folder a recipe runs in. The real-program proofs are s56-greview's, s56-greview2's,
s55-greview2's and s54-greview3's rows this change closed; these pin the rules quickly."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrant.gate.makebounds import EVERYWHERE, _leaves, bound
from skillgrant.gate.makereads import makefile_reads

#: A doubt's text and whether it is bounded to make's folder (``bound`` with ``DEFINED``).
TEXTS = {
    "dots-split-by-quotes": ("cp .''./shared/$@ $@", False),
    "a-loops-variable-twice": ("for d in . ; do cp $$d$$d/shared/$@ $@; done", False),
    "a-foreachs-variable-twice": ("$(foreach d,.,cp $(d)$(d)/shared/$@ $@)", False),
    "a-functions-value-and-a-dot": ("cp $(strip .)./shared/$@ $@", False),
    "the-shells-star": ("set -- . . && IFS= && cp \"$$*/shared/$@\" $@", False),
    "a-brace-list-around-a-group": ("cat .{{.},.}/shared/$@", False),
    "a-comma-variable-of-two-values": ("cat .{.$(comma).}/shared/$@ > $@", False),
    "a-backslash-newline": ("cp .\\\n./shared/$@ $@", False),
    "a-hash-in-a-function": ("cp $(if ,#,..)/shared/$@ $@", False),
    "curdir-beside-a-name": ("$(MAKE) -C $(CURDIR).bak", False),
    "a-targets-folder-and-a-dot": ("cd $(@D). && $(MAKE)", False),
    "a-value-of-two-one-climbing": ("$(MAKE) -C $(TWO)", False),
    "plain-recipe": ("cp shared/$@ $@", True),
    "a-loop-over-plain-words": ("for d in $(DIRS); do $(MAKE) -C $$d; done", True),
    "a-wildcard-include": ("-include $(wildcard *.d)", True),
    "curdir-as-a-words-first-part": ("$(MAKE) -C $(CURDIR)/sub", True),
    "a-foreach-not-read": ("$(foreach d,$(DIRS),$(MAKE) -C $(d);)", False),
    "a-substitution-reference": ("$(MAKE) -C $(DIRS:lib=lib2)", False),
    "a-filter-of-plain-words": ("$(MAKE) -C $(filter l%,$(DIRS))", True),
}
DEFINED = {"DIRS": ["lib"], "comma": [",", ","], "TWO": ["lib", "../lib"]}


@pytest.mark.parametrize("case", TEXTS)
def test_a_doubts_text_is_bounded_by_what_the_gate_reads_exactly(case: str) -> None:
    text, below = TEXTS[case]
    assert bound(text, "/p", DEFINED, set(DEFINED)) == ("/p" if below else EVERYWHERE)


def test_a_cd_where_cdpath_is_set_is_every_folder() -> None:
    assert bound("cd lib && $(MAKE)", "/p", {}, set()) == "/p"
    assert bound("cd lib && $(MAKE)", "/p", {}, set(), cdpath=True) == EVERYWHERE


def _held(tmp_path: Path, files: dict[str, str]) -> tuple[list[str], set[str]]:
    """What make in ``tmp_path`` (its ``files`` written) reads, and its doubts' bounds."""
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    held: list[tuple[str, str]] = []
    found = makefile_reads(str(tmp_path / "Makefile"), str(tmp_path), held)
    return found, {b for b, _ in held}


TEST = "test:\n\t@echo ok\n"
#: Each case: the makefiles, whether a doubt is every folder (else none or make's folder).
EVERY = {
    "a-target-specific-value": ({"Makefile": "DIRS := lib\ntest: DIRS := ..\ntest:\n\tfor d in "
                                 "$(DIRS); do $(MAKE) -C $$d/lib; done\n"}, True),
    "a-global-value": ({"Makefile": "DIRS := lib\ntest:\n\tfor d in $(DIRS); do $(MAKE) -C "
                        "$$d; done\n"}, False),
    "a-sub-makes-command-line-value": ({"Makefile": "test:\n\t$(MAKE) -C sub DIRS=lib\n",
                                        "sub/Makefile": "DIRS := lib\ntest:\n\tfor d in "
                                        "$(DIRS); do $(MAKE) -C $$d; done\n"}, True),
    "a-shell-of-another-language": ({"Makefile": "SHELL := /usr/bin/python3\n.DEFAULT:\n"
                                     "\tcp x $@\n-include a.mk\n" + TEST}, True),
    "bash": ({"Makefile": "SHELL := /bin/bash\n.DEFAULT:\n\tcp x/$@ $@\n-include a.mk\n"
              + TEST}, False),
    "a-recipe-prefix": ({"Makefile": ".RECIPEPREFIX := >\n" + TEST}, True),
    "an-include-a-sed-script-remakes": ({"Makefile": "-include c.mk\nc.mk: c.in\n\tsed -f e.sed "
                                         "$< > $@\n" + TEST, "c.in": "\n"}, True),
    "printfs-escapes": ({"Makefile": "-include c.mk\nc.mk:\n\tprintf '\\056\\n' > $@\n" + TEST},
                        True),
    "a-backticked-program": ({"Makefile": "-include c.mk\nc.mk:\n\techo \"`cpp c.S`\" > $@\n"
                              + TEST}, True),
    "a-quote-split-make": ({"Makefile": "test:\n\tm''ake -C lib\n"}, True),
    "a-functions-make": ({"Makefile": "test:\n\t$(firstword $(MAKE)) -C lib\n"}, True),
    "a-substituted-make": ({"Makefile": "test:\n\t$$(echo make) -C lib\n"}, True),
    "makes-wrapper": ({"Makefile": "test:\n\tmake-first-existing-target test -- -C lib\n"},
                      True),
    "a-cd-under-an-exported-cdpath": ({"Makefile": "export CDPATH := ..\ntest:\n\tcd lib && "
                                       "$(MAKE)\n"}, True),
    "a-built-in-preprocessing": ({"Makefile": "-include l.s\n" + TEST, "l.S": "\n"}, True),
}


@pytest.mark.parametrize("case", EVERY)
def test_what_the_reading_cannot_bound_is_every_folder(case: str, tmp_path: Path) -> None:
    files, every = EVERY[case]
    _, bounds = _held(tmp_path, files)
    assert (EVERYWHERE in bounds) is every, bounds


def test_a_remade_includes_text_is_read(tmp_path: Path) -> None:
    """``vars.mk`` remade from ``vars.in`` by ``cp``: vars.in's include is read; ``echo``'s
    words are read as the remade makefile's lines; a plain ``sed``'s file, edited."""
    found, bounds = _held(tmp_path, {"Makefile": "-include vars.mk\nvars.mk: vars.in\n\tcp $< $@"
                                     "\n-include e.mk\ne.mk:\n\techo include f.mk > $@\n"
                                     "-include c.mk\nc.mk: c.in\n\tsed -e s/@D@/g/ $< > $@\n"
                                     + TEST, "vars.in": "include other.mk\n",
                                     "c.in": "include @D@.mk\n"})
    assert str(tmp_path / "other.mk") in found and str(tmp_path / "f.mk") in found
    assert str(tmp_path / "g.mk") in found and not bounds


def test_a_computed_include_is_read_exactly(tmp_path: Path) -> None:
    """``-include $(DEPS)`` of ``DEPS = a.d``: a.d, no doubt; ``$(wildcard *.d)``: the files
    there now read (their own includes too), the doubt kept for one made later."""
    found, bounds = _held(tmp_path, {"Makefile": "DEPS = a.d\n-include $(DEPS)\n" + TEST})
    assert str(tmp_path / "a.d") in found and not bounds
    found, bounds = _held(tmp_path / "2", {"Makefile": "-include $(wildcard *.d)\n" + TEST,
                                           "s.d": "include t.mk\n"})
    assert str(tmp_path / "2" / "t.mk") in found and bounds == {str(tmp_path / "2")}


def test_a_library_prerequisite_and_a_homes_name(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``-lconf`` is libconf.so or libconf.a (make's folder, the system's); ``~/t/s.conf`` is
    the home's."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    found, _ = _held(tmp_path / "p", {"Makefile": "-include s.conf\ns.conf: -lconf ~/t/s.conf\n"
                                      "\tcat $^ > $@\n" + TEST})
    assert str(tmp_path / "p" / "libconf.a") in found and "/usr/lib/libconf.so" in found
    assert str(tmp_path / "home" / "t" / "s.conf") in found


def test_a_sessions_relative_value_is_read_where_a_recipe_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``CFLAGS=-Iinc``: a sub-make in ``sub`` reads sub/inc."""
    monkeypatch.setenv("CFLAGS", "-Iinc")
    found, _ = _held(tmp_path, {"Makefile": "test:\n\t$(MAKE) -C sub\n",
                                "sub/Makefile": "all:\n\t$(CC) $(CFLAGS) -c t.c\n"})
    assert str(tmp_path / "sub" / "inc") in found


def test_cmakes_configured_template_is_read_as_code(tmp_path: Path) -> None:
    """``configure_file(tmpl.in gen.txt COPYONLY)`` + ``include(gen.txt)``: the template is
    read, its ``include(../shared/x.txt)`` a doubt of every folder (its copy may be read from
    any folder of the build: s56-greview C, s57-greview C); a template naming nothing keeps
    the source folder's bound."""
    from skillgrant.gate.cmakereads import lists_reads

    (tmp_path / "CMakeLists.txt").write_text("configure_file(tmpl.in gen.txt COPYONLY)\n"
                                             "include(gen.txt)\n")
    (tmp_path / "tmpl.in").write_text("include(../shared/x.txt OPTIONAL)\ninclude(@X@)\n")
    held: list[tuple[str, str]] = []
    found = lists_reads(str(tmp_path / "CMakeLists.txt"), str(tmp_path), held)
    assert str(tmp_path / "tmpl.in") in found and EVERYWHERE in {b for b, _ in held}
    (tmp_path / "tmpl.in").write_text("#define X @X@\n")
    held = []
    lists_reads(str(tmp_path / "CMakeLists.txt"), str(tmp_path), held)
    assert {b for b, _ in held} == {str(tmp_path)}


#: ``makebounds._leaves`` of long option words (the lead's review: its attached-value rule read
#: every ending after a letter anew, exponential in the word; now each ending once), and its
#: limit: a word it does not read may leave.
LONG_WORDS = {"-a" * 40: False, "-a" * 40 + "-C..": True, "-a" * 40 + "-I/x": True,
              "-a" * 40 + "-Cdir": False, "a" * 5000: True}


@pytest.mark.parametrize("word", list(LONG_WORDS), ids=lambda w: f"{w[:6]}…{len(w)}")
def test_a_long_option_word_is_read_once_per_ending(word: str) -> None:
    assert _leaves(word) is LONG_WORDS[word]
