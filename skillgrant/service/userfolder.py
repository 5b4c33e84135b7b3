"""Whether a folder, or one it is in, may be written by another user (review s52-sreview S3).

The audit log and the sessions file are opened as files of this user only (``gate.audit.
open_log``), but a folder another user may write lets that user remove or replace them between
two runs of the service, and the folders above it lets them move it away and put another in its
place. So, as OpenSSH's ``StrictModes`` does for ``~/.ssh``, the folder holding them and each
folder above it must be owned by this user or by root, and written by no one else: without
write for group and others, or with the sticky bit (as ``/tmp``: another user may add an entry
there, not remove or rename this user's).
"""

from __future__ import annotations

import os
import stat


def others_may_write(folder: str) -> str | None:
    """Why another user may change what the absolute ``folder`` holds, or None. A folder that
    cannot be read counts as one they may write (never guessed)."""
    me = os.geteuid()
    at = os.path.normpath(folder)
    while True:
        try:
            info = os.lstat(at)
        except OSError as e:
            return f"the folder {at!r} cannot be read ({e.strerror or e})"
        if info.st_uid not in (me, 0):
            return f"the folder {at!r} is owned by another user (uid {info.st_uid})"
        if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not info.st_mode & stat.S_ISVTX:
            return (f"the folder {at!r} may be written by its group or by others "
                    f"(mode {stat.S_IMODE(info.st_mode):o}, without the sticky bit)")
        if at == os.path.dirname(at):
            return None
        at = os.path.dirname(at)
