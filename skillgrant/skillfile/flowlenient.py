"""Where PyYAML rejects a frontmatter inside a flow collection, Bun may accept it (s47-ffix).

``runtime.predict`` took "a text PyYAML does not compose, Bun rejects too" and read the
runtime's re-quote retry. Inside ``[...]`` and ``{...}`` that is false: Bun 1.4.5 reads an
empty key (``[a, : b]`` is ``["a", {"null": "b"}]``, ``{: b}``), ``?`` glued to what follows
(``[?? ]``, ``[? : b]``), a plain scalar holding ``:`` or a backtick (``{a`@:}``), an indicator
after ``?`` (``{?>}``, ``[?@]``) where libyaml stops (measured on 60,000 generated flow values:
1,400 such texts, every kind listed). The runtime then reads the text as written, and
``x: [PreToolUse: y, : b]`` drops the skill's hooks while skillgrant's retried reading holds
a string (``apply --enforce`` wrote a hook that never runs). So an error PyYAML reports inside
a flow collection means the reading cannot be computed, but where Bun is known to reject the
collection too: a ``${`` inside it (pinned by tests/oracle; real skill 34).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final, NamedTuple

import yaml
from yaml.nodes import SequenceNode
from yaml.reader import Reader
from yaml.scanner import Scanner
from yaml.tokens import (
    FlowMappingEndToken,
    FlowMappingStartToken,
    FlowSequenceEndToken,
    FlowSequenceStartToken,
)

from .yamlspan import YamlProblem, compose

_OPENS = (FlowSequenceStartToken, FlowMappingStartToken)
_CLOSES = (FlowSequenceEndToken, FlowMappingEndToken)
# What may open a nested collection, a quote or a comment inside a flow list (is_flow_list).
_NESTS: Final = re.compile(r"[\[{\"'#]")


class Scan(NamedTuple):
    """One scan of ``bun_may_accept`` (its answer, for the error at ``where``) and what it
    read: ``read`` is the scanned text with the reader's end mark (``\\0``) after it, up to the
    farthest character looked at (``farthest``; shorter when it looked past the end)."""

    read: str
    farthest: int
    where: int
    answer: bool


def bun_may_accept(yaml_text: str, where: int, scans: list[Scan] | None = None) -> bool:
    """Whether the error PyYAML reports at ``where`` of ``yaml_text`` lies inside a flow
    collection that Bun may read as written (one with no ``${`` on the error's line). The
    depth is PyYAML's own scanner's (pure Python: libyaml's looks ahead past the error before
    it yields a token): the collections opened before ``where``, or its flow level where it
    stopped at an error of its own.

    ``scans``: scans made of a text this one is a rewrite of (the first reading of a file,
    for its read-back), whose answer is taken when it read the very characters this text
    has there and stopped for the same ``where`` (``_taken``); the scan made here is added."""
    if "[" not in yaml_text[:where + 1] and "{" not in yaml_text[:where + 1]:
        return False  # (no collection opened before it: a flow indicator is one of these)
    line = yaml_text.rfind("\n", 0, where) + 1
    end = yaml_text.find("\n", where)
    if _plain_dollar(yaml_text[line:len(yaml_text) if end < 0 else end]):
        return False  # (asked first: it decides whatever the depth, which costs a scan)
    if scans:
        taken = _taken(scans, yaml_text, where)
        if taken is not None:
            return taken
    try:
        scanner = _Scanner(yaml_text)
    except yaml.YAMLError:  # (a character it does not read: no flow to speak of)
        return False
    opened = 0
    try:
        while scanner.check_token():
            token = scanner.peek_token()  # type: ignore[no-untyped-call]
            if token.start_mark.index >= where:
                break
            opened += isinstance(token, _OPENS)
            opened -= isinstance(token, _CLOSES) and opened > 0
            scanner.get_token()  # type: ignore[no-untyped-call]
    except yaml.YAMLError:
        opened = scanner.flow_level
    if scans is not None:
        far = scanner.farthest
        scans.append(Scan(_buffer(yaml_text, far), far, where, opened > 0))
    return opened > 0


def _buffer(yaml_text: str, farthest: int) -> str:
    """The scanner's buffer (the text and its end mark) up to ``farthest``."""
    return yaml_text[:farthest + 1] + ("\0" if farthest >= len(yaml_text) else "")


def _taken(scans: list[Scan], yaml_text: str, where: int) -> bool | None:
    """The answer of a scan in ``scans`` for ``where`` that read the characters ``yaml_text``
    has at the same places, when its reader takes the text (no character it refuses); else
    None. The scanner is a function of the characters it reads (``_Scanner``: through
    ``peek``, ``prefix`` and ``forward`` alone, each marking how far it read; its reader's
    other step, the printable check at its start, reads the whole text, asked here), so it
    makes the very same steps on this text as on that one, and stops as it did."""
    for scan in scans:
        if (scan.where == where and _buffer(yaml_text, scan.farthest) == scan.read
                and Reader.NON_PRINTABLE.search(yaml_text) is None):
            return scan.answer
    return None


class _Scanner(Reader, Scanner):
    """PyYAML's pure-Python scanner alone: ``SafeLoader``'s tokens (its scanner reads nothing
    but the reader), without the parser, composer, constructor and resolver it never uses
    here. Its reader marks the farthest character of the text it read (``farthest``): the
    scanner reads the text only through ``peek``, ``prefix`` and ``forward`` (it never asks
    the reader's ``buffer`` itself), each of which reads a text given as a ``str`` from the
    buffer alone (``update`` does nothing then)."""

    def __init__(self, stream: str) -> None:
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        self.farthest = 0

    def peek(self, index: int = 0) -> str:
        at = self.pointer + index
        if at > self.farthest:
            self.farthest = at
        return self.buffer[at]  # type: ignore[no-any-return]

    def prefix(self, length: int = 1) -> str:
        if self.pointer + length - 1 > self.farthest:
            self.farthest = self.pointer + length - 1
        return self.buffer[self.pointer:self.pointer + length]  # type: ignore[no-any-return]

    def forward(self, length: int = 1) -> None:
        Reader.forward(self, length)  # (it reads up to the character it ends at, a CR's next)
        if self.pointer > self.farthest:
            self.farthest = self.pointer


def _plain_dollar(line: str) -> bool:
    """Whether ``line`` surely holds ``${`` in a plain scalar, which Bun rejects: one with no
    quote and no ``#`` before its first ``${`` (in a quoted scalar or a comment Bun reads it:
    review s47-freview2 R2)."""
    at = line.find("${")
    return at >= 0 and not any(c in line for c in "'\"") and "#" not in line[:at]


def is_flow_list(value: str, at: int, divergence: type[Exception]) -> bool:
    """Whether Bun parses ``value`` (a line's value, at ``at`` of its text) as a list, which
    the runtime's retry keeps unquoted. Bun accepts what PyYAML composes on one line (no line
    to misplace); where PyYAML rejects the value inside its brackets, Bun may still parse a
    list (``[a, : b]``): ``divergence`` (``runtime.Divergence``) is raised, located at ``at``."""
    if not (value.startswith("[") and value.endswith("]")):
        return False
    # Nothing between the first '[' and the first ']' that nests, quotes or comments: the
    # list closes at that ']' (a plain scalar in a flow collection ends at one). When more
    # follows it (the value ends in ']', so that is not blank) and no '#' anywhere (it could
    # start a comment after the list), PyYAML reads a mapping with the list as its key, or
    # rejects the text: not a list either way, and the text is not composed to be told so.
    close = value.find("]")
    if close < len(value) - 1 and _NESTS.search(value, 1, close) is None and "#" not in value:
        return False
    try:
        node = compose(value)
    except YamlProblem as e:
        if bun_may_accept(value, e.index or 0):
            raise divergence(f"{e.message} in {value!r}: Claude Code's YAML parser may read "
                             "that flow collection as a list, and keep it so on its retry",
                             at) from e
        return False
    return isinstance(node, SequenceNode)


def leftmost(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """``pattern.search(text)`` for a pattern that is an alternation of groups at its top
    level (``runtime._BUN_READS``): each alternative searched apart, and the match that starts
    first kept, the earlier alternative on a tie. That is the alternation's own match (it tries
    its alternatives in order at each position from the left); apart, an alternative that
    starts with a character or a class is found at C speed, where the alternation, with a
    ``^`` under MULTILINE in it, is tried at every character (137.7k instructions a search on
    the real retry files' frontmatters, 40.7k apart). A pattern ``_alternatives`` cannot split
    so is searched whole."""
    parts = _alternatives(pattern)
    if parts is None:
        return pattern.search(text)
    best = None
    for part in parts:
        found = part.search(text)
        if found is not None and (best is None or found.start() < best.start()):
            best = found
    return best


@cache
def _alternatives(pattern: re.Pattern[str]) -> tuple[re.Pattern[str], ...] | None:
    """The top-level alternatives of ``pattern``, each compiled alone with its flags, when each
    holds one capturing group (its name the whole pattern's) and no back reference, so each
    matches alone as it does inside the alternation, with the same ``lastgroup``; else None."""
    text, pieces, depth, start, i, opened = pattern.pattern, [], 0, 0, 0, -1
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 1  # (the escaped character)
        elif opened >= 0:  # in a class: a ']' first in it is itself
            opened = -1 if char == "]" and i > opened else opened
        elif char == "[":
            opened = i + 1 + (text[i + 1:i + 2] == "^")
        elif char in "()":
            depth += 1 if char == "(" else -1
        elif char == "|" and depth == 0:
            pieces.append(text[start:i])
            start = i + 1
        i += 1
    pieces.append(text[start:])
    if len(pieces) < 2 or depth or opened >= 0 or any(
            "(?P=" in piece or re.search(r"\\[1-9]", piece) for piece in pieces):
        return None
    parts = tuple(re.compile(piece, pattern.flags) for piece in pieces)
    if any(part.groups != 1 or not set(part.groupindex) <= set(pattern.groupindex)
           for part in parts):
        return None
    return parts
