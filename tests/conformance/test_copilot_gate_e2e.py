"""The call gate under the pinned Copilot CLI: ``skillgrant hook --dialect copilot-cli`` as the
preToolUse hook ``--print-config copilot-cli`` prints, in the project's
``.github/hooks/skillgrant.json``.

The runtime runs in prompt mode with every tool pre-approved (``--allow-all-tools``) and the
folder trusted (``--trust-folder``, so the project's hooks load), so without the gate it runs
every call; with it, the calls inside the plan run and the calls outside are denied, each with
the gate's reason and no effect on disk. A corrupt plan denies every call. Every answer the hook
gave is one JSON object, and none is ``allow``; the hook's time per call is measured against its
``timeoutSec`` (Copilot CLI runs the call when the hook times out).
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cp_fixture import copilot
from cp_probe import TALLY, CopilotJudge
from cp_runtime import run_prompt, write_project

from skillgrant.gate.config import TIMEOUT_SECONDS, snippet

__all__ = ["copilot"]

PLAN = """\
allowed-tools:
  - Bash(touch *)
  - Bash(echo *)
  - Bash(mkdir -p out)
  - Read(//{work}/outside/ok/**)
  - Edit(//{work}/project/out/**)
"""


@dataclass(frozen=True)
class Call:
    """A scripted Copilot CLI call, the file its effect would leave, and whether P covers it."""

    tool: str
    arg: str
    inside: bool
    leaves: str | None = None

    def tool_input(self, work: Path) -> dict[str, Any]:
        arg = self.arg.replace("{work}", str(work))
        if self.tool == "bash":
            return {"command": arg, "description": "probe", "initial_wait": 5}
        if self.tool == "view":
            return {"path": arg}
        return {"path": arg, "file_text": "gated\n"}


CALLS = (
    Call("bash", "touch in1", True, "project/in1"),
    Call("bash", "touch in2 && touch in3", True, "project/in3"),
    Call("bash", "mkdir -p out", True, "project/out"),
    Call("bash", "echo gated > out/log.txt", True, "project/out/log.txt"),
    Call("view", "{work}/outside/ok/notes.txt", True),
    Call("bash", "rm -f victim", False),
    Call("bash", "touch out1 && rm -f victim", False, "project/out1"),
    Call("bash", "echo pwned > {work}/outside/pwned.txt", False, "outside/pwned.txt"),
    Call("bash", "timeout 5 rm -f victim", False),
    Call("bash", "bash -c 'touch out4'", False, "project/out4"),
    Call("bash", "touch out6 | rm -f victim", False),
    Call("view", "{work}/outside/secret.txt", False),
    Call("create", "{work}/outside/new.txt", False, "outside/new.txt"),
)
DENIED = "Denied by preToolUse hook"


@dataclass
class Gated:
    results: dict[Call, str]
    files: set[str]
    victim: bool
    answers: list[str]


def _hook_file(work: Path, plan: Path) -> str:
    """The printed configuration, its command run by this interpreter (the console script may
    not be on the jail's PATH), and a log of each answer the hook gave."""
    text, warning = snippet("copilot-cli", {"--plan": str(plan),
                                            "--audit-log": str(work / "audit.jsonl")})
    assert "times out" in warning and "serve" in warning
    body = json.loads(text)
    (spec,) = body["hooks"]["preToolUse"]
    assert spec["timeoutSec"] == TIMEOUT_SECONDS
    command = spec["bash"].replace("skillgrant", shlex.join([sys.executable, "-m",
                                                              "skillgrant"]), 1)
    spec["bash"] = f"{command} | tee -a {shlex.quote(str(work / 'answers.log'))}"
    return json.dumps(body)


def session(copilot: CopilotJudge, calls: Sequence[Call], *, plan_text: str,
            gated: bool = True) -> Gated:
    work = Path(tempfile.mkdtemp(prefix="sg-cpgate-", dir="/var/tmp"))
    try:
        (work / "outside" / "ok").mkdir(parents=True)
        (work / "outside" / "ok" / "notes.txt").write_text("notes\n")
        (work / "outside" / "secret.txt").write_text("secret\n")
        plan = work / "plan.yaml"
        plan.write_text(plan_text.replace("{work}", str(work).lstrip("/")))
        write_project(work, None, hook_file_text=_hook_file(work, plan) if gated else None)
        (work / "project" / "victim").write_text("keep me\n")
        url, script = copilot.standin.session([(c.tool, c.tool_input(work)) for c in calls])
        done = run_prompt(copilot.binary, url, work, ["--trust-folder", "--allow-all-tools"])
        results = {}
        for i, call in enumerate(calls):
            got = script.results.get(script.call_id(i))
            assert got is not None, f"no result for {call} (exit {done.returncode}): " \
                                    f"{done.stderr[-400:]!r}"
            results[call] = got[1]
        files = {str(p.relative_to(work)) for p in work.rglob("*")
                 if ".git" not in p.parts and ".github" not in p.parts}
        log = work / "answers.log"
        answers = log.read_text().splitlines() if log.exists() else []
        return Gated(results, files, (work / "project" / "victim").exists(), answers)
    finally:
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def gated(copilot: CopilotJudge) -> Gated:
    return session(copilot, CALLS, plan_text=PLAN)


def test_calls_inside_the_plan_run_and_calls_outside_it_are_denied(gated: Gated) -> None:
    wrong = []
    for call, text in gated.results.items():
        denied = text.startswith(DENIED) and "skillgrant" in text
        if call.inside and denied:
            wrong.append(f"inside the plan but denied: {call} -> {text[:200]}")
        if not call.inside and not denied:
            wrong.append(f"outside the plan but not denied by the gate: {call} -> {text[:200]}")
        if call.leaves is not None and (call.leaves in gated.files) != call.inside:
            wrong.append(f"{call}: {call.leaves} {'missing' if call.inside else 'written'}")
    assert gated.victim, "a call outside the plan removed the victim file"
    TALLY["gate calls"] = TALLY.get("gate calls", 0) + len(gated.results)
    TALLY["gate denials"] = TALLY.get("gate denials", 0) + sum(
        t.startswith(DENIED) for t in gated.results.values())
    assert not wrong, "\n".join(wrong)


def test_every_answer_is_one_json_object_and_none_is_allow(gated: Gated) -> None:
    """The hook's whole standard output, per call, as logged: one object a line, a deny or no
    decision (``{}``), never an allow."""
    assert len(gated.answers) >= len(CALLS), gated.answers
    decisions = [json.loads(line).get("permissionDecision") for line in gated.answers]
    assert set(decisions) <= {"deny", None}, decisions
    assert decisions.count("deny") == sum(not c.inside for c in CALLS)


def test_without_the_gate_the_runtime_runs_the_calls_outside_the_plan(
        copilot: CopilotJudge) -> None:
    control = session(copilot, CALLS, plan_text=PLAN, gated=False)
    assert not control.victim
    ran = [c for c in CALLS if not c.inside and not control.results[c].startswith(DENIED)]
    TALLY["gate control calls run"] = TALLY.get("gate control calls run", 0) + len(ran)
    assert len(ran) == sum(not c.inside for c in CALLS), control.results


def test_a_corrupt_plan_denies_every_call(copilot: CopilotJudge) -> None:
    calls = [c for c in CALLS if c.inside][:3]
    broken = session(copilot, calls, plan_text="allowed-tools: [Bash(touch *\n")
    assert all(t.startswith(DENIED) and "failed closed" in t for t in broken.results.values()), \
        broken.results
    assert not any(c.leaves in broken.files for c in calls if c.leaves)
    TALLY["gate failure denials"] = TALLY.get("gate failure denials", 0) + len(calls)


def test_the_hook_answers_well_inside_its_timeout(tmp_path: Path) -> None:
    """The printed command's time per call, measured here (no assertion on time: the figure
    goes to the summary, the margin is timeoutSec over the slowest call)."""
    plan = tmp_path / "plan.yaml"
    plan.write_text(PLAN.replace("{work}", str(tmp_path).lstrip("/")))
    text, _ = snippet("copilot-cli", {"--plan": str(plan)})
    (spec,) = json.loads(text)["hooks"]["preToolUse"]
    command = spec["bash"].replace("skillgrant", shlex.join([sys.executable, "-m",
                                                              "skillgrant"]), 1)
    slowest = 0.0
    for call in CALLS:
        payload = {"sessionId": "s", "timestamp": 1767225600000, "cwd": str(tmp_path),
                   "toolName": call.tool, "toolArgs": call.tool_input(tmp_path)}
        start = time.monotonic()
        done = subprocess.run(["/bin/sh", "-c", command], input=json.dumps(payload).encode(),
                              capture_output=True, timeout=spec["timeoutSec"], check=False)
        slowest = max(slowest, time.monotonic() - start)
        json.loads(done.stdout)  # one JSON object on every path
    TALLY["hook's slowest call (ms)"] = round(slowest * 1000)
    TALLY["timeoutSec margin (x)"] = int(spec["timeoutSec"] / max(slowest, 1e-3))
