"""Session 56's fix (s56-sfix) of jest's settings and the runners' roots (issue 29; reviews
s55-greview3 J4, s55-sreview R4). A class the fix holds is proved by real bash and jest 29.7
in a scratch project first (``test_s53_greview._session``: the payload ran), then the printed
hook is asked call by call as the runtime's Bash tool runs them: the copy is the first call
denied. The writes the rules keep allowed, and the costs they take, are pinned as plain tests
(the printed hook's decisions).

Every payload only touches a file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project
from test_s53_greview import _jest, _session

#: Real bash and jest, and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open here, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

#: A script touching a file when jest loads it (a setup file, a preset's, a config's).
JS_PAYLOAD = "require('fs').writeFileSync(process.cwd() + '/zz', '');\nmodule.exports = {};\n"
#: A test jest runs (it passes).
JEST_TEST = "test('a', () => {});\n"

# --- J: settings jest reads that are code, or found past the collecting folder's JSON ---------

#: Each case: package.json's "jest" (None: none), its test script, the other files, the file
#: the payload is copied over (present, harmless, before the session). Distinct classes past
#: s55-greview3's rows: a preset named by its folder (JSON, or code), a script's settings file
#: that is code (`-c`), a JSON text given to `--config`, a glob of project folders.
CODE = {
    # a preset folder holding jest-preset.json (its setupFiles read), a relative preset
    # module resolved to its folder's index.js (code)
    "preset-folder-json": ({"preset": "<rootDir>/preset"}, "jest", {
        "a.test.js": JEST_TEST, "preset/jest-preset.json": '{"setupFiles": ["<rootDir>/t/s.js"]}'},
        "t/s.js"),
    "preset-module-code": ({"preset": "./preset"}, "jest", {
        "a.test.js": JEST_TEST, "preset/index.js":
        "module.exports = {setupFiles: ['<rootDir>/t/s.js']};\n"}, "t/s.js"),
    # the test script's settings file is code, or a JSON text
    "script-config-code": (None, "jest -c jest.ci.js", {
        "a.test.js": JEST_TEST, "jest.ci.js": "module.exports = {setupFiles: ['./t/s.js']};\n"},
        "t/s.js"),
    "script-config-json-text": (None, "jest --config '{\"setupFiles\": [\"./t/s.js\"]}'",
                                {"a.test.js": JEST_TEST}, "t/s.js"),
    # the test script's own option naming a setup file
    "script-option-setup-files": (None, "jest --setupFiles ./t/s.js", {"a.test.js": JEST_TEST},
                                  "t/s.js"),
    # a glob of project folders: each one's own settings
    "glob-projects-settings": ({"projects": ["<rootDir>/packages/*"]}, "jest", {
        "packages/a/package.json": '{"name": "a", "jest": {"setupFiles": ["<rootDir>/s.js"]}}',
        "packages/a/a.test.js": JEST_TEST}, "packages/a/s.js"),
}


@pytest.mark.parametrize("case", CODE)
def test_j_a_file_jests_settings_name_is_held(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``: jest loads the file the copy writes; the hook
    denies the copy."""
    modules = _jest()
    settings, script, files, target = CODE[case]
    package = {"name": "jt", "scripts": {"test": script}}
    files = {target: "module.exports = {};\n", **files, "src/js": JS_PAYLOAD,
             "package.json": json.dumps(package if settings is None else
                                        {**package, "jest": settings})}
    assert _session(tmp_path, ["Bash(npm test)", "Bash(cp *)"], files,
                    [f"cp src/js {target}", "npm test"],
                    links={"node_modules": str(modules)}) == f"cp src/js {target}"


def _decided(tmp_path: Path, files: dict[str, str], calls: list[str],
             entries: tuple[str, ...] = ()) -> str | None:
    """The first of ``calls`` the printed hook denies under plan ``Bash(npm test)``, ``Bash(cp
    *)``, ``Bash(mkdir *)`` and ``entries`` in a project holding ``files`` (``../x``: beside
    it)."""
    project = hooked_project(tmp_path, ["Bash(npm test)", "Bash(cp *)", "Bash(mkdir *)",
                                        *entries])
    for name, text in {"notes.js": "\n", "notes.txt": "\n", "data.json": "{}", **files}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    return first_denied(project, calls, env)


#: Each case: the files, a write the fail-closed reading denies (settings that are code may
#: name a script anywhere: beside the project; a project folder's code settings).
FAIL_CLOSED = {
    "code-config-a-script-beside-the-project": (
        {"jest.config.js": "module.exports = Object.assign({}, {});\n", "../shared/.keep": ""},
        "cp notes.js ../shared/s.js"),  # (code: a literal is read, s62-mfix)
    "code-config-of-a-project-folder": (
        {"package.json": '{"name": "p", "scripts": {"test": "jest"}, "jest": {"projects": '
                         '["<rootDir>/pkg/a"]}}',
         "pkg/a/jest.config.ts": "export default Object.assign({}, {});\n"},  # (code: s62)
        "cp notes.js lib/x.js"),
}


@pytest.mark.parametrize("case", FAIL_CLOSED)
def test_j_settings_jest_cannot_be_read_for_fail_closed(case: str, tmp_path: Path) -> None:
    """The write (after ``mkdir -p lib``, allowed) is the call denied."""
    files, write = FAIL_CLOSED[case]
    files = {"package.json": '{"name": "p", "scripts": {"test": "jest"}}', **files}
    assert _decided(tmp_path, files, ["mkdir -p lib", write]) == write


def test_j_writes_jests_settings_do_not_name_stay_allowed(tmp_path: Path) -> None:
    """JSON settings naming a setup file above the folder, an extglob testMatch, an inline
    project: a source module, a fixture, a note stay writable; under a jest.config.js a
    file that is no script (JSON data, a note) stays writable."""
    package = {"name": "p", "scripts": {"test": "jest"}, "jest": {
        "setupFiles": ["<rootDir>/../shared/s.js"], "testMatch": ["**/*.+(check|e2e).js"],
        "projects": [{"displayName": "c", "testMatch": ["**/*.check.js"]}]}}
    files = {"package.json": json.dumps(package), "src/.keep": "", "../shared/.keep": ""}
    assert _decided(tmp_path / "json", files, [
        "cp notes.js src/util.js", "cp notes.js src/a.checks.js", "cp data.json src/",
        "cp notes.js ../shared/other.js"]) is None
    assert _decided(tmp_path / "code", {"jest.config.js": "module.exports = {};\n",
                                        "src/.keep": ""},
                    ["cp data.json src/fixture.json", "cp notes.txt src/README.md"]) is None


def test_cost_a_code_config_denies_every_script_write(tmp_path: Path) -> None:
    """COST J4 (pinned): under a jest.config.js that is code, a Bash write of a source
    module is denied (what the code names is not computed); without one it is allowed (one
    exporting a literal is read: s62-mfix)."""
    files = {"src/.keep": ""}
    code = "module.exports = Object.assign({}, {});\n"
    assert _decided(tmp_path / "code", {**files, "jest.config.js": code},
                    ["cp notes.js src/util.js"]) == "cp notes.js src/util.js"
    assert _decided(tmp_path / "json", files, ["cp notes.js src/util.js"]) is None


# --- R: the scripts a plan runs, a script word the gate does not expand ----------------------

#: The payload as a test node's runner runs: it touches ``zz`` in the folder npm started in.
NODE_PAYLOAD = "require('child_process').execSync('touch ' + process.env.INIT_CWD + '/zz')\n"


def test_r_a_script_the_plans_script_runs_by_name_is_read(tmp_path: Path) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``; ``test`` runs ``npm run unit``, ``unit`` runs
    node's test runner on ``../ext/`` (``../ext/test/o`` a link to ``../other``): the copy
    into ``../other`` is denied (the plan's scripts' closure is read)."""
    from bash_review import needs, proved_case

    needs("bash", "node", "npm")
    files = {"package.json": json.dumps({"name": "p", "scripts": {
        "test": "npm run unit", "unit": "node --test ../ext/", "lint": "eslint src ../shared"}}),
        "src/mk": NODE_PAYLOAD}
    setup = "mkdir -p ../ext/test ../other && ln -s ../../other ../ext/test/o"
    assert proved_case(tmp_path, ["Bash(npm test)", "Bash(cp *)"], files,
                       ["cp src/mk ../other/x.js", "npm test"],
                       setup=setup) == "cp src/mk ../other/x.js"


def test_r_every_script_is_read_where_the_plan_may_run_any(tmp_path: Path) -> None:
    """A sibling folder another script names (``eslint src ../shared``) stays writable under
    ``Bash(npm test)`` (C2); it is a runner's root again where the plan may run any script:
    an entry ``Bash(make test)`` (its recipe may run ``npm run lint``), or a ``test`` script
    running a program the gate does not read (``node tools/t.js``)."""
    def package(test: str) -> dict[str, str]:
        return {"package.json": json.dumps({"name": "p", "scripts": {
            "test": test, "lint": "eslint src ../shared"}}), "test/a.test.js": "0\n",
            "../shared/.keep": ""}

    write = ["cp notes.txt ../shared/notes.txt"]
    assert _decided(tmp_path / "a", package("node --test"), write) is None
    assert _decided(tmp_path / "b", package("node --test"), write, ("Bash(make test)",)) \
        == write[0]
    assert _decided(tmp_path / "c", package("node tools/t.js"), write) == write[0]


def test_r_a_scripts_expansion_refuses_a_collecting_plans_writes(tmp_path: Path) -> None:
    """COST R4 (pinned): a word holding a variable the gate does not spell
    (``$npm_package_version``) in a script the plan may run denies the collecting plan's
    writes (here: every script, the plan runs make); in a script the plan does not run
    (``Bash(npm test)`` alone) it does not. (Session 57, s56-sreview R: ``$INIT_CWD`` is
    npm's start folder, which may be below the package, and a script file's own variables
    (``run.sh``'s ``"$@"``) are read as a package.json script's: both deny them now.)"""
    def package(scripts: dict[str, str]) -> dict[str, str]:
        return {"package.json": json.dumps({"name": "p", "scripts": {
            "test": "node --test", **scripts}}), "test/a.test.js": "0\n"}

    version = package({"postversion": "git tag v$npm_package_version"})
    write = ["cp notes.txt notes2.txt"]
    assert _decided(tmp_path / "a", version, write, ("Bash(make test)",)) == write[0]
    assert _decided(tmp_path / "b", version, write) is None
    assert _decided(tmp_path / "c", {**package({"x": "cd $INIT_CWD && sh run.sh"}),
                                     "run.sh": 'node tools/x.js "$@"\n'}, write,
                    ("Bash(make test)",)) == write[0]
