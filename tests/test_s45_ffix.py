"""Session 45's fixes of the reader holes review s45-freview found (F3, F5, COST hooks-empty,
L1, F7). Each row failed before its fix. The runtime readings were measured with Bun 1.4.5
(``Bun.YAML.parse``) and the rules of Claude Code 2.1.332 named in each test."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from reader_review import BUN, needs_bun

from skillgrant.errors import SkillFileError
from skillgrant.plan import Plan
from skillgrant.skillfile import apply_to_text, read_skill


#: tests/oracle/bun_runtime.py's pinned Bun.
def _skill(lines: str) -> str:
    return f"---\nname: probe\ndescription: d\n{lines}\n---\nbody\n"


#: Keys whose value is ``<<``, each merged by Bun 1.4.5 (measured: ``? |-`` ⏎ ``  <<`` ⏎
#: ``: {a: 1}`` parses to ``{a: 1}``; so do the folded key, the flow key, ``!!str <<``).
F3_KEYS = {
    "literal-block-key": "? |-\n  <<\n: {allowed-tools: Bash(touch *)}",
    "folded-block-key": "? >-\n  <<\n: {allowed-tools: Bash(touch *)}",
    "explicit-quoted-key": '? "<<"\n: {allowed-tools: Bash(touch *)}',
    "nested-flow-key": 'x: {"<<": {allowed-tools: Bash(touch *)}}',
    "merge-of-a-list": '"<<": [{allowed-tools: Bash(touch *)}]',
    "hex-escapes": '"\\x3C\\x3C": {allowed-tools: Bash(touch *)}',
    "str-tag": "!!str <<: {allowed-tools: Bash(touch *)}",
}


@pytest.mark.parametrize("row", sorted(F3_KEYS))
def test_f3_a_key_whose_value_is_a_merge_key_is_refused(row: str) -> None:
    with pytest.raises(SkillFileError, match="merge keys"):
        apply_to_text(_skill(F3_KEYS[row]), Plan.from_entries([]))


ENFORCE = "/usr/bin/skillgrant hook --plan /p/plan.json"

#: Lines beside which ``apply --enforce`` must refuse: Claude Code 2.1.332 would load the skill
#: with no hooks (``w3i``/``bwe``), end its frontmatter before the hook, or read nothing.
F5_REFUSED = {
    "top-level-pretooluse": "PreToolUse: x",
    "top-level-preskillshellcommand": "PreSkillShellCommand: {a: 1}",
    "matcher-in-a-list": "x: [{matcher: a, hooks: [{type: command, command: c}]}]",
    "matcher-in-a-mapping": "x: {y: {hooks: {type: command}}}",
    "permissionrequest-two-down": "x: [{y: {PermissionRequest: 1}}]",
    "dashes-in-a-value": "x: a---b",
    "bun-rejects": 'x: "a\nb"',
}
#: Lines the runtime's test passes: the hook is read, and written.
F5_WRITTEN = {
    "empty-list": "PreToolUse: []",
    "null": "PreToolUse: ~",
    "under-metadata": "metadata: {PreToolUse: x}",
    "under-mcpservers": "mcpServers: {a: {PreToolUse: x}}",
    "event-name-holding-a-matcher": "Stop: {matcher: a, hooks: [1]}",
    "too-deep": "x: [[[[{PreToolUse: 1}]]]]",
}


@pytest.mark.parametrize("row", sorted(F5_REFUSED))
def test_f5_enforce_refuses_where_the_runtime_would_not_run_its_hook(row: str) -> None:
    text = _skill(f"allowed-tools: Bash(echo *)\n{F5_REFUSED[row]}")
    with pytest.raises(SkillFileError, match="would never run") as caught:
        apply_to_text(text, Plan.from_entries(["Bash(echo *)"]), enforce=ENFORCE)
    assert caught.value.line is not None


@pytest.mark.parametrize("row", sorted(F5_WRITTEN))
def test_f5_enforce_writes_where_the_runtime_runs_its_hook(row: str) -> None:
    text = _skill(f"allowed-tools: Bash(echo *)\n{F5_WRITTEN[row]}")
    new, _ = apply_to_text(text, Plan.from_entries(["Bash(echo *)"]), enforce=ENFORCE)
    assert "PreToolUse:" in new and ENFORCE in new


def test_f5_enforce_refuses_a_hook_it_wrote_once_the_runtime_would_drop_it() -> None:
    """Applying again to a file with the gate's hook and a top-level PreToolUse added since."""
    plan = Plan.from_entries(["Bash(echo *)"])
    new, _ = apply_to_text(_skill("allowed-tools: Bash(echo *)"), plan, enforce=ENFORCE)
    with pytest.raises(SkillFileError, match="would never run"):
        apply_to_text(new.replace("name: probe\n", "name: probe\nPreToolUse: x\n"), plan,
                      enforce=ENFORCE)


# Claude Code 2.1.332's own functions (copied from the JavaScript embedded in the binary).
_RUNTIME_JS = r"""
const FV=new Set(["PreToolUse","PermissionRequest","PreSkillShellCommand"]);
const BZn=new Set(["metadata","mcpServers","lspServers"]);const ce=new Set;
const Oc=%s;
function Zje(e){if(!e||typeof e!=="object"||Array.isArray(e))return!1;if(!("matcher"in e)&&Object.keys(e).some((s)=>Oc.includes(s)))return!1;let n=e.hooks;if(Array.isArray(n))return n.length>0;return!!n&&typeof n==="object"&&(("matcher"in e)||typeof n.type==="string")}
function pe(e){if(!e||typeof e!=="object"||Array.isArray(e))return!1;return Object.entries(e).some(([n,s])=>FV.has(n)&&s!==null&&s!==void 0&&!(Array.isArray(s)&&s.length===0))}
function Prt(e,n=3,{matchersCount:s=!0,unscannedKeys:o=ce,inHooksList:a=!1}={}){if(pe(e))return!0;if(s&&Zje(e))return!0;if(n===0||!e||typeof e!=="object")return!1;if(Array.isArray(e))return e.some((i)=>Prt(i,n-1,{matchersCount:s,unscannedKeys:o,inHooksList:a}));if(a&&typeof e.type==="string")return!1;return Object.entries(e).some(([i,l])=>!o.has(i)&&Prt(l,n-1,{unscannedKeys:o,matchersCount:s&&!Oc.includes(i),inHooksList:i==="hooks"&&Array.isArray(l)}))}
function bwe(e,n){if(!e||typeof e!=="object"||Array.isArray(e))return!1;return pe(e)||Object.entries(e).some(([s,o])=>s!=="hooks"&&!n.has(s)&&Prt(o,3,{unscannedKeys:n,matchersCount:!Oc.includes(s)}))}
const input=JSON.parse(require("fs").readFileSync(0,"utf8"));
console.log(JSON.stringify(input.map((e)=>bwe(e,BZn))));
"""  # noqa: E501
_KEYS = ("PreToolUse", "PermissionRequest", "PreSkillShellCommand", "Stop", "hooks", "matcher",
         "type", "metadata", "mcpServers", "lspServers", "x", "y")


def _value(rng: random.Random, depth: int) -> object:
    roll = rng.random()
    if depth == 0 or roll < 0.3:
        return rng.choice([None, [], {}, "", "s", 0, 1, True, False])
    if roll < 0.55:
        return [_value(rng, depth - 1) for _ in range(rng.randrange(3))]
    return {rng.choice(_KEYS): _value(rng, depth - 1) for _ in range(rng.randrange(4))}


@needs_bun
def test_f5_hookdrop_is_the_runtimes_test() -> None:
    """``hookdrop.declares_hooks_outside`` against the runtime's ``bwe``, run by Bun, on
    20,000 generated frontmatters (nested up to six levels)."""
    from skillgrant.skillfile.hookdrop import _EVENTS, declares_hooks_outside

    rng = random.Random(4545)
    cases: list[dict[str, object]] = []
    while len(cases) < 20_000:
        case = _value(rng, 6)
        if isinstance(case, dict):
            cases.append(case)
    script = _RUNTIME_JS % json.dumps(sorted(_EVENTS))
    done = subprocess.run([str(BUN), "-e", script], input=json.dumps(cases),
                          capture_output=True, text=True, timeout=120, check=True)
    theirs = json.loads(done.stdout)
    ours = [declares_hooks_outside(case) is not None for case in cases]
    wrong = [case for case, a, b in zip(cases, ours, theirs, strict=True) if a != b]
    assert not wrong, wrong[:3]
    assert 2_000 < sum(theirs) < 18_000  # both answers are exercised


#: Keys Claude Code 2.1.332 reads as no hooks (``if(!e.hooks)``; ``{}`` parses to none) or no
#: agent (``e.agent!=null``): check/apply pass them; the spelling of each is as Bun reads it.
COST_NOTHING = {"hooks-null": "hooks:", "hooks-tilde": "hooks: ~", "hooks-empty": 'hooks: ""',
                "hooks-false": "hooks: false", "hooks-zero": "hooks: 0",
                "hooks-no-mapping": "hooks: {}", "agent-null": "agent:",
                "agent-tilde": "agent: ~"}
#: Still judged (refused): what the runtime reads as hooks or an agent, or may.
COST_JUDGED = {"hooks-mapping": "hooks: {Stop: [{hooks: [{type: command, command: x}]}]}",
               "hooks-list": "hooks: []", "hooks-string": "hooks: x",
               "agent-empty": 'agent: ""', "agent-false": "agent: false"}


@pytest.mark.parametrize("row", sorted(COST_NOTHING))
def test_cost_a_key_the_runtime_reads_as_nothing_passes(row: str) -> None:
    new, decision = apply_to_text(_skill(f"allowed-tools: Read\n{COST_NOTHING[row]}"),
                                  Plan.from_entries(["Read"]))
    assert list(decision.allowed) == ["Read"] and new.startswith("---")


@pytest.mark.parametrize("row", sorted(COST_JUDGED))
def test_cost_a_key_the_runtime_reads_is_still_refused(row: str) -> None:
    with pytest.raises(SkillFileError, match="beyond its plan"):
        apply_to_text(_skill(f"allowed-tools: Read\n{COST_JUDGED[row]}"),
                      Plan.from_entries(["Read"]))


@needs_bun
def test_cost_bun_reads_no_hooks_and_no_agent_from_those_keys() -> None:
    """The runtime's own tests on Bun's reading of each COST_NOTHING frontmatter."""
    texts = [f"name: probe\n{line}\n" for line in COST_NOTHING.values()]
    script = ('const t=JSON.parse(require("fs").readFileSync(0,"utf8"));console.log(JSON.'
              'stringify(t.map((s)=>{const e=Bun.YAML.parse(s);return !!e.hooks&&!(typeof '
              'e.hooks==="object"&&!Array.isArray(e.hooks)&&Object.keys(e.hooks).length===0)'
              '||e.agent!=null;})))')
    done = subprocess.run([str(BUN), "-e", script], input=json.dumps(texts),
                          capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == [False] * len(texts)


#: Plain scalars PyYAML reads as strings and Bun 1.4.5 as numbers (the runtime keeps only a
#: list's strings): refused, as an entry PyYAML reads as a number is. Quoted, they are strings.
L1_NUMBERS = ("1e3", "1E3", "1e+3", "-1e-3", "1.5e3", "1.e3", "0e0", "1e999", "0o17", "+0o17",
              "-0o7", "08", "-.5", "+.5", "+.0", "+.inf", "1.", "-08")
L1_STRINGS = ("1e3x", "0o8", "0X1F", "e3", ".e3", "+", ".", "1e", "0x", "inf", "NaN", "+.nan",
              "1.2.3", "0o", "1e3.0")


@pytest.mark.parametrize("number", L1_NUMBERS)
def test_l1_a_plain_number_to_bun_is_refused(number: str) -> None:
    for value in (f"[Read, {number}]", f"\n  - Read\n  - {number}", number):
        with pytest.raises(SkillFileError, match="not a number"):
            apply_to_text(_skill(f"allowed-tools: {value}"), Plan.from_entries(["Read"]))
    new, _ = apply_to_text(_skill(f"allowed-tools: [Read, '{number}']"),
                           Plan.from_entries(["Read"]))
    assert number not in new  # a quoted one is an entry, dropped


@pytest.mark.parametrize("text", L1_STRINGS)
def test_l1_a_plain_string_to_bun_is_an_entry(text: str) -> None:
    doc = read_skill(_skill(f"allowed-tools: [Read, {text}]"))
    assert doc.runtime_entries == ("Read", text)


@needs_bun
def test_l1_the_rows_are_buns_reading() -> None:
    plain = [*L1_NUMBERS, *L1_STRINGS]
    script = ('const t=JSON.parse(require("fs").readFileSync(0,"utf8"));console.log(JSON.'
              'stringify(t.map((s)=>typeof Bun.YAML.parse("v: ["+s+"]").v[0])))')
    done = subprocess.run([str(BUN), "-e", script], input=json.dumps(plain),
                          capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == ["number"] * len(L1_NUMBERS) + ["string"] * len(
        L1_STRINGS)


_LOCAL = {"pwn": {"command": "sh", "args": ["-c", "touch mcpran"]}}
_REMOTE = {"docs": {"type": "http", "url": "https://example.com/mcp"}}
#: A plugin whose MCP servers Claude Code 2.1.332 starts when the plugin loads (measured by
#: review s45-freview: a local server's command runs): refused, naming the server.
F7_REFUSED = {
    "mcp-json": {".mcp.json": json.dumps({"mcpServers": _LOCAL})},
    "mcp-json-no-manifest": {".mcp.json": json.dumps({"mcpServers": _LOCAL}), "-": ""},
    "manifest": {".claude-plugin/plugin.json": json.dumps({"name": "p", "mcpServers": _LOCAL})},
    "manifest-names-a-file": {".claude-plugin/plugin.json": json.dumps(
        {"name": "p", "mcpServers": "./servers.json"})},
    "mixed": {".mcp.json": json.dumps({"mcpServers": {**_REMOTE, **_LOCAL}})},
}
F7_PASSED = {
    "remote-only": {".mcp.json": json.dumps({"mcpServers": _REMOTE})},
    "no-servers": {".claude-plugin/plugin.json": json.dumps({"name": "p", "mcpServers": {}})},
}


def _plugin(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "plug"
    manifest = {".claude-plugin/plugin.json": '{"name": "p"}'} if "-" not in files else {}
    for name, text in {**manifest, **files, "commands/pc.md": _skill("allowed-tools: Read")
                       }.items():
        if name != "-":
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
    return root / "commands" / "pc.md"


@pytest.mark.parametrize("row", sorted(F7_REFUSED))
def test_f7_a_plugin_whose_mcp_server_runs_a_command_is_refused(tmp_path: Path,
                                                                row: str) -> None:
    from skillgrant.skillfile import apply_to_file

    with pytest.raises(SkillFileError, match="MCP server") as caught:
        apply_to_file(_plugin(tmp_path, F7_REFUSED[row]), Plan.from_entries(["Read"]))
    assert "pwn" in str(caught.value) or "names MCP server files" in str(caught.value)


@pytest.mark.parametrize("row", sorted(F7_PASSED))
def test_f7_a_plugin_with_only_remote_mcp_servers_passes(tmp_path: Path, row: str) -> None:
    from skillgrant.skillfile import apply_to_file

    apply_to_file(_plugin(tmp_path, F7_PASSED[row]), Plan.from_entries(["Read"]))


def _check(tmp_path: Path) -> subprocess.CompletedProcess[str]:
    import os
    import sys

    (tmp_path / "plan.yaml").write_text("allowed-tools: Read\n")
    return subprocess.run([sys.executable, "-m", "skillgrant", "check", "--plan", "plan.yaml",
                           "."], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"}, stdin=subprocess.DEVNULL)


#: ``.github/copilot/settings.json`` ``skillDirectories`` (review s45-freview F8): Copilot
#: CLI 1.0.102 loads skills from each relative folder in the project, node_modules and .git
#: included. What ``check .`` says then.
F8_SETTINGS = {
    "node-modules": ('{"skillDirectories": ["node_modules/pkg/skills"]}', "shell(touch)"),
    "git": ('{"skillDirectories": ["./.git/skills"]}', "shell(touch)"),
    "not-json": ('{"skillDirectories": [node_modules]}', "Read"),
    "not-a-list": ('{"skillDirectories": "node_modules/pkg/skills"}', "Read"),
}


@pytest.mark.parametrize("row", sorted(F8_SETTINGS))
def test_f8_check_walks_copilots_skill_directories(tmp_path: Path, row: str) -> None:
    settings, hidden = F8_SETTINGS[row]
    folder = tmp_path / ("node_modules/pkg/skills" if row != "git" else ".git/skills") / "p"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(_skill(f"allowed-tools: {hidden}"))
    (tmp_path / ".github" / "copilot").mkdir(parents=True)
    (tmp_path / ".github" / "copilot" / "settings.json").write_text(settings)
    done = _check(tmp_path)
    assert done.returncode != 0, done.stdout + done.stderr
    assert ("SKILL.md" in done.stdout + done.stderr if hidden != "Read"
            else "settings.json" in done.stderr)


def test_f8_a_read_only_skill_there_passes(tmp_path: Path) -> None:
    folder = tmp_path / "node_modules" / "pkg" / "skills" / "p"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(_skill("allowed-tools: Read"))
    (tmp_path / ".github" / "copilot").mkdir(parents=True)
    (tmp_path / ".github" / "copilot" / "settings.json").write_text(
        '{"skillDirectories": ["node_modules/pkg/skills", "/elsewhere", "../out"]}')
    done = _check(tmp_path)
    assert done.returncode == 0 and "1 file checked" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize(("where", "refused"), [
    ("plug/commands/pc.md", True), ("plug/commands/sub/pc.md", True), ("plug/other.md", True),
    (".claude/commands/pc.md", False), (".claude/skills/p/SKILL.md", False),
    ("plug/skills/p/SKILL.md", False)])
def test_f5_enforce_refuses_a_plugin_command(tmp_path: Path, where: str, refused: bool) -> None:
    """Claude Code loads a plugin's command (not a skill) with no hooks (``kZ``, measured by
    the review): the gate's hook there would never run."""
    path = str(tmp_path / where)
    text = _skill("allowed-tools: Bash(echo *)")
    plan = Plan.from_entries(["Bash(echo *)"])
    if refused:
        with pytest.raises(SkillFileError, match="plugin's command"):
            apply_to_text(text, plan, enforce=ENFORCE, path=path)
    else:
        assert ENFORCE in apply_to_text(text, plan, enforce=ENFORCE, path=path)[0]
