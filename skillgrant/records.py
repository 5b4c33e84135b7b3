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

TYPE_CHECKING = False
if TYPE_CHECKING:
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
            made = collections.namedtuple(name, fields, defaults=[namespace[f] for f in given],
                                          module=str(namespace["__module__"]))
            made.__annotations__ = fields
            for key, value in namespace.items():
                if key in _PROHIBITED:
                    raise AttributeError(f"Cannot overwrite NamedTuple attribute {key}")
                if key not in _SPECIAL and key not in fields:
                    setattr(made, key, value)
            return made

    class NamedTuple(metaclass=_Maker):
        """The base a record's class statement names (``class Name(NamedTuple)``)."""
