"""semantics §5 (decisions over lists) and §9 (limits): order, duplicates, restore, empty lists,
plan errors, the over-limit value, the structured log records, and every named limit."""

from __future__ import annotations

import logging

import pytest
from pinned import constrain, prove

from skillgrant import AllowedToolsError, PlanError, SkillgrantError
from skillgrant.limits import (
    MAX_ENTRIES_PER_VALUE,
    MAX_ENTRY_LENGTH,
    MAX_WILDCARDS_PER_PATTERN,
    MAX_WORK_PER_DECISION,
)
from skillgrant.prepared import plan_for
from skillgrant.prover import prove_prepared

# --------------------------------------------------------------------------------------------
# Kept entries: order, canonical spelling, duplicates
# --------------------------------------------------------------------------------------------


def test_kept_entries_keep_submitted_order() -> None:
    decision = constrain(
        ["Bash(gh pr view)", "Read", "Bash(gh pr list)", "WebSearch"],
        ["WebSearch", "Read", "Bash(gh *)"],
    )
    assert decision.allowed == ["Bash(gh pr view)", "Read", "Bash(gh pr list)", "WebSearch"]
    assert [v.entry for v in decision.kept] == decision.allowed
    assert not decision.restored
    assert decision.dropped == []


def test_kept_entries_take_canonical_spelling() -> None:
    decision = constrain(["bash(gh)", "READ", "task(Explore)"],
                         ["Bash", "Monitor", "Read", "Agent"])
    assert decision.allowed == ["Bash(gh)", "Read", "Agent(Explore)"]
    assert [v.entry for v in decision.kept] == ["bash(gh)", "READ", "task(Explore)"]


def test_only_covered_entries_are_kept_and_order_survives_drops() -> None:
    decision = constrain(
        ["Bash(rm -rf /)", "Bash(gh)", "LS", "B\u0430sh", "Foo(x (y) Bash )", "Bash(gh -la)",
         "Bash(cat x)"],
        ["Bash(gh *)", "Foo"],
    )
    assert decision.allowed == ["Bash(gh)", "Bash(gh -la)"]
    assert [(v.entry, v.status) for v in decision.dropped] == [
        ("Bash(rm -rf /)", "not_covered"),
        ("LS", "inert"),
        ("B\u0430sh", "invalid"),
        ("Foo(x (y) Bash )", "ambiguous"),
        ("Bash(cat x)", "not_covered"),
    ]
    assert all(v.covered for v in decision.kept)
    assert not any(v.covered for v in decision.dropped)


@pytest.mark.parametrize(
    ("submitted", "allowed", "first"),
    [
        pytest.param(["Bash(gh)", "Bash(gh)"], ["Bash(gh)"], "Bash(gh)", id="identical"),
        pytest.param(["bash(gh)", "Bash(gh)", "BASH(gh)"], ["Bash(gh)"], "bash(gh)",
                     id="same-canonical-form-first-wins"),
        pytest.param(["Bash", "Bash()", "Bash(*)"], ["Bash"], "Bash", id="tool-wide-forms"),
        pytest.param(["Task(x)", "Agent(x)"], ["Agent(x)"], "Task(x)", id="alias"),
        pytest.param("Read, read READ", ["Read"], "Read", id="in-one-string"),
    ],
)
def test_duplicates_collapse_first_wins(
    submitted: list[str] | str, allowed: list[str], first: str
) -> None:
    decision = constrain(submitted, ["Bash", "Monitor", "Read", "Agent"])
    assert decision.allowed == allowed
    assert [v.entry for v in decision.kept] == [first]
    assert decision.dropped == []  # a duplicate is not dropped
    assert not decision.restored
    # Each repeat is marked on its own verdict (SG008 in every report), never the first.
    assert [v.duplicate for v in decision.verdicts] == [False] + [True] * (
        len(decision.verdicts) - 1)
    assert all(v.covered for v in decision.verdicts)


def test_duplicates_are_not_logged_as_dropped(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="skillgrant"):
        constrain(["Bash(gh)", "bash(gh)"], ["Bash", "Monitor"], source="SKILL.md")
    assert _records(caplog) == []


# --------------------------------------------------------------------------------------------
# Restore, empty lists
# --------------------------------------------------------------------------------------------


def test_nothing_kept_restores_the_approved_entries() -> None:
    decision = constrain(["Bash(rm -rf /)"], ["bash(gh *)", "Read", "Bash(gh *)", "READ"])
    assert decision.restored
    # Canonical, duplicates collapsed; a spelling Claude Code does not match is written as the
    # plan writes it (issue 28, class 3: `Bash(gh *)` would grant what `bash(gh *)` does not).
    assert decision.allowed == ["bash(gh *)", "Read", "Bash(gh *)", "READ"]
    assert decision.kept == []
    assert [v.entry for v in decision.dropped] == ["Bash(rm -rf /)"]


@pytest.mark.parametrize(
    "submitted",
    [
        pytest.param([], id="empty-list"),
        pytest.param("", id="empty-string"),
        pytest.param(["", "  "], id="blank-items"),
        pytest.param(" , ", id="only-separators"),
    ],
)
def test_empty_submitted_restores(submitted: list[str] | str) -> None:
    decision = constrain(submitted, ["Read", "Bash(gh *)"])
    assert decision.restored
    assert decision.allowed == ["Read", "Bash(gh *)"]
    assert decision.kept == decision.dropped == []


@pytest.mark.parametrize(
    "approved", [pytest.param([], id="empty-list"), pytest.param("", id="empty-string")]
)
@pytest.mark.parametrize(
    "submitted",
    [pytest.param(["WebSearch", "Bash(gh)"], id="some"), pytest.param([], id="none")],
)
def test_approved_empty_keeps_nothing(approved: list[str] | str, submitted: list[str]) -> None:
    decision = constrain(submitted, approved)
    assert decision.allowed == []
    assert not decision.restored
    assert decision.kept == []
    assert [v.entry for v in decision.dropped] == submitted
    assert all(v.status == "not_covered" for v in decision.dropped)


def test_restore_happens_even_when_only_non_covered_statuses() -> None:
    decision = constrain(["LS", "B\u0430sh", "Foo(x (y) Bash )"], ["Read"])
    assert decision.restored
    assert decision.allowed == ["Read"]
    assert [v.status for v in decision.dropped] == ["inert", "invalid", "ambiguous"]


# --------------------------------------------------------------------------------------------
# Invalid plans
# --------------------------------------------------------------------------------------------

BAD_APPROVED = [
    pytest.param("B\u0430sh", id="cyrillic"),
    pytest.param("Bash(ls", id="unclosed"),
    pytest.param("Bash(gh\x00)", id="control-character"),
    pytest.param("Foo(x (y) Bash )", id="ambiguous"),
    pytest.param(r"Bash(echo \) x)", id="ambiguous-escape"),
    pytest.param("1Bash", id="leading-digit"),
]


@pytest.mark.parametrize("entry", BAD_APPROVED)
def test_invalid_or_ambiguous_approved_entry_is_a_plan_error(entry: str) -> None:
    with pytest.raises(PlanError) as excinfo:
        constrain(["Read"], ["Read", entry])
    assert isinstance(excinfo.value, SkillgrantError)
    assert excinfo.value.entry == entry
    with pytest.raises(PlanError):
        prove("Read", ["Read", entry])


def test_non_string_submitted_item_is_an_input_error() -> None:
    with pytest.raises(AllowedToolsError):
        constrain(["Read", 3], ["Read"])  # type: ignore[list-item]


def test_plan_error_even_when_nothing_is_submitted() -> None:
    with pytest.raises(PlanError):
        constrain([], ["B\u0430sh"])


@pytest.mark.parametrize("approved", [["LS"], ["Write(src/**)"], ["*"], ["mcp__gh(x)"]])
def test_inert_approved_entries_are_not_plan_errors(approved: list[str]) -> None:
    decision = constrain(["Bash(gh)"], approved)
    assert decision.restored
    assert [v.status for v in decision.dropped] == ["not_covered"]


# --------------------------------------------------------------------------------------------
# Structured log records
# --------------------------------------------------------------------------------------------


RECORD_FIELDS = {"file", "entry", "status", "reason", "witness"}
DROP_STATUSES = {"not_covered", "unknown", "invalid", "inert", "ambiguous"}


def _records(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    """The structured records on the ``skillgrant`` logger, each checked for the §5 fields."""
    out = []
    for record in caplog.records:
        if record.name == "skillgrant" or record.name.startswith("skillgrant."):
            data = getattr(record, "skillgrant", None)
            assert isinstance(data, dict), record
            assert set(data) >= RECORD_FIELDS, data
            out.append(data)
    return out


def _drops(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    return [r for r in _records(caplog) if r["status"] in DROP_STATUSES]


def _restores(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    return [r for r in _records(caplog) if r["status"] not in DROP_STATUSES]


def test_every_drop_is_logged_with_evidence(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="skillgrant"):
        constrain(["Bash(rm -rf /)", "Bash(gh)", "LS", "B\u0430sh"], ["Bash(gh *)"],
                  source="skills/x/SKILL.md")
    drops = _drops(caplog)
    assert [(r["entry"], r["status"]) for r in drops] == [
        ("Bash(rm -rf /)", "not_covered"),
        ("LS", "inert"),
        ("B\u0430sh", "invalid"),
    ]
    for record in drops:
        assert record["file"] == "skills/x/SKILL.md"
        assert isinstance(record["reason"], str) and record["reason"]
    assert drops[0]["witness"] == "rm -rf /"
    assert drops[1]["witness"] is None
    assert _restores(caplog) == []


def test_restore_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="skillgrant"):
        decision = constrain(["Bash(rm -rf /)"], ["Read"], source="SKILL.md")
    assert decision.restored
    assert [r["entry"] for r in _drops(caplog)] == ["Bash(rm -rf /)"]
    restores = _restores(caplog)
    assert len(restores) == 1
    assert restores[0]["file"] == "SKILL.md"
    assert isinstance(restores[0]["reason"], str) and restores[0]["reason"]


def test_restore_of_empty_submitted_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="skillgrant"):
        constrain([], ["Read"], source="SKILL.md")
    assert _drops(caplog) == []
    restores = _restores(caplog)
    assert len(restores) == 1
    assert restores[0]["file"] == "SKILL.md"


def test_nothing_logged_when_everything_is_kept(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="skillgrant"):
        constrain(["Bash(gh)", "Read"], ["Bash", "Monitor", "Read"])
    assert _records(caplog) == []


# --------------------------------------------------------------------------------------------
# §5 / §9: entries per value
# --------------------------------------------------------------------------------------------


def _distinct(n: int) -> list[str]:
    return [f"Bash(gh {i})" for i in range(n)]


def test_value_at_the_entry_limit_is_decided() -> None:
    decision = constrain(_distinct(MAX_ENTRIES_PER_VALUE), ["Bash(gh *)"])
    assert len(decision.allowed) == MAX_ENTRIES_PER_VALUE
    assert not decision.restored


def test_value_over_the_entry_limit_is_rejected_whole(caplog: pytest.LogCaptureFixture) -> None:
    submitted = _distinct(MAX_ENTRIES_PER_VALUE + 1)
    with caplog.at_level(logging.DEBUG, logger="skillgrant"):
        decision = constrain(submitted, ["Read", "Bash(gh *)"], source="SKILL.md")
    assert decision.kept == []
    assert [v.entry for v in decision.dropped] == submitted
    assert {v.status for v in decision.dropped} == {"unknown"}
    assert all(v.reason for v in decision.dropped)
    assert decision.restored
    assert decision.allowed == ["Read", "Bash(gh *)"]
    assert [r["entry"] for r in _drops(caplog)] == submitted
    assert len(_restores(caplog)) == 1


def test_value_over_the_entry_limit_counts_entries_after_splitting() -> None:
    value = ", ".join(_distinct(MAX_ENTRIES_PER_VALUE + 1))
    decision = constrain(value, ["Bash(gh *)"])
    assert {v.status for v in decision.dropped} == {"unknown"}
    assert decision.restored


def test_approved_over_the_entry_limit_is_a_plan_error() -> None:
    with pytest.raises(PlanError):
        constrain(["Bash(gh 1)"], _distinct(MAX_ENTRIES_PER_VALUE + 1))


def test_approved_at_the_entry_limit_is_valid() -> None:
    assert constrain(["Bash(gh 1)"], _distinct(MAX_ENTRIES_PER_VALUE)).allowed == [
        "Bash(gh 1)"
    ]


# --------------------------------------------------------------------------------------------
# §9: entry length, wildcards per pattern, work per decision
# --------------------------------------------------------------------------------------------


def _of_length(n: int) -> str:
    return "Bash(" + "a" * (n - len("Bash()")) + ")"


def test_entry_length_limit_submitted() -> None:
    at, over = _of_length(MAX_ENTRY_LENGTH), _of_length(MAX_ENTRY_LENGTH + 1)
    assert len(at) == MAX_ENTRY_LENGTH and len(over) == MAX_ENTRY_LENGTH + 1
    assert prove(at, ["Bash", "Monitor"]).status == "covered"
    verdict = prove(over, ["Bash", "Monitor"])
    assert verdict.status == "unknown"
    assert verdict.reason


def test_entry_length_limit_approved() -> None:
    assert prove("Bash(gh)", ["Bash(gh)", _of_length(MAX_ENTRY_LENGTH)]).covered
    with pytest.raises(PlanError):
        prove("Bash(gh)", ["Bash(gh)", _of_length(MAX_ENTRY_LENGTH + 1)])


def _stars(n: int) -> str:
    return "Bash(" + "a*" * n + ")"


def test_wildcard_limit_submitted() -> None:
    assert prove(_stars(MAX_WILDCARDS_PER_PATTERN), ["Bash", "Monitor"]).status == "covered"
    verdict = prove(_stars(MAX_WILDCARDS_PER_PATTERN + 1), ["Bash", "Monitor"])
    assert verdict.status == "unknown"
    assert verdict.reason


def test_wildcard_limit_approved() -> None:
    assert prove("Bash(gh)", ["Bash(gh)", _stars(MAX_WILDCARDS_PER_PATTERN)]).covered
    with pytest.raises(PlanError):
        prove("Bash(gh)", ["Bash(gh)", _stars(MAX_WILDCARDS_PER_PATTERN + 1)])


def test_escaped_stars_are_not_wildcards() -> None:
    entry = "Bash(" + "\\*" * (MAX_WILDCARDS_PER_PATTERN + 1) + ")"
    assert prove(entry, ["Bash", "Monitor"]).status == "covered"
    assert prove("Bash(gh)", ["Bash(gh)", entry]).covered


def test_long_starry_patterns_are_decided_within_the_limits() -> None:
    # Every approved pattern is as long and as starry as the limits allow and almost matches
    # the submitted one.
    body = "a*" * (MAX_WILDCARDS_PER_PATTERN - 1)
    pad = "a" * (MAX_ENTRY_LENGTH - len(body) - 20)
    approved = [f"Bash({body}{pad}*b{i})" for i in range(MAX_ENTRIES_PER_VALUE)]
    submitted = f"Bash({body}{pad}*c)"
    assert max(len(a) for a in approved) <= MAX_ENTRY_LENGTH
    verdict = prove(submitted, approved)
    assert verdict.status in {"not_covered", "unknown"}


def _hostile_compound(n_approved: int, covering_first: bool) -> tuple[str, list[str]]:
    """A compound command of ~1,600 distinct parts, each covered only by `Bash(a*)`, and
    approved patterns of maximal length that every part must be tried against."""
    long_ones = [f"Bash(a{'x' * (MAX_ENTRY_LENGTH - 30)}*{i})" for i in range(n_approved - 1)]
    approved = ["Bash(a*)", *long_ones] if covering_first else [*long_ones, "Bash(a*)"]
    # Pipes: the runtime checks a piped exact rule part by part (`&&` it approves whole).
    parts = " | ".join(f"a{i}" for i in range(2000))[: MAX_ENTRY_LENGTH - 10]
    parts = parts[: parts.rindex(" |")]
    return f"Bash({parts})", approved


def test_work_over_the_limit_is_unknown() -> None:
    # In the limit's own unit (characters scanned per membership test), trying ~1,600 parts
    # against 511 patterns of ~8,000 characters each is far past MAX_WORK_PER_DECISION.
    entry, approved = _hostile_compound(MAX_ENTRIES_PER_VALUE, covering_first=False)
    verdict = prove(entry, approved)
    assert verdict.status == "unknown"
    assert "MAX_WORK_PER_DECISION" in verdict.reason


def test_work_is_bounded_whatever_the_order_of_approved_entries() -> None:
    # §1.5: no input, however hostile, runs past a fixed budget. Same input as above with the
    # covering entry first: cheap matching, but the rest of the decision must stay bounded too.
    # How long it takes is measured by benchmarks/run.py (adversarial), never asserted here.
    entry, approved = _hostile_compound(256, covering_first=True)
    verdict = prove(entry, approved)
    assert verdict.status in {"covered", "unknown"}


def test_limits_are_positive_integers() -> None:
    for limit in (MAX_ENTRY_LENGTH, MAX_ENTRIES_PER_VALUE, MAX_WILDCARDS_PER_PATTERN,
                  MAX_WORK_PER_DECISION):
        assert isinstance(limit, int) and limit > 0


# --------------------------------------------------------------------------------------------
# §10: malformed keyword arguments are plan errors, never crashes
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"base_dirs": [("cwd", "/")]}, id="base-dirs-not-a-mapping"),
        pytest.param({"base_dirs": {"cwd": 3}}, id="base-dir-not-a-string"),
        pytest.param({"base_dirs": {"workspace": "/w"}}, id="base-dir-unknown-key"),
        pytest.param({"shell_tools": "exec_command"}, id="shell-tools-a-string"),
        pytest.param({"shell_tools": [3]}, id="shell-tool-not-a-string"),
        pytest.param({"shell_tools": ["exec command"]}, id="shell-tool-not-a-name"),
    ],
)
def test_malformed_plan_arguments_are_plan_errors(kwargs: dict[str, object]) -> None:
    with pytest.raises(PlanError):
        prove("Read(x)", ["Read(y)"], **kwargs)  # type: ignore[arg-type]
    with pytest.raises(PlanError):
        constrain(["Read(x)"], ["Read(y)"], **kwargs)  # type: ignore[arg-type]


def test_shell_tool_names_may_hold_hyphens() -> None:
    plan = plan_for(["Bash(ls)"], ["exec-cmd"], None)  # the plan's own vocabulary (the gate)
    assert prove_prepared("exec-cmd(ls)", plan).covered


# --------------------------------------------------------------------------------------------
# §1.5 / §9: one work budget for a whole value
# --------------------------------------------------------------------------------------------


def test_work_per_value_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from skillgrant import prover

    approved = [f"Bash(git {'x' * 200} {i} *)" for i in range(10)]
    submitted = [f"Bash(git {'y' * 200} {i})" for i in range(6)]
    unbounded = constrain(submitted, approved)
    assert {v.status for v in unbounded.dropped} == {"not_covered"}
    # Each decision scans the approved literals for a filler and tests its instance against
    # twenty ~210-character globs: about 12,400 units. With room for two decisions, the rest of
    # the value is unknown and names the value's limit.
    monkeypatch.setattr(prover, "MAX_WORK_PER_VALUE", 30_000)
    bounded = constrain(submitted, approved)
    statuses = [v.status for v in bounded.verdicts]
    assert statuses[:2] == ["not_covered", "not_covered"]
    assert set(statuses[2:]) == {"unknown"}
    assert all("(MAX_WORK_PER_VALUE)" in v.reason for v in bounded.verdicts[2:])


def test_repeated_entries_are_decided_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from skillgrant import prover

    calls: list[str] = []
    real = prover._decide

    def counting(entry: str, *args: object) -> object:
        calls.append(entry)
        return real(entry, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(prover, "_decide", counting)
    decision = constrain(["Bash(rm x)", "Read", "Bash(rm x)", "Read"], ["Read"])
    assert calls == ["Bash(rm x)", "Read"]
    assert decision.allowed == ["Read"]
    assert [v.entry for v in decision.dropped] == ["Bash(rm x)", "Bash(rm x)"]
