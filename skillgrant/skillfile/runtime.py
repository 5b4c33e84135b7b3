"""How Claude Code reads a SKILL.md's frontmatter, so a file it would read differently from
skillgrant is refused (semantics §6; docs/runtime-conformance.md has the measurements).

The runtime (2.1.332) strips one BOM, then takes the frontmatter with the JavaScript regex
``^---\\s*\\n([\\s\\S]*?)---\\s*\\n?``: it ends at the first ``---`` *anywhere*, even inside a
value. It parses that text with Bun's YAML 1.2 parser, where U+0085, U+2028 and U+2029 are
not line breaks (PyYAML's YAML 1.1 treats them as breaks). When the parse throws, it rewrites
every line ``key: value`` whose value is unquoted and holds one of ``{}[]*&#!|>%@`` or a
backtick, or ``": "``, as ``key: "value"``, turns leading tabs into spaces, and parses again;
when that throws too, the frontmatter is empty.

skillgrant cannot run Bun's parser, so it refuses whenever the outcome could depend on it:
every reading the runtime may take (the text as written, the re-quoted text, nothing) must give
the same ``allowed-tools`` entries as skillgrant's reading, or none at all. A reading that gives
none grants nothing, which is never wider than the plan.
"""

from __future__ import annotations

import contextlib
import re
from typing import Final, NamedTuple

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..grants import JS_WHITESPACE, split_allowed_tools
from .yamlspan import YamlProblem, compose, is_str_scalar, line_column

KEY: Final = "allowed-tools"

# JavaScript's \s (not Python's), as a character class.
_JS_SPACE: Final = re.escape(JS_WHITESPACE)
_JS_LINE_END: Final = "\n\r\u2028\u2029"  # what JavaScript's '.' does not match
# The opening line of the runtime's frontmatter regex (the module docstring's).
_OPENING: Final = re.compile(f"---[{_JS_SPACE}]*\n")
# Line breaks in YAML 1.1 (PyYAML) that are ordinary characters in YAML 1.2 (Bun).
_BREAKS_11_ONLY: Final = re.compile("[\x85\u2028\u2029]")
_SIMPLE_LINE: Final = re.compile(
    f"([a-zA-Z_-]+):[{_JS_SPACE}]+([^{_JS_SPACE}][^{_JS_LINE_END}]*)\\Z")
_NEEDS_QUOTES: Final = re.compile(r"[{}\[\]*&#!|>%@`]|: ")
_LEADING_TABS: Final = re.compile(f"(?:\\A|(?<=[{_JS_LINE_END}]))\t+")


class Divergence(Exception):
    """The runtime may read ``allowed-tools`` differently; ``offset`` indexes the whole text."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


class RuntimeFrontmatter(NamedTuple):
    """Where the runtime's frontmatter text is in the whole file text."""

    start: int
    end: int


def runtime_frontmatter(text: str) -> RuntimeFrontmatter | None:
    """The span the runtime parses as frontmatter, or None when it sees none."""
    offset = 1 if text.startswith("\ufeff") else 0
    # The runtime's regex, with its lazy scan (a step a character) done by str.find: its
    # closing '---' may be followed by anything, so the first one after the opening ends the
    # frontmatter (tests/test_fast_equivalence.py compares the two).
    opening = _OPENING.match(text, offset)
    if opening is None:
        return None
    end = text.find("---", opening.end())
    return None if end < 0 else RuntimeFrontmatter(opening.end(), end)


def requoted(yaml_text: str) -> str:
    """The runtime's second attempt at text its YAML parser rejected."""
    lines = []
    for line in yaml_text.split("\n"):
        match = _SIMPLE_LINE.match(line)
        if match is not None:
            key, value = match.groups()
            quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'"
            if not quoted and not _is_flow_list(value) and _NEEDS_QUOTES.search(value):
                escaped = value.replace("\\", "\\\\").replace('"', '\\"')
                line = f'{key}: "{escaped}"'
        lines.append(line)
    return _LEADING_TABS.sub(lambda m: "  " * len(m.group()), "\n".join(lines))


def _is_flow_list(value: str) -> bool:
    if not (value.startswith("[") and value.endswith("]")):
        return False
    try:
        node = compose(value)
    except YamlProblem:
        return False
    return isinstance(node, SequenceNode)


def _entries_in(yaml_text: str) -> tuple[str, ...] | None:
    """The ``allowed-tools`` entries of one reading (None: no such key), as the runtime keeps
    them: strings only. Raises YamlProblem when the text does not parse."""
    root = compose(yaml_text)
    if not isinstance(root, MappingNode):
        return None
    values = [value for key, value in root.value
              if isinstance(key, ScalarNode) and is_str_scalar(key) and key.value == KEY]
    if not values:
        return None
    if len(values) > 1:  # which one Bun keeps is not known: a reading that never matches ours
        return ("<duplicate allowed-tools keys>",)
    return tuple(split_allowed_tools(_strings(values[0])))


def _strings(node: Node) -> list[str]:
    if isinstance(node, SequenceNode):
        return [item.value for item in node.value
                if isinstance(item, ScalarNode) and is_str_scalar(item)]
    if isinstance(node, ScalarNode) and is_str_scalar(node):
        return [node.value]
    return []


def could_hold_key(yaml_text: str) -> bool:
    """Whether some YAML reading of the text could have an ``allowed-tools`` key: it must be
    written out, or spelled with escapes."""
    return KEY in yaml_text or "\\" in yaml_text


def check(text: str, yaml_start: int, yaml_end: int, entries: tuple[str, ...] | None,
          flat: bool = False) -> str | None:
    """Compare the runtime's possible readings with skillgrant's (``entries``, None when the
    key is absent) for the frontmatter at ``yaml_start``..``yaml_end`` of ``text``.

    Returns None when they agree, or a sentence when the runtime never sees the key (it
    grants nothing then). Raises Divergence when they could differ.

    ``flat``: the frontmatter is flat ``key: value`` lines (``flatyaml`` composed it). When
    the key is there (a string) and the runtime's frontmatter is the same text, the readings
    agree without composing the re-quoted text: ``requoted`` rewrites line by line and leaves
    a flat text flat (a re-quoted value is a double-quoted scalar with only ``\\\\`` and
    ``\\"`` as escapes), so every key stays where it was and each line reads alone. The
    ``allowed-tools`` line either stays as it is, or its value is plain and becomes exactly
    that value less the blank space JavaScript strips at its start (a double-quoted one
    begins and ends with a quote, so it is left alone), and that space is a separator
    skillgrant's split drops at the start of a value: the same entries. Nothing in a flat
    text is a YAML 1.1-only line break either. tests/test_flat_readback.py compares this with
    the re-quoted reading on generated texts.
    """
    span = runtime_frontmatter(text)
    odd = None if text.isascii() else _BREAKS_11_ONLY.search(
        text, yaml_start, max(yaml_end, span.end if span else 0))
    if odd is not None:
        raise Divergence(f"U+{ord(odd.group()):04X} in the frontmatter: PyYAML reads it as a "
                         "line break and Claude Code's YAML 1.2 parser as an ordinary "
                         "character, so the two read different values", odd.start())
    if span is None:
        return None if entries is None else (
            f"Claude Code finds no frontmatter in this file, so it never reads {KEY}")
    theirs = text[span.start:span.end]
    # The runtime's text ends elsewhere: at a '---' inside a value, or past a '...' fence.
    moved = span.end != yaml_end
    if not could_hold_key(theirs):
        if entries is None:
            return None
        return (f"Claude Code ends the frontmatter at the first '---' (line "
                f"{line_column(text, span.end)[0]}), before {KEY}, so it never reads it")
    if flat and entries is not None and span == (yaml_start, yaml_end):
        return None  # every reading is skillgrant's: see the docstring
    readings = _readings(text, span, entries, moved=moved)
    for how, got in readings:
        if got is not None and got != entries:
            where = _key_line(text, span.start, span.end)
            ours = "no " + KEY if entries is None else repr(list(entries))
            raise Divergence(f"Claude Code may read {KEY} as {list(got)!r} {how}, where "
                             f"skillgrant reads {ours}; write the frontmatter so both read "
                             "it the same (quote the value, drop inline comments and "
                             "unbalanced brackets)", where)
    if entries is not None and all(got is None for _, got in readings):
        return f"Claude Code reads no {KEY} in this frontmatter, so it grants nothing from it"
    return None


def _readings(text: str, span: RuntimeFrontmatter, entries: tuple[str, ...] | None, *,
              moved: bool) -> list[tuple[str, tuple[str, ...] | None]]:
    """Each way the runtime may read its frontmatter: how (said in a message) and the entries
    it then finds. Raises Divergence when a reading cannot be predicted."""
    theirs = text[span.start:span.end]
    readings: list[tuple[str, tuple[str, ...] | None]] = []
    if moved:
        try:
            readings.append(("(it ends the frontmatter at the first '---')",
                             _entries_in(theirs)))
        except YamlProblem as e:
            raise Divergence(f"Claude Code ends the frontmatter at the first '---' (line "
                             f"{line_column(text, span.end)[0]}), and what it reads then "
                             f"cannot be predicted ({e.message})", span.end) from e
    else:
        readings.append(("", entries))
    retry = requoted(theirs)
    # When the second attempt fails too, the runtime reads no frontmatter at all.
    if retry != theirs:
        with contextlib.suppress(YamlProblem):
            readings.append(("(it re-quotes simple 'key: value' lines when its YAML parser "
                             "rejects the frontmatter)", _entries_in(retry)))
    return readings


def _key_line(text: str, start: int, end: int) -> int:
    found = text.find(KEY, start, end)
    return text.rfind("\n", 0, found) + 1 if found >= 0 else start
