"""What a computation read from the system, recorded so that a later process can tell whether
the same reading would now give the same answers (issue 29: ``guardkeep`` keeps the write
guard's set across hook processes only under such a record).

``recorded(compute)`` runs ``compute`` with the ``os`` module's reading functions (``lstat``,
``stat``, ``scandir``, ``listdir``, ``readlink``, ``access``, ``open``, ``getcwd``,
``getppid``: a path made of the parent's number, ``/proc/<pid>/environ``, is this process's
question only), the
built-in ``open`` and ``pwd.getpwuid`` replaced by functions that answer as the originals do
and record each question with its answer; every Python module asks them through the module's
attributes (``os.path.realpath``'s ``lstat`` and ``readlink`` too), so nothing read in Python
escapes the record, whichever gate module asks (a view of ``files`` would see only the
questions put through it). What a file opened holds is recorded whole (its bytes, read at the
same offset-free position of the same descriptor), a folder's listing as its entries' names
and kinds (a ``stat`` of an entry, recorded as any), a ``stat`` by what its caller reads of it
(``_REDUCED``: a real path's walk reads a kind only) or else every field but the access time.
A program run, a descriptor opened otherwise, or a question the ``files`` view is told it
cannot keep (``unkept``: git's answers) make the record void: nothing is kept.

``same(record)`` asks each question again (the originals) and says whether every answer is
the one recorded. A record holds no answer it was not given: where a question raised, the
record holds its error number, and the same error is the same answer.
"""

from __future__ import annotations

import builtins
import os
import stat
import sys

from . import files as fs
from .readentries import BYTES, Entry, Listing, errno_of, file_bytes, kind_of, listed, opened

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Final, TypeVar

    T = TypeVar("T")

#: A record: each question (a function's name and its arguments) with its answer.
Record = dict[tuple[object, ...], object]

#: The functions of ``os`` replaced while recording.
_OS_NAMES: Final = ("lstat", "stat", "scandir", "listdir", "readlink", "access", "open",
                    "getcwd", "getppid", "fork", "system", "posix_spawn", "posix_spawnp", "execv",
                    "execve", "popen")


class _Log:
    def __init__(self) -> None:
        self.record: Record = {}
        self.void = False
        self.size = 0
        self.quiet = 0  # (inside a question recorded by its value: ``values``)

    def put(self, question: tuple[object, ...], answer: object) -> None:
        if self.quiet:
            return
        if question in self.record and self.record[question] != answer:
            self.void = True  # (it changed while the computation ran)
        if isinstance(answer, tuple) and answer[:1] == ("R",):
            self.size += len(answer[1])
            self.void = self.void or self.size > BYTES
        self.void = self.void or (isinstance(answer, tuple) and answer[:1] == ("L",))
        self.record[question] = answer


_LOG: list[_Log] = []
_ORIGINAL: dict[str, Any] = {}
#: The questions recorded by their value, asked again by name (``recorded``'s ``values``).
_VALUES: dict[str, Callable[[], object]] = {}


def _fields(st: os.stat_result) -> tuple[int, ...]:
    return (st.st_mode, st.st_ino, st.st_dev, st.st_nlink, st.st_uid, st.st_gid, st.st_size,
            st.st_mtime_ns, st.st_ctime_ns)


def _kind(st: os.stat_result) -> tuple[int, ...]:
    return (stat.S_IFMT(st.st_mode),)


def _identity(st: os.stat_result) -> tuple[int, ...]:
    return (stat.S_IFMT(st.st_mode), st.st_dev, st.st_ino, st.st_nlink)


_REDUCERS: Final = {"_fields": _fields, "_kind": _kind, "_identity": _identity}
#: The callers (by their code) that read only part of a ``stat``'s answer.
_REDUCED: dict[object, Callable[[os.stat_result], tuple[int, ...]]] = {}


def _reduced() -> None:
    import genericpath
    import posixpath

    for function, reduce in ((getattr(posixpath, "_joinrealpath", None), _kind),
                             (posixpath.islink, _kind), (posixpath.lexists, _kind),
                             (genericpath.isdir, _kind), (genericpath.isfile, _kind),
                             (genericpath.exists, _kind), (fs.entry_kind, _kind),
                             (fs.file_identity, _identity), (kind_of, _kind)):
        code = getattr(function, "__code__", None)
        if code is not None:
            _REDUCED[code] = reduce


def _plain(found: object) -> object:
    """An answer as a record holds it (in order: a list, a record, a dict's items)."""
    if isinstance(found, dict):
        return ("D", tuple(found.items()))
    return tuple(found) if isinstance(found, (list, tuple)) else found


def _asked(function: Callable[..., object], *args: object) -> object:
    try:
        found = function(*args)
    except Exception as e:  # (the answer: what it raised)
        return errno_of(e)
    return _plain(found)


def answer(question: tuple[object, ...]) -> object:
    """The system's answer now to a recorded ``question``."""
    kind = question[0]
    if kind == "stat":
        _, path, follow, reducer = question
        try:
            found = _ORIGINAL["stat"](path, follow_symlinks=bool(follow))
        except Exception as e:
            return errno_of(e)
        return _REDUCERS[str(reducer)](found)
    if kind == "file":
        return opened(question[1])
    if kind == "scandir":
        return listed(question[1])[1]
    if kind == "value":
        return _asked(_VALUES[str(question[1])])
    if kind == "code":
        return _code(str(question[1]), str(question[2]))
    return _asked(_ORIGINAL[str(kind)], *question[1:])


def _code(name: str, file: str) -> object:
    """The source's modification time and size of the package's module ``name`` at ``file``:
    as ``modulecache`` checked it at its import where it served it, else asked now."""
    if not _SERVED:
        from ..modulecache import served

        _SERVED.append(served())
    if name in sys.modules and name in _SERVED[0]:
        return _SERVED[0][name]
    try:
        found = os.stat(file)
    except (OSError, ValueError) as e:
        return errno_of(e)
    return (found.st_mtime_ns, found.st_size)


_SERVED: list[dict[str, tuple[int, int]]] = []


def note_code() -> None:
    """Records the code of the package's modules loaded (``_code``), in a recording."""
    for log in _LOG:
        _SERVED.clear()
        for name, module in list(sys.modules.items()):
            file = getattr(module, "__file__", None)
            if name.startswith("skillgrant") and isinstance(file, str):
                log.put(("code", name, file), _code(name, file))


def same(record: Record, values: dict[str, tuple[object, str]]) -> bool:
    """Whether the system answers each question of ``record`` as recorded (a question not
    known, or one that raises other than as recorded: no); ``values`` as ``recorded``'s."""
    if not _ORIGINAL:
        _originals()
    _VALUES.update((name, getattr(module, attr)) for name, (module, attr) in values.items())
    _SERVED.clear()
    try:
        return all(answer(question) == found for question, found in record.items())
    except Exception:  # (a record of another kind: not the same)
        return False


def _originals() -> None:
    import pwd

    _ORIGINAL.update((name, getattr(os, name)) for name in _OS_NAMES if hasattr(os, name))
    _ORIGINAL["builtins.open"] = builtins.open
    _ORIGINAL["io.open"] = sys.modules["io"].open
    _ORIGINAL["pwd.getpwuid"] = pwd.getpwuid
    forks = getattr(sys.modules.get("_posixsubprocess"), "fork_exec", None)
    if forks is not None:
        _ORIGINAL["fork_exec"] = forks


class _Recorder:
    """The recording functions of one ``_Log``, by the names they replace (``made``)."""

    def __init__(self, log: _Log) -> None:
        self.log = log

    def made(self) -> dict[str, Any]:
        made: dict[str, Any] = {name: self.runs(name) for name in _OS_NAMES
                                if name in _ORIGINAL}
        made.update({"lstat": self.lstat, "stat": self.stat, "scandir": self.scandir,
                     "open": self.open, "builtins.open": self.opened,
                     **{name: self.plain(name) for name in (
                         "listdir", "readlink", "access", "getcwd", "getppid",
                         "pwd.getpwuid")}})
        if "fork_exec" in _ORIGINAL:
            made["fork_exec"] = self.runs("fork_exec")
        return made

    def stat_of(self, path: Any, follow: bool, args: tuple[Any, ...],
                kwargs: dict[str, Any]) -> os.stat_result:
        if args or isinstance(path, int) or kwargs.get("dir_fd") is not None or \
                set(kwargs) - {"dir_fd", "follow_symlinks"}:
            self.log.void = True
        reduce = _REDUCED.get(sys._getframe(2).f_code, _fields)
        question = ("stat", path, follow, reduce.__name__)
        try:
            found = _ORIGINAL["stat"](path, *args, **{**kwargs, "follow_symlinks": follow})
        except Exception as e:
            self.log.put(question, errno_of(e))
            raise
        self.log.put(question, reduce(found))
        return found  # type: ignore[no-any-return]

    def lstat(self, path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        return self.stat_of(path, False, args, kwargs)

    def stat(self, path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        return self.stat_of(path, bool(kwargs.pop("follow_symlinks", True)), args, kwargs)

    def scandir(self, path: Any = ".") -> Any:
        self.log.void = self.log.void or isinstance(path, int)
        entries, found = listed(path)
        self.log.put(("scandir", path), found)
        if isinstance(found, tuple) and found[:1] == ("E",):
            return _ORIGINAL["scandir"](path)  # (raises as it did)
        return Listing([Entry(e) for e in entries])

    def plain(self, name: str) -> Callable[..., Any]:
        log = self.log

        def asked(*args: Any, **kwargs: Any) -> Any:
            if kwargs or (name != "pwd.getpwuid" and args and isinstance(args[0], int)):
                log.void = True
            try:
                found = _ORIGINAL[name](*args, **kwargs)
            except Exception as e:
                log.put((name, *args), errno_of(e))
                raise
            log.put((name, *args), _plain(found))
            return found
        return asked

    def open(self, path: Any, flags: int, mode: int = 0o777, *args: Any, **kwargs: Any) -> int:
        if args or kwargs or isinstance(path, int) or flags & (
                os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND):
            self.log.void = True
        try:
            fd: int = _ORIGINAL["open"](path, flags, mode, *args, **kwargs)
        except Exception as e:
            self.log.put(("file", path), errno_of(e))
            raise
        self.log.put(("file", path), file_bytes(fd))
        return fd

    def opened(self, file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, int) or set(mode) - set("rbt") or kwargs.get("opener"):
            self.log.void = True
        try:
            found = _ORIGINAL["builtins.open"](file, mode, *args, **kwargs)
        except Exception as e:
            self.log.put(("file", file), errno_of(e))
            raise
        try:
            self.log.put(("file", file), file_bytes(found.fileno()))
        except OSError as e:
            self.log.put(("file", file), errno_of(e))
        return found

    def runs(self, name: str) -> Callable[..., Any]:
        log = self.log

        def run(*args: Any, **kwargs: Any) -> Any:
            log.void = True  # (what a program reads is not known)
            return _ORIGINAL[name](*args, **kwargs)
        return run


def _valued(log: _Log, name: str, function: Callable[[], object]) -> Callable[[], object]:
    """``function``, its answer recorded as a whole (what it asks inside is not)."""
    _VALUES[name] = function

    def valued() -> object:
        log.quiet += 1
        try:
            found = function()
        finally:
            log.quiet -= 1
        log.put(("value", name), _plain(found))
        return found
    return valued


def recorded(compute: Callable[[], T], values: dict[str, tuple[object, str]],
             ) -> tuple[T, Record | None]:
    """``compute()`` and the record of what it read (None where a record cannot hold it).
    ``values``: functions (a module and the name it calls them by) whose answer is recorded
    as a whole, asked again by ``same`` (what this process loaded: ``loadedlibs``). Records
    only where the system's view is in use (a hook's process; another thread's questions,
    recorded too, can only make the record stricter); every ``functools`` cache of the
    package's modules is emptied first (an answer kept from before would be read
    unrecorded)."""
    if not fs.asks_the_system() or _LOG:
        return compute(), None
    if not _ORIGINAL:
        _originals()
    if not _REDUCED:
        _reduced()
    _forget_caches()
    log = _Log()
    replaced = _Recorder(log).made()
    import pwd

    swaps: list[tuple[object, str, object]] = [
        *((os, name, replaced[name]) for name in _OS_NAMES if name in _ORIGINAL),
        (builtins, "open", replaced["builtins.open"]),
        (sys.modules["io"], "open", replaced["builtins.open"]),
        (pwd, "getpwuid", replaced["pwd.getpwuid"]),
        *(((sys.modules["_posixsubprocess"], "fork_exec", replaced["fork_exec"]),)
          if "fork_exec" in _ORIGINAL else ()),
        *((module, attr, _valued(log, name, getattr(module, attr)))
          for name, (module, attr) in values.items())]
    undo = [(owner, attr, getattr(owner, attr)) for owner, attr, _ in swaps]
    view = fs.in_use()
    _LOG.append(log)
    try:
        for owner, attr, function in swaps:
            setattr(owner, attr, function)
        fs.use(_Unkept(log))
        made = compute()
    finally:
        fs.use(view)
        for owner, attr, function in reversed(undo):
            setattr(owner, attr, function)
        _LOG.clear()
    return made, (None if log.void else log.record)


def _forget_caches() -> None:
    """Empties the ``functools`` caches (``lru_cache``, ``cache``) of the package's modules."""
    import functools

    cached = type(functools.lru_cache(maxsize=1)(len))
    for name, module in list(sys.modules.items()):
        if name.startswith("skillgrant.") and module is not None:
            for value in list(vars(module).values()):
                if type(value) is cached:
                    value.cache_clear()


class _Unkept(fs.System):
    """The system's view, told where an answer cannot be kept (``files.unkept``)."""

    def __init__(self, log: _Log) -> None:
        self.log = log

    def unkept(self) -> None:
        self.log.void = True
