"""The copilot-cli reading of entries (skillgrant/runtimes/copilot_cli.py), as tables.

Each row's expectation is a measurement of Copilot CLI 1.0.102 (the conformance case that made
it is named in docs/runtime-conformance.md, "Copilot CLI"), not a rerun of the code: the
conformance suite (tests/conformance/test_copilot_conformance.py) runs the same rows through
the binary.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from skillgrant.runtimes.copilot_cli import judge, keys_of, matches, rule

# (entry, the kind of rule it gives, its key)
RULES = [
    ("Bash(gh:*)", "prefix", "gh"),
    ("Bash(gh *)", "exact", "gh *"),  # no globs: it matches the key 'gh *' only
    ("bash(touch)", "exact", "touch"),
    ("BASH(touch)", "exact", "touch"),
    ("SHELL(touch)", "exact", "touch"),
    ("bAsH(touch)", "mcp", "bAsH(touch)"),  # an unmeasured spelling: decided by identity
    ("shell(gh pr)", "exact", "gh pr"),
    ("Bash(touch:*)", "exact", "touch"),  # touch's key is its name: the prefix adds nothing
    ("Bash(git commit:*)", "prefix", "git commit"),  # git: longer keys not ruled out
    ("Bash(git:*)", "prefix", "git"),
    ("Bash(foo:*)", "prefix", "foo"),  # not measured: both key lengths stay possible
    ("Bash", "shell-all", ""),
    ("shell", "shell-all", ""),
    ("*", "nothing", ""),
    ("shell()", "nothing", ""),
    ("shell(*)", "nothing", ""),
    ("Bash(touch zz)", "nothing", ""),  # measured: shell(touch zz) approves no command
    ("Bash(rm -f:*)", "nothing", ""),
    ("Bash(npm run test:*)", "nothing", ""),  # npm's keys are two words
    ("Bash(gh pr create)", "nothing", ""),
    ("Read", "nothing", ""),
    ("Read(//etc/**)", "nothing", ""),
    ("WebFetch(domain:example.com)", "nothing", ""),
    ("Write", "write-all", ""),
    ("Edit", "write-all", ""),
    ("Write(src/**)", "write", "src/**"),
    ("MyTool(touch)", "mcp", "MyTool(touch)"),
    ("Bash( touch:*)", "unread", " touch:*"),
    ("Bash(touch a && rm -f b)", "nothing", ""),  # measured: it approves no command
    ("Bash(touch \"a b\")", "unread", "touch \"a b\""),
]


@pytest.mark.parametrize(("entry", "kind", "key"), RULES)
def test_the_rule_an_entry_gives(entry: str, kind: str, key: str) -> None:
    got = rule(entry)
    assert got.kind == kind
    if kind != "nothing":
        assert got.key == key


# (entry, plan, status, witness): the acceptance row first
JUDGEMENTS = [
    ("Bash(gh:*)", ["Bash(gh *)"], "not_covered", "gh zz"),
    ("Bash(gh pr:*)", ["Bash(gh *)"], "not_covered", "gh pr zz"),
    ("Bash(gh pr:*)", ["Bash(gh:*)"], "covered", None),
    ("Bash(gh pr)", ["Bash(gh:*)"], "covered", None),
    ("Bash(git commit)", ["Bash(git:*)"], "covered", None),
    ("Bash(git commit:*)", ["Bash(git commit)"], "unknown", None),
    ("Bash(gh pr:*)", ["Bash(gh pr)"], "covered", None),  # gh: two words, no more
    ("Bash(git:*)", ["Bash(git commit:*)"], "not_covered", "git zz"),
    ("Bash(touch:*)", ["Bash(touch *)"], "not_covered", "touch zz"),
    ("Bash(touch)", ["Bash(touch:*)"], "covered", None),
    ("Bash(env:*)", ["Bash(env *)"], "not_covered", "env zz"),
    ("Bash(timeout:*)", ["Bash(timeout 5 *)"], "not_covered", "timeout zz"),
    ("Bash", ["Bash(touch:*)"], "not_covered", "rm -rf build"),
    ("Bash", ["Bash(rm:*)"], "not_covered", "touch zz"),
    ("Bash", ["Bash"], "covered", None),
    ("shell", ["Bash"], "covered", None),
    ("Bash(touch zz)", ["Bash(touch *)"], "inert", None),
    ("Read(//etc/**)", [], "inert", None),
    ("Write", ["Bash"], "not_covered", "zz.txt"),
    ("Write(src/**)", ["Edit"], "covered", None),
    ("Bash(gh)", [], "unknown", None),  # bare gh runs with no rule: no witness
    ("Bash(foo bar)", [], "unknown", None),  # foo's key length was not measured
    ("MyTool(x)", ["MyTool(x)"], "covered", None),
    ("MyTool(x)", [], "unknown", None),
    ("Bash(touch \\\\*)", ["Bash"], "covered", None),
    ("Bash(touch \\\\*)", ["Bash(touch:*)"], "unknown", None),
]


@pytest.mark.parametrize(("entry", "plan", "status", "witness"), JUDGEMENTS)
def test_an_entry_against_a_plan(entry: str, plan: list[str], status: str,
                                 witness: str | None) -> None:
    got = judge(entry, plan)
    assert (got.status, got.witness) == (status, witness), got.reason
    if status == "covered":
        assert got.covered_by in plan
    if status == "not_covered":
        assert repr(witness) in got.reason


def test_keys_of_a_witness_hold_whatever_the_tool_list() -> None:
    assert keys_of("gh pr zz") == ("gh pr",)
    assert keys_of("touch zz") == ("touch",)
    assert keys_of("foo zz") == ("foo", "foo zz")
    assert keys_of("foo") == ("foo",)
    assert matches(rule("Bash(foo:*)"), "foo zz") and matches(rule("Bash(foo:*)"), "foo")
    assert not matches(rule("Bash(touch:*)"), "toucha")


# --- the gate reads Copilot CLI's subagents (issue 33; measured in test_copilot_gate_e2e.py) ---

def _copilot_call(tool: str, args: Mapping[str, object], agent: str | None = None) -> bytes:
    body: dict[str, object] = {"sessionId": "s", "timestamp": 1767225600000, "cwd": "/tmp",
                               "toolName": tool, "toolArgs": args}
    if agent is not None:  # as Copilot CLI 1.0.102 sends a subagent's call
        body |= {"agentId": agent, "agentType": "general-purpose", "parentAgentId": "s"}
    return json.dumps(body).encode()


def test_the_gate_reads_copilot_subagents_and_their_task_calls(tmp_path: Path) -> None:
    from skillgrant.gate.hook import Options, decide

    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(echo *)", "Agent(general-purpose)"]}))
    judged = Options({"--plan": str(plan), "--dialect": "copilot-cli"})
    task = {"description": "d", "name": "n", "prompt": "p", "mode": "sync"}
    assert decide(judged, _copilot_call("task", {**task, "agent_type": "general-purpose"})
                  ).stdout == "{}\n"
    assert decide(judged, _copilot_call("task", {**task, "agent_type": "explore"})).status == 2
    touch = {"command": "touch zz"}
    assert decide(judged, _copilot_call("bash", touch, agent="a1")).status == 2
    # The hook that follows a skill judges a Copilot subagent's call, named by `agentId`.
    following = Options({"--plan": str(plan), "--dialect": "copilot-cli",
                         "--for-skill": "probe"})
    assert decide(following, _copilot_call("bash", touch, agent="a1")).status == 2
    assert decide(following, _copilot_call("bash", touch)).status == 0
