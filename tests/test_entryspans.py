"""``entry_spans``' branch for scalars written without escapes (plain, literal, folded: a run
of characters at a time) against the general path that reads the text a character at a time
(``char_spans``), on tables and generated values; and the spans on a known answer."""

from __future__ import annotations

import pytest
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from yaml.nodes import MappingNode, ScalarNode

from skillgrant.skillfile import entryspans
from skillgrant.skillfile.yamlspan import YamlProblem, compose


def _both(text: str) -> tuple[object, object] | None:
    """Both paths' spans of the ``allowed-tools`` value of ``text`` (None: not such a scalar)."""
    try:
        root = compose(text)
    except YamlProblem:
        return None
    if not isinstance(root, MappingNode) or not root.value:
        return None
    node = root.value[0][1]
    if not isinstance(node, ScalarNode) or node.style not in (None, "", "|", ">"):
        return None
    scalar = (node.start_mark.index, node.end_mark.index)
    return (entryspans.entry_spans(text, node),
            entryspans._char_entry_spans(text, node, 0, scalar))


TABLE = [
    "allowed-tools: Read, Grep\n",
    "allowed-tools: Read,\n  Bash(git *),\n   Grep\n",
    "allowed-tools: |\n  Read\n  Bash(touch *)\n",
    "allowed-tools: >-\n  Read,\n\n  Grep  Glob\n",
    "allowed-tools: |+ # a comment\n  Read\n\n",
    "allowed-tools: >\n  Read\n   Bash(gh pr *)\n  Grep\n",
    "allowed-tools: Bash(a\tb), Read\n  Grep\n",
    "allowed-tools:\n  Read Grep\n  Glob\n",
]


@pytest.mark.parametrize("text", TABLE)
def test_unescaped_scalars_give_the_general_paths_spans(text: str) -> None:
    both = _both(text)
    assert both is not None
    assert both[0] == both[1]


def test_spans_point_at_each_entry_as_written() -> None:
    text = "allowed-tools: >-\n  Read,\n  Bash(git *)\n"
    node = compose(text).value[0][1]  # type: ignore[union-attr]
    assert [text[a:b] for a, b in entryspans.entry_spans(text, node)] == ["Read",
                                                                          "Bash(git *)"]


_WORDS = st.sampled_from(["Read", "Grep", "Bash(git *)", "Bash(a b)", "x,", ",", "é", "#x",
                          "Bash(gh:*)", "a\u2028b", "a\x85b", "Read\tGrep", "  ", "\t"])
_BREAKS = st.sampled_from([" ", ", ", "\n  ", "\n\n  ", "\n   ", "\r\n  ", " \t", "\n"])


@settings(max_examples=examples(3000), deadline=None)
@given(header=st.sampled_from(["", "|", ">", "|-", ">+", "| # c", ">2"]),
       words=st.lists(st.tuples(_WORDS, _BREAKS), min_size=1, max_size=6))
def test_generated_unescaped_scalars_give_the_general_paths_spans(
        header: str, words: list[tuple[str, str]]) -> None:
    body = "".join(word + gap for word, gap in words)
    text = (f"allowed-tools: {header}\n  {body}\n" if header
            else f"allowed-tools: {body}\nname: x\n")
    both = _both(text)
    if both is not None:
        assert both[0] == both[1], text
