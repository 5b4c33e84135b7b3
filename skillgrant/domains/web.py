"""``WebFetch`` (semantics §4.3): hosts, as label sequences.

``WebFetch(domain:HOST)`` allows fetching from one host pattern. Hosts compare ASCII
case-insensitively with one trailing ``.`` stripped. A pattern is a sequence of labels (see
``pathlang``, with ``.`` as the separator):

=======================  ==================================================================
pattern                  hosts
=======================  ==================================================================
``domain:example.com``   ``example.com`` only
``domain:*.example.com`` subdomains at any depth (``a.example.com``, ``a.b.example.com``),
                         not ``example.com``: a leading ``*.`` is one label or more
``domain:example.*``     any other ``*`` stays within one label: ``example.org``, not
                         ``example.evil.com``
``domain:*``, bare       every host
=======================  ==================================================================

Any other specifier (a URL, a non-ASCII host, a port) is outside the fragment: covered only by
an identical approved entry, otherwise ``unknown``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ..grants import Grant
from ..records import NamedTuple
from .base import (
    Budget,
    Context,
    Outcome,
    OutrightSide,
    Undecided,
    covered_or_compiled,
    outright_side,
    same_tool,
)
from .pathlang import (
    ANY_PART,
    ANY_PARTS,
    FirstMatch,
    Items,
    Parts,
    cover,
    generic_filler,
    matches,
    part_glob,
    scan,
)

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

PREFIX: Final = "domain:"
# One label or more: the meaning of a leading ``*.``.
_SUBDOMAINS: Final[Items] = (ANY_PART, ANY_PARTS)
#: The top: every host, what a bare ``WebFetch`` and ``domain:*`` name.
EVERY_HOST: Final[Items] = _SUBDOMAINS
_HOST = re.compile(r"[a-z0-9_*.-]+")
# Tried first as witnesses: a stranger's host reads better than a generic instance.
_READABLE_LABEL: Final = "evil"
_TELLING: Final = (("evil", "example", "com"), ("attacker", "example", "net"))
# Uncovered shapes looked at for the shortest readable witness, and how many instances the
# search may look at beyond the first uncovered one to find them.
_SHAPES: Final = 4
_LOOKAHEAD: Final = 32

# Only WebFetch grants cover WebFetch grants.
relevant = same_tool


@lru_cache(maxsize=4096)
def compile_host(content: str | None) -> Items | Undecided:
    """The label pattern of a ``WebFetch`` specifier; None (the bare grant) and ``domain:*``
    are ``EVERY_HOST``.

    >>> compile_host("domain:*.Example.com.") == compile_host("domain:*.example.com")
    True
    """
    if content is None:
        return EVERY_HOST
    if not content.startswith(PREFIX):
        return Undecided("only 'domain:HOST' specifiers are decided")
    host = content[len(PREFIX):]
    if not host.isascii():
        return Undecided("a non-ASCII host may be compared in its punycode form")
    host = host.lower().removesuffix(".")
    if host and host == "*" * len(host):
        return EVERY_HOST
    if not _HOST.fullmatch(host):
        return Undecided("a host pattern holds only letters, digits, '-', '_', '.' and '*'")
    labels = host.split(".")
    if "" in labels:
        return Undecided("the host has an empty label")
    if any("**" in label for label in labels):
        return Undecided("'**' has no meaning in a host")
    items: Items = tuple(part_glob(label) for label in labels)
    if labels[0] == "*":
        items = (*_SUBDOMAINS, *items[1:])
    return items


def decide(submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
    """Decide a ``WebFetch`` grant against the approved ``WebFetch`` grants."""
    pattern = covered_or_compiled(submitted, approved, compile_host, every="every fetch",
                                  same="the same specifier is approved", specifier="specifier")
    if isinstance(pattern, Outcome):
        return pattern
    compiled = [compile_host(a.content) for a in approved]
    usable = [(i, c) for i, c in enumerate(compiled) if not isinstance(c, Undecided)]
    found = cover(pattern, usable, context.budget)
    if found is not None:
        together = " (several of them together)" if found[1] else ""
        return Outcome("covered", f"every host it allows is allowed by an approved "
                       f"grant{together}", covered_by=found[0], also=found[1])
    outside = next((a for a, c in zip(approved, compiled, strict=True)
                    if isinstance(c, Undecided)), None)
    if outside is not None:
        return Outcome("unknown", f"not covered by the decided grants, and the approved "
                       f"{outside} is outside the decided fragment")
    return _refute(pattern, usable, context.budget)


def _refute(pattern: Items, usable: Sequence[tuple[int, Items]], budget: Budget) -> Outcome:
    """``not_covered`` with the most readable host the pattern allows and no approved one."""
    uncovered = _uncovered(pattern, usable, budget)
    every = pattern is EVERY_HOST
    filler = generic_filler(usable, budget)
    readable = sorted((tuple(_READABLE_LABEL if label == filler else label for label in parts)
                       for parts in uncovered), key=len)
    for parts in (*(_TELLING if every else ()), *readable, *uncovered):
        if parts in uncovered or (matches(pattern, parts, budget) and not any(
            matches(items, parts, budget) for _, items in usable
        )):
            host = ".".join(parts)
            if every:
                return Outcome("not_covered", f"it allows every host, and no approved grant "
                               f"allows {host!r}", witness=host)
            return Outcome("not_covered", f"no approved grant allows {host!r}", witness=host)
    # cover() saw an uncovered instance, and scan() is deterministic: this is not reached.
    return Outcome("unknown", "no host it allows was shown to be outside the approved ones")


def _uncovered(pattern: Items, usable: Sequence[tuple[int, Items]], budget: Budget) -> list[Parts]:
    """A few uncovered shapes, to pick the most readable; never scanning far past the first."""
    uncovered: list[Parts] = []
    for seen, (parts, matched) in enumerate(scan(pattern, usable, budget)):
        if matched is None:
            uncovered.append(parts)
        if len(uncovered) == _SHAPES or (uncovered and seen >= _LOOKAHEAD):
            break
    return uncovered


class MemberSide(NamedTuple):
    """Approved ``WebFetch`` grants compiled for concrete hosts (``member``)."""

    outright: OutrightSide
    usable: FirstMatch


def member_side(approved: Sequence[Grant]) -> MemberSide:
    """The ``MemberSide`` of the approved grants, in order."""
    compiled = [(i, compile_host(a.content)) for i, a in enumerate(approved)]
    return MemberSide(outright_side(approved), FirstMatch(
        ((i, c) for i, c in compiled if not isinstance(c, Undecided)), "."))


def member(side: MemberSide, host: str) -> int | None:
    """The index of the approved grant that covers fetching from the concrete ``host`` (lower
    case, no trailing dot, labels of letters, digits and inner ``-``), as ``decide`` names it
    for ``domain:host``: the first tool-wide or identical grant, else the first matching."""
    found = side.outright.get(PREFIX + host)
    if found is not None:
        return found
    return side.usable.first("." + host)
