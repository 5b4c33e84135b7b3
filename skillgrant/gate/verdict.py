"""The call gate's answer for one concrete tool call, and the plan it is judged against."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .. import vocabulary
from ..errors import AllowedToolsError, PlanError
from ..grants import split_allowed_tools
from ..lazy import compile_on_use
from ..prepared import PreparedPlan, plan_for
from ..records import NamedTuple
from ..verdicts import Verdict
from .tools import ShellTool, entry_tool

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final, Literal, TypedDict, TypeVar

    from ..plan.light import ApprovedPlan
    from ..plan.model import Plan

    T = TypeVar("T")

    CallStatus = Literal["covered", "not_covered", "unknown", "invalid"]

    class ProveKwargs(TypedDict):
        shell_tools: list[str] | None
        base_dirs: dict[str, str | None] | None


class Finding(NamedTuple):
    """A diagnostic about a call that is not about the plan's grants: ``rule`` is stable
    (``tool-name-unnormalized``), ``message`` one sentence."""

    rule: str
    message: str


class CallVerdict(NamedTuple):
    """Whether one tool call is inside the approved plan. Only ``covered`` passes.

    ``covered_by`` holds the approved entry covering each part of the call, in order (a shell
    command's simple commands, then the files it writes); ``witness`` the first part no approved
    entry covers; ``tool`` the plan-vocabulary tool the call was judged as (``Bash`` for
    ``exec_command``), None when the runtime's name was not translated; ``runtime_tool`` the
    name the runtime used."""

    status: CallStatus
    reason: str
    runtime_tool: str
    tool: str | None = None
    covered_by: tuple[str, ...] = ()
    witness: str | None = None
    findings: tuple[Finding, ...] = ()

    @property
    def covered(self) -> bool:
        return self.status == "covered"


class Outside:
    """A domain ``member``'s answer for a value it does not decide (``gate.members``): the
    singleton entry is proved instead."""

    __slots__ = ()


OUTSIDE: Final = Outside()
#: A member's answer: the covering approved entry, None, or OUTSIDE.
Found = str | Outside | None


#: ``prover.prove_prepared``, once a call has needed it.
_PROVER: list[Callable[[str, PreparedPlan], Verdict]] = []


class CallPlan:
    """The approved entries with their shell tools (argument names included) and base
    directories, as ``check_call`` reads any of its plan arguments; the prover's prepared plan
    for each working directory it has judged a call in."""

    __slots__ = ("_kept", "_prepared", "_written", "base_dirs", "entries", "shell_tools")

    def __init__(self, entries: tuple[str, ...], shell_tools: Mapping[str, ShellTool],
                 base_dirs: Mapping[str, str], written: Mapping[str, str] | None = None) -> None:
        self.entries = entries
        self.shell_tools = shell_tools
        self.base_dirs = base_dirs
        self._written: Mapping[str, str] = written or {}
        self._prepared: dict[str | None, PreparedPlan] = {}
        self._kept: dict[object, object] = {}

    def as_written(self, entry: str) -> str:
        """An approved entry as the plan writes it (before its placeholders were substituted)."""
        return self._written.get(entry, entry)

    def all_as_written(self, entries: list[str]) -> tuple[str, ...]:
        """``as_written`` of each of ``entries``."""
        written = self._written
        return tuple([written.get(e, e) for e in entries]) if written else tuple(entries)

    def prove(self, entry: str, cwd: str | None = None) -> Verdict:
        """``prove(entry)`` against this plan, with the call's working directory as the base
        directory ``cwd`` when it is known."""
        if not _PROVER:  # imported on first use: a shell call never needs it (the hook)
            from ..prover import prove_prepared

            _PROVER.append(prove_prepared)
        return _PROVER[0](entry, self.prepared(cwd))

    def lookup(self, entry: str, member: Callable[[], Found] | None,
               cwd: str | None = None) -> str | None:
        """The approved entry covering the concrete part whose singleton entry is ``entry``:
        ``member()``, its domain's one lookup, or, when there is none or it leaves the value
        (``OUTSIDE``), the entry proving ``entry`` names; None when not covered."""
        found = OUTSIDE if member is None else member()
        if isinstance(found, Outside):
            return self.prove(entry, cwd).covered_by
        return found

    def kept(self, key: object, build: Callable[[], T]) -> T:
        """``build()``, made once per ``key`` for this plan (what the gate compiles of it for
        one tool and one working directory); kept for a few working directories only."""
        found = self._kept.get(key, self)
        if found is self:
            if len(self._kept) >= 64:
                self._kept.clear()
            found = self._kept[key] = build()
        return found  # type: ignore[return-value]

    def prepared(self, cwd: str | None = None) -> PreparedPlan:
        """The prover's prepared plan for these entries (what ``prove`` would use). Raises
        PlanError when the plan is invalid."""
        found = self._prepared.get(cwd)
        if found is None:
            kwargs = self._kwargs(cwd)
            found = plan_for(list(self.entries), kwargs["shell_tools"], kwargs["base_dirs"])
            if len(self._prepared) >= 8:
                self._prepared.clear()
            self._prepared[cwd] = found
        return found

    def _kwargs(self, cwd: str | None) -> ProveKwargs:
        dirs: dict[str, str | None] = dict(self.base_dirs)
        if cwd is not None:
            dirs["cwd"] = cwd
        return {"shell_tools": sorted(self.shell_tools) or None, "base_dirs": dirs or None}


def call_plan(plan: Plan | ApprovedPlan | str | Sequence[str] | CallPlan, *,
              shell_tools: Mapping[str, object] | Sequence[str] | None = None,
              base_dirs: Mapping[str, str | None] | None = None,
              placeholders: Mapping[str, str] | None = None) -> CallPlan:
    """``plan`` as a CallPlan: a ``Plan`` (its shell tools and base directories), the light
    plan ``check`` reads, or approved entries with the keyword arguments ``prove`` takes.
    ``placeholders`` gives the directories the runtime substitutes for ``${CLAUDE_SKILL_DIR}``
    and its kind (semantics §4.1) in command grants. Raises PlanError for a malformed shell-tool or
    base-directory argument."""
    if isinstance(plan, CallPlan):
        return plan
    if isinstance(plan, str):
        entries: tuple[str, ...] = (plan,)
    elif not hasattr(plan, "allowed_tools"):
        entries = tuple(plan)  # the prover checks each entry
    else:
        read: Plan | ApprovedPlan = plan  # type: ignore[assignment]  # (it has allowed_tools)
        entries = tuple(read.allowed_tools)
        declared = getattr(read, "shell_tools", None) or {}
        shell_tools = shell_tools if shell_tools is not None else {
            name: {"command-argument": tool.command_argument,
                   "workdir-argument": tool.workdir_argument}
            for name, tool in declared.items()}
        dirs = getattr(plan, "base_dirs", None)
        if base_dirs is None and dirs is not None:
            base_dirs = dirs.model_dump()
    try:  # one entry each, as the prover splits them (semantics §2)
        entries = tuple(split_allowed_tools(list(entries)))
    except AllowedToolsError as e:
        raise PlanError(f"approved allowed-tools: {e}") from e
    tools = _shell_tools(shell_tools)
    written: dict[str, str] = {}
    if placeholders:
        substituted = tuple(substitute(e, placeholders, tools) for e in entries)
        written = {s: e for s, e in zip(substituted, entries, strict=True) if s != e}
        entries = substituted
    return CallPlan(entries, tools, {
        k: v for k, v in (base_dirs or {}).items() if isinstance(v, str)}, written)


#: The placeholders the runtime substitutes in command grants (semantics §4.1).
PLACEHOLDERS = ("CLAUDE_SKILL_DIR", "CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT",
                "CLAUDE_PLUGIN_DATA")
#: The tools whose grants hold placeholders (``Skill(name)`` names a skill, not a path).
_COMMAND_TOOLS = vocabulary.COMMAND_TOOLS - {"Skill"}


def substitute(entry: str, values: Mapping[str, str], shell_tools: Mapping[str, object]) -> str:
    """A command grant with each known placeholder replaced by its directory, as the runtime
    replaces it. Only absolute directories written without grant syntax (no ``\\ ( ) *``, no
    control characters) are put in; any other placeholder stays, and covers no concrete
    command. Grants of other tools are left as they are."""
    name = entry_tool(entry)
    if name is None or "(" not in entry or (vocabulary.canonical_name(name) not in _COMMAND_TOOLS
                                            and name not in shell_tools):
        return entry
    for key, directory in values.items():
        if key in PLACEHOLDERS and _plain_directory(directory):
            entry = entry.replace("${" + key + "}", directory.rstrip("/") or "/")
    return entry


def _plain_directory(directory: str) -> bool:
    """An absolute directory of plain characters: nothing a shell or the grant syntax reads
    (no blank, quote, ``;``, ``$``, ``*``, parenthesis or backslash)."""
    return _PLAIN_DIRECTORY.fullmatch(directory) is not None


_PLAIN_DIRECTORY = compile_on_use(r"/[A-Za-z0-9._/+,@:=-]*")


def _shell_tools(value: Mapping[str, object] | Sequence[str] | None) -> dict[str, ShellTool]:
    if value is None:
        return {}
    if isinstance(value, str) or not isinstance(value, (Mapping, list, tuple, set, frozenset)):
        raise PlanError(f"shell_tools must be a mapping or a list of tool names, not "
                        f"{type(value).__name__}")
    if not isinstance(value, Mapping):
        return {str(name): ShellTool() for name in value}
    tools = {}
    for name, spec in value.items():
        spec = {} if spec is None else spec
        if not isinstance(spec, Mapping):
            raise PlanError(f"shell tool {name!r}: expected a mapping, not {type(spec).__name__}")
        command = spec.get("command-argument", spec.get("command_argument", "command"))
        workdir = spec.get("workdir-argument", spec.get("workdir_argument"))
        if not isinstance(command, str) or not (workdir is None or isinstance(workdir, str)):
            raise PlanError(f"shell tool {name!r}: argument names must be strings")
        tools[str(name)] = ShellTool(command, workdir)
    return tools
