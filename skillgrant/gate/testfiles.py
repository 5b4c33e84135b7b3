"""The test files a test runner finds by itself below the folder it runs in (issue 29, review
s49-greview2 C2, U1): ``pytest`` without a path collects the folder recursively, importing
each ``conftest.py`` and each ``test_*.py``/``*_test.py`` (its default ``python_files``) with
their packages' ``__init__.py``; ``python -m unittest`` without a name is ``discover -s . -p
'test*.py'``, importing each ``test*.py`` of the folder and of each package below it. A
runner of any program (``make``, ``tox``, a node runner) may run either. What they import is
a file of those names at any depth below each folder the plan's programs run in, and its
cached bytecode (``__pycache__/NAME.*.pyc``, a ``NAME.pyc`` beside it): ``named.Index`` guards
them by name (``collected``), as no list of items can name a file not there yet. An Edit
grant covers them (``named.planned_only``: a plan's program reads them).

The settings that move what pytest collects (``python_files``, ``testpaths``, ``-p``) are in
files already guarded (``^pytest.ini``, ``^pyproject.toml``, …), not read: a project whose
``python_files`` names other files keeps those writable (docs/decisions.md, residual).
"""

from __future__ import annotations

from . import files as fs
from .placed import fold

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The marks of ``plan_programs`` saying a plan's program collects tests by itself: pytest's
#: settings (``&pytest``), a runner of any program (``&*``); and the end of the files ``-m
#: unittest`` runs (``unittest/__main__.py``).
_COLLECTORS: Final = ("&pytest", "&*")
_UNITTEST: Final = "unittest/__main__.py"


def collects(joined: str) -> bool:
    """Whether a plan's program (its paths, each between new lines in ``joined``) collects
    tests by itself."""
    return any(f"\n{n}\n" in joined for n in _COLLECTORS) or _UNITTEST in joined


def test_folders(folders: list[str]) -> frozenset[str]:
    """The folded real paths of ``folders`` (where the plan's programs run)."""
    return frozenset(fold(fs.realpath(f)).rstrip("/") for f in folders)


def collected(key: str, guards: object) -> bool:
    """Whether the folded real path ``key`` is a test file (see the module's text) below one
    of the folders ``guards`` collects tests in (``Guarded.collected``)."""
    folders: frozenset[str] = getattr(guards, "collected", frozenset())
    if not folders or key[-3:] not in (".py", "pyc"):
        return False
    head, _, name = key.rpartition("/")
    if name.endswith(".pyc") and head.endswith("/__pycache__"):
        head = head[:-12]
    return test_name(name) and any(head == f or head.startswith(f + "/") for f in folders)


def foreign(path: str, guards: object) -> bool:
    """Whether ``guards`` collects tests and the folder ``path`` is not below a folder they
    are collected in: a tree copied from it may bring test files there (``cp -r /tmp/t
    docs``; a tree below holds the project's own, guarded as they are: ``tar -czf a.tgz .``)."""
    folders: frozenset[str] = getattr(guards, "collected", frozenset())
    key = fold(path).rstrip("/")
    return bool(folders) and not any(key == f or key.startswith(f + "/") for f in folders)


def named_test(name: str, guards: object) -> bool:
    """Whether ``guards`` collects tests and the folded ``name`` is a test file's (a word
    ending in one names a file a writer may bring into a collected folder: ``cp
    /tmp/test_x.py docs/``)."""
    return bool(getattr(guards, "collected", ())) and test_name(name)


def test_name(name: str) -> bool:
    """Whether the folded ``name`` is a test file's a runner collects, or its bytecode's
    (``test_z.cpython-311.pyc``, ``conftest.cpython-311-pytest-9.0.3.pyc``, ``test_z.pyc``)."""
    if name.endswith(".pyc"):
        name = name.split(".", 1)[0] + ".py"
    return name.endswith(".py") and (name in ("conftest.py", "__init__.py") or name.endswith(
        "_test.py") or name.startswith("test"))
