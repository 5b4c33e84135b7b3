"""The semantics §10 example, end to end through the public surface."""

import skillgrant


def test_public_example() -> None:
    verdict = skillgrant.prove("Bash(gh pr list)", ["Bash(gh *)", "Read"])
    assert verdict.status == "covered"
    assert verdict.covered
    assert verdict.covered_by == "Bash(gh *)"
    decision = skillgrant.constrain(["Bash(gh pr list)", "Bash(rm -rf /)"], ["Bash(gh *)"])
    assert decision.allowed == ["Bash(gh pr list)"]
    assert [v.entry for v in decision.dropped] == ["Bash(rm -rf /)"]
    assert decision.dropped[0].witness == "rm -rf /"
    assert not decision.restored
