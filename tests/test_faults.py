"""semantics §1.4, §6 and issue 6: nothing lost when things go wrong.

A failed write (disk full, simulated with RLIMIT_FSIZE in a child process; an fsync or rename
that fails; an interrupt) leaves the original byte-identical and no temporary file behind.
Concurrent ``apply`` runs on one file leave a valid result: the single-apply result, or with
different plans the result of applying them in some order.
"""

from __future__ import annotations

import errno
import multiprocessing
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from skillgrant import SkillFileError
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_file, apply_to_text, read_skill, write_atomic

ORIGINAL = ("---\nname: pr-helper\ndescription: Review pull requests.\n"
            "allowed-tools: Bash(gh pr list), Bash(rm -rf /)\n---\n# Body\n\nkeep me\n")
PLAN_ENTRIES = ["Bash(gh pr list)", "Read(src/**)"]
OTHER_ENTRIES = ["Bash(gh *)", "Read"]
PLAN = Plan.from_entries(PLAN_ENTRIES)
EXPECTED = apply_to_text(ORIGINAL, PLAN)[0]


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    path = tmp_path / "SKILL.md"
    path.write_text(ORIGINAL, encoding="utf-8")
    path.chmod(0o640)
    return path


def _only(path: Path) -> None:
    """The directory holds the one file: no temporary file was left behind."""
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


# --- disk full --------------------------------------------------------------------------------

DISK_FULL = textwrap.dedent("""
    import resource, signal, sys
    from skillgrant import SkillFileError
    from skillgrant.plan.model import Plan
    from skillgrant.skillfile.builder import apply_to_file

    # A write past RLIMIT_FSIZE raises SIGXFSZ; ignored, the write fails with EFBIG instead,
    # which is what a full disk looks like to the writer.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    limit = int(sys.argv[2])
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    try:
        apply_to_file(sys.argv[1], Plan.from_entries(["Bash(gh pr list)", "Read(src/**)"]))
    except SkillFileError as e:
        print(e)
        sys.exit(3)
    sys.exit(0)
""")


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "darwin",
                    reason="RLIMIT_FSIZE and SIGXFSZ are POSIX (and unreliable on macOS)")
@pytest.mark.parametrize("limit", [0, 1, 64])
def test_disk_full_leaves_the_original_and_no_temp_file(skill: Path, limit: int) -> None:
    assert len(EXPECTED.encode()) > limit
    run = subprocess.run([sys.executable, "-c", DISK_FULL, str(skill), str(limit)],
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 3, run.stderr
    assert "Traceback" not in run.stderr
    assert run.stdout.strip() == (f"{skill}: cannot write the file: File too large; it was "
                                  "left as it was")
    assert skill.read_text(encoding="utf-8") == ORIGINAL
    assert stat.S_IMODE(skill.stat().st_mode) == 0o640
    _only(skill)


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "darwin",
                    reason="RLIMIT_FSIZE and SIGXFSZ are POSIX (and unreliable on macOS)")
def test_disk_full_through_the_cli_exits_2_without_a_traceback(skill: Path) -> None:
    plan = skill.parent / "plan.json"
    plan.write_text('{"allowed-tools": ["Bash(gh pr list)", "Read(src/**)"]}', encoding="utf-8")
    script = textwrap.dedent("""
        import resource, runpy, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (16, 16))
        sys.argv = ["skillgrant", "apply", sys.argv[1], "--plan", sys.argv[2]]
        runpy.run_module("skillgrant", run_name="__main__")
    """)
    run = subprocess.run([sys.executable, "-c", script, str(skill), str(plan)],
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    assert "File too large" in run.stderr
    assert skill.read_text(encoding="utf-8") == ORIGINAL
    assert sorted(p.name for p in skill.parent.iterdir()) == ["SKILL.md", "plan.json"]


# --- other failures inside the write -----------------------------------------------------------

@pytest.mark.parametrize("step", ["fsync", "chmod", "replace"])
def test_a_failing_step_leaves_the_original_and_no_temp_file(
        skill: Path, step: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, step, fail)
    with pytest.raises(SkillFileError) as raised:
        apply_to_file(skill, PLAN)
    monkeypatch.undo()
    assert str(raised.value) == (f"{skill}: cannot write the file: Input/output error; it was "
                                 "left as it was")
    assert skill.read_text(encoding="utf-8") == ORIGINAL
    _only(skill)


def test_an_interrupt_during_the_write_leaves_the_original_and_no_temp_file(
        skill: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        apply_to_file(skill, PLAN)
    monkeypatch.undo()
    assert skill.read_text(encoding="utf-8") == ORIGINAL
    _only(skill)


def test_a_file_that_changed_since_it_was_read_is_not_overwritten(skill: Path) -> None:
    with pytest.raises(SkillFileError, match="the file changed while it was being rewritten"):
        write_atomic(skill, EXPECTED.encode(), expected=b"what was read earlier")
    assert skill.read_text(encoding="utf-8") == ORIGINAL
    _only(skill)


def test_a_directory_we_cannot_create_files_in(skill: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    def no_space(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(tempfile, "mkstemp", no_space)
    with pytest.raises(SkillFileError, match="No space left on device"):
        apply_to_file(skill, PLAN)
    monkeypatch.undo()
    assert skill.read_text(encoding="utf-8") == ORIGINAL
    _only(skill)


def test_a_successful_write_keeps_the_mode_and_follows_a_symlink(skill: Path) -> None:
    link = skill.parent / "link.md"
    link.symlink_to(skill.name)
    assert apply_to_file(link, PLAN).written
    assert link.is_symlink()
    assert skill.read_text(encoding="utf-8") == EXPECTED
    assert stat.S_IMODE(skill.stat().st_mode) == 0o640
    assert sorted(p.name for p in skill.parent.iterdir()) == ["SKILL.md", "link.md"]


# --- concurrent apply runs ---------------------------------------------------------------------

def _apply_worker(path: str, entries: list[str], barrier: Any, results: Any) -> None:
    plan = Plan.from_entries(entries)
    barrier.wait()
    try:
        result = apply_to_file(path, plan)
    except SkillFileError as e:
        results.put(f"error: {e.message}")
    except BaseException as e:  # reported, not raised: a child's traceback would be lost
        results.put(f"crash: {type(e).__name__}: {e}")
    else:
        results.put("written" if result.written else "unchanged")


def _race(path: Path, plans: list[list[str]]) -> list[str]:
    context: Any = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    barrier = context.Barrier(len(plans))
    results = context.Queue()
    workers = [context.Process(target=_apply_worker, args=(str(path), entries, barrier, results))
               for entries in plans]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    return [results.get(timeout=10) for _ in workers]


@pytest.mark.parametrize("round_", range(4))
def test_concurrent_applies_of_one_plan_leave_the_single_apply_result(skill: Path,
                                                                      round_: int) -> None:
    outcomes = _race(skill, [PLAN_ENTRIES] * 8)
    assert not [o for o in outcomes if o.startswith("crash")], outcomes
    # A run that lost the race says so rather than overwriting: never a silent clobber.
    assert all(o in ("written", "unchanged") or "the file changed while" in o
               for o in outcomes), outcomes
    assert "written" in outcomes
    assert skill.read_text(encoding="utf-8") == EXPECTED
    read_skill(EXPECTED)
    assert stat.S_IMODE(skill.stat().st_mode) == 0o640
    _only(skill)


def test_concurrent_applies_of_two_plans_leave_one_valid_result(skill: Path) -> None:
    first, second = Plan.from_entries(PLAN_ENTRIES), Plan.from_entries(OTHER_ENTRIES)
    a, b = apply_to_text(ORIGINAL, first)[0], apply_to_text(ORIGINAL, second)[0]
    valid = {a, b, apply_to_text(a, second)[0], apply_to_text(b, first)[0]}
    for _ in range(3):
        skill.write_text(ORIGINAL, encoding="utf-8")
        outcomes = _race(skill, [PLAN_ENTRIES, OTHER_ENTRIES] * 4)
        assert not [o for o in outcomes if o.startswith("crash")], outcomes
        final = skill.read_text(encoding="utf-8")
        assert final in valid
        assert final.endswith("---\n# Body\n\nkeep me\n")
        _only(skill)


def test_concurrent_cli_applies(skill: Path) -> None:
    plan = skill.parent / "plan.json"
    plan.write_text('{"allowed-tools": ["Bash(gh pr list)", "Read(src/**)"]}', encoding="utf-8")
    runs = [subprocess.Popen([sys.executable, "-m", "skillgrant", "apply", str(skill), "--plan",
                              str(plan)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for _ in range(6)]
    for run in runs:
        _, err = run.communicate(timeout=120)
        assert run.returncode in (0, 2), err
        assert "Traceback" not in err
        if run.returncode == 2:
            assert "the file changed while it was being rewritten" in err
    assert skill.read_text(encoding="utf-8") == EXPECTED
    assert sorted(p.name for p in skill.parent.iterdir()) == ["SKILL.md", "plan.json"]
