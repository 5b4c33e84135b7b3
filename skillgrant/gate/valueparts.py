"""Parts of a variable's value as a shell reads them, for ``envpaths._expanded``: a trimmed
``${NAME#…}``'s answer, where a ``${…}`` or a command substitution ends."""

from __future__ import annotations


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
