"""The runtime's tool names (semantics §3): canonical spellings, accepted aliases, removed names,
and the built-in names near a misspelt one ("did you mean").

Built-in names compare ASCII-case-insensitively and are written back in their canonical
spelling; MCP names (``mcp__…``) compare verbatim.
"""

from __future__ import annotations

from enum import Enum

from .lazy import compile_on_use

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


class Domain(Enum):
    """Which semantics (semantics §4) judges a tool's specifier."""

    COMMAND = "command"  # §4.1: Bash, Monitor, PowerShell, Skill, declared shell aliases
    SKILL = "skill"  # Skill under a runtime profile that reads its rules as measured
    PATH = "path"  # §4.2: Read, Edit
    WEB = "web"  # §4.3: WebFetch
    MCP = "mcp"  # §4.4
    AGENT = "agent"  # §4.5
    GENERIC = "generic"  # §4.6: everything else


CANONICAL: Final[tuple[str, ...]] = (
    "Agent",
    "AskUserQuestion",
    "Bash",
    "Edit",
    "EnterPlanMode",
    "EnterWorktree",
    "ExitPlanMode",
    "ExitWorktree",
    "Glob",
    "Grep",
    "ListMcpResourcesTool",
    "LSP",
    "Monitor",
    "NotebookEdit",
    "PowerShell",
    "Read",
    "ReadMcpResourceTool",
    "Skill",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskOutput",
    "TaskStop",
    "TaskUpdate",
    "TodoWrite",
    "ToolSearch",
    "WebFetch",
    "WebSearch",
    "Write",
)

# Old names the runtime still accepts, mapped to the tool they now mean.
ALIASES: Final[dict[str, str]] = {
    "Task": "Agent",
    "KillShell": "TaskStop",
    "AgentOutputTool": "TaskOutput",
    "BashOutputTool": "TaskOutput",
}

# Names that no longer exist: a grant for them grants nothing.
REMOVED: Final[tuple[str, ...]] = ("LS", "MultiEdit", "NotebookRead", "TodoRead")

# Tools whose path specifiers the runtime never consults: `Write(src/**)` grants nothing.
PATH_RULES_IGNORED: Final[frozenset[str]] = frozenset({"Write", "NotebookEdit", "Glob"})

# Tools whose content is judged in the command domain, each its own tool.
COMMAND_TOOLS: Final[frozenset[str]] = frozenset({"Bash", "Monitor", "PowerShell", "Skill"})

_BY_FOLDED: Final[dict[str, str]] = {
    **{name.lower(): name for name in CANONICAL},
    **{alias.lower(): target for alias, target in ALIASES.items()},
}
_REMOVED_FOLDED: Final[dict[str, str]] = {name.lower(): name for name in REMOVED}

MCP_PREFIX: Final = "mcp__"


def is_mcp(name: str) -> bool:
    """True for MCP tool names, which are compared verbatim (case-sensitively)."""
    return name.startswith(MCP_PREFIX)


def canonical_name(name: str) -> str | None:
    """The canonical spelling of a built-in tool or alias, or None when ``name`` is not built in.

    >>> canonical_name("bash"), canonical_name("Task"), canonical_name("web_fetch")
    ('Bash', 'Agent', None)
    """
    if is_mcp(name):
        return None
    return _BY_FOLDED.get(name.lower())


def removed_name(name: str) -> str | None:
    """The canonical spelling of a removed tool name, or None."""
    if is_mcp(name):
        return None
    return _REMOVED_FOLDED.get(name.lower())


#: How alike a name must be to a canonical one (``difflib`` ratio, 0–1) to be offered as "did you
#: mean": high enough that ``shell`` or ``read_file`` offer nothing, low enough for ``Raed``.
SIMILAR_NAME_CUTOFF: Final = 0.75


def close_names(name: str, limit: int = 3) -> list[str]:
    """Canonical tool names that look like ``name``, nearest first, compared ignoring case; empty
    for a name the runtime knows (built in, an alias, removed) and for MCP names.

    >>> close_names("Wirte"), close_names("websearh"), close_names("Write"), close_names("shell")
    (['Write'], ['WebSearch'], [], [])
    """
    if is_mcp(name) or canonical_name(name) is not None or removed_name(name) is not None:
        return []
    import difflib  # here: the call gate's hook imports this module and never asks

    by_folded = {known.lower(): known for known in CANONICAL}
    near = difflib.get_close_matches(name.lower(), by_folded, n=limit, cutoff=SIMILAR_NAME_CUTOFF)
    return [by_folded[folded] for folded in near]


def name_key(name: str) -> str:
    """The comparison key of a tool name: canonical for built-ins, verbatim for MCP, else folded.

    Folding is ASCII-only (names are ASCII by the grammar), so no Unicode case rule can merge
    two different names.
    """
    if is_mcp(name) or name[:5].lower() == MCP_PREFIX:
        # `MCP__gh` is not an MCP name at runtime; folding it would make it cover `mcp__gh__x`.
        return name
    canonical = canonical_name(name)
    if canonical is not None:
        return canonical
    return name.lower()


def domain_of(key: str, shell_tools: frozenset[str] = frozenset()) -> Domain:
    """The semantic domain of a tool, given its key and the plan's declared shell aliases."""
    if is_mcp(key):
        return Domain.MCP
    if key in COMMAND_TOOLS or key in shell_tools:
        return Domain.COMMAND
    if key in ("Read", "Edit"):
        return Domain.PATH
    if key == "WebFetch":
        return Domain.WEB
    if key == "Agent":
        return Domain.AGENT
    return Domain.GENERIC


#: A tool name a plan may declare as a shell tool (semantics §3); the JSON Schema says the same.
TOOL_NAME_PATTERN: Final = "[A-Za-z][A-Za-z0-9_-]*"
_TOOL_NAME: Final = compile_on_use(TOOL_NAME_PATTERN)


def is_tool_name(name: str) -> bool:
    """Whether ``name`` can be a declared tool's name."""
    return _TOOL_NAME.fullmatch(name) is not None
