"""How many examples a property test runs, from one environment variable.

``SKILLGRANT_EXAMPLES=full`` runs every law and fuzz target at its full count (CI's slow step,
and a run before an issue is resolved); unset, a twentieth of it (at least 10), so the README's
test command stays quick on two cores; a number runs that percentage (``.ci/run`` gives 25 to
the README's command; ``SKILLGRANT_EXAMPLES=300`` for a long local soak).
"""

from __future__ import annotations

import os

_SETTING = os.environ.get("SKILLGRANT_EXAMPLES", "").strip().lower()
QUICK_PERCENT = 5


def _percent() -> int:
    if _SETTING == "full":
        return 100
    if _SETTING.isdigit():
        return int(_SETTING)
    if _SETTING:
        raise ValueError(f"SKILLGRANT_EXAMPLES must be 'full' or a percentage, not {_SETTING!r}")
    return QUICK_PERCENT


PERCENT = _percent()


def examples(full: int) -> int:
    """The example count for a test whose full count is ``full``."""
    return max(10, full * PERCENT // 100)


def seeds(full: int) -> range:
    """The seeds a test parametrized by seed runs: ``full`` of them at the full count, their
    share otherwise (at least one)."""
    return range(max(1, full * PERCENT // 100))
