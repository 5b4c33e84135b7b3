"""The approved plan (semantics §7): a pydantic model and its loaders.

A plan comes from a plan file (YAML or JSON), an approved SKILL.md (its ``allowed-tools``) or a
Claude Code ``settings.json`` (``permissions.allow``). Every error is a PlanError naming
file:line:column: positions come from PyYAML's node marks (JSON is located the same way) and
from ``json.JSONDecodeError``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any, Literal, TypedDict

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from .. import vocabulary
from ..errors import AllowedToolsError, PlanError
from ..grants import split_allowed_tools
from .keys import (
    BASE_DIRS,
    KEYS_SAID,
    KNOWN_KEYS,
    SPELLINGS,
    check_approvable,
    did_you_mean,
    ignored,
    suggestion,
)
from .source import PlanSource, parse_plan_text, read_plan_file

PlanKind = Literal["auto", "plan", "skill", "settings"]


class ConstrainKwargs(TypedDict):
    """The keyword arguments a Plan contributes to ``constrain`` and ``prove``."""

    shell_tools: Mapping[str, object] | None
    base_dirs: Mapping[str, str | None] | None
    runtime: list[str] | None


class _At(ValueError):
    """A validation problem below the field pydantic reports, at ``path`` inside it."""

    def __init__(self, message: str, *path: str | int, key: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.key = key


class ShellTool(BaseModel):
    """A tool with shell semantics under another name (semantics §3): ``command-argument`` names the
    argument that holds the command, ``workdir-argument`` the one (if any) that holds the
    directory it runs in (the call gate reads it as a leading ``cd``)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, populate_by_name=True)

    command_argument: str = Field(default="command", alias="command-argument", min_length=1)
    workdir_argument: str | None = Field(default=None, alias="workdir-argument", min_length=1)


class BaseDirs(BaseModel):
    """Absolute directories that anchor path rules (semantics §4.2); each is optional."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    cwd: str | None = None
    home: str | None = None
    root: str | None = None

    @field_validator("cwd", "home", "root")
    @classmethod
    def _absolute(cls, value: str | None) -> str | None:
        if value is not None and not (PurePosixPath(value).is_absolute()
                                      or PureWindowsPath(value).is_absolute()):
            raise ValueError(f"must be an absolute path, not {value!r}")
        return value


class Plan(BaseModel):
    """The approved ``allowed-tools`` entries (split per semantics §2, each a valid approved entry)
    with the plan's shell-tool aliases and base directories. ``source`` names where it came
    from; ``warnings`` what about it a user should hear (a settings.json with only ``deny``
    rules approves nothing...), each also logged by the loader. Build one with ``load``,
    ``from_text`` or ``from_entries``: they raise PlanError (constructing the model directly
    raises pydantic's ValidationError instead).

    >>> Plan.from_entries("Bash(gh *), Read").allowed_tools
    ['Bash(gh *)', 'Read']
    """

    model_config = ConfigDict(frozen=True, strict=True, populate_by_name=True)

    allowed_tools: list[str] = Field(
        validation_alias=AliasChoices(*SPELLINGS["allowed_tools"]), alias="allowed-tools")
    shell_tools: dict[str, ShellTool] = Field(
        default_factory=dict, validation_alias=AliasChoices(*SPELLINGS["shell_tools"]),
        alias="shell-tools")
    base_dirs: BaseDirs | None = Field(
        default=None, validation_alias=AliasChoices(*SPELLINGS["base_dirs"]), alias="base-dirs")
    #: The runtimes the plan is judged for (``runtimes.profiles``); None: every runtime that
    #: reads allowed-tools.
    runtime: list[str] | None = Field(
        default=None, validation_alias=AliasChoices(*SPELLINGS["runtime"]), alias="runtime")
    source: str | None = None
    # Not a field: the fields are the plan document's vocabulary (and ``source``).
    _warnings: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="before")
    @classmethod
    def _keys(cls, data: Any, info: ValidationInfo) -> Any:
        if not isinstance(data, Mapping):
            return data
        # ``source`` is ours to set, never a key of the plan's own document.
        own = {"source"} if not (info.context or {}).get("document") else set()
        _check_spellings(data)
        for key in data:
            if not isinstance(key, str) or not (key in KNOWN_KEYS or key in own
                                                or ignored(key)):
                raise _At(f"unknown key {key!r}{did_you_mean(key)}; plan keys are {KEYS_SAID}",
                          str(key), key=True)
        return {k: v for k, v in data.items() if not ignored(k)}

    @field_validator("allowed_tools", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return split_allowed_tools(value)
            except AllowedToolsError as e:  # another runtime reads it otherwise
                raise ValueError(str(e)) from e
        if not isinstance(value, list):
            raise ValueError(f"must be a string or a list of strings, not {_kind(value)}")
        for index, item in enumerate(value):
            if not isinstance(item, str):
                raise _At(f"item {index + 1} must be a string, not {_kind(item)}", index)
            try:
                split_allowed_tools(item)
            except AllowedToolsError as e:
                raise _At(f"item {index + 1} {e}", index) from e
        return split_allowed_tools(value)

    @field_validator("allowed_tools")
    @classmethod
    def _approvable(cls, entries: list[str]) -> list[str]:
        check_approvable(entries)
        return entries

    @field_validator("shell_tools", mode="before")
    @classmethod
    def _shell_tools(cls, value: Any) -> Any:
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = dict.fromkeys(value)
        if not isinstance(value, Mapping):
            return value
        for name in value:
            if not isinstance(name, str) or not vocabulary.is_tool_name(name):
                raise _At(f"{name!r} is not a tool name", str(name), key=True)
            builtin = vocabulary.canonical_name(name) or vocabulary.removed_name(name)
            if vocabulary.is_mcp(name) or builtin:
                kind = "an MCP tool" if vocabulary.is_mcp(name) else f"the built-in {builtin}"
                raise _At(f"{name!r} is {kind}; shell-tools declares other tools", name,
                          key=True)
        return {k: ({} if v is None else v) for k, v in value.items()}

    @field_validator("runtime", mode="before")
    @classmethod
    def _runtime(cls, value: Any) -> Any:
        from ..runtimes import profiles

        if value is None:
            return None
        if isinstance(value, str):
            value = value.split(",")
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ValueError(f"must be a runtime's name or a list of names, not {_kind(value)}")
        try:
            return [p.name for p in profiles(value, source=None)]
        except PlanError as e:
            raise ValueError(e.message) from None

    @property
    def warnings(self) -> tuple[str, ...]:
        """What the loader found worth telling a user, each a sentence without the file's
        name (the settings file approves nothing...); empty for most plans.

        >>> Plan.from_text('{"permissions": {"deny": ["Read"]}}').warnings
        ('the settings file approves nothing: it has only permissions.deny',)
        """
        return self._warnings

    def constrain_kwargs(self) -> ConstrainKwargs:
        """Keyword arguments for ``constrain``/``prove``: the plan's shell tools, base dirs and
        runtimes.

        >>> Plan.from_entries(["Read"]).constrain_kwargs()
        {'shell_tools': None, 'base_dirs': None, 'runtime': None}
        """
        shell = {name: {"command-argument": tool.command_argument}
                 | ({} if tool.workdir_argument is None
                    else {"workdir-argument": tool.workdir_argument})
                 for name, tool in self.shell_tools.items()}
        return {"shell_tools": shell or None,
                "base_dirs": None if self.base_dirs is None else self.base_dirs.model_dump(),
                "runtime": None if self.runtime is None else list(self.runtime)}

    @classmethod
    def from_entries(cls, entries: str | Sequence[str], *,
                     shell_tools: Mapping[str, object] | Sequence[str] | None = None,
                     base_dirs: Mapping[str, str | None] | None = None,
                     source: str | None = None,
                     runtime: str | Sequence[str] | None = None) -> Plan:
        """A plan from approved entries given in code. Raises PlanError."""
        given: object = entries
        if isinstance(entries, Sequence) and not isinstance(entries, str):
            given = list(entries)
        data: dict[str, Any] = {"allowed-tools": given}
        if shell_tools is not None:
            data["shell-tools"] = (dict(shell_tools) if isinstance(shell_tools, Mapping)
                                   else list(shell_tools))
        if base_dirs is not None:
            data["base-dirs"] = dict(base_dirs)
        if runtime is not None:
            data["runtime"] = runtime if isinstance(runtime, str) else list(runtime)
        return validate_plan(data, PlanSource(source, "", None))

    @classmethod
    def from_text(cls, text: str, *, source: str | None = None, kind: PlanKind = "auto") -> Plan:
        """A plan from text: a plan file (YAML or JSON), an approved SKILL.md (``kind="skill"``,
        or a source ending in ``.md``) or a settings.json (``kind="settings"``, or a JSON
        mapping with ``permissions`` and no allowed-tools key). Raises PlanError with
        file:line:column."""
        parsed = parse_plan_text(text, source=source, kind=kind)
        return validate_plan(parsed.data, parsed.where, parsed.warnings)

    @classmethod
    def load(cls, path: str | Path, *, kind: PlanKind = "auto") -> Plan:
        """A plan from a file, its kind told by ``kind`` or else by its name and content (see
        ``from_text``). Raises PlanError, also for a file over MAX_FILE_BYTES (which is never
        read whole).

        The file is read as UTF-8 (a BOM is allowed in a plan or settings file).
        """
        name = str(path)
        return cls.from_text(read_plan_file(path, kind), source=name, kind=kind)


def _check_spellings(data: Mapping[object, object]) -> None:
    """Each key given in one spelling at most, and allowed-tools given: when it is not, a key
    that misspells it is named."""
    for names in SPELLINGS.values():
        given = [n for n in names if n in data]
        if len(given) > 1:
            raise _At(f"{given[0]!r} and {given[1]!r} are the same key; give one", given[1],
                      key=True)
    if any(name in data for name in SPELLINGS["allowed_tools"]):
        return
    for key in data:
        if not ignored(key) and suggestion(key) == "allowed-tools":
            raise _At(f"the plan has no allowed-tools key: unknown key {str(key)!r}"
                      f"{did_you_mean(key)}", str(key), key=True)
    raise ValueError("the plan has no allowed-tools key (use allowed-tools: [] to approve no "
                     "tools)")


def _kind(value: object) -> str:
    names = {type(None): "null", bool: "a boolean", int: "an integer", float: "a number",
             dict: "a mapping", list: "a list"}
    return names.get(type(value), type(value).__name__)


def validate_plan(data: object, where: PlanSource, warnings: tuple[str, ...] = ()) -> Plan:
    """Validate ``data`` into a Plan with the loader's ``warnings``; map the first problem to a
    located PlanError."""
    try:
        plan = Plan.model_validate(data, context={"document": True})
    except ValidationError as e:
        raise _located(e, where) from e
    plan = plan.model_copy(update={"source": where.name})
    plan._warnings = warnings
    return plan


def _located(error: ValidationError, where: PlanSource) -> PlanError:
    detail = error.errors(include_url=False)[0]
    cause = detail.get("ctx", {}).get("error")
    loc: tuple[str | int, ...] = tuple(detail["loc"])
    if loc and loc[0] in SPELLINGS["allowed_tools"]:
        loc = (*where.allowed_path, *loc[1:])
    elif loc:
        loc = (where.spelling(loc[0]), *loc[1:])
    entry: str | None = None
    below: tuple[str | int, ...] = ()
    if isinstance(cause, PlanError):
        message, entry = cause.message, cause.entry
        continued = None if entry is None else where.continued_item(entry)
        message = continued or message
    elif isinstance(cause, _At):
        message, below = cause.message, cause.path
    elif isinstance(cause, ValueError):
        message = str(cause)
    else:
        message = str(detail["msg"]) + _unknown_below(detail["type"], loc)
    key = isinstance(cause, _At) and cause.key
    if loc and not key:
        message = ".".join(str(part) for part in loc) + ": " + message
    line, column = where.position((*loc, *below), entry, key=key)
    return PlanError(message, source=where.name, line=line, column=column, entry=entry)


#: The keys a plan's nested mappings take, as a suggestion writes them.
_SHELL_TOOL_KEYS = ("command-argument", "workdir-argument")


def _unknown_below(kind: str, loc: tuple[str | int, ...]) -> str:
    """A "did you mean" for an unknown key inside base-dirs or a shell tool's options."""
    if kind != "extra_forbidden" or len(loc) < 2:
        return ""
    if loc[0] in SPELLINGS["base_dirs"]:
        return did_you_mean(loc[-1], BASE_DIRS)
    if loc[0] in SPELLINGS["shell_tools"]:
        return did_you_mean(loc[-1], _SHELL_TOOL_KEYS)
    return ""
