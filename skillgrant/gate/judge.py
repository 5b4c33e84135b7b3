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
import shlex
from collections.abc import Iterable, Mapping
from itertools import product
from typing import NamedTuple

from ..domains.base import (
    RESERVED,
    Budget,
    Glob,
    NoFreeFiller,
    OverBudget,
    approved_filler,
    union_cover,
)
from ..domains.command import Kind, case_fold, compile_pattern, identity_reason
from ..grants import parse_grant
from ..limits import MAX_WORK_PER_DECISION
from .shell import HARMLESS_TARGETS, Simple, Write, analyse
from .tools import Spec, argument, command_text
from .verdict import CallPlan, CallStatus
from .words import Word

#: Unquoted expansions in one command whose vanishing is tried both ways; past it each is
#: read as joined to the word before it (a wider pattern, so never a wrong ``covered``).
_MAX_VANISHING = 4
_URL_IN_TEXT = re.compile(r"https?://[^\s<>\"'`)\]]+", re.IGNORECASE)
_HOST = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?")
_PATTERN_CHARS = re.compile(r"[\\()*?\[\]\x00-\x1f\x7f]")
_PATCH_PATH = re.compile(r"^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$",
                         re.MULTILINE)


class Part(NamedTuple):
    """One concrete part of a call and the approved entry covering it (None when none does)."""

    text: str
    covered_by: str | None


class Judged(NamedTuple):
    status: CallStatus
    reason: str
    parts: tuple[Part, ...] = ()
    witness: str | None = None


def _covered(parts: Iterable[Part], what: str) -> Judged:
    return Judged("covered", f"every {what} of the call is allowed by an approved entry",
                  tuple(parts))


def _outside(status: CallStatus, reason: str, witness: str | None) -> Judged:
    return Judged(status, reason, witness=witness)


# -- shell -------------------------------------------------------------------------------------

def shell(spec: Spec, tool_input: Mapping[str, object], plan: CallPlan, cwd: str | None) -> Judged:
    command = command_text(argument(tool_input, spec.subject))
    if command is None:
        return _outside("invalid", f"the call has no command ({' or '.join(spec.subject)} "
                        "holding a string)", None)
    workdir_value = argument(tool_input, spec.directory)
    if workdir_value is not None and not isinstance(workdir_value, str):
        return _outside("invalid", "the working directory is not a string", None)
    whole = _whole_string(spec.tool, command, plan, cwd)
    if whole is not None:
        return _covered([Part(command, whole)], "part")
    if not _command_grants(spec.tool, plan, cwd):
        return _outside("not_covered", f"the plan approves no {spec.tool} command", command)
    if spec.tool == "PowerShell":
        return _outside("unknown", "a PowerShell command is covered only by a tool-wide grant or "
                        "an approved entry naming it exactly", command)
    parts: list[Part] = []
    workdir = cwd if not workdir_value else _absolute(workdir_value, cwd)
    if workdir_value:
        found = _workdir(workdir, workdir_value, plan, cwd)
        if isinstance(found, Judged):
            return found
        parts.append(found)
    return _analysed(spec.tool, command, parts, workdir, plan, cwd)


def _analysed(tool: str, command: str, parts: list[Part], workdir: str | None, plan: CallPlan,
              cwd: str | None) -> Judged:
    """Every simple command ``command`` may run, and every file it writes, covered."""
    analysis = analyse(command)
    if analysis.doubt is not None:
        return _outside("unknown", f"{analysis.doubt}; only a tool-wide grant or an approved "
                        "entry naming the whole command exactly covers it", command)
    for simple in analysis.commands:
        judged = _simple(tool, simple, plan, cwd)
        if isinstance(judged, Judged):
            return judged
        parts.append(judged)
    for write in analysis.writes:
        written = _write(write, workdir, plan, cwd)
        if isinstance(written, Judged):
            return written
        parts.append(written)
    return _covered(parts, "part")


def _write(write: Write, workdir: str | None, plan: CallPlan, cwd: str | None) -> Part | Judged:
    """A file a redirection writes, judged as an Edit of it."""
    target = write.target.value
    if target is None or (write.after_cd and not target.startswith("/")):
        return _outside("unknown", f"the redirection {write.text!r} writes a file the gate "
                        "cannot name", write.text)
    path = _absolute(target, workdir)
    if path is None:
        return _outside("unknown", f"the redirection {write.text!r} writes a relative path "
                        "and the working directory is not known", write.text)
    return _path_part("Edit", path, plan, cwd, f"the redirection {write.text!r}")


def _whole_string(tool: str, command: str, plan: CallPlan, cwd: str | None) -> str | None:
    """The approved entry that allows the whole command string at once, as the runtime does: a
    tool-wide grant, or an EXACT (or PREFIX) literal equal to it."""
    fold = case_fold(tool)
    same = (lambda a, b: a == b) if fold is None else (lambda a, b: fold(a) == fold(b))
    for entry, content in _command_grants(tool, plan, cwd):
        if content is None:
            return entry
        if identity_reason(content) is not None:
            continue
        pattern = compile_pattern(content)
        if pattern.kind is Kind.ANY or (pattern.kind in (Kind.EXACT, Kind.PREFIX)
                                        and same(pattern.literal, command)):
            return entry
    return None


def _command_grants(tool: str, plan: CallPlan, cwd: str | None) -> list[tuple[str, str | None]]:
    prepared = plan.prepared(cwd)
    return [(a.entry, a.grant.content) for a in prepared.candidates(parse_grant(tool))]


def _workdir(workdir: str | None, given: str, plan: CallPlan, cwd: str | None) -> Part | Judged:
    """The working directory, read as a leading ``cd``: inside the session's directory, or
    covered by a path grant for everything beneath it."""
    if workdir is None:
        return _outside("unknown", f"the working directory {given!r} is relative and the "
                        "session's directory is not known", given)
    if cwd is not None and _inside(workdir, cwd):
        return Part(f"cd {shlex.quote(workdir)}", "the session's working directory")
    return _path_part("Read", workdir, plan, cwd, "the working directory", tree=True)


def _simple(tool: str, simple: Simple, plan: CallPlan, cwd: str | None) -> Part | Judged:
    words = simple.words
    if all(w.literal for w in words):
        command = shlex.join(w.value or "" for w in words)
        entry = _member(tool, command, plan, cwd)
        if entry is not None:
            return Part(command, entry)
        return _outside("not_covered", f"no approved entry allows the command {command!r}",
                        command)
    shown = " ".join(shlex.quote(w.value) if w.value is not None else "…" for w in words)
    languages = _languages(tool, plan, cwd)
    if languages is None:  # a tool-wide grant
        return Part(shown, _tool_wide(tool, plan, cwd))
    fold = case_fold(tool)
    budget = Budget(limit=MAX_WORK_PER_DECISION)
    try:
        filler = approved_filler([(i, g) for i, (_, g) in enumerate(languages)], budget, fold)
        globs = _patterns(words)
        if any(not RESERVED.isdisjoint(s) for g in globs for s in g.segments):
            raise NoFreeFiller("the command holds reserved noncharacters")
        covering, witness = union_cover(globs, [(i, g) for i, (_, g) in enumerate(languages)],
                                        budget, fold, filler)
    except (OverBudget, NoFreeFiller) as e:
        return _outside("unknown", f"the command {shown!r} holds an expansion, and its values "
                        f"were not decided: {e}", shown)
    if witness is not None:
        return _outside("not_covered", f"the command {shown!r} holds an expansion that may "
                        f"take a value no approved entry allows, e.g. {witness!r}", witness)
    return Part(shown, languages[covering[0]][0])


def _languages(tool: str, plan: CallPlan,
               cwd: str | None) -> list[tuple[str, tuple[Glob, ...]]] | None:
    """Each approved command pattern of the tool's group with its globs (the prover's
    compilation), or None when one of them is tool-wide. Patterns decided by identity only
    (backslashes, runs of spaces) are left out: they cover no concrete command here."""
    languages = []
    for entry, content in _command_grants(tool, plan, cwd):
        if content is None:
            return None
        if identity_reason(content) is None:
            languages.append((entry, compile_pattern(content).globs))
    return languages


def _tool_wide(tool: str, plan: CallPlan, cwd: str | None) -> str:
    return next(entry for entry, content in _command_grants(tool, plan, cwd) if content is None)


def _member(tool: str, command: str, plan: CallPlan, cwd: str | None) -> str | None:
    """The first approved entry whose language holds the literal ``command``. Patterns decided
    by identity only (backslashes, runs of spaces) cover nothing here."""
    if not RESERVED.isdisjoint(command):
        return None  # the noncharacters that stand for placeholders inside patterns
    languages = _languages(tool, plan, cwd)
    if languages is None:
        return _tool_wide(tool, plan, cwd)
    fold = case_fold(tool)
    budget = Budget(limit=MAX_WORK_PER_DECISION)
    return next((entry for entry, globs in languages
                 if any(glob.matches(command, budget, fold) for glob in globs)), None)


def _patterns(words: tuple[Word, ...]) -> list[Glob]:
    """Star-only globs that together hold every command ``words`` may become: literal words as
    ``shlex.quote`` writes them, each pattern word a star; each unquoted expansion present, or
    vanished with its space."""
    rendered = [shlex.quote(w.value) if w.value is not None else None for w in words]
    vanishing = [i for i, w in enumerate(words) if w.vanishes and i > 0]
    if len(vanishing) > _MAX_VANISHING:  # each joined to the word before it: a wider glob
        pieces = [rendered[0]]
        for i in range(1, len(words)):
            pieces += [None] if i in vanishing else [" ", rendered[i]]
        return [_glob(pieces)]
    globs = []
    for present in product((True, False), repeat=len(vanishing)):
        kept = dict(zip(vanishing, present, strict=True))
        globs.append(_glob(_spaced([r for i, r in enumerate(rendered) if kept.get(i, True)])))
    return list(dict.fromkeys(globs))


def _spaced(words: list[str | None]) -> list[str | None]:
    """Words joined with single spaces: literal text and None for each star."""
    pieces: list[str | None] = []
    for i, word in enumerate(words):
        if i:
            pieces.append(" ")
        pieces.append(word)
    return pieces


def _glob(pieces: list[str | None]) -> Glob:
    """The glob of literal pieces and stars (None)."""
    segments = [""]
    for piece in pieces:
        if piece is None:
            segments.append("")
        else:
            segments[-1] += piece
    return Glob(tuple(segments))


# -- paths -------------------------------------------------------------------------------------

def path(spec: Spec, tool_input: Mapping[str, object], plan: CallPlan, cwd: str | None) -> Judged:
    given = argument(tool_input, spec.subject)
    if spec.domain == "search" and given is None:
        given = cwd
        if given is None:
            return _outside("unknown", "the call searches the working directory, which is "
                            "not known", None)
    values = given if isinstance(given, list) else [given]
    if not values or not all(isinstance(v, str) and v for v in values):
        return _outside("invalid", f"the call has no path ({' or '.join(spec.subject)} "
                        "holding a string)", None)
    if spec.domain == "search":
        pattern = tool_input.get("pattern")
        if spec.tool == "Glob" and isinstance(pattern, str) and (
                pattern.startswith(("/", "~")) or ".." in pattern.split("/")):
            return _outside("unknown", f"the glob {pattern!r} reaches outside its directory",
                            pattern)
    parts = []
    for value in values:
        assert isinstance(value, str)
        absolute = _absolute(value, cwd)
        if absolute is None:
            return _outside("unknown", f"the path {value!r} is relative and the session's "
                            "directory is not known", value)
        found = _path_part(spec.tool, absolute, plan, cwd, f"the path {value!r}",
                           tree=spec.domain == "search")
        if isinstance(found, Judged):
            return found
        parts.append(found)
    return _covered(parts, "path")


def _path_part(tool: str, absolute: str, plan: CallPlan, cwd: str | None, what: str, *,
               tree: bool = False) -> Part | Judged:
    """``absolute`` (a file, or with ``tree`` everything beneath a directory) against the path
    grants of the tool's kind: Edit grants for writing tools, Read (and Edit) grants for the
    others, or the tool's bare grant."""
    if absolute in HARMLESS_TARGETS and tool == "Edit":
        return Part(absolute, "a device that stores nothing")
    kind = "Edit" if tool in ("Edit", "Write", "NotebookEdit") else "Read"
    if _PATTERN_CHARS.search(absolute):
        return _outside("unknown", f"{what} holds characters that path rules read as pattern "
                        "syntax, so the gate cannot name it", absolute)
    target = absolute.rstrip("/") + "/**" if tree else absolute
    entry = f"{kind}(/{target})"
    verdict = plan.prove(entry, cwd)
    if verdict.covered:
        return Part(absolute, verdict.covered_by)
    if tool != kind:
        bare = plan.prove(tool, cwd)
        if bare.covered:
            return Part(absolute, bare.covered_by)
    status: CallStatus = "unknown" if verdict.status == "unknown" else "not_covered"
    return _outside(status, f"no approved entry allows {what} ({kind} {absolute!r})", absolute)


def patch(spec: Spec, tool_input: Mapping[str, object], plan: CallPlan, cwd: str | None) -> Judged:
    body = argument(tool_input, spec.subject)
    if isinstance(body, list) and body and all(isinstance(b, str) for b in body):
        body = body[-1]  # ["apply_patch", "<patch>"]
    if not isinstance(body, str):
        return _outside("invalid", "the patch is not a string", None)
    paths = [p.strip() for p in _PATCH_PATH.findall(body)]
    if not paths or "*** Begin Patch" not in body:
        return _outside("unknown", "the patch names no file the gate can read", None)
    return path(Spec("Edit", "edit", ("paths",)), {"paths": paths}, plan, cwd)


def _absolute(value: str, cwd: str | None) -> str | None:
    if value.startswith("/"):
        return posixpath.normpath(value).replace("//", "/")
    if cwd is None:
        return None
    return posixpath.normpath(posixpath.join(cwd, value))


def _inside(path: str, directory: str) -> bool:
    directory = posixpath.normpath(directory)
    return path == directory or path.startswith(directory.rstrip("/") + "/")


# -- the web, names, bare tools ----------------------------------------------------------------

def web(spec: Spec, tool_input: Mapping[str, object], plan: CallPlan, cwd: str | None) -> Judged:
    given = argument(tool_input, spec.subject)
    if "url" not in tool_input and "urls" not in tool_input and isinstance(given, str):
        urls: list[object] = list(_URL_IN_TEXT.findall(given))  # Gemini: URLs in the prompt
    else:
        urls = given if isinstance(given, list) else [given]
    if not urls or not all(isinstance(u, str) for u in urls):
        return _outside("invalid", "the call has no URL", None)
    parts = []
    for url in urls:
        assert isinstance(url, str)
        host, problem = _host(url)
        if host is None:
            return _outside("not_covered", problem, url)
        verdict = plan.prove(f"WebFetch(domain:{host})", cwd)
        if not verdict.covered:
            return _outside("not_covered" if verdict.status == "not_covered" else "unknown",
                            f"no approved entry allows fetching from {host!r}", host)
        parts.append(Part(url, verdict.covered_by))
    return _covered(parts, "URL")


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
    if not isinstance(value, str) or not value:
        return _outside("invalid", f"the call names no {spec.domain}", None)
    if _PATTERN_CHARS.search(value) or "\n" in value:
        return _outside("unknown", f"the {spec.domain} name {value!r} holds pattern syntax",
                        value)
    verdict = plan.prove(f"{spec.tool}({value})")
    if not verdict.covered:
        return _outside("not_covered", f"no approved entry allows the {spec.domain} {value!r}",
                        value)
    return _covered([Part(value, verdict.covered_by)], "part")


def whole(tool: str, plan: CallPlan) -> Judged:
    """A tool judged by its name alone: covered by its bare grant."""
    verdict = plan.prove(tool)
    if not verdict.covered:
        return _outside("not_covered", f"no approved entry allows the tool {tool!r}", tool)
    return _covered([Part(tool, verdict.covered_by)], "part")
