"""The call gate end to end: ``skillgrant hook --plan P`` as the PreToolUse hook of the pinned
Claude Code, in a project whose ``.claude/settings.json`` runs it.

The runtime is given a tool-wide pre-approval (``--allowedTools Bash Read Edit Write``), so
without the gate it runs every probe; with the gate, the calls inside P run and the calls
outside P are denied, each with the gate's reason and no effect on disk. A control session
without the hook shows the runtime itself would have run them. A corrupt plan makes the hook
fail: every call is denied, the one inside P too.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from cc_probe import TALLY, Judge
from cc_runtime import run_session
from gate_sessions import (
    CALLS,
    PLAN,
    WIDE,
    Session,
    denied_by_gate,
    session,
    wrong_decisions,
)


def command_hook(work: Path, plan: Path) -> dict[str, Any]:
    """The ``skillgrant hook`` command as the PreToolUse hook, with onFailure: block."""
    command = f"{sys.executable} -P -m skillgrant hook --plan {plan} --audit-log {work}/audit.jsonl"
    return {"type": "command", "command": command, "timeout": 30, "onFailure": "block"}


@pytest.fixture(scope="module")
def gated(judge: Judge) -> Session:
    return session(judge, CALLS, hook=command_hook, plan_text=PLAN)


def test_calls_inside_the_plan_run_and_calls_outside_it_are_denied(gated: Session) -> None:
    wrong = wrong_decisions(gated, "gate")
    TALLY["gate calls"] = TALLY.get("gate calls", 0) + len(gated.results)
    TALLY["gate denials"] = TALLY.get("gate denials", 0) + sum(
        denied_by_gate(r) for r in gated.results.values())
    assert not wrong, "\n".join(wrong)


def test_without_the_gate_the_runtime_runs_the_calls_outside_the_plan(judge: Judge) -> None:
    """The control: the same script, no hook. The runtime's tool-wide pre-approval lets the
    calls outside the plan through, so the gate is what denied them."""
    control = session(judge, CALLS, hook=None, plan_text=PLAN)
    outside = [c for c in CALLS if not c.inside and c.tool != "exec_command"]
    ran = [c for c in outside if not control.results[c][0]]
    TALLY["gate control calls run"] = TALLY.get("gate control calls run", 0) + len(ran)
    assert not control.victim
    # `timeout`, `bash -c`, substitutions and paths outside the project are the runtime's to
    # refuse or not; everything plainly pre-approved by the tool-wide rule must have run.
    plain = [c for c in outside if c.arg in ("rm -f victim", "FOO=1 touch out5")]
    assert all(c in ran for c in plain), {str(c): control.results[c] for c in plain}
    assert len(ran) >= len(outside) // 2, {str(c): control.results[c][1][:120] for c in outside}


def test_a_tool_the_runtime_does_not_have_never_reaches_the_gate(gated: Session) -> None:
    """``exec_command`` is Codex's; Claude Code refuses it before any hook runs (the gate's
    translation of it is tested on payloads, tests/gate/)."""
    call = next(c for c in CALLS if c.tool == "exec_command")
    refused, text = gated.results[call]
    assert refused and "No such tool" in text


def test_a_hook_that_fails_denies_every_call(judge: Judge) -> None:
    """A corrupt plan: the hook cannot load it, answers with a denial and exit 2, and the call
    inside the plan is denied too."""
    calls = [c for c in CALLS if c.inside][:3]
    broken = session(judge, calls, hook=command_hook, plan_text="allowed-tools: [Bash(touch *\n")
    assert all(denied_by_gate(r) and "failed closed" in r[1] for r in broken.results.values()), \
        broken.results
    assert not any(c.leaves in broken.files for c in calls if c.leaves)
    TALLY["gate failure denials"] = TALLY.get("gate failure denials", 0) + len(calls)


def test_apply_enforce_makes_the_plan_a_ceiling_for_the_skill(judge: Judge) -> None:
    """``apply --enforce``: the skill-scoped hook it writes is installed when the skill loads
    and denies the calls outside the plan that the skill's own allowed-tools (and here the
    tool-wide pre-approval) would let through."""
    from cc_runtime import SKILL_NAME

    from skillgrant.gate.config import command as hook_command
    from skillgrant.plan.model import Plan
    from skillgrant.skillfile.builder import apply_to_text

    work = Path(tempfile.mkdtemp(prefix="sg-enforce-", dir="/var/tmp"))
    try:
        plan_file = work / "plan.json"
        plan_file.write_text(json.dumps({"allowed-tools": ["Bash(touch in*)"]}))
        submitted = ("---\nname: probe\ndescription: probe\n"
                     "allowed-tools: Bash(touch *), Bash(rm *)\n---\nprobe\n")
        run = hook_command("claude-code", str(plan_file))  # this interpreter, -m
        text, _ = apply_to_text(submitted, Plan.load(plan_file), enforce=run)
        (work / "project").mkdir()
        (work / "project" / "victim").write_text("keep me\n")
        script = [("Skill", {"skill": SKILL_NAME}),
                  ("Bash", {"command": "touch in1", "description": "probe"}),
                  ("Bash", {"command": "touch out1", "description": "probe"}),
                  ("Bash", {"command": "rm -f victim", "description": "probe"})]
        url, session = judge.standin.session(script)
        run_session(judge.binary, url, work, text, extra_args=WIDE)
        results = [session.results.get(session.call_id(i)) for i in range(len(script))]
        assert all(r is not None for r in results), results
        loaded, inside, touched, removed = (r for r in results if r is not None)
        assert not loaded[0] and not inside[0], results
        assert denied_by_gate(touched) and denied_by_gate(removed), results
        assert (work / "project" / "in1").exists() and not (work / "project" / "out1").exists()
        assert (work / "project" / "victim").exists()
        TALLY["gate enforce calls"] = TALLY.get("gate enforce calls", 0) + len(script)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_enforce_knows_the_skill_folder_for_claude_skill_dir(judge: Judge) -> None:
    """A skill that names its own scripts by ``${CLAUDE_SKILL_DIR}``: the hook ``apply
    --enforce`` writes gets the skill's folder (``--skill-dir``), so the script the plan
    approves runs, and a script beside it is denied."""
    from cc_runtime import SKILL_NAME

    from skillgrant.gate.config import command as hook_command
    from skillgrant.plan.model import Plan
    from skillgrant.skillfile.builder import apply_to_text

    work = Path(tempfile.mkdtemp(prefix="sg-skilldir-", dir="/var/tmp"))
    try:
        folder = work / "project" / ".claude" / "skills" / SKILL_NAME
        folder.mkdir(parents=True)
        for name in ("approved.sh", "other.sh"):
            script = folder / name
            script.write_text(f"#!/bin/sh\ntouch ran-{name}\n")
            script.chmod(0o755)
        rule = "Bash(${CLAUDE_SKILL_DIR}/approved.sh)"
        plan_file = work / "plan.json"
        plan_file.write_text(json.dumps({"allowed-tools": [rule]}))
        submitted = f"---\nname: probe\ndescription: probe\nallowed-tools: {rule}\n---\nprobe\n"
        run = hook_command("claude-code", str(plan_file))  # this interpreter, -m
        text, _ = apply_to_text(submitted, Plan.load(plan_file), enforce=run,
                                path=str(folder / "SKILL.md"))
        script_calls = [("Bash", {"command": str(folder / name), "description": "probe"})
                        for name in ("approved.sh", "other.sh")]
        url, session = judge.standin.session([("Skill", {"skill": SKILL_NAME}), *script_calls])
        run_session(judge.binary, url, work, text, extra_args=WIDE)
        results = [session.results.get(session.call_id(i)) for i in range(3)]
        assert all(r is not None for r in results), results
        loaded, approved, other = (r for r in results if r is not None)
        assert not loaded[0] and not approved[0], results
        assert denied_by_gate(other), results
        assert (work / "project" / "ran-approved.sh").exists()
        assert not (work / "project" / "ran-other.sh").exists()
        TALLY["gate enforce calls"] = TALLY.get("gate enforce calls", 0) + len(results)
    finally:
        shutil.rmtree(work, ignore_errors=True)


DENY_JSON = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                               "permissionDecision": "deny",
                                               "permissionDecisionReason": "the reason"}})


@pytest.mark.parametrize(("answer", "shown"), [
    (f"echo '{DENY_JSON}'; exit 0", "PreToolUse:Bash hook error: the reason"),
    (f"echo '{DENY_JSON}'; echo other >&2; exit 2", "PreToolUse:Bash hook error: the reason"),
    ("echo the reason >&2; exit 2", "PreToolUse:Bash hook error: [")])
def test_how_the_runtime_shows_a_denial(judge: Judge, answer: str, shown: str) -> None:
    """Measured for issue 29: Claude Code 2.1.332 shows the model a JSON deny on exit 0 and on
    exit 2 the same way (its reason after ``PreToolUse:Bash hook error:``), and a bare exit 2
    with the hook's command line before the reason; each blocks the call and is a permission
    denial. The gate answers with the JSON and exit 2: shown as a JSON deny is, and still a
    denial if the JSON were not read (docs/call-gate.md, "The hook")."""
    work = Path(tempfile.mkdtemp(prefix="sg-shown-", dir="/var/tmp"))
    try:
        hook = {"type": "command", "command": f"cat > /dev/null; {answer}", "timeout": 30,
                "onFailure": "block"}
        settings = {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [hook]}]}}
        url, script = judge.standin.session([("Bash", {"command": "touch zz",
                                                       "description": "probe"})])
        _, report = run_session(judge.binary, url, work, None, extra_args=WIDE,
                                settings=settings)
        refused, text = script.results[script.call_id(0)]
        assert refused and text.startswith(shown), text
        assert [d["tool_use_id"] for d in report.get("permission_denials", [])] == [
            script.call_id(0)]
        assert not (work / "project" / "zz").exists()
    finally:
        shutil.rmtree(work, ignore_errors=True)
