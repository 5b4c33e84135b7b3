"""Keys Bun reads otherwise than PyYAML: a tag on a key (review R-2). Bun 1.4.5 ignores every
tag but ``!!int`` and ``!!float`` on a number's text, on keys as on values: ``!!null
allowed-tools`` is the key "allowed-tools" to it, and None to PyYAML (``!!binary``: bytes), so
skillgrant would not see the key at all (nor ``!!null hooks``). A key written with any tag,
at any depth, is refused: none is needed in a frontmatter."""

from __future__ import annotations

from typing import Final

from yaml.nodes import MappingNode, Node, SequenceNode

TAGGED_KEY: Final = ("a key written with a YAML tag ({}): Claude Code's YAML parser ignores "
                     "the tag and reads the key as its text, skillgrant's may not; write the "
                     "key without it")
_SPACE: Final = " \t\r\n"


def tagged_key(root: Node | None, yaml_text: str) -> tuple[str, int] | None:
    """The first mapping key in ``root`` (composed from ``yaml_text``), at any depth, written
    with a tag: the tag and where the key starts. A tag is written with a ``!``: a text
    without one has none (and is not walked)."""
    stack = [] if root is None or "!" not in yaml_text else [root]
    while stack:
        node = stack.pop()
        if isinstance(node, MappingNode):
            for key, value in node.value:
                tag = _explicit_tag(yaml_text, key.start_mark.index)
                if tag is not None:
                    return tag, key.start_mark.index
                stack += (key, value)
        elif isinstance(node, SequenceNode):
            stack += node.value
    return None


def _explicit_tag(text: str, at: int) -> str | None:
    """The tag among a node's properties (``&a``, ``!t``, in either order) written at ``at``."""
    while text[at:at + 1] in ("&", "!"):
        end = at
        while end < len(text) and text[end] not in _SPACE:
            end += 1
        if text[at] == "!":
            return text[at:end]
        at = end
        while text[at:at + 1] in (" ", "\t"):
            at += 1
    return None
