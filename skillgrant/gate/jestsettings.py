"""What jest's settings make it run besides the test names ``testfiles`` reads (issue 29,
review s54-greview2 A7). jest 29 takes its settings from ``package.json``'s ``"jest"`` or a
``jest.config.*`` file in the folder it runs in (its ``rootDir``); the literal JSON ones are
read here (``package.json``, ``jest.config.json``), from each folder the plan's programs
collect tests in:

- ``testMatch`` (globs) and ``testRegex``: each file they match there is a test it runs;
- the files its settings name as code (``setupFiles``, ``setupFilesAfterEnv``,
  ``globalSetup``, ``testEnvironment``, ``transform``, ``reporters``, ``moduleNameMapper``,
  ``haste``…): each path (``<rootDir>/…``, ``./…``, ``../…``, absolute, or holding a ``/``),
  with a script's endings added to one that has none, is one (``node_modules`` is guarded
  whole already); a ``preset``'s JSON is read as these settings;
- ``moduleDirectories`` (a folder name searched from each folder up, as ``node_modules``),
  ``modulePaths`` and ``roots``: every file below such a folder is one (a module a test
  requires may resolve there).

A package's mock (``__mocks__/chalk.js``) in any of its ``roots`` is ``testfiles``' (a
script below a ``__mocks__`` folder: every root). A ``jest.config.js``/``.ts``/``.mjs`` is
code (guarded as jest's start file); what it names is not read (residual, docs/decisions.md).
Read once for a guarded set; a settings file that cannot be read, or is no JSON, denies the
write (ValueError)."""

from __future__ import annotations

import json
import os
import re

from . import files as fs
from .placed import fold

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: jest 29's settings naming a module or file it loads as code.
_CODE: Final = frozenset((
    "setupFiles", "setupFilesAfterEnv", "globalSetup", "globalTeardown", "testEnvironment",
    "testRunner", "testSequencer", "snapshotResolver", "resolver", "reporters", "transform",
    "moduleNameMapper", "watchPlugins", "runner", "dependencyExtractor",
    "testResultsProcessor", "snapshotSerializers", "prettierPath", "preset", "projects",
    "haste"))
#: The endings node (and jest's resolver) tries for a path without one.
_ENDINGS: Final = ("", ".js", ".cjs", ".mjs", ".jsx", ".ts", ".tsx", ".json", ".node",
                   "/index.js", "/index.ts", "/index.json")
#: The guarded set last read, and each collecting folder's reading: (paths, patterns).
_LAST: list[tuple[object, dict[str, tuple[frozenset[str], tuple[re.Pattern[str], ...]]]]] = []


def widened(key: str, folders: frozenset[str], guards: object) -> bool:
    """Whether the folded real path ``key`` below one of the collecting ``folders`` (of
    ``guards``) is a file jest's settings there name or match (see the module's text)."""
    for folder in folders:
        if key.startswith(folder + "/"):
            paths, patterns = _reading(folder, guards)
            if key in paths or any(p.search(key) for p in patterns):
                return True
    return False


def _reading(folder: str, guards: object) -> tuple[frozenset[str], tuple[re.Pattern[str], ...]]:
    """The paths and patterns of jest's settings in the collecting ``folder``, kept for
    ``guards``."""
    if not _LAST or _LAST[0][0] is not guards:
        _LAST[:] = [(guards, {})]
    kept = _LAST[0][1]
    if folder not in kept:
        from .pytestini import real_folder

        real = real_folder(folder, guards)
        paths: set[str] = set()
        patterns: list[re.Pattern[str]] = []
        found = [_settings(os.path.join(real, n), n == "package.json")
                 for n in ("package.json", "jest.config.json")]
        for settings in found:
            if settings:
                root = os.path.normpath(os.path.join(real, str(settings.get("rootDir", "."))))
                presets = _read(settings, root, paths, patterns)  # (a preset's JSON: its
                found += [_settings(p, False) for p in presets if len(found) < 8]  # own)
        kept[folder] = (frozenset(paths), tuple(patterns))
    return kept[folder]


def _read(settings: dict[str, object], root: str, paths: set[str],
          patterns: list[re.Pattern[str]]) -> list[str]:
    """Adds to ``paths`` and ``patterns`` what jest's ``settings`` (its ``rootDir`` ``root``)
    name (see the module's text); the JSON presets they name."""
    for setting, value in settings.items():
        if setting in _CODE:
            paths |= {fold(p + e) for p in _paths(value, root) for e in _ENDINGS}
        if setting == "testMatch":
            patterns += [_glob(p.replace("<rootDir>", root)) for p in fs.json_strings(value)]
        elif setting == "testRegex":
            patterns += [re.compile(p, re.IGNORECASE) for p in fs.json_strings(value)]
        elif setting == "moduleDirectories":  # (each such folder up, as node_modules)
            patterns += [re.compile(f"/{re.escape(fold(n))}/", re.IGNORECASE)
                         for n in fs.json_strings(value) if n != "node_modules"]
        elif setting in ("modulePaths", "roots"):  # (a folder modules are found in)
            patterns += [re.compile("^" + re.escape(fold(p)) + "/") for p in _paths(
                [v.replace("<rootDir>", root) for v in fs.json_strings(value)], root)]
    return [p for p in _paths(settings.get("preset"), root) if p.endswith(".json")]


def _settings(path: str, nested: bool) -> dict[str, object] | None:
    """jest's settings in the JSON file ``path`` (its ``"jest"`` member when ``nested``);
    None when there is none. Raises ValueError when it cannot be read or is no JSON."""
    try:
        text = fs.read(path, 1 << 22)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    except OSError as e:
        raise ValueError(f"{path!r} cannot be read for the files jest runs: {e}") from e
    if nested and b'"jest"' not in text:
        return None
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ValueError(f"{path!r} is no JSON jest's settings can be read from: {e}") from e
    found = data.get("jest") if nested and isinstance(data, dict) else data
    return found if isinstance(found, dict) else None


def _paths(value: object, root: str) -> list[str]:
    """The paths the strings of ``value`` name (``<rootDir>`` as ``root``, a relative one
    from it)."""
    found = []
    for text in fs.json_strings(value):
        text = text.replace("<rootDir>", root)
        if text[:1] == "/" or text.startswith(("./", "../")) or (
                "/" in text.rstrip("/") and text[:1] != "@"):  # (not a scoped package's)
            found.append(os.path.normpath(os.path.join(root, text)))
    return found


def _glob(pattern: str) -> re.Pattern[str]:
    """micromatch's reading of a glob ``pattern`` (``**``, ``*``, ``?``, ``{a,b}``, a class)
    as a regular expression searched in a folded absolute path (a pattern not starting at
    ``/`` matches at any folder's start)."""
    out, at = [], 0
    while at < len(pattern):
        c = pattern[at]
        if pattern.startswith("**/", at):
            out.append("(?:.*/)?")
            at += 3
            continue
        if pattern.startswith("**", at):
            out.append(".*")
            at += 2
            continue
        out.append("[^/]*" if c == "*" else "[^/]" if c == "?" else "(?:" if c == "{" else
                   ")" if c == "}" else "|" if c == "," else c if c in "[]!" else re.escape(c))
        at += 1
    body = "".join(out).replace("[!", "[^")
    return re.compile(("^" if pattern[:1] == "/" else "(?:^|/)") + body + "$", re.IGNORECASE)
