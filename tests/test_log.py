"""The library's audit records (semantics §5: every drop and restore is logged) reach every
listener, while a process that never loads ``logging`` never pays for it (skillgrant/log.py)."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Iterator

import pytest
from pinned import constrain

from skillgrant.log import heard, library_logger
from skillgrant.prepared import clear_caches

# One runtime's reading: its drop records carry no runtime's name.


@pytest.fixture
def logger() -> Iterator[logging.Logger]:
    found = library_logger()
    handlers, level, propagate = list(found.handlers), found.level, found.propagate
    clear_caches()
    yield found
    found.handlers[:] = handlers
    found.setLevel(level)
    found.propagate = propagate
    clear_caches()


class _Keeping(logging.NullHandler):
    """A NullHandler subclass that keeps what it is handed (overriding handle)."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def handle(self, record: logging.LogRecord) -> bool:
        self.messages.append(record.getMessage())
        return True


def test_only_plain_null_handlers_are_deaf(logger: logging.Logger) -> None:
    logger.handlers[:] = [logging.NullHandler()]
    logger.propagate = False
    assert not heard()
    keeping = _Keeping()
    logger.handlers.append(keeping)
    assert heard()
    constrain(["Bash(rm -rf /)"], ["Read"], source="x/SKILL.md")
    assert keeping.messages == ["dropped Bash(rm -rf /): no approved grant allows 'rm -rf /'",
                                "restored the approved allowed-tools: nothing submitted was "
                                "covered"]


def test_restores_are_recorded_even_for_deaf_handlers(logger: logging.Logger,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="skillgrant"):
        constrain([], ["Read"], source="y/SKILL.md")
    assert [r.getMessage() for r in caplog.records] == [
        "restored the approved allowed-tools: the submitted allowed-tools was empty"]


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)


def test_a_process_without_logging_never_loads_it() -> None:
    done = _run("import sys, skillgrant\n"
                "d = skillgrant.constrain(['Bash(rm -rf /)'], ['Read'])\n"
                "print(d.allowed, 'logging' in sys.modules)")
    assert done.stdout == "['Read'] False\n"
    assert done.stderr == ""


def test_logging_configured_after_the_import_still_hears_the_records() -> None:
    done = _run("import skillgrant, logging\n"
                "logging.basicConfig(format='%(levelname)s %(message)s')\n"
                "skillgrant.constrain(['Bash(rm -rf /)'], ['Read'])")
    assert done.stderr.splitlines() == [
        "WARNING dropped Bash(rm -rf /): under Claude Code 2.1.332: no approved grant allows "
        "'rm -rf /'",
        "WARNING restored the approved allowed-tools: nothing submitted was covered"]


def test_logging_loaded_but_unconfigured_prints_nothing() -> None:
    # The NullHandler keeps records away from logging's last resort (stderr).
    done = _run("import skillgrant, logging\n"
                "skillgrant.constrain(['Bash(rm -rf /)'], ['Read'])")
    assert done.stderr == ""


def test_heard_asks_the_logger_the_manager_holds_now() -> None:
    """``heard`` keeps the logger it was last given only while logging's manager still holds
    it under the name: a logger put in its place is the one asked."""
    first = library_logger()
    handlers, propagate = list(first.handlers), first.propagate
    first.handlers[:] = [h for h in handlers if type(h) is logging.NullHandler]
    first.propagate = False  # nothing but its NullHandler: not heard
    manager = logging.Logger.manager
    try:
        assert heard() is False
        saved = manager.loggerDict.pop("skillgrant")
        try:
            second = logging.getLogger("skillgrant")
            assert second is not first
            second.propagate = False
            second.addHandler(logging.StreamHandler())
            assert heard() is True  # the new logger's real handler
            assert library_logger() is second
        finally:
            manager.loggerDict["skillgrant"] = saved
        assert heard() is False
        assert library_logger() is first
    finally:
        first.handlers[:] = handlers
        first.propagate = propagate
