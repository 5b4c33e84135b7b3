"""Names a package exports from its modules, imported on first use (PEP 562); regular
expressions compiled on first use (``compile_on_use``).

``import skillgrant`` and the CLI's start-up stay light: the pydantic plan, the SKILL.md
builder and the review stage load only when something asks for one of their names.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # neither typing nor collections is loaded for these annotations
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Mapping
    from typing import Any, AnyStr


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


def import_module(name: str) -> Any:
    """``importlib.import_module`` of an absolute ``name``: importlib's package (and the
    warnings module it loads) stays unloaded in a hook's process."""
    __import__(name)
    return sys.modules[name]


#: The methods a compiled pattern answers, set on a pattern compiled on use once it is.
_PATTERN_METHODS = ("match", "fullmatch", "search", "sub", "subn", "split", "findall",
                    "finditer", "scanner")


class _OnUse:
    """A regular expression compiled the first time any of its attributes is asked for; then
    the compiled pattern's methods are its own attributes, so a later call costs what the
    compiled pattern's does."""

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        if name == "_source":  # not yet set (a copy being made): nothing to compile
            raise AttributeError(name)
        import re

        pattern, flags = self._source
        compiled: re.Pattern[Any] = re.compile(pattern, flags)
        for method in _PATTERN_METHODS:
            setattr(self, method, getattr(compiled, method))  # found directly from now on
        for field in ("pattern", "flags", "groups", "groupindex"):
            setattr(self, field, getattr(compiled, field))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"compile_on_use({self._source[0]!r}, {self._source[1]})"


def compile_on_use(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """``re.compile(pattern, flags)``, done the first time the pattern is used: for a
    module-level pattern that most runs never use (``skillgrant hook`` starts on every tool
    call, and compiling costs it more than matching). Nothing a failure's answer uses is
    compiled on use: a pattern that cannot compile raises where it is first used."""
    return _OnUse(pattern, flags)  # type: ignore[return-value]  # it answers as one
