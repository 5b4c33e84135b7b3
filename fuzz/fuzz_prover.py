"""Coverage-guided fuzzing of the entry pipeline: ``split_allowed_tools``, ``parse_grant``,
``prove`` and ``constrain`` (semantics §1, §2, §5). Run it as fuzz/README.md says.

The input's first byte picks a target; the rest, decoded as UTF-8 (invalid bytes become lone
surrogates, which are hostile too), is the text. A finding is any exception other than a
SkillgrantError, a narrow plan keeping an entry ``narrow_oracle.justified`` rejects, a kept
entry that does not round-trip, or a verdict without its evidence.
"""

from __future__ import annotations

import contextlib
import sys

import _common
import atheris  # type: ignore[import-untyped]

with atheris.instrument_imports(include=["skillgrant"]):
    import skillgrant
    from skillgrant import SkillgrantError, constrain, parse_grant, prove, split_allowed_tools

PLANS: tuple[tuple[str, ...], ...] = (
    _common.NARROW,
    ("Bash(gh *)", "Read", "WebFetch(domain:*.example.com)", "mcp__gh__get_*", "Agent(explore)"),
    ("Bash(npm run test:*)", "Edit(src/*.ts)", "PowerShell(Get-*)", "Skill(deploy *)",
     "Read(~/notes/**)", "Monitor(tail -f *)", "WebSearch", "mcp__db"),
    ("Bash(git * main)", "Bash(ls *)", "Read(**/*.md)", "WebFetch(domain:example.*)"),
)
STATUSES = {"covered", "not_covered", "unknown", "invalid", "inert", "ambiguous"}


def _check_verdict(verdict: skillgrant.Verdict, plan: tuple[str, ...]) -> None:
    assert verdict.status in STATUSES, verdict
    assert verdict.reason, verdict
    if verdict.covered:
        assert verdict.covered_by in plan and verdict.written is not None, verdict
        assert parse_grant(verdict.written) == parse_grant(verdict.written), verdict
        if plan is _common.NARROW:
            assert _common.justified(verdict.written), f"UNSOUND: {verdict!r}"
    else:
        assert verdict.covered_by is None, verdict
    if verdict.status == "not_covered":
        assert verdict.witness is not None, verdict


def _prove(text: str, plan: tuple[str, ...]) -> None:
    _check_verdict(prove(text, plan), plan)


def _constrain(text: str, plan: tuple[str, ...]) -> None:
    decision = constrain(text, plan)
    for verdict in decision.verdicts:
        _check_verdict(verdict, plan)
    if plan is _common.NARROW and not decision.restored:
        bad = _common.unjustified(decision.allowed)
        assert not bad, f"UNSOUND: kept {bad!r} from {text!r}"


def _approve(text: str, plan: tuple[str, ...]) -> None:
    # The text is the approved side: a PlanError, or decisions on fixed entries.
    approved = split_allowed_tools(text)
    for entry in ("Bash(gh pr list)", "Bash", "Read(src/a.ts)", "mcp__gh__x"):
        verdict = prove(entry, approved)
        assert verdict.status in STATUSES
        if verdict.covered:
            assert verdict.covered_by in approved, verdict


def _round_trip(text: str, plan: tuple[str, ...]) -> None:
    for entry in split_allowed_tools(text):
        grant = parse_grant(entry)
        assert parse_grant(str(grant)) == grant, (entry, str(grant))


TARGETS = (_prove, _constrain, _approve, _round_trip)


def TestOneInput(data: bytes) -> None:
    if not data:
        return
    target, rest = data[0], data[1:]
    text = rest.decode("utf-8", errors="surrogateescape")
    plan = PLANS[(target >> 2) % len(PLANS)]
    with contextlib.suppress(SkillgrantError):
        TARGETS[target % 4](text, plan)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
