"""``suggest`` rendered: the plan file (YAML, each entry with the calls it covers in a comment)
and the JSON document. No decisions here.

The plan file is read by ``check``, ``lint``, ``diff`` and the gate like any plan. Each entry is
written as a JSON string (a YAML double-quoted scalar), and every comment holds printable ASCII
only, so no text from the evidence can end a comment early or start a YAML line. The same
suggestion gives the same bytes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from ..evidence.suggest import Distinct, Suggestion
from .escape import plural
from .jsondoc import JSON_VERSION, tool_json

#: Distinct calls listed under an entry in the plan file (the JSON document lists all).
SHOWN_PER_ENTRY = 20
#: Characters of one call shown in a comment.
CALL_CHARS = 160
#: Characters of a reason shown in a comment (a reason may quote a whole path).
REASON_CHARS = 400


def plan_text(found: Suggestion, sources: Sequence[str]) -> str:
    """The suggested plan as a YAML plan file."""
    lines = [
        f"# skillgrant suggest --generalize {found.level}: {plural(found.calls, 'call')} "
        f"({found.distinct} distinct) from {_comment(', '.join(sources))}.",
        f"# {_entries(len(found.entries))}; "
        f"{plural(len(found.not_suggestible), 'distinct call')} not suggestible (listed at "
        "the end).",
        "# Review it with skillgrant lint and skillgrant diff before approving it.",
    ]
    if not found.entries:
        lines.append("allowed-tools: []")
    else:
        lines.append("allowed-tools:")
    for entry in found.entries:
        covered = found.covers.get(entry, [])
        lines.append(f"  # covers {plural(sum(d.count for d in covered), 'call')} "
                     f"({len(covered)} distinct):")
        lines.extend(f"  #   {_comment(_call(d))}" for d in covered[:SHOWN_PER_ENTRY])
        if len(covered) > SHOWN_PER_ENTRY:
            lines.append(f"  #   ... and {len(covered) - SHOWN_PER_ENTRY} more distinct calls")
        lines.append(f"  - {yaml_quoted(entry)}")
    if found.not_suggestible:
        lines.append("# Not suggestible: the gate does not allow these calls under this plan.")
    for item in found.not_suggestible:
        lines.append(f"#   {_comment(_call(item))}")
        reason = item.reason if len(item.reason) <= REASON_CHARS else (
            item.reason[:REASON_CHARS] + f"... ({len(item.reason)} characters)")
        lines.append(f"#     {item.status}: {_comment(reason)}")
    return "\n".join(lines) + "\n"


def json_document(found: Suggestion, sources: Sequence[str], version: str) -> dict[str, Any]:
    """The suggestion as the JSON document ``suggest --format json`` prints."""
    return {
        "version": JSON_VERSION, "tool": tool_json(version), "command": "suggest",
        "generalize": found.level,
        "sources": list(sources),
        "calls": found.calls,
        "distinct": found.distinct,
        "allowed_tools": list(found.entries),
        "entries": [{"entry": e, "calls": sum(d.count for d in found.covers.get(e, [])),
                     "covers": [_call_json(d) for d in found.covers.get(e, [])]}
                    for e in found.entries],
        "not_suggestible": [_call_json(d) | {"status": d.status, "reason": d.reason,
                                             "why": d.why} for d in found.not_suggestible],
        "skipped": [{"where": s.where, "reason": s.reason}  # type: ignore[attr-defined]
                    for s in found.skipped],
    }


def summary(found: Suggestion, output: str) -> str:
    """The line ``suggest --output`` prints."""
    return (f"{output}: {_entries(len(found.entries))} covering "
            f"{found.calls - sum(d.count for d in found.not_suggestible)} of "
            f"{plural(found.calls, 'call')}; "
            f"{plural(len(found.not_suggestible), 'distinct call')} not suggestible\n")


def _entries(count: int) -> str:
    return f"{count} {'entry' if count == 1 else 'entries'}"


def _call_json(item: Distinct) -> dict[str, Any]:
    call = item.call
    return {"where": call.where, "count": item.count, "tool": call.tool,
            "input": dict(call.tool_input), "cwd": call.cwd}


def _call(item: Distinct) -> str:
    call = item.call
    shown = _subject(call.tool_input)
    if len(shown) > CALL_CHARS:
        shown = shown[:CALL_CHARS] + f"... ({len(shown)} characters)"
    times = f" (x{item.count})" if item.count > 1 else ""
    return f"{call.where} {call.tool}: {shown}{times}"


def _subject(tool_input: Any) -> str:
    for key in ("command", "cmd", "file_path", "filePath", "path", "url", "pattern",
                "subagent_type", "skill"):
        value = tool_input.get(key) if isinstance(tool_input, dict) else None
        if isinstance(value, str):
            return value
    return json.dumps(tool_input, sort_keys=True, ensure_ascii=True)


def yaml_quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar in printable ASCII: JSON's escapes, but a
    character beyond U+FFFF as ``\\U`` and eight hex digits (YAML reads no UTF-16 surrogate
    pair)."""
    def wide(pair: re.Match[str]) -> str:
        high, low = int(pair[1], 16) - 0xD800, int(pair[2], 16) - 0xDC00
        return f"\\U{0x10000 + (high << 10) + low:08x}"

    return _PAIR.sub(wide, json.dumps(text, ensure_ascii=True))


_PAIR = re.compile(r"\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})")


def _comment(text: str) -> str:
    """``text`` as printable ASCII on one line: anything else as an escape."""
    out = []
    for ch in text:
        if " " <= ch <= "~":
            out.append(ch)
        elif ch in "\t\n\r":
            out.append({"\t": "\\t", "\n": "\\n", "\r": "\\r"}[ch])
        else:
            out.append(f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}")
    return "".join(out)
