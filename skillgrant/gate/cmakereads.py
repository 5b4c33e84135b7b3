"""What CMake reads as its own instructions from a plan's ``CMakeLists.txt`` (issue 29; session
54, review s53-greview M2): ``include(X)`` reads ``X`` as CMake code (CMake 3.25's
``cmIncludeCommand``: a relative ``X`` is first a module, ``X.cmake`` in ``CMAKE_MODULE_PATH``
and CMake's own modules, then a file from the current source folder), ``add_subdirectory(D)``
reads ``D/CMakeLists.txt``, and ``CMAKE_PROJECT_INCLUDE``-like variables name files
``project()`` includes; each file read is read again. Modules and package files (``find_package``'s
``Find*.cmake``, ``*Config.cmake``) end in ``.cmake``, a name guarded at any depth
(``deepnames``). Where the text names what CMake reads by what the gate cannot compute (a
variable but the list's and source folders, a generator expression, ``cmake_language(EVAL``),
``Unread`` is raised naming the file and its line: the plan is refused."""

from __future__ import annotations

import os
import re

from . import files as fs
from .makerecipes import Unread

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

_LIMIT: Final = 1 << 20
_MAX_READ: Final = 256
#: A command's name and its arguments' text (up to the first ``)``: arguments holding one
#: are read as written, the rest left; a nested call is no command CMake names a file by).
_COMMAND: Final = re.compile(r"(?im)^[ \t]*([a-z_][a-z0-9_]*)[ \t]*\(([^)]*)\)")
#: Variables whose value ``project()`` or the first ``enable_language`` includes as code.
_INCLUDING: Final = re.compile(r"CMAKE_PROJECT_(?:\w+_)?INCLUDE(?:_BEFORE)?|CMAKE_TOOLCHAIN_FILE|"
                               r"CMAKE_USER_MAKE_RULES_OVERRIDE(?:_\w+)?")


def lists_reads(path: str, top: str) -> list[str]:
    """The files CMake reads as code from the ``CMakeLists.txt`` at ``path`` (``top``: the
    source folder of the build), and from each of them (see the module's text)."""
    found: list[str] = []
    queue = [(path, os.path.dirname(path))]
    seen: set[str] = set()
    while queue:
        path, source = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        if len(seen) > _MAX_READ:
            raise Unread(f"{path!r}: more than {_MAX_READ} CMake files to read")
        for name, where, value in _commands(path):
            named = _exact(value, where, {"CMAKE_CURRENT_LIST_DIR": os.path.dirname(path),
                                          "CMAKE_CURRENT_SOURCE_DIR": source,
                                          "CMAKE_SOURCE_DIR": top})
            if name == "add_subdirectory":
                folder = os.path.join(source, named)
                queue.append((os.path.join(folder, "CMakeLists.txt"), folder))
            else:
                files = [os.path.join(source, n) for n in (named, named + ".cmake")]
                found += files
                queue += [(f, source) for f in files]
    return found


def _commands(path: str) -> list[tuple[str, str, str]]:
    """Each command of ``path`` naming a file CMake reads: its name, its place, its first
    argument; Unread for code CMake evaluates."""
    try:
        text = fs.read(path, _LIMIT).decode(errors="replace")
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return []
    except (OSError, ValueError) as e:
        raise Unread(f"{path!r} cannot be read for the files it names: {e}") from e
    text = re.sub(r"#\[(=*)\[.*?\]\1\]", "", text, flags=re.S)  # (bracket comments)
    text = re.sub(r"(?m)#.*$", "", text)
    found: list[tuple[str, str, str]] = []
    for match in _COMMAND.finditer(text):
        name, arguments = match.group(1).lower(), match.group(2).split()
        where = f"{path}:{text.count(chr(10), 0, match.start()) + 1}"
        if name == "cmake_language" and arguments[:1] == ["EVAL"]:
            raise Unread(f"{where} evaluates text as CMake code, which the gate cannot read")
        if name in ("include", "add_subdirectory") and arguments:
            found.append((name, where, arguments[0]))
        elif name == "set" and arguments and _INCLUDING.fullmatch(arguments[0]):
            found += [("include", where, a) for a in arguments[1:2]]
    return found


def _exact(value: str, where: str, known: dict[str, str]) -> str:
    """``value`` unquoted with the ``known`` variables read; Unread for any other."""
    value = value.strip('"')
    for name, folder in known.items():
        value = value.replace("${" + name + "}", folder)
    if "$" in value or "\\" in value:
        raise Unread(f"{where} names a file CMake reads by what the gate cannot compute "
                     f"({value!r})")
    return value
