"""The scripted calls of the call gate's end-to-end tests, and one session of the pinned Claude
Code running them with a PreToolUse hook (``test_gate_e2e.py``: the ``skillgrant hook``
command; ``test_service_e2e.py``: an ``http`` hook posting to ``skillgrant serve``).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cc_probe import TALLY, Judge
from cc_runtime import run_session

#: The PreToolUse hook entry for a session: given the session folder and the plan file.
HookEntry = Callable[[Path, Path], dict[str, Any]]

WIDE = ["--allowedTools", "Bash", "Read", "Edit", "Write"]


@dataclass(frozen=True)
class Call:
    """A scripted call, the file its effect would leave (relative to the session folder), and
    whether P covers it."""

    tool: str
    arg: str
    inside: bool
    leaves: str | None = None

    def tool_input(self, work: Path) -> dict[str, Any]:
        arg = self.arg.replace("{work}", str(work))
        if self.tool == "Bash":
            return {"command": arg, "description": "probe", "timeout": 5000}
        if self.tool == "Read":
            return {"file_path": arg}
        if self.tool == "Write":
            return {"file_path": arg, "content": "gated\n"}
        return {"cmd": arg}


PLAN = """\
allowed-tools:
  - Bash(touch *)
  - Bash(echo *)
  - Bash(mkdir -p out)
  - Read(//{work}/outside/ok/**)
  - Edit(//{work}/project/out/**)
"""

CALLS = (
    Call("Bash", "touch in1", True, "project/in1"),
    Call("Bash", "touch in2 && touch in3", True, "project/in3"),
    Call("Bash", "mkdir -p out", True, "project/out"),
    Call("Bash", "echo gated > out/log.txt", True, "project/out/log.txt"),
    Call("Bash", "touch in4 2>/dev/null; touch in5", True, "project/in5"),
    Call("Read", "{work}/outside/ok/notes.txt", True),
    Call("Bash", "rm -f victim", False),
    Call("Bash", "touch out1 && rm -f victim", False, "project/out1"),
    Call("Bash", "touch out2 $(rm -f victim)", False, "project/out2"),
    Call("Bash", "touch `echo out3`", False, "project/out3"),
    Call("Bash", "echo pwned > {work}/outside/pwned.txt", False, "outside/pwned.txt"),
    Call("Bash", "echo pwned > ../outside/pwned2.txt", False, "outside/pwned2.txt"),
    Call("Bash", "timeout 5 rm -f victim", False),
    Call("Bash", "bash -c 'touch out4'", False, "project/out4"),
    Call("Bash", "FOO=1 touch out5", False, "project/out5"),
    Call("Bash", "touch out6 | rm -f victim", False),
    Call("Read", "{work}/outside/secret.txt", False),
    # (a Write: the runtime refuses an Edit of a file not read first, before any hook runs)
    Call("Write", "{work}/outside/new.txt", False, "outside/new.txt"),
    Call("exec_command", "rm -f victim", False),
)


@dataclass
class Session:
    results: dict[Call, tuple[bool, str]]
    files: set[str]
    victim: bool


def session(judge: Judge, calls: Sequence[Call], *, hook: HookEntry | None,
            plan_text: str, env: dict[str, str] | None = None) -> Session:
    """Run ``calls`` in a fresh folder with the plan ``plan_text`` written to ``plan.yaml``,
    the hook ``hook`` gives (none: the control) with its audit log at ``audit.jsonl``, and
    ``env`` added to the runtime's environment."""
    work = Path(tempfile.mkdtemp(prefix="sg-gate-", dir="/var/tmp"))
    try:
        (work / "outside" / "ok").mkdir(parents=True)
        (work / "outside" / "ok" / "notes.txt").write_text("notes\n")
        (work / "outside" / "secret.txt").write_text("probe-old\n")
        (work / "project").mkdir()
        (work / "project" / "victim").write_text("keep me\n")
        plan = work / "plan.yaml"
        plan.write_text(plan_text.replace("{work}", str(work).lstrip("/")))
        settings = None
        if hook is not None:
            hooks: dict[str, Any] = {"PreToolUse": [{"matcher": "*",
                                                     "hooks": [hook(work, plan)]}]}
            start = getattr(hook, "session_start", None)  # (the service's: registry.py)
            if start is not None:
                hooks["SessionStart"] = [{"hooks": [start]}]
            settings = {"hooks": hooks}
        url, script = judge.standin.session([(c.tool, c.tool_input(work)) for c in calls])
        done, _ = run_session(judge.binary, url, work, None, extra_args=WIDE, settings=settings,
                              env=env)
        results = {}
        for i, call in enumerate(calls):
            got = script.results.get(script.call_id(i))
            assert got is not None, f"no result for {call} (exit {done.returncode}): " \
                                    f"{done.stderr[-400:]!r}"
            results[call] = got
        files = {str(p.relative_to(work)) for p in work.rglob("*")
                 if ".git" not in p.parts and ".claude" not in p.parts}
        victim = (work / "project" / "victim").exists()
        if hook is not None and (work / "audit.jsonl").exists():
            audit = (work / "audit.jsonl").read_text().splitlines()
            for line in audit:
                json.loads(line)  # every record whole
            TALLY["gate audit records"] = TALLY.get("gate audit records", 0) + len(audit)
        return Session(results, files, victim)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def denied_by_gate(result: tuple[bool, str]) -> bool:
    return result[0] and "skillgrant" in result[1]


def wrong_decisions(gated: Session, by: str) -> list[str]:
    """What went against the script's expectations: a call inside the plan refused, one
    outside not denied by ``by`` (the gate or the service), a file there or missing. The
    victim file must have survived."""
    wrong = []
    for call, result in gated.results.items():
        if call.inside and result[0]:
            wrong.append(f"inside the plan but refused: {call} -> {result[1][:200]}")
        if not call.inside and call.tool != "exec_command" and not denied_by_gate(result):
            wrong.append(f"outside the plan but not denied by the {by}: {call} -> "
                         f"{result[1][:200]}")
        if call.leaves is not None and (call.leaves in gated.files) != call.inside:
            wrong.append(f"{call}: {call.leaves} {'missing' if call.inside else 'written'}")
    assert gated.victim, "a call outside the plan removed the victim file"
    return wrong
