"""The column of a block collection, as YAML 1.2 (Bun) measures indentation: where its first
dash, ``?`` or key is. PyYAML's node starts at the collection's own tag or anchor when it has
one (``x: !!seq``, then ``- a`` on the next line, starts at the ``!``), which is not where the
block is indented (review N-1, P-3)."""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, SequenceNode

from .tagged import comment_end, content_start

_SPACE = " \t"
_LINE = re.compile(r"([^\r\n]*)(?:\r\n|\r|\n|\Z)")
_BREAKS = "\r\n"


def block_column(text: str, node: Node) -> int:
    """The column of a block mapping's or list's first entry (``node.start_mark.column`` for
    any other node). ``text`` is the text PyYAML composed ``node`` from."""
    start = node.start_mark.index
    if isinstance(node, (MappingNode, SequenceNode)) and not node.flow_style \
            and text[start:start + 1] in ("&", "!"):
        line_end = _after_properties(text, start)
        if line_end is not None:
            first = _first_on_a_line(text, line_end)
            if first is not None:
                return first
    return int(node.start_mark.column)


def _after_properties(text: str, at: int) -> int | None:
    """Where the line ends that the collection's own properties (and a comment) end; None
    when anything else is on it (``&k key: v``: the anchor is the first key's, and the block
    starts where the node does)."""
    while at < len(text) and text[at] not in _BREAKS:
        if text[at] in _SPACE:
            at += 1
        elif text[at] in "&!":
            while at < len(text) and text[at] not in _SPACE + _BREAKS:
                at += 1
        elif text[at] == "#" and text[at - 1] in _SPACE:
            return comment_end(text, at)
        else:
            return None
    return at


def _first_on_a_line(text: str, at: int) -> int | None:
    """The column of the first character after ``at`` that is neither space, a line break
    nor in a comment line."""
    line_start = at
    while at < len(text):
        char = text[at]
        if char in _BREAKS:
            line_start = at + 1
        elif char == "#" and not text[line_start:at].strip(_SPACE):
            at = comment_end(text, at)
            continue
        elif char not in _SPACE:
            return at - line_start
        at += 1
    return None


def wide_blank_line(text: str, node: Node, parent: int) -> int | None:
    """Where a block scalar without an indentation indicator has a leading line of spaces
    wider than its first line of text: YAML 1.2 (Bun) rejects it, PyYAML takes the widest
    such line for the indentation, and may then end the scalar before that text (review R-4).
    ``parent`` is the column of the block holding it; a first line not past it is no text."""
    start = content_start(text, node.start_mark.index)  # (the indicator, past properties)
    header_end = comment_end(text, start)  # (a lone CR ends the header too: review H9)
    if header_end == len(text) or any(c.isdigit() for c in text[start:header_end].split("#")[0]):
        return None
    header_end += 2 if text.startswith("\r\n", header_end) else 1
    widest = 0
    for line in _LINE.finditer(text, header_end):  # CR, LF and CRLF all end a line
        if not line.group(1).strip(" "):
            widest = max(widest, len(line.group(1)))
        else:
            indent = len(line.group(1)) - len(line.group(1).lstrip(" "))
            return line.start() if parent < indent < widest else None
        if line.end() == len(text):
            break
    return None
