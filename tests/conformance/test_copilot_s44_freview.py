"""Session 44's review (s44-freview) through Copilot CLI 1.0.102 (run with ``--conformance
--copilot``): files Copilot CLI loads and honours that ``check`` of the project does not read.

Each row runs one interactive session (where Copilot CLI honours ``allowed-tools``): the
stand-in invokes the file, then runs ``touch zz``. The runtime's side: the file loads and
``touch zz`` runs with no question (its ``shell(touch)``; plan ``Read``). skillgrant's side:
``check .`` of the project with that plan must not pass.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cp_fixture import copilot
from cp_probe import CopilotJudge
from cp_runtime import write_project
from file_review import lay_out, unasked_then_checked, work_folder

__all__ = ["copilot"]

COMMAND = "---\ndescription: probe command\nallowed-tools: shell(touch)\n---\nRun it.\n"
GOOD = "---\nname: good\ndescription: d\nallowed-tools: Read\n---\nbody\n"

#: Each row: the command file's path under the project.
COMMANDS = {
    # Copilot CLI's command loader takes `.MD` (any case) as Markdown; the walk wants `.md`.
    "N1-upper-case-extension": ".claude/commands/probe.MD",
    "N1-mixed-case-extension": ".claude/commands/probe.Md",
}


@pytest.mark.parametrize("row", sorted(COMMANDS))
def test_n1_copilot_loads_command_files_check_does_not_read(copilot: CopilotJudge,
                                                           row: str) -> None:
    with work_folder("sg-cps44-") as work:
        write_project(work, None)
        lay_out(work / "project", {COMMANDS[row]: COMMAND, ".github/skills/good/SKILL.md": GOOD})
        # The runtime's side: the command loads and `touch zz` runs with no question.
        done = unasked_then_checked(copilot, work, holds=("probe", "loaded"))
        assert done.returncode != 0, (
            f"check . passed (exit 0) although Copilot CLI loads {COMMANDS[row]} and runs "
            f"`touch zz` without asking:\n{done.stdout}{done.stderr}")


SKILL = "---\nname: probe\ndescription: probe skill\nallowed-tools: shell(touch)\n---\nRun it.\n"

#: Each row: the plugin's folder under the project, its manifest's path in it, and whether the
#: skill folder is a link out of the tree (else a plain folder: the plugin lies in a
#: dependency's zone, node_modules, where the walk reads runtime folders only).
PLUGINS = {
    # The walk upgrades a folder to a plugin root for `.claude-plugin/` or a root `plugin.json`
    # (F1d, F5c), not for Copilot CLI's two other manifest places.
    "N2-dot-plugin-manifest-linked-skill": ("cplug", ".plugin/plugin.json", True),
    "N2-github-plugin-manifest-linked-skill": ("cplug", ".github/plugin/plugin.json", True),
    "N2-dot-plugin-manifest-in-node-modules": ("node_modules/cplug", ".plugin/plugin.json",
                                               False),
}


@pytest.mark.parametrize("row", sorted(PLUGINS))
def test_n2_copilot_plugins_skill_check_does_not_read(copilot: CopilotJudge, row: str) -> None:
    """A Copilot CLI plugin whose manifest is `.plugin/plugin.json` or
    `.github/plugin/plugin.json`, loaded with ``--plugin-dir``: its skill loads and ``touch zz``
    runs with no question."""
    folder, manifest, linked = PLUGINS[row]
    with work_folder("sg-cps44-") as work:
        write_project(work, None)
        plugin = work / "project" / folder
        depth = "../" * (len(Path(folder).parts) + 2)
        lay_out(plugin, {manifest: '{"name": "cplug"}',
                         **({"skills/probe": ("link", f"{depth}outside/probe")} if linked
                            else {"skills/probe/SKILL.md": SKILL})})
        lay_out(work, {"project/.claude/skills/good/SKILL.md": GOOD,
                       **({"outside/probe/SKILL.md": SKILL} if linked else {})})
        done = unasked_then_checked(copilot, work, plugin=plugin, starts='Skill "probe" loaded',
                                    holds=())
        assert done.returncode != 0, (
            f"check . passed (exit 0) although Copilot CLI, started with --plugin-dir {folder}, "
            f"loads its skill and runs `touch zz`:\n{done.stdout}{done.stderr}")


#: Each row: the manifests of a Copilot CLI plugin (path in it: text), and the command file's
#: path in the plugin (Copilot CLI names the command after the file: `probe`).
PLAIN_MANIFEST = '{"name": "cplug"}'
CMDS_MANIFEST = '{"name": "cplug", "commands": "cmds"}'
PLUGIN_COMMANDS: dict[str, tuple[dict[str, str], str]] = {
    "N4-root-manifest": ({"plugin.json": PLAIN_MANIFEST}, "commands/probe.md"),
    "N4-dot-plugin-manifest": ({".plugin/plugin.json": PLAIN_MANIFEST}, "commands/probe.md"),
    "N4-github-plugin-manifest": ({".github/plugin/plugin.json": PLAIN_MANIFEST},
                                  "commands/probe.md"),
    # The manifest's own `commands` path (Copilot CLI reads it; the walk read only
    # .claude-plugin/plugin.json's, _manifest_commands).
    "N4-manifest-commands-path": ({"plugin.json": CMDS_MANIFEST}, "cmds/probe.md"),
    # Against main a9dd2c7 (files._manifest takes the first of MANIFESTS, Claude Code's first):
    # Copilot CLI prefers .plugin/ > plugin.json > .github/plugin/ > .claude-plugin/ (read from
    # its loader, configLoaderLoadPluginFeatureForInstalled), so a plugin for both runtimes
    # whose Claude Code manifest names no commands hides Copilot's `commands` path.
    "N4b-claude-and-root-manifests": ({".claude-plugin/plugin.json": PLAIN_MANIFEST,
                                       "plugin.json": CMDS_MANIFEST}, "cmds/probe.md"),
    "N4b-claude-and-github-manifests": ({".claude-plugin/plugin.json": PLAIN_MANIFEST,
                                         ".github/plugin/plugin.json": CMDS_MANIFEST},
                                        "cmds/probe.md"),
    "N4b-root-and-dot-plugin-manifests": ({"plugin.json": PLAIN_MANIFEST,
                                           ".plugin/plugin.json": CMDS_MANIFEST},
                                          "cmds/probe.md"),
}


@pytest.mark.parametrize("row", sorted(PLUGIN_COMMANDS))
def test_n4_copilot_plugins_command_check_does_not_read(copilot: CopilotJudge, row: str) -> None:
    """A Copilot CLI plugin's ``commands/probe.md`` (no ``.claude-plugin``), loaded with
    ``--plugin-dir``: the walk reads Markdown under ``commands`` only below ``.claude/``, a
    ``.claude-plugin`` root or the folder named."""
    manifests, command = PLUGIN_COMMANDS[row]
    with work_folder("sg-cps44-") as work:
        write_project(work, None)
        plugin = work / "project" / "cplug"
        lay_out(plugin, {**manifests, command: COMMAND})
        lay_out(work / "project", {".claude/skills/good/SKILL.md": GOOD})
        done = unasked_then_checked(copilot, work, plugin=plugin, holds=("loaded",))
        assert done.returncode != 0, (
            "check . passed (exit 0) although Copilot CLI, started with --plugin-dir cplug, "
            f"loads its command and runs `touch zz`:\n{done.stdout}{done.stderr}")
