"""A state folder of its own for a test that starts ``serve --audit-log``: the service keeps
its sessions files in ``~/.local/state/skillgrant/sessions`` of the password database's home
(service/sessionsfile.py), or in ``$SKILLGRANT_STATE_DIR/sessions``, which every gate guards
too. A test sets ``SKILLGRANT_STATE_DIR`` (for itself and every service and hook it starts,
which inherit it) to a folder of its own, laid out as in a home (``T/home/.local/state/
skillgrant``), so the runner's home is never written and no test reads another's file."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrant.gate.homefiles import STATE, STATE_VARIABLE


def state_env(folder: Path) -> dict[str, str]:
    """The variable naming ``folder/home/.local/state/skillgrant`` (its home made 0700)."""
    home = folder / "home"
    home.mkdir(mode=0o700, exist_ok=True)
    return {STATE_VARIABLE: str(home / STATE)}


@pytest.fixture(autouse=True)
def scratch_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``SKILLGRANT_STATE_DIR`` set as ``state_env(tmp_path)`` for the test (autouse where
    imported); the scratch home it lies in."""
    for name, value in state_env(tmp_path).items():
        monkeypatch.setenv(name, value)
    return tmp_path / "home"
