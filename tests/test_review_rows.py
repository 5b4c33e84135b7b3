"""``--review-rows N`` (tests/conftest.py): CI's slow and conformance steps run, of each
parametrized test of a review's file, a fixed, seeded sample of N cases and every case left open.
Checked on a real review file by collecting it with and without the option (slow: each
collection imports the review's module in a process of its own)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
import review_table

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
#: A review file with parametrized tests, some of their cases left open.
REVIEW = "tests/gate/test_s55_greview.py"


def _collected(*options: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           "--collect-only", "-n", "0", "--slow", REVIEW, *options],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_a_sample_keeps_n_cases_of_each_test_and_every_case_left_open() -> None:
    every = _collected()
    sampled = _collected("--review-rows", "1")
    assert set(sampled) <= set(every) and len(sampled) < len(every)
    sys.path.insert(0, str(ROOT / "tests" / "gate"))
    table = importlib.import_module("test_s55_greview").OPEN
    assert isinstance(table, review_table.LeftOpen)
    open_cases = [nodeid for nodeid in every
                  if table.reason(nodeid.split("::", 1)[1]) is not None]
    assert open_cases and set(open_cases) <= set(sampled)
    by_test: dict[str, list[str]] = {}
    for nodeid in sampled:
        if "[" in nodeid and nodeid not in open_cases:
            by_test.setdefault(nodeid.split("[", 1)[0], []).append(nodeid)
    parametrized = {nodeid.split("[", 1)[0] for nodeid in every if "[" in nodeid}
    assert all(len(cases) == 1 for cases in by_test.values())
    assert set(by_test) == {test for test in parametrized
                            if any(n.startswith(test + "[") and n not in open_cases
                                   for n in every)}
