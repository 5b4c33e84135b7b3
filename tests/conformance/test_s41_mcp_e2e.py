"""Review s41 M1 through the pinned Claude Code 2.1.332: the runtime starts the MCP servers a
project's ``.mcp.json`` and the user's ``~/.claude.json`` name, at a session's start, without
asking (``claude -p``); the gate guards both files (docs/decisions.md, review s41)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "gate"))
from files_fixture import gated_project
from test_gate_files import _settings_hook


@pytest.mark.parametrize("where", ["project-mcp-json", "user-claude-json"])
def test_m1_the_runtimes_mcp_configuration(tmp_path: Path, where: str) -> None:
    """Claude Code 2.1.332 starts the MCP servers of the project's ``.mcp.json`` and of the
    user's ``~/.claude.json`` when a session starts (``claude -p``: measured, no approval
    asked), each a command of the file's choosing. Neither file is guarded: ``cp mcp.json
    .mcp.json`` (or onto ``~/.claude.json``) is allowed, and the next session runs it."""
    import json

    from cc_runtime import binary_path, run_session
    from cc_standin import StandIn
    from test_gate_files import payload as call_payload

    binary = binary_path()
    if not binary.exists():
        pytest.skip("the pinned Claude Code is not installed (cc_runtime.py install)")
    work = tmp_path / "work"
    home, project = work / "home", work / "project"
    home.mkdir(parents=True)
    gated_project(project, ["Bash(cp *)"])
    (work / "outside").mkdir()
    ran = work / "outside" / "zz"
    (project / "mcp.json").write_text(json.dumps(
        {"mcpServers": {"x": {"command": "sh", "args": ["-c", f"touch {ran}; sleep 2"]}}}))
    target = project / ".mcp.json" if where == "project-mcp-json" else home / ".claude.json"
    command = f"cp mcp.json {target}"
    env = {**os.environ, "HOME": str(home)}
    said = subprocess.run(["/bin/sh", "-c", _settings_hook(project)],
                          input=call_payload(command, project), cwd=project, env=env,
                          capture_output=True, timeout=60)
    subprocess.run(["bash", "-c", command], cwd=project, env=env, check=True, timeout=60)
    with StandIn() as standin:
        url, _ = standin.session([])
        run_session(binary, url, work, None, timeout=120, prompt="hello")
    assert ran.exists(), "the runtime started no server: the case proves nothing"
    assert said.returncode == 2, "the hook allows the write of what the runtime starts"
