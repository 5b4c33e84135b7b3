"""The options of programs that write files or may run others, read as the programs read them
(issue 29, reviews G-16b, G-17, G-19, G-5): an ALLOW-list, not a list of dangerous options.

A deny-list of options (``tar -I``, ``sort --compress-program``) misses the next one
(``install --strip-program``, ``split --filter``) and every GNU abbreviation of the ones it
holds (``--compress-prog=``, ``--checkpoint-act=``). So for each program in ``TABLES`` the
gate holds the whole table of the options it understands, as the program's own ``--help``
lists them (GNU coreutils 9.1, sed 4.9, tar 1.34, gzip 1.12, git 2.39, SQLite 3.40), and
reads a command's words with ``getopt_long``'s rules: a long option by its exact name or by an
unambiguous prefix, its value after ``=`` or in the next word; clustered short options, a
value taking the rest of the cluster or the next word; ``--`` ends the options. A word it
cannot read as one of them (an unknown or ambiguous option, or a pattern that may expand to
one) is a doubt: the call is not decided as covered. An option the table marks ``!`` runs a
program the command names, or reads what to do from a file the gate does not read: a doubt too.

``read_options`` answers the options found (canonical names: the long one when there is one)
and the operands; ``check_options`` raises for the programs with a table and for the writers
without one (``UNTABLED``: any option word is unknown), and checks ``sed``'s script
(``sedscript``) and ``sqlite3``'s safe mode.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..records import NamedTuple
from .optspecs import GIT_RUNNING, SAME, SPECS, UNTABLED
from .wrapped import lists_only

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


class OptionDoubt(Exception):
    """The options of a command are not read here (the judge's ``Doubt``); says why."""


Doubt = OptionDoubt
#: A word's value once quotes are removed; for a pattern, None, or ``Head`` when each word
#: it may become starts with that text (``words.Word.head``).
Value = str | None


class Head(str):
    """The text every word a pattern may become starts with (not ``-``): an operand."""


class Table(NamedTuple):
    """A program's options: short letters and long names, each to its canonical name; the
    arity of each canonical name (``""``, ``"="``, ``"=?"``); and those that run a program."""

    shorts: dict[str, str]
    longs: dict[str, str]
    arity: dict[str, str]
    runs: frozenset[str]


def table_of(spec: str) -> Table:
    shorts, longs, arity, runs = {}, {}, {}, set()
    for item in spec.split():
        if item.endswith("!"):
            item = item[:-1]
            runs.add(item.split("=")[0].split("/")[-1])
        names, _, kind = item.partition("=")
        kind = "=" + kind if _ else ""
        short, _, long = names.rpartition("/") if "/" in names else (
            (names, "", "") if len(names) == 1 else ("", "", names))
        canonical = long or short
        arity[canonical] = kind
        if short:
            shorts[short] = canonical
        if long:
            longs[long] = canonical
    return Table(shorts, longs, arity, frozenset(runs))


class _Tables(dict[str, Table]):
    """Each program's table (``SPECS``, its aliases ``SAME``), built the first time it is
    asked for: the hook decides one call and needs one table or none."""

    def __contains__(self, name: object) -> bool:
        return name in SPECS or name in SAME

    def __missing__(self, name: str) -> Table:
        table = self[name] = table_of(SPECS[SAME.get(name, name)])
        return table


TABLES: Final = _Tables()
#: The names ``TABLES`` holds (its ``in``, without a call of it).
_TABLED: Final = frozenset(SPECS) | frozenset(SAME)
#: The program names ``check_options`` looks at.
READ: Final = frozenset(SPECS) | frozenset(SAME) | UNTABLED | {"git", "gh"}


class Read(NamedTuple):
    """What ``read_options`` found: each option (canonical name, and its value: ``""`` for
    none, None for a pattern), in order, and the operands (None: a pattern after ``--``)."""

    options: list[tuple[str, Value]]
    operands: list[Value]


def _long(program: str, table: Table, name: str) -> str:
    """The canonical option a long option's name ``name`` stands for, as getopt_long reads
    it: the exact name, else the one option it is a prefix of."""
    if name in table.longs:
        return table.longs[name]
    found = {table.longs[n] for n in table.longs if n.startswith(name)} if name else set()
    if len(found) != 1:
        raise Doubt(f"{program!r} is given the option '--{name}', which "
                    f"{'is none of the options' if not found else 'abbreviates several options'}"
                    " the gate reads for it (an allow-list)")
    return found.pop()


def read_options(program: str, table: Table, words: Sequence[Value]) -> Read:
    """The options and operands of ``words`` (after the program's name) as ``program`` reads
    them with ``table``; Doubt for a word that is no option of the table, or a pattern where
    an option may stand (it may expand to one)."""
    options: list[tuple[str, Value]] = []
    operands: list[Value] = []
    i = 0
    while i < len(words):
        value, i = words[i], i + 1
        if value is None:
            raise Doubt(f"a word of {program!r} is an expansion or a pattern, which may "
                        "stand for an option the gate does not read")
        if isinstance(value, Head) or value == "-" or not value.startswith("-"):
            operands.append(None if isinstance(value, Head) else value)
        elif value == "--":
            operands += words[i:]
            break
        else:
            reader = _long_option if value.startswith("--") else _short_options
            i = reader(program, table, value, words, i, options)
    return Read(options, operands)


def _long_option(program: str, table: Table, value: str, words: Sequence[Value], i: int,
                 options: list[tuple[str, Value]]) -> int:
    """Read the long option ``value`` into ``options``; the index of the word after it."""
    name, eq, attached = value[2:].partition("=")
    canonical = _long(program, table, name)
    kind = table.arity[canonical]
    found: Value = attached
    if kind == "=" and not eq:
        found, i = (words[i] if i < len(words) else ""), i + 1
    elif not kind and eq:
        raise Doubt(f"{program!r}'s option {value!r} takes no value")
    options.append((canonical, found))
    return i


def _short_options(program: str, table: Table, value: str, words: Sequence[Value], i: int,
                   options: list[tuple[str, Value]]) -> int:
    """Read the cluster of short options ``value`` into ``options``; the index of the word
    after it (and after the value of its last option, when that is the next word)."""
    for j in range(1, len(value)):
        canonical = table.shorts.get(value[j])
        if canonical is None:
            raise Doubt(f"{program!r} is given the option '-{value[j]}' (in {value!r}), which "
                        "is none of the options the gate reads for it (an allow-list)")
        kind = table.arity[canonical]
        if kind:
            found: Value = value[j + 1:]
            if kind == "=" and not found:
                found, i = (words[i] if i < len(words) else ""), i + 1
            options.append((canonical, found))
            return i
        options.append((canonical, ""))
    return i


#: git's own options (before its subcommand), read exactly (git takes no abbreviation there):
#: each to whether it takes the next word as its value. ``-c``, ``--config-env``,
#: ``--git-dir``, ``--work-tree`` and ``--exec-path=`` are not here: they set configuration
#: (``core.fsmonitor``, ``core.hooksPath``, ``alias.x=!cmd``), a repository or the programs
#: git runs, so any git command may run a program of the call's choosing.
_GIT_OWN: Final = {"-C": True, "--namespace": True, "-p": False, "--paginate": False,
                   "-P": False, "--no-pager": False, "--no-replace-objects": False,
                   "--no-lazy-fetch": False, "--no-optional-locks": False, "--no-advice": False,
                   "--bare": False, "--literal-pathspecs": False, "--glob-pathspecs": False,
                   "--noglob-pathspecs": False, "--icase-pathspecs": False, "--exec-path": False,
                   "--html-path": False, "--man-path": False, "--info-path": False,
                   "-v": False, "--version": False, "-h": False, "--help": False}


def _git_subcommand(args: list[Value]) -> tuple[str, list[Value]] | None:
    """git's subcommand in ``args`` (git's words) and the words after it; None when there is
    none. Doubt for an option of git's own that is not in ``_GIT_OWN``."""
    i = 0
    while i < len(args):
        value = args[i]
        if value is None or isinstance(value, Head):
            raise Doubt("a word of 'git' is an expansion or a pattern where its subcommand "
                        "or an option may stand (it may be 'grep -O')")
        if not value.startswith("-"):
            return value, args[i + 1:]
        name = value.split("=", 1)[0] if value.startswith("--namespace=") else value
        if name not in _GIT_OWN:
            raise Doubt(f"git is given {value!r} before its subcommand, which is none of the "
                        "options the gate reads there (-c, --config-env, --git-dir, "
                        "--work-tree, --exec-path= may make it run any program)")
        i += 2 if _GIT_OWN[name] and name == value else 1
    return None


#: git's subcommands that run the command after a word of theirs.
_GIT_RUNS: Final = {"bisect": "run", "submodule": "foreach"}


def _git_args(args: list[Value]) -> tuple[str, list[Value]] | None:
    """The table to read git's command with (``git X``) and the words to read, or None when
    git's subcommand runs no program the call names whatever its options (not in
    ``GIT_RUNNING``)."""
    first = args[0] if args else None
    if type(first) is str and first[:1] != "-" and "git " + first in _TABLED:
        return "git " + first, _git_negated("git " + first, args[1:])  # (``_git_subcommand``'s
    found = _git_subcommand(args)  # first word, at once)
    if found is None:
        return None
    sub, rest = found
    name = "git " + sub
    if name in _TABLED:
        return name, _git_negated(name, rest)
    if sub in GIT_RUNNING:
        raise Doubt(f"git's subcommand {sub!r} runs a program its words, its options or its "
                    "helpers name")
    if sub in _GIT_RUNS and _GIT_RUNS[sub] in rest:
        raise Doubt(f"'git {sub} {_GIT_RUNS[sub]}' runs the command after it")
    return None


def _git_negated(name: str, args: list[Value]) -> list[Value]:
    """git's parse-options reads ``--no-NAME`` as NAME switched off (ran nothing): those words
    dropped, once read. (Words joined by NULs: one starting with ``--no-`` stands after a
    NUL, whatever they hold; without one, they are kept as they are.)"""
    try:
        if "\x00--no-" not in "\x00" + "\x00".join(args):  # type: ignore[arg-type]
            return args
    except TypeError:  # a pattern (None): read one by one
        pass
    table = TABLES[name]
    kept: list[Value] = []
    for i, value in enumerate(args):
        if value == "--":
            return kept + args[i:]
        if value and value.startswith("--no-") and value[2:] not in table.longs:
            _long(name, table, value[5:].partition("=")[0])
            continue
        kept.append(value)
    return kept


def check_options(program: str, values: list[Value]) -> None:
    """Raise OptionDoubt unless the command whose word values are ``values`` (led by
    ``program``, wrappers removed; None for a pattern) gives its program only options the gate
    reads, none of which runs a program (``TABLES``), and, for a writer with no table
    (``UNTABLED``), no option at all; for ``sed``, a script that runs nothing, and for
    ``sqlite3``, its safe mode."""
    args = values[1:]
    if program == "gh":
        _gh_clone(args)
        return
    if program == "git":
        found = _git_args(args)
        if found is None:
            return  # git's other subcommands: writers.py and the judge read them
        program, args = found
    if program in UNTABLED:
        _no_options(program, args)
        return
    table = TABLES[program]
    read = read_options(program, table, _as_read(program, args))
    for name, _ in read.options:
        if name in table.runs:
            raise Doubt(f"{program!r}'s option {name!r} runs a program the command names, or "
                        "reads what to do from a file the gate does not read")
    if program in _GIT_REMOTE:
        _git_remote(program, read.operands)
    if program == "sed":
        from .sedscript import sed_script_runs  # loaded for a sed command only

        scripts = [v for n, v in read.options if n == "expression"] or read.operands[:1]
        if None in scripts or sed_script_runs("\n".join(s or "" for s in scripts)):
            raise Doubt("'sed' is given a script that runs a program (its 'e' command or "
                        "flag), writes a file it names ('w'), or one the gate does not read")


def _gh_clone(args: list[Value]) -> None:
    """Doubt when ``gh repo clone``, ``gh gist clone`` or ``gh repo fork --clone`` hands
    ``git clone`` options after ``--`` that run a program or write its hooks (``--upload-pack``,
    ``-c``, ``--template``, ``--separate-git-dir``: review s45 G3), or an option the git clone
    table does not hold; or a pattern, which may split into ``--`` and such options."""
    cut = args.index("--") if "--" in args else len(args)
    if not any(v is not None and (v == "clone" or v.startswith("--clone")) for v in args[:cut]):
        return
    if None in args or isinstance(args[-1] if args else "", Head):
        raise Doubt("'gh' clones with a pattern in its words, which may hand git clone options")
    if cut < len(args):
        read = read_options("git clone", TABLES["git clone"], args[cut + 1:])
        for name, _ in read.options:
            if name in TABLES["git clone"].runs or name in ("template", "separate-git-dir"):
                raise Doubt(f"'gh' hands git clone the option {name!r}, which runs a program "
                            "or writes the new repository's hooks")


#: git's subcommands whose first operand is a repository, which may be a local folder.
_GIT_REMOTE: Final = frozenset({"git fetch", "git pull", "git push", "git ls-remote",
                                "git clone"})


def _git_remote(program: str, operands: list[Value]) -> None:
    """Doubt when git's repository operand is a local folder spelled as one (``.``, ``..``,
    a path with ``/`` but not a URL): git runs that repository's hooks (``pre-receive``) and
    its configured programs (review H-1). A remote's name stays read as one."""
    first = operands[0] if operands else None
    if first is None and operands:
        raise Doubt(f"{program!r} is given a pattern as its repository")
    if first and (first in (".", "..") or first.startswith("file:") or (
            "/" in first and "://" not in first and ":" not in first.split("/", 1)[0])):
        raise Doubt(f"{program!r} is given the local repository {first!r}, whose hooks and "
                    "configuration git runs")


def _no_options(program: str, args: list[Value]) -> None:
    if program == "unzip" and lists_only(args):
        return  # (`unzip -l a.zip`: a listing, issue 29's cost)
    for value in args:
        if value == "--":
            return
        if value is None or (value.startswith("-") and value != "-"):
            raise Doubt(f"{program!r} writes files, and the gate reads none of its options "
                        f"(given {value or 'an expansion'!r})")


def _sqlite_operands(args: list[Value]) -> None:
    """Doubt unless sqlite3's operands are a database and SQL: a dot-command (``.trace FILE``
    writes any file in safe mode too: review H-13), or no SQL (the commands come from its
    input, which the gate does not read), is not read."""
    operands = [v for v in args if v is None or not v.startswith("-")]
    if len(operands) < 2 or any(v is None or v.lstrip().startswith(".") for v in operands[1:]):
        raise Doubt("'sqlite3' is given a dot-command, or reads its commands from its input "
                    "(no SQL in its words): safe mode still writes a file '.trace' names")


def _as_read(program: str, args: list[Value]) -> list[Value]:
    """``args`` as ``read_options`` reads them: tar's first word without a dash is a cluster
    (``tar xf a.tar``); sqlite3 reads ``-opt`` as ``--opt``, after ``-safe`` first."""
    first = args[0] if args else None
    if program in ("tar", "gtar"):
        if isinstance(first, Head):
            raise Doubt("tar's first word is a pattern, which tar may read as its options")
        if first and not first.startswith("-"):  # the old style, `tar cfI a.tar prog`:
            rest, out = list(args[1:]), list[Value]()  # a letter's value is the next word
            for letter in first:
                canonical = TABLES["tar"].shorts.get(letter)
                out.append("-" + letter)
                if canonical is not None and TABLES["tar"].arity[canonical] == "=" and rest:
                    out.append(rest.pop(0))
            return out + rest
    if program == "sqlite3":
        if first not in ("-safe", "--safe"):
            raise Doubt("'sqlite3' runs shell commands from its words or its input ('.shell', "
                        "'.system') unless '-safe' is its first option")
        _sqlite_operands(args)
        return ["-" + v if v and v.startswith("-") and not v.startswith("--") and len(v) > 2
                else v for v in args]
    return args
