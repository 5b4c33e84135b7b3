"""``--format json`` (documented in docs/cli.md): what every command's document starts with, and
the documents of ``check``/``apply`` and ``explain``.

A run's document is written a file at a time (``JsonDocument``): each file's object becomes
text as soon as the file is done (``file_fragment``, also inside a ``--jobs`` worker), so a
batch keeps a few kilobytes of text per file rather than its decisions, and the text is the
same as ``json.dumps`` of the whole document would give.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from json.encoder import encode_basestring as _string
from typing import TYPE_CHECKING, Any, Final

from ..rules import rule_for, status_rule
from . import escape
from .escape import dumps, encode, safe_json, scalar, strings
from .spool import MAX_SPOOLED_CHARS, Spool

if TYPE_CHECKING:
    from ..review.sources import Source
    from ..verdicts import Verdict
    from .ci import Location
    from .results import FileResult, Run

#: Version of every command's JSON document shape; bumped only on breaking changes.
JSON_VERSION: Final = 1


def tool_json(version: str) -> dict[str, str]:
    """The ``tool`` object of every document."""
    return {"name": "skillgrant", "version": version}


def source_json(source: Source) -> dict[str, Any]:
    """A plan as ``lint`` and ``diff`` read it: its name, artifact path and entries."""
    return {"source": source.name, "artifact": source.artifact, "entries": list(source.entries)}


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    """One verdict as a JSON object: the fields every decision and ``explain`` share."""
    return {
        "entry": verdict.entry,
        "status": verdict.status,
        "covered": verdict.covered,
        "covered_by": verdict.covered_by,
        "also_covered_by": list(verdict.also_covered_by),
        "witness": verdict.witness,
        "reason": verdict.reason,
        "written": verdict.written,
    }


def _decision_json(verdict: Verdict, location: Location | None) -> dict[str, Any]:
    rule = rule_for(verdict)
    return {
        **verdict_json(verdict),
        "kept": verdict.covered and not verdict.duplicate,
        "rule": None if rule is None else rule.id,
        "line": None if location is None else location.line,
        "column": None if location is None else location.column,
    }


def file_json(result: FileResult, dry_run: bool) -> dict[str, Any]:
    """One file's object of a run's document."""
    decision = result.decision
    item: dict[str, Any] = {
        "path": result.path,
        "artifact": result.artifact,
        "changed": result.changed,
        "applied": result.applied,
        "restored": decision.restored if decision is not None else False,
        "line": None if result.location is None else result.location.line,
        "allowed": list(decision.allowed) if decision is not None else None,
        "decisions": [] if decision is None else [
            _decision_json(v, result.where(i))
            for i, v in enumerate(decision.verdicts)],
        "error": None if result.error is None else {
            "message": result.error.message, "line": result.error.line,
            "column": result.error.column},
        "runtime_note": result.runtime_note,
        "disallowed_tools": list(result.removed) if decision is not None else None,
    }
    if dry_run:
        item["diff"] = result.diff or ""
    if result.text is not None:
        item["text"] = result.text
    return item


def file_fragment(result: FileResult, *, dry_run: bool) -> str:
    """One file's object of the run's document, as text indented to stand in its place (a
    batch writes one per file): ``encode(file_json(result, dry_run), 2)``.

    A decided file's object, whose members are all strings, booleans, integers and null but
    its lists of strings and its decisions, is laid out here at once (``_laid_out``): each
    member's text after its key's, which is made once. Anything else (an error, a value of
    another type) is left to ``encode``. tests/test_fast_equivalence.py compares the two with
    ``json.dumps`` on every golden case and on generated results."""
    try:
        return _laid_out(result, dry_run)
    except (escape.NotLaidOut, TypeError):
        return encode(file_json(result, dry_run), _FILE_LEVEL)


def _laid_out(result: FileResult, dry_run: bool) -> str:
    decision = result.decision
    if decision is None or result.error is not None:
        raise escape.NotLaidOut
    location = result.location
    where = result.where
    changed, applied, restored = result.changed, result.applied, decision.restored
    values = [_string(result.path), _string(result.artifact),
              "true" if changed is True else "false" if changed is False else scalar(changed),
              "true" if applied is True else "false" if applied is False else scalar(applied),
              "true" if restored is True else "false" if restored is False else scalar(restored),
              "null" if location is None else scalar(location.line),
              strings(decision.allowed, _FILE_LEVEL + 1),
              ("[" + ",".join(_ITEM_AT + _decision_text(verdict, where(i))
                              for i, verdict in enumerate(decision.verdicts)) + _LIST_END
               if decision.verdicts else "[]"),
              "null", "null" if result.runtime_note is None else _string(result.runtime_note),
              strings(result.removed, _FILE_LEVEL + 1)]
    if dry_run:
        values.append(scalar(result.diff or ""))
    if result.text is not None:
        values.append(scalar(result.text))
    return _FILE_TEMPLATES[dry_run, result.text is not None] % tuple(values)


def _decision_text(verdict: Verdict, location: Location | None) -> str:
    """``encode(_decision_json(verdict, location), 4)``: a decisions list's item.

    The strings go straight to the C string encoder (a str subclass is written as its text,
    as ``encode`` writes it; anything but a string raises TypeError, and the caller then
    leaves the file to ``encode``): a batch writes four or so of these a file, and a call of
    ``scalar`` for each member cost more than the rest of the item."""
    entry, status, reason, covered_by, witness, written, also, duplicate = verdict
    rule = rule_for(verdict)
    covered = status == "covered"
    line, column = (None, None) if location is None else (location.line, location.column)
    values = (_string(entry), _string(status), "true" if covered else "false",
              "null" if covered_by is None else _string(covered_by),
              strings(also, _FILE_LEVEL + 3) if also else "[]",
              "null" if witness is None else _string(witness), _string(reason),
              "null" if written is None else _string(written),
              "true" if covered and not duplicate else "false",
              "null" if rule is None else _string(rule.id),
              int.__repr__(line) if type(line) is int else scalar(line),
              int.__repr__(column) if type(column) is int else scalar(column))
    return _DECISION_TEMPLATE % values


# Where a file's object stands in the run's document, and so its members, the decisions
# list's items and the ends of both (json.dumps' indent=2 layout).
_FILE_LEVEL: Final = 2
_ITEM_AT: Final = "\n" + "  " * (_FILE_LEVEL + 2)
_LIST_END: Final = "\n" + "  " * (_FILE_LEVEL + 1) + "]"
_OBJECT_END: Final = "\n" + "  " * _FILE_LEVEL + "}"
_DECISION_END: Final = "\n" + "  " * (_FILE_LEVEL + 2) + "}"
# Each object's text with a %s for each member's value: file_json's keys and _decision_json's,
# in their order (a file's object with and without ``diff`` and ``text``).
_FILE_KEYS: Final = ("path", "artifact", "changed", "applied", "restored", "line", "allowed",
                     "decisions", "error", "runtime_note", "disallowed_tools")
_FILE_TEMPLATES: Final = {
    (dry_run, text): escape.object_template(
        _FILE_KEYS + ("diff",) * dry_run + ("text",) * text, _FILE_LEVEL) + _OBJECT_END
    for dry_run in (False, True) for text in (False, True)}
_DECISION_TEMPLATE: Final = escape.object_template(
    ("entry", "status", "covered", "covered_by", "also_covered_by", "witness", "reason",
     "written", "kept", "rule", "line", "column"), _FILE_LEVEL + 2) + _DECISION_END


def render_json(run: Run, *, version: str) -> str:
    """The machine interface: every file, every decision (documented in docs/cli.md)."""
    document = JsonDocument(run, version=version)
    for result in run.files:
        document.add(result)
    return document.text()


class JsonDocument:
    """``render_json``'s text, built a file at a time (``run.files`` is not read).

    The files' text is kept in a ``Spool`` (in memory up to MAX_SPOOLED_CHARS, then in an
    anonymous temporary file), so a registry-scale batch holds neither its decisions nor its
    whole output in memory. Nothing is written out before ``chunks`` is read, as before.
    """

    def __init__(self, run: Run, *, version: str) -> None:
        self.run = run
        self.version = version
        self._files = Spool(safe_json, MAX_SPOOLED_CHARS)
        self.summary = {"files": 0, "changed": 0, "applied": 0, "errors": 0}

    def add(self, result: FileResult) -> None:
        self.add_fragment(file_fragment(result, dry_run=self.run.dry_run),
                          changed=result.changed, applied=result.applied,
                          error=result.error is not None)

    def add_fragment(self, fragment: str, *, changed: bool, applied: bool, error: bool) -> None:
        """A file's ``file_fragment`` (made here or in a worker) and what the summary counts."""
        self._files.add(("," if self.summary["files"] else "[") + "\n    " + fragment)
        self.summary["files"] += 1
        self.summary["changed"] += changed
        self.summary["applied"] += applied
        self.summary["errors"] += error

    def chunks(self) -> Iterable[str]:
        """The document's text in pieces (the same as ``dumps`` of the whole document)."""
        run = self.run
        head = {"version": JSON_VERSION, "tool": tool_json(self.version),
                "command": run.command, "dry_run": run.dry_run, "plan": run.plan}
        yield safe_json("{" + ",".join(f"\n  {encode(k)}: {encode(v, 1)}"
                                       for k, v in head.items()) + ',\n  "files": ')
        if not self.summary["files"]:
            yield "[]"
        else:
            yield from self._files.chunks()
            yield "\n  ]"
        yield safe_json(f',\n  "summary": {encode(self.summary, 1)}\n}}') + "\n"

    def text(self) -> str:
        return "".join(self.chunks())


def render_explain_json(verdict: Verdict, approved: Sequence[str], *, version: str,
                        runtimes: Sequence[str] = ("claude-code",)) -> str:
    """``explain --format json``: the decision object plus the approved entries and the
    runtimes it was judged for."""
    rule = status_rule(verdict.status)
    document = {"version": JSON_VERSION, "tool": tool_json(version),
                **verdict_json(verdict), "rule": None if rule is None else rule.id,
                "approved": list(approved), "runtime": list(runtimes)}
    return dumps(document)
