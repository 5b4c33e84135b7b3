"""The modules a conftest's ``pytest_plugins`` makes pytest import at its start (issue 29,
review s55-greview3 P3): ``pytest_plugins = ["fixtures.db"]`` in a conftest pytest loads
before collecting (its initial conftests: from the root down to each folder it collects in,
and those of the ``test*`` folders there; a later one naming plugins fails the run) imports
``fixtures.db`` from ``sys.path``, as the ini's ``-p`` does: a module of that name written
in a folder there runs at the next start.

The conftests (the gate's: every ``conftest.py`` is guarded) are read by ``ast``: a literal
string or list/tuple of strings assigned at the top level gives the names; anything else
(``pytest_plugins`` computed, extended, imported, set through ``globals()`` or a string, or
a conftest that does not parse) cannot be read, and every module below the collecting
folder is taken as one (``pytestini.widened``'s ``--doctest-modules`` reading)."""

from __future__ import annotations

import os

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The name pytest reads in a conftest.
_NAME: Final = "pytest_plugins"
#: How many named modules are read for their own ``pytest_plugins`` before every module is
#: taken.
_MODULES: Final = 64


def conftest_plugins(folder: str, given: tuple[str, ...] = ()) -> tuple[bool, list[str]]:
    """Whether a conftest pytest loads first for the collecting ``folder`` (a real path)
    names its plugins in a way not read (every module is then one), and the file patterns
    (``pytestini``'s: a pattern holding a ``/`` matched against a path's end) of the modules
    the others name, and the plugins ``given`` (the ini's ``-p``): each name's module files
    and its packages' ``__init__`` files; and, read by the same rule, what each named
    module's own ``pytest_plugins`` names (pytest registers those too: a plugin
    aggregator; s56-greview3 P2), up to ``_MODULES`` modules."""
    names = [*given]
    for path in _initial(folder):
        found = _read(path)
        if found is None:
            return True, []
        names += found
    patterns: list[str] = []
    seen: set[str] = set()
    while names:
        name = names.pop().strip()
        if not name or name in seen:
            continue
        if len(seen) >= _MODULES:
            return True, patterns
        seen.add(name)
        patterns += _module_patterns(name)
        base = os.path.join(folder, *name.split("."))
        for path in (base + ".py", os.path.join(base, "__init__.py")):
            found = _read(path)
            if found is None:
                return True, patterns
            names += found
    return False, patterns


def _read(path: str) -> list[str] | None:
    """The names the module at ``path`` assigns ``pytest_plugins`` ([] where none or no
    file); None where it cannot be read (see the module's text)."""
    try:
        data = fs.read(path, 1 << 22)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return []
    except (OSError, ValueError):
        return None  # (a conftest not readable: pytest's run fails or not)
    if _NAME.encode() not in data and b"*" not in data:  # (`from base import *`: P1)
        return []
    return _names(data)


def _initial(folder: str) -> list[str]:
    """The conftests pytest loads first for ``folder``: in it and each folder above, and in
    each of its folders whose name starts with ``test``."""
    found, at = [], folder
    while True:
        found.append(os.path.join(at, "conftest.py"))
        if at in ("/", ""):
            break
        at = os.path.dirname(at)
    try:
        with os.scandir(folder) as entries:
            found += [os.path.join(e.path, "conftest.py") for e in entries
                      if e.name.startswith("test") and e.is_dir()]
    except OSError:
        pass
    return found


def _names(data: bytes) -> list[str] | None:
    """The module names a conftest's bytes ``data`` assign to ``pytest_plugins`` as literals
    at its top level; None where the name is used any other way (see the module's text)."""
    import ast

    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return None
    found: list[str] = []
    read: set[int] = set()
    for statement in tree.body:
        value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
        targets = statement.targets if isinstance(statement, ast.Assign) else [
            statement.target] if isinstance(statement, ast.AnnAssign) else []
        if value is None or len(targets) != 1 or not isinstance(targets[0], ast.Name) or \
                targets[0].id != _NAME:
            continue
        try:
            given = ast.literal_eval(value)
        except ValueError:
            return None
        values = given.split(",") if isinstance(given, str) else list(given) if isinstance(
            given, (list, tuple)) else [None]  # (a string: split at commas, as pytest does)
        if not all(isinstance(v, str) for v in values):
            return None
        found += [str(v) for v in values]
        read.add(id(targets[0]))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Name) and node.id == _NAME and id(node) not in read) or (
                isinstance(node, ast.Constant) and node.value == _NAME) or (
                isinstance(node, ast.alias) and (
                    node.name == "*" or (node.asname or node.name) == _NAME)):
            return None  # (read, extended, imported, named by a string: not a literal)
    return found


def _module_patterns(name: str) -> list[str]:
    """The files (``pytestini`` patterns) Python imports for the module ``name``
    (``fixtures.db``): each of its dotted prefixes' source, bytecode and extension files and
    package ``__init__`` files, and their cached bytecode."""
    parts = [p for p in name.strip().split(".") if p]
    found: list[str] = []
    for at in range(1, len(parts) + 1):
        path = "/".join(parts[:at])
        head, _, last = path.rpartition("/")
        cache = (head + "/" if head else "") + "__pycache__/" + last + ".*"
        found += [path + ".py", path + ".pyc", path + ".*so", path + ".pyd",
                  path + "/__init__.*", cache]
    return found
