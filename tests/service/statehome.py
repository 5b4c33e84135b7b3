"""A scratch home for a test of the sessions file: the service keeps it in the home's state
folder (``~/.local/state/skillgrant/sessions``: service/sessionsfile.py), so a test sets
``HOME`` (for itself and the services and hooks it starts, which inherit it) to a folder of
its own, never the runner's home, and no test reads another's file."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def scratch_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``HOME`` set to ``tmp_path/home`` (made 0700) for the test (autouse where imported)."""
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("HOME", str(home))
    return home


def home_env(folder: Path) -> dict[str, str]:
    """The environment of a service started with a scratch home ``folder/home`` (made 0700):
    for a test whose other services keep the runner's ``HOME`` (a module's shared one)."""
    home = folder / "home"
    home.mkdir(mode=0o700, exist_ok=True)
    return {"HOME": str(home)}
