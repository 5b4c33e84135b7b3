"""A runtime profile: what one agent runtime makes of an ``allowed-tools`` entry, as data.

A profile says, for one runtime, which tool names grant anything there (and whether their case
matters), which of a plan's declared ``shell-tools`` the runtime really has, which semantic
domain reads each tool's content there, and the measured exceptions of each pattern form. It is
the one place that says "under this runtime, this entry means this language": the prover asks
the profile, and the domains read the flags it carries (``domains.base.Context.profile``).

A profile holds no code of its own beyond ``inert_reason``, which reads only its tables; adding
a runtime is one module that builds a ``Profile`` and one line in ``runtimes.PROFILES``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, NamedTuple

from ..vocabulary import Domain

#: How a ``Skill(…)`` rule's content is read (``Profile.skill_rules``).
SKILL_EXACT_OR_RAW_PREFIX: Final = "exact-or-raw-prefix"
#: A runtime whose grant language no domain has reads each entry whole
#: (``Profile.entry_reading``): Copilot CLI's command keys (``runtimes.copilot_cli``).
COPILOT_KEYS: Final = "copilot-keys"
#: How MCP rule names are matched (``Profile.mcp_names``): against the tool's own server, so a
#: name whose server/tool boundary the text does not fix is decided by identity only.
MCP_BY_SERVER: Final = "by-server"


_NO_TOOLS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType({})


class Profile(NamedTuple):
    """One runtime's reading of entries (see the module docstring). (A NamedTuple, built by
    keyword: the call gate's hook imports the prover on every tool call, and importing
    dataclasses costs it as much as Python's own start-up.)

    ``tool_names`` maps each tool name the runtime matches, spelled exactly as it matches it,
    to the tool key the prover judges it as (aliases included: ``Task`` → ``Agent``). With
    ``names_case_sensitive``, a built-in name spelled otherwise (``bash``, ``read``) grants
    nothing there. ``shell_tools`` is the set of names a plan's ``shell-tools`` may declare
    that the runtime has (empty: none joins ``Bash``; None: every declared one does).
    ``domains`` overrides ``vocabulary.domain_of`` for some tool keys. ``content_grants_nothing``
    names tools whose rules with a content grant nothing there (bare rules still grant);
    ``content_also_grants`` maps a tool to others whose calls its content rules also approve
    (its bare rule does not). ``skill_rules`` and ``mcp_names`` name the reading of those forms;
    ``whole_exact_rules`` says exact command rules are approved whole there.
    """

    name: str
    title: str
    tool_names: Mapping[str, str]
    names_case_sensitive: bool = True
    shell_tools: frozenset[str] | None = frozenset()
    domains: Mapping[str, Domain] = MappingProxyType({})
    content_grants_nothing: frozenset[str] = frozenset()
    content_also_grants: Mapping[str, tuple[str, ...]] = _NO_TOOLS
    skill_rules: str | None = None
    mcp_names: str | None = None
    #: Whether the Read an `Edit(path)` rule implies reaches every file a `Read(path)` rule
    #: opens (in Claude Code it does not: protected files are left out).
    edit_read_covers_read: bool = True
    #: Names this runtime no longer has (compared ignoring case): an entry naming one grants
    #: nothing there, whatever other runtimes or the plain vocabulary make of it.
    removed_names: frozenset[str] = frozenset()
    #: An exact rule holding `&&`, `||`, `;`, a line break or shell expansion is approved as
    #: one whole string, skipping the checks a glob rule's parts get (commandpattern.WHOLE).
    whole_exact_rules: bool = False
    #: A whole-entry reading (``COPILOT_KEYS``) that replaces the domains under this runtime:
    #: each submitted entry is judged against the plan's entries as written
    #: (``runtimes.entry_verdict``). None: the domains decide.
    entry_reading: str | None = None

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Profile(name={self.name!r})"

    def spelled_as_matched(self, name: str, key: str) -> bool:
        """Whether an entry naming ``name`` (judged as tool ``key``) grants anything here by its
        name: MCP names and names the runtime does not know are left to the domains; a known
        tool's name must be one of its spellings here, exactly when names are case-sensitive."""
        if name in self.tool_names or name.startswith("mcp__"):
            return True
        if key not in self.tool_names.values():
            return True  # not a tool this runtime knows: the domains judge it as written
        return not self.names_case_sensitive

    def removed_reason(self, name: str) -> str | None:
        """Why an entry naming ``name`` grants nothing here because the runtime removed that
        tool, or None."""
        if name.lower() in {n.lower() for n in self.removed_names}:
            return f"{name!r} is a tool {self.title} no longer has; it grants nothing there"
        return None

    def misspelt_reason(self, name: str, key: str) -> str | None:
        """Why an approved entry naming ``name`` (tool ``key``) grants nothing here by its
        spelling, or None. (A submitted entry so spelt is judged as its tool: it is written
        back in the runtime's spelling.)"""
        if self.spelled_as_matched(name, key):
            return None
        return (f"{self.title} matches tool names exactly, and {name!r} is not how it spells "
                f"{key!r}; it grants nothing there")

    def inert_reason(self, key: str, has_content: bool) -> str | None:
        """Why an entry of tool ``key`` (with a content or bare) grants nothing under this
        runtime by its form, or None."""
        if has_content and key in self.content_grants_nothing:
            return f"under {self.title}, a {key}(…) rule with a content grants nothing"
        return None

    def domain_of(self, key: str, shell_tools: frozenset[str]) -> Domain | None:
        """This runtime's domain for ``key`` when it differs from the plain vocabulary's, else
        None."""
        del shell_tools
        return self.domains.get(key)
