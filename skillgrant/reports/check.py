"""Renderers for ``check``, ``apply`` and ``explain`` (semantics §8): text, JSON, GitHub workflow
annotations, SARIF 2.1.0 and (``check``/``apply``) Markdown. No decisions are made here: a
renderer turns the verdicts the prover gave into text, and names each non-kept verdict by its
stable rule ID (the SG rules of ``rules.CHECK_RULES``; which one a verdict hits is
``rules.rule_for``).

Text from the skill file (entries, witnesses) is untrusted: every renderer escapes control
characters (``reports.escape.printable``), so a crafted entry cannot move the cursor, recolour a
terminal or break a line of a workflow command. The GitHub and SARIF writers shared with
``lint``/``diff`` live in ``reports.ci``, the JSON document in ``reports.jsondoc`` and the
Markdown in ``reports.check_markdown``; their names are re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Final, NamedTuple

from ..rules import CHECK_RULES, RULE_BY_ID, Rule, rule_for, status_rule
from .ci import (
    SARIF_SCHEMA_URI,
    FileError,
    FileFindings,
    Finding,
    Location,
    github_annotations,
    sarif_log,
)
from .escape import ENTRY_SHOWN, brief, dumps, printable, shown
from .escape import Paint as _Paint
from .jsondoc import JSON_VERSION, JsonDocument, render_explain_json, render_json, verdict_json
from .results import FileResult, Run
from .spool import Spool

if TYPE_CHECKING:
    from ..verdicts import Decision, Verdict

__all__ = [
    "ENTRY_SHOWN",
    "JSON_VERSION",
    "SARIF_SCHEMA_URI",
    "FileError",
    "FileFindings",
    "FileResult",
    "Finding",
    "JsonDocument",
    "Location",
    "Run",
    "TextDocument",
    "TextStyle",
    "brief",
    "dumps",
    "findings",
    "github_annotations",
    "printable",
    "render_check_markdown",
    "render_explain_json",
    "render_explain_text",
    "render_github",
    "render_json",
    "render_sarif",
    "render_text",
    "sarif_log",
    "shown",
    "text_block",
    "text_tail",
    "unified_diff",
    "verdict_json",
]

# --- evidence -----------------------------------------------------------------------------

def _finding_message(rule: Rule, verdict: Verdict) -> str:
    entry = brief(verdict.entry)
    if rule.id == "SG001":
        text = f"{entry} is not covered by the plan: {printable(verdict.reason)}"
        if verdict.witness is not None:
            text += f" (witness: {shown(verdict.witness)})"
        return text
    if rule.id == "SG007":
        written = verdict.written or ""
        # `read(x)` → `Read(x)`: the name; `Read(*)` → `Read`: only the form
        why = ("the runtime matches tool names exactly"
               if _tool_of(verdict.entry) != _tool_of(written)
               else "the same grant, in its canonical form")
        return (f"{entry} is kept as {brief(written)} (covered by "
                f"{brief(verdict.covered_by or '')}); {why}")
    if rule.id == "SG008":
        return f"{entry} repeats an earlier entry; it is written once"
    first_line = verdict.reason.split("\n", 1)[0]
    return f"{entry} is dropped ({rule.name}): {printable(first_line)}"


def _tool_of(entry: str) -> str:
    return entry.split("(", 1)[0].strip()


def findings(result: FileResult) -> list[Finding]:
    """The rule hits of one file, in file order (a restore comes last)."""
    decision = result.decision
    if decision is None:
        return []
    found = []
    for index, verdict in enumerate(decision.verdicts):
        rule = rule_for(verdict)
        if rule is not None:
            found.append(Finding(rule, _finding_message(rule, verdict), result.where(index),
                                 verdict))
    if decision.restored:
        restored = ", ".join(brief(e) for e in decision.allowed)
        found.append(Finding(RULE_BY_ID["SG006"], "nothing submitted survived; the approved "
                             f"entries were restored: {restored}", result.location))
    if result.runtime_note is not None:
        found.append(Finding(RULE_BY_ID[result.runtime_rule], result.runtime_note,
                             result.location))
    if result.removed:
        found.append(Finding(RULE_BY_ID["SG011"], removed_message(result),
                             result.removed_location or result.location))
    return found


def removed_message(result: FileResult) -> str:
    """SG011's sentence: what the file's ``disallowed-tools`` removes (``result.removed``)."""
    removed = ", ".join(brief(e) for e in result.removed)
    return (f"{result.removed_key} removes {removed} while the skill runs (Claude Code); "
            "kept as written, not judged against the plan")


# --- text ---------------------------------------------------------------------------------

_STATUS_COLOUR: Final = {"covered": "green", "unknown": "yellow", "inert": "yellow"}


#: Entries longer than this are not padded: the evidence column starts after them.
_ENTRY_COLUMN: Final = 40


def _where(path: str, location: Location | None) -> str:
    """``path:line:column:``, the form editors and ``grep`` read."""
    if location is None:
        return f"{path}:"
    return f"{path}:{location.line}:{location.column}:"


def _verdict_lines(verdict: Verdict, paint: _Paint, width: int) -> list[str]:
    """An entry's line (after its location) and its evidence lines."""
    rule = rule_for(verdict)
    tag = "" if rule is None else f"  [{rule.id} {rule.name}]"
    entry = brief(verdict.entry).ljust(width)
    if verdict.covered:
        duplicate = rule is not None and rule.id == "SG008"
        label = paint("dup " if duplicate else "keep", "green")
        cover = f"  covered by {brief(verdict.covered_by or '')}"
        lines = [f"{label}  {entry}{paint(cover, 'dim')}{tag}"]
        if not duplicate and verdict.written and verdict.written != verdict.entry.strip():
            lines.append(f"    written as {brief(verdict.written)}")
        return [line.rstrip() for line in lines]
    colour = _STATUS_COLOUR.get(verdict.status, "red")
    lines = [f"{paint('drop', colour)}  {entry}{paint(tag, colour)}".rstrip()]
    if verdict.witness is not None:
        lines.append(f"    witness: {paint(shown(verdict.witness), 'bold')}")
    reason = printable(verdict.reason, keep_newlines=True).split("\n")
    lines.append(f"    reason:  {reason[0]}")
    lines.extend(f"    {line}" for line in reason[1:])
    return lines


def _remembered_lines(verdict: Verdict, paint: _Paint, width: int) -> tuple[str, ...]:
    """``_verdict_lines``, remembered: a batch shows the same verdict, as wide, in many files."""
    key = (verdict, paint.enabled, width)
    found = _lines_memo.get(key)
    if found is None:
        found = tuple(_verdict_lines(verdict, paint, width))
        if len(_lines_memo) >= MAX_VERDICT_LINES:
            _lines_memo.clear()
        _lines_memo[key] = found
    return found


#: Verdicts whose lines are remembered at most (all are forgotten when it is full).
MAX_VERDICT_LINES: Final = 4096
_lines_memo: dict[tuple[Verdict, bool, int], tuple[str, ...]] = {}


def _file_state(run: Run | TextStyle, result: FileResult) -> str:
    if run.command == "check" or run.dry_run:
        return "would change" if result.changed else "unchanged"
    return "rewritten" if result.applied else "unchanged"


def _file_lines(run: Run | TextStyle, result: FileResult, decision: Decision, paint: _Paint,
                quiet: bool = False) -> list[str]:
    """One file's block: its header, then a line per entry (per dropped entry, ``quiet``), per
    file-level rule and for the value it becomes, each starting with ``file:line:column:``
    (the key's for the last two)."""
    path = printable(result.path)
    header = path if result.location is None else f"{path}:{result.location.line}"
    summary = f"{len(decision.kept)} kept, {len(decision.dropped)} dropped"
    if decision.restored:
        summary += ", approved entries restored"
    state_colour = "yellow" if result.changed else "green"
    out = [f"{paint(header, 'bold')}: {paint(_file_state(run, result), state_colour)} "
           f"({summary})"]
    wheres = [_where(path, result.where(i)) for i in range(len(decision.verdicts))]
    key = _where(path, result.location)
    pad = max(map(len, [*wheres, key]))
    width = min(_ENTRY_COLUMN, max((len(brief(v.entry)) for v in decision.verdicts),
                                   default=0))
    for where, verdict in zip(wheres, decision.verdicts, strict=True):
        if quiet and verdict.covered:
            continue
        first, *evidence = _remembered_lines(verdict, paint, width)
        out.append(f"{paint(where.ljust(pad), 'bold')} {first}")
        out.extend(evidence)
    if decision.restored:
        rule = RULE_BY_ID["SG006"]
        out.append(f"{paint(key.ljust(pad), 'bold')} {paint('restored', 'yellow')}  nothing "
                   f"submitted survived [{rule.id} {rule.name}]")
    if result.runtime_note is not None:
        rule = RULE_BY_ID[result.runtime_rule]
        out.append(f"{paint(key.ljust(pad), 'bold')} {paint('note', 'yellow')}  "
                   f"{printable(result.runtime_note)} [{rule.id} {rule.name}]")
    if result.removed and not quiet:
        out.append(f"{paint(_where(path, result.removed_location).ljust(pad), 'bold')} "
                   f"{paint('note', 'dim')}  {removed_message(result)} [SG011 removes-tools]")
    value = ", ".join(brief(e) for e in decision.allowed) or "(no allowed-tools key)"
    out.append(f"{paint(key.ljust(pad), 'bold')} => allowed-tools: {value}")
    return out


def render_text(run: Run, *, colour: bool = False, quiet: bool = False) -> str:
    """The report for people: each file, every decision at its ``file:line:column``, the value
    it becomes. ``quiet``: only the files with a drop, a restore or a note, and in them only
    the dropped entries (errors are on standard error either way)."""
    style = TextStyle(run.command, run.dry_run, colour, quiet)
    paint = _Paint(colour)
    blocks = [text_block(result, style, paint) for result in run.files]
    errors = sum(1 for r in run.files if r.error is not None)
    would = run.command == "check" or run.dry_run
    changed = sum(1 for r in run.files if (r.changed if would else r.applied))
    return "".join(blocks) + text_tail(style, len(run.files), changed, errors)


class TextStyle(NamedTuple):
    """What the text report of a run looks like, the same for every file: the command, whether
    it is a dry run, colour, and ``quiet``."""

    command: str
    dry_run: bool
    colour: bool
    quiet: bool


def text_block(result: FileResult, style: TextStyle, paint: _Paint | None = None) -> str:
    """One file's part of ``render_text``: its lines, each ending in a line break ("" for a
    file the report leaves out). ``paint``: the style's, made once for a run."""
    decision = result.decision
    if result.error is not None or decision is None:
        return ""
    if style.quiet and not (decision.dropped or decision.restored or result.runtime_note):
        return ""
    lines = _file_lines(style, result, decision, paint or _Paint(style.colour), style.quiet)
    return "\n".join(lines) + "\n"


def text_tail(style: TextStyle, total: int, changed: int, errors: int) -> str:
    """The last line of ``render_text``: how many files were checked, changed (for ``check`` and
    dry runs, would change; else rewritten) and had errors."""
    would = style.command == "check" or style.dry_run
    noun = "file" if total == 1 else "files"
    verb = "would change" if would else "rewritten"
    tail = f"{total} {noun} checked: {changed} {verb}"
    if errors:
        tail += f", {errors} with errors"
    return tail + ".\n"


class TextDocument:
    """``render_text``'s text (or, for a dry run, the files' diffs), built a file at a time
    from each file's ``text_block`` (made where the file was done, also in a ``--jobs``
    worker) and kept in a ``Spool``: a batch holds text, not results."""

    def __init__(self, style: TextStyle) -> None:
        self.style = style
        self._blocks = Spool()
        self._counts = [0, 0, 0]  # files, changed (or rewritten), errors

    def add_fragment(self, fragment: str, *, changed: bool, applied: bool, error: bool) -> None:
        """A file's block and what the last line counts."""
        self._blocks.add(fragment)
        would = self.style.command == "check" or self.style.dry_run
        self._counts[0] += 1
        self._counts[1] += changed if would else applied
        self._counts[2] += error

    def chunks(self) -> Iterator[str]:
        """The report's text in pieces."""
        yield from self._blocks.chunks()
        if not self.style.dry_run:
            yield text_tail(self.style, *self._counts)


def render_explain_text(verdict: Verdict, approved: Sequence[str], *,
                        colour: bool = False) -> str:
    """One decision with its evidence, for ``skillgrant explain``."""
    paint = _Paint(colour)
    status = verdict.status
    rule = status_rule(status)
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
    rules = (*CHECK_RULES, RULE_BY_ID["SGL117"])  # issue 33: a file's Agent grant (a note)
    return sarif_log(_file_findings(run), rules=rules, version=version, root_uri=root_uri)


def render_check_markdown(run: Run) -> str:
    """``check``/``apply`` ``--format markdown``, a CI step summary (see
    ``reports.check_markdown``)."""
    from . import check_markdown  # loaded only for this format: check starts on every commit

    return check_markdown.render_check_markdown(run)


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
