"""``flowlenient.bun_may_accept`` taking a scan of an earlier text (session 49): the read-back
of a file read through the re-quote retry takes its first reading's scan where the scanner read
the same characters, and the answer is the one a scan of its own gives.

The scanner marks how far it read; these tests compare it with PyYAML's own scanner (the same
tokens, errors and flow level), and the answer with a scan taken against a fresh one on
generated pairs of texts, a text and a rewrite of it."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REAL_SKILLS

from skillgrant.plan import Plan
from skillgrant.skillfile import flowlenient
from skillgrant.skillfile.builder import apply_to_text
from skillgrant.skillfile.flowlenient import Scan, bun_may_accept
from skillgrant.skillfile.spans import read_skill
from skillgrant.skillfile.yamlspan import YamlProblem, compose

sys.path.insert(0, str(Path(__file__).parent / "oracle"))  # as tests/test_reread.py does
from frontmatter_gen import texts

_PIECES = ["a", "b", ", ", ",", ": ", ":", "? ", "[", "]", "{", "}", " ", "- ", "'q'", '"d"',
           "${V}", "@", "`", "PreToolUse: y", "#", " #c", "\n", "\n  ", "!t ", "&a ", "*a", "|",
           "\t", "\r", "%", "$", "${", "\x07", "\u2028"]
_BEFORE = ["", "argument-hint: [a] [b]\n", "description: use it: now\n",
           'd: {X} (e.g., "y")\n', "k: [a,\n  b]\n", "q: 'x\n  y'\n"]


def _flowy(rng: random.Random) -> str:
    value = rng.choice("[{") + "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 8)))
    return (f"name: p\n{rng.choice(_BEFORE)}x: {value}{rng.choice([']', '}', ''])}\n"
            f"allowed-tools: {rng.choice(['Read', '[Read]', 'Bash(a:*), Read'])}\n")


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    found = [_flowy(rng) for _ in range(count)]
    for text in texts(seed, count):
        parts = text.split("---\n")
        found.append(parts[1] if len(parts) > 2 else text)
    return found


def _rewrite(rng: random.Random, text: str) -> str:
    """``text`` with one line replaced, cut short, or a piece put in (a rewrite's shapes)."""
    lines = text.split("\n")
    at = rng.randrange(len(lines))
    kind = rng.randrange(4)
    if kind == 0:
        lines[at] = 'allowed-tools: "' + rng.choice(["Read", "Read, Grep", "a\\\\b"]) + '"'
    elif kind == 1:
        lines[at] = lines[at][:rng.randint(0, len(lines[at]))]
    elif kind == 2:
        spot = rng.randint(0, len(lines[at]))
        lines[at] = lines[at][:spot] + rng.choice(_PIECES) + lines[at][spot:]
    else:
        lines[at:at + 1] = []
    return "\n".join(lines)


def _error_at(text: str) -> int | None:
    try:
        compose(text)
    except YamlProblem as e:
        return e.index or 0
    except Exception:
        return None
    return None


def _tokens(scanner: yaml.scanner.Scanner) -> tuple[list[tuple[str, int]], object]:
    got = []
    try:
        while scanner.check_token():
            token = scanner.get_token()  # type: ignore[no-untyped-call]
            got.append((type(token).__name__, token.start_mark.index))
    except yaml.YAMLError as e:  # (its message quotes the text past the error: not compared)
        mark = getattr(e, "problem_mark", None)
        return got, (type(e).__name__, getattr(e, "problem", None),
                     None if mark is None else mark.index, scanner.flow_level)
    return got, None


@pytest.mark.parametrize("seed", [49, 149])
def test_the_marking_scanner_is_pyyamls(seed: int) -> None:
    """Its tokens, its error and its flow level there are PyYAML's own scanner's, and it
    read no character past the one it marks (the text after it changed, the same steps)."""
    for text in _texts(seed, 300):
        try:
            ours = flowlenient._Scanner(text)
        except yaml.YAMLError:
            with pytest.raises(yaml.YAMLError):
                yaml.SafeLoader(text)
            continue
        theirs = yaml.SafeLoader(text)
        assert _tokens(ours) == _tokens(theirs), text
        far = ours.farthest
        if far + 1 < len(text):  # what follows the mark changed: the same tokens up to it
            other = text[:far + 1] + ("x" if text[far + 1] != "x" else "y") + text[far + 2:]
            again = flowlenient._Scanner(other)
            assert _tokens(again) == _tokens(flowlenient._Scanner(text)), (text, far)


@pytest.mark.parametrize("seed", [49, 249])
def test_a_scan_taken_answers_as_a_scan_of_its_own(seed: int) -> None:
    rng = random.Random(seed)
    taken = 0
    for text in _texts(seed, 400):
        for _ in range(3):
            other = _rewrite(rng, text)
            wheres = {w for w in (_error_at(text), _error_at(other)) if w is not None}
            wheres |= {rng.randint(0, len(text)) for _ in range(2)}
            for where in wheres:
                scans: list[Scan] = []
                bun_may_accept(text, where, scans)
                fresh = bun_may_accept(other, where)
                hit = flowlenient._taken(scans, other, where) if scans else None
                assert bun_may_accept(other, where, scans) == fresh, (text, other, where)
                taken += hit is not None
    assert taken > 200  # (the taken branch is asked, not only the fresh one)


@pytest.mark.skipif(not REAL_SKILLS.is_dir(), reason="the real-skills corpus is not beside "
                    "the checkout (../shared)")
@pytest.mark.parametrize("prefix", ["09-", "39-"])
def test_the_read_back_of_a_retried_real_skill_takes_its_scan(
        monkeypatch: pytest.MonkeyPatch, prefix: str) -> None:
    path = next(p for p in sorted(REAL_SKILLS.glob("*.md")) if p.name.startswith(prefix))
    text = path.read_text(encoding="utf-8")
    plan = Plan.from_entries(["Read", "Glob", "Bash(git *)"])
    doc = read_skill(text)
    assert doc.retried is not None and len(doc.scans) == 1
    made: list[str] = []
    real = flowlenient._Scanner

    def counted(stream: str) -> flowlenient._Scanner:
        made.append(stream)
        return real(stream)

    monkeypatch.setattr(flowlenient, "_Scanner", counted)
    new_text, _ = apply_to_text(text, plan)
    assert len(made) == 1  # the first reading's; the read-back took it
    monkeypatch.setattr(flowlenient, "_Scanner", real)
    new = read_skill(new_text)
    assert new == read_skill(new_text, scans=doc.scans)
    assert new.allowed_tools is not None and new.retried is not None
