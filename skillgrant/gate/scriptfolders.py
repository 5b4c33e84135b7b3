"""The folders and files a collecting plan's package.json scripts name (issue 29; split from
``testroots`` in session 61): each script the plan runs read as plain words (dash's and bash's
reading), each command's program read (``scriptcode.code_read``), the folders its words name
and the shell script files it runs (``sh scripts/test.sh``, ``./run.sh``: read as the scripts
are, and guarded whole by ``testroots.first_loaded``: s57-sreview C4)."""

from __future__ import annotations

import os
import re

from . import files as fs
from .planscripts import shell_options

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: A script's text read at most this far.
_LIMIT: Final = 1 << 20


def script_folders(folder: str, path: str, depth: int, names: frozenset[str] | None = None,
                    ran: list[str] | None = None) -> list[str]:
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
    from .planscripts import SHEBANG, script_closure

    text = fs.text(path, _LIMIT) if depth == 0 else fs.text(path, _LIMIT + 1)
    if depth and (text is None or "\0" in text or len(text) > _LIMIT or not SHEBANG.match(
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
        npmrc = fs.text(os.path.join(folder, ".npmrc"), _LIMIT) or ""
        if _NPMRC.search(npmrc):  # (`workspaces=true` runs each workspace's scripts)
            raise ValueError(f"{folder!r}'s .npmrc sets where npm runs scripts, or their shell")
        texts = list(script_closure({k: v for k, v in scripts.items() if isinstance(v, str)},
                                    names, folder).values())
    else:  # (a shell script's lines that are comments: its `#!` line, read above)
        texts = ["\n".join(n for n in text.splitlines() if n.lstrip()[:1] != "#")]
    found: list[str] = []
    for script in texts:
        found += _folders_of(folder, script, depth, ran)
    return found


def _folders_of(folder: str, script: str, depth: int, ran: list[str] | None) -> list[str]:
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
        found += [os.path.normpath(os.path.join(b, before_pattern(w))) for w in words
                  for b in bases if w[:1] != "-" and w]
        for base in bases[-2:] if len(bases) > 1 else bases:
            found += _code_run(folder, base, given, depth, ran)
    return found


def _code_run(folder: str, base: str, given: list[str], depth: int,
              ran: list[str] | None) -> list[str]:
    """The folders of a shell script file the command ``given`` (its words from its program
    on, run in ``base``) runs, at ``depth`` 0 (``sh run.sh``, ``./run.sh``, ``nice sh -o
    errexit run.sh``: a shell's script operand, a path as the program), read as its scripts
    are; ``ran`` gets the first part of its path below ``folder`` (all of it guarded:
    ``first_loaded``; one not there yet too, s57-sreview C4). Raises ValueError for one at
    ``depth`` 1, one not below ``folder`` by its real path, for a shell given a pattern, for
    another file a shell's words or an executable file named anywhere, and for a file (not a
    system one) a word naming an interpreter before it runs as code (``node run.js``,
    ``cross-env X=1 node ../tools/run.js``, ``node --test tools/check.js``,
    ``--test-reporter=./r.js``, ``-r ./p.js``; a folder or a pattern node's ``--test`` is
    given is its tests' folder)."""
    words = [w.rpartition("=")[2] for w in given]
    names = [os.path.basename(w) for w in words]
    script = _program_read(folder, base, given, words, names, ran)
    found: list[str] = []
    for k, word in enumerate(words):
        path = os.path.normpath(os.path.join(base, word))
        if word[:1] == "-" or path.startswith(_SYSTEM):
            continue
        if k == script or (k == 0 and "/" in word):  # (the shell's script, the program)
            found += _script_run(folder, base, path, depth, ran, k == 0)
            continue
        if fs.entry(path) != "file":
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


def _program_read(folder: str, base: str, given: list[str], words: list[str],
                  names: list[str], ran: list[str] | None) -> int | None:
    """``_code_run``'s reading of the command's program: a shell given a pattern, a build
    tool, refuse; a shell script file's run (``_shell_script``'s index of it; a path as the
    program: None), or ``scriptcode.code_read``'s reading (None)."""
    if any(n in _SHELLS and any(_PATTERN.search(w) for w in words[k + 1:])
           for k, n in enumerate(names)):
        raise ValueError(f"a script of {folder!r} gives a shell a pattern")
    if not _BUILDERS.isdisjoint(names):  # (`make check`: its recipes, a file no word names)
        raise ValueError(f"a script of {folder!r} runs a build tool's recipes")
    script = _shell_script(given, names)
    if given[:1] == ["set"] and shell_options(given, 1) == len(given):
        return None  # (`set -e`, `set -euo pipefail` in a shell script file: s61 K2)
    if script is None and ("/" not in words[0] or os.path.normpath(os.path.join(
            base, words[0])).startswith(_SYSTEM)):
        from .scriptcode import code_read  # (only where a script's words are read: s59-hfix)

        code_read(base, given, names, ran)  # (in the folder it runs in: its settings from there
        # up, its operands, its options' files; s59-mreview S27)
    return script


def _shell_script(given: list[str], names: list[str]) -> int | None:
    """The index in ``given`` of the script file a shell of ``_SHELLS`` as the program runs
    (``sh -e run.sh``, ``bash -o pipefail run.sh``): after its options of
    ``planscripts.SHELL_FLAGS`` only (any other, ``-c``'s text, ``-i``'s start files,
    ``-s``'s input: None)."""
    if not names or names[0] not in _SHELLS or ("/" in given[0] and not given[0].startswith(
            _SYSTEM)):
        return None
    k = shell_options(given, 1)
    return k if k is not None and k < len(given) else None


def _script_run(folder: str, base: str, path: str, depth: int, ran: list[str] | None,
                program: bool) -> list[str]:
    """``_code_run``'s reading of the shell script file at ``path`` (there or not yet, but as
    the ``program``: one it builds first, s58-mreview) a command run in ``base`` runs: its
    commands' folders; ``ran`` gets its guarded path."""
    if program and fs.entry(path) is None:
        raise ValueError(f"a script of {folder!r} runs {path!r}, no file yet (a program it "
                         "builds first: s58-mreview)")
    if depth or fs.entry(path) not in ("file", None):
        raise ValueError(f"a script of {folder!r} runs {path!r} as a program or a shell's "
                         "script from a script file, or a folder: not read")
    if ran is not None:
        ran.append(_guarded_script(folder, path))
    return script_folders(base, path, 1, None, ran) if fs.entry(path) == "file" else []


def _guarded_script(folder: str, path: str) -> str:
    """The path ``first_loaded`` guards for the shell script file at ``path`` a script of the
    run folder ``folder`` runs: its first part below ``folder`` (``scripts`` of
    ``scripts/test.sh``: a folder moved or linked there brings another file). Raises
    ValueError where ``path`` is not below ``folder`` by its spelling and its real path (a
    link on the way leads elsewhere)."""
    real = fs.realpath(folder)
    inside = os.path.relpath(path, folder)
    if inside.split("/")[0] in ("..", ".") or fs.realpath(path) != os.path.join(real, inside):
        raise ValueError(f"a script of {folder!r} runs the shell script {path!r}, not below "
                         "its folder by its real path")
    return os.path.join(real, inside.split("/")[0])


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
#: The shells whose first operand is the script they run (read at depth 1; their options
#: before it: ``planscripts.shell_options``).
_SHELLS: Final = frozenset(("sh", "bash", "dash"))
#: Programs that run a file they are given as code (its folder cannot be read).
_INTERPRETERS: Final = frozenset(("node", "nodejs", "python", "python3", "ruby", "perl",
                                  "php", "deno", "bun", "ts-node", "tsx", "babel-node", "zsh",
                                  "ksh", "fish", "csh", "tcsh"))


def files_seen(folder: str, text: str) -> bool:
    """Whether each command of the script ``text`` is ``planscripts.seen`` or runs a shell
    script file of ``folder`` (``sh scripts/test.sh``, ``./run.sh``: ``scriptfolders``' reading)
    whose own commands are and name no jest (s61-mreview K7: `mocha` in the file; M10)."""
    import shlex

    from .planscripts import commands, program_at, seen, shell_file

    read = commands(text)
    for words in read if read is not None else [[]]:
        words = words[program_at(words):]
        if not words:
            return False
        file = shell_file(words)
        named = [file] if file is not None else []
        if not named and not seen(shlex.join(words)):
            return False
        try:
            inner = fs.read(os.path.join(folder, named[0]), 1 << 20) if named else b""
        except OSError:
            return False
        if named and (b"jest" in inner or not seen(inner.decode("utf-8", "replace"))):
            return False  # (jest's words in the file are read by no one: s61-mreview M10)
    return True


def before_pattern(path: str) -> str:
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
