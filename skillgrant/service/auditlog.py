"""The service's audit log: the records ``skillgrant hook`` writes, in one file for every
request.

The file is opened once, at start: a regular file (a FIFO or a device could block the service
on open or on write), with ``O_APPEND``, created 0600. Each record is one ``write``, made on the
event loop after the decision and before its answer is sent, so a record is on disk for every
answer a client has read, a kill -9 of the service included, and a decision abandoned at the
handler timeout leaves no record but its denial's. SIGHUP opens the file again (after a
rotation); when that fails, the old file stays in use. A kill -9 in the middle of a write can
cut its record short (that call was never answered); the next record, of this service or a
hook, starts on a line of its own (``gate.audit.on_a_new_line``).
"""

from __future__ import annotations

import os
import stat

from ..gate.audit import on_a_new_line


class AuditLog:
    def __init__(self, path: str) -> None:
        self.path = path
        self._fd = _open(path)

    def write(self, line: bytes) -> None:
        """Append one record. Raises OSError when it is not written whole."""
        written = os.write(self._fd, line)
        if written != len(line):
            raise OSError(f"the audit log {self.path!r} took {written} of {len(line)} bytes")

    def reopen(self) -> None:
        """Open the file at the path again (a rotated log starts anew). Raises OSError, and
        keeps the file open before."""
        fd = _open(self.path)
        old, self._fd = self._fd, fd
        os.close(old)

    def close(self) -> None:
        os.close(self._fd)


def _open(path: str) -> int:
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK
    fd = os.open(path, flags, 0o600)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"the audit log {path!r} is not a regular file")
        on_a_new_line(fd, path)  # after a service or a hook killed mid-record
    except OSError:
        os.close(fd)
        raise
    return fd
