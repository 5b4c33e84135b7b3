"""What jest's settings make it run besides the test names ``testfiles`` reads (issue 29,
reviews s54-greview2 A7, s55-greview3 J4). jest 29 takes its settings from ``package.json``'s
``"jest"`` or a ``jest.config.*`` file in the folder it runs in (its ``rootDir``), or from
the file a ``--config`` names; the literal ones are read here (``package.json``, a JSON
file, a literal module, one a script or the plan's entry gives jest by ``--config``/``-c``),
from each folder the plan's programs collect tests in, and the paths the plan's entries
give jest's code options (``--globalSetup=./s.js``: ``planscripts``):

- ``testMatch`` (micromatch's globs, extglobs among them: ``*.+(check|e2e).js``) and
  ``testRegex``: each file they match there is a test it runs;
- the files its settings name as code (``setupFiles``, ``setupFilesAfterEnv``,
  ``globalSetup``, ``testEnvironment``, ``transform``, ``reporters``, ``moduleNameMapper``,
  ``haste``…): each path (``<rootDir>/…``, ``./…``, ``../…``, absolute, or holding a ``/``),
  with a script's endings added to one that has none, and each file below it, is one
  wherever it is (above the folder too); a ``preset``'s JSON is read as these settings;
- ``projects``: an inline project's settings are read as these (its ``rootDir`` from the
  parent's), a project folder's own settings (``package.json``'s, ``jest.config.json``)
  from it, and a settings file written into such a folder (a glob's too) is one;
- ``moduleDirectories`` (a folder name searched from each folder up, as ``node_modules``),
  ``modulePaths`` and ``roots``: every file below such a folder is one (a module a test
  requires may resolve there);
- ``cacheDirectory`` (and jest's default, ``$TMPDIR/jest_<uid>``): every file below it is
  one (jest runs a test's transformed code it finds kept there).

The words given to jest (a script's after ``jest``, after a ``cd`` from the folder it
names; the plan's entries') are read as jest 29.7's yargs reads them (kebab case,
``--x=v``, short clusters ``-ic``: ``jestargs.yargs``). A ``jest.config.*`` module (in a
collecting or project folder, a ``--config`` one) exporting one literal (``module.exports =
{…}``, jest --init's ``const config = {…}``, typed in a ``.ts`` one: ``jsliteral``) is read
as a JSON one is (s57-sreview J10). Settings that are code by their text (any other such
module, a preset or a ``--config`` file that is neither, a package's preset that is no JSON,
``--rootDir`` in jest's words, a tsconfig that may give ts-node options) may name any file:
each file anywhere whose name has an ending (jest runs ``tools/setup.txt`` as CommonJS) is
then one. Where the gate cannot read jest's effective settings otherwise (s56-sreview J: a
JSON text given to an option, a ``rootDir`` above its settings' folder, a glob not read in
``testMatch``, settings jest finds above a folder holding none, an option jest does not
know, a script naming jest that is not read or that runs it otherwise than as ``jest``, a
plan that may run jest with words the gate does not read: ``make test``, a script running
``sh run.sh``, ``jestargs.unseen``), each script anywhere (``SCRIPTS``) is one. Either way
each present file of no ending is one (fail closed, as a ``__mocks__`` folder's are; a new
name of none may be the folder a call makes). A package's mock (``__mocks__/chalk.js``) in
any of its ``roots`` is ``testfiles``'. Read once for a guarded set; a JSON settings file
that cannot be read, or is no JSON, denies the write (ValueError)."""

from __future__ import annotations

import json
import os
import re

from . import files as fs
from .jestargs import above, cache, present, script_words, unseen, yargs
from .micromatch import micromatch
from .placed import fold

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final

#: jest 29's settings naming a module or file it loads as code.
_CODE: Final = frozenset((
    "setupFiles", "setupFilesAfterEnv", "globalSetup", "globalTeardown", "testEnvironment",
    "testRunner", "testSequencer", "snapshotResolver", "resolver", "reporters", "transform",
    "moduleNameMapper", "watchPlugins", "runner", "dependencyExtractor",
    "testResultsProcessor", "snapshotSerializers", "prettierPath", "preset", "projects",
    "haste", "filter", "runtime", "coverageReporters"))
#: The endings node (and jest's resolver) tries for a path without one.
_ENDINGS: Final = ("", ".js", ".cjs", ".mjs", ".jsx", ".ts", ".cts", ".mts", ".tsx", ".json",
                   ".node", "/index.js", "/index.ts", "/index.json")
#: The endings of a file jest may load as code.
SCRIPTS: Final = tuple(e for e in _ENDINGS if e[:1] == "." and e != ".json")
#: jest 29's settings files that are code (``JEST_CONFIG_EXT_ORDER`` less ``.json``).
_CODE_FILES: Final = tuple(f"jest.config{e}" for e in (".js", ".ts", ".mjs", ".cjs", ".cts",
                                                        ".mts"))
#: The endings of a settings file read where it exports one literal (``jsliteral``).
_LITERAL: Final = (".js", ".cjs", ".mjs", ".ts", ".cts", ".mts")
#: The settings files jest reads in a folder (a project's), a JSON one's nested member.
_FILES: Final = (("package.json", True), ("jest.config.json", False))
#: The files jest takes settings from in a folder (``jestargs.above``).
_SETTINGS: Final = (*_CODE_FILES, *dict(_FILES))
#: The guarded set last read, and each collecting folder's ``_Reading``.
_LAST: list[tuple[object, dict[str, _Reading]]] = []


class _Reading:
    """What jest's settings of one collecting folder name: ``paths`` (folded), ``patterns``
    (searched in a folded path below the folder; one starting ``^`` anywhere), ``code``
    (settings not read were met: every script is one), ``anything`` (settings that are
    code by their text were met: every file of an ending is one)."""

    def __init__(self) -> None:
        self.paths: set[str] = set()
        self.patterns: list[re.Pattern[str]] = []
        self.code = False
        self.anything = False
        self.read: set[str] = set()  # (each settings file once: projects naming each other)
        self.docblocks: set[str] | None = None  # (the environments tests name: once)


def widened(key: str, folders: frozenset[str], guards: object) -> bool:
    """Whether the folded real path ``key`` is a file jest's settings in one of the
    collecting ``folders`` (of ``guards``) name or match (see the module's text)."""
    for folder in folders:
        reading = _reading(folder, guards)
        if key in reading.paths or _code_names(key, reading):
            return True
        below = key.startswith(folder + "/")
        if any((below or p.pattern[:1] == "^") and p.search(key) for p in reading.patterns):
            return True
        if reading.docblocks is None:  # (read once, where a write asks: s56-sreview)
            from .jestdocblocks import environments

            named = environments(folder, reading.patterns, _ENDINGS)
            reading.docblocks = named if named is not None else set()
            if named is None:  # (too many tests to read: any script may be one)
                reading.code = True
                return widened(key, folders, guards)
        if key in reading.docblocks or any(key.endswith(n[1:]) for n in reading.docblocks
                                           if n[:1] == "\0"):
            return True  # (a docblock's path's ending: from any rootDir, JD5)
    return False


def _code_names(key: str, reading: _Reading) -> bool:
    """Whether code ``reading`` met may name the folded real path ``key``: settings that
    are code by their text (``anything``) any file of an ending (jest runs ``setup.txt``
    as CommonJS, ``.node`` as an addon: s57-sreview J10), settings not read otherwise
    (``code``) a script (``SCRIPTS``); either a present file of no ending (jest runs it as
    CommonJS: s56-sreview J; a new name of none may be the folder a call makes: ``mkdir
    build``)."""
    if not (reading.code or reading.anything):
        return False
    if "." not in key.rpartition("/")[2]:
        return fs.entry(key) == "file"
    return reading.anything or key.endswith(SCRIPTS)


def _reading(folder: str, guards: object) -> _Reading:
    """The ``_Reading`` of jest's settings in the collecting ``folder``, kept for
    ``guards``."""
    if not _LAST or _LAST[0][0] is not guards:
        _LAST[:] = [(guards, {})]
    kept = _LAST[0][1]
    if folder not in kept:
        from .babelsettings import babel_code
        from .planscripts import runner_words
        from .pytestini import real_folder

        reading = _Reading()
        real = real_folder(folder, guards)
        _folder(real, reading)
        reading.code |= above(real, _SETTINGS)
        given, code = script_words(real)
        reading.code |= code
        for base, words in given:
            if base != real:  # (`cd pkg/a && jest`: its settings; s56-sreview J)
                _folder(base, reading)
                reading.code |= above(base, _SETTINGS)
            _options([words], base, reading)
        _options(runner_words(guards, "jest"), real, reading)
        reading.code |= present(real, guards) and (unseen(guards, real) or babel_code(real))
        # (babel-jest loads the plugins Babel's settings name: s60-mreview M19)
        reading.patterns += [re.compile("^" + re.escape(fold(c)) + "/") for c in {
            cache(), fs.realpath(cache())}]  # (jest: its tmpdir's real path, s62-mreview R14)
        kept[folder] = reading
    return kept[folder]


def _options(given_words: list[list[str]], folder: str, reading: _Reading) -> None:
    """Adds to ``reading`` what the words ``given_words`` give jest (a script's, the plan's
    entries': ``planscripts.runner_words``) from ``folder``, read as jest 29.7's yargs reads
    them (``jestargs.yargs``: kebab case, ``--x=v``, short
    clusters): a settings file (``--config FILE``; a JSON text is code), and the options as
    these settings (``--globalSetup=./s.js``, ``--setup-files ./a.js ./b.js``, ``--env=./e.js``;
    s55-greview3 J2, J3; s56-sreview J). An option jest does not know, a ``--rootDir`` (it
    moves what every setting names) or a JSON text given to an option is code."""
    given: dict[str, list[str]] = {}
    for words in given_words:
        for option, value in yargs(words):
            if option is None:
                reading.code = True
            elif option == "config":
                path = os.path.join(folder, value if value[:1] != "{" else "{}")
                _file(path, False, os.path.dirname(path), reading)
            elif option == "rootDir":  # (every path read from it: s62-mreview R8)
                reading.anything = True
            elif value[:1] in ("{", "["):
                reading.code = True
            else:
                given.setdefault("testEnvironment" if option == "env" else option,
                                 []).append(value)
    _read(given, folder, reading)


def _folder(folder: str, reading: _Reading) -> None:
    """Adds to ``reading`` what the settings files in ``folder`` (a collecting or a project
    folder: its ``rootDir``) name; a settings file written there is one."""
    reading.paths |= {fold(os.path.join(folder, n)) for n in (*_CODE_FILES, *dict(_FILES))}
    for name in _CODE_FILES:
        if fs.entry(os.path.join(folder, name)) is not None:
            _file(os.path.join(folder, name), False, folder, reading)
    for name, nested in _FILES:
        _file(os.path.join(folder, name), nested, folder, reading)


def _file(path: str, nested: bool, folder: str, reading: _Reading) -> None:
    """Adds to ``reading`` what the settings in the file ``path`` (its ``"jest"`` member
    when ``nested``; a relative ``rootDir`` from ``folder``) name; a file that is no JSON
    nor a JavaScript (TypeScript) module exporting one literal (``jsliteral``) is code."""
    if path in reading.read or len(reading.read) > 64:
        reading.code |= path not in reading.read  # (more than 64 files: not read, refused)
        return
    reading.read.add(path)
    reading.paths.add(fold(path))  # (the settings file itself: jest loads it)
    if path.endswith(_LITERAL):
        from .jsliteral import exported_file

        settings = exported_file(path)
        reading.anything |= settings is None
        if "t" in path.rpartition(".")[2]:  # (ts-node loads a .ts one with a tsconfig's
            from .tscsettings import ts_node_reads  # settings: s62-mreview K-R3, R15)
            tsconfigs, options = ts_node_reads(folder)
            reading.paths |= {fold(t) for t in tsconfigs}
            reading.anything |= options
    elif not path.endswith(".json"):
        reading.anything = True
        return
    else:
        settings = _settings(path, nested or path.endswith("/package.json"))  # (s62 R17)
    if settings:
        root = os.path.normpath(os.path.join(folder, str(settings.get("rootDir", "."))))
        reading.code |= not (root + "/").startswith(folder.rstrip("/") + "/")  # (a rootDir
        _read(settings, root, reading)  # above: jest collects there; s56-sreview J)


def _read(settings: Mapping[str, object], root: str, reading: _Reading) -> None:
    """Adds to ``reading`` what jest's ``settings`` (its ``rootDir`` ``root``) name (see the
    module's text): a JSON preset's and each project's settings too."""
    paths, patterns = reading.paths, reading.patterns
    for setting, value in settings.items():
        if setting in _CODE:  # (below a path: a folder module's package.json `main`, of
            named = _paths(value, root)  # any ending: s62-mreview R13)
            paths |= {fold(p + e) for p in named for e in _ENDINGS}
            patterns += [re.compile("^" + re.escape(fold(p)) + "/") for p in named
                         if setting != "projects"]
        if setting == "preset":
            _presets(value, root, reading)
        if setting == "projects":
            _projects(value, root, reading)
        if setting == "testMatch":  # (a POSIX class, a mark not read: code, s62-mreview R4)
            found = [micromatch(p.replace("<rootDir>", root)) for p in fs.json_strings(value)]
            reading.code |= None in found
            patterns += [p for p in found if p is not None]
        elif setting == "testRegex":  # (searched in folded paths: s62-mreview R5)
            texts = fs.json_strings(value)
            reading.code |= not all(t.isascii() for t in texts)
            patterns += [re.compile(p, re.IGNORECASE) for p in texts if p.isascii()]
        elif setting == "moduleDirectories":  # (each such folder up, as node_modules,
            patterns += [re.compile(f"^.*/{re.escape(fold(n))}/", re.IGNORECASE)  # above
                         for n in fs.json_strings(value) if n != "node_modules"]  # too)
        else:
            patterns += [re.compile("^" + re.escape(fold(f)) + "/")
                         for f in _folders(setting, value, root)]


def _folders(setting: str, value: object, root: str) -> list[str]:
    """The folders every file below which the ``setting``'s ``value`` may name (``root``:
    its ``rootDir``): ``modulePaths``', ``roots``' (modules are found there), a
    ``moduleNameMapper`` value's before its capture (``<rootDir>/../shared/$1``: s56-sreview
    J), ``cacheDirectory`` (jest runs the transformed code it keeps there)."""
    texts = [v.replace("<rootDir>", root) for v in fs.json_strings(value)]
    if setting == "cacheDirectory":  # (jest: path.resolve(rootDir, value))
        return [os.path.normpath(os.path.join(root, t)) for t in texts]
    if setting in ("modulePaths", "roots"):
        return _paths(texts, root)
    if setting == "moduleNameMapper":
        return [os.path.dirname(os.path.normpath(os.path.join(root, t.partition("$")[0] + "x")))
                for t in texts if "$" in t]
    return []


def _presets(value: object, root: str, reading: _Reading) -> None:
    """Adds to ``reading`` the files jest 29 may take for a ``preset`` ``value`` naming a
    path (``<rootDir>/p``: ``p/jest-preset`` with ``.json``, ``.js``, ``.cjs``, ``.mjs``; a
    relative ``./p``: the module ``./p``, its ``index``), with the project's ``rootDir``
    ``root``, and what the first present holds: a JSON one's settings; one that is code, or
    a folder's ``package.json`` ``main``, may name anything (``_Reading.code``). (A package's
    preset in ``node_modules``, guarded whole, is not read: docs/decisions.md.)"""
    for text in fs.json_strings(value):
        relative = text[:1] == "."
        if not _paths([text], root):  # (a package's: its jest-preset, s56-sreview J)
            _package_preset(text, root, reading)
        for path in _paths([text], root):
            bases = [path, os.path.join(path, "index")] if relative else [
                os.path.join(path, "jest-preset")]
            files = [b + e for b in bases for e in ("", ".json", ".js", ".cjs", ".mjs")
                     if b + e != path or relative]
            reading.paths |= {fold(f) for f in files}
            present = next((f for f in files if fs.entry(f) == "file"), None)
            if relative and fs.entry(os.path.join(path, "package.json")) == "file":
                reading.anything = True
            elif present is not None and present.endswith(".json"):
                found = _settings(present, False) or {}
                _read({k: v for k, v in found.items() if k != "preset"}, root, reading)
            elif present is not None:
                reading.anything = True


def _package_preset(name: str, root: str, reading: _Reading) -> None:
    """Adds to ``reading`` what the package ``name``'s preset holds, found as node finds the
    package from ``root`` up (``node_modules/NAME/jest-preset`` with ``.json``, ``.js``,
    ``.cjs``, ``.mjs``): a JSON one's settings; one that is code is read as settings not
    read (``_Reading.code``: an installed package, guarded whole, that names a project's
    file of another ending is left: docs/decisions.md, s62-mfix)."""
    above = root
    while True:
        base = os.path.join(above, "node_modules", name, "jest-preset")
        try:  # (a package's exports may name another file: code; s57-sreview)
            if b'"exports"' in fs.read(os.path.join(above, "node_modules", name,
                                                    "package.json"), 1 << 20):
                reading.code = True
                return
        except (OSError, ValueError):
            pass
        present = next((base + e for e in (".json", ".js", ".cjs", ".mjs")
                        if fs.entry(base + e) == "file"), None)
        if present is not None and present.endswith(".json"):
            found = _settings(present, False) or {}
            _read({k: v for k, v in found.items() if k != "preset"}, root, reading)
            return
        if present is not None:
            reading.code = True
            return
        if above == os.path.dirname(above):
            return
        above = os.path.dirname(above)


def _projects(value: object, root: str, reading: _Reading) -> None:
    """Adds to ``reading`` what jest's ``projects`` ``value`` (from ``rootDir`` ``root``)
    names: an inline project's settings (its ``rootDir`` from ``root``), each project
    folder's settings files (a glob's: each folder it matches, and a settings file written
    into one it may match)."""
    for project in value if isinstance(value, list) else []:
        if isinstance(project, dict):
            inner = os.path.normpath(os.path.join(root, str(project.get("rootDir", "."))))
            reading.code |= not (inner + "/").startswith(root.rstrip("/") + "/")  # (above)
            _read(project, inner, reading)
        elif isinstance(project, str):
            path = os.path.normpath(os.path.join(root, project.replace("<rootDir>", root)))
            reading.code |= not (path + "/").startswith(root.rstrip("/") + "/")  # (above)
            if any(c in path for c in "*?[{(!"):  # (a folder made later matches too)
                reading.anything |= any(c in path for c in "{(")  # (python's glob reads neither:
                # their folders' settings are read by no one, s62-mreview R12)
                names = "|".join(re.escape(n) for n in (*_CODE_FILES, *dict(_FILES)))
                glob_read = micromatch(path)
                reading.code |= glob_read is None
                reading.patterns += [re.compile(glob_read.pattern.rstrip("$") + f"/(?:{names})$",
                                                re.IGNORECASE)] if glob_read else []
                import glob

                for found in glob.glob(path)[:64]:
                    _folder(found, reading) if fs.is_folder(found) else _file(
                        found, False, os.path.dirname(found), reading)
            elif fs.is_folder(path):
                _folder(path, reading)
            elif fs.entry(path) is not None:  # (a settings file named: its folder's root)
                _file(path, False, os.path.dirname(path), reading)


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
