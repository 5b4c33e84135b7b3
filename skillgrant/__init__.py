"""skillgrant: prove that a skill's ``allowed-tools`` is no wider than the approved plan.

The public surface (semantics §10)::

    import skillgrant
    skillgrant.prove("Bash(gh pr list)", ["Bash(gh *)"]).status   # 'covered'
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing's import alone costs a hook more than its decision
if TYPE_CHECKING:
    from typing import Any

    from .errors import (
        AllowedToolsError,
        GrantSyntaxError,
        PlanError,
        SkillFileError,
        SkillgrantError,
    )
    from .gate.call import check_call
    from .gate.verdict import CallVerdict
    from .grants import Grant, parse_grant, split_allowed_tools
    from .plan.model import Plan
    from .prover import constrain, prove
    from .skillfile.builder import apply_to_text
    from .verdicts import Decision, Verdict

__version__ = "0.1.0"

# A library logs; the application decides where records go (semantics §5 audit records). The
# logger and its NullHandler are set up when logging is in use (log.py's ``loaded``: neither
# log.py nor lazy.py is imported by ``import skillgrant`` itself, which every hook's process
# does before its kept modules are served: session 61).
if "logging" in sys.modules:
    from .log import library_logger

    library_logger()

__all__ = [
    "AllowedToolsError",
    "CallVerdict",
    "Decision",
    "Grant",
    "GrantSyntaxError",
    "Plan",
    "PlanError",
    "SkillFileError",
    "SkillgrantError",
    "Verdict",
    "__version__",
    "apply_to_text",
    "check_call",
    "constrain",
    "parse_grant",
    "prove",
    "split_allowed_tools",
]


# Every name loads on first use (its module's import, once): Plan (pydantic), the SKILL.md
# rewriter, the prover and the grammar, and even the exceptions and verdicts, keeping `import
# skillgrant`, the CLI's start-up and `skillgrant hook` light (the hook loads only what deciding
# its call needs, and turns the garbage collector off before it: cli/entry.py).
_HOMES = {"AllowedToolsError": "errors", "GrantSyntaxError": "errors", "PlanError": "errors",
          "SkillFileError": "errors", "SkillgrantError": "errors", "Decision": "verdicts",
          "Verdict": "verdicts", "Plan": "plan.model", "apply_to_text": "skillfile.builder",
          "check_call": "gate.call", "CallVerdict": "gate.verdict", "Grant": "grants",
          "parse_grant": "grants", "split_allowed_tools": "grants", "constrain": "prover",
          "prove": "prover"}


def __getattr__(name: str) -> Any:
    """``lazy.exports``' lookup of the names above, and of the submodules ``import
    skillgrant`` made attributes before they were lazy."""
    from .lazy import exports

    return exports(__name__, _HOMES, modules=("errors", "verdicts"))(name)
