"""yamlapart's searches: each rule's pattern is searched only in a text holding what every
match of it holds (``RULES``: patterns led by a literal character); the answer is the
pattern's own search, on any text."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant.skillfile import yamlapart

#: The characters the rules are made of, and a few others.
_ALPHABET = st.sampled_from([*"?&*-!:[]{},% @`#'\"\t\r\nab_9.", "? ", "&a", "*b:", "- ]"])


@settings(max_examples=3000, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join))
def test_each_rule_answers_as_its_own_pattern(text: str) -> None:
    for pattern, needs in yamlapart.RULES:
        found = pattern.search(text)
        expected = None if found is None else ("why", found.end() - 1)
        assert yamlapart._found(text, pattern, needs, "why") == expected, (pattern.pattern, text)


def test_the_rules_are_found_in_real_texts() -> None:
    """A text each rule refuses is refused with the searches first (the patterns' own
    examples: review s43-freview F4, F11, F12)."""
    assert yamlapart.apart_as_read("a: 1\n? >#\n") is not None
    assert yamlapart.apart_as_read("a: &x:{b}\n") is not None
    assert yamlapart.apart_as_read("a: [b, -]\n") is not None
    assert yamlapart.apart_as_rejected("a: 1\n? b\n") is not None
    assert yamlapart.apart_as_read("allowed-tools: Bash(git *), Read\n") is None
    assert all(isinstance(p, re.Pattern) for _, needs in yamlapart.RULES for p in needs)


def test_each_needed_text_is_led_by_a_literal_character() -> None:
    """A need is searched at C speed only when its first item is one character, not a class
    tried at every character."""
    for _, needs in yamlapart.RULES:
        for need in needs:
            assert need.pattern[0] not in "[(.", need.pattern
