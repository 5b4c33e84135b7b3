"""Session 57's fix (s57-sfix) of review s56-sreview's rows (issue 29): npm scripts and jest's
settings read failing closed. The readers' rules, each pinned on the spellings that make it
(the rows themselves are proved with the real programs in test_s56_sreview.py), and what the
rules keep allowed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from skillgrant.gate import jestargs, jestsettings, planscripts, scriptfolders

#: Script texts ``planscripts.commands`` reads, with the commands it reads.
READ = {
    "echo start\nnpm run unit": [["echo", "start"], ["npm", "run", "unit"]],
    "node --test .''./ext/": [["node", "--test", "../ext/"]],
    "jest 2>&1 | tee log": [["jest"], ["tee", "log"]],
    "NODE_ENV=test jest -c=ci.json": [["NODE_ENV=test", "jest", "-c=ci.json"]],
    "eslint 'src/**/*.{js,ts}'": [["eslint", "src/**/*.{js,ts}"]],
    'concurrently "npm run a" "npm run b"': [["concurrently", "npm run a", "npm run b"]],
}
#: Script texts it does not read (each may run anything).
UNREAD = ("echo build#1; npm run unit", "node --test ~root/x", "node --test $PWD/../ext",
          "node --test `pwd`/../ext", "echo /ext/ | sed s,^,..,| xargs node --test",
          "echo x | sh", "sh < run.sh", "(cd .. && jest)", "node --test {..,x}/ext",
          "node --test ..\\/ext", "a '$HOME'", "a |")


@pytest.mark.parametrize("text", list(READ))
def test_a_plain_script_is_read_as_the_shell_reads_it(text: str) -> None:
    assert planscripts.commands(text) == READ[text]


@pytest.mark.parametrize("text", UNREAD)
def test_a_script_holding_anything_else_is_not_read(text: str) -> None:
    assert planscripts.commands(text) is None


def test_npm_words_are_read_with_npm_options() -> None:
    """``--loglevel warn`` takes its value; ``restart`` runs stop and start; an option that
    may name another package raises."""
    names = planscripts.script_names
    assert names(["npm", "run", "--loglevel", "warn", "unit"]) == ["preunit", "unit", "postunit"]
    assert {"stop", "start", "restart"} <= set(names(["npm", "restart"]) or [])
    for words in (["npm", "test", "--workspaces"], ["npm", "run", "unit", "-w", "sub"],
                  ["npm", "run", "--prefix", "sub", "unit"], ["yarn", "--cwd", "sub", "x"]):
        with pytest.raises(planscripts.Elsewhere):
            names(words)
    assert names(["npm", "test", "--", "--workspaces"]) == ["pretest", "test", "posttest"]


def test_a_cd_before_a_scripts_run_raises() -> None:
    with pytest.raises(planscripts.Elsewhere):
        planscripts.script_closure({"test": "cd sub && npm run unit"}, frozenset({"test"}))
    assert planscripts.script_closure({"test": "npx jest", "lint": "eslint ../shared"},
                                      frozenset({"test"})) == {"test": "npx jest"}


#: A glob's folder: every match is below it.
GLOBS = {".?/ext/": "..", "../t*/x": "..", "src/*.js": "src", "src/.*": "src/..",
         "x/{..,y}/z": "x/..", "/a/b*/c": "/a", "*": "."}


def test_a_globs_folder_climbs_for_each_part_that_may_be_dot_dot() -> None:
    assert {g: scriptfolders.before_pattern(g) for g in GLOBS} == GLOBS


#: Words given to jest, and what its yargs makes of them.
YARGS = {
    ("-ic", "ci.json"): [("config", "ci.json")],
    ("--global-setup=./s.js",): [("globalSetup", "./s.js")],
    ("--setup-files", "./a.js", "./b.js"): [("setupFiles", "./a.js"), ("setupFiles", "./b.js")],
    ("--no-cache", "--filter", "./f.js", "t"): [("filter", "./f.js")],
    ("--coverage", "src"): [],
    ("--unknown-thing",): [(None, "")],
    ("-c./x.json",): [(None, "")],
}


@pytest.mark.parametrize("words", list(YARGS))
def test_jests_words_are_read_as_its_yargs_reads_them(words: tuple[str, ...]) -> None:
    assert jestargs.yargs(list(words)) == YARGS[words]


def _reading(tmp_path: Path, files: dict[str, str]) -> jestsettings._Reading:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    reading = jestsettings._Reading()
    jestsettings._folder(str(tmp_path), reading)
    return reading


def test_settings_read_otherwise_are_code(tmp_path: Path) -> None:
    """A rootDir above, a POSIX class, a package's preset that is code: code."""
    cases = [{"jest": {"rootDir": ".."}}, {"jest": {"testMatch": ["**/[[:alpha:]]*.js"]}},
             {"jest": {"preset": "pre"}}]
    for at, package in enumerate(cases):
        folder = tmp_path / str(at)
        reading = _reading(folder, {"package.json": json.dumps(package),
                                    "node_modules/pre/jest-preset.js": "module.exports={}"})
        assert reading.code or reading.anything, package  # (a preset's code: anything)
    plain = _reading(tmp_path / "plain", {"package.json": json.dumps({"jest": {"verbose": True}})})
    assert not plain.code and not plain.anything


def test_a_mappers_capture_and_the_cache_name_folders(tmp_path: Path) -> None:
    settings = {"moduleNameMapper": {"^@s/(.*)$": "<rootDir>/../shared/$1"},
                "cacheDirectory": "<rootDir>/.jc"}
    reading = _reading(tmp_path / "p", {"package.json": json.dumps({"jest": settings})})
    shared = str(tmp_path / "shared" / "util.js").lower()
    cached = str(tmp_path / "p" / ".jc" / "x" / "a").lower()
    assert all(any(p.search(k) for p in reading.patterns) for k in (shared, cached))


def test_a_quoted_pattern_is_no_refusal(tmp_path: Path) -> None:
    """``jest 'src/.*'``: a regex pattern jest is given, read as the folder ``src/..``."""
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {"test": "jest 'src/.*'"}}))
    found = scriptfolders.script_folders(str(tmp_path), str(tmp_path / "package.json"), 0,
                                         frozenset({"test"}))
    assert os.path.normpath(str(tmp_path)) in found


#: Scripts whose folder testroots refuses to read (ValueError: the collecting plan's writes
#: are refused), each with the project files it needs.
REFUSED = {
    "reserved-word-then-cd": ({"test": "if cd sub; then npm run unit; fi"}, {"sub/.keep": ""}),
    "wrapped-shell-script": ({"test": "nice sh run.sh"}, {"run.sh": "node --test $X/ext\n"}),
    "wrapped-node-script": ({"test": "cross-env A=1 node run.js"}, {"run.js": "1\n"}),
    "wrapped-xargs": ({"test": "echo ../ext | nice xargs node --test"}, {}),
    "npmrc-workspaces": ({"test": "node --test"}, {".npmrc": "workspaces=true\n"}),
    "init-cwd": ({"test": "node --test $INIT_CWD/../ext"}, {}),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_script_whose_folder_is_not_read_is_refused(tmp_path: Path, case: str) -> None:
    scripts, files = REFUSED[case]
    for name, text in {**files, "package.json": json.dumps({"scripts": scripts})}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    with pytest.raises(ValueError):
        scriptfolders.script_folders(str(tmp_path), str(tmp_path / "package.json"), 0,
                                     frozenset({"pretest", "test", "posttest"}))
