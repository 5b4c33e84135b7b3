"""How each domain judges the concrete parts of one call against the approved plan.

Every part — a simple command, a file written, a path read, a host, a name — is a membership
question for the approved grants. A literal command is matched against the approved command
patterns as the prover compiles them; anything holding a pattern (an expansion, a directory
tree) is a submitted entry built from it and proved (``prove``): covered only when every value
it stands for is approved.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping

from .. import vocabulary
from ..grants import lone_surrogate
from ..lazy import compile_on_use
from ..records import NamedTuple
from . import files
from .environment import environment_doubt
from .named import guarded_path, planned_only
from .tools import Spec, argument, arguments
from .verdict import CallPlan
from .writeguard import held_path

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from .verdict import CallStatus, Found

#: A URL in free text, as Gemini CLI finds them: a whitespace-delimited token holding ``://``.
_URL_IN_TEXT = compile_on_use(r"\S*://\S*")
_HOST = compile_on_use(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?")
_PATTERN_CHARS = compile_on_use(r"[\\()*?\[\]{}\x00-\x1f\x7f]")
#: A patch's file headers; Codex trims each line before it reads one.
_PATCH_PATH = compile_on_use(r"^\s*\*\*\*\s*(?:Add File|Update File|Delete File|Move to)\s*:"
                         r"(.*)$", re.MULTILINE | re.IGNORECASE)
#: A glob that reaches outside the directory it searches.
_GLOB_OUTSIDE = compile_on_use(r"\.\.|^[/~]|[{,][/~]")


class _Members(NamedTuple):
    """``members``' lookups, imported by the first call that names a path, host, agent or MCP
    tool (a call that names none needs them not), then kept: an import statement in a
    function costs a microsecond at every call (its relative name is resolved by importlib's
    Python code; session 49), and these run at every such call of a service."""

    path: Callable[[CallPlan, str, str, str | None], Found]
    host: Callable[[CallPlan, str], Found]
    agent_type: Callable[[CallPlan, str], Found]
    skill: Callable[[CallPlan, str], Found]
    mcp_tool: Callable[[CallPlan, str], Found]


_MEMBERS: list[_Members] = []
#: ``shellnodes.HARMLESS_TARGETS``, kept the same way (``path_part``).
_HARMLESS: list[frozenset[str]] = []


def _members() -> _Members:
    if not _MEMBERS:
        from . import members

        _MEMBERS.append(_Members(members.path, members.host, members.agent_type,
                                 members.skill, members.mcp_tool))
    return _MEMBERS[0]


def _harmless() -> frozenset[str]:
    if not _HARMLESS:
        from .shellnodes import HARMLESS_TARGETS

        _HARMLESS.append(HARMLESS_TARGETS)
    return _HARMLESS[0]


class Part(NamedTuple):
    """One concrete part of a call and the approved entry covering it (None when none does)."""

    text: str
    covered_by: str | None


class Judged(NamedTuple):
    status: CallStatus
    reason: str
    parts: tuple[Part, ...] = ()
    witness: str | None = None


def all_covered(parts: Iterable[Part], what: str) -> Judged:
    return Judged("covered", f"every {what} of the call is allowed by an approved entry",
                  tuple(parts))


def outside(status: CallStatus, reason: str, witness: str | None) -> Judged:
    return Judged(status, reason, witness=witness)


# -- paths -------------------------------------------------------------------------------------

def path(spec: Spec, tool_input: Mapping[str, object], plan: CallPlan, cwd: str | None) -> Judged:
    values = arguments(tool_input, spec.subject)
    if spec.domain == "search" and not values:
        if cwd is None:
            return outside("unknown", "the call searches the working directory, which is "
                            "not known", None)
        values = [cwd]
    if not values or not all(isinstance(v, str) and v for v in values):
        return outside("invalid", f"the call has no path ({' or '.join(spec.subject)} "
                        "holding a string)", None)
    if spec.domain == "search":
        for key in ("pattern", "glob", "include_pattern", "include"):
            pattern = tool_input.get(key)
            if isinstance(pattern, str) and _GLOB_OUTSIDE.search(pattern) and (
                    spec.tool == "Glob" or key != "pattern"):
                return outside("unknown", f"the glob {pattern!r} may reach outside its "
                                "directory", pattern)
    parts = []
    for value in values:
        assert isinstance(value, str)
        absolute = _named(value, cwd)
        if isinstance(absolute, Judged):
            return absolute
        found = path_part(spec.tool, absolute, plan, cwd, f"the path {value!r}",
                          tree=spec.domain == "search", given=joined(value, cwd))
        if isinstance(found, Judged):
            return found
        parts.append(found)
    return all_covered(parts, "path")


def _named(value: str, cwd: str | None) -> str | Judged:
    """The absolute path ``value`` names, or why it names none the gate can judge."""
    if lone_surrogate(value) is not None:  # review K-0: not a file name, so none to judge
        return outside("unknown", f"the path {value!r} holds a lone surrogate, which is not a "
                       "file name the gate can name", value)
    absolute = absolute_path(value, cwd)
    if absolute is None:
        return outside("unknown", f"the path {value!r} is not absolute (and the session's "
                       "directory is not known)", value)
    return absolute


def path_part(tool: str, absolute: str, plan: CallPlan, cwd: str | None, what: str, *,
              tree: bool = False, given: str | None = None) -> Part | Judged:
    """``absolute`` (a file, or with ``tree`` everything beneath a directory) against the path
    grants of the tool's kind: Edit grants for writing tools, Read (and Edit) grants for the
    others, or the tool's bare grant."""
    members = _MEMBERS[0] if _MEMBERS else _members()
    if absolute in (_HARMLESS[0] if _HARMLESS else _harmless()) and tool == "Edit":
        return Part(absolute, "a device that stores nothing")
    kind = "Edit" if tool in ("Edit", "Write", "NotebookEdit") else "Read"
    if _PATTERN_CHARS.search(absolute) or _PATTERN_CHARS.search(given or ""):
        return outside("unknown", f"{what} holds characters that path rules read as pattern "
                        "syntax, so the gate cannot name it", absolute)
    real = files.realpath(given or absolute)
    if kind == "Edit":
        refused = _guarded_write(absolute, real, what, None if tree else lambda: plan.lookup(
            f"Edit(/{absolute})", lambda: members.path(plan, kind, absolute, cwd), cwd))
        if refused is not None:
            return refused
    if real != absolute:  # a symbolic link on the way: the file opened must be covered too
        if _PATTERN_CHARS.search(real):
            return outside("unknown", f"{what} leads through a symbolic link to a path the "
                            "gate cannot name", real)
        through = path_part(tool, real, plan, cwd, f"{what}, through a symbolic link, "
                            f"{real!r}", tree=tree, given=real)
        if isinstance(through, Judged):
            return through
    # A concrete path is a member of the plan's path grants (one lookup); a tree is a pattern,
    # proved as a submitted entry.
    entry = f"{kind}(/{absolute.rstrip('/') + '/**' if tree else absolute})"
    found = plan.lookup(entry, None if tree else (
        lambda: members.path(plan, kind, absolute, cwd)), cwd)
    if found is None and tool != kind:
        found = bare_tool(plan, tool, cwd)
    if found is not None:
        return Part(absolute, found)
    return outside(denied(plan, entry, cwd), f"no approved entry allows {what} ({kind} "
                   f"{absolute!r})", absolute)


def _guarded_write(absolute: str, real: str, what: str,
                   granted: Callable[[], str | None] | None) -> Judged | None:
    """A write of ``absolute`` (real path ``real``) refused: a relative ``PATH`` entry or git
    variable is read from the program's folder, which the guarded set cannot name (review
    s41 F1); or it writes what the gate guards, but for what only a plan's program reads
    where the plan's own Edit grant names the path (``granted``: ``Edit(tests/**)`` beside
    ``Bash(pytest tests)``; review s45, a cost)."""
    doubt = environment_doubt()
    if doubt is not None:
        return outside("unknown", doubt, absolute)
    guarded = guarded_path(absolute) or guarded_path(real)
    if guarded is not None and granted is not None and planned_only(absolute) and \
            planned_only(real) and granted() is not None:
        return None
    if guarded is not None:
        return outside("unknown", f"{what} writes {guarded!r}, which the gate itself reads or "
                       "runs (its plan, its hooks, its audit log or its installation)", absolute)
    held = held_path(absolute) or held_path(real)  # (make's doubts: session 55, s55 T1)
    return None if held is None else outside("unknown", f"{what} writes {absolute!r} {held}",
                                             absolute)


def denied(plan: CallPlan, entry: str, cwd: str | None = None,
           otherwise: CallStatus = "not_covered") -> CallStatus:
    """How a part no approved entry covers is denied: as proving its singleton entry answers,
    ``unknown`` or ``not_covered`` (``otherwise`` for any other status). The denial's wording
    only: a part membership leaves uncovered is denied whatever the prover says."""
    status = plan.prove(entry, cwd).status
    return status if status in ("unknown", "not_covered") else otherwise


def bare_tool(plan: CallPlan, tool: str, cwd: str | None = None) -> str | None:
    """The approved entry covering every use of ``tool`` (its bare name proved once per plan
    and working directory, then looked up), or None."""
    return plan.kept(("bare", tool, cwd), lambda: plan.prove(tool, cwd).covered_by)


def patch(spec: Spec, tool_input: Mapping[str, object], plan: CallPlan, cwd: str | None) -> Judged:
    body = argument(tool_input, spec.subject)
    if isinstance(body, list) and body and all(isinstance(b, str) for b in body):
        body = body[-1]  # ["apply_patch", "<patch>"]
    if not isinstance(body, str):
        return outside("invalid", "the patch is not a string", None)
    paths = [p.strip() for p in _PATCH_PATH.findall(body)]
    if not paths or "*** Begin Patch" not in body or not all(paths):
        return outside("unknown", "the patch names no file the gate can read", None)
    return path(Spec("Edit", "edit", ("paths",)), {"paths": paths}, plan, cwd)


def absolute_path(value: str, cwd: str | None) -> str | None:
    """``value`` as an absolute path (``..`` resolved as text), or None when it cannot be: a
    relative path with no working directory, or a path starting with ``~`` (a runtime may
    expand it to the home directory, or not)."""
    if value.startswith("~"):
        return None
    if value.startswith("/"):
        return posixpath.normpath(value).replace("//", "/")
    if cwd is None:
        return None
    return posixpath.normpath(posixpath.join(cwd, value))


def joined(value: str, cwd: str | None) -> str:
    """``value`` against the working directory, ``..`` kept: the kernel follows a symbolic
    link before it climbs, so only the real path of this text is the file opened."""
    return value if value.startswith("/") or cwd is None else posixpath.join(cwd, value)


def inside(path: str, directory: str) -> bool:
    directory = posixpath.normpath(directory)
    return path == directory or path.startswith(directory.rstrip("/") + "/")


# -- the web, names, bare tools ----------------------------------------------------------------

def web(spec: Spec, tool_input: Mapping[str, object], plan: CallPlan, cwd: str | None) -> Judged:
    members = _MEMBERS[0] if _MEMBERS else _members()

    # Every URL the call carries: its url/urls, and each URL-like token of a prompt (Gemini
    # CLI fetches those, whatever `url` says).
    urls = [u for u in arguments(tool_input, ("url", "urls")) if u is not None]
    prompt = tool_input.get("prompt")
    if "prompt" in spec.subject and isinstance(prompt, str):
        urls.extend(_URL_IN_TEXT.findall(prompt))
    if not urls or not all(isinstance(u, str) for u in urls):
        return outside("invalid", "the call has no URL", None)
    parts = []
    for url in urls:
        assert isinstance(url, str)
        host, problem = _host(url)
        if host is None:
            return outside("not_covered", problem, url)
        entry = f"WebFetch(domain:{host})"
        # lookup calls the member at once, in this iteration
        found = plan.lookup(entry, lambda: members.host(plan, host), cwd)  # noqa: B023
        if found is None:
            return outside(denied(plan, entry, cwd, "unknown"), "no approved entry allows "
                           f"fetching from {host!r}", host)
        parts.append(Part(url, found))
    return all_covered(parts, "URL")


def _host(url: str) -> tuple[str | None, str]:
    """The URL's host when it is plainly an http(s) URL with a host name, else why not. Anything
    two URL parsers might read differently (backslashes, user names, escapes) is refused."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.lower() not in ("http", "https"):
        return None, f"the URL {url!r} is not an http(s) URL"
    authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    if any(c in url for c in "\\\t\n\r ") or "@" in authority or "%" in authority:
        return None, f"the URL {url!r} is written in a way URL parsers may read differently"
    host = authority.rsplit(":", 1)[0] if authority.count(":") == 1 else authority
    host = host.lower()
    if not _HOST.fullmatch(host):
        return None, f"the URL {url!r} has no plain host name"
    return host.rstrip("."), ""


def named(spec: Spec, value: object, plan: CallPlan) -> Judged:
    """An agent by its type, a skill by its name."""
    members = _MEMBERS[0] if _MEMBERS else _members()
    if not isinstance(value, str) or not value:
        return outside("invalid", f"the call names no {spec.domain}", None)
    if _PATTERN_CHARS.search(value) or "\n" in value:
        return outside("unknown", f"the {spec.domain} name {value!r} holds pattern syntax",
                        value)
    entry = f"{spec.tool}({value})"
    lookup = members.agent_type if spec.domain == "agent" else members.skill
    found = plan.lookup(entry, (lambda: lookup(plan, value))
                        if spec.tool in ("Agent", "Skill") else None)
    if found is None:
        return outside("not_covered", f"no approved entry allows the {spec.domain} {value!r}",
                        value)
    return all_covered([Part(value, found)], "part")


def whole(tool: str, plan: CallPlan) -> Judged:
    """A tool judged by its name alone: an MCP tool a member of the approved MCP names, any
    other tool covered by its bare grant."""
    members = _MEMBERS[0] if _MEMBERS else _members()
    if vocabulary.is_mcp(tool):
        found = plan.lookup(tool, lambda: members.mcp_tool(plan, tool))
    else:
        found = bare_tool(plan, tool)
    if found is None:
        return outside("not_covered", f"no approved entry allows the tool {tool!r}", tool)
    return all_covered([Part(tool, found)], "part")
