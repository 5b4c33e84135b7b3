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
from . import agent, command, generic, mcp, path, skill, web
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
    Domain.SKILL: skill,
})


class Reading(Protocol):
    """What the registry asks of a runtime profile (``runtimes.Profile``)."""

    def domain_of(self, key: str, shell_tools: frozenset[str]) -> Domain | None:
        ...


def domain_for(key: str, shell_tools: frozenset[str], profile: Reading | None = None) -> Domain:
    """The domain of the tool ``key`` under ``profile`` (its own reading first), given the shell
    aliases that apply there."""
    if profile is not None:
        found = profile.domain_of(key, shell_tools)
        if found is not None:
            return found
    return domain_of(key, shell_tools)


def rules_for(key: str, shell_tools: frozenset[str], profile: Reading | None = None) -> Rules:
    """The domain that judges grants of the tool ``key``, given the shell aliases that apply and
    the runtime profile."""
    return DOMAINS[domain_for(key, shell_tools, profile)]
