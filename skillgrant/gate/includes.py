"""The names the sources below a folder give their ``#include`` lines (issue 29, session 61:
s56-greview2 L ``its-own-header-without-an-ending``, ``its-own-inline-file``).

cpp takes any name an ``#include`` spells from a folder of its search (``-I.``: ``<cfg>``,
``<c.inl>``), not only a header's ending; the names a folder's own sources include are read
from their text (``included``) so that ``toolnames.looked_up`` guards them in a folder the
search names that a call runs in (where the folder cannot be guarded whole). Each C-family
source or header below the folder (and each file an include names at its top, transitively)
is read by cpp's own phases as far as a directive's name goes: lines ended at ``\n``, ``\r``
and joined at a backslash before them (spaces between taken), a NUL or a byte-order mark a
space, comments a space (a line closing a block comment read from there on too), ``%:`` a
``#``; a directive ``include``, ``include_next``, ``import`` or ``embed`` is read only in its
literal forms (``<name>``, ``"name"``). Any other (a computed include: a macro a ``-D`` may
define), a directive a block comment continues, a trigraph (``??=``: ``-trigraphs``), a source
past ``_LIMIT``, the sources past ``_BUDGET`` bytes or ``_LINES`` lines holding a ``#`` in
all, or a walk past ``_ENTRIES`` entries cannot be read exactly: None (the caller guards
widely). Each line is read once (linear: unclosed comments cost no more: s61-greview T1,
T2)."""

from __future__ import annotations

import os
import re

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The endings of the files read as sources (C, C++, Objective-C, preprocessed assembly, and
#: the headers' and inline files' endings).
SOURCES: Final = (".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".cp", ".CPP", ".m", ".mm",
                  ".M", ".S", ".sx", ".h", ".hh", ".hpp", ".hxx", ".h++", ".H", ".tcc", ".inc",
                  ".def", ".inl", ".ipp", ".tpp", ".txx", ".ixx", ".cppm")
#: The endings of the sources a build compiles (not included: a computed include's wide
#: guard leaves them, the project's own source).
COMPILED: Final = (".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".cp", ".CPP", ".m", ".mm",
                   ".M", ".S", ".sx")
#: How many entries the folders below are read for; how many bytes a source is read for.
_ENTRIES: Final = 4000
_LIMIT: Final = 1 << 24
#: How many bytes of sources, and lines that may be directives, one question reads in all
#: (past them: not read exactly; an SQLite amalgamation, 9 MB, is read).
_BUDGET: Final = 1 << 26
_LINES: Final = 100000
#: The lines that may be directives (a `#` or a `%:` on them).
_CANDIDATES: Final = re.compile(r"^[^\n]*(?:#|%:)[^\n]*$", re.M)
#: The folders below that are not the project's sources (a repository's, a package tree's).
_SKIPPED: Final = frozenset((".git", ".hg", ".svn"))
#: A directive that includes a file, in its literal form (the name, then nothing but space).
_LITERAL: Final = re.compile(r'[ \t\f\v]*(?:<([^<>\n]*)>|"([^"\n]*)")[ \t\f\v]*')
_DIRECTIVE: Final = re.compile(r"[ \t\f\v]*(?:#|%:)[ \t\f\v]*([A-Za-z_]\w*)(.*)")
#: A backslash ending a line (gcc takes spaces after it: a warning), and a line's spaces.
_SPLICE: Final = re.compile(r"\\[ \t\f\v]*\n")
_SPACE: Final = " \t\f\v"
_INCLUDES: Final = frozenset(("include", "include_next", "import", "embed"))


def included(folder: str, search: tuple[str, ...] = ()) -> set[str] | None:
    """The names (each as spelled: ``cfg``, ``sub/x.h``) the sources below ``folder`` give an
    include directive, and those the files of those names give: at its top, beside the
    including file, below it, or in a folder of ``search`` (the search's other folders,
    outside: s62-greview G6); None where one cannot be read exactly (see the module's
    text)."""
    walked = _sources(folder)
    if walked is None:
        return None
    sources, files = walked
    names: set[str] = set()
    queue, seen, budget = sources, set(sources), [_BUDGET, _LINES]
    while queue:
        path = queue.pop()
        found = _read(path, budget)
        if found is None:
            return None
        names |= found | {os.path.normpath(n) for n in found if n}  # (`<./cfg>`: cfg)
        for name in found:  # (read too: the file a name reaches in the folder, beside the
            tail = "/" + os.path.normpath(name)  # source, in any folder below: a later
            for at in (os.path.join(folder, name), os.path.join(os.path.dirname(path), name), *(
                    p for p in files.get(tail.rpartition("/")[2], ()) if p.endswith(tail)), *(
                    os.path.join(s, name) for s in search)):
                if at not in seen and fs.exists(at) and not fs.is_folder(at):  # folder's, H5b)
                    seen.add(at)
                    queue.append(at)
    return names


def _sources(folder: str) -> tuple[list[str], dict[str, list[str]]] | None:
    """The C-family files below ``folder`` (any depth, through links, but ``_SKIPPED``
    folders), and every file there by its name; None past ``_ENTRIES`` entries."""
    found: list[str] = []
    files: dict[str, list[str]] = {}
    stack, count, seen = [folder], 0, set()
    while stack:
        at = stack.pop()
        real = fs.realpath(at)  # (a link to a folder: make may compile what it holds)
        if real in seen:
            continue
        seen.add(real)
        fs.watch_folder(at)
        try:
            with os.scandir(at) as listing:
                entries = list(listing)
        except OSError:
            continue
        count += len(entries)
        if count > _ENTRIES:
            return None
        for entry in entries:
            if entry.is_dir():
                if entry.name not in _SKIPPED:
                    stack.append(entry.path)
            else:
                files.setdefault(entry.name, []).append(entry.path)
                if entry.name.endswith(SOURCES):
                    found.append(entry.path)
    return found, files


def _read(path: str, budget: list[int]) -> set[str] | None:
    """The names the include directives of the file ``path`` give (see the module's text);
    None where one cannot be read exactly, or past the bytes or the directive lines
    ``budget`` holds (taken from it)."""
    try:
        data = fs.read(path, min(_LIMIT, budget[0]) + 1)
    except OSError:
        return None
    budget[0] -= len(data)
    if len(data) > _LIMIT or budget[0] < 0:
        return None
    text = data.decode("latin-1").removeprefix("\xef\xbb\xbf").replace("\0", " ")
    if "??=" in text or "??/" in text:
        return None  # (a trigraph: `??=include`, `??/` a backslash)
    text = _SPLICE.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    lines = _CANDIDATES.findall(text)  # (only lines holding a `#` or `%:` may be one)
    budget[1] -= len(lines)
    if budget[1] < 0:
        return None
    names: set[str] = set()
    for line in lines:  # (and after a comment an earlier line opened: H10)
        for part in (line, line[line.find("*/") + 2:] if "*/" in line else ""):
            start = _lead(part)
            name = _included_name(start) if start.startswith(("#", "%:")) else ""
            if name is None:
                return None
            if name:
                names.add(name)
    return names


def _included_name(start: str) -> str | None:
    """The name the directive ``start`` includes; ``""`` where it includes none, None where it
    is not read exactly (a block comment continues it: `#/*`; a computed include: `#include
    CONFIG_H`, a `-D` may define it)."""
    body = _uncommented(start)
    if body is None:
        return None
    directive = _DIRECTIVE.match(body)
    if directive is None or directive.group(1) not in _INCLUDES:
        return ""
    literal = _LITERAL.fullmatch(directive.group(2))
    if not literal:
        return None
    return literal.group(1) if literal.group(1) is not None else literal.group(2)


def _lead(part: str) -> str:
    """``part`` from its first token on: spaces and whole block comments before it
    skipped."""
    at = 0
    while True:
        while at < len(part) and part[at] in _SPACE:
            at += 1
        end = part.find("*/", at + 2) if part.startswith("/*", at) else -1
        if end < 0:
            return part[at:]
        at = end + 2


def _uncommented(line: str) -> str | None:
    """The directive ``line`` with each comment a space; None where a block comment does not
    end on it (it continues the directive on the next line)."""
    out, at = [], 0
    while True:
        block, rest = line.find("/*", at), line.find("//", at)
        if rest >= 0 and (block < 0 or rest < block):
            out.append(line[at:rest])
            return "".join(out)
        if block < 0:
            out.append(line[at:])
            return "".join(out)
        end = line.find("*/", block + 2)
        if end < 0:
            return None
        out.append(line[at:block] + " ")
        at = end + 2
