"""An independent judge of what a *narrow* plan may keep, shared by the fuzz properties
(``tests/property/test_fuzz.py``) and the coverage-guided harnesses (``fuzz/``).

The plan is ``NARROW = ["Bash(gh pr list)", "Read(src/**)"]``. Nothing here imports skillgrant:
the judge reads the *written* form of a kept entry the way the runtime would (semantics §2: a flag,
not a depth, on commas and JavaScript whitespace) and accepts it only when it is obviously no
wider than an approved entry:

* ``Bash(gh pr list)`` exactly. An EXACT Bash rule approves one command, and ``gh pr list``
  holds none of the escapable characters ``( ) \\ *``, so the only content whose command
  literally equals ``gh pr list`` is that very text: no ``:*``, no star, no padding, no escape,
  no look-alike letter, no zero-width character, canonical tool spelling.
* ``Read(P)`` where ``P``, less one leading ``./``, is ``src/`` followed by a rest that holds a
  character other than ``/`` (so the pattern keeps a slash before its end and stays anchored at
  the working directory, gitignore-style: a bare ``src/`` would match ``src`` directories at any
  depth) and no ``..`` segment (a runtime that normalises the pattern would leave ``src/``).
  Every such pattern only names paths under ``src/``, which ``src/**`` covers.

Anything else a narrow plan keeps is a soundness bug (or a narrowing this judge is too strict to
recognise, which the failing example makes plain).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

NARROW: tuple[str, ...] = ("Bash(gh pr list)", "Read(src/**)")

#: JavaScript's ``\s`` (what Claude Code's splitter cuts on, with the comma). Written out here
#: rather than imported, so the judge does not share the prover's tables.
JS_SPACE = frozenset(
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # semantics §2: tab, newline allowed
_READ = re.compile(r"Read\((.*)\)", re.DOTALL)


def runtime_entries(value: str) -> list[str]:
    """Split one string the way Claude Code does: a boolean "inside parentheses" flag, no
    escapes, separators are commas and JavaScript whitespace outside parentheses."""
    out: list[str] = []
    current: list[str] = []
    inside = False
    for char in value:
        if char == "(":
            inside = True
        elif char == ")":
            inside = False
        elif not inside and (char == "," or char in JS_SPACE):
            if current:
                out.append("".join(current))
            current = []
            continue
        current.append(char)
    if current:
        out.append("".join(current))
    return out


def justified(written: str) -> bool:
    """True when ``written``, as the runtime reads it, is no wider than an entry of NARROW."""
    if runtime_entries(written) != [written] or _CONTROL.search(written):
        return False
    if written == "Bash(gh pr list)":
        return True
    match = _READ.fullmatch(written)
    if match is None:
        return False
    pattern = match.group(1)
    if pattern.startswith("./"):
        pattern = pattern[2:]
    if not pattern.startswith("src/"):
        return False
    rest = pattern[len("src/"):]
    segments = re.split(r"[/\\]", rest)
    return rest.strip("/") != "" and ".." not in segments


def unjustified(allowed: Iterable[str]) -> list[str]:
    """The runtime entries of an ``allowed-tools`` value (list of strings) that the judge does not
    accept, given the value was not a restore of NARROW."""
    return [e for item in allowed for e in runtime_entries(item) if not justified(e)]


def double_quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar: printable ASCII as it is, the rest escaped.
    Shared by the tests that write hostile entries into SKILL.md texts."""
    out = []
    for char in text:
        if " " <= char <= "~" and char not in '"\\':
            out.append(char)
        else:
            out.append(f"\\u{ord(char):04X}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08X}")
    return '"' + "".join(out) + '"'
