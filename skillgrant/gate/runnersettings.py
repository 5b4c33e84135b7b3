"""The settings a runner of a collecting package.json script reads (issue 29; split from
``scriptcode`` in session 60): each listed runner's settings files from its run folder up
and its member of a ``package.json`` (s59-mreview S10, S13, S24, S27), prettier's from each
folder it checks (s59-mreview S25, S26, K8), read as data by an allow-list of keys, failing
closed (a file that is code, a key not listed, a file not read as JSON)."""

from __future__ import annotations

import os
import re

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def prettier(folder: str, words: list[str]) -> None:
    """Raises ValueError where prettier 3, given ``words`` in ``folder``, may take settings
    naming code (plugins): it reads, for each file it checks, the nearest of its settings
    files (``_PRETTIER_FILES``, its ``CONFIG_FILE_NAMES``: a ``package.json`` holding a
    ``prettier`` member, ``package.yaml``…) from the file's folder up (s59-mreview S25, S26).
    Each word but an option (an option's value too: over-strict) is a file, a folder or a
    pattern whose files are checked: the settings files of every folder below a folder
    operand or a pattern's folder (``node_modules`` and the version control folders prettier
    skips; past ``_MAX_FOLDERS`` folders, refused) and of every folder up from each are read
    as ``settings`` reads them (s59-mreview K8: ``prettier --check .`` with no settings
    naming code is read)."""
    if "--with-node-modules" in words:
        raise ValueError(f"a script of {folder!r} runs prettier on node_modules' files")
    tops: list[str] = []
    for word in words:
        if word[:1] == "-" or not word:
            continue
        parts = word.split("/")
        at = next((k for k, p in enumerate(parts) if any(c in p for c in "*?[{")), len(parts))
        if any(".." in p or (p[:1] == "." and any(c in p for c in "*?[{"))
               for p in parts[at:]):
            raise ValueError(f"a script of {folder!r} gives prettier {word!r}, a pattern "
                             "that may lead up")  # (`.?/x`, `{..,a}/*`)
        path = os.path.normpath(os.path.join(folder, "/".join(parts[:at])))
        kind = fs.entry(path)
        tops.append(path if kind == "dir" or at < len(parts) else os.path.dirname(path))
        if kind == "dir" or at < len(parts):
            _prettier_below(folder, path)
    for top in dict.fromkeys(tops):
        settings(top, "prettier")


def _prettier_below(folder: str, top: str) -> None:
    """``_prettier``'s reading of the settings files in the folders below ``top`` (not
    through a link: prettier's expansion follows none)."""
    for path in fs.named_below(top, _PRETTIER_FILES, _PRETTIER_SKIPS, _MAX_FOLDERS):
        if path is None:
            raise ValueError(f"a script of {folder!r} runs prettier on over {_MAX_FOLDERS} "
                             "folders, whose settings are not all read")
        _setting(folder, "prettier", path,
                 "prettier" if os.path.basename(path) == "package.json" else None)


def settings(folder: str, name: str) -> None:
    """Raises ValueError where the runner ``name`` of ``_SETTINGS_READ`` (jest's settings:
    ``jestsettings``; npm's: ``planscripts``, ``testroots``) run in ``folder`` finds
    settings that may name code: a settings file of its own (``starttables.STARTS``,
    ``_OWN_SETTINGS``) in ``folder`` or any folder up (each runner searches up: mocha's,
    nyc's, c8's, eslint's, vitest's ``find-up``, ava's to the repository's root; every
    folder up is read, over-strict) that is code (``vitest.config.ts``, ``.mocharc.js``),
    or one, or the member (``_MEMBERS``: mocha's ``mocha``, nyc's ``nyc``) of the nearest
    ``package.json`` up (``_NEAREST``; the others': each one up), holding a key naming code
    (a key not of ``_DATA_KEYS``: ``require``, ``r``, ``plugins``, ``spec``). Its settings
    files are guarded by name; the files they name are not (s59-mreview S10, S13, S27)."""
    from .starttables import STARTS

    if name not in _SETTINGS_READ:
        return
    bases = [e.lstrip("^") for e in _OWN_SETTINGS.get(name) or STARTS[name]]
    bases = [b for b in bases if b != "package.json" and not b.endswith("/")]
    member = _MEMBERS.get(name, name)
    above, nearest = folder, member is None
    while True:
        for base in bases:
            if fs.entry(os.path.join(above, base)) in ("file", "link"):
                _setting(folder, name, os.path.join(above, base), None)
        if not nearest and fs.entry(os.path.join(above, "package.json")) in ("file", "link"):
            nearest = name in _NEAREST
            _setting(folder, name, os.path.join(above, "package.json"), member)
        if above == os.path.dirname(above):
            return
        above = os.path.dirname(above)


def _setting(folder: str, name: str, path: str, member: str | None) -> None:
    """``_settings``' reading of one settings file at ``path`` (``member``: of a
    ``package.json``, its runner's member; none there reads as no settings)."""
    base = os.path.basename(path)
    if base.endswith(CODE_ENDINGS):
        raise ValueError(f"a script of {folder!r} runs {name}, whose settings {path!r} are "
                         "code (they may load any file)")
    import json

    try:  # (JSON only: a YAML one, a settings file of no ending in YAML, is not read)
        data = json.loads(fs.read(path, 1 << 20).decode("utf-8", "replace").removeprefix(
            "\ufeff"))
    except (OSError, ValueError):
        data = None
    if member is not None:
        data = data.get(member, {}) if isinstance(data, dict) else None
    if not isinstance(data, dict) or not all((
            k in _DATA_KEYS and k not in _RUNS_KEYS.get(name, ())) or (
            name == "mocha" and _mochas(k, v)) or (k == "nyc-arg" and (
            isinstance(v, list) and all(isinstance(w, str) and w.split("=", 1)[0] not in
                                        LOADS and not w.endswith(CODE_ENDINGS) for w in v)))
            for k, v in data.items()):  # (tap's `nyc-arg`: `--exclude x/**`)
        raise ValueError(f"a script of {folder!r} runs {name}, whose settings {path!r} "
                         "may name code (a key not read as data, or not JSON)")


def _mochas(key: str, value: object) -> bool:
    """Whether mocha's settings ``key`` of ``value`` is data: its own reporter or interface
    by name (``runneroptions.mocha_named``), test endings of node's (s61-mreview K9)."""
    from .runneroptions import mocha_named

    values = value if isinstance(value, list) else [value]
    if key in ("reporter", "R", "ui", "u"):
        named = mocha_named("-R" if key in ("reporter", "R") else "-u")
        return all(isinstance(v, str) and v in named for v in values)
    return key == "extension" and all(v in ("js", "cjs", "mjs", "ts", "cts", "mts", "jsx",
                                            "tsx") for v in values)


#: The endings of a file node loads as code.
CODE_ENDINGS: Final = (".js", ".cjs", ".mjs", ".jsx", ".ts", ".cts", ".mts", ".tsx", ".node")
#: Options of a runner or a wrapper loading a module or a file as code (a settings file,
#: a file of settings naming code among them): a value that may be a file refuses
#: (``_loads``).
LOADS: Final = frozenset(("-r", "--require", "--import", "--loader", "--experimental-loader",
                           "--plugin", "--plugins", "--rulesdir", "--resolve-plugins-relative-to",
                           "--config", "-c", "--file", "--ui", "-u", "--reporter", "-R",
                           "--setup", "--environment", "--before", "--after", "--node-arg",
                           "-i", "--include", "--test-env", "--extension", "-e", "--package",
                           "--nycrc-path", "--node-arguments", "--workspace", "--spec",
                           "--config-file"))
#: The keys of a runner's JSON settings read as data (an allow-list: any other key, an alias
#: as mocha's `r`, may name code it loads; s59-mreview S10, S24): mocha's, nyc's and c8's
#: thresholds and switches, prettier's formatting, xo's and eslint's rules (not xo's
#: ``prettier``: xo then reads prettier's settings, plugins, from each file's folder up).
_DATA_KEYS: Final = frozenset((
    "timeout", "slow", "recursive", "bail", "exit", "color", "colors", "diff", "parallel",
    "jobs", "retries", "check-leaks", "full-trace", "inline-diffs", "sort", "forbid-only",
    "forbid-pending", "allow-uncaught", "async-only", "grep", "fgrep", "invert", "dry-run",
    "fail-zero", "check-coverage", "checkCoverage", "branches", "lines", "functions",
    "statements", "per-file", "perFile", "all", "cache", "clean", "skip-full", "skipFull",
    "semi", "singleQuote", "tabWidth", "useTabs", "printWidth", "trailingComma",
    "bracketSpacing", "arrowParens", "endOfLine", "quoteProps", "jsxSingleQuote",
    "proseWrap", "htmlWhitespaceSensitivity", "embeddedLanguageFormatting",
    "bracketSameLine", "rules", "space", "envs", "globals", "ignores", "semicolon",
    "verbose", "failFast", "fail-fast", "concurrency", "serial", "test-regex",
    "test-ignore",
    "watch-ignore", "exclude", "include", "excludeAfterRemap", "watermarks"))
#: Keys of ``_DATA_KEYS`` that name the files a runner runs as tests (tap 21's ``include``,
#: tap 16's ``test-regex``: nyc's and c8's ``include`` are the files covered; s61-mreview M4).
_RUNS_KEYS: Final = {"tap": frozenset(("include", "test-regex"))}
#: The runners whose settings ``_settings`` reads (``starttables.STARTS``, or
#: ``_OWN_SETTINGS``: not node's, npm's lockfiles and ``.npmrc``, read as the scripts' own:
#: s60-mfix, a lockfile refused `node --test` at s59).
_SETTINGS_READ: Final = frozenset(("mocha", "vitest", "tap", "ava", "xo", "eslint", "prettier",
                                   "nyc", "c8", "bun", "deno"))
#: Their settings files where ``STARTS`` lists their package manager's: bun's ``bunfig.toml``
#: (its ``[test] preload``: TOML, not read, refuses), deno's ``deno.json`` (its ``imports``
#: map a test's import to any file).
_OWN_SETTINGS: Final = {"bun": ("bunfig.toml",), "deno": ("^deno.json", "^deno.jsonc")}
#: The runners reading the nearest ``package.json`` only (mocha's, nyc's ``find-up``, c8's
#: yargs ``pkgConf``, ava's ``package-config``); the others' members are read from each one
#: up (prettier's, xo's take the nearest holding theirs, eslintrc's each).
_NEAREST: Final = frozenset(("mocha", "nyc", "c8", "ava"))
#: The member of the nearest ``package.json`` each runner reads its settings from (its own
#: name where not listed; None: none; s59-mreview S27: mocha's ``loadPkgRc``; vitest's: vite's
#: postcss-load-config, s60-mreview M9).
_MEMBERS: Final = {"eslint": "eslintConfig", "vitest": "postcss", "bun": None, "deno": None}
#: prettier 3's settings files (its ``CONFIG_FILE_NAMES``), the folders its expansion skips
#: (but given ``--with-node-modules``), the folders read below an operand at most.
_PRETTIER_FILES: Final = frozenset((
    "package.json", "package.yaml", ".prettierrc", ".prettierrc.json", ".prettierrc.yaml",
    ".prettierrc.yml", ".prettierrc.json5", ".prettierrc.js", ".prettierrc.mjs",
    ".prettierrc.cjs", "prettier.config.js", "prettier.config.mjs", "prettier.config.cjs",
    ".prettierrc.toml", ".prettierrc.ts", "prettier.config.ts", ".prettierrc.mts",
    ".prettierrc.cts", "prettier.config.mts", "prettier.config.cts"))
_PRETTIER_SKIPS: Final = frozenset(("node_modules", ".git", ".sl", ".svn", ".hg"))
_MAX_FOLDERS: Final = 5000


def emits_into_tests(folder: str, words: list[str], read: list[str] | None = None) -> bool:
    """Whether tsc run in ``folder`` with its words ``words`` may write its output where a
    runner runs it (s59-mreview S7: ``outDir: test``): a settings file it reads (``-p``,
    ``--project``, or the first ``tsconfig.json`` up; ``-b``'s projects and each one's
    ``references`` after it, as tsc's build mode reads them: s60-mreview K5) not read as
    JSONC, extending a package's (``_emitted``), an ``outFile``, an ``outDir`` or
    ``declarationDir`` (from its file's folder) outside a plain folder below ``folder``
    (``_plain_out``), or no ``outDir`` and no ``noEmit`` (each X.js beside its X.ts:
    s60-mreview M5); a source operand; an option naming where it writes; one of build mode
    not of ``_TSC_BUILD``. (Where a source emits below the out folder is its path below
    ``rootDir``: a source of a test's folder is a test's.) ``read`` gets each settings file's
    guarded paths (``guarded_file``: a session cannot change them after this reading)."""
    build = bool(words) and words[0][:1] == "-" and words[0].lstrip("-").lower() in ("b",
                                                                                   "build")
    pending = _built(folder, words[1:]) if build else _compiled(folder, words, read)
    given_off = any(w.lower() == "--noemit" for w in words)  # (`--noEmit false`: M15)
    seen: set[str] = set()
    while pending:
        path = os.path.normpath(pending.pop())
        if path in seen:
            continue
        seen.add(path)
        if len(seen) > _MAX_PROJECTS:
            return True
        if read is not None:
            read += guarded_file(path)
        if fs.entry(path) is None:
            continue  # (none: tsc writes nothing for it; a file made there is guarded)
        found = _emitted(folder, path, given_off, read)
        if found is None:
            return True
        pending += [_project(os.path.dirname(path), r) for r in found] if build else []
    return pending is None


def _built(folder: str, words: list[str]) -> list[str] | None:
    """The settings files tsc's build mode given ``words`` (after ``-b``) reads first (its
    projects, ``.`` where none); None where an option is not one of ``_TSC_BUILD``."""
    projects, k = [], 0
    while k < len(words):
        option = words[k].lstrip("-").lower() if words[k][:1] == "-" else None
        if option is not None and option not in _TSC_BUILD:
            return None  # (`--generateCpuProfile x`, any not read)
        if option is None:
            projects.append(words[k])
        k += 2 if option == "locale" or words[k + 1:k + 2] in (["true"], ["false"]) else 1
    return [_project(folder, p) for p in projects or ["."]]


def _compiled(folder: str, words: list[str], read: list[str] | None) -> list[str] | None:
    """The settings file tsc given ``words`` reads (``-p``'s, a folder's ``tsconfig.json``,
    or the first ``tsconfig.json`` from ``folder`` up: findConfigFile; each one missing below
    it to ``read``); None where an option names where it writes or a word is a source (its
    X.js beside: ``tsc nyc.config.ts``)."""
    if any(w[:1] == "-" and w.lstrip("-").lower() in (*_TSC_OUT, "b", "build") for w in words):
        return None  # (`--outDir test` on the command line; `-b` not first: an error)
    if any(w[:1] != "-" and w not in ("true", "false") and (
            k == 0 or words[k - 1].lstrip("-").lower() not in _TSC_VALUED)
           for k, w in enumerate(words)):
        return None
    named = [words[k + 1] for k, w in enumerate(words[:-1]) if w.lower() in ("-p", "--project")]
    if named:
        path = os.path.join(folder, named[0])
        return [os.path.join(path, "tsconfig.json") if fs.entry(path) == "dir" else path]
    above = folder
    while fs.entry(os.path.join(above, "tsconfig.json")) is None and above != os.path.dirname(
            above):
        if read is not None:
            read += guarded_file(os.path.join(above, "tsconfig.json"))
        above = os.path.dirname(above)
    return [os.path.join(above, "tsconfig.json")]


def _project(folder: str, name: str) -> str:
    """The settings file of the project ``name`` of tsc's build mode (a word, a reference's
    ``path``) from ``folder`` (TypeScript's ``resolveConfigFileProjectName``)."""
    path = os.path.join(folder, name)
    return path if path.endswith(".json") else os.path.join(path, "tsconfig.json")


def _emitted(folder: str, path: str, given_off: bool,
             read: list[str] | None) -> list[str] | None:
    """``emits_into_tests``' reading of the settings file at ``path`` (JSONC, as tsc's
    parser reads it: comments, trailing commas) with each file it ``extends`` by a relative
    path (added to ``read``; the nearer file's options win, each out folder from its own
    file's folder; s61-mreview K4, K5): its ``references``' paths; None where it may write
    outside ``_plain_out``'s folders, or extends a package's settings."""
    settings, at = _jsonc(path), path
    options: dict[str, tuple[object, str]] = {}
    top: dict[str, object] = {}
    references = settings.get("references", []) if isinstance(settings, dict) else None
    for _ in range(_MAX_PROJECTS):
        own = settings.get("compilerOptions", {}) if isinstance(settings, dict) else None
        if not isinstance(own, dict) or not isinstance(settings, dict):
            return None
        for key, value in own.items():
            options.setdefault(key.lower(), (value, os.path.dirname(at)))
        top.update({k: settings[k] for k in ("files", "include") if k in settings and
                    k not in top})
        base = settings.get("extends")
        if base is None:
            break
        if not isinstance(base, str) or base[:1] != ".":
            return None  # (a package's settings, a list: not read)
        at = os.path.normpath(os.path.join(os.path.dirname(at), base))
        at = at if fs.entry(at) == "file" or at.endswith(".json") else at + ".json"
        if read is not None:
            read += guarded_file(at)
        settings = _jsonc(at)
    else:
        return None
    if not isinstance(references, list) or not all(isinstance(r, dict) and isinstance(r.get(
            "path"), str) for r in references) or "outfile" in options or "out" in options:
        return None  # (a bundle of its own name: a test's, a runner's settings; s61 M2b)
    outs = [(str(v), b) for k, (v, b) in options.items() if k in _TSC_OUT]
    if "outdir" not in options and (options.get("noemit", (None,))[0] is not True or
                                    given_off) and not (
            top.get("files") == [] and "include" not in top):  # (a solution's: none)
        return None  # (X.js beside each X.ts: `ava.config.ts`'s ava.config.js, a runner's
        # code settings; s60-mreview M5; declarationDir places the .d.ts only: s61 M7)
    if not all(_plain_out(folder, os.path.join(b, o)) for o, b in outs):
        return None
    return [r["path"] for r in references]


def _jsonc(path: str) -> object:
    """The JSON with comments and trailing commas at ``path`` read (None where it is not)."""
    import json

    text = fs.text(path, 1 << 20)
    if text is None:
        return None
    out, k = [], 0
    while k < len(text):
        part = _JSONC_PART.match(text, k)
        if part is None:  # (a string not ended, a comment not ended)
            return None
        word = part.group()
        if word[:2] in ("//", "/*"):
            out.append(" ")
        elif word != "," or _CLOSING.match(text, part.end()) is None:  # (a trailing comma
            out.append(word)  # dropped)
        k = part.end()
    try:
        return json.loads("".join(out).removeprefix("\ufeff"))
    except ValueError:
        return None


def _plain_out(folder: str, out: str) -> bool:
    """Whether the folder ``out`` tsc writes into lies strictly below ``folder`` through plain
    parts only: none a test folder's name (``testnames.JS_FOLDERS``, ava's and tap's
    ``tests``), ``node_modules`` (a package a test requires), a dot folder's (``.claude``,
    ``.git``), or the run folder itself or one above it (``outDir: "."``, ``rootDir: "src"``:
    ``src/nyc.config.ts`` becomes ``./nyc.config.js``, which nyc loads)."""
    from .testnames import JS_FOLDERS

    parts = os.path.relpath(os.path.normpath(out), folder).split("/")
    return parts != ["."] and not any(
        p[:1] == "." or p in JS_FOLDERS or p in ("tests", "__test__", "node_modules")
        for p in parts)


def guarded_file(path: str) -> list[str]:
    """The entries ``testroots.first_loaded`` guards for a settings file at ``path`` a runner
    of a script reads (there or not yet): the file by its path and its real path, and each
    folder above either exactly (``\x01``: a folder moved or linked there brings another
    file), not what else they hold."""
    found: list[str] = []
    for spelled in dict.fromkeys((os.path.normpath(path), fs.realpath(path))):
        found.append(spelled)
        above = os.path.dirname(spelled)
        while above != os.path.dirname(above):
            found.append("\x01" + above)
            above = os.path.dirname(above)
    return found


#: A part of a JSONC text: a run of plain characters, a string, a comment, a comma, a slash.
_JSONC_PART: Final = re.compile(r'[^"/,]+|"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/|,|/(?![/*])',
                                re.DOTALL)
_CLOSING: Final = re.compile(r"(?>\s|//[^\n]*|/\*.*?\*/)*+[}\]]", re.DOTALL)
#: tsc's options naming where it writes (folded).
_TSC_OUT: Final = frozenset(("outdir", "outfile", "declarationdir", "out"))
#: tsc's build mode options read (folded; TypeScript 5's ``buildOpts``: none naming a file
#: but ``locale``'s value, a name): any other (``--generateCpuProfile``,
#: ``--generateTrace``) makes it write where the gate does not read.
_TSC_BUILD: Final = frozenset((
    "verbose", "v", "dry", "d", "force", "f", "clean", "stopbuildonerrors", "help", "h", "?",
    "watch", "w", "preservewatchoutput", "listfiles", "explainfiles", "listemittedfiles",
    "pretty", "traceresolution", "diagnostics", "extendeddiagnostics", "incremental", "i",
    "declaration", "declarationmap", "emitdeclarationonly", "sourcemap", "inlinesourcemap",
    "nocheck", "noemit", "assumechangesonlyaffectdirectdependencies", "locale"))
#: tsc's options taking the next word (folded; any other word not an option is a source).
_TSC_VALUED: Final = frozenset(("p", "project", "t", "target", "m", "module", "lib", "jsx",
                                "moduleresolution", "locale", "newline", "moduledetection"))
#: The projects a build reads at most (each settings file with its references).
_MAX_PROJECTS: Final = 200
