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

import os

from . import files as fs
from .placed import fold

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

#: The marks of ``plan_programs`` saying a plan's program collects tests by itself: pytest's
#: settings (``&pytest``), a runner of any program (``&*``); and the end of the files ``-m
#: unittest`` runs (``unittest/__main__.py``).
_COLLECTORS: Final = ("&pytest", "&*")
#: pytest's options that take no value (pytest 9.0.3's parser, as ``pytest --help`` lists
#: them: ``nargs=0``; ``--debug`` and ``--cache-show`` take an optional one, so are not here),
#: and the short clusters of them the gate has read since session 44 (``-ra``: ``-r``'s value).
PYTEST_FLAGS: Final = frozenset((
    "--cache-clear", "--co", "--collect-in-virtualenv", "--collect-only", "--collectonly",
    "--continue-on-collection-errors", "--disable-plugin-autoload", "--disable-pytest-warnings",
    "--disable-warnings", "--doctest-continue-on-failure", "--doctest-ignore-import-errors",
    "--doctest-modules", "--exitfirst", "--failed-first", "--ff", "--fixtures",
    "--fixtures-per-test", "--force-short-summary", "--full-trace", "--fulltrace", "--funcargs",
    "--help", "--keep-duplicates", "--keepduplicates", "--last-failed", "--lf", "--markers",
    "--new-first", "--nf", "--no-fold-skipped", "--no-header", "--no-showlocals",
    "--no-summary", "--noconftest", "--pdb", "--pyargs", "--quiet", "--runxfail",
    "--setup-only", "--setup-plan", "--setup-show", "--setuponly", "--setupplan", "--setupshow",
    "--showlocals", "--stepwise", "--stepwise-reset", "--stepwise-skip", "--strict",
    "--strict-config", "--strict-markers", "--sw", "--sw-reset", "--sw-skip", "--trace",
    "--trace-config", "--traceconfig", "--verbose", "--version", "--xfail-tb", "-V", "-h", "-l",
    "-q", "-s", "-v", "-x", "-qq", "-vv", "-vvv", "-ra", "-rA"))
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
    if not folders or key[-3:] not in (".py", "pyc", ".so", "pyd"):
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
    (``test_z.cpython-311.pyc``, ``conftest.cpython-311-pytest-9.0.3.pyc``, ``test_z.pyc``), or
    an extension module's of its name (``test_z.abi3.so``, ``.cpython-*.so``, ``.pyd``: it is
    imported in the source's stead; s50-greview3 C2)."""
    if name.endswith((".pyc", ".so", ".pyd")):  # (an extension module shadows NAME.py: C2)
        name = name.split(".", 1)[0] + ".py"
    return name.endswith(".py") and (name in ("conftest.py", "__init__.py") or name.endswith(
        "_test.py") or name.startswith("test"))


def removed_folder(words: list[str], directory: str | None,
                   touches: Callable[[str], bool]) -> str | None:
    """A folder a program removes, clears or makes its own tree in, that ``touches`` a guarded
    item (is one, holds one, lies in one) or the gate cannot name (an expansion, a pattern,
    ``~user``, a relative one with no folder): pytest's ``--basetemp`` value (apart or after
    ``=``; removed whole before its first ``tmp_path``: s50-greview B1, the home, a main
    checkout beside a worktree), ``python -m venv``'s and ``virtualenv``'s operands (``--clear``
    empties them; any makes ``bin/``, ``lib/``, ``pyvenv.cfg`` there: V1); each word after
    ``venv`` not an option is read as one."""
    for at, word in enumerate(words):
        if word.startswith("--basetemp"):
            values = [word.partition("=")[2] or (words[at + 1] if at + 1 < len(words) else "")]
        elif word in ("venv", "-mvenv", "virtualenv") or word.endswith("/virtualenv"):
            values = [w for w in words[at + 1:] if w[:1] != "-"] or ["."]
        else:
            continue
        for value in values:
            if _unnamed(value, directory):
                return value or word
            path = os.path.normpath(os.path.join(directory or "/", os.path.expanduser(value)))
            if touches(path) or touches(fs.realpath(path)):
                return value
    return None


def _unnamed(value: str, directory: str | None) -> bool:
    """Whether the gate cannot name the folder ``value`` (from ``directory``) names."""
    return not value or any(c in value for c in "$`*?[{") or (
        value[:1] == "~" and value[:2] != "~/" and value != "~") or (
        directory is None and value[:1] not in ("/", "~"))
