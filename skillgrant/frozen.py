"""A quicker ``__init__`` for the frozen dataclasses a batch makes for every file.

A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__``, one call
per field: a SkillDoc or an AllowedTools costs more to make than most of the reading it records
(measured in instructions, docs/performance.md). ``quick_init`` gives the class an ``__init__``
with the same signature that sets the instance's ``__dict__`` in one step. The class stays the
dataclass it was (fields, equality, hashing, ``repr``, ``replace``, and the frozen
``__setattr__`` that refuses a change). tests/test_fast_equivalence.py makes every such class
both ways and compares the instances.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final, TypeVar

T = TypeVar("T")

#: The ``__init__`` the dataclass generated, kept for the test that compares the two.
ORIGINAL_INIT: Final = "_dataclass_init"


def quick_init(cls: type[T]) -> type[T]:
    """``cls``, a frozen dataclass without ``__post_init__``, keyword-only fields, default
    factories or fields left out of ``__init__``, with an ``__init__`` that fills the instance's
    ``__dict__`` at once. Raises TypeError for any other class."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} is not a frozen dataclass without __post_init__")
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    defaults: dict[str, Any] = {}
    for field in fields:
        if (not field.init or field.kw_only
                or field.default_factory is not dataclasses.MISSING):
            raise TypeError(f"{cls.__name__}.{field.name}: a field quick_init cannot set")
        if field.default is not dataclasses.MISSING:
            defaults[field.name] = field.default
    # The names are the fields' own: identifiers, checked by dataclasses.
    names = [field.name for field in fields]
    signature = ", ".join(f"{name}=_defaults[{name!r}]" if name in defaults else name
                          for name in names)
    members = ", ".join(f"{name!r}: {name}" for name in names)
    source = (f"def __init__(self, {signature}):\n"
              f"    _set(self, '__dict__', {{{members}}})\n")
    scope: dict[str, Any] = {"_defaults": defaults, "_set": object.__setattr__}
    exec(source, scope)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    setattr(cls, ORIGINAL_INIT, cls.__init__)
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
