"""Each runtime's tool names in the plan's vocabulary, and where a call's arguments are.

A runtime calls its tools by its own names (Copilot CLI ``bash``, Codex ``exec_command``, Gemini
CLI ``run_shell_command``, pi ``read``, VS Code ``read_file`` with a camelCase ``filePath``).
``translate`` gives the plan-vocabulary tool a call is judged as, with the argument names that
hold what it is judged on. One table serves every runtime: no two runtimes give one name two
meanings. ``shell_call`` is the one place that says whether a call carries shell semantics and
yields its command and working directory.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping

from .. import vocabulary
from ..parser import parse_accepted
from ..records import NamedTuple

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final, Literal
    Domain = Literal["shell", "read", "edit", "search", "web", "agent", "skill", "patch", "tool"]


class Spec(NamedTuple):
    """How a call of one runtime tool is judged: as the plan tool ``tool``, in ``domain``, with
    the argument names (first present wins) that hold its subject and its directory."""

    tool: str
    domain: Domain
    subject: tuple[str, ...] = ()
    directory: tuple[str, ...] = ()


_PATH = ("file_path", "filePath", "path", "absolute_path", "notebook_path", "notebookPath")
_DIR = ("path", "dir_path", "directory", "dirPath")
_SHELL = ("command", "cmd")
_WORKDIR = ("workdir", "cwd", "directory", "dir_path")

#: Claude Code's own tools, judged as themselves.
_CANONICAL: Final[dict[str, Spec]] = {
    "Bash": Spec("Bash", "shell", ("command",)),
    "PowerShell": Spec("PowerShell", "shell", ("command",)),
    "Monitor": Spec("Monitor", "shell", ("command",)),
    "Read": Spec("Read", "read", _PATH),
    "Edit": Spec("Edit", "edit", _PATH),
    "Write": Spec("Write", "edit", _PATH),
    "NotebookEdit": Spec("NotebookEdit", "edit", _PATH),
    "LSP": Spec("LSP", "read", _PATH),
    "Glob": Spec("Glob", "search", _DIR),
    "Grep": Spec("Grep", "search", _DIR),
    "WebFetch": Spec("WebFetch", "web", ("url",)),
    "Agent": Spec("Agent", "agent", ("subagent_type",)),
    "Skill": Spec("Skill", "skill", ("skill", "name")),
}

#: Other runtimes' names (Copilot CLI, Codex, Gemini CLI, VS Code, pi).
_FOREIGN: Final[dict[str, Spec]] = {
    # shells
    "bash": Spec("Bash", "shell", _SHELL, _WORKDIR),
    "shell": Spec("Bash", "shell", _SHELL, _WORKDIR),
    "exec_command": Spec("Bash", "shell", _SHELL, _WORKDIR),
    "local_shell": Spec("Bash", "shell", _SHELL, _WORKDIR),
    "shell_command": Spec("Bash", "shell", _SHELL, _WORKDIR),
    "run_shell_command": Spec("Bash", "shell", _SHELL, _WORKDIR),
    "run_in_terminal": Spec("Bash", "shell", _SHELL, _WORKDIR),
    "runInTerminal": Spec("Bash", "shell", _SHELL, _WORKDIR),
    "powershell": Spec("PowerShell", "shell", _SHELL, _WORKDIR),
    # reading files
    "view": Spec("Read", "read", _PATH),
    "read": Spec("Read", "read", _PATH),
    "read_file": Spec("Read", "read", _PATH),
    "readFile": Spec("Read", "read", _PATH),
    "read_many_files": Spec("Read", "read", ("paths", "include", "file_paths")),
    # writing files
    "create": Spec("Write", "edit", _PATH),
    "write": Spec("Write", "edit", _PATH),
    "write_file": Spec("Write", "edit", _PATH),
    "create_file": Spec("Write", "edit", _PATH),
    "createFile": Spec("Write", "edit", _PATH),
    "edit": Spec("Edit", "edit", _PATH),
    "replace": Spec("Edit", "edit", _PATH),
    "edit_file": Spec("Edit", "edit", _PATH),
    "editFiles": Spec("Edit", "edit", ("files",)),
    "replace_string_in_file": Spec("Edit", "edit", _PATH),
    "insert_edit_into_file": Spec("Edit", "edit", _PATH),
    "multi_replace_string_in_file": Spec("Edit", "edit", _PATH),
    "apply_patch": Spec("Edit", "patch", ("input", "patch", "command")),
    # searching
    "glob": Spec("Glob", "search", _DIR),
    "find": Spec("Glob", "search", _DIR),
    "ls": Spec("Glob", "search", _DIR),
    "list_directory": Spec("Glob", "search", _DIR),
    "list_dir": Spec("Glob", "search", _DIR),
    "listDirectory": Spec("Glob", "search", _DIR),
    "file_search": Spec("Glob", "search", _DIR),
    "grep": Spec("Grep", "search", _DIR),
    "rg": Spec("Grep", "search", _DIR),
    "search_file_content": Spec("Grep", "search", _DIR),
    "grep_search": Spec("Grep", "search", _DIR),
    # the web
    "web_fetch": Spec("WebFetch", "web", ("url", "urls", "prompt")),
    "fetch_webpage": Spec("WebFetch", "web", ("urls", "url", "prompt")),
    "fetch": Spec("WebFetch", "web", ("url", "urls", "prompt")),
    # subagents: Copilot CLI's `task` starts one of `agent_type` (its calls reach the same
    # hooks, measured: docs/call-gate.md, "Subagents")
    "task": Spec("Agent", "agent", ("agent_type",)),
}

SHELL_TOOLS: Final = frozenset(n for n, s in {**_CANONICAL, **_FOREIGN}.items()
                               if s.domain == "shell")


class ShellTool(NamedTuple):
    """A plan's declared shell tool (semantics §3): the argument names of its command and its
    working directory."""

    command: str = "command"
    workdir: str | None = None


def translate(name: str, shell_tools: Mapping[str, ShellTool]) -> Spec | None:
    """How a call of the runtime tool ``name`` is judged, or None when the name is not one the
    gate knows (an MCP tool, a tool only the plan may name, or a name spelled wrongly)."""
    if name in shell_tools:
        declared = shell_tools[name]
        workdir = () if declared.workdir is None else (declared.workdir,)
        return Spec("Bash", "shell", (declared.command,), workdir)
    spec = _CANONICAL.get(name) or _FOREIGN.get(name)
    if spec is not None:
        return spec
    # Any other built-in tool under its exact canonical spelling, or an alias the runtime
    # still accepts (`Task` → `Agent`); a case slip is no translation.
    canonical = vocabulary.ALIASES.get(name, name)
    if vocabulary.canonical_name(canonical) == canonical:
        return _CANONICAL.get(canonical) or Spec(canonical, "tool")
    return None


def entry_tool(entry: str) -> str | None:
    """The tool name of one approved entry as the plan spells it, or None when the entry is
    not one the grammar accepts."""
    parsed = parse_accepted(entry)
    return None if parsed is None else parsed.name


def argument(tool_input: Mapping[str, object], names: tuple[str, ...]) -> object:
    """The first of ``names`` present in ``tool_input``, or None."""
    for name in names:
        if name in tool_input:
            return tool_input[name]
    return None


def arguments(tool_input: Mapping[str, object], names: tuple[str, ...], *,
              flatten: bool = True) -> list[object]:
    """Every one of ``names`` present in ``tool_input`` (lists flattened, unless an argument
    vector is one value): a runtime reads the name it knows, and the gate does not guess which
    one that is, so each is judged."""
    found: list[object] = []
    for name in names:
        if name in tool_input:
            value = tool_input[name]
            found.extend(value if flatten and isinstance(value, list) else [value])
    return found


#: The bash an argument vector may name to be read as a script: the system's (a relative or
#: other path is a program of its own, which the runtime would run).
_SYSTEM_BASH = frozenset({"bash", "/bin/bash", "/usr/bin/bash"})


def command_text(value: object) -> str | None:
    """A shell tool's command as one string: a string as given; an argument vector as the
    script of ``bash -c``/``-lc`` when it is one, else its words quoted and joined (so
    ``zsh -c S`` or ``sh -c S`` is the command ``zsh -c S``, whose runner the gate refuses:
    another shell reads ``S`` otherwise than bash, ``=prog``, ``noglob``)."""
    if isinstance(value, str):
        return value
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        return None
    words: list[str] = value
    if len(words) == 3 and words[0] in _SYSTEM_BASH and words[1] in ("-c", "-lc"):
        return words[2]
    return shlex.join(words)
