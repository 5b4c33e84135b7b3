"""Session 51 (s51-gfix3) of the service's session registration (service/registry.py; review
s50-sreview F2): a registration must precede the session's first call. In process, on the
registry the endpoint and the hook requests share (the served endpoint's rule:
tests/service/test_s50_sreview.py's F2 and tests/service/test_registration.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from review_table import LeftOpen

from skillgrant.service import registry as r
from skillgrant.service.registry import LATE, REGISTERED_NEW, SAME, Registry
from skillgrant.service.sessionsfile import SessionsFile

OPEN = LeftOpen()
_open = OPEN.add
UNSET: dict[str, str | None] = dict.fromkeys(r.REGISTERED)


def test_an_id_a_call_was_decided_for_is_never_registered_afterwards() -> None:
    registry = Registry()
    registry.called("victim")
    assert "registered no environment" in str(registry.problem("victim"))
    assert registry.register("victim", UNSET)[0] == LATE
    assert registry.register("victim", UNSET)[0] == LATE  # (again, and any values)
    assert "registered no environment" in str(registry.problem("victim"))


def test_a_registration_before_the_first_call_is_kept() -> None:
    registry = Registry()
    assert registry.register("s", UNSET)[0] == REGISTERED_NEW
    registry.called("s")
    assert registry.register("s", UNSET)[0] == SAME  # (a resumed session)
    assert registry.problem("s") is None or "differ" in str(registry.problem("s"))


def test_an_invalid_id_or_a_full_table_records_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    registry = Registry()
    for given in (None, 3, "", "x" * 200, "a\nb"):
        registry.called(given)
    assert len(registry) == 0
    monkeypatch.setattr(r, "MAX_SESSIONS", 1)
    registry.called("first")
    registry.called("second")  # (not kept: no new id registers past the most anyway)
    assert len(registry) == 1
    assert registry.register("second", UNSET)[0] == r.FULL


def test_a_restart_forgets_which_sessions_made_calls(tmp_path: Path) -> None:
    """A service restarted (a new registry) still knows that ``victim`` made calls: the
    registry is read back from the sessions file beside the audit log (session 52,
    service/sessionsfile.py; without an audit log it is not kept:
    tests/service/test_s52_sfix.py)."""
    kept = str(tmp_path / "audit.log.sessions")
    before = Registry(kept=SessionsFile(kept))
    before.called("victim")
    assert before.register("victim", UNSET)[0] == LATE
    after = Registry(kept=SessionsFile(kept))  # (the service restarted)
    assert after.register("victim", UNSET)[0] == LATE
