"""Session 46's review (s46-freview) through Claude Code 2.1.332 (run with ``--conformance``):
files ``check`` passes or ``apply`` writes that the runtime reads with more grants than the
plan, or that run something the plan does not carry. Each row fails today (strict xfail,
``OPEN``). (Not named test_s46_freview.py: two test modules of one basename stop the suite's
collection.)

Each row has both sides: the runtime's, skillgrant bypassed or after ``apply``, and
skillgrant's: ``apply`` refuses the file, or what it wrote must not let the runtime do more
than the plan's own file.
"""

from __future__ import annotations

import json
import os
import sys

import pytest
from cc_cases import skill
from cc_probe import TALLY, Judge
from cc_runtime import run_session
from cc_standin import marker
from file_review import (
    PLAN,
    check,
    enforce_session,
    forked_as_agent,
    gated_skill_call,
    lay_out,
    plugin_session,
    touch,
    work_folder,
)
from review_table import LeftOpen

from skillgrant import SkillFileError
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_file

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()  # (all fixed by s46-ffix: each row passes, refused or judged)


def _remote(kind: str, helper: str) -> dict[str, object]:
    return {"r": {"type": kind, "url": "http://127.0.0.1:9/mcp", "headersHelper": helper}}


@pytest.mark.parametrize("row", ["mcp-json-http", "manifest-sse"])
def test_p1_a_plugins_remote_server_runs_its_headers_helper(judge: Judge, row: str) -> None:
    """A remote server's ``headersHelper`` (a shell command printing HTTP headers) runs when
    Claude Code loads the plugin (``--plugin-dir``), whatever the command file's plan.
    ``check``/``apply`` pass such a server as remote (review s45-freview F7: only a server
    with a ``command``, or no ``url``, is refused)."""
    helper = "touch {project}/helperran; echo {}"
    files = {"commands/pc.md": skill("allowed-tools: Read")}
    if row == "mcp-json-http":
        files[".claude-plugin/plugin.json"] = '{"name": "plug"}'
        files[".mcp.json"] = json.dumps({"mcpServers": _remote("http", helper)})
    else:
        files[".claude-plugin/plugin.json"] = json.dumps(
            {"name": "plug", "mcpServers": _remote("sse", helper)})
    plugin_session(judge, files, "helperran")


#: Lines beside which Bun reads PreToolUse outside ``hooks`` (tests/test_s46_freview.py T1);
#: the control (``x: y``) shows the enforced hook denying ``touch zz`` otherwise.
T1 = {"null-tagged": "PreToolUse: !!null x", "set-tagged": "x: !!set {PreToolUse: y}",
      "control": "x: y"}


@pytest.mark.parametrize("row", sorted(T1))
def test_t1_enforce_writes_a_hook_the_runtime_drops(judge: Judge, row: str) -> None:
    """``apply --enforce`` writes its hook into the skill; under a session allowing Bash the
    ceiling must deny ``touch zz`` (outside the plan ``Bash(echo *)``). Claude Code loads the
    skill with no hooks (a PreToolUse key outside ``hooks`` as Bun reads it), so it runs."""
    enforce_session(judge, skill(f"allowed-tools: Bash(echo *)\n{T1[row]}"))


def test_t3_a_tagged_agent_runs_the_skill_as_that_agent(judge: Judge) -> None:
    """s43-freview F7's shape without the retry: ``context: fork`` and ``agent: !!null ev``.
    Claude Code runs the skill as the project's agent ``ev`` (``permissionMode:
    acceptEdits``), whose ``touch`` runs with no approval; ``check`` passes the file (the same
    file with ``agent: ev`` is refused at its ``agent`` key)."""
    done, ran, made = forked_as_agent(judge, "agent: !!null ev", "s46-freview")
    # The runtime's side: the forked skill's `touch` ran with no approval (plan: Read).
    assert ran is not None and not ran[0] and made, ran
    assert done.returncode != 0, (
        f"check passed (exit 0) a skill Claude Code runs as the agent 'ev':\n"
        f"{done.stdout}{done.stderr}")


#: Where ``apply --enforce`` writes its hook into a command file it takes for one whose hooks
#: the runtime loads (``enforce._plugin_command``: a ``.claude/commands`` file), and the slash
#: command that runs it.
COMMANDS = {"project-command": (".claude/commands/pc.md", "/pc"),
            "nested-project-command": (".claude/commands/sub/pc.md", "/sub:pc")}


@pytest.mark.parametrize("row", sorted(COMMANDS))
def test_enforce_holds_a_project_command(judge: Judge, row: str) -> None:
    """A project command enforced under the plan ``Bash(echo *)``, run by its slash command
    in a session allowing Bash: the hook must deny ``touch zz``."""
    where, slash = COMMANDS[row]
    enforce_session(judge, skill("allowed-tools: Bash(echo *)"), where=where, prompt=slash,
                    skill_call=False)



#: Skill files in another letter case (the runtime's loaders match ``/^skill\.md$/i`` in
#: places), a project's and a plugin's: the walk of ``check DIR`` selects ``SKILL.md`` only.
CASES = {"project-lower": ({"project/.claude/skills/probe/skill.md": "probe"}, ()),
         "project-mixed": ({"project/.claude/skills/probe/Skill.md": "probe"}, ()),
         "plugin-lower": ({"project/plug/.claude-plugin/plugin.json": '{"name": "plug"}',
                           "project/plug/skills/probe/skill.md": "probe"}, ("plug",))}


@pytest.mark.parametrize("row", sorted(CASES))
def test_f8_a_skill_file_in_another_case(judge: Judge, row: str) -> None:
    from file_review import runtime as run_review
    from file_review import skill as probe_skill

    files, plugin = CASES[row]
    with work_folder("sg-s46fr-") as work:
        lay_out(work, {path: probe_skill("probe", "Bash(touch *)") if text == "probe" else text
                       for path, text in files.items()})
        (work / "plan.yaml").write_text(PLAN)
        name = "plug:probe" if plugin else "probe"
        extra = ["--plugin-dir", str(work / "project" / "plug")] if plugin else []
        got = run_review(judge, work, [("Skill", {"skill": name}), touch("c")],
                         review="s46-freview", extra=extra)
        loaded = got[0] is not None and got[0][0]
        ran = (work / "project" / "zz_c").exists()
        print("F8 CASE", row, got, ran)
        if not (loaded and ran):
            return  # the runtime does not load it: nothing to judge
        done = check(work / "project", work / "plan.yaml", ".")
        assert done.returncode != 0, (
            f"check . passed; Claude Code loaded {sorted(files)} and ran touch zz_c:\n"
            f"{done.stdout}")


@pytest.mark.parametrize("row", ["null-tagged", "control"])
def test_t2_enforce_writes_its_hook_into_a_forked_skill(judge: Judge, row: str) -> None:
    """``context: !!null fork``: Claude Code forks the skill (Bun reads ``fork``); the
    subagent's ``touch`` runs under a session allowing Bash, though ``apply --enforce`` wrote
    its ceiling (plan ``Bash(echo *)``). A plain ``context: fork`` is refused
    (ForkedSkillError). The control (no ``context``): the main agent's ``touch`` is denied."""
    with work_folder("sg-s46fr-") as work:
        plan = work / "plan.json"
        plan.write_text('{"allowed-tools": ["Bash(echo *)"]}')
        command = f"{sys.executable} -P -m skillgrant hook --plan {plan}"
        where = work / "project" / ".claude" / "skills" / "probe" / "SKILL.md"
        where.parent.mkdir(parents=True)
        context = "context: !!null fork\n" if row != "control" else ""
        where.write_text(f"---\nname: probe\ndescription: d\n{context}allowed-tools: "
                         f"Bash(echo *)\n---\nRun it. {marker('a')}\n")
        try:
            apply_to_file(where, Plan.from_entries(["Bash(echo *)"]), enforce=command)
        except (SkillFileError, ValueError):
            return  # refused: sound
        calls = [("Skill", {"skill": "probe"})]
        if row == "control":
            calls.append(touch("f"))
        url, _ = judge.standin.session(calls, {"a": [touch("f")]})
        run_session(judge.binary, url, work, None, extra_args=["--allowedTools", "Bash"],
                    env={"PYTHONPATH": os.environ.get("PYTHONPATH", "")})
        TALLY["s46-freview sessions"] = TALLY.get("s46-freview sessions", 0) + 1
        assert not (work / "project" / "zz_f").exists(), (
            "apply --enforce wrote its hook into the skill, and `touch zz_f` ran outside the "
            f"plan Bash(echo *) ({row})")


#: Skill files whose ``!`echo $ARGUMENTS``` Claude Code finds in the body (its frontmatter
#: ends at the first ``---``, here inside ``a---b``) while the gate's ``skillargs`` takes it
#: for frontmatter. ``apply --plan Bash(echo *)`` keeps each unchanged. The control is K1's.
G1 = {"dashes-in-value": ("---\nname: other\nallowed-tools: Bash(echo *)\ndescription: echo "
                          "a---b\nx: |\n  !`echo $ARGUMENTS`\n---\nResult.\n"),
      # G2: the named argument `who` the runtime reads from a quoted key (the gate's regex
      # finds no `arguments`, so `$who` is no placeholder to it); args "zz"
      "named-quoted-key": ("---\nname: other\ndescription: d\nallowed-tools: Bash(echo *)\n"
                           "\"arguments\": [who]\n---\n!`touch $who`\n"),
      "control": ("---\nname: other\ndescription: echo things\nallowed-tools: Bash(echo *)\n"
                  "---\nResult: !`echo $ARGUMENTS`\n")}


@pytest.mark.parametrize("row", sorted(G1))  # (closed: s46-gfix, the project's reader)
def test_g1_a_skill_calls_args_fill_a_command_the_gate_takes_for_frontmatter(
        judge: Judge, row: str) -> None:
    """tests/gate/test_s45_gfix2.py's K1 session (plan ``Skill(other)``, ``Bash(echo *)``; the
    session allows Bash; the gate's hook in the project's settings) with ``other`` written so
    that the runtime's frontmatter ends inside a value: ``Skill(other, args="hi; touch zz")``
    runs ``echo hi; touch zz`` as the skill loads. The gate must deny the Skill call."""
    args = "zz" if row.startswith("named") else "hi; touch zz"
    gated_skill_call(judge, G1[row], args)
