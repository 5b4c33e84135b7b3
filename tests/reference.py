"""Independent reference models of semantics §4: membership only, one model per domain.

Each answers one question, "does this rule allow this concrete invocation?", over concrete
strings: commands (§4.1, and the §4.6 star-only globs) by a regular expression built from the
rule, paths (§4.2) by ``pathspec``'s gitignore matcher, hosts (§4.3) by a regular expression
written from the contract's sentences. None decides inclusion between patterns, and none touches
skillgrant: the tables and property tests use them to check what the prover claims about whole
languages on concrete members of those languages.

Commands
--------

A *rule* here is the content between the parentheses of an entry (``gh *`` for ``Bash(gh *)``).
``mode`` says how to read it:

* ``"command"`` (``Bash``, ``Monitor``, ``Skill``, shell aliases): PREFIX ``P:*``, GLOB with the
  trailing ``␠*`` rule, EXACT; case-sensitive.
* ``"powershell"``: as ``"command"``, comparing ASCII letters case-insensitively (only A-Z/a-z).
* ``"generic"`` (§4.6): a star-only glob, no ``:*`` form, no trailing-space rule.
* ``"skill"`` (``Skill`` under Claude Code 2.1.332, as measured): the name itself (a leading
  ``/`` dropped); ``x *`` and ``x:*`` every name that starts with ``x``; any other star
  nothing.

Backslashes follow the runtime as measured on Claude Code 2.1.332, not skillgrant's one level
of grant-syntax escapes: the runtime unescapes ``\\\\`` when it reads the rule, and its wildcard
matcher unescapes again (``\\*`` is a literal star, ``\\\\`` a literal backslash, any other
``\\x`` a literal backslash and ``x``). So ``touch \\\\*`` allows only the command ``touch *``.
Callers keep parentheses out of rules with backslashes (how the runtime reads ``\\(`` next to
other escapes is not modelled).

Compound commands (§4.1) are out of scope: callers keep control operators out of the commands
they ask about.

Paths
-----
``path_allows`` anchors the pattern at its base directory (``bases`` maps ``cwd``, ``home`` and
``root`` to absolute paths; a pattern with no ``/`` is at any depth) and asks pathspec about an
absolute path, extending every matched ancestor directory to its subtree (what the runtime may
do, semantics §4.2). ``path_witness`` reads a witness in its pattern's notation back as an absolute
path.

Hosts
-----
``host_allows`` matches a host against ``domain:HOST`` read as the contract says: a leading ``*.``
is one label or more, any other ``*`` stays inside a label, case and a trailing dot do not
matter; the bare grant and ``domain:*`` allow every host.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, Literal

from pathspec import PathSpec

Mode = Literal["command", "powershell", "generic", "skill"]

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
    if mode == "skill":
        return _skill_allows(rule, command)
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


def _skill_allows(rule: str, name: str) -> bool:
    """A Skill rule as measured: read character by character, never as a regular expression."""
    if rule[-2:] in (" *", ":*"):
        head = rule[:-2]
        if head.startswith("/"):
            head = head[1:]
        return "*" not in head and name[:len(head)] == head
    if "*" in rule:
        return False
    return name == (rule[1:] if rule.startswith("/") else rule)


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


# --------------------------------------------------------------------------------------------
# Paths (semantics §4.2)
# --------------------------------------------------------------------------------------------


def _based(text: str, bases: Mapping[str, str]) -> tuple[str, str]:
    """The base directory a pattern or witness is written against (``//`` the filesystem
    root, ``~/`` home, ``/`` the project root, else the working directory; a KeyError when
    ``bases`` lacks it), and the rest of the text."""
    if text.startswith("//"):
        return "", text[2:]
    if text.startswith("~/"):
        return bases["home"], text[2:]
    if text.startswith("/"):
        return bases["root"], text[1:]
    return bases["cwd"], text


def gitignore_line(content: str | None, bases: Mapping[str, str]) -> str:
    """The rule as one gitignore line anchored at ``/``, for matching absolute paths."""
    if content is None:
        return "/**"
    base, rest = _based(content, bases)
    if not content.startswith(("/", "~/")):
        rest = rest.removeprefix("./")
        if "/" not in rest.rstrip("/"):
            rest = "**/" + rest
    base = base.strip("/")
    return "/" + (base + "/" if base else "") + rest


@lru_cache(maxsize=4096)
def _spec(line: str) -> PathSpec[Any]:
    return PathSpec.from_lines("gitignore", [line])


def path_allows(content: str | None, path: str, bases: Mapping[str, str], *,
                directory: bool = False, fold: bool = False) -> bool:
    """Whether the rule allows the absolute ``path`` (written without its leading ``/``), with
    every matched ancestor directory extended to its subtree; ``fold`` ignores letter case."""
    line = gitignore_line(content, bases)
    if fold:
        line, path = line.lower(), path.lower()
    spec = _spec(line)
    parts = path.split("/") if path else []
    # The runtime asks a rule only about paths below its base directory (semantics §4.2):
    # the base itself, and the folders above it, are no path `/**` or `~/**` matches.
    base = _based(content, bases)[0].strip("/") if content is not None else ""
    for size in range(len(base.split("/")) + 1 if base else 0, len(parts) + 1):
        prefix = "/".join(parts[:size])
        if size < len(parts) or directory:
            if spec.match_file(prefix + "/"):
                return True
        elif size and spec.match_file(prefix):
            return True
    return False


# How a witness names a base directory itself: the base it is, as a directory.
_BASE_WITNESS = {"//": "", "~/": "home", "/": "root", ".": "cwd"}


def path_witness(witness: str, bases: Mapping[str, str]) -> tuple[str, bool]:
    """A witness, written in its pattern's notation, as an absolute path (no leading ``/``)
    and whether it names a directory."""
    if witness in _BASE_WITNESS:
        key = _BASE_WITNESS[witness]
        return (bases[key].strip("/") if key else ""), True
    directory = witness.endswith("/")
    base, rest = _based(witness.removesuffix("/"), bases)
    return "/".join(p for p in (base.strip("/"), rest) if p), directory


# --------------------------------------------------------------------------------------------
# Hosts (semantics §4.3)
# --------------------------------------------------------------------------------------------

_EVERY_HOST = re.compile(r"[^.]+(?:\.[^.]+)*")


def host_regex(content: str | None) -> re.Pattern[str] | None:
    """semantics §4.3 as a regular expression over lower-case hosts without a trailing dot; None
    for the specifiers it does not define (anything but ``domain:HOST``)."""
    if content is None:
        return _EVERY_HOST
    if not content.startswith("domain:"):
        return None
    host = content.removeprefix("domain:").lower().removesuffix(".")
    if host == "*":
        return _EVERY_HOST
    lead = ""
    if host.startswith("*."):
        lead, host = r"(?:[^.]+\.)+", host[2:]
    body = r"\.".join("[^.]*".join(map(re.escape, label.split("*")))
                      for label in host.split("."))
    return re.compile(lead + body)


def host_allows(content: str | None, host: str) -> bool:
    """Whether the ``WebFetch`` specifier ``content`` (None: the bare grant) allows ``host``."""
    pattern = host_regex(content)
    assert pattern is not None, f"§4.3 defines no hosts for {content!r}"
    return all(host.split(".")) and pattern.fullmatch(host.lower().removesuffix(".")) is not None
