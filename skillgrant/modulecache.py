"""The package's modules a hook's process imported, and the standard library's it imported
through them (``re``, ``enum``, ``json``, …), kept compiled in one file beside the package's
bytecode, and served to the next hook's imports (``load``): Python's path-based import costs
each module about 310 k instructions before its code runs, a kept one about 170 k (session
51), and ``_find_and_load`` takes a kept module's import system steps in one function.

Sound as the bytecode is: each module's code is what ``compile`` makes of its source file
(as the import system's ``source_to_code``), kept with the source's modification time and
size, and served only while the source file still has both (asked at each import, as a
bytecode file's header is checked); any other module, or a module whose source changed, is
imported as before. A standard module is served only where the path finder would find the
same file: while the folder it lists for it has the modification time it had when the module
was kept (an entry came or went: a package or an extension module of the name would be found
first), and where no folder ``sys.path`` names before the standard library's holds an entry
of its name (``python -I``'s zip file is missing; a script's folder, listed once a process).
So ``load`` runs before ``re`` is first imported. The file holds the list of the kept
modules first, then their code in groups, each group read only as one of its modules is
imported (a hook imports about 120 of the 160 or more kept; docs/performance.md, sessions
58, 60 and 61). A group is the modules that were imported together: one ``marshal.loads``
makes their code (the names their code shares made once), and a process that imported only
some of a loaded group's modules writes it again as two (``keep``). The file is read only
where ``patterncache.opened`` trusts it (this user's, no one else may write it, this exact
interpreter), and whoever can write the package's ``__pycache__`` can write its bytecode,
which runs: the hook guards the package's folder, and the interpreter's library, from the
calls it judges (``gate/guards.py``).
"""

from __future__ import annotations

import _thread
import marshal
import os
import sys

from . import patterncache

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from importlib.machinery import ModuleSpec
    from types import CodeType, ModuleType
    from typing import Final

    #: A kept module: its source file, the source's modification time (ns) and size, whether
    #: it is a package, where the group holding its code (a dict of module names to their
    #: code, as ``marshal`` writes it) lies in the file (how far before the file's end it
    #: starts, and its length), and for a standard module the modification time (ns) of the
    #: folder the path finder found it in (-1: the package's).
    Kept = tuple[str, int, int, bool, tuple[int, int], int]
    #: A module as ``keep`` writes it: the same, with its code itself.
    Made = tuple[str, int, int, bool, CodeType, int]

#: The file's form, the modules kept at most, and the most of the file's head (the list of the
#: kept modules, ``_KEPT``) read: each module's code follows it, read on its import only.
_FORM: Final = 4
MAX_MODULES: Final = 256
MAX_HEAD: Final = 1 << 16
#: The package's folder, the standard library's (not its site folders): what may be kept.
_PACKAGE: Final = os.path.dirname(os.path.abspath(__file__))
_STANDARD: Final = os.path.dirname(os.__file__)
_SITES: Final = ("/site-packages/", "/dist-packages/")
_STANDARD_FOLDER: Final = _STANDARD + os.sep
#: The kept modules ``load`` read, by name (a module's entry leaves once its source changed).
_KEPT: dict[str, Kept] = {}
_WRITABLE: list[bool] = []
#: The kept file ``load`` read, open (its descriptor, closed on exec), and its size.
_FILE: list[tuple[int, int]] = []
#: The groups read from it, by place (None: one that did not read as a group), and the kept
#: modules served to this process's imports.
_GROUPS: dict[tuple[int, int], dict[str, CodeType] | None] = {}
_SERVED: set[str] = set()
#: The names (lower case, to their first dot) in the folders ``sys.path`` names before the
#: standard library's: a standard module of one of them is left to the path finder (none
#: where one is no folder that can be listed); and the modules imported before ``load``.
_SHADOWING: list[frozenset[str]] = []
_BEFORE: set[str] = set()
#: Whether a module's ``__cached__`` is its folder's ``__pycache__/<name>.<tag>.pyc``, as
#: ``importlib.util.cache_from_source`` makes it (no prefix for bytecode, no ``-O``, POSIX
#: paths); else the import system works it out.
_TAG: Final = sys.implementation.cache_tag
_PLAIN_CACHE: Final = _TAG is not None and sys.pycache_prefix is None and \
    not sys.flags.optimize and os.sep == "/" and os.altsep is None
#: The import system's spec type (``importlib.machinery`` would load ``warnings``), its module
#: (the interpreter asks its ``_find_and_load`` for a module not imported), that function.
_Spec = type(sys.__spec__)
_BOOTSTRAP: Final = sys.modules.get("_frozen_importlib")
_FIND_AND_LOAD: list[Callable[[str, object], ModuleType]] = []


class _Finder:
    """Finds a kept module whose source is as it was kept, and loads its kept code."""

    @staticmethod
    def find_spec(name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        kept = _KEPT.get(name)
        if kept is None:
            return None
        origin, mtime, size, package, _place, listed = kept
        if listed >= 0 and (not _SHADOWING or name.partition(".")[0].lower() in _SHADOWING[0]):
            return None  # (a folder before the standard library's may hold one of its name)
        now: os.stat_result | None
        try:
            now = os.stat(origin)
            if listed >= 0 and os.stat(_folder(origin, package)).st_mtime_ns != listed:
                now = None  # (an entry came or went: the path finder lists the folder anew)
        except OSError:
            now = None
        code = _code(name, kept) if now is not None and now.st_mtime_ns == mtime and \
            now.st_size == size else None
        if code is None:
            del _KEPT[name]  # (changed, or not read: imported from its file, and kept anew)
            return None
        spec: ModuleSpec = _Spec(name, _Finder,  # type: ignore[arg-type]
                                 origin=origin, is_package=package)
        if package:
            spec.submodule_search_locations = [os.path.dirname(origin)]
        spec.has_location = True
        spec.loader_state = code
        _SERVED.add(name)
        if _PLAIN_CACHE:  # (the import system's own answer, without its path functions)
            head, _, tail = origin.rpartition("/")
            spec.cached = f"{head}/__pycache__/{tail[:-3]}.{_TAG}.pyc"
        return spec

    @staticmethod
    def create_module(spec: ModuleSpec) -> None:
        return None  # (the import system's default module)

    @staticmethod
    def exec_module(module: ModuleType) -> None:
        exec(module.__spec__.loader_state, module.__dict__)  # type: ignore[union-attr]


def served() -> dict[str, tuple[int, int]]:
    """The modules this process imported from their kept code, each with its source's
    modification time (ns) and size, as checked at its import (``gate/guardkeep.py``)."""
    return {name: _KEPT[name][1:3] for name in _SERVED if name in _KEPT}


def _find_and_load(name: str, import_: object) -> ModuleType:
    """The import system's ``_find_and_load`` (3.11's importlib/_bootstrap.py) for a module
    ``_Finder`` serves, its steps in one function (~20 of the import system's Python
    functions a module): anything else goes to the import system's, as a module being
    imported (a cycle), a package not yet imported, another finder first, another thread
    running (the module locks this leaves out), ``-v``."""
    spec = None
    if name in _KEPT and name not in sys.modules and sys.meta_path[:1] == [_Finder] and \
            not _thread._count() and not sys.flags.verbose:
        parent, _, child = name.rpartition(".")
        above = sys.modules.get(parent) if parent else None
        if not parent or hasattr(above, "__path__"):
            spec = _Finder.find_spec(name)
    if spec is None:
        return _FIND_AND_LOAD[0](name, import_)
    module = type(sys)(name)
    module.__loader__ = _Finder  # type: ignore[assignment]
    module.__package__ = spec.parent
    module.__spec__ = spec
    if spec.submodule_search_locations is not None:
        module.__path__ = spec.submodule_search_locations
    module.__file__ = spec.origin
    if spec.cached is not None:
        module.__cached__ = spec.cached  # type: ignore[attr-defined]
    above_spec = above.__spec__ if above else None
    waiting: list[str] = [] if above_spec is None else \
        above_spec._uninitialized_submodules  # type: ignore[attr-defined]
    waiting.append(child)
    try:
        spec._initializing = True  # type: ignore[attr-defined]
        sys.modules[name] = module
        try:
            _Finder.exec_module(module)
        except BaseException:
            sys.modules.pop(name, None)
            raise
        module = sys.modules.pop(name)
        sys.modules[name] = module
    finally:
        spec._initializing = False  # type: ignore[attr-defined]
        waiting.pop()
    if parent:
        setattr(sys.modules[parent], child, module)
    return module


def _code(name: str, kept: Kept) -> CodeType | None:
    """The kept module ``name``'s code, from its group in the kept file, read once a process;
    None where the group does not read whole as one, or holds no code of the name."""
    place = kept[4]
    if place not in _GROUPS:
        _GROUPS[place] = _group(place)
    code = (_GROUPS[place] or {}).get(name)
    return code if type(code) is _CODE else None


def _group(place: tuple[int, int]) -> dict[str, CodeType] | None:
    """The group at ``place`` in the kept file: its modules' code by name; None where it
    does not read whole as a dict."""
    data = _read(place)
    try:
        group = marshal.loads(data) if data is not None else None
    except Exception:
        return None
    return group if type(group) is dict else None


_CODE: Final = type(_code.__code__)


def _folder(origin: str, package: bool) -> str:
    """The folder the path finder lists for the module at ``origin`` (a package's: above)."""
    folder = os.path.dirname(origin)
    return os.path.dirname(folder) if package else folder


def load() -> int:
    """Serve the kept modules to this process's imports; how many are kept. Nothing on any
    doubt (``patterncache.read``): every module is then imported from its file."""
    _BEFORE.update(sys.modules)
    if not patterncache.checked():
        return 0
    writable, fd = patterncache.opened("modules")
    held: object = None
    size = 0
    if fd is not None:
        try:
            size = os.fstat(fd).st_size
            writable, held = patterncache.unpacked(os.read(fd, MAX_HEAD), _FORM)
        except OSError:  # (as patterncache.read: replaced)
            pass
    _WRITABLE[:] = [True] if writable else []
    if fd is None or type(held) is not dict or not all(_well_formed(name, kept, size)
                                                       for name, kept in held.items()):
        if fd is not None:
            os.close(fd)
        return 0
    for old, _ in _FILE:
        os.close(old)
    _FILE[:] = [(fd, size)]
    _GROUPS.clear()
    _KEPT.update(held)
    _SHADOWING[:] = _shadowing()
    if _Finder not in sys.meta_path:
        sys.meta_path.insert(0, _Finder)
    if _BOOTSTRAP is not None and not _FIND_AND_LOAD:
        _FIND_AND_LOAD.append(_BOOTSTRAP._find_and_load)
        _BOOTSTRAP._find_and_load = _find_and_load  # type: ignore[attr-defined]
    return len(held)


def _shadowing() -> list[frozenset[str]]:
    """``_SHADOWING``'s names, in a list; none where a path before the standard library's
    is there but is no folder that can be listed (or the library is not on ``sys.path``)."""
    if _STANDARD not in sys.path:
        return []
    names: set[str] = set()
    for entry in sys.path[:sys.path.index(_STANDARD)]:
        folder = entry or "."  # (the current folder)
        try:
            names.update(n.partition(".")[0].lower() for n in os.listdir(folder))
        except FileNotFoundError:
            continue  # (no finder there finds anything)
        except (OSError, ValueError):  # (a zip file, a folder that cannot be read)
            return []
    return [frozenset(names)]


def _well_formed(name: object, kept: object, size: int) -> bool:
    """Whether ``kept`` is a kept module (``Kept``) named ``name``, of the package or of the
    standard library, its code within the last ``size`` bytes (the file's)."""
    return type(name) is str and type(kept) is tuple and len(kept) == 6 and \
        type(kept[0]) is str and type(kept[1]) is int and type(kept[2]) is int and \
        type(kept[3]) is bool and _placed(kept[4], size) and type(kept[5]) is int and (
            kept[5] == -1 if name.startswith("skillgrant") else kept[5] >= 0) and \
        _keepable(name, kept[0])


def _placed(place: object, size: int) -> bool:
    """Whether ``place`` is where a module's code lies in a file of ``size`` bytes."""
    return type(place) is tuple and len(place) == 2 and type(place[0]) is int and \
        type(place[1]) is int and 0 < place[1] <= place[0] <= size


def _keepable(name: str, origin: str) -> bool:
    """Whether the module ``name`` at ``origin`` is one to keep: the package's, below its
    folder; any other, below the standard library's but its site folders."""
    return origin.endswith(".py") and (
        origin.startswith(_PACKAGE + os.sep) if name.startswith("skillgrant") else
        _standard(origin))


def _standard(origin: str) -> bool:
    return origin.startswith(_STANDARD_FOLDER) and _SITES[0] not in origin and \
        _SITES[1] not in origin


def keep() -> int:
    """Write the kept modules with those this process imported from their files since; how
    many were added. Nothing when none was and every group read was used whole, where Python
    writes no bytecode, or when the file there is another interpreter's."""
    if not patterncache.writes() or not _WRITABLE:
        return 0
    new: dict[str, Made] = {}
    for name, module in list(sys.modules.items()):
        spec = getattr(module, "__spec__", None)
        origin = getattr(spec, "origin", None)
        if name in _KEPT or name in _BEFORE or \
                type(getattr(spec, "loader", None)).__name__ != "SourceFileLoader" or \
                type(origin) is not str or not _keepable(name, origin):
            continue
        made = _compiled(origin, getattr(spec, "submodule_search_locations", None) is not None,
                         not name.startswith("skillgrant"))
        if made is not None:
            new[name] = made
    if not new and all(group is None or group.keys() <= _SERVED for group in _GROUPS.values()):
        return 0
    return len(new) if _write(new) else 0


def _write(new: dict[str, Made]) -> bool:
    """Write the kept modules with ``new``: the list of them first, their groups
    (``_parts``) after it; whether it was written."""
    parts = _parts(new)
    if sum(len(names) for names, _ in parts) > MAX_MODULES:
        return False
    back = sum(len(data) for _, data in parts)
    ends: dict[str, Kept] = {}
    for names, data in parts:
        for name in names:
            origin, mtime, size, package, _, listed = _KEPT[name] if name in _KEPT else new[name]
            ends[name] = (origin, mtime, size, package, (back, len(data)), listed)
        back -= len(data)
    return patterncache.write("modules", _FORM, ends, b"".join(data for _, data in parts),
                              MAX_HEAD)


def _parts(new: dict[str, Made]) -> list[tuple[list[str], bytes]]:
    """The groups ``keep`` writes, each its modules' names and its bytes: a group this
    process read goes again as two, the modules it served and the others (a module no
    longer kept left out); a group not read here as the file ``load`` read holds it; the
    ``new`` modules make a group of their own."""
    places: dict[tuple[int, int], list[str]] = {}
    for name, kept in _KEPT.items():
        places.setdefault(kept[4], []).append(name)
    parts: list[tuple[list[str], bytes]] = []
    for place, names in places.items():
        group = _GROUPS.get(place)
        if place not in _GROUPS or (group is not None and group.keys() <= _SERVED):
            data = _read(place)  # (not read here, or used whole: as the file holds it)
            if data is not None:
                parts.append((names, data))
            continue
        for served in (True, False):
            part = [name for name in names if (name in _SERVED) is served and name in
                    (group or {})]
            if part and group is not None:
                parts.append((part, marshal.dumps({name: group[name] for name in part})))
    if new:
        parts.append((list(new), marshal.dumps({name: made[4] for name, made in new.items()})))
    return parts


def _read(place: tuple[int, int]) -> bytes | None:
    """The bytes of the group at ``place`` in the file ``load`` read; None where they do not
    read whole."""
    back, length = place
    try:
        fd, size = _FILE[0]
        data = os.pread(fd, length, size - back)
    except (OSError, IndexError):
        return None
    return data if len(data) == length else None


def _compiled(origin: str, package: bool, standard: bool) -> Made | None:
    """The module at ``origin`` as it is kept: its code compiled as the import system
    compiles a source (``source_to_code``), with the modification time and size of the very
    file read, and for a ``standard`` one its folder's modification time, asked first (an
    entry coming after it changes it); None when it does not read or compile."""
    try:
        listed = os.stat(_folder(origin, package)).st_mtime_ns if standard else -1
        with open(origin, "rb") as source:
            now = os.fstat(source.fileno())
            text = source.read()
        code = compile(text, origin, "exec", dont_inherit=True)
        return origin, now.st_mtime_ns, now.st_size, package, code, listed
    except Exception:
        return None
