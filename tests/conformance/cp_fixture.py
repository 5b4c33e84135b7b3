"""The ``copilot`` fixture: a ``CopilotJudge`` over the pinned Copilot CLI, the jail and its own
stand-in. Imported by the Copilot CLI test modules (the suite's other fixtures live in
tests/conftest.py; this one needs the pinned Copilot CLI, installed by ``cp_runtime.py
install``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from cc_runtime import jail_available
from cp_probe import TALLY, CopilotJudge
from cp_runtime import PINNED_VERSION, binary_path, installed_version
from cp_standin import StandIn


@pytest.fixture(scope="session")
def copilot(request: pytest.FixtureRequest) -> Iterator[CopilotJudge]:
    """Runs interactive probe sessions against the pinned Copilot CLI, jailed."""
    binary = binary_path()
    if installed_version(binary) != PINNED_VERSION:
        pytest.fail(f"the pinned Copilot CLI {PINNED_VERSION} is not installed at {binary}: "
                    "run python tests/conformance/cp_runtime.py install")
    why = jail_available()
    if why is not None:
        pytest.fail(f"probe sessions cannot be jailed here: {why}")
    with StandIn() as standin:
        judge = CopilotJudge(binary, standin,
                             workers=request.config.getoption("--conformance-workers"))
        yield judge
        TALLY["sessions"] = TALLY.get("sessions", 0) + judge.sessions
        TALLY["probe calls"] = TALLY.get("probe calls", 0) + judge.probes
        TALLY["calls put to the person (answered no)"] = (
            TALLY.get("calls put to the person (answered no)", 0) + judge.asked)
