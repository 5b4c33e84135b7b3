"""The plugins a Python checker's settings name (session 48, review s44 W3's pyproject.toml
row): ``mypy src`` imports the ``plugins`` its ``mypy.ini``, ``pyproject.toml`` or
``setup.cfg`` names, pylint its ``load-plugins`` (and runs its ``init-hook``), flake8 its
``[flake8:local-plugins]``, ``coverage report`` its ``[run] plugins``: code the plan did not
grant, run by a program that runs none of the project's otherwise. Under a plan running one
(``planprograms`` marks it ``&NAME``; ``&*`` under a runner of any program), each module or
path those settings name is guarded whole, read from the settings file's folder and each
folder a call runs in; for a checker the plan names itself, its settings files are guarded
beyond the plan's own Edit grant too (``nested.only_planned``: they are not the plan's
programs' alone). A settings file that cannot be read denies."""

from __future__ import annotations

import os

from . import files as fs
from .planpaths import module_files

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Each checker's settings files (in each folder from the call's up, and the user's), with the
#: sections and keys naming its plugins: (file, section, keys); ``pyproject.toml``'s tables
#: as dotted sections.
SETTINGS_FILES: Final = {
    "mypy": (("mypy.ini", "mypy", ("plugins",)), (".mypy.ini", "mypy", ("plugins",)),
             ("pyproject.toml", "tool.mypy", ("plugins",)), ("setup.cfg", "mypy", ("plugins",)),
             (os.path.join("~", ".config", "mypy", "config"), "mypy", ("plugins",)),
             (os.path.join("~", ".mypy.ini"), "mypy", ("plugins",))),
    "pylint": tuple((name, section, ("load-plugins", "init-hook"))
                    for name in ("pylintrc", ".pylintrc", "pylintrc.toml", ".pylintrc.toml",
                                 "pyproject.toml", "setup.cfg", "tox.ini",
                                 os.path.join("~", ".pylintrc"),
                                 os.path.join("~", ".config", "pylintrc"))
                    for section in ("main", "MAIN", "master", "MASTER", "pylint.main",
                                    "pylint.MAIN", "pylint.master", "pylint.MASTER",
                                    "tool.pylint.main", "tool.pylint.MAIN",
                                    "tool.pylint.master", "tool.pylint.MASTER")),
    "flake8": tuple((name, "flake8:local-plugins", ("extension", "report", "paths"))
                    for name in ("setup.cfg", "tox.ini", ".flake8")),
    "coverage": ((".coveragerc", "run", ("plugins",)), ("setup.cfg", "coverage:run", ("plugins",)),
                 ("tox.ini", "coverage:run", ("plugins",)),
                 ("pyproject.toml", "tool.coverage.run", ("plugins",)))}
SETTINGS_FILES["dmypy"] = SETTINGS_FILES["mypy"]
#: pytest's ``addopts`` (``-p tools.plug``: a plugin module it imports), in the files it reads.
SETTINGS_FILES["pytest"] = tuple((name, section, ("addopts",)) for name, section in (
    ("pytest.toml", "pytest"), (".pytest.toml", "pytest"), ("pytest.ini", "pytest"),
    (".pytest.ini", "pytest"), ("pyproject.toml", "tool.pytest.ini_options"),
    ("pyproject.toml", "tool.pytest"), ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest")))
#: Of them, those running the project's code anyway (its tests): their settings files stay
#: the plan's programs' alone (``Edit(./**)`` beside ``Bash(pytest tests)``: review s45).
_RUNS_CODE: Final = frozenset({"pytest"})


def plugin_paths(kinds: list[str], folders: list[str],
                 home: str) -> list[tuple[str, bool]]:
    """The items above for the checkers ``kinds`` (``*``: every one, their plugins only), the
    folders a call runs in ``folders`` (the call's, each above, the project's) and ``home``."""
    names = sorted(SETTINGS_FILES) if "*" in kinds else [k for k in kinds if k in SETTINGS_FILES]
    found: dict[str, bool] = {}
    for kind in names:
        for name, section, keys in SETTINGS_FILES[kind]:
            paths = [os.path.join(home, name[2:])] if name[:2] == "~/" else [
                os.path.join(f, name) for f in folders]
            for path in paths:
                if kind in kinds and name[:2] != "~/" and kind not in _RUNS_CODE:
                    found[path] = True  # (not the plan's programs' alone: its Edit grant)
                for key, value in _settings(path, section, keys):
                    value = _plugin_options(value) if key == "addopts" else value
                    found.update(dict.fromkeys(_named(value, os.path.dirname(path), folders),
                                               True))
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
            found.append(os.path.join(here, os.path.expanduser(word)))
        elif word.replace(".", "").replace("_", "").isalnum():
            found += [os.path.join(f, m) for f in (here, *folders) for m in module_files(word)]
    return [os.path.normpath(p) for p in found if os.path.normpath(p) not in folders]


def _settings(path: str, section: str, keys: tuple[str, ...]) -> list[tuple[str, str]]:
    """The values of ``keys`` in ``section`` of the settings file ``path`` (ini, or TOML for
    a name ending in ``.toml``, a list's items joined); none when it is not there. Raises
    ValueError when it cannot be read."""
    try:
        text = fs.read(path, 1 << 22).decode()
    except (FileNotFoundError, NotADirectoryError):
        return []
    except (OSError, ValueError) as e:
        raise ValueError(f"{path!r} cannot be read for the plugins it names: {e}") from e
    if not any(key in text for key in keys):
        return []
    try:
        return _toml(text, section, keys) if path.endswith(".toml") else _ini(
            text, section, keys)
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
