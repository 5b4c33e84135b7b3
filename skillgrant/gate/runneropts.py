"""A plan entry's runner options, read as the runner reads them (s48-greview2 R1, R1c, S4b):
the folder ``env -C DIR`` (``--chdir=DIR``, ``--ch=DIR``, ``-CDIR``), ``unshare -w DIR``
(``--wd``) or gdb's ``--cd=DIR`` moves its program into, and the program's words (``env -S
STRING``'s, ``--split-string=STRING``'s; gdb's ``--args``; a shell's code after ``-c`` and
its other options, ``--``).

One table per runner, in ``optspecs``' format (the runner's own ``--help``: GNU coreutils 9.1
env, util-linux 2.38 unshare, GNU gdb 13), read with ``getopt_long``'s rules: ``--opt=V``,
``--opt V``, a unique prefix of a long option, ``-oV``, clustered short options; the runner's
options end at its first operand (env and unshare parse with ``+``). gdb reads its options as
``getopt_long_only`` does (one dash or two, a long option by a unique prefix). An option the
table does not know, or an ambiguous prefix, is refused: ``ValueError`` naming it (the hook
then denies every call: what the entry's program reads is not known), never guessed."""

from __future__ import annotations

import itertools

from .optables import Table, table_of
from .planpaths import RESERVED, by_name, family, takes_code
from .wrapped import RUNNERS

#: su's and runuser's options (util-linux 2.38) but su's ``-P`` and runuser's ``-u``.
_SU = ("c/command= f/fast g/group= G/supp-group= l/login m/preserve-environment "
       "p/preserve-environment s/shell= session-command= w/whitelist-environment= h/help "
       "V/version")
#: Each runner's options (``optspecs.SPECS``' format: ``x/name``, ``=`` a value, ``=?`` an
#: optional attached one), then the options moving the program's folder, the one whose value
#: is more words of the command (``env -S``), and the one after which the program's words
#: follow (gdb's ``--args``).
_SPECS: dict[str, tuple[str, str, str, str]] = {
    "env": ("i/ignore-environment 0/null u/unset= C/chdir= S/split-string= a/argv0= "
            "block-signal=? default-signal=? ignore-signal=? list-signal-handling v/debug help "
            "version", "chdir", "split-string", ""),
    "unshare": ("m/mount=? u/uts=? i/ipc=? n/net=? p/pid=? U/user=? C/cgroup=? T/time=? f/fork "
                "map-user= map-group= r/map-root-user c/map-current-user map-auto map-users= "
                "map-groups= kill-child=? mount-proc=? propagation= setgroups= keep-caps "
                "R/root= w/wd= S/setuid= G/setgid= monotonic= boottime= h/help V/version",
                "wd", "", ""),
    "gdb": ("args core= c= exec= e= pid= p= directory= d= se= symbols= s= readnow r readnever "
            "write command= x= init-command= ix= eval-command= ex= init-eval-command= iex= "
            "early-init-command= eix= early-init-eval-command= eiex= nh nx n fullname f "
            "interpreter= i= tty= t= w nw tui dbx q/quiet silent batch batch-silent "
            "return-child-result configuration help version b= l= cd= data-directory= D= "
            "statistics annotate= baud= nowindows windows ui=", "cd", "", "args"),
    # util-linux 2.38's runners of a command, each its own `--help`; sudo 1.9's
    "setsid": ("c/ctty f/fork w/wait h/help V/version", "", "", ""),
    "taskset": ("a/all-tasks p/pid c/cpu-list h/help V/version", "", "", ""),
    "ionice": ("c/class= n/classdata= p/pid P/pgid t/ignore u/uid h/help V/version", "", "",
               ""),
    "chrt": ("a/all-tasks b/batch d/deadline f/fifo i/idle o/other r/rr R/reset-on-fork "
             "T/sched-runtime= P/sched-period= D/sched-deadline= p/pid m/max v/verbose h/help "
             "V/version", "", "", ""),
    "prlimit": ("c/core=? d/data=? e/nice=? f/fsize=? i/sigpending=? l/memlock=? m/rss=? "
                "n/nofile=? q/msgqueue=? r/rtprio=? s/stack=? t/cpu=? u/nproc=? v/as=? "
                "x/locks=? y/rttime=? p/pid= o/output= noheadings raw verbose h/help V/version",
                "", "", ""),
    "flock": ("s/shared x/exclusive e u/unlock n/nonblock nb w/timeout= wait= "
              "E/conflict-exit-code= o/close F/no-fork verbose h/help V/version", "", "", ""),
    "nsenter": ("a/all t/target= m/mount=? u/uts=? i/ipc=? n/net=? p/pid=? C/cgroup=? U/user=? "
                "T/time=? S/setuid= G/setgid= preserve-credentials keep-caps r/root=? w/wd=? "
                "W/wdns= e/env F/no-fork Z/follow-context h/help V/version", "wd", "", ""),
    "sudo": ("A/askpass b/background C/close-from= D/chdir= E/preserve-env=? e/edit g/group= "
             "H/set-home h/help=? i/login K/remove-timestamp k/reset-timestamp l/list "
             "n/non-interactive P/preserve-groups p/prompt= R/chroot= r/role= S/stdin s/shell "
             "t/type= T/command-timeout= U/other-user= u/user= V/version v/validate B/bell "
             "N/no-update", "chdir", "", ""),
    # su's, runuser's `-c CMD` holds the command (util-linux 2.38); `-`, `-l` a login shell
    "su": (f"{_SU} P/pty", "", "command", ""),
    "runuser": (f"{_SU} u/user=", "", "command", ""),
    "fakeroot": ("l/lib= faked= s= i= u/unknown-is-real b= h/help v/version", "", "", ""),
    "setarch": ("v/verbose 3/3gb 4/4gb B/32bit F/fdpic-funcptrs Z/mmap-page-zero "
                "L/addr-compat-layout X/read-implies-exec R/addr-no-randomize S/whole-seconds "
                "T/sticky-timeouts list uname-2.6 h/help V/version", "", "", ""),
    "dbus-run-session": ("config-file= dbus-daemon= help version", "", "", ""),
    "ssh-agent": ("c s D d k a= E= O= P= t=", "", "", ""),
    # the wrappers (coreutils 9.1; `time`: bash's keyword and GNU time 1.9), read by their
    # tables here rather than by `words.strip_wrappers`' literal forms (s49-greview2 W1)
    "timeout": ("f/foreground k/kill-after= p/preserve-status s/signal= v/verbose help version",
                "", "", ""),
    "nice": ("n/adjustment= 0 1 2 3 4 5 6 7 8 9 help version", "", "", ""),
    "nohup": ("help version", "", "", ""),
    "time": ("p f/format= o/output= a/append v/verbose q/quiet help V/version", "", "", ""),
    "stdbuf": ("i/input= o/output= e/error= help version", "", "", ""),
}
#: Runners that run their operands as a command with no option of their own given (ccache's
#: compiler, `watch make`, `chronic make`); an option before it is refused (no table).
_PLAIN: frozenset[str] = frozenset({
    "ccache", "sccache", "distcc", "icecc", "chronic", "unbuffer", "catchsegv", "watch",
    "strace", "ltrace", "numactl", "cgexec", "chpst", "setpriv", "xvfb-run",
    "rlwrap", "linux32", "linux64", "i386", "x86_64", "i686", "uname26", "script",
    "expect", "doas"})
#: Runners that start a shell reading their input when given no command (`cat x.sh | su`:
#: the file is the shell's script, s49-greview2 P1).
_SHELLED: frozenset[str] = frozenset({"su", "runuser", "fakeroot", "setarch", "sudo", "sg"})
#: Runners read as before (their words stay the entry's: each later word a program's, in
#: planprograms): builtins that run no program of their words, or run the shell's own code or
#: a file the plan names (``source``), xargs/parallel (their input: s49-gfix's X1), valgrind
#: (whose own start files planprograms reads; every option of its is `--name=value` or a
#: flag, so each later word is its program's or an argument).
_KEPT: frozenset[str] = frozenset({
    "test", "[", "let", "alias", "unalias", "hash", "shopt", "set", "enable", "compgen",
    "complete", "bind", "mapfile", "readarray", "jobs", "fg", "bg", "history", "fc", "trap",
    "source", ".", "eval", "exec", "command", "builtin", "coproc", "xargs", "parallel",
    "valgrind",  # (its own start files, `.valgrindrc`: starttables; its options attached)
    # editors run what their words or their input say (`vim -c '!make'`): an entry naming one
    # runs code of the call's choosing, the documented residual; their words read as before
    "ed", "red", "ex", "vi", "vim", "view", "gvim", "nvim", "rvim", "rview", "vimdiff",
    "emacs", "emacsclient",
    "pydoc", "pydoc3", *(f"pydoc3.{minor}" for minor in range(6, 20))})
#: Per runner, the options that move the program out of every folder the gate reads (a new
#: root, another process's mount namespace, a login shell's home), which refuse the entry.
_REFUSED: dict[str, frozenset[str]] = {
    "unshare": frozenset({"root"}), "nsenter": frozenset({"root", "mount", "target", "all"}),
    "sudo": frozenset({"login", "chroot"}), "su": frozenset({"login"}),
    "runuser": frozenset({"login"}),
    "gdb": frozenset({"command", "x", "init-command", "ix", "early-init-command", "eix",
                      "data-directory", "D"})}  # (-D: its python package: s49-greview2 G2)
#: Per runner, the options under which it runs no program (its operands are processes), and
#: how many operands come before the program's name (a mask, a priority, a lock file).
_NO_PROGRAM: dict[str, frozenset[str]] = {
    "taskset": frozenset({"pid"}), "ionice": frozenset({"pid", "pgid", "uid"}),
    "chrt": frozenset({"pid"}), "prlimit": frozenset({"pid"}),
    "sudo": frozenset({"edit", "list", "validate", "help", "version"})}
_LEADING: dict[str, int] = {"taskset": 1, "chrt": 1, "flock": 1, "timeout": 1}
#: Builtins that run their operands as a command (``exec make``, ``eval cd sub``): read past
#: them when no option follows; with one, their words stay (``command -v jq`` runs nothing).
_PASSED: frozenset[str] = frozenset({"exec", "command", "builtin", "eval"})
_TABLES: dict[str, Table] = {}
#: A shell's long options taking the next word as their value (``-o``/``-O`` clusters too).
_VALUED = frozenset({"--rcfile", "--init-file"})


def entry_run(words: list[str]) -> tuple[str | None, list[str]]:
    """The folder (joined, relative to the call's; None: none) the runners and wrappers
    leading ``words`` move their program into, and the words of the program they run
    (``words`` itself when none leads). ValueError for a runner's option it cannot read."""
    moved: str | None = None
    words = _named(words)
    while words and words[0] in RUNNERS and family(words[0]) != "shell":
        if words[0] in _PASSED and words[1:2] and words[1][:1] != "-":
            words = _named(words[1:])
            continue
        if words[0] in _KEPT:
            break
        if words[0] == "sg":
            words = _named(_sg(words[1:]))
            continue
        if words[0] not in _SPECS:
            words = _named(_plain(words))
            continue
        folder, inner = _runner(words[0], words[1:])
        moved = _joined(moved, folder)
        if words[0] == "gdb":  # (its words stay: what each names, as a runner's, planprograms)
            if inner[:1] and (inner[0] in RUNNERS or family(inner[0]) == "shell"):
                raise ValueError(f"the plan's entry runs {inner[0]!r} under gdb, whose "
                                 "program's folder the gate does not read there")  # (G3)
            break
        words = _named(inner)
    if words and family(words[0]) == "shell":
        return _code_run(moved, words)
    return moved, words


def _named(words: list[str]) -> list[str]:
    """``words`` past reserved words and ``!`` (``time ! cd sub``: s49-greview3 K2), a runner
    or shell named by its absolute path read by its name (``/usr/bin/env``: R1)."""
    words = list(itertools.dropwhile(RESERVED.__contains__, words))
    name = by_name(words[0]) if words else ""
    if words and name != words[0] and (name in RUNNERS or family(name) == "shell"):
        return [name, *words[1:]]
    return words


def _code_run(moved: str | None, words: list[str]) -> tuple[str | None, list[str]]:
    """``entry_run`` of a shell's words: its ``-c`` code read as a command, past reserved
    words, runners and wrappers (``bash -c 'if cd sub; then make; fi'``, ``'time cd sub'``:
    review s49-greview2 K1)."""
    code = _shell_code(words)
    if code is words:
        return moved, words
    folder, code = entry_run(list(itertools.dropwhile(RESERVED.__contains__, code)))
    return _joined(moved, folder), code


def _joined(moved: str | None, folder: str | None) -> str | None:
    """The folder ``folder`` names from ``moved`` (relative to the call's; None: none)."""
    if folder is None:
        return moved
    return folder if moved is None or folder[:1] == "/" else f"{moved}/{folder}"


def _plain(words: list[str]) -> list[str]:
    """The words a runner of ``_PLAIN`` runs (its operands); ValueError for one with an
    option there, or a runner the gate has no table for (s49-greview2 N1)."""
    name = words[0]
    if name in _PLAIN and words[1:2] and words[1][:1] != "-":
        return words[1 + _LEADING.get(name, 0):]
    if name in _PLAIN and words[1:2] == ["--"]:
        return words[2:]
    raise ValueError(f"the plan's entry runs {' '.join(words[:2])!r}: a runner whose options "
                     "the gate has no table for, so what it runs where is not known")


def _runner(name: str, args: list[str]) -> tuple[str | None, list[str]]:
    """The folder runner ``name`` moves to and the words it runs, from its ``args`` (gdb's,
    su's, runuser's options read past their operands too: getopt permutes them)."""
    _, chdir, split, rest = _SPECS[name]
    table = _table(name)
    folder: str | None = None
    args = _prepared(name, list(args))
    operands: list[str] = []
    code: list[str] | None = None  # (su's, runuser's `-c`: its words, and the operands after)
    user = False  # (runuser's `-u USER`: its operands are the command)
    while args and args[0] != "--":
        if args[0][:1] != "-" or args[0] == "-" or _pattern(args[0]):
            if name not in _PERMUTED:
                break
            (operands if code is None else code).append(args.pop(0))
            continue
        word = args.pop(0)
        for option, value, taken in _options(name, table, word, args):
            del args[:taken]
            _check(name, option, value, word, chdir)
            if option in _NO_PROGRAM.get(name, ()) or (option == rest and rest):
                return folder, ([] if option != rest else args)
            folder = value if option == chdir else folder
            user = user or (name == "runuser" and option == "user")
            if option == split and name in _PERMUTED:
                code = value.split()
            elif option == split and split:
                args[:0] = value.split()
    args = [*operands, *args[args[:1] == ["--"]:]] if code is None else [*code, *args[
        args[:1] == ["--"]:]]
    return folder, args if code is not None or user else _operands(name, args)


#: Runners whose options getopt reads past their operands (no `+`): gdb, su, runuser.
_PERMUTED: frozenset[str] = frozenset({"gdb", "su", "runuser"})


def _sg(args: list[str]) -> list[str]:
    """The words ``sg [-] GROUP [-c] COMMAND`` runs (a shell reading its input with none);
    ValueError for ``-`` (a login shell)."""
    if args[:1] == ["-"]:
        raise ValueError("the plan's entry runs 'sg' with '-': a login shell, which starts "
                         "in the user's home")
    rest = args[1:]
    rest = rest[1:] if rest[:1] == ["-c"] else rest
    return rest or ["sh"]


#: gdb's commands an entry's ``-ex`` may give it (none moves its program or runs another:
#: ``cd``, ``set cwd``, ``shell``, ``python``, ``source`` are refused; s49-greview2 G1).
_GDB_COMMANDS: frozenset[str] = frozenset({
    "run", "r", "start", "starti", "bt", "backtrace", "where", "quit", "q", "continue", "c",
    "kill", "k", "next", "n", "step", "s", "finish", "info"})
_GDB_CODE: frozenset[str] = frozenset({"eval-command", "ex", "init-eval-command", "iex",
                                       "early-init-eval-command", "eiex"})


def _check(name: str, option: str, value: str, word: str, chdir: str) -> None:
    """ValueError for ``name``'s ``option`` (given as ``word``, its value ``value``) where it
    moves the program out of the gate's view or runs what the gate does not read."""
    if option in _REFUSED.get(name, ()) or (option == chdir and not value) or (
            name == "gdb" and option in _GDB_CODE and value not in _GDB_COMMANDS):
        raise ValueError(f"the plan's entry runs {name!r} with {word!r}: another root, "
                         "namespace or folder, or commands the gate does not read")


def _prepared(name: str, args: list[str]) -> list[str]:
    """``args`` as ``_runner`` reads them: setarch's architecture first, its options after;
    ValueError for su's, runuser's ``-`` (a login shell, started in the user's home)."""
    if name == "setarch" and args[:1] and args[0][:1] != "-":
        return args[1:]
    if name in ("su", "runuser") and "-" in args[:args.index("--") if "--" in args else None]:
        raise ValueError(f"the plan's entry runs {name!r} with '-': a login shell, which "
                         "starts in the user's home")
    return args


def _operands(name: str, args: list[str]) -> list[str]:
    """The program's words in runner ``name``'s operands ``args``: env's and sudo's past ``-``
    and their assignments; past a mask, a priority, flock's lock file (and its ``-c``)."""
    if name in ("env", "sudo"):
        args = args[1:] if args[:1] == ["-"] and name == "env" else args
        while args and "=" in args[0] and args[0][:1] not in ("=", "-"):
            args.pop(0)
    args = args[_LEADING.get(name, 0):]
    if name in ("su", "runuser"):
        return ["sh", *args[1:]]  # (a user, no command: its shell, given the other words)
    if name in _SHELLED and not args:
        return ["sh"]
    return args[1:] if name == "flock" and args[:1] in (["-c"], ["--command"]) else args


def _pattern(word: str) -> bool:
    return any(c in word for c in "*?[")


def _options(name: str, table: Table, word: str,
             args: list[str]) -> list[tuple[str, str, int]]:
    """The options the word ``word`` gives ``name`` (each with its value and how many of the
    next ``args`` it takes)."""
    if word[:2] == "--" or (name == "gdb" and len(word) > 2):
        given, eq, value = word.lstrip("-").partition("=")
        option = _long(name, table, given, word)
        kind = table.arity[option]
        if kind == "=" and not eq:
            if not args:
                raise ValueError(f"the plan's entry gives {name!r} the option {word!r} "
                                 "without its value")
            return [(option, args[0], 1)]
        if eq and not kind:
            raise ValueError(f"{name!r}'s option {word!r} takes no value")
        return [(option, value, 0)]
    found: list[tuple[str, str, int]] = []
    for at in range(1, len(word)):
        option = table.shorts.get(word[at]) or _long(name, table, word[at], word)
        kind = table.arity[option]
        if kind:
            value = word[at + 1:]
            if kind == "=" and not value:
                if not args:
                    raise ValueError(f"the plan's entry gives {name!r} the option {word!r} "
                                     "without its value")
                return [*found, (option, args[0], 1)]
            return [*found, (option, value, 0)]
        found.append((option, "", 0))
    return found


def _long(name: str, table: Table, given: str, word: str) -> str:
    """The long option ``given`` names: exactly, or the one it is a unique prefix of."""
    if given in table.longs:
        return table.longs[given]
    if name == "gdb" and given in table.shorts:
        return table.shorts[given]
    found = {table.longs[n] for n in table.longs if n.startswith(given)} if given else set()
    if len(found) != 1:
        raise ValueError(f"the plan's entry gives {name!r} the option {word!r}, which "
                         f"{'is none of' if not found else 'abbreviates several of'} the "
                         f"options the gate reads for it, so what it runs where is not known")
    return found.pop()


def _shell_code(words: list[str]) -> list[str]:
    """A shell's code's words (``bash -c -- 'cd sub && make'``: bash reads its first operand
    after its options, ``-o`` values and ``--``, as the code), or ``words`` when it runs no
    ``-c`` code."""
    at, code = 1, False
    while at < len(words) and words[at][:1] in ("-", "+") and not _pattern(words[at]):
        if words[at] == "--":
            at += 1
            break
        if words[at] in _VALUED:  # (an interactive shell runs that file first: s49-greview2
            raise ValueError(f"the plan's entry runs {words[0]!r} with {words[at]!r}: a "
                             "start file the gate does not read")  # H1)
        code = code or takes_code(words[0], words[at])
        at += 2 if words[at] in _VALUED or (words[at][1:].isalpha() and
                                             words[at][-1] in "oO") else 1
    return words[at:] if code and at < len(words) else words


def runner_reads(region: list[str], word: str) -> bool:
    """Whether ``word`` stands in ``region``, a command's words before its program, only as a
    runner's name (found on ``PATH``), one of its options spelled whole, or the folder its
    option moves to (``env -C tools ./run.sh``): none names a path the runner writes (the cost
    review s43 P2c's rows pay where the program's folder is guarded: s48-greview S7)."""
    names: set[str] = set()
    folders: set[str] = set()
    for name in (n for n in region if n in _SPECS):
        table, chdir = _table(name), _SPECS[name][1]
        for given, option in [*(("-" + s, o) for s, o in table.shorts.items()),
                              *(("--" + n, o) for n, o in table.longs.items())]:
            names.add(given)
            if chdir and option == chdir:
                folders.add(given)
    return all(w == word and (w in RUNNERS or w in names or (at and region[at - 1] in folders))
               for at, w in enumerate(region) if word in w)


def _table(name: str) -> Table:
    """Runner ``name``'s option table (``_SPECS``), built the first time it is asked for."""
    return _TABLES.get(name) or _TABLES.setdefault(name, table_of(_SPECS[name][0]))
