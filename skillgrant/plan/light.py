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

PyYAML's import alone costs a hook a third of its budget (issue 29), and the plans people write
and ``apply --enforce`` points at are YAML of one plain shape. So ``plain_entries`` reads that
shape line by line and declines (None) on anything else, which then takes PyYAML as before:
only PyYAML's reading of such a text is ever used (tests/test_plain_plan.py checks the branch
against PyYAML on generated texts).
"""

from __future__ import annotations

from ..errors import AllowedToolsError
from ..grants import split_allowed_tools
from ..limits import MAX_PLAN_CHARS
from ..records import NamedTuple
from .files import is_skill, read_plan_file
from .keys import ALLOWED_SPELLINGS, check_approvable, ignored

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
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
    if kind in ("auto", "plan") and not is_skill(source, kind):
        plain = plain_entries(text, source)
        light = None if plain is None else approved_only({"allowed-tools": plain}, source)
        if light is not None:
            return light  # else PyYAML and the model say what is wrong, located
    from .source import parse_plan_text  # PyYAML: a plain or JSON plan never needs it

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
    try:
        entries = split_allowed_tools(value)
        check_approvable(entries)
    except (ValueError, AllowedToolsError):  # PlanError too: the model says it, located
        return None
    return ApprovedPlan(entries, source)


#: The characters a plain plan is written in: printable ASCII and line feeds (no tab, CR, BOM,
#: NEL, U+2028/2029 nor anything else YAML may read as a break, a space or an indicator).
_PLAIN_CHARS = frozenset(map(chr, range(0x20, 0x7F))) | {"\n"}
#: Plain scalars YAML 1.1 (PyYAML's resolver) reads as a bool or null, in any case.
_NOT_STRINGS = frozenset({"yes", "no", "true", "false", "on", "off", "null", "y", "n"})


def plain_entries(text: object, source: str | None) -> list[str] | None:
    """The items of ``text``'s one ``allowed-tools`` list, exactly as PyYAML reads them, when
    ``text`` is a plan of the plainest shape; else None (PyYAML decides). That shape: lines of
    printable ASCII, each empty, a comment starting at column 0, the line ``allowed-tools:``
    once, or after it an item ``- ENTRY`` indented as every other item, ENTRY starting with a
    letter and holding no ``: ``, `` #`` nor a final ``:``, and not a YAML bool or null. Each
    item is then a plain scalar ending at its line (trailing spaces dropped), a string."""
    if (type(text) is not str or len(text) > MAX_PLAN_CHARS or not _PLAIN_CHARS.issuperset(text)
            or (source or "").lower().endswith(".json")):
        return None
    entries: list[str] = []
    indent: int | None = None
    header = False
    for line in text.split("\n"):
        if not line or line[0] == "#":
            continue
        if line == "allowed-tools:" and not header:
            header = True
            continue
        item = line.lstrip(" ")
        depth = len(line) - len(item)
        entry = item[2:].rstrip(" ")
        if (not header or not item.startswith("- ") or not entry[:1].isalpha()
                or depth != (depth if indent is None else indent) or ": " in entry
                or " #" in entry or entry.endswith(":") or entry.lower() in _NOT_STRINGS):
            return None
        indent = depth
        entries.append(entry)
    return entries or None
