"""The plan's vocabulary (SPEC §7), written once: its keys and their spellings, the keys a plan
may carry that mean nothing, and the checks every approved entry passes.

The pydantic model (``model``), the light reader (``light``), the locator of a plan's values
(``source``) and the JSON Schema (``schema``) all follow from these definitions.
"""

from __future__ import annotations

from typing import Final

from ..grants import lone_surrogate
from ..limits import MAX_ENTRIES_PER_VALUE
from ..screening import check_approved_entry

#: Each plan field and the spellings a plan may give its key, the written one first.
SPELLINGS: Final[dict[str, tuple[str, ...]]] = {
    "allowed_tools": ("allowed-tools", "allowedTools", "allowed_tools"),
    "shell_tools": ("shell-tools", "shellTools", "shell_tools"),
    "base_dirs": ("base-dirs", "baseDirs", "base_dirs"),
}
ALLOWED_SPELLINGS: Final = SPELLINGS["allowed_tools"]
#: The base directories a plan may name (SPEC §4.2), each optional.
BASE_DIRS: Final = ("cwd", "home", "root")
KNOWN_KEYS: Final = frozenset(name for names in SPELLINGS.values() for name in names)
#: What the plan's keys are called in a message.
KEYS_SAID: Final = "allowed-tools, shell-tools and base-dirs (x-… keys are ignored)"


def ignored(key: object) -> bool:
    """Whether a plan document may carry ``key`` without meaning anything by it."""
    return isinstance(key, str) and (key.startswith("x-") or key == "$schema")


def check_approvable(entries: list[str]) -> None:
    """Raise ValueError (PlanError for an entry, naming it) unless every entry can be
    approved: within the entry-count limit, real characters only, and each a valid approved
    entry (SPEC §5)."""
    if len(entries) > MAX_ENTRIES_PER_VALUE:
        raise ValueError(f"{len(entries)} entries; the limit is {MAX_ENTRIES_PER_VALUE} "
                         "(MAX_ENTRIES_PER_VALUE)")
    for entry in entries:
        surrogate = lone_surrogate(entry)
        if surrogate is not None:
            # JSON can spell one (``"\\ud800"``); it could never be written to a SKILL.md.
            raise ValueError(f"entry {entry[:80]!r} holds a lone surrogate "
                             f"U+{ord(entry[surrogate]):04X}, which is not a character")
        check_approved_entry(entry)
