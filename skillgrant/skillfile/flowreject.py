"""Bun's rejections of a flow node inside a block (``runtime.bun_rejects``): a continuation
line not indented past its block, a tab where the indentation is, a ``#`` glued to a flow
indicator, text right after a closing quote or bracket. Part of the runtime's reading."""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Final

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .tagged import content_start

#: YAML line breaks (a lone CR is one for PyYAML and Bun).
BREAK: Final = re.compile(r"\r\n?|\n")
# What may follow a closing quote on its line, for Bun (PyYAML also takes other text), or "".
AFTER_QUOTE: Final = frozenset((*" \t\r\n:,]}", ""))
_GLUED: Final = re.compile(r"[\[{,]#")


def flow_node(text: str, node: Node, parent: int,
               stack: list[tuple[Node, int]]) -> tuple[str, int] | None:
    """Bun's rejections of a flow node (a flow collection, whose children go on ``stack``,
    or a quoted or plain scalar) inside a block at column ``parent``."""
    found = _misplaced_line(text, node, parent)
    collection = isinstance(node, (MappingNode, SequenceNode))
    if found is None and collection:
        children = [child for pair in node.value
                    for child in (pair if isinstance(pair, tuple) else (pair,))]
        stack.extend((child, parent) for child in children)
        found = _glued_comment(text, node, children)
    if found is None and (collection or getattr(node, "style", None) in ("'", '"')) \
            and text[node.end_mark.index:node.end_mark.index + 1] not in AFTER_QUOTE:
        found = "text right after a closing quote or bracket", node.end_mark.index
    return found


def _glued_comment(text: str, node: Node, children: list[Node]) -> tuple[str, int] | None:
    """A ``#`` right after a flow indicator (``[#``, ``,#``), which PyYAML takes for a
    comment and Bun rejects; quoted items are skipped (found by their starts, in order:
    review s49-freview B6)."""
    quoted = [(c.start_mark.index, c.end_mark.index) for c in children
              if isinstance(c, ScalarNode) and c.style in ("'", '"')]
    starts = [start for start, _ in quoted]
    ordered = starts == sorted(starts)
    for found in _GLUED.finditer(text, node.start_mark.index, node.end_mark.index):
        at = found.start()
        if ordered:
            index = bisect_right(starts, at) - 1
            inside = index >= 0 and at < quoted[index][1]
        else:
            inside = any(start <= at < end for start, end in quoted)
        if not inside:
            return "a '#' right after a flow indicator", at + 1
    return None


def _misplaced_line(text: str, node: Node, parent: int) -> tuple[str, int] | None:
    """A continuation line of a flow node that YAML 1.2 needs indented past ``parent``."""
    start, end = node.start_mark.index, node.end_mark.index
    collection = isinstance(node, (MappingNode, SequenceNode))
    # A comment line between a node's properties and its content is separation, read at any
    # column (review s47-freview F2/S5: `y:` ⏎ ` &a` ⏎ `# c` ⏎ `  "y"`).
    content = content_start(text, start) if text[start:start + 1] in ("&", "!") else start
    items: dict[int, tuple[list[Node], list[int]]] = {}
    for found in BREAK.finditer(text, start, end):
        at = found.end()
        first = at
        while first < len(text) and text[first] == " ":
            first += 1
        char = text[first:first + 1]
        if char in ("", "\n", "\r") or (first >= end and not char.strip()) or (
                first - at > parent) or (char == "#" and first < content):
            continue
        if char == "\t":  # a tab where the indentation is (a lone CR ends its line: H7)
            rest = BREAK.split(text[first:end], 1)[0].strip(" \t")
            if not rest or (collection and rest[0] == "#"):
                continue  # (a comment line in a flow collection: Bun reads it so, s44 N8)
            if not (collection and rest[0] in "]},"):  # (Bun reads those so: review H5)
                return "a tab before the text of a continuation line", first
            first, char = text.index(rest[0], first), rest[0]
        if collection and char == "," and _after_a_collection(  # (review H8)
                text, node, first, items):
            return "a ',' first on a line after a nested collection, not indented past its " \
                "block", first
        if collection and (parent < 0 or char in "]},#"):
            continue  # a closing bracket, a comma or a comment may start a line anywhere
        return (f"a continuation line at column {first - at + 1}, not indented past its "
                "block", first)
    return None


def _after_a_collection(text: str, node: Node, at: int,
                        items: dict[int, tuple[list[Node], list[int]]]) -> bool:
    """Whether the last item of the flow collection ``node`` begun before the ``,`` at ``at``
    (a key or a value of a mapping; of a single pair written without braces, ``[a: [b]``, its
    value; of a collection holding ``at``, its own last item: review s48-freview2 Q1) is
    itself a collection, or a value left empty after its ``:`` (``[k:`` ⏎ ``, b]``: N1).
    ``items``: each collection's items and their starts, kept across a node's lines (review
    s49-freview B7)."""
    last: Node = node
    previous: Node | None = None
    while isinstance(last, (MappingNode, SequenceNode)):
        children, starts = _items(last, items)
        # (an empty value starts between the line's start and the ','; nothing else can)
        if starts == []:  # (not in order: each item asked)
            before = [child for child in children if child.start_mark.index <= at]
        else:
            count = bisect_right(starts, at)
            before = children[max(count - 2, 0):count]
        if not before:
            return False
        last, previous = before[-1], (before[-2] if len(before) > 1 else None)
        if not isinstance(last, (MappingNode, SequenceNode)) or (
                last.end_mark.index <= at
                and text[(first := content_start(text, last.start_mark.index)):first + 1]
                in ("{", "[")):
            break  # (a collection before the line; else one holding it, or a single pair)
    if isinstance(last, ScalarNode):
        return (last.value == "" and last.style in (None, "") and previous is not None
                and ":" in text[previous.end_mark.index:last.start_mark.index].split("#")[0])
    return True


def _items(node: MappingNode | SequenceNode,
           items: dict[int, tuple[list[Node], list[int]]]) -> tuple[list[Node], list[int]]:
    """A collection's items (a mapping's keys and values) and their starts (none when they are
    not in order), made once per collection."""
    if id(node) not in items:
        children = [child for pair in node.value for child in (pair if isinstance(pair, tuple)
                                                                else (pair,))]
        starts = [child.start_mark.index for child in children]
        items[id(node)] = (children, starts if starts == sorted(starts) else [])
    return items[id(node)]
