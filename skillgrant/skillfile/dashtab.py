"""The first compose of a frontmatter (``spans``, the plan loader): PyYAML's, except that a tab
after a block list item's dash, which PyYAML refuses, is read as Bun reads it (as a space) when
the item is a scalar. Part of the runtime's reading (``runtime``)."""

from __future__ import annotations

import re
from typing import Final

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .yamlspan import YamlProblem, compose

# A block list item whose dash a tab follows, before a plain value: Bun reads it as after a
# space when the item is a scalar; PyYAML rejects the tab.
_DASH_TAB: Final = re.compile(r"^( *-)\t(?=[^\s\-?\[{'\"#&*!|>%@`][^\n]*$)", re.MULTILINE)
# A ':' that may end a mapping key in such an item (before a space, a tab, a CR or the line's
# end): Bun rejects the whole text there (review F-2), so such an item is not read as after a
# space.
_KEY_COLON: Final = re.compile(r":(?:[ \t\r]|$)")


def spaced(yaml_text: str) -> str:
    """``yaml_text`` with a space for each tab after a scalar list item's dash (the same
    offsets): the text PyYAML reads where Bun reads such a tab as a space."""
    return _DASH_TAB.sub(r"\1 ", yaml_text) if "-\t" in yaml_text else yaml_text


def compose_dash_tabs(yaml_text: str) -> Node | None:
    r"""``compose``, where PyYAML's only complaint may be a tab after a list item's dash: the
    text is then composed with a space in its place (the same offsets), as Bun reads it when
    each such item is a scalar. Bun rejects a tab before an item that is a block collection
    (``-\tx:``, ``-\ta:\tb``, ``-\t- y``, ``-\t? x``, ``-\t'a': b``: "Tab characters cannot
    be used as indentation"), so such a text raises PyYAML's problem as it stands: a line
    with a ``:`` that may end a key is declined first, and any tabbed item the spaced text
    composes into a block collection after (pinned by tests/oracle). Raises YamlProblem as
    ``compose`` does."""
    try:
        return compose(yaml_text)
    except YamlProblem:
        # (_DASH_TAB needs a '-' and a tab after it: without them its search, a step a
        # character, is skipped: most rejected texts.)
        spaced = _DASH_TAB.sub(r"\1 ", yaml_text) if "-\t" in yaml_text else yaml_text
        if spaced == yaml_text or any(
                _KEY_COLON.search(line) for line in yaml_text.split("\n") if _DASH_TAB.match(line)):
            raise
        try:
            root = compose(spaced)
        except YamlProblem:
            root = None
        tabs = {m.end() for m in _DASH_TAB.finditer(yaml_text)}  # each item's first character
        if root is None or not tabs <= _scalar_item_starts(root):
            raise
        return root


def _scalar_item_starts(root: Node) -> set[int]:
    r"""Where each item of every block list of ``root`` starts, when that item is a scalar
    (a block mapping or list after ``-\t`` is what Bun rejects)."""
    starts: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, MappingNode):
            stack.extend(child for pair in node.value for child in pair)
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)
            if not node.flow_style:
                starts.update(item.start_mark.index for item in node.value
                              if isinstance(item, ScalarNode))
    return starts
