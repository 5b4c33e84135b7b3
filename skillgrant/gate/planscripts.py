"""The package.json scripts a plan runs, and the words its entries give a test runner (issue
29, session 56; review s55-sreview C1, C2, s55-greview3 J2, J3).

``plan_programs`` keeps each shell entry's text, marked ``ENTRY`` (``Guarded.named``). A
collecting plan's runner roots (``testroots``) are read from the scripts the plan runs rather
than from every script of a ``package.json`` (a linter's ``eslint src ../shared``, a bundler's
``vite --base /`` beside ``"test": "node --test"``), where the gate can name them all
(``plan_scripts``): each entry's command is either an npm script's run (``npm test``, ``npm
run x``, ``yarn x``, ``pnpm x``, ``bun run x``) or one of a program that starts no other
(``_INERT``: ``cp``, ``mkdir``, ``cd``; not ``sed``, whose ``e`` runs one), and the scripts they run
(with their ``pre``/``post`` scripts) run only programs that start no other script
(``_CLOSED``) or another script by name (``script_closure``). Any other entry (``make``,
``npx jest``, ``node x.js``, a pattern) or script command (``sh run.sh``, ``node x.js``,
``npm-run-all``) may run any script: every script is read, as before."""

from __future__ import annotations

import os
import re

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The mark ``plan_programs`` writes before a shell entry's text (``deepnames.READS``).
ENTRY: Final = "@"
#: The programs that start no other, whatever their words (a plan's entry granting only
#: these and npm scripts' runs runs no script but those; not ``sort``: its
#: ``--compress-program``).
_INERT: Final = frozenset(("cd", "pushd", "popd", "cp", "mv", "mkdir", "rmdir", "rm", "ln",
                           "touch", "cat", "ls", "head", "tail", "wc", "chmod", "echo",
                           "printf", "pwd", "true", "false", "diff", "cmp", "grep", "tee",
                           "basename", "dirname", "realpath", "stat", "uniq"))
#: The programs a script may run that start no other script (test runners, checkers, the
#: shell's own words): a script running only these, or other scripts by name, is read alone.
_CLOSED: Final = frozenset(("jest", "vitest", "mocha", "ava", "tap", "tsc", "eslint",
                            "prettier", "stylelint", "echo", "true", "false", "exit", "cd",
                            "rm", "rimraf", "mkdir", "cp", "mv", "cat", "printf", "test"))
#: npm's commands running a script of their name (``npm test``), each with its name.
_NPM_OWN: Final = {"test": "test", "t": "test", "tst": "test", "start": "start",
                   "stop": "stop", "restart": "restart"}
#: npm's commands running the script named after them.
_NPM_RUN: Final = frozenset(("run", "run-script", "rum", "urn"))
#: yarn's, pnpm's commands that are no script's name (an install runs lifecycle scripts).
_OWN_COMMANDS: Final = frozenset(("install", "i", "add", "remove", "upgrade", "up", "update",
                                  "exec", "dlx", "x", "workspace", "workspaces", "create",
                                  "link", "unlink", "rebuild", "import", "pack", "publish",
                                  "version", "ci", "init", "why", "list", "ls", "outdated",
                                  "config", "set", "get", "info", "cache", "audit", "help"))
#: Where a text is cut into commands (the shell's operators).
_OPERATORS: Final = frozenset(("&&", "||", ";", "|", "&", "(", ")", "{", "}", "!", "|&",
                               ";;", "then", "do", "else", "elif", "fi", "done"))


def plan_entries(guards: object) -> list[str]:
    """The texts of the shell entries of the plan ``guards`` was made for."""
    return [n[1:] for n in getattr(guards, "named", ()) if n[:1] == ENTRY]


def commands(text: str) -> list[list[str]] | None:
    """The commands of the shell text ``text`` (each its words, quotes gone, assignments
    before it dropped); None where it cannot be read (an unclosed quote, a command's output,
    a here-document)."""
    import shlex

    if "`" in text or "$(" in text or "<<" in text:
        return None
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|()")
    lexer.whitespace_split = True
    found: list[list[str]] = [[]]
    try:
        for word in lexer:
            if word in _OPERATORS or word.strip(";&|()") == "":
                found.append([])
            elif found[-1] or not re.fullmatch(r"\w+=.*", word, re.DOTALL):
                found[-1].append(word)
    except ValueError:
        return None
    return [c for c in found if c]


def script_names(words: list[str]) -> list[str] | None:
    """The scripts the command ``words`` runs by name (``npm test``: ``pretest``, ``test``,
    ``posttest``); [] where it runs none (no npm, yarn, pnpm, bun run); None where it may run
    any (``npm install``'s lifecycle scripts, a pattern, ``yarn`` alone)."""
    name = os.path.basename(words[0])
    rest = [w for w in words[1:] if w[:1] != "-"]  # (`npm --prefix web test`: read after)
    if name not in ("npm", "yarn", "pnpm", "bun") or (name == "bun" and rest[:1] == ["test"]):
        return []  # (`bun test` is bun's runner)
    if not rest:
        return None
    first = rest[0]
    if name == "npm":
        script = _NPM_OWN.get(first) or (rest[1] if first in _NPM_RUN and rest[1:] else None)
    elif first == "run":
        script = rest[1] if rest[1:] else None
    else:
        script = None if first in _OWN_COMMANDS or name == "bun" else first
    if script is None or any(c in script for c in "*?[$`"):
        return None
    return [f"pre{script}", script, f"post{script}"]


def plan_scripts(guards: object) -> frozenset[str] | None:
    """The scripts the plan of ``guards`` runs by name (``script_names`` of its entries'
    commands); None where an entry may run any (see the module's text) or none is known."""
    entries = plan_entries(guards)
    if not entries:
        return None
    found: set[str] = set()
    for entry in entries:
        for words in commands(entry) or [["?"]]:
            names = script_names(words)
            if names is None or not (names or os.path.basename(words[0]) in _INERT):
                return None
            found.update(names)
    return frozenset(found)


def script_closure(scripts: dict[str, str], names: frozenset[str] | None) -> dict[str, str]:
    """Of the ``package.json`` ``scripts`` (name: text), those the plan's ``names`` run and
    the scripts they run by name, where each runs only ``_CLOSED`` programs or scripts by
    name; all of ``scripts`` where ``names`` is None or one runs another program."""
    if names is None:
        return scripts
    todo, found = list(names), {}
    while todo:
        name = todo.pop()
        if name in found or name not in scripts:
            continue
        found[name] = scripts[name]
        for words in commands(scripts[name]) or [["?"]]:
            named = script_names(words)
            program = os.path.basename(words[0])
            node_test = program in ("node", "nodejs") and "--test" in words
            if named is None or not (named or program in _CLOSED or node_test):
                return scripts
            todo += named
    return found


def runner_words(guards: object, runner: str) -> list[list[str]]:
    """The words the plan of ``guards`` gives the program ``runner`` (``jest``): after its
    name in an entry's command (``npx jest --config ci/jest.json``), and after the command's
    name of a script's run (``npm test -- --globalSetup=./s.js``, ``yarn test --env=./e.js``:
    the script's runner gets them; npm's own options too, read alike: wider)."""
    found = []
    for entry in plan_entries(guards):
        for words in commands(entry) or []:
            at = next((i for i, w in enumerate(words) if os.path.basename(w) == runner), None)
            found += [words[at + 1:]] if at is not None else [words[2:]] if script_names(
                words) else []
    return found
