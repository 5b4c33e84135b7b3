"""skillgrant against the pinned Copilot CLI: the binary is the judge.

Soundness, end to end, under Copilot CLI alone: for each case let A be the submitted SKILL.md
after ``apply`` (judged under every runtime, the default) and P a SKILL.md whose
``allowed-tools`` is the plan; every probe call Copilot CLI pre-approves in an interactive
session under A (after the skill is invoked) must be pre-approved under P. The cases are the
Claude Code suite's (issue 12's rows, the real corpus, the frontmatter fuzz, the grant pairs),
the repository's samples, and grant pairs of Copilot CLI's own forms (``:*`` rules, command
keys, wrappers, tool names).

``--copilot-cases N`` sets how many generated cases run and ``--copilot-corpus N`` how many
real files (seeded samples; CI's step sets both to fit its time; pytest options, not variables:
the runtime's sessions would inherit one); unset, all of them. The rows and the samples always
run.

Then each rule of the profile (skillgrant/runtimes/copilot_cli.py) is run through the binary:
the rule tables of tests/test_copilot_cli.py, and the witnesses of its ``not_covered`` verdicts.
"""

from __future__ import annotations

import os
import random
from collections import defaultdict
from pathlib import Path

import pytest
from cc_cases import (
    ROWS,
    Case,
    block_list,
    corpus_cases,
    fuzz_cases,
    judge_case,
    pair_cases,
    plan_skill,
    skill,
)
from cc_probe import OUTSIDE, Probe
from cp_fixture import copilot
from cp_probe import TALLY, CopilotJudge

from skillgrant import Decision, parse_grant
from skillgrant.errors import GrantSyntaxError
from skillgrant.plan.model import Plan
from skillgrant.runtimes.copilot_cli import judge as copilot_judge

__all__ = ["copilot"]

#: The shared corpus beside the checkout (SKILLGRANT_REAL_SKILLS moves it; absent: left out).
REAL_SKILLS = Path(os.environ.get(
    "SKILLGRANT_REAL_SKILLS",
    Path(__file__).resolve().parents[3] / "shared" / "corpus" / "real-skills"))
SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CHUNK = 30
TOUCH = Probe("Bash", "touch zz")
#: A file written in the project with Copilot CLI's create tool.
CREATE = Probe("Write", f"{OUTSIDE}/../project/sgnew.txt")
BASE = (TOUCH, Probe("Bash", "rm -f zz"), CREATE)


# --- Copilot CLI's own grant pairs ----------------------------------------------------------

CP_POOL = ("Bash(gh *)", "Bash(gh:*)", "Bash(gh pr:*)", "Bash(git commit:*)", "Bash(git:*)",
           "Bash(npm run *)", "Bash(npm:*)", "Bash(touch:*)", "Bash(touch *)", "Bash(env *)",
           "Bash(timeout:*)", "shell(touch)", "Bash(git status)", "Edit", "Bash(rm:*)",
           "Bash(mkdir -p *)", "Bash(cargo build:*)", "Bash(xargs:*)")
CP_EXTRA = ("Bash", "shell", "Write", "Bash(env:*)", "Bash(sudo:*)", "Bash(find:*)",
            "Bash(bash:*)", "SHELL(rm)", "Bash(gh pr create)", "shell(*)", "*", "shell()",
            "Bash(docker:*)", "Read(//etc/**)", "Bash(touch zz && rm -f zz)")


def _cp_mutations(entry: str) -> list[str]:
    grant = parse_grant(entry)
    content = grant.content
    if content is None:
        return [entry, entry.lower(), f"{entry}(*)", f"{entry}()"]
    base = content.removesuffix(":*").removesuffix(" *").removesuffix("*").strip()
    first = base.split(" ")[0]
    two = " ".join(base.split(" ")[:2])
    return [entry, f"Bash({base}:*)", f"Bash({first}:*)", f"Bash({two}:*)", f"Bash({base})",
            f"shell({base})", f"bash({base}:*)", f"Bash({base} *)", f"Bash({first} zz:*)",
            f"Bash({base} zz)", f"Bash(env {base}:*)", f"Bash(timeout 5 {base})"]


def copilot_pair_cases(count: int = 160, seed: int = 30) -> list[Case]:
    rng = random.Random(seed)
    cases = []
    for i in range(count):
        plan = tuple(rng.sample(CP_POOL, 3))
        pool = [m for entry in plan for m in _cp_mutations(entry)] + list(CP_EXTRA)
        submitted = list(dict.fromkeys(rng.sample(pool, 4)))
        cases.append(Case(f"cp-pair:{i:03d}", skill(block_list(submitted)), plan))
    return cases


# --- probes ---------------------------------------------------------------------------------

def entry_probes(entry: str) -> list[Probe]:
    """Shell calls derived from one entry: its command, and with an argument (a compound is
    approved part by part, so its parts' probes stand for it; the profile's rules test runs
    compounds)."""
    try:
        grant = parse_grant(entry)
    except GrantSyntaxError:
        return []
    if grant.key.casefold() not in ("bash", "shell"):
        return [CREATE] if grant.key in ("Edit", "Write") else []
    if grant.content is None:
        return [TOUCH]
    base = grant.content.removesuffix(":*").replace("*", "zz").strip()
    if not base or "\n" in base:
        return []
    return [Probe("Bash", c) for c in (base, f"{base} zz")]


def probes_for(submitted: list[str], kept: list[str], witnesses: list[str]) -> list[Probe]:
    probes = list(BASE)
    for entry in [*submitted, *kept]:
        probes += entry_probes(entry)
    probes += [Probe("Bash", w) for w in witnesses if "\n" not in w]
    return list(dict.fromkeys(probes))


# --- end-to-end soundness -------------------------------------------------------------------

def copilot_probes(decision: Decision, submitted: list[str]) -> list[Probe]:
    """A case's probes under Copilot CLI: the base, each entry's (submitted and kept), and the
    witnesses of the drops."""
    witnesses = [v.witness for v in decision.dropped if v.witness]
    return probes_for(submitted, list(decision.allowed), witnesses)


def sample_cases() -> list[Case]:
    """The repository's samples, each against its own plan."""
    return [Case(f"sample:{folder.name}", (folder / "SKILL.md").read_text(encoding="utf-8"),
                 tuple(Plan.load(folder / "plan.yaml").allowed_tools))
            for folder in sorted(SAMPLES.iterdir()) if (folder / "plan.yaml").is_file()]


def all_cases(wanted: int | None = None, files: int | None = None) -> list[Case]:
    """The rows, the samples, the real files and the generated cases; ``files`` and ``wanted``
    (when given) a seeded sample of each of the last two."""
    generated = [*fuzz_cases(), *pair_cases(), *copilot_pair_cases()]
    if wanted is not None:
        generated = random.Random(30).sample(generated, min(wanted, len(generated)))
    corpus = corpus_cases(REAL_SKILLS) if REAL_SKILLS.is_dir() else []
    if files is not None:
        corpus = random.Random(30).sample(corpus, min(files, len(corpus)))
    return [*ROWS.values(), *sample_cases(), *corpus, *generated]


def _chunks(probes: list[Probe]) -> list[list[Probe]]:
    return [probes[i:i + CHUNK] for i in range(0, len(probes), CHUNK)] or [[]]


def test_applied_skills_never_allow_more_than_the_plan_under_copilot(
        copilot: CopilotJudge, request: pytest.FixtureRequest) -> None:
    cases = all_cases(request.config.getoption("--copilot-cases"),
                      request.config.getoption("--copilot-corpus"))
    judged = [judge_case(case, copilot_probes) for case in cases]
    written = [j for j in judged if j.applied is not None]
    by_text: dict[str, dict[Probe, None]] = defaultdict(dict)
    for j in written:
        by_text[j.applied or ""].update(dict.fromkeys(j.probes))
    jobs = [(text, chunk) for text, probes in by_text.items() for chunk in _chunks(list(probes))]
    allowed_a: dict[str, set[Probe]] = defaultdict(set)
    for (text, _), result in zip(jobs, copilot.allowed_many(jobs, must_load=False), strict=True):
        allowed_a[text] |= {probe for probe, ok in result.items() if ok}
    wanted: dict[tuple[str, ...], set[Probe]] = defaultdict(set)
    for j in written:
        wanted[j.case.plan] |= allowed_a[j.applied or ""] & set(j.probes)
    plan_jobs = [(plan, chunk) for plan, probes in wanted.items()
                 for chunk in _chunks(sorted(probes))]
    plan_results = copilot.allowed_many([(plan_skill(plan), chunk) for plan, chunk in plan_jobs],
                                        must_load=False)
    allowed_p: dict[tuple[str, ...], set[Probe]] = defaultdict(set)
    for (plan, _), result in zip(plan_jobs, plan_results, strict=True):
        allowed_p[plan] |= {probe for probe, ok in result.items() if ok}
    escalations = [(j.case.name, str(probe)) for j in written
                   for probe in sorted((allowed_a[j.applied or ""] & set(j.probes))
                                       - allowed_p[j.case.plan])]
    TALLY["cases"] = len(cases)
    for kind in ("sample", "corpus"):
        TALLY[f"{kind} cases"] = len([c for c in cases if c.name.startswith(f"{kind}:")])
    TALLY["generated cases"] = len([c for c in cases if c.name.split(":")[0] in
                                    ("fuzz", "pair", "cp-pair")])
    TALLY["refused by apply"] = len(judged) - len(written)
    TALLY["soundness probes"] = sum(len(j.probes) for j in written)
    TALLY["probes pre-approved under A"] = sum(
        len(allowed_a[j.applied or ""] & set(j.probes)) for j in written)
    TALLY["A sessions"] = len(jobs)
    TALLY["escalations"] = len(escalations)
    assert escalations == [], "\n".join(map(repr, escalations))


# --- the profile's rules, through the binary -------------------------------------------------

def _shell_verdicts(copilot: CopilotJudge,
                    rows: list[tuple[str, list[str]]]) -> list[dict[str, bool]]:
    results = copilot.allowed_many(
        [(skill(block_list([entry])), [Probe("Bash", c) for c in commands])
         for entry, commands in rows])
    return [{p.arg: ok for p, ok in r.items()} for r in results]


MEASURED = [
    # (entry, {command: pre-approved}) — each a rule of docs/runtime-conformance.md
    ("Bash(gh *)", {"gh pr create": False, "gh repo delete x": False}),
    ("Bash(gh:*)", {"gh pr create": True, "gh repo delete x": True}),
    ("Bash(gh pr:*)", {"gh pr create": True, "gh repo delete x": False}),
    ("shell(gh pr)", {"gh pr create": True}),
    ("shell(gh pr create)", {"gh pr create": False}),
    ("SHELL(touch)", {"touch a": True, "rm -f a": False}),
    ("Bash(touch zz)", {"touch zz": False}),
    ("Bash(touch:*)", {"touch a": True, "toucha": False, "FOO=1 touch a": True,
                       "touch a | cat": True, "touch a && rm -f b": False,
                       "rm -f b; touch a": False, "touch a > b.txt": False}),
    ("Bash(git commit)", {"git commit -m x": True, "git push": False}),
    ("Bash(env:*)", {"env rm -f a": True}),
    ("Bash(timeout:*)", {"timeout 5 rm -f a": True}),
    ("Bash(rm -f:*)", {"rm -f a": False}),
    ("Bash(npm run test:*)", {"npm run test": False}),
    ("shell(*)", {"touch a": False}),
    ("*", {"touch a": False}),
    ("Read(//etc/**)", {"touch a": False}),
]


def test_each_rule_of_the_profile_holds_in_the_binary(copilot: CopilotJudge) -> None:
    got = _shell_verdicts(copilot, [(e, list(c)) for e, c in MEASURED])
    wrong = [(entry, dict(expected), seen) for (entry, expected), seen in zip(MEASURED, got,
                                                                             strict=True)
             if seen != expected]
    TALLY["profile rules probed"] = sum(len(c) for _, c in MEASURED)
    assert wrong == [], wrong


WITNESS_ROWS = [("Bash(gh:*)", ["Bash(gh *)"]), ("Bash(gh pr:*)", ["Bash(gh *)"]),
                ("Bash(git:*)", ["Bash(git commit:*)"]), ("Bash(touch:*)", ["Bash(touch *)"]),
                ("Bash(env:*)", ["Bash(env *)"]), ("Bash(timeout:*)", ["Bash(timeout 5 *)"]),
                ("Bash", ["Bash(touch:*)"]), ("Bash", ["Bash(rm:*)"]),
                ("Bash(npm:*)", ["Bash(npm run *)"]), ("Bash(cargo build)", []),
                ("Bash(foo:*)", [])]


def test_witnesses_are_allowed_by_the_entry_and_not_by_the_plan(copilot: CopilotJudge) -> None:
    rows = []
    for entry, plan in WITNESS_ROWS:
        verdict = copilot_judge(entry, plan)
        assert verdict.status == "not_covered" and verdict.witness, (entry, plan, verdict)
        rows.append((entry, plan, Probe("Bash", verdict.witness)))
    under_entry = copilot.allowed_many([(skill(block_list([e])), [p]) for e, _, p in rows])
    under_plan = copilot.allowed_many([(plan_skill(tuple(pl)), [p]) for _, pl, p in rows])
    wrong = [(e, pl, p.arg, a[p], b[p]) for (e, pl, p), a, b in
             zip(rows, under_entry, under_plan, strict=True) if not a[p] or b[p]]
    TALLY["witnesses judged"] = len(rows)
    assert wrong == [], wrong


def test_gh_star_plan_drops_gh_prefix_by_default_and_keeps_it_for_claude_code_alone() -> None:
    from skillgrant import constrain

    both = constrain(["Bash(gh:*)"], ["Bash(gh *)"])
    assert both.allowed == ["Bash(gh *)"] and both.restored
    (dropped,) = both.dropped
    assert dropped.witness == "gh zz" and "Copilot CLI" in dropped.reason
    assert constrain(["Bash(gh:*)"], ["Bash(gh *)"], runtime="claude-code").allowed == [
        "Bash(gh:*)"]
