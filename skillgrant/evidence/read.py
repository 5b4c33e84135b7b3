"""Evidence of tool calls, read into one kind of value: skillgrant's audit log, Claude Code's
session transcripts and Copilot CLI's ``events.jsonl``.

Each file is JSON Lines; its kind is told by its first line that is a JSON object:

- **the audit log** (``skillgrant hook``/``serve --audit-log``): a record with ``decision``,
  ``status`` and ``runtime_tool``. The call is its ``input`` and ``cwd`` (records written before
  those fields were added hold no call and are skipped);
- **a Claude Code transcript** (``~/.claude/projects/<project>/<session>.jsonl``, as the pinned
  runtime writes it): each ``assistant`` line's ``message.content`` ``tool_use`` blocks
  (``name``, ``input``), with the line's ``cwd``;
- **Copilot CLI's** ``events.jsonl`` (``~/.copilot/session-state/<session>/``, from its
  documented envelope ``{type, id, timestamp, parentId, data}``): each
  ``tool.execution_start`` event's ``data.toolName`` and ``data.arguments``, in the working
  directory of the last ``session.start``/``session.resume`` ``data.context.cwd``.

A line that is not JSON (a record cut short by a kill, a line being written) is skipped and
counted, never guessed at. A file that is none of these kinds is an ``EvidenceError``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..errors import SkillgrantError

Kind = Literal["audit-log", "claude-code", "copilot-cli"]


class EvidenceError(SkillgrantError, ValueError):
    """An evidence file cannot be read, or is not a kind skillgrant reads."""


@dataclass(frozen=True, slots=True)
class Observed:
    """One tool call found in the evidence: where (``source`` file and 1-based ``line``), the
    runtime's tool name, its input and working directory, and, for an audit record, the status
    the gate logged for it (``logged``)."""

    source: str
    line: int
    tool: str
    tool_input: Mapping[str, object]
    cwd: str | None
    logged: str | None = None

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"

    def key(self) -> str:
        """The call itself, without where it was seen: equal for the same call (the same tool,
        input and working directory)."""
        return json.dumps([self.tool, self.tool_input, self.cwd], sort_keys=True,
                          ensure_ascii=True)


@dataclass(frozen=True, slots=True)
class Skipped:
    """A line of evidence that holds no call skillgrant can judge, and why."""

    source: str
    line: int
    reason: str

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"


@dataclass
class Evidence:
    """Every call read from the files, in file and line order, and the lines skipped."""

    calls: list[Observed] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    kinds: dict[str, Kind] = field(default_factory=dict)


def read_evidence(paths: Sequence[str]) -> Evidence:
    """The calls in the evidence files ``paths``. Raises EvidenceError naming the file for one
    that cannot be opened or is not a kind skillgrant reads.

    >>> read_evidence([]).calls
    []
    """
    evidence = Evidence()
    for path in paths:
        try:
            with open(path, "rb") as stream:
                kind = _read_file(path, stream, evidence)
        except OSError as e:
            raise EvidenceError(f"{path}: cannot be read: {e.strerror or e}") from None
        evidence.kinds[path] = kind
    return evidence


def _read_file(path: str, stream: Iterator[bytes], evidence: Evidence) -> Kind:
    kind: Kind | None = None
    cwd: list[str | None] = [None]  # Copilot CLI's working directory, from its session events
    unknown = 0  # the first line, before the kind is known, that does not say it
    for number, raw in enumerate(stream, start=1):
        if not raw.strip():
            continue
        try:  # strict UTF-8 first: json.loads would pass raw surrogates (ED A0 80) through
            value = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError):
            evidence.skipped.append(Skipped(path, number, "the line is not JSON (a record cut "
                                            "short, or a line being written)"))
            continue
        if not isinstance(value, dict):
            evidence.skipped.append(Skipped(path, number, "the line is not a JSON object"))
            continue
        if kind is None:
            kind = _kind(value)
            if kind is None:  # a transcript may lead with metadata records: look further
                unknown = unknown or number
                continue
        if (b"\\ud" in raw or b"\\uD" in raw) and not _text(value):
            evidence.skipped.append(Skipped(path, number, "the line holds a lone surrogate "
                                            "(\\udXXX), which no plan or report can hold"))
            continue
        _take(kind, path, number, value, cwd, evidence)
    if kind is None and unknown:
        raise EvidenceError(f"{path}:{unknown}: not an audit log, a Claude Code transcript or "
                            "a Copilot CLI events.jsonl (no line says which)")
    if kind is None:
        raise EvidenceError(f"{path}: holds no JSON object (an empty file is no evidence)")
    return kind


def _text(value: object) -> bool:
    """Whether ``value`` is text UTF-8 can hold (JSON escapes may spell lone surrogates)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _take(kind: Kind, path: str, number: int, value: Mapping[str, object],
          cwd: list[str | None], evidence: Evidence) -> None:
    """The calls of one line of a file of ``kind`` into ``evidence``."""
    if kind == "audit-log":
        found = _audit_call(path, number, value)
        if isinstance(found, Skipped):
            evidence.skipped.append(found)
        else:
            evidence.calls.append(found)
    elif kind == "claude-code":
        evidence.calls.extend(_claude_calls(path, number, value))
    else:
        evidence.calls.extend(_copilot_calls(path, number, value, cwd))


def _kind(value: Mapping[str, object]) -> Kind | None:
    if {"decision", "status", "runtime_tool"} <= value.keys():
        return "audit-log"
    kind = value.get("type")
    if not isinstance(kind, str):
        return None
    if "data" in value and "." in kind:
        return "copilot-cli"
    if "sessionId" in value or "uuid" in value or kind in ("user", "assistant", "summary"):
        return "claude-code"
    return None


def _audit_call(path: str, number: int, record: Mapping[str, object]) -> Observed | Skipped:
    tool, tool_input, cwd = record.get("runtime_tool"), record.get("input"), record.get("cwd")
    if not isinstance(tool, str) or not isinstance(tool_input, dict):
        return Skipped(path, number, "the record holds no call (a failure before the call was "
                       "read, or a record written before records carried their input)")
    cut = record.get("input_cut")
    if cut and _judged_on(tool, cut):
        return Skipped(path, number, f"the record's input was cut ({_names(cut)} over the "
                       "size kept), so the call cannot be judged as it was made")
    status = record.get("status")
    return Observed(path, number, tool, tool_input, cwd if isinstance(cwd, str) else None,
                    status if isinstance(status, str) else None)


def _judged_on(tool: str, cut: object) -> bool:
    """Whether the gate reads any of the arguments ``cut`` names for a call of ``tool`` (a
    Write's ``content`` it does not read: the call is judged the same without it)."""
    from ..gate.tools import translate

    spec = translate(tool, {})
    if spec is None or spec.domain == "tool":
        return False  # judged by its name alone
    if not isinstance(cut, list):
        return True
    read = {*spec.subject, *spec.directory, "pattern", "glob", "include", "include_pattern",
            "url", "urls", "prompt"}
    return bool(read & {str(c) for c in cut})


def _names(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value[:8])
    return "arguments"


def _claude_calls(path: str, number: int, line: Mapping[str, object]) -> Iterator[Observed]:
    if line.get("type") != "assistant":
        return
    message = line.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return
    cwd = line.get("cwd")
    for block in content:
        if not isinstance(block, dict) or block.get("type") != "tool_use":
            continue
        name, tool_input = block.get("name"), block.get("input")
        if isinstance(name, str) and isinstance(tool_input, dict):
            yield Observed(path, number, name, tool_input, cwd if isinstance(cwd, str) else None)


def _copilot_calls(path: str, number: int, event: Mapping[str, object],
                   cwd: list[str | None]) -> Iterator[Observed]:
    data = event.get("data")
    if not isinstance(data, dict):
        return
    kind = event.get("type")
    if kind in ("session.start", "session.resume"):
        context = data.get("context")
        found = context.get("cwd") if isinstance(context, dict) else None
        cwd[0] = found if isinstance(found, str) else None
        return
    if kind != "tool.execution_start":
        return
    name, arguments = data.get("toolName"), data.get("arguments")
    if isinstance(arguments, str):  # some versions give the arguments as JSON text
        try:
            arguments = json.loads(arguments)
        except ValueError:
            arguments = None
    if isinstance(name, str) and isinstance(arguments, dict):
        yield Observed(path, number, name, arguments, cwd[0])
