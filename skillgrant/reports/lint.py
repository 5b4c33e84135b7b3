"""Renderers for ``lint`` (semantics §8, issue 8): text, JSON, Markdown, and the located findings
the GitHub and SARIF writers (``reports.ci``) take. No decisions are made here: the findings come
from ``review.lint_entries``, each with its ``SGL`` rule (``rules.LINT_RULES``,
docs/lint-rules.md).

Every entry and message is untrusted text: each format escapes it its own way.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ..rules import RULE_BY_ID
from .ci import FileFindings, Finding, Location
from .escape import Paint, brief, dumps, one_line, plural, printable, shown
from .jsondoc import JSON_VERSION, source_json, tool_json
from .markdown import md_code, md_table, md_text

if TYPE_CHECKING:
    from ..review.lint import Finding as LintFinding
    from ..review.sources import Source


@dataclass(frozen=True)
class LintReport:
    """One ``lint`` run: the plan as read and its findings, in entry order."""

    source: Source
    findings: tuple[LintFinding, ...]


def lint_summary(report: LintReport) -> str:
    """``N findings in M entries (1 error, 2 warnings)``, or ``no findings in M entries``."""
    count = len(report.source.entries)
    entries = f"{count} {'entry' if count == 1 else 'entries'}"
    if not report.findings:
        return f"no findings in {entries}"
    counts = Counter(f.severity for f in report.findings)
    parts = [plural(counts[s], s) if s != "info" else f"{counts[s]} info"
             for s in ("error", "warning", "info") if counts[s]]
    return f"{plural(len(report.findings), 'finding')} in {entries} ({', '.join(parts)})"


def _adds_replacement(found: LintFinding) -> bool:
    """A replacement is shown unless the hint already quotes it."""
    return found.replacement is not None and f"`{found.replacement}`" not in found.hint


# --- text ---------------------------------------------------------------------------------

_SEVERITY_COLOUR: Final = {"error": "red", "warning": "yellow", "info": "dim"}


def _where(name: str, location: Location | None) -> str:
    return name if location is None else f"{name}:{location.line}:{location.column}"


def render_lint_text(report: LintReport, colour: bool = False) -> str:
    """Compiler-style lines for people: ``file:line:col: severity RULE name: entry``, then the
    message, the fix and (when certain) what to write instead."""
    paint = Paint(colour)
    source = report.source
    out = []
    for found in report.findings:
        where = paint(_where(printable(source.name), source.at(found.index)), "bold")
        label = paint(found.severity, _SEVERITY_COLOUR[found.severity])
        entry = shown(found.entry) if found.entry else "(the whole list)"
        out.append(f"{where}: {label} {found.rule_id} {found.name}: {entry}")
        out.append(f"    {one_line(found.message)}")
        out.append(f"    fix: {one_line(found.hint)}")
        if _adds_replacement(found):
            out.append(f"    write: {brief(found.replacement or '')}")
    out.append(f"{printable(source.name)}: {lint_summary(report)}.")
    return "\n".join(out) + "\n"


# --- JSON ---------------------------------------------------------------------------------

def _finding_json(report: LintReport, found: LintFinding) -> dict[str, Any]:
    location = report.source.at(found.index)
    return {"rule": found.rule_id, "name": found.name, "severity": found.severity,
            "category": found.category, "entry": found.entry, "index": found.index,
            "message": found.message, "hint": found.hint, "example": found.example,
            "replacement": found.replacement,
            "line": None if location is None else location.line,
            "column": None if location is None else location.column}


def render_lint_json(report: LintReport, version: str) -> str:
    """The machine interface of ``lint`` (documented in docs/cli.md)."""
    counts = Counter(f.severity for f in report.findings)
    return dumps({
        "version": JSON_VERSION, "tool": tool_json(version), "command": "lint",
        **source_json(report.source),
        "findings": [_finding_json(report, f) for f in report.findings],
        "summary": {"entries": len(report.source.entries), "findings": len(report.findings),
                    "error": counts["error"], "warning": counts["warning"],
                    "info": counts["info"]},
    })


# --- GitHub and SARIF -----------------------------------------------------------------------

def lint_findings(report: LintReport) -> FileFindings:
    """The plan's findings for ``reports.ci``, each message with its fix."""
    out = []
    for found in report.findings:
        entry = brief(found.entry)
        message = one_line(found.message)
        if found.entry and found.entry not in found.message:
            message = f"{entry}: {message}"
        fix = one_line(found.hint)
        if _adds_replacement(found):
            fix += f" Write {brief(found.replacement or '')}."
        out.append(Finding(RULE_BY_ID[found.rule_id], f"{message}. Fix: {fix}",
                           report.source.at(found.index), properties={
                               "entry": found.entry, "index": found.index,
                               "severity": found.severity, "category": found.category,
                               "hint": found.hint, "example": found.example,
                               "replacement": found.replacement}))
    return report.source.artifact, None, out


# --- Markdown -----------------------------------------------------------------------------

def render_lint_markdown(report: LintReport) -> str:
    """A pull-request comment: a summary line and, when there are findings, a table."""
    source = report.source
    head = f"**skillgrant lint** {md_code(source.name)}: {lint_summary(report)}"
    if not report.findings:
        return head + ".\n"
    rows = []
    for found in report.findings:
        location = source.at(found.index)
        rows.append([found.severity, f"{found.rule_id} {md_code(found.name)}",
                     md_code(found.entry) if found.entry else "(the whole list)",
                     "" if location is None else str(location.line),
                     md_text(found.message),
                     md_text(found.hint) + (f" Write {md_code(found.replacement or '')}."
                                             if _adds_replacement(found) else "")])
    return head + "\n\n" + md_table(["severity", "rule", "entry", "line", "finding", "fix"],
                                    rows)
