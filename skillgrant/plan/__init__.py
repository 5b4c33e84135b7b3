"""The approved plan (SPEC §7).

    source     plan text (YAML, JSON, an approved SKILL.md, settings.json) → data plus nodes
    model      the pydantic ``Plan`` and its loaders: what the library and ``lint`` use
    light      the same plan without pydantic, for ``check``/``apply``/``explain``

Names load on first use: ``check`` reads most plans without importing pydantic.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model import BaseDirs, Plan, ShellTool

_HOME = dict.fromkeys(("BaseDirs", "Plan", "ShellTool"), "model")
__all__ = [
    "BaseDirs",
    "Plan",
    "ShellTool",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOME[name]}"), name)
