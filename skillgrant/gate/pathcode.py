"""Whether a project's own test code may put any folder first on ``sys.path`` (issue 29,
session 60: s58-preview S ``conftest-inserts-src``; session 61: read by an allow-list).

A conftest pytest may load, a test module or a package's ``__init__`` is read as moving no
folder only where everything it does is of a shape read exactly (``pathlists``): it imports
only the project's own modules (relative, or a top name the project's folders hold: its
source, the boundary P1g) and listed modules, of those using only listed names (``os.path``,
``sys.platform``, ``pytest.raises``: none reaches another namespace by a string, so no string
becomes a name); it names no builtin but those of ``exactlists.BUILTINS`` (``getattr`` of a
literal name only), no dunder but a few data ones, no private attribute but of ``self``, no
attribute of ``pathlists.MOVERS`` (``syspath_prepend``, ``pyimport``, ``import_plugin``,
``getfixturevalue``, ``patch``, ``from_parent``: what pytest's own objects move the path or
import by); a function pytest runs with fixtures (``test*``, ``setup*``, ``teardown*``,
``pytest_*``, any decorated one) takes only pytest's own fixtures and hook arguments, those the
project's files define and its ``parametrize`` names (a plugin's ``mocker`` may patch
``sys.path`` by a string); ``pytest.fixture`` is a decorator only, and no name pytest collects
(``test_x = helper``) is bound to a value of another shape. Any other module, one that cannot
be read (a syntax error, past 4 MiB) or a walk cut short makes every folder one that may be
first on ``sys.path`` (``syspathdirs``). A module without any of them reaches ``sys.path``
only through the project's own modules it imports: its source (the boundary, P1g)."""

from __future__ import annotations

import os

from . import files as fs
from .conftestplugins import LIMIT, above_conftests, below_files

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    import ast


def moves_path(folder: str) -> bool:
    """Whether a conftest pytest may load for the collecting ``folder`` (in, above or below
    it), a test module below it or a package ``__init__`` pytest imports for one may move
    ``sys.path`` (see the module's text); True where one cannot be read or the folders below
    hold too many entries."""
    read = _read_files(folder)
    if read is None:
        return True
    conftests, modules = read
    try:
        fixtures = {n for p in conftests for n in _fixtures(_parsed(p))}
        for path in modules:
            tree = _parsed(path)
            if tree is not None and not _Reader(path, folder, fixtures | _fixtures(
                    tree)).module(tree):
                return True
    except (_Refused, RecursionError):
        return True
    return False


def _read_files(folder: str) -> tuple[list[str], list[str]] | None:
    """The conftests pytest may load for ``folder`` and every module read (those, the test
    modules below it and their packages' ``__init__`` up: those pytest imports; a package's
    that holds no test is the project's source, P1g); None where the folders below hold too
    many entries."""
    from .testnames import test_name

    below = below_files(folder)
    if below is None:
        return None
    conftests = list(dict.fromkeys([*above_conftests(folder), *(
        p for p in below if p.endswith("/conftest.py"))]))
    tests = [p for p in below if p.endswith(".py") and test_name(p.rpartition("/")[2].lower())
             and not p.endswith(("/conftest.py", "/__init__.py"))]
    held, inits = set(below), []
    for path in tests:
        at = path.rpartition("/")[0]
        while at + "/__init__.py" in held:
            inits.append(at + "/__init__.py")
            at = at.rpartition("/")[0]
    return conftests, list(dict.fromkeys([*conftests, *inits, *tests]))


def _parsed(path: str) -> ast.Module | None:
    """The module at ``path`` parsed; None where there is none. Raises ``_Refused`` where it
    cannot be read (past ``LIMIT``, not Python's)."""
    import ast

    try:
        data = fs.read(path, LIMIT + 1)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    except (OSError, ValueError):
        raise _Refused from None
    if len(data) > LIMIT:
        raise _Refused
    try:
        return ast.parse(data)
    except (SyntaxError, ValueError, UnicodeError, LookupError, MemoryError, RecursionError):
        raise _Refused from None


def _fixtures(tree: ast.Module | None) -> set[str]:
    """The names of the decorated functions of ``tree`` and the ``name=`` strings of its
    decorators (the fixtures a project's file may define)."""
    import ast

    found: set[str] = set()
    for node in ast.walk(tree) if tree else ():
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.decorator_list:
            found.add(node.name)
            found.update(k.value.value for d in node.decorator_list for k in getattr(
                d, "keywords", ()) if k.arg == "name" and isinstance(k.value, ast.Constant) and
                isinstance(k.value.value, str))
    return found


class _Refused(Exception):
    """A shape the allow-list does not read."""


class _Reader:
    """The allow-list's reading of one module (``module``)."""

    def __init__(self, path: str, folder: str, fixtures: set[str]) -> None:
        self.path, self.folder, self.fixtures = path, folder, fixtures
        self.modules: dict[str, str] = {}  # (a local name: the listed module it is)
        self.fixture_names: set[str] = set()  # (local names of `pytest.fixture`)
        self.kept: set[int] = set()  # (Name nodes bound by an assignment read)

    def module(self, tree: ast.Module) -> bool:
        """Whether the module ``tree`` is of the shapes read (see the module's text)."""
        import ast

        try:
            for node in ast.walk(tree):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    self._import(node)
            for node in tree.body:
                if _main_block(node):
                    assert isinstance(node, ast.If)
                    for other in node.orelse:  # (`__name__` is never `__main__` under pytest)
                        self._visit(other, False)
                else:
                    self._visit(node, False)
        except _Refused:
            return False
        return True

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        import ast

        from .pathlists import MODULES

        if isinstance(node, ast.ImportFrom):
            self._import_from(node)
            return
        for alias in node.names:
            top = alias.name.split(".")[0]
            if alias.name in MODULES and top in MODULES:
                self.modules[alias.asname or top] = alias.name if alias.asname else top
            elif top in MODULES or not self._project(top):
                raise _Refused

    def _import_from(self, node: ast.ImportFrom) -> None:
        from .pathlists import MODULES

        module = node.module or ""
        if any(a.name == "*" for a in node.names):
            raise _Refused
        if node.level:
            return  # (a relative import: the project's)
        if module not in MODULES:
            if module.split(".")[0] in MODULES or not self._project(module.split(".")[0]):
                raise _Refused
            return
        for alias in node.names:
            full = f"{module}.{alias.name}"
            if full in MODULES:
                self.modules[alias.asname or alias.name] = full
            elif not _listed(module, alias.name):
                raise _Refused
            elif full == "pytest.fixture":
                self.fixture_names.add(alias.asname or alias.name)

    def _project(self, top: str) -> bool:
        """Whether the top name ``top`` is a module the project's folders hold (the collecting
        folder, its ``src/``, the module's own folder and each up to the collecting one)."""
        at = os.path.dirname(self.path)
        folders = [self.folder, os.path.join(self.folder, "src")]
        while at.startswith(self.folder.rstrip("/") + "/"):
            folders.append(at)
            at = os.path.dirname(at)
        return any(fs.exists(os.path.join(f, top + ".py")) or fs.exists(
            os.path.join(f, top, "__init__.py")) for f in folders)

    def _visit(self, node: ast.AST, decorating: bool) -> None:
        import ast

        if isinstance(node, ast.Attribute):
            self._attribute(node, decorating)
        elif isinstance(node, ast.Name):
            self._name(node, decorating)
        elif isinstance(node, ast.Call):
            self._call(node, decorating)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self._function(node)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            self._assign(node)
        elif isinstance(node, ast.ClassDef):
            for one in node.decorator_list:
                self._visit(one, True)
            for other in [*node.bases, *node.keywords, *node.body]:
                self._visit(other, False)
        else:
            for child in ast.iter_child_nodes(node):
                self._visit(child, decorating)

    def _assign(self, node: ast.Assign | ast.AnnAssign) -> None:
        """Reads an assignment; a name pytest collects (``test_x``) is bound only to data."""
        import ast

        if node.value is None or isinstance(node.value, (
                ast.Constant, ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.DictComp,
                ast.SetComp, ast.JoinedStr)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            self.kept.update(id(t) for t in targets if isinstance(t, ast.Name))
        for child in ast.iter_child_nodes(node):
            self._visit(child, False)

    def _name(self, node: ast.Name, decorating: bool) -> None:
        import ast

        from .exactlists import BUILTINS, exception
        from .pathlists import DUNDERS, RUN_PREFIXES

        name = node.id
        if not isinstance(node.ctx, ast.Load):
            if name.startswith((*RUN_PREFIXES, "setUp", "tearDown")) and id(
                    node) not in self.kept:  # (`test_x = helper`: pytest runs it)
                raise _Refused
            return
        if name in self.modules or (name in self.fixture_names and not decorating) or (
                name[:2] == "__" and name not in DUNDERS):
            raise _Refused
        import builtins

        if hasattr(builtins, name) and name not in BUILTINS and name not in _BUILTINS and \
                not exception(name):
            raise _Refused
        if name == "getattr":
            raise _Refused  # (but as `_call` reads it)

    def _attribute(self, node: ast.Attribute, decorating: bool, called: bool = False) -> None:
        import ast

        chain: list[str] = []
        base: ast.expr = node
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        chain.reverse()
        start = 0
        if isinstance(base, ast.Name) and base.id in self.modules:
            module: str | None = self.modules[base.id]
            while module is not None and start < len(chain):
                attr = chain[start]
                if f"{module}.{attr}" in _modules():
                    module = f"{module}.{attr}"
                elif _listed(module, attr):
                    if f"{module}.{attr}" == "pytest.fixture" and not decorating:
                        raise _Refused
                    module = None
                else:
                    raise _Refused
                start += 1
            if module is not None:
                raise _Refused  # (a module as a value: `helpers.run(os)`)
        else:
            self._visit(base, decorating)
        mine = isinstance(base, ast.Name) and base.id in ("self", "cls")
        for index in range(start, len(chain)):
            _value_attribute(chain[index], mine and index == 0,
                             called and index == len(chain) - 1)

    def _call(self, node: ast.Call, decorating: bool) -> None:
        import ast

        func = node.func
        if isinstance(func, ast.Name) and func.id == "getattr":
            name = node.args[1] if len(node.args) in (2, 3) and not node.keywords else None
            if not (isinstance(name, ast.Constant) and isinstance(name.value, str)) or (
                    isinstance(node.args[0], ast.Name) and node.args[0].id in self.modules):
                raise _Refused
            _value_attribute(name.value, False, False)
            for arg in [node.args[0], *node.args[2:]]:
                self._visit(arg, False)
            return
        if isinstance(func, ast.Attribute) and func.attr in ("setattr", "delattr"):
            plain = [a for a in node.args if not isinstance(a, ast.Starred)]
            if len(plain) != len(node.args) or len(plain) < (
                    3 if func.attr == "setattr" else 2) or any(
                    k.arg not in ("raising",) for k in node.keywords):
                raise _Refused  # (monkeypatch's dotted string form: `setattr('sys.path', …)`)
            self._attribute(func, decorating, True)
        else:
            self._visit(func, decorating)
        for child in [*node.args, *node.keywords]:
            self._visit(child, False)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        import ast

        from .pathlists import PARAMETERS, RUN_PREFIXES

        run = node.name.startswith((*RUN_PREFIXES, "setUp", "tearDown")) or any(
            not (isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod",
                                                      "property"))
            for d in node.decorator_list)
        if run:
            args = node.args
            plain = [*args.posonlyargs, *args.args]
            taken = plain[:len(plain) - len(args.defaults)] + [
                a for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is None]
            strings = {w for d in node.decorator_list for c in ast.walk(d)
                       if isinstance(c, ast.Constant) and isinstance(c.value, str)
                       for w in c.value.replace(",", " ").split()}
            if any(a.arg not in PARAMETERS and a.arg not in self.fixtures and
                   a.arg not in strings for a in taken):
                raise _Refused  # (a plugin's fixture: `mocker`)
        for one in node.decorator_list:
            self._visit(one, True)
        for other in [node.args, *node.body, *([node.returns] if node.returns else [])]:
            self._visit(other, False)


#: Builtins a read module may name beside ``exactlists.BUILTINS`` (none reaches a namespace
#: by a string or runs text).
_BUILTINS = frozenset(("super", "iter", "next", "map", "filter", "dir", "memoryview", "aiter",
                       "anext", "NotImplemented"))
#: The attributes of any value that run text or set one by a string (``x.setattr`` is read
#: by its call: ``_Reader._call``).
_RUNS = frozenset(("eval", "exec", "compile", "globals", "locals", "vars", "__import__",
                   "breakpoint", "setattr", "delattr", "input", "help"))


def _modules() -> dict[str, frozenset[str] | None]:
    from .pathlists import MODULES

    return MODULES


def _listed(module: str, name: str) -> bool:
    """Whether the listed ``module``'s ``name`` is one a read module may use."""
    from .pathlists import MODULES, UPPER

    names = MODULES[module]
    if names is None:
        return not name.startswith("_") and (module not in UPPER or name.isupper() or name in (
            "signal", "alarm", "getsignal", "strerror", "errorcode", "S_ISDIR", "S_ISREG",
            "S_ISLNK", "S_IMODE", "filemode"))
    return name in names


def _value_attribute(attr: str, mine: bool, called: bool) -> None:
    """Refuses ``attr`` of a value (``mine``: ``self``'s or ``cls``'s; ``called``: the
    ``setattr``/``delattr`` a call's arguments were read for)."""
    from .exactlists import DATA, FRAMES
    from .pathlists import DUNDERS, MOVERS

    if attr in MOVERS or attr.startswith(FRAMES) or (attr in _RUNS and not called) or (
            attr[:2] == "__" and attr not in DUNDERS and attr not in DATA) or (
            attr[:1] == "_" and attr[:2] != "__" and not mine):
        raise _Refused


def _main_block(node: ast.AST) -> bool:
    """Whether ``node`` is a module's ``if __name__ == "__main__":``."""
    import ast

    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and isinstance(test, ast.Compare) and isinstance(
        test.left, ast.Name) and test.left.id == "__name__" and len(test.comparators) == 1 and \
        isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == "__main__"
