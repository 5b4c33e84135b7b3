"""``lint``'s controls (review/selection.py): --select and --ignore by rule ID or prefix (and the
configuration's lint table), inline suppression on an entry's line, --fail-on and --exit-zero.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from skillgrant.cli.app import app
from skillgrant.review.selection import SelectionError, selection, suppressions

# SGL103 (command-wrapper, warning) on sudo; SGL001 (invalid, error) on the broken entry;
# SGL201 (removed tool, warning) on LS.
PLAN = """\
allowed-tools:
  - Bash(sudo *)
  - Bash(
  - LS
"""


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _lint(plan: str, *args: str) -> tuple[Result, list[str]]:
    Path("plan.yaml").write_text(plan, encoding="utf-8")
    result = CliRunner().invoke(app, ["lint", "plan.yaml", "--format", "json", *args])
    rules = [f["rule"] for f in json.loads(result.stdout)["findings"]] if result.stdout else []
    return result, rules


def test_every_rule_counts_by_default(here: Path) -> None:
    result, rules = _lint(PLAN)
    assert sorted(rules) == ["SGL001", "SGL103", "SGL201"] and result.exit_code == 1


@pytest.mark.parametrize(("args", "expected"), [
    (["--select", "SGL1"], ["SGL103"]),
    (["--select", "SGL0,SGL2"], ["SGL001", "SGL201"]),
    (["--select", "SGL0", "--select", "SGL2"], ["SGL001", "SGL201"]),
    (["--ignore", "SGL103"], ["SGL001", "SGL201"]),
    (["--select", "SGL", "--ignore", "SGL0", "--ignore", "SGL2"], ["SGL103"]),
])
def test_select_and_ignore(here: Path, args: list[str], expected: list[str]) -> None:
    assert sorted(_lint(PLAN, *args)[1]) == expected


def test_the_configuration_selects_unless_the_command_line_does(here: Path) -> None:
    Path(".skillgrant.toml").write_text('[lint]\nignore = ["SGL0", "SGL2"]\n')
    assert _lint(PLAN)[1] == ["SGL103"]
    assert sorted(_lint(PLAN, "--ignore", "SGL103")[1]) == ["SGL001", "SGL201"]


def test_an_unknown_rule_is_an_error(here: Path) -> None:
    result, _ = _lint(PLAN, "--select", "SGX9")
    assert result.exit_code == 2 and "'SGX9' names no rule" in result.stderr
    with pytest.raises(SelectionError):
        selection(None, ["SGL9999"], ["SGL001", "SGL103"])


def test_a_comment_on_the_entry_line_suppresses_the_rules_it_names(here: Path) -> None:
    plan = PLAN.replace("Bash(sudo *)", "Bash(sudo *)  # skillgrant: ignore[SGL103]").replace(
        "- LS", "- LS  # skillgrant: ignore[SGL103, SGL999]")
    result, rules = _lint(plan)
    assert sorted(rules) == ["SGL001", "SGL201"]  # LS's comment names another rule
    assert "1 finding(s) suppressed" in result.stderr


def test_a_suppression_in_a_flow_list_covers_the_entries_on_its_line(here: Path) -> None:
    result, rules = _lint("allowed-tools: [Bash(sudo *), LS]  "
                          "# skillgrant: ignore[SGL103,SGL201]\n")
    assert rules == [] and result.exit_code == 0


@pytest.mark.parametrize(("line", "expected"), [
    ("  - Read  # skillgrant: ignore[SGL103]", {"SGL103"}),
    ("  - Read  #skillgrant:ignore[ SGL1 , SGL2 ]", {"SGL1", "SGL2"}),
    ("  - Read  # skillgrant: ignore", set()),
    ("  - Read  # noqa: SGL103", set()),
])
def test_suppression_comments(line: str, expected: set[str]) -> None:
    assert suppressions(f"allowed-tools:\n{line}\n", 2) == expected
    assert suppressions(f"allowed-tools:\n{line}\n", 1) == set()


@pytest.mark.parametrize(("plan", "args", "status"), [
    ("allowed-tools: [Task(reviewer)]\n", [], 0),  # info only
    ("allowed-tools: [Task(reviewer)]\n", ["--fail-on", "info"], 1),
    (PLAN, ["--fail-on", "error"], 1),
    (PLAN, ["--fail-on", "error", "--ignore", "SGL0"], 0),
    (PLAN, ["--exit-zero"], 0),
    ("allowed-tools: [Read(./src/**)]\n", [], 0),
])
def test_the_exit_status_follows_fail_on(here: Path, plan: str, args: list[str],
                                         status: int) -> None:
    assert _lint(plan, *args)[0].exit_code == status


def test_several_plans_are_reviewed_one_after_another(here: Path) -> None:
    import jsonschema

    from skillgrant.reports.schemas import report_schema

    Path("a.yaml").write_text("allowed-tools: [Read(./src/**)]\n")
    Path("b.yaml").write_text("allowed-tools: [Bash(sudo *)]\n")
    text = CliRunner().invoke(app, ["lint", "a.yaml", "b.yaml"])
    assert text.exit_code == 1
    assert "a.yaml: no findings in 1 entry." in text.stdout
    assert "b.yaml: 1 finding in 1 entry (1 warning)." in text.stdout
    document = json.loads(CliRunner().invoke(app, ["lint", "a.yaml", "b.yaml", "-f", "json"])
                          .stdout)
    jsonschema.validate(document, report_schema("lint"))
    assert [d["source"] for d in document] == ["a.yaml", "b.yaml"]
    sarif = json.loads(CliRunner().invoke(app, ["lint", "a.yaml", "b.yaml", "-f", "sarif"])
                       .stdout)
    (run,) = sarif["runs"]
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in run["results"]] == ["b.yaml"]
    assert CliRunner().invoke(app, ["lint", "a.yaml"]).exit_code == 0
    twice = CliRunner().invoke(app, ["lint", "-", "-"], input="allowed-tools: [Read]\n")
    assert twice.exit_code == 2 and "can be read once" in twice.stderr


def test_a_line_separator_does_not_move_a_suppression(here: Path) -> None:
    """Locations count "\\n" alone; a U+2028 or U+0085 in an earlier value is no line break."""
    for separator in ("\u2028", "\x85"):
        plan = (f'x-note: "a{separator}b"\nallowed-tools:\n'
                "  - Read(./src/**)   # skillgrant: ignore[SGL101]\n  - Bash\n")
        Path("plan.yaml").write_text(plan, encoding="utf-8", newline="")
        result = CliRunner().invoke(app, ["lint", "plan.yaml", "--format", "json"])
        assert [f["rule"] for f in json.loads(result.stdout)["findings"]] == ["SGL101"]


@pytest.mark.parametrize("args", [["--select", ""], ["--select", ","]])
def test_an_empty_selection_is_an_error(here: Path, args: list[str]) -> None:
    result, _ = _lint(PLAN, *args)
    assert result.exit_code == 2 and "names no rule" in result.stderr
