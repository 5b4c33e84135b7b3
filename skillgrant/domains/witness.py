"""The witness a command decision reports (semantics §4.1, §10), and when there is none: a
would-be witness the runtime might still allow (a compound command, a wrapper it strips, spacing
it collapses, a loose reading of a pattern decided by identity) makes the decision
``unknown``, never ``not_covered``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..grants import Grant
from .base import Context, Fold, Glob, Outcome
from .commandpattern import OPERATOR, SPACE_RUN, SPLIT, CommandPattern, Kind, render
from .cover import first_match
from .loose import loose_doubt

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def refute(
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
    if OPERATOR.search(witness):
        return Outcome(
            "unknown",
            "the pattern holds a shell control operator; the runtime checks each part of a "
            "compound command separately, so no single witness applies",
        )
    if pattern.kind is Kind.ANY:
        telling = _SKILL_NAMES if key == "Skill" else _TELLING
        witness = _first_unmatched(telling, readings, context, fold) or witness
    doubt = loose_doubt(witness, render(witness), approved, loose, context.budget, fold)
    if doubt is not None:
        return doubt
    if pattern.kind is not Kind.ANY:
        return certain(witness)
    doubt = wrapper_doubt(witness) or spacing_doubt(witness)
    if doubt is not None:
        return doubt
    if key == "Skill":
        return Outcome("not_covered", f"it allows every skill; no approved grant allows the "
                       f"skill {render(witness)!r}", witness=render(witness))
    return Outcome("not_covered", f"it allows every command, and no approved grant allows "
                   f"{render(witness)!r}", witness=render(witness))


def certain(witness: str) -> Outcome:
    """The outcome for a witness of a pattern narrower than every command, once no loose
    reading can allow it: ``unknown`` when the runtime would strip a wrapper from it or
    collapse its spacing, else ``not_covered`` with it."""
    return wrapper_doubt(witness) or spacing_doubt(witness) or _not_allowed(render(witness))


def plain_certain(content: str) -> Outcome:
    """``certain`` for a plain content (``commandpattern.PLAIN_CONTENT``): one part (no control
    operator), single-spaced, printable ASCII (``render`` leaves it as it is), so only a
    wrapper in front can make it doubtful."""
    if content.partition(" ")[0] in RUNTIME_WRAPPERS:
        return certain(content)
    return _not_allowed(content)


def _not_allowed(witness: str) -> Outcome:
    # Made as a tuple, without the named tuple's Python-level constructor (the plain path's
    # refutations): status, reason, covered_by, witness, also.
    return _new_outcome(Outcome, ("not_covered", f"no approved grant allows {witness!r}", None,
                                  witness, ()))


_new_outcome: Final = tuple.__new__


#: Commands the runtime strips from the front of a command before it matches the rules (seen in
#: 2.1.332: under ``Bash(touch *)``, ``timeout 5 touch zz`` is allowed). A would-be witness that
#: starts with one may be allowed through the command it wraps, so it is not certain.
RUNTIME_WRAPPERS: Final = frozenset({"time", "nohup", "timeout", "nice", "stdbuf", "env",
                                     "command", "builtin", "noglob", "sudo", "doas", "xargs"})


def spacing_doubt(command: str) -> Outcome | None:
    """``unknown`` when the runtime would collapse spacing in ``command`` before matching."""
    if SPACE_RUN.search(command.strip(" \t")) is None:
        return None
    return Outcome("unknown", f"not covered as written, but no certain witness: the runtime "
                   f"collapses the spacing of {render(command)!r} before it matches")


def wrapper_doubt(command: str) -> Outcome | None:
    """``unknown`` when ``command`` (or a part of it) starts with a wrapper the runtime strips."""
    for part in SPLIT.split(command):
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


