"""The call gate's audit log: JSON Lines, one record per decision.

Each record is written with one ``write`` to a file opened with ``O_APPEND``, so hooks running at
the same time never interleave or lose a line: the kernel moves the offset to the end and writes
the whole buffer under the file's lock. A record that cannot be written makes the hook deny the
call (no decision goes unrecorded).
"""

from __future__ import annotations

import json
import os
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
        written = os.write(fd, line)
        if written != len(line):
            raise OSError(f"the audit log took {written} of {len(line)} bytes")
    finally:
        os.close(fd)


def _cut(text: str | None) -> str | None:
    if text is None or len(text) <= MAX_FIELD_CHARS:
        return text
    return text[:MAX_FIELD_CHARS] + f"… ({len(text)} characters)"
