"""How the printed hook starts Python (review G-18): isolated, so no ``.pth`` file of the user's
site-packages, which a call the plan allows may write, runs inside the gate.

Outside a virtual environment a console script starts its interpreter with the user site on,
and Python runs every ``import`` line of a ``.pth`` file there before the gate decides
anything. The interpreter outside this test's environment shows it, on a user site of a
temporary folder (``PYTHONUSERBASE``): never the real one.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from skillgrant.gate.config import command


def test_the_printed_hook_starts_this_interpreter_isolated(tmp_path: Path) -> None:
    plan = tmp_path / "plan.yaml"
    plan.write_text("allowed-tools:\n  - Read\n", encoding="utf-8")
    for dialect in ("claude-code", "copilot-cli"):
        words = shlex.split(command(dialect, str(plan)))
        assert words[:5] == [os.path.abspath(sys.executable), "-I", "-m", "skillgrant", "hook"]


def _base_python() -> str:
    found = getattr(sys, "_base_executable", "") or sys.executable
    return found if os.path.isfile(found) else sys.executable


@pytest.mark.parametrize("isolated", [False, True])
def test_a_user_site_pth_runs_only_without_isolation(tmp_path: Path, isolated: bool) -> None:
    python = _base_python()
    env = {**os.environ, "PYTHONUSERBASE": str(tmp_path / "userbase")}
    env.pop("PYTHONNOUSERSITE", None)
    probe = [python, "-c", "import site; print(site.ENABLE_USER_SITE, site.getusersitepackages())"]
    enabled, _, site_dir = subprocess.run(probe, env=env, capture_output=True, text=True,
                                          check=True).stdout.strip().partition(" ")
    if enabled != "True":
        pytest.skip(f"{python} starts with the user site off (a virtual environment's)")
    marker = tmp_path / "ran"
    Path(site_dir).mkdir(parents=True)
    (Path(site_dir) / "evil.pth").write_text(
        f"import pathlib; pathlib.Path({str(marker)!r}).touch()\n", encoding="utf-8")
    flags = ["-I"] if isolated else []
    subprocess.run([python, *flags, "-c", "pass"], env=env, check=True)
    assert marker.exists() is not isolated  # without -I the .pth ran: the hole G-18 names
