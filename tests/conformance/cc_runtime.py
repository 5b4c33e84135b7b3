"""The pinned Claude Code runtime: where it is cached, how it is installed, how one session runs.

The version is pinned here and nowhere else. ``python tests/conformance/cc_runtime.py install``
fetches the native binary with npm (``npm pack`` of the platform package, which is only a
tarball), unpacks it into the cache folder and checks that it reports the pinned version.

A session runs the binary in ``-p`` mode with a fresh ``HOME`` and project folder, against the
stand-in model (``cc_standin``), inside a jail: a private mount and PID namespace in which every
mount but the session's own folder is read-only. Probe calls the runtime allows are really
executed, and a probe may be any command a skill was written with (``rm -rf /`` included), so
the jail is what makes an escalation found by the suite harmless to the machine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npm_pinned import CACHE, install_pinned

#: The one place the runtime's version is pinned.
PINNED_VERSION = "2.1.332"
PACKAGE = "@anthropic-ai/claude-code-linux-x64"

SKILL_NAME = "probe"

# The jail: mount the session folder over itself (so it stays writable), then make every other
# mount read-only; a fresh /proc comes with the PID namespace, and /tmp and /dev/shm are
# private. Written as a shell script for unshare(1), from util-linux.
_JAIL = r"""
W="$1"; shift
mount --bind "$W" "$W" || exit 97
mount -t tmpfs tmpfs /dev/shm 2>/dev/null
awk '{print $5}' /proc/self/mountinfo | sort -ru | while read -r m; do
  case "$m" in "$W"|"$W"/*|/dev/shm) continue;; esac
  mount -o remount,bind,ro "$m" 2>/dev/null
done
touch /etc/.skillgrant-jail-probe 2>/dev/null && exit 98
exec "$@"
"""


def binary_path(version: str = PINNED_VERSION) -> Path:
    return CACHE / version / "package" / "claude"


def installed_version(binary: Path) -> str | None:
    try:
        out = subprocess.run([str(binary), "--version"], capture_output=True, text=True,
                             timeout=60, env=_base_env(Path(tempfile.gettempdir())))
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.split(" ", 1)[0].strip() or None


def install(version: str = PINNED_VERSION) -> Path:
    """Install the pinned runtime into the cache (a no-op when it is there); returns the binary.

    Raises RuntimeError with one plain sentence when it cannot be installed.
    """
    return install_pinned(PACKAGE, version, CACHE / version, binary_path(version),
                          "Claude Code", installed_version)


def jail_available() -> str | None:
    """None when sessions can be jailed here, else why not."""
    if shutil.which("unshare") is None:
        return "unshare(1) is not installed"
    if os.geteuid() != 0:
        return "the jail needs root (mount namespaces with read-only remounts)"
    with tempfile.TemporaryDirectory() as d:
        done = subprocess.run(_jail_argv(Path(d), ["true"]), capture_output=True, timeout=60)
    if done.returncode != 0:
        return f"the jail does not start here (exit {done.returncode})"
    return None


def jail_argv(work: Path, argv: Sequence[str]) -> list[str]:
    """The command line that runs ``argv`` in the jail, with ``work`` its one writable folder
    (the Copilot CLI harness, ``cp_runtime``, runs its sessions in the same jail)."""
    return _jail_argv(work, argv)


def _jail_argv(work: Path, argv: Sequence[str]) -> list[str]:
    return ["unshare", "--mount", "--propagation", "private", "--pid", "--fork",
            "--mount-proc", "--", "sh", "-c", _JAIL, "jail", str(work), *argv]


def _base_env(home: Path) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        # The runtime picks zsh before bash unless SHELL names bash (read from the binary); the
        # threat model's shell is bash 5.2 (review O1).
        "SHELL": "/bin/bash",
        "ANTHROPIC_API_KEY": "stand-in",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_TELEMETRY": "1",
        # A probe command that waits (for input, or forever) is cut short.
        "BASH_DEFAULT_TIMEOUT_MS": "5000",
        "BASH_MAX_TIMEOUT_MS": "5000",
    }


@dataclass(frozen=True)
class Outcome:
    """What one session showed: which script calls were denied, and every call's result."""

    denied: frozenset[str]  # tool_use ids in permission_denials
    results: dict[str, tuple[bool, str]]
    skill_loaded: bool
    raw: dict[str, Any]


def session_tmp(work: Path) -> Path:
    """The ``TMPDIR`` a session run in ``work`` has (a service deciding its calls must be
    started with it: the gate compares it, environment.COMPARED)."""
    return work / "tmp"


def run_session(binary: Path, base_url: str, work: Path, skill_text: str | None,
                extra_args: Sequence[str] = (), settings: dict[str, Any] | None = None,
                timeout: float = 180, prompt: str = "Run the probe skill.",
                env: dict[str, str] | None = None, cwd: Path | None = None,
                ) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """Run one ``claude -p`` session in ``work`` (made fresh by the caller), with ``skill_text``
    as ``.claude/skills/probe/SKILL.md`` of the project and ``env`` added to its environment,
    started in ``cwd`` (made here; the project when None). Returns the process and its JSON."""
    home, project, tmp = work / "home", work / "project", session_tmp(work)
    for folder in (home, project, tmp, work / "outside"):
        folder.mkdir(parents=True, exist_ok=True)
    if not (project / ".git").exists():  # skills that run `git …` when they load need a repo
        subprocess.run(["git", "init", "-q", str(project)], capture_output=True, timeout=60)
    if skill_text is not None:
        skill = project / ".claude" / "skills" / SKILL_NAME
        skill.mkdir(parents=True, exist_ok=True)
        (skill / "SKILL.md").write_bytes(skill_text.encode("utf-8", "surrogatepass"))
    if settings is not None:
        (project / ".claude").mkdir(exist_ok=True)
        (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    env = _base_env(home) | {"ANTHROPIC_BASE_URL": base_url, "TMPDIR": str(tmp)} | (env or {})
    argv = [str(binary), "-p", prompt, "--output-format", "json",
            "--allowedTools", f"Skill({SKILL_NAME})", *extra_args]
    if cwd is not None:
        cwd.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(_jail_argv(work, argv), cwd=cwd or project, env=env, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    try:
        report = json.loads(done.stdout)
    except ValueError:
        report = {}
    return done, report


if __name__ == "__main__":
    if sys.argv[1:] != ["install"]:
        sys.exit("usage: cc_runtime.py install")
    try:
        path = install()
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        print(f"the pinned Claude Code {PINNED_VERSION} could not be installed: {e}")
        sys.exit(1)
    print(f"Claude Code {PINNED_VERSION} at {path}")
