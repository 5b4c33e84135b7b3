"""Parts of a variable's value as a shell reads them, for ``envpaths._expanded``: a trimmed
``${NAME#…}``'s answer, where a ``${…}`` or a command substitution ends; a path a value names
read through its links (``normal_path``), a ``$`` the dynamic loader reads (``loader_tokens``).
"""

from __future__ import annotations

import os

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def trimmed(value: str, rest: str) -> str:
    """``value`` trimmed as ``${NAME#p}``, ``##``, ``%``, ``%%`` trims it (``rest``: the
    operator and its pattern)."""
    from fnmatch import fnmatchcase

    longest = rest[1:2] == rest[:1]
    pattern = rest[2:] if longest else rest[1:]
    cuts = range(len(value) + 1)
    if rest[0] == "#":
        cut = next((k for k in (reversed(cuts) if longest else cuts)
                    if fnmatchcase(value[:k], pattern)), 0)
        return value[cut:]
    cut = next((k for k in (cuts if longest else reversed(cuts))
                if fnmatchcase(value[k:], pattern)), len(value))
    return value[:cut]


def brace_end(value: str, at: int) -> int:
    """The ``}`` closing the ``${`` at ``value[at]`` (nested ones counted), or -1."""
    depth = 0
    for k in range(at + 1, len(value)):
        depth += (value[k] == "{") - (value[k] == "}")
        if depth == 0:
            return k
    return -1


def substitution_end(value: str, at: int) -> int:
    """Where the command substitution starting at ``value[at]`` (``$(`` or a backquote)
    ends: past its closing parenthesis (nested ones counted) or backquote, or the end."""
    if value[at] == "`":
        end = value.find("`", at + 1)
        return len(value) if end < 0 else end + 1
    depth = 0
    for k in range(at + 1, len(value)):
        depth += (value[k] == "(") - (value[k] == ")")
        if depth == 0:
            return k + 1
    return len(value)


def normal_path(path: str) -> str:
    """``path`` (absolute) normal, read through its links up to its last ``..`` as the kernel
    reads it (``link/../..``, ``link -> sub/deeper``: the link's target's parents; s56-greview2
    S1)."""
    cut = (path + "/").rfind("/../")
    if cut < 0:
        return os.path.normpath(path)
    return os.path.normpath(fs.realpath(path[:cut + 3]) + path[cut + 3:])


def passed(path: str) -> list[str]:
    """Each path ``path`` (absolute) passes through by a name before its last ``..``, read as
    ``normal_path`` reads it: made a link later, it moves what the ``..`` names (``link/../..``
    with ``link`` made ``-> a/b`` after the write; s56-greview2 S1b), so each is guarded as
    itself."""
    parts = path.split("/")
    last = len(parts) - 1 - parts[::-1].index("..")
    return [normal_path("/".join(parts[:k + 1])) for k in range(1, last)
            if parts[k] not in ("", ".", "..")]


def loader_tokens(name: str, value: str) -> None:
    """Raises ValueError where ``name`` is a variable the dynamic loader reads (or ld records
    for it: ``LD_RUN_PATH``) and ``value`` holds a ``$``: the loader expands ``$ORIGIN`` (each
    program's own folder), ``$LIB`` and ``$PLATFORM`` (relative names: ``lib/x86_64-linux-gnu``,
    ``haswell``) itself, not as a shell does (ld.so(8); s56-greview2 D1), which names no
    folder the gate can guard."""
    if name in _LOADERS and "$" in value:
        raise ValueError("a `$`, which the dynamic loader expands itself ($ORIGIN: each "
                         "program's own folder; $LIB, $PLATFORM: names relative to the folder "
                         "a program runs in)")


#: The variables the dynamic loader reads its folders and objects from (and ld's run path).
_LOADERS: Final = frozenset(("LD_LIBRARY_PATH", "LD_PRELOAD", "LD_AUDIT", "LD_RUN_PATH"))
