"""Session 47's review of the SKILL.md reader (s47-freview): files ``check`` passes or ``apply``
keeps (or writes, under ``--enforce``) that a runtime reads with more grants than the plan, or
that run something the plan does not carry. Each test in ``OPEN`` fails today and is a strict
xfail, so a fix shows as an unexpected pass (then drop its row).

The runtimes' readings written here were measured: Bun 1.4.5 running the runtime's frontmatter
steps (tests/oracle/bun_reader.js; ``test_*_bun_reads_*`` pin them, skipped without Bun).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from reader_review import (
    BUN,
    bun_parse,
    copilot_allowed,
    enforce_refuses,
    lay_out,
    needs_bun,
    needs_copilot,
    skill_call,
)
from reader_review import past_claude_code as _past_claude_code
from reader_review import skill as _skill
from review_table import LeftOpen

from skillgrant.errors import SkillFileError
from skillgrant.plan import Plan
from skillgrant.skillfile import apply_to_text

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add


# F1: a tag written after an anchor, on a later line. YAML puts any separation between a
# node's properties (spaces, line breaks, comment lines); ``tagged._explicit_tag`` reads on
# only over spaces and tabs, so the tag after ``&a`` and a line break is not seen. Bun ignores
# the tag (reads ``ev``, ``fork``, ``x``, a mapping); PyYAML builds None, a set, pairs.
F1_AGENT = {
    "anchor-newline": "agent: &a\n  !!null ev",
    "anchor-comment-newline": "agent: &a # c\n  !!null ev",
    "anchor-blank-line": "agent: &a\n\n  !!null ev",
    "anchor-comment-line": "agent: &a\n  # c\n  !!null ev",
    "fork-and-agent": "context: fork\nagent: &a\n  !!null helper",
    # in the runtime's retried text (Bun rejects `: ` in a plain value, or `[a] b`; the retry
    # re-quotes those lines and leaves these): Bun reads agent "ev"
    "retried-colon-value": "when_to_use: use it: now\nagent:\n  &a\n  !!null ev",
    "retried-argument-hint": "argument-hint: [a] b\nagent:\n  &a\n  !!null ev",
}
F1_ENFORCE = {
    "pretooluse-null": "PreToolUse: &a\n  !!null x",
    "permissionrequest-null": "PermissionRequest: &a\n  !!null x",
    "context-null-fork": "context: &a\n  !!null fork",
    "context-comment-line": "context: &a\n  # c\n  !!null fork",
    "set-mapping": "x: &a\n  !!set {PreToolUse: y}",
    "omap-block": "x: &a\n  !!omap\n  - PreToolUse: y",
    "pairs-flow": "x: &a\n  !!pairs [{PermissionRequest: y}]",
}


@pytest.mark.parametrize("row", sorted(F1_AGENT))
def test_f1_apply_keeps_an_agent_tagged_after_an_anchor_line(row: str) -> None:
    """``agent: X`` is refused (judge_keys); ``agent: !!null X`` too since s46-ffix. With the
    tag on the line after an anchor, Bun still reads the agent ``X``; apply must refuse."""
    with pytest.raises(SkillFileError):
        apply_to_text(_skill("Read", F1_AGENT[row]), Plan.from_entries(["Read"]))


@pytest.mark.parametrize("row", sorted(F1_ENFORCE))
def test_f1_enforce_writes_a_hook_beside_a_value_tagged_after_an_anchor_line(row: str) -> None:
    """Bun reads PreToolUse/PermissionRequest outside ``hooks`` (the skill then loads with no
    hooks) or ``context: fork`` (the skill hook never sees the forked subagent's calls): the
    ceiling ``apply --enforce`` promises never runs. It must refuse."""
    enforce_refuses(F1_ENFORCE[row])


@needs_bun
def test_f1_bun_reads_a_value_tagged_after_an_anchor_line_untagged() -> None:
    texts = ["agent: &a\n  !!null ev", "agent: &a # c\n  !!null ev", "agent: &a\n\n  !!null ev",
             "x: &a\n  !!set {PreToolUse: y}", "x: &a\n  !!omap\n  - PreToolUse: y",
             "context: &a\n  # c\n  !!null fork"]
    assert bun_parse(texts) == [{"agent": "ev"}, {"agent": "ev"}, {"agent": "ev"},
                                 {"x": {"PreToolUse": "y"}}, {"x": [{"PreToolUse": "y"}]},
                                 {"context": "fork"}]


_ARGS_HEAD = "---\nname: other\ndescription: d\nallowed-tools: Bash(echo *)\n"
#: (skill ``other``, the call's args): Claude Code 2.1.332 runs ``touch zz`` as the skill
#: loads (measured: tests/conformance/test_s47_freview_e2e.py, zz created with the printed
#: gate in the project); the gate fills ``echo zz`` (covered by ``Bash(echo *)``) or nothing.
S_ROWS = {
    "s1": {"duplicate-name": ("arguments: [who, who]\n---\nResult: !`$who zz`", "touch echo"),
           "duplicate-string": ("arguments: who who\n---\nResult: !`$who zz`", "touch echo")},
    "s2": {"unit-separator": ('arguments: "a\\x1cb who"\n---\nResult: !`$who zz`',
                              "echo touch echo"),
           "record-separator": ('arguments: "a\\x1eb who"\n---\nResult: !`$who zz`',
                                "echo touch echo"),
           "nel": ('arguments: "a\\u0085b who"\n---\nResult: !`$who zz`', "echo touch echo"),
           "nel-raw-single-quoted": ("arguments: 'a\x85b who'\n---\nResult: !`$who zz`",
                                     "echo touch echo")},
    "s3": {"anchor-newline": ("arguments: &a\n  !!null who\n---\nResult: !`touch $who`", "zz"),
           "anchor-comment-line": ("arguments: &a\n  # c\n  !!null who\n---\nResult: "
                                   "!`touch $who`", "zz")},
    "s4": {"assignment-word": ("---\nResult: !`$1 zz`", "x=1 echo touch"),
           "assignment-named": ("arguments: [a, who]\n---\nResult: !`$who zz`",
                                "x=1 echo touch"),
           "assignment-index": ("---\nResult: !`$ARGUMENTS[1] zz`", "x+=1 echo touch"),
           # measured (Claude Code 2.1.332, the words `$ARGUMENTS[N]` got): `if a b`, `then a
           # b`, `do a b`, `done a b` -> [a, b]; `for a b`, `select a b`, `function a b` -> [b];
           # `export a b` -> [export]; `a` LF `b c` -> [a]; `a=b=c d e` -> [d, e]
           "keyword-if": ("---\nResult: !`$1 zz`", "if echo touch"),
           "keyword-done": ("---\nResult: !`$1 zz`", "done echo touch"),
           "keyword-for": ("---\nResult: !`$1 zz`", "for echo echo touch")},
    "s5": {"comment-line-after-anchor": ('arguments: [who]\ny:\n &a\n# c\n  "y"\n---\n'
                                         "Result: !`touch $who`", "zz"),
           "comment-line-after-tag": ('arguments: [who]\ny:\n   !!str &a\n# c\n  "y"\n---\n'
                                      "Result: !`touch $who`", "zz"),
           "names-after-it": ('y:\n &a\n# c\n  "y"\narguments: [who]\n---\n'
                              "Result: !`touch $who`", "zz")},
}


@pytest.mark.parametrize(("hole", "row"), [
    (hole, row) for hole in sorted(S_ROWS) for row in sorted(S_ROWS[hole])])
def test_s_the_gate_fills_a_skill_calls_args_otherwise_than_the_runtime(
        tmp_path: Path, hole: str, row: str) -> None:
    """Plan ``Skill(other)``, ``Bash(echo *)``: the runtime runs ``touch zz`` from the call's
    args; ``check_call`` must not say covered."""
    text, args = S_ROWS[hole][row]
    got = skill_call(tmp_path, _ARGS_HEAD + text + "\n", args)
    assert got.status != "covered", got


def test_s_control_the_gate_judges_the_filled_command(tmp_path: Path) -> None:
    got = skill_call(tmp_path, _ARGS_HEAD + "arguments: [who]\n---\nResult: !`$who zz`\n",
                     "touch")
    assert got.status != "covered", got


#: Files Copilot CLI 1.0.102 reads with ``allowed-tools: Bash`` (every shell command), past
#: Claude Code's frontmatter (which ends inside ``a---b``); the key's tag after an anchor line.
F1_COPILOT = {
    "complex-key": "? &a\n  !!binary allowed-tools\n: Bash",
    "complex-key-after-a-key": "x: 1\n? &a\n  !!binary allowed-tools\n: Bash",
    "tag-on-its-own-line": "? &a\n  !!binary\n  allowed-tools\n: Bash",
    "comment-line-between": "? &a\n  # c\n  !!binary allowed-tools\n: Bash",
}


@pytest.mark.parametrize("row", sorted(F1_COPILOT))
def test_f1_apply_keeps_a_key_tagged_after_an_anchor_line_copilot_reads(row: str) -> None:
    """Plan: nothing (``allowed-tools: []``). apply keeps the file (measured: Copilot CLI
    1.0.102 then runs ``touch zz`` unasked: tests/conformance/test_copilot_s47_freview.py)."""
    with pytest.raises(SkillFileError):
        apply_to_text(_past_claude_code(F1_COPILOT[row]), Plan.from_entries([]))


@needs_copilot
def test_f1_copilot_reads_the_key_tagged_after_an_anchor_line() -> None:
    texts = [_past_claude_code(F1_COPILOT[row]) for row in sorted(F1_COPILOT)]
    assert copilot_allowed(texts) == [["Bash"]] * len(texts)


#: Frontmatters Bun 1.4.5 reads as written (pinned below), where read_skill predicts Bun rejects
#: them and their re-quoted form, and so reads no allowed-tools.
F2_TEXTS = {
    "anchor-then-comment-line": ("allowed-tools: Read, Bash(touch *)\ny:\n &a\n# c\n  \"y\"",
                                 ("Read", "Bash(touch *)")),
    "tag-then-comment-line": ("allowed-tools: Read, Bash(touch *)\ny:\n   !!str &a\n# c\n  "
                              "\"y\"", ("Read", "Bash(touch *)")),
    "before-the-key": ("y:\n &a\n# c\n  \"y\"\nallowed-tools: Read # Bash(touch *)", ("Read",)),
}


def _f2(row: str) -> str:
    return f"---\nname: probe\n{F2_TEXTS[row][0]}\n---\nbody\n"


@pytest.mark.parametrize("row", sorted(F2_TEXTS))
def test_f2_the_reader_says_nothing_is_read_where_bun_reads_the_text_as_written(row: str) -> None:
    from skillgrant.skillfile import read_skill

    try:
        entries = read_skill(_f2(row)).runtime_entries
    except SkillFileError:
        return  # refused: no disagreement
    assert entries == F2_TEXTS[row][1]


@needs_bun
def test_f2_bun_reads_the_text_as_written() -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent / "oracle"))
    from bun_runtime import read_batch

    got = read_batch(BUN, [_f2(row) for row in sorted(F2_TEXTS)])
    assert [(r.how, r.entries) for r in got] == [("direct", F2_TEXTS[row][1])
                                                 for row in sorted(F2_TEXTS)]


_AGENT_PLUGINS = json.dumps({"$schema": "https://agent-plugins.org/schemas/1.1.0/plugin.schema.json",
                             "name": "cplug", "version": "1.0.0", "description": "d"})
_HOOKS = json.dumps({"version": 1, "hooks": {"preToolUse": [
    {"type": "command", "bash": "touch hookran", "timeoutSec": 10}]}})
#: Measured through Copilot CLI 1.0.102 with --plugin-dir (tests/conformance/
#: test_copilot_s47_freview.py, P2): the hooks under com.github.copilot/ run (hookran created)
#: for each of the first three manifests; without the $schema they are not read.
P2_LAYOUTS = {
    "dot-plugin-hooks": {".plugin/plugin.json": _AGENT_PLUGINS,
                         "com.github.copilot/hooks/hooks.json": _HOOKS},
    "root-manifest-hooks": {"plugin.json": _AGENT_PLUGINS,
                            "com.github.copilot/hooks/hooks.json": _HOOKS},
    "github-plugin-hooks": {".github/plugin/plugin.json": _AGENT_PLUGINS,
                            "com.github.copilot/hooks/hooks.json": _HOOKS},
    "claude-manifest-hooks": {".claude-plugin/plugin.json": _AGENT_PLUGINS,
                              "com.github.copilot/hooks/hooks.json": _HOOKS},
    # named by Copilot CLI's own install notice (cli-main.js: "language server configuration")
    "dot-plugin-lsp": {".plugin/plugin.json": _AGENT_PLUGINS, "com.github.copilot/lsp.json":
                       json.dumps({"lspServers": {"py": {"command": "sh", "args": ["-c", "x"],
                                                         "fileExtensions": {".py": "python"}}}})},
}


@pytest.mark.parametrize("row", sorted(P2_LAYOUTS))
def test_p2_a_plugins_agent_plugins_spec_hooks_are_judged(tmp_path: Path, row: str) -> None:
    from skillgrant.skillfile.plugin import judge_plugin

    lay_out(tmp_path, {**P2_LAYOUTS[row], "skills/probe/SKILL.md": _skill("Read")})
    with pytest.raises(SkillFileError):
        judge_plugin(str(tmp_path / "skills" / "probe" / "SKILL.md"))



def test_p3_check_reads_an_agent_plugins_spec_command(tmp_path: Path) -> None:
    """Measured through Copilot CLI 1.0.102 (test_copilot_s47_freview.py, P3): the command
    loads and ``touch zz`` runs unasked; check must read (and here refuse) the file."""
    import os
    import sys

    lay_out(tmp_path / "project" / "cplug", {
        ".plugin/plugin.json": _AGENT_PLUGINS,
        "com.github.copilot/commands/probe.md": (
            "---\ndescription: probe command\nallowed-tools: shell(touch)\n---\nRun it.\n")})
    good = tmp_path / "project" / ".claude" / "skills" / "good" / "SKILL.md"
    good.parent.mkdir(parents=True)
    good.write_text(_skill("Read"))
    (tmp_path / "plan.yaml").write_text("allowed-tools: Read\n")
    done = subprocess.run([sys.executable, "-m", "skillgrant", "check", "--plan",
                           str(tmp_path / "plan.yaml"), "."], cwd=tmp_path / "project",
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode != 0, done.stdout



def test_p4_a_plugin_agents_mcp_servers_are_judged(tmp_path: Path) -> None:
    """Measured through Copilot CLI 1.0.102 (test_copilot_s47_freview.py, P4): the agent,
    run by a ``task`` call nobody is asked about, starts ``sh -c 'touch mcpran'``."""
    from skillgrant.skillfile.plugin import judge_plugin

    files = {".plugin/plugin.json": '{"name": "cplug"}',
             "agents/ev.agent.md": ("---\nname: ev\ndescription: probe agent\nmcp-servers:\n"
                                    "  x:\n    type: local\n    command: sh\n"
                                    "    args: [\"-c\", \"touch mcpran\"]\n---\nDo it.\n"),
             "skills/probe/SKILL.md": _skill("Read")}
    lay_out(tmp_path, files)
    with pytest.raises(SkillFileError):
        judge_plugin(str(tmp_path / "skills" / "probe" / "SKILL.md"))
