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


def _read(command: str) -> None:
    """``code_read`` of a script's command (its words split at blanks, as testroots does)."""
    given = command.split()
    code_read("/p", given, [os.path.basename(w.rpartition("=")[2]) for w in given])


@pytest.mark.parametrize("command", [
    "sqlite3 :memory: .read tools/x.sql", "gdb -batch -x tools/x.gdb", "timeout 60 ./gen",
    "gen", "java tools/Run.java", "make check", "cross-env A=1 timeout 5 ./gen",
    "nyc --silent ./gen", "mocha --require ./tools/r.js", "mocha -r tools/r.js",
    "eslint -c .eslintrc.js .", "npx ./tools/pkg", "npx gen"])
def test_a_program_not_listed_or_loading_a_path_refuses(command: str) -> None:
    with pytest.raises(ValueError):
        _read(command)


@pytest.mark.parametrize("command", [
    "jest --config ci.json", "mocha -R spec", "mocha --reporter dot test/", "tap",
    "cross-env NODE_ENV=test mocha --timeout 5000", "nyc --silent tap", "c8 mocha",
    "npm run build", "tsc -p tsconfig.build.json", "node --test", "rimraf dist",
    "echo done", "npx prettier --check .", "tsd", "bun test", "ava"])
def test_a_listed_program_is_read(command: str) -> None:
    _read(command)


def test_every_listed_program_says_what_it_reads() -> None:
    from skillgrant.gate.scriptcode import _RUNS

    assert all(isinstance(v, str) and v for v in _RUNS.values())


@pytest.mark.parametrize(("text", "present"), [
    ("#!/bin/sh\nJ=je; ${J}st --config ci.json\n", True),  # (words not plain)
    ("#!/bin/sh\nje''st --config ci.json\n", True),  # (quotes dropped)
    ("#!/usr/bin/env python3\nprint(1)\n", False),  # (another's: searched for the name)
    ("#!/bin/sh\necho ok\ncc -o t t.c\n", False),
    ("\0ELF", True)])  # (an executable program: not read)
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
