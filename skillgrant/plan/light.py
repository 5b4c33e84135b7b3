"""The approved plan for the CLI's ``check``, ``apply`` and ``explain``, without pydantic for
the common plan (STYLE habit 10: a command imports only what it needs).

Importing pydantic and building the ``Plan`` model takes longer than the rest of a one-file
``skillgrant check``. The plan text is parsed exactly as ``Plan`` parses it
(``plan.source``); when the document has the common shape — one ``allowed-tools`` key holding a
string or a list of strings, and only ``x-``/``$schema`` keys besides — the entries go through
the same checks the model's validators run (``split_allowed_tools``, the entry limit, lone
surrogates, ``check_approved_entry``). Any other document, and every plan that fails a check,
is validated by the pydantic model itself, so every accepted plan and every error is exactly
``Plan``'s (tests/test_performance_paths.py compares the two on a table of plans).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..grants import split_allowed_tools
from .files import read_plan_file
from .keys import ALLOWED_SPELLINGS, check_approvable, ignored

if TYPE_CHECKING:
    from .model import ConstrainKwargs, Plan

class ApprovedPlan(NamedTuple):
    """What ``check`` and ``apply`` need of a ``Plan`` with approved entries only (no shell
    tools, no base directories): the same attributes, with the same values. ``warnings`` are
    the loader's, as on a ``Plan``."""

    allowed_tools: list[str]
    source: str | None = None
    warnings: tuple[str, ...] = ()

    def constrain_kwargs(self) -> ConstrainKwargs:
        return {"shell_tools": None, "base_dirs": None, "runtime": None}


def load_plan(path: str, kind: str = "auto") -> ApprovedPlan | Plan:
    """``Plan.load(path, kind=kind)``, without pydantic when the plan allows. Raises PlanError."""
    return plan_from_text(read_plan_file(path, kind), source=str(path), kind=kind)


def plan_from_text(text: str, *, source: str | None, kind: str = "auto") -> ApprovedPlan | Plan:
    """``Plan.from_text``, without pydantic when the plan allows. Raises PlanError."""
    from .source import parse_plan_text  # PyYAML: the call gate's JSON plans never need it

    parsed = parse_plan_text(text, source=source, kind=kind)
    light = approved_only(parsed.data, parsed.where.name)
    if light is not None:
        return light._replace(warnings=parsed.warnings) if parsed.warnings else light
    from .model import validate_plan

    return validate_plan(parsed.data, parsed.where, parsed.warnings)


def approved_only(data: object, source: str | None) -> ApprovedPlan | None:
    """The plan when it certainly validates as a Plan with approved entries only, else None."""
    if type(data) is not dict:
        return None
    spelled = [key for key in data if key in ALLOWED_SPELLINGS]
    if len(spelled) != 1:
        return None
    if any(key != spelled[0] and not ignored(key) for key in data):
        return None
    value = data[spelled[0]]
    if not (type(value) is str
            or (type(value) is list and all(type(item) is str for item in value))):
        return None
    entries = split_allowed_tools(value)
    try:
        check_approvable(entries)
    except ValueError:  # PlanError too: the model says it, located
        return None
    return ApprovedPlan(entries, source)
