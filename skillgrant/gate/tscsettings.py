"""What tsc writes where a script runs it (issue 29; split from ``runnersettings`` in
session 61): the settings files it reads as TypeScript 5.6 reads them (``-p``'s, the first
``tsconfig.json`` up, build mode's projects and their ``references``; JSONC; each
``extends``), each guarded (``testroots.first_loaded``), and whether its output may land
where a runner runs it (an out folder not plainly below the run folder, X.js beside X.ts)."""

from __future__ import annotations

import os
import re

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


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
            read += guarded_file(folder, path)
        if fs.entry(path) is None:
            continue  # (none: tsc writes nothing for it; a file made there is guarded)
        found = _emitted(folder, path, given_off, read)
        if found is None:
            return True
        pending += [_project(os.path.dirname(path), r) for r in found] if build else []
    if pending is not None and read is not None:  # (its sources named as a runner's code
        read.append("\x02" + fs.realpath(folder))  # settings once emitted: s61-mreview M11)
    return pending is None


def emitted_settings(name: str) -> bool:
    """Whether the folded file ``name`` is a TypeScript source tsc emits as a runner's code
    settings file (``prettier.config.tsx``: ``prettier.config.js``, which prettier reads in
    each folder it checks; ``.babelrc.cts``; any name of ``starttables.STARTS``)."""
    if not _EMITTED:
        from .runnersettings import PRETTIER_FILES
        from .starttables import STARTS

        for entry in (*(e for v in STARTS.values() for e in v), *PRETTIER_FILES):
            stem, dot, ending = entry.lstrip("^").rpartition(".")
            if dot and "/" not in stem and ending in _SOURCES:
                _EMITTED.update(f"{stem}.{e}".lower() for e in _SOURCES[ending])
    return name in _EMITTED


#: The sources tsc emits each ending from, and the names ``emitted_settings`` holds (once).
_SOURCES: Final = {"js": ("ts", "tsx", "jsx"), "mjs": ("mts",), "cjs": ("cts",)}  # (allowJs: M11b)
_EMITTED: set[str] = set()


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
            read += guarded_file(folder, os.path.join(above, "tsconfig.json"))
        above = os.path.dirname(above)
    return [os.path.join(above, "tsconfig.json")]


def ts_node_reads(folder: str) -> tuple[list[str], bool]:
    """The ``tsconfig.json`` files ts-node (jest's loader of a ``jest.config.ts`` in
    ``folder``) may take settings from (``folder``'s and each above: TypeScript's
    findConfigFile takes the first from the run folder, which may be above ``folder``:
    s62-mreview R15b), and whether one may give ts-node options (a ``ts-node`` key: its
    ``require``, ``compiler``, ``transpiler`` load modules; an ``extends``; a backslash,
    which may spell either; a file not read): s62-mreview R15."""
    found, options, above = [], False, folder
    while True:
        found.append(os.path.join(above, "tsconfig.json"))
        if fs.entry(found[-1]) is not None:
            text = fs.text(found[-1], 1 << 20)
            options |= text is None or any(m in text for m in ("ts-node", "extends", "\\"))
        if above == os.path.dirname(above):
            return found, options
        above = os.path.dirname(above)


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
        if not isinstance(base, str) or "$" in base or base[:1] == "/":
            return None  # (a list, `${configDir}`: not read)
        at = _extended(os.path.dirname(at), base)
        if read is not None:
            read += guarded_file(folder, at)
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
    if not all("$" not in o and _plain_out(folder, os.path.join(b, o)) for o, b in outs):
        return None  # (`${configDir}`, TypeScript 5.5's: the settings' folder; s61 M8)
    return [r["path"] for r in references]


def _extended(folder: str, base: str) -> str:
    """The file an ``extends`` of ``base`` in ``folder`` names: a relative path (``.json``
    added where no file is there), or a package's (``@tsconfig/node20/tsconfig.json``, a
    package's ``tsconfig.json``) in the first ``node_modules`` up holding it (s61 K4b)."""
    if base[:1] == ".":
        at = os.path.normpath(os.path.join(folder, base))
        return at if fs.entry(at) == "file" or at.endswith(".json") else at + ".json"
    while True:
        at = os.path.join(folder, "node_modules", base)
        for path in (at, at + ".json", os.path.join(at, "tsconfig.json")):
            if fs.entry(path) == "file":
                return path
        if folder == os.path.dirname(folder):
            return at  # (none: not read, refused)
        folder = os.path.dirname(folder)


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


def guarded_file(folder: str, path: str) -> list[str]:
    """The entries ``testroots.first_loaded`` guards for a settings file at ``path`` tsc run
    in ``folder`` reads (there or not yet): the file by its path and its real path, and each
    folder above either exactly (``\x01``: a folder moved or linked there brings another
    file) but the run folder and those above it (a call's word naming one is no write of the
    file: s61-mreview K10), not what else they hold."""
    found: list[str] = []
    runs = {os.path.normpath(folder), fs.realpath(folder)}
    for spelled in dict.fromkeys((os.path.normpath(path), fs.realpath(path))):
        found.append(spelled)
        above = os.path.dirname(spelled)
        while above != os.path.dirname(above):
            if not any(r == above or r.startswith(above + "/") for r in runs):
                found.append("\x01" + above)
            above = os.path.dirname(above)
    return found


#: A part of a JSONC text: a run of plain characters, a string, a comment, a comma, a slash.
_JSONC_PART: Final = re.compile(r'[^"/,]+|"(?:[^"\\\n]|\\.)*"|//[^\n\r\u2028\u2029]*|'
                                r'/\*.*?\*/|,|/(?![/*])', re.DOTALL)  # (a line comment ends
# at any of TypeScript's line breaks: s62-mreview R6)
_CLOSING: Final = re.compile(r"(?>\s|//[^\n\r\u2028\u2029]*|/\*.*?\*/)*+[}\]]", re.DOTALL)
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
