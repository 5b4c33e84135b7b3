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

from .loadedlibs import added_folders, pth_files, pth_texts
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
            *(os.path.join(os.path.dirname(os.path.expanduser(b).rstrip("/")), "lib")
              for b in path.split(":") if b[:1] in "/~" and b)]
    return _imports(tuple(dict.fromkeys(libs)))


def _site_folders(libs: tuple[str, ...]) -> list[str]:
    """The hook's own Python's site folders, the user's, and those of the library folders
    ``libs`` (each once)."""
    import glob  # (a hook's process that asks nothing here does not load it)
    import site

    folders = [*getattr(site, "getsitepackages", list)(), site.getusersitepackages()]
    folders += [f for lib in libs for s in _SITES
                for f in glob.glob(os.path.join(os.path.expanduser(lib), s))]
    return list(dict.fromkeys(folders))


def site_names(roots: frozenset[str], libs: frozenset[str] = frozenset()) -> frozenset[str] | None:
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
    installed later is read at its restart), whatever project asks.

    The interpreters are resolved as CPython's ``getpath`` finds its prefix (session 57,
    s56-greview3 V): each ``python*`` of a ``PATH`` folder and each the plan names by its
    path (``interpreter_libs``): a virtual environment's ``pyvenv.cfg`` (beside the
    interpreter or one folder up) gives its own ``lib`` and, with system site packages, its
    ``home``'s installation's; any other's prefix is found from its real path (a link
    followed) up to the standard library's landmark. The session's ``PYTHONPATH`` folders
    holding a distribution's metadata (``pip install --target``'s) are read as site folders
    (their entry points are pytest's too). None (every name is one) where an interpreter's
    site folders cannot be known exactly: a script in an interpreter's stead (a version
    manager's shim but pyenv's and asdf's, whose installs are read), a prefix without the
    landmark, a ``pyvenv.cfg`` not read, an editable finder's mapping not read."""
    from .environment import values

    extra, home, platlib = values(("PYTHONPATH", "PYTHONHOME", "PYTHONPLATLIBDIR"))
    if platlib not in (None, "", "lib"):
        return None  # (`prefix/lib64/python3.X/site-packages` too: s58-preview T-PLATLIBDIR)
    return _site_names(tuple(sorted(roots)), _with_user(libs), os.environ.get("PATH", ""),
                       extra or "", home or "")


def sys_path_folders(roots: frozenset[str], libs: frozenset[str]) -> list[str] | None:
    """The folders after the first a Python of the plan (``site_names``' ``roots``,
    ``libs``) imports from: the session's ``PYTHONPATH`` folders, its site folders and each
    folder their ``.pth`` files add; None where not known exactly (``site_names``)."""
    from .environment import values

    extra, home = values(("PYTHONPATH", "PYTHONHOME"))
    folders = _folders(tuple(sorted(roots)), _with_user(libs), os.environ.get("PATH", ""),
                       extra or "", home or "")
    if folders is None or site_names(roots, libs) is None:
        return None
    return [*_given_folders(extra or "", tuple(sorted(roots))), *folders,
            *(p for f in folders for p in _pth_folders(f))]


def plugin_folders(roots: frozenset[str], libs: frozenset[str]) -> tuple[str, ...]:
    """The folders a site folder's ``.pth`` adds to ``sys.path`` (of a Python of the plan:
    ``site_names``' ``roots``, ``libs``) whose modules pytest may import at every start: one
    holding a pytest plugin (a ``pytest11`` entry point's module of any site folder, or its
    own distribution's), or outside the plan's run folders ``roots`` (s58-pfix: ``vendor/``
    holding a plugin's package was written freely); an editable install's source folder in
    the project holding none is the project's code (its tests import it). None of them where
    the site folders are not known (every module is then a site name)."""
    from .environment import values

    extra, home = values(("PYTHONPATH", "PYTHONHOME"))
    return _plugin_folders(tuple(sorted(roots)), _with_user(libs), os.environ.get(
        "PATH", ""), extra or "", home or "")


def _with_user(libs: frozenset[str]) -> tuple[str, ...]:
    """``libs`` and the session's ``PYTHONUSERBASE``'s ``lib`` (its user sites of every
    version; s58-preview T-USERBASE-VERSION), sorted."""
    from .environment import values

    base = values(("PYTHONUSERBASE",))[0]
    extra = {os.path.join(os.path.expanduser(base), "lib")} if base else set()
    return tuple(sorted(libs | extra))


@functools.lru_cache(maxsize=8)
def _plugin_folders(roots: tuple[str, ...], libs: tuple[str, ...], path: str, extra: str,
                    home: str) -> tuple[str, ...]:
    """``plugin_folders`` of ``_site_names``' arguments."""
    from .sitearchives import plugin_tops

    folders = _folders(roots, libs, path, extra, home)
    if folders is None:
        return ()
    added = [a for f in folders for a in _pth_folders(f) if os.path.isdir(a)]
    tops = {t for f in (*folders, *added) for t in plugin_tops(f)}
    return tuple(dict.fromkeys(os.path.normpath(a) for a in added if plugin_tops(a) or not any(
        os.path.normpath(a) == r or os.path.normpath(a).startswith(r.rstrip("/") + "/")
        for r in roots) or tops & _top_names(a, True)))


@functools.lru_cache(maxsize=8)
def _site_names(roots: tuple[str, ...], libs: tuple[str, ...], path: str, extra: str,
                home: str) -> frozenset[str] | None:
    """``site_names`` of the run folders ``roots``, the library folders and interpreters
    ``libs``, the ``PATH`` ``path``, the ``PYTHONPATH`` ``extra`` and ``PYTHONHOME``
    ``home``."""
    folders = _folders(roots, libs, path, extra, home)
    if folders is None:
        return None
    names: set[str] = set()
    before = tuple(_given_folders(extra, roots))  # (first on sys.path: E-PRESENT-PYTHONPATH)
    for folder in folders:
        listed = _listing(folder, before, tuple(folders))
        if listed is None:
            return None
        names |= listed | _source_members(folder, roots)
    return frozenset(names)


@functools.lru_cache(maxsize=8)
def _folders(roots: tuple[str, ...], libs: tuple[str, ...], path: str, extra: str,
             home: str) -> list[str] | None:
    """The site folders of ``_site_names``' arguments (each once); None where an
    interpreter's are not known."""
    import glob

    from .interpreters import interpreter_libs, is_interpreter, venv_libs
    from .sitearchives import archive_split

    found = _path_folders(path, home)
    if found is None:
        return None
    folders = [*found]
    folders += [f for root in roots for venv in _VENVS for s in _SITES
                for f in glob.glob(os.path.join(glob.escape(root), venv, "lib", s))]
    for lib in libs:  # (an interpreter's path, or a prefix's `lib`: a venv's, its base's)
        venv = [] if is_interpreter(os.path.basename(lib)) else venv_libs(os.path.dirname(lib))
        read = interpreter_libs(lib) if venv == [] and is_interpreter(os.path.basename(
            lib)) else None if venv is None else [lib, *venv]
        if read is None:
            return None
        folders += [f for at in read for s in _SITES
                    for f in glob.glob(os.path.join(glob.escape(at), s))]
    folders += [f for f in _given_folders(extra, roots) if os.path.isfile(f) or (
        not os.path.exists(f) and archive_split(f)) or glob.glob(
        os.path.join(glob.escape(f), "*.[de][ig][sg]*-info")) or not any(
        f == r or f.startswith(r.rstrip("/") + "/") for r in roots)]  # (a PYTHONPATH folder:
    # its modules a plugin may import (s58-preview E-PYTHONPATH-NAMES) but the project's own
    # (K-PYTHONPATH-DOT: `PYTHONPATH=.`), its distributions' entry points, an archive's)
    return list(dict.fromkeys(folders))


def _given_folders(value: str, roots: tuple[str, ...]) -> list[str]:
    """The folders of the ``PYTHONPATH`` ``value`` (a relative one from each of ``roots``)."""
    return [os.path.normpath(p if p[:1] == "/" else os.path.join(r, p))
            for p in value.split(":") if p for r in ([""] if p[:1] == "/" else roots)]


@functools.lru_cache(maxsize=8)
def _path_folders(path: str, home: str = "") -> tuple[str, ...] | None:
    """The site folders of the hook's Python, the system's, the user's and those of the
    interpreters of the ``PATH`` ``path`` (``interpreters.path_libs``) and of the
    ``PYTHONHOME`` ``home``: no project's; None where an interpreter's are not known
    (``interpreter_libs``)."""
    from .interpreters import path_libs

    libs = path_libs(path, _PREFIXES)
    if libs is None:
        return None
    return tuple(_site_folders(tuple(dict.fromkeys([*libs, *(
        os.path.join(h, "lib") for h in home.split(":") if h)]))))  # (`prefix:exec_prefix`:
    # s58-preview T-PYTHONHOME-PAIR)


@functools.lru_cache(maxsize=256)
def _listing(folder: str, before: tuple[str, ...] = (),
             after: tuple[str, ...] = ()) -> frozenset[str] | None:
    """The top-level names of the site folder ``folder`` (every module file, every folder)
    and of each folder its ``.pth`` files add: another site folder's alike, a source
    folder's (an editable install's project, ``/work/main``) too: its plain folders
    (``acme`` of ``src/acme/utils/``) are namespaces a module of their name written first
    on ``sys.path`` takes the place of (s57-greview2 N-EDITABLE-SRC; the cost: a project's
    ``tests.py``, ``tests/__init__.py`` under its own editable dev venv; their members:
    ``_source_members``); and in each of them the top names of the modules
    its distributions' ``pytest11`` entry points name (``_plugin_tops``) and those an
    editable finder maps (``_finder_tops``), its ``.pth`` lines' modules read in ``before``
    too. None where a finder's mapping cannot be read."""
    from .sitearchives import archive_split, archive_tops, plugin_tops
    from .sitefinders import finder_tops

    inside = None if os.path.exists(folder) else archive_split(folder)
    if os.path.isfile(folder) or inside:  # (an archive: a PYTHONPATH zip, s57-greview2
        read = archive_tops(*(inside or (folder, "")))  # E-EGGZIP; a folder in one)
        return None if read is None else frozenset(read)
    names = _top_names(folder, True) | plugin_tops(folder) | _namespace_members(folder)
    mapped = finder_tops(folder, pth_files(folder), line_names, before, after)
    if mapped is None:
        return None
    names |= mapped
    for added in _pth_folders(folder):
        if os.path.isfile(added):  # (a zipped egg easy-install.pth lists)
            read = archive_tops(added)
            if read is None:
                return None
            names |= read
            continue
        names |= _top_names(added, None) | plugin_tops(added)
    return frozenset(names)


def _source_members(folder: str, roots: tuple[str, ...]) -> set[str]:
    """The namespace members (``_namespace_members``) of each folder the ``.pth`` files of
    the site folder ``folder`` add (an editable install's source folder: s57-greview2
    N-EDITABLE-SRC) but one in, above or below a folder of ``roots`` (the plan's run
    folders: the project installed into its own venv, whose files are the project's)."""
    found: set[str] = set()
    for added in _pth_folders(folder):
        real = os.path.normpath(added)
        if os.path.isdir(real) and not any(real == r or real.startswith(r.rstrip("/") + "/") or
                                           r.startswith(real.rstrip("/") + "/") for r in roots):
            found |= _namespace_members(real, False)
    return found


def _namespace_members(folder: str, tests: bool = True) -> set[str]:
    """``NAMESPACE/MEMBER`` (lower case) for each module and folder of each namespace
    package of the site folder ``folder`` (a top folder holding no ``__init__`` module):
    a project's folder of that name first on ``sys.path`` is the namespace's first portion
    (s57-greview2 V-NAMESPACE); but (not ``tests``: a source folder's) a test folder's."""
    from .testnames import tests_folder

    found: set[str] = set()
    try:
        with os.scandir(folder) as entries:
            tops = [e.path for e in entries if e.name.isidentifier() and e.is_dir() and (
                tests or not tests_folder(e.path))]
    except OSError:
        return found
    for top in tops:
        found |= _members(top, os.path.basename(top).lower(), 3)
    return found


def _members(folder: str, name: str, depth: int) -> set[str]:
    """``_namespace_members`` of the folder ``folder`` spelled ``name``: none where it is a
    regular package; else each of its entries, and (to ``depth`` levels) those of each
    namespace below (``google/cloud/storage``)."""
    if depth == 0 or _regular(folder):
        return set()
    found = {f"{name}/{m}" for m in _top_names(folder, True)}
    try:
        with os.scandir(folder) as entries:
            below = [e for e in entries if e.name.isidentifier() and e.is_dir()]
    except OSError:
        return found
    for entry in below:
        found |= _members(entry.path, f"{name}/{entry.name.lower()}", depth - 1)
    return found


def _top_names(folder: str, plain: bool | None) -> set[str]:
    """The names of ``folder``'s module files and folders (``plain``: every folder; None:
    every one but a test folder, an editable install's source folder's ``tests/``, no
    distribution's namespace: s58-pfix; False: a package's only), lower case."""
    from .placed import fold, importable
    from .testnames import tests_folder

    names: set[str] = set()
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                stem, dot, suffix = entry.name.partition(".")
                if stem.isidentifier() and (importable(dot + suffix) if dot else (
                        stem != "__pycache__" and entry.is_dir() and (
                            plain or _regular(entry.path) or (
                                plain is None and not tests_folder(entry.path))))):
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
    """The folders the ``.pth`` files of the site folder ``folder`` that can be read add to
    ``sys.path`` (``sitefinders.added_folders``)."""
    return added_folders(folder, pth_texts(pth_files(folder)))


@functools.lru_cache(maxsize=8)
def _imports(libs: tuple[str, ...]) -> frozenset[str]:
    """``start_imports`` of the prefixes' library folders ``libs``."""
    names: set[str] = set()
    for folder in _site_folders(libs):
        for text in pth_texts(pth_files(folder)):
            for line in (text or "").splitlines():
                if line.startswith(("import ", "import\t")):  # (site.addpackage's test)
                    names |= line_names(line)
    return frozenset(names - STANDARD)


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


def line_names(line: str) -> set[str]:
    """The identifiers of ``line`` (in its strings too) that may name a top-level module: not
    a keyword, not an attribute's (after a ``.``: ``os.environ``; a dotted module's first part
    names its package)."""
    import keyword

    spaced = "".join(c if c.isalnum() or c in "_." else " " for c in line)
    return {w for word in spaced.split() for w in word.split(".")[:1]
            if w.isidentifier() and not keyword.iskeyword(w)}
