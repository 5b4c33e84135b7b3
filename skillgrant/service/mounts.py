"""The filesystems of this machine, as ``/proc/self/mountinfo`` lists them: which of them
report every change to inotify (``service/watched.py`` keeps answers only there)."""

from __future__ import annotations

import re

#: The filesystems whose changes inotify reports whole (made on this machine): answers about
#: paths elsewhere (NFS, SMB, FUSE, 9p, virtiofs) are never kept.
LOCAL_TYPES = frozenset({"ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "zfs", "f2fs",
                         "jfs", "reiserfs", "ramfs", "devtmpfs", "apfs", "hfsplus"})
# (Not overlay: a file written at its layer's own path changes the merged file with no event
# on the merged path; review s40 R6.)

def mount_types(mountinfo: bytes) -> list[tuple[str, str]]:
    """The mount points and their filesystems' types, the deepest first; of mounts stacked on
    one point, the last listed (the one mounted over the others, which it hides) first."""
    found = []
    for line in mountinfo.decode("utf-8", "surrogateescape").splitlines():
        fields = line.split(" ")
        if "-" not in fields[6:] or len(fields) < 5:
            continue
        kind = fields[fields.index("-", 6) + 1]
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
        found.append((point, kind))
    return sorted(reversed(found), key=lambda pair: len(pair[0]), reverse=True)


def local(types: list[tuple[str, str]], folder: str) -> bool:
    """Whether ``folder`` lies in a filesystem of this machine (``LOCAL_TYPES``) by ``types``
    (``mount_types``), whose every change inotify reports: a network or FUSE filesystem
    changed from elsewhere reports nothing."""
    for mount, kind in types:
        if folder == mount or folder.startswith(mount.rstrip("/") + "/"):
            return kind in LOCAL_TYPES
    return False
