"""What a batch's check of a file came to, kept by the file's head (issue 27, session 59).

A file's check (its reading, the decision, the splice, the read-back, where the value and its
entries are, what ``disallowed-tools`` removes) reads its text only up to the line break that
ends its closing ``---`` line (``spans.frontmatter_head``): the body is carried along, never
read. So two files whose texts start with the same head come to the same answer, the body
aside, and the second need not be read: ``HeadMemo`` keeps each answer by the whole head (the
key is all the input the answer depends on, compared as text, not a digest), for one batch
and one plan. Files of one folder of slash commands, or copies of one skill, share their
frontmatter; a head seen once costs its keeping, no more.

What is kept is bounded (``MEMO_ENTRIES`` answers, ``MEMO_CHARS`` characters of heads): when
either is full, the heads never asked for again are let go, and when every kept head was,
nothing more is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Final, Generic, TypeVar

from .spans import FENCE_LINE, OPENING

A = TypeVar("A")

#: At most this many answers are kept a batch ...
MEMO_ENTRIES: Final = 1024
#: ... and heads of at most this many characters in all.
MEMO_CHARS: Final = 1 << 21


def frontmatter_head(text: str) -> int:
    """The length of the head of ``text`` that ``read_skill``'s reading of it is made of: up
    to and with the line break that ends its closing ``---`` line (``FENCE_LINE``, searched as
    the reader searches it); -1 when that is not known so (no frontmatter, a ``...`` close,
    whose reader also looks for ``---`` lines in the body, or a closing line that ends the
    text). Every step of the reading looks at the text only as far as the runtime's closing
    ``---``, which is that line's (or an earlier one), and at our own: two texts with the same
    head are read alike, offsets and all, and each one's body is what follows it
    (docs/decisions.md, "Issue 27, session 59").

    >>> frontmatter_head("---\\nname: x\\n---\\nBody\\n")
    16
    """
    opening = OPENING.match(text, 1 if text.startswith("\ufeff") else 0)
    if opening is None:
        return -1
    found = FENCE_LINE.search(text, opening.end() - 1)
    if found is None or found.group(1) != "---" or found.end() >= len(text):
        return -1
    return found.end() + 1


class Recalled(Generic[A]):
    """A file whose head's answer was kept: its path, its text, where its body starts, and the
    answer kept (for the file whose text it was); None for a file whose head is an earlier
    file's of its chunk, not yet known when the chunk was begun (``HeadMemo.known`` is asked
    once that file's answer is kept)."""

    __slots__ = ("answer", "body_start", "path", "text")

    def __init__(self, path: object, text: str, body_start: int, answer: A | None) -> None:
        self.path = path
        self.text = text
        self.body_start = body_start
        self.answer = answer


class HeadMemo(Generic[A]):
    """Answers kept by the head of the text they are of (module docstring). ``recall`` is a
    ``staged.each`` step over ``(path, text)`` values, a chunk of them after ``begin``."""

    def __init__(self, entries: int = MEMO_ENTRIES, chars: int = MEMO_CHARS) -> None:
        self._known: dict[str, list[object]] = {}  # head: [answer, asked again]
        self._entries = entries
        self._chars = chars
        self._held = 0  # the characters of the heads kept
        self._full = False  # every head kept was asked again, and there is no room
        self._chunk: set[str] = set()  # the heads of the chunk's files not known

    def begin(self) -> None:
        """A new chunk of files starts: its files' heads are asked by ``recall``."""
        self._chunk.clear()

    def recall(self, value: tuple[object, str]) -> tuple[object, str] | Recalled[A]:
        """``value`` (a path and its text) as Recalled when an answer is kept for its head, or
        its head is an earlier file's of the chunk (the answer None), else as it is."""
        text = value[1]
        end = frontmatter_head(text)
        if end < 0:
            return value
        head = text[:end]
        known = self._known.get(head)
        if known is not None:
            known[1] = True
            return Recalled(value[0], text, end, known[0])  # type: ignore[arg-type]
        if head in self._chunk:
            return Recalled(value[0], text, end, None)
        self._chunk.add(head)
        return value

    def known(self, file: Recalled[A]) -> A | None:
        """The answer kept for ``file``'s head now (None: none)."""
        known = self._known.get(file.text[:file.body_start])
        if known is None:
            return None
        known[1] = True
        return known[0]  # type: ignore[return-value]

    def keep(self, text: str, body_start: int, answer: A) -> None:
        """Keep ``answer``, worked out from ``text`` read whole, whose body starts at
        ``body_start``: only where that is its head's end (``frontmatter_head``)."""
        if self._full or body_start != frontmatter_head(text):
            return
        if len(self._known) >= self._entries or self._held + body_start > self._chars:
            self._known = {head: known for head, known in self._known.items() if known[1]}
            self._held = sum(map(len, self._known))
            if len(self._known) >= self._entries or self._held + body_start > self._chars:
                self._full = len(self._known) >= self._entries or body_start <= self._chars
                return
        head = text[:body_start]
        if head not in self._known:
            self._known[head] = [answer, False]
            self._held += body_start


class ValueMemo(Generic[A]):
    """Answers kept by the whole input they are a function of (``key``, its size in
    characters ``size``), for one batch: the decision of a submitted ``allowed-tools`` value
    under the batch's plan (``builder._decide``). Bounded as ``HeadMemo`` is; once full,
    nothing more is kept (an answer not kept is worked out again)."""

    def __init__(self, entries: int = MEMO_ENTRIES, chars: int = MEMO_CHARS) -> None:
        self._known: dict[Hashable, A] = {}
        self._room = chars
        self._entries = entries

    def get(self, key: Hashable, size: int, make: Callable[[], A]) -> A:
        """The answer kept for ``key``, else ``make()``'s, kept when there is room."""
        known = self._known.get(key, self)
        if known is not self:
            return known  # type: ignore[return-value]
        answer = make()
        if len(self._known) < self._entries and size <= self._room:
            self._known[key] = answer
            self._room -= size
        return answer
