"""What the reviews of the reader (s43-freview, s44-freview, …) share: a probe skill, a work
folder, a layout written from a table, one Claude Code session judged call by call, and
``skillgrant check`` of the project.

Each review test has two sides. The runtime's, with skillgrant bypassed: the pinned Claude Code
loads the hostile file and pre-approves a probe outside the plan (the precondition: the layout
is real). skillgrant's: ``check`` (or ``apply``) of the project with that plan must not pass it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cc_probe import TALLY, Judge
from cc_runtime import run_session
from reader_review import lay_out as lay_out  # (the unit reviews' too)

PLAN = "allowed-tools: Read\n"
WIDE = ["--allowedTools", "Skill"]


def skill(name: str, allowed: str) -> str:
    return f"---\nname: {name}\ndescription: probe skill\nallowed-tools: {allowed}\n---\nRun it.\n"


def touch(name: str) -> tuple[str, dict[str, Any]]:
    return ("Bash", {"command": f"touch zz_{name}", "description": "probe", "timeout": 5000})


@contextmanager
def work_folder(prefix: str) -> Iterator[Path]:
    """A fresh folder under /var/tmp (not /tmp: the runtime treats /tmp specially), removed
    after the test."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/var/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def runtime(judge: Judge, work: Path, calls: Sequence[tuple[str, dict[str, Any]]], *,
            review: str, prompt: str = "Run the probe skill.",
            extra: Sequence[str] = ()) -> list[tuple[bool, str] | None]:
    """Run ``calls`` in the project under ``work``, skills allowed, after ``prompt`` (a slash
    command runs a command file as a person would); each call's (pre-approved, result text),
    None for a call with no result. ``review`` names the tally the session counts in."""
    url, script = judge.standin.session(
        [(tool, json.loads(json.dumps(args).replace("{work}", str(work)))) for tool, args in calls])
    done, report = run_session(judge.binary, url, work, None, extra_args=[*WIDE, *extra],
                               prompt=prompt)
    TALLY[f"{review} sessions"] = TALLY.get(f"{review} sessions", 0) + 1
    denied = {d.get("tool_use_id") for d in report.get("permission_denials") or []}
    got: list[tuple[bool, str] | None] = []
    for index in range(len(calls)):
        result = script.results.get(script.call_id(index))
        got.append(None if result is None else
                   (script.call_id(index) not in denied and not result[0], result[1]))
    assert got[0] is not None, done.stderr[-600:]
    return got


def check(project: Path, plan: Path, *paths: str) -> subprocess.CompletedProcess[str]:
    """``skillgrant check --plan PLAN PATHS`` run in ``project``."""
    return subprocess.run([sys.executable, "-m", "skillgrant", "check", "--plan", str(plan),
                           *paths], cwd=project, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})
