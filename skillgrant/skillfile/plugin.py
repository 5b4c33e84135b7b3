"""The plugin files that grant beside a plugin's command and skill files (review F27-3, F27-4).

Claude Code 2.1.332 loads a plugin from a folder (``--plugin-dir``, or its install): the
command files under ``commands/``, the skills under ``skills/``, and what the plugin's
manifest ``.claude-plugin/plugin.json`` names. Three things there widen what a file's
``allowed-tools`` grants, and skillgrant does not judge or rewrite them:

* a command's metadata in the manifest, ``commands.<name>.allowedTools``, replaces the
  command file's own ``allowed-tools`` (the runtime's ``t_t``: ``{...frontmatter,
  "allowed-tools": allowedTools.join(",")}``), and ``commands.<name>.content`` is a whole
  command whose frontmatter lives in the manifest;
* the plugin's hooks (``hooks/hooks.json``, loaded whether or not there is a manifest, and
  the manifest's ``hooks``) run commands on the events they name, and a ``PreToolUse`` hook
  answering ``allow`` pre-approves calls outside ``allowed-tools``;
* the plugin's MCP servers (``.mcp.json``, the manifest's ``mcpServers``): the runtime starts
  them when the plugin loads, running a local server's command (review s45-freview F7) or a
  remote one's ``headersHelper`` (review s46-freview P1); and its other parts that run a
  command or name the session's agent: LSP servers, monitors, settings (``pluginruns``).

A marketplace's ``.claude-plugin/marketplace.json`` may add both to the plugins it lists.

Copilot CLI 1.0.102 loads plugins too, from more places (review FB-3, read from its binary and
measured): a manifest at ``.github/plugin/plugin.json``, ``.plugin/plugin.json`` or the
plugin's root ``plugin.json``, whose ``hooks`` (inline, or a file it names anywhere in the
plugin) run; a root ``hooks.json`` beside any manifest, Claude Code's included, or beside a
root-level ``SKILL.md`` (a folder Copilot loads as a plugin without a manifest; reviews R-7,
R-8); marketplaces at
``.plugin/marketplace.json`` and ``.github/plugin/marketplace.json``. Each is judged as
Claude Code's are. A plugin's ``com.github.copilot/`` (Copilot's Agent Plugins layout), its
agents' ``mcp-servers`` and its ``workflows`` are judged by ``pluginparts`` (review s47-freview).

``judge_plugin`` refuses a file read from such a plugin, naming the manifest's file, line and
column: the manifest is read as the runtime reads it (JSON, a leading BOM dropped), and a
manifest that is not JSON is refused too, rather than guessed at. A plugin's root is any
folder above the file holding ``.claude-plugin/plugin.json``, or the folder above the file's
``commands/`` or ``skills/<name>/`` folder (a plugin needs no manifest), or the file's own
folder for a ``SKILL.md`` at a plugin's root.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Final

from ..errors import SkillFileError
from ..limits import MAX_FILE_BYTES
from ..pathnames import absolute
from .bounded import read_bounded
from .pluginparts import (
    AGENTS,
    FOLDERS,
    HOOKS_MODULE,
    WORKFLOWS,
    folder_runs,
    manifest_parts,
)
from .pluginruns import (
    LSP_FILE,
    MCP_FILE,
    MONITORS_FILE,
    SETTINGS_FILE,
    dotted,
    file_runs,
    mcp_runs,
    member,
    parts_run,
    said,
)
from .yamlspan import line_column

MANIFEST: Final = os.path.join(".claude-plugin", "plugin.json")
MARKETPLACE: Final = os.path.join(".claude-plugin", "marketplace.json")
HOOKS_FILE: Final = os.path.join("hooks", "hooks.json")
#: Copilot CLI's manifests, marketplaces and root hooks file (review FB-3).
COPILOT_MANIFESTS: Final = (os.path.join(".github", "plugin", "plugin.json"),
                            os.path.join(".plugin", "plugin.json"), "plugin.json")
COPILOT_MARKETPLACES: Final = (os.path.join(".github", "plugin", "marketplace.json"),
                               os.path.join(".plugin", "marketplace.json"))
ROOT_HOOKS_FILE: Final = "hooks.json"
#: The plugin's files of parts that run commands when it loads (``pluginruns``): MCP servers
#: (review s45-freview F7), LSP servers, monitors, settings (review s46-freview P1).
_RUNS_FILES: Final = (MCP_FILE, LSP_FILE, MONITORS_FILE, SETTINGS_FILE)
_MANIFESTS: Final = frozenset({MANIFEST, *COPILOT_MANIFESTS})
_HOOKS_FILES: Final = frozenset({HOOKS_FILE, ROOT_HOOKS_FILE})

_HOOKS_SAY = ("its hooks run commands on the events they name, and a PreToolUse hook "
              "answering 'allow' pre-approves calls outside allowed-tools")
#: How many answers ``judge_plugin`` keeps in a caller's ``seen`` (a batch of 100,000 skills,
#: each in its own folder, would otherwise keep two a skill).
_MEMO_MAX: Final = 4096


def _lexists(path: str) -> bool:
    """``os.path.lexists``, asked as ``faccessat(F_OK, AT_EACCESS | AT_SYMLINK_NOFOLLOW)``
    where the platform has it: the same answer (the name is there, a last symbolic link not
    followed, the folders searched with the effective ids; any error is "not there") without
    the exception ``lstat`` raises for a missing name, most of the names asked (a quarter of
    the instructions of ``lexists``)."""
    return os.access(path, os.F_OK, effective_ids=True, follow_symlinks=False)


_THERE: Final = (_lexists if os.access in os.supports_follow_symlinks
                 and os.access in os.supports_effective_ids else os.path.lexists)


def judge_plugin(path: str, seen: dict[str, object] | None = None) -> None:
    """Refuse the command or skill file at ``path`` when a plugin it belongs to grants beside
    it (see the module's contract). Raises SkillFileError for ``path`` whose message names the
    plugin file's line and column; returns None when no plugin folder above it grants.

    Seven ``lstat`` calls a folder above the file (its ``.claude-plugin``, Copilot CLI's five
    manifest and marketplace names, a root ``SKILL.md``), and one for each hooks file of each
    folder a runtime could load the file from as a plugin; the file's own folder is listed
    first, and asked nothing more when it holds none of those names (``_none_there``).
    ``seen``, kept by a caller over one batch of files (whose plugin files do not change
    meanwhile), remembers what was found (at most ``_MEMO_MAX`` answers): each folder's
    plugin files for each role a file can have there, and each such file's answer, so that
    files of one folder, and the folders above a batch's files, ask the system once."""
    memo: dict[str, object] = {} if seen is None else seen
    if len(memo) > _MEMO_MAX:  # a batch walks folder by folder: the recent ones are asked
        memo.clear()
    parts = absolute(path).split(os.sep)
    skill = parts[-1] == "SKILL.md"
    last = len(parts) - 1  # the file's own folder is parts[:last]
    found = _in_folder(parts, last, skill, memo)
    if found is None and last > 1:
        # The folders above the file's own: what they hold for it depends on their path, the
        # name of the file's folder, and whether the file is a SKILL.md (_in_folder's roles),
        # so the answer is remembered for the folder above the file's.
        key = ("\2" + ("c" if parts[last - 1] == "commands" else "-") + ("s" if skill else "-")
               + os.sep.join(parts[:last - 1]))
        above = memo.get(key, memo)
        if above is memo:
            above = memo[key] = next((at for depth in range(last - 1, 0, -1)
                                      if (at := _in_folder(parts, depth, skill, memo))), None)
        if isinstance(above, tuple):
            found = above
    if found is None:
        return
    where, why = found
    if isinstance(why, SkillFileError):
        raise SkillFileError(why.message, path=path) from why
    shown = os.path.relpath(where) if not os.path.isabs(path) else where
    raise SkillFileError(f"{shown}:{why}", path=path)


def _in_folder(parts: list[str], depth: int, skill: bool,
               memo: dict[str, object]) -> tuple[str, str | SkillFileError] | None:
    """The first plugin file at ``parts[:depth]`` that grants beside the file ``parts`` names
    (its path, and why: a located sentence or the error reading it), or None."""
    root = os.sep.join(parts[:depth]) or os.sep
    # What _plugin_files reads of the judged file besides the folder: a folder's names are
    # remembered for each such role.
    role = "\1" + ("c" if parts[depth] == "commands" else "-") + (
        "s" if skill and (depth == len(parts) - 1 or (
            depth == len(parts) - 3 and parts[depth] == "skills")) else "-")
    names = memo.get(role + root)
    if not isinstance(names, tuple):
        names = memo[role + root] = _plugin_files(root, parts, depth)
    for name in names:
        where = os.path.join(root, name)
        found = memo.get("\0" + where, memo)
        if found is memo:
            try:
                found = memo["\0" + where] = _grants(where, name)
            except SkillFileError as e:
                found = memo["\0" + where] = e
        if isinstance(found, (str, SkillFileError)):
            return where, found
    return None


def _plugin_files(root: str, parts: list[str], depth: int) -> tuple[str, ...]:
    """The names of the plugin files at ``root`` (``parts[:depth]`` of the judged file's path)
    that the runtimes load beside the file: manifests and marketplaces, and the hooks files of
    a folder they load the file from as a plugin."""
    if depth == len(parts) - 1 and _none_there(root):  # the file's own folder (_none_there)
        return ()
    there = _THERE
    join: Callable[[str, str], str] = os.path.join
    if os.name == "posix":  # os.path.join of a relative name, without its checks
        inside = root if root.endswith("/") else root + "/"

        def join(_: str, name: str) -> str:
            return inside + name

    names = []
    if there(join(root, ".claude-plugin")):
        names = [name for name in (MANIFEST, MARKETPLACE) if there(join(root, name))]
    # A name under a folder that is not there is not there either: each folder is asked first.
    # The names are asked in the order of (*COPILOT_MANIFESTS, *COPILOT_MARKETPLACES).
    github, dot_plugin = there(join(root, ".github")), there(join(root, ".plugin"))
    asked = ((github, COPILOT_MANIFESTS[0]), (dot_plugin, COPILOT_MANIFESTS[1]),
             (True, COPILOT_MANIFESTS[2]), (github, COPILOT_MARKETPLACES[0]),
             (dot_plugin, COPILOT_MARKETPLACES[1]))
    copilot = [name for folder, name in asked if folder and there(join(root, name))]
    names += copilot
    # Copilot CLI loads a folder as a plugin when it holds any manifest it knows (Claude Code's
    # among them, review R-7) or a root-level SKILL.md (review R-8), and then its root hooks.json.
    copilot_plugin = MANIFEST in names or (bool(copilot) and copilot[0] in _MANIFESTS) or \
        there(join(root, "SKILL.md"))
    if (MANIFEST in names or copilot_plugin or parts[depth] == "commands" or (
            parts[-1] == "SKILL.md" and (depth == len(parts) - 1 or (
                depth == len(parts) - 3 and parts[depth] == "skills")))) and \
            there(join(root, HOOKS_FILE)):
        names.append(HOOKS_FILE)
    if MANIFEST in names or copilot_plugin or parts[depth] == "commands" or (
            parts[-1] == "SKILL.md" and depth == len(parts) - 3 and parts[depth] == "skills"):
        # a manifest-less `.claude` is the project's (or user's) settings folder: its
        # settings.json is that configuration, not a plugin's (s43-freview F8's boundary)
        own = MANIFEST not in names and not copilot_plugin and \
            os.path.basename(root.rstrip("/")) == ".claude"
        names += [name for name in _RUNS_FILES if not (own and name == SETTINGS_FILE)
                  and there(join(root, name))]
        # Copilot CLI reads agents and the Agent Plugins layout of a plugin it loads; Claude
        # Code loads workflows (``pluginparts``; a manifest-less `.claude`'s are the project's)
        names += [name for name in FOLDERS if (copilot_plugin or MANIFEST in names or (
            name in (WORKFLOWS, HOOKS_MODULE) and not own)) and there(join(root, name))]
    if copilot_plugin and there(join(root, ROOT_HOOKS_FILE)):
        names.append(ROOT_HOOKS_FILE)
    return tuple(names)


#: The names of a folder that may start the path of a plugin file ``_plugin_files`` asks
#: for, in lower case, but ``SKILL.md``: alone, that one adds no file (only a hooks file
#: beside it would be asked for).
_FIRST_NAMES: Final = frozenset(
    name.split(os.sep, 1)[0].lower() for name in (
        MANIFEST, MARKETPLACE, *COPILOT_MANIFESTS, *COPILOT_MARKETPLACES, HOOKS_FILE,
        ROOT_HOOKS_FILE, *_RUNS_FILES, *FOLDERS))


def _none_there(root: str) -> bool:
    """Whether one listing of the folder ``root`` shows that none of the names
    ``_plugin_files`` asks for is there, so it need ask for none: seven system calls for a
    file's own folder, where the listing takes one open, two reads and a close. (Only the
    file's own folder is listed: a folder above may hold a batch's many files, and its
    answer is remembered.)

    A name is there (``lexists``) only when its first part is in the folder: the listing holds
    that very name, or, on a file system that ignores case, the same ASCII letters in another
    case, which ``lower()`` makes equal. A listing with a name that is not ASCII (which such a
    file system may fold to ASCII letters) or a folder that cannot be listed (one that may be
    searched but not read) tells nothing: False, and each name is asked."""
    try:
        names = os.listdir(root)
    except (OSError, ValueError):
        return False
    return "".join(names).isascii() and _FIRST_NAMES.isdisjoint(map(str.lower, names))


def _grants(where: str, name: str) -> str | None:
    """``LINE:COLUMN: why`` for the plugin file at ``where`` (a ``name``) when it grants beside
    a command or skill file, else None; raises SkillFileError, located, for a folder."""
    root = where[:-len(name) - 1] or os.sep
    if name in FOLDERS:
        folder_runs(root, name)
        return None
    text, value = _load(where)
    if name in _HOOKS_FILES:
        at = member(text, ("hooks",)) if isinstance(value, dict) else None
        return said(text, at or 0, f"the plugin's hooks file: {_HOOKS_SAY}")
    if name in _RUNS_FILES and name != MCP_FILE:
        return file_runs(text, name, value)
    if not isinstance(value, dict):
        return None  # the runtime's schema refuses it: the plugin does not load
    if name == MCP_FILE:
        keys: tuple[str, ...] = ("mcpServers",) if "mcpServers" in value else ()
        return mcp_runs(text, keys, value.get("mcpServers") if keys else value)
    entries = [((), value)] if name in _MANIFESTS else [
        (("plugins", index), entry) for index, entry in enumerate(value.get("plugins") or [])
        if isinstance(entry, dict)] if isinstance(value.get("plugins"), list) else []
    if name in _MANIFESTS and (value.get(AGENTS) is not None or
                               value.get(WORKFLOWS) is not None):
        found = manifest_parts(root, text, value)
        if found is not None:
            return found
    for prefix, entry in entries:
        found = _entry_grants(text, prefix, entry)
        if found is not None:
            return found
    return None


def _entry_grants(text: str, prefix: tuple[str | int, ...], entry: dict[str, object]
                  ) -> str | None:
    """``_grants`` for one manifest (or a marketplace's plugin entry) at ``prefix``."""
    if entry.get("hooks") is not None:
        return said(text, member(text, (*prefix, "hooks")),
                     f"the plugin's {dotted((*prefix, 'hooks'))!r}: {_HOOKS_SAY}")
    found = None if entry.get("mcpServers") is None else mcp_runs(
        text, (*prefix, "mcpServers"), entry["mcpServers"])
    found = found or parts_run(text, prefix, entry)
    for key in (AGENTS, WORKFLOWS) if prefix and found is None else ():
        if entry.get(key) is not None:  # a marketplace entry's: paths in the plugin it lists
            return said(text, member(text, (*prefix, key)), f"the plugin's "
                        f"{dotted((*prefix, key))!r} names files skillgrant does not read")
    if found is not None:
        return found
    commands = entry.get("commands")
    if not isinstance(commands, dict):
        return None
    for command, metadata in commands.items():
        if not isinstance(metadata, dict):
            continue
        for key, why in (("allowedTools", "replaces the allowed-tools of the command file "
                          "it names (move them into that file's own allowed-tools)"),
                         ("content", "is a whole command whose frontmatter is in the "
                          "manifest")):
            if key in metadata:
                keys = (*prefix, "commands", command, key)
                return said(text, member(text, keys),
                             f"the plugin's {dotted(keys)!r} {why}")
    return None


def _load(where: str) -> tuple[str, object]:
    """The plugin file's text (a leading BOM dropped, as the runtime drops it) and its JSON
    value. Raises SkillFileError located in that file when it cannot be read or is not
    JSON."""
    try:
        data = read_bounded(where)
    except OSError as e:
        raise SkillFileError(f"cannot read the plugin file {where}: {e.strerror or e}; "
                             "skillgrant refuses what it cannot read of a plugin") from e
    if len(data) > MAX_FILE_BYTES:
        raise SkillFileError(f"the plugin file {where} is over {MAX_FILE_BYTES} bytes; "
                             "skillgrant refuses what it cannot read of a plugin")
    text = data.decode("utf-8", errors="replace").removeprefix("\ufeff")
    try:
        return text, json.loads(text, parse_constant=_no_constant)
    except ValueError as e:
        line, column = line_column(text, getattr(e, "pos", 0))
        raise SkillFileError(f"the plugin file {where}:{line}:{column} is not JSON "
                             f"({getattr(e, 'msg', e)}); skillgrant refuses a plugin whose "
                             "files it cannot read as the runtime does") from e


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")
