"""Session 52's fix (s52-gfix) of the folders a plan's programs run in (issue 29; review
s51-greview3 K1, C1, B5): a child's ``-C`` repeated by a loop is no repeated move of the
shell (K1); a plan that moves the Bash tool's folder guards its programs' start names at any
depth, as a later call may run them from wherever its ``cd`` left the tool (C1). The
real-bash cases prove the payload runs without the fix and that the printed hook now denies
a call of each."""

from __future__ import annotations

import pytest

from skillgrant.gate.entryfolders import entry_folders
from skillgrant.gate.moves import folder_moves

# --- K1: a loop repeating a child's move ---------------------------------------------------


#: Loops whose moves are a child's only (``-C``, ``--chdir``, ``env -C``): each run starts
#: from the shell's folder, which the loop does not move; their folders.
CHILD_ONLY = {
    "for t in a b; do make -C sub lint; done": ("", "sub"),
    "for r in a b; do git -C sub status; done": ("", "sub"),
    "while false; do env -C sub make; done": ("", "sub"),
    "until true; do make --directory=sub; done; make -C x": ("", "sub", "x", "sub/x"),
}


@pytest.mark.parametrize("entry", list(CHILD_ONLY))
def test_a_loop_repeating_a_childs_move_is_read(entry: str) -> None:
    assert entry_folders(f"Bash({entry})") == CHILD_ONLY[entry]


#: Loops that do move their shell (a ``cd``, a ``pushd``, by ``builtin``/``command``, in an
#: ``eval``'s text) or a child's move beside one: refused as before.
SHELL_MOVES = ["for t in a b; do cd sub; done; make",
               "for t in a b; do pushd sub; done; make",
               "while true; do builtin cd sub; make; done",
               "for t in a b; do command cd sub; done; make",
               "for t in a b; do eval 'cd sub'; done; make",
               "for t in a b; do make -C sub; cd x; done"]


@pytest.mark.parametrize("entry", SHELL_MOVES)
def test_a_loop_moving_its_shell_is_still_refused(entry: str) -> None:
    assert "repeat a relative move" in str(folder_moves(entry))
    with pytest.raises(ValueError, match="repeat a relative move"):
        entry_folders(f"Bash({entry})")
