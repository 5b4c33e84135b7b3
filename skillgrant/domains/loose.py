"""Reading a pattern loosely (semantics §4.1, §4.6): the runtime reads a backslash in a command
or generic pattern twice and collapses runs of spaces, so such a pattern is decided by identity
only. Its loose readings (``loose_globs``) hold every text it might allow, however the runtime
reads it; they never cover anything, they only stop a witness that might be allowed
(``loose_doubt``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ..grants import JS_WHITESPACE, Grant
from ..lazy import compile_on_use
from .base import Budget, Fold, Glob, Outcome
from .cover import first_match

# semantics §4.1, §4.6: why a command or generic pattern with a backslash is decided by identity.
BACKSLASH_REASON = (
    "its content holds a backslash, and the runtime unescapes backslashes twice (once when it "
    "reads the rule, again when it matches it), so such a pattern is covered only by an "
    "identical approved entry or a tool-wide grant"
)


def has_backslash(content: str | None) -> bool:
    """Whether a command or generic pattern is decided by identity only (``BACKSLASH_REASON``)."""
    return content is not None and "\\" in content


def loose_doubt(
    witness: str,
    shown: str,
    approved: Sequence[Grant],
    loose: Sequence[tuple[int, Sequence[Glob]]],
    budget: Budget,
    fold: Fold | None = None,
) -> Outcome | None:
    """``unknown`` when an approved pattern decided by identity, read loosely (``loose``,
    indexes into ``approved``), might allow the would-be ``witness`` (written ``shown``), else
    None: a witness is reported only when it is certain."""
    index = first_match(witness, loose, budget, fold)
    if index is None:
        return None
    grant = approved[index]
    why = ("content holds a backslash, which the runtime unescapes twice"
           if has_backslash(grant.content) else
           "content holds a run of spaces, which the runtime collapses")
    return Outcome("unknown", f"not covered as written, but no certain witness: the approved "
                   f"{grant} might allow {shown!r} (its {why})")


_LOOSE_SPLIT = compile_on_use(r"[\\*]+")
_EDGE = JS_WHITESPACE + "\\"
# The legacy prefix form and the lone trailing `␠*`, with any backslashes before the star.
_PREFIX_FORM = compile_on_use(r"(.*):\\*\*", re.DOTALL)
_TRAILING_FORM = compile_on_use(r"(.*) \\*\*", re.DOTALL)


@lru_cache(maxsize=4096)
def loose_globs(content: str, opaque: tuple[str, ...] = ()) -> tuple[Glob, ...]:
    """Globs whose union holds every text a pattern with backslashes may allow, however the
    runtime reads its escapes. Each backslash and each star becomes a star (a backslash may be
    kept or dropped, a star may be literal or a wildcard; nothing else changes), and the
    readings the runtime gives a content are all added: untrimmed and trimmed, the ``P:*``
    prefix form (``P`` and ``P␠*``) and the bare prefix of a trailing ``␠*``. Each ``opaque``
    text (a placeholder the runtime expands) becomes a star too. Used only to judge whether a
    witness might be allowed, never to cover."""
    for text in opaque:
        content = content.replace(text, "*")
    readings = {content, _trimmed(content)}
    for text in list(readings):
        if prefix := _PREFIX_FORM.fullmatch(text):
            readings.update((prefix[1], prefix[1] + " *"))
        if trailing := _TRAILING_FORM.fullmatch(text):
            readings.add(trailing[1])
    return tuple(Glob(tuple(_LOOSE_SPLIT.split(text))) for text in sorted(readings))


def _trimmed(text: str) -> str:
    """``text`` trimmed as any reading of its backslashes may trim it: the blanks and
    backslashes at either end go, and a star stands in for any backslash that went."""
    inner = text.strip(_EDGE)
    left = "*" if "\\" in text[:len(text) - len(text.lstrip(_EDGE))] else ""
    right = "*" if "\\" in text[len(text.rstrip(_EDGE)):] else ""
    return left + inner + right
