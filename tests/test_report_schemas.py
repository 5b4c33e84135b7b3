"""The JSON Schemas of the command line's documents (reports.schemas, issue 16): each is a valid
draft 2020-12 schema, each document the real command line writes — on the shipped samples and
on crafted files (errors, restores, a file that cannot be read), and every hook dialect's
answers — validates, and each schema refuses a document that drifts from docs/cli.md."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import forkrun
import jsonschema
import pytest
from checked import checked_names
from pinned import CLI

from skillgrant import verdicts
from skillgrant.gate.dialects import DIALECTS
from skillgrant.reports.schemas import DRAFT, REPORT_SCHEMAS, report_schema
from skillgrant.review.lint import DiffKind
from skillgrant.rules import CHECK_RULES, status_rule

REPO = Path(__file__).resolve().parents[1]
SAMPLES = sorted(p.parent.name for p in (REPO / "samples").glob("*/plan.yaml"))
Document = dict[str, Any]


def skillgrant(*args: str, cwd: Path = REPO, stdin: str | None = None) -> tuple[int, str]:
    """Exit status and stdout of the command line, in a process forked from the server of
    tests/forkrun.py (``schema --report`` below runs new ``python -m skillgrant`` processes)."""
    done = forkrun.run(list(args), cwd=cwd, input=stdin, timeout=120,
                       env={**os.environ, "NO_COLOR": "1"})
    stderr = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr, stderr
    return done.returncode, done.stdout.decode("utf-8")


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(report_schema(name))


def valid(name: str, document: Document) -> Document:
    errors = [f"{list(e.absolute_path)}: {e.message}"
              for e in validator(name).iter_errors(document)]
    assert errors == [], errors
    return document


def written(name: str, *args: str, cwd: Path = REPO, status: int | None = None,
            stdin: str | None = None) -> Document:
    """The one JSON document a command writes, validated against the schema ``name``."""
    code, out = skillgrant(*args, cwd=cwd, stdin=stdin)
    if status is not None:
        assert code == status, out
    document: Document = json.loads(out)
    return valid(name, document)


# --- the schemas themselves ---------------------------------------------------------------

def test_the_names() -> None:
    assert REPORT_SCHEMAS == ("check", "apply", "explain", "lint", "diff", "hook-claude-code",
                              "hook-copilot-cli", "hook-codex", "hook-vscode",
                              "hook-gemini-cli",
                              "suggest", "replay", "audit-verify", "audit-record")  # issue 32
    assert {n for n in REPORT_SCHEMAS if n.startswith("hook-")} == {f"hook-{d}"
                                                                  for d in DIALECTS}


@pytest.mark.parametrize("name", REPORT_SCHEMAS)
def test_each_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    schema = report_schema(name)
    assert schema["$schema"] == DRAFT == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    assert json.loads(json.dumps(schema)) == schema  # what `skillgrant schema` would print
    assert schema["title"].startswith("skillgrant ") and schema["description"]


def _objects(schema: Any) -> Iterator[Document]:
    """Every subschema that describes an object's own fields (not the conditions on them)."""
    if not isinstance(schema, dict):
        return
    if "properties" in schema:
        yield schema
        for sub in schema["properties"].values():
            yield from _objects(sub)
    for key in ("items", "$defs"):
        sub = schema.get(key)
        for item in (sub.values() if key == "$defs" and sub else [sub]):
            yield from _objects(item)
    for option in schema.get("anyOf", []):
        yield from _objects(option)


@pytest.mark.parametrize("name", REPORT_SCHEMAS)
def test_every_object_is_closed(name: str) -> None:
    objects = list(_objects(report_schema(name)))
    assert objects
    for described in objects:
        assert described["additionalProperties"] is False, described
        assert set(described["required"]) <= set(described["properties"])


def test_a_schema_is_a_new_value_each_time() -> None:
    first = report_schema("check")
    first["properties"].clear()
    assert report_schema("check")["properties"]


def test_an_unknown_name() -> None:
    with pytest.raises(ValueError, match="no report schema named 'sarif'; the names are check, "):
        report_schema("sarif")


def test_the_status_rules_are_the_catalogues() -> None:
    schema = report_schema("explain")
    pairs = {rule["if"]["properties"]["status"]["const"]:
             rule["then"]["properties"]["rule"]["const"]
             for rule in schema["allOf"][1:]}
    assert pairs == {s: getattr(status_rule(s), "id", None) for s in pairs}
    decision = report_schema("check")["$defs"]["decision"]["properties"]
    assert set(decision["rule"]["enum"]) == {None} | {r.id for r in CHECK_RULES} - {
        "SG006", "SG009", "SG010", "SG011"}
    # Every status and every diff kind the library can give is one the schemas take.
    assert decision["status"]["enum"] == list(get_args(checked_names(verdicts)["VerdictStatus"]))
    kinds = report_schema("diff")["$defs"]["grant"]["properties"]["kind"]["enum"]
    assert sorted(kinds) == sorted(get_args(DiffKind))


# --- check and apply ----------------------------------------------------------------------

PLAN = "allowed-tools:\n  - Bash(gh *)\n  - Read\n"
CRAFTED = {
    "skills/narrow/SKILL.md": "---\nname: n\ndescription: d\nallowed-tools: Bash(gh pr list)\n"
                              "---\n",
    "skills/wide/SKILL.md": "---\nname: w\ndescription: d\nallowed-tools:\n  - Read\n"
                            "  - Bash(rm -rf /)\n  - Bash(\n  - LS\n---\n",
    "skills/restored/SKILL.md": "---\nname: r\ndescription: d\nallowed-tools: Bash(curl x)\n"
                                "---\n",
    "skills/nokey/SKILL.md": "---\nname: k\ndescription: d\n---\nbody\n",
    "skills/spelled/SKILL.md": "---\nname: s\ndescription: d\nallowed-tools: bash(gh x), "
                               "Read, read\n---\n",
    "skills/ignored/SKILL.md": "---\nname: i\ndescription: a --- b\nallowed-tools: Read\n---\n",
    "skills/broken/SKILL.md": "no frontmatter\n",
    "skills/badyaml/SKILL.md": "---\nname: [x\n---\n",
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "plan.yaml").write_text(PLAN, encoding="utf-8")
    for name, text in CRAFTED.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    # A SKILL.md that is a FIFO is refused unopened: an input error in its place.
    (tmp_path / "skills/fifo").mkdir()
    os.mkfifo(tmp_path / "skills/fifo/SKILL.md")
    return tmp_path


@pytest.mark.parametrize("sample", SAMPLES)
def test_check_and_apply_on_the_samples(sample: str) -> None:
    args = (f"samples/{sample}/SKILL.md", "--plan", f"samples/{sample}/plan.yaml",
            "--format", "json")
    checked = written("check", "check", *args, status=1)
    assert checked["files"][0]["decisions"]
    dry = written("apply", "apply", "--dry-run", *args, status=0)
    assert dry["dry_run"] is True and dry["files"][0]["diff"].startswith("--- a/")


def test_check_on_crafted_files(repo: Path) -> None:
    # The rule of each kind of verdict, in Claude Code's reading (under Copilot CLI too, the
    # default, the inert entry is not known to grant nothing: SG002).
    document = written("check", "check", "skills", "--plan", "plan.yaml", "--format", "json",
                       *CLI, cwd=repo, status=2)
    by_path = {Path(f["path"]).parent.name: f for f in document["files"]}
    assert set(by_path) == {Path(n).parent.name for n in CRAFTED} | {"fifo"}
    assert by_path["restored"]["restored"] is True
    assert by_path["fifo"]["error"]["message"].endswith("not a regular file: a FIFO")
    assert by_path["badyaml"]["error"]["line"] is not None
    assert by_path["ignored"]["runtime_note"]
    rules = [d["rule"] for d in by_path["wide"]["decisions"]]
    assert rules == [None, "SG001", "SG003", "SG004"]
    assert document["summary"]["errors"] == 3


@pytest.mark.parametrize("dry_run", [False, True])
def test_apply_on_crafted_files(repo: Path, dry_run: bool) -> None:
    args = ["apply", *(["--dry-run"] if dry_run else []), "skills", "--plan", "plan.yaml",
            "--format", "json"]
    document = written("apply", *args, cwd=repo, status=2)
    assert document["dry_run"] is dry_run
    assert document["summary"]["applied"] == (0 if dry_run else 4)
    assert all(("diff" in f) is dry_run for f in document["files"])


# --- explain, lint, diff ------------------------------------------------------------------

@pytest.mark.parametrize(("grant", "status"), [
    ("Bash(gh pr view 12)", "covered"), ("bash(gh pr view 12)", "covered"),
    ("Bash(rm -rf /)", "not_covered"), ("Bash(", "invalid"), ("LS", "inert"),
    ("Foo(x (y) Bash )", "ambiguous"),
])
def test_explain(grant: str, status: str) -> None:
    document = written("explain", "explain", grant, "-a", "Bash(gh *)", "-a", "Read",
                       "--format", "json", *CLI)
    assert document["status"] == status


def test_explain_with_a_plan() -> None:
    document = written("explain", "explain", "Read(docs/x.md)", "--plan",
                       "samples/release-notes/plan.yaml", "--format", "json", status=0)
    assert document["covered_by"] == "Read(docs/**)"


REVIEW_PLAN = ("allowed-tools:\n  - Bash(gh issue list *)\n  - Bash(sudo *)\n  - Read(//**)\n"
               "  - LS\n  - Task(reviewer)\n  - Bash(\n")


@pytest.mark.parametrize("sample", SAMPLES)
def test_lint_and_diff_on_the_samples(sample: str) -> None:
    written("lint", "lint", f"samples/{sample}/plan.yaml", "--format", "json")
    document = written("diff", "diff", f"samples/{sample}/plan.yaml",
                       f"samples/{sample}/SKILL.md", "--format", "json", status=1)
    assert document["escalates"] is True


def test_lint_on_crafted_plans(tmp_path: Path) -> None:
    (tmp_path / "review.yaml").write_text(REVIEW_PLAN, encoding="utf-8")
    document = written("lint", "lint", "review.yaml", "--format", "json", cwd=tmp_path,
                       status=1)
    assert {f["severity"] for f in document["findings"]} == {"error", "warning", "info"}
    clean = written("lint", "lint", "-", "--format", "json", cwd=tmp_path, status=0,
                    stdin="allowed-tools: [Read(src/**), Bash(gh pr view *)]\n")
    assert clean["findings"] == [] and clean["source"] == "<stdin>"


def test_diff_on_crafted_plans(tmp_path: Path) -> None:
    (tmp_path / "old.yaml").write_text(
        "allowed-tools:\n  - Bash(gh *)\n  - Read(src/**)\n  - WebFetch(domain:api.github.com)\n"
        "  - Edit\n", encoding="utf-8")
    (tmp_path / "new.yaml").write_text(
        "allowed-tools:\n  - Bash(gh pr list *)\n  - Bash(curl *)\n  - Read(src/**)\n  - LS\n"
        "  - '*'\n  - Bash(\n  - Edit(**)\n  - Edit(src/**)\n", encoding="utf-8")
    document = written("diff", "diff", "old.yaml", "new.yaml", "--format", "json",
                       cwd=tmp_path, status=1)
    kinds = {g["kind"] for g in document["grants"]}
    # `*` grants nothing under either runtime; `LS` grants nothing under Claude Code only.
    assert {"escalated", "narrowed", "unchanged", "inert", "removed"} <= kinds
    same = written("diff", "diff", "old.yaml", "old.yaml", "--format", "json", cwd=tmp_path,
                   status=0)
    assert same["escalates"] is False


# --- the hook's answers -------------------------------------------------------------------

SHELL = {"claude-code": "Bash", "copilot-cli": "bash", "codex": "Bash",
         "vscode": "run_in_terminal", "gemini-cli": "run_shell_command"}


def payload(dialect: str, command: str, cwd: Path) -> str:
    """A PreToolUse call of the shell tool, as ``dialect`` sends it."""
    if dialect == "copilot-cli":
        return json.dumps({"sessionId": "s", "cwd": str(cwd), "toolName": "bash",
                           "toolArgs": json.dumps({"command": command})})
    event = {"gemini-cli": "BeforeTool"}.get(dialect, "PreToolUse")
    body: Document = {"session_id": "s", "cwd": str(cwd), "tool_name": SHELL[dialect],
                      "tool_input": {"command": command}}
    body["hookEventName" if dialect == "vscode" else "hook_event_name"] = event
    if dialect == "codex":
        body["turn_id"] = "t-1"
    return json.dumps(body)


def _decision(dialect: str, document: Document) -> str:
    if dialect == "gemini-cli":
        return str(document["decision"])
    if dialect == "copilot-cli":
        return str(document["permissionDecision"])
    return str(document["hookSpecificOutput"]["permissionDecision"])


@pytest.mark.parametrize(("command", "options", "answer"), [
    ("rm -rf /", (), "deny"),
    ("rm -rf /", ("--outside", "ask"), "ask"),
    ("git status", ("--inside", "allow"), "allow"),
    ("git status", (), None),
    (None, (), "deny"),  # a payload that is not JSON: the hook fails closed
])
@pytest.mark.parametrize("dialect", DIALECTS)
def test_hook_answers(tmp_path: Path, dialect: str, command: str | None,
                      options: tuple[str, ...], answer: str | None) -> None:
    (tmp_path / "plan.yaml").write_text("allowed-tools: [Bash(git status), Read]\n",
                                        encoding="utf-8")
    if dialect == "codex" and answer in ("ask", "allow"):
        # Codex honours neither: an ask becomes a denial, an allow no answer at all.
        answer = "deny" if answer == "ask" else None
    stdin = "{not json" if command is None else payload(dialect, command, tmp_path)
    code, out = skillgrant("hook", "--plan", str(tmp_path / "plan.yaml"), "--dialect", dialect,
                           *options, cwd=tmp_path, stdin=stdin)
    if dialect == "copilot-cli" and answer == "allow":
        answer = None  # it never allows: inside the plan it defers to the runtime (issue 30)
    if answer is None:
        # Copilot CLI runs a call on an empty object (no decision), and needs one JSON object.
        assert (code, out) == (0, "{}\n" if dialect == "copilot-cli" else "")
        return
    assert code == (2 if answer == "deny" else 0)
    document = valid(f"hook-{dialect}", json.loads(out))
    assert _decision(dialect, document) == answer


# --- a document that drifts fails ---------------------------------------------------------

@pytest.fixture(scope="module")
def check_document() -> Document:
    code, out = skillgrant("check", "samples/db-migrate/SKILL.md", "--plan",
                           "samples/db-migrate/plan.yaml", "--format", "json")
    assert code == 1
    document: Document = json.loads(out)
    return document


def _drifted(document: Document, path: tuple[str | int, ...], value: object) -> Document:
    changed = copy.deepcopy(document)
    target: Any = changed
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return changed


DECISION = ("files", 0, "decisions")


@pytest.mark.parametrize(("path", "value"), [
    (("extra",), 1),  # a field docs/cli.md does not list
    (("version",), 2),
    (("command",), "apply"),
    (("tool", "name"), "other"),
    (("files", 0, "applied"), True),  # check never writes
    (("files", 0, "diff"), ""),  # only apply --dry-run has a diff
    ((*DECISION, 2, "rule"), "SG002"),  # not_covered is SG001
    ((*DECISION, 2, "kept"), True),  # a dropped entry is never kept
    ((*DECISION, 2, "covered_by"), "Read"),
    ((*DECISION, 0, "kept"), False),  # a covered entry that is not a repeat is kept
    ((*DECISION, 0, "rule"), "SG001"),
    ((*DECISION, 0, "line"), 0),
    ((*DECISION, 0, "status"), "maybe"),
    (("files", 0, "error"), {"message": "x", "line": None, "column": None}),
    (("summary", "skipped"), 0),
])
def test_a_drifted_check_document_fails(check_document: Document,
                                        path: tuple[str | int, ...], value: object) -> None:
    valid("check", check_document)
    assert not validator("check").is_valid(_drifted(check_document, path, value))


@pytest.mark.parametrize(("name", "document"), [
    ("hook-codex", {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                           "permissionDecision": "allow",
                                           "permissionDecisionReason": "r"}}),
    ("hook-claude-code", {"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                                 "permissionDecision": "deny",
                                                 "permissionDecisionReason": "r"}}),
    ("hook-claude-code", {"permissionDecision": "deny", "permissionDecisionReason": "r"}),
    ("hook-copilot-cli", {"permissionDecision": "deny", "permissionDecisionReason": ""}),
    ("hook-gemini-cli", {"decision": "block", "reason": "r"}),
    ("hook-gemini-cli", {"decision": "deny", "reason": "r", "continue": False}),
])
def test_a_drifted_hook_answer_fails(name: str, document: Document) -> None:
    assert not validator(name).is_valid(document)


def test_drifted_lint_diff_and_explain_documents_fail(tmp_path: Path) -> None:
    (tmp_path / "review.yaml").write_text(REVIEW_PLAN, encoding="utf-8")
    _, out = skillgrant("lint", "review.yaml", "--format", "json", cwd=tmp_path)
    lint = valid("lint", json.loads(out))
    first = ("findings", 0)
    drifts: list[tuple[tuple[str | int, ...], object]] = [
        ((*first, "name"), "any-host"), ((*first, "severity"), "info"),
        ((*first, "index"), None), ((*first, "category"), "inert")]
    for path, value in drifts:
        assert not validator("lint").is_valid(_drifted(lint, path, value)), path
    _, out = skillgrant("diff", "samples/gh-triage/plan.yaml", "samples/gh-triage/SKILL.md",
                        "--format", "json")
    diff = valid("diff", json.loads(out))
    escalated = next(i for i, g in enumerate(diff["grants"]) if g["kind"] == "escalated")
    drifts = [(("grants", escalated, "escalates"), False),
              (("grants", escalated, "rule"), "SGD003"),
              (("grants", escalated, "side"), "old"),
              (("summary", "kept"), 1)]
    for path, value in drifts:
        assert not validator("diff").is_valid(_drifted(diff, path, value)), path
    _, out = skillgrant("explain", "Read", "-a", "Read", "--format", "json")
    explain = valid("explain", json.loads(out))
    drifts = [(("rule",), "SG007"), (("covered",), False), (("command",), "x")]
    for path, value in drifts:
        assert not validator("explain").is_valid(_drifted(explain, path, value)), path


@pytest.mark.parametrize("name", REPORT_SCHEMAS)
def test_schema_report_prints_each_schema(name: str) -> None:
    done = subprocess.run([sys.executable, "-m", "skillgrant", "schema", "--report", name],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and json.loads(done.stdout) == report_schema(name)


def test_schema_report_refuses_an_unknown_name() -> None:
    done = subprocess.run([sys.executable, "-m", "skillgrant", "schema", "--report", "nope"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--report must be one of" in done.stderr
