"""What babel-jest loads from Babel's settings (issue 29; review s60-mreview M19): Babel 7
reads ``babel.config.*`` at its root, ``.babelrc``/``.babelrc.*`` and ``package.json``'s
``babel`` from each compiled file's folder up, and loads each plugin and preset they name.
A plugin or preset named by a package comes from a ``node_modules`` (guarded whole); one named
by a path, an ``extends``, a settings file that is code or not JSON, may be any file:
``jestsettings`` then reads jest's settings as code (failing closed)."""

from __future__ import annotations

import os

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def babel_code(folder: str) -> bool:
    """Whether Babel's settings found from ``folder`` up, or in a folder below it (Babel reads
    each compiled file's folder up; every folder's read, over-strict), may name a file it
    loads as code: a settings file that is code or not JSON, ``extends``, a
    plugin or preset by a path (in ``overrides`` and ``env`` too), a key not read."""
    above = folder
    while True:
        if any(_code(os.path.join(above, n)) for n in _NAMES):
            return True
        if above == os.path.dirname(above):
            break
        above = os.path.dirname(above)
    for path in fs.named_below(folder, _NAMES, ("node_modules", ".git"), _MAX_FOLDERS):
        if path is None or _code(path):  # (each compiled file's folder up: every folder
            return True  # below too, not node_modules; s60-mreview M22; past the bound: code)
    return False


def _code(path: str) -> bool:
    """Whether the Babel settings file ``path`` (if there) may name a file it loads."""
    import json

    name = os.path.basename(path)
    if fs.entry(path) not in ("file", "link"):
        return False
    if not name.endswith(".json") and name not in (".babelrc", "package.json"):
        return True  # (.babelrc.js, babel.config.cjs: code)
    try:
        data = json.loads(fs.read(path, 1 << 20).decode("utf-8", "replace")
                          .removeprefix("\ufeff"))
    except (OSError, ValueError):
        return True  # (JSON5 comments, a YAML .babelrc: not read)
    if name == "package.json":
        data = data.get("babel", {}) if isinstance(data, dict) else None
    return not _data(data)


def _data(settings: object) -> bool:
    """Whether Babel ``settings`` name no file: plugins and presets by package names only."""
    if not isinstance(settings, dict):
        return False
    for key, value in settings.items():
        if key in ("plugins", "presets"):
            if not isinstance(value, list) or not all(_package(v) for v in value):
                return False
        elif key in ("overrides", "env"):
            parts = value if key == "overrides" else list(value.values()) if isinstance(
                value, dict) else None
            if not isinstance(parts, list) or not all(_data(p) for p in parts):
                return False
        elif key not in _DATA:
            return False
    return True


def _package(entry: object) -> bool:
    """Whether a plugin or preset ``entry`` (a name, or ``[name, options]``) names a
    package."""
    name = entry[0] if isinstance(entry, list) and entry else entry
    name = name.removeprefix("module:") if isinstance(name, str) else name  # (M22: Babel
    return isinstance(name, str) and name[:1] not in ("", ".", "/", "~") and ".." not in \
        name.split("/") and "\\" not in name  # resolves what follows `module:` as given)


#: The folders read below a collecting folder at most (past it: code).
_MAX_FOLDERS: Final = 5000
#: Babel's settings files a folder may hold (its ``babel.config.*``, ``.babelrc*``).
_NAMES: Final = ("babel.config.json", "babel.config.js", "babel.config.cjs", "babel.config.mjs",
                 "babel.config.cts", "babel.config.ts", ".babelrc", ".babelrc.json",
                 ".babelrc.js", ".babelrc.cjs", ".babelrc.mjs", ".babelrc.cts", "package.json")
#: Babel's options read as data (its compile options that name no file it loads).
_DATA: Final = frozenset(("sourceType", "targets", "assumptions", "compact", "comments",
                          "retainLines", "minified", "sourceMaps", "auxiliaryCommentBefore",
                          "auxiliaryCommentAfter", "only", "ignore", "test", "include",
                          "exclude", "babelrc", "highlightCode", "browserslistEnv",
                          "parserOpts", "generatorOpts", "moduleIds", "moduleId", "envName"))
