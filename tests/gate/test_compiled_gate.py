"""The call gate's compiled matching against plain references: the whole-string test and the
membership test read from the command domain's compiled side give the approved entry a loop
over the patterns gives, and a plan kept between calls answers as a new one does.
"""

from __future__ import annotations

import shlex

from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant import check_call
from skillgrant.domains import command as command_domain
from skillgrant.domains.base import RESERVED, Budget
from skillgrant.domains.command import Kind, compile_pattern, identity_reason
from skillgrant.gate import commands, plainshell
from skillgrant.gate.verdict import call_plan

WORDS = ["git", "status", "gh", "pr", "*", "a*", "-m", "x", ":*", "'q'", "${CLAUDE_SKILL_DIR}",
         "\\*", "", "npm", "test", "é"]
contents = st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join)
tools = st.sampled_from(["Bash", "bash", "PowerShell", "Monitor"])
approved = st.lists(st.builds(lambda t, c, bare: t if bare else f"{t}({c})", tools, contents,
                              st.booleans()), max_size=6)
commands_ = st.lists(st.sampled_from(["git", "status", "gh", "pr", "x", "npm", "test", "-m",
                                      "a", "GIT"]), min_size=1, max_size=4).map(" ".join)


def _reference_whole(entries: list[tuple[str, str | None]], command: str, fold: bool) -> str | None:
    """The whole-string test as a loop over the entries, in order."""
    def same(a: str, b: str) -> bool:
        return a.lower() == b.lower() if fold else a == b

    for entry, content in entries:
        if content is None:
            return entry
        if identity_reason(content) is not None:
            continue
        pattern = compile_pattern(content)
        if pattern.kind is Kind.ANY:
            return entry
        if (RESERVED.isdisjoint(command) and pattern.kind in (Kind.EXACT, Kind.PREFIX)
                and RESERVED.isdisjoint(pattern.literal) and same(pattern.literal, command)):
            return entry
    return None


def _reference_member(entries: list[tuple[str, str | None]], command: str) -> str | None:
    for entry, content in entries:
        if content is None or identity_reason(content) is not None:
            continue
        if any(g.matches(command, Budget()) for g in compile_pattern(content).globs):
            return entry
    return None


@settings(max_examples=examples(2000), deadline=None)
@given(approved, commands_, st.sampled_from(["Bash", "PowerShell"]))
def test_whole_string_and_membership_as_a_loop_finds_them(plan: list[str], command: str,
                                                          tool: str) -> None:
    grants = commands._CommandGrants.of(tool, call_plan(plan), None)
    whole = command_domain.whole_command(grants.side, command)
    expected = _reference_whole(grants.entries, command, fold=tool == "PowerShell")
    assert (None if whole is None else grants.entries[whole][0]) == expected
    if tool == "Bash" and expected is None:
        index = command_domain.member(grants.side, command)
        assert (None if index is None else grants.entries[index][0]) == _reference_member(
            grants.entries, command)


@settings(max_examples=examples(1000), deadline=None)
@given(st.lists(st.text(alphabet="ab '\"$-=:,./@%+_\\é\t", max_size=5), min_size=1, max_size=4))
def test_joined_words_are_shlex_join(values: list[str]) -> None:
    assert plainshell.joined_words(values) == shlex.join(values)


@settings(max_examples=examples(500), deadline=None)
@given(approved, st.lists(commands_, min_size=1, max_size=5))
def test_a_kept_plan_answers_as_a_new_one(plan: list[str], given_commands: list[str]) -> None:
    kept = call_plan(plan)
    for command in given_commands:
        text = command.replace(" x", " && x")
        assert check_call("Bash", {"command": text}, kept, cwd="/r") == check_call(
            "Bash", {"command": text}, call_plan(plan), cwd="/r")
