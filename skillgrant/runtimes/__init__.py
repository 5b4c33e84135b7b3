"""Runtime profiles (``Profile``): under each runtime, what an entry means there.

``PROFILES`` is the registry, by name; ``DEFAULT_RUNTIMES`` the runtimes judged when none is
named: every runtime here that reads ``allowed-tools``. ``profiles(names)`` reads a
``--runtime`` value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Final

from ..errors import PlanError
from ..verdicts import Verdict
from . import claude_code, copilot_cli
from .profile import COPILOT_KEYS, Profile

PROFILES: Final[Mapping[str, Profile]] = MappingProxyType({
    claude_code.PROFILE.name: claude_code.PROFILE,
    copilot_cli.PROFILE.name: copilot_cli.PROFILE,
})

#: The runtimes judged when none is named: every one that reads `allowed-tools`.
DEFAULT_RUNTIMES: Final[tuple[str, ...]] = tuple(PROFILES)
_DEFAULT_PROFILES: Final = tuple(PROFILES[n] for n in DEFAULT_RUNTIMES)


def profiles(names: str | Iterable[str] | None, *,
             source: str | None = "--runtime") -> tuple[Profile, ...]:
    """The profiles ``names`` names (a comma-separated string or names), in order, without
    repeats; ``DEFAULT_RUNTIMES`` for None or nothing. Raises PlanError, naming ``source``, for
    an unknown name.

    >>> [p.name for p in profiles("claude-code")]
    ['claude-code']
    """
    if names is None:
        return _DEFAULT_PROFILES  # (asked once a value a batch decides)
    items = names.split(",") if isinstance(names, str) else list(names)
    wanted = [n.strip() for n in items if isinstance(n, str) and n.strip()]
    if len(wanted) != len([n for n in items if not isinstance(n, str) or n.strip()]):
        raise PlanError("a runtime must be named by a string", source=source)
    if not wanted:
        wanted = list(DEFAULT_RUNTIMES)
    unknown = [n for n in wanted if n not in PROFILES]
    if unknown:
        raise PlanError(f"unknown runtime {unknown[0]!r}; known runtimes: "
                        f"{', '.join(PROFILES)}", source=source)
    return tuple(PROFILES[n] for n in dict.fromkeys(wanted))


def entry_verdict(profile: Profile, entry: str, approved: Sequence[str]) -> Verdict | None:
    """The verdict on ``entry`` against the plan's entries ``approved`` (as written) under a
    runtime that reads entries whole (``Profile.entry_reading``), or None when the domains
    decide there."""
    if profile.entry_reading == COPILOT_KEYS:
        return copilot_cli.verdict(entry, approved)
    return None


__all__ = ["DEFAULT_RUNTIMES", "PROFILES", "Profile", "entry_verdict", "profiles"]
