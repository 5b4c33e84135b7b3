"""Review s56 (s56-sreview) of s56-sfix (issue 29: jest's settings, the folders a package.json
script's runner collects in). Each case proves with real dash/bash and the real programs (npm
11, node 20, jest 29.7, GNU make) in a scratch project that the calls run the payload (a file
``zz`` made), then asks the printed hook for each call in turn in a second such project,
running the allowed writes (not the last call, the runner: its run is the proof's): the hook
allowing every call is the finding, a strict xfail row of ``OPEN`` while it is open. A case
the change holds is a plain test pinning it.

Every payload only makes a file."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from bash_review import LeftOpen, home_env, hooked_project, needs
from test_gate_files import _settings_hook, payload
from test_s53_greview import _jest

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail.
OPEN = LeftOpen()


def _case(tmp_path: Path, entries: list[str], files: dict[str, str], calls: list[str],
          links: dict[str, str] | None = None, setup: str = "") -> str | None:
    """Proves that real bash, running ``calls`` in a hooked project with plan ``entries``,
    ``files`` (``PROJECT`` in a text: the project's folder), the symbolic ``links`` and what
    the bash text ``setup`` made, makes ``zz`` in or beside the project; then asks the printed
    hook for each call in a second such project (running each allowed one but the last): the
    first call denied, or None (the hole)."""
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, entries)
        for name, text in files.items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(text.replace("PROJECT", str(project)))
        for name, to in (links or {}).items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(to, project / name)
        env = {**home_env(tmp_path / side / "home"), "CLAUDE_PROJECT_DIR": str(project)}
        if setup:
            subprocess.run(["bash", "-c", setup], cwd=project, env=env, check=True,
                           capture_output=True, timeout=60)
        denied = None
        for at, call in enumerate(calls):
            if side == "run":
                said = subprocess.run(["/bin/sh", "-c", _settings_hook(project)],
                                      input=payload(call, project.resolve()), cwd=project,
                                      env=env, capture_output=True, timeout=60, check=False)
                if said.returncode == 2:
                    denied = call
                    break
                if at == len(calls) - 1:
                    break
            ran = subprocess.run(["timeout", "60", "bash", "-c", call], cwd=project, env=env,
                                 capture_output=True, timeout=90, check=False, text=True,
                                 errors="replace")
        if side == "proof":
            assert any((tmp_path / side).rglob("zz")), \
                f"bash ran no payload: {call} (exit {ran.returncode}) {ran.stderr[-1500:]}"
        found.append(denied)
    return found[1]


def _allowed(tmp_path: Path, names: tuple[str, ...], run: Callable[[Path, str], str | None]
             ) -> list[str]:
    """The spellings of ``names`` whose calls the hook allows every one of (``run`` proving
    each in its own folder below ``tmp_path``, asking the hook: the first call denied). A row
    runs one spelling of its class (CI's slow-step budget); the other spellings in the tables
    were proved outside the suite (the review's report lists them)."""
    return [n for n in names if run(tmp_path / n, n) is None]


# --- R: the folders a package.json script's runner collects in (testroots) ----------------------

#: A test file's payload: node's test runner runs it; it makes ``zz`` in the folder npm was
#: started in (``INIT_CWD``).
NODE_PAYLOAD = "require('child_process').execSync('touch ' + process.env.INIT_CWD + '/zz')\n"
#: ``../ext/test/o`` leads to ``../other``: node's ``--test`` on ``../ext/`` runs what is there.
SIBLING = "mkdir -p ../ext/test ../other && ln -s ../../other ../ext/test/o"
#: Each case: the ``test`` script running node's test runner on ``../ext/`` spelled with no
#: ``$`` or backquote in the package.json (npm runs it with ``sh``: dash), or through a project
#: file the script runs; the other files.
SPELLED = {
    # dash's glob matches `..` for a pattern starting with a dot (no globskipdots)
    "dot-question-glob": ("node --test .?/ext/", {}),
    "dot-class-glob": ("node --test .[.]/ext/", {}),
    # quotes inside a word join its parts (`.''.` is `..`)
    "empty-quotes-between-dots": ("node --test .''./ext/", {}),
    "quoted-dot": ("node --test .\".\"/ext/", {}),
    # a user's home (`~root`), bash's `~+` ($PWD)
    "tilde-user": ("node --test ~root/..PROJECT/../ext/", {}),
    "bash-tilde-plus": ("bash -c 'node --test ~+/../ext/'", {}),
    # a bare `cd` (the home: ~/ext/test/o leads to ../other), a pipeline's output
    "bare-cd-to-the-home": ("cd && node --test ext/", {}),
    "xargs-of-a-pipeline": ("echo /ext/ | sed s,^,..,| xargs node --test", {}),
    # `$PWD` after a `cd` (testroots reads it as the package's folder)
    "pwd-after-a-cd": ("cd sub && node --test $PWD/../../ext/", {"sub/.keep": ""}),
    "braced-pwd-after-a-cd": ("cd sub; node --test ${PWD}/../../ext/", {"sub/.keep": ""}),
    # `$INIT_CWD` is the folder npm started in (a folder below the package: npm walks up)
    "init-cwd-from-a-folder-below": ("node --test $INIT_CWD/../../ext/", {"sub/.keep": ""},
                                     "cd sub && npm test"),
    # a script file holding the expansions R4 refuses in package.json
    "script-file-parameter-expansion": ("sh run.sh", {"run.sh": "node --test ${PWD%/*}/ext/\n"}),
    "script-file-config-variable": ("sh run.sh",
                                    {"run.sh": "node --test $npm_package_config_dir\n"}),
    # a script file that is code, building the folder
    "node-script-builds-the-folder": ("node run.js", {"run.js": (
        "const p = require('path');\nrequire('child_process').execSync('node --test ' + "
        "p.dirname(process.cwd()) + '/ext/', {stdio: 'inherit'});\n")}),
}
#: The rows: each a class of SPELLED's spellings (one case each).
SPELLED_ROWS = {
    "dash-globs-matching-dots": ("dot-question-glob",),
    "quotes-joining-dots": ("empty-quotes-between-dots",),
    "tilde-forms": ("tilde-user",),
    "bare-cd-to-the-home": ("bare-cd-to-the-home",),
    "xargs-of-a-pipeline": ("xargs-of-a-pipeline",),
    "pwd-after-a-cd": ("pwd-after-a-cd",),
    "init-cwd-from-a-folder-below": ("init-cwd-from-a-folder-below",),
    "script-file-expansions": ("script-file-parameter-expansion",),
    "node-script-builds-the-folder": ("node-script-builds-the-folder",),
}


def _spelled(tmp_path: Path, case: str) -> str | None:
    """SPELLED's ``case``: the first call the hook denies, or None."""
    script, extra, *entry = SPELLED[case]
    call = entry[0] if entry else "npm test"
    assert isinstance(extra, dict) and isinstance(call, str)  # (rows: a script, files, a call)
    files = {"package.json": json.dumps({"name": "p", "config": {"dir": "../ext/"},
                                         "scripts": {"test": script}}),
             "src/mk": NODE_PAYLOAD, **extra}
    home = "mkdir -p ~/ext/test ../other && ln -s \"$(cd ../other && pwd)\" ~/ext/test/o"
    return _case(tmp_path, [f"Bash({call})", "Bash(cp *)"], files,
                 ["cp src/mk ../other/x.js", call], setup=home if "home" in case else SIBLING)


@pytest.mark.parametrize("row", list(SPELLED_ROWS))
def test_r_a_scripts_folder_spelled_without_an_expansion(tmp_path: Path, row: str) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``: ``cp src/mk ../other/x.js`` is allowed, and
    ``npm test`` runs it through ``../ext/test/o``."""
    needs("node", "npm")
    allowed = _allowed(tmp_path, SPELLED_ROWS[row], _spelled)
    assert not allowed, f"the hook allows every call of {allowed}, and node runs the payload"


#: A package's scripts: the plan's entry, its scripts (``RUN`` runs node's test runner on
#: ``../ext/``), and ``sub``'s (a package below) where given. The plan's scripts' closure
#: (planscripts) misses the script that runs it.
RUN = "node --test ../ext/"
SUB = {"unit": "node --test ../../ext/"}
CLOSURE = {
    # sh reads a new line as `;` and `#` inside a word as the word's (shlex: a comment)
    "new-line-then-a-run": ("npm test", {"test": "echo start\nnpm run unit", "unit": RUN}, None),
    "hash-inside-a-word": ("npm test", {"test": "echo build#1; npm run unit", "unit": RUN},
                           None),
    # npm's option taking a value before the script's name (`--loglevel warn`)
    "option-value-before-the-name": ("npm test", {"test": "npm run --loglevel warn unit",
                                                  "unit": RUN}, None),
    "plans-option-value-before-the-name": ("npm run --loglevel warn unit", {"unit": RUN}, None),
    # `npm restart` with no restart script runs stop and start
    "restart-runs-start": ("npm test", {"test": "npm restart", "start": RUN}, None),
    "plans-restart-runs-start": ("npm restart", {"start": RUN, "stop": "true"}, None),
    # another package's script (a folder below): cd, --prefix, a workspace
    "cd-then-a-packages-run": ("npm test", {"test": "cd sub && npm run unit"}, SUB),
    "prefix-before-the-name": ("npm test", {"test": "npm run --prefix sub unit"}, SUB),
    "workspace-after-the-name": ("npm test", {"test": "npm run unit -w sub"}, SUB),
    "plans-run-in-every-workspace": ("npm test --workspaces", {"test": "node --test",
                                                               "unit": RUN}, {"test": SUB["unit"]}),
    # held at 683a8b5: the closure by npm's aliases, pre/post, a script file running npm
    "run-alias-closure": ("npm test", {"test": "npm rum unit", "unit": RUN}, None),
    "pre-script-of-the-closure": ("npm test", {"test": "npm run unit", "preunit": RUN,
                                               "unit": "node --test"}, None),
    "script-file-runs-npm": ("npm test", {"test": "sh run.sh", "unit": RUN}, None),
}
#: The rows: each a class of CLOSURE's spellings.
CLOSURE_ROWS = {
    "new-line-then-a-run": ("new-line-then-a-run",),
    "hash-inside-a-word": ("hash-inside-a-word",),
    "option-value-before-the-name": ("option-value-before-the-name",),
    "restart-runs-start": ("restart-runs-start",),
    "another-packages-scripts": ("cd-then-a-packages-run",),
    "plans-run-in-every-workspace": ("plans-run-in-every-workspace",),
    "held-closure": ("pre-script-of-the-closure",),
}


@pytest.mark.parametrize("row", list(CLOSURE_ROWS))
def test_r_a_script_the_plan_runs_read_otherwise(tmp_path: Path, row: str) -> None:
    """Plan: the entry, ``Bash(cp *)``: ``cp src/mk ../other/x.js`` is allowed, and the
    entry runs node's test runner on ``../ext/`` (its ``test/o`` leads to ``../other``)."""
    needs("node", "npm")
    allowed = _allowed(tmp_path, CLOSURE_ROWS[row], _closure)
    assert not allowed, f"the hook allows every call of {allowed}, and node runs the payload"


def _closure(tmp_path: Path, case: str) -> str | None:
    """CLOSURE's ``case``: the first call the hook denies, or None."""
    entry, scripts, sub = CLOSURE[case]
    package: dict[str, object] = {"name": "p", "scripts": scripts}
    files = {"src/mk": NODE_PAYLOAD, "run.sh": "npm run unit\n"}
    if sub is not None:
        package["workspaces"] = ["sub"]
        files["sub/package.json"] = json.dumps({"name": "sub", "scripts": sub})
    files["package.json"] = json.dumps(package)
    return _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                 ["cp src/mk ../other/x.js", entry], setup=SIBLING)


# --- J: what jest 29.7 loads that its settings name --------------------------------------------

#: A module's payload: jest loads it (in its folder: cwd is the project).
JS_PAYLOAD = "require('fs').writeFileSync(process.cwd() + '/zz', '');\nmodule.exports = {};\n"
JEST_TEST = "test('a', () => {});\n"
#: A JSON settings file naming a setup file.
SETUP_JSON = '{"setupFiles": ["<rootDir>/tools/s.js"]}'


def _jest_case(tmp_path: Path, entry: str, settings: dict[str, object] | None,
               files: dict[str, str], target: str, script: str = "jest",
               package_json: bool = True) -> str | None:
    """Plan ``Bash(entry)``, ``Bash(cp *)``; package.json's ``test`` script ``script``, its
    ``"jest"`` ``settings`` (None: none), ``files``; ``target`` present (harmless) before:
    ``cp src/js target``, then ``entry``."""
    modules = _jest()
    package: dict[str, object] = {"name": "jt", "scripts": {"test": script}}
    if settings is not None:
        package["jest"] = settings
    files = {target: "module.exports = {};\n", **files, "src/js": JS_PAYLOAD,
             **({"package.json": json.dumps(package)} if package_json else {})}
    return _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                 [f"cp src/js {target}", entry], links={"node_modules": str(modules)})


#: jest.config.js (code) naming a file whose name is no script's.
CODE_CONFIG = {
    # a setup file with no ending: jest runs it as CommonJS
    "extensionless-setup-file": ({"jest.config.js": "module.exports = {setupFiles: "
                                  "['<rootDir>/tools/setup']};\n"}, "tools/setup"),
    # tests of another ending (moduleFileExtensions)
    "text-file-tests": ({"jest.config.js": "module.exports = {moduleFileExtensions: ['js', "
                         "'txt'], testMatch: ['**/*.test.js', '**/lib/*.txt']};\n",
                         "lib/b.txt": JEST_TEST}, "lib/a.txt"),
    # held at 0c7025b: a script anywhere (`../shared/s.js`), a .cjs/.mjs config
    "script-beside-the-project": ({"jest.config.js": "module.exports = {setupFiles: [require("
                                   "'path').join(__dirname, '..', 'shared', 's.js')]};\n"},
                                  "../shared/s.js"),
    "cjs-config": ({"jest.config.cjs": "module.exports = {setupFiles: "
                    "['<rootDir>/tools/s.js']};\n"}, "tools/s.js"),
}
CODE_CONFIG_ROWS = {"file-of-no-script-ending": ("extensionless-setup-file",),
                    "held-code-config": ("cjs-config",)}


def _code_config(tmp_path: Path, case: str) -> str | None:
    """CODE_CONFIG's ``case``: the first call the hook denies, or None."""
    files, target = CODE_CONFIG[case]
    return _jest_case(tmp_path, "npm test", None, {"a.test.js": JEST_TEST, **files}, target)


@pytest.mark.parametrize("row", list(CODE_CONFIG_ROWS))
def test_j_a_code_config_names_a_file_of_any_name(tmp_path: Path, row: str) -> None:
    """Plan ``Bash(npm test)`` (``"test": "jest"``), ``Bash(cp *)``: jest loads the file."""
    allowed = _allowed(tmp_path, CODE_CONFIG_ROWS[row], _code_config)
    assert not allowed, f"the hook allows every call of {allowed}, and jest loads the file"


#: A settings file given to jest by ``--config`` where the gate does not read it: the plan's
#: entry, the test script, the other files.
CONFIG_ELSEWHERE = {
    "script-short-attached": ("npm test", "jest -c=ci.json", {}),
    "script-runs-jest-js": ("npm test", "node node_modules/jest/bin/jest.js --config ci.json", {}),
    "script-file": ("npm test", "sh run.sh", {"run.sh": "npx jest --config ci.json\n"}),
    "make-recipe": ("make test", "jest", {"Makefile": "test:\n\tnpx jest --config ci.json\n"}),
    # a quoted value (`--config="ci.json"`, `c''i.json`: the shell removes the quotes)
    "script-quoted-attached": ("npm test", 'jest --config="ci.json"', {}),
    "script-split-quote": ("npm test", "jest --config c''i.json", {}),
    # the plan's own line (s55-greview3 J `config-option-file`'s other spellings): yargs'
    # short cluster `-ic` (runInBand, config)
    "plan-short-cluster": ("npx jest -ic ci.json", "jest", {}),
    # held at 683a8b5: the plan's `-c FILE`, `-c=FILE`
    "plan-short": ("npx jest -c ci.json", "jest", {}),
    "plan-short-attached": ("npx jest -c=ci.json", "jest", {}),
    # held at 0c7025b: the script's `-c FILE`
    "script-short": ("npm test", "jest -c ci.json", {}),
}
# (script-short-attached: open at 0c7025b, closed by s56-sfix 9cc89a7)
# (plan-short, plan-short-attached: open at 0c7025b, closed by s56-sfix 683a8b5)
# (script-quoted-attached, script-split-quote: open at a8c2066, closed by s56-sfix 9cc89a7)
CONFIG_ELSEWHERE_ROWS = {n: (n,) for n in ("script-runs-jest-js", "script-file", "make-recipe",
                                           "plan-short-cluster")}
CONFIG_ELSEWHERE_ROWS["held-config-options"] = ("script-quoted-attached",)


def _config_elsewhere(tmp_path: Path, case: str) -> str | None:
    """CONFIG_ELSEWHERE's ``case``: the first call the hook denies, or None."""
    entry, script, files = CONFIG_ELSEWHERE[case]
    return _jest_case(tmp_path, entry, None, {"a.test.js": JEST_TEST, "ci.json": SETUP_JSON,
                                              **files}, "tools/s.js", script)


@pytest.mark.parametrize("row", list(CONFIG_ELSEWHERE_ROWS))
def test_j_a_config_file_named_elsewhere(tmp_path: Path, row: str) -> None:
    """Plan: the entry, ``Bash(cp *)``; ``ci.json`` names ``tools/s.js`` as a setup file."""
    if "make" in row:
        needs("make")
    allowed = _allowed(tmp_path, CONFIG_ELSEWHERE_ROWS[row], _config_elsewhere)
    assert not allowed, f"the hook allows every call of {allowed}, and jest loads the file"


#: jest's settings (package.json's "jest") read otherwise than jest does: the settings, the
#: other files, the file written.
READ_OTHERWISE = {
    # the parent folder is jest's root: it collects the tests there
    "root-dir-above": ({"rootDir": ".."}, {"../other/__tests__/b.js": JEST_TEST},
                       "../other/__tests__/a.js"),
    # a relative preset resolves as a module (a folder's package.json "main")
    "relative-preset-main": ({"preset": "./tools"}, {"tools/package.json": '{"main": "p.js"}',
                                                     "tools/jest-preset.json": "{}"},
                             "tools/p.js"),
    # picomatch's POSIX class
    "posix-class-glob": ({"testMatch": ["**/lib/[[:alpha:]]*.js"]}, {"lib/b.js": JEST_TEST},
                         "lib/a.js"),
    # settings jest 29 resolves and requires, not in _CODE
    "filter-setting": ({"filter": "./tools/s.js"}, {}, "tools/s.js"),
    "runtime-setting": ({"runtime": "./tools/s.js"}, {}, "tools/s.js"),
    # a test's docblock names its environment
    "docblock-environment": (None, {"a.test.js": "/**\n * @jest-environment ./tools/s.js\n */\n"
                                    + JEST_TEST}, "tools/s.js"),
    # an installed package's preset (here the folder above's node_modules) naming a project
    # file
    "package-preset-names-a-setup-file": (
        {"preset": "my-preset"}, {"../node_modules/my-preset/package.json": '{"name": "p"}',
                                  "../node_modules/my-preset/jest-preset.json": SETUP_JSON},
        "tools/s.js"),
    # the settings of the folder above a project holding none (jest walks up to the first
    # folder holding a jest.config.* or a package.json)
    "code-config-above-the-project": (None, {"../jest.config.js": (
        "module.exports = {setupFiles: [__dirname + '/project/tools/s.js']};\n")}, "tools/s.js"),
    "json-config-above-the-project": (None, {"../jest.config.json": (
        '{"setupFiles": ["<rootDir>/project/tools/s.js"]}')}, "tools/s.js"),
    # a mapper's capture (`$1`) names every module below a folder, as modulePaths does
    "mapper-capture-names-a-folder": (
        {"moduleNameMapper": {"^@shared/(.*)$": "<rootDir>/../shared/$1"}},
        {"a.test.js": "require('@shared/util');\n" + JEST_TEST}, "../shared/util.js"),
    # held at 0c7025b: a preset folder's jest-preset.js
    "preset-folder-code": ({"preset": "<rootDir>/tools"}, {}, "tools/jest-preset.js"),
}
READ_OTHERWISE_ROWS = {
    "root-dir-above": ("root-dir-above",), "posix-class-glob": ("posix-class-glob",),
    "filter-and-runtime-settings": ("filter-setting",),
    "docblock-environment": ("docblock-environment",),
    "package-preset-names-a-setup-file": ("package-preset-names-a-setup-file",),
    "settings-above-the-project": ("code-config-above-the-project",),
    "mapper-capture-names-a-folder": ("mapper-capture-names-a-folder",),
    "held-presets": ("relative-preset-main",)}
# (relative-preset-main: open at 0c7025b, closed by s56-sfix a8c2066)


def _read_otherwise(tmp_path: Path, case: str) -> str | None:
    """READ_OTHERWISE's ``case``: the first call the hook denies, or None."""
    settings, files, target = READ_OTHERWISE[case]
    assert settings is None or isinstance(settings, dict)
    above = "above-the-project" in case  # (`npx jest`: the project holds no package.json)
    return _jest_case(tmp_path, "npx jest" if above else "npm test", settings,
                      {"a.test.js": JEST_TEST, **files}, target, package_json=not above)


@pytest.mark.parametrize("row", list(READ_OTHERWISE_ROWS))
def test_j_jests_settings_read_otherwise(tmp_path: Path, row: str) -> None:
    """Plan ``Bash(npm test)`` (``"test": "jest"``; ``npx jest`` where the project holds no
    package.json), ``Bash(cp *)``: jest loads the file."""
    allowed = _allowed(tmp_path, READ_OTHERWISE_ROWS[row], _read_otherwise)
    assert not allowed, f"the hook allows every call of {allowed}, and jest loads the file"


#: A folder jest takes its settings from that the plan's script or line names (its
#: ``--projects``, a ``cd``): the plan's entry, the test script, the settings file there.
FOLDER_NAMED = {
    "script-projects": ("npm test", "jest --projects pkg/a", "pkg/a/jest.config.json"),
    "plan-projects": ("npx jest --projects pkg/a", "jest", "pkg/a/jest.config.json"),
    "script-cd-into-a-folder": ("npm test", "cd pkg/a && jest", "pkg/a/jest.config.json"),
    "script-cd-code-config": ("npm test", "cd pkg/a && jest", "pkg/a/jest.config.js"),
}
FOLDER_NAMED_ROWS = {"script-cd-into-a-folder": ("script-cd-into-a-folder",),
                     "held-projects": ("plan-projects",)}
# (script-projects, plan-projects: open at a8c2066, closed by s56-sfix 9cc89a7)


def _folder_named(tmp_path: Path, case: str) -> str | None:
    """FOLDER_NAMED's ``case``: the first call the hook denies, or None."""
    entry, script, settings = FOLDER_NAMED[case]
    text = ("module.exports = {setupFiles: ['<rootDir>/tools/s.js']};\n"
            if settings.endswith(".js") else SETUP_JSON)
    return _jest_case(tmp_path, entry, None, {"pkg/a/a.test.js": JEST_TEST, settings: text},
                      "pkg/a/tools/s.js", script)


@pytest.mark.parametrize("row", list(FOLDER_NAMED_ROWS))
def test_j_settings_of_a_folder_the_plan_names(tmp_path: Path, row: str) -> None:
    """Plan: the entry, ``Bash(cp *)``; ``pkg/a``'s settings name ``pkg/a/tools/s.js`` as a
    setup file: the copy, then jest (run in ``pkg/a``, or given it as a project) loads it."""
    allowed = _allowed(tmp_path, FOLDER_NAMED_ROWS[row], _folder_named)
    assert not allowed, f"the hook allows every call of {allowed}, and jest loads the file"


#: A path the plan's line gives jest as an option's attached value, spelled as yargs takes it
#: (kebab case: `--global-setup`; `--filter`, a module jest requires): the entry.
PLAN_OPTIONS = {
    "kebab-global-setup": "npx jest --global-setup=./tools/s.js",
    "kebab-test-environment": "npx jest --test-environment=./tools/s.js",
    "npm-test-kebab-setup-files-after-env": "npm test -- --setup-files-after-env=./tools/s.js",
    "filter-attached": "npx jest --filter=./tools/s.js",
    # held at 683a8b5: camel case attached, kebab case spaced
    "camel-setup-files-attached": "npx jest --setupFiles=./tools/s.js",
    "kebab-setup-files-spaced": "npx jest --setup-files ./tools/s.js",
}
PLAN_OPTIONS_ROWS = {"kebab-case": ("kebab-global-setup",),
                     "filter-attached": ("filter-attached",),
                     "held-options": ("camel-setup-files-attached",)}


def _plan_option(tmp_path: Path, case: str) -> str | None:
    """PLAN_OPTIONS' ``case``: the first call the hook denies, or None."""
    return _jest_case(tmp_path, PLAN_OPTIONS[case], None, {"a.test.js": JEST_TEST},
                      "tools/s.js")


@pytest.mark.parametrize("row", list(PLAN_OPTIONS_ROWS))
def test_j_a_path_the_plans_option_gives_jest(tmp_path: Path, row: str) -> None:
    """Plan: the entry, ``Bash(cp *)``: the copy, then jest loads ``tools/s.js``."""
    allowed = _allowed(tmp_path, PLAN_OPTIONS_ROWS[row], _plan_option)
    assert not allowed, f"the hook allows every call of {allowed}, and jest loads the file"


#: A transformed test kept in jest's cache, as jest 29's ScriptTransformer reads one: the first
#: 32 hex digits of the code's SHA-1, a new line, the code (here the payload).
CACHED = (hashlib.sha1(JS_PAYLOAD.encode()).hexdigest()[:32] + "\n" + JS_PAYLOAD)
#: Each case: the settings' cacheDirectory (the default is /tmp/jest_<uid>, shared: not
#: written here; the hook allows the same literal write there too).
CACHES = {
    "cache-in-the-project": "<rootDir>/.jest-cache",
    "cache-beside-the-project": "<rootDir>/../jc",
}


@pytest.mark.parametrize("case", list(CACHES))
def test_j_a_transformed_test_in_jests_cache(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(npm test)`` (``"test": "jest"``), ``Bash(cp *)``: a first run fills the
    cache; the copy over ``a.test.js``'s cached transform (a glob: its name holds hashes);
    the next run takes the cached code for the test's."""
    modules = _jest()
    folder = CACHES[case].replace("<rootDir>/", "")
    package = {"name": "jt", "scripts": {"test": "jest"},
               "jest": {"cacheDirectory": CACHES[case]}}
    files = {"a.test.js": JEST_TEST, "src/cached": CACHED, "package.json": json.dumps(package)}
    assert _case(tmp_path, ["Bash(npm test)", "Bash(cp *)"], files,
                 ["npm test", f"cp src/cached {folder}/jest-transform-cache-*/*/atest_*[0-9a-f]",
                  "npm test"], links={"node_modules": str(modules)}) is not None

# --- C: costs: everyday calls the narrowed reading still denies ---------------------------------

#: A monorepo package: the test script, a linter's script naming a sibling folder (``eslint src
#: ../shared``: no runner collects there); the plan's extra entry.
SIBLING_COSTS = {
    # `npx jest` runs the package's jest (a closed program), as `jest` does
    "test-script-runs-npx-jest": ({"test": "npx jest", "lint": "eslint src ../shared"}, []),
    # a plan's `git diff` beside `npm test` (planscripts: an entry that may run any script)
    "plan-holds-git-diff": ({"test": "node --test", "lint": "eslint src ../shared"},
                            ["Bash(git diff *)"]),
}


@pytest.mark.parametrize("case", list(SIBLING_COSTS))
def test_c_a_sibling_a_script_the_plan_does_not_run_names_keeps_writes(
        tmp_path: Path, case: str) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)`` (and the extra entry): ``cp notes.txt
    ../shared/notes.txt`` stays allowed (the linter's script is not run by the plan)."""
    scripts, extra = SIBLING_COSTS[case]
    project = hooked_project(tmp_path, ["Bash(npm test)", "Bash(cp *)", *extra])
    (project / "package.json").write_text(json.dumps({"name": "p", "scripts": scripts}))
    (project / "notes.txt").write_text("n\n")
    (tmp_path / "shared").mkdir()
    said = subprocess.run(["/bin/sh", "-c", _settings_hook(project)], cwd=project,
                          input=payload("cp notes.txt ../shared/notes.txt", project.resolve()),
                          env={**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)},
                          capture_output=True, timeout=60, check=False)
    assert said.returncode != 2, said.stderr.decode()[-400:]
