"""The JSON Schemas (draft 2020-12) of issue 32's documents: ``suggest --format json``, ``replay
--format json``, ``audit verify --format json``, and one record of the audit log. They are
closed like the others (``reports/schemas.py`` lists them among every document's schema).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .jsondoc import JSON_VERSION

Schema = dict[str, Any]

_STRING: Final = {"type": "string"}
_COUNT: Final = {"type": "integer", "minimum": 0}
_LINK: Final = {"type": "string", "pattern": "^sha256:[0-9a-f]{64}$"}
_WHERE: Final = {"type": "string", "description": "The evidence file and 1-based line."}


def _closed(properties: dict[str, Any], *, optional: tuple[str, ...] = ()) -> Schema:
    return {"type": "object", "properties": properties,
            "required": [name for name in properties if name not in optional],
            "additionalProperties": False}


def _nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def _document(command: str, description: str, fields: dict[str, Any]) -> Schema:
    head = {"version": {"const": JSON_VERSION},
            "tool": _closed({"name": {"const": "skillgrant"}, "version": _STRING}),
            "command": {"const": command}}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": f"skillgrant {command} --format json", "description": description,
            **_closed({**head, **fields})}


def _call(**more: Any) -> Schema:
    return _closed({"where": _WHERE, "count": {"type": "integer", "minimum": 1},
                    "tool": _STRING, "input": {"type": "object"}, "cwd": _nullable(_STRING),
                    **more})


def suggest_schema() -> Schema:
    skipped = {"type": "array", "items": _closed({"where": _WHERE, "reason": _STRING})}
    return _document("suggest", "The suggested plan, each entry with the calls it covers, and "
                     "the calls not suggestible (docs/plans-from-evidence.md).", {
        "generalize": {"enum": ["exact", "command", "directory", "tool"]},
        "sources": {"type": "array", "items": _STRING},
        "calls": _COUNT, "distinct": _COUNT,
        "allowed_tools": {"type": "array", "items": _STRING},
        "entries": {"type": "array", "items": _closed({
            "entry": _STRING, "calls": _COUNT, "covers": {"type": "array", "items": _call()}})},
        "not_suggestible": {"type": "array", "items": _call(
            status=_STRING, reason=_STRING, why=_nullable(_STRING))},
        "skipped": skipped,
    })


def replay_schema() -> Schema:
    change = _call(before=_STRING, after=_STRING, reason=_STRING,
                   covered_by={"type": "array", "items": _STRING})
    return _document("replay", "Every logged call decided under the new plan: what is now "
                     "denied and now allowed (docs/plans-from-evidence.md).", {
        "plan": _STRING, "against": _nullable(_STRING), "calls": _COUNT, "distinct": _COUNT,
        "changed": {"type": "boolean"},
        "counts": _closed({"now_denied": _COUNT, "now_allowed": _COUNT, "unchanged": _COUNT,
                           "skipped": _COUNT}),
        "now_denied": {"type": "array", "items": change},
        "now_allowed": {"type": "array", "items": change},
        "skipped": {"type": "array", "items": _closed({"where": _WHERE, "reason": _STRING})},
    })


def audit_verify_schema() -> Schema:
    return _document("audit verify", "Each audit log's hash chain: whether it holds, the first "
                     "record where it breaks, the head to anchor (docs/plans-from-evidence.md).", {
        "logs": {"type": "array", "items": _closed({
            "path": _STRING, "valid": {"type": "boolean"}, "records": _COUNT,
            "cut_lines": {"type": "array", "items": {"type": "integer", "minimum": 1}},
            "head": _nullable(_LINK),
            "break": _nullable(_closed({"line": {"type": "integer", "minimum": 1},
                                        "reason": _STRING})),
            "anchor": _nullable(_closed({"link": _STRING,
                                         "line": _nullable({"type": "integer"})})),
        })},
    })


def audit_record_schema() -> Schema:
    text = _nullable(_STRING)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "skillgrant audit log record",
            "description": "One line of the audit log skillgrant hook and skillgrant serve "
                           "write (docs/plans-from-evidence.md): the decision, the call, and "
                           "the link to the record before it.",
            **_closed({
                "time": _STRING, "session_id": text, "runtime_tool": text, "tool": text,
                "decision": {"enum": ["deny", "ask", "allow", "none"]}, "status": _STRING,
                "reason": text, "covered_by": {"type": "array", "items": _STRING},
                "witness": text, "plan_digest": text, "dialect": text,
                "observed": {"type": "boolean"}, "input": _nullable({"type": "object"}),
                "input_cut": {"type": "array", "items": _STRING}, "cwd": text,
                "prev": _nullable(_LINK), "torn": {"type": "array", "items": _LINK},
            }, optional=("input_cut", "torn"))}


#: The schemas by the name ``skillgrant schema --report`` takes.
EVIDENCE_SCHEMAS: Final[dict[str, Callable[[], Schema]]] = {
    "suggest": suggest_schema,
    "replay": replay_schema,
    "audit-verify": audit_verify_schema,
    "audit-record": audit_record_schema,
}
