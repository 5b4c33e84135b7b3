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

from .optables import Table, table_of
from .planpaths import family, takes_code
from .wrapped import WRAPPERS

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
}
#: Per runner, the options that move the program out of every folder the gate reads (a new
#: root, another process's mount namespace, a login shell's home), which refuse the entry.
_REFUSED: dict[str, frozenset[str]] = {
    "unshare": frozenset({"root"}), "nsenter": frozenset({"root", "mount", "target", "all"}),
    "sudo": frozenset({"login", "chroot"})}
#: Per runner, the options under which it runs no program (its operands are processes), and
#: how many operands come before the program's name (a mask, a priority, a lock file).
_NO_PROGRAM: dict[str, frozenset[str]] = {
    "taskset": frozenset({"pid"}), "ionice": frozenset({"pid", "pgid", "uid"}),
    "chrt": frozenset({"pid"}), "prlimit": frozenset({"pid"}),
    "sudo": frozenset({"edit", "list", "validate", "help", "version"})}
_LEADING: dict[str, int] = {"taskset": 1, "chrt": 1, "flock": 1}
_TABLES: dict[str, Table] = {}
#: A shell's long options taking the next word as their value (``-o``/``-O`` clusters too).
_VALUED = frozenset({"--rcfile", "--init-file"})


def entry_run(words: list[str]) -> tuple[str | None, list[str]]:
    """The folder (joined, relative to the call's; None: none) the runners and wrappers
    leading ``words`` move their program into, and the words of the program they run
    (``words`` itself when none leads). ValueError for a runner's option it cannot read."""
    moved: str | None = None
    while words:
        if words[0] in _SPECS:
            folder, inner = _runner(words[0], words[1:])
            if folder is not None:
                moved = folder if moved is None or folder[:1] == "/" else f"{moved}/{folder}"
            if words[0] == "gdb":
                break  # (its words stay: what each names, as a runner's, planprograms)
            words = inner
        elif words[0] in WRAPPERS:
            from .words import Word, strip_wrappers

            inside, stripped = strip_wrappers([Word(w) for w in words])
            if not stripped:
                break
            words = [w.value or "" for w in inside]
        else:
            break
    if words and family(words[0]) == "shell":
        words = _shell_code(words)
    return moved, words


def _runner(name: str, args: list[str]) -> tuple[str | None, list[str]]:
    """The folder runner ``name`` moves to and the words it runs, from its ``args``."""
    spec, chdir, split, rest = _SPECS[name]
    table = _TABLES.get(name) or _TABLES.setdefault(name, table_of(spec))
    folder: str | None = None
    args = list(args)
    while args and args[0][:1] == "-" and args[0] != "-" and not _pattern(args[0]):
        word = args.pop(0)
        if word == "--":
            break
        for option, value, taken in _options(name, table, word, args):
            del args[:taken]
            if option in _REFUSED.get(name, ()) or (option == chdir and not value):
                raise ValueError(f"the plan's entry runs {name!r} with {word!r}: another "
                                 "root, namespace or folder, whose files the gate does not read")
            if option in _NO_PROGRAM.get(name, ()):
                return folder, []
            if option == chdir:
                folder = value
            elif option == split and split:
                args[:0] = value.split()
            elif option == rest and rest:
                return folder, args
    return folder, _operands(name, args)


def _operands(name: str, args: list[str]) -> list[str]:
    """The program's words in runner ``name``'s operands ``args``: env's and sudo's past ``-``
    and their assignments; past a mask, a priority, flock's lock file (and its ``-c``)."""
    if name in ("env", "sudo"):
        args = args[1:] if args[:1] == ["-"] and name == "env" else args
        while args and "=" in args[0] and args[0][:1] not in ("=", "-"):
            args.pop(0)
    args = args[_LEADING.get(name, 0):]
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
        code = code or takes_code(words[0], words[at])
        at += 2 if words[at] in _VALUED or (words[at][1:].isalpha() and
                                             words[at][-1] in "oO") else 1
    return words[at:] if code and at < len(words) else words
