"""A node's properties (``&a``, ``!!str``) on their own line, then blank or comment lines,
then its content (s47-freview F2/S5; s47-ffix), run with ``--bun``: skillgrant's reading of
``allowed-tools`` (a canary whose comment the runtime's retry would read as entries) against
the runtime's steps under Bun, on generated placements. Before the fix: 386 of 1,988 read
texts apart (a comment line at column 0, a line of spaces before a block scalar's indicator)
and 136 the other way (an indicator at column 0 after the properties)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bun_runtime
from bun_fixture import bun

__all__ = ["bun"]

PROPERTIES = ["&a", "!!str", "&a !!str", "!!str &a", "&a # c", "!!seq", "!!map", "&b"]
SEPARATIONS = ["# c", " # c", "   # c", "", "  ", "\t# c", "#c", "# c\n# d", "\n# c"]
CONTENTS = ['"y"', "'y'", "y", "[a, b]", "{a: b}", "|\n   z", ">\n   z", "- a\n  - b", "a: b",
            "[a,\n  b]", '"y\n  z"']
CANARY = "allowed-tools: Read # Bash(touch *)"


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        lines = (f"y:\n{' ' * rng.randint(0, 3)}{rng.choice(PROPERTIES)}\n"
                 f"{rng.choice(SEPARATIONS)}\n{' ' * rng.randint(0, 3)}{rng.choice(CONTENTS)}")
        lines = f"{lines}\n{CANARY}" if rng.random() < 0.5 else f"{CANARY}\n{lines}"
        out.append(f"---\nname: p\n{lines}\n---\nbody\n")
    return out


def test_properties_on_their_own_line_are_read_as_bun_reads_them(bun: Path) -> None:
    texts = _texts(3, 6_000)
    read, failures = bun_runtime.readings_apart(bun, texts, hooks_excuse=True)
    assert failures == [], f"{len(failures)} of {read}:\n" + "\n".join(failures[:20])
    assert read > 1_500, read
