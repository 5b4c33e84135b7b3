"""A fresh installation of this checkout, as a newcomer makes one: a new virtual environment,
``pip install <checkout>`` (not editable), never activated.

The session fixture ``installed`` (tests/conftest.py) makes it once per run with ``--slow``
(.ci/steps/30-slow.sh); the conformance suite uses the environment running the tests instead
(``running``: in .ci/run, itself a fresh non-editable installation of the checkout), and the
README's test command skips the tests that use it (CI's slow step runs them).
What skillgrant prints or writes for a runtime is then run with ``OUTSIDE``'s ``PATH``, which
holds no virtual environment, from a folder that is not the checkout: as a runtime runs a hook.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skillgrant.gate.config import HOOK_CODE

REPO = Path(__file__).resolve().parents[1]
#: A ``PATH`` as a runtime started from a login shell may have it: no virtual environment.
OUTSIDE_PATH = "/usr/local/bin:/usr/bin:/bin"
INSTALL_TIMEOUT = 900


def outside_env(**extra: str) -> dict[str, str]:
    """The environment a runtime runs a hook in: ``OUTSIDE_PATH``, no ``VIRTUAL_ENV``, no
    ``PYTHONPATH``, nothing of skillgrant's."""
    drop = ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSAFEPATH")
    env = {k: v for k, v in os.environ.items()
           if k not in drop and not k.startswith("SKILLGRANT_")}
    return {**env, "PATH": OUTSIDE_PATH, **extra}


@dataclass(frozen=True)
class Installed:
    """The fresh environment (``venv``) and the serve extra's install hint as ``skillgrant
    serve`` printed it before the extra was there (``serve_hint``), run as printed."""

    venv: Path
    serve_hint: str

    @property
    def skillgrant(self) -> Path:
        return self.venv / "bin" / "skillgrant"

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"


def running() -> Installed:
    """The environment running the tests, as an ``Installed`` (its ``serve_hint`` is empty:
    the serve extra is there already; the tests of the hint run with ``--slow`` only)."""
    return Installed(Path(sys.prefix), "")


def install(where: Path) -> Installed:
    """Make the fresh installation under ``where``: the core package from the checkout; then
    ``skillgrant serve`` is asked to start, and the install command its error names is run
    as written, so the environment also has the serve extra."""
    venv = where / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], where)
    _run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(REPO)], where)
    plan = where / "plan.yaml"
    plan.write_text("allowed-tools: [Read]\n")
    refused = subprocess.run([str(venv / "bin" / "skillgrant"), "serve", "--plan", str(plan)],
                             cwd=where, env=outside_env(), capture_output=True, text=True,
                             timeout=120, check=False)
    found = re.search(r"install it with: (.+)$", refused.stderr.strip())
    if refused.returncode != 2 or found is None:
        raise AssertionError(f"serve without its extra: exit {refused.returncode}, "
                             f"{refused.stderr!r}")
    hint = found.group(1)
    _run(["/bin/sh", "-c", hint], where)
    return Installed(venv, hint)


def _run(argv: list[str], cwd: Path) -> None:
    done = subprocess.run(argv, cwd=cwd, env=outside_env(), capture_output=True, text=True,
                          timeout=INSTALL_TIMEOUT, check=False)
    if done.returncode != 0:
        raise AssertionError(f"{argv}: exit {done.returncode}\n{done.stdout[-2000:]}"
                             f"\n{done.stderr[-2000:]}")


def isolated_interpreter(installed: Installed, words: list[str]) -> bool:
    """Whether the command ``words`` starts the installation's own interpreter (``python`` or
    the ``python3`` a console script names), by absolute path, isolated, on ``-c HOOK_CODE``:
    printed so either way, neither the project's folder nor the user's site-packages is on
    ``sys.path`` (reviews R3, G-18)."""
    return (Path(words[0]).parent == installed.venv / "bin"
            and Path(words[0]).name in ("python", "python3")
            and words[1:4] == ["-I", "-c", HOOK_CODE])


def hook_commands(document: dict[str, Any]) -> list[str]:
    """Every command a printed hook configuration (any dialect's) runs."""
    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("command", "bash") and isinstance(value, str):
                    found.append(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(document)
    return found


def run_hook(command: str, payload: dict[str, Any], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` run as a runtime runs a hook: by ``/bin/sh -c`` as written, the payload on
    standard input, from ``cwd``, with ``outside_env``."""
    return subprocess.run(["/bin/sh", "-c", command], input=json.dumps(payload), cwd=cwd,
                          env=outside_env(), capture_output=True, text=True, timeout=120,
                          check=False)
