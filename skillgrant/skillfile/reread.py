"""The read-back of a rewrite: ``read_skill`` of a text spliced from a document already read,
with one fast branch that declines to the whole reader whenever it is not sure.

The branch takes a rewrite that changed only a one-line plain ``allowed-tools`` value of a
top-level key, in a document both readers (PyYAML's and Claude Code's, ``spans``) read
directly and alike. Such a value ends its line (the next lines were no continuation of it,
and what makes a line a continuation is its indentation and its first character, which the
rewrite does not touch), so the new text differs from the old only in that scalar: the
document is the old one with the value's string in its place and the offsets after it moved.
The new line must read, alone, as ``allowed-tools: <a plain string>`` to the flat reader
(``flatyaml.read_line``, the very reader ``read_skill`` uses for such lines: no comment, no
``: `` or `` #``, no indicator first, a string by PyYAML's resolver, printable ASCII or other
safe characters), and Claude Code's frontmatter (its first ``---``, ``runtime_frontmatter``)
must still end where ours does. Anything else, and any other form (lists, quotes, blocks, a
value added or removed), is read whole. tests/test_reread.py compares the branch with the
whole reader; the Bun differential (``.ci/steps/40-bun-differential.sh``) reads every rewrite
back through the runtime's own steps.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ..grants import split_allowed_tools
from ..limits import MAX_FRONTMATTER_CHARS
from .blockread import block_items_replaced, same_span
from .doc import SkillDoc, separator
from .entryspans import verbatim_spans
from .flatyaml import read_line
from .spans import KEY, eol, read_skill

_STR: Final = "tag:yaml.org,2002:str"


def reread(old: SkillDoc, text: str) -> SkillDoc:
    """``read_skill(text, old.path)`` for ``text``, a rewrite of ``old.text`` that changed
    (at most) its ``allowed-tools`` value. Raises SkillFileError as ``read_skill`` does."""
    value = old.allowed_tools
    fast = None
    if value is not None and value.form == "plain":
        fast = _plain_value_replaced(old, text)
    elif value is not None and value.form == "block-list":
        fast = block_items_replaced(old, text)
    return fast if fast is not None else read_skill(text, old.path)


def _plain_value_replaced(old: SkillDoc, text: str) -> SkillDoc | None:
    """The document ``text`` is when only a one-line plain value changed (module docstring);
    None when the rewrite is not one this branch is sure of."""
    value = old.allowed_tools
    if (value is None or value.form != "plain" or value.multiline or value.key_column != 0
            or old.runtime_note is not None or old.retried is not None):
        return None
    start, tail = value.start, len(old.text) - value.end
    end = len(text) - tail
    if end <= start or not (text.startswith(old.text[:start])
                            and text.endswith(old.text[value.end:])):
        return None
    line_end = eol(text, end)
    read = read_line(text[value.key_start:line_end])
    written = text[start:end]
    if read is None or read != (_STR, KEY, _STR, written) or line_end != end:
        return None
    shift = end - value.end
    yaml_end = old.yaml_end + shift
    if (yaml_end - old.yaml_start > MAX_FRONTMATTER_CHARS
            or not same_span(old, old.text, old.yaml_end)
            or not same_span(old, text, yaml_end)):
        return None
    entries = tuple(split_allowed_tools(written))
    spans = verbatim_spans(written, start, (start, end), entries)
    new_value = replace(value, value=written, entries=entries, end=end, line_end=line_end,
                        separator=separator(written, entries),
                        entry_starts=tuple(s for s, _ in spans),
                        entry_ends=tuple(e for _, e in spans))
    return replace(old, text=text, yaml_end=yaml_end, body_start=old.body_start + shift,
                   metadata={k: written if k == KEY else v for k, v in old.metadata.items()},
                   allowed_tools=new_value,
                   insert_at=old.insert_at + (shift if old.insert_at > start else 0))
