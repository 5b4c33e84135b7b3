"""The folders beside the run folders that a collecting plan's test runners read tests from
(issue 29, review s53-greview2 T6, T11, T12).

``Guarded.collected`` holds the folders the plan's programs run in; a runner also collects
in a folder its operand names (``node --test ../ext/``: the plan names it, and guards it
whole), one its settings name (bun's ``bunfig.toml`` ``[test] root``, pytest's
``testpaths``), one a ``package.json`` script's words name (``"test": "node --test
../ext/"``; the scripts the plan runs where ``planscripts`` names them). A link there leads
the runner to a file anywhere (``../ext/test/o -> ../../other``): ``testlinks`` walks these
folders too, and a path met below one (the file itself, or through a link) is read as the
runner's. Only folders outside the run folders
count (one below them is walked already); they are read from the run folders' settings
files, which the plan guards (a session cannot change them), once a guarded set.
"""

from __future__ import annotations

import os
import re

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The guarded set the roots were read for (by identity), its roots, and the folded paths a
#: runner of its scripts tries as files first (``first_loaded``).
_LAST: list[tuple[object, tuple[str, ...], tuple[str, ...]]] = []
#: A settings file read at most this far (a settings file is small).
_LIMIT: Final = 1 << 20
#: pytest's settings files, each with the section holding ``testpaths`` (pytest 9's order).
_PYTEST: Final = (("pytest.toml", "pytest"), (".pytest.toml", "pytest"),
                  ("pytest.ini", "pytest"), (".pytest.ini", "pytest"),
                  ("pyproject.toml", "tool.pytest.ini_options"),
                  ("pyproject.toml", "tool.pytest"), ("tox.ini", "pytest"),
                  ("setup.cfg", "tool:pytest"))


def runner_roots(guards: object, runs: tuple[str, ...]) -> tuple[str, ...]:
    """The real folders, none at or below one of the real folders ``runs`` (the walk's own
    roots), that a runner of the collecting plan of ``guards`` reads tests from (see the
    module's text); () where the plan collects none."""
    if _LAST and _LAST[0][0] is guards:
        return _LAST[0][1]
    found: dict[str, None] = {}
    firsts: dict[str, None] = {}
    if getattr(guards, "collected", None):
        from .nested import planned_of
        from .planscripts import plan_scripts
        from .scriptfirsts import first_names

        names = plan_scripts(guards)
        inside = tuple(r.rstrip("/") + "/" for r in runs)
        named = [p for p in planned_of(guards) if not (p + "/").startswith(inside)]
        found.update(dict.fromkeys(p for p in named if fs.is_folder(p)))
        for run in runs:
            firsts.update(dict.fromkeys(first_names(run)))
            for folder in _settings_roots(run, names):
                real = fs.realpath(folder)
                if real != "/" and not (real + "/").startswith(inside) and fs.is_folder(real):
                    found[real] = None  # (`/`: a URL's base, `vite --base /`; s55-sreview C1)
    roots = tuple(found)
    _LAST[:] = [(guards, roots, tuple(firsts))]
    return roots


def first_loaded(key: str, guards: object) -> bool:
    """Whether the folded real path ``key`` is, or lies below, a name a runner of the
    collecting plan's ``package.json`` scripts tries as a file of its folder before the
    package it names (``mocha --require ts-node/register``: ``./ts-node/register``,
    ``.js``; ``--require setup``, ``--reporter rep``: ``./setup``, any ``./setup.*``, as
    require's ``.js``, ``.json``, ``.node``; prettier's ``--plugin``:
    ``scriptcode.FIRST_OPTIONS``), read from every script of each run folder's
    ``package.json`` (s59-mreview K6: such a script is read, its name guarded, instead of
    refused), or a ``__snapshots__`` folder below a collecting folder, or a file below one
    (jest's and vitest's snapshot files, which they run as code: s60-mreview M14). True where
    the set's roots were not read (``runner_roots`` runs first: ``testlinks.places``)."""
    if "/__snapshots__/" in key + "/" and any(key.startswith(f + "/") for f in getattr(
            guards, "collected", ())):  # (jest 29, vitest 2 run each test's snapshot file:
        return True  # `new Function(<the .snap text>)`; s60-mreview M14)
    if not (_LAST and _LAST[0][0] is guards):
        return True
    from .scriptfirsts import in_tests

    return any(key == p or key.startswith((p + ".", p + "/")) if p[:1] != "\0" else
               in_tests(key, p[1:]) for p in _LAST[0][2])


def _settings_roots(folder: str, names: frozenset[str] | None) -> list[str]:
    """The folders ``folder``'s settings name for a runner: bunfig's ``[test] root``,
    pytest's ``testpaths`` and ``addopts``' operands in the first settings file pytest finds
    from ``folder`` up (s55-sreview R2: a monorepo's), each word of a ``package.json``
    script the plan runs (``names``: ``planscripts``; None: any) (``_script_folders``)."""
    found: list[str] = []
    test = _toml(os.path.join(folder, "bunfig.toml")).get("test")
    root = test.get("root") if isinstance(test, dict) else None
    found += [os.path.join(folder, root)] if isinstance(root, str) else []
    above = folder
    while True:
        paths = next((p for n, sec in _PYTEST if (p := _pytest_paths(os.path.join(above, n),
                                                                      sec)) is not None), None)
        if paths is not None:  # (testpaths from the settings' folder, addopts' from the call's)
            found += [os.path.join(b, p) for p in paths for b in dict.fromkeys((above, folder))]
            break
        if above == "/":
            break
        above = os.path.dirname(above)
    found = [os.path.normpath(_before_pattern(p)) for p in found if p]
    return found + _script_folders(folder, os.path.join(folder, "package.json"), 0, names)


def _before_pattern(path: str) -> str:
    """The folder every match of the glob ``path`` is below: its folder before the first
    part holding a pattern character (``../t*/x``: ``..``), and one folder up for each part
    from there that may be ``..`` (dash's ``.?`` and ``.[.]`` match it, a program's brace
    ``{..,x}`` makes it; s56-sreview R): ``.?/ext/`` is below ``..``."""
    parts = path.split("/")
    at = next((k for k, p in enumerate(parts) if any(c in p for c in "*?[{")), None)
    if at is None:
        return path
    up = sum(p[:1] == "." or re.search(r"[{,]\.", p) is not None for p in parts[at:])
    return "/".join([*parts[:at], *[".."] * up]) or ("/" if path[:1] == "/" else ".")


def _text(path: str, limit: int = _LIMIT) -> str | None:
    """The text of the file at ``path`` (its first ``limit`` bytes); None where there is
    none."""
    try:
        return fs.read(path, limit).decode("utf-8", "replace")
    except (OSError, ValueError):
        return None


def _toml(path: str) -> dict[str, object]:
    """The TOML file at ``path`` read; {} where it is not there or not read."""
    text = _text(path)
    if text is None:
        return {}
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


def _pytest_paths(path: str, section: str) -> list[str] | None:
    """pytest's ``testpaths``, and ``addopts``' words that are no option (its operands, and
    ``--rootdir``'s value), in ``section`` of the settings file at ``path``; None where the
    file or the section is not there (pytest reads the next file)."""
    found = _testpaths(path, section, "testpaths")
    if found is None:
        return None
    words = [w for v in _testpaths(path, section, "addopts") or [] for w in v.split()]
    return found + [w.partition("=")[2] if w.startswith("--rootdir=") else w for w in words
                    if w[:1] != "-" or w.startswith("--rootdir=")]


def _testpaths(path: str, section: str, key: str) -> list[str] | None:
    """The words of ``key`` in ``section`` of the settings file at ``path`` ([] where the
    section holds none); None where the file or the section is not there."""
    if path.endswith(".toml"):
        table: object = _toml(path)
        for part in section.split("."):
            table = table.get(part) if isinstance(table, dict) else None
        if not isinstance(table, dict):
            return None
        value = table.get(key, [])
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else \
            value.split() if isinstance(value, str) else []
    text = _text(path)
    if text is None:
        return None
    import configparser

    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    if not parser.has_section(section):
        return None
    return parser.get(section, key, fallback="").split()


def _script_folders(folder: str, path: str, depth: int,
                    names: frozenset[str] | None = None) -> list[str]:
    """The folders the words of the scripts of the ``package.json`` at ``path`` that the plan
    runs (``planscripts.script_closure`` of ``names``; s55-sreview C1, C2) (or, at ``depth``
    1, the commands of a shell script file in ``folder`` one runs: ``sh run.sh``; its first
    MiB) name from ``folder`` and from each folder a ``cd`` in them names (``cd .. && node
    --test ext/``), ``$HOME`` (``${HOME}``) the home, ``$PWD`` (``${PWD}``) ``folder`` in a
    script with no ``cd``. Raises ValueError (the collecting plan's writes are refused:
    s55-sreview R4, s56-sreview R) where a script is not read as dash and bash read it with
    every word a plain literal (``planscripts.commands``: a quote, any other expansion, a
    glob, ``~``, ``#``, a pipe into ``xargs``), a ``cd`` has no plain operand, a command
    runs a project file as code other than a shell script read here (``node run.js``,
    ``./run``), or a script runs another package's scripts (``planscripts.Elsewhere``)."""
    from .planscripts import script_closure

    text = _text(path) if depth == 0 else _text(path, _LIMIT + 1)
    if depth and (text is None or "\0" in text or len(text) > _LIMIT or not _SHEBANG.match(
            text)):  # (a program's file, one past the limit, a `#!` naming another program)
        raise ValueError(f"a script of {folder!r} runs {path!r}, which is not read as a "
                         "shell script")
    if text is None or "\0" in text:  # (no package.json's text)
        return []
    if depth == 0:
        import json

        try:  # (npm drops a BOM; one it cannot parse either may run scripts: refused)
            data = json.loads(text.removeprefix("\ufeff"))
        except ValueError as e:
            raise ValueError(f"{path!r} is not read as the scripts npm runs: {e}") from e
        scripts = data.get("scripts") if isinstance(data, dict) else None
        if not isinstance(scripts, dict):
            return []
        npmrc = _text(os.path.join(folder, ".npmrc")) or ""
        if _NPMRC.search(npmrc):  # (`workspaces=true` runs each workspace's scripts)
            raise ValueError(f"{folder!r}'s .npmrc sets where npm runs scripts, or their shell")
        texts = list(script_closure({k: v for k, v in scripts.items() if isinstance(v, str)},
                                    names).values())
    else:  # (a shell script's lines that are comments: its `#!` line, read above)
        texts = ["\n".join(n for n in text.splitlines() if n.lstrip()[:1] != "#")]
    found: list[str] = []
    for script in texts:
        found += _folders_of(folder, script, depth)
    return found


def _folders_of(folder: str, script: str, depth: int) -> list[str]:
    """``_script_folders`` of one script's text ``script``."""
    from .planscripts import commands, program_at

    read = commands(_KNOWN.sub(lambda m: os.path.expanduser("~"), script))
    if read is not None and ((os.environ.get("CDPATH") and _MOVES.search(script)) or any(
            ((os.path.basename(w[program_at(w)]) if program_at(w) < len(w) else "") in
             _SHELL_STATE and not _plain_export(w[program_at(w):])) or
            any(not _plain_assignment(a) for a in w[:program_at(w)]) or
            any("CDPATH" in x for x in w) for w in read) or any(
            t not in ("/dev/null", "/dev/stderr") for t in _WRITTEN.findall(script))):
        read = None  # (`export HOME=x`, `PWD=sub :`, `alias go=cd`, a CDPATH: s57-sreview;
        # a redirection's file, a test or a program the script runs next: s59-mreview S23)
    if read is None:
        raise ValueError(f"a package.json script of {folder!r} is not read as plain words "
                         f"({script[:80]!r}), where a test runner may collect")
    bases, found = [folder], []
    for words in read:
        at = program_at(words)
        names = [os.path.basename(w) for w in words[at:]]
        if names[:1] in (["cd"], ["pushd"]):
            if len(words) != at + 2 or words[at + 1][:1] == "-":
                raise ValueError(f"a script of {folder!r} moves to a folder not named "
                                 f"({' '.join(words)!r})")
            moved = os.path.join(bases[-1], words[at + 1])
            if not fs.is_folder(moved):  # (a link made there later leads it anywhere)
                raise ValueError(f"a script of {folder!r} moves to {moved!r}, no folder yet")
            bases += [moved, fs.realpath(moved)]  # (dash's cd is logical; a program
            # resolves `..` from the real folder)
        elif names[:1] and (names[0] in _UNREAD or not _FEEDS.isdisjoint(names) or
                            _PATTERN.search(words[at]) or "cd" in names or "pushd" in names):
            raise ValueError(f"a script of {folder!r} runs {' '.join(words)!r}, whose folder "
                             "is not read")  # (`nice xargs`, `if cd sub`: a wrapper's)
        texts = [w.split(" ") for w in words if " " in w]  # (a quoted text a program may run
        if any(not _UNREAD.isdisjoint(t) or "cd" in t or "pushd" in t for t in texts):  # as
            raise ValueError(f"a script of {folder!r} gives a command a text moving the "
                             "folder")  # commands: `concurrently "cd .. && …"`)
        given = [p for w in words[at:] for p in w.split(" ")]
        words = [p.rpartition("=")[2] for w in words for p in w.split(" ")]
        found += [os.path.normpath(os.path.join(b, _before_pattern(w))) for w in words
                  for b in bases if w[:1] != "-" and w]
        for base in bases[-2:] if len(bases) > 1 else bases:
            found += _code_run(folder, base, given, depth)
    return found


def _code_run(folder: str, base: str, given: list[str], depth: int) -> list[str]:
    """The folders of a shell script file the command ``given`` (its words from its program
    on, run in ``base``) runs, at ``depth`` 0 (``sh run.sh``, ``./run.sh``, ``nice sh -o
    errexit run.sh``, an executable file named anywhere), read as its scripts are. Raises
    ValueError for one at ``depth`` 1, for a shell given a pattern, and for a file (not a
    system one) a word naming an interpreter before it runs as code (``node run.js``,
    ``cross-env X=1 node ../tools/run.js``, ``node --test tools/check.js``,
    ``--test-reporter=./r.js``, ``-r ./p.js``; a folder or a pattern node's ``--test`` is
    given is its tests' folder)."""
    words = [w.rpartition("=")[2] for w in given]
    names = [os.path.basename(w) for w in words]
    if any(n in _SHELLS and any(_PATTERN.search(w) for w in words[k + 1:])
           for k, n in enumerate(names)):
        raise ValueError(f"a script of {folder!r} gives a shell a pattern")
    if not _BUILDERS.isdisjoint(names):  # (`make check`: its recipes, a file no word names)
        raise ValueError(f"a script of {folder!r} runs a build tool's recipes")
    from .scriptcode import code_read  # (only where a script's words are read: s59-hfix)

    code_read(base, given, names)  # (in the folder it runs in: its settings from there up,
    # its operands, its options' files; s59-mreview S27)
    found: list[str] = []
    for k, word in enumerate(words):
        path = os.path.normpath(os.path.join(base, word))
        if k == 0 and "/" in word and not path.startswith(_SYSTEM) and fs.entry(path) is None:
            raise ValueError(f"a script of {folder!r} runs {word!r}, no file yet (a program "
                             "it builds first: s58-mreview)")
        if word[:1] == "-" or path.startswith(_SYSTEM) or fs.entry(path) != "file":
            continue  # (a file the session may write)
        if not _SHELLS.isdisjoint(names[:k]) or k == 0 or os.access(path, os.X_OK):
            raise ValueError(f"a script of {folder!r} runs the file {word!r} as a program or "
                             "a shell's script, whose text no guard keeps (s57-sreview)")
        elif given[k - 1] in ("-f", "--file") or given[k].startswith("--file="):
            raise ValueError(f"a script of {folder!r} gives a program the file {word!r} to "
                             "run (`awk -f`)")
        elif not _INTERPRETERS.isdisjoint(names[:k]):  # (node --test's file operand too:
            # a name its patterns do not take is guarded by none; s57-sreview)
            raise ValueError(f"a script of {folder!r} runs the file {word!r} as code, which "
                             "may collect anywhere")
    return found


#: A script file's first line read: none naming a program (``#!``) but a shell's.
_SHEBANG: Final = re.compile(r"(?!#!)|#![ \t]*/(?:usr/)?bin/(?:env[ \t]+)?(?:ba|da)?sh[ \t]*"
                             r"(?:\n|$)")
#: Programs running recipes of a project file no word need name (make's Makefile).
_BUILDERS: Final = frozenset(("make", "gmake", "cmake", "ctest", "ninja", "just", "rake",
                              "scons"))
#: The system's folders (a file there is none the session writes: ``node /usr/bin/true``).
_SYSTEM: Final = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/etc/")
#: What changes the shell's variables or what a ``cd`` does for the commands after it, as a
#: command's program (a declaration, an alias) or an assignment's name before one.
_SHELL_STATE: Final = frozenset(("alias", "unalias", "export", "readonly", "local",
                                  "declare", "typeset", "read", "unset", "hash", "for",
                                  "select", "getopts", "case"))
def _plain_export(words: list[str]) -> bool:
    """Whether ``words`` export (or mark read-only) only assignments of
    ``scriptcode.PLAIN_NAMES`` (``export NODE_ENV=test``: s57-sreview's cost)."""
    return words[0] in ("export", "readonly") and len(words) > 1 and all(
        "=" in w and _plain_assignment(w) for w in words[1:])


def _plain_assignment(word: str) -> bool:
    """Whether the assignment ``word`` before a command sets one of ``scriptcode.PLAIN_NAMES``
    (an allow-list: any other name may be one a program reads a file by,
    ``OPENSSL_CONF=ssl.cnf``, ``NODE_PATH=./lib``, ``LD_PRELOAD=p.so``, ``HOME=sub``;
    s57-sreview)."""
    from .scriptcode import PLAIN_NAMES  # (only where a script's words are read: s59-hfix)

    return word.partition("=")[0] in PLAIN_NAMES


#: The variable read: ``HOME`` (``$HOME``, ``${HOME}``) where the script sets none
#: (``_SHELL_STATE``); ``$PWD`` is the session's logical folder, not read (s57-sreview).
_KNOWN: Final = re.compile(r"\$(?:\{HOME\}|HOME\b)")
_MOVES: Final = re.compile(r"(?:^|[\s;&|])(?:cd|pushd|popd)(?:$|[\s;&|])")
_PATTERN: Final = re.compile(r"[*?\[{]")
#: An output redirection's file (``> test/t.test.js``; not ``2>&1``).
_WRITTEN: Final = re.compile(r">>?[ \t]*([^\s&;|<>]+)")
#: Programs whose folder is not read: a folder stack's, a feeder's (its words come from
#: its input), a runner of a text or a file in this shell (as the program); the feeders
#: anywhere in a command (``nice xargs``).
_UNREAD: Final = frozenset(("popd", "xargs", "parallel", "eval", "source", ".", "exec",
                            "env", "command", "builtin"))
#: The npm settings of a project's ``.npmrc`` that change which package's scripts run, or
#: the shell running them, or what every node they run loads (``node-options``: npm's
#: ``NODE_OPTIONS`` for its scripts, ``--require ./tools/x.cjs``; s60-mfix).
_NPMRC: Final = re.compile(r"(?m)^\s*(?:workspaces?|prefix|script-shell|"
                           r"include-workspace-root|node-options)\s*=")
_FEEDS: Final = frozenset(("xargs", "parallel", "eval", "exec", "popd", "source"))
#: The shells whose first operand is the script they run (read at depth 1).
_SHELLS: Final = frozenset(("sh", "bash", "dash"))
#: Programs that run a file they are given as code (its folder cannot be read).
_INTERPRETERS: Final = frozenset(("node", "nodejs", "python", "python3", "ruby", "perl",
                                  "php", "deno", "bun", "ts-node", "tsx", "babel-node", "zsh",
                                  "ksh", "fish", "csh", "tcsh"))
