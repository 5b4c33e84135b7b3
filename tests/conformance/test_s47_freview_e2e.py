"""Session 47's review of the reader (s47-freview) through Claude Code 2.1.332 (run with
``--conformance``): files ``check`` passes or ``apply`` writes, and Skill calls the printed gate
allows, that make the runtime do what the plan does not carry. Each hole row fails today
(strict xfail, ``OPEN``); its control row passes. (Not named test_s47_freview.py: two test
modules of one basename stop the suite's collection.)
"""

from __future__ import annotations

import pytest
from cc_probe import Judge
from file_review import enforce_session, forked_as_agent, gated_skill_call
from review_table import LeftOpen

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()


F1_AGENT = {"anchor-newline": ("agent: &a\n  !!null ev", None),
            "control": ("x: y", None)}


@pytest.mark.parametrize("row", sorted(F1_AGENT))
def test_f1_an_agent_tagged_after_an_anchor_line_runs_the_skill_as_that_agent(
        judge: Judge, row: str) -> None:
    """s46-freview T3's session with the tag on the line after an anchor: ``context: fork``,
    ``agent: &a`` ⏎ ``  !!null ev``. Claude Code runs the skill as the project's agent ``ev``
    (``permissionMode: acceptEdits``): its ``touch`` runs with no approval; ``check --plan
    Read`` must not pass the file. The control (no agent) runs the fork as general-purpose,
    whose ``touch`` is denied."""
    done, _, ran = forked_as_agent(judge, F1_AGENT[row][0], "s47-freview")
    assert done.returncode != 0 or not ran, (
        f"check passed (exit 0) a skill whose forked touch ran with no approval:\n"
        f"{done.stdout}{done.stderr}")


F1_ENFORCE = {"pretooluse-anchor-newline": ("PreToolUse: &a\n  !!null x", None),
              # s47-ffix X1: an empty key in a flow list, which libyaml rejects and Bun reads
              "flow-empty-key": ("x: [PreToolUse: y, : b]", None),
              "flow-empty-key-after-retry": ("argument-hint: [a] [b]\nx: [PreToolUse: y, : b]",
                                             None),
              "control": ("x: y", None)}


@pytest.mark.parametrize("row", sorted(F1_ENFORCE))
def test_f1_enforce_writes_a_hook_the_runtime_drops(judge: Judge, row: str) -> None:
    """s46-freview T1's session: ``apply --enforce`` (plan ``Bash(echo *)``) writes its hook;
    under a session allowing Bash the ceiling must deny ``touch zz``."""
    enforce_session(judge, "---\nname: probe\ndescription: d\nallowed-tools: Bash(echo *)\n"
                           f"{F1_ENFORCE[row][0]}\n---\nRun it.\n")


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


@pytest.mark.parametrize("row", sorted(SKILL_ARGS))
def test_s_a_skill_calls_args_the_gate_fills_otherwise_run_a_command(judge: Judge,
                                                                     row: str) -> None:
    """review s46-freview2's G4 session (plan ``Skill(other)``, ``Bash(echo *)``; the session
    allows Bash; the printed gate in the project's settings; ``apply --plan Bash(echo *)``
    keeps the file unchanged): ``Skill(other, args=ARGS)`` makes the runtime run ``touch zz``
    as the skill loads. The gate must deny the call."""
    text, args, _ = SKILL_ARGS[row]
    # kept unchanged, or refused (s47-ffix: a tag after an anchor line, F1/S3)
    gated_skill_call(judge, text, args, refusable=True)
