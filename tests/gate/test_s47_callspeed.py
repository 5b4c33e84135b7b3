"""The hot path's shortcuts (session 47) answer as the general steps they skip."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from skillgrant.gate import optables
from skillgrant.gate.call import check_call
from skillgrant.gate.optables import Head, OptionDoubt, Value

_WORDS: list[Value] = ["push", "origin", "b1", "-", "--", "--no-verify", "--no-x", "-f", "--force",
          "./r", "commit", "-m", "a\x00--no-", None, Head("src/"), "status"]


def _negated_by_loop(name: str, args: list[Value]) -> list[Value]:
    """``_git_negated``'s loop alone (the reference the NUL-joined search skips)."""
    table = optables.TABLES[name]
    kept: list[Value] = []
    for i, value in enumerate(args):
        if value == "--":
            return kept + args[i:]
        if isinstance(value, str) and value.startswith("--no-") and \
                value[2:] not in table.longs:
            optables._long(name, table, value[5:].partition("=")[0])
            continue
        kept.append(value)
    return kept


def _outcome(read: Callable[[list[Value]], object], args: list[Value]) -> object:
    try:
        return read(args)
    except OptionDoubt:
        return "doubt"


def _git_args_by_steps(args: list[Value]) -> object:
    """``_git_args`` for a tabled subcommand, by ``_git_subcommand`` and the loop."""
    found = optables._git_subcommand(args)
    if found is None or "git " + found[0] not in optables._TABLED:
        return "untabled"
    return "git " + found[0], _negated_by_loop("git " + found[0], found[1])


def _git_args(args: list[Value]) -> object:
    found = optables._git_args(args)
    if found is None or (found[0] == "git " + str(args[0]) and
                         "git " + str(args[0]) not in optables._TABLED):
        return "untabled"
    return found


@pytest.mark.parametrize("length", [0, 1, 2, 3])
def test_git_negations_and_subcommands_read_as_the_loop_reads_them(length: int) -> None:
    for args in itertools.product(_WORDS, repeat=length):
        words = list(args)
        fast = _outcome(lambda w: optables._git_negated("git push", w), words)
        assert fast == _outcome(lambda w: _negated_by_loop("git push", w), words), words
        slow = _outcome(_git_args_by_steps, words)
        if slow != "untabled":
            assert _outcome(_git_args, words) == slow, words


def test_a_reserved_character_in_a_command_still_equals_nothing() -> None:
    plan = ["Bash(git status)", "Bash(git *)"]
    assert check_call("Bash", {"command": "git status"}, plan).covered
    assert not check_call("Bash", {"command": "git status \ufdd0"}, plan).covered
    assert check_call("Bash", {"command": "git status é"}, plan).covered
