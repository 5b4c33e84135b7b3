"""A SKILL.md that Claude Code reads through its re-quote retry, read the same way.

When Bun's YAML parser rejects a frontmatter, the runtime re-quotes its simple ``key: value``
lines and parses again (``runtime.requoted``); ``runtime.predict`` says when that happens and
the retry is accepted. ``spans`` then reads the re-quoted text as any other, and this module
carries that reading back onto the file as written: the re-quote changes lines one for one
(a value put in double quotes, leading tabs turned into two spaces each), so every offset of
an unchanged line moves by its line's shift. The ``allowed-tools`` value may itself be a
re-quoted line: its span is then the value as written, which is exactly the string the
runtime reads (its quoting only escapes ``\\`` and ``"``), and a rewrite puts it in double
quotes. Any other offset inside a changed line cannot be carried back, and the file is
refused.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from ..errors import SkillFileError
from .doc import AllowedTools, Item, SkillDoc, make_item
from .flowlenient import Scan
from .runtime import Prediction, RuntimeFrontmatter
from .yamlspan import line_column


class _Lines:
    """Offsets of the re-quoted text carried back onto the text as written."""

    def __init__(self, text: str, span: RuntimeFrontmatter, retry: str) -> None:
        self.text = text
        self.span = span
        written = text[span.start:span.end].split("\n")
        quoted = retry.split("\n")
        self.old_starts: list[int] = []
        self.new_starts: list[int] = []
        old = new = span.start
        for before, after in zip(written, quoted, strict=True):
            self.old_starts.append(old)
            self.new_starts.append(new)
            old += len(before) + 1
            new += len(after) + 1
        self.written = written
        self.quoted = quoted
        self.shift = len(retry) - (span.end - span.start)
        self.value_lines: dict[int, int] = {}  # a re-quoted line: where its value starts

    def back(self, offset: int) -> int:
        """The offset in the text as written of ``offset`` in the re-quoted text."""
        if offset < self.span.start:
            return offset
        if offset >= self.span.end + self.shift:
            return offset - self.shift
        line = bisect.bisect_right(self.new_starts, offset) - 1
        column = offset - self.new_starts[line]
        before, after = self.written[line], self.quoted[line]
        if before == after:
            return self.old_starts[line] + column
        tabs = len(before) - len(before.lstrip("\t"))
        if after == "  " * tabs + before[tabs:] and column >= 2 * tabs:
            return self.old_starts[line] + column - tabs
        if column == 0:
            return self.old_starts[line]
        if column >= len(after):
            return self.old_starts[line] + len(before) + column - len(after)
        raise ValueError(offset)


def read_retried(text: str, span: RuntimeFrontmatter, prediction: Prediction,
                 inner: SkillDoc, scans: Sequence[Scan] = ()) -> SkillDoc:
    """``inner`` (the reading of the file with its frontmatter re-quoted) as a reading of
    ``text``, with the ``scans`` its prediction made (``SkillDoc.scans``). Raises
    SkillFileError when an offset cannot be carried back."""
    lines = _Lines(text, span, prediction.text)
    try:
        allowed = None if inner.allowed_tools is None else _allowed(lines, inner.allowed_tools)
        # Every field given (dataclasses.replace asks each by name), as SkillDoc.spliced.
        doc = SkillDoc(inner.path, text, inner.newline, inner.has_bom,
                       lines.back(inner.yaml_start), lines.back(inner.yaml_end),
                       lines.back(inner.body_start), inner.metadata, allowed,
                       lines.back(inner.insert_at), inner.insert_column, inner.runtime_note,
                       prediction.why)
    except ValueError as e:
        line, column = line_column(text, span.start)
        raise SkillFileError("Claude Code reads this frontmatter through its re-quote retry, "
                             "and where allowed-tools is written then cannot be located; "
                             "quote the values that hold ': ', '#' or brackets",
                             path=inner.path, line=line, column=column) from e
    if scans:
        SkillDoc.scans.give(doc, tuple(scans))  # (for its read-back)
    SkillDoc.retried_reading.give(doc, inner)  # (for its read-back too)
    return doc


def _allowed(lines: _Lines, value: AllowedTools) -> AllowedTools:
    back = lines.back
    line = bisect.bisect_right(lines.new_starts, value.start) - 1
    before, after = lines.written[line], lines.quoted[line]
    if (before != after and not after.startswith(" ") and value.form == "double-quoted"
            and not value.multiline and value.end == lines.new_starts[line] + len(after)):
        return _requoted(lines, value, line)
    items = tuple([make_item(Item, (i.value, i.style, back(i.start), back(i.end),
                                    back(i.block_start), back(i.block_end))) for i in value.items])
    return value.placed(back(value.key_start), back(value.start), back(value.end),
                        back(value.line_end), items, tuple(map(back, value.entry_starts)),
                        tuple(map(back, value.entry_ends)))


def _requoted(lines: _Lines, value: AllowedTools, line: int) -> AllowedTools:
    """The ``allowed-tools`` line the runtime re-quoted: its value as written is the string."""
    start = lines.old_starts[line]
    written = lines.written[line]
    at = start + len(written) - len(str(value.value))
    if lines.text[at:start + len(written)] != value.value:
        raise ValueError(at)
    starts: list[int] = []
    ends: list[int] = []
    cursor = at
    for entry in value.entries:
        found = lines.text.find(entry, cursor, start + len(written))
        if found < 0:
            raise ValueError(cursor)
        starts.append(found)
        ends.append(found + len(entry))
        cursor = found + len(entry)
    return value.placed(start, at, start + len(written), start + len(written), value.items,
                        tuple(starts), tuple(ends))
