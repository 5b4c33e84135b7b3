"""Issue 16, item 1: each ``allowed-tools`` entry is located at its first character in the file,
also when YAML escapes, quote doubling or line folding stand between the text and the value.

The expected lines and columns are counted by hand from the texts below (1-based, in
characters); an entry whose first character is written as an escape is located at the
backslash that starts it. ``check``'s locations, SARIF and GitHub annotations read
``AllowedTools.entry_starts`` (and ``entry_ends``, for a region); a plan's errors read
``PlanSource``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from skillgrant import PlanError
from skillgrant.plan.model import Plan
from skillgrant.plan.source import parse_plan_text
from skillgrant.skillfile.spans import read_skill
from skillgrant.skillfile.yamlspan import double_quote, line_column

Located = list[tuple[str, int, int]]


def _located(value: str) -> Located:
    """Each entry of a SKILL.md whose third line is ``allowed-tools: <value>``, with its line
    and column."""
    text = f"---\nname: x\nallowed-tools: {value}\n---\nbody\n"
    found = read_skill(text).allowed_tools
    assert found is not None
    assert len(found.entry_starts) == len(found.entries)
    return [(entry, *line_column(text, start))
            for entry, start in zip(found.entries, found.entry_starts, strict=True)]


# The value starts at column 16 of line 3 (after "allowed-tools: ").
CASES = [
    pytest.param(r'"Bash(gh *), \"Read\", Bash(a\\tb)"',
                 [("Bash(gh *)", 3, 17), ('"Read"', 3, 29), ("Bash(a\\tb)", 3, 39)],
                 id="escaped-quotes-and-backslash"),
    pytest.param(r'"\u00e9cho, R\u00e9ad, Grep"',
                 [("\u00e9cho", 3, 17), ("R\u00e9ad", 3, 28), ("Grep", 3, 39)],
                 id="unicode-escapes"),
    pytest.param(r'"\x52ead, Read"', [("Read", 3, 17), ("Read", 3, 26)],
                 id="an-escape-spells-an-entry-that-repeats"),
    pytest.param(r'"\tGrep, Glob"', [("Grep", 3, 19), ("Glob", 3, 25)],
                 id="a-whitespace-escape-before-an-entry"),
    pytest.param(r'"\U00000052ead\x20Grep"', [("Read", 3, 17), ("Grep", 3, 34)],
                 id="eight-digit-escape-and-an-escaped-separator"),
    pytest.param(r'["Bash(a\\tb)", "\u0052ead", Grep]',
                 [("Bash(a\\tb)", 3, 18), ("Read", 3, 33), ("Grep", 3, 45)],
                 id="flow-list-of-double-quoted-items"),
    pytest.param(r'["\"Read\"", "Grep \u0047lob"]',
                 [('"Read"', 3, 18), ("Grep", 3, 30), ("Glob", 3, 35)],
                 id="flow-list-item-with-two-entries"),
    pytest.param('"Read,\\\n  \\x47rep\n  Glob"',
                 [("Read", 3, 17), ("Grep", 4, 3), ("Glob", 5, 3)],
                 id="escaped-line-break-and-folding"),
    pytest.param("'Bash(echo ''hi''), Read'", [("Bash(echo 'hi')", 3, 17), ("Read", 3, 36)],
                 id="single-quoted-doubled-quotes"),
    pytest.param(">- # Read these\n  Read\n  Grep", [("Read", 4, 3), ("Grep", 5, 3)],
                 id="folded-with-a-comment-naming-an-entry"),
    pytest.param("Read\n  Grep", [("Read", 3, 16), ("Grep", 4, 3)], id="plain-two-lines"),
    pytest.param('\n  - "Bash(\\x72m -rf /)"\n  - Read',
                 [("Bash(rm -rf /)", 4, 6), ("Read", 5, 5)],
                 id="block-list-double-quoted-item"),
]


@pytest.mark.parametrize(("value", "expected"), CASES)
def test_entries_point_at_their_first_character(value: str, expected: Located) -> None:
    assert _located(value) == expected


@pytest.mark.parametrize(("value", "written"), [
    pytest.param(r'"Bash(gh *), \"Read\", Bash(a\\tb)"',
                 ["Bash(gh *)", r'\"Read\"', r"Bash(a\\tb)"], id="escapes"),
    pytest.param(r'["R\u00e9ad", "\x52ead"]', [r"R\u00e9ad", r"\x52ead"], id="flow-list"),
    pytest.param("'it''s, Read'", ["it''s", "Read"], id="single-quoted"),
    pytest.param('"Bash(gh\\\n  pr *)"', ["Bash(gh\\\n  pr *)"], id="an-entry-over-two-lines"),
])
def test_an_entry_ends_after_its_last_character(value: str, written: list[str]) -> None:
    text = f"---\nallowed-tools: {value}\n---\n"
    found = read_skill(text).allowed_tools
    assert found is not None
    assert [text[start:end] for start, end in zip(found.entry_starts, found.entry_ends,
                                                  strict=True)] == written


def test_rendered_entries_are_found_where_they_were_written() -> None:
    """Random entries, written double-quoted with every escape ``double_quote`` uses, each
    located at the offset where its text was put (known by building the file piece by piece)."""
    chance = random.Random(16)
    alphabet = "abcXYZ*:/ \t\"\\\u00e9\u00a0\x85\u2028\x07\U0001f600"
    for _ in range(200):
        entries = ["Bash(" + "".join(chance.choice(alphabet) for _ in range(chance.randint(0, 6)))
                   + "x)" for _ in range(chance.randint(1, 4))]
        head = "---\nallowed-tools: \""
        text, starts = head, []
        for entry in entries:
            starts.append(len(text))
            text += double_quote(entry)[1:-1] + ", "
        text += "\"\n---\n"
        found = read_skill(text).allowed_tools
        assert found is not None
        assert found.entries == tuple(entries), text
        assert found.entry_starts == tuple(starts), text
        assert found.entry_ends == tuple(start + len(double_quote(entry)) - 2
                                         for start, entry in zip(starts, entries, strict=True))


@pytest.mark.parametrize(("text", "where"), [
    pytest.param('allowed-tools: "Read, \\x42ash(gh *"\n', "p.yaml:1:23", id="yaml-escape"),
    pytest.param('allowed-tools: ["Read", "\\x52ead, Bash(gh *"]\n', "p.yaml:1:35",
                 id="yaml-flow-item"),
    pytest.param('{"allowed-tools": ["Read", "\\u0042ash(gh *"]}', "p.json:1:29",
                 id="json-escape"),
    pytest.param('{"permissions": {"allow": ["\\u0052ead", "\\u0042ash(gh *"]}}', "s.json:1:42",
                 id="settings-escape"),
])
def test_a_plan_error_points_at_the_entry(text: str, where: str) -> None:
    source = where.split(":")[0]
    with pytest.raises(PlanError) as caught:
        Plan.from_text(text, source=source)
    assert str(caught.value).startswith(where + ": "), caught.value


def test_plan_entries_are_located() -> None:
    text = 'allowed-tools: ["\\x52ead", "Grep \\u0047lob"]\n'
    parsed = parse_plan_text(text, source="p.yaml", kind="plan")
    assert parsed.where.entry_positions() == ((1, 18), (1, 29), (1, 34))


def test_check_reports_the_columns(tmp_path: Path) -> None:
    """End to end: ``check``'s JSON locations (the ones SARIF and annotations show)."""
    from typer.testing import CliRunner

    from skillgrant.cli.app import app

    (tmp_path / "SKILL.md").write_text(
        '---\nname: x\nallowed-tools: "Bash(gh *), \\"Read\\", R\\u00e9ad"\n---\n',
        encoding="utf-8")
    (tmp_path / "plan.yaml").write_text("allowed-tools: [Grep]\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(tmp_path / "SKILL.md"), "--plan",
                                      str(tmp_path / "plan.yaml"), "--format", "json"])
    decisions = json.loads(result.stdout)["files"][0]["decisions"]
    assert [(d["line"], d["column"]) for d in decisions] == [(3, 17), (3, 29), (3, 39)]


def test_annotations_end_where_the_entry_is_written_to_end(tmp_path: Path) -> None:
    """An entry spelled with an escape, or folded over two lines, ends at its last character
    as written (not at its start plus its decoded length)."""
    import os

    from typer.testing import CliRunner

    from skillgrant.cli.app import app

    (tmp_path / ".git").mkdir()
    (tmp_path / "S.md").write_text('---\nname: x\nallowed-tools: "\\x52ead, Bash(npm\n'
                                   '  run *)"\n---\n')
    (tmp_path / "p.yaml").write_text("allowed-tools: [Grep]\n")
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(app, ["check", "S.md", "--plan", "p.yaml", "-f", "github"])
    finally:
        os.chdir(here)
    lines = [line for line in result.stdout.splitlines() if "SG001" in line]
    # line 3 is `allowed-tools: "\x52ead, Bash(npm`: \x52ead is columns 17-23, Bash( starts at 26
    assert "line=3,col=17,endLine=3,endColumn=23," in lines[0]
    # GitHub drops columns across lines, so a folded entry gives its lines only
    assert "line=3,endLine=4," in lines[1]
