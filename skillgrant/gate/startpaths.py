"""What the plan's programs read at their start that no rule named before (session 48): the
paths a project's or the user's ``.npmrc`` names (``node-options=--require ./tools/x.js``:
review s47 C5b), cmake's package search prefixes (M2), and where the links inside the home's
guarded folders lead (a toolchain a version manager links to: R1; a dotfiles manager's
``~/.kube/config -> ~/dotfiles/kubeconfig``: R2), and the plugins a Python checker's settings
name (``plugin_paths``). Each is guarded whole."""

from __future__ import annotations

import os

from . import files as fs
from . import linked
from .envpaths import named_paths, session_paths
from .homefiles import HOME_CODE, SYSTEM_BINS, SYSTEM_TREES, npm_global
from .planpaths import SETTINGS, module_files
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
    moved = [p[1:] for p in named if p[:1] == RUNS_IN] + [
        os.path.dirname(p) for p in named if p[-7:] == "/.npmrc" and p[:1] != "^"]
    if "^.npmrc" in named:  # (a node runner, or a runner of any program, in the plan)
        items += npmrc_paths(folders, home, [p[1:] for p in named if p[:1] == NPMRC], moved)
    if moved:  # a session value's relative path, read where the plan's program runs (E3)
        bases = [os.path.normpath(os.path.join(f, m)) for m in dict.fromkeys(moved)
                 for f in folders]
        items += session_paths(bases, [*folders, home, *bases])
    if "CMakeLists.txt" in named:
        items += cmake_prefixes(folders, home, bins)
    plugged = [p[1:] for p in named if p[:1] == SETTINGS]
    if plugged:  # (a Python checker, or a runner of any program)
        items += plugin_paths(plugged, folders, home)
    return items


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
_NODE_SETTINGS: Final = (".npmrc", ".yarnrc", ".yarnrc.yml")
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
    files += [os.path.join(f, os.path.expanduser(g)) for g in given for f in folders]
    found: dict[str, bool] = {}
    read: set[str] = set()
    while files:
        path = files.pop(0)
        if path in read or len(read) > _MAX_NPMRC:
            continue
        read.add(path)
        for key, value in _values(path):
            if key in ("userconfig", "globalconfig"):  # (a file npm reads next: N1)
                files += [os.path.join(f, os.path.expanduser(value)) for f in folders]
            for named in named_paths(value):
                named = os.path.expanduser(named)
                for full in [named] if named[:1] == "/" else [os.path.join(f, named)
                                                              for f in bases]:
                    found[os.path.normpath(full)] = True
    return list(found.items())


#: The settings files ``npmrc_paths`` reads at most (the ones a key names included).
_MAX_NPMRC: Final = 256


def _values(path: str) -> list[tuple[str, str]]:
    """The keys and values of the ini file ``path`` npm reads (``key = value``; ``;`` and
    ``#`` comments), but URLs; none when it is not there."""
    text = _text(path, 1 << 20, "the files it names")
    if text is None:
        return []
    lines = [line.strip().removeprefix("- ") for line in text.splitlines()
             if line.lstrip()[:1] not in (";", "#", "[", "")]
    pairs = [line.partition("=")[::2] if path.endswith("npmrc") else  # (`key=value`;
             line.partition(":")[::2] if path.endswith(".yml") else  # `key: value`;
             (*line.split(None, 1), "")[:2] for line in lines]  # `.yarnrc`: `key "value"`)
    read = _ini_value if path.endswith("npmrc") else str.strip
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


# --- the plugins a Python checker's settings name -------------------------------------------

# The plugins a Python checker's settings name (session 48, review s44 W3's pyproject.toml
# row): ``mypy src`` imports the ``plugins`` its ``mypy.ini``, ``pyproject.toml`` or
# ``setup.cfg`` names, pylint its ``load-plugins`` (and runs its ``init-hook``), flake8 its
# ``[flake8:local-plugins]``, ``coverage report`` its ``[run] plugins``: code the plan did not
# grant, run by a program that runs none of the project's otherwise. Under a plan running one
# (``planprograms`` marks it ``&NAME``; ``&*`` under a runner of any program), each module or
# path those settings name is guarded whole, read from the settings file's folder and each
# folder a call runs in; for a checker the plan names itself, its settings files are guarded
# beyond the plan's own Edit grant too (``nested.only_planned``: they are not the plan's
# programs' alone). A settings file that cannot be read denies.

#: Each checker's settings files (in each folder from the call's up, and the user's), with the
#: sections and keys naming its plugins: (file, sections, keys); ``pyproject.toml``'s tables
#: as dotted sections.
SETTINGS_FILES: Final = {
    "mypy": tuple((name, ("mypy", "tool.mypy"), ("plugins",)) for name in (
        "mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg",
        os.path.join("~", ".config", "mypy", "config"), os.path.join("~", ".mypy.ini"))),
    "pylint": tuple((name, tuple(f"{top}{s}" for top in ("", "pylint.", "tool.pylint.")
                                  for s in ("main", "MAIN", "master", "MASTER")),
                     ("load-plugins", "init-hook"))
                    for name in ("pylintrc", ".pylintrc", "pylintrc.toml", ".pylintrc.toml",
                                 "pyproject.toml", "setup.cfg", "tox.ini",
                                 os.path.join("~", ".pylintrc"),
                                 os.path.join("~", ".config", "pylintrc"))),
    "flake8": tuple((name, ("flake8:local-plugins",), ("extension", "report", "paths"))
                    for name in ("setup.cfg", "tox.ini", ".flake8")),
    "coverage": tuple((name, ("run", "coverage:run", "tool.coverage.run"), ("plugins",))
                      for name in (".coveragerc", "setup.cfg", "tox.ini", "pyproject.toml")),
    # pytest's `addopts` (`-p tools.plug`: a plugin module it imports)
    "pytest": tuple((name, ("pytest", "tool.pytest.ini_options", "tool.pytest", "tool:pytest"),
                     ("addopts",)) for name in (
        "pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini", "pyproject.toml",
        "tox.ini", "setup.cfg"))}
SETTINGS_FILES["dmypy"] = SETTINGS_FILES["mypy"]
#: Of them, those running the project's code anyway (its tests): their settings files stay
#: the plan's programs' alone (``Edit(./**)`` beside ``Bash(pytest tests)``: review s45).
_RUNS_CODE: Final = frozenset({"pytest"})


#: ``SETTINGS_FILES`` by file name: (the checker, its sections, its keys).
_BY_NAME: Final[dict[str, list[tuple[str, tuple[str, ...], tuple[str, ...]]]]] = {}
for _kind, _files in SETTINGS_FILES.items():
    for _name, _sections, _keys in _files:
        _BY_NAME.setdefault(_name, []).append((_kind, _sections, _keys))


def plugin_paths(kinds: list[str], folders: list[str],
                 home: str) -> list[tuple[str, bool]]:
    """The items above for the checkers ``kinds`` (``*``: every one, their plugins only), the
    folders a call runs in ``folders`` (the call's, each above, the project's) and ``home``."""
    wanted = set(SETTINGS_FILES) if "*" in kinds else set(kinds)
    found = dict.fromkeys((os.path.join(f, name) for kind in kinds if kind in SETTINGS_FILES
                           and kind not in _RUNS_CODE for name, _, _ in SETTINGS_FILES[kind]
                           if name[:2] != "~/" for f in folders), True)  # (its Edit grant)
    places = [(os.path.join(f, name), name) for f in dict.fromkeys(folders)
              for name, _ in linked.entries(f) if name in _BY_NAME]  # (one listing each)
    places += [(os.path.join(home, name[2:]), name) for name in _BY_NAME if name[:2] == "~/"]
    for path, name in places:
        text = _text(path, 1 << 22, "the plugins it names") or ""
        for kind, sections, keys in _BY_NAME[name] if text else ():
            for key, value in _settings(path, text, sections, keys) if kind in wanted else ():
                value = _plugin_options(value) if key == "addopts" else value
                found.update(dict.fromkeys(_named(value, os.path.dirname(path), folders), True))
    return list(found.items())


def _plugin_options(value: str) -> str:
    """The plugins pytest's ``addopts`` loads (``-p NAME``, ``-pNAME``; not ``-p no:NAME``)."""
    words = value.split()
    found = [w[2:] or (words[at + 1] if at + 1 < len(words) else "")
             for at, w in enumerate(words) if w[:2] == "-p"]
    return " ".join(w for w in found if not w.startswith("no:"))


def _named(value: str, here: str, folders: list[str]) -> list[str]:
    """The paths a plugin setting's ``value`` names: each path (a word holding ``/`` or
    ending in ``.py``) from ``here``, the settings file's folder; each module name
    (``pkg.plugin``, flake8's ``X = pkg.mod:Class``), its files in ``here`` and each of
    ``folders``; an ``init-hook``'s quoted strings as folders, whole."""
    found: list[str] = []
    for quoted in value.split("'")[1::2] + value.split('"')[1::2]:
        found += [os.path.join(here, quoted), *(os.path.join(f, quoted) for f in folders)]
    for word in value.replace(",", " ").replace("=", " ").replace("\n", " ").split():
        word = word.strip("'\"[]();").split(":", 1)[0]
        if not word:
            continue
        if "/" in word or word.endswith(".py") or word in (".", ".."):
            path = os.path.join(here, os.path.expanduser(word))  # (and the package or
            found += [path, *(os.path.join(os.path.dirname(path), m) for m in module_files(
                os.path.basename(path).removesuffix(".py")))]  # extension of its name: W1)
        elif word.replace(".", "").replace("_", "").isalnum():
            found += [os.path.join(f, m) for f in (here, *folders) for m in module_files(word)]
    return [os.path.normpath(p) for p in found if os.path.normpath(p) not in folders]


def _text(path: str, limit: int, read_for: str) -> str | None:
    """The text of the settings file ``path`` (up to ``limit`` bytes); None when it is not
    there. Raises ValueError, saying it was read for ``read_for``, when it cannot be read."""
    try:
        return fs.read(path, limit).decode()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, ValueError) as e:
        raise ValueError(f"{path!r} cannot be read for {read_for}: {e}") from e


def _settings(path: str, text: str, sections: tuple[str, ...],
              keys: tuple[str, ...]) -> list[tuple[str, str]]:
    """The values of ``keys`` in each of ``sections`` of the settings file ``path`` holding ``text``
    (ini, or TOML for a name ending in ``.toml``, a list's items joined). Raises ValueError
    when it cannot be read."""
    if not any(key in text for key in keys):
        return []
    try:
        return [found for section in sections for found in (
            _toml(text, section, keys) if path.endswith(".toml") else _ini(text, section, keys))]
    except ValueError as e:
        raise ValueError(f"{path!r} cannot be read for the plugins it names: {e}") from e


def _toml(text: str, section: str, keys: tuple[str, ...]) -> list[tuple[str, str]]:
    import tomllib

    table: object = tomllib.loads(text)
    for part in section.split("."):
        table = table.get(part, {}) if isinstance(table, dict) else {}
    if not isinstance(table, dict):
        return []
    values = [(key, table.get(key)) for key in keys if key in table]
    return [(k, " ".join(map(str, v)) if isinstance(v, list) else str(v)) for k, v in values]


def _ini(text: str, section: str, keys: tuple[str, ...]) -> list[tuple[str, str]]:
    import configparser

    parser = configparser.ConfigParser(strict=False, interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error as e:
        raise ValueError(str(e)) from e
    if not parser.has_section(section):
        return []
    return [(key, parser.get(section, key)) for key in keys if parser.has_option(section, key)]
