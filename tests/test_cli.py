"""The command line (semantics §8): every command × exit code, every format, every plan source,
through typer's CliRunner, and a few real runs of the installed console script and ``python -m``."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
import typer
import yaml
from typer.testing import CliRunner, Result

import skillgrant
from skillgrant.cli import app as cli
from skillgrant.cli.app import app
from skillgrant.cli.console import echo_plain
from skillgrant.plan.schema import plan_schema

REPO = Path(__file__).resolve().parents[1]
SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"

NARROW = "---\nname: t\ndescription: d\nallowed-tools: Bash(gh pr list), Read\n---\nbody\n"
WIDE = ("---\nname: t\ndescription: d\n# keep me\nallowed-tools:\n  - Bash(gh pr list)\n"
        "  - Bash(rm -rf /)\n---\nbody\n")
WIDE_AFTER = ("---\nname: t\ndescription: d\n# keep me\nallowed-tools:\n  - Bash(gh pr list)\n"
              "---\nbody\n")
SPELLING = "---\nname: t\ndescription: d\nallowed-tools: bash(gh pr list)\n---\n"
NO_KEY = "---\nname: t\ndescription: d\n---\nbody\n"
BROKEN = "no frontmatter here\n"

PLAN_YAML = "# approved on the review screen\nallowed-tools:\n  - Bash(gh *)\n  - Read\n"
PLAN_SOURCES = {
    "plan.yaml": PLAN_YAML,
    "plan.json": '{"allowedTools": "Bash(gh *), Read"}',
    "approved/SKILL.md": "---\nname: approved\nallowed-tools: Bash(gh *) Read\n---\nbody\n",
    "settings.json": '{"permissions": {"allow": ["Bash(gh *)", "Read"], "deny": []}}',
}
BAD_PLAN = "allowed-tools:\n  - Read\n  - Bash(gh *\n"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with skills and a plan; the working directory for the test."""
    (tmp_path / ".git").mkdir()
    files = {"skills/narrow/SKILL.md": NARROW, "skills/wide/SKILL.md": WIDE,
             "skills/spelling/SKILL.md": SPELLING, "skills/nokey/SKILL.md": NO_KEY,
             "broken/SKILL.md": BROKEN, "bad-plan.yaml": BAD_PLAN, **PLAN_SOURCES}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SKILLGRANT_DEBUG", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return tmp_path


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=stdin, env=env)


def read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def sarif_validator() -> jsonschema.Draft4Validator:
    return jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")))


# --- check ---------------------------------------------------------------------------------

def test_check_exit_0_when_apply_would_change_nothing(repo: Path) -> None:
    result = run("check", "skills/narrow/SKILL.md", "--plan", "plan.yaml")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "skills/narrow/SKILL.md:4: unchanged (2 kept, 0 dropped)",
        "skills/narrow/SKILL.md:4:16: keep  Bash(gh pr list)  covered by Bash(gh *)",
        "skills/narrow/SKILL.md:4:34: keep  Read              covered by Read",
        "skills/narrow/SKILL.md:4:1:  => allowed-tools: Bash(gh pr list), Read",
        "1 file checked: 0 would change.",
    ]
    assert result.stderr == ""


@pytest.mark.parametrize(("skill", "rule"), [
    ("skills/wide/SKILL.md", "[SG001 not-covered]"),
    ("skills/spelling/SKILL.md", "[SG007 tool-name-normalized]"),
    ("skills/nokey/SKILL.md", "[SG006 restored]"),
])
def test_check_exit_1_when_apply_would_change_the_file(repo: Path, skill: str,
                                                       rule: str) -> None:
    before = read(skill)
    result = run("check", skill, "--plan", "plan.yaml")
    assert result.exit_code == 1, result.output
    assert rule in result.stdout
    assert f"{skill}:" in result.stdout and "would change" in result.stdout
    assert read(skill) == before  # check never writes


def test_check_reports_the_witness(repo: Path) -> None:
    result = run("check", "skills/wide/SKILL.md", "--plan", "plan.yaml")
    lines = result.stdout.splitlines()
    drop = lines.index("skills/wide/SKILL.md:7:5: drop  Bash(rm -rf /)    [SG001 not-covered]")
    assert lines[drop + 1] == "    witness: rm -rf /"
    assert lines[drop + 2].startswith("    reason:  ")


@pytest.mark.parametrize("args", [
    ["check", "skills/narrow/SKILL.md", "--plan", "bad-plan.yaml"],
    ["check", "skills/narrow/SKILL.md", "--plan", "missing.yaml"],
    ["check", "broken/SKILL.md", "--plan", "plan.yaml"],
    ["check", "nowhere/SKILL.md", "--plan", "plan.yaml"],
    ["check", "approved", "--plan", "plan.json", "--plan-kind", "skill"],
])
def test_check_exit_2_on_errors(repo: Path, args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("skillgrant: error: ")
    assert "Traceback" not in result.output


def test_check_bad_plan_names_file_line_and_column(repo: Path) -> None:
    result = run("check", "skills", "--plan", "bad-plan.yaml")
    assert result.exit_code == 2
    first = result.stderr.splitlines()[0]
    assert first.startswith("skillgrant: error: bad-plan.yaml:3:")
    assert result.stdout == ""  # a fatal error: no report at all


def test_check_directory_without_skills_is_an_error(repo: Path) -> None:
    (repo / "empty").mkdir()
    result = run("check", "empty", "--plan", "plan.yaml")
    assert result.exit_code == 2
    assert result.stderr == ("skillgrant: error: empty: no SKILL.md or command file found in "
                             "this directory\n")


def test_check_usage_errors_exit_2(repo: Path) -> None:
    # (without --plan, each file's plan is found: tests/test_discovery.py)
    assert run("check", "skills", "-p", "plan.yaml", "-p", "plan.yaml").exit_code == 2
    assert run("check", "--plan", "plan.yaml").exit_code == 2  # no path
    assert run("check", "skills", "--plan", "plan.yaml", "--format", "xml").exit_code == 2
    assert run("frobnicate").exit_code == 2


def test_check_a_bad_file_does_not_hide_the_others(repo: Path) -> None:
    result = run("check", "broken", "skills/wide", "--plan", "plan.yaml", "--format", "json")
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    broken, wide = document["files"]
    assert broken["error"] == {"message": "no frontmatter: the file must begin with a '---' "
                               "line", "line": 1, "column": 1}
    assert wide["changed"] and wide["error"] is None
    assert result.stderr == ("skillgrant: error: broken/SKILL.md:1:1: no frontmatter: the file "
                             "must begin with a '---' line\n")


def test_check_searches_directories(repo: Path) -> None:
    for hidden in (".claude/skills/x", "node_modules/pkg", ".git/x"):
        (repo / hidden).mkdir(parents=True, exist_ok=True)
        (repo / hidden / "SKILL.md").write_text(NARROW, encoding="utf-8")
    (repo / "skills/narrow/README.md").write_text("not a skill\n", encoding="utf-8")
    result = run("check", ".", "skills/wide/SKILL.md", "--plan", "plan.yaml",
                 "--format", "json")
    paths = [f["path"] for f in json.loads(result.stdout)["files"]]
    assert paths == sorted(paths, key=lambda p: p) and len(paths) == len(set(paths))
    assert {Path(p).as_posix() for p in paths} == {
        ".claude/skills/x/SKILL.md", "approved/SKILL.md", "broken/SKILL.md",
        "skills/narrow/SKILL.md", "skills/nokey/SKILL.md", "skills/spelling/SKILL.md",
        "skills/wide/SKILL.md"}


def test_entries_are_located_in_the_file(repo: Path) -> None:
    (repo / "located").mkdir()
    (repo / "located/SKILL.md").write_text(
        "---\nname: l\nallowed-tools:\n  - Read Grep\n  - \"Bash(\\x72m -rf /)\"\n"
        "  -   Bash(gh x)\nother: Read\n---\n", encoding="utf-8")
    (repo / "flow").mkdir()
    (repo / "flow/SKILL.md").write_text(
        "---\nname: f\nallowed-tools: Read, Read\n---\n", encoding="utf-8")
    result = run("check", "located", "flow", "--plan", "plan.yaml", "-f", "json")
    located, flow = json.loads(result.stdout)["files"]
    assert located["line"] == 3 and flow["line"] == 3
    assert [(d["entry"], d["line"], d["column"]) for d in located["decisions"]] == [
        ("Read", 4, 5), ("Grep", 4, 10), ("Bash(rm -rf /)", 5, 6), ("Bash(gh x)", 6, 7)]
    assert [(d["line"], d["column"]) for d in flow["decisions"]] == [(3, 16), (3, 22)]


# --- plan sources --------------------------------------------------------------------------

@pytest.mark.parametrize("plan", sorted(PLAN_SOURCES))
def test_every_plan_source(repo: Path, plan: str) -> None:
    result = run("check", "skills/wide/SKILL.md", "--plan", plan, "--format", "json")
    assert result.exit_code == 1, result.output
    document = json.loads(result.stdout)
    assert document["plan"] == plan
    assert document["files"][0]["allowed"] == ["Bash(gh pr list)"]
    assert run("check", "skills/narrow", "--plan", plan).exit_code == 0


@pytest.mark.parametrize(("plan", "kind"), [
    ("plan.yaml", "auto"), ("plan.json", "plan"), ("approved/SKILL.md", "skill"),
    ("settings.json", "settings"),
])
def test_plan_from_stdin(repo: Path, plan: str, kind: str) -> None:
    result = run("check", "skills/wide", "--plan", "-", "--plan-kind", kind, "--format", "json",
                 stdin=PLAN_SOURCES[plan])
    assert result.exit_code == 1, result.output
    document = json.loads(result.stdout)
    assert document["plan"] == "<stdin>"
    assert document["files"][0]["allowed"] == ["Bash(gh pr list)"]


def test_plan_kind_overrides_the_name(repo: Path) -> None:
    (repo / "approved.txt").write_text(PLAN_SOURCES["approved/SKILL.md"], encoding="utf-8")
    assert run("check", "skills/narrow", "--plan", "approved.txt").exit_code == 2
    assert run("check", "skills/narrow", "--plan", "approved.txt",
               "--plan-kind", "skill").exit_code == 0


def test_plan_that_approves_nothing_removes_the_key(repo: Path) -> None:
    (repo / "none.yaml").write_text("allowed-tools: []\n", encoding="utf-8")
    result = run("apply", "skills/narrow", "--plan", "none.yaml")
    assert result.exit_code == 0, result.output
    assert "allowed-tools" not in read("skills/narrow/SKILL.md")


# --- apply ---------------------------------------------------------------------------------

def test_apply_rewrites_and_is_idempotent(repo: Path) -> None:
    result = run("apply", "skills/wide/SKILL.md", "--plan", "plan.yaml")
    assert result.exit_code == 0, result.output
    assert read("skills/wide/SKILL.md") == WIDE_AFTER
    assert result.stdout.splitlines()[0] == "skills/wide/SKILL.md:5: rewritten (1 kept, 1 dropped)"
    again = run("apply", "skills/wide/SKILL.md", "--plan", "plan.yaml")
    assert again.exit_code == 0
    assert "unchanged" in again.stdout.splitlines()[0]
    assert read("skills/wide/SKILL.md") == WIDE_AFTER
    assert run("check", "skills/wide", "--plan", "plan.yaml").exit_code == 0


@pytest.mark.parametrize("plan", sorted(PLAN_SOURCES))
def test_apply_with_every_plan_source(repo: Path, plan: str) -> None:
    result = run("apply", "skills/wide", "--plan", plan)
    assert result.exit_code == 0, result.output
    assert read("skills/wide/SKILL.md") == WIDE_AFTER


@pytest.mark.parametrize(("fmt", "marker"), [
    ("text", "skills/wide/SKILL.md:5: rewritten (1 kept, 1 dropped)\n"),
    ("json", '"applied": true'),
    ("github", "::error file=skills/wide/SKILL.md,line=7,col=5,endLine=7,endColumn=18,"
               "title=SG001 not-covered::"),
    ("sarif", '"ruleId": "SG001"'),
])
def test_apply_in_every_format(repo: Path, fmt: str, marker: str) -> None:
    result = run("apply", "skills/wide", "--plan", "plan.yaml", "--format", fmt)
    assert result.exit_code == 0, result.output
    assert marker in result.stdout
    assert read("skills/wide/SKILL.md") == WIDE_AFTER
    if fmt == "sarif":
        sarif_validator().validate(json.loads(result.stdout))


def test_apply_dry_run_prints_a_diff_and_writes_nothing(repo: Path) -> None:
    result = run("apply", "skills", "--plan", "plan.yaml", "--dry-run")
    assert result.exit_code == 0, result.output
    assert read("skills/wide/SKILL.md") == WIDE
    assert read("skills/spelling/SKILL.md") == SPELLING
    assert "--- a/skills/wide/SKILL.md\n+++ b/skills/wide/SKILL.md\n" in result.stdout
    assert "-  - Bash(rm -rf /)\n" in result.stdout
    assert "-allowed-tools: bash(gh pr list)\n+allowed-tools: Bash(gh pr list)\n" in result.stdout
    assert "skills/narrow" not in result.stdout  # unchanged files make no hunk


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_apply_dry_run_diff_applies_with_git(repo: Path) -> None:
    diff = run("apply", "skills", "--plan", "plan.yaml", "--dry-run").stdout
    (repo / "change.diff").write_text(diff, encoding="utf-8")
    subprocess.run(["git", "apply", "change.diff"], cwd=repo, check=True)
    assert read("skills/wide/SKILL.md") == WIDE_AFTER
    assert run("check", "skills", "--plan", "plan.yaml").exit_code == 0


def test_apply_exit_2_leaves_bad_files_and_applies_the_rest(repo: Path) -> None:
    result = run("apply", "broken", "skills/wide", "--plan", "plan.yaml")
    assert result.exit_code == 2
    assert read("broken/SKILL.md") == BROKEN
    assert read("skills/wide/SKILL.md") == WIDE_AFTER
    assert result.stderr.startswith("skillgrant: error: broken/SKILL.md:1:1: no frontmatter")


def test_apply_bad_plan_writes_nothing(repo: Path) -> None:
    result = run("apply", "skills", "--plan", "bad-plan.yaml")
    assert result.exit_code == 2
    assert read("skills/wide/SKILL.md") == WIDE


def test_apply_json_reports_every_decision(repo: Path) -> None:
    result = run("apply", "skills/wide", "skills/narrow", "--plan", "plan.yaml", "-f", "json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["command"] == "apply" and document["dry_run"] is False
    wide, narrow = document["files"]
    assert wide["applied"] and wide["changed"] and not narrow["applied"]
    assert [(d["entry"], d["status"], d["kept"]) for d in wide["decisions"]] == [
        ("Bash(gh pr list)", "covered", True), ("Bash(rm -rf /)", "not_covered", False)]
    assert wide["decisions"][1]["witness"] == "rm -rf /"
    assert [d["line"] for d in wide["decisions"]] == [6, 7]
    assert len(narrow["decisions"]) == 2
    assert document["summary"] == {"files": 2, "changed": 1, "applied": 1, "errors": 0}


def test_apply_dry_run_json_carries_the_diff(repo: Path) -> None:
    result = run("apply", "skills/wide", "--plan", "plan.yaml", "--dry-run", "-f", "json")
    (item,) = json.loads(result.stdout)["files"]
    assert item["diff"].startswith("--- a/skills/wide/SKILL.md\n")
    assert not item["applied"] and item["changed"]
    assert read("skills/wide/SKILL.md") == WIDE


# --- formats -------------------------------------------------------------------------------

def test_json_is_the_only_thing_on_stdout(repo: Path) -> None:
    result = run("check", "skills", "broken", "--plan", "plan.yaml", "--format", "json")
    document = json.loads(result.stdout)
    assert document["version"] == 1 and document["tool"]["version"] == skillgrant.__version__
    assert document["summary"] == {"files": 5, "changed": 3, "applied": 0, "errors": 1}
    assert "skillgrant: error:" in result.stderr


def test_github_format(repo: Path) -> None:
    result = run("check", "skills", "--plan", "plan.yaml", "--format", "github")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "::warning file=skills/nokey/SKILL.md,line=4,col=1,title=SG006 restored::nothing "
        "submitted survived; the approved entries were restored: Bash(gh *), Read",
        "::notice file=skills/spelling/SKILL.md,line=4,col=16,endLine=4,endColumn=31,title=SG007 "
        "tool-name-normalized::bash(gh pr list) is kept as Bash(gh pr list) (covered by "
        "Bash(gh *)); the runtime matches tool names exactly",
        "::error file=skills/wide/SKILL.md,line=7,col=5,endLine=7,endColumn=18,title=SG001 "
        "not-covered::Bash(rm -rf /)"
        " is not covered by the plan: under Claude Code 2.1.332: no approved grant allows "
        "'rm -rf /' (witness: rm -rf /)",
    ]


def test_github_paths_are_repository_relative(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo / "skills")
    result = run("check", "wide", "--plan", "../plan.yaml", "--format", "github")
    assert "file=skills/wide/SKILL.md,line=7" in result.stdout


def test_sarif_format_is_valid_sarif(repo: Path) -> None:
    result = run("check", "skills", "broken", "--plan", "plan.yaml", "--format", "sarif")
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    sarif_validator().validate(document)
    (sarif_run,) = document["runs"]
    assert sarif_run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == repo.as_uri() + "/"
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif_run["results"]}
    assert uris == {"skills/nokey/SKILL.md", "skills/spelling/SKILL.md",
                    "skills/wide/SKILL.md"}
    assert [r["ruleId"] for r in sarif_run["results"]] == ["SG006", "SG007", "SG001"]
    assert sarif_run["invocations"][0]["executionSuccessful"] is False


def test_sarif_of_a_clean_run(repo: Path) -> None:
    result = run("apply", "skills/narrow", "--plan", "plan.yaml", "--format", "sarif")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    sarif_validator().validate(document)
    assert document["runs"][0]["results"] == []


def test_text_colour(repo: Path) -> None:
    args = ("check", "skills/wide", "--plan", "plan.yaml")
    assert "\x1b[" not in run(*args).stdout  # not a terminal
    assert "\x1b[31mdrop\x1b[0m" in run(*args, "--color", "always").stdout
    assert "\x1b[" not in run(*args, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    assert "\x1b[" in run(*args, env={"FORCE_COLOR": "1"}).stdout
    assert "\x1b[" not in run(*args, "--color", "never", env={"FORCE_COLOR": "1"}).stdout


class _Stream(io.StringIO):
    """A text stream that may be a terminal, and says when it is written and flushed."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty
        self.calls: list[str] = []

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> int:
        self.calls.append(text)
        return super().write(text)

    def flush(self) -> None:
        self.calls.append("<flush>")


#: The two writers of text; cli.console.echo chooses between them (typer.echo off POSIX and
#: for ASCII streams).
WRITERS: dict[str, Callable[[_Stream, str, bool, bool | None], None]] = {
    "skillgrant": lambda stream, text, nl, color: echo_plain(stream, text, nl=nl, color=color),
    "typer": lambda stream, text, nl, color: typer.echo(text, file=stream, nl=nl, color=color),
}
RED = "\x1b[31mred\x1b[0m"


@pytest.mark.parametrize("writer", sorted(WRITERS))
@pytest.mark.parametrize(("text", "nl", "color", "tty", "written"), [
    ("report", True, None, False, ["report\n", "<flush>"]),
    ("report", False, None, False, ["report", "<flush>"]),
    ("", True, None, False, ["\n", "<flush>"]),
    ("", False, None, False, ["<flush>"]),
    (RED, True, None, False, ["red\n", "<flush>"]),
    (RED, True, None, True, [RED + "\n", "<flush>"]),
    (RED, False, True, False, [RED, "<flush>"]),
    (RED, False, False, True, ["red", "<flush>"]),
    ("a\x1b[?25lb\x1b[2Kc \x1b[1;32mok", False, None, False, ["abc ok", "<flush>"]),
    ("caf\u00e9 \u2713", True, None, False, ["caf\u00e9 \u2713\n", "<flush>"]),
])
def test_text_is_written_as_typer_writes_it(writer: str, text: str, nl: bool,
                                            color: bool | None, tty: bool,
                                            written: list[str]) -> None:
    stream = _Stream(tty)
    WRITERS[writer](stream, text, nl, color)
    assert stream.calls == written


# --- explain -------------------------------------------------------------------------------

def test_explain_covered_exit_0() -> None:
    result = run("explain", "Bash(gh pr list)", "--approved", "Bash(gh *)", "-a", "Read")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:2] == ["Bash(gh pr list): covered",
                                              "  covered by: Bash(gh *)"]


@pytest.mark.parametrize(("grant", "status", "evidence"), [
    ("Bash(rm -rf /)", "not_covered", "  witness:    rm -rf / (allowed by this grant, by no "
                                      "approved entry)"),
    ("Bash(", "invalid", "           ^"),
    ("LS", "inert", "  reason:     LS is a removed tool name; it grants nothing"),
    ("Foo(x (y) Bash )", "ambiguous", "  reason:     the entry is ambiguous: Claude Code would "
                                      "read it as 'Foo(x (y)' + 'Bash' + ')'"),
    ("Bash(" + "a" * 9000 + ")", "unknown", "  reason:     the entry is unknown: 9006 "
                                            "characters, over the limit of 8192 "
                                            "(MAX_ENTRY_LENGTH)"),
])
def test_explain_anything_else_exit_1(grant: str, status: str, evidence: str) -> None:
    # Claude Code's reading alone (the default also judges under Copilot CLI, which names it).
    result = run("explain", grant, "--approved", "Bash(gh *), Read", "--runtime", "claude-code")
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines()[0].split(": ", 1)[1].startswith(status)
    assert evidence in result.stdout.splitlines()


def test_explain_bad_approved_entry_exit_2() -> None:
    result = run("explain", "Read", "--approved", "Bash(gh *")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "skillgrant: error: --approved: approved entry is invalid: an entry with '(' must end "
        "with an unescaped ')' in entry 'Bash(gh *' at column 10",
        "    Bash(gh *",
        "             ^",
    ]
    assert result.stdout == ""


def test_explain_with_a_plan(repo: Path) -> None:
    (repo / "shell.yaml").write_text(
        "allowed-tools: [Bash(npm *)]\nshell-tools: {exec_command: {command-argument: cmd}}\n",
        encoding="utf-8")
    # Claude Code has no exec_command: the plan's alias joins nothing there (issue 28).
    assert run("explain", "exec_command(npm install)", "--plan", "shell.yaml").exit_code == 1
    assert run("explain", "exec_command(npm install)", "-a", "Bash(npm *)").exit_code == 1
    assert run("explain", "Read", "--plan", "plan.yaml").exit_code == 0
    assert run("explain", "Read", "--plan", "settings.json").exit_code == 0
    assert run("explain", "Read", "--plan", "bad-plan.yaml").exit_code == 2


def test_explain_json() -> None:
    result = run("explain", "Bash(rm -rf /)", "-a", "Bash(gh *)", "--format", "json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert {k: document[k] for k in ("entry", "status", "witness", "rule", "approved")} == {
        "entry": "Bash(rm -rf /)", "status": "not_covered", "witness": "rm -rf /",
        "rule": "SG001", "approved": ["Bash(gh *)"]}
    assert run("explain", "Read", "-a", "Read", "--format", "sarif").exit_code == 2


# --- errors, version, schema ---------------------------------------------------------------

def _explode(*args: object, **kwargs: object) -> object:
    raise RuntimeError("boom\nsecond line")


def test_unexpected_exception_exits_2_with_one_line(repo: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("skillgrant.skillfile.builder.apply_to_file", _explode)
    result = run("check", "skills/wide", "--plan", "plan.yaml")
    assert result.exit_code == 2
    assert result.stderr == ("skillgrant: error: internal error: RuntimeError: boom (run with "
                             "--debug or SKILLGRANT_DEBUG=1 for the traceback)\n")


def _interrupt(*args: object, **kwargs: object) -> object:
    raise KeyboardInterrupt


def test_interrupt_is_not_a_finding(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("skillgrant.skillfile.builder.apply_to_file", _interrupt)
    result = run("check", "skills/wide", "--plan", "plan.yaml")
    assert result.exit_code == 130
    assert result.stderr == "skillgrant: interrupted\n"


@pytest.mark.parametrize(("args", "env"), [
    (["--debug", "check"], {}),
    (["check", "--debug"], {}),
    (["check"], {"SKILLGRANT_DEBUG": "1"}),
])
def test_debug_shows_the_traceback(repo: Path, monkeypatch: pytest.MonkeyPatch,
                                   args: list[str], env: dict[str, str]) -> None:
    monkeypatch.setattr("skillgrant.skillfile.builder.apply_to_file", _explode)
    result = run(*args, "skills/wide", "--plan", "plan.yaml", env=env)
    assert result.exit_code == 2
    assert "Traceback (most recent call last)" in result.stderr
    assert result.stderr.splitlines()[-1] == "skillgrant: error: internal error: RuntimeError: boom"


def test_debug_logs_the_library_records(repo: Path) -> None:
    result = run("--debug", "check", "skills/wide", "--plan", "plan.yaml")
    assert result.exit_code == 1
    assert "skillgrant: WARNING: dropped Bash(rm -rf /)" in result.stderr
    quiet = run("check", "skills/wide", "--plan", "plan.yaml")
    assert quiet.stderr == ""


def test_main_turns_an_escaped_exception_into_exit_2(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli, "app", _explode)
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["check"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.startswith("skillgrant: error: internal error: RuntimeError")


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"skillgrant {skillgrant.__version__}\n"


def test_no_arguments_shows_help() -> None:
    result = run()
    assert "check" in result.output and "explain" in result.output
    assert result.exit_code == 2  # a usage error, as in click 8.2 and later


def test_schema_is_a_json_schema_that_agrees_with_the_plan_loader(repo: Path) -> None:
    result = run("schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema == plan_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    from skillgrant.plan.model import Plan

    cases = [
        "allowed-tools: [Read]", "allowedTools: Read Grep", "allowed_tools: []",
        "allowed-tools: [Read]\nshell-tools: {exec_command: {command-argument: cmd}}",
        "allowed-tools: [Read]\nshell-tools: [exec_command]",
        "allowed-tools: [Read]\nbase-dirs: {cwd: /w, home: /h}",
        "allowed-tools: [Read]\nx-note: anything",
        "allowed-tools: [Read]\nallowed-toolz: [Bash]",
        "allowed-tools: 3", "allowed-tools: [1]", "shell-tools: {}",
        "allowed-tools: [Read]\nbase-dirs: {cwd: /w, tmp: /t}",
        "allowed-tools: [Read]\nshell-tools: {exec_command: {cmd: x}}",
        "allowed-tools: [Read]\nshell-tools: {'bad name': {}}",
    ]
    for text in cases:
        data = yaml.safe_load(text)
        try:
            Plan.from_text(text, source="p.yaml")
            accepted = True
        except skillgrant.PlanError:
            accepted = False
        assert validator.is_valid(data) == accepted, text
    for sample in sorted((REPO / "samples").glob("*/plan.yaml")):
        validator.validate(yaml.safe_load(sample.read_text(encoding="utf-8")))


def test_pre_commit_hooks_file() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    by_id = {hook["id"]: hook for hook in hooks}
    assert by_id["skillgrant-check"]["entry"] == "skillgrant check"
    assert by_id["skillgrant-apply"]["entry"] == "skillgrant apply"
    import re

    for hook in hooks:
        assert hook["language"] == "python"
        pattern = re.compile(hook["files"])
        assert pattern.search("skills/x/SKILL.md") and pattern.search("SKILL.md")
        assert not pattern.search("docs/SKILL.md.bak") and not pattern.search("MYSKILL.md")


def test_import_is_light() -> None:
    code = ("import sys, skillgrant.cli.app; print(sorted(m for m in ('pydantic', 'lark', 'yaml', "
            "'frontmatter', 'rich', 'jsonschema', 'skillgrant.plan.model', "
            "'skillgrant.skillfile.builder', 'skillgrant.reports.check') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


# --- real processes ------------------------------------------------------------------------

def _script() -> list[str]:
    found = shutil.which("skillgrant", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "skillgrant"]


def _proc(argv: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "SKILLGRANT_DEBUG"} | env
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env=environment,
                          timeout=60)


def test_console_script_check_and_apply(repo: Path) -> None:
    checked = _proc([*_script(), "check", "skills/wide", "--plan", "plan.yaml", "-f", "json"],
                    repo)
    assert checked.returncode == 1, checked.stderr
    assert json.loads(checked.stdout)["files"][0]["allowed"] == ["Bash(gh pr list)"]
    applied = _proc([*_script(), "apply", "skills/wide", "--plan", "plan.yaml"], repo)
    assert applied.returncode == 0, applied.stderr
    assert read("skills/wide/SKILL.md") == WIDE_AFTER
    assert _proc([*_script(), "check", "skills/wide", "--plan", "plan.yaml"], repo).returncode == 0


def test_python_m_skillgrant(repo: Path) -> None:
    version = _proc([sys.executable, "-m", "skillgrant", "--version"], repo)
    assert version.returncode == 0 and version.stdout == f"skillgrant {skillgrant.__version__}\n"
    explained = _proc([sys.executable, "-m", "skillgrant", "explain", "Bash(rm -rf /)",
                       "-a", "Bash(gh *)"], repo)
    assert explained.returncode == 1
    assert "witness:    rm -rf /" in explained.stdout
    bad = _proc([sys.executable, "-m", "skillgrant", "check", "skills", "--plan", "nope.yaml"],
                repo)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("skillgrant: error: nope.yaml")


def test_console_script_sarif_validates(repo: Path) -> None:
    out = _proc([*_script(), "check", "skills", "--plan", "plan.yaml", "--format", "sarif"], repo)
    assert out.returncode == 1
    sarif_validator().validate(json.loads(out.stdout))


def test_plans_from_stdin_and_explicit_kinds_are_bounded(tmp_path: Path) -> None:
    """MAX_FILE_BYTES holds on every way a plan reaches the CLI: stdin, and a file read with an
    explicit --plan-kind (a device such as /dev/zero is not a regular file: refused unread)."""
    from skillgrant.limits import MAX_FILE_BYTES

    skill = tmp_path / "SKILL.md"
    skill.write_text("---\nname: x\nallowed-tools: Read\n---\n", encoding="utf-8")
    huge = "allowed-tools: [Read]\n" + "#" * MAX_FILE_BYTES
    result = CliRunner().invoke(app, ["check", str(skill), "--plan", "-"], input=huge)
    assert result.exit_code == 2
    assert "MAX_FILE_BYTES" in result.stderr
    result = CliRunner().invoke(app, ["check", str(skill), "--plan", "/dev/zero",
                                      "--plan-kind", "plan"])
    assert result.exit_code == 2
    assert result.stderr == ("skillgrant: error: /dev/zero: cannot read the plan: not a "
                             "regular file: a character device\n")


# --- what the walk cannot read, and what is not a regular file -----------------------------
# A directory the walk cannot enter or list is an error for that directory (exit 2), never
# skipped; a SKILL.md that is a FIFO, socket or device is refused unread, never waited on.

def _denied(monkeypatch: pytest.MonkeyPatch, denied: str, *, when: str) -> None:
    """os.scandir fails on ``denied`` as a chmod 000 directory does for a user other than root
    (the tests may run as root, who reads it anyway): at opening, or while listing it."""
    import errno

    real = os.scandir

    def scandir(path: str | os.PathLike[str] = ".") -> object:
        if os.path.normpath(os.fspath(path)) != os.path.normpath(denied):
            return real(path)
        error = PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
        if when == "open":
            raise error

        class Listing:
            def __enter__(self) -> Listing:
                return self

            def __exit__(self, *exc: object) -> None:
                return None

            def __iter__(self) -> Listing:
                return self

            def __next__(self) -> os.DirEntry[str]:
                raise error

        return Listing()

    monkeypatch.setattr(os, "scandir", scandir)


@pytest.mark.parametrize("when", ["open", "list"])
def test_unreadable_subdirectory_is_an_error_not_skipped(
        repo: Path, monkeypatch: pytest.MonkeyPatch, when: str) -> None:
    denied = os.path.join("skills", "spelling")
    _denied(monkeypatch, denied, when=when)
    message = f"skillgrant: error: {denied}: cannot read the directory: Permission denied\n"
    text = run("check", "skills", "--plan", "plan.yaml")
    assert text.exit_code == 2, text.output
    assert text.stderr == message
    assert "skills/narrow/SKILL.md:4: unchanged" in text.stdout  # the others are reported
    assert text.stdout.endswith("4 files checked: 2 would change, 1 with errors.\n")
    document = json.loads(run("check", "skills", "--plan", "plan.yaml", "-f", "json").stdout)
    assert [(Path(f["path"]).as_posix(), f["error"]) for f in document["files"]] == [
        ("skills/narrow/SKILL.md", None), ("skills/nokey/SKILL.md", None),
        ("skills/spelling", {"message": "cannot read the directory: Permission denied",
                             "line": None, "column": None}),
        ("skills/wide/SKILL.md", None)]
    assert document["summary"]["errors"] == 1
    sarif = json.loads(run("check", "skills", "--plan", "plan.yaml", "-f", "sarif").stdout)
    notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [n["message"]["text"] for n in notes] == [
        "cannot read the directory: Permission denied"]
    applied = run("apply", "skills", "--plan", "plan.yaml")
    assert applied.exit_code == 2 and applied.stderr == message
    assert read("skills/wide/SKILL.md") == WIDE_AFTER  # the readable files are still applied


def test_unreadable_directory_given_is_an_error_not_no_skill_found(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _denied(monkeypatch, "skills", when="open")
    result = run("check", "skills", "--plan", "plan.yaml")
    assert result.exit_code == 2
    assert result.stderr == ("skillgrant: error: skills: cannot read the directory: "
                             "Permission denied\n")
    assert result.stdout == "1 file checked: 0 would change, 1 with errors.\n"


def _as_another_user() -> dict[str, object] | None:
    """subprocess arguments that run a command as a user other than root, or None."""
    if not hasattr(os, "geteuid"):
        return None
    if os.geteuid() != 0:
        return {}
    import pwd

    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        return None
    drop: dict[str, object] = {"user": nobody.pw_uid, "group": nobody.pw_gid,
                               "extra_groups": []}
    try:
        probe = subprocess.run([sys.executable, "-c", "import skillgrant"], capture_output=True,
                               timeout=60, check=False, cwd="/", **drop)  # type: ignore[call-overload]
    except OSError:  # the interpreter is where that user cannot reach
        return None
    return drop if probe.returncode == 0 else None


def test_a_chmod_000_subdirectory_is_an_error_for_a_real_user() -> None:
    """The real thing, where a user who is not root can run skillgrant."""
    import tempfile

    drop = _as_another_user()
    if drop is None:
        pytest.skip("no user but root can run skillgrant here")
    top = Path(tempfile.mkdtemp(prefix="skillgrant-denied-"))
    try:
        top.chmod(0o755)
        for name in ("s/a", "s/b"):
            (top / name).mkdir(parents=True)
            (top / name / "SKILL.md").write_text(NARROW, encoding="utf-8")
            (top / name).chmod(0o755)
        (top / "s").chmod(0o755)
        (top / "plan.yaml").write_text(PLAN_YAML, encoding="utf-8")
        (top / "plan.yaml").chmod(0o644)
        for name in ("s/a/SKILL.md", "s/b/SKILL.md"):
            (top / name).chmod(0o644)
        (top / "s/b").chmod(0)
        environment = {k: v for k, v in os.environ.items() if k != "SKILLGRANT_DEBUG"}
        out = subprocess.run([*_script(), "check", "s", "--plan", "plan.yaml"], cwd=top,
                             capture_output=True, text=True, env=environment, timeout=60,
                             check=False, **drop)  # type: ignore[call-overload]
        assert out.returncode == 2, out.stderr
        assert out.stderr == ("skillgrant: error: s/b: cannot read the directory: "
                              "Permission denied\n")
        assert out.stdout.startswith("s/a/SKILL.md:4: unchanged")
    finally:
        (top / "s/b").chmod(0o755)
        shutil.rmtree(top)


def _fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def _release(fifo: Path) -> None:
    """Open the FIFO for writing and close it at once, when a reader waits on it (it then
    reads end of file): a regression fails its test instead of leaving a reader blocked."""
    import errno

    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError as e:
        if e.errno != errno.ENXIO:  # ENXIO: no reader waits
            raise


def _proc_in_time(argv: list[str], cwd: Path, fifo: Path,
                  seconds: float = 20) -> subprocess.CompletedProcess[str]:
    """``_proc`` that fails after ``seconds``: the whole process group is ended (a --jobs worker
    stuck on the FIFO would otherwise keep the pipes open, and the wait would never end)."""
    import signal

    environment = {k: v for k, v in os.environ.items() if k != "SKILLGRANT_DEBUG"}
    with subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, env=environment, start_new_session=True) as child:
        try:
            out, err = child.communicate(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            pytest.fail(f"{argv[1:]} waited on a FIFO for {seconds}s")
        finally:
            _release(fifo)
    return subprocess.CompletedProcess(argv, child.returncode, out, err)


FIFO_CASES = {
    "check given": (["check", "odd/SKILL.md", "--plan", "plan.yaml"],
                    "odd/SKILL.md: cannot read the file: not a regular file: a FIFO"),
    "check walk": (["check", "odd", "skills/narrow", "--plan", "plan.yaml"],
                   "odd/SKILL.md: cannot read the file: not a regular file: a FIFO"),
    "check walk, jobs": (["check", ".", "--plan", "plan.yaml", "--jobs", "2"],
                         "odd/SKILL.md: cannot read the file: not a regular file: a FIFO"),
    "apply walk": (["apply", "odd", "--plan", "plan.yaml"],
                   "odd/SKILL.md: cannot read the file: not a regular file: a FIFO"),
    "check plan": (["check", "skills/narrow", "--plan", "odd/SKILL.md"],
                   "odd/SKILL.md: cannot read the plan: not a regular file: a FIFO"),
    "lint given": (["lint", "odd/SKILL.md"],
                   "odd/SKILL.md: cannot read the plan: not a regular file: a FIFO"),
    "diff given": (["diff", "plan.yaml", "odd/SKILL.md"],
                   "odd/SKILL.md: cannot read the plan: not a regular file: a FIFO"),
}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("case", list(FIFO_CASES))
def test_fifo_named_skill_md_is_refused_not_hung(repo: Path, case: str) -> None:
    """Nothing ever writes to the FIFO: a reader that opened it would wait forever (the
    timeout turns that into a failure)."""
    args, message = FIFO_CASES[case]
    fifo = _fifo(repo / "odd" / "SKILL.md")
    out = _proc_in_time([*_script(), *args], repo, fifo)
    assert out.returncode == 2, out.stderr
    assert f"skillgrant: error: {message}\n" in out.stderr
    if "walk" in case and "apply" not in case:
        assert "skills/narrow/SKILL.md:4: unchanged" in out.stdout


def test_fifo_named_skill_md_is_refused_not_hung_in_process(repo: Path) -> None:
    """The same through typer (the console script may take the start-up path, cli.entry)."""
    import threading

    fifo = _fifo(repo / "odd" / "SKILL.md")
    results: list[Result] = []
    worker = threading.Thread(target=lambda: results.extend(
        [run("check", "odd", "--plan", "plan.yaml"), run("lint", "odd/SKILL.md")]),
        daemon=True)
    worker.start()
    worker.join(timeout=20)
    if worker.is_alive():
        for _ in range(100):  # let each blocked open go, so the runner restores sys.stdout
            _release(fifo)
            worker.join(timeout=0.1)
        pytest.fail("a FIFO named SKILL.md was opened and waited on")
    checked, linted = results
    assert checked.exit_code == 2 and checked.stderr == (
        "skillgrant: error: odd/SKILL.md: cannot read the file: not a regular file: a FIFO\n")
    assert linted.exit_code == 2 and linted.stderr == (
        "skillgrant: error: odd/SKILL.md: cannot read the plan: not a regular file: a FIFO\n")


def test_devices_and_sockets_named_skill_md_are_refused(repo: Path) -> None:
    import socket

    (repo / "zero").mkdir()
    (repo / "zero" / "SKILL.md").symlink_to("/dev/zero")
    (repo / "sock").mkdir()
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(os.path.join("sock", "SKILL.md"))
        result = run("check", "zero", "sock", "/dev/null", "skills/narrow", "--plan", "plan.yaml")
    finally:
        server.close()
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "skillgrant: error: zero/SKILL.md: cannot read the file: not a regular file: a "
        "character device",
        "skillgrant: error: sock/SKILL.md: cannot read the file: not a regular file: a socket",
        "skillgrant: error: /dev/null: cannot read the file: not a regular file: a character "
        "device"]
    assert result.stdout.endswith("4 files checked: 0 would change, 3 with errors.\n")


def test_a_plan_piped_to_standard_input_is_still_read(repo: Path) -> None:
    """``--plan -`` reads a pipe by design (not through the regular-file reader)."""
    environment = {k: v for k, v in os.environ.items() if k != "SKILLGRANT_DEBUG"}
    for argv, status in ((["check", "skills/narrow", "--plan", "-"], 0), (["lint", "-"], 1)):
        out = subprocess.run([*_script(), *argv], cwd=repo, input=PLAN_YAML, capture_output=True,
                             text=True, env=environment, timeout=60, check=False)
        assert (out.returncode, out.stderr) == (status, ""), argv  # lint: Read is too broad
