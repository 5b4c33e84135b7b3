"""The call gate under the pinned Copilot CLI: ``skillgrant hook --dialect copilot-cli`` as the
preToolUse hook ``--print-config copilot-cli`` prints, in the project's
``.github/hooks/skillgrant.json``.

The runtime runs in prompt mode with every tool pre-approved (``--allow-all-tools``) and the
folder trusted (``--trust-folder``, so the project's hooks load), so without the gate it runs
every call; with it, the calls inside the plan run and the calls outside are denied, each with
the gate's reason and no effect on disk. A corrupt plan denies every call. Every answer the hook
gave is one JSON object, and none is ``allow``; the hook's time per call is measured against its
``timeoutSec`` (Copilot CLI runs the call when the hook times out).

Subagents (issue 33, Copilot CLI's ``task`` tool; the stand-in scripts a subagent by the marker
in the prompt its parent passes, ``cc_standin.marker``): the project's hook sees a subagent's
calls (its payload names ``agentId``, ``agentType`` and ``parentAgentId``) in the foreground
and the background, so the printed gate holds a subagent to the plan; a skill's
``allowed-tools`` reach its subagents (interactive); a skill's own ``hooks:`` (what ``apply
--enforce`` writes for Claude Code) are not run by Copilot CLI.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cp_fixture import copilot
from cp_probe import TALLY, CopilotJudge
from cp_runtime import SKILL_NAME, run_interactive, run_prompt, write_project
from cp_standin import marker

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
        if self.tool == "task":  # arg: "name mode agent_type"
            name, mode, kind = arg.split(" ")
            return {"description": "probe", "name": name, "agent_type": kind, "mode": mode,
                    "prompt": f"do it {marker(name)}"}
        if self.tool == "skill":
            return {"skill": arg}
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
    #: the payloads the hook was given, in order
    payloads: list[dict[str, Any]]


def _hook_file(work: Path, plan: Path) -> str:
    """The printed configuration (its command runs this interpreter by its absolute path,
    ``gate.config.executable``), with a log of each payload it was given and each answer."""
    text, warning = snippet("copilot-cli", {"--plan": str(plan),
                                            "--audit-log": str(work / "audit.jsonl")})
    assert "times out" in warning and "serve" in warning
    body = json.loads(text)
    (spec,) = body["hooks"]["preToolUse"]
    assert spec["timeoutSec"] == TIMEOUT_SECONDS
    command = spec["bash"]  # this interpreter, -m skillgrant (gate.config.executable)
    spec["bash"] = (f"set -o pipefail; tee -a {shlex.quote(str(work / 'payloads.log'))} "
                    f"| {command} "
                    f"| tee -a {shlex.quote(str(work / 'answers.log'))}")
    return json.dumps(body)


def _payloads(log: Path) -> list[dict[str, Any]]:
    """The JSON objects the hook read, one after another (a payload ends with no newline)."""
    text = log.read_text() if log.exists() else ""
    found: list[dict[str, Any]] = []
    at, decoder = 0, json.JSONDecoder()
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            return found
        value, at = decoder.raw_decode(text, at)
        found.append(value)


def session(copilot: CopilotJudge, calls: Sequence[Call], *, plan_text: str,
            gated: bool = True, subagents: Mapping[str, Sequence[Call]] | None = None,
            skill_text: str | None = None) -> Gated:
    """One prompt-mode session of ``calls`` (and the ``subagents``' calls, by name) with every
    tool pre-approved, gated by the printed hook with ``plan_text`` unless not ``gated``."""
    work = Path(tempfile.mkdtemp(prefix="sg-cpgate-", dir="/var/tmp"))
    try:
        (work / "outside" / "ok").mkdir(parents=True)
        (work / "outside" / "ok" / "notes.txt").write_text("notes\n")
        (work / "outside" / "secret.txt").write_text("secret\n")
        plan = work / "plan.yaml"
        plan.write_text(plan_text.replace("{work}", str(work).lstrip("/")))
        write_project(work, skill_text,
                      hook_file_text=_hook_file(work, plan) if gated else None)
        (work / "project" / "victim").write_text("keep me\n")
        subs = dict(subagents or {})
        url, script = copilot.standin.session(
            [(c.tool, c.tool_input(work)) for c in calls],
            {name: [(c.tool, c.tool_input(work)) for c in sub] for name, sub in subs.items()})
        done = run_prompt(copilot.binary, url, work, ["--trust-folder", "--allow-all-tools"])
        ids = [(script.call_id(i), c) for i, c in enumerate(calls)] + [
            (script.sub_id(name, i), c) for name, sub in subs.items() for i, c in enumerate(sub)]
        results = {}
        for call_id, call in ids:
            got = script.results.get(call_id)
            assert got is not None, f"no result for {call} (exit {done.returncode}): " \
                                    f"{done.stderr[-400:]!r}"
            results[call] = got[1]
        files = {str(p.relative_to(work)) for p in work.rglob("*")
                 if ".git" not in p.parts and ".github" not in p.parts}
        log = work / "answers.log"
        answers = log.read_text().splitlines() if log.exists() else []
        return Gated(results, files, (work / "project" / "victim").exists(), answers,
                     _payloads(work / "payloads.log"))
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
    command = spec["bash"]
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


# --- subagents (issue 33): Copilot CLI's `task` tool --------------------------------------------

SUB_PLAN = """\
allowed-tools:
  - Bash(echo *)
  - Bash(sleep *)
  - Agent(general-purpose)
"""
#: Each subagent's script: a call inside the plan (its output shows it ran), one outside it.
SUBAGENTS = {name: (Call("bash", f"echo ran-{name}", True),
                    Call("bash", f"touch sub-{name}", False, f"project/sub-{name}"))
             for name in ("fg", "bg")}
SUB_CALLS = (Call("task", "fg sync general-purpose", True),
             Call("task", "bg background general-purpose", True),
             Call("task", "ex sync explore", False),
             Call("bash", "sleep 8", True))  # the background subagent's time to finish


def _sub_session(copilot: CopilotJudge, gated: bool) -> Gated:
    return session(copilot, SUB_CALLS, plan_text=SUB_PLAN, gated=gated,
                   subagents={"ex": [], **{n: list(calls) for n, calls in SUBAGENTS.items()}})


def test_the_gate_holds_a_subagent_to_the_plan(copilot: CopilotJudge) -> None:
    """The project's hook sees each subagent's calls, foreground and background (the payload
    names the subagent and its parent); the gate lets a ``task`` the plan grants start, runs
    the subagent's call inside the plan and denies the one outside it; without the gate the
    runtime runs it."""
    gated = _sub_session(copilot, gated=True)
    control = _sub_session(copilot, gated=False)
    wrong = []
    for call in [*SUB_CALLS, *(c for calls in SUBAGENTS.values() for c in calls)]:
        text = gated.results[call]
        denied = text.startswith(DENIED) and "skillgrant" in text
        if denied == call.inside:
            wrong.append(f"{call}: {text[:200]}")
        if call.leaves is not None and call.leaves in gated.files:
            wrong.append(f"{call}: {call.leaves} written")
    for name, (echo, _) in SUBAGENTS.items():
        if f"ran-{name}" not in gated.results[echo]:
            wrong.append(f"{echo} did not run: {gated.results[echo][:200]}")
    seen = {p["toolArgs"].get("command"): p for p in gated.payloads
            if p.get("toolName") == "bash" and isinstance(p.get("toolArgs"), dict)}
    for calls in SUBAGENTS.values():
        for call in calls:
            payload = seen.get(call.arg, {})
            if not (payload.get("agentId") and payload.get("parentAgentId")
                    and payload.get("agentType") == "general-purpose"):
                wrong.append(f"the hook's payload for {call} names no subagent: {payload}")
    ran = [c for calls in SUBAGENTS.values() for c in calls
           if c.leaves is not None and c.leaves in control.files]
    TALLY["subagent gate calls"] = TALLY.get("subagent gate calls", 0) + len(gated.results)
    assert wrong == [], "\n".join(wrong)
    assert len(ran) == len(SUBAGENTS), (control.files, control.results)


def _interactive(copilot: CopilotJudge, skill_text: str,
                 script: Sequence[Call], subagents: Mapping[str, Sequence[Call]]
                 ) -> tuple[frozenset[int], set[str]]:
    work = Path(tempfile.mkdtemp(prefix="sg-cpsub-", dir="/var/tmp"))
    try:
        write_project(work, skill_text)
        url, played = copilot.standin.session(
            [(c.tool, c.tool_input(work)) for c in script],
            {name: [(c.tool, c.tool_input(work)) for c in sub] for name, sub in subagents.items()})
        shown = run_interactive(copilot.binary, url, played, work)
        loaded = played.results.get(played.call_id(0), (True, ""))[1]
        assert loaded.startswith(f'Skill "{SKILL_NAME}" loaded'), (loaded, shown.screen[-600:])
        return shown.asked, {p.name for p in (work / "project").iterdir()
                             if not p.name.startswith(".")}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_a_skills_allowed_tools_reach_its_subagents(copilot: CopilotJudge) -> None:
    """Interactive (where Copilot CLI honours ``allowed-tools``): the skill pre-approves
    ``Bash(touch:*)``, the session nothing; the subagent's ``touch`` runs without a question.
    With ``Bash(echo:*)`` instead, the same call is put to the person (the harness says no)."""
    script = [Call("skill", SKILL_NAME, True), Call("task", "sub sync general-purpose", True)]
    subs = {"sub": [Call("bash", "touch by-sub", True, "project/by-sub")]}
    results = {}
    for grant in ("Bash(touch:*)", "Bash(echo:*)"):
        text = f"---\nname: {SKILL_NAME}\ndescription: probe\nallowed-tools: {grant}\n---\nprobe\n"
        results[grant] = _interactive(copilot, text, script, subs)
    TALLY["subagent interactive sessions"] = len(results)
    assert results["Bash(touch:*)"] == (frozenset(), {"by-sub"}), results
    asked, files = results["Bash(echo:*)"]
    assert asked == {1} and "by-sub" not in files, results


def test_a_skills_own_hooks_do_not_run_under_copilot(copilot: CopilotJudge) -> None:
    """What ``apply --enforce`` writes (a ``hooks:`` key in the skill, Claude Code's form) is
    not run by Copilot CLI: with every tool pre-approved, the loaded skill's hook would deny
    ``touch out1`` (outside the plan), and it runs. Under Copilot CLI the gate is the printed
    project hook (above)."""
    from skillgrant.gate.config import command as hook_command
    from skillgrant.plan.model import Plan
    from skillgrant.skillfile.builder import apply_to_text

    folder = Path(tempfile.mkdtemp(prefix="sg-cpenf-", dir="/var/tmp"))
    try:
        plan = folder / "plan.json"
        plan.write_text(json.dumps({"allowed-tools": ["Bash(touch in*)"]}))
        submitted = (f"---\nname: {SKILL_NAME}\ndescription: probe\n"
                     "allowed-tools: Bash(touch *)\n---\nprobe\n")
        text, _ = apply_to_text(submitted, Plan.load(plan),
                                enforce=hook_command("claude-code", str(plan)))
        assert "hooks:" in text
        calls = (Call("skill", SKILL_NAME, True), Call("bash", "touch out1", False, "project/out1"))
        got = session(copilot, calls, plan_text="allowed-tools: []\n", gated=False,
                      skill_text=text)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert got.results[calls[0]].startswith(f'Skill "{SKILL_NAME}" loaded'), got.results
    assert "project/out1" in got.files, got.results
