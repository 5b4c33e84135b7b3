"""The YAML most frontmatter is, composed without the YAML parser: a block mapping of
``key: value`` lines, each value a plain or a simply double-quoted scalar on its own line.

``compose_flat`` gives exactly the nodes ``yaml.compose(text, Loader=LOADER)`` gives for such
a text (tags, values, styles, marks), or None for any other text, which the caller composes
with the parser as before. A batch reads several such texts a file (the frontmatter, the
runtime's re-quoted reading of it); libyaml spends most of its time on them calling back into
Python (the resolver, the node classes), so this path is a few times faster.

Why the nodes are the same: every line is ``KEY: VALUE\\n`` with the key a plain scalar at
column 0 and the value on the key's line, so the mapping's indentation is 0 and no value can
continue onto the next line (a continuation needs a line indented past 0, and every line
starts with a key's letter). A plain value is taken only when its text cannot mean anything
but itself (``plain_ok``'s rules: no indicator first, no ``": "``, no ``" #"``, no ``":"`` at
the end, no blank space at either end, printable characters only, no tab); a double-quoted one
only with ``\\\\`` and ``\\"`` as its escapes. Tags come from PyYAML's own resolver. No blank
lines, comments, directives, ``---``/``...`` lines, anchors, tags or aliases can occur, so
neither aliases nor merge keys (``<<`` is no key here) nor nesting need checking.
tests/test_flatyaml.py compares this with the parser on tables and generated texts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final, NamedTuple

import yaml
from yaml.nodes import MappingNode, ScalarNode

# The parser's, when it is libyaml; both count characters the same way.
LOADER: Final[type[yaml.SafeLoader]] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_LIBYAML: Final = LOADER is not yaml.SafeLoader
_MARK: Final[Callable[..., Any]] = (
    yaml._yaml.Mark if _LIBYAML else yaml.error.Mark)
#: libyaml writes a plain scalar's style as "", the pure-Python composer as None.
_PLAIN_STYLE: Final = "" if _LIBYAML else None
_NAME: Final = "<unicode string>"
_STR: Final = "tag:yaml.org,2002:str"
_MAP: Final = "tag:yaml.org,2002:map"

# A line after the first whose first character is not a letter: no key of _LINE starts it
# (nor, at the end of the text, any line: the class needs a character). A search for a
# literal first character, which the regex engine scans for at C speed.
_NOT_A_KEY_FIRST: Final = re.compile(r"\n[^A-Za-z]")
# One line: the key, the blank space after its colon, the value (checked further below).
# A key is at most 1,024 characters: the parser refuses a longer simple key (its
# scanner's limit: "mapping values are not allowed here" at the colon).
_LINE: Final = re.compile(r"([A-Za-z][A-Za-z0-9_-]{0,1023}): +([^\n]*)\n")
# The printable characters a plain or double-quoted scalar may hold as they are (no tab, no
# line break of YAML 1.1, no BOM, no surrogate): yamlspan's _SAFE_CHARS.
_SAFE: Final = re.compile(r"[^\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]*")
_PLAIN_FIRST: Final = frozenset("-?:,[]{}#&*!|>'\"%@` ")
# (Unrolled: runs of other characters taken whole, not one alternation a character.)
_DOUBLE: Final = re.compile(r'"([^"\\]*(?:\\[\\"][^"\\]*)*)"')
_RESOLVER: Final = yaml.resolver.Resolver()
# A plain scalar can resolve to something other than a string only from these first
# characters (PyYAML's implicit resolvers are keyed by them).
_RESOLVED_FIRST: Final = frozenset(
    ch for ch in _RESOLVER.yaml_implicit_resolvers if ch is not None)
_tags: dict[str, str] = {}


class FlatLine(NamedTuple):
    """One ``key: value`` line of a flat text as ``compose_flat`` reads it: where it starts,
    its key and the key's tag, where the value starts and how it is written (``raw``), and the
    value's tag, string and scalar style."""

    start: int
    key: str
    key_tag: str
    value_at: int
    raw: str
    tag: str
    value: str
    style: str | None


def flat_lines(text: str) -> list[FlatLine] | None:
    """The lines of a flat text (each ending in ``\\n``), or None for any other text: what
    ``compose_flat`` builds its nodes from."""
    if (not text.endswith("\n") or not ("A" <= text[0] <= "Z" or "a" <= text[0] <= "z")
            or _NOT_A_KEY_FIRST.search(text)):
        return None
    lines = []
    pos = 0
    end = len(text)
    match = _LINE.match
    make = FlatLine._make
    while pos < end:
        found = match(text, pos)
        if found is None:
            return None
        key, raw = found.group(1, 2)
        value = _value(raw)
        if value is None:
            return None
        # _make is tuple.__new__ itself: no Python frame a line, as FlatLine(...) has.
        lines.append(make((pos, key, _tags.get(key) or _key_tag(key), found.start(2), raw,
                           *value)))
        pos = found.end()
    return lines


def compose_flat(text: str) -> MappingNode | None:
    """``yaml.compose(text, Loader=LOADER)`` for a text of flat ``key: value`` lines (each
    ending in ``\\n``); None for any other text.

    >>> node = compose_flat("name: x\\nallowed-tools: Read, Grep\\n")
    >>> [(k.value, v.value) for k, v in node.value]
    [('name', 'x'), ('allowed-tools', 'Read, Grep')]
    """
    lines = flat_lines(text)
    if lines is None:
        return None
    pairs = []
    mark = _MARK
    for line, (pos, key, key_tag, value_at, raw, tag, value, style) in enumerate(lines):
        key_end = pos + len(key)
        value_end = value_at + len(raw)
        pairs.append((
            ScalarNode(key_tag, key, mark(_NAME, pos, line, 0, None, None),
                       mark(_NAME, key_end, line, key_end - pos, None, None), _PLAIN_STYLE),
            ScalarNode(tag, value, mark(_NAME, value_at, line, value_at - pos, None, None),
                       mark(_NAME, value_end, line, value_end - pos, None, None), style)))
    root = MappingNode(_MAP, pairs, mark(_NAME, 0, 0, 0, None, None),
                       mark(_NAME, len(text), len(lines), 0, None, None), False)
    setattr(root, _FLAT_OF, text)  # (an attribute the node class does not declare)
    return root


#: The attribute of a root ``compose_flat`` made, naming the text it was made of.
_FLAT_OF: Final = "flat_text"


def composed_flat(root: object, text: str) -> bool:
    """Whether ``root`` is ``compose_flat``'s nodes of ``text`` (which are exactly PyYAML's)."""
    return getattr(root, _FLAT_OF, None) == text


def read_line(line: str) -> tuple[str, str, str, str] | None:
    """One flat line (without its line break) as ``compose_flat`` reads it: the key's tag and
    string, the value's tag and string; None when ``compose_flat(line + "\\n")`` is None."""
    lines = flat_lines(line + "\n")
    if lines is None or len(lines) != 1:
        return None
    read = lines[0]
    return read.key_tag, read.key, read.tag, read.value


def _value(raw: str) -> tuple[str, str, str | None] | None:
    """A value's tag, string and style, or None when it is not one this path reads."""
    # Of ASCII, the printable characters are exactly the ones _SAFE takes (space to '~').
    if not raw or not ((raw.isascii() and raw.isprintable()) or _SAFE.fullmatch(raw)):
        return None
    first = raw[0]
    if first == '"':
        quoted = _DOUBLE.fullmatch(raw)
        if quoted is None:
            return None
        inner = quoted.group(1)
        return _STR, _unescaped(inner) if "\\" in inner else inner, '"'
    if (first in _PLAIN_FIRST or raw[-1] in " :" or ": " in raw or " #" in raw):
        return None
    return plain_tag(raw), raw, _PLAIN_STYLE


def _unescaped(inner: str) -> str:
    r"""The string of a double-quoted scalar whose text between the quotes is ``inner``, made
    of other characters than ``\`` and ``"``, and the escapes ``\\`` and ``\"`` (``_DOUBLE``):
    each escape's backslash dropped. Every backslash of ``inner`` starts an escape or ends a
    ``\\``, so a search from the left for ``\\`` finds just the ``\\`` escapes (the first
    backslash it meets starts one): what lies between them holds only ``\"`` escapes. By
    ``str`` methods, at C speed (``re.sub`` with a template calls Python for each escape)."""
    return "\\".join(part.replace('\\"', '"') for part in inner.split("\\\\"))


def plain_tag(plain: str) -> str:
    """The tag PyYAML's resolver gives ``plain``, a plain scalar's string (not empty): a
    string's at once when no implicit resolver is keyed by its first character (the resolver
    tries only those, and no resolver is keyed by none: ``_RESOLVED_FIRST``)."""
    return _tag(plain) if plain[0] in _RESOLVED_FIRST else _STR


def _tag(plain: str) -> str:
    """The tag PyYAML's resolver gives a plain scalar."""
    tag: str = _RESOLVER.resolve(ScalarNode, plain, (True, False))  # type: ignore[no-untyped-call]
    return tag


def _key_tag(key: str) -> str:
    """``_tag`` of a key, remembered: a batch meets the same few keys in every file."""
    tag = _tag(key)
    if len(_tags) < _MAX_TAGS:
        _tags[key] = tag
    return tag


#: Key tags remembered at most.
_MAX_TAGS: Final = 1024
