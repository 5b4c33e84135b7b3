"""The settings a runner of a collecting package.json script reads (issue 29; split from
``scriptcode`` in session 60): each listed runner's settings files from its run folder up
and its member of a ``package.json`` (s59-mreview S10, S13, S24, S27), prettier's from each
folder it checks (s59-mreview S25, S26, K8), read as data by an allow-list of keys, failing
closed (a file that is code, a key not listed, a file not read as JSON)."""

from __future__ import annotations

import os

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def prettier(folder: str, words: list[str]) -> None:
    """Raises ValueError where prettier 3, given ``words`` in ``folder``, may take settings
    naming code (plugins): it reads, for each file it checks, the nearest of its settings
    files (``PRETTIER_FILES``, its ``CONFIG_FILE_NAMES``: a ``package.json`` holding a
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
    for path in fs.named_below(top, PRETTIER_FILES, _PRETTIER_SKIPS, _MAX_FOLDERS):
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
            _named_key(folder, name, k, v)) or (k == "nyc-arg" and (
            isinstance(v, list) and all(isinstance(w, str) and w.split("=", 1)[0] not in
                                        LOADS and not w.endswith(CODE_ENDINGS) for w in v)))
            for k, v in data.items()):  # (tap's `nyc-arg`: `--exclude x/**`)
        raise ValueError(f"a script of {folder!r} runs {name}, whose settings {path!r} "
                         "may name code (a key not read as data, or not JSON)")


def _named_key(folder: str, name: str, key: str, value: object) -> bool:
    """Whether the settings ``key`` of ``value`` of the runner ``name`` is data read as its
    option is: nyc's, c8's ``reporter`` of istanbul's own reporters (s61-mreview K12);
    mocha's reporter or interface by its own name (``runneroptions.mocha_named``), test
    endings of node's, a ``spec`` read as its operands are from the run ``folder``
    (``runneroptions.operands``; s61-mreview K9)."""
    from .runneroptions import NAMED, mocha_named, operands

    values = value if isinstance(value, list) else [value]
    if name in ("nyc", "c8") and key == "reporter":
        return all(isinstance(v, str) and v in NAMED[("tap", "--coverage-report")]
                   for v in values)
    if name != "mocha":
        return False
    if key == "spec":
        try:
            operands(folder, "mocha", [v if isinstance(v, str) and v[:1] != "-" else "-"
                                       for v in values])
        except ValueError:
            return False
        return all(isinstance(v, str) and v[:1] != "-" for v in values)
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
PRETTIER_FILES: Final = frozenset((
    "package.json", "package.yaml", ".prettierrc", ".prettierrc.json", ".prettierrc.yaml",
    ".prettierrc.yml", ".prettierrc.json5", ".prettierrc.js", ".prettierrc.mjs",
    ".prettierrc.cjs", "prettier.config.js", "prettier.config.mjs", "prettier.config.cjs",
    ".prettierrc.toml", ".prettierrc.ts", "prettier.config.ts", ".prettierrc.mts",
    ".prettierrc.cts", "prettier.config.mts", "prettier.config.cts"))
_PRETTIER_SKIPS: Final = frozenset(("node_modules", ".git", ".sl", ".svn", ".hg"))
_MAX_FOLDERS: Final = 5000
