"""The command domain (semantics §4.1): ``Bash``, ``Monitor``, ``PowerShell``, ``Skill`` and
declared shell aliases.

Every command pattern denotes a union of at most two star-only globs:

=========  ================  ==========================================
kind       example           language
=========  ================  ==========================================
ANY        ``Bash``          every command
PREFIX     ``git add:*``     ``{P} ∪ {P␠w}``: globs ``P`` and ``P␠*``
GLOB       ``ls *``          ``{ls} ∪ {ls␠w}`` (a lone trailing ``␠*``)
GLOB       ``git * main``    the glob itself
EXACT      ``npm test``      the one command
=========  ================  ==========================================

A submitted EXACT or PREFIX whose literal holds a shell control operator is special: the runtime
approves such a compound string at once (semantics §4.1), so it is covered only by a tool-wide
grant, an approved EXACT/PREFIX with the same literal, or an unambiguous split whose every part is
covered.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum
from functools import lru_cache
from typing import Final, NamedTuple

from ..grants import JS_WHITESPACE, Grant
from .base import (
    EVERY_TEXT,
    RESERVED,
    Context,
    Fold,
    Glob,
    Outcome,
    approved_filler,
    first_match,
    parse_star_glob,
    unescape,
    union_cover,
)
from .loose import BACKSLASH_REASON, has_backslash, loose_doubt, loose_globs

PLACEHOLDERS = (
    "${CLAUDE_SKILL_DIR}",
    "${CLAUDE_PROJECT_DIR}",
    "${CLAUDE_PLUGIN_ROOT}",
    "${CLAUDE_PLUGIN_DATA}",
)
# Each placeholder becomes one reserved character: a star may absorb it, a literal may not match
# inside it.
_SYMBOL = {text: chr(0xFDD0 + i) for i, text in enumerate(PLACEHOLDERS)}
_TEXT = {symbol: text for text, symbol in _SYMBOL.items()}

_OPERATOR = re.compile(r"&&|\|\||\|&|[;|&\n\r`]|\$\(|<\(|>\(")
_SPLIT = re.compile(r"&&|\|\||\|&|[;|&\n\r]")
_UNSPLITTABLE = re.compile(r"['\"\\()$`]")


class Kind(Enum):
    ANY = "any"
    PREFIX = "prefix"
    GLOB = "glob"
    EXACT = "exact"


class CommandPattern(NamedTuple):
    """A compiled command-domain specifier: its kind, its literal (EXACT/PREFIX) and its globs."""

    kind: Kind
    literal: str
    globs: tuple[Glob, ...]

    @property
    def compound(self) -> bool:
        """An EXACT/PREFIX literal holding a control operator: approved whole by the runtime."""
        return self.kind in (Kind.EXACT, Kind.PREFIX) and _OPERATOR.search(self.literal) is not None


#: The top: every command (a tool-wide grant, ``Bash(**)``).
ANY_COMMAND: Final = CommandPattern(Kind.ANY, "", (EVERY_TEXT,))


def read_literal(text: str) -> str:
    """Pattern text as the matcher compares it: escapes resolved (``base.unescape``) and each
    placeholder encoded as its opaque symbol."""
    text = unescape(text)
    for placeholder, symbol in _SYMBOL.items():
        text = text.replace(placeholder, symbol)
    return text


def render(text: str) -> str:
    """The printable form of a command built from pattern pieces (placeholders written back)."""
    for symbol, placeholder in _TEXT.items():
        text = text.replace(symbol, placeholder)
    return text


@lru_cache(maxsize=4096)
def compile_pattern(content: str | None) -> CommandPattern:
    """Classify and compile a specifier (semantics §4.1); None (the bare grant) is ``ANY_COMMAND``.
    Content with reserved characters is refused by the caller before this runs."""
    if content is None:
        return ANY_COMMAND
    if content.endswith(":*"):
        prefix = read_literal(content[:-2])  # a star inside P is a literal star
        return CommandPattern(Kind.PREFIX, prefix, (Glob((prefix,)), Glob((prefix + " ", ""))))
    glob = parse_star_glob(content.strip(JS_WHITESPACE), read_literal)
    if glob.stars == 0:
        literal = read_literal(content)
        return CommandPattern(Kind.EXACT, literal, (Glob((literal,)),))
    if glob.is_everything:
        return ANY_COMMAND
    if glob.stars == 1 and glob.segments[1] == "" and glob.segments[0].endswith(" "):
        bare = glob.segments[0][:-1]
        return CommandPattern(Kind.GLOB, "", (Glob((bare,)), glob))
    return CommandPattern(Kind.GLOB, "", (glob,))


def ascii_fold(text: str) -> str:
    """ASCII-only lower-casing: never Unicode folding, where ``ß``→``ss`` would widen."""
    return text.translate(_ASCII_LOWER)


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def has_reserved(content: str | None) -> bool:
    return content is not None and not RESERVED.isdisjoint(content)


def case_fold(key: str) -> Fold | None:
    """How a tool's content compares: ``PowerShell`` ASCII-case-insensitively (semantics §4.1),
    every other command tool exactly."""
    return ascii_fold if key == "PowerShell" else None


def group(key: str, shell_tools: frozenset[str]) -> str:
    """The tool group a command tool is judged in: declared shell aliases join ``Bash`` (semantics
    §3); ``Monitor``, ``PowerShell`` and ``Skill`` are each their own."""
    return "Bash" if key == "Bash" or key in shell_tools else key


def relevant(submitted: Grant, other: Grant, shell_tools: frozenset[str]) -> bool:
    """Whether ``other`` can cover ``submitted`` at all: a grant of the same tool group."""
    return group(submitted.key, shell_tools) == group(other.key, shell_tools)


def decide(submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
    """Decide a command-domain grant against approved grants of the same tool group.

    A pattern whose content holds a backslash or a run of spaces is decided by identity only
    (``identity_reason``): the runtime unescapes backslashes twice and collapses spacing, so its
    language is not the one it is written with. Such an approved grant covers only the
    identical entry; it is still consulted, read loosely, before a witness is reported.
    """
    if has_reserved(submitted.content):
        return Outcome("unknown", "the entry holds reserved Unicode noncharacters")
    side = _ApprovedSide.of(approved)
    outright = side.covers_outright(submitted)
    if outright is not None:
        return outright
    # Approved patterns decided by identity still shape the witness: it must escape every
    # reading the runtime may give them (spacing collapsed, escapes read either way).
    loose = side.loose()
    pattern = compile_pattern(submitted.content)
    fold = case_fold(submitted.key)
    if pattern.compound:
        return _decide_compound(pattern, side.compiled, context, fold)
    languages = [(i, p.globs) for i, p in side.compiled]
    # The filler avoids the loose readings' literals too, so a witness can escape them.
    filler = approved_filler([*languages, *loose], context.budget, fold)
    covering, witness = union_cover(pattern.globs, languages, context.budget, fold, filler)
    if witness is None:
        first, *rest = covering
        also = tuple(dict.fromkeys(i for i in rest if i != first))
        reason = "every command it allows is allowed by an approved grant"
        return Outcome("covered", reason, covered_by=first, also=also)
    return _refute(witness, submitted.key, pattern, approved, [*languages, *loose], loose,
                   context, fold)


class _ApprovedSide(NamedTuple):
    """The approved grants as a decision reads them: ``usable`` (no reserved characters), of
    which ``compiled`` are decided by their language and the rest (``by_identity``) only by
    identity."""

    usable: list[tuple[int, Grant]]
    by_identity: frozenset[int]
    compiled: list[tuple[int, CommandPattern]]

    @classmethod
    def of(cls, approved: Sequence[Grant]) -> _ApprovedSide:
        usable = [(i, a) for i, a in enumerate(approved) if not has_reserved(a.content)]
        by_identity = frozenset(i for i, a in usable if identity_reason(a.content) is not None)
        compiled = [(i, compile_pattern(a.content)) for i, a in usable if i not in by_identity]
        return cls(usable, by_identity, compiled)

    def covers_outright(self, submitted: Grant) -> Outcome | None:
        """``covered`` by a tool-wide approved grant, or, for a submitted pattern decided by
        identity, by an identical one (else ``unknown``); None when its language decides."""
        tool_wide = next((i for i, p in self.compiled if p.kind is Kind.ANY), None)
        if tool_wide is not None:
            return Outcome("covered", "covered by a tool-wide approved grant",
                           covered_by=tool_wide)
        reason = identity_reason(submitted.content)
        if reason is None:
            return None
        same = next((i for i, a in self.usable if a == submitted), None)
        if same is not None:
            return Outcome("covered", "an identical grant is approved", covered_by=same)
        return Outcome("unknown", f"not decided: {reason}")

    def loose(self) -> list[tuple[int, tuple[Glob, ...]]]:
        """Every reading of the grants decided by identity (spacing collapsed or not)."""
        return [(i, loose_globs(text, PLACEHOLDERS)) for i, a in self.usable
                if i in self.by_identity
                for text in dict.fromkeys((a.content or "",
                                           _SPACE_RUN.sub(" ", a.content or "")))]


def _refute(
    witness: str,
    key: str,
    pattern: CommandPattern,
    approved: Sequence[Grant],
    readings: Sequence[tuple[int, Sequence[Glob]]],
    loose: Sequence[tuple[int, Sequence[Glob]]],
    context: Context,
    fold: Fold | None,
) -> Outcome:
    """``not_covered`` with a certain witness (a telling one against a tool-wide grant), or
    ``unknown`` when the runtime might still allow it. ``readings`` are every approved language,
    the loose ones included. A ``Skill`` grant's content names a skill, not a command, and its
    witness and reason say so."""
    if _OPERATOR.search(witness):
        return Outcome(
            "unknown",
            "the pattern holds a shell control operator; the runtime checks each part of a "
            "compound command separately, so no single witness applies",
        )
    if pattern.kind is Kind.ANY:
        telling = _SKILL_NAMES if key == "Skill" else _TELLING
        witness = _first_unmatched(telling, readings, context, fold) or witness
    doubt = (loose_doubt(witness, render(witness), approved, loose, context.budget, fold)
             or _wrapper_doubt(witness) or _spacing_doubt(witness))
    if doubt is not None:
        return doubt
    if pattern.kind is Kind.ANY and key == "Skill":
        return Outcome("not_covered", f"it allows every skill; no approved grant allows the "
                       f"skill {render(witness)!r}", witness=render(witness))
    if pattern.kind is Kind.ANY:
        return Outcome("not_covered", f"it allows every command, and no approved grant allows "
                       f"{render(witness)!r}", witness=render(witness))
    return Outcome("not_covered", f"no approved grant allows {render(witness)!r}",
                   witness=render(witness))


#: Commands the runtime strips from the front of a command before it matches the rules (seen in
#: 2.1.332: under ``Bash(touch *)``, ``timeout 5 touch zz`` is allowed). A would-be witness that
#: starts with one may be allowed through the command it wraps, so it is not certain.
RUNTIME_WRAPPERS: Final = frozenset({"time", "nohup", "timeout", "nice", "stdbuf", "env",
                                     "command", "builtin", "noglob", "sudo", "doas", "xargs"})


#: What the runtime's wildcard matcher collapses to one space, in the rule and in the command
#: (seen in 2.1.332: ``Bash(touch  *)`` with two spaces allows ``touch zz``).
_SPACE_RUN: Final = re.compile(r"[ \t]{2,}|\t")
SPACING_REASON: Final = (
    "its content holds a run of spaces or a tab, which the runtime's matcher collapses to one "
    "space in the rule and in the command, so such a pattern is covered only by an identical "
    "approved entry or a tool-wide grant")


def identity_reason(content: str | None) -> str | None:
    """Why a command pattern is decided by identity only, or None when it is decided by its
    language: a backslash (read twice by the runtime) or a run of spaces (collapsed by it)."""
    if has_backslash(content):
        return BACKSLASH_REASON
    if content is not None and _SPACE_RUN.search(content):
        return SPACING_REASON
    return None


def _spacing_doubt(command: str) -> Outcome | None:
    """``unknown`` when the runtime would collapse spacing in ``command`` before matching."""
    if _SPACE_RUN.search(command.strip(" \t")) is None:
        return None
    return Outcome("unknown", f"not covered as written, but no certain witness: the runtime "
                   f"collapses the spacing of {render(command)!r} before it matches")


def _wrapper_doubt(command: str) -> Outcome | None:
    """``unknown`` when ``command`` (or a part of it) starts with a wrapper the runtime strips."""
    for part in _SPLIT.split(command):
        words = part.split()
        if words and words[0] in RUNTIME_WRAPPERS:
            return Outcome("unknown", f"not covered as written, but no certain witness: the "
                           f"runtime strips the wrapper {words[0]!r} from {render(command)!r} "
                           "before it matches, and may allow the command inside")
    return None


# Tried first as the witness against a tool-wide grant: a command a reader recognises as harm,
# and that the runtime really allows under a bare `Bash` (2.1.332 refuses `rm -rf ~` and
# `rm -rf /` whatever the rules say, so neither would be a witness).
_TELLING = ("rm -rf build", "curl -fsSL https://example.com/install.sh", "sh")
# The same against a bare `Skill`, which runs skills, not commands: a name that reads as "any".
_SKILL_NAMES = ("any-skill", "any-other-skill")


def _first_unmatched(
    candidates: Sequence[str],
    languages: Sequence[tuple[int, Sequence[Glob]]],
    context: Context,
    fold: Fold | None,
) -> str | None:
    return next((c for c in candidates
                 if first_match(c, languages, context.budget, fold) is None), None)


def _decide_compound(
    pattern: CommandPattern,
    compiled: Sequence[tuple[int, CommandPattern]],
    context: Context,
    fold: Fold | None,
) -> Outcome:
    # An approved EXACT or PREFIX with the same literal approves that compound string whole.
    # A submitted PREFIX may approve more than its literal, so only a PREFIX matches it.
    kinds = (Kind.PREFIX,) if pattern.kind is Kind.PREFIX else (Kind.EXACT, Kind.PREFIX)
    same = _same_literal(pattern.literal, compiled, kinds, fold)
    if same is not None:
        return Outcome("covered", "an approved grant allows the same compound command",
                       covered_by=same)
    if pattern.kind is Kind.PREFIX:
        return Outcome(
            "unknown",
            "a prefix rule whose prefix is a compound command is covered only by the same "
            "prefix rule or a tool-wide grant",
        )
    parts = [part.strip(" \t") for part in _SPLIT.split(pattern.literal)]
    if "$(" in pattern.literal or any(not p or _UNSPLITTABLE.search(p) for p in parts):
        return Outcome(
            "unknown",
            "a compound command that cannot be split unambiguously (quotes, substitutions, "
            "parentheses or an empty part) is covered only by an identical or tool-wide grant",
        )
    languages = [(i, p.globs) for i, p in compiled if not p.compound]
    filler = approved_filler(languages, context.budget, fold)
    covering: list[int] = []
    for part in parts:
        found, witness = union_cover((Glob((part,)),), languages, context.budget, fold, filler)
        if witness is not None:
            # Whether the runtime approves a compound rule whole or checks it part by part
            # depends on its operators and commands (2.1.332 approves `touch a && touch b`
            # whole, but neither a pipe nor `git status && touch x`): no certain witness.
            return Outcome("unknown", f"its part {render(part)!r} is allowed by no approved "
                           "grant, but the runtime approves some compound rules whole and "
                           "checks others part by part, so the compound string is no certain "
                           "witness")
        covering.extend(found)
    first, *rest = covering
    return Outcome("covered", "every part of the compound command is covered",
                   covered_by=first, also=tuple(dict.fromkeys(i for i in rest if i != first)))


def _same_literal(
    literal: str,
    compiled: Sequence[tuple[int, CommandPattern]],
    kinds: tuple[Kind, ...],
    fold: Fold | None,
) -> int | None:
    key = fold(literal) if fold else literal
    for index, other in compiled:
        if other.kind in kinds and (fold(other.literal) if fold else other.literal) == key:
            return index
    return None
