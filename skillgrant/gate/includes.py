"""The names the sources below a folder give their ``#include`` lines (issue 29, session 61:
s56-greview2 L ``its-own-header-without-an-ending``, ``its-own-inline-file``).

cpp takes any name an ``#include`` spells from a folder of its search (``-I.``: ``<cfg>``,
``<c.inl>``), not only a header's ending; the names a folder's own sources include are read
from their text (``included``) so that ``toolnames.looked_up`` guards them in a folder the
search names that a call runs in (where the folder cannot be guarded whole). Each C-family
source or header below the folder (and each file an include names at its top, transitively)
is read by cpp's own phases as far as a directive's name goes: lines joined at a
backslash-newline, comments a space (a block comment spanning lines joins them), ``%:`` a
``#``; a directive ``include``, ``include_next``, ``import`` or ``embed`` is read only in its
literal forms (``<name>``, ``"name"``) or through an object-like macro defined in the same
file as such a literal. Any other (a computed include, a macro not so defined), a trigraph
(``??=``: ``-trigraphs``), a source past ``_LIMIT`` or a walk past ``_ENTRIES`` entries cannot
be read exactly: None (the caller guards widely)."""

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
#: How many entries the folders below are read for; how many bytes a source is read for.
_ENTRIES: Final = 4000
_LIMIT: Final = 1 << 21
#: The folders below that are not the project's sources (a repository's, a package tree's).
_SKIPPED: Final = frozenset((".git", ".hg", ".svn", "node_modules", "__pycache__"))
#: A directive that includes a file, in its literal form (the name, then nothing but space).
_LITERAL: Final = re.compile(r'\s*(?:<([^<>\n]*)>|"([^"\n]*)")\s*')
_DIRECTIVE: Final = re.compile(r"\s*(?:#|%:)\s*([A-Za-z_]\w*)(.*)")
_DEFINE: Final = re.compile(r"([A-Za-z_]\w*)\s+(.*)")
_INCLUDES: Final = frozenset(("include", "include_next", "import", "embed"))


def included(folder: str) -> set[str] | None:
    """The names (each as spelled: ``cfg``, ``sub/x.h``) the sources below ``folder`` give an
    include directive, and those the files of those names at its top give; None where one
    cannot be read exactly (see the module's text)."""
    sources = _sources(folder)
    if sources is None:
        return None
    names: set[str] = set()
    queue, seen = sources, set(sources)
    while queue:
        path = queue.pop()
        found = _read(path)
        if found is None:
            return None
        for name in found - names:
            names.add(name)
            at = os.path.join(folder, name)
            if at not in seen and fs.exists(at) and not fs.is_folder(at):
                seen.add(at)
                queue.append(at)
    return names


def _sources(folder: str) -> list[str] | None:
    """The C-family files below ``folder`` (any depth, but ``_SKIPPED`` folders; links not
    followed); None past ``_ENTRIES`` entries."""
    found: list[str] = []
    stack, count = [folder], 0
    while stack:
        at = stack.pop()
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
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in _SKIPPED:
                    stack.append(entry.path)
            elif entry.name.endswith(SOURCES):
                found.append(entry.path)
    return found


def _read(path: str) -> set[str] | None:
    """The names the include directives of the file ``path`` give (see the module's text);
    None where one cannot be read exactly."""
    try:
        data = fs.read(path, _LIMIT + 1)
    except OSError:
        return None
    if len(data) > _LIMIT:
        return None
    text = data.decode("latin-1")
    if "??=" in text or "??/" in text:
        return None  # (a trigraph: `??=include`, `??/` a backslash)
    directives = _directives(text.replace("\\\r\n", "").replace("\\\n", ""))
    defined: dict[str, list[str]] = {}
    for name, rest in directives:
        macro = _DEFINE.match(rest.strip()) if name == "define" else None
        literal = _LITERAL.fullmatch(macro.group(2)) if macro else None
        if macro and literal:
            defined.setdefault(macro.group(1), []).append(literal.group(1) or literal.group(2))
    names: set[str] = set()
    for name, rest in directives:
        literal = _LITERAL.fullmatch(rest) if name in _INCLUDES else None
        if literal:
            names.add(literal.group(1) if literal.group(1) is not None else literal.group(2))
        elif name in _INCLUDES and rest.strip() not in defined:
            return None  # (a computed include: `#include CONFIG_H` of no literal define)
        elif name in _INCLUDES:
            names.update(defined[rest.strip()])
    return names


def _directives(text: str) -> list[tuple[str, str]]:
    """Each directive of the lines of ``text`` (joined at their backslash-newlines), its name
    and the rest of its line, read from the lines each without its comments and from those
    of the text without its comments (a block comment spanning lines joins them)."""
    found = []
    for line in [*(_uncommented(t) for t in text.split("\n")), *_uncommented(text).split(
            "\n")]:
        directive = _DIRECTIVE.match(line)
        if directive:
            found.append((directive.group(1), directive.group(2)))
    return found


def _uncommented(text: str) -> str:
    """``text`` with each comment a space (a block comment spanning lines joins them), string
    and character literals kept."""
    return _COMMENTS.sub(lambda m: m.group(0) if m.group(0)[0] in "\"'" else " ", text)


#: A comment, or a string or character literal (kept: a comment's marks inside one are text).
_COMMENTS: Final = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'",
                              re.S)
