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

import io
import os
import re
import stat
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Final, NamedTuple

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
    here = Path(__file__).resolve().parent
    for candidate in (here / "grammar" / _GRAMMAR, here.parent / "grammar" / _GRAMMAR):
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    from importlib import resources  # a package imported from a zip file

    return (resources.files("skillgrant") / "grammar" / _GRAMMAR).read_text(encoding="utf-8")


_OPTIONS: Final = {"parser": "lalr", "lexer": "contextual", "propagate_positions": False}


@cache
def _parser() -> Lark:
    from lark import Lark  # imported here: commands that never parse a grant never load Lark

    grammar = grammar_text()
    stored = _cache_file(grammar)
    if stored is not None:
        loaded = _load(stored, _cache_key(grammar))
        if loaded is not None:
            return loaded
    parser = Lark(grammar, **_OPTIONS)
    if stored is not None:
        _save(parser, stored, _cache_key(grammar))
    return parser


def clear_cache() -> None:
    """Forget the parser built in this process (the next parse loads or builds it again)."""
    _parser.cache_clear()


# --- the parser kept between runs -----------------------------------------------------------
#
# Building the LALR tables took about 12 ms of every cold `skillgrant check` (loading them,
# under 1 ms), so the built parser is kept with Lark's own `save`/`load` in a cache directory of
# the user's own (never a shared temporary directory: `load` unpickles, so a file another user could
# write would run their code). The directory is created 0700; a file is loaded only when it and
# its directory belong to this user and no one else may write them, checked on the open file
# descriptors (no race with a rename). Any problem just means the parser is built as before.


def cache_dir() -> Path | None:
    """Where the built parser is kept: ``$SKILLGRANT_CACHE_DIR``, else the user's cache
    directory (``$XDG_CACHE_HOME/skillgrant`` or ``~/.cache/skillgrant``). None (no cache) when
    ``SKILLGRANT_CACHE_DIR`` is set empty, or where file ownership cannot be checked."""
    if not hasattr(os, "geteuid") or not hasattr(os, "O_NOFOLLOW"):
        return None
    configured = os.environ.get("SKILLGRANT_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "skillgrant" if os.path.isabs(base) else None


def _cache_file(grammar: str) -> Path | None:
    directory = cache_dir()
    if directory is None:
        return None
    import zlib  # a name for the file; what it holds is checked in full by _load

    key = _cache_key(grammar)
    return directory / f"grants-{zlib.crc32(key):08x}-{len(key)}.lark"


def _cache_key(grammar: str) -> bytes:
    """What a kept parser was built from: the grammar, Lark, the options and Python. A file is
    loaded only when it starts with exactly these bytes."""
    from lark import __version__ as lark_version

    parts = [grammar, lark_version, repr(sorted(_OPTIONS.items())), sys.version]
    key = "\0".join(parts).encode("utf-8")
    return len(key).to_bytes(4, "big") + key


def _private(info: os.stat_result, *, directory: bool) -> bool:
    kind = stat.S_ISDIR if directory else stat.S_ISREG
    others = 0o077 if directory else 0o022
    return kind(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & others


def _load(stored: Path, key: bytes) -> Lark | None:
    from lark import Lark

    try:
        folder = os.open(stored.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        if not _private(os.fstat(folder), directory=True):
            return None
        fd = os.open(stored.name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=folder)
        with os.fdopen(fd, "rb") as handle:
            if not _private(os.fstat(handle.fileno()), directory=False):
                return None
            if handle.read(len(key)) != key:  # built from another grammar, Lark or Python
                return None
            return Lark.load(io.BytesIO(handle.read()))
    except Exception:  # a missing, truncated or foreign file: build the parser instead
        return None
    finally:
        os.close(folder)


def _save(parser: Lark, stored: Path, key: bytes) -> None:
    import contextlib
    import tempfile

    directory = stored.parent
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private(os.lstat(directory), directory=True):
            return
        fd, temp = tempfile.mkstemp(dir=directory, prefix=".grants-", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(key)
            parser.save(handle)
        os.replace(temp, stored)
    except Exception:
        with contextlib.suppress(OSError):
            os.unlink(temp)


#: The grammar's terminals NAME and CONTENT, verbatim (tests compare them with Lark's).
NAME_PATTERN: Final = r"[A-Za-z*][A-Za-z0-9_*\-]*"
CONTENT_PATTERN: Final = r"(?:\\[\s\S]|[^\\])+(?=\)\Z)"
#: ``start: NAME | NAME "(" CONTENT? ")"`` as one expression: what Lark accepts, with the same
#: tokens (CONTENT is tried before ")" as the contextual lexer does; both are linear).
_ACCEPTED: Final = re.compile(rf"({NAME_PATTERN})(?:\(({CONTENT_PATTERN})?\))?\Z")


def parse_entry(entry: str) -> ParsedEntry:
    """Parse one entry (already split and trimmed) into its name and content.

    Raises GrantSyntaxError naming the entry with a caret under the offending character.
    """
    parsed = parse_accepted(entry)
    # Lark reads (and, as it must, refuses) the rest: its error says where and why.
    return parsed if parsed is not None else parse_entry_lark(entry)


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
