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


def _libs(path: str) -> list[str] | None:
    """The library folders of ``_PREFIXES``, of the hook's Python's base installation (a
    venv's), of each folder of ``path`` (a ``PATH``) and of each interpreter there
    (``interpreter_libs``: a link's installation, a venv's base, the versions a pyenv or asdf
    shim runs); None where one's cannot be known."""
    import sys

    bins = [b.rstrip("/") for b in path.split(":") if b[:1] == "/"]
    found = [*_PREFIXES, os.path.join(sys.base_prefix, "lib"),
             *(os.path.join(os.path.dirname(b), "lib") for b in bins)]
    for b in dict.fromkeys(bins):
        try:
            with os.scandir(b) as entries:
                exes = [e.path for e in entries if _INTERPRETER(e.name)]
        except OSError:
            continue
        for exe in exes:
            more = interpreter_libs(exe)
            if more is None:
                return None
            found += [m for m in more if m not in found]
    return found


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

    extra, home = values(("PYTHONPATH", "PYTHONHOME"))
    return _site_names(tuple(sorted(roots)), tuple(sorted(libs)), os.environ.get("PATH", ""),
                       extra or "", home or "")


@functools.lru_cache(maxsize=8)
def _site_names(roots: tuple[str, ...], libs: tuple[str, ...], path: str, extra: str,
                home: str) -> frozenset[str] | None:
    """``site_names`` of the run folders ``roots``, the library folders and interpreters
    ``libs``, the ``PATH`` ``path``, the ``PYTHONPATH`` ``extra`` and ``PYTHONHOME``
    ``home``."""
    import glob

    found = _path_folders(path, home)
    if found is None:
        return None
    folders = [*found]
    folders += [f for root in roots for venv in _VENVS for s in _SITES
                for f in glob.glob(os.path.join(glob.escape(root), venv, "lib", s))]
    for lib in libs:  # (an interpreter's path, or a prefix's `lib`: a venv's, its base's)
        venv = [] if _INTERPRETER(os.path.basename(lib)) else _venv_libs(os.path.dirname(lib))
        read = interpreter_libs(lib) if venv == [] and _INTERPRETER(os.path.basename(
            lib)) else None if venv is None else [lib, *venv]
        if read is None:
            return None
        folders += [f for at in read for s in _SITES
                    for f in glob.glob(os.path.join(glob.escape(at), s))]
    folders += [f for f in _given_folders(extra, roots) if glob.glob(os.path.join(
        glob.escape(f), "*.[de][ig][sg]*-info"))]  # (a PYTHONPATH folder of distributions)
    names: set[str] = set()
    for folder in dict.fromkeys(folders):
        listed = _listing(folder)
        if listed is None:
            return None
        names |= listed
    return frozenset(names)


def _given_folders(value: str, roots: tuple[str, ...]) -> list[str]:
    """The folders of the ``PYTHONPATH`` ``value`` (a relative one from each of ``roots``)."""
    return [os.path.normpath(p if p[:1] == "/" else os.path.join(r, p))
            for p in value.split(":") if p for r in ([""] if p[:1] == "/" else roots)]


def _INTERPRETER(name: str) -> bool:
    """Whether ``name`` is an interpreter's (``python``, ``python3``, ``python3.11``)."""
    return name.startswith("python") and all(c.isdigit() or c == "." for c in name[6:])


@functools.lru_cache(maxsize=8)
def _path_folders(path: str, home: str = "") -> tuple[str, ...] | None:
    """The site folders of the hook's Python, the system's, the user's and those of the
    interpreters of the ``PATH`` ``path`` (``_libs``) and of the ``PYTHONHOME`` ``home``: no
    project's; None where an interpreter's are not known (``interpreter_libs``)."""
    libs = _libs(path)
    if libs is None:
        return None
    return tuple(_site_folders(tuple(dict.fromkeys([*libs, *(
        [os.path.join(home, "lib")] if home else [])]))))


def interpreter_libs(exe: str) -> list[str] | None:
    """The library folders (``PREFIX/lib``) whose site folders the interpreter at ``exe``
    reads at its start, found as CPython's ``getpath`` does (see ``site_names``): [] where no
    file is there; None where they cannot be known exactly."""
    real = os.path.realpath(exe)
    try:
        with open(real, "rb") as f:
            magic = f.read(4)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError:
        return None
    if magic != b"\x7fELF" and magic[:4] != b"\xcf\xfa\xed\xfe":  # (a script: a shim)
        return _shimmed(os.path.dirname(exe))
    for folder in (os.path.dirname(exe), os.path.dirname(os.path.dirname(exe))):
        venv = _venv_libs(folder)
        if venv is None or venv:
            return venv  # (a venv's: pyvenv.cfg beside the interpreter or one folder up)
    found = []
    for at in dict.fromkeys((exe, real)):
        prefix = _landmark(os.path.dirname(at))
        if prefix is None:
            return None
        found.append(os.path.join(prefix, "lib"))
    return list(dict.fromkeys(found))


def _venv_libs(prefix: str) -> list[str] | None:
    """The library folders of the virtual environment at ``prefix`` (its own, and unless
    every ``include-system-site-packages`` line says false, each ``home``'s installation's);
    [] where it is none (no ``pyvenv.cfg``); None where its file cannot be read or a base
    is not known."""
    cfg = os.path.join(prefix, "pyvenv.cfg")
    try:
        with open(cfg, "rb") as f:
            text = f.read(1 << 16).decode()
    except (FileNotFoundError, NotADirectoryError):
        return []
    except (OSError, ValueError):
        return None
    read = [(k.strip().lower(), v.strip()) for k, _, v in (
        line.partition("=") for line in text.splitlines()) if _]
    found = [os.path.join(prefix, "lib")]
    system = [v.lower() for k, v in read if k == "include-system-site-packages"]
    if system and all(v == "false" for v in system):  # (site.venv: "true" unless a line
        return found  # says otherwise, the last one read; each taken)
    homes = [v for k, v in read if k == "home"]  # (getpath takes the first: each taken)
    if not homes or any(h[:1] != "/" for h in homes):
        return None
    for home in homes:
        more = _home_libs(home)
        if more is None:
            return None
        found += [m for m in more if m not in found]
    return found


def _home_libs(home: str) -> list[str] | None:
    """The library folders of the base installation a venv's ``home`` names: the prefix
    getpath finds searching up from it (unresolved), and each of its interpreters' links'
    installations; None where one is not known."""
    import glob

    base = _landmark(home)
    if base is None:
        return None
    found = [os.path.join(base, "lib")]
    for exe in glob.glob(os.path.join(glob.escape(home), "python*")):
        if _INTERPRETER(os.path.basename(exe)) and os.path.realpath(exe) != exe:
            more = interpreter_libs(exe)  # (a link: its installation's too)
            if more is None:
                return None
            found += [m for m in more if m not in found]
    return found


def _landmark(folder: str) -> str | None:
    """The prefix CPython finds searching up from ``folder`` for its standard library's
    landmark (``lib/python3.X/os.py``, ``lib/python3X.zip``); None where none is found (its
    compiled-in prefix: not known here)."""
    import glob

    at = folder.rstrip("/") or "/"
    while True:
        lib = os.path.join(glob.escape(at), "lib")
        if glob.glob(os.path.join(lib, "python[23]*", "os.py")) or glob.glob(
                os.path.join(lib, "python[23]*.zip")):
            return at
        if at == "/":
            return None
        at = os.path.dirname(at)


@functools.lru_cache(maxsize=16)
def _shimmed(folder: str) -> list[str] | None:
    """The library folders of the installations a version manager's shim in ``folder`` may
    run (pyenv's ``shims/../versions/*``, asdf's ``shims/../installs/python/*``: each, read as
    an interpreter); None for any other script in an interpreter's stead."""
    import glob

    if os.path.basename(folder) != "shims":
        return None
    top = glob.escape(os.path.dirname(folder))
    installs = [*glob.glob(os.path.join(top, "versions", "*")),
                *glob.glob(os.path.join(top, "installs", "python", "*"))]
    if not installs:
        return None
    found: list[str] = []
    for install in installs:
        for at in glob.glob(os.path.join(glob.escape(install), "bin", "python*")):
            if _INTERPRETER(os.path.basename(at)):
                more = interpreter_libs(at)
                if more is None:
                    return None
                found += [m for m in more if m not in found]
        found += [os.path.join(install, "lib")]
    return list(dict.fromkeys(found))


@functools.lru_cache(maxsize=256)
def _listing(folder: str) -> frozenset[str] | None:
    """The top-level names of the site folder ``folder`` (every module file, every folder)
    and of each folder its ``.pth`` files add: another site folder's alike, a source
    folder's (an editable install's project, ``/work/main``) only its modules and regular
    packages (a folder holding an ``__init__`` module): its plain folders (``tests``,
    ``docs``) are no distribution's namespace (review s55: ``tests/__init__.py`` was denied
    under the editable dev venv only); and in each of them the top names of the modules
    its distributions' ``pytest11`` entry points name (``_plugin_tops``) and those an
    editable finder maps (``_finder_tops``). None where a finder's mapping cannot be read."""
    names = _top_names(folder, True) | _plugin_tops(folder)
    mapped = _finder_tops(folder)
    if mapped is None:
        return None
    names |= mapped
    for added in _pth_folders(folder):
        names |= _top_names(added, os.path.basename(added.rstrip("/")) in (
            "site-packages", "dist-packages")) | _plugin_tops(added)
    return frozenset(names)


def _finder_tops(folder: str) -> set[str] | None:
    """The top-level names the editable finders of the site folder ``folder`` map
    (setuptools' ``__editable___NAME_finder.py``, which a ``.pth`` imports and appends to
    ``sys.meta_path``: its ``MAPPING`` and ``NAMESPACES``, literal dicts; s56-greview3 E):
    each a module found outside every site folder. None where a finder module there is not
    read so (its text not literal)."""
    import ast
    import glob

    names: set[str] = set()
    for path in glob.glob(os.path.join(glob.escape(folder), "__editable__*finder.py")):
        try:
            with open(path, "rb") as f:
                tree = ast.parse(f.read(1 << 22))
        except (OSError, SyntaxError, ValueError):
            return None
        read = 0
        for statement in tree.body:
            if not isinstance(statement, (ast.Assign, ast.AnnAssign)):
                continue
            target = statement.target if isinstance(statement, ast.AnnAssign) else \
                statement.targets[0] if len(statement.targets) == 1 else None
            if not isinstance(target, ast.Name) or target.id not in ("MAPPING", "NAMESPACES"):
                continue
            try:
                value = ast.literal_eval(statement.value) if statement.value else None
            except ValueError:
                return None
            if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
                return None
            names |= {k.split(".")[0].lower() for k in value}
            read += target.id == "MAPPING"
        if not read:
            return None
    return names if _finders_read(folder) else None


#: What a module's text holds where it may put a finder after the path's (``sys.meta_path``
#: appended to, extended, assigned, indexed, inserted into but at its start; a path hook).
_APPENDS: Final = (rb"meta_path\s*(?:\.\s*(?:append|extend)|\.\s*insert\s*\(\s*(?!0\s*,)|"
                   rb"\+=|=(?!=)|\[)|path_hooks|setattr\s*\(\s*sys\b")


def _finders_read(folder: str) -> bool:
    """Whether no module a ``.pth`` import line of the site folder ``folder`` imports from
    it (nor any it imports from it: ``_appends_none``), but setuptools' finders (``_finder_tops``),
    may put a finder after the path finder (``_APPENDS``: editables' ``RedirectingFinder``,
    scikit-build-core's, meson-python's loaders map names no site folder lists;
    s57-greview2 E-EDITABLES): where one may, its names are not known."""
    import glob

    for pth in glob.glob(os.path.join(glob.escape(folder), "*.pth")):
        try:
            with open(pth, "rb") as f:
                lines = f.read(1 << 20).decode("utf-8", "replace").splitlines()
        except OSError:
            return False
        tops = {n for line in lines if line.startswith(("import ", "import\t"))
                for n in _names(line) if n not in STANDARD and not n.startswith("__editable__")}
        if not _appends_none(folder, sorted(tops)):
            return False
    return True


#: How many modules ``_appends_none`` reads before it takes one as appending.
_READ_MODULES: Final = 64


def _appends_none(folder: str, tops: list[str]) -> bool:
    """Whether none of the modules ``tops`` of the site folder ``folder``, nor any module of
    it they import (absolute or relative, at any depth, up to ``_READ_MODULES``), may put a
    finder after the path finder (``_APPENDS``) or is not readable."""
    import re

    names, seen = list(tops), set()
    while names:
        name = names.pop()
        if name in seen or name.split(".")[0] in STANDARD:
            continue
        seen.add(name)
        if len(seen) > _READ_MODULES:
            return False
        for package, text in _module_texts(folder, name):
            if text is None or re.search(_APPENDS, text):
                return False
            for word in re.findall(rb"^\s*(?:from|import)\s+(\.*[A-Za-z_][\w.]*)", text,
                                   re.M):
                dots = len(word) - len(word.lstrip(b"."))  # (relative: from its package)
                base = package.split(".")[:len(package.split(".")) - dots + 1] if dots else []
                names.append(".".join([*base, word.lstrip(b".").decode()]))
    return True


def _module_texts(folder: str, name: str) -> list[tuple[str, bytes | None]]:
    """The package and text of the module ``name`` (dotted) in the site folder ``folder``
    (its source, a package's ``__init__``; None for one not readable: an extension
    module's), and of each package above it; none for a module not there."""
    parts = name.split(".")
    found: list[tuple[str, bytes | None]] = []
    for at in range(1, len(parts) + 1):
        path = os.path.join(folder, *parts[:at])
        package = ".".join(parts[:at - 1])
        for file, own in ((path + ".py", package), (os.path.join(path, "__init__.py"),
                                                     ".".join(parts[:at]))):
            try:
                with open(file, "rb") as f:
                    found.append((own, f.read(1 << 22)))
            except (FileNotFoundError, NotADirectoryError):
                continue
            except OSError:
                found.append((own, None))
        if any(os.path.isfile(path + s) for s in (".so", ".pyc", ".abi3.so")):
            found.append((package, None))
    return found


def _plugin_tops(folder: str) -> set[str]:
    """The top-level names of the modules the ``pytest11`` entry points of the distributions
    installed in the folder ``folder`` of ``sys.path`` name (``acme.testing.plugin``:
    ``acme``; their metadata a ``.dist-info``, an ``.egg-info`` or an egg's ``EGG-INFO``, as
    ``importlib.metadata`` finds them): an editable install's module lives elsewhere, found
    by its ``.pth`` finder's mapping or a namespace portion in its source folder
    (s56-greview3 E1, N1), a legacy one's metadata in its source folder (E)."""
    import glob

    names: set[str] = set()
    at = glob.escape(folder)
    for path in [*glob.glob(os.path.join(at, "*.dist-info", "entry_points.txt")),
                 *glob.glob(os.path.join(at, "*.egg-info", "entry_points.txt")),
                 *glob.glob(os.path.join(at, "*.egg", "EGG-INFO", "entry_points.txt"))]:
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
