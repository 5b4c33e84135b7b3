"""Session 45's review (s45-freview) through Copilot CLI 1.0.102 (run with ``--conformance
--copilot``): skills ``apply`` writes (or keeps) that Copilot CLI reads with more grants than
the plan.

Each row runs ``apply --plan`` on the project, then one interactive session (where Copilot CLI
honours ``allowed-tools``) with the file as ``apply`` left it: the stand-in invokes the skill,
then runs ``touch zz``. Under the plan's own file (P) that call is put to the person; under the
applied file (A) it must be too. Each failed before the fix (da72091: such a value is refused).
"""

from __future__ import annotations

import json
import shutil

import pytest
from cp_fixture import copilot
from cp_probe import CopilotJudge
from cp_runtime import PINNED_VERSION, package_cache, write_project
from file_review import copilot_applied, lay_out, unasked_then_checked, work_folder
from reader_review import copilot_rules as read_rules
from reader_review import skill as _skill
from review_table import LeftOpen

from skillgrant import SkillFileError
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_text

__all__ = ["copilot"]

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()  # (F8: closed by s45-ffix, check DIR walks skillDirectories)

#: Each row: the submitted allowed-tools value and the plan.
ROWS = {
    "F1-read-then-bash": ("Read(x, Bash(touch:*)", "Read"),
    "F1-read-path-then-shell": ("Read(//usr/**, shell(touch)", "Read(//usr/**)"),
    # as written Copilot reads Bash(echo:*) only; apply's rewrite leaves Read(x, Bash(touch:*)
    "F1-rewrite-makes-it": ("Bash(echo:*), Read(x, Bash(touch:*)", "Read"),
}


@pytest.mark.parametrize("row", sorted(ROWS))
def test_f1_an_applied_skill_copilot_splits_otherwise(copilot: CopilotJudge, row: str) -> None:
    value, plan = ROWS[row]
    _, applied, played = copilot_applied(
        copilot, f"---\nname: probe\ndescription: probe skill\nallowed-tools: {value}\n---\n"
                 "Run it.\n", f"allowed-tools: {plan}\n")
    if played is None:
        return  # refused: sound
    assert not played.ran, (f"apply --plan {plan!r} left allowed-tools as {applied!r}, and "
                            "Copilot CLI ran `touch zz` with no question (the plan's file asks)")


#: Copilot CLI's own skill reader, in process (tests/reader_review.py): the native addon its
#: binary unpacks. Milliseconds a file.
def copilot_rules(texts: list[str]) -> list[set[str]]:
    """The rules Copilot CLI 1.0.102 approves for each SKILL.md text, read by its own parser."""
    addon = (package_cache() / "pkg" / "linux-x64" / PINNED_VERSION / "prebuilds" / "linux-x64"
             / "runtime.node")
    if shutil.which("node") is None or not addon.is_file():
        pytest.fail(f"Copilot CLI's reader needs node and {addon} (cp_runtime.py install)")
    return [{json.dumps(rule, sort_keys=True) for rule in rules}
            for rules in read_rules(texts, addon, timeout=600)]


#: F1's values and plans (tests/test_s45_freview.py's, with list, quoted and block forms).
F1_READER = {
    "read-then-bash": ("Read(x, Bash(rm:*)", ["Read"]),
    "read-path-then-bash": ("Read(//usr/**, Bash(rm:*)", ["Read(//usr/**)"]),
    "read-then-shell": ("Read(docs/**, shell(touch)", ["Read"]),
    "write-then-bash": ("Write(a, Bash(echo:*)", ["Edit"]),
    "webfetch-then-bash": ("WebFetch(domain:a.com, Bash(rm:*)", ["WebFetch"]),
    "grep-then-bash": ("Grep(x, Bash(rm:*)", ["Grep"]),
    "list-item": ("\n  - Read(x, Bash(touch:*)", ["Read"]),
    # As written, Copilot reads Bash(echo:*) only (a comma outside parentheses: no fallback);
    # apply drops Bash(echo:*) and leaves the one unbalanced entry, which it cuts at the comma.
    "rewrite-makes-it": ("Bash(echo:*), Read(x, Bash(rm:*)", ["Read"]),
    "single-quoted": ("'Read(x, Bash(touch:*)'", ["Read"]),
    "folded-block": (">-\n  Read(x, Bash(touch:*)", ["Read"]),
}


def test_f1_copilots_own_reader_of_the_applied_file_finds_no_rule_the_plan_lacks() -> None:
    """A against P under Copilot CLI's own parser (no session): every rule it approves for the
    file ``apply`` wrote must be one it approves for the plan's own file."""
    rows, applied, plans = sorted(F1_READER), [], []
    for row in rows:
        value, plan = F1_READER[row]
        try:
            applied.append(apply_to_text(_skill(value), Plan.from_entries(plan))[0])
        except SkillFileError:
            applied.append(_skill("Read"))  # refused: nothing is written
        plans.append(_skill("[" + ", ".join(json.dumps(e) for e in plan) + "]"))
    ruled = copilot_rules(applied + plans)
    wider = {row: sorted(a - p) for row, a, p in zip(rows, ruled[:len(rows)],
                                                      ruled[len(rows):], strict=True) if a - p}
    assert not wider, f"Copilot CLI approves rules the plan's file does not: {wider}"



def test_f8_copilot_loads_a_skill_from_settings_skill_directories(copilot: CopilotJudge) -> None:
    with work_folder("sg-cps45-") as work:
        write_project(work, None)
        project = work / "project"
        lay_out(project, {
            "node_modules/pkg/skills/probe/SKILL.md": ("---\nname: probe\ndescription: probe "
                                                       "skill\nallowed-tools: shell(touch)\n"
                                                       "---\nRun it.\n"),
            ".github/skills/good/SKILL.md": ("---\nname: good\ndescription: d\nallowed-tools: "
                                             "Read\n---\nbody\n"),
            ".github/copilot/settings.json": json.dumps(
                {"skillDirectories": ["node_modules/pkg/skills"]})})
        # The runtime's side: the skill loads from node_modules and touch zz runs unasked.
        done = unasked_then_checked(copilot, work, holds=("loaded",))
        assert done.returncode != 0, (
            "check . passed; Copilot CLI loaded node_modules/pkg/skills/probe/SKILL.md from "
            f"skillDirectories and ran touch zz:\n{done.stdout}")
