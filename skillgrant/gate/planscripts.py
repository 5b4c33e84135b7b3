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
``npm-run-all``) may run any script: every script is read, as before.

A script's text is read as dash and bash read it only where every word is a literal or a
glob and its operators are a list's, an output redirection and a pipe into a program that
makes no command of its input (``commands``: not with ``shlex``; s56-sreview R); anything
else may run anything. npm's words are read with its options (``--loglevel warn``), its
``restart`` running ``stop`` and ``start``; an option not read here, a script run after a
``cd``, and npm's default ``start`` raise ``Elsewhere`` (another package's scripts, or a
file's code, run: the collecting plan's writes are refused)."""

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
NPM_OWN: Final = {"test": "test", "t": "test", "tst": "test", "start": "start",
                   "stop": "stop", "restart": "restart"}
#: npm's commands running the script named after them.
NPM_RUN: Final = frozenset(("run", "run-script", "rum", "urn"))
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


class Elsewhere(ValueError):
    """A script or entry runs another package's scripts (``cd sub && npm run x``, ``npm run
    x --prefix sub``, ``-w sub``, ``--workspaces``) or npm's default ``node server.js``, or
    gives npm an option the gate does not know: the scripts run are not read (s56-sreview)."""


#: A word's parts dash and bash read as themselves (R: a script's words are read only where
#: each is one; s56-sreview): outside quotes, no expansion, ``~``, comment, brace, backslash
#: (a glob's ``*?[]`` is read by ``_dotted``); inside quotes, no expansion, quote, operator.
_BARE: Final = re.compile(r"[A-Za-z0-9_./:@%+,=^*?\[\]-]*")
_QUOTED: Final = re.compile(r"[A-Za-z0-9_./:@%+,=^*?\[\]{}! -]*")
#: The tokens of such a text: blanks, a list's or a pipeline's operator, an output
#: redirection (``2>&1``, ``>> log``), a word (its quotes' parts); anything else (``<``,
#: ``(``) is not read.
_TOKEN: Final = re.compile(r"[ \t]+|(&&|\|\||[0-9]?>>?(?:&[0-9])?|[;&|\n])|"
                           r"((?:[^ \t;&|<>()\n'\"]|'[^']*'|\"[^\"]*\")+)")
_PART: Final = re.compile(r"'([^']*)'|\"([^\"]*)\"|([^'\"]+)")
#: The programs a pipeline may feed that make no command of their input (a pipe into
#: ``xargs`` or ``sh`` is not read).
_PIPED: Final = frozenset(("tee", "tail", "head", "grep", "cat", "wc", "sort", "uniq",
                           "tap-spec", "tap-dot", "faucet", "tap-min", "tap-summary",
                           "tap-mocha-reporter", "coveralls"))
#: A word assigning a variable before a command's program.
_ASSIGNS: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def commands(text: str, entry: bool = False) -> list[list[str]] | None:
    """The simple commands of the shell text ``text`` (each its words, quotes removed, the
    assignments before its program among them), read as dash and bash read it only where
    every word is a literal (``_BARE``, ``_QUOTED``) or a glob (its matches:
    ``scriptfolders.before_pattern``) and the text holds no operators but ``&&``, ``||``, ``;``,
    ``&``, a line break, an output redirection and a pipe into a program of ``_PIPED``; None
    for anything else (``$``, a backquote, ``~``, ``#``, ``\\``, ``{}`` unquoted, ``<``, a
    subshell, a pipe into ``xargs``): the text may run anything. (A plan ``entry``'s ``*``
    is its pattern: no glob.)"""
    found: list[list[str]] = [[]]
    at, piped = 0, False
    while at < len(text):
        match = _TOKEN.match(text, at)
        if match is None:
            return None
        at = match.end()
        operator, token = match.groups()
        if token is not None:
            value = _value(token, entry)
            if value is None:
                return None
            if piped and not found[-1]:
                if os.path.basename(value) not in _PIPED:
                    return None
                piped = False
            found[-1].append(value)
        elif operator is not None and operator[-1:] not in (">", "1", "2") and found[-1]:
            piped = operator == "|"
            found.append([])
        elif operator is not None and operator[-1:] not in (">", "1", "2"):
            return None  # (an operator with no command before it: `; x`, `| x`)
    return [c for c in found if c] if not piped else None


def _value(token: str, entry: bool) -> str | None:
    """The word the shell token ``token`` is (its quotes removed), where it is read as
    ``commands`` reads words; None otherwise. (A glob's matches: ``testroots``.)"""
    value = []
    for quoted, doubled, bare in _PART.findall(token):
        part = bare or quoted or doubled
        if not (_BARE if bare or entry else _QUOTED).fullmatch(part):
            return None
        value.append(part)
    return "".join(value)


def program_at(words: list[str]) -> int:
    """The place of the program in a command's ``words`` (past the assignments and reserved
    words before it: ``if cd sub``)."""
    at = 0
    while at < len(words) and (_ASSIGNS.match(words[at]) or words[at] in _RESERVED):
        at += 1
    return at


#: The shell's reserved words a command's program may follow.
_RESERVED: Final = frozenset(("if", "then", "elif", "else", "while", "until", "do", "time"))


#: npm's options before ``--`` that take no value and change no package (read past).
_NPM_FLAGS: Final = frozenset(("--silent", "-s", "--quiet", "-q", "--verbose", "-d", "-dd",
                               "-ddd", "--if-present", "--ignore-scripts", "--json",
                               "--foreground-scripts", "--color", "--no-color", "-y", "--yes"))
#: npm's options taking the next word as a value that changes no package.
_NPM_VALUED: Final = frozenset(("--loglevel",))


def _operands(name: str, words: list[str]) -> list[str]:
    """The words of the runner ``name``'s command ``words`` that are no option of its (npm's
    before ``--``; yarn's, pnpm's, bun's before the script's name). Raises ``Elsewhere`` for
    an option not read here."""
    rest: list[str] = []
    at = 1
    while at < len(words):
        word = words[at]
        at += 1
        if word == "--" and name == "npm":
            break
        if word[:1] != "-" or (rest and name != "npm"):  # (yarn's, pnpm's: the script's)
            rest.append(word)
        elif word in _NPM_VALUED and name == "npm":
            at += 1
        elif not (word in _NPM_FLAGS or word.startswith(("--loglevel=", "--color="))):
            raise Elsewhere(f"{' '.join(words)!r} gives {name} the option {word!r}, read by "
                            "the gate as running another package's scripts")
    return rest


def script_names(words: list[str]) -> list[str] | None:
    """The scripts the command ``words`` runs by name (``npm test``: ``pretest``, ``test``,
    ``posttest``; ``npm restart``: ``restart``'s, ``stop``'s and ``start``'s); [] where it runs
    none (no npm, yarn, pnpm, bun run); None where it may run any (``npm install``'s
    lifecycle scripts, a pattern, ``yarn`` alone). Raises ``Elsewhere`` where it runs another
    package's scripts or gives npm an option not read here (``--prefix sub``, ``-w sub``,
    ``--workspaces``; yarn's, pnpm's, bun's options before the name)."""
    words = words[program_at(words):]
    if not words:
        return []
    name = os.path.basename(words[0])
    if name not in ("npm", "yarn", "pnpm", "bun") or (name == "bun" and words[1:2] == ["test"]):
        return []  # (`bun test` is bun's runner)
    rest = _operands(name, words)
    if not rest:
        return None
    first = rest[0]
    if name == "npm":
        script = NPM_OWN.get(first) or (rest[1] if first in NPM_RUN and rest[1:] else None)
    elif first == "run":
        script = rest[1] if rest[1:] else None
    else:
        script = None if first in _OWN_COMMANDS or name == "bun" else first
    if script is None or any(c in script for c in "*?[$`"):
        return None
    names = [f"pre{script}", script, f"post{script}"]
    return names + (script_names([words[0], "stop"]) or []) + (script_names(
        [words[0], "start"]) or []) if script == "restart" else names


#: The programs of a plan's entry that run no script, with some subcommand only (``git``'s
#: reading ones: its hooks run at a commit, a checkout).
_INERT_SUBCOMMANDS: Final = {"git": frozenset(("status", "diff", "log", "show", "blame",
                                                "rev-parse", "ls-files", "grep",
                                                "describe", "shortlog"))}


def _inert(words: list[str]) -> bool:
    """Whether the entry's command ``words`` runs a program that starts no other."""
    words = words[program_at(words):]
    name = os.path.basename(words[0]) if words else ""
    return name in _INERT or (words[1:2] != [] and words[1] in _INERT_SUBCOMMANDS.get(
        name, ()))


def plan_scripts(guards: object, runner: str = "") -> frozenset[str] | None:
    """The scripts the plan of ``guards`` runs by name (``script_names`` of its entries'
    commands); None where an entry may run any (see the module's text) or none is known (an
    entry running the program ``runner`` itself, ``npx jest``, runs none). Raises
    ``Elsewhere`` where an entry runs another package's scripts."""
    entries = plan_entries(guards)
    if not entries:
        return None
    found: set[str] = set()
    for entry in entries:
        for words in commands(entry, True) or [["?"]]:
            names = script_names(words)
            if names is None or not (names or _inert(words) or (runner and _direct(
                    words[program_at(words):], runner))):
                return None
            found.update(names)
    return frozenset(found)


def _direct(words: list[str], runner: str) -> bool:
    """Whether the command ``words`` runs the program ``runner`` (``jest``, ``npx jest``)."""
    if words[:1] and os.path.basename(words[0]) == "npx":
        words = [w for w in words[1:] if w not in _NPX_FLAGS]
    return words[:1] != [] and os.path.basename(words[0]) == runner


def seen(text: str) -> bool:
    """Whether each command of the script ``text`` runs a ``_CLOSED`` program or a script by
    name (``script_closure``'s reading). Raises ``Elsewhere`` as ``script_names``."""
    read = commands(text)
    return read is not None and all(script_names(w) or _closed(w) for w in read)


def _closed(words: list[str]) -> bool:
    """Whether the command ``words`` runs a ``_CLOSED`` program (past the assignments before
    it; through ``npx``; node's test runner)."""
    words = words[program_at(words):] or ["true"]
    program = os.path.basename(words[0])
    if program in _COVERAGE:  # (`c8 node --test`, `nyc --silent jest`: the program after
        at = next((i for i, w in enumerate(words) if i and w[:1] != "-"), None)  # its flags)
        return at is not None and _closed(words[at:])
    return program in _CLOSED or _npx_closed(words) or (
        program in ("node", "nodejs") and "--test" in words)


#: Programs running the command after their flags (coverage's), read through.
_COVERAGE: Final = frozenset(("c8", "nyc"))


def script_closure(scripts: dict[str, str], names: frozenset[str] | None,
                   folder: str | None = None) -> dict[str, str]:
    """Of the ``package.json`` ``scripts`` (name: text) of ``folder``, those the plan's
    ``names`` run and the scripts they run by name, where each runs only ``_CLOSED``
    programs (``npx`` running one too), a shell script file of ``folder`` running only
    those (``sh scripts/test.sh``: ``_file_closed``; s61-mreview K11) or scripts by name;
    all of ``scripts`` where ``names`` is None or one runs another program or is not read
    (``commands``). Raises ``Elsewhere`` where one runs another package's scripts (after a
    ``cd``: s56-sreview), or npm's ``start`` runs its default ``node server.js``."""
    if names is None:
        return scripts
    if "start" in names and "start" not in scripts:
        raise Elsewhere("npm start runs node server.js where no start script is given")
    todo, found = list(names), {}
    while todo:
        name = todo.pop()
        if name in found or name not in scripts:
            continue
        found[name] = scripts[name]
        moved = False
        for words in commands(scripts[name]) or [["?"]]:
            named = script_names(words)
            if named != [] and moved:
                raise Elsewhere(f"the script {name!r} runs scripts after a cd")
            moved |= os.path.basename((words[program_at(words):] or [""])[0]) in (
                "cd", "pushd", "popd")
            if named is None or not (named or _closed(words) or (
                    not moved and _file_closed(words, folder))):
                return scripts
            todo += named
            if "start" in named and "start" not in scripts:
                raise Elsewhere("npm start runs node server.js where no start script is given")
    return found


def shell_file(words: list[str]) -> str | None:
    """The shell script file the command ``words`` (from its program on) runs: a shell's
    first operand (``sh scripts/test.sh``, ``bash -e t.sh``), a path as the program
    (``./run.sh``); None where it runs none."""
    if words[:1] and os.path.basename(words[0]) in ("sh", "bash", "dash"):
        return next((w for w in words[1:] if w[:1] != "-"), None)
    return words[0] if words[:1] and "/" in words[0] else None


def _file_closed(words: list[str], folder: str | None) -> bool:
    """Whether the command ``words`` runs a shell script file of ``folder`` (``shell_file``;
    a ``#!`` naming a shell only: ``SHEBANG``) whose commands (its lines but comments', as
    ``scriptfolders`` reads them) each run a ``_CLOSED`` program: no script by name, no
    other file."""
    named = shell_file(words[program_at(words):])
    if folder is None or named is None:
        return False
    from . import files as fs

    text = fs.text(os.path.join(folder, named), 1 << 20)
    read = commands("\n".join(n for n in text.splitlines() if n.lstrip()[:1] != "#")) if (
        text is not None and "\0" not in text and SHEBANG.match(text)) else None
    return read is not None and all(_closed(w) or (w[:1] == ["set"] and shell_options(
        w, 1) == len(w)) for w in read)  # (`set -e`, `set -euo pipefail`: s62-mreview K-R11)


def shell_options(given: list[str], k: int) -> int | None:
    """The index in ``given`` after the shell options of ``SHELL_FLAGS`` from ``k`` (``-e``,
    ``-eux``, ``-o pipefail``; a ``--`` after them); None at any other option."""
    while k < len(given) and given[k][:1] in ("-", "+") and given[k] != "--":
        if given[k][-1:] == "o" and set(given[k][1:-1]) <= SHELL_FLAGS and given[
                k + 1:k + 2] and given[k + 1] in SHELL_SETS:  # (`-o pipefail`, `-euo …`)
            k += 2
        elif len(given[k]) > 1 and set(given[k][1:]) <= SHELL_FLAGS:
            k += 1
        else:
            return None
    return k + 1 if given[k:k + 1] == ["--"] else k


#: The letters of a shell's options read (before its script, after ``set``: ``-e``, ``-eux``;
#: none naming a file or a text) and the names ``-o`` sets.
SHELL_FLAGS: Final = frozenset("aefnuvxC")
SHELL_SETS: Final = frozenset(("errexit", "nounset", "xtrace", "verbose", "pipefail",
                               "noclobber", "noglob", "allexport", "noexec"))
#: A script file's first line read: none naming a program (``#!``) but a shell's.
SHEBANG: Final = re.compile(r"(?!#!)|#![ \t]*/(?:usr/)?bin/(?:env[ \t]+)?(?:ba|da)?sh"
                            r"(?:[ \t]+-[eux]+)?[ \t]*(?:\n|$)")  # (`#!/bin/sh -e`: K3)


#: ``npx``'s options taking no value (``npx --no-install jest``).
_NPX_FLAGS: Final = frozenset(("--no-install", "--yes", "-y", "--no", "-q", "--quiet"))


def _npx_closed(words: list[str]) -> bool:
    """Whether ``words`` run a ``_CLOSED`` program through ``npx`` (``npx jest``: the
    package's own jest, as ``jest`` runs it; s56-sreview C)."""
    if os.path.basename(words[0]) != "npx":
        return False
    rest = [w for w in words[1:] if w not in _NPX_FLAGS]
    return rest[:1] != [] and rest[0] in _CLOSED


def runner_words(guards: object, runner: str) -> list[list[str]]:
    """The words the plan of ``guards`` gives the program ``runner`` (``jest``): after its
    name in an entry's command (``npx jest --config ci/jest.json``), and after the command's
    name of a script's run (``npm test -- --globalSetup=./s.js``, ``yarn test --env=./e.js``:
    the script's runner gets them; npm's own options too, read alike: wider). An entry naming
    ``runner`` that is not read (``commands``) gives it ``UNSEEN``."""
    found = []
    for entry in plan_entries(guards):
        read = commands(entry, True)
        if read is None:
            found += [[UNSEEN]] if runner in entry else []
        for words in read or []:
            at = next((i for i, w in enumerate(words) if os.path.basename(w) == runner), None)
            try:
                named = script_names(words)
            except Elsewhere:
                named = None
            rest = words[2:]  # (npm gives a script the words after its name, its `--` gone)
            rest = rest[:rest.index("--")] + rest[rest.index("--") + 1:] if "--" in rest else rest
            found += [words[at + 1:]] if at is not None else [rest] if named != [] else []
    return found


#: The word ``runner_words`` gives for words it cannot read (an option no runner knows).
UNSEEN: Final = "--\x00unseen"
