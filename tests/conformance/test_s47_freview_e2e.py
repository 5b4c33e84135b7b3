"""Session 47's review of the reader (s47-freview) through Claude Code 2.1.332 (run with
``--conformance``): files ``check`` passes or ``apply`` writes, and Skill calls the printed gate
allows, that make the runtime do what the plan does not carry. Each hole row fails today
(strict xfail, ``HOLES``); its control row passes. (Not named test_s47_freview.py: two test
modules of one basename stop the suite's collection.)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from cc_probe import TALLY, Judge
from cc_runtime import run_session
from cc_standin import marker
from file_review import PLAN, WIDE, check, lay_out, touch, work_folder

from skillgrant import SkillFileError
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_file

HOLES: dict[str, str] = {
    "f1-agent": "tagged._explicit_tag does not read past a line break between a node's "
                "properties: `agent: &a` + newline + `  !!null ev` is no agent to skillgrant, "
                "the agent ev to Claude Code",
    "f1-enforce": "as f1-agent: `PreToolUse: &a` + newline + `  !!null x` beside the hook "
                  "apply --enforce writes: Claude Code drops the skill's hooks",
}


def _hole(name: str) -> list[pytest.MarkDecorator]:
    return [pytest.mark.xfail(strict=True, reason=HOLES[name])]


F1_AGENT = {"anchor-newline": ("agent: &a\n  !!null ev", "f1-agent"),
            "control": ("x: y", None)}


@pytest.mark.parametrize("row", [pytest.param(r, marks=_hole(F1_AGENT[r][1]) if F1_AGENT[r][1]
                                              else []) for r in sorted(F1_AGENT)])
def test_f1_an_agent_tagged_after_an_anchor_line_runs_the_skill_as_that_agent(
        judge: Judge, row: str) -> None:
    """s46-freview T3's session with the tag on the line after an anchor: ``context: fork``,
    ``agent: &a`` ⏎ ``  !!null ev``. Claude Code runs the skill as the project's agent ``ev``
    (``permissionMode: acceptEdits``): its ``touch`` runs with no approval; ``check --plan
    Read`` must not pass the file. The control (no agent) runs the fork as general-purpose,
    whose ``touch`` is denied."""
    with work_folder("sg-s47fr-") as work:
        text = (f"---\nname: probe\ndescription: d\ncontext: fork\n{F1_AGENT[row][0]}\n"
                f"allowed-tools: Read\n---\nRun it. {marker('a')}\n")
        lay_out(work, {
            "project/.claude/agents/ev.md": ("---\nname: ev\ndescription: probe agent\n"
                                             "permissionMode: acceptEdits\n---\nDo it.\n"),
            "project/.claude/skills/probe/SKILL.md": text})
        (work / "plan.yaml").write_text(PLAN)
        done = check(work / "project", work / "plan.yaml", ".claude/skills/probe/SKILL.md")
        url, _ = judge.standin.session([("Skill", {"skill": "probe"})],
                                       {"a": [touch("f")]})
        run_session(judge.binary, url, work, None, extra_args=WIDE)
        TALLY["s47-freview sessions"] = TALLY.get("s47-freview sessions", 0) + 1
        ran = (work / "project" / "zz_f").exists()
        assert done.returncode != 0 or not ran, (
            f"check passed (exit 0) a skill whose forked touch ran with no approval:\n"
            f"{done.stdout}{done.stderr}")


F1_ENFORCE = {"pretooluse-anchor-newline": ("PreToolUse: &a\n  !!null x", "f1-enforce"),
              "control": ("x: y", None)}


@pytest.mark.parametrize("row", [pytest.param(r, marks=_hole(F1_ENFORCE[r][1])
                                              if F1_ENFORCE[r][1] else [])
                                 for r in sorted(F1_ENFORCE)])
def test_f1_enforce_writes_a_hook_the_runtime_drops(judge: Judge, row: str) -> None:
    """s46-freview T1's session: ``apply --enforce`` (plan ``Bash(echo *)``) writes its hook;
    under a session allowing Bash the ceiling must deny ``touch zz``."""
    with work_folder("sg-s47fr-") as work:
        plan = work / "plan.json"
        plan.write_text('{"allowed-tools": ["Bash(echo *)"]}')
        command = f"{sys.executable} -m skillgrant hook --plan {plan}"
        where = work / "project" / ".claude" / "skills" / "probe" / "SKILL.md"
        where.parent.mkdir(parents=True)
        where.write_text(f"---\nname: probe\ndescription: d\nallowed-tools: Bash(echo *)\n"
                         f"{F1_ENFORCE[row][0]}\n---\nRun it.\n")
        try:
            apply_to_file(where, Plan.from_entries(["Bash(echo *)"]), enforce=command)
        except SkillFileError:
            return  # refused: sound
        url, session = judge.standin.session([("Skill", {"skill": "probe"}), (
            "Bash", {"command": "touch zz", "description": "probe", "timeout": 5000})])
        done, _ = run_session(judge.binary, url, work, None,
                              extra_args=["--allowedTools", "Bash"],
                              env={"PYTHONPATH": os.environ.get("PYTHONPATH", "")})
        judge.sessions += 1
        result = session.results.get(session.call_id(1))
        assert result is not None, done.stderr[-600:]
        assert not (work / "project" / "zz").exists(), (
            f"apply --enforce wrote its hook beside {F1_ENFORCE[row][0]!r}; Claude Code ran "
            f"touch zz outside the plan ({result[1][:200]!r})")


_HEAD = "---\nname: other\ndescription: d\nallowed-tools: Bash(echo *)\n"
#: (skill file, args, hole): the runtime fills the body's command into ``touch zz``; the gate
#: fills ``echo zz`` (covered by the plan) or nothing.
SKILL_ARGS = {
    "duplicate-name": (_HEAD + "arguments: [who, who]\n---\nResult: !`$who zz`\n",
                       "touch echo", None),
    "unit-separator-in-names": (_HEAD + 'arguments: "a\\x1cb who"\n---\nResult: !`$who zz`\n',
                                "echo touch echo", None),
    "nel-in-names": (_HEAD + 'arguments: "a\\u0085b who"\n---\nResult: !`$who zz`\n',
                     "echo touch echo", None),
    "tagged-after-anchor": (_HEAD + "arguments: &a\n  !!null who\n---\nResult: !`touch $who`\n",
                            "zz", None),
    "assignment-word": (_HEAD + "---\nResult: !`$1 zz`\n", "x=1 echo touch",
                        None),
    "keyword-if": (_HEAD + "---\nResult: !`$1 zz`\n", "if echo touch", None),
    "comment-line-after-anchor": (_HEAD + 'arguments: [who]\ny:\n &a\n# c\n  "y"\n---\n'
                                  "Result: !`touch $who`\n", "zz", None),
    "control": (_HEAD + "arguments: [who]\n---\nResult: !`$who zz`\n", "touch", None),
}


@pytest.mark.parametrize("row", [pytest.param(r, marks=_hole(SKILL_ARGS[r][2])
                                              if SKILL_ARGS[r][2] else [])
                                 for r in sorted(SKILL_ARGS)])
def test_s_a_skill_calls_args_the_gate_fills_otherwise_run_a_command(judge: Judge,
                                                                     row: str) -> None:
    """review s46-freview2's G4 session (plan ``Skill(other)``, ``Bash(echo *)``; the session
    allows Bash; the printed gate in the project's settings; ``apply --plan Bash(echo *)``
    keeps the file unchanged): ``Skill(other, args=ARGS)`` makes the runtime run ``touch zz``
    as the skill loads. The gate must deny the call."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "gate"))
    from files_fixture import gated_project

    text, args, _ = SKILL_ARGS[row]
    with work_folder("sg-s47s-") as work:
        project = work / "project"
        gated_project(project, ["Skill(other)", "Bash(echo *)"])
        skill_file = project / ".claude" / "skills" / "other" / "SKILL.md"
        skill_file.parent.mkdir(parents=True)
        skill_file.write_text(text)
        applied = apply_to_file(skill_file, Plan.from_entries(["Bash(echo *)"]))
        assert skill_file.read_text() == text, applied  # kept unchanged
        url, session = judge.standin.session([("Skill", {"skill": "other", "args": args})])
        done, _ = run_session(judge.binary, url, work, None, timeout=120, prompt="hello",
                              extra_args=["--allowedTools", "Skill(other)", "Bash"])
        judge.sessions += 1
        result = session.results.get(session.call_id(0))
        assert result is not None, done.stderr[-2000:]
        assert not (project / "zz").exists(), (
            f"the gate let the skill's command run the call's arguments: {result}")
