"""Session 62 (s62-mfix): jest's settings modules read where they export one literal
(``jsliteral``; s57-sreview J10): what such a module names is read as JSON settings are,
and settings that are code by their text may name a file of any ending (jest runs
``tools/setup.txt`` as CommonJS)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_review import first_denied, home_env, hooked_project
from test_s56_sreview import JEST_TEST, _jest_case

from skillgrant.gate.jsliteral import exported

#: Each case: a module's text, the value read (None: no literal, the settings are code).
_LITERALS: list[tuple[str, object]] = [
    ("module.exports = {testEnvironment: 'node'};\n", {"testEnvironment": "node"}),
    ("/** @type {import('jest').Config} */\nconst config = {\n  // a comment\n"
     "  clearMocks: true,\n  coverageProvider: \"v8\",\n};\n\nmodule.exports = config;\n",
     {"clearMocks": True, "coverageProvider": "v8"}),
    ("'use strict';\nexport default {roots: [`<rootDir>/src`,], n: -1.5, x: null}",
     {"roots": ["<rootDir>/src"], "n": -1.5, "x": None}),
    ("module.exports = {'setupFiles': ['./t\\x2fs.js', \"./\\u{61}.js\"]}",
     {"setupFiles": ["./t/s.js", "./a.js"]}),
    ("module.exports = {a: '\\ud83d\\ude00'}", {"a": "\U0001f600"}),
    # code: a call, a name, a spread, a template with a substitution, a regular expression
    ("module.exports = {setupFiles: [require('path').join(__dirname, 's.txt')]};", None),
    ("module.exports = {...base};", None),
    ("module.exports = {setupFiles: [`${__dirname}/s.txt`]};", None),
    ("module.exports = {testRegex: /x/};", None),
    ("module.exports = {get setupFiles() { return ['s.txt']; }};", None),
    ("const config = {};\nmodule.exports = config;\nconfig.setupFiles = ['s.txt'];\n", None),
    ("module.exports = {}\n[0]", None),
    # keys that move what the object is: its prototype, the default export jest takes
    ("module.exports = {__proto__: {setupFiles: ['s.txt']}};", None),
    ("module.exports = {'__esModule': true, default: {setupFiles: ['s.txt']}};", None),
    # escapes node reads otherwise (octal, \8), a lone surrogate, an HTML-like comment
    ("module.exports = {a: '\\1'};", None),
    ("module.exports = {a: '\\8'};", None),
    ("module.exports = {a: '\\ud83d'};", None),
    ("module.exports = {a: 1} <!-- x", None),
    ("const module = {}; module.exports = module;", None),
    ("module.exports = [];", None),
    # U+2028/U+2029 end a line comment (s62-mreview R1)
    ("module.exports = {a: 1, // x\u2028b: 2};", {"a": 1, "b": 2}),
    ("module.exports = {}; // x\u2029module.exports.setupFiles = ['s.txt'];", None),
]
#: Each case: a typed module (jest.config.ts) and the value read (s62-mreview K-R3).
_TYPED: list[tuple[str, object]] = [
    ("import type {Config} from 'jest';\n\nconst config: Config = {\n  testEnvironment: "
     "'node',\n};\n\nexport default config;\n", {"testEnvironment": "node"}),
    ("export default {roots: ['<rootDir>/src']} satisfies Config.InitialOptions;\n",
     {"roots": ["<rootDir>/src"]}),
    ("import {Config} from 'jest';\nexport default {};\n", None),  # (a module loaded)
    ("import type Config from 'jest';\nexport default {};\n", None),
    ("const config = {} as Config;\nexport default config;\n", None)]


def test_a_settings_module_is_read_where_it_exports_one_literal() -> None:
    for text, value in _LITERALS:
        assert exported(text) == value, text
    for text, value in _TYPED:
        assert exported(text, True) == value, text
        assert exported(text) is None, text


#: Each case: a testMatch glob, a path it matches (None: the glob is not read; code).
_GLOBS: list[tuple[str, str | None]] = [
    ("**/checks/**/[^_]*.js", "/p/checks/evil.js"), ("**/[!_]*.js", None),
    ("!**/fixtures/**", None), ("**/checks/v[0-9]+.js", None), ("@(a|b)?", None),
    ("**/?(*.)+(spec|test).[jt]s?(x)", "/p/a.spec.ts"),
    ("**/*.+(check|e2e).js", "/p/a.check.js"), ("**/*.{js,ts}", "/p/a.ts"),
    ("**/__tests__/**/*.[jt]s?(x)", "/p/__tests__/a.tsx"),
    ("/p/caf\u00e9/checks/**/*.js", "/p/cafe\u0301/checks/evil.js"),
    ("**/checks/stage{1..3}.js", None), ("**/checks/*\\.check\\.js", None),
    ("**/checks/*.(check|verify).js", None), ("**/[[:alpha:]]*.js", None),
    ("**/[\u00e9]*.js", None), ("**/a|b.js", None)]


def test_a_testmatch_glob_is_read_by_an_allow_list() -> None:
    """s62-mreview R4, R5, R4b-d: picomatch's marks read here, folded as the paths searched
    are; any other (a brace range, a backslash, a plain group, a POSIX or non-ASCII class, a
    negation, `[!`, a quantifier after a class or group): not read (the settings are
    code)."""
    from skillgrant.gate.micromatch import micromatch
    from skillgrant.gate.placed import fold

    for glob, path in _GLOBS:
        found = micromatch(glob)
        assert (found is None) is (path is None), glob
        assert path is None or (found is not None and found.search(fold(path))), glob
    negated = micromatch("**/checks/**/[^_]*.js")
    assert negated is not None and not negated.search("/p/checks/_a.js")


#: jest's settings naming a file of no script's ending: code (read by no one: every file of
#: an ending), a literal (read: the file it names), an ES module's default export.
_NAMES_A_TEXT_FILE = {
    "code-names-a-text-file": ("jest.config.js", "module.exports = {setupFiles: [require("
                               "'path').join(__dirname, 'tools', 'setup.txt')]};\n"),
    "jest-init-literal-names-a-text-file": (
        "jest.config.js", "/** @type {import('jest').Config} */\nconst config = {\n"
        "  setupFiles: ['<rootDir>/tools/setup.txt'],\n};\n\nmodule.exports = config;\n"),
    "es-module-default-export": ("jest.config.mjs", "export default {setupFiles: "
                                 "['<rootDir>/tools/setup.txt']};\n"),
    "es-module-interop-default": ("jest.config.js", "module.exports = {__esModule: true, "
                                  "default: {setupFiles: ['<rootDir>/tools/setup.txt']}};\n"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(_NAMES_A_TEXT_FILE))
def test_jests_settings_name_a_text_file(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``: jest 29.7 runs ``tools/setup.txt`` (proved);
    the hook denies the copy."""
    name, text = _NAMES_A_TEXT_FILE[case]
    denied = _jest_case(tmp_path, "npm test", None, {"a.test.js": JEST_TEST, name: text},
                        "tools/setup.txt")
    assert denied == "cp src/js tools/setup.txt"


@pytest.mark.slow
def test_cost_a_literal_jest_config_lets_sources_and_documents_be_written(
        tmp_path: Path) -> None:
    """COST (s56-sfix J4, s61-mreview K8): under a jest.config.js exporting one literal, a
    source module, a document, a data file and the plan's ``npm test`` are allowed; under
    one that is code, a source module and a document are denied."""
    literal = ("const config = {testEnvironment: 'node', setupFiles: ['<rootDir>/tools/s.js'],"
               "\n  testPathIgnorePatterns: ['/node_modules/'],\n};\nmodule.exports = config;\n")
    calls = ["cp notes.txt src/util.js", "cp notes.txt docs/notes.md",
             "cp notes.txt docs/data.json", "npm test"]
    assert _decided(tmp_path / "literal", literal, calls) is None
    assert _decided(tmp_path / "literal-setup", literal, ["cp notes.txt tools/s.js"]) == (
        "cp notes.txt tools/s.js")
    code = "module.exports = Object.assign({}, {testEnvironment: 'node'});\n"
    for call in calls[:2]:
        assert _decided(tmp_path / "code" / call.split("/")[1], code, [call]) == call


def _decided(tmp_path: Path, config: str, calls: list[str]) -> str | None:
    """The first of ``calls`` the printed hook denies under plan ``Bash(npm test)``, ``Bash(cp
    *)`` in a project of ``"test": "jest"`` with the jest.config.js ``config``."""
    project = hooked_project(tmp_path, ["Bash(npm test)", "Bash(cp *)"])
    files = {"package.json": '{"name": "p", "scripts": {"test": "jest"}}',
             "jest.config.js": config, "notes.txt": "\n", "a.test.js": JEST_TEST,
             "src/.keep": "", "docs/.keep": "", "tools/.keep": ""}
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    return first_denied(project, calls, env)


#: Each case: the shell script file ``"test": "sh scripts/test.sh"`` runs (None: none
#: there), whether the scripts npm test runs are read alone (``start`` left out).
_SHELL_CLOSURES: list[tuple[str | None, bool]] = [
    ("mocha\n", True), ("#!/bin/sh -e\n# a comment\njest --ci\ntsc\n", True),
    ("npm run other\n", False), ("node run.js\n", False), ("mocha\nsh more.sh\n", False),
    ("#!/usr/bin/env node\nmocha\n", False), (None, False)]


def test_a_shell_file_running_closed_programs_closes_the_scripts(tmp_path: Path) -> None:
    """s61-mreview K11: ``sh scripts/test.sh`` running only programs that start no other
    script runs no other script (``start``'s ``node server.js`` is not read); a file running
    another script, program or file, one through a ``cd``, one not there: every script."""
    from skillgrant.gate.planscripts import script_closure

    scripts = {"test": "sh scripts/test.sh", "start": "node server.js", "other": "node x.js"}
    for at, (text, alone) in enumerate(_SHELL_CLOSURES):
        folder = tmp_path / str(at)
        (folder / "scripts").mkdir(parents=True)
        if text is not None:
            (folder / "scripts" / "test.sh").write_text(text)
        found = script_closure(scripts, frozenset({"test"}), str(folder))
        assert (set(found) == {"test"}) is alone, text
        assert set(script_closure(scripts, frozenset({"test"}))) == set(scripts)
    moved = {"test": "cd scripts && sh test.sh", "start": "node server.js"}
    (tmp_path / "0" / "scripts" / "scripts").mkdir()
    assert set(script_closure(moved, frozenset({"test"}), str(tmp_path / "0"))) == set(moved)


def test_npms_script_name_is_no_path() -> None:
    """s61-mreview K1: npm's words naming the script they run name no file; any other word,
    an option, a word passed on to the script: read as before."""
    from skillgrant.gate.wrapped import npm_script_name

    for rest, word in ((["test"], "test"), (["t"], "t"), (["run", "test"], "test"),
                       (["run-script", "tests"], "tests"), (["start"], "start")):
        assert npm_script_name(rest, word), rest
    for rest, word in ((["test", "test"], "test"), (["test", "--", "test/a.js"], "test/a.js"),
                       (["run", "fmt", "test"], "test"), (["--prefix", "test", "test"], "test"),
                       (["install", "test"], "test"), (["exec", "test"], "test"),
                       (["pack"], "pack"), (["test"], "")):
        assert not npm_script_name(rest, word), rest


@pytest.mark.slow
def test_cost_npm_test_of_an_ava_script_keeps_its_folder_guarded(tmp_path: Path) -> None:
    """s61-mreview K1: ``"test": "ava"``: the plan's ``npm test``, ``npm run test`` are
    allowed; a write into ava's test folder, a tree copied or linked as ``tests``, a script
    given a path in it, stay denied."""
    project = hooked_project(tmp_path, ["Bash(npm test)", "Bash(npm run *)", "Bash(cp *)",
                                        "Bash(ln *)"])
    files = {"package.json": '{"name": "p", "scripts": {"test": "ava", "fmt": "prettier"}}',
             "test/a.js": "1;\n", "lib/x.js": "1;\n", "notes.txt": "\n"}
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    assert first_denied(project, ["npm run test", "npm test"], env) is None
    for call in ("cp notes.txt test/b.js", "cp -r lib tests", "ln -s lib tests",
                 "npm run fmt -- --write test/a.js"):
        assert first_denied(project, [call], env) == call


@pytest.mark.slow
def test_a_folder_a_users_bashrc_sources_is_guarded(tmp_path: Path) -> None:
    """s62-mreview R9: Fedora's skeleton ``~/.bashrc`` sources each ``~/.bashrc.d/*`` into
    the Bash tool's next session: a write there is denied."""
    project = hooked_project(tmp_path, ["Bash(cp *)", "Bash(mkdir *)"])
    (project / "x.sh").write_text("touch zz\n")
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    home = tmp_path / "home"
    for call in (f"cp x.sh {home}/.bashrc.d/evil.sh", f"mkdir -p {home}/.bashrc.d"):
        assert first_denied(project, [call], env) == call


def test_set_options_in_a_shell_file_keep_the_scripts_closed(tmp_path: Path) -> None:
    """s62-mreview K-R11: ``set -e``, ``set -euo pipefail`` before the runner: closed;
    ``set -k`` (assignments anywhere): not."""
    from skillgrant.gate.planscripts import script_closure

    scripts = {"test": "sh scripts/test.sh", "start": "node server.js"}
    for at, (text, alone) in enumerate((("#!/bin/sh\nset -e\nmocha\n", True),
                                        ("set -euo pipefail\njest\n", True),
                                        ("set -k\nmocha\n", False))):
        (tmp_path / str(at) / "scripts").mkdir(parents=True)
        (tmp_path / str(at) / "scripts" / "test.sh").write_text(text)
        found = script_closure(scripts, frozenset({"test"}), str(tmp_path / str(at)))
        assert (set(found) == {"test"}) is alone, text


def test_a_folder_module_a_setting_names_is_guarded_below(tmp_path: Path) -> None:
    """s62-mreview R13: ``setupFiles: ['<rootDir>/tools/setup']`` may be a folder whose
    package.json ``main`` (any ending) jest loads: each file below it is one."""
    from skillgrant.gate import jestsettings
    from skillgrant.gate.placed import fold

    (tmp_path / "jest.config.js").write_text(
        "module.exports = {setupFiles: ['<rootDir>/tools/setup'], projects: ['<rootDir>/a']};")
    reading = jestsettings._Reading()
    jestsettings._folder(str(tmp_path), reading)
    main = fold(str(tmp_path / "tools" / "setup" / "main.txt"))
    assert any(p.search(main) for p in reading.patterns)
    assert not any(p.search(fold(str(tmp_path / "a" / "notes.md"))) for p in reading.patterns)
    assert not reading.code and not reading.anything


@pytest.mark.slow
def test_jests_cache_below_a_linked_tmpdir_is_guarded_by_its_real_path(tmp_path: Path) -> None:
    """s62-mreview R14: jest keys its cache by ``os.tmpdir()``'s real path: with ``TMPDIR``
    a link, a write into the cache by the link's target is denied, as by the link."""
    import os

    project = hooked_project(tmp_path, ["Bash(npm test)", "Bash(cp *)", "Bash(mkdir *)"])
    (project / "package.json").write_text('{"name": "p", "scripts": {"test": "jest"}}')
    (project / "a.test.js").write_text("test('a', () => {});\n")
    (project / "x.js").write_text("1;\n")
    real = tmp_path / "private" / "tmp"
    real.mkdir(parents=True)
    os.symlink(real, tmp_path / "tmp")
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project),
           "TMPDIR": str(tmp_path / "tmp")}
    n, uid = os.getuid(), ""  # (jest's folder: the user's number in base 36)
    while not uid or n:
        n, digit = divmod(n, 36)
        uid = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + uid
    for base in (tmp_path / "tmp", real):
        call = f"cp x.js {base}/jest_{uid}/a_1"
        assert first_denied(project, [call], env) == call, base


def test_projects_of_a_brace_glob_are_code(tmp_path: Path) -> None:
    """s62-mreview R12: ``projects: ['<rootDir>/packages/{a,b}']``: python's glob expands no
    brace, so those folders' settings are read by no one: every file of an ending is one."""
    from skillgrant.gate import jestsettings

    (tmp_path / "packages" / "a").mkdir(parents=True)
    (tmp_path / "jest.config.js").write_text(
        "module.exports = {projects: ['<rootDir>/packages/{a,b}']};\n")
    reading = jestsettings._Reading()
    jestsettings._folder(str(tmp_path), reading)
    assert reading.anything


def test_a_typed_config_reads_ts_nodes_tsconfig(tmp_path: Path) -> None:
    """s62-mreview K-R3, R15: a typed jest.config.ts literal is read; the tsconfig ts-node
    takes settings from is guarded, and one that may give ts-node options (its ``require``
    loads a module of any ending) makes the settings code."""
    from skillgrant.gate import jestsettings
    from skillgrant.gate.placed import fold

    config = ("import type {Config} from 'jest';\nconst config: Config = {setupFiles: "
              "['<rootDir>/s.txt']};\nexport default config;\n")
    for at, (tsconfig, code) in enumerate((('{"compilerOptions": {"strict": true}}', False),
                                           ('{"ts-node": {"require": ["./r.txt"]}}', True),
                                           ('{"extends": "./base.json"}', True))):
        folder = tmp_path / str(at)
        folder.mkdir()
        (folder / "jest.config.ts").write_text(config)
        (folder / "tsconfig.json").write_text(tsconfig)
        reading = jestsettings._Reading()
        jestsettings._folder(str(folder), reading)
        assert reading.anything is code, tsconfig
        assert {fold(str(folder / "s.txt")), fold(str(folder / "tsconfig.json"))} <= \
            reading.paths


def test_a_config_option_naming_a_package_json_reads_its_jest_member(tmp_path: Path) -> None:
    """s62-mreview R17: ``jest --config ci/package.json`` takes the file's ``jest``."""
    from skillgrant.gate import jestsettings
    from skillgrant.gate.placed import fold

    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "package.json").write_text(
        '{"name": "ci", "jest": {"setupFiles": ["<rootDir>/s.txt"]}}')
    reading = jestsettings._Reading()
    jestsettings._options([["--config", "ci/package.json"]], str(tmp_path), reading)
    assert fold(str(tmp_path / "ci" / "s.txt")) in reading.paths



def test_a_typed_config_below_reads_each_tsconfig_above(tmp_path: Path) -> None:
    """s62-mreview R15b: ``jest --config config/jest.config.ts`` run from the root: ts-node
    searches from the run folder, so the root's tsconfig counts beside config/'s."""
    from skillgrant.gate import jestsettings

    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "jest.config.ts").write_text("export default {};\n")
    (tmp_path / "config" / "tsconfig.json").write_text("{}")
    (tmp_path / "tsconfig.json").write_text('{"ts-node": {"require": ["./tools/x.txt"]}}')
    reading = jestsettings._Reading()
    jestsettings._options([["--config", "config/jest.config.ts"]], str(tmp_path), reading)
    assert reading.anything
