"""The read-back's branch for a file read through the runtime's re-quote retry
(``reread._retried_lines_replaced``) against the whole reader it declines to: on every
rewrite of the key's lines, the same document (its re-quoted reading and scans too) or the
same error. The runtime's side is pinned by the Bun differential (tests/oracle)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from conftest import REAL_SKILLS
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant.errors import SkillFileError
from skillgrant.plan import Plan
from skillgrant.skillfile import reread as reread_module
from skillgrant.skillfile.builder import _decide, _spliced
from skillgrant.skillfile.flowlenient import Scan
from skillgrant.skillfile.reread import reread
from skillgrant.skillfile.spans import read_skill


def _outcome(read: object, *args: object) -> object:
    try:
        doc = read(*args)  # type: ignore[operator]
    except SkillFileError as e:
        return ("error", str(e))
    return doc, doc.scans, doc.retried_reading


#: Lines Bun rejects, and the runtime's retry re-quotes (or not), and others around them.
_REJECTED = st.sampled_from([
    "argument-hint: [file.typ] [output.pdf]", "k: [a]x", "description: a: b",
    "description: {X} (e.g., \"y\")", "d: 'q' x", "description: Run it: now",
    "x: [a, b] [c]", "y: a # b: c",
])
_AROUND = st.sampled_from([
    "name: x", "description: d", "# a comment", "other: [a, b]", "other:\n  - a\n  - b",
    "other: |\n  block\n", "x: 1", "empty:", "desc: 'x --- y'", "z: \"q\"", "\tk: 1",
    "w: a: b", "v: [a]x",
])
_KEY_LINES = st.sampled_from([
    "allowed-tools: {0}, {1}", "allowed-tools: \"{0}, {1}\"", "allowed-tools: [{0}, {1}]",
    "allowed-tools:\n  - {0}\n  - {1}", "allowed-tools: |\n  {0}\n  {1}", "allowed-tools: {0}",
    "allowed-tools: '{0}'", "allowed-tools: {0},\n  {1}", "allowed-tools: [{0},\n  {1}]",
    "allowed-tools:\n- {0}  # c\n- '{1}'", "allowed-tools: {0} # c", "allowed-tools:",
])
_TOKENS = st.sampled_from([
    "Read", "Grep", "Bash(git *)", "Bash(gh pr list:*)", "Bash(a---b)", "---", "...", "true",
    "x: y", "a #b", "#", "[x]", "{x}", "*", "&a", "!t", "'q'", '"q"', "é", "\t", "\n",
    "\n  x", "\n---\n", "\n...\n", "?", "-", "%", "@", "`", "|", ">", "\\", "${X}",
])


def _rewritten(old_text: str, key_lines: str) -> tuple[object, str] | None:
    try:
        old = read_skill(old_text, "SKILL.md")
    except SkillFileError:
        return None
    value = old.allowed_tools
    if value is None:
        return None
    return old, old_text[:value.key_start] + key_lines + old_text[value.line_end:]


@settings(max_examples=examples(4000), deadline=None)
@given(st.lists(_AROUND, max_size=2), _REJECTED, st.lists(_AROUND, max_size=2), _KEY_LINES,
       _KEY_LINES, _TOKENS, _TOKENS, st.lists(_AROUND, max_size=2))
def test_rewritten_key_lines_of_a_retried_file_read_as_the_whole_reader_reads_them(
        before: list[str], rejected: str, between: list[str], old_form: str, new_form: str,
        first: str, second: str, after: list[str]) -> None:
    old_text = "\n".join(["---", *before, rejected, *between, old_form.format("Read", "Grep"),
                          *after, "---", "Body", ""])
    found = _rewritten(old_text, new_form.format(first, second))
    if found is None:
        return
    old, new_text = found
    assert _outcome(reread, old, new_text) == _outcome(read_skill, new_text, "SKILL.md")


@pytest.mark.parametrize("old_text, new_text", [
    ("---\ndescription: Compile it\nargument-hint: [f.typ] [o.pdf]\n"
     "allowed-tools: Bash(tinymist:*), Glob, Read\n---\nBody\n",
     "---\ndescription: Compile it\nargument-hint: [f.typ] [o.pdf]\n"
     "allowed-tools: \"Glob, Read\"\n---\nBody\n"),
    ("---\ndescription: a: b\nallowed-tools: Read, Grep, Glob\nz: 1\n---\n",
     "---\ndescription: a: b\nallowed-tools: Read\nz: 1\n---\n"),
    ("---\nk: [a]x\nallowed-tools:\n  - Read\n  - Bash(rm *)\n  - Grep\nz: 1\n---\n",
     "---\nk: [a]x\nallowed-tools:\n  - Read\n  - Grep\nz: 1\n---\n"),
    ("---\nk: [a]x\nallowed-tools: [Read, 'Bash(rm *)']\n---\n",
     "---\nk: [a]x\nallowed-tools: [Read]\n---\n"),
])
def test_the_branch_reads_a_retried_rewrite_without_the_whole_reader(
        monkeypatch: pytest.MonkeyPatch, old_text: str, new_text: str) -> None:
    old = read_skill(old_text, "SKILL.md")
    assert old.retried is not None and old.retried_reading is not None
    whole = _outcome(read_skill, new_text, "SKILL.md")

    def refused(text: str, path: str | None = None,
                scans: Sequence[Scan] = ()) -> object:
        assert text != new_text, "the whole reader was asked"
        return read_skill(text, path, scans=scans)  # the key's lines alone, re-quoted

    monkeypatch.setattr(reread_module, "read_skill", refused)
    assert _outcome(reread, old, new_text) == whole


@pytest.mark.parametrize("old_text, key_lines", [
    # Composed as written now (the whole reader reads it directly), a fence among the new
    # lines (both readers' and Claude Code's), a value the runtime's retry may read otherwise
    # as written, a tab after a dash, and a key whose retry is refused.
    ("---\nk: [a]x\nallowed-tools: Read\n---\n", "allowed-tools: Read\nk: 1"),
    ("---\nk: [a]x\nallowed-tools: Read\nz: 1\n---\n", "allowed-tools: |\n...\n  x"),
    ("---\nk: [a]x\nallowed-tools: Read\nz: 1\n---\n", "allowed-tools: Bash(a---b)"),
    ("---\nk: [a]x\nallowed-tools: Read\nz: 1\n---\n", "allowed-tools: 'Read' x: y"),
    ("---\nk: [a]x\nallowed-tools: Read\nz: 1\n---\n", "allowed-tools: Read #: x"),
    ("---\nk: [a]x\nallowed-tools: Read\nz: 1\n---\n", "allowed-tools:\n  -\tRead"),
    ("---\nk: [a]x\nallowed-tools: Read\nz: 1\n---\n", "allowed-tools: [a]#x"),
])
def test_the_retried_branch_declines_what_it_is_not_sure_of(
        monkeypatch: pytest.MonkeyPatch, old_text: str, key_lines: str) -> None:
    found = _rewritten(old_text, key_lines)
    assert found is not None
    old, new_text = found
    assert old.retried is not None  # type: ignore[attr-defined]
    asked: list[str] = []

    def whole(text: str, path: str | None = None, scans: Sequence[Scan] = ()) -> object:
        asked.append(text)
        return read_skill(text, path, scans=scans)

    monkeypatch.setattr(reread_module, "read_skill", whole)
    reread_module._lines_read.cache_clear()
    got = _outcome(reread, old, new_text)
    assert asked[-1:] == [new_text]
    assert got == _outcome(read_skill, new_text, "SKILL.md")


PLANS = [["Read"], ["Read", "Grep", "Glob", "Bash(git *)", "Bash(gh *)"], ["Bash(*)"],
         ["Write", "Edit"], ["Glob", "Read", "WebFetch"]]


@pytest.mark.skipif(not REAL_SKILLS.is_dir(), reason="the real-skills corpus is not beside "
                    "the project")
def test_the_real_retried_files_read_back_by_the_branch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Real 09, 15 and 39 (read through the retry, and so their rewrites) read back by the
    branch, as the whole reader reads them."""
    asked: list[str] = []
    real = read_skill  # (spans.read_skill: the one reread calls)

    def whole(text: str, path: str | None = None, scans: Sequence[Scan] = ()) -> object:
        asked.append(text)
        return real(text, path, scans=scans)

    for prefix in ("09-", "15-", "39-"):
        [path] = REAL_SKILLS.glob(f"{prefix}*.md")
        old = read_skill(path.read_text(encoding="utf-8"), path.name)
        assert old.retried is not None
        for entries in PLANS:
            plan = Plan.from_entries(entries)
            new_text = _spliced(old, _decide(old, plan, path.name, None).allowed)
            assert new_text is not None
            monkeypatch.setattr(reread_module, "read_skill", whole)
            got = _outcome(reread, old, new_text)
            monkeypatch.setattr(reread_module, "read_skill", real)
            assert new_text not in asked
            assert got == _outcome(read_skill, new_text, path.name)
