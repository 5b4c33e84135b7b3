"""The Lark-free reading of an entry (``parser.parse_accepted``) against Lark, the parser of
record: the same terminals as the grammar, the same structure, and the same answer on every
short string over the characters that matter and on generated longer ones (semantics §2)."""

from __future__ import annotations

import itertools

import pytest
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant import parser as _parse
from skillgrant.errors import GrantSyntaxError
from skillgrant.parser import ParsedEntry, parse_accepted, parse_entry, parse_entry_lark

#: Every character class the grammar tells apart: name starts and tails, the parentheses, the
#: escape, space and newline, a non-ASCII letter, a look-alike parenthesis.
ALPHABET = "aZ9*-_()\\ \n\u0430\uff08"


def lark_answer(entry: str) -> ParsedEntry | None:
    try:
        return parse_entry_lark(entry)
    except GrantSyntaxError:
        return None


def test_the_terminals_are_the_grammars() -> None:
    parser = _parse._parser()
    assert parser.get_terminal("NAME").pattern.value == _parse.NAME_PATTERN
    assert parser.get_terminal("CONTENT").pattern.value == _parse.CONTENT_PATTERN
    assert parser.get_terminal("LPAR").pattern.value == "("
    assert parser.get_terminal("RPAR").pattern.value == ")"


def test_the_rules_are_the_ones_the_expression_follows() -> None:
    # start: NAME -> bare | NAME LPAR CONTENT? RPAR -> scoped, and nothing else.
    rules = {(rule.origin.name, tuple(s.name for s in rule.expansion), rule.alias)
             for rule in _parse._parser().rules}
    assert rules == {
        ("start", ("NAME",), "bare"),
        ("start", ("NAME", "LPAR", "CONTENT", "RPAR"), "scoped"),
        ("start", ("NAME", "LPAR", "RPAR"), "scoped"),
    }


def test_every_short_string_gets_larks_answer() -> None:
    checked = accepted = 0
    for length in range(5):
        for letters in itertools.product(ALPHABET, repeat=length):
            entry = "".join(letters)
            expected = lark_answer(entry)
            assert parse_accepted(entry) == expected, entry
            checked += 1
            accepted += expected is not None
    assert checked == sum(len(ALPHABET) ** n for n in range(5))
    assert 0 < accepted < checked


entries = st.text(alphabet=st.sampled_from(ALPHABET), max_size=40) | st.builds(
    lambda name, content: f"{name}({content})",
    st.from_regex(r"[A-Za-z*][A-Za-z0-9_*\-]{0,8}", fullmatch=True),
    st.text(alphabet=st.sampled_from(ALPHABET), max_size=30))


@settings(max_examples=examples(2000))
@given(entries)
def test_generated_entries_get_larks_answer(entry: str) -> None:
    assert parse_accepted(entry) == lark_answer(entry)


@pytest.mark.parametrize("entry", ["Bash(x\\)", "Bash(", "(x)", "B ash", "Bash(x) ", "Bаsh",
                                   "", "Bash(a)(b"])
def test_refused_entries_raise_larks_error(entry: str) -> None:
    assert parse_accepted(entry) is None
    with pytest.raises(GrantSyntaxError) as fast:
        parse_entry(entry)
    with pytest.raises(GrantSyntaxError) as slow:
        parse_entry_lark(entry)
    assert str(fast.value) == str(slow.value)


def test_long_entries_get_larks_answer() -> None:
    for entry in ["Bash(" + "\\" * 8001 + ")", "Bash(" + "(" * 8000, "a" * 8000 + "(",
                  "Bash(" + "\\)" * 4000]:
        assert parse_accepted(entry) == lark_answer(entry)
