"""Programs known to write nothing their words name (review s41 W2).

``writers`` lists programs that write folders; ``guards._named_file`` stops any program naming
a guarded *file*. A program in no list writes what its words name as well (``gcc -E -P -x c
src/x.sh -o .claude/hooks/x.sh`` rewrites a hook script): the lists of writers cannot be
complete; the list of readers can be exact. So a word naming a path in a guarded *folder*, or
one the gate cannot name (an expansion, ``~user``), is let through only where each simple
command holding it is a program here that writes nothing its words name (``cat``, ``grep``,
``ls``, ``diff``; ``find`` without an action; ``git`` reading), or runs the path as the
program, or as an interpreter's script (``python .claude/skills/x/run.py``: its code is the
plan's to grant). Anything else holding it is ``unknown``."""

from __future__ import annotations

import functools
import shlex
from collections.abc import Sequence

from ..lazy import compile_on_use
from .cargoargs import SUBCOMMANDED, in_target, subcommand
from .entryvars import own_dropped, own_text
from .folded import NOT_ASSIGNED, READ, agreed, folded, tree_commands, unquoted
from .gitkept import git_kept
from .guardedset import GUARDED
from .movedoubts import ASSIGNMENT
from .planprograms import runs_named_file
from .starttables import TEST_FLAGS, TEST_RUNNERS
from .testfiles import PYTEST_FLAGS, pytest_reads, tests_read
from .words import run_words
from .wrapped import PACKAGE_RUNNERS, READERS, RUNS_OPERAND, npm_reads
from .writers import GIT_KEEPS, braced, edits, git_subcommand

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: ``git`` subcommands that write no file their words name, ``.git`` apart (``writers``'
#: ``GIT_KEEPS`` but ``config``, which writes a ``--file``, and ``init``, its folder; and but
#: ``--output``, which any of them takes).
GIT_READS: Final = GIT_KEEPS - {"config", "init"} | {"check-ignore", "check-attr"}
#: Programs that read no response file: a word ``@NAME`` is theirs (``npm i @types/node``, ``git
#: log @{u}``), where GCC, binutils and javac read ``@FILE``'s words as theirs (review s42 W5).
_NO_RESPONSE_FILES: Final = frozenset({"npm", "npx", "pnpm", "yarn", "bun", "bunx", "deno",
                                       "pip", "pip3", "uv", "gh", "git", "docker", "podman"})
#: Options whose value a program reads as text, never as a path it writes: gh's titles and
#: bodies (``--body-file``, ``-F``, is another option).
_TEXT_OPTIONS: Final = {"gh": frozenset({"--title", "-t", "--body", "-b"})}
#: cargo's subcommands that read the manifest ``--manifest-path`` names, and write none.
_CARGO_READS: Final = tuple([w] for w in (
    "build", "b", "check", "c", "test", "t", "run", "r", "bench", "doc", "d", "metadata",
    "tree", "clippy", "fetch", "locate-project", "verify-project", "read-manifest"))
#: Interpreters whose first operand is the script they run (read; valgrind's program: s49).
_INTERPRETER: Final = compile_on_use(r"(?:python|tclsh|lua)(?:[0-9.]*)|" + "|".join(sorted(  # (s48)
    RUNS_OPERAND | {"php", "Rscript", "luajit", "julia", "raku", "elixir", "groovy", "lli",
                    "valgrind"})))
#: Options an interpreter may take before its script, naming no file or code (s44 K3; s49).
_BEFORE_SCRIPT: Final = {
    "python": frozenset({"-u", "-B", "-E", "-I", "-S", "-O", "-OO", "-q", "-x", "--"}),
    "shell": frozenset({"-x", "-e", "-v", "-u", "-eu", "-ex", "--"}),
    "other": frozenset({"--", "-w", "-W", "-T", "-t"}), "node": frozenset({
        "--", "--no-warnings", "--trace-warnings", "--enable-source-maps", "--no-deprecation"})}
#: Of those, the ones that take the next word as their value, which names no code or file
#: (`python3 -X dev x.py`, `bash -o pipefail x.sh`: review s44 C1).
_VALUED_BEFORE: Final = {"python": frozenset({"-X", "-W"}), "shell": frozenset({"-o", "+o"}),
                         "other": frozenset(), "node": frozenset({  # (files node loads first)
                             "-r", "--require", "--import", "--loader", "--experimental-loader"})}
#: Words in front of a simple command's program: assignments, and bash's reserved words.
_RESERVED: Final = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "{",
                              "}", "time", "fi", "done", "esac"})
#: A word holding one of these may hold commands bash runs (a substitution, a quoted text
#: an ``sh -c`` runs, a comment's quote pairing with another): read again as commands.
_REREAD: Final = compile_on_use(r"[\n;&|()<>`]|\$\(")
_OPERATOR: Final = frozenset("();|&\n`")
#: An operator quoted or escaped: a word to bash, an operator to ``shlex``.
_QUOTED_OPERATOR: Final = compile_on_use(r"\\[;&|<>()`\n]|'[^']*[;&|<>()`\n][^']*'|"
                                         r'"[^"]*[;&|<>()`\n][^"]*"')  # (\n: s43 S4)
#: What may give a program's name another meaning: an alias, a function (quotes removed:
#: bash joins `al''ias`, review s43 V2b).
_RENAMES: Final = compile_on_use(r"\balias\b|\bfunction\b|\(\s*\)")
#: What may change the program a name runs for the commands after it: an assignment (of
#: ``PATH`` or any variable a program reads), a declaration, ``hash``, ``enable``, code a
#: file or a text runs in this shell (``source``, ``.``, ``eval``).
_SETS: Final = compile_on_use(r"(?:^|[\s;&|(`])[A-Za-z_][A-Za-z0-9_]*(?:\[[^]]*\])?\+?="
                              r"|\b(?:export|declare|typeset|readonly|local|hash|enable|read"
                              r"|mapfile|readarray|getopts|unset|wait)\b|\b(?:for|select)\s+[A-Za-z_]"
                              r"|printf\s+-v"  # (a name set without `=`: s43 V4b)
                              # code of a file (s44 V2c); `find . …`'s `.` is find's (s48)
                              r"|(?:^|[;&|(`]|(?<!\bfind)\s)(?:source|\.|eval)\s"
                              # the shell's own names, however set (`{PATH}>`, `let`, a trap's
                              # text, `(( PATH = 10 ))`: s44 V4d)
                              r"|\b(?:PATH|IFS|BASH_ENV|ENV|HOME|CDPATH|GLOBIGNORE|BASHOPTS"
                              r"|SHELLOPTS|let|trap)\b|\(\(")
#: Runners whose words are options, their numbers, and the program they run (no file).
_RUN_ONLY: Final = frozenset({"setsid", "ionice", "taskset", "chrt", "numactl", "chpst"})
#: Shells whose ``-c`` word is the script they run.
_SHELLS: Final = frozenset({"bash", "sh", "dash", "zsh"})
#: Programs that make another program's words of their input (review s42 GF4).
_FEEDS: Final = frozenset({"xargs", "parallel"})
#: How deep words are read again as commands; deeper, the gate does not separate them.
_MAX_DEPTH: Final = 3


def writer_of(text: str, doubtful: Sequence[str]) -> str | None:
    """The first of ``doubtful`` (words of the shell command ``text`` naming a path in a
    guarded folder, or one the gate cannot name) that a simple command of ``text`` may write:
    one holding it that is not a reader (``READERS``) or its program, or any when the gate
    cannot separate them (an open quote). None when each is only read or run."""
    commands = _commands(text)
    if commands and "{" in text:  # each word's brace forms beside it, as the guard's words
        # are (`-o {.c,-DX}laude/hooks/x.sh` holds `.claude/hooks/x.sh`: review s44 W19)
        commands = tuple(tuple(f for w in c for f in ([w, *braced(w)] if "{" in w else [w]))
                         for c in commands)
    if commands and any(w.rsplit("/", 1)[-1] in _FEEDS for c in commands for w in c):
        # (anywhere in a command: `nice xargs`, `setsid xargs`: review s43 V6, V6b)
        return doubtful[0]  # `ls -d .claude/x | xargs gcc -o`: a reader's output, a writer's words
    # `PATH=bin cat …`, `export PATH=bin; cat …`, `hash -p ./cat cat`: a name may run another
    # program than the one it names (review s43 V4); only the path a command runs is known
    named = _SETS.search(unquoted(own_text(text, GUARDED.get()))) is None  # (s44 V4f; s50)
    if commands and "|" in text and not all(_program(c) in READERS for c in commands):
        # `echo gcc … -o .claude/hooks/x.sh | sh`: a reader's output may be the program of
        # what it is piped to (a shell, an interpreter: review s44 K1), read only by readers
        return doubtful[0]
    distinct = list(dict.fromkeys(commands or ()))  # (equal words and commands answer alike:
    joined, read = "".join("\0".join(c) + "\1" for c in distinct), 0  # 1,500 `cd ..`: s58 T3)
    for word in dict.fromkeys(doubtful):
        read += sum(map(len, holding := _holding(word, distinct, joined)))  # (`_reads`' words)
        if read > MAX_WORDS_READ or not (holding or (commands and word.isdigit())) or not all(
                _reads(c, word, named) for c in holding):  # (a number no command holds:
            return word  # a redirection's, `2>/dev/null`)
    return None


def _holding(word: str, commands: list[tuple[str, ...]], joined: str) -> list[tuple[str, ...]]:
    """The ``commands`` holding ``word`` in a word, by ``joined`` (NUL, \\1 after each: T6)."""
    if not word or "\0" in word or "\1" in word or joined.count("\1") != len(commands):
        return [c for c in commands if any(word in w for w in c)]  # (a \\1 in a word)
    found, at = [], joined.find(word)
    while at != -1:
        found.append(commands[joined.count("\1", 0, at)])
        at = joined.find(word, joined.find("\1", at) + 1)
    return found


#: The words ``writer_of`` reads in all (each doubtful word's commands'), past which the word
#: is taken as written (5,000 guarded words of one command, each read: 34 s, s59-hreview T5).
MAX_WORDS_READ: Final = 1_000_000


def named_commands(text: str) -> tuple[tuple[str, ...], ...] | None:
    """The simple commands of ``text`` (``_commands``) where each program word runs the
    program it names and is fed no words (``writer_of``'s doubts: ``_SETS``, ``_FEEDS``, a
    pipe into other than a reader or ``cp``); None otherwise."""
    commands = _commands(text)
    if not commands or _SETS.search(unquoted(text)) is not None or any(
            w.rsplit("/", 1)[-1] in _FEEDS for c in commands for w in c):
        return None
    if "|" in text and not all(_program(c) in READERS or _program(c) == "cp"
                               for c in commands):
        return None
    return commands


def program_words(command: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words of the simple command ``command`` from its program on (past reserved words
    and the wrappers ``run_words`` reads), or None for a redirection's target or a command
    led by an assignment."""
    at = _front(command)
    if at == len(command) or command[0] == ">" or any(map(ASSIGNMENT.match, command[:at])):
        return None
    return tuple(run_words(list(command[at:])))


def _front(command: tuple[str, ...]) -> int:
    """The place of a simple command's first word past reserved words and assignments."""
    at = 0
    while at < len(command) and (command[at] in _RESERVED or ASSIGNMENT.match(command[at])):
        at += 1
    return at


def _program(command: tuple[str, ...]) -> str:
    """The program name a simple command runs, past assignments and wrappers ("" for none,
    or a redirection's target)."""
    at = _front(command)
    inside = run_words(list(command[at:])) if at < len(command) and command[0] != ">" else []
    return inside[0].rsplit("/", 1)[-1] if inside else ""


def programs_named(text: str) -> bool:
    """Whether each simple command of ``text`` names its program as a literal word that moves
    no folder but by its words (not ``$(echo cd)``, ``eval``, ``source``, ``builtin``,
    ``command``: a ``cd`` they may run is no move ``moves`` sees; review s42 GF5)."""
    analysis = agreed(text)  # bash's own programs, where its reading is the gate's
    if analysis is not None:
        return all(c.program is not None and c.program not in _PROXIES
                   for c in analysis.commands)
    commands = _commands(text)
    return commands is not None and not any(
        _INDIRECT.search(c[0]) or c[0] in _PROXIES for c in commands if c and c[0] != ">")


#: A program word the shell makes of an expansion; builtins that run a command they are given.
_INDIRECT: Final = compile_on_use(r"[$`\\'\"]")
_PROXIES: Final = frozenset({"eval", "source", ".", "builtin", "command", "exec"})


def _reads(command: tuple[str, ...], word: str, named: bool = True) -> bool:
    """Whether ``command`` writes nothing ``word`` names (``named``: a name runs its program)."""
    command = own_dropped(command, GUARDED.get(), NOT_ASSIGNED)  # (the plan's own: s50)
    at = _front(command)
    if at == len(command) or command[0] == ">" or any(word in w for w in command[:at]):
        return False  # a redirection's target, or an assignment's value (a program reads it
        # from its environment: `DEPENDENCIES_OUTPUT=.claude/hooks/x.sh gcc …`, review s42 GF8)
    inside = run_words(list(command[at:]))  # `nice cat x` reads x; `env A=1 ./x.sh` runs it
    start = len(command) - len(inside)  # the program's place, past the wrappers
    if any(word in w for w in command[at:start]):  # `env DEPENDENCIES_OUTPUT=PATH gcc …`: a
        from .runneropts import runner_reads  # variable (s43 V3); not `env -C tools` (P2c)
        if not (named and runner_reads(list(command[at:start]), word)):
            return False
    program, rest = command[start], list(command[start + 1:])
    if not any(word in w for w in rest) or _runs_it(program, rest, word):
        return True  # the path is the program run
    name = program if "/" not in program and named else ""  # `./cat`: the project's script
    base = program.rsplit("/", 1)[-1]  # `.venv/bin/python x.py`, `.venv/bin/pytest t`: an
    if "/" in program and (_INTERPRETER.fullmatch(base) or base in ("pytest", "py.test")):
        name = base  # interpreter or pytest named by its path: the plan's (s44 C5, K5)
    if name == "printf" and any(w.startswith("-v") for w in rest):
        return False  # `printf -v NAME … PATH` hands the path to a later program (s43 V1)
    # (`awk -f x.awk`, `java -jar x.jar`: a file an option names it to run: review s44 C7)
    return name in READERS or (word[:1] == "@" and name in _NO_RESPONSE_FILES) or \
        runs_named_file(name, rest, word) or (name == "cargo" and _manifest(rest, word)) or \
        npm_reads(name, rest, word) or \
        (name in SUBCOMMANDED and subcommand(rest, word)) or _reads_as(name, rest, word)


def _manifest(rest: list[str], word: str) -> bool:
    """Whether cargo's words ``rest`` hold ``word`` only as the ``--manifest-path`` of a
    subcommand that reads it (``_CARGO_READS``; a toolchain's ``+name`` before it): review
    s46's COST C-self, ``cargo build --manifest-path sub/Cargo.toml`` under its own entry;
    or as its ``--target-dir`` in its own ``target/`` (``cargodirs.in_target``: session 47)."""
    at = int(rest[:1] != [] and rest[0][:1] == "+")
    names = ("--manifest-path", "--target-dir") if in_target(word) else ("--manifest-path",)
    return rest[at:at + 1] in _CARGO_READS and all(
        (i and rest[i - 1] in names and w == word) or
        w in [f"{n}={word}" for n in names] for i, w in enumerate(rest)
        if word in w and w not in names)


def _runs_it(program: str, rest: list[str], word: str) -> bool:
    """Whether ``program`` is a runner of ``_RUN_ONLY`` whose ``rest`` names the program it
    runs as ``word``: its first word with a slash, after options and their values (`setsid
    ./x.sh`, `taskset -c 0 ./x.sh`: review s43 P2b), and no later word holds it."""
    if program not in _RUN_ONLY:
        return False
    at = next((i for i, w in enumerate(rest) if "/" in w), None)
    return at is not None and rest[at] == word and all(
        w[:1] == "-" or w.isdigit() for w in rest[:at]) and not any(
        word in w for w in rest[at + 1:])


def _runner_program(name: str, rest: list[str]) -> int | None:
    """The place in ``rest`` of the program a package runner ``name`` runs: ``npx X``,
    ``npm exec X``, ``uv run X``; None for anything else (``npm run build node x.js`` runs the
    package's script, its later words arguments: review s44 K5)."""
    plain = [i for i, w in enumerate(rest) if w[:1] != "-"]
    if name in ("npx", "bunx", "pnpx", "uvx"):
        return plain[0] if plain else None
    verbs = ("exec",) if name in ("npm", "pnpm", "yarn", "bun") else ("run", "exec")
    return plain[1] if len(plain) > 1 and rest[plain[0]] in verbs else None


def _script_at(rest: list[str], kind: str) -> int | None:
    """The place of the script (or ``-m``) in an interpreter's words ``rest``, past the
    options of ``_BEFORE_SCRIPT`` and ``_VALUED_BEFORE`` with their values."""
    at = 0
    while at < len(rest):
        if rest[at] in _VALUED_BEFORE[kind]:
            at += 2
        elif rest[at] in _BEFORE_SCRIPT[kind]:
            at += 1
        else:
            return at
    return None


def _reads_as(name: str, rest: list[str], word: str) -> bool:
    """``_reads`` for the program ``name`` (not a reader) given the words ``rest``."""
    if name in _SHELLS and rest[:1] == ["-c"] and not any(word in w for w in rest[2:]):
        return True  # `bash -c './x.sh'`: its script is read as commands (``_commands``)
    if name in ("make", "gmake") and all(  # the makefile it reads (`make -f x.mk`: P2f)
            (i and rest[i - 1] in ("-f", "--file", "--makefile")) or
            w.startswith(("--file=", "--makefile=")) for i, w in enumerate(rest) if word in w):
        return True
    texts = _TEXT_OPTIONS.get(name)
    if texts is not None and all(  # `gh pr create --body "$(cat docs/a.md)"` (issue 29)
            (i and rest[i - 1] in texts) or w.partition("=")[0] in texts
            for i, w in enumerate(rest) if word in w):
        return True
    if name == "find":
        return not edits("find", rest)
    if name == "git":
        sub = git_subcommand(rest)
        return sub is not None and git_kept(rest, sub) in GIT_READS and not any(
            w.startswith(("--output", "-o", "--ext", "-O", "--open")) for w in rest)
    if name in ("pytest", "py.test"):  # its operands are the tests it runs, an option's
        return pytest_reads(rest, word, PYTEST_FLAGS | TEST_FLAGS)  # value it reads (K1)
    if name in TEST_RUNNERS or (name in ("node", "nodejs") and "--test" in rest):
        return tests_read(name, rest, word)  # its operands: the tests it runs (s49; K5)
    inner = _runner_program(name, rest) if name in PACKAGE_RUNNERS else None
    if inner is not None and _INTERPRETER.fullmatch(rest[inner]) and not any(
            word in w for w in rest[:inner]):  # `npx node tools/run.js` (review s43 P2e)
        return _reads_as(rest[inner], rest[inner + 1:], word)
    return _INTERPRETER.fullmatch(name) is not None and _script_read(name, rest, word)


def _script_read(name: str, rest: list[str], word: str) -> bool:
    """Whether the interpreter ``name`` given ``rest`` holds ``word`` only as the script (or
    the module) it runs, or as an operand of ``-m pytest``/``-m unittest``, read as
    ``pytest``'s (review s47 C-self2)."""
    kind = "python" if name.startswith("python") else "shell" if name in _SHELLS else \
        "node" if name in ("node", "nodejs") else "other"  # (its `-r FILE`: s48 COST)
    skip = int(name in ("bun", "deno") and rest[:1] == ["run"])  # `bun run lint`: the
    script = _script_at(rest[skip:], kind)  # script or file it runs (s47 C-self2)
    script = None if script is None else script + skip
    if kind == "python" and script is not None and rest[script] == "-m":
        script = script + 1 if script + 1 < len(rest) else None  # the module it runs
        if script is not None and rest[script] in ("pytest", "unittest") and not any(
                word in w for w in rest[:script - 1]) and word != rest[script]:  # (`-m pytest t`)
            return _reads_as("pytest", rest[script + 1:], word) if rest[script] == \
                "pytest" else all(w[:1] != "-" for w in rest[script + 1:] if word in w)
    held = [at for at, w in enumerate(rest) if word in w]  # (the script, or a file it loads)
    return script is not None and all(at == script or (kind == "node" and rest[at] == word and (
        rest[at - 1] in _VALUED_BEFORE[kind])) for at in held)


@functools.lru_cache(maxsize=64)
def _commands(text: str) -> tuple[tuple[str, ...], ...] | None:
    """The simple commands of ``text`` (each redirection's target apart, led by ``>``), and
    those of each word that may hold commands (``_REREAD``), read again; None when an open
    quote, or words nested deeper than ``_MAX_DEPTH``, keep the gate from separating them.
    Comments and literal here-documents are read as words of their command (``folded``);
    where bash's reading of them is not shown, a comment is read as words (more commands,
    never fewer)."""
    tree = tree_commands(text)  # bash's own reading, where the gate's analysis is bash's
    if tree is not None:
        return tree
    if _QUOTED_OPERATOR.search(text) or _RENAMES.search(unquoted(text)):
        return None  # `-I ';'`: shlex gives the word as an operator (review s43 S3); an
        # alias or a function renames a program (the runtime expands aliases: V2)
    found: list[tuple[str, ...]] = []
    texts = [(folded(text), 0)]
    while texts:
        now, depth = texts.pop()
        read = _simple(now)
        if read is None or depth > _MAX_DEPTH:
            return None
        found += read
        texts += [(w.replace("$(", "$ ( "), depth + 1) for c in read for i, w in enumerate(c)
                  if _REREAD.search(w) or (i and c[i - 1] == "-c")]
    return tuple(found)


def _simple(text: str) -> list[tuple[str, ...]] | None:
    """The simple commands of ``text`` as sh splits them (quotes removed), ``_commands``':
    a backslash before a line break read both ways, as a line joined and as a comment's last
    character (bash ends a comment at the line break: review s43 S1)."""
    read = _split(text)
    if read is None or "\\\n" not in text:
        return read
    ended = _split(text.replace("\\\n", "\n"))
    return None if ended is None else read + ended


def _split(text: str) -> list[tuple[str, ...]] | None:
    lexer = shlex.shlex(text, posix=True, punctuation_chars="();<>|&\n`")
    lexer.whitespace = " \t"
    lexer.whitespace_split = True
    lexer.commenters = ""
    found: list[tuple[str, ...]] = []
    words: list[str] = []
    target = False
    try:
        for token in lexer:
            if token and set(token) <= _OPERATOR | {"<", ">"}:
                # `gcc -o > log x` is one command; `<(…)` a command of its own
                target = ("<" in token or ">" in token) and set(token).isdisjoint("()`")
                lead = READ if token == "<" else ">"  # (`< FILE` reads it: folded.READ)
                if not target:
                    found.append(tuple(words))
                    words = []
            elif target:
                found.append((lead, token))
                target = False
            else:
                words.append(NOT_ASSIGNED + token if ASSIGNMENT.match(token) else token)
                # (`'A=./e' cat …`, `\A=./e`: quotes gone, no assignment is known: V5)
    except ValueError:
        return None
    return [c for c in (*found, tuple(words)) if c]

