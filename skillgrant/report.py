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
characters, so a crafted entry cannot move the cursor, recolour a terminal or break a line of a
workflow command.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal

from .grants import shorten

if TYPE_CHECKING:
    from .prover import Decision, Verdict

#: Version of the JSON document shape (``--format json``); bumped only on breaking changes.
JSON_VERSION: Final = 1

#: Characters of an entry or witness shown in text, github and sarif messages.
ENTRY_SHOWN: Final = 160

SARIF_SCHEMA_URI: Final = "https://json.schemastore.org/sarif-2.1.0.json"

Level = Literal["error", "warning", "note"]


@dataclass(frozen=True)
class Rule:
    """One stable rule: ``id`` never changes meaning; ``level`` is its SARIF default level."""

    id: str
    name: str
    level: Level
    summary: str
    help: str


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
)
RULE_BY_ID: Final = {rule.id: rule for rule in RULES}
_STATUS_RULE: Final = {"not_covered": "SG001", "unknown": "SG002", "invalid": "SG003",
                       "inert": "SG004", "ambiguous": "SG005"}


@dataclass(frozen=True)
class Location:
    """1-based line and column in the skill file."""

    line: int
    column: int = 1


@dataclass(frozen=True)
class FileError:
    """An input error for one file (the file was left untouched)."""

    message: str
    line: int | None = None
    column: int | None = None


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

    def where(self, index: int) -> Location | None:
        if index < len(self.entry_locations):
            return self.entry_locations[index]
        return self.location


@dataclass(frozen=True)
class Finding:
    """A rule hit, located in a file; ``verdict`` is None for a file-level finding (a restore)."""

    rule: Rule
    message: str
    location: Location | None
    verdict: Verdict | None = None


@dataclass
class Run:
    """Everything a renderer needs about one ``check``/``apply`` run."""

    command: str
    plan: str | None
    files: list[FileResult] = field(default_factory=list)
    dry_run: bool = False


# --- evidence -----------------------------------------------------------------------------

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e"
                     r"\u2066-\u2069]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\x1b": "\\e"}


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with control and bidi-override characters shown as escapes.

    >>> printable("rm -rf /\\x1b[2J")
    'rm -rf /\\\\e[2J'
    """
    def escape(match: re.Match[str]) -> str:
        ch = match.group()
        if keep_newlines and ch == "\n":
            return ch
        return _NAMED.get(ch) or f"\\u{ord(ch):04x}"
    return _UNSAFE.sub(escape, text)


def brief(text: str) -> str:
    """An entry for a message: printable, and cut when it is very long (JSON keeps it whole)."""
    return printable(shorten(text, ENTRY_SHOWN))


def shown(text: str) -> str:
    """``brief(text)``, in double quotes when blank space at an end would be invisible.

    >>> shown("ls"), shown("ls ")
    ('ls', '"ls "')
    """
    if text and text == text.strip():
        return brief(text)
    return '"' + brief(text).replace('"', '\\"') + '"'


def rule_for(verdict: Verdict, decision: Decision) -> Rule | None:
    """The rule a verdict hits, or None for a kept entry written as given."""
    if verdict.status in _STATUS_RULE:
        return RULE_BY_ID[_STATUS_RULE[verdict.status]]
    if not any(kept is verdict for kept in decision.kept):
        return RULE_BY_ID["SG008"]
    if verdict.written is not None and verdict.written != verdict.entry.strip():
        return RULE_BY_ID["SG007"]
    return None


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
    return found


# --- text ---------------------------------------------------------------------------------

_COLOURS: Final = {"red": "31", "green": "32", "yellow": "33", "bold": "1", "dim": "2"}


class _Paint:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, colour: str) -> str:
        if not self.enabled:
            return text
        return f"\x1b[{_COLOURS[colour]}m{text}\x1b[0m"


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
    rule = RULE_BY_ID.get(_STATUS_RULE.get(status, ""))
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


# --- JSON ---------------------------------------------------------------------------------

_JSON_UNSAFE = re.compile(r"[\x7f-\x9f\u2028\u2029]")


def dumps(document: object) -> str:
    """JSON text, UTF-8 readable, with DEL, C1 controls and line separators escaped."""
    text = json.dumps(document, ensure_ascii=False, indent=2)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    """One verdict as a JSON object: the fields every decision and ``explain`` share."""
    return {
        "entry": verdict.entry,
        "status": verdict.status,
        "covered": verdict.covered,
        "covered_by": verdict.covered_by,
        "also_covered_by": list(verdict.also_covered_by),
        "witness": verdict.witness,
        "reason": verdict.reason,
        "written": verdict.written,
    }


def _decision_json(verdict: Verdict, decision: Decision,
                   location: Location | None) -> dict[str, Any]:
    rule = rule_for(verdict, decision)
    return {
        **verdict_json(verdict),
        "kept": any(kept is verdict for kept in decision.kept),
        "rule": None if rule is None else rule.id,
        "line": None if location is None else location.line,
        "column": None if location is None else location.column,
    }


def _file_json(run: Run, result: FileResult) -> dict[str, Any]:
    decision = result.decision
    item: dict[str, Any] = {
        "path": result.path,
        "artifact": result.artifact,
        "changed": result.changed,
        "applied": result.applied,
        "restored": decision.restored if decision is not None else False,
        "line": None if result.location is None else result.location.line,
        "allowed": list(decision.allowed) if decision is not None else None,
        "decisions": [] if decision is None else [
            _decision_json(v, decision, result.where(i))
            for i, v in enumerate(decision.verdicts)],
        "error": None if result.error is None else {
            "message": result.error.message, "line": result.error.line,
            "column": result.error.column},
    }
    if run.dry_run:
        item["diff"] = result.diff or ""
    return item


def render_json(run: Run, *, version: str) -> str:
    """The machine interface: every file, every decision (documented in docs/cli.md)."""
    files = [_file_json(run, r) for r in run.files]
    return dumps({
        "version": JSON_VERSION,
        "tool": {"name": "skillgrant", "version": version},
        "command": run.command,
        "dry_run": run.dry_run,
        "plan": run.plan,
        "files": files,
        "summary": {
            "files": len(files),
            "changed": sum(1 for f in run.files if f.changed),
            "applied": sum(1 for f in run.files if f.applied),
            "errors": sum(1 for f in run.files if f.error is not None),
        },
    })


def render_explain_json(verdict: Verdict, approved: Sequence[str], *, version: str) -> str:
    """``explain --format json``: the decision object plus the approved entries."""
    rule = RULE_BY_ID.get(_STATUS_RULE.get(verdict.status, ""))
    document = {"version": JSON_VERSION, "tool": {"name": "skillgrant", "version": version},
                **verdict_json(verdict), "rule": None if rule is None else rule.id,
                "approved": list(approved)}
    return dumps(document)


# --- GitHub workflow commands -------------------------------------------------------------

def _gh_data(text: str) -> str:
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _gh_property(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def _gh_command(level: str, artifact: str, location: Location | None, title: str,
                message: str) -> str:
    props = [f"file={_gh_property(artifact)}"]
    if location is not None:
        props += [f"line={location.line}", f"col={location.column}"]
    props.append(f"title={_gh_property(title)}")
    return f"::{level} {','.join(props)}::{_gh_data(message)}"


_GH_LEVEL: Final = {"error": "error", "warning": "warning", "note": "notice"}


#: One file's share of a github or sarif report: its artifact path, its input error (if any)
#: and its findings. ``check``/``apply`` derive it from decisions; other commands (lint, diff)
#: can build it from rules of their own and reuse both renderers.
FileFindings = tuple[str, FileError | None, Sequence[Finding]]


def _file_findings(run: Run) -> list[FileFindings]:
    return [(result.artifact, result.error, findings(result)) for result in run.files]


def _error_location(error: FileError) -> Location | None:
    return None if error.line is None else Location(error.line, error.column or 1)


def render_github(run: Run) -> str:
    """GitHub Actions workflow commands: one annotation per finding and per input error."""
    return github_annotations(_file_findings(run))


def github_annotations(files: Iterable[FileFindings]) -> str:
    """Workflow commands for findings and input errors, one line each."""
    out = []
    for artifact, error, found_in_file in files:
        if error is not None:
            out.append(_gh_command("error", artifact, _error_location(error),
                                   "skillgrant: input error", error.message))
        for found in found_in_file:
            out.append(_gh_command(_GH_LEVEL[found.rule.level], artifact, found.location,
                                   f"{found.rule.id} {found.rule.name}", found.message))
    return "".join(line + "\n" for line in out)


# --- SARIF 2.1.0 --------------------------------------------------------------------------

_DRIVE = re.compile(r"[A-Za-z]:/")


def _artifact_location(artifact: str) -> dict[str, Any]:
    from urllib.parse import quote

    if artifact.startswith("/"):
        return {"uri": "file://" + quote(artifact)}
    if _DRIVE.match(artifact):
        return {"uri": "file:///" + quote(artifact, safe="/:")}
    # A ':' stays escaped: in a relative reference it would read as a URI scheme.
    return {"uri": quote(artifact), "uriBaseId": "%SRCROOT%"}


def _region(location: Location | None) -> dict[str, Any]:
    if location is None:
        return {}
    return {"region": {"startLine": location.line, "startColumn": location.column}}


def _sarif_rule(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.help},
        "help": {"text": rule.help},
        "defaultConfiguration": {"level": rule.level},
        "properties": {"tags": ["security"]},
    }


def render_sarif(run: Run, *, version: str, root_uri: str | None) -> str:
    """A SARIF 2.1.0 log of a check/apply run (see ``sarif_log``)."""
    return sarif_log(_file_findings(run), rules=RULES, version=version, root_uri=root_uri)


def sarif_log(files: Iterable[FileFindings], *, rules: Sequence[Rule], version: str,
              root_uri: str | None) -> str:
    """A SARIF 2.1.0 log with one run: the driver lists ``rules``; results carry their stable
    IDs and repository-relative URIs (``uriBaseId`` ``%SRCROOT%``, resolved by ``root_uri``
    when given); input errors are tool execution notifications."""
    index = {rule.id: i for i, rule in enumerate(rules)}
    results: list[dict[str, Any]] = []
    notifications: list[dict[str, Any]] = []
    for artifact, error, found_in_file in files:
        where = _artifact_location(artifact)
        if error is not None:
            notifications.append({
                "level": "error",
                "message": {"text": printable(error.message)},
                "locations": [{"physicalLocation": {"artifactLocation": where,
                                                    **_region(_error_location(error))}}],
            })
        for found in found_in_file:
            item: dict[str, Any] = {
                "ruleId": found.rule.id,
                "ruleIndex": index[found.rule.id],
                "level": found.rule.level,
                "message": {"text": found.message},
                "locations": [{"physicalLocation": {"artifactLocation": where,
                                                    **_region(found.location)}}],
            }
            if found.verdict is not None:
                item["properties"] = {
                    "entry": found.verdict.entry, "status": found.verdict.status,
                    "witness": found.verdict.witness, "coveredBy": found.verdict.covered_by}
            results.append(item)
    sarif_run: dict[str, Any] = {
        "tool": {"driver": {"name": "skillgrant", "version": version,
                            "semanticVersion": version,
                            "rules": [_sarif_rule(rule) for rule in rules]}},
        "invocations": [{"executionSuccessful": not notifications,
                         "toolExecutionNotifications": notifications}],
        "results": results,
        "columnKind": "unicodeCodePoints",
    }
    if root_uri is not None:
        sarif_run["originalUriBaseIds"] = {"%SRCROOT%": {"uri": root_uri}}
    return dumps({"$schema": SARIF_SCHEMA_URI, "version": "2.1.0", "runs": [sarif_run]})


# --- diff ---------------------------------------------------------------------------------

def unified_diff(old: str, new: str, artifact: str) -> str:
    """A unified diff of a rewrite (``a/``, ``b/`` prefixes, as ``git apply`` reads it); a last
    line without a line break is marked the way diff(1) marks it."""
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
