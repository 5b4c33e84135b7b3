"""How the gate asks the filesystem while it decides: a path's real path, and the identity of
the regular file at a path (a hard link shares it).

By default each question goes to the system (``os.path.realpath``, ``os.stat``), as a hook
process must: it decides once. A long-running process may put in place a view that keeps
answers for exactly as long as nothing on their paths changes (``skillgrant serve``:
``service/watched.py``, which forgets them at any change inotify reports); the answers must be
the system's own. A question made of many (the files a call must not write, from some sixty
paths and a repository's configuration) may be kept whole, for as long as each of its parts
would be (``kept``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Container, Hashable, Iterable, Iterator

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Protocol, TypeVar

    T = TypeVar("T")

    class View(Protocol):
        def realpath(self, path: str) -> str:
            """``os.path.realpath(path)``."""

        def identity(self, path: str) -> tuple[int, int, int] | None:
            """The device, inode and number of names (hard links) of the regular file at
            ``path`` (links followed), or None when it is not one or cannot be examined."""

        def islink(self, path: str) -> bool:
            """``os.path.islink(path)``."""

        def entry(self, path: str) -> str | None:
            """What the entry at ``path`` is, a link not followed: ``"dir"``, ``"link"`` or
            ``"file"`` (anything else), or None when there is none or it cannot be examined."""

        def read(self, path: str, limit: int) -> bytes:
            """Up to ``limit`` bytes of the file at ``path``; raises OSError as ``open`` does."""

        def kept(self, key: Callable[[], Hashable], compute: Callable[[], T]) -> T:
            """``compute()``, or its answer kept under ``key()`` for as long as nothing it asked
            this view about has changed (``compute`` may ask only this view, and ``unkept``)."""

        def unkept(self) -> None:
            """Says the ``compute`` of ``kept`` in progress learned something the view cannot
            watch (git's answer): its answer is not kept."""


class System:
    """Each question to the system."""

    def realpath(self, path: str) -> str:
        return os.path.realpath(path)

    def identity(self, path: str) -> tuple[int, int, int] | None:
        return file_identity(path)

    def islink(self, path: str) -> bool:
        return os.path.islink(path)

    def entry(self, path: str) -> str | None:
        return entry_kind(path)

    def read(self, path: str, limit: int) -> bytes:
        return read_open(os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK), path,
                         limit)

    def kept(self, key: Callable[[], Hashable], compute: Callable[[], T]) -> T:
        return compute()

    def unkept(self) -> None:
        pass


def read_open(fd: int, path: str, limit: int) -> bytes:
    """Up to ``limit`` bytes of the regular file open at ``fd``, which is closed. Raises
    OSError named by ``path`` as ``open`` names it, when it is not a regular file (a folder,
    or a FIFO that would wait for a writer: review s40 R3, R5) or cannot be read."""
    chunks: list[bytes] = []
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise IsADirectoryError(21, "Is a directory") if stat.S_ISDIR(mode) else \
                OSError(22, "Not a regular file")
        while (left := limit - sum(map(len, chunks))) > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError as e:
        raise type(e)(e.errno, e.strerror, path) from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def joined(folder: str, names: Iterable[str]) -> list[str]:
    """``[os.path.join(folder, name) for name in names]``, the folder's ``/`` added once: the
    hook joins about a thousand names to its guarded folders at every call."""
    base = folder if not folder or folder[-1:] == "/" else folder + "/"
    return [name if name[:1] == "/" else base + name for name in names]


def json_strings(value: object) -> list[str]:
    """Each string in the JSON value ``value`` (a string, a list's, an object's values, at
    any depth): a package's export target (``noderesolve``: a list of fallbacks, an object
    of conditions, nested), a jest setting's (``jestsettings``)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for v in value for t in json_strings(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in json_strings(v)]
    return []


def named_below(top: str, names: Container[str], skips: Container[str],
                bound: int) -> Iterator[str | None]:
    """The paths of the entries (not folders) of ``names`` in the folders below ``top`` (not
    in ``top`` itself), folder after folder, not through a link and not into a folder of
    ``skips``; None, and no more, once ``bound`` folders were listed (a runner's settings read
    below its folder: prettier's, Babel's). Listed by the system, as the runner lists them; a
    folder that cannot be listed holds none."""
    pending, seen = [top], 0
    while pending:
        at = pending.pop()
        seen += 1
        if seen > bound:
            yield None
            return
        try:
            with os.scandir(at) as entries:
                listed = [(e.name, e.is_dir(follow_symlinks=False)) for e in entries]
        except OSError:
            continue
        for name, folder in listed:
            if folder and name not in skips:
                pending.append(os.path.join(at, name))
            elif not folder and at != top and name in names:
                yield os.path.join(at, name)


def listing(folder: str) -> list[os.DirEntry[str]]:
    """The entries of ``folder`` as the system lists them (a view that keeps answers watches
    it first: ``watch_folder``); none where it cannot be listed."""
    watch_folder(folder)
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except OSError:
        return []


def walked(top: str, bound: int) -> Iterator[tuple[str, list[os.DirEntry[str]], list[str]]
                                             | None]:
    """Each folder of a walk from ``top`` with its entries (``listing``) and the list of
    folders still to walk, in which the caller puts those to walk into (``top`` first; a
    folder reached again by its real path, through a link, is not listed again); None, and no
    more, once more than ``bound`` entries were listed."""
    pending: list[str] = [top]
    seen: set[str] = set()
    count = 0
    while pending:
        at = pending.pop()
        real = realpath(at)
        if real in seen:
            continue
        seen.add(real)
        entries = listing(at)
        count += len(entries)
        if count > bound:
            yield None
            return
        yield at, entries, pending


def parent_pid(pid: int) -> int:
    """The parent of the process ``pid``, as ``/proc/<pid>/stat`` gives it (after the command
    name's closing parenthesis, which the name itself may hold); raises OSError, ValueError or
    IndexError where it cannot be read."""
    with open(f"/proc/{pid}/stat", "rb") as handle:
        return int(handle.read().rsplit(b")", 1)[1].split()[1])


def dots_lead(path: str) -> bool:
    """Whether each ``..`` of ``path`` comes before its other parts (``../../x``): joined to
    a real folder, it is then read alike by ``os.path.normpath`` and by the system (which
    would take a ``..`` after a link from where the link leads)."""
    parts = path.split("/")
    lead = 0 if path.startswith("/") else next(
        (i for i, part in enumerate(parts) if part != ".."), len(parts))
    return ".." not in parts[lead:]


def entry_kind(path: str) -> str | None:
    """The system's answer to ``View.entry``."""
    try:
        mode = os.lstat(path).st_mode
    except (OSError, ValueError):
        return None
    return "dir" if stat.S_ISDIR(mode) else "link" if stat.S_ISLNK(mode) else "file"


def file_identity(path: str) -> tuple[int, int, int] | None:
    """The system's answer to ``View.identity``."""
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return None
    return (found.st_dev, found.st_ino, found.st_nlink) if stat.S_ISREG(found.st_mode) \
        else None


_VIEW: list[View] = [System()]


def use(view: View | None) -> None:
    """Ask ``view`` from now on (None: the system)."""
    _VIEW[0] = view if view is not None else System()


def keep_across(on: bool) -> None:
    """Says whether answers may be kept across processes (``guardkeep``: a hook's process of
    its own, ``cli.entry``; not a test's, whose functions may be replaced)."""
    _ACROSS[0] = on


def kept_across() -> bool:
    """Whether answers may be kept across processes: the system's view in a hook's process."""
    return _ACROSS[0] and isinstance(_VIEW[0], System)


_ACROSS: list[bool] = [False]


def in_use() -> View:
    """The view in use (``readlog`` puts it back after recording)."""
    return _VIEW[0]


def asks_the_system() -> bool:
    """Whether the view in use is the system's (a hook's process: no view keeps answers)."""
    return isinstance(_VIEW[0], System)


def realpath(path: str) -> str:
    """``path``'s real path, as the view in use answers."""
    return _VIEW[0].realpath(path)


def identity(path: str) -> tuple[int, int, int] | None:
    """The identity of the regular file at ``path``, as the view in use answers."""
    return _VIEW[0].identity(path)


def islink(path: str) -> bool:
    """Whether ``path`` is a symbolic link, as the view in use answers."""
    return _VIEW[0].islink(path)


def watch_folder(folder: str) -> None:
    """Asks the view in use about an entry of ``folder`` before the caller lists it itself:
    a view that keeps answers (the service's) then watches the folder, so that a kept answer
    depending on the listing sees an entry come or go."""
    _VIEW[0].islink(os.path.join(folder or "/", "settings.json"))


def entry(path: str) -> str | None:
    """What the entry at ``path`` is (``View.entry``), as the view in use answers."""
    return _VIEW[0].entry(path)


def is_folder(path: str) -> bool:
    """``os.path.isdir(path)``, as the view in use answers: the entry at its real path."""
    if isinstance(_VIEW[0], System):
        return os.path.isdir(path)
    try:
        return entry(realpath(path)) == "dir"
    except (OSError, ValueError):
        return False


def exists(path: str) -> bool:
    """``os.path.exists(path)``, as the view in use answers: an entry at its real path."""
    if isinstance(_VIEW[0], System):
        return os.path.exists(path)
    try:
        return entry(realpath(path)) is not None
    except (OSError, ValueError):
        return False


def read(path: str, limit: int) -> bytes:
    """Up to ``limit`` bytes of the file at ``path``, read through the view in use (which
    watches it when a ``kept`` answer depends on it); raises OSError as ``open`` does."""
    return _VIEW[0].read(path, limit)


def text(path: str, limit: int) -> str | None:
    """The text of the file at ``path`` (its first ``limit`` bytes, UTF-8 with each bad byte
    replaced); None where it is not read."""
    try:
        return read(path, limit).decode("utf-8", "replace")
    except (OSError, ValueError):
        return None


def kept(key: Callable[[], Hashable], compute: Callable[[], T]) -> T:
    """``compute()``, or the view's kept answer to it (``View.kept``)."""
    return _VIEW[0].kept(key, compute)


def unkept() -> None:
    """``View.unkept`` of the view in use."""
    _VIEW[0].unkept()
