"""skillgrant against the pinned Claude Code: the runtime is the judge.

Soundness, end to end: for each case let A be the submitted SKILL.md after ``apply`` and P a
SKILL.md whose ``allowed-tools`` is the plan; every probe call the runtime pre-approves under A
must be pre-approved under P. A file ``apply`` refuses is never written, so it has no A.
Each of issue 12's six rows also has a test named after the behaviour, which shows the
runtime's side (the hole, with skillgrant bypassed) and skillgrant's (the fix).
"""

from __future__ import annotations

import hashlib
import os
from collections import defaultdict
from pathlib import Path

import pytest
from cc_cases import (
    FUZZ_PLAN,
    ROW_PLAN,
    ROWS,
    Case,
    block_list,
    corpus_cases,
    fuzz_cases,
    judge_case,
    pair_cases,
    plan_skill,
    probes_for,
    skill,
    witness_probe,
)
from cc_probe import OUTSIDE, TALLY, Judge, Probe
from pinned import prove

from skillgrant import SkillFileError, parse_grant
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_text, read_skill

#: The shared corpus beside the checkout (absent: the corpus cases are left out).
REAL_SKILLS = Path(os.environ.get(
    "SKILLGRANT_REAL_SKILLS",
    Path(__file__).resolve().parents[3] / "shared" / "corpus" / "real-skills"))

TOUCH = Probe("Bash", "touch zz")
READ_OUTSIDE = Probe("Read", f"{OUTSIDE}/zz.txt")
#: Probes per session: a longer script is split over several sessions.
CHUNK = 40


# --- the six rows ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def rows(judge: Judge) -> dict[str, dict[Probe, bool]]:
    """Each row's submitted file as the runtime reads it with skillgrant bypassed, and P."""
    extra = {
        "edit-bare": skill("allowed-tools: Edit"),
        "read-bare": skill("allowed-tools: Read"),
        "backslash": skill("allowed-tools: Bash(touch \\\\*)"),
        "dashes-touch": skill("allowed-tools: Bash(touch *)", before="description: a --- b\n"),
        "plan": plan_skill(ROW_PLAN),
        "block-scalar-applied": apply_to_text(ROWS["block-scalar"].text, Plan.from_entries(
            list(ROWS["block-scalar"].plan)))[0],
    }
    texts = {name: case.text for name, case in ROWS.items()} | extra
    probes = [TOUCH, READ_OUTSIDE, Probe("Bash", "touch \\zz")]
    results = judge.allowed_many((text, probes) for text in texts.values())
    return dict(zip(texts, results, strict=True))


@pytest.mark.parametrize("row", ["line-separator", "paragraph-separator", "next-line"])
def test_nel_ls_ps_are_not_line_breaks_for_the_runtime_so_such_files_are_refused(
        rows: dict[str, dict[Probe, bool]], row: str) -> None:
    assert rows[row][TOUCH], "the runtime splits a bare Bash off the 'comment'"
    assert not rows["plan"][TOUCH]
    with pytest.raises(SkillFileError, match=r"U\+(2028|2029|0085) in the frontmatter"):
        apply_to_text(ROWS[row].text, Plan.from_entries(ROW_PLAN))


@pytest.mark.parametrize(("row", "entry"), [("requote-comment", "Bash(touch *)"),
                                            ("flow-mapping-spill", "Bash"),
                                            ("retry-read", "Bash"),
                                            ("argument-hint", "Bash(touch *)")])
def test_frontmatter_the_runtime_rejects_is_read_requoted_as_the_runtime_reads_it(
        rows: dict[str, dict[Probe, bool]], row: str, entry: str) -> None:
    assert rows[row][TOUCH], f"the runtime reads {entry} through its retry"
    case = ROWS[row]
    doc = read_skill(case.text)
    assert doc.retried is not None and entry in doc.runtime_entries
    try:
        _, decision = apply_to_text(case.text, Plan.from_entries(case.plan))
    except SkillFileError as e:  # the flow mapping left open once the key is removed
        assert row == "flow-mapping-spill" and "does not read back" in e.message
        return
    assert entry not in decision.allowed


def test_a_retry_reading_that_cannot_be_computed_is_refused(
        rows: dict[str, dict[Probe, bool]]) -> None:
    assert rows["retry-trap"][TOUCH], "the runtime reads a bare Bash from the re-quoted text"
    with pytest.raises(SkillFileError, match="cannot be computed"):
        apply_to_text(ROWS["retry-trap"].text, Plan.from_entries(ROW_PLAN))


def test_a_block_scalar_one_entry_a_line_grants_nothing_until_apply_rewrites_it(
        rows: dict[str, dict[Probe, bool]]) -> None:
    assert not rows["block-scalar"][TOUCH], "one entry holding a line break grants nothing"
    assert read_skill(ROWS["block-scalar"].text).merged_note is not None
    assert rows["block-scalar-applied"][TOUCH], "the rewrite is read as the kept entries"


def test_a_skills_own_allow_hook_is_refused(rows: dict[str, dict[Probe, bool]]) -> None:
    assert rows["hooks-allow"][TOUCH], "the skill's PreToolUse hook pre-approves touch"
    with pytest.raises(SkillFileError, match="'hooks' lets the skill go beyond its plan"):
        apply_to_text(ROWS["hooks-allow"].text, Plan.from_entries(ROW_PLAN))


def test_bare_edit_does_not_grant_read(rows: dict[str, dict[Probe, bool]]) -> None:
    assert not rows["edit-bare"][READ_OUTSIDE]
    assert rows["read-bare"][READ_OUTSIDE]
    assert not prove("Read", ["Edit"]).covered
    assert not prove("Read(//etc/**)", ["Edit"]).covered
    # (An Edit rule's Read does not reach protected files, so it covers no Read entry.)
    assert prove("Read(//usr/share/**)", ["Edit(//usr/**)"]).status == "unknown"


def test_backslashes_in_a_rule_are_unescaped_twice_by_the_runtime(
        rows: dict[str, dict[Probe, bool]]) -> None:
    # Bash(touch \\*) is the literal command 'touch *' to the runtime, not 'touch \' + anything.
    assert not rows["backslash"][Probe("Bash", "touch \\zz")]
    assert not prove("Bash(touch \\zz)", ["Bash(touch \\\\*)"]).covered


def test_dashes_inside_a_value_end_the_runtime_frontmatter(
        rows: dict[str, dict[Probe, bool]]) -> None:
    assert not rows["dashes-touch"][TOUCH], "the runtime never sees allowed-tools"
    doc = read_skill(ROWS["dashes-in-value"].text)
    assert doc.runtime_note is not None and "never reads it" in doc.runtime_note


# --- end-to-end soundness -------------------------------------------------------------------



def _chunks(probes: list[Probe]) -> list[list[Probe]]:
    return [probes[i:i + CHUNK] for i in range(0, len(probes), CHUNK)] or [[]]


def all_cases(generated: int | None = None) -> list[Case]:
    """The rows, the real files and the generated cases (341 fuzz, 120 pairs); with
    ``generated``, a fixed, seeded sample of that many of the generated ones (the cases whose
    hash with a fixed seed is least: ``--generated-cases``, CI's step 50)."""
    corpus = corpus_cases(REAL_SKILLS) if REAL_SKILLS.is_dir() else []
    made = [*fuzz_cases(), *pair_cases()]
    if generated is not None and generated < len(made):
        made = sorted(made, key=lambda case: hashlib.sha256(
            f"skillgrant-generated-1:{case.name}".encode()).hexdigest())[:generated]
    return [*ROWS.values(), *corpus, *made]


def test_applied_skills_never_allow_more_than_the_plan(judge: Judge,
                                                       request: pytest.FixtureRequest) -> None:
    generated = request.config.getoption("--generated-cases")
    cases = all_cases(generated)
    assert len(cases) >= min(300, generated or 300) + len(ROWS)
    TALLY["generated cases judged"] = len(cases) - len(ROWS) - sum(
        case.name.startswith("corpus:") for case in cases)
    assert _escalations(judge, cases) == []


#: Issue 27's rows, and the real files the runtime reads through its retry.
ISSUE_27 = ("retry-trap", "retry-read", "argument-hint", "block-scalar", "hooks-allow",
            "requote-comment", "flow-mapping-spill")
RETRY_READ_FILES = ("09-", "15-", "34-", "39-")


def test_issue_27_cases_never_allow_more_than_the_plan(judge: Judge) -> None:
    corpus = corpus_cases(REAL_SKILLS) if REAL_SKILLS.is_dir() else []
    cases = [ROWS[name] for name in ISSUE_27] + [
        case for case in corpus if case.name.removeprefix("corpus:").startswith(RETRY_READ_FILES)]
    assert len(cases) == len(ISSUE_27) + (4 if corpus else 0)
    assert _escalations(judge, cases) == []


def _escalations(judge: Judge, cases: list[Case]) -> list[tuple[str, str]]:
    """Each case applied (A) against its plan (P) under the runtime: the probes A allows and
    P does not."""
    judged = [judge_case(case, probes_for) for case in cases]
    written = [j for j in judged if j.applied is not None]
    # A: one session per distinct applied text, with every probe of the cases that wrote it
    # (split into chunks); the runtime's answer depends on the file, not on the case.
    by_text: dict[str, dict[Probe, None]] = defaultdict(dict)
    for j in written:
        assert j.applied is not None
        by_text[j.applied].update(dict.fromkeys(j.probes))
    jobs = [(text, chunk) for text, probes in by_text.items() for chunk in _chunks(list(probes))]
    allowed_a: dict[str, set[Probe]] = defaultdict(set)
    for (text, _), result in zip(jobs, judge.allowed_many(jobs, must_load=False), strict=True):
        allowed_a[text] |= {probe for probe, ok in result.items() if ok}
    # P: one session per plan, with every probe some A of that plan allowed.
    wanted: dict[tuple[str, ...], set[Probe]] = defaultdict(set)
    for j in written:
        assert j.applied is not None
        wanted[j.case.plan] |= allowed_a[j.applied] & set(j.probes)
    plan_jobs = [(plan, chunk) for plan, probes in wanted.items()
                 for chunk in _chunks(sorted(probes))]
    plan_results = judge.allowed_many((plan_skill(plan), chunk) for plan, chunk in plan_jobs)
    allowed_p: dict[tuple[str, ...], set[Probe]] = defaultdict(set)
    for (plan, _), result in zip(plan_jobs, plan_results, strict=True):
        allowed_p[plan] |= {probe for probe, ok in result.items() if ok}
    escalations = [(j.case.name, str(probe)) for j in written
                   for probe in sorted((allowed_a[j.applied or ""] & set(j.probes))
                                       - allowed_p[j.case.plan])]
    TALLY["cases"] = len(cases)
    TALLY["refused by apply"] = len(judged) - len(written)
    TALLY["soundness probes"] = sum(len(j.probes) for j in written)
    TALLY["probes allowed under A"] = sum(len(allowed_a[j.applied or ""] & set(j.probes))
                                          for j in written)
    TALLY["A sessions"] = len(jobs)
    TALLY["escalations"] = len(escalations)
    TALLY["A sessions whose skill did not load (nothing it grants applies)"] = judge.not_loaded
    return escalations


def test_every_row_and_real_file_is_judged() -> None:
    # The soundness test above must see the rows and the corpus, not only generated files.
    names = {case.name for case in all_cases()}
    assert set(ROWS) <= names
    if REAL_SKILLS.is_dir():
        assert sum(name.startswith("corpus:") for name in names) == 40


# --- witnesses ------------------------------------------------------------------------------

def _witness_sample(limit: int = 24) -> list[tuple[str, tuple[str, ...], Probe]]:
    seen: dict[Probe, tuple[str, tuple[str, ...], Probe]] = {}
    for case in pair_cases():
        for entry in read_skill(case.text).allowed_tools.entries:  # type: ignore[union-attr]
            verdict = prove(entry, list(case.plan))
            if verdict.status != "not_covered" or verdict.witness is None:
                continue
            probe = witness_probe(parse_grant(entry).tool, verdict.witness)
            # A witness that is a Monitor call (a Bash(…) rule under a bare Bash) is judged by
            # test_domain_probes.py, which makes Monitor calls.
            if probe is not None and probe.tool == "Bash" and "Monitor call" not in verdict.reason:
                seen.setdefault(probe, (entry, case.plan, probe))
    return list(seen.values())[:limit]


def test_witnesses_are_allowed_by_the_submitted_entry_and_by_no_approved_one(
        judge: Judge) -> None:
    candidates = _witness_sample(40)
    # The runtime allows read-only commands (`ls`, `git status …`) with no grant at all: such a
    # witness cannot show the difference, so only the others are judged.
    (baseline,) = judge.allowed_many([(skill("allowed-tools: []"),
                                       [probe for _, _, probe in candidates])])
    sample = [c for c in candidates if not baseline[c[2]]][:24]
    TALLY["witnesses allowed with no grant (read-only)"] = len(candidates) - len(
        [c for c in candidates if not baseline[c[2]]])
    assert len(sample) >= 15
    under_entry = judge.allowed_many((skill(block_list([entry])), [probe])
                                     for entry, _, probe in sample)
    under_plan = judge.allowed_many((plan_skill(plan), [probe]) for _, plan, probe in sample)
    wrong = [(entry, plan, str(probe), a[probe], p[probe])
             for (entry, plan, probe), a, p in zip(sample, under_entry, under_plan, strict=True)
             if not a[probe] or p[probe]]
    TALLY["witnesses judged"] = len(sample)
    assert wrong == [], "\n".join(map(repr, wrong))

def test_fuzz_plan_denies_the_payloads(judge: Judge) -> None:
    # The fuzz cases hide Bash and Read(//etc/**) payloads: P must deny those probes, or the
    # soundness test could not tell an escalation from the plan.
    (result,) = judge.allowed_many([(plan_skill(FUZZ_PLAN),
                                     [TOUCH, Probe("Read", "/etc/hostname")])])
    assert result == {TOUCH: False, Probe("Read", "/etc/hostname"): False}
