"""What in a plugin's agent file may declare what Copilot CLI runs for the agent, found in
time linear in the text (``pluginparts.agents_run``).

``mcp-servers`` (any 'mcp'), ``hooks`` (review s48-freview C1: customAgentsParseMarkdown reads
them) and ``github`` (its permissions and toolsets) as a key (the word, then ':', or after a
'?'), or anchored (an alias key, ``*k :``, reads as the word: measured), or an escape that may
spell one. This was one regular expression (tests/agentscan_reference.py); Python's re tried it
at every start and walked a run (an anchor's ``&\\S*``, a comment) from each start inside it,
as the square of the text's length (``[&`` or ``hooks #`` repeated: 40,000 characters 0.5 s,
a 1 MB agent file minutes). Here each start is tried once, a run's end and a comment's line end
are measured once and kept, and the answer is the expression's: its first match's start.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Final

from .propwalk import Separation

#: Where a match may start: 'mcp', a backslash, the word, a '?' first on a line or after
#: ``{``, ``,``, ``[`` (a complex key), an anchor at a token's start.
_STARTS: Final = re.compile(r"(?P<word>hooks|github)|(?P<key>(?:^|[\r\n{,\[])[ \t]*+\?)"
                            r"|(?P<anchor>(?:^|(?<=[\s\[{,:?]))&)|mcp|\\", re.IGNORECASE)
_WORD: Final = re.compile(r"hooks|github", re.IGNORECASE)
_TOKEN: Final = re.compile(r"\S++")
_HEADER: Final = re.compile(r"[|>][-+0-9]*+")
#: Node properties before the word, at most.
_PROPERTIES: Final = 4


class _Text:
    """A text's separations and token ends, each measured once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.walk = Separation(text, anywhere=True)
        self.separated: dict[int, int] = {}
        self.keyed: dict[int, bool] = {}
        self.starts: list[int] | None = None
        self.ends: list[int] = []

    def token_end(self, at: int) -> int:
        """The end of the ``\\S`` run holding ``at`` (the runs listed once, bisected: review
        s49-freview2 F1)."""
        if self.starts is None:
            spans = [found.span() for found in _TOKEN.finditer(self.text)]
            self.starts, self.ends = [one for one, _ in spans], [two for _, two in spans]
        index = bisect_right(self.starts, at) - 1
        return self.ends[index] if index >= 0 and at < self.ends[index] else at

    def separation(self, at: int) -> int:
        """The end of YAML's separation from ``at``, ``(?>(?:\\s|#[^\\r\\n]*+)+)`` (``at``
        itself: none), kept by where it starts."""
        if at not in self.separated:
            self.separated[at] = self.walk.end(at)
        return self.separated[at]

    def key_word(self, at: int) -> bool:
        """``(?:[|>][-+0-9]*SEP)?["']?(?:hooks|github)`` at ``at``, after at most four node
        properties ``[&!]\\S*+SEP``; kept by where it is asked."""
        if at not in self.keyed:
            self.keyed[at] = self._key_word(at)
        return self.keyed[at]

    def _key_word(self, at: int) -> bool:
        text = self.text
        for _ in range(_PROPERTIES):
            if text[at:at + 1] not in ("&", "!"):
                break
            after = self.separation(self.token_end(at))
            if after == self.token_end(at):
                return False
            at = after
        header = _end(_HEADER, text, at)
        if header > at:
            at = self.separation(header)
            if at == header:
                return False
        if text[at:at + 1] in ("'", '"'):
            at += 1
        return _WORD.match(text, at) is not None


def _end(pattern: re.Pattern[str], text: str, at: int) -> int:
    found = pattern.match(text, at)
    return at if found is None else found.end()


def first_run(text: str) -> int:
    """The offset where the first text that may declare what Copilot CLI runs begins, or
    -1."""
    scan = _Text(text)
    for start in _STARTS.finditer(text):
        if start.group("key") is not None:
            found = scan.key_word(scan.separation(start.end())) or scan.key_word(start.end())
        elif start.group("anchor") is not None:
            end = scan.token_end(start.start())
            after = scan.separation(end)
            found = after > end and scan.key_word(after)
        elif start.group("word") is not None:
            at = start.end() + (text[start.end():start.end() + 1] in ("'", '"'))
            found = ":" in (text[at:at + 1], text[scan.separation(at):scan.separation(at) + 1])
        else:  # ('mcp', a backslash)
            found = True
        if found:
            return start.start()
    return -1
