"""The read-back's branch for a block list (``skillfile.blockread``) against the whole reader it
declines to: on every rewrite of a list's items, the same document or the same error. The
runtime's side of each rewrite is pinned by the Bun differential (tests/oracle)."""

from __future__ import annotations

import pytest
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant.errors import SkillFileError
from skillgrant.skillfile.blockread import block_items_replaced
from skillgrant.skillfile.reread import reread
from skillgrant.skillfile.spans import read_skill
from skillgrant.skillfile.splice import splice


def _outcome(read: object, *args: object) -> object:
    try:
        return read(*args)  # type: ignore[operator]
    except SkillFileError as e:
        return ("error", str(e))


_LINES = st.sampled_from([
    "name: x", "description: d", "# a comment", "  # an indented comment", "other: [a, b]",
    "other:\n  - a\n  - b", "desc: '---'", "x: 1", "empty:", "desc: >\n  folded\n  text",
    "key: [a]x",  # Bun rejects it: read through the re-quote retry
])
#: Items of the old list, as written after the dash.
_ITEMS = st.sampled_from([
    "Read", "Grep", "Bash(git *)", "Bash(gh pr list:*)", "'Read'", '"Grep"', "Read # c",
    "Bash(a---b)", "x: y", "true", "[x]", "Read\n    Grep", "é", "Read ", "\tRead",
])
#: Entries a rewrite may keep or write.
_ENTRIES = st.sampled_from([
    "Read", "Grep", "Glob", "Bash(git *)", "Bash(a---b)", "true", "x: y", "a #b", "---", "-x",
    "é", "\u2028", "\x85", "\ufeff", "Read\tx", "'q'", "*", "Read ", "", "123", "Yes", "null",
])


@settings(max_examples=examples(3000), deadline=None)
@given(st.lists(_LINES, max_size=3), st.lists(_LINES, max_size=3),
       st.lists(_ITEMS, min_size=1, max_size=5), st.sampled_from(["  - ", "- ", "    - ",
                                                                     "  -  ", "  -\t"]),
       st.lists(_ENTRIES, max_size=5), st.sampled_from(["\n", "\r\n"]), st.booleans(),
       st.sampled_from(["", "\n", "\n\n  "]))
def test_a_rewritten_block_list_reads_as_the_whole_reader_reads_it(
        before: list[str], after: list[str], items: list[str], prefix: str,
        entries: list[str], newline: str, gap: bool, between: str) -> None:
    lines = ["---", *before, "allowed-tools:",
             (between.join(prefix + item for item in items) if between == "\n" or not gap
              else (between + "\n").join(prefix + item for item in items)),
             *after, "---", "Body", ""]
    text = newline.join("\n".join(lines).split("\n"))
    try:
        old = read_skill(text, "SKILL.md")
    except SkillFileError:
        return  # nothing read, nothing rewritten
    value = old.allowed_tools
    if value is None or value.form != "block-list":
        return
    for new_text in (splice(old, entries),
                     text[:value.start] + newline.join(prefix + e for e in entries)
                     + text[value.end:]):
        assert _outcome(reread, old, new_text) == _outcome(read_skill, new_text, "SKILL.md")


@pytest.mark.parametrize("old_text, new_value", [
    ("---\nallowed-tools:\n  - Read\n  - Grep\n---\n", "  - Read: x"),  # a mapping now
    ("---\nallowed-tools:\n  - Read\n  - Grep\n---\n", "  - Read #x"),  # a comment now
    ("---\nallowed-tools:\n  - Read\n  - Grep\n---\n", "  - true"),  # a boolean now
    ("---\nallowed-tools:\n  - Read\n  - Grep\n---\n", "  - Bash(a---b)"),  # the fence moves
    ("---\nallowed-tools:\n  - Read # c\n  - Grep\n---\n", "  - Read"),  # a comment in it
    ("---\nallowed-tools:\n  - 'Read'\n  - Grep\n---\n", "  - Grep"),  # a quoted item
    ("---\nallowed-tools:\n  - Read\n\n  - Grep\n---\n", "  - Grep"),  # a blank line
    ("---\nallowed-tools:\n  -\tRead\n  -\tGrep\n---\n", "  -\tGrep"),  # a tab after a dash
    ("---\nallowed-tools:\n  - Read\n  - Grep\n---\n", "  - Read\n    - Grep"),  # nested
    ("---\nk: [a]x\nallowed-tools:\n  - Read\n  - Grep\n---\n", "  - Read"),  # retried
])
def test_the_branch_declines_what_it_is_not_sure_of(
        monkeypatch: pytest.MonkeyPatch, old_text: str, new_value: str) -> None:
    old = read_skill(old_text, "SKILL.md")
    value = old.allowed_tools
    assert value is not None and value.form == "block-list"
    new_text = old_text[:value.start] + new_value + old_text[value.end:]
    assert block_items_replaced(old, new_text) is None
    assert _outcome(reread, old, new_text) == _outcome(read_skill, new_text, "SKILL.md")


_PLAIN_ITEMS = st.sampled_from(["Read", "Grep", "Glob", "Bash(git *)", "Bash(gh pr list:*)",
                                "Read(~/x/**/*.md)", "é", "Bash(a---b)"])
_KEPT = st.sampled_from(["Read", "Grep", "Glob", "Bash(git *)", "Bash(gh *)", "é", "WebFetch",
                         "Bash(a---b)", "true", "x: y", "a #b", "---", "-x", "123", "Read\tx",
                         "'q'", "a:", "\u2028", "?x", "Read(~/x/**/*.md)"])


@settings(max_examples=examples(3000), deadline=None)
@given(st.lists(_LINES, max_size=2), st.lists(_LINES, max_size=2),
       st.lists(_PLAIN_ITEMS, min_size=1, max_size=5),
       st.sampled_from(["  - ", "- ", "    - "]), st.lists(_KEPT, max_size=5),
       st.sampled_from(["---\nBody\n", "---\n", "...\nBody\n", "---\nBody --- x\n"]))
def test_a_plain_block_list_rewritten_reads_as_the_whole_reader_reads_it(
        before: list[str], after: list[str], items: list[str], prefix: str,
        entries: list[str], end: str) -> None:
    """The shapes the branch takes, and entries that change how a plain item reads."""
    text = "\n".join(["---", *before, "allowed-tools:", *(prefix + item for item in items),
                      *after, end])
    try:
        old = read_skill(text, "SKILL.md")
    except SkillFileError:
        return
    value = old.allowed_tools
    assert value is not None and value.form == "block-list"
    for new_text in (splice(old, entries),
                     text[:value.start] + "\n".join(prefix + e for e in entries)
                     + text[value.end:]):
        assert _outcome(reread, old, new_text) == _outcome(read_skill, new_text, "SKILL.md")
