"""The Lark LALR parser for one entry, loaded once.

This is the only module that sees Lark: its trees become a plain ``ParsedEntry`` here, and
``lark.UnexpectedInput`` becomes ``GrantSyntaxError`` here and nowhere else.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from .errors import GrantSyntaxError

if TYPE_CHECKING:
    from lark import Lark
    from lark.exceptions import UnexpectedInput

_GRAMMAR = "grants.lark"


class ParsedEntry(NamedTuple):
    """The two parts of an entry: the tool name and the raw content (None when bare)."""

    name: str
    content: str | None


def grammar_text() -> str:
    """The grammar, read from the installed package, or from the checkout when run from source."""
    shipped = resources.files("skillgrant") / "grammar" / _GRAMMAR
    if shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parent.parent / "grammar" / _GRAMMAR
    return checkout.read_text(encoding="utf-8")


@cache
def _parser() -> Lark:
    from lark import Lark  # imported here: commands that never parse a grant never load Lark

    return Lark(grammar_text(), parser="lalr", lexer="contextual", propagate_positions=False)


def parse_entry(entry: str) -> ParsedEntry:
    """Parse one entry (already split and trimmed) into its name and content.

    Raises GrantSyntaxError naming the entry with a caret under the offending character.
    """
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
