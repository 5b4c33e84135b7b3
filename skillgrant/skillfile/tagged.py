"""Keys Bun reads otherwise than PyYAML: a tag on a key (review R-2). Bun 1.4.5 ignores every
tag but ``!!int`` and ``!!float`` on a number's text, on keys as on values: ``!!null
allowed-tools`` is the key "allowed-tools" to it, and None to PyYAML (``!!binary``: bytes), so
skillgrant would not see the key at all (nor ``!!null hooks``)."""

from __future__ import annotations

from typing import Final

from yaml.nodes import MappingNode, Node, ScalarNode

from .yamlspan import is_str_scalar

TAGGED_KEY: Final = ("the key {!r} is written with a YAML tag or anchor and does not load as a "
                     "string: Claude Code's YAML parser ignores such a tag and reads the key as "
                     "its text, skillgrant's does not; write the key without them")


def tagged_key(root: Node | None, yaml_text: str) -> ScalarNode | None:
    """The first top-level key of ``root`` (composed from ``yaml_text``) written with a tag or
    anchor (its text starts with ``!`` or ``&``) that PyYAML does not make a string."""
    if isinstance(root, MappingNode):
        for key, _ in root.value:
            if isinstance(key, ScalarNode) and not is_str_scalar(key) \
                    and yaml_text[key.start_mark.index] in "!&":
                return key
    return None
