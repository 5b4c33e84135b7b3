"""Session 46's fixes of review s46-freview (s46-ffix): what each fix refuses, located, what it
keeps, and that the real skills lose nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillgrant.errors import SkillFileError
from skillgrant.plan import Plan
from skillgrant.skillfile import apply_to_text, read_skill
from skillgrant.skillfile.builder import apply_to_file

CORPUS = Path("/work/shared/corpus/real-skills")


def _skill(lines: str) -> str:
    return f"---\nname: probe\ndescription: d\nallowed-tools: Read\n{lines}\n---\nbody\n"


# T1-T3: a tag Bun ignores and PyYAML constructs is refused where the node starts, at any
# depth, on the document itself and on an item too.
@pytest.mark.parametrize(("lines", "where"), [
    ("context: !!null fork", (5, 10)),
    ("agent: !!null\n  helper", (5, 8)),
    ("x: !!set {PreToolUse: y}", (5, 4)),
    ("x: !!omap\n  - PreToolUse: y", (5, 4)),
    ("x: !!pairs [{PermissionRequest: y}]", (5, 4)),
    ("x:\n  y: &a !!null z", (6, 6)),
    ("x:\n  - !!null z", (6, 5)),
    ("x: !!str 123", (5, 4)),  # plain: Bun reads a number (it ignores !!str)
    ("x: !!str true", (5, 4)),
    ("x: ! 12", (5, 4)),  # the non-specific tag: a string to PyYAML
    ("x: !!int '12'", (5, 4)),
    ("x: !!binary aGk=", (5, 4)),
    ("x: !!timestamp 2001-01-01", (5, 4)),
    ("x: !!map [a]", (5, 4)),  # a tag of another kind
    ("x: !<tag:yaml.org,2002:null> y", (5, 4)),
])
def test_a_tagged_value_is_refused_where_it_starts(lines: str, where: tuple[int, int]) -> None:
    text = _skill(lines)
    with pytest.raises(SkillFileError) as raised:
        read_skill(text, "SKILL.md")
    assert "a value written with a YAML tag" in raised.value.message
    assert (raised.value.line, raised.value.column) == where
    with pytest.raises(SkillFileError):
        apply_to_text(text, Plan.from_entries(["Read"]))


def test_a_tagged_document_is_refused() -> None:
    text = "---\n!!set\nallowed-tools: Read\nhooks: x\n---\n"
    with pytest.raises(SkillFileError) as raised:
        read_skill(text, "SKILL.md")
    assert "a value written with a YAML tag (!!set)" in raised.value.message


# Tags both readers read as untagged are kept: the kind's own on a collection, !!str on a
# quoted or block scalar (a string to Bun whatever its text).
@pytest.mark.parametrize("lines", [
    "x: !!map\n  k: v", "x: !!seq\n  - a", "x: !!map {k: v}", "x: !!str '123'",
    "x: !!str \"true\"", "x: !!str |\n  a", "x: &a !!seq [a]", "x: a!b"])
def test_a_tag_both_readers_read_untagged_is_kept(lines: str) -> None:
    doc = read_skill(_skill(lines), "SKILL.md")
    assert doc.allowed_tools is not None and doc.allowed_tools.entries == ("Read",)


# allowed-tools keeps its own words (spans.allowed_of's), now said before the value is built.
@pytest.mark.parametrize(("value", "said"), [
    ("!x Read", "allowed-tools carries a YAML tag or anchor"),
    ("!!null Bash", "allowed-tools carries a YAML tag or anchor"),
    ("\n  - Read\n  - !!null Bash", "allowed-tools item 2 carries a YAML tag or anchor"),
])
def test_a_tag_on_allowed_tools_keeps_its_words(value: str, said: str) -> None:
    with pytest.raises(SkillFileError) as raised:
        read_skill(f"---\nallowed-tools: {value}\n---\n", "SKILL.md")
    assert said in raised.value.message


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the real-skills corpus is not here")
def test_no_real_skill_writes_a_tag() -> None:
    """The corpus's 40 frontmatters read as before: none is refused for a tag."""
    read = 0
    for path in sorted(CORPUS.rglob("*.md")):
        try:
            read_skill(path.read_text(encoding="utf-8"), str(path))
            read += 1
        except SkillFileError as e:
            assert "YAML tag" not in e.message, (path, e.message)
    assert read >= 30


# P1 and the plugin's other parts that run a command when it loads (pluginruns): each is
# refused, located in the plugin file, the command file untouched; a remote MCP server
# without a helper, empty parts, and settings the runtime drops, pass.
_HELPER = {"r": {"type": "http", "url": "https://example.com/mcp", "headersHelper": "touch x"}}
_LSP = {"py": {"command": "touch", "args": ["lspran"], "extensionToLanguage": {".py": "python"}}}
_MONITORS = [{"name": "m", "command": "touch monran", "description": "d"}]
_MANIFEST = ".claude-plugin/plugin.json"
RUNS = {
    "mcp-json-headers-helper": ({".mcp.json": json.dumps({"mcpServers": _HELPER})},
                                ".mcp.json:1:17: the plugin's MCP server 'r' runs its "
                                "headersHelper 'touch x'"),
    "manifest-headers-helper-ws": ({_MANIFEST: json.dumps({"name": "p", "mcpServers": {
        "r": {**_HELPER["r"], "type": "ws"}}})}, "plugin.json:1:30: the plugin's MCP server"),
    "helper-not-a-string": ({".mcp.json": json.dumps({"r": {**_HELPER["r"],
                                                            "headersHelper": 1}})},
                            "runs a command"),
    "lsp-json": ({".lsp.json": json.dumps(_LSP)}, ".lsp.json:1:1: the plugin's LSP servers file"),
    "manifest-lsp": ({_MANIFEST: json.dumps({"name": "p", "lspServers": _LSP})},
                     "plugin.json:1:15: the plugin's 'lspServers' starts LSP servers"),
    "manifest-lsp-path": ({_MANIFEST: json.dumps({"name": "p", "lspServers": "./l.json"})},
                          "the plugin's 'lspServers'"),
    "monitors-file": ({"monitors/monitors.json": json.dumps(_MONITORS)},
                      "monitors.json:1:1: the plugin's monitors file"),
    "manifest-monitors": ({_MANIFEST: json.dumps({"name": "p", "monitors": _MONITORS})},
                          "plugin.json:1:15: the plugin's 'monitors' arms monitors"),
    "manifest-experimental-monitors": (
        {_MANIFEST: json.dumps({"name": "p", "experimental": {"monitors": "./m.json"}})},
        "the plugin's 'experimental.monitors' arms monitors"),
    "settings-agent": ({"settings.json": json.dumps({"agent": "ev"})},
                       "settings.json:1:2: the plugin's settings 'agent' name the agent"),
    "settings-status-line": ({"settings.json": json.dumps({"subagentStatusLine": {
        "type": "command", "command": "touch x"}})}, "'subagentStatusLine' name a command"),
    "manifest-settings-agent": ({_MANIFEST: json.dumps({"name": "p", "settings": {
        "agent": "ev"}})}, "plugin.json:1:28: the plugin's settings 'settings.agent'"),
    "marketplace-entry-lsp": ({"../.claude-plugin/marketplace.json": json.dumps(
        {"name": "m", "plugins": [{"name": "plug", "source": "./plug", "lspServers": _LSP}]})},
        "the plugin's 'plugins.0.lspServers'"),
}
PASSES = {
    "remote-server": {".mcp.json": json.dumps({"mcpServers": {"d": {
        "type": "http", "url": "https://example.com/mcp", "headers": {"a": "b"}}}})},
    "empty-parts": {_MANIFEST: json.dumps({"name": "p", "lspServers": {}, "monitors": [],
                                           "settings": {"theme": "dark"}}),
                    ".lsp.json": "{}", "monitors/monitors.json": "[]"},
    "settings-dropped-keys": {"settings.json": json.dumps({"permissions": {"allow": ["Bash"]},
                                                           "agent": None})},
}
COMMAND = "---\ndescription: c\nallowed-tools: Read\n---\nRun it.\n"


def _plugin(root: Path, files: dict[str, str]) -> Path:
    for name, text in {**files, "commands/pc.md": COMMAND}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root / "commands" / "pc.md"


@pytest.mark.parametrize("row", sorted(RUNS))
def test_a_plugin_part_that_runs_a_command_is_refused(tmp_path: Path, row: str) -> None:
    files, said = RUNS[row]
    command = _plugin(tmp_path / "plug", files)
    with pytest.raises(SkillFileError) as raised:
        apply_to_file(command, Plan.from_entries(["Read"]))
    assert said in str(raised.value)
    assert command.read_text(encoding="utf-8") == COMMAND


@pytest.mark.parametrize("row", sorted(PASSES))
def test_a_plugin_part_that_runs_nothing_passes(tmp_path: Path, row: str) -> None:
    command = _plugin(tmp_path / "plug", PASSES[row])
    apply_to_file(command, Plan.from_entries(["Read"]))


# G1, G2: the gate reads a skill's body and named arguments as the runtime does.
@pytest.mark.parametrize(("text", "args", "status"), [
    # named arguments as Bun reads them: filled, so judged
    ("---\narguments: who\n---\n!`touch $who`\n", "zz", "not_covered"),
    ("---\narguments:\n  - a\n  - who\n---\n!`echo $a; touch $who`\n", "x zz", "not_covered"),
    ("---\narguments: [a]\n---\n!`echo $a`\n", "hi", "covered"),
    # a frontmatter whose reading cannot be computed: every $word may be a name (refused)
    ("---\narguments: !!null who\n---\n!`echo $who`\n", "hi", "unknown"),
    # an opening line with blanks (the runtime's \\s*): the body after the closing one
    ("--- \t\nx: y\n---\n!`echo $ARGUMENTS`\n", "hi; touch zz", "not_covered"),
    ("!`echo $ARGUMENTS`\n", "hi; touch zz", "not_covered"),  # no frontmatter
    # arguments null: no names; $who stays as written, the args are appended
    ("---\narguments:\n---\n!`echo $ARGUMENTS`\n", "hi", "covered"),
])
def test_the_gate_reads_a_skill_as_the_runtime(tmp_path: Path, text: str, args: str,
                                                status: str) -> None:
    from skillgrant.gate.call import check_call

    skill = tmp_path / ".claude" / "skills" / "other"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(text, encoding="utf-8")
    got = check_call("Skill", {"skill": "other", "args": args},
                     ["Skill(other)", "Bash(echo *)"], cwd=str(tmp_path))
    assert (got.status == "covered") == (status == "covered"), got  # (refused: any reason)
