"""``runtime.bun_rejects``' two shortcuts (session 50) answer as its walk: the flat lane's
nodes are passed at once (``flatyaml.composed_flat``), and a block list's item with no
properties whose column is past its dashes' is passed by its mark (``_item_under_its_dash``).
Texts come from grammars of their own here, not from the lanes' code."""

from __future__ import annotations

import yaml
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from yaml.nodes import MappingNode, Node, SequenceNode

from skillgrant.skillfile import runtime
from skillgrant.skillfile.blockcolumn import block_column
from skillgrant.skillfile.flatyaml import LOADER, composed_flat
from skillgrant.skillfile.tagged import content_start
from skillgrant.skillfile.yamlspan import YamlProblem, compose

#: Flat-looking lines: keys, blanks after the colon, values of characters that make a value
#: plain, quoted, or something else (the lane declines those: the walk is then asked).
_KEYS = st.sampled_from(["name", "allowed-tools", "a", "x-1", "on", "Null", "k_2"])
_VALUE_CHARS = [*"ab Z09.-_:#\"\\'[]{},*&!|>%@`?~=<()", "é", "\xa0", "😀", '\\"', "\\\\"]
_PIECES = st.lists(st.sampled_from(_VALUE_CHARS), max_size=12).map("".join)
_VALUES = st.one_of(_PIECES.filter(bool), _PIECES.map(lambda v: f'"{v}"'))
_FLAT = st.lists(st.tuples(_KEYS, st.sampled_from([" ", "  "]), _VALUES), min_size=1,
                 max_size=5).map(lambda lines: "".join(f"{k}:{b}{v}\n" for k, b, v in lines))


def _parsed(text: str) -> Node | None:
    """PyYAML's own nodes of ``text`` (never the flat lane's)."""
    return yaml.compose(text, Loader=LOADER)


@settings(max_examples=examples(4000), deadline=None)
@given(_FLAT)
def test_the_flat_lanes_nodes_are_passed_as_the_walk_passes_the_parsers(text: str) -> None:
    try:
        root = compose(text)
    except YamlProblem:
        return
    if composed_flat(root, text):
        assert runtime.bun_rejects(text, _parsed(text)) is None
    assert runtime.bun_rejects(text, root) == runtime.bun_rejects(text, _parsed(text))


def test_a_flat_root_is_known_by_its_text() -> None:
    text = 'name: x\nallowed-tools: "Read, Grep"\n'
    root = compose(text)
    assert composed_flat(root, text)
    assert not composed_flat(root, text + "a: b\n")
    assert not composed_flat(_parsed(text), text)
    assert not composed_flat(None, text)


def _item_under_its_dash_walked(text: str, node: SequenceNode,
                                column: int) -> tuple[str, int] | None:
    """``_item_under_its_dash`` as session 49 wrote it: every item's content start walked."""
    for item in node.value:
        at = content_start(text, item.start_mark.index)
        start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
        if at < item.end_mark.index and at - start <= column:
            return "a list item's content on a line after its dash, not indented past it", at
    return None


#: Block list items: the separation after the dash (blanks, a tab, or a line break and an
#: indentation from the dashes' column to past it), properties (on the dash's line or one of
#: their own), content, in lists at a column under keys; line breaks of both readers' and
#: PyYAML's own (U+2028).
_SEPARATION = st.sampled_from([" ", " ", "  ", "\t", "{b}{i}", "{b}{i} ", "{b}{i}  ", "{b}{i}   "])
_PROPERTIES = st.sampled_from(["", "", "", "&a ", "!t ", "&a{b}{i}", "!t{b}{i} ", "&b !t ",
                               "!!str ", "&c{b}{i}  "])
_CONTENT = st.sampled_from(["x", "Read", '"q"', "'s'", "|{b}{i}    b", "[a, b]", "{a: b}",
                            "Bash(git *)", "é", "x # c", "k: v"])
_ITEM = st.tuples(_SEPARATION, _PROPERTIES, _CONTENT).map("".join)
_BREAK = st.sampled_from(["\n", "\n", "\r\n", "\r", "\u2028"])


@st.composite
def _block_lists(draw: st.DrawFn) -> str:
    indent = " " * draw(st.integers(0, 3))
    items = draw(st.lists(_ITEM, min_size=1, max_size=4))
    brk = draw(_BREAK)
    head = draw(st.sampled_from(["a: b{b}k:", "k:", "a:{b}  k:"]))
    return (head + "{b}" + "".join(f"{indent}-{item}{{b}}" for item in items)).replace(
        "{i}", indent).replace("{b}", brk)


def _lists(node: Node | None) -> list[SequenceNode]:
    found, stack = [], [] if node is None else [node]
    while stack:
        one = stack.pop()
        if isinstance(one, SequenceNode):
            found.append(one)
            stack.extend(one.value)
        elif isinstance(one, MappingNode):
            stack.extend(n for pair in one.value for n in pair)
    return found


@settings(max_examples=examples(6000), deadline=None)
@given(_block_lists())
def test_an_item_is_passed_by_its_mark_as_its_content_start_would_pass_it(text: str) -> None:
    try:
        root = _parsed(text)
    except yaml.YAMLError:
        return
    for node in _lists(root):
        if node.flow_style:
            continue
        column = block_column(text, node)
        assert runtime._item_under_its_dash(text, node, column) == _item_under_its_dash_walked(
            text, node, column), text
