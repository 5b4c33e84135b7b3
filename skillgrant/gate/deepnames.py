"""The names a plan's programs read that are guarded in every folder (issue 29; sessions 52, 53:
reviews s51-greview3 B5, s52-greview).

``entryfolders`` reads the folders one entry's programs run in from the call's folder, and
``runfolders`` those the Bash tool may be in across calls. One more thing takes a program
elsewhere: an approved build file, script or test (a recursive make, an npm script, a
script's ``chdir``, a test building a fixture project) may start any program in any folder,
by spellings no reading of its text names exactly (make's ``-BC``, ``--di=``; npm's
workspaces; ``find -execdir``; ``cmake -S``; ``perl -xDIR``; ``git submodule foreach``; a
script it runs, which runs another). So where the plan holds a program that reads project
code (any path ``planprograms`` gives for its entries: a script, a module, a runner's build
file, a test runner's settings), the start names of every program (``ALL_STARTS``) and the
last name of each path the plan names are guarded at any depth, whatever its files say
(session 53: the move reading of session 52 is gone; docs/decisions.md)."""

from __future__ import annotations

from ..lazy import compile_on_use
from . import files as fs
from .entryfolders import pieces, unquoted
from .movedoubts import ASSIGNMENT
from .placed import fold
from .planscripts import ENTRY
from .starttables import ALL_STARTS

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: What ``plan_programs`` gives when an entry may move the Bash tool's folder (read where
#: the session has no project folder: ``runfolders`` needs one).
TOOL_MOVES: Final = "|"
#: The mark session 52 wrote before a file read for a move; since session 56 before each
#: shell entry's text (``planscripts.ENTRY``: ``guards`` names it among the marks it skips).
READS: Final = ENTRY
#: What ``plan_programs`` writes before a folder (from the project's) an entry's programs
#: run in, its own moves read (``""``: the project's): ``runfolders``.
RUN_FOLDER: Final = "\x07"
#: A word that may move the shell it runs in, as a command of an entry (quotes gone; and
#: PowerShell's, a ``PowerShell(…)`` entry's): ``.`` as ``source`` is a word alone.
_MOVER: Final = compile_on_use(r"(?<![\w.-])(?:cd|pushd|popd|source|eval|(?i:chdir|sl|"
                               r"set-location|push-location|pop-location))(?![\w.-])"
                               r"|(?:^|[\s;&|(])\.(?=\s|$)")

#: The marks of ``plan_programs``' items that are no path a program reads by its name.
_NOT_NAMES: Final = frozenset("%+=:;!>&|@\x06\x07")


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


def deep_names(named: tuple[str, ...], roots: list[str]) -> frozenset[str]:
    """The names guarded at any depth for the plan whose programs' paths are ``named``
    (``plan_programs``), from each folder of ``roots`` (the call's, the project's, the plan's
    run folders): where a program of the plan reads project code (any path it gives but a
    run folder's and the tool's move: ``_CODE_FREE``), every program's start names and the
    last name of each path it names (a module's folder for its ``__init__``/``__main__``:
    ``_last``); none otherwise, with a project folder or without (the names a moved Bash
    tool needs are those). A name of a folder on the way to a root is left out."""
    if all(path[:1] in _CODE_FREE for path in named):
        return frozenset()
    names = {_last(path) for path in {*named, *ALL_STARTS}
             if path[:1] not in _NOT_NAMES and "$" not in path} - _LOADED_BELOW.keys()
    names |= {"site-packages", "dist-packages"}  # (what a venv's `lib/` loads: V2, P1b)
    # (not a name of a folder the call's or the project's path passes: every path written
    # there would hold it, `~/src/p` beside `Bash(python3 src/x.py)`; a residual)
    passed = {fold(part) for root in roots for form in (root, fs.realpath(root))
              for part in form.split("/")}
    return frozenset(n for n in names - {"", ".", ".."} if fold(n) not in passed) | _RULES


#: Start folders whose program loads only some files from them, by their endings (review
#: s53-greview C1: the folder whole denied `cp x src/lib/y.c` in every C project): perl's
#: ``lib/`` and ``blib/`` (perlfunc ``require``, AutoLoader's ``auto/*.al``/``.ix``,
#: XSLoader's ``auto/*.so``/``.bs``), prove's ``t/`` (``*.t``, at any depth under ``-r``),
#: invoke's ``tasks/`` (a Python package: its modules, bytecode, extensions).
_PERL: Final = (".pm", ".pmc", ".pl", ".al", ".ix", ".so", ".bs")
_LOADED_BELOW: Final = {"lib": _PERL, "blib": _PERL, "t": (".t",),
                        "tasks": (".py", ".pyc", ".so")}
#: Files a build program reads by a name its own files give, which no start name holds
#: (make's ``include``, ``-include``, ``$(eval include …)``, ``-f``, ``MAKEFILES``; CMake's
#: ``include(… OPTIONAL)``, ``find_package``'s ``Find*.cmake``): their endings, at any depth
#: (review s53-greview M1, M2; an over-approximation: every such file).
_READ_BY_ENDING: Final = (".mk", ".cmake")
#: The rules ``deep_names`` adds, as ``below.BELOW`` reads them: ``DIR/*END`` (a file ending
#: in END below a folder DIR), ``*END`` (any file ending in END).
_RULES: Final = frozenset([*(f"{d}/*{e}" for d, ends in _LOADED_BELOW.items() for e in ends),
                           *(f"*{e}" for e in _READ_BY_ENDING)])


#: The marks of ``plan_programs``' items that name no program reading project code: a folder
#: the plan runs in, an entry that may move the Bash tool (``cd sub``, ``jq . x``), an entry's
#: text (``READS``: ``planscripts``).
_CODE_FREE: Final = frozenset((RUN_FOLDER, TOOL_MOVES, READS))


def _last(path: str) -> str:
    """The name guarded at any depth for a path ``plan_programs`` gives (``^conftest.py``,
    ``tools/``): its last name, or its folder's for a package's ``__init__``/``__main__``
    (``pytest/__main__.py``: ``pytest``, which every such path holds; not every package's
    ``__main__.py``: review s52-greview K5)."""
    if "/" not in path:
        return path.removeprefix("^")
    head, _, name = path.removeprefix("^").rstrip("/").rpartition("/")
    return head.rpartition("/")[2] if head and name[:9] in ("__init__.", "__main__.") else name
