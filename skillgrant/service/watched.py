"""The gate's view of the filesystem in ``skillgrant serve`` (``gate.files``): the system's
answers, kept for exactly as long as nothing on their paths changes.

A hook decision asks for some twenty real paths (the files the gate guards, the words of a
command) and file identities, and asking the system each time was most of a decision's cost
(issue 29). An answer about a path is kept only when
- the path is absolute and normalized, and no component of it is a symbolic link (so its real
  path is itself, and the file at it is the one its folder's entry names);
- every folder on the path is watched with inotify for an entry created, deleted, moved or
  changed in its attributes, and for the folder itself deleted or moved;
- every folder on the path lies in a filesystem of this machine (``LOCAL_TYPES``: not NFS,
  SMB, FUSE, 9p or virtiofs, where a change made elsewhere is reported to no one).

A link, a file or a folder appears at a path, or leaves it, only through such an entry change
in one of those folders, which the kernel queues before the changing call returns; a mount
changes ``/proc/self/mountinfo``, which is polled. ``refresh()``, before each decision, reads
both without waiting. An event forgets every answer about a path through the entry it names
(or beneath the folder it is about), and the watches of a folder replaced or gone; an
overflow, an event of a watch not known, a mount change or more than ``_MAX_CHANGED`` paths
forget everything. Past ``MAX_WATCHES`` watches the view starts over with a new inotify
descriptor. Any other question (a relative path, a path through a link, a folder that cannot
be watched) is answered by the system each time, and the view raises nothing the system
would not. Linux only: elsewhere ``watched()`` gives None, and the gate asks the system.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import posixpath
import select
import stat
import struct
import sys
import threading
from collections.abc import Callable, Hashable
from contextvars import ContextVar
from typing import Any, Final, TypeVar

from ..gate.files import dots_lead, entry_kind, file_identity, read_open
from .mounts import local, mount_types

A = TypeVar("A")
#: Watches at most (distinct folders); past them the view starts over.
MAX_WATCHES = 4096
#: Answers kept at most, of each kind; past them the kind is forgotten.
MAX_KEPT = 65_536
#: Whole answers (``kept``) kept at most, of each kind (a key's first item): each may be large
#: (a guarded set is some hundred paths), and a request names its own folder (review s40 R8).
#: Kinds apart, a stream of distinct commands' answers never pushes out the guarded set.
MAX_COMPOSITES = 256
_IN_NONBLOCK = os.O_NONBLOCK
_IN_CLOEXEC = os.O_CLOEXEC
# IN_ATTRIB, IN_MOVED_FROM/TO, IN_CREATE, IN_DELETE(_SELF), IN_MOVE_SELF, IN_ONLYDIR,
# IN_DONT_FOLLOW; each with IN_MASK_ADD (a folder read as a file keeps its earlier events)
_MASK = 0x4 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | 0x800 | 0x01000000 | 0x02000000 | 0x20000000
# A file read for a kept answer, watched itself (a write through a hard link too): IN_MODIFY,
# IN_ATTRIB, IN_CLOSE_WRITE, IN_DELETE_SELF, IN_MOVE_SELF, IN_DONT_FOLLOW (not a shared map's).
_FILE_MASK = 0x2 | 0x4 | 0x8 | 0x400 | 0x800 | 0x02000000 | 0x20000000
_MISSING = (2, 20)  # ENOENT, ENOTDIR: not there; its parent's watch sees it come
_EVENT = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len; then the name
_IN_EVERYTHING = 0x2000 | 0x4000  # IN_UNMOUNT, IN_Q_OVERFLOW
_IN_ATTRIB = 0x4
#: A file's own watch for its count of names (IN_ATTRIB, IN_DELETE_SELF, IN_MOVE_SELF, ...).
_NAMES_MASK = _IN_ATTRIB | 0x400 | 0x800 | 0x02000000 | 0x20000000
_IN_ISDIR = 0x40000000
#: Paths changed in one refresh past which everything is forgotten (cheaper than looking).
_MAX_CHANGED = 64
#: Links followed at most to keep a real path (``Watched.realpath``).
_MAX_LINKS = 8
_ANSWER: Final = object()  # ``Watched._keep``'s kind for the tables of single answers
#: While ``Watched.kept`` computes an answer: whether every part of it can be kept so far.
_WHOLE: ContextVar[list[bool] | None] = ContextVar("whole", default=None)


def _part_unkept() -> None:
    whole = _WHOLE.get()
    if whole is not None:
        whole[0] = False


class Watched:
    """``gate.files.View`` with kept answers (the module's docstring). Thread-safe."""

    def __init__(self, libc: ctypes.CDLL) -> None:
        self._libc = libc
        self._lock = threading.Lock()
        self._generation = 0
        self._watched: dict[str, int] = {}  # folder: its watch
        self._folders: dict[int, set[str]] = {}  # watch: its folders (a bind mount: several)
        self._wds: set[int] = set()
        self._real: dict[str, str] = {}
        self._ids: dict[str, tuple[int, int, int] | None] = {}
        self._links: dict[str, bool] = {}
        self._entries: dict[str, str | None] = {}
        self._through_links: dict[str, str] = {}  # real paths of links: of this generation
        # ``kept``'s answers, of this generation, by kind (``_kind``)
        self._composites: dict[Hashable, dict[Hashable, Any]] = {}
        self._fd = self._open()
        self._mounts = open("/proc/self/mountinfo", "rb")  # noqa: SIM115 (kept open)
        self._types = mount_types(self._mounts.read())
        self._poll = select.poll()
        self._poll.register(self._mounts.fileno(), select.POLLPRI | select.POLLERR)
        self._poll.register(self._fd, select.POLLIN)

    def _open(self) -> int:
        fd = int(self._libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC))
        if fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        return fd

    def close(self) -> None:
        os.close(self._fd)
        self._mounts.close()

    def refresh(self) -> None:
        """Forget what changed since the last refresh: every answer about a path through an
        entry of a watched folder that was created, deleted, moved or changed in its
        attributes, or beneath a watched folder deleted or moved; everything at an overflow,
        an event of a watch not known, or a change of the mounts."""
        data, everything = b"", False
        with self._lock:  # not while ``_restart`` replaces the descriptor
            ready = dict(self._poll.poll(0))  # one call, when nothing changed
            if not ready:
                return
            while self._fd in ready:
                try:
                    chunk = os.read(self._fd, 65_536)
                except BlockingIOError:
                    break
                except OSError:
                    everything = True
                    break
                if not chunk:
                    break
                data += chunk
        if self._mounts.fileno() in ready:
            everything = True
            self._mounts.seek(0)
            self._types = mount_types(self._mounts.read())
        if data or everything:
            self._changed(data, everything=everything)

    def _changed(self, data: bytes, *, everything: bool) -> None:
        changed: set[str] = set()  # paths whose answers, and those beneath, are forgotten
        gone: set[str] = set()  # folders, and those beneath, whose watches no longer hold
        offset = 0
        with self._lock:
            while offset + _EVENT.size <= len(data):
                wd, mask, _, size = _EVENT.unpack_from(data, offset)
                name = data[offset + _EVENT.size:offset + _EVENT.size + size].rstrip(b"\0")
                offset += _EVENT.size + size
                folders = self._folders.get(wd)
                if mask & _IN_EVERYTHING or not folders:
                    everything = True
                    break
                paths = {posixpath.join(f, os.fsdecode(name)) if name else f for f in folders}
                changed |= paths
                if mask & ~(_IN_ATTRIB | _IN_ISDIR):  # an entry or the folder replaced, or gone
                    gone |= paths
            self._generation += 1
            self._composites.clear()  # each rests on some part that may have changed
            self._through_links.clear()
            if everything or "/" in changed or len(changed) > _MAX_CHANGED:
                self._real.clear()
                self._ids.clear()
                self._links.clear()
                self._entries.clear()
                self._watched.clear()
                self._folders.clear()
                return
            under = tuple(path + "/" for path in changed)
            for table in (self._real, self._ids, self._links, self._entries):
                for path in [p for p in table if p in changed or p.startswith(under)]:
                    del table[path]
            beneath = tuple(path + "/" for path in gone)
            for folder in [f for f in self._watched if f in gone or f.startswith(beneath)]:
                self._folders.get(self._watched.pop(folder), set()).discard(folder)

    def realpath(self, path: str) -> str:
        found = self._real.get(path) or self._through_links.get(path)
        if found is not None:
            return found
        generation = self._generation
        watched = self._watch(path)  # first: a change from now on is reported
        found = os.path.realpath(path)
        if not watched:
            kept = False
        elif found == path:
            kept = self._linkless(path) and self._keep(self._real, path, found, generation)
        else:
            kept = self._link_kept(path, found, generation)
        if not kept:
            _part_unkept()
        return found

    def _link_kept(self, path: str, found: str, generation: int) -> bool:
        """Whether ``found``, the real path of the link ``path``, is kept: when no folder on
        the way to the link is one, and the link names a path (with no ``..`` past its
        leading ones) whose own real path is kept as ``found``. The link changes only by an
        entry of its watched folder; where it leads may change anywhere that answer rests
        on, so answers through links are forgotten at any change at all."""
        hop = path
        for _ in range(_MAX_LINKS):  # a chain, one link after another (not recursion: R14)
            folder = posixpath.dirname(hop)
            if not _normal(hop) or not self._watch(hop) or not self._linkless(folder):
                return False
            try:
                target = os.readlink(hop)
            except (OSError, ValueError):
                return False
            if not dots_lead(target):
                return False  # `..` after a link would be the link's target's parent
            hop = posixpath.normpath(posixpath.join(folder, target))
            if hop == found:
                return self.realpath(found) == found and self._real.get(found) == found \
                    and self._keep(self._through_links, path, found, generation)
        return False

    def identity(self, path: str) -> tuple[int, int, int] | None:
        # A name made elsewhere changes the count of names, which only the file's own watch
        # reports (IN_ATTRIB; review s41 S2): watched for that alone, not for writes
        return self._answer(self._ids, path, file_identity,
                            lambda found: _normal(path) and self._linkless(path) and (
                                found is None or self._add(path, _NAMES_MASK, folder=False)))

    def islink(self, path: str) -> bool:
        # The entry at ``path`` is its folder's to say, through folders that are no links.
        return self._answer(self._links, path, os.path.islink,
                            lambda _: _normal(path) and self._linkless(posixpath.dirname(path)))

    def entry(self, path: str) -> str | None:
        return self._answer(self._entries, path, entry_kind,
                            lambda _: _normal(path) and self._linkless(posixpath.dirname(path)))

    def read(self, path: str, limit: int) -> bytes:
        """The file's bytes; a ``kept`` answer may rest on them when the file is watched
        itself (a write through any name) and the folders on its path are (it is replaced)."""
        watched = _normal(path) and self._watch(path) and \
            self._linkless(posixpath.dirname(path)) and self._watch_file(path)
        if not watched:  # read, or found missing, where no change would be reported (R1)
            _part_unkept()
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError as e:
            if e.errno not in _MISSING:  # a link (ELOOP), or not to be read
                _part_unkept()
            if e.errno != errno.ELOOP:
                raise
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
        return read_open(fd, path, limit)

    def kept(self, key: Callable[[], Hashable], compute: Callable[[], A]) -> A:
        """``compute()``, kept under ``key`` until any change is reported: kept only when
        every question it asked this view was answered from a watched place (a kept answer,
        or a file read and watched) and nothing changed while it ran."""
        named = key()
        kind = named[0] if isinstance(named, tuple) and named else None  # its first item
        try:
            found: A = self._composites[kind][named]
            return found
        except KeyError:
            pass
        generation = self._generation
        whole = [True]
        token = _WHOLE.set(whole)
        try:
            answer = compute()
        finally:
            _WHOLE.reset(token)
        if not (whole[0] and self._keep(self._composites, named, answer, generation, kind)):
            _part_unkept()  # a ``kept`` answer made of this one is not whole either
        return answer

    def unkept(self) -> None:
        _part_unkept()

    def _answer(self, table: dict[str, A], path: str, ask: Callable[[str], A],
                keeps: Callable[[A], bool]) -> A:
        """``ask(path)``, kept in ``table`` when every folder on the path is watched and
        ``keeps`` says the answer depends on nothing else."""
        try:
            return table[path]
        except KeyError:
            pass
        generation = self._generation
        watched = self._watch(path)  # first: a change from now on is reported
        found = ask(path)
        if not (watched and keeps(found) and self._keep(table, path, found, generation)):
            _part_unkept()
        return found

    def _keep(self, table: dict[Any, Any], path: Hashable, answer: Any, generation: int,
              kind: Hashable = _ANSWER) -> bool:
        """Keeps ``answer`` in ``table`` (a whole answer: in its ``kind``'s table there)."""
        with self._lock:
            if self._generation != generation:
                return False  # a change was seen while it was asked: the answer may be older
            if kind is not _ANSWER:
                table = table.setdefault(kind, {})
            if len(table) >= (MAX_KEPT if kind is _ANSWER else MAX_COMPOSITES):
                table.clear()
            table[path] = answer
            return True

    def _watch_file(self, path: str) -> bool:
        """Whether the file at ``path`` is watched itself, or is not there."""
        # (not a folder of ``_watched``: its watch may lack a folder's events)
        return self._add(path, _FILE_MASK, folder=False)

    def _add(self, path: str, mask: int, *, folder: bool) -> bool:
        """Whether ``path`` is watched for ``mask`` now, or is not there (its parent's watch
        sees it come); a watch made while a refresh came is not recorded (the folder may be
        one moved away since: review s40 R4)."""
        try:
            name_bytes = os.fsencode(path)
        except UnicodeError:
            return False
        generation = self._generation
        wd = int(self._libc.inotify_add_watch(self._fd, name_bytes, mask))
        if wd < 0:
            return ctypes.get_errno() in _MISSING
        with self._lock:
            if self._generation != generation:
                return False
            self._wds.add(wd)
            if folder:
                self._watched[path] = wd
            self._folders.setdefault(wd, set()).add(path)
        return True

    def _watch(self, path: str) -> bool:
        """Whether every folder on ``path`` that exists is watched (watching those that are
        not yet), so that any change of the path's components is reported."""
        if not _normal(path):
            return False
        folder = "/"
        for name in ["", *path.split("/")[1:-1]]:
            folder = posixpath.join(folder, name) if name else folder
            if folder in self._watched:
                continue
            if not local(self._types, folder):
                return False
            if len(self._wds) >= MAX_WATCHES:
                # The view never raises where the system would answer: the gate reads an
                # OSError from ``realpath`` as a word naming no file (guards._named_file).
                with contextlib.suppress(OSError):
                    self._restart()
                return False
            if not self._add(folder, _MASK, folder=True):
                return False
            if folder not in self._watched:  # not there: its parent's watch sees it come
                return True
        return True

    def _restart(self) -> None:
        fd = self._open()
        with self._lock:
            old, self._fd = self._fd, fd
            self._wds.clear()
            self._poll.unregister(old)
            self._poll.register(fd, select.POLLIN)
            os.close(old)
        self._changed(b"", everything=True)

    def _linkless(self, path: str) -> bool:
        """Whether no component of ``path`` is a symbolic link (a missing one ends the walk:
        nothing lies beneath it)."""
        prefix = ""
        for name in path.split("/")[1:]:
            prefix += "/" + name
            try:
                if stat.S_ISLNK(os.lstat(prefix).st_mode):
                    return False
            except (OSError, ValueError):
                return True
        return True


def _normal(path: str) -> bool:
    """Absolute, normalized, not ``//``: as ``os.path.realpath`` writes a path."""
    return path.startswith("/") and not path.startswith("//") and \
        posixpath.normpath(path) == path and "\x00" not in path


def watched() -> Watched | None:
    """A view for this process, or None where inotify is not to be had."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.inotify_init1.argtypes = [ctypes.c_int]
        libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
        return Watched(libc)
    except (OSError, AttributeError):
        return None
