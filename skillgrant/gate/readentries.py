"""A folder's entries as ``os.scandir`` gives them, listed already, for ``readlog``: what an
entry's methods ask of the system beyond the listing (a link's target's kind, a ``stat``)
goes through ``os.stat``, which ``readlog`` records."""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Iterator


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
