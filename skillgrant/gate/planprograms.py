"""The paths a plan's shell entries run (review s42 P1, s43 P2): a covered ``cp`` must not
replace the program, script, module or test an approved entry runs, nor what a runner reads
first (``node_modules``, ``package.json``, a ``Makefile``, pytest's ``conftest.py``). The
guard (``guards.guarded_items``) guards them whole, read from the call's folder and the
project's."""

from __future__ import annotations

import functools
import itertools
import os

from ..lazy import compile_on_use
from .wrapped import PACKAGE_RUNNERS, RUNNERS, RUNS_OPERAND, WRAPPERS

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Their options naming the folder whose ``package.json`` and ``node_modules`` they use.
_NODE_FOLDERS: Final = frozenset({"--workspace", "-w", "--prefix", "-C", "--dir", "--cwd"})
#: Programs that run a project's ``node_modules/.bin`` or its ``package.json``'s scripts.
_NODE_RUNNERS: Final = frozenset({"npx", "bunx", "pnpx", "npm", "pnpm", "yarn", "bun"})


@functools.lru_cache(maxsize=16)
def plan_programs(entries: tuple[str, ...]) -> tuple[str, ...]:
    """The paths the plan's shell entries name as the program run (``Bash(./tools/run.sh)``,
    ``Bash(./tools/*)``: the folder before a pattern), the scripts, modules and tests an
    interpreter or pytest runs (``Bash(python3 tools/run.py *)``: its folder too, Python's
    ``sys.path[0]``; pytest's ``conftest.py`` and settings at the top), and what ``make`` and
    the node runners read (review s42 P1: a covered ``cp`` replaces the approved program, and
    the covered run runs the copy). A path ending in ``/`` is a folder."""
    found: list[str] = []
    home = os.path.expanduser("~")
    for entry in entries:
        tool, _, rest = entry.partition("(")
        rest = _HOME.sub(lambda _: home + "/", rest)  # `~/bin/x.sh`, `$HOME/…` (s43 P2d)
        if tool.strip() not in ("Bash", "Shell", "PowerShell") or "$" in rest:
            continue  # `${CLAUDE_SKILL_DIR}/x.sh`: the skill's folder is guarded (G-13)
        folder = ""  # `cd tools && ./run.sh` runs tools/run.sh (review s42 P1j)
        text = _QUOTES.sub("", rest.rstrip(")").removesuffix(":*"))  # `bash -c "./x.sh"` (P2)
        for part in _PARTS.split(text.replace("(", " ").replace(")", " ")):
            moved, words = _entry_words(part)
            folder = os.path.join(folder, moved) if moved else folder
            if words:
                found += [p if p[:1] == "/" else os.path.join(folder, p)
                          for p in _entry_programs(words)]
    return tuple(dict.fromkeys(found))


def _entry_words(part: str) -> tuple[str | None, list[str]]:
    """The folder a command of an entry moves to (``cd -P DIR``, ``pushd DIR >/dev/null``,
    ``env -C DIR``: review s43 P2c), and the words of the program it runs, past ``env``, the
    wrappers and the assignments, without redirections."""
    split = part.split()  # a redirection with its target apart, a reserved word (s43 P2f)
    given = [w for at, w in enumerate(split) if not _ASSIGNED.match(w) and not (
        _REDIRECTION.match(w) or (at and _OPERATOR.fullmatch(split[at - 1])))]
    words = list(itertools.dropwhile(_RESERVED.__contains__, given))
    if words[:1] == ["env"] or (words and words[0] in WRAPPERS):
        from .words import run_words  # (the options' tables: only for a wrapped program)

        words = run_words(words)
    if words[:1] in (["cd"], ["pushd"]):
        operands = [w for w in words[1:] if w[:1] != "-"]
        return (operands[0] if operands else None), []
    moved = next((w for at, w in enumerate(given[1:], 1)
                  if given[at - 1] in ("-C", "--chdir") and "env" in given[:at]), None)
    return moved, words


#: What separates the commands of an entry's text; the quotes a shell's ``-c`` text is in.
_PARTS: Final = compile_on_use(r"&&|\|\||[;|\n]|(?<![<>])&(?![>])")  # (not `2>&1`: P2f)
_QUOTES: Final = compile_on_use(r"['\"]")
_PATTERN: Final = compile_on_use(r"[*?\[]")
#: Interpreters' options taking a value that is no script (``-X dev``, ``-W error``).
_VALUED: Final = frozenset({"-X", "-W", "-Q", "-r", "--require", "--import"})
_HOME: Final = compile_on_use(r"(?:(?<=[\s(])|^)(?:~|\$HOME|\$\{HOME\})/")
_REDIRECTION: Final = compile_on_use(r"[0-9]*[<>]")
_OPERATOR: Final = compile_on_use(r"[0-9]*(?:>>?|<|&>>?|>&|>\|)")  # (its target follows)
_ASSIGNED: Final = compile_on_use(r"[A-Za-z_][A-Za-z0-9_]*=")
_RESERVED: Final = frozenset({"!", "if", "then", "else", "elif", "do", "while", "until", "{"})


def _entry_programs(words: list[str]) -> list[str]:
    """``plan_programs`` of one entry's words."""
    program, found = words[0], []
    name = os.path.basename(program)
    if "/" in program:  # a virtual environment's Python runs its `lib`'s .pth (P1b)
        found += _literal(program)
        if name.startswith("python"):
            found.append(os.path.join(os.path.dirname(os.path.dirname(program)), "lib") + "/")
    if name in _NODE_RUNNERS or name == "node":  # the project's `node_modules` first (P1c)
        found += ["node_modules/", "package.json"]
        found += [f"{w}/{f}" for at, w in enumerate(words[1:], 1) for f in (
            "node_modules/", "package.json") if words[at - 1] in _NODE_FOLDERS]  # s43 P1k
        found += [f"{w.split('=', 1)[1]}/{f}" for w in words if w.split("=", 1)[0] in
                  _NODE_FOLDERS and "=" in w for f in ("node_modules/", "package.json")]
    if name in RUNNERS and name not in RUNS_OPERAND:  # `setsid ./x.sh`, `taskset -c 0 ./x.sh`
        found += [p for w in words[1:] if "/" in w for p in _literal(w)]  # (s43 P2b)
    if name in PACKAGE_RUNNERS:  # `npx node tools/run.js`, `uv run python x.py` (s43 P2e)
        inner = next((i for i, w in enumerate(words[1:], 1) if os.path.basename(w) in
                      RUNS_OPERAND or os.path.basename(w).startswith(("python", "pytest"))),
                     None)
        found += _entry_programs(words[inner:]) if inner is not None else []
    return found + _script_words(name, words)


def _script_words(name: str, words: list[str]) -> list[str]:
    """``_entry_programs`` of an interpreter's or pytest's words: its scripts and modules."""
    found: list[str] = []
    if name in ("make", "gmake"):  # and the makefiles `-f`, `--file` and `-C DIR` name
        folders = [""] + [w for at, w in enumerate(words[1:], 1)
                          if words[at - 1] in ("-C", "--directory")]
        found += [os.path.join(f, m) for f in folders
                  for m in ("Makefile", "makefile", "GNUmakefile")]
        found += [w.split("=", 1)[-1] if "=" in w else w for at, w in enumerate(words[1:], 1)
                  if words[at - 1] in ("-f", "--file", "--makefile") or
                  w.startswith(("--file=", "--makefile="))]
    if name in RUNS_OPERAND or name.startswith(("python", "pytest", "py.test")):
        for at, word in enumerate(words[1:], 1):
            module = word if words[at - 1] == "-m" else word[2:] if word[:2] == "-m" else ""
            if module:  # `python3 -m pkg.mod` (`-mpkg.mod`) runs pkg/mod from the folder
                found += [module.split(".")[0] + "/", module.split(".")[0] + ".py"]
            elif words[at - 1] in _VALUED:
                continue  # `python3 -X dev x.py`: an option's value
            elif "/" in word or (word[:1] != "-" and not _PATTERN.search(word)):
                # its script, whatever it ends in (`build.pl`: review s43 P2); a bare
                # pattern (`python3 *`) is any script, which the plan grants
                found += [*_literal(word), os.path.dirname(word) + "/"]
        if "pytest" in (name, *words[1:3]) or name == "py.test":
            found += ["conftest.py", "pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini"]
    return found


def _literal(path: str) -> list[str]:
    """``path``, or when it holds a pattern the folder before it."""
    cut = min((path.find(c) for c in "*?[" if c in path), default=-1)
    return [path] if cut < 0 else [path[:cut].rsplit("/", 1)[0] + "/"]
