"""Session 60 (s60-mfix): what a project's scripts run (issue 29): each listed runner's
settings read from every source it reads (``runnersettings.settings``: its files from the run
folder up, the nearest ``package.json``'s member; s59-mreview S27)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from skillgrant.gate.scriptcode import code_read


def _read(command: str, folder: str) -> None:
    """``code_read`` of a script's command (its words split at blanks, as testroots does)."""
    given = command.split()
    code_read(folder, given, [os.path.basename(w.rpartition("=")[2]) for w in given])


_A_RUNNERS_SETTINGS_NAMING_CODE_REFUSE: list[tuple[dict[str, object], str]] = [
    # mocha's loadPkgRc: the nearest package.json's `mocha` member (S27), by an alias too
    ({"package.json": {"mocha": {"r": ["./tools/pre.cjs"]}}}, "mocha"),
    ({"package.json": {"mocha": {"require": "./tools/pre.cjs"}}}, "mocha"),
    # the runners' find-up: a settings file in a folder above the run folder
    ({"../.mocharc.json": {"require": ["./pre.cjs"]}, "package.json": {}}, "mocha"),
    ({"../.nycrc.json": {"require": ["./pre.cjs"]}}, "nyc mocha"),
    ({"../package.json": {"c8": {"reporter": ["./r.cjs"]}}}, "c8 mocha"),
    ({"../vitest.config.mjs": "export default {}"}, "vitest run"),
    # ava 6's ava.config.json; xo's `prettier` (prettier's settings, plugins, by file)
    ({"ava.config.json": {"require": ["./tools/x.cjs"]}}, "ava"),
    ({"package.json": {"xo": {"prettier": True}}}, "xo")]


def test_a_runners_settings_naming_code_refuse(tmp_path: Path) -> None:
    for k, (files, command) in enumerate(_A_RUNNERS_SETTINGS_NAMING_CODE_REFUSE):
        (tmp_path / str(k)).mkdir()
        _a_runners_settings_naming_code_refuse(tmp_path / str(k), files, command)


def _a_runners_settings_naming_code_refuse(tmp_path: Path, files: dict[str, object],
                                               command: str) -> None:
    run = tmp_path / "p"
    run.mkdir()
    for name, value in files.items():
        (run / name).write_text(value if isinstance(value, str) else json.dumps(value))
    with pytest.raises(ValueError):
        _read(command, str(run))


def test_the_nearest_package_json_only_is_read(tmp_path: Path) -> None:
    """mocha (find-up) reads the nearest package.json's member: a workspace's own, not the
    root's."""
    (tmp_path / "package.json").write_text(json.dumps({"mocha": {"require": "./x.cjs"}}))
    (tmp_path / "p").mkdir()
    (tmp_path / "p/package.json").write_text(json.dumps({"mocha": {"timeout": 5000}}))
    _read("mocha", str(tmp_path / "p"))
    _read("mocha --timeout 5000", str(tmp_path / "p"))
    with pytest.raises(ValueError):
        _read("mocha", str(tmp_path))


def test_an_npmrc_giving_node_options_refuses(tmp_path: Path) -> None:
    """npm's ``node-options`` (.npmrc) is the NODE_OPTIONS of every node its scripts run."""
    from skillgrant.gate.scriptfolders import script_folders as _script_folders

    (tmp_path / "package.json").write_text(json.dumps({"scripts": {"test": "node --test"}}))
    _script_folders(str(tmp_path), str(tmp_path / "package.json"), 0)
    (tmp_path / ".npmrc").write_text("node-options=--require ./tools/x.cjs\n")
    with pytest.raises(ValueError):
        _script_folders(str(tmp_path), str(tmp_path / "package.json"), 0)


def test_the_package_managers_files_are_no_runners_settings(tmp_path: Path) -> None:
    """COST (at s59's merge): a lockfile, an ``.npmrc`` refused ``node --test`` and ``npm run
    x`` (read as a runner's JSON settings); npm's own are read as the scripts' (testroots)."""
    (tmp_path / "package-lock.json").write_text(json.dumps({"lockfileVersion": 3}))
    (tmp_path / ".npmrc").write_text("fund=false\n")
    for command in ("node --test", "npm run build", "mocha"):
        _read(command, str(tmp_path))


_BUN_AND_DENOS_SETTINGS_NAMING_CODE_REFUSE = [
    ("deno.json", {"imports": {"@std/assert": "./tools/x.ts"}}),
    ("bunfig.toml", '[test]\npreload = ["./tools/x.ts"]\n')]


def test_bun_and_denos_settings_naming_code_refuse(tmp_path: Path) -> None:
    for k, (name, text) in enumerate(_BUN_AND_DENOS_SETTINGS_NAMING_CODE_REFUSE):
        (tmp_path / str(k)).mkdir()
        _bun_and_denos_settings_naming_code_refuse(tmp_path / str(k), name, text)


def _bun_and_denos_settings_naming_code_refuse(tmp_path: Path, name: str,
                                                   text: object) -> None:
    (tmp_path / "sub").mkdir()
    command = "deno test" if name.startswith("deno") else "bun test"
    _read(command, str(tmp_path / "sub"))
    (tmp_path / "sub" / name).write_text(text if isinstance(text, str) else json.dumps(text))
    with pytest.raises(ValueError):
        _read(command, str(tmp_path / "sub"))


_A_PATTERNS_MATCHES_ARE_GLOBS = [
    "*", "*.txt", ".*", "d*/*", "d*/", "d?/x*", "[ab]*", "*/.h*", "l*/*", "nothere*/x",
    "d1/*", "*/y", "**"]


def test_a_patterns_matches_are_globs(tmp_path: Path) -> None:
    for k, pattern in enumerate(_A_PATTERNS_MATCHES_ARE_GLOBS):
        (tmp_path / str(k)).mkdir()
        _a_patterns_matches_are_globs(tmp_path / str(k), pattern)


def _a_patterns_matches_are_globs(tmp_path: Path, pattern: str) -> None:
    """globbed.globbed (each folder listed once a call: s59-hreview T8) matches as
    ``glob.glob`` (a leading dot by a dot only, a middle part's folders, links too)."""
    import glob

    from skillgrant.gate.globbed import globbed

    for path in ("a.txt", "b.txt", ".hid", "d1/x1", "d1/.hx", "d2/y", "e/y"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("1")
    (tmp_path / "lnk").symlink_to(tmp_path / "d1")
    (tmp_path / "lf").symlink_to(tmp_path / "a.txt")
    full = f"{tmp_path}/{pattern}"
    parts = full.split("/")
    at = next(i for i, p in enumerate(parts) if any(c in p for c in "*?["))
    assert sorted(globbed(parts, at, {}) or []) == sorted(glob.glob(full))


def test_a_calls_patterns_past_the_limit_name_anything(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from skillgrant.gate import globbed

    for i in range(20):
        (tmp_path / f"f{i}").write_text("1")
    monkeypatch.setattr(globbed, "MAX_SCANNED", 50)
    parts = f"{tmp_path}/f1*".split("/")
    listed: dict[object, object] = {}
    assert globbed.globbed(parts, len(parts) - 1, listed) is not None
    assert globbed.globbed(parts, len(parts) - 1, listed) is not None
    assert globbed.globbed(parts, len(parts) - 1, listed) is None  # (60 names in the call)


_PRETTIER_CASES: list[tuple[dict[str, object], str, bool]] = [
    ({}, "prettier --check .", True),  # (s59-mreview K8: no settings anywhere)
    ({"src/.prettierrc": {"semi": False}}, "prettier --check .", True),
    ({"src/.prettierrc": {"plugins": ["../tools/p.cjs"]}}, "prettier --check .", False),
    ({"src/.prettierrc": {"plugins": ["../tools/p.cjs"]}}, "prettier --check src/a.js", False),
    ({"src/.prettierrc": {"plugins": ["./p.cjs"]}}, "prettier --check 'src/**/*.js'", False),
    ({"src/deep/package.yaml": "prettier:\n  plugins: [./p.cjs]\n"}, "prettier -c .", False),
    ({"src/package.json": {"prettier": {"plugins": ["./p.cjs"]}}}, "prettier -c .", False),
    ({"src/prettier.config.js": "module.exports = {}"}, "prettier --check .", False),
    ({"node_modules/x/.prettierrc": {"plugins": ["./p.cjs"]}}, "prettier --check .", True),
    ({}, "prettier --check .?/x", False),
    ({"docs/.prettierrc": {"plugins": ["./p.cjs"]}}, "prettier --check src", True),
    # (prettier takes the nearest package.json holding its member: each one up is read)
    ({"../package.json": {"prettier": {"plugins": ["./p.cjs"]}}, "package.json": {}},
     "prettier --check .", False)]


def test_prettiers_settings_are_read_from_each_checked_folder(tmp_path: Path) -> None:
    for k, (files, command, read) in enumerate(_PRETTIER_CASES):
        (tmp_path / str(k)).mkdir()
        _prettiers_settings_are_read_from_each_checked_folder(
            tmp_path / str(k), files, command, read)


def _prettiers_settings_are_read_from_each_checked_folder(
        tmp_path: Path, files: dict[str, object], command: str, read: bool) -> None:
    run = tmp_path / "p"
    (run / "src").mkdir(parents=True)
    for name, value in files.items():
        (run / name).parent.mkdir(parents=True, exist_ok=True)
        (run / name).write_text(value if isinstance(value, str) else json.dumps(value))
    if read:
        _read(command.replace("'", ""), str(run))
    else:
        with pytest.raises(ValueError):
            _read(command.replace("'", ""), str(run))


_A_MODULE_NAME_A_RUNNER_TRIES_AS_A_FILE_FIRST = [
    ("mocha --require source-map-support/register", "source-map-support/x"),
    ("mocha --reporter rep", "rep"), ("mocha --ui=myui", "myui.js"),
    ("prettier --plugin=plug --check package.json", "plug"),
    ("mocha --require ts-node/register", "ts-node/.keep")]


def test_a_module_name_a_runner_tries_as_a_file_first(tmp_path: Path) -> None:
    for k, (command, there) in enumerate(_A_MODULE_NAME_A_RUNNER_TRIES_AS_A_FILE_FIRST):
        (tmp_path / str(k)).mkdir()
        _a_module_name_a_runner_tries_as_a_file_first(tmp_path / str(k), command, there)


def _a_module_name_a_runner_tries_as_a_file_first(tmp_path: Path, command: str,
                                                      there: str) -> None:
    """s59-mreview K6 (S6, S19 held): a bare module name mocha (prettier) tries as a file of
    its folder first is read where no such file is there (testroots.first_loaded guards the
    name), refused where one is."""
    _read(command, str(tmp_path))
    (tmp_path / there).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / there).write_text("1")
    with pytest.raises(ValueError):
        _read(command, str(tmp_path))


def test_the_names_tried_first_are_guarded(tmp_path: Path) -> None:
    from skillgrant.gate import testroots
    from skillgrant.gate.placed import fold
    from skillgrant.gate.scriptfirsts import first_names

    (tmp_path / "package.json").write_text(json.dumps({"scripts": {
        "test": "mocha --require ts-node/register -R dot --ui=myui", "fmt": "prettier "
        "--plugin plug --check ."}}))
    guards = type("G", (), {"collected": frozenset({fold(str(tmp_path))})})()
    monkey = testroots._LAST[:]
    try:
        testroots._LAST[:] = [(guards, (), tuple(first_names(str(tmp_path))))]
        top = fold(str(tmp_path))
        for path in ("ts-node", "ts-node/register.js", "ts-node/register/index.js", "myui.node",
                     "myui.js", "plug", "plug/x.mjs"):
            assert testroots.first_loaded(f"{top}/{path}", guards), path
        for path in ("dot", "ts-node2", "tools/ts-node", "myuix", "plugx"):
            assert not testroots.first_loaded(f"{top}/{path}", guards), path
    finally:
        testroots._LAST[:] = monkey


#: s59-mreview K6's reading proved (real npm, mocha 10.8.2, prettier 3.3.3, ts-node 10.9):
#: the script's module name is no file yet, so it is read; the file the runner would try
#: first is then written (a copy, a folder's copy, a link): each must be denied.
FIRST_CASES = {
    "a-require-of-a-bare-name": ("mocha --require setup", {}, ["cp src/mk setup.js"]),
    "a-packages-module-shadowed": ("mocha --require ts-node/register", {},
                                   ["mkdir -p ts-node", "cp src/mk ts-node/register.js"]),
    "a-folder-copied-over-the-package": ("mocha --require ts-node/register",
                                         {"tools/tn/register.js": "NODE"},
                                         ["cp -r tools/tn ts-node"]),
    "a-link-over-the-package": ("mocha --require ts-node/register",
                                {"tools/tn/register.js": "NODE"}, ["ln -s tools/tn ts-node"]),
    "a-prettier-plugin-of-a-bare-name": ("prettier --plugin=plug --check package.json && mocha",
                                         {}, ["cp src/mk plug"]),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(FIRST_CASES))
def test_a_name_tried_first_is_guarded_under_the_hook(tmp_path: Path, case: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from test_s56_sreview import NODE_PAYLOAD, _case
    from test_s59_mreview import SPEC, _runners

    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    script, files, calls = FIRST_CASES[case]
    files = {"package.json": json.dumps({"name": "p", "scripts": {"test": script}}),
             "src/mk": NODE_PAYLOAD, **SPEC,
             **{k: v.replace("NODE", NODE_PAYLOAD) for k, v in files.items()}}
    denied = _case(tmp_path, ["Bash(npm test)", "Bash(cp *)", "Bash(mkdir *)", "Bash(ln *)"],
                   files, [*calls, "npm test"], links={"node_modules": str(_runners())})
    assert denied is not None and denied != "npm test", denied


_AN_OPTION_NOT_READ_REFUSES = [
    "mocha -n require=./tools/x.cjs", "mocha --node-option=import=./tools/x.mjs",  # M1
    "eslint --no-config-lookup --format=./tools/fmt.cjs src", "eslint -f tools/f.cjs .",  # M2
    "eslint --parser ./tools/p.cjs src",  # M3
    "vitest run --diff ./tools/diff.mjs", "vitest run --pool=./tools/pool.mjs",  # M6
    "vitest run --coverage.customProviderModule=./tools/cov.mjs",
    "tape -r./tools/x.cjs test/a.js",  # M7
    "nyc --cwd sub mocha", "xo --prettier", "prettier --check . --plugin-search-dir=x",
    # reporters by a path (istanbul-reports 3 `require`s a name it does not hold, through its
    # lib folder's `..` too; @tapjs/run runs or imports a report type it does not know): nyc's,
    # c8's and tap's read by their value (_LOADS), vitest's by runneroptions.NAMED
    "nyc -r ../../../tools/rep mocha", "c8 --reporter=./tools/rep.cjs mocha",
    "vitest run --coverage.reporter=./tools/r.cjs", "tap -R ./tools/rep.mjs",
    "tap --reporter=my-reporter"]


def test_an_option_not_read_refuses(tmp_path: Path) -> None:
    for k, command in enumerate(_AN_OPTION_NOT_READ_REFUSES):
        (tmp_path / str(k)).mkdir()
        _an_option_not_read_refuses(tmp_path / str(k), command)


def _an_option_not_read_refuses(tmp_path: Path, command: str) -> None:
    """s60-mreview M1-M3, M6, M7: each runner's options are an allow-list
    (runneroptions.OPTIONS; those loading code: scriptcode._LOADS, by their values)."""
    with pytest.raises(ValueError):
        _read(command, str(tmp_path))


_AN_EVERYDAY_RUNNERS_OPTIONS_ARE_READ = [
    "mocha --recursive --timeout 5000 --exit", "mocha -R dot --bail test", "tape test/*.js",
    "eslint . --ext .js,.ts --max-warnings 0 --cache", "eslint -f json src",
    "vitest run --coverage --passWithNoTests", "ava --verbose --fail-fast",
    "nyc --reporter=lcov --all mocha", "c8 -r text mocha", "prettier --check --cache .",
    "tap --no-coverage -j 4", "xo --fix --space",
    "vitest run --coverage --coverage.reporter=text", "eslint -o out/report.json .",
    "vitest run --outputFile=out/junit.xml"]


def test_an_everyday_runners_options_are_read(tmp_path: Path) -> None:
    for k, command in enumerate(_AN_EVERYDAY_RUNNERS_OPTIONS_ARE_READ):
        (tmp_path / str(k)).mkdir()
        _an_everyday_runners_options_are_read(tmp_path / str(k), command)


def _an_everyday_runners_options_are_read(tmp_path: Path, command: str) -> None:
    _read(command, str(tmp_path))


_WHERE_TSC_EMITS: list[tuple[dict[str, object], str, bool]] = [
    ({"compilerOptions": {"outDir": "dist"}}, "tsc && mocha", True),
    ({"compilerOptions": {}}, "tsc && ava", False),  # (s60-mreview M5: X.js beside X.ts)
    ({"compilerOptions": {"noEmit": True}}, "tsc && ava", True),
    ({"compilerOptions": {"outDir": "test"}}, "tsc --noEmit false && mocha", False),  # M11
    ({"compilerOptions": {"outDir": "dist"}}, "tsc -b && mocha", True),  # (s61: K5, read)
    ({"compilerOptions": {"noEmit": True}}, "tsc --noEmit false && ava", False),  # M15
    ({"compilerOptions": {"noEmit": True}}, "tsc --NOEMIT false && ava", False)]


def test_where_tsc_emits(tmp_path: Path) -> None:
    for k, (tsconfig, command, read) in enumerate(_WHERE_TSC_EMITS):
        (tmp_path / str(k)).mkdir()
        _where_tsc_emits(tmp_path / str(k), tsconfig, command, read)


def _where_tsc_emits(tmp_path: Path, tsconfig: dict[str, object], command: str,
                         read: bool) -> None:
    from skillgrant.gate.scriptfolders import script_folders as _script_folders

    (tmp_path / "tsconfig.json").write_text(json.dumps(tsconfig))
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {"test": command}}))
    if read:
        _script_folders(str(tmp_path), str(tmp_path / "package.json"), 0)
    else:
        with pytest.raises(ValueError):
            _script_folders(str(tmp_path), str(tmp_path / "package.json"), 0)


def test_prettiers_words_after_dashes_are_files(tmp_path: Path) -> None:
    """s60-mreview M11: `prettier --check src -- --no-config`: the settings are read."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src/.prettierrc").write_text(json.dumps({"plugins": ["../tools/p.cjs"]}))
    with pytest.raises(ValueError):
        _read("prettier --check src -- --no-config", str(tmp_path))


_POSTCSS_CASES = [".postcssrc.json", "postcss.config.cjs", "package.json"]


def test_vitests_postcss_settings_naming_code_refuse(tmp_path: Path) -> None:
    for k, name in enumerate(_POSTCSS_CASES):
        (tmp_path / str(k)).mkdir()
        _vitests_postcss_settings_naming_code_refuse(tmp_path / str(k), name)


def _vitests_postcss_settings_naming_code_refuse(tmp_path: Path, name: str) -> None:
    """s60-mreview M9: vite loads postcss-load-config's settings for a test's .css."""
    text: dict[str, object] = {"plugins": {"./tools/p.cjs": {}}}
    (tmp_path / name).write_text(json.dumps({"postcss": text} if name == "package.json"
                                            else text))
    with pytest.raises(ValueError):
        _read("vitest run", str(tmp_path))


def test_a_patterns_dot_parts_are_dropped(tmp_path: Path) -> None:
    """s60-mreview M10: `d*/././…/x` matches as `d*/x`, each path asked counted."""
    from skillgrant.gate.globbed import globbed

    (tmp_path / "d1").mkdir()
    (tmp_path / "d1/x").write_text("1")
    parts = f"{tmp_path}/d*/{'./' * 500}x".split("/")
    at = next(i for i, p in enumerate(parts) if "*" in p)
    assert globbed(parts, at, {}) == [f"{tmp_path}/d1/x"]


def test_ava_and_taps_default_tests_folders_are_guarded(tmp_path: Path) -> None:
    """s60-mreview M4: a script running ava (tap) on its default globs runs every script
    below a `tests` folder at any depth: guarded (testroots.first_loaded)."""
    from skillgrant.gate import testroots
    from skillgrant.gate.placed import fold
    from skillgrant.gate.scriptfirsts import first_names

    (tmp_path / "package.json").write_text(json.dumps({"scripts": {"test": "ava"}}))
    guards = type("G", (), {"collected": frozenset({fold(str(tmp_path))})})()
    kept = testroots._LAST[:]
    try:
        testroots._LAST[:] = [(guards, (), tuple(first_names(str(tmp_path))))]
        top = fold(str(tmp_path))
        for path in ("tests", "tests/evil.js", "src/tests/a.mjs", "tests/sub", "__test__/e.js",
                     "src/tests.js"):
            assert testroots.first_loaded(f"{top}/{path}", guards), path
        for path in ("tests.md", "src/a.js", "tests/notes.md", "docs/testing.js"):
            assert not testroots.first_loaded(f"{top}/{path}", guards), path
    finally:
        testroots._LAST[:] = kept


def test_jest_and_vitests_snapshots_are_guarded(tmp_path: Path) -> None:
    """s60-mreview M14: jest 29 and vitest 2 run each test's snapshot file as code."""
    from skillgrant.gate import testroots
    from skillgrant.gate.placed import fold

    top = fold(str(tmp_path))
    guards = type("G", (), {"collected": frozenset({top})})()
    assert testroots.first_loaded(f"{top}/lib/__snapshots__/a.test.js.snap", guards)
    assert testroots.first_loaded(f"{top}/__snapshots__", guards)
    kept = testroots._LAST[:]
    try:
        testroots._LAST[:] = [(guards, (), ())]
        assert not testroots.first_loaded(f"{top}/lib/snapshots/a.snap", guards)
    finally:
        testroots._LAST[:] = kept


def test_a_long_word_is_read_in_linear_time() -> None:
    """s60-mreview M13: jestargs' path and recipe-glob patterns scan each word once (a 40 KB
    word took 17.8 s of CPU)."""
    import time

    from skillgrant.gate.jestargs import _PATHS, _RECIPE_GLOB

    started = time.process_time()
    for text in (b"#!x" + b"a" * 200_000, b"-a" * 100_000 + b".x", b";" + b"a=" * 100_000 + b"*"):
        _PATHS.findall(text)
        _RECIPE_GLOB.search(text)
    assert time.process_time() - started < 1.0
    assert [a or b for a, b in _PATHS.findall(b"\t@./ci.sh; sh scripts/run.sh x.a.sh")] == [
        b"./ci.sh", b"scripts/run.sh", b"a.sh"]


def test_a_required_package_is_one_whose_reading_is_known(tmp_path: Path) -> None:
    """s60-mreview M17, M17b: a package mocha requires reads its own settings (babel's
    plugins, ts-node's `require`): only known ones are read."""
    for command in ("mocha --require @babel/register", "mocha -r dotenv/config"):
        with pytest.raises(ValueError):
            _read(command, str(tmp_path))
    _read("mocha --require source-map-support/register", str(tmp_path))
    _read("mocha --require ts-node/register", str(tmp_path))
    (tmp_path / "tsconfig.json").write_text(json.dumps({"ts-node": {"transpileOnly": True}}))
    _read("mocha --require ts-node/register", str(tmp_path))
    (tmp_path / "tsconfig.json").write_text(json.dumps({"ts-node": {"require": ["./x.cjs"]}}))
    with pytest.raises(ValueError):
        _read("mocha --require ts-node/register", str(tmp_path))


def test_an_interpreters_operand_is_found_in_linear_time() -> None:
    """s60-mreview M18: jestargs._OPERAND scans each word once (`"/` x 8,000: 2.4 s)."""
    import time

    from skillgrant.gate.jestargs import _OPERAND

    started = time.process_time()
    for unit in (b'"/', b'"a/sh -', b"sh -a ", b'a"/sh -', b"/="):  # (M18, M21, M24, M24b)
        _OPERAND.findall(unit * 40_000)
    assert time.process_time() - started < 1.0
    from skillgrant.gate.jestargs import _MANY_OPTIONS

    assert _MANY_OPTIONS.search(b"sh " + b"-x " * 70 + b"run.sh")  # (jest present: M24)
    assert _OPERAND.findall(b"\t'/usr/bin/'sh runtests; /bin/sh -e ci/run.sh") == [
        (b"sh", b"runtests"), (b"sh", b"ci/run.sh")]


def test_babels_settings_naming_a_file_are_code() -> None:
    """s60-mreview M19: babel-jest loads the plugins and presets Babel's settings name."""
    import tempfile

    from skillgrant.gate.babelsettings import babel_code

    cases: list[tuple[dict[str, object], bool]] = [
             ({".babelrc": {"presets": ["@babel/preset-env"]}}, False),
             ({"babel.config.json": {"presets": [["@babel/preset-env", {"targets": "node"}]],
                                     "env": {"test": {"plugins": ["istanbul"]}}}}, False),
             ({".babelrc": {"plugins": ["./tools/p.cjs"]}}, True),
             ({"package.json": {"babel": {"overrides": [{"plugins": ["../p.js"]}]}}}, True),
             ({".babelrc": {"extends": "./base.json"}}, True),
             ({".babelrc": {"plugins": ["module:./tools/p.cjs"]}}, True),  # (M22)
             ({"lib/.babelrc": {"plugins": ["./p.cjs"]}}, True),  # (below: M22)
             ({"node_modules/x/.babelrc": {"plugins": ["./p.cjs"]}}, False),
             ({"babel.config.js": "module.exports = {}"}, True)]
    for files, code in cases:
        with tempfile.TemporaryDirectory() as top:
            for name, value in files.items():
                Path(top, name).parent.mkdir(parents=True, exist_ok=True)
                Path(top, name).write_text(value if isinstance(value, str) else
                                           json.dumps(value))
            assert babel_code(top) is code, files


@pytest.mark.slow
def test_the_paths_runs_named_asks_are_bounded(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """s60-mreview M20: a text's words joined to each folder its `cd`s name are asked up to
    jestargs._MAX_ASKED paths; past it jest is present (fail closed)."""
    import time

    from skillgrant.gate import jestargs, planscripts

    (tmp_path / "Makefile").write_text("clean:\n\trm -f out/app.bin\n")
    (tmp_path / "out").mkdir()
    (tmp_path / "out/app.bin").write_text("#!/bin/sh\n" + "".join(
        f"cd d{i}\n" for i in range(300)) + "".join(f"t{i}\n" for i in range(300)))
    monkeypatch.setattr(planscripts, "plan_entries", lambda guards: ["make test"])
    started = time.process_time()
    assert jestargs._runs_named(str(tmp_path), object())
    assert time.process_time() - started < 1.0


def test_a_name_in_another_runners_built_in_list_is_guarded_for_mocha(tmp_path: Path) -> None:
    """s60-mreview M23: `mocha --reporter dots` (istanbul's name, none of mocha's) is tried
    as ./dots.js: its name is guarded, and refused where such a file is there."""
    from skillgrant.gate.scriptcode import first_name

    assert first_name("dots", "-R") == "dots" and first_name("spec", "-R") == ""
    _read("mocha --reporter dots", str(tmp_path))
    (tmp_path / "dots.js").write_text("1")
    with pytest.raises(ValueError):
        _read("mocha --reporter dots", str(tmp_path))
