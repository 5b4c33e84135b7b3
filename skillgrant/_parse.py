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
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

    try:
        tree = _parser().parse(entry)
    except UnexpectedInput as e:
        position, message = _describe(entry, e, UnexpectedCharacters, UnexpectedToken, UnexpectedEOF)
        raise GrantSyntaxError(message, entry, position) from e
    tokens = [child for child in tree.children if isinstance(child, Token)]
    name = str(tokens[0])
    if tree.data == "bare":
        return ParsedEntry(name, None)
    content = next((str(t) for t in tokens if t.type == "CONTENT"), "")
    return ParsedEntry(name, content)


def _describe(
    entry: str, error: Exception, chars: type, token: type, eof: type
) -> tuple[int, str]:
    if not entry:
        return 0, "empty entry"
    open_at = entry.find("(")
    if isinstance(error, eof) or (isinstance(error, token) and getattr(error.token, "type", "") == "$END"):
        if open_at >= 0:
            return len(entry), "an entry with '(' must end with an unescaped ')'"
        return len(entry), "unexpected end of entry"
    position = int(getattr(error, "pos_in_stream", None) or 0)
    if isinstance(error, token):
        position = int(getattr(error.token, "start_pos", 0) or 0)
    if open_at >= 0 and position > open_at:
        # Inside the parentheses only the final ')' can fail: the content admits anything else.
        return len(entry), "an entry with '(' must end with an unescaped ')'"
    if position == 0 and not entry[0].isascii():
        return 0, "tool names are ASCII letters, digits, '_' and '-'"
    if not entry[position].isascii():
        return position, f"non-ASCII character {entry[position]!r} (U+{ord(entry[position]):04X}) in a tool name"
    if position == 0:
        return 0, "a tool name must start with an ASCII letter"
    return position, f"unexpected character {entry[position]!r}"
