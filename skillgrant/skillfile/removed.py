"""What a skill's ``disallowed-tools`` removes, as Claude Code 2.1.332 reads it (issue 27,
Deliver 5: "keep it, and show it in reports").

The runtime's ``EHe`` is ``Mx(e["disallowed-tools"] ?? e.disallowedTools)``: the first key
unless it is absent or null, then the second; ``Mx`` is ``allowed-tools``' own reading
(``bgn``: a string, or a list's strings; split at ``' '`` and ``','`` outside parentheses;
``*`` alone if any entry is ``*``; any other value removes nothing). A skill and a plugin
command read it alike. The tools it names are taken from the model while the skill runs, so
the key only narrows what ``allowed-tools`` and the session allow: skillgrant keeps it as
written and shows what it removes (rule SG011). Copilot CLI 1.0.102 does not read the key.

The frontmatter is the runtime's (``keyread``: its span, Bun's reading predicted by
``runtime.predict``, the re-quote retry included), so what is shown is what the runtime
removes; where that reading cannot be computed (only past a ``---`` inside a value, where
the reader does not need it) nothing is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..grants import runtime_entries
from .keyread import Unreadable, bun_string, is_null, is_string, last, runtime_mapping
from .runtime import runtime_frontmatter

if TYPE_CHECKING:
    from .doc import SkillDoc

#: The two keys, in the order the runtime tries them.
KEYS: Final = ("disallowed-tools", "disallowedTools")
#: A text that holds neither key holds none of this (found at C speed), unless a key is
#: spelled with a double-quoted scalar's escapes (``"d\x69sallowed-tools"``: s61-sreview).
_BOTH: Final = "isallowed"


class Removed(NamedTuple):
    """The key the runtime reads (one of ``KEYS``), the entries it removes (possibly none),
    and the key's offset in the file's text."""

    key: str
    entries: tuple[str, ...]
    offset: int


def removed_tools(text: str, doc: SkillDoc | None = None) -> Removed | None:
    """What the SKILL.md ``text`` (a file the reader took) removes; None when the runtime
    reads neither key (or its reading cannot be computed). ``doc``: the reader's document of
    ``text``, whose runtime frontmatter and, where it knows them, Bun's nodes of it
    (``SkillDoc.runtime_span``, ``runtime_nodes``) are taken rather than worked out again."""
    span = runtime_frontmatter(text) if doc is None else doc.runtime_span
    if span is None:  # (runtime_mapping's None)
        return None
    if text.find(_BOTH, span.start, span.end) < 0 and text.find("\\", span.start,
                                                                span.end) < 0:
        return None  # (no key spelled plainly, nor with escapes, where the runtime reads)
    nodes = () if doc is None else doc.runtime_nodes
    try:
        if nodes:  # (runtime_mapping's reading: the reader's own nodes, read as written)
            root, yaml_text = nodes[0], text[span.start:span.end]
        else:
            read = runtime_mapping(text)
            if read is None:
                return None
            root, yaml_text = read[0], read[1].text
        if not isinstance(root, MappingNode):
            return None
        start = span.start
        for key in KEYS:
            found = last(root, key)
            if found is not None and not is_null(found[1]):
                line = found[0].start_mark.line
                entries = _entries(found[1], yaml_text)
                return Removed(key, entries, start + _offset(text, start, line, key))
    except Unreadable:
        return None
    return None


def _entries(node: Node, yaml_text: str) -> tuple[str, ...]:
    """``Mx`` of the value ``node`` (of ``yaml_text``): a string's entries, a list's strings'
    (other items dropped); nothing for any other value."""
    if isinstance(node, SequenceNode):
        return tuple(runtime_entries([bun_string(item, yaml_text) for item in node.value
                                      if is_string(item)]))
    if isinstance(node, ScalarNode) and is_string(node):
        return tuple(runtime_entries(bun_string(node, yaml_text)))
    return ()


def _offset(text: str, start: int, line: int, key: str) -> int:
    """The offset from ``start`` of ``key`` on its (0-based) ``line`` of the frontmatter that
    starts there: the predicted nodes may be of the re-quoted text, which keeps the lines (and
    the keys' text) but not every column."""
    at = start
    for _ in range(line):
        at = text.index("\n", at) + 1
    end = text.find("\n", at)
    found = text.find(key, at, len(text) if end < 0 else end)
    return (at if found < 0 else found) - start
