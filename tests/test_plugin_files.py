"""A plugin's manifest and hooks beside its command and skill files (skillfile.plugin; review
F27-3, F27-4): refused, located in the plugin file, the command file untouched; a plugin that
grants nothing beside its files is applied as before. tests/conformance/test_plugin_e2e.py shows
through the pinned Claude Code that each refused class grants beside the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from skillgrant import SkillFileError
from skillgrant.cli.app import app
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_file

COMMAND = "---\ndescription: a command\nallowed-tools: Bash(touch *), Read\n---\nRun it.\n"
HOOKS = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}


def layout(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def manifest(**fields: object) -> str:
    return json.dumps({"name": "plug", **fields})


#: (files beside commands/pc.md, the refusal's words: file:line:column and what).
REFUSED = {
    "allowedTools": ({".claude-plugin/plugin.json": manifest(commands={"pc": {
        "source": "./commands/pc.md", "allowedTools": ["Bash"]}})},
        "plugin.json:1:68: the plugin's 'commands.pc.allowedTools' replaces"),
    "inline content": ({".claude-plugin/plugin.json": manifest(commands={"x": {
        "content": "---\nallowed-tools: Bash\n---\n"}})},
        "plugin.json:1:37: the plugin's 'commands.x.content' is a whole command"),
    "manifest hooks": ({".claude-plugin/plugin.json": manifest(hooks=HOOKS)},
                       "plugin.json:1:18: the plugin's 'hooks'"),
    "manifest hooks path": ({".claude-plugin/plugin.json": manifest(hooks="./h.json")},
                            "plugin.json:1:18: the plugin's 'hooks'"),
    "hooks file": ({"hooks/hooks.json": json.dumps({"description": "x", "hooks": HOOKS})},
                   "hooks.json:1:22: the plugin's hooks file"),
    "hooks file not JSON": ({"hooks/hooks.json": "{\n  'hooks': 1}"},
                            "hooks.json:2:3 is not JSON"),
    "manifest not JSON": ({".claude-plugin/plugin.json": '{"name": "plug",}'},
                          "plugin.json:1:17 is not JSON"),
    "NaN is not JSON": ({".claude-plugin/plugin.json": '{"name": NaN}'}, "is not JSON"),
    "BOM dropped, as the runtime drops it": (
        {".claude-plugin/plugin.json": "\ufeff" + manifest(hooks=HOOKS)},
        "plugin.json:1:18: the plugin's 'hooks'"),
    "the last of equal keys": (
        {".claude-plugin/plugin.json": '{"hooks": null, "name": "p", "hooks": {}}'},
        "plugin.json:1:30: the plugin's 'hooks'"),
    "a marketplace's entry": ({"../.claude-plugin/marketplace.json": json.dumps(
        {"name": "m", "plugins": [{"name": "a"}, {"name": "plug", "source": "./plug",
                                                  "hooks": HOOKS}]})},
        "marketplace.json:1:"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_plugin_file_that_grants_beside_the_command_refuses_it_located(
        tmp_path: Path, name: str) -> None:
    files, said = REFUSED[name]
    root = tmp_path / "market" / "plug"
    layout(root, {"commands/pc.md": COMMAND, **files})
    target = root / "commands" / "pc.md"
    with pytest.raises(SkillFileError) as refused:
        apply_to_file(target, Plan.from_entries(["Read"]))
    assert said in refused.value.message
    assert refused.value.path == str(target)
    assert target.read_text() == COMMAND


def test_a_marketplace_entry_is_located_at_its_hooks(tmp_path: Path) -> None:
    text = ('{"name": "m", "plugins": [\n  {"name": "a"},\n  {"name": "plug", "source": '
            '"./plug", "hooks": {}}\n]}')
    layout(tmp_path, {".claude-plugin/marketplace.json": text, "plug/commands/pc.md": COMMAND})
    with pytest.raises(SkillFileError, match=r"marketplace.json:3:40: the plugin's "
                                             r"'plugins.1.hooks'"):
        apply_to_file(tmp_path / "plug" / "commands" / "pc.md", Plan.from_entries(["Read"]))


@pytest.mark.parametrize("files", [
    {},
    {".claude-plugin/plugin.json": manifest(commands=["./commands/pc.md"], description="d")},
    {".claude-plugin/plugin.json": manifest(commands={"pc": {
        "source": "./commands/pc.md", "description": "d", "model": "sonnet"}})},
    {".claude-plugin/plugin.json": manifest(hooks=None)},
    # A hooks file of a folder the runtime does not load the file from as a plugin.
    {"commands/hooks/hooks.json": json.dumps({"hooks": HOOKS})},
], ids=["no manifest", "paths", "metadata without grants", "hooks null", "not a plugin's"])
def test_a_plugin_that_grants_nothing_beside_its_files_is_applied(
        tmp_path: Path, files: dict[str, str]) -> None:
    layout(tmp_path, {"commands/pc.md": COMMAND, **files})
    result = apply_to_file(tmp_path / "commands" / "pc.md", Plan.from_entries(["Read"]))
    assert result.written
    assert "allowed-tools: Read\n" in result.new_text


def test_a_skill_of_a_plugin_with_hooks_is_refused_too(tmp_path: Path) -> None:
    skill = "---\nname: s\ndescription: d\nallowed-tools: Bash\n---\n"
    layout(tmp_path, {"skills/s/SKILL.md": skill, "hooks/hooks.json": json.dumps({"hooks": {}})})
    with pytest.raises(SkillFileError, match=r"hooks\.json:1:2: the plugin's hooks file"):
        apply_to_file(tmp_path / "skills" / "s" / "SKILL.md", Plan.from_entries(["Read"]))


#: Copilot CLI 1.0.102's plugin layouts (review FB-3: each ran the plugin's allow hook for a skill
#: `apply` had passed): its manifests, their hooks inline or named, a root hooks.json beside one,
#: and its marketplaces. Copilot's hook format.
CP_HOOKS = json.dumps({"version": 1, "hooks": {"preToolUse": [{"type": "command",
                                                                "bash": "true"}]}})
COPILOT_LAYOUTS = {
    ".github/plugin named hooks": ({".github/plugin/plugin.json": manifest(hooks="./h.json"),
                                    "h.json": CP_HOOKS}, "plugin.json:1:18: the plugin's 'hooks'"),
    ".plugin named hooks": ({".plugin/plugin.json": manifest(hooks="./h.json"),
                             "h.json": CP_HOOKS}, "plugin.json:1:18: the plugin's 'hooks'"),
    "root manifest named hooks": ({"plugin.json": manifest(hooks="./cfg/x.json"),
                                   "cfg/x.json": CP_HOOKS},
                                  "plugin.json:1:18: the plugin's 'hooks'"),
    "inline hooks": ({".github/plugin/plugin.json": manifest(hooks=json.loads(CP_HOOKS))},
                     "plugin.json:1:18: the plugin's 'hooks'"),
    "root hooks.json beside a manifest": ({".github/plugin/plugin.json": manifest(),
                                           "hooks.json": CP_HOOKS},
                                          "hooks.json:1:16: the plugin's hooks file"),
    "root hooks.json beside Claude Code's manifest (review R-7)": (
        {".claude-plugin/plugin.json": manifest(), "hooks.json": CP_HOOKS},
        "hooks.json:1:16: the plugin's hooks file"),
    "root hooks.json beside a root SKILL.md, no manifest (review R-8)": (
        {"SKILL.md": "---\nname: plug\ndescription: d\n---\n", "hooks.json": CP_HOOKS},
        "hooks.json:1:16: the plugin's hooks file"),
    "a marketplace's entry": ({"../.github/plugin/marketplace.json": json.dumps(
        {"name": "m", "plugins": [{"name": "plug", "source": "./plug", "hooks": "./h.json"}]})},
        "marketplace.json:1:"),
}


@pytest.mark.parametrize("name", sorted(COPILOT_LAYOUTS))
def test_copilot_plugin_layouts_refuse_the_plugins_skill(tmp_path: Path, name: str) -> None:
    files, said = COPILOT_LAYOUTS[name]
    skill = "---\nname: probe\ndescription: A probe skill.\nallowed-tools: Read\n---\nRun.\n"
    root = tmp_path / "market" / "plug"
    layout(root, {"skills/probe/SKILL.md": skill, **files})
    target = root / "skills" / "probe" / "SKILL.md"
    with pytest.raises(SkillFileError) as refused:
        apply_to_file(target, Plan.from_entries(["Read"]))
    assert said in refused.value.message
    assert target.read_text() == skill


def test_a_root_skill_md_with_a_root_hooks_json_is_refused(tmp_path: Path) -> None:
    """Review R-8, measured through Copilot CLI 1.0.102: a folder holding a root-level SKILL.md
    is a plugin to it (``--plugin-dir``), and its root hooks.json runs."""
    skill = "---\nname: plug\ndescription: d\nallowed-tools: Read\n---\n"
    layout(tmp_path, {"SKILL.md": skill, "hooks.json": CP_HOOKS})
    with pytest.raises(SkillFileError, match=r"hooks\.json:1:16: the plugin's hooks file"):
        apply_to_file(tmp_path / "SKILL.md", Plan.from_entries(["Read"]))
    assert (tmp_path / "SKILL.md").read_text() == skill


def test_a_root_hooks_json_without_a_copilot_manifest_is_not_a_plugins(tmp_path: Path) -> None:
    """Measured by the review: Copilot loads a root hooks.json only beside a manifest or a
    root-level SKILL.md, not beside a command folder alone."""
    layout(tmp_path, {"commands/pc.md": COMMAND, "hooks.json": CP_HOOKS})
    assert apply_to_file(tmp_path / "commands" / "pc.md", Plan.from_entries(["Read"])).written


def test_check_of_a_plugin_folder_names_the_manifest_and_exits_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    layout(tmp_path, {"plug/commands/pc.md": COMMAND,
                      "plug/.claude-plugin/plugin.json": manifest(hooks=HOOKS),
                      "plan.json": json.dumps({"allowed-tools": ["Read"]})})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["apply", "-p", "plan.json", "--runtime", "claude-code",
                                      "plug"])
    assert result.exit_code == 2
    assert ("plug/commands/pc.md: plug/.claude-plugin/plugin.json:1:18: the plugin's 'hooks'"
            in result.stderr)
    assert (tmp_path / "plug" / "commands" / "pc.md").read_text() == COMMAND


def test_the_command_files_a_manifest_names_elsewhere_are_judged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    layout(tmp_path, {
        "plug/.claude-plugin/plugin.json": manifest(commands=[
            "./extra/x.md", "./more", "../outside.md", "./commands/pc.md"]),
        "plug/commands/pc.md": COMMAND, "plug/extra/x.md": COMMAND,
        "plug/more/deep/y.md": COMMAND, "plug/more/plain.md": "no frontmatter\n",
        "outside.md": COMMAND, "plan.json": json.dumps({"allowed-tools": ["Read"]})})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["apply", "-p", "plan.json", "--runtime", "claude-code",
                                      "plug"])
    assert result.exit_code == 0, result.stderr
    assert "3 files checked: 3 rewritten" in result.stdout + result.stderr
    for name in ("commands/pc.md", "extra/x.md", "more/deep/y.md"):
        assert "allowed-tools: Read\n" in (tmp_path / "plug" / name).read_text()
    assert (tmp_path / "outside.md").read_text() == COMMAND


def test_a_batchs_remembered_answers_are_each_files_own(tmp_path: Path) -> None:
    """One ``seen`` over a batch (in either order) gives each file the answer it gets alone:
    the folders above a file are remembered for the name of its folder and its kind."""
    from skillgrant.skillfile.plugin import judge_plugin

    skill = "---\nname: s\ndescription: d\nallowed-tools: Bash\n---\n"
    layout(tmp_path, {
        "plug/hooks/hooks.json": json.dumps({"hooks": HOOKS}),
        "plug/skills/a/SKILL.md": skill, "plug/skills/b/SKILL.md": skill,
        "plug/commands/pc.md": COMMAND, "plug/other/x/SKILL.md": skill,
        "free/skills/c/SKILL.md": skill, "free/commands/c.md": COMMAND,
        "cp/.github/plugin/plugin.json": manifest(hooks="./h.json"), "cp/h.json": CP_HOOKS,
        "cp/skills/d/SKILL.md": skill, "lone/SKILL.md": skill, "lone/hooks.json": CP_HOOKS,
        "lone/commands/l.md": COMMAND, "skills/e/SKILL.md": skill,
        # Files whose folders share the folder above them, and differ in what it is to them.
        "mix/hooks/hooks.json": CP_HOOKS, "mix/commands/c.md": COMMAND, "mix/other/o.md": skill,
        "mix/skills/s/SKILL.md": skill, "mix/skills/t/notes.md": skill,
    })
    files = sorted(str(p) for p in tmp_path.rglob("*.md"))

    def answer(path: str, seen: dict[str, object] | None) -> str | None:
        try:
            judge_plugin(path, seen)
        except SkillFileError as e:
            return str(e)
        return None

    alone = {path: answer(path, None) for path in files}
    assert alone[str(tmp_path / "plug/skills/a/SKILL.md")] is not None
    assert alone[str(tmp_path / "free/skills/c/SKILL.md")] is None
    assert alone[str(tmp_path / "mix/commands/c.md")] is not None
    assert alone[str(tmp_path / "mix/other/o.md")] is None
    assert alone[str(tmp_path / "mix/skills/s/SKILL.md")] is not None
    assert alone[str(tmp_path / "mix/skills/t/notes.md")] is None
    for order in (files, files[::-1]):
        seen: dict[str, object] = {}
        assert {path: answer(path, seen) for path in order} == alone


def test_the_lookup_answers_as_lexists(tmp_path: Path) -> None:
    """The plugin files are asked for without lstat's exception; the answer is lexists'."""
    import os

    from skillgrant.skillfile.plugin import _THERE

    (tmp_path / "file").write_text("x")
    (tmp_path / "folder").mkdir()
    (tmp_path / "broken").symlink_to(tmp_path / "nowhere")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    (tmp_path / "to-folder").symlink_to(tmp_path / "folder")
    (tmp_path / "closed").mkdir()
    (tmp_path / "closed" / "inside").write_text("x")
    (tmp_path / "closed").chmod(0)
    try:
        names = ["file", "folder", "broken", "loop", "to-folder", "missing", "file/below",
                 "loop/below", "broken/below", "to-folder/", "folder/..", "closed/inside",
                 "x" * 300, "folder/" + "y" * 5000, ""]
        for name in names:
            path = os.path.join(tmp_path, name) if name else ""
            assert _THERE(path) == os.path.lexists(path), name
    finally:
        (tmp_path / "closed").chmod(0o700)


@pytest.mark.parametrize("entries", [
    (), ("SKILL.md",), ("SKILL.md", "notes.md", "scripts/"), ("skill.md", "README.md"),
    ("hooks/",), ("hooks.json",), ("HOOKS.JSON",), ("Hooks/",), ("plugin.json",),
    ("Plugin.JSON",), (".github/",), (".GitHub/",), (".plugin/",), (".Claude-Plugin/",),
    (".claude-plugin/",), ("SKILL.md", "hooks/"), ("SKILL.md", "hookſ.json"), ("é.md",),
    ("SKILL.md", "hooks.json/"), ("SKILL.md", ".git/", "hook.json", "plugins/"),
])
def test_a_listed_folder_answers_as_its_probes(tmp_path: Path, entries: tuple[str, ...],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The file's own folder is listed once rather than asked for each name: the names found
    are those the probes find (a folder that holds any name a plugin file's path may start
    with, in any case, or a name that is not ASCII, is asked as before)."""
    import os

    from skillgrant.skillfile import plugin

    folder = tmp_path / "skills" / "s"
    folder.mkdir(parents=True)
    for entry in entries:
        if entry.endswith("/"):
            (folder / entry).mkdir()
        else:
            (folder / entry).write_text("{}")
    parts = str(folder / "SKILL.md").split(os.sep)
    listed = plugin._plugin_files(str(folder), parts, len(parts) - 1)
    monkeypatch.setattr(plugin, "_none_there", lambda root: False)
    asked = plugin._plugin_files(str(folder), parts, len(parts) - 1)
    assert listed == asked
    lowered = {entry.rstrip("/").lower() for entry in entries} - {"skill.md"}
    plain = all(entry.isascii() for entry in entries)
    monkeypatch.undo()
    assert plugin._none_there(str(folder)) == (plain and not lowered & {
        ".claude-plugin", ".github", ".plugin", "plugin.json", "hooks", "hooks.json"})
