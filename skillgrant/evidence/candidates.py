"""The entries one observed call asks for, at one level of generalization.

The call is read as the gate reads it (``gate.tools.translate``, ``gate.shell.analyse``,
``gate.judge.absolute_path``), and each part it would be judged on gets the narrowest entry of
its level:

==============  ===========================================================================
``exact``       each simple command as one EXACT entry, written as the gate reads it
                (``Bash(git log -5)``); each path as itself (``Read(//abs/file)``); a
                search's directory as ``Read(//dir/**)``
``command``     each simple command by its program and subcommand (``Bash(git log *)``,
                ``Bash(npm run test *)``), or by its program alone for a program without
                subcommands (``Bash(ls *)``); exact for what cannot be grouped so; paths exact
``directory``   commands as ``command``; each path by its directory (``Edit(//abs/src/**)``)
``tool``        the plan tool bare (``Bash``, ``Read``): the only level that is tool-wide
==============  ===========================================================================

Hosts are their exact domain and MCP tools, agents and skills their name at every level but
``tool``. A candidate is never wider than its level: a program group that ``lint`` finds
over-broad (a runner, an interpreter, a package runner) falls back to the exact command, and a
part that cannot be written at its level gives no candidate. Whether the candidates really
cover the call is the gate's to say (``suggest`` checks every call with ``check_call``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Final, Literal

from .. import vocabulary
from ..gate.judge import absolute_path, inside
from ..gate.plainshell import joined_words
from ..gate.shell import HARMLESS_SOURCES, HARMLESS_TARGETS, analyse
from ..gate.tools import Spec, argument, arguments, command_text, translate
from .read import Observed

Level = Literal["exact", "command", "directory", "tool"]
LEVELS: Final[tuple[Level, ...]] = ("exact", "command", "directory", "tool")

#: Programs whose first argument is a subcommand (``git log``), and those whose subcommand
#: has a subcommand of its own (``gh pr list``), or a script name after ``run``.
SUBCOMMANDS: Final = frozenset({
    "git", "npm", "pnpm", "yarn", "bun", "deno", "cargo", "go", "rustup", "gh", "glab", "docker",
    "podman", "kubectl", "helm", "pip", "pip3", "uv", "poetry", "pipenv", "conda", "brew", "apt",
    "apt-get", "dnf", "yum", "dotnet", "terraform", "tofu", "aws", "gcloud", "az", "make",
    "just", "mvn", "gradle", "systemctl", "hatch", "tox", "nox", "pdm", "rye", "mix", "gem",
    "bundle", "composer", "swift", "flutter", "dart", "nx", "turbo", "lerna", "ng", "heroku",
    "vercel", "netlify", "wrangler", "firebase", "fly", "flyctl", "git-lfs", "jj", "hg", "svn",
})
TWO_LEVEL: Final = frozenset({"gh", "glab", "aws", "gcloud", "az"})
#: Programs that run code or another command given in their arguments (``awk`` ``system()``,
#: ``sed`` ``e``, ``tar --to-command``, ``rsync -e``, ``make --eval``, a pager's ``!``, an
#: interpreter's script): a group over one (``Bash(awk *)``) would allow any command, as a
#: tool-wide ``Bash`` does. ``suggest`` never groups them; each command stays exact. (``lint``
#: flags some of these; this list is the suggestion's own, wider, caution.)
EXECUTING: Final = frozenset({
    "awk", "gawk", "mawk", "nawk", "sed", "gsed", "perl", "ruby", "node", "nodejs", "deno",
    "php", "lua", "luajit", "tclsh", "wish", "R", "Rscript", "julia", "java", "jshell",
    "groovy", "scala", "kotlin", "osascript", "tar", "gtar", "bsdtar", "rsync", "scp", "sftp",
    "ssh", "ftp", "telnet", "nc", "ncat", "socat", "vim", "vi", "nvim", "ex", "view", "emacs",
    "less", "more", "most", "man", "info", "gdb", "lldb", "strace", "ltrace", "valgrind",
    "tmux", "screen", "zip", "make", "gmake", "just", "ed", "dc", "bc", "m4", "cpio",
})
#: Subcommands that run code or another command given in their arguments, or install and run
#: packages (``git rebase -x``, ``git fetch --upload-pack``, ``npm exec``, ``pip install``,
#: ``go run``): never grouped either.
EXECUTING_SUBCOMMANDS: Final = {
    "git": frozenset({"rebase", "bisect", "submodule", "filter-branch", "difftool", "mergetool",
                      "config", "daemon", "fetch", "pull", "push", "clone", "ls-remote",
                      "archive", "send-email", "grep", "remote", "help", "instaweb", "p4",
                      "svn", "cvsimport", "upload-pack", "receive-pack", "shell"}),
    **{manager: frozenset({"exec", "x", "dlx", "create", "init", "install", "i", "add", "ci",
                           "update", "upgrade", "rebuild", "publish", "link", "pack",
                           "explore", "edit", "config", "set"})
       for manager in ("npm", "pnpm", "yarn", "bun", "deno")},
    **{manager: frozenset({"install", "add", "run", "exec", "shell", "sync", "download",
                           "wheel", "tool", "create", "env", "update", "lock"})
       for manager in ("pip", "pip3", "uv", "poetry", "pipenv", "pdm", "conda", "hatch",
                       "rye")},
    "cargo": frozenset({"install", "run", "build", "test", "bench", "check", "clippy", "doc",
                        "fix", "rustc", "script"}),
    "go": frozenset({"run", "install", "generate", "get", "test", "build", "tool", "vet"}),
    "gem": frozenset({"install", "update", "exec"}),
    "bundle": frozenset({"exec", "install", "update"}),
    "brew": frozenset({"install", "reinstall", "upgrade", "tap", "sh", "ruby", "irb"}),
    "gh": frozenset({"alias", "extension", "ext", "codespace", "repo"}),
    "kubectl": frozenset({"exec", "run", "debug", "attach", "cp", "apply", "create", "plugin"}),
    "docker": frozenset({"run", "exec", "build", "compose", "buildx", "create", "start"}),
    "podman": frozenset({"run", "exec", "build", "compose", "create", "start"}),
}
RUN_SCRIPT: Final = frozenset({"run", "run-script"})
_PROGRAM = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*(/[A-Za-z0-9_][A-Za-z0-9_.+-]*)*|"
                      r"\./[A-Za-z0-9_][A-Za-z0-9_.+/-]*")
_SUBCOMMAND = re.compile(r"[a-z][a-z0-9-]*")
_SCRIPT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]*")
_PLAIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_MCP_TOOL = re.compile(r"mcp__[A-Za-z0-9-]+(_[A-Za-z0-9-]+)*__[A-Za-z0-9_-]*[A-Za-z0-9-]")
_HOST = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?")
#: A patch's file headers, as Codex reads them.
_PATCH_PATH = re.compile(r"^\s*\*\*\*\s*(?:Add File|Update File|Delete File|Move to)\s*:"
                         r"(.*)$", re.MULTILINE | re.IGNORECASE)
#: What an EXACT entry may not hold: grant syntax (stars, parentheses, escapes, ``:*``), and
#: controls, which make an entry invalid or a runtime reading doubtful.
_NOT_EXACT = re.compile(r"[*()\\\x00-\x1f\x7f\x85\u2028\u2029]|:\*$|^\s|\s$|\s\s")


class Unsuggestible(Exception):
    """The call has a part no entry of the level can name; the message says why."""


def candidates(call: Observed, level: Level) -> tuple[str, ...]:
    """The entries ``call`` asks for at ``level``, in order, without repeats. Raises
    Unsuggestible.

    >>> from skillgrant.evidence.read import Observed
    >>> candidates(Observed("t", 1, "Bash", {"command": "git log -5"}, "/w"), "command")
    ('Bash(git log *)',)
    """
    if not isinstance(call.tool_input, Mapping):
        raise Unsuggestible("the call's input is not an object")
    spec = translate(call.tool, {})
    if spec is None:
        # A name judged verbatim: only a plain one, never a glob (`mcp__s__get*` would be an
        # entry for every tool of that prefix).
        # An MCP name must name a tool: `mcp__s` alone would be every tool of the server.
        if vocabulary.is_mcp(call.tool):
            plain = _MCP_TOOL.fullmatch(call.tool) is not None
        else:
            plain = _PLAIN_NAME.fullmatch(call.tool) is not None and vocabulary.is_tool_name(
                call.tool)
        if plain:
            return (call.tool,)
        raise Unsuggestible(f"{call.tool!r} is not a plain tool name a plan can hold")
    if level == "tool" and spec.domain != "patch":
        if spec.domain == "shell":  # a command the gate does not understand: still none
            _shell(spec, call.tool_input, call.cwd, "exact")
        return (spec.tool,)
    found = _by_domain(spec, call, level)
    return tuple(dict.fromkeys(found))


def _by_domain(spec: Spec, call: Observed, level: Level) -> list[str]:
    tool_input = call.tool_input
    if spec.domain == "shell":
        return _shell(spec, tool_input, call.cwd, level)
    if spec.domain in ("read", "edit", "search"):
        return _paths(spec, call, level)
    if spec.domain == "patch":
        body = argument(tool_input, spec.subject)
        if isinstance(body, list) and body and isinstance(body[-1], str):
            body = body[-1]
        paths = [p.strip() for p in _PATCH_PATH.findall(body if isinstance(body, str) else "")]
        if not paths or not all(paths):
            raise Unsuggestible("the patch names no file")
        return [_path("Edit", _absolute(p, call.cwd), level) for p in paths]
    if spec.domain == "web":
        return [f"WebFetch(domain:{host})" for host in _hosts(spec, tool_input)]
    if spec.domain in ("agent", "skill"):
        name = argument(tool_input, spec.subject)
        if not isinstance(name, str) or not name:
            raise Unsuggestible(f"the call names no {spec.domain}")
        return [_exact_entry(spec.tool, name)]
    return [spec.tool]


def _paths(spec: Spec, call: Observed, level: Level) -> list[str]:
    values = arguments(call.tool_input, spec.subject)
    if spec.domain == "search" and not values and call.cwd is not None:
        values = [call.cwd]
    if not values or not all(isinstance(v, str) and v for v in values):
        raise Unsuggestible("the call names no path")
    return [_path(spec.tool, _absolute(str(v), call.cwd), level,
                  tree=spec.domain == "search") for v in values]


# -- shell -----------------------------------------------------------------------------------

def _shell(spec: Spec, tool_input: Mapping[str, object], cwd: str | None,
           level: Level) -> list[str]:
    given = [command_text(v) for v in arguments(tool_input, spec.subject, flatten=False)]
    if not given or None in given or len(set(given)) > 1:
        raise Unsuggestible("the call has no single command")
    command = str(given[0])
    found: list[str] = []
    workdir = _workdir(spec, tool_input, cwd, found)
    if spec.tool == "PowerShell":  # not bash: only a tool-wide grant or the whole text covers
        return [*found, _exact_entry(spec.tool, command)]
    analysis = analyse(command)
    if analysis.doubt is not None:
        raise Unsuggestible(analysis.doubt)
    for simple in analysis.commands:
        found.append(_simple(spec.tool, simple.words, level))
    for redirect in analysis.redirects:
        target = redirect.target.value
        if target is None or (redirect.after_cd and not target.startswith("/")):
            raise Unsuggestible(f"the redirection {redirect.text!r} names a file the gate "
                                "cannot name")
        path = _absolute(target, workdir)
        if path in (HARMLESS_SOURCES if redirect.reads else HARMLESS_TARGETS):
            continue
        found.append(_path("Read" if redirect.reads else "Edit", path, level))
    return found


def _workdir(spec: Spec, tool_input: Mapping[str, object], cwd: str | None,
             found: list[str]) -> str | None:
    """The command's working directory; outside the session's, the grant it needs (the gate
    reads it as a leading ``cd`` covered by a path grant for everything beneath it)."""
    directories = arguments(tool_input, spec.directory) if spec.directory else []
    if not directories:
        return cwd
    if len(set(map(str, directories))) > 1 or not isinstance(directories[0], str):
        raise Unsuggestible("the call names its working directory twice, differently")
    workdir = _absolute(directories[0], cwd)
    if cwd is None or not inside(workdir, cwd):
        found.append(_path("Read", workdir, "exact", tree=True))
    return workdir


def _simple(tool: str, words: tuple[object, ...], level: Level) -> str:
    values = [getattr(w, "value", None) for w in words]
    if level != "exact":
        grouped = _grouped(tool, values)
        if grouped is not None:
            return grouped
    if None in values:
        raise Unsuggestible("a word of the command holds an expansion or a glob, which an "
                            "exact entry cannot name (a wider --generalize level can)")
    text = joined_words([str(v) for v in values])
    if not _writable(text):
        raise Unsuggestible(f"the command {text!r} cannot be written as an exact entry")
    return _exact_entry(tool, text)


def _grouped(tool: str, values: list[str | None]) -> str | None:
    """``Tool(program [subcommand …] *)``, or None when the command does not group so (or its
    group is one ``lint`` finds over-broad)."""
    program = values[0]
    if program is None or not _PROGRAM.fullmatch(program) or "=" in program:
        return None
    name = program.rsplit("/", 1)[-1]
    if name in EXECUTING:
        return None
    key = [program]
    if name in SUBCOMMANDS:
        depth = 2 if name in TWO_LEVEL else 1
        for value in values[1:1 + depth]:
            if value is None or not _SUBCOMMAND.fullmatch(value):
                break
            key.append(value)
        if len(key) == 1 or key[1] in EXECUTING_SUBCOMMANDS.get(name, ()):
            return None  # `git -C dir log`: no subcommand to group by; `git fetch`: runs code
        if key[-1] in RUN_SCRIPT and len(values) > len(key):
            script = values[len(key)]
            if script is None or not _SCRIPT.fullmatch(script):
                return None
            key.append(script)
    entry = f"{tool}({' '.join(key)} *)"
    return None if _over_broad(entry) else entry


@lru_cache(maxsize=4096)
def _over_broad(entry: str) -> bool:
    from ..review.lint import lint_entries

    return any(f.category == "over-broad" or f.severity == "error"
               for f in lint_entries([entry]))


# -- paths, hosts, names ---------------------------------------------------------------------

def _absolute(value: str, cwd: str | None) -> str:
    found = absolute_path(value, cwd)
    if found is None:
        raise Unsuggestible(f"the path {value!r} is not absolute and the session's directory "
                            "is not known (or it starts with ~)")
    return found


def _path(tool: str, path: str, level: Level, *, tree: bool = False) -> str:
    kind = "Edit" if tool in ("Edit", "Write", "NotebookEdit") else "Read"
    if level == "tool":
        return tool
    # A file's directory, but never the root's: `Edit(//**)` would be every file.
    directory = path.rsplit("/", 1)[0]
    if level == "directory" and not tree and directory:
        path, tree = directory, True
    target = path.rstrip("/") + "/**" if tree else path
    return f"{kind}(/{target})"


def _hosts(spec: Spec, tool_input: Mapping[str, object]) -> list[str]:
    """The host of each URL the call fetches: its ``url``/``urls``, and URL-like words of a
    ``prompt`` where the tool reads them. Only a plain host name is written; anything else
    gives no candidate (the gate refuses such URLs too)."""
    urls = [u for u in arguments(tool_input, ("url", "urls")) if u is not None]
    prompt = tool_input.get("prompt")
    if "prompt" in spec.subject and isinstance(prompt, str):
        urls.extend(re.findall(r"\S*://\S*", prompt))
    if not urls or not all(isinstance(u, str) for u in urls):
        raise Unsuggestible("the call has no URL")
    hosts = []
    for url in urls:
        scheme, _, rest = str(url).partition("://")
        authority = re.split(r"[/?#]", rest, maxsplit=1)[0].lower()
        host = authority.rsplit(":", 1)[0] if authority.count(":") == 1 else authority
        if scheme.lower() not in ("http", "https") or not _HOST.fullmatch(host):
            raise Unsuggestible(f"the URL {url!r} has no plain http(s) host name")
        hosts.append(host.rstrip("."))
    return hosts


def _writable(text: str) -> bool:
    return bool(text) and _NOT_EXACT.search(text) is None


def _exact_entry(tool: str, text: str) -> str:
    if not _writable(text):
        raise Unsuggestible(f"{text!r} cannot be written as an exact entry")
    return f"{tool}({text})"
