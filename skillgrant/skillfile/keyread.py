"""One frontmatter key as Claude Code 2.1.332 reads it, for the readers of keys other than
``allowed-tools`` (``removed``: ``disallowed-tools``; the gate's ``skillfiles``: ``name``):
the runtime's frontmatter span, Bun's reading of it predicted by ``runtime.predict`` (the
re-quote retry included, a tab after a list item's dash as Bun reads it), the last of
duplicate keys, and a scalar's value as Bun types and folds it.
"""

from __future__ import annotations

import re
from typing import Final

from yaml.nodes import MappingNode, Node, ScalarNode

from .dashtab import compose_dash_tabs
from .runtime import Divergence, Prediction, predict, runtime_frontmatter
from .yamlspan import STR_TAG, YamlProblem, compose, is_str_scalar

#: The plain scalars Bun's YAML 1.2 core schema reads as null or a boolean (measured).
_NOT_STRINGS: Final = frozenset(("", "~", "null", "Null", "NULL", "true", "True", "TRUE",
                                 "false", "False", "FALSE"))
#: A line break of a quoted scalar, with the blank lines after it (``bun_string``).
_BREAK_RUN: Final = re.compile(r"(\r?\n)((?:[ \t]*\r?\n)*+)")


class Unreadable(Exception):
    """What the runtime reads there cannot be computed."""


def runtime_mapping(text: str) -> tuple[MappingNode, Prediction, int] | None:
    """The frontmatter of the SKILL.md ``text`` as the runtime reads it: its mapping's nodes,
    the prediction they are of, and where the runtime's frontmatter starts in ``text``; None
    when the runtime reads no mapping there (no frontmatter, not a mapping, both parses
    rejected). Raises Unreadable when Bun's reading cannot be computed."""
    span = runtime_frontmatter(text)
    if span is None:
        return None
    yaml_text = text[span.start:span.end]
    try:
        try:  # composed as the reader composes it (a tab after a dash as Bun reads it)
            prediction = predict(yaml_text, compose_dash_tabs(yaml_text))
        except YamlProblem as e:
            prediction = predict(yaml_text, None, e)
    except (Divergence, RecursionError) as e:
        raise Unreadable(str(e)) from e
    root = prediction.root
    return (root, prediction, span.start) if isinstance(root, MappingNode) else None


def last(root: MappingNode, key: str) -> tuple[ScalarNode, Node] | None:
    """The last ``key`` of ``root`` and its value (Bun keeps the last of duplicates)."""
    found = [(k, v) for k, v in root.value if isinstance(k, ScalarNode) and k.value == key]
    return found[-1] if found else None


def is_null(node: Node) -> bool:
    """Whether Bun reads ``node`` as null."""
    return isinstance(node, ScalarNode) and not node.style and node.tag.endswith(":null")


def is_string(node: Node) -> bool:
    """Whether Bun reads ``node`` as a string (``yes``, ``1_000``, a date are strings to it,
    not to PyYAML): a quoted or block scalar, or a plain one that is no null, boolean or
    number of its core schema (``is_str_scalar`` knows its numbers)."""
    if not isinstance(node, ScalarNode):
        return False
    return bool(node.style) or (node.value not in _NOT_STRINGS
                                and is_str_scalar(ScalarNode(STR_TAG, node.value)))


def _doubled(run: re.Match[str]) -> str:
    """A run of line breaks as PyYAML reads Bun's: its first doubled if a CRLF."""
    first, rest = run.groups()
    return ("\n\n" if first == "\r\n" else first) + rest.replace("\r\n", "\n")


def bun_string(node: ScalarNode, yaml_text: str) -> str:
    """The string Bun reads from ``node`` (a string: ``is_string``) of ``yaml_text``. A quoted
    scalar over CRLF lines is not folded by Bun: each line break it holds reads as one
    ``\\n`` (blank lines, an escaped break too), where PyYAML folds a lone break to a space;
    that is PyYAML's reading of the scalar with the first break of each run doubled where it is
    a CRLF (measured on 2,156 generated scalars, 0 apart; a run led by an LF folds as PyYAML's:
    review s49-freview D1). Raises Unreadable when that reading fails."""
    start, end = node.start_mark, node.end_mark
    if node.style not in ("'", '"') or start.line == end.line or "\r" not in yaml_text:
        return str(node.value)
    scalar = _BREAK_RUN.sub(_doubled, yaml_text[start.index:end.index])
    try:
        read = compose("a: " + scalar)
    except YamlProblem as e:
        raise Unreadable(e.message) from e
    if not isinstance(read, MappingNode) or not isinstance(read.value[0][1], ScalarNode):
        raise Unreadable("not one scalar")
    return str(read.value[0][1].value)

