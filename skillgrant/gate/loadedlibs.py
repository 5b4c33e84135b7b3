"""The folders of the code this process loads: its shared libraries, the folders it imports
from (both moved from ``guards``); and the reading of a site folder's ``.pth`` files
(``pth_files``, ``pth_texts``, ``added_folders``: moved from ``sitenames`` and ``sitefinders``,
which use them too, so that a hook asking only its own folders loads neither: s59-hfix)."""

from __future__ import annotations

import os
import sys

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def loaded_libraries() -> list[str]:
    """The folders of the shared libraries this process has loaded (``/proc/self/maps``), as
    their real paths: a hook process loads the same at its start (whole: listing a system's
    library folder for links costs milliseconds). None where the system does not say."""
    try:  # (a service's list, kept with the set, holds a hook process's and more)
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            named = {line.split(None, 5)[-1].strip() for line in maps  # (a library's
                     if ".so" in line and "/" in line}  # name holds `.so`: others left)
    except OSError:
        return []
    folders = {os.path.dirname(p) for p in named
               if p.startswith("/") and ".so" in os.path.basename(p)}
    return sorted(folders | {fs.realpath(f) for f in folders})


def imported_from() -> dict[str, None]:
    """The folders this process (the hook's) imports from: each of its ``sys.path`` (a
    dependency a ``.pth`` adds, whose module a call could replace and the next hook run:
    review s58-hreview H1), each loaded module's (one an import hook found elsewhere), and
    its site folders with each folder their ``.pth`` lines name, there or not (site adds it
    once it is: H1b)."""
    folders = [os.path.abspath(entry) for entry in sys.path if type(entry) is str and entry]
    site = sys.modules.get("site")
    if site is not None:  # (not under -S: no .pth is read)
        sites = [*site.getsitepackages(), *(
            [site.getusersitepackages()] if site.ENABLE_USER_SITE else [])]
        folders += [*sites, *(f for s in sites for f in added_folders(s, pth_texts(pth_files(s))))]
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if type(file) is str and os.path.isabs(file):
            folders.append(os.path.dirname(file))
    folders += _finders_folders()
    kept: dict[str, None] = {}  # (one below another adds nothing)
    for folder in sorted(set(folders)):
        if not any((folder + "/").startswith(k + "/") for k in kept):
            kept[folder] = None
    return kept



def start_files() -> list[str]:
    """The files this process's interpreter reads as it starts, before any import (getpath):
    ``pyvenv.cfg`` beside its executable and one folder up (a ``home`` there makes another
    installation's library the one imported), and the ``._pth`` beside its executable and its
    real executable (review s59-hreview H2: an interpreter that is no venv, its prefix not
    guarded whole). The shared library's ``._pth`` lies in a folder ``loaded_libraries`` gives."""
    found: list[str] = []
    for executable in dict.fromkeys([sys.executable, fs.realpath(sys.executable)] if
                                    sys.executable else []):
        folder = os.path.dirname(executable)
        found += [os.path.join(folder, "pyvenv.cfg"),
                  os.path.join(os.path.dirname(folder), "pyvenv.cfg"), executable + "._pth"]
    return found

#: The import hooks whose modules come from ``sys.path`` only: the interpreter's own, this
#: package's kept modules (``modulecache``), setuptools' and virtualenv's ``distutils``
#: redirects, pytest's assertion rewriting (a test's process deciding in process).
_PATH_FINDERS = frozenset({"_frozen_importlib", "_frozen_importlib_external",
                           "skillgrant.modulecache", "_distutils_hack", "_virtualenv",
                           "_pytest.assertion.rewrite"})


def _finders_folders() -> list[str]:
    """The folders the import hooks of ``sys.meta_path`` map modules to, imported or not yet
    (a dependency installed editable: setuptools' finder's ``MAPPING`` and ``NAMESPACES``,
    s58-hreview H1c); "/" (every folder) for a hook this does not read."""
    folders: list[str] = []
    for finder in list(sys.meta_path):
        name = getattr(finder, "__module__", None)
        if name in _PATH_FINDERS:
            continue
        module = sys.modules.get(name) if type(name) is str else None
        mapping = getattr(module, "MAPPING", None)
        spaces = getattr(module, "NAMESPACES", None)
        if not (type(name) is str and name.startswith("__editable__") and
                type(mapping) is dict and type(spaces) is dict and
                all(type(v) is str for v in mapping.values()) and
                all(type(v) is list and all(type(p) is str for p in v)
                    for v in spaces.values())):
            return ["/"]
        folders += [os.path.abspath(v) for v in mapping.values()]
        folders += [os.path.abspath(p) for v in spaces.values() for p in v]
    return folders


#: The longest file read (bytes): a longer one is not known (a `.pth`, a module, a finder).
READ_LIMIT: Final = 1 << 22


def pth_texts(pths: list[str]) -> list[str | None]:
    """The text of each of the ``.pth`` files ``pths`` (its first MiB), None where it cannot
    be read."""
    texts: list[str | None] = []
    for pth in pths:
        try:
            data = fs.read(pth, READ_LIMIT + 1)
            texts.append(None if len(data) > READ_LIMIT else data.decode("utf-8", "replace"))
        except OSError:  # (a FIFO too: not waited for; a longer one: s58-preview
            # E-PTH-TRUNCATED)
            texts.append(None)
    return texts


def pth_files(folder: str) -> list[str]:
    """The ``.pth`` files of the site folder ``folder`` (site.addsitedir reads each name
    ending so, a hidden one too: s57-greview2 E-PTHCODE), sorted."""
    try:
        return sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".pth"))
    except OSError:
        return []


def added_folders(folder: str, texts: list[str | None]) -> list[str]:
    """The folders the ``.pth`` texts ``texts`` of the site folder ``folder`` add to
    ``sys.path``: each line not an ``import`` nor a comment, from ``folder``
    (site.addpackage's reading)."""
    return [os.path.join(folder, line.rstrip()) for text in texts if text is not None
            for line in text.splitlines()
            if line.strip() and not line.startswith(("#", "import ", "import\t"))]
