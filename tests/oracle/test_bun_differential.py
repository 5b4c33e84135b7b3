"""The Bun differential (run with ``--bun``; ``--bun-cases N``, 50,000 by default): skillgrant's
reading of ``allowed-tools`` against the runtime's own frontmatter steps run by the pinned Bun,
on generated frontmatters and on what ``apply`` writes (tests/oracle/differential.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bun_runtime
import differential
from bun_fixture import bun

REAL_SKILLS = Path(os.environ.get(
    "SKILLGRANT_REAL_SKILLS",
    Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "real-skills"))

__all__ = ["bun"]  # (the pinned Bun, a fixture: tests/oracle/bun_fixture.py)



def test_skillgrant_reads_what_the_runtime_reads(bun: Path, request: pytest.FixtureRequest,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    real = [p.read_text(encoding="utf-8") for p in sorted(REAL_SKILLS.glob("*.md"))]
    assert len(real) in (0, 40)
    tally = differential.run(bun, 27, request.config.getoption("--bun-cases"), real)
    with capsys.disabled():
        print("\n" + tally.line())
    assert tally.failures == [], "\n".join(tally.failures[:20])


def test_the_oracle_reads_the_issues_examples(bun: Path) -> None:
    """The oracle itself, on the texts issue 27 measured against the runtime."""
    texts = ["---\nallowed-tools: |\n  Read\n  Bash(touch *)\n---\n",
             "---\nargument-hint: [file.typ] [output.pdf]\nallowed-tools: Bash(typst *)\n---\n",
             "---\nallowed-tools: '*'\n---\n", "no frontmatter\n"]
    got = [(r.how, r.entries) for r in bun_runtime.read_batch(bun, texts)]
    assert got == [("direct", ("Read\nBash(touch *)",)), ("retry", ("Bash(typst *)",)),
                   ("direct", ("*",)), ("none", ())]
