"""The options each runner of a collecting package.json script is read with (issue 29; review
s60-mreview M1–M3, M6, M7): an allow-list per runner, each option one that takes no file it
loads as code (a switch, a count, a pattern of its tests, a built-in name: its own ``--help``
and option table: mocha 10's yargs, tape 5's minimist, tap, ava 6, vitest 2's cac, eslint 9's
optionator, prettier 3, xo, nyc 17, c8); an option loading code is ``scriptcode._LOADS``',
read by its value. Any other option of a listed runner (``mocha -n require=./x.cjs``,
``eslint --format=./fmt.cjs``, ``vitest --pool=./pool.mjs``, ``tape -r./x.cjs``: a short
option's attached value) refuses."""

from __future__ import annotations

import os

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def _no(*names: str) -> tuple[str, ...]:
    """Each of ``names`` and its ``--no-`` form."""
    return (*names, *("--no-" + n[2:] for n in names))


_HELP: Final = ("-h", "--help", "-V", "--version", "-v")
#: node's flags mocha hands to node that load no file.
_NODE_FLAGS: Final = ("--harmony", "--enable-source-maps", "--inspect", "--inspect-brk",
                      "--expose-gc", "--trace-warnings", "--no-warnings", "--throw-deprecation",
                      "--trace-deprecation", "--unhandled-rejections")
OPTIONS: Final = {
    "mocha": frozenset((
        *_HELP, *_no("--allow-uncaught", "--async-only", "--bail", "--check-leaks", "--color",
                     "--colors", "--diff", "--exit", "--forbid-only", "--forbid-pending",
                     "--full-trace", "--inline-diffs", "--parallel", "--recursive", "--sort",
                     "--timeout", "--timeouts", "--config", "--package", "--opts",
                     "--dry-run", "--fail-zero", "--delay", "--watch"),
        "-A", "-b", "-c", "-C", "-f", "--fgrep", "-g", "--grep", "-i", "--invert", "-j",
        "--jobs", "-p", "-S", "-s", "--slow", "-t", "--retries", "--extension",
        "--ignore", "--exclude", "-O", "--reporter-option", "--reporter-options", "-w",
        "--watch-files", "--watch-ignore", "--global", "--globals", "--list-interfaces",
        "--list-reporters", *_NODE_FLAGS)),
    "tape": frozenset((*_HELP, "--ignore-pattern", "--no-only", "--strict")),
    "tap": frozenset((
        *_HELP, *_no("--coverage", "--bail", "--color", "--check-coverage", "--ts", "--esm",
                     "--jsx", "--flow", "--timeout", "--only", "--invert", "--save",
                     "--debug", "--comments", "--show-process-tree", "--passes",
                     "--omit-version"),
        "-b", "-c", "-C", "-j", "--jobs", "-J", "--jobs-auto", "-t", "--branches", "--lines",
        "--functions", "--statements", "--100", "-g", "--grep", "-O", "-i", "-R",
        "--test-regex", "--test-ignore", "-s", "--serial", "--changed",
        "--allow-empty-coverage", "--allow-incomplete-coverage", "--disable-coverage",
        "--exclude", "--include", "--snapshot", "-w", "--watch",
        "--cov", "--no-cov")),
    "ava": frozenset((
        *_HELP, *_no("--color", "--worker-threads"), "-m", "--match", "-s", "--serial",
        "--verbose", "-T", "--timeout", "--fail-fast", "-t", "--tap", "-w", "--watch",
        "-u", "--update-snapshots", "-c", "--concurrency", "--reset-cache")),
    "vitest": frozenset((
        *_HELP, *_no("--run", "--watch", "--coverage", "--silent", "--passWithNoTests",
                     "--globals", "--dom", "--isolate", "--file-parallelism",
                     "--fileParallelism", "--typecheck", "--allowOnly", "--clearScreen",
                     "--logHeapUsage", "--color", "--bail", "--update", "--changed",
                     "--sequence.shuffle", "--sequence.concurrent"),
        "-w", "-u", "-t", "--testNamePattern", "--retry", "--testTimeout", "--hookTimeout",
        "--teardownTimeout", "--shard", "--maxWorkers", "--minWorkers", "--maxConcurrency",
        "--exclude", "--project", "--mode", "--coverage.enabled", "--coverage.all",
        "--coverage.clean", "--coverage.include", "--coverage.exclude",
        "--coverage.thresholds.lines", "--coverage.thresholds.functions",
        "--coverage.thresholds.branches", "--coverage.thresholds.statements",
        "--sequence.seed", "--outputFile")),
    "eslint": frozenset((
        *_HELP, *_no("--fix", "--cache", "--color", "--eslintrc", "--config-lookup",
                     "--inline-config", "--error-on-unmatched-pattern", "--warn-ignored",
                     "--ignore"),
        "--fix-dry-run", "--fix-type", "--cache-strategy", "--max-warnings", "--quiet",
        "--ext", "--report-unused-disable-directives",
        "--report-unused-disable-directives-severity", "--ignore-pattern", "--env",
        "--global", "--rule", "--parser-options", "--stats", "--debug",
        "--exit-on-fatal-error", "--pass-on-no-patterns", "--pass-on-unpruned-suppressions",
        "--cache-location", "--ignore-path", "-o", "--output-file")),
    "prettier": frozenset((
        *_HELP, *_no("--semi", "--bracket-spacing", "--color", "--editorconfig",
                     "--error-on-unmatched-pattern", "--cache", "--config"),
        "-c", "--check", "-l", "--list-different", "-w", "--write", "-u",
        "--ignore-unknown", "--log-level", "--loglevel", "--cache-strategy",
        "--end-of-line", "--print-width", "--tab-width", "--use-tabs", "--single-quote",
        "--jsx-single-quote", "--quote-props", "--trailing-comma", "--bracket-same-line",
        "--arrow-parens", "--prose-wrap", "--html-whitespace-sensitivity",
        "--embedded-language-formatting", "--single-attribute-per-line",
        "--experimental-ternaries", "--object-wrap", "--vue-indent-script-and-style",
        "--insert-pragma", "--require-pragma", "--config-precedence", "--parser",
        "--cache-location", "--ignore-path")),
    "xo": frozenset((*_HELP, *_no("--semicolon", "--space"), "--fix", "--env", "--global",
                     "--ignore", "--node-version", "--verbose", "--react", "--extension",
                     "--quiet")),
    **dict.fromkeys(("nyc", "c8"), frozenset((
        *_HELP, *_no("--clean", "--cache", "--instrument", "--source-map", "--all",
                     "--check-coverage", "--per-file", "--skip-full", "--skip-empty",
                     "--exclude-after-remap", "--exclude-node-modules", "--hook-require",
                     "--produce-source-map", "--show-process-tree", "--omit-relative",
                     "--merge-async"),
        "-a", "-s", "--silent", "--report-dir", "--reports-dir", "-o",
        "--temp-dir", "-t", "--temp-directory", "-n", "--include", "-x", "--exclude", "-e",
        "--extension", "--branches", "--lines", "--functions", "--statements", "--100",
        "--watermarks", "--src"))),
}

#: eslint 9's built-in formatters (``-f json``).
_FORMATS: Final = frozenset(("stylish", "json", "json-with-metadata", "html"))
#: istanbul-reports 3's reporters (vitest's ``--coverage.reporter``): another name is
#: ``require``d as a module, a path through its ``lib`` folder's ``..`` too. (nyc's and c8's
#: ``-r``, tap's and mocha's ``-R``, are ``scriptcode._LOADS``', read by their value.)
_ISTANBUL: Final = frozenset((
    "clover", "cobertura", "html", "html-spa", "json", "json-summary", "lcov", "lcovonly",
    "none", "teamcity", "text", "text-lcov", "text-summary"))
#: Options whose value is a runner's own built-in by its name only where it is one of these
#: (any other value refuses: ``scriptcode._options``).
NAMED: Final = {
    **dict.fromkeys((("eslint", "-f"), ("eslint", "--format")), _FORMATS),
    **dict.fromkeys((("vitest", "--coverage.reporter"), ("tap", "--coverage-report")),
                    _ISTANBUL),  # (tap 21: c8's Report, istanbul-reports' create: s61 M3)
    ("vitest", "--environment"): frozenset(("node", "jsdom", "happy-dom", "edge-runtime")),
}  # (vitest 2's loadEnvironment: another name's `vitest-environment-<name>` package, then
# the project's file of that name: s61-mreview M6)


def reporter_options(folder: str, words: list[str]) -> None:
    """Raises ValueError where mocha's words ``words`` give its reporter options (``-O``,
    ``--reporter-option(s)``: ``key=value`` pairs, each value a string the reporter reads as
    it will: mocha's yargs ``coerce``) and a reporter (``-R``, ``--reporter``; ``spec`` where
    none) not of ``_DATA_REPORTERS``, whose option reading is known (mocha-multi-reporters
    ``require``s its ``configFile`` and each of ``reporterEnabled``)."""
    reporters, given = [], False
    for k, word in enumerate(words):
        option, equals, value = word.partition("=")
        if option in ("-R", "--reporter"):
            reporters.append(value if equals else words[k + 1] if k + 1 < len(words) else "")
        given = given or option in ("-O", "--reporter-option", "--reporter-options")
    if given and not set(reporters or ["spec"]) <= _DATA_REPORTERS:
        raise ValueError(f"a script of {folder!r} gives mocha's reporter {reporters!r} "
                         "options, which it may read as files of code")


def known_module(folder: str, value: str) -> bool:
    """Whether the module ``value`` a runner requires first is one whose reading is known
    (s60-mreview M17: a required package reads its own settings, @babel/register babel's
    plugins, dotenv's .env): ``source-map-support/register`` (none), ts-node's register
    where the first ``tsconfig.json`` up holds no ``ts-node`` key naming code (its
    ``require``, ``compiler``: M17b) and extends none (JSON only)."""
    if value == "source-map-support/register":
        return True
    if value not in ("ts-node/register", "ts-node/register/transpile-only"):
        return False
    import json

    above = folder
    while not os.path.isfile(os.path.join(above, "tsconfig.json")):
        if above == os.path.dirname(above):
            return True
        above = os.path.dirname(above)
    try:
        settings = json.loads(fs.read(os.path.join(above, "tsconfig.json"), 1 << 20))
    except (OSError, ValueError):
        return False
    own = settings.get("ts-node", {}) if isinstance(settings, dict) else None
    return isinstance(own, dict) and "extends" not in settings and set(own) <= {
        "esm", "transpileOnly", "files", "logError", "pretty", "compilerOptions",
        "experimentalSpecifierResolution", "preferTsExts", "ignore", "skipProject"}


#: mocha 10's own reporters and interfaces (``Mocha.reporters``' keys, ``Mocha.interfaces``'):
#: any other name, an interface's as a reporter too (``--reporter bdd``), one of
#: ``scriptcode._BUILT_IN`` (``dots``), it tries as a file (``validateLegacyPlugin``:
#: ``require(path.resolve(name))``; s60-mreview M23, s61).
_REPORTERS: Final = frozenset((
    "base", "dot", "doc", "tap", "json", "html", "list", "min", "spec", "nyan", "xunit",
    "markdown", "progress", "landing", "json-stream", "Base", "Dot", "Doc", "TAP", "JSON",
    "HTML", "List", "Min", "Spec", "Nyan", "XUnit", "Markdown", "Progress", "Landing",
    "JSONStream"))
_INTERFACES: Final = frozenset(("bdd", "tdd", "qunit", "exports"))


def mocha_named(option: str) -> frozenset[str]:
    """mocha's own names its ``option`` takes (``-R``: its reporters; ``-u``: its
    interfaces; another: none)."""
    return _REPORTERS if option in ("-R", "--reporter") else _INTERFACES if option in (
        "-u", "--ui") else frozenset()


#: The reporters whose options (``-O``) are data: mocha 10's own (``xunit``'s ``output``: a
#: file it writes), mocha-junit-reporter 2's (its ``mochaFile``, ``properties``, titles and
#: switches; read from its index.js).
_DATA_REPORTERS: Final = frozenset((*_REPORTERS, "mocha-junit-reporter"))


def operands(folder: str, name: str, words: list[str]) -> None:
    """Raises ValueError where the runner ``name`` (mocha, tape, tap, ava: it runs every
    script a file, folder or glob operand names as a test) is given an operand (there or
    not, or a glob) outside a folder whose scripts are guarded as tests (``testnames.JS_FOLDERS``:
    ``test/``) that is no test's name (``mocha tools/check.js``, ``mocha spec``, ``tape
    'tests/*.js'``: s59-mreview S3, S16). (ava's, tap's default globs' ``tests/**``:
    ``testroots.first_loaded``.)"""
    from .testnames import JS_FOLDERS, test_name

    skip = False
    for word in words:
        if skip or word[:1] == "-":
            skip = word in _RUNNER_VALUED
            continue
        glob = any(c in word for c in "*?[{")
        parts = word.split("/")
        head = parts[:next((k for k, p in enumerate(parts) if any(c in p for c in "*?[{")),
                           len(parts))]
        at = max(parts[-1].rfind(".test."), parts[-1].rfind(".spec."))
        tests = test_name(parts[-1]) if not glob else at > 0 and not any(
            c in parts[-1][at:] for c in "*?[{+@!(") and test_name("x" + parts[-1][at:])
        # (`*.test.js`: each match a test's name; `*.test.js*` no: s59-mreview S21)
        if ".." in parts or (JS_FOLDERS.isdisjoint(head) and not tests):  # (one not there
            # yet too: the session may write it; s61)
            raise ValueError(f"a script of {folder!r} gives {name} {word!r}, whose scripts "
                             "it runs as tests and no guard keeps")


#: The options of mocha, tape, tap, ava taking the next word (their operands' reading).
_RUNNER_VALUED: Final = frozenset((
    "--timeout", "-t", "--reporter", "-R", "--ui", "-u", "--require", "-r", "--grep", "-g",
    "--fgrep", "-f", "--slow", "-s", "--retries", "--jobs", "-j", "--extension", "--spec",
    "--ignore", "--exclude", "--file", "--config", "--package", "--reporter-options", "-O",
    "--reporter-option", "--node-arg", "--before", "--after", "--match", "-m",
    "--concurrency", "-c", "--coverage-report", "--node-arguments", "--invert", "--delay"))
