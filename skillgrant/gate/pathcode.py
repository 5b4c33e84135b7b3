"""Whether a project's own start code may put any folder first on ``sys.path`` (issue 29,
session 60: s58-preview S ``conftest-inserts-src``): a conftest pytest may load, a test module
or a package's ``__init__`` naming ``sys.path`` (``sys.path.insert(0, 'src')``) makes a module
named like a site folder's top name found first from any folder (``syspathdirs``)."""

from __future__ import annotations

from . import files as fs
from .conftestplugins import above_conftests, below_files


def moves_path(folder: str) -> bool:
    """Whether a conftest pytest may load for the collecting ``folder`` (in, above or below
    it), a test module or a package's ``__init__`` below it names ``sys.path`` (``sys.path.
    insert(0, 'src')``, ``from sys import path``, ``os.sys.path``): a folder it puts first
    holds modules imported in the site folders' stead (s58-preview S); True where one cannot
    be read or the folders below hold too many entries."""
    from .testnames import test_name

    below = below_files(folder)
    if below is None:
        return True
    for path in [*above_conftests(folder), *(p for p in below if p.endswith(".py") and test_name(
            p.rpartition("/")[2].lower()))]:
        try:
            data = fs.read(path, 1 << 22)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            continue
        except (OSError, ValueError):
            return True
        if b"sys" in data and _names_path(data):
            return True
    return False


def _names_path(data: bytes) -> bool:
    """Whether the module ``data`` names ``sys.path`` (through its imports: ``from sys import
    path as p``; ``os.sys.path``); True where it does not parse."""
    import ast

    from .exactlists import imports

    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return True
    bound = {local: dotted for n in ast.walk(tree) if isinstance(n, (
        ast.Import, ast.ImportFrom)) for local, dotted in imports(n)}
    for node in ast.walk(tree):
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        dotted = ".".join([bound.get(node.id, node.id), *reversed(parts)]) if isinstance(
            node, ast.Name) else ""
        if dotted == "sys.path" or dotted.startswith("sys.path.") or ".sys.path" in dotted:
            return True
    return False
