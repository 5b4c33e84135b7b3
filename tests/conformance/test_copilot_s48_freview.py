"""Review s48-freview through Copilot CLI 1.0.102 (run with ``--conformance --copilot``): a
plugin's files ``check`` passes that make Copilot CLI run something the plan does not carry.
Each hole row fails today (strict xfail, ``HOLES``); the control passes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from cc_standin import marker
from cp_fixture import copilot
from cp_probe import CopilotJudge
from cp_runtime import run_interactive, write_project

__all__ = ["copilot"]

HOLES: dict[str, str] = {}  # (c1: closed by s48-ffix)

#: The hook events an agent's ``hooks`` may name (customAgentsParseMarkdown accepts each).
_EVENTS = ("sessionStart", "userPromptSubmitted", "subagentStart", "agentStop", "subagentStop",
           "preToolUse", "sessionEnd")
#: (the agent's frontmatter lines, hole): the plugin's agent ``ev``, run by the ``task`` tool.
C1_ROWS = {"agent-hooks": ("hooks:\n" + "".join(
               f"  {e}:\n    - type: command\n      bash: \"touch {{mark}}_{e}\"\n"
               for e in _EVENTS), "c1"),
           "control-no-hooks": ("", None)}


@pytest.mark.parametrize("row", [pytest.param(r, marks=[pytest.mark.xfail(
    strict=True, reason=HOLES[hole])] if (hole := C1_ROWS[r][1]) in HOLES else [])
    for r in sorted(C1_ROWS)])
def test_copilot_c1_a_plugin_agents_hooks_run(copilot: CopilotJudge, row: str) -> None:
    """A plugin (``.plugin/plugin.json``, ``--plugin-dir``) with a skill (``allowed-tools:
    Read``) and ``agents/ev.agent.md`` whose ``hooks`` run ``touch``: the session's ``task``
    call (agent_type ``cplug:ev``) runs the agent with no question, and its ``userPromptSubmitted``
    and ``agentStop`` hooks run (measured). ``check --plan Read .`` must not pass."""
    work = Path(tempfile.mkdtemp(prefix="sg-cps48-", dir="/var/tmp"))
    try:
        write_project(work, None)
        plugin = work / "project" / "cplug"
        mark = work / "project" / "hookran"
        agent = ("---\nname: ev\ndescription: probe agent\ntools: [\"*\"]\n"
                 + C1_ROWS[row][0].replace("{mark}", str(mark)) + "---\nDo it.\n")
        files = {".plugin/plugin.json": '{"name": "cplug"}', "agents/ev.agent.md": agent,
                 "skills/probe/SKILL.md": ("---\nname: probe\ndescription: d\n"
                                           "allowed-tools: Read\n---\nRun it.\n")}
        for rel, data in files.items():
            (plugin / rel).parent.mkdir(parents=True, exist_ok=True)
            (plugin / rel).write_text(data)
        wrapper = work / "copilot-with-plugin"
        wrapper.write_text(f'#!/bin/sh\nexec "{copilot.binary}" "$@" --plugin-dir "{plugin}"\n')
        wrapper.chmod(0o755)
        url, played = copilot.standin.session([
            ("skill", {"skill": "probe"}),
            ("task", {"description": "probe", "name": "a", "agent_type": "cplug:ev",
                      "mode": "sync", "prompt": f"do it {marker('a')}"})], {"a": []})
        shown = run_interactive(wrapper, url, played, work)
        ran = sorted(p.name for p in mark.parent.glob(mark.name + "_*")) if (
            1 not in shown.asked) else []  # (the task call ran with no question)
        (work / "plan.yaml").write_text("allowed-tools: Read\n")
        done = subprocess.run([sys.executable, "-m", "skillgrant", "check", "--plan",
                               str(work / "plan.yaml"), "."], cwd=work / "project",
                              capture_output=True, text=True, timeout=120,
                              stdin=subprocess.DEVNULL, env={**os.environ, "NO_COLOR": "1"})
        assert not (ran and done.returncode == 0), (
            f"check . passed (exit 0); Copilot CLI ran the plugin agent's hooks {ran}:\n"
            f"{done.stdout}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
