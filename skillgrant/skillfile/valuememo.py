"""A batch's decisions kept by the value submitted (issue 27, session 59).

``constrain`` is a function of the submitted ``allowed-tools`` value and the plan (it logs a
drop for its file only where a log record is heard, and a batch goes by chunks only where
none is): files of one batch that submit the same value under the batch's plan take the one
decision. The key is the whole value (a string, or a list's strings as a tuple: the two
never compare equal), the input the decision is a function of; what is kept is bounded.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Final, Generic, TypeVar

A = TypeVar("A")

#: At most this many answers are kept a batch ...
MEMO_ENTRIES: Final = 1024
#: ... and keys of at most this many characters in all.
MEMO_CHARS: Final = 1 << 21


class ValueMemo(Generic[A]):
    """Answers kept by the whole input they are a function of (``key``, its size in
    characters ``size``), for one batch: the decision of a submitted ``allowed-tools`` value
    under the batch's plan (``builder._decide``). Once ``MEMO_ENTRIES`` answers or
    ``MEMO_CHARS`` characters of keys are kept, nothing more is (an answer not kept is worked
    out again)."""

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
