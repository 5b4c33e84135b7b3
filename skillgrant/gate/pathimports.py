"""What a name a read module takes from the project's own modules is (issue 29, session 62:
s61-greview G10, G11, G14, the lead's decision): ``from helpers import sys``, ``from . import
sys``, ``helpers.s.path.insert(…)`` move the path by the read module's own call, though the
project's module only binds the name. A project module is therefore itself read under the same
allow-list (``pathreader.Reader``, through ``check``) before anything is taken from it, and a
name it binds by an import is what that import binds: a listed module (then read as such: its
listed names only), a listed name, another project module (read in turn), or a value its own
read code made (no module: a read module never uses one as a value). A module that is not read,
not found where a project module is looked for, or past ``_MODULES`` modules read refuses
(``Refused``: every folder may be first on ``sys.path``)."""

from __future__ import annotations

import os

from . import files as fs
from .pathlists import Refused

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    import ast
    from collections.abc import Callable
    from typing import Final

#: How many project modules one reading reads before it refuses.
_MODULES: Final = 64

#: A module a name may be: its file (``""``: a namespace package's folder) and, for a package,
#: its folder (where its submodules are; ``""`` for a plain module).
Found = tuple[str, str]


class Kind:
    """What a name may be: listed modules (``os.path``), listed names (``pytest.fixture``),
    project modules, or a value (each that applies)."""

    def __init__(self, *, modules: frozenset[str] = frozenset(),
                 names: frozenset[str] = frozenset(), project: tuple[Found, ...] = (),
                 value: bool = False) -> None:
        self.modules, self.names, self.project, self.value = modules, names, project, value

    def __repr__(self) -> str:
        return (f"Kind(modules={sorted(self.modules)}, names={sorted(self.names)}, "
                f"project={list(self.project)}, value={self.value})")

    def __or__(self, other: Kind) -> Kind:
        return Kind(modules=self.modules | other.modules, names=self.names | other.names,
                    project=tuple(dict.fromkeys([*self.project, *other.project])),
                    value=self.value or other.value)


class Imports:
    """The project's modules of one reading (``pathcode.moves_path``): where a top name is
    looked for (``roots``: the collecting folder, its ``src/`` and every folder from it down to
    a read module, those pytest may put on ``sys.path``, and the importing module's own
    folders), each module read once (``check``: refuses where it is not read)."""

    def __init__(self, folder: str, roots: list[str],
                 parse: Callable[[str], ast.Module | None],
                 check: Callable[[str, ast.Module], None]) -> None:
        self.folder, self.roots, self.parse, self.check = folder, roots, parse, check
        self.read: set[str] = set()
        self.trees: dict[str, ast.Module | None] = {}
        self.resolving: set[tuple[str, str]] = set()

    def top(self, path: str, top: str, standard: bool = False) -> tuple[Found, ...]:
        """The project modules the top name ``top`` may be for the module at ``path`` (a
        standard module's name: none, but where ``standard`` asks whether one shadows it)."""
        import sys

        if top in sys.builtin_module_names or (top in sys.stdlib_module_names and not standard):
            return ()  # (`gc` is the interpreter's, whatever `src/gc.py` there is)
        at, folders = os.path.dirname(path), [*self.roots]
        while at.startswith(self.folder.rstrip("/") + "/") or at == self.folder:
            folders.append(at)
            at = os.path.dirname(at)
        return tuple(dict.fromkeys(f for root in dict.fromkeys(folders) for f in _in(root, top)))

    def listed(self, path: str, dotted: str) -> None:
        """Refuses the listed module ``dotted`` where a project file of its top name may be
        imported in its stead (``tests/hashlib.py``: the test's folder first, prepend mode;
        s62-greview G4; only a builtin module is the interpreter's whatever the folders)."""
        if self.top(path, dotted.split(".")[0], True):
            raise Refused

    def module(self, path: str, level: int, dotted: str) -> Kind:
        """What ``import dotted`` (``level`` dots before it: relative to ``path``'s package)
        gives the module at ``path``; refuses a module neither listed nor found."""
        from .pathlists import MODULES

        parts = dotted.split(".") if dotted else []
        if level:
            at = os.path.dirname(path)
            for _ in range(level - 1):
                at = os.path.dirname(at)
            init = os.path.join(at, "__init__.py")
            found: tuple[Found, ...] = ((init if fs.exists(init) else "", at),)
        elif parts[0] in MODULES:
            if dotted not in MODULES:
                raise Refused
            self.listed(path, dotted)
            return Kind(modules=frozenset((dotted,)))
        else:
            found, parts = self.top(path, parts[0]), parts[1:]
        for part in parts:
            found = tuple(f for _, package in found if package for f in _in(package, part))
        if not found:
            raise Refused  # (not the project's: a site library's, whose values are not read)
        return Kind(project=found)

    def attribute(self, found: tuple[Found, ...], name: str) -> Kind:
        """What ``name`` of the project modules ``found`` may be: each module read, the name's
        every binding there (an import's, a value's), a package's submodule; refuses a name
        none binds (but a dunder: the module's own data)."""
        kind = Kind()
        for path, package in found:
            if path:
                kind = kind | self._bound(path, name)
            if package:
                kind = kind | Kind(project=_in(package, name))
        if not (kind.modules or kind.names or kind.project or kind.value):
            if name[:2] != "__":  # (a name no module binds: another may set it, `helpers.s =
                raise Refused  # sys` in a module not read; s62-greview G14)
            kind = Kind(value=True)  # (a module's own data: `__file__`)
        return kind

    def _bound(self, path: str, name: str) -> Kind:
        """What the module at ``path`` (read first) binds ``name`` to."""
        import ast

        tree = self._checked(path)
        if (path, name) in self.resolving:
            raise Refused  # (a name bound by importing itself: not read)
        self.resolving.add((path, name))
        try:
            kind = Kind()
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    for alias in node.names:
                        if (alias.asname or alias.name.split(".")[0]) == name:
                            kind = kind | self.module(path, 0, alias.name if alias.asname else
                                                      alias.name.split(".")[0])
                elif isinstance(node, ast.ImportFrom):
                    for alias in node.names:
                        if (alias.asname or alias.name) == name:
                            kind = kind | self._from(path, node, alias.name)
                elif _binds(node, name):
                    kind = kind | Kind(value=True)
            return kind
        finally:
            self.resolving.discard((path, name))

    def _from(self, path: str, node: ast.ImportFrom, name: str) -> Kind:
        """What ``from … import name`` (``node``) binds in the module at ``path``."""
        from .pathlists import MODULES, listed

        module = node.module or ""
        if node.level or module.split(".")[0] not in MODULES:
            return self.attribute(self.module(path, node.level, module).project, name)
        if module not in MODULES:
            raise Refused
        self.listed(path, module)
        if f"{module}.{name}" in MODULES:
            return Kind(modules=frozenset((f"{module}.{name}",)))
        if not listed(module, name):
            raise Refused
        return Kind(names=frozenset((f"{module}.{name}",)))

    def _checked(self, path: str) -> ast.Module:
        """The module at ``path``, read under the allow-list (once)."""
        import ast

        if path not in self.trees:
            if len(self.trees) >= _MODULES:
                raise Refused
            self.trees[path] = self.parse(path)
        tree = self.trees[path]
        if tree is None:
            return ast.Module(body=[], type_ignores=[])
        if path not in self.read:
            self.read.add(path)  # (before: a module importing one that imports it)
            self.check(path, tree)
        return tree


def _in(folder: str, name: str) -> tuple[Found, ...]:
    """The modules ``name`` is in ``folder``: ``name.py``, a package ``name/``; refuses a
    compiled one (``name.pyc`` beside, ``name.cpython-311-x86_64-linux-gnu.so``, a package's
    ``__init__`` so: CPython's FileFinder takes them, not read; s62-greview G4b, G12)."""
    import glob

    at = os.path.join(glob.escape(folder), glob.escape(name))
    if any(p.endswith((".pyc", ".so", ".pyd")) for p in [*glob.glob(at + ".*"), *glob.glob(
            at + "/__init__.*")]):  # (a package's compiled `__init__`: G12)
        raise Refused
    found: list[Found] = []
    module, init = os.path.join(folder, name + ".py"), os.path.join(folder, name,
                                                                     "__init__.py")
    if fs.exists(module):
        found.append((module, ""))
    if fs.exists(init):
        found.append((init, os.path.join(folder, name)))
    return tuple(found)


def _binds(node: ast.AST, name: str) -> bool:
    """Whether ``node`` binds ``name`` otherwise than by an import."""
    import ast

    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name == name
    if isinstance(node, ast.Name):
        return node.id == name and not isinstance(node.ctx, ast.Load)
    return (isinstance(node, ast.MatchAs | ast.MatchStar) and node.name == name) or (
        isinstance(node, ast.ExceptHandler) and node.name == name) or (
        isinstance(node, ast.MatchMapping) and node.rest == name)
