"""What a pattern word matches now (``named._glob_found``; review s59-hreview T8): Python's
``glob.glob`` read with each folder listed once a call."""

from __future__ import annotations

import fnmatch
import os
import re

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Names matched against patterns in one call; past it, a pattern is a path the gate cannot
#: name (s59-hreview T8: 0.2 s of CPU at most).
MAX_SCANNED: Final = 2_000_000
#: The key of ``globbed``'s memo counting the names matched.
_SCANNED: Final = "scanned"


def globbed(parts: list[str], at: int, listed: dict[object, object]) -> list[str] | None:
    """What ``glob.glob`` of the absolute pattern ``parts`` (its first pattern part at
    ``at``) matches (a leading dot only by a dot, a middle part's folders only), each folder
    listed once a call (``listed``: the call's memo, ``named.held_word``'s: a
    here-document's 9,000 patterns beside 6,000 folders listed it once each, 43 s of CPU:
    s59-hreview T8); None past ``MAX_SCANNED`` names matched in the call (the pattern is
    then a path the gate cannot name: failing closed)."""
    found = ["/".join(parts[:at])]
    tail = [p for k, p in enumerate(parts) if k <= at or p != "." or k == len(parts) - 1]
    for k in range(at, len(tail)):  # (a `.` part names its folder: `d*/././x`, M10)
        part, last = tail[k], k == len(tail) - 1
        if not any(c in part for c in "*?["):
            if _charged(listed, len(found)):  # (each path asked: s60-mreview M10)
                return None
            found = [f"{f}/{part}" for f in found if (os.path.lexists if last else os.path.isdir)(
                f"{f}/{part}")] if part else [f + "/" for f in found if os.path.isdir(f)]
            continue
        match = re.compile(fnmatch.translate(part)).match
        hidden = part[:1] == "."
        matched: list[str] = []
        for folder in found:
            names = _names(listed, folder or "/", folders=not last)
            if _charged(listed, len(names)):
                return None
            matched += [f"{folder}/{n}" for n in names if match(n) and (hidden or n[:1] != ".")]
        found = matched
    return found


def _charged(listed: dict[object, object], count: int) -> bool:
    """Counts ``count`` names (or paths) asked in the call of ``listed``: whether past
    ``MAX_SCANNED``."""
    before = listed.get(_SCANNED, 0)
    scanned = (before if isinstance(before, int) else 0) + count
    listed[_SCANNED] = scanned
    return scanned > MAX_SCANNED


def _names(listed: dict[object, object], folder: str, *, folders: bool) -> list[str]:
    """The names in ``folder`` (``folders``: of folders only, a link to one too), listed once
    a call (``listed``)."""
    key = (folder, folders)
    names = listed.get(key)
    if names is None:
        try:
            with os.scandir(folder) as entries:
                names = [e.name for e in entries if not folders or _is_dir(e)]
        except OSError:
            names = []
        listed[key] = names
    return names  # type: ignore[return-value]


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """Whether ``entry`` is a folder or a link to one (False where it cannot be asked)."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def may_be_process_folder(head: str, parts: list[str]) -> bool:
    """Whether the pattern of ``parts`` under the folder ``head`` may name ``/proc`` or
    ``/dev/fd`` (folders of the process asking, as ``named._UNNAMEABLE``'s)."""
    match = fnmatch.fnmatchcase
    return (head == "/" and (match("proc", parts[0]) or (
        match("dev", parts[0]) and len(parts) > 1 and match("fd", parts[1])))) or (
            head == "/dev" and match("fd", parts[0]))
