"""The files Claude Code may run for a skill a ``Skill`` call names (review s45 K1; session 46).

``skillargs`` judges the commands a call's ``args`` fill in the skill's file; it must read
the file the runtime runs, or refuse. The runtime finds skills and commands in the ``.claude``
folder of the working directory and each one above it, the user's (``CLAUDE_CONFIG_DIR``),
the folders added to the session (``--add-dir``, ``permissions.additionalDirectories``), the
``.claude`` folders nested below the project that it discovers as the session works there, and
a skill is known by its frontmatter's ``name`` as well as its folder's. So every such file is
a candidate, judged each (a union); where the gate cannot list them (no ``/proc`` to read
the runtime's ``--add-dir``, a project tree past ``_MAX_ENTRIES``, a skills folder past
``_MAX_SKILLS``) it says why, and the call is refused."""

from __future__ import annotations

import json
import os
import posixpath
import re

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Entries of the project's tree looked at for nested ``.claude`` folders; skills looked at in
#: one ``skills`` folder for their frontmatter's name; processes up the runtime's line.
_MAX_ENTRIES: Final = 65536
_MAX_SKILLS: Final = 256
_MAX_PARENTS: Final = 12
_NAME: Final = re.compile(r"^name\s*:\s*(.*?)\s*$", re.MULTILINE)
_PLAIN_NAME: Final = re.compile(r"[\w.:-]+")


def skill_files(name: str, cwd: str | None) -> list[str] | str:
    """Every file the runtime may run for the skill or command ``name`` called from ``cwd``,
    or why the gate cannot list them."""
    if not name or "\x00" in name or ".." in name.split(":"):
        return []
    folders = []
    folder = cwd if cwd is not None and cwd.startswith("/") else None
    while folder is not None:
        folders.append(folder)
        parent = posixpath.dirname(folder)
        folder = None if parent == folder else parent
    home = os.environ.get("HOME")
    roots = [posixpath.join(f, ".claude") for f in folders]
    roots += [posixpath.join(home, ".claude")] if home and home.startswith("/") else []
    roots += [os.environ["CLAUDE_CONFIG_DIR"]] if os.environ.get("CLAUDE_CONFIG_DIR") else []
    given = _added(folders, home)
    if isinstance(given, str):
        return given
    added, plugins = given
    top = os.environ.get("CLAUDE_PROJECT_DIR") or (folders[0] if folders else None)
    nested = _nested([top, *added] if top else added)
    if isinstance(nested, str):
        return nested
    roots += [posixpath.join(a, ".claude") for a in added] + nested
    relative = name.replace(":", "/")
    found: list[str] = []
    for root in dict.fromkeys(roots):
        found += [posixpath.join(root, "skills", relative, "SKILL.md"),
                  posixpath.join(root, "commands", relative + ".md")]
        named = _named(posixpath.join(root, "skills"), name) if ":" not in name else []
        if isinstance(named, str):
            return named
        found += named
    plugged = name if ":" in name else ":" + name  # a plugin's, installed or given
    for root in [*plugins, *([posixpath.join(home, ".claude", "plugins")] if home else [])]:
        found += _plugin_files(root, plugged)
    return [c for c in dict.fromkeys(found) if os.path.isfile(c)]


def _added(folders: list[str], home: str | None) -> tuple[list[str], list[str]] | str:
    """The folders added to the session (``permissions.additionalDirectories`` of the
    settings the runtime reads, ``--add-dir`` and ``--settings`` on the command line of a
    process the hook runs under: the runtime's, read from ``/proc``), and the plugin folders
    given there (``--plugin-dir``); or why they cannot be read."""
    settings = [posixpath.join(f, ".claude", n) for f in folders
                for n in ("settings.json", "settings.local.json")]
    user = os.environ.get("CLAUDE_CONFIG_DIR") or (
        posixpath.join(home, ".claude") if home else None)
    settings += [posixpath.join(user, "settings.json")] if user else []
    settings += ["/etc/claude-code/managed-settings.json"]
    found: list[str] = []
    for path in settings:
        try:
            with open(path, encoding="utf-8") as handle:
                found += _listed(json.load(handle), posixpath.dirname(posixpath.dirname(path)))
        except (OSError, ValueError):
            continue  # (none, or none the runtime reads either)
    lines = _command_lines()
    if isinstance(lines, str):
        return lines
    plugins: list[str] = []
    for where, words in lines:
        found += [posixpath.join(where, d) for d in _values(words, "--add-dir", True)]
        plugins += [posixpath.join(where, d) for d in _values(words, "--plugin-dir") +
                    _values(words, "--plugin-dir-no-mcp")]
        for given in _values(words, "--settings"):
            try:
                text = given if given.lstrip()[:1] == "{" else open(  # noqa: SIM115
                    posixpath.join(where, given), encoding="utf-8").read()
                found += _listed(json.loads(text), where)
            except (OSError, ValueError):
                return f"the gate cannot read the session's --settings {given!r}"
    return [os.path.normpath(f) for f in found], [os.path.normpath(p) for p in plugins]


def _listed(data: object, base: str) -> list[str]:
    """``permissions.additionalDirectories`` of the settings ``data``, from ``base``."""
    listed = data.get("permissions", {}) if isinstance(data, dict) else {}
    listed = listed.get("additionalDirectories", []) if isinstance(listed, dict) else []
    return [posixpath.join(base, os.path.expanduser(d)) for d in listed
            if isinstance(d, str)] if isinstance(listed, list) else []


_OPTIONS: Final = ("--add-dir", "--plugin-dir", "--settings")


def _command_lines() -> list[tuple[str, list[str]]] | str:
    """The folder and the words of each process above the hook's whose command line holds
    one of ``_OPTIONS`` (the runtime's), read from ``/proc``; why not, where it cannot be."""
    found: list[tuple[str, list[str]]] = []
    pid = os.getppid()
    for _ in range(_MAX_PARENTS):
        if pid <= 1:
            return found
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                words = handle.read().decode(errors="replace").split("\0")
            if any(w.startswith(_OPTIONS) for w in words):
                found.append((os.readlink(f"/proc/{pid}/cwd"), words))
            with open(f"/proc/{pid}/stat", "rb") as handle:
                pid = int(handle.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return ("the gate cannot read the session's command line (--add-dir, "
                    "--plugin-dir, --settings), which names skills the runtime runs")
    return found


def _values(words: list[str], option: str, many: bool = False) -> list[str]:
    """The values of ``option`` in ``words``: the next word, or attached with ``=``; with
    ``many``, each word after it up to an option (``--add-dir a b``)."""
    found: list[str] = []
    taking = False
    for word in words:
        if word.startswith(option + "="):
            found.append(word.split("=", 1)[1])
            taking = False
        elif word == option:
            taking = True
        elif taking and word and not word.startswith("-"):
            found.append(word)
            taking = many
        else:
            taking = False
    return found


def _nested(tops: list[str]) -> list[str] | str:
    """The ``.claude`` folders below each of ``tops`` (``.git`` apart), or why not."""
    found: list[str] = []
    seen = 0
    for top in tops:
        stack = [top]
        while stack:
            try:
                with os.scandir(stack.pop()) as entries:
                    for entry in entries:
                        seen += 1
                        if seen > _MAX_ENTRIES:
                            return (f"the project holds more than {_MAX_ENTRIES} entries, in "
                                    "which the gate cannot list the skills the runtime finds")
                        if entry.name != ".git" and entry.is_dir(follow_symlinks=False):
                            stack.append(entry.path)
                            found += [entry.path] if entry.name == ".claude" else []
            except OSError:
                continue  # (a folder the gate cannot read, nor can the runtime)
    return found


def _named(skills: str, name: str) -> list[str] | str:
    """The ``SKILL.md`` files in ``skills`` whose frontmatter's ``name`` is ``name``, or is
    not read plainly (it may be)."""
    try:
        folders = [e.path for e in os.scandir(skills) if e.is_dir()]
    except OSError:
        return []
    if len(folders) > _MAX_SKILLS:
        return f"the folder {skills!r} holds more skills than the gate reads ({_MAX_SKILLS})"
    found = []
    for folder in folders:
        path = posixpath.join(folder, "SKILL.md")
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                head = handle.read(8192)
        except OSError:
            continue
        said = _NAME.search(head.split("\n---", 1)[0]) if head.startswith("---") else None
        value = said.group(1).strip("'\"") if said else None
        if value is not None and (value == name or not _PLAIN_NAME.fullmatch(value)):
            found.append(path)
    return found


def _plugin_files(root: str, name: str) -> list[str]:
    """A plugin's skill or command files named by the tail of ``name``, anywhere under the
    plugins folder (the gate does not read which plugin is installed where)."""
    tail = name.rsplit(":", 1)[1]
    found = []
    for folder, dirs, names in os.walk(root):
        if posixpath.basename(folder) == tail and "SKILL.md" in names:
            found.append(posixpath.join(folder, "SKILL.md"))
        if posixpath.basename(folder) == "commands" and tail + ".md" in names:
            found.append(posixpath.join(folder, tail + ".md"))
        dirs[:] = [d for d in dirs if d != ".git"]
    return found
