"""What pytest's own settings file makes it collect besides its default test names (issue 29,
review s54-greview2 A6): ``testfiles.collected`` reads a file of pytest's default
``python_files`` (``test_*.py``, ``*_test.py``) below a folder the plan's programs collect
in; the settings pytest reads from that folder up (``pytest.ini``, ``pyproject.toml``'s
table, ``tox.ini``, ``setup.cfg``…: ``checkersettings.pytest_settings``, every one read)
widen it:

- ``python_files = check_*.py``: each file of such a name is a test (pytest 9 imports it);
- ``addopts`` holding ``--doctest-modules`` (every module below is imported), ``--pyargs``,
  ``-c``/``--config-file``, ``--rootdir``, ``--confcutdir`` (another settings file, another
  root: what they say is not read): every module (``.py``, its bytecode, an extension
  module) below is one;
- ``addopts`` holding ``--doctest-glob=PAT`` or ``-o python_files=PAT``: each file ``PAT``
  matches (a pattern holding a ``/`` matching the path's end, as pytest's ``fnmatch_ex``);
- ``pythonpath`` naming what is no folder (``vendor/libs.zip``: zipimport reads modules
  from it, first on ``sys.path``; s55-greview3 P4): that file;
- a conftest's ``pytest_plugins`` (the conftests pytest loads first: ``conftestplugins``):
  each module it names, its packages' ``__init__`` files (s55-greview3 P3); every module
  where it is not a literal.

Read once for a guarded set (the hook's one call; the service's set is made again at any
change its view reports of a file read through it). Cost: under ``addopts =
--doctest-modules``, a Bash writer of any module below the folder is denied (an Edit grant
covering it still allows the Edit tool)."""

from __future__ import annotations

import fnmatch
import os

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: ``addopts`` words after which pytest may import any module below (see the module's text).
_EVERY: Final = ("--doctest-modules", "--pyargs", "-c", "--config-file", "--rootdir",
                 "--confcutdir")
#: The shell's operators ending a command's words (``shlex`` keeps them words).
_OPERATORS: Final = frozenset(("&&", "||", ";", "|", "&", ")", "}"))
#: The guarded set last read, each collecting folder's reading (every module: None where
#: that is whether the plan's ``sys.path`` is not known; patterns), and that ``sys.path``
#: once read (``_elsewhere``).
_LAST: list[tuple[object, dict[str, tuple[bool | None, tuple[str, ...]]], list[
    list[str] | None]]] = []


def widened(key: str, folders: frozenset[str], guards: object) -> bool:
    """Whether the folded real path ``key`` lies below one of the collecting ``folders`` (of
    ``guards``) whose pytest settings make it a file pytest collects (see the module's
    text)."""
    head, _, name = key.rpartition("/")
    for folder in folders:
        if head == folder or head.startswith(folder + "/"):
            every, patterns = _reading(folder, guards)
            if (name.endswith((".py", ".pyc", ".so", ".pyd")) and (every or (
                    every is None and _elsewhere(guards) is None))) or any(
                    fnmatch.fnmatchcase(key, "*/" + p.lstrip("/")) if "/" in p else
                    fnmatch.fnmatchcase(name, p) for p in patterns):
                return True  # (a pattern holding a `/` matches the path's end: fnmatch_ex)
    return False


def plugin_tops(guards: object) -> frozenset[str]:
    """The top names (folded) of the modules the pytest settings, conftests and test modules
    of each collecting folder of ``guards`` (``Guarded.collected``) name as plugins
    (``_reading``'s patterns: ``myplug.py``, ``pkg/__init__.*``)."""
    return frozenset(top for folder in getattr(guards, "collected", ()) or () for p in _reading(
        folder, guards)[1] for top in [p.split("/")[0].partition(".")[0]] if top.isidentifier())


def real_folder(folder: str, guards: object) -> str:
    """The real spelling of the folded collecting ``folder``: the run folder of ``guards``
    (``Guarded.run_folders``) it folds from; else, where the folded path is no folder, each
    of its names as the folder above lists it (the first that folds to it)."""
    from .placed import fold

    found = next((f for f in getattr(guards, "run_folders", ()) if fold(f).rstrip("/") ==
                  folder), None)
    if found is not None or os.path.isdir(folder):
        return found or folder
    real = "/"
    for name in folder.strip("/").split("/"):
        try:
            real = os.path.join(real, next(
                (e for e in sorted(os.listdir(real)) if fold(e) == name), name))
        except OSError:
            return folder
    return real


def words(value: str) -> list[str]:
    """The words of a pytest setting's ``value`` as pytest splits ``addopts``, ``pythonpath``
    and ``python_files`` (``shlex``: quotes removed); split at white space where it cannot
    (an unclosed quote)."""
    import shlex

    try:
        return shlex.split(value)
    except ValueError:
        return value.split()


def _elsewhere(guards: object) -> list[str] | None:
    """The folders after the first a Python of ``guards``' plan imports from
    (``sitenames.sys_path_folders``: PYTHONPATH's, the site folders'), read once for them;
    None where not known exactly (then every module is a plugin's)."""
    if not _LAST or _LAST[0][0] is not guards:
        _LAST[:] = [(guards, {}, [])]
    site = _LAST[0][2]
    if not site:
        from .sitenames import sys_path_folders

        site.append(sys_path_folders(getattr(guards, "run_folders", frozenset()), getattr(
            guards, "python_libs", frozenset())))
    return site[0]


def _reading(folder: str, guards: object) -> tuple[bool | None, tuple[str, ...]]:
    """What the pytest settings from the collecting ``folder`` (folded; its real path as
    ``real_folder``) up widen, kept for ``guards``: whether every module is a plugin's
    (None: where ``_elsewhere`` is None, asked only of a module's file: the site folders
    are read only where a conftest names a module or a module is written), and the
    patterns."""
    if not _LAST or _LAST[0][0] is not guards:
        _LAST[:] = [(guards, {}, [])]
    kept = _LAST[0][1]
    if folder not in kept:
        from .checkersettings import pytest_settings
        from .collectopts import option_read
        from .conftestplugins import conftest_plugins

        real = real_folder(folder, guards)
        keys = ("addopts", "python_files", "pythonpath", "testpaths", "norecursedirs")
        settings = pytest_settings(real, keys)
        settings = list(dict.fromkeys([*settings, *(s for a in anchors(real, settings, guards)
                                                    for s in pytest_settings(a, keys))]))
        # (an operand's settings, up its folder as spelled and as real: pytest's ini is the
        # first found from its arguments' folder up; s60-preview C)
        plugins = [w[2:] or (ws[k + 1] if k + 1 < len(ws) else "") for _, key, value in
                   settings if key == "addopts" for ws in [words(value)]
                   for k, w in enumerate(ws) if w[:2] == "-p"]  # (the ini's `-p`: read too)
        pythonpath = tuple(os.path.normpath(os.path.join(at, w)) for at, key, value in
                           settings if key == "pythonpath" for w in words(value))
        from .sitearchives import plugin_tops

        plugins += [t.replace("/", ".") for f in (real, *pythonpath) for t in sorted(
            plugin_tops(f))]  # (the metadata in the folder `-m` puts first, the ini's
        # `pythonpath`: importlib.metadata reads every sys.path folder's; s59-preview R)
        every: bool | None
        tests = tuple(w for _, key, value in settings if key == "python_files" for w in words(
            value)) + anchors(real, settings, guards, True)  # (test modules of other names)
        every, patterns = conftest_plugins(real, tuple(
            p for p in plugins if not p.startswith("no:")), lambda: pythonpath + tuple(
            _elsewhere(guards) or ()), anchors(real, settings, guards), tests, any(
            key == "norecursedirs" for _, key, _ in settings))  # (a named module
        # where sys.path finds it: PYTHONPATH's, a site folder's; s57-greview2; a
        # conftest's `pytest_plugins`: s55-greview3 P3)
        every = every or (None if not _LAST[0][2] else _LAST[0][2][0] is None)
        for at_folder, key, value in [*settings, *plan_words(guards)]:
            given = words(value) if key != "" else value.split("\0")
            if key in ("testpaths", "norecursedirs"):
                continue
            if key == "pythonpath":  # (an entry that is no folder: an archive zipimport reads)
                import glob  # (here: it loads contextlib, ~0.3 ms of a hook that globs nothing)

                patterns += [glob.escape(p) for p in (os.path.normpath(os.path.join(
                    at_folder, w)) for w in given) if not os.path.isdir(p)]
                continue
            if key == "python_files":
                patterns += given
                continue
            valued = False
            for at, word in enumerate(given):
                after = given[at + 1] if at + 1 < len(given) else ""
                every = True if (word.partition("=")[0] in _EVERY or word[:2] == "-c") and (
                    key or word != "--doctest-modules") else every  # (None kept: not known
                # until asked, s58-preview R-LAZY-ADDOPTS; the plan's --doctest-modules: its
                # operands guarded whole, `collectopts`)
                read = word[:1] != "@" and (valued or word[:1] != "-" or word[:2] == "-p" or
                                            word.startswith("--doctest-glob") or option_read(
                    word, after) is not None or (not key and word == "--doctest-modules"))
                every = True if not read else every  # (an option not callpytest's: `--pdbcls=
                # helpers:Pdb`, a plugin's flag, s59-preview O; `@FILE`: its lines, s60-preview F)
                valued = not valued and word[:1] == "-" and (
                    word in ("-p", "--doctest-glob") or bool(option_read(word, after)))
                if word.startswith("--doctest-glob"):
                    patterns.append(word.partition("=")[2] or after)
                override = after if word in ("-o", "--override-ini") else word[2:] if \
                    word[:2] == "-o" and word[2:3] != "-" else word.partition("=")[2] if \
                    word.startswith("--override-ini=") else ""
                if override.startswith("python_files="):
                    patterns += override.partition("=")[2].split()
        kept[folder] = (every, tuple(p.lower() for p in patterns if p))
    return kept[folder]


def plan_words(guards: object) -> list[tuple[str, str, str]]:
    """The words each pytest command of ``guards``' plan entries (``Guarded.named``) gives
    pytest after its name, as a setting ``("", "", WORDS)`` (``WORDS`` joined by ``\\0``): read
    by the same allow-list of options as the settings' ``addopts`` (s59-preview O: the plan's
    own ``--pdbcls=helpers:Pdb``, ``--benchmark-histogram``)."""
    import shlex

    found = []
    for entry in getattr(guards, "named", ()):
        if entry[:1] != "@" or "test" not in entry:
            continue
        try:
            given = shlex.split(entry[1:])
        except ValueError:
            given = entry[1:].split()
        from .collectopts import code_runs_pytest, plugin_words, pytest_start, unclustered

        at = pytest_start(given, True)  # (`-mpytest`, `-m pytest.__main__`: s60-preview O)
        if at is not None:
            rest = given[at + 1:]
            rest = rest[:next((k for k, w in enumerate(rest) if w in _OPERATORS), len(rest))]
            found.append(("", "", "\0".join(unclustered(plugin_words("pytest", rest)))))
        elif code_runs_pytest(given):  # (its words not read: an option read by none)
            found.append(("", "", "--pytest-run-by-code"))
    return found


def _globbed(folder: str, pattern: str) -> list[str]:
    """What ``pattern`` matches in ``folder``: pytest's ``iglob`` of a ``testpaths`` entry."""
    import glob  # (here: it loads contextlib, ~0.3 ms of a hook that globs nothing)

    return glob.glob(os.path.join(glob.escape(folder), pattern), recursive=True)


def anchors(real: str, settings: list[tuple[str, str, str]], guards: object,
             files: bool = False) -> tuple[str, ...]:
    """The folders pytest may start collecting in for the collecting folder ``real`` that
    the plan's words and ``settings`` name (session 57, s56-greview3 P): each ``testpaths``
    entry (its glob's matches) and each path operand of the plan's pytest entries
    (``Guarded.named``' entries; a node id's file), real paths; ``conftestplugins`` reads
    the conftests in, above and below each outside ``real``."""
    import shlex

    from .collectopts import operands

    found = [os.path.realpath(p) for at, key, value in settings if key == "testpaths"
             for w in words(value) for p in _globbed(at, w)]
    for entry in getattr(guards, "named", ()):
        if entry[:1] != "@" or "test" not in entry:
            continue
        try:
            given = shlex.split(entry[1:])
        except ValueError:
            continue
        found += [p for w in operands(given) for p in (os.path.realpath(os.path.join(
            real, w.split("::")[0])), os.path.normpath(os.path.join(real, w.split("::")[0])))]
        # (the spelled path too: pytest finds its ini and conftests up a link's folder as
        # given, s60-preview C)
    if files:  # (the operands that are files: test modules whatever their names)
        return tuple(dict.fromkeys(p for p in found if os.path.isfile(p)))
    return tuple(dict.fromkeys(p if os.path.isdir(p) else os.path.dirname(p) for p in found))


#: The guarded set last asked ``pythonpath_folders``, and its answer.
_PATHS: list[tuple[object, frozenset[str] | None]] = []


def pythonpath_folders(guards: object) -> frozenset[str] | None:
    """The folders (normalized, and their real paths) the ``pythonpath`` of a pytest
    settings file may put on ``sys.path`` for ``guards``' plan: of each settings file in
    and above each folder its programs run in and each anchor its pytest entries name (an
    operand: pytest finds its ini from its arguments' folder up; session 57, s56-greview3
    O ``ini-of-the-operand``); None (any folder) where a settings file is not read. (A
    pattern entry's operand is any: left open.)"""
    if _PATHS and _PATHS[0][0] is guards:
        return _PATHS[0][1]
    from .checkersettings import pytest_settings

    runs = [os.path.normpath(f) for f in getattr(guards, "run_folders", ())]
    folders = [*runs, *(a for r in runs for a in anchors(r, [], guards))]
    found: set[str] = set()
    try:
        for folder in dict.fromkeys(folders):
            for at, _, value in pytest_settings(folder, ("pythonpath",)):
                for word in words(value):
                    path = os.path.normpath(os.path.join(at, word))
                    found |= {path, os.path.realpath(path)}
    except ValueError:
        _PATHS[:] = [(guards, None)]
    else:
        _PATHS[:] = [(guards, frozenset(found))]
    return _PATHS[0][1]
