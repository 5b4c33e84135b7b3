"""What a skill's ``disallowed-tools`` removes, as Claude Code 2.1.332 reads it (issue 27,
Deliver 5: "keep it, and show it in reports").

The runtime's ``EHe`` is ``Mx(e["disallowed-tools"] ?? e.disallowedTools)``: the first key
unless it is absent or null, then the second; ``Mx`` is ``allowed-tools``' own reading
(``bgn``: a string, or a list's strings; split at ``' '`` and ``','`` outside parentheses;
``*`` alone if any entry is ``*``; any other value removes nothing). A skill and a plugin
command read it alike. The tools it names are taken from the model while the skill runs, so
the key only narrows what ``allowed-tools`` and the session allow: skillgrant keeps it as
written and shows what it removes (rule SG011). Copilot CLI 1.0.102 does not read the key.

The frontmatter is the runtime's (its span, Bun's reading predicted by ``runtime.predict``,
the re-quote retry included), so what is shown is what the runtime removes; where that reading
cannot be computed (only past a ``---`` inside a value, where the reader does not need it)
nothing is shown.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..grants import runtime_entries
from .dashtab import compose_dash_tabs
from .runtime import Divergence, predict, runtime_frontmatter
from .yamlspan import STR_TAG, YamlProblem, compose, is_str_scalar

#: The two keys, in the order the runtime tries them.
KEYS: Final = ("disallowed-tools", "disallowedTools")
#: A text that holds neither key holds none of this (found at C speed).
_BOTH: Final = "isallowed"
#: A line break of a quoted scalar, with the blank lines after it (``_bun_value``).
_CRLF_RUN: Final = re.compile(r"\r\n((?:[ \t]*\r\n)*)")
#: The plain scalars Bun's YAML 1.2 core schema reads as null or a boolean (measured).
_NOT_STRINGS: Final = frozenset(("", "~", "null", "Null", "NULL", "true", "True", "TRUE",
                                 "false", "False", "FALSE"))


class Removed(NamedTuple):
    """The key the runtime reads (one of ``KEYS``), the entries it removes (possibly none),
    and the key's offset in the file's text."""

    key: str
    entries: tuple[str, ...]
    offset: int


def removed_tools(text: str) -> Removed | None:
    """What the SKILL.md ``text`` (a file the reader took) removes; None when the runtime
    reads neither key (or its reading cannot be computed)."""
    if text.find(_BOTH) < 0:
        return None
    span = runtime_frontmatter(text)
    if span is None or text.find(_BOTH, span.start, span.end) < 0:
        return None
    yaml_text = text[span.start:span.end]
    try:
        try:  # composed as the reader composes it (a tab after a dash as Bun reads it)
            prediction = predict(yaml_text, compose_dash_tabs(yaml_text))
        except YamlProblem as e:
            prediction = predict(yaml_text, None, e)
    except (Divergence, RecursionError):
        return None
    root = prediction.root
    if not isinstance(root, MappingNode):
        return None
    for key in KEYS:
        found = [(k, v) for k, v in root.value if isinstance(k, ScalarNode) and k.value == key]
        if found and not _null(found[-1][1]):  # Bun keeps the last of duplicate keys
            name, value = found[-1]
            line = name.start_mark.line
            try:
                entries = _entries(value, prediction.text)
            except YamlProblem:
                return None
            return Removed(key, entries, span.start + _offset(yaml_text, line, key))
    return None


def _null(node: Node) -> bool:
    return isinstance(node, ScalarNode) and not node.style and node.tag.endswith(":null")


def _entries(node: Node, yaml_text: str) -> tuple[str, ...]:
    """``Mx`` of the value ``node`` (of ``yaml_text``): a string's entries, a list's strings'
    (other items dropped); nothing for any other value."""
    if isinstance(node, SequenceNode):
        return tuple(runtime_entries([_bun_value(item, yaml_text) for item in node.value
                                      if _string(item)]))
    if isinstance(node, ScalarNode) and _string(node):
        return tuple(runtime_entries(_bun_value(node, yaml_text)))
    return ()


def _bun_value(node: ScalarNode, yaml_text: str) -> str:
    """The string Bun reads from ``node``. A quoted scalar over CRLF lines is not folded by
    Bun: each line break it holds reads as one ``\n`` (blank lines, an escaped break too),
    where PyYAML folds a lone break to a space; that is PyYAML's reading of the scalar with
    the first break of each run doubled (measured on 2,156 generated scalars, 0 apart)."""
    start, end = node.start_mark, node.end_mark
    if node.style not in ("'", '"') or start.line == end.line or "\r" not in yaml_text:
        return str(node.value)
    scalar = _CRLF_RUN.sub(lambda m: "\n\n" + m.group(1).replace("\r\n", "\n"),
                           yaml_text[start.index:end.index])
    read = compose("a: " + scalar)
    if not isinstance(read, MappingNode) or not isinstance(read.value[0][1], ScalarNode):
        raise YamlProblem("not one scalar", None)
    return str(read.value[0][1].value)


def _string(node: Node) -> bool:
    """Whether Bun reads ``node`` as a string (``yes``, ``1_000``, a date are strings to it,
    not to PyYAML): a quoted or block scalar, or a plain one that is no null, boolean or
    number of its core schema (``is_str_scalar`` knows its numbers)."""
    if not isinstance(node, ScalarNode):
        return False
    return bool(node.style) or (node.value not in _NOT_STRINGS
                                and is_str_scalar(ScalarNode(STR_TAG, node.value)))


def _offset(yaml_text: str, line: int, key: str) -> int:
    """The offset in ``yaml_text`` of ``key`` on its (0-based) ``line``: the predicted nodes
    may be of the re-quoted text, which keeps the lines (and the keys' text) but not every
    column."""
    start = 0
    for _ in range(line):
        start = yaml_text.index("\n", start) + 1
    end = yaml_text.find("\n", start)
    at = yaml_text.find(key, start, len(yaml_text) if end < 0 else end)
    return start if at < 0 else at
