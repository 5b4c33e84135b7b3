"""A plan file's bytes as text, and the JSON checks that need no YAML: the part of reading a
plan that the call gate's hook shares with ``plan.source`` without importing PyYAML."""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..errors import PlanError
from ..limits import MAX_FILE_BYTES, MAX_NESTING_DEPTH
from ..skillfile.bounded import read_bounded


def read_plan_file(path: str | os.PathLike[str], kind: str) -> str:
    """The text of a plan file, refusing one over MAX_FILE_BYTES without reading it whole.
    Raises PlanError."""
    name = str(path)
    try:
        data = read_bounded(path)
    except OSError as e:
        raise PlanError(f"cannot read the plan: {e.strerror or e}", source=name) from e
    return plan_text(data, name, kind, what="the plan file")


def plan_text(data: bytes, name: str, kind: str, *, what: str = "the plan") -> str:
    """A plan's bytes as text: refused over MAX_FILE_BYTES, decoded as UTF-8 (a BOM is allowed
    in a plan or settings file; a SKILL.md keeps its BOM for the frontmatter reader). Raises
    PlanError naming ``what`` was too large, or the line of the first byte that is not UTF-8."""
    if len(data) > MAX_FILE_BYTES:
        raise PlanError(f"{what} is over {MAX_FILE_BYTES} bytes (MAX_FILE_BYTES)", source=name)
    # "utf-8-sig" for a plan, without loading its codec: a leading BOM is dropped
    skip = 0 if is_skill(name, kind) or not data.startswith(_BOM) else len(_BOM)
    try:
        return data[skip:].decode("utf-8") if skip else data.decode("utf-8")
    except UnicodeDecodeError as e:
        start = e.start + skip
        line = data.count(b"\n", 0, start) + 1
        raise PlanError(f"the plan is not UTF-8: byte 0x{data[start]:02X} cannot be "
                        "decoded", source=name, line=line) from e


_BOM = b"\xef\xbb\xbf"


def is_skill(name: str | None, kind: str) -> bool:
    """Whether a plan of this kind and name is an approved SKILL.md."""
    return kind == "skill" or (kind == "auto" and (name or "").lower().endswith(".md"))


class DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def no_duplicates(pairs: Sequence[tuple[str, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for key, value in pairs:
        if key in result:
            raise DuplicateKey(key)
        result[key] = value
    return result


def too_deep(text: str) -> int | None:
    """The offset of the first ``[`` or ``{`` (outside JSON strings) nested past
    MAX_NESTING_DEPTH, or None: checked before ``json.loads``, whose recursion would otherwise
    hit Python's stack limit on hostile input."""
    depth = 0
    inside = escaped = False
    for index, char in enumerate(text):
        if inside:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                inside = False
        elif char == '"':
            inside = True
        elif char in "[{":
            depth += 1
            if depth > MAX_NESTING_DEPTH:
                return index
        elif char in "]}":
            depth -= 1
    return None
