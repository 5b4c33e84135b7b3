"""Reading a flat SKILL.md without YAML nodes (skillfile/flatread.py) against the general reader
it stands in front of (``spans._Reader``): where ``read_flat`` answers, the SkillDoc is the
same, field for field; where the general reader refuses a text, ``read_flat`` leaves it alone.
On generated texts (keys, values, fences, bodies and BOMs that make either reader take another
turn), the repository's sample skills and the real skills of the shared corpus."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant.cli.batch import locate
from skillgrant.errors import SkillFileError
from skillgrant.skillfile import flatread
from skillgrant.skillfile.doc import SkillDoc
from skillgrant.skillfile.flatread import FENCE_LINE, read_flat
from skillgrant.skillfile.spans import _Reader, read_skill

HERE = Path(__file__).parent
CORPUS = HERE.parent.parent / "shared" / "corpus" / "real-skills"

KEYS = ["name", "description", "allowed-tools", "version", "license", "yes", "null", "on",
        "x-a", "k1", "Description", "allowed_tools"]
PIECES = ["Read", "Grep", "Bash(gh *)", "Bash(gh pr view 1)", " ", ", ", ",", ":", ": ", "#",
          " #", '"', "\\", "'", "-", "---", "...", "[x]", "{", "&a", "!t", "*", "|", ">", "%",
          "@", "`", "1", "1.5", "2024-01-01", "true", "~", "allowed-tools", "é", "\t", "\r",
          "\xa0", "\u2028", "\ufeff", "x"]


# Pieces a flat value is often made of, and the rest: what makes either reader turn aside.
PLAIN = ["Read", "Grep", "Bash(gh *)", "Bash(gh pr view 1)", "Bash(rm -rf /tmp/1)", "x", "a b",
         "1", ", ", "x.y", "(a)", "mcp__s__t", "é", "—", "x\xa0y"]
FLAT_KEYS = ["name", "description", "version", "license", "x-a"]


@st.composite
def values(draw: st.DrawFn, odd: bool) -> str:
    pieces = st.sampled_from(PIECES) if odd else st.sampled_from(PLAIN)
    raw = "".join(draw(st.lists(pieces, min_size=0 if odd else 1, max_size=5)))
    if draw(st.integers(0, 3)) == 0:
        escape = draw(st.booleans())
        inner = raw.replace("\\", "\\\\").replace('"', '\\"') if escape else raw
        return '"' + inner + '"'
    return raw


@st.composite
def skill_texts(draw: st.DrawFn) -> str:
    """A SKILL.md text; in about half the draws, one that is flat but for a detail or two."""
    odd = draw(st.booleans())
    lines = []
    for _ in range(draw(st.integers(0, 5))):
        key = draw(st.sampled_from(KEYS if odd else FLAT_KEYS))
        blanks = draw(st.integers(0, 2)) if odd else 1
        lines.append(f"{key}:{' ' * blanks}{draw(values(odd and draw(st.booleans())))}\n")
    if draw(st.integers(0, 2)):
        lines.insert(draw(st.integers(0, len(lines))),
                     f"allowed-tools: {draw(values(odd))}\n")
    openings = ["---\n", "--- \n", "---\r\n", "\ufeff---\n", ""] if odd else ["---\n"]
    closings = (["---\n", "---", "--- \n", "...\n", "----\n", "---\r\n", ""] if odd
                else ["---\n", "---", "--- \n"])
    body = draw(st.sampled_from(["", "# Body\n", "---\nx\n", "text --- more\n", "é\n",
                                 "🚀 \u2028\n", "\ud800\n", "\ufeff\n"]))
    return draw(st.sampled_from(openings)) + "".join(lines) + draw(st.sampled_from(closings)) + body


def _general(text: str) -> object:
    try:
        return _Reader(text, "SKILL.md").read()
    except SkillFileError as e:
        return ("error", e.message, e.line, e.column)


def _agree(text: str) -> bool:
    """Whether read_flat answered; asserts the answer is the general reader's."""
    flat = read_flat(text, "SKILL.md")
    if flat is None:
        return False
    assert flat == _general(text), text
    return True


@settings(max_examples=examples(3000), deadline=None)
@given(text=skill_texts())
def test_a_flat_reading_is_the_general_readers(text: str) -> None:
    _agree(text)


def test_the_usual_skill_is_read_flat() -> None:
    """Not vacuous: the texts most files are take the flat lane."""
    texts = [
        "---\nname: s\ndescription: Does a thing.\nallowed-tools: Bash(gh *), Read\n---\n# S\n",
        '---\nname: s\nallowed-tools: "Read, Grep"\n---\n',
        "---\nname: s\ndescription: d\n---\nbody\n",
        "---\nallowed-tools: Read\nversion: 1.0.0\n---",
        "---\nname: s\nallowed-tools: Bash(gh pr view 1), Bash(rm -rf /tmp/1)\n---\n---\n",
        "---\nname: é\ndescription: Does a thing — well.\nallowed-tools: Read\n---\n# 🚀\n",
        "---\nallowed-tools: Bash(\xa0x), Read\xa0Grep\n---\n",  # NBSP: a separator for both
    ]
    for text in texts:
        assert _agree(text), text


@pytest.mark.parametrize("text", [
    "---\nname: s\nallowed-tools: Read\nallowed-tools: Grep\n---\n",  # refused as a duplicate
    "---\nname: s\nallowed-tools: Read\n...\n---\n",  # '...' then '---'
    "---\nname: a---b\nallowed-tools: Read\n---\n",  # the runtime ends at a '---' in a value
    "---\nname: s\nallowed-tools: \"\\x52ead\"\n---\n",  # an escape (not flat)
    '---\nname: s\nallowed-tools: "R\\"ead"\n---\n',  # an escape flatyaml reads
    "---\nversion: 1.5\nallowed-tools: Read\n---\n",  # a float: python-frontmatter's own value
    "---\nyes: x\nallowed-tools: Read\n---\n",  # a boolean key
    "---\ndescription: mentions allowed-tools\n---\n",  # the key's name, not the key
    "---\nname: s\nallowed-tools: Read\n---\nbody \ud800\n",  # a lone surrogate, in the body
    "---\nname: \u2028\nallowed-tools: Read\n---\n",  # a YAML 1.1-only line break
    "---\nallowed-tools: Read\n",  # not closed
    "---\n---\n",  # empty
])
def test_what_the_flat_lane_leaves_to_the_general_reader(text: str) -> None:
    assert read_flat(text, "SKILL.md") is None
    assert _general_via_read_skill(text) == _general(text)


def _general_via_read_skill(text: str) -> object:
    try:
        return read_skill(text, "SKILL.md")
    except SkillFileError as e:
        return ("error", e.message, e.line, e.column)


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in ("", ".md"))


def test_the_sample_skills_read_the_same() -> None:
    answered = 0
    for path in _files(HERE / "skillfiles"):
        text = path.read_bytes().decode("utf-8", errors="surrogateescape")
        answered += _agree(text)
    assert answered > 0


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not beside the checkout")
def test_the_real_skills_read_the_same() -> None:
    for path in _files(CORPUS):
        _agree(path.read_text(encoding="utf-8", errors="surrogateescape"))


@settings(max_examples=examples(3000), deadline=None)
@given(rest=st.text(alphabet="-.\n\r \t\x0bax", max_size=40))
def test_the_fence_after_a_line_break_is_the_fence_line(rest: str) -> None:
    text = "---\n" + rest
    line = FENCE_LINE.search(text, 4)
    after = flatread._FENCE_AFTER_BREAK.search(text, 3)
    assert (None if line is None else (line.span(), line.group(1))) == (
        None if after is None else ((after.start() + 1, after.end()), after.group(1)))


@settings(max_examples=examples(2000), deadline=None)
@given(text=skill_texts())
def test_a_flat_value_is_located_as_any_value_is(text: str) -> None:
    """``locate``'s count from the key's line (a flat frontmatter) against its general count,
    on the same SkillDoc told it is not flat."""
    doc = _general(text)
    if not isinstance(doc, SkillDoc) or not doc.flat or doc.allowed_tools is None:
        return
    assert locate(doc) == locate(replace(doc, flat=False)), text
