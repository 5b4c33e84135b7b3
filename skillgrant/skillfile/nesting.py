"""A bound on how many collections a YAML text can open, told by its characters at C speed:
``yamlspan.compose`` composes a text whose bound is within ``MAX_NESTING_DEPTH`` without the
event pass that refuses deeper nesting (it cannot nest deeper than it opens collections)."""

from __future__ import annotations

import re
from typing import Final

from ..limits import MAX_NESTING_DEPTH

# Every collection a YAML document opens needs one of these characters of its own (a block
# sequence its '-', a block mapping the ':' or '?' of its first key, a flow collection its
# bracket): a text with no more of them than MAX_NESTING_DEPTH cannot nest deeper.
_COLLECTION_INDICATORS: Final = "-:?[{"
# Outside a flow collection (a text with no '[' or '{' has none), '-', '?' and ':' are
# indicators only when a blank, a line break or the end of the text follows (the scanners'
# check_block_entry, check_key and check_value, libyaml's IS_BLANKZ): only those can open a
# collection. Descriptions full of hyphens and colons (``a-b``, ``12:30``) open none.
_BLOCK_INDICATOR: Final = re.compile(r"[-?:](?=[\0 \t\r\n\x85\u2028\u2029]|\Z)")
# In a text with brackets, '?' and ':' inside a flow collection may be indicators with no
# blank after them (a single-pair mapping in a flow sequence opens at either); a '-' opens a
# collection only as a block entry, which it is only with a blank after it (libyaml's
# fetch_more_tokens: '-' and IS_BLANKZ_AT(1)), in a flow collection or out of one.
_BLOCK_DASH: Final = re.compile(r"-(?=[\0 \t\r\n\x85\u2028\u2029]|\Z)")


def collections_at_most(text: str) -> int:
    """A bound on how many collections ``text`` can open, so on how deep it can nest."""
    every = sum(map(text.count, _COLLECTION_INDICATORS))
    if every <= MAX_NESTING_DEPTH:
        return every  # (counted at C speed; the searches below are a step a character)
    if "[" in text or "{" in text:
        return with_brackets(text)
    return len(_BLOCK_INDICATOR.findall(text))


def with_brackets(text: str) -> int:
    """``collections_at_most`` for a text with brackets: each bracket, '?' and ':', and
    each '-' with a blank after it (``_BLOCK_DASH``); the hyphens of names, dates and
    options (``git-derive-docs``, ``2026-01-24``, ``--since``) open none."""
    return sum(map(text.count, "[{?:")) + len(_BLOCK_DASH.findall(text))
