"""A frontmatter's metadata: the Python values of the nodes ``spans`` composed (what
``yaml.safe_load`` makes of the same text), used to compare every key but ``allowed-tools``
before and after a rewrite, and to read keys such as ``hooks`` (``skillfile.keys``).

For a mapping of string keys whose values are strings, booleans, nulls, numbers and dates, and
lists and such mappings of them, the values are built here directly (each scalar by
``SafeConstructor``'s own method for its tag, a later duplicate key winning, as there); any
other document is constructed by ``SafeConstructor`` from the same nodes (never parsed
again).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .yamlspan import STR_TAG

_MAP_TAG: Final = "tag:yaml.org,2002:map"
_SEQ_TAG: Final = "tag:yaml.org,2002:seq"


def metadata(root: Node | None) -> dict[str, object]:
    """The values of a frontmatter's nodes (``{}`` for an empty document). Raises what
    ``SafeConstructor`` raises for a value it cannot construct (a bad date...)."""
    try:
        built = _built(root)
    except Exception:  # SafeConstructor (below) raises its own error, in its own order
        built = None
    if built is not None:
        return built
    value = SafeConstructor().construct_document(root)
    return value if isinstance(value, dict) else {}


def _built(root: Node | None) -> dict[str, object] | None:
    """What SafeConstructor makes of a mapping whose keys are strings and whose values are
    strings, booleans, nulls, integers, numbers and dates, and lists and such mappings of them
    (of an empty document, nothing), each scalar made by SafeConstructor's own method for its
    tag; None for any other node."""
    if root is None:
        return {}
    if type(root) is not MappingNode or root.tag != _MAP_TAG:
        return None
    built = _value(root)
    return built if isinstance(built, dict) else None


class _Other:
    """A node ``_value`` leaves to SafeConstructor."""


_OTHER: Final = _Other()
_CONSTRUCTOR: Final = SafeConstructor()
#: The scalar tags ``_value`` makes, each by SafeConstructor's method (which reads nothing of
#: the constructor's state: only the node's string).
_SCALARS: Final[dict[str, Callable[[SafeConstructor, ScalarNode], object]]] = {
    "tag:yaml.org,2002:bool": SafeConstructor.construct_yaml_bool,
    "tag:yaml.org,2002:null": SafeConstructor.construct_yaml_null,
    "tag:yaml.org,2002:int": SafeConstructor.construct_yaml_int,
    "tag:yaml.org,2002:float": SafeConstructor.construct_yaml_float,
    "tag:yaml.org,2002:timestamp": SafeConstructor.construct_yaml_timestamp,
}


def _value(node: Node) -> object:
    """The node's value as SafeConstructor makes it, or ``_OTHER``."""
    kind = type(node)
    if kind is ScalarNode:
        if node.tag == STR_TAG:
            return node.value
        make = _SCALARS.get(node.tag)
        return _OTHER if make is None else make(_CONSTRUCTOR, node)  # type: ignore[arg-type]
    if kind is SequenceNode and node.tag == _SEQ_TAG:
        items = []
        for item in node.value:
            value = _value(item)
            if value is _OTHER:
                return _OTHER
            items.append(value)
        return items
    if kind is MappingNode and node.tag == _MAP_TAG:
        out: dict[str, object] = {}
        for key, item in node.value:  # a later duplicate wins, as in SafeConstructor
            if type(key) is not ScalarNode or key.tag != STR_TAG:
                return _OTHER
            value = _value(item)
            if value is _OTHER:
                return _OTHER
            out[key.value] = value
        return out
    return _OTHER


def same(a: object, b: object) -> bool:
    """Equality that also holds for NaN values, recursively through lists and mappings."""
    if a is b:  # a value is its own equal here, NaN included
        return True
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a == b
