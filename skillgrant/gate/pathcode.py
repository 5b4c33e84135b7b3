"""Whether a project's own start code may put any folder first on ``sys.path`` (issue 29,
session 60: s58-preview S ``conftest-inserts-src``): a conftest pytest may load, a test module
or a package's ``__init__`` naming ``sys`` at all (``sys.path.insert(0, 'src')``,
``getattr(sys, 'path')``, ``os.sys``: ``exactlists.spelled``, as Python reads its
identifiers) makes a module named like a site folder's top name found first from any folder
(``syspathdirs``)."""

from __future__ import annotations

from . import files as fs
from .conftestplugins import LIMIT, above_conftests, below_files
from .exactlists import spelled

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The names by which a module's code puts a folder on ``sys.path``: ``sys`` itself, and
#: pytest's fixtures' methods (``monkeypatch.syspath_prepend``, ``pytester.syspathinsert``,
#: ``testdir.syspathinsert``: s60-preview S), ``site``'s ``addsitedir``.
_MOVERS: Final = ("sys", "syspath_prepend", "syspathinsert", "addsitedir")


def moves_path(folder: str) -> bool:
    """Whether a conftest pytest may load for the collecting ``folder`` (in, above or below
    it), a test module or a package's ``__init__`` below it names ``sys`` (see the module's
    text): a folder it puts first holds modules imported in the site folders' stead
    (s58-preview S); True where one cannot be read or the folders below hold too many
    entries."""
    from .testnames import test_name

    below = below_files(folder)
    if below is None:
        return True
    for path in [*above_conftests(folder), *(p for p in below if p.endswith(".py") and test_name(
            p.rpartition("/")[2].lower()))]:
        try:
            data = fs.read(path, LIMIT + 1)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            continue
        except (OSError, ValueError):
            return True
        if len(data) > LIMIT or any(spelled(data, w) for w in _MOVERS):  # (any use of
            return True  # `sys`: `getattr(sys, 'path')`, `os.sys`; s60-preview S)
    return False
