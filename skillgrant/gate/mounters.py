"""Programs that change what a path means (issue 29, review s53-sreview R2): a mount laid over
a folder hides every file below it (``mount --bind X ~/.local``: the service, restarted, finds
no sessions file and forgets), an unmount shows what a mount hid, a changed root or a bound
folder gives a path another file (``bwrap --bind GUARDED /tmp/x``, ``chroot ~/.local``).

Their words (``wrapped.MOUNTERS``) are the folders they change, read as a folder writer's
(``writers.tree_word``, which loads this module only for a ``mount``/``umount``):
a word naming a guarded path, a folder above one or a path in one makes the call
``unknown``. Where the folder changed is no word of the call, ``hidden`` names the word that
hides it: ``mount -a`` and ``--fstab`` (the targets a table names), ``umount -a`` and
``umount DEVICE`` (wherever the device is mounted); a ``mount DEVICE`` that ``/etc/fstab``
places names that entry's target (``named_targets``).
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from . import files

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: ``mount``'s and ``umount``'s options whose folders a table names, not a word: all of
#: ``/etc/fstab`` or of the mount table (``-a``; ``-A``: a device's all), another table.
_ALL: Final = frozenset({"--all", "--fstab", "--all-targets"})
_ALL_LETTERS: Final = frozenset("aAT")
#: ``umount``'s options that take a value (``-t nfs``, ``-O opts``, ``-N ns``).
_UMOUNT_VALUED: Final = frozenset({"-t", "--types", "-O", "--test-opts", "-N", "--namespace"})


def hidden(words: Sequence[str], directory: str | None) -> str | None:
    """The word of a ``mount``/``umount`` in ``words`` whose folders no word names (``-a``,
    ``--fstab``, ``-A``; an ``umount`` operand that is no folder from ``directory``: a device
    or a source, unmounted wherever it is mounted), or None."""
    for at, word in enumerate(words):
        name = word.rsplit("/", 1)[-1]
        if name not in ("mount", "umount"):
            continue
        skip = False
        for rest in words[at + 1:at + 65]:
            if skip:
                skip = False
            elif rest in _ALL or (rest[:1] == "-" and rest[1:2] != "-" and rest[1:].isalpha()
                                  and not _ALL_LETTERS.isdisjoint(rest[1:])):
                return rest
            elif name == "umount" and rest in _UMOUNT_VALUED:
                skip = True
            elif name == "umount" and rest[:1] != "-" and not files.is_folder(
                    posixpath.join(directory or "/-", rest)):
                return rest
    return None


def named_targets(words: Sequence[str]) -> list[str]:
    """The mount points of ``/etc/fstab``'s entries that a ``mount`` in ``words`` may mount
    by their source (``mount /dev/sdb1``, ``-L NAME``, ``LABEL=NAME``, ``-U UUID``): mount
    reads the folder from the table when one operand is given."""
    if not any(w.rsplit("/", 1)[-1] == "mount" for w in words):
        return []
    try:
        with open("/etc/fstab", encoding="utf-8", errors="surrogateescape") as table:
            lines = table.read(1 << 20).splitlines()
    except OSError:
        return []
    given = set(words)
    found = []
    for line in lines:
        fields = line.split()
        if len(fields) < 2 or fields[0].startswith("#"):
            continue
        source, target = fields[0], fields[1].replace("\\040", " ")
        if source in given or source.partition("=")[2] in given or target in given:
            found.append(target)
    return found
