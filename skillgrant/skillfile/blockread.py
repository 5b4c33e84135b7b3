"""The read-back's branch for a block list (``reread``): a rewrite that kept some of the items
of a block list of one-line plain items, each its own line, and wrote no other.

The old document was read directly and alike by both readers (PyYAML's and Claude Code's,
``spans``: no runtime note, no retry), its ``allowed-tools`` a top-level key at column 0 whose
value is a block list; every old item is ``PREFIX VALUE`` on its own line with nothing else
(no comment, no leading comment line, no blank line between), ``PREFIX`` being spaces, a dash
and one space, the same for every item, and the file's lines end in ``\\n``. The rewrite
replaced the list's lines with lines of the same shape, each value a string that a plain
scalar writes as itself (``yamlspan.plain_ok``: no indicator first, no ``: `` or `` #``, no
tab, no line break of either YAML, no BOM, a string to PyYAML's resolver). Then each new line
is an item of the same list, as each old line was: what ends an item (the next line's dash at
the list's column, or the line that followed the old list, which no item continued, since a
plain scalar's continuation depends on the next line's indentation and first character, not
on the item) is unchanged. So the new document is the old one with these items in the list's
place and the offsets after it moved, and ``bun_rejects`` finds nothing in one-line plain
items of a block list. Claude Code's frontmatter (its first ``---``) must still end where ours
does. Anything else is read whole. tests/test_reread.py compares this with the whole reader;
the Bun differential (``.ci/steps/40-bun-differential.sh``) reads every rewrite back through
the runtime's own steps.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from ..errors import AllowedToolsError
from ..grants import split_allowed_tools
from ..limits import MAX_FRONTMATTER_CHARS
from .doc import Item, SkillDoc, make_item
from .entryspans import Span, verbatim_spans
from .runtime import runtime_frontmatter
from .spans import KEY
from .yamlspan import plain_ok

_PREFIX: Final = re.compile(" *- ")


def block_items_replaced(old: SkillDoc, text: str) -> SkillDoc | None:
    """The document ``text`` is when only the items of a block list changed (module
    docstring); None when the rewrite is not one this branch is sure of."""
    value = old.allowed_tools
    if (value is None or value.form != "block-list" or value.key_column != 0
            or old.runtime_note is not None or old.retried is not None or not value.items
            or old.newline != "\n" or not _PREFIX.fullmatch(value.item_prefix)):
        return None
    prefix, was = value.item_prefix, old.text
    for item in value.items:
        dash = item.start - len(prefix)
        if (item.style != "plain" or item.block_start != dash or item.block_end != item.end
                or was[dash:item.start] != prefix or was[item.start:item.end] != item.value):
            return None
    start, tail = value.start, len(was) - value.end
    end = len(text) - tail
    shift = end - value.end
    if (end <= start or not (text.startswith(was[:start]) and old.ends_as(text, value.end))
            or not same_span(old, text, shift)):
        return None
    lines = text[start:end]
    read = _items_read(lines, prefix) if len(lines) <= _MEMO_CHARS else _items(lines, prefix)
    if read is None:
        return None
    values, entries, places, starts, ends = read
    if entries is None:  # the split refuses the values: raised here, after the checks, as ever
        _spans(values, places)
        split_allowed_tools(list(values))
        return None
    items = tuple([make_item(Item, (written, "plain", start + s, start + e, start + b, start + e))
                   for written, (b, s, e) in zip(values, places, strict=True)])
    new_value = value.rewritten(values, entries, end, end, value.separator, len(items) > 1,
                                items, tuple(start + s for s in starts),
                                tuple(start + e for e in ends))
    return old.spliced(text, start, shift,
                       {k: list(values) if k == KEY else v for k, v in old.metadata.items()},
                       new_value)


_Read = tuple[tuple[str, ...], tuple[str, ...] | None, tuple[tuple[int, int, int], ...],
              tuple[int, ...], tuple[int, ...]]


def _items(lines: str, prefix: str) -> _Read | None:
    """What ``block_items_replaced`` reads of the list's new ``lines`` (each ``prefix`` and a
    plain value): the values, the entries, each item's line start, value start and end, and
    each entry's start and end, from the first line's start; None when a line is not such an
    item; no entries (None) when ``split_allowed_tools`` refuses the values (the branch raises
    its error after its checks). A function of ``lines`` and ``prefix`` alone (the offsets are
    the lines' own)."""
    values: list[str] = []
    places: list[tuple[int, int, int]] = []
    at = 0
    for line in lines.split("\n"):
        written = line[len(prefix):]
        if not line.startswith(prefix) or not plain_ok(written, flow=False):
            return None
        values.append(written)
        places.append((at, at + len(prefix), at + len(line)))
        at += len(line) + 1
    try:
        spans = _spans(values, places)
        entries: tuple[str, ...] | None = tuple(split_allowed_tools(values))
    except AllowedToolsError:
        return tuple(values), None, tuple(places), (), ()
    return (tuple(values), entries, tuple(places), tuple(s for s, _ in spans),
            tuple(e for _, e in spans))


def _spans(values: Sequence[str], places: Sequence[tuple[int, int, int]]) -> list[Span]:
    """Each item's entries' spans (``verbatim_spans``, which splits each value)."""
    return [span for written, (_, s, e) in zip(values, places, strict=True)
            for span in verbatim_spans(written, s, (s, e))]


#: Item lines up to this long are read once for a batch (``_items_read``).
_MEMO_CHARS: Final = 4096

#: ``_items``, remembered for the last rewrites' item lines: the files of one plugin or
#: repository often share one ``allowed-tools`` value, and so its rewrite (at most 256 × 4 Ki
#: characters kept).
_items_read: Final = lru_cache(maxsize=256)(_items)


def same_span(old: SkillDoc, text: str, shift: int) -> bool:
    """Whether Claude Code's frontmatter in ``text``, a rewrite of ``old`` whose frontmatter
    ends ``shift`` characters later, stays within the limit and is ours (``spans``' ``same``):
    then, with no note and no retry, it read ``old`` directly, and reads the rewrite so too."""
    yaml_end = old.yaml_end + shift
    if yaml_end - old.yaml_start > MAX_FRONTMATTER_CHARS or not old.runtime_span_same:
        return False
    span = runtime_frontmatter(text)
    return (span is not None and span.end == yaml_end
            and not text[old.yaml_start:span.start].strip())
