"""python-frontmatter's reading of a SKILL.md, which ``spans`` cross-checks against its own.

``frontmatter.parse`` finds the frontmatter text with its own fences, then loads it with PyYAML
(composing it again, then constructing Python values). ``metadata`` takes the same steps with
python-frontmatter's own functions, up to the load; and when the text it would load is the
text skillgrant composed with one line break before it (a leading blank line changes no YAML
value, unless the text opens with a BOM) and the loader is the one skillgrant composes with,
the load is done from skillgrant's nodes: for a mapping of string scalars (and lists of
them), ``SafeConstructor`` gives each key's string, a later duplicate winning, and that is what
is built here. Anything else is loaded by python-frontmatter as before. tests/test_flatyaml.py
compares this with ``frontmatter.parse`` on tables and generated texts.
"""

from __future__ import annotations

import math
from typing import Final

import frontmatter
from frontmatter import default_handlers
from frontmatter.util import u
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .yamlspan import LOADER, STR_TAG

_OWN_LOAD: Final = default_handlers.YAMLHandler.load
_MAP_TAG: Final = "tag:yaml.org,2002:map"
_SEQ_TAG: Final = "tag:yaml.org,2002:seq"


def metadata(text: str, yaml_text: str, root: Node | None) -> dict[str, object]:
    """``frontmatter.parse(text)[0]``, from ``root`` (``yaml_text`` composed with ``LOADER``)
    when that is certainly the same. Raises what ``frontmatter.parse`` raises."""
    loads = loads_composed(text, yaml_text)
    if loads is None:
        return {}  # no closing fence for python-frontmatter: it reads no metadata
    built = _built(root) if loads else None
    return _parsed(text) if built is None else built


def loads_composed(text: str, yaml_text: str) -> bool | None:
    """True when ``frontmatter.parse(text)`` loads ``yaml_text`` (with one line break before
    it) with ``LOADER``, through its own YAML handler: its metadata is then what
    SafeConstructor makes of skillgrant's nodes. None when it finds no closing fence (it reads
    no metadata); False for anything else (it must be asked)."""
    stripped = u(text).strip()
    handler = frontmatter.detect_format(stripped, frontmatter.handlers)
    if (type(handler) is not default_handlers.YAMLHandler
            or type(handler).load is not _OWN_LOAD or default_handlers.SafeLoader is not LOADER):
        return False
    try:
        loaded, _ = handler.split(stripped)
    except ValueError:
        return None
    # A BOM opening yaml_text is dropped there, but after the line break it is not.
    return loaded == "\n" + yaml_text and not yaml_text.startswith("\ufeff")


def _parsed(text: str) -> dict[str, object]:
    found, _ = frontmatter.parse(text)
    return found


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
