"""The reader's memos (skillfile/keptlines.py: allowed-tools kept by the text of its lines;
reread's key lines read alone) are pure: a file read after another with the same
``allowed-tools`` lines, in a hostile context around them (an open quote or flow collection
before, a document marker, a duplicate key after, a BOM, a tag on the mapping...), gets the
outcome a cold read gives (its error, its new text, its message). The cold read is the one
the Bun differential judges (tests/oracle)."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

from skillgrant.cli.batch import check_text
from skillgrant.plan import Plan
from skillgrant.skillfile import keptlines, reread

sys.path.insert(0, str(Path(__file__).parent / "oracle"))  # as tests/test_reread.py does
import frontmatter_gen

PREFIXES = ["", "description: \"open\n", "description: 'open\n", "x: [a,\n", "x: {a: b,\n",
            "x: |\n", "x: >-\n", "  indented: y\n", "x:\n  y:\n", "...\n", "---\n", "x: &a b\n",
            "!!map\n", "description: a: b\n", "\ufeff", "x: \"a\u2028b\"\n", "- a\n",
            "x: !!str\n", "argument-hint: [a] [b]\n", "x: 'a''\n", "x: \"\\\n",
            "hooks:\n  PreToolUse: []\n"]
SUFFIXES = ["", "allowed-tools: Bash\n", "x: ]\n", "  tail: z\n", "...\n", "y: \"\n", "#c\n",
            "Allowed-tools: Bash\n", "z: }\n", " : y\n", "-\tBash: x\n"]
_VALUE = re.compile(r"^allowed-tools:.*(?:\n(?:[ \t-].*)?)*", re.MULTILINE)


def _outcome(text: str, plan: Plan) -> tuple[str, str | None, str | None]:
    result, message = check_text(text.encode("utf-8", "surrogatepass"), "SKILL.md", plan,
                                 dry_run=True)
    return repr(result.error), result.text, message


def test_a_read_after_the_same_lines_is_a_cold_read() -> None:
    rng = random.Random(40)
    plans = [Plan.from_entries(["Bash(git *)", "Read"]),
             Plan.from_entries(["Bash(touch *)", "Read", "Grep"])]
    cases = taken = 0
    before = keptlines._BY_LINES.copy()
    for text in frontmatter_gen.texts(40, 600):
        found = _VALUE.search(text)
        if found is None:
            continue
        lines = found.group(0).rstrip("\n") + "\n"
        hostile = (f"---\n{rng.choice(PREFIXES)}name: n\n{lines}{rng.choice(SUFFIXES)}"
                   "---\nbody\n")
        plan = rng.choice(plans)
        _outcome(f"---\nname: p\n{lines}---\nbody\n", plan)  # the same lines read before
        taken += any(key == lines.rstrip("\n") or lines.startswith(key)
                     for key in keptlines._BY_LINES)
        warm = _outcome(hostile, plan)
        keptlines._BY_LINES.clear()
        reread._lines_read.cache_clear()
        assert warm == _outcome(hostile, plan), hostile
        cases += 1
    keptlines._BY_LINES.update(before)
    assert cases > 300 and taken > cases // 2, (cases, taken)  # the memo was there to take
