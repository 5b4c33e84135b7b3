"""Reading a file named by a user without reading a huge one whole (MAX_FILE_BYTES).

Shared by the SKILL.md reader (skillfile), plan files (plan.source) and the sides of ``lint``/
``diff`` (review.sources); each says in its own words why a file cannot be read or is too large.

Only a regular file is read. A FIFO, a socket or a device (``/dev/zero``, ``/dev/tty``), named
directly or through a symlink, is refused with NotRegularFileError before it is opened, so a
FIFO with no writer cannot block the reader and opening a device has no side effects; the file
is opened non-blocking and checked again, in case it was replaced in between. A plan piped in
is read from standard input (``-``), never through here. A path the system gives up on with
"too many levels of symbolic links" is refused with SymlinkLoopError, which says whether the
links loop (and through which names) rather than leaving the reader to guess.
"""

from __future__ import annotations

import errno
import os
import stat

from ..limits import MAX_FILE_BYTES

#: Bytes asked for at a time once the size the file gives is used up (procfs, a file that grew).
_CHUNK = 1 << 16
#: Links followed, at most, when looking for the loop behind ELOOP (Linux gives up after 40).
_MAX_LINKS = 64

_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_NONBLOCK", 0))


class NotRegularFileError(OSError):
    """The path names something other than a regular file or a directory: a FIFO, a socket, a
    device. ``strerror`` says which ("not a regular file: a FIFO")."""


class SymlinkLoopError(OSError):
    """The path cannot be resolved: its symbolic links lead back to themselves, or more of them
    follow one another than the system resolves. ``strerror`` says which, naming the links
    of a loop it found ("a symbolic-link loop: a -> b -> a")."""


def _links_loop(path: str | os.PathLike[str]) -> list[str] | None:
    """The path and the targets its links name, as written, up to the first that repeats: the
    loop behind ELOOP when it is the file's own links that loop; None otherwise (the loop is in
    a directory on the way, or the chain is merely long)."""
    shown = [os.fspath(path)]
    seen: list[str] = []
    current = os.path.abspath(path)
    for _ in range(_MAX_LINKS):
        if not os.path.islink(current):
            return None
        if current in seen:
            return shown
        seen.append(current)
        try:
            target = os.readlink(current)
        except OSError:
            return None
        shown.append(target)
        current = os.path.normpath(os.path.join(os.path.dirname(current), target))
    return None


def _directory_loop(name: str) -> list[str] | None:
    """The loop of the nearest directory on the way to ``name`` whose links loop, or None."""
    parent = os.path.dirname(name)
    while parent and parent != os.path.dirname(parent):
        chain = _links_loop(parent)
        if chain is not None:
            return chain
        parent = os.path.dirname(parent)
    return None


def _loop_error(path: str | os.PathLike[str]) -> SymlinkLoopError:
    name = os.fspath(path)
    chain = _links_loop(name)
    if chain is not None:
        reason = "a symbolic-link loop: " + " -> ".join(chain)
    elif (chain := _directory_loop(name)) is not None:
        reason = "a directory on its path is a symbolic-link loop: " + " -> ".join(chain)
    else:
        reason = ("too many levels of symbolic links: a symbolic-link loop, or a chain of "
                  "links longer than the system follows")
    return SymlinkLoopError(errno.ELOOP, reason, name)


def broken_link(path: str) -> str | None:
    """Why ``path``, a name whose symbolic link ``exists`` does not follow to a file, cannot be
    read (a loop, named, or a link to nothing); None when it is no symbolic link."""
    if not os.path.islink(path):
        return None
    try:
        os.stat(path)
    except OSError as e:
        if e.errno == errno.ELOOP:
            return _loop_error(path).strerror
        return f"a symbolic link to {os.readlink(path)!r}, which does not exist"
    return None


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


def read_bounded(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> bytes:
    """At most ``limit`` + 1 bytes of the regular file at ``path`` (``limit``: MAX_FILE_BYTES,
    or MAX_SKILL_BYTES for a skill file): all of it, or enough to tell it is over the limit.
    Raises OSError as ``open`` would; IsADirectoryError for a directory, NotRegularFileError
    for a FIFO, socket or device (never opened, never waited on), SymlinkLoopError for a path
    whose symbolic links cannot be resolved (a loop).

    The file is read in the size it gives (a buffered ``read(limit)`` allocates the whole
    limit first: most of the cost of a small file), then in chunks for a file that gives none
    (procfs) or grew. Its end is told by a read that gives fewer bytes than asked: exactly the
    size ``fstat`` gave (the file whole, as it was then: one read of the size and one byte
    more), or else a read of one byte that gives none.
    """
    try:
        _require_regular(os.stat(path).st_mode, path)
        # Non-blocking: a FIFO put in place since the stat must not block the open.
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise _loop_error(path) from e
        raise
    limit += 1
    try:
        info = os.fstat(fd)
        # A regular file, so O_NONBLOCK changes nothing about reading it (open(2)): it is
        # left set rather than cleared with one more system call a file.
        _require_regular(info.st_mode, path)
        size = info.st_size
        want = min(size + 1, limit)
        chunks: list[bytes] = []
        total = 0
        while total < limit:
            chunk = os.read(fd, max(1, min(want, limit - total)))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total == size < want:  # the size it gave, and not the byte more asked for
                break
            # Short of what was asked: most likely the end, which a read of one byte tells
            # (a read of a chunk allocates the chunk first, tens of microseconds).
            want = 1 if len(chunk) < want else _CHUNK
    finally:
        os.close(fd)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)
