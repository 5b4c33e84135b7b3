"""How the gate asks the filesystem while it decides: a path's real path, and the identity of
the regular file at a path (a hard link shares it).

By default each question goes to the system (``os.path.realpath``, ``os.stat``), as a hook
process must: it decides once. A long-running process may put in place a view that keeps
answers for exactly as long as nothing on their paths changes (``skillgrant serve``:
``service/watched.py``, which forgets them at any change inotify reports); the answers must be
the system's own.
"""

from __future__ import annotations

import os
import stat
from typing import Protocol


class View(Protocol):
    def realpath(self, path: str) -> str:
        """``os.path.realpath(path)``."""

    def identity(self, path: str) -> tuple[int, int] | None:
        """The device and inode of the regular file at ``path`` (links followed), or None
        when it is not one or cannot be examined."""

    def islink(self, path: str) -> bool:
        """``os.path.islink(path)``."""


class System:
    """Each question to the system."""

    def realpath(self, path: str) -> str:
        return os.path.realpath(path)

    def identity(self, path: str) -> tuple[int, int] | None:
        return file_identity(path)

    def islink(self, path: str) -> bool:
        return os.path.islink(path)


def file_identity(path: str) -> tuple[int, int] | None:
    """The system's answer to ``View.identity``."""
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return None
    return (found.st_dev, found.st_ino) if stat.S_ISREG(found.st_mode) else None


_VIEW: list[View] = [System()]


def use(view: View | None) -> None:
    """Ask ``view`` from now on (None: the system)."""
    _VIEW[0] = view if view is not None else System()


def realpath(path: str) -> str:
    """``path``'s real path, as the view in use answers."""
    return _VIEW[0].realpath(path)


def identity(path: str) -> tuple[int, int] | None:
    """The identity of the regular file at ``path``, as the view in use answers."""
    return _VIEW[0].identity(path)


def islink(path: str) -> bool:
    """Whether ``path`` is a symbolic link, as the view in use answers."""
    return _VIEW[0].islink(path)
