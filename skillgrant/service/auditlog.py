"""The service's audit log: the records ``skillgrant hook`` writes, in one file for every
request, on the same hash chain as the hooks' (``gate.audit``).

The file is opened once, at start, to read and append: a regular file (a FIFO or a device could
block the service on open or on write), with ``O_APPEND``, created 0600. Each record is one
``write``, made on the event loop after the decision and before its answer is sent, under the
file's ``flock`` (shared with every hook writing to it). So a record is on disk for every
answer a client has read, a kill -9 of the service included, and a decision abandoned at the
handler timeout leaves no record but its denial's. The service remembers the link of its own
last record: while no one else has written since, the log is not read back. SIGHUP opens the
file again (after a rotation); when that fails, the old file stays in use. A kill -9 in the
middle of a write can cut its record short (that call was never answered); the next record, of
this service or a hook, starts on a line of its own and names the cut line in its chain.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

from ..gate.audit import Memo, append_locked, open_log

T = TypeVar("T")


class AuditLog:
    def __init__(self, path: str) -> None:
        self.path = path
        self._fd = _open(path)
        self._memo: Memo | None = None

    def write(self, line: bytes) -> None:
        """Append one record, chained. Raises OSError when it is not written whole."""
        self._memo = append_locked(self._fd, line, self._memo)

    def read_back(self, reader: Callable[[int], T]) -> T:
        """``reader`` given the file's descriptor, to read (``sessionswitness.py``)."""
        return reader(self._fd)

    def reopen(self) -> None:
        """Open the file at the path again (a rotated log starts anew). Raises OSError, and
        keeps the file open before."""
        fd = _open(self.path)
        old, self._fd, self._memo = self._fd, fd, None
        os.close(old)

    def close(self) -> None:
        os.close(self._fd)


def _open(path: str) -> int:
    # Read as well as written: each record is chained to the last one in the file. Never
    # through a link, at its last component or on the way (reviews A1, A1b), nor a file with
    # another name (a hard link), as the hook's own log.
    return open_log(path)
