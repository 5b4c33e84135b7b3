"""The pinned Bun as a fixture, for the tests that read with it (import ``bun``): the path of
its binary, or a failure saying how to install it, never a silent skip."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bun_runtime


@pytest.fixture(scope="module")
def bun() -> Path:
    binary = bun_runtime.bun_path()
    if bun_runtime.installed_version(binary) != bun_runtime.BUN_VERSION:
        pytest.fail(f"the pinned Bun {bun_runtime.BUN_VERSION} is not installed at {binary}: "
                    "run python tests/oracle/bun_runtime.py install")
    return binary
