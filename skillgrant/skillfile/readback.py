"""Reading a rewrite back from its ``allowed-tools`` line alone, when that reads as the whole.

``builder`` reads every rewrite back before it is written (semantics §6): the new text must
hold exactly the decided entries and leave every other key, the body and Claude Code's reading
alone. A rewrite only replaces the value's span, so when the file's frontmatter is flat
``key: value`` lines (``flatyaml``) and the new ``allowed-tools`` line is one too, the whole
read-back is decided by that line:

* the text before the old line and after it is unchanged (compared here, not assumed), so the
  new frontmatter is the old flat lines with one flat line in place of another: it is flat,
  each of its lines composes to the nodes it composed to before (flatyaml reads a line alone),
  the fences are where they were (no flat line is a fence, nor a dash line python-frontmatter
  would stop at), and so are the body and every other key;
* the new line's node gives the entries, as ``spans`` would (a plain or double-quoted string,
  with neither tag nor anchor);
* the runtime's reading is ``runtime.check`` on the new text (its flat case). That check has
  one answer when the runtime's frontmatter is the new frontmatter itself, which one ``find``
  tells: a flat frontmatter starts with a key's letter, so the runtime's opening line (the
  text before the old line, unchanged, and which the runtime read) ends where ours does, and
  its frontmatter ends at the first ``---`` after it; no flat line holds a YAML 1.1-only line
  break; the new line holds the key; so the readings agree (``check``'s docstring) and there
  is nothing to note. Any other frontmatter is checked by ``runtime.check``;
* the frontmatter stays within MAX_FRONTMATTER_CHARS.

``line_reads_back`` says True only when all of that holds; anything else (another form, a key
added or removed, a line that is not flat, any doubt) is False, and the caller reads the
rewrite back whole, which also gives every refusal its message. tests/test_flat_readback.py
compares the two on generated rewrites, broken ones included.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..grants import split_allowed_tools
from ..limits import MAX_FRONTMATTER_CHARS
from .doc import SkillDoc
from .flatyaml import read_line
from .runtime import Divergence
from .runtime import check as runtime_check
from .spans import KEY
from .yamlspan import STR_TAG


def line_reads_back(doc: SkillDoc, new_text: str, entries: Sequence[str]) -> bool:
    """True when ``new_text``, a rewrite of ``doc``, certainly reads back with exactly
    ``entries`` and nothing else changed; False when that takes reading it whole."""
    value = doc.allowed_tools
    if not doc.flat or value is None or not entries or doc.runtime_note is not None:
        return False
    old = doc.text
    start, old_end = value.key_start, value.line_end
    delta = len(new_text) - len(old)
    new_end = old_end + delta
    yaml_end = doc.yaml_end + delta
    if (new_end <= start or yaml_end - doc.yaml_start > MAX_FRONTMATTER_CHARS
            or new_text[:start] != old[:start] or new_text[new_end:] != old[old_end:]):
        return False
    line = new_text[start:new_end]
    if "\n" in line or "---" in line:  # one line, and no fence for the runtime inside it
        return False
    read = read_line(line)
    if read is None:
        return False
    key_tag, key, value_tag, written = read
    if key_tag != STR_TAG or key != KEY or value_tag != STR_TAG:
        return False
    got = tuple(split_allowed_tools(written))
    if list(got) != list(entries):
        return False
    if new_text.find("---", doc.yaml_start) == yaml_end:
        return True  # the runtime reads this frontmatter: see the module docstring
    try:
        note = runtime_check(new_text, doc.yaml_start, yaml_end, got, flat=True)
    except Divergence:
        return False
    return note is None
