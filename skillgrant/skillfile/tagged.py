"""Nodes Bun reads otherwise than PyYAML: a tag (reviews R-2, s46-freview T1-T3). Bun 1.4.5
ignores every tag but ``!!int`` and ``!!float`` on a number's text, on keys as on values:
``!!null allowed-tools`` is the key "allowed-tools" to it, and None to PyYAML (``!!binary``:
bytes), so skillgrant would not see the key at all (nor ``!!null hooks``); ``context: !!null
fork`` is "fork" to it and None to PyYAML, ``x: !!set {PreToolUse: y}`` a mapping to it and a
Python set to PyYAML, ``!!omap``/``!!pairs`` lists of mappings to it and of tuples to PyYAML.
``doc.metadata`` (PyYAML's) feeds ``judge_keys``, ``hookdrop`` and the fork check, so each
must be Bun's reading. A key written with any tag, at any depth, is refused: none is needed in
a frontmatter. A value (the document itself, an item) written with a tag is refused unless the
tag is the one the node has untagged for both readers, so that both read it as untagged:
``!!map`` on a mapping, ``!!seq`` on a list, ``!!str`` on a quoted or block scalar (a string
to Bun however it is tagged). No real skill writes a tag (tests/test_s46_ffix.py)."""

from __future__ import annotations

from typing import Final

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

TAGGED_KEY: Final = ("a key written with a YAML tag ({}): Claude Code's YAML parser ignores "
                     "the tag and reads the key as its text, skillgrant's may not; write the "
                     "key without it")
TAGGED_VALUE: Final = ("a value written with a YAML tag ({}): Claude Code's YAML parser ignores "
                       "the tag and reads the value as written, skillgrant's builds what the tag "
                       "names (a null, a set, a list of pairs...); write the value without it")
#: ``spans.allowed_of``'s words for a tag on ``allowed-tools``' value or an item of it.
TAGGED_ALLOWED: Final = "allowed-tools carries a YAML tag or anchor; write the value without one"
TAGGED_ITEM: Final = "allowed-tools item {} carries a YAML tag or anchor"
_SPACE: Final = " \t\r\n"
_YAML: Final = "tag:yaml.org,2002:"
#: The tags a node of each kind has untagged, whose construction Bun's reading matches.
_UNTAGGED: Final[dict[type[Node], str]] = {MappingNode: _YAML + "map",
                                           SequenceNode: _YAML + "seq"}
_QUOTED_OR_BLOCK: Final = frozenset(("'", '"', "|", ">"))


def tagged_key(root: Node | None, yaml_text: str) -> tuple[str, int] | None:
    """The first node in ``root`` (composed from ``yaml_text``), at any depth, written with a
    tag Bun reads otherwise than PyYAML: why (a sentence) and where the node starts. Any tag
    on a mapping key; on any other node, a tag but those ``_same_either_way`` keeps. A tag is
    written with a ``!``: a text without one has none (and is not walked)."""
    if root is None or "!" not in yaml_text:
        return None
    tag = _odd_value(yaml_text, root)
    if tag is not None:
        return TAGGED_VALUE.format(tag), root.start_mark.index
    stack = [root]
    while stack:
        node = stack.pop()
        found: tuple[str, int] | None
        if isinstance(node, MappingNode):
            found = _in_mapping(yaml_text, node, node is root)
            stack += [child for pair in node.value for child in pair]
        elif isinstance(node, SequenceNode):
            found = _in_list(yaml_text, node)
            stack += node.value
        else:
            continue
        if found is not None:
            return found
    return None


def _in_mapping(yaml_text: str, node: MappingNode, top: bool) -> tuple[str, int] | None:
    """A tagged key of ``node``, or a tagged value (``top``: of the document's mapping)."""
    for key, value in node.value:
        tag = _explicit_tag(yaml_text, key.start_mark.index)
        if tag is not None:
            return TAGGED_KEY.format(tag), key.start_mark.index
        said = _said_value(yaml_text, value, top and _allowed(key))
        if said is not None:
            return said
    return None


def _in_list(yaml_text: str, node: SequenceNode) -> tuple[str, int] | None:
    for item in node.value:
        found = _odd_value(yaml_text, item)
        if found is not None:
            return TAGGED_VALUE.format(found), item.start_mark.index
    return None


def _allowed(key: Node) -> bool:
    return isinstance(key, ScalarNode) and key.value == "allowed-tools"


def _said_value(yaml_text: str, value: Node, allowed: bool) -> tuple[str, int] | None:
    """A tagged value's reason and place; for the top-level ``allowed-tools`` (``allowed``),
    in ``spans``' words, of its value or of its first tagged item."""
    found = _odd_value(yaml_text, value)
    if found is not None:
        return (TAGGED_ALLOWED if allowed else TAGGED_VALUE.format(found)), \
            value.start_mark.index
    if allowed and isinstance(value, SequenceNode):
        for index, item in enumerate(value.value):
            if _odd_value(yaml_text, item) is not None:
                return TAGGED_ITEM.format(index + 1), item.start_mark.index
    return None


def _odd_value(yaml_text: str, node: Node) -> str | None:
    """The tag ``node`` is written with, unless both readers read it as untagged."""
    tag = _explicit_tag(yaml_text, node.start_mark.index)
    return None if tag is None or _same_either_way(node) else tag


def _same_either_way(node: Node) -> bool:
    """Whether PyYAML constructs the tagged ``node`` as Bun reads it (the tag ignored)."""
    if isinstance(node, ScalarNode):
        return node.tag == _YAML + "str" and node.style in _QUOTED_OR_BLOCK
    return node.tag == _UNTAGGED.get(type(node))


def _explicit_tag(text: str, at: int) -> str | None:
    """The tag among a node's properties (``&a``, ``!t``, in either order) written at ``at``.
    YAML separates two properties as it separates a node from its key: blanks, line breaks
    and comments (``&a # c`` ⏎ ``  !!null x``; review s47-freview F1), so all are read past."""
    while text[at:at + 1] in ("&", "!"):
        end = at
        while end < len(text) and text[end] not in _SPACE:
            end += 1
        if text[at] == "!":
            return text[at:end]
        at = _separated(text, end)
    return None


def content_start(text: str, at: int) -> int:
    """Where the content of a node written at ``at`` starts: past its properties (``&a``,
    ``!t``) and the separation after each (blanks, line breaks, comment lines)."""
    while text[at:at + 1] in ("&", "!"):
        end = at
        while end < len(text) and text[end] not in _SPACE:
            end += 1
        at = _separated(text, end)
    return at


def comment_end(text: str, at: int) -> int:
    """Where the comment at ``at`` ends: at the next line break, LF or a lone CR (both YAML
    line breaks to PyYAML and Bun: review s47-freview2 R1), or the text's end."""
    ends = [cut for cut in (text.find("\n", at), text.find("\r", at)) if cut >= 0]
    return min(ends) if ends else len(text)


def _separated(text: str, at: int) -> int:
    """Where the next token starts after ``at``: past blanks, line breaks and comments (a
    ``#`` after a blank, to its line's end)."""
    while at < len(text):
        if text[at] in _SPACE:
            at += 1
        elif text[at] == "#" and text[at - 1] in _SPACE:
            at = comment_end(text, at)
        else:
            break
    return at
