"""The names a plan's programs read that are guarded in every folder (issue 29, session 52,
review s51-greview3 B5).

``entryfolders`` reads the folders one entry's programs run in from the call's folder, and
``runfolders`` those the Bash tool may be in across calls. One more thing takes a program
elsewhere:

- An approved build file or script moves before it starts a program (a recursive make's
  ``cd sub && $(MAKE)``, ``$(MAKE) -C sub``, an npm script's ``cd sub && make``, a script's
  ``chdir``): what runs there may be any program. ``planprograms`` marks the files whose text
  decides that (``READS``: a runner of project commands' own files, make's makefiles and
  what they include, an interpreter's or a shell's script); where one's text names a move
  (``_MOVES_IN``), the start names of every program (``ALL_STARTS``) and the plan's are
  guarded at any depth.

Reading the approved text is a reading of its words, not of its evaluation: a move the text
builds from pieces (``$(C)d sub``, ``"ch" + "dir"``) is not seen; the file is the project's
own, which no call may write (the residual, docs/decisions.md, session 52)."""

from __future__ import annotations

import os

from ..lazy import compile_on_use
from . import files as fs
from .buildnames import named_paths
from .entryfolders import pieces, unquoted
from .movedoubts import ASSIGNMENT
from .placed import fold
from .planpaths import MAKEFILE
from .starttables import ALL_STARTS

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: What ``plan_programs`` gives when an entry may move the Bash tool's folder (read where
#: the session has no project folder: ``runfolders`` needs one), and writes before a file
#: (from the call's folder) whose text is read for a move.
TOOL_MOVES: Final = "|"
READS: Final = "@"
#: What ``plan_programs`` writes before a folder (from the project's) an entry's programs
#: run in, its own moves read (``""``: the project's): ``runfolders``.
RUN_FOLDER: Final = "\x07"
#: A word that may move the shell it runs in, as a command of an entry (quotes gone; and
#: PowerShell's, a ``PowerShell(…)`` entry's): ``.`` as ``source`` is a word alone.
_MOVER: Final = compile_on_use(r"(?<![\w.-])(?:cd|pushd|popd|source|eval|(?i:chdir|sl|"
                               r"set-location|push-location|pop-location))(?![\w.-])"
                               r"|(?:^|[\s;&|(])\.(?=\s|$)")

#: What names a move in a build file's or a script's text: the shell's, a program's option
#: (``-C``, ``-sC``, ``--directory``, ``--prefix``, …), an interpreter's ``chdir`` or a
#: program started in a folder (``cwd``), a runner's setting (tox's ``changedir``, a
#: Taskfile's ``dir:``, just's ``working-directory``, CMake's ``WORKING_DIRECTORY``).
_MOVES_IN: Final = compile_on_use(
    r"(?i:(?<![\w-])(?:cd|pushd|popd|f?chdir|changedir|setwd|cwd|workdir|working[-_]?dir"
    r"(?:ectory)?|set-location|push-location|sl)(?![\w-]))|(?<![\w-])dir(?=\s*[:=])|(?<![\w-])-[a-z]*C|(?<![\w-])-(?:-directory|-dir|-chdir|-cwd|-prefix|-wd|"
    r"-cd|-working-directory|chdir|-manifest-path|-project-dir|-root|-test-dir|w)\b")
#: The bytes of a file read for a move; a longer file is taken to hold one.
_LIMIT: Final = 1 << 20
#: The marks of ``plan_programs``' items that are no path a program reads by its name.
_NOT_NAMES: Final = frozenset("%+=:!>&|@\x06\x07")


def moves_tool(text: str) -> bool:
    """Whether the plan entry's text ``text`` may move the shell of the runtime's Bash tool
    for the calls after it: a word of it that moves a shell (``cd``, ``pushd``, ``popd``,
    ``source``, ``.``, ``eval``: in a child's code too, which is over-strict), or a command
    named by a pattern or an expansion (``Bash(* x)`` allows ``cd x``; not the runtime's
    placeholders, which are folders)."""
    bare = unquoted(text).replace("\\", "")
    if _MOVER.search(bare):
        return True
    leads = (_PLACEHOLDER.sub("/", next((w for w in part.split() if not ASSIGNMENT.match(w)),
                                        "")) for part in pieces(bare)[::2])
    return any(c in lead for lead in leads for c in "*?[$`")


#: The runtime's placeholders, whose values are folders (``entryfolders.PLACEHOLDERS``).
_PLACEHOLDER: Final = compile_on_use(r"\$\{?CLAUDE_(?:PROJECT_DIR|PLUGIN_ROOT|PLUGIN_DATA|"
                                     r"SKILL_DIR)\}?")


def deep_names(named: tuple[str, ...], roots: list[str], unbounded: bool) -> frozenset[str]:
    """The names guarded at any depth for the plan whose programs' paths are ``named``
    (``plan_programs``), its files read from each folder of ``roots`` (the call's, the
    project's, the plan's run folders): every program's start names and the last name of
    each path it names where a file it marks ``READS`` names a move; the last names alone
    where an entry may move the Bash tool and the session's folders are ``unbounded`` (no
    project folder: ``runfolders`` cannot bound them); none otherwise. A name of a folder on
    the way to a root is left out."""
    moved = any(_moves_in(os.path.join(root, path[1:])) for path in named
                if path[:1] == READS for root in roots) or any(  # (a makefile's includes)
        _moves_in(path) for path, _ in named_paths(
            tuple(n for n in named if n[:1] == MAKEFILE), roots))
    if not moved and not (unbounded and TOOL_MOVES in named):
        return frozenset()
    names = {_last(path) for path in (*named, *(ALL_STARTS if moved else ()))
             if path[:1] not in _NOT_NAMES and "$" not in path}
    # (not a name of a folder the call's or the project's path passes: every path written
    # there would hold it, `~/src/p` beside `Bash(python3 src/x.py)`; a residual)
    passed = {fold(part) for root in roots for form in (root, fs.realpath(root))
              for part in form.split("/")}
    return frozenset(n for n in names - {"", ".", ".."} if fold(n) not in passed)


def _last(path: str) -> str:
    """The last name of a path ``plan_programs`` gives (``^conftest.py``, ``tools/``)."""
    return os.path.basename(path.removeprefix("^").rstrip("/"))


def _moves_in(path: str) -> bool:
    """Whether the text of the file at ``path`` names a move (``_MOVES_IN``); a file that
    cannot be read, or longer than ``_LIMIT``, is taken to; one not there, or compiled (a
    NUL in its first 4 KiB), names none."""
    try:
        text = fs.read(path, _LIMIT + 1)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return False
    except (OSError, ValueError):
        return True
    if b"\0" in text[:4096]:  # (a compiled program: its moves are not read, a residual)
        return False
    return len(text) > _LIMIT or _MOVES_IN.search(text.decode(errors="replace")) is not None
