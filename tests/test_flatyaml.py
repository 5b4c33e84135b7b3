"""Issue 17's batch fast paths against the code they stand in for: flat ``key: value`` lines
composed without the parser against ``yaml.compose``, python-frontmatter's reading built from
our nodes against ``frontmatter.parse``, entry spans of a verbatim value against the
character-by-character route, and the text report built a file at a time against
``render_text``."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from skillgrant.reports import spool
from skillgrant.reports.check import (
    FileResult,
    Location,
    Run,
    TextDocument,
    TextStyle,
    render_text,
    text_block,
)
from skillgrant.skillfile import entryspans, fmread, yamlspan
from skillgrant.skillfile.flatyaml import LOADER, compose_flat
from skillgrant.skillfile.spans import read_skill


def _mark(mark: Any) -> tuple[Any, ...]:
    return (type(mark).__name__, mark.name, mark.index, mark.line, mark.column)


def _shape(node: Any) -> Any:
    if node is None:
        return None
    value = node.value
    if isinstance(value, list):
        value = [tuple(map(_shape, pair)) if isinstance(pair, tuple) else _shape(pair)
                 for pair in value]
    return (type(node).__name__, node.tag, value, _mark(node.start_mark), _mark(node.end_mark),
            getattr(node, "style", None), getattr(node, "flow_style", None))


FLAT = [
    "name: x\ndescription: d\nallowed-tools: Bash(gh *), Read\n",
    "a: 1\nb: 1.5\nc: yes\nd: null\ne: ~\nf: 2024-01-01\ng: 0x1f\n",
    "yes: no\nNull: x\non: off\n",
    'a: "x \\\\ y \\" z"\nb: "é😀"\nc: ""\n',
    "a: x:y\nb: C#\nc: a, [b] {c}\nd: x -y ?z\ne: q'x\n",
    "a:   spaced\nb: é d\nallowed-tools: Bash(x *) Read\n",
    "a: b\na: c\n",
]
NOT_FLAT = [
    "", "a: b", "a:\n", "a: b \n", "a: b # c\n", "a: b: c\n", "a: b:\n", "- x\n", "a: [x]\n",
    "a: &x y\n", "a: *x\n", "a: !t y\n", "a: |\n  x\n", "a: 'x'\n", 'a: "\\n"\n', "a: \tx\n",
    "a: x\tz\n", "a: b\n\nc: d\n", "  a: b\n", "a: b\n  c\n", "<<: x\n", "a: b\r\n", "a: -x\n",
    "a: ?x\n", "a: :x\n", "---\n", "a: \x85\n", "a: \ufeff\n", "1a: b\n", "a b: c\n",
    "k" * 1025 + ": x\n", "a: b\n" + "k" * 1025 + ": x\n",
]


@pytest.mark.parametrize("text", FLAT)
def test_flat_lines_compose_as_the_parser_composes_them(text: str) -> None:
    flat = compose_flat(text)
    assert flat is not None
    assert _shape(flat) == _shape(yaml.compose(text, Loader=LOADER))


@pytest.mark.parametrize("text", NOT_FLAT)
def test_anything_else_is_left_to_the_parser(text: str) -> None:
    assert compose_flat(text) is None


@pytest.mark.parametrize("length", [1023, 1024, 1025, 1100])
def test_a_key_is_composed_here_exactly_when_the_parser_takes_it(length: int) -> None:
    """libyaml refuses a simple key over 1,024 characters; the flat lane took any length."""
    text = "k" * length + ": x\n"
    try:
        parsed = _shape(yaml.compose(text, Loader=LOADER))
    except yaml.YAMLError:
        parsed = None
    flat = compose_flat(text)
    assert (flat is not None) == (parsed is not None)
    assert flat is None or _shape(flat) == parsed


_CHARS = [*"abyYnNtT01.-_:# \"\\'[]{},*&!|>%@`?~=<\t", "é", "\u2028", "\xa0", "😀"]
_LINES = st.lists(st.tuples(
    st.sampled_from(["name", "allowed-tools", "yes", "on", "x1", "a-b", "Null"]),
    st.sampled_from([" ", "  "]),
    st.text(alphabet=_CHARS, max_size=12),
    st.booleans()), min_size=1, max_size=4)


def _text(lines: list[tuple[str, str, str, bool]]) -> str:
    return "".join(key + ":" + gap + (f'"{value}"' if quoted else value) + "\n"
                   for key, gap, value, quoted in lines)


@given(_LINES)
def test_flat_lines_compose_as_the_parser_composes_them_on_generated_text(
        lines: list[tuple[str, str, str, bool]]) -> None:
    text = _text(lines)
    flat = compose_flat(text)
    if flat is not None:
        assert _shape(flat) == _shape(yaml.compose(text, Loader=LOADER))


def _skill(yaml_text: str, body: str = "# Body\n") -> str:
    return "---\n" + yaml_text + "---\n" + body


METADATA = [*FLAT, "a:\n  - x\n  - y\nb: z\n", "a: {b: c}\n", "\na: b\n", "a: [x, 1]\n",
            "!!set\na: b\n", "a: !!binary aGk=\n", "a: !!str 3\n", "a: b\n---\nc: d\n",
            # A BOM opens the stream skillgrant composes, but not python-frontmatter's, which
            # has a line break before it: there libyaml refuses it.
            "\ufeffa: b\n", "\ufeff\na: b\n", "\ufeffa: b\nc: d\n"]


def _frontmatter_reads(yaml_text: str) -> object:
    """PyYAML's load of the text itself (the reference: parsed again, not from our nodes)."""
    try:
        loaded = yaml.load(yaml_text, Loader=yamlspan.LOADER)
    except Exception as error:  # which error it is, is what is compared
        return type(error)
    return loaded if isinstance(loaded, dict) else {}


def _fmread_reads(root: yaml.Node | None) -> object:
    try:
        return fmread.metadata(root)
    except Exception as error:
        return type(error)


@pytest.mark.parametrize("yaml_text", METADATA)
@pytest.mark.parametrize("body", ["# Body\n", "", "x\n---\ny: z\n"])
def test_the_metadata_is_python_frontmatters(yaml_text: str, body: str) -> None:
    text = _skill(yaml_text, body)
    try:
        root = yamlspan.compose(yaml_text)
    except yamlspan.YamlProblem:
        return
    assert text.endswith(body)
    assert _fmread_reads(root) == _frontmatter_reads(yaml_text)


@given(_LINES)
def test_the_metadata_is_python_frontmatters_on_generated_text(
        lines: list[tuple[str, str, str, bool]]) -> None:
    yaml_text = _text(lines)
    try:
        root = yamlspan.compose(yaml_text)
    except yamlspan.YamlProblem:  # a text PyYAML refuses: read_skill refuses it too
        return
    assert _fmread_reads(root) == _frontmatter_reads(yaml_text)


SPANS = ["allowed-tools: Bash(gh *), Read  Grep\n", "allowed-tools: 'Read, Grep'\n",
         'allowed-tools: "Read, Bash(a b)"\n', "allowed-tools: \"\\x52ead, Grep\"\n",
         "allowed-tools: 'it''s, x'\n", "allowed-tools: Read,\n  Grep\n",
         "allowed-tools: >\n  Read,\n  Grep\n", "allowed-tools: 'a\tb, c'\n"]


@pytest.mark.parametrize("yaml_text", SPANS)
def test_a_verbatim_value_locates_its_entries_as_character_spans_do(
        yaml_text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _skill(yaml_text)
    quick = read_skill(text).allowed_tools
    monkeypatch.setattr(entryspans, "_verbatim", lambda *_: None)
    monkeypatch.setattr(entryspans, "_unescaped_spans", entryspans._char_entry_spans)
    slow = read_skill(text).allowed_tools
    assert quick is not None and slow is not None
    assert (quick.entry_starts, quick.entry_ends) == (slow.entry_starts, slow.entry_ends)


def _results() -> list[FileResult]:
    from skillgrant import constrain
    from skillgrant.reports.check import FileError

    kept = constrain(["Bash(gh pr list)", "Read"], ["Bash(gh *)", "Read"])
    mixed = constrain(["Bash(gh pr list)", "Bash(rm -rf /)", "read"], ["Bash(gh *)", "Read"])
    return [FileResult(f"s{i}/SKILL.md", f"s{i}/SKILL.md", (kept, mixed)[i % 2], i % 2 == 1,
                       False, Location(3, 1), tuple(Location(3, c) for c in range(1, 4)))
            for i in range(30)] + [FileResult("bad/SKILL.md", "bad/SKILL.md",
                                              error=FileError("no", 1, 2))]


@pytest.mark.parametrize("quiet", [False, True])
@pytest.mark.parametrize("colour", [False, True])
@pytest.mark.parametrize("limit", [None, 100])
def test_the_text_report_a_file_at_a_time_is_render_texts(
        quiet: bool, colour: bool, limit: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    if limit is not None:
        monkeypatch.setattr(spool, "MAX_SPOOLED_CHARS", limit)  # on disk after a few files
    results = _results()
    style = TextStyle("check", False, colour, quiet)
    document = TextDocument(style)
    for result in results:
        document.add_fragment(text_block(result, style), changed=result.changed,
                              applied=result.applied, error=result.error is not None)
    whole = render_text(Run("check", "plan.yaml", results), colour=colour, quiet=quiet)
    assert "".join(document.chunks()) == whole


@pytest.mark.parametrize("line", [*(t.rstrip("\n") for t in FLAT if t.count("\n") == 1),
                                  "a: b", "allowed-tools: Read, Grep", 'k: "x \\\\ y"',
                                  "a: b\nc: d", "a: b # c", "a:", "a: ", "1a: b", "yes: no",
                                  "a: 1", "a: \tb"])
def test_a_line_is_read_as_compose_flat_reads_it(line: str) -> None:
    from skillgrant.skillfile.flatyaml import read_line

    node = compose_flat(line + "\n")
    one = node is not None and len(node.value) == 1
    read = read_line(line)
    assert (read is not None) == one
    if read is not None and node is not None:
        key, value = node.value[0]
        assert read == (key.tag, key.value, value.tag, value.value)
