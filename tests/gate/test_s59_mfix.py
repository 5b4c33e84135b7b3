"""Session 59 (s59-mfix): the programs a project's scripts run, read by allow-lists that
fail closed (issue 29; review s58-mreview S, J6c/J6d, JD): ``scriptcode._RUNS`` (the
programs a collecting package.json script may run, each with what it reads),
``jestargs._runs_named`` (jest present where a program the plan runs may run it),
``jestdocblocks.EVERY`` (a docblock not read exactly names every path)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillgrant.gate import jestargs, jestdocblocks
from skillgrant.gate.scriptcode import code_read


def _read(command: str, folder: str = "/p") -> None:
    """``code_read`` of a script's command (its words split at blanks, as testroots does)."""
    given = command.split()
    code_read(folder, given, [os.path.basename(w.rpartition("=")[2]) for w in given])


REFUSED = [
    "sqlite3 :memory: .read tools/x.sql", "gdb -batch -x tools/x.gdb", "timeout 60 ./gen",
    "gen", "java tools/Run.java", "make check", "cross-env A=1 timeout 5 ./gen",
    "nyc --silent ./gen", "mocha --require ./tools/r.js",
    "eslint -c .eslintrc.js .", "npx ./tools/pkg", "npx gen",
    "cp tools/r.txt node_modules/.bin/cat", "cross-env NODE_OPTIONS=--require=./x.cjs mocha",
    "mocha --package=tools/p.json", "nyc --nycrc-path=tools/n.json mocha", "tsc --outDir test",
    "ava --node-arguments=--require=./tools/x.cjs", "tools/x=echo",
    "npm run unit -- --test-reporter=./tools/r.mjs"]
READ = [
    "jest --config ci.json", "mocha -R spec", "mocha --reporter dot test/", "tap",
    "cross-env NODE_ENV=test mocha --timeout 5000", "nyc --silent tap", "c8 mocha",
    "npm run build", "tsc --noEmit -p tsconfig.json", "node --test", "rimraf dist",
    "echo done", "npx prettier --no-config --check .", "tsd", "bun test", "ava",
    "cross-env NODE_ENV=test TZ=UTC mocha", "nyc --reporter text mocha", "nyc -r lcov tap",
    "npm test -- --watch"]


def test_a_program_not_listed_or_loading_a_file_refuses() -> None:
    read = []
    for command in REFUSED:
        try:
            _read(command)
            read.append(command)
        except ValueError:
            pass
    assert not read


def test_a_listed_program_is_read() -> None:
    for command in READ:
        _read(command)


def test_a_runners_operand_outside_the_tests_refuses(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools/check.js").write_text("1\n")
    (tmp_path / "spec").mkdir()
    (tmp_path / "test").mkdir()
    for command in ("mocha tools/check.js", "mocha spec", "tape tests/*.js",
                    "mocha --recursive spec", "mocha ../x/t.js"):
        with pytest.raises(ValueError):
            _read(command, str(tmp_path))
    for command in ("mocha test/", "mocha lib/**/*.test.js", "mocha --timeout 5000 test",
                    "tap", "mocha -R spec"):
        _read(command, str(tmp_path))


@pytest.mark.parametrize(("name", "text", "command"), [
    (".mocharc.json", '{"require": ["./tools/pre.cjs"]}', "mocha"),
    (".prettierrc", '{"plugins": ["./tools/p.cjs"]}', "prettier --no-config --check ."),
    ("vitest.config.js", "export default {}", "vitest run"),
    ("package.json", '{"nyc": {"require": ["./tools/pre.cjs"]}}', "nyc mocha"),
    (".mocharc.json", '{"\\u0072": ["./tools/pre.cjs"]}', "mocha")])  # (an alias, escaped)
def test_settings_naming_code_refuse(tmp_path: Path, name: str, text: str,
                                     command: str) -> None:
    (tmp_path / name).write_text(text)
    with pytest.raises(ValueError):
        _read(command, str(tmp_path))
    (tmp_path / name).write_text('{"timeout": 5000}')
    if not name.endswith(".js"):
        _read(command, str(tmp_path))


def test_an_installed_packages_module_is_no_file(tmp_path: Path) -> None:
    (tmp_path / "node_modules/ts-node").mkdir(parents=True)
    _read("nyc --require ts-node/register tap", str(tmp_path))
    with pytest.raises(ValueError):
        _read("nyc --require dotenv/config tap", str(tmp_path))
    _read("mocha --require ts-node/register", str(tmp_path))  # (its name guarded: s60-mfix)
    (tmp_path / "ts-node").mkdir()
    with pytest.raises(ValueError):  # (mocha tries ./ts-node/register.js first: S19)
        _read("mocha --require ts-node/register", str(tmp_path))


def test_every_listed_program_says_what_it_reads() -> None:
    from skillgrant.gate.scriptcode import _RUNS

    assert all(isinstance(v, str) and v for v in _RUNS.values())


@pytest.mark.parametrize(("text", "present"), [
    ("#!/bin/sh\nJ=je; ${J}st --config ci.json\n", True),  # (words not plain)
    ("#!/bin/sh\nje''st --config ci.json\n", True),  # (quotes dropped)
    ("#!/usr/bin/env python3\nprint(1)\n", False),  # (another's: searched for the name)
    ("#!/bin/sh\necho ok\ncc -o t t.c\n", False)])
def test_a_file_a_program_runs_is_read_for_jest(tmp_path: Path, text: str,
                                                 present: bool) -> None:
    (tmp_path / "Makefile").write_text("test:\n\tsh scripts/run.sh\n")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts/run.sh").write_text(text)
    (tmp_path / "scripts/run.sh").chmod(0o755)
    assert jestargs._runs_named(str(tmp_path), None) is present


def test_a_link_to_jests_bin_is_jest(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("test:\n\ttools/runner\n")
    (tmp_path / "jest/bin").mkdir(parents=True)
    (tmp_path / "jest/bin/jest.js").write_text("1\n")
    (tmp_path / "p").mkdir()
    (tmp_path / "p/tools").mkdir()
    (tmp_path / "p/Makefile").write_text("test:\n\ttools/runner\n")
    (tmp_path / "p/tools/runner").symlink_to(tmp_path / "jest/bin/jest.js")
    assert jestargs._runs_named(str(tmp_path / "p"), None)


@pytest.mark.parametrize(("program", "present"), [(b"\x7fELF\0/opt/jest/bin", True),
                                                  (b"\x7fELF\0\tab*c d", False)])
def test_a_built_programs_bytes_are_searched(tmp_path: Path, program: bytes,
                                             present: bool) -> None:
    (tmp_path / "Makefile").write_text("test: t\n\t./t\nt: t.c\n\tcc -o t t.c\n")
    (tmp_path / "t").write_bytes(program)
    (tmp_path / "t").chmod(0o755)
    assert jestargs._runs_named(str(tmp_path), None) is present


def test_a_bare_named_script_a_shell_runs_is_read(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("test:\n\tsh runtests\n")
    (tmp_path / "runtests").write_text("J=x; $J\n")
    assert jestargs._runs_named(str(tmp_path), None)


@pytest.mark.parametrize("layout", ["cmake-subdirectory", "cd-then-script", "recipe-glob",
                                    "script-glob", "recipe-npm", "bin-sh", "make-shell",
                                    "node-script", "node-runs-a-shell", "make-f-glob"])
def test_a_runner_in_a_folder_a_build_moves_to(tmp_path: Path, layout: str) -> None:
    if layout == "cmake-subdirectory":
        (tmp_path / "CMakeLists.txt").write_text("add_subdirectory(web)\n")
        (tmp_path / "web").mkdir()
        (tmp_path / "web/CMakeLists.txt").write_text("execute_process(COMMAND /o/jest)\n")
    elif layout in ("bin-sh", "make-shell", "node-script"):
        run = {"bin-sh": "/bin/sh runtests", "make-shell": "$(SHELL) -- runtests",
               "node-script": "node runtests"}[layout]
        (tmp_path / "Makefile").write_text(f"test:\n\t{run}\n")
        (tmp_path / "runtests").write_text("execSync('/o/jest --config ci.json')\n")
    elif layout == "node-runs-a-shell":
        (tmp_path / "Makefile").write_text("test:\n\tnode scripts/test.js\n")
        (tmp_path / "scripts").mkdir()
        (tmp_path / "scripts/test.js").write_text("execSync('sh scripts/run.sh')\n")
        (tmp_path / "scripts/run.sh").write_text("/o/je''st --config ci.json\n")
    elif layout == "make-f-glob":
        (tmp_path / "Makefile").write_text("test:\n\t$(MAKE) -f ci.mk\n")
        (tmp_path / "ci.mk").write_text("all:\n\t/o/je*-29/bin/je*t --config c.json\n")
    elif layout == "recipe-npm":
        (tmp_path / "Makefile").write_text("test:\n\tcd web && npm test\n")
    elif layout == "recipe-glob":
        (tmp_path / "Makefile").write_text("test:\n\t/o/je*-29/bin/je*t --config c.json\n")
    elif layout == "script-glob":
        (tmp_path / "Makefile").write_text("test:\n\tsh scripts/t.sh\n")
        (tmp_path / "scripts").mkdir()
        (tmp_path / "scripts/t.sh").write_text("/o/je*-29/bin/je*t --config c.json\n")
    else:
        (tmp_path / "Makefile").write_text("test:\n\tcd ci && sh run.sh\n")
        (tmp_path / "ci").mkdir()
        (tmp_path / "ci/run.sh").write_text("/o/je''st --config ../ci.json\n")
    assert jestargs._runs_named(str(tmp_path), None)


def test_a_c_project_whose_folder_is_named_jest_is_not(tmp_path: Path) -> None:
    project = tmp_path / "jest-preset-acme"
    project.mkdir()
    (project / "Makefile").write_text("test:\n\tcc -o t t.c && ./t\n")
    (project / "t.c").write_text("int main(void) { return 0; }\n")
    assert not jestargs._runs_named(str(project), None)


@pytest.mark.parametrize(("head", "every"), [
    ("/**\n" + " * license\n" * 2000 + " * @jest-environment ./tools/s.txt\n */\n", False),
    ("/**\n * @jest-environment\n * ./tools/s.txt\n */\n", True),
    ("/**\n * @jest-environment <rootDir>/../tools/s.txt\n */\n", True)])
def test_a_docblock_not_read_exactly_names_every_path(tmp_path: Path, head: str,
                                                      every: bool) -> None:
    (tmp_path / "a.test.js").write_text(head + "test('a', () => {});\n")
    named = jestdocblocks.environments(str(tmp_path), [], ("",))
    assert named is not None and (named == jestdocblocks.EVERY) is every
    assert every or any(n.endswith("/tools/s.txt") for n in named)


@pytest.mark.slow
@pytest.mark.parametrize("entry", ["sh ci.sh", "./ci.sh"])
def test_the_plans_script_runs_a_runner_outside(tmp_path: Path, entry: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ci.sh runs a jest installed outside with
    ci.json's setup file; the copy over it is denied (s59-mreview J4)."""
    from test_s53_greview import _jest as installed
    from test_s56_sreview import JEST_TEST, JS_PAYLOAD, SETUP_JSON, _case

    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    jest = str(installed() / ".bin" / "jest")
    files = {"ci.sh": f"#!/bin/sh\n{jest} --config ci.json\n", "ci.json": SETUP_JSON,
             "lib/unit/a.test.js": JEST_TEST, "tools/s.js": "module.exports = {};\n",
             "src/js": JS_PAYLOAD}
    assert _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                 ["cp src/js tools/s.js", entry], setup="chmod +x ci.sh") is not None


def test_tsc_emitting_into_a_test_folder_refuses(tmp_path: Path) -> None:
    (tmp_path / "tsconfig.json").write_text('{"compilerOptions": {"outDir": "test"}}')
    with pytest.raises(ValueError):
        _read("tsc", str(tmp_path))
    (tmp_path / "tsconfig.json").write_text('{"compilerOptions": {"outDir": "dist"}}')
    _read("tsc", str(tmp_path))


def test_a_redirections_file_and_a_loose_glob_refuse(tmp_path: Path) -> None:
    import json

    from skillgrant.gate.scriptfolders import script_folders as _script_folders

    package = tmp_path / "package.json"
    for script in ("cat tools/t.js > test/t.test.js && node --test", "mocha 'tools/*.test.js*'"):
        package.write_text(json.dumps({"scripts": {"test": script}}))
        with pytest.raises(ValueError):
            _script_folders(str(tmp_path), str(package), 0, frozenset(("test",)))
    package.write_text(json.dumps({"scripts": {"test": "node --test 2>&1"}}))
    _script_folders(str(tmp_path), str(package), 0, frozenset(("test",)))
