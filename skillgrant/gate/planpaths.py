"""The paths ``planprograms`` names, and how it reads an entry's words for them: the values
its options give (``make -C DIR``, ``terraform -chdir=DIR``), names in each folder on the way
up, the files ``python -m MODULE`` runs, a path's part before a pattern."""

from __future__ import annotations

from ..lazy import compile_on_use
from .wrapped import long_prefix

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: What ``plan_programs`` writes before a folder (``%``, ``%web``) whose ``package.json`` or
#: ``pnpm-workspace.yaml`` lists the workspaces a node runner's workspace option runs
#: (``--workspaces``, ``-ws``, ``-w NAME``, ``-r``, ``--filter``): ``guards`` reads them
#: (``workspaces``).
WORKSPACES: Final = "%"
#: What ``plan_programs`` writes before the folder a plan's Python puts first on ``sys.path``
#: (``python3 -m MODULE``, ``python3 x.py``: the call's folder, never guarded whole, C6):
#: ``guards`` guards there the files that would shadow a standard module (``argparse.py``
#: beside ``-m json.tool``: review s44 P3; ``named.Index``).
MODULES: Final = "+"
#: What ``plan_programs`` writes before a Python checker that imports the plugins its settings
#: name (``&mypy``; ``&*`` under a runner of any program): ``startpaths.plugin_paths`` reads them.
SETTINGS: Final = "&"
#: What ``plan_programs`` writes before a pip requirements file (``=requirements.txt``) and a
#: makefile or make's folder (``:x.mk``, ``:sub``) the plan's program reads: ``guards`` reads
#: there the files each includes (``buildnames``: review s48-greview P1, M1).
REQUIREMENTS: Final = "="
MAKEFILE: Final = ":"
#: What ``plan_programs`` writes before a ``CMakeLists.txt`` a plan's cmake reads
#: (``;CMakeLists.txt``): ``buildnames`` reads there what it includes (session 54).
CMAKELISTS: Final = ";"
#: What ``plan_programs`` writes before a folder other than the call's that a program of an
#: entry runs in (``git -C sub``, ``make -C sub``, ``cd sub && …``): ``startpaths`` reads
#: the session's relative values there (s49-greview E3; ``wrapped.RUNS_IN`` is the same).
RUNS_IN: Final = ">"
#: The marks kept first when a path is read in a folder (``in_folders``).
MARKED: Final = ("%", "+", "=", ":", ";", "!", ">")  # (and `wrapped.NPMRC`, `RUNS_IN`)
_MARKS: Final = frozenset(MARKED)


def option_values(words: list[str], names: tuple[str, ...]) -> list[str]:
    """The values ``words`` give the options ``names``: ``-C DIR``, ``-CDIR``, a cluster
    ``-sC DIR``, ``--directory DIR``, ``--dir=DIR`` (getopt_long's prefixes)."""
    found: list[str] = []
    letters = {n[1] for n in names if len(n) == 2}
    longs = [n[2:] for n in names if n[:2] == "--"]
    for at, word in enumerate(words[1:], 1):
        following = words[at + 1] if at + 1 < len(words) else ""
        if word in names or (word[:2] == "--" and long_prefix(word, *longs)) or (
                word.split("=", 1)[0] in names):  # (`-chdir=DIR`: terraform's, s47 T3)
            found.append(word.split("=", 1)[1] if "=" in word else following)
        elif word[:1] == "-" and word[1:2] != "-":  # a cluster: any letter may take the rest
            found += [word[k + 1:] or following for k in range(1, len(word))
                      if word[k] in letters]
    return [v for v in found if v]


def in_folders(folders: list[str], names: tuple[str, ...] | list[str]) -> list[str]:
    """``names`` in each of ``folders``; a name starting with ``^`` in each folder on the way
    to one too, and kept as ``^NAME`` (``guards``: in each folder from the call's up)."""
    found: list[str] = []
    for folder in folders:  # (os.path.join written out: the hook makes hundreds of these)
        if not folder:  # (plan_programs' own: each name as it is, a marked one's `/` gone)
            found += [n.rstrip("/") if n[:1] in _MARKS else n for n in names]
            continue
        base = folder if folder[-1:] == "/" else folder + "/"
        parts = [p for p in folder.split("/") if p]
        lead = "/" if folder[:1] == "/" else ""
        ups = [lead + "/".join(parts[:k]) + "/" for k in range(1, len(parts) + 1)]
        for name in names:
            rest = name[1:]
            if name[:1] == SETTINGS:  # (`&pylint=ci/pylintrc`: the file's path moves)
                kind, _, path = rest.partition("=")
                found.append(f"{SETTINGS}{kind}={base + path if path[:1] != '/' else path}"
                             if path else name)
            elif name[:1] in _MARKS:  # (the mark stays first)
                found.append(name[0] + (rest if rest[:1] == "/" else base + rest).rstrip("/"))
            elif name[:1] != "^":
                found.append(name if name[:1] == "/" else base + name)
            else:  # (`^NAME` in each folder on the way: the folders' parts joined once)
                found += [name, *(lead + rest if rest[:1] == "/" else up + rest for up in ups)]
    return found


def module_files(module: str) -> list[str]:
    """The files of the call's folder ``python -m MODULE`` would run: a package's folder
    (``tools.run``: ``tools/``); for a module of one name, its source, bytecode and extension
    files and its package's ``__init__.py`` (not the folder: the word naming the module
    would then name a guarded folder, review s44 C6; a folder without ``__init__.py`` is a
    namespace package, which a regular one later on ``sys.path`` wins over; its
    ``__main__.py`` runs where none is installed)."""
    top = module.split(".")[0]  # (and the folder's `__pycache__`: s49-greview2 B1)
    if "." in module:  # (or a module's class and method: `unittest test_x.TestA`, s48 S5)
        return [top + "/", *module_files(top)]
    import _imp

    return [top + ".py", top + ".pyc", "__pycache__/", top + "/__init__.py", top + "/__init__.pyc",
            top + "/__main__.py", top + "/__main__.pyc",
            *(f"{top}{init}{suffix}" for suffix in _imp.extension_suffixes()
              for init in ("", "/__init__"))]  # (an extension package's init: s48 M2)


def literal(path: str) -> list[str]:
    """``path``, or when it holds a pattern the folder before it."""
    cut = min((path.find(c) for c in "*?[" if c in path), default=-1)
    return [path] if cut < 0 else [path[:cut].rsplit("/", 1)[0] + "/"]


#: Each interpreter family's options whose value is code (``python3 -c``, ``node -e``, ``perl
#: -e``; a shell's ``-c``, clustered too: ``-ec``): the words after it are the code's, no script
#: (review s44 C4); a shell's ``-c`` text is a command. A shell's ``-e``, perl's ``-p``/``-n``
#: are flags, and the word after them the script (review s48-greview S2).
_CODE: Final = {"python": frozenset({"-c"}), "shell": frozenset({"-c"}),
                "node": frozenset({"-e", "-p", "--eval", "--print"}),
                "perl": frozenset({"-e", "-E"}), "ruby": frozenset({"-e"}),
                "lua": frozenset({"-e"}), "Rscript": frozenset({"-e"}), "php": frozenset({"-r"})}
#: Interpreters' options taking a value that is no script (``-X dev``, ``bash -o pipefail``).
VALUED: Final = {"python": frozenset({"-X", "-W", "-Q"}), "shell": frozenset({"-o", "+o"}),
                  # (a test run's count, duration or name pattern: bun's, node's; K5)
                  "node": frozenset({"--timeout", "--rerun-each", "--test-name-pattern",
                                     "--test-skip-pattern", "--test-concurrency"})}
_SHELLS: Final = frozenset({"bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "busybox"})


def by_name(word: str) -> str:
    """The program ``word`` names, as a runner's table is found: an absolute path's name
    (``/usr/bin/env``: the system's env, s49-greview3 R1); a relative path is the project's
    own program (guarded whole), read as it is."""
    return word.rsplit("/", 1)[-1] if word[:1] == "/" else word


def family(name: str) -> str:
    """The interpreter family of the program ``name`` (``python3.12``: python; ``bash``:
    shell; ``nodejs``, ``bun``, ``deno``: node; ``lua5.4``: lua), or its name."""
    base = name.rstrip("0123456789.-")
    return "python" if name[:6] == "python" else "shell" if base in _SHELLS else \
        "node" if base in ("node", "nodejs", "bun", "deno") else base


def takes_code(name: str, option: str) -> bool:
    """Whether ``option`` of the interpreter ``name`` takes code as its value."""
    kind = family(name)
    return option in _CODE.get(kind, ()) or (kind == "shell" and option[:1] == "-" and
                                               option[1:].isalpha() and "c" in option)


def local_package(word: str) -> list[str]:
    """The folder or tarball a node runner's package spec ``word`` names (npm-package-arg's
    file specs: ``./x``, ``../x``, ``/x``, ``~/x``, ``file:x``, ``name@file:x``,
    ``git+file://…``, ``x.tgz``), whose manifest and lifecycle scripts it runs; the call's
    folder itself is no path here (its ``package.json``: ``STARTS``)."""
    at = -1 if word[:1] in "./~" else word.find("@", 1)  # `name@spec` (not `a/@org/x`: s48
    spec = word[at + 1:] if at > 0 and (word[:1] == "@" or "/" not in word[:at]) else word  # N1)
    named = spec.startswith(("file:", "git+file:", "link:", "portal:"))
    spec = spec.removeprefix("git+").split(":", 1)[-1] if named else spec
    spec = spec.split("#", 1)[0]
    spec = "/" + spec.lstrip("/") if spec[:2] == "//" else spec  # (`file:///x`)
    path = spec.count("/") > 1 or spec.endswith("/") if ":" not in spec and spec[:1] not in (
        "@", "") else False  # (`tools/cli/`, `a/b/c`: no `user/repo`; s48-greview2 N1)
    if spec.rstrip("/") in ("", ".") or not (named or path or spec[:1] in "./~" or spec.endswith(
            (".tgz", ".tar.gz", ".tar"))):
        return []
    return literal(spec.rstrip("/"))


def required(spec: str) -> list[str]:
    """The files node's ``require`` may load for a path ``spec`` (``-r ./pre``, ``--import``,
    NODE_OPTIONS', an ``.npmrc``'s ``node-options``: Node's "Modules: CommonJS", LOAD_AS_FILE
    and LOAD_AS_DIRECTORY): ``spec``, with each extension node adds, the folder of that
    name whole (its ``package.json`` main, ``index.*``) and its ``index`` files apart (each
    may be a link leading out: ``guards`` guards its target, s52-greview2 R12); none for a
    package's name."""
    if not spec.startswith(("./", "../", "/")) and spec not in (".", ".."):
        return []
    extensions = (".js", ".json", ".node", ".cjs", ".mjs")
    folder = spec.rstrip("/") + "/"
    return [*literal(spec), *(spec + e for e in extensions), folder,
            *(folder + "index" + e for e in extensions)]


#: An input redirection's target (`< tools/build.sh`), and the interpreters reading it.
INPUT: Final = compile_on_use(r"(?<!<)[0-9]*<(?![<(&>])\s*([^\s<>|&;]+)")
FAMILIES: Final = frozenset({"python", "shell", "node", "perl", "ruby", "lua", "php"})
#: The sources make's built-in rules remake a makefile from (its prefix, its suffix).
REMADE: Final = (("", ".sh"), ("", ",v"), ("RCS/", ",v"), ("RCS/", ""), ("s.", ""),
                  ("SCCS/s.", ""))
#: The dotenv files Bun loads at every start (review s48-greview N2).
DOTENV: Final = tuple(f".env{m}{lo}" for m in ("", ".development", ".production", ".test")
                       for lo in ("", ".local"))
#: The files ``bun run NAME`` (``deno run``) may run for a NAME without an extension.
JS: Final = (".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx", ".mts", ".cts")
NODE_JS: Final = (".js", ".cjs", ".mjs", ".json", ".node")  # (`node server`: server.js)
#: Python's options that keep the call's folder off ``sys.path`` (``-I``, ``-P``), in a
#: cluster of options taking no value.
SAFE_PATH: Final = compile_on_use(r"-[bBdEiOqRsSuv]*[IP][bBdEiIOPqRsSuv]*")


#: The reserved words a command's words may begin with (``if cd sub; then make; fi``, s43
#: P2f; in a shell's ``-c`` code too: review s49-greview2 K1).
RESERVED: Final = frozenset({"!", "if", "then", "else", "elif", "do", "while", "until", "{"})


def made_line(part: str, program: str, found: list[str], text: str) -> list[str]:
    """``found`` with each makefile's mark (``MAKEFILE``) given the words after ``program``
    in the command ``part`` of the entry's ``text`` (each after a NUL), where one may give
    make a value (``X=v``, ``-e``; ``MAKEFLAGS=…`` before it): ``makereads.command_line``
    reads them (review s57-greview W, s58-mreview M3)."""
    split = part.split()
    if program not in split or program.rsplit("/", 1)[-1] not in ("make", "gmake"):
        return found
    after = _shell_words(text, program) if any(c in text for c in "'\"\\") else None
    after = (split[split.index(program) + 1:] if after is None else after) + [  # (its
        w for w in split[:split.index(program)] if w.split("=", 1)[0] in (  # environment's
            "MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS", "MAKEOVERRIDES")] + (  # MAKEFLAGS; an
        ['"'] if any(c in text for c in "$`") else [])  # expansion: any value)
    if not any("=" in w or (w[:1] == "-" and "e" in w) for w in after):
        return found
    line = "".join("\0" + w for w in after)
    return [p + line if p[:1] == MAKEFILE else p for p in found]


def _shell_words(text: str, program: str) -> list[str] | None:
    """The words after ``program`` in the entry's ``text`` as the shell gives them (quotes,
    escapes removed: ``CFLAGS="-O2 -g"`` one word; s58-mreview), to its first operator;
    ``["\""]`` (no value read) where it is not read."""
    import shlex

    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:
        return ['"']
    if program not in words:
        return ['"']
    after = words[words.index(program) + 1:]
    end = next((i for i, w in enumerate(after) if w and not w.strip(";&|()<>")), len(after))
    return after[:end]
