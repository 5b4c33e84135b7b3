"""The shell word the call gate reads (``words.Word``), in a module of its own so that the
rules reading words (``words``, ``runsby``) import it without importing each other."""

from __future__ import annotations

from typing import NamedTuple


class Word(NamedTuple):
    """One shell word: ``value`` when it is a literal, else None (a pattern); ``vanishes`` when,
    as a pattern outside quotes, it may expand to no word at all or to several."""

    value: str | None
    vanishes: bool = False
    #: A pattern's literal text before its first expansion or glob: what every value starts
    #: with (``src/`` of ``src/*.py``; ``""``: it may start with anything, ``-`` too).
    head: str = ""

    @property
    def literal(self) -> bool:
        return self.value is not None
