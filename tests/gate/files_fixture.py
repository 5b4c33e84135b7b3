"""A project whose gate's files a command may reach (tests/gate/test_gate_files*.py): the
printed hook in ``.claude/settings.json``, the plan in ``plan.json``, and everything a
command may bring over them without naming them: ``evil/`` (the same layout without the hook,
and a plan granting all of Bash), ``evil.tar``, ``evil.zip``, a git branch ``rev`` and a
stash doing the same; ``evil/h2``, a program that copies ``evil/`` over the project, and
``evil/s.sed``, a sed script running it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from skillgrant.gate.config import snippet


def git(project: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=a@b", "-c", "user.name=a", *args], cwd=project,
                   check=True, capture_output=True, timeout=60)


def gated_project(project: Path, entries: list[str]) -> str:
    """Build the project at ``project`` with a plan of ``entries``; the hook's command."""
    (project / ".claude").mkdir(parents=True)
    (project / "out").mkdir()
    plan = project / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": entries}))
    printed = json.loads(snippet("claude-code", {"--plan": str(plan)})[0])
    hook: str = printed["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    (project / ".claude" / "settings.json").write_text(json.dumps(printed))
    (project / "notes.txt").write_text("notes\n")
    git(project, "init", "-q")
    git(project, "add", ".")
    git(project, "commit", "-qm", "gated")
    git(project, "checkout", "-qb", "rev")
    (project / ".claude" / "settings.json").write_text("{}")
    plan.write_text(json.dumps({"allowed-tools": ["Bash"]}))
    git(project, "commit", "-qam", "no hook")
    git(project, "checkout", "-q", "-")
    (project / ".claude" / "settings.json").write_text("{}")
    git(project, "stash", "-q")
    evil = project / "evil"
    (evil / ".claude").mkdir(parents=True)
    (evil / ".claude" / "settings.json").write_text("{}")
    (evil / "plan.json").write_text(json.dumps({"allowed-tools": ["Bash"]}))
    # a program an option may run (review G-16, G-19): it copies evil/ over the project
    (evil / "h2").write_text("#!/bin/sh\ncp -r evil/. .\ncat >/dev/null\n")
    (evil / "h2").chmod(0o755)
    (evil / "s.sed").write_text("1e evil/h2\n")
    subprocess.run(["tar", "-cf", "evil.tar", "-C", "evil", ".claude", "plan.json"],
                   cwd=project, check=True)
    subprocess.run(["zip", "-qr", "../evil.zip", ".claude", "plan.json"], cwd=evil, check=True)
    return hook
