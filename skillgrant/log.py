"""The library's ``skillgrant`` logger (semantics §5 audit records), loaded when a record could be
seen.

Importing ``logging`` is a noticeable share of a cold ``check``. A record can only be seen by a
handler, a filter or a record factory, and each of those exists only once something in the
process has imported ``logging``; until then no record is made and ``logging`` stays unloaded.
Once it is loaded, the logger gets its NullHandler (a library never prints through logging's
last resort) and ``heard`` decides as before.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing is not loaded for an annotation
if TYPE_CHECKING:
    import logging
    from typing import Any

NAME = "skillgrant"
WARNING = 30


def library_logger() -> logging.Logger:
    """The ``skillgrant`` logger, with a NullHandler the first time it is asked for."""
    import logging

    logger = logging.getLogger(NAME)
    if not getattr(logger, "_skillgrant_null", False):
        logger.addHandler(logging.NullHandler())
        logger._skillgrant_null = True  # type: ignore[attr-defined]
    _last[0] = logger
    return logger


#: The logger ``library_logger`` last gave. ``logging.getLogger`` gives the logger its
#: manager holds under the name (taking logging's lock to look): while the manager still holds
#: this one there, and it has its NullHandler, ``library_logger`` would give it again.
_last: list[logging.Logger | None] = [None]


def _logger(module: Any) -> logging.Logger:
    """``library_logger()``, without the lock and the import when its last answer holds
    (``module`` is ``logging``)."""
    last = _last[0]
    if (last is not None and module.Logger.manager.loggerDict.get(NAME) is last
            and getattr(last, "_skillgrant_null", False)):
        return last
    return library_logger()


def loaded() -> bool:
    """Whether anything in the process has imported ``logging`` (else nothing can listen)."""
    return "logging" in sys.modules


def heard(level: int = WARNING) -> bool:
    """Whether a record at ``level`` on the ``skillgrant`` logger would reach anything but
    NullHandlers.

    Making a log record costs more than deciding a cached entry; in a batch where nothing
    listens (no ``--debug``, no logging configured) the records are skipped. Whenever a filter,
    a custom record factory or a real handler could see the record, it is made.
    """
    if not loaded():
        return False  # nothing has loaded logging, so nothing can listen
    module = sys.modules["logging"]  # (what ``import logging`` gives once it is loaded)
    logger = _logger(module)
    if not logger.isEnabledFor(level):
        return False
    if module.getLogRecordFactory() is not module.LogRecord:
        return True
    if type(logger) is not module.Logger:
        return True  # a logger class of the application's may do anything with a record
    current: logging.Logger | None = logger
    found = False
    while current is not None:
        if current.filters:
            return True
        for handler in current.handlers:
            found = True
            if type(handler) is not module.NullHandler:  # a subclass may override handle()
                return True
        current = current.parent if current.propagate else None
    return not found  # no handler at all: logging's last resort prints warnings
