"""Renderers for ``lint`` and ``diff`` (SPEC §8, issue 8): text, JSON, GitHub workflow
annotations, SARIF 2.1.0 and Markdown (a pull-request comment). No decisions are made here:
the findings come from ``review.lint_entries``, the kinds from ``review.diff_entries``.

Lint findings keep their ``SGL`` rule IDs (``review.RULES``, docs/lint-rules.md). A diff names
what it reports by these rule IDs, stable like every other (never renumbered or reused)::

    SGD001 escalated    NEW grants what OLD does not provably grant (the witness shows it)
    SGD002 inert-added  a NEW entry that grants nothing
    SGD003 narrowed     a NEW entry narrower than the OLD one it replaces
    SGD004 removed      an OLD grant NEW no longer grants

Every entry, witness and message is untrusted text: each format escapes it its own way.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ..grants import shorten
from ..review.lint import RULES as LINT_RULES
from .ci import Finding, Level, Location, Rule, github_annotations, sarif_log
from .escape import Paint, brief, dumps, printable, shown

if TYPE_CHECKING:
    from ..review.lint import DiffEntry, DiffResult
    from ..review.lint import Finding as LintFinding
    from ..review.sources import Source

#: Version of the lint and diff JSON shapes; bumped only on breaking changes.
JSON_VERSION: Final = 1

_LEVEL: Final[dict[str, Level]] = {"error": "error", "warning": "warning", "info": "note"}

#: The lint rules as SARIF rules (the rule's hint is its help text).
LINT_SARIF_RULES: Final = tuple(Rule(r.rule_id, r.name, _LEVEL[r.severity], r.summary, r.hint)
                                for r in LINT_RULES)

DIFF_RULES: Final = (
    Rule("SGD001", "escalated", "error", "Grant not covered by the old version",
         "The new version grants an invocation (the witness) that no old grant allows, or one "
         "skillgrant cannot prove an old grant allows (unknown, invalid, ambiguous): a "
         "capability escalation."),
    Rule("SGD002", "inert-added", "warning", "New entry that grants nothing",
         "The runtime grants nothing for this entry (a removed tool name, an ignored path "
         "rule, a tool-name glob); it is likely a mistake."),
    Rule("SGD003", "narrowed", "note", "Grant narrowed",
         "The new entry is covered by an old grant the new version no longer has."),
    Rule("SGD004", "removed", "note", "Grant removed",
         "An old grant the new version no longer grants (the witness is an example)."),
)
_DIFF_RULE: Final = {"escalated": DIFF_RULES[0], "inert": DIFF_RULES[1],
                     "narrowed": DIFF_RULES[2], "removed": DIFF_RULES[3]}
_KINDS: Final = ("escalated", "inert", "narrowed", "equivalent", "added-covered", "unchanged",
                 "removed")


@dataclass(frozen=True)
class LintReport:
    """One ``lint`` run: the plan as read and its findings, in entry order."""

    source: Source
    findings: tuple[LintFinding, ...]


@dataclass(frozen=True)
class DiffReport:
    """One ``diff`` run: both versions as read and the judged entries."""

    old: Source
    new: Source
    result: DiffResult


def _said(text: str) -> str:
    """A message for one line: printable, and cut when an entry inside it is very long."""
    return printable(shorten(text.split("\n", 1)[0], 600))


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _tool(version: str) -> dict[str, str]:
    return {"name": "skillgrant", "version": version}


def _where(name: str, location: Location | None) -> str:
    return name if location is None else f"{name}:{location.line}:{location.column}"


# --- lint ---------------------------------------------------------------------------------

_SEVERITY_COLOUR: Final = {"error": "red", "warning": "yellow", "info": "dim"}


def lint_summary(report: LintReport) -> str:
    """``N findings in M entries (1 error, 2 warnings)``, or ``no findings in M entries``."""
    count = len(report.source.entries)
    entries = f"{count} {'entry' if count == 1 else 'entries'}"
    if not report.findings:
        return f"no findings in {entries}"
    counts = Counter(f.severity for f in report.findings)
    parts = [_plural(counts[s], s) if s != "info" else f"{counts[s]} info"
             for s in ("error", "warning", "info") if counts[s]]
    return f"{_plural(len(report.findings), 'finding')} in {entries} ({', '.join(parts)})"


def render_lint_text(report: LintReport, *, colour: bool = False) -> str:
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
        out.append(f"    {_said(found.message)}")
        out.append(f"    fix: {_said(found.hint)}")
        if _adds_replacement(found):
            out.append(f"    write: {brief(found.replacement or '')}")
    out.append(f"{printable(source.name)}: {lint_summary(report)}.")
    return "\n".join(out) + "\n"


def _adds_replacement(found: LintFinding) -> bool:
    """A replacement is shown unless the hint already quotes it."""
    return found.replacement is not None and f"`{found.replacement}`" not in found.hint


def _lint_finding_json(report: LintReport, found: LintFinding) -> dict[str, Any]:
    location = report.source.at(found.index)
    return {"rule": found.rule_id, "name": found.name, "severity": found.severity,
            "category": found.category, "entry": found.entry, "index": found.index,
            "message": found.message, "hint": found.hint, "example": found.example,
            "replacement": found.replacement,
            "line": None if location is None else location.line,
            "column": None if location is None else location.column}


def _source_json(source: Source) -> dict[str, Any]:
    return {"source": source.name, "artifact": source.artifact, "entries": list(source.entries)}


def render_lint_json(report: LintReport, *, version: str) -> str:
    """The machine interface of ``lint`` (documented in docs/cli.md)."""
    counts = Counter(f.severity for f in report.findings)
    return dumps({
        "version": JSON_VERSION, "tool": _tool(version), "command": "lint",
        **_source_json(report.source),
        "findings": [_lint_finding_json(report, f) for f in report.findings],
        "summary": {"entries": len(report.source.entries), "findings": len(report.findings),
                    "error": counts["error"], "warning": counts["warning"],
                    "info": counts["info"]},
    })


def _lint_findings(report: LintReport) -> list[Finding]:
    rules = {rule.id: rule for rule in LINT_SARIF_RULES}
    out = []
    for found in report.findings:
        entry = brief(found.entry)
        message = _said(found.message)
        if found.entry and found.entry not in found.message:
            message = f"{entry}: {message}"
        fix = _said(found.hint)
        if _adds_replacement(found):
            fix += f" Write {brief(found.replacement or '')}."
        out.append(Finding(rules[found.rule_id], f"{message}. Fix: {fix}",
                           report.source.at(found.index), properties={
                               "entry": found.entry, "index": found.index,
                               "severity": found.severity, "category": found.category,
                               "hint": found.hint, "example": found.example,
                               "replacement": found.replacement}))
    return out


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
    return head + "\n\n" + _md_table(["severity", "rule", "entry", "line", "finding", "fix"],
                                     rows)


# --- diff ---------------------------------------------------------------------------------

def diff_summary(result: DiffResult) -> str:
    """``1 escalation (1 narrowed, 2 unchanged, 1 removed)``, or ``no escalation (…)``."""
    counts = Counter(e.kind for e in result.entries)
    head = (_plural(counts["escalated"], "escalation") if counts["escalated"]
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
    return _said(entry.reason)


def render_diff_text(report: DiffReport, *, colour: bool = False) -> str:
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
            rule = _DIFF_RULE["escalated"]
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
            "rule": _DIFF_RULE[item.kind].id if item.kind in _DIFF_RULE else None,
            "line": None if location is None else location.line,
            "column": None if location is None else location.column}


def render_diff_json(report: DiffReport, *, version: str) -> str:
    """The machine interface of ``diff`` (documented in docs/cli.md)."""
    counts = Counter(e.kind for e in report.result.entries)
    return dumps({
        "version": JSON_VERSION, "tool": _tool(version), "command": "diff",
        "old": _source_json(report.old), "new": _source_json(report.new),
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
        text += f": {_said(item.reason)}"
        return text + (f" (witness: {shown(item.witness)})" if item.witness is not None else "")
    if item.kind == "removed":
        return f"{entry} (in {printable(report.old.name)}) is removed: {_detail(item)}"
    return f"{entry}: {_detail(item)}"


def _diff_findings(report: DiffReport) -> list[Finding]:
    out = []
    for item in report.result.entries:
        rule = _DIFF_RULE.get(item.kind)
        if rule is None:
            continue
        # A removed entry is in OLD, which may be another file or a revision: the finding
        # is about NEW as a whole.
        location = None if item.kind == "removed" else report.new.at(item.index)
        out.append(Finding(rule, _diff_message(report, item), location, properties={
            "kind": item.kind, "entry": item.entry, "status": item.verdict.status,
            "witness": item.witness, "old": item.old, "coveredBy": item.verdict.covered_by}))
    return out


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
    return head + "\n\n" + _md_table(["change", "entry", "line", "evidence"], rows)


# --- Markdown -----------------------------------------------------------------------------

# Also ``:``, ``.`` and ``@``: escaped, they keep GitHub from turning a URL or an e-mail address
# inside an untrusted entry into a link.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&!#:.@])")
_BACKTICKS = re.compile(r"`+")


def md_code(text: str) -> str:
    """``text`` as an inline code span that shows it literally, inside a table cell too: the
    fence is longer than any run of backticks inside, padded when the text starts or ends with
    a backtick or a space, and ``|`` is escaped (GitHub splits cells before code spans)."""
    if not text:
        return "(empty)"
    body = brief(text)
    if "\\|" in body:
        # In a table GitHub would read ``\\|`` as an escaped backslash and a cell border;
        # escaped text shows the entry exactly (not in monospace).
        return _MD_SPECIAL.sub(r"\\\1", body)
    body = body.replace("|", "\\|")
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(body)), default=0) + 1)
    pad = " " if body[0] in "` " or body[-1] in "` " else ""
    return f"{fence}{pad}{body}{pad}{fence}"


def md_text(text: str) -> str:
    """A message as Markdown: what it quotes in backticks becomes code spans (``md_code``),
    the rest has every character Markdown could read as markup escaped. Whatever an entry
    inside holds, each piece is either literal code or escaped text."""
    said = _said(text)
    pieces = said.split("`")
    if len(pieces) % 2 == 0:  # an unpaired backtick: nothing is code
        pieces = [said]
    return "".join(md_code(piece) if i % 2 else _MD_SPECIAL.sub(r"\\\1", piece)
                   for i, piece in enumerate(pieces))


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---:" if name == "line" else "---" for name in header) + "|"]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return "\n".join(lines) + "\n"


# --- dispatch -----------------------------------------------------------------------------

def render_lint(report: LintReport, fmt: str, *, version: str, root_uri: str | None,
                colour: bool = False) -> str:
    """``report`` as ``fmt``: text (the default), json, github, sarif or markdown."""
    if fmt == "json":
        return render_lint_json(report, version=version)
    if fmt == "markdown":
        return render_lint_markdown(report)
    if fmt in ("github", "sarif"):
        return _ci(fmt, report.source.artifact, _lint_findings(report), LINT_SARIF_RULES,
                   version, root_uri)
    return render_lint_text(report, colour=colour)


def render_diff(report: DiffReport, fmt: str, *, version: str, root_uri: str | None,
                colour: bool = False) -> str:
    """``report`` as ``fmt``: text (the default), json, github, sarif or markdown."""
    if fmt == "json":
        return render_diff_json(report, version=version)
    if fmt == "markdown":
        return render_diff_markdown(report)
    if fmt in ("github", "sarif"):
        return _ci(fmt, report.new.artifact, _diff_findings(report), DIFF_RULES, version,
                   root_uri)
    return render_diff_text(report, colour=colour)


def _ci(fmt: str, artifact: str, found: list[Finding], rules: Sequence[Rule], version: str,
        root_uri: str | None) -> str:
    files = [(artifact, None, found)]
    if fmt == "github":
        return github_annotations(files)
    return sarif_log(files, rules=rules, version=version, root_uri=root_uri)
