"""Issue 6: fail closed under hostile input, lose nothing. The bad-input corpus.

``tests/badinput/*.toml`` holds the cases as data: each names its input (an entry, approved
entries, a SKILL.md text or bytes, a plan text), the expected error class (or, for a submitted
entry, the verdict status: a bad submitted entry is a value, not an exception) and a fragment of
the message. Every case is run through every door it can reach: the library call, the file
reader (which must leave the file byte-identical with no temporary file behind) and the CLI
(exit 2, the message on stderr, never a traceback).

The narrow plan is ``narrow_oracle.NARROW``; a value that survives it must pass the oracle.
"""

from __future__ import annotations

import codecs
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from skillgrant import (
    AllowedToolsError,
    PlanError,
    SkillFileError,
    SkillgrantError,
    constrain,
    errors,
    prove,
)
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_file, apply_to_text, read_skill

sys.path.insert(0, str(Path(__file__).parent / "property"))
from narrow_oracle import NARROW, double_quoted, unjustified

CORPUS = Path(__file__).parent / "badinput"
STATUSES = frozenset({"not_covered", "unknown", "invalid", "inert", "ambiguous"})
CALLS = frozenset({"prove", "approved", "skill", "skill_bytes", "plan"})
NARROW_PLAN = Plan.from_entries(list(NARROW))
NARROW_PLAN_YAML = "allowed-tools:\n  - Bash(gh pr list)\n  - Read(src/**)\n"
GOOD_SKILL = "---\nname: t\nallowed-tools: Bash(gh pr list), Bash(rm -rf /)\n---\nbody\n"


@dataclass(frozen=True)
class Case:
    """One corpus case, as written in its TOML table."""

    file: str
    data: dict[str, Any]

    @property
    def id(self) -> str:
        return f"{self.file}:{self.data['id']}"

    @property
    def call(self) -> str:
        return str(self.data["call"])

    @property
    def expect(self) -> str:
        return str(self.data["expect"])

    @property
    def fragment(self) -> str:
        return str(self.data["fragment"])

    @property
    def escaped(self) -> bool:
        return bool(self.data.get("escaped", False))

    @property
    def error(self) -> type[SkillgrantError]:
        error: type[SkillgrantError] = getattr(errors, self.expect)
        return error

    def value(self) -> Any:
        """The input: a string (built from prefix/unit/count/suffix when given), or a list."""
        if "count" in self.data:
            d = self.data
            return d.get("prefix", "") + d["unit"] * d["count"] + d.get("suffix", "")
        value = self.data["input"]
        if self.escaped:
            return ([_unescape(v) if isinstance(v, str) else v for v in value]
                    if isinstance(value, list) else _unescape(value))
        return value

    def raw(self) -> bytes:
        """The input as file bytes."""
        if "bytes_hex" in self.data:
            return bytes.fromhex(self.data["bytes_hex"])
        return str(self.value()).encode("utf-8")


def _unescape(text: str) -> str:
    # Python backslash escapes over ASCII text: the only way to write a lone surrogate.
    return codecs.decode(text.encode("ascii"), "unicode_escape")


def _load() -> list[Case]:
    cases: list[Case] = []
    for path in sorted(CORPUS.glob("*.toml")):
        table = tomllib.loads(path.read_text(encoding="utf-8"))
        cases.extend(Case(path.name, data) for data in table["case"])
    return cases


CASES = _load()


def _params(*calls: str) -> list[Any]:
    return [pytest.param(c, id=c.id) for c in CASES if c.call in calls]


def _cli(*args: str) -> Result:
    from skillgrant.cli.app import app  # here: a broken CLI fails its own checks, not the module

    return CliRunner().invoke(app, list(args))


def _assert_clean_exit_2(result: Result, fragment: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stderr.startswith("skillgrant: error: "), result.stderr
    assert fragment in result.stderr, result.stderr
    assert "Traceback" not in result.output
    assert "internal error" not in result.output, result.output  # a library crash, mapped




def _listing(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


# --- the corpus itself ------------------------------------------------------------------------

def test_corpus_has_at_least_100_well_formed_cases() -> None:
    assert len(CASES) >= 100
    assert len({c.id for c in CASES}) == len(CASES), "case ids repeat"
    for case in CASES:
        assert case.call in CALLS, case.id
        assert case.fragment, case.id
        assert case.data.get("why"), case.id
        if case.call == "prove":
            assert case.expect in STATUSES, case.id
        else:
            assert issubclass(case.error, SkillgrantError), case.id
        assert ("input" in case.data) + ("count" in case.data) + ("bytes_hex" in case.data) == 1


# --- submitted entries -----------------------------------------------------------------------

@pytest.mark.parametrize("case", _params("prove"))
def test_hostile_submitted_entry(case: Case) -> None:
    entry = case.value()
    approved = case.data.get("approved", list(NARROW))
    # The table's statuses are Claude Code's reading; Copilot CLI's is tests/test_copilot_cli.py.
    verdict = prove(entry, approved, runtime="claude-code")
    assert (verdict.status, case.fragment in verdict.reason) == (case.expect, True), verdict
    assert not verdict.covered and verdict.covered_by is None and verdict.written is None
    if verdict.status == "not_covered":
        assert verdict.witness
    # As a value, the entry may split into pieces (semantics §2) and a piece may truly narrow the
    # plan.
    decision = constrain([entry], approved, runtime="claude-code")
    if "approved" in case.data:
        assert decision.kept == [] and decision.restored
    elif decision.restored:
        assert decision.allowed == list(NARROW)
    else:
        assert unjustified(decision.allowed) == [], decision.allowed


@pytest.mark.parametrize("case", [c for c in _params("prove") if not c.values[0].escaped
                                  and "approved" not in c.values[0].data])
def test_hostile_entry_in_a_skill_file_never_survives_unjustified(case: Case) -> None:
    """The entry as a list item of a SKILL.md: the splitter may cut it into pieces, and a piece
    may be a true narrowing; whatever is written must pass the narrow-plan oracle."""
    item = double_quoted(case.value())
    text = f"---\nname: t\nallowed-tools:\n  - {item}\n---\nbody\n"
    new_text, decision = apply_to_text(text, NARROW_PLAN)
    written = read_skill(new_text).allowed_tools
    assert written is not None
    if decision.restored:
        assert list(written.entries) == list(NARROW)
    else:
        assert unjustified(list(written.entries)) == []
    assert new_text.endswith("---\nbody\n")


# --- approved entries ------------------------------------------------------------------------

@pytest.mark.parametrize("case", _params("approved"))
def test_invalid_approved_entries(case: Case) -> None:
    approved = case.value()
    with pytest.raises(PlanError) as raised:
        Plan.from_entries(approved)
    assert case.fragment in str(raised.value)
    with pytest.raises(PlanError) as raised:
        prove("Read", approved)
    assert case.fragment in str(raised.value)
    with pytest.raises(PlanError):
        constrain(["Read"], approved)


# --- SKILL.md --------------------------------------------------------------------------------

@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SKILLGRANT_DEBUG", raising=False)
    (tmp_path / "plan.yaml").write_text(NARROW_PLAN_YAML, encoding="utf-8")
    yield tmp_path


@pytest.mark.parametrize("case", _params("skill"))
def test_hostile_skill_text(case: Case, workdir: Path) -> None:
    text = case.value()
    with pytest.raises(case.error) as raised:
        apply_to_text(text, NARROW_PLAN, path="SKILL.md")
    assert case.fragment in str(raised.value)
    if case.escaped:
        return  # a str no file can hold
    _assert_file_refused(case, workdir, case.raw())


@pytest.mark.parametrize("case", _params("skill_bytes"))
def test_hostile_skill_bytes(case: Case, workdir: Path) -> None:
    _assert_file_refused(case, workdir, case.raw())


def _assert_file_refused(case: Case, workdir: Path, data: bytes) -> None:
    fragment = case.data.get("file_fragment", case.fragment)
    skill = workdir / "SKILL.md"
    skill.write_bytes(data)
    before = _listing(workdir)
    with pytest.raises(case.error) as raised:
        apply_to_file(skill, NARROW_PLAN)
    assert fragment in str(raised.value)
    assert str(skill) in str(raised.value)
    for command in ("check", "apply"):
        _assert_clean_exit_2(_cli(command, "SKILL.md", "--plan", "plan.yaml"), fragment)
    assert skill.read_bytes() == data
    assert _listing(workdir) == before


# --- plans -----------------------------------------------------------------------------------

@pytest.mark.parametrize("case", _params("plan"))
def test_invalid_plan(case: Case, workdir: Path) -> None:
    source = case.data.get("source")
    with pytest.raises(PlanError) as raised:
        Plan.from_text(case.value(), source=source)
    assert case.fragment in str(raised.value)
    if case.escaped:
        return
    plan = workdir / (source or "bad-plan.yaml")
    plan.parent.mkdir(parents=True, exist_ok=True)
    plan.write_bytes(case.raw())
    with pytest.raises(PlanError) as raised:
        Plan.load(plan)
    assert case.fragment in str(raised.value)
    assert str(plan) in str(raised.value)
    skill = workdir / "SKILL.md"
    skill.write_text(GOOD_SKILL, encoding="utf-8")
    relative = str(plan.relative_to(workdir))
    for command in ("check", "apply"):
        _assert_clean_exit_2(_cli(command, "SKILL.md", "--plan", relative), case.fragment)
    assert skill.read_text(encoding="utf-8") == GOOD_SKILL


# --- the public API with arguments of the wrong type ------------------------------------------
# Not corpus data (the inputs are Python objects, not text): every public function answers a
# wrong type with a SkillgrantError, never a TypeError or AttributeError from deep inside.

def _calls() -> list[Any]:
    text = "---\nallowed-tools: Read\n---\n"
    # Typed as Any: these calls break the signatures on purpose.
    api: Any = sys.modules["skillgrant"]
    files: Any = sys.modules["skillgrant.skillfile.builder"]
    plans: Any = Plan
    return [
        pytest.param(lambda: api.prove(None, ["Read"]), AllowedToolsError, id="prove-none-entry"),
        pytest.param(lambda: api.prove(b"Read", ["Read"]), AllowedToolsError,
                     id="prove-bytes-entry"),
        pytest.param(lambda: api.prove("Read", None), PlanError, id="prove-none-approved"),
        pytest.param(lambda: api.prove("Read", [1]), PlanError, id="prove-int-approved"),
        pytest.param(lambda: api.prove("Read", {"Read": 1}), PlanError, id="prove-dict-approved"),
        pytest.param(lambda: api.constrain({"Read": 1}, ["Read"]), AllowedToolsError,
                     id="constrain-dict-submitted"),
        pytest.param(lambda: api.constrain([None], ["Read"]), AllowedToolsError,
                     id="constrain-none-item"),
        pytest.param(lambda: api.split_allowed_tools(b"Read"), AllowedToolsError, id="split-bytes"),
        pytest.param(lambda: api.split_allowed_tools(None), AllowedToolsError, id="split-none"),
        pytest.param(lambda: api.split_allowed_tools(7), AllowedToolsError, id="split-int"),
        pytest.param(lambda: api.parse_grant(None), AllowedToolsError, id="parse-none"),
        pytest.param(lambda: files.read_skill(None), SkillFileError, id="read-skill-none"),
        pytest.param(lambda: files.apply_to_text(text.encode(), NARROW_PLAN), SkillFileError,
                     id="apply-bytes"),
        pytest.param(lambda: files.apply_to_text(text, None), PlanError, id="apply-no-plan"),
        pytest.param(lambda: files.apply_to_text(text, ["Read"]), PlanError, id="apply-list-plan"),
        pytest.param(lambda: plans.from_entries(None), PlanError, id="plan-none"),
        pytest.param(lambda: plans.from_entries(5), PlanError, id="plan-int"),
        pytest.param(lambda: plans.from_text(b"allowed-tools: [Read]"), PlanError,
                     id="plan-bytes"),
        pytest.param(lambda: plans.from_text(None), PlanError, id="plan-text-none"),
    ]


@pytest.mark.parametrize(("call", "error"), _calls())
def test_wrong_types_raise_skillgrant_errors(call: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        call()


@pytest.mark.parametrize("options", [
    {"shell_tools": 5}, {"shell_tools": "run"}, {"shell_tools": ["bad name"]},
    {"base_dirs": 5}, {"base_dirs": ["/x"]}, {"base_dirs": {"root": 5}},
])
def test_wrong_option_types_raise_plan_errors(options: dict[str, Any]) -> None:
    with pytest.raises(PlanError):
        prove("Read", ["Read"], **options)
    with pytest.raises(PlanError):
        constrain(["Read"], ["Read"], **options)


def test_the_real_cli_on_the_whole_corpus_exits_2_without_a_traceback(tmp_path: Path) -> None:
    """Every hostile SKILL.md of the corpus in one tree, checked by a real ``python -m
    skillgrant`` process: one error line per file, exit 2, nothing else on stderr."""
    cases = [c for c in CASES if c.call in ("skill", "skill_bytes") and not c.escaped]
    for case in cases:
        directory = tmp_path / "skills" / case.data["id"]
        directory.mkdir(parents=True)
        (directory / "SKILL.md").write_bytes(case.raw())
    (tmp_path / "plan.yaml").write_text(NARROW_PLAN_YAML, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "skillgrant", "check", "skills", "--plan",
                          "plan.yaml"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=300, check=False)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr
    errors = [line for line in run.stderr.splitlines() if line.startswith("skillgrant: error: ")]
    assert len(errors) == len(cases), run.stderr
    for case in cases:
        fragment = case.data.get("file_fragment", case.fragment)
        assert any(case.data["id"] in line and fragment in line for line in errors), case.id
