"""Primitives every renderer shares (report, report_ci, report_review): showing untrusted text
safely, JSON text, and terminal colour. No decisions and no document shapes live here.

Text from a skill or plan file (entries, witnesses) is untrusted: ``printable`` escapes control
and bidi-override characters, so a crafted entry cannot move the cursor, recolour a terminal or
break a line of a workflow command.
"""

from __future__ import annotations

import json
import re
from typing import Final

from .grants import shorten

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
    def escape(match: re.Match[str]) -> str:
        ch = match.group()
        if keep_newlines and ch == "\n":
            return ch
        return _NAMED.get(ch) or f"\\u{ord(ch):04x}"
    return _UNSAFE.sub(escape, text)


def brief(text: str) -> str:
    """An entry for a message: printable, and cut when it is very long (JSON keeps it whole)."""
    return printable(shorten(text, ENTRY_SHOWN))


def shown(text: str) -> str:
    """``brief(text)``, in double quotes when blank space at an end would be invisible.

    >>> shown("ls"), shown("ls ")
    ('ls', '"ls "')
    """
    if text and text == text.strip():
        return brief(text)
    return '"' + brief(text).replace('"', '\\"') + '"'


_JSON_UNSAFE = re.compile(r"[\x7f-\x9f\u2028\u2029]")


def dumps(document: object) -> str:
    """JSON text, UTF-8 readable, with DEL, C1 controls and line separators escaped."""
    text = json.dumps(document, ensure_ascii=False, indent=2)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


_COLOURS: Final = {"red": "31", "green": "32", "yellow": "33", "bold": "1", "dim": "2"}


class Paint:
    """ANSI colour for text output, or nothing when ``enabled`` is False."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, colour: str) -> str:
        if not self.enabled:
            return text
        return f"\x1b[{_COLOURS[colour]}m{text}\x1b[0m"
