"""The report spool gives back exactly what it was given, in memory or spilled to disk: a lone
surrogate too (a path's byte that is not UTF-8, which standard output writes back as the byte;
review B-1)."""

from __future__ import annotations

import pytest

from skillgrant.reports.spool import Spool


@pytest.mark.parametrize("limit", [1 << 20, 10])
def test_the_spool_gives_back_what_it_was_given(limit: int) -> None:
    pieces = ["a\n", "b/\udcff.md\n", "é😀\n", "\udc80\ud800x\n", "z" * 30]
    spool = Spool(limit=limit)
    for piece in pieces:
        spool.add(piece)
    assert "".join(spool.chunks()) == "".join(pieces)
