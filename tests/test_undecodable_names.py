"""File names that are not UTF-8 (Linux allows any byte but '/' and NUL) and names that lead
nowhere: every report says them, none ends in an internal error (reviews F-1, P-5, F-3). A
name's byte 0xFF is the lone surrogate U+DCFF inside Python; JSON writes it as the escape
``\\udcff``, SARIF's URI as ``%FF``, text as ``\\udcff`` where the stream's encoding cannot
write the surrogate."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SKILLGRANT = [sys.executable, "-m", "skillgrant"]
NAME = os.fsdecode(b"a\xff.md")  # 'a\udcff.md'


def _run(folder: Path, *args: str,
         encoding: str | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ}
    if encoding is not None:
        env["PYTHONIOENCODING"] = encoding
    return subprocess.run([*SKILLGRANT, *args], cwd=folder, capture_output=True, env=env,
                          timeout=60, check=False)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / NAME).write_text("---\nname: a\nallowed-tools: Read, Bash(rm *)\n---\n",
                                 encoding="utf-8")
    (tmp_path / "plan.yaml").write_text("allowed-tools: [Read]\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("encoding", ["latin-1", "cp1252", "utf-8", "ascii"])
@pytest.mark.parametrize("command", [["check", "--plan", "plan.yaml"], ["lint"]])
def test_text_reports_name_the_file_in_any_output_encoding(
        folder: Path, command: list[str], encoding: str) -> None:
    done = _run(folder, command[0], NAME, *command[1:], encoding=encoding)
    assert done.returncode == 1 if command[0] == "check" else done.returncode in (0, 1)
    assert b"internal error" not in done.stderr
    assert done.stdout.startswith(b"a\\udcff.md" if encoding != "ascii" else b"a?.md")


def test_json_and_sarif_write_the_byte_as_their_escapes(folder: Path) -> None:
    done = _run(folder, "check", NAME, "--plan", "plan.yaml", "--format", "json")
    assert json.loads(done.stdout)["files"][0]["path"] == NAME
    done = _run(folder, "check", NAME, "--plan", "plan.yaml", "--format", "json", "-o", "r.json",
                encoding="latin-1")
    assert (done.returncode, done.stderr) == (1, b"")
    assert json.loads((folder / "r.json").read_bytes())["files"][0]["path"] == NAME
    done = _run(folder, "check", NAME, "--plan", "plan.yaml", "--format", "sarif")
    uris = {location["physicalLocation"]["artifactLocation"]["uri"]
            for run in json.loads(done.stdout)["runs"] for result in run["results"]
            for location in result["locations"]}
    assert uris == {"a%FF.md"}


@pytest.mark.parametrize("command", [["check", "--plan", "plan.yaml"], ["apply", "--plan",
                                                                          "plan.yaml"]])
def test_a_link_leading_nowhere_is_named_as_such(folder: Path, command: list[str]) -> None:
    os.symlink("loop2", folder / "loop1")
    os.symlink("loop1", folder / "loop2")
    os.symlink("nothing-here", folder / "dangling")
    done = _run(folder, command[0], "loop1", *command[1:])
    assert done.stderr.decode() == ("skillgrant: error: loop1: a symbolic-link loop: "
                                    "loop1 -> loop2 -> loop1\n")
    done = _run(folder, command[0], "dangling", *command[1:])
    assert done.stderr.decode() == ("skillgrant: error: dangling: a symbolic link to "
                                    "'nothing-here', which does not exist\n")
