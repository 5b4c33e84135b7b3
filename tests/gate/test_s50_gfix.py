"""Session 50's gate fix (s50-gfix, issue 29): the folders a plan entry's programs may run in
are the closure over every move the entry makes (``gate/entryfolders.py``), read in-process;
the real-bash proofs are tests/gate/test_s49_greview3.py's."""

from __future__ import annotations

import os

import pytest

from skillgrant.gate.entryfolders import entry_folders
from skillgrant.gate.moves import folder_moves, moved_folders
from skillgrant.gate.planprograms import plan_programs


@pytest.mark.parametrize(("entry", "expected"), [
    ("make test", [""]),
    ("cd sub && make test", ["", "sub"]),
    ("bash -c 'cd sub'; make test", ["", "sub"]),
    ("cd nosuch || cd sub && make", ["", "nosuch", "sub", "nosuch/sub"]),
    ("make -C sub -C x test", ["", "sub", "x", "sub/x"]),
    ("cat <(cd sub && make test)", ["", "sub"]),
    ("time ! cd sub || make test", ["", "sub"]),
    ("cd sub #; cd ..\nmake test", ["", "sub", "..", "sub/.."]),
    ("/usr/bin/env -C sub make test", ["", "sub"]),
    ("sudo -D sub make", ["", "sub"]),
    ("trap 'make test' EXIT; cd sub", ["", "sub"]),
    ("env -C a bash -c 'make; cd b; make'", ["", "a", "b", "a/b"]),
    ("cd ${CLAUDE_SKILL_DIR} && ./x.sh", [""]),
])
def test_an_entrys_folders_are_the_closure_over_its_moves(entry: str,
                                                          expected: list[str]) -> None:
    """Each move kept: it may fail, move a subshell or a child only (s49-greview3 L1, F1, S1)."""
    assert list(entry_folders(f"Bash({entry})")) == expected


def test_a_bare_cd_is_the_sessions_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/ana")
    assert entry_folders("Bash(cd && make)") == ("", "/home/ana")
    assert entry_folders("Bash(cd\nmake)") == ("", "/home/ana")  # (the line ends `cd`)


@pytest.mark.parametrize("entry", [
    "cd - && make", "for d in a b; do cd sub; done; make", "f() { cd sub; }; f; make",
    "trap 'cd sub' DEBUG; make", "shopt -s cdable_vars; cd d && make",
    "bash -O cdable_vars -c 'cd d && make'", "A=shopt; $A -s cdable_vars; cd d && make",
    "env -S-Csub make", "cd $X; make", "cd * && make",
    "cd a; cd b; cd c; cd d; cd e; make", "popd; make", "cd -; cd sub; make",
    "pushd .; DIRSTACK[1]=sub; pushd; make", "perl -e 'chdir q(sub); system q(make)'",
    "alias c=cd; c sub; make", "set -o history; cd sub; fc -s c; make",
    "declare -n p=CDPATH; p=sub; cd x && make", "export H{OM,y}E=sub; cd && make",
    "cd ${CLAUDE_SKILL_DIR}/.. && make",
    "cd ${CLAUDE_SKILL_DIR}; cd ..; make"])
def test_a_move_the_gate_cannot_name_refuses_the_plan(entry: str) -> None:
    with pytest.raises(ValueError, match="entry"):
        plan_programs((f"Bash({entry})", "Bash(cp *)"))


def test_the_sessions_cdable_vars_refuses_a_cd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BASHOPTS", "cdable_vars:cmdhist")
    with pytest.raises(ValueError, match="cdable_vars"):
        entry_folders("Bash(cd d && make)")
    assert isinstance(moved_folders("cd d && git status", "/p"), str)


@pytest.mark.parametrize("entry", [
    "cd *", "cd $WORK", "cd sub && for f in *.py; do echo $f; done",
    "cd sub && git commit -m 'for the trap fix'", "for f in *.py; do make; done; cd /tmp",
    "make -C sub", "cd ${CLAUDE_SKILL_DIR} && ./x.sh",
    "pushd sub && make test && popd", "cd sub && make test; cd -",
    "cd sub && make && cd - && make", "cd sub 2>/dev/null && make", "cd>/dev/null sub && make",
    "cd 'my dir' && make test", "bash -c \"cd 'my dir' && make\""])
def test_plans_that_worked_keep_working(entry: str) -> None:
    """A move to an unnamed folder running nothing after it, a loop moving nothing, a
    message's words, an absolute move: no refusal (the costs the brief asks to keep)."""
    assert isinstance(plan_programs((f"Bash({entry})",)), tuple)


def test_the_makefile_of_every_folder_is_guarded() -> None:
    assert "my dir/Makefile" in plan_programs(("Bash(cd 'my dir' && make test)",))
    named = plan_programs(("Bash(cd nosuch; cd sub; make test)",))
    assert {"Makefile", "sub/Makefile", "nosuch/Makefile", "nosuch/sub/Makefile"} <= set(named)


def test_the_calls_folders_are_the_same_closure() -> None:
    assert folder_moves("eval 'cd a'; cd b") == ("a", "b")
    assert moved_folders("make -C sub -C x && git status", "/p")[:4] == [
        "/p", os.path.join("/p", "sub"), os.path.join("/p", "x"), "/p/sub/x"]


def test_sudos_chdir_moves_the_calls_words() -> None:
    """``sudo -D sub tee x`` writes ``sub/x``: named._MOVING asks the moves for it (``-D``)."""
    from skillgrant.gate.named import _MOVING

    assert "-D" in _MOVING and moved_folders("sudo -D sub tee x", "/p") == ["/p", "/p/sub"]
