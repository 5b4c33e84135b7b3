"""Session 61 (s61-mfix): what a project's scripts run (issue 29): a shell script file a
script runs, read and guarded (``scriptfolders``: s57-sreview C4); tsc's build mode and the
settings files it reads, guarded (``tscsettings.emits_into_tests``: s60-mreview K5); mocha's
reporter options and its own names per option (``runneroptions``)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from skillgrant.gate.runneroptions import mocha_named, reporter_options
from skillgrant.gate.scriptfolders import script_folders
from skillgrant.gate.tscsettings import emits_into_tests

#: A shell script file's run: the script, the files, whether it is read (no ValueError).
_SHELL_RUNS: list[tuple[str, dict[str, str], bool]] = [
    ("sh scripts/test.sh", {"scripts/test.sh": "node --test\n"}, True),
    ("bash -e -o pipefail scripts/test.sh", {"scripts/test.sh": "node --test\n"}, True),
    ("./scripts/test.sh", {"scripts/test.sh": "#!/bin/sh\nnode --test\n"}, True),
    ("sh t.sh && node --test", {}, True),  # (not there yet: guarded)
    ("sh -c 'node --test'", {}, False),  # (sh is no program of scriptcode._RUNS)
    ("sh -i scripts/test.sh", {"scripts/test.sh": "node --test\n"}, False),
    ("sh scripts/test.sh", {"scripts/test.sh": "sh other.sh\n", "other.sh": ""}, False),
    ("sh scripts/test.sh", {"scripts/test.sh": "node run.js\n", "run.js": ""}, False),
    ("./scripts/test.sh", {"scripts/test.sh": "#!/usr/bin/env node\n1\n"}, False),
    ("sh ../up.sh", {}, False),
    ("nice sh scripts/test.sh", {"scripts/test.sh": "node --test\n"}, False),
    ("sh scripts/test.sh", {"scripts/test.sh": "set -euo pipefail\nnode --test\n"}, True),
    ("./scripts/test.sh", {"scripts/test.sh": "#!/bin/sh -e\nnode --test\n"}, True),
    ("sh scripts/test.sh", {"scripts/test.sh": "set -k\nnode --test\n"}, False)]


def test_a_shell_script_files_run(tmp_path: Path) -> None:
    for case, (script, files, read) in enumerate(_SHELL_RUNS):
        _a_shell_script_files_run(tmp_path / str(case), script, files, read)


def _a_shell_script_files_run(tmp_path: Path, script: str, files: dict[str, str],
                              read: bool) -> None:
    project = tmp_path / "p"
    for name, text in {**files, "package.json": json.dumps({"scripts": {"test": script}})
                       }.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    ran: list[str] = []
    if not read:
        with pytest.raises(ValueError):
            script_folders(str(project), str(project / "package.json"), 0, None, ran)
        return
    script_folders(str(project), str(project / "package.json"), 0, None, ran)
    first = script.split()[-1 if script[:1] != "." else 0].removeprefix("./").split("/")[0]
    assert os.path.join(os.path.realpath(project), first) in ran or script.startswith("sh t")


def _tsc(tmp_path: Path, files: dict[str, object], words: str) -> tuple[bool, list[str]]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    for name, value in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(value if isinstance(value, str) else json.dumps(value))
    read: list[str] = []
    return emits_into_tests(str(tmp_path), words.split(), read), read


_DIST = {"compilerOptions": {"outDir": "dist", "composite": True}}
_SOLUTION = {"files": [], "references": [{"path": "./packages/a"},
                                         {"path": "./packages/b/tsconfig.build.json"}]}
#: tsc's words and settings files: whether it may emit where a runner runs it.
_WHERE_TSC_EMITS: list[tuple[dict[str, object], str, bool]] = [
    ({"tsconfig.json": _DIST}, "-b", False),
    ({"tsconfig.json": _DIST}, "--build --verbose --force", False),
    ({"tsconfig.json": _DIST}, "-b --generateCpuProfile x", True),
    ({"tsconfig.json": _SOLUTION, "packages/a/tsconfig.json": _DIST,
      "packages/b/tsconfig.build.json": _DIST}, "-b", False),
    ({"tsconfig.json": _SOLUTION, "packages/a/tsconfig.json": _DIST,
      "packages/b/tsconfig.build.json": {"compilerOptions": {"outDir": "../../test"}}}, "-b",
     True),
    ({"tsconfig.json": _SOLUTION, "packages/a/tsconfig.json": {"compilerOptions": {}},
      "packages/b/tsconfig.build.json": _DIST}, "-b", True),  # (X.js beside X.ts: M5)
    ({"tsconfig.json": _SOLUTION, "packages/a/tsconfig.json": _DIST}, "-b", False),  # (b: none)
    ({"tsconfig.json": {"references": [{"path": "."}], **_DIST}}, "-b", False),  # (a cycle)
    ({"tsconfig.build.json": _DIST}, "-p tsconfig.build.json", False),
    ({"tsconfig.json": {"compilerOptions": {"outDir": ".", "rootDir": "src"}}}, "", True),
    ({"tsconfig.json": {"compilerOptions": {"outDir": "node_modules/chai"}}}, "", True),
    ({"tsconfig.json": {"compilerOptions": {"outDir": ".claude"}}}, "", True),
    ({"tsconfig.json": {"compilerOptions": {"outDir": "./build/./out"}}}, "", False),
    ({"tsconfig.json": {"compilerOptions": {"outFile": "bundle.js"}}}, "", True),
    ({"tsconfig.json": _DIST}, "src/nyc.config.ts", True),
    ({"tsconfig.json": _DIST}, "--target es2022 --pretty false", False),
    ({"tsconfig.json": '{"compilerOptions": {"outDir": "dist",}, // tsc --init\n}'}, "", False),
    ({"tsconfig.json": '{"compilerOptions": {/* "outDir": "dist" */}}'}, "", True),
    ({"tsconfig.json": {"extends": "./configs/base"},
      "configs/base.json": {"compilerOptions": {"outDir": "../dist"}}}, "", False),
    ({"tsconfig.json": {"extends": "./configs/base.json", "compilerOptions": {"outDir": "test"}},
      "configs/base.json": {"compilerOptions": {"outDir": "../dist"}}}, "", True),
    ({"tsconfig.json": {"extends": "@tsconfig/node20/tsconfig.json", **_DIST}}, "", True),
    ({"tsconfig.json": {"compilerOptions": {"outFile": "src/all.test.js"}}}, "", True),
    ({"tsconfig.json": {"compilerOptions": {"outDir": "${configDir}"}}}, "", True),  # M8
    ({"tsconfig.json": {"extends": "@tsconfig/node20/tsconfig.json", **_DIST},
      "node_modules/@tsconfig/node20/tsconfig.json": {"compilerOptions": {"strict": True}}},
     "", False),  # (K4b)
    ({"tsconfig.json": {"extends": "@tsconfig/node18", **_DIST}}, "", True)]  # (none there)


def test_where_tsc_emits(tmp_path: Path) -> None:
    found = {k: _tsc(tmp_path / str(k), files, words)[0]
             for k, (files, words, _) in enumerate(_WHERE_TSC_EMITS)}
    assert found == {k: emits for k, (_, _, emits) in enumerate(_WHERE_TSC_EMITS)}


def test_the_settings_tsc_reads_are_guarded_with_their_folders(tmp_path: Path) -> None:
    """Each settings file a build reads, there or not, and each folder above it exactly."""
    (tmp_path / "p").mkdir()
    emits, read = _tsc(tmp_path / "p", {"tsconfig.json": _SOLUTION,
                                        "packages/a/tsconfig.json": _DIST}, "-b")
    real = os.path.realpath(tmp_path / "p")
    assert not emits and {f"{real}/packages/b/tsconfig.build.json", f"{real}/tsconfig.json",
                          f"\x01{real}/packages/b", f"\x01{real}/packages"} <= set(read)
    assert f"{real}/packages" not in read  # (what else the folder holds is not guarded)
    assert f"\x01{real}" not in read and f"\x01{os.path.dirname(real)}" not in read  # (K10)


def test_tsc_finds_its_settings_from_the_folder_up(tmp_path: Path) -> None:
    """tsc's findConfigFile: a run folder of no tsconfig.json takes the first one up (its
    outDir then lies above the run folder: refused), and guards the missing one below."""
    (tmp_path / "tsconfig.json").write_text(json.dumps(_DIST))
    (tmp_path / "p").mkdir()
    read: list[str] = []
    emits = emits_into_tests(str(tmp_path / "p"), [], [])
    assert emits
    emits_into_tests(str(tmp_path / "p"), [], read)
    assert os.path.join(os.path.realpath(tmp_path / "p"), "tsconfig.json") in read


_REPORTER_OPTIONS = {"--reporter mocha-junit-reporter --reporter-options mochaFile=./o.xml": True,
                     "-R xunit -O output=out/x.xml": True, "-O a=b": True,
                     "--reporter mocha-multi-reporters -O configFile=./c.js": False,
                     "--reporter=./tools/r.cjs --reporter-option x=y": False,
                     "--reporter mocha-multi-reporters": True}


def test_mochas_reporter_options(tmp_path: Path) -> None:
    for words, read in _REPORTER_OPTIONS.items():
        if read:
            reporter_options(str(tmp_path), words.split())
        else:
            with pytest.raises(ValueError):
                reporter_options(str(tmp_path), words.split())


_OPTION_VALUES = {"vitest run --environment node": True, "vitest run --environment semver": False,
                  "tap --coverage-report=text": True, "tap --coverage-report=/t/rep.cjs": False,
                  "nyc --include src --extension .ts mocha": True, "nyc -i ./x.js mocha": False,
                  "c8 -n src mocha --extension ./x.js": False,
                  "mocha tools/check.js": False}  # (not there yet: the session may write it)


def test_option_values_read_by_their_names(tmp_path: Path) -> None:
    """runneroptions.NAMED refuses any value but a built-in (tap's istanbul reporters,
    vitest's environments: s61-mreview M3, M6); nyc's, c8's coverage globs are data (K6)."""
    from skillgrant.gate.scriptcode import code_read

    found = {}
    for command in _OPTION_VALUES:
        given = command.split()
        try:
            code_read(str(tmp_path), given, [os.path.basename(w.rpartition("=")[2])
                                             for w in given])
            found[command] = True
        except ValueError:
            found[command] = False
    assert found == _OPTION_VALUES


_MOCHARCS = {"reporter": ("dot", True), "ui": ("tdd", True), "extension": (["js", "ts"], True),
             "spec": (["test/**/*.spec.js", "src/**/*.test.js"], True)}
_MOCHARCS_NOT = [{"reporter": "bdd"}, {"ui": "dot"}, {"extension": ["txt"]},
                 {"spec": ["lib/*.js"]}, {"spec": ["tools/check.js"]}, {"require": "x"}]


def test_mocharc_keys_read_as_the_options_are(tmp_path: Path) -> None:
    """s61-mreview K9: .mocharc's reporter/ui (mocha's own names), extension (node's
    endings), spec (read as its operands) are data; any other value refuses."""
    from skillgrant.gate.runnersettings import settings

    (tmp_path / ".mocharc.json").write_text(json.dumps({k: v for k, (v, _) in
                                                         _MOCHARCS.items()}))
    settings(str(tmp_path), "mocha")
    for rc in _MOCHARCS_NOT:
        (tmp_path / ".mocharc.json").write_text(json.dumps(rc))
        with pytest.raises(ValueError):
            settings(str(tmp_path), "mocha")
    (tmp_path / ".nycrc.json").write_text(json.dumps({"reporter": ["lcov", "text"]}))
    settings(str(tmp_path), "nyc")  # (istanbul's own reporters: K12)
    (tmp_path / ".nycrc.json").write_text(json.dumps({"reporter": ["./r.cjs"]}))
    with pytest.raises(ValueError):
        settings(str(tmp_path), "nyc")


def test_a_shell_files_words_are_read_for_names_tried_first(tmp_path: Path) -> None:
    """s61-mreview M5: ava in a shell file a script runs guards its default folders."""
    from skillgrant.gate.scriptfirsts import first_names

    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts/test.sh").write_text("ava\nmocha -r setup\n")
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {
        "test": "sh scripts/test.sh", "lint": "mocha -R tap"}}))
    top = os.path.realpath(tmp_path).lower()
    assert set(first_names(str(tmp_path))) == {"\0" + top, top + "/setup"}
    (tmp_path / "scripts/test.sh").write_text("mocha\n")
    assert first_names(str(tmp_path)) == []  # (`-R tap`: a reporter's name, no tap run)
    (tmp_path / "scripts/test.sh").write_text("ava\n")
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {
        "test": "NODE_ENV=test sh scripts/test.sh"}}))
    assert first_names(str(tmp_path)) == ["\0" + top]  # (past the assignment: M5b)


def test_mochas_own_names_per_option() -> None:
    """mocha's validateLegacyPlugin: a reporter is looked up in Mocha.reporters, an interface
    in Mocha.interfaces, then as a file (``--reporter bdd``: ./bdd.js)."""
    assert "bdd" not in mocha_named("--reporter") and "bdd" in mocha_named("-u")
    assert "dot" in mocha_named("-R") and "dot" not in mocha_named("--ui")
    assert not mocha_named("--require")


#: Each case: the ``test`` script, its files, the calls before ``npm test`` (the hook must
#: deny one; real bash runs the payload with them all). (Also proved and denied by hand:
#: ``tsc -p tsconfig.build.json`` with that file replaced, ``mocha --ui dot`` + ``dot.js``.)
HOOK_CASES = {
    "a-shell-script-file-copied-over": ("sh scripts/test.sh", {
        "scripts/test.sh": "node --test\n"}, ["cp src/mk.sh scripts/test.sh"]),
    "a-shell-scripts-folder-linked-over": ("./scripts/test.sh", {
        "scripts/test.sh": "#!/bin/sh\nnode --test\n", "other/test.sh": "sh src/mk.sh\n"},
        ["rm -rf scripts", "ln -s other scripts"]),
    "tsc-build-reference-replaced": ("tsc -b && mocha", {
        "tsconfig.json": json.dumps({"files": [], "references": [
            {"path": "./packages/a/tsconfig.build.json"}]}),
        "packages/a/tsconfig.build.json": json.dumps({"compilerOptions": {
            "outDir": "dist", "rootDir": "src", "module": "commonjs"}, "include": ["src"]}),
        "src/t.json": json.dumps({"compilerOptions": {"outDir": "../../test", "rootDir": "src",
                                                      "module": "commonjs"},
                                  "include": ["src"]})},
        ["mkdir -p packages/a/src", "cp src/mk packages/a/src/evil.ts",
         "cp src/t.json packages/a/tsconfig.build.json"]),
    "tsc-out-folder-the-run-folder": ("tsc && nyc mocha", {"tsconfig.json": json.dumps({
        "compilerOptions": {"outDir": ".", "rootDir": "src", "module": "commonjs"},
        "include": ["src"], "exclude": ["node_modules"]}), "src/a.ts": "export const a = 1;\n"},
        ["cp src/mk src/nyc.config.ts"]),
    "mocha-reporter-named-as-an-interface": ("mocha --reporter bdd", {}, ["cp src/mk bdd.js"]),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(HOOK_CASES))
def test_under_the_hook(tmp_path: Path, case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from test_s56_sreview import NODE_PAYLOAD, _case
    from test_s59_mreview import SPEC, _runners

    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    script, files, calls = HOOK_CASES[case]
    files = {"package.json": json.dumps({"name": "p", "scripts": {"test": script}}),
             "src/mk": NODE_PAYLOAD, "src/mk.sh": "touch zz\n", **SPEC, **files}
    setup = "chmod +x scripts/test.sh other/test.sh 2>/dev/null; true"
    denied = _case(tmp_path, ["Bash(npm test)", "Bash(cp *)", "Bash(mkdir *)", "Bash(ln *)",
                              "Bash(rm *)"], files, [*calls, "npm test"],
                   links={"node_modules": str(_runners())}, setup=setup)
    assert denied is not None and denied != "npm test", denied


#: Everyday calls under such plans: allowed.
COSTS = {
    "tsc-build-a-solution": ("tsc -b && mocha", {
        "tsconfig.json": json.dumps({"files": [], "references": [{"path": "./packages/a"}]}),
        "packages/a/tsconfig.json": json.dumps({"compilerOptions": {
            "outDir": "dist", "composite": True}})},
        ["cp notes.txt packages/a/notes.txt", "cp notes.txt out/n.txt"]),
    "a-shell-script-beside-its-folder": ("sh scripts/test.sh", {
        "scripts/test.sh": "node --test\n"}, ["cp notes.txt out/n.txt", "mkdir -p build"]),
    "mocha-junit-reporter-options": ("mocha --reporter mocha-junit-reporter -O mochaFile=o.xml",
                                     {}, ["cp notes.txt out/n.txt"]),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(COSTS))
def test_an_everyday_call_stays_allowed(tmp_path: Path, case: str) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from bash_review import first_denied, home_env, hooked_project
    from test_s59_mreview import SPEC, _runners

    script, files, calls = COSTS[case]
    project = hooked_project(tmp_path, ["Bash(npm test)", "Bash(cp *)", "Bash(mkdir *)"])
    files = {"package.json": json.dumps({"name": "p", "scripts": {"test": script}}),
             "notes.txt": "n\n", "out/.keep": "", **SPEC, **files}
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    (project / "node_modules").symlink_to(_runners())
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    assert first_denied(project, calls, env) is None
