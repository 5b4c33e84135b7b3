"""Which plan each SKILL.md is checked against when ``--plan`` is not given, and the project's
configuration.

The configuration is the first of these found from the working directory up to the
repository's root (the folder holding ``.git``; outside a repository, in the working directory
itself): a ``.skillgrant.toml`` (its top level is the table), or a ``pyproject.toml``
with a ``[tool.skillgrant]`` table. It may hold:

    plans = { "skills/**" = "plans/skills.yaml", ".claude/**" = "approved.yaml" }
    format = "json"                      # check/apply's default --format
    runtime = "claude-code"              # the runtimes for plans found here (not --plan)
    [lint]                               # ([tool.skillgrant.lint] in pyproject.toml)
    select = ["SGL1"]                    # rule IDs or prefixes
    ignore = ["SGL203"]

A file's plan is then, in order: the plan of the first ``plans`` glob its path matches
(relative to the configuration's folder; ``**`` spans folders, ``*`` and ``?`` do not); else
the nearest ``skillgrant-plan.yaml`` or ``plan.yaml`` beside it or in a folder above it, up to
the repository's root (outside a repository, only beside it); else none, and the file is an
error. Nothing above the repository's root is read: it is not the project's.
Relative plan paths in the configuration are read from its folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import SkillgrantError

#: Plan files looked for beside a SKILL.md and in the folders above it, in this order.
PLAN_NAMES = ("skillgrant-plan.yaml", "plan.yaml")
_KEYS = {"plans", "format", "lint", "runtime"}
_LINT_KEYS = {"select", "ignore"}


class ConfigError(SkillgrantError, ValueError):
    """A configuration file that cannot be used: its path and what is wrong."""


class Config(NamedTuple):
    """The project's configuration (``path`` None: there is none)."""

    path: Path | None = None
    plans: tuple[tuple[str, Path], ...] = ()
    format: str | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    #: The runtimes files are judged for when neither ``--runtime`` nor the plan says.
    runtime: str | None = None

    def plan_for(self, skill: Path) -> Path | None:
        """The plan the ``plans`` table maps ``skill`` to, or None."""
        if self.path is None or not self.plans:
            return None
        try:
            relative = Path(os.path.abspath(skill)).relative_to(self.path.parent)
        except ValueError:
            return None  # outside the configured project
        for pattern, plan in self.plans:
            if glob_pattern(pattern).fullmatch(relative.as_posix()):
                return plan
        return None


def find_config(start: Path | None = None) -> Config:
    """The configuration found from ``start`` (the working directory) upward, up to the
    repository's root (outside a repository: ``start`` alone). A configuration above the
    repository is never read: it is not the project's. Raises ConfigError for one that cannot
    be read."""
    folder = Path(os.path.abspath(start or os.getcwd()))
    for candidate in _up_to_root(folder):
        own = candidate / ".skillgrant.toml"
        if own.is_file():
            return _config(own, _toml(own))
        project = candidate / "pyproject.toml"
        if project.is_file():
            table = _toml(project).get("tool", {})
            if isinstance(table, dict) and "skillgrant" in table:
                return _config(project, table["skillgrant"], prefix="tool.skillgrant.")
    return Config()


def nearest_plan(skill: Path) -> Path | None:
    """The nearest plan file beside ``skill`` or above it, up to the repository's root
    (outside a repository: only beside it)."""
    return _nearest(os.path.dirname(os.path.abspath(skill)))


@cache
def _nearest(folder: str) -> Path | None:
    """The nearest plan file in ``folder`` or above it (once per folder: a batch of thousands
    of skills shares its folders)."""
    for candidate in _up_to_root(Path(folder)):
        for name in PLAN_NAMES:
            plan = candidate / name
            if plan.is_file():
                return plan
    return None


def _up_to_root(folder: Path) -> list[Path]:
    """``folder`` and the folders above it, up to the repository's root (the nearest folder
    holding ``.git``); only ``folder`` when it is in no repository."""
    chain = []
    for candidate in (folder, *folder.parents):
        chain.append(candidate)
        if (candidate / ".git").exists():
            return chain
    return [folder]


def _toml(path: Path) -> dict[str, Any]:
    import tomllib  # only when there is a file to read: check starts on every commit

    try:
        with path.open("rb") as stream:
            return tomllib.load(stream)
    except OSError as e:
        raise ConfigError(f"{path}: cannot read it: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not TOML: {e}") from None


def _config(path: Path, table: object, prefix: str = "") -> Config:
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {prefix.rstrip('.') or 'the file'} must be a table")
    _known(path, table, _KEYS, prefix)
    plans = table.get("plans", {})
    if not isinstance(plans, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and k and v for k, v in plans.items()):
        raise ConfigError(f"{path}: {prefix}plans must map globs to plan files (strings)")
    fmt = table.get("format")
    if fmt is not None and fmt not in ("text", "json", "github", "sarif", "markdown"):
        raise ConfigError(f"{path}: {prefix}format must be one of text, json, github, sarif, "
                          f"markdown, not {fmt!r}")
    lint = table.get("lint", {})
    if not isinstance(lint, dict):
        raise ConfigError(f"{path}: {prefix}lint must be a table")
    _known(path, lint, _LINT_KEYS, prefix + "lint.")
    select, ignore = (_rules(path, lint, key, prefix + "lint.") for key in ("select", "ignore"))
    runtime = table.get("runtime")
    if isinstance(runtime, list) and runtime and all(isinstance(v, str) for v in runtime):
        runtime = ",".join(runtime)
    if runtime is not None and not (isinstance(runtime, str) and runtime.strip()):
        raise ConfigError(f"{path}: {prefix}runtime must be a runtime's name or a list of "
                          "names")
    base = path.parent
    return Config(path, tuple((glob, base / plan) for glob, plan in plans.items()), fmt,
                  select, ignore or (), runtime)


def _known(path: Path, table: Mapping[str, object], keys: set[str], prefix: str) -> None:
    import difflib

    for key in table:
        if key not in keys:
            close = difflib.get_close_matches(key, sorted(keys), n=1)
            hint = f"; did you mean {prefix}{close[0]}?" if close else ""
            raise ConfigError(f"{path}: unknown key {prefix}{key}{hint} (known: "
                              f"{', '.join(prefix + k for k in sorted(keys))})")


def _rules(path: Path, table: Mapping[str, object], key: str,
           prefix: str) -> tuple[str, ...] | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f"{path}: {prefix}{key} must be a list of rule IDs")
    return tuple(value)


@cache
def glob_pattern(pattern: str) -> re.Pattern[str]:
    """A path glob as a regular expression: ``**/`` any folders (none too), ``**`` anything,
    ``*`` and ``?`` within one name."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))
