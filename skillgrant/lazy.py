"""Names a package exports from its modules, imported on first use (PEP 562).

``import skillgrant`` and the CLI's start-up stay light: the pydantic plan, the SKILL.md
builder and the review stage load only when something asks for one of their names.
"""

from __future__ import annotations

import sys
from importlib import import_module

TYPE_CHECKING = False  # neither typing nor collections is loaded for these annotations
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


def exports(package: str, homes: Mapping[str, str],
            modules: tuple[str, ...] = ()) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that finds each name of ``homes`` in the
    submodule it maps to (``{"Plan": "plan.model"}``), each of ``modules`` as its submodule of
    that name (one the package once imported eagerly, reached as ``package.errors``), and
    raises AttributeError otherwise. A name found is set on the package, so the next lookup
    does not come here."""

    def attribute(name: str) -> Any:
        if name in modules:
            return import_module(f"{package}.{name}")  # the import sets it on the package
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{home}"), name)
        setattr(sys.modules[package], name, value)  # found directly from now on
        return value

    return attribute
