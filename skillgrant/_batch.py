"""``check`` and ``apply`` on one SKILL.md, and on many over worker processes (``--jobs``).

``check_file`` is everything the CLI does for one file short of rendering: apply the plan (never
writing for ``check``), locate the value and its entries for the report, make the diff for
``--dry-run``. ``run_files`` yields one ``(FileResult, error message)`` per file **in the order
given**, whether the files are done here or spread over a process pool, so the output of
``--jobs N`` is the output of ``--jobs 1``.

In a worker, the library's log records (drops, restores: what ``--debug`` shows) are collected
instead of written, sent back with each file's result, and handed to the parent's ``skillgrant``
logger in file order; a worker never writes to stdout or stderr itself.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._cliutil import artifact_path

if TYPE_CHECKING:
    from .report import FileResult, Location
    from .skillfile import SkillDoc

#: Files handed to a worker at once: large enough to amortise the hand-over, small enough that
#: the last chunks still spread over every worker.
MAX_CHUNK = 64

FileOutcome = tuple["FileResult", "str | None"]


def default_jobs() -> int:
    """The worker count ``--jobs 0`` means: one per CPU this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def check_file(path: Path, plan: Any, root: Path, *, write: bool, dry_run: bool) -> FileOutcome:
    """Apply ``plan`` to one file (writing only with ``write``) and describe the outcome.

    A SkillFileError becomes the file's error and the message for stderr; any other exception
    propagates (the CLI turns it into exit 2).
    """
    from . import skillfile  # looked up at call time: tests replace apply_to_file
    from .errors import SkillFileError
    from .report import FileError, FileResult

    artifact = artifact_path(path, root)
    try:
        result = skillfile.apply_to_file(path, plan, dry_run=not write)
    except SkillFileError as e:
        return (FileResult(str(path), artifact, error=FileError(e.message, e.line, e.column)),
                f"skillgrant: error: {e}")
    doc = getattr(result, "doc", None)
    if doc is None:
        doc = skillfile.read_skill(result.old_text, str(path))
    location, entries = locate(doc)
    diff = None
    if dry_run and result.changed:
        from .report import unified_diff

        diff = unified_diff(result.old_text, result.new_text, artifact)
    return (FileResult(str(path), artifact, result.decision, result.changed, result.written,
                       location, entries, diff), None)


def _line_column(text: str, offset: int) -> Location:
    from .report import Location

    line_start = text.rfind("\n", 0, offset) + 1
    return Location(text.count("\n", 0, offset) + 1, offset - line_start + 1)


def locate(doc: SkillDoc) -> tuple[Location, tuple[Location, ...]]:
    """Where ``allowed-tools`` is (or would be added), and where each of its entries is."""
    from .grants import split_allowed_tools

    text = doc.text
    value = doc.allowed_tools
    if value is None:
        return _line_column(text, doc.insert_at), ()
    key = _line_column(text, value.key_start + value.key_column)
    spans = ([(item.value, item.start, item.end) for item in value.items] if value.items
             else [(value.value, value.start, value.end)] if isinstance(value.value, str)
             else [])
    found: list[Location] = []
    for raw, start, end in spans:
        cursor = start
        for entry in split_allowed_tools(raw):
            at = text.find(entry, cursor, end)
            if at < 0:
                # Written with YAML escapes or folded lines, the entry is not in the text as
                # such: point at its scalar.
                found.append(_line_column(text, start))
                continue
            found.append(_line_column(text, at))
            cursor = at + len(entry)
    if len(found) != len(value.entries):
        return key, ()
    return key, tuple(found)


@dataclass(frozen=True)
class Done:
    """One file done, as the CLI needs it: the result (or, for JSON, its text already), the
    error message for stderr, and what the exit status and the summary count."""

    result: FileResult | None
    fragment: str | None
    message: str | None
    changed: bool
    applied: bool
    error: bool
    would_change: bool


def finish(outcome: FileOutcome, *, json_dry_run: bool | None) -> Done:
    """``outcome`` as a Done; rendered to JSON text in place when ``json_dry_run`` is given
    (the value of ``--dry-run``), so a batch keeps text rather than decisions."""
    result, message = outcome
    decision = result.decision
    would_change = result.changed or (decision is not None and (bool(decision.dropped)
                                                                or decision.restored))
    fragment = None
    if json_dry_run is not None:
        from .report_json import file_fragment

        fragment = file_fragment(result, dry_run=json_dry_run)
    return Done(None if fragment is not None else result, fragment, message, result.changed,
                result.applied, result.error is not None, would_change)


def run_files(files: Sequence[Path], plan: Any, root: Path, *, write: bool, dry_run: bool,
              json: bool, jobs: int) -> Iterator[Done]:
    """Each file done, in the order given; over ``jobs`` worker processes when there is more
    than one file to share. With ``json``, each is rendered where it is done."""
    options = (plan, root, write, dry_run, dry_run if json else None)
    workers = min(jobs, len(files))
    if workers <= 1:
        for path in files:
            outcome = check_file(path, plan, root, write=write, dry_run=dry_run)
            yield finish(outcome, json_dry_run=options[4])
        return
    import multiprocessing

    logger = logging.getLogger("skillgrant")
    chunk = max(1, min(MAX_CHUNK, len(files) // (workers * 8)))
    # Forked workers start at once with everything imported; elsewhere (macOS, Windows) the
    # platform's own start method is the safe one.
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    with context.Pool(workers, _start_worker, (*options, _listened(logger))) as pool:
        for done, records, failure in pool.imap(_work, [str(p) for p in files], chunk):
            for record in records:
                logger.handle(record)
            if failure is not None or done is None:
                raise _raised(*(failure or (False, "RuntimeError", "no result", "")))
            yield done


def _listened(logger: logging.Logger) -> int | None:
    """The level a worker collects records at, or None when the parent would drop them all."""
    from .prover import _heard

    return logger.getEffectiveLevel() if _heard() else None


# --- inside a worker process ----------------------------------------------------------------

_WORKER: dict[str, Any] = {}


class _Collector(logging.Handler):
    """Keeps a worker's log records, made picklable, until its file's result is sent back."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        # What QueueHandler.prepare does: the message merged with its arguments, the
        # traceback as text (a traceback object does not pickle).
        if record.exc_info:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        record.msg = record.getMessage()
        record.args = None
        record.exc_info = None
        self.records.append(record)


def _start_worker(plan: Any, root: Path, write: bool, dry_run: bool, json_dry_run: bool | None,
                  level: int | None) -> None:
    # Ctrl-C reaches every process of the group: the parent alone handles it (exit 130) and
    # ends the pool, so a worker ignores it rather than dying mid-file with a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logger = logging.getLogger("skillgrant")
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
    logger.propagate = False
    collector = _Collector()
    if level is None:
        logger.addHandler(logging.NullHandler())  # nothing listens in the parent
    else:
        logger.addHandler(collector)
        logger.setLevel(level)
    _WORKER.update(plan=plan, root=root, write=write, dry_run=dry_run,
                   json_dry_run=json_dry_run, collector=collector)


Failure = tuple[bool, str, str, str]


def _work(path: str) -> tuple[Done | None, list[logging.LogRecord], Failure | None]:
    collector: _Collector = _WORKER["collector"]
    collector.records = []
    try:
        outcome = check_file(Path(path), _WORKER["plan"], _WORKER["root"],
                             write=_WORKER["write"], dry_run=_WORKER["dry_run"])
        return finish(outcome, json_dry_run=_WORKER["json_dry_run"]), collector.records, None
    except Exception as e:
        # Sent back as text: an exception whose constructor takes other arguments than it
        # stores does not survive pickling, and would stall the pool.
        import traceback

        from .errors import SkillgrantError

        failure = (isinstance(e, SkillgrantError), type(e).__name__, str(e),
                   traceback.format_exc())
        return None, collector.records, failure


class _RemoteTraceback(Exception):
    def __str__(self) -> str:
        return str(self.args[0])


def _raised(ours: bool, name: str, message: str, remote: str) -> Exception:
    """A worker's exception, rebuilt in the parent for the CLI's guard: the same class name
    and message (a SkillgrantError stays one), the worker's traceback as its cause."""
    from .errors import SkillgrantError

    base: type[Exception] = SkillgrantError if ours else Exception
    error: Exception = type(name, (base,), {"__module__": "skillgrant.worker"})(message)
    error.__cause__ = _RemoteTraceback(f"\n(in a --jobs worker)\n{remote}")
    return error
