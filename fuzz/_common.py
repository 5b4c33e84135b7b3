"""Shared by the harnesses: the repository on sys.path, the narrow-plan judge, and the one
contract every harness checks (a value, or a SkillgrantError; nothing else escapes)."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
for extra in (REPO, REPO / "tests"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from narrow_oracle import NARROW, justified, runtime_entries, unjustified  # noqa: E402

__all__ = ["NARROW", "REPO", "justified", "runtime_entries", "unjustified"]
