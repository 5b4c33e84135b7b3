"""A path's absolute form, as ``os.path.abspath`` gives it, at the cost of a few string tests
for the paths a batch mostly names (already absolute and normal)."""

from __future__ import annotations

import os


def absolute(path: str | os.PathLike[str]) -> str:
    """``os.path.abspath(path)``. On POSIX a text that starts with one ``/`` and holds no
    ``//``, no ``/.`` and does not end in ``/`` is its own answer: ``abspath`` of an absolute
    path is its ``normpath``, which splits it at ``/`` and keeps every part that is not empty,
    ``.`` or ``..`` (a part is empty only between two ``/`` or after a last one, and every
    part of such a text but the first follows a ``/``, so none starts with a ``.``), and joins
    them back behind its one leading ``/``: the same text, without the loop over its parts
    (pure Python before 3.12; a batch asks it twice a file)."""
    named = os.fspath(path)
    if (os.name == "posix" and isinstance(named, str) and named[:1] == "/"
            and named[-1:] != "/" and "//" not in named and "/." not in named):
        return named
    return os.path.abspath(named)
