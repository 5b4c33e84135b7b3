"""s56-gfix: the make/cmake write guard's open holes and costs (issue 29; review s55-greview).

The write guard asks only the words a program of the call may take for a path it writes
(``gate/unwritten.py``: an option's name by ``optables``' tables, ``sort``'s input, pytest's
own options, ``ruff check``'s words; git's two-word subcommands by ``gitkept``); a doubt's text
holding a brace list leaves make's folder (bash's expansion); a symbolic link below a guarded
folder leading out guards its real folder (``writeguard._linked_out``); a computed include of
the plan's own makefile is a doubt, not a refused plan; a rule remaking a read makefile by a
program that is no copier is a doubt; ``cmake -C FILE`` is no folder move. The in-process
cases read the gate's functions; the slow ones prove with real bash and GNU make 4.3 that a
write through an option's value runs the payload, and that the hook still denies it. Every
payload only touches a file (``touch zz``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from bash_review import needs
from test_s53_greview import MAKE_INCLUDED, _session

from skillgrant.gate import writeguard
from skillgrant.gate.gitkept import git_kept
from skillgrant.gate.makebounds import EVERYWHERE, bound
from skillgrant.gate.makereads import makefile_reads
from skillgrant.gate.unwritten import unwritten

#: A makefile with a doubt of make's folder (a pattern rule may remake the included
#: ``local.conf``), whose ``test`` prints.
PATTERN = "%.conf: %.conf.in\n\tcp $< $@\n-include local.conf\ntest:\n\t@echo ok\n"

#: Each command, and the words of it no program writes (the rest stay asked).
UNWRITTEN = {
    "mkdir -p ../out": {"-p"},
    "rm -rf ../out.log": {"-rf"},
    "cp -t build -v a": {"-t", "-v"},  # (-t's value, the folder written, stays asked)
    "cp --target-directory build a": {"--target-directory"},
    "cp -Sx a b": set(),  # (an attached value: the word stays asked)
    "sort src/a.c": {"src/a.c"},
    "sort -o out.txt -k 2 src/a.c": {"-o", "-k", "2", "src/a.c"},
    "python3 -m pytest -q -p no:cacheprovider tests": {"-m", "-q", "-p"},
    "python3 -m pytest --junitxml=r.xml tests": {"-m"},
    "ruff check --select E501 -q src": set(),  # (`select`: readers' assignment test)
    "ruff check -q src": {"check", "-q", "src"},
    "ruff check --fix src": set(),
    "ruff check -o r.txt src": set(),
    "ruff format src": set(),
    "ruff format --check src": {"format", "--check", "src"},
    "mkdir -p x; touch -- -p": set(),  # (`-p` an operand of touch: asked)
    "git stash list": set(),  # (git's own reading: readers, gitkept)
}


@pytest.mark.parametrize("command", UNWRITTEN)
def test_the_words_no_program_writes(command: str) -> None:
    assert unwritten(command) == UNWRITTEN[command]


def test_gits_two_word_subcommand_is_read_whole() -> None:
    assert git_kept(["stash", "list"], "stash") == "stash list"
    assert git_kept(["stash", "pop"], "stash") == "stash"


def test_a_brace_list_in_a_doubts_text_leaves_makes_folder() -> None:
    """``.{.,.}/`` is ``../`` to bash (a makefile's ``SHELL := /bin/bash``): s55-greview B6."""
    assert bound("cat .{.,.}/shared/$@ > $@", "/p", {}, set()) == EVERYWHERE
    assert bound("cat shared/$@ > $@", "/p", {}, set()) == "/p"
    assert bound("for d in $(D); do $(MAKE) -C $${d}; done", "/p", {"D": ["lib"]},
                 {"D"}) == "/p"


def test_a_link_leading_out_of_a_guarded_folder_guards_its_target(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``writeguard._linked_out``: a link below the folder to a folder outside (and a link
    there, further out) is guarded; a link inside it is not; past the walk's limit, the root."""
    project, shared, far = tmp_path / "p", tmp_path / "shared", tmp_path / "far"
    for folder in (project / "sub", shared, far):
        folder.mkdir(parents=True)
    os.symlink("../../shared", project / "sub" / "tmpl")
    os.symlink("../far", shared / "next")
    os.symlink("sub", project / "inside")
    found = dict(writeguard._linked_out((str(project),)))
    assert set(found) == {str(shared), str(far)}
    monkeypatch.setattr(writeguard, "_MAX_WALKED", 2)
    assert writeguard._linked_out((str(project),)) == (("/", True),)


def _reads(tmp_path: Path, text: str) -> tuple[list[str], list[tuple[str, str]]]:
    (tmp_path / "Makefile").write_text(text)
    held: list[tuple[str, str]] = []
    return makefile_reads(str(tmp_path / "Makefile"), str(tmp_path), held), held


def test_a_computed_include_of_the_plans_makefile_is_a_doubt(tmp_path: Path) -> None:
    """``-include $(wildcard *.d) config.mk``: a doubt bounded to make's folder, the literal
    name beside it still read (s55-greview K5)."""
    found, held = _reads(tmp_path, "-include $(wildcard *.d) config.mk\n")
    assert held and {b for b, _ in held} == {str(tmp_path)}
    assert str(tmp_path / "config.mk") in found


@pytest.mark.parametrize(("recipe", "doubted"), [
    ("cpp -P local.S > $@", True), ("sed -f edit.sed local.in > $@", True),
    ("./gen.sh > $@", True), ("cp local.in $@", False), ("@/bin/cat local.in > $@", False)])
def test_a_remaking_recipe_by_a_program_but_a_copier_is_a_doubt(tmp_path: Path, recipe: str,
                                                                doubted: bool) -> None:
    """s55-greview R1: cpp's ``#include``, sed's ``r``, a script read files no word names."""
    _, held = _reads(tmp_path, f"-include local.conf\nlocal.conf: local.in\n\t{recipe}\n")
    assert bool(held) == doubted, held


#: Writes into make's folder through an option's value (the option's name is no path, its
#: value is): the plan's entries, the calls; each proved to run the payload.
BY_VALUE = {
    "sort-output": (["Bash(make test)", "Bash(sort *)"], ["sort -o local.conf src/p"]),
    "cp-target-directory": (["Bash(make test)", "Bash(cp *)"], ["cp -t . src/local.conf"]),
    "tee-append": (["Bash(make test)", "Bash(tee *)"], ["tee -a local.conf < src/p"]),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", BY_VALUE)
def test_a_write_by_an_options_value_is_still_denied(case: str, tmp_path: Path) -> None:
    needs("make")
    entries, calls = BY_VALUE[case]
    files = {"Makefile": PATTERN, "src/p": MAKE_INCLUDED, "src/local.conf": MAKE_INCLUDED}
    assert _session(tmp_path, entries, files, [*calls, "make test"]) is not None
