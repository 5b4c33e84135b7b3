"""The files and folders the session's variables name (review s47 E2–E5).

A program reads its environment as settings: ``NODE_OPTIONS="--require ./tools/pre.js"``
preloads a file into every node process (npm's own), ``JAVA_HOME`` names the ``java`` Maven's
launcher runs, ``KUBECONFIG`` and ``AWS_CONFIG_FILE`` name settings whose exec plugins run,
``MAKEFILES`` names files make reads before the Makefile, ``GIT_SSH_COMMAND`` the program git
runs. A list of such variables cannot be complete (issue 29: "assume any variable name can
change what a program does, unless a named, tested rule says otherwise"), so every path any
variable's value names is guarded whole, but for the variables ``OTHERWISE`` names, each with
the rule that reads it instead, and but for the folders a call runs in (the call's folder, the
project's, the home, the root, any folder above them: guarding one whole would deny every
write, and each is guarded by what it holds).

What a value names: its words, split at white space and at ``:``, ``=``, ``,`` and ``;`` (a
``PATH``-like list, an option's attached value: ``-javaagent:./a.jar``, ``--require=x``); in
each word holding a ``/``, the word and the tail from the first ``/``, ``./``, ``../`` or
``~/`` (``-r./x``, ``-I/opt/inc``); a word without one that looks like a file's name
(``common.mk``, ``agent.jar``, ``.pythonrc``; not a bare word: ``_file_name``). ``$NAME`` in a
value is read first. A relative path is read from the call's folder and from the project's, as
a program started in either reads it.

The C toolchain's variables (``environment.FLAGS``: ``CFLAGS``, ``CPPFLAGS``, ``CC``, …) are
read word by word: gcc takes a bare word there as a file (``flagpaths``).

Under ``skillgrant serve`` the service reads its own environment: the variables it compares
with the session's (``environment.COMPARED``) hold the ones the reviews named (``FLAGS``
among them); any other a session sets that the service's lacks is not seen there
(docs/decisions.md, session 47).
"""

from __future__ import annotations

import os
from itertools import pairwise

from .environment import state
from .flagpaths import read_word_by_word, toolchain_read, variable_words
from .named import above
from .valueparts import loader_tokens, normal_path, passed

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Variables read by another rule, or naming no path a program runs or reads as settings,
#: each with why: the home and the folders a shell is in (each above the call's folder, or
#: the call's: ``guards`` reads what they hold), ``PATH`` and ``CDPATH`` (``guards``: each
#: folder of programs whole; ``words``: a ``cd``'s folders), ``PYTHONPATH`` (module folders:
#: standard modules' names only, review s46 L2), the temporary folders (a program writes its
#: scratch files there; none reads one as settings), the shell's own (``SHELL`` is a
#: program of the system's folders, guarded when writable: ``homefiles.SYSTEM_TREES``), ls's
#: colours (file name patterns, no path), pytest's name of the test it runs (set by pytest for
#: what a test starts; no program reads it as settings).
OTHERWISE: Final = frozenset(("HOME", "PWD", "OLDPWD", "PATH", "CDPATH", "PYTHONPATH",
                              "TMPDIR", "TMP", "TEMP", "TEMPDIR", "SHELL", "_",
                              "CLAUDE_PROJECT_DIR", "LS_COLORS", "LSCOLORS",
                              "PYTEST_CURRENT_TEST"))
#: What splits a value into words: white space, ``:``, ``=``, ``,``, ``;``, quotes and the
#: shell's operators (a value a program runs through a shell: ``GIT_SSH_COMMAND``). No regular
#: expression: compiling one costs a hook's start more than reading the values.
_SEPARATORS: Final = str.maketrans(dict.fromkeys(":=,;\"'`()|&<>", " "))


def named_paths(value: str) -> list[str]:
    """The paths ``value`` names (see the module's text), relative ones as written, after its
    ``$NAME`` and ``${NAME}`` are read from the environment (``$PWD`` as ``.``: a shell's
    folder, the call's or the project's)."""
    found: list[str] = []
    words = []
    for expanded in _expanded(value):
        words += expanded.translate(_SEPARATORS).split()
        if "'" in expanded or '"' in expanded or "\\" in expanded:
            words += _shell_words(expanded)  # (`"$PWD"/x`, `'tools'/x`: s48-greview2 E1)
    found += _required(words) if "-r" in value or "--" in value else []
    found += [w[1:] for w in words if w[:1] == "@" and len(w) > 1]  # (gcc's `@opts`: V3)
    for word in dict.fromkeys(words):
        word = word.removeprefix("@")  # java's and javac's `@argfile` (review s47-greview2)
        slash = word.find("/")
        if slash >= 0:
            found.append(word)
            if word[:1] == "-" and word[1:2] != "-" and slash > 2:
                found.append(word[2:])  # (an option's attached folder: gcc's `-Bv/`, R6d)
            start = slash  # where a path starts past an option's name: `-r./x`, `-I/opt`
            if word[start - 1:start] == ".":
                start -= 1 + (word[start - 2:start - 1] == ".")
            elif word[start - 1:start] == "~":
                start -= 1
            if start > 0 and word[start:] != "/":  # (`build/`: a folder's, not `/`; K4)
                found.append(word[start:])
        elif _file_name(word):
            found.append(word)
    return [_unpatterned(p) for p in found]


def _required(words: list[str]) -> list[str]:
    """The files node may load for each path a preload option in ``words`` names, apart or
    attached (``--require ./pre``: ``./pre.js``, …, the folder ``./pre/``; ``-r./pre``:
    ``planpaths.required``; s49-greview E2)."""
    from .planpaths import required

    found: list[str] = []
    for at, word in enumerate(words):
        spec = words[at + 1] if word in PRELOADS and at + 1 < len(words) else \
            word[2:] if word[:2] == "-r" and word[2:3] in (".", "/") else ""
        found += required(spec) if spec else []
    return found


def _unpatterned(path: str) -> str:
    """``path``, or where it holds a pattern a shell expands (``tools/ss?.sh``, ``{a,b}``:
    s49-greview E1), the folder before the pattern (guarded whole: any file it may match);
    ``./`` for one in the folder a program starts in (not guarded: ``session_paths``)."""
    cut = min((path.find(c) for c in "*?[{" if c in path), default=-1)
    if cut < 0:
        return path
    head = path[:cut]
    return head.rsplit("/", 1)[0] + "/" if "/" in head else "./"


def _shell_words(text: str) -> list[str]:
    """``text``'s words as a shell joins them: a quoted part and the unquoted ones beside it
    one word (quotes removed; a backslash escapes the character after it, outside single
    quotes), each split further at ``_SEPARATORS``' characters outside quotes."""
    words: list[str] = []
    word: list[str] = []
    quote = ""
    at = 0
    while at < len(text):
        char = text[at]
        if quote:
            if char == quote:
                quote = ""
            elif char == "\\" and quote == '"' and text[at + 1:at + 2] in ('"', "\\", "$", "`"):
                word.append(text[at + 1])
                at += 1
            else:
                word.append(char)
        elif char in ("'", '"'):
            quote = char
        elif char == "\\":
            word.append(text[at + 1:at + 2])
            at += 1
        elif char.isspace() or char in _SPLITS:
            words.append("".join(word))
            word = []
        else:
            word.append(char)
        at += 1
    return [w for w in (*words, "".join(word)) if w]


#: What ends a word outside quotes in ``_shell_words``: ``_SEPARATORS``' characters.
_SPLITS: Final = frozenset(":=,;`()|&<>")


def _file_name(word: str) -> bool:
    """Whether ``word`` (no ``/``) looks like a file's name: a dot before a last part of a
    letter then letters and digits (``common.mk``), or a dot then a letter first
    (``.pythonrc``). A bare word (``test``, ``production``, ``vim``) is not read as one: it is
    what most values are (``NODE_ENV=test``), and guarding it denies the plan's own calls that
    hold it (``npm test``); a program reading such a value as a file in its folder
    (``MAKEFILES=common``, ``ssh -F cfg`` in ``GIT_SSH_COMMAND``) is the rule's residual
    (docs/call-gate.md)."""
    if word[:1] == "." and word[1:2].isascii() and word[1:2].isalpha():
        return True
    stem, dot, last = word.rpartition(".")
    return bool(dot and stem.strip(".") and last[:1].isascii() and last[:1].isalpha()
                and last.isascii() and last.isalnum())


def _expanded(value: str) -> list[str]:
    """What ``value`` may expand to, each ``$NAME`` and ``${NAME}`` replaced by the variable's
    value (``.`` for ``PWD``; nothing for one unset), as a shell running it reads it;
    ``${NAME<op>WORD}`` by each value it may take (``:-``, ``:=`` and the forms without ``:``:
    the value, or WORD; ``:+``: nothing, or WORD; ``:?``: the value), each read in its place
    inside the word (``tools/ssh-${MODE:-dev}.sh``: s49-greview E1); a trimmed
    ``${NAME#…}``/``${NAME%…}`` as bash trims it; the command substitutions whose text is
    known (``$(pwd)``, a backquoted ``pwd``: ``.``; ``$(git rev-parse --show-toplevel)``:
    ``TOP``, the repository's top folder: E2). Raises ValueError for any other substitution or
    ``${…}`` form (what it names is not known), or past ``_MAX_READINGS`` readings."""
    if "$" not in value and "`" not in value:
        return [value]
    from .valueparts import brace_end, substitution_end

    out = [""]
    at = 0
    while at < len(value):
        char, after = value[at], value[at + 1:at + 2]
        if char == "`" or (char == "$" and after == "("):
            end = substitution_end(value, at)
            pieces = [_substituted(value[at:end])]
            at = end
        elif char == "$" and after == "{":
            end = brace_end(value, at)
            if end < 0:
                raise ValueError(f"an unclosed `${{` in {value!r}")
            pieces = _braced(value[at + 2:end])
            at = end + 1
        elif char == "$":
            end = at + 1
            while end < len(value) and (value[end].isalnum() or value[end] == "_"):
                end += 1
            name = value[at + 1:end]
            pieces = ["$" if not name else "." if name == "PWD" else os.environ.get(name, "")]
            at = end
        else:
            pieces = [char]
            at += 1
        out = list(dict.fromkeys(o + p for o in out for p in pieces))
        if len(out) > _MAX_READINGS:
            raise ValueError(f"more than {_MAX_READINGS} readings of {value!r}")
    return out


#: The readings of one value ``_expanded`` gives at most (each ``${X:-W}`` doubles them).
_MAX_READINGS: Final = 32


#: What ``_expanded`` writes for the repository's top folder (``session_paths`` reads it
#: from each folder a program starts in).
TOP: Final = "\x03"


def _substituted(text: str) -> str:
    """What the command substitution ``text`` (``$(…)`` or backquoted) prints, where it is
    known."""
    inner = " ".join(text.strip("`").removeprefix("$(").removesuffix(")").split())
    if inner in ("pwd", "pwd -L", "pwd -P"):
        return "."
    if inner == "git rev-parse --show-toplevel":
        return TOP
    raise ValueError(f"a command substitution ({text!r}), whose output the gate cannot know")


def _braced(body: str) -> list[str]:
    """What ``${body}`` may expand to, as ``_expanded`` reads it."""
    name = body[:len(body) - len(body.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                             "0123456789_"))]
    value = "." if name == "PWD" else os.environ.get(name, "")
    rest = body[len(name):]
    if not rest:
        return [value]
    op = next((op for op in (":-", ":=", ":+", ":?", "-", "=", "+", "?")
               if rest.startswith(op)), None)
    if op is not None and name:
        words = _expanded(rest[len(op):])
        return [value] if "?" in op else ["", *words] if "+" in op else [value, *words]
    if name == "PWD" and rest != "%/":  # (the folder's own path, trimmed: s48-greview2 E2)
        raise ValueError(f"the form ${{{body}}}, a trim of the folder a program starts in")
    if name and rest[:1] in ("#", "%") and not any(c in rest for c in "$`\\"):
        from .valueparts import trimmed

        return [trimmed(value, rest)]
    if body[:1] == "#" and body[1:].replace("_", "a").isalnum():
        return [""]  # (a length: a number)
    raise ValueError(f"the form ${{{body}}}, which the gate does not evaluate")


def session_paths(roots: list[str], folders: list[str]) -> list[tuple[str, bool]]:
    """Each path the session's variables name (``named_paths``; ``flagpaths.flag_words`` too
    for the C toolchain's), relative ones read from each of ``roots`` (the call's folder and the
    project's), as an item guarded whole; none that is one of ``folders`` (the folders a call
    runs in and each above them) or above one."""
    home = os.path.expanduser("~")
    kept = {os.path.normpath(f) for f in (*folders, home, "/") if f}
    kept |= {parent for folder in kept for parent in above(folder)}
    found: dict[str, bool] = {}
    absolute = [os.path.abspath(r) for r in roots]
    parsed = _parsed()
    tools = [(_rooted(t, roots), name, value) for _, _, (t, name, value) in parsed if t]
    through: set[str] = set()  # (what gcc looks up in a folder a call runs in: its names
    if tools:  # there, s54-greview3 D1; through a link to one: s55-greview2 K2)
        from .toolnames import folder_items

        items, through = folder_items(tools, kept, "the session's")
        found.update(items)
    for paths, specs, _ in parsed:
        for path in paths:
            if path.startswith("~"):
                path = os.path.expanduser(path)
            tail = path.lstrip(TOP).lstrip("/") if path[:1] == TOP else path
            for full in ([path] if path.startswith("/") else [
                    os.path.join(_top(root) if path[:1] == TOP else root, tail)
                    for root in roots]):  # (TOP: the repository's top of each one, E2)
                if "/../" in full + "/":  # (a name before a `..` made a link later: S1b)
                    found.update((p, False) for p in passed(full) if p not in kept)
                full = normal_path(full)
                if full not in kept and full not in through:
                    found[full] = True
        if specs:
            from .noderesolve import package_paths

            found.update(dict.fromkeys((p.rstrip("/") for spec in specs
                                        for p in package_paths(spec, absolute)), True))
    return list(found.items())


def relative_values() -> bool:
    """Whether a variable of the session names a relative path (read from the folder each
    program runs in: a recipe's too, ``makereads``); False where one is not known
    (``session_paths`` refuses it)."""
    try:
        parsed = _parsed()
    except ValueError:
        return False
    return any(p[:1] not in ("/", "~") for paths, _, (tools, _, _) in parsed
               for p in (*paths, *tools))


def _rooted(paths: list[str], roots: list[str]) -> list[str]:
    """Each of ``paths`` (``~`` read), a relative one read from each of ``roots``, normal."""
    return [normal_path(os.path.join(r, os.path.expanduser(p))) for p in paths
            for r in (roots if p[:1] != "/" else [""])]


def _parsed() -> list[tuple[list[str], list[str], tuple[list[str], str, str]]]:
    """Each variable's paths (``named_paths``; ``flagpaths.variable_words`` too, word by
    word), the packages its preloads name (``preloaded``) and its words read as the
    toolchain's with its name and value (``toolnames``: what gcc looks up), read once an
    environment (``environment.state``: ``session_paths`` runs twice a call). Raises
    ValueError, naming the variable, where one is not known."""
    key = state()
    if not _PARSED or _PARSED[0][0] != key:
        parsed: list[tuple[list[str], list[str], tuple[list[str], str, str]]] | ValueError = []
        for name, value in os.environ.items():
            try:
                loader_tokens(name, value)  # (the loader's `$ORIGIN`: s56-greview2 D1)
                if name not in OTHERWISE and value and isinstance(parsed, list):
                    words = variable_words(name, value, _expanded(value)) if \
                        read_word_by_word(name, value) else []
                    parsed.append(([*named_paths(value), *words], preloaded(value), (
                        words if words and toolchain_read(name, value) else [], name, value)))
            except ValueError as e:
                parsed = ValueError(f"the session's variable {name}={value!r} holds {e}, so "
                                    "the paths it names are not known; unset it or give it a "
                                    "plain value")
        _PARSED[:] = [(key, parsed)]
    if isinstance(_PARSED[0][1], ValueError):
        raise _PARSED[0][1]
    return _PARSED[0][1]


#: ``_parsed``'s answer (or its error), with the environment's state it was read in.
_PARSED: list[tuple[object, list[tuple[list[str], list[str], tuple[list[str], str, str]]] |
                    ValueError]] = []


def _top(folder: str) -> str:
    """The top folder of the git repository holding ``folder`` (or ``folder``)."""
    from .writers import top_folder

    return top_folder(folder)


#: node's options naming a module it loads first (``NODE_OPTIONS``, ``npm``'s
#: ``node-options``; bun's ``--preload``), or a test reporter it imports (s52-greview2 R1d).
PRELOADS: Final = ("-r", "--require", "--import", "--loader", "--experimental-loader",
                   "--preload", "--test-reporter")  # (bun's, in BUN_OPTIONS: s51-greview G9)
#: The schemes of a module's name that name no package (``node:fs``, ``data:``; a ``file:``
#: URL's path is read as any path is): an import's (ES modules' URLs); CommonJS's ``require``
#: (``-r``, ``--require``; bun's ``--preload`` read the same) reads only ``node:`` as one,
#: ``data:x``, ``https:x`` are packages' names there (s52-greview2 R1g).
_SCHEMES: Final = frozenset(("node", "file", "data", "http", "https"))
_REQUIRED: Final = frozenset(("-r", "--require", "--preload"))


def preload_paths(value: str, roots: list[str]) -> list[str]:
    """What node may load for each module ``value``'s preload options name by a package's name
    (``preloaded``), node running in each of ``roots``: ``noderesolve.package_paths`` (its
    folder in each ``node_modules`` up, through a link; what its ``main`` and ``exports``
    name; the project's own package by its name: s51-greview G8). Raises ValueError where
    that is not known."""
    from .noderesolve import package_paths

    absolute = [os.path.abspath(r) for r in roots]
    return [p for spec in preloaded(value) for p in package_paths(spec, absolute)]


def preloaded(value: str, paths: bool = False) -> list[str]:
    """The modules a node option in ``value`` preloads by a package's name (``-r
    dotenv/config``, ``--import tsx``, ``--require=pre``; node reads ``_`` in an option's
    name as ``-``, and its value's quotes as a shell does: s52-greview2 R1): node resolves
    them from the folder it runs in (review s48-greview E3, s51-greview G8). A name holding
    ``:`` is a package's but for a scheme's (``node:fs``). With ``paths``, the modules it
    preloads by a path instead (``-r ./lib/pre``)."""
    if "-r" not in value and "--" not in value:
        return []
    found: list[str] = []
    for expanded in _expanded(value):
        for words in (expanded.replace("=", " ").split(), _shell_words(expanded)):
            found += [after for word, after in pairwise(words)
                      if (word.replace("_", "-") if word[:2] == "--" else word) in PRELOADS
                      and after[:1] != "" and (after[:1] in (".", "/")) == paths and (
                          paths or after.partition(":")[0] not in (
                              {"node"} if word in _REQUIRED else _SCHEMES))]
    return list(dict.fromkeys(found))
