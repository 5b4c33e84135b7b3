"""The folders beside the run folders that a collecting plan's test runners read tests from
(issue 29, review s53-greview2 T6, T11, T12).

``Guarded.collected`` holds the folders the plan's programs run in; a runner also collects
in a folder its operand names (``node --test ../ext/``: the plan names it, and guards it
whole), one its settings name (bun's ``bunfig.toml`` ``[test] root``, pytest's
``testpaths``), one a ``package.json`` script's words name (``"test": "node --test
../ext/"``; the scripts the plan runs where ``planscripts`` names them). A link there leads
the runner to a file anywhere (``../ext/test/o -> ../../other``): ``testlinks`` walks these
folders too, and a path met below one (the file itself, or through a link) is read as the
runner's. Only folders outside the run folders
count (one below them is walked already); they are read from the run folders' settings
files, which the plan guards (a session cannot change them), once a guarded set.
"""

from __future__ import annotations

import os

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The guarded set the roots were read for (by identity), its roots, and the folded paths a
#: runner of its scripts tries as files first (``first_loaded``).
_LAST: list[tuple[object, tuple[str, ...], tuple[str, ...]]] = []
#: A settings file read at most this far (a settings file is small).
_LIMIT: Final = 1 << 20
#: pytest's settings files, each with the section holding ``testpaths`` (pytest 9's order).
_PYTEST: Final = (("pytest.toml", "pytest"), (".pytest.toml", "pytest"),
                  ("pytest.ini", "pytest"), (".pytest.ini", "pytest"),
                  ("pyproject.toml", "tool.pytest.ini_options"),
                  ("pyproject.toml", "tool.pytest"), ("tox.ini", "pytest"),
                  ("setup.cfg", "tool:pytest"))


def runner_roots(guards: object, runs: tuple[str, ...]) -> tuple[str, ...]:
    """The real folders, none at or below one of the real folders ``runs`` (the walk's own
    roots), that a runner of the collecting plan of ``guards`` reads tests from (see the
    module's text); () where the plan collects none."""
    if _LAST and _LAST[0][0] is guards:
        return _LAST[0][1]
    found: dict[str, None] = {}
    firsts: dict[str, None] = {}
    if getattr(guards, "collected", None):
        from .nested import planned_of
        from .placed import fold
        from .planscripts import plan_scripts
        from .scriptfirsts import first_names

        names = plan_scripts(guards)
        inside = tuple(r.rstrip("/") + "/" for r in runs)
        named = [p for p in planned_of(guards) if not (p + "/").startswith(inside)]
        found.update(dict.fromkeys(p for p in named if fs.is_folder(p)))
        for run in runs:
            firsts.update(dict.fromkeys(first_names(run)))
            ran: list[str] = []  # (the shell script files its scripts run: guarded whole)
            for folder in _settings_roots(run, names, ran):
                real = fs.realpath(folder)
                if real != "/" and not (real + "/").startswith(inside) and fs.is_folder(real):
                    found[real] = None  # (`/`: a URL's base, `vite --base /`; s55-sreview C1)
            firsts.update(dict.fromkeys(fold(p) for p in ran))
    roots = tuple(found)
    _LAST[:] = [(guards, roots, tuple(firsts))]
    return roots


def first_loaded(key: str, guards: object) -> bool:
    """Whether the folded real path ``key`` is, or lies below, a name a runner of the
    collecting plan's ``package.json`` scripts tries as a file of its folder before the
    package it names (``mocha --require ts-node/register``: ``./ts-node/register``,
    ``.js``; ``--require setup``, ``--reporter rep``: ``./setup``, any ``./setup.*``, as
    require's ``.js``, ``.json``, ``.node``; prettier's ``--plugin``:
    ``scriptcode.FIRST_OPTIONS``), read from every script of each run folder's
    ``package.json`` (s59-mreview K6: such a script is read, its name guarded, instead of
    refused), or a ``__snapshots__`` folder below a collecting folder, or a file below one
    (jest's and vitest's snapshot files, which they run as code: s60-mreview M14), or a shell
    script file a script runs (its path's first part, ``scriptfolders``: s57-sreview C4), or a
    settings file tsc reads (``-p``'s, a reference's), or exactly a folder above one
    (``tscsettings.guarded_file``: s60-mreview K5), or a source tsc emits as a runner's
    settings (``tscsettings.emitted_settings``: s61-mreview M11). True where the set's
    roots were not read (``runner_roots`` runs first: ``testlinks.places``)."""
    if "/__snapshots__/" in key + "/" and any(key.startswith(f + "/") for f in getattr(
            guards, "collected", ())):  # (jest 29, vitest 2 run each test's snapshot file:
        return True  # `new Function(<the .snap text>)`; s60-mreview M14)
    if not (_LAST and _LAST[0][0] is guards):
        return True
    from .scriptfirsts import in_tests
    from .tscsettings import emitted_settings

    return any(key == p or key.startswith((p + ".", p + "/")) if p[:1] not in (
        "\0", "\x01", "\x02") else key == p[1:] if p[:1] == "\x01" else in_tests(
        key, p[1:]) if p[:1] == "\0" else key.startswith(p[1:] + "/") and emitted_settings(
        key.rpartition("/")[2]) for p in _LAST[0][2])


def _settings_roots(folder: str, names: frozenset[str] | None,
                    ran: list[str] | None = None) -> list[str]:
    """The folders ``folder``'s settings name for a runner: bunfig's ``[test] root``,
    pytest's ``testpaths`` and ``addopts``' operands in the first settings file pytest finds
    from ``folder`` up (s55-sreview R2: a monorepo's), each word of a ``package.json``
    script the plan runs (``names``: ``planscripts``; None: any) (``scriptfolders``; ``ran``
    gets the shell script files they run)."""
    found: list[str] = []
    test = _toml(os.path.join(folder, "bunfig.toml")).get("test")
    root = test.get("root") if isinstance(test, dict) else None
    found += [os.path.join(folder, root)] if isinstance(root, str) else []
    above = folder
    while True:
        paths = next((p for n, sec in _PYTEST if (p := _pytest_paths(os.path.join(above, n),
                                                                      sec)) is not None), None)
        if paths is not None:  # (testpaths from the settings' folder, addopts' from the call's)
            found += [os.path.join(b, p) for p in paths for b in dict.fromkeys((above, folder))]
            break
        if above == "/":
            break
        above = os.path.dirname(above)
    from .scriptfolders import before_pattern, script_folders

    found = [os.path.normpath(before_pattern(p)) for p in found if p]
    return found + script_folders(folder, os.path.join(folder, "package.json"), 0, names, ran)


def _toml(path: str) -> dict[str, object]:
    """The TOML file at ``path`` read; {} where it is not there or not read."""
    text = fs.text(path, _LIMIT)
    if text is None:
        return {}
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


def _pytest_paths(path: str, section: str) -> list[str] | None:
    """pytest's ``testpaths``, and ``addopts``' words that are no option (its operands, and
    ``--rootdir``'s value), in ``section`` of the settings file at ``path``; None where the
    file or the section is not there (pytest reads the next file)."""
    found = _testpaths(path, section, "testpaths")
    if found is None:
        return None
    words = [w for v in _testpaths(path, section, "addopts") or [] for w in v.split()]
    return found + [w.partition("=")[2] if w.startswith("--rootdir=") else w for w in words
                    if w[:1] != "-" or w.startswith("--rootdir=")]


def _testpaths(path: str, section: str, key: str) -> list[str] | None:
    """The words of ``key`` in ``section`` of the settings file at ``path`` ([] where the
    section holds none); None where the file or the section is not there."""
    if path.endswith(".toml"):
        table: object = _toml(path)
        for part in section.split("."):
            table = table.get(part) if isinstance(table, dict) else None
        if not isinstance(table, dict):
            return None
        value = table.get(key, [])
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else \
            value.split() if isinstance(value, str) else []
    text = fs.text(path, _LIMIT)
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
    return parser.get(section, key, fallback="").split()
