"""The folders beside the run folders that a collecting plan's test runners read tests from
(issue 29, review s53-greview2 T6, T11, T12).

``Guarded.collected`` holds the folders the plan's programs run in; a runner also collects
in a folder its operand names (``node --test ../ext/``: the plan names it, and guards it
whole), one its settings name (bun's ``bunfig.toml`` ``[test] root``, pytest's
``testpaths``), one a ``package.json`` script's words name (``"test": "node --test
../ext/"``). A link there leads the runner to a file anywhere (``../ext/test/o ->
../../other``): ``testlinks`` walks these folders too, and a path met below one (the file
itself, or through a link) is read as the runner's. Only folders outside the run folders
count (one below them is walked already); they are read from the run folders' settings
files, which the plan guards (a session cannot change them), once a guarded set.
"""

from __future__ import annotations

import os
import re

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The guarded set the roots were read for (by identity), and its roots.
_LAST: list[tuple[object, tuple[str, ...]]] = []
#: A settings file read at most this far (a settings file is small).
_LIMIT: Final = 1 << 20
#: pytest's settings files, each with the section holding ``testpaths`` (pytest 9's order).
_PYTEST: Final = (("pytest.toml", "pytest"), (".pytest.toml", "pytest"),
                  ("pytest.ini", "pytest"), (".pytest.ini", "pytest"),
                  ("pyproject.toml", "tool.pytest.ini_options"),
                  ("pyproject.toml", "tool.pytest"), ("tox.ini", "pytest"),
                  ("setup.cfg", "tool:pytest"))
#: A script's word leading out of its folder or from the top (``../ext/``, ``/srv/t``).
_OUTSIDE: Final = re.compile(r"""(?:^|[\s=:'"])((?:\.\./|/)[^\s'";&|<>()]*)""")


def runner_roots(guards: object, runs: tuple[str, ...]) -> tuple[str, ...]:
    """The real folders, none at or below one of the real folders ``runs`` (the walk's own
    roots), that a runner of the collecting plan of ``guards`` reads tests from (see the
    module's text); () where the plan collects none."""
    if _LAST and _LAST[0][0] is guards:
        return _LAST[0][1]
    found: dict[str, None] = {}
    if getattr(guards, "collected", None):
        from .nested import planned_of

        inside = tuple(r.rstrip("/") + "/" for r in runs)
        named = [p for p in planned_of(guards) if not (p + "/").startswith(inside)]
        found.update(dict.fromkeys(p for p in named if fs.is_folder(p)))
        for run in runs:
            for folder in _settings_roots(run):
                real = fs.realpath(folder)
                if not (real + "/").startswith(inside) and fs.is_folder(real):
                    found[real] = None
    roots = tuple(found)
    _LAST[:] = [(guards, roots)]
    return roots


def _settings_roots(folder: str) -> list[str]:
    """The folders ``folder``'s settings name for a runner: bunfig's ``[test] root``,
    pytest's ``testpaths`` (a pattern's folder before it), each word of a ``package.json``
    script leading out of ``folder``."""
    found: list[str] = []
    test = _toml(os.path.join(folder, "bunfig.toml")).get("test")
    root = test.get("root") if isinstance(test, dict) else None
    found += [root] if isinstance(root, str) else []
    for name, section in _PYTEST:
        paths = _testpaths(os.path.join(folder, name), section)
        if paths is not None:
            found += paths
            break
    found += _script_words(os.path.join(folder, "package.json"))
    return [os.path.normpath(os.path.join(folder, _before_pattern(p))) for p in found if p]


def _before_pattern(path: str) -> str:
    """``path`` up to the folder before its first pattern character (``../t*/x``: ``..``)."""
    at = next((k for k, c in enumerate(path) if c in "*?["), None)
    return path if at is None else path[:at].rpartition("/")[0] or "."


def _text(path: str) -> str | None:
    """The text of the file at ``path``; None where there is none."""
    try:
        return fs.read(path, _LIMIT).decode("utf-8", "replace")
    except (OSError, ValueError):
        return None


def _toml(path: str) -> dict[str, object]:
    """The TOML file at ``path`` read; {} where it is not there or not read."""
    text = _text(path)
    if text is None:
        return {}
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


def _testpaths(path: str, section: str) -> list[str] | None:
    """pytest's ``testpaths`` in ``section`` of the settings file at ``path`` ([] where the
    section holds none); None where the file or the section is not there (pytest reads the
    next file)."""
    if path.endswith(".toml"):
        table: object = _toml(path)
        for part in section.split("."):
            table = table.get(part) if isinstance(table, dict) else None
        if not isinstance(table, dict):
            return None
        value = table.get("testpaths", [])
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else \
            value.split() if isinstance(value, str) else []
    text = _text(path)
    if text is None:
        return None
    import configparser

    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    if not parser.has_section(section):
        return None
    return parser.get(section, "testpaths", fallback="").split()


def _script_words(path: str) -> list[str]:
    """The words of the scripts of the ``package.json`` at ``path`` leading out of its folder
    (``../ext/``) or from the top (``/srv/t``)."""
    text = _text(path)
    if text is None or "scripts" not in text:
        return []
    import json

    try:
        scripts = json.loads(text).get("scripts")
    except (ValueError, AttributeError):
        return []
    if not isinstance(scripts, dict):
        return []
    return [m.group(1) for v in scripts.values() if isinstance(v, str)
            for m in _OUTSIDE.finditer(v)]
