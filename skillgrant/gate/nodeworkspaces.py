"""The workspaces a node runner's workspace option runs (review s44 P3): each one's
``package.json`` and ``node_modules``, read from the folder's ``package.json`` or
``pnpm-workspace.yaml`` (``planprograms.WORKSPACES`` marks the folder; ``guards`` guards
what this returns)."""

from __future__ import annotations

import os

from ..lazy import compile_on_use
from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

_PATTERN: Final = compile_on_use(r"[*?\[{(\\]")  # (minimatch's braces, extglobs: s47 W2)
_YAML_ITEM: Final = compile_on_use(r"\s*-\s*(['\"]?)([^'\"#\s]+)\1\s*")


def workspaces(folder: str) -> list[str]:
    """The paths to guard whole for the workspaces the ``package.json`` in ``folder`` lists
    (``workspaces``, or its ``packages``) and its ``pnpm-workspace.yaml`` (``packages``):
    each one's ``package.json`` and ``node_modules``, the whole folder before a pattern
    (``packages/*``: a new folder there is one); ``folder`` itself when a list cannot be read
    as one (review s44 P3)."""
    listed: list[str] = []
    for name in ("package.json", "pnpm-workspace.yaml"):
        try:
            text = fs.read(os.path.join(folder, name), 1 << 20).decode()
            listed += _json_workspaces(text) if name == "package.json" else \
                _yaml_packages(text)
        except FileNotFoundError:
            continue
        except (OSError, ValueError):  # (UnicodeDecodeError, a form not read here)
            return [folder]
    return [os.path.join(folder, p).rstrip("/") for entry in listed if entry[:1] != "!" for p in (
        _literal(entry) if _PATTERN.search(entry) else
        [os.path.join(entry, "package.json"), os.path.join(entry, "node_modules")])]


def _json_workspaces(text: str) -> list[str]:
    import json

    data = json.loads(text)
    listed = data.get("workspaces", []) if isinstance(data, dict) else []
    listed = listed.get("packages", []) if isinstance(listed, dict) else listed
    if not isinstance(listed, list) or not all(isinstance(e, str) for e in listed):
        raise ValueError("workspaces")
    return listed


def _yaml_packages(text: str) -> list[str]:
    """``packages``'s items in pnpm's file, written as a block list; ValueError otherwise."""
    listed: list[str] = []
    inside = False
    for line in text.splitlines():
        if not line.strip() or line.lstrip()[:1] == "#":
            continue
        if not line[:1].isspace():  # a key of the top level
            inside = line.rstrip() == "packages:"
            if line.startswith("packages") and not inside:
                raise ValueError("packages")
        elif inside:
            item = _YAML_ITEM.fullmatch(line)
            if item is None:
                raise ValueError(line)
            listed.append(item.group(2))
    return listed


def _literal(path: str) -> list[str]:
    """``path``, or when it holds a pattern the folder before it."""
    found = _PATTERN.search(path)
    return [path] if found is None else [path[:found.start()].rsplit("/", 1)[0] + "/"]
