"""The folders make's and cmake's doubts write-guard (issue 29; session 55, review s54-greview:
the lead's rule). Where the plan's makefiles (or CMake lists) name what make reads by what the
gate cannot compute (``makereads``' doubts: ``$(eval …)``, a pattern rule that may remake a
read makefile, ``vpath``, a sub-make's computed folder, ``cmake_language``), the files make
will read cannot be named, so none of them is guarded; instead every write a shell call makes
into the folders a doubt may read from (``makebounds.bound``: make's folder and below, or
every folder) is denied, naming the makefile's line: a word of the call naming a path there,
or one the gate cannot name, where a program of the call may write it (``readers.writer_of``,
as for a guarded folder: ``named.held_word``). What stays allowed: the commands the plan
names exactly (``Bash(make test)``: what was approved, with its own words) and make's or
cmake's own commands under an entry of theirs (``Bash(make *)``: P1g), read-only
commands (``cat``, ``grep``, ``git diff``), and writes the gate proves outside those folders
(``cp``'s sources are read: ``copied.read_sources``).
A plan without doubts asks nothing here (``Guarded.written_below`` empty)."""

from __future__ import annotations

import os
import re

from . import files as fs
from .guardedset import GUARDED
from .named import Index, held_word
from .textwords import text_words

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

    #: A judged part, ``judge.Part`` (judge imports this module): its text and the entry
    #: covering it.
    Part = tuple[str, str | None]

#: A command grant's entry and its content (``Bash(make test)``).
_ENTRY: Final = re.compile(r"\w+\((.*)\)", re.S)


def write_held(command: str, directory: str | None, parts: tuple[Part, ...]) -> str | None:
    """Why the covered shell ``command`` (run in ``directory``; ``parts``, the judged parts
    and the entries covering them) may write into a folder make's doubts write-guard, or None
    (see the module's text)."""
    guards = GUARDED.get()
    held: tuple[tuple[str, str], ...] = getattr(guards, "written_below", ())
    if not held:
        return None
    own = [p for p in parts if _command(p[1]) == "exact" or _builds(p)]
    others = [p for p in parts if p not in own and p[1] not in _NOTHING_WRITTEN]
    if not others:
        return None  # (each part the plan names exactly: `make test`, or no command at all)
    written: list[str] | None = None
    if all(_command(p[1]) for p in others):  # (a redirection's file: every word)
        mine = {w for p in others for w in text_words(p[0])}
        theirs = {w for p in own for w in text_words(p[0])}
        written = [w for w in text_words(command) if w in mine or w not in theirs]
    if "cp" in command and directory is not None:  # (a copy out of the folder reads there)
        from .copied import read_sources

        sources = read_sources(command, directory)
        written = [w for w in (text_words(command) if written is None else written)
                   if w not in sources]
    words = text_words(command) if written is None else written
    from .unwritten import unwritten  # (its readings: for a plan with doubts only)

    options = unwritten(command)  # (an option's name, a checker's sources: no path written)
    words = [w for w in words if w not in options]
    word = held_word(words, directory, command, _index(guards, held))
    if word is None:
        return None
    more = f" (and {len(held) - 1} more)" if len(held) > 1 else ""
    return (f"the command may write {word!r} where make (or cmake) may read its "
            f"instructions from, by a name the gate cannot compute: {held[0][1]}{more}; only "
            "the plan's exact entries and read-only commands may name paths there")


def held_path(path: str) -> str | None:
    """Why a file tool's write (Write, Edit, NotebookEdit; a redirection's file) of ``path``
    lands where make's (or cmake's) doubts read, or None: the file tools' question, asked by
    ``judge._guarded_write`` (review s55-greview T1)."""
    guards = GUARDED.get()
    held: tuple[tuple[str, str], ...] = getattr(guards, "written_below", ())
    if not held or _index(guards, held).find(path, files_only=False) is None:
        return None
    more = f" (and {len(held) - 1} more)" if len(held) > 1 else ""
    return (f"where make (or cmake) may read its instructions from, by a name the gate cannot "
            f"compute: {held[0][1]}{more}")


def _builds(part: Part) -> bool:
    """Whether ``part`` is make's or cmake's own simple command under an entry of that program
    (``Bash(make *)``: what make then reads or writes is the person's grant, P1g)."""
    text, covered = part
    found = _ENTRY.fullmatch(covered) if covered else None
    return found is not None and _command(covered) != "" and \
        found.group(1).split(" ", 1)[0] in _BUILDERS and \
        text.split(" ", 1)[0] in _BUILDERS and not _OPERATORS.search(text)


#: The programs whose readings hold the doubts, and what no simple command's text holds.
_BUILDERS: Final = frozenset(("make", "gmake", "cmake"))
_OPERATORS: Final = re.compile(r"[;&|<>()`$\n]")


def _command(entry: str | None) -> str:
    """``exact`` for a command grant's ``entry`` naming its command whole (no star), ``star``
    for another command grant's, empty for any other (a path grant, a tool-wide one)."""
    found = _ENTRY.fullmatch(entry) if entry else None
    if found is None or entry is None or entry.split("(", 1)[0] in _PATH_TOOLS:
        return ""
    return "star" if "*" in found.group(1) else "exact"


#: The tools whose grants name paths (a redirection's file is covered by one).
_PATH_TOOLS: Final = frozenset(("Edit", "Write", "Read", "NotebookEdit", "MultiEdit"))
#: What covers a part that writes nothing (``commands._workdir``, ``judge.path_part``).
_NOTHING_WRITTEN: Final = frozenset(("the session's working directory",
                                     "a device that stores nothing"))


def _index(guards: object, held: tuple[tuple[str, str], ...]) -> Index:
    """The folders of ``held`` as one ``named.Index`` of folders (made once for the set)."""
    kept = _KEPT[0]
    if kept is not None and kept[0] is guards:
        return kept[1]
    folders = tuple(dict.fromkeys(fs.realpath(folder) for folder, _ in held))
    made = Index(tuple((folder, True) for folder in folders) + _linked_out(folders))
    _KEPT[0] = (guards, made)
    return made


def _linked_out(folders: tuple[str, ...]) -> tuple[tuple[str, bool], ...]:
    """The real paths of the symbolic links below ``folders`` (and below those, in turn) that
    lead out of them: make follows a link as a folder of its own (``VPATH = tmpl``, ``tmpl ->
    ../shared``; a sub-make in ``$(wildcard */)``: review s55-greview B3), so what it reads there
    is guarded too. Past ``_MAX_WALKED`` entries, every folder (the root)."""
    if "/" in folders:
        return ()
    found: dict[str, bool] = {}
    pending, walked = list(folders), 0
    while pending:
        try:
            entries = list(os.scandir(pending.pop()))
        except OSError:
            continue
        walked += len(entries)
        if walked > _MAX_WALKED:
            return (("/", True),)
        for item in entries:
            if item.is_symlink():
                real = os.path.realpath(item.path)
                if not any(real == f or real.startswith(f + "/") for f in (*folders, *found)):
                    found[real] = True
                    pending.append(real)
            elif item.is_dir(follow_symlinks=False):
                pending.append(item.path)
    return tuple(found.items())


#: The entries ``_linked_out`` looks at before it answers every folder.
_MAX_WALKED: Final = 20_000


#: ``_index``'s answer, and the set it was made for.
_KEPT: list[tuple[object, Index] | None] = [None]
