"""The builder stage (semantics §6): golden files, tables, the atomic write and the real corpus."""

from __future__ import annotations

import csv
import logging
import os
import stat
from pathlib import Path

import pytest
from pinned import claude_plan

from skillgrant import SkillFileError
from skillgrant.plan.model import Plan
from skillgrant.prover import prove
from skillgrant.skillfile.builder import (
    apply_to_file,
    apply_to_text,
    decode_skill,
    read_skill,
    splice_allowed_tools,
    write_atomic,
)
from skillgrant.skillfile.yamlspan import double_quote, plain_ok, render_scalar

GOLDEN = Path(__file__).resolve().parent / "skillfiles"
CASES = sorted(p for p in GOLDEN.iterdir() if p.is_dir())
REAL_SKILLS = Path(os.environ.get(
    "SKILLGRANT_REAL_SKILLS",
    Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "real-skills"))


def _plan_file(case: Path) -> Path:
    (found,) = [p for p in case.iterdir() if p.stem in ("plan", "settings")]
    return found


def _allowed_lines(text: str) -> tuple[int, int]:
    """0-based [first, last) line range of the allowed-tools key and its value; an absent key
    is an empty range where it would be inserted."""
    doc = read_skill(text)
    value = doc.allowed_tools
    if value is None:
        line = text.count("\n", 0, doc.insert_at)
        return line, line
    return text.count("\n", 0, value.key_start), text.count("\n", 0, value.line_end) + 1


def assert_only_allowed_lines_changed(old: str, new: str) -> None:
    """Every line outside the allowed-tools lines is identical, in order."""
    old_lines, new_lines = old.splitlines(keepends=True), new.splitlines(keepends=True)
    a, b = _allowed_lines(old)
    c, d = _allowed_lines(new) if "allowed-tools" in read_skill(new).metadata else (a, a)
    assert old_lines[:a] == new_lines[:c]
    assert old_lines[b:] == new_lines[d:]


# --- golden corpus -------------------------------------------------------------------------

def test_the_golden_corpus_is_large_enough() -> None:
    assert len([c for c in CASES if (c / "expected.md").exists()]) >= 20


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden(case: Path) -> None:
    # The goldens are Claude Code's reading; Copilot CLI's drops are the next test's.
    plan = claude_plan(Plan.load(_plan_file(case)))
    text = decode_skill((case / "input.md").read_bytes())
    if (case / "error.txt").exists():
        with pytest.raises(SkillFileError) as info:
            apply_to_text(text, plan, path="input.md")
        assert str(info.value) == (case / "error.txt").read_text(encoding="utf-8").rstrip("\n")
        return
    expected = (case / "expected.md").read_bytes()
    new_text, _ = apply_to_text(text, plan, path="input.md")
    assert new_text.encode("utf-8") == expected
    assert apply_to_text(new_text, plan, path="input.md")[0] == new_text
    assert_only_allowed_lines_changed(text, new_text)


def test_a_golden_under_every_runtime_drops_what_copilot_reads_wider() -> None:
    # Judged by default under Copilot CLI too (issue 30): the plan's `Bash(pnpm build *)` is the
    # command key `pnpm build *` there, which no command has, while `Bash(pnpm build)` approves
    # commands by a key whose length Copilot's profile has not measured for pnpm: not known to
    # be within the plan there. So the entry the Claude Code golden keeps is dropped.
    case = GOLDEN / "29-settings-json-plan"
    text = decode_skill((case / "input.md").read_bytes())
    _, decision = apply_to_text(text, Plan.load(_plan_file(case)), path="input.md")
    (pnpm,) = [v for v in decision.dropped if v.entry == "Bash(pnpm build)"]
    assert pnpm.status == "unknown" and "Copilot CLI" in pnpm.reason
    _, claude = apply_to_text(text, claude_plan(Plan.load(_plan_file(case))), path="input.md")
    assert "Bash(pnpm build)" in claude.allowed


def test_golden_restore_is_reported() -> None:
    case = GOLDEN / "19-restore-absent-after-description"
    text = (case / "input.md").read_text(encoding="utf-8")
    _, decision = apply_to_text(text, Plan.load(case / "plan.yaml"))
    assert decision.restored
    assert decision.allowed == ["Bash(gh *)", "Read", "Grep"]


# --- reading: forms and separators ---------------------------------------------------------

@pytest.mark.parametrize(("value", "form", "entries", "separator"), [
    ("Read, Grep", "plain", ("Read", "Grep"), ", "),
    ("Read Grep", "plain", ("Read", "Grep"), " "),
    ("Read,Grep", "plain", ("Read", "Grep"), ","),
    ("Read", "plain", ("Read",), None),
    ("'Read Bash(a b)'", "single-quoted", ("Read", "Bash(a b)"), " "),
    ('"Read, Grep"', "double-quoted", ("Read", "Grep"), ", "),
    ('""', "double-quoted", (), None),
    ("[Read, Grep]", "flow-list", ("Read", "Grep"), None),
    ("[]", "flow-list", (), None),
    ("\n  - Read\n  - Grep Glob", "block-list", ("Read", "Grep", "Glob"), None),
    ("|\n  Read\n  Grep", "literal", ("Read", "Grep"), "\n"),
    (">-\n  Read,\n  Grep", "folded", ("Read", "Grep"), ", "),
])
def test_read_forms(value: str, form: str, entries: tuple[str, ...],
                    separator: str | None) -> None:
    doc = read_skill(f"---\nname: x\nallowed-tools: {value}\n---\nbody\n")
    assert doc.allowed_tools is not None
    assert (doc.allowed_tools.form, doc.allowed_tools.entries,
            doc.allowed_tools.separator) == (form, entries, separator)


def test_read_skill_metadata_comes_from_python_frontmatter() -> None:
    doc = read_skill("\ufeff---\r\nname: x\r\ncount: 3\r\n...\r\nbody")
    assert dict(doc.metadata) == {"name": "x", "count": 3}
    assert (doc.has_bom, doc.newline, doc.allowed_tools) == (True, "\r\n", None)


def test_non_utf8_is_located() -> None:
    with pytest.raises(SkillFileError) as info:
        decode_skill(b"---\nname: caf\xe9\n---\n", "SKILL.md")
    assert str(info.value) == "SKILL.md:2:10: the file is not UTF-8: byte 0xE9 cannot be decoded"


def test_a_date_that_does_not_load_is_an_error_not_a_crash() -> None:
    with pytest.raises(SkillFileError, match="does not load"):
        read_skill("---\ncreated: 2024-13-45\nallowed-tools: Read\n---\n")


def test_python_frontmatter_must_agree() -> None:
    # A "--- " line with trailing spaces is a fence to both readers: they agree.
    doc = read_skill("---  \nallowed-tools: Read\n---   \nbody\n")
    assert doc.allowed_tools is not None and doc.allowed_tools.entries == ("Read",)


# --- rendering -----------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "flow", "ok"), [
    ("Read", False, True),
    ("Bash(gh *)", False, True),
    ("Bash(gh *), Read", False, True),
    ("Bash(gh *), Read", True, False),
    ("Bash(x: y)", False, False),
    ("Bash(x #y)", False, False),
    ("*Read", False, False),
    ("'Read'", False, False),
    ("yes", False, False),
    ("123", False, False),
    ("null", False, False),
    ("Read:", False, False),
    (" Read", False, False),
    ("", False, False),
    ("Bash(a\tb)", False, False),
    ("Bash(échelle)", False, True),
])
def test_plain_ok(value: str, flow: bool, ok: bool) -> None:
    assert plain_ok(value, flow=flow) is ok


@pytest.mark.parametrize(("value", "style", "flow", "rendered"), [
    ("Read", "plain", False, "Read"),
    ("Read", "single", False, "'Read'"),
    ("it's", "single", False, "'it''s'"),
    ("Read", "double", False, '"Read"'),
    ("a: b", "plain", False, '"a: b"'),
    ("a\nb", "single", False, '"a\\nb"'),
    ('q"\\', "double", False, '"q\\"\\\\"'),
    ("\x7f\u2028\U0001F600", "double", False, '"\\x7F\\L\U0001F600"'),
    ("a,b", "plain", True, '"a,b"'),
])
def test_render_scalar(value: str, style: str, flow: bool, rendered: str) -> None:
    assert render_scalar(value, style, flow=flow) == rendered


@pytest.mark.parametrize("value", ["a\tb", "\x00", "\ufeff", "é", "\U0001F600", "\\", '"'])
def test_double_quote_round_trips(value: str) -> None:
    text = f"---\nallowed-tools: {double_quote(value)}\n---\n"
    assert read_skill(text).metadata["allowed-tools"] == value


# --- splicing without a decision -----------------------------------------------------------

@pytest.mark.parametrize(("before", "entries", "after"), [
    ("---\nallowed-tools: [Read, Bash]\n---\n", ["Read"], "---\nallowed-tools: [Read]\n---\n"),
    ("---\nallowed-tools: [ Read, Bash ]\n---\n", ["Grep"], "---\nallowed-tools: [ Grep ]\n---\n"),
    ("---\nallowed-tools: []\n---\n", ["Read", "Grep"],
     "---\nallowed-tools: [Read, Grep]\n---\n"),
    ("---\nallowed-tools: ''\n---\n", ["Read"], "---\nallowed-tools: 'Read'\n---\n"),
    ("---\nallowed-tools: Read\n# c\nx: 1\n---\n", [], "---\n# c\nx: 1\n---\n"),
    ("---\nallowed-tools: |\n  Read\n  Grep\n\nx: 1\n---\n", [], "---\n\nx: 1\n---\n"),
    ("---\n  name: x\n  description: d\n---\n", ["Read"],
     "---\n  name: x\n  description: d\n  allowed-tools:\n    - Read\n---\n"),
    ("---\n---\nbody\n", ["Read"], "---\nallowed-tools:\n  - Read\n---\nbody\n"),
    ("---\ndescription: |\n  two\n  lines\n\nname: x\n---\n", ["Read"],
     "---\ndescription: |\n  two\n  lines\nallowed-tools:\n  - Read\n\nname: x\n---\n"),
    ("---\nallowed-tools: a\n---\n", ["Bash(x: y)"],
     '---\nallowed-tools: "Bash(x: y)"\n---\n'),
    ("---\nallowed-tools: [a]\n---\n", ["Bash(a, b)"], '---\nallowed-tools: ["Bash(a, b)"]\n---\n'),
    ("---\nallowed-tools:\n  - a\n---\n", ["Bash(x #y)"],
     '---\nallowed-tools:\n  - "Bash(x #y)"\n---\n'),
    ("---\nallowed-tools: |\n  a\n---\n", ["Bash(a\nb)"],
     '---\nallowed-tools: "Bash(a\\nb)"\n---\n'),
])
def test_splice(before: str, entries: list[str], after: str) -> None:
    assert splice_allowed_tools(before, entries) == after


def test_splice_is_a_no_op_when_entries_match() -> None:
    text = "---\nallowed-tools:   Read ,  Grep   \n---\n"
    assert splice_allowed_tools(text, ["Read", "Grep"]) == text


# --- logging -------------------------------------------------------------------------------

def test_drops_and_restores_are_logged_with_the_file(caplog: pytest.LogCaptureFixture) -> None:
    plan = Plan.from_entries(["Bash(gh *)"])
    with caplog.at_level(logging.WARNING, logger="skillgrant"):
        apply_to_text("---\nallowed-tools: Bash(rm -rf /)\n---\n", plan, path="a/SKILL.md")
    records = [r.skillgrant for r in caplog.records]  # type: ignore[attr-defined]
    dropped = next(r for r in records if r.get("entry") == "Bash(rm -rf /)")
    assert dropped["file"] == "a/SKILL.md"
    assert dropped["status"] == "not_covered"
    assert dropped["witness"] == "rm -rf /"
    assert dropped["reason"]
    assert any(r.get("event") == "restored" and r["file"] == "a/SKILL.md" for r in records)


# --- files ---------------------------------------------------------------------------------

SKILL = b"---\r\nname: x\r\nallowed-tools: Read, Bash\r\n---\r\nbody"


def _skill(tmp_path: Path, data: bytes = SKILL, mode: int = 0o640) -> Path:
    path = tmp_path / "SKILL.md"
    path.write_bytes(data)
    path.chmod(mode)
    return path


def test_apply_to_file_writes_and_keeps_the_mode(tmp_path: Path) -> None:
    path = _skill(tmp_path)
    result = apply_to_file(path, Plan.from_entries(["Read"]))
    assert result.changed and result.written
    assert path.read_bytes() == b"---\r\nname: x\r\nallowed-tools: Read\r\n---\r\nbody"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["SKILL.md"]
    again = apply_to_file(path, Plan.from_entries(["Read"]))
    assert not again.changed and not again.written


def test_dry_run_does_not_write(tmp_path: Path) -> None:
    path = _skill(tmp_path)
    result = apply_to_file(path, Plan.from_entries(["Read"]), dry_run=True)
    assert result.changed and not result.written
    assert path.read_bytes() == SKILL


def test_an_unchanged_file_is_not_rewritten(tmp_path: Path) -> None:
    path = _skill(tmp_path)
    before = path.stat()
    result = apply_to_file(path, Plan.from_entries(["Read", "Bash"]))
    assert not result.changed
    assert path.stat().st_ino == before.st_ino and path.stat().st_mtime_ns == before.st_mtime_ns


def test_a_symlink_is_followed(tmp_path: Path) -> None:
    target = _skill(tmp_path)
    link = tmp_path / "link.md"
    link.symlink_to(target)
    apply_to_file(link, Plan.from_entries(["Read"]))
    assert link.is_symlink()
    assert b"allowed-tools: Read\r\n" in target.read_bytes()


def test_a_bad_file_is_left_untouched(tmp_path: Path) -> None:
    data = b"---\nallowed-tools: Read\nallowed-tools: Bash\n---\n"
    path = _skill(tmp_path, data)
    with pytest.raises(SkillFileError, match="duplicate allowed-tools"):
        apply_to_file(path, Plan.from_entries(["Read"]))
    assert path.read_bytes() == data


def test_a_missing_file_is_a_skill_file_error(tmp_path: Path) -> None:
    with pytest.raises(SkillFileError, match="cannot read the file"):
        apply_to_file(tmp_path / "nope.md", Plan.from_entries(["Read"]))


class _Boom(OSError):
    pass


def _fail(*_args: object, **_kwargs: object) -> None:
    raise _Boom(28, "No space left on device")


@pytest.mark.parametrize("where", ["replace", "fsync", "chmod"])
def test_a_failed_write_leaves_the_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            where: str) -> None:
    path = _skill(tmp_path)
    monkeypatch.setattr(os, where, _fail)
    with pytest.raises(SkillFileError, match="No space left on device") as info:
        apply_to_file(path, Plan.from_entries(["Read"]))
    assert isinstance(info.value.__cause__, _Boom)
    monkeypatch.undo()
    assert path.read_bytes() == SKILL
    assert os.listdir(tmp_path) == ["SKILL.md"]


def test_a_write_that_fails_midway_leaves_the_original(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = _skill(tmp_path)
    real_fdopen = os.fdopen

    class HalfWriter:
        def __init__(self, fd: int, mode: str) -> None:
            self.handle = real_fdopen(fd, mode)

        def __enter__(self) -> HalfWriter:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def write(self, data: bytes) -> int:
            self.handle.write(data[: len(data) // 2])
            self.handle.flush()
            raise _Boom(5, "Input/output error")

    monkeypatch.setattr(os, "fdopen", HalfWriter)
    with pytest.raises(SkillFileError, match="Input/output error"):
        apply_to_file(path, Plan.from_entries(["Read"]))
    monkeypatch.undo()
    assert path.read_bytes() == SKILL
    assert os.listdir(tmp_path) == ["SKILL.md"]


def test_a_file_changed_meanwhile_is_not_overwritten(tmp_path: Path) -> None:
    path = _skill(tmp_path)
    with pytest.raises(SkillFileError, match="changed while"):
        write_atomic(path, b"new", expected=b"something else")
    assert path.read_bytes() == SKILL
    assert os.listdir(tmp_path) == ["SKILL.md"]


# --- the shared corpus of real skills ------------------------------------------------------

def _real_skills() -> list[tuple[str, bool]]:
    index = REAL_SKILLS / "INDEX.tsv"
    if not index.exists():
        return []
    with index.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [(row["file"], "invalid YAML" in row["notes"] or "not valid YAML" in row["notes"])
            for row in rows]


@pytest.mark.parametrize(("name", "broken"), _real_skills() or [("absent", False)])
def test_real_skill(name: str, broken: bool) -> None:
    if not (REAL_SKILLS / name).exists():
        pytest.skip(f"the shared corpus is not at {REAL_SKILLS}")
    text = decode_skill((REAL_SKILLS / name).read_bytes(), name)
    plan = Plan.from_entries(["Read"])
    # The files the index calls invalid YAML: PyYAML, and Bun, reject them as written; Claude
    # Code reads them through its re-quote retry, and so does skillgrant (issue 27).
    assert (read_skill(text, name).retried is not None) == broken
    new_text, decision = apply_to_text(text, plan, path=name)
    assert_only_allowed_lines_changed(text, new_text)
    assert decision.allowed
    assert read_skill(new_text).allowed_tools is not None
    assert list(read_skill(new_text).allowed_tools.entries) == decision.allowed  # type: ignore[union-attr]
    assert all(prove(entry, ["Read"]).covered for entry in decision.allowed)
    assert apply_to_text(new_text, plan, path=name)[0] == new_text


# --- the read-back (semantics §6: re-parse the result to verify it) -------------------------------

def _broken_splice(doc: object, entries: list[str]) -> str:
    """A splicer with a bug: it loses the entries it was asked to write."""
    from skillgrant.skillfile.splice import splice

    return splice(doc, entries[:-1])  # type: ignore[arg-type]


@pytest.mark.parametrize("dry_run", [False, True])
def test_a_rewrite_that_does_not_read_back_is_refused(tmp_path: Path, dry_run: bool,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = _skill(tmp_path, b"---\nname: x\nallowed-tools: Read, Grep, Bash(rm -rf /)\n---\n")
    before = path.read_bytes()
    monkeypatch.setattr("skillgrant.skillfile.builder.splice", _broken_splice)
    with pytest.raises(SkillFileError, match="cannot rewrite allowed-tools safely: "
                                             "allowed-tools would read back as"):
        apply_to_file(path, Plan.from_entries(["Read", "Grep"]), dry_run=dry_run)
    assert path.read_bytes() == before
