"""``--format json`` for ``check``/``apply`` and ``explain`` (documented in docs/cli.md).

A run's document is written a file at a time (``JsonDocument``): each file's object becomes
text as soon as the file is done (``file_fragment``, also inside a ``--jobs`` worker), so a
batch keeps a few kilobytes of text per file rather than its decisions, and the text is the
same as ``json.dumps`` of the whole document would give.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from json.encoder import encode_basestring as _string
from typing import IO, TYPE_CHECKING, Any, Final

from ..rules import RULE_BY_ID, STATUS_RULE, rule_for
from .escape import dumps, encode, safe_json

if TYPE_CHECKING:
    from ..verdicts import Decision, Verdict
    from .check import FileResult, Run
    from .ci import Location

#: Version of the JSON document shape (``--format json``); bumped only on breaking changes.
JSON_VERSION: Final = 1


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


def _decision_json(verdict: Verdict, decision: Decision,
                   location: Location | None) -> dict[str, Any]:
    rule = rule_for(verdict, decision)
    return {
        **verdict_json(verdict),
        "kept": verdict.covered and not verdict.duplicate,
        "rule": None if rule is None else rule.id,
        "line": None if location is None else location.line,
        "column": None if location is None else location.column,
    }


def _file_json(result: FileResult, dry_run: bool) -> dict[str, Any]:
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
            _decision_json(v, decision, result.where(i))
            for i, v in enumerate(decision.verdicts)],
        "error": None if result.error is None else {
            "message": result.error.message, "line": result.error.line,
            "column": result.error.column},
        "runtime_note": result.runtime_note,
    }
    if dry_run:
        item["diff"] = result.diff or ""
    return item


def file_fragment(result: FileResult, *, dry_run: bool) -> str:
    """One file's object of the run's document, as text indented to stand in its place.

    Written straight from the result (a batch writes one per file); the same text as
    ``encode(_file_json(result, dry_run), 2)``, which writes any value of another type than
    this layout expects (tests/test_fast_equivalence.py compares the two).
    """
    try:
        return _file_text(result, dry_run)
    except TypeError:
        return encode(_file_json(result, dry_run), 2)


def _scalar(value: object) -> str:
    """A JSON string, integer, boolean or null; TypeError for anything else (even a subclass
    of int: ``encode`` writes those as ``json`` does)."""
    kind = type(value)
    if kind is str:
        return _string(value)  # type: ignore[arg-type]
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return int.__repr__(value)
    if isinstance(value, str):  # a StrEnum status: json writes its text
        return _string(value)
    raise TypeError(kind.__name__)


def _strings(items: Sequence[object], indent: str) -> str:
    if not items:
        return "[]"
    inner = ",\n" + indent + "  "
    return "[\n" + indent + "  " + inner.join(map(_scalar, items)) + "\n" + indent + "]"


_I6, _I8, _I10 = " " * 6, " " * 8, " " * 10


def _file_text(result: FileResult, dry_run: bool) -> str:
    decision = result.decision
    location = result.location
    parts = [
        f"{{\n{_I6}\"path\": {_scalar(result.path)}",
        f"\"artifact\": {_scalar(result.artifact)}",
        f"\"changed\": {_scalar(result.changed)}",
        f"\"applied\": {_scalar(result.applied)}",
        f"\"restored\": {_scalar(decision.restored if decision is not None else False)}",
        f"\"line\": {_scalar(None if location is None else location.line)}",
        f"\"allowed\": "
        f"{'null' if decision is None else _strings(list(decision.allowed), _I6)}",
    ]
    decisions = []
    if decision is not None:
        for index, verdict in enumerate(decision.verdicts):
            rule = rule_for(verdict, decision)
            where = result.where(index)
            decisions.append(
                f"{{\n{_I10}\"entry\": {_scalar(verdict.entry)},\n"
                f"{_I10}\"status\": {_scalar(verdict.status)},\n"
                f"{_I10}\"covered\": {_scalar(verdict.covered)},\n"
                f"{_I10}\"covered_by\": {_scalar(verdict.covered_by)},\n"
                f"{_I10}\"also_covered_by\": {_strings(list(verdict.also_covered_by), _I10)},\n"
                f"{_I10}\"witness\": {_scalar(verdict.witness)},\n"
                f"{_I10}\"reason\": {_scalar(verdict.reason)},\n"
                f"{_I10}\"written\": {_scalar(verdict.written)},\n"
                f"{_I10}\"kept\": {_scalar(verdict.covered and not verdict.duplicate)},\n"
                f"{_I10}\"rule\": {_scalar(None if rule is None else rule.id)},\n"
                f"{_I10}\"line\": {_scalar(None if where is None else where.line)},\n"
                f"{_I10}\"column\": {_scalar(None if where is None else where.column)}\n"
                f"{_I8}}}")
    parts.append(f"\"decisions\": [\n{_I8}" + f",\n{_I8}".join(decisions) + f"\n{_I6}]"
                 if decisions else "\"decisions\": []")
    error = result.error
    parts.append("\"error\": null" if error is None else
                 f"\"error\": {{\n{_I8}\"message\": {_scalar(error.message)},\n"
                 f"{_I8}\"line\": {_scalar(error.line)},\n"
                 f"{_I8}\"column\": {_scalar(error.column)}\n{_I6}}}")
    parts.append(f"\"runtime_note\": {_scalar(result.runtime_note)}")
    if dry_run:
        parts.append(f"\"diff\": {_scalar(result.diff or '')}")
    return f",\n{_I6}".join(parts) + "\n    }"


def render_json(run: Run, *, version: str) -> str:
    """The machine interface: every file, every decision (documented in docs/cli.md)."""
    document = JsonDocument(run, version=version)
    for result in run.files:
        document.add(result)
    return document.text()


class JsonDocument:
    """``render_json``'s text, built a file at a time (``run.files`` is not read).

    The files' text is kept in memory up to MAX_SPOOLED_CHARS, then moved to an anonymous
    temporary file, so a registry-scale batch holds neither its decisions nor its whole output
    in memory. Nothing is written out before ``chunks`` is read, as before.
    """

    def __init__(self, run: Run, *, version: str) -> None:
        self.run = run
        self.version = version
        self._pieces: list[str] = []
        self._held = 0
        self._spool: IO[str] | None = None
        self.summary = {"files": 0, "changed": 0, "applied": 0, "errors": 0}

    def add(self, result: FileResult) -> None:
        self.add_fragment(file_fragment(result, dry_run=self.run.dry_run),
                          changed=result.changed, applied=result.applied,
                          error=result.error is not None)

    def add_fragment(self, fragment: str, *, changed: bool, applied: bool, error: bool) -> None:
        """A file's ``file_fragment`` (made here or in a worker) and what the summary counts."""
        self._pieces.append(("," if self.summary["files"] else "[") + "\n    " + fragment)
        self._held += len(fragment) + 6
        if self._held > MAX_SPOOLED_CHARS:
            self._spill()
        self.summary["files"] += 1
        self.summary["changed"] += changed
        self.summary["applied"] += applied
        self.summary["errors"] += error

    def _spill(self) -> None:
        if self._spool is None:
            import tempfile

            # Closed when the text has been read (chunks).
            self._spool = tempfile.TemporaryFile(  # noqa: SIM115
                mode="w+", encoding="utf-8", newline="")
        for start in range(0, len(self._pieces), _PIECES_AT_ONCE):
            self._spool.write(safe_json("".join(self._pieces[start:start + _PIECES_AT_ONCE])))
        self._pieces.clear()
        self._held = 0

    def chunks(self) -> Iterable[str]:
        """The document's text in pieces (the same as ``dumps`` of the whole document)."""
        run = self.run
        head = {"version": JSON_VERSION, "tool": {"name": "skillgrant", "version": self.version},
                "command": run.command, "dry_run": run.dry_run, "plan": run.plan}
        yield safe_json("{" + ",".join(f"\n  {encode(k)}: {encode(v, 1)}"
                                       for k, v in head.items()) + ',\n  "files": ')
        if not self.summary["files"]:
            yield "[]"
        else:
            if self._spool is not None:
                self._spool.seek(0)
                while piece := self._spool.read(1 << 20):
                    yield piece
                self._spool.close()
            for start in range(0, len(self._pieces), _PIECES_AT_ONCE):
                yield safe_json("".join(self._pieces[start:start + _PIECES_AT_ONCE]))
            yield "\n  ]"
        yield safe_json(f',\n  "summary": {encode(self.summary, 1)}\n}}') + "\n"

    def text(self) -> str:
        return "".join(self.chunks())


#: Characters of file objects ``JsonDocument`` keeps in memory before it spools them to disk.
MAX_SPOOLED_CHARS: Final = 16 << 20
# File objects joined into one string at a time when they are written out.
_PIECES_AT_ONCE: Final = 500


def render_explain_json(verdict: Verdict, approved: Sequence[str], *, version: str) -> str:
    """``explain --format json``: the decision object plus the approved entries."""
    rule = RULE_BY_ID.get(STATUS_RULE.get(verdict.status, ""))
    document = {"version": JSON_VERSION, "tool": {"name": "skillgrant", "version": version},
                **verdict_json(verdict), "rule": None if rule is None else rule.id,
                "approved": list(approved)}
    return dumps(document)
