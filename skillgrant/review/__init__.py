"""Plan review (SPEC §8): ``lint_entries`` and ``diff_entries``.

    checks     how each lint rule decides one grant
    lint       lint_entries and diff_entries: findings and judged entries, no rendering
    sources    what lint and diff read: a plan file, standard input or ``REV:path``
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .lint import DiffEntry, DiffResult, Finding, diff_entries, lint_entries

_HOME = dict.fromkeys(("DiffEntry", "DiffResult", "Finding", "diff_entries", "lint_entries"),
                      "lint")
__all__ = [
    "DiffEntry",
    "DiffResult",
    "Finding",
    "diff_entries",
    "lint_entries",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOME[name]}"), name)
