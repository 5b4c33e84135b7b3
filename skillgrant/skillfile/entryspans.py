"""Where each entry of an ``allowed-tools`` scalar is written in the text that composed it:
what a report points at, and what a rewrite keeps (``entry_spans``), character for character
through escapes, quotes and line folding (``char_spans``).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import Final

from yaml.nodes import ScalarNode

from ..grants import split_allowed_tools

#: What each escape of a double-quoted scalar stands for (YAML 1.1, as PyYAML reads it), and
#: how many hex digits the numbered ones take.
_UNESCAPED: Final[dict[str, str]] = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85",
    "_": "\xa0", "L": "\u2028", "P": "\u2029",
}
_HEX_DIGITS: Final = {"x": 2, "u": 4, "U": 8}
# Spaces and line breaks: line folding adds, drops and merges them, so they are not matched
# one to one between a scalar's text and its value.
_FOLDING: Final = frozenset(" \t\r\n\x85\u2028\u2029")
_LINE_BREAK = re.compile("[\r\n\x85\u2028\u2029]")
# The characters of _FOLDING, and runs of the others.
_FOLDED_OUT = re.compile("[ \t\r\n\x85\u2028\u2029]+")
_KEPT_RUN = re.compile("[^ \t\r\n\x85\u2028\u2029]+")


def entry_spans(text: str, node: ScalarNode, base: int = 0) -> tuple[tuple[int, int], ...]:
    """Where each entry of the scalar's value (``split_allowed_tools`` order) is written in
    ``text``: the offset of its first character (of the backslash, when an escape spells it)
    and the offset just past its last. ``node`` was composed from ``text[base:]``. An entry
    that cannot be matched to the text character by character spans the whole scalar.

    >>> text = 'allowed-tools: "\\\\x52ead, Grep"'
    >>> entry_spans(text, compose(text).value[0][1])
    ((16, 23), (25, 29))
    """
    value: str = node.value
    scalar = (base + node.start_mark.index, base + node.end_mark.index)
    verbatim = _verbatim(text, node, base)
    if verbatim is not None:
        return verbatim_spans(value, verbatim, scalar)
    if node.style in (None, "", "|", ">"):  # no escapes: each character written as it is
        return _unescaped_spans(text, node, base, scalar)
    return _char_entry_spans(text, node, base, scalar)


def _char_entry_spans(text: str, node: ScalarNode, base: int,
                      scalar: Span) -> tuple[Span, ...]:
    """``entry_spans`` from ``char_spans``: the general path."""
    value: str = node.value
    chars = char_spans(text, node, base)
    found: list[tuple[int, int]] = []
    cursor = 0
    for entry in split_allowed_tools(value):
        index = value.find(entry, cursor)
        cursor = index + len(entry)
        first = None if chars is None else chars[index]
        last = None if chars is None else chars[cursor - 1]
        found.append(scalar if first is None or last is None else (first[0], last[1]))
    return tuple(found)


def _unescaped_spans(text: str, node: ScalarNode, base: int,
                     scalar: Span) -> tuple[Span, ...]:
    """``_char_entry_spans`` for a plain or block scalar, which ``_written`` spells a
    character at a time with no escape: the value's n-th character that folding keeps is the
    text's n-th one, when the text's such characters begin with the value's (else no entry is
    matched, as ``char_spans`` gives None). Found a run of them at a time, not a character."""
    value: str = node.value
    start, end = base + node.start_mark.index, base + node.end_mark.index
    if node.style in ("|", ">"):
        header = _LINE_BREAK.search(text, start, end)  # as _written skips it
        start = end if header is None else header.end()
    entries = split_allowed_tools(value)
    if not _FOLDED_OUT.sub("", text[start:end]).startswith(_FOLDED_OUT.sub("", value)):
        return tuple(scalar for _ in entries)
    text_runs, text_before = _runs(text, start, end)
    value_runs, value_before = _runs(value, 0, len(value))

    def offset(index: int) -> int | None:
        if value[index] in _FOLDING:
            return None
        run = bisect_right(value_runs, index) - 1
        kept = value_before[run] + index - value_runs[run]
        at = bisect_right(text_before, kept) - 1
        return text_runs[at] + kept - text_before[at]

    found: list[Span] = []
    cursor = 0
    for entry in entries:
        index = value.find(entry, cursor)
        cursor = index + len(entry)
        first, last = offset(index), offset(cursor - 1)
        found.append(scalar if first is None or last is None else (first, last + 1))
    return tuple(found)


def _runs(text: str, start: int, end: int) -> tuple[list[int], list[int]]:
    """Where each run of characters folding keeps starts in ``text[start:end]``, and how many
    such characters come before it."""
    starts: list[int] = []
    before: list[int] = []
    count = 0
    for run in _KEPT_RUN.finditer(text, start, end):
        starts.append(run.start())
        before.append(count)
        count += run.end() - run.start()
    return starts, before


def _verbatim(text: str, node: ScalarNode, base: int) -> int | None:
    """Where the scalar's value is written character for character (a plain scalar on one
    line, a quoted one without escapes or doubled quotes), or None."""
    start, end = base + node.start_mark.index, base + node.end_mark.index
    if node.style in ("'", '"'):
        start, end = start + 1, end - 1
    elif node.style not in (None, ""):
        return None
    value: str = node.value
    return start if end - start == len(value) and text.startswith(value, start) else None


def verbatim_spans(value: str, at: int, scalar: Span,
                   entries: Sequence[str] | None = None) -> tuple[Span, ...]:
    """``entry_spans`` for a value written verbatim from ``at``: what ``char_spans`` gives
    then is each character's own offset (None for a space or break, which span the scalar).
    ``entries``: the value's, when the caller has split it already."""
    found: list[Span] = []
    cursor = 0
    for entry in split_allowed_tools(value) if entries is None else entries:
        index = value.find(entry, cursor)
        cursor = index + len(entry)
        if value[index] in _FOLDING or value[cursor - 1] in _FOLDING:
            found.append(scalar)
        else:
            found.append((at + index, at + cursor))
    return tuple(found)


def entry_starts(text: str, node: ScalarNode, base: int = 0) -> tuple[int, ...]:
    """The first offset of each of ``entry_spans``: where a report points at an entry."""
    return tuple(start for start, _ in entry_spans(text, node, base))


Span = tuple[int, int]


def char_spans(text: str, node: ScalarNode, base: int = 0) -> tuple[Span | None, ...] | None:
    """For each character of the scalar's value, the span of ``text`` that writes it (an
    escape, a doubled quote, or the character itself); None for a space or line break, which
    line folding does not keep one to one. None when the text does not spell the value as
    expected (a reader this does not know). ``node`` was composed from ``text[base:]``."""
    written = (found for found in _written(text, node, base) if found[0] not in _FOLDING)
    spans: list[Span | None] = []
    try:
        for char in node.value:
            if char in _FOLDING:
                spans.append(None)
                continue
            found = next(written, None)
            if found is None or found[0] != char:
                return None
            spans.append((found[1], found[2]))
    except ValueError:  # an escape that is no character (PyYAML would not have read it)
        return None
    return tuple(spans)


def _written(text: str, node: ScalarNode, base: int) -> Iterator[tuple[str, int, int]]:
    """The characters a scalar's text spells, each with the span that writes it, in order:
    quotes and a block scalar's header left out, escapes read. Folding is not applied: its
    spaces and breaks are skipped by the caller."""
    start, end = base + node.start_mark.index, base + node.end_mark.index
    if node.style == '"':
        yield from _double_quoted(text, start + 1, end - 1)
        return
    if node.style == "'":
        start, end = start + 1, end - 1
    elif node.style in ("|", ">"):
        header = _LINE_BREAK.search(text, start, end)  # "|-  # a comment" is not the value
        start = end if header is None else header.end()
    index = start
    while index < end:
        char = text[index]
        # A doubled quote stands for one.
        width = 2 if node.style == "'" and char == "'" else 1
        yield char, index, index + width
        index += width


def _double_quoted(text: str, index: int, end: int) -> Iterator[tuple[str, int, int]]:
    while index < end:
        char = text[index]
        if char != "\\":
            yield char, index, index + 1
            index += 1
            continue
        code = text[index + 1:index + 2]
        digits = _HEX_DIGITS.get(code)
        if digits is not None:
            yield chr(int(text[index + 2:index + 2 + digits], 16)), index, index + 2 + digits
            index += 2 + digits
        else:
            # An escaped line break joins the lines: its break is skipped like any other.
            yield _UNESCAPED.get(code, code), index, index + 2
            index += 2
