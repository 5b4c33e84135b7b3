"""What a skill's ``disallowed-tools`` removes (``skillfile.removed``, shown by ``check`` as
SG011) against the runtime's own ``EHe`` run by the pinned Bun (``bun_reader.js``), run with
``--bun``: the differential's generated frontmatters with their ``allowed-tools`` key renamed
``disallowed-tools`` or ``disallowedTools`` (both, sometimes, the first null), and the hand
cases of Bun's scalar types, on every text skillgrant reads; with the reader's document
(``check``'s way) and without it (the plan loader's), the same."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bun_runtime
import frontmatter_gen
from bun_fixture import bun

from skillgrant.errors import SkillFileError
from skillgrant.skillfile import read_skill
from skillgrant.skillfile.removed import removed_tools

__all__ = ["bun"]

HAND = ["yes", "no", "~", "null", "Null", "", "''", "2001-01-01", "0x1F", "1_000", "True",
        "tRue", "12", "-.5", ".inf", "0o7", "[yes, 3, '3', true, ~, 1e3, \"x y\"]", "{a: b}",
        "|\n  Read\n  Edit", '"*"', "Read *", "Bash(git push *), WebFetch", "[Edit, [x]]",
        "'Bash(a b)' Read"]


def _renamed(text: str, rng: random.Random) -> str:
    choice = rng.randrange(4)
    if choice == 0:
        return text.replace("allowed-tools", "disallowed-tools")
    if choice == 1:
        return text.replace("allowed-tools", "disallowedTools")
    first = "disallowed-tools: ~\n" if choice == 2 else "disallowed-tools: [Edit]\n"
    return text.replace("allowed-tools", "disallowedTools").replace(
        "---\n", "---\n" + first, 1)


def _texts(count: int) -> list[str]:
    rng = random.Random(47)
    texts = [f"---\nname: x\ndisallowed-tools: {v}\nallowed-tools: Read\n---\nbody\n"
             for v in HAND]
    texts += [f"---\nname: x\ndisallowed-tools: null\ndisallowedTools: {v}\n---\n"
              for v in HAND]
    texts += [_renamed(t, rng) for t in frontmatter_gen.texts(47, count)]
    return texts


def test_check_shows_what_the_runtime_removes(bun: Path) -> None:
    texts = _texts(6_000)
    readings = bun_runtime.read_batch(bun, texts)
    read = removing = 0
    failures = []
    for text, theirs in zip(texts, readings, strict=True):
        try:
            doc = read_skill(text)
        except SkillFileError:
            continue
        read += 1
        got = removed_tools(text, doc)  # (the reader's span and nodes taken, as check does)
        if got != removed_tools(text):
            failures.append(f"{text!r}: {got!r} with the reader's document, else "
                            f"{removed_tools(text)!r}")
        ours = () if got is None else got.entries
        removing += bool(ours)
        if ours != theirs.removed:
            failures.append(f"{text!r}: skillgrant {list(ours)!r}, Claude Code "
                            f"{list(theirs.removed)!r} ({theirs.how})")
    assert failures == [], "\n".join(failures[:20])
    assert read > 1_000 and removing > 500, (read, removing)
