"""The rules among the names a plan guards at any depth (``Guarded.walked``, session 53):
beside plain names (``Makefile``, ``node_modules``: a part of any path written), a rule
``DIR/*END`` guards a file ending in ``END`` below a folder ``DIR`` at any depth (``lib/*.pm``:
perl loads those from a ``lib``, not ``lib/y.c``), and ``*END`` every file ending in ``END``
(``*.mk``). ``deepnames`` makes them; ``named.Index``, ``composed`` read them."""

from __future__ import annotations

import functools

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Iterable

#: What marks a rule among the names (no plain name a plan's program reads holds it).
BELOW = "*"


def rules(walked: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """The rules of ``walked`` (folded names), each its folder (``""``: any) and ending."""
    return tuple((d, end[1:]) for w in walked if BELOW in w
                 for d, _, end in [w.rpartition("/")])


def under(key: str, walked: frozenset[str], kept: bool = False) -> bool:
    """Whether the folded path ``key`` holds a name of ``walked`` (folded) as a part, or is
    a file one of its rules guards; never where the call only removes or formats what it
    names (``kept``: ``testfiles.KEPT_TESTS``, s50-greview3 K1: no start file is written,
    and what a program reads in its stead is guarded by the same names)."""
    if kept:
        return False
    parts = key.split("/")
    return not walked.isdisjoint(parts) or holds(parts, _kept_rules(walked))


@functools.lru_cache(maxsize=4)
def _kept_rules(walked: frozenset[str]) -> tuple[tuple[str, str], ...]:
    """``rules`` of one set, made once (a set's hash is kept by the set)."""
    return rules(walked)


def holds(parts: list[str], found: tuple[tuple[str, str], ...]) -> bool:
    """Whether the path of the folded ``parts`` is a file one of the rules ``found`` guards."""
    last = parts[-1] if parts else ""
    return any(last.endswith(end) and len(last) > len(end) and (not d or d in parts[:-1])
               for d, end in found)


def may_end(head: list[str], name: str, found: tuple[tuple[str, str], ...],
            longer: bool) -> bool:
    """Whether a name ``name`` in the folder of the folded parts ``head`` may be one the rules
    ``found`` guard once text is added after it (``longer``) or taken from its end."""
    return any((not d or d in head) and (longer or end in name) for d, end in found)
