"""The rules a ``check``/``apply`` finding is named by (reports/check.py lists them), and which rule
a verdict hits. Shared by every renderer of a run: text, JSON, GitHub annotations, SARIF.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .reports.ci import Rule

if TYPE_CHECKING:
    from .verdicts import Decision, Verdict

RULES: Final[tuple[Rule, ...]] = (
    Rule("SG001", "not-covered", "error", "Grant wider than the approved plan",
         "The submitted grant allows an invocation (the witness) that no approved grant "
         "allows. It is dropped."),
    Rule("SG002", "unknown", "warning", "Grant not proven to be within the plan",
         "skillgrant could not prove the grant is covered (an undecided form, a limit, or the "
         "work budget). It is dropped: unproven grants are never kept."),
    Rule("SG003", "invalid", "error", "Entry that does not parse",
         "The entry does not follow the allowed-tools entry grammar. It is dropped."),
    Rule("SG004", "inert", "warning", "Entry that grants nothing",
         "The runtime grants nothing for this entry (a removed tool name, a path rule on a "
         "tool that ignores path rules, a tool-name glob). It is dropped."),
    Rule("SG005", "ambiguous", "error", "Entry the runtime would read differently",
         "Claude Code's own splitter would not read this text as this one entry. It is "
         "dropped."),
    Rule("SG006", "restored", "warning", "Approved grants restored",
         "Nothing submitted survived, so the approved entries were written: an absent "
         "allowed-tools may mean the agent's wider default set."),
    Rule("SG007", "tool-name-normalized", "note", "Kept entry written in canonical spelling",
         "The runtime matches tool names exactly; the kept entry is written with the "
         "canonical (or the covering approved entry's) spelling."),
    Rule("SG008", "duplicate", "note", "Repeated entry",
         "The entry is covered but repeats an earlier entry (same canonical form); it is "
         "written once."),
    Rule("SG009", "runtime-ignores-allowed-tools", "warning",
         "allowed-tools that Claude Code never reads",
         "Claude Code reads the frontmatter differently (it ends it at the first '---', even "
         "inside a value), so this allowed-tools grants nothing at run time."),
)
RULE_BY_ID: Final = {rule.id: rule for rule in RULES}
STATUS_RULE: Final = {"not_covered": "SG001", "unknown": "SG002", "invalid": "SG003",
                       "inert": "SG004", "ambiguous": "SG005"}



def rule_for(verdict: Verdict, decision: Decision) -> Rule | None:
    """The rule a verdict hits, or None for a kept entry written as given."""
    if verdict.status in STATUS_RULE:
        return RULE_BY_ID[STATUS_RULE[verdict.status]]
    if verdict.duplicate:
        return RULE_BY_ID["SG008"]
    if verdict.written is not None and verdict.written != verdict.entry.strip():
        return RULE_BY_ID["SG007"]
    return None
