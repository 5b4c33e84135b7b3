"""MCP tools (SPEC §4.4): ``mcp__s`` ≡ ``mcp__s__*`` ⊒ ``mcp__s__get_*`` ⊒ ``mcp__s__get_issue``.

Names compare verbatim. Each grant is a star-only glob over full tool names, so ``mcp__gh``
becomes ``mcp__gh__*`` and can never cover ``mcp__ghx__…``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..grants import Grant
from ..vocabulary import MCP_PREFIX
from .base import Context, Glob, Outcome, union_cover


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


def language(name: str) -> Glob:
    server, tool = split_name(name)
    if tool is None or tool == "*":
        return Glob((f"{MCP_PREFIX}{server}__", ""))
    if tool.endswith("*"):
        return Glob((f"{MCP_PREFIX}{server}__{tool[:-1]}", ""))
    return Glob((name,))


def decide(submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
    languages = [(i, (language(a.key),)) for i, a in enumerate(approved)]
    covering, witness = union_cover((language(submitted.key),), languages, context.budget)
    if witness is None:
        return Outcome("covered", "every MCP tool it names is approved", covered_by=covering[0])
    return Outcome("not_covered", f"MCP tool {witness!r} is not approved", witness=witness)
