"""A plugin's folders that run or grant beside its command and skill files, read by Copilot CLI
1.0.102 (review s47-freview P2-P4), and Claude Code's plugin ``workflows/``.

* ``com.github.copilot/``: a manifest (any of the four places ``plugin`` names, Claude Code's
  ``.claude-plugin/plugin.json`` too) whose ``$schema`` is the Agent Plugins spec's makes
  Copilot CLI read the plugin's commands, agents, rules, skills, hooks, MCP and LSP servers and
  extension code ("extension or canvas code") under that folder (P2, P3, measured). skillgrant
  does not read that layout: a plugin holding the folder is refused, whatever its ``$schema``
  says (the runtime's test for the spec is in its native code, not read here).
* a plugin agent's ``mcp-servers`` frontmatter: Copilot CLI starts each local server's command
  when a task runs the agent, which nobody is asked about (P4; Claude Code ignores a plugin
  agent's ``mcpServers``). The agent files are the Markdown files under the plugin's
  ``agents/`` folder (at any depth) and those its manifest's ``agents`` key names. An agent file
  is refused when its text holds ``mcp`` (any case) or a backslash (a double-quoted key's
  escape may spell it): no key can name ``mcp-servers``/``mcpServers`` otherwise, so this needs
  no reading of the frontmatter (whose fence and YAML Copilot reads in native code).
* ``hooks/register.ts``: the plugin module Claude Code 2.1.332 names for a plugin folder
  (``modulePath``; not measured): code, refused as a hooks file is.
* ``workflows/``: Claude Code 2.1.332 loads a plugin's ``workflows/*.js`` (scripts that start
  agents; review s46-freview2's OPEN), or the ``.js`` files and folders its manifest's
  ``workflows`` names; whether one runs unasked is not measured (its settings schema: "auto
  permission mode prompts before running a workflow" until a warning is accepted), so a plugin
  holding either is refused.
"""

from __future__ import annotations

import os
from typing import Final

from ..errors import SkillFileError
from ..limits import MAX_FILE_BYTES
from .agentscan import first_run
from .bounded import read_bounded
from .pluginruns import member, said
from .yamlspan import line_column

COPILOT_LAYOUT: Final = "com.github.copilot"
AGENTS: Final = "agents"
WORKFLOWS: Final = "workflows"
#: A plugin's hooks module (code; Claude Code 2.1.332's ``Jbn``, its plugin ``modulePath``).
HOOKS_MODULE: Final = os.path.join("hooks", "register.ts")
#: The parts of a plugin's root judged here, as ``plugin._plugin_files`` lists its names.
FOLDERS: Final = (COPILOT_LAYOUT, AGENTS, WORKFLOWS, HOOKS_MODULE)
#: At most this many agent files and folders are read in one place; more is refused.
_MAX_AGENTS: Final = 1000
def folder_runs(root: str, name: str) -> None:
    """Raise SkillFileError, located (``PATH:LINE:COLUMN: why``), for the plugin folder
    ``name`` (one of ``FOLDERS``) at the plugin root ``root`` when it runs or grants."""
    where = os.path.join(root, name)
    if name == COPILOT_LAYOUT:
        raise SkillFileError(
            f"{where}:1:1: Copilot CLI reads an Agent Plugins spec plugin's commands, "
            "agents, skills, hooks, MCP and LSP servers and extension code under "
            f"{name}/; skillgrant does not read that layout, so it refuses the plugin's "
            "command and skill files")
    if name == WORKFLOWS:
        raise SkillFileError(
            f"{where}:1:1: Claude Code loads a plugin's workflows/ scripts, which start "
            "agents; skillgrant does not judge them, so it refuses the plugin's command "
            "and skill files")
    if name == HOOKS_MODULE:
        raise SkillFileError(
            f"{where}:1:1: Claude Code loads a plugin's hooks module ({name}, code) as the "
            "plugin's module; skillgrant does not judge code, so it refuses the plugin's "
            "command and skill files")
    agents_run([where])


def manifest_parts(root: str, text: str, value: dict[str, object]) -> str | None:
    """``said`` for a manifest's ``workflows`` key, or its ``agents`` key (the manifest's
    ``text``, read as ``value``, at the plugin root ``root``) when it is not a path or a list of
    paths inside the plugin; each path it names is judged as the ``agents/`` folder is (and
    SkillFileError raised for it)."""
    if value.get(WORKFLOWS) is not None:
        return said(text, member(text, (WORKFLOWS,)), "the plugin's 'workflows' names "
                    "workflow scripts (which start agents) that skillgrant does not judge")
    named = value.get(AGENTS)
    if named is None:
        return None
    paths = [named] if isinstance(named, str) else named if isinstance(named, list) else None
    real = os.path.realpath(root)
    if paths is None or not all(isinstance(path, str) and path and os.path.realpath(
            os.path.join(root, path)).startswith(real + os.sep) for path in paths):
        return said(text, member(text, ("agents",)), "the plugin's 'agents' names agent files "
                    "skillgrant does not read (not paths inside the plugin)")
    agents_run([os.path.normpath(os.path.join(root, str(path))) for path in paths])
    return None


def agents_run(places: list[str]) -> None:
    """Raise SkillFileError, located, for the first agent file under ``places`` (files, or
    folders walked for Markdown files) whose text may declare ``mcp-servers``, ``hooks`` or
    ``github`` (``agentscan.first_run``)."""
    files: list[str] = []
    for place in places:
        if os.path.isdir(place):
            for walked, (folder, dirs, names) in enumerate(os.walk(
                    place, onerror=_unlisted, followlinks=True)):
                dirs.sort()
                files += [os.path.join(folder, n) for n in sorted(names)
                          if n.lower().endswith(".md")]
                if len(files) + walked > _MAX_AGENTS:  # (a link loop too)
                    raise SkillFileError(f"{place}:1:1: more than {_MAX_AGENTS} "
                                         "agent files and folders; skillgrant refuses what "
                                         "it cannot read of a plugin")
        elif os.path.lexists(place):
            files.append(place)
    for path in files:
        try:
            data = read_bounded(path)
            if len(data) > MAX_FILE_BYTES:
                raise OSError(0, f"over {MAX_FILE_BYTES} bytes")
            text = data.decode("utf-8", errors="replace")
        except OSError as e:
            raise SkillFileError(f"{path}:1:1: cannot read the plugin's agent file "
                    f"({e.strerror or e}); skillgrant refuses what it cannot read of a plugin"
                    ) from e
        start = first_run(text)
        if start >= 0:
            line, column = line_column(text, start)
            raise SkillFileError(f"{path}:{line}:{column}: the plugin's agent file "
                    "may declare mcp-servers, hooks or github settings (it holds 'mcp', a "
                    "backslash, or a 'hooks' or 'github' key), whose commands Copilot CLI "
                    "runs when a task runs the agent; skillgrant refuses the plugin's command "
                    "and skill files")


def _unlisted(error: OSError) -> None:
    raise SkillFileError(f"{error.filename}:1:1: cannot list the plugin's agents folder "
                         f"({error.strerror or error}); skillgrant refuses what it cannot read "
                         "of a plugin") from error
