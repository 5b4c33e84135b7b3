"""The modules a Python imports at every start besides the standard ones (issue 29, review
s50-greview3 U6): each ``import`` line of a ``.pth`` file in its site folders runs then
(setuptools' ``distutils-precedence.pth`` imports ``_distutils_hack``, an editable install's
its finder, a coverage ``.pth`` ``coverage``), after ``PYTHONPATH``'s folders are on
``sys.path``: a module of such a name in one of them is imported in the site folder's place.
The names are every identifier of those lines but keywords and attributes
(``__import__('_distutils_hack')``'s string too: a name no module has costs little), from
the site folders of the Pythons a plan may run: the hook's own, the system's and the user's
(``/usr/lib/python3*/…``, ``/usr/local/…``, ``~/.local/…``), each a plan's path names
(``/work/venv/lib/``: a venv's python) and each ``PATH`` folder's
(``bin/../lib/python3*/site-packages``). ``module_items`` guards each name's files in a
folder as ``placed.shadows`` reads a standard module's."""

from __future__ import annotations

import functools
import os

from .placed import STANDARD

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The site folders of a prefix (``lib/pythonX.Y/site-packages``, Debian's ``dist-packages``,
#: ``lib/python3/dist-packages``).
_SITES: Final = ("python3*/site-packages", "python3*/dist-packages", "python3/dist-packages")
#: Where a virtual environment lies below a folder the plan's programs run in (tox's, nox's
#: environments two folders below).
_VENVS: Final = ("*", ".*", ".tox/*", ".nox/*")
#: The prefixes every plan's Python may be of (the system's, the user's).
_PREFIXES: Final = ("/usr/lib", "/usr/local/lib", "~/.local/lib")


def start_imports(named: tuple[str, ...], path: str) -> frozenset[str]:
    """The names the ``.pth`` files of the site folders above import (see the module's
    text), for the plan's paths ``named`` and the session's ``PATH`` (``path``)."""
    libs = [*_PREFIXES, *(p.rstrip("/") for p in named if p[:1] == "/" and p[-5:] == "/lib/"),
            *(os.path.join(os.path.dirname(b.rstrip("/")), "lib") for b in path.split(":")
              if b[:1] == "/")]
    return _imports(tuple(dict.fromkeys(libs)))


def _libs(path: str) -> list[str]:
    """The library folders of ``_PREFIXES``, of the hook's Python's base installation (a
    venv's), of each folder of ``path`` (a ``PATH``), and of each version a ``shims`` folder
    there runs (pyenv's ``~/.pyenv/shims``: ``~/.pyenv/versions/*/lib``)."""
    import glob
    import sys

    bins = [b.rstrip("/") for b in path.split(":") if b[:1] == "/"]
    return [*_PREFIXES, os.path.join(sys.base_prefix, "lib"),
            *(os.path.join(os.path.dirname(b), "lib") for b in bins),
            *(v for b in bins if b.endswith("/shims") for v in glob.glob(os.path.join(
                glob.escape(os.path.dirname(b)), "versions", "*", "lib")))]


def _site_folders(libs: tuple[str, ...]) -> list[str]:
    """The hook's own Python's site folders, the user's, and those of the library folders
    ``libs`` (each once)."""
    import glob  # (a hook's process that asks nothing here does not load it)
    import site

    folders = [*getattr(site, "getsitepackages", list)(), site.getusersitepackages()]
    folders += [f for lib in libs for s in _SITES
                for f in glob.glob(os.path.join(os.path.expanduser(lib), s))]
    return list(dict.fromkeys(folders))


def site_names(roots: frozenset[str], libs: frozenset[str] = frozenset()) -> frozenset[str]:
    """The top-level names (lower case) a Python of the plan imports from its site folders:
    each module file (``six.py``, an extension module) and each folder (a package, a
    namespace's part) in the site folders of the hook's Python, the system's and the user's,
    each ``PATH`` folder's (``bin/../lib/python3*/site-packages``: an active venv's), each
    virtual environment below ``roots`` (the folders the plan's programs run in: ``_VENVS``,
    ``.venv/lib/python3*/site-packages``, ``.tox/py311/…``), each library folder ``libs`` of
    an interpreter the plan names by its path (``/opt/x/venv/bin/python``'s
    ``/opt/x/venv/lib``, ``tools/env/lib``: ``Guarded.python_libs``), and each folder their
    ``.pth`` files add (a venv's ``01venv.pth`` naming another's site folder; an editable
    install's source folder, of which only modules and packages are read: ``_listing``).
    pytest imports at every start the modules its installed plugins' entry points
    (``pytest11``) name, and they import theirs (pytest-benchmark's ``pygments``), each from
    ``sys.path``, whose first folder comes first (review s54-greview2 A8): which of them a
    start imports is the plugins' code, so every name is read (``pymodule.module_path``).
    Each site folder is listed once for a process (a service keeps the listing: a plugin
    installed later is read at its restart), whatever project asks."""
    return _site_names(tuple(sorted(roots)), tuple(sorted(libs)), os.environ.get("PATH", ""))


@functools.lru_cache(maxsize=8)
def _site_names(roots: tuple[str, ...], libs: tuple[str, ...], path: str) -> frozenset[str]:
    """``site_names`` of the run folders ``roots``, the library folders ``libs`` and the
    ``PATH`` ``path``."""
    import glob

    folders = [*_path_folders(path)]
    folders += [f for root in roots for venv in _VENVS for s in _SITES
                for f in glob.glob(os.path.join(glob.escape(root), venv, "lib", s))]
    folders += [f for lib in libs for s in _SITES
                for f in glob.glob(os.path.join(glob.escape(lib), s))]
    names: set[str] = set()
    for folder in dict.fromkeys(folders):
        names |= _listing(folder)
    return frozenset(names)


@functools.lru_cache(maxsize=8)
def _path_folders(path: str) -> tuple[str, ...]:
    """The site folders of the hook's Python, the system's, the user's and those of the
    ``PATH`` ``path`` (``_libs``): no project's."""
    return tuple(_site_folders(tuple(dict.fromkeys(_libs(path)))))


@functools.lru_cache(maxsize=256)
def _listing(folder: str) -> frozenset[str]:
    """The top-level names of the site folder ``folder`` (every module file, every folder)
    and of each folder its ``.pth`` files add: another site folder's alike, a source
    folder's (an editable install's project, ``/work/main``) only its modules and regular
    packages (a folder holding an ``__init__`` module): its plain folders (``tests``,
    ``docs``) are no distribution's namespace (review s55: ``tests/__init__.py`` was denied
    under the editable dev venv only)."""
    names = _top_names(folder, True) | _plugin_tops(folder)
    for added in _pth_folders(folder):
        names |= _top_names(added, os.path.basename(added.rstrip("/")) in (
            "site-packages", "dist-packages"))
    return frozenset(names)


def _plugin_tops(folder: str) -> set[str]:
    """The top-level names of the modules the ``pytest11`` entry points of the distributions
    installed in the site folder ``folder`` name (``acme.testing.plugin``: ``acme``): an
    editable install's module lives elsewhere, found by its ``.pth`` finder's mapping or a
    namespace portion in its source folder (s56-greview3 E1, N1)."""
    import glob

    names: set[str] = set()
    for path in glob.glob(os.path.join(glob.escape(folder), "*.dist-info", "entry_points.txt")):
        try:
            with open(path, "rb") as f:
                text = f.read(1 << 20).decode("utf-8", "replace")
        except OSError:
            continue
        section = ""
        for line in text.splitlines():
            line = line.strip()
            if line[:1] == "[":
                section = line.strip("[] ")
            elif section == "pytest11" and "=" in line:
                top = line.partition("=")[2].strip().split(":")[0].split(".")[0].strip()
                if top.isidentifier():
                    names.add(top.lower() if top.isascii() else top)
    return names


def _top_names(folder: str, plain: bool) -> set[str]:
    """The names of ``folder``'s module files and folders (``plain``: every folder; else a
    package's only), lower case."""
    from .placed import fold, importable

    names: set[str] = set()
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                stem, dot, suffix = entry.name.partition(".")
                if stem.isidentifier() and (importable(dot + suffix) if dot else (
                        stem != "__pycache__" and entry.is_dir() and (
                            plain or _regular(entry.path)))):
                    names.add(stem.lower() if stem.isascii() else fold(stem))
    except OSError:
        pass
    return names


def _regular(folder: str) -> bool:
    """Whether ``folder`` holds an ``__init__`` module (a regular package)."""
    from .placed import importable

    try:
        with os.scandir(folder) as entries:
            return any(e.name.partition(".")[0] == "__init__" and importable(
                "." + e.name.partition(".")[2]) for e in entries)
    except OSError:
        return False


def _pth_folders(folder: str) -> list[str]:
    """The folders the ``.pth`` files of the site folder ``folder`` add to ``sys.path`` (each
    line not an ``import`` nor a comment, from ``folder``: site.addpackage's reading)."""
    import glob

    found = []
    for pth in glob.glob(os.path.join(glob.escape(folder), "*.pth")):
        try:
            with open(pth, "rb") as f:
                text = f.read(1 << 20).decode("utf-8", "replace")
        except OSError:
            continue
        found += [os.path.join(folder, line.rstrip()) for line in text.splitlines()
                  if line.strip() and not line.startswith(("#", "import ", "import\t"))]
    return found


@functools.lru_cache(maxsize=8)
def _imports(libs: tuple[str, ...]) -> frozenset[str]:
    """``start_imports`` of the prefixes' library folders ``libs``."""
    import glob  # (with contextlib: a hook's process that asks nothing here loads neither)

    names: set[str] = set()
    for folder in _site_folders(libs):
        for pth in sorted(glob.glob(os.path.join(glob.escape(folder), "*.pth"))):
            try:
                with open(pth, "rb") as f:
                    text = f.read(1 << 20).decode("utf-8", "replace")
            except OSError:
                continue
            for line in text.splitlines():
                if line.startswith(("import ", "import\t")):  # (site.addpackage's test)
                    names |= _names(line)
    return frozenset(names - STANDARD)


def _names(line: str) -> set[str]:
    """The identifiers of ``line`` (in its strings too) that may name a top-level module: not
    a keyword, not an attribute's (after a ``.``: ``os.environ``; a dotted module's first part
    names its package)."""
    import keyword

    spaced = "".join(c if c.isalnum() or c in "_." else " " for c in line)
    return {w for word in spaced.split() for w in word.split(".")[:1]
            if w.isidentifier() and not keyword.iskeyword(w)}


#: The suffixes of a module's files in a folder (``placed.importable``): source, bytecode,
#: an extension module of any CPython 3's tags (``.cpython-311-x86_64-linux-gnu.so``).
def _suffixes() -> tuple[str, ...]:
    import importlib.machinery as m
    import sys

    own = f"{sys.version_info[0]}{sys.version_info[1]}"
    tagged = [s for s in m.EXTENSION_SUFFIXES if own in s]
    return (".py", ".pyc", ".so", ".abi3.so", *(
        s.replace(own, f"3{v}{t}") for s in tagged for v in range(6, 16) for t in ("", "t")))


def module_items(folders: list[str], names: frozenset[str]) -> list[tuple[str, bool]]:
    """Each of ``names``' module files in each of ``folders`` (a package's folder whole)."""
    suffixes = _suffixes()
    return [(os.path.join(f, n + s), s == "") for f in folders for n in sorted(names)
            for s in ("", *suffixes)]
