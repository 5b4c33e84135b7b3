"""What CMake reads as its own instructions from a plan's ``CMakeLists.txt`` (issue 29; session
54, review s53-greview M2): ``include(X)`` reads ``X`` as CMake code (CMake 3.25's
``cmIncludeCommand``: a relative ``X`` is first a module, ``X.cmake`` in ``CMAKE_MODULE_PATH``
and CMake's own modules, then a file from the current source folder), ``add_subdirectory(D)``
reads ``D/CMakeLists.txt``, and ``CMAKE_PROJECT_INCLUDE``-like variables name files
``project()`` includes; each file read is read again, and ``configure_file``'s template as
the code its copy may be read as (session 57; a configured ``@VAR@`` there: every folder).
Modules and package files (``find_package``'s ``Find*.cmake``, ``*Config.cmake``) end in
``.cmake``, a name guarded at any depth
(``deepnames``). Where the text names what CMake reads by what the gate cannot compute (a
variable but the list's and source folders, a generator expression, ``cmake_language``),
it is left open (no plan is refused: session 54, the lead's call on the cost)."""

from __future__ import annotations

import os
import re

from .makebounds import EVERYWHERE
from .makerecipes import Unread, build_text

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

_MAX_READ: Final = 256
#: Commands whose reading is a doubt (session 55: ``writeguard``), and what each does.
_DOUBTS: Final = {
    "cmake_language": "runs CMake code it makes", "configure_file": "copies a file CMake may "
    "read as code", "file": "writes a file CMake may read as code", "try_compile": "configures "
    "another project", "fetch": "fetches a project whose CMake code it adds",
    "write_file": "writes a file CMake may read as code"}
#: The doubts whose text is what CMake may read as code (written by the lists' own words,
#: ``"include(." "./x)"``): every folder (review s57-greview C).
_WRITTEN: Final = frozenset(("write_file", "file WRITE", "file APPEND", "file GENERATE",
                             "file CONFIGURE"))
#: ``file()``'s subcommands that write a file (one the lists may include after).
_FILE_WRITES: Final = frozenset(("COPY", "COPY_FILE", "RENAME", "DOWNLOAD", "CONFIGURE",
                                 "ARCHIVE_EXTRACT", "CREATE_LINK", "INSTALL", "GENERATE",
                                 "WRITE", "APPEND", "TOUCH", "MAKE_DIRECTORY"))
#: A text naming a folder the gate cannot bound: a variable, a ``..``, a word from the root.
_LEAVES: Final = re.compile(r"\$|\.\.|(?:^|[\s\"'(=;])[/~]|\\")  # (`\.`: `.`, C3)
#: Variables whose value ``project()`` or the first ``enable_language`` includes as code.
_INCLUDING: Final = re.compile(r"CMAKE_PROJECT_(?:\w+_)?INCLUDES?(?:_BEFORE)?|CMAKE_TOOLCHAIN_FILE|"
                               r"CMAKE_USER_MAKE_RULES_OVERRIDE(?:_\w+)?")


def lists_reads(path: str, top: str, held: list[tuple[str, str]] | None = None) -> list[str]:
    """The files CMake reads as code from the ``CMakeLists.txt`` at ``path`` (``top``: the
    source folder of the build), and from each of them (see the module's text); each doubt
    added to ``held`` (session 55: ``writeguard``) with the folder it may read below: the
    source folder where its text names no variable, climbs or starts at the root, else every
    folder."""
    found: list[str] = []
    queue = [(path, os.path.dirname(path), False)]
    seen: set[str] = set()
    while queue:
        path, source, configured = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        if len(seen) > _MAX_READ:
            break
        known = {"CMAKE_CURRENT_LIST_DIR": os.path.dirname(path),
                 "CMAKE_CURRENT_SOURCE_DIR": source, "CMAKE_SOURCE_DIR": top,
                 "PROJECT_SOURCE_DIR": top}
        for name, where, value in _commands(path):
            try:  # (what it cannot compute: a doubt, no plan refused; session 54, 55)
                if name == "configure_file":  # (its template: what the copy holds, read as
                    template = os.path.join(source, _exact(value.split()[0], where, known))
                    found.append(template)  # code: s56-greview C)
                    queue.append((template, source, True))
                _configured(value, where, configured)
                if name in _DOUBTS:
                    raise Unread(f"{where} {_DOUBTS[name]} ({name}), which the gate does not "
                                 "read")
                named = _exact(value, where, known)
            except Unread as e:
                if held is not None:
                    written = name in _WRITTEN or f"{name} {value.split(' ', 1)[0]}" in _WRITTEN
                    held.append((top if name in _DOUBTS and not configured and not written and
                                 not _LEAVES.search(_known(value, known)) else EVERYWHERE,
                                 str(e)))
                continue
            if name in ("add_subdirectory", "subdirs"):
                folder = os.path.join(source, named)
                queue.append((os.path.join(folder, "CMakeLists.txt"), folder, False))
            else:
                files = [os.path.join(source, n) for n in (named, named + ".cmake")]
                found += files
                queue += [(f, source, False) for f in files]
    return found


def _configured(value: str, where: str, configured: bool) -> None:
    """Unread where a ``configured`` file (a template) names a file CMake may read: its copy
    may be read from any folder of the build, an ``@VAR@`` replaced (a doubt of every folder:
    review s57-greview C)."""
    if configured:
        raise Unread(f"{where}: a configured template names a file CMake may read "
                     f"({value!r}), from the folder its copy is read in")


def _commands(path: str) -> list[tuple[str, str, str]]:
    """Each command of ``path`` naming a file CMake reads: its name, its place, its first
    argument; Unread for code CMake evaluates."""
    found: list[tuple[str, str, str]] = []
    for name, arguments, where in _invocations(build_text(path), path):
        name = name.lstrip("_")  # (`_include`: the original of an overridden command, C1)
        if (name in _DOUBTS and name != "file") or (name == "file" and arguments[:1] and
                                                     arguments[0] in _FILE_WRITES) or (
                name in ("fetchcontent_declare", "externalproject_add") and
                "SOURCE_DIR" not in arguments[:-1]):
            found.append((name if name in _DOUBTS else "fetch", where, " ".join(arguments)))
        elif name in ("include", "add_subdirectory") and arguments:
            found.append((name, where, arguments[0]))
        elif name == "subdirs":
            found += [(name, where, a) for a in arguments]
        elif name == "list" and arguments[:1] in (["APPEND"], ["PREPEND"], ["INSERT"]) and \
                len(arguments) > 1 and _INCLUDING.fullmatch(arguments[1]):
            found += [("include", where, a) for a in arguments[2 + (arguments[0] == "INSERT"):]]
        elif name == "set" and arguments and _INCLUDING.fullmatch(arguments[0]):
            found += [("include", where, a) for a in arguments[1:2]]
        elif name in ("fetchcontent_declare", "externalproject_add") and "SOURCE_DIR" in \
                arguments[:-1]:  # (FetchContent_MakeAvailable adds it as a subdirectory)
            found.append(("add_subdirectory", where,
                          arguments[arguments.index("SOURCE_DIR") + 1]))
    return found


def _invocations(text: str, path: str) -> list[tuple[str, list[str], str]]:
    """Each command invocation of the CMake ``text``: its name (lower case), its arguments
    (quotes and bracket arguments read, comments, line and bracket ones, left out: CMake's
    grammar, cmake-language(7)), its place."""
    found: list[tuple[str, list[str], str]] = []
    at, line = 0, 1
    token = re.compile(r'\s+|#\[(=*)\[.*?\]\1\]|#[^\n]*|\[(=*)\[(.*?)\]\2\]|"((?:\\.|[^"\\])*)"'
                       r'|[()]|[^\s()#"]+', re.S)
    name, arguments, depth, where = "", list[str](), 0, ""
    while at < len(text):
        match = token.match(text, at)
        if match is None:
            break
        piece, at = match.group(0), match.end()
        line += piece.count("\n")
        if piece[:1].isspace() or piece[:1] == "#":
            continue
        if piece == "(":
            depth += 1
        elif piece == ")":
            depth -= 1
            if depth == 0 and name:
                found.append((name, arguments, where))
                name, arguments = "", []
        elif depth == 0:
            name, where = piece.lower(), f"{path}:{line}"
        else:
            arguments.append(match.group(3) if match.group(3) is not None else
                             match.group(4) if match.group(4) is not None else piece)
    return found


def _known(value: str, known: dict[str, str]) -> str:
    """``value`` with each of the ``known`` variables' references (a folder of the source)
    taken out."""
    for name in known:
        value = value.replace("${" + name + "}", "R")
    return value


def _exact(value: str, where: str, known: dict[str, str]) -> str:
    """``value`` unquoted with the ``known`` variables read; Unread for any other."""
    value = value.strip('"')
    for name, folder in known.items():
        value = value.replace("${" + name + "}", folder)
    if "$" in value or "\\" in value:
        raise Unread(f"{where} names a file CMake reads by what the gate cannot compute "
                     f"({value!r})")
    return value


def built_source(folder: str, held: list[tuple[str, str]] | None) -> str:
    """The ``CMakeLists.txt`` of the source folder the build ``folder``'s ``CMakeCache.txt``
    names (``CMAKE_HOME_DIRECTORY``: ``cmake --build`` configures it again when an input
    changed; review s54-greview C5), or empty; and where ``folder`` holds presets (``--preset``
    reads a toolchain, a cache script they name), a doubt added to ``held``: the folder, or
    every one where their text climbs or names a variable but ``${sourceDir}``."""
    for name in ("CMakePresets.json", "CMakeUserPresets.json"):
        text = build_text(os.path.join(folder, name)).replace("${sourceDir}", "R")
        if text and held is not None:  # (JSON's `\u002e`, `\/` spell any path: C2)
            held.append((EVERYWHERE if _LEAVES.search(text) else folder,
                         f"{os.path.join(folder, name)} names files cmake --preset reads, "
                         "which the gate does not read"))
    cache = build_text(os.path.join(folder, "CMakeCache.txt"))
    found = re.search(r"(?m)^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", cache)
    return os.path.join(found.group(1).strip(), "CMakeLists.txt") if found else ""
