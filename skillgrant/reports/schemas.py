"""The JSON Schema (draft 2020-12) of every JSON document the command line writes: ``check`` and
``apply`` ``--format json``, ``explain --format json``, ``lint --format json``, ``diff --format
json``, and the answer ``skillgrant hook`` writes in each runtime's dialect.

The schemas are closed (``additionalProperties: false``) wherever the document is, and they say
what the fields mean together (a dropped entry is never kept; a rule goes with its status or
kind), so that a renderer drifting from docs/cli.md fails validation. They are built here,
not read from files: the wheel needs nothing but this module, and the shared parts (a verdict's
fields, the ``tool`` object) are written once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..rules import DIFF_RULES, LINT_RULES
from .evidence_schemas import EVIDENCE_SCHEMAS
from .jsondoc import JSON_VERSION

Schema = dict[str, Any]

DRAFT: Final = "https://json-schema.org/draft/2020-12/schema"

_STRING: Final = {"type": "string"}
_BOOLEAN: Final = {"type": "boolean"}
_COUNT: Final = {"type": "integer", "minimum": 0}
_STRINGS: Final = {"type": "array", "items": _STRING}
#: A 1-based line or column, or null where the document has none.
_POSITION: Final = {"type": ["integer", "null"], "minimum": 1}
_NULL: Final = {"type": "null"}

_STATUSES: Final = ("covered", "not_covered", "unknown", "invalid", "inert", "ambiguous")
#: The rule of each status that drops an entry (docs/cli.md, Rules).
_STATUS_RULE: Final = {"not_covered": "SG001", "unknown": "SG002", "invalid": "SG003",
                       "inert": "SG004", "ambiguous": "SG005"}
#: What a covered entry's decision may name: a spelling fixed (SG007) or a repeat (SG008).
_COVERED_RULES: Final = (None, "SG007", "SG008")
_KIND_RULE: Final = {"escalated": "SGD001", "inert": "SGD002", "narrowed": "SGD003",
                     "equivalent": None, "added-covered": None, "unchanged": None,
                     "removed": "SGD004"}


def _nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, _NULL]}


def _closed(properties: dict[str, Any], *, optional: tuple[str, ...] = ()) -> Schema:
    """An object with exactly these properties (all required but ``optional``)."""
    return {"type": "object", "properties": properties,
            "required": [name for name in properties if name not in optional],
            "additionalProperties": False}


def _head(command: str | None) -> dict[str, Any]:
    """The fields every document starts with."""
    head: dict[str, Any] = {
        "version": {"const": JSON_VERSION},
        "tool": _closed({"name": {"const": "skillgrant"}, "version": _STRING}),
    }
    if command is not None:
        head["command"] = {"const": command}
    return head


def _document(title: str, description: str, body: Schema, defs: Schema | None = None) -> Schema:
    schema: Schema = {"$schema": DRAFT, "title": title, "description": description}
    if defs:
        schema["$defs"] = defs
    return {**schema, **body}


def _when(field: str, value: object, then: Schema) -> Schema:
    return {"if": {"properties": {field: {"const": value}}, "required": [field]}, "then": then}


# --- a verdict: the fields every decision, explain and diff grant share -------------------

def _verdict_fields() -> dict[str, Any]:
    return {"entry": _STRING, "status": {"enum": list(_STATUSES)}, "covered": _BOOLEAN,
            "covered_by": _nullable(_STRING), "also_covered_by": _STRINGS,
            "witness": _nullable(_STRING), "reason": _STRING, "written": _nullable(_STRING)}


def _verdict_rules(covered_rules: tuple[str | None, ...]) -> list[Schema]:
    """A verdict's fields agree with its status, and its rule is the status's."""
    uncovered = {"properties": {"covered": {"const": False}, "covered_by": _NULL,
                                "written": _NULL, "also_covered_by": {"maxItems": 0}}}
    rules: list[Schema] = [{
        "if": {"properties": {"status": {"const": "covered"}}},
        "then": {"properties": {"covered": {"const": True},
                                "rule": {"enum": list(covered_rules)}}},
        "else": uncovered,
    }]
    rules += [_when("status", status, {"properties": {"rule": {"const": rule}}})
              for status, rule in _STATUS_RULE.items()]
    return rules


# --- check and apply ------------------------------------------------------------------------

def _decision() -> Schema:
    fields = {**_verdict_fields(), "kept": _BOOLEAN,
              "rule": {"enum": [*_COVERED_RULES, *_STATUS_RULE.values()]},
              "line": _POSITION, "column": _POSITION}
    # Kept: every covered entry but a repeat (SG008).
    kept = {"if": {"properties": {"status": {"const": "covered"},
                                  "rule": {"not": {"const": "SG008"}}}},
            "then": {"properties": {"kept": {"const": True}}},
            "else": {"properties": {"kept": {"const": False}}}}
    return {**_closed(fields), "allOf": [*_verdict_rules(_COVERED_RULES), kept]}


def _file(command: str) -> Schema:
    error = _closed({"message": _STRING, "line": _POSITION, "column": _POSITION})
    fields = {"path": _STRING, "artifact": _STRING, "changed": _BOOLEAN,
              "applied": {"const": False} if command == "check" else _BOOLEAN,
              "restored": _BOOLEAN, "line": _POSITION,
              "allowed": _nullable(_STRINGS),
              "decisions": {"type": "array", "items": {"$ref": "#/$defs/decision"}},
              "error": _nullable(error), "runtime_note": _nullable(_STRING),
              "disallowed_tools": _nullable(_STRINGS)}
    # ``text``: the file's new text, for a SKILL.md read from standard input (``check -``).
    fields["text"] = _STRING
    if command == "apply":
        fields["diff"] = _STRING
    # A file with an input error was left untouched and has no decisions.
    failed = {"properties": {"changed": {"const": False}, "applied": {"const": False},
                             "restored": {"const": False}, "line": _NULL, "allowed": _NULL,
                             "decisions": {"maxItems": 0}, "runtime_note": _NULL,
                             "disallowed_tools": _NULL}}
    return {**_closed(fields, optional=("diff", "text")),
            "if": {"properties": {"error": _NULL}},
            "then": {"properties": {"allowed": _STRINGS, "disallowed_tools": _STRINGS}},
            "else": failed}


def _run(command: str) -> Schema:
    body = _closed({
        **_head(command),
        "dry_run": {"const": False} if command == "check" else _BOOLEAN,
        "plan": _nullable(_STRING),
        "files": {"type": "array", "items": {"$ref": "#/$defs/file"}},
        "summary": _closed({"files": _COUNT, "changed": _COUNT, "applied": _COUNT,
                            "errors": _COUNT}),
    })
    if command == "apply":
        # --dry-run gives every file its diff; without it no file has one.
        with_diff = {"properties": {"files": {"items": {"required": ["diff"]}}}}
        without = {"properties": {"files": {"items": {"not": {"required": ["diff"]}}}}}
        body = {**body, **_when("dry_run", True, with_diff), "else": without}
    verb = "reports" if command == "check" else "makes"
    return _document(f"skillgrant {command} --format json",
                     f"Every decision `{command}` {verb} on each SKILL.md (docs/cli.md).", body,
                     {"file": _file(command), "decision": _decision()})


# --- explain, lint, diff ------------------------------------------------------------------

def _explain() -> Schema:
    fields = {**_head(None), **_verdict_fields(),
              "rule": {"enum": [None, *_STATUS_RULE.values()]}, "approved": _STRINGS,
              "runtime": _STRINGS}
    return _document("skillgrant explain --format json",
                     "One decision with its evidence, the approved entries it was judged "
                     "against, and the runtimes it was judged for (runtime profiles).",
                     {**_closed(fields), "allOf": _verdict_rules((None,))})


def _source() -> Schema:
    return _closed({"source": _STRING, "artifact": _STRING, "entries": _STRINGS})


def _lint_finding() -> Schema:
    fields = {"rule": {"enum": [r.id for r in LINT_RULES]},
              "name": {"enum": sorted({r.name for r in LINT_RULES})},
              "severity": {"enum": ["error", "warning", "info"]},
              "category": {"enum": ["invalid", "over-broad", "inert", "non-canonical"]},
              "entry": _STRING, "index": {"type": ["integer", "null"], "minimum": 0},
              "message": _STRING, "hint": _STRING, "example": _nullable(_STRING),
              "replacement": _nullable(_STRING), "line": _POSITION, "column": _POSITION}
    # Each rule has one name, severity and category; a finding about the whole list has no
    # entry and no index.
    rules = [{"properties": {"rule": {"const": r.id}, "name": {"const": r.name},
                             "severity": {"const": r.severity},
                             "category": {"const": r.category}}} for r in LINT_RULES]
    whole = {"if": {"properties": {"index": _NULL}},
             "then": {"properties": {"entry": {"const": ""}}},
             "else": {"properties": {"entry": {"minLength": 1}}}}
    return {**_closed(fields), "oneOf": rules, "allOf": [whole]}


def _lint() -> Schema:
    body = _closed({
        **_head("lint"), **_source()["properties"],
        "findings": {"type": "array", "items": {"$ref": "#/$defs/finding"}},
        "summary": _closed({"entries": _COUNT, "findings": _COUNT, "error": _COUNT,
                            "warning": _COUNT, "info": _COUNT}),
    })
    # Several plans (``lint A B``): an array of the documents, one per plan, in order.
    return _document("skillgrant lint --format json",
                     "A plan's entries and every finding about them (docs/lint-rules.md); "
                     "for several plans, an array of these documents.",
                     {"oneOf": [{"$ref": "#/$defs/plan"},
                                {"type": "array", "minItems": 2,
                                 "items": {"$ref": "#/$defs/plan"}}]},
                     {"finding": _lint_finding(), "plan": body})


def _grant() -> Schema:
    fields = {"kind": {"enum": list(_KIND_RULE)}, "escalates": _BOOLEAN, "entry": _STRING,
              "side": {"enum": ["new", "old"]}, "index": _COUNT, "old": _nullable(_STRING),
              "status": {"enum": list(_STATUSES)}, "witness": _nullable(_STRING),
              "reason": _STRING, "covered_by": _nullable(_STRING),
              "also_covered_by": _STRINGS,
              "rule": {"enum": [None, *(r.id for r in DIFF_RULES)]},
              "line": _POSITION, "column": _POSITION}
    rules = [_when("kind", kind, {"properties": {
        "rule": {"const": rule}, "escalates": {"const": kind == "escalated"},
        "side": {"const": "old" if kind == "removed" else "new"}}})
        for kind, rule in _KIND_RULE.items()]
    return {**_closed(fields), "allOf": rules}


def _diff() -> Schema:
    body = _closed({
        **_head("diff"), "old": {"$ref": "#/$defs/source"}, "new": {"$ref": "#/$defs/source"},
        "escalates": _BOOLEAN,
        "grants": {"type": "array", "items": {"$ref": "#/$defs/grant"}},
        "summary": _closed({kind: _COUNT for kind in _KIND_RULE}),
    })
    return _document("skillgrant diff --format json",
                     "Every grant of NEW judged against OLD, then the grants NEW removes.",
                     body, {"source": _source(), "grant": _grant()})


# --- the hook's answers ---------------------------------------------------------------------

#: Every decision a hook answer can carry. ``skillgrant hook`` writes nothing for a call inside
#: the plan unless ``--inside allow``; Codex honours neither a plain allow nor ask, so its
#: answer is always a denial.
_DECISIONS: Final = ("deny", "ask", "allow")


def _hook(dialect: str) -> Schema:
    decision = {"const": "deny"} if dialect == "codex" else {"enum": list(_DECISIONS)}
    reason = {"type": "string", "minLength": 1}
    if dialect == "gemini-cli":
        body = _closed({"decision": decision, "reason": reason})
    elif dialect == "copilot-cli":
        body = _closed({"permissionDecision": decision, "permissionDecisionReason": reason})
    else:
        body = _closed({"hookSpecificOutput": _closed({
            "hookEventName": {"const": "PreToolUse"}, "permissionDecision": decision,
            "permissionDecisionReason": reason})})
    return _document(f"skillgrant hook --dialect {dialect}",
                     f"The decision `skillgrant hook` writes on standard output for {dialect} "
                     "(docs/call-gate.md).", body)


def _hook_builder(dialect: str) -> Callable[[], Schema]:
    return lambda: _hook(dialect)


_BUILDERS: Final[dict[str, Callable[[], Schema]]] = {
    "check": lambda: _run("check"),
    "apply": lambda: _run("apply"),
    "explain": _explain,
    "lint": _lint,
    "diff": _diff,
    **{f"hook-{dialect}": _hook_builder(dialect)
       for dialect in ("claude-code", "copilot-cli", "codex", "vscode", "gemini-cli")},
    **EVIDENCE_SCHEMAS,  # suggest, replay, audit verify, an audit record (issue 32)
}

#: The name of every document's schema, as ``report_schema`` takes it.
REPORT_SCHEMAS: Final[tuple[str, ...]] = tuple(_BUILDERS)


def report_schema(name: str) -> Schema:
    """The JSON Schema (draft 2020-12) of the document ``name`` (one of ``REPORT_SCHEMAS``), a
    new dict each call. Raises ValueError for another name.

    >>> report_schema("hook-gemini-cli")["required"]
    ['decision', 'reason']
    """
    builder = _BUILDERS.get(name)
    if builder is None:
        raise ValueError(f"no report schema named {name!r}; the names are "
                         f"{', '.join(REPORT_SCHEMAS)}")
    return builder()
