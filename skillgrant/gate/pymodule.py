"""Which written files are modules a plan's Python may import in an installed one's stead
(``module_path``: a standard module's name, a site name's outside a package, pytest's own
start modules) and the folders its pytest's settings put on ``sys.path``. (The module
``python -m MODULE`` runs, read as CPython reads its command line: ``interpreters.module_run``
since session 60, where ``collectopts.pytest_start`` reads it.)"""

from __future__ import annotations

import os

from . import files as fs
from .placed import importable, shadows

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The modules ``python3 -m pytest`` imports at its start besides the standard library's
#: (pytest 9 here: ``pytest``, ``_pytest``, ``pluggy``, ``iniconfig``, its ``py`` shim): a
#: file of such a name in the folder it runs in is run in their stead (s53-greview P2).
RUNNER_MODULES: Final = frozenset(("pytest", "_pytest", "pluggy", "iniconfig", "py"))
#: The modules the standard library tries to import, an ImportError expected (3.11's:
#: ``copy``'s and ``pickle``'s ``org.python.core`` at their import, ``platform``'s ``java``,
#: ``_winreg``, ``vms_lib``, ``logging.handlers``' ``win32*``): a file of such a name first
#: on ``sys.path`` is imported (s58-preview O-STDLIB-OPTIONAL).
_TRIED: Final = frozenset(("org", "java", "_winreg", "vms_lib", "win32api", "win32con",
                           "win32evtlog", "win32evtlogutil"))


def _first_on_path(path: str | None, up: int) -> bool:
    """``syspathdirs.first_on_path``, imported where a site module's name is asked (s59-hfix:
    most plans' hooks never ask it)."""
    from .syspathdirs import first_on_path

    return first_on_path(path, up)


def module_path(key: str, path: str | None = None) -> bool:
    """Whether the folded path ``key`` is a file Python imports for a standard module (or a
    test runner's: ``RUNNER_MODULES``; or one of its site folders': ``_site_names``, pytest's
    plugins and what they import, s54-greview2 A8) before its own where its folder is first on
    ``sys.path`` (``placed.shadows``: ``json.py``, ``colorsys.pyc``, an extension module,
    ``json/__init__.py``, a distribution's metadata), that folder holding no ``__init__.py``
    (asked of ``path``, the key's spelling, when given). Asked at any depth where a plan's
    program reads project code (``testlinks.read_at_any_depth``): Python puts first on
    ``sys.path`` a script's real folder, ``-m``'s, each folder pytest's ``prepend`` mode
    inserts (a test's or a conftest's basedir, its ini's ``pythonpath``), and a build's
    recipe may run Python in any folder (s53-greview P1, P2; s52-greview M; s54-greview2
    A3, A4). A package's folder is none of pytest's (its basedir is the first folder up
    without one) and none of the plan's own scripts' or ``-m``'s folders, guarded where they
    are (``placed.shadows``); a recipe running Python in one is left open (s54-greview2 K1:
    ``mypkg/types.py``, ``mypkg/logging.py`` are everyday files). A site module's name (not
    a standard one's) is asked only in a folder a plan's Python may put on ``sys.path``
    (``syspathdirs.first_on_path``: ``tools/yaml.py`` beside no test is no import's; K2).
    So is a member of a site folder's namespace package (``acme/utils.py``, ``acme/utils/
    __init__.py`` where a site folder holds ``acme/utils.py`` and no ``acme/__init__``: the
    first portion on ``sys.path`` is taken; ``sitenames``' ``acme/utils``)."""
    head, _, name = key.rpartition("/")
    stem, dot, suffix = name.partition(".")
    module = importable(dot + suffix)
    if shadows(key, frozenset((head,))) or (module and (stem in RUNNER_MODULES or
                                                        stem in _TRIED)):
        return not _package(path, 1)
    if module and any(key.startswith(f + "/") for f in _start_folders()):
        return True  # (a module of a folder a site `.pth` adds holding a plugin; s58-pfix)
    if module and _site_name(stem):  # (only in a folder that may be on sys.path: K2)
        return not _package(path, 1) and _first_on_path(path, 1)
    above, _, package = head.rpartition("/")
    if shadows(key, frozenset((above,))) or (module and stem == "__init__" and (
            package in RUNNER_MODULES or package in _TRIED)):
        return not _package(path, 2)
    if module and stem == "__init__" and _site_name(package) and not _package(path, 2):
        return _first_on_path(path, 2)
    parts = key.split("/")  # (a site namespace's member, nested too: s57-greview2
    for up in range(2, min(5, len(parts) - 1)):  # V-NAMESPACE, N-NESTED)
        member = "/".join([*parts[-up:-1], *([] if stem == "__init__" else [stem])])
        if module and "/" in member and _site_name(member) and not _package(path, up):
            return _first_on_path(path, up)
    return False


def _site_name(name: str) -> bool:
    """Whether ``name`` is a site name of the plan's Pythons (``_site_names``): every name
    where their site folders are not known exactly (``sitenames.site_names``' None)."""
    names = _site_names()
    return names is None or name in names or name in _plugin_tops()


def _plugin_tops() -> frozenset[str]:
    """The top names of the modules the conftests, test modules and settings of the plan's
    collecting folders name as plugins (``pytestini.plugin_tops``): a conftest putting a
    folder first on ``sys.path`` (``../shared``) finds its plugin there, so its file is asked
    as a site module's is, in any folder that may be first (s60-preview P)."""
    from .guardedset import GUARDED
    from .pytestini import plugin_tops

    return plugin_tops(GUARDED.get())


def _site_names() -> frozenset[str] | None:
    """``sitenames.site_names`` of the folders the plan's programs run in and of the
    interpreters it names by a path (review s54-greview2 A8, s55-greview3 A3: a pytest
    plugin's module, or one it imports, of the plan's Python's site folders)."""
    from .guardedset import GUARDED
    from .sitenames import site_names

    guards = GUARDED.get()
    if not getattr(guards, "collected", None) and not getattr(guards, "runs_any", True):
        return frozenset()  # (no program of the plan imports a site module: no test runner,
        # no script; a plan's `-c` code imports standard ones: planruns; session 57's cost)
    return site_names(getattr(guards, "run_folders", frozenset()),
                      getattr(guards, "python_libs", frozenset()))


def _start_folders() -> tuple[str, ...]:
    """The folded real paths of the folders a site ``.pth`` of a Python of the plan adds to
    ``sys.path`` whose modules pytest may import at every start (``sitenames.plugin_folders``:
    ``vendor/`` holding a pytest plugin's package)."""
    from .guardedset import GUARDED
    from .placed import fold
    from .sitenames import plugin_folders

    guards = GUARDED.get()
    if not getattr(guards, "collected", None) and not getattr(guards, "runs_any", True):
        return ()
    return tuple(fold(fs.realpath(f)).rstrip("/") for f in plugin_folders(
        getattr(guards, "run_folders", frozenset()), getattr(guards, "python_libs",
                                                             frozenset())))


def _package(path: str | None, up: int) -> bool:
    """Whether the folder ``up`` levels above ``path`` holds an ``__init__.py`` and is named
    as a package (an identifier: pytest's ``resolve_package_path`` stops at ``my-tests``,
    which is then the basedir its ``prepend`` mode puts first; s62-greview G1), and nothing
    else puts it there (``_on_path``); False without ``path``."""
    if path is None:
        return False
    folder = path.rstrip("/")
    for _ in range(up):
        folder = folder.rpartition("/")[0]
    return folder.rpartition("/")[2].isidentifier() and fs.identity(
        (folder or "/") + "/__init__.py") is not None and not _on_path(
        folder or "/")  # (a regular file, as pytest's is_file(): s56-greview3 R2)


def _on_path(folder: str) -> bool:
    """Whether the package's ``folder`` may be first on a plan's Python's ``sys.path``
    (review s54-greview2 C3): where no plan's program collects tests (``Guarded.collected``:
    a script's, a checker's plan) or one may run Python in any folder (``Guarded.runs_any``:
    a script, a project module, make, npm, tox: a recipe's ``cd mypkg && python3 -m pytest``;
    s55-greview3 C1), and where pytest's settings above it, or above a folder the plan runs
    in or an operand of its pytest entries (``pytestini.pythonpath_folders``), name it in
    ``pythonpath``. A
    package's module is exempt only under a plan running test runners alone (s54-greview2
    K1: ``sed -i … mypkg/types.py``), whose tests are trusted not to run Python in a
    package's folder."""
    from .guardedset import GUARDED

    guards = GUARDED.get()
    if not getattr(guards, "collected", None) or getattr(guards, "runs_any", True):
        return True
    from .syspathdirs import moved

    if moved(guards):  # (a conftest's `sys.path.insert(0, dirname(__file__))` in a
        return True  # package's folder: s60-preview2 S)
    real = fs.realpath(folder)
    if {folder, real} & {os.path.normpath(f) for f in (*getattr(guards, "run_folders", ()),
                                                        *getattr(guards, "modules", ()))}:
        return True  # (a run folder, `-m`'s, first whatever it holds: s56-greview3 R1)
    from .checkersettings import pytest_settings
    from .pytestini import pythonpath_folders, words

    named = pythonpath_folders(guards)  # (an operand's ini's too: s56-greview3 O)
    return named is None or bool({folder, real} & named) or any(
        os.path.normpath(os.path.join(at, word)) in (folder, real)
        for at, _, value in pytest_settings(os.path.dirname(folder), ("pythonpath",))
        for word in words(value))
