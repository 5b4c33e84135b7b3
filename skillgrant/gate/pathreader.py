"""The allow-list's reading of one conftest or test module (issue 29, session 61;
``pathcode``'s text says what it reads, ``pathlists`` holds the lists): ``Reader.module``
refuses (False) a module where anything it does is of a shape not read."""

from __future__ import annotations

from .pathimports import Imports, Kind
from .pathlists import ALSO_BUILTINS, CALLED, CONFIGURED, Refused, listed, truth, value_attribute
from .pathpatch import Patches

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    import ast


class Reader(Patches):
    """The allow-list's reading of one module (``module``)."""

    def __init__(self, path: str, folder: str, fixtures: set[str], imports: Imports) -> None:
        self.path, self.folder, self.fixtures, self.imports = path, folder, fixtures, imports
        self.modules: dict[str, str] = {}  # (a local name: the listed module it is)
        self.project: dict[str, Kind] = {}  # (a local name: the project's modules it may be)
        self.patchers: set[str] = set()  # (local names of `unittest.mock.patch`)
        self.fixture_names: set[str] = set()  # (local names of `pytest.fixture`)
        self.kept: set[int] = set()  # (Name nodes bound by an assignment read)
        self.conftest = path.endswith("/conftest.py")
        self.bound: dict[str, set[str]] = {}  # (how each name is bound: `_bindings`)

    def module(self, tree: ast.Module) -> bool:
        """Whether the module ``tree`` is of the shapes read (see the module's text)."""
        import ast

        from .pathlists import main_block

        try:
            for node in ast.walk(tree):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    self._import(node)
            self._bindings(tree)
            for node in tree.body:
                if main_block(node):
                    assert isinstance(node, ast.If)
                    for other in node.orelse:  # (`__name__` is never `__main__` under pytest)
                        self._visit(other, False)
                else:
                    self._visit(node, False)
        except Refused:
            return False
        return True

    def _bindings(self, tree: ast.Module) -> None:
        """How each name of ``tree`` is bound: ``truth`` (assigned a comparison, a boolean
        operation, ``not``, a boolean constant), ``import``, or ``other``."""
        import ast

        kinds: dict[int, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                kind = "truth" if truth(node.value, self.modules) else "other"
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    kinds[id(target)] = kind
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                self.bound.setdefault(node.id, set()).add(kinds.get(id(node), "other"))
            elif isinstance(node, ast.alias):
                self.bound.setdefault((node.asname or node.name).split(".")[0], set()).add(
                    "import")
            elif isinstance(node, ast.arg):
                self.bound.setdefault(node.arg, set()).add("other")

    def _condition(self, node: ast.expr) -> None:
        """Refuses a mark's condition (``skipif``, ``xfail``) that may be a string: pytest
        evaluates one as code with ``sys``, ``os`` and the config in its namespace (s61-greview
        G6): ``pathlists.truth``'s shapes only (a name bound only so in the module)."""
        truths = frozenset(n for n, kinds in self.bound.items() if kinds == {"truth"})
        if not truth(node, self.modules, truths):  # (an imported name may be a string: G6c)
            raise Refused

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        import ast

        from .pathlists import MODULES

        if isinstance(node, ast.ImportFrom):
            self._import_from(node)
            return
        for alias in node.names:
            top = alias.name.split(".")[0]
            if alias.name in MODULES and top in MODULES:
                self.imports.listed(self.path, top)
                self.modules[alias.asname or top] = alias.name if alias.asname else top
            elif top in MODULES:
                raise Refused
            else:  # (the project's: refused where not found)
                self._take(alias.asname or top, self.imports.module(
                    self.path, 0, alias.name if alias.asname else top))

    def _import_from(self, node: ast.ImportFrom) -> None:
        from .pathlists import MODULES

        module = node.module or ""
        if any(a.name == "*" for a in node.names):
            raise Refused
        if node.level or module.split(".")[0] not in MODULES:  # (the project's: G10, G11)
            base = self.imports.module(self.path, node.level, module)
            for alias in node.names:
                self._take(alias.asname or alias.name, self.imports.attribute(base.project,
                                                                              alias.name))
            return
        if module not in MODULES:
            raise Refused
        self.imports.listed(self.path, module)
        for alias in node.names:
            full = f"{module}.{alias.name}"
            if full in MODULES:
                self.modules[alias.asname or alias.name] = full
            elif full == "unittest.mock.patch":  # (read by its calls: `pathpatch`)
                self.patchers.add(alias.asname or alias.name)
            elif not listed(module, alias.name):
                raise Refused
            elif full == "pytest.fixture":
                self.fixture_names.add(alias.asname or alias.name)

    def _take(self, name: str, kind: Kind) -> None:
        """Binds the local ``name`` to what a project module gives (``kind``): a listed module
        exactly as its own import would, a project module as one (read in turn), a value."""
        if kind.modules:
            if len(kind.modules) > 1 or kind.names or kind.project or kind.value:
                raise Refused
            self.modules[name] = next(iter(kind.modules))
            return
        if "pytest.fixture" in kind.names:
            self.fixture_names.add(name)
        if kind.project:
            self.project[name] = self.project[name] | kind if name in self.project else kind

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
        elif isinstance(node, (ast.MatchClass, ast.ClassDef)):
            self._class(node)
        else:
            for child in ast.iter_child_nodes(node):
                self._visit(child, decorating)

    def _class(self, node: ast.MatchClass | ast.ClassDef) -> None:
        """Reads a class statement (its decorators as decorators) or a class pattern (its
        keywords are attributes: s61-greview G19)."""
        import ast

        if isinstance(node, ast.MatchClass):
            for attr in node.kwd_attrs:
                value_attribute(attr, False, False)
            for child in ast.iter_child_nodes(node):
                self._visit(child, False)
            return
        if any(isinstance(b, (ast.Import, ast.ImportFrom)) for b in node.body):
            raise Refused  # (a class attribute bound to a module: `self.s.path`, G22)
        self._decorators(node.decorator_list)
        for other in [*node.bases, *node.keywords, *node.body]:
            self._visit(other, False)

    def _decorators(self, nodes: list[ast.expr]) -> None:
        """Reads decorators (or a ``marks=`` value's marks): a mark applied bare
        (``@pytest.mark.xfail``) read as such, a list's items each."""
        import ast

        for node in nodes:
            if isinstance(node, ast.Attribute):
                self._attribute(node, True, bare=True)
            elif isinstance(node, (ast.List, ast.Tuple)):
                self._decorators(node.elts)
            else:
                self._visit(node, True)

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
            if (name.startswith((*RUN_PREFIXES, "setUp", "tearDown")) and id(
                    node) not in self.kept) or name[:2] == "__":  # (`test_x = helper`:
                raise Refused  # pytest runs it; `__name__ = '__main__'`)
            return
        if name in self.modules or name in self.project or (  # (a module as a value)
                name in self.fixture_names and not decorating) or (
                name[:2] == "__" and name not in DUNDERS):
            raise Refused
        import builtins

        if hasattr(builtins, name) and name not in BUILTINS and name not in ALSO_BUILTINS and \
                not exception(name):
            raise Refused
        if name == "getattr":
            raise Refused  # (but as `_call` reads it)

    def _attribute(self, node: ast.Attribute, decorating: bool, called: bool = False,
                   bare: bool = False, target: bool = False) -> None:
        """Reads an attribute chain (``called``: its last attribute is the function of a call
        ``_call`` read the arguments of; ``bare``: it is a decorator, or a ``marks=`` value,
        itself; ``target``: the object ``setattr`` sets an attribute of)."""
        import ast

        chain: list[str] = []
        base: ast.expr = node
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        chain.reverse()
        start = 0
        if isinstance(base, ast.Name) and base.id in self.project:
            self._project_chain(self.project[base.id], chain, decorating, called, target)
            start = len(chain)
        if isinstance(base, ast.Name) and base.id in self.modules:
            start = self._module_chain(self.modules[base.id], chain, decorating)
        elif not (isinstance(base, ast.Name) and base.id in self.project):
            self._visit(base, decorating)
        marks = isinstance(base, ast.Name) and self.modules.get(base.id) == "pytest.mark"
        for index, attr in enumerate(chain):
            marks = marks or attr == "mark"
            if attr in CALLED and (marks or attr not in ("skipif", "xfail")) and not (
                    (called or (bare and marks)) and index == len(chain) - 1):
                raise Refused  # (read only as a call `_call` read, or a mark applied bare:
                # not `skipif.with_args(…)`, `skipif.__call__(…)`: G6d, G6e)
            if self.conftest and attr in CONFIGURED:
                raise Refused  # (a conftest's hook changing what pytest collects: G7, G8)
        mine = isinstance(base, ast.Name) and base.id in ("self", "cls")
        for index in range(start, len(chain)):
            value_attribute(chain[index], mine and index == 0,
                             called and index == len(chain) - 1)

    def _module_chain(self, module: str | None, chain: list[str], decorating: bool) -> int:
        """How many attributes of ``chain`` the listed ``module``'s table reads (a module, then
        a listed name: ``os.path.join``); refuses an unlisted one and a module left a value."""
        start = 0
        while module is not None and start < len(chain):
            attr = chain[start]
            if f"{module}.{attr}" in _modules():
                module = f"{module}.{attr}"
            elif listed(module, attr):
                if f"{module}.{attr}" == "pytest.fixture" and not decorating:
                    raise Refused
                module = None
            else:
                raise Refused
            start += 1
        if module is not None:
            raise Refused  # (a module as a value: `helpers.run(os)`)
        return start

    def _project_chain(self, kind: Kind, chain: list[str], decorating: bool, called: bool,
                       target: bool = False) -> None:
        """Reads the attributes ``chain`` of a project module (``kind``): each resolved in
        the module read (``Imports.attribute``), a listed module's by its table, a value's as
        any value's; refuses a project module left a value (``run(helpers)``) but as
        ``setattr``'s object (``target``)."""
        at = 0
        while True:
            if kind.value or kind.names:
                for index in range(at, len(chain)):
                    value_attribute(chain[index], False, called and index == len(chain) - 1)
            if "pytest.fixture" in kind.names and at == len(chain) and not decorating:
                raise Refused
            for module in kind.modules:
                done = at + self._module_chain(module, chain[at:], decorating)
                for index in range(done, len(chain)):
                    value_attribute(chain[index], False, called and index == len(chain) - 1)
            if not kind.project:
                return
            if at == len(chain):
                if target:
                    return
                raise Refused  # (a project module as a value)
            kind, at = self.imports.attribute(kind.project, chain[at]), at + 1

    def _call(self, node: ast.Call, decorating: bool) -> None:
        import ast

        func = node.func
        if self._patched(node):
            return
        if isinstance(func, ast.Name) and func.id == "getattr":
            name = node.args[1] if len(node.args) in (2, 3) and not node.keywords else None
            if not (isinstance(name, ast.Constant) and isinstance(name.value, str)) or (
                    isinstance(node.args[0], ast.Name) and node.args[0].id in self.modules):
                raise Refused
            value_attribute(name.value, False, False)
            for arg in [node.args[0], *node.args[2:]]:
                self._visit(arg, False)
            return
        if isinstance(func, ast.Attribute) and func.attr in CALLED:
            self._arguments(func.attr, node)
            self._attribute(func, decorating, True)
        else:
            self._visit(func, decorating)
        for index, child in enumerate(node.args):
            if index == 0 and isinstance(func, ast.Attribute) and func.attr in (
                    "setattr", "delattr") and self._target(child):
                continue  # (`monkeypatch.setattr(helpers, "X", 1)`: a module's attribute set)
            self._visit(child, False)
        for keyword in node.keywords:  # (`pytest.param(…, marks=pytest.mark.xfail)`: applied)
            if keyword.arg == "marks":
                self._decorators([keyword.value])
            else:
                self._visit(keyword.value, False)

    def _target(self, node: ast.expr) -> bool:
        """Whether ``node``, the object of ``setattr``, is a project module's name or its
        attributes (read as such: True)."""
        import ast

        base = node
        while isinstance(base, ast.Attribute):
            base = base.value
        if not isinstance(base, ast.Name) or base.id not in self.project or \
                base.id in self.modules:
            return False
        if isinstance(node, ast.Attribute):
            self._attribute(node, False, target=True)
        return True

    def _arguments(self, name: str, node: ast.Call) -> None:
        """Refuses the arguments of a call of ``CALLED``'s ``name`` but a mark's conditions
        read (``_condition``), ``addinivalue_line('markers', …)`` and the object forms of
        ``setattr``/``delattr`` (not monkeypatch's dotted string: ``setattr('sys.path', …)``,
        nor ``addinivalue_line('python_files', …)``: G8)."""
        import ast

        plain = [a for a in node.args if not isinstance(a, ast.Starred)]
        if len(plain) != len(node.args) or any(k.arg is None for k in node.keywords):
            raise Refused
        if name in ("skipif", "xfail"):
            for condition in [*plain, *(k.value for k in node.keywords if k.arg == "condition")]:
                self._condition(condition)
        elif name == "addinivalue_line":
            if not (plain and isinstance(plain[0], ast.Constant) and plain[0].value == "markers"):
                raise Refused
        elif len(plain) < {"setattr": 3, "delattr": 2}[name] or any(
                k.arg not in ("raising",) for k in node.keywords):
            raise Refused

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        import ast

        from .pathlists import PARAMETERS, RUN_PREFIXES, named

        run = node.name.startswith((*RUN_PREFIXES, "setUp", "tearDown")) or any(
            not (isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod",
                                                      "property"))
            for d in node.decorator_list)
        if run:
            args = node.args
            plain = [*args.posonlyargs, *args.args]
            taken = plain[:len(plain) - len(args.defaults)] + [
                a for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is None]
            strings = {w for d in node.decorator_list if isinstance(d, ast.Call) and named(
                d.func) == "parametrize" and d.args for c in [d.args[0], *(
                    d.args[0].elts if isinstance(d.args[0], (ast.List, ast.Tuple)) else ())]
                if isinstance(c, ast.Constant) and isinstance(c.value, str)
                for w in c.value.replace(",", " ").split()}
            if any(a.arg not in PARAMETERS and a.arg not in self.fixtures and
                   a.arg not in strings for a in taken):
                raise Refused  # (a plugin's fixture: `mocker`)
        self._decorators(node.decorator_list)
        for other in [node.args, *node.body, *([node.returns] if node.returns else [])]:
            self._visit(other, False)


def _modules() -> dict[str, frozenset[str] | None]:
    from .pathlists import MODULES

    return MODULES
