"""The pinned GitHub Copilot CLI: where it is cached, how it is installed, how one interactive
session runs.

The version is pinned here and nowhere else. ``python tests/conformance/cp_runtime.py install``
fetches the platform package with npm (``npm pack``: only a tarball), unpacks it into the same
cache folder as Claude Code (``cc_runtime.CACHE``), and runs it once with
``COPILOT_PKG_CACHE_HOME`` pointing into that folder, so the 235 MB it unpacks on first start is
unpacked once and shared by every session (each of which has a fresh ``HOME``).

Copilot CLI honours a skill's ``allowed-tools`` only in an interactive session, and from the
moment the skill is invoked to the end of the session. So a session runs ``copilot -i PROMPT``
in a pseudo-terminal, with the project marked trusted in ``~/.copilot/config.json`` and the
model a stand-in on 127.0.0.1 (``cp_standin``), inside the same jail as Claude Code's sessions
(``cc_runtime.jail_argv``). A call the runtime has not pre-approved opens a question on the
screen ("Do you want to run this command?"); the session answers it the way a person who says
no would: Esc (the call is not run, its result reads "interrupted"), then a new prompt so the
script goes on. A call is *pre-approved* exactly when no question was asked for it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyte
from cc_runtime import jail_argv
from cp_standin import CopilotSession
from npm_pinned import CACHE, install_pinned

#: The one place Copilot CLI's version is pinned.
PINNED_VERSION = "1.0.102"
PACKAGE = "@github/copilot-linux-x64"
SKILL_NAME = "probe"
#: The model name the stand-in answers as (any name works with a custom provider).
MODEL = "gpt-4.1"

#: What the screen shows while the runtime puts a call to the person.
QUESTION = "to navigate · enter to select"
#: What the footer shows while the runtime waits for a prompt.
IDLE = "· Interactive ·"
ROWS, COLUMNS = 50, 200
#: The prompt typed after each refusal, so the (stand-in) model makes the script's next call.
GO_ON = "go on"


def folder(version: str = PINNED_VERSION) -> Path:
    return CACHE / f"copilot-{version}"


def binary_path(version: str = PINNED_VERSION) -> Path:
    return folder(version) / "package" / "copilot"


def package_cache(version: str = PINNED_VERSION) -> Path:
    """``COPILOT_PKG_CACHE_HOME``: what the binary unpacks on its first start, shared."""
    return folder(version) / "pkg-cache"


def base_env(home: Path, version: str = PINNED_VERSION) -> dict[str, str]:
    """The environment of every run: offline, a fresh ``HOME``, no update, the shared cache."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
        "COPILOT_OFFLINE": "true",
        "COPILOT_AUTO_UPDATE": "false",
        "COPILOT_PROVIDER_API_KEY": "stand-in",
        "COPILOT_MODEL": MODEL,
        "COPILOT_PKG_CACHE_HOME": str(package_cache(version)),
        "COPILOT_DISABLE_TERMINAL_TITLE": "1",
    }


def installed_version(binary: Path) -> str | None:
    """The version the binary reports (its first start unpacks into the shared cache)."""
    try:
        with tempfile.TemporaryDirectory() as home:
            out = subprocess.run([str(binary), "--version"], capture_output=True, text=True,
                                 timeout=300, env=base_env(Path(home)))
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.search(r"Copilot CLI (\S+?)\.?\s*$", out.stdout.splitlines()[0] if out.stdout
                      else "")
    return found.group(1) if found else None


def install(version: str = PINNED_VERSION) -> Path:
    """Install the pinned Copilot CLI into the cache (a no-op when it is there); the binary.

    Raises RuntimeError with one plain sentence when it cannot be installed.
    """
    return install_pinned(PACKAGE, version, folder(version), binary_path(version),
                          "Copilot CLI", installed_version)


@dataclass(frozen=True)
class Interactive:
    """What one interactive session showed."""

    #: indices (into the script) of the calls the runtime put to the person: not pre-approved
    asked: frozenset[int]
    #: whether the whole script was played (the stand-in's closing answer was asked for)
    finished: bool
    #: the screen's text, escape sequences removed (for messages)
    screen: str


def write_project(work: Path, skill_text: str | None, *, hooks: Mapping[str, Any] | None = None,
                  user_hooks: Mapping[str, Any] | None = None,
                  hook_file_text: str | None = None) -> tuple[Path, Path]:
    """The session's ``HOME`` and project under ``work``: the project trusted, the skill at
    ``.github/skills/probe/SKILL.md``, ``hooks`` as ``.github/hooks/skillgrant.json`` (or the
    raw ``hook_file_text``), ``user_hooks`` as ``~/.copilot/hooks/skillgrant.json``."""
    home, project = work / "home", work / "project"
    for path in (home / ".copilot", project, work / "tmp", work / "outside"):
        path.mkdir(parents=True, exist_ok=True)
    (home / ".copilot" / "config.json").write_text(json.dumps(
        {"trustedFolders": [str(project)], "banner": "never"}))
    if not (project / ".git").exists():
        subprocess.run(["git", "init", "-q", str(project)], capture_output=True, timeout=60)
    if skill_text is not None:
        skill = project / ".github" / "skills" / SKILL_NAME
        skill.mkdir(parents=True, exist_ok=True)
        (skill / "SKILL.md").write_bytes(skill_text.encode("utf-8", "surrogatepass"))
    if hooks is not None or hook_file_text is not None:
        (project / ".github" / "hooks").mkdir(parents=True, exist_ok=True)
        text = hook_file_text if hook_file_text is not None else json.dumps(hooks)
        (project / ".github" / "hooks" / "skillgrant.json").write_text(text)
    if user_hooks is not None:
        (home / ".copilot" / "hooks").mkdir(parents=True, exist_ok=True)
        (home / ".copilot" / "hooks" / "skillgrant.json").write_text(json.dumps(user_hooks))
    return home, project


def run_prompt(binary: Path, base_url: str, work: Path, extra_args: Sequence[str] = (),
               prompt: str = "Run the probe.", timeout: float = 240,
               env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``copilot -p PROMPT --output-format json`` in ``work`` (prepared with
    ``write_project``), jailed, with ``extra_args`` (``--trust-folder``, ``--allow-tool``…).
    Prompt mode ignores ``allowed-tools``; the gate's tests use it for its hooks."""
    home, project = work / "home", work / "project"
    full_env = base_env(home) | {"COPILOT_PROVIDER_BASE_URL": base_url,
                                 "TMPDIR": str(work / "tmp")} | dict(env or {})
    argv = jail_argv(work, [str(binary), "-p", prompt, "--output-format", "json", *extra_args])
    return subprocess.run(argv, cwd=project, env=full_env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def run_interactive(binary: Path, base_url: str, session: CopilotSession, work: Path,
                    prompt: str = "Run the probe skill.", timeout: float = 240,
                    stall: float = 45, env: Mapping[str, str] | None = None) -> Interactive:
    """Run ``copilot -i PROMPT`` in a pseudo-terminal, jailed to ``work`` (prepared with
    ``write_project``), until the stand-in ``session`` has played its whole script; each
    question the runtime asks is answered no. Raises TimeoutError when it stalls."""
    home, project = work / "home", work / "project"
    full_env = base_env(home) | {"COPILOT_PROVIDER_BASE_URL": base_url,
                                 "TMPDIR": str(work / "tmp")} | dict(env or {})
    argv = jail_argv(work, [str(binary), "-i", prompt])
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    proc = subprocess.Popen(argv, cwd=project, env=full_env, stdin=slave, stdout=slave,
                            stderr=slave, start_new_session=True, close_fds=True)
    os.close(slave)
    terminal = Terminal(master)
    asked: set[int] = set()
    try:
        start = last_change = time.monotonic()
        seen = (0, 0)
        while not session.closed:
            now = time.monotonic()
            if now - start > timeout or now - last_change > stall:
                raise TimeoutError(f"the session stalled after {session.requests} requests: "
                                   f"{terminal.text()[-1500:]!r}")
            if not terminal.read(0.1) and proc.poll() is not None:
                break
            if session.issued >= 0 and session.issued not in asked and terminal.asking():
                asked.add(session.issued)
                _say_no(terminal, session)
            if (session.requests, len(asked)) != seen:
                seen, last_change = (session.requests, len(asked)), time.monotonic()
    finally:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        os.close(master)
    return Interactive(frozenset(asked), session.closed, terminal.text())


def _say_no(terminal: Terminal, session: CopilotSession) -> None:
    """Refuse the call on the screen (Esc: it is not run, the turn stops); once the runtime is
    idle again, prompt again so the script goes on. Enter is pressed again while the prompt is
    not taken."""
    before = session.requests
    terminal.write("\x1b")
    terminal.wait_until(lambda: not terminal.asking() and terminal.idle(), 10)
    terminal.write(GO_ON)
    terminal.wait_until(lambda: terminal.typed(GO_ON), 2)
    for _ in range(20):
        terminal.write("\r")
        if terminal.wait_until(lambda: session.requests != before, 1):
            break


class _Screen(pyte.Screen):
    """pyte's screen, tolerant of the private status reports the runtime asks for (it goes
    on without an answer)."""

    def report_device_status(self, *args: Any, **kwargs: Any) -> None:
        return None


class Terminal:
    """The pseudo-terminal's master side, and what a terminal of its size would show now."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.screen = _Screen(COLUMNS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.log = bytearray()

    def read(self, wait: float) -> bool:
        """Take what the runtime drew within ``wait`` seconds; whether anything came."""
        ready, _, _ = select.select([self.fd], [], [], wait)
        if not ready:
            return False
        try:
            data = os.read(self.fd, 1 << 16)
        except OSError:
            return False
        self.stream.feed(data)
        self.log += data
        return bool(data)

    def wait(self, seconds: float) -> None:
        """Read what comes for ``seconds`` (the terminal keeps drawing meanwhile)."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            self.read(left)

    def wait_until(self, done: Callable[[], bool], seconds: float) -> bool:
        """Read until ``done()`` (at most ``seconds``); whether it came."""
        end = time.monotonic() + seconds
        while not done():
            if time.monotonic() > end:
                return False
            self.read(0.02)
        return True

    def write(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def idle(self) -> bool:
        """Whether the runtime waits for a prompt (its footer shows the mode, not work)."""
        return any(IDLE in line for line in self.screen.display[-3:])

    def typed(self, text: str) -> bool:
        """Whether the prompt line shows ``text``."""
        return any(line.startswith(f"❯ {text}") for line in self.screen.display)

    def asking(self) -> bool:
        """Whether a question is on the screen now."""
        return any(QUESTION in line for line in self.screen.display)

    def text(self) -> str:
        """The screen as it is now."""
        return "\n".join(line.rstrip() for line in self.screen.display)


if __name__ == "__main__":
    if sys.argv[1:] != ["install"]:
        sys.exit("usage: cp_runtime.py install")
    try:
        path = install()
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        print(f"the pinned Copilot CLI {PINNED_VERSION} could not be installed: {e}")
        sys.exit(1)
    print(f"Copilot CLI {PINNED_VERSION} at {path}")
