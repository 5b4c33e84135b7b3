"""What a module defines for the type checker only (``if TYPE_CHECKING:``: the modules a hook
loads keep ``typing`` out of its process, records.py), as the checker reads it."""

from __future__ import annotations

import ast
import inspect
from types import ModuleType


def checked_names(module: ModuleType) -> dict[str, object]:
    """The names ``module``'s top-level ``if TYPE_CHECKING:`` blocks define, run as the type
    checker reads them (``TYPE_CHECKING`` true), over the module's own names."""
    tree = ast.parse(inspect.getsource(module))
    blocks = [node for node in tree.body if isinstance(node, ast.If)
              and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"]
    namespace = dict(vars(module))
    for block in blocks:
        exec(compile(ast.Module(body=block.body, type_ignores=[]), module.__file__ or "?",
                     "exec"), namespace)
    return namespace
