"""micromatch's reading of a glob (jest 29's ``testMatch``, its ``projects`` globs) as a
regular expression (issue 29: ``jestsettings``)."""

from __future__ import annotations

import re


def micromatch(pattern: str) -> re.Pattern[str]:
    """micromatch's reading of a glob ``pattern`` (``**``, ``*``, ``?``, ``{a,b}``, a class,
    the extglobs ``?(…)``, ``*(…)``, ``+(…)``, ``@(…)``; ``!(…)`` read as ``*``: wider, as a
    refusal is) as a regular expression searched in a folded absolute path (a pattern not
    starting at ``/`` matches at any folder's start)."""
    out, at, groups = [], 0, []  # (each open group's closing text: `}`'s, an extglob's)
    while at < len(pattern):
        c, two = pattern[at], pattern[at:at + 2]
        if pattern.startswith("**/", at):
            out.append("(?:.*/)?")
            at += 3
            continue
        if two == "**":
            out.append(".*")
            at += 2
            continue
        if two[1:] == "(" and c in "?*+@!":  # (an extglob)
            out.append("(?:" if c != "!" else "(?:[^/]*|")
            groups.append({"?": ")?", "*": ")*", "+": ")+", "@": ")", "!": ")"}[c])
            at += 2
            continue
        if c == "{":
            groups.append(")")
        out.append("[^/]*" if c == "*" else "[^/]" if c == "?" else "(?:" if c == "{" else
                   groups.pop() if c in "})" and groups else
                   "|" if c in ",|" and groups else c if c in "[]!" else re.escape(c))
        at += 1
    body = "".join(out).replace("[!", "[^") + "".join(reversed(groups))
    return re.compile(("^" if pattern[:1] == "/" else "(?:^|/)") + body + "$", re.IGNORECASE)
