"""Render a new ``allowed-tools`` value in the form the file already uses, and splice it in.

Only the value's span changes (semantics §6). A block list keeps its dash prefix and quote style and
reuses the exact lines (comments included) of items that survive unchanged; a flow list keeps
its brackets' spacing; a string keeps its quoting and separator; a literal or folded block keeps
its header and indentation. Any entry the file's style cannot hold is double-quoted.
"""

from __future__ import annotations

from collections.abc import Sequence

from .doc import AllowedTools, Item, SkillDoc
from .spans import KEY
from .yamlspan import double_quote, one_line, render_scalar

# Below this many columns a wrapped multi-line string would be mostly line breaks.
_MIN_WRAP_WIDTH = 40


def splice(doc: SkillDoc, entries: Sequence[str]) -> str:
    """The file text with ``allowed-tools`` holding exactly ``entries``: added when absent,
    removed when ``entries`` is empty, otherwise rewritten in place. Not yet verified."""
    text = doc.text
    value = doc.allowed_tools
    if value is None:
        if not entries:
            return text
        return doc.with_body(doc.insert_at, text[:doc.insert_at] + _new_key(doc, entries))
    if not entries:
        cut = value.line_end
        cut += 2 if text.startswith("\r\n", cut) else 1 if text.startswith("\n", cut) else 0
        return doc.with_body(cut, text[:value.key_start])
    return doc.with_body(value.end, text[:value.start] + render(doc, value, entries))


def render(doc: SkillDoc, value: AllowedTools, entries: Sequence[str]) -> str:
    """The replacement text for ``value.start``..``value.end``."""
    if value.form == "block-list":
        return _block_list(doc, value, entries)
    if value.form == "flow-list":
        return _flow_list(doc.text, value, entries)
    if value.form in ("literal", "folded"):
        return _block_scalar(doc, value, entries)
    return _string(doc, value, entries)


def _new_key(doc: SkillDoc, entries: Sequence[str]) -> str:
    indent = " " * doc.insert_column
    lines = [f"{indent}{KEY}:"]
    lines += [f"{indent}  - {render_scalar(e, 'plain', flow=False)}" for e in entries]
    return doc.newline.join(lines) + doc.newline


def _reuse(items: Sequence[Item], used: set[int], entry: str) -> Item | None:
    for index, item in enumerate(items):
        if index not in used and item.value == entry:
            used.add(index)
            return item
    return None


def _item_style(items: Sequence[Item]) -> str:
    style = items[0].style if items else "plain"
    return style if style in ("plain", "single", "double") else "double"


def _block_list(doc: SkillDoc, value: AllowedTools, entries: Sequence[str]) -> str:
    style = _item_style(value.items)
    used: set[int] = set()
    lines = []
    for entry in entries:
        item = _reuse(value.items, used, entry)
        if item is not None:
            lines.append(doc.text[item.block_start:item.block_end])
        else:
            lines.append(value.item_prefix + render_scalar(entry, style, flow=False))
    return doc.newline.join(lines)


def _flow_list(text: str, value: AllowedTools, entries: Sequence[str]) -> str:
    items = value.items
    lead, sep, trail = "", ", ", ""
    if items:
        lead = text[value.start + 1:items[0].start]
        trail = text[items[-1].end:value.end - 1]
        if len(items) > 1:
            sep = text[items[0].end:items[1].start]
    if "#" in lead + sep + trail:  # a comment inside the brackets: do not copy it around
        lead, sep, trail = "", ", ", ""
    style = _item_style(items)
    used: set[int] = set()
    pieces = []
    for entry in entries:
        item = _reuse(items, used, entry)
        pieces.append(text[item.start:item.end] if item is not None
                      else render_scalar(entry, style, flow=True))
    return "[" + lead + sep.join(pieces) + trail + "]"


def _value_separator(value: AllowedTools) -> str:
    """The separator between entries of a string value, as one line: the file's own when it
    is commas and spaces, else ``", "`` or ``" "`` by whether the file used commas."""
    sep = value.separator
    if sep is None:
        return ", "
    if sep.strip(", ") == "" and sep.count(",") <= 1:
        return sep
    return ", " if "," in sep else " "


def _string(doc: SkillDoc, value: AllowedTools, entries: Sequence[str]) -> str:
    sep = _value_separator(value)
    joined = sep.join(entries)
    style = {"plain": "plain", "single-quoted": "single"}.get(value.form, "double")
    rendered = render_scalar(joined, style, flow=False)
    quote = rendered[0] if rendered[0] in "'\"" else ""
    if (not value.multiline or sep not in (", ", " ") or rendered != quote + joined + quote
            or (quote and doc.newline != "\n")):  # Bun keeps a CRLF in quotes as a break
        return rendered
    return _wrap(doc, value, entries, sep, quote)


def _wrap(doc: SkillDoc, value: AllowedTools, entries: Sequence[str], sep: str, quote: str) -> str:
    """A multi-line string stays multi-line: break at the separators' spaces, as wide as the
    widest line it had, continuation lines indented as its second line was."""
    text = doc.text
    first_line = text.rfind("\n", 0, value.start) + 1
    lines = text[first_line:value.end].split("\n")
    width = max(_MIN_WRAP_WIDTH, *(len(line.rstrip("\r")) for line in lines))
    indent = len(lines[1]) - len(lines[1].lstrip(" ")) if len(lines) > 1 else 0
    if indent <= value.key_column:
        indent = value.key_column + 2
    tokens = [e + sep.rstrip(" ") for e in entries[:-1]] + [entries[-1]]
    tokens[0] = quote + tokens[0]
    tokens[-1] = tokens[-1] + quote
    out = [tokens[0]]
    column = value.start - first_line + len(tokens[0])
    for token in tokens[1:]:
        if column + 1 + len(token) > width:
            out.append(doc.newline + " " * indent + token)
            column = indent + len(token)
        else:
            out.append(" " + token)
            column += 1 + len(token)
    return "".join(out)


def _block_scalar(doc: SkillDoc, value: AllowedTools, entries: Sequence[str]) -> str:
    text = doc.text
    # Claude Code cuts a value at ',' and ' ' only: one entry a line needs its comma.
    comma = True
    if not all(one_line(e) for e in entries):
        # A line break or an unprintable character cannot stand in a block scalar.
        return double_quote(_value_separator(value).join(entries))
    header_end = text.find("\n", value.start)
    header = text[value.start:header_end].rstrip("\r")
    content = text[header_end + 1:value.end]
    indent = next((len(line) - len(line.lstrip(" ")) for line in content.split("\n")
                   if line.strip()), value.key_column + 2)
    if value.multiline:
        lines = [e + ("," if comma and i < len(entries) - 1 else "")
                 for i, e in enumerate(entries)]
    else:
        lines = [_value_separator(value).join(entries)]
    return header + "".join(doc.newline + " " * indent + line for line in lines)
