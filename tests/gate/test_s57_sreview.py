"""Review s57 (s57-sreview) of s57-sfix (issue 29: a package.json script's words read as dash
and bash read them, failing closed; jest's settings and options read as jest 29.7 reads them,
failing closed). Each case proves with real dash/bash and the real programs (npm 11, node 20,
jest 29.7, gcc) in a scratch project that the calls run the payload (a file ``zz`` made), then
asks the printed hook for each call in turn in a second such project (test_s56_sreview's
``_case``): the hook allowing every call is the finding, a strict xfail row of ``OPEN`` while
it is open. A case the change holds is a plain test pinning it; a cost (an everyday call
denied) is a row asserting the call is allowed.

Every payload only makes a file."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, home_env, hooked_project, needs
from test_gate_files import _settings_hook, payload
from test_s53_greview import _jest as _installed_jest
from test_s56_sreview import (
    CACHED,
    JEST_TEST,
    JS_PAYLOAD,
    NODE_PAYLOAD,
    SETUP_JSON,
    _case,
    _jest_case,
)

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

# --- R: the folders a package.json script's runner collects in (testroots, planscripts) --------

#: ``../ext/test/o`` leads to ``../other``: node's ``--test`` on ``../ext/`` runs what is there.
SIBLING = "mkdir -p ../ext/test ../other sub/x && ln -s ../../other ../ext/test/o"
#: A node script building the folder and running node's test runner there.
BUILDS = ("const p = require('path');\nrequire('child_process').execSync('node --test ' + "
          "p.dirname(process.cwd()) + '/ext/', {stdio: 'inherit'});\n")
RUN_EXT = "node --test ../ext/\n"
#: Each case: the ``test`` script, the other files, more setup (after ``SIBLING``), the file
#: the copy writes (``../other/x.js`` where not given).
SCRIPTS: dict[str, tuple[str, dict[str, str], str, str]] = {
    # dash's cd is logical (`sub/..` is the project) but node resolves `../t/` from its
    # physical folder: the link's target's parent
    "cd-into-a-link-then-dotdot": ("cd sub && node --test ../t/", {},
                                   " && mkdir -p ../outside/a ../outside/t/test && rm -r sub && "
                                   "ln -s ../outside/a sub", "../outside/t/test/x.js"),
    # a script file dash reads whole: a NUL byte (dash drops it), past the first MiB
    "script-file-holding-a-nul": ("sh run.sh", {"run.sh": RUN_EXT + "#\0\n"}, "", ""),
    "script-file-past-a-mib": ("sh run.sh", {"run.sh": "#\n" * 600_000 + RUN_EXT}, "", ""),
    # a project program (an ELF binary) the script runs
    "a-project-program": ("./tool", {"tool.c": (
        '#include <unistd.h>\nint main(void) {\n  execlp("node", "node", "--test", '
        '"../ext/", (char *) 0);\n  return 1;\n}\n')}, " && gcc -o tool tool.c", ""),
    # the kernel runs a script file's `#!` line (env -S splits it)
    "shebang-line": ("./run.sh", {"run.sh": "#!/usr/bin/env -S node --test ../ext/\n"},
                     " && chmod +x run.sh", ""),
    "shebang-names-a-project-program": ("./run.sh", {
        "run.sh": "#!tools/interp\n", "tools/interp": "#!/bin/sh\ntrue\n",
        "tools/mk": '#!/bin/sh\ntouch "$INIT_CWD/zz"\n'},
        " && chmod +x run.sh tools/interp && cp tools/mk src/mk", "tools/interp"),
    # a shell's or an interpreter's file behind a wrapper, an option's value, a `-c` text;
    # node's `--test` after the script (the script's argument)
    "wrapper-before-a-shell": ("timeout 60 sh run.sh", {"run.sh": RUN_EXT}, "", ""),
    "option-value-before-the-file": ("sh -o errexit run.sh", {"run.sh": RUN_EXT}, "", ""),
    "wrapper-before-an-interpreter": ("nice node run.js", {"run.js": BUILDS}, "", ""),
    "shell-text-runs-an-interpreter": ("sh -c 'node run.js'", {"run.js": BUILDS}, "", ""),
    "test-word-after-the-script": ("node run.js --test", {"run.js": BUILDS}, "", ""),
    # the shell script file a script runs, itself written (its commands read, not guarded)
    "sh-runs-a-script-file-written": ("sh tools/run.sh", {"tools/run.sh": "true\n",
                                                          "tools/mk": "touch zz\n"},
                                      " && cp tools/mk src/mk", "tools/run.sh"),
    "runs-an-executable-file-outside": ("../tools/run.sh", {"tools/mk": "touch zz\n"},
                                        " && mkdir -p ../tools && echo true > ../tools/run.sh"
                                        " && chmod +x ../tools/run.sh && cp tools/mk src/mk",
                                        "../tools/run.sh"),
    # a package.json npm reads (it drops a byte order mark) and the gate does not
    "bom-before-the-package": ("node --test ../ext/", {}, "", ""),
    # a program that runs a project file as code, not an interpreter to the gate
    "make-runs-a-makefile-given": ("make -f tools/t.mk", {
        "tools/t.mk": "all:\n\tnode --test ../ext/\n"}, "", ""),
    "awk-runs-a-program-file": ("awk -f tools/t.awk", {
        "tools/t.awk": 'BEGIN { system("node --test ../ext/") }\n'}, "", ""),
    "make-runs-the-makefile": ("make check", {"Makefile": "check:\n\tnode --test ../ext/\n"},
                               "", ""),
    # code no word names as a file: python's module, npx's local package
    "python-runs-a-module": ("python3 -m tools.run", {"tools/run.py": (
        "import os, subprocess\nsubprocess.run(['node', '--test', "
        "os.path.dirname(os.getcwd()) + '/ext/'])\n")}, "", ""),
    "npx-runs-a-local-package": ("npx ./tools/pkg", {
        "tools/pkg/package.json": json.dumps({"name": "tpkg", "version": "1.0.0",
                                              "bin": {"tpkg": "cli.js"}}),
        "tools/pkg/cli.js": "#!/usr/bin/env node\n" + BUILDS}, " && chmod +x tools/pkg/cli.js",
        ""),
    # an assignment before node naming a preload; a loop assigning HOME
    "node-options-assignment": ("NODE_OPTIONS=--require=./tools/pre.js node --test",
                                {"tools/pre.js": "1\n", "test/a.test.js": "\n"}, "",
                                "tools/pre.js"),
    "for-loop-assigns-home": ("for HOME in sub; do node --test $HOME/../../ext/; done", {},
                              "", ""),
    # the folder a cd names made a link after the payload was written (three calls: the
    # case's fourth item is the copy; ``_script`` runs ``LATER`` between it and npm test)
    "link-planted-into-the-cd": ("cd build && node --test ../../ext/", {},
                                 " && mkdir -p ../far/x/y/a ../far/x/ext/test && "
                                 'ln -s "$(cd ../far/x/y/a && pwd)" src/l',
                                 "../far/x/ext/test/x.js"),
    # an assignment of a name not refused, its value a bare file name: OpenSSL's config, which
    # node 20 reads at startup, loading the provider module (a .so) it names
    "openssl-conf-assignment": ("OPENSSL_CONF=ssl.cnf node --test", {
        "ssl.cnf": "\n", "src/p.c": (
            "#include <stdio.h>\n#include <stdlib.h>\n#include <fcntl.h>\n#include <unistd.h>\n"
            "__attribute__((constructor)) static void f(void) {\n  const char *d = "
            'getenv("INIT_CWD");\n  char p[4096];\n  if (d) {\n    snprintf(p, sizeof p, '
            '"%s/zz", d);\n    close(open(p, O_CREAT | O_WRONLY, 0644));\n  }\n}\n'),
        "tools/evil.cnf": ("nodejs_conf = nodejs_init\n[nodejs_init]\nproviders = prov\n"
                           "[prov]\nx = x_sect\n[x_sect]\nmodule = PROJECT/src/p.so\n"
                           "activate = 1\n")},
        " && gcc -shared -fPIC -o src/p.so src/p.c && cp tools/evil.cnf src/mk", "ssl.cnf"),
    # held at b3d9a162 for NODE_OPTIONS: an assignment of another name npm or the loader reads
    # (LD_PRELOAD=./tools/p.so, npm_config_script_shell=./tools/sh: proved outside the suite)
    "npm-config-node-options": ("npm_config_node_options=--require=./tools/pre.js npm run unit",
                                {"tools/pre.js": "1\n", "test/a.test.js": "\n",
                                 "package.json": json.dumps({"name": "p", "scripts": {
                                     "test": "npm_config_node_options=--require=./tools/pre.js"
                                             " npm run unit", "unit": "node --test"}})}, "",
                                "tools/pre.js"),
    # a test file the script names that node's default patterns do not take
    "node-test-names-a-file": ("node --test tools/check.js", {"tools/check.js": "\n"}, "",
                               "tools/check.js"),
    # node's own files beside `--test`: a reporter, a preload (project files node loads)
    "node-test-reporter": ("node --test --test-reporter=./tools/rep.js",
                           {"tools/rep.js": "1\n", "test/a.test.js": "\n"}, "",
                           "tools/rep.js"),
    "node-test-preload": ("node -r ./tools/pre.js --test",
                          {"tools/pre.js": "1\n", "test/a.test.js": "\n"}, "", "tools/pre.js"),
    # a reserved word before the cd: the cd is no folder's move to the gate
    "reserved-word-before-a-cd": ("if cd sub; then node --test ../../ext/; fi", {}, "", ""),
    # a variable the script sets before it reads it (`$HOME` read as the hook's home)
    "exported-home": ("export HOME=sub; node --test $HOME/../../ext/", {}, "", ""),
    "special-builtin-keeps-pwd": ("PWD=sub :; node --test $PWD/../../ext/", {}, "", ""),
    # the shell's state changing what a cd does: CDPATH, an alias (dash expands aliases in
    # a script, a line after its definition)
    "exported-cdpath": ("export CDPATH=sub; cd x && node --test ../../../ext/", {}, "", ""),
    "colon-keeps-cdpath": ("CDPATH=sub :; cd x; node --test ../../../ext/", {}, "", ""),
    "dash-alias-of-cd": ("alias go=cd\ngo sub\nnode --test ../../ext/", {}, "", ""),
    # a file outside the project the script runs (node's; its payload is NODE_PAYLOAD)
    "node-runs-a-file-outside": ("node ../tools/run.js", {}, " && mkdir -p ../tools && "
                                 "echo 1 > ../tools/run.js", "../tools/run.js"),
    # held at 44834e42: a program moving the folder, braces a bash file expands, a quoted
    # text holding a brace, a dotted glob
    "env-chdir": ("env -C sub/x node --test ../../../ext/", {}, "", ""),
    "braces-in-a-bash-file": ("bash run.sh", {"run.sh": "node --test {..,..}/ext/\n"}, "", ""),
    "bash-c-braces": ("bash -c 'node --test {..,..}/ext/'", {}, "", ""),
}
#: The rows: each a class of SCRIPTS' spellings (one case each; the report lists the others).
SCRIPT_ROWS = {
    "cd-into-a-link-then-dotdot": ("cd-into-a-link-then-dotdot",),
    "script-file-holding-a-nul": ("script-file-holding-a-nul",),
    "script-file-past-a-mib": ("script-file-past-a-mib",),
    "shebang-line": ("shebang-line",),
    "shebang-names-a-project-program": ("shebang-names-a-project-program",),
    "option-value-before-the-file": ("option-value-before-the-file",),
    "test-word-after-the-script": ("test-word-after-the-script",),
    "node-loads-a-file-beside-test": ("node-test-reporter",),
    "program-runs-a-project-file": ("make-runs-a-makefile-given",),
    "script-runs-make": ("make-runs-the-makefile",),
    "package-json-with-a-bom": ("bom-before-the-package",),
    "script-file-it-runs-is-written": ("sh-runs-a-script-file-written",),
    "code-no-word-names-as-a-file": ("python-runs-a-module",),
    "assignment-before-node-names-code": ("npm-config-node-options",),
    "assignment-names-a-bare-file": ("openssl-conf-assignment",),
    "held-since-c6b5a395": ("link-planted-into-the-cd", "node-test-names-a-file"),
    "variable-set-before-read": ("exported-home",),
    "shell-state-changes-a-cd": ("exported-cdpath",),
    "a-file-outside-the-project": ("node-runs-a-file-outside",),
    "held-wrappers-reserved-words-and-moves": ("wrapper-before-a-shell",
                                               "reserved-word-before-a-cd",
                                               "shell-text-runs-an-interpreter", "env-chdir",
                                               "for-loop-assigns-home"),
}
# (closed by s57-sfix 2b89b120, each open at 44834e42, 9bfa46a0 or d3585eaf: the cd into a
# link (a regression of none: open at 86e0897c too), the NUL and past-a-MiB files, the `#!`
# lines (regressions), `sh -o errexit run.sh` (a regression), `node run.js --test` and node's
# reporter or preload beside --test, variables the script sets, CDPATH and dash's alias (a
# regression), a file outside the project run as code, make -f / awk -f (regressions) and a
# script running make)
# (a-test-file-the-script-names: open at b3d9a162 and 86e0897c: _code_run exempted node's test
# operands (tools/check.js); closed by s57-sfix 1afd9123)
# (a-link-planted-later: open at b3d9a162 and 86e0897c: a cd's folder was read at each call, a
# later call made it a link; closed by s57-sfix c6b5a395 (a cd to no folder yet refuses))
# (assignment-before-node-names-code: open at b3d9a162 and 86e0897c: _STATE_NAMES was a deny-list
# of assignments (npm_config_node_options, LD_PRELOAD); closed by s57-sfix c6b5a395 (an allow-
# list))
# (NODE_OPTIONS=…, a `for` loop assigning HOME: open at 215b656a and 86e0897c; closed by
# s57-sfix e069eaaf)
# (assignment-names-a-bare-file: open at 1afd9123, _plain_assignment passed an upper-case
# name outside a deny-list whose value held no `/`; closed by s57-sfix e9556ccb)
# (script-file-it-runs-is-written: open at 2b89b120 and 86e0897c, testroots read the commands
# of a shell script file a script runs and nothing guarded the file; closed by s57-sfix
# 215b656a, which refuses such a script: see the cost rows)
# (package-json-with-a-bom: open at 2b89b120 and 86e0897c, testroots read a package.json it
# could not parse as holding no script; closed by s57-sfix a62ecba8)
# (wrapper-before-a-shell, reserved-word-before-a-cd: open at 44834e42, regressions; and
# wrapper-before-an-interpreter, shell-text-runs-an-interpreter: open at 44834e42 and before;
# closed by s57-sfix 9bfa46a0)


def _script(tmp_path: Path, case: str) -> str | None:
    """SCRIPTS' ``case``: the first call the hook denies, or None (a case named ``bom-…``:
    the package.json starts with a UTF-8 byte order mark, which npm drops)."""
    script, extra, setup, target = SCRIPTS[case]
    files = {"package.json": ("\ufeff" if case.startswith("bom-") else "") + json.dumps(
        {"name": "p", "scripts": {"test": script}}), "src/mk": NODE_PAYLOAD, **extra}
    later = ["cp -P src/l build"] if case == "link-planted-into-the-cd" else []
    return _case(tmp_path, ["Bash(npm test)", "Bash(cp *)"], files,
                 [f"cp src/mk {target or '../other/x.js'}", *later, "npm test"],
                 setup=SIBLING + setup)


@pytest.mark.parametrize("row", list(SCRIPT_ROWS))
def test_r_a_scripts_folder_read_otherwise(tmp_path: Path, row: str) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``: the copy into ``../other`` (through
    ``../ext/test/o``) is allowed, and ``npm test`` runs it."""
    needs("node", "npm")
    allowed = [n for n in SCRIPT_ROWS[row] if _script(tmp_path / n, n) is None]
    assert not allowed, f"the hook allows every call of {allowed}, and node runs the payload"


# --- J: what jest 29.7 loads that its settings name (jestsettings) ------------------------------

#: Each case: the plan's entry, package.json's ``"jest"`` settings (None: none), the test
#: script, the other files, the file the copy writes (jest loads it).
JEST: dict[str, tuple[str, dict[str, object] | None, str, dict[str, str], str]] = {
    # istanbul-reports' create(name) requires a reporter it does not have by its name
    "coverage-reporters-setting": ("npm test", {"collectCoverage": True, "coverageReporters": [
        "PROJECT/tools/r.js"]}, "jest", {}, "tools/r.js"),
    "coverage-reporters-option": ("npm test", None,
                                  "jest --coverage --coverageReporters=PROJECT/tools/r.js", {},
                                  "tools/r.js"),
    # an inline project's rootDir above the project; a project folder above (a monorepo's)
    "inline-project-root-dir-above": ("npm test", {"projects": [{"rootDir": ".."}]}, "jest",
                                      {"../other/__tests__/b.js": JEST_TEST},
                                      "../other/__tests__/a.js"),
    "project-folder-above": ("npm test", {"projects": [".."]}, "jest", {
        "../package.json": '{"name": "root"}', "../other/__tests__/b.js": JEST_TEST},
        "../other/__tests__/a.js"),
    # an assignment before the cd: jest runs in pkg/a, with its settings
    "assignment-before-a-cd": ("npm test", None, "A=1 cd pkg/a && jest", {
        "pkg/a/a.test.js": JEST_TEST, "pkg/a/jest.config.json": SETUP_JSON},
        "pkg/a/tools/s.js"),
    # settings that are code naming a setup file of another ending (or one of no ending not
    # yet there: proved outside the suite, _jest_case makes the target first)
    "code-config-names-a-text-file": ("npm test", None, "jest", {"jest.config.js": (
        "module.exports = {setupFiles: ['<rootDir>/tools/setup.txt']};\n")},
        "tools/setup.txt"),
    # a package's preset jest finds by the package's exports (the gate: its jest-preset.json)
    "package-preset-by-its-exports": ("npm test", {"preset": "my-preset"}, "jest", {
        "../node_modules/my-preset/package.json": json.dumps(
            {"name": "my-preset", "exports": {"./jest-preset": "./p.js"}}),
        "../node_modules/my-preset/jest-preset.json": "{}",
        "../node_modules/my-preset/p.js": "module.exports = {setupFiles: "
                                          "['<rootDir>/tools/s.js']};\n"}, "tools/s.js"),
    # a folder name jest searches for modules from each test's folder up
    "module-directories-above": ("npm test", {"moduleDirectories": ["tools", "node_modules"]},
                                 "jest", {"a.test.js": "require('helper');\n" + JEST_TEST},
                                 "../tools/helper.js"),
    # the words npm passes on after `--` (the plan's, a script's `npm run x -- …`)
    "plans-words-after-npms-dashes": ("npm test -- --setupFiles=./tools/s.js", None, "jest", {},
                                      "tools/s.js"),
    "scripts-words-after-npms-dashes": ("npm test", None, "", {"package.json": json.dumps(
        {"name": "jt", "scripts": {"test": "npm run unit -- --setupFiles=./tools/s.js",
                                   "unit": "jest"}})}, "tools/s.js"),
    # an installed jest outside the project (a global one: here by its path), run by make,
    # in a project with no package.json nor node_modules (``_no_modules``)
    "make-runs-a-jest-outside": ("make test", None, "", {
        "Makefile": "test:\n\tJESTBIN --config ci.json\n", "ci.json": SETUP_JSON},
        "tools/s.js"),
    # held at 238ea1eb: the Makefile names jest; not where an included file does (held at
    # b3d9a162 with a test in the folder: here the test is deeper, where jest finds it too)
    "make-includes-the-runner": ("make test", None, "", {
        "Makefile": "include tools/vars.mk\ntest:\n\t$(RUNNER) --config ci.json\n",
        "tools/vars.mk": "RUNNER = JESTBIN\n", "ci.json": SETUP_JSON,
        "lib/unit/a.test.js": JEST_TEST}, "tools/s.js"),
}
JEST_ROWS = {
    "coverage-reporters": ("coverage-reporters-setting",),
    "a-project-above": ("inline-project-root-dir-above",),
    "assignment-before-a-cd": ("assignment-before-a-cd",),
    "plans-words-after-npms-dashes": ("plans-words-after-npms-dashes",),
    "scripts-words-after-npms-dashes": ("scripts-words-after-npms-dashes",),
    "make-runs-a-jest-outside": ("make-includes-the-runner",),
    "module-directories-above": ("module-directories-above",),
    "package-preset-by-its-exports": ("package-preset-by-its-exports",),
    "code-config-names-a-file-of-any-ending": ("code-config-names-a-text-file",),
}
# (plans-words-after-npms-dashes: open at 44834e42, a regression; closed by s57-sfix
# 9bfa46a0)
# (closed by s57-sfix 2b89b120, each open at 9bfa46a0: coverageReporters, a project above,
# the assignment before a cd, a script's `npm run unit -- …` words, a jest outside the
# project run by make, moduleDirectories above, a package preset's exports)


def _jest(tmp_path: Path, case: str) -> str | None:
    """JEST's ``case``: the first call the hook denies, or None."""
    entry, settings, script, files, target = JEST[case]
    if "Makefile" not in files:
        files = {"a.test.js": JEST_TEST, **files}
    else:  # (no package.json, no node_modules: a jest installed elsewhere)
        bin_jest = str(_installed_jest() / ".bin" / "jest")
        files = {**{k: v.replace("JESTBIN", bin_jest) for k, v in files.items()},
                 target: "module.exports = {};\n", "src/js": JS_PAYLOAD}
        return _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                     [f"cp src/js {target}", entry])
    return _jest_case(tmp_path, entry, settings, files, target, script or "jest",
                      "package.json" not in files)


@pytest.mark.parametrize("row", list(JEST_ROWS))
def test_j_jest_loads_a_file_its_settings_name(tmp_path: Path, row: str) -> None:
    """Plan: the entry, ``Bash(cp *)``: the copy, then jest loads the file."""
    allowed = [n for n in JEST_ROWS[row] if _jest(tmp_path / n, n) is None]
    assert not allowed, f"the hook allows every call of {allowed}, and jest loads the file"


#: A cacheDirectory jest resolves from rootDir, named with no `/`: the settings, the script.
BARE_CACHES = {"setting": ({"cacheDirectory": "jc"}, "jest")}
#: (the option's spelling, ``"test": "jest --cacheDirectory jc"``, proved outside the suite)
# (both: open at 9bfa46a0, _folders read cacheDirectory by _paths, which skipped a name with
# no `/`; closed by s57-sfix 2b89b120)


@pytest.mark.parametrize("case", list(BARE_CACHES))
def test_j_a_cache_directory_of_a_bare_name(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``: a first run fills ``jc``; the copy over
    ``a.test.js``'s cached transform; the next run takes the cached code for the test's
    (test_s56_sreview's cache rows)."""
    settings, script = BARE_CACHES[case]
    package: dict[str, object] = {"name": "jt", "scripts": {"test": script}}
    if settings is not None:
        package["jest"] = settings
    files = {"a.test.js": JEST_TEST, "src/cached": CACHED, "package.json": json.dumps(package)}
    assert _case(tmp_path, ["Bash(npm test)", "Bash(cp *)"], files,
                 ["npm test", "cp src/cached jc/jest-transform-cache-*/*/atest_*[0-9a-f]",
                  "npm test"], links={"node_modules": str(_installed_jest())}) is not None


# --- C: costs: everyday calls the change denies -------------------------------------------------

#: A project's scripts (a coverage wrapper before node's test runner, an ordinary start
#: script): each call the plan ``Bash(npm test)``, ``Bash(cp *)`` should allow.
WRAPPED_COSTS = {"copy-into-docs": "cp notes.txt docs/notes.txt",
                 "copy-beside-the-project": "cp notes.txt ../shared/notes.txt"}
#: Scripts whose words hold a shell builtin's name as a part of another word (a script
#: named ``build:local``, an ``echo``'s text): the same copy should stay allowed.
WORD_COSTS = {"script-named-build-local": {"test": "npm run build:local && node --test",
                                           "build:local": "tsc"},
              "echo-text-holding-read": {"test": "node --test && echo read the README"}}
#: A test script running a shell script file of the project: the same copy should stay allowed
#: (the file guarded, its commands read).
SCRIPT_FILE_COSTS = {"executable-script-file": ("./scripts/test.sh", "#!/bin/sh\nnode --test\n"),
                     "sh-runs-a-script-file": ("sh scripts/test.sh", "node --test\n")}
# (both: open at 215b656a, a regression: testroots._code_run refused every script running a
# shell script file; closed by s61-mfix: the file read, its path's first part guarded)


@pytest.mark.parametrize("case", list(SCRIPT_FILE_COSTS))
def test_c_a_test_script_running_a_shell_file_keeps_copies(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``: ``cp notes.txt docs/notes.txt`` is allowed."""
    script, text = SCRIPT_FILE_COSTS[case]
    project = hooked_project(tmp_path, ["Bash(npm test)", "Bash(cp *)"])
    (project / "package.json").write_text(json.dumps({"name": "p", "scripts": {"test": script}}))
    (project / "scripts").mkdir()
    (project / "scripts" / "test.sh").write_text(text)
    (project / "scripts" / "test.sh").chmod(0o755)
    (project / "notes.txt").write_text("n\n")
    (project / "docs").mkdir()
    said = subprocess.run(["/bin/sh", "-c", _settings_hook(project)], cwd=project,
                          input=payload("cp notes.txt docs/notes.txt", project.resolve()),
                          env={**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)},
                          capture_output=True, timeout=60, check=False)
    assert said.returncode != 2, said.stderr.decode()[-400:]


# (both: open at 2b89b120, a regression: testroots._SHELL_STATE searched the script's text
# for `local`, `read`, `export`…; closed by s57-sfix 215b656a)


@pytest.mark.parametrize("case", list(WORD_COSTS))
def test_c_a_builtins_name_inside_a_word_keeps_copies(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``: ``cp notes.txt docs/notes.txt`` is allowed."""
    project = hooked_project(tmp_path, ["Bash(npm test)", "Bash(cp *)"])
    (project / "package.json").write_text(json.dumps({"name": "p",
                                                      "scripts": WORD_COSTS[case]}))
    (project / "notes.txt").write_text("n\n")
    (project / "docs").mkdir()
    said = subprocess.run(["/bin/sh", "-c", _settings_hook(project)], cwd=project,
                          input=payload("cp notes.txt docs/notes.txt", project.resolve()),
                          env={**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)},
                          capture_output=True, timeout=60, check=False)
    assert said.returncode != 2, said.stderr.decode()[-400:]


# (both: open at d3585eaf, a regression: c8 was no _CLOSED program, so every script was read
# and start's `node server.js` refused every write; closed by s57-sfix 2b89b120)


@pytest.mark.parametrize("case", list(WRAPPED_COSTS))
def test_c_a_coverage_wrapper_beside_a_start_script_keeps_copies(tmp_path: Path,
                                                                 case: str) -> None:
    """``{"test": "c8 node --test", "start": "node server.js"}``: the copy is allowed."""
    project = hooked_project(tmp_path, ["Bash(npm test)", "Bash(cp *)"])
    (project / "package.json").write_text(json.dumps({"name": "p", "scripts": {
        "test": "c8 node --test", "start": "node server.js"}}))
    for name in ("notes.txt", "server.js", "docs/.keep"):
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text("n\n")
    (tmp_path / "shared").mkdir()
    said = subprocess.run(["/bin/sh", "-c", _settings_hook(project)], cwd=project,
                          input=payload(WRAPPED_COSTS[case], project.resolve()),
                          env={**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)},
                          capture_output=True, timeout=60, check=False)
    assert said.returncode != 2, said.stderr.decode()[-400:]


#: A jest project whose settings are code (``jest.config.js``): each call, in turn.
COSTS = {
    "plans-npm-test": ("Bash(npm test)", "npm test"),
    "plans-npx-jest": ("Bash(npx jest)", "npx jest"),
    "copy-of-a-readme": ("Bash(npm test)", "cp README docs/README"),
}
# (every case: open at 44834e42, a regression: jestsettings.widened took every name of no
# ending (`test`, `jest`, `README`) as jest's code where the settings are code; closed by
# s57-sfix cc08907c)


@pytest.mark.parametrize("case", list(COSTS))
def test_c_a_jest_project_with_a_code_config_keeps_its_calls(tmp_path: Path,
                                                             case: str) -> None:
    """Plan: the entry, ``Bash(cp *)``; ``"test": "jest"``, ``jest.config.js`` (``{}``): the
    call is allowed (as it was before the change)."""
    entry, call = COSTS[case]
    project = hooked_project(tmp_path, [entry, "Bash(cp *)"])
    (project / "package.json").write_text(json.dumps({"name": "p", "scripts": {"test": "jest"}}))
    (project / "jest.config.js").write_text("module.exports = {};\n")
    (project / "a.test.js").write_text(JEST_TEST)
    (project / "README").write_text("r\n")
    (project / "docs").mkdir()
    said = subprocess.run(["/bin/sh", "-c", _settings_hook(project)], cwd=project,
                          input=payload(call, project.resolve()),
                          env={**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)},
                          capture_output=True, timeout=60, check=False)
    assert said.returncode != 2, said.stderr.decode()[-400:]


# --- R: `$PWD` is the session's folder as the shell keeps it ------------------------------------



# (open at 9bfa46a0 and 86e0897c: _KNOWN read $PWD as the package's real folder; closed by
# s57-sfix 2b89b120: $PWD is no more read)


def test_r_pwd_is_the_sessions_logical_folder(tmp_path: Path) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``; ``"test": "node --test $PWD/../ext/"``; the
    session started from ``lk/p -> ../project`` (its ``PWD``: bash keeps an inherited ``PWD``
    naming its folder, npm passes it on, dash keeps it): ``$PWD/../ext/`` is ``lk/ext``.
    ``cp src/mk ../lk/ext/test/x.js`` is allowed, and ``npm test`` runs it."""
    needs("node", "npm")
    found = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, ["Bash(npm test)", "Bash(cp *)"])
        (project / "package.json").write_text(json.dumps(
            {"name": "p", "scripts": {"test": "node --test $PWD/../ext/"}}))
        (project / "src" / "mk").write_text(NODE_PAYLOAD)
        subprocess.run(["bash", "-c", "mkdir -p ../lk/ext/test && ln -s ../project ../lk/p"],
                       cwd=project, check=True, timeout=60)
        env = {**home_env(tmp_path / side / "home"), "CLAUDE_PROJECT_DIR": str(project),
               "PWD": str(tmp_path / side / "lk" / "p")}
        denied = None
        for call in ("cp src/mk ../lk/ext/test/x.js", "npm test"):
            if side == "run" and subprocess.run(
                    ["/bin/sh", "-c", _settings_hook(project)], input=payload(call, project),
                    cwd=project, env=env, capture_output=True, timeout=60,
                    check=False).returncode == 2:
                denied = call
                break
            subprocess.run(["timeout", "60", "bash", "-c", call], cwd=project, env=env,
                           capture_output=True, timeout=90, check=False)
        if side == "proof":
            assert any((tmp_path / side).rglob("zz")), "node ran no payload"
        found.append(denied)
    assert found[1] is not None, "the hook allows every call, and node runs the payload"
