"""The answers ``readlog`` records and asks again: a file's bytes, a folder's entries (given
to the computation listed already: what an entry's methods ask of the system beyond the
listing, a link's target's kind, a ``stat``, goes through ``os.stat``, which ``readlog``
records), an error."""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Final

#: The most bytes of files a record holds (past it, nothing is kept).
BYTES: Final = 8 << 20
#: The system's own functions (``readlog`` replaces ``os``'s while it records).
_OPEN: Final = os.open
_SCANDIR: Final = os.scandir


def kind_of(path: str) -> int:
    """The kind (``stat.S_IFMT``) of what ``path`` leads to; 0 where nothing is there."""
    try:
        return stat.S_IFMT(os.stat(path).st_mode)  # (recorded while recording)
    except OSError:
        return 0


class Entry:
    """A folder's entry as ``os.scandir`` gives it, a ``stat`` it takes recorded."""

    __slots__ = ("_entry", "name", "path")

    def __init__(self, entry: os.DirEntry[str]) -> None:
        self._entry = entry
        self.name = entry.name
        self.path = entry.path

    def is_symlink(self) -> bool:
        return self._entry.is_symlink()

    def is_dir(self, *, follow_symlinks: bool = True) -> bool:
        if follow_symlinks and self._entry.is_symlink():
            return stat.S_ISDIR(kind_of(self.path))
        return self._entry.is_dir(follow_symlinks=False)

    def is_file(self, *, follow_symlinks: bool = True) -> bool:
        if follow_symlinks and self._entry.is_symlink():
            return stat.S_ISREG(kind_of(self.path))
        return self._entry.is_file(follow_symlinks=False)

    def inode(self) -> int:
        return self._entry.inode()

    def stat(self, *, follow_symlinks: bool = True) -> os.stat_result:
        return os.stat(self.path, follow_symlinks=follow_symlinks)  # (recorded)


class Listing:
    """``os.scandir``'s iterator, of entries listed already."""

    def __init__(self, entries: list[Entry]) -> None:
        self._entries = iter(entries)

    def __iter__(self) -> Iterator[Entry]:
        return self._entries

    def __next__(self) -> Entry:
        return next(self._entries)

    def __enter__(self) -> Listing:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._entries = iter(())


def errno_of(e: BaseException) -> object:
    return ("E", type(e).__name__, getattr(e, "errno", None))


def file_bytes(fd: int) -> object:
    """What the file open at ``fd`` holds: its kind, and a regular file's bytes (``pread``:
    the descriptor's offset is left where it was), at most ``BYTES`` and one more."""
    found = os.fstat(fd)
    if not stat.S_ISREG(found.st_mode):
        return ("K", stat.S_IFMT(found.st_mode))
    if found.st_size > BYTES:  # (not read: a record holding it is not kept)
        return ("L", found.st_size)
    chunks, at = [], 0
    while at <= BYTES:
        chunk = os.pread(fd, 1 << 20, at)
        if not chunk:
            break
        chunks.append(chunk)
        at += len(chunk)
    return ("R", b"".join(chunks))


def opened(path: object) -> object:
    """The answer about the file at ``path``: its bytes, or why it does not open."""
    try:
        fd = _OPEN(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)  # type: ignore[arg-type]
    except Exception as e:  # (the answer: what it raised)
        return errno_of(e)
    try:
        return file_bytes(fd)
    except OSError as e:
        return errno_of(e)
    finally:
        os.close(fd)


def listed(path: object) -> tuple[list[os.DirEntry[str]], object]:
    """A folder's entries and the answer recorded for them (names and kinds, links not
    followed)."""
    try:
        with _SCANDIR(path) as listing:  # type: ignore[call-overload]
            entries = list(listing)
        return entries, tuple((e.name, e.is_symlink(), e.is_dir(follow_symlinks=False),
                               e.is_file(follow_symlinks=False)) for e in entries)
    except Exception as e:  # (the answer: what it raised)
        return [], errno_of(e)
