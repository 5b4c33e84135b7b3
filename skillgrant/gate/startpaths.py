"""What the plan's programs read at their start that no rule named before (session 48): the
paths a project's or the user's ``.npmrc`` names (``node-options=--require ./tools/x.js``:
review s47 C5b), the modules a ``bunfig.toml`` preloads (s50-greview3 F1), cmake's package
search prefixes (M2), and where the links inside the home's guarded folders lead (a toolchain
a version manager links to: R1; a dotfiles manager's ``~/.kube/config ->
~/dotfiles/kubeconfig``: R2), and the plugins a Python checker's settings name
(``checkersettings.plugin_paths``). Each is guarded whole."""

from __future__ import annotations

import os

from . import files as fs
from . import linked
from .checkersettings import plugin_paths
from .entryvars import ASSIGNED
from .envpaths import named_paths, preload_paths, session_paths
from .homefiles import HOME_CODE, SYSTEM_BINS, SYSTEM_TREES, npm_global, prefixes
from .planpaths import SETTINGS, required
from .wrapped import NPMRC, RUNS_IN

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def start_paths(named: tuple[str, ...], folders: list[str], home: str,
                bins: list[str]) -> list[tuple[str, bool]]:
    """The items above, for the plan's programs' paths ``named`` (``plan_programs``), the
    folders a program of the call runs in (the call's, each above it, the project's), the
    user's home and ``PATH``'s folders (real paths). Raises ValueError for a settings file the
    gate cannot read."""
    items = home_links(home)
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    items += [(os.path.join(home, n), False) for n in (".gdbinit", ".gdbearlyinit")]
    items.append((os.path.join(xdg, "gdb"), True))  # (gdb's, at every start: s49-greview2 G1)
    marks = _marks(named)
    moved = [*marks.get(RUNS_IN, ()), *(os.path.dirname(p) for p in named
                                        if p[-7:] == "/.npmrc" and p[:1] != "^")]
    if "^.npmrc" in named:  # (a node runner, or a runner of any program, in the plan)
        items += npmrc_paths(folders, home, [*marks.get(NPMRC, ()), *(
            a.partition("=")[2] for a in (p.partition("\x00")[0]
                                          for p in marks.get(ASSIGNED, ()))  # (an entry's
            if a.partition("=")[0].lower() in _NPM_FILES)], moved)  # npm settings file, any
    if "^bunfig.toml" in named:  # case: G3; what bun's settings preload: s50-greview3 F1)
        items += bunfig_paths(folders, home, xdg)
    if moved:  # a session value's relative path, read where the plan's program runs (E3)
        bases = [os.path.normpath(os.path.join(f, m)) for m in dict.fromkeys(moved)
                 for f in folders]
        items += session_paths(bases, [*folders, home, *bases])
    if "CMakeLists.txt" in named:
        items += cmake_prefixes(folders, home, bins)
    items += script_prefixes(named, [folders[0], folders[-1]] if folders else [])  # (R4)
    if any("python" in p or "pytest" in p for p in named):  # (the standard library's zip
        items += [(os.path.join(os.path.dirname(b.rstrip("/")), "lib", f"python3{v}{t}.zip"),
                   False) for b in bins for v in range(6, 16) for t in ("", "t")]  # getpath
        # puts first on sys.path after the script's folder, there or not: s57-greview2 V-ZIP)
    plugged = list(marks.get(SETTINGS, ()))
    if plugged:  # (a Python checker, or a runner of any program)
        items += plugin_paths(plugged, folders, home)
    return items


#: The marks of ``plan_programs``' paths ``start_paths`` reads.
_READ_MARKS: Final = frozenset((RUNS_IN, NPMRC, ASSIGNED, SETTINGS))


def _marks(named: tuple[str, ...]) -> dict[str, list[str]]:
    """``named``'s paths of each of ``_READ_MARKS``, the mark taken off, in one pass (a
    plan's paths are hundreds)."""
    found: dict[str, list[str]] = {}
    for path in named:
        if path[:1] in _READ_MARKS:
            found.setdefault(path[:1], []).append(path[1:])
    return found


#: How pip's console script names its interpreter on its second line where the path is too
#: long for a `#!` line (its first is `#!/bin/sh`).
_PIP_EXEC: Final = b"'''exec' "


def script_prefixes(named: tuple[str, ...], roots: list[str]) -> list[tuple[str, bool]]:
    """The environment a plan's program in a ``bin`` folder, named by its path, runs in when
    its ``#!`` line names its interpreter by a path (pip's console scripts: ``.venv/bin/pytest``
    starts ``#!<project>/.venv/bin/python``, whose site runs each ``.pth`` of the venv's
    ``lib``): ``homefiles.prefixes`` of the interpreter's folder (a virtual environment's
    prefix whole, the ``lib`` its ``pyvenv.cfg`` names), read from each of ``roots`` (the
    call's folder, the project's; s52-greview2 R4); a link to one by another path too
    (``./pytest -> .venv/bin/pytest``: R4b). Only a path with a ``/`` is run by its path: a
    name without one is looked up in ``PATH``, whose entries are absolute (or no command is
    covered: ``environment.environment_doubt``), so the plan's build and settings files'
    names (``Makefile``, ``tests``) are not asked about."""
    found: list[tuple[str, bool]] = []
    for path in named:
        if "/" not in path or path[-1:] == "/" or not (path[:1].isalnum() or path[:1] in "./_"):
            continue
        binned = os.path.basename(os.path.dirname(path)) == "bin"
        for full in dict.fromkeys(path if path[:1] == "/" else os.path.join(r, path)
                                  for r in roots):
            if not binned and not (fs.islink(full) and os.path.basename(os.path.dirname(
                    fs.realpath(full))) == "bin"):
                continue
            try:
                head = fs.read(full, 512)
            except OSError:
                continue
            lines = head[2:].split(b"\n", 2) if head[:2] == b"#!" else [b""]
            line = lines[0].split()
            if lines[1:2] and lines[1].startswith(_PIP_EXEC):  # (pip's, for a long path:
                line = lines[1][8:].replace(b'"', b" ").split()  # `#!/bin/sh`, then this)
            if line and line[0][:1] == b"/":
                found += prefixes([fs.realpath(os.path.dirname(os.fsdecode(line[0])))])
    return found


def bunfig_paths(folders: list[str], home: str, xdg: str) -> list[tuple[str, bool]]:
    """The modules each ``bunfig.toml`` bun may read (in ``folders``: the call's, each above,
    the project's; the user's ``.bunfig.toml`` in the home and ``XDG_CONFIG_HOME``) preloads
    (``startfiles.bunfig_preloads``), each guarded whole: a path (``./pre.js``, read from the
    file's folder) with the extensions node's ``require`` adds, a package's name its folder in
    each ``node_modules`` from the file's folder up. Raises ValueError for one the gate
    cannot read."""
    from .startfiles import bunfig_preloads  # (a plan running bun's alone: s59-hfix)

    found: list[tuple[str, bool]] = []
    files = [os.path.join(f, "bunfig.toml") for f in folders]
    files += [os.path.join(h, ".bunfig.toml") for h in (home, xdg)]
    for path in dict.fromkeys(files):
        base = os.path.dirname(path)
        for spec in bunfig_preloads(path):
            named = required(spec)
            if not named:  # (a package's name, or a file's bun may take it for: both; and
                named = required("./" + spec)  # what a tsconfig maps it to: R2)
                from .tsconfigpaths import mapped_paths  # (loaded for a preload only)
                found += [(p.rstrip("/"), True) for p in [*preload_paths(
                    "-r " + spec, [base]), *mapped_paths(spec, base, folders)]]
            found += [(os.path.normpath(os.path.join(base, n)), True) for n in named]
    return found


#: The folders of a version manager (by its folder in the home, and the variable moving it)
#: holding the toolchains it runs, each of which may be a link (``rustup toolchain link``,
#: ``pyenv``'s ``versions/x -> …``), and whether they are a level further down (nvm's
#: ``versions/node/vX``, asdf's and mise's ``installs/TOOL/VERSION``).
_INSTALLS: Final = ((".rustup", "RUSTUP_HOME", "toolchains", False),
                    (".pyenv", "PYENV_ROOT", "versions", False),
                    (".rbenv", "RBENV_ROOT", "versions", False),
                    (".nvm", "NVM_DIR", "versions", True),
                    (".asdf", "ASDF_DATA_DIR", "installs", True),
                    (os.path.join(".local", "share", "mise"), "MISE_DATA_DIR", "installs", True),
                    (".volta", "VOLTA_HOME", os.path.join("tools", "image"), True))
#: The folders of ``HOME_CODE``'s whose entries are read for links (their own entries; the
#: version managers' toolchains: ``_INSTALLS``), and the folders in them read a level further
#: (aws's aliases, docker's and helm's plugins, gradle's init scripts, gh's extensions).
_DEEPER: Final = frozenset({"cli", "cli-plugins", "init.d", "plugins", "extensions", "hooks"})
#: Walked elsewhere (``guards``: git's, ssh's, Copilot's, sqlite3's), or the folders of programs
#: (``PATH``'s, read for links when on it).
_WALKED: Final = frozenset({".ssh", ".copilot", os.path.join(".config", "sqlite3")})


def _deeper(depth: int, name: str, _top: str) -> bool:
    return depth == 0 and name in _DEEPER


def _one_deeper(depth: int, _name: str, _top: str) -> bool:
    return depth == 0


def _no_deeper(_depth: int, _name: str, _top: str) -> bool:
    return False


_TREES: Final = tuple(name for name, tree in HOME_CODE if tree and name not in _WALKED)


def home_links(home: str) -> list[tuple[str, bool]]:
    """The targets of the links in ``HOME_CODE``'s folders (their entries, and ``_DEEPER``'s)
    and in the version managers' toolchain folders, each guarded whole (reviews s47 R1, R2).
    Deeper links (a plugin's own files) are the rule's residual (docs/decisions.md)."""
    path = os.environ.get("PATH", "").split(":")
    listed: dict[str, set[str]] = {}  # (each folder on the way listed once)
    items: list[tuple[str, bool]] = []
    for name in _TREES:
        if _there(home, name, listed) and home + "/" + name not in path:
            items += linked.walked([home + "/" + name], _deeper, named=False)
    for name, variable, installs, deeper in _INSTALLS:
        root = os.environ.get(variable) or (os.path.join(home, name)
                                            if _there(home, name, listed) else "")
        if root:
            items += linked.walked([os.path.join(root, installs)],
                                   _one_deeper if deeper else _no_deeper, named=False)
    return items


def _there(home: str, name: str, listed: dict[str, set[str]]) -> bool:
    """Whether the home's ``name`` (``.kube``, ``.config/gh``) is there as a folder or a link,
    each folder on the way listed once into ``listed``."""
    folder = home
    for part in name.split("/"):
        if folder not in listed:
            listed[folder] = {n for n, kind in linked.entries(folder) if kind != "file"}
        if part not in listed[folder]:
            return False
        folder += "/" + part
    return True


#: The node package managers' settings files read for the paths their values name: npm's,
#: yarn 1's (`yarn-path`), yarn's (`yarnPath`, plugins' `path`: review s48-greview2 Y1).
_NODE_SETTINGS: Final = (".npmrc", ".yarnrc", ".yarnrc.yml", "pnpm-workspace.yaml")  # (pnpm
# 10's settings there: `nodeOptions`, `pnpmfile`, `scriptShell`; s49-gfix's ask)
#: The ``.npmrc`` keys naming no path (registries, scopes' registries, tokens are URLs or
#: secrets; ``named_paths`` reads a URL's host as a path).
_URL: Final = "://"


#: The variables naming the settings files npm reads in the place of the user's and the global
#: one (npm reads ``npm_config_*`` in either case).
_NPM_FILES: Final = ("npm_config_userconfig", "npm_config_globalconfig")


def npmrc_paths(folders: list[str], home: str, given: list[str] | None = None,
                moved: list[str] | None = None) -> list[tuple[str, bool]]:
    """What the values of each ``.npmrc`` npm reads (and yarn's ``.yarnrc``, ``.yarnrc.yml``)
    name (``named_paths``: ``node-options``' ``--require ./x.js``, ``script-shell``, ``git``,
    ``pnpmfile``, ``init-module``, ``yarn-path``, ``yarnPath``, …), relative ones from each of
    ``folders`` and of the folders ``moved`` (relative to each of ``folders``: where the plan's
    programs run, ``npm --prefix sub``, ``-w packages/a``; s49-greview N1), whose own files
    are read too (npm runs a script in its package's folder), guarded whole (review s47 C5b);
    and of the files ``given`` (an entry's ``npm --userconfig FILE``), ``npm_config_userconfig``
    (``…_globalconfig``) or a read file's ``userconfig``/``globalconfig`` key names, from each
    of ``folders`` (s48-greview2 C5, N1). Raises ValueError for one that cannot be read."""
    bases = list(dict.fromkeys([*folders, *(os.path.normpath(os.path.join(f, m))
                                            for m in moved or () for f in folders)]))
    files = [os.path.join(f, n) for f in (*bases, home) for n in _NODE_SETTINGS]
    files += [path for path, tree in npm_global(home) if not tree]
    given = [*(given or ()), *(v for k, v in os.environ.items()
                               if v and k.lower() in _NPM_FILES)]  # (the entry's, the session's)
    told = [os.path.join(f, os.path.expanduser(g)) for g in given for f in folders]
    files += told
    npm = set(told)  # (npm's own ini files, whatever their names: s51-greview G19)
    found: dict[str, bool] = {}
    read: set[str] = set()
    while files:
        path = files.pop(0)
        if path in read or len(read) > _MAX_NPMRC:
            continue
        read.add(path)
        for key, value in _values(path, path in npm):
            if key in ("userconfig", "globalconfig"):  # (a file npm reads next: N1)
                more = [os.path.join(f, os.path.expanduser(value)) for f in folders]
                files += more
                npm.update(more)
            if key == "node-options":  # (a preload by a package's name, through a link
                found.update(dict.fromkeys(  # in node_modules: s52-greview2 R8b)
                    (p.rstrip("/") for p in preload_paths(value, bases)), True))
            for named in named_paths(value):
                named = os.path.expanduser(named)
                for full in [named] if named[:1] == "/" else [os.path.join(f, named)
                                                              for f in bases]:
                    found[os.path.normpath(full)] = True
    return list(found.items())


#: The settings files ``npmrc_paths`` reads at most (the ones a key names included).
_MAX_NPMRC: Final = 256


def _values(path: str, npm: bool = False) -> list[tuple[str, str]]:
    """The keys and values of the ini file ``path`` npm reads (``key = value``; ``;`` and
    ``#`` comments: an ``…npmrc`` or, ``npm``, any file npm is told to read), yarn's (by its
    name), but URLs; none when it is not there."""
    text = _text(path, 1 << 20, "the files it names")
    if text is None:
        return []
    lines = [line.strip().removeprefix("- ") for line in text.splitlines()
             if line.lstrip()[:1] not in (";", "#", "[", "")]
    ini = npm or path.endswith("npmrc")
    pairs = [line.partition("=")[::2] if ini else  # (`key=value`;
             line.partition(":")[::2] if path.endswith((".yml", ".yaml")) else  # `key: v`;
             (*line.split(None, 1), "")[:2] for line in lines]  # `.yarnrc`: `key "value"`)
    read = _ini_value if ini else str.strip
    return [(k.strip(), " ".join(w for w in dict.fromkeys([*read(v).split(), *v.split()])
                                 if _URL not in w)) for k, v in pairs]  # (both readings)


def _ini_value(text: str) -> str:
    """An ``.npmrc`` value as npm's ``ini`` reads it (its ``unsafe``): a quoted one whole, else
    up to a ``;`` or ``#`` not escaped by a backslash (an inline comment: s49-greview N2)."""
    text = text.strip()
    if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    out: list[str] = []
    escaped = False
    for char in text:
        if escaped:
            out.append(char if char in "\\;#" else "\\" + char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in ";#":
            break
        else:
            out.append(char)
    return "".join(out).strip()


def cmake_prefixes(folders: list[str], home: str, bins: list[str]) -> list[tuple[str, bool]]:
    """The prefixes cmake's ``find_package`` searches that ``PATH`` makes (its folders
    ``bins``, as real paths: each, or its parent for ``…/bin``, ``…/sbin``; review s47 M2),
    whole; where one is the home or holds a folder a call runs in, its folders cmake reads
    packages from (``share``, ``lib*``, ``cmake``). The system's are guarded where writable
    (``SYSTEM_TREES``); ``CMAKE_PREFIX_PATH`` and ``<Package>_DIR`` as every session
    variable's paths (``envpaths``)."""
    items: list[tuple[str, bool]] = []
    inside = [os.path.normpath(f) + "/" for f in (*folders, home) if f]
    system = (*SYSTEM_BINS, *(t + "/" for t in SYSTEM_TREES))
    for entry in dict.fromkeys(bins):
        prefix = os.path.dirname(entry) if os.path.basename(entry) in ("bin", "sbin") else entry
        if (prefix + "/").startswith(system):
            continue
        if any(f.startswith(prefix.rstrip("/") + "/") for f in inside):
            items += [(os.path.join(prefix, n), True) for n in _PACKAGE_FOLDERS]
        else:
            items.append((prefix, True))
    return items


#: A prefix's folders cmake's ``find_package`` reads a package's configuration from.
_PACKAGE_FOLDERS: Final = ("share", "lib", "lib32", "lib64", "libx32", "cmake", "CMake")


def _text(path: str, limit: int, read_for: str) -> str | None:
    """The text of the settings file ``path`` (up to ``limit`` bytes); None when it is not
    there. Raises ValueError, saying it was read for ``read_for``, when it cannot be read."""
    try:
        return fs.read(path, limit).decode()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, ValueError) as e:
        raise ValueError(f"{path!r} cannot be read for {read_for}: {e}") from e
