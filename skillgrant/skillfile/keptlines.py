"""``allowed-tools`` as the reader found it, kept by the text of its lines: the files of one
plugin or repository often share the value, and a batch reads it once (``spans``'s
``allowed_of`` for the first; ``allowed_kept`` for the others, its offsets moved).

Kept and taken only where the text of the key's lines alone decides what ``allowed_of``
finds: a key of the top-level block mapping at column 0, the next key starting its line with
an ASCII letter (or the frontmatter ending there). Composing a block mapping at column 0
reaches such a key's line in one state whatever came before it (no alias reaches this far:
the reader refuses them, and a tag of its own is in its lines), the value ends before the
next key's line whatever follows (a plain or block scalar, or a block list, at column 0 ends
at a line that starts there with a letter), and ``allowed_of`` reads nothing of the text
outside the value's lines. The lines are ASCII without a tab or CR (no tab after a dash that
``dashtab.compose_dash_tabs`` reads as a space, no CRLF for ``_refuse_quoted_crlf``). A
frontmatter the runtime reads through its re-quote retry is read as its re-quoted text, whose
nodes are that text's own: its lines are kept as any others.
"""

from __future__ import annotations

from typing import Final, Protocol

from yaml.nodes import Node

from ..errors import AllowedToolsError, SkillFileError
from .doc import AllowedTools
from .runtime import KEY


class _Reader(Protocol):
    @property
    def text(self) -> str: ...

    def offset(self, node: Node) -> int: ...

    def allowed_of(self, key: Node, node: Node) -> AllowedTools: ...

    def fail(self, message: str, offset: int | None) -> SkillFileError: ...


#: The values kept, by the text of their lines, offsets from the key's (at most
#: ``_KEPT`` of them, each of up to ``_CHARS`` characters).
_BY_LINES: Final[dict[str, AllowedTools]] = {}
_KEPT: Final = 256
_CHARS: Final = 4096


def allowed_kept(reader: _Reader, pairs: list[tuple[Node, Node]], key: Node, node: Node,
                 yaml_end: int) -> AllowedTools:
    """``reader.allowed_of(key, node)``, ``key`` among the top-level ``pairs`` of a
    frontmatter that ends at ``yaml_end``: kept, or taken from a file read before, where the
    text of the key's lines alone decides it (the module's contract)."""
    lines = _key_lines(reader, pairs, key, yaml_end)
    if lines is None:
        return _allowed_of(reader, key, node)
    start, written = lines
    known = _BY_LINES.get(written)
    if known is not None:
        return known.moved(start)
    allowed = _allowed_of(reader, key, node)
    if len(_BY_LINES) >= _KEPT:
        _BY_LINES.clear()
    _BY_LINES[written] = allowed.moved(-start)
    return allowed


def _allowed_of(reader: _Reader, key: Node, node: Node) -> AllowedTools:
    try:
        return reader.allowed_of(key, node)
    except AllowedToolsError as e:  # a value another runtime cuts otherwise (grants._split)
        raise reader.fail(f"{KEY} {e}", reader.offset(node)) from e


def _key_lines(reader: _Reader, pairs: list[tuple[Node, Node]], key: Node,
               yaml_end: int) -> tuple[int, str] | None:
    """Where the key's lines start, and their text without the last line break, when they
    alone decide its value; else None."""
    text = reader.text
    start = reader.offset(key)
    if text[start - 1:start] != "\n":
        return None
    after = yaml_end
    for index, (other, _) in enumerate(pairs):
        if other is key:
            if index + 1 < len(pairs):
                after = reader.offset(pairs[index + 1][0])
                first = text[after:after + 1]
                if not (first.isascii() and first.isalpha()):
                    return None
            break
    if after - start > _CHARS or text[after - 1:after] != "\n":
        return None
    lines = text[start:after - 1]
    if not lines.isascii() or "\t" in lines or "\r" in lines:
        return None
    return start, lines
