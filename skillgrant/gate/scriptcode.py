"""The code a collecting plan's package.json script runs that no word need name as a file
(issue 29; review s57-sreview R18, s58-mreview R18b–d; split from ``testroots`` in session 58):
an allow-list of interpreters' forms read (``node --test`` with options loading no code,
``bun test``, ``deno test``); any other interpreter (by family and version, anywhere in the
command), a package runner given a path or a text, and the programs whose words make them
run a file (``find -exec``, sed's ``e``, ``tar --to-command``, ``rsync -e``) refuse."""

from __future__ import annotations

import os
import re

from .runneroptions import NAMED, OPTIONS
from .runneroptions import known_module as _known_module
from .runneroptions import mocha_named as _mocha_named
from .runneroptions import operands as _operands
from .runneroptions import reporter_options as _reporter_options
from .runnersettings import CODE_ENDINGS as _CODE_ENDINGS
from .runnersettings import LOADS as _LOADS
from .runnersettings import prettier as _prettier
from .runnersettings import settings as _settings
from .tscsettings import emits_into_tests as _emits_into_tests

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def code_read(folder: str, given: list[str], names: list[str],
              read: list[str] | None = None) -> None:
    """Raises ValueError where the command ``given`` (``names``: its words' file names) runs
    code no word need name as a file (s57-sreview R18): an interpreter as a program (not an
    option's value) but ``node --test`` with options of ``_NODE_TEST`` only (``python3 -m
    tools.run``, ``node -e …``, ``node -r ./tools/pre``: an allow-list); a package runner
    given a package by its path (``npx ./tools/pkg``, ``--package=file:x``) or a text to
    run (``npx -c``). ``read`` gets what ``testroots.first_loaded`` must guard of the
    settings read (tsc's: ``tscsettings.guarded_file``)."""
    _allowed(folder, given, names, read)
    for k, name in enumerate(names):
        program = k == 0 or given[k - 1][:1] != "-" or "=" in given[k - 1]
        valued = (given[k][:1] == "-" and "=" in given[k]) or (k and given[k - 1] in (
            "--env", "--testEnvironment", "--test-environment", "--environment"))  # (jest's
        # `--env node`, vitest's `--environment node`)
        if _INTERPRETER.fullmatch(name) and not valued:  # (anywhere: `sh -c 'python3 …'`,
            options = [w.split("=", 1)[0] for w in given[k + 1:] if w[:1] == "-"]
            tested = names[k + 1:k + 2] == ["test"] and name in ("bun", "deno")
            if tested and all(o in _BUN_TEST for o in options):
                continue  # (`bun test`, `deno test`: their runners, read as before)
            if name not in ("node", "nodejs") or not program or "--test" not in options or not all(
                    o in _NODE_TEST for o in options) or any(
                    w.startswith("--test-reporter=") and w[16:] not in _REPORTERS
                    for w in given[k + 1:]):
                raise ValueError(f"a script of {folder!r} runs {name} as a program, whose "
                                 "code no word need name (only `node --test` is read)")
        if (name in _RUNS_WORDS and _RUNS_WORDS[name].search(" ".join(given[k + 1:]))) or (
                name in ("sed", "gsed") and _sed_runs(given[k + 1:])):
            raise ValueError(f"a script of {folder!r} runs {name} with words that may run "
                             "a file (`find -exec`, sed's `e`, tar's `--to-command`)")
        if program and (name in _PACKAGE_RUNNERS or (name in ("exec", "x", "dlx") and names[
                k - 1:k] in (["npm"], ["pnpm"], ["yarn"], ["bun"]))):
            rest = given[k + 1:]
            at = next((i for i, w in enumerate(rest) if w[:1] != "-"), len(rest))
            own = rest[:at + 1]  # (its options, and the package it runs)
            packages = [*own[at:], *(w.split("=", 1)[1] for w in own[:at] if "=" in w),
                        *(own[i + 1] for i, w in enumerate(own[:at]) if w in ("-p",
                                                                              "--package"))]
            if any(w in ("-c", "--call") for w in own) or any(
                    p.startswith((".", "/", "~")) or "file:" in p or "link:" in p or
                    "/" in (p.split("/", 1)[1] if p[:1] == "@" else p)  # (but a scope's)
                    for p in packages):
                raise ValueError(f"a script of {folder!r} runs a package by its path or a "
                                 f"text ({' '.join(given)!r}), whose code no guard keeps")


def _allowed(folder: str, given: list[str], names: list[str], read: list[str] | None) -> None:
    """Raises ValueError unless the command ``given`` (``names``: its words' file names) runs a
    program of ``_RUNS`` by its bare name, whose file reading is known (s59: an allow-list,
    failing closed: ``sqlite3 '.read x.sql'``, ``gdb -x x.gdb``, ``timeout 60 ./gen``, a
    program built into ``node_modules/.bin``, any program not listed, a word holding a
    ``/`` or a ``=`` as the program, refuse), past the wrappers of ``_WRAPPERS``
    (``cross-env NODE_ENV=test nyc --reporter text mocha``: cross-env's assignments of
    ``PLAIN_NAMES`` only, nyc's and c8's valued options ``_WRAPPER_VALUED``); an option
    loading code given a file (``_loads``) refuses; ``tsc`` writes (its ``outDir`` may be a
    collected folder: s59-mreview S7) but with ``--noEmit``."""
    at = 0
    while at < len(names) and names[at] in _WRAPPERS and "/" not in given[at]:
        wrapper, at = names[at], at + 1
        while at < len(given) and (given[at][:1] == "-" or (
                "=" in given[at] and wrapper == "cross-env")):
            if given[at][:1] != "-" and given[at].partition("=")[0] not in PLAIN_NAMES:
                raise ValueError(f"a script of {folder!r} gives cross-env {given[at]!r}, a "
                                 "variable a program may read a file by")
            at += 2 if given[at] in _WRAPPER_VALUED else 1  # (`--reporter text`)
    word = given[at] if at < len(given) else "true"
    name = os.path.basename(word)
    if name in _PACKAGE_RUNNERS or (name in ("npm", "pnpm", "yarn", "bun") and names[
            at + 1:at + 2] in (["exec"], ["x"], ["dlx"])):
        rest = [w for w in given[at + 1:] if w[:1] != "-" and w not in ("exec", "x", "dlx")]
        name = os.path.basename(rest[0]) if rest else name  # (`npx prettier`: its bin; the
        # package's own checks: `code_read`)
    if name not in _RUNS or "/" in word or "=" in word:
        raise ValueError(f"a script of {folder!r} runs {word!r}, no program whose file "
                         "reading the gate knows (scriptcode._RUNS, an allow-list)")
    _words(folder, name, given, at, read)


def _words(folder: str, name: str, given: list[str], at: int, read: list[str] | None) -> None:
    """``_allowed``'s reading of the words ``given`` of the program ``name`` (``given[at]``)
    of ``_RUNS`` and its wrappers: tsc's ``--noEmit``, a runner's operands (``_operands``),
    an option loading code (``_loads``)."""
    switch = [given[k + 1:k + 2] != ["false"] for k, w in enumerate(given)
              if w.lower() == "--noemit"]  # (tsc folds its options: `--noemit`; the last)
    if name == "tsc" and switch[-1:] != [True] and _emits_into_tests(folder, given[at + 1:],
                                                                      read):
        raise ValueError(f"a script of {folder!r} runs tsc, which may write into a folder "
                         "whose scripts are run as tests (its outDir)")
    if name in _OPERAND_RUNNERS:
        _operands(folder, name, given[at + 1:])
    if name == "prettier":  # (after `--` a word is a file: s60-mreview M11)
        own = given[:given.index("--", at)] if "--" in given[at:] else given
        if "--no-config" not in own[at + 1:]:
            _prettier(folder, [*own[at + 1:], *("./" + w for w in given[len(own) + 1:])])
    for runner in {name, *(n for n in (os.path.basename(w) for w in given[:at])
                          if n in _WRAPPERS)}:
        _settings(folder, runner)
    if name in ("npm", "pnpm", "yarn") and "--" in given[at:] and any(
            "/" in w or w.endswith(_CODE_ENDINGS) or os.path.lexists(os.path.join(folder, w))
            for w in given[given.index("--", at) + 1:]):  # (`npm run unit -- --x=./r.mjs`
        raise ValueError(f"a script of {folder!r} gives another script words naming a "
                         "file (`--`), which its command is run with")  # s59-mreview S18)
    _options(folder, name, given, at)
    _loaded(folder, name, given, at)


def _loaded(folder: str, name: str, given: list[str], at: int) -> None:
    """``_words``' reading of the options of ``_LOADS`` the program ``name`` (``given[at]``)
    and its wrappers are given: a value that may be a file of code refuses (but a bare
    module name of no file here, for a runner trying the name first: its name guarded)."""
    checked = given[1:] if name != "jest" else given[1:at]
    for k, option in enumerate(checked):
        option, equals, value = option.partition("=")
        if option in _LOADS and not equals:
            value = checked[k + 1] if k + 1 < len(checked) else "."
        if k + 1 < at and option in _WRAPPER_DATA:
            continue  # (nyc's, c8's coverage globs and endings: s61-mreview K6)
        if option in _LOADS and (name, option) not in NAMED and (_loads(folder, value) or (
                name in _FILE_FIRST and value not in (_mocha_named(option) if k >= at else
                                                      _BUILT_IN))) and not (
                name in _FILE_FIRST and option in FIRST_OPTIONS and first_name(value, option)
                and not _there(folder, first_name(value, option)) and (
                    option not in ("-r", "--require") or _known_module(folder, value))):
            raise ValueError(f"a script of {folder!r} gives {name} a file to load as code "
                             f"({option!r} {value!r})")  # (but a bare module name of no
            # file here: the runner takes the package, testroots.first_loaded guards its
            # name in the folder; s59-mreview K6, S19)


def _options(folder: str, name: str, given: list[str], at: int) -> None:
    """Raises ValueError where the runner ``name`` (``given[at]``) or a wrapper before it is
    given an option neither of ``runneroptions.OPTIONS`` (its allow-list) nor of ``_LOADS``
    (read by its value): s60-mreview M1–M3, M6, M7; mocha's reporter options
    (``_reporter_options``)."""
    end = given.index("--", at) if "--" in given[at:] else len(given)
    for program, words in ((name, given[at + 1:end]), *(
            (w, given[:at]) for w in {os.path.basename(g) for g in given[:at]} & {"nyc", "c8"})):
        read = OPTIONS.get(program)
        if read is None:
            continue
        for k, word in enumerate(words):
            option, equals, value = word.partition("=")
            if (program, option) in NAMED:  # (the runner's own built-ins: any other refuses)
                if (value if equals else words[k + 1] if k + 1 < len(words) else "") in NAMED[
                        (program, option)]:
                    continue
                raise ValueError(f"a script of {folder!r} gives {program} {word!r}, no "
                                 "built-in name of that option (runneroptions.NAMED)")
            if word[:1] == "-" and option not in read and option not in _LOADS:
                raise ValueError(f"a script of {folder!r} gives {program} {word!r}, an option "
                                 "the gate does not read (runneroptions.OPTIONS)")
    if name == "mocha":
        _reporter_options(folder, given[at + 1:end])




def _there(folder: str, name: str) -> bool:
    """Whether ``folder`` holds ``name`` or a ``name.*`` (require's ``.js``, ``.json``,
    ``.node``: s60-mreview, mocha's reporter ``rep.node``), or cannot be listed."""
    try:
        return any(n == name or n.startswith(name + ".") for n in os.listdir(folder or "."))
    except FileNotFoundError:
        return False
    except OSError:
        return True


def _loads(folder: str, value: str) -> bool:
    """Whether the value ``value`` of an option loading code (``_LOADS``) may be a file of
    ``folder`` or a path: any but a built-in name (``_BUILT_IN``: ``spec``, ``bdd``, ``lcov``)
    or a package installed in a ``node_modules`` of ``folder`` or above (``ts-node/register``:
    mocha, prettier, nyc try the package first, a file of the folder next: s59-mreview S6,
    K6); a text (``--node-arguments=--require=…``) is read as its options' values."""
    if value[:1] == "-":
        return any(_loads(folder, v) for v in value.split("=")[1:]) or "=" not in value
    if value in _BUILT_IN:
        return False
    parts = value.split("/")
    package = "/".join(parts[:2] if value[:1] == "@" else parts[:1])
    if value[:1] in (".", "/", "~") or not package or value.endswith(_CODE_ENDINGS):
        return True
    above = folder
    while True:
        if os.path.isdir(os.path.join(above, "node_modules", package)):
            return False
        if above == os.path.dirname(above):
            return True
        above = os.path.dirname(above)


#: The programs a collecting script may run, each with what it reads (s59; any other program
#: refuses the collecting plan's writes: it may run any file): programs reading no code
#: (``planscripts._INERT``' and the shell's own words), the package managers running the
#: scripts ``planscripts`` reads by name (their ``exec``/``x``/``dlx`` given a package: that
#: package's program), the test runners and checkers whose settings files the gate guards
#: by name (``starttables.STARTS``: ``deepnames``) and whose tests it reads (``testfiles``;
#: jest's settings and words: ``jestsettings``), ``node``/``bun``/``deno`` in their test
#: runners' forms (``code_read``).
_RUNS: Final = {
    **dict.fromkeys(("mkdir", "rmdir", "rm", "cat", "ls", "head", "tail", "wc", "echo",
                     "printf", "pwd", "true", "false", "diff", "cmp", "grep", "basename",
                     "dirname", "realpath", "stat", "uniq", "exit", "test", "[", ":", "sleep",
                     "rimraf", "mkdirp"),
                    "no code: its operands as data, writing no file (a copier's copy may be "
                    "a test or a program the script runs next: s59-mreview S1, S2, S17)"),
    **dict.fromkeys(("npm", "pnpm", "yarn", "run-s", "run-p", "npm-run-all"),
                    "the package.json scripts it runs by name (planscripts)"),
    "jest": "its settings and words (jestsettings), its tests (testfiles)",
    **dict.fromkeys(("vitest", "mocha", "tap", "ava", "tape", "xo", "eslint", "prettier"),
                    "its settings files (starttables.STARTS), its tests (testfiles)"),
    **dict.fromkeys(("node", "nodejs", "bun", "deno"), "its test runner's tests (testfiles; "
                    "any other form refuses: code_read)"),
    **dict.fromkeys(("tsc", "tsd", "tsd-check"), "sources, type tests and the tsconfig as "
                    "data (TypeScript's checker loads no plugin; tsc with --noEmit only)"),
    **dict.fromkeys(("tap-spec", "tap-dot", "faucet", "tap-min", "tap-summary",
                     "tap-mocha-reporter"), "its input as data (a pipe's reader)"),
}
#: Programs running the program after their options (``cross-env``: its assignments), whose
#: settings files ``starttables.STARTS`` names (``.nycrc``, ``.c8rc``).
_WRAPPERS: Final = frozenset(("cross-env", "nyc", "c8"))
#: The runners running every script their operands name as a test (``runneroptions.operands``).
_OPERAND_RUNNERS: Final = frozenset(("mocha", "tape", "tap", "ava"))
#: The runners trying a module's name as a file of the folder first (mocha's
#: ``handleRequires``: ``ts-node/register.js`` there shadows the package; prettier's plugins:
#: s59-mreview S19): any name but a built-in one refuses.
_FILE_FIRST: Final = frozenset(("mocha", "prettier"))
#: Their options naming a module they try as a file of the run folder first (mocha's
#: ``--require``: ``handleRequires`` tests ``existsSync(mod)``, ``mod + '.js'``; its
#: reporter and interface: a package, then ``path.resolve``; prettier 3's ``--plugin``:
#: ``import(path.resolve(name))``, then the package): ``testroots.first_loaded`` guards the
#: name's first part in the folder.
FIRST_OPTIONS: Final = frozenset(("-r", "--require", "-R", "--reporter", "-u", "--ui",
                                  "--plugin", "--plugins"))


def first_name(value: str, option: str) -> str:
    """The first part of a bare module name ``value`` (``ts-node`` of ``ts-node/register``,
    ``@babel`` of ``@babel/register``), or "" for a path or a name the gate does not read as
    one (``./x``, ``/x``, ``~``, ``..``, an expansion, a mocha name ``option`` takes as its
    own: ``runneroptions.mocha_named``)."""
    if not value or value[0] in "./~-" or value in _mocha_named(option) or any(
            c in value for c in "$`\\*?[{") or ".." in value.split("/"):
        return ""
    return value.split("/", 1)[0]


#: The built-in names the options of ``_LOADS`` take (mocha's reporters and interfaces,
#: istanbul's reporters, node's): no file.
_BUILT_IN: Final = frozenset((
    "spec", "dot", "tap", "json", "json-stream", "list", "min", "nyan", "progress",
    "landing", "markdown", "xunit", "doc", "base", "bdd", "tdd", "qunit", "exports",
    "text", "text-summary", "lcov", "lcovonly", "html", "html-spa", "cobertura", "clover",
    "teamcity", "none", "json-summary", "junit", "dots", "verbose", "default", "basic",
    "js", "ts", "cjs", "mjs", "jsx", "tsx", "hanging-process", "github-actions"))
#: nyc's and c8's options of ``_LOADS``' names whose value is data (globs of the files
#: covered, their endings; nyc's ``-i`` is its ``--require``).
_WRAPPER_DATA: Final = frozenset(("--include", "-n", "--extension", "-e"))
#: nyc's and c8's options taking the next word as their value.
_WRAPPER_VALUED: Final = frozenset(("--reporter", "-r", "--report-dir", "--temp-dir", "-t",
                                    "--temp-directory", "--include", "-n", "--exclude", "-x",
                                    "--extension", "-e", "--require", "-i", "--nycrc-path",
                                    "--cwd", "--src", "--branches", "--lines", "--functions",
                                    "--statements", "--per-file"))
#: The variables a script may assign before a command (``NODE_ENV=test jest``), and cross-env
#: set: none names a file a program runs or a folder (any other: ``NODE_OPTIONS``,
#: ``LD_PRELOAD``, ``HOME``, ``CDPATH``, ``npm_config_*``, refuses; s57-sreview, s59-mreview
#: S11).
PLAIN_NAMES: Final = frozenset(("NODE_ENV", "BABEL_ENV", "CI", "FORCE_COLOR", "NO_COLOR",
                                 "TZ", "DEBUG", "LANG", "LC_ALL", "NODE_NO_WARNINGS"))
#: An interpreter's name (a version's too: ``python3.11``, ``nodejs20``): its operands, its
#: options' texts or modules are code (s58-mreview R18b, R18c).
_INTERPRETER: Final = re.compile(
    r"(?:python|pypy|node|nodejs|perl|ruby|php|deno|bun|ts-node|tsx|babel-node|zsh|ksh|mksh|"
    r"fish|csh|tcsh|java|jshell|tclsh|wish|expect|lua|luajit|Rscript|julia|guile|racket|"
    r"ocaml|swift|pwsh|osascript|groovy|scala|kotlin|elixir|erl|escript|dotnet|go)"
    r"[\d.]*(?:-[\d.]+)?")
def _sed_runs(words: list[str]) -> bool:
    """Whether sed with ``words`` may run a command or read a script file: any option but
    ``-n``/``-E``/``-r``/``-i``/``-e``, any script but a plain substitution or print (its
    ``e`` command, ``s///e``, ``r``/``w`` files; s58-mreview R18d)."""
    scripts: list[str] = []
    at, given = 0, False
    while at < len(words):
        word = words[at]
        if word == "-e":
            scripts.append(words[at + 1] if at + 1 < len(words) else "")
            at, given = at + 2, True
            continue
        if word[:1] == "-" and word not in ("-n", "-E", "-r", "-i", "--quiet"):
            return True
        if word[:1] != "-" and not given and not scripts:
            scripts.append(word)
        at += 1
    return not all(_SED_PLAIN.fullmatch(s) for s in scripts)


#: Programs that run what their words name, and the words that make them (s58-mreview
#: R18d): ``find -exec``, ``tar --to-command``, ``rsync -e``.
_RUNS_WORDS: Final = {
    "find": re.compile(r"(?:^|\s)-(?:exec|execdir|ok|okdir)\b"),
    "tar": re.compile(r"(?:^|\s)(?:--to-command|--use-compress-program|--checkpoint-action|"
                      r"--info-script|--new-volume-script|-[A-Za-z]*[IF])"),
    "rsync": re.compile(r"(?:^|\s)(?:-[A-Za-z]*e|--rsh|--rsync-path)"),
    "git": re.compile(r"(?:^|\s)(?:-c|--config-env)\b")}  # (an alias's `!sh x.sh`)
#: A sed script read as running nothing: a plain substitution, a print or a deletion.
_SED_PLAIN: Final = re.compile(r"s/[^/\n]*/[^/\n]*/[gpI0-9]*|[0-9,$]*[pd]")
#: node's options beside ``--test`` that load no code (``--test-reporter``: a built-in one).
_NODE_TEST: Final = frozenset((
    "--test", "--test-only", "--test-concurrency", "--test-timeout", "--test-name-pattern",
    "--test-skip-pattern", "--test-reporter", "--test-reporter-destination",
    "--experimental-test-coverage", "--test-force-exit", "--enable-source-maps",
    "--no-warnings", "--trace-warnings", "--test-update-snapshots",
    "--experimental-test-snapshots"))
_REPORTERS: Final = frozenset(("spec", "tap", "dot", "junit", "lcov"))
#: ``bun test``'s, ``deno test``'s options that load no code.
_BUN_TEST: Final = frozenset(("--coverage", "--bail", "--only", "--todo", "--timeout",
                              "--rerun-each", "-t", "--test-name-pattern", "--update-snapshots",
                              "-u", "--silent", "--parallel", "--fail-fast", "-A",
                              "--allow-all", "--allow-read", "--allow-env", "--quiet", "-q"))
#: Programs that run a package's code they are given by name or path.
_PACKAGE_RUNNERS: Final = frozenset(("npx", "pnpx", "bunx", "dlx"))
