"""The folders of the project a plan's programs may run in across calls (issue 29, session
52, review s51-greview3 C1).

The runtime's Bash tool keeps its folder from one call to the next (docs/call-gate.md G-6):
after an allowed ``cd sub`` the next call runs in ``sub``, and a ``cd`` a later call makes
again goes on (``sub/sub``), up or anywhere (``cd *``). What a program reads at its start
there was guarded at an earlier call only if that call read the plan's names there. So the
plan fixes a bounded set of folders (``run_folders``): the project's and each folder a shell
entry's own moves reach from it (``entryfolders``, as ``plan_programs`` marks them
``RUN_FOLDER``). Every call reads the plan's names in each of them (``guards``), and a call
that starts a program reading the plan's names is allowed only where each folder it runs in
is one of them (``outside``): elsewhere it is denied, naming the folder. ``cd`` itself, and
programs that read no start file the plan names (``cp``, ``cat``, ``ls``), run anywhere."""

from __future__ import annotations

import functools
import os

from . import files as fs
from .deepnames import RUN_FOLDER

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def run_folders(named: tuple[str, ...], project: str | None) -> tuple[str, ...]:
    """The folders ``named`` (``plan_programs``) marks ``RUN_FOLDER``, from ``project``, as
    normal paths and real paths; () without a project folder."""
    if not project:
        return ()
    found = marked_folders(named, (project,), RUN_FOLDER)
    return tuple(dict.fromkeys([os.path.normpath(project), *found,
                                *(fs.realpath(f) for f in found)]))


@functools.lru_cache(maxsize=8)
def marked_folders(named: tuple[str, ...], roots: tuple[str, ...],
                   mark: str) -> tuple[str, ...]:
    """Each folder ``named`` marks ``mark`` (``RUN_FOLDER``: from the project, a later call
    may run the plan's programs there; ``planpaths.RUNS_IN``: the folders an entry's own
    programs run in, ``make -C sub``, from each folder a call runs in: ``startvars``) joined
    to each of ``roots``, as normal paths, in order, once each; made once for a plan's paths
    (hundreds) and folders."""
    return tuple(dict.fromkeys(os.path.normpath(os.path.join(root, p[1:])) for p in named
                               if p[:1] == mark for root in roots))


def outside(text: str, directory: str, folders: frozenset[str]) -> str | None:
    """Where the shell command ``text`` run in ``directory`` starts a program that reads a
    start file the plan names, in a folder not of ``folders`` (``run_folders``): that
    folder, or None. Its folders are ``directory`` and those its own ``cd``/``pushd`` reach
    (``cd sub && make`` of two entries); a child's move (``make -C sub``) is its entry's,
    read where the entry is (a pattern's: the plan's grant). A command the gate cannot read
    is taken to start one."""
    from .planprograms import plan_programs

    moved = _shell_folders(text, directory)
    away = [f for f in moved or [directory] if os.path.normpath(f) not in folders and
            fs.realpath(f) not in folders] if moved is not None else [directory]
    if not away:
        return None
    try:
        names = plan_programs((f"Bash({text})",))
    except ValueError:
        return away[0]
    return away[0] if any(n[:1] not in _MARKS for n in names) else None


def _shell_folders(text: str, directory: str) -> list[str] | None:
    """``directory`` and the folders the ``cd``/``pushd`` commands of ``text`` reach from it
    (each from every folder before it); None where one cannot be named (``$``, a pattern,
    ``-``, a bare ``cd``, an unreadable text, more than 16)."""
    from .moves import command_words

    try:
        commands = command_words(text)
    except ValueError:
        return None
    found = [directory]
    for words in commands:
        for at, word in enumerate(words):
            if word not in ("cd", "pushd", "popd"):  # (anywhere: `eval cd x`, `X=1 cd x`)
                continue
            operand = next((w for w in words[at + 1:] if w[:1] != "-" or w == "-"), "")
            if word == "popd" or not operand or operand in _LEADS or any(
                    c in operand for c in "$`*?[~") or operand == "-":
                return None
            found = list(dict.fromkeys([*found, *(os.path.normpath(os.path.join(f, operand))
                                                  for f in found)]))
            if len(found) > 16:
                return None
    return found


#: Words after which a word is a command's name.
_LEADS: Final = frozenset({";", "&&", "||", "|", "&", "(", "{", "!", "then", "do", "else",
                           "builtin", "command", "time"})
#: ``plan_programs``' marks that name no file a program reads (the folders it runs in, an
#: entry's text: ``planscripts.ENTRY``).
_MARKS: Final = frozenset(">|\x07@")
