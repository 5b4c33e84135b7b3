"""A frontmatter's metadata: the Python values of the nodes ``spans`` composed (what
``yaml.safe_load`` makes of the same text), used to compare every key but ``allowed-tools``
before and after a rewrite, and to read keys such as ``hooks`` (``skillfile.keys``).

For a mapping of string scalars (and lists of them), ``SafeConstructor`` gives each key's
string, a later duplicate winning, and that is built here directly; any other document is
constructed by ``SafeConstructor`` from the same nodes (never parsed again).
"""

from __future__ import annotations

import math
from typing import Final

from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .yamlspan import STR_TAG

_MAP_TAG: Final = "tag:yaml.org,2002:map"
_SEQ_TAG: Final = "tag:yaml.org,2002:seq"


def metadata(root: Node | None) -> dict[str, object]:
    """The values of a frontmatter's nodes (``{}`` for an empty document). Raises what
    ``SafeConstructor`` raises for a value it cannot construct (a bad date...)."""
    built = _built(root)
    if built is not None:
        return built
    value = SafeConstructor().construct_document(root)
    return value if isinstance(value, dict) else {}


def _built(root: Node | None) -> dict[str, object] | None:
    """What SafeConstructor makes of a mapping of string scalars and lists of them (of an
    empty document, nothing); None for any other node."""
    if root is None:
        return {}
    if type(root) is not MappingNode or root.tag != _MAP_TAG:
        return None
    out: dict[str, object] = {}
    for key, value in root.value:
        if type(key) is not ScalarNode or key.tag != STR_TAG:
            return None
        if type(value) is ScalarNode and value.tag == STR_TAG:
            out[key.value] = value.value
        elif type(value) is SequenceNode and value.tag == _SEQ_TAG and all(
                type(item) is ScalarNode and item.tag == STR_TAG for item in value.value):
            out[key.value] = [item.value for item in value.value]
        else:
            return None
    return out


def same(a: object, b: object) -> bool:
    """Equality that also holds for NaN values, recursively through lists and mappings."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a == b
