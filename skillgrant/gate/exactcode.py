"""Module code the gate reads exactly, by an allow-list of shapes (issue 29, session 59): a
conftest, a ``.pth`` import line, a ``sitecustomize`` run arbitrary code at start; read by
deny-lists of spellings, each review found another (s58-preview P-DYNAMIC6: a decorated ``def
pytest_plugins``, a match capture, a metaclass, ``print.__self__``; E-DENYLIST-2: ``runpy``,
``timeit``). Here code is read only where each statement run at import (the module's, a class
body's, those of ``if``/``for``/``while``/``try``/``with`` blocks) has a known shape:

- ``import``/``from … import`` of names (no binding of ``name``, the one the caller reads;
  a star import is the caller's: ``conftestplugins._stars``);
- an assignment (plain, annotated, augmented; ``del``) to plain names, attributes and
  subscripts (no ``name``, no ``__dunder__``, no ``modules``), of an allowed expression;
- an expression statement (a docstring, an allowed call), ``assert``, ``raise``, ``pass``;
- ``def`` (its body not read: nothing calls it at import, see below) whose decorators are
  ``decorators``' (pytest's fixture, hookimpl and marks; ``contextmanager``, ``property``…;
  a ``classmethod`` over none) and whose defaults and annotations are allowed expressions;
- ``class`` without keywords (no metaclass) whose bases are ``bases``' and whose body is read
  by these rules.

An allowed expression holds literals, operators, comprehensions, lambdas (their bodies read
so), names (not a ``def``'s or class's of the module: its code; not a builtin outside
``BUILTINS``: ``getattr``, ``setattr``, ``vars``, ``globals``, ``exec``, ``__import__``…),
attributes not starting with ``_``, and calls of: a builtin of ``BUILTINS`` (``getattr`` of a
literal public name; ``sorted``/``min``/``max`` by a lambda), a dotted name an import binds
that ``calls`` lists (``os.path.*``, ``pytest.mark.*``, ``hypothesis.settings.*``…), or a
value's method of ``METHODS`` (``append``, ``get``, ``join``, ``resolve``…). Anything else
(a match, ``global``, a metaclass, a call of the module's own function or of a library's
function not listed, a dunder attribute) is not read: the caller fails closed.

A ``def``'s body is read where code read calls it (a conftest's function, a hook pytest runs
as it registers the conftest: ``hooks``); else nothing runs it before the module is read (its
name is loaded only as a whole assigned value or given to a ``keeping`` call)."""

from __future__ import annotations

from .exactlists import (
    BUILTINS,
    CLASS_HOOKS,
    DEPTH,
    KEPT,
    METHODS,
    READING,
    STRINGS,
    binds,
    exception,
    imports,
    listed,
    reaching,
)

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Sequence


def exact(tree: object, name: str, calls: frozenset[str], decorators: frozenset[str],
          bases: frozenset[str], read: frozenset[int] = frozenset(),
          foreign: frozenset[str] = frozenset(), kept: frozenset[str] = frozenset(),
          strings: bool = False, hooks: frozenset[str] = frozenset(),
          methods: frozenset[str] = frozenset(), keeping: frozenset[str] = frozenset(),
          called: set[str] | None = None) -> bool:
    """Whether the ``ast`` module ``tree`` is read exactly by the allow-list (see the
    module's text): no statement run at import binds or reaches ``name`` but the
    assignments ``read`` (their ids: the caller reads their values), and each call is one
    ``calls`` lists, or a function of a module whose top name is in ``foreign`` (a site
    module's: added to ``called``, the caller reads it); no attribute of ``kept``; where
    ``strings``, an ``exec``/``eval``/``compile`` of one literal string is read as its code
    by the same rules, and ``__import__`` of a literal as that module. The bodies of the
    module's functions named in ``hooks`` (run as the module is registered: pytest's
    historic hooks) are read by the same rules, their arguments' ``methods`` allowed too, as
    is the body of each of its functions called in code read; a call ``keeping`` lists may
    be given the module's own functions."""
    import ast

    if not isinstance(tree, ast.Module):
        return False
    reader = _Reader(tree, name, calls, decorators, bases, read, foreign)
    reader.kept, reader.strings, reader.hooks, reader.methods = KEPT | kept, strings, hooks, \
        READING if strings else METHODS | methods  # (site code: no mapping written)
    reader.keeping, reader.called = keeping, set() if called is None else called
    return reader.statements(tree.body)


class _Reader:
    """One module's reading: its imports' dotted names, its own functions' and classes'
    names, and the allow-lists."""

    def __init__(self, tree: object, name: str, calls: frozenset[str],
                 decorators: frozenset[str], bases: frozenset[str], read: frozenset[int],
                 foreign: frozenset[str]) -> None:
        import ast

        self.name, self.calls, self.decorators, self.bases = name, calls, decorators, bases
        self.read, self.foreign, self.kept, self.strings, self.depth = read, foreign, KEPT, \
            False, 0
        self.hooks: frozenset[str] = frozenset()
        self.keeping, self.called = frozenset[str](), set[str]()
        self.methods, self.defs, self.reading = METHODS, dict[str, object](), dict[str, bool]()
        self.imported: dict[str, str] = {}
        self.postponed = any(isinstance(s, ast.ImportFrom) and s.module == "__future__" and any(
            a.name == "annotations" for a in s.names) for s in tree.body)  # type: ignore[attr-defined]
        self.own: set[str] = set()
        self.classes: dict[str, bool] = {}  # (each, whether a subclass of it runs none of its
        # code: no `__init_subclass__`)
        bound: set[str] = set()
        for node in ast.walk(tree):  # type: ignore[arg-type]
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for local, dotted in imports(node):
                    if self.imported.setdefault(local, dotted) != dotted:
                        bound.add(local)  # (two imports of a name: neither's)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.defs[node.name] = None if node.name in self.own or isinstance(
                    node, ast.ClassDef) else node  # (a name defined twice: not read)
                self.own.add(node.name)
                if isinstance(node, ast.ClassDef):
                    self.classes[node.name] = node.name not in self.classes and not any(
                        binds(n, "__init_subclass__") for n in node.body)
            elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                bound.add(node.id)
            elif isinstance(node, (ast.arg, ast.ExceptHandler)):  # (`except E as e`: e)
                bound |= {getattr(node, "arg", None) or getattr(node, "name", None) or ""}
        self.stored = bound - {""}
        for shadowed in bound & set(self.imported):  # (a name rebound: not the import's)
            del self.imported[shadowed]
        self.bound = bound | self.own | set(self.imported)

    def statements(self, body: Sequence[object]) -> bool:
        """Whether each statement of ``body`` (run at import) is read."""
        return all(self.statement(s) for s in body)

    def statement(self, node: object) -> bool:  # noqa: C901
        """Whether the statement ``node`` (run at import) has an allowed shape."""
        import ast

        if isinstance(node, (ast.Import, ast.ImportFrom)):
            return all((a.asname or a.name.split(".")[0]) not in (
                self.name, "__getattr__", *self.hooks) for a in node.names)
        if isinstance(node, (ast.Global, ast.Nonlocal)):  # (in a body read: `global x`)
            return self.depth < 0 and not {self.name, "__getattr__"} & set(node.names)
        if isinstance(node, ast.Return):
            return self.depth < 0 and (node.value is None or self.expression(node.value))
        if isinstance(node, ast.Expr):
            return self.expression(node.value)
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            own = isinstance(node.value, ast.Name) and node.value.id in self.own
            return (id(node) in self.read or all(self.target(t) for t in targets)) and (
                node.value is None or own or self.expression(node.value)) and (
                not isinstance(node, ast.AnnAssign) or self.annotation(node.annotation))
        if isinstance(node, ast.Delete):
            return all(self.target(t) for t in node.targets)
        if isinstance(node, (ast.If, ast.While)):
            return self.expression(node.test) and self.statements(node.body) and \
                self.statements(node.orelse)
        if isinstance(node, ast.For):
            return self.target(node.target) and self.expression(node.iter) and \
                self.statements(node.body) and self.statements(node.orelse)
        if isinstance(node, ast.Try):
            return self.statements(node.body) and self.statements(node.orelse) and \
                self.statements(node.finalbody) and all(
                    (h.type is None or self.expression(h.type)) and h.name != self.name and
                    self.statements(h.body) for h in node.handlers)
        if isinstance(node, ast.With):
            return all(self.expression(i.context_expr) and (
                i.optional_vars is None or self.target(i.optional_vars)) for i in node.items) \
                and self.statements(node.body)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args
            return node.name not in (self.name, "__getattr__", "__dir__") and (
                node.name not in self.hooks or self.body(node.name)) and all(
                self.decorator(d) for d in node.decorator_list) and "classmethod" not in [
                self._dotted(d) for d in node.decorator_list[:-1]] and all(  # (descriptors)
                self.expression(d) for d in (*arguments.defaults, *arguments.kw_defaults)
                if d is not None) and all(
                self.annotation(a.annotation) for a in (
                    *arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                    *(x for x in (arguments.vararg, arguments.kwarg) if x))
                if a.annotation is not None) and (
                node.returns is None or self.annotation(node.returns))
        if isinstance(node, ast.ClassDef):
            enum = any(self._dotted(b).startswith("enum.") for b in node.bases)
            return node.name != self.name and not node.keywords and all(
                self.base(b.value if isinstance(b, ast.Subscript) else b) for b in node.bases) \
                and all(self.decorator(d) for d in node.decorator_list) and not any(
                    binds(n, h) for n in node.body for h in CLASS_HOOKS) and not (enum and any(
                        getattr(n, "name", "_")[:1] == "_" for n in node.body if isinstance(
                            n, (ast.FunctionDef, ast.AsyncFunctionDef)))) and \
                self.statements(node.body)  # (an enum's `__new__`, `__init__`… run per member)
        if isinstance(node, (ast.Assert, ast.Raise)):
            return all(self.expression(e) for e in ast.iter_child_nodes(node))
        return isinstance(node, (ast.Pass, ast.Break, ast.Continue))

    def annotation(self, node: object) -> bool:
        """Whether the annotation ``node`` is allowed: not evaluated under ``from __future__
        import annotations``; else an allowed expression in which the module's own classes
        may be named (a type's parameter: typing's subscript calls none of its code)."""
        import ast

        if self.postponed:
            return True
        own, self.own = self.own, set()
        try:  # (never an attribute of one: a descriptor's code, s59-preview P-EXACT-DESCRIPTOR)
            return self.expression(node) and not any(
                isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and
                n.value.id in own for n in ast.walk(node))  # type: ignore[arg-type]
        finally:
            self.own = own

    def target(self, node: object) -> bool:
        """Whether an assignment's target ``node`` binds nothing of ``name`` nor reaches a
        module's namespace."""
        import ast

        if isinstance(node, ast.Name):
            return node.id not in (self.name, "__getattr__", "__class__", "__dict__",
                                   *self.hooks)
        if isinstance(node, (ast.Tuple, ast.List)):
            return all(self.target(e) for e in node.elts)
        if isinstance(node, ast.Starred):
            return self.target(node.value)
        if isinstance(node, (ast.Attribute, ast.Subscript)) and self.strings:
            return False  # (site code stores names only: `os.environb[…]`, E-SITE-ENVIRONB)
        if isinstance(node, ast.Attribute):
            return node.attr != self.name and node.attr not in self.kept and not \
                node.attr.startswith("__") and self.expression(node.value)
        if isinstance(node, ast.Subscript):
            return self.expression(node.value) and self.expression(node.slice)
        return False

    def base(self, node: object) -> bool:  # (listed: `pytest.*`, pytest's own classes)
        """Whether the class base ``node`` is one of ``bases``, a builtin exception's class,
        or a class of the module's defining no ``__init_subclass__`` (read by these rules:
        no metaclass)."""
        import ast

        if isinstance(node, ast.Name) and node.id in self.classes:
            return self.classes[node.id]
        dotted = self._dotted(node)
        return listed(dotted, self.bases) or exception(dotted)

    def decorator(self, node: object) -> bool:
        """Whether the decorator ``node`` is one of ``decorators`` (called with allowed
        arguments) or a property's ``setter``/``getter``/``deleter``."""
        import ast

        if isinstance(node, ast.Call):  # (a hook of another name: `specname=`)
            return self.decorator(node.func) and self.arguments(node) and not any(
                k.arg == "specname" for k in node.keywords)
        if isinstance(node, ast.Attribute) and node.attr in ("setter", "getter", "deleter") \
                and isinstance(node.value, ast.Name):
            return True
        return listed(self._dotted(node), self.decorators)

    def arguments(self, node: object) -> bool:
        """Whether the call ``node``'s arguments are allowed expressions."""
        return all(self.expression(a) for a in node.args) and all(  # type: ignore[attr-defined]
            k.arg != self.name and self.expression(k.value)
            for k in node.keywords)  # type: ignore[attr-defined]

    def expression(self, node: object) -> bool:  # noqa: C901
        """Whether the expression ``node`` (run at import) is allowed."""
        import ast

        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Name):
            last = self.imported.get(node.id, "").rpartition(".")[2]
            return node.id not in self.own and node.id != self.name and \
                last not in self.kept and not last.startswith(
                "_") and (node.id in self.bound or node.id in BUILTINS or exception(node.id))
        if isinstance(node, ast.Attribute):  # (`_x` a value: called only as listed)
            return not reaching(node.attr) and node.attr != self.name and \
                node.attr not in self.kept and self.expression(node.value)
        if isinstance(node, ast.Constant):
            return not (isinstance(node.value, str) and node.value == self.name)
        if isinstance(node, ast.Lambda):
            return all(self.expression(d) for d in (*node.args.defaults,
                                                     *node.args.kw_defaults) if d) and \
                self.expression(node.body)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            return all(self.target(g.target) and self.expression(g.iter) and all(
                self.expression(i) for i in g.ifs) for g in node.generators) and all(
                self.expression(e) for e in ((node.key, node.value) if isinstance(
                    node, ast.DictComp) else (node.elt,)))
        if isinstance(node, ast.NamedExpr):
            return self.target(node.target) and self.expression(node.value)
        if isinstance(node, ast.Dict):
            return all(self.expression(e) for e in (*node.keys, *node.values) if e is not None)
        if isinstance(node, ast.keyword):
            return False
        if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.BoolOp, ast.BinOp, ast.UnaryOp,
                             ast.Compare, ast.IfExp, ast.Subscript, ast.Slice, ast.Starred,
                             ast.JoinedStr, ast.FormattedValue)):
            return all(self.expression(c) for c in ast.iter_child_nodes(node)
                       if not isinstance(c, (ast.expr_context, ast.operator, ast.unaryop,
                                             ast.cmpop, ast.boolop)))
        return False

    def call(self, node: object) -> bool:
        """Whether the call ``node`` is allowed (see the module's text)."""
        import ast

        assert isinstance(node, ast.Call)
        func = node.func
        if listed(self._dotted(func), self.keeping):  # (a conftest's function kept)
            own, self.own = self.own, self.own - {n for n, d in self.defs.items() if d}
            try:
                return self.arguments(node)
            finally:
                self.own = own
        if not self.arguments(node):
            return False
        if isinstance(func, ast.Name) and func.id not in self.bound and self.strings and \
                func.id in STRINGS:
            return self.string(node)
        if isinstance(func, ast.Name) and func.id not in self.bound and func.id in BUILTINS:
            keys = {k.arg: k.value for k in node.keywords}
            if func.id == "getattr":  # (of a literal public name: `getattr(sys, 'frozen', 0)`)
                given = node.args[1] if len(node.args) > 1 else None
                return isinstance(given, ast.Constant) and isinstance(given.value, str) and \
                    not given.value.startswith("_") and given.value != self.name and \
                    given.value not in self.kept and not reaching(given.value)
            if func.id == "type":
                return len(node.args) == 1 and not node.keywords
            return func.id not in ("sorted", "min", "max") or "key" not in keys or isinstance(
                keys["key"], ast.Lambda)
        if isinstance(func, ast.Name) and func.id not in self.bound and exception(func.id):
            return True
        dotted = self._dotted(func)
        if dotted and (listed(dotted, self.calls) or dotted.split(".")[0] in self.foreign):
            self.called.update(() if listed(dotted, self.calls) else (dotted,))  # (a foreign
            return True  # function: its body read by the caller, s59-preview E-FOREIGN-BODY)
        if isinstance(func, ast.Name) and func.id in self.own:  # (its body read: run here)
            return self.body(func.id)
        return isinstance(func, ast.Attribute) and func.attr in self.methods and not (
            isinstance(func.value, ast.Name) and func.value.id in self.imported) and \
            self.expression(func.value)  # (a value's: a module's function, not)

    def string(self, node: object) -> bool:
        """Whether the ``exec``/``eval``/``compile`` or ``__import__`` call ``node`` is of
        one literal string whose code (for the three) is read by these rules, at most
        ``DEPTH`` deep (the sandbox's CA ``.pth`` line: ``exec("try:\\n import certifi…")``;
        s58-preview E-PTH-EXEC)."""
        import ast

        assert isinstance(node, ast.Call)
        given = node.args[0] if node.args else None
        if not isinstance(given, ast.Constant) or not isinstance(given.value, str) or \
                node.keywords or len(node.args) > (1 if node.func.id != "compile" else 3):  # type: ignore[attr-defined]
            return False
        if node.func.id == "__import__":  # type: ignore[attr-defined]
            return True
        try:
            tree = ast.parse(given.value)
        except (SyntaxError, ValueError):
            return False
        if self.depth >= DEPTH:
            return False
        reader = _Reader(tree, self.name, self.calls, self.decorators, self.bases, self.read,
                         self.foreign)
        reader.kept, reader.strings, reader.depth, reader.called = self.kept, True, \
            self.depth + 1, self.called
        reader.imported = {**{k: v for k, v in self.imported.items() if k not in reader.stored},
                           **reader.imported}  # (one namespace; a name it binds: not imported)
        reader.bound |= self.bound
        reader.own |= self.own
        return reader.statements(tree.body)

    def body(self, name: str) -> bool:
        """Whether the body of the module's function ``name`` (defined once) is read by
        these rules, as code run at import (a ``return``, a ``global`` of another name too)."""
        if name not in self.reading:
            self.reading[name] = True  # (a recursive call: read as the rest of it)
            node, depth = self.defs.get(name), self.depth
            self.depth = -1
            try:
                self.reading[name] = node is not None and self.statements(
                    node.body)  # type: ignore[attr-defined]
            finally:
                self.depth = depth
        return self.reading[name]

    def _dotted(self, node: object) -> str:
        """The dotted name an attribute chain ``node`` resolves to through the module's
        imports (``from hypothesis import settings``: ``settings.load_profile`` is
        ``hypothesis.settings.load_profile``), a builtin's own name; "" for any other."""
        import ast

        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if self.strings and isinstance(node, ast.Call) and isinstance(
                node.func, ast.Name) and node.func.id == "__import__" and self.string(node):
            return ".".join([node.args[0].value.split(".")[0],  # type: ignore[attr-defined]
                             *reversed(parts)])  # (`__import__('a.b')` is `a`)
        if not isinstance(node, ast.Name):
            return ""
        root = self.imported.get(node.id) or (node.id if node.id not in self.bound and (
            node.id in BUILTINS or exception(node.id)) else "")
        return ".".join([root, *reversed(parts)]) if root else ""
