"""Review s51-freview of s51-batchspeed's speed shortcuts in ``check``'s path (issue 27): the
reader, its read-back of a rewrite, and the decision and report steps. Each shortcut is judged
by what it stands for: Bun 1.4.5 running the runtime's own frontmatter steps
(tests/oracle/bun_reader.js) on the texts skillgrant reads and on the rewrites ``apply``
writes, and the same ``check`` without the shortcut. The texts come from this module's own
generator, aimed at retried documents (a line Bun rejects as written, re-quoted by the
runtime), which the branch's read-back is about, with ``allowed-tools`` in every form before
and after the rejected line. Holes left open are strict xfails through ``OPEN``; the report is
/work/wt/reports/s51-freview.md."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from reader_review import BUN, needs_bun
from review_table import LeftOpen

from skillgrant.errors import PlanError, SkillFileError
from skillgrant.plan import Plan
from skillgrant.skillfile import apply_to_text, read_skill

sys.path.insert(0, str(Path(__file__).resolve().parent / "oracle"))
import bun_runtime

pytestmark = pytest.mark.slow

#: Each hole's test (or case), and why it fails today (tests/conftest.py reads ``OPEN``).
OPEN = LeftOpen()

#: Lines Bun and PyYAML both reject as written, which the runtime re-quotes (its retry).
_REJECTED = (
    "description: Use it: now", "argument-hint: [file.typ] [output.pdf]",
    'description: {YOUR_DESCRIPTION} (e.g., "x")', "description: a: b: c",
    "description: Expert tool. Current spec: 2025-06-18.", "argument-hint: [a] b",
    "description: x #y: z", "description: `a`: b", "description: @at: x",
    "description: %p: q", "description: |x: y", "description: >a: b", "description: !t: x",
    "description: &a b: c", "hint: [a, b]: c", "description: 'a': b", 'description: "a": b',
    "description: x: 'y'", "description: x: [y]", "argument-hint: {a} {b}")
_ENTRIES = ("Read", "Grep", "Glob", "Bash(git *)", "Bash(gh *)", "Bash(tinymist:*)", "WebFetch",
            "Bash(${CLAUDE_PLUGIN_ROOT}/scripts/h.sh *)", "Bash(touch *)", "*", "Write",
            "Edit", "Bash(echo a: b)", "Bash(x #y)", "Bash(a, b)", "mcp__s__t", "Bash(git:*)")
_OTHER = ("version: 1", "model: sonnet", "x-y: z", "# c", "", "disallowed-tools: Write")


def _allowed(r: random.Random) -> list[str]:
    """``allowed-tools`` in one of its forms, one line or several."""
    e = r.sample(_ENTRIES, r.randint(1, 5))
    k = "allowed-tools"
    return r.choice((
        [f"{k}: " + ", ".join(e)], [f"{k}: " + " ".join(e)], [f'{k}: "' + ", ".join(e) + '"'],
        [f"{k}: '" + ", ".join(e) + "'"], [f"{k}: [" + ", ".join(e) + "]"],
        [f"{k}:"] + [r.choice(("  - ", "- ", "    - ")) + x for x in e],
        [f"{k}: {e[0]},"] + ["  " + x + "," for x in e[1:-1]] + ["  " + e[-1]],
        [f"{k}: |"] + ["  " + x for x in e], [f"{k}: >-"] + ["  " + x for x in e],
        [f"{k}: " + ", ".join(e) + " # c"], [f"{k}:", "  " + ", ".join(e)],
        [f"{k}: [" + e[0] + ","] + ["  " + x + "," for x in e[1:]] + ["]"]))


def retried_text(r: random.Random) -> str:
    """A SKILL.md whose frontmatter holds a line both parsers reject as written."""
    parts = [[r.choice(_REJECTED)] for _ in range(r.choice((1, 1, 1, 2)))] + [_allowed(r)]
    if r.random() < 0.5:
        parts.append([r.choice(_OTHER)])
    r.shuffle(parts)
    lines = (["name: " + r.choice(("x", "my-skill", "a b"))] if r.random() < 0.7 else []) + [
        line for part in parts for line in part]
    front = "\n".join(lines)
    if r.random() < 0.1:
        front = front.replace("\n", "\r\n")
    return "---\n" + front + "\n---\n" + r.choice(("body\n", "", "# T\n---\nmore\n", "x"))


def _entries(text: str) -> tuple[str, ...] | None:
    try:
        return read_skill(text).runtime_entries
    except SkillFileError:
        return None


def _rewrite(text: str, r: random.Random) -> tuple[str, tuple[str, ...]] | None:
    """``apply`` of a plan drawn from the file's own entries (as tests/oracle/differential)."""
    doc = read_skill(text)
    written = [] if doc.allowed_tools is None else list(doc.allowed_tools.entries)
    try:
        plan = Plan.from_entries([e for e in written if r.random() < 0.6])
    except PlanError:
        plan = Plan.from_entries([])
    try:
        new, decision = apply_to_text(text, plan)
    except SkillFileError:
        return None
    return new, tuple(decision.allowed)


def _disagreements(texts: list[str], seed: int) -> list[str]:
    """Where skillgrant reads (or ``apply`` keeps) other entries than the runtime's steps
    under Bun read, on ``texts`` and on their rewrites."""
    r = random.Random(seed)
    read = bun_runtime.read_batch(BUN, texts)
    failures, rewrites = [], []
    for text, theirs in zip(texts, read, strict=True):
        ours = _entries(text)
        if ours is None:
            continue
        if ours != theirs.entries and not theirs.hooks:
            failures.append(f"read {text!r}: {ours} / Bun {theirs.entries}")
            continue
        done = _rewrite(text, r)
        if done is not None:
            rewrites.append((text, *done))
    after = bun_runtime.read_batch(BUN, [new for _, new, _ in rewrites])
    for (text, new, kept), theirs in zip(rewrites, after, strict=True):
        expected = () if read_skill(new).runtime_note else ("*",) if "*" in kept else kept
        if theirs.entries != expected and not theirs.hooks:
            failures.append(f"apply {text!r} -> {new!r}: kept {kept} / Bun {theirs.entries}")
    return failures


@needs_bun
def test_retried_documents_and_their_rewrites_read_as_bun_reads_them() -> None:
    """Retried documents (held: 2,000 texts of this generator a seed, seeds 1-3, in the
    report's runs), their first reading and the rewrite's read-back, against Bun."""
    r = random.Random(51)
    texts = [retried_text(r) for _ in range(400)]
    assert _disagreements(texts, 51) == []
