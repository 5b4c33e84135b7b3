"""The package's modules a hook's process imported, kept compiled in one file beside their
bytecode.

``skillgrant hook`` starts a process for every tool call and imports about eighty of the
package's modules. Python's path-based import costs each module about 310 k instructions
before its code runs (the finder's folder lookups, the bytecode file's header, its stat and
read: an empty module measured, session 51), a seventh of the hook's instructions. This
keeps the compiled code of the modules a hook imported in one file of the package's
``__pycache__`` (as ``patterncache`` keeps its patterns: the same checks, ``read``/``write``),
and serves them to the next hook's imports from it (``load``): about 170 k instructions a
module.

Sound as the bytecode is: each module's code is what ``compile`` makes of its source file
(as the import system's ``source_to_code``), kept with the source's modification time and
size, and served only while the source file still has both (asked at each import, as a
bytecode file's header is checked); any other module, or a module whose source changed, is
imported as before. The file is read only where ``patterncache.read`` trusts it (this user's,
no one else may write it, this exact interpreter), and whoever can write the package's
``__pycache__`` can write its bytecode, which runs: the hook guards the package's folder from
the calls it judges (``gate/guards.py``).
"""

from __future__ import annotations

import marshal
import os
import sys

from . import patterncache

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import Final

    #: A kept module: its source file, the source's modification time (ns) and size, whether
    #: it is a package, and its code as ``marshal`` writes it.
    Kept = tuple[str, int, int, bool, bytes]

#: The file's form, and the modules kept at most.
_FORM: Final = 1
MAX_MODULES: Final = 256
#: The package's folder: only modules below it are kept.
_PACKAGE: Final = os.path.dirname(os.path.abspath(__file__))
#: The kept modules ``load`` read, by name (a module's entry leaves once its source changed).
_KEPT: dict[str, Kept] = {}
_WRITABLE: list[bool] = []
#: Whether a module's ``__cached__`` is its folder's ``__pycache__/<name>.<tag>.pyc``, as
#: ``importlib.util.cache_from_source`` makes it (no prefix for bytecode, no ``-O``, POSIX
#: paths); else the import system works it out.
_TAG: Final = sys.implementation.cache_tag
_PLAIN_CACHE: Final = _TAG is not None and sys.pycache_prefix is None and \
    not sys.flags.optimize and os.sep == "/" and os.altsep is None
#: The import system's own spec type (``importlib.machinery`` would load ``warnings``).
_Spec = type(sys.__spec__)


class _Finder:
    """Finds a kept module whose source is as it was kept, and loads its kept code."""

    @staticmethod
    def find_spec(name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        kept = _KEPT.get(name)
        if kept is None:
            return None
        origin, mtime, size, package, _code = kept
        try:
            now = os.stat(origin)
        except OSError:
            now = None
        if now is None or now.st_mtime_ns != mtime or now.st_size != size:
            del _KEPT[name]  # (changed: imported from its file, and kept anew)
            return None
        spec: ModuleSpec = _Spec(name, _Finder,  # type: ignore[arg-type]
                                 origin=origin, is_package=package)
        if package:
            spec.submodule_search_locations = [os.path.dirname(origin)]
        spec.has_location = True
        if _PLAIN_CACHE:  # (the import system's own answer, without its path functions)
            head, _, tail = origin.rpartition("/")
            spec.cached = f"{head}/__pycache__/{tail[:-3]}.{_TAG}.pyc"
        return spec

    @staticmethod
    def create_module(spec: ModuleSpec) -> None:
        return None  # (the import system's default module)

    @staticmethod
    def exec_module(module: ModuleType) -> None:
        exec(marshal.loads(_KEPT[module.__name__][4]), module.__dict__)


def load() -> int:
    """Serve the kept modules to this process's imports; how many are kept. Nothing on any
    doubt (``patterncache.read``): every module is then imported from its file."""
    if not patterncache.usable():
        return 0
    writable, held = patterncache.read("modules", _FORM)
    _WRITABLE[:] = [True] if writable else []
    if type(held) is not dict or not all(_well_formed(name, kept)
                                         for name, kept in held.items()):
        return 0
    _KEPT.update(held)
    if _Finder not in sys.meta_path:
        sys.meta_path.insert(0, _Finder)
    return len(held)


def _well_formed(name: object, kept: object) -> bool:
    """Whether ``kept`` is a kept module of the package (``Kept``) named ``name``."""
    return type(name) is str and name.startswith("skillgrant") and type(kept) is tuple and \
        len(kept) == 5 and type(kept[0]) is str and _below(kept[0]) and \
        type(kept[1]) is int and type(kept[2]) is int and type(kept[3]) is bool and \
        type(kept[4]) is bytes


def _below(origin: str) -> bool:
    return origin.startswith(_PACKAGE + os.sep) and origin.endswith(".py")


def keep() -> int:
    """Write the kept modules with those this process imported from their files since; how
    many were added. Nothing when none was, where Python writes no bytecode, or when the
    file there is another interpreter's."""
    if not patterncache.writes() or not _WRITABLE:
        return 0
    new = {}
    for name, module in list(sys.modules.items()):
        spec = getattr(module, "__spec__", None)
        origin = getattr(spec, "origin", None)
        if name in _KEPT or not name.startswith("skillgrant") or \
                type(getattr(spec, "loader", None)).__name__ != "SourceFileLoader" or \
                type(origin) is not str or not _below(origin):
            continue
        made = _compiled(origin, getattr(spec, "submodule_search_locations", None) is not None)
        if made is not None:
            new[name] = made
    if not new:
        return 0
    kept = {**_KEPT, **new}
    if len(kept) > MAX_MODULES or not patterncache.write("modules", _FORM, kept):
        return 0
    _KEPT.update(new)
    return len(new)


def _compiled(origin: str, package: bool) -> Kept | None:
    """The module at ``origin`` as it is kept: its code compiled as the import system
    compiles a source (``source_to_code``), with the modification time and size of the very
    file read; None when it does not read or compile."""
    try:
        with open(origin, "rb") as source:
            now = os.fstat(source.fileno())
            text = source.read()
        code = compile(text, origin, "exec", dont_inherit=True)
        return origin, now.st_mtime_ns, now.st_size, package, marshal.dumps(code)
    except Exception:
        return None
