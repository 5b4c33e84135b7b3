"""The Bun differential of the SKILL.md reader: skillgrant's reading of ``allowed-tools`` (the
entries Claude Code grants, or a refusal) against the runtime's own steps run by Bun
(``bun_reader.js``), on generated frontmatters (``frontmatter_gen``), and the runtime's reading
of what ``apply`` writes against the entries ``apply`` kept.

A case fails when skillgrant did not refuse and the two readings differ (an entry the runtime
reads that skillgrant does not, or the other way). ``python tests/oracle/differential.py
--cases N --seed S`` prints the counts and exits 1 on any failure (the CI step)."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bun_runtime
import frontmatter_gen

from skillgrant.errors import PlanError, SkillFileError
from skillgrant.plan import Plan
from skillgrant.skillfile import apply_to_text, read_skill

BATCH = 10_000


@dataclass
class Tally:
    cases: int = 0
    refused: int = 0
    read: int = 0
    retry: int = 0
    rewrites: int = 0
    rewrites_refused: int = 0
    failures: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"Bun differential: {self.cases} frontmatters ({self.read} read, "
                f"{self.refused} refused; the runtime took its retry on {self.retry}), "
                f"{self.rewrites} rewrites ({self.rewrites_refused} refused), "
                f"{len(self.failures)} disagreements")


def ours(text: str) -> tuple[str, ...] | None:
    """skillgrant's reading: the entries Claude Code grants, or None for a refusal."""
    try:
        return read_skill(text).runtime_entries
    except SkillFileError:
        return None


def _rewrite(text: str, rng: random.Random) -> tuple[str, tuple[str, ...]] | None:
    """``apply`` of a plan drawn from the file's own entries: the new text and what it kept,
    or None when ``apply`` refused (or no plan could be made)."""
    try:
        doc = read_skill(text)
    except SkillFileError:
        return None
    written = [] if doc.allowed_tools is None else list(doc.allowed_tools.entries)
    chosen = [e for e in written if rng.random() < 0.6]
    try:
        plan = Plan.from_entries(chosen)
    except PlanError:
        plan = Plan.from_entries([])
    try:
        new_text, decision = apply_to_text(text, plan)
    except SkillFileError:
        return None
    return new_text, tuple(decision.allowed)


def run(binary: Path, seed: int, count: int, texts: Sequence[str] = ()) -> Tally:
    """Read ``count`` generated texts (and ``texts``) both ways, then the rewrites."""
    tally = Tally()
    rng = random.Random(seed ^ 0x27)
    generated = frontmatter_gen.texts(seed, count)
    pending = list(texts)
    while True:
        batch = pending + [t for _, t in zip(range(BATCH - len(pending)), generated, strict=False)]
        pending = []
        if not batch:
            break
        _compare(binary, batch, rng, tally)
    return tally


def _compare(binary: Path, batch: list[str], rng: random.Random, tally: Tally) -> None:
    readings = bun_runtime.read_batch(binary, batch)
    rewrites: list[tuple[str, str, tuple[str, ...]]] = []
    for text, theirs in zip(batch, readings, strict=True):
        tally.cases += 1
        tally.retry += theirs.how == "retry"
        got = ours(text)
        if got is None:
            tally.refused += 1
            continue
        tally.read += 1
        if got != theirs.entries and not theirs.hooks:
            tally.failures.append(f"read {text!r}: skillgrant {list(got)!r}, Claude Code "
                                  f"{list(theirs.entries)!r} ({theirs.how})")
            continue
        done = _rewrite(text, rng)
        if done is None:
            tally.rewrites_refused += 1
        else:
            rewrites.append((text, *done))
    if not rewrites:
        return
    after = bun_runtime.read_batch(binary, [new for _, new, _ in rewrites])
    for (text, new, kept), theirs in zip(rewrites, after, strict=True):
        tally.rewrites += 1
        # Where Claude Code never reads the key (skillgrant says so: checked on the first
        # text above), it reads nothing; any '*' is every tool.
        expected = () if read_skill(new).runtime_note else ("*",) if "*" in kept else kept
        if theirs.entries != expected:
            tally.failures.append(f"apply {text!r} -> {new!r}: kept {list(kept)!r}, Claude "
                                  f"Code reads {list(theirs.entries)!r} ({theirs.how})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--show", type=int, default=20, help="disagreements printed")
    args = parser.parse_args()
    tally = run(bun_runtime.install(), args.seed, args.cases)
    for failure in tally.failures[:args.show]:
        print(failure)
    print(tally.line())
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
