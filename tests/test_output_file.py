"""``-o/--output-file`` (the report to a file, replaced whole once written; an error leaves the
file as it was) and ``-V`` (the version)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import forkrun
import pytest

import skillgrant

WIDE = "---\nname: t\ndescription: d\nallowed-tools: Bash(gh pr list), Bash(rm -rf /)\n---\n"


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """What ``skillgrant ARGS`` prints and writes in ``root``, forked from tests/forkrun.py's
    server."""
    return forkrun.run_text(list(args), cwd=root, timeout=60)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "SKILL.md").write_text(WIDE)
    (tmp_path / "plan.yaml").write_text("allowed-tools:\n  - Bash(gh *)\n  - Bash(sudo *)\n")
    return tmp_path


@pytest.mark.parametrize("args", [
    ["check", "s", "-p", "plan.yaml", "--format", "json"],          # the console's own reader
    ["check", "s", "--plan", "plan.yaml", "-f", "json", "-j", "1", "--exclude", "x"],  # typer
    ["lint", "plan.yaml", "--format", "json"],
    ["diff", "plan.yaml", "plan.yaml", "--format", "json"],
])
def test_the_report_goes_to_the_file(root: Path, args: list[str]) -> None:
    done = _run(root, *args, "-o", "report.json")
    assert done.stdout == "" and done.returncode in (0, 1), done.stderr
    document = json.loads((root / "report.json").read_text())
    assert document["command"] == args[0]
    assert not [p for p in root.iterdir() if p.name.startswith(".skillgrant-")]


def test_an_error_leaves_the_file_as_it_was(root: Path) -> None:
    (root / "report.json").write_text("before\n")
    done = _run(root, "check", "s", "-p", "missing.yaml", "-o", "report.json")
    assert done.returncode == 2
    assert (root / "report.json").read_text() == "before\n"


def test_an_unwritable_place_is_an_error(root: Path) -> None:
    done = _run(root, "check", "s", "-p", "plan.yaml", "-o", "no/such/folder/report.txt")
    assert done.returncode == 2 and "cannot write the report" in done.stderr


def test_short_version(root: Path) -> None:
    assert _run(root, "-V").stdout == f"skillgrant {skillgrant.__version__}\n"


NARROW = "---\nname: n\ndescription: d\nallowed-tools: Bash(gh pr list)\n---\n"


@pytest.mark.parametrize("quiet", ["-q", "--quiet"])
def test_quiet_shows_only_the_drops(root: Path, quiet: str) -> None:
    (root / "n").mkdir()
    (root / "n" / "SKILL.md").write_text(NARROW)
    loud = _run(root, "check", "s", "n", "-p", "plan.yaml").stdout
    done = _run(root, "check", "s", "n", "-p", "plan.yaml", quiet)
    assert done.returncode == 1
    assert "keep" in loud and "n/SKILL.md" in loud
    lines = done.stdout.splitlines()
    assert lines[0] == "s/SKILL.md:4: would change (1 kept, 1 dropped)"
    assert not any(" keep " in line for line in lines) and "n/SKILL.md" not in done.stdout
    assert any("drop  Bash(rm -rf /)" in line for line in lines)
    assert lines[-1] == "2 files checked: 1 would change."


def test_a_device_is_written_to_not_replaced(root: Path) -> None:
    done = _run(root, "check", "s", "-p", "plan.yaml", "-o", "/dev/stdout")
    assert done.returncode == 1 and "would change" in done.stdout
    assert Path("/dev/null").is_char_device() and not Path("/dev/null").is_file()
    assert _run(root, "check", "s", "-p", "plan.yaml", "-o", "/dev/null").stdout == ""
    assert Path("/dev/null").is_char_device()


def test_a_file_keeps_its_mode_and_a_link_stays_a_link(root: Path) -> None:
    import os

    report = root / "report.txt"
    report.write_text("before\n")
    report.chmod(0o644)
    link = root / "link.txt"
    link.symlink_to(report)
    assert _run(root, "check", "s", "-p", "plan.yaml", "-o", "link.txt").returncode == 1
    assert link.is_symlink() and "would change" in report.read_text()
    assert report.stat().st_mode & 0o777 == 0o644
    fresh = _run(root, "check", "s", "-p", "plan.yaml", "-o", "new.txt")
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.returncode == 1 and (root / "new.txt").stat().st_mode & 0o777 == 0o666 & ~umask


def test_a_directory_is_an_error_not_a_crash(root: Path) -> None:
    done = _run(root, "check", "s", "-p", "plan.yaml", "-o", "s")
    assert done.returncode == 2 and "it is a directory" in done.stderr
    assert "internal error" not in done.stderr
