"""The link walk's listings kept across a hook's calls (issue 29, review s53-greview2 K4: a
write call under a collecting plan walked every folder below the collecting folders, some
2 µs an entry, 63–83 ms at 50,000 files, and was refused past 200,000 entries).

A hook process decides one call; the next call's walk lists the same folders again. So the
walk (``testlinks._walked``) keeps, for each folder it lists, the folders and links in it
(files it does not need), under the folder's identity and times as ``lstat`` gave them just
before the listing: its device, inode, ``st_mtime_ns`` and ``st_ctime_ns``. The next walk
takes a kept listing only where ``lstat`` gives the same four: an entry made, removed or
renamed in a folder changes its mtime and ctime, a folder replaced or mounted over changes
its identity, ``chmod`` (a folder made unlistable, s53-greview2 T13) changes its ctime, and
``touch -d`` may set the mtime but never the ctime. A folder whose times lie within
``_RACY`` of the listing is not kept: a change in the same tick of a coarse clock would keep
its times (git's "racily clean" entries).

The listings live in one file per set of roots in the ``walks`` folder of the state folder
(the hook's ``--state-dir``, ``SKILLGRANT_STATE_DIR``'s, or the one in the password
database's home: ``homefiles.state_folders``, every gate guards them whole, so no session
writes it),
written whole under a new name and renamed; a file not read, of another format or for other
roots keeps nothing. A service's view keeps its own walks (``files.kept``) and watches the
folders: this file is the hook's alone.

The folder is bounded (session 61: a machine whose tests walked temporary projects held 686
files, 99 MB, one per set of roots ever walked): a walk that writes its file keeps only the
``_FILES`` written last, up to ``_BYTES`` in all, and removes the rest and what a write that
died left; a file over ``_LIMIT``, which would never be read, is not written.
"""

from __future__ import annotations

import binascii
import json
import os
import time

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

#: Seconds within which a folder's times make its listing not kept.
_RACY: Final = 2.0
#: The kept file's format (another is not read).
_FORMAT: Final = 1
#: The kept file is not read past this size (a walk's listings of folders and links).
_LIMIT: Final = 64 << 20
#: The walks folder keeps the files written last: this many at most, this many bytes in all
#: (a file that alone is over it is kept still: it was just written).
_FILES: Final = 32
_BYTES: Final = 256 << 20
#: A file a write left under a name of its own (``NAME.json.PID``) is removed past this age.
_LEFT_SECONDS: Final = 600

Listing = list[tuple[str, str]]


class Kept:
    """The kept listings of one walk's roots (none where no state folder is known)."""

    def __init__(self, roots: tuple[str, ...]) -> None:
        self.path = ""
        self.roots = list(roots)
        self.old: dict[str, list[object]] = {}
        self.new: dict[str, list[object]] = {}
        state = state_folder() if fs.asks_the_system() else ""
        if not state:
            return
        joined = "\0".join(roots).encode("utf-8", "surrogateescape")
        name = f"{binascii.crc32(joined):08x}{len(joined):x}"  # (two roots' may meet: one kept)
        self.path = os.path.join(state, "walks", name + ".json")
        try:
            with open(self.path, encoding="utf-8", errors="surrogateescape") as kept:
                data = json.loads(kept.read(_LIMIT))
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and data.get("format") == _FORMAT and data.get(
                "roots") == list(roots) and isinstance(data.get("folders"), dict):
            self.old = data["folders"]

    def listing(self, folder: str, lister: Callable[[str], Listing]) -> tuple[Listing, int]:
        """``lister(folder)``'s folders and links, kept or listed now, and how many entries
        were listed now (0 for a kept listing)."""
        if not self.path:
            listed = lister(folder)
            return listed, len(listed)
        try:
            st = os.lstat(folder)
        except OSError:
            st = None
        stamp = None if st is None else [st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns]
        kept = self.old.get(folder)
        if stamp is not None and isinstance(kept, list) and len(kept) == 2 and \
                kept[0] == stamp and isinstance(kept[1], list):
            self.new[folder] = kept
            return [(n, k) for n, k in kept[1]], 0
        listed = lister(folder)
        now = time.time_ns()
        if stamp is not None and now - max(stamp[2], stamp[3]) > _RACY * 1e9:
            self.new[folder] = [stamp, [[n, k] for n, k in listed if k != "file"]]
        return listed, len(listed)

    def save(self) -> None:
        """Writes the listings this walk took or made (not those it no longer met), whole,
        where they changed; a write that fails keeps nothing (the next walk lists again)."""
        if not self.path or self.new == self.old:
            return
        text = json.dumps({"format": _FORMAT, "roots": self.roots,  # (dumps: json's C
                           "folders": self.new})  # encoder; dump's is Python's)
        if len(text) > _LIMIT:  # (never read whole: an ASCII text's length is its size)
            return
        written(self.path, text.encode("utf-8", "surrogateescape"), ".json")


def written(path: str, data: bytes, suffix: str) -> None:
    """Writes ``data`` whole at ``path`` (under a name of its own, then renamed: a reader sees
    the old file or the new), its folder made (this user's alone) and ``bound``; a write that
    fails writes nothing (``guardkeep``'s kept sets too)."""
    folder = os.path.dirname(path)
    fresh = f"{path}.{os.getpid()}"
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(fresh, path)
    except OSError:
        try:  # noqa: SIM105  (contextlib is not loaded in a hook's process)
            os.unlink(fresh)
        except OSError:
            pass
        return
    bound(folder, path, len(data), suffix)


def bound(folder: str, written: str, size: int, suffix: str = ".json") -> None:
    """Removes from the walks ``folder`` the kept files past the ``_FILES`` written last or
    past ``_BYTES`` in all (never ``written``, just written with ``size`` bytes: the newest),
    and the files writes left (``NAME.json.PID``) older than ``_LEFT_SECONDS``. What cannot be
    listed or removed stays. ``suffix`` ends a kept file's name (``guardkeep``'s folder too)."""
    try:
        entries = [(e.stat(follow_symlinks=False), e.path) for e in os.scandir(folder)]
    except OSError:
        return
    now = time.time()
    kept = sorted(((st.st_mtime_ns, st.st_size, path) for st, path in entries
                   if path.endswith(suffix) and path != written), reverse=True)
    total = size
    doomed = [path for st, path in entries
              if not path.endswith(suffix) and now - st.st_mtime > _LEFT_SECONDS]
    for count, (_mtime, bytes_, path) in enumerate(kept, 2):  # (``written`` is the first)
        total += bytes_
        if count > _FILES or total > _BYTES:
            doomed.append(path)
    for path in doomed:
        try:  # noqa: SIM105  (contextlib is not loaded in a hook's process)
            os.unlink(path)
        except OSError:
            pass


def state_folder() -> str:
    """The state folder the hook names (``--state-dir``), else ``SKILLGRANT_STATE_DIR``'s,
    else the usual one (``homefiles.state_folders``: each guarded whole by every gate); ""
    where none is known."""
    from .homefiles import NAMED_STATE, STATE_VARIABLE, usual_state_folder

    return next((f for f in (*NAMED_STATE, os.environ.get(STATE_VARIABLE) or "")
                 if f[:1] == "/"), "") or usual_state_folder()
