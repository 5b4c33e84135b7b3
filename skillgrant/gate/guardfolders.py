"""The places in each folder from the call's up that the write guard's set holds (moved whole
from ``guards``, where the set is made: loaded only where it is made, not where a hook takes it
kept, ``guardkeep``)."""

from __future__ import annotations

import os

from . import files as fs
from . import linked


def folder_items(folder: str, versions: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """The places in ``folder`` that a runtime or git reads as what to run (of the write
    guard's set: ``guards._guarded_items``)."""
    return [(os.path.join(folder, ".claude"), True),
            # git runs what its repository's config and hooks name (core.fsmonitor, hooks),
            # under grants that run no code of their own (`git status`, `git commit`; G-7)
            (os.path.join(folder, ".git"), True),
            # the hook files the other runtimes load (Copilot CLI, VS Code, Codex; H-18)
            (os.path.join(folder, ".github", "hooks"), True),
            (os.path.join(folder, ".github", "copilot"), True),  # its v1 settings (s44 H2)
            # what pre-commit's hook runs, in a repository's top folder (s44 H6)
            *[(os.path.join(folder, ".pre-commit-config.yaml"), False)] * fs.exists(
                os.path.join(folder, ".git")),
            (os.path.join(folder, ".codex"), True),
            *((os.path.join(folder, ".claude", name), False)
              for name in ("settings.json", "settings.local.json")),
            # the project's MCP servers, whose commands Claude Code starts (review s41 M1)
            (os.path.join(folder, ".mcp.json"), False),
            # Copilot CLI's project MCP servers, Gemini CLI's settings (review s42 H7, H9)
            (os.path.join(folder, ".github", "mcp.json"), False),
            (os.path.join(folder, ".gemini"), True),
            # the version files (s43 H15), what the plan's programs read from each folder up
            *zip(fs.joined(folder, [name for name, _ in versions]),
                 [tree for _, tree in versions], strict=True),
            # what their entries that are links lead to, and their files' second names
            # (review s41 S3, L1, L4): Copilot CLI's hooks at any depth, Codex's own files
            *linked.claude_items([os.path.join(folder, ".claude")]),
            *linked.walked([os.path.join(folder, ".github", "hooks")], lambda *_: True),
            *linked.walked([os.path.join(folder, ".codex")], lambda *_: False)]
