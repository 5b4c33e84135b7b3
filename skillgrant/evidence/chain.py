"""``skillgrant audit verify``: the audit log's hash chain (``gate.audit``) checked, record by
record, and the first record where it breaks named.

Each record names the SHA-256 of the line of the record before it (``prev``, null for the
first) and of every line between them that is not a record (``torn``: a record cut short by a
kill). So an edited byte, a deleted, inserted or moved record, or a removed or added cut line
breaks the link of the next record, and the first such record is named with the line before it.

What the chain cannot show on its own: a change to the records at the end of the log, or
their removal (a cut at the end), since no record after them names them. Keep the link of the
last record (``head``) somewhere the writer of the log cannot change, and give it back with
``--anchor``: the log must still hold a record with that link, and the chain must hold up to
it. Nor does a chain stop someone who can write the file from rewriting every record after an
edit with new links: the anchor shows that too, as its record is then gone.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..gate.audit import is_record, link
from .read import EvidenceError


@dataclass(frozen=True)
class Break:
    """Where the chain breaks: the 1-based line of the first record whose link does not hold,
    and why."""

    line: int
    reason: str


@dataclass
class ChainReport:
    """One log checked: its records, its lines that are not records (``cut``), the link of its
    last record (``head``), the first break, and where the anchor was found."""

    path: str
    records: int = 0
    cut: list[int] = field(default_factory=list)
    head: str | None = None
    broken: Break | None = None
    anchor: str | None = None
    anchor_line: int | None = None

    @property
    def valid(self) -> bool:
        return self.broken is None and (self.anchor is None or self.anchor_line is not None)


def verify(path: str, anchor: str | None = None) -> ChainReport:
    """Check the chain of the audit log at ``path`` (and that it holds the record whose link is
    ``anchor``). Raises EvidenceError when the file cannot be read.

    >>> import tempfile, os
    >>> from skillgrant.gate.audit import append, record
    >>> log = os.path.join(tempfile.mkdtemp(), "audit.jsonl")
    >>> for _ in range(3):
    ...     append(log, record(session="s", runtime_tool="Bash", tool="Bash", decision="none",
    ...                        status="covered", reason="r"))
    >>> report = verify(log)
    >>> report.valid, report.records
    (True, 3)
    """
    report = ChainReport(path, anchor=anchor)
    try:
        with open(path, "rb") as stream:
            _walk(stream, report)
    except OSError as e:
        raise EvidenceError(f"{path}: cannot be read: {e.strerror or e}") from None
    return report


def _walk(stream: Iterable[bytes], report: ChainReport) -> None:
    previous: tuple[int, str] | None = None  # the last record's line and link
    cut: list[tuple[int, str]] = []  # lines since it that are not records
    ended = True  # whether the last line read ends with a newline
    for number, line in enumerate(stream, start=1):
        ended = line.endswith(b"\n")
        if not is_record(line):
            report.cut.append(number)
            cut.append((number, link(line)))
            continue
        problem = _link_problem(json.loads(line), previous, cut)
        if problem is not None:
            report.broken = Break(number, problem)
            return
        report.records += 1
        previous, cut = (number, link(line)), []
        if report.anchor is not None and previous[1] == report.anchor:
            report.anchor_line = number
    report.head = previous[1] if previous is not None else None
    # A writer killed mid-record leaves one line without its newline at the end; the next
    # writer would name it. More lines after the last record, or a whole one, are not that.
    if len(cut) > 1 or (cut and ended):
        report.broken = Break(cut[0][0], f"{len(cut)} line(s) after the last record are not "
                              "records: a writer killed mid-record leaves at most one, cut "
                              "short; records at the end were replaced, or lines added")


def _link_problem(record: dict[str, object], previous: tuple[int, str] | None,
                  cut: list[tuple[int, str]]) -> str | None:
    if "prev" not in record:
        return ("the record has no link to the one before it (written before the log was "
                "chained, or edited)")
    named = record["prev"]
    if previous is None and named is not None:
        return (f"it is the first record of the log, yet it names a record before it "
                f"({named}): records before it were removed, or it was moved here")
    if previous is not None and named != previous[1]:
        return (f"it names {named} as the record before it, but the record before it (line "
                f"{previous[0]}) is {previous[1]}: that record was changed, or a record was "
                "removed, inserted or moved between them")
    torn = record.get("torn", [])
    if torn != [h for _, h in cut]:
        lines = ", ".join(str(n) for n, _ in cut) or "none"
        return (f"it names {len(torn) if isinstance(torn, list) else '?'} cut lines before "
                f"it, but the log has other ones there (lines: {lines}): a line was changed, "
                "removed or inserted before it")
    return None
