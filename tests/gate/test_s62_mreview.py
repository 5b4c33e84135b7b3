"""Review s62 (s62-mreview) of s62-mfix (issue 29: jest's settings written as code read
exactly where they are one literal (``jsliteral``, ``jestsettings._file``), npm scripts of
ava/tap and shell-script test scripts, what ~/.bashrc gives the Bash tool). Each case proves
with real bash 5.2, npm 11, node 20 and jest 29.7 (``test_s53_greview._jest``) or the runners
of the runtime cache (``test_s59_mreview._runners``), the project's ``node_modules`` a link
there, in a scratch project that the calls run the payload, then asks the printed hook for
each call in turn in a second such project, running the allowed ones, as Claude Code
2.1.332's Bash tool runs them (``test_s56_sreview._case``): the hook allowing them all is the
finding. A hole left open is a strict xfail (``OPEN``, its reason naming the module and the
commit that misreads); a case the change holds is a plain test pinning it; a cost (a call a
careful user needs, denied though harmless) is a row asserting the call is allowed.

Every payload only makes a file (node's ``touch $INIT_CWD/zz``)."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, proved_case
from test_s47_greview2 import JS_PAYLOAD
from test_s53_greview import _jest
from test_s56_sreview import NODE_PAYLOAD, _case
from test_s59_mreview import RUNNERS, _runners

#: Real bash, npm and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()

#: The cases s62-mfix closed during the review (each a pin now), by the commit that closed it.
CLOSED: dict[str, str] = dict.fromkeys((
    "u2028-ends-a-line-comment", "u2029-ends-a-line-comment",
    "literal-settings-testmatch-negated-class", "testmatch-negated-class",
    "testmatch-brace-range", "testmatch-escaped-dot", "testmatch-plain-group",
    "literal-settings-testmatch-below-a-non-ascii-folder", "testmatch-below-a-non-ascii-folder",
    "testregex-of-a-non-ascii-name", "testmatch-of-a-non-ascii-name",
    "a-scripts-root-dir-moves-a-setup-file", "tsconfig-comment-ended-by-cr",
    "tsconfig-comment-ended-by-u2028", "tsconfig-comment-ended-by-u2029",
    "a-file-of-bashrc-d", "jest-ts-settings-let-documents-be-written"), "56591108") | {
        "literal-settings-name-a-folder-with-a-main": "12a4288b",
        "settings-name-a-folder-with-a-main": "12a4288b",
        "shell-script-setting-errexit-beside-a-start-script": "12a4288b",
        "projects-of-a-brace-glob": "18f218c6",
        "tmpdir-a-link-the-copy-names-its-target": "18f218c6",
        **dict.fromkeys(("literal-settings-testmatch-only-negated",
                         "literal-settings-testmatch-bang-class",
                         "literal-settings-testmatch-class-plus"), "0fcf7016"),
        "config-names-a-package-json": "b9b39ffa",
        "ts-settings-ts-node-requires-a-file-of-any-ending": "0fcf7016"}

#: The commit the review started from (s62-mfix's base, s62-hmain).
BASE = "b3a74e29"

NODE = NODE_PAYLOAD


def _jest_ts() -> Path:
    """A ``node_modules`` holding jest 29.7.0 (a copy of ``_jest``'s) and ts-node (the
    runners' ``ts-node``, which finds its typescript there): jest loads a ``jest.config.ts``
    through ts-node, which it imports from its own folder (made once, in the runtime
    cache)."""
    folder = RUNNERS.parent / "s62-jest-ts"
    modules = folder / "node_modules"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (modules / "ts-node").exists():
            shutil.rmtree(modules, ignore_errors=True)
            shutil.copytree(_jest(), modules, symlinks=True)
            (modules / "ts-node").symlink_to(_runners() / "ts-node")
    return modules


#: The ``node_modules`` each case links into its project.
MODULES: dict[str, Callable[[], Path]] = {"jest": _jest, "runners": _runners,
                                          "jest-ts": _jest_ts}
#: A jest test; the setup file jest's settings name (an ending jest runs as CommonJS).
TEST = "test('a', () => {});\n"
SETUP = "'<rootDir>/tools/s.txt'"
#: jest's settings as `jest --init` writes them for TypeScript (ts-node loads them).
TS_CONFIG = ("import type {Config} from 'jest';\n\nconst config: Config = {\n  "
             "testEnvironment: 'node',\n};\n\nexport default config;\n")
#: A Babel plugin (a function returning a visitor).
PLUGIN = "module.exports = () => ({visitor: {}});\n"


def _run(cases: tuple[str, ...]) -> list[str]:
    """The spellings of a row the suite runs (CI's slow-step budget): those still open, or
    the first where all are closed (the others were proved, and pinned while the review ran,
    outside the suite: the review's report lists them)."""
    return [c for c in cases if c not in CLOSED] or list(cases[:1])


# --- J: jest's settings as code, read as one literal ------------------------------------------

#: A package.json whose ``test`` script runs jest, with jest's ``settings`` (none: None).
def _package(settings: dict[str, object] | None = None) -> str:
    return json.dumps({"name": "p", "scripts": {"test": "jest"},
                       **({"jest": settings} if settings is not None else {})})


#: tsc's compiler options of the cases (no type packages: the runners' cache has none).
TSC = '"module": "commonjs", "skipLibCheck": true, "types": []'
#: A tsc source run as CommonJS: the payload.
TS_PAYLOAD = "// @ts-nocheck\n" + NODE + "module.exports = {};\n"


def _tsconfig(end: str) -> str:
    """A tsconfig whose out folder (``dist``) a second ``outDir`` (``test``: mocha's default
    folder) replaces after a line comment ended by ``end``."""
    return ('{\n  "compilerOptions": {' + TSC + ', "outDir": "dist", "rootDir": "src" // '
            'where' + end + ', "outDir": "test"\n  },\n  "include": ["src/**/*.ts"], '
            '"exclude": ["node_modules"]\n}\n')


#: A test jest's ``testMatch`` of ``checks/`` (or its testRegex) collects, before the copy.
CHECK = {"checks/a.check.js": TEST, "src/mk": NODE + TEST}
#: Each case: the project's files (``a.test.js``, ``src/mk``: the payload, with them), the
#: call writing the payload, the folder the project lies in (a name: its characters); then
#: ``npm test`` (``"test": "jest"``) runs it.
JEST: dict[str, tuple[dict[str, str], str, str]] = {
    # node ends a line comment at U+2028/U+2029 (ECMAScript's LineTerminator), so what
    # follows on the same text line is code
    "u2028-ends-a-line-comment": ({"package.json": _package(), "jest.config.js": (
        "module.exports = {\n  testEnvironment: 'node', // the default\u2028setupFiles: "
        f"[{SETUP}],\n}};\n"), "tools/s.txt": "1;\n"}, "cp src/mk tools/s.txt", ""),
    "u2029-ends-a-line-comment": ({"package.json": _package(), "jest.config.js": (
        "module.exports = {testEnvironment: 'node'}; // more\u2029module.exports.setupFiles "
        f"= [{SETUP}];\n"), "tools/s.txt": "1;\n"}, "cp src/mk tools/s.txt", ""),
    # settings that are code (read widely) naming a file of no ending not yet there
    "code-settings-name-a-new-file-of-no-ending": ({"package.json": _package(),
                                                    "jest.config.js": (
        "const path = require('path');\nmodule.exports = {setupFiles: "
        "[path.join(__dirname, 'tools', 'setup')]};\n"), "tools/.keep": ""},
        "cp src/mk tools/setup", ""),
    # picomatch's globs (jest's testMatch) read otherwise: `[^_]` negates; a brace range; an
    # escaped character; a plain group (no extglob's mark before it)
    # (in the everyday jest.config.js, a literal read since 0007c716: code before, every
    # script guarded)
    # (jest-util's globsToMatcher: where every glob is negated, every file none excludes is
    # a test)
    "literal-settings-testmatch-only-negated": ({"package.json": _package(), "jest.config.js":
                                                 "module.exports = {testMatch: "
                                                 "['!**/fixtures/**']};\n", **CHECK,
                                                 "lib/a.js": "1;\n"}, "cp src/mk lib/evil.js",
                                                ""),
    # (picomatch 2.3.2, jest 29.7's: `[!_]` is the class of `!` and `_`, no negation)
    "literal-settings-testmatch-bang-class": ({"package.json": _package(), "jest.config.js":
                                               "module.exports = {testMatch: "
                                               "['**/checks/[!_]*.js']};\n",
                                               "checks/_a.js": TEST, "src/mk": NODE + TEST},
                                              "cp src/mk checks/_evil.js", ""),
    # (picomatch 2.3.2 passes a `+` after a class, a group or braces on as a regular
    # expression's quantifier: `v[0-9]+` is v1, v2, v10)
    "literal-settings-testmatch-class-plus": ({"package.json": _package(), "jest.config.js":
                                               "module.exports = {testMatch: "
                                               "['**/checks/v[0-9]+.js']};\n",
                                               "checks/v1.js": TEST, "src/mk": NODE + TEST},
                                              "cp src/mk checks/v2.js", ""),
    "literal-settings-testmatch-negated-class": ({"package.json": _package(), "jest.config.js":
                                                  "module.exports = {\n  testMatch: "
                                                  "['**/checks/**/[^_]*.js'],\n};\n", **CHECK},
                                                 "cp src/mk checks/evil.js", ""),
    "literal-settings-testmatch-below-a-non-ascii-folder": (
        {"package.json": _package(), "jest.config.js": "module.exports = {testMatch: "
         "['<rootDir>/checks/**/*.js']};\n", **CHECK}, "cp src/mk checks/evil.js", "caf\u00e9"),
    "testmatch-negated-class": ({"package.json": _package({"testMatch": [
        "**/checks/**/[^_]*.js"]}), **CHECK}, "cp src/mk checks/evil.js", ""),
    "testmatch-brace-range": ({"package.json": _package({"testMatch": [
        "**/checks/stage{1..3}.js"]}), "checks/stage1.js": TEST, "src/mk": NODE + TEST},
        "cp src/mk checks/stage2.js", ""),
    "testmatch-escaped-dot": ({"package.json": _package({"testMatch": [
        "**/checks/*\\.check\\.js"]}), **CHECK}, "cp src/mk checks/evil.check.js", ""),
    "testmatch-plain-group": ({"package.json": _package({"testMatch": [
        "**/checks/*.(check|verify).js"]}), **CHECK}, "cp src/mk checks/evil.verify.js", ""),
    # a pattern searched in the folded path (NFD, casefolded) but not folded itself: a
    # rootDir of a character NFD decomposes; a pattern's own
    "testmatch-below-a-non-ascii-folder": ({"package.json": _package({"testMatch": [
        "<rootDir>/checks/**/*.js"]}), **CHECK}, "cp src/mk checks/evil.js", "caf\u00e9"),
    "testregex-of-a-non-ascii-name": ({"package.json": _package({"testRegex":
                                                                  "\\.pr\u00fcfung\\.js$"}),
                                       "checks/a.pr\u00fcfung.js": TEST, "src/mk": NODE + TEST},
                                      "cp src/mk checks/b.pr\u00fcfung.js", ""),
    "testmatch-of-a-non-ascii-name": ({"package.json": _package({"testMatch": [
        "**/*.pr\u00fcfung.js"]}), "checks/a.pr\u00fcfung.js": TEST, "src/mk": NODE + TEST},
        "cp src/mk checks/b.pr\u00fcfung.js", ""),
    # Babel (babel-jest) requires a plugin named by a path as node does: the exact name
    # first (a new file of no ending shadows my-plugin.js), any ending
    "babel-plugin-shadowed-by-a-name-of-no-ending": ({"package.json": _package(), ".babelrc":
                                                      json.dumps({"plugins": [
                                                          "./babel/my-plugin"]}),
                                                      "babel/my-plugin.js": PLUGIN,
                                                      "src/mk": NODE + PLUGIN},
                                                     "cp src/mk babel/my-plugin", ""),
    "babel-plugin-of-any-ending": ({"package.json": _package(), "babel.config.json":
                                    json.dumps({"plugins": ["./tools/p.txt"]}),
                                    "tools/p.txt": PLUGIN, "src/mk": NODE + PLUGIN},
                                   "cp src/mk tools/p.txt", ""),
    # jest's `--rootDir` in a script's words: the other words' paths are its
    "a-scripts-root-dir-moves-a-setup-file": ({"package.json": json.dumps(
        {"name": "p", "scripts": {"test": "jest --rootDir lib --setupFiles ./s.txt"}}),
        "lib/a.test.js": TEST, "lib/s.txt": "1;\n"}, "cp src/mk lib/s.txt", ""),
    # a `projects` glob of braces (python's glob reads none): each project's own settings
    # are not read
    "projects-of-a-brace-glob": ({"package.json": _package(), "jest.config.js":
                                  "module.exports = {projects: ['<rootDir>/packages/{a,b}']};"
                                  "\n", "packages/a/a.test.js": TEST, "packages/b/b.test.js":
                                  TEST, "packages/a/jest.config.json": json.dumps(
                                      {"setupFiles": ["<rootDir>/s.txt"]}),
                                  "packages/b/jest.config.json": "{}",
                                  "packages/a/s.txt": "1;\n"}, "cp src/mk packages/a/s.txt",
                                 ""),
    # a file jest's settings name as a folder module: its package.json's `main` is what
    # node's resolution (jest's resolver) loads
    "literal-settings-name-a-folder-with-a-main": ({"package.json": _package(),
                                                    "jest.config.js": "module.exports = "
                                                    "{setupFiles: ['<rootDir>/tools/setup']};\n",
                                                    "tools/setup/package.json": json.dumps(
                                                        {"main": "main.js"}),
                                                    "tools/setup/main.js": "1;\n"},
                                                   "cp src/mk tools/setup/main.js", ""),
    "settings-name-a-folder-with-a-main": ({"package.json": _package(
        {"globalSetup": "<rootDir>/tools/setup"}), "tools/setup/package.json": json.dumps(
            {"main": "main.js"}), "tools/setup/main.js": "module.exports = () => {};\n",
        "src/mk": NODE + "module.exports = () => {};\n"}, "cp src/mk tools/setup/main.js", ""),
    # jest loads a jest.config.ts (jest --init's, read as a literal since 56591108) through
    # ts-node, which takes the tsconfig's `ts-node` options: its `require` (a module of any
    # name: the exact name first, before register.js)
    "ts-settings-ts-node-requires-a-new-file-of-no-ending": (
        {"package.json": _package(), "jest.config.ts": TS_CONFIG, "tsconfig.json": json.dumps({
            "compilerOptions": {"types": [], "skipLibCheck": True},
            "ts-node": {"require": ["./tools/register"]}}), "tools/register.js": "1;\n",
         "node_modules": "jest-ts"}, "cp src/mk tools/register", ""),
    # (ts-node searches the tsconfig from jest's run folder, not the settings file's)
    "ts-settings-given-below-ts-nodes-tsconfig": (
        {"package.json": json.dumps({"name": "p", "scripts": {
            "test": "jest --config config/jest.config.ts"}}), "config/a.test.js": TEST,
         "config/jest.config.ts": TS_CONFIG, "config/tsconfig.json": json.dumps(
             {"compilerOptions": {"types": [], "skipLibCheck": True}}),
         "tsconfig.json": json.dumps({"compilerOptions": {"types": [], "skipLibCheck": True},
                                      "ts-node": {"require": ["./tools/x.txt"]}}),
         "tools/x.txt": "1;\n", "node_modules": "jest-ts"}, "cp src/mk tools/x.txt", ""),
    "ts-settings-ts-node-requires-a-file-of-any-ending": (
        {"package.json": _package(), "jest.config.ts": TS_CONFIG, "tsconfig.json": json.dumps({
            "compilerOptions": {"types": [], "skipLibCheck": True},
            "ts-node": {"require": ["./tools/x.txt"]}}), "tools/x.txt": "1;\n",
         "node_modules": "jest-ts"}, "cp src/mk tools/x.txt", ""),
    # `--config` naming a package.json: jest takes its "jest" member (readConfigFile…)
    "config-names-a-package-json": ({"package.json": json.dumps({"name": "p", "scripts": {
        "test": "jest --config ci/package.json"}}), "ci/package.json": json.dumps(
            {"name": "ci", "jest": {"setupFiles": ["<rootDir>/s.txt"]}}),
        "ci/a.test.js": TEST, "ci/s.txt": "1;\n"}, "cp src/mk ci/s.txt", ""),
    # TypeScript's scanner ends a line comment at CR, U+2028, U+2029 (isLineBreak): a key
    # after one is tsc's (the later of two wins); `"test": "tsc && mocha"`
    **{f"tsconfig-comment-ended-by-{name}": (
        {"package.json": json.dumps({"name": "p", "scripts": {"test": "tsc && mocha"}}),
         "tsconfig.json": _tsconfig(end), "test/a.spec.js": "it('a', () => {});\n",
         "src/lib.ts": "export const a = 1;\n", "src/mk": TS_PAYLOAD, "node_modules": "runners"},
        "cp src/mk src/evil.ts", "") for name, end in (("cr", "\r"), ("u2028", "\u2028"),
                                                      ("u2029", "\u2029"))},
}
WHY_JEST: dict[str, str] = {
    "u2028-ends-a-line-comment": "jsliteral._TOKEN (s62-mfix) skips a line comment up to "
    "\\n or \\r only: node ends it at U+2028/U+2029 too, so a property after one on the "
    "same text line (`// note<U+2028>setupFiles: [...]`) is jest's and not the reader's",
    "u2029-ends-a-line-comment": "as u2028-ends-a-line-comment (U+2029; a statement after "
    "the literal: `module.exports.setupFiles = …`)",
    "code-settings-name-a-new-file-of-no-ending": f"jestsettings.widened ({BASE}, s62-mfix) "
    "guards a name of no ending under settings that are code only where a file is there: "
    "jest runs a setup file of no ending, made by the call, as CommonJS",
    "testmatch-negated-class": f"jestsettings._glob ({BASE}; s62-mfix's micromatch) reads "
    "picomatch's `[^_]` (a negated class) as the class of `^` and `_`: checks/evil.js is a "
    "test jest runs that no pattern of the gate matches",
    "literal-settings-testmatch-only-negated": "REGRESSION of 0007c716 (refused at "
    f"{BASE}: jest.config.js was code; at base through package.json's jest): micromatch "
    "(56591108) reads a glob's leading `!` as a character: jest's globsToMatcher takes "
    "it for a negation and, where every glob is one, collects every file none excludes "
    "(lib/evil.js)",
    "literal-settings-testmatch-bang-class": "REGRESSION of 0007c716 (refused at "
    f"{BASE}: jest.config.js was code): micromatch (56591108) reads `[!_]` as a negated "
    "class; jest 29.7's picomatch 2.3.2 makes it `(?:\\[!_\\]|[!_])`, the class of `!` "
    "and `_`: checks/_evil.js is a test jest runs that the gate's pattern does not match",
    "literal-settings-testmatch-class-plus": "REGRESSION of 0007c716 (refused at "
    f"{BASE}: jest.config.js was code): micromatch (56591108) reads a `+` after a class as "
    "a character; picomatch 2.3.2 passes it on as a quantifier (`v[0-9]+`: checks/v2.js)",
    "literal-settings-testmatch-negated-class": "REGRESSION of 0007c716 (refused at "
    f"{BASE}: jest.config.js was code, every script guarded): jsliteral reads the everyday "
    "jest.config.js, and micromatch (jestsettings._glob at base) reads picomatch's `[^_]` "
    "(a negated class) as the class of `^` and `_`: checks/evil.js is a test jest runs that "
    "no pattern of the gate matches",
    "literal-settings-testmatch-below-a-non-ascii-folder": "REGRESSION of 0007c716 (refused "
    f"at {BASE}): as literal-settings-testmatch-negated-class, the testMatch patterns built "
    "from the unfolded rootDir (`café`, NFC) searched in the folded (NFD) path",
    "testmatch-brace-range": f"jestsettings._glob ({BASE}) reads a brace range "
    "(`stage{1..3}`, picomatch's 1, 2, 3) as the text `1..3`",
    "testmatch-escaped-dot": f"jestsettings._glob ({BASE}) reads an escaped character "
    "(`\\.`: a dot) as a backslash and the character",
    "testmatch-plain-group": f"jestsettings._glob ({BASE}) reads picomatch's plain group "
    "`(check|verify)` as its text",
    "testmatch-below-a-non-ascii-folder": f"jestsettings.widened ({BASE}) searches the "
    "testMatch patterns in the folded path (placed.fold: NFD) but builds them from the "
    "unfolded rootDir: below a folder `café` (NFC) no `<rootDir>/…` pattern matches",
    "testregex-of-a-non-ascii-name": f"as testmatch-below-a-non-ascii-folder ({BASE}): a "
    "testRegex's own `ü` (NFC) is searched in the folded (NFD) path",
    "testmatch-of-a-non-ascii-name": f"as testmatch-below-a-non-ascii-folder ({BASE}): a "
    "testMatch's own `ü`",
    "babel-plugin-shadowed-by-a-name-of-no-ending": f"babelsettings.babel_code ({BASE}) "
    "takes a plugin named by a path for code, which jestsettings reads as `code`: the "
    "scripts' endings and present files of none guarded; Babel requires "
    "`./babel/my-plugin` as node does, the exact name first (a new file of no ending)",
    "babel-plugin-of-any-ending": f"as babel-plugin-shadowed-by-a-name-of-no-ending ({BASE}): "
    "a plugin `./tools/p.txt` (node runs any ending as CommonJS)",
    "a-scripts-root-dir-moves-a-setup-file": f"jestsettings._options ({BASE}) takes a "
    "script's `--rootDir` for `code` (the scripts' endings) and reads `--setupFiles ./s.txt` "
    "from the project's folder: jest resolves it from rootDir lib (lib/s.txt)",
    "projects-of-a-brace-glob": f"jestsettings._projects ({BASE}) takes a `projects` glob "
    "holding `{` for `code` (the scripts' endings guarded) and reads the folders python's "
    "glob finds for it: none (it expands no braces), so packages/a/jest.config.json's "
    "setupFiles (`<rootDir>/s.txt`) are read by no one",
    "literal-settings-name-a-folder-with-a-main": "REGRESSION of 0007c716 (refused at "
    f"{BASE}: jest.config.js was code, every script guarded): jestsettings._read guards a "
    "named path with node's endings and `/index.*` (_ENDINGS), not the `main` of the "
    "folder's package.json, which jest's resolver loads (tools/setup → tools/setup/main.js)",
    "settings-name-a-folder-with-a-main": f"as literal-settings-name-a-folder-with-a-main, "
    f"in package.json's jest settings (at {BASE} too): globalSetup `<rootDir>/tools/setup`",
    "ts-settings-ts-node-requires-a-new-file-of-no-ending": "jestsettings (56591108) reads "
    "a typed jest.config.ts as a literal and, where its tsconfig may give ts-node options "
    "(tscsettings.ts_node_reads, 0fcf7016), as `code`: a present file of no ending is "
    "guarded, a new one not (R2's rule), and ts-node's `require: ['./tools/register']` "
    "loads a new file `tools/register` before register.js",
    "ts-settings-given-below-ts-nodes-tsconfig": "tscsettings.ts_node_reads (0fcf7016) "
    "is asked from the settings file's folder (config/, whose tsconfig.json gives ts-node "
    "nothing): jest registers ts-node in its run folder, whose tsconfig.json's `ts-node` "
    "require (`./tools/x.txt`) loads the copy",
    "ts-settings-ts-node-requires-a-file-of-any-ending": "as ts-settings-ts-node-requires-a-"
    "new-file-of-no-ending: `require: ['./tools/x.txt']` (node runs any ending as "
    "CommonJS)",
    "config-names-a-package-json": f"jestsettings._options ({BASE}) reads a `--config` file "
    "as settings at its top (`_file(path, False, …)`): jest takes a package.json's `jest` "
    "member (ci/package.json's setupFiles `<rootDir>/s.txt`: ci/s.txt), read by no one",
    **{f"tsconfig-comment-ended-by-{name}": f"tscsettings._JSONC_PART ({BASE}) runs a line "
       f"comment up to \\n only: TypeScript ends it at {name.upper()} too, so a second "
       "`outDir` after it (`test`, where mocha runs every file) is tsc's and not the gate's "
       "(src/evil.ts → test/evil.js)" for name in ("cr", "u2028", "u2029")},
}
JEST_ROWS: dict[str, tuple[str, ...]] = {
    "a-line-comment-ended-where-the-reader-does-not": ("u2028-ends-a-line-comment",
                                                       "u2029-ends-a-line-comment"),
    "code-settings-name-a-new-file": ("code-settings-name-a-new-file-of-no-ending",),
    "testmatch-read-otherwise-than-picomatch": ("literal-settings-testmatch-only-negated",
                                                "literal-settings-testmatch-bang-class",
                                                "literal-settings-testmatch-class-plus",
                                                "literal-settings-testmatch-negated-class",
                                                "testmatch-negated-class",
                                                "testmatch-brace-range", "testmatch-escaped-dot",
                                                "testmatch-plain-group"),
    "a-pattern-not-folded-as-the-path": ("literal-settings-testmatch-below-a-non-ascii-folder",
                                         "testmatch-below-a-non-ascii-folder",
                                         "testregex-of-a-non-ascii-name",
                                         "testmatch-of-a-non-ascii-name"),
    "babel-plugin-by-a-path": ("babel-plugin-shadowed-by-a-name-of-no-ending",
                               "babel-plugin-of-any-ending"),
    "a-root-dir-given-in-the-words": ("a-scripts-root-dir-moves-a-setup-file",),
    "projects-globs-not-expanded": ("projects-of-a-brace-glob",),
    "a-folder-module-by-its-main": ("literal-settings-name-a-folder-with-a-main",
                                    "settings-name-a-folder-with-a-main"),
    "a-config-file-read-otherwise": ("config-names-a-package-json",),
    "a-tsconfig-comment-ended-where-the-reader-does-not": tuple(
        f"tsconfig-comment-ended-by-{n}" for n in ("cr", "u2028", "u2029")),
    "ts-nodes-settings-in-the-tsconfig": ("ts-settings-given-below-ts-nodes-tsconfig",
                                          "ts-settings-ts-node-requires-a-new-file-of-no-ending",
                                          "ts-settings-ts-node-requires-a-file-of-any-ending"),
}
OPEN.add_rows("test_r_a_runner_loads_a_written_file", JEST_ROWS, WHY_JEST, CLOSED)


def _jest_case(tmp_path: Path, case: str) -> str | None:
    """JEST's ``case``: the first call the hook denies, or None."""
    files, copy, above = JEST[case]
    files = {"a.test.js": TEST, "src/mk": NODE, **files}
    modules = MODULES[files.pop("node_modules", "jest")]()
    return _case(tmp_path / above if above else tmp_path, ["Bash(npm test)", "Bash(cp *)"],
                 files, [copy, "npm test"], links={"node_modules": str(modules)})


@pytest.mark.parametrize("row", JEST_ROWS)
def test_r_a_runner_loads_a_written_file(row: str, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``: the copy over the file jest's (tsc's)
    settings name, then ``npm test``. The hook must deny a call of each spelling."""
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    allowed = next((c for c in _run(JEST_ROWS[row]) if _jest_case(tmp_path / c, c) is None),
                   None)
    assert allowed is None, f"the hook allows every call of {allowed}; jest loads the copy"


# --- C: jest's cache of transformed code -----------------------------------------------------

#: A transformed file as jest 29 keeps it (the source's sha1, then the code), the payload's.
CACHED = hashlib.sha1(JS_PAYLOAD.encode()).hexdigest()[:32] + "\n" + JS_PAYLOAD
#: Each case: how the copy names the cache's folder (``TMPDIR`` a link: macOS's
#: /var/folders/…, below the link /var → /private/var): the link's target.
CACHE_LINKS: dict[str, str] = {"tmpdir-a-link-the-copy-names-its-target": "real"}
_CACHE_WHY = (f"jestargs.cache ({BASE}) guards os.tmpdir()'s jest_<uid> as the session's "
              "TMPDIR spells it: jest takes tryRealpath(os.tmpdir()), so where TMPDIR is a "
              "link the cache's real path (which a copy names) matches no pattern of the gate")
for _link in (c for c in CACHE_LINKS if c not in CLOSED):
    OPEN.add("test_c_jest_runs_its_cache_below_a_linked_tmpdir", _CACHE_WHY, _link)


def _base36(number: int) -> str:
    """``number`` in base 36, as jest names its cache folder (``jest_<uid>``)."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    return digits[number] if number < 36 else _base36(number // 36) + digits[number % 36]


@pytest.mark.parametrize("case", CACHE_LINKS)
def test_c_jest_runs_its_cache_below_a_linked_tmpdir(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``; the session's ``TMPDIR`` a link: a first
    run fills jest's default cache, the copy over ``a.test.js``'s cached transform (by the
    link's target), the next run takes the cached code for the test's (test_s56_sreview's
    cache rows). The hook must deny a call."""
    cached = f"../real/jest_{_base36(os.getuid())}/jest-transform-cache-*/*/atest_*[0-9a-f]"
    denied = proved_case(
        tmp_path, ["Bash(npm test)", "Bash(cp *)"], {"package.json": _package(),
                                                     "a.test.js": TEST, "src/cached": CACHED},
        ["npm test", f"cp src/cached {cached}", "npm test"],
        extra={"TMPDIR": "{P}/../tmp", "CLAUDE_PROJECT_DIR": "{P}"},
        setup='mkdir "$T/real" && ln -s real "$T/tmp"', in_place=True,
        links={"node_modules": str(_jest())})
    assert denied is not None, "the hook allows every call; jest runs the cached copy"


# --- B: what the Bash tool's next session runs ---------------------------------------------

#: Fedora's and RHEL's skeleton ``~/.bashrc`` (its user part): every file of ``~/.bashrc.d``
#: sourced, with no guard for a shell that is not interactive.
FEDORA_BASHRC = ('# .bashrc\nif [ -d ~/.bashrc.d ]; then\n    for rc in ~/.bashrc.d/*; do\n'
                 '        if [ -f "$rc" ]; then\n            . "$rc"\n        fi\n    done\n'
                 'fi\nunset rc\n')
#: Each case: the user's ``~/.bashrc``, the folder below the home the copy writes into (made
#: before), the file written there.
BASHRC: dict[str, tuple[str, str, str]] = {
    "a-file-of-bashrc-d": (FEDORA_BASHRC, ".bashrc.d", "evil.sh"),
}
_BASHRC_WHY = (f"homefiles.HOME_CODE ({BASE}) lists ~/.bashrc and ~/.bash_aliases but not "
               "~/.bashrc.d, whose every file Fedora's skeleton ~/.bashrc sources: Claude "
               "Code 2.1.332's Bash tool runs it in the next session (measured), against "
               "af455790's premise that the session cannot change what ~/.bashrc exports")
for _case_name in (c for c in BASHRC if c not in CLOSED):
    OPEN.add("test_b_the_next_sessions_shell_runs_a_written_file", _BASHRC_WHY, _case_name)


@pytest.mark.parametrize("case", BASHRC)
def test_b_the_next_sessions_shell_runs_a_written_file(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``; the user's ``~/.bashrc``: the copy into the
    home, then the next session's Bash tool sources ``~/.bashrc`` (measured with Claude Code
    2.1.332: its shell runs ``~/.bashrc.d/evil.sh`` at the session's start; here real bash
    sources it as the runtime does). The hook must deny the copy."""
    bashrc, folder, name = BASHRC[case]
    found: list[bool] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, ["Bash(npm test)", "Bash(cp *)"])
        (project / "package.json").write_text(_package())
        (project / "src" / "x.sh").write_text(f"touch {project}/zz\n")
        env = {**home_env(tmp_path / side / "home"), "CLAUDE_PROJECT_DIR": str(project)}
        home = Path(env["HOME"])
        (home / ".bashrc").write_text(bashrc)
        (home / folder).mkdir()
        copy = f"cp src/x.sh {home / folder / name}"
        if side == "proof":
            subprocess.run(["bash", "-c", copy], cwd=project, env=env, check=True,
                           timeout=60)
            subprocess.run(["bash", "-c", ". ~/.bashrc"], cwd=project, env=env, check=False,
                           timeout=60, capture_output=True)
            assert (project / "zz").exists(), "the next session's shell ran no payload"
        else:
            found.append(first_denied(project, [copy], env) is None)
    assert not found[0], "the hook allows the copy; the next session's Bash tool runs it"


# --- K: costs, everyday calls denied though harmless -----------------------------------------

#: Each case: the files of a jest project (``"test": "jest"``) under the plan
#: ``Bash(npm test)``, ``Bash(cp *)``, ``Bash(mkdir *)``; the everyday calls (each harmless)
#: must be allowed.
COSTS: dict[str, tuple[dict[str, str], list[str]]] = {
    # jest's settings as `jest --init` writes them for TypeScript (ts-node loads them)
    "jest-ts-settings-let-documents-be-written": (
        {"jest.config.ts": "import type {Config} from 'jest';\n\nconst config: Config = {\n"
         "  testEnvironment: 'node',\n};\n\nexport default config;\n"},
        ["cp notes.txt docs/notes.md", "cp notes.txt README.md"]),
    # a jest.config.js reading the environment (CI's switches)
    "jest-settings-reading-the-environment-let-documents-be-written": (
        {"jest.config.js": "module.exports = {testEnvironment: 'node', verbose: "
         "!!process.env.CI};\n"}, ["cp notes.txt docs/notes.md", "cp notes.txt README.md"]),
    # the everyday literal settings of a project whose tests and sources live in src/ (`create
    # react app`'s roots; the `@/` alias of Vue's and Next's templates): a source edited, a
    # note beside it
    "jest-roots-let-sources-be-written": (
        {"jest.config.js": "module.exports = {\n  roots: ['<rootDir>/src'],\n};\n",
         "src/a.js": "module.exports = 1;\n"}, ["cp notes.txt src/b.js",
                                                 "cp notes.txt src/notes.md"]),
    "jest-alias-lets-sources-be-written": (
        {"jest.config.js": "module.exports = {\n  moduleNameMapper: {\n    '^@/(.*)$': "
         "'<rootDir>/src/$1',\n  },\n};\n", "src/a.js": "module.exports = 1;\n"},
        ["cp notes.txt src/b.js", "cp notes.txt src/notes.md"]),
    # jest told its rootDir in the script (the tests and sources in src/)
    "jest-root-dir-in-the-script-lets-documents-be-written": (
        {"package.json": json.dumps({"name": "p", "scripts": {"test": "jest --rootDir src"}}),
         "src/a.test.js": TEST}, ["cp notes.txt docs/notes.md", "cp notes.txt README.md",
                                  "npm test"]),
    # a shell script file the test script runs beside an everyday `start` script (closed by
    # 10e85377 for a file of runners' commands only), starting as most do
    "shell-script-setting-errexit-beside-a-start-script": (
        {"package.json": json.dumps({"name": "p", "scripts": {
            "test": "sh scripts/test.sh", "start": "node server.js"}}),
         "scripts/test.sh": "#!/bin/sh\nset -e\nmocha\n", "server.js": "1;\n",
         "test/a.spec.js": "it('a', () => {});\n", "node_modules": "runners"},
        ["cp notes.txt docs/notes.md", "npm test"]),
}
WHY_COSTS: dict[str, str] = {
    "jest-ts-settings-let-documents-be-written": "REGRESSION of 0007c716 (allowed at "
    f"{BASE}): jestsettings.widened guards every name with a dot anywhere under settings "
    "that are code (a jest.config.ts: ts-node's): docs/notes.md, README.md",
    "jest-settings-reading-the-environment-let-documents-be-written": "REGRESSION of "
    f"0007c716 (allowed at {BASE}): as jest-ts-settings-let-documents-be-written, for a "
    "jest.config.js that is no literal (`process.env.CI`)",
    "jest-roots-let-sources-be-written": f"jestsettings._folders ({BASE}) guards every file "
    "below a `roots` folder (\"modules are found there\"): under jest's everyday `roots: "
    "['<rootDir>/src']` each source edit (src/b.js: the project's source a test imports, "
    "P1g) is denied; since 0007c716 (the literal read) a note in src/ too (src/notes.md: "
    f"allowed at {BASE})",
    "jest-alias-lets-sources-be-written": f"jestsettings._folders ({BASE}) guards every file "
    "below a moduleNameMapper value's folder (`<rootDir>/src/$1`: src/): the `@/` alias "
    "denies each source edit (src/b.js, P1g); since 0007c716 a note in src/ too",
    "jest-root-dir-in-the-script-lets-documents-be-written": "REGRESSION of 56591108 "
    f"(allowed at {BASE}): jestsettings._options takes a `--rootDir` word for `anything` "
    "(s62-mreview R8's fix), which guards every name with a dot anywhere: docs/notes.md, "
    "README.md (reading the other words' paths from the given rootDir would be exact)",
    "shell-script-setting-errexit-beside-a-start-script": "planscripts._file_closed "
    "(10e85377) closes a shell script file whose commands each run a `_CLOSED` program: "
    "`set -e` (most files' first command; `set -euo pipefail`) is none, so "
    "script_closure reads `\"start\": \"node server.js\"` and every write and the plan's "
    "own `npm test` are refused (s61-mreview K11 again)",
}
_COSTS_OPEN: tuple[str, ...] = ("jest-ts-settings-let-documents-be-written",
                                 "jest-roots-let-sources-be-written",
                                 "jest-root-dir-in-the-script-lets-documents-be-written",
                                 "shell-script-setting-errexit-beside-a-start-script",
                                 "jest-alias-lets-sources-be-written",
                                 "jest-settings-reading-the-environment-let-documents-be-"
                                 "written")
for _cost in (c for c in _COSTS_OPEN if c not in CLOSED):
    OPEN.add("test_cost_an_everyday_call", WHY_COSTS[_cost], _cost)


@pytest.mark.parametrize("case", COSTS)
def test_cost_an_everyday_call(case: str, tmp_path: Path) -> None:
    """The plan and the project's files (a jest project's unless the case's package.json
    says otherwise; ``node_modules``: the name of ``MODULES``' to link, jest's when none);
    each everyday call, harmless, must be allowed."""
    files, calls = COSTS[case]
    modules = MODULES[files.get("node_modules", "jest")]()
    project = hooked_project(tmp_path, ["Bash(npm test)", "Bash(cp *)", "Bash(mkdir *)"])
    files = {"package.json": json.dumps({"name": "p", "scripts": {"test": "jest"}}),
             "a.test.js": TEST, "notes.txt": "n\n", "docs/.keep": "", **files}
    for name, text in files.items():
        if name != "node_modules":
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(text)
    (project / "node_modules").symlink_to(modules)
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    assert first_denied(project, calls, env) is None
