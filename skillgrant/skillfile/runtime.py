"""How Claude Code reads a SKILL.md's frontmatter, so skillgrant reads what it reads, or refuses
(semantics §6; docs/runtime-conformance.md has the measurements and the binary's own steps).

The runtime (2.1.332) strips one BOM, then takes the frontmatter with the JavaScript regex
``^---\\s*\\n([\\s\\S]*?)---\\s*\\n?``: it ends at the first ``---`` *anywhere*, even inside a
value. It parses that text with Bun's YAML 1.2 parser, where U+0085, U+2028 and U+2029 are
not line breaks (PyYAML's YAML 1.1 treats them as breaks). When the parse throws, it rewrites
every line ``key: value`` whose value is unquoted and holds one of ``{}[]*&#!|>%@`` or a
backtick, or ``": "``, as ``key: "value"``, turns leading tabs into spaces, and parses again;
when that throws too, the frontmatter is empty.

skillgrant cannot run Bun, so it predicts Bun's outcome from PyYAML's nodes (``predict``):

* Bun accepts a text PyYAML composes unless a line inside a multi-line flow scalar or flow
  collection starts at or left of the column of the block it belongs to, or with a tab
  (``bun_rejects``): YAML 1.2 asks those lines to be indented, PyYAML does not;
* a text PyYAML does not compose, Bun rejects too.

Each rule is pinned by tests/oracle (Bun running the runtime's own steps on generated
frontmatters). When Bun rejects, the runtime's reading is the re-quoted text's, read the same
way. Where the outcome cannot be computed (PyYAML rejects the re-quoted text, or the first
text with nothing to re-quote) the file is refused: a reading skillgrant cannot compute is
never taken to grant nothing.
"""

from __future__ import annotations

import re
from typing import Final, Literal, NamedTuple

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..grants import JS_WHITESPACE
from .blockcolumn import block_column, wide_blank_line
from .flatyaml import composed_flat
from .flowlenient import Scan, bun_may_accept, is_flow_list, leftmost
from .flowreject import AFTER_QUOTE, BREAK, flow_node
from .tagged import content_start, tagged_key
from .yamlapart import apart_as_read, apart_as_rejected, judged_keys
from .yamlspan import YamlProblem, compose, is_str_scalar, line_column

KEY: Final = "allowed-tools"

# JavaScript's \s (not Python's), as a character class.
_JS_SPACE: Final = re.escape(JS_WHITESPACE)
_JS_LINE_END: Final = "\n\r\u2028\u2029"  # what JavaScript's '.' does not match
# The opening line of the runtime's frontmatter regex (the module docstring's).
_OPENING: Final = re.compile(f"---[{_JS_SPACE}]*\n")
# Line breaks in YAML 1.1 (PyYAML) that are ordinary characters in YAML 1.2 (Bun).
BREAKS_11_ONLY: Final = "\x85\u2028\u2029"
_SIMPLE_LINE: Final = re.compile(
    f"([a-zA-Z_-]+):[{_JS_SPACE}]+([^{_JS_SPACE}][^{_JS_LINE_END}]*)\\Z")
# The runtime's test of a value that needs quotes, /[{}[\]*&#!|>%@`]|: /, as a search for a
# character of the class (at C speed) or a ": " (an alternation is tried at every character).
_NEEDS_QUOTES: Final = re.compile(r"[{}\[\]*&#!|>%@`]")
_LEADING_TABS: Final = re.compile(f"(?:\\A|(?<=[{_JS_LINE_END}]))\t+")
# PyYAML errors (or skillgrant's own limits) on texts Bun may well accept.
#: A block scalar's header: its indicator, then its indentation and chomping indicators.
_HEADER: Final = re.compile(r"(?:[!&][^\s]*[ \t]+)*[|>][0-9+-]*")  # (a tag, an anchor: F10b)
_BUN_MAY_ACCEPT: Final = re.compile("anchor|alias|merge key|nested more than|nesting depth",
                                    re.IGNORECASE)
#: What Bun 1.4.5 reads where PyYAML rejects the text outside a flow collection (review
#: s47-freview2, each measured): a lone CR (a line break: `x: ` CR `: b` is an empty key), a
#: vertical tab or form feed, a comment or blank line indented with a tab, a plain value
#: starting with `,` (after an anchor or a tag too). Where PyYAML rejects a text holding one,
#: Bun may read it. Each group tried once per start (s49-freview B4, B5: a line of tabs, a run
#: of ``: !``): the tab group takes its line's blanks whole; the comma group's properties do not
#: end with ':' (a ':' ending one starts the same walk on: the texts matched are the same).
_BUN_READS: Final = re.compile(r"(?P<cr>\r(?!\n))|(?P<ff>[\x0b\x0c])"
                               r"|(?P<tab>^(?=[ \t]*\t)[ \t]*+(?:#|\r?$))"
                               r"|(?P<comma>:[ \t]++(?:[&!]\S*+(?<!:)[ \t]++)*+,)", re.MULTILINE)
_ODD_NAMES: Final = {"cr": "a carriage return alone", "ff": "a vertical tab or a form feed",
                     "tab": "a comment or blank line indented with a tab",
                     "comma": "a value starting with ','", "": "a character"}


class Divergence(Exception):
    """The runtime's reading cannot be computed; ``offset`` indexes the text it was asked of."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


class RuntimeFrontmatter(NamedTuple):
    """Where the runtime's frontmatter text is in the whole file text."""

    start: int
    end: int


def runtime_frontmatter(text: str) -> RuntimeFrontmatter | None:
    """The span the runtime parses as frontmatter, or None when it sees none."""
    offset = 1 if text.startswith("\ufeff") else 0
    # The runtime's regex, with its lazy scan (a step a character) done by str.find: its
    # closing '---' may be followed by anything, so the first one after the opening ends it.
    opening = _OPENING.match(text, offset)
    if opening is None or text.find("---", offset + 3) < 0:
        return None
    end = text.find("---", opening.end())
    return None if end < 0 else RuntimeFrontmatter(opening.end(), end)


def requoted(yaml_text: str) -> str:
    """The runtime's second attempt at text its YAML parser rejected."""
    lines = []
    at = 0  # (where the line starts: a Divergence of flowlenient is located there)
    for line in yaml_text.split("\n"):
        at, start = at + len(line) + 1, at
        match = _SIMPLE_LINE.match(line)
        if match is not None:
            key, value = match.groups()
            quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'"
            if not quoted and value[:1] == "[" and ("]#" in value or "}#" in value):
                raise Divergence(f"a '#' glued to a closing bracket in {value!r}: Claude Code's "
                                 "YAML parser may or may not read it as a list, and re-quote "
                                 "it so (review s48-freview2 R1); put a blank before the '#'",
                                 start)
            if not quoted and not is_flow_list(value, start, Divergence) and (
                    ": " in value or _NEEDS_QUOTES.search(value)):
                escaped = value.replace("\\", "\\\\").replace('"', '\\"')
                line = f'{key}: "{escaped}"'
        lines.append(line)
    joined = "\n".join(lines)  # (no tab, no leading one: the search is skipped)
    return _LEADING_TABS.sub(lambda m: "  " * len(m.group()), joined) if "\t" in joined \
        else joined


How = Literal["direct", "retry", "nothing"]


class Prediction(NamedTuple):
    """What the runtime makes of a frontmatter text: parsed as written ("direct", ``root``
    is PyYAML's nodes of it), re-quoted ("retry": ``text`` is the re-quoted text, ``root`` its
    nodes), or nothing (both parses throw); ``why`` says why Bun rejected the first text."""

    how: How
    root: Node | None
    text: str
    why: str | None


def predict(yaml_text: str, root: Node | None = None, problem: YamlProblem | None = None, *,
            accepted: bool = False, scans: list[Scan] | None = None) -> Prediction:
    """Bun's outcome on ``yaml_text``, of which ``root`` is PyYAML's nodes (or ``problem``
    PyYAML's error; neither: composed here). Raises Divergence (``offset`` into
    ``yaml_text``) when it cannot be computed. ``accepted``: ``bun_rejects(yaml_text, root)``
    is None, found already (by the prediction whose re-quoted text this is), and not asked
    again. ``scans``: ``flowlenient.bun_may_accept``'s, of a text this one may be a rewrite of
    (taken where they read what this text has), and where this prediction's are added."""
    if root is None and problem is None:
        try:
            root = compose(yaml_text)
        except YamlProblem as e:
            problem = e
    if problem is None:
        rejected = _rejects_as_written(yaml_text, root, accepted)
        if rejected is None:
            return Prediction("direct", root, yaml_text, None)
        why, where = rejected
        retry = _retry(yaml_text, why, where, False)
    else:
        why, where, retry = rejected_retry(yaml_text, problem, scans)
    line = line_column(yaml_text, where)[0]
    try:
        again = compose(retry)
    except YamlProblem as e:
        said = ("Claude Code's YAML parser rejects this frontmatter" if problem is None else
                "skillgrant's YAML parser rejects this frontmatter, and Claude Code's may too")
        raise Divergence(f"{said} ({why}, line {line}); then it re-quotes its 'key: value' "
                         f"lines and parses them again, and what it reads so cannot be "
                         f"computed ({e.message})", where) from e
    if bun_rejects(retry, again) is not None:
        return Prediction("nothing", None, retry, why)
    if problem is not None:
        swallowing = may_swallow(yaml_text, retry, top_key_lines(again))
        if swallowing is not None:
            raise Divergence(f"{why}; Claude Code's YAML parser may accept this frontmatter "
                             "as written, and read it otherwise than its re-quoted form: "
                             f"line {swallowing + 1}'s value reads otherwise as written (a "
                             "quote or a bracket left open, a comment, an anchor, a tag, a "
                             "block indicator or a collection); quote the value",
                             len("\n".join(yaml_text.split("\n")[:swallowing])))
    return Prediction("retry", again, retry, why)


def rejected_retry(yaml_text: str, problem: YamlProblem,
                   scans: list[Scan] | None = None) -> tuple[str, int, str]:
    """``predict``'s first steps on a text PyYAML rejects (``problem``): why and where Bun
    rejects it too, and the runtime's re-quoted text (Divergence where ``predict`` raises it
    at these steps). The read-back of a retried file (``reread``) takes them alone."""
    why, where = _rejected(problem, yaml_text, scans)
    return why, where, _retry(yaml_text, why, where, True)


def _retry(yaml_text: str, why: str, where: int, ours: bool) -> str:
    """The runtime's re-quoted text of ``yaml_text``, which Bun rejected (``why``, at
    ``where``; ``ours``: PyYAML rejected it, and Bun is taken to); Divergence when the retry
    changes nothing, or when a complex key may make Bun accept the text as written."""
    retry = requoted(yaml_text)
    if retry == yaml_text:
        raise Divergence(f"{why}; Claude Code's YAML parser may read this frontmatter "
                         "otherwise than skillgrant's, so what it grants cannot be computed "
                         f"(line {line_column(yaml_text, where)[0]})", where)
    if ours:
        _refuse(apart_as_rejected(yaml_text))
    return retry


def _refuse(apart: tuple[str, int] | None) -> None:
    """Divergence where the text is read apart (``yamlapart``)."""
    if apart is not None:
        raise Divergence(*apart)


def _rejects_as_written(yaml_text: str, root: Node | None,
                        accepted: bool = False) -> tuple[str, int] | None:
    """``bun_rejects`` (None when ``accepted``: known so), once no node is read otherwise by
    Bun (a tagged key or value: Divergence)."""
    _refuse(tagged_key(root, yaml_text))
    _refuse(apart_as_read(yaml_text, root, composed=True))
    return None if accepted else bun_rejects(yaml_text, root)


def refuse_judged_keys(yaml_text: str) -> None:
    """Divergence where the runtime's frontmatter, which is not skillgrant's, may hold a key
    that grants or runs (``yamlapart.judged_keys``)."""
    _refuse(judged_keys(yaml_text))


def top_key_lines(root: Node | None) -> set[int]:
    """The lines (0 first) where the keys of a top-level mapping ``root`` start."""
    return {key.start_mark.line for key, _ in root.value} if isinstance(root, MappingNode) \
        else set()


def may_swallow(yaml_text: str, retry: str, keys: set[int]) -> int | None:
    """The first re-quoted line whose value, read as written, could run on over the lines
    after it (an open quote or bracket), that is not a key of the re-quoted mapping's own (its
    lines: ``keys``), or whose value is another string, or none, as written
    (``_string_either_way``, for any key: review s48-freview H1-H3): Bun's reading as written
    (should it accept the text, where PyYAML does not) may then differ from the re-quoted one.
    None otherwise. A function of each line (its text, re-quoted text and whether a key
    starts it) alone."""
    for number, (before, after) in enumerate(zip(yaml_text.split("\n"), retry.split("\n"),
                                                 strict=True)):
        match = _SIMPLE_LINE.match(before)
        if before == after or match is None or after.startswith(" "):
            continue
        value = match.group(2)
        depth = sum(value.count(c) for c in "[{") - sum(value.count(c) for c in "]}")
        if number not in keys or value[0] in "\"'" or depth > 0 or not _string_either_way(value):
            return number
    return None


def _string_either_way(value: str) -> bool:
    """Whether a value the retry re-quotes gives the same string to Bun
    read as written, or else makes Bun reject the line (so the re-quoted string is what the
    runtime reads). A comment (`` #``) or an anchor, tag, alias or block indicator first
    would read otherwise; a flow collection is rejected when text follows its closing bracket
    or a ``${`` is inside it (pinned by tests/oracle)."""
    if " #" in value or "\t#" in value:
        return False
    if value[0] in "[{":
        depth = 0
        for index, char in enumerate(value):
            depth += (char in "[{") - (char in "]}")
            if depth == 0:
                return bool(value[index + 1:].strip()) or "${" in value
        return False
    return value[0] not in "&*!|>%?-:#,"


def could_hold_key(yaml_text: str) -> bool:
    """Whether some YAML reading of the text could have an ``allowed-tools`` key: it must be
    written out, or spelled with escapes."""
    return KEY in yaml_text or "\\" in yaml_text


def _rejected(problem: YamlProblem, yaml_text: str,
              scans: list[Scan] | None = None) -> tuple[str, int]:
    """Why and where PyYAML rejected a text (Bun rejects it too, unless the problem is one Bun
    accepts, or lies in a flow collection, ``flowlenient``: then Divergence)."""
    why, where = problem.message, problem.index or 0
    if bun_may_accept(yaml_text, where, scans):
        raise Divergence(f"{why}, inside a flow collection ('[...]', '{{...}}'): Claude Code's "
                         "YAML parser reads more there than skillgrant's (an empty key, a '?' "
                         "or ':' glued to a value), so what it grants cannot be computed; "
                         "quote the value", where)
    odd = leftmost(_BUN_READS, yaml_text)  # (its alternatives searched apart)
    if odd is not None:  # (review s47-freview2 R3, R4, R6, R7)
        raise Divergence(f"{why}: the frontmatter holds {_ODD_NAMES[odd.lastgroup or '']}, "
                         "which Claude Code's YAML parser reads where skillgrant's stops, so "
                         "what it grants cannot be computed", odd.start())
    if _BUN_MAY_ACCEPT.search(why):
        raise Divergence(f"{why}: Claude Code's YAML parser accepts what skillgrant's refuses "
                         "here, so what it grants cannot be computed; write the frontmatter "
                         "without anchors, aliases, merge keys or deep nesting", where)
    return why, where


def bun_rejects(text: str, root: Node | None) -> tuple[str, int] | None:
    """Why and where Bun rejects ``text``, composed by PyYAML into ``root``, or None.

    None at once for the flat lane's nodes of ``text`` (``flatyaml.composed_flat``): the walk
    finds nothing there. The mapping is at column 0 (the text starts with a key's letter), each
    value starts on its key's line with neither ``&`` nor ``!`` (a plain value cannot start
    with either, a quoted one starts with its quote), and each value is a one-line plain or
    double-quoted scalar, the quoted one followed by its line's LF (in ``AFTER_QUOTE``)."""
    if composed_flat(root, text):
        return None
    stack: list[tuple[Node, int]] = [] if root is None else [(root, -1)]
    while stack:
        node, parent = stack.pop()
        # Scalars first (most nodes are): one on one line, plain or quoted, has no line to
        # misplace (flowreject finds no break); of a quoted one, what follows its quote.
        if (isinstance(node, ScalarNode) and node.start_mark.line == node.end_mark.line
                and node.style in (None, "", "'", '"')):
            if node.style in (None, "") or text[(i := node.end_mark.index):i + 1] in AFTER_QUOTE:
                continue
            return "text right after a closing quote or bracket", node.end_mark.index
        if isinstance(node, MappingNode) and not node.flow_style:
            column = block_column(text, node)
            found = _value_under_its_key(text, node, column)
            stack.extend([(value, column) for _, value in node.value])
        elif isinstance(node, SequenceNode) and not node.flow_style:
            column = block_column(text, node)
            found = _item_under_its_dash(text, node, column)
            stack.extend([(item, column) for item in node.value])
        elif isinstance(node, ScalarNode) and node.style in ("|", ">"):
            at = content_start(text, node.start_mark.index)  # (past properties: review H6)
            header = BREAK.split(text[at:at + 200], 1)[0]
            indicator = _HEADER.match(header)
            glued = indicator is not None and header[indicator.end():][:1] == "#"
            found = None if not glued else (  # `|#a #` too (review s43-freview F10)
                "a comment right after a block scalar's indicator", at)
            wide = None if found else wide_blank_line(text, node, parent)
            found = found or (None if wide is None else (
                "a block scalar's leading blank line wider than its first line", wide))
        else:
            found = flow_node(text, node, parent, stack)
        if found is not None:
            return found
    return None


def _item_under_its_dash(text: str, node: SequenceNode, column: int) -> tuple[str, int] | None:
    """An item of a block list (its dashes at ``column``) whose content, past its properties,
    is not indented past the dash (on a later line, then): Bun rejects it (review s48-freview
    H11: ``- &a`` ⏎ ``|``), PyYAML reads it."""
    for item in node.value:
        at = item.start_mark.index
        if item.start_mark.column > column and text[at:at + 1] not in ("&", "!"):
            continue  # (no properties: its content starts there, at least this far from its
            # line's start below, which is at or before PyYAML's, whose line breaks are more)
        at = content_start(text, at)
        start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
        if at < item.end_mark.index and at - start <= column:
            return "a list item's content on a line after its dash, not indented past it", at
    return None


def _value_under_its_key(text: str, node: MappingNode,
                         column: int) -> tuple[str, int] | None:
    """A value of a block mapping (at ``column``) whose content is on a line after its key
    and not indented past the mapping (a block list excepted): YAML 1.2 reads no such value.
    The content is past the value's properties (``&a`` ⏎ ``|``: s47-ffix)."""
    for key, value in node.value:
        at = value.start_mark.index
        if value.start_mark.line == key.start_mark.line and text[at:at + 1] not in ("&", "!"):
            continue  # (content on its key's line: no line break, LF or CR, between the two)
        at = content_start(text, at)
        start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1  # (PyYAML's lines)
        if (at < value.end_mark.index and start > key.start_mark.index and at - start <= column
                and not (isinstance(value, SequenceNode) and not value.flow_style)):
            return "a value on the line after its key, not indented past it", at
    return None


def runtime_value(root: Node | None) -> str | list[str] | None:
    """The ``allowed-tools`` value the runtime takes from a frontmatter's nodes: the last such
    key's (Bun keeps the last of duplicates), its string, or a list's strings; None when
    there is no such key."""
    if not isinstance(root, MappingNode):
        return None
    found = [value for key, value in root.value  # Bun reads a tagged key as its text
             if isinstance(key, ScalarNode) and key.value == KEY]
    if not found:
        return None
    node = found[-1]
    if isinstance(node, SequenceNode):
        return [item.value for item in node.value
                if isinstance(item, ScalarNode) and is_str_scalar(item)]
    return node.value if isinstance(node, ScalarNode) and is_str_scalar(node) else ""
