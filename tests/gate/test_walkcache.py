"""The walks folder stays bounded (gate/walkcache.py ``_bound``): a walk that writes its file
keeps the files written last, up to a count and a size, removes what dead writes left, and
writes no file it could never read back."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from skillgrant.gate import walkcache


def _walked(roots: tuple[str, ...], folder: str) -> walkcache.Kept:
    """A walk of ``roots`` that listed ``folder`` (kept: its times are out of the racy window)."""
    kept = walkcache.Kept(roots)
    kept.listing(folder, lambda f: [("sub", "dir")])
    kept.save()
    return kept


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SKILLGRANT_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setattr(walkcache, "_RACY", 0.0)
    (tmp_path / "tree").mkdir()
    return tmp_path / "state" / "walks"


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_the_files_written_last_are_kept(tmp_path: Path, state: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walkcache, "_FILES", 3)
    tree = str(tmp_path / "tree")
    for i in range(5):
        _walked((f"/root{i}",), tree)
        for kept in state.glob("*.json"):  # (the file just written: older than the next)
            if json.loads(kept.read_text())["roots"] == [f"/root{i}"]:
                _age(kept, 100 - i)
    names = {json.loads(p.read_text())["roots"][0] for p in state.glob("*.json")}
    assert names == {"/root2", "/root3", "/root4"}
    # a kept file is still read: the newest walk's folder is not listed again
    _listing, fresh = walkcache.Kept(("/root4",)).listing(tree, lambda f: [("other", "dir")])
    assert fresh == 0


def test_the_folder_is_bounded_by_size(tmp_path: Path, state: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    tree = str(tmp_path / "tree")
    _walked(("/a",), tree)
    [first] = state.glob("*.json")
    _age(first, 10)
    monkeypatch.setattr(walkcache, "_BYTES", first.stat().st_size + 10)
    _walked(("/b",), tree)  # (both together are over the bound: the older goes)
    assert [json.loads(p.read_text())["roots"] for p in state.glob("*.json")] == [["/b"]]


def test_what_a_dead_write_left_goes_once_old(tmp_path: Path, state: Path) -> None:
    tree = str(tmp_path / "tree")
    _walked(("/a",), tree)
    left, fresh = state / "x.json.123", state / "y.json.456"
    left.write_text("{")
    fresh.write_text("{")  # (a write in progress in another process)
    _age(left, walkcache._LEFT_SECONDS + 5)
    _walked(("/b",), tree)
    assert not left.exists() and fresh.exists()


def test_a_file_it_could_not_read_back_is_not_written(tmp_path: Path, state: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walkcache, "_LIMIT", 10)
    _walked(("/a",), str(tmp_path / "tree"))
    assert not state.exists() or list(state.iterdir()) == []
