"""The column of a block collection, as YAML 1.2 (Bun) measures indentation: where its first
dash or key is. PyYAML's node starts at the collection's tag or anchor when it has one
(``x: !!seq`` then ``- a`` on the next line starts at the ``!``), which is not where the block
is indented (review N-1, P-3)."""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, SequenceNode


def block_column(text: str, node: Node) -> int:
    """The column of a block mapping's or list's first entry (``node.start_mark.column`` for
    any other node). ``text`` is the text PyYAML composed ``node`` from."""
    if isinstance(node, MappingNode) and not node.flow_style and node.value:
        # A key starts at its own properties, where the block's indentation is.
        return int(node.value[0][0].start_mark.column)
    if isinstance(node, SequenceNode) and not node.flow_style and node.value:
        # The first item's dash: the last '-' before the item (the list's own tag, anchor
        # and any comment come before that dash; the item's come after it).
        dash = text.rfind("-", node.start_mark.index, node.value[0].start_mark.index)
        if dash >= 0:
            return dash - (text.rfind("\n", 0, dash) + 1)
    return int(node.start_mark.column)
