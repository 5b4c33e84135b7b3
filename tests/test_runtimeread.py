"""Reading a SKILL.md as Claude Code does (skillgrant/skillfile/runtime.py): files the runtime may
read differently are refused with a located error; a file whose allowed-tools the runtime never
sees is read with a note. The runtime's side of each row is measured by tests/conformance."""

from __future__ import annotations

import pytest
from examples import seeds

from skillgrant import SkillFileError
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_text, read_skill
from skillgrant.skillfile.runtime import bun_rejects, requoted, runtime_frontmatter
from skillgrant.skillfile.yamlspan import compose


def skill(lines: str, before: str = "description: d\n") -> str:
    return f"---\nname: x\n{before}{lines}\n---\nBody\n"


@pytest.mark.parametrize(("text", "message", "where"), [
    # Row 1: a YAML 1.1 line break that Bun's YAML 1.2 reads as a character.
    (skill("allowed-tools: Bash(echo hi)\u2028# Bash"), "U+2028 in the frontmatter", (4, 29)),
    (skill("allowed-tools: Bash(echo hi)\u2029# Bash"), "U+2029 in the frontmatter", (4, 29)),
    (skill("allowed-tools: Bash(echo hi)\x85# Bash"), "U+0085 in the frontmatter", (4, 29)),
    (skill("allowed-tools: Read", before="description: 'a\u2028b'\n"), "U+2028", (3, 16)),
    # '...' closes ours, the runtime reads on to a '---' in the body.
    ("---\nallowed-tools: Read\n...\nBody a---b\n", "ends the frontmatter at the first '---'",
     (4, 1)),
])
def test_files_the_runtime_may_read_differently_are_refused(
        text: str, message: str, where: tuple[int, int]) -> None:
    with pytest.raises(SkillFileError) as raised:
        read_skill(text, "SKILL.md")
    assert message in raised.value.message
    assert (raised.value.line, raised.value.column) == where
    with pytest.raises(SkillFileError):
        apply_to_text(text, Plan.from_entries(["Read"]))


# A tab after a list item's dash, before a value holding a ':' that may end a key (review F-2):
# Bun rejects the whole text, so the runtime reads no allowed-tools; read as after a space, it
# would show entries. Refused where the tab is, not read.
@pytest.mark.parametrize("text", [
    "---\nx:\n-\ta:\nallowed-tools: Bash\n---\n",
    "---\nallowed-tools: Read\nx:\n-\ta:\tb\n---\n",
    "---\nallowed-tools: Read\nx:\n  -\tv: w\n---\n",
    "---\r\nx:\r\n -\ta:\r\nallowed-tools: Bash\r\n---\r\n",
])
def test_a_tab_after_a_dash_before_a_key_is_refused(text: str) -> None:
    with pytest.raises(SkillFileError) as raised:
        read_skill(text, "SKILL.md")
    assert "cannot be computed" in raised.value.message
    tab = text.index("-\t") + 1
    assert (raised.value.line, raised.value.column) == (text[:tab].count("\n") + 1,
                                                        tab - text.rindex("\n", 0, tab))


# What Bun running the runtime's own steps reads from each (tests/oracle/bun_reader.js): the
# first two it rejects as written and reads re-quoted; the third it reads as written.
@pytest.mark.parametrize(("text", "entries", "retried"), [
    # Row 2: a document Bun rejects, read with the simple lines quoted.
    (skill("allowed-tools: Read # Bash(touch *), Edit", before='description: "D"#v2\n'),
     ("Read", "#", "Bash(touch *)", "Edit"), "text right after a closing quote or bracket"),
    # Row 3: a flow mapping that spills over the allowed-tools line.
    (skill("allowed-tools: Bash, }", before="metadata: {owner: me,\n"), ("Bash", "}"),
     "a continuation line at column 1, not indented past its block"),
    # A tab indenting a key: Bun rejects it, the retry turns it into spaces.
    ("---\n\tallowed-tools: Bash\n---\n", ("Bash",),
     "invalid YAML: found character that cannot start any token (while scanning for the "
     "next token)"),
    # Blank lines first (the runtime's opening regex takes them), then a text Bun rejects.
    ("---\n\nname: probe\nallowed-tools: Read # Bash\na: |2#\n---\nRun the probe.\n",
     ("Read", "#", "Bash"), "a comment right after a block scalar's indicator"),
    ("---\n\nname: probe\nallowed-tools: Read # Bash\nd: 'x'#\n---\nRun the probe.\n",
     ("Read", "#", "Bash"), "text right after a closing quote or bracket"),
    # A comment after the value, in a document Bun accepts: only the value.
    (skill("allowed-tools: Read  # Bash"), ("Read",), None),
])
def test_files_are_read_as_the_runtime_reads_them(text: str, entries: tuple[str, ...],
                                                  retried: str | None) -> None:
    doc = read_skill(text)
    assert (doc.runtime_entries, doc.retried) == (entries, retried)
    if "Read" in entries:  # the rewrite keeps Read, and the runtime reads just that
        new_text, _ = apply_to_text(text, Plan.from_entries(["Read"]))
        assert read_skill(new_text).runtime_entries == ("Read",)
    else:  # the key goes; the frontmatter left may be one whose reading cannot be computed
        try:
            new_text, decision = apply_to_text(text, Plan.from_entries(["Read"]))
        except SkillFileError as e:
            assert "does not read back" in e.message
        else:  # nothing survived: the approved Read is restored, and read so
            assert read_skill(new_text).runtime_entries == tuple(decision.allowed)


@pytest.mark.parametrize("text", [
    skill("allowed-tools: Bash(echo *)", before="description: a --- b\n"),  # row 6
    skill("allowed-tools: Read", before="description: a---\n"),
    skill("allowed-tools: Read", before='description: "x---y"\n'),
])
def test_dashes_inside_a_value_end_the_runtime_frontmatter(text: str) -> None:
    doc = read_skill(text)
    assert doc.allowed_tools is not None
    assert doc.runtime_note is not None and "never reads it" in doc.runtime_note


@pytest.mark.parametrize("text", [
    skill("allowed-tools: Bash(gh *), Read"),
    skill("allowed-tools: [Bash(gh *), Read]"),
    skill('allowed-tools: "Bash(gh *) Read"'),
    skill("allowed-tools:\n  - Bash(gh *)\n  - Read"),
    skill("allowed-tools: Read", before="description: 'it: works'\n"),
    skill("allowed-tools: Read", before="# a comment\ndescription: d # comment\n"),
    "\ufeff" + skill("allowed-tools: Bash(gh *)").replace("\n", "\r\n"),
])
def test_files_both_read_alike_are_read(text: str) -> None:
    doc = read_skill(text)
    assert doc.runtime_note is None
    assert doc.allowed_tools is not None and doc.allowed_tools.entries


def test_apply_never_writes_a_value_the_runtime_reads_differently() -> None:
    # The rewrite is read back through the same check: a kept entry that would make the
    # re-quoted reading differ is refused with the file untouched.
    text = skill("allowed-tools: Bash(gh pr list)")
    new_text, _ = apply_to_text(text, Plan.from_entries(["Bash(gh *)"]))
    assert read_skill(new_text).runtime_note is None


@pytest.mark.parametrize(("line", "after"), [
    ("allowed-tools: Read # c", 'allowed-tools: "Read # c"'),
    ("allowed-tools: Bash(a *)", 'allowed-tools: "Bash(a *)"'),
    ("allowed-tools: [Read, Grep]", "allowed-tools: [Read, Grep]"),  # a flow list stays
    ("allowed-tools: [Read, Grep] # c", 'allowed-tools: "[Read, Grep] # c"'),
    ("allowed-tools: 'Read # c'", "allowed-tools: 'Read # c'"),  # already quoted
    ('description: say "hi" @x', 'description: "say \\"hi\\" @x"'),
    ("description: a\\b: c", 'description: "a\\\\b: c"'),
    ("description: plain", "description: plain"),
    ("  indented: Bash(*)", "  indented: Bash(*)"),  # not a top-level simple line
    ("allowed-tools: Read # c\r", "allowed-tools: Read # c\r"),  # JS '.' stops at \r
    ("\tallowed-tools: x", "  allowed-tools: x"),  # leading tabs become spaces
])
def test_requoting_matches_the_runtime_rule(line: str, after: str) -> None:
    assert requoted(line) == after


@pytest.mark.parametrize(("text", "span"), [
    ("---\na: 1\n---\nbody", (4, 9)),
    ("\ufeff---\na: 1\n---\n", (5, 10)),
    ("---\na: x --- y\n---\n", (4, 9)),
    ("---\na: 1\n", None),  # no second '---'
    ("--- \u00a0\na: 1\n---\n", (6, 11)),  # JavaScript's \s takes NBSP
])
def test_runtime_frontmatter_span(text: str, span: tuple[int, int] | None) -> None:
    found = runtime_frontmatter(text)
    assert (None if found is None else tuple(found)) == span


# A tab after a list item's dash (review F-2). Bun 1.4.5 reads it as a space before a scalar,
# and rejects it ("Tab characters cannot be used as indentation") before a block mapping or
# list: then the retry keeps the line, fails too, and the runtime reads no allowed-tools.
@pytest.mark.parametrize("item", ["x:", "a:\tb", "a: b", "x: #", "'a': b", "&a x: y",
                                  "- y", "? x", "a:b: c"])
def test_a_tab_before_a_block_collection_item_is_refused(item: str) -> None:
    text = f"---\nother:\n- z\n-\t{item}\nallowed-tools: Read\n---\n"
    with pytest.raises(SkillFileError) as raised:
        read_skill(text, "SKILL.md")
    assert (raised.value.line, raised.value.column) == (4, 2)
    with pytest.raises(SkillFileError):
        apply_to_text(text, Plan.from_entries(["Read"]))


@pytest.mark.parametrize(("lines", "entries"), [
    ("allowed-tools:\n-\tRead\n-\tGrep #c", ("Read", "Grep")),
    ("allowed-tools:\n  -\tRead\n  -\tBash(git *)\n  - Edit", ("Read", "Bash(git *)", "Edit")),
    ("allowed-tools:\n-\tRead\n  Grep", ("Read", "Grep")),  # one item "Read Grep", cut at ' '
    ("other:\n-\tx:y\nallowed-tools: Read", ("Read",)),
])
def test_a_tab_before_a_scalar_item_reads_as_a_space(lines: str, entries: tuple[str, ...]) -> None:
    assert read_skill(f"---\n{lines}\n---\n").runtime_entries == entries


# A tagged or anchored block collection is indented where its first dash or key is, not
# where its tag or anchor is; a flow collection's closing line may start at any column, at any
# depth (review N-1, P-3). Bun 1.4.5 reads each of these directly (tests/oracle), so the
# comment after Read is a comment, not two more entries read through the retry.
@pytest.mark.parametrize("lines", [
    "x: &a\n- a\n  b",
    "x:\n  y: !!seq\n  - a\n    b",
    "x:\n  y: &a !!seq\n  - [a,\n   b]",
    "x:\n  - &a\n    - a\n      b",
    "x: !!map\n  k: 'a\n   b'",
    "x:\n  y: [a,\n    b\n  ]",
    "x:\n  y: [a, [b,\n], c]",
    "x:\n  y: {a: 1,\n# c\n }",
    "x:\n  y: [a\n, b]",  # a comma first
    "x: !!map\n  ? a\n  : [b,\n   c]",  # an explicit key: the block is at its '?'
    "x: &m # c\n\n  # d\n  &k key: [a,\n   b]",  # a comment line, then an anchored key
])
def test_a_block_is_indented_where_its_first_entry_is(lines: str) -> None:
    text = f"---\n{lines}\nallowed-tools: Read # Bash\n---\n"
    assert bun_rejects(text[4:-4], compose(text[4:-4])) is None
    doc = read_skill(text)
    assert (doc.runtime_entries, doc.retried) == (("Read",), None)


@pytest.mark.parametrize(("lines", "where"), [
    ("x:\n  y: !!seq\n  - [a,\n  b]", "  b]"),  # at the list's column: Bun rejects
    ("x: &a\n  k: [a,\n  b]", "  b]"),
    ("y: [a, \"b\nc\"]", 'c"]'),  # a quoted scalar's line, even at the top
])
def test_bun_rejects_a_line_at_its_blocks_column(lines: str, where: str) -> None:
    yaml_text = lines + "\n"
    rejected = bun_rejects(yaml_text, compose(yaml_text))
    assert rejected is not None and rejected[1] == yaml_text.index(where) + len(where) - len(
        where.lstrip())


# A tag on a key (review R-2): Bun 1.4.5 ignores it and reads the key as its text
# (`!!null allowed-tools` is "allowed-tools", and the runtime grants Bash below); PyYAML makes
# it None or bytes, and the key went unseen, in apply too. Refused at the key.
@pytest.mark.parametrize(("text", "where"), [
    ("---\n!!null allowed-tools: Bash\n---\n", (2, 1)),
    ("---\nallowed-tools: Read\n!!null allowed-tools: Bash\n---\n", (3, 1)),
    ("---\n!!binary allowed-tools: Bash\n---\n", (2, 1)),
    ("---\n? !!null allowed-tools\n: Bash\n---\n", (2, 3)),
    ("---\n!<tag:yaml.org,2002:null> allowed-tools: Bash\n---\n", (2, 1)),
    ("---\n&k !!null hooks:\n  PreToolUse: []\nallowed-tools: Read\n---\n", (2, 1)),
    ("---\n!!null shell: bash\nallowed-tools: Read\n---\n", (2, 1)),
    ("---\n!!str allowed-tools: Bash\n---\n", (2, 1)),  # any tag: none is needed
    ("---\n&k !x allowed-tools: Bash\n---\n", (2, 1)),
    ("---\nx:\n  !x y: 1\nallowed-tools: Read\n---\n", (3, 3)),  # at any depth
    ("---\nx: [{!!str a: 1}]\nallowed-tools: Read\n---\n", (2, 6)),
])
def test_a_tagged_key_is_refused(text: str, where: tuple[int, int]) -> None:
    with pytest.raises(SkillFileError) as raised:
        read_skill(text, "SKILL.md")
    assert "a key written with a YAML tag" in raised.value.message
    assert (raised.value.line, raised.value.column) == where
    with pytest.raises(SkillFileError):
        apply_to_text(text, Plan.from_entries(["Read"]))


@pytest.mark.parametrize("text", ["---\n&k allowed-tools: Bash\n---\n",
                                  "---\nx: '!a: b'\nallowed-tools: Bash\n---\n"])
def test_an_anchored_key_is_read(text: str) -> None:
    assert read_skill(text).runtime_entries == ("Bash",)


# A block scalar's leading blank line wider than its first line of text (review R-4): Bun
# 1.4.5 rejects it, and the runtime's retry reads the re-quoted header, comment included;
# PyYAML read an empty value (and the lint, no entries).
def test_a_wide_blank_line_first_in_a_block_scalar_is_read_as_the_retry_reads_it() -> None:
    doc = read_skill("---\nallowed-tools: > # Bash(rm *)\n     \n    # x\n---\n")
    assert doc.runtime_entries == (">", "#", "Bash(rm *)")
    assert doc.retried == "a block scalar's leading blank line wider than its first line"


_FLOW_CHARS = list("ab ,:[]{}#'\"-?*&!x\t.|>")


def _composes_to_a_list(value: str) -> bool:
    """The reference for ``flowlenient.is_flow_list``: the value composed by PyYAML."""
    from yaml.nodes import SequenceNode

    from skillgrant.skillfile.yamlspan import YamlProblem

    if not (value.startswith("[") and value.endswith("]")):
        return False
    try:
        return isinstance(compose(value), SequenceNode)
    except YamlProblem:
        return False


@pytest.mark.parametrize("seed", seeds(4))
def test_a_flow_list_is_told_as_composing_tells_it(seed: int) -> None:
    """``is_flow_list`` answers without composing a value whose list closes before its end
    (``[file.typ] [output.pdf]``); on generated values, and on those forms, it answers as
    composing the value does, or refuses (Divergence) where PyYAML rejects inside the brackets
    what Bun may read as a list (s47-ffix, ``flowlenient``)."""
    import random

    from skillgrant.skillfile import flowlenient
    from skillgrant.skillfile.runtime import Divergence

    def is_flow_list(value: str) -> bool:
        try:
            return flowlenient.is_flow_list(value, 0, Divergence)
        except Divergence:
            assert not _composes_to_a_list(value), value
            return False

    rng = random.Random(seed)
    told = 0
    for _ in range(20_000):
        head = "".join(rng.choice("ab ,.-:" if rng.random() < 0.6 else _FLOW_CHARS)
                       for _ in range(rng.randint(0, 5)))
        tail = "".join(rng.choice(_FLOW_CHARS) for _ in range(rng.randint(0, 6)))
        value = f"[{head}]{tail}]" if rng.random() < 0.6 else f"[{head}{tail}]"
        close = value.find("]")
        told += (close < len(value) - 1 and "#" not in value
                 and flowlenient._NESTS.search(value, 1, close) is None)
        assert is_flow_list(value) == _composes_to_a_list(value), value
    assert told > 1_000  # the values reach the answer given without composing
    for value in ("[file.typ] [output.pdf]", "[a]: [b]", "[a] # x]", "[a, b]", "[a] [b",
                  "[a [b]] [c]", "['a]' b]", "[{a] b]", "[a]]"):
        assert is_flow_list(value) == _composes_to_a_list(value), value
