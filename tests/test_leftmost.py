"""``flowlenient.leftmost``: a top-level alternation of groups searched one alternative at a
time gives the alternation's own match (session 48: ``runtime._BUN_READS``, which a ``^`` under
MULTILINE made try every character)."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

from skillgrant.skillfile.flowlenient import _alternatives, leftmost
from skillgrant.skillfile.runtime import _BUN_READS

sys.path.insert(0, str(Path(__file__).parent / "oracle"))  # as tests/test_reread.py does
from frontmatter_gen import texts

_PIECES = ["\r", "\n", "\r\n", "\t", " ", ":", ",", "&a", "!t", "#", "\x0b", "\x0c", "x", "- ",
           "[", "]", "|"]


def _same(pattern: re.Pattern[str], text: str) -> bool:
    theirs, ours = pattern.search(text), leftmost(pattern, text)
    if theirs is None or ours is None:
        return theirs is ours
    return (theirs.span(), theirs.lastgroup) == (ours.span(), ours.lastgroup)


def test_bun_reads_is_searched_apart_with_the_same_match() -> None:
    parts = _alternatives(_BUN_READS)
    assert parts is not None and len(parts) == len(_BUN_READS.groupindex)
    rng = random.Random(48)
    cases = ["".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 30)))
             for _ in range(20_000)]
    cases += list(texts(48, 2_000))
    assert all(_same(_BUN_READS, text) for text in cases)
    assert sum(_BUN_READS.search(text) is not None for text in cases) > 10_000


def test_ties_go_to_the_earlier_alternative_and_classes_are_not_split() -> None:
    pattern = re.compile(r"(?P<a>ab)|(?P<b>a)|(?P<c>[|(\]])|(?P<d>[]|])", re.MULTILINE)
    assert _alternatives(pattern) is not None
    for text in ("xab", "xa", "(|]a", "ba", "]", ""):
        assert _same(pattern, text), text


def test_what_is_not_split_is_searched_whole() -> None:
    for pattern in (r"(?P<a>x)|(?P<b>(?P=a))", r"(x)|\1", "a|b", "(?P<a>x)(?P<b>y)",
                    r"(?P<a>[x|(])", "(?P<a>x)"):
        compiled = re.compile(pattern)
        assert _alternatives(compiled) is None, pattern
        assert _same(compiled, "xyz|x")
