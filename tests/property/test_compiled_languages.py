"""Compiled languages (``base.Languages``) against the scan they replace (``first_match``
with ``steps``): the same approved index for every text, the same work charged, and the same
stop when a budget runs out, whichever budget of the chain it is.

Globs and texts are drawn from a tiny alphabet, so that segments overlap, repeat and occur at
the ends of texts (where a greedy or a backtracking matcher would go wrong); the fold is
PowerShell's ASCII folding or none.
"""

from __future__ import annotations

from functools import partial

import pytest
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant.domains import cover
from skillgrant.domains.base import Budget, Glob, OverBudget
from skillgrant.domains.command import ascii_fold
from skillgrant.domains.cover import MATCHED_CHARS, Languages, first_match
from skillgrant.limits import MAX_WORK_PER_DECISION

ALPHABET = "abAB *\n."
segments = st.text(ALPHABET, max_size=4)
globs = st.lists(segments, min_size=1, max_size=5).map(lambda s: Glob(tuple(s)))
languages = st.lists(st.lists(globs, min_size=1, max_size=2), max_size=6)
folds = st.sampled_from([None, ascii_fold])


def _indexed(drawn: list[list[Glob]]) -> list[tuple[int, tuple[Glob, ...]]]:
    return [(i * 3, tuple(g)) for i, g in enumerate(drawn)]


def _filled(glob: Glob, fill: list[str]) -> str:
    return "".join(s + (fill[i] if i < len(fill) else "") for i, s in enumerate(glob.segments))


def _texts(drawn: list[list[Glob]]) -> st.SearchStrategy[str]:
    """Texts near the globs: instances of them with short fillers, and random ones."""
    instances = [st.lists(st.text(ALPHABET, max_size=3), min_size=g.stars, max_size=g.stars)
                 .map(partial(_filled, g)) for globs_ in drawn for g in globs_]
    return st.one_of(st.text(ALPHABET, max_size=12), *instances)


@settings(max_examples=examples(3000), deadline=None)
@given(st.data(), languages, folds)
def test_compiled_languages_answer_and_charge_as_the_scan(data: st.DataObject,
                                                          drawn: list[list[Glob]],
                                                          fold: object) -> None:
    indexed = _indexed(drawn)
    compiled = Languages(indexed, fold)  # type: ignore[arg-type]
    for _ in range(4):
        text = data.draw(_texts(drawn))
        ours, theirs = Budget(), Budget()
        assert compiled.first(text, ours, fold) == first_match(  # type: ignore[arg-type]
            text, indexed, theirs, fold, steps=True)  # type: ignore[arg-type]
        assert ours.spent == theirs.spent


@settings(max_examples=examples(1000), deadline=None)
@given(st.data(), languages, folds)
def test_the_holder_of_a_text_is_the_scans_first(data: st.DataObject, drawn: list[list[Glob]],
                                                 fold: object) -> None:
    indexed = _indexed(drawn)
    compiled = Languages(indexed, fold)  # type: ignore[arg-type]
    text = data.draw(_texts(drawn))
    assert compiled.holder(text) == first_match(
        text, indexed, Budget(), fold, steps=True)  # type: ignore[arg-type]


def test_a_compiled_match_costs_less_than_a_whole_budget() -> None:
    """Why ``Languages.holder`` charges nothing: the most a compiled match can cost the scan."""
    most = cover._COMPILED_SCAN * (MATCHED_CHARS + 1) + cover._COMPILED_CHARS
    assert most < MAX_WORK_PER_DECISION


@settings(max_examples=examples(1000), deadline=None)
@given(st.data(), languages, st.integers(0, 60), st.integers(0, 60))
def test_a_budget_runs_out_where_the_scan_runs_out(data: st.DataObject, drawn: list[list[Glob]],
                                                   own: int, parent: int) -> None:
    indexed = _indexed(drawn)
    compiled = Languages(indexed)
    text = data.draw(_texts(drawn))

    def run(first: object) -> tuple[object, int, int]:
        value = Budget(limit=parent, name="VALUE")
        budget = Budget(limit=own, parent=value)
        try:
            found: object = first(text, budget)  # type: ignore[operator]
        except OverBudget as e:
            found = str(e)
        return found, budget.spent, value.spent

    assert run(compiled.first) == run(lambda t, b: first_match(t, indexed, b, steps=True))


def test_first_match_uses_the_compiled_languages() -> None:
    compiled = Languages([(0, (Glob(("gh",)), Glob(("gh ", "")))), (5, (Glob(("git ", "")),))])
    budget = Budget()
    assert first_match("git push", compiled, budget) == 5
    assert budget.spent == 3 * len("git push ") + len("ghgh git ")
    assert first_match("ls", compiled, Budget()) is None


def test_long_texts_and_other_folds_are_scanned() -> None:
    compiled = Languages([(0, (Glob(("A", "")),))])
    assert compiled.first("a" * 3, Budget(), ascii_fold) == 0  # not the fold it was built with
    assert compiled.first("A" + "x" * MATCHED_CHARS, Budget()) == 0


@pytest.mark.parametrize("segments", [("a", "a", "a"), ("", "a", ""), ("ab", "b", "ba")])
def test_overlapping_segments(segments: tuple[str, ...]) -> None:
    glob = Glob(segments)
    compiled = Languages([(0, (glob,))])
    for text in ["aaa", "aa", "aba", "abba", "abbba", "ababa", "a", ""]:
        assert (compiled.first(text, Budget()) == 0) == glob.matches(text, Budget()), text


@pytest.mark.parametrize("globs", [
    # Long unanchored segments: a match could scan the text once for each of their characters
    # (found in review: 0.1 s a match, where the scan takes 0.2 ms).
    [Glob(("", "a" * 2000 + c, "")) for c in "bcdefghi"],
    # Many stars, or many literal characters: compiling alone took seconds.
    [Glob(("a",) * 257) for _ in range(512)],
    [Glob(("." * 8000 + str(i),)) for i in range(120)],
])
def test_languages_that_could_be_slow_are_scanned(globs: list[Glob]) -> None:
    compiled = Languages([(i, (g,)) for i, g in enumerate(globs)])
    assert compiled.alternation() is None
    assert compiled.counted("a" * 100) is None


def test_a_text_is_matched_against_the_branches_its_first_character_allows() -> None:
    globs = [Glob(("git ", "")), Glob(("", " x")), Glob(("npm",)), Glob(("g",))]
    compiled = Languages([(i * 10, (g,)) for i, g in enumerate(globs)])
    alternation = compiled.alternation()
    assert alternation is not None
    assert sorted(alternation.by_first) == ["g", "n"]
    for text in ["git a", "g", "a x", "git x", "npm", "", "zz x", "q"]:
        assert compiled.first(text, Budget()) == first_match(text, compiled, Budget(),
                                                          steps=True), text
