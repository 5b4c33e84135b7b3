"""Shared test configuration: hypothesis profiles and the path to the shared real-skill corpus."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

# Law tests filter on purpose (they need related pairs); filtering is not a failure.
_QUIET = [HealthCheck.too_slow, HealthCheck.filter_too_much]
settings.register_profile("ci", deadline=None, suppress_health_check=_QUIET, derandomize=True)
settings.register_profile("dev", deadline=None, suppress_health_check=_QUIET)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

REPO = Path(__file__).resolve().parents[1]
REAL_SKILLS = REPO.parent / "shared" / "corpus" / "real-skills"
