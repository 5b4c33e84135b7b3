"""Reading a file named by a user without reading a huge one whole (MAX_FILE_BYTES).

Shared by the SKILL.md reader (skillfile), plan files (plan.source) and the sides of ``lint``/
``diff`` (review.sources); each says in its own words why a file cannot be read or is too large.

Only a regular file is read. A FIFO, a socket or a device (``/dev/zero``, ``/dev/tty``), named
directly or through a symlink, is refused with NotRegularFileError before it is opened, so a
FIFO with no writer cannot block the reader and opening a device has no side effects; the file
is opened non-blocking and checked again, in case it was replaced in between. A plan piped in
is read from standard input (``-``), never through here.
"""

from __future__ import annotations

import errno
import os
import stat

from ..limits import MAX_FILE_BYTES

#: Bytes asked for at a time once the size the file gives is used up (procfs, a file that grew).
_CHUNK = 1 << 16

_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_NONBLOCK", 0))


class NotRegularFileError(OSError):
    """The path names something other than a regular file or a directory: a FIFO, a socket, a
    device. ``strerror`` says which ("not a regular file: a FIFO")."""


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "not a file"


def _require_regular(mode: int, path: str | os.PathLike[str]) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
    raise NotRegularFileError(errno.EINVAL, f"not a regular file: {_kind(mode)}",
                              os.fspath(path))


def read_bounded(path: str | os.PathLike[str]) -> bytes:
    """At most MAX_FILE_BYTES + 1 bytes of the regular file at ``path``: all of it, or enough
    to tell it is over the limit. Raises OSError as ``open`` would; IsADirectoryError for a
    directory, NotRegularFileError for a FIFO, socket or device (never opened, never waited on).

    The file is read in the size it gives (a buffered ``read(limit)`` allocates the whole
    limit first: most of the cost of a small file), then in chunks for a file that gives none
    (procfs) or grew.
    """
    _require_regular(os.stat(path).st_mode, path)
    limit = MAX_FILE_BYTES + 1
    # Non-blocking: a FIFO put in place since the stat must not block the open.
    fd = os.open(path, _OPEN_FLAGS)
    try:
        info = os.fstat(fd)
        _require_regular(info.st_mode, path)
        if _OPEN_FLAGS & getattr(os, "O_NONBLOCK", 0):
            os.set_blocking(fd, True)
        want = min(info.st_size + 1, limit)
        chunks: list[bytes] = []
        total = 0
        while total < limit:
            chunk = os.read(fd, max(1, min(want, limit - total)))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            want = _CHUNK
    finally:
        os.close(fd)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)
