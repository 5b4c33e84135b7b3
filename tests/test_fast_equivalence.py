"""Issue 7's rewritten hot spots against the plain code they replace: each JSON writer against
``json.dumps``, composing without the event pass against composing with it, and the walk's
real paths against ``os.path.realpath``; ``artifact_path`` on a table of known answers."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, get_args

import pytest
from checked import checked_names
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant import grants, verdicts
from skillgrant.cli.files import collect as _collect
from skillgrant.errors import SkillFileError
from skillgrant.limits import MAX_FILE_BYTES, MAX_SKILL_BYTES
from skillgrant.reports import escape
from skillgrant.reports.ci import artifact_path
from skillgrant.skillfile import nesting
from skillgrant.skillfile import yamlspan as _yamlspan
from skillgrant.skillfile.builder import read_limited
from skillgrant.skillfile.yamlspan import YamlProblem, compose
from skillgrant.verdicts import Verdict

# --- JSON ------------------------------------------------------------------------------------
# Every JSON writer (reports.escape.JSON_WRITERS) writes the text json.dumps writes with the
# options below; each test runs once with each writer.

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
documents = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                         | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20)
WRITERS = sorted(escape.JSON_WRITERS)


def _text(document: Any) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2)


def _document_text(document: Any) -> str:
    """What ``dumps`` gives: the text, with DEL, C1 controls and line separators escaped."""
    return re.sub("[\x7f-\x9f\u2028\u2029]", lambda m: f"\\u{ord(m.group()):04x}",
                  _text(document)) + "\n"


@pytest.fixture(params=WRITERS)
def writer(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The JSON writer every renderer uses for this test."""
    monkeypatch.setattr(escape, "JSON_WRITER", request.param)
    return str(request.param)


@pytest.mark.parametrize("name", WRITERS)
@given(document=documents)
def test_a_writer_writes_what_json_dumps_writes(name: str, document: Any) -> None:
    assert escape.JSON_WRITERS[name](document, 0) == _text(document)


@pytest.mark.parametrize("name", WRITERS)
@given(document=documents, level=st.integers(min_value=1, max_value=3))
def test_a_fragment_is_the_text_it_stands_for(name: str, document: Any, level: int) -> None:
    wrapped: Any = document
    for _ in range(level):
        wrapped = [wrapped]
    opening = "".join("[\n" + "  " * (depth + 1) for depth in range(level))
    closing = "".join("\n" + "  " * depth + "]" for depth in reversed(range(level)))
    assert _text(wrapped) == opening + escape.JSON_WRITERS[name](document, level) + closing


@pytest.mark.usefixtures("writer")
@pytest.mark.parametrize("document", [
    {"a": {1: "non-string key"}}, {"x": float("nan")}, [[[[]]]], {"": {}},
    {"s": "\x7f\u2028 \"q\" \\ \n\t\x00 é 😀"}, list(range(3)), {"ascii, with DEL": "a\x7fb"},
])
def test_dumps_is_json_dumps_then_escaped(document: Any) -> None:
    expected = _text(document)
    for char in "\x7f\u2028":
        expected = expected.replace(char, f"\\u{ord(char):04x}")
    assert escape.dumps(document) == expected + "\n"


@given(st.text())
def test_safe_json_escapes_what_the_pattern_finds(text: str) -> None:
    reference = re.sub("[\x7f-\x9f\u2028\u2029]", lambda m: f"\\u{ord(m.group()):04x}", text)
    assert escape.safe_json(text) == reference


@pytest.mark.usefixtures("writer")
def test_deep_nesting_is_written_too() -> None:
    deep: Any = "x"
    for _ in range(80):
        deep = {"k": deep}
    assert escape.encode(deep) == _text(deep)


def _run_document(run: Any, files: list[Any], summary: dict[str, int]) -> dict[str, Any]:
    from skillgrant.reports.jsondoc import file_json

    return {"version": 1, "tool": {"name": "skillgrant", "version": "9"},
            "command": run.command, "dry_run": run.dry_run, "plan": run.plan,
            "files": [file_json(r, run.dry_run) for r in files], "summary": summary}


@pytest.mark.usefixtures("writer")
def test_a_spooled_run_document_is_the_whole_document(monkeypatch: pytest.MonkeyPatch) -> None:
    from skillgrant import constrain
    from skillgrant.reports import jsondoc as report_json
    from skillgrant.reports.check import FileError, FileResult, Location, Run, render_json

    decision = constrain(["Bash(gh pr list)", "Bash(rm -rf /)", "read", "Read"], ["Bash(gh *)",
                                                                                   "Read"])
    results = [FileResult(f"s{i}/SKILL.md", f"s{i}/SKILL.md", decision, True, False,
                          Location(3, 1), tuple(Location(3, c) for c in range(4)))
               for i in range(40)]
    results.append(FileResult("bad/SKILL.md", "bad/SKILL.md", error=FileError("no", 1, 2)))
    for dry_run in (False, True):
        run = Run("apply", "plan.yaml", results, dry_run=dry_run)
        whole = _document_text(_run_document(run, results, {"files": 41, "changed": 40,
                                                            "applied": 0, "errors": 1}))
        with monkeypatch.context() as patch:
            patch.setattr(report_json, "MAX_SPOOLED_CHARS", 100)  # on disk after two files
            assert render_json(run, version="9") == whole
        assert render_json(run, version="9") == whole
    empty = Run("check", None)
    assert render_json(empty, version="9") == _document_text(_run_document(
        empty, [], {"files": 0, "changed": 0, "applied": 0, "errors": 0}))


# --- composing YAML --------------------------------------------------------------------------

def _shape(node: Any) -> Any:
    if node is None:
        return None
    value = node.value
    if isinstance(value, list):
        value = [tuple(map(_shape, v)) if isinstance(v, tuple) else _shape(v) for v in value]
    return (type(node).__name__, node.tag, value, node.start_mark.index, node.end_mark.index,
            getattr(node, "style", None), getattr(node, "flow_style", None))


def _outcome(text: str) -> Any:
    try:
        return _shape(compose(text))
    except YamlProblem as e:
        return ("error", e.message, e.index)


def _both(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    quick = _outcome(text)
    with monkeypatch.context() as patch:
        patch.setattr(_yamlspan, "_compose_shallow", lambda text: (False, None))
        full = _outcome(text)
    return quick, full


YAML_TEXTS = [
    "name: x\ndescription: d\nallowed-tools: Bash(gh *), Read\n",
    "allowed-tools:\n  - Bash(gh *)   # c\n  - 'Read'\n",
    "a: &x 1\nb: *x\n", "a: *undefined\n", "a: &x [*x]\n", "<<: {a: 1}\nb: 2\n",
    "a: [1, 2\n", "a: 1\n---\nb: 2\n", "", "# only a comment\n", "a: !!str 3\n",
    "a: &anchor 1\n", "a: \x07\n", "- - - - x\n", "? [a, b]\n: c\n", "{a: {b: [c, {d: e}]}}",
    "a: b: c\n", "a:\n- x\n- y\n", "[" * 40 + "]" * 40, "- " * 70 + "x\n", "[" * 70 + "]" * 70,
    "a: |\n  *not an alias\n", "x: 'it''s'\ny: \"\\u00e9\"\n",
    # Past 64 of '-:?' but no indicator among them: composed without the event pass.
    "d: " + "a-b:c " * 40 + "\n", "d: " + "a-b:c " * 40 + "\ne: &x 1\nf: *x\n",
    # 70 levels of block mappings, and of '? ' keys: still refused for their depth.
    "".join(" " * i + "a:\n" for i in range(70)) + " " * 70 + "x\n",
    "".join(" " * i + "? a\n" for i in range(70)), "- " * 70 + "\n", "-\t" * 70,
]


@pytest.mark.parametrize("text", YAML_TEXTS)
def test_composing_without_the_event_pass_changes_nothing(text: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    quick, full = _both(text, monkeypatch)
    assert quick == full


@given(st.text(alphabet="ab :-[]{},?*&!|>'\"\n#<", max_size=40))
def test_composing_without_the_event_pass_changes_nothing_on_any_text(text: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        quick, full = _both(text, monkeypatch)
    assert quick == full


def _depth(text: str) -> int:
    """How deep the parser's events nest ``text``'s collections (the reference)."""
    import yaml

    depth = deepest = 0
    for event in yaml.parse(text, Loader=_yamlspan.LOADER):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            deepest = max(deepest, depth)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return deepest


@settings(max_examples=examples(3000))
@given(st.text(alphabet=" -:?ab\n\t\r#'\"|>\x85\u2028", max_size=60))
def test_the_bound_on_collections_holds_without_brackets(text: str) -> None:
    import yaml

    try:
        deepest = _depth(text)
    except yaml.YAMLError:
        return
    assert deepest <= nesting.collections_at_most(text)


@settings(max_examples=examples(3000))
@given(st.text(alphabet=" -:?ab\n\t\r#'\"|>[]{},&!*\x85", max_size=60))
def test_the_bound_on_collections_holds_with_brackets(text: str) -> None:
    """The bound a text with brackets takes (``with_brackets``) counts every collection the
    parser opens, as far as it parses."""
    import yaml

    opened = 0
    try:
        for event in yaml.parse(text, Loader=_yamlspan.LOADER):
            opened += isinstance(event, yaml.CollectionStartEvent)
    except yaml.YAMLError:
        pass  # the collections opened before the error count too
    assert opened <= nesting.with_brackets(text), text


def test_the_bound_with_brackets_counts_no_hyphen_of_a_name() -> None:
    text = 'created: 2026-01-24\nargs: "[--rules] [--since=<date>]"\nname: git-derive-docs\n'
    assert nesting.with_brackets(text) == 5  # three ':' and two '['; 38 of the 40 so


def test_the_safe_character_class_is_the_printable_set() -> None:
    printable = re.compile(r"[\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd"
                           r"\U00010000-\U0010ffff]")
    every = "".join(map(chr, range(0x110000)))
    assert "".join(printable.findall(every)) == "".join(
        c for c in every if _yamlspan.one_line(c))


def test_of_ascii_the_flat_reader_takes_the_printable_characters_as_it_did() -> None:
    from skillgrant.skillfile import flatyaml

    for code in range(128):
        char = chr(code)
        assert char.isprintable() == (flatyaml._SAFE.fullmatch(char) is not None), code


def test_of_ascii_the_text_report_escapes_only_what_is_not_printable() -> None:
    """``printable`` (and so ``brief``) hands back a printable ASCII text as it is: of ASCII,
    the characters its expression escapes are exactly the ones that are not printable."""
    for code in range(128):
        char = chr(code)
        assert char.isprintable() == (escape._UNSAFE.search(char) is None), code


@settings(max_examples=examples(2000), deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x2070), max_size=200)
       | st.text(alphabet="ab \x1b\t\n\x7f\x85\u202e", max_size=200)
       | st.text(alphabet="ab (),*", min_size=150, max_size=200))
def test_printable_and_brief_are_what_they_were(text: str) -> None:
    def escaped(match: re.Match[str]) -> str:
        return escape._NAMED.get(match.group()) or f"\\u{ord(match.group()):04x}"

    assert escape.printable(text) == escape._UNSAFE.sub(escaped, text)
    assert escape.brief(text) == escape._UNSAFE.sub(escaped, grants.shorten(text,
                                                                           escape.ENTRY_SHOWN))


def test_the_c_loader_is_used_where_there_is_one() -> None:
    import yaml

    assert _yamlspan.LOADER is getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _plain_style(shape: Any) -> Any:
    """A node shape with the plain and block styles written one way (libyaml and PyYAML say
    None, '' or False for them)."""
    if not isinstance(shape, tuple) or not shape or shape[0] == "error":
        return shape
    if shape[0] not in ("ScalarNode", "SequenceNode", "MappingNode"):
        return tuple(_plain_style(part) for part in shape)
    kind, tag, value, start, end, style, flow = shape
    if isinstance(value, list):
        value = [_plain_style(v) for v in value]
    return (kind, tag, value, start, end, style or "", bool(flow))


@pytest.mark.parametrize("text", [*YAML_TEXTS, "name: é😀\nallowed-tools: [Read, 'Bash(ü *)']\n",
                                  "a: \"\\u00e9\"\nb: |\n  ü\n"])
def test_the_pure_python_loader_gives_the_same_nodes(text: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import yaml

    with_c = _plain_style(_outcome(text))
    monkeypatch.setattr(_yamlspan, "LOADER", yaml.SafeLoader)  # the fallback without libyaml
    without = _plain_style(_outcome(text))
    if with_c is not None and with_c[0] == "error":  # syntax errors are worded differently
        assert without[0] == "error"
    else:
        assert without == with_c


# --- paths and files -------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "root", "expected"), [
    ("/tmp/a/x/SKILL.md", "/tmp/a", "x/SKILL.md"),
    ("/tmp/a", "/tmp/a", "."),
    ("/tmp/ab/c", "/tmp/a", "/tmp/ab/c"),  # a sibling with the root's name as a prefix
    ("/tmp/a/./b//c", "/tmp/a", "b/c"),
    ("/tmp/a/é d/x", "/", "tmp/a/é d/x"),
    ("/elsewhere/y", "/tmp", "/elsewhere/y"),
])
def test_artifact_path_is_relative_to_the_root_or_absolute(path: str, root: str,
                                                           expected: str) -> None:
    assert artifact_path(Path(path), Path(root)) == expected


def _plain_collect(paths: list[str]) -> list[Path]:
    """The collection as it was written before: realpath for every file."""
    found: list[Path] = []
    for given_path in paths:
        path = Path(given_path)
        if path.is_dir():
            inside = []
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if d not in {".git", ".hg", ".svn",
                                                              "node_modules"})
                if "SKILL.md" in files:
                    inside.append(Path(root) / "SKILL.md")
            found.extend(sorted(inside))
        else:
            found.append(path)
    unique, seen = [], set()
    for path in found:
        key = os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            unique.append(path)
    return unique


def test_the_walk_finds_each_real_file_once(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ["a/SKILL.md", "b/c/SKILL.md", "d/SKILL.md"]:
        (tmp_path / name).parent.mkdir(parents=True)
        (tmp_path / name).write_text("---\n---\n", encoding="utf-8")
    (tmp_path / "e").mkdir()
    (tmp_path / "e" / "SKILL.md").symlink_to(tmp_path / "a" / "SKILL.md")
    (tmp_path / "f").symlink_to(tmp_path / "b", target_is_directory=True)
    (tmp_path / "node_modules" / "x").mkdir(parents=True)
    (tmp_path / "node_modules" / "x" / "SKILL.md").write_text("---\n---\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for paths in (["."], [str(tmp_path)], ["./"], ["e"], ["f"], ["f", "."], ["e", "a", "."]):
        assert _collect(paths) == _plain_collect(paths), paths
    assert [str(p) for p in _collect(["."])] == ["a/SKILL.md", "b/c/SKILL.md", "d/SKILL.md"]
    assert _collect(["a/SKILL.md", ".", "f/c/SKILL.md"]) == [
        Path("a/SKILL.md"), Path("b/c/SKILL.md"), Path("d/SKILL.md")]


@pytest.mark.parametrize("size", [0, 1, 4096, 65537, MAX_FILE_BYTES, MAX_SKILL_BYTES])
def test_read_limited_reads_the_file(tmp_path: Path, size: int) -> None:
    target = tmp_path / "SKILL.md"
    target.write_bytes(bytes(i % 251 for i in range(size)))
    assert read_limited(target) == target.read_bytes()


def test_read_limited_refuses_what_it_always_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.md"
    big.write_bytes(b"x" * (MAX_SKILL_BYTES + 1))
    with pytest.raises(SkillFileError, match="MAX_SKILL_BYTES"):
        read_limited(big)
    with pytest.raises(SkillFileError, match="cannot read the file: not a regular file: a "
                                             "character device"):
        read_limited("/dev/zero")
    with pytest.raises(SkillFileError, match="cannot read the file: Is a directory"):
        read_limited(tmp_path)
    with pytest.raises(SkillFileError, match="No such file or directory"):
        read_limited(tmp_path / "missing.md")


# --- every golden case's JSON document --------------------------------------------------------

SKILLFILES = Path(__file__).parent / "skillfiles"


def _results(tmp_path: Path) -> list[Any]:
    """FileResults of every golden case, as check, apply --dry-run and apply make them, plus
    hostile names and reasons, errors, and values of other types than a result holds."""
    import enum

    from skillgrant.cli.batch import check_file
    from skillgrant.plan.light import load_plan
    from skillgrant.reports.check import FileError, FileResult

    class Line(enum.IntEnum):
        one = 1

    made = []
    for case in sorted(p for p in SKILLFILES.iterdir() if (p / "plan.yaml").is_file()):
        plan = load_plan(str(case / "plan.yaml"))
        target = tmp_path / case.name / "SKILL.md"
        target.parent.mkdir()
        for write, dry_run in ((False, False), (False, True), (True, False)):
            target.write_bytes((case / "input.md").read_bytes())
            result, _ = check_file(target, plan, tmp_path, write=write, dry_run=dry_run)
            made.append(result)
    made.append(FileResult("a\u2028\"b\\", "\x7f", error=FileError("bad \x00", 1, 2)))
    made.append(FileResult("x", "x", error=FileError("m", None, None)))
    made.append(FileResult("x", "x", error=FileError("m", Line.one, 2.5)))  # type: ignore[arg-type]
    return made


@pytest.mark.usefixtures("writer")
def test_every_golden_case_is_the_json_dumps_text(tmp_path: Path) -> None:
    from skillgrant.reports.check import Run, render_json

    results = _results(tmp_path)
    assert len(results) > 100
    for dry_run in (False, True):
        run = Run("apply", "plan.yaml", results, dry_run=dry_run)
        summary = {"files": len(results), "changed": sum(r.changed for r in results),
                   "applied": sum(r.applied for r in results),
                   "errors": sum(r.error is not None for r in results)}
        text = render_json(run, version="9")
        assert text == _document_text(_run_document(run, results, summary))
    assert '"line": 1,\n        "column": 2.5' in text


# --- a file's object laid out at once (issue 17) ----------------------------------------------

def _decided_results() -> list[Any]:
    """Results whose decisions repeat across files, at the same and at other places, with and
    without locations, an empty value, and every kind of verdict."""
    from skillgrant import constrain
    from skillgrant.reports.check import FileResult, Location

    approved = ["Bash(gh *)", "Read"]
    values = [["Bash(gh pr list)", "Bash(rm -rf /)", "read", "Read", "Read"], [],
              ["Bash(gh \u2028x)", "Bash(", "mcp__s(x)", 'Bash(say "hi")'], ["Read"]]
    made = []
    for i in range(60):
        decision = constrain(values[i % len(values)], approved)
        count = len(decision.verdicts)
        places = (tuple(Location(3, 1 + c + i % 3) for c in range(count)) if i % 5
                  else ())
        made.append(FileResult(f"s{i}/SKILL.md", f"s{i}/SKILL.md", decision, bool(i % 2),
                               False, None if i % 7 == 0 else Location(3, 1), places,
                               "diff" if i % 4 == 0 else None, runtime_note=None,
                               text="new\n" if i % 6 == 0 else None))
    return made


def _fragment_is_json_dumps_text(result: Any) -> None:
    from skillgrant.reports import jsondoc

    for dry_run in (False, True):
        expected = _text(jsondoc.file_json(result, dry_run)).replace("\n", "\n    ")
        assert jsondoc.file_fragment(result, dry_run=dry_run) == expected


@pytest.mark.usefixtures("writer")
def test_a_file_object_laid_out_at_once_is_the_json_dumps_text() -> None:
    for result in _decided_results():
        _fragment_is_json_dumps_text(result)


_texts = st.text(max_size=12)
_maybe = st.none() | _texts
_STATUSES = get_args(checked_names(verdicts)["VerdictStatus"])
_verdicts = st.builds(Verdict, _texts, st.sampled_from(_STATUSES), _texts, _maybe, _maybe,
                      _maybe, st.lists(_texts, max_size=3).map(tuple), st.booleans())


@settings(max_examples=examples(300), deadline=None)
@given(verdicts=st.lists(_verdicts, max_size=4), allowed=st.lists(_texts, max_size=3),
       path=_texts, note=_maybe, diff=_maybe, text=_maybe, flags=st.lists(st.booleans(),
                                                                          min_size=3,
                                                                          max_size=3),
       places=st.lists(st.tuples(st.integers(), st.integers()), max_size=5),
       line=st.none() | st.integers())
def test_any_decided_file_object_is_the_json_dumps_text(
        verdicts: list[Any], allowed: list[str], path: str, note: str | None,
        diff: str | None, text: str | None, flags: list[bool],
        places: list[tuple[int, int]], line: int | None) -> None:
    from skillgrant.reports.check import FileResult, Location
    from skillgrant.verdicts import Decision

    decision = Decision(allowed, [], [], flags[0], verdicts)
    result = FileResult(path, path[::-1], decision, flags[1], flags[2],
                        None if line is None else Location(line, 1),
                        tuple(Location(a, b) for a, b in places), diff,
                        runtime_note=note, text=text)
    _fragment_is_json_dumps_text(result)


@settings(max_examples=examples(3000), deadline=None)
@given(st.text(alphabet="ab(),\\ \t\n\u00a0\u3000", max_size=30))
def test_a_plain_value_is_cut_as_the_token_loop_cuts_it(text: str) -> None:
    """The fast path of both splitters (the plain value's pattern) against their
    token-by-token loop."""
    for tokens, nested in (("ours", True), ("runtime", False)):
        assert grants._cut(text, tokens, nested=nested) == grants._cut_by_tokens(
            text, grants._wide(tokens), nested=nested)


@settings(max_examples=examples(3000), deadline=None)
@given(st.text(alphabet="ab(),\\ \t\n\r\v\f\x1c\x85", max_size=30))
def test_on_ascii_text_the_ascii_plain_patterns_are_the_whole_ones(text: str) -> None:
    """The plain value's patterns built from JavaScript's ASCII white space (compiled at import)
    read ASCII text exactly as the ones built from all of it (compiled on first need)."""
    value, entries = grants._plain(text)
    if not text.isascii():
        assert (value, entries) == (grants._wide("plain value"), grants._wide("plain entries"))
        return
    whole = grants._wide("plain value").fullmatch(text)
    assert (value.fullmatch(text) is None) is (whole is None)
    assert entries.findall(text) == grants._wide("plain entries").findall(text)


def test_the_usual_values_take_the_fast_path() -> None:
    for value in ["Bash(gh pr view 1), Bash(gh issue list --label l4 *), Read", "Read Grep",
                  "Read, ", "", "Bash(a\tb)  WebFetch(domain:x.com)", "Read(é)\u3000Grep"]:
        assert grants._plain(value)[0].fullmatch(value), value
    for value in ["a((b))", "a)b", "Foo(x (y) Bash )", "Bash(a\\ b)", "Bash(x"]:
        assert not grants._plain(value)[0].fullmatch(value), value


# --- the closing fence found by one search (issue 17) ----------------------------------------

def _fence_by_lines(text: str, start: int) -> tuple[int, int] | str:
    """The line loop the search replaced: the closing fence's line start and the body's
    start, or which refusal it makes."""
    closing = re.compile(r"(?:---|\.\.\.)[ \t]*\r?")
    foreign = re.compile(r"-{3,}\s*")
    pos = start
    while pos < len(text):
        newline = text.find("\n", pos)
        end = len(text) if newline < 0 else newline
        line = text[pos:end]
        if closing.fullmatch(line):
            return pos, (end if newline < 0 else newline + 1)
        if foreign.fullmatch(line):
            return "dashes"
        pos = end + 1
    return "not closed"


@settings(max_examples=examples(3000))
@given(st.text(alphabet="-.\n \t\r\x0c\x85\u2028a", max_size=40))
def test_the_closing_fence_is_the_first_line_the_loop_finds(rest: str) -> None:
    from skillgrant.skillfile.spans import _Reader

    text = "---\n" + rest
    reader = _Reader(text, "x")
    reader.yaml_start = 4
    reader._refuse_dashes_after_dots = lambda start: None  # type: ignore[method-assign]
    try:
        got: tuple[int, int] | str = reader._closing_fence()
    except SkillFileError as e:
        got = "dashes" if "line of dashes" in e.message else "not closed"
    assert got == _fence_by_lines(text, 4)


# --- the frozen dataclasses a batch makes for every file (issue 17) ----------------------------

def _quick_classes() -> list[type]:
    from skillgrant.reports.ci import FileError
    from skillgrant.reports.results import FileResult
    from skillgrant.skillfile.builder import ApplyResult
    from skillgrant.skillfile.doc import SkillDoc

    return [ApplyResult, FileError, FileResult, SkillDoc]


@pytest.mark.parametrize("cls", _quick_classes(), ids=lambda cls: cls.__name__)
@settings(max_examples=examples(100))
@given(data=st.data())
def test_a_quick_init_makes_what_the_dataclass_init_makes(cls: type, data: st.DataObject) -> None:
    import dataclasses

    from skillgrant.frozen import ORIGINAL_INIT

    fields = dataclasses.fields(cls)
    values = [data.draw(st.none() | st.integers() | st.text(max_size=3)
                        | st.tuples(st.integers())) for _ in fields]
    given_count = data.draw(st.integers(min_value=sum(
        f.default is dataclasses.MISSING for f in fields), max_value=len(fields)))
    by_keyword = data.draw(st.booleans())
    args: list[Any] = values[:given_count] if not by_keyword else []
    kwargs = ({f.name: v for f, v in zip(fields[:given_count], values, strict=False)}
              if by_keyword else {})
    reference: Any = object.__new__(cls)
    getattr(cls, ORIGINAL_INIT)(reference, *args, **kwargs)
    quick = cls(*args, **kwargs)
    assert vars(quick) == vars(reference)
    assert list(vars(quick)) == list(vars(reference))
    assert quick == reference and repr(quick) == repr(reference)
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.__setattr__(fields[0].name, None)
    with pytest.raises(TypeError):
        cls(*values, None)  # one argument too many, as before


def test_quick_init_refuses_what_it_cannot_set() -> None:
    import dataclasses

    from skillgrant.frozen import quick_init

    @dataclasses.dataclass
    class Open:
        a: int

    @dataclasses.dataclass(frozen=True)
    class Checked:
        a: int

        def __post_init__(self) -> None: ...

    @dataclasses.dataclass(frozen=True)
    class Factory:
        a: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class KeywordOnly:
        a: int

    for cls in (Open, Checked, Factory, KeywordOnly, int):
        with pytest.raises(TypeError):
            quick_init(cls)


# --- the runtime's frontmatter found without its lazy scan (issue 17) ------------------------

_RUNTIME_FENCES = ["", "---", "---\n", "---\n---", "---\n\n---", "---\n \n---x", "--- \t\n\n\t---",
                   "----\n---", "---\u2028\n---", "\ufeff---\n---\n", "---x\n---", "---\n--",
                   "---\n\r\n---\r\n", "---\n\u00a0\n---", "\n---\n---"]


@pytest.mark.parametrize("text", _RUNTIME_FENCES)
def test_the_runtimes_frontmatter_is_what_its_regex_finds_on_a_table(text: str) -> None:
    _runtime_frontmatter_is_the_regexs(text)


@settings(max_examples=examples(3000))
@given(st.lists(st.sampled_from(["---", "-", "\n", " ", "\t", "\r", "\u2028", "\u00a0", "\ufeff",
                                 "\x85", "a"]), max_size=12).map("".join))
def test_the_runtimes_frontmatter_is_what_its_regex_finds(text: str) -> None:
    _runtime_frontmatter_is_the_regexs(text)


def _runtime_frontmatter_is_the_regexs(text: str) -> None:
    from skillgrant.grants import JS_WHITESPACE
    from skillgrant.skillfile.runtime import runtime_frontmatter

    space = re.escape(JS_WHITESPACE)
    regex = re.compile(f"---[{space}]*\n(.*?)---[{space}]*\n?", re.DOTALL)
    for candidate in (text, "---" + text, "\ufeff---" + text):
        offset = 1 if candidate.startswith("\ufeff") else 0
        match = regex.match(candidate, offset)
        expected = None if match is None else (match.start(1), match.end(1))
        found = runtime_frontmatter(candidate)
        assert (None if found is None else tuple(found)) == expected
