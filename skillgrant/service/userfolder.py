"""Whether a folder, or one it is in, may be written by another user (review s52-sreview S3).

The audit log and the sessions file are opened as files of this user only (``gate.audit.
open_log``), but a folder another user may write lets that user remove or replace them between
two runs of the service, and the folders above it lets them move it away and put another in its
place. So, as OpenSSH's ``StrictModes`` does for ``~/.ssh``, the folder holding them and each
folder above it must be owned by this user or by root, and written by no one else: without
write for group and others, or with the sticky bit (as ``/tmp``: another user may add an entry
there, not remove or rename this user's), or written by a group that holds this user alone
(a user private group, as a umask of 002 leaves them: s53-sreview C2) and with no access
ACL (whose entries may give write to other users while the mode shows only the group's:
R4). A link on the way (a home, or its ``.local``, kept elsewhere) counts by its owner, and
the folders it leads to are examined as well.
"""

from __future__ import annotations

import errno
import os
import stat


def others_may_write(folder: str) -> str | None:
    """Why another user may change what the absolute ``folder`` holds, or None. A folder that
    cannot be read counts as one they may write (never guessed)."""
    me = os.geteuid()
    at = os.path.normpath(folder)
    linked = False
    while True:
        try:
            info = os.lstat(at)
        except OSError as e:
            return f"the folder {at!r} cannot be read ({e.strerror or e})"
        if info.st_uid not in (me, 0):
            return f"the folder {at!r} is owned by another user (uid {info.st_uid})"
        link = stat.S_ISLNK(info.st_mode)  # (its own mode means nothing: its folder's does)
        linked = linked or link
        if not link and not info.st_mode & stat.S_ISVTX and (info.st_mode & stat.S_IWOTH or (
                info.st_mode & stat.S_IWGRP and not _private(info.st_gid))):
            return (f"the folder {at!r} may be written by its group or by others "
                    f"(mode {stat.S_IMODE(info.st_mode):o}, without the sticky bit)")
        if not link and info.st_mode & stat.S_IWGRP and not info.st_mode & stat.S_ISVTX:
            acl = _access_acl(at)  # (its group bits are then the ACL's mask: s53-sreview R4)
            if acl is not None:
                return f"the folder {at!r} {acl}, which may give write to other users"
        if at == os.path.dirname(at):
            return others_may_write(os.path.realpath(folder)) if linked else None
        at = os.path.dirname(at)


def _access_acl(folder: str) -> str | None:
    """Why ``folder`` may have an extended POSIX access ACL (its named users' and groups'
    entries, which its mode does not show), or None when it has none."""
    getxattr = getattr(os, "getxattr", None)
    if getxattr is None:  # (no extended attributes to read here)
        return None
    try:
        getxattr(folder, "system.posix_acl_access", follow_symlinks=False)
    except OSError as e:
        if e.errno in (errno.ENODATA, errno.ENOTSUP, errno.EOPNOTSUPP):
            return None
        return f"cannot be read for an access ACL ({e.strerror or e})"
    return "has an access ACL"


def _private(gid: int) -> bool:
    """Whether the group ``gid`` holds this user alone: no other member, and no other user's
    own group (the password and group databases; a group they do not name is no one's)."""
    import grp
    import pwd

    try:
        me = pwd.getpwuid(os.geteuid())
        members = grp.getgrgid(gid).gr_mem
    except KeyError:
        return False
    return all(m == me.pw_name for m in members) and all(
        user.pw_uid == me.pw_uid for user in pwd.getpwall() if user.pw_gid == gid)


def made(folder: str) -> str | None:
    """``others_may_write`` of the absolute ``folder``, once each folder of it that is not
    there yet is made, 0700 (the XDG base directories' mode)."""
    missing = []
    at = os.path.normpath(folder)
    while not os.path.lexists(at) and at != os.path.dirname(at):
        missing.append(at)
        at = os.path.dirname(at)
    for made_one in reversed(missing):
        try:
            os.mkdir(made_one, 0o700)
        except FileExistsError:  # (made meanwhile: it is examined as any)
            pass
        except OSError as e:
            return f"the folder {made_one!r} cannot be made ({e.strerror or e})"
    return others_may_write(folder)
