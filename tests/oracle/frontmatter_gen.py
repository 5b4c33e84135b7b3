"""Generated SKILL.md frontmatters aimed at where PyYAML (skillgrant's YAML reader), Bun's YAML
parser and the runtime's re-quote retry part ways (issue 27's list): quoted and multi-line
scalars with continuation lines at every column, flow and block collections over several
lines, tabs in list items, comments, ``: `` and ``#`` inside values, keys that look like
``allowed-tools`` inside other values, BOMs and U+0085/2028/2029, document markers, anchors,
tags, CR and CRLF, and the retry's quoting rules. Seeded: the same seed gives the same texts."""

from __future__ import annotations

import random
from collections.abc import Iterator

ENTRIES = ["Read", "Grep", "Bash(git status)", "Bash(git *)", "Bash(touch *)", "Write",
           "Bash(npm run *)", "Edit(src/**)", "*", "Bash(rm -rf /)", "WebFetch(domain:x.com)",
           "Bash(echo a, b)", "Bash(${CLAUDE_PLUGIN_ROOT}/x.sh *)", "mcp__s__t"]
SEPARATORS = [", ", " ", ",", ",\t", "\t", " ,  "]
ODD = ["\ufeff", "\x85", "\u2028", "\u2029", "\t", "\r", "#", ": ", "[", "]", "{", "}", "'",
       '"', "&a ", "*a", "!", "|", ">", "%", "@", "`", "- ", "---", "...", "\\", "\n", " "]
VALUES = ["plain words", "[file.typ] [output.pdf]", "use it: now", "a # comment", "`code`",
          "{x}", "*star", "&anchor v", "!tag v", "|pipe", ">gt", "%pct", "@at", "'q'",
          '"d"', "[a, b]", "[a, b", "x: y: z", "allowed-tools: Bash", "- item", "50%",
          "yes", "~", "null", "2024-01-01", "1.5", ""]
# What may follow a list item's "-\t" (review F-2): Bun reads a scalar as after a space and
# rejects a block mapping or list there.
TAB_ITEMS = ["x:", "a:\tb", "a: b", "x: #", "x:\ty", "- y", "-\ty", "? x", "'a': b", "&a x: y",
             "x #: y", "x #c", "x\t#c", "#c", "'q'", '"q"', "[a, b]", "{a: b}", "&a x", "!t x",
             "|", "x:y", "x -", "a:b: c", "", "\tx", " x"]
# Properties before a block collection (review N-1, P-3): its column is its first dash's or
# key's, not theirs.
PROPERTIES = ["!!seq", "&a", "!x", "!!seq &a", "&a !!seq", "!!map", "!!str", "&a !x", "!!seq # c",
              "&a # c"]
KEY_PROPERTIES = ["!!null ", "!!binary ", "!!str ", "!x ", "&k ", "&k !!null ", "!!int ",
                  "!<tag:yaml.org,2002:null> ", "! "]
KEYS = ["name", "description", "argument-hint", "model", "x-y", "when_to_use", "version"]


def _entries(rng: random.Random) -> list[str]:
    return rng.sample(ENTRIES, rng.randint(1, 4))


def _allowed(rng: random.Random, key: str = "allowed-tools") -> list[str]:
    if rng.random() < 0.04:  # a tag or anchor on the key (review R-2: Bun ignores the tag)
        key = rng.choice(KEY_PROPERTIES) + key
    entries = _entries(rng)
    form = rng.randrange(12)
    sep = rng.choice(SEPARATORS)
    if form == 0:
        return [f"{key}: {sep.join(entries)}"]
    if form == 1:
        return [f"{key}: \"{sep.join(entries)}\""]
    if form == 2:
        return [f"{key}: '{sep.join(entries)}'"]
    if form == 3:
        return [f"{key}: [{', '.join(entries)}]"]
    if form == 4:  # a flow list over lines, its lines at some column
        col = " " * rng.randint(0, 3)
        return [f"{key}: [{entries[0]},"] + [f"{col}{e}," for e in entries[1:]] + [f"{col}]"]
    if form == 5:
        dash = rng.choice(["- ", "-\t", "-  ", "- \t"])
        col = " " * rng.randint(0, 3)
        return [f"{key}:"] + [f"{col}{dash}{e}" for e in entries]
    if form in (6, 7):
        ind = rng.choice(["|", ">", "|-", ">-", "|+", "|2", "> # Bash(rm *)"])
        col = " " * rng.randint(1, 3)
        blank = [" " * rng.randint(0, 5)] if rng.random() < 0.2 else []  # review R-4
        lines = [f"# {e}" for e in entries] if blank and rng.random() < 0.5 else entries
        return [f"{key}: {ind}", *blank] + [f"{col}{e}" for e in lines]
    return _odd_forms(rng, key, entries, sep, form)


def _odd_forms(rng: random.Random, key: str, entries: list[str], sep: str,
               form: int) -> list[str]:
    if form == 8:  # a quoted value over lines, continuation at every column
        lines = [f"{key}: \"{entries[0]}"]
        lines += [" " * rng.randint(0, 3) + e for e in entries[1:]]
        lines[-1] += '"'
        return lines
    if form == 9:
        return [f"{key}: {sep.join(entries)} # {rng.choice(ENTRIES)}"]
    if form == 10 and rng.random() < 0.3:
        return _dash_tab(rng, key, entries)
    if form == 10 and rng.random() < 0.5:
        return _nested_tagged(rng, key, entries)
    if form == 10:
        return [f"{key}: &a {sep.join(entries)}"] if rng.random() < 0.5 else [
            f"{key}: !!str {sep.join(entries)}"]
    if form == 11 and rng.random() < 0.5:
        return _tagged(rng, key, entries)
    return [f"{key}:   {sep.join(entries)}  "]


def _dash_tab(rng: random.Random, key: str, entries: list[str]) -> list[str]:
    """A block list whose items follow "-\t" or "- ", some of them TAB_ITEMS, some
    continued on the next line at some column."""
    col = " " * rng.randint(0, 2)
    lines = [f"{key}:"]
    for entry in entries:
        item = rng.choice(TAB_ITEMS) if rng.random() < 0.4 else entry
        dash = rng.choice(["-\t", "-\t", "- "])
        lines.append(f"{col}{dash}{item}")
        if rng.random() < 0.15:
            lines.append(" " * rng.randint(0, 4) + rng.choice([*entries, "y: z", "- w"]))
    return lines


def _nested_tagged(rng: random.Random, key: str, entries: list[str]) -> list[str]:
    """A tagged or anchored block list or mapping under ``key`` (itself at the top or
    nested), its items' scalars and flow collections continued on lines at columns around
    the block's."""
    outer = rng.choice(["", "", "outer:\n  ", "- "])
    base = len(outer.rsplit("\n", 1)[-1])
    col = " " * (base + rng.choice([0, 0, 1, 2, 4]))
    mapping = rng.random() < 0.25
    lines = [f"{outer}{key}: {rng.choice(PROPERTIES)}"]
    for number, entry in enumerate(entries):
        head = f"{col}k{number}: " if mapping else f"{col}- "
        if rng.random() < 0.15:
            head += rng.choice(["&i ", "!t ", "!!str "])
        form = rng.randrange(5)
        if form == 0 and " " not in entry:  # a scalar continued on the next line
            lines += [head + entry, " " * (len(col) + rng.randint(-1, 3)) + rng.choice(entries)]
        elif form == 1:  # a flow list over lines, its closing line at some column
            lines += [f"{head}[{entry},", " " * (len(col) + rng.randint(-2, 4)) + "x",
                      " " * rng.randint(0, len(col) + 3) + rng.choice(["]", "] # c", "], y"])]
        elif form == 2:  # a quoted scalar over lines
            lines += [f'{head}"{entry}', " " * (len(col) + rng.randint(-1, 3)) + 'x"']
        else:
            lines.append(head + entry)
    return [line for chunk in lines for line in chunk.split("\n")]


def _tagged(rng: random.Random, key: str, entries: list[str]) -> list[str]:
    """A tagged or anchored block collection whose items continue over more lines, at some
    indent (review N-1)."""
    prop = rng.choice(["!!seq", "&a", "!x", "&a !!seq", "!!seq &a", "!!str", "!!map", "!!set"])
    col = " " * rng.randint(0, 3)
    lines = [f"{key}: {prop}{rng.choice(['', ' ', ' # c'])}"]
    for entry in entries:
        if rng.random() < 0.7:
            lines.append(col + rng.choice(["- ", "-  ", "-\t"]) + entry)
        else:
            lines.append(f"{col or ' '}{entry.split('(')[0]}: {entry}")
        for _ in range(rng.choice([0, 0, 1, 2])):
            lines.append(" " * rng.randint(0, 5) + rng.choice(
                [*ENTRIES, "x", "# c", "- y", ": z", "b: c", "allowed-tools: Bash", "]"]))
    return lines


def _other(rng: random.Random) -> list[str]:
    if rng.random() < 0.04:  # a tagged key, at the top or nested (review R-2)
        prop = rng.choice(KEY_PROPERTIES)
        key = rng.choice(["hooks", "shell", "allowed-tools", "PreToolUse", rng.choice(KEYS)])
        line = f"{prop}{key}: {rng.choice(['Bash', '[Read, Bash]', '1', ''])}"
        return [line] if rng.random() < 0.6 else ["outer:", f"  {line}"]
    key = rng.choice(KEYS)
    kind = rng.randrange(11)
    value = rng.choice(VALUES)
    if kind == 0:  # a double-quoted value whose continuation lines hold a key
        col = " " * rng.randint(0, 2)
        inner = _allowed(rng)[0] if rng.random() < 0.7 else "x: y"
        return [f'{key}: "start', f"{col}{inner}", f'{col}end"']
    if kind == 1:
        col = " " * rng.randint(0, 2)
        return [f"{key}: 'start", f"{col}{_allowed(rng)[0]}", f"{col}end'"]
    if kind == 2:  # a block scalar holding a key-like line
        return [f"{key}: |", "  text", f"  {_allowed(rng)[0]}"]
    if kind == 3:
        return [f"{key}: [a,", f"{' ' * rng.randint(0, 2)}b]"]
    if kind == 4:
        return [rng.choice([": y", "- x", "# comment", "", "---", "...", "  indented", "\t- t",
                            "key with space: v", "?: q", "x:", "&a y: z"])]
    if kind == 5:
        return [f"{key}:", f"  - {value}", f"  -\t{value}"]
    if kind >= 6:
        return _block_list(rng, key, kind)
    return [f"{key}: {value}"]


def _block_list(rng: random.Random, key: str, kind: int) -> list[str]:
    """Another key's block list: tabs after dashes, tags and anchors (reviews F-2, N-1)."""
    if kind == 7:
        return _tagged(rng, key, _entries(rng))
    if kind == 6:  # a tab after a dash before a value that may be a key (review F-2)
        col = " " * rng.randint(0, 2)
        after = rng.choice(["", "\t", " ", "b", "\tb"])
        return [f"{key}:", f"{col}-\t{rng.choice(['a', 'Bash'])}:{after}"]
    if kind == 8:
        return _dash_tab(rng, key, rng.sample(VALUES, rng.randint(1, 3)))
    return _nested_tagged(rng, key, rng.sample(VALUES, rng.randint(1, 3)))


def _mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        at = rng.randint(0, len(text))
        text = text[:at] + rng.choice(ODD) + text[at:]
    return text


def frontmatter(rng: random.Random) -> str:
    """One SKILL.md text."""
    parts: list[list[str]] = [_other(rng) for _ in range(rng.randint(0, 3))]
    for _ in range(rng.choice([1, 1, 1, 1, 2, 0])):
        parts.insert(rng.randint(0, len(parts)), _allowed(rng))
    lines = [line for part in parts for line in part]
    body = "\n".join(lines)
    if rng.random() < 0.5:
        body = _mutate(rng, body)
    lead = "\n" * rng.choice([0, 0, 0, 0, 1, 2])  # blank lines the runtime's regex skips
    text = "---\n" + lead + body + ("\n" if body else "") + rng.choice(["---\n", "---\nBody\n",
                                                                  "---", "...\n---\n"])
    if rng.random() < 0.08:
        text = "\ufeff" + text
    newline = rng.random()
    if newline < 0.1:
        text = text.replace("\n", "\r\n")
    elif newline < 0.13:
        text = text.replace("\n", "\r")
    return text


def texts(seed: int, count: int) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(count):
        yield frontmatter(rng)
