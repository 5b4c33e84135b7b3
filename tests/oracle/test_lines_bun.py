"""Lines PyYAML and Bun end or begin apart (review s48-freview H5-H9; s48-ffix), run with
``--bun``: skillgrant's reading of ``allowed-tools`` (a canary whose comment the runtime's
retry would read as entries) against the runtime's steps under Bun, on generated texts.

A flow collection's continuation lines: what starts one (spaces, tabs; a closing bracket, a
comma, a comment, an item) after what item (plain, quoted, a nested collection, with
properties; a single pair without braces), ended by LF, CRLF or a lone CR, at the top level or
under a key. At ba486f9: 63 of 1,184 read texts apart (seed 2, 8,000): a tab before ``]``/``,``
taken for Bun's rejection, a ``,`` line after a nested collection taken for Bun's reading.

A block scalar's header after properties (on their line or the next), its indicators, a glued
comment, ended by LF, CRLF or a lone CR, then its lines: at ba486f9 558 of 4,211 read apart
(seed 2, 8,000).

A block list item's properties, then its content on a later line at, before or past the dash's
column (H11): at ba486f9 479 of 4,029 read apart (seed 2, 8,000)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bun_runtime
from bun_fixture import bun

__all__ = ["bun"]

ITEMS = ["a", "'q'", '"d"', "[x]", "{k: v}", "&a [x]", "!!str b", "[]", "{}", "&b c", "p: [x]",
         "p: v"]
LEADS = ["", " ", "  ", "   ", "\t", " \t", "\t ", "\t\t", "  \t"]
FIRSTS = ["]", "}", ",b", ", b", "#c", "b", "[y]", "'z'", ",[y]", ",{m: n}"]
BREAKS = ["\n", "\r\n", "\r"]
CANARY = "allowed-tools: Read # Bash(touch *)"


def _value(rng: random.Random) -> str:
    opener = rng.choice("[{")
    closer = "]" if opener == "[" else "}"
    parts = [opener]
    for index in range(rng.randint(1, 3)):
        item = rng.choice(ITEMS)
        parts.append(f"k{index}: {item}" if opener == "{" and rng.random() < 0.8 else item)
        if rng.random() < 0.5:
            parts.append(",")
        if rng.random() < 0.6:
            first = rng.choice(FIRSTS)
            first = first.replace("]", closer) if rng.random() < 0.5 else first
            parts.append(rng.choice(BREAKS) + rng.choice(LEADS) + first)
    parts.append(closer)
    return "".join(parts)


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        value = _value(rng)
        body = f"y:\n  x: {value}\n" if rng.random() < 0.4 else f"x: {value}\n"
        out.append(f"---\nname: p\ndescription: d\n{body}{CANARY}\n---\nb\n")
    return out


def test_flow_continuation_lines_are_read_as_bun_reads_them(bun: Path) -> None:
    texts = _texts(2, 8_000)
    read, failures = bun_runtime.readings_apart(bun, texts)
    assert failures == [], f"{len(failures)} of {read}:\n" + "\n".join(failures[:20])
    assert read > 1_000, read


PROPERTIES = ["", "&a ", "!!str ", "&a\n  ", "!!str\n  ", "&a # c\n  ", "&a\r  ", "!!str\r\n  "]
HEADERS = ["|", ">", "|-", ">+", "|2", ">1-", "| -", "|#", "| #c", ">-#", "|\t#c", "> 2"]
LINES = ["  a", "   ", "    ", "  b", "", "\t", "  # c", "   c", " d"]


def _block_texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        body = f"x: {rng.choice(PROPERTIES)}{rng.choice(HEADERS)}{rng.choice(BREAKS)}"
        for _ in range(rng.randint(0, 3)):
            body += rng.choice(LINES) + rng.choice(BREAKS)
        lines = f"{body}{CANARY}\n" if rng.random() < 0.6 else f"{CANARY}\n{body}"
        out.append(f"---\nname: p\ndescription: d\n{lines}---\nb\n")
    return out


def test_block_scalar_headers_are_read_as_bun_reads_them(bun: Path) -> None:
    texts = _block_texts(2, 8_000)
    read, failures = bun_runtime.readings_apart(bun, texts)
    assert failures == [], f"{len(failures)} of {read}:\n" + "\n".join(failures[:20])
    assert read > 3_000, read


ITEM_PROPERTIES = ["", "&a", "!!str", "&a !!str", "&a # c", "!!str # c"]
ITEM_BREAKS = ["\n", "\r\n", "\r", "\n# c\n", "\n\n"]
ITEM_CONTENTS = ["z", '"z"', "'z'", "[z]", "{k: v}", "|\n{i}  z", ">+\n{i}  z", "k: v", "- z",
                 "k:\n{i}  v", ""]


def _item(rng: random.Random, base: int) -> str:
    dash = " " * base
    properties = rng.choice(ITEM_PROPERTIES)
    indent = " " * (base + rng.choice([0, 0, 1, 2, 3]))
    content = rng.choice(ITEM_CONTENTS).replace("{i}", indent)
    if properties and rng.random() < 0.7:
        return f"{dash}- {properties}{rng.choice(ITEM_BREAKS)}{indent}{content}"
    return f"{dash}-{rng.choice([' ', chr(10) + indent])}{content}"


def _list_texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        base = rng.choice([0, 2])
        body = "\n".join(["x:", *(_item(rng, base) for _ in range(rng.randint(1, 2)))])
        lines = f"{body}\n{CANARY}" if rng.random() < 0.6 else f"{CANARY}\n{body}"
        out.append(f"---\nname: p\n{lines}\n---\nb\n")
    return out


def test_list_items_under_their_properties_are_read_as_bun_reads_them(bun: Path) -> None:
    texts = _list_texts(2, 8_000)
    read, failures = bun_runtime.readings_apart(bun, texts)
    assert failures == [], f"{len(failures)} of {read}:\n" + "\n".join(failures[:20])
    assert read > 3_000, read
