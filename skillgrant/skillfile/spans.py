"""A SKILL.md read into spans: where the frontmatter is, where ``allowed-tools``' value is, and
in which form it is written (semantics §6). Nothing here writes; ``skillfile`` splices. The file
must start with a ``---`` line (after an optional BOM) and the frontmatter ends at the next
``---`` or ``...`` line. The YAML between is composed here (node marks give exact offsets);
the metadata must agree with the nodes, and Claude Code's own reading (``skillfile.runtime``)
with both, or the file is refused.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..errors import SkillFileError
from ..grants import lone_surrogate, runtime_entries, split_allowed_tools
from ..limits import MAX_FRONTMATTER_CHARS
from . import fmread
from .dashtab import compose_dash_tabs
from .doc import FORMS, AllowedTools, Item, SkillDoc, make_item, separator
from .entryspans import entry_spans
from .flowlenient import Scan
from .keptlines import allowed_kept
from .retry import read_retried
from .runtime import (
    BREAKS_11_ONLY,
    Divergence,
    Prediction,
    RuntimeFrontmatter,
    could_hold_key,
    predict,
    refuse_judged_keys,
    runtime_frontmatter,
    runtime_value,
)
from .tagged import tagged_key
from .yamlspan import STYLE_NAMES, YamlProblem, is_str_scalar, line_column, node_kind

KEY: Final = "allowed-tools"

_OPENING = re.compile(r"---[ \t]*(\r?\n)")
# python-frontmatter's own boundary: any such line inside our frontmatter would cut it elsewhere.
_FOREIGN_BOUNDARY = re.compile(r"-{3,}\s*")
_LINE = re.compile(r"^(.*)$", re.MULTILINE)


def read_skill(text: str, path: str | None = None, *, decoded: bool = False,
               scans: Sequence[Scan] = ()) -> SkillDoc:
    """Read a SKILL.md text into a SkillDoc: the one reader of check, apply, the read-back of a
    rewrite, lint, diff, the gate's plan loading and the service.

    Raises SkillFileError (with path, line and column) for: no frontmatter, an unclosed one, a
    dash line frontmatter readers disagree on, invalid YAML, aliases or merge keys, frontmatter
    that is not a block mapping, duplicate ``allowed-tools`` keys, an ``allowed-tools``
    value that is not a string or a list of strings, and any text on which Claude Code's
    reading cannot be computed (``runtime.predict``). Where Claude Code reads the frontmatter
    through its re-quote retry, the file is read that way (``retry``). ``decoded`` says the
    text was decoded from bytes as strict UTF-8 (``builder.decode_skill``), so it holds no
    lone surrogate and is not searched for one; ``scans``: ``SkillDoc.scans`` of the text rewritten.

    >>> doc = read_skill("---\\nname: x\\nallowed-tools: Read, Grep\\n---\\nBody\\n")
    >>> doc.allowed_tools.entries, doc.allowed_tools.form
    (('Read', 'Grep'), 'plain')
    """
    return _Reader(text, path, decoded=decoded, scans=list(scans)).read()


#: A BOM first on a line (the opening fence's line break included).
_BOM_FIRST: Final = re.compile("[\n\r\x85\u2028\u2029]\ufeff")
# A line that is a closing fence, '---' or '...' with blanks and a CR after it (group 1: those
# three characters), or else a foreign boundary (a line python-frontmatter's own boundary,
# -{3,}\s*, fully matches). Found by the line break before it, a literal first character the
# regex engine scans for at C speed (a '^' is tried at every character).
FENCE_LINE: Final = re.compile(r"\n(?:(---|\.\.\.)[ \t]*\r?|-{3,}[^\S\n]*)$", re.MULTILINE)


class _Reader:
    def __init__(self, text: str, path: str | None,
                 composed: tuple[str, Node | None] | None = None, *,
                 decoded: bool = False, scans: list[Scan] | None = None) -> None:
        self.text = text
        self.path = path
        self.yaml_start = 0
        self.composed = composed  # a retried frontmatter text composed already, its nodes
        self.decoded = decoded  # no lone surrogate (read_skill)
        self.scans = [] if scans is None else scans  # bun_may_accept's, given and made

    def fail(self, message: str, offset: int | None) -> SkillFileError:
        if offset is None:
            return SkillFileError(message, path=self.path)
        line, column = line_column(self.text, offset)
        return SkillFileError(message, path=self.path, line=line, column=column)

    def read(self) -> SkillDoc:
        text = self.text
        if not isinstance(text, str):
            raise SkillFileError(f"a SKILL.md text must be str, not {type(text).__name__} "
                                 "(decode the file first)", path=self.path)
        surrogate = None if self.decoded else lone_surrogate(text)
        if surrogate is not None:
            raise self.fail(f"lone surrogate U+{ord(text[surrogate]):04X} is not a character; "
                            "the text cannot be written as UTF-8", surrogate)
        bom = text.startswith("\ufeff")
        opening = _OPENING.match(text, 1 if bom else 0)
        if opening is None:
            raise self.fail("no frontmatter: the file must begin with a '---' line", 0)
        self.yaml_start = opening.end()
        yaml_end, body_start = self._closing_fence()
        if yaml_end - self.yaml_start > MAX_FRONTMATTER_CHARS:
            raise self.fail(f"the frontmatter is over {MAX_FRONTMATTER_CHARS} characters "
                            "(MAX_FRONTMATTER_CHARS)", 0)
        span = runtime_frontmatter(text)
        if not text.isascii():
            self._refuse_odd_characters(yaml_end, span)
        root: Node | None = None
        problem: YamlProblem | None = None
        try:
            yaml_text = text[self.yaml_start:yaml_end]  # (predict's retried text: composed,
            self.accepted = self.composed is not None and self.composed[0] == yaml_text
            root = (self.composed[1] if self.composed and self.accepted  # which Bun accepts)
                    else compose_dash_tabs(yaml_text))  # (which composes it first too)
        except YamlProblem as e:
            problem = YamlProblem(e.message, None if e.index is None
                                  else self.yaml_start + e.index)
        # The runtime's text is ours, but for blank lines its opening regex takes before it.
        same = (span is not None and span.end == yaml_end
                and not text[self.yaml_start:span.start].strip())
        theirs = self._predict(span, same, root, problem, yaml_end)
        if span is not None and theirs is not None and same and theirs.how == "retry":
            retried = text[:span.start] + theirs.text + text[span.end:]
            return read_retried(text, span, theirs, _Reader(  # (the re-quote adds ASCII only)
                retried, self.path, (theirs.text, theirs.root), decoded=True).read(), self.scans)
        if problem is not None:
            raise self.fail(f"{problem.message} in the frontmatter", problem.index)
        pairs = self._top_level(root)
        metadata = self._frontmatter_metadata(root)
        found = self._find_key(pairs)
        allowed = None if found is None else allowed_kept(self, pairs, *found, yaml_end)
        value = None if allowed is None else (
            allowed.value if isinstance(allowed.value, str) else list(allowed.value))
        if (KEY in metadata) != (allowed is not None) or not fmread.same(metadata.get(KEY),
                                                                          value):
            raise self.fail("the frontmatter's values read allowed-tools differently from its "
                            "nodes; refusing to guess", 0)
        note = self._runtime_note(span, theirs, value, yaml_end)
        insert_at, insert_column = self._insertion_point(pairs, yaml_end)
        doc = SkillDoc(self.path, text, opening.group(1), bom, self.yaml_start, yaml_end,
                       body_start, metadata, allowed, insert_at, insert_column, note)
        doc.known(span, same, theirs)  # (the read-back and the report ask)
        return doc

    def _refuse_odd_characters(self, yaml_end: int, span: RuntimeFrontmatter | None) -> None:
        """A BOM first on a line, or a YAML 1.1-only line break, in either frontmatter."""
        text = self.text
        bom_first = _BOM_FIRST.search(text, self.yaml_start - 1, yaml_end) if text.find(
            "\ufeff", self.yaml_start, yaml_end) >= 0 else None  # (str.find: at C speed)
        if bom_first is not None:  # YAML readers drop it, keep it, or refuse what follows
            raise self.fail("a byte order mark (U+FEFF) first on a line of the frontmatter: "
                            "YAML readers disagree on what it means", bom_first.end() - 1)
        end = max(yaml_end, span.end if span else 0)
        # The first of BREAKS_11_ONLY, found by str.find (at C speed) of each character.
        odd = min((at for at in (text.find(char, self.yaml_start, end) for char in BREAKS_11_ONLY)
                   if at >= 0), default=None)
        if odd is not None:
            raise self.fail(f"U+{ord(text[odd]):04X} in the frontmatter: PyYAML reads it as "
                            "a line break and Claude Code's YAML 1.2 parser as an ordinary "
                            "character, so the two read different values", odd)

    def _predict(self, span: RuntimeFrontmatter | None, same: bool, root: Node | None,
                 problem: YamlProblem | None, yaml_end: int) -> Prediction | None:
        """What Bun makes of the runtime's frontmatter (None: none, or it cannot hold the key);
        SkillFileError when that cannot be computed, or for a tag in ours (``tagged``)."""
        text = self.text
        exact = span == (self.yaml_start, yaml_end)  # our nodes are of the very same text
        tagged = None if exact else tagged_key(root, text[self.yaml_start:yaml_end])
        if tagged is not None:  # Copilot CLI reads our frontmatter (review s46-freview2 C1)
            raise self.fail(tagged[0], self.yaml_start + tagged[1])
        if span is None:
            return None
        try:
            if not same:  # a key that grants may be read there only (s43-freview F7)
                refuse_judged_keys(text[span.start:span.end])
                if not could_hold_key(text[span.start:span.end]):
                    return None
            return predict(text[span.start:span.end], root if exact else None, YamlProblem(
                problem.message, (problem.index or span.start) - span.start)
                if exact and problem else None, accepted=exact and self.accepted, scans=self.scans)
        except Divergence as e:
            moved = "" if same else (
                "Claude Code ends the frontmatter at the first '---' (line "
                f"{line_column(text, span.end)[0]}), and there: ")
            raise self.fail(moved + e.message, span.start + e.offset) from e

    def _runtime_note(self, span: RuntimeFrontmatter | None, theirs: Prediction | None,
                      value: str | list[str] | None, yaml_end: int) -> str | None:
        """None when Claude Code reads ``allowed-tools`` as we do, a sentence when it never
        sees it (it grants nothing); SkillFileError when it reads others."""
        if span is None:
            return None if value is None else (
                f"Claude Code finds no frontmatter in this file, so it never reads {KEY}")
        if theirs is None:  # its text cannot hold the key, however it is parsed
            return None if value is None else (
                f"Claude Code ends the frontmatter at the first '---' (line "
                f"{line_column(self.text, span.end)[0]}), before {KEY}, so it never reads it")
        if theirs.how == "nothing":
            return None if value is None else (
                f"Claude Code's YAML parser rejects this frontmatter ({theirs.why}) and its "
                f"re-quoted form too, so it reads no {KEY}: the value grants nothing")
        if span.end == yaml_end and theirs.how == "direct":
            return None  # (most files: asked before the values below)
        got = runtime_value(theirs.root)
        if got is None and value is None:
            return None
        ours = None if value is None else tuple(runtime_entries(value))
        if got is None:
            return (f"Claude Code ends the frontmatter at the first '---' (line "
                    f"{line_column(self.text, span.end)[0]}), before {KEY}, so it never "
                    "reads it")
        if ours is not None and tuple(runtime_entries(got)) == ours:
            return None
        raise self.fail(f"Claude Code ends the frontmatter at the first '---' (line "
                        f"{line_column(self.text, span.end)[0]}) and reads {KEY} there as "
                        f"{runtime_entries(got)!r}, where skillgrant reads "
                        f"{'no ' + KEY if ours is None else repr(list(ours))}; write the "
                        "frontmatter without '---' inside it", span.end)

    def _closing_fence(self) -> tuple[int, int]:
        text = self.text
        found = FENCE_LINE.search(text, self.yaml_start - 1)  # (from the opening's line break)
        if found is None:
            raise self.fail("the frontmatter is not closed: no '---' or '...' line after the "
                            "opening '---'", 0)
        pos, end = found.start() + 1, found.end()
        if found.group(1) is None:
            raise self.fail("a line of dashes inside the frontmatter: frontmatter readers "
                            "disagree on where the frontmatter ends", pos)
        if found.group(1) == "...":
            self._refuse_dashes_after_dots(end)
        return pos, min(end + 1, len(text))

    def _refuse_dashes_after_dots(self, start: int) -> None:
        """A ``...`` close with a ``---`` line later: readers that fence on ``---`` only
        (python-frontmatter) read up to that line. Refused rather than guessed."""
        for match in _LINE.finditer(self.text, start):
            if _FOREIGN_BOUNDARY.fullmatch(match.group(1)):
                raise self.fail("the frontmatter is closed with '...' but a '---' line follows "
                                "in the body: readers that only know '---' fences would read "
                                "up to it; close the frontmatter with '---'", match.start(1))

    def _top_level(self, root: Node | None) -> list[tuple[Node, Node]]:
        if root is None:
            return []
        if not isinstance(root, MappingNode) or root.flow_style:
            kind = "a flow mapping" if isinstance(root, MappingNode) else node_kind(root)
            raise self.fail(f"the frontmatter must be a block mapping (key: value lines), "
                            f"not {kind}", self.offset(root))
        return list(root.value)

    def _frontmatter_metadata(self, root: Node | None) -> dict[str, object]:
        try:
            return fmread.metadata(root)
        except Exception as e:  # a value PyYAML composes but cannot construct (a bad date...)
            raise self.fail(f"the frontmatter does not load: {e}".split("\n")[0], 0) from e

    def _find_key(self, pairs: list[tuple[Node, Node]]) -> tuple[Node, Node] | None:
        found: tuple[Node, Node] | None = None
        for key, value in pairs:
            if key.value == KEY and is_str_scalar(key):  # (as in _insertion_point)
                if found is not None:
                    first, _ = line_column(self.text, self.offset(found[0]))
                    raise self.fail(f"duplicate {KEY} key (the first is on line {first})",
                                    self.offset(key))
                found = (key, value)
        return found

    def offset(self, node: Node) -> int:
        return self.yaml_start + node.start_mark.index

    def end(self, node: Node) -> int:
        return self.yaml_start + node.end_mark.index

    def allowed_of(self, key: Node, node: Node) -> AllowedTools:
        text = self.text
        start = self.offset(node)
        if start < self.end(key) or text[start:start + 1] in ("&", "!"):
            raise self.fail(f"{KEY} carries a YAML tag or anchor; write the value without one",
                            start)
        key_start = text.rfind("\n", 0, self.offset(key)) + 1
        key_column = self.offset(key) - key_start
        if isinstance(node, SequenceNode):
            items = tuple(self._item(node, i, child) for i, child in enumerate(node.value))
            values = tuple(item.value for item in items)
            entries = tuple(split_allowed_tools(list(values)))
            starts, ends = _located([at for child in node.value
                                     for at in entry_spans(text, child, self.yaml_start)])
            if node.flow_style:
                end = self.end(node)
                return AllowedTools("flow-list", values, entries, start=start, end=end,
                                    line_end=eol(text, end), separator=None, items=items,
                                    multiline="\n" in text[start:end], key_start=key_start,
                                    key_column=key_column, entry_starts=starts, entry_ends=ends)
            first = items[0]
            dash_line = text.rfind("\n", 0, first.start) + 1
            prefix = text[dash_line:first.start]
            if not re.fullmatch(r"[ \t]*-[ \t]+", prefix):
                prefix = " " * node.start_mark.column + "- "
            return AllowedTools("block-list", values, entries, start=first.block_start,
                                end=items[-1].block_end, line_end=items[-1].block_end,
                                separator=None, multiline=len(items) > 1, items=items,
                                item_prefix=prefix, key_start=key_start, key_column=key_column,
                                entry_starts=starts, entry_ends=ends)
        if not is_str_scalar(node):
            raise self.fail(f"{KEY} must be a string or a list of strings, not {node_kind(node)}",
                            start)
        assert isinstance(node, ScalarNode)
        style = STYLE_NAMES.get(node.style, "plain")
        end = self.end(node)
        self._refuse_quoted_crlf(node)
        if style in ("literal", "folded"):
            end = eol(text, last_char(text, start, end))
            content = text[eol(text, start):end]
            multiline = sum(1 for line in content.split("\n") if line.strip()) > 1
        else:
            multiline = "\n" in text[start:end]
        value: str = node.value
        entries = tuple(split_allowed_tools(value))
        starts, ends = _located(entry_spans(text, node, self.yaml_start))
        return AllowedTools(FORMS[style], value, entries, start=start, end=end,
                            line_end=eol(text, end), separator=separator(value, entries),
                            multiline=multiline, key_start=key_start, key_column=key_column,
                            entry_starts=starts, entry_ends=ends)

    def _refuse_quoted_crlf(self, node: ScalarNode) -> None:
        """A CRLF in a quoted scalar: Bun keeps a line break where PyYAML folds a space."""
        start, end = self.offset(node), self.end(node)
        if node.style in ("'", '"') and self.text.find("\r", start, end) >= 0:
            raise self.fail(f"{KEY} is quoted over several lines with CRLF line breaks, which "
                            "Claude Code's YAML parser keeps as line breaks inside the value "
                            "(so its entries run together); write the value on one line",
                            start)

    def _item(self, seq: SequenceNode, index: int, node: Node) -> Item:
        if not is_str_scalar(node):
            raise self.fail(f"{KEY} item {index + 1} must be a string, not {node_kind(node)}",
                            self.offset(node))
        assert isinstance(node, ScalarNode)
        start, end = self.offset(node), self.end(node)
        if self.text[start:start + 1] in ("&", "!"):
            raise self.fail(f"{KEY} item {index + 1} carries a YAML tag or anchor", start)
        style = STYLE_NAMES.get(node.style, "plain")
        self._refuse_quoted_crlf(node)
        if seq.flow_style:
            return make_item(Item, (node.value, style, start, end, start, end))
        if style in ("literal", "folded"):
            end = last_char(self.text, start, end)
        block_end = eol(self.text, end)
        if index == 0:
            block_start = self.text.rfind("\n", 0, start) + 1
        else:
            previous = self.end(seq.value[index - 1])
            block_start = self.text.find("\n", last_char(self.text, 0, previous)) + 1
        return make_item(Item, (node.value, style, start, end, block_start, block_end))

    def _insertion_point(self, pairs: list[tuple[Node, Node]], yaml_end: int) -> tuple[int, int]:
        for key, value in pairs:  # (a collection's value is a list: no string is equal)
            if key.value == "description" and is_str_scalar(key):
                last = max(self._value_end(value), self.end(key))
                newline = self.text.find("\n", last - 1 if last > 0 else 0)
                key_start = self.text.rfind("\n", 0, self.offset(key)) + 1
                return newline + 1, self.offset(key) - key_start
        first = self.offset(pairs[0][0]) if pairs else 0
        return yaml_end, first - (self.text.rfind("\n", 0, first) + 1) if pairs else 0

    def _value_end(self, node: Node) -> int:
        """Offset past a value's last character (a block collection's last child's end)."""
        if isinstance(node, (MappingNode, SequenceNode)) and not node.flow_style and node.value:
            last = node.value[-1]
            return self._value_end(last[1] if isinstance(last, tuple) else last)
        return last_char(self.text, self.offset(node), self.end(node))


def eol(text: str, pos: int) -> int:
    """The end of the line holding offset ``pos``: before its ``\\r\\n`` or ``\\n``."""
    newline = text.find("\n", pos)
    if newline < 0:
        return len(text)
    return newline - 1 if newline > pos and text[newline - 1] == "\r" else newline


def last_char(text: str, start: int, end: int) -> int:
    """``end`` moved back over whitespace, but not before ``start``."""
    while end > start and text[end - 1] in " \t\r\n":
        end -= 1
    return end


def _located(spans: Sequence[tuple[int, int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(start for start, _ in spans), tuple(end for _, end in spans)
