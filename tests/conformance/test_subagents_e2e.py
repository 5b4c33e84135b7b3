"""The ceiling reaches subagents (issue 33), end to end through the pinned Claude Code.

The session's own permissions are wider than the plan (``--allowedTools Bash Agent``), so only
the gate stands in the way. The stand-in scripts each subagent by a marker in the prompt the
parent passes to ``Agent`` (``cc_standin.marker``). One case per row of issue 33's table, then
the mechanism ``gate.subagents`` builds on them: the settings-level hook that follows the skill
into its subagents (``--for-skill``), with the skill-scoped hook ``apply --enforce`` writes.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cc_probe import TALLY, Judge
from cc_runtime import SKILL_NAME, run_session
from cc_standin import marker
from gate_sessions import denied_by_gate

WIDE = ["--allowedTools", "Bash", "Agent"]
Call = tuple[str, Mapping[str, Any]]


def bash(command: str) -> Call:
    return "Bash", {"command": command, "description": "probe", "timeout": 5000}


def agent(name: str, kind: str = "general-purpose", background: bool = False) -> Call:
    given: dict[str, Any] = {"description": "probe", "prompt": f"do it {marker(name)}",
                             "subagent_type": kind}
    if background:
        given["run_in_background"] = True
    return "Agent", given


def load() -> Call:
    return "Skill", {"skill": SKILL_NAME}


@dataclass
class Outcome:
    main: list[tuple[bool, str] | None]
    subs: dict[str, list[tuple[bool, str] | None]]
    files: set[str]


@pytest.fixture
def work() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="sg-sub-", dir="/var/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def hook_run(plan: Path, *options: str) -> str:
    return f"{sys.executable} -P -m skillgrant hook --plan {plan} " + " ".join(options)


def skill_hooks(run: str) -> dict[str, Any]:
    return {"PreToolUse": [{"matcher": "*", "hooks": [
        {"type": "command", "command": run, "timeout": 30, "onFailure": "block"}]}]}


def enforced_skill(work: Path, entries: list[str]) -> tuple[Path, str]:
    """The plan file and the SKILL.md ``apply --enforce`` writes for it (into the project, so
    the settings-level hook, when the test wrote one, is found)."""
    from skillgrant.plan.model import Plan
    from skillgrant.skillfile.builder import apply_to_text

    plan = work / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": entries}))
    submitted = f"---\nname: {SKILL_NAME}\ndescription: probe\nallowed-tools: " \
                f"{', '.join(entries)}\n---\nprobe\n"
    path = work / "project" / ".claude" / "skills" / SKILL_NAME / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    text, _ = apply_to_text(submitted, Plan.load(plan), enforce=hook_run(plan),
                            path=str(path))
    return plan, text


def run(judge: Judge, work: Path, skill_text: str | None, main: Sequence[Call],
        subs: Mapping[str, Sequence[Call]], *, settings: dict[str, Any] | None = None,
        extra: Sequence[str] = WIDE) -> Outcome:
    (work / "project").mkdir(exist_ok=True)
    url, session = judge.standin.session(list(main), subs)
    done, _ = run_session(judge.binary, url, work, skill_text, extra_args=extra,
                          settings=settings)
    main_results = [session.results.get(session.call_id(i)) for i in range(len(main))]
    sub_results = {name: [session.results.get(session.sub_id(name, i))
                          for i in range(len(script))] for name, script in subs.items()}
    files = {p.name for p in (work / "project").iterdir()}
    TALLY["subagent sessions"] = TALLY.get("subagent sessions", 0) + 1
    assert main_results[0] is not None, done.stderr[-600:]
    return Outcome(main_results, sub_results, files)


# -- the rows of issue 33's table -----------------------------------------------------------------

def test_row1_2_the_skill_hook_denies_the_main_agents_calls_outside_the_plan(
        judge: Judge, work: Path) -> None:
    _, text = enforced_skill(work, ["Bash(echo *)"])
    got = run(judge, work, text, [load(), bash("touch zz"), agent("a")],
              {"a": [bash("touch yy")]})
    loaded, touched, delegated = got.main
    assert loaded is not None and not loaded[0], got.main
    assert touched is not None and denied_by_gate(touched), got.main
    assert delegated is not None and denied_by_gate(delegated), got.main
    assert not {"zz", "yy"} & got.files


@pytest.mark.parametrize(("kind", "background"), [("general-purpose", False),
                                                  ("general-purpose", True), ("fork", False)])
def test_row3_a_skill_hook_alone_does_not_see_a_subagents_calls(
        judge: Judge, work: Path, kind: str, background: bool) -> None:
    """What ``apply --enforce`` wrote before issue 33 (the skill-scoped hook alone, for a plan
    granting Agent): the subagent's ``touch`` runs. ``apply --enforce`` now refuses that plan
    without the settings-level hook (tests/gate/test_subagents.py)."""
    plan = work / "plan.json"
    entries = ["Bash(echo *)", f"Agent({kind})"]
    plan.write_text(json.dumps({"allowed-tools": entries}))
    text = (f"---\nname: {SKILL_NAME}\ndescription: probe\nallowed-tools: {', '.join(entries)}\n"
            f"hooks: {json.dumps(skill_hooks(hook_run(plan)))}\n---\nprobe\n")
    got = run(judge, work, text, [load(), agent("a", kind, background)],
              {"a": [bash("touch zz")]})
    assert got.subs["a"][0] is not None and not got.subs["a"][0][0], got
    assert "zz" in got.files


def test_row4_a_settings_hook_sees_a_subagents_calls(judge: Judge, work: Path) -> None:
    plan = work / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(echo *)", "Agent(general-purpose)"]}))
    settings = {"hooks": skill_hooks(hook_run(plan))}
    got = run(judge, work, None, [agent("a")], {"a": [bash("touch zz"), bash("echo sub")]},
              settings=settings)
    touched, echoed = got.subs["a"]
    assert touched is not None and denied_by_gate(touched), got
    assert echoed is not None and not echoed[0], got
    assert "zz" not in got.files


def test_row5_a_skills_pre_approvals_reach_its_subagents(judge: Judge, work: Path) -> None:
    """The session allows no Bash; the skill pre-approves ``Bash(touch *)``: its subagent's
    ``touch`` runs without asking (so ``check`` and ``lint`` warn of an Agent grant)."""
    text = (f"---\nname: {SKILL_NAME}\ndescription: probe\n"
            "allowed-tools: Bash(touch *), Agent\n---\nprobe\n")
    got = run(judge, work, text, [load(), agent("a")], {"a": [bash("touch zz")]},
              extra=["--allowedTools", "Agent"])
    assert got.subs["a"][0] is not None and not got.subs["a"][0][0], got
    assert "zz" in got.files


# -- the mechanism: the settings-level hook follows the skill ----------------------------------

def following(work: Path, entries: list[str]) -> tuple[str, dict[str, Any]]:
    """The enforced SKILL.md and the project's settings with ``--print-config … --for-skill``'s
    hook, written before ``apply --enforce`` (which looks for it)."""
    from skillgrant.gate.config import snippet

    plan = work / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": entries}))
    printed, _ = snippet("claude-code", {"--plan": str(plan), "--for-skill": SKILL_NAME})
    settings = json.loads(printed)  # it names this installation by absolute path (issue 31)
    (work / "project" / ".claude").mkdir(parents=True, exist_ok=True)
    (work / "project" / ".claude" / "settings.json").write_text(json.dumps(settings))
    _, text = enforced_skill(work, entries)
    return text, settings


@pytest.mark.parametrize(("kind", "background"), [("general-purpose", False),
                                                  ("general-purpose", True), ("fork", False)])
def test_the_ceiling_holds_in_a_subagent(judge: Judge, work: Path, kind: str,
                                         background: bool) -> None:
    text, settings = following(work, ["Bash(echo *)", f"Agent({kind})"])
    got = run(judge, work, text, [load(), bash("echo main"), agent("a", kind, background)],
              {"a": [bash("echo sub"), bash("touch zz")]}, settings=settings)
    assert all(r is not None and not r[0] for r in got.main), got.main
    echoed, touched = got.subs["a"]
    assert echoed is not None and not echoed[0], got
    assert touched is not None and denied_by_gate(touched), got
    assert "zz" not in got.files


def test_the_ceiling_holds_in_a_nested_subagent(judge: Judge, work: Path) -> None:
    text, settings = following(work, ["Bash(echo *)", "Agent(general-purpose)"])
    got = run(judge, work, text, [load(), agent("a")],
              {"a": [agent("b")], "b": [bash("echo nested"), bash("touch zz")]},
              settings=settings)
    echoed, touched = got.subs["b"]
    assert echoed is not None and not echoed[0], got
    assert touched is not None and denied_by_gate(touched), got
    assert "zz" not in got.files


def test_the_main_agents_calls_are_left_to_the_session(judge: Judge, work: Path) -> None:
    """Without the skill loaded, the settings-level hook gives the main agent's calls no
    decision (the session's own permissions allow Bash here); a subagent's calls are judged in
    every session (``gate.subagents``: no record of the skill's activity that a command could
    delete)."""
    _, settings = following(work, ["Bash(echo *)", "Agent(general-purpose)"])
    got = run(judge, work, None, [bash("touch before"), agent("a")], {"a": [bash("touch zz")]},
              settings=settings)
    assert got.main[0] is not None and not got.main[0][0], got
    touched = got.subs["a"][0]
    assert touched is not None and denied_by_gate(touched), got
    assert "before" in got.files and "zz" not in got.files
