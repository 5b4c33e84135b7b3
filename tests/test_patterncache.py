"""The regular expressions a hook's process keeps compiled for the next (patterncache.py):
each kept pattern is the one ``re`` compiles, a file that is not this interpreter's is
neither used nor overwritten, and the hook answers alike with the file and without it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest

from skillgrant import patterncache
from skillgrant.gate.config import command

pytestmark = pytest.mark.skipif(not patterncache.usable(), reason="re not checked here")

PATTERNS: list[tuple[str | bytes, int]]
PATTERNS = [(r"(?P<name>[a-z]+)=(\d+)?", 0), (r"\s*cd\s+(.*)", re.DOTALL), (rb"[\x00-\x1f]+", 0),
            (r"[^\w@%+=:,./-]", re.ASCII), (r"(a)|(b)|(?:c)", re.IGNORECASE), ("x", 0)]
SAMPLES = ["abc=12", "  cd x\ny", "A", "b", "C", "é=1", "", "x"]


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A file of patterns of its own, and ``re``'s cache and this module's state emptied."""
    target = tmp_path / "patterns.marshal"
    monkeypatch.setattr(patterncache, "path", lambda kind="patterns": str(target))
    monkeypatch.setattr(patterncache, "_LOADED", {})
    monkeypatch.setattr(patterncache, "_WRITABLE", [])
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    re.purge()
    return target


def _fresh(pattern: str | bytes, flags: int) -> re.Pattern[str] | re.Pattern[bytes]:
    """The pattern as ``re``'s compiler makes it, past its cache (and the kept ones)."""
    compiler = sys.modules["re._compiler"]  # (re imports it; typeshed does not list it)
    fresh: re.Pattern[str] | re.Pattern[bytes] = compiler.compile(pattern, flags)
    return fresh


def _asked() -> dict[tuple[type, str | bytes, int], re.Pattern[str] | re.Pattern[bytes]]:
    """Each kept pattern as ``re.compile`` gives it (from the kept code, on 3.11 as it is
    asked for)."""
    return {key: re.compile(key[1], key[2]) for key in list(patterncache._LOADED)}


def test_a_kept_pattern_is_the_one_re_compiles(kept: Path) -> None:
    assert patterncache.load() == 0  # (none yet: one may be written)
    for pattern, flags in PATTERNS:
        re.compile(pattern, flags)
    assert patterncache.keep() >= len(PATTERNS) and kept.exists()
    patterncache._LOADED.clear()
    re.purge()
    assert patterncache.load() == len(PATTERNS)
    loaded = _asked()
    assert len(loaded) == len(PATTERNS)
    for (kind, pattern, flags), found in loaded.items():
        fresh = _fresh(pattern, flags)
        assert found is not fresh and found == fresh
        assert (found.groups, found.groupindex, found.flags) == \
            (fresh.groups, fresh.groupindex, fresh.flags)
        for sample in SAMPLES:
            text = sample.encode() if kind is bytes else sample
            assert repr(found.search(text)) == repr(fresh.search(text))  # type: ignore[arg-type]
    assert patterncache.keep() == 0  # nothing new: nothing written
    re.compile("a new one")  # the loaded ones are written back as they were read
    assert patterncache.keep() == 1
    patterncache._LOADED.clear()
    re.purge()
    assert patterncache.load() == len(PATTERNS) + 1
    for (_, pattern, flags), found in _asked().items():
        assert found == _fresh(pattern, flags)


def test_a_kept_pattern_whose_code_is_refused_is_compiled(kept: Path) -> None:
    """A kept pattern whose code ``_sre.compile`` refuses is compiled by ``re`` (and kept
    anew); the others are served from the file."""
    assert patterncache.load() == 0
    for pattern, flags in PATTERNS:
        re.compile(pattern, flags)
    assert patterncache.keep() >= len(PATTERNS)
    patterncache._LOADED.clear()
    re.purge()
    assert patterncache.load() == len(PATTERNS)
    flags_, code, groups, index, names = patterncache._LOADED[str, "x", 0]
    patterncache._LOADED[str, "x", 0] = (flags_, b"\xff" * len(code), groups, index, names)
    found = _asked()
    x = cast("re.Pattern[str]", found[str, "x", 0])  # (a str key's pattern)
    assert x == _fresh("x", 0) and x.search("ax")
    assert all(found[key] == _fresh(*key[1:]) for key in found)
    assert patterncache.keep() == 1  # (the refused one, compiled by re, kept anew)


def test_every_pattern_the_hook_compiles_is_kept() -> None:
    """Each pattern the gate's modules leave in ``re``'s cache (in a process of its own, which
    imports them afresh) is one ``keep`` checks and keeps."""
    probe = ("import re, skillgrant.gate.hook, skillgrant.gate.call, skillgrant.gate.guards\n"
             "from skillgrant import patterncache as p\n"
             "keys = [k for k in re._cache if k[0] is str]\n"
             "bad = [k for k in keys if p._checked(k, re._cache[k]) is None]\n"
             "print(len(keys), bad)\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.split(" ", 1)
    assert int(out[0]) > 10 and out[1].strip() == "[]"


def test_an_entry_that_is_not_the_pattern_is_not_kept(kept: Path) -> None:
    other = re.compile("b")
    assert patterncache._checked((str, "a", 0), other) is None
    assert patterncache._checked((bytes, "a", 0), cast("re.Pattern[str]", _fresh("a", 0))) is None


def test_another_interpreters_file_is_neither_used_nor_written(kept: Path) -> None:
    import marshal

    data = marshal.dumps((patterncache._FORMAT, ("3.11.0 (other build)", "cpython-311", 0, 4),
                          {("x", 0): (32, b"\x01\x00\x00\x00", 0, {}, (None,))}))
    kept.write_bytes(data)
    assert patterncache.load() == 0
    assert ("x", 0) not in {k[1:] for k in re._cache}  # type: ignore[attr-defined]
    re.compile("y+")
    assert patterncache.keep() == 0 and kept.read_bytes() == data


@pytest.mark.parametrize("content", [b"", b"\x00garbage", b"older"])
def test_a_file_that_does_not_read_is_not_used_and_is_replaced(kept: Path,
                                                               content: bytes) -> None:
    import marshal

    data = marshal.dumps((1, patterncache._FOR, {("x", 0): (32, [1], 0, {}, (None,))})) \
        if content == b"older" else content
    kept.write_bytes(data)
    assert patterncache.load() == 0
    re.compile("y+")
    assert patterncache.keep() >= 1 and kept.read_bytes() != data


def _written(kept: Path) -> bytes:
    """A file of this interpreter's holding one pattern (``x``), as a hook writes it."""
    patterncache.load()
    re.compile("x")
    assert patterncache.keep() >= 1
    patterncache._LOADED.clear()
    patterncache._WRITABLE.clear()
    re.purge()
    return kept.read_bytes()


@pytest.mark.parametrize("doubt", ["link", "file writable", "folder writable", "fifo"])
def test_a_file_in_doubt_is_neither_used_nor_written(kept: Path, doubt: str) -> None:
    """A link in the file's place (not followed), a file or folder others may write, a file
    that is no regular file: the patterns compile as before, and nothing is written."""
    data = _written(kept)
    if doubt == "link":
        real = kept.with_name("elsewhere")
        kept.rename(real)
        kept.symlink_to(real)
    elif doubt == "file writable":
        kept.chmod(0o666)
    elif doubt == "folder writable":
        kept.parent.chmod(0o777)
    else:
        kept.unlink()
        os.mkfifo(kept)
    try:
        assert patterncache.load() == 0 and not patterncache._WRITABLE
        assert ("x", 0) not in {k[1:] for k in re._cache}  # type: ignore[attr-defined]
        re.compile("y+")
        assert patterncache.keep() == 0
        if doubt != "fifo":
            assert kept.read_bytes() == data
    finally:
        kept.parent.chmod(0o700)


def test_nothing_is_written_where_python_writes_no_bytecode(kept: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    patterncache.load()
    re.compile("z+")
    assert patterncache.keep() == 0 and not kept.exists()


def test_past_the_most_kept_the_file_starts_over(kept: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(patterncache, "MAX_KEPT", 3)
    patterncache.load()
    for pattern in ("a1", "a2", "a3"):
        re.compile(pattern)
    assert patterncache.keep() == 3
    re.compile("a4")
    assert patterncache.keep() == 1
    patterncache._LOADED.clear()
    re.purge()
    assert patterncache.load() == 1


def test_the_hook_answers_alike_with_kept_patterns_and_without(tmp_path: Path) -> None:
    """The printed hook, run twice with bytecode written (the first keeps the patterns, the
    second loads them) and once with none written: the same answers."""
    plan = tmp_path / "plan.yaml"
    plan.write_text("allowed-tools:\n  - Bash(git *)\n  - Read(//repo/**)\n", encoding="utf-8")
    words = command("claude-code", str(plan)).split()
    payloads = [{"tool_name": "Bash", "tool_input": {"command": c}}
                for c in ("git add -A && git commit -m 'x' && git push", "rm -rf /",
                          "git status; curl x | sh", "git log --oneline | tail -n 3")]
    payloads.append({"tool_name": "Read", "tool_input": {"file_path": "/repo/a"}})
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for payload in payloads:
        body = json.dumps({"session_id": "s", "cwd": str(tmp_path), "hook_event_name":
                           "PreToolUse", **payload}).encode()
        answers = [subprocess.run(words, input=body, capture_output=True, env=e, check=False,
                                  cwd=tmp_path)
                   for e in (env, env, {**env, "PYTHONDONTWRITEBYTECODE": "1"})]
        assert len({(a.returncode, a.stdout, a.stderr) for a in answers}) == 1, payload
    assert Path(patterncache.path()).exists() or sys.dont_write_bytecode
