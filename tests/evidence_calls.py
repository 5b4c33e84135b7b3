"""Generated evidence for the suggest and replay tests and the benchmark: calls an agent makes
(commands with subcommands, redirections, reads, writes, searches, fetches, and calls the gate
does not understand), written as skillgrant audit records, Claude Code transcript lines (the
shape the pinned runtime writes, tests/conformance/test_suggest_e2e.py) or Copilot CLI events.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from typing import Any

CWD = "/w/project"

_PROGRAMS = [
    ("git", ["status", "log", "diff", "show", "add", "commit", "fetch"], ["-5", "--oneline",
                                                                         "src", "-m x"]),
    ("npm", ["run test", "run build", "install", "ci"], ["--", "-u", "--silent"]),
    ("gh", ["pr list", "pr view", "issue list"], ["--json number", "-L 5", "12"]),
    ("ls", [""], ["-la", "src", "docs", "-1"]),
    ("git", ["status", "rev-parse"], ["--short", "HEAD", "-s"]),
    ("grep", [""], ["-n", "-r TODO", "src", "-i"]),
    ("cat", [""], ["README.md", "src/a.py", "docs/x.md"]),
    ("pytest", [""], ["-q", "tests", "-x"]),
    ("make", ["build", "test", "lint"], ["-j2", "V=1"]),
]
#: Calls the gate does not understand (each listed as not suggestible).
# A substitution is judged now (issue 29): `echo $(id)` is understood, one of `eval` is not.
UNDERSTOOD_NOT = ["eval \"$X\"", "bash -c 'ls'", "echo $(eval \"$X\")", "sudo make install",
                  "find . -exec rm {} +", "if [[ -n x ]]; then ls; fi"]


def make_calls(count: int, seed: int = 0, *, odd: bool = True) -> list[tuple[str, dict[str, Any]]]:
    """``count`` calls (tool, input), drawn with ``seed``; ``odd`` mixes in calls the gate does
    not understand."""
    rng = random.Random(seed)
    calls: list[tuple[str, dict[str, Any]]] = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.55:
            calls.append(("Bash", {"command": _command(rng)}))
        elif roll < 0.68:
            calls.append(("Read", {"file_path": f"{CWD}/{rng.choice(['src', 'docs'])}/"
                                                f"f{rng.randrange(30)}.py"}))
        elif roll < 0.76:
            calls.append(("Write", {"file_path": f"out/r{rng.randrange(20)}.txt",
                                    "content": "x" * rng.randrange(5)}))
        elif roll < 0.82:
            calls.append(("Glob", {"pattern": "**/*.py"}))
        elif roll < 0.88:
            host = rng.choice(["docs.python.org", "example.com", "api.github.com"])
            calls.append(("WebFetch", {"url": f"https://{host}/p{rng.randrange(9)}",
                                       "prompt": "read"}))
        elif roll < 0.92:
            calls.append(("mcp__gh__list_issues", {"repo": "a/b"}))
        elif odd and roll < 0.97:
            calls.append(("Bash", {"command": rng.choice(UNDERSTOOD_NOT)}))
        else:
            calls.append(("Bash", {"command": f"{_command(rng)} && {_command(rng)}"}))
    return calls


def _command(rng: random.Random) -> str:
    program, subs, args = rng.choice(_PROGRAMS)
    # An agent writes a command's options in one order (sorted here): the distinct commands
    # stay a few hundred, as a plan of exact entries for what the table does not group can
    # hold (MAX_ENTRIES_PER_VALUE).
    words = [program, rng.choice(subs),
             *sorted(rng.sample(args, rng.randrange(len(args) + 1)))]
    command = " ".join(w for w in words if w)
    if rng.random() < 0.1:
        command += f" > out/log{rng.randrange(3)}.txt"
    return command


def audit_lines(calls: Iterable[tuple[str, dict[str, Any]]], cwd: str = CWD) -> str:
    """The calls as audit records (the fields a reader needs; decision as logged)."""
    return "".join(json.dumps({
        "time": "2026-12-03T00:00:00.000Z", "session_id": "s", "runtime_tool": tool,
        "tool": tool, "decision": "none", "status": "covered", "reason": "",
        "covered_by": [], "witness": None, "plan_digest": None, "dialect": "claude-code",
        "observed": True, "input": tool_input, "cwd": cwd}) + "\n" for tool, tool_input in calls)


def transcript_lines(calls: Sequence[tuple[str, dict[str, Any]]], cwd: str = CWD) -> str:
    """The calls as Claude Code transcript lines: an assistant message with a ``tool_use``
    block each, then the user's ``tool_result``, with the fields the runtime writes."""
    out = [json.dumps({"type": "queue-operation", "operation": "enqueue",
                       "sessionId": "s", "timestamp": "t"})]
    for i, (tool, tool_input) in enumerate(calls):
        out.append(json.dumps({
            "type": "assistant", "cwd": cwd, "sessionId": "s", "uuid": f"a{i}",
            "isSidechain": False, "message": {"id": f"msg_{i}", "role": "assistant",
                                               "content": [{"type": "tool_use", "id": f"t{i}",
                                                            "name": tool,
                                                            "input": tool_input}]}}))
        out.append(json.dumps({
            "type": "user", "cwd": cwd, "sessionId": "s", "uuid": f"u{i}",
            "message": {"role": "user", "content": [{"type": "tool_result",
                                                     "tool_use_id": f"t{i}",
                                                     "content": "ok"}]}}))
    return "\n".join(out) + "\n"


def copilot_lines(calls: Sequence[tuple[str, dict[str, Any]]], cwd: str = CWD) -> str:
    """The calls as Copilot CLI ``events.jsonl`` lines, from its documented envelope (no real
    file was produced here: the Copilot harness is another issue's)."""
    out = [json.dumps({"type": "session.start", "id": "e0", "timestamp": "t", "parentId": None,
                       "data": {"sessionId": "s", "version": 1, "producer": "copilot-agent",
                                "context": {"cwd": cwd}}})]
    for i, (tool, arguments) in enumerate(calls):
        out.append(json.dumps({"type": "tool.execution_start", "id": f"e{i + 1}",
                               "timestamp": "t", "parentId": "e0",
                               "data": {"toolCallId": f"c{i}", "toolName": tool,
                                        "arguments": arguments}}))
    return "\n".join(out) + "\n"
