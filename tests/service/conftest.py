"""Fixtures shared by the service's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from skillgrant.service.watched import Watched, watched


@pytest.fixture
def view() -> Iterator[Watched]:
    """The service's view of the filesystem (``service/watched.py``), closed after the test;
    the test is skipped where inotify is not to be had."""
    found = watched()
    if found is None:
        pytest.skip("inotify is not to be had here")
    yield found
    found.close()
