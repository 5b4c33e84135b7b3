"""The entries one observed call asks for, at one level of generalization.

The call is read as the gate reads it: its shell command by ``gate.shell.analyse``, and its
paths, hosts and patch files by the gate's own judges (``gate.judge.path``, ``web``, ``patch``,
``path_part``) run against a plan that grants whatever they ask and keeps what that was. Each
part then gets the narrowest entry of its level:

==============  ===========================================================================
``exact``       each simple command as one EXACT entry, written as the gate reads it
                (``Bash(git log -5)``); each path as itself (``Read(//abs/file)``); a
                search's directory as ``Read(//dir/**)``
``command``     a simple command whose first words are a key of the reviewed table
                (``groups.GROUPS``: programs and subcommands whose arguments cannot name code
                to run) by that key: ``Bash(ls *)``, ``Bash(gh pr list *)``; every other
                command exact; paths exact
``directory``   commands as ``command``; each file by its directory (``Edit(//abs/src/**)``),
                but a file directly in the root or a home keeps its own entry
``tool``        the plan tool bare (``Bash``, ``Read``): the only level that is tool-wide
==============  ===========================================================================

Hosts are their exact domain and MCP tools, agents and skills their name at every level but
``tool``. A candidate is never wider than its level, and no level below ``tool`` names the
root or a home (``Edit(//)``, ``Read(//**)``, ``Read(//home/u/**)``) or a path written as a
directory (``ls > /etc/``): such a call is not suggestible. Whether the candidates really
cover the call is the gate's to say (``suggest`` checks every call with ``check_call``).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Mapping
from typing import Final

from .. import vocabulary
from ..gate import judge
from ..gate.judge import absolute_path, inside
from ..gate.plainshell import joined_words
from ..gate.reading import Simple
from ..gate.shell import HARMLESS_SOURCES, HARMLESS_TARGETS, analyse
from ..gate.tools import Spec, argument, arguments, command_text, translate
from ..gate.verdict import CallPlan
from ..verdicts import Verdict
from .groups import NAMED_ALONE, grouped
from .levels import Level
from .read import Observed

_PLAIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_MCP_TOOL = re.compile(r"mcp__[A-Za-z0-9-]+(_[A-Za-z0-9-]+)*__[A-Za-z0-9_-]*[A-Za-z0-9-]")
#: Directories no path entry may name (compared case-folded): the root, and homes (an entry for
#: one would be every file of the machine, or of a user). At ``directory`` no directory whose
#: last two parts hold ``home`` or ``users`` is grouped either.
_TOPS: Final = frozenset({"/", "/root", "/var/root", "/private/var/root"})
#: Where homes live: a path that is one of these, or one part below it, is a home (``*``: any
#: one part).
_HOME_PREFIXES: Final = (("home",), ("users",), ("var", "home"), ("usr", "home"),
                         ("export", "home"), ("mnt", "*", "users"), ("*", "users"),
                         ("cygdrive", "*", "users"), ("volumes", "*", "users"),
                         ("system", "volumes", "data", "users"), ("var", "lib"),
                         ("system", "volumes", "data", "private", "var", "root"),
                         ("data", "data", "com.termux", "files"))
_HOME_PARTS: Final = frozenset({"home", "users"})
#: Trees no directory entry reaches into: what they hold names programs that run (git's
#: config and hooks, the runtime's settings and hooks).
_CONFIG_PARTS: Final = frozenset({".git", ".claude", ".husky", ".githooks"})
#: File names without an extension that name files (any other such name may be a directory).
_PLAIN_FILES: Final = frozenset({
    "Makefile", "makefile", "GNUmakefile", "Dockerfile", "Containerfile", "LICENSE", "LICENCE",
    "COPYING", "NOTICE", "README", "CHANGELOG", "AUTHORS", "CODEOWNERS", "Gemfile", "Rakefile",
    "Procfile", "Justfile", "justfile", "Vagrantfile", "Jenkinsfile", "Brewfile", "Pipfile",
    "go.mod", "go.sum", ".gitignore", ".gitattributes", ".gitmodules", ".dockerignore",
    ".editorconfig", ".env", ".npmrc", ".nvmrc", ".bashrc", ".zshrc", ".profile",
    ".bash_profile", ".prettierrc", ".eslintrc", ".python-version", ".tool-versions",
    "VERSION", "CNAME", "OWNERS", "MAINTAINERS", "hosts",
})
#: Paths a process reads as itself (its PID, descriptors, working directory): an entry for one
#: would depend on the process that suggests, not on the evidence.
_PROCESS_TREES: Final = ("/proc", "/dev", "/sys")
#: What an EXACT entry may not hold: grant syntax (stars, parentheses, escapes, ``:*``), and
#: controls, which make an entry invalid or a runtime reading doubtful.
_NOT_EXACT = re.compile(r"[*()\\\x00-\x1f\x7f\x85\u2028\u2029]|:\*$|^\s|\s$|\s\s")


class Unsuggestible(Exception):
    """The call has a part no entry of the level can name; the message says why."""


def candidates(call: Observed, level: Level) -> tuple[str, ...]:
    """The entries ``call`` asks for at ``level``, in order, without repeats. Raises
    Unsuggestible.

    >>> from skillgrant.evidence.read import Observed
    >>> candidates(Observed("t", 1, "Bash", {"command": "gh pr list -L 5"}, "/w"), "command")
    ('Bash(gh pr list *)',)
    >>> candidates(Observed("t", 1, "Bash", {"command": "vim.tiny x"}, "/w"), "command")
    ('Bash(vim.tiny x)',)
    """
    if not isinstance(call.tool_input, Mapping):
        raise Unsuggestible("the call's input is not an object")
    spec = translate(call.tool, {})
    if spec is None:
        # A name judged verbatim: only a plain one, never a glob (`mcp__s__get*` would be an
        # entry for every tool of that prefix).
        # An MCP name must name a tool: `mcp__s` alone would be every tool of the server.
        if vocabulary.is_mcp(call.tool):
            if _MCP_TOOL.fullmatch(call.tool) is not None:
                return (call.tool,)
            raise Unsuggestible(f"{call.tool!r} is not a plain tool name a plan can hold")
        return (_named_alone(call.tool, level),)
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
    if spec.domain in ("read", "edit", "search", "patch"):
        if spec.domain != "search":
            _no_directory(arguments(tool_input, spec.subject))
        reader = judge.patch if spec.domain == "patch" else judge.path
        return [_at_level(e, level, call.cwd) for e in
                _gate_asks(lambda plan: reader(spec, tool_input, plan, call.cwd))]
    if spec.domain == "web":
        return [_plain_host(e) for e in
                _gate_asks(lambda plan: judge.web(spec, tool_input, plan, call.cwd))]
    if spec.domain in ("agent", "skill"):
        name = argument(tool_input, spec.subject)
        if not isinstance(name, str) or not name:
            raise Unsuggestible(f"the call names no {spec.domain}")
        return [_exact_entry(spec.tool, name)]
    return [_named_alone(spec.tool, level)]


def _plain_host(entry: str) -> str:
    """A ``WebFetch(domain:…)`` entry, unless its host is an address in a shorthand (``127.1``,
    ``0x7f.1``, ``2130706433``): the runtime's URL parser rewrites those to ``127.0.0.1``, so
    the entry would match nothing (review B11)."""
    labels = entry[len("WebFetch(domain:"):-1].split(".")
    numeric = all(re.fullmatch(r"0x[0-9a-f]*|[0-9]+", label) for label in labels)
    if numeric and not (len(labels) == 4 and all(
            label.isdigit() and str(int(label)) == label and int(label) < 256
            for label in labels)):
        raise Unsuggestible(f"{entry!r} names an address in a shorthand the runtime rewrites "
                            "(write it as four decimal numbers)")
    return entry


def _named_alone(tool: str, level: Level) -> str:
    """A tool judged by its name: bare only when ``groups.NAMED_ALONE`` lists it, or at
    ``tool``; any other bare name would be a tool-wide grant."""
    if tool in NAMED_ALONE or (level == "tool" and _PLAIN_NAME.fullmatch(tool)
                               and vocabulary.is_tool_name(tool)):
        return tool
    raise Unsuggestible(f"{tool!r} is judged by its name alone: an entry for it would allow "
                        "every call of the tool, which only --generalize tool writes (and "
                        "only for a plain name)")


class _Asked(CallPlan):
    """A plan that grants whatever the gate asks of it, and keeps what that was: the entries
    the gate's own reading of a call needs (its paths, through symbolic links too; its
    hosts), so that ``suggest`` reads them with the gate's code, not a copy of it."""

    __slots__ = ("asked",)

    def __init__(self) -> None:
        super().__init__((), {}, {})
        self.asked: list[str] = []

    def prove(self, entry: str, cwd: str | None = None) -> Verdict:
        self.asked.append(entry)
        return Verdict(entry, "covered", "asked by the gate", covered_by=entry)

    def lookup(self, entry: str, member: object, cwd: str | None = None) -> str | None:
        """Every concrete part the gate looks up is asked for by its singleton entry."""
        del member
        return self.prove(entry, cwd).covered_by


def _gate_asks(read: Callable[[CallPlan], judge.Judged | judge.Part]) -> list[str]:
    """The entries ``read`` (one of the gate's judges) asks a plan for; Unsuggestible with
    the gate's reason when it refuses the call whatever the plan grants."""
    plan = _Asked()
    try:
        judged = read(plan)
    except OSError as e:  # a link the gate cannot read (/proc/1/cwd): it cannot judge either
        raise Unsuggestible(f"a path of the call cannot be resolved: {e}") from None
    if isinstance(judged, judge.Judged) and judged.status != "covered":
        raise Unsuggestible(judged.reason)
    return plan.asked


def _no_directory(values: list[object]) -> None:
    """A file tool's path written as a directory (``/etc/``, ``.``): an entry naming it may
    reach every file beneath it, so none is written."""
    for value in values:
        if isinstance(value, str) and (value.endswith("/") or value.rsplit("/", 1)[-1] in (
                ".", "..")):
            raise Unsuggestible(f"the path {value!r} names a directory, and an entry for it "
                                "may reach every file beneath it")


def _at_level(entry: str, level: Level, cwd: str | None) -> str:
    """A path entry the gate asked for (``Kind(/abs)``, ``Kind(/abs/**)``) at ``level``.

    Never the root or a home, nor a path under ``/proc`` or ``/dev``, nor a directory of this
    machine as if it were a file, at any level. At ``directory``, a file's directory only
    when that is strictly inside the session's directory and neither is nor holds a
    directory whose files name programs (``.git``: ``core.fsmonitor`` runs on ``git
    status``); every other file keeps its own entry."""
    kind, _, rest = entry.partition("(")
    path = rest[1:-1]
    tree = path.endswith("/**")
    target = (path[:-3] or "/") if tree else path
    if level == "tool":
        return kind
    if _top(target) or (tree and _home_like(target)):
        raise Unsuggestible(f"the call names {target!r}: an entry for it would reach every "
                            "file of the machine or of a user (only --generalize tool is "
                            "that wide)")
    if any(target == t or target.startswith(t + "/") for t in _PROCESS_TREES):
        raise Unsuggestible(f"the path {target!r} is under /proc, /dev or /sys: what it names "
                            "depends on the process that reads it")
    if not tree and cwd is not None and inside(posixpath.normpath(cwd), target):
        raise Unsuggestible(f"the call names {target!r}, the session's directory or one above "
                            "it: an entry for it may reach every file beneath it")
    if not tree and os.path.isdir(target):
        raise Unsuggestible(f"the call names the directory {target!r}: an entry for it may "
                            "reach every file beneath it")
    if not tree and kind == "Read" and _maybe_directory(target):
        raise Unsuggestible(f"the path {target!r} may be a directory (its name has no "
                            "extension), and the runtime reads an entry for a directory as "
                            "every file beneath it")
    directory = posixpath.dirname(target)
    if level == "directory" and kind == "Read" and not tree and _groupable(directory, cwd):
        return f"{kind}(/{directory}/**)"
    return entry


def _maybe_directory(path: str) -> bool:
    """Whether ``path`` may name a directory: its last part has no extension and is not a
    file name known without one (``Makefile``, ``.bashrc``). Asked of reads only: a write
    (a Write, an Edit, a redirection) succeeds only on a file, so its path was one."""
    name = path.rsplit("/", 1)[-1]
    return "." not in name.lstrip(".") and name not in _PLAIN_FILES


def _top(path: str) -> bool:
    """The root, or a home or where homes live, as a path spells it on the systems a skill
    runs on (case-folded: macOS reads ``/users/u`` as ``/Users/u``)."""
    lower = path.lower().rstrip("/") or "/"
    parts = tuple(lower.split("/")[1:])
    for prefix in _HOME_PREFIXES:
        if len(prefix) <= len(parts) <= len(prefix) + 1 and all(
                p in ("*", w) for p, w in zip(prefix, parts, strict=False)):
            return True
    return lower in _TOPS or path == posixpath.expanduser("~")


def _home_like(directory: str) -> bool:
    return _HOME_PARTS.intersection(directory.lower().split("/")[-2:]) != set()


def _groupable(directory: str, cwd: str | None) -> bool:
    return (cwd is not None and directory != posixpath.normpath(cwd) and inside(directory, cwd)
            and not _top(cwd) and not _home_like(cwd)
            and not _top(directory) and not _home_like(directory)
            and not _CONFIG_PARTS.intersection(directory.split("/"))
            and not os.path.lexists(posixpath.join(directory, ".git")))


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
        found.append(_simple(spec.tool, simple, level))
    for redirect in analysis.redirects:
        target = redirect.target.value
        if target is None or (redirect.after_cd and not target.startswith("/")):
            raise Unsuggestible(f"the redirection {redirect.text!r} names a file the gate "
                                "cannot name")
        _no_directory([target])
        path = _absolute(target, workdir)
        if path in (HARMLESS_SOURCES if redirect.reads else HARMLESS_TARGETS):
            continue
        kind = "Read" if redirect.reads else "Edit"
        found.extend(_at_level(e, level, cwd) for e in _path_asks(
            kind, path, cwd, f"the redirection {redirect.text!r}",
            given=judge.joined(target, workdir)))
    return found


def _path_asks(kind: str, path: str, cwd: str | None, what: str, *, tree: bool = False,
               given: str | None = None) -> list[str]:
    """The entries the gate asks for one path (``gate.judge.path_part``)."""
    return _gate_asks(lambda plan: judge.path_part(kind, path, plan, cwd, what, tree=tree,
                                                   given=given))


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
        found.extend(_at_level(e, "exact", cwd) for e in _path_asks(
            "Read", workdir, cwd, "the working directory", tree=True))
    return workdir


def _simple(tool: str, simple: Simple, level: Level) -> str:
    if level != "exact":
        group = grouped(tool, simple)
        if group is not None:
            return group
    values = [w.value for w in simple.words]
    if None in values:
        raise Unsuggestible("a word of the command holds an expansion or a glob, which no "
                            "entry suggest writes can name")
    return _exact_entry(tool, _as_written(simple, [str(v) for v in values]))


def _as_written(simple: Simple, values: list[str]) -> str:
    """The simple command as the call wrote it, when that text reads back as its words alone:
    the runtime compares an exact entry with the text (it denies ``touch 'zz'`` under
    ``Bash(touch zz)``, review B12). Else (a wrapper, a variable carried from before) the
    words as the gate renders them."""
    text = joined_words(values)
    if simple.stripped or simple.text == text:
        return text
    again = analyse(simple.text)
    if (again.doubt is None and not again.redirects and len(again.commands) == 1
            and [w.value for w in again.commands[0].words] == values):
        return simple.text
    return text


# -- paths, names ------------------------------------------------------------------------------

def _absolute(value: str, cwd: str | None) -> str:
    found = absolute_path(value, cwd)
    if found is None:
        raise Unsuggestible(f"the path {value!r} is not absolute and the session's directory "
                            "is not known, or it starts with ~")
    return found


def _writable(text: str) -> bool:
    return bool(text) and _NOT_EXACT.search(text) is None


def _exact_entry(tool: str, text: str) -> str:
    if not _writable(text):
        raise Unsuggestible(f"{text!r} cannot be written as an exact entry")
    return f"{tool}({text})"
