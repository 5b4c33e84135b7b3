"""Issue 17's remembered report pieces against making them anew: a verdict's lines of the text
report (``reports.check``) and ``brief`` (``reports.escape``), the same text warm or cold and
kept apart by what changes them (colour, the entry column's width). A file's decisions in JSON
are tested in tests/test_fast_equivalence.py."""

from __future__ import annotations

import pytest

from skillgrant import constrain
from skillgrant.grants import shorten
from skillgrant.reports import check, escape
from skillgrant.reports.check import FileResult, Location, TextStyle, text_block

_VALUES = [["Bash(gh pr list)", "Bash(rm -rf /)", "read", "Read", "Read"],
           ["Bash(gh \u2028x)", "Bash(", "mcp__s(x)", 'Bash(say "hi")', "x" * 300],
           ["Read"], ["Bash(gh issue list --label l1 *)", "Bash(rm -rf /tmp/1)"],
           ["Bash(gh issue list --label l1 *)", "Bash(a-much-longer-entry-than-the-others x)"]]


def _results() -> list[FileResult]:
    made = []
    for i, value in enumerate(_VALUES * 3):
        decision = constrain(value, ["Bash(gh *)", "Read"])
        places = tuple(Location(3, 1 + c) for c in range(len(decision.verdicts)))
        made.append(FileResult(f"s{i}/SKILL.md", f"s{i}/SKILL.md", decision, True, False,
                               Location(3, 1), places))
    return made


def _cold(result: FileResult, style: TextStyle) -> str:
    check._lines_memo.clear()
    escape._briefs.clear()
    return text_block(result, style)


@pytest.mark.parametrize("colour", [False, True])
@pytest.mark.parametrize("quiet", [False, True])
@pytest.mark.parametrize("bound", [4096, 1])
def test_a_text_block_from_remembered_lines_is_made_anew(colour: bool, quiet: bool, bound: int,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check, "MAX_VERDICT_LINES", bound)
    monkeypatch.setattr(escape, "MAX_BRIEFS", bound)
    results = _results()
    style = TextStyle("check", False, colour, quiet)
    cold = [_cold(result, style) for result in results]
    warm = [text_block(result, style) for result in results for _ in range(2)]
    assert warm == [text for text in cold for _ in range(2)]
    assert len(check._lines_memo) <= bound and len(escape._briefs) <= bound


def test_remembered_lines_are_kept_apart_by_colour_and_width() -> None:
    verdict = constrain(["Bash(rm -rf /)"], ["Read"]).verdicts[0]
    seen = {check._remembered_lines(verdict, escape.Paint(colour), width)
            for colour in (False, True) for width in (0, 30)}
    assert len(seen) == 4
    assert check._remembered_lines(verdict, escape.Paint(True), 30) in seen


@pytest.mark.parametrize("text", ["Read", "rm -rf /\x1b[2J", "x" * 2000, "é\u202e", ""])
def test_brief_is_the_same_warm_or_cold(text: str) -> None:
    expected = escape.printable(shorten(text, escape.ENTRY_SHOWN))
    assert escape.brief(text) == expected
    assert escape.brief(text) == expected
