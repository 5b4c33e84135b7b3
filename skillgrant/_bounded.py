"""Reading a file named by a user without reading a huge one whole (MAX_FILE_BYTES).

Shared by the SKILL.md reader (skillfile), plan files (_plansource) and the sides of ``lint``/
``diff`` (_reviewsource); each says in its own words why a file cannot be read or is too large.
"""

from __future__ import annotations

import os

from .limits import MAX_FILE_BYTES

#: Bytes asked for at a time once the size the file gives is used up (devices, pipes, procfs).
_CHUNK = 1 << 16


def read_bounded(path: str | os.PathLike[str]) -> bytes:
    """At most MAX_FILE_BYTES + 1 bytes of the file: all of it, or enough to tell it is over
    the limit. Raises OSError as ``open`` would.

    The file is read in the size it gives (a buffered ``read(limit)`` allocates the whole
    limit first: most of the cost of a small file), then in chunks for a file that gives none
    or grew.
    """
    limit = MAX_FILE_BYTES + 1
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        want = min(os.fstat(fd).st_size + 1, limit)
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
