"""What the reviews of the call gate share: each case proves its hole with real bash in a
scratch copy of a gated project (``files_fixture.gated_project``), then asks the printed hook
call by call; the hook allowing every call is the finding."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest
from files_fixture import gated_project
from review_table import LeftOpen as LeftOpen  # the table's home: tests/review_table.py
from test_gate_files import _settings_hook, payload, run_hook

#: What a guarded script becomes when the hole is open: a later run of it runs the payload.
PAYLOAD = "touch zz\n"
#: The guarded hook script's own text.
HOOK = "#!/bin/sh\necho ok\n"


def needs(*programs: str) -> None:
    """Skip the test unless every one of ``programs`` is on ``PATH``."""
    missing = [p for p in programs if shutil.which(p) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")


def bash(call: str, cwd: Path, env: dict[str, str] | None = None) -> None:
    """Run ``call`` under real ``bash -c`` in ``cwd``."""
    subprocess.run(["bash", "-c", call], cwd=cwd, capture_output=True, timeout=120, env=env,
                   check=False)


def _scratch(project: Path, tmp_path: Path) -> Path:
    scratch = tmp_path / "scratch"
    if scratch.exists():
        shutil.rmtree(scratch)
    shutil.copytree(project, scratch, symlinks=True)
    return scratch


def proved(project: Path, tmp_path: Path, calls: list[str],
           env: dict[str, str] | None = None) -> bool:
    """Whether real bash, running ``calls`` one after the other in a copy of ``project``
    (links kept), runs the payload (``touch zz``, in the project or a folder under it)."""
    scratch = _scratch(project, tmp_path)
    for call in calls:
        bash(call, scratch, env)
    return any(scratch.rglob("zz"))


def transcript(project: Path, tmp_path: Path, calls: list[str],
               env: dict[str, str] | None = None) -> str:
    """What ``calls`` print under real bash, one after the other in a fresh copy of ``project``
    (for a failed proof's message: each call's exit status and output, and whether this run
    made the payload)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    scratch = _scratch(project, tmp_path)
    lines = []
    for call in calls:
        ran = subprocess.run(["bash", "-c", call], cwd=scratch, capture_output=True,
                             timeout=120, env=env, check=False, text=True, errors="replace")
        lines.append(f"$ {call}  (exit {ran.returncode})\n{ran.stdout[-2000:]}{ran.stderr[-2000:]}")
    lines.append(f"payload made on this second run: {any(scratch.rglob('zz'))}")
    named = sorted((k, v) for k, v in (env if env is not None else os.environ).items()
                   if any(part in k for part in ("ENV", "OPTIONS", "PATH", "PRELOAD", "FLAGS")))
    lines.append("the calls' environment: " + ", ".join(f"{k}={v[:120]}" for k, v in named))
    return "\n".join(lines)


def first_denied(project: Path, calls: list[str], env: dict[str, str] | None = None,
                 cwd: Path | None = None) -> str | None:
    """Asks the printed hook for each call in turn from the folder ``cwd`` (the project when
    None), in the environment ``env`` (the session's), running each allowed one under bash
    there (so that the next call is decided on the state the last one left); the first call
    denied, or None when the hook allowed them all."""
    hook = _settings_hook(project)
    folder = cwd or project
    for call in calls:
        said = subprocess.run(["/bin/sh", "-c", hook], input=payload(call, folder), cwd=folder,
                              env=env, capture_output=True, timeout=60, check=False)
        if said.returncode == 2:
            return call
        bash(call, folder, env)
    return None


def home_env(home: Path) -> dict[str, str]:
    """The session's environment with ``home`` (made here) as its home; rustup's and cargo's
    folders kept where they are (their programs on PATH find them by the home); ``SHELL`` set as a
    login session sets it where the test's own environment lacks it (CI's detached runs): GNU make
    runs a command line's ``V!=text`` with the environment's ``SHELL``, and without one nothing."""
    home.mkdir()
    real = Path.home()
    kept = {name: str(real / folder) for name, folder in (("RUSTUP_HOME", ".rustup"),
                                                           ("CARGO_HOME", ".cargo"))
            if (real / folder).is_dir() and name not in os.environ}
    shell = {} if os.environ.get("SHELL") else {"SHELL": "/bin/bash"}
    return {**os.environ, **kept, **shell, "HOME": str(home)}


def hook_allows(project: Path, command: str) -> bool:
    """Whether the printed hook allows ``command`` in ``project``."""
    return run_hook(_settings_hook(project), command, project).returncode != 2


def hooked_project(tmp_path: Path, entries: list[str]) -> Path:
    """A gated project with a hook script in the guarded ``.claude/hooks`` and ``src/x.sh``,
    the payload a command may copy over it."""
    project = tmp_path / "project"
    gated_project(project, entries)
    (project / ".claude" / "hooks").mkdir()
    (project / ".claude" / "hooks" / "x.sh").write_text(HOOK)
    (project / "src").mkdir()
    (project / "src" / "x.sh").write_text(PAYLOAD)
    return project


def rewrites_hook(project: Path, tmp_path: Path, command: str) -> bool:
    """Whether real bash, running ``command`` in a copy of ``project`` (links kept), leaves
    the payload in ``.claude/hooks/x.sh``, and running the script then runs it."""
    scratch = _scratch(project, tmp_path)
    bash(command, scratch)
    script = scratch / ".claude" / "hooks" / "x.sh"
    if not script.exists() or script.read_text() != PAYLOAD:
        return False
    subprocess.run(["sh", str(script)], cwd=scratch, capture_output=True, timeout=60,
                   check=False)
    return (scratch / "zz").exists()


def proved_case(tmp_path: Path, entries: list[str], files: Mapping[str, str | bytes],
                calls: list[str], extra: dict[str, str] | None = None, setup: str = "",
                in_place: bool = False, links: dict[str, str] | None = None,
                executable: tuple[str, ...] = ()) -> str | None:
    """A review's case: proves ``calls`` run the payload (``touch zz``) under real bash (a
    scratch home) in a hooked project with plan ``entries`` holding ``files`` (and what the bash
    text ``setup`` made there, ``$T`` its side's folder; the symbolic ``links``, name: target;
    ``executable``'s files made so), in the session's environment with
    ``extra`` (``{P}`` in a value: the folder bash runs in), in a copy of the project (in it
    with ``in_place``: a build folder naming its own path); then asks the printed hook for each
    call in a second such project: the first call it denies, or None (the hole)."""
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, entries)
        for name, text in files.items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            if isinstance(text, bytes):
                (project / name).write_bytes(text)
            else:
                (project / name).write_text(text)
        for name, to in (links or {}).items():
            os.symlink(to, project / name)
        for name in executable:
            (project / name).chmod(0o755)
        folder = tmp_path / side / "scratch" if side == "proof" and not in_place else project
        env = {**home_env(tmp_path / side / "home"),
               **{k: v.replace("{P}", str(folder)) for k, v in (extra or {}).items()}}
        if setup:
            subprocess.run(["bash", "-c", setup], cwd=project, check=True, timeout=120,
                           capture_output=True, env={**env, "T": str(tmp_path / side)})
        if side == "proof" and in_place:
            for call in calls:
                subprocess.run(["bash", "-c", call], cwd=project, env=env, check=False,
                               capture_output=True, timeout=300)
            assert any(project.rglob("zz")), "bash ran no payload"
        elif side == "proof":
            assert proved(project, tmp_path / side, calls, env), \
                f"bash ran no payload:\n{transcript(project, tmp_path / 'again', calls, env)}"
        else:
            found.append(first_denied(project, calls, env))
    return found[0]
