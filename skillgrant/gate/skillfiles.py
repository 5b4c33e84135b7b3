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

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Entries of the project's tree looked at for nested ``.claude`` folders; skills looked at in
#: one ``skills`` folder for their frontmatter's name; processes up the runtime's line.
_MAX_ENTRIES: Final = 65536
_MAX_SKILLS: Final = 256
_MAX_PARENTS: Final = 12
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
    for root in dict.fromkeys([*plugins, *_installed_plugins(home)]):
        files = _plugin_files(root, plugged)
        if isinstance(files, str):
            return files
        found += files
    return [c for c in dict.fromkeys(found) if os.path.exists(c) and not os.path.isdir(c)]


def _installed_plugins(home: str | None) -> list[str]:
    """The folders the runtime reads installed plugins from: its configuration folder's
    ``plugins`` (``CLAUDE_CONFIG_DIR``, else ``~/.claude``), and the folders
    ``CLAUDE_CODE_PLUGIN_CACHE_DIR`` and ``CLAUDE_CODE_PLUGIN_SEED_DIR`` name (review
    s47-greview2 K1)."""
    config = os.environ.get("CLAUDE_CONFIG_DIR") or (
        posixpath.join(home, ".claude") if home else None)
    moved = [os.environ.get(name) for name in ("CLAUDE_CODE_PLUGIN_CACHE_DIR",
                                               "CLAUDE_CODE_PLUGIN_SEED_DIR")]
    return [f for f in (posixpath.join(config, "plugins") if config else None, *moved) if f]


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
    from ..skillfile.bounded import NotRegularFileError

    for path in settings:
        try:
            found += _listed(json.loads(_text(path)), posixpath.dirname(posixpath.dirname(path)))
        except NotRegularFileError:
            return f"the settings {path!r} are no regular file (a FIFO is never waited on)"
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
                text = given if given.lstrip()[:1] == "{" else _text(
                    posixpath.join(where, given))
                found += _listed(json.loads(text), where)
            except (OSError, ValueError):
                return f"the gate cannot read the session's --settings {given!r}"
    return [os.path.normpath(f) for f in found], [os.path.normpath(p) for p in plugins]


def _text(path: str) -> str:
    """The text of the regular file ``path``, read bounded (a FIFO is never opened, so never
    waited on: ``NotRegularFileError``); ValueError past the limit or for bytes not UTF-8."""
    from ..limits import MAX_FILE_BYTES
    from ..skillfile.bounded import read_bounded

    data = read_bounded(path)
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"{path!r} is over {MAX_FILE_BYTES} bytes")
    return data.decode("utf-8")


def _listed(data: object, base: str) -> list[str]:
    """``permissions.additionalDirectories`` of the settings ``data``, from ``base``."""
    listed = data.get("permissions", {}) if isinstance(data, dict) else {}
    listed = listed.get("additionalDirectories", []) if isinstance(listed, dict) else []
    return [posixpath.join(base, os.path.expanduser(d)) for d in listed
            if isinstance(d, str)] if isinstance(listed, list) else []


_OPTIONS: Final = ("--add-dir", "--plugin-dir", "--settings")


def _command_lines() -> list[tuple[str, list[str]]] | str:
    """The folder and the words of each process above the hook's whose command line holds
    one of ``_OPTIONS`` (the runtime's), read from ``/proc``, PID 1 included (review s47 K4:
    a container's entrypoint); why not, where it cannot be. Under the runtime's hook
    (``CLAUDE_PROJECT_DIR`` set), a line without the process that set it (one whose own
    environment lacks it) is refused: the runtime's options are not on it."""
    found: list[tuple[str, list[str]]] = []
    setter = os.environ.get("CLAUDE_PROJECT_DIR") is None
    pid = os.getppid()
    for _ in range(_MAX_PARENTS):
        if pid < 1:
            break
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                words = handle.read().decode(errors="replace").split("\0")
            if any(w.startswith(_OPTIONS) for w in words):
                found.append((os.readlink(f"/proc/{pid}/cwd"), words))
            setter = setter or not _holds_project_dir(pid)  # (the runtime, or above it)
            pid = fs.parent_pid(pid) if pid != 1 else 0  # (init's is the last line read)
        except (OSError, ValueError, IndexError):
            return _UNREAD
    return found if setter else _UNREAD


_UNREAD: Final = ("the gate cannot read the session's command line (--add-dir, --plugin-dir, "
                  "--settings), which names skills the runtime runs")


def _holds_project_dir(pid: int) -> bool:
    """Whether the process ``pid`` started with ``CLAUDE_PROJECT_DIR`` in its environment (one
    the gate may not read, another user's, is taken to: it is not the runtime's)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            return b"\0CLAUDE_PROJECT_DIR=" in b"\0" + handle.read()
    except OSError:
        return True


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
    """The ``.claude`` folders below each of ``tops`` (``.git`` apart), or why not. A link to
    a folder is followed, each real folder it leads to once (the runtime loads a nested
    ``.claude`` through a linked folder, or one that is itself a link: review s48-greview K1,
    measured through Claude Code 2.1.332)."""
    found: list[str] = []
    seen = 0
    linked = {os.path.realpath(top) for top in tops}
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
                        if entry.name == ".git" or not _walked(entry, linked):
                            continue
                        stack.append(entry.path)
                        found += [entry.path] if entry.name == ".claude" else []
            except OSError:
                continue  # (a folder the gate cannot read, nor can the runtime)
    return found


def _walked(entry: os.DirEntry[str], linked: set[str]) -> bool:
    """Whether ``_nested`` walks into ``entry``: a folder, or a link to one whose real path
    no link walked before led to (``linked``, which it joins)."""
    if not entry.is_symlink():
        return entry.is_dir(follow_symlinks=False)
    real = os.path.realpath(entry.path)
    if real in linked or not entry.is_dir():
        return False
    linked.add(real)
    return True


def _named(skills: str, name: str) -> list[str] | str:
    """The ``SKILL.md`` files in ``skills`` whose frontmatter's ``name`` is ``name``, or may be
    (the name not read exactly, or not plain)."""
    try:
        folders = [e.path for e in os.scandir(skills) if e.is_dir()]
    except OSError:
        return []
    if len(folders) > _MAX_SKILLS:
        return f"the folder {skills!r} holds more skills than the gate reads ({_MAX_SKILLS})"
    return [p for p in (posixpath.join(f, "SKILL.md") for f in folders) if _may_be_named(p, name)]


def _may_be_named(path: str, name: str) -> bool:
    """Whether the runtime may know the file ``path`` by the name ``name`` from its
    frontmatter (review s47 K3: read by the project's reader, a BOM, a quoted key, an indented
    or flow mapping as Bun reads them; a name the reader cannot read exactly counts)."""
    from ..limits import MAX_FILE_BYTES
    from ..skillfile.bounded import read_bounded

    try:
        data = read_bounded(path)
    except FileNotFoundError:
        return False
    except OSError:
        return True  # (a FIFO, a loop, no access: judged, so refused, never waited on)
    if len(data) > MAX_FILE_BYTES:
        return True
    text = data.decode("utf-8", "replace")
    from ..skillfile.runtime import runtime_frontmatter

    span = runtime_frontmatter(text)
    head = text[span.start:span.end].lower() if span is not None else ""
    if name.lower() not in head and "\\" not in head:
        return False  # (no scalar of the text is the name: only an escape joins characters)
    said = frontmatter_name(text)
    return said is None or said == name or (bool(said) and not _PLAIN_NAME.fullmatch(said))


def frontmatter_name(text: str) -> str | None:
    """The ``name`` the runtime reads in the frontmatter of the skill file ``text`` ("" when
    none); None when the project's reader cannot say it exactly (a ``Divergence``, a tag or an
    anchor, a value that is no string, a character PyYAML reads as a line break)."""
    from yaml.nodes import MappingNode, ScalarNode

    from ..skillfile.runtime import Divergence, predict, runtime_frontmatter
    from ..skillfile.yamlspan import is_str_scalar

    span = runtime_frontmatter(text)
    yaml_text = text[span.start:span.end] if span is not None else ""
    if "name" not in yaml_text and "\\" not in yaml_text:
        return ""  # (no key spells it: an escape in a quoted key might)
    try:
        read = predict(yaml_text)
    except (Divergence, RecursionError):
        return None
    if read.how == "nothing":
        return None  # (a predicted rejection is no proof of no name: review s47-freview S5)
    if not isinstance(read.root, MappingNode):
        return ""
    found = [v for k, v in read.root.value if isinstance(k, ScalarNode) and k.value == "name"]
    if not found:
        return ""
    node, source = found[-1], read.text
    written = source[node.start_mark.index:node.end_mark.index]
    if (written[:1] in ("!", "&") or not is_str_scalar(node)
            or any(c in written for c in ("\x85", "\u2028", "\u2029"))):
        return None
    return str(node.value)


def _plugin_files(root: str, name: str, seen: set[str] | None = None) -> list[str] | str:
    """A plugin's skill or command files the runtime may know by the tail of ``name``,
    anywhere under the plugins folder ``root`` (the gate does not read which plugin is
    installed where): ``NAME.md``, ``NAME/SKILL.md``, a ``SKILL.md`` whose frontmatter may name
    it, and every file a manifest's ``commands`` or ``skills`` names (review s47 K5: a path
    anywhere in the plugin, or outside it); or why they cannot be listed. Folders are walked
    through links, each real folder once (``seen``)."""
    seen = set() if seen is None else seen
    walked = _walk_plugins(root, name.rsplit(":", 1)[1], seen)
    if isinstance(walked, str):
        return walked
    found, listed, files = walked
    tails = ["/" + p[1:].lstrip("./") for p in listed if p.startswith("*")]  # (no base known)
    found += [f for f in files if any(f.endswith(t) or t + "/" in f for t in tails)]
    for path in dict.fromkeys(p for p in listed if not p.startswith("*")):
        if os.path.isdir(path):
            more = _plugin_files(path, name, seen)  # (a folder: walked the same way, once)
            if isinstance(more, str):
                return more
            found += more
        found += [path] if os.path.exists(path) and not os.path.isdir(path) else []
    return found


def _walk_plugins(root: str, tail: str,
                  seen: set[str]) -> tuple[list[str], list[str], list[str]] | str:
    """The files under ``root`` named for ``tail``, the paths its manifests name, and every
    file under it (folders in ``seen`` skipped, and added)."""
    found: list[str] = []
    listed: list[str] = []
    files: list[str] = []
    for folder, dirs, names in os.walk(root, followlinks=True):
        real = os.path.realpath(folder)
        if real in seen:  # (its files looked at; by this name too, a skill's folder)
            dirs[:] = []
            found += [posixpath.join(folder, "SKILL.md")] if (
                posixpath.basename(folder) == tail and "SKILL.md" in names) else []
            continue
        seen.add(real)
        dirs[:] = [d for d in dirs if d != ".git"]
        for file in names:
            path = posixpath.join(folder, file)
            files.append(path)
            if file == tail + ".md" or (file == "SKILL.md" and (
                    posixpath.basename(folder) == tail or _may_be_named(path, tail))):
                found.append(path)
        if posixpath.basename(folder) == ".claude-plugin":
            for manifest in ("plugin.json", "marketplace.json"):
                paths = _manifest_paths(posixpath.join(folder, manifest)) if (
                    manifest in names) else []
                if isinstance(paths, str):
                    return paths
                listed += paths
    return found, listed, files


def _manifest_paths(path: str) -> list[str] | str:
    """The files and folders the plugin manifest (or marketplace) ``path`` names for its
    commands and skills, from the plugin's folder (an entry's ``source``); why not."""
    base = posixpath.dirname(posixpath.dirname(path))
    try:
        data = json.loads(_text(path))
    except (OSError, ValueError):
        return f"the gate cannot read the plugin manifest {path!r}, which may name commands"
    entries: list[tuple[str | None, object]] = [(base, data)]
    if isinstance(data, dict) and isinstance(data.get("plugins"), list):
        entries += [(posixpath.join(base, e["source"]) if isinstance(e.get("source"), str)
                     else None, e) for e in data["plugins"] if isinstance(e, dict)]
    found = []
    for where, entry in entries:
        for key in ("commands", "skills"):
            for given in _strings(entry.get(key)) if isinstance(entry, dict) else []:
                found += [os.path.normpath(posixpath.join(where, given)) if where is not None
                          else "*" + os.path.normpath(given)]  # (a plugin fetched elsewhere)
    return found


def _strings(value: object) -> list[str]:
    """Every string in ``value`` (a string, a list, an object's values and keys)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [*value, *(s for v in value.values() for s in _strings(v))]
    return [s for v in value for s in _strings(v)] if isinstance(value, list) else []
