"""Session 44's review (s44-freview): the walk of ``check DIR`` on a FIFO named like a command
file. ``cli/files._has_frontmatter`` opens every ``*.md`` of a commands folder to read its first
bytes, and opening a FIFO for reading blocks until a writer comes: ``check .`` never ends (a
tar archive can hold a FIFO; git cannot). A FIFO named ``SKILL.md`` is an error in its place
(the reader's ``bounded`` open). Claude Code reads no command from a file that is not regular,
so an error or leaving it out are both sound: the test asks only that ``check`` ends."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_n11_a_fifo_named_like_a_command_file_does_not_hang_check(tmp_path: Path) -> None:
    good = tmp_path / ".claude" / "skills" / "good"
    good.mkdir(parents=True)
    (good / "SKILL.md").write_text("---\nname: good\ndescription: d\nallowed-tools: Read\n---\n")
    (tmp_path / ".claude" / "commands").mkdir()
    os.mkfifo(tmp_path / ".claude" / "commands" / "pipe.md")
    (tmp_path / "plan.yaml").write_text("allowed-tools: Read\n")
    try:
        done = subprocess.run([sys.executable, "-m", "skillgrant", "check", "--plan",
                               "plan.yaml", "."], cwd=tmp_path, capture_output=True,
                              text=True, timeout=30, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("check . did not end in 30 s: it blocks opening the FIFO "
                    ".claude/commands/pipe.md (cli/files._has_frontmatter)")
    assert done.returncode in (0, 2), done.stdout + done.stderr


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS and sparse files as on Linux")
def test_n13_a_huge_plugin_manifest_is_read_within_the_file_limit(tmp_path: Path) -> None:
    """``cli/files._named_commands`` reads each plugin manifest whole (``stream.read()``), where
    every other plugin file is read by ``bounded.read_bounded`` under ``MAX_FILE_BYTES``: a
    sparse 2 GiB ``.claude-plugin/plugin.json`` (an archive carries it in a few bytes) makes
    ``check .`` hold it twice over in memory (measured: a 1 GiB one, 2.1 GB resident). Under a
    1.5 GiB address-space limit the walk dies of MemoryError instead of refusing the file."""
    import resource

    good = tmp_path / ".claude" / "skills" / "good"
    good.mkdir(parents=True)
    (good / "SKILL.md").write_text("---\nname: good\ndescription: d\nallowed-tools: Read\n---\n")
    manifest = tmp_path / "plug" / ".claude-plugin" / "plugin.json"
    manifest.parent.mkdir(parents=True)
    with open(manifest, "wb") as stream:
        stream.truncate(2 << 30)
    (tmp_path / "plan.yaml").write_text("allowed-tools: Read\n")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 << 29, 3 << 29))

    done = subprocess.run([sys.executable, "-m", "skillgrant", "check", "--plan", "plan.yaml",
                           "."], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL, preexec_fn=limit)
    assert done.returncode == 2 and "MemoryError" not in done.stderr, (
        f"exit {done.returncode}: {done.stdout[-300:]}{done.stderr[-600:]}")
    assert "plug" in done.stdout + done.stderr, done.stdout + done.stderr
