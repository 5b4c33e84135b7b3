"""Renderers for ``diff`` (semantics §8, issue 8): text, JSON, Markdown, and the located findings
the GitHub and SARIF writers (``reports.ci``) take. No decisions are made here: the kinds come from
``review.diff_entries``; a kind that is a finding has its ``SGD`` rule (``rules.DIFF_RULES``):
escalated SGD001, inert SGD002, narrowed SGD003, removed SGD004.

Every entry, witness and message is untrusted text: each format escapes it its own way.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ..rules import DIFF_KIND_RULE, RULE_BY_ID, diff_rule
from .ci import FileFindings, Finding
from .escape import Paint, brief, dumps, one_line, plural, printable, shown
from .jsondoc import JSON_VERSION, source_json, tool_json
from .markdown import md_code, md_table, md_text

if TYPE_CHECKING:
    from ..review.lint import DiffEntry, DiffResult
    from ..review.sources import Source

_KINDS: Final = ("escalated", "inert", "narrowed", "equivalent", "added-covered", "unchanged",
                 "removed")


@dataclass(frozen=True)
class DiffReport:
    """One ``diff`` run: both versions as read and the judged entries."""

    old: Source
    new: Source
    result: DiffResult


def diff_summary(result: DiffResult) -> str:
    """``1 escalation (1 narrowed, 2 unchanged, 1 removed)``, or ``no escalation (…)``."""
    counts = Counter(e.kind for e in result.entries)
    head = (plural(counts["escalated"], "escalation") if counts["escalated"]
            else "no escalation")
    rest = [f"{counts[k]} {k}" for k in _KINDS[1:] if counts[k]]
    return head + (f" ({', '.join(rest)})" if rest else "")


def _detail(entry: DiffEntry) -> str:
    """What a person needs to know about one judged entry, in one line (not escalations)."""
    old = brief(entry.old or "")
    if entry.kind == "narrowed":
        return f"from {old}"
    if entry.kind == "equivalent":
        return f"same grant as {old}"
    if entry.kind == "added-covered":
        return f"adds nothing: covered by {old}"
    if entry.kind == "unchanged":
        return "" if entry.old == entry.entry else f"was {old}"
    if entry.kind == "removed" and entry.witness is not None:
        return f"no longer granted, e.g. {shown(entry.witness)}"
    return one_line(entry.reason)


def render_diff_text(report: DiffReport, colour: bool = False) -> str:
    """For people: each entry's kind, an escalation's witness and reason, a summary line."""
    paint = Paint(colour)
    result = report.result
    out = [f"{paint(printable(report.old.name), 'bold')} -> "
           f"{paint(printable(report.new.name), 'bold')}"]
    width = min(40, max((len(brief(e.entry)) for e in result.entries), default=0))
    for item in result.entries:
        escalated = item.kind == "escalated"
        colour_of = "red" if escalated else "yellow" if item.kind == "inert" else "green"
        label = paint(item.kind.ljust(13), colour_of)
        entry = brief(item.entry)
        if escalated:
            rule = RULE_BY_ID["SGD001"]
            tag = paint(f"[{rule.id} {rule.name}]", "red")
            out.append(f"  {label}  {entry.ljust(width)}  {tag}")
            if item.witness is not None:
                out.append(f"{'':17}witness: {paint(shown(item.witness), 'bold')}")
            reason = printable(item.reason, keep_newlines=True).split("\n")
            out.append(f"{'':17}reason:  {reason[0]}")
            out.extend(f"{'':17}{line}" for line in reason[1:])
            continue
        detail = _detail(item)
        out.append(f"  {label}  {entry.ljust(width)}  {paint(detail, 'dim')}".rstrip())
    out.append(f"{diff_summary(result)}.")
    return "\n".join(out) + "\n"


def _diff_entry_json(report: DiffReport, item: DiffEntry) -> dict[str, Any]:
    side = report.old if item.kind == "removed" else report.new
    location = side.at(item.index)
    verdict = item.verdict
    return {"kind": item.kind, "escalates": item.escalates, "entry": item.entry,
            "side": "old" if item.kind == "removed" else "new", "index": item.index,
            "old": item.old, "status": verdict.status, "witness": verdict.witness,
            "reason": verdict.reason, "covered_by": verdict.covered_by,
            "also_covered_by": list(verdict.also_covered_by),
            "rule": DIFF_KIND_RULE.get(item.kind),
            "line": None if location is None else location.line,
            "column": None if location is None else location.column}


def render_diff_json(report: DiffReport, version: str) -> str:
    """The machine interface of ``diff`` (documented in docs/cli.md)."""
    counts = Counter(e.kind for e in report.result.entries)
    return dumps({
        "version": JSON_VERSION, "tool": tool_json(version), "command": "diff",
        "old": source_json(report.old), "new": source_json(report.new),
        "escalates": report.result.escalates,
        "grants": [_diff_entry_json(report, e) for e in report.result.entries],
        "summary": {kind: counts[kind] for kind in _KINDS},
    })


def _diff_message(report: DiffReport, item: DiffEntry) -> str:
    entry = brief(item.entry)
    if item.kind == "escalated":
        text = f"{entry} is not covered by {printable(report.old.name)}"
        if item.verdict.status != "not_covered":
            text += f" ({item.verdict.status})"
        text += f": {one_line(item.reason)}"
        return text + (f" (witness: {shown(item.witness)})" if item.witness is not None else "")
    if item.kind == "removed":
        return f"{entry} (in {printable(report.old.name)}) is removed: {_detail(item)}"
    return f"{entry}: {_detail(item)}"


def diff_findings(report: DiffReport) -> FileFindings:
    """NEW's changes that are findings, for ``reports.ci``."""
    out = []
    for item in report.result.entries:
        rule = diff_rule(item.kind)
        if rule is None:
            continue
        # A removed entry is in OLD, which may be another file or a revision: the finding
        # is about NEW as a whole.
        location = None if item.kind == "removed" else report.new.at(item.index)
        out.append(Finding(rule, _diff_message(report, item), location, properties={
            "kind": item.kind, "entry": item.entry, "status": item.verdict.status,
            "witness": item.witness, "old": item.old, "coveredBy": item.verdict.covered_by}))
    return report.new.artifact, None, out


def render_diff_markdown(report: DiffReport) -> str:
    """A pull-request comment: a summary line and a table of every entry that is not
    ``unchanged`` (escalations first)."""
    result = report.result
    head = (f"**skillgrant diff** {md_code(report.old.name)} → {md_code(report.new.name)}: "
            f"{diff_summary(result)}")
    order = {kind: i for i, kind in enumerate(_KINDS)}
    shown_entries = sorted((e for e in result.entries if e.kind != "unchanged"),
                           key=lambda e: order[e.kind])
    if not shown_entries:
        return head + ".\n"
    rows = []
    for item in shown_entries:
        location = None if item.kind == "removed" else report.new.at(item.index)
        if item.kind == "escalated":
            evidence = md_text(item.reason)
            if item.verdict.status != "not_covered":
                evidence = f"{item.verdict.status}: {evidence}"
            if item.witness is not None:
                evidence = f"witness {md_code(item.witness)}: {evidence}"
        elif item.kind == "removed" and item.witness is not None:
            evidence = f"no longer granted, e.g. {md_code(item.witness)}"
        elif item.old is not None:
            verb = {"narrowed": "from", "equivalent": "same grant as"}.get(item.kind,
                                                                           "covered by")
            evidence = f"{verb} {md_code(item.old)}"
        else:
            evidence = md_text(item.reason)
        kind = f"**{item.kind}**" if item.escalates else item.kind
        rows.append([kind, md_code(item.entry),
                     "" if location is None else str(location.line), evidence])
    return head + "\n\n" + md_table(["change", "entry", "line", "evidence"], rows)
