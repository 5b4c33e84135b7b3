"""The Lark LALR parser for one entry, loaded once.

This is the only module that sees Lark: its trees become a plain ``ParsedEntry`` here, and
``lark.UnexpectedInput`` becomes ``GrantSyntaxError`` here and nowhere else.

The grammar is regular (a name, then optionally a parenthesized content), so an entry it
accepts is also read by one regular expression made of the grammar's own two terminals,
without loading Lark (about a sixth of a cold ``check``). Lark parses what that expression
does not match, so every syntax error is Lark's; tests/test_parse_fast.py checks that the
terminals here are the grammar's and that both give the same answer on generated entries.
"""

from __future__ import annotations

import os
import re
from functools import cache

from .errors import GrantSyntaxError
from .records import NamedTuple

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

    from lark import Lark
    from lark.exceptions import UnexpectedInput

_GRAMMAR = "grants.lark"


class ParsedEntry(NamedTuple):
    """The two parts of an entry: the tool name and the raw content (None when bare)."""

    name: str
    content: str | None


def grammar_text() -> str:
    """The grammar, read from the installed package, or from the checkout when run from source."""
    # os.path, not pathlib: the call gate's hook never imports pathlib (STYLE habit 10)
    here = os.path.dirname(os.path.realpath(__file__))
    for candidate in (os.path.join(here, "grammar", _GRAMMAR),
                      os.path.join(os.path.dirname(here), "grammar", _GRAMMAR)):
        if os.path.isfile(candidate):
            with open(candidate, encoding="utf-8") as grammar:
                return grammar.read()
    from importlib import resources  # a package imported from a zip file

    return (resources.files("skillgrant") / "grammar" / _GRAMMAR).read_text(encoding="utf-8")


_OPTIONS: Final = {"parser": "lalr", "lexer": "contextual", "propagate_positions": False}


@cache
def _parser() -> Lark:
    # Imported here: a valid entry is read by the grammar's own terminals (below), so Lark and
    # its table build (about 12 ms) are paid only by a run that meets an entry they reject.
    from lark import Lark

    return Lark(grammar_text(), **_OPTIONS)


def clear_cache() -> None:
    """Forget the parser built in this process (the next parse builds it again)."""
    _parser.cache_clear()


#: The grammar's terminals NAME and CONTENT, verbatim (tests compare them with Lark's).
NAME_PATTERN: Final = r"[A-Za-z*][A-Za-z0-9_*\-]*"
CONTENT_PATTERN: Final = r"(?:\\[\s\S]|[^\\])+(?=\)\Z)"
#: ``start: NAME | NAME "(" CONTENT? ")"`` as one expression: what Lark accepts, with the same
#: tokens (CONTENT is tried before ")" as the contextual lexer does; both are linear).
_ACCEPTED: Final = re.compile(rf"({NAME_PATTERN})(?:\(({CONTENT_PATTERN})?\))?\Z")


def parse_entry(entry: str) -> ParsedEntry:
    """Parse one entry (already split and trimmed) into its name and content.

    Raises GrantSyntaxError naming the entry with a caret under the offending character: a
    control character anywhere (semantics §2), or what the grammar does not accept.
    """
    bad = forbidden_control(entry)
    if bad is not None:
        raise GrantSyntaxError(f"control character U+{ord(entry[bad]):04X}", entry, bad)
    parsed = parse_accepted(entry)
    # Lark reads (and, as it must, refuses) the rest: its error says where and why.
    return parsed if parsed is not None else parse_entry_lark(entry)


def forbidden_control(entry: str) -> int | None:
    """The index of the first control character that makes an entry invalid, or None."""
    match = _FORBIDDEN_CONTROL.search(entry)
    return None if match is None else match.start()


# Control characters other than tab and newline (semantics §2): NUL, CR, DEL, C1 controls.
_FORBIDDEN_CONTROL: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def parse_accepted(entry: str) -> ParsedEntry | None:
    """``entry`` parsed without Lark when the grammar accepts it, else None."""
    accepted = _ACCEPTED.match(entry)
    if accepted is None:
        return None
    if accepted.end(1) == len(entry):
        return ParsedEntry(accepted.group(1), None)
    return ParsedEntry(accepted.group(1), accepted.group(2) or "")


def parse_entry_lark(entry: str) -> ParsedEntry:
    """``parse_entry`` by Lark alone: the parser of record, and the one that explains errors."""
    from lark import Token
    from lark.exceptions import UnexpectedInput

    try:
        tree = _parser().parse(entry)
    except UnexpectedInput as e:
        position, message = _describe(entry, e)
        raise GrantSyntaxError(message, entry, position) from e
    tokens = [child for child in tree.children if isinstance(child, Token)]
    name = str(tokens[0])
    if tree.data == "bare":
        return ParsedEntry(name, None)
    content = next((str(t) for t in tokens if t.type == "CONTENT"), "")
    return ParsedEntry(name, content)


_UNCLOSED = "an entry with '(' must end with an unescaped ')'"


def _describe(entry: str, error: UnexpectedInput) -> tuple[int, str]:
    """Where an entry fails and why, in the user's terms rather than the parser's."""
    from lark.exceptions import UnexpectedToken

    if not entry:
        return 0, "empty entry"
    position = error.pos_in_stream if error.pos_in_stream is not None else len(entry)
    if isinstance(error, UnexpectedToken) and error.token.type == "$END":
        position = len(entry)
    open_at = entry.find("(")
    if open_at >= 0 and (position > open_at or position >= len(entry)):
        # Inside the parentheses only the final ')' can be missing: content admits anything.
        return len(entry), _UNCLOSED
    if position >= len(entry):
        return len(entry), "unexpected end of entry"
    char = entry[position]
    if not char.isascii():
        return position, f"non-ASCII character {char!r} (U+{ord(char):04X}) in a tool name"
    if position == 0:
        return 0, "a tool name must start with an ASCII letter"
    return position, f"unexpected character {char!r}"
