"""Primitives every renderer shares: showing untrusted text safely, message wording, JSON text,
and terminal colour. No decisions and no document shapes live here.

Text from a skill or plan file (entries, witnesses) is untrusted: ``printable`` escapes control
and bidi-override characters, so a crafted entry cannot move the cursor, recolour a terminal or
break a line of a workflow command.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from json.encoder import encode_basestring as _string
from typing import Any, Final

from ..grants import shorten

#: Characters of an entry or witness shown in text, github, sarif and markdown messages.
ENTRY_SHOWN: Final = 160

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e"
                     r"\u2066-\u2069]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\x1b": "\\e"}


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with control and bidi-override characters shown as escapes.

    >>> printable("rm -rf /\\x1b[2J")
    'rm -rf /\\\\e[2J'
    """
    if text.isascii() and text.isprintable():  # of ASCII, _UNSAFE holds only what is not
        return text

    def escape(match: re.Match[str]) -> str:
        ch = match.group()
        if keep_newlines and ch == "\n":
            return ch
        return _NAMED.get(ch) or f"\\u{ord(ch):04x}"
    return _UNSAFE.sub(escape, text)


def brief(text: str) -> str:
    """An entry for a message: printable, and cut when it is very long (JSON keeps it whole).

    Remembered for short texts (a report shows each entry several times, and the plan's in
    every file): the same string gives the same text."""
    if len(text) <= ENTRY_SHOWN and text.isascii() and text.isprintable():
        return text  # nothing to cut or show as an escape (printable's own first case)
    found = _briefs.get(text)
    if found is None:
        found = printable(shorten(text, ENTRY_SHOWN))
        if len(text) <= _BRIEF_KEPT_CHARS and type(text) is str:
            if len(_briefs) >= MAX_BRIEFS:
                _briefs.clear()
            _briefs[text] = found
    return found


#: Texts ``brief`` remembers at most, and the longest it remembers.
MAX_BRIEFS: Final = 4096
_BRIEF_KEPT_CHARS: Final = 1024
_briefs: dict[str, str] = {}


def shown(text: str) -> str:
    """``brief(text)``, in double quotes when blank space at an end would be invisible.

    >>> shown("ls"), shown("ls ")
    ('ls', '"ls "')
    """
    if text and text == text.strip():
        return brief(text)
    return '"' + brief(text).replace('"', '\\"') + '"'


def one_line(text: str) -> str:
    """A message for one line: its first line, printable, and cut when an entry inside it is
    very long."""
    return printable(shorten(text.split("\n", 1)[0], 600))


def plural(count: int, noun: str) -> str:
    """``1 finding``, ``2 findings``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


# --- JSON text ------------------------------------------------------------------------------

_JSON_UNSAFE = re.compile(r"[\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def dumps(document: object) -> str:
    """JSON text, UTF-8 readable, with DEL, C1 controls, line separators and lone surrogates (a
    file name's byte that is not UTF-8) escaped: the text of ``json.dumps(document,
    ensure_ascii=False, indent=2)``, then ``safe_json``."""
    return safe_json(encode(document)) + "\n"


def safe_json(text: str) -> str:
    """JSON text with DEL, C1 controls, line separators and lone surrogates written as ``\\u``
    escapes."""
    if text.isascii() and "\x7f" not in text:  # of those, only DEL is ASCII
        return text
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def encode(value: object, level: int = 0) -> str:
    """``value`` as ``json.dumps(value, ensure_ascii=False, indent=2)`` writes it, its inner
    lines indented as if it stood ``level`` levels deep (a fragment of a larger document), by
    the writer ``JSON_WRITER`` names.

    >>> encode({"a": [1, "x"], "b": {}})
    '{\\n  "a": [\\n    1,\\n    "x"\\n  ],\\n  "b": {}\\n}'
    """
    return JSON_WRITERS[JSON_WRITER](value, level)


def _stdlib_text(value: object, level: int = 0) -> str:
    text = json.dumps(value, ensure_ascii=False, indent=2)
    return text.replace("\n", "\n" + "  " * level) if level else text


class _Unsupported(Exception):
    """A value ``_fast_text`` leaves to ``json.dumps`` (floats, other types, deep nesting)."""


#: Nesting past this is left to ``json.dumps``, which also detects a circular document.
_MAX_FAST_DEPTH: Final = 64


def _fast_text(value: object, level: int = 0) -> str:
    out: list[str] = []
    try:
        _write(value, out, level)
    except (_Unsupported, TypeError):  # TypeError: a key the string encoder does not take
        return _stdlib_text(value, level)
    return "".join(out)


def _write(value: object, out: list[str], level: int) -> None:
    text = _scalar(value)
    if text is not None:
        out.append(text)
    elif isinstance(value, dict):
        if value:
            _object(value, out, level)
        else:
            out.append("{}")
    elif isinstance(value, (list, tuple)):
        if value:
            _array(value, out, level)
        else:
            out.append("[]")
    else:
        raise _Unsupported


def _scalar(value: object) -> str | None:
    """A string, integer, boolean or null as JSON text (a subclass, such as a StrEnum, as its
    base: as json writes it); None for anything else."""
    if isinstance(value, str):
        return _string(value)
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return int.__repr__(value)
    return None


def _object(value: dict[Any, Any], out: list[str], level: int) -> None:
    """An object's members, each ``"key": value`` on its own line."""
    if level >= _MAX_FAST_DEPTH:
        raise _Unsupported
    separator = "{" + _INDENTS[level + 1]
    for key, item in value.items():
        # ``_scalar`` without a call for the members a report is mostly made of.
        kind = type(item)
        text = (_string(item) if kind is str else "null" if item is None
                else "true" if item is True else "false" if item is False
                else int.__repr__(item) if kind is int else _scalar(item))
        if text is not None:
            out.append(separator + _string(key) + ": " + text)
        else:
            out.append(separator + _string(key) + ": ")
            _write(item, out, level + 1)
        separator = _COMMAS[level + 1]
    out.append(_INDENTS[level] + "}")


def _array(value: list[Any] | tuple[Any, ...], out: list[str], level: int) -> None:
    """A list's items, each on its own line."""
    if level >= _MAX_FAST_DEPTH:
        raise _Unsupported
    separator = "[" + _INDENTS[level + 1]
    for item in value:
        text = _scalar(item)
        if text is not None:
            out.append(separator + text)
        else:
            out.append(separator)
            _write(item, out, level + 1)
        separator = _COMMAS[level + 1]
    out.append(_INDENTS[level] + "]")


class NotLaidOut(Exception):
    """A value a renderer's own layout (``scalar``, ``strings``) does not write: the renderer
    leaves the whole object to ``encode``."""


def scalar(value: object) -> str:
    """A string, integer, boolean or null as ``encode`` writes it; NotLaidOut for anything
    else."""
    # _scalar's cases, in the order a report meets them and without its isinstance calls: a
    # batch makes about fifty of these a file, and calling _scalar for each cost 20,000
    # instructions a file more (docs/performance.md). Anything else goes to _scalar.
    if type(value) is str:
        return _string(value)
    if type(value) is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    text = _scalar(value)
    if text is None:
        raise NotLaidOut
    return text


def strings(values: list[str] | tuple[str, ...], level: int) -> str:
    """A list of strings as ``encode`` writes it standing ``level`` levels deep; NotLaidOut
    when an item is not a string."""
    if not values:
        return "[]"
    if not all(type(value) is str for value in values):
        raise NotLaidOut
    return ("[" + _INDENTS[level + 1] + _COMMAS[level + 1].join(map(_string, values))
            + _INDENTS[level] + "]")


def object_template(keys: tuple[str, ...], level: int) -> str:
    """The text of an object's members standing ``level`` levels deep, as ``encode`` writes
    them after the opening brace, with a ``%s`` for each member's value (``template %
    values``); the closing line is the caller's."""
    return "{" + _INDENTS[level + 1] + _COMMAS[level + 1].join(
        _string(key).replace("%", "%%") + ": %s" for key in keys)


# A line break and the indentation of each level, and the same after a comma: made once.
_INDENTS: Final = tuple("\n" + "  " * level for level in range(_MAX_FAST_DEPTH + 1))
_COMMAS: Final = tuple("," + indent for indent in _INDENTS)

#: The JSON writers, by name. Each writes the text ``json.dumps(value, ensure_ascii=False,
#: indent=2)`` writes (tests/test_fast_equivalence.py runs the renderers with each): ``stdlib``
#: is that call, whose indenting encoder is pure Python; ``fast`` lays the text out itself
#: around the standard library's C string encoder, and leaves what it does not handle (floats,
#: keys that are not strings, other types, deep nesting) to ``stdlib``.
JSON_WRITERS: Final[dict[str, Callable[[object, int], str]]] = {
    "stdlib": _stdlib_text,
    "fast": _fast_text,
}
#: The writer every renderer uses, chosen here: ``fast`` writes a batch's file objects about
#: 1.5 times as fast as ``stdlib`` (``benchmarks/run.py json``).
JSON_WRITER = "fast"


_COLOURS: Final = {"red": "31", "green": "32", "yellow": "33", "bold": "1", "dim": "2"}


class Paint:
    """ANSI colour for text output, or nothing when ``enabled`` is False."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, colour: str) -> str:
        if not self.enabled:
            return text
        return f"\x1b[{_COLOURS[colour]}m{text}\x1b[0m"
