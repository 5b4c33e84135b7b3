"""Session 46's review of the SKILL.md reader (s46-freview): files ``check`` passes or
``apply`` keeps (or writes, under ``--enforce``) that a runtime reads with more grants than the
plan, or runs otherwise than skillgrant judges. Each test fails today; ``OPEN`` marks it a
strict xfail, so a fix shows as an unexpected pass (then drop its row).

The runtimes' readings written here were measured: Bun 1.4.5 running the runtime's frontmatter
steps (tests/oracle/bun_reader.js) and its hook-drop test (``bwe``, copied from the binary in
tests/test_s45_ffix.py), and Copilot CLI 1.0.102's own skill parser (its native addon, in
process). ``test_*_bun_reads_*`` pin the readings under the pinned Bun (skipped without it).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from reader_review import (
    BUN,
    ENFORCE,
    SKILL_PATH,
    bun_parse,
    enforce_refuses,
    lay_out,
    needs_bun,
    skill_call,
)
from reader_review import skill as _skill
from review_table import LeftOpen

from skillgrant.errors import SkillFileError
from skillgrant.plan import Plan
from skillgrant.skillfile import apply_to_text

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()


#: Lines beside which Claude Code 2.1.332 loads the skill with no hooks (Bun reads each value
#: untagged: ``bwe`` is true), while skillgrant's hookdrop, on PyYAML's reading (None, a Python
#: set, a list of tuples), finds no PreToolUse/PermissionRequest outside ``hooks``.
T1_LINES = {
    "null-tagged-pretooluse": "PreToolUse: !!null x",
    "null-tagged-permissionrequest": "PermissionRequest: !!null x",
    "set-tagged-mapping": "x: !!set {PreToolUse: y}",
    "set-tagged-block": "x: !!set\n  PreToolUse: y",
    "omap-tagged-list": "x: !!omap [{PreToolUse: y}]",
    "pairs-tagged-list": "x: !!pairs [{PermissionRequest: y}]",
    "omap-block": "x: !!omap\n  - PreToolUse: y",
}


@pytest.mark.parametrize("row", sorted(T1_LINES))
def test_t1_enforce_writes_a_hook_the_runtime_drops_for_a_tagged_value(row: str) -> None:
    """``apply --enforce`` promises the plan as a ceiling through the skill's own hook; the
    runtime drops every hook of the skill (and its allowed-tools) when a key declares
    PreToolUse/PermissionRequest outside ``hooks`` as Bun reads it. It must refuse."""
    enforce_refuses(T1_LINES[row], (SkillFileError,))


@pytest.mark.parametrize("spelling", ["!!null fork", "!!null 'fork'"])
def test_t2_enforce_writes_a_skill_hook_into_a_forked_skill(spelling: str) -> None:
    """``apply --enforce`` refuses a plain ``context: fork`` (ForkedSkillError: the skill's
    own hook never sees the forked subagent's calls). Bun reads ``context: !!null fork`` as
    ``fork``; skillgrant reads None and writes the skill hook alone."""
    with pytest.raises(Exception) as refused:  # ForkedSkillError or SkillFileError
        apply_to_text(_skill("Bash(echo *)", f"context: {spelling}"),
                      Plan.from_entries(["Bash(echo *)"]), enforce=ENFORCE, path=SKILL_PATH)
    assert "fork" in str(refused.value) or isinstance(refused.value, SkillFileError)


@pytest.mark.parametrize("line", ["agent: !!null general-purpose",
                                  "context: fork\nagent: !!null helper",
                                  "agent: !!null\n  helper"])
def test_t3_apply_keeps_an_agent_key_bun_reads(line: str) -> None:
    """``agent: X`` is refused (judge_keys: the agent type runs the skill with its own tools
    and permission mode). ``agent: !!null X`` is the same agent to Bun, no agent to PyYAML."""
    with pytest.raises(SkillFileError):
        apply_to_text(_skill("Read", line), Plan.from_entries(["Read"]))


@needs_bun
def test_t1_t3_bun_reads_a_value_untagged() -> None:
    """The readings T1-T3 rest on: Bun 1.4.5 ignores a value's tag."""
    texts = ["a: !!null x", "a: !!set {P: y}", "a: !!omap [{P: y}]", "a: !!pairs [{P: y}]",
             "a: !!set\n  P: y", "a: !!null 'fork'", "a: !!null\n  helper"]
    assert bun_parse(texts) == [
        {"a": "x"}, {"a": {"P": "y"}}, {"a": [{"P": "y"}]}, {"a": [{"P": "y"}]},
        {"a": {"P": "y"}}, {"a": "fork"}, {"a": "helper"}]


_HELPER = {"type": "http", "url": "http://127.0.0.1:9/mcp", "headersHelper": "touch ran"}
#: Measured through Claude Code 2.1.332 with ``--plugin-dir``
#: (tests/conformance/test_s46_freview_e2e.py, P1): the helper runs when the plugin loads
#: (``helperran`` appeared) for the first two; the others are the same server elsewhere.
P1_FILES = {
    "mcp-json-http": {".claude-plugin/plugin.json": '{"name": "plug"}',
                      ".mcp.json": json.dumps({"mcpServers": {"r": _HELPER}})},
    "manifest-sse": {".claude-plugin/plugin.json": json.dumps(
        {"name": "plug", "mcpServers": {"r": {**_HELPER, "type": "sse"}}})},
    "mcp-json-ws": {".claude-plugin/plugin.json": '{"name": "plug"}',
                    ".mcp.json": json.dumps({"mcpServers": {"r": {**_HELPER, "type": "ws"}}})},
    "mcp-json-bare": {".claude-plugin/plugin.json": '{"name": "plug"}',
                      ".mcp.json": json.dumps({"r": _HELPER})},
}


@pytest.mark.parametrize("row", sorted(P1_FILES))
def test_p1_a_plugins_remote_server_with_a_headers_helper_is_applied(tmp_path: Path,
                                                                     row: str) -> None:
    from skillgrant.skillfile import apply_to_file

    root = tmp_path / "plug"
    lay_out(root, {**P1_FILES[row], "commands/pc.md": _skill("Read")})
    with pytest.raises(SkillFileError):
        apply_to_file(root / "commands" / "pc.md", Plan.from_entries(["Read"]))


#: Skill files whose body, as Claude Code 2.1.332 reads it (K0: ``^---\\s*\\n``, then up
#: to the first ``---`` anywhere), holds ``!`echo $ARGUMENTS``` where the gate's skillargs
#: sees frontmatter. The first is kept unchanged by ``apply --plan Bash(echo *)`` and measured
#: end to end (tests/conformance/test_s46_freview_e2e.py G1: ``touch zz`` ran); the others
#: ``check`` refuses (no frontmatter), but the gate reads any skill file the runtime may load
#: (a user's skill is never checked).
G1_TEXTS = {
    "dashes-in-value": ("---\nname: other\nallowed-tools: Bash(echo *)\ndescription: echo a---b\n"
                        "x: |\n  !`echo $ARGUMENTS`\n---\nResult.\n"),
    "dashes-end-of-value": ("---\nname: other\nallowed-tools: Bash(echo *)\ndescription: echo "
                            "a---\n  !`echo $ARGUMENTS`\n---\nResult.\n"),
    "four-dash-open": "----\n!`echo $ARGUMENTS`\n---\nResult.\n",
    "dash-word-open": "---x\n!`echo $ARGUMENTS`\n---\nResult.\n",
}


@pytest.mark.parametrize("row", sorted(G1_TEXTS))
def test_g1_the_gate_reads_a_skills_frontmatter_otherwise_than_the_runtime(
        tmp_path: Path, row: str) -> None:
    """s45 K1: the runtime fills ``$ARGUMENTS`` in the body's ``!`` commands from a Skill
    call's args and runs them unseen by any hook; the gate must judge the filled command
    (``echo hi; touch zz``: not covered by ``Bash(echo *)``)."""
    got = skill_call(tmp_path, G1_TEXTS[row], "hi; touch zz")
    assert got.status != "covered", got


def test_g1_control_the_gate_judges_the_filled_command(tmp_path: Path) -> None:
    assert skill_call(tmp_path, "---\nname: other\ndescription: d\nallowed-tools: Bash(echo *)"
                      "\n---\nResult: !`echo $ARGUMENTS`\n", "hi; touch zz").status \
        == "not_covered"


_G2_HEAD = "---\nname: other\ndescription: d\nallowed-tools: Bash(echo *)\n"
#: ``arguments`` as Bun reads it (``who``), each kept unchanged by ``apply --plan Bash(echo
#: *)``; the gate finds no ``who``. Measured end to end for "quoted-key" (G1's e2e test,
#: row named-quoted-key: ``Skill(other, args="zz")`` ran ``touch zz``).
G2_TEXTS = {
    "quoted-key": _G2_HEAD + '"arguments": [who]\n---\n!`touch $who`\n',
    "explicit-key": _G2_HEAD + "? arguments\n: [who]\n---\n!`touch $who`\n",
    "duplicate-key": _G2_HEAD + "arguments: [x]\narguments: [who]\n---\n!`touch $who`\n",
    "flow-list-over-lines": _G2_HEAD + "arguments: [\n  who]\n---\n!`touch $who`\n",
    "block-list-after-blank": _G2_HEAD + "arguments:\n\n  - who\n---\n!`touch $who`\n",
    # the runtime drops a leading byte-order mark (eC); the gate then sees no frontmatter
    "byte-order-mark": "\ufeff" + _G2_HEAD + "arguments: [who]\n---\n!`touch $who`\n",
}


@pytest.mark.parametrize("row", sorted(G2_TEXTS))
def test_g2_the_gate_reads_named_arguments_otherwise_than_the_runtime(
        tmp_path: Path, row: str) -> None:
    """``Skill(other, args="zz")`` fills ``$who`` (the runtime's named argument) and runs
    ``touch zz``; the gate must judge it (the plan holds ``Bash(echo *)`` only)."""
    got = skill_call(tmp_path, G2_TEXTS[row], "zz")
    assert got.status != "covered", got


_BUN_ARGUMENTS = ('const t=JSON.parse(require("fs").readFileSync(0,"utf8"));console.log('
                  'JSON.stringify(t.map((s)=>Bun.YAML.parse(s.split("---\\n")[1].replace(/^\\uFEFF/,""))'
                  '.arguments)))')


@needs_bun
def test_g2_bun_reads_the_named_argument() -> None:
    texts = [G2_TEXTS[row] for row in sorted(G2_TEXTS)]
    done = subprocess.run([str(BUN), "-e", _BUN_ARGUMENTS], input=json.dumps(texts),
                          capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == [["who"]] * len(texts)
