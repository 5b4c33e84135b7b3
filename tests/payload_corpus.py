"""The hostile hook payloads of ``tests/badinput/payloads.toml`` (its header names the keys),
and the ones built next to the limits they test, as cases: what ``skillgrant hook``
(tests/gate/test_hook_payloads.py) and ``skillgrant serve`` (tests/service/) must deny.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skillgrant.limits import MAX_HOOK_PAYLOAD_BYTES, MAX_PAYLOAD_DEPTH

CORPUS = Path(__file__).resolve().parent / "badinput" / "payloads.toml"
DIALECTS = ("claude-code", "copilot-cli", "codex", "vscode", "gemini-cli")
PLAN = ["Bash(git status)", "Bash(echo *)", "Read(//srv/project/**)",
        "WebFetch(domain:example.com)"]
INSIDE = {"session_id": "s", "cwd": "/srv/project", "hook_event_name": "PreToolUse",
          "tool_name": "Bash", "tool_input": {"command": "git status"}}
INPUTS = ("input", "count")
KEYS = {"id", "why", "fragment", "input", "hex_escapes", "prefix", "unit", "middle", "close",
         "count", "suffix", "args", "plan", "shape"}


@dataclass(frozen=True)
class Case:
    id: str
    data: bytes
    fragment: str
    shape: str = "claude-code"
    args: tuple[str, ...] = ()
    plan: str = "plan"


def payload_bytes(table: dict[str, Any]) -> bytes:
    if "count" in table:
        n = table["count"]
        text: str = (table.get("prefix", "") + table["unit"] * n + table.get("middle", "")
                + table.get("close", "") * n + table.get("suffix", ""))
        return text.encode("utf-8")
    data: bytes = table["input"].encode("utf-8")
    if table.get("hex_escapes"):
        data = re.sub(rb"\\x([0-9a-fA-F]{2})", lambda m: bytes([int(m[1], 16)]), data)
    return data


def corpus() -> tuple[list[dict[str, Any]], list[Case]]:
    tables: list[dict[str, Any]] = tomllib.loads(CORPUS.read_text(encoding="utf-8"))["payload"]
    cases = [Case(t["id"], payload_bytes(t), t["fragment"], t.get("shape", "claude-code"),
                  tuple(t.get("args", ())), t.get("plan", "plan")) for t in tables]
    return tables, cases


def nested(depth: int) -> bytes:
    """A call inside the plan whose tool_input holds lists nested to ``depth`` in all (the
    payload object is level 1, tool_input 2)."""
    lists = depth - 2
    body = json.dumps(INSIDE)[:-2] + ', "x": ' + "[" * lists + "]" * lists + "}}"
    return body.encode()


def padded(size: int) -> bytes:
    """A call inside the plan, padded with spaces to ``size`` bytes."""
    data = json.dumps(INSIDE).encode()
    return data + b" " * (size - len(data))


def generated() -> list[Case]:
    over = MAX_HOOK_PAYLOAD_BYTES + 1
    call = json.dumps(INSIDE)[:-2]
    cases = [
        Case("over-limit-by-one-byte", padded(over), "MAX_HOOK_PAYLOAD_BYTES"),
        Case("over-limit-in-a-string", (call + ', "pad": "' + "a" * over + '"}}').encode(),
             "MAX_HOOK_PAYLOAD_BYTES"),
        Case("over-limit-whitespace-first", b" " * over + json.dumps(INSIDE).encode(),
             "MAX_HOOK_PAYLOAD_BYTES"),
        Case("over-limit-brackets", b"[" * (2 * MAX_HOOK_PAYLOAD_BYTES), "MAX_HOOK_PAYLOAD_BYTES"),
        Case("one-level-past-max-depth", nested(MAX_PAYLOAD_DEPTH + 1), "MAX_PAYLOAD_DEPTH"),
    ]
    failures = {"empty": b"", "not-json": b"{", "array": b"[]", "tool-name-number":
                b'{"tool_name": 5}', "invalid-utf8": b'{"tool_name": "\xff"}'}
    for dialect in DIALECTS:
        for name, data in failures.items():
            cases.append(Case(f"{dialect}:{name}", data, "failed closed", dialect,
                              ("--dialect", dialect)))
        cases.append(Case(f"{dialect}:plan-absent", json.dumps(INSIDE).encode(), "is not usable",
                          dialect, ("--dialect", dialect), "absent"))
    return cases


TABLES, CORPUS_CASES = corpus()
CASES = CORPUS_CASES + generated()


def denial_reason(shape: str, document: dict[str, Any]) -> str:
    """The deny reason of a document exactly in ``shape``."""
    said, why = ("decision", "reason") if shape == "gemini-cli" else (
        "permissionDecision", "permissionDecisionReason")
    if shape not in ("gemini-cli", "copilot-cli"):
        assert set(document) == {"hookSpecificOutput"}, document
        document = document["hookSpecificOutput"]
        assert document.pop("hookEventName", None) == "PreToolUse", document
    assert set(document) == {said, why}, document
    assert document[said] == "deny", document
    reason: str = document[why]
    return reason


