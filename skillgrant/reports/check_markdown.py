"""``check``/``apply`` as Markdown: a CI step summary (``$GITHUB_STEP_SUMMARY``) or a
pull-request comment. A summary line, a table of the files (what became of each), and a table of
every decision: kept, dropped (with its rule and witness), restored.

No decisions are made here, as in every renderer. Entries, witnesses, paths and reasons are
untrusted: each is a code span or escaped text (``reports.markdown``), never markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules import RULE_BY_ID, Rule, rule_for
from .markdown import md_code, md_table, md_text

if TYPE_CHECKING:
    from ..verdicts import Decision, Verdict
    from .results import FileResult, Run

_FILE_HEADER = ("file", "result", "kept", "dropped", "allowed-tools")
_DECISION_HEADER = ("file", "line", "decision", "entry", "evidence")


def _would(run: Run) -> bool:
    return run.command == "check" or run.dry_run


def _summary(run: Run) -> str:
    """``2 files checked: 1 would change, 1 with errors``, as in text."""
    would = _would(run)
    changed = sum(1 for r in run.files if (r.changed if would else r.applied))
    errors = sum(1 for r in run.files if r.error is not None)
    total = len(run.files)
    text = (f"{total} {'file' if total == 1 else 'files'} checked: {changed} "
            f"{'would change' if would else 'rewritten'}")
    return text + (f", {errors} with errors" if errors else "")


def _state(run: Run, result: FileResult) -> str:
    if _would(run):
        return "**would change**" if result.changed else "unchanged"
    return "**rewritten**" if result.applied else "unchanged"


def _rule(rule: Rule) -> str:
    return f"{rule.id} {md_code(rule.name)}"


def _entries(entries: list[str]) -> str:
    return ", ".join(md_code(e) for e in entries)


def _file_row(run: Run, result: FileResult) -> list[str]:
    path = md_code(result.path)
    decision = result.decision
    if result.error is not None or decision is None:
        message = result.error.message if result.error is not None else "not checked"
        return [path, f"**error**: {md_text(message)}", "", "", ""]
    state = _state(run, result)
    if decision.restored:
        state += ", approved entries restored"
    return [path, state, str(len(decision.kept)), str(len(decision.dropped)),
            _entries(decision.allowed) or "(no allowed-tools key)"]


def _kept(verdict: Verdict, rule: Rule | None) -> tuple[str, str]:
    """The decision and evidence cells of a covered entry."""
    if rule is not None and rule.id == "SG008":
        return f"duplicate ({_rule(rule)})", "repeats an earlier entry; written once"
    covers = [verdict.covered_by or "", *verdict.also_covered_by]
    evidence = "covered by " + " and ".join(md_code(c) for c in covers)
    if verdict.written and verdict.written != verdict.entry.strip():
        evidence += f"; written as {md_code(verdict.written)}"
    return ("kept" if rule is None else f"kept ({_rule(rule)})"), evidence


def _dropped(verdict: Verdict, rule: Rule | None) -> tuple[str, str]:
    """The decision and evidence cells of an entry that is dropped."""
    label = "**dropped**" if rule is None else f"**dropped** ({_rule(rule)})"
    evidence = md_text(verdict.reason)
    if verdict.witness is not None:
        evidence = f"witness {md_code(verdict.witness)}: {evidence}"
    return label, evidence


def _decision_rows(result: FileResult, decision: Decision) -> list[list[str]]:
    path = md_code(result.path)
    rows = []
    for index, verdict in enumerate(decision.verdicts):
        rule = rule_for(verdict)
        label, evidence = (_kept if verdict.covered else _dropped)(verdict, rule)
        location = result.where(index)
        rows.append([path, "" if location is None else str(location.line), label,
                     md_code(verdict.entry), evidence])
    key = "" if result.location is None else str(result.location.line)
    if decision.restored:
        rows.append([path, key, f"**restored** ({_rule(RULE_BY_ID['SG006'])})",
                     _entries(decision.allowed),
                     "nothing submitted survived, so the approved entries are written"])
    if result.runtime_note is not None:
        rows.append([path, key, f"note ({_rule(RULE_BY_ID[result.runtime_rule])})", "",
                     md_text(result.runtime_note)])
    if result.removed:
        where = result.removed_location
        rows.append([path, "" if where is None else str(where.line),
                     f"note ({_rule(RULE_BY_ID['SG011'])})", _entries(list(result.removed)),
                     md_text(f"{result.removed_key} removes these tools while the skill runs "
                             "(Claude Code); kept as written, not judged against the plan")])
    return rows


def render_check_markdown(run: Run) -> str:
    """``check``/``apply`` ``--format markdown``: a summary line, a table of the files and a
    table of every decision (a file with an input error is in the first only).

    >>> from skillgrant import constrain
    >>> from skillgrant.reports.check import FileResult, Location, Run
    >>> decision = constrain(["Read"], ["Read"])
    >>> text = render_check_markdown(Run("check", "plan.yaml", [
    ...     FileResult("SKILL.md", "SKILL.md", decision, location=Location(4))]))
    >>> text.splitlines()[0]
    '**skillgrant check** against `plan.yaml`: 1 file checked: 0 would change.'
    """
    command = "apply --dry-run" if run.command == "apply" and run.dry_run else run.command
    head = f"**skillgrant {command}**"
    if run.plan is not None:
        head += f" against {md_code(run.plan)}"
    head += f": {_summary(run)}."
    if not run.files:
        return head + "\n"
    parts = [head, md_table(_FILE_HEADER, [_file_row(run, r) for r in run.files],
                            right=("kept", "dropped"))]
    rows = [row for r in run.files if r.error is None and r.decision is not None
            for row in _decision_rows(r, r.decision)]
    if rows:
        parts.append(md_table(_DECISION_HEADER, rows))
    return "\n\n".join(p.rstrip("\n") for p in parts) + "\n"
