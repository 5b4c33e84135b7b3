"""The approved side of a decision, prepared once (``PreparedPlan``) and kept between calls with the
verdicts already reached against it (``plan_for``): a batch decides the same few grants again.

A remembered verdict is reused only for the same entry against equal arguments under the same
limits, and replays the work it cost (``prover._decide``), so a value's budget runs out exactly
where it would have without the memory.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence

from . import grants, screening, vocabulary
from .domains import command, generic
from .domains.base import Budget, Context, Outcome
from .domains.cover import Alternation
from .domains.loose import loose_globs
from .domains.registry import domain_for, rules_for
from .errors import AllowedToolsError, GrantSyntaxError, PlanError
from .grants import Grant, shorten, split_allowed_tools
from .limits import MAX_ENTRIES_PER_VALUE
from .records import NamedTuple
from .screening import approved_grant, inert_reason, runtime_inert_reason

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final, Protocol

    from .runtimes import Profile
    from .verdicts import Verdict

    class _PlainDomain(Protocol):
        """A domain that decides plain entries in a few steps (``PlainTool``)."""

        def compiled_side(self, approved: Sequence[Grant], context: Context,
                          key: str) -> object: ...

        def decide_plain(self, content: str, side: object, room: int
                         ) -> tuple[Outcome, int] | None:
            ...

        def literal_matcher(self, side: object) -> tuple[Alternation, int, bool] | None: ...


class _Approved(NamedTuple):
    entry: str
    grant: Grant


_PLAIN_DOMAINS: Final[dict[vocabulary.Domain, _PlainDomain]] = {
    vocabulary.Domain.COMMAND: command, vocabulary.Domain.GENERIC: generic}


class PlainTool(NamedTuple):
    """A command tool compared exactly (not PowerShell), as the plan decides its plain entries
    (``decide_plain`` of its domain): its spelling and key, the approved entries that can
    cover it, how its domain decides them against the approved side compiled of them, and how
    a kept entry is spelled."""

    tool: str
    key: str
    #: The approved entries that can cover it (``PreparedPlan.candidates``).
    entries: tuple[str, ...]
    decide: Callable[[str, object, int], tuple[Outcome, int] | None]
    side: object
    #: The tool name a kept entry is written with, by the candidate covering it.
    written: tuple[str, ...]
    #: What a content without a star is matched with (``command.literal_matcher``), or None.
    literal: tuple[Alternation, int, bool] | None
    #: Whether a plain content is a rule the runtime approves whole (then the general path
    #: decides), or None when no such rule exists for this tool under this runtime.
    whole: Callable[[str], bool] | None = None


class PreparedPlan:
    """Approved entries parsed once, with the context their decisions share, and the verdicts
    already reached against them (``remember``/``remembered``)."""

    def __init__(
        self,
        approved: str | Sequence[str],
        shell_tools: Mapping[str, object] | Iterable[str] | None,
        base_dirs: Mapping[str, str | None] | None,
        profile: Profile | None = None,
    ) -> None:
        #: The runtime the plan is read for (``runtimes.Profile``); None: the plan's own
        #: vocabulary, shell aliases joining ``Bash`` as declared (the call gate).
        self.profile = profile
        try:
            entries = split_allowed_tools(approved)
        except AllowedToolsError as e:
            raise PlanError(f"approved allowed-tools: {e}") from e
        if len(entries) > MAX_ENTRIES_PER_VALUE:
            raise PlanError(f"the plan has {len(entries)} entries; the limit is "
                            f"{MAX_ENTRIES_PER_VALUE} (MAX_ENTRIES_PER_VALUE)")
        self.entries = [_Approved(e, approved_grant(e)) for e in entries]
        names = _shell_tool_names(shell_tools)
        if profile is not None and profile.shell_tools is not None:
            # A declared alias applies only where the runtime has a tool of that name.
            names = [n for n in names if vocabulary.name_key(n) in profile.shell_tools]
        self.shell_spelling = {vocabulary.name_key(n): n for n in names}
        self.shell_tools = frozenset(self.shell_spelling)
        self.base_dirs = _base_dirs(base_dirs)
        self._live = [a for a in self.entries if inert_reason(a.grant) is None
                      and runtime_inert_reason(a.entry, a.grant, profile, approved=True) is None]
        # Under a runtime where a tool's content rules also approve other tools' calls (Claude
        # Code: `Bash(…)` approves Monitor calls, `Edit(…)` Write and NotebookEdit calls; the
        # bare grants do not), a bare grant of the first covers a content rule only when the
        # others are approved bare too.
        also = {} if profile is None else profile.content_also_grants
        bare = {a.grant.key for a in self._live if a.grant.is_tool_wide}
        self._bare_alone = frozenset(tool for tool, others in also.items()
                                     if not bare.issuperset(others))
        self._candidates: dict[object, tuple[list[_Approved], list[Grant]]] = {}
        #: The verdicts reached before, by entry, each with the work it cost (``remember``).
        self.remembered: dict[str, tuple[Verdict, int]] = {}
        #: Verdicts combined with the other runtimes' plans (the key), kept (``combined``).
        self.combined: dict[tuple[PreparedPlan, ...],
                            dict[str, tuple[Verdict, tuple[int, ...]]]] = {}
        self._decided_once: set[str] = set()
        self._compiled: dict[int, tuple[object, object]] = {}
        self.plain_tools: dict[str, PlainTool | None] = {}

    def context(self, value_budget: Budget | None = None) -> Context:
        """A decision's context: a fresh budget, and what the domains compiled of this plan's
        approved side so far (kept with the plan)."""
        return Context(self.shell_tools, self.base_dirs, Budget(parent=value_budget),
                       self._compiled, self.profile)

    def candidates(self, grant: Grant) -> list[_Approved]:
        """The approved entries that can cover ``grant`` at all: not inert, and relevant."""
        return self._relevant(grant)[0]

    def grants(self, grant: Grant) -> list[Grant]:
        """The grants of ``candidates(grant)``: one list per tool, so what a domain compiles
        of it is kept (``Context.approved_side``)."""
        return self._relevant(grant)[1]

    def _relevant(self, grant: Grant) -> tuple[list[_Approved], list[Grant]]:
        bare_alone = grant.key in self._bare_alone and grant.content is not None
        key: object = (grant.key, "content") if bare_alone else grant.key
        found = self._candidates.get(key)
        if found is None:
            entries = [a for a in self._live if _relevant(grant, a.grant, self)
                       and not (bare_alone and a.grant.key == grant.key
                                and a.grant.is_tool_wide)]
            found = self._candidates[key] = (entries, [a.grant for a in entries])
        return found

    def bare_alone_note(self, grant: Grant, reason: str, witness: str | None = None) -> str:
        """``reason`` for a content rule of ``grant``'s tool left uncovered, saying why a bare
        grant of its tool in the plan does not cover it (``content_also_grants``): its
        ``witness`` is then a call of the other tool."""
        if self.profile is None or grant.content is None or grant.key not in self._bare_alone \
                or not any(a.grant.key == grant.key and a.grant.is_tool_wide for a in self._live):
            return reason
        others = self.profile.content_also_grants[grant.key]
        said = (f"under {self.profile.title}, a rule {grant.key}(…) also approves "
                f"{' and '.join(others)} calls, and the plan's bare {grant.key} approves none")
        if witness is None:
            return f"{said}: {reason}"
        return (f"{said}: a {' or '.join(others)} call with {witness!r} is allowed by this "
                "entry and by no approved one")

    def plain_tool(self, name: str) -> PlainTool | None:
        """How entries ``name(content)`` with a plain content are decided (``PlainTool``), or
        None when this plan decides them by the general path only (``plain_tools`` holds the
        answers so far)."""
        if name not in self.plain_tools:
            if len(self.plain_tools) >= MAX_REMEMBERED_VERDICTS:
                self.plain_tools.clear()  # bounded, however many tool names a batch meets
            self.plain_tools[name] = self._plain_tool(name)
        return self.plain_tools[name]

    def _plain_tool(self, name: str) -> PlainTool | None:
        try:
            grant = grants.parse_grant(f"{name}(x)")
        except GrantSyntaxError:
            return None
        domain = _PLAIN_DOMAINS.get(domain_for(grant.key, self.shell_tools, self.profile))
        if domain is None or command.case_fold(grant.key) is not None or inert_reason(grant) \
                or runtime_inert_reason(f"{name}(x)", grant, self.profile) \
                or self.bare_alone_note(grant, "") != "":
            return None  # the general path decides, and says why a bare grant is not enough
        side = domain.compiled_side(self.grants(grant), self.context(), grant.key)
        candidates = self.candidates(grant)
        written = tuple(self.spelled(grant, a.grant).tool for a in candidates)
        whole = (command.whole_shape if domain is command and grant.key == "Bash"
                 and getattr(self.profile, "whole_exact_rules", False) else None)
        return PlainTool(grant.tool, grant.key, tuple(a.entry for a in candidates),
                         domain.decide_plain, side, written, domain.literal_matcher(side), whole)

    def spelled(self, grant: Grant, cover: Grant) -> Grant:
        """The spelling a kept grant is written with (semantics §3): canonical for built-ins,
        the plan's for shell aliases, the covering entry's for other tools of the same name,
        else as given."""
        if grant.is_mcp or vocabulary.canonical_name(grant.key) is not None:
            return grant
        if grant.key in self.shell_spelling:
            return grant.with_tool(self.shell_spelling[grant.key])
        if cover.key == grant.key:
            return grant.with_tool(cover.tool)
        return grant

    def remember_cheap(self, entry: str, decided: tuple[Verdict, int]) -> None:
        """``remember`` a verdict and its work that were cheap to reach (the plain path), from
        the second time ``entry`` is decided on: keeping every distinct verdict alive costs
        more than deciding it again, and an entry that comes again is kept from then on."""
        once = self._decided_once
        if entry in once:
            self._keep(entry, decided)
            return
        if len(once) >= MAX_REMEMBERED_VERDICTS:
            once.clear()
        once.add(entry)

    def remember(self, entry: str, verdict: Verdict, units: int) -> None:
        """Keep the verdict reached for ``entry`` and the work it cost (``remembered``)."""
        self._keep(entry, (verdict, units))

    def _keep(self, entry: str, decided: tuple[Verdict, int]) -> None:
        if len(entry) > _REMEMBERED_ENTRY_CHARS:
            return
        if len(self.remembered) >= MAX_REMEMBERED_VERDICTS:
            self.remembered.clear()  # bounded; a batch's few repeated grants come back at once
        self.remembered[entry] = decided


#: Verdicts remembered per plan: a registry-scale batch repeats a few grants in every file, and
#: the memory stays bounded however many distinct entries it meets.
MAX_REMEMBERED_VERDICTS: Final = 4096
# Only entries of a realistic length are remembered (real grants are a few dozen characters).
_REMEMBERED_ENTRY_CHARS: Final = 1024
#: Plans kept with their remembered verdicts (a batch uses one; tests and libraries, a few).
_MAX_PLANS: Final = 8
_PLANS: dict[object, PreparedPlan] = {}
#: The lists of approved entries of recent calls found in _PLANS, by identity and reading
#: (``constrain`` asks for one list's plan under each runtime): each list, a copy of it, the
#: witness limit and its plan (all forgotten with any plan). A caller deciding many entries
#: against a few lists finds each again at once; the list is held, so its id is not reused
#: while it is here, and the copy tells when it changed.
_LISTS: dict[tuple[int, str | None],
              tuple[list[object], list[object], tuple[int | None, str | None], PreparedPlan]] = {}


def plan_for(
    approved: str | Sequence[str],
    shell_tools: Mapping[str, object] | Iterable[str] | None,
    base_dirs: Mapping[str, str | None] | None,
    profile: Profile | None = None,
) -> PreparedPlan:
    """The ``PreparedPlan`` for these arguments: the one built before for equal arguments, else
    a new one (kept when the arguments can be a key; errors as ``PreparedPlan`` raises them)."""
    reading = None if profile is None else profile.name
    if type(approved) is list and shell_tools is None and base_dirs is None:
        seen = _LISTS.get((id(approved), reading))
        if (seen is not None and seen[0] is approved and approved == seen[1]
                and seen[2] == (_witness_limit(), reading)):
            return seen[3]  # a list of a call before, unchanged
        try:  # the usual call, found without checking its items: only strings are kept
            plan = _PLANS.get((("list", *approved), None, None, _witness_limit(), reading))
        except TypeError:  # an unhashable item
            plan = None
        if plan is not None:
            if len(_LISTS) >= _MAX_PLANS:
                _LISTS.clear()
            _LISTS[id(approved), reading] = (approved, list(approved),
                                             (_witness_limit(), reading), plan)
            return plan
    key = _plan_key(approved, shell_tools, base_dirs, reading)
    plan = None if key is None else _PLANS.get(key)
    if plan is None:
        plan = PreparedPlan(approved, shell_tools, base_dirs, profile)
        if key is not None:
            if len(_PLANS) >= _MAX_PLANS:
                del _PLANS[next(iter(_PLANS))]
                _LISTS.clear()
            _PLANS[key] = plan
    return plan


def _plan_key(approved: object, shell_tools: object, base_dirs: object,
              reading: str | None) -> object:
    """A hashable key that equal arguments share, or None (then nothing is kept). It holds the
    limits a decision reads when it runs, so a remembered verdict never outlives them: a new
    limit that a domain reads at decision time belongs here too."""
    if isinstance(approved, str):
        entries: object = approved
    elif isinstance(approved, (list, tuple)) and all(type(e) is str for e in approved):
        entries = ("list", *approved)
    else:
        return None
    if shell_tools is None:
        shell: object = None
    elif isinstance(shell_tools, (Mapping, list, tuple)) and all(
            type(n) is str for n in shell_tools):
        shell = (type(shell_tools).__name__, *shell_tools)
    else:
        return None
    if base_dirs is None:
        dirs: object = None
    elif type(base_dirs) is dict and all(type(k) is str and (v is None or type(v) is str)
                                         for k, v in base_dirs.items()):
        dirs = tuple(base_dirs.items())
    else:
        return None
    return entries, shell, dirs, _witness_limit(), reading


def _witness_limit() -> int | None:
    """``domains.path.MAX_WITNESS_CANDIDATES`` as a key reads it, or None before the path
    domain is loaded (no decision has read it yet; a hook judging a shell command never loads
    it): a plan kept under None is only missed once the domain loads."""
    loaded = sys.modules.get(f"{__package__}.domains.path")
    return None if loaded is None else int(loaded.MAX_WITNESS_CANDIDATES)


def clear_caches() -> None:
    """Forget every remembered plan, verdict, screening, parse and compiled pattern, so the next
    decision starts cold (for benchmarks and tests of the caches). The built Lark parser is
    kept: it depends on the grammar only."""
    _PLANS.clear()
    _LISTS.clear()
    screening.clear_cache()
    grants.clear_caches()
    command.compile_pattern.cache_clear()
    loose_globs.cache_clear()
    from .domains import path, web

    path.compile_pattern.cache_clear()
    web.compile_host.cache_clear()


#: The base directories a plan may name (semantics §4.2); plan.keys.BASE_DIRS is the same tuple
#: (tests/test_plan.py checks it), kept here since the core never imports a stage.
BASE_DIR_KEYS = ("cwd", "home", "root")


def _shell_tool_names(shell_tools: object) -> list[str]:
    """The declared shell-tool names (semantics §3), or PlanError for anything but a mapping or a
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
        if not isinstance(name, str) or not vocabulary.is_tool_name(name):
            raise PlanError(f"shell tool name {shorten(repr(name))} is not a tool name")
        checked.append(name)
    return checked


def _base_dirs(base_dirs: object) -> dict[str, str]:
    """The plan's base directories (semantics §4.2), or PlanError for a malformed value."""
    if base_dirs is None:
        return {}
    if hasattr(base_dirs, "model_dump"):  # a pydantic BaseDirs from a Plan
        base_dirs = base_dirs.model_dump()
    if not isinstance(base_dirs, Mapping):
        raise PlanError(f"base_dirs must be a mapping with keys {', '.join(BASE_DIR_KEYS)}, "
                        f"not {type(base_dirs).__name__}")
    result = {}
    for key, value in base_dirs.items():
        if key not in BASE_DIR_KEYS:
            raise PlanError(f"unknown base directory {shorten(repr(key))}; expected one of "
                            f"{', '.join(BASE_DIR_KEYS)}")
        if value is None:
            continue
        if not isinstance(value, str):
            raise PlanError(f"base directory {key} must be a string, not "
                            f"{type(value).__name__}")
        result[key] = value
    return result


def _relevant(submitted: Grant, other: Grant, plan: PreparedPlan) -> bool:
    """Whether an approved grant can cover the submitted one at all (semantics §3, §4): the
    submitted grant's domain says."""
    rules = rules_for(submitted.key, plan.shell_tools, plan.profile)
    return rules.relevant(submitted, other, plan.shell_tools)
