"""The options of the interpreters and of make that move what they load at their start, read
as each program reads its own command line (issue 29, review s50-greview3 U1–U3): python's
``-X pycache_prefix=DIR`` in a cluster of its flags (CPython's ``getopt``: ``-BXpycache_
prefix=pc``), perl's module folders (``-Iinc``, ``-I inc``, ``-Mlib=a,b``, ``-mlib=a``, in
a cluster too: ``-wIinc``), the words of ``MAKEFLAGS``/``GNUMAKEFLAGS`` (make reads them as
its command line's: a variable definition ``MAKEFILES=mk``, ``-I DIR``), and a test runner's
options that make it import other files (``PYTEST_ADDOPTS``' too). Each answers the
start variable the option stands for (``PYTHONPYCACHEPREFIX``, ``PERL5LIB``), so that one
rule (``startvars.value_items``) reads the option and the variable alike; what cannot be read
exactly raises ValueError (the plan refused, naming it)."""

from __future__ import annotations

import os

from .flagpaths import compiler, gcc_prefix, runs_code

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: CPython's short options (``Modules/main.c``, ``Python/getopt.c``: ``bBc:dEhiIm:OPqRsStuvVW:
#: xX:?``): those taking a value (the rest of the word, or the next word), of which ``-c`` and
#: ``-m`` end the options (their value is the code or the module); the rest take none.
_PYTHON_VALUED: Final = frozenset("cmWX")
_PYTHON_LAST: Final = frozenset("cm")


def python_x_options(words: list[str]) -> list[tuple[str, str]]:
    """Each ``-X`` value among ``words`` read as CPython's ``getopt`` reads a cluster (any
    word of single-letter flags: ``-X v``, ``-Xv``, ``-BXv``, ``-BX v``), with the word that
    holds it; a cluster ends at a flag taking a value (``-W``, ``-c``'s code, ``-m``'s
    module). Read in every command (a wrapper's program may be python: ``uv run python``);
    only ``pycache_prefix`` is used."""
    found: list[tuple[str, str]] = []
    for at, word in enumerate(words):
        if word[:1] != "-" or word[:2] == "--":
            continue
        for k, char in enumerate(word[1:], 1):
            if char in _PYTHON_VALUED:
                if char == "X":  # (the word holding the value: this one, or the next)
                    spelled = word if word[k + 1:] else words[at + 1] if at + 1 < len(
                        words) else ""
                    found.append((word[k + 1:] or spelled, spelled))
                break
    return found


def python_assignments(words: list[str]) -> list[tuple[str, str]]:
    """``PYTHONPYCACHEPREFIX=DIR`` for each ``-X pycache_prefix=DIR`` among ``words``
    (``python_x_options``), with the word spelling it."""
    return [("PYTHONPYCACHEPREFIX=" + value[15:], word)
            for value, word in python_x_options(words) if value.startswith("pycache_prefix=")]


#: perl's switches taking the rest of their word as a value, or nothing (perlrun): ``-e``/
#: ``-E`` take the next word when the rest is empty; ``-0``, ``-l`` and ``-C`` take the digits
#: (letters) after them and the cluster goes on. ``-I`` takes the rest or the next word;
#: ``-M``/``-m`` the rest (a module and its import list).
_PERL_REST: Final = frozenset("iDdxVF")
_PERL_CODE: Final = frozenset("eE")


def perl_folders(words: list[str], program: bool) -> list[str]:
    """The module folders perl's switches among ``words`` put first on ``@INC`` (``-Iinc``,
    ``-I inc``, ``-Mlib=a,b``, ``-mlib=a``; in a cluster after other switches: ``-wIinc``), as
    perl reads its command line (``program``: ``words`` follow perl's name, so its switches
    end at the first word that is none: the script) or ``PERL5OPT`` (every word). Raises
    ValueError for ``-Mlib`` with an import list not of ``=`` (``-M'lib qw(inc)'``)."""
    found: list[str] = []
    at = 0
    while at < len(words):
        word = words[at]
        at += 1
        if word[:1] != "-" or len(word) < 2 or word == "--":
            if program:
                break
            continue
        folders, apart = _perl_cluster(word, words[at:at + 1])
        found += folders
        at += apart
    return [f for f in found if f]


def _perl_cluster(word: str, after: list[str]) -> tuple[list[str], int]:
    """The folders the cluster of perl's switches ``word`` names (``perl_folders``), and how
    many of the words ``after`` it its switches take (``-I inc``, ``-e CODE``: one)."""
    k = 1
    while k < len(word):
        char, rest = word[k], word[k + 1:]
        if char == "I":
            return ([rest], 0) if rest else (after, len(after))
        if char in "Mm":
            return _lib_list(rest), 0
        if char in _PERL_CODE:  # (its code: the next word when not attached)
            return [], 0 if rest else len(after)
        if char in _PERL_REST:
            break
        k += 1
        if char in "0l":  # (octal digits; `-0x…`: hex ones)
            digits = "0123456789abcdefABCDEF" if word[k:k + 1] == "x" else "01234567"
            k += digits[-1] == "F" and char == "0"
            while k < len(word) and word[k] in digits:
                k += 1
        elif char == "C":  # (digits, or its letters: `-CSDA`; -C's `I` is read as -I's)
            while k < len(word) and (word[k].isdigit() or word[k] in "OESDALaio"):
                k += 1
    return [], 0


def _lib_list(module: str) -> list[str]:
    """The folders ``-M<module>`` puts on ``@INC`` when the module is ``lib`` (``lib=a,b``:
    ``use lib split /,/, "a,b"``; ``-M-lib`` removes), ``blib``, or ``if`` loading one of them
    (``-Mif=1,lib,inc``); none for any other module (one naming ``lib`` in its list refuses)."""
    name, equal, listed = module.partition("=")
    if name.strip() == "lib" and equal:
        return listed.split(",")
    if name.strip() == "blib":  # (blib.pm: DIR's, or the folder's, `blib/lib`, `blib/arch`
        base = listed.removesuffix("blib") or "."  # of it or of 4 folders up: s51-greview
        return [base + "/" + "../" * k + "blib" for k in range(5)]  # G6)
    parts = listed.split(",")
    if name.strip() == "if" and len(parts) > 1:  # (`use if COND, MODULE => ARGS`: G16)
        return _lib_list(f"{parts[1]}={','.join(parts[2:])}" if parts[2:] else parts[1])
    if (name.split()[:1] in (["lib"], ["blib"]) and name.strip() not in ("lib", "blib")) or \
            {"lib", "blib"} & {p.strip() for p in parts}:  # (another module loading lib)
        raise ValueError(f"perl's -M{module} puts folders on @INC the gate does not read")
    return []


#: make's options (GNU make 4.3 ``--help``) that ``MAKEFLAGS`` may hold without moving what
#: make reads: no file, folder or text to evaluate (``-I``, ``--include-dir``, ``--eval``,
#: ``-E``, ``-f``, ``-C``, ``-o``, ``-W`` are not among them); the letters of a first word
#: without ``-`` (make's own form: ``ks``) are its single-letter flags.
_MAKE_LETTERS: Final = frozenset("BdeiknqrRsStvwL")
_MAKE_LONG: Final = frozenset((
    "--always-make", "--environment-overrides", "--ignore-errors", "--keep-going",
    "--just-print", "--dry-run", "--recon", "--question", "--no-builtin-rules",
    "--no-builtin-variables", "--silent", "--quiet", "--no-silent", "--no-keep-going",
    "--stop", "--touch", "--trace", "--print-directory", "--no-print-directory",
    "--warn-undefined-variables", "--check-symlink-times", "--print-data-base", "--debug",
    "--jobs", "--load-average", "--max-load", "--output-sync"))


def make_definitions(entry: str, value: str) -> list[str]:
    """The variable definitions (``N=v``) in ``MAKEFLAGS``'s (``GNUMAKEFLAGS``') ``value``,
    which make reads as its command line's (its variables, ``MAKEFILES``, ``SHELL`` among
    them). Raises ValueError for a word the gate does not read exactly: an option not in
    ``_MAKE_LONG``/``_MAKE_LETTERS`` (``-I DIR``: an include folder; ``--eval``), a
    backslash but one escaping a blank (``CFLAGS=-O2\\ -g``: make 4.3 reads ``-O2 -g``,
    s52-greview2 C1; ``\\\\``, ``\\x`` it reads otherwise)."""
    plain = value.replace("\\ ", "\0")
    if "\\" in plain:
        raise ValueError(f"the plan's entry {entry!r} gives make MAKEFLAGS={value!r}, whose "
                         "backslash make reads as an escape the gate does not read")
    found: list[str] = []
    for at, word in enumerate(w.replace("\0", " ") for w in plain.split()):
        if "=" in word and word[:1] != "-":
            found.append(word)
        elif word == "--" or word.isdigit() or word[:2] in ("-j", "-l", "-O"):
            continue  # (jobs, load, output sync: a number or a mode)
        elif word[:2] == "--":
            if word.split("=", 1)[0] not in _MAKE_LONG:
                raise ValueError(f"the plan's entry {entry!r} gives make the option {word!r} "
                                 "in MAKEFLAGS, which may move what make reads")
        elif not set(word.removeprefix("-")) <= _MAKE_LETTERS | set("jlO0123456789") or (
                word[:1] != "-" and at):
            raise ValueError(f"the plan's entry {entry!r} gives make {word!r} in MAKEFLAGS, "
                             "which make may read as an option moving what it reads")
    return found


#: What an assignment's name is for an env file a program loads (``--env-file=F``): no
#: variable's name (``startvars.value_items`` reads the file's).
ENV_FILE: Final = "--env-file"


def option_assignments(texts: list[str]) -> list[tuple[str, str]]:
    """The start variables the options among a command's words ``texts`` stand for, each
    with a word spelling it: python's ``-X pycache_prefix=DIR`` in any cluster as
    ``PYTHONPYCACHEPREFIX=DIR`` (s50-greview3 U2), perl's ``-Iinc``, ``-I inc``, ``-Mlib=inc``
    as ``PERL5LIB=inc`` (U1), node's ``--openssl-config=F`` as ``OPENSSL_CONF=F`` (s51-greview
    G7), an env file a program loads (``--env-file=F``: node's, bun's, deno's, uv's;
    ``ENV_FILE``, read by ``startvars``; E1), node's preloads by a package's name (``-r pre``,
    ``--import=pre``) as ``NODE_OPTIONS=-r pre`` (s51-greview G8: ``envpaths.preload_paths``
    reads where node finds it), and for a node named by its path (``px/bin/node``) its global
    folder ``px/lib/node`` as ``NODE_PATH`` (a folder require reads last; s52-greview2 R5b)."""
    pairs = python_assignments(texts)
    make = next((k for k, t in enumerate(texts) if os.path.basename(t) in ("make", "gmake")),
                len(texts))
    for word in texts[make + 1:]:  # (make's text read as a makefile's: s51-greview G11)
        if word.startswith("--eval") or (word[:1] == "-" and word[:2] != "--" and "E" in word):
            raise ValueError(f"a plan's entry gives make {word!r}: text make reads as a "
                             "makefile's (--eval, -E), which the gate does not read")
    perl = next((k for k, t in enumerate(texts) if os.path.basename(t).split(".")[0] in (
        "perl", "perl5")), -1)
    if perl >= 0:
        folders = perl_folders(texts[perl + 1:], True)
        after = texts[perl + 1:]  # (and its words naming them: `-Mlib=inc`, `-I inc`'s)
        pairs += [("PERL5LIB=" + ":".join(folders), t) for t in ("", *(
            a for k, a in enumerate(after) if a[:1] == "-" and "=" in a), *(
            f"{a} {after[k + 1]}" for k, a in enumerate(after[:-1]) if a[:1] == "-" and
            a[-1:] == "I")) if folders]
    pairs += _node_assignments(texts) + _compiler_assignments(texts)
    for k, text in enumerate(texts):
        if text.startswith("--openssl-config"):
            value = text.partition("=")[2] or (texts[k + 1] if k + 1 < len(texts) else "")
            pairs += [(f"OPENSSL_CONF={value}", text if "=" in text else "")]
        if text.startswith(ENV_FILE):  # (`--env-file-if-exists`; deno's bare: .env)
            value = text.partition("=")[2] or (texts[k + 1] if k + 1 < len(texts) and
                                               texts[k + 1][:1] != "-" else "")
            pairs += [(f"{ENV_FILE}={f}", "") for f in (value, ".env") if f]
    return pairs


def _compiler_assignments(texts: list[str]) -> list[tuple[str, str]]:
    """``option_assignments`` of a C compiler's prefixes on its command line (gcc's ``-Bv/``,
    ``-B pre``, ``--prefix=pre``, ``-iprefix pre``: ``flagpaths.gcc_prefix``) and the code it
    runs or loads (``-wrapper ./w``, ``-fplugin=p``: ``flagpaths.runs_code``) as ``CFLAGS``,
    read as its value is (``flagpaths.flag_words``: a prefix not ending in ``/`` refused;
    s53-greview2 V7)."""
    rest = texts[next((k for k, t in enumerate(texts) if compiler(t)), len(texts)) + 1:]
    pairs: list[tuple[str, str]] = []
    for word, after in zip(rest, [*rest[1:], ""], strict=False):
        prefix = gcc_prefix(word, after)
        if prefix is not None or runs_code(word):
            apart = prefix == after if prefix is not None else word in _APART
            spelled = f"{word} {after}" if apart else word
            pairs.append((f"CFLAGS={spelled}", spelled))
    return pairs


#: gcc's code options taking their value as the next word (``flagpaths.runs_code``).
_APART: Final = frozenset(("-wrapper", "-Xlinker", "--specs"))


def _node_assignments(texts: list[str]) -> list[tuple[str, str]]:
    """``option_assignments`` of node's preloads (``-r pre``, ``-r ./lib/pre``: its folder's
    ``main`` too, s52-greview2 R12) and npm's ``--node-options`` (its scripts' NODE_OPTIONS:
    R8) as ``NODE_OPTIONS``, and for a node named by its path preloading one its global
    folder as ``NODE_PATH`` (R5b)."""
    pairs: list[tuple[str, str]] = []
    node = next((k for k, t in enumerate(texts) if os.path.basename(t) in ("node", "nodejs")),
                len(texts))  # (its words after a script are the script's: read all the same)
    for k, text in enumerate(texts[node + 1:], node + 1):
        option, _, value = text.partition("=")
        value = value or (texts[k + 1] if k + 1 < len(texts) and not _ else "")
        if option.replace("_", "-") in _NODE_PRELOADS and value[:1] != "":
            pairs.append((f"NODE_OPTIONS=-r {value}", ""))  # (a path: its folder's main too)
    npm = next((k for k, t in enumerate(texts) if os.path.basename(t) in ("npm", "npx")),
               len(texts))  # (npm's node-options setting, as its scripts' NODE_OPTIONS: R8)
    for k, text in enumerate(texts[npm + 1:], npm + 1):
        option, equal, value = text.partition("=")
        if len(option) > 7 and "--node-options".startswith(option):  # (nopt's prefixes)
            value = value if equal else texts[k + 1] if k + 1 < len(texts) else ""
            pairs += [(f"NODE_OPTIONS={value}", "")] if value else []
    if node < len(texts) and "/" in texts[node] and any(
            n.startswith("NODE_OPTIONS=") for n, _ in pairs):  # (require's global folder
        pairs.append(("NODE_PATH=" + os.path.normpath(os.path.join(  # beside a node by its
            os.path.dirname(texts[node]), "..", "lib", "node")), ""))  # path: R5b)
    return pairs


#: node's options naming a module it loads before the script (apart, or after ``=``).
_NODE_PRELOADS: Final = frozenset(("-r", "--require", "--import", "--loader",
                                   "--experimental-loader", "--test-reporter"))
#: bun's options in ``BUN_OPTIONS`` the gate reads: the preloads (``envpaths.preloaded``,
#: a path guarded whole), the env files (``ENV_FILE``), and flags moving nothing bun reads.
_BUN_VALUED: Final = frozenset(("--preload", "-r", "--require", "--import", "--env-file"))
_BUN_FLAGS: Final = frozenset(("--smol", "--silent", "--bun", "-b", "--hot", "--watch",
                               "--no-clear-screen", "--no-install", "--no-env-file"))


def bun_options(value: str) -> list[tuple[str, str]]:
    """The env files (``ENV_FILE=F``) an entry's ``BUN_OPTIONS`` (bun puts its words before
    its command line's at every start) names. ValueError for any other option than
    ``_BUN_VALUED``'s and ``_BUN_FLAGS`` (``--config=F``: a bunfig whose preloads the gate
    does not read there; ``--cwd``, ``--define``, …) or a quote or backslash (bun splits the
    value as a shell does) (s51-greview G9)."""
    words = value.split()
    if any(c in value for c in "'\\\""):
        raise ValueError(f"BUN_OPTIONS={value!r} is quoted as the gate does not read")
    found: list[tuple[str, str]] = []
    for at, word in enumerate(words):
        key, equal, given = word.partition("=")
        if key in _BUN_VALUED and not equal and at + 1 < len(words):
            given = words[at + 1]
        elif key not in _BUN_VALUED and (words[at - 1:at] == [] or words[at - 1] not in
                                          _BUN_VALUED) and word not in _BUN_FLAGS:
            raise ValueError(f"BUN_OPTIONS gives bun {word!r}, an option that may move what "
                             "bun reads at its start (the gate reads only its preloads, env "
                             "files and plain flags)")
        found += [(f"{ENV_FILE}={given}", word)] if key == "--env-file" else []
    return found
