"""How jest 29.7 is run by a plan (issue 29, reviews s56-sreview J, s57-sreview): the words
given to it read as its yargs reads them (``yargs``, with jest-cli's own options table), the
words the package.json scripts give it (``script_words``), whether the plan may run it with
words the gate does not read (``unseen``), and where its settings are found (``above``,
``CACHE``). ``jestsettings`` reads what these make jest load."""

from __future__ import annotations

import json
import os
import re

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: jest 29.7's command line options (jest-cli's ``args.options``, read as yargs reads them:
#: kebab case as camel case, ``--no-x``, ``--x=v``, short clusters ``-ic``): those taking no
#: value, those taking every word up to the next option, and the short names.
_FLAGS: Final = frozenset((
    "all", "automock", "bail", "cache", "changedFilesWithAncestor", "ci", "clearCache",
    "clearMocks", "collectCoverage", "color", "colors", "coverage", "debug", "detectLeaks",
    "detectOpenHandles", "errorOnDeprecated", "expand", "findRelatedTests", "forceExit",
    "init", "injectGlobals", "json", "lastCommit", "listTests", "logHeapUsage",
    "noStackTrace", "notify", "onlyChanged", "onlyFailures", "passWithNoTests", "randomize",
    "resetMocks", "resetModules", "restoreMocks", "runInBand", "runTestsByPath", "showConfig",
    "showSeed", "silent", "skipFilter", "testLocationInResults", "updateSnapshot", "useStderr",
    "verbose", "watch", "watchAll", "watchman", "workerThreads", "help", "version"))
_ARRAYS: Final = frozenset((
    "coveragePathIgnorePatterns", "coverageReporters", "ignoreProjects", "moduleDirectories",
    "moduleFileExtensions", "modulePathIgnorePatterns", "modulePaths", "projects", "reporters",
    "roots", "selectProjects", "setupFiles", "setupFilesAfterEnv", "snapshotSerializers",
    "testMatch", "testPathIgnorePatterns", "testPathPattern", "testRegex",
    "transformIgnorePatterns", "unmockedModulePathPatterns", "watchPathIgnorePatterns"))
_VALUED: Final = frozenset((
    "cacheDirectory", "changedSince", "collectCoverageFrom", "config", "coverageDirectory",
    "coverageProvider", "coverageThreshold", "env", "filter", "globalSetup", "globalTeardown",
    "globals", "haste", "maxConcurrency", "maxWorkers", "moduleNameMapper", "notifyMode",
    "openHandlesTimeout", "outputFile", "preset", "prettierPath", "resolver", "rootDir",
    "runner", "seed", "shard", "testEnvironment", "testEnvironmentOptions",
    "testFailureExitCode", "testNamePattern", "testResultsProcessor", "testRunner",
    "testSequencer", "testTimeout", "transform"))
_SHORT: Final = {"b": "bail", "c": "config", "e": "expand", "o": "onlyChanged",
                 "f": "onlyFailures", "i": "runInBand", "t": "testNamePattern",
                 "u": "updateSnapshot", "w": "maxWorkers", "h": "help"}

def yargs(words: list[str]) -> list[tuple[str | None, str]]:
    """The (option, value) pairs jest's yargs makes of ``words`` (``jestsettings._options``); an
    option not read (unknown, or a short cluster of another form) as ``(None, "")``."""
    found: list[tuple[str | None, str]] = []
    option, at = "", 0
    while at < len(words):
        word = words[at]
        at += 1
        if word == "--":
            break
        if word[:2] == "--":
            name, equals, value = word[2:].partition("=")
            name = re.sub(r"-([a-z])", lambda m: m.group(1).upper(), name)
            name = name[2].lower() + name[3:] if name[:2] == "no" and name[2:3].isupper() and \
                name[2].lower() + name[3:] in _FLAGS else name
            names = [name]
        elif word[:1] == "-" and len(word) > 1:
            letters, equals, value = word[1:].partition("=")
            if not letters.isalpha():
                found.append((None, ""))
                continue
            names = [_SHORT.get(c, "") for c in letters]
        else:
            found += [(option, word)] if option else []
            option = option if option in _ARRAYS else ""
            continue
        option = ""
        for name in names:
            if name not in _FLAGS | _ARRAYS | _VALUED:
                found.append((None, ""))
            elif name not in _FLAGS:
                option = name
        if option and equals:
            found.append((option, value))
            option = option if option in _ARRAYS else ""
    return found


def present(folder: str, guards: object = None) -> bool:
    """Whether jest may run in ``folder``: the plan's makefile there, or a file make reads
    from it (an include, a sub-make's makefile: ``buildnames``), names jest (a variable's
    value may, a sub-make's recipe may: s57-sreview J6; of ``guards``); a ``package.json``
    there or above names jest; a ``node_modules/jest`` is there or above; a ``jest`` is on
    the ``PATH``; or it holds a test jest's defaults collect (``_tests``)."""
    if folder in getattr(guards, "jest_by_make", ()):  # (`buildnames`)
        return True
    above = folder
    while True:
        for name in ("package.json",):
            try:
                if b"jest" in fs.read(os.path.join(above, name), 1 << 22):
                    return True
            except (OSError, ValueError):
                pass
        if fs.entry(os.path.join(above, "node_modules", "jest")) is not None:
            return True
        if above == os.path.dirname(above):
            break
        above = os.path.dirname(above)
    return any(fs.entry(os.path.join(p, "jest")) is not None
               for p in os.environ.get("PATH", "").split(":") if p[:1] == "/") or _tests(
        folder) or _runs_named(folder, guards)


def _runs_named(folder: str, guards: object) -> bool:
    """Whether a program the plan of ``guards`` runs in ``folder`` may run jest (s58-mreview
    J6c, J6d): read from the plan's entries' texts and, where they run make or cmake,
    ``folder``'s build files (a makefile, ``CMakeLists.txt``), through each project file a
    word of a text read names that runs (an executable file, a shell script: ``.sh``, a
    ``#!`` line, a shell's operand: a recipe's ``sh scripts/test.sh``, the plan's
    ``./ci.sh``, cmake's ``execute_process``): a text naming jest or running a package
    manager (``cd web && npm test``: another package's scripts), a file whose real path
    does (``tools/runner -> …/jest/bin/jest.js``), a shell script not read as plain shell
    words (``planscripts.commands``: ``${J}st``), a file past ``_READ_LIMIT``, or more than
    ``_READ_FILES`` files to read, takes jest as present (fail closed). A program's bytes,
    another interpreter's script, are searched for jest's name only (a name computed when
    it runs is a residual: docs/decisions.md, session 59)."""
    from .planscripts import plan_entries

    texts = [e.encode("utf-8", "replace") for e in plan_entries(guards)]
    built = any(_BUILDS.search(t) for t in texts) or not texts
    pending = [(os.path.join(folder, n), b"") for n in _BUILD_FILES] if built else []
    seen = {p for p, _ in pending}
    top = fs.realpath(folder) + "/"
    read = 0
    bases = {folder}
    texts = texts or [b""]
    while texts:
        if any(b"jest" in t or (read and _PACKAGES.search(t)) for t in texts):
            return True  # (a file's text running a package's scripts: a recipe's `cd web &&
            # npm test`, s59-mreview J3; the plan's own `npm test` reads its package.json)
        if any(_MANY_OPTIONS.search(t[:_READ_LIMIT]) for t in texts):
            return True  # (an interpreter given over 64 options: its operand not read, M24)
        operands = {w: b"sh" if shell else b"code" for t in texts
                    for shell, w in _OPERAND.findall(t[:_READ_LIMIT])}  # (`sh runtests`,
        # `node scripts/test.js`: run, whatever their mode)
        operands.update((w, b"mk") for t in texts for w in _MAKEFILE.findall(t[:_READ_LIMIT]))
        bases |= {os.path.normpath(os.path.join(folder, w.decode("utf-8", "replace")))
                  for t in texts for w in _MOVE.findall(t[:_READ_LIMIT])}  # (`cd ci && …`)
        for token in dict.fromkeys(w for t in texts for w in _TOKEN.findall(t[:_READ_LIMIT])):
            for base in bases:
                path = os.path.normpath(os.path.join(base, token.decode("utf-8", "replace")))
                if path not in seen:
                    seen.add(path)
                    if len(seen) > _MAX_ASKED:
                        return True  # (s60-mreview M20: fail closed)
                    pending.append((path, operands.get(token, b"")))
                    pending += [(os.path.join(path, n), b"") for n in _BUILD_FILES
                                if built and fs.entry(path) == "dir"]  # (a sub-folder's:
                    # cmake's `add_subdirectory(web)`, make's `-C web`)
        taken = _take(pending, top, bases)
        if taken is None or read > _READ_FILES:
            return True
        read += bool(taken)
        texts = taken
    return False


def _program_text(path: str, given: bytes, top: str) -> bytes | None:
    """The text of the project file ``path`` if it runs (``_runs_named``; ``given``: ``sh``
    for a shell's operand, ``code`` for an interpreter's, whatever its mode), a shell
    script's with its words unquoted after it (b"" where it runs
    not: a folder, no file, a source, a data file); None where jest may be it: its real
    path below the project's real folder ``top`` (or whole, outside) names jest, it is past
    ``_READ_LIMIT``, or a shell script not read."""
    if fs.entry(path) not in ("file", "link"):
        return b""
    real = fs.realpath(path)  # (its own name, not the project's: `…/jest-x/p`)
    if "jest" in (real[len(top):] if real.startswith(top) else real):
        return None
    try:
        text = fs.read(path, _READ_LIMIT + 1)
    except (OSError, ValueError):
        return b""  # (a folder a link leads to, or none: nothing run)
    script = _shell_script(path, given, text)
    if not script and not given and not os.access(path, os.X_OK) and text[:2] != b"#!" and \
            not _built(path, given):
        return b""  # (a source, a data file, an object file: run by no one by itself)
    if len(text) > _READ_LIMIT or (_built(path, given) and _RECIPE_GLOB.search(text)):
        return None  # (a recipe's program by a glob: `…/je*t --config ci.json`)
    if script:
        from .planscripts import commands, program_at  # (a shell script: dash's words)

        read = commands("\n".join(n for n in text.decode("utf-8", "replace").splitlines()
                                   if n.lstrip()[:1] != "#"))
        if read is None or any(_GLOB.search(c[program_at(c)]) and c[program_at(c)] not in (
                "[", "[[") for c in read if program_at(c) < len(c)):  # (words not
            return None  # plain: `${J}st`; a glob, `…/je*t`: s59-mreview J2)
        return text + b"\n" + " ".join(w for c in read for w in c).encode()  # (`je''st`)
    return text


def _take(pending: list[tuple[str, bytes]], top: str, bases: set[str]) -> list[bytes] | None:
    """The next text ``_runs_named`` follows the words of, from ``pending`` (popped; its
    folder added to ``bases``): a build file's, a shell script's, the paths of another
    interpreter's script (s59-mreview J9); [] where none is left; None where jest may run
    (``_program_text``, a program's bytes naming it)."""
    while pending:
        path, shell = pending.pop()
        text = _program_text(path, shell, top)
        if text is None or (b"\0" in text and b"jest" in text):
            return None
        if not text or b"\0" in text:
            continue  # (not run; a program's bytes without the name)
        bases.add(os.path.dirname(path))  # (a script's own folder)
        if _built(path, shell) or _shell_script(path, shell, text):
            return [text]
        return [b" ".join(a or b for a, b in _PATHS.findall(text)) + (
            b" jest" if b"jest" in text else b"")]
    return []


def _built(path: str, given: bytes) -> bool:
    """Whether the file ``path`` is a build file (a makefile, ``CMakeLists.txt``, a ``.mk``,
    one ``-f`` names: ``given`` ``mk``; s59-mreview J10)."""
    return given == b"mk" or os.path.basename(path) in _BUILD_FILES or path.endswith((
        ".mk", ".make", ".cmake"))


def _shell_script(path: str, given: bytes, text: bytes) -> bool:
    """Whether the file ``path`` of the text ``text`` (``given``: ``_program_text``'s) is
    a shell script: its ``#!`` line a shell's, or none and a shell's operand or ``.sh``."""
    return _SHELL_LINE.match(text.split(b"\n", 1)[0]) is not None or (
        (given == b"sh" or path.endswith(".sh")) and text[:2] != b"#!")


#: A script's first line naming a shell (its other lines are read as dash reads them).
_SHELL_LINE: Final = re.compile(rb"#![ \t]*/(?:usr/)?bin/(?:env[ \t]+)?(?:ba|da)?sh[ \t]*\r?$")
#: The build files a plan's make or cmake reads from its folder, and their programs' names.
_BUILD_FILES: Final = ("GNUmakefile", "makefile", "Makefile", "CMakeLists.txt")
_BUILDS: Final = re.compile(rb"(?:^|[\s;&|/])(?:g?make|cmake)(?:$|[\s;&|])")
#: A word of a text that may name a project file (``scripts/test.sh``, ``./ci.sh``,
#: ``runtests``), and one a shell is given (``sh runtests``: a script of any name).
_TOKEN: Final = re.compile(rb"[A-Za-z0-9_.][A-Za-z0-9_.+@/-]*")
#: A glob's characters in a shell script's program, and a makefile recipe's (a line after a
#: tab, or after ``;``/``&&``) program holding one.
_GLOB: Final = re.compile(r"[*?\[]")
_RECIPE_GLOB: Final = re.compile(rb"(?m)(?:^\t|&&|;|\|\|)[ \t@+-]*+(?=[^\s;&|()]*?[*?\[])"
                                 rb"(?!\[\[?\s)(?=[^\s;&|()=]*?[A-Za-z0-9_])[^\s;&|()]*+"
                                 rb"(?=\s|$)")  # (each word scanned once: s60-mreview M13)
#: A package manager running a package's scripts or bins (jest among them, with that
#: package's settings: its folder is none the plan collects in).
_PACKAGES: Final = re.compile(rb"(?:^|[\s;&|(@])(?:npm|npx|yarn|pnpm|pnpx|bunx?)(?=[ \t])")
#: A makefile ``-f`` names (``$(MAKE) -f ci.mk``), and a path in another interpreter's
#: script (``'scripts/run.sh'``: a ``/`` or an ending).
_MAKEFILE: Final = re.compile(rb"(?:^|\s)(?:-f[ \t]*|--file=|--makefile=)([A-Za-z0-9_.][^\s;&|]*)")
_PATHS: Final = re.compile(rb"(?<![A-Za-z0-9_.+@-])[+@-]*+([A-Za-z0-9_.][A-Za-z0-9_.+@-]*+"
                           rb"(?:/[A-Za-z0-9_.+@-]++)+)|(?<![A-Za-z0-9_-])([A-Za-z0-9_-]++"
                           rb"\.(?:sh|js|cjs|mjs|ts|py|pl|rb|mk|json)\b)")  # (from a word's
# start only, each run scanned once: a 40 KB word took 17.8 s, s60-mreview M13)
#: A ``cd``'s folder in a text (its words after it are looked for there too).
_MOVE: Final = re.compile(rb"(?:^|[\s;&|(])(?:cd|pushd)[ \t]+([A-Za-z0-9_.][A-Za-z0-9_.+@/-]*)")
#: An interpreter's word (a shell's, its folder's parts before it; a quote starting a word):
#: ``_OPERAND`` takes 64 of its options at most before its operand (each word scanned by 65
#: starts at most: s60-mreview M18, M21, M24), ``_MANY_OPTIONS`` finds one given more (jest
#: is then present: fail closed). A start's character ends a folder's part (M24b: it starts
#: a match of its own).
_RUNNER: Final = (rb"(?:^|[\s;&|(=\[,`])[\"']?(?:[^\s;&|()/\"'=\[,`]*+[\"']?/)*+[\"']?(?:("
                  rb"(?:ba|da|z|k|mk)?sh|\$[({]SHELL[)}])|node|nodejs|python[\d.]*|perl|ruby|"
                  rb"php|bun|deno|tsx|ts-node|tclsh|lua)[ \t]++")
_OPERAND: Final = re.compile(_RUNNER + rb"(?:-\S*+[ \t]++){0,64}+([A-Za-z0-9_.][A-Za-z0-9_.+@/-]*)")
_MANY_OPTIONS: Final = re.compile(_RUNNER + rb"(?:-\S*+[ \t]++){65}")
#: The paths (a word joined to each folder a ``cd`` names) ``_runs_named`` asks about at most;
#: past it, jest is present (1,000 `cd`s x 1,000 words took 25 s: s60-mreview M20).
_MAX_ASKED: Final = 20_000
#: How much of a file is read for jest's name, and how many files.
_READ_LIMIT: Final = 1 << 20
_READ_FILES: Final = 64


#: A name jest's default ``testMatch`` takes (``x.test.js``, ``x.spec.ts``) or its folder.
_TEST_NAME: Final = re.compile(r"(?:\.(?:test|spec)\.[cm]?[jt]sx?|^__tests__)$")


def _tests(folder: str) -> bool:
    """Whether ``folder``, or its ``test``, ``tests``, ``__tests__``, ``src`` folder, holds a
    name jest's default ``testMatch`` takes (s57-sreview: a recipe may name a jest installed
    anywhere, by a variable)."""
    for sub in ("", "test", "tests", "__tests__", "src"):
        try:
            names = os.listdir(os.path.join(folder, sub))
        except OSError:
            continue
        if any(_TEST_NAME.search(n) for n in names):
            return True
    return False


def unseen(guards: object, folder: str) -> bool:
    """Whether the plan of ``guards`` may run jest with words the gate does not read: an
    entry that runs neither an npm script, jest, nor a program of ``planscripts._INERT``
    (``make test``), or a script of ``folder``'s ``package.json`` the plan runs holding a
    command that is neither (``node node_modules/jest/bin/jest.js``; a shell script file's
    own commands: ``scriptfolders.files_seen``)."""
    from .planscripts import Elsewhere, plan_scripts, script_closure, seen
    from .scriptfolders import files_seen

    try:
        names = plan_scripts(guards, "jest")
        if names is None:
            return True
        data = json.loads(fs.read(os.path.join(folder, "package.json"), 1 << 22))
        scripts = data.get("scripts") if isinstance(data, dict) else None
        scripts = {k: v for k, v in scripts.items() if isinstance(v, str)} if isinstance(
            scripts, dict) else {}
        return not all(seen(t) or files_seen(folder, t)
                       for t in script_closure(scripts, names, folder).values())
    except Elsewhere:
        return True
    except (OSError, ValueError):
        return False  # (no package.json: no script; one that cannot be read: `_folder`)


def above(folder: str, names: tuple[str, ...]) -> bool:
    """Whether jest run in ``folder`` takes its settings from a folder above (``folder``
    holds none of the settings files ``names``: jest walks up to the first holding one,
    not read here; s56-sreview J)."""
    if any(fs.entry(os.path.join(folder, n)) is not None for n in names):
        return False
    above = os.path.dirname(folder)
    while above != os.path.dirname(above):
        if any(fs.entry(os.path.join(above, n)) is not None for n in names):
            return True
        above = os.path.dirname(above)
    return False


def script_words(folder: str) -> tuple[list[tuple[str, list[str]]], bool]:
    """The words the ``package.json`` scripts of ``folder`` give jest, each with the folder
    it runs in (after ``jest`` in a command of one: ``"test": "jest --config jest.ci.json"``,
    s55-greview3 J4; after a ``cd``: ``cd pkg/a && jest``, s56-sreview J); a script naming
    jest that is not read (``planscripts.commands``), or naming it otherwise than as the
    program ``jest`` (``node node_modules/jest/bin/jest.js``), or a ``cd`` without one plain
    operand, is code (the answer's second item)."""
    from .planscripts import commands, program_at

    try:
        data = json.loads(fs.read(os.path.join(folder, "package.json"), 1 << 22))
    except (OSError, ValueError):
        return [], False  # (one that cannot be read is refused by `jestsettings`)
    scripts = data.get("scripts") if isinstance(data, dict) else None
    found, code = [], False
    scripts = {k: v for k, v in scripts.items() if isinstance(v, str)} if isinstance(
        scripts, dict) else {}
    for text in scripts.values():
        read = commands(text)  # (`j''est`: jest; a script the plan runs that is not read:
        code |= read is None and "jest" in text  # `_unseen`)
        base = folder
        for words in read or []:
            words = words[program_at(words):] or ["true"]  # (`A=1 cd pkg/a`: s57-sreview)
            at = next((i for i, w in enumerate(words) if os.path.basename(w) == "jest"),
                      None)
            named = _script_run(words)
            if words[0] in ("cd", "pushd"):
                code |= len(words) != 2
                base = os.path.normpath(os.path.join(base, words[-1]))
            if at is not None:
                found.append((base, words[at + 1:]))
            elif any("jest" in w for w in words) and not named:
                code = True
            if "--" in words and any("jest" in scripts.get(n, "") for n in named):
                found.append((base, words[words.index("--") + 1:]))  # (`npm run unit -- …`)
    return found, code


def _script_run(words: list[str]) -> list[str]:
    """The scripts the command ``words`` runs by name (``npm run test:jest``)."""
    from .planscripts import Elsewhere, script_names

    try:
        return script_names(words) or []
    except Elsewhere:
        return []


def _base36(number: int) -> str:
    """``number`` in base 36, as JavaScript's ``toString(36)`` writes it."""
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
        if not number:
            return digits


def cache() -> str:
    """jest's default cache folder (``cacheDirectory``: ``os.tmpdir()``'s ``jest_`` and the
    user's number in base 36), whose transformed code jest runs: of the session's ``TMPDIR``
    (``environment.values``: a served call's own)."""
    from .environment import values

    return os.path.join(values(("TMPDIR",))[0] or "/tmp", f"jest_{_base36(os.getuid())}")
