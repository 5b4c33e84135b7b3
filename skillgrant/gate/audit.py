"""The call gate's audit log: JSON Lines, one record per decision, each chained to the one
before it.

**The chain.** Every record ends with ``"prev"``: ``sha256:`` and the SHA-256 of the bytes of the
record before it (its whole line, newline included), or null for the first record of a file. A
line between them that is not a record (one cut short by a kill) is named in ``"torn"``, the
SHA-256 of each such line in order, so it cannot be removed or added quietly either.
``skillgrant audit verify`` (``evidence/chain.py``) names the first record where an edit, a
deletion, an insertion or a reordering breaks the chain.

**One chain for many writers.** The hooks (many processes at once) and the service append to the
same file. Each append holds an exclusive ``flock`` on the file while it reads the last record,
computes the link and writes, so two writers never chain to the same record. The lock is
waited for at most ``LOCK_SECONDS``; a record that cannot be written whole, or chained (the
log cannot be read back, or ends in more than ``MAX_TORN`` lines that are not records), makes
the hook deny the call: no decision goes unrecorded.

Each record is still one ``write`` to a file opened with ``O_APPEND``. A writer killed by
SIGKILL can leave its record cut short: Linux stops a write between pages when a fatal signal
is pending, and keeps what it has written. That record's call was never answered, since its
answer is sent only after the record is written. The next writer, under the lock, ends the cut
line with a newline (so its own record starts on a line of its own and a reader of lines loses
nothing else) and names the cut line in ``"torn"``.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Mapping, Sequence

#: Characters kept of each text field of a record (a reason, a witness, a tool name).
MAX_FIELD_CHARS = 2_000
#: Characters of a call's input (as JSON) kept whole; past it the largest arguments are left
#: out and named in ``input_cut`` (a Write's content, say), so the call can still be read.
MAX_INPUT_CHARS = 64_000
#: Seconds an append waits for the log's lock before it fails (and the hook denies).
LOCK_SECONDS = 10.0
#: Lines at the end of the log that are not records, named in one record's ``torn``.
MAX_TORN = 16
#: Bytes read back from the end of the log to find the last record.
MAX_TAIL_BYTES = 8 * 1024 * 1024


def record(*, session: str | None, runtime_tool: str | None, tool: str | None, decision: str,
           status: str, reason: str, covered_by: Sequence[str] = (), witness: str | None = None,
           plan_digest: str | None = None, dialect: str | None = None, observed: bool = False,
           tool_input: Mapping[str, object] | None = None, cwd: str | None = None) -> bytes:
    """One record as a line of JSON (ASCII, newline-terminated), without its link (``append``
    adds it). ``observed`` marks a decision made under ``--observe`` (logged, never enforced);
    ``tool_input`` and ``cwd`` are the call, for ``suggest`` and ``replay``."""
    body: dict[str, object] = {
        "time": stamp(),
        "session_id": _cut(session),
        "runtime_tool": _cut(runtime_tool),
        "tool": _cut(tool),
        "decision": decision,
        "status": status,
        "reason": _cut(reason),
        "covered_by": [_cut(c) for c in covered_by[:64]],
        "witness": _cut(witness),
        "plan_digest": plan_digest,
        "dialect": dialect,
        "observed": observed,
        "input": None,
        "cwd": cwd if cwd is None or len(cwd) <= MAX_FIELD_CHARS else None,
    }
    if tool_input is not None:
        body["input"], cut = _kept_input(tool_input)
        if cut:
            body["input_cut"] = cut
    return (json.dumps(body, ensure_ascii=True) + "\n").encode("ascii")


def _kept_input(tool_input: Mapping[str, object]) -> tuple[dict[str, object], list[str]]:
    try:
        kept = {str(k): v for k, v in tool_input.items()}
        sizes = {k: len(json.dumps(v, ensure_ascii=True)) for k, v in kept.items()}
    except (TypeError, ValueError, RecursionError):
        return {}, sorted(str(k) for k in tool_input)
    cut: list[str] = []
    for key in sorted(sizes, key=lambda k: (-sizes[k], k)):
        if sum(sizes[k] for k in kept) <= MAX_INPUT_CHARS:
            break
        del kept[key]
        cut.append(key)
    return kept, sorted(cut)


def stamp() -> str:
    """The time now in UTC, to the millisecond, as every record and service event gives it."""
    global _SECOND
    now = time.time()
    second = int(now)
    kept = _SECOND  # read once: another thread may replace it
    if kept[0] != second:  # the date and time to the second, written once a second
        kept = _SECOND = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
    return f"{kept[1]}.{int(now % 1 * 1000):03d}Z"


#: The last second ``stamp`` wrote, and how.
_SECOND: tuple[int, str] = (-1, "")


def link(line: bytes) -> str:
    """How the next record names ``line`` (a whole line, newline included) in its chain."""
    from .planfile import sha256_hex  # CPython's own SHA-256: hashlib would load OpenSSL

    return "sha256:" + sha256_hex(line)


def chained(line: bytes, prev: str | None, torn: Sequence[str] = ()) -> bytes:
    """``line`` (a record from ``record``) with its link to the record before it."""
    tail = b', "prev": ' + json.dumps(prev).encode("ascii")
    if torn:
        tail += b', "torn": ' + json.dumps(list(torn)).encode("ascii")
    return line[:-2] + tail + b"}\n"


def append(path: str, line: bytes) -> None:
    """Append ``line`` to the log at ``path``, chained, in one write (created 0600 if absent).
    Raises OSError when it cannot be chained or written whole."""
    # Read and write through one descriptor: the record is chained to the file it is written
    # to, even if the log is renamed (rotated) in between.
    fd = open_log(path)
    try:
        append_locked(fd, line)
    finally:
        os.close(fd)


def open_log(path: str) -> int:
    """The audit log at ``path`` opened to read and append (created 0600 if absent), never
    through a symbolic link at its last component (``O_NOFOLLOW``), and only a regular file:
    a record holds the model's input verbatim, and a log a call turned into a link to
    ``~/.bashrc`` would append it there as shell code (review A1). Its folders are reached
    the same way (``_folder``): a folder on the way replaced by a link to ``~/.bashrc.d``
    would put a new log there (review A1b). Raises OSError."""
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | \
        getattr(os, "O_NONBLOCK", 0)  # a FIFO or a device would block on open
    folder, name = _folder(path)
    try:
        fd = os.open(name, flags | getattr(os, "O_NOFOLLOW", 0), 0o600, dir_fd=folder)
    finally:
        os.close(folder)
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1 or info.st_uid != os.geteuid():
        os.close(fd)  # a hard link (to ~/.bashrc) is a regular file too (review A1b)
        raise OSError(f"the audit log {path!r} is not a regular file of this user with one "
                      "name")
    return fd


def _folder(path: str) -> tuple[int, str]:
    """A descriptor of the folder holding ``path`` and the name in it, each folder on the way
    opened from the one before it without following a symbolic link (``O_NOFOLLOW``), from
    ``/`` for an absolute path and from the working directory for a relative one. Raises
    OSError naming the folder that is a link, or missing. (``--print-config`` and ``apply
    --enforce`` write the log's folder as its real path, so a link that was there then is
    not one on the way now.)"""
    head, name = os.path.split(path)
    if not name or name in (".", ".."):
        raise OSError(f"the audit log {path!r} names no file")
    directory = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open("/" if os.path.isabs(path) else ".", directory)
    walked = "/" if os.path.isabs(path) else ""
    try:
        for part in head.split("/"):
            if part in ("", "."):
                continue
            walked = os.path.join(walked, part)
            try:
                inner = os.open(part, directory | getattr(os, "O_NOFOLLOW", 0), dir_fd=fd)
            except OSError as e:
                raise OSError(f"the audit log's folder {walked!r} is not a folder reached "
                              f"without a symbolic link ({e.strerror or e})") from None
            os.close(fd)
            fd = inner
    except BaseException:
        os.close(fd)
        raise
    return fd, name


#: What a long-lived writer remembers of its last append: (device, inode, size, link).
Memo = tuple[int, int, int, str]


def append_locked(fd: int, line: bytes, memo: Memo | None = None) -> Memo:
    """Append ``line``, chained, to the log open at ``fd`` (read and write, ``O_APPEND``) under
    its lock; what to remember for the next append. When ``memo`` says this writer made the
    last append (same file, same size), the log is not read back. Raises OSError."""
    import fcntl

    _lock(fd)
    try:
        info = os.fstat(fd)
        prev: str | None
        torn: list[str] = []
        if memo is not None and memo[:3] == (info.st_dev, info.st_ino, info.st_size):
            prev = memo[3]
        else:
            prev, torn = _last_links(fd, info)
        whole = chained(line, prev, torn)
        written = os.write(fd, whole)
        if written != len(whole):
            raise OSError(f"the audit log took {written} of {len(whole)} bytes")
        after = os.fstat(fd)
        return (after.st_dev, after.st_ino, after.st_size, link(whole))
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)


def _lock(fd: int) -> None:
    import errno
    import fcntl

    deadline = time.monotonic() + LOCK_SECONDS
    pause = 0.0005
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except OSError as e:
            if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EINTR):
                raise
        if time.monotonic() > deadline:
            raise OSError(f"the audit log stayed locked for {LOCK_SECONDS:g} s")
        time.sleep(pause)
        pause = min(pause * 2, 0.01)


def _last_links(fd: int, info: os.stat_result) -> tuple[str | None, list[str]]:
    """The link to the last record of the log, and to each line after it that is not one."""
    if not stat.S_ISREG(info.st_mode) or not info.st_size:
        return None, []
    size = info.st_size
    try:
        last = os.pread(fd, 1, size - 1)
    except OSError as e:
        raise OSError(f"the audit log cannot be read back to chain the record: {e}") from None
    if last != b"\n":  # a record cut short by a kill: end its line
        os.write(fd, b"\n")
        size += 1
    return _tail(fd, size)


def _tail(reader: int, size: int) -> tuple[str | None, list[str]]:
    torn: list[str] = []
    buffer, start, end = b"", size, size  # buffer holds [start, size); a line ends at `end`
    while end > 0:
        cut = buffer.rfind(b"\n", 0, end - 1 - start)
        while cut < 0 and start > 0:
            grow = min(max(65536, size - start), start)
            if size - start + grow > MAX_TAIL_BYTES:
                raise OSError(f"no record in the last {MAX_TAIL_BYTES} bytes of the audit log")
            buffer = os.pread(reader, grow, start - grow) + buffer
            start -= grow
            cut = buffer.rfind(b"\n", 0, end - 1 - start)
        begin = start + cut + 1 if cut >= 0 else 0
        line = buffer[begin - start:end - start]
        if is_record(line):
            return link(line), torn[::-1]
        torn.append(link(line))
        if len(torn) > MAX_TORN:
            raise OSError(f"the audit log ends in more than {MAX_TORN} lines that are not "
                          "records")
        end = begin
    return None, torn[::-1]


def is_record(line: bytes) -> bool:
    """Whether a whole line of the log is a record (a JSON object), not a line cut short."""
    if not line.endswith(b"}\n"):
        return False
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):
        return False


def _cut(text: str | None) -> str | None:
    if text is None or len(text) <= MAX_FIELD_CHARS:
        return text
    return text[:MAX_FIELD_CHARS] + f"… ({len(text)} characters)"
