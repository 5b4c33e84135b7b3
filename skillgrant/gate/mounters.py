"""Programs that change what a path means (issue 29, review s53-sreview R2): a mount laid over
a folder hides every file below it (``mount --bind X ~/.local``: the service, restarted, finds
no sessions file and forgets), an unmount shows what a mount hid, a changed root or a bound
folder gives a path another file (``bwrap --bind GUARDED /tmp/x``, ``chroot ~/.local``).

Their words (``wrapped.MOUNTERS``) are the folders they change, read as a folder writer's
(``writers.tree_word``, which loads this module only for a ``mount``/``umount``): a word
naming a guarded path, a folder above one or a path in one makes the call ``unknown``.

``mount``'s and ``umount``'s words are read as util-linux 2.38 reads them (``_parsed``:
getopt_long's abbreviations of long options, clusters of letters, values attached or apart;
``mount --help`` is the oracle). What a mount makes reachable is judged too, not only its
words as paths (s54-sreview M, M2): ``reached`` gives the folders no word names (a device's
or a loop image's mount points, an overlay's ``lowerdir=``/``upperdir=``/``workdir=``, the
entries of ``/etc/fstab`` that ``mount -a`` or a one-operand mount reads, the mount points an
``umount`` of a source takes away) and the word that makes the call unknown: another table
(``-T``), another namespace (``-N``), a target prefix, a ``proc`` filesystem (every file's
second path ``self/root/…``), a network or host share, a label no device link names,
``umount -a``/``-A``.
"""

from __future__ import annotations

import itertools
import os
import posixpath
import stat
from collections.abc import Sequence

from . import files

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: getopt's letters of mount 2.38 and umount 2.38 (``:`` a value, ``::`` an attached one),
#: read from the programs; their long options: 0 no value, 1 a value, 2 an attached one
#: (``=``); the name is the letter it stands for where it has one.
_MOUNT_LETTERS: Final = "aBcfFhilL:m::Mno:O:rRsU:vVwt:T:N:"
_UMOUNT_LETTERS: Final = "aAcdfhilnqRrO:t:vVN:"
_MOUNT_LONG: Final = {
    "all": ("a", 0), "fake": ("f", 0), "fork": ("F", 0), "fstab": ("T", 1), "help": ("h", 0),
    "no-mtab": ("n", 0), "options": ("o", 1), "test-opts": ("O", 1), "read-only": ("r", 0),
    "ro": ("r", 0), "types": ("t", 1), "rw": ("w", 0), "read-write": ("w", 0),
    "verbose": ("v", 0), "version": ("V", 0), "bind": ("B", 0), "move": ("M", 0),
    "rbind": ("R", 0), "no-canonicalize": ("c", 0), "internal-only": ("i", 0),
    "show-labels": ("l", 0), "label": ("L", 1), "uuid": ("U", 1), "source": ("source", 1),
    "target": ("target", 1), "target-prefix": ("target-prefix", 1),
    "options-mode": ("options-mode", 1), "options-source": ("options-source", 1),
    "options-source-force": ("options-source-force", 0), "namespace": ("N", 1),
    "mkdir": ("m", 2),
    **{f"make-{r}{k}": (f"make-{k}", 0) for r in ("", "r")
       for k in ("shared", "slave", "private", "unbindable")}}
_UMOUNT_LONG: Final = {
    "all": ("a", 0), "all-targets": ("A", 0), "no-canonicalize": ("c", 0),
    "detach-loop": ("d", 0), "fake": ("f", 0), "force": ("f", 0), "internal-only": ("i", 0),
    "namespace": ("N", 1), "no-mtab": ("n", 0), "lazy": ("l", 0), "test-opts": ("O", 1),
    "quiet": ("q", 0), "recursive": ("R", 0), "read-only": ("r", 0), "types": ("t", 1),
    "verbose": ("v", 0), "version": ("V", 0), "help": ("h", 0)}
#: Options whose folders no word of the call names: a table's (``-a`` reads /etc/fstab:
#: ``_table``), another table, another mount namespace, a prefix of every target.
_UNKNOWN: Final = {"mount": ("T", "N", "target-prefix"), "umount": ("a", "A", "N")}
#: Filesystems a mount makes anew, reaching no file that was there before and running no
#: program a file in them names (their source is any word). Not: ``proc`` (``/proc/PID/root/``
#: is every file's second path), ``binfmt_misc`` (``register`` names an interpreter the
#: kernel runs), ``cgroup`` v1 (``release_agent``), ``sysfs`` (``kernel/uevent_helper``),
#: ``devtmpfs`` (the disks' nodes), ``debugfs``, ``tracefs``, ``securityfs``, ``configfs``,
#: ``bpf``, ``efivarfs``, ``autofs`` (s55-sreview B1, B2): unknown.
_FRESH: Final = frozenset({"tmpfs", "ramfs", "devpts", "mqueue", "hugetlbfs", "cgroup2"})
#: Filesystems whose files lie elsewhere (a host, the host of a virtual machine, a program):
#: what they reach cannot be named here.
#: Filesystems read from a device or a loop image (``_source``: its mount points).
_DISKS: Final = frozenset({
    "auto", "ext2", "ext3", "ext4", "xfs", "btrfs", "vfat", "msdos", "fat", "exfat", "ntfs",
    "ntfs3", "iso9660", "udf", "squashfs", "erofs", "f2fs", "jfs", "reiserfs", "hfs",
    "hfsplus", "minix", "cramfs", "romfs", "nilfs2", "bcachefs"})
_SHARES: Final = ("nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "virtiofs", "fuse", "sshfs",
                  "ceph", "glusterfs", "davfs", "ncpfs", "afs", "lustre", "beegfs")
_BIND: Final = frozenset({"bind", "rbind", "move"})
_LINKS: Final = {"LABEL": "by-label", "UUID": "by-uuid", "PARTLABEL": "by-partlabel",
                 "PARTUUID": "by-partuuid", "ID": "by-id"}


def hidden(words: Sequence[str], directory: str | None) -> str | None:
    """The word of a ``mount``/``umount`` in ``words`` that makes what it changes unknown
    (see the module's text), or None."""
    return reached(tuple(words), directory)[0]


def named_targets(words: Sequence[str], directory: str | None = None) -> list[str]:
    """The folders a ``mount``/``umount`` in ``words`` changes or makes reachable that are no
    word of it (read as the call's folder words: ``writers.tree_word``)."""
    return list(reached(tuple(words), directory)[1])


def reached(words: tuple[str, ...], directory: str | None) -> tuple[str | None,
                                                                    tuple[str, ...]]:
    """``hidden``'s word and ``named_targets``' folders of ``words`` (not kept: the answer
    depends on the guarded set and the mount table)."""
    found: list[str] = []
    for at, word in enumerate(words):
        name = word.rsplit("/", 1)[-1]
        if name in ("pivot_root", "switch_root"):  # (every path of the namespace: N1)
            return name, ()
        if name not in ("mount", "umount"):
            continue
        given, operands = _parsed(words[at + 1:], name)  # (every word: `-v` ×64, s55-sreview P1)
        unknown = next((f"{name} {v or k}" for k, v in given if k in _UNKNOWN[name]), None)
        if unknown is None:
            unknown = (_unmounted if name == "umount" else _mounted)(given, operands,
                                                                     directory, found)
        if unknown is not None:
            return unknown, ()
    return None, tuple(found)


def _parsed(rest: Sequence[str], name: str) -> tuple[list[tuple[str, str]], list[str]]:
    """``rest`` read as getopt_long reads ``name``'s words (GNU order: options anywhere):
    its options (the letter or long name each stands for, and its value) and its operands.
    An option the program does not know is passed over (it refuses it; a word of a later
    command may be one); an ambiguous abbreviation too. The gate's words are cut at ``=``,
    at quoted blanks and operators (``textwords``: ``x=--`` is ``x``, ``--``), so a ``--``
    ends nothing here, and a value taken apart that starts with ``-`` is read as an option
    too (``-o a=-O -T f``: s55-sreview E1): more options read, never fewer."""
    letters, longs = (_MOUNT_LETTERS, _MOUNT_LONG) if name == "mount" else (
        _UMOUNT_LETTERS, _UMOUNT_LONG)
    given: list[tuple[str, str]] = []
    operands: list[str] = []
    at = 0
    while at < len(rest):
        word, at = rest[at], at + 1
        if word == "--":
            continue
        if word[:2] == "--":
            at = _long(word[2:], rest, at, longs, given)
        elif word[:1] == "-" and len(word) > 1:
            at = _cluster(word, rest, at, letters, given)
        else:
            operands.append(word)
    return given, operands


def _long(word: str, rest: Sequence[str], at: int, longs: dict[str, tuple[str, int]],
          given: list[tuple[str, str]]) -> int:
    """A long option ``word`` (``--`` taken off) added to ``given``: exact, or the one long
    option it abbreviates; its value after ``=`` or the next word. The next word's place."""
    key, equals, value = word.partition("=")
    hits = {longs[n] for n in longs if n == key} or {
        longs[n] for n in longs if n.startswith(key)}
    if len(hits) != 1 or not key:
        return at
    ((option, takes),) = hits
    if takes == 1 and not equals and at < len(rest):
        value, at = rest[at], at + (rest[at][:1] != "-")
    given.append((option, value))
    return at


def _cluster(word: str, rest: Sequence[str], at: int, letters: str,
             given: list[tuple[str, str]]) -> int:
    """A cluster of letters ``word`` added to ``given``: the first taking a value takes the
    rest of the word, or the next word. The next word's place."""
    for k in range(1, len(word)):
        spot = letters.find(word[k])
        if word[k] == ":" or spot < 0:
            continue
        if letters[spot + 1:spot + 2] != ":":
            given.append((word[k], ""))
            continue
        value = word[k + 1:]
        if not value and letters[spot + 2:spot + 3] != ":" and at < len(rest):
            value, at = rest[at], at + (rest[at][:1] != "-")
        given.append((word[k], value))
        break
    return at


def _mounted(given: list[tuple[str, str]], operands: list[str], directory: str | None,
             found: list[str]) -> str | None:
    """What a ``mount`` of options ``given`` and ``operands`` reaches, its folders added to
    ``found``; the word that makes it unknown, or None. The gate's words are cut at ``=``
    (``textwords``: ``-o lowerdir=a,upperdir=b`` is ``-o``, ``lowerdir``, ``a,upperdir``,
    ``b``): each operand and value is also read cut at its commas and colons (a folder of an
    overlay's list), each operand as a source, and a tag before a value as ``TAG=VALUE``."""
    options = ",".join(v for k, v in given if k == "o")
    types = ",".join(v for k, v in given if k == "t")
    binding = any(k in ("B", "R", "M") for k, _ in given) or not _BIND.isdisjoint(
        options.split(","))
    named = [*operands, *(v for k, v in given if k in ("source", "target"))]
    named += [f"{t}={v}" for t, v in itertools.pairwise(named) if t in _LINKS]
    named += [f"{t}={v}" for k, v in given for t in ("LABEL", "UUID") if k == t[0]]
    pieces = {p for w in [*named, *(v for k, v in given if k == "o")]
              for c in w.split(",") for p in (c, c.replace("\\:", ":"), *c.split(":")) if p}
    found += sorted(pieces)
    proc = next((p for p in sorted(pieces) if _on_proc(posixpath.join(directory or "/", p))),
                None)
    if proc is not None:  # (proc bound, an overlay's folder in it)
        return proc
    spelled = {*named, *(_canonical(w, directory) for w in named)}
    for entry in _table():  # `-a`: every entry; one operand: its entry (every operand here,
        if any(k == "a" for k, _ in given) or not spelled.isdisjoint(  # as mount spells it:
                {*entry[:2], *(_canonical(f, directory) for f in entry[:2])}):  # F1)
            unknown = _entry(entry, binding, directory, found)
            if unknown is not None:
                return unknown
    for source in named:
        unknown = _entry((source, "", types, options), binding, directory, found)
        if unknown is not None:
            return unknown
    kinds = {t for t in types.split(",") if t}
    return None if kinds and kinds <= _FRESH else _in_run_folders(named, directory)


def _canonical(word: str, directory: str | None) -> str:
    """``word``'s real path from ``directory``, as mount canonicalizes a path it is given
    (``../evil``, ``T//evil``, ``T/./evil/``); a tag (``LABEL=x``) as it is."""
    if "=" in word.split("/", 1)[0] or not word:
        return word
    try:
        return os.path.realpath(posixpath.join(directory or "/", word))
    except (OSError, ValueError):
        return word


def _in_run_folders(named: list[str], directory: str | None) -> str | None:
    """The first of a mount's words ``named`` at or below a folder the plan's programs run
    or collect tests in (``Guarded.run_folders``, ``collected``): a mount there lays a tree
    the gate never read where they read code (a loop image holding a test, an overlay's or
    a bound folder's files: s55-sreview I1), or None."""
    from .guardedset import GUARDED
    from .placed import fold

    guards = GUARDED.get()
    folders = {*getattr(guards, "collected", ()), *(fold(os.path.realpath(f)) for f in
                                                     getattr(guards, "run_folders", ()))}
    if not folders:
        return None
    from .testlinks import leads_to

    tops = tuple(f.rstrip("/") + "/" for f in folders)
    try:  # (or where a link the walk meets leads: `data -> ../outside`, s55-sreview I2)
        return next((w for w in named if (key := fold(_canonical(w, directory)).rstrip("/"))
                     and ((key + "/").startswith(tops) or leads_to(key, guards))), None)
    except ValueError:  # (the walk past its bound)
        return named[0] if named else None


def _entry(entry: tuple[str, str, str, str], binding: bool, directory: str | None,
           found: list[str]) -> str | None:
    """One mount (source, target, types, options: an fstab line's fields), its folders added
    to ``found``: the target, an option's path value (``lowerdir=a:b``, ``loop=/dev/x``), a
    bound source, a device's or a loop image's mount points; the word that makes it
    unknown, or None."""
    source, target, types, options = entry
    kinds = {t for t in types.split(",") if t}
    binding = binding or not _BIND.isdisjoint(options.split(","))
    folders = [v for o in options.split(",") for v in _colon_split(o.partition("=")[2])
               if v and (o.partition("=")[0].endswith("dir") or "/" in v)]
    found += [target] if target else []
    found += [*folders, source] if binding and source else folders
    if "proc" in kinds:
        return f"-t {types}"
    shared = next((t for t in kinds if t.startswith(_SHARES)), None)
    if shared is not None:
        return f"-t {shared}"
    for path in [source] if binding else folders:  # (proc bound, an overlay's folder in it)
        if _on_proc(posixpath.join(directory or "/", path)):
            return path
    if binding or "overlay" in kinds or (kinds and kinds <= _FRESH):
        return None
    other = next((t for t in sorted(kinds) if t not in _DISKS), None)
    if other is not None:
        return f"-t {other}"
    return _source(source, directory, found) if source else None


def _source(source: str, directory: str | None, found: list[str]) -> str | None:
    """A mount's ``source`` that is no bound folder: the mount points of the device it names
    (``LABEL=`` through ``/dev/disk/by-label``), or of a loop image's device, added to
    ``found``; a network share or a label no link names is unknown."""
    tag, equals, value = source.partition("=")
    if equals and tag in _LINKS:
        source = f"/dev/disk/{_LINKS[tag]}/{value}"
        if not files.exists(source):
            return tag + "="
    elif source.startswith("//") or ":" in source.split("/", 1)[0]:
        return source  # (`host:/path`, `//host/share`)
    devices = _devices(posixpath.join(directory or "/", source))
    found += [m[1] for m in _mounts() if m[0] in devices]
    return None


def _colon_split(value: str) -> list[str]:
    """An overlay's folder list (``a:b``, ``\\:`` a colon of a name) split at its colons."""
    return [v.replace("\0", ":") for v in value.replace("\\:", "\0").split(":")] if \
        value else []


def _unmounted(given: list[tuple[str, str]], operands: list[str], directory: str | None,
               found: list[str]) -> str | None:
    """What an ``umount`` of ``operands`` takes away: an operand that is no folder is a
    source (``/dev/sdb1``, a loop image, ``tmpfs``) whose mount points are added to
    ``found`` (none mounted: umount changes nothing); its options make nothing unknown."""
    del given
    for operand in operands:
        path = posixpath.join(directory or "/", operand)
        if files.is_folder(path):
            continue
        devices = _devices(path)
        found += [m[1] for m in _mounts() if m[2] in (operand, path) or m[0] in devices
                  or m[1] == posixpath.normpath(path)]
    return None


def _devices(path: str) -> set[str]:
    """The ``MAJOR:MINOR`` of the block device ``path`` names, or of the loop devices whose
    backing file it is (``mount disk.img``: a second loop device of a mounted image)."""
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return set()
    if stat.S_ISBLK(found.st_mode):
        return {f"{os.major(found.st_rdev)}:{os.minor(found.st_rdev)}"}
    if not stat.S_ISREG(found.st_mode):
        return set()
    real, devices = os.path.realpath(path), set()
    try:
        loops = [n for n in os.listdir("/sys/block") if n.startswith("loop")]
    except OSError:
        return set()
    for loop in loops:
        try:
            with open(f"/sys/block/{loop}/loop/backing_file", encoding="utf-8") as backing:
                if backing.read().strip() != real:
                    continue
            with open(f"/sys/block/{loop}/dev", encoding="utf-8") as number:
                devices.add(number.read().strip())
        except OSError:
            continue
    return devices


def _on_proc(path: str) -> bool:
    """Whether ``path`` lies in a ``proc`` filesystem (bound, it is every file's second
    path)."""
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return False
    device = f"{os.major(found.st_dev)}:{os.minor(found.st_dev)}"
    return any(m[0] == device and m[3] == "proc" for m in _mounts())


def _mounts() -> list[tuple[str, str, str, str]]:
    """The mount table of this process's namespace (``/proc/self/mountinfo``): each mount's
    ``MAJOR:MINOR``, mount point, source and type."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8",
                  errors="surrogateescape") as table:
            lines = table.read(1 << 22).splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        head, _, tail = line.partition(" - ")
        fields, more = head.split(), tail.split()
        if len(fields) >= 5 and len(more) >= 2:
            found.append((fields[2], _unescaped(fields[4]), _unescaped(more[1]), more[0]))
    return found


def _table() -> list[tuple[str, str, str, str]]:
    """``/etc/fstab``'s mounts (source, target, types, options), swap and ``noauto`` ones
    too (``mount -a -t``/``-O`` may pick any)."""
    try:
        with open("/etc/fstab", encoding="utf-8", errors="surrogateescape") as table:
            lines = table.read(1 << 20).splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        fields = line.split()
        if len(fields) >= 2 and not fields[0].startswith("#"):
            fields += ["", ""]
            found.append((_unescaped(fields[0]), _unescaped(fields[1]), fields[2],
                          fields[3]))
    return found


def _unescaped(field: str) -> str:
    """A field of fstab or mountinfo, its octal escapes (``\\040`` a blank) read."""
    if "\\" not in field:
        return field
    return field.encode("utf-8", "surrogateescape").decode("unicode_escape").encode(
        "latin-1").decode("utf-8", "surrogateescape")
