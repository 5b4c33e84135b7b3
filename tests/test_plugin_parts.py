"""A plugin's folders that run or grant beside its skill and command files (skillfile.pluginparts;
review s47-freview P2-P4, s46-freview2's OPEN on workflows): Copilot CLI's Agent Plugins layout
``com.github.copilot/``, an agent whose frontmatter may declare ``mcp-servers`` (its ``agents/``
folder, or the files its manifest's ``agents`` names), and Claude Code's ``workflows``. Each is
refused, located; the controls (an agent with no MCP server, the folders outside a plugin)
pass. tests/test_s47_freview.py and tests/conformance/test_copilot_s47_freview.py (P2-P4) show
through Copilot CLI 1.0.102 that the refused classes run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillgrant import SkillFileError
from skillgrant.skillfile.plugin import judge_plugin

SKILL = "---\nname: probe\ndescription: d\nallowed-tools: Read\n---\nRun it.\n"
AGENT = "---\nname: ev\ndescription: probe agent\ntools: [\"*\"]\n---\nDo it.\n"
MANIFEST = json.dumps({"name": "cplug"})


def _judge(root: Path, files: dict[str, str]) -> None:
    for rel, text in {"skills/probe/SKILL.md": SKILL, **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    judge_plugin(str(root / "skills" / "probe" / "SKILL.md"))


#: (files beside the plugin's skill, the refusal's words).
REFUSED = {
    "agent plugins layout, no $schema": (
        {".plugin/plugin.json": MANIFEST, "com.github.copilot/extensions/x/extension.mjs": "1"},
        "com.github.copilot:1:1: Copilot CLI reads an Agent Plugins spec"),
    "agent mcp-servers": ({".claude-plugin/plugin.json": MANIFEST, "agents/ev.agent.md": AGENT
                           .replace("tools:", "mcp-servers: {x: {command: sh}}\ntools:")},
                          "ev.agent.md:4:1: the plugin's agent file may declare mcp-servers"),
    "agent mcpServers, nested folder": (
        {"plugin.json": MANIFEST, "agents/a/b.md": AGENT.replace("tools:", "mcpServers: {}\nt:")},
        "b.md:4:1: the plugin's agent file"),
    "agent key spelled with an escape": (
        {".plugin/plugin.json": MANIFEST, "agents/ev.md": AGENT.replace(
            "tools:", '"\\x6dcp-servers": {x: {command: sh}}\ntools:')},
        "ev.md:4:2: the plugin's agent file"),
    "agent beside a root SKILL.md (Copilot's manifest-less plugin)": (
        {"SKILL.md": SKILL, "agents/ev.md": AGENT + "Use the MCP tools.\n"},
        "ev.md:7:9: the plugin's agent file"),
    "manifest agents path": ({".claude-plugin/plugin.json": json.dumps(
        {"name": "p", "agents": ["./x/ev.md"]}), "x/ev.md": AGENT + "mcp\n"}, "x/ev.md:7:1"),
    "manifest agents outside the plugin": ({".claude-plugin/plugin.json": json.dumps(
        {"name": "p", "agents": "../ev.md"})}, "plugin.json:1:15: the plugin's 'agents' names"),
    "manifest agents not a path": ({".plugin/plugin.json": json.dumps(
        {"name": "p", "agents": {"a": 1}})}, "plugin.json:1:15: the plugin's 'agents' names"),
    "workflows folder": ({".claude-plugin/plugin.json": MANIFEST, "workflows/w.js": "1"},
                         "workflows:1:1: Claude Code loads a plugin's workflows/"),
    "workflows folder, manifest-less plugin": ({"workflows/w.js": "1"}, "workflows:1:1"),
    "hooks module, manifest-less plugin": ({"hooks/register.ts": "export {}"},
                                           "register.ts:1:1: Claude Code loads a plugin's hooks"),
    "manifest workflows": ({".claude-plugin/plugin.json": json.dumps(
        {"name": "p", "workflows": "./w.js"})}, "plugin.json:1:15: the plugin's 'workflows'"),
    "marketplace entry agents": ({"../.claude-plugin/marketplace.json": json.dumps(
        {"name": "m", "plugins": [{"name": "plug", "source": "./plug", "agents": ["./a.md"]}]})},
        "marketplace.json:1:64: the plugin's 'plugins.0.agents' names files"),
}


@pytest.mark.parametrize("row", sorted(REFUSED))
def test_a_plugins_part_that_runs_is_refused_located(tmp_path: Path, row: str) -> None:
    files, words = REFUSED[row]
    with pytest.raises(SkillFileError) as refused:
        _judge(tmp_path / "plug", files)
    assert words in refused.value.message, refused.value.message


PASSED = {
    "an agent with no MCP server": {".plugin/plugin.json": MANIFEST, "agents/ev.agent.md": AGENT},
    "an agent's non-Markdown file": {".plugin/plugin.json": MANIFEST,
                                     "agents/openai.yaml": "tools: [{type: mcp}]\n"},
    "a manifest's agents without MCP servers": {".claude-plugin/plugin.json": json.dumps(
        {"name": "p", "agents": ["./x/ev.md"]}), "x/ev.md": AGENT},
    # a manifest-less plugin root (a skills/ folder) is Claude Code's, which ignores a plugin
    # agent's MCP servers; Copilot loads it only with a manifest or a root SKILL.md
    "agents of a manifest-less skills root": {"agents/ev.md": AGENT + "mcp\n"},
}


@pytest.mark.parametrize("row", sorted(PASSED))
def test_a_plugin_without_such_parts_passes(tmp_path: Path, row: str) -> None:
    _judge(tmp_path / "plug", PASSED[row])


def test_a_projects_own_claude_folder_keeps_its_workflows_and_agents(tmp_path: Path) -> None:
    """A manifest-less ``.claude`` is the project's configuration (s43-freview F8's
    boundary), not a plugin: its agents and workflows are not judged here."""
    _judge(tmp_path / ".claude", {"workflows/w.js": "1", "agents/ev.md": AGENT + "mcp\n"})


def test_a_link_loop_under_agents_ends(tmp_path: Path) -> None:
    """The walk follows links (as a runtime's may) and ends where the system's link limit
    does (ELOOP: 40 links); the agent file inside is read once a level, and refused."""
    root = tmp_path / "plug"
    (root / "agents").mkdir(parents=True)
    (root / "agents" / "loop").symlink_to(root / "agents")
    _judge(root, {".plugin/plugin.json": MANIFEST})
    with pytest.raises(SkillFileError, match="may declare mcp-servers"):
        _judge(root, {"agents/ev.md": AGENT + "mcp\n"})


def test_an_agent_file_over_the_limit_is_refused(tmp_path: Path) -> None:
    from skillgrant.limits import MAX_FILE_BYTES

    with pytest.raises(SkillFileError, match=f"over {MAX_FILE_BYTES} bytes"):
        _judge(tmp_path / "plug", {".plugin/plugin.json": MANIFEST,
                                   "agents/ev.md": AGENT + "x" * MAX_FILE_BYTES})
