"""A law over every regular expression in skillgrant.skillfile (issue 27; reviews s48-freview2
P1, s49-freview B1-B4): the reader runs them on a file's text (up to 1 MB), and a hook that
times out lets the call run under Copilot CLI, so each is read in time linear in the text.

A text of N repeated tokens, each built from the pattern's own literal characters (one, two
(250 at most), a few drawn at random, or a shape a review found), then nothing, a line break, a
NUL or a plain key's line end, is searched (or matched at its start, as the reader uses the
pattern: ``USE``) at N and 4N characters. Linear: 4N takes
about 4 times N; a pattern that walks a run from each start takes 16 times. Compared as a
ratio of the process's time, each case measured again (best of 3) before it is held against
the pattern; no time bound is asserted. (It finds the rules s49-ffix replaced by walks:
skillfile.propwalk's four, tests/yamlapart_reference.py, and the needs they had; agentscan's,
tests/agentscan_reference.py.)
"""

from __future__ import annotations

import importlib
import pkgutil
import random
import re
import time
from typing import Any

import pytest
from review_table import LeftOpen

import skillgrant.skillfile as skillfile

#: How the reader runs each pattern on a text: searched through it (search, finditer, sub,
#: findall, split), or matched at one point (match, fullmatch: each call's cost at a point is
#: its own; the callers step through the text).
USE = {
    "blockcolumn._LINE": "search", "blockread._PREFIX": "match", "dashtab._DASH_TAB": "search",
    "dashtab._KEY_COLON": "search", "entryspans._LINE_BREAK": "search",
    "entryspans._FOLDED_OUT": "search", "entryspans._KEPT_RUN": "search",
    "flatyaml._NOT_A_KEY_FIRST": "search", "flatyaml._LINE": "match",
    "flatyaml._SAFE": "match", "flatyaml._DOUBLE": "match", "flowlenient._NESTS": "search",
    "flowreject.BREAK": "search", "flowreject._GLUED": "search", "keyread._BREAK_RUN": "search",
    "nesting._BLOCK_INDICATOR": "search", "nesting._BLOCK_DASH": "search",
    "agentscan._STARTS": "search", "agentscan._WORD": "match", "agentscan._TOKEN": "search",
    "agentscan._HEADER": "match", "propwalk._SPACE": "match", "propwalk._BREAK": "search",
    "pluginruns._SPACE": "match", "propwalk._START": "search",
    "propwalk._DASHES": "match", "propwalk._BLANKS": "match",
    "propwalk._CUT_TAG": "match", "propwalk._CUT_NAME": "match", "propwalk._QUESTION": "search",
    "propwalk._KEY_BLANKS": "match", "propwalk._PLAIN_KEY": "match",
    "propwalk._FLOW_START": "search", "propwalk._FLOW_TOKEN": "search",
    "runtime._OPENING": "match", "runtime._SIMPLE_LINE": "match",
    "runtime._NEEDS_QUOTES": "search", "runtime._LEADING_TABS": "search",
    "runtime._HEADER": "match", "runtime._BUN_MAY_ACCEPT": "search", "runtime._BUN_READS": "search",
    "spans._OPENING": "match", "spans._FOREIGN_BOUNDARY": "match", "spans._LINE": "search",
    "spans._BOM_FIRST": "search", "spans.FENCE_LINE": "search", "yamlapart._COMPLEX_KEY": "search",
    "yamlapart._ODD_COMPLEX_NEEDS": "search", "yamlapart._CUT_ANCHOR_NEEDS": "search",
    "yamlapart._CUT_TAG_NEEDS": "search", "yamlapart._LONE_DASH_NEEDS": "search",
    "yamlapart._FLOW_SIGN": "search", "yamlapart._SIGN": "search",
    "yamlspan._BUN_NUMBER": "match",
}

OPEN = LeftOpen()
_open = OPEN.add


def _patterns() -> dict[str, re.Pattern[str]]:
    """Every compiled pattern a skillfile module holds (alone or in a tuple), by the first
    module name that holds it."""
    found: dict[str, re.Pattern[str]] = {}
    for module in pkgutil.iter_modules(skillfile.__path__):
        names = vars(importlib.import_module(f"skillgrant.skillfile.{module.name}"))
        for name, value in names.items():
            for one in value if isinstance(value, tuple) else (value,):
                if isinstance(one, re.Pattern) and all(one is not p for p in found.values()):
                    found[f"{module.name}.{name}"] = one
                    break
    return found


PATTERNS = _patterns()


def test_each_pattern_says_how_the_reader_runs_it() -> None:
    assert sorted(PATTERNS) == sorted(USE)


#: What an escape in a pattern stands for, as characters of a token.
_ESCAPES = {"s": " \n\t", "S": "a", "d": "0", "w": "a", "W": " ", "n": "\n", "r": "\r",
            "t": "\t", "0": "\0", "A": "", "Z": "", "b": "", "B": ""}
#: The shapes reviews found walked from each start (s48-freview2 P1, s49-freview B1-B4).
_SHAPES = ("[? !a-", ", &a", ": !", "- #", ", #", "&#", "\r- ", "\t ", "[&", "? &a ")


def _literals(pattern: re.Pattern[str]) -> list[str]:
    """The characters ``pattern``'s text names (escapes as what they stand for), a letter
    and a blank."""
    out = {"a", " "}
    for found in re.finditer(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)|(.)", pattern.pattern,
                             re.DOTALL):
        escape, plain = found.groups()
        if plain is not None:
            out.add(plain)
        elif len(escape) > 1:
            out.add(chr(int(escape[1:], 16)))
        else:
            out.update(_ESCAPES.get(escape, escape))
    return sorted(out)


def _tokens(pattern: re.Pattern[str]) -> list[str]:
    letters = _literals(pattern)
    rng = random.Random(49)
    drawn = {"".join(rng.choice(letters) for _ in range(rng.randint(3, 6))) for _ in range(150)}
    pairs = sorted(a + b for a in letters for b in letters)
    return sorted({*letters, *rng.sample(pairs, min(len(pairs), 250)), *drawn, *_SHAPES})


def _cost(run: Any, text: str, times: int = 1) -> float:
    best = float("inf")
    for _ in range(times):
        start = time.process_time()
        run(text)
        best = min(best, time.process_time() - start)
    return best


def _square_case(pattern: re.Pattern[str], use: str, size: int = 1500) -> str | None:
    """A token whose text of 4N characters takes more than 8 times N's (measured again, best
    of 3), or None."""
    run = pattern.search if use == "search" else pattern.match
    for token in _tokens(pattern):
        for tail in ("", "\n", "\0", " a\n"):
            small = token * (size // len(token)) + tail
            large = token * (4 * size // len(token)) + tail
            if _cost(run, large) > 0.002 and _cost(run, large, 3) > 8 * max(
                    _cost(run, small, 3), 0.0002):
                return repr(token + tail)
    return None




@pytest.mark.parametrize("name", sorted(USE))
def test_each_pattern_is_read_in_linear_time(name: str) -> None:
    assert _square_case(PATTERNS[name], USE[name]) is None
