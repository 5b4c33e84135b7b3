"""What GNU bash actually runs for one command line, and whether a plan allows it.

``Sandbox`` runs a command under ``/usr/bin/bash -c`` in a fresh temporary tree: the working
directory and ``HOME`` are ``sandbox/work``, ``PATH`` holds only a folder of logging shims, and a
``BASH_ENV`` prelude wraps every builtin in a logging function and sets a DEBUG trap. What ran is
read back from the logs:

* a program: each shim appends its argv (NUL-separated, with a count, so any byte but NUL
  survives) and exits with the status asked for. The wrappers ``timeout``, ``nice``, ``nohup``,
  ``stdbuf`` and ``time`` log and then exec the real GNU program, which runs the inner command
  through ``PATH`` (so it logs itself); ``env`` and ``xargs`` exec the real program too, ``sh`` and
  ``bash`` the real bash (prelude included), ``sudo`` and ``find -exec`` are emulated.
* a builtin: a prelude function ``echo() { log echo "$@"; builtin echo "$@"; }`` for every
  builtin but those a function cannot stand in for (``UNWRAPPED``);
* anything else: the DEBUG trap logs ``$BASH_COMMAND`` (``set -T``: in subshells too) for
  every simple command; one led by an unwrapped builtin is kept as its words (``text``), one
  whose name bash computes from an expansion, a glob or a path as that word (``computed``:
  what it ran cannot be told, so it is never taken as allowed).

A program's exported variables are logged too, so ``FOO=1 git x`` is seen as ``git x`` run
with ``FOO=1``: a rule may name it either way.

Files are compared before and after: every file created, changed or removed is a write. The
reference (``misses``) decides, with tests/reference.py and nothing of skillgrant, whether each
thing that ran and each write is allowed by the plan's rules.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from reference import path_allows, ref_allows_any

BASH = "/usr/bin/bash"
#: Programs that only log, print one line and exit with the asked status.
PROGRAMS = (
    "git", "npm", "ls", "cat", "rm", "touch", "head", "tail", "grep", "sed", "awk", "curl",
    "wget", "python", "python3", "make", "tee", "wc", "sort", "uniq", "cut", "tr", "mkdir", "cp",
    "mv", "chmod", "node", "docker", "ssh", "jq", "diff", "tar", "date", "sleep", "id", "yes",
    "echo", "printf", "test", "[", "true", "false", "pwd", "kill", "cd", "read",
)
#: Programs that only run their argument: logged, then the real GNU program is exec'd.
WRAPPERS = ("timeout", "nice", "nohup", "stdbuf", "time")
#: Runners exec'd for real after logging (the inner command then logs itself).
REAL_RUNNERS = {"env": "/usr/bin/env", "xargs": "/usr/bin/xargs", "sh": BASH, "bash": BASH}
#: Programs that run the command in their words after a few words of their own (review N1):
#: logged, then the command is exec'd (it logs itself).
SPAWNERS = {"faketime": 1, "chronic": 0, "i686": 0}
#: Builtins no function can stand in for without changing what they do; the DEBUG trap logs
#: them as text.
UNWRAPPED = frozenset({"builtin", "command", "break", "continue", "return", "shift", "getopts",
                       "local"})
#: Reserved words and syntax the DEBUG trap reports, which run nothing themselves.
SYNTAX = frozenset({"[[", "((", "for", "case", "select", "if", "while", "until", "function",
                    "coproc", "time", "!", "{", "}"})
#: Variables the generated commands read, as the environment gives them.
VARIABLES = {
    "X": "a b", "EMPTY": "", "SPACED": "  x  y ", "GLOB": "*.txt", "SEMI": "a; curl evil",
    "EXEC": "-exec", "QUOTE": "it's \"q\"", "DASH": "-rf", "CMD": "git", "NL": "a\nb",
    "INJ": "b[$(curl inj)]", "PINJ": "$(curl pinj)", "REF": "INJ", "FOO": "foo",
}
POSITIONAL = ("p 1", "", "*", "-rf")
FIXTURE = {"a.txt": "a\n", "b c.txt": "b\n", "in.txt": "1\n2\n", "dir/inner.txt": "i\n",
           "dir/sub/deep.txt": "d\n", "out/keep.txt": "k\n"}

_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
_REDIRECT = re.compile(r"([0-9]+|\{[A-Za-z_][A-Za-z0-9_]*\})?"
                       r"(&>>|&>|>>|>&|>\||<>|<<<|<<-|<<|<&|>|<)")
_UNNAMEABLE = re.compile(r"[$`*?\[\]{}~/]")
#: Variables the harness, bash or a wrapper put in a program's environment.
_HARNESS = frozenset({"PATH", "HOME", "TMPDIR", "BASH_ENV", "__SKG_LOG", "__SKG_RC", "LC_ALL",
                      "PWD", "OLDPWD", "SHLVL", "_", "LD_PRELOAD", "_STDBUF_I", "_STDBUF_O",
                      "_STDBUF_E"})


@dataclass(frozen=True)
class Ran:
    """One thing bash ran: a ``program`` or ``builtin`` with its argv, a ``wrapper`` program
    (transparent), or the words of a ``text`` command the trap saw and nothing else named. A
    program's ``assigned`` are the variables its environment holds beyond the harness's, as
    ``NAME=value`` words."""

    kind: str
    argv: tuple[str, ...]
    assigned: tuple[str, ...] = ()

    @property
    def command(self) -> str:
        """The argv as a plan names it: each word as the shell quotes it, ``test``'s brackets
        ``[`` and ``]`` bare."""
        return _joined(self.argv)

    def readings(self) -> Iterator[str]:
        """The command as a rule may name it: its argv, with any of its assignments before it
        (an earlier ``read X`` changes an exported variable too: it is no assignment word)."""
        yield self.command
        orders = (o for n in range(len(self.assigned)) for o in
                  itertools.permutations(self.assigned, n + 1))
        for order in itertools.islice(orders, 64):
            yield _joined((*order, *self.argv))


@dataclass(frozen=True)
class Run:
    ran: tuple[Ran, ...]
    written: tuple[str, ...]
    timed_out: bool
    stderr: str


def _joined(words: Iterable[str]) -> str:
    return " ".join(w if w in ("[", "]") else shlex.quote(w) for w in words)


def _shim(name: str, body: str, kind: str = "p", shell: str = "/bin/sh") -> str:
    """A shim logging its argv and, for a program, its exported variables (``export -p``, a
    builtin of dash and bash: what assignments like ``FOO=1 git`` gave it)."""
    log = f"printf '%s\\0' {kind} {shlex.quote(name)} \"$#\" \"$@\""
    if kind == "p":
        log += "; printf 'e\\0'; export -p; printf '\\0'; printf '0\\0'"
    return f"#!{shell}\n{{ {log}; }} >> \"$__SKG_LOG/p.$$\"\n{body}"


def _shims() -> dict[str, str]:
    plain = "printf '%s\\n' a.txt\nexit \"${__SKG_RC:-0}\"\n"
    shims = {name: _shim(name, plain) for name in PROGRAMS}
    for name in WRAPPERS:
        shims[name] = _shim(name, f'exec /usr/bin/{name} "$@"\n', "w")
    for name, real in REAL_RUNNERS.items():
        shims[name] = _shim(name, f'exec {real} "$@"\n')
    for name, skipped in SPAWNERS.items():
        shims[name] = _shim(name, f'shift {skipped}; exec "$@"\n')
    shims["sudo"] = _shim("sudo", _SUDO)
    shims["find"] = _shim("find", _FIND, shell="/usr/bin/bash -p")
    return shims


_SUDO = """while [ $# -gt 0 ]; do
  case $1 in
    --) shift; break;;
    -u|-g|-C|-D|-h|-p|-r|-t|-U|-T) shift; shift;;
    -*) shift;;
    *=*) export "$1"; shift;;
    *) break;;
  esac
done
[ $# -gt 0 ] && exec "$@"
exit 0
"""
_FIND = """printf '%s\\n' ./a.txt
args=("$@"); i=0
while (( i < ${#args[@]} )); do
  case ${args[i]} in
    -exec|-execdir|-ok|-okdir)
      cmd=(); (( i++ ))
      while (( i < ${#args[@]} )) && [[ ${args[i]} != ';' && ${args[i]} != '+' ]]; do
        cmd+=("${args[i]//\\{\\}/./a.txt}"); (( i++ ))
      done
      (( ${#cmd[@]} )) && ( "${cmd[@]}" ) ;;
  esac
  (( i++ ))
done
exit 0
"""


#: The DEBUG trap: every simple command outside the prelude's functions, as bash shows it.
_TRAP = ('[[ ${#FUNCNAME[@]} -eq 0 ]] && builtin printf "%s\\0" d "$BASH_COMMAND" 0 '
         '>> "$__SKG_LOG/d.$BASHPID"')
_SET_TRAP = f"builtin trap {shlex.quote(_TRAP)} DEBUG"


def _prelude(builtins: Iterable[str]) -> str:
    lines = ['__skg_log() { builtin printf \'%s\\0\' b "$1" "$(( $# - 1 ))" "${@:2}" '
             '>> "$__SKG_LOG/b.$BASHPID"; }']
    for name in builtins:
        if name in UNWRAPPED:
            continue
        flags = " -g" if name in ("declare", "typeset") else ""
        lines.append(f'{name}() {{ __skg_log {shlex.quote(name)} "$@"; '
                     f'builtin {name}{flags} "$@"; }}')
    lines += ["b=(x y)", "__skg_exit() { builtin wait; }", "builtin trap __skg_exit EXIT",
              "builtin set -T", _SET_TRAP]
    return "\n".join(lines) + "\n"


def parse_log(data: bytes) -> list[tuple[str, str, tuple[str, ...]]]:
    """Records ``kind NUL name NUL count NUL args…``, as (kind, name, args)."""
    fields = data.split(b"\0")
    records = []
    i = 0
    while i + 2 < len(fields):
        kind, name, count = (f.decode("utf-8", "surrogateescape") for f in fields[i:i + 3])
        n = int(count)
        args = tuple(f.decode("utf-8", "surrogateescape") for f in fields[i + 3:i + 3 + n])
        records.append((kind, name, args))
        i += 3 + n
    return records


def _words(text: str) -> tuple[list[str], str | None]:
    """A command the trap saw (its first line) as words with quotes removed, assignments and
    redirections left out; and its first word as written when it names no program plainly."""
    line = text.split("\n", 1)[0]
    try:
        raw = shlex.split(line, posix=False)
    except ValueError:
        raw = line.split()
    words: list[str] = []
    target = False  # the word is the target of the redirection before it
    for word in raw:
        operator = _REDIRECT.match(word)
        if target or operator:
            target = not target and operator is not None and operator.end() == len(word)
            continue
        if not words and _ASSIGNMENT.match(word):
            continue
        if not words and word != "[" and _UNNAMEABLE.search(word):
            return [word], word
        try:
            words.append("".join(shlex.split(word)))
        except ValueError:
            words.append(word)
    return words, None


def _assigned(exported: str) -> tuple[str, ...]:
    """The ``NAME=value`` words of ``export -p`` output that the harness did not set."""
    try:
        words = shlex.split(exported)
    except ValueError:
        return (exported,)
    pairs = [(w, w.partition("=")) for w in words]
    return tuple(sorted(w for w, (name, equals, value) in pairs
                        if equals and name not in _HARNESS and VARIABLES.get(name) != value))


class Sandbox:
    """A temporary tree with shims, a prelude and fixture files, for one command at a time."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="skg-bash-"))
        self.work = self.root / "work"
        self.bin = self.root / "bin"
        self.log = self.root / "log"
        self.tmp = self.root / "tmp"
        for folder in (self.bin, self.log, self.tmp):
            folder.mkdir()
        listed = subprocess.run([BASH, "-c", "compgen -b"], capture_output=True, text=True,
                                check=True, env={"PATH": "/nonexistent"})
        self.builtins = frozenset(listed.stdout.split())
        self.wrapped = self.builtins - UNWRAPPED
        self.prelude = self.root / "prelude.bash"
        self.prelude.write_text(_prelude(sorted(self.builtins)))
        for name, text in _shims().items():
            shim = self.bin / name
            shim.write_text(text)
            shim.chmod(0o755)
        self.shims = frozenset(os.listdir(self.bin))
        self._reset()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    @property
    def bases(self) -> dict[str, str]:
        return {"cwd": str(self.work), "home": str(self.work), "root": str(self.work)}

    def _reset(self) -> None:
        shutil.rmtree(self.work, ignore_errors=True)
        for relative, text in FIXTURE.items():
            path = self.work / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        self.snapshot = self._snapshot()

    def _snapshot(self) -> dict[str, tuple[object, ...]]:
        """Every entry of the root but the logs and TMPDIR: the sandbox's files by content and
        mode, the shims by their status (folders by existence: their times follow entries)."""
        seen: dict[str, tuple[object, ...]] = {}
        for folder, dirs, files in os.walk(self.root):
            if folder == str(self.root):
                dirs[:] = [d for d in dirs if d not in ("log", "tmp")]
            for name in dirs:
                seen[os.path.join(folder, name)] = ("dir",)
            for name in files:
                path = os.path.join(folder, name)
                info = os.lstat(path)
                stat = (info.st_mode, info.st_size, info.st_mtime_ns, info.st_ino)
                if folder == str(self.bin) or not os.path.isfile(path):
                    seen[path] = stat
                else:
                    seen[path] = (*stat, Path(path).read_bytes())
        return seen

    def run(self, command: str, rc: int = 0, timeout: float = 5.0) -> Run:
        """Run ``command`` under bash; what ran and what was written."""
        env = {**VARIABLES, "PATH": str(self.bin), "HOME": str(self.work), "TMPDIR": str(self.tmp),
               "BASH_ENV": str(self.prelude), "__SKG_LOG": str(self.log), "__SKG_RC": str(rc),
               "LC_ALL": "C.UTF-8"}
        process = subprocess.Popen([BASH, "-c", command, "skg", *POSITIONAL], cwd=self.work,
                                   env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, start_new_session=True)
        timed_out = False
        try:
            _, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill(process.pid)
            _, err = process.communicate()
        _kill(process.pid)  # anything it left running in the background
        ran = self._collect()
        after = self._snapshot()
        written = sorted(p for p in set(after) | set(self.snapshot)
                         if after.get(p) != self.snapshot.get(p))
        if written:
            self._reset()
        return Run(tuple(ran), tuple(written), timed_out, err.decode("utf-8", "replace"))

    def _collect(self) -> list[Ran]:
        ran: list[Ran] = []
        kinds = {"p": "program", "w": "wrapper", "b": "builtin"}
        for entry in sorted(os.scandir(self.log), key=lambda e: e.name):
            data = Path(entry.path).read_bytes()
            os.unlink(entry.path)
            for kind, name, args in parse_log(data):
                if kind == "e":  # the exported variables of the program just logged
                    ran[-1] = Ran(ran[-1].kind, ran[-1].argv, _assigned(name))
                elif kind == "d":
                    seen = self._unaccounted(name)
                    if seen is not None:
                        ran.append(seen)
                else:
                    ran.append(Ran(kinds[kind], (name, *args)))
        return ran

    def _unaccounted(self, text: str) -> Ran | None:
        """A command the trap saw that may have run something no log line names: one led by an
        unwrapped builtin (``text``, its words), or one whose name bash computes from an
        expansion, a glob or a path (``computed``: the gate should never have read it as a
        plain name, and what it ran cannot be told). None for the others."""
        if text == _SET_TRAP:
            return None  # how bash names the EXIT trap's run (the prelude's last command)
        words, unnamed = _words(text)
        if unnamed is not None:
            return Ran("computed", (unnamed,))
        if not words or words[0] in SYNTAX or words[0].startswith("__skg"):
            return None
        if words[0] in self.shims or words[0] in self.wrapped:
            return None  # it logs itself
        return Ran("text", tuple(words)) if words[0] in self.builtins else None  # else: not found


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _contents(entries: Iterable[str], tool: str) -> list[str]:
    return [e[len(tool) + 1:-1] for e in entries if e.startswith(tool + "(")]


def by_definition(command: str, entries: Iterable[str]) -> bool:
    """The plan approves ``command`` as it stands: a tool-wide ``Bash``, or an EXACT rule equal
    to the whole string, or a PREFIX rule ``P:*`` with ``P`` equal to it (as the runtime reads
    a whole command at once)."""
    entries = list(entries)
    return "Bash" in entries or any(
        command == rule or (rule.endswith(":*") and command == rule[:-2])
        for rule in _contents(entries, "Bash") if "*" not in rule.removesuffix(":*"))


def misses(run: Run, entries: Iterable[str], bases: Mapping[str, str]) -> list[str]:
    """What ran or was written that the plan does not allow: commands by ``ref_allows_any`` on
    their argv joined as the shell quotes it, files by ``path_allows`` against the Edit rules."""
    entries = list(entries)
    rules, edits = _contents(entries, "Bash"), _contents(entries, "Edit")
    found = [f"{r.kind} {r.command!r}" for r in run.ran if r.kind != "wrapper"
             and not any(ref_allows_any(rules, text) for text in r.readings())]
    found += [f"write {path!r}" for path in run.written
              if not any(path_allows(e, path.lstrip("/"), bases) for e in edits)]
    return found


def differential(box: Sandbox, command: str, entries: list[str]) -> tuple[list[str], int]:
    """What bash ran or wrote for ``command`` that the plan does not allow, with every program
    exiting 0 and then 1 (distinct findings, in order); and how many runs timed out."""
    runs = [box.run(command, rc=rc) for rc in (0, 1)]
    found = [miss for run in runs for miss in misses(run, entries, box.bases)]
    return list(dict.fromkeys(found)), sum(run.timed_out for run in runs)
