"""``audit verify`` rendered: one line a log in text, and the JSON document. No decisions here."""

from __future__ import annotations

from ..evidence.chain import ChainReport
from .jsondoc import JSON_VERSION, tool_json


def render_text(reports: list[ChainReport]) -> str:
    """One line for each log: the chain holds (with its head), or where it breaks."""
    lines = []
    for report in reports:
        cut = (f"; {len(report.cut)} cut lines (a writer killed mid-record): "
               f"{', '.join(map(str, report.cut[:20]))}" if report.cut else "")
        if report.broken is not None:
            lines.append(f"{report.path}:{report.broken.line}: the chain breaks: "
                         f"{report.broken.reason}")
        elif report.anchor is not None and report.anchor_line is None:
            lines.append(f"{report.path}: the anchor {report.anchor} is the link of no record: "
                         "a record at or before it was changed, or the log was cut before it")
        else:
            anchored = (f"; the anchor is line {report.anchor_line}"
                        if report.anchor_line is not None else "")
            lines.append(f"{report.path}: the chain holds: {report.records} records{cut}"
                         f"{anchored}; head {report.head or 'none (no record)'}")
    return "\n".join(lines) + "\n"


def render_json(reports: list[ChainReport], version: str) -> dict[str, object]:
    """The ``audit verify --format json`` document."""
    return {"version": JSON_VERSION, "tool": tool_json(version), "command": "audit verify",
            "logs": [{
        "path": r.path, "valid": r.valid, "records": r.records, "cut_lines": r.cut,
        "head": r.head,
        "break": None if r.broken is None else {"line": r.broken.line,
                                                 "reason": r.broken.reason},
        "anchor": None if r.anchor is None else {"link": r.anchor, "line": r.anchor_line},
    } for r in reports]}
