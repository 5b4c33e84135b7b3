"""Renderers for ``check``, ``apply`` and ``explain`` (SPEC §8): text, JSON, GitHub workflow
annotations and SARIF 2.1.0. No decisions are made here: a renderer turns the verdicts the
prover gave into text, and names each non-kept verdict by a stable rule ID.

Rule IDs are part of the interface (CI filters, SARIF baselines and suppressions key on them);
a rule is never renumbered or reused::

    SG001 not-covered           a grant wider than the plan (a witness shows it)
    SG002 unknown               a grant that could not be proven within the plan
    SG003 invalid               an entry that does not parse
    SG004 inert                 an entry that grants nothing at runtime
    SG005 ambiguous             an entry the runtime would cut differently from us
    SG006 restored              nothing survived; the approved entries were restored
    SG007 tool-name-normalized  a kept entry rewritten to its canonical spelling
    SG008 duplicate             an entry that repeats an earlier one; written once

Text from the skill file (entries, witnesses) is untrusted: every renderer escapes control
characters (``reports.escape.printable``), so a crafted entry cannot move the cursor, recolour a
terminal or break a line of a workflow command. The GitHub and SARIF writers shared with
``lint``/``diff`` live in ``reports.ci``; their names are re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from ..rules import RULE_BY_ID, RULES, STATUS_RULE, rule_for
from .ci import (
    SARIF_SCHEMA_URI,
    FileError,
    FileFindings,
    Finding,
    Level,
    Location,
    Rule,
    github_annotations,
    sarif_log,
)
from .escape import ENTRY_SHOWN, brief, dumps, printable, shown
from .escape import Paint as _Paint
from .jsondoc import JSON_VERSION, JsonDocument, render_explain_json, render_json, verdict_json

if TYPE_CHECKING:
    from ..verdicts import Decision, Verdict

__all__ = [
    "ENTRY_SHOWN",
    "JSON_VERSION",
    "RULES",
    "RULE_BY_ID",
    "SARIF_SCHEMA_URI",
    "FileError",
    "FileFindings",
    "FileResult",
    "Finding",
    "JsonDocument",
    "Level",
    "Location",
    "Rule",
    "Run",
    "brief",
    "dumps",
    "findings",
    "github_annotations",
    "printable",
    "render_explain_json",
    "render_explain_text",
    "render_github",
    "render_json",
    "render_sarif",
    "render_text",
    "rule_for",
    "sarif_log",
    "shown",
    "unified_diff",
    "verdict_json",
]

@dataclass(frozen=True)
class FileResult:
    """What happened to one SKILL.md, as the CLI saw it.

    ``path`` is shown to people; ``artifact`` is the repository-relative POSIX path (absolute
    when the file is outside the repository) used by the github and sarif formats.
    ``location`` is where ``allowed-tools`` is (or would be added); ``entry_locations`` holds
    one location per verdict, in order. ``applied`` is True when the file was rewritten.
    """

    path: str
    artifact: str
    decision: Decision | None = None
    changed: bool = False
    applied: bool = False
    location: Location | None = None
    entry_locations: tuple[Location, ...] = ()
    diff: str | None = None
    error: FileError | None = None
    #: Why Claude Code will not read this file's allowed-tools (SG009), if it will not.
    runtime_note: str | None = None

    def where(self, index: int) -> Location | None:
        if index < len(self.entry_locations):
            return self.entry_locations[index]
        return self.location


@dataclass
class Run:
    """Everything a renderer needs about one ``check``/``apply`` run."""

    command: str
    plan: str | None
    files: list[FileResult] = field(default_factory=list)
    dry_run: bool = False


# --- evidence -----------------------------------------------------------------------------

def _finding_message(rule: Rule, verdict: Verdict) -> str:
    entry = brief(verdict.entry)
    if rule.id == "SG001":
        text = f"{entry} is not covered by the plan: {printable(verdict.reason)}"
        if verdict.witness is not None:
            text += f" (witness: {shown(verdict.witness)})"
        return text
    if rule.id == "SG007":
        return (f"{entry} is kept as {brief(verdict.written or '')} (covered by "
                f"{brief(verdict.covered_by or '')}); the runtime matches tool names "
                "exactly")
    if rule.id == "SG008":
        return f"{entry} repeats an earlier entry; it is written once"
    first_line = verdict.reason.split("\n", 1)[0]
    return f"{entry} is dropped ({rule.name}): {printable(first_line)}"


def findings(result: FileResult) -> list[Finding]:
    """The rule hits of one file, in file order (a restore comes last)."""
    decision = result.decision
    if decision is None:
        return []
    found = []
    for index, verdict in enumerate(decision.verdicts):
        rule = rule_for(verdict, decision)
        if rule is not None:
            found.append(Finding(rule, _finding_message(rule, verdict), result.where(index),
                                 verdict))
    if decision.restored:
        restored = ", ".join(brief(e) for e in decision.allowed)
        found.append(Finding(RULE_BY_ID["SG006"], "nothing submitted survived; the approved "
                             f"entries were restored: {restored}", result.location))
    if result.runtime_note is not None:
        found.append(Finding(RULE_BY_ID["SG009"], result.runtime_note, result.location))
    return found


# --- text ---------------------------------------------------------------------------------

_STATUS_COLOUR: Final = {"covered": "green", "unknown": "yellow", "inert": "yellow"}


#: Entries longer than this are not padded: the evidence column starts after them.
_ENTRY_COLUMN: Final = 40


def _verdict_lines(verdict: Verdict, decision: Decision, paint: _Paint, width: int) -> list[str]:
    rule = rule_for(verdict, decision)
    tag = "" if rule is None else f"  [{rule.id} {rule.name}]"
    entry = brief(verdict.entry).ljust(width)
    if verdict.covered:
        duplicate = rule is not None and rule.id == "SG008"
        label = paint("dup " if duplicate else "keep", "green")
        cover = f"  covered by {brief(verdict.covered_by or '')}"
        lines = [f"  {label}  {entry}{paint(cover, 'dim')}{tag}"]
        if not duplicate and verdict.written and verdict.written != verdict.entry.strip():
            lines.append(f"        written as {brief(verdict.written)}")
        return [line.rstrip() for line in lines]
    colour = _STATUS_COLOUR.get(verdict.status, "red")
    lines = [f"  {paint('drop', colour)}  {entry}{paint(tag, colour)}".rstrip()]
    if verdict.witness is not None:
        lines.append(f"        witness: {paint(shown(verdict.witness), 'bold')}")
    reason = printable(verdict.reason, keep_newlines=True).split("\n")
    lines.append(f"        reason:  {reason[0]}")
    lines.extend(f"        {line}" for line in reason[1:])
    return lines


def _file_state(run: Run, result: FileResult) -> str:
    if run.command == "check" or run.dry_run:
        return "would change" if result.changed else "unchanged"
    return "rewritten" if result.applied else "unchanged"


def render_text(run: Run, *, colour: bool = False) -> str:
    """The report for people: each file, every decision, the value it becomes."""
    paint = _Paint(colour)
    out: list[str] = []
    for result in run.files:
        if result.error is not None or result.decision is None:
            continue
        decision = result.decision
        where = printable(result.path)
        if result.location is not None:
            where += f":{result.location.line}"
        state = _file_state(run, result)
        kept = len(decision.kept)
        summary = f"{kept} kept, {len(decision.dropped)} dropped"
        if decision.restored:
            summary += ", approved entries restored"
        state_colour = "yellow" if result.changed else "green"
        out.append(f"{paint(where, 'bold')}: {paint(state, state_colour)} ({summary})")
        width = min(_ENTRY_COLUMN, max((len(brief(v.entry)) for v in decision.verdicts),
                                       default=0))
        for verdict in decision.verdicts:
            out.extend(_verdict_lines(verdict, decision, paint, width))
        if decision.restored:
            rule = RULE_BY_ID["SG006"]
            out.append(f"  {paint('restored', 'yellow')}  nothing submitted survived "
                       f"[{rule.id} {rule.name}]")
        if result.runtime_note is not None:
            rule = RULE_BY_ID["SG009"]
            out.append(f"  {paint('note', 'yellow')}  {printable(result.runtime_note)} "
                       f"[{rule.id} {rule.name}]")
        value = ", ".join(brief(e) for e in decision.allowed) or "(no allowed-tools key)"
        out.append(f"  => allowed-tools: {value}")
    errors = sum(1 for r in run.files if r.error is not None)
    would = run.command == "check" or run.dry_run
    changed = sum(1 for r in run.files if (r.changed if would else r.applied))
    total = len(run.files)
    noun = "file" if total == 1 else "files"
    verb = "would change" if would else "rewritten"
    tail = f"{total} {noun} checked: {changed} {verb}"
    if errors:
        tail += f", {errors} with errors"
    out.append(tail + ".")
    return "\n".join(out) + "\n"


def render_explain_text(verdict: Verdict, approved: Sequence[str], *,
                        colour: bool = False) -> str:
    """One decision with its evidence, for ``skillgrant explain``."""
    paint = _Paint(colour)
    status = verdict.status
    rule = RULE_BY_ID.get(STATUS_RULE.get(status, ""))
    tag = f" [{rule.id} {rule.name}]" if rule is not None else ""
    lines = [f"{brief(verdict.entry)}: "
             f"{paint(status, _STATUS_COLOUR.get(status, 'red'))}{tag}"]
    if verdict.covered_by is not None:
        lines.append(f"  covered by: {brief(verdict.covered_by)}")
        for other in verdict.also_covered_by:
            lines.append(f"         and: {brief(other)}")
    if verdict.written is not None and verdict.written != verdict.entry.strip():
        lines.append(f"  written as: {brief(verdict.written)}")
    if verdict.witness is not None:
        lines.append(f"  witness:    {paint(shown(verdict.witness), 'bold')} "
                     "(allowed by this grant, by no approved entry)")
    reason = printable(verdict.reason, keep_newlines=True).split("\n")
    lines.append(f"  reason:     {reason[0]}")
    lines.extend(f"  {line}" for line in reason[1:])
    listed = ", ".join(brief(a) for a in approved) or "(nothing)"
    lines.append(f"  approved:   {listed}")
    return "\n".join(lines) + "\n"


# --- GitHub workflow commands and SARIF (the shared part is reports.ci) ----------------------

def _file_findings(run: Run) -> list[FileFindings]:
    return [(result.artifact, result.error, findings(result)) for result in run.files]


def render_github(run: Run) -> str:
    """GitHub Actions workflow commands: one annotation per finding and per input error."""
    return github_annotations(_file_findings(run))


def render_sarif(run: Run, *, version: str, root_uri: str | None) -> str:
    """A SARIF 2.1.0 log of a check/apply run (see ``reports.ci.sarif_log``)."""
    return sarif_log(_file_findings(run), rules=RULES, version=version, root_uri=root_uri)


# --- diff ---------------------------------------------------------------------------------

def unified_diff(old: str, new: str, artifact: str) -> str:
    """A unified diff of a rewrite (``a/``, ``b/`` prefixes, as ``git apply`` reads it); a last
    line without a line break is marked the way diff(1) marks it."""
    import difflib  # only --dry-run needs it

    lines: Iterable[str] = difflib.unified_diff(
        _lines(old), _lines(new), fromfile=f"a/{artifact}", tofile=f"b/{artifact}")
    out = []
    for line in lines:
        out.append(line)
        if not line.endswith("\n"):
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)


def _lines(text: str) -> list[str]:
    # Only "\n" ends a line for diff(1) and patch(1); str.splitlines would also cut at form
    # feeds and Unicode separators.
    parts = text.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
