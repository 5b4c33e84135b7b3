"""``check``/``apply`` as Markdown (reports.check_markdown, issue 16): the CI step summary. The runs
are made by the library on the shipped samples and on crafted files, the way the CLI makes
them; the expected text is written out by hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skillgrant.cli.batch import check_file
from skillgrant.plan.model import Plan
from skillgrant.reports.check import FileResult, Run, render_check_markdown

REPO = Path(__file__).resolve().parents[1]
APPROVED = ["Read", "Bash(gh *)"]
# A cell border is a '|' that no backslash escapes.
BORDER = re.compile(r"(?<!\\)\|")


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The working directory: files are named relative to it, as on a command line."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def checked(root: Path, names: list[str], plan: Plan, *, write: bool = False,
            dry_run: bool = False) -> list[FileResult]:
    """What the CLI makes of each file (named relative to ``root``, the working directory)."""
    assert Path.cwd() == root
    return [check_file(Path(name), plan, root, write=write, dry_run=dry_run)[0]
            for name in names]


def skill(root: Path, name: str, frontmatter: str) -> str:
    path = root / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\n{frontmatter}---\nbody\n", encoding="utf-8")
    return f"{name}/SKILL.md"


def table_rows(text: str, header: str) -> list[list[str]]:
    """The cells of each row of the table whose header row is ``header``."""
    lines = text.splitlines()
    start = lines.index(header)
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in BORDER.split(line)[1:-1]])
    return rows


FILES = "| file | result | kept | dropped | allowed-tools |"
DECISIONS = "| file | line | decision | entry | evidence |"


def test_a_sample_as_a_step_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    plan = Plan.load(REPO / "samples/gh-triage/plan.yaml")
    run = Run("check", "samples/gh-triage/plan.yaml",
              checked(REPO, ["samples/gh-triage/SKILL.md"], plan))
    path = "`samples/gh-triage/SKILL.md`"
    # Judged under every runtime by default, a drop names the one it holds under (issue 30).
    assert render_check_markdown(run) == (
        "**skillgrant check** against `samples/gh-triage/plan.yaml`: 1 file checked: "
        "1 would change.\n"
        "\n"
        f"{FILES}\n"
        "|---|---|---:|---:|---|\n"
        f"| {path} | **would change** | 4 | 2 | `Bash(gh issue list *)`, "
        "`Bash(gh issue view *)`, `Bash(gh label list)`, `Read` |\n"
        "\n"
        f"{DECISIONS}\n"
        "|---|---:|---|---|---|\n"
        f"| {path} | 5 | kept | `Bash(gh issue list *)` | covered by `Bash(gh *)` |\n"
        f"| {path} | 5 | kept | `Bash(gh issue view *)` | covered by `Bash(gh *)` |\n"
        f"| {path} | 5 | kept | `Bash(gh label list)` | covered by `Bash(gh *)` |\n"
        f"| {path} | 5 | **dropped** (SG001 `not-covered`) | `Bash(rm -rf /tmp/triage-cache)` "
        "| witness `rm -rf /tmp/triage-cache`: under Claude Code 2\\.1\\.332\\: no approved "
        "grant allows 'rm -rf /tmp/triage-cache' |\n"
        f"| {path} | 5 | kept | `Read` | covered by `Read` |\n"
        f"| {path} | 5 | **dropped** (SG001 `not-covered`) | `WebFetch` | witness "
        "`evil.example.com`: under Claude Code 2\\.1\\.332\\: it allows every host, and no "
        "approved grant allows "
        "'evil\\.example\\.com' |\n")


def test_restores_errors_repeats_and_spellings(tmp_path: Path) -> None:
    names = [skill(tmp_path, "wide", "description: d\nallowed-tools: Bash(rm -rf /)\n"),
             "broken/SKILL.md",
             skill(tmp_path, "spelled", "description: d\nallowed-tools: bash(gh pr list), "
                   "Read, Read\n"),
             skill(tmp_path, "ignored", "description: a --- b\nallowed-tools: Read\n")]
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken/SKILL.md").write_text("no frontmatter\n", encoding="utf-8")
    run = Run("check", "plan.yaml", checked(tmp_path, names, Plan.from_entries(APPROVED)))
    text = render_check_markdown(run)
    assert text.splitlines()[0] == ("**skillgrant check** against `plan.yaml`: 4 files "
                                    "checked: 2 would change, 1 with errors.")
    files = table_rows(text, FILES)
    assert [row[:4] for row in files] == [
        ["`wide/SKILL.md`", "**would change**, approved entries restored", "0", "1"],
        ["`broken/SKILL.md`", "**error**: no frontmatter\\: the file must begin with a "
         "'---' line", "", ""],
        ["`spelled/SKILL.md`", "**would change**", "2", "0"],
        ["`ignored/SKILL.md`", "unchanged", "1", "0"],
    ]
    assert files[0][4] == "`Read`, `Bash(gh *)`"
    decisions = table_rows(text, DECISIONS)
    assert [(row[0], row[2], row[3]) for row in decisions] == [
        ("`wide/SKILL.md`", "**dropped** (SG001 `not-covered`)", "`Bash(rm -rf /)`"),
        ("`wide/SKILL.md`", "**restored** (SG006 `restored`)", "`Read`, `Bash(gh *)`"),
        ("`spelled/SKILL.md`", "kept (SG007 `tool-name-normalized`)", "`bash(gh pr list)`"),
        ("`spelled/SKILL.md`", "kept", "`Read`"),
        ("`spelled/SKILL.md`", "duplicate (SG008 `duplicate`)", "`Read`"),
        ("`ignored/SKILL.md`", "kept", "`Read`"),
        ("`ignored/SKILL.md`", "note (SG009 `runtime-ignores-allowed-tools`)", ""),
    ]
    # The file with an input error has no decision rows; each row has its entry's line.
    assert [row[1] for row in decisions] == ["4", "4", "4", "4", "4", "4", "4"]
    # Judged under every runtime by default, a drop names the one it holds under (issue 30).
    assert decisions[0][4] == ("witness `rm -rf /`: under Claude Code 2\\.1\\.332\\: no approved "
                               "grant allows 'rm -rf /'")
    assert decisions[2][4] == "covered by `Bash(gh *)`; written as `Bash(gh pr list)`"
    assert decisions[4][4] == "repeats an earlier entry; written once"
    assert "never reads it" in decisions[6][4]


@pytest.mark.parametrize(("command", "dry_run", "head", "state"), [
    ("apply", False, "**skillgrant apply** against `p.yaml`: 1 file checked: 1 rewritten.",
     "**rewritten**"),
    ("apply", True, "**skillgrant apply --dry-run** against `p.yaml`: 1 file checked: 1 would "
     "change.", "**would change**"),
])
def test_apply_states(tmp_path: Path, command: str, dry_run: bool, head: str,
                      state: str) -> None:
    name = skill(tmp_path, "s", "description: d\nallowed-tools: Read, Bash(curl x)\n")
    files = checked(tmp_path, [name], Plan.from_entries(APPROVED), write=not dry_run,
                    dry_run=dry_run)
    text = render_check_markdown(Run(command, "p.yaml", files, dry_run=dry_run))
    assert text.splitlines()[0] == head
    assert table_rows(text, FILES)[0][1] == state
    written = (tmp_path / name).read_text(encoding="utf-8")
    assert ("Bash(curl x)" in written) is dry_run


def test_untrusted_text_stays_inside_its_cells(tmp_path: Path) -> None:
    hostile = "Bash(x|`y`<img src=x>[a](http://e.com) **b**)"
    name = skill(tmp_path, "h", f"description: d\nallowed-tools: Read, {hostile}\n")
    run = Run("check", "plan | <b>.yaml", checked(tmp_path, [name], Plan.from_entries(APPROVED)))
    text = render_check_markdown(run)
    decisions = table_rows(text, DECISIONS)
    # Every row has exactly its five cells: no '|' in an entry or a name becomes a border.
    rows = [*table_rows(text, FILES), *decisions]
    assert len(rows) == 3 and all(len(row) == 5 for row in rows)
    assert decisions[1][3] == "``Bash(x\\|`y`<img src=x>[a](http://e.com) **b**)``"
    assert "`plan \\| <b>.yaml`" in text.splitlines()[0]
    assert "\n\n\n" not in text and text.endswith("|\n")


def test_an_empty_run() -> None:
    assert render_check_markdown(Run("check", None, [])) == (
        "**skillgrant check**: 0 files checked: 0 would change.\n")


def test_the_documented_step_summary_is_what_the_sample_gives(
        monkeypatch: pytest.MonkeyPatch) -> None:
    docs = (REPO / "docs/cli.md").read_text(encoding="utf-8")
    command = ("$ skillgrant check samples/gh-triage --plan samples/gh-triage/plan.yaml "
               "--format markdown\n")
    shown = docs[docs.index(command) + len(command):]
    shown = shown[:shown.index("```")]
    monkeypatch.chdir(REPO)
    plan = Plan.load(REPO / "samples/gh-triage/plan.yaml")
    run = Run("check", "samples/gh-triage/plan.yaml",
              checked(REPO, ["samples/gh-triage/SKILL.md"], plan))
    assert render_check_markdown(run) == shown
