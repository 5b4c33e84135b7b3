"""``skillgrant lint`` and ``skillgrant diff`` (semantics §8, issue 8): every command × exit code,
every format of both, every plan source, ``REV:path`` from a real git repository, SARIF
validated against the OASIS schema, Markdown escaping checked by rendering it; through typer's
CliRunner and in real ``python -m skillgrant`` processes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner, Result

from skillgrant.cli.app import app
from skillgrant.reports.review import md_code, md_text
from skillgrant.review.lint import RULES
from skillgrant.rules import DIFF_RULES, LINT_RULES

SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"

LINTED = ("# reviewed on the plan screen\nallowed-tools:\n  - Bash(gh *)\n  - Bash(sudo *)\n"
          "  - Bash(\n  - Task(reviewer)\n")
#: SGL117 on LINTED's Task entry (issue 33): the other entries' pre-approvals reach its subagents.
AGENT_REACH = ("`Task(reviewer)` starts subagents, which the plan's other pre-approvals "
               "(`Bash(gh *)`, `Bash(sudo *)`) reach and the skill's own hook does not")
AGENT_REACH_FIX = ("Install the hook that follows the skill into its subagents (`skillgrant hook "
                   "--print-config claude-code --plan PLAN --for-skill NAME`, merged into "
                   ".claude/settings.json), or drop the Agent entry.")
CLEAN = "allowed-tools: Bash(gh pr list), Read(src/**)\n"
OLD = "allowed-tools:\n  - Bash(gh *)\n  - Read(src/**)\n  - WebFetch(domain:api.github.com)\n"
NARROWER = "allowed-tools:\n  - Bash(gh pr list)\n  - read(src/**)\n"
WIDER = ("allowed-tools:\n  - Bash(gh pr list)\n  - Bash(rm -rf /tmp/cache)\n"
         "  - Read(src/**)\n  - LS\n")
SKILL = "---\nname: t\ndescription: d\nallowed-tools: Bash(gh *), Read(src/**)\n---\nbody\n"


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com",
                           "-c", "commit.gpgsign=false", *args], cwd=repo, check=True,
                          capture_output=True, text=True)
    return done.stdout


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository with plans (OLD committed, then changed); the working directory."""
    _git(tmp_path, "init", "-q")
    files = {"plan.yaml": OLD, "linted.yaml": LINTED, "clean.yaml": CLEAN,
             "skills/x/SKILL.md": SKILL}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "approved")
    (tmp_path / "plan.yaml").write_text(WIDER, encoding="utf-8")
    (tmp_path / "narrower.yaml").write_text(NARROWER, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for name in ("SKILLGRANT_DEBUG", "NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=stdin)


def sarif_validator() -> jsonschema.Draft4Validator:
    return jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")))


def one_error_line(result: Result) -> str:
    """The single stderr line of an exit-2 run with nothing on stdout."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("skillgrant: error: "), result.stderr
    return lines[0]


# --- lint: exit codes -----------------------------------------------------------------------

def test_lint_exit_0_when_clean(repo: Path) -> None:
    result = run("lint", "clean.yaml")
    assert result.exit_code == 0, result.output
    assert result.stdout == "clean.yaml: no findings in 2 entries.\n"


def test_lint_exit_1_with_findings_each_located_with_a_fix(repo: Path) -> None:
    result = run("lint", "linted.yaml")
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines() == [
        "linted.yaml:4:5: warning SGL103 command-wrapper: Bash(sudo *)",
        "    `Bash(sudo *)` runs any command, e.g. `sudo rm -rf ~`",
        "    fix: Grant the wrapped commands themselves, e.g. `Bash(sudo apt-get install *)`.",
        "linted.yaml:5:5: error SGL001 invalid-entry: Bash(",
        "    an entry with '(' must end with an unescaped ')' at column 6",
        "    fix: Write `Tool` or `Tool(specifier)`, escaping literal parentheses as `\\(` and "
        "`\\)`.",
        "linted.yaml:6:5: warning SGL117 agent-reach: Task(reviewer)",
        f"    {AGENT_REACH}",
        f"    fix: {AGENT_REACH_FIX}",
        "linted.yaml:6:5: info SGL302 legacy-alias: Task(reviewer)",
        "    `Task` is an old name of `Agent`; the runtime still accepts it",
        "    fix: Write the current name.",
        "    write: Agent(reviewer)",
        "linted.yaml: 4 findings in 4 entries (1 error, 2 warnings, 1 info).",
    ]
    assert result.stderr == ""


def test_lint_an_info_finding_alone_passes_unless_fail_on_info(repo: Path) -> None:
    Path("alias.yaml").write_text("allowed-tools: [Task(reviewer)]\n", encoding="utf-8")
    result = run("lint", "alias.yaml")
    assert result.exit_code == 0 and "SGL" in result.stdout  # reported, not failed on
    assert run("lint", "alias.yaml", "--fail-on", "info").exit_code == 1


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("missing.yaml", None, "skillgrant: error: missing.yaml: cannot read the plan: No such file"),
    ("bad.yaml", "allowed-tools: [Read\n", "skillgrant: error: bad.yaml:2:1: "),
    # Not about the entries: the loader's refusal stands, even with an invalid entry too.
    ("typo.yaml", "allowed-tools: [Bash(]\nshel-tools: [x]\n",
     "skillgrant: error: typo.yaml:2:1: unknown key 'shel-tools' (did you mean 'shell-tools'?)"),
    ("shell.yaml", "allowed-tools: [Bash(]\nshell-tools: {exec_command: {cmd: x}}\n",
     "skillgrant: error: shell.yaml:2:35: shell-tools.exec_command.cmd: Extra inputs"),
    ("nokey.yaml", "shell-tools: [x]\n", "skillgrant: error: nokey.yaml:1:1: the plan has no "
                                          "allowed-tools key"),
    ("types.yaml", "allowed-tools: [Read, 3]\n",
     "skillgrant: error: types.yaml:1:23: allowed-tools: item 2 must be a string"),
])
def test_lint_exit_2_on_an_error(repo: Path, name: str, text: str | None, expected: str) -> None:
    if text is not None:
        Path(name).write_text(text, encoding="utf-8")
    assert one_error_line(run("lint", name)).startswith(expected)


def test_lint_never_calls_a_plan_the_loader_refuses_clean(repo: Path) -> None:
    # A lone surrogate (JSON can spell one) passes every lint rule, but the loader refuses it.
    Path("surrogate.json").write_text('{"allowed-tools": ["Read(\\ud800)"]}', encoding="utf-8")
    assert "lone surrogate" in one_error_line(run("lint", "surrogate.json"))


def test_lint_an_unexpected_exception_is_exit_2_and_one_line(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr("skillgrant.review.lint.lint_entries", boom)
    line = one_error_line(run("lint", "clean.yaml"))
    assert line == ("skillgrant: error: internal error: RuntimeError: boom (run with --debug or "
                    "SKILLGRANT_DEBUG=1 for the traceback)")
    debug = run("lint", "clean.yaml", "--debug")
    assert debug.exit_code == 2
    assert "Traceback (most recent call last)" in debug.stderr


# --- lint: sources ----------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "text", "kind", "expected"), [
    ("plan.json", '{\n  "allowedTools": ["Bash(gh *)",\n    "Bash(sudo *)"]\n}\n', "auto",
     [("SGL103", 3, 6)]),
    ("approved/SKILL.md", "---\nname: a\nallowed-tools: Bash(gh *) Bash(sudo *), LS\n---\n",
     "auto", [("SGL103", 3, 27), ("SGL201", 3, 41)]),
    ("settings.json", '{"permissions": {"allow": ["Read(src/**)", "Bash(", "LS"]}}', "auto",
     [("SGL001", 1, 45), ("SGL201", 1, 54)]),
    ("approved.txt", "---\nname: a\nallowed-tools:\n  - WebFetch\n---\n", "skill",
     [("SGL111", 4, 5)]),
    # A string value holding the same entry twice: each finding on its own occurrence.
    ("twice.yaml", "allowed-tools: Bash, Read(src/**), Bash\n", "auto",
     [("SGL101", 1, 16), ("SGL101", 1, 36)]),
])
def test_lint_reads_every_plan_source_with_lines(repo: Path, name: str, text: str, kind: str,
                                                 expected: list[tuple[str, int, int]]) -> None:
    Path(name).parent.mkdir(parents=True, exist_ok=True)
    Path(name).write_text(text, encoding="utf-8")
    result = run("lint", name, "--kind", kind, "-f", "json")
    assert result.exit_code == 1, result.output
    found = json.loads(result.stdout)["findings"]
    assert [(f["rule"], f["line"], f["column"]) for f in found] == expected
    lines = text.splitlines()
    for finding in found:  # each location is where the entry's text starts
        assert lines[finding["line"] - 1][finding["column"] - 1:].startswith(finding["entry"])


def test_lint_reads_standard_input(repo: Path) -> None:
    result = run("lint", "-", "--kind", "skill", stdin=SKILL.replace("Bash(gh *)", "Bash"))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == "<stdin>:4:16: warning SGL101 tool-wide-shell: Bash"
    assert run("lint", "-", stdin=CLEAN).exit_code == 0


def test_lint_reads_a_revision_from_git(repo: Path) -> None:
    Path("linted.yaml").write_text(CLEAN, encoding="utf-8")
    assert run("lint", "linted.yaml").exit_code == 0
    result = run("lint", "HEAD:linted.yaml", "-f", "github")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith(
        "::warning file=linted.yaml,line=4,col=5,endLine=4,endColumn=16,title=SGL103 "
        "command-wrapper::")


def test_lint_honours_the_plans_shell_tools(repo: Path) -> None:
    Path("shell.yaml").write_text("allowed-tools: [exec_command(*)]\nshell-tools: [exec_command]\n",
                                  encoding="utf-8")
    Path("plain.yaml").write_text("allowed-tools: [exec_command(*)]\n", encoding="utf-8")
    declared = json.loads(run("lint", "shell.yaml", "-f", "json").stdout)["findings"]
    plain = json.loads(run("lint", "plain.yaml", "-f", "json").stdout)["findings"]
    assert "SGL101" in [f["rule"] for f in declared]
    assert "SGL101" not in [f["rule"] for f in plain]


def test_lint_an_invalid_entry_beside_declared_shell_tools_is_still_linted(repo: Path) -> None:
    Path("mixed.yaml").write_text("allowedTools: [Bash(, exec_command(*)]\n"
                                  "shellTools: [exec_command]\n", encoding="utf-8")
    result = run("lint", "mixed.yaml", "-f", "json")
    assert result.exit_code == 1
    assert [f["rule"] for f in json.loads(result.stdout)["findings"]] == ["SGL001", "SGL101"]


def test_lint_a_list_over_the_limit_is_a_finding_at_the_value(repo: Path) -> None:
    from skillgrant.limits import MAX_ENTRIES_PER_VALUE

    entries = ", ".join(f"Read(a{i})" for i in range(MAX_ENTRIES_PER_VALUE + 1))
    Path("big.yaml").write_text(f"allowed-tools: [{entries}]\n", encoding="utf-8")
    result = run("lint", "big.yaml", "-f", "json")
    assert result.exit_code == 1
    (finding,) = json.loads(result.stdout)["findings"]
    assert (finding["rule"], finding["entry"], finding["index"]) == ("SGL002", "", None)
    assert (finding["line"], finding["column"]) == (1, 16)


# --- lint: formats ----------------------------------------------------------------------------

def test_lint_json_shape(repo: Path) -> None:
    document = json.loads(run("lint", "linted.yaml", "--format", "json").stdout)
    assert list(document) == ["version", "tool", "command", "source", "artifact", "entries",
                              "findings", "summary"]
    assert (document["version"], document["command"]) == (1, "lint")
    assert document["entries"] == ["Bash(gh *)", "Bash(sudo *)", "Bash(", "Task(reviewer)"]
    assert document["findings"][2]["rule"] == "SGL117"
    assert document["findings"][3] == {
        "rule": "SGL302", "name": "legacy-alias", "severity": "info",
        "category": "non-canonical", "entry": "Task(reviewer)", "index": 3,
        "message": "`Task` is an old name of `Agent`; the runtime still accepts it",
        "hint": "Write the current name.", "example": None, "replacement": "Agent(reviewer)",
        "line": 6, "column": 5}
    assert document["summary"] == {"entries": 4, "findings": 4, "error": 1, "warning": 2,
                                   "info": 1}


def test_lint_github_annotations(repo: Path) -> None:
    result = run("lint", "linted.yaml", "-f", "github")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert [line.split("::")[1] for line in lines] == [
        "warning file=linted.yaml,line=4,col=5,endLine=4,endColumn=16,title=SGL103 "
        "command-wrapper",
        "error file=linted.yaml,line=5,col=5,endLine=5,endColumn=9,title=SGL001 invalid-entry",
        "warning file=linted.yaml,line=6,col=5,endLine=6,endColumn=18,title=SGL117 agent-reach",
        "notice file=linted.yaml,line=6,col=5,endLine=6,endColumn=18,title=SGL302 legacy-alias"]
    assert lines[1].endswith("::Bash(: an entry with '(' must end with an unescaped ')' at "
                             "column 6. Fix: Write `Tool` or `Tool(specifier)`, escaping "
                             "literal parentheses as `\\(` and `\\)`.")
    assert lines[3].endswith("Fix: Write the current name. Write Agent(reviewer).")
    assert run("lint", "clean.yaml", "-f", "github").stdout == ""


def test_lint_sarif_is_valid_with_every_sgl_rule(repo: Path) -> None:
    result = run("lint", "linted.yaml", "-f", "sarif")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    sarif_validator().validate(document)
    (sarif_run,) = document["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    assert [(r["id"], r["name"]) for r in rules] == [(r.rule_id, r.name) for r in RULES]
    assert [(r["ruleId"], r["level"]) for r in sarif_run["results"]] == [
        ("SGL103", "warning"), ("SGL001", "error"), ("SGL117", "warning"), ("SGL302", "note")]
    for item in sarif_run["results"]:
        assert rules[item["ruleIndex"]]["id"] == item["ruleId"]
    first = sarif_run["results"][0]
    assert first["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "linted.yaml", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 4, "startColumn": 5, "endLine": 4, "endColumn": 17}}
    assert first["properties"]["example"] == "sudo rm -rf ~"
    assert sarif_run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == repo.resolve().as_uri() + "/"


def test_lint_sarif_rule_levels_follow_severity() -> None:
    levels = {"error": "error", "warning": "warning", "info": "note"}
    assert [(r.id, r.level) for r in LINT_RULES] == [
        (r.rule_id, levels[r.severity]) for r in RULES]


def test_lint_markdown_is_a_summary_and_a_table(repo: Path) -> None:
    result = run("lint", "linted.yaml", "-f", "markdown")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == ("**skillgrant lint** `linted.yaml`: 4 findings in 4 entries (1 error, "
                        "2 warnings, 1 info)")
    assert lines[2] == "| severity | rule | entry | line | finding | fix |"
    assert len(lines) == 4 + 4
    assert lines[6].startswith("| warning | SGL117 `agent-reach` | `Task(reviewer)` | 6 | ")
    assert lines[7].startswith("| info | SGL302 `legacy-alias` | `Task(reviewer)` | 6 | ")
    assert lines[7].endswith(" Write `Agent(reviewer)`. |")
    clean = run("lint", "clean.yaml", "-f", "markdown")
    assert clean.stdout == "**skillgrant lint** `clean.yaml`: no findings in 2 entries.\n"


def test_lint_colour(repo: Path) -> None:
    plain = run("lint", "linted.yaml").stdout
    coloured = run("lint", "linted.yaml", "--color", "always").stdout
    assert "\x1b[31merror\x1b[0m" in coloured
    assert re.sub(r"\x1b\[\d+m", "", coloured) == plain
    assert "\x1b[" not in run("lint", "linted.yaml", "-f", "json", "--color", "always").stdout


# --- diff: exit codes -----------------------------------------------------------------------

def test_diff_exit_0_when_nothing_escalates(repo: Path) -> None:
    result = run("diff", "HEAD:plan.yaml", "narrower.yaml")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "HEAD:plan.yaml -> narrower.yaml",
        "  narrowed       Bash(gh pr list)                 from Bash(gh *)",
        "  unchanged      read(src/**)                     was Read(src/**)",
        "  removed        WebFetch(domain:api.github.com)  no longer granted, e.g. "
        "api.github.com",
        "no escalation (1 narrowed, 1 unchanged, 1 removed).",
    ]


def test_diff_exit_1_on_an_escalation_with_its_witness(repo: Path) -> None:
    result = run("diff", "HEAD:plan.yaml", "plan.yaml")
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[2:5] == [
        "  escalated      Bash(rm -rf /tmp/cache)          [SGD001 escalated]",
        "                 witness: rm -rf /tmp/cache",
        "                 reason:  under Claude Code 2.1.332: no approved grant allows "
        "'rm -rf /tmp/cache'",
    ]
    # `LS` grants nothing in Claude Code, but Copilot CLI reads it as an MCP server's rule,
    # which no plan entry covers there (issue 30).
    assert lines[-1] == "2 escalations (1 narrowed, 1 unchanged, 1 removed)."


def test_diff_judges_for_the_runtime_it_is_given(repo: Path) -> None:
    # Issue 28: like check, apply and explain, diff takes --runtime (it wins over OLD's key).
    Path("old.yaml").write_text("runtime: claude-code\nallowed-tools: ['Bash(find *)']\n",
                                encoding="utf-8")
    Path("new.yaml").write_text("allowed-tools: ['Bash(find . -delete)', 'Bash(find .)']\n",
                                encoding="utf-8")
    result = run("diff", "old.yaml", "new.yaml", "--runtime", "claude-code", "-f", "json")
    grants = {g["entry"]: g for g in json.loads(result.stdout)["grants"] if g["side"] == "new"}
    # Claude Code approves an exact `find` rule whole, without the checks `find *` gets.
    assert (result.exit_code, grants["Bash(find . -delete)"]["status"]) == (1, "unknown")
    assert grants["Bash(find .)"]["status"] == "unknown"
    line = one_error_line(run("diff", "old.yaml", "new.yaml", "--runtime", "nope"))
    assert line.startswith("skillgrant: error: --runtime: unknown runtime 'nope'; known ")


def test_diff_unknown_counts_as_an_escalation(repo: Path) -> None:
    Path("gh.yaml").write_text("allowed-tools: ['Bash(gh pr list)', 'Bash(gh pr view *)']\n",
                               encoding="utf-8")
    for name, entry in (("substituted.yaml", "Bash(gh pr view `id`)"),
                        ("long.yaml", "Bash(" + "a" * 20_000 + ")")):
        Path(name).write_text(f"allowed-tools: ['{entry}']\n", encoding="utf-8")
        result = run("diff", "gh.yaml", name, "-f", "json")
        (grant,) = [g for g in json.loads(result.stdout)["grants"] if g["side"] == "new"]
        assert (result.exit_code, grant["kind"], grant["status"]) == (1, "escalated", "unknown")
        assert grant["witness"] is None


@pytest.mark.parametrize(("args", "expected"), [
    (("missing.yaml", "plan.yaml"), "skillgrant: error: missing.yaml: cannot read the plan"),
    (("HEAD:missing.yaml", "plan.yaml"),
     "skillgrant: error: git cannot read 'HEAD:missing.yaml': fatal: "),
    (("nosuchrev:plan.yaml", "plan.yaml"), "skillgrant: error: git cannot read "),
    (("-", "-"), "skillgrant: error: OLD and NEW cannot both be read from standard input"),
    # OLD is an approved plan: an invalid OLD entry is an error, located, never ignored.
    (("linted.yaml", "plan.yaml"), "skillgrant: error: linted.yaml:5:5: allowed-tools: approved "
                                   "entry is invalid: "),
])
def test_diff_exit_2_on_an_error(repo: Path, args: tuple[str, str], expected: str) -> None:
    result = run("diff", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(expected), result.stderr


def test_diff_an_invalid_new_entry_is_an_escalation(repo: Path) -> None:
    result = run("diff", "clean.yaml", "linted.yaml", "-f", "json")
    assert result.exit_code == 1
    kinds = {g["entry"]: (g["kind"], g["status"]) for g in json.loads(result.stdout)["grants"]}
    assert kinds["Bash("] == ("escalated", "invalid")


# --- diff: git and sources ------------------------------------------------------------------

def test_diff_reads_skill_files_from_git(repo: Path) -> None:
    Path("skills/x/SKILL.md").write_text(SKILL.replace("Read(src/**)", "Read(**)"),
                                         encoding="utf-8")
    result = run("diff", "HEAD:skills/x/SKILL.md", "skills/x/SKILL.md", "-f", "json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["old"] == {"source": "HEAD:skills/x/SKILL.md",
                               "artifact": "skills/x/SKILL.md",
                               "entries": ["Bash(gh *)", "Read(src/**)"]}
    (escalated,) = [g for g in document["grants"] if g["kind"] == "escalated"]
    assert (escalated["entry"], escalated["line"], escalated["column"]) == ("Read(**)", 4, 28)
    assert escalated["witness"] is not None


def test_diff_reads_the_index_and_paths_relative_to_the_working_directory(repo: Path,
                                                                          monkeypatch:
                                                                          pytest.MonkeyPatch
                                                                          ) -> None:
    _git(repo, "add", "plan.yaml")
    assert run("diff", ":plan.yaml", "plan.yaml").exit_code == 0  # staged == working tree
    monkeypatch.chdir(repo / "skills")
    result = run("diff", "HEAD:./x/SKILL.md", "x/SKILL.md", "-f", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["old"]["artifact"] == "skills/x/SKILL.md"


def test_diff_an_existing_file_with_a_colon_wins_over_git(repo: Path) -> None:
    Path("v1:plan.yaml").write_text(OLD, encoding="utf-8")
    result = run("diff", "v1:plan.yaml", "narrower.yaml", "-f", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["old"]["artifact"] == "v1:plan.yaml"


def test_diff_reads_standard_input(repo: Path) -> None:
    result = run("diff", "-", "plan.yaml", stdin=OLD)
    assert result.exit_code == 1
    assert result.stdout.startswith("<stdin> -> plan.yaml\n")


def test_diff_warns_when_new_judges_grants_differently(repo: Path) -> None:
    Path("aliased.yaml").write_text(OLD + "shell-tools: [exec_command]\n", encoding="utf-8")
    result = run("diff", "HEAD:plan.yaml", "aliased.yaml")
    assert result.exit_code == 0
    assert result.stderr == ("skillgrant: warning: NEW declares other shell-tools or base-dirs "
                             "than OLD; its entries are judged with OLD's\n")


# --- diff: formats ----------------------------------------------------------------------------

def test_diff_json_shape(repo: Path) -> None:
    result = run("diff", "HEAD:plan.yaml", "plan.yaml", "--format", "json")
    document = json.loads(result.stdout)
    assert list(document) == ["version", "tool", "command", "old", "new", "escalates",
                              "grants", "summary"]
    assert (document["version"], document["command"], document["escalates"]) == (1, "diff",
                                                                                True)
    assert [(g["kind"], g["side"], g["index"], g["line"]) for g in document["grants"]] == [
        ("narrowed", "new", 0, 2), ("escalated", "new", 1, 3), ("unchanged", "new", 2, 4),
        ("escalated", "new", 3, 5), ("removed", "old", 2, 4)]  # a removed entry's line: OLD's
    escalated = document["grants"][1]
    assert escalated == {
        "kind": "escalated", "escalates": True, "entry": "Bash(rm -rf /tmp/cache)",
        "side": "new", "index": 1, "old": None, "status": "not_covered",
        "witness": "rm -rf /tmp/cache",
        "reason": "under Claude Code 2.1.332: no approved grant allows 'rm -rf /tmp/cache'",
        "covered_by": None,
        "also_covered_by": [], "rule": "SGD001", "line": 3, "column": 5}
    assert document["summary"] == {"escalated": 2, "inert": 0, "narrowed": 1, "equivalent": 0,
                                   "added-covered": 0, "unchanged": 1, "removed": 1}


def test_diff_github_annotations(repo: Path) -> None:
    lines = run("diff", "HEAD:plan.yaml", "plan.yaml", "-f", "github").stdout.splitlines()
    assert lines == [
        "::notice file=plan.yaml,line=2,col=5,endLine=2,endColumn=20,title=SGD003 narrowed::"
        "Bash(gh pr list): from "
        "Bash(gh *)",
        "::error file=plan.yaml,line=3,col=5,endLine=3,endColumn=27,title=SGD001 escalated::"
        "Bash(rm -rf /tmp/cache) is "
        "not covered by HEAD:plan.yaml: under Claude Code 2.1.332: no approved grant allows "
        "'rm -rf /tmp/cache' (witness: rm -rf /tmp/cache)",
        "::error file=plan.yaml,line=5,col=5,endLine=5,endColumn=6,title=SGD001 escalated::"
        "LS is not covered by HEAD:plan.yaml (unknown): under Copilot CLI 1.0.102: it is not "
        "known to be within the plan there",
        # A removed grant is in OLD (here a revision): the annotation is on NEW, no line.
        "::notice file=plan.yaml,title=SGD004 removed::WebFetch(domain:api.github.com) (in "
        "HEAD:plan.yaml) is removed: no longer granted, e.g. api.github.com",
    ]


def test_diff_sarif_is_valid(repo: Path) -> None:
    result = run("diff", "HEAD:plan.yaml", "plan.yaml", "-f", "sarif")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    sarif_validator().validate(document)
    (sarif_run,) = document["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    assert [(r["id"], r["name"]) for r in rules] == [(r.id, r.name) for r in DIFF_RULES]
    assert [(r["ruleId"], r["level"]) for r in sarif_run["results"]] == [
        ("SGD003", "note"), ("SGD001", "error"), ("SGD001", "error"), ("SGD004", "note")]
    assert sarif_run["results"][1]["properties"]["witness"] == "rm -rf /tmp/cache"
    assert "region" not in sarif_run["results"][3]["locations"][0]["physicalLocation"]


def test_diff_markdown_is_a_summary_and_a_table(repo: Path) -> None:
    result = run("diff", "HEAD:plan.yaml", "plan.yaml", "-f", "markdown")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "**skillgrant diff** `HEAD:plan.yaml` → `plan.yaml`: 2 escalations (1 narrowed, "
        "1 unchanged, 1 removed)",
        "",
        "| change | entry | line | evidence |",
        "|---|---|---:|---|",
        "| **escalated** | `Bash(rm -rf /tmp/cache)` | 3 | witness `rm -rf /tmp/cache`: under "
        "Claude Code 2\\.1\\.332\\: no approved grant allows 'rm -rf /tmp/cache' |",
        "| **escalated** | `LS` | 5 | unknown: under Copilot CLI 1\\.0\\.102\\: it is not known "
        "to be within the plan there |",
        "| narrowed | `Bash(gh pr list)` | 2 | from `Bash(gh *)` |",
        "| removed | `WebFetch(domain:api.github.com)` |  | no longer granted, e.g. "
        "`api.github.com` |",
    ]
    quiet = run("diff", "plan.yaml", "plan.yaml", "-f", "markdown")
    assert quiet.stdout == ("**skillgrant diff** `plan.yaml` → `plan.yaml`: no escalation "
                            "(4 unchanged).\n")


# --- Markdown escaping ------------------------------------------------------------------------

def _render_table(markdown: str) -> list[list[str]]:
    """The body cells of the first table, rendered by a CommonMark/GFM-table parser."""
    markdown_it = pytest.importorskip("markdown_it")
    html = markdown_it.MarkdownIt("commonmark").enable("table").render(markdown)
    body = html.split("<tbody>", 1)[1]
    return [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


@pytest.mark.parametrize(("entry", "shown_as"), [
    ("Bash(a|b)", "<code>Bash(a|b)</code>"),
    ("Bash(echo `id`)", "<code>Bash(echo `id`)</code>"),
    ("Bash(echo ``x``)", "<code>Bash(echo ``x``)</code>"),
    ("`Bash`", "<code>`Bash`</code>"),
    ("Bash(a\\|b)", "Bash(a\\|b)"),
    ("Bash(<img src=x>)", "<code>Bash(&lt;img src=x&gt;)</code>"),
])
def test_markdown_code_spans_survive_a_table(entry: str, shown_as: str) -> None:
    table = f"| a | b |\n|---|---|\n| {md_code(entry)} | end |\n"
    assert _render_table(table) == [[shown_as, "end"]]


def test_markdown_messages_cannot_inject_markup() -> None:
    message = "`Bash(x)` allows [a](http://e.example) ![i](http://e.example/i.png) <b>x</b> | *y*"
    (row,) = _render_table(f"| a | b |\n|---|---|\n| {md_text(message)} | end |\n")
    assert row[1] == "end"
    assert row[0].startswith("<code>Bash(x)</code> allows [a](http://e.example)")
    assert "<a " not in row[0] and "<img" not in row[0] and "<b>" not in row[0]
    assert "<em>" not in row[0]
    # An unpaired backtick makes nothing code; everything is escaped text.
    (row,) = _render_table(f"| a | b |\n|---|---|\n| {md_text('a ` b | c')} | end |\n")
    assert row == ["a ` b | c", "end"]


def test_diff_markdown_escapes_entries_in_the_table(repo: Path) -> None:
    Path("odd.yaml").write_text("allowed-tools:\n  - 'Bash(echo `id` | sh)'\n", encoding="utf-8")
    result = run("diff", "clean.yaml", "odd.yaml", "-f", "markdown")
    assert result.exit_code == 1
    rows = _render_table(result.stdout)
    assert rows[0][:2] == ["<strong>escalated</strong>", "<code>Bash(echo `id` | sh)</code>"]
    assert all(len(row) == 4 for row in rows)


# --- real processes -----------------------------------------------------------------------

def _proc(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "SKILLGRANT_DEBUG"}
    return subprocess.run([sys.executable, "-m", "skillgrant", *args], cwd=repo,
                          capture_output=True, text=True, env=environment, timeout=60)


def test_python_m_skillgrant_lint_and_diff(repo: Path) -> None:
    linted = _proc(repo, "lint", "linted.yaml", "-f", "sarif")
    assert linted.returncode == 1, linted.stderr
    sarif_validator().validate(json.loads(linted.stdout))
    assert _proc(repo, "lint", "clean.yaml").returncode == 0
    escalated = _proc(repo, "diff", "HEAD:plan.yaml", "plan.yaml")
    assert escalated.returncode == 1, escalated.stderr
    assert "witness: rm -rf /tmp/cache" in escalated.stdout
    assert _proc(repo, "diff", "HEAD:plan.yaml", "narrower.yaml").returncode == 0
    bad = _proc(repo, "diff", "HEAD:nope.yaml", "plan.yaml")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
