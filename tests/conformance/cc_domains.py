"""Probe calls of every tool domain, and the runtime's judgement of them (issue 28).

``cc_probe`` probes Bash, Read, Edit-as-Read and WebFetch. This module adds a call for every
other tool a grant names: Edit, Write and NotebookEdit calls on files of the project, Monitor
calls, Skill calls (of skills the project holds), MCP tool calls (through the suite's own stdio
MCP server, ``mcp_probe_server.py``, given with ``--mcp-config``), Agent calls (the sub-agent's
own turns answered by the stand-in, ``cc_standin.SUBAGENT_MARK``), and Glob and Grep calls.

A call is *denied* when the runtime lists it in ``permission_denials`` or answers it with its
permission text, or when the runtime has no such tool (a grant for it grants nothing). A call
whose input the runtime rejects, or that got no answer, breaks the session (``SessionBroken``):
the suite never reads a broken call as an answer.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cc_probe import SessionBroken
from cc_runtime import SKILL_NAME, run_session
from cc_standin import SUBAGENT_CALL_ID, SUBAGENT_MARK, StandIn

#: The MCP servers every MCP session starts, and their tools. `a__b` holds `__` in its name.
MCP_SERVERS: dict[str, tuple[str, ...]] = {
    "a": ("t", "get_x", "get_y", "list"),
    "a__b": ("t", "get_x"),
    "ab": ("t",),
    "gh": ("get_issue", "get_pr", "list_prs"),
}
#: Skills the project holds beside `probe` (each with its own allowed-tools, so a call of it
#: needs a grant: a skill without one is run without asking).
SKILLS = ("deploy", "deploy-staging", "deploy-prod", "other", "o", "oth-x", "xo", "commit",
          "commit-all", "review")
MCP_SERVER_SCRIPT = Path(__file__).with_name("mcp_probe_server.py")

_NOTEBOOK = json.dumps({"cells": [{"cell_type": "code", "id": "c1", "metadata": {},
                                   "source": ["x = 1"], "outputs": [], "execution_count": None}],
                        "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
_PERMISSION_TEXT = "Claude requested permissions to "
#: A skill name a probe may create (a witness names one the project does not hold yet).
_SKILL_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,40}")
_NO_SUCH_TOOL = "No such tool available"
#: Seconds a domain session may take (a session of 24 calls takes well under a minute on a
#: quiet machine; a loaded one of 2 shared cores needs more).
SESSION_TIMEOUT = 420


@dataclass(frozen=True, order=True)
class Call:
    """One probe call. ``arg`` is a command, a skill name, an agent type, a URL, or a path:
    ``~/…`` below the session's HOME (outside the project), else relative to the project."""

    tool: str
    arg: str

    def __str__(self) -> str:
        return f"{self.tool}({self.arg})"

    def path(self, work: Path) -> Path:
        if self.arg.startswith("~/"):
            return work / "home" / self.arg[2:]
        return work / "project" / self.arg

    def script(self, work: Path) -> list[tuple[str, dict[str, Any]]]:
        """The calls the stand-in makes for this probe; the last one is judged."""
        if self.tool.startswith("mcp__"):
            return [(self.tool, {})]
        calls: list[tuple[str, dict[str, Any]]] = _SCRIPTS[self.tool](self.arg,
                                                                       str(self.path(work)))
        return calls

    def prepare(self, work: Path) -> None:
        """The files the call needs: a file to read or edit (inside the session's folder),
        a notebook, a folder to list; a file to write must not exist yet."""
        if self.tool not in ("Read", "Edit", "Write", "NotebookEdit", "Glob", "Grep", "LS",
                             "MultiEdit"):
            return
        target = self.path(work)
        if work not in target.resolve().parents:
            return
        if self.tool in ("Glob", "Grep", "LS"):
            target.mkdir(parents=True, exist_ok=True)
            (target / "probe.txt").write_text("probe\n")
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        if self.tool == "NotebookEdit":
            target.write_text(_NOTEBOOK)
        elif self.tool != "Write" and not target.exists():
            target.write_text("probe-old\n")


def _agent(agent_type: str, prompt: str) -> tuple[str, dict[str, Any]]:
    return ("Agent", {"description": "probe", "prompt": prompt, "subagent_type": agent_type,
                      "run_in_background": False})


def _agent_bash(arg: str) -> list[tuple[str, dict[str, Any]]]:
    """The sub-agent's own turn: it runs the command; its result is judged."""
    agent_type, _, command = arg.partition("|")
    inner = json.dumps(["Bash", {"command": command, "description": "probe"}])
    return [_agent(agent_type, f"{SUBAGENT_MARK}\nCALL: {inner}\n")]


#: Each tool's probe script, from the call's argument and its path in the session.
_SCRIPTS: dict[str, Any] = {
    "Bash": lambda arg, _: [("Bash", {"command": arg, "description": "probe", "timeout": 5000})],
    "Monitor": lambda arg, _: [("Monitor", {"command": arg, "description": "probe"})],
    "Read": lambda _, path: [("Read", {"file_path": path})],
    "Edit": lambda _, path: [("Read", {"file_path": path}),
                             ("Edit", {"file_path": path, "old_string": "probe-old",
                                       "new_string": "probe-new"})],
    "Write": lambda _, path: [("Write", {"file_path": path, "content": "probe\n"})],
    "NotebookEdit": lambda _, path: [("Read", {"file_path": path}),
                                     ("NotebookEdit", {"notebook_path": path, "new_source": "y",
                                                       "cell_id": "c1", "edit_mode": "replace"})],
    "WebFetch": lambda arg, _: [("WebFetch", {"url": arg, "prompt": "probe"})],
    "Skill": lambda arg, _: [("Skill", {"skill": arg})],
    "Agent": lambda arg, _: [_agent(arg, f"{SUBAGENT_MARK}: say done")],
    "Agent:Bash": lambda arg, _: _agent_bash(arg),
    "Glob": lambda _, path: [("Glob", {"pattern": "*", "path": path})],
    "Grep": lambda _, path: [("Grep", {"pattern": "probe", "path": path})],
    # Tools the runtime does not have (legacy names, PowerShell on Linux): refused as such.
    "PowerShell": lambda arg, _: [("PowerShell", {"command": arg, "description": "probe"})],
    "LS": lambda _, path: [("LS", {"path": path})],
    "MultiEdit": lambda _, path: [("MultiEdit", {"file_path": path, "edits": []})],
}


#: What the domain probes ran (printed at the end of the run).
DOMAIN_TALLY: dict[str, int] = {}


class DomainJudge:
    """Runs sessions of domain probes against the pinned binary, ``workers`` at a time."""

    def __init__(self, binary: Path, standin: StandIn, workers: int = 2) -> None:
        self.binary = binary
        self.standin = standin
        self.workers = workers
        self.sessions = 0
        self.calls = 0
        self._lock = threading.Lock()

    def allowed(self, skill_text: str, calls: Sequence[Call]) -> dict[Call, bool]:
        """Which of ``calls`` the runtime pre-approves once the skill ``skill_text`` is loaded.
        A ``{home}`` in the skill text is the session's HOME."""
        for attempt in range(2):
            work = Path(tempfile.mkdtemp(prefix="sg-cd-", dir="/var/tmp"))
            try:
                return self._run(work, skill_text, list(dict.fromkeys(calls)))
            except subprocess.TimeoutExpired:
                # A session that outlasts its limit on a loaded machine says nothing about
                # the calls: run it once more, in a fresh folder, with a fresh script.
                if attempt:
                    raise
            finally:
                shutil.rmtree(work, ignore_errors=True)
        raise AssertionError("unreachable")

    def allowed_many(self, jobs: Iterable[tuple[str, Sequence[Call]]]) -> list[dict[Call, bool]]:
        with ThreadPoolExecutor(self.workers) as pool:
            return list(pool.map(lambda job: self.allowed(*job), jobs))

    def _run(self, work: Path, skill_text: str, calls: list[Call]) -> dict[Call, bool]:
        extra = _prepare(work, calls)
        script: list[tuple[str, dict[str, Any]]] = [("Skill", {"skill": SKILL_NAME})]
        judged: list[int] = []
        for call in calls:
            steps = call.script(work)
            script.extend(steps)
            judged.append(len(script) - 1)
        url, session = self.standin.session(script)
        text = skill_text.replace("{home}", str(work / "home"))
        # Streamed: a Monitor call ends in a notification that starts another turn, and the
        # one JSON object of `--output-format json` then holds only the last turn's denials.
        done, _ = run_session(self.binary, url, work, text, timeout=SESSION_TIMEOUT,
                              extra_args=[*extra, "--output-format", "stream-json", "--verbose"])
        denied = _denied(done.stdout)
        skill_id = session.call_id(0)
        if skill_id not in session.results or session.results[skill_id][0]:
            raise SessionBroken(f"the skill did not load (exit {done.returncode}): "
                                f"{session.results.get(skill_id)!r} {done.stderr[-300:]!r}")
        verdicts: dict[Call, bool] = {}
        for call, index in zip(calls, judged, strict=True):
            call_id = SUBAGENT_CALL_ID if call.tool == "Agent:Bash" else session.call_id(index)
            if call_id not in session.results:
                raise SessionBroken(f"no result for {call} (exit {done.returncode}): "
                                    f"{done.stderr[-300:]!r}")
            _, said = session.results[call_id]
            if "InputValidationError" in said:
                raise SessionBroken(f"the runtime rejected the input of {call}: {said[:200]!r}")
            verdicts[call] = not (call_id in denied or said.startswith(_PERMISSION_TEXT)
                                  or _NO_SUCH_TOOL in said)
        with self._lock:
            self.sessions += 1
            self.calls += len(calls)
        return verdicts


def _denied(stream: str) -> set[str]:
    """The ids of every call any result of the streamed session lists as denied."""
    found: set[str] = set()
    for line in stream.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict) and message.get("type") == "result":
            found |= {str(d.get("tool_use_id")) for d in message.get("permission_denials") or []}
    return found


def _prepare(work: Path, calls: Sequence[Call]) -> list[str]:
    """The session's folders and files for ``calls``; the command line's extra arguments."""
    for folder in ("home", "project", "outside"):
        (work / folder).mkdir(parents=True, exist_ok=True)
    for call in calls:
        call.prepare(work)
    if any(c.tool == "Skill" for c in calls):
        named = {c.arg for c in calls if c.tool == "Skill" and _SKILL_NAME.fullmatch(c.arg)}
        for name in sorted({*SKILLS, *named}):
            skill_dir = work / "project" / ".claude" / "skills" / name
            skill_dir.mkdir(parents=True, exist_ok=True)
            (skill_dir / "SKILL.md").write_text(
                f"---\nname: {name}\ndescription: a probe target\nallowed-tools: Read\n"
                "---\nSay done.\n")
    if not any(c.tool.startswith("mcp__") for c in calls):
        return []
    servers = {name: {"command": sys.executable,
                      "args": [str(MCP_SERVER_SCRIPT), ",".join(tools)]}
               for name, tools in MCP_SERVERS.items()}
    return ["--mcp-config", json.dumps({"mcpServers": servers}), "--strict-mcp-config"]
