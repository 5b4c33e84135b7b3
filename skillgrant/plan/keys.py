"""The plan's vocabulary (semantics §7), written once: its keys and their spellings, the keys a plan
may carry that mean nothing, and the checks every approved entry passes.

The pydantic model (``model``), the light reader (``light``), the locator of a plan's values
(``source``) and the JSON Schema (``schema``) all follow from these definitions.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..grants import lone_surrogate
from ..limits import MAX_ENTRIES_PER_VALUE
from ..screening import check_approved_entry

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Each plan field and the spellings a plan may give its key, the written one first.
SPELLINGS: Final[dict[str, tuple[str, ...]]] = {
    "allowed_tools": ("allowed-tools", "allowedTools", "allowed_tools"),
    "shell_tools": ("shell-tools", "shellTools", "shell_tools"),
    "base_dirs": ("base-dirs", "baseDirs", "base_dirs"),
    "runtime": ("runtime", "runtimes"),
}
ALLOWED_SPELLINGS: Final = SPELLINGS["allowed_tools"]
#: The base directories a plan may name (semantics §4.2), each optional.
BASE_DIRS: Final = ("cwd", "home", "root")
KNOWN_KEYS: Final = frozenset(name for names in SPELLINGS.values() for name in names)
#: What the plan's keys are called in a message.
KEYS_SAID: Final = ("allowed-tools, shell-tools, base-dirs and runtime (x-… keys are "
                    "ignored)")
#: The plan's keys as a suggestion writes them.
WRITTEN_KEYS: Final = tuple(names[0] for names in SPELLINGS.values())


def ignored(key: object) -> bool:
    """Whether a plan document may carry ``key`` without meaning anything by it."""
    return isinstance(key, str) and (key.startswith("x-") or key == "$schema")


def suggestion(key: object, known: Sequence[str] = WRITTEN_KEYS) -> str | None:
    """The known key that ``key`` most likely misspells, as the plan writes it, or None.

    Case, hyphens and underscores are ignored (``Allowed_Tools``); then the key must be a few
    edits from a known one (one for every four letters of it, at least one: ``alowed-tool``),
    or four letters or more that start exactly one (``allowed``).

    >>> suggestion("allowedtools"), suggestion("allowed"), suggestion("tools")
    ('allowed-tools', 'allowed-tools', None)
    """
    given = _bare(str(key))
    best: tuple[int, str] | None = None
    for name in known:
        bare, allowed = _bare(name), max(1, len(_bare(name)) // 4)
        # The length difference alone is that many edits: a long key is not compared.
        if abs(len(given) - len(bare)) <= allowed:
            edits = _edits(given, bare)
            if edits <= allowed and (best is None or edits < best[0]):
                best = (edits, name)
    if best is not None:
        return best[1]
    starts = [name for name in known if len(given) >= 4 and _bare(name).startswith(given)]
    return starts[0] if len(starts) == 1 else None


def did_you_mean(key: object, known: Sequence[str] = WRITTEN_KEYS) -> str:
    """`` (did you mean 'allowed-tools'?)`` for a key close to a known one, else ``""``."""
    hint = suggestion(key, known)
    return "" if hint is None else f" (did you mean {hint!r}?)"


def _bare(key: str) -> str:
    return key.lower().replace("-", "").replace("_", "")


def _edits(a: str, b: str) -> int:
    """The Levenshtein distance: letters inserted, deleted or replaced to turn ``a`` into ``b``
    (keys are short; the table is one row at a time)."""
    row = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, other in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (char != other))
    return row[-1]


def check_approvable(entries: list[str]) -> None:
    """Raise ValueError (PlanError for an entry, naming it) unless every entry can be
    approved: within the entry-count limit, real characters only, and each a valid approved
    entry (semantics §5)."""
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
