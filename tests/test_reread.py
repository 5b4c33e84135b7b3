"""The read-back's fast branch (``skillfile.reread``) against the whole reader it declines to:
on every rewrite, the same document or the same error. The runtime's side of the rewrite is
pinned by the Bun differential (tests/oracle, .ci/steps/40-bun-differential.sh)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from conftest import REAL_SKILLS
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant.errors import SkillFileError
from skillgrant.plan import Plan
from skillgrant.skillfile import keptlines
from skillgrant.skillfile import reread as reread_module
from skillgrant.skillfile.builder import apply_to_text
from skillgrant.skillfile.flowlenient import Scan
from skillgrant.skillfile.reread import reread
from skillgrant.skillfile.spans import read_skill


def _outcome(read: object, *args: object) -> object:
    try:
        return read(*args)  # type: ignore[operator]
    except SkillFileError as e:
        return ("error", str(e))


def _same_as_whole(old_text: str, new_value: str) -> None:
    old = read_skill(old_text, "SKILL.md")
    value = old.allowed_tools
    assert value is not None
    new_text = old_text[:value.start] + new_value + old_text[value.end:]
    assert _outcome(reread, old, new_text) == _outcome(read_skill, new_text, "SKILL.md")


_LINES = st.sampled_from([
    "name: x", "description: d", "description: a long one: with a colon", "# a comment",
    "  # an indented comment", "other: [a, b]", "other:\n  - a\n  - b", "other: |\n  block\n",
    "desc: '---'", "x: 1", "empty:", "  indented: value", "desc: >\n  folded\n  text",
])
#: Entries a rewrite may write, and pieces that change how a plain value reads.
_TOKENS = st.sampled_from([
    "Read", "Grep", "Bash(git *)", "Bash(gh pr list:*)", "Bash(a---b)", "---", "true", "Yes",
    "null", "x: y", "x:", "a #b", "a#b", "#", "[x]", "{x}", "*", "&a", "!t", "'q'", '"q"', "é",
    "\u2028", "\x85", "\ufeff", "\t", "\r", "\n", "\n  x", "\n---\n", "?", "-", "%", "@",
    "`", "|", ">", "\\",
])
_VALUES = st.tuples(st.lists(_TOKENS, min_size=1, max_size=4),
                    st.sampled_from([", ", " ", ",", ":", ""])).map(lambda t: t[1].join(t[0]))


@settings(max_examples=examples(3000), deadline=None)
@given(st.lists(_LINES, max_size=3), st.lists(_LINES, max_size=3),
       st.sampled_from(["Read, Grep", "Bash(git *), Read", "Read", "Bash(gh pr list:*) Read",
                        "Read # note", "Read,Grep   "]),
       _VALUES, st.sampled_from(["\n", "\r\n"]), st.booleans(), st.booleans())
def test_a_rewritten_value_reads_as_the_whole_reader_reads_it(
        before: list[str], after: list[str], old_value: str, new_value: str, newline: str,
        bom: bool, dots: bool) -> None:
    lines = ["---", *before, f"allowed-tools: {old_value}", *after, "..." if dots else "---",
             "Body ---", ""]
    text = ("\ufeff" if bom else "") + newline.join(lines)
    try:
        read_skill(text, "SKILL.md")
    except SkillFileError:
        return  # nothing read, nothing rewritten
    _same_as_whole(text, new_value)


_CONTEXTS = [
    "---\nname: x\nallowed-tools: Read, Grep\ndescription: d\n---\nBody\n",
    "---\ndescription: d\nallowed-tools: Bash(git *) Read\n  # a comment\nx: [a]\n---\n",
    "\ufeff---\r\nallowed-tools: Read,Grep\r\nother:\r\n  - a\r\n---\r\nBody ---\r\n",
    "---\nallowed-tools: Read\n...\nBody\n",
    "---\nallowed-tools: Read\n---\n",
    "---\nname: '---'\nallowed-tools: Read, Grep\n---\n",
    "---\nallowed-tools: Read, Grep\ndesc: >\n  folded\n---\n",
    # Read through the runtime's re-quote retry (Bun rejects `[a]x`), and with a runtime note
    # (Claude Code's frontmatter ends inside the description): the branch must decline both.
    "---\nk: [a]x\nallowed-tools: Read, Grep\n---\n",
    "---\ndescription: 'x --- y'\nallowed-tools: Read, Grep\n---\n",
]
_PIECES = ["Read", "Grep", "Bash(git *)", "Bash(gh pr list:*)", "Bash(a---b)", "---", "true",
           "Yes", "null", "x: y", "x:", "a #b", "a#b", "#", "[x]", "{x}", "*", "&a", "!t", "'q'",
           '"q"', "é", "\u2028", "\x85", "\ufeff", "\t", "\r", "\n", "\n  x", "\n---\n",
           "?", "-", "%", "@", "`", "|", ">", "\\", " ", "~", "1", "0x1"]


@pytest.mark.parametrize("old_text", _CONTEXTS)
def test_every_value_of_a_grid_reads_as_the_whole_reader_reads_it(old_text: str) -> None:
    """Each piece alone and after ``Read`` (the branch sees most of them and declines many),
    in each context."""
    for piece in _PIECES:
        for value in (piece, f"Read, {piece}", f"Read {piece}", f"Read{piece}"):
            _same_as_whole(old_text, value)


@pytest.mark.parametrize("old_text, new_text", [
    ("---\nname: x\nallowed-tools: Read, Bash(rm -rf /)\ndescription: d\n---\nBody\n",
     "---\nname: x\nallowed-tools: Read\ndescription: d\n---\nBody\n"),
    # a block list's kept items (skillfile/blockread.py)
    ("---\nname: x\nallowed-tools:\n  - Read\n  - Bash(rm -rf /)\n  - Grep\ndescription: d\n"
     "---\nBody\n",
     "---\nname: x\nallowed-tools:\n  - Read\n  - Grep\ndescription: d\n---\nBody\n"),
    # the key's lines read alone: a flow list, a commented block list, a block scalar, a plain
    # value over two lines
    ("---\nname: x\nallowed-tools: [Read, \"Bash(rm -rf /)\"]\ndescription: d\n---\n",
     "---\nname: x\nallowed-tools: [Read]\ndescription: d\n---\n"),
    ("---\nallowed-tools:\n  - Read  # r\n  - 'Bash(rm *)'\nz: 1\n---\n",
     "---\nallowed-tools:\n  - Read  # r\nz: 1\n---\n"),
    ("---\nallowed-tools: |\n  Read\n  Bash(rm *)\nz: 1\n---\n",
     "---\nallowed-tools: Read\nz: 1\n---\n"),
    ("---\nallowed-tools: Read,\n  Grep\nname: x\n---\n",
     "---\nallowed-tools: Read, Grep\nname: x\n---\n"),
])
def test_the_branch_reads_a_rewrite_it_is_sure_of_without_the_whole_reader(
        monkeypatch: pytest.MonkeyPatch, old_text: str, new_text: str) -> None:
    old = read_skill(old_text, "SKILL.md")
    whole = read_skill(new_text, "SKILL.md")

    def refused(text: str, path: str | None = None) -> object:
        assert text != new_text, "the whole reader was asked"
        return read_skill(text, path)  # the key's lines alone (_key_lines_replaced)

    monkeypatch.setattr(reread_module, "read_skill", refused)
    assert reread(old, new_text) == whole


def test_key_lines_read_before_read_back_in_another_document_as_the_whole_reader_reads_it(
        ) -> None:
    """The key's lines are read alone once (``_lines_read``): the same lines in documents
    that differ before and after them, at other offsets, read back as the whole reader reads
    each, and no two documents share a list of their metadata."""
    lines = "allowed-tools: [Read, 'Bash(git *)']"
    docs = []
    for before, after in [("", "z: 1\n"), ("name: a-much-longer-name\n", "z: 2\n"),
                          ("name: x\ndescription: d\n", ""), ("", "")]:
        old_text = f"---\n{before}allowed-tools: [Read, Grep, 'Bash(git *)']\n{after}---\nB\n"
        new_text = f"---\n{before}{lines}\n{after}---\nB\n"
        old = read_skill(old_text, "SKILL.md")
        assert _outcome(reread, old, new_text) == _outcome(read_skill, new_text, "SKILL.md")
        docs.append(reread(old, new_text))
    assert reread_module._lines_read.cache_info().hits >= 3
    values = [doc.metadata["allowed-tools"] for doc in docs]
    assert values[0] == ["Read", "Bash(git *)"]
    assert len({id(value) for value in values}) == len(values)


@pytest.mark.parametrize("old_text, new_value", [
    ("---\nallowed-tools: Read, Grep\n---\n", "Read: x"),  # a mapping now
    ("---\nallowed-tools: Read, Grep\n---\n", "Read #x"),  # a comment now
    ("---\nallowed-tools: Read, Grep\n---\n", "true"),  # a boolean now
    ("---\nallowed-tools: Read, Grep\n---\n", "Bash(a---b)"),  # Claude Code's fence moves
    ("---\nallowed-tools: Read, Grep # c\n---\n", "Read"),  # a comment after it
    ("---\nallowed-tools: [Read, Grep]\n---\n", "[Read]"),  # not a plain value
    ("---\nallowed-tools:\n  Read, Grep\n---\n", "Read"),  # not on its key's line
    # Neither the key's lines alone: a key not at column 0, a line after them that a value
    # may continue onto, a tab, a quote left open, Claude Code's '---' inside them.
    ("---\n  allowed-tools: [Read]\n  z: 1\n---\n", "[Read, Grep]"),
    ("---\nallowed-tools: [Read]\n  # c\nz: 1\n---\n", "Read"),
    ("---\nallowed-tools: [Read]\n\"z\": 1\n---\n", "[Grep]"),
    ("---\nallowed-tools: [Read]\nz: 1\n---\n", "[Read,\tGrep]"),
    ("---\nallowed-tools: [Read]\nz: 1\n---\n", '"Read'),
    ("---\nallowed-tools: [Read]\nz: 1\n---\n", "[Bash(a---b)]"),
])
def test_the_branch_declines_what_it_is_not_sure_of(
        monkeypatch: pytest.MonkeyPatch, old_text: str, new_value: str) -> None:
    asked: list[str] = []

    def whole(text: str, path: str | None = None, scans: Sequence[Scan] = ()) -> object:
        asked.append(text)
        return read_skill(text, path, scans=scans)

    old = read_skill(old_text, "SKILL.md")
    value = old.allowed_tools
    assert value is not None
    new_text = old_text[:value.start] + new_value + old_text[value.end:]
    monkeypatch.setattr(reread_module, "read_skill", whole)
    reread_module._lines_read.cache_clear()  # lines read before would not ask the reader
    got = _outcome(reread, old, new_text)
    assert asked[-1:] == [new_text]  # after the key's lines alone, maybe
    assert got == _outcome(read_skill, new_text, "SKILL.md")


_KEY_LINES = st.sampled_from([
    "allowed-tools: [{0}]", "allowed-tools: [{0},\n  {1}]", "allowed-tools:\n  - {0}\n  - {1}",
    "allowed-tools:\n- {0}  # c\n- '{1}'", "allowed-tools: |\n  {0}\n  {1}",
    "allowed-tools: >-\n  {0}\n\n  {1}", 'allowed-tools: "{0}, {1}"', "allowed-tools: '{0}'",
    "allowed-tools: {0},\n  {1}", "allowed-tools:\n  {0} {1}", "allowed-tools: {0} # c",
    "allowed-tools: [{0}]\n  # c", "allowed-tools: {{{0}: {1}}}", "allowed-tools:",
])


@settings(max_examples=examples(3000), deadline=None)
@given(st.lists(_LINES, max_size=3), st.lists(_LINES, max_size=3), _KEY_LINES, _KEY_LINES,
       _TOKENS, _TOKENS, st.booleans())
def test_rewritten_key_lines_read_as_the_whole_reader_reads_them(
        before: list[str], after: list[str], old_form: str, new_form: str, first: str,
        second: str, dots: bool) -> None:
    """Any form replaced by any other, the new one holding any token (the branch that reads
    the key's lines alone sees most of them)."""
    fence = "..." if dots else "---"
    old_text = "\n".join(["---", *before, old_form.format("Read", "Grep"), *after, fence,
                          "Body", ""])
    try:
        old = read_skill(old_text, "SKILL.md")
    except SkillFileError:
        return
    value = old.allowed_tools
    if value is None:
        return
    new_text = (old_text[:value.key_start] + new_form.format(first, second)
                + old_text[value.line_end:])
    assert _outcome(reread, old, new_text) == _outcome(read_skill, new_text, "SKILL.md")


PLANS = [["Read"], ["Read", "Grep", "Glob", "Bash(git *)", "Bash(gh *)"], ["Bash(*)"],
         ["Write", "Edit"]]


@pytest.mark.skipif(not REAL_SKILLS.is_dir(), reason="the real-skills corpus is not beside "
                    "the project")
@pytest.mark.parametrize("plan", PLANS, ids=lambda p: ",".join(p))
def test_every_rewrite_of_the_real_skills_reads_back_as_the_whole_reader_reads_it(
        plan: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    pairs: list[tuple[object, str]] = []
    real = reread_module.reread

    def recording(old: object, text: str) -> object:
        pairs.append((old, text))
        return real(old, text)  # type: ignore[arg-type]

    monkeypatch.setattr("skillgrant.skillfile.builder.reread", recording)
    for path in sorted(REAL_SKILLS.glob("*.md")):
        apply_to_text(path.read_text(encoding="utf-8"), Plan.from_entries(plan), path=path.name)
    assert pairs
    for old, text in pairs:
        assert _outcome(real, old, text) == _outcome(read_skill, text,
                                                      old.path)  # type: ignore[attr-defined]


_AROUND = st.sampled_from([
    "name: x", "description: d", "# a comment", "  # an indented comment", "other: [a, b]",
    "other:\n  - a\n  - b", "other: |\n  block\n", "x: 1", "empty:", "  indented: value",
    "k: &a v", "'quoted': key", "\"q\": 1", "? complex", "- item", "-x: 1", "[a]: b",
    "Zed: tab\tafter", "t: \"a\r\"", "", "    ", "k: [a]x", "d: 'x --- y'", "\tk: 1",
])


@settings(max_examples=examples(3000), deadline=None)
@given(st.lists(_AROUND, max_size=3), st.lists(_AROUND, max_size=3),
       st.lists(_AROUND, max_size=3), st.lists(_AROUND, max_size=3), _KEY_LINES, _TOKENS,
       _TOKENS, st.sampled_from(["\n", "\r\n"]))
def test_key_lines_remembered_by_the_first_read_read_as_in_any_document(
        before: list[str], after: list[str], other_before: list[str], other_after: list[str],
        form: str, first: str, second: str, newline: str) -> None:
    """The reader keeps ``allowed-tools`` by the text of its lines (``skillfile.keptlines``):
    the same lines in another document, anything before and after them, read as the whole
    reader reads that document with nothing kept."""
    lines = form.format(first, second)
    texts = [newline.join(["---", *around[0], lines, *around[1], "---", "Body", ""])
             for around in ((before, after), (other_before, other_after))]
    keptlines._BY_LINES.clear()
    _outcome(read_skill, texts[0], "SKILL.md")  # its lines kept, maybe
    kept = _outcome(read_skill, texts[1], "SKILL.md")
    keptlines._BY_LINES.clear()
    assert kept == _outcome(read_skill, texts[1], "SKILL.md")


def test_the_first_read_takes_key_lines_kept_from_another_document() -> None:
    keptlines._BY_LINES.clear()
    first = read_skill("---\nname: a\nallowed-tools: [Read, Grep]\nz: 1\n---\n")
    assert len(keptlines._BY_LINES) == 1
    second = read_skill("---\ndescription: longer\nallowed-tools: [Read, Grep]\n---\nB\n")
    assert second.allowed_tools is not None and first.allowed_tools is not None
    assert second.allowed_tools.entry_starts == (40, 46)
    assert second.allowed_tools == first.allowed_tools.moved(12)


@pytest.mark.parametrize("first, second", [
    # the same lines after a key's indentation: not at column 0, not kept
    ("---\n  allowed-tools: [Read, Grep]\n---\n", "---\nallowed-tools: [Read, Grep]\n---\n"),
    ("---\n  allowed-tools:\n  - Read\n---\n", "---\nallowed-tools:\n  - Read\n---\n"),
    # a tab after a dash: read as a space only where the whole frontmatter needs it
    ("---\nallowed-tools:\n  -\tRead\n---\n", "---\nallowed-tools:\n  -\tRead\nz: 1\n---\n"),
])
def test_key_lines_the_first_read_does_not_keep(first: str, second: str) -> None:
    keptlines._BY_LINES.clear()
    _outcome(read_skill, first, "SKILL.md")
    kept = _outcome(read_skill, second, "SKILL.md")
    keptlines._BY_LINES.clear()
    assert kept == _outcome(read_skill, second, "SKILL.md")


def test_a_moved_value_and_a_spliced_document_are_the_dataclass_replacements() -> None:
    """``AllowedTools.moved``, ``placed`` and ``SkillDoc.spliced`` name every field (not
    ``dataclasses.replace``): a field added later must be added there too."""
    from dataclasses import fields, replace

    from skillgrant.skillfile.doc import AllowedTools, Item, SkillDoc

    assert list(AllowedTools._fields) == [
        "form", "value", "entries", "key_start", "key_column", "start", "end", "line_end",
        "separator", "multiline", "items", "item_prefix", "entry_starts", "entry_ends"]
    assert [f.name for f in fields(SkillDoc)] == [
        "path", "text", "newline", "has_bom", "yaml_start", "yaml_end", "body_start",
        "metadata", "allowed_tools", "insert_at", "insert_column", "runtime_note", "retried"]
    doc = read_skill("---\nname: x\nallowed-tools:\n  - Read # r\n  - 'Grep'\ndescription: d\n"
                     "---\nB\n", "SKILL.md")
    value = doc.allowed_tools
    assert value is not None
    moved = value.moved(7)
    assert moved == value._replace(
        key_start=value.key_start + 7, start=value.start + 7, end=value.end + 7,
        line_end=value.line_end + 7,
        items=tuple(i._replace(start=i.start + 7, end=i.end + 7, block_start=i.block_start + 7,
                               block_end=i.block_end + 7) for i in value.items),
        entry_starts=tuple(a + 7 for a in value.entry_starts),
        entry_ends=tuple(a + 7 for a in value.entry_ends))
    assert type(moved) is AllowedTools and all(type(i) is Item for i in moved.items)
    assert value.placed(1, 2, 3, 4, (), (5,), (6,)) == value._replace(
        key_start=1, start=2, end=3, line_end=4, items=(), entry_starts=(5,), entry_ends=(6,))
    for start in (0, doc.insert_at, len(doc.text)):
        assert doc.spliced("t", start, 3, {"k": 1}, moved) == replace(
            doc, text="t", yaml_end=doc.yaml_end + 3, body_start=doc.body_start + 3,
            metadata={"k": 1}, allowed_tools=moved,
            insert_at=doc.insert_at + (3 if doc.insert_at > start else 0))


def test_a_rewritten_value_is_the_dataclass_replacement() -> None:
    """``AllowedTools.rewritten`` (the read-back branches' new value) keeps the key, its place
    and form, and takes every other field given: ``_replace`` of those fields."""
    from skillgrant.skillfile.doc import Item

    doc = read_skill("---\nname: x\nallowed-tools:\n  - Read # r\n  - 'Grep'\ndescription: d\n"
                     "---\nB\n", "SKILL.md")
    value = doc.allowed_tools
    assert value is not None
    items = (Item("Glob", "plain", 40, 44, 36, 44),)
    assert value.rewritten(("Glob",), ("Glob",), 44, 45, ", ", False, items, (40,), (44,)) == \
        value._replace(value=("Glob",), entries=("Glob",), end=44, line_end=45, separator=", ",
                       multiline=False, items=items, entry_starts=(40,), entry_ends=(44,))


def test_the_reader_gives_whether_the_runtimes_frontmatter_is_ours_as_worked_out() -> None:
    """``SkillDoc.runtime_span_same``, which the reader gives each document it reads (its
    ``same``) and the read-back's branches ask, is what working it out from the document's
    text gives: on generated frontmatters with bodies that close them early or late."""
    import sys
    from pathlib import Path

    from skillgrant.skillfile.doc import SkillDoc

    sys.path.insert(0, str(Path(__file__).parent / "oracle"))
    from frontmatter_gen import texts

    worked_out = SkillDoc.runtime_span_same.func
    read = both = 0
    for number, yaml_text in enumerate(texts(43, 6_000)):
        body = ("Body\n", "a---b\n", "\n---\nx: y\n")[number % 3]
        lead = "\n" if number % 7 == 0 else ""
        # A value holding '---' (the runtime's frontmatter ends there), before or after.
        dashes = ("", "note: a---b\n")[number % 2]
        try:
            doc = read_skill(f"---\n{lead}{dashes if number % 4 < 2 else ''}{yaml_text}"
                             f"{dashes if number % 4 >= 2 else ''}---\n{body}")
        except SkillFileError:
            continue
        read += 1
        assert "runtime_span_same" in vars(doc) or doc.retried is not None
        given = doc.runtime_span_same
        assert given == worked_out(doc)
        both += given
    assert read > 500 and 0 < both < read


@pytest.mark.parametrize(("new_text", "problem"), [
    ("---\nname: x\nallowed-tools: Read\n---\nBody\n", None),
    ("---\nname: x\nallowed-tools: Read\n---\nBody!\n", "the body would change"),
    ("---\nname: x\nallowed-tools: Read\n---\nBod\n", "the body would change"),
    ("---\nname: x\nallowed-tools: Read\n---\nBodx\n", "the body would change"),
    ("---\nname: x\nallowed-tools: Read\n---\nBody\n\n", "the body would change"),
    ("---\nname: x\nallowed-tools: Read\n---\n", "the body would change"),
    ("---\nname: y\nallowed-tools: Read\n---\nBody\n", "another frontmatter key would change"),
    ("---\nallowed-tools: Read\nname: x\n---\nBody\n", None),
    ("---\nname: x\nallowed-tools: Read\nz: 1\n---\nBody\n",
     "another frontmatter key would change"),
    ("---\nallowed-tools: Read\n---\nBody\n", "another frontmatter key would change"),
])
def test_a_rewrite_changing_the_body_or_another_key_is_refused(new_text: str,
                                                              problem: str | None) -> None:
    """``builder._verify``'s checks of what a rewrite leaves alone, against their plain
    statement: the metadata less allowed-tools, and the text after the frontmatter."""
    from skillgrant.skillfile.builder import _verify

    old = read_skill("---\nname: x\nallowed-tools: Read, Bash\n---\nBody\n")
    if problem is None:
        _verify(old, new_text, ["Read"])
        return
    with pytest.raises(SkillFileError, match=problem):
        _verify(old, new_text, ["Read"])


_BODY_PIECES = st.sampled_from(["a", "\n", "é", "字", "😀", "---", "Body", " ", "x: 1\n"])
_BODY = st.lists(_BODY_PIECES, max_size=8).map("".join)


@settings(max_examples=examples(400), deadline=None)
@given(_BODY, _BODY, _BODY, st.integers(0, 60))
def test_the_body_sliced_once_answers_as_the_slices(body: str, other: str, head: str,
                                                    at: int) -> None:
    """``SkillDoc.ends_as`` and ``with_body`` (the body sliced once a document: the splice,
    the read-back's branches and ``_verify`` share it) answer as the slices they stand for,
    for an offset before the body, in it, or past the text, on texts beyond Latin-1 too."""
    doc = read_skill(f"---\nname: x\nallowed-tools: Read, Bash\n---\n{body}")
    at = min(at, len(doc.text) + 2)
    for text in (head + doc.text[at:], other + doc.text[min(at + 1, len(doc.text)):],
                 head + other, doc.text, head + doc.body):
        assert doc.ends_as(text, at) == text.endswith(doc.text[at:])
    assert doc.with_body(at, head) == head + doc.text[at:]
    assert doc.body == doc.text[doc.body_start:]
