"""Session 60 (s60-pfix): s59-preview's open rows closed at their root, failing closed (issue
29): pytest's ini read only where its line breaks are ``\\n`` alone, ..."""

from __future__ import annotations

import pytest

from skillgrant.gate.checkersettings import _ini


@pytest.mark.parametrize("brk", ["\r", "\f", "\v", "\x1c", "\x85", "\u2028", "\u2029"])
def test_an_ini_with_another_line_break_is_not_read(brk: str) -> None:
    """s59-preview I: iniconfig breaks lines by ``str.splitlines``, configparser at ``\\n``."""
    with pytest.raises(ValueError):
        _ini(f"[pytest]\nminversion = 1{brk}addopts = -p helpers\n", "pytest", ("addopts",))


def test_an_ini_with_crlf_is_read() -> None:
    """A file of ``\\r\\n`` lines (read in text mode: ``\\n``) is read."""
    assert _ini("[pytest]\r\naddopts = -q\r\n", "pytest", ("addopts",)) == [("addopts", "-q")]
