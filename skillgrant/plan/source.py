"""Plan text → plain data plus the YAML nodes that locate every value in it (semantics §7).

A plan file is YAML or JSON, an approved SKILL.md or a Claude Code settings.json. This module
parses each into the mapping the Plan model validates, and keeps the composed nodes so that a
problem found later (an invalid entry, a wrong type) is reported at file:line:column.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import NamedTuple

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..errors import PlanError, SkillFileError
from ..grants import split_allowed_tools
from ..limits import MAX_NESTING_DEPTH, MAX_PLAN_CHARS
from ..log import library_logger, loaded
from ..skillfile.dashtab import compose_dash_tabs
from ..skillfile.spans import read_skill
from ..skillfile.yamlspan import LOADER, YamlProblem, compose, entry_starts, line_column
from .files import DuplicateKey, is_skill, no_duplicates, plan_text, read_plan_file, too_deep
from .keys import ALLOWED_SPELLINGS, SPELLINGS

__all__ = ["MAX_PLAN_CHARS", "Parsed", "PlanSource", "is_skill", "parse_plan_text", "plan_text",
           "read_plan_file"]

Path_ = tuple[str | int, ...]
#: The spelling a plan is warned about: the runtime reads no such key in a SKILL.md, and a user
#: who copies it from a plan into a skill learns the wrong one (docs/decisions.md, issue 31).
SNAKE_ALLOWED = "allowed_tools"


@dataclass(frozen=True)
class PlanSource:
    """Where a plan's data came from: the text and its composed nodes (``root``), the offset
    of the YAML inside the text (``base``: a SKILL.md's frontmatter), and the path of the
    approved list inside the document (``allowed_path``)."""

    name: str | None
    text: str
    root: Node | None
    base: int = 0
    allowed_path: Path_ = ("allowed-tools",)

    def spelling(self, key: str | int) -> str | int:
        """The spelling of a plan key as the file writes it (``allowedTools``...)."""
        if isinstance(self.root, MappingNode) and isinstance(key, str):
            given = {k.value for k, _ in self.root.value if isinstance(k, ScalarNode)}
            for group in SPELLINGS.values():
                if key in group:
                    return next((k for k in group if k in given), key)
        return key

    def position(self, path: Path_, entry: str | None = None, *,
                 key: bool = False) -> tuple[int | None, int | None]:
        """1-based line and column of the node at ``path`` (of its key with ``key``), or of
        ``entry`` inside it; the deepest node reached when the path runs out."""
        node = self.root
        if node is None:
            return None, None
        offset = node.start_mark.index
        for index, part in enumerate(path):
            child = _child(node, part, key=key and index == len(path) - 1)
            if child is None:
                break
            node = child
            offset = node.start_mark.index
        else:
            if entry is not None:
                offset = self._entry_offset(node, entry)
        return line_column(self.text, self.base + offset)

    def entry_positions(self) -> tuple[tuple[int, int], ...] | None:
        """1-based line and column of the first character of each approved entry, in order
        (as written: an escaped character is located at its backslash); None when the
        approved value is not in the text (a plan built in code, JSON PyYAML cannot read)."""
        node = self.root
        for part in self.allowed_path:
            node = None if node is None else _child(node, part, key=False)
        if node is None:
            return None
        return tuple(line_column(self.text, start) for item in _scalars(node)
                     for start in entry_starts(self.text, item, self.base))

    def continued_item(self, entry: str) -> str | None:
        """Why ``entry`` is there, when it is the ``-`` of a list item indented past the ones
        above it: YAML reads that line as more of the item above (``- Read`` under
        ``  - Bash(gh *)`` makes the one item ``Bash(gh *) - Read``). None otherwise."""
        node = self.root
        for part in self.allowed_path:
            node = None if node is None else _child(node, part, key=False)
        if not isinstance(node, SequenceNode):
            return None
        for item in _scalars(node):
            if item.style or entry not in split_allowed_tools(str(item.value)):
                continue
            start, end = self.base + item.start_mark.index, self.base + item.end_mark.index
            first, _ = line_column(self.text, start)
            for number, line in enumerate(self.text[start:end].split("\n")[1:], first + 1):
                if line.lstrip().startswith("-"):
                    return (f"line {number} is read as more of the list item on line {first} "
                            f"(one item, {item.value!r}), not as an item of its own: its '-' is "
                            "indented more than the '-' above it; indent every '- ' of the "
                            "list alike")
        return None

    def _entry_offset(self, node: Node, entry: str) -> int:
        for item in _scalars(node):
            entries = split_allowed_tools(str(item.value))
            if entry in entries:
                starts = entry_starts(self.text, item, self.base)
                return starts[entries.index(entry)] - self.base
        return node.start_mark.index


def _scalars(node: Node) -> list[ScalarNode]:
    """The scalars of a value that holds entries: itself, or the items of a list."""
    items = node.value if isinstance(node, SequenceNode) else [node]
    return [item for item in items if isinstance(item, ScalarNode)]


def _child(node: Node, part: str | int, *, key: bool) -> Node | None:
    if isinstance(node, MappingNode):
        for k, v in node.value:
            if isinstance(k, ScalarNode) and k.value == str(part):
                return k if key else v
    elif isinstance(node, SequenceNode) and isinstance(part, int) and part < len(node.value):
        item: Node = node.value[part]
        return item
    return None


class Parsed(NamedTuple):
    """The mapping to validate, where it came from, and what a user should be told about it
    (``warnings``: sentences without the file's name, each logged already)."""

    data: object
    where: PlanSource
    warnings: tuple[str, ...] = ()


def _warned(parsed: Parsed, *warnings: str) -> Parsed:
    """``parsed`` carrying ``warnings``, each logged on the ``skillgrant`` logger."""
    if loaded():  # once per plan at most: made whenever anything could listen
        for warning in warnings:
            library_logger().warning(
                "%s: %s", parsed.where.name or "<plan>", warning,
                extra={"skillgrant": {"file": parsed.where.name, "event": "plan-warning",
                                      "reason": warning}})
    return parsed._replace(warnings=parsed.warnings + warnings)


def parse_plan_text(text: str, *, source: str | None, kind: str) -> Parsed:
    """Parse a plan's text by kind ("auto", "plan", "skill", "settings"). Raises PlanError."""
    name = source or "<plan>"
    if not isinstance(text, str):
        raise PlanError(f"a plan text must be str, not {type(text).__name__} (decode the file "
                        "first)", source=source)
    if len(text) > MAX_PLAN_CHARS:
        raise PlanError(f"the plan is over {MAX_PLAN_CHARS} characters (MAX_PLAN_CHARS)",
                        source=source)
    if is_skill(name, kind):
        return _skill(text, source)
    data, root = _document(text, source, json_first=name.lower().endswith(".json"))
    where = PlanSource(source, text, root)
    if data is None:
        raise PlanError("the plan is empty: it needs an allowed-tools key", source=source)
    if not isinstance(data, dict):
        line, column = where.position(())
        raise PlanError(f"a plan must be a mapping of keys, not a {type(data).__name__}",
                        source=source, line=line, column=column)
    if kind == "settings" or (kind == "auto" and "permissions" in data
                              and not any(k in data for k in ALLOWED_SPELLINGS)):
        return _settings(data, where)
    spelled = next((k for k in ALLOWED_SPELLINGS if k in data), "allowed-tools")
    parsed = Parsed(data, PlanSource(source, text, root, allowed_path=(spelled,)))
    if spelled == SNAKE_ALLOWED:
        line, _ = parsed.where.position((spelled,), key=True)
        return _warned(parsed, f"{'' if line is None else f'line {line}: '}the key "
                       f"{SNAKE_ALLOWED} is read as allowed-tools, but write allowed-tools: a "
                       f"SKILL.md spelled {SNAKE_ALLOWED} grants nothing (the runtime reads "
                       "only allowed-tools)")
    return parsed


def _settings(data: dict[object, object], where: PlanSource) -> Parsed:
    permissions = data.get("permissions", {})
    if not isinstance(permissions, dict):
        line, column = where.position(("permissions",))
        raise PlanError("permissions must be a mapping", source=where.name, line=line,
                        column=column)
    allow = permissions.get("allow", [])
    if not isinstance(allow, list):
        line, column = where.position(("permissions", "allow"))
        raise PlanError("permissions.allow must be a list of strings", source=where.name,
                        line=line, column=column)
    parsed = Parsed({"allowed-tools": allow},
                    PlanSource(where.name, where.text, where.root,
                               allowed_path=("permissions", "allow")))
    if allow:
        return parsed
    # The plan is permissions.allow alone: deny and ask rules approve nothing.
    others = [f"permissions.{key}" for key in ("deny", "ask") if permissions.get(key)]
    return _warned(parsed, "the settings file approves nothing: " + (
        "it has only " + " and ".join(others) if others
        else "permissions.allow is missing or empty"))


def _skill(text: str, source: str | None) -> Parsed:
    try:
        doc = read_skill(text, source)
    except SkillFileError as e:
        raise PlanError(e.message, source=source, line=e.line, column=e.column) from e
    entries = [] if doc.allowed_tools is None else list(doc.allowed_tools.entries)
    # read_skill composed it already (a tab after a list item's dash as Bun reads it); a file
    # the runtime reads re-quoted has no nodes as written (its entries are then located by line
    # only).
    root = None if doc.retried else compose_dash_tabs(text[doc.yaml_start:doc.yaml_end])
    parsed = Parsed({"allowed-tools": entries}, PlanSource(source, text, root, doc.yaml_start))
    if "isallowed" in text or "\\" in text:  # (SG011: what the approved skill's
        # disallowed-tools removes; a key may be spelled with escapes: removed.removed_tools)
        from ..skillfile.removed import removed_tools

        removal = removed_tools(text)
        if removal is not None and removal.entries:
            removed = ", ".join(map(repr, removal.entries))
            parsed = _warned(parsed, f"{removal.key} removes {removed} while the skill runs "
                             "(Claude Code); the plan is its allowed-tools alone [SG011]")
    if doc.allowed_tools is not None:
        merged = doc.merged_note
        return parsed if merged is None else _warned(parsed, f"{merged} [SG010]")
    return _warned(parsed, "the approved SKILL.md approves nothing: it has no allowed-tools key")


def _document(text: str, source: str | None, *, json_first: bool) -> tuple[object, Node | None]:
    """Load JSON (for .json files, or text that parses as JSON) or YAML, with nodes."""
    if json_first or text.lstrip()[:1] in ("{", "["):
        loaded = _json_document(text, source, json_first=json_first)
        if loaded is not None:
            return loaded
    return _yaml_document(text, source)


def _json_document(text: str, source: str | None, *,
                   json_first: bool) -> tuple[object, Node | None] | None:
    """The JSON document and its nodes; None for text that is not JSON but may be YAML."""
    deep = too_deep(text)
    if deep is not None:
        deep_line, deep_column = line_column(text, deep)
        raise PlanError(f"nested more than {MAX_NESTING_DEPTH} levels deep "
                        "(MAX_NESTING_DEPTH)", source=source, line=deep_line,
                        column=deep_column)
    try:
        data = json.loads(text, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as e:
        if json_first:
            raise PlanError(f"invalid JSON: {e.msg}", source=source, line=e.lineno,
                            column=e.colno) from e
        return None
    except DuplicateKey as e:
        raise _duplicate(text, source, _nodes_or_none(text)) from e
    return data, _nodes_or_none(text)


def _yaml_document(text: str, source: str | None) -> tuple[object, Node | None]:
    try:
        root = compose(text)
    except YamlProblem as e:
        line, column = (None, None) if e.index is None else line_column(text, e.index)
        raise PlanError(e.message, source=source, line=line, column=column) from e
    if root is not None and _first_duplicate(root) is not None:
        raise _duplicate(text, source, root)
    try:
        loaded: object = yaml.load(text, Loader=LOADER)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, column = (None, None) if mark is None else line_column(text, mark.index)
        raise PlanError(f"invalid value: {e.problem}", source=source, line=line,
                        column=column) from e
    except (yaml.YAMLError, ValueError) as e:
        raise PlanError(f"invalid value: {e}", source=source) from e
    return loaded, root


def _nodes_or_none(text: str) -> Node | None:
    """JSON's nodes, for positions only; JSON that PyYAML cannot read just has none."""
    try:
        return compose(text)
    except YamlProblem:
        return None


def _first_duplicate(root: Node) -> tuple[ScalarNode, ScalarNode] | None:
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, MappingNode):
            seen: dict[object, ScalarNode] = {}
            for key, value in node.value:
                if isinstance(key, ScalarNode):
                    if (key.tag, key.value) in seen:
                        return seen[(key.tag, key.value)], key
                    seen[(key.tag, key.value)] = key
                stack.append(value)
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)
    return None


def _duplicate(text: str, source: str | None, root: Node | None) -> PlanError:
    found = None if root is None else _first_duplicate(root)
    if found is None:
        return PlanError("a key is given twice", source=source)
    first, second = found
    line, column = line_column(text, second.start_mark.index)
    first_line, _ = line_column(text, first.start_mark.index)
    return PlanError(f"duplicate key {second.value!r} (the first is on line {first_line})",
                     source=source, line=line, column=column)
