"""Which domain judges a grant (semantics §4): one table from ``vocabulary.Domain`` to the module
that knows the domain, each with the same two functions.

``relevant(submitted, other, shell_tools)`` says whether an approved grant can cover the
submitted one at all (the same tool, or the tools its domain joins: Read with Edit, Bash with
its declared shell aliases, any MCP grant with an MCP grant); ``decide(submitted, approved,
context)`` decides against the relevant ones. A domain's own conventions, such as PowerShell's
ASCII case folding, stay inside it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from ..lazy import import_module
from ..vocabulary import Domain, domain_of

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final, Protocol

    from ..grants import Grant
    from .base import Context, Outcome

    class Rules(Protocol):
        """What the prover asks of a domain."""

        def relevant(self, submitted: Grant, other: Grant, shell_tools: frozenset[str]) -> bool:
            """Whether ``other`` (approved) can cover ``submitted`` at all."""
            ...

        def decide(self, submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
            """``submitted`` against the relevant approved grants."""
            ...

    class Reading(Protocol):
        """What the registry asks of a runtime profile (``runtimes.Profile``)."""

        def domain_of(self, key: str, shell_tools: frozenset[str]) -> Domain | None:
            ...


class _Modules(Mapping["Domain", "Rules"]):
    """Each domain's module, imported the first time the domain is asked for: a hook judging a
    shell command loads the command domain, not the path, web or MCP ones (issue 29)."""

    def __init__(self, homes: Mapping[Domain, str]) -> None:
        self._homes = dict(homes)
        self._loaded: dict[Domain, Rules] = {}

    def __getitem__(self, domain: Domain) -> Rules:
        found = self._loaded.get(domain)
        if found is None:
            found = self._loaded[domain] = import_module(f"{__package__}.{self._homes[domain]}")
        return found

    def __iter__(self) -> Iterator[Domain]:
        return iter(self._homes)

    def __len__(self) -> int:
        return len(self._homes)


DOMAINS: Final[Mapping[Domain, Rules]] = _Modules({
    Domain.COMMAND: "command",
    Domain.PATH: "path",
    Domain.WEB: "web",
    Domain.MCP: "mcp",
    Domain.AGENT: "agent",
    Domain.GENERIC: "generic",
    Domain.SKILL: "skill",
})


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
