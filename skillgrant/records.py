"""``NamedTuple`` for the modules a hook's process loads, without importing ``typing``.

``skillgrant hook`` starts a process for every tool call, and ``typing``'s import alone is
about a sixteenth of its start (11.6 M of 191 M instructions under callgrind, session 44;
docs/performance.md). Those modules write ``class Name(NamedTuple)`` as everywhere, importing
``NamedTuple`` from here, and keep their other typing names for the type checker (``if
TYPE_CHECKING:``). The type checker sees ``typing.NamedTuple`` itself. At run time the class
statement makes what ``typing``'s does: ``collections.namedtuple`` of the annotated fields in
order, the values given as defaults (none may be missing after one given), and everything
else the body defines (methods, the docstring, class attributes) set on the class, the
namedtuple's own attributes refused. Left out, as nothing here reads them: the annotations
checked as types (they stay the strings ``from __future__ import annotations`` makes them),
``Generic`` bases. tests/test_records.py builds the same classes both ways and compares them;
tests/test_hook_start.py keeps ``typing`` out of a hook's process.
"""

from __future__ import annotations

import collections
import sys
from collections import _tuplegetter  # type: ignore[attr-defined]  # namedtuple's own
from keyword import iskeyword
from types import FunctionType

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import CodeType
    from typing import NamedTuple as NamedTuple
else:
    #: What the class body may not redefine (``typing``'s ``_prohibited``), and its own
    #: entries that are not set on the class (``typing``'s ``_special``).
    _PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields",
                             "_field_defaults", "_make", "_replace", "_asdict", "_source"})
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})

    class _Maker(type):
        """The metaclass whose ``__new__`` turns a class statement into a namedtuple."""

        def __new__(mcs, name: str, bases: tuple[type, ...],
                    namespace: dict[str, object]) -> type:
            if not bases:  # NamedTuple itself
                return super().__new__(mcs, name, bases, namespace)
            if bases != (NamedTuple,):
                raise TypeError("can only inherit from a NamedTuple type")
            fields = dict(namespace.get("__annotations__", {}))  # type: ignore[call-overload]
            given = [field for field in fields if field in namespace]
            if given != list(fields)[len(fields) - len(given):]:
                raise TypeError(f"{name}: a field without a default follows one with it")
            made = _record(name, tuple(fields), tuple(namespace[f] for f in given),
                           str(namespace["__module__"]))
            made.__annotations__ = fields
            for key, value in namespace.items():
                if key in _PROHIBITED:
                    raise AttributeError(f"Cannot overwrite NamedTuple attribute {key}")
                if key not in _SPECIAL and key not in fields:
                    setattr(made, key, value)
            return made

    class NamedTuple(metaclass=_Maker):
        """The base a record's class statement names (``class Name(NamedTuple)``)."""

    #: ``__new__``'s code by number of fields (``_record`` names its arguments), compiled
    #: with this module: a record of more fields compiles its own, as namedtuple does.
    _tuple_new = tuple.__new__
    _NEW_CODES: dict[int, CodeType] = dict(enumerate(made.__code__ for made in (
        lambda _cls, : _tuple_new(_cls, ()),
        lambda _cls, a,: _tuple_new(_cls, (a,)),
        lambda _cls, a, b: _tuple_new(_cls, (a, b)),
        lambda _cls, a, b, c: _tuple_new(_cls, (a, b, c)),
        lambda _cls, a, b, c, d: _tuple_new(_cls, (a, b, c, d)),
        lambda _cls, a, b, c, d, e: _tuple_new(_cls, (a, b, c, d, e)),
        lambda _cls, a, b, c, d, e, f: _tuple_new(_cls, (a, b, c, d, e, f)),
        lambda _cls, a, b, c, d, e, f, g: _tuple_new(_cls, (a, b, c, d, e, f, g)),
        lambda _cls, a, b, c, d, e, f, g, h: _tuple_new(_cls, (a, b, c, d, e, f, g, h)),
        lambda _cls, a, b, c, d, e, f, g, h, i: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i)),
        lambda _cls, a, b, c, d, e, f, g, h, i, j:
        _tuple_new(_cls, (a, b, c, d, e, f, g, h, i, j)),
    )))

    def _record(name: str, fields: tuple[str, ...], defaults: tuple[object, ...],
                module: str) -> type:
        """``collections.namedtuple(name, fields, defaults=defaults, module=module)``, made
        as namedtuple makes it (CPython 3.11's code) but for ``__new__``: namedtuple compiles
        one for each class (an ``eval``: more than half of a record's making, and a hook's
        process makes 33), here a code compiled with this module for each number of fields
        takes the fields' names (``CodeType.replace``). Names namedtuple refuses go to it, and
        it refuses them."""
        if not (name.isidentifier() and not iskeyword(name) and len(set(fields)) == len(fields)
                and all(f.isidentifier() and f[:1] != "_" and not iskeyword(f) for f in fields)):
            return collections.namedtuple(name, fields, defaults=defaults, module=module)
        name = sys.intern(name)
        fields = tuple(map(sys.intern, fields))
        listed = ", ".join(fields) + ("," if len(fields) == 1 else "")
        namespace: dict[str, object] = {
            "__doc__": f"{name}({listed})", "__slots__": (), "_fields": fields,
            "_field_defaults": dict(zip(fields[len(fields) - len(defaults):], defaults,
                                        strict=True)),
            "__new__": _new(name, fields, defaults, listed), "__match_args__": fields,
            **_methods(name, fields)}
        for index, field in enumerate(fields):
            namespace[field] = _tuplegetter(index, sys.intern(f"Alias for field number {index}"))
        made = type(name, (tuple,), namespace)
        made.__module__ = module
        return made

    def _new(name: str, fields: tuple[str, ...], defaults: tuple[object, ...],
             listed: str) -> FunctionType:
        """namedtuple's ``__new__`` for a record ``name`` of ``fields``."""
        code = _NEW_CODES.get(len(fields))
        if code is None:
            places = ", ".join(f"_{i}" for i in range(len(fields)))
            code = eval(f"lambda _cls, {places}: _tuple_new(_cls, ({places}))",
                        {"_tuple_new": _tuple_new, "__builtins__": {}}).__code__
        new = FunctionType(code.replace(co_varnames=("_cls", *fields)), {
            "_tuple_new": _tuple_new, "__builtins__": {}, "__name__": f"namedtuple_{name}"})
        new.__name__ = "__new__"
        new.__qualname__ = f"{name}.__new__"
        new.__doc__ = f"Create new instance of {name}({listed})"
        new.__defaults__ = defaults
        return new

    def _methods(name: str, fields: tuple[str, ...]) -> dict[str, object]:
        """namedtuple's other methods for a record ``name`` of ``fields``, as it writes them."""
        count = len(fields)
        shown = "(" + ", ".join(f"{field}=%r" for field in fields) + ")"

        def _make(cls, iterable):  # type: ignore[no-untyped-def]
            result = _tuple_new(cls, iterable)
            if len(result) != count:
                raise TypeError(f"Expected {count} arguments, got {len(result)}")
            return result

        def _replace(self, /, **kwds):  # type: ignore[no-untyped-def]
            result = self._make(map(kwds.pop, fields, self))
            if kwds:
                raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
            return result

        def __repr__(self):  # type: ignore[no-untyped-def]
            "Return a nicely formatted representation string"
            return self.__class__.__name__ + shown % self

        def _asdict(self):  # type: ignore[no-untyped-def]
            "Return a new dict which maps field names to their values."
            return dict(zip(self._fields, self, strict=False))

        def __getnewargs__(self):  # type: ignore[no-untyped-def]
            "Return self as a plain tuple.  Used by copy and pickle."
            return tuple(self)

        _make.__doc__ = f"Make a new {name} object from a sequence or iterable"
        _replace.__doc__ = f"Return a new {name} object replacing specified fields with new values"
        methods = (_make, _replace, __repr__, _asdict, __getnewargs__)
        for method in methods:
            method.__qualname__ = f"{name}.{method.__name__}"
        return {method.__name__: classmethod(method) if method is _make else method
                for method in methods}
