"""What ``lint`` and ``diff`` read: a plan in any semantics §7 form (plan YAML/JSON, an approved
SKILL.md, a settings.json), from a file, standard input (``-``) or git (``REV:path``), as raw
entries with the file line and column of each.

Why not ``Plan.load``: the loader refuses a plan with an invalid entry (semantics §5), but lint must
report such an entry as a finding (SGL001) and diff as an escalation. So the text goes through
the loader's own parser (``plan.source.parse_plan_text``: the same kinds, structure checks and
node positions, no entry checks) for the raw entries, *and* through the loader itself
(``Plan.from_text``). The loader's refusal stands (exit 2) unless it is about the entries: an
entry it names, or too many entries. Then the rest of the plan (shell-tools, base-dirs) is
validated on its own, so a second problem cannot hide behind the entry's.

Loaded only inside the commands: it imports the plan model (pydantic) and PyYAML.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from pydantic import ValidationError
from yaml.nodes import MappingNode, Node, ScalarNode

from ..errors import AllowedToolsError, PlanError
from ..grants import split_allowed_tools
from ..limits import MAX_FILE_BYTES
from ..plan.keys import ALLOWED_SPELLINGS
from ..plan.model import Plan, PlanKind
from ..plan.source import Parsed, PlanSource, is_skill, parse_plan_text, plan_text
from ..reports.ci import Location, artifact_path
from ..skillfile.bounded import read_bounded
from ..skillfile.yamlspan import line_column
from .lint import read_revision

STDIN: Final = "-"
_KINDS: Final[dict[str, PlanKind]] = {"auto": "auto", "plan": "plan", "skill": "skill",
                                      "settings": "settings"}


@dataclass(frozen=True)
class Source:
    """One plan as lint or diff read it.

    ``name`` is shown to people (the path, ``REV:path`` or ``<stdin>``); ``artifact`` is the
    repository-relative POSIX path for github and sarif. ``entries`` are split as semantics §2,
    whether valid or not, with one location each (``None`` when unknown); ``value`` is where
    the allowed-tools value is. ``plan`` is the loader's Plan, or None when it refused the
    entries (``refusal``); ``shell_tools`` are the declared shell-tool names either way.
    """

    name: str
    artifact: str
    entries: tuple[str, ...]
    locations: tuple[Location | None, ...]
    value: Location | None
    plan: Plan | None
    refusal: PlanError | None
    shell_tools: tuple[str, ...] = ()
    #: The text read: its lines hold the comments that suppress lint rules.
    text: str = ""

    def at(self, index: int | None) -> Location | None:
        """The location of entry ``index``; the value's for a finding about the whole list."""
        if index is None or index >= len(self.locations):
            return self.value
        return self.locations[index] or self.value

    def approved(self) -> Plan:
        """The loader's Plan; raises its PlanError when it refused the plan (semantics §5)."""
        if self.plan is None:
            raise self.refusal or PlanError("the plan is invalid", source=self.name)
        return self.plan


def revision_of(spec: str) -> str | None:
    """``spec`` when it names a file in git (``REV:path``), else None (a path, or ``-``).

    An existing file wins, so a path holding a colon is read as a path. So is a text whose part
    after the first colon is empty or absolute (``C:\\x``, ``:/x``: not a blob in git).
    ``:path`` (the index, as git reads it) is a revision.
    """
    if spec == STDIN or os.path.exists(spec):
        return None
    _rev, colon, path = spec.partition(":")
    if not colon or not path or path[0] in "/\\":
        return None
    return spec


def read_source(spec: str, kind: str, root: Path) -> Source:
    """Read ``spec`` (a path, ``-`` or ``REV:path``) as a plan of ``kind`` (auto, plan, skill,
    settings). Raises PlanError for a plan the loader refuses for anything but its entries,
    RevisionError when git cannot give the file."""
    revision = revision_of(spec)
    if revision is not None:
        path = spec.partition(":")[2]
        name, text = spec, read_revision(spec)
        if not is_skill(name, kind):
            text = text.removeprefix("\ufeff")
        # git reads the path from the repository root unless it starts with ./ or ../
        where = artifact_path(Path(path), root) if path.startswith(("./", "../")) else path
    elif spec == STDIN:
        name = where = "<stdin>"
        text = plan_text(_read_stdin(), name, kind)
        try:
            return _source(text, name, where, kind)
        except PlanError as e:
            raise skill_hint(e, text, kind, "--kind") from e
    else:
        name, where = spec, artifact_path(Path(spec), root)
        text = plan_text(_read_file(spec), name, kind, what="the plan file")
    return _source(text, name, where, kind)


def _read_file(path: str) -> bytes:
    try:
        return read_bounded(path)
    except OSError as e:
        raise PlanError(f"cannot read the plan: {e.strerror or e}", source=path) from e


def skill_hint(error: PlanError, text: str, kind: str, option: str) -> PlanError:
    """``error`` with a hint when the plan on standard input was read as a plan file but looks
    like a SKILL.md (it opens with a frontmatter fence): ``option`` says how to read it so."""
    if kind != "auto" or not text.removeprefix("\ufeff").startswith("---"):
        return error
    return PlanError(f"{error.message} (standard input opens with '---', as a SKILL.md does: "
                     f"to read it as an approved SKILL.md, give {option} skill)",
                     source=error.source, line=error.line, column=error.column,
                     entry=error.entry)


def read_stdin_plan(kind: str) -> str:
    """A plan read from standard input, bounded by MAX_FILE_BYTES and decoded. Raises PlanError."""
    return plan_text(_read_stdin(), "<stdin>", kind)


def _read_stdin() -> bytes:
    stream = sys.stdin
    if stream is None:
        raise PlanError("there is no standard input", source="<stdin>")
    if hasattr(stream, "buffer"):
        data: bytes = stream.buffer.read(MAX_FILE_BYTES + 1)
        return data
    return str(stream.read(MAX_FILE_BYTES + 1)).encode("utf-8")


def _source(text: str, name: str, where: str, kind: str) -> Source:
    parsed = parse_plan_text(text, source=name, kind=kind)
    try:
        plan: Plan | None = Plan.from_text(text, source=name, kind=_KINDS[kind])
        refusal = None
    except PlanError as e:
        plan, refusal = None, e
    data = parsed.data if isinstance(parsed.data, Mapping) else {}
    key = next((k for k in ALLOWED_SPELLINGS if k in data), None)
    if refusal is not None and (key is None or not _about_entries(refusal)):
        raise refusal
    try:
        entries = tuple(split_allowed_tools(data[key] if key is not None else []))
    except AllowedToolsError:
        if refusal is not None:
            raise refusal from None
        raise
    shell = _check_rest(parsed, data, key) if plan is None else tuple(plan.shell_tools)
    locations, value = _locate(parsed.where, len(entries))
    return Source(name, where, entries, locations, value, plan, refusal, shell, text)


def _about_entries(refusal: PlanError) -> bool:
    # An entry check names its entry (prover.check_approved_entry); the count limit names the
    # limit. Every other refusal (a key, a type, shell-tools, base-dirs) is not about them.
    return refusal.entry is not None or "(MAX_ENTRIES_PER_VALUE)" in refusal.message


def _check_rest(parsed: Parsed, data: Mapping[object, object], key: str | None) -> tuple[str, ...]:
    """Validate the plan without its entries; the declared shell-tool names."""
    rest = {k: ([] if k == key else v) for k, v in data.items()}
    try:
        plan = Plan.model_validate(rest)
    except ValidationError as e:
        detail = e.errors(include_url=False)[0]
        loc = tuple(detail["loc"])
        line, column = parsed.where.position(loc)
        path = ".".join(str(part) for part in loc)
        raise PlanError(f"{path}: {detail['msg']}" if path else str(detail["msg"]),
                        source=parsed.where.name, line=line, column=column) from e
    return tuple(plan.shell_tools)


def _locate(where: PlanSource, count: int) -> tuple[tuple[Location | None, ...], Location | None]:
    """The location of each entry (its first character as written), and the value's."""
    node: Node | None = where.root
    for part in where.allowed_path:
        node = _child(node, part)
    if node is None:
        return (None,) * count, None
    value = Location(*line_column(where.text, where.base + node.start_mark.index))
    positions = where.entry_positions()
    if positions is None or len(positions) != count:
        return (value,) * count, value
    return tuple(Location(*p) for p in positions), value


def _child(node: Node | None, part: str | int) -> Node | None:
    if isinstance(node, MappingNode):
        for key, value in node.value:
            if isinstance(key, ScalarNode) and key.value == str(part):
                child: Node = value
                return child
    return None
