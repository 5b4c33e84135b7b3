"""Where a report shows a file's ``allowed-tools`` and its entries (``locate``), and an offset
of a text as a line and a column (``line_column``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..reports.ci import Location

if TYPE_CHECKING:
    from ..skillfile.doc import AllowedTools, SkillDoc


def line_column(text: str, offset: int) -> Location:
    """Where ``offset`` of ``text`` is: its line and column, each from 1."""
    line_start = text.rfind("\n", 0, offset) + 1
    return Location(text.count("\n", 0, offset) + 1, offset - line_start + 1)


class _Lines:
    """``line_column`` for offsets of one text, as line and column: an offset on the line of
    the one before it (the entries of a value mostly share one) is counted from that line's
    start, and on a later line its line's number is that line's plus the line breaks between
    (entries, and each entry's end, come in order): the same answers."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.start, self.end = 0, -1  # no line yet
        self.line = 0

    def at(self, offset: int) -> tuple[int, int]:
        if not self.start <= offset <= self.end:
            text = self.text
            start = text.rfind("\n", 0, offset) + 1
            if self.end >= 0 and start > self.start:
                self.line += text.count("\n", self.start, start)
            else:
                self.line = text.count("\n", 0, start) + 1
            self.start = start
            newline = text.find("\n", start)
            self.end = len(text) if newline < 0 else newline
        return self.line, offset - self.start + 1


def locate(doc: SkillDoc) -> tuple[Location, tuple[Location, ...]]:
    """Where ``allowed-tools`` is (or would be added), and where each of its entries is: the
    first character of each as written (skillfile.spans reads escapes and folded lines)."""
    text = doc.text
    value = doc.allowed_tools
    if value is None:
        return line_column(text, doc.insert_at), ()
    count = len(value.entries)
    if (len(value.entry_starts) == count == len(value.entry_ends)
            and text.find("\n", value.key_start, value.line_end) < 0):
        return _on_its_line(text, value)
    key = line_column(text, value.key_start + value.key_column)
    if len(value.entry_starts) != count:
        return key, ()
    ends = value.entry_ends if len(value.entry_ends) == count else None
    lines = _Lines(text)
    found = []
    for i, start in enumerate(value.entry_starts):
        line, column = lines.at(start)
        if ends is not None and ends[i] > start:
            found.append(Location(line, column, lines.at(ends[i] - 1)))
        else:
            found.append(Location(line, column))
    return key, tuple(found)


def _on_its_line(text: str, value: AllowedTools) -> tuple[Location, tuple[Location, ...]]:
    """``locate`` for a value written on the key's line (``key_start`` begins it), and so
    every entry: each column counted from there."""
    line = text.count("\n", 0, value.key_start) + 1
    before = value.key_start - 1  # a column is its offset less this
    return Location(line, value.key_column + 1), tuple(
        Location(line, start - before, (line, end - 1 - before)) if end > start
        else Location(line, start - before)
        for start, end in zip(value.entry_starts, value.entry_ends, strict=True))
