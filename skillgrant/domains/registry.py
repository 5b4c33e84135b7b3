"""Which domain judges a grant (semantics §4): one table from ``vocabulary.Domain`` to the module
that knows the domain, each with the same two functions.

``relevant(submitted, other, shell_tools)`` says whether an approved grant can cover the
submitted one at all (the same tool, or the tools its domain joins: Read with Edit, Bash with
its declared shell aliases, any MCP grant with an MCP grant); ``decide(submitted, approved,
context)`` decides against the relevant ones. A domain's own conventions, such as PowerShell's
ASCII case folding, stay inside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Final, Protocol

from ..grants import Grant
from ..vocabulary import Domain, domain_of
from . import agent, command, generic, mcp, path, web
from .base import Context, Outcome


class Rules(Protocol):
    """What the prover asks of a domain."""

    def relevant(self, submitted: Grant, other: Grant, shell_tools: frozenset[str]) -> bool:
        """Whether ``other`` (approved) can cover ``submitted`` at all."""
        ...

    def decide(self, submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
        """``submitted`` against the relevant approved grants."""
        ...


DOMAINS: Final[Mapping[Domain, Rules]] = MappingProxyType({
    Domain.COMMAND: command,
    Domain.PATH: path,
    Domain.WEB: web,
    Domain.MCP: mcp,
    Domain.AGENT: agent,
    Domain.GENERIC: generic,
})


def rules_for(key: str, shell_tools: frozenset[str]) -> Rules:
    """The domain that judges grants of the tool ``key``, given the plan's shell aliases."""
    return DOMAINS[domain_of(key, shell_tools)]
