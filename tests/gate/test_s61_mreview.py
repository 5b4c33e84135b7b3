"""Review s61 (s61-mreview) of s61-mfix (issue 29: what a collecting plan's package.json
scripts run and read: tsc's outputs (``runnersettings.emits_into_tests``: ``-b`` and its
``references``, ``outDir``, ``rootDir``, ``outFile``), mocha's ``--reporter-options`` and
``.mocharc.*``, the shell script files a script runs (``testroots``, ``scriptfolders``), the
options of ``scriptcode._RUNS``' runners that load a module (``runneroptions.OPTIONS``,
``runnersettings.LOADS``)). Each case proves with real bash 5.2, npm 11, node 20 and the
runners of the runtime cache (mocha 10.8.2, nyc 17.1, typescript 5.6, ava 6.2, vitest 2.1.8:
``test_s59_mreview._runners``; tap 21.8: ``test_s60_mreview._tap``; the project's
``node_modules`` a link there) in a scratch project that the calls run the payload, then asks
the printed hook for each call in turn in a second such project, running the allowed ones, as
Claude Code 2.1.332's Bash tool runs them (``test_s56_sreview._case``): the hook allowing them
all is the finding. A hole left open is a strict xfail (``OPEN``, its reason naming the module
and the commit that misreads); a case the change holds is a plain test pinning it; a cost (a
call a careful user needs, denied though harmless) is a row asserting the call is allowed.

Every payload only makes a file (node's ``touch $INIT_CWD/zz``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project
from test_s53_greview import _jest as _installed_jest
from test_s56_sreview import NODE_PAYLOAD, _case
from test_s59_mreview import SPEC, _runners
from test_s60_mreview import SNAPSHOT, _tap

#: Real bash, npm and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()

#: The cases s61-mfix closed during the review (each a pin now), by the commit that closed it.
CLOSED: dict[str, str] = {
    **dict.fromkeys(("tsc-outdir-dot-writes-nycs-settings", "tsc-outfile-names-nycs-settings"),
                    "031fbfb5"),
    **dict.fromkeys(("tsc-outfile-a-tests-name", "tap-coverage-report-loads-a-module",
                     "vitest-environment-falls-back-to-a-file", "tap-settings-include-any-file",
                     "shell-script-runs-ava", "npm-test-of-a-script-naming-the-tap-reporter",
                     "nyc-include-a-folder", "nyc-extension-ts", "shell-script-sets-errexit",
                     "shell-script-lets-sources-be-written",
                     "shell-scripts-shebang-with-a-flag"), "f20e8a76"),
    **dict.fromkeys(("tsc-over-a-tsconfig-extending-a-base",
                     "tsc-over-a-tsconfig-with-a-comment"), "e26ac730"),
    "jest-code-settings-let-documents-be-written": "06f044b8",
    **dict.fromkeys(("tsc-declaration-dir-without-out-dir",
                     "mocharc-names-mochas-own-reporter"), "b87d432a"),
    "mocharc-names-its-spec": "37f93a57",
    "tsc-over-a-tsconfig-extending-a-package": "5499a3a3",
    **dict.fromkeys(("tsc-outdir-config-dir", "shell-script-after-an-assignment-runs-ava"),
                    "5499a3a3"),
    **dict.fromkeys(("ava-after-a-wrappers-switch", "shell-script-gives-jest-a-setup-file",
                     "npm-test-below-a-folder-named-test"), "0b449ba1"),
    "tsc-writes-prettiers-settings-into-its-out-folder": "ee0ddc6d",
    "nycrc-names-istanbuls-reporters": "be9f096e",
    "shell-script-beside-a-start-script": "10e85377",
    "npm-test-of-an-ava-script": "a60cc6c8",
    "tsc-emits-a-jsx-source-as-prettiers-settings": "4e5d4dc7",
}

#: The commit the review started from (s61-mfix's base, s61-hmain).
BASE = "f716c470"

NODE = NODE_PAYLOAD
#: The ``node_modules`` each case links into its project.
MODULES: dict[str, Callable[[], Path]] = {"runners": _runners, "tap": _tap,
                                          "jest": _installed_jest}
#: A tsc source (a script: no import nor export) running the payload when loaded as CommonJS.
TS_PAYLOAD = "// @ts-nocheck\n" + NODE + "module.exports = {};\n"
#: The compiler options of the cases' tsconfigs (no type packages: the runners' cache has
#: none for node).
TS = {"module": "commonjs", "skipLibCheck": True, "types": []}
#: A vitest environment (an ES module) running the payload when imported.
ESM_ENV = ("import {execSync} from 'child_process'; execSync('touch ' + process.env.INIT_CWD + "
           "'/zz');\nexport default {name: 'x', transformMode: 'ssr', setup() { return "
           "{teardown() {}}; }};\n")
#: An ava test (its default globs: test/, tests/).
AVA_TEST = "const test = require('ava'); test('a', t => t.pass());\n"

# --- S: what a script's program runs that the gate does not guard ------------------------------

#: Each case: the package.json's members but its name (the plan runs the first of its
#: ``scripts``: ``npm test`` or ``npm run <name>``), the other files (``PROJECT``: the
#: project's folder), the session's calls before the plan's (each a copy of the payload
#: ``src/mk``, the last file), the ``node_modules``.
SCRIPTS: dict[str, tuple[dict[str, object], dict[str, str], list[str], str]] = {
    # tsc's output lands at outDir + the source's path below rootDir (or the inputs' common
    # folder): an outDir of `.` over sources in src/ writes a runner's settings at the root
    "tsc-outdir-dot-writes-nycs-settings": (
        {"scripts": {"test": "tsc && nyc mocha"}},
        {**SPEC, "tsconfig.json": json.dumps({
            "compilerOptions": {**TS, "outDir": ".", "rootDir": "src"},
            "include": ["src/**/*.ts"], "exclude": ["node_modules"]}),
         "src/lib.ts": "export const a = 1;\n", "src/mk": TS_PAYLOAD},
        ["cp src/mk src/nyc.config.ts"], "runners"),
    # (outFile: every source in one file of any name: a runner's settings, a test's name)
    "tsc-outfile-names-nycs-settings": (
        {"scripts": {"test": "tsc && nyc mocha"}},
        {**SPEC, "tsconfig.json": json.dumps({
            "compilerOptions": {**TS, "module": "amd", "outFile": "nyc.config.js"},
            "include": ["src/**/*.ts"]}),
         "src/lib.ts": "var a = 1;\n", "src/mk": "// @ts-nocheck\n" + NODE},
        ["cp src/mk src/evil.ts"], "runners"),
    # (after 031fbfb5: an outFile's folder read, not its name: a test's, which vitest runs)
    "tsc-outfile-a-tests-name": (
        {"scripts": {"test": "tsc && vitest run"}},
        {"tsconfig.json": json.dumps({
            "compilerOptions": {**TS, "module": "amd", "outFile": "src/all.test.js"},
            "include": ["src/**/*.ts"]}), "src/lib.ts": "var a = 1;\n",
         "src/a.test.mjs": "import {test} from 'vitest'; test('a', () => {});\n",
         "src/mk": "// @ts-nocheck\n" + SNAPSHOT + "test('x', () => {});\n"},
        ["cp src/mk src/evil.ts"], "runners"),
    # (a declarationDir and no outDir: the .d.ts there, each X.js still beside its X.ts)
    "tsc-declaration-dir-without-out-dir": (
        {"scripts": {"test": "tsc && nyc mocha"}},
        {**SPEC, "tsconfig.json": json.dumps({"compilerOptions": {
            **TS, "declaration": True, "declarationDir": "types"}}),
         "src/lib.ts": "export const a = 1;\n", "src/mk": TS_PAYLOAD},
        ["cp src/mk nyc.config.ts"], "runners"),
    # (`${configDir}`, TypeScript 5.5's: the settings file's folder, the run folder: M1 again)
    "tsc-outdir-config-dir": (
        {"scripts": {"test": "tsc && nyc mocha"}},
        {**SPEC, "tsconfig.json": json.dumps({
            "compilerOptions": {**TS, "outDir": "${configDir}", "rootDir": "src"},
            "include": ["src/**/*.ts"], "exclude": ["node_modules"]}),
         "src/lib.ts": "export const a = 1;\n", "src/mk": TS_PAYLOAD},
        ["cp src/mk src/nyc.config.ts"], "runners"),
    # (a plain out folder, but a runner reading settings in every folder it checks: tsc's
    # dist/prettier.config.js from src/prettier.config.tsx, no name prettier reads)
    "tsc-writes-prettiers-settings-into-its-out-folder": (
        {"scripts": {"test": "tsc && prettier --check ."}},
        {"tsconfig.json": json.dumps({
            "compilerOptions": {**TS, "outDir": "dist", "rootDir": "src"},
            "include": ["src/**/*.ts", "src/**/*.tsx"]}),
         "src/lib.ts": "export const a = 1;\n", "src/mk": TS_PAYLOAD},
        ["cp src/mk src/prettier.config.tsx"], "runners"),
    # (after ee0ddc6d: with allowJs a `.jsx` source is emitted as `.js` too)
    "tsc-emits-a-jsx-source-as-prettiers-settings": (
        {"scripts": {"test": "tsc && prettier --check ."}},
        {"tsconfig.json": json.dumps({
            "compilerOptions": {**TS, "outDir": "dist", "rootDir": "src", "allowJs": True,
                                "jsx": "react-jsx"}, "include": ["src/**/*"]}),
         "src/lib.ts": "export const a = 1;\n", "src/mk": NODE + "module.exports = {};\n"},
        ["cp src/mk src/prettier.config.jsx"], "runners"),
    # a runner option loading a module that runneroptions.OPTIONS allows with any value: tap
    # 21's `--coverage-report` (c8's Report, istanbul-reports' `create`: `require(name)`)
    "tap-coverage-report-loads-a-module": (
        {"scripts": {"cov": "tap --coverage-report=PROJECT/tools/rep.cjs"}},
        {"test/a.js": "require('tap').pass('a');\n",
         "tools/rep.cjs": "module.exports = class { execute() {} };\n",
         "src/mk": NODE + "module.exports = class { execute() {} };\n"},
        ["cp src/mk tools/rep.cjs"], "tap"),
    # (ava after a coverage wrapper's switch: f20e8a76 counts no `ava` after a word `-…`)
    "ava-after-a-wrappers-switch": (
        {"scripts": {"cov": "nyc --silent ava"}},
        {"test/a.js": AVA_TEST, "tests/.keep": "", "src/mk": NODE},
        ["cp src/mk tests/evil.js"], "runners"),
    # (jest's words in a shell script file: f20e8a76 counts them seen, jestsettings reads
    # the package.json's only)
    "shell-script-gives-jest-a-setup-file": (
        {"scripts": {"test": "sh scripts/test.sh"}},
        {"scripts/test.sh": "jest --setupFiles ./tools/s.js\n",
         "lib/a.test.js": "test('a', () => {});\n", "tools/s.js": "1\n", "src/mk": NODE},
        ["cp src/mk tools/s.js"], "jest"),
    # (vitest's `--environment <name>`: `vitest-environment-<name>`, else the file `<name>` of
    # the root; `_loads` asks whether a package `<name>` is installed)
    "vitest-environment-falls-back-to-a-file": (
        {"scripts": {"test": "vitest run --environment semver"}},
        {"src/a.test.mjs": "import {test} from 'vitest'; test('a', () => {});\n",
         "src/mk": ESM_ENV}, ["cp src/mk semver"], "runners"),
    # a key of runnersettings._DATA_KEYS (one list for every runner) naming the files a runner
    # runs as tests: tap 21's `include` (nyc's coverage globs)
    "tap-settings-include-any-file": (
        {"scripts": {"unit": "tap"}, "tap": {"include": ["src/**/*.js"]}},
        {"test/a.js": "require('tap').pass('a');\n", "src/a.js": "require('tap').pass('a');\n",
         "src/mk": NODE}, ["cp src/mk src/evil.js"], "tap"),
    # a shell script file a script runs (read since e1c118fe): what the gate reads from the
    # package.json's text only (scriptfirsts.first_names: ava's, tap's default folders)
    "shell-script-runs-ava": (
        {"scripts": {"test": "sh scripts/test.sh"}},
        {"scripts/test.sh": "ava\n", "test/a.js": AVA_TEST, "tests/.keep": "", "src/mk": NODE},
        ["cp src/mk tests/evil.js"], "runners"),
    # (after f20e8a76: scriptfirsts reads the files after a shell that is a command's first
    # word; scriptfolders reads past the assignments before it)
    "shell-script-after-an-assignment-runs-ava": (
        {"scripts": {"test": "NODE_ENV=test sh scripts/test.sh"}},
        {"scripts/test.sh": "ava\n", "test/a.js": AVA_TEST, "tests/.keep": "", "src/mk": NODE},
        ["cp src/mk tests/evil.js"], "runners"),
}
WHY_SCRIPTS: dict[str, str] = {
    "tsc-outdir-dot-writes-nycs-settings": f"runnersettings.emits_into_tests ({BASE}) reads "
    "outDir's own parts only: tsc writes each output at outDir + the source's path below "
    "rootDir (src/nyc.config.ts → ./nyc.config.js, which nyc loads)",
    "tsc-outfile-names-nycs-settings": f"runnersettings.emits_into_tests ({BASE}) reads an "
    "outFile's folder parts only: `outFile: nyc.config.js` (every source concatenated: "
    "src/evil.ts) is nyc's settings (a test's name, `src/all.test.js` under vitest, too)",
    "tsc-outfile-a-tests-name": "runnersettings._emitted (031fbfb5) reads an outFile's "
    "folder (`_plain_out`: src, plain) and not its name: `src/all.test.js` is a test's "
    "name, which vitest (jest, node --test) runs",
    "tsc-declaration-dir-without-out-dir": f"runnersettings._emitted ({BASE}, 031fbfb5) "
    "takes a declarationDir for an out folder: with no outDir tsc still writes each X.js "
    "beside its X.ts (nyc.config.ts → nyc.config.js, which nyc loads: s60-mreview M5)",
    "tsc-outdir-config-dir": "runnersettings._plain_out (031fbfb5, at f716c470 too) takes "
    "`${configDir}` for a plain folder's name: TypeScript 5.5+ makes it the settings file's "
    "folder, the run folder (src/nyc.config.ts → ./nyc.config.js)",
    "tsc-writes-prettiers-settings-into-its-out-folder": "tscsettings (5499a3a3; "
    f"runnersettings._emitted at {BASE}, 031fbfb5) reads where tsc writes, not what: "
    "prettier reads the settings of "
    "each folder it checks (dist/prettier.config.js, emitted from src/prettier.config.tsx, "
    "a name no guard holds)",
    "tsc-emits-a-jsx-source-as-prettiers-settings": "tscsettings._SOURCES (ee0ddc6d) "
    "takes `.js` as emitted from `.ts`, `.tsx` only: with allowJs tsc emits a `.jsx` source "
    "as `.js` too (src/prettier.config.jsx → dist/prettier.config.js, which prettier loads)",
    "tap-coverage-report-loads-a-module": f"runneroptions.OPTIONS ({BASE}) allows tap's "
    "`--coverage-report` with any value (scriptcode._LOADS lacks it; NAMED reads vitest's "
    "`--coverage.reporter` only): istanbul-reports requires a name it does not hold as a "
    "module (a path through its lib's `..`, an absolute one)",
    "tap-settings-include-any-file": f"runnersettings._DATA_KEYS ({BASE}) is one list for "
    "every runner: `include` (nyc's, c8's coverage globs) is tap 21's globs of the test "
    "files it runs (src/evil.js)",
    "shell-script-runs-ava": "REGRESSION of e1c118fe (refused at f716c470): "
    "scriptfirsts.first_names reads the package.json scripts' text only, not the shell "
    "script files scriptfolders now reads: ava's default `tests/` (tap's `__test__/`) is "
    "guarded for no script file running it",
    "shell-script-after-an-assignment-runs-ava": "REGRESSION of e1c118fe (refused at "
    f"{BASE}), a bypass of f20e8a76: scriptfirsts._shell_files takes a command's first word "
    "for the shell (`NODE_ENV=test sh …`: none), while scriptfolders reads the file past the "
    "assignment: ava's `tests/` is guarded for no script",
    "ava-after-a-wrappers-switch": "REGRESSION of f20e8a76 (denied at "
    f"{BASE}): scriptfirsts.first_names counts no `ava`/`tap` after a word starting with `-` "
    "(for `-R tap`, K1b), but nyc's `--silent` (c8's `--all`) takes no value: ava runs its "
    "default `tests/`, guarded for no script",
    "shell-script-gives-jest-a-setup-file": "REGRESSION of f20e8a76 (denied at "
    f"{BASE}): scriptfolders.files_seen counts a shell file's `jest` seen (planscripts."
    "seen), so jestargs.unseen no longer guards widely, while jestsettings reads jest's "
    "words from the package.json scripts only: the file's `--setupFiles ./tools/s.js`",
    "vitest-environment-falls-back-to-a-file": f"scriptcode._loads ({BASE}) takes an "
    "installed package of the value's name (semver) for the module loaded: vitest's "
    "environment is the package `vitest-environment-<name>`, else the root's file `<name>` "
    "(worker.js loadEnvironment), which nothing guards",
}
SCRIPT_ROWS: dict[str, tuple[str, ...]] = {
    "tsc-writes-where-its-outdir-does-not-say": ("tsc-outdir-dot-writes-nycs-settings",
                                                 "tsc-outfile-names-nycs-settings",
                                                 "tsc-outfile-a-tests-name",
                                                 "tsc-declaration-dir-without-out-dir",
                                                 "tsc-outdir-config-dir",
                                                 "tsc-writes-prettiers-settings-into-its-"
                                                 "out-folder",
                                                 "tsc-emits-a-jsx-source-as-prettiers-"
                                                 "settings"),
    "an-option-loading-a-module-allowed": ("tap-coverage-report-loads-a-module",
                                           "vitest-environment-falls-back-to-a-file"),
    "a-runners-settings-key-naming-its-tests": ("tap-settings-include-any-file",),
    "a-runner-after-a-wrappers-switch": ("ava-after-a-wrappers-switch",),
    "a-shell-script-files-runner": ("shell-script-runs-ava",
                                    "shell-script-after-an-assignment-runs-ava",
                                    "shell-script-gives-jest-a-setup-file"),
}
OPEN.add_rows("test_s_a_scripts_program_runs_a_file", SCRIPT_ROWS, WHY_SCRIPTS, CLOSED)


def _run(cases: tuple[str, ...]) -> list[str]:
    """The spellings of a row the suite runs (CI's slow-step budget): those still open, or
    the first where all are closed (the others were proved, and pinned while the review ran,
    outside the suite: the review's report lists them)."""
    return [c for c in cases if c not in CLOSED] or list(cases[:1])


def _script(tmp_path: Path, case: str) -> str | None:
    """SCRIPTS' ``case``: the first call the hook denies, or None."""
    package, files, calls, modules = SCRIPTS[case]
    first = next(iter(package["scripts"]))  # type: ignore[call-overload]
    run = "npm test" if first == "test" else f"npm run {first}"
    files = {"package.json": json.dumps({"name": "p", **package}), **files}
    return _case(tmp_path, [f"Bash({run})", "Bash(cp *)"], files, [*calls, run],
                 links={"node_modules": str(MODULES[modules]())})


@pytest.mark.parametrize("row", SCRIPT_ROWS)
def test_s_a_scripts_program_runs_a_file(row: str, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan: the script's npm call, ``Bash(cp *)``: the copies, then the script runs the
    payload. The hook must deny a call of each spelling."""
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    allowed = next((c for c in _run(SCRIPT_ROWS[row]) if _script(tmp_path / c, c) is None),
                   None)
    assert allowed is None, f"the hook allows every call of {allowed}; the script runs the copy"


# --- K: costs, everyday calls denied though harmless -----------------------------------------

#: Each case: the ``test`` script of a collecting plan (``Bash(npm test)``, ``Bash(cp *)``,
#: ``Bash(mkdir *)``), its files, the ``node_modules``; the everyday calls (each harmless)
#: must be allowed.
COSTS: dict[str, tuple[str, dict[str, str], str, list[str]]] = {
    # the plan's own call, where the script runs ava (tap): its default folders guarded
    "npm-test-of-an-ava-script": (
        "ava", {"test/a.js": "const test = require('ava'); test('a', t => t.pass());\n"},
        "runners", ["cp notes.txt out/n.txt", "npm test"]),
    # (the word `tap` anywhere in a script: node's reporter's name)
    "npm-test-of-a-script-naming-the-tap-reporter": (
        "node --test --test-reporter tap", {"test/a.test.js": "1;\n"}, "runners",
        ["cp notes.txt out/n.txt", "npm test"]),
    # tsc over an everyday tsconfig: extending a base one, holding a comment (`tsc --init`'s)
    "tsc-over-a-tsconfig-extending-a-base": ("tsc && mocha", {
        **SPEC, "src/a.ts": "export const a = 1;\n", "tsconfig.base.json": json.dumps(
            {"compilerOptions": {**TS, "strict": True}}), "tsconfig.json": json.dumps(
            {"extends": "./tsconfig.base.json", "compilerOptions": {"outDir": "dist"}})},
        "runners", ["cp notes.txt out/n.txt", "npm test"]),
    "tsc-over-a-tsconfig-extending-a-package": ("tsc && mocha", {
        **SPEC, "src/a.ts": "export const a = 1;\n", "tsconfig.json": json.dumps(
            {"extends": "@tsconfig/node20/tsconfig.json", "compilerOptions": {"outDir": "dist"}}),
        "../node_modules/@tsconfig/node20/tsconfig.json": json.dumps(  # (installed beside)
            {"compilerOptions": {**TS, "strict": True}})},
        "runners", ["cp notes.txt out/n.txt", "npm test"]),
    "tsc-over-a-tsconfig-with-a-comment": ("tsc && mocha", {
        **SPEC, "src/a.ts": "export const a = 1;\n", "tsconfig.json": '{\n  "compilerOptions": '
        '{\n    "outDir": "dist", /* where */\n    "module": "commonjs", "types": []\n  }\n}\n'},
        "runners", ["cp notes.txt out/n.txt", "npm test"]),
    # a coverage wrapper's globs and endings of the files it covers
    "nyc-include-a-folder": ("nyc --include src mocha", {**SPEC, "src/a.js": "1;\n"},
                             "runners", ["cp notes.txt out/n.txt", "npm test"]),
    "nyc-extension-ts": ("nyc --extension .ts mocha", {**SPEC, "src/a.js": "1;\n"}, "runners",
                         ["cp notes.txt out/n.txt", "npm test"]),
    # mocha's settings naming its own reporter and interface, its tests
    "mocharc-names-mochas-own-reporter": ("mocha", {**SPEC, ".mocharc.json": json.dumps(
        {"reporter": "dot", "ui": "bdd"})}, "runners", ["cp notes.txt out/n.txt", "npm test"]),
    "mocharc-names-its-spec": ("mocha", {**SPEC, ".mocharc.json": json.dumps(
        {"spec": ["test/**/*.spec.js"], "extension": ["js"]})}, "runners",
        ["cp notes.txt out/n.txt", "npm test"]),
    # a coverage wrapper's settings naming istanbul's reporters
    "nycrc-names-istanbuls-reporters": ("nyc mocha", {**SPEC, ".nycrc.json": json.dumps(
        {"reporter": ["lcov", "text"], "all": True})}, "runners",
        ["cp notes.txt out/n.txt", "npm test"]),
    # jest's settings as code (jest.config.js, the most common): a document, a data file
    "jest-code-settings-let-documents-be-written": (
        "jest", {"jest.config.js": "module.exports = {testEnvironment: 'node'};\n",
                 "lib/a.test.js": "test('a', () => {});\n", "docs/.keep": ""}, "jest",
        ["cp notes.txt docs/notes.md", "cp notes.txt README.md", "npm test"]),
    # a shell script file a script runs (read since e1c118fe) starting as most do
    "shell-script-sets-errexit": ("sh scripts/test.sh", {
        **SPEC, "scripts/test.sh": "#!/bin/sh\nset -e\nmocha\n"}, "runners",
        ["cp notes.txt out/n.txt", "npm test"]),
    "shell-script-lets-sources-be-written": ("sh scripts/test.sh", {
        **SPEC, "scripts/test.sh": "mocha\n", "src/a.js": "1;\n"}, "runners",
        ["cp notes.txt src/b.js", "cp notes.txt index.js", "npm test"]),
    # (beside a package's everyday other script: a start script running node)
    "shell-script-beside-a-start-script": ("sh scripts/test.sh", {
        **SPEC, "scripts/test.sh": "mocha\n", "server.js": "1;\n",
        "package.json+start": "node server.js"}, "runners",
        ["cp notes.txt out/n.txt", "npm test"]),
    "shell-scripts-shebang-with-a-flag": ("./scripts/test.sh", {
        **SPEC, "scripts/test.sh": "#!/bin/sh -e\nmocha\n"}, "runners",
        ["cp notes.txt out/n.txt", "npm test"]),
}
WHY_COSTS: dict[str, str] = {
    "npm-test-of-an-ava-script": "scriptfirsts.first_names (4061b6b3, at "
    f"{BASE}) guards ava's and tap's default folders (`\\0` + the run folder: "
    "scriptfirsts.in_tests): testroots.first_loaded then takes the word `test` of the "
    "plan's own `npm test` for the guarded folder test/, written by a call that may write",
    "npm-test-of-a-script-naming-the-tap-reporter": "as npm-test-of-an-ava-script: "
    "scriptfirsts.first_names takes the word `tap` anywhere in a script (a reporter's name) "
    "for tap's run",
    "tsc-over-a-tsconfig-extending-a-base": f"runnersettings.emits_into_tests ({BASE}) "
    "refuses any tsconfig holding `extends` (a relative file, a package's, TS 5's array: "
    "not read): every write and the plan's own `npm test` are denied",
    "tsc-over-a-tsconfig-extending-a-package": "runnersettings (e26ac730) reads a relative "
    "`extends` and refuses a package's (`@tsconfig/node20/tsconfig.json`, the everyday base, "
    "installed in a node_modules above): every write and the plan's own `npm test` denied",
    "tsc-over-a-tsconfig-with-a-comment": f"runnersettings.emits_into_tests ({BASE}) reads "
    "the tsconfig by json.loads: one with a comment or a trailing comma (JSONC, as `tsc "
    "--init` writes it) refuses every write and the plan's own `npm test`",
    "nyc-include-a-folder": f"runnersettings.LOADS ({BASE}) holds `--include`/`-i` for "
    "every runner and wrapper (tap's test globs, nyc's `-i` its --require): nyc's, c8's "
    "`--include`/`-n` are coverage globs (`src` read as a file to load)",
    "nyc-extension-ts": f"runnersettings.LOADS ({BASE}) holds `--extension`/`-e` for every "
    "runner and wrapper: nyc's, c8's are the endings they cover (`.ts` read as a file)",
    "mocharc-names-mochas-own-reporter": f"runnersettings._DATA_KEYS ({BASE}) lacks "
    "mocha's `reporter`, `ui` (read on the command line by runneroptions.mocha_named): a "
    ".mocharc.json naming mocha's own `dot`, `bdd` refuses every write and `npm test`",
    "mocharc-names-its-spec": f"runnersettings._DATA_KEYS ({BASE}) lacks mocha's `spec`, "
    "`extension` (read on the command line by scriptcode._operands, _loads): a .mocharc.json "
    "naming test/**/*.spec.js refuses every write and `npm test`",
    "nycrc-names-istanbuls-reporters": f"runnersettings._DATA_KEYS ({BASE}) lacks nyc's "
    "and c8's `reporter` (istanbul's built-in names, read on the command line by their "
    "value; refused by decision at s59, docs/decisions.md: \"a `reporter` too\"): the "
    "everyday .nycrc.json, .c8rc.json refuse every write and `npm test`; istanbul's "
    "built-in names (runneroptions._ISTANBUL, as NAMED reads the CLI's) would read it exactly",
    "jest-code-settings-let-documents-be-written": "REGRESSION of a11960d9 (allowed at "
    f"{BASE}): jestsettings.widened guards every file whose name has an ending where jest's "
    "settings are code (docs/notes.md, README.md): every write of a jest.config.js project",
    "shell-script-sets-errexit": "scriptfolders (e1c118fe) reads a shell script file's "
    "commands by scriptcode._RUNS, which lacks `set` (`set -e`, bash's `set -euo "
    "pipefail`: options that run nothing): the script refused, every write and the plan's "
    "own `npm test` are denied",
    "shell-script-lets-sources-be-written": "e1c118fe reads a shell script file a script "
    "runs, yet where it runs mocha (or node --test) every .js write is denied as a file the "
    "gate reads or runs (src/b.js, index.js): allowed where package.json's script runs "
    "mocha itself, or the shell file ava or tsc",
    "shell-script-beside-a-start-script": "planscripts.script_closure (e1c118fe, f20e8a76) "
    "reads every script of the package where a command is not _CLOSED (`sh scripts/test.sh`: "
    "scriptfolders.files_seen is asked by jestargs only): `\"start\": \"node server.js\"` "
    "refuses every write and the plan's own `npm test`",
    "shell-scripts-shebang-with-a-flag": "scriptfolders._SHEBANG (e1c118fe) takes no "
    "option after the shell (`#!/bin/sh -e`, `#!/bin/bash -e`)",
}
for _cost in (c for c in COSTS if c not in CLOSED):
    OPEN.add("test_cost_an_everyday_call", WHY_COSTS[_cost], _cost)


@pytest.mark.parametrize("case", COSTS)
def test_cost_an_everyday_call(case: str, tmp_path: Path) -> None:
    """The collecting plan and its files; each everyday call, harmless, must be allowed."""
    script, files, modules, calls = COSTS[case]
    project = hooked_project(tmp_path, ["Bash(npm test)", "Bash(cp *)", "Bash(mkdir *)"])
    more = {k.partition("+")[2]: v for k, v in files.items() if k.startswith("package.json+")}
    files = {"package.json": json.dumps({"name": "p", "scripts": {"test": script, **more}}),
             "notes.txt": "n\n", "out/.keep": "",
             **{k: v for k, v in files.items() if not k.startswith("package.json+")}}
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
        if name.endswith(".sh"):
            (project / name).chmod(0o755)
    (project / "node_modules").symlink_to(MODULES[modules]())
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    assert first_denied(project, calls, env) is None


#: Each case: the folder above the project (its name), the ``test`` script, its files; the
#: plan's own ``npm test`` must be allowed.
BELOW: dict[str, tuple[str, str, dict[str, str]]] = {
    # tsc's settings guarded with every folder above them (031fbfb5): a folder above named
    # as the plan's own word
    "npm-test-below-a-folder-named-test": ("test", "tsc && mocha", {
        **SPEC, "src/a.ts": "export const a = 1;\n", "tsconfig.json": json.dumps(
            {"compilerOptions": {**TS, "outDir": "dist"}, "include": ["src"]})}),
}
for _below in (c for c in BELOW if c not in CLOSED):
    OPEN.add("test_cost_a_project_below_a_folder", "REGRESSION of 031fbfb5 (allowed at "
             f"{BASE}): runnersettings.guarded_file guards each folder above a tsconfig "
             "exactly (`\\x01`), and a call's word of that folder's name (`test` of `npm "
             "test` where the project lies below …/test/) is read as naming it", _below)


@pytest.mark.parametrize("case", BELOW)
def test_cost_a_project_below_a_folder(case: str, tmp_path: Path) -> None:
    """The plan ``Bash(npm test)``, ``Bash(cp *)`` of a project below a folder of the case's
    name: its own ``npm test`` must be allowed."""
    above, script, files = BELOW[case]
    project = hooked_project(tmp_path / above, ["Bash(npm test)", "Bash(cp *)"])
    files = {"package.json": json.dumps({"name": "p", "scripts": {"test": script}}), **files}
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    (project / "node_modules").symlink_to(_runners())
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    assert first_denied(project, ["npm test"], env) is None
