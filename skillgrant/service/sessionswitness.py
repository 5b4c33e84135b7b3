"""The audit log's witness of the sessions file (review s52-sreview S1).

A sessions file emptied, cut at a record's end, or removed between two runs of the service
reads as a registry that knows fewer sessions, and nothing in it can tell: an id noted as having
called first would then register again, with values not its own. So after each change the
service makes to the file (fsynced, before its answer), it writes a record to the audit log
beside it, on the log's hash chain, naming the file's size and SHA-256:

    {"session_id": null, "runtime_tool": null, "tool": null, "decision": "none",
     "status": "sessions-file", "reason": "the service's sessions file PATH holds N bytes",
     "witness": "N sha256:HEX", ...}

At start the last such record of the log (read back from its end) names the bytes the file must
begin with; a file shorter or different there refuses the start (sessionsfile.py). Records a
call's input holds are inside its ``input``, never at the top of a record: only a record whose
own ``status`` is ``sessions-file`` witnesses.
"""

from __future__ import annotations

import json
import os

from ..gate.audit import record

#: What a witness record holds, as ``gate.audit.record`` writes it (found by this, then read).
STATUS = "sessions-file"
_MARK = b'"status": "sessions-file"'
#: Bytes read back at a time, from the log's end.
BLOCK = 1 << 20


def witness_record(path: str, size: int, digest: str) -> bytes:
    """The audit record saying the sessions file ``path`` holds ``size`` bytes, whose SHA-256
    is ``digest`` (``sha256:HEX``)."""
    return record(session=None, runtime_tool=None, tool=None, decision="none", status=STATUS,
                  reason=f"the service's sessions file {path} holds {size} bytes",
                  witness=f"{size} {digest}")


def last_witnessed(fd: int) -> tuple[int, str] | None:
    """The size and digest the last witness record of the audit log open at ``fd`` names, or
    None (no such record: a log of before, or a new one). A last line without its newline (a
    record being written) is not read. Raises OSError."""
    pos, carried = os.fstat(fd).st_size, b""
    while pos > 0:
        step = min(BLOCK, pos)
        pos -= step
        chunk = os.pread(fd, step, pos) + carried
        cut = 0 if pos == 0 else chunk.find(b"\n") + 1  # (a line begun before: read next)
        if pos > 0 and cut == 0:
            carried = chunk
            continue
        carried, region = chunk[:cut], chunk[cut:]
        at = len(region)
        while (hit := region.rfind(_MARK, 0, at)) >= 0:
            start = region.rfind(b"\n", 0, hit) + 1
            stop = region.find(b"\n", hit)
            found = _witnessed(region[start:stop]) if stop >= 0 else None
            if found is not None:
                return found
            at = start
    return None


def _witnessed(line: bytes) -> tuple[int, str] | None:
    """What the line names, when it is a witness record."""
    try:
        body = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(body, dict) or body.get("status") != STATUS or \
            body.get("decision") != "none" or body.get("runtime_tool") is not None:
        return None
    size, _, digest = str(body.get("witness")).partition(" ")
    if not size.isdigit() or not digest.startswith("sha256:"):
        return None
    return int(size), digest
