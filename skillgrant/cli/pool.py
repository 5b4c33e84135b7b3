"""``--jobs N``: the files of a ``check``/``apply`` run spread over worker processes.

Files are handed out in order-preserving chunks; each worker does a chunk as ``check DIR`` does its
files in one process (``cli.batch.check_files``: step by step over the chunk when nothing is
written and no log record is heard, else ``check_file``/``file_done`` one after the other; JSON
rendered already) and sends back each file's log records, which the parent hands to its own
``skillgrant`` logger in file order; a worker never writes to stdout or stderr itself. The output,
the stderr lines and the exit status are those of ``--jobs 1``. cli/run.py decides when a run uses
the pool; this module only runs it.
"""

from __future__ import annotations

import logging
import signal
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from ..log import NAME, heard, library_logger
from .batch import FileDone, PlanLike, Rendering, check_files

#: Files handed to a worker at once: large enough to amortise the hand-over (a chunk is one
#: message each way), small enough that the last chunks still spread over every worker.
MAX_CHUNK = 256


class WorkerSetup(NamedTuple):
    """What every worker is started with: ``check_file``'s arguments but the path, and how
    ``file_done`` renders each file."""

    plan: PlanLike
    root: Path
    write: bool
    dry_run: bool
    rendering: Rendering
    enforce: str | None = None


class WorkerError(NamedTuple):
    """An exception raised in a worker, sent back as text: whether it is a SkillgrantError, its
    class name, its message and the worker's traceback."""

    ours: bool
    name: str
    message: str
    traceback: str


def run_pool(files: Sequence[Path], setup: WorkerSetup, workers: int) -> Iterator[FileDone]:
    """Each file done by one of ``workers`` processes, yielded in the order given."""
    import multiprocessing

    logger = library_logger()
    chunk = max(1, min(MAX_CHUNK, len(files) // (workers * 4)))
    # Forked workers start at once with everything imported; elsewhere (macOS, Windows) the
    # platform's own start method is the safe one.
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    chunks = [[str(p) for p in files[at:at + chunk]] for at in range(0, len(files), chunk)]
    with context.Pool(workers, _start_worker, (setup, _listened(logger))) as pool:
        for results in pool.imap(_do_files, chunks):
            for done, records, error in results or [(None, [], None)]:
                for record in records:
                    logger.handle(record)
                if error is not None or done is None:
                    raise _rebuilt(error or WorkerError(False, "RuntimeError", "no result", ""))
                yield done
        # Every file is done: the workers end of themselves (leaving the block terminates
        # them, which is for a run cut short).
        pool.close()
        pool.join()


def _listened(logger: logging.Logger) -> int | None:
    """The level a worker collects records at, or None when the parent would drop them all."""
    return logger.getEffectiveLevel() if heard() else None


# --- inside a worker process ----------------------------------------------------------------

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


class _Worker(NamedTuple):
    setup: WorkerSetup
    collector: _Collector


#: This worker's setup and log collector, once ``_start_worker`` has run.
_worker: _Worker | None = None


def _start_worker(setup: WorkerSetup, level: int | None) -> None:
    global _worker
    # Ctrl-C reaches every process of the group: the parent alone handles it (exit 130) and
    # ends the pool, so a worker ignores it rather than dying mid-file with a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logger = logging.getLogger(NAME)
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
    logger.propagate = False
    collector = _Collector()
    if level is None:
        logger.addHandler(logging.NullHandler())  # nothing listens in the parent
    else:
        logger.addHandler(collector)
        logger.setLevel(level)
    _worker = _Worker(setup, collector)
    _PLUGINS.clear()


#: The plugin folders this worker looked at (``skillfile.plugin.judge_plugin``), over its batch.
_PLUGINS: dict[str, object] = {}


#: What a worker sends back for each file of a chunk: its FileDone (None after an error), the
#: log records made while it was done, and the exception that ended the chunk there.
_Sent = tuple[FileDone | None, list[logging.LogRecord], "WorkerError | None"]


def _do_files(paths: list[str]) -> list[_Sent]:
    """A chunk of files done as ``check_files`` does them, each file's result with the records
    made while it was done; an exception ends the list in its file's place."""
    assert _worker is not None, "the pool starts every worker with _start_worker"
    setup, collector = _worker
    collector.records = []
    sent: list[_Sent] = []
    try:
        for done in check_files([Path(path) for path in paths], setup.plan, setup.root,
                                write=setup.write, dry_run=setup.dry_run,
                                enforce=setup.enforce, plugins=_PLUGINS,
                                rendering=setup.rendering):
            # (records are made only where check_files goes one file after the other, each
            # file before it is given)
            sent.append((done, collector.records, None))
            collector.records = []
    except Exception as e:
        # Sent back as text: an exception whose constructor takes other arguments than it
        # stores does not survive pickling, and would stall the pool.
        import traceback

        from ..errors import SkillgrantError

        error = WorkerError(isinstance(e, SkillgrantError), type(e).__name__, str(e),
                            traceback.format_exc())
        sent.append((None, collector.records, error))
    return sent


class _RemoteTraceback(Exception):
    def __str__(self) -> str:
        return str(self.args[0])


def _rebuilt(error: WorkerError) -> Exception:
    """A worker's exception, rebuilt in the parent for the CLI's guard: the same class name
    and message (a SkillgrantError stays one), the worker's traceback as its cause."""
    from ..errors import SkillgrantError

    base: type[Exception] = SkillgrantError if error.ours else Exception
    rebuilt: Exception = type(error.name, (base,), {"__module__": "skillgrant.worker"})(
        error.message)
    rebuilt.__cause__ = _RemoteTraceback(f"\n(in a --jobs worker)\n{error.traceback}")
    return rebuilt
