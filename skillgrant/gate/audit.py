"""The call gate's audit log: JSON Lines, one record per decision.

Each record is written with one ``write`` to a file opened with ``O_APPEND``, so hooks running at
the same time never interleave or lose a line: the kernel moves the offset to the end and writes
the whole buffer under the file's lock. A record that cannot be written makes the hook deny the
call (no decision goes unrecorded).
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Sequence

#: Characters kept of each text field of a record (a reason, a witness, a tool name).
MAX_FIELD_CHARS = 2_000


def record(*, session: str | None, runtime_tool: str | None, tool: str | None, decision: str,
           status: str, reason: str, covered_by: Sequence[str] = (), witness: str | None = None,
           plan_digest: str | None = None, dialect: str | None = None) -> bytes:
    """One record as a line of JSON (ASCII, newline-terminated)."""
    body = {
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
    }
    return (json.dumps(body, ensure_ascii=True) + "\n").encode("ascii")


def stamp() -> str:
    """The time now in UTC, to the millisecond, as every record and service event gives it."""
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z"


def append(path: str, line: bytes) -> None:
    """Append ``line`` to the log at ``path`` in one write (created 0600 if absent). Raises
    OSError when it cannot be written whole."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0),
                 0o600)
    try:
        on_a_new_line(fd, path)
        written = os.write(fd, line)
        if written != len(line):
            raise OSError(f"the audit log took {written} of {len(line)} bytes")
    finally:
        os.close(fd)


def on_a_new_line(fd: int, path: str) -> None:
    """End a record cut short in the regular file open at ``fd`` (the log at ``path``), so that
    the next one starts on its own line.

    A writer killed by SIGKILL can leave its record cut short: Linux stops a write between
    pages when a fatal signal is pending, and keeps what it has written. That record's call was
    never answered, since its answer is sent only after the record is written. Without this,
    the next record would be glued onto it, and a reader of lines would lose both. The last
    byte is read through a descriptor of its own, so the log is opened to append as before."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or not info.st_size:
        return
    try:
        reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:  # a log its writer may not read: appended to all the same
        return
    try:
        last = os.pread(reader, 1, info.st_size - 1)
    finally:
        os.close(reader)
    if last != b"\n":
        os.write(fd, b"\n")


def _cut(text: str | None) -> str | None:
    if text is None or len(text) <= MAX_FIELD_CHARS:
        return text
    return text[:MAX_FIELD_CHARS] + f"… ({len(text)} characters)"
