"""The SkillDoc of the SKILL.md most files are, read without YAML nodes: ``spans.read_skill``
tries this first.

``read_flat`` answers only for a text without a lone surrogate that opens with ``---\\n``,
closes with a ``---`` line, and whose frontmatter is flat ``key: value`` lines
(``flatyaml.flat_lines``) of string keys and string values. For any other text it says None
and the general reader reads it, which also gives every refusal its message. Where it
answers, the answer is the general reader's, field for field, because each of that reader's
steps has one outcome on such a text:

* no lone surrogate is in the text (asked, as the general reader asks), and it opens with
  ``---``, so with no BOM; a flat line holds printable characters only and begins with a
  key's letter, so no YAML 1.1-only line break is in the frontmatter and no BOM is first on
  one of its lines (what the body holds matters to neither reader's frontmatter);
* the frontmatter is ``flatyaml``'s lines, which ``compose_flat`` turns into a block mapping
  of the same keys, values, styles and offsets; a value with an escape (whose entries are found
  character by character) is left to the general reader;
* python-frontmatter loads the same text (``fmread.loads_composed``, asked, not assumed), so
  its metadata is each key's string, a later duplicate winning; a second ``allowed-tools`` key
  is left to the general reader, which refuses it;
* the runtime's frontmatter ends at the first ``---`` after the opening line: when that is the
  closing fence, its text is the same, and the runtime's readings agree with ours (the flat
  case of ``runtime.check``); when ``allowed-tools`` is absent and no reading could find it
  (``runtime.could_hold_key``), the runtime grants nothing either;
* a value is one line, ending at the line break: it is its own ``line_end``, and an
  ``allowed-tools`` key is added after the first ``description`` line, or at the end.

tests/test_flatread.py compares ``read_flat`` with the general reader on generated texts and on
the real skills.
"""

from __future__ import annotations

import re
from typing import Final

from ..grants import lone_surrogate, split_allowed_tools
from ..limits import MAX_FRONTMATTER_CHARS
from .doc import FORMS, AllowedTools, SkillDoc, separator
from .flatyaml import FlatLine, flat_lines
from .fmread import loads_composed
from .runtime import KEY, could_hold_key
from .yamlspan import STR_TAG, STYLE_NAMES, verbatim_spans

# A line that is a closing fence, '---' or '...' with blanks and a CR after it (group 1: those
# three characters), or else a foreign boundary (a line python-frontmatter's own boundary,
# -{3,}\s*, fully matches).
_FENCE: Final = r"(?:(---|\.\.\.)[ \t]*\r?|-{3,}[^\S\n]*)$"
#: The first such line (of those split at "\n").
FENCE_LINE: Final = re.compile("^" + _FENCE, re.MULTILINE)
# The same, after the line break that begins its line: the same lines (after the opening line,
# every line begins after one), found by a search that looks for the break first rather than
# trying the whole expression at every character.
_FENCE_AFTER_BREAK: Final = re.compile("\n" + _FENCE, re.MULTILINE)
_OPENING: Final = "---\n"
_START: Final = len(_OPENING)


def read_flat(text: str, path: str | None) -> SkillDoc | None:
    """The SkillDoc ``spans.read_skill`` gives for ``text``, when it is a flat SKILL.md (see
    the module docstring); None for any other text."""
    found = _frontmatter(text)
    if found is None:
        return None
    yaml_end, body_start, lines = found
    keys = _keys(lines)
    if keys is None:
        return None
    metadata, allowed, description = keys
    if allowed is None:
        value = None
        if could_hold_key(text[_START:yaml_end]):
            return None
    else:
        value = _allowed(text, allowed)
        if value is None:
            return None
    insert_at = (yaml_end if description is None
                 else _START + description.value_at + len(description.raw) + 1)
    return SkillDoc(path, text, "\n", False, _START, yaml_end, body_start, metadata, value,
                    insert_at, 0, None, True)


def _frontmatter(text: str) -> tuple[int, int, list[FlatLine]] | None:
    """Where a flat frontmatter ends, where the body starts, and its lines; None when the
    text is not one this module reads."""
    if type(text) is not str or not text.startswith(_OPENING) or lone_surrogate(text) is not None:
        return None
    fence = _FENCE_AFTER_BREAK.search(text, _START - 1)
    if fence is None or fence.group(1) != "---":
        return None
    yaml_end, fence_end = fence.start() + 1, fence.end()
    if yaml_end - _START > MAX_FRONTMATTER_CHARS or text.find("---", _START) != yaml_end:
        return None
    yaml_text = text[_START:yaml_end]
    lines = flat_lines(yaml_text)
    if not lines:
        return None
    try:
        if loads_composed(text, yaml_text) is not True:
            return None
    except Exception:  # the general reader says why python-frontmatter cannot read it
        return None
    return yaml_end, min(fence_end + 1, len(text)), lines


_Keys = tuple[dict[str, object], FlatLine | None, FlatLine | None]


def _keys(lines: list[FlatLine]) -> _Keys | None:
    """The metadata (each key's string, a later duplicate winning), the ``allowed-tools`` line
    and the first ``description`` line; None when a key or a value is not a string, or
    ``allowed-tools`` is written twice."""
    metadata: dict[str, object] = {}
    allowed = description = None
    for line in lines:
        if line.key_tag != STR_TAG or line.tag != STR_TAG:
            return None
        metadata[line.key] = line.value
        if line.key == KEY:
            if allowed is not None:
                return None
            allowed = line
        elif description is None and line.key == "description":
            description = line
    return metadata, allowed, description


def _allowed(text: str, line: FlatLine) -> AllowedTools | None:
    """The AllowedTools of a flat ``allowed-tools`` line; None when its value is written
    with an escape."""
    start = _START + line.value_at
    end = start + len(line.raw)
    value = line.value
    at = start
    if line.style == '"':
        at += 1
        if end - 1 - at != len(value):
            return None
    entries = tuple(split_allowed_tools(value))
    spans = verbatim_spans(value, at, (start, end), entries)
    starts, ends = zip(*spans, strict=True) if spans else ((), ())
    return AllowedTools(FORMS[STYLE_NAMES.get(line.style, "plain")], value, entries,
                        start=start, end=end, line_end=end, separator=separator(value, entries),
                        multiline=False, key_start=_START + line.start, key_column=0,
                        entry_starts=starts, entry_ends=ends)
