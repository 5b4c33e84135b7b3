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

from skillgrant.gate.config import HOOK_CODE, command


def test_the_printed_hook_starts_this_interpreter_isolated(tmp_path: Path) -> None:
    plan = tmp_path / "plan.yaml"
    plan.write_text("allowed-tools:\n  - Read\n", encoding="utf-8")
    for dialect in ("claude-code", "copilot-cli"):
        words = shlex.split(command(dialect, str(plan)))
        assert words[:5] == [os.path.abspath(sys.executable), "-I", "-c", HOOK_CODE, "hook"]


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


def test_an_installation_only_pythonpath_finds_is_refused(tmp_path: Path) -> None:
    """An interpreter that finds this skillgrant only through ``PYTHONPATH`` (as one the user
    site alone holds, ``pip install --user``) cannot start it with ``-I`` (review ST-1), and
    any other start reads what a call may write there (review ST-4): no hook is printed."""
    python = _base_python()
    if python == sys.executable:
        pytest.skip("no interpreter outside this environment")
    root = str(Path(__file__).resolve().parent.parent)
    probe = ("from skillgrant.gate.config import ConfigError, executable\ntry:\n"
             "    print(executable())\nexcept ConfigError as e:\n    print('refused', e)")
    done = subprocess.run([python, "-c", probe], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": root}, check=False)
    if "ModuleNotFoundError" in done.stderr:
        pytest.skip(f"{python} cannot import the package's own modules: {done.stderr[-200:]}")
    assert done.stdout.startswith("refused") and "virtual environment" in done.stdout, (
        done.stdout + done.stderr)


def test_no_hook_is_printed_that_could_never_start(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from skillgrant.gate import config

    plan = tmp_path / "plan.yaml"
    plan.write_text("allowed-tools:\n  - Read\n", encoding="utf-8")
    monkeypatch.setattr(config, "_FOUND", {(os.path.abspath(sys.executable), "-I"): False})
    with pytest.raises(config.ConfigError, match="does not start this installation"):
        config.command("claude-code", str(plan))
    skill = tmp_path / "SKILL.md"
    skill.write_text("---\nname: s\ndescription: d\nallowed-tools: Read\n---\nbody\n",
                     encoding="utf-8")
    script = ("import os, sys\nfrom skillgrant.gate import config\n"
              "config._FOUND[(os.path.abspath(sys.executable), '-I')] = False\n"
              "from skillgrant.cli.entry import main\nmain(sys.argv[1:])")
    done = subprocess.run([sys.executable, "-c", script, "apply", "--enforce", str(skill),
                           "--plan", str(plan)], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "does not start this installation" in done.stderr, (
        done.stderr)
    assert "hooks" not in skill.read_text(encoding="utf-8")  # the skill is left as it was


def test_import_skillgrant_is_light_and_reaches_what_it_did() -> None:
    """``import skillgrant`` loads no typing (a hook turns the garbage collector off first), and
    every public name and the submodules it made attributes (``errors``, ``verdicts``) are still
    there on first use (review ST-2)."""
    script = ("import sys, skillgrant\nlight = 'typing' not in sys.modules\n"
              "same = skillgrant.errors.PlanError is skillgrant.PlanError\n"
              "names = all(getattr(skillgrant, n) is not None for n in skillgrant.__all__)\n"
              "print(light, same, skillgrant.verdicts.Verdict is skillgrant.Verdict, names)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["True"] * 4, done.stderr
