"""Where the links below a folder a toolchain value names lead (issue 29, session 61:
s56-greview2 W): gcc, cpp and ld read through them, so each target is guarded as the folder
is (``toolnames.folder_items`` asks ``linked_targets``)."""

from __future__ import annotations

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def linked_targets(others: dict[str, str], kept: set[str],
                   whose: str) -> tuple[list[tuple[str, bool]], list[tuple[str, str]]]:
    """The items guarding where the links below each of ``others`` lead (folders a toolchain
    value names, guarded whole by the caller, each with its lookups' kinds): gcc, cpp and ld
    read through them (``-Iinclude``, ``include/cfg -> ../vendor/cfg``; ``-Bv/``, ``v/as ->
    ../other/as``: s56-greview2 W), each target whole, or (the second list, with its kinds)
    to be guarded by ``toolnames.looked_up``'s names where it is one of ``kept`` (a folder a
    call runs in, or above one), a linked folder read for its own links too. A folder the
    value names below none of ``kept`` but ``/`` (the system's: ``/usr/include``) is not
    read; past ``_MAX_LINKED`` entries below them, ValueError (their links not known)."""
    inner = tuple(k.rstrip("/") + "/" for k in kept if k != "/")
    items: list[tuple[str, bool]] = []
    at_kept: list[tuple[str, str]] = []
    queue = [(p, k) for p, k in others.items() if p.startswith(inner)]
    seen, count = {p for p, _ in queue}, 0
    while queue:
        folder, kind = queue.pop()
        entries = fs.listing(folder)
        count += len(entries)
        if count > _MAX_LINKED:
            raise ValueError(f"{whose} toolchain value names {folder}, whose links below "
                             f"(more than {_MAX_LINKED} entries) the gate does not read")
        for entry in entries:
            target = fs.realpath(entry.path) if entry.is_symlink() else None
            if entry.is_dir(follow_symlinks=False):
                queue.append((entry.path, kind))
            elif target in kept:
                at_kept.append((target, kind))
            elif target and target not in seen:
                seen.add(target)
                items.append((target, True))
                if entry.is_dir():  # (its own links too, wherever it is: s61-greview W1)
                    queue.append((target, kind))
    return items, at_kept


#: How many entries ``linked_targets`` reads below the folders a toolchain value names.
_MAX_LINKED: Final = 20000
