"""A file replaced atomically (``write_atomic``): what ``apply`` writes a rewrite with."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from ..errors import SkillFileError


def write_atomic(path: str | os.PathLike[str], data: bytes, *,
                 expected: bytes | None = None) -> None:
    """Replace the file at ``path`` with ``data`` atomically: a temporary file in the same
    directory, written, flushed and fsynced, given the original's mode (and owner, where
    permitted), then renamed over it. A symlink is followed: its target is replaced.

    With ``expected``, the write is refused when the file no longer holds those bytes (it
    changed since it was read). On any failure the temporary file is removed, the original is
    untouched, and SkillFileError is raised.
    """
    import tempfile  # here: `check` never writes

    shown = str(path)
    target = Path(os.path.realpath(path))
    try:
        before = target.stat()
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                    suffix=".skillgrant-tmp")
    except OSError as e:
        raise SkillFileError(f"cannot write the file: {e.strerror or e}", path=shown) from e
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, stat.S_IMODE(before.st_mode))
        with contextlib.suppress(OSError):  # keeping the owner needs privileges we may lack
            if hasattr(os, "chown") and (before.st_uid, before.st_gid) != _owner(temp):
                os.chown(temp, before.st_uid, before.st_gid)
        if expected is not None and target.read_bytes() != expected:
            raise SkillFileError("the file changed while it was being rewritten; nothing was "
                                 "written", path=shown)
        os.replace(temp, target)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(e, OSError):
            raise SkillFileError(f"cannot write the file: {e.strerror or e}; it was left as it "
                                 "was", path=shown) from e
        raise
    _sync_directory(target.parent)


def _owner(path: str) -> tuple[int, int]:
    info = os.stat(path)
    return info.st_uid, info.st_gid


def _sync_directory(directory: Path) -> None:
    """Make the rename durable; not every platform can open a directory, so best effort."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
