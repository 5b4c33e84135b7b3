"""``pathnames.absolute`` is ``os.path.abspath``: on every path built from parts that make
``normpath`` work (empty, ``.``, ``..``, names starting or ending with dots), with one to
three leading slashes or none, with a trailing one or not."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

from skillgrant.pathnames import absolute

PARTS = ("", ".", "..", "a", ".b", "b.", "..c", "...", "x y", "é")


def test_absolute_is_abspath() -> None:
    for k in range(1, 4):
        for combo in itertools.product(PARTS, repeat=k):
            for lead in ("", "/", "//", "///"):
                for trail in ("", "/"):
                    path = lead + "/".join(combo) + trail
                    if path:
                        assert absolute(path) == os.path.abspath(path), path


def test_a_path_object_and_its_text_alike(tmp_path: Path) -> None:
    for path in (tmp_path / "SKILL.md", tmp_path / ".claude" / "x", Path("rel/a.md")):
        assert absolute(path) == absolute(str(path)) == os.path.abspath(path)
