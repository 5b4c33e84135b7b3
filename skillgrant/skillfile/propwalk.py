"""yamlapart's rules searched in time linear in the text (review s49-freview B1, B2).

Each rule was one regular expression: a start (a line's start, ``:``, ``,``, ``[``, ...), a
run of node properties, then what Bun and PyYAML read apart. Python's re tries the pattern
at every start and walks the property run from each, so a line of ``, &a`` or ``: !`` (starts
inside the properties of the start before) took time as the square of its length. Here a
start's run is walked once: where a walk reaches a point another walk passed (the next
property, a comment's line end), it takes that walk's answer (``memo``). Each function answers
what the rule's pattern answered (tests/yamlapart_reference.py holds the patterns): the offset
of the last character its first match consumed, or -1.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Callable

#: Where a node may begin (a line's start, after ``,``, ``[``, ``{``, or ``:``, ``?`` and a
#: blank), with the blanks after it; a line's start (a CR in the blanks too) takes list dashes.
_START: Final = re.compile(r"(?:[\n\r]|[\[{,]|[:?](?=[ \t\r])|(?P<top>^))[ \t\r]*+")
_DASHES: Final = re.compile(r"(?:-[ \t\r]++)*+")
_TOKEN: Final = re.compile(r"\S++")
_BLANKS: Final = re.compile(r"[ \t\r]*+")
#: A tag holding a flow indicator; an anchor or alias name ended by what Bun reads on.
_CUT_TAG: Final = re.compile(r"![^\s,\[\]{}]*+[,\[\]{}]")
_CUT_NAME: Final = re.compile(r"[&*][A-Za-z0-9_-]++[?:%@`]")
#: A complex key's ``?``, and the plain key a line may hold after it (its properties first).
_QUESTION: Final = re.compile(r"(?:(?:[\n\r]|^)[ \t-]*+|[\[{][ \t]*+)\?(?=[ \t\r\n]|$)")
_KEY_BLANKS: Final = re.compile(r"[ \t]*+")
_PLAIN_KEY: Final = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_ .-]*+(?:\n|$)")
#: A lone dash's starts, the property tokens before it, blanks and comments around it.
_FLOW_START, _FLOW_TOKEN, _SPACE, _BREAK = (
    re.compile(pattern) for pattern in (r"[\[{,:]", r"[^\s,\[\]{}]++", r"\s*+", r"[\r\n]"))


class _Runs:
    """A text's property walks: each point's answer, and each token end's, kept (``memo``,
    ``after``); the tokens' spans listed once, so a start inside a token finds its end by
    bisection (review s49-freview2 F1: one kept end was moved by the walk on)."""

    def __init__(self, text: str, token: re.Pattern[str]) -> None:
        self.text, self.token = text, token
        self.memo: dict[int, int] = {}
        self.after: dict[int, int] = {}
        self.starts: list[int] | None = None
        self.ends: list[int] = []

    def token_end(self, at: int) -> int:
        if self.starts is None:
            spans = [found.span() for found in self.token.finditer(self.text)]
            self.starts, self.ends = [one for one, _ in spans], [two for _, two in spans]
        index = bisect_right(self.starts, at) - 1
        return self.ends[index] if index >= 0 and at < self.ends[index] else at

    def walk(self, at: int, chain: str, gap: re.Pattern[str],
             target: Callable[[int], int]) -> int:
        """From ``at``: tokens led by a ``chain`` character, each followed by ``gap`` (one
        character at least), then what ``target`` finds there: its end, or -1."""
        text, passed, ended = self.text, [], []
        while at not in self.memo:
            passed.append(at)
            if at < len(text) and text[at] in chain:
                end = self.token_end(at)
                if end in self.after:
                    answer = self.after[end]
                    break
                ended.append(end)
                after = _end(gap, text, end)
                if after > end:
                    at = after
                    continue
                self.memo[at] = -1
            else:
                self.memo[at] = target(at)
        else:
            answer = self.memo[at]
        for point in passed:
            self.memo[point] = answer
        for point in ended:
            self.after[point] = answer
        return answer


def cut_tag(text: str) -> int:
    """A tag holding a flow indicator at a node's start, behind anchors."""
    return _cut_property(text, tag=True)


def cut_anchor(text: str) -> int:
    """An anchor or alias name ended by one of ``?:%@``` at a node's start, behind tags."""
    return _cut_property(text, tag=False)


def _cut_property(text: str, tag: bool) -> int:
    """A tag holding a flow indicator (``tag``) or an anchor or alias name ended by ``?:%@```,
    at a node's start behind node properties of the other kind."""
    runs, dashed = _Runs(text, _TOKEN), -1
    chain, target = ("&", _CUT_TAG) if tag else ("!", _CUT_NAME)
    for start in _START.finditer(text):
        at = start.end()
        if start.start() < dashed:  # (a CR among a line's dashes: the line's walk)
            continue
        if start.group("top") is not None or "\n" in start.group() or "\r" in start.group():
            at = dashed = _end(_DASHES, text, at)
        if at < len(text) and text[at] in "&!*":
            end = runs.walk(at, chain, _BLANKS, lambda point: _end(target, text, point))
            if end >= 0:
                return end - 1
    return -1


def odd_complex_key(text: str) -> int:
    """A complex key's ``?`` whose line holds more than a plain key (properties first)."""
    runs = _Runs(text, _TOKEN)
    for question in _QUESTION.finditer(text):
        at = question.end()
        blanks = _end(_KEY_BLANKS, text, at)
        if blanks == at or runs.walk(blanks, "!&", _KEY_BLANKS,
                                     lambda point: _end(_PLAIN_KEY, text, point)) < 0:
            return at - 1
    return -1


def _end(pattern: re.Pattern[str], text: str, at: int) -> int:
    """The end of ``pattern``'s match at ``at``, or -1 (a pattern that may match empty: its
    end there)."""
    found = pattern.match(text, at)
    return -1 if found is None else found.end()


class Separation:
    """YAML's separation as the lone dash's pattern reads it, ``(?>(?:\\s|(?<=\\s)#[^\\r\\n]*+)*)``,
    from a point (``anywhere``: a comment after any character, ``(?:\\s|#[^\\r\\n]*+)*``, as
    agentscan reads it): each comment's line end, once walked, kept with the walk's end."""

    def __init__(self, text: str, *, anywhere: bool = False) -> None:
        self.text, self.anywhere = text, anywhere
        self.breaks = [found.start() for found in _BREAK.finditer(text)]
        self.memo: dict[int, int] = {}

    def end(self, at: int) -> int:
        text, passed = self.text, []
        while True:
            after = _end(_SPACE, text, at)
            if after == len(text) or text[after] != "#" or not (
                    self.anywhere or after > at
                    or (after > 0 and _end(_SPACE, text, after - 1) == after)):
                break
            index = bisect_left(self.breaks, after)
            at = self.breaks[index] if index < len(self.breaks) else len(text)
            if at in self.memo:
                after = self.memo[at]
                break
            passed.append(at)
        for point in passed:
            self.memo[point] = after
        return after


def lone_dash(text: str) -> int:
    """A ``-`` alone between a flow collection's indicators, behind node properties, with
    blanks and comments around it."""
    runs, separation = _Runs(text, _FLOW_TOKEN), Separation(text)

    def alone(at: int) -> int:
        if text[at:at + 1] != "-":
            return -1
        after = separation.end(at + 1)
        return at + 1 if after < len(text) and text[after] in "]}," else -1

    for start in _FLOW_START.finditer(text):
        at = separation.end(start.end())
        if at < len(text) and text[at] in "&!-":
            end = runs.walk(at, "&!", _SPACE, alone)
            if end >= 0:
                return end - 1
    return -1
