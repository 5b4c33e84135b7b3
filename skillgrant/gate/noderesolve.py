"""Where node finds a module a preload names by a package's name (``node -r pre``, ``--import
pre``, ``NODE_OPTIONS='-r dotenv/config'``, npm's ``node-options``, a bunfig's ``preload``):
the paths to guard whole so that no covered write changes what it loads (review s51-greview
G8).

node 20 resolves a bare name ``pre`` (``pre/sub``, ``@s/pre/sub``) from the folder it runs in
(``require.resolve``'s "Modules: CommonJS" LOAD_PACKAGE_SELF then LOAD_NODE_MODULES; the ES
resolver's PACKAGE_SELF_RESOLVE then the same walk): first the project's own package by its
name (the nearest ``package.json``'s ``name`` and ``exports``), then ``node_modules/pre`` in
the folder and each one up, through any link there (npm's workspaces link
``node_modules/pre -> ../pkgs/pre``), by the package's ``exports`` or its ``main`` (which may
lead out of its folder: ``"main": "../../lib/m.js"``) or its ``index.js``. What this gives:

- each ``node_modules/<name>`` up (with node's extensions, its ``index`` files, the folder
  whole); ``guards`` guards an item as its real path, so a link's target is the one guarded;
- each path its ``package.json``'s ``main`` names, and each its ``exports`` maps the
  preload's subpath to (all conditions: ``require``, ``import``, ``default``, …);
- each ``package.json`` from the folder up to the nearest one (a closer one would change the
  package the folder is in), and where that one's ``name`` is the preload's, each path its
  ``exports`` maps the subpath to;
- require's global folder ``$PREFIX/lib/node`` beside each node on ``PATH``, whole.

Refused (ValueError, naming why): a ``package.json`` the gate cannot read as JSON, an
``#import`` specifier (the package's ``imports`` may name other packages), a ``main``
leading to a folder a call runs in or above one (it cannot be guarded whole). The code the
preloaded module itself loads (its ``require``s) is the rule's residual, as a script's own
imports are (docs/call-gate.md).
"""

from __future__ import annotations

import os

from . import files as fs
from .named import above

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Any, Final

#: The extensions node's ``require`` adds to a file's name, and its ``index`` files.
_EXTENSIONS: Final = (".js", ".json", ".node", ".cjs", ".mjs")
_INDEX: Final = tuple("index" + e for e in _EXTENSIONS)
#: The most of a ``package.json`` read (a larger one is refused).
_LIMIT: Final = 1 << 20


def package_paths(spec: str, roots: list[str]) -> list[str]:
    """The paths to guard whole (see the module's text) for the module ``spec`` (``pre``,
    ``pre/sub``, ``@s/pre``) a preload names, node running in each of ``roots`` (absolute).
    Raises ValueError where what it loads cannot be known."""
    if spec[:1] == "#":
        raise ValueError(f"a preload names {spec!r}, a package's own import, which may name "
                         "other packages: what node loads for it is not known")
    parts = spec.split("/")
    cut = 2 if spec[:1] == "@" else 1
    name, sub = "/".join(parts[:cut]), "/".join(parts[cut:])
    found: list[str] = []
    for root in roots:
        folders = [root, *above(root)]
        found += _self_paths(name, sub, folders)
        for folder in folders:
            package = os.path.join(folder, "node_modules", name)
            found += [package + "/", *_file_paths(os.path.join(package, sub) if sub else
                                                   package), *_package_paths(package, sub, folders)]
    return list(dict.fromkeys([*found, *_global_folders()]))


def folder_paths(folder: str, folders: list[str]) -> list[str]:
    """What node's require may load for a preload naming the folder ``folder`` by its path
    (LOAD_AS_DIRECTORY; ``folders``: where node runs, and each up): its ``package.json``'s
    ``main``, which may lead out of it (s52-greview2 R12). Raises ValueError where that is
    not known."""
    settings = _settings(os.path.join(folder, "package.json"))
    main = settings.get("main") if settings else None
    if not isinstance(main, str) or not main:
        return []
    target = os.path.normpath(os.path.join(folder, main))
    return _file_paths(outside(target, folders, f"{folder}/package.json's main"))


def _global_folders() -> list[str]:
    """require's last folders but the home's (``homefiles`` guards ``~/.node_modules``,
    ``~/.node_libraries``): ``$PREFIX/lib/node``, ``PREFIX`` the folder above the one holding
    node's executable as the system names it (a link's target; a hard link's own path), for
    each node on ``PATH`` (s52-greview2 R5)."""
    found: list[str] = []
    for folder in os.environ.get("PATH", "").split(":"):
        node = os.path.join(folder or ".", "node")
        if folder and fs.entry(node) is not None:
            found.append(os.path.join(os.path.dirname(os.path.dirname(fs.realpath(node))),
                                      "lib", "node") + "/")
    return found


def _file_paths(path: str) -> list[str]:
    """What node may load for the file or folder ``path``: ``path`` with each extension node
    adds, its ``index`` files (each may be a link leading out), and the folder whole."""
    return [path, *(path + e for e in _EXTENSIONS), *(os.path.join(path, i) for i in _INDEX),
            path.rstrip("/") + "/"]


def _self_paths(name: str, sub: str, folders: list[str]) -> list[str]:
    """Each ``package.json`` from ``folders[0]`` up to the nearest there is, and what that
    one's ``exports`` maps ``sub`` to where its ``name`` is ``name`` (a package's reference
    to itself)."""
    found: list[str] = []
    for folder in folders:
        path = os.path.join(folder, "package.json")
        found.append(path)
        settings = _settings(path)
        if settings is None:
            continue
        if settings.get("name") == name and "exports" in settings:
            found += [outside(p, folders, f"{path}'s exports") for p in
                      _exported(folder, settings["exports"], sub)]
        break
    return found


def _package_paths(package: str, sub: str, folders: list[str]) -> list[str]:
    """What the ``package.json`` of ``package`` (a folder in ``node_modules``) leads node to
    for ``sub``, outside the folder too: its ``exports``' targets, its ``main`` (for a
    subpath, the ``main`` of its folder's own ``package.json``)."""
    settings = _settings(os.path.join(package, "package.json"))
    found = [outside(p, folders, f"{package}/package.json's exports") for p in _exported(
        package, settings["exports"], sub)] if settings and "exports" in settings else []
    folder = os.path.join(package, sub) if sub else package  # (LOAD_AS_DIRECTORY's: a
    inner = _settings(os.path.join(folder, "package.json")) if sub else settings  # subpath's
    main = inner.get("main") if inner else None  # folder's own main too: s52-greview2 R1e)
    if isinstance(main, str) and main:
        target = os.path.normpath(os.path.join(folder, main))
        found += _file_paths(outside(target, folders, f"{folder}/package.json's main"))
    return found


def outside(path: str, folders: list[str], what: str) -> str:
    """``path``; ValueError where its real path is one of ``folders`` (where node runs, and
    each folder up) or above one: it cannot be guarded whole."""
    real = fs.realpath(path)
    if any(real == f or f.startswith(real.rstrip("/") + "/") for f in folders):
        raise ValueError(f"{what} leads to {real}, a folder node runs in or above it, which "
                         "cannot be guarded whole: what node loads there is not known")
    return path


def _settings(path: str) -> dict[str, Any] | None:
    """The ``package.json`` at ``path`` as an object, or None where there is none. Raises
    ValueError for one the gate cannot read (node refuses to load through it too)."""
    import json

    try:
        text = fs.read(path, _LIMIT)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        raise ValueError(f"{path!r} cannot be read ({e}): what node loads through it is "
                         "not known") from e
    try:
        settings = json.loads(text)
    except ValueError as e:  # (UnicodeDecodeError too)
        raise ValueError(f"{path!r} is not JSON the gate reads: what node loads through it "
                         "is not known") from e
    if not isinstance(settings, dict) or len(text) >= _LIMIT:
        raise ValueError(f"{path!r} is not a package's settings the gate reads: what node "
                         "loads through it is not known")
    return settings


def _exported(folder: str, exports: Any, sub: str) -> list[str]:
    """The paths the ``exports`` of the package in ``folder`` map the subpath ``sub`` to
    (node's PACKAGE_EXPORTS_RESOLVE: the subpath's own key, else each pattern ``./x/*`` it
    matches, its ``*`` replaced; every condition's target, and each fallback of a list)."""
    subpath = "./" + sub if sub else "."
    if not isinstance(exports, dict) or not any(str(k)[:1] == "." for k in exports):
        exports = {".": exports}  # (a string, a list, conditions: the package's `.`)
    targets: list[str] = []
    if subpath in exports:
        targets = fs.json_strings(exports[subpath])
    for key, value in exports.items():
        star = key.find("*")
        if star >= 0 and key.count("*") == 1:
            head, tail = key[:star], key[star + 1:]
            if subpath.startswith(head) and subpath.endswith(tail) and \
                    len(subpath) >= len(key):
                match = subpath[len(head):len(subpath) - len(tail)]
                targets += [t.replace("*", match) for t in fs.json_strings(value)]
        elif key.endswith("/") and subpath.startswith(key):  # (a folder's: before node 17)
            targets += [t + subpath[len(key):] for t in fs.json_strings(value)]
    return [os.path.normpath(os.path.join(folder, p)) for t in targets for p in _as_url(t)]


def _as_url(target: str) -> list[str]:
    """The export target ``target`` as written, and as the path of the URL node resolves it to
    (its ``?query`` and ``#fragment`` dropped, its ``%XX`` decoded: ``./lib/x.js?q``,
    ``./lib/x%2ejs`` load ``lib/x.js``; s52-greview2 R1f)."""
    path = target.split("#", 1)[0].split("?", 1)[0]
    if "%" in path:
        from urllib.parse import unquote

        path = unquote(path)
    return list(dict.fromkeys((target, path))) if path else [target]
