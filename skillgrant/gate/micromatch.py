"""micromatch's reading of a glob (jest 29's ``testMatch``, its ``projects`` globs) as a
regular expression (issue 29: ``jestsettings``)."""

from __future__ import annotations

import re

from .placed import fold

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def micromatch(pattern: str) -> re.Pattern[str] | None:
    """micromatch's reading of a glob ``pattern`` (``**``, ``*``, ``?``, ``{a,b}``, a class
    of ASCII characters, ``[^…]`` negated, the extglobs ``?(…)``, ``*(…)``,
    ``+(…)``, ``@(…)``; ``!(…)`` read as ``*``: wider, as a refusal is), folded
    (``placed.fold``), as a regular expression searched in a folded absolute path (a pattern
    not starting at ``/`` matches at any folder's start). None where the pattern holds a
    mark not read here (an allow-list: a backslash, a group of no extglob's mark, a brace
    range ``{1..3}``, a ``|`` outside a group, a class holding ``[``, ``\\`` or a character
    not ASCII, one not closed: s62-mreview R4)."""
    pattern = fold(pattern)  # (the paths searched are folded: s62-mreview R5)
    if _UNREAD.search(pattern):
        return None
    out, at, groups = [], 0, []  # (each open group's closing text: `}`'s, an extglob's)
    while at < len(pattern):
        c, two = pattern[at], pattern[at:at + 2]
        if two == "**":  # (`**/`: any folders, none too)
            slash = pattern[at + 2:at + 3] == "/"
            out.append("(?:.*/)?" if slash else ".*")
            at += 2 + slash
            continue
        if two[1:] == "(" and c in "?*+@!":  # (an extglob)
            out.append("(?:" if c != "!" else "(?:[^/]*|")
            groups.append({"?": ")?", "*": ")*", "+": ")+", "@": ")", "!": ")"}[c])
            at += 2
            continue
        if c == "[":
            end = pattern.find("]", at + 2)
            read = _class(pattern[at + 1:end] if end > 0 else "[")
            if read is None:
                return None
            out.append(read)
            at = end + 1
            continue
        if c == "|" and not groups:
            return None
        if c == "{":
            groups.append(")")
        out.append("[^/]*" if c == "*" else "[^/]" if c == "?" else "(?:" if c == "{" else
                   groups.pop() if c in "})" and groups else
                   "|" if c in ",|" and groups else re.escape(c))
        at += 1
    try:
        return re.compile(("^" if pattern[:1] == "/" else "(?:^|/)") + "".join(out) +
                          "".join(reversed(groups)) + "$", re.IGNORECASE)
    except re.error:
        return None


def _class(body: str) -> str | None:
    """The regular expression of a class of ``body`` (``^`` first: negated); None where it
    holds ``[``, a backslash or a character not ASCII."""
    if not body.isascii() or any(m in body for m in "[\\"):
        return None
    negated = body[:1] == "^"
    return "[" + "^" * negated + body[negated:].replace("^", "\\^") + "]"


#: The marks not read: a leading ``!`` (a negation); ``[!`` (picomatch 2.3's class of ``!``
#: and more, no negation); a ``+`` or ``?`` right after a class, a group or braces starting
#: no extglob (its regular expression's quantifier: s62-mreview R4b-d); a backslash; a group
#: of no extglob's mark; a brace range ``{1..3}``.
_UNREAD: Final = re.compile(r"^!|\[!|[\])}][+?](?!\()|\\|(?<![?*+@!])\(|\{[^}]*\.\.")
