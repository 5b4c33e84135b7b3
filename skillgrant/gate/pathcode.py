"""Whether a project's own test code may put any folder first on ``sys.path`` (issue 29,
session 60: s58-preview S ``conftest-inserts-src``): a conftest pytest may load, a test module
or a package's ``__init__`` that names ``sys`` (``sys.path.insert(0, 'src')``, ``os.sys``),
pytest's ``syspath_prepend``/``syspathinsert``, ``site``/``addsitedir``, or reaches names by
data (``getattr``, ``__import__``, ``importlib``, ``exec``/``eval``/``compile``,
``globals``/``vars``/``setattr``, a namespace's dunder, a frame's globals, a string's escape:
``'\\x73ys'``; s60-preview2 S), as Python reads its identifiers (``exactlists.spelled``),
makes a module named like a site folder's top name found first from any folder, a
package's too (``syspathdirs``). A module without any of them reaches ``sys.path`` only
through another module it imports: the project's source (the boundary, P1g)."""

from __future__ import annotations

from . import files as fs
from .conftestplugins import LIMIT, above_conftests, below_files
from .exactlists import spelled

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The names by which a module's code may put a folder on ``sys.path`` (see the module's text;
#: pytest's own importer, ``_pytest.pathlib.import_path`` in prepend mode: s60-preview2 S).
_MOVERS: Final = ("sys", "syspath_prepend", "syspathinsert", "site", "addsitedir", "getattr",
                  "setattr", "__import__", "importlib", "exec", "eval", "compile", "globals",
                  "vars", "__dict__", "__globals__", "__builtins__", "__subclasses__",
                  "f_globals", "f_locals", "pkgutil", "runpy", "_pytest", "import_path")


def moves_path(folder: str) -> bool:
    """Whether a conftest pytest may load for the collecting ``folder`` (in, above or below
    it), a test module or a package's ``__init__`` below it may move ``sys.path`` (see the
    module's text); True where one cannot be read or the folders below hold too many
    entries."""
    import re

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
        if len(data) > LIMIT or re.search(rb"\\(?:x|u|U|N\{|[0-7])", data) or any(
                spelled(data, w) for w in _MOVERS):  # (a string's escape may spell any)
            return True
    return False
