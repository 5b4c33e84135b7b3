"""yamlapart's searches: each rule is looked for only in a text holding what every match of
it holds (``RULES``: patterns led by a literal character), by a walk in linear time
(skillfile.propwalk); the answer is the rule's regular expression's own (the reference,
tests/yamlapart_reference.py), on any text."""

from __future__ import annotations

import re

import yamlapart_reference as reference
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from yaml.nodes import Node

from skillgrant.skillfile import yamlapart
from skillgrant.skillfile.yamlspan import compose as yamlspan_compose

#: The characters the rules are made of, and a few others.
_ALPHABET = st.sampled_from([*"?&*-!:[]{},% @`#'\"\t\r\nab_9.\x0c", "? ", "&a", "*b:", "- ]",
                             "!a,", " #", "\r\n", "- "])
#: Each rule's regular expression, in ``RULES``' order.
_REFERENCE = (reference.ODD_COMPLEX_KEY, yamlapart._COMPLEX_KEY, reference.CUT_ANCHOR,
              reference.CUT_TAG, reference.LONE_DASH)


def _answers_as_reference(text: str) -> None:
    for (rule, needs), pattern in zip(yamlapart.RULES, _REFERENCE, strict=True):
        at = reference.answer(pattern, text)
        expected = None if at < 0 else ("why", at)
        assert yamlapart._found(text, rule, needs, "why") == expected, (pattern.pattern, text)


@settings(max_examples=examples(3000), deadline=None)
@given(st.lists(_ALPHABET, max_size=60).map("".join))
def test_each_rule_answers_as_its_own_pattern(text: str) -> None:
    _answers_as_reference(text)


def test_a_rule_is_found_first_where_its_needs_match_on_several_lines() -> None:
    """The first match is found when the needs match on several lines, in either order (an
    alias's need on an early line, an anchor's on a later one), and at the text's start; and
    where starts sit inside another start's run (review s49-freview B2's shapes, short)."""
    texts = ["a: b\nc: *x:\nd: &y:\n", "a: b\nc: &y:\nd: *x:\n", "*x: a\n&y: b\n",
             "a: 'q*x:'\nb: *y:\n", "- ? b\n? >#\n", "a: [b]\nc: !x,\nd: [e, -]\n",
             "x: 1\n\n  - *a@\n", "y: c # " + ", &a" * 9 + " x!a,\n",
             "y: c # " + ": !" * 9 + " x&a:\n", "[&a,!b, !c,]", "x:\r- &a !b,",
             "a: [ # [-]\n -]", "- [? !a-[? !a-[? !a\n", "\t- - !a,"]
    for text in texts:
        _answers_as_reference(text)


def test_a_cut_name_is_looked_for_where_a_walk_stands() -> None:
    """An anchor's or alias's cut name is walked to only at the text's start or after a blank,
    a line break, ``[``, ``{`` or ``,``: the need asks the character before it, so a quoted
    shell command's ``\\*\\*Status:`` (real skill 05) is not walked; the answers are the
    reference's either way."""
    texts = ["*x:", "a: *x:\n", "a:\t&x:\n", "[*x:]", "{a: b,&x:}", "a:\r&x:", "- - *x:",
             "a: 'grep \\*\\*Status:\\*\\* x'\n", "a: b*x:\n", "a: !t *x:\n", "a: b&x:\n",
             "a: !t\t&x:\n", "a: \"x\\*y:\"\n"]
    for text in texts:
        _answers_as_reference(text)
    quoted = "a: '[ -f x ] && grep -c \"\\*\\*Status:\\*\\* ready\" x'\n"
    assert not any(need.search(quoted) for need in yamlapart._CUT_ANCHOR_NEEDS)
    assert yamlapart.apart_as_read(quoted) is None


def test_the_rules_are_found_in_real_texts() -> None:
    """A text each rule refuses is refused with the searches first (the patterns' own
    examples: review s43-freview F4, F11, F12)."""
    assert yamlapart.apart_as_read("a: 1\n? >#\n") is not None
    assert yamlapart.apart_as_read("a: &x:{b}\n") is not None
    assert yamlapart.apart_as_read("a: [b, -]\n") is not None
    assert yamlapart.apart_as_rejected("a: 1\n? b\n") is not None
    assert yamlapart.apart_as_read("allowed-tools: Bash(git *), Read\n") is None
    assert all(isinstance(p, re.Pattern) for _, needs in yamlapart.RULES for p in needs)


def test_a_long_text_with_a_dash_before_a_closer_is_searched_whole() -> None:
    """A lone dash's rule may run over lines and comments; its regular expression grew as the
    square of a line of ``, #`` runs (review s48-freview2 P1), so a long text its need matched
    was refused unsearched (16,384 characters); the walk reads it whole."""
    text = "a: b-]\n" + "c: d\n" * 4000
    assert yamlapart.apart_as_read(text) is None  # (`b-]`: no dash alone in a collection)
    runs = "a: [" + ", #" * 10_000 + "\n  -]\n"
    assert yamlapart.apart_as_read(runs) == (yamlapart._DASH, len(runs) - 3)


def test_each_needed_text_is_led_by_a_literal_character() -> None:
    """A need is searched at C speed only when its first item is one character, not a class
    tried at every character."""
    for _, needs in yamlapart.RULES:
        for need in needs:
            assert need.pattern[0] not in "[(.", need.pattern


#: Frontmatters with brackets in scalars and in flow collections, and the shapes flow_oddity
#: finds (reviews s44-freview N7, N10).
_FLOWISH = st.sampled_from([
    "a: Bash(ls:*)\n", "argument-hint: <file> [out]\n", "x: [a, b]\n", "x: {a: b}\n",
    "x: [?, , b]\n", "x: [a, &b -]\n", '{"a":!,}\n', "x: [!, a]\n", "- [a, *b]\n",
    "y: 'q [x, :*]'\n", "z: |\n  [a, :*b]\n", "w: a, [b] :*c\n", "# [a, :*]\n",
    "v: [[a], {b: c}]\n",
    "u: [a: b, c]\n", "t: x\n  [y, :*]\n", "s:\n  - [a, ?x]\n  - b\n"])


def _composed(text: str) -> tuple[bool, Node | None]:
    try:
        return True, yamlspan_compose(text)
    except Exception:  # (the rule is asked of composed texts only)
        return False, None


@settings(max_examples=examples(1500), deadline=None)
@given(st.lists(_FLOWISH, min_size=1, max_size=4).map("".join))
def test_a_composed_text_without_flow_nodes_has_no_flow_oddity(text: str) -> None:
    """flow_oddity told the nodes (``composed``) answers as its scan of the text alone."""
    ok, root = _composed(text)
    if ok:
        assert yamlapart.flow_oddity(text, root, composed=True) == yamlapart.flow_oddity(text)


#: Pieces of flow collections with node properties, explicit keys and empty entries, and
#: of the plain scalars real flow lists hold (``_scan_may_find``).
_FLOW_PIECES = st.sampled_from([
    "[", "]", "{", "}", ", ", ",", ": ", ":", "? ", "?", "&a ", "&b", "!!str ", "! ", "!x ",
    "*a", "a", "b c", "'q'", '"d"', "-", "- ", "\n", "\n  ", "\n- ", " ", "#c",
    "Bash(git *)", "é", ":*", "x: "])


@settings(max_examples=examples(3000), deadline=None)
@given(st.lists(_FLOW_PIECES, min_size=1, max_size=14).map(lambda p: "".join(p) + "\n"))
def test_the_nodes_tell_the_flow_scan_as_it_finds(text: str) -> None:
    """flow_oddity told the nodes answers as its scan where the nodes hold flow collections
    too (properties, explicit keys and empty entries inside them: the scan's findings)."""
    ok, root = _composed(text)
    if ok:
        assert yamlapart.flow_oddity(text, root, composed=True) == yamlapart.flow_oddity(text)


def test_flow_lists_of_plain_scalars_are_not_scanned() -> None:
    """What the real flow lists hold (31, 32, 33 of the shared 40) is told by the nodes; a
    property or an explicit key inside a flow collection is scanned (and found)."""
    for text in ['allowed-tools: [Bash, Read, Bash("glab ci get:*)]\n',
                 "allowed-tools: [Read, Bash(git *), 'Bash(ls:*)']\nx: {a: b}\n"]:
        ok, root = _composed(text)
        assert ok and yamlapart._scan_may_find(root, text) is False
        assert yamlapart.flow_oddity(text, root, composed=True) is None
    for text in ["x: [&a b, c]\n", "x: [!!str b, c]\n", "x: {? a : b}\n",
                 "x: [[!x a], b]\n", "x: [a, {k: &v b}]\n"]:
        ok, root = _composed(text)
        assert ok and yamlapart._scan_may_find(root, text) is True, text
        assert yamlapart.flow_oddity(text, root, composed=True) == yamlapart.flow_oddity(text)


def test_generated_frontmatters_answer_as_the_scan_alone() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "oracle"))  # as tests/test_reread.py does
    from frontmatter_gen import texts

    seen = 0
    for whole in texts(45, 4000):
        start = whole.find("\n") + 1
        end = whole.find("\n---", start)
        text = whole[start:end + 1]
        ok, root = _composed(text)
        if ok and ("[" in text or "{" in text):
            seen += 1
            assert (yamlapart.apart_as_read(text, root, composed=True)
                    == yamlapart.apart_as_read(text)), text
    assert seen > 100
