"""Claude Code 2.1.332 as the prover models it: every table measured against the pinned binary
(docs/runtime-conformance.md names the case that confirms each)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from .. import vocabulary
from ..vocabulary import Domain
from .profile import MCP_BY_SERVER, SKILL_EXACT_OR_RAW_PREFIX, Profile

PROFILE: Final = Profile(
    name="claude-code",
    title="Claude Code 2.1.332",
    # Tool names are case-sensitive in rules: `read(…)`, `bash(…)` grant nothing.
    tool_names=MappingProxyType({
        **{name: name for name in vocabulary.CANONICAL},
        **vocabulary.ALIASES,
    }),
    names_case_sensitive=True,
    # No tool of Claude Code but Bash runs shell commands: a plan's shell-tools alias
    # (`exec_command`) names a tool it does not have, which grants nothing there.
    shell_tools=frozenset(),
    domains=MappingProxyType({"Skill": Domain.SKILL}),
    # `Monitor(…)` rules grant nothing; a bare `Monitor` approves every Monitor call.
    content_grants_nothing=frozenset({"Monitor"}),
    # A `Bash(…)` rule with a content also approves Monitor calls of its commands, and an
    # `Edit(…)` rule Write and NotebookEdit calls on its paths; a bare `Bash` (or `Bash(*)`)
    # approves no Monitor call, a bare `Edit` no Write or NotebookEdit call.
    content_also_grants=MappingProxyType({"Bash": ("Monitor",),
                                          "Edit": ("Write", "NotebookEdit")}),
    # `Skill(x)` exact (a leading `/` dropped), `Skill(x *)` and `Skill(x:*)` a raw string
    # prefix, any other star nothing.
    skill_rules=SKILL_EXACT_OR_RAW_PREFIX,
    # `mcp__a` matches the tools of server `a`, never those of server `a__b`.
    mcp_names=MCP_BY_SERVER,
    # `Bash(touch a && touch /dev/shm/b)`, `Bash(touch ${HOME}/x)`: approved whole, skipping the
    # path, protected-folder and static-analysis checks `Bash(touch *)` puts each part through.
    whole_exact_rules=True,
)
