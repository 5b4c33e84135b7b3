"""Coverage-guided fuzzing of the builder stage and the plan loaders (semantics §6, §7). Run it as
fuzz/README.md says.

Each input is the bytes of a file. As a SKILL.md it is decoded, read and rewritten against the
narrow plan; as a plan it is loaded as YAML/JSON, as an approved SKILL.md and as a
settings.json. A finding is any exception other than a SkillgrantError, a rewrite that does not
read back, is not idempotent, changes the body, or keeps an entry ``narrow_oracle.justified``
rejects.
"""

from __future__ import annotations

import sys

import _common
import atheris  # type: ignore[import-untyped]

with atheris.instrument_imports(include=["skillgrant", "frontmatter"]):
    from skillgrant import SkillgrantError
    from skillgrant.plan.model import Plan
    from skillgrant.skillfile.builder import apply_to_text, decode_skill, read_skill

NARROW_PLAN = Plan.from_entries(list(_common.NARROW))


def _skill(text: str) -> None:
    try:
        new_text, decision = apply_to_text(text, NARROW_PLAN, path="SKILL.md")
    except SkillgrantError:
        return
    old, new = read_skill(text), read_skill(new_text)
    assert new_text[new.body_start:] == text[old.body_start:], "body changed"
    assert apply_to_text(new_text, NARROW_PLAN)[0] == new_text, "not idempotent"
    written = [] if new.allowed_tools is None else list(new.allowed_tools.entries)
    assert written == decision.allowed, (written, decision.allowed)
    if decision.restored:
        assert decision.allowed == list(_common.NARROW), decision.allowed
    else:
        bad = _common.unjustified(decision.allowed)
        assert not bad, f"UNSOUND: kept {bad!r}"


def _plans(text: str) -> None:
    for kind in ("auto", "skill", "settings"):
        try:
            plan = Plan.from_text(text, source="plan", kind=kind)
        except SkillgrantError:
            continue
        assert all(isinstance(e, str) for e in plan.allowed_tools)


def TestOneInput(data: bytes) -> None:
    try:
        text = decode_skill(data, "SKILL.md")
    except SkillgrantError:
        return
    _skill(text)
    _plans(text)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
