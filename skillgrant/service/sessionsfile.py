"""The sessions file: the registry's changes (registry.py), kept across the service's restarts
(review s51-gfix3 F2b).

A registration must precede a session's first call, and once a call of an id is decided the id
never registers: a restarted service that forgot which ids made calls would let another session
holding the token register a victim's id. So each change of the registry (an id registered, in
conflict, or noted as having called first) is appended to this file, and fsynced, before its
answer is sent, and the file is read back when the service starts.

- It lies in the folder where every skillgrant service keeps its state, ``STATE`` in this
  user's home of the password database (``~/.local/state/skillgrant/sessions/``; never
  ``HOME``'s: s53-sreview R1), or ``$SKILLGRANT_STATE_DIR/sessions/``, which every gate of
  this version guards whole, the ``skillgrant hook`` command's and every service's, whatever
  its ``HOME`` (gate/guards.py; issue 29, review s52-sreview S2: a gate guards only what it
  knows of, and a session of another gate emptied a file kept beside the audit log). It is
  named by the SHA-256 of the audit log's real path (``serve --audit-log FILE``), so services
  sharing a log share it, and opened at its real path (a home reached through a link);
  without an audit log there is no file, and a restart forgets the registry.
- It is opened as the audit log is (``gate.audit.open_log``: never through a link, a regular
  file of this user with one name, created 0600, ``O_APPEND``), in a folder no other user may
  write (``userfolder.made``: the folders not there yet made 0700).
- One JSON array a line, after ``HEADER``: ``["v", [[name, value], ...]]`` defines the next set
  of values (numbered from 0 in the file's order: a set shared by many sessions is written once),
  ``["r", id, n]`` registers an id with set ``n``, ``["x", id]`` puts it in conflict, ``["c",
  id]`` notes its first call. Reading it back makes the same changes, by the same rules.
- Each change is appended under the file's ``flock``, after reading what another service
  sharing the file appended since (``locked``): the file is the registry of every service using
  it, at each change.
- It is read whole at start, at most ``MAX_FILE_BYTES``. A file that is not one (it does not
  begin with the header, nor is a start of it), a line that is not a record, or a file over the
  bound refuses the start (``serve`` exits 2 naming it): the service never guesses which ids
  called. A last line without its newline is a write cut by a crash, whose answer was never
  sent (the fsync precedes it): it is cut off.
- Nothing in the file can tell that it was cut at a record's end, emptied or removed between
  two runs (review s52-sreview S1): the audit log witnesses it. After each append (before the
  answer) the service writes an audit record of the file's size and SHA-256
  (``sessionswitness.py``), and at start the file must begin with the bytes the log's last
  such record names, followed by nothing but first calls' notes and conflicts (a crash
  between a change's fsync and its record), or the start is refused. A log with no such
  record (new, rotated, or of a version before) witnesses nothing.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..gate.audit import open_log
from ..gate.homefiles import STATE_VARIABLE, usual_state_folder
from .sessionswitness import last_witnessed, witness_record
from .userfolder import made

if TYPE_CHECKING:
    from .auditlog import AuditLog

#: The end of a sessions file's name.
SUFFIX = ".sessions"
#: The file's first line.
HEADER = b'["skillgrant-sessions",1]\n'
#: The file's size at most: a line for each of ``registry.MAX_SESSIONS`` ids' changes (two at
#: most) and the values sets (``registry.MAX_KEPT_CHARS``), escaped.
MAX_FILE_BYTES = 256_000_000


#: How an operator starts anew once a sessions file is refused.
_ANEW = ("Start anew only once no session of before runs: move both the sessions file and the "
         "audit log away")


class SessionsFileError(OSError):
    """The sessions file cannot be read as one, or is over its bound."""


def path_of(audit_log: str) -> str:
    """The sessions file of the audit log ``audit_log`` (an absolute path): in ``sessions`` of
    the state folder (``state_folder``), named by the SHA-256 of the log's folder's real path
    joined with its name. Raises OSError."""
    real = os.path.join(os.path.realpath(os.path.dirname(audit_log)),
                        os.path.basename(audit_log))
    name = hashlib.sha256(os.fsencode(real)).hexdigest() + SUFFIX
    return os.path.join(state_folder(), "sessions", name)


def state_folder() -> str:
    """Where the service keeps its state: the folder ``SKILLGRANT_STATE_DIR`` names, or
    ``STATE`` in this user's home of the password database, never ``HOME``'s (every gate
    guards both, whatever its ``HOME``: s53-sreview R1). Raises OSError when there is none."""
    given = os.environ.get(STATE_VARIABLE)
    if given:
        if not os.path.isabs(given):
            raise OSError(f"{STATE_VARIABLE} ({given!r}) is not an absolute path")
        return given
    usual = usual_state_folder()
    if not usual:
        raise OSError(f"this user (uid {os.geteuid()}) has no home in the password database "
                      f"to keep the sessions file in: set {STATE_VARIABLE} for the service "
                      "and for every runtime of the user alike")
    return usual


def beside(audit_log: str) -> str:
    """Where a version before session 53 kept the sessions file of ``audit_log``."""
    return audit_log + SUFFIX


class SessionsFile:
    """The open sessions file, how much of it the registry has read, and the audit log that
    witnesses it (None: none, in a test)."""

    def __init__(self, path: str, audit: AuditLog | None = None) -> None:
        self.path = path
        folder = os.path.dirname(path)
        problem = made(folder)
        if problem is not None:
            raise OSError(f"the sessions file {path!r} cannot be kept there: {problem}")
        try:  # (at its real path: a home reached through a link, as ``made`` examined it)
            self._fd = open_log(os.path.join(os.path.realpath(folder), os.path.basename(path)))
        except OSError as e:
            raise OSError(f"cannot open the sessions file {path!r}: {e}") from None
        self._read = 0
        self._audit = audit
        self._digest = hashlib.sha256()  # of the bytes read (or written) so far
        self._witnessed: tuple[int, str] | None = None  # (the log's, at start)

    def close(self) -> None:
        os.close(self._fd)

    @contextlib.contextmanager
    def locked(self, replay: Callable[[list[Any]], None]) -> Iterator[None]:
        """Hold the file's lock, having given ``replay`` each record appended since the
        last time (by this service before a restart, or by another). Raises OSError."""
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        try:
            self._catch_up(replay)
            yield
        finally:
            fcntl.flock(self._fd, fcntl.LOCK_UN)

    def append(self, records: list[list[Any]]) -> None:
        """Append ``records`` with one write, and fsync them (under ``locked``). Raises
        OSError; a write cut short is cut off."""
        data = b"".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode()
                        + b"\n" for r in records)
        if self._read == 0:
            data = HEADER + data
        digest = self._digest.copy()
        digest.update(data)
        try:
            if os.write(self._fd, data) != len(data):
                raise OSError("the sessions file took part of a write")
            os.fsync(self._fd)
            self._attest(self._read + len(data), digest)
        except OSError:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self._read)
            raise
        self._read += len(data)
        self._digest = digest

    def attest(self) -> None:
        """Write the audit record of the file as read (under ``locked``): after the audit log
        was opened again (rotated), its first. Raises OSError."""
        self._attest(self._read, self._digest)

    def _attest(self, size: int, digest: Any) -> None:
        if self._audit is not None:
            self._audit.write(witness_record(self.path, size, "sha256:" + digest.hexdigest()))

    def _catch_up(self, replay: Callable[[list[Any]], None]) -> None:
        size = os.fstat(self._fd).st_size
        if size > MAX_FILE_BYTES or size < self._read:
            raise SessionsFileError(
                f"the sessions file {self.path!r} is over {MAX_FILE_BYTES} bytes"
                if size > MAX_FILE_BYTES else f"the sessions file {self.path!r} was cut short")
        data = os.pread(self._fd, size - self._read, self._read)
        first = self._read == 0
        if first:
            self._check_start(data)
        whole = data.rfind(b"\n") + 1
        if whole < len(data):  # (a write cut by a crash: never answered)
            os.ftruncate(self._fd, self._read + whole)
        for line in data[:whole].split(b"\n")[:-1]:
            if self._read == 0:
                if line + b"\n" != HEADER:
                    raise SessionsFileError(f"{self.path!r} is not a sessions file")
            else:
                _replayed(self.path, self._read, line, replay)
            self._read += len(line) + 1
            self._digest.update(line + b"\n")  # (of what was read: as far as ``_read``)
        if first and self._read and self._audit is not None and \
                self._witnessed != (self._read, "sha256:" + self._digest.hexdigest()):
            self.attest()  # (the last record names the file as it is now)

    def _check_start(self, data: bytes) -> None:
        """Refuse, before any of it is cut off, a file that is no sessions file, or does not
        begin with the bytes the audit log last witnessed. Raises SessionsFileError."""
        if not data.startswith(HEADER) and not HEADER.startswith(data):
            raise SessionsFileError(f"{self.path!r} is not a sessions file")
        self._witnessed = None if self._audit is None else self._audit.read_back(
            last_witnessed)
        if self._witnessed is None:
            return
        size, digest = self._witnessed
        if len(data) < size or "sha256:" + hashlib.sha256(data[:size]).hexdigest() != digest:
            raise SessionsFileError(
                f"the sessions file {self.path!r} ({len(data)} bytes) does not begin with the "
                f"{size} bytes the audit log's last sessions-file record names ({digest}): it "
                "was emptied, cut, removed or replaced since the service wrote it, so which "
                f"sessions registered or called first is not known. {_ANEW}")
        # Past them, what a crash between a change's fsync and its record left (never
        # answered): only a note or a conflict, which deny, never a registration.
        for line in data[size:].split(b"\n")[:-1]:
            if not line.startswith((b'["c",', b'["x",')):
                raise SessionsFileError(
                    f"the sessions file {self.path!r} holds, past the {size} bytes the audit "
                    f"log's last sessions-file record names, a record that is not a first "
                    f"call's note or a conflict ({line[:80]!r}). {_ANEW}")


def _replayed(path: str, at: int, line: bytes, replay: Callable[[list[Any]], None]) -> None:
    """``replay`` the record ``line`` (at byte ``at``). Raises SessionsFileError."""
    try:
        record = json.loads(line)
        if not isinstance(record, list):
            raise ValueError("not an array")
        replay(record)
    except (ValueError, TypeError, IndexError, KeyError, RecursionError) as e:
        raise SessionsFileError(f"the sessions file {path!r} has a record that cannot be "
                                f"read at byte {at} ({type(e).__name__}: {e})") from None
