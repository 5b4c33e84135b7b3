"""Review s45-freview F1: Copilot CLI 1.0.102 cuts an ``allowed-tools`` string whose
parentheses do not close in order at every comma, inside parentheses too (measured with its own
parser, ``configLoaderParseAllowedToolsItems``): ``Read(x, Bash(rm:*)`` is ``Read(x`` and the
shell rule ``rm:*``, where Claude Code reads one Read entry. Such a value is refused, located,
in a skill file and in a plan; a value whose parentheses close in order, or that holds no
comma inside them, is read as before."""

from __future__ import annotations

import pytest

from skillgrant import AllowedToolsError, PlanError, SkillFileError, split_allowed_tools
from skillgrant.plan import Plan
from skillgrant.skillfile import apply_to_text, read_skill

#: Values Copilot CLI reads as a shell rule, and the plan each was kept under before the fix.
CUT_AT_EVERY_COMMA = {
    "read-then-bash": ("Read(x, Bash(rm:*)", ["Read"]),
    "read-path-then-bash": ("Read(//usr/**, Bash(rm:*)", ["Read(//usr/**)"]),
    "read-then-shell": ("Read(docs/**, shell(touch)", ["Read"]),
    "read-no-blank": ("Read(x,Bash(touch:*)", ["Read"]),
    "write-then-bash": ("Write(a, Bash(echo:*)", ["Edit"]),
    "escaped-paren-elsewhere": (r"Bash(echo \(), Read(a, Bash(rm:*))", ["Read", "Bash"]),
}


def _skill(value: str) -> str:
    return f"---\nname: probe\ndescription: d\nallowed-tools: {value}\n---\nbody\n"


@pytest.mark.parametrize("row", sorted(CUT_AT_EVERY_COMMA))
def test_a_value_copilot_cuts_at_every_comma_is_refused_located(row: str) -> None:
    value, plan = CUT_AT_EVERY_COMMA[row]
    text = _skill(value)
    with pytest.raises(SkillFileError) as refused:
        apply_to_text(text, Plan.from_entries(plan))
    assert (refused.value.line, refused.value.column) == (4, 16)
    assert "Copilot CLI" in str(refused.value)
    with pytest.raises(SkillFileError):
        read_skill(text)
    with pytest.raises(AllowedToolsError):
        split_allowed_tools(value)


def test_a_list_item_copilot_cuts_is_refused_too() -> None:
    text = "---\nname: p\ndescription: d\nallowed-tools:\n  - Read\n  - Read(x, Bash(rm:*)\n---\n"
    with pytest.raises(SkillFileError):
        read_skill(text)


def test_a_plan_holding_such_a_value_is_refused_at_it() -> None:
    with pytest.raises(PlanError) as refused:
        Plan.from_text("allowed-tools: Read(x, Bash(rm:*)\n")
    assert ":1:16:" in str(refused.value)


@pytest.mark.parametrize("value", [
    "Bash(git add *), Read",  # closes in order
    r"Bash(echo \()",  # no comma: each cut reads the one entry
    "Read, Bash(gh *",  # no comma inside: an invalid entry, said as before
    "Bash(echo a,b), Read(src/**)",
])
def test_other_values_are_read_as_before(value: str) -> None:
    split_allowed_tools(value)
