"""The answers: a ``Verdict`` on one submitted entry, a ``Decision`` on a whole value (semantics
§10).

A failed proof is a value, never an exception: every verdict carries its evidence, the approved
entry that covers it or a witness the entry allows and no approved entry does, or the reason it
could not be decided.
"""

from __future__ import annotations

from .records import NamedTuple

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Literal
    VerdictStatus = Literal["covered", "not_covered", "unknown", "invalid", "inert", "ambiguous"]


class Verdict(NamedTuple):
    """The decision on one submitted entry, with its evidence.

    ``covered_by`` is the approved entry that covers it (``also_covered_by`` any others a union
    needed); ``witness`` a concrete invocation argument the entry allows and no approved entry
    does; ``written`` the spelling the entry is written with when kept. ``duplicate`` marks a
    covered entry that repeats one kept before it in the same value: it is written once.
    """

    entry: str
    status: VerdictStatus
    reason: str
    covered_by: str | None = None
    witness: str | None = None
    written: str | None = None
    also_covered_by: tuple[str, ...] = ()
    duplicate: bool = False

    @property
    def covered(self) -> bool:
        return self.status == "covered"


class Decision(NamedTuple):
    """The outcome of ``constrain``: what ``allowed-tools`` becomes, and why.

    ``verdicts`` holds one verdict per submitted entry, in order; ``kept`` the covered ones that
    are written (``duplicate`` is False), ``dropped`` the rest but duplicates.
    """

    allowed: list[str]
    kept: list[Verdict]
    dropped: list[Verdict]
    restored: bool
    verdicts: list[Verdict]
