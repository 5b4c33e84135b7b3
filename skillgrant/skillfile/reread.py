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
must still end where ours does. A block list of plain items has its own branch (``blockread``).

Any other rewrite of the key's lines (a flow list, quoted or block scalars, a plain value over
several lines, commented items) reads the key's new lines alone, as a document of their own,
through the whole reader (``_key_lines_replaced``), where the old document was read directly
and alike, its ``allowed-tools`` a top-level key at column 0, and the line after the key's
lines is the end of the frontmatter or starts with a letter (a key at column 0: no value of
any form continues onto it, the open ones, quotes and brackets, being closed in the lines
alone). Then both readers' steps on the new text are the old text's, but for these lines: the
lines start a key where the old ones did, in the same state (a block mapping at column 0),
and end so; the fences, the YAML 1.1 line breaks, a BOM first on a line, lone surrogates and
``---`` (ours, python-frontmatter's and Claude Code's) are looked for in the lines when they
are read alone (and the lines are printable ASCII without a tab or CR besides); Bun's
rejections (``runtime.bun_rejects``) judge each node by itself and its parent's column, which
is 0 in both; the metadata is the old with this key's value. A document read through the
re-quote retry has its own branch (``_retried_lines_replaced``: its re-quoted text read by the
branches above). Value added or removed, noted documents: read whole. tests/test_reread.py and
tests/test_reread_retried.py compare the branches with the whole reader; the Bun differential
(``.ci/steps/40-bun-differential.sh``) reads every rewrite back through the runtime's own steps.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from ..errors import AllowedToolsError, SkillFileError
from ..grants import split_allowed_tools
from ..limits import MAX_FRONTMATTER_CHARS
from . import spans as reader  # (its FENCE_LINE under its one name: tests/property)
from .blockread import block_items_replaced, same_span
from .dashtab import compose_dash_tabs
from .doc import AllowedTools, SkillDoc, separator
from .entryspans import verbatim_spans
from .flatyaml import read_line
from .retry import read_retried
from .runtime import (
    Divergence,
    Prediction,
    RuntimeFrontmatter,
    may_swallow,
    rejected_retry,
    runtime_frontmatter,
)
from .spans import KEY, eol, read_skill
from .yamlapart import apart_as_read
from .yamlspan import YamlProblem

_STR: Final = "tag:yaml.org,2002:str"


def reread(old: SkillDoc, text: str) -> SkillDoc:
    """``read_skill(text, old.path)`` for ``text``, a rewrite of ``old.text`` that changed
    (at most) its ``allowed-tools`` value. Raises SkillFileError as ``read_skill`` does."""
    fast = _branch(old, text)
    return fast if fast is not None else read_skill(text, old.path, scans=old.scans)


def _branch(old: SkillDoc, text: str) -> SkillDoc | None:
    """``reread``'s fast branches: the document ``text`` is, or None where none is sure."""
    value = old.allowed_tools
    if value is None:
        return None
    fast = None
    if old.retried is not None:
        fast = _retried_lines_replaced(old, text)
    elif value.form == "plain":
        fast = _plain_value_replaced(old, text)
    elif value.form == "block-list":
        fast = block_items_replaced(old, text)
    if fast is None and old.retried is None:
        fast = _key_lines_replaced(old, text)
    if fast is not None and _read_apart(fast):
        fast = None  # the whole reader refuses it, and says where
    return fast


def _read_apart(doc: SkillDoc) -> bool:
    """Whether the new key lines hold text the whole reader refuses as read apart by Bun and
    PyYAML (``yamlapart.apart_as_read``: ``Read, -, Read``, ``Read, &a:x``): the branches read
    the lines as PyYAML does, and the rest of the text was read before."""
    value = doc.allowed_tools
    if value is None:
        return False
    lines = doc.text[value.key_start:value.line_end]
    return (_apart_read(lines) if len(lines) <= _MEMO_CHARS else apart_as_read(lines)) is not None


#: A document of the key's lines alone: ``_key_lines_replaced`` reads them so.
_FENCE: Final = "---\n"


def _key_lines_replaced(old: SkillDoc, text: str) -> SkillDoc | None:
    """The document ``text`` is when only the lines of a top-level ``allowed-tools`` key
    changed, read from those lines alone (module docstring); None when the rewrite is not one
    this branch is sure of."""
    value = old.allowed_tools
    was = old.text
    if (value is None or value.key_column != 0 or old.runtime_note is not None
            or old.retried is not None or was[value.line_end:value.line_end + 1] != "\n"):
        return None
    start, after = value.key_start, value.line_end + 1
    first = was[after:after + 1]
    if after != old.yaml_end and not (first.isascii() and first.isalpha()):
        return None
    tail = len(was) - value.line_end
    end = len(text) - tail
    lines = text[start:end]
    # Printable ASCII lines: no tab, CR, BOM or YAML 1.1-only line break to look for.
    if (end <= start or not (lines.isascii() and lines.replace("\n", "").isprintable())
            or not (text.startswith(was[:start]) and old.ends_as(text, value.line_end))):
        return None
    read = _lines_read(lines) if len(lines) <= _MEMO_CHARS else _lines_alone(lines)
    if read is None:
        return None
    new, written = read
    shift = end - value.line_end
    if not same_span(old, text, shift):
        return None
    kept = written if isinstance(written, str) else list(written)
    return old.spliced(text, start, shift,
                       {k: kept if k == KEY else v for k, v in old.metadata.items()},
                       new.moved(start - len(_FENCE)))


def _lines_alone(lines: str) -> tuple[AllowedTools, str | tuple[str, ...]] | None:
    """The ``allowed-tools`` of the key's ``lines`` read alone, as a document of their own
    (``---`` fenced, offsets in that document), and its metadata value; None when the whole
    reader refuses them, or reads them as anything but this key alone, read directly and
    alike, its lines exactly ``lines``. A function of ``lines`` alone."""
    alone = _FENCE + lines + "\n" + _FENCE
    try:
        doc = read_skill(alone)
    except SkillFileError:
        return None  # the whole reader says why, where
    new = doc.allowed_tools
    if (new is None or doc.runtime_note is not None or doc.retried is not None
            or list(doc.metadata) != [KEY] or new.key_start != len(_FENCE)
            or new.line_end != len(_FENCE) + len(lines)
            or doc.yaml_end != len(alone) - len(_FENCE) or not doc.runtime_span_same):
        return None
    written = doc.metadata[KEY]
    # Kept for other rewrites of the same lines (_lines_read): a list is kept as a tuple.
    if isinstance(written, list):
        written = tuple(written)
    return (new, written) if isinstance(written, (str, tuple)) else None


#: Key lines up to this long are read once for a batch (``_lines_read``).
_MEMO_CHARS: Final = 4096

#: ``_lines_alone``, remembered for the last rewrites' lines: the files of one plugin or
#: repository often share one ``allowed-tools`` value, and so its rewrite (at most
#: 256 × 4 Ki characters kept).
_lines_read: Final = lru_cache(maxsize=256)(_lines_alone)


def _apart_alone(lines: str) -> tuple[str, int] | None:
    """``apart_as_read`` of the key's lines alone: a function of ``lines`` (no nodes given)."""
    return apart_as_read(lines)


#: ``_apart_alone``, remembered for the last rewrites' key lines, as ``_lines_read``.
_apart_read: Final = lru_cache(maxsize=256)(_apart_alone)


def _plain_value_replaced(old: SkillDoc, text: str) -> SkillDoc | None:
    """The document ``text`` is when only a one-line plain value changed (module docstring);
    None when the rewrite is not one this branch is sure of."""
    value = old.allowed_tools
    if (value is None or value.form != "plain" or value.multiline or value.key_column != 0
            or old.runtime_note is not None or old.retried is not None):
        return None
    start, tail = value.start, len(old.text) - value.end
    end = len(text) - tail
    if end <= start or not (text.startswith(old.text[:start]) and old.ends_as(text, value.end)):
        return None
    line_end = eol(text, end)
    if line_end != end:
        return None
    line = text[value.key_start:end]
    at = start - value.key_start
    read = _plain_read(line, at) if len(line) <= _MEMO_CHARS else _plain_line(line, at)
    if read is None:
        return None
    shift = end - value.end
    if not same_span(old, text, shift):
        return None
    written, entries, starts, ends, between = read
    if entries is None:  # the split refuses the value: raised here, after the checks, as ever
        split_allowed_tools(written)
        return None
    new_value = value.rewritten(written, entries, end, line_end, between, value.multiline,
                                value.items, tuple(start + s for s in starts),
                                tuple(start + e for e in ends))
    return old.spliced(text, start, shift,
                       {k: written if k == KEY else v for k, v in old.metadata.items()},
                       new_value)


def _plain_line(line: str, at: int) -> tuple[str, tuple[str, ...] | None, tuple[int, ...],
                                             tuple[int, ...], str | None] | None:
    """What ``_plain_value_replaced`` reads of the key's new ``line`` (its value from ``at``):
    the value's string, its entries, their starts and ends from the value's start, and its
    separator; None when the line does not read, alone, as ``allowed-tools: <that plain
    string>``; no entries (None) when ``split_allowed_tools`` refuses the value (the branch
    raises its error after its checks). A function of ``line`` and ``at`` alone (the offsets
    are the value's own)."""
    written = line[at:]
    if read_line(line) != (_STR, KEY, _STR, written):
        return None
    try:
        entries = tuple(split_allowed_tools(written))
    except AllowedToolsError:
        return written, None, (), (), None
    spans = verbatim_spans(written, 0, (0, len(written)), entries)
    return (written, entries, tuple(s for s, _ in spans), tuple(e for _, e in spans),
            separator(written, entries))


#: ``_plain_line``, remembered for the last rewrites' lines, as ``_lines_read``.
_plain_read: Final = lru_cache(maxsize=256)(_plain_line)


def _retried_lines_replaced(old: SkillDoc, text: str) -> SkillDoc | None:
    """The document ``text`` is when only the lines of a top-level ``allowed-tools`` key
    changed in a file read through the runtime's re-quote retry (``retry``), its re-quoted
    text read from the old one's (``SkillDoc.retried_reading``) by the branches above; None
    when the rewrite is not one this branch is sure of.

    The whole reader's steps on ``text`` are taken but three: PyYAML rejects the new
    frontmatter (composed here), and ``runtime.rejected_retry`` gives why Bun rejects it and
    its re-quoted text, which is the old re-quoted text with the key's lines re-quoted anew
    (the re-quote goes line by line). The three are the re-quoted text's composition, Bun's
    verdict on it and its reading: a branch reads it from the old re-quoted text's reading
    exactly as ``read_skill`` would, read directly and alike (no note, no retry: the
    composition succeeded, no ``-`` and tab to space, and ``bun_rejects`` found nothing,
    which ``predict`` asks of it). ``runtime.may_swallow`` is a function of each line: the
    lines outside the key's were the old text's (and passed), and of the key's lines only the
    first starts a key (the branches read no other key there). The frontmatter must still end
    where both readers end it, at the same place as before, with no fence among the new lines.
    """
    inner = old.retried_reading
    value = old.allowed_tools
    was = old.text
    if (inner is None or value is None or value.key_column != 0 or old.runtime_note is not None
            or was[value.line_end:value.line_end + 1] != "\n"):
        return None
    start, tail = value.key_start, len(was) - value.line_end
    end = len(text) - tail
    lines = text[start:end]
    if (end <= start or not (lines.isascii() and lines.replace("\n", "").isprintable())
            or reader.FENCE_LINE.search("\n" + lines) is not None
            or not (text.startswith(was[:start]) and old.ends_as(text, value.line_end))):
        return None
    yaml_start, yaml_end = old.yaml_start, old.yaml_end + end - value.line_end
    if (yaml_end - yaml_start > MAX_FRONTMATTER_CHARS
            or runtime_frontmatter(text) != (yaml_start, yaml_end)):
        return None
    yaml_text = text[yaml_start:yaml_end]
    try:
        compose_dash_tabs(yaml_text)
        return None  # (read directly now: the whole reader)
    except YamlProblem as e:
        problem = YamlProblem(e.message, e.index or 0)  # (spans' offset into this text)
    scans = list(old.scans)
    try:
        why, _, retry = rejected_retry(yaml_text, problem, scans)
    except Divergence:
        return None
    first = yaml_text.count("\n", 0, start - yaml_start)  # the key's line
    count = lines.count("\n") + 1
    if "-\t" in retry or may_swallow(lines, "\n".join(retry.split("\n")[first:first + count]),
                                       {0}) is not None:
        return None
    new = _branch(inner, text[:yaml_start] + retry + text[yaml_end:])
    if new is None or new.runtime_note is not None or new.retried is not None:
        return None
    try:
        return read_retried(text, RuntimeFrontmatter(yaml_start, yaml_end),
                            Prediction("retry", None, retry, why), new, scans)
    except SkillFileError:
        return None  # (the whole reader says why)
