"""The approved plan (semantics §7).

    source     plan text (YAML, JSON, an approved SKILL.md, settings.json) → data plus nodes
    model      the pydantic ``Plan`` and its loaders: what the library and ``lint`` use
    light      the same plan without pydantic, for ``check``/``apply``/``explain``

Names load on first use: ``check`` reads most plans without importing pydantic.
"""

from __future__ import annotations

from ..lazy import exports

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from .model import BaseDirs as BaseDirs
    from .model import Plan as Plan
    from .model import ShellTool as ShellTool

_HOME = dict.fromkeys(("BaseDirs", "Plan", "ShellTool"), "model")
__all__ = sorted(_HOME)
__getattr__ = exports(__name__, _HOME)
