"""An independent reference model of SPEC §4.1 (and the §4.6 star-only globs): membership only.

It answers one question, "does this rule allow this concrete command?", by building a regular
expression from the rule and calling ``fullmatch``. It never decides inclusion between patterns
and never touches skillgrant's domains: the property tests use it to check what the prover
claims about whole languages on concrete members of those languages.

A *rule* here is the content between the parentheses of an entry (``gh *`` for ``Bash(gh *)``).
``mode`` says how to read it:

* ``"command"`` (``Bash``, ``Monitor``, ``Skill``, shell aliases): PREFIX ``P:*``, GLOB with the
  trailing ``␠*`` rule, EXACT; case-sensitive.
* ``"powershell"``: as ``"command"``, comparing ASCII letters case-insensitively (only A-Z/a-z).
* ``"generic"`` (§4.6): a star-only glob, no ``:*`` form, no trailing-space rule.

Backslashes follow the runtime as measured on Claude Code 2.1.332, not skillgrant's one level
of grant-syntax escapes: the runtime unescapes ``\\\\`` when it reads the rule, and its wildcard
matcher unescapes again (``\\*`` is a literal star, ``\\\\`` a literal backslash, any other
``\\x`` a literal backslash and ``x``). So ``touch \\\\*`` allows only the command ``touch *``.
Callers keep parentheses out of rules with backslashes (how the runtime reads ``\\(`` next to
other escapes is not modelled).

Compound commands (§4.1) are out of scope: callers keep control operators out of the commands
they ask about.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

Mode = Literal["command", "powershell", "generic"]

STAR = object()

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def read_rule(rule: str) -> str:
    """The first level: the runtime's rule parser turns ``\\\\`` into one backslash."""
    return rule.replace("\\\\", "\\")


def tokens(rule: str) -> list[object]:
    """The rule as a list of literal characters and ``STAR`` markers: read by the parser, then
    by the wildcard matcher (``\\*`` a literal star, ``\\\\`` a literal backslash)."""
    text = read_rule(rule)
    out: list[object] = []
    i = 0
    while i < len(text):
        pair = text[i : i + 2]
        if pair in ("\\*", "\\\\"):
            out.append(pair[1])
            i += 2
        elif text[i] == "*":
            out.append(STAR)
            i += 1
        else:
            out.append(text[i])
            i += 1
    return out


def literal(rule: str) -> str:
    """The rule's text with escapes decoded and every star taken as a literal ``*``."""
    return _text(tokens(rule))


def _text(toks: list[object]) -> str:
    return "".join("*" if t is STAR else str(t) for t in toks)


def ref_allows(rule: str, command: str, mode: Mode = "command") -> bool:
    """True when ``rule`` (entry content) allows the concrete ``command``."""
    if mode == "powershell":
        return ref_allows(rule.translate(_ASCII_LOWER), command.translate(_ASCII_LOWER))
    toks = tokens(rule)
    if mode == "command" and len(toks) >= 2 and toks[-1] is STAR and toks[-2] == ":":
        prefix = _text(toks[:-2])
        return command == prefix or command.startswith(prefix + " ")
    stars = sum(1 for t in toks if t is STAR)
    if stars == 0:
        return command == literal(rule)
    if mode == "command":
        toks = tokens(rule.strip())
        # The wildcard matcher collapses runs of spaces and tabs, in the rule and in the
        # command (measured: `touch  *` allows `touch zz`); it may also match as written.
        spaced = _SPACE_RUN.sub(" ", _text(toks))
        if spaced != _text(toks) or _SPACE_RUN.search(command):
            normal = [STAR if t is STAR else t for t in _respaced(toks)]
            if _glob_matches(normal, _SPACE_RUN.sub(" ", command)):
                return True
    regex = "".join(".*" if t is STAR else re.escape(str(t)) for t in toks)
    if re.fullmatch(regex, command, flags=re.DOTALL):
        return True
    trailing_space_star = (
        mode == "command" and stars == 1 and len(toks) >= 2 and toks[-1] is STAR
        and toks[-2] == " "
    )
    return trailing_space_star and command == _text(toks[:-2])


_SPACE_RUN = re.compile(r"[ \t]{2,}|\t")


def _respaced(toks: list[object]) -> list[object]:
    """The tokens with each run of literal spaces and tabs collapsed to one space."""
    out: list[object] = []
    for t in toks:
        if t is not STAR and str(t) in " \t":
            if out and out[-1] == " ":
                continue
            out.append(" ")
        else:
            out.append(t)
    return out


def _glob_matches(toks: list[object], command: str) -> bool:
    regex = "".join(".*" if t is STAR else re.escape(str(t)) for t in toks)
    return re.fullmatch(regex, command, flags=re.DOTALL) is not None


def ref_allows_any(rules: Iterable[str], command: str, mode: Mode = "command") -> bool:
    """True when at least one of ``rules`` allows ``command``."""
    return any(ref_allows(rule, command, mode) for rule in rules)
