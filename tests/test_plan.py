"""The approved plan (semantics §7): loaders, validation, and errors located at file:line:column."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml

from skillgrant import PlanError, constrain
from skillgrant.limits import MAX_ENTRIES_PER_VALUE
from skillgrant.plan.model import BaseDirs, Plan, ShellTool
from skillgrant.plan.source import MAX_PLAN_CHARS
from skillgrant.skillfile.yamlspan import LOADER


@pytest.mark.parametrize(("source", "text", "entries"), [
    ("p.yaml", "allowed-tools: Bash(gh *), Read\n", ["Bash(gh *)", "Read"]),
    ("p.yaml", "allowed-tools: Bash(gh *) Read\n", ["Bash(gh *)", "Read"]),
    ("p.yaml", "allowed-tools:\n  - Bash(gh *)\n  - Read Grep\n", ["Bash(gh *)", "Read", "Grep"]),
    ("p.yaml", "allowedTools: [Read]\n", ["Read"]),
    ("p.yaml", "allowed_tools: Read\n", ["Read"]),
    ("p.yaml", "allowed-tools: []\n", []),
    ("p.yaml", "allowed-tools: ''\n", []),
    ("p.yaml", "---\nallowed-tools: [Read]\nx-reviewer: ana\n$schema: plan.json\n", ["Read"]),
    ("p.json", '{"allowed-tools": ["Read", "Bash(npm test)"]}', ["Read", "Bash(npm test)"]),
    ("p.json", '\t{\n\t"allowedTools": "Read"\n}', ["Read"]),
    ("plan", '{"allowed-tools": "Read"}', ["Read"]),
    ("plan", "{allowed-tools: Read}", ["Read"]),
    ("settings.json", '{"permissions": {"allow": ["Read", "Bash(git *)"], "deny": ["Bash"]}}',
     ["Read", "Bash(git *)"]),
    ("settings.json", '{"model": "x", "permissions": {"deny": ["Bash"]}}', []),
    ("SKILL.md", "---\nname: x\nallowed-tools: Read, Grep\n---\nbody\n", ["Read", "Grep"]),
    ("SKILL.md", "---\nname: x\n---\nbody\n", []),
    # A tab after a list item's dash, as Bun reads it (the approved file read as a SKILL.md is).
    ("SKILL.md", "---\nallowed-tools:\n-\tBash(git *)\n- Read\n---\nbody\n",
     ["Bash(git *)", "Read"]),
])
def test_loads(source: str, text: str, entries: list[str]) -> None:
    plan = Plan.from_text(text, source=source)
    assert plan.allowed_tools == entries
    assert plan.source == source


def test_explicit_kinds() -> None:
    skill = "---\nallowed-tools: Read\n---\n"
    assert Plan.from_text(skill, kind="skill").allowed_tools == ["Read"]
    assert Plan.from_text('{"model": "x"}', kind="settings").allowed_tools == []
    with pytest.raises(PlanError, match="no allowed-tools key"):
        Plan.from_text('{"permissions": {"allow": ["Read"]}}', kind="plan")


def test_shell_tools_and_base_dirs() -> None:
    plan = Plan.from_text(
        "allowed-tools: Bash(npm *)\n"
        "shell-tools:\n  exec_command: {command-argument: cmd}\n  run: ~\n"
        "base-dirs: {cwd: /work/app, home: /home/ana}\n", source="p.yaml")
    cmd = ShellTool.model_validate({"command-argument": "cmd"})
    assert plan.shell_tools == {"exec_command": cmd, "run": ShellTool()}
    assert plan.base_dirs == BaseDirs(cwd="/work/app", home="/home/ana")
    assert plan.constrain_kwargs() == {
        "shell_tools": {"exec_command": {"command-argument": "cmd"},
                        "run": {"command-argument": "command"}},
        "base_dirs": {"cwd": "/work/app", "home": "/home/ana", "root": None},
        "runtime": None,
    }
    decision = constrain(["exec_command(npm install)"], plan.allowed_tools,
                         **plan.constrain_kwargs())
    # Claude Code has no exec_command: the alias joins nothing there (issue 28), so the plan
    # is restored.
    assert decision.restored and decision.allowed == ["Bash(npm *)"]


def test_shell_tools_as_a_list_of_names() -> None:
    plan = Plan.from_text("allowed-tools: Read\nshell-tools: [exec_command]\n")
    assert plan.shell_tools == {"exec_command": ShellTool()}


def test_from_entries() -> None:
    plan = Plan.from_entries(["Bash(gh *), Read"], shell_tools=["x_shell"],
                             base_dirs={"cwd": "/w"}, source="builder")
    assert plan.allowed_tools == ["Bash(gh *)", "Read"]
    assert plan.source == "builder"
    assert plan.constrain_kwargs()["base_dirs"] == {"cwd": "/w", "home": None, "root": None}
    with pytest.raises(PlanError) as info:
        Plan.from_entries(["Bash(("])
    assert info.value.entry == "Bash(("
    assert info.value.line is None


def test_load_by_file_name(tmp_path: Path) -> None:
    (tmp_path / "plan.yaml").write_text("allowed-tools: [Read]\n", encoding="utf-8")
    (tmp_path / "settings.json").write_bytes(
        b"\xef\xbb\xbf" + json.dumps({"permissions": {"allow": ["Grep"]}}).encode())
    (tmp_path / "SKILL.md").write_text("---\nallowed-tools: Glob\n---\n", encoding="utf-8")
    assert Plan.load(tmp_path / "plan.yaml").allowed_tools == ["Read"]
    assert Plan.load(tmp_path / "settings.json").allowed_tools == ["Grep"]
    assert Plan.load(str(tmp_path / "SKILL.md")).allowed_tools == ["Glob"]


@pytest.mark.parametrize(("source", "text", "message"), [
    ("p.yaml", "allowed-tools: [Read, 3]\n",
     "p.yaml:1:23: allowed-tools: item 2 must be a string, not an integer"),
    ("p.yaml", "allowed-tools: Read Foo(x (y) Bash )\n",
     "p.yaml:1:21: allowed-tools: approved entry 'Foo(x (y) Bash )' is ambiguous: Claude Code "
     "would read it as 'Foo(x (y)' + 'Bash' + ')'"),
    ("p.yaml", "allowed-tools: Read\nallowedTools: Bash\n",
     "p.yaml:2:1: 'allowed-tools' and 'allowedTools' are the same key; give one"),
    ("p.yaml", "allowed-tool: Read\n",
     "p.yaml:1:1: the plan has no allowed-tools key: unknown key 'allowed-tool' (did you mean "
     "'allowed-tools'?)"),
    ("p.yaml", "allowed-tools: Read\nshel-tools: {}\n",
     "p.yaml:2:1: unknown key 'shel-tools' (did you mean 'shell-tools'?); plan keys are "
     "allowed-tools, shell-tools, base-dirs and runtime (x-… keys are ignored)"),
    ("p.yaml", "allowed-tools: Read\nsource: me\n",
     "p.yaml:2:1: unknown key 'source'; plan keys are allowed-tools, shell-tools, base-dirs "
     "and runtime (x-… keys are ignored)"),
    ("p.yaml", "allowed-tools: Read\nbase-dirs:\n  cwd: relative/dir\n",
     "p.yaml:3:8: base-dirs.cwd: must be an absolute path, not 'relative/dir'"),
    ("p.yaml", "allowed-tools: Read\nbase-dirs:\n  cwd: 3\n",
     "p.yaml:3:8: base-dirs.cwd: Input should be a valid string"),
    ("p.yaml", "allowed-tools: Read\nbase-dirs:\n  pwd: /x\n",
     "p.yaml:3:8: base-dirs.pwd: Extra inputs are not permitted (did you mean 'cwd'?)"),
    ("p.yaml", "allowed-tools: Read\nshell-tools:\n  bash: {}\n",
     "p.yaml:3:3: 'bash' is the built-in Bash; shell-tools declares other tools"),
    ("p.yaml", "allowed-tools: Read\nshell-tools:\n  mcp__x__run: {}\n",
     "p.yaml:3:3: 'mcp__x__run' is an MCP tool; shell-tools declares other tools"),
    ("p.yaml", "allowed-tools: Read\nshell-tools:\n  exec:\n    command-argument: 5\n",
     "p.yaml:4:23: shell-tools.exec.command-argument: Input should be a valid string"),
    ("p.yaml", "allowed-tools: Read\nallowed-tools: Bash\n",
     "p.yaml:2:1: duplicate key 'allowed-tools' (the first is on line 1)"),
    ("p.yaml", "a: &a [Read]\nallowed-tools: *a\n",
     "p.yaml:2:16: YAML aliases (*name) are not accepted here"),
    ("p.yaml", "<<: {allowed-tools: Read}\n",
     "p.yaml:1:1: YAML merge keys (<<) are not accepted here"),
    ("p.yaml", "allowed-tools: [Read\n",
     "p.yaml:2:1: invalid YAML: did not find expected ',' or ']' (while parsing a flow "
     "sequence)"),
    ("p.yaml", "", "p.yaml: the plan is empty: it needs an allowed-tools key"),
    ("p.yaml", "- Read\n", "p.yaml:1:1: a plan must be a mapping of keys, not a list"),
    ("p.yaml", "allowed-tools: 5\n",
     "p.yaml:1:16: allowed-tools: must be a string or a list of strings, not an integer"),
    ("p.yaml", "allowed-tools:\n",
     "p.yaml:1:15: allowed-tools: must be a string or a list of strings, not null"),
    ("p.json", '{"allowed-tools": ["Read",]}', "p.json:1:27: invalid JSON: Expecting value"),
    ("p.json", '{"allowed-tools": ["Read"], "allowed-tools": []}',
     "p.json:1:29: duplicate key 'allowed-tools' (the first is on line 1)"),
    ("settings.json", '{"permissions": {"allow": "Read"}}',
     "settings.json:1:27: permissions.allow must be a list of strings"),
    ("settings.json", '{"permissions": []}',
     "settings.json:1:17: permissions must be a mapping"),
    ("SKILL.md", "no frontmatter",
     "SKILL.md:1:1: no frontmatter: the file must begin with a '---' line"),
])
def test_errors_are_located(source: str, text: str, message: str) -> None:
    with pytest.raises(PlanError) as info:
        Plan.from_text(text, source=source)
    assert str(info.value) == message


@pytest.mark.parametrize(("source", "text", "line", "column"), [
    ("p.yaml", "allowed-tools:\n  - Read\n  - Bash(gh *) Bash((\n", 3, 16),
    ("p.json", '{\n  "allowedTools": [\n    "Read",\n    "Bash(("\n  ]\n}\n', 4, 6),
    ("settings.json", '{"permissions": {"allow": ["Read", "Bash(x"]}}', 1, 37),
    ("SKILL.md", "---\nname: x\nallowed-tools: Read, Bash((\n---\n", 3, 22),
])
def test_an_invalid_entry_is_pointed_at(source: str, text: str, line: int, column: int) -> None:
    with pytest.raises(PlanError) as info:
        Plan.from_text(text, source=source)
    assert (info.value.source, info.value.line, info.value.column) == (source, line, column)
    assert info.value.entry in ("Bash((", "Bash(x")
    assert "approved entry is invalid" in info.value.message


def test_too_many_entries() -> None:
    text = "allowed-tools: " + ", ".join(["Read"] * (MAX_ENTRIES_PER_VALUE + 1)) + "\n"
    with pytest.raises(PlanError, match="MAX_ENTRIES_PER_VALUE"):
        Plan.from_text(text, source="p.yaml")


def test_too_long_a_plan() -> None:
    with pytest.raises(PlanError, match="MAX_PLAN_CHARS"):
        Plan.from_text("allowed-tools: Read\n" + "#" * MAX_PLAN_CHARS)


def test_a_value_yaml_cannot_construct() -> None:
    with pytest.raises(PlanError, match=r"invalid value: month must be in 1\.\.12"):
        Plan.from_text("created: 2024-13-45\nallowed-tools: Read\n", source="p.yaml")


def test_an_alias_bomb_is_refused_quickly() -> None:
    lines = ["a0: &a0 [Read]"] + [
        f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 12)]
    started = time.monotonic()
    with pytest.raises(PlanError, match="aliases"):
        Plan.from_text("\n".join(lines) + "\nallowed-tools: *a11\n")
    assert time.monotonic() - started < 1


def test_load_errors(tmp_path: Path) -> None:
    with pytest.raises(PlanError, match="cannot read the plan"):
        Plan.load(tmp_path / "missing.yaml")
    (tmp_path / "latin1.yaml").write_bytes(b"allowed-tools: caf\xe9\n")
    with pytest.raises(PlanError) as info:
        Plan.load(tmp_path / "latin1.yaml")
    assert info.value.line == 1 and "not UTF-8" in info.value.message


def test_the_c_loader_is_used_when_present() -> None:
    assert LOADER is getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def test_a_plan_is_frozen() -> None:
    plan = Plan.from_entries(["Read"])
    with pytest.raises(ValueError, match="frozen"):
        plan.source = "x"


def test_the_plan_vocabulary_is_the_one_every_reader_uses() -> None:
    # plan/keys.py is the one vocabulary: the model's fields and the library's base-directory
    # check must name the same keys (the model declares its fields, so it cannot read them).
    from skillgrant import prepared
    from skillgrant.plan.keys import BASE_DIRS, SPELLINGS

    assert tuple(BaseDirs.model_fields) == BASE_DIRS == prepared.BASE_DIR_KEYS
    assert {name: field.alias for name, field in Plan.model_fields.items() if name != "source"} == {
        field: names[0] for field, names in SPELLINGS.items()}


def test_the_runtime_key_names_the_runtimes_a_plan_is_judged_for() -> None:
    # Issue 28: a name, names separated by commas, or a list; an unknown name is an error.
    assert Plan.from_text("allowed-tools: Read\nruntime: claude-code\n").constrain_kwargs()[
        "runtime"] == ["claude-code"]
    assert Plan.from_text("allowed-tools: Read\nruntimes: [claude-code]\n").runtime == [
        "claude-code"]
    assert Plan.from_entries(["Read"]).constrain_kwargs()["runtime"] is None
    with pytest.raises(PlanError, match=r"p.yaml:2:10: runtime: unknown runtime 'nope'"):
        Plan.from_text("allowed-tools: Read\nruntime: nope\n", source="p.yaml")
