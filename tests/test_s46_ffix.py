"""Session 46's fixes of review s46-freview (s46-ffix): what each fix refuses, located, what it
keeps, and that the real skills lose nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrant.errors import SkillFileError
from skillgrant.plan import Plan
from skillgrant.skillfile import apply_to_text, read_skill

CORPUS = Path("/work/shared/corpus/real-skills")


def _skill(lines: str) -> str:
    return f"---\nname: probe\ndescription: d\nallowed-tools: Read\n{lines}\n---\nbody\n"


# T1-T3: a tag Bun ignores and PyYAML constructs is refused where the node starts, at any
# depth, on the document itself and on an item too.
@pytest.mark.parametrize(("lines", "where"), [
    ("context: !!null fork", (5, 10)),
    ("agent: !!null\n  helper", (5, 8)),
    ("x: !!set {PreToolUse: y}", (5, 4)),
    ("x: !!omap\n  - PreToolUse: y", (5, 4)),
    ("x: !!pairs [{PermissionRequest: y}]", (5, 4)),
    ("x:\n  y: &a !!null z", (6, 6)),
    ("x:\n  - !!null z", (6, 5)),
    ("x: !!str 123", (5, 4)),  # plain: Bun reads a number (it ignores !!str)
    ("x: !!str true", (5, 4)),
    ("x: ! 12", (5, 4)),  # the non-specific tag: a string to PyYAML
    ("x: !!int '12'", (5, 4)),
    ("x: !!binary aGk=", (5, 4)),
    ("x: !!timestamp 2001-01-01", (5, 4)),
    ("x: !!map [a]", (5, 4)),  # a tag of another kind
    ("x: !<tag:yaml.org,2002:null> y", (5, 4)),
])
def test_a_tagged_value_is_refused_where_it_starts(lines: str, where: tuple[int, int]) -> None:
    text = _skill(lines)
    with pytest.raises(SkillFileError) as raised:
        read_skill(text, "SKILL.md")
    assert "a value written with a YAML tag" in raised.value.message
    assert (raised.value.line, raised.value.column) == where
    with pytest.raises(SkillFileError):
        apply_to_text(text, Plan.from_entries(["Read"]))


def test_a_tagged_document_is_refused() -> None:
    text = "---\n!!set\nallowed-tools: Read\nhooks: x\n---\n"
    with pytest.raises(SkillFileError) as raised:
        read_skill(text, "SKILL.md")
    assert "a value written with a YAML tag (!!set)" in raised.value.message


# Tags both readers read as untagged are kept: the kind's own on a collection, !!str on a
# quoted or block scalar (a string to Bun whatever its text).
@pytest.mark.parametrize("lines", [
    "x: !!map\n  k: v", "x: !!seq\n  - a", "x: !!map {k: v}", "x: !!str '123'",
    "x: !!str \"true\"", "x: !!str |\n  a", "x: &a !!seq [a]", "x: a!b"])
def test_a_tag_both_readers_read_untagged_is_kept(lines: str) -> None:
    doc = read_skill(_skill(lines), "SKILL.md")
    assert doc.allowed_tools is not None and doc.allowed_tools.entries == ("Read",)


# allowed-tools keeps its own words (spans.allowed_of's), now said before the value is built.
@pytest.mark.parametrize(("value", "said"), [
    ("!x Read", "allowed-tools carries a YAML tag or anchor"),
    ("!!null Bash", "allowed-tools carries a YAML tag or anchor"),
    ("\n  - Read\n  - !!null Bash", "allowed-tools item 2 carries a YAML tag or anchor"),
])
def test_a_tag_on_allowed_tools_keeps_its_words(value: str, said: str) -> None:
    with pytest.raises(SkillFileError) as raised:
        read_skill(f"---\nallowed-tools: {value}\n---\n", "SKILL.md")
    assert said in raised.value.message


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the real-skills corpus is not here")
def test_no_real_skill_writes_a_tag() -> None:
    """The corpus's 40 frontmatters read as before: none is refused for a tag."""
    read = 0
    for path in sorted(CORPUS.rglob("*.md")):
        try:
            read_skill(path.read_text(encoding="utf-8"), str(path))
            read += 1
        except SkillFileError as e:
            assert "YAML tag" not in e.message, (path, e.message)
    assert read >= 30
