"""``prove()`` and ``constrain()`` (SPEC §1, §5, §10): entries in, verdicts with evidence out.

The order of checks for a submitted entry is the order of the statuses' strength: an entry that
is not text we can read is ``invalid``, one the runtime would cut differently is ``ambiguous``,
one past a limit is ``unknown``, one that grants nothing is ``inert``; only then does a domain
decide. Anything that goes wrong inside a domain is ``unknown``: fail closed.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from . import vocabulary
from .domains import agent, command, generic, mcp, path, web
from .domains.base import Budget, Context, Outcome, OverBudget, count_wildcards
from .errors import AllowedToolsError, GrantSyntaxError, PlanError
from .grants import (
    Grant,
    forbidden_control,
    parse_grant,
    runtime_split,
    shorten,
    split_allowed_tools,
)
from .limits import (
    MAX_ENTRIES_PER_VALUE,
    MAX_ENTRY_LENGTH,
    MAX_WILDCARDS_PER_PATTERN,
    MAX_WORK_PER_VALUE,
)
from .vocabulary import Domain

logger = logging.getLogger("skillgrant")

VerdictStatus = Literal["covered", "not_covered", "unknown", "invalid", "inert", "ambiguous"]


@dataclass(frozen=True)
class Verdict:
    """The decision on one submitted entry, with its evidence.

    ``covered_by`` is the approved entry that covers it (``also_covered_by`` any others a union
    needed); ``witness`` a concrete invocation argument the entry allows and no approved entry
    does; ``written`` the spelling the entry is written with when kept.
    """

    entry: str
    status: VerdictStatus
    reason: str
    covered_by: str | None = None
    witness: str | None = None
    written: str | None = None
    also_covered_by: tuple[str, ...] = ()

    @property
    def covered(self) -> bool:
        return self.status == "covered"


@dataclass(frozen=True)
class Decision:
    """The outcome of ``constrain``: what ``allowed-tools`` becomes, and why."""

    allowed: list[str]
    kept: list[Verdict]
    dropped: list[Verdict]
    restored: bool
    verdicts: list[Verdict] = field(default_factory=list)


@dataclass(frozen=True)
class _Approved:
    entry: str
    grant: Grant


class _Plan:
    """Approved entries parsed once, with the context their decisions share."""

    def __init__(
        self,
        approved: str | Sequence[str],
        shell_tools: Mapping[str, object] | Iterable[str] | None,
        base_dirs: Mapping[str, str | None] | None,
    ) -> None:
        try:
            entries = split_allowed_tools(approved)
        except AllowedToolsError as e:
            raise PlanError(f"approved allowed-tools: {e}") from e
        if len(entries) > MAX_ENTRIES_PER_VALUE:
            raise PlanError(f"the plan has {len(entries)} entries; the limit is "
                            f"{MAX_ENTRIES_PER_VALUE} (MAX_ENTRIES_PER_VALUE)")
        self.entries = [_Approved(e, _approved_grant(e)) for e in entries]
        names = _shell_tool_names(shell_tools)
        self.shell_spelling = {vocabulary.name_key(n): n for n in names}
        self.shell_tools = frozenset(self.shell_spelling)
        self.base_dirs = _base_dirs(base_dirs)

    def context(self, value_budget: Budget | None = None) -> Context:
        return Context(self.shell_tools, self.base_dirs, Budget(parent=value_budget))


_BASE_DIR_KEYS = ("cwd", "home", "root")
_TOOL_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


def _shell_tool_names(shell_tools: object) -> list[str]:
    """The declared shell-tool names (SPEC §3), or PlanError for anything but a mapping or a
    list of names."""
    if shell_tools is None:
        return []
    if isinstance(shell_tools, Mapping):
        names: Iterable[object] = shell_tools.keys()
    elif isinstance(shell_tools, (list, tuple, set, frozenset)):
        names = shell_tools
    else:
        raise PlanError(f"shell_tools must be a mapping or a list of tool names, not "
                        f"{type(shell_tools).__name__}")
    checked = []
    for name in names:
        if not isinstance(name, str) or _TOOL_NAME.fullmatch(name) is None:
            raise PlanError(f"shell tool name {shorten(repr(name))} is not a tool name")
        checked.append(name)
    return checked


def _base_dirs(base_dirs: object) -> dict[str, str]:
    """The plan's base directories (SPEC §4.2), or PlanError for a malformed value."""
    if base_dirs is None:
        return {}
    if hasattr(base_dirs, "model_dump"):  # a pydantic BaseDirs from a Plan
        base_dirs = base_dirs.model_dump()
    if not isinstance(base_dirs, Mapping):
        raise PlanError(f"base_dirs must be a mapping with keys {', '.join(_BASE_DIR_KEYS)}, "
                        f"not {type(base_dirs).__name__}")
    result = {}
    for key, value in base_dirs.items():
        if key not in _BASE_DIR_KEYS:
            raise PlanError(f"unknown base directory {shorten(repr(key))}; expected one of "
                            f"{', '.join(_BASE_DIR_KEYS)}")
        if value is None:
            continue
        if not isinstance(value, str):
            raise PlanError(f"base directory {key} must be a string, not "
                            f"{type(value).__name__}")
        result[key] = value
    return result


def check_approved_entry(entry: str) -> None:
    """Raise PlanError when ``entry`` cannot be an approved entry (SPEC §5): it does not parse,
    the runtime would tokenize it differently, or it is over a limit."""
    _approved_grant(entry)


def _approved_grant(entry: str) -> Grant:
    text, problem = _screen(entry)
    if problem is not None:
        raise PlanError(f"approved entry {shorten(entry)!r} is {problem[0]}: {problem[1]}",
                        entry=entry)
    try:
        return parse_grant(text)
    except GrantSyntaxError as e:
        raise PlanError(f"approved entry is invalid: {e}", entry=entry) from e


Problem = tuple[VerdictStatus, str]


@lru_cache(maxsize=4096)
def _screen(entry: str) -> tuple[str, Problem | None]:
    """The entry trimmed, and the status that stops it before it is parsed (or None)."""
    bad = forbidden_control(entry)
    if bad is not None:
        return entry, ("invalid", f"control character U+{ord(entry[bad]):04X} at column {bad + 1}")
    if len(entry) > MAX_ENTRY_LENGTH:
        return entry, ("unknown", f"{len(entry)} characters, over the limit of "
                       f"{MAX_ENTRY_LENGTH} (MAX_ENTRY_LENGTH)")
    ours = split_allowed_tools(entry)
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
    if text.count("*") > MAX_WILDCARDS_PER_PATTERN < count_wildcards(text):
        return text, ("unknown", f"more than {MAX_WILDCARDS_PER_PATTERN} wildcards "
                      "(MAX_WILDCARDS_PER_PATTERN)")
    return text, None


def _inert_reason(grant: Grant) -> str | None:
    removed = vocabulary.removed_name(grant.key)
    if removed is not None:
        return f"{removed} is a removed tool name; it grants nothing"
    if grant.is_mcp:
        if grant.content is not None:
            return "MCP tool names take no parentheses; the runtime matches nothing"
        if mcp.is_inert(grant.key):
            return "an MCP name with a wildcard outside the tool's end matches no tool"
        return None
    if "*" in grant.key:
        return "a tool-name glob matches no tool: only MCP tool names may end in '*'"
    if grant.key in vocabulary.PATH_RULES_IGNORED and grant.content is not None:
        return f"the runtime never consults path rules for {grant.tool}; this grants nothing"
    return None


def _relevant(submitted: Grant, other: Grant, plan: _Plan) -> bool:
    """Whether an approved grant can cover the submitted one at all (SPEC §3, §4)."""
    domain = vocabulary.domain_of(submitted.key, plan.shell_tools)
    if domain is Domain.MCP:
        return other.is_mcp
    if domain is Domain.PATH:
        return other.key == submitted.key or (submitted.key == "Read" and other.key == "Edit")
    if domain is Domain.COMMAND:
        return _command_group(submitted.key, plan) == _command_group(other.key, plan)
    return other.key == submitted.key


def _command_group(key: str, plan: _Plan) -> str:
    return "Bash" if key == "Bash" or key in plan.shell_tools else key


def _decide(entry: str, plan: _Plan, value_budget: Budget | None = None) -> Verdict:
    text, problem = _screen(entry)
    if problem is not None:
        return Verdict(entry, problem[0], f"the entry is {problem[0]}: {problem[1]}")
    try:
        grant = parse_grant(text)
    except GrantSyntaxError as e:
        return Verdict(entry, "invalid", str(e))
    inert = _inert_reason(grant)
    if inert is not None:
        return Verdict(entry, "inert", inert)
    candidates = [a for a in plan.entries
                  if _inert_reason(a.grant) is None and _relevant(grant, a.grant, plan)]
    try:
        outcome = _dispatch(grant, [a.grant for a in candidates], plan.context(value_budget))
    except OverBudget as e:
        return Verdict(entry, "unknown", f"the decision was stopped: {e}")
    except RecursionError:
        return Verdict(entry, "unknown", "the decision was stopped: too deeply nested")
    except Exception as e:  # fail closed (SPEC §1.1): a crash never keeps a grant
        logger.error("prover failure on %r", entry, exc_info=True)
        return Verdict(entry, "unknown", f"the prover failed ({type(e).__name__}); not kept")
    if outcome.status != "covered" or outcome.covered_by is None:
        return Verdict(entry, outcome.status, outcome.reason, witness=outcome.witness)
    cover = candidates[outcome.covered_by]
    return Verdict(
        entry,
        "covered",
        outcome.reason,
        covered_by=cover.entry,
        written=str(_spelled(grant, cover.grant, plan)),
        also_covered_by=tuple(candidates[i].entry for i in outcome.also),
    )


def _dispatch(grant: Grant, approved: list[Grant], context: Context) -> Outcome:
    domain = vocabulary.domain_of(grant.key, context.shell_tools)
    if domain is Domain.COMMAND:
        fold = command.ascii_fold if grant.key == "PowerShell" else None
        return command.decide(grant, approved, context, fold=fold)
    if domain is Domain.PATH:
        return path.decide(grant, approved, context)
    if domain is Domain.WEB:
        return web.decide(grant, approved, context)
    if domain is Domain.MCP:
        return mcp.decide(grant, approved, context)
    if domain is Domain.AGENT:
        return agent.decide(grant, approved, context)
    return generic.decide(grant, approved, context)


def _spelled(grant: Grant, cover: Grant, plan: _Plan) -> Grant:
    """The spelling a kept grant is written with (SPEC §3): canonical for built-ins, the plan's
    for shell aliases, the covering entry's for other tools of the same name, else as given."""
    if grant.is_mcp or vocabulary.canonical_name(grant.key) is not None:
        return grant
    if grant.key in plan.shell_spelling:
        return grant.with_tool(plan.shell_spelling[grant.key])
    if cover.key == grant.key:
        return grant.with_tool(cover.tool)
    return grant


def prove(
    entry: str,
    approved: str | Sequence[str],
    *,
    shell_tools: Mapping[str, object] | Iterable[str] | None = None,
    base_dirs: Mapping[str, str | None] | None = None,
) -> Verdict:
    """Decide whether one submitted entry is covered by the approved entries (SPEC §1, §10).

    Raises PlanError when an approved entry is invalid; a submitted entry that is invalid,
    ambiguous, inert, over a limit or not covered is a Verdict, never an exception.

    >>> prove("Bash(gh pr list)", ["Bash(gh *)"]).covered_by
    'Bash(gh *)'
    """
    if not isinstance(entry, str):
        raise AllowedToolsError(f"an entry must be a string, not {type(entry).__name__}")
    return _decide(entry, _Plan(approved, shell_tools, base_dirs))


def constrain(
    submitted: str | Sequence[str],
    approved: str | Sequence[str],
    *,
    shell_tools: Mapping[str, object] | Iterable[str] | None = None,
    base_dirs: Mapping[str, str | None] | None = None,
    source: str | None = None,
) -> Decision:
    """Keep the submitted entries the approved ones cover; drop the rest with evidence (SPEC §5).

    Kept entries keep their order and take their canonical spelling; duplicates collapse. When
    nothing survives, the approved entries are restored; when nothing is approved, nothing is
    kept. Every drop and restore is logged on the ``skillgrant`` logger, tagged with ``source``.
    Raises PlanError when an approved entry is invalid.

    >>> constrain(["Bash(gh pr list)", "Bash(rm -rf /)"], ["Bash(gh *)"]).allowed
    ['Bash(gh pr list)']
    """
    plan = _Plan(approved, shell_tools, base_dirs)
    entries = split_allowed_tools(submitted)
    if len(entries) > MAX_ENTRIES_PER_VALUE:
        reason = (f"the value has {len(entries)} entries, over the limit of "
                  f"{MAX_ENTRIES_PER_VALUE} (MAX_ENTRIES_PER_VALUE); rejected whole")
        verdicts = [Verdict(e, "unknown", reason) for e in entries]
    else:
        # One budget for the whole value (MAX_WORK_PER_VALUE), and each distinct entry decided
        # once: a value of many copies of one hostile entry costs one decision.
        value_budget = Budget(limit=MAX_WORK_PER_VALUE, name="MAX_WORK_PER_VALUE")
        decided: dict[str, Verdict] = {}
        verdicts = []
        for e in entries:
            if e in decided:  # a copy: each position in the value has its own verdict
                verdicts.append(dataclasses.replace(decided[e]))
            else:
                decided[e] = _decide(e, plan, value_budget)
                verdicts.append(decided[e])
    allowed: list[str] = []
    kept: list[Verdict] = []
    dropped: list[Verdict] = []
    for verdict in verdicts:
        if not verdict.covered:
            dropped.append(verdict)
            _log_drop(verdict, source)
        elif verdict.written not in allowed:
            allowed.append(verdict.written or verdict.entry)
            kept.append(verdict)
    restored = False
    if not allowed and plan.entries:
        allowed = list(dict.fromkeys(str(a.grant) for a in plan.entries))
        restored = True
        reason = ("nothing submitted was covered" if entries
                  else "the submitted allowed-tools was empty")
        logger.warning(
            "restored the approved allowed-tools: %s",
            reason,
            extra={"skillgrant": {
                "file": source,
                "event": "restored",
                "entry": ", ".join(allowed),
                "status": "restored",
                "reason": f"{reason}; the approved entries were restored",
                "witness": None,
                "allowed": allowed,
            }},
        )
    return Decision(allowed, kept, dropped, restored, verdicts)


def _log_drop(verdict: Verdict, source: str | None) -> None:
    logger.warning(
        "dropped %s: %s",
        verdict.entry,
        verdict.reason,
        extra={"skillgrant": {
            "file": source,
            "event": "dropped",
            "entry": verdict.entry,
            "status": verdict.status,
            "reason": verdict.reason,
            "witness": verdict.witness,
        }},
    )
