"""MCP tools (semantics §4.4): ``mcp__s`` ≡ ``mcp__s__*`` ⊒ ``mcp__s__get_*`` ⊒
``mcp__s__get_issue``.

Names compare verbatim. Each grant is a star-only glob over full tool names, so ``mcp__gh``
becomes ``mcp__gh__*`` and can never cover ``mcp__ghx__…``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..grants import Grant
from ..vocabulary import MCP_PREFIX
from .base import Budget, Context, Glob, Outcome
from .cover import union_cover


def split_name(name: str) -> tuple[str, str | None]:
    """``mcp__server__tool`` → (server, tool); ``mcp__server`` → (server, None)."""
    rest = name[len(MCP_PREFIX):]
    server, sep, tool = rest.partition("__")
    return server, (tool if sep else None)


def is_inert(name: str) -> bool:
    """A name the runtime cannot match: a glob in the server, a star not at the tool's end."""
    server, tool = split_name(name)
    if not server or "*" in server:
        return True
    if tool is None:
        return False
    return tool == "" or "*" in tool[:-1]


def ambiguous_boundary(name: str) -> bool:
    """Whether the server/tool boundary of ``name`` could be read two ways.

    The runtime matches a rule against the tool's own server (measured on Claude Code 2.1.332:
    ``mcp__a`` does not allow the tools of a server named ``a__b``, ``mcp__a__b__t``), and a
    server name may hold ``__``. So a name with a second ``__`` after its server (``mcp__a__b__t``:
    server ``a`` and tool ``b__t``, or server ``a__b`` and tool ``t``) is read two ways. So is
    ``mcp__a___b``: server ``a`` with tool ``_b``, or tool ``b`` on a server ``a_`` (the runtime
    rewrites other characters to ``_``). Such names, and server names ending in ``_``, are
    decided only by identity.
    """
    rest = name[len(MCP_PREFIX):]
    server, tool = split_name(name)
    return ("___" in rest or server.endswith("_")
            or (tool is not None and (tool.startswith("_") or "__" in tool)))


def language(name: str) -> Glob:
    server, tool = split_name(name)
    if tool is None or tool == "*":
        return Glob((f"{MCP_PREFIX}{server}__", ""))
    if tool.endswith("*"):
        return Glob((f"{MCP_PREFIX}{server}__{tool[:-1]}", ""))
    return Glob((name,))


def relevant(submitted: Grant, other: Grant, shell_tools: frozenset[str]) -> bool:
    """Any MCP grant may cover an MCP grant: a server-wide ``mcp__s`` covers ``mcp__s__t``."""
    del submitted, shell_tools
    return other.is_mcp


def decide(submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
    same = next((i for i, a in enumerate(approved) if a.key == submitted.key), None)
    if same is not None:
        return Outcome("covered", "the same MCP name is approved", covered_by=same)
    if ambiguous_boundary(submitted.key):
        return Outcome("unknown", "the boundary between MCP server and tool in this name can be "
                       "read two ways ('___' or a server ending in '_'); only an identical "
                       "approved name covers it")
    languages = [(i, (language(a.key),)) for i, a in enumerate(approved)
                 if not ambiguous_boundary(a.key)]
    covering, witness = union_cover((language(submitted.key),), languages, context.budget)
    if witness is None:
        return Outcome("covered", "every MCP tool it names is approved", covered_by=covering[0])
    if len(languages) < len(approved):
        # An approved name read two ways may allow the witness (a tool of a server whose name
        # holds '__'): it is not certain.
        return Outcome("unknown", f"MCP tool {witness!r} is allowed by no approved name read "
                       "one way, but an approved name's server/tool boundary can be read two "
                       "ways, so it is no certain witness")
    return Outcome("not_covered", f"MCP tool {witness!r} is not approved", witness=witness)


#: Approved MCP names compiled for concrete tool names (``member``): each, in order, with its
#: language (None for a name whose server/tool boundary reads two ways).
MemberSide = tuple[tuple[int, str, Glob | None], ...]


def member_side(approved: Sequence[Grant]) -> MemberSide:
    return tuple((i, a.key, None if ambiguous_boundary(a.key) else language(a.key))
                 for i, a in enumerate(approved))


def member(side: MemberSide, name: str) -> int | None:
    """The index of the approved name covering the concrete MCP tool ``name`` (no ``*``, not
    inert), as ``decide`` names it: the first identical name, else (when its boundary reads
    one way) the first whose language holds it."""
    same = next((i for i, key, _ in side if key == name), None)
    if same is not None or ambiguous_boundary(name):
        return same
    budget = Budget()
    return next((i for i, _, glob in side if glob is not None and glob.matches(name, budget)),
                None)
