"""``replay`` rendered: text, JSON, Markdown and SARIF, like the other commands. No decisions.

In SARIF each changed call is a result at the evidence line that holds it: ``SGR001``
(now-denied, a warning: the new plan breaks a call the skill made) and ``SGR002`` (now-allowed,
an error: the new plan allows a call the old one did not).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..evidence.replay import Change, Replay
from ..rules import Rule
from .ci import FileFindings, Finding, Location, artifact_path, sarif_log
from .escape import brief, dumps, plural
from .jsondoc import JSON_VERSION, tool_json
from .markdown import md_code, md_table, md_text

NOW_DENIED = Rule("SGR001", "now-denied", "warning",
                  "A call the skill made is denied under the new plan.",
                  "The new plan no longer allows this call: the skill will be stopped there. "
                  "Widen the plan if the call is wanted.")
NOW_ALLOWED = Rule("SGR002", "now-allowed", "error",
                   "A call is allowed under the new plan that was not before.",
                   "The new plan allows a call the old one denied: review that this is "
                   "wanted before approving it.")
#: Changed calls listed by the text and Markdown reports (JSON and SARIF list every one).
SHOWN = 50


def render(found: Replay, fmt: str, *, version: str, root: Path, root_uri: str | None) -> str:
    """The report of ``found`` in ``fmt`` (text, json, markdown or sarif); SARIF names each
    evidence file relative to the repository ``root``."""
    if fmt == "json":
        return dumps(json_document(found, version))
    if fmt == "markdown":
        return markdown(found)
    if fmt == "sarif":
        return sarif(found, version=version, root=root, root_uri=root_uri)
    return text(found)


def _headline(found: Replay) -> str:
    before = f"the plan {found.against}" if found.against else "the logged decisions"
    return (f"replay of {plural(found.calls, 'call')} ({found.distinct} distinct) under "
            f"{found.plan}, against {before}: {found.count(found.now_denied)} now denied, "
            f"{found.count(found.now_allowed)} now allowed, {found.unchanged} unchanged")


def _subject(change: Change) -> str:
    subject = change.call.tool_input.get("command") if isinstance(
        change.call.tool_input, dict) else None
    return subject if isinstance(subject, str) else json.dumps(dict(change.call.tool_input),
                                                                 sort_keys=True)


def _shown(change: Change) -> str:
    times = f" (x{change.count})" if change.count > 1 else ""
    return f"{change.call.where} {change.call.tool}: {brief(_subject(change))}{times}"


def text(found: Replay) -> str:
    lines = [_headline(found) + "."]
    for title, changes in (("now denied", found.now_denied), ("now allowed", found.now_allowed)):
        if changes:
            lines.append(f"{title} ({found.count(changes)}):")
        for change in changes[:SHOWN]:
            lines.append(f"  {_shown(change)}")
            lines.append(f"    {change.before} -> {change.after}: {brief(change.reason)}")
        if len(changes) > SHOWN:
            lines.append(f"  … and {len(changes) - SHOWN} more distinct calls")
    if found.skipped:
        lines.append(f"{plural(len(found.skipped), 'line')} of evidence held no call to replay.")
    return "\n".join(lines) + "\n"


def json_document(found: Replay, version: str) -> dict[str, Any]:
    def change(c: Change) -> dict[str, Any]:
        return {"where": c.call.where, "count": c.count, "tool": c.call.tool,
                "input": dict(c.call.tool_input), "cwd": c.call.cwd, "before": c.before,
                "after": c.after, "reason": c.reason, "covered_by": list(c.covered_by)}

    return {"version": JSON_VERSION, "tool": tool_json(version), "command": "replay",
            "plan": found.plan, "against": found.against, "calls": found.calls,
            "distinct": found.distinct, "changed": found.changed,
            "counts": {"now_denied": found.count(found.now_denied),
                       "now_allowed": found.count(found.now_allowed),
                       "unchanged": found.unchanged, "skipped": len(found.skipped)},
            "now_denied": [change(c) for c in found.now_denied],
            "now_allowed": [change(c) for c in found.now_allowed],
            "skipped": [{"where": s.where, "reason": s.reason} for s in found.skipped]}


def markdown(found: Replay) -> str:
    out = [f"### skillgrant replay\n\n{md_text(_headline(found))}.\n"]
    for title, changes in (("Now denied", found.now_denied), ("Now allowed", found.now_allowed)):
        if not changes:
            continue
        rows = [[md_code(c.call.where), md_code(c.call.tool), md_code(_subject(c)),
                 str(c.count), md_code(c.before), md_code(c.after), md_text(brief(c.reason))]
                for c in changes[:SHOWN]]
        out.append(f"#### {title} ({found.count(changes)})\n\n"
                   + md_table(["where", "tool", "call", "calls", "before", "now", "reason"],
                              rows))
    return "\n".join(out) + ("" if out[-1].endswith("\n") else "\n")


def sarif(found: Replay, *, version: str, root: Path, root_uri: str | None) -> str:
    files: dict[str, list[Finding]] = {}
    for rule, changes in ((NOW_DENIED, found.now_denied), (NOW_ALLOWED, found.now_allowed)):
        for c in changes:
            message = (f"{_shown(c)}: {c.before} before, {c.after} under {found.plan} "
                       f"({brief(c.reason)})")
            artifact = artifact_path(Path(c.call.source), root)
            files.setdefault(artifact, []).append(Finding(
                rule, message, Location(c.call.line),
                properties={"entry": _shown(c), "before": c.before, "after": c.after,
                            "count": c.count}))
    entries: list[FileFindings] = [(path, None, found_in) for path, found_in in files.items()]
    return sarif_log(entries, rules=[NOW_DENIED, NOW_ALLOWED], version=version,
                     root_uri=root_uri)
