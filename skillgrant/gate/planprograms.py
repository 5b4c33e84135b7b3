"""The paths a plan's shell entries run (reviews s42 P1, s43 P2, s44 P1/P3): a covered ``cp``
must not replace the program, script, module or test an approved entry runs, nor what a
program reads first (``STARTS``: ``node_modules``, ``package.json``, a ``Makefile``,
``build.ninja``, Maven's ``.mvn``, pytest's settings and ``conftest.py``), nor a file its
options name it runs (``make -f``, ``awk -f``, ``cmake -P``). The guard
(``guards.guarded_items``) guards them whole, read from the call's folder and the project's;
a path marked ``^`` from every folder from the call's up."""

from __future__ import annotations

import functools
import os

from ..lazy import compile_on_use
from .collectopts import code_runs_pytest, plugin_words, pytest_start
from .deepnames import RUN_FOLDER, TOOL_MOVES, moves_tool
from .entryfolders import (
    ENTRY_ENVIRONMENT,
    PLACEHOLDERS,
    entry_text,
    entry_words,
    folders_of,
    pieces,
    unnamed,
    unquoted,
)
from .entryvars import entry_values
from .environment import values
from .movedoubts import ASSIGNMENT
from .planpaths import (
    CMAKELISTS,
    FAMILIES,
    INPUT,
    JS,
    MAKEFILE,
    MODULES,
    NODE_JS,
    REMADE,
    REQUIREMENTS,
    RUNS_IN,
    SAFE_PATH,
    SETTINGS,
    VALUED,
    WORKSPACES,
    family,
    in_folders,
    literal,
    local_package,
    made_line,
    module_files,
    option_values,
    required,
    takes_code,
)
from .planscripts import ENTRY
from .starttables import (
    ALL_STARTS,
    BUILT,
    CMAKE_VALUED,
    FILE_OPTIONS,
    FILE_TOPS,
    FOLDER_OPTIONS,
    HOOKED,
    INTERPRETERS,
    LOADED,
    NODE_RUNNERS,
    NODE_TOPS,
    PLUGGED,
    RUNS_ANY,
    SCRIPT_OPTIONS,
    SEARCH_UP,
    SETTINGS_OPTIONS,
    STARTS,
    SUBCOMMANDS,
    SYNCERS,
)
from .wrapped import PACKAGE_RUNNERS, READERS, RUNNERS, RUNS_OPERAND, long_prefix

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

def plan_programs(entries: tuple[str, ...]) -> tuple[str, ...]:
    """``_plan_programs``, with the runtime's placeholders (review s44 P9) and the session's
    values the entries' folders depend on (``entryfolders``) from the environment."""
    return _plan_programs(entries, tuple(v or "" for v in values(ENTRY_ENVIRONMENT)))


@functools.lru_cache(maxsize=16)
def _plan_programs(entries: tuple[str, ...], values: tuple[str, ...]) -> tuple[str, ...]:
    """The paths the plan's shell entries name as the program run (``Bash(./tools/run.sh)``,
    ``Bash(./tools/*)``: the folder before a pattern), the scripts, modules and tests an
    interpreter or pytest runs (``Bash(python3 tools/run.py *)``: its folder too, Python's
    ``sys.path[0]``, the call's folder for ``-m``), and what each program reads at its start
    (``STARTS``; review s42 P1: a covered ``cp`` replaces the approved program, and the
    covered run runs the copy), in each folder the entry's programs may run in
    (``entryfolders``). A path ending in ``/`` is a folder; one starting with ``^`` is read
    from every folder from the call's up (``guards``)."""
    found: list[str] = []
    for entry in entries:
        tool, text = entry_text(entry, values[:len(PLACEHOLDERS)])
        if tool in ("Bash", "Shell", "PowerShell"):
            found += entry_values(entry, text)  # (s50-gfix2)
            found += _entry_paths(entry, text)
            found += [TOOL_MOVES] if text and moves_tool(text) else []  # (no project: C1)
            found.append(ENTRY + text)  # (the entry's text, marked: `planscripts`, s56)
    # (the call's folder itself, a script's there: not guarded whole, docs/call-gate.md)
    unique = dict.fromkeys(found)
    unique.pop("./", None)
    return tuple(unique)


def _entry_paths(entry: str, text: str) -> list[str]:
    """``plan_programs`` of one entry's text ``text``, command by command, each read in every
    folder of the entry (s49-greview3: the closure over its moves, ``entryfolders``)."""
    folders = list(folders_of(entry, text))
    found = [RUN_FOLDER + f for f in folders if f]  # (the project's folders it runs in: C1)
    parts = pieces(unquoted(text))
    piped: list[str] = []  # (the words of a command piping into this one)
    for at, part in enumerate(parts[::2]):
        moved, words = entry_words(part)
        if moved is not None and unnamed(moved) and "CLAUDE_SKILL_DIR" not in moved:
            _refuse(entry, moved, parts[2 * at + 2::2])
        lead = os.path.basename(next((w for w in part.split() if not ASSIGNMENT.match(w)), ""))
        found += in_folders(folders, STARTS.get(lead, ())) if words[:1] != [lead] else []
        # (a runner's own start files: `valgrind true`'s .valgrindrc, s49-greview D2)
        if words and "$" in words[0]:  # a program of a `$` name: any; a skill's own
            found += in_folders(folders, (*ALL_STARTS, *_RECIPE_PYTHON))  # script (its
        elif words and "$" not in words[0]:  # folder guarded, G-13) may start any here
            found += in_folders(folders, made_line(part, words[0], _entry_programs(  # (s53-
                [w for w in words if "$" not in w]), text))  # greview R)
            if family(lead) in FAMILIES and any("$" in w for w in words[1:]):  # (its
                found += in_folders(folders, ALL_STARTS)  # script by an expansion: any)
            found += [RUNS_IN + os.path.join(folder, f) for folder in folders
                      for f in ["", *_runs_in(words)]
                      if os.path.join(folder, f)]  # (the folders it runs in: s49 E3)
        if any(family(n) in FAMILIES or n in INTERPRETERS or n == "xargs"  # (its words'
               for n in map(os.path.basename, words)):  # file: s49-greview2 X1)
            fed = [*INPUT.findall(part), *piped,  # (`bash < x.sh`: S3; `cat x.sh | bash`,
                   *(option_values(words[words.index("xargs"):], ("-a", "--arg-file"))
                     if "xargs" in words else [])]  # `sudo bash`: S3b; xargs' own `-a`)
            found += in_folders(folders, [p for t in fed for p in (
                *literal(t), (os.path.dirname(t) or ".") + "/")])
        found += in_folders(folders, _fed_scripts(words, part))  # (s53-greview S1)
        piped = [*piped, *(w for w in words[1:] if w[:1] != "-"), *INPUT.findall(part)] if \
            parts[2 * at + 1:2 * at + 2] == ["|"] else []  # (what the pipe so far reads)
    return found


def _fed_scripts(words: list[str], part: str) -> list[str]:
    """The files a command ``words`` (its text ``part``) of a program outside the tables is
    given as code (review s53-greview S1): its input redirection's file (``sqlite3 out/db <
    x.sql``, ``ed -s f < x.ed``) and its script options' values, guarded as a script is
    (which makes the entry one reading project code: ``deepnames``). Not for a program known
    to read them only as data (``wrapped.READERS``), nor a writer's (``rm -f x``), nor an
    interpreter's (``fed`` above reads its input)."""
    from .writers import FOLDER_WRITERS

    name = os.path.basename(words[0]) if words else ""
    if not name or "$" in name or name in READERS or name == "xargs" or name in INTERPRETERS \
            or family(name) in FAMILIES or name in FILE_OPTIONS or name == "git":
        return []
    named = option_values(words, SCRIPT_OPTIONS) if name not in FOLDER_WRITERS or \
        name == "sqlite3" else []
    return [p for t in [*INPUT.findall(part), *named] if "$" not in t for p in literal(t)]


def _refuse(entry: str, moved: str, rest: list[str]) -> None:
    """Refuse the plan (every call denied, naming it) whose ``entry`` runs ``rest`` in a
    folder ``moved`` the gate cannot name (``cd $DIR && make``): what the programs there
    read at their start is not known (session 49)."""
    if any(w and ("$" in w[0] or _entry_programs(w)) for w in (entry_words(p)[1] for p in rest)):
        raise ValueError(f"the plan's entry {entry!r} runs a program in the folder {moved!r}, "
                         "which the gate cannot name: what it reads at its start is unknown")


#: A pattern's characters.
_PATTERN: Final = compile_on_use(r"[*?\[]")


def _entry_programs(words: list[str]) -> list[str]:
    """``plan_programs`` of one entry's words."""
    program, found = words[0], []
    name = os.path.basename(program)
    if "/" in program:  # a virtual environment's Python runs its `lib`'s .pth (P1b); what
        found += [*literal(program), os.path.dirname(program) + "/"]  # a script sources
        # beside it (as an interpreter's script's folder: s48-greview S7); a project's
        # program runs any other, as make does (a jest anywhere: s58-mreview J6d, s59)
        found += [SETTINGS + "*"] if not program.startswith((
            "/usr/", "/bin/", "/sbin/", "/opt/", "$")) and not name.startswith((
                "python", "pytest", "py.test")) else []  # (a venv's: read above, V2)
        if name.startswith("python"):
            venv = os.path.dirname(os.path.dirname(program))  # (and its pyvenv.cfg: `home`
            found += [os.path.join(venv, "lib") + "/", os.path.join(venv, "pyvenv.cfg")]  # V2)
    elif name in ("sh", "bash", "dash", "zsh", "ksh") and "-c" not in words and any(
            w[:1] != "-" for w in words[1:]):  # (`sh ci.sh`: the project's script, as
        found.append(SETTINGS + "*")  # `./ci.sh`)
    if name in NODE_RUNNERS and any(  # (a pattern: the call may give one, review s47 W1)
            _PATTERN.search(w) or w in ("-w", "-ws", "-r", "-F", "workspace", "workspaces") or
            w.startswith("-w") or
            long_prefix(w, "workspace", "workspaces", "recursive", "filter") for w in words):
        found += [WORKSPACES + f for f in ["", *option_values(words, NODE_TOPS)]]  # (s44 P3)
    if name in RUNNERS and name not in RUNS_OPERAND:  # `setsid ./x.sh`, `taskset -c 0 ./x.sh`
        found += [p for w in words[1:] if "/" in w for p in literal(w)]  # (s43 P2b), and
        found += [p for at, w in enumerate(words[1:], 1) if w[:1] != "-"  # what each later
                  for p in _entry_programs(words[at:])]  # word may start (s48-greview R1)
    if name in PACKAGE_RUNNERS:  # `npx node tools/run.js`, `uv run python x.py` (s43 P2e)
        inner = next((i for i, w in enumerate(words[1:], 1) if os.path.basename(w) in
                      RUNS_OPERAND or os.path.basename(w).startswith(("python", "pytest"))),
                     None)
        found += _entry_programs(words[inner:]) if inner is not None else []
    return found + _started(name, words) + _script_words(name, words)


def _started(name: str, words: list[str]) -> list[str]:
    """What ``name`` with the words ``words`` reads at its start (``STARTS``), in its folders
    (and a pytest path's folder), and the files its options name it runs."""
    module = words[words.index("-m") + 1] if "-m" in words[1:-1] else ""
    kind = "pytest" if "pytest" in (name, *words[1:3]) or name == "py.test" or pytest_start(
        words) is not None or code_runs_pytest(words) else (  # (`python3 -mpytest`, `-m
        # pytest.__main__`, `-c "import pytest; pytest.main()"`: s60-preview O)
        module if name.startswith("python") and module else name)  # `python3 -m mypy`
    files = option_values(words, FILE_OPTIONS.get(kind, ()))
    folders = _folders(kind, words)
    named = [os.path.join(f, v) for f in folders for v in files]
    folders += [os.path.dirname(v) for v in files] if kind in FILE_TOPS else []
    anything = kind in RUNS_ANY or (kind == "git" and not HOOKED.isdisjoint(words[1:4]))
    starts = ALL_STARTS if anything else STARTS.get(kind, ())
    if not set(SEARCH_UP.get(kind, ())).isdisjoint(words[1:]):  # (`scons -u`: s48 H2b)
        starts = tuple(n if n[:1] == "^" else "^" + n for n in starts)
    found = in_folders(folders, starts)
    if anything:  # a recipe's Python: the call's folder first on its sys.path, a venv's
        found += in_folders(folders, _RECIPE_PYTHON)  # start files (review s47 H5)
    if (kind in RUNS_ANY or kind in SYNCERS) and kind not in NODE_RUNNERS:  # any path its
        found += [p for at, w in enumerate(words[1:], 1) for v in [w.split("=", 1)[-1]]  # words
                  if ("/" in v or "-D" in (w[:2], words[at - 1])) and v not in folders  # name,
                  for p in literal(v)]  # whatever the option (cmake's `-D X=FILE`: C4; `uv run
        # --with ./pkg`: session 49; a node runner's specs: `local_package`)
    if kind in ("node", "nodejs") and "--test" in words[1:]:  # (the tests it collects: C3)
        found.append(SETTINGS + "node")
    if kind in PLUGGED or anything:  # the plugins its settings name (session 48), and
        found.append(SETTINGS + (kind if kind in PLUGGED else "*"))  # in the settings file
        found += [f"{SETTINGS}{kind}={os.path.join(f, v)}" for f in folders  # its option
                  for v in option_values(words, SETTINGS_OPTIONS.get(kind, ()))]  # names (P1)
    if kind in ("pip", "pip3"):  # what it builds from a path (`pip install ./pkg`, `-e .`,
        found += [p for w in words[2:] if w[:1] != "-" and ("/" in w or w == ".")  # or a
                  for p in (literal(w) if w != "." else BUILT)]  # requirements file's `.`:
        files = option_values(words, ("-r", "--requirement", "-c", "--constraint"))
        found += in_folders(folders, BUILT) if files else []
        found += [REQUIREMENTS + v for v in files]  # (and what each includes: s48 P1)
    if kind in NODE_RUNNERS:  # a folder or tarball it installs or packs (review s47 N4)
        found += [p for w in words[1:] if w[:1] != "-" for p in local_package(w)]
    if kind in ("npm", "npx"):  # the npmrc it is given, and its values (s48-greview2 C5)
        from .wrapped import NPMRC, NPMRC_OPTIONS
        found += [p for v in option_values(words, NPMRC_OPTIONS) for f in folders
                  for p in (*literal(os.path.join(f, v)), NPMRC + os.path.join(f, v))]
    found += _cmake_lists(words, folders) if kind == "cmake" else []
    if kind in ("make", "gmake"):  # (and what its rules remake `-f x.mk` from, what the
        given = [os.path.join(f, v) for f in folders  # makefiles include: s48 M1)
                 for v in option_values(words, ("-f", "--file", "--makefile"))]
        found += [MAKEFILE + n for n in given or [f or "." for f in folders]]
        named += [os.path.join(os.path.dirname(n), f"{p}{os.path.basename(n)}{e}")
                  for n in given for p, e in REMADE]
    return found + [p for n in named for p in literal(n) if os.path.normpath(p) != "."]


def _cmake_lists(words: list[str], folders: list[str]) -> list[str]:
    """The ``CMakeLists.txt`` cmake with ``words`` reads (in ``folders``, its source
    operand's), marked for what each includes (``buildnames``: session 54)."""
    operands = [w for at, w in enumerate(words[1:], 1) if w[:1] != "-" and
                words[at - 1] not in CMAKE_VALUED]
    scripts = [os.path.join(f, v) for f in folders for v in option_values(words, ("-P",))]
    return [CMAKELISTS + os.path.join(f, "CMakeLists.txt") for f in folders + operands] + [
        CMAKELISTS + p for p in scripts]


def _folders(kind: str, words: list[str]) -> list[str]:
    """The folders ``kind`` with the words ``words`` reads its start files in: the call's,
    those its options name (and a named file's), a build front end's or meson's operands, a
    pytest path's folder."""
    named = option_values(words, FOLDER_OPTIONS.get(kind, ()))
    folders = [*_chained(named), *(os.path.dirname(v) for v in named)]
    if kind in ("build", "pyproject-build"):  # (the source folder it builds: s48-greview2 B1)
        folders += [w for w in words[1:] if w[:1] != "-" and w not in ("-m", "build")]
    if kind == "meson":  # `meson setup BUILD SOURCE` (s48-greview2 M2)
        folders += [w for w in words[1:] if w[:1] != "-" and w not in SUBCOMMANDS[kind]]
    if kind == "pytest":  # its root is read from its paths' folders up (and conftest.py)
        folders += [os.path.dirname(w) for w in words[1:] if "/" in w and w[:1] != "-"]
    return folders


def _runs_in(words: list[str]) -> list[str]:
    """The folders the program of ``words`` runs in that its options name (``git -C sub``,
    ``make -C sub``, ``npm --prefix sub``)."""
    name = os.path.basename(words[0])
    return _chained(option_values(words, ("-C",) if name == "git" else
                                  FOLDER_OPTIONS.get(name, ())))[1:]


def _chained(named: list[str]) -> list[str]:
    """The call's folder (``""``) and the folders the options ``named`` move to, each from
    every folder before it (``make -C sub -C x``: ``sub/x``, s49-greview3 M1; git's too)."""
    folders = [""]
    for value in named:
        folders += [os.path.join(f, value) for f in folders]
    return list(dict.fromkeys(folders))


def runs_named_file(name: str, rest: list[str], word: str) -> bool:
    """Whether ``word`` of the command ``name`` ``rest`` is the file an option of
    ``FILE_OPTIONS`` names it to run, apart or attached (``awk -f tools/x.awk``,
    ``-ftools/x.awk``, ``--file=tools/x.awk``, ``cmake -Ptools/x.cmake``), and no other word
    holds it: for the readers rule, which takes it as the script an interpreter runs (review
    s44 C7; ``guards`` guards that file for a plan naming it)."""
    values = _file_values(name, tuple(rest))  # (once a command: s59-hreview T5)
    return any(word == v or (word[:1] == "-" and word.endswith(v)) for v in values) and \
        sum(word in w for w in rest) == 1


@functools.lru_cache(maxsize=16)
def _file_values(name: str, rest: tuple[str, ...]) -> tuple[str, ...]:
    """The values ``FILE_OPTIONS`` of the program ``name`` take in its words ``rest``."""
    names = FILE_OPTIONS.get(os.path.basename(name), ())
    return tuple(option_values([name, *rest], names)) if names else ()


#: What a recipe's or a script's Python reads from the folder it runs in: the call's folder as
#: a module folder (a standard module's name there: ``named.Index``), a venv's ``lib/`` and
#: ``pyvenv.cfg`` (review s47 H5, V2).
_RECIPE_PYTHON: Final = (MODULES + ".", *(f"{v}/{n}" for v in (".venv", "venv", "env")
                                          for n in ("lib/", "pyvenv.cfg")))


def _script_words(name: str, words: list[str]) -> list[str]:
    """``_entry_programs`` of an interpreter's or pytest's words: its scripts and modules."""
    found: list[str] = []
    words = plugin_words(name, words)  # (`-pNAME`, `-qpNAME`: `-p NAME`'s, s56-greview3 A)
    python = name[:6] == "python"  # (`-c`, `-`, no script: the call's folder first, as
    if name in INTERPRETERS or name.rstrip("0123456789.-") in INTERPRETERS or \
            name.startswith(("python", "pytest", "py.test")):  # -m: V4; `lua5.4`: s48)
        for at, word in enumerate(words[1:], 1):
            word = word.split("::", 1)[0]  # (a pytest node id `test_x.py::TestA`: s48 S5)
            module = word if words[at - 1] == "-m" else word[2:] if word[:2] == "-m" else ""
            safe = any(SAFE_PATH.fullmatch(w) for w in words[1:at])
            if takes_code(name, words[at - 1]) or (python and word == "-"):
                return found + _inline(name, words, at, safe)  # (or a script on stdin)
            if module:  # `python3 -m pkg.mod` (`-mpkg.mod`) runs pkg/mod from the folder,
                # which is first on sys.path (unless -I/-P: then not the call's folder)
                found += [*module_files(module), *([] if safe else ["./", MODULES + "."])]
            elif (words[at - 1] in VALUED.get(family(name), ()) and (name.rstrip(
                    "0123456789.-") != "bun" or words[1:2] == ["test"])) or (  # (bun's
                    at == 1 and word in SUBCOMMANDS.get(name, ())):  # test options are flags
                continue  # elsewhere: s52-greview2 R11) `python3 -X dev x.py`; `bun run`
            elif (loaded := _preloaded(words[at - 1], word)) is not None:
                found += loaded
            elif "/" in word or (word[:1] != "-" and not _PATTERN.search(word)):
                # its script, whatever it ends in (`build.pl`: review s43 P2); a bare
                # pattern (`python3 *`) is any script, which the plan grants
                found += [*literal(word), (os.path.dirname(word) or "."
                                            ) + "/", *_named_too(name, words[1:at], word)]
                if python and not os.path.dirname(word) and not safe:
                    found.append(MODULES + ".")  # (its folder, the call's, first: P3)
    if python and not found and not any(SAFE_PATH.fullmatch(w) for w in words[1:]):
        found.append(MODULES + ".")  # no script: standard input's, or a prompt's (V4)
    return found


def _preloaded(before: str, word: str) -> list[str] | None:
    """The files a preload option loads (``-r ./pre``, ``-r./pre``, ``--import=./x``: with
    node's extensions, s49-greview S1), or None where ``word`` is none."""
    if before in LOADED:
        return required(word) or (literal(word) if "/" in word else [])
    if word[:1] == "-" and (word[:2] == "-r" or word.split("=", 1)[0] in LOADED):
        return required(word.split("=", 1)[1] if "=" in word else word[2:])
    return None


def _inline(name: str, words: list[str], at: int, safe: bool) -> list[str]:
    """What the code at ``words[at]`` (``-c CODE``, ``-e CODE``, ``python3 -``) names: a
    shell's command's programs; Python's call's folder, first on its ``sys.path`` as for
    ``-m`` (review s47 V4), unless ``safe`` (``-I``, ``-P`` before it)."""
    if family(name) == "shell":
        return _entry_programs(words[at:])
    return [MODULES + "."] if name[:6] == "python" and not safe else []


def _named_too(name: str, before: list[str], word: str) -> list[str]:
    """What else a script word ``word`` (after the words ``before``) names (review
    s47-greview2): a module ``-m unittest test_x`` imports; the files ``bun run lint`` runs
    where the package has no such script (``lint.js``, ``lint.ts``, …)."""
    found = module_files(word) if "-m" in before and "/" not in word else []
    if family(name) == "node":  # (a dotted name too: `bun run build.prod`; node's
        found += [f for ext in (JS if name[:4] != "node" else NODE_JS)  # CommonJS, s48
                  for f in literal(word + ext)]  # B1)
    return found
