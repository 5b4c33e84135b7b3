"""Issue 7's fast paths give exactly what the plain paths give: ``--jobs N`` against
``--jobs 1``, the light plan loader against the pydantic model, remembered verdicts and parses
against cold ones, the kept Lark parser against a freshly built one. Nothing here is timed."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pinned
import pytest
from typer.testing import CliRunner, Result

from skillgrant import PlanError, constrain, parse_grant, prove
from skillgrant.cli.app import app
from skillgrant.errors import GrantSyntaxError
from skillgrant.grants import _parse_once, split_allowed_tools
from skillgrant.plan.light import ApprovedPlan, plan_from_text
from skillgrant.plan.model import Plan
from skillgrant.prepared import clear_caches

WIDE = ("---\nname: w{i}\ndescription: d\nallowed-tools: Bash(gh pr view {i}), Bash(rm -rf /{i}),"
        " Read, LS\n---\nbody {i}\n")
BLOCK = ("---\nname: b{i}\ndescription: d\n# keep\nallowed-tools:\n  - bash(gh issue list)\n"
         "  - WebFetch\n---\nbody\n")
NARROW = "---\nname: n{i}\ndescription: d\nallowed-tools: Bash(gh pr list), Read\n---\nbody\n"
BROKEN = "no frontmatter {i}\n"
DUPLICATE = "---\nallowed-tools: Read\nallowed-tools: Grep\n---\n"
PLAN = "allowed-tools:\n  - Bash(gh *)\n  - Read\n"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Sixty skills of every kind (kept, dropped, restored, spelling, errors) and a plan."""
    (tmp_path / ".git").mkdir()
    templates = [WIDE, BLOCK, NARROW, BROKEN, WIDE, DUPLICATE]
    for i in range(60):
        skill = tmp_path / "skills" / f"s{i:02d}" / "SKILL.md"
        skill.parent.mkdir(parents=True)
        skill.write_text(templates[i % len(templates)].format(i=i), encoding="utf-8")
    (tmp_path / "skills" / "s07" / "SKILL.md").write_bytes(b"---\nname: \xff\n---\n")
    (tmp_path / "plan.yaml").write_text(PLAN, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SKILLGRANT_DEBUG", raising=False)
    return tmp_path


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("SKILL.md"))}


# --- --jobs ----------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
@pytest.mark.parametrize("command", [["check"], ["apply", "--dry-run"]])
def test_jobs_output_is_the_output_of_jobs_1(tree: Path, fmt: str, command: list[str]) -> None:
    args = [*command, "skills", "--plan", "plan.yaml", "--format", fmt]
    one = run(*args, "--jobs", "1")
    assert one.exit_code == 2  # the broken files
    for jobs in ("2", "3", "0"):
        many = run(*args, "--jobs", jobs)
        assert (many.exit_code, many.stdout, many.stderr) == (one.exit_code, one.stdout,
                                                              one.stderr)


def test_apply_with_jobs_writes_what_jobs_1_writes(tree: Path, tmp_path_factory:
                                                   pytest.TempPathFactory) -> None:
    import shutil

    copy = tmp_path_factory.mktemp("copy") / "tree"
    shutil.copytree(tree, copy)
    one = run("apply", "skills", "--plan", "plan.yaml", "--format", "json")
    os.chdir(copy)
    many = run("apply", "skills", "--plan", "plan.yaml", "--format", "json", "--jobs", "2")
    assert (many.exit_code, many.stdout, many.stderr) == (one.exit_code, one.stdout, one.stderr)
    assert snapshot(copy) == snapshot(tree)
    assert "rm -rf" not in (tree / "skills" / "s00" / "SKILL.md").read_text(encoding="utf-8")


def test_jobs_sends_the_log_records_back_in_file_order(tree: Path) -> None:
    args = ["--debug", "check", "skills", "--plan", "plan.yaml", "--format", "json"]
    one, many = run(*args, "--jobs", "1"), run(*args, "--jobs", "2")
    assert "skillgrant: WARNING: dropped Bash(rm -rf /0)" in one.stderr
    assert many.stderr == one.stderr
    assert many.stdout == one.stdout


def test_jobs_must_not_be_negative(tree: Path) -> None:
    result = run("check", "skills", "--plan", "plan.yaml", "--jobs", "-1")
    assert result.exit_code == 2
    assert "--jobs" in result.stderr


class _Awkward(Exception):
    """An exception that does not survive pickling (its constructor wants two arguments)."""

    def __init__(self, what: str, where: int) -> None:
        super().__init__(f"{what} at {where}")


def _explode(*args: object, **kwargs: object) -> object:
    raise RuntimeError("boom\nsecond line")


def _awkward(*args: object, **kwargs: object) -> object:
    raise _Awkward("odd", 3)


def _plan_error(*args: object, **kwargs: object) -> object:
    raise PlanError("the plan went away", source="plan.yaml", line=2)


@pytest.mark.parametrize("failure", [_explode, _awkward, _plan_error])
def test_a_failure_in_a_worker_is_the_failure_of_jobs_1(
        tree: Path, monkeypatch: pytest.MonkeyPatch, failure: object) -> None:
    monkeypatch.setattr("skillgrant.skillfile.builder.apply_to_file", failure)
    one = run("check", "skills", "--plan", "plan.yaml", "--jobs", "1")
    many = run("check", "skills", "--plan", "plan.yaml", "--jobs", "2")
    assert one.exit_code == 2
    assert (many.exit_code, many.stdout, many.stderr) == (one.exit_code, one.stdout, one.stderr)
    debug = run("--debug", "check", "skills", "--plan", "plan.yaml", "--jobs", "2")
    assert "(in a --jobs worker)" in debug.stderr
    assert debug.stderr.splitlines()[-1] == one.stderr.splitlines()[-1].split(" (run with")[0]


def test_a_real_process_pool(tree: Path) -> None:
    def real(jobs: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "skillgrant", "check", "skills", "--plan",
                               "plan.yaml", "--format", "json", "--jobs", jobs],
                              capture_output=True, text=True, check=False, timeout=120)

    one, two = real("1"), real("2")
    assert (two.returncode, two.stdout, two.stderr) == (one.returncode, one.stdout, one.stderr)


# --- the plan without pydantic ---------------------------------------------------------------

PLANS = [
    ("plan.yaml", PLAN),
    ("plan.yaml", "allowed-tools: Bash(gh *), Read\nx-note: anything\n$schema: ./s.json\n"),
    ("plan.yaml", "allowedTools: [Read, 'Bash(npm run *)']\n"),
    ("plan.yaml", "allowed_tools: []\n"),
    ("plan.json", '{"allowed-tools": ["Read", "Grep"]}'),
    ("settings.json", '{"permissions": {"allow": ["Bash(gh *)", "Read"]}}'),
    ("SKILL.md", "---\nname: a\nallowed-tools: Bash(gh *) Read\n---\nbody\n"),
    ("plan.yaml", "allowed-tools: [Read]\nshell-tools: {exec_command: {command-argument: c}}\n"),
    ("plan.yaml", "allowed-tools: [Read]\nbase-dirs: {cwd: /w}\n"),
    ("plan.yaml", "allowed-tools: [Read]\nsource: x\n"),
    ("plan.yaml", "allowed-tools: [Read]\nallowed_tools: [Grep]\n"),
    ("plan.yaml", "allowed-tools: [Read]\nallowed-toolz: [Bash]\n"),
    ("plan.yaml", "allowed-tools: [Read, 3]\n"),
    ("plan.yaml", "allowed-tools: 3\n"),
    ("plan.yaml", "allowed-tools: [Read, 'Bash(gh *']\n"),
    ("plan.yaml", "allowed-tools: [Read, 'Foo(x (y) Bash )']\n"),
    ("plan.yaml", "allowed-tools: " + ", ".join(["Read"] * 513) + "\n"),
    ("plan.json", '{"allowed-tools": ["Read\\ud800"]}'),
    ("plan.yaml", "true: [Read]\nallowed-tools: [Read]\n"),
    ("plan.yaml", "shell-tools: {}\n"),
    ("plan.yaml", "- Read\n"),
]


@pytest.mark.parametrize(("name", "text"), PLANS)
def test_the_light_plan_is_the_pydantic_plan(name: str, text: str) -> None:
    try:
        expected: Plan | PlanError = Plan.from_text(text, source=name)
    except PlanError as e:
        expected = e
    try:
        got: ApprovedPlan | Plan | PlanError = plan_from_text(text, source=name)
    except PlanError as e:
        got = e
    if isinstance(expected, PlanError):
        assert isinstance(got, PlanError)
        assert (str(got), got.line, got.column, got.entry) == (
            str(expected), expected.line, expected.column, expected.entry)
        return
    assert not isinstance(got, PlanError)
    assert got.allowed_tools == expected.allowed_tools
    assert got.constrain_kwargs() == expected.constrain_kwargs()
    assert got.source == expected.source


def test_check_with_a_plain_plan_never_imports_pydantic(tree: Path) -> None:
    # main given its arguments ends with SystemExit (its own process, the console script's,
    # leaves by os._exit: cli/entry.py), so what was imported can be printed after it.
    script = ("import sys\nfrom skillgrant.cli.entry import main\ntry:\n"
              "    main(['check', 'skills/s02', '--plan', 'plan.yaml'])\n"
              "except SystemExit as e:\n    print(e.code, sorted(m for m in ('pydantic', 'rich')"
              " if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.splitlines()[-1] == "0 []"


# --- remembered parses and verdicts ----------------------------------------------------------

ENTRIES = ["Bash(gh *)", "bash(gh pr list)", "Read", "Read(*)", "Write()", "mcp__gh__get_*",
           "Task(Explore)", r"Bash(echo \(x\) \*)", "WebFetch(domain:*.example.com)",
           "Edit(//etc/**)", "Skill(name *)", "LS", "B*"]


@pytest.mark.parametrize("entry", ENTRIES)
def test_a_cached_parse_equals_a_fresh_one(entry: str) -> None:
    clear_caches()
    first = parse_grant(entry)
    assert parse_grant(entry) is first  # remembered
    fresh = _parse_once(entry)
    assert (fresh, fresh.tool, str(fresh)) == (first, first.tool, str(first))
    assert parse_grant(str(first)) == first


def test_an_invalid_entry_fails_the_same_way_every_time() -> None:
    messages = set()
    for _ in range(3):
        with pytest.raises(GrantSyntaxError) as raised:
            parse_grant("Bash(gh *")
        messages.add(str(raised.value))
    assert len(messages) == 1


def test_split_hands_out_a_fresh_list() -> None:
    first = split_allowed_tools("Read, Grep")
    first.append("Bash")
    assert split_allowed_tools("Read, Grep") == ["Read", "Grep"]
    long = ", ".join(f"Bash(x{i})" for i in range(400))
    assert split_allowed_tools(long) == [f"Bash(x{i})" for i in range(400)]


def test_a_list_of_approved_entries_is_found_again_only_while_it_is_unchanged() -> None:
    prove = pinned.prove  # the verdicts below are Claude Code's reading; the cache is the point
    clear_caches()
    first, second = ["Bash(gh *)"], ["Bash(pnpm *)"]
    for _ in range(3):  # alternating lists, each found again
        assert prove("Bash(gh pr list)", first).covered_by == "Bash(gh *)"
        assert prove("Bash(gh pr list)", second).status == "not_covered"
    first[0] = "Bash(pnpm *)"  # changed in place: its plan is the new one
    assert prove("Bash(gh pr list)", first).status == "not_covered"
    assert prove("Bash(pnpm i)", first).covered_by == "Bash(pnpm *)"
    first.append("Bash(gh *)")
    assert prove("Bash(gh pr list)", first).covered_by == "Bash(gh *)"
    lists = [[f"Bash(qz{i} *)"] for i in range(20)]  # more lists than are kept
    for _ in range(2):
        assert [prove(f"Bash(qz{i} y)", lists[i]).covered_by for i in range(20)] == [
            f"Bash(qz{i} *)" for i in range(20)]


def test_the_plain_tools_a_plan_meets_are_bounded() -> None:
    from skillgrant.prepared import MAX_REMEMBERED_VERDICTS, plan_for

    clear_caches()
    approved = ["Bash(gh *)"]
    for i in range(MAX_REMEMBERED_VERDICTS + 10):
        assert prove(f"Tool{i}(x)", approved).status == "not_covered"
    assert len(plan_for(approved, None, None).plain_tools) <= MAX_REMEMBERED_VERDICTS
    assert prove("Bash(gh pr list)", approved).covered_by == "Bash(gh *)"


PAIRS = [
    ("Bash(gh pr list)", ["Bash(gh *)", "Read"]),
    ("Bash(rm -rf /)", ["Bash(gh *)"]),
    ("Read(src/x.ts)", ["Read(src/*.ts)"]),
    ("Read(src/**)", ["Read(src/*.ts)"]),
    ("WebFetch", ["WebFetch(domain:example.com)"]),
    ("Bash(a && b)", ["Bash(a)", "Bash(b)"]),
    ("exec_command(npm i)", ["Bash(npm *)"]),
    ("Bash(" + "a*" * 300 + ")", ["Bash(a*)"]),
]


def test_remembered_verdicts_equal_cold_ones() -> None:
    clear_caches()
    cold = [prove(e, a) for e, a in PAIRS]
    warm = [prove(e, a) for e, a in PAIRS]
    assert warm == cold
    clear_caches()
    assert [prove(e, a) for e, a in PAIRS] == cold


def test_a_remembered_verdict_charges_the_value_budget_as_deciding_it_would(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from skillgrant import prover

    approved = [f"Bash(git {'x' * 200} {i} *)" for i in range(10)]
    submitted = [f"Bash(git {'y' * 200} {i})" for i in range(6)]
    monkeypatch.setattr(prover, "MAX_WORK_PER_VALUE", 30_000)
    clear_caches()
    cold = constrain(submitted, approved).verdicts
    warm = constrain(submitted, approved).verdicts  # every verdict remembered now
    assert [v.status for v in cold][:2] == ["not_covered", "not_covered"]
    assert warm == cold
    monkeypatch.setattr(prover, "MAX_WORK_PER_VALUE", 10_000_000)
    assert {v.status for v in constrain(submitted, approved).verdicts} == {"not_covered"}


def test_a_decision_stopped_by_its_own_limit_is_remembered_and_replayed() -> None:
    hostile = "Read(" + "*/**/" * 30 + "x)"
    approved = ["Read(" + "**/*/" * 30 + "x)"]
    clear_caches()
    cold = constrain([hostile, "Read(a)", hostile], approved)
    warm = constrain([hostile, "Read(a)", hostile], approved)
    assert [v.status for v in cold.verdicts] == ["unknown", "not_covered", "unknown"]
    assert "MAX_WORK_PER_DECISION" in cold.verdicts[0].reason
    assert warm.verdicts == cold.verdicts


def test_drop_records_still_reach_a_configured_handler(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="skillgrant"):
        constrain(["Bash(rm -rf /)"], ["Read"], source="x/SKILL.md")
        constrain(["Bash(rm -rf /)"], ["Read"], source="y/SKILL.md")  # remembered verdict
    audit = [getattr(r, "skillgrant", {}) for r in caplog.records]
    files = [a["file"] for a in audit if a.get("event") == "dropped"]
    assert files == ["x/SKILL.md", "y/SKILL.md"]


# --- issue 17: entries located from the line of the one before ----------------------------

def _locate_reference(doc: Any) -> tuple[Any, tuple[Any, ...]]:
    """``cli.batch.locate`` as it was: every offset counted from the start of the text."""
    from skillgrant.reports.ci import Location

    def at(offset: int) -> Location:
        line_start = doc.text.rfind("\n", 0, offset) + 1
        return Location(doc.text.count("\n", 0, offset) + 1, offset - line_start + 1)

    value = doc.allowed_tools
    if value is None:
        return at(doc.insert_at), ()
    key = at(value.key_start + value.key_column)
    if len(value.entry_starts) != len(value.entries):
        return key, ()
    ends = value.entry_ends if len(value.entry_ends) == len(value.entries) else None
    found = []
    for i, start in enumerate(value.entry_starts):
        first = at(start)
        if ends is not None and ends[i] > start:
            last = at(ends[i] - 1)
            first = Location(first.line, first.column, (last.line, last.column))
        found.append(first)
    return key, tuple(found)


def test_lines_counts_each_offset_as_from_the_start() -> None:
    """``_Lines.at`` (session 42: a later line counted from the line before) against the line
    and column counted from the text's start, for offsets in order, out of order and repeated."""
    import random

    from skillgrant.cli.batch import _Lines

    rng = random.Random(42)
    for _ in range(300):
        text = "".join(rng.choice("ab \n\r") for _ in range(rng.randrange(0, 40)))
        lines = _Lines(text)
        offsets = sorted(rng.randrange(0, len(text) + 1) for _ in range(8))
        if rng.random() < 0.3:
            rng.shuffle(offsets)
        for offset in offsets:
            start = text.rfind("\n", 0, offset) + 1
            assert lines.at(offset) == (text.count("\n", 0, offset) + 1, offset - start + 1)


@pytest.mark.parametrize("value", [
    "Read, Grep", "[Read, Grep]", "\n  - Read\n  - Bash(gh *)\n  - Grep", '"Read,\n  Grep"',
    "|\n  Read\n  Grep, Bash(x *)", ">-\n  Read\n\n  Grep", "'a, b'", '"\\x52ead, G"',
    "[\n  Read,\n  Grep, Bash(a)\n]", "Read\n  Grep Bash(x)\n  Edit",
])
def test_locate_is_the_reference_on_every_form(value: str) -> None:
    from skillgrant.cli.batch import locate
    from skillgrant.skillfile.spans import read_skill

    for text in (f"---\nname: x\nallowed-tools: {value}\n---\nbody\n",
                 f"\ufeff---\r\nallowed-tools: {value}\r\n---\r\n".replace("\n", "\r\n")
                 .replace("\r\r\n", "\r\n")):
        if value.startswith('"') and "\r\n" in text:
            continue  # refused: Bun keeps a CRLF inside quotes (test_runtimeread.py)
        doc = read_skill(text)
        assert locate(doc) == _locate_reference(doc)
    doc = read_skill("---\nname: x\ndescription: d\n---\n")
    assert locate(doc) == _locate_reference(doc)
