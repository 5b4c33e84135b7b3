"""The files ``check`` and ``apply`` read: the paths named, and what a directory holds.

A directory is searched for files named ``SKILL.md``, and for the command files that carry
the same ``allowed-tools`` field: the Markdown files under a ``commands`` folder (at any
depth) of ``.claude/`` or of a plugin's root (the folder holding ``.claude-plugin/``), and
those its manifest's ``commands`` names elsewhere in the plugin. A command
file that does not begin with a frontmatter fence (plain Markdown, as many commands are)
grants nothing and is left out. Agent files are not read: a subagent's tools are its
``tools:`` field, which the runtime reads instead of ``allowed-tools``, and skillgrant does not
judge it (a rewritten ``allowed-tools`` there would change nothing the agent may do).

What the runtimes load is searched whole (review s43-freview F1-F5): below a folder named
``.claude`` or ``.github``, or a plugin's root, no folder is skipped and a symbolically linked
folder is entered (a skill folder linked from elsewhere is loaded as any other), each real
folder once; a linked ``.claude`` or ``.github`` folder is entered too. ``node_modules``,
``.git``, ``.hg`` and ``.svn`` are searched for those folders only (Claude Code loads a
``.claude/skills`` below them once the agent reads a file there): their other files are not a
runtime's; so is a linked folder elsewhere that leads out of the tree walked (a package
linked in: review s44-freview N6). A plugin's root holds a manifest in any of the places
``skillfile.plugin`` names (Copilot CLI's three too), and a command file's extension is
``.md`` in any case (Copilot loads ``.MD``).
The folder named on the command line may be a plugin's root without a manifest
(``--plugin-dir``): its ``commands`` folder is one, and a manifest's ``skills`` paths are
searched as its ``commands`` are.

``--include`` and ``--exclude`` globs (cli/discovery.py's) narrow what a directory
gives, matched against the path as given from the working directory; a file named on the
command line is always read.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from .console import fail
from .skilldirs import COPILOT_FOLDER, settings_folders


class Filters(NamedTuple):
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def keep(self, path: Path) -> bool:
        if not self.include and not self.exclude:
            return True
        from .discovery import glob_pattern

        text = path.as_posix().removeprefix("./")
        if self.include and not any(glob_pattern(g).fullmatch(text) for g in self.include):
            return False
        return not any(glob_pattern(g).fullmatch(text) for g in self.exclude)


#: Folders searched for runtime folders only, outside a runtime's: ``node_modules`` and the
#: version-control internals (Claude Code loads a ``.claude/skills`` below them once the agent
#: reads a file there, and git commits a ``.hg`` or ``.svn`` folder: review s44-freview N3).
DEPENDENCIES = frozenset({"node_modules", ".git", ".hg", ".svn"})
#: Folders whose whole tree a runtime loads from (skills, commands, agents, hooks).
RUNTIME_DIRS = frozenset({".claude", ".github", ".agents"})  # (.agents: Copilot CLI's skills)
#: Folders the walk may enter through links, at most (a link to ``/``: review s43-freview).
MAX_LINKED_FOLDERS = 10_000
#: A folder's zone in the walk: searched as usual, a dependency's (runtime folders only), or
#: a runtime's (everything, links followed).
_PLAIN, _DEPENDENCY, _RUNTIME = 0, 1, 2
SKILL_FILE = "SKILL.md"


class Unreadable(NamedTuple):
    """A directory the walk could not enter or list, and why (the OS's words): an error for
    that path in the run, never a directory silently skipped. ``refused``: a plugin found
    whose own files grant (``reason``, the refusal's words: review s44-freview N5)."""

    path: Path
    reason: str
    refused: bool = False


def collect(paths: list[str], filters: Filters | None = None) -> list[Path | Unreadable]:
    """The files named or found under directories, each once, in a stable order, with each
    directory under them that could not be read in its place in that order."""
    filters = filters or Filters()
    found: list[tuple[Path | Unreadable, str]] = []
    for given in paths:
        if given == "-":
            fail("'-' (a SKILL.md on standard input) must be the only path")
        path = Path(given)
        if path.is_dir():
            inside = sorted((item for item in walk(path)
                             if isinstance(item[0], Unreadable) or filters.keep(item[0])),
                            key=_walk_order)
            if not inside:
                fail(f"{given}: no {SKILL_FILE} or command file found in this directory")
            found.extend(inside)
        elif path.exists():
            found.append((path, os.path.realpath(path)))
        else:
            from ..skillfile.bounded import broken_link  # an error's words only

            fail(f"{given}: {broken_link(given) or 'no such file or directory'}")
    seen: set[str] = set()
    unique: list[Path | Unreadable] = []
    for item, key in found:
        if key not in seen:
            seen.add(key)
            unique.append(item)
    return unique


def _walk_order(found: tuple[Path | Unreadable, str]) -> Path:
    item = found[0]
    return item.path if isinstance(item, Unreadable) else item


def walk(directory: Path) -> Iterator[tuple[Path | Unreadable, str]]:
    """Each SKILL.md and command file under ``directory`` with its real path (what
    ``os.path.realpath`` gives), and each directory that could not be entered or listed as an
    Unreadable (keyed apart from files: ``dir:`` and its real path).

    The walk selects by name: whatever is called SKILL.md and is not a directory (a FIFO, a
    device) is yielded, and the reader refuses what is not a regular file.

    It is ``os.walk`` (top-down, symlinked directories listed but not entered, a folder that
    cannot be listed to the end giving nothing) with one ``os.scandir`` a folder and what each
    entry's type says, where ``os.walk`` and a plain loop over its names ask the system again
    (``islink``) for every folder entered and every file found: a registry-scale batch is one
    folder a skill. tests/test_walk.py compares the two walks on generated trees.
    """
    top = os.fspath(directory)
    real_top = os.path.realpath(top)
    prefix = top if top.endswith(os.sep) else top + os.sep
    zone = _RUNTIME if RUNTIME_DIRS & set(Path(real_top).parts) else _PLAIN
    folders = [(top, zone, False)]
    entered = {real_top}  # the real folders a link led into, each entered once
    through_links = 0
    while folders:
        root, zone, linked = folders.pop()
        through_links += linked
        if linked and through_links > MAX_LINKED_FOLDERS:
            if through_links == MAX_LINKED_FOLDERS + 1:  # an error for the run, said once
                yield from _unreadable([OSError(0, f"more than {MAX_LINKED_FOLDERS} folders "
                                                "reached through links (MAX_LINKED_FOLDERS)",
                                                root)])
            continue
        listed = _listing(root, zone, entered, real_top)
        if isinstance(listed, OSError):
            yield from _unreadable([listed])
            continue
        inside, skill, names, plugin = listed
        named, errors = _skill_directories(root, names)
        folders.extend(named)
        yield from _unreadable(errors)
        # Entered in name order (pushed last to first), as os.walk's sorted dirs would be.
        folders.extend((f, z, k or linked) for f, z, k in reversed(inside))
        if zone == _DEPENDENCY and not plugin:
            continue  # a dependency's own files are no runtime's (a plugin's are)
        chosen = _chosen(root, skill, names, top)
        if plugin:
            chosen += _manifest_commands(root)
            yield from _plugin_refused(root)
        for name, link in chosen:
            link = link or linked
            # Only a folder entered (never a symlinked one) is listed, so below the top only
            # the file itself can be a link: its real path is the top's plus the rest, unless
            # it is one.
            if link or not name.startswith(prefix):
                yield Path(name), os.path.realpath(name)
            else:
                yield Path(name), os.path.join(real_top, name[len(prefix):])


def _skill_directories(root: str, names: list[str]
                       ) -> tuple[list[tuple[str, int, bool]], list[OSError]]:
    """The folders Copilot CLI's settings in ``root`` (``.github/copilot``, holding ``names``)
    name in ``skillDirectories``, searched whole (``skilldirs``), or the error reading them."""
    if not root.endswith(COPILOT_FOLDER):
        return [], []
    named = settings_folders(root, names)
    if isinstance(named, OSError):
        return [], [named]
    return [(folder, _RUNTIME, True) for folder in reversed(named)], []


_Listing = tuple[list[tuple[str, int, bool]], os.DirEntry[str] | None, list[str], bool]


def _listing(root: str, zone: int, entered: set[str], real_top: str) -> _Listing | OSError:
    """The folder ``root`` (in ``zone``) as the walk needs it: the folders to enter, each with
    its zone and whether a link led to it (``_entered``; in name order), its SKILL.md entry
    (not a directory), the names of its other entries that are not directories and whether
    it is a plugin's root; or the error that stopped its listing."""
    try:
        listing = os.scandir(root)
    except OSError as error:
        return error
    folders: list[os.DirEntry[str]] = []
    skill = None
    names: list[str] = []
    with listing:
        try:
            for entry in listing:
                if _is_dir(entry):
                    folders.append(entry)
                elif entry.name == SKILL_FILE:
                    skill = entry
                else:
                    names.append(entry.name)
        except OSError as error:
            return error
    plugin = ("plugin.json" in names and not _manifest_folder(root)) or any(
        entry.name in (".claude-plugin", ".plugin") or (entry.name == ".github" and os.path.isfile(
            os.path.join(entry.path, "plugin", "plugin.json"))) for entry in folders)
    if plugin:
        zone = _RUNTIME  # a plugin's root (a manifest in any of ``_manifests``'): all it holds
        # is the runtime's, in node_modules too (--plugin-dir: s43-freview F1d, F5c; s44 N2)
    folders.sort(key=lambda entry: entry.path)
    inside = [found for entry in folders
              if (found := _entered(entry, zone, entered, real_top)) is not None]
    return inside, skill, names, plugin


def _entered(entry: os.DirEntry[str], zone: int, entered: set[str],
             real_top: str) -> tuple[str, int, bool] | None:
    """The folder ``entry`` of a folder in ``zone``, with its own zone and whether it is a
    link, when the walk enters it; None when it does not."""
    name = entry.name
    inner = _RUNTIME if zone == _RUNTIME or name in RUNTIME_DIRS else \
        _DEPENDENCY if zone == _DEPENDENCY or name in DEPENDENCIES else _PLAIN
    if not _is_link(entry):
        return entry.path, inner, False
    real = os.path.realpath(entry.path)  # (`npm link`ed packages: s43-freview F2b)
    if inner == _PLAIN:
        # a linked package folder (`vendor/pkg -> ../../outside/pkg`) is searched for runtime
        # folders as a dependency is (review s44-freview N6); one inside the folder walked is
        # walked there
        if real == real_top or real.startswith(real_top.rstrip(os.sep) + os.sep):
            return None
        inner = _DEPENDENCY
    if real in entered:
        return None
    entered.add(real)
    return entry.path, inner, True


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """``entry.is_dir()`` as ``os.walk`` reads it: a directory or a link to one; an entry
    whose type cannot be told is not a directory."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _is_link(entry: os.DirEntry[str]) -> bool:
    """Whether ``entry`` is a symbolic link (``os.path.islink``'s answer: False when it cannot
    be told)."""
    try:
        return entry.is_symlink()
    except OSError:
        return False


def _chosen(root: str, skill: os.DirEntry[str] | None, names: list[str],
            top: str) -> list[tuple[str, bool]]:
    """The files of the folder ``root`` the walk reads, each with whether it is a link:
    its SKILL.md (``skill``) and, in a commands folder, the Markdown files among ``names``
    that begin with a frontmatter fence. ``top``: the folder the walk began in."""
    found = [] if skill is None else [(skill.path, _is_link(skill))]
    if not _in_commands(root, top):
        return found
    for name in sorted(names):
        path = os.path.join(root, name)
        if name.lower().endswith(".md") and _has_frontmatter(path):  # `.MD`: Copilot's (N1)
            found.append((path, os.path.islink(path)))
    return found


def _in_commands(root: str, top: str = "") -> bool:
    """Whether ``root`` is in a ``commands`` folder (at any depth) of ``.claude/``, of a
    plugin, or of ``top`` (the folder named: a plugin's root without a manifest, F5)."""
    if "commands" not in root:  # most folders of a walk: no Path built for them
        return False
    parts = Path(root).parts
    for depth in range(len(parts) - 1, -1, -1):
        if parts[depth] != "commands":
            continue
        owner = Path(*parts[:depth]) if depth else Path(".")
        if owner.name == ".claude" or (owner / ".claude-plugin").is_dir() or (
                owner / ".plugin").is_dir() or _manifests(str(owner)) or (
                top and owner == Path(top)):
            return True
    return False


def _manifest_commands(root: str) -> list[tuple[str, bool]]:
    """The command files a plugin's manifests name outside its ``commands`` folder (each
    manifest's ``commands`` key: a path, a list of paths, or command metadata with a
    ``source``; a folder named stands for the Markdown files under it), each with whether it
    is a link: the runtimes load them, so they are judged too. Every manifest present counts
    (Claude Code reads ``.claude-plugin/``'s, Copilot CLI the first of its own places: review
    s44-freview N4b). A manifest that cannot be read names none here (``skillfile.plugin``
    refuses the plugin's files then)."""
    found: list[tuple[str, bool]] = []
    top = os.path.realpath(root) + os.sep
    for manifest in _manifests(root):
        for path in _named_commands(root, manifest):
            if not os.path.realpath(path).startswith(top):
                continue  # the runtime loads no path outside the plugin
            files = ([path] if not os.path.isdir(path) else sorted(
                os.path.join(folder, name) for folder, _, names in os.walk(path)
                for name in names))
            found.extend((file, os.path.islink(file)) for file in files if file.lower(
            ).endswith(".md") and os.path.isfile(file) and _has_frontmatter(file))
    return list(dict.fromkeys(found))


def _named_commands(root: str, manifest: str) -> list[str]:
    """The paths the manifest at ``manifest`` names under its ``commands`` key, from
    ``root``."""
    import json

    from ..limits import MAX_FILE_BYTES

    try:
        with open(manifest, "rb") as stream:
            data = stream.read(MAX_FILE_BYTES + 1)  # (a larger one: refused by the plugin's
        if len(data) > MAX_FILE_BYTES:  # judge, ``_plugin_refused``; review s44-freview N13)
            return []
        loaded = json.loads(data.decode("utf-8", "replace").removeprefix("\ufeff"))
        named = loaded.get("commands")
    except (OSError, ValueError, AttributeError):
        return []
    if isinstance(named, dict):
        named = [entry.get("source") for entry in named.values() if isinstance(entry, dict)]
    elif not isinstance(named, list):
        named = [named]
    return [os.path.normpath(os.path.join(root, given)) for given in named
            if isinstance(given, str) and given]


def _manifest_folder(root: str) -> bool:
    """Whether ``root`` is a folder of a plugin's manifest (``.claude-plugin``, ``.plugin``,
    ``.github/plugin``), not a plugin's root."""
    head, name = os.path.split(root.rstrip(os.sep))
    return name in (".claude-plugin", ".plugin") or (
        name == "plugin" and os.path.basename(head) == ".github")


def _plugin_refused(root: str) -> Iterator[tuple[Unreadable, str]]:
    """The refusal of the plugin whose root is ``root`` when its own files grant (hooks, an
    inline command: ``skillfile.plugin``), asked as for a command file of it: a plugin with no
    command or skill file is judged too, since a runtime started with it runs them (N5)."""
    from ..errors import SkillFileError
    from ..skillfile.plugin import judge_plugin

    try:
        judge_plugin(os.path.join(root, "commands", "command.md"))
    except SkillFileError as e:
        yield (Unreadable(Path(root), e.message, refused=True), "plugin:" + os.path.realpath(root))


def _manifests(root: str) -> list[str]:
    """The plugin manifests in the folder ``root``: Claude Code's, and Copilot CLI's three
    (``skillfile.plugin``'s places; review s44-freview N2)."""
    from ..skillfile.plugin import COPILOT_MANIFESTS, MANIFEST

    return [path for place in (MANIFEST, *COPILOT_MANIFESTS)
            if os.path.isfile(path := os.path.join(root, place))]


def _has_frontmatter(path: str) -> bool:
    """Whether the file at ``path`` begins with a frontmatter fence; True for anything but a
    regular file, or one that cannot be read (the reader says why): opened without blocking,
    so a FIFO named like a command file does not stop the walk (review s44-freview N11)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return True
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return True
        start = os.read(descriptor, 8)
    except OSError:
        return True
    finally:
        os.close(descriptor)
    return start.removeprefix(b"\xef\xbb\xbf").startswith(b"---")


def _unreadable(errors: list[OSError]) -> Iterator[tuple[Unreadable, str]]:
    for error in errors:
        name = os.fspath(error.filename) if error.filename is not None else "?"
        yield (Unreadable(Path(name), str(error.strerror or error)),
               "dir:" + os.path.realpath(name))
    errors.clear()


