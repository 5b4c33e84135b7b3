"""The call gate: each concrete tool call decided against the approved plan at run time
(``check_call``), and the ``skillgrant hook`` command that answers a runtime's PreToolUse hook.
"""

from __future__ import annotations

from ..lazy import exports

__all__ = ["CallVerdict", "check_call"]

__getattr__ = exports(__name__, {"CallVerdict": "verdict", "check_call": "call"})
