"""The paths a C toolchain variable names, read as gcc reads them, wherever it is set (the
session's environment, a plan's entry, make's definitions, ``MAKEFLAGS``, a compiler's own
prefix options; review s52-greview2 R6d, s53-greview2 V; session 54), and the words of a few
other variables read word by word (``variable_words``: a makefile list, a command line).
The toolchain's: ``environment.FLAGS`` (the variables GNU make's built-in rules hand gcc, and
gcc's own), and any other named as the toolchain's (``toolchain``: ``EXTRA_CFLAGS``,
``KCFLAGS``, ``HOSTCC``, ``LIBS``, ``CROSS_COMPILE``: a Makefile hands them gcc), each word a
path: gcc reads a bare word there as a file (``@opts``, ``-include pre``, ``-B v``,
``CPATH=inc``). A prefix gcc puts before names (``-Bv``: ``vas``, ``vcc1``, …; ``-iprefix``)
or make before a program's name (``CROSS_COMPILE=./x-``) names no path unless it ends in
``/``: refused (``envpaths.session_paths``: every call is denied, saying so; an entry's: its
plan). Under ``skillgrant serve`` only ``FLAGS`` are compared (a header each); another name's
value is the service's own (``envpaths``' residual).
"""

from __future__ import annotations

from .environment import FLAGS

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def compiler(program: str) -> bool:
    """Whether ``program`` (a command's first word) is a C compiler driver taking gcc's
    options: ``gcc``, ``cc``, ``g++``, ``c++``, ``clang``, ``clang++``, a version's
    (``gcc-12``) or a target's (``x86_64-linux-gnu-gcc-12``); POSIX's ``c89``, ``c99`` and
    ``cpp`` (scripts running gcc, and gcc's preprocessor: s54-greview3 G1)."""
    base = program.rpartition("/")[2]
    base = base if base in ("c89", "c99") else base.rstrip("0123456789.").removesuffix("-")
    return base in ("cc", "c++", "clang", "clang++", "c89", "c99", "cpp") or base.endswith(
        ("gcc", "g++"))


def toolchain(name: str) -> bool:
    """Whether the session's variable ``name`` is the C toolchain's beside ``environment.
    FLAGS``: a part of it (between ``_``) ending in one of ``_FLAG_ENDS`` (``EXTRA_CFLAGS``,
    ``KCFLAGS``, ``CFLAGS_MODULE``, ``CPPFLAGS_FOR_BUILD``) or naming a compiler (``CC``,
    ``HOSTCC``, ``CC_FOR_BUILD``, ``CXX``), as kbuild and autoconf name theirs (s53-greview2
    V3, V4), the link line's ``LIBS`` (autoconf's: ``EXTRA_LIBS``, ``LIBS_FOR_BUILD``; V11) or
    a prefix of the programs' names (kbuild's ``CROSS_COMPILE``: V10); not another program's
    flags (``GOFLAGS``, ``RUSTFLAGS``: K5)."""
    return any(part.endswith(_FLAG_ENDS) or part.endswith("CC") or part in (
        "CXX", "CPP", "LIBS") for part in name.split("_")) or name.endswith(_NAME_PREFIXES)


#: The endings of a variable's part naming flags a Makefile hands gcc.
_FLAG_ENDS: Final = ("CFLAGS", "CPPFLAGS", "CXXFLAGS", "LDFLAGS", "ASFLAGS", "LDLIBS")


def prefix_in_kept(name: str, value: str, folder: str, kept: set[str], whose: str) -> None:
    """Raises ValueError where ``name`` holds a prefix of programs' names (``CROSS_COMPILE``,
    ``TOOLPREFIX``) and ``folder``, the folder its ``value`` names, is one of ``kept`` (a
    folder a call runs in, or above one): make runs any ``<prefix><name>`` a Makefile spells
    there (``gcc-12``, ``windres``: s55-greview2 G4), which neither a name nor the folder
    whole can guard (``whose``: the session's, a plan's entry's)."""
    if name.endswith(_NAME_PREFIXES) and folder in kept:
        raise ValueError(f"{whose} {name}={value!r} is a prefix of programs' names in a folder "
                         f"a call runs in or above it ({folder}): make runs any name a Makefile"
                         " spells after it there, which the gate cannot guard; put the "
                         "programs' folder on PATH and give the prefix without a '/'")


def toolchain_read(name: str, value: str) -> bool:
    """Whether the session's variable ``name`` (``value``) is read as the C toolchain's
    (``flag_words``): by its name, or by a gcc option naming a folder in its value under any
    name (a Makefile hands gcc ``$(INCLUDES)``, ``$(INC)``, ``$(OPT)``: automake's, a
    hand-written one's; s55-greview2 V1)."""
    return (name in FLAGS or toolchain(name) or gcc_options(value)) and name not in _MAKES


def gcc_options(value: str) -> bool:
    """Whether ``value`` holds a word starting as one of gcc's options naming a folder it
    reads (``-I.``, ``-B./``, ``-Lvendor`` with their folder attached, ``-isystem``,
    ``--sysroot``, ``-Wl,``…), read as a recipe's sh reads it (quotes and backslashes
    dropped: ``-""I.``, ``\\-I.``; s55-greview2 V1b)."""
    return "-" in value and any(w.startswith(_FOLDER_OPTIONS) and (
        len(w) > 2 or w[:2] not in ("-I", "-B", "-L")) for w in value.translate(
        _QUOTES).split())


#: The starts of gcc's options naming a folder it reads (``gcc_options``).
_FOLDER_OPTIONS: Final = ("-I", "-B", "-L", "-isystem", "-idirafter", "-iquote", "-iprefix",
                          "-iwithprefix", "-isysroot", "-iplugindir", "-include", "-imacros",
                          "--sysroot", "--include-d", "--library-d", "--pref", "-Wl,", "-Wp,",
                          "-Xlinker", "-Xpreprocessor")


def read_word_by_word(name: str, value: str = "") -> bool:
    """Whether the session's variable ``name`` (``value``) is read word by word
    (``variable_words``)."""
    return name in FLAGS or name in _FILES or name in _COMMANDS or toolchain(name) or \
        gcc_options(value)


def variable_words(name: str, value: str, readings: list[str]) -> list[str]:
    """The paths the session's variable ``name`` names word by word, beside ``envpaths.
    named_paths``' (``value`` read as ``readings``: its ``$NAME`` read): a toolchain's
    (``flag_words``); each word of a list of files (``MAKEFILES``: make reads each as a
    makefile, ``common`` too); each word after the program of a command line a program runs
    through a shell, its quotes dropped, split at ``=`` and ``,`` too, and a short option's
    attached value (``GIT_SSH_COMMAND='ssh -F sshcfg'``, ``ssh -Fsshcfg``: ssh reads
    ``sshcfg``, whose ``ProxyCommand`` runs; ``-o "ProxyCommand=sh cfg"``; an editor's ``vim
    -u vimrc``; s47-greview2 E1, s54-greview3 C1, C2)."""
    if name in _FILES:
        return [w for r in readings for w in r.split() if w not in (".", "..")]
    if name in _COMMANDS:  # (`-Fsshcfg`, `-o "ProxyCommand=sh cfg"`: s54-greview3 C1, C2)
        words = [w for r in readings for w in " ".join(r.translate(_QUOTES).split()[1:])
                 .translate(_SPLIT).split()]
        words += [w[k:] for w in words if w[:1] == "-" and w[1:2] != "-"  # (a cluster's
                  for k in range(2, len(w))]  # value follows any letter: `-qFsshcfg`)
        return [w for w in words if w not in (".", "..")]
    return flag_words(name, value, readings)


#: The session's variables whose every word is a file; those holding a command line (run
#: through a shell: git's ``GIT_SSH_COMMAND``, ``GIT_EXTERNAL_DIFF``, its editor and pager).
_FILES: Final = frozenset(("MAKEFILES",))
_COMMANDS: Final = frozenset(("GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_EDITOR", "EDITOR",
                              "VISUAL"))


def flag_words(name: str, value: str, readings: list[str]) -> list[str]:
    """The paths the session's variable ``name`` (one of ``environment.FLAGS``, or one
    ``toolchain`` names) names beside ``envpaths.named_paths``', its ``value`` read as
    ``readings`` (its ``$NAME`` read): every word (split at blanks, ``,``, ``:``, ``=``; a
    response file's ``@`` dropped) and an option's attached value (``-Iinc``: ``inc``), as
    the session's ``MAKEFLAGS`` definitions and an entry's own values are (``startvars``);
    none for make's
    own (``startflags`` reads them). Raises ValueError for a ``$`` (make reads it its own
    way: ``$Dx`` is ``$D`` then ``x``), and for a prefix of gcc's (``gcc_prefix``;
    ``GCC_EXEC_PREFIX`` is ``-B``'s value: gcc's manual) not ending in ``/`` (``-Bv`` runs
    ``vas`` where there is no folder ``v``: a prefix of names, no path)."""
    if name in _MAKES:
        return []
    if "$" in value:  # (make reads `$Dx` as `$D` then `x`, `$(X)` its own: V5)
        raise ValueError("a `$`, which make expands by its own syntax, not a shell's")
    readings = [*readings, *(r.translate(_QUOTES) for r in readings if r != r.translate(
        _QUOTES))]  # (make pastes a value into a recipe's line: sh drops `-"B"pre`'s quotes)
    if any("{" in r for r in readings):  # (a recipe bash runs expands `-I{inc,x}`: S1b)
        from .writers import braced

        readings += [f for r in readings if "{" in r for f in braced(r)]
    if name.endswith(_NAME_PREFIXES):  # (make runs `$(CROSS_COMPILE)gcc`: V10)
        return [w for reading in readings if "/" in reading for w in _prefixed(reading)]
    words: list[str] = []
    for reading in readings if name != "GCC_EXEC_PREFIX" else ["-B" + r for r in readings]:
        split = reading.split()  # (`-Wl,-Bstatic`: ld's, one word; `-B v/`: gcc's prefix)
        split += [p for w in split if w[:4] == "-Wp," for p in w.split(",")[1:]]  # (cc1's)
        for word, after in zip(split, [*split[1:], ""], strict=True):
            if word[:1] == "=" or word[:3] in ("-I=", "-L="):  # (a sysroot's: `-I=inc`, J1)
                raise ValueError(f"a folder {word!r} gcc reads below its sysroot, joined to "
                                 "it without a '/', which names no folder the gate can guard")
            prefix = gcc_prefix(word, after)
            if prefix is not None and prefix[-1:] != "/":
                raise ValueError(f"gcc's prefix {word!r} {after!r}, which names no folder "
                                 "the gate can guard (gcc runs `<prefix>as`; end it in '/')")
        if name in _PATH_LISTS and "" in reading.split(":"):  # (an empty element: gcc's
            words.append(".")  # prefix_from_string, ld.so read it as `./`: s54-greview3 D1)
        words += [w.lstrip("@") for w in " ".join(_file_words(split)).translate(_SPLIT).split()]
        words += [w[9:] + ".so" for w in split if w[:9] == "-fplugin=" and "/" not in w]  # (cc1
    words += [w[len(o):] for w in words for o in _ATTACHED if w.startswith(o)]  # (-isystem./)
    words += [w[2:] for w in words if w[:1] == "-" and w[1:2] != "-" and len(w) > 2]  # loads
    words += ["./" + w for w in words if w[:1] == "~"]  # `<-iplugindir>/p.so`: D1c; `-I~/inc`,
    return [w for w in words if w]  # `CPATH=~/inc`: gcc reads a folder `~`, T1)


def _file_words(split: list[str]) -> list[str]:
    """The words of ``split`` (a value's, split at blanks) but those of gcc's options naming
    no file it reads (a macro's ``-D NAME=VALUE``, ``-U``; a warning's ``-W…`` but ``-Wl,``,
    ``-Wp,``, ``-Wa,``; ``-O…``, ``-std=``, ``-m…``, a flag ``-f…`` without a value: a
    value may name a file or a program, ``-fplugin=p``, ``-fmodule-mapper=|w``; s54-greview3
    K2), with the value of ``-D``/``-U`` given apart."""
    kept: list[str] = []
    skip = False
    for word in split:
        if skip:
            skip = False
        elif word in ("-D", "-U"):
            skip = True
        elif not (word[:2] in ("-D", "-U", "-O", "-m") or word[:5] == "-std=" or (
                word[:2] == "-W" and word[:4] not in ("-Wl,", "-Wp,", "-Wa,")) or (
                word[:2] == "-f" and "=" not in word and not runs_code(word))):
            kept.append(word)
    return kept


def _prefixed(prefix: str) -> list[str]:
    """The folder the prefix of programs' names ``prefix`` (holding a ``/``) names (make runs
    ``<prefix>gcc``, ``<prefix>ld``, any name a Makefile spells after it there), guarded
    whole; refused where it is a folder a call runs in or above it (``prefix_in_kept``:
    s54-greview3 P1, P1b; s55-greview2 G4). (``/opt/tc/bin/aarch64-linux-gnu-``: its folder
    ``/opt/tc/bin/``, K1.)"""
    return [prefix.rpartition("/")[0] + "/"]


#: The quotes and backslash a shell drops from a recipe's words.
_QUOTES: Final = str.maketrans(dict.fromkeys("\"'\\", None))
#: The names of variables holding a prefix make puts before a program's name (kbuild's
#: ``CROSS_COMPILE``, xv6's ``TOOLPREFIX``).
_NAME_PREFIXES: Final = ("CROSS_COMPILE", "TOOLPREFIX")


#: gcc's long options taking a path attached (``-isystem./``, ``-idirafter.``: s55-greview2
#: S1), longest first.
_ATTACHED: Final = ("-iwithprefixbefore", "-iwithprefix", "-idirafter", "-isystem", "-isysroot",
                    "-iprefix", "-imultilib", "-imacros", "-iquote", "-include")
#: The variables holding a colon list of folders, whose empty element gcc and ld read as the
#: folder they run in.
_PATH_LISTS: Final = frozenset(("COMPILER_PATH", "LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH",
                                "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH", "LD_RUN_PATH"))
#: What splits a value into words beside white space (``startvars._words``' characters).
_SPLIT: Final = str.maketrans(dict.fromkeys(",:=", " "))


def runs_code(word: str) -> bool:
    """Whether gcc's option ``word`` names a file gcc or a program it runs loads or runs as
    code (beside ``gcc_prefix``'s): ``-wrapper`` (the program cc1 runs under), a plugin and its
    folder (``-fplugin=``, ``-iplugindir=``), a specs file (``-specs=``, ``--specs``), the
    linker's plugin and path (``-Wl,-plugin,…``, ``-Xlinker``, ``--ld-path=``, ``-fuse-ld=``;
    s54-greview3 G1)."""
    return word.startswith(_CODE_OPTIONS) or (word[:4] == "-Wl," and "plugin" in word)


#: gcc's options naming code it runs or loads (``runs_code``).
_CODE_OPTIONS: Final = ("-wrapper", "-fplugin", "-iplugindir", "-specs", "--specs", "-Xlinker",
                        "--ld-path", "-fuse-ld")


def gcc_prefix(word: str, after: str) -> str | None:
    """The prefix gcc 12 reads in ``word`` (``after``: the next word) and puts before names,
    or None: its programs' (``-B``, its long ``--prefix`` and gcc's abbreviations of it down to
    ``--pref``), its headers' folders' (``-iprefix``, ``--include-prefix`` to
    ``--include-p``: ``-iwithprefix inc`` is ``<prefix>inc``; s53-greview2 V1, V2)."""
    for short in ("-B", "-iprefix"):
        if word.startswith(short):
            return word[len(short):] or after
    name, equal, given = word.partition("=")
    if any(len(name) >= least and whole.startswith(name) for whole, least in _LONG_PREFIXES):
        return given if equal else after
    return None


#: gcc's long spellings of its prefix options, each with its shortest abbreviation's length.
_LONG_PREFIXES: Final = (("--prefix", 6), ("--include-prefix", 11))


#: make's own option variables (``startflags`` reads them), not read as gcc's options.
_MAKES: Final = frozenset(("MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS"))


def response_paths(paths: list[str], name: str, value: str, depth: int) -> list[str]:
    """The paths the response files of ``value`` (``@opts``, among its ``paths``: guarded
    whole, so read exactly) name as ``name``'s options (``-I.``; gcc reads them from its
    folder, the file's root here), those nested in them too (s62-greview G3). Raises
    ValueError for quoting or an escape in one (gcc's, not read) or past four levels."""
    import os

    from . import files as fs

    found: list[str] = []
    for word in (w for w in value.split() if w[:2] != "@@" and w[:1] == "@"):
        if depth > 3:
            raise ValueError(f"response files nested past four ({word!r})")
        tail = "/" + os.path.normpath(word[1:])
        for path in (p for p in paths if p.endswith(tail)):
            try:
                text = fs.read(path, (1 << 16) + 1).decode("utf-8", "replace")
            except OSError:
                continue
            if len(text) > 1 << 16:
                raise ValueError(f"a response file {path!r} past 64 KiB, which the gate does "
                                 "not read")
            if not text.split():
                continue
            if any(c in text for c in "'\"\\"):
                raise ValueError(f"a response file {path!r} quoting its options, which the "
                                 "gate does not read")
            root = path[:-len(tail)] or "/"
            more = [os.path.join(root, w) for w in flag_words(name, text, [text])]
            found += more + response_paths(more, name, text, depth + 1)
    return found
