"""Review s50-freview of s50-batchspeed's three reader shortcuts (issue 27's speed):
yamlapart's anchor/alias needs asked of the character before the name (2c2fe44), and
``runtime.bun_rejects`` passing the flat lane's nodes at once and a block list's item without
properties past its dashes by its mark (ec010d5). Each shortcut is tested here against what it
stands for (propwalk's walk, the unshortened ``bun_rejects`` walk) on texts of a generator of
this module's own (no grammar of the lane's), and the reader against the runtime's own steps
under Bun 1.4.5 (tests/oracle/bun_reader.js) on the same texts and on hand-built ones.
Holes left open would be strict xfails through ``OPEN``; none was found (the report:
/work/wt/reports/s50-freview-report.md, 64,000 generated texts branch = main = Bun)."""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from reader_review import BUN, needs_bun
from review_table import LeftOpen
from yaml.nodes import MappingNode, Node, SequenceNode

from skillgrant.errors import SkillFileError
from skillgrant.skillfile import read_skill, runtime
from skillgrant.skillfile.blockcolumn import block_column
from skillgrant.skillfile.flatyaml import LOADER, compose_flat
from skillgrant.skillfile.propwalk import cut_anchor
from skillgrant.skillfile.runtime import bun_rejects
from skillgrant.skillfile.tagged import content_start

#: Each hole's test (or case), and why it fails today (tests/conftest.py reads ``OPEN``).
OPEN = LeftOpen()

_TOOLS = ("Read", "Grep", "Bash(git *)", "Write", "Bash(rm:*)", "*", "Edit", "WebFetch")
_BREAKS = ("\n",) * 8 + ("\r\n", "\r", "\u2028", "\x85", "\u2029")
_AFTER_NAME = ("", ":", "?", "%", "@", "`", ",", "]", "}", " ", "\t")
_BEFORE = ("", " ", "\t", "*", "&", "x", "\\", '"', "'", "-", ":", "[", "{", ",", "\ufeff",
           "\u2028", "\x85", "\u2029", "\r", "!a ", "!", "- ", "? ", ": ")
_PAD = ("", " ", "  ", "   ", "\t", " \t")


def _scalar(r: random.Random) -> str:
    t = r.choice(_TOOLS)
    return (f"'{t}'", f'"{t}"', t, t, t, t)[r.randrange(6)]


def _anchorish(r: random.Random) -> str:
    """An anchor or alias name with odd characters before and after it."""
    return (r.choice(_BEFORE) + r.choice("&*") + r.choice(("a", "t", "Status", "x-1"))
            + r.choice(_AFTER_NAME) + r.choice(("", " ", "x", " Read")))


def _item(r: random.Random, br: str, depth: int) -> str:
    """One block list item after its dash: nests, compact maps, properties (on the dash's
    line or alone on it), explicit keys, later lines, multi-line plain, block scalars."""
    t, pad = _scalar(r), r.choice(_PAD)
    shapes = [f"k: {t}", f"!!str {t}", f"&a {t}", f"! {t}", f"? {t}", "*a", f"# c{br}{pad}{t}",
              f"{br}{pad}{t}", f"&a{br}{pad}{t}", f"!!str{br}{pad}{t}",
              f"Bash(git{br}{pad}status)", f"|{br}{pad}{r.choice(_TOOLS)}", _anchorish(r),
              f"{t} # c"]
    if depth < 3:
        shapes += ["- " + _item(r, br, depth + 1), "-\t" + _item(r, br, depth + 1)]
    return r.choice(shapes) if r.random() < 0.55 else t


def _frontmatter(r: random.Random) -> str:
    br = r.choice(_BREAKS) if r.random() < 0.15 else "\n"
    parts = ["name: p", "description: " + r.choice((
        "d", "run \\*\\*Status: x", "a &b: c", "x *y: z", '"q *a: b"', "'s &a: t'"))]
    for _ in range(r.choice((0, 0, 0, 1, 2))):
        parts.append(r.choice(("x: " + _anchorish(r), "y: " + _flat_value(r),
                               "base: &t " + r.choice(_TOOLS), _anchorish(r) + ": v")))
    if r.random() < 0.6:
        dash = r.choice(("", "", " ", "  ", "\t", " \t")) + "-" + r.choice(
            (" ", " ", " ", "\t", "  ", " \t", "\t "))
        parts.append("allowed-tools:" + r.choice(("", " ", " # c", "\t")) + br + br.join(
            dash + _item(r, br, 0) for _ in range(r.randint(1, 4))))
    else:
        parts.append("allowed-tools: " + _flat_value(r))
    if r.random() < 0.08:
        parts.append(r.choice(("z: *t", "w: [*t, Read]", "allowed-tools: *t")))
    return br.join(parts) + br


def _flat_value(r: random.Random) -> str:
    tools = ", ".join(r.choice(_TOOLS) for _ in range(r.randint(1, 3)))
    return r.choice((f'"{tools}"', "[" + ", ".join((_scalar(r), _scalar(r))) + "]",
                     _anchorish(r), f"Read {_anchorish(r)}", f'"Read {_anchorish(r)}"',
                     f"'Read {_anchorish(r)}'", tools, tools, tools, tools))


def texts(seed: int, count: int) -> list[str]:
    """``count`` SKILL.md texts of this module's generator."""
    r = random.Random(seed)
    return [f"---\n{_frontmatter(r)}---\nbody\n" for _ in range(count)]


#: Hand-built texts around the three shortcuts (read the same by this branch and main).
HAND = (
    'name: p\ndescription: "a":&b: x\nallowed-tools: Read\n',
    'name: p\nx: {"a":&b: Bash}\nallowed-tools: Read\n',
    'name: p\nx: !t&a: Read\nallowed-tools: Read\n',
    'name: p\nallowed-tools:\n- Read\n-\u2028&a: Bash\n',
    'name: p\nallowed-tools:\n- Read\n- \x85 Bash\n',
    'name: p\nallowed-tools:\n  - Read\n  -\n   Bash\n',
    'name: p\nallowed-tools:\n  - Read\n  -\t# c\n   Bash\n',
    'name: p\nallowed-tools:\n  - Read\n  - - - Bash\n',
    'name: p\nallowed-tools:\n  - Read\n  - a: Bash\n    b: Write\n',
    'name: p\nallowed-tools:\n  - Read\n  -\tBash(git\n   status)\n',
    'name: p\nallowed-tools:\n  - Read\n  - !!str\n   Bash\n',
    'name: p\nallowed-tools:\n  - Read\n  -\r   Bash\n',
    'name: p\nallowed-tools:\r  - Read\r  -\r   Bash\r',
    'name: p\nallowed-tools:\n  - Read\n  - \u2028 Bash\n',
    'name: p\nallowed-tools:\n- Read\n-\t\tBash\n',
    'name: p\nallowed-tools:\n- Read\n - Bash\n',
    'name: p\nallowed-tools:\n\t- Read\n',
    'name: p\nallowed-tools:\n  - Read\n  - >\n   Bash\n  - Write\n',
    'name: p\ndescription: run \\*\\*Status: x\nallowed-tools: Read\n',
    'name: p\ndescription: "x\t*a: y"\nallowed-tools: Read\n',
    'name: p\n\u2028&a: x\nallowed-tools: Read\n',
    'name: p\x85*a: x\nallowed-tools: Read\n',
    'name: p\nx:\x85&a: Bash\nallowed-tools: Read\n',
    'name: p\nallowed-tools: [Read, !t&a: Bash]\n',
    'allowed-tools: "Read\\"x"\n',
    'allowed-tools: Read\nallowed-tools: "Bash"\n',
)


_SEEDS = (
    "name: p\nallowed-tools:\n  - Read\n  - Bash(git *)\n",
    "name: p\nallowed-tools:\n- Read\n- Bash(git *)\n",
    "name: p\nx: &a Read\nallowed-tools: Read, Grep\n",
    "name: p\ndescription: \"run *Status: x\"\nallowed-tools: Read\n",
    "allowed-tools:\n  - Read\n  -\n    Write\nname: p\n",
    "name: p\nallowed-tools:\n  - - Read\n  - k: Write\n",
    "name: p\nallowed-tools: \"Read\"\ndescription: d\n",
    "name: p\nallowed-tools: [Read, \"Bash(x)\"]\n",
    "name: p\nallowed-tools: &a\n  - Read\n  - !!str Write\n",
    "name: p\nallowed-tools:\n  # c\n  - Read # d\n  -   Write\n",
    "name: p\nallowed-tools:\n  - >-\n    Read\n  - 'Write'\n",
)
_MUTANTS = (*" \t\n\r-&*!?:#,[]{}|>'\"%@`\\", "\u2028", "\x85", "\u2029", "\ufeff", "a", "  ",
            "- ", "&a", "*a", "!t ")


def mutants(seed: int, count: int) -> list[str]:
    """``count`` SKILL.md texts: small frontmatters with 1 to 5 characters inserted, replaced
    or dropped (indicators, blanks, YAML 1.1's other line breaks, a BOM)."""
    r, out = random.Random(seed), []
    for _ in range(count):
        chars = list(r.choice(_SEEDS))
        for _ in range(r.randint(1, 5)):
            at, op = r.randrange(len(chars) + 1), r.randrange(3)
            if op == 0:
                chars.insert(at, r.choice(_MUTANTS))
            elif at < len(chars):
                chars[at:at + 1] = [r.choice(_MUTANTS)] if op == 1 else []
        out.append("---\n" + "".join(chars) + "---\nbody\n")
    return out


def _frontmatters(seed: int, count: int) -> list[str]:
    return [text[4:-9] for text in texts(seed, count) + mutants(seed, count)] + list(HAND)


_OLD_ANCHOR_NEEDS = (re.compile(r"&[A-Za-z0-9_-]++[?:%@`]"),
                     re.compile(r"\*[A-Za-z0-9_-]++[?:%@`]"))
_NEW_ANCHOR_NEEDS = (re.compile(r"&(?<![^ \t\r\n\[{,]&)[A-Za-z0-9_-]++[?:%@`]"),
                     re.compile(r"\*(?<![^ \t\r\n\[{,]\*)[A-Za-z0-9_-]++[?:%@`]"))


def test_the_cut_names_needs_miss_no_walked_name() -> None:
    """Where propwalk's walk finds a cut name, the branch's needs match (2c2fe44), on this
    generator's frontmatters (and with the needs before it: the walk is the rule)."""
    missed = [text for text in _frontmatters(50, 4000) + [f"a: b{c}&a: x\n" for c in _BEFORE]
              if cut_anchor(text) >= 0 and not any(n.search(text) for n in _NEW_ANCHOR_NEEDS)]
    assert missed == []
    assert all(any(n.search(t) for n in _OLD_ANCHOR_NEEDS) for t in _frontmatters(51, 500)
               if any(n.search(t) for n in _NEW_ANCHOR_NEEDS))


def test_bun_rejects_shortcuts_answer_as_the_walk() -> None:
    """``bun_rejects`` of the flat lane's root and of libyaml's nodes of the same text (no
    flat mark: the whole walk, the item-mark shortcut aside) agree; ec010d5."""
    checked = 0
    for text in _frontmatters(52, 4000):
        try:
            parsed = yaml.compose(text, Loader=LOADER)
        except yaml.YAMLError:
            continue
        flat = compose_flat(text)
        if flat is not None:
            checked += 1
            assert bun_rejects(text, flat) == bun_rejects(text, parsed) is None, text
    assert checked > 100


def _runtime(batch: list[str]) -> list[tuple[str, list[str], bool]]:
    reader = Path(__file__).resolve().parent / "oracle" / "bun_reader.js"
    done = subprocess.run([str(BUN), str(reader)], capture_output=True, text=True,
                          input="".join(json.dumps(text) + "\n" for text in batch),
                          timeout=600, check=True)
    return [(got["how"], got["entries"], got["hooks"])
            for got in map(json.loads, done.stdout.split("\n")[:-1])]


@pytest.mark.slow
@needs_bun
@pytest.mark.parametrize("seed", [50, 51])
def test_what_the_reader_reads_the_runtime_reads(seed: int) -> None:
    """Each generated (and hand-built) text the reader does not refuse, the runtime's steps
    under Bun read with the same ``allowed-tools`` entries."""
    batch = texts(seed, 3000) + mutants(seed, 3000) + [f"---\n{text}---\nbody\n" for text in HAND]
    apart = []
    for text, (how, entries, hooks) in zip(batch, _runtime(batch), strict=True):
        try:
            ours = list(read_skill(text).runtime_entries)
        except SkillFileError:
            continue
        if ours != entries and not hooks:
            apart.append((text, ours, entries, how))
    assert apart == []


def _old_item_under_its_dash(text: str, node: SequenceNode, column: int) -> object:
    """main's (992c1ac) ``_item_under_its_dash``: every item's content found past its
    properties, no mark shortcut."""
    for item in node.value:
        at = content_start(text, item.start_mark.index)
        start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
        if at < item.end_mark.index and at - start <= column:
            return "a list item's content on a line after its dash, not indented past it", at
    return None


def test_the_item_mark_shortcut_answers_as_the_whole_walk() -> None:
    """``_item_under_its_dash`` with ec010d5's mark shortcut, and main's, on every block list
    PyYAML composes of this module's texts."""
    lists = 0
    for text in _frontmatters(53, 4000):
        try:
            root = yaml.compose(text, Loader=LOADER)
        except yaml.YAMLError:
            continue
        stack: list[Node] = [] if root is None else [root]
        while stack:
            node = stack.pop()
            if isinstance(node, MappingNode):
                stack += [n for pair in node.value for n in pair]
            elif isinstance(node, SequenceNode):
                stack += node.value
                if not node.flow_style:
                    lists += 1
                    column = block_column(text, node)
                    assert runtime._item_under_its_dash(text, node, column) == \
                        _old_item_under_its_dash(text, node, column), text
    assert lists > 1000
