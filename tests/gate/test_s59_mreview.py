"""Review s59 (s59-mreview) of s59-mfix (issue 29: scriptcode's list of interpreters replaced by
``_RUNS``, an allow-list of the programs a collecting package.json script may run, each named
with what it reads; programs built then run failing closed; jest taken as present where a
program the gate does not read runs, ``jestargs._runs_named``). Each case proves with real bash
5.2, GNU make 4.3 (its recipes under /bin/sh = dash), cmake 3.25, gcc, npm 11, node 20, jest
29.7 and the runners ``_RUNS`` vouches for (mocha 10.8.2, tape 5.9, nyc 17.1, cross-env 7,
typescript 5.6, ava 6.2, prettier 3.3: installed once from the registry into the runtime
cache, the project's ``node_modules`` a link there) in a scratch project that the calls run
the payload, then asks the printed hook for each call in turn in a second such project,
running the allowed ones, as Claude Code 2.1.332's Bash tool runs them
(``test_s56_sreview._case``, ``test_s53_greview._session``): the hook allowing them all is
the finding. A hole left open is a strict xfail (``OPEN``, its reason naming the module and
the commit that misreads); a case the change holds is a plain test pinning it; a cost (a
call a careful user needs, denied though harmless) is a row asserting the call is allowed.

Every payload only makes a file (node's ``touch $INIT_CWD/zz``, ``zz`` in jest's folder)."""

from __future__ import annotations

import fcntl
import json
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs
from test_s53_greview import JEST as _JEST_HOME
from test_s53_greview import _jest as _installed_jest
from test_s56_sreview import JEST_TEST, JS_PAYLOAD, NODE_PAYLOAD, SETUP_JSON, _case

#: Real bash, make, npm and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()

#: The cases s59-mfix closed during the review (each a pin now), by the commit that closed it.
CLOSED: dict[str, str] = {
    # (held when first tried, at 6df1f7c8: closed by af4839a7 before the review's first try;
    # holes at 3e28aec6)
    "awk-file-option-attached": "af4839a7", "sqlite3-init-file": "af4839a7",
    "eslint-format-file": "held", "mocharc-above-the-project": "held",
    "the-plans-script-behind-a-wrapper": "held",
    "a-scripts-copy-under-a-pytest-plan-beside-a-makefile": "732d4024",
    **dict.fromkeys(("cp-into-the-collected-folder", "ln-into-the-collected-folder",
                     "tsc-compiles-into-the-collected-folder", "a-wrapper-runs-a-built-program",
                     "a-built-program-in-npms-bin-folder", "mocha-package-option",
                     "nyc-rc-path-option", "ava-node-arguments", "mocha-require-bare-name",
                     "mocha-reporter-bare-name", "mocha-ui-bare-name",
                     "prettier-plugin-bare-name", "cross-env-node-options",
                     "vitest-workspace-option", "a-program-word-holding-an-equals",
                     "a-write-under-cross-envs-two-assignments",
                     "a-write-under-nycs-option-value"), "545947e2"),
    **dict.fromkeys(("mocha-runs-its-operand", "tape-runs-its-operand",
                     "mocha-runs-a-folders-scripts", "tape-runs-a-globs-scripts"), "fb18171c"),
    **dict.fromkeys(("a-recipe-runs-a-bare-named-script", "cmake-runs-a-bare-named-script",
                     "a-scripts-copy-under-a-make-plan-naming-70-sources"), "64b87c0f"),
    "a-scripts-copy-after-a-c-build": "1610d5b8",
    **dict.fromkeys(("a-redirection-into-the-collected-folder",
                     "mocha-runs-a-globs-match-of-any-ending"), "4195823a"),
    **dict.fromkeys(("the-plans-script-given-to-a-shell", "the-plans-script-given-to-bash"),
                    "41bd0fd5"),
    **dict.fromkeys(("a-recipe-runs-a-script-after-a-cd", "cmake-adds-a-subdirectory",
                     "words-npm-appends-to-a-script"), "f7de1afb"),
    **dict.fromkeys(("a-recipe-globs-the-runner", "a-recipes-script-globs-the-runner"),
                    "c1171689"),
    "a-recipe-runs-npm-in-a-folder-below": "5f92968c",
    **dict.fromkeys(("a-checked-files-prettierrc-names-a-plugin", "prettiers-package-yaml"),
                    "90532c4b"),
    **dict.fromkeys(("a-recipes-node-script-runs-a-shell-script",
                     "a-sub-makes-makefile-globs-the-runner"), "a9da6faf"),
    **dict.fromkeys(("mocharc-names-a-require-by-its-alias",
                     "prettierrc-names-a-plugin-by-an-escaped-key"), "b0b3718c"),
    **dict.fromkeys(("mocharc-names-a-require", "prettierrc-names-a-plugin",
                     "vitest-config-names-a-setup-file", "vitest-workspace-file"), "df49b704"),
    **dict.fromkeys(("mocha-require-a-package-shadowed-by-a-file",
                     "a-recipe-runs-bin-sh-on-a-script", "a-recipe-runs-makes-shell-on-a-script",
                     "a-recipe-runs-a-node-script"), "92874450"),
    "package-jsons-mocha-names-a-require": "776392b0",  # (s60-mfix)
    "a-write-under-a-prettier-check": "fb7d364c",  # (s60-mfix)
    "a-write-under-a-packages-register-module": "8fa3d36d",  # (s60-mfix)
}


def _rows(test: str, rows: dict[str, tuple[str, ...]], why: dict[str, str]) -> None:
    """``OPEN.add_rows``: each row holding a case not ``CLOSED``, left open."""
    OPEN.add_rows(test, rows, why, CLOSED)


def _run(cases: tuple[str, ...]) -> list[str]:
    """The spellings of a row the suite runs (CI's slow-step budget): those still open, or
    the first where all are closed (the others were proved, and pinned while the review ran,
    outside the suite: the review's report lists them)."""
    return [c for c in cases if c not in CLOSED] or list(cases[:1])


#: The runners installed for the cases (one folder of the runtime cache jest's rows share).
RUNNERS = _JEST_HOME.parent / "s59-runners"
_PACKAGES = ("mocha@10.8.2", "tape@5.9.0", "cross-env@7.0.3", "nyc@17.1.0",
             "typescript@5.6.3", "ava@6.2.0", "prettier@3.3.3", "eslint@9.14.0",
             "vitest@2.1.8", "ts-node@10.9.2")


def _runners() -> Path:
    """The ``node_modules`` holding the runners ``_PACKAGES``, installed when missing (skips
    when npm cannot install them)."""
    needs("npm", "node")
    modules = RUNNERS / "node_modules"
    RUNNERS.mkdir(parents=True, exist_ok=True)
    with open(RUNNERS / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not all((modules / ".bin" / b).exists() for b in ("mocha", "tape", "cross-env",
                                                               "nyc", "tsc", "ava", "prettier",
                                                               "eslint", "vitest", "ts-node")):
            subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix",
                            str(RUNNERS), *_PACKAGES], capture_output=True, timeout=600,
                           check=False)
    if not (modules / ".bin" / "eslint").exists():
        pytest.skip("the runners could not be installed")
    return modules


# --- S: what a program of `_RUNS` runs that the gate does not guard -----------------------------

#: A mocha test (the default spec's folder, test/).
SPEC = {"test/a.spec.js": "it('a', () => {});\n"}
#: Each case: the ``test`` script, the other files, the copy's operands, the payload (the copy's
#: source, ``src/mk``; ``NODE`` node's).
NODE = NODE_PAYLOAD
#: An ES module's payload (vitest's settings, workspace and setup files), and a vitest test.
ESM = ("import {execSync} from 'child_process'; execSync('touch ' + process.env.INIT_CWD + "
       "'/zz');\nexport default {};\n")
VITEST = {"src/a.test.mjs": "import {test} from 'vitest'; test('a', () => {});\n"}
SCRIPTS: dict[str, tuple[str, dict[str, str], str, str]] = {
    # copiers ("no code: its operands as data") writing a file the session may write into the
    # folder node's --test collects, under a test's name; tsc ("data") compiling into it
    "cp-into-the-collected-folder": (
        "mkdir -p test && cp tools/t.js test/t.test.js && node --test", {"tools/t.js": "1\n"},
        "src/mk tools/t.js", NODE),
    "ln-into-the-collected-folder": (
        "ln -sf ../tools/t.js test/t.test.js && node --test",
        {"tools/t.js": "1\n", "test/.keep": ""}, "src/mk tools/t.js", NODE),
    "a-redirection-into-the-collected-folder": (
        "cat tools/t.js > test/t.test.js && node --test", {"tools/t.js": "1\n",
                                                           "test/a.test.js": "1\n"},
        "src/mk tools/t.js", NODE),
    "tsc-compiles-into-the-collected-folder": (
        "tsc && mocha", {"tsconfig.json": json.dumps({
            "compilerOptions": {"outDir": "test", "module": "commonjs"},
            "include": ["src/**/*.ts"]}), "src/lib.ts": "export const a = 1;\n"},
        "src/mk src/evil.ts", "// @ts-nocheck\n" + NODE),
    # a program built by allowed programs, run by a wrapper by a name of `_RUNS` (`./out/cat`)
    "a-wrapper-runs-a-built-program": (
        "mkdir -p out && cp tools/r.txt out/cat && chmod +x out/cat && cross-env X=1 ./out/cat",
        {"tools/r.txt": "true\n"}, "src/mk tools/r.txt",
        '#!/bin/sh\ntouch "$INIT_CWD/zz"\n'),
    # …into npm's bin folder (first on the script's PATH), run by a listed name
    "a-built-program-in-npms-bin-folder": (
        "mkdir -p node_modules/.bin && cp tools/r.txt node_modules/.bin/cat && chmod +x "
        "node_modules/.bin/cat && cat package.json && node --test",
        {"tools/r.txt": "true\n", "test/a.test.js": "1\n"}, "src/mk tools/r.txt",
        '#!/bin/sh\ntouch "$INIT_CWD/zz"\n'),
    # a runner running its file operand as a test (no test's name, no collected folder)
    "mocha-runs-its-operand": ("mocha tools/check.js", {"tools/check.js": "1\n"},
                               "src/mk tools/check.js", NODE),
    "tape-runs-its-operand": ("tape tools/check.js", {"tools/check.js": "1\n"},
                              "src/mk tools/check.js", NODE),
    # …every script below a folder or a glob it is given (no test's name: the names guarded)
    "mocha-runs-a-folders-scripts": ("mocha spec", {"spec/a.js": "it('a', () => {});\n"},
                                     "src/mk spec/b.js", NODE),
    "mocha-runs-a-globs-match-of-any-ending": ("mocha 'tools/*.test.js*'", {
        **SPEC, "tools/a.test.js": "it('a', () => {});\n"}, "src/mk tools/a.test.js.bak", NODE),
    "tape-runs-a-globs-scripts": ("tape 'tests/*.js'", {"tests/a.js": "require('tape')('a', "
                                                        "t => t.end());\n"},
                                  "src/mk tests/b.js", NODE),
    # options loading code (or settings naming code) that `_LOADS` does not list
    "mocha-package-option": (
        "mocha --package=tools/p.json", {**SPEC, "tools/pre.cjs": "1\n", "tools/p.json":
                                          json.dumps({"mocha": {"require": ["./tools/pre.cjs"]}})},
        "src/mk tools/pre.cjs", NODE),
    "nyc-rc-path-option": (
        "nyc --nycrc-path=tools/n.json mocha", {**SPEC, "tools/pre.cjs": "1\n", "tools/n.json":
                                                 json.dumps({"require": ["./tools/pre.cjs"]})},
        "src/mk tools/pre.cjs", NODE),
    "ava-node-arguments": (
        "ava --node-arguments=--require=./tools/x.cjs",
        {"test/a.js": "const test = require('ava'); test('a', t => t.pass());\n",
         "tools/x.cjs": "1\n"}, "src/mk tools/x.cjs", NODE),
    # a package's module that a file of the folder shadows (mocha tries the file first)
    "mocha-require-a-package-shadowed-by-a-file": (
        "mocha --require ts-node/register", {**SPEC, "ts-node/.keep": ""},
        "src/mk ts-node/register.js", NODE),
    # an option's bare name that the runner loads from the folder it runs in
    "mocha-require-bare-name": ("mocha --require setup", {**SPEC, "setup.js": "1\n"},
                                "src/mk setup.js", NODE),
    "mocha-reporter-bare-name": ("mocha --reporter rep", {**SPEC, "rep.js": "1\n"},
                                 "src/mk rep.js", NODE),
    "mocha-ui-bare-name": ("mocha --ui myui", {**SPEC, "myui.js": "1\n"}, "src/mk myui.js",
                           NODE),
    "prettier-plugin-bare-name": ("prettier --plugin=plug --check package.json ; mocha",
                                  {**SPEC, "plug": "1\n"}, "src/mk plug", NODE),
    # the runner's guarded settings naming code (jest's are read; these are not)
    "mocharc-names-a-require": (
        "mocha", {**SPEC, ".mocharc.json": json.dumps({"require": ["./tools/pre.cjs"]}),
                  "tools/pre.cjs": "1\n"}, "src/mk tools/pre.cjs", NODE),
    "package-jsons-mocha-names-a-require": (
        "mocha", {**SPEC, "tools/pre.cjs": "1\n"}, "src/mk tools/pre.cjs", NODE),
    "mocharc-names-a-require-by-its-alias": (
        "mocha", {**SPEC, ".mocharc.json": json.dumps({"r": ["./tools/pre.cjs"]}),
                  "tools/pre.cjs": "1\n"}, "src/mk tools/pre.cjs", NODE),
    "prettierrc-names-a-plugin-by-an-escaped-key": (
        "prettier --check package.json ; mocha",
        {**SPEC, ".prettierrc": '{"plugin\\u0073": ["./tools/p.cjs"]}',
         "tools/p.cjs": "module.exports = {};\n"}, "src/mk tools/p.cjs",
        NODE + "module.exports = {};\n"),
    "a-checked-files-prettierrc-names-a-plugin": (
        "prettier --check src/a.js ; mocha",
        {**SPEC, "src/a.js": "1;\n", "src/.prettierrc": json.dumps({"plugins": ["../tools/p.cjs"]}),
         "tools/p.cjs": "module.exports = {};\n"}, "src/mk tools/p.cjs",
        NODE + "module.exports = {};\n"),
    "prettierrc-names-a-plugin": (
        "prettier --check package.json ; mocha",
        {**SPEC, ".prettierrc": json.dumps({"plugins": ["./tools/p.cjs"]}),
         "tools/p.cjs": "module.exports = {};\n"}, "src/mk tools/p.cjs",
        NODE + "module.exports = {};\n"),
    # a wrapper's assignment of a variable a program reads a file by (no test there yet)
    "cross-env-node-options": ("cross-env NODE_OPTIONS=--require=./tools/x.cjs mocha",
                               {"tools/x.cjs": "1\n"}, "src/mk tools/x.cjs", NODE),
    # vitest's workspace file (code), its settings' setupFiles
    "vitest-workspace-option": ("vitest run --workspace tools/ws.mjs", {**VITEST,
                                "tools/ws.mjs": "export default ['.'];\n"},
                                "src/mk tools/ws.mjs", ESM.replace("{}", "['.']")),
    "vitest-config-names-a-setup-file": (
        "vitest run", {**VITEST, "vitest.config.mjs": "export default {test: {setupFiles: "
                       "['./tools/s.mjs']}};\n", "tools/s.mjs": "1\n"}, "src/mk tools/s.mjs",
        ESM),
    # words npm appends to another script's text (`npm run unit -- …`): node --test's reporter
    "words-npm-appends-to-a-script": (
        "npm run unit -- --test-reporter=./tools/r.mjs", {"test/a.test.js": "1\n",
                                                          "tools/r.mjs": "export default 1;\n"},
        "src/mk tools/r.mjs", ESM.replace("{}", "async function* (s) { for await (const e of "
                                          "s) {} }")),
    # vitest's workspace file, found by its name in the settings' folder
    "vitest-workspace-file": ("vitest run", VITEST, "src/mk vitest.workspace.mjs",
                              ESM.replace("{}", "['.']")),
    # prettier's package.yaml (its `prettier` key), written with the plugin it names
    "prettiers-package-yaml": (
        "prettier --check package.json ; mocha", {**SPEC, "tools/.keep": ""},
        "src/mk tools/p.cjs && cp ../pay/p.yaml package.yaml", NODE + "module.exports = {};\n"),
    # a program's word holding `=` (no assignment: its name is no identifier) read as the
    # word after the `=`
    "a-program-word-holding-an-equals": (
        "mocha && tools/x=echo", {**SPEC, "tools/x=echo": "true\n"}, "src/mk tools/x=echo",
        '#!/bin/sh\ntouch "$INIT_CWD/zz"\n'),
    # held: a program off the list (closed by af4839a7 before the first try), eslint's
    # formatter path, mocha's settings above the project
    "awk-file-option-attached": ("awk -ftools/x.awk package.json", {"tools/x.awk": "{}\n"},
                                 "src/mk tools/x.awk", 'BEGIN{system("touch zz")}\n'),
    "sqlite3-init-file": ("sqlite3 -init tools/x.sql :memory: .quit", {"tools/x.sql": "\n"},
                          "src/mk tools/x.sql", ".shell touch zz\n"),
    "eslint-format-file": (
        "eslint -f ./tools/fmt.cjs src && mocha",
        {**SPEC, "tools/fmt.cjs": "module.exports = () => '';\n",
         "eslint.config.js": "module.exports = [];\n", "src/a.js": "1;\n"},
        "src/mk tools/fmt.cjs", "module.exports = () => { " + NODE.strip() + "; return ''; };\n"),
    "mocharc-above-the-project": ("mocha", SPEC, "src/mk ../.mocharc.yml",
                                  "require: ../pre.cjs\n"),
}
#: Why each case of ``SCRIPTS`` is open.
WHY_SCRIPTS: dict[str, str] = {
    "cp-into-the-collected-folder": "scriptcode._RUNS (af4839a7) reads cp/ln/mv/tee as \"no "
    "code: its operands as data\": a script's `cp tools/t.js test/t.test.js` puts a file the "
    "session may write into the folder node --test collects",
    "ln-into-the-collected-folder": "as cp-into-the-collected-folder, `ln -sf` (af4839a7)",
    "a-redirection-into-the-collected-folder": "scriptcode._RUNS (545947e2) has no copier, yet "
    "an output redirection (planscripts.commands reads it as plain) writes: `cat tools/t.js > "
    "test/t.test.js`",
    "mocha-runs-a-globs-match-of-any-ending": "scriptcode._operands (fb18171c) reads the "
    "glob's last part `*.test.js*` as `x.test.jsx`, a test's name; mocha requires every "
    "match (`a.test.js.bak`: no test's name for testnames)",
    "tsc-compiles-into-the-collected-folder": "scriptcode._RUNS (af4839a7): tsc reads \"sources "
    "as data\", yet writes them (tsconfig's outDir) into the folder mocha collects",
    "a-wrapper-runs-a-built-program": "scriptcode._allowed (af4839a7) takes the program by its "
    "basename (`./out/cat` is `cat`) and testroots._code_run skips a path not there at the "
    "hook's time past the first word: cp+chmod build it, cross-env runs it",
    "mocha-runs-its-operand": "scriptcode._RUNS (af4839a7) says mocha reads its tests "
    "(testfiles' names): it runs any file operand (`tools/check.js`), which nothing guards",
    "tape-runs-its-operand": "as mocha-runs-its-operand, tape's file operands (af4839a7)",
    "mocha-runs-a-folders-scripts": "as mocha-runs-its-operand: `mocha spec` runs every script "
    "in spec/; the gate guards test names and test/ only (testroots: a folder below the run "
    "folder is walked by those names) (af4839a7)",
    "tape-runs-a-globs-scripts": "as mocha-runs-a-folders-scripts: tape's glob `tests/*.js` "
    "(af4839a7)",
    "mocha-package-option": "scriptcode._LOADS (af4839a7) lacks mocha's `--package` (a "
    "package.json whose \"mocha\" names a require)",
    "nyc-rc-path-option": "scriptcode._LOADS (af4839a7) lacks nyc's `--nycrc-path` (its "
    "settings name a require)",
    "ava-node-arguments": "scriptcode._LOADS (af4839a7) lacks ava's `--node-arguments` "
    "(`--require=./tools/x.cjs` for each worker)",
    "mocha-require-bare-name": "scriptcode._allowed (af4839a7) refuses a `_LOADS` value that "
    "is a path or has a code ending: mocha requires `path.resolve(setup)` (./setup.js) when "
    "the name is a file of the folder",
    "mocha-require-a-package-shadowed-by-a-file": "scriptcode._loads (545947e2) takes a value "
    "naming an installed package as no file: mocha's --require tests the folder's "
    "`ts-node/register(.js)` first and requires it",
    "mocha-reporter-bare-name": "as mocha-require-bare-name: mocha's reporter (af4839a7)",
    "mocha-ui-bare-name": "as mocha-require-bare-name: mocha's ui (af4839a7)",
    "prettier-plugin-bare-name": "as mocha-require-bare-name: prettier 3 imports a plugin "
    "`plug` from the folder first (a file of no ending) (af4839a7)",
    "mocharc-names-a-require": "scriptcode._RUNS (af4839a7) says mocha reads \"its settings "
    "files (STARTS)\": the guarded .mocharc.json names ./tools/pre.cjs, which nothing guards "
    "(jest's setupFiles are read by jestsettings; mocha's, nyc's, ava's, tap's are not)",
    "package-jsons-mocha-names-a-require": "scriptcode._settings (df49b704, b0b3718c) reads "
    "the settings files starttables.STARTS names for mocha (`.mocharc.*`): package.json's "
    "`mocha` member (`{\"r\": [\"./tools/pre.cjs\"]}`) is never read",
    "mocharc-names-a-require-by-its-alias": "scriptcode._CODE_KEYS (df49b704) matches the "
    "settings' bytes: mocha applies its option aliases to settings (`r`: require; `R`, `u`)",
    "prettierrc-names-a-plugin-by-an-escaped-key": "as mocharc-names-a-require-by-its-alias: "
    "a JSON escape in the key (`\"plugin\\u0073\"`) is `plugins` to prettier's parser "
    "(df49b704)",
    "a-checked-files-prettierrc-names-a-plugin": "scriptcode._settings (df49b704) reads the "
    "script's folder's settings only: prettier takes src/.prettierrc for src/a.js (from each "
    "checked file's folder up)",
    "prettierrc-names-a-plugin": "as mocharc-names-a-require: .prettierrc's plugins "
    "(af4839a7)",
    "vitest-config-names-a-setup-file": "as mocharc-names-a-require: vitest.config's "
    "setupFiles (af4839a7)",
    "cross-env-node-options": "scriptcode._allowed (af4839a7) skips cross-env's assignments "
    "unread (NODE_OPTIONS, NODE_PATH, LD_PRELOAD: a shell's assignment before a program "
    "refuses, _PLAIN_NAMES); mocha's node requires ./tools/x.cjs (at 3e28aec6 too)",
    "vitest-workspace-option": "scriptcode._LOADS (af4839a7) lacks vitest's `--workspace` (a "
    "code file)",
    "words-npm-appends-to-a-script": "planscripts.script_closure reads `unit` (`node --test`) "
    "alone, and scriptcode._allowed the outer words against _LOADS only: npm appends `-- "
    "--test-reporter=./tools/r.mjs` to unit's text, node imports the reporter (af4839a7)",
    "vitest-workspace-file": "starttables.STARTS' vitest names `{vitest,vite}.config.*` only: "
    "vitest 2 loads `vitest.workspace.*` (and `vitest.projects.*`) from its settings' folder "
    "as code (af4839a7 lists vitest in scriptcode._RUNS by those settings)",
    "a-built-program-in-npms-bin-folder": "as a-wrapper-runs-a-built-program: the script's "
    "cp/chmod (scriptcode._RUNS, af4839a7) make node_modules/.bin/cat, first on npm's PATH; "
    "its `cat package.json` runs it",
    "prettiers-package-yaml": "starttables.STARTS' prettier names no package.yaml: prettier 3 "
    "reads its `prettier` key (plugins) where package.json has none (b0b3718c)",
    "a-program-word-holding-an-equals": "testroots._folders_of/_code_run read each word as "
    "`w.rpartition('=')[2]`: the program `tools/x=echo` (no assignment: dash runs it) is "
    "read as `echo`, in scriptcode._RUNS (af4839a7; at 3e28aec6 too)",
}
SCRIPT_ROWS: dict[str, tuple[str, ...]] = {
    "writes-into-the-collected-folder": ("a-redirection-into-the-collected-folder",
                                         "cp-into-the-collected-folder",
                                         "ln-into-the-collected-folder",
                                         "tsc-compiles-into-the-collected-folder"),
    "a-listed-name-runs-a-built-program": ("a-wrapper-runs-a-built-program",
                                           "a-built-program-in-npms-bin-folder"),
    "a-runners-operand": ("mocha-runs-a-globs-match-of-any-ending", "mocha-runs-its-operand",
                          "tape-runs-its-operand",
                          "mocha-runs-a-folders-scripts", "tape-runs-a-globs-scripts"),
    "an-option-loading-code-not-listed": ("mocha-package-option", "nyc-rc-path-option",
                                          "ava-node-arguments", "vitest-workspace-option"),
    "a-wrappers-assignment": ("cross-env-node-options",),
    "a-settings-file-not-named": ("prettiers-package-yaml", "vitest-workspace-file"),
    "words-npm-appends-to-a-script": ("words-npm-appends-to-a-script",),
    "a-program-word-holding-an-equals": ("a-program-word-holding-an-equals",),
    "a-package-shadowed-by-a-file": ("mocha-require-a-package-shadowed-by-a-file",),
    "a-bare-name-is-a-file-of-the-folder": ("mocha-require-bare-name",
                                            "mocha-reporter-bare-name", "mocha-ui-bare-name",
                                            "prettier-plugin-bare-name"),
    "guarded-settings-naming-code": ("package-jsons-mocha-names-a-require",
                                     "mocharc-names-a-require-by-its-alias",
                                     "prettierrc-names-a-plugin-by-an-escaped-key",
                                     "a-checked-files-prettierrc-names-a-plugin",
                                     "mocharc-names-a-require", "prettierrc-names-a-plugin",
                                     "vitest-config-names-a-setup-file"),
    "held-programs-and-options": ("awk-file-option-attached", "sqlite3-init-file",
                                  "eslint-format-file", "mocharc-above-the-project"),
}
_rows("test_s_a_listed_program_runs_a_file", SCRIPT_ROWS, WHY_SCRIPTS)


def _script(tmp_path: Path, case: str) -> str | None:
    """SCRIPTS' ``case``: the first call the hook denies, or None."""
    script, files, copy, source = SCRIPTS[case]
    modules = _runners()
    scripts = {"test": script, **({"unit": "node --test"} if "run unit" in script else {})}
    member = {"mocha": {"r": ["./tools/pre.cjs"]}} if case.startswith("package-jsons") else {}
    files = {"package.json": json.dumps({"name": "p", "scripts": scripts, **member}),
             "src/mk": source, **files}
    setup = ("printf '%s\\n' \"require('child_process').execSync('touch ' + "
             "process.env.INIT_CWD + '/zz')\" > ../pre.cjs" if "above" in case else
             "mkdir -p ../pay && printf 'prettier:\\n  plugins:\\n    - ./tools/p.cjs\\n' > "
             "../pay/p.yaml" if "yaml" in case else "")
    if source.startswith("#!"):  # (a program: the copy keeps its mode)
        setup = "chmod +x src/mk" + (" 'tools/x=echo'" if "tools/x=echo" in files else "")
    links = {} if "node_modules/" in script else {"node_modules": str(modules)}
    copies = [f"cp {c}" for c in copy.split(" && cp ")]
    return _case(tmp_path, ["Bash(npm test)", "Bash(cp *)"], files, [*copies, "npm test"],
                 links=links, setup=setup)


@pytest.mark.parametrize("row", SCRIPT_ROWS)
def test_s_a_listed_program_runs_a_file(row: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``: the copy, then ``npm test``'s script (each of
    its programs in ``_RUNS``, or held) runs it. The hook must deny a call of each spelling."""
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    needs("awk", "sqlite3")
    allowed = next((c for c in _run(SCRIPT_ROWS[row]) if _script(tmp_path / c, c) is None), None)
    assert allowed is None, f"the hook allows every call of {allowed}; the script runs the copy"


# --- J: jest run where `_runs_named` reads no `jest` ---------------------------------------------

#: Each case: the plan's entry, the files (``JESTBIN``: the installed jest outside the project,
#: ``JESTGLOB`` a glob matching it with no `jest` spelled), the file the copy writes (jest loads
#: it: the settings' setupFiles).
JEST: dict[str, tuple[str, dict[str, str], str]] = {
    # a recipe's (cmake's execute_process') script of a bare name: `_TOKEN` wants a `/` or an
    # ending
    "a-recipe-runs-a-bare-named-script": (
        "make test", {"Makefile": "test:\n\tsh runtests\n", "runtests": "JESTBIN --config "
                      "ci.json\n", "ci.json": SETUP_JSON, "lib/unit/a.test.js": JEST_TEST},
        "tools/s.js"),
    "cmake-runs-a-bare-named-script": (
        "cmake -S . -B build", {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\n"
                                "project(p NONE)\nexecute_process(COMMAND sh runtests "
                                "WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})\n",
                                "runtests": "JESTBIN --config ci.json\n", "ci.json": SETUP_JSON,
                                "lib/unit/a.test.js": JEST_TEST}, "tools/s.js"),
    # a recipe's script after its `cd` (the token is joined to the plan's folder)
    "a-recipe-runs-a-script-after-a-cd": (
        "make test", {"Makefile": "test:\n\tcd ci && sh run.sh\n", "ci/run.sh": "JESTBIN "
                      "--config ../ci.json --rootDir ..\n", "ci.json": SETUP_JSON,
                      "lib/unit/a.test.js": JEST_TEST}, "tools/s.js"),
    "cmake-adds-a-subdirectory": (
        "cmake -S . -B build", {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\n"
                                "project(p NONE)\nadd_subdirectory(web)\n",
                                "web/CMakeLists.txt": "execute_process(COMMAND JESTBIN --config "
                                "ci.json WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})\n",
                                "ci.json": SETUP_JSON, "lib/unit/a.test.js": JEST_TEST},
        "tools/s.js"),
    # a shell by its path or make's $(SHELL), given a script of no `#!` (64b87c0f reads a
    # `sh`/`bash`/`dash` word's operand only); a node script run by a recipe
    "a-recipe-runs-bin-sh-on-a-script": (
        "make test", {"Makefile": "test:\n\t/bin/sh runtests\n", "runtests": "JESTBIN --config "
                      "ci.json\n", "ci.json": SETUP_JSON, "lib/unit/a.test.js": JEST_TEST},
        "tools/s.js"),
    "a-recipe-runs-makes-shell-on-a-script": (
        "make test", {"Makefile": "test:\n\t$(SHELL) runtests\n", "runtests": "JESTBIN "
                      "--config ci.json\n", "ci.json": SETUP_JSON,
                      "lib/unit/a.test.js": JEST_TEST}, "tools/s.js"),
    "a-recipe-runs-a-node-script": (
        "make test", {"Makefile": "test:\n\tnode scripts/test.js\n", "scripts/test.js":
                      "require('child_process').execSync('JESTBIN --config ci.json', "
                      "{stdio: 'inherit'});\n", "ci.json": SETUP_JSON,
                      "lib/unit/a.test.js": JEST_TEST}, "tools/s.js"),
    # an interpreter's script running a shell script (7f439ac5 searches its bytes only)
    "a-recipes-node-script-runs-a-shell-script": (
        "make test", {"Makefile": "test:\n\tnode scripts/test.js\n", "scripts/test.js":
                      "require('child_process').execSync('sh scripts/run.sh', {stdio: "
                      "'inherit'});\n", "scripts/run.sh": "JESTBIN --config ci.json\n",
                      "ci.json": SETUP_JSON, "lib/unit/a.test.js": JEST_TEST}, "tools/s.js"),
    # a sub-make's makefile by -f, its recipe's glob
    "a-sub-makes-makefile-globs-the-runner": (
        "make test", {"Makefile": "test:\n\t$(MAKE) -f ci.mk\n", "ci.mk": "all:\n\tJESTGLOB "
                      "--config ci.json\n", "ci.json": SETUP_JSON,
                      "lib/unit/a.test.js": JEST_TEST}, "tools/s.js"),
    # jest spelled by a glob, in the recipe or in the script it runs
    "a-recipe-globs-the-runner": (
        "make test", {"Makefile": "test:\n\tJESTGLOB --config ci.json\n", "ci.json": SETUP_JSON,
                      "lib/unit/a.test.js": JEST_TEST}, "tools/s.js"),
    "a-recipes-script-globs-the-runner": (
        "make test", {"Makefile": "test:\n\tsh scripts/test.sh\n", "scripts/test.sh":
                      "JESTGLOB --config ci.json\n", "ci.json": SETUP_JSON,
                      "lib/unit/a.test.js": JEST_TEST}, "tools/s.js"),
    # the plan's own script given to a shell (9f18b702 marks `./ci.sh`: a program by its path)
    "the-plans-script-given-to-a-shell": (
        "sh ci.sh", {"ci.sh": "JESTBIN --config ci.json\n", "ci.json": SETUP_JSON,
                     "lib/unit/a.test.js": JEST_TEST}, "tools/s.js"),
    "the-plans-script-given-to-bash": (
        "bash scripts/ci.sh", {"scripts/ci.sh": "JESTBIN --config ci.json\n",
                               "ci.json": SETUP_JSON, "lib/unit/a.test.js": JEST_TEST},
        "tools/s.js"),
    # held: the plan's `./ci.sh` behind a wrapper
    "the-plans-script-behind-a-wrapper": (
        "timeout 600 ./ci.sh", {"ci.sh": "#!/bin/sh\nJESTBIN --config ci.json\n",
                                "ci.json": SETUP_JSON, "lib/unit/a.test.js": JEST_TEST},
        "tools/s.js"),
    # a recipe running npm's test script in a folder below (its package.json names jest)
    "a-recipe-runs-npm-in-a-folder-below": (
        "make test", {"Makefile": "test:\n\tcd web && npm test\n", "web/package.json":
                      json.dumps({"name": "w", "scripts": {"test": "jest"}, "jest": {
                          "setupFiles": ["<rootDir>/tools/s.js"]}}),
                      "web/lib/unit/a.test.js": JEST_TEST}, "web/tools/s.js"),
}
WHY_JEST: dict[str, str] = {
    "a-recipe-runs-a-bare-named-script": "jestargs._runs_named (64cfc2d9) follows a word with "
    "a `/` or an ending only (_TOKEN): the recipe's `sh runtests` runs jest, never read",
    "cmake-runs-a-bare-named-script": "as a-recipe-runs-a-bare-named-script: cmake's "
    "`execute_process(COMMAND sh runtests)` (64cfc2d9)",
    "a-recipe-runs-a-script-after-a-cd": "as a-recipe-runs-a-bare-named-script: "
    "jestargs._runs_named joins a word to the plan's folder, not the recipe's `cd ci` (64cfc2d9)",
    "cmake-adds-a-subdirectory": "as a-recipe-runs-a-bare-named-script: `add_subdirectory(web)` "
    "names web/CMakeLists.txt by no _TOKEN (64cfc2d9)",
    "a-recipe-runs-bin-sh-on-a-script": "jestargs._OPERAND (64b87c0f) takes a shell's operand "
    "after a blank and `sh`/`bash`/`dash` only: `/bin/sh runtests` (cmake's `COMMAND /bin/sh "
    "runtests`, `sh -- runtests`) is a non-executable file of no `#!`, read as a source: "
    "not read",
    "a-recipe-runs-makes-shell-on-a-script": "as a-recipe-runs-bin-sh-on-a-script: make's "
    "`$(SHELL) runtests` (64b87c0f)",
    "a-recipe-runs-a-node-script": "jestargs._program_text (64b87c0f) reads no non-executable "
    "script of no `#!` (\"a source\"): `node scripts/test.js` spells jest literally and is "
    "never read (64cfc2d9 searched it)",
    "a-recipes-node-script-runs-a-shell-script": "jestargs._runs_named (7f439ac5) searches an "
    "interpreter's script for jest's name only, following none of its words: "
    "`execSync('sh scripts/run.sh')` runs a script never read",
    "a-sub-makes-makefile-globs-the-runner": "jestargs._RECIPE_GLOB (1610d5b8) is looked for "
    "in the build files of _BUILD_FILES' names only: `$(MAKE) -f ci.mk`'s recipe globs jest",
    "a-recipe-globs-the-runner": "jestargs._runs_named (64cfc2d9) is a spelling scan "
    "(`b\"jest\" in text`): `…/je*-29.7.0/node_modules/.bin/je*t` runs jest",
    "a-recipes-script-globs-the-runner": "as a-recipe-globs-the-runner, in the script the "
    "recipe runs (64cfc2d9)",
    "the-plans-script-given-to-a-shell": "planprograms._entry_programs (9f18b702) marks an "
    "entry's program `&*` (it runs any program: jest's settings read) where it holds a `/`: "
    "`sh ci.sh` runs the same script by the shell",
    "the-plans-script-given-to-bash": "as the-plans-script-given-to-a-shell (9f18b702)",
    "a-recipe-runs-npm-in-a-folder-below": "jest's settings are read for the plan's run folders "
    "(jestargs.present(folder)): a recipe's `cd web && npm test` runs jest in web/ (at "
    "6df1f7c8 and 3e28aec6)",
}
JEST_ROWS: dict[str, tuple[str, ...]] = {
    "a-bare-named-script": ("a-recipe-runs-a-bare-named-script",
                            "cmake-runs-a-bare-named-script", "cmake-adds-a-subdirectory",
                            "a-recipe-runs-a-script-after-a-cd"),
    "a-shell-by-its-path": ("a-recipe-runs-bin-sh-on-a-script",
                            "a-recipe-runs-makes-shell-on-a-script"),
    "an-interpreters-script": ("a-recipes-node-script-runs-a-shell-script",
                               "a-recipe-runs-a-node-script"),
    "a-runner-not-spelled-jest": ("a-sub-makes-makefile-globs-the-runner",
                                  "a-recipe-globs-the-runner",
                                  "a-recipes-script-globs-the-runner"),
    "a-recipe-runs-npm-in-a-folder-below": ("a-recipe-runs-npm-in-a-folder-below",),
    "the-plans-script-given-to-a-shell": ("the-plans-script-given-to-a-shell",
                                          "the-plans-script-given-to-bash"),
    "held-the-plans-script-behind-a-wrapper": ("the-plans-script-behind-a-wrapper",),
}
_rows("test_j_the_runner_loads_a_file", JEST_ROWS, WHY_JEST)


def _jest_case(tmp_path: Path, case: str) -> str | None:
    """JEST's ``case``: the first call the hook denies, or None."""
    entry, files, target = JEST[case]
    jest = str(_installed_jest() / ".bin" / "jest")
    glob = jest.replace("/jest-29.7.0/", "/je*-29.7.0/").replace("/.bin/jest", "/.bin/je*t")
    files = {**{k: v.replace("JESTBIN", jest).replace("JESTGLOB", glob)
                for k, v in files.items()},
             target: "module.exports = {};\n", "src/js": JS_PAYLOAD}
    needs("make", *(["cmake"] if entry.startswith("cmake") else []))
    links = {"web/node_modules": str(_installed_jest())} if "web/" in target else None
    return _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                 [f"cp src/js {target}", entry], links=links,
                 setup="chmod +x ci.sh" if "./ci.sh" in entry else "")


@pytest.mark.parametrize("row", JEST_ROWS)
def test_j_the_runner_loads_a_file(row: str, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: the copy over the setup file jest's settings
    name, then the entry runs jest. The hook must deny a call of each spelling."""
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    allowed = next((c for c in _run(JEST_ROWS[row]) if _jest_case(tmp_path / c, c) is None),
                   None)
    assert allowed is None, f"the hook allows every call of {allowed}, and jest loads the copy"


# --- K: costs, everyday calls denied though harmless -----------------------------------------

#: Each case: the plan's entries, its files, the everyday calls (each harmless; the plan's own
#: run first where the project builds).
COSTS: dict[str, tuple[list[str], dict[str, str], list[str]]] = {
    # a C project's make plan after its first build: the object file and the test program the
    # Makefile names are binaries
    "a-scripts-copy-after-a-c-build": (
        ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": "OBJS = main.o\ntest: t\n\t./t\nt: $(OBJS)\n\tcc -o t $(OBJS)\n",
         "main.c": "int main(void) { return 0; }\n", "src/a.js": "1\n",
         "tools/gen": "#!/bin/sh\n"},
        ["make test", "cp src/a.js src/b.js", "cp tools/gen tools/gen2"]),
    # a C project's Makefile naming its sources, past 64 files (no build yet)
    "a-scripts-copy-under-a-make-plan-naming-70-sources": (
        ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": "SRCS = " + " ".join(f"src/m{i}.c" for i in range(70)) + "\ntest:\n\tcc "
         "-o t $(SRCS) && ./t\n", **{f"src/m{i}.c": f"int f{i}(void) {{ return {i}; }}\n"
                                   for i in range(70)},
         "src/a.js": "1\n", "tools/gen": "#!/bin/sh\n"},
        ["cp src/a.js src/b.js", "cp tools/gen tools/gen2"]),
    # a Python project's pytest plan (no make run): its Makefile names a binary file
    "a-scripts-copy-under-a-pytest-plan-beside-a-makefile": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"Makefile": "docs:\n\tcp assets/logo.bin docs/logo.bin\n",
         "assets/logo.bin": "\0\x89PNG\n", "tests/test_a.py": "def test_a():\n    pass\n",
         "src/a.js": "1\n", "tools/gen": "#!/bin/sh\n"},
        ["cp src/a.js src/b.js", "cp tools/gen tools/gen2"]),
    # a collecting script's wrappers: two assignments, an option's value
    "a-write-under-cross-envs-two-assignments": (
        ["Bash(npm test)", "Bash(cp *)", "Bash(mkdir *)"],
        {"package.json": json.dumps({"name": "p", "scripts": {
            "test": "cross-env NODE_ENV=test TZ=UTC mocha"}}), **SPEC},
        ["cp notes.txt out/n.txt", "mkdir -p build"]),
    "a-write-under-a-packages-register-module": (
        ["Bash(npm test)", "Bash(cp *)", "Bash(mkdir *)"],
        {"package.json": json.dumps({"name": "p", "scripts": {
            "test": "mocha --require ts-node/register"}}), **SPEC},
        ["cp notes.txt out/n.txt", "mkdir -p build"]),
    "a-write-under-a-prettier-check": (
        ["Bash(npm test)", "Bash(cp *)", "Bash(mkdir *)"],
        {"package.json": json.dumps({"name": "p", "scripts": {
            "test": "prettier --check . && mocha"}}), **SPEC},
        ["cp notes.txt out/n.txt", "mkdir -p build"]),
    "a-write-under-nycs-option-value": (
        ["Bash(npm test)", "Bash(cp *)", "Bash(mkdir *)"],
        {"package.json": json.dumps({"name": "p", "scripts": {
            "test": "nyc --reporter text mocha"}}), **SPEC},
        ["cp notes.txt out/n.txt", "mkdir -p build"]),
}
WHY_COSTS: dict[str, str] = {
    "a-write-under-cross-envs-two-assignments": "REGRESSION of af4839a7 (allowed at "
    "3e28aec6): scriptcode._allowed skips cross-env's assignments while `names[at - 1] == "
    "'cross-env'`: the second, `TZ=UTC`, is taken as the program (not in _RUNS), and the "
    "collecting plan's writes are refused",
    "a-write-under-a-packages-register-module": "REGRESSION of af4839a7 (allowed at "
    "3e28aec6), closed by 545947e2 (an installed package is no file), re-opened by 92874450 "
    "and kept by the fixer (docs/decisions.md, 3186494c): "
    "scriptcode._loads refuses every mocha/prettier module name but built-in ones (S19's "
    "fix), so `mocha --require ts-node/register` refuses the collecting plan's writes",
    "a-write-under-a-prettier-check": "REGRESSION of 90532c4b (allowed at 3e28aec6 and "
    "b0b3718c), kept by the fixer (docs/decisions.md, dbcfc4b4): scriptcode refuses "
    "prettier but with --no-config (S25, S26's fix): the "
    "everyday `prettier --check . && mocha`, no prettier settings anywhere, refuses the "
    "collecting plan's writes",
    "a-write-under-nycs-option-value": "REGRESSION of af4839a7 (allowed at 3e28aec6): "
    "scriptcode._allowed skips a wrapper's options as single words: nyc's `--reporter text` "
    "makes `text` the program",
    "a-scripts-copy-under-a-make-plan-naming-70-sources": "REGRESSION of 732d4024 (allowed at "
    "3e28aec6): jestargs._runs_named takes jest as present past _READ_FILES (64) files read: "
    "a Makefile listing its sources",
    "a-scripts-copy-under-a-pytest-plan-beside-a-makefile": "REGRESSION of 64cfc2d9 (allowed "
    "at 3e28aec6): jestargs._runs_named reads the folder's Makefile whatever the plan runs, "
    "and a binary file a word names (assets/logo.bin) is \"a program\": jest present, every "
    "script and file of no ending guarded",
    "a-scripts-copy-after-a-c-build": "REGRESSION of c1171689 (closed by 64b87c0f; allowed at "
    "3e28aec6): jestargs._RECIPE_GLOB searches the built program's bytes (`./t`, executable) "
    "for a glob after `;`/`&&`/a tab: a binary holds them, so jest is present. At 64cfc2d9: "
    "jestargs._runs_named follows the Makefile's `main.o` and `./t`; built, they are no text, "
    "so jest is present and jestsettings guards every script and file of no ending (s58's "
    "cost row a-scripts-copy-under-a-make-plan, once the user has run `make test`)",
}
for _row in (c for c in COSTS if c not in CLOSED):
    OPEN.add("test_cost_an_everyday_call", WHY_COSTS[_row], _row)


@pytest.mark.parametrize("case", COSTS)
def test_cost_an_everyday_call(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan and its files; each everyday call, harmless, must be allowed."""
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    entries, files, calls = COSTS[case]
    needs(*(["make", "cc"] if "make test" in calls else []))
    links = {"node_modules": str(_runners())} if "package.json" in files else {}
    project = hooked_project(tmp_path, entries)
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    for name, to in links.items():
        (project / name).symlink_to(to)
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    assert first_denied(project, calls, env) is None
