"""The folders a plan running test runners alone may put first on its Python's ``sys.path``
(issue 29, review s55-greview3 K2): a module named like one of the site folders' top names
(``yaml.py``, ``six.py``: ``sitenames``) is imported in the installed one's stead only from
such a folder, so ``pymodule.module_path`` asks this of a site name's module outside a
package.

Under ``python3 -m pytest`` (``prepend`` import mode, pytest's default) they are the folders
the plan's programs run in (``-m``'s, the call's: ``Guarded.run_folders``, ``modules``), the
basedir of each test module and conftest (the first folder up holding no ``__init__.py``),
and the ini's ``pythonpath``. A folder of plain helpers (``tools/yaml.py``) is none: a test
there, a conftest, an ``__init__.py`` are guarded below a collecting folder (``testfiles``:
a Bash writer cannot add one, nor remove a package's ``__init__.py``), so the folders stay
what they are for the session. Any other plan (a script, make, npm: ``Guarded.runs_any``)
or a plan collecting no tests may run Python anywhere: every folder is taken; so is one
below pytest settings naming ``python_files`` or ``pythonpath`` (read as before: the
settings decide what it collects), one a ``pythonpath`` names in the settings of a folder
the plan runs in or of its pytest operand (``pytestini.pythonpath_folders``), every one
where ``PYTEST_ADDOPTS`` is set (the session's or an entry's: ``-o pythonpath=tools``, ``-c
ci/pytest.ini``), and one whose reading is cut short; every one where a conftest pytest may
load, a test module or a package's ``__init__`` names ``sys.path`` (``pathcode.moves_path``:
``sys.path.insert(0, 'src')``, s58-preview S). (The plan's own ``-o``/``-c``
are read where its run is judged.)"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: How many entries the folders below one folder are read for before it is taken whole.
_ENTRIES: Final = 4096
#: The guarded set last asked, and each folder's answer.
_LAST: list[tuple[object, dict[str, bool]]] = []


def first_on_path(path: str | None, up: int) -> bool:
    """Whether the folder ``up`` levels above ``path`` (a real spelling; None: not known,
    taken) may be first on the ``sys.path`` of a Python the plan runs (see the module's
    text)."""
    from .guardedset import GUARDED

    guards = GUARDED.get()
    if path is None or not getattr(guards, "collected", None) or getattr(
            guards, "runs_any", True):
        return True
    folder = path.rstrip("/")
    for _ in range(up):
        folder = folder.rpartition("/")[0]
    folder = folder or "/"
    if not _LAST or _LAST[0][0] is not guards:
        _LAST[:] = [(guards, {})]
    kept = _LAST[0][1]
    if folder not in kept:
        kept[folder] = _first(folder, guards)
    return kept[folder]


def _first(folder: str, guards: object) -> bool:
    """``first_on_path`` of ``folder`` (no package's) for the guarded set ``guards``."""
    from . import files as fs
    from .checkersettings import pytest_settings
    from .environment import values

    real = fs.realpath(folder)
    runs = {os.path.normpath(f) for f in (*getattr(guards, "run_folders", ()),
                                           *getattr(guards, "modules", ()))}
    if folder in runs or real in runs or values(("PYTEST_ADDOPTS",))[0] or any(
            a.startswith("PYTEST_ADDOPTS=") for a in getattr(guards, "assigned", ())):
        return True  # (the session's or an entry's options: `-o pythonpath=tools`, `-c`)
    from .pytestini import pythonpath_folders

    if moved(guards):
        return True
    try:
        named = pythonpath_folders(guards)  # (an operand's ini's: s56-greview3 O)
        if named is None or {folder, real} & named or pytest_settings(
                folder, ("python_files", "pythonpath")):
            return True
    except ValueError:
        return True
    return _holds_tests(real, [0])


def moved(guards: object) -> bool:
    """Whether a conftest, test module or package ``__init__`` of ``guards``' run folders may
    put any folder first on ``sys.path`` (``pathcode.moves_path``), read once a guarded set
    (s58-preview S; a package's folder too: s60-preview2 S)."""
    from . import files as fs
    from .pathcode import moves_path

    if not _LAST or _LAST[0][0] is not guards:
        _LAST[:] = [(guards, {})]
    kept = _LAST[0][1]
    if "" not in kept:
        from .checkersettings import pytest_settings
        from .pytestini import anchors

        runs = [fs.realpath(f) for f in getattr(guards, "run_folders", ())]
        keys = ("testpaths", "addopts", "python_files")
        try:  # (and each anchor outside: an operand, a `testpaths` entry; s60-preview2 S)
            settings = [s for r in runs for s in pytest_settings(r, keys)]
            more = [a for r in runs for a in anchors(r, settings, guards)]
            settings += [s for a in more for s in pytest_settings(a, keys)]
        except ValueError:
            kept[""] = True
        else:
            from .pytestini import plan_words

            given = [w.split("\0") for _, _, w in plan_words(guards)]
            plugins = tuple(w[2:] or (ws[k + 1] if k + 1 < len(ws) else "") for ws in given
                            for k, w in enumerate(ws) if w[:2] == "-p")  # (the plan's own)
            kept[""] = _collects_others(settings, guards) or any(
                moves_path(f, plugins) for f in dict.fromkeys([*runs, *more]))
    return kept[""]


def _collects_others(settings: list[tuple[str, str, str]], guards: object) -> bool:
    """Whether pytest may run files ``pathcode`` does not read (s61-greview G16b): a
    ``--doctest-glob`` (each matching file's ``>>>`` lines run in pytest's process) or a
    ``python_files`` (test modules of other names) in the settings, the plan's pytest words or
    ``PYTEST_ADDOPTS`` (the session's, an entry's), spelled anywhere in them (fail closed)."""
    from .environment import values
    from .pytestini import plan_words

    texts = [v for _, key, v in settings if key != "testpaths"] + [
        w for _, _, w in plan_words(guards)] + [values(("PYTEST_ADDOPTS",))[0] or ""] + [
        a for a in getattr(guards, "assigned", ()) if a.startswith("PYTEST_ADDOPTS=")]
    return any(key == "python_files" for _, key, _ in settings) or any(
        "doctest-glob" in t or "python_files" in t for t in texts)


def _holds_tests(folder: str, count: list[int]) -> bool:
    """Whether ``folder`` holds a test module or a conftest, or a package below it does
    (their basedir is ``folder``); True where more than ``_ENTRIES`` entries were read."""
    from .placed import fold
    from .testnames import test_name

    try:
        with os.scandir(folder) as listing:
            entries = list(listing)
    except OSError:
        return False
    count[0] += len(entries)
    if count[0] > _ENTRIES:
        return True
    packages = []
    for entry in entries:
        name = fold(entry.name)
        if entry.is_dir():  # (a link to a package too: pytest follows it)
            if os.path.isfile(os.path.join(entry.path, "__init__.py")):
                packages.append(entry.path)
        elif entry.name != "__init__.py" and test_name(name):
            return True
    return any(_holds_tests(p, count) for p in packages)
