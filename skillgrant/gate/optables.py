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
from typing import Final, NamedTuple

from .sedscript import sed_script_runs


class OptionDoubt(Exception):
    """The options of a command are not read here (the judge's ``Doubt``); says why."""


Doubt = OptionDoubt
#: A word's value once quotes are removed; for a pattern, None, or ``Head`` when each word
#: it may become starts with that text (``words.Word.head``).
Value = str | None


class Head(str):
    """The text every word a pattern may become starts with (not ``-``): an operand."""


#: Per program: its options, each ``x`` (a short one), ``name`` (a long one) or ``x/name``
#: (both), then ``=`` (takes a value), ``=?`` (an optional value, attached only) and ``!``
#: (runs a program, or reads a script or options from a file: a doubt).
_SPECS: Final = {
    "cp": "a/archive attributes-only backup=? b copy-contents d f/force i/interactive H "
          "l/link L/dereference n/no-clobber P/no-dereference p preserve=? no-preserve= "
          "parents R/recursive r/recursive reflink=? remove-destination sparse= "
          "strip-trailing-slashes s/symbolic-link S/suffix= t/target-directory= "
          "T/no-target-directory u/update=? v/verbose x/one-file-system Z context=? help "
          "version",
    "mv": "backup=? b f/force i/interactive n/no-clobber strip-trailing-slashes S/suffix= "
          "t/target-directory= T/no-target-directory u/update=? v/verbose Z/context help version",
    "rm": "f/force i I interactive=? one-file-system no-preserve-root preserve-root=? "
          "r/recursive R/recursive d/dir v/verbose help version",
    "rmdir": "ignore-fail-on-non-empty p/parents v/verbose help version",
    "ln": "backup=? b d/directory F/directory f/force i/interactive L/logical "
          "n/no-dereference P/physical r/relative s/symbolic S/suffix= t/target-directory= "
          "T/no-target-directory v/verbose help version",
    "install": "backup=? b c C/compare d/directory D g/group= m/mode= o/owner= "
               "p/preserve-timestamps s/strip strip-program=! S/suffix= t/target-directory= "
               "T/no-target-directory v/verbose preserve-context Z context=? help version",
    "chmod": "c/changes f/silent quiet v/verbose no-preserve-root preserve-root reference= "
             "R/recursive help version",
    "chown": "c/changes f/silent quiet v/verbose dereference h/no-dereference from= "
             "no-preserve-root preserve-root reference= R/recursive H L P help version",
    "shred": "f/force n/iterations= random-source= s/size= u remove=? v/verbose x/exact "
             "z/zero help version",
    "unlink": "help version",
    "mkdir": "m/mode= p/parents v/verbose Z context=? help version",
    "touch": "a c/no-create d/date= f h/no-dereference m r/reference= t= time= help version",
    "truncate": "c/no-create o/io-blocks r/reference= s/size= help version",
    "tee": "a/append i/ignore-interrupts p output-error=? help version",
    "split": "a/suffix-length= additional-suffix= b/bytes= C/line-bytes= d "
             "numeric-suffixes=? x hex-suffixes=? e/elide-empty-files filter=! l/lines= "
             "n/number= t/separator= u/unbuffered verbose help version",
    "csplit": "b/suffix-format= f/prefix= k/keep-files suppress-matched n/digits= s/quiet "
              "silent z/elide-empty-files help version",
    "sort": "b/ignore-leading-blanks d/dictionary-order f/ignore-case "
            "g/general-numeric-sort i/ignore-nonprinting M/month-sort h/human-numeric-sort "
            "n/numeric-sort R/random-sort random-source= r/reverse sort= V/version-sort "
            "batch-size= c check=? C compress-program=! debug files0-from= k/key= m/merge "
            "o/output= s/stable S/buffer-size= t/field-separator= T/temporary-directory= "
            "parallel= u/unique z/zero-terminated help version",
    "uniq": "c/count d/repeated D all-repeated=? f/skip-fields= group=? i/ignore-case "
            "s/skip-chars= u/unique z/zero-terminated w/check-chars= help version",
    "sed": "n/quiet silent debug e/expression= f/file=! follow-symlinks i/in-place=? "
           "l/line-length= posix E/regexp-extended r s/separate sandbox u/unbuffered "
           "z/null-data help version",
    "tar": "A/catenate concatenate c/create delete d/diff compare r/append test-label t/list "
           "u/update x/extract get check-device g/listed-incremental= G/incremental "
           "hole-detection= ignore-failed-read level= no-check-device no-seek n/seek "
           "occurrence=? sparse-version= S/sparse add-file= C/directory= exclude= "
           "exclude-backups exclude-caches exclude-caches-all exclude-caches-under "
           "exclude-ignore= exclude-ignore-recursive= exclude-tag= exclude-tag-all= "
           "exclude-tag-under= exclude-vcs exclude-vcs-ignores no-null no-recursion "
           "no-unquote no-verbatim-files-from null recursion T/files-from= unquote "
           "verbatim-files-from X/exclude-from= anchored ignore-case no-anchored "
           "no-ignore-case no-wildcards no-wildcards-match-slash wildcards "
           "wildcards-match-slash keep-directory-symlink keep-newer-files k/keep-old-files "
           "no-overwrite-dir one-top-level=? overwrite overwrite-dir recursive-unlink "
           "remove-files skip-old-files U/unlink-first W/verify ignore-command-error "
           "no-ignore-command-error O/to-stdout to-command=! atime-preserve=? clamp-mtime "
           "delay-directory-restore group= group-map= mode= mtime= m/touch "
           "no-delay-directory-restore no-same-owner no-same-permissions numeric-owner "
           "owner= owner-map= p/preserve-permissions same-permissions same-owner sort= "
           "s/preserve-order same-order acls no-acls no-selinux no-xattrs selinux xattrs "
           "xattrs-exclude= xattrs-include= force-local f/file= F/info-script=! "
           "new-volume-script=! L/tape-length= M/multi-volume rmt-command=! rsh-command=! "
           "volno-file= b/blocking-factor= B/read-full-records i/ignore-zeros record-size= "
           "H/format= old-archive portability pax-option= posix V/label= a/auto-compress "
           "I/use-compress-program=! j/bzip2 J/xz lzip lzma lzop no-auto-compress zstd "
           "z/gzip gunzip ungzip Z/compress uncompress backup=? hard-dereference "
           "h/dereference K/starting-file= newer-mtime= N/newer= after-date= "
           "one-file-system P/absolute-names suffix= strip-components= transform= xform= "
           "checkpoint=? checkpoint-action=! full-time index-file= l/check-links "
           "no-quote-chars= quote-chars= quoting-style= R/block-number show-defaults "
           "show-omitted-dirs show-snapshot-field-ranges show-transformed-names "
           "show-stored-names totals=? utc v/verbose warning= w/interactive confirmation o "
           "help restrict usage version",
    "gzip": "c/stdout d/decompress f/force h/help k/keep l/list L/license n/no-name N/name "
            "q/quiet r/recursive rsyncable S/suffix= synchronous t/test v/verbose V/version "
            "1/fast 2 3 4 5 6 7 8 9/best",
    # `-O`/`--open-files-in-pager` runs a pager the command names (review G-5)
    "git grep": "cached no-index untracked exclude-standard recurse-submodules v/invert-match "
                "i/ignore-case w/word-regexp a/text I textconv r/recursive max-depth= "
                "E/extended-regexp G/basic-regexp F/fixed-strings P/perl-regexp n/line-number "
                "column h H full-name l/files-with-matches name-only L/files-without-match "
                "z/null o/only-matching c/count color=? break heading C/context= "
                "B/before-context= A/after-context= threads= p/show-function "
                "W/function-context f= e= and or not q/quiet all-match "
                "O/open-files-in-pager=?! ext-grep m/max-count= 0 1 2 3 4 5 6 7 8 9",
    # read with `-safe` first (sqlite3 runs `-cmd` before a later `-safe`; review G-17)
    "sqlite3": "ascii bail batch box column csv echo header noheader html json line list "
               "markdown quote readonly safe table tabs nofollow separator= newline= "
               "nullvalue= version help",
}
#: Programs read under another program's table.
_SAME: Final = {"gunzip": "gzip", "chgrp": "chown", "gtar": "tar"}


class Table(NamedTuple):
    """A program's options: short letters and long names, each to its canonical name; the
    arity of each canonical name (``""``, ``"="``, ``"=?"``); and those that run a program."""

    shorts: dict[str, str]
    longs: dict[str, str]
    arity: dict[str, str]
    runs: frozenset[str]


def _table(spec: str) -> Table:
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


TABLES: Final = {name: _table(spec) for name, spec in _SPECS.items()}
TABLES.update({alias: TABLES[name] for alias, name in _SAME.items()})
#: Programs in ``writers``' lists with no table here, and ``ssh``: any option word is unknown.
UNTABLED: Final = frozenset({
    "rsync", "ditto", "scp", "rclone", "setfacl", "dd", "rename", "prename", "bzip2",
    "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "curl", "zip", "xxd", "iconv", "sponge",
    "openssl", "pandoc", "magick", "convert", "ffmpeg", "ssh-keygen", "gpg", "unzip", "7z",
    "7za", "7zr", "unrar", "cpio", "pax", "ar", "patch", "bsdtar", "wget", "bsdcpio",
    "uudecode", "jar", "unar", "aunpack", "atool", "dtrx", "unsquashfs", "dpkg-deb",
    # runs a program here through its options (`-o ProxyCommand=…`, `-o LocalCommand=…`)
    "ssh", "sftp"})
#: The program names ``check_options`` looks at.
READ: Final = frozenset(TABLES) | UNTABLED | {"git"}


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


def _git_grep(args: list[Value]) -> list[Value] | None:
    """The words after ``grep`` when ``args`` (git's words) run ``git grep``; None for another
    subcommand. Doubt for an option of git's own that is not in ``_GIT_OWN``."""
    i = 0
    while i < len(args):
        value = args[i]
        if value is None or isinstance(value, Head):
            raise Doubt("a word of 'git' is an expansion or a pattern where its subcommand "
                        "or an option may stand (it may be 'grep -O')")
        if not value.startswith("-"):
            return args[i + 1:] if value == "grep" else None
        name = value.split("=", 1)[0] if value.startswith("--namespace=") else value
        if name not in _GIT_OWN:
            raise Doubt(f"git is given {value!r} before its subcommand, which is none of the "
                        "options the gate reads there (-c, --config-env, --git-dir, "
                        "--work-tree, --exec-path= may make it run any program)")
        i += 2 if _GIT_OWN[name] and name == value else 1
    return None


def _git_negated(args: list[Value]) -> list[Value]:
    """git's parse-options reads ``--no-NAME`` as NAME switched off (ran nothing), and
    ``-NUM`` as ``-C NUM``: those words dropped, once read."""
    table = TABLES["git grep"]
    kept: list[Value] = []
    for i, value in enumerate(args):
        if value == "--":
            return kept + args[i:]
        if value and value.startswith("--no-") and value[2:] not in table.longs:
            _long("git grep", table, value[5:].partition("=")[0])
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
    if program == "git":
        found = _git_grep(args)
        if found is None:
            return  # git's other subcommands: writers.py and the judge read them
        program, args = "git grep", _git_negated(found)
    if program in UNTABLED:
        _no_options(program, args)
        return
    table = TABLES[program]
    read = read_options(program, table, _as_read(program, args))
    for name, _ in read.options:
        if name in table.runs:
            raise Doubt(f"{program!r}'s option {name!r} runs a program the command names, or "
                        "reads what to do from a file the gate does not read")
    if program == "sed":
        scripts = [v for n, v in read.options if n == "expression"] or read.operands[:1]
        if None in scripts or sed_script_runs("\n".join(s or "" for s in scripts)):
            raise Doubt("'sed' is given a script that runs a program (its 'e' command or "
                        "flag), or one the gate does not read")


def _no_options(program: str, args: list[Value]) -> None:
    for value in args:
        if value == "--":
            return
        if value is None or (value.startswith("-") and value != "-"):
            raise Doubt(f"{program!r} writes files, and the gate reads none of its options "
                        f"(given {value or 'an expansion'!r})")


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
        return ["-" + v if v and v.startswith("-") and not v.startswith("--") and len(v) > 2
                else v for v in args]
    return args
