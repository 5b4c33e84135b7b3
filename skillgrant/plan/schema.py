"""The JSON Schema (draft 2020-12) of a YAML or JSON plan file (semantics §7), ``skillgrant
schema``.

Written out rather than generated from the pydantic model, which cannot say that each key has
several spellings, that ``allowed-tools`` is a string or a list, and that ``x-`` keys are
ignored; the spellings and the tool-name pattern come from ``plan.keys`` and ``vocabulary``, as
the model's do. tests/test_cli.py checks that the schema and the loader agree on a table of
plans.
"""

from __future__ import annotations

from ..vocabulary import TOOL_NAME_PATTERN
from .keys import ALLOWED_SPELLINGS, BASE_DIRS, SPELLINGS


def plan_schema() -> dict[str, object]:
    """The schema as a JSON-ready mapping."""
    name = {"pattern": f"^{TOOL_NAME_PATTERN}$"}
    described: dict[str, object] = {
        "allowed_tools": {
            "description": "The approved entries: one string (entries separated by commas or "
                           "spaces) or a list of strings.",
            "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
        "shell_tools": {
            "description": "Tools with shell semantics under another name, judged with Bash: a "
                           "mapping of tool name to options, or a list of names.",
            "anyOf": [{"type": "object", "propertyNames": name,
                       "additionalProperties": {"anyOf": [{"$ref": "#/$defs/shellTool"},
                                                          {"type": "null"}]}},
                      {"type": "array", "items": {"type": "string", **name}}]},
        "base_dirs": {
            "description": "Absolute base directories for path rules with different anchors "
                           "(cwd-relative, ~/, /, //).",
            "anyOf": [{"type": "object", "additionalProperties": False,
                       "properties": dict.fromkeys(BASE_DIRS, _DIRECTORY)},
                      {"type": "null"}]},
        "runtime": {
            "description": "The runtimes the plan is judged for (every runtime that reads "
                           "allowed-tools when absent): a name, names separated by commas, or "
                           "a list of names.",
            "anyOf": [{"type": "string"},
                      {"type": "array", "items": {"type": "string"}, "minItems": 1}]},
    }
    properties: dict[str, object] = {"$schema": {"type": "string"}}
    for field, names in SPELLINGS.items():
        properties[names[0]] = described[field]
        for other in names[1:]:
            properties[other] = {"$ref": f"#/properties/{names[0]}"}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "skillgrant plan",
        "description": "The allowed-tools a person approved, for `skillgrant check/apply "
                       "--plan`. Keys starting with x- are ignored.",
        "type": "object",
        "properties": properties,
        "patternProperties": {"^x-": {}},
        "additionalProperties": False,
        "anyOf": [{"required": [spelling]} for spelling in ALLOWED_SPELLINGS],
        "$defs": {"shellTool": _SHELL_TOOL},
    }


_DIRECTORY = {"anyOf": [{"type": "string"}, {"type": "null"}],
              "description": "An absolute directory."}
_SHELL_TOOL = {"type": "object", "additionalProperties": False, "properties": {
    "command-argument": {"type": "string", "minLength": 1,
                         "description": "The argument that holds the command."},
    "command_argument": {"type": "string", "minLength": 1},
    "workdir-argument": {"type": "string", "minLength": 1,
                         "description": "The argument that holds the directory it runs in."},
    "workdir_argument": {"type": "string", "minLength": 1}}}
