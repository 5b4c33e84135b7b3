"""What stops an entry before any domain decides it (semantics §2, §3, §9): control characters,
the runtime's tokenizer, the entry and wildcard limits, and grants that grant nothing. An
approved entry stopped here makes the plan invalid (semantics §5).
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import vocabulary
from .domains.base import count_wildcards
from .errors import AllowedToolsError, GrantSyntaxError, PlanError
from .grants import (
    Grant,
    parse_grant,
    runtime_split,
    shorten,
    split_allowed_tools,
)
from .limits import MAX_ENTRY_LENGTH, MAX_WILDCARDS_PER_PATTERN
from .parser import forbidden_control

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final, Protocol

    from .verdicts import VerdictStatus

    class _Reading(Protocol):
        """What screening asks of a runtime profile (``runtimes.Profile``)."""

        @property
        def title(self) -> str: ...

        @property
        def skill_rules(self) -> str | None: ...

        def removed_reason(self, name: str) -> str | None:
            ...

        def misspelt_reason(self, name: str, key: str) -> str | None:
            ...

        def inert_reason(self, key: str, has_content: bool) -> str | None:
            ...

    Problem = tuple[VerdictStatus, str]


def check_approved_entry(entry: str) -> None:
    """Raise PlanError when ``entry`` cannot be an approved entry (semantics §5): it does not parse,
    the runtime would tokenize it differently, or it is over a limit."""
    approved_grant(entry)


def approved_grant(entry: str) -> Grant:
    text, problem = screen(entry)
    if problem is not None:
        raise PlanError(f"approved entry {shorten(entry)!r} is {problem[0]}: {problem[1]}",
                        entry=entry)
    try:
        return parse_grant(text)
    except GrantSyntaxError as e:
        raise PlanError(f"approved entry is invalid: {e}", entry=entry) from e


def screen(entry: str) -> tuple[str, Problem | None]:
    """The entry trimmed, and the status that stops it before it is parsed (or None)."""
    # Remembered up to the entry limit only: a cache of hostile megabyte entries would grow
    # with every file of a batch.
    if len(entry) > MAX_ENTRY_LENGTH:
        return _screen_once(entry)
    return _screen_cached(entry)


def clear_cache() -> None:
    """Forget every screened entry (benchmarks and tests of the caches start cold)."""
    _screen_cached.cache_clear()


@lru_cache(maxsize=4096)
def _screen_cached(entry: str) -> tuple[str, Problem | None]:
    return _screen_once(entry)


def _screen_once(entry: str) -> tuple[str, Problem | None]:
    if _PLAIN_ENTRY.fullmatch(entry) and len(entry) <= MAX_ENTRY_LENGTH:
        # One entry for both splitters, with no control character: only the wildcards count.
        return entry, _too_many_wildcards(entry)
    bad = forbidden_control(entry)
    if bad is not None:
        return entry, ("invalid", f"control character U+{ord(entry[bad]):04X} at column {bad + 1}")
    if len(entry) > MAX_ENTRY_LENGTH:
        return entry, ("unknown", f"{len(entry)} characters, over the limit of "
                       f"{MAX_ENTRY_LENGTH} (MAX_ENTRY_LENGTH)")
    try:
        ours = split_allowed_tools(entry)
    except AllowedToolsError as e:  # read otherwise by another runtime (grants._paired)
        return entry, ("ambiguous", str(e))
    if len(ours) != 1:
        if not ours:
            return entry, ("invalid", "an empty entry")
        try:
            for piece in ours:
                parse_grant(piece)
        except GrantSyntaxError:
            return entry, ("invalid", f"it holds {len(ours)} entries, not all of them valid")
        return entry, ("ambiguous", f"it holds {len(ours)} entries: {shorten(', '.join(ours))}")
    text = ours[0]
    theirs = runtime_split(text)
    if theirs != [text]:
        said = " + ".join(map(repr, theirs)) if theirs else "nothing"
        return text, ("ambiguous", f"Claude Code would read it as {shorten(said)}")
    return text, _too_many_wildcards(text)


#: An entry both splitters leave whole, with no control character that makes it invalid: a
#: name of printable ASCII other than ``( ) , \\`` and a blank, then optionally a content without
#: parentheses, backslashes or such a control character, in parentheses.
_PLAIN_ENTRY: Final = re.compile(
    r"[\x21-\x27\x2a\x2b\x2d-\x5b\x5d-\x7e]+(?:\([^()\\\x00-\x08\x0b-\x1f\x7f-\x9f]*\))?")


def _too_many_wildcards(text: str) -> Problem | None:
    if text.count("*") > MAX_WILDCARDS_PER_PATTERN < count_wildcards(text):
        return ("unknown", f"more than {MAX_WILDCARDS_PER_PATTERN} wildcards "
                "(MAX_WILDCARDS_PER_PATTERN)")
    return None


def inert_reason(grant: Grant) -> str | None:
    removed = vocabulary.removed_name(grant.key)
    if removed is not None:
        return f"{removed} is a removed tool name; it grants nothing"
    if grant.is_mcp:
        if grant.content is not None:
            return "MCP tool names take no parentheses; the runtime matches nothing"
        from .domains import mcp  # loaded only for a plan naming MCP tools

        if mcp.is_inert(grant.key):
            return "an MCP name with a wildcard outside the tool's end matches no tool"
        return None
    if "*" in grant.key:
        return "a tool-name glob matches no tool: only MCP tool names may end in '*'"
    if grant.key in vocabulary.PATH_RULES_IGNORED and grant.content is not None:
        return f"the runtime never consults path rules for {grant.tool}; this grants nothing"
    return None


def runtime_inert_reason(text: str, grant: Grant, profile: _Reading | None, *,
                         approved: bool = False) -> str | None:
    """Why the entry ``text`` (parsed as ``grant``) grants nothing under the runtime
    ``profile``, beyond ``inert_reason``: its form grants nothing there, or (an ``approved``
    entry) its tool name is not spelled as that runtime matches it. None under no profile (the
    plan's own vocabulary)."""
    if profile is None:
        return None
    removed = profile.removed_reason(text.split("(", 1)[0])
    if removed is not None:
        return removed
    if approved:
        reason = profile.misspelt_reason(text.split("(", 1)[0], grant.key)
        if reason is not None:
            return reason
    reason = profile.inert_reason(grant.key, grant.content is not None)
    if reason is not None:
        return reason
    if profile.skill_rules is not None and grant.key == "Skill":
        from .domains import skill

        found = skill.inert_reason(grant)
        if found is not None:
            return f"under {profile.title}, {found}"
    return None
