"""Plan review (semantics §8): ``lint_entries`` and ``diff_entries``.

    checks     how each lint rule decides one grant
    lint       lint_entries and diff_entries: findings and judged entries, no rendering
    sources    what lint and diff read: a plan file, standard input or ``REV:path``
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import exports

if TYPE_CHECKING:
    from .lint import DiffEntry as DiffEntry
    from .lint import DiffResult as DiffResult
    from .lint import Finding as Finding
    from .lint import diff_entries as diff_entries
    from .lint import lint_entries as lint_entries

_HOME = dict.fromkeys(("DiffEntry", "DiffResult", "Finding", "diff_entries", "lint_entries"),
                      "lint")
__all__ = sorted(_HOME)
__getattr__ = exports(__name__, _HOME)
