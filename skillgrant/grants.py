"""Entries and grants: splitting a value (semantics §2) and the immutable ``Grant`` value.

Data flows one way: an ``allowed-tools`` value is split into entry strings, each entry is parsed
into a ``Grant``, and the prover decides grants. ``str(grant)`` is canonical and round-trips
through ``parse_grant``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from . import vocabulary
from .errors import AllowedToolsError
from .limits import MAX_ENTRY_LENGTH
from .parser import parse_entry
from .records import NamedTuple

#: JavaScript's ``\s``: what Claude Code's splitter treats as a separator, NBSP and BOM included.
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_SEPARATORS = frozenset(JS_WHITESPACE + ",")


def _plain_patterns(space: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The usual value, which both splitters cut alike and at once, and its entries, for
    ``space`` the white space: entries of characters that are no separator, parenthesis or
    backslash, and parenthesised groups (one level, no backslash) in which separators do not
    cut; separators between them. (A run of such characters is one step of the repeat, not one
    a character: the same entries, since a group starts with '(' and a run never holds one,
    at a fraction of the cost.)"""
    spaces = re.escape(space)
    entry = r"(?:[^(),\\" + spaces + r"]++|\([^()\\]*\))++"
    value = re.compile(r"[," + spaces + "]*+(?:" + entry + r"(?:[," + spaces + "]++" + entry
                       + r")*+)?+[," + spaces + "]*+")
    return value, re.compile(entry)


# On text of ASCII characters only, JavaScript's white space is its ASCII part, and the
# patterns built from that part read the text exactly as the whole ones: they are compiled at
# once, the whole ones (a tenth of a hook's start, for their classes of wide characters) when
# a value holding another character first needs them.
_ASCII_PLAIN = _plain_patterns("".join(c for c in JS_WHITESPACE if c.isascii()))
_WIDE: dict[str, re.Pattern[str]] = {}


def _wide(name: str) -> re.Pattern[str]:
    """The pattern ``name`` for any text: compiled once, on first use."""
    if not _WIDE:
        spaces = re.escape(JS_WHITESPACE)
        value, entries = _plain_patterns(JS_WHITESPACE)
        _WIDE.update({
            "plain value": value, "plain entries": entries,
            # The characters either splitter reacts to; everything between is one step.
            "ours": re.compile(r"\\[\s\S]|[(),]|[" + spaces + "]"),
            "runtime": re.compile(r"[(),]|[" + spaces + "]"),
            # JavaScript's white space but ' ', which the runtime's split never cuts at.
            "other space": re.compile("[" + re.escape(JS_WHITESPACE.replace(" ", "")) + "]")})
    return _WIDE[name]


def _plain(text: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The plain value's pattern and its entries' for ``text``."""
    if text.isascii():
        return _ASCII_PLAIN
    return _wide("plain value"), _wide("plain entries")


def split_allowed_tools(value: str | Sequence[str]) -> list[str]:
    """Split an ``allowed-tools`` value into entries (semantics §2).

    Cuts on commas and whitespace outside parentheses, counting depth and honouring ``\\(``.
    Blank entries are dropped. Raises AllowedToolsError for anything but a string or a list of
    strings.

    >>> split_allowed_tools("Bash(git add *), Read Grep")
    ['Bash(git add *)', 'Read', 'Grep']
    """
    if isinstance(value, str):
        return list(_split(value))
    if isinstance(value, Sequence):
        entries: list[str] = []
        for index, item in enumerate(value):
            if not isinstance(item, str):
                raise AllowedToolsError(
                    f"allowed-tools item {index + 1} is {type(item).__name__}, not a string"
                )
            entries.extend(_split(item))
        if any("," in entry for entry in entries):  # Copilot CLI joins the items with ", "
            _split(", ".join(value))  # before it cuts them (review s45-freview F1)
        return entries
    raise AllowedToolsError(
        f"allowed-tools must be a string or a list of strings, not {type(value).__name__}"
    )


def _split(text: str) -> tuple[str, ...]:
    # A value is split when it is read, decided, located and read back: the last few short
    # ones are remembered (a long one is split anew, so the cache stays small).
    if len(text) > _SPLIT_CACHED_CHARS:
        return tuple(_split_uncached(text))
    return _split_cached(text)


def _paired(text: str) -> bool:
    """Whether every ``(`` of ``text`` has its ``)`` after it, escapes not counted. Copilot CLI
    1.0.102 cuts an ``allowed-tools`` string whose parentheses pair up at the commas outside
    them, and any other string at every comma (review s45-freview F1: ``Read(x, Bash(rm:*)``
    is ``Read(x`` and the shell rule ``rm:*`` to it, one Read entry to Claude Code)."""
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


_SPLIT_CACHED_CHARS = 2048


@lru_cache(maxsize=1024)
def _split_cached(text: str) -> tuple[str, ...]:
    return tuple(_split_uncached(text))


def _split_uncached(text: str) -> list[str]:
    entries = _cut(text, "ours", nested=True)
    # (checked here, once a text: the cache keeps what passes, and an error is raised anew)
    if "(" in text and any("," in entry for entry in entries) and not _paired(text):
        raise AllowedToolsError(
            f"{shorten(text)!r}: its parentheses do not pair up and it holds a comma, which "
            "Copilot CLI cuts at every comma, inside parentheses too (other entries than Claude "
            "Code reads); pair each parenthesis")
    return entries


def runtime_split(text: str) -> list[str]:
    """Split as Claude Code does: an "inside parentheses" flag, not a depth, and no escapes.

    >>> runtime_split("Foo(x (y) Bash )")
    ['Foo(x (y)', 'Bash', ')']
    """
    return _cut(text, "runtime", nested=False)


def runtime_entries(value: str | Sequence[object]) -> list[str]:
    """The entries Claude Code 2.1.332 keeps from an ``allowed-tools`` value, ported line for
    line from its JavaScript (``bgn`` and ``Qf``; tests/oracle/bun_reader.js runs the original):
    strings only (a list's other items dropped); a parentheses flag, not a depth, and no
    escapes; only ``' '`` and ``','`` cut outside parentheses, so a tab or a line break stays
    inside an entry; each entry trimmed of JavaScript's white space; and any entry ``*`` makes
    the reading ``['*']``. ``split_allowed_tools`` is skillgrant's own reading, which cuts on
    every white space; where the two differ the reader says so (rule SG-L012).

    >>> runtime_entries("Read\nBash(touch *)")
    ['Read\nBash(touch *)']
    """
    strings = [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)]
    entries: list[str] = []
    for text in strings:
        # The last few short texts are remembered, as _split's: a batch repeats its values.
        entries.extend(_runtime_cut_cached(text) if len(text) <= _SPLIT_CACHED_CHARS
                       else _runtime_cut(text))
    return ["*"] if "*" in entries else entries


@lru_cache(maxsize=1024)
def _runtime_cut_cached(text: str) -> tuple[str, ...]:
    return _runtime_cut(text)


def _runtime_cut(text: str) -> tuple[str, ...]:
    """The entries the runtime cuts one string into (``runtime_entries``), before its ``*``
    rule."""
    whole, plain = _plain(text)
    if whole.fullmatch(text) and not _wide("other space").search(text):
        # Groups one level deep, no backslash, no white space but ' ': cut alike.
        return tuple(plain.findall(text))
    entries: list[str] = []
    current: list[str] = []
    inside = False
    for char in text:
        if char in "()":
            inside = char == "("
            current.append(char)
        elif char in ", " and not inside:
            entry = "".join(current).strip(JS_WHITESPACE)
            if entry:
                entries.append(entry)
            current = []
        elif current or char not in JS_WHITESPACE:
            current.append(char)
    entry = "".join(current).strip(JS_WHITESPACE)
    if entry:
        entries.append(entry)
    return tuple(entries)


def _cut(text: str, tokens: str, *, nested: bool) -> list[str]:
    """Cut ``text`` at the separators the pattern ``tokens`` (``_wide``) finds outside
    parentheses: counting their depth (``nested``), or as one inside/outside flag as the
    runtime does. A two-character token is an escape and never cuts."""
    value, plain = _plain(text)
    if value.fullmatch(text):
        return plain.findall(text)
    return _cut_by_tokens(text, _wide(tokens), nested=nested)


def _cut_by_tokens(text: str, tokens: re.Pattern[str], *, nested: bool) -> list[str]:
    """``_cut``, one token at a time (any value; the reference its fast path is tested
    against)."""
    entries: list[str] = []
    depth = 0
    start = 0
    for match in tokens.finditer(text):
        token = match.group()
        if token == "(":
            depth = depth + 1 if nested else 1
        elif token == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and len(token) == 1:
            if match.start() > start:
                entries.append(text[start : match.start()])
            start = match.end()
    if len(text) > start:
        entries.append(text[start:])
    return entries


def shorten(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters for a message, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[: limit - 20]}…(+{len(text) - limit + 20} chars)"


def lone_surrogate(text: str) -> int | None:
    """The index of the first lone surrogate in ``text`` (not a character: it cannot be written
    as UTF-8), or None."""
    if text.isascii():  # most texts, told at once
        return None
    try:
        text.encode("utf-8")  # what the question is, asked of the codec at C speed
    except UnicodeEncodeError as e:
        return e.start
    return None


class Grant(NamedTuple):
    """One parsed entry: a tool and an optional specifier, immutable and hashable.

    ``tool`` is the spelling written out (canonical for built-in tools and aliases, as given
    otherwise); ``key`` is what tool names compare by; ``content`` is the raw text between the
    parentheses with escapes kept, or None for "every use of the tool" (``T``, ``T()``,
    ``T(*)``). Equality is by key and content, so ``bash(ls)`` equals ``Bash(ls)``.
    (A NamedTuple, not a dataclass: the call gate's hook starts on every tool call, and
    importing dataclasses costs it as much as Python's own start-up.)
    """

    tool: str
    key: str
    content: str | None

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Grant) and self.key == other.key
                and self.content == other.content)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.key, self.content))

    @property
    def is_mcp(self) -> bool:
        return vocabulary.is_mcp(self.key)

    @property
    def is_tool_wide(self) -> bool:
        """True for the bare form (every use of the tool)."""
        return self.content is None

    def __str__(self) -> str:
        return self.tool if self.content is None else f"{self.tool}({self.content})"

    def with_tool(self, tool: str) -> Grant:
        """The same grant written with another spelling of its tool name."""
        return Grant(tool=tool, key=self.key, content=self.content)


def parse_grant(entry: str) -> Grant:
    """Parse one entry into a Grant (semantics §2).

    Raises GrantSyntaxError, naming the entry with a caret under the offending character, for
    anything outside the entry grammar: several entries, control characters, non-ASCII names.

    >>> str(parse_grant("bash(gh *)")), str(parse_grant("Read(*)"))
    ('Bash(gh *)', 'Read')
    """
    if not isinstance(entry, str):
        raise AllowedToolsError(f"an entry must be a string, not {type(entry).__name__}")
    if len(entry) > MAX_ENTRY_LENGTH:  # parsed, but not kept: the cache stays small
        return _parse_once(entry)
    return _parse_cached(entry)


def clear_caches() -> None:
    """Forget every remembered split and parse (benchmarks and tests start cold)."""
    _split_cached.cache_clear()
    _runtime_cut_cached.cache_clear()
    _parse_cached.cache_clear()


@lru_cache(maxsize=4096)
def _parse_cached(entry: str) -> Grant:
    """``parse_grant`` remembered: a Grant is immutable and ``parse(str(g)) == g`` (STYLE
    habit 4), so a repeated entry (``Read``, ``Bash(gh *)`` in every file of a batch) is
    parsed by Lark once."""
    return _parse_once(entry)


def _parse_once(entry: str) -> Grant:
    name, content = parse_entry(entry)
    canonical = vocabulary.canonical_name(name)
    tool = canonical if canonical is not None else name
    if content is not None and not vocabulary.is_mcp(name) and content in ("", "*"):
        content = None
    return Grant(tool=tool, key=vocabulary.name_key(name), content=content)
