"""How each lint rule decides (semantics §3, §4, §8; issue 8). The rules themselves (IDs, names,
severities, default hints) are ``review.RULES``; docs/lint-rules.md explains each one.

``review.lint_entries`` screens an entry (syntax, limits, runtime tokenization) and parses it;
``check_grant`` then returns ``Hit`` values, which review turns into Findings.

Command patterns are judged by the words before their first wildcard: which program runs, and
whether the wildcard stands where that program takes another command or code (``RUNNERS``).
Every example invocation a finding quotes is checked to be in the grant's language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .. import vocabulary
from ..domains import command, mcp, skill
from ..domains.base import EVERY_TEXT, Budget, Glob
from ..errors import GrantSyntaxError
from ..gate.options import SUBAGENT_TOOLS
from ..grants import Grant, parse_grant
from ..prover import prove
from ..runtimes import claude_code
from ..screening import inert_reason, runtime_inert_reason, screen
from ..vocabulary import Domain
from .runners import ASSIGNMENT, RM, RUNNERS, Runner, program_name, wildcard_place


@dataclass(frozen=True)
class Hit:
    """A rule firing on one grant; ``hint`` overrides the rule's default when given."""

    rule_id: str
    message: str
    hint: str | None = None
    example: str | None = None
    replacement: str | None = None


_LEGACY_LIST = re.compile(r":\*\s*,")
_UNESCAPED_STAR = re.compile(r"(\\.)|\*", re.DOTALL)
_SHELL_TOOLS: Final = frozenset({"Bash", "Monitor", "PowerShell"})
_REMOVED_HINT: Final[dict[str, str]] = {
    "LS": "List files with `Glob` (or `Bash(ls *)`).",
    "MultiEdit": "`Edit` covers multi-part edits: grant `Edit` (or `Edit(path)`).",
    "NotebookRead": "`Read` reads notebooks: grant `Read` (or `Read(path)`).",
    "TodoRead": "Drop it; `TodoWrite` manages the todo list.",
}


def check_grant(grant: Grant, text: str, shell_tools: frozenset[str]) -> list[Hit]:
    """Every rule that fires on one valid approved entry (``text`` is the entry as written)."""
    removed = claude_code.PROFILE.removed_reason(_written_name(text))
    if removed is not None:  # an old alias the runtime now lists as removed (issue 28)
        return [Hit("SGL201", f"`{_written_name(text)}` is a removed tool name in Claude Code; "
                    "the entry grants nothing", hint="Grant `TaskOutput`, or drop the entry.")]
    hits = _naming(grant, text)
    inert = _inert(grant)
    if inert is not None:
        return [*hits, inert]
    domain = vocabulary.domain_of(grant.key, shell_tools)
    broad: list[Hit] = []
    if domain is Domain.COMMAND:
        shell = grant.key in _SHELL_TOOLS or grant.key in shell_tools
        broad, style = _command(grant, shell, shell_tools)
        hits.extend(style)
    elif domain is Domain.PATH:
        broad = _path(grant)
    elif domain is Domain.WEB:
        broad = _web(grant)
    elif domain is Domain.MCP:
        broad = _mcp(grant)
    if not broad and grant.content is None and not grant.is_mcp and text.endswith(")"):
        hits.append(Hit("SGL308", f"`{text}` grants every use of {grant.tool}, not the uses "
                        "that match a pattern", replacement=grant.tool))
    return sorted([*broad, *hits], key=lambda hit: hit.rule_id)


def _written_name(text: str) -> str:
    return text.split("(", 1)[0]


def _naming(grant: Grant, text: str) -> list[Hit]:
    written = _written_name(text)
    canonical = vocabulary.canonical_name(written)
    if canonical is None or written == canonical:
        return []
    rest = text[len(written):]
    if written in vocabulary.ALIASES:
        return [Hit("SGL302", f"`{written}` is an old name of `{canonical}`; the runtime still "
                    "accepts it", replacement=canonical + rest)]
    return [Hit("SGL301", f"the runtime matches tool names exactly and expects `{canonical}`, "
                f"not `{written}`; written as is, the entry grants nothing",
                hint=f"Write `{canonical}{rest}`.", replacement=canonical + rest)]


def _inert(grant: Grant) -> Hit | None:
    # Mirrors prover._inert_reason, check for check, so each inert kind gets its own rule ID.
    removed = vocabulary.removed_name(grant.key)
    if removed is not None:
        return Hit("SGL201", f"`{removed}` is a removed tool name; the entry grants nothing",
                   hint=_REMOVED_HINT.get(removed))
    if grant.is_mcp:
        if grant.content is not None:
            fix = None if mcp.is_inert(grant.key) else grant.key
            return Hit("SGL204", "MCP tool names take no parentheses; the runtime matches "
                       "nothing", hint=f"Write `{fix}`." if fix else None, replacement=fix)
        if mcp.is_inert(grant.key):
            return Hit("SGL203", f"`{grant.key}` has a wildcard outside the end of the tool "
                       "name; it matches no MCP tool")
        return None
    if "*" in grant.key:
        return Hit("SGL203", f"`{grant.tool}` is a tool-name glob; only MCP tool names may end "
                   "in `*`, so it matches no tool")
    if grant.key == "Monitor" and grant.content is not None:
        # Claude Code 2.1.332 (runtimes.claude_code): `Monitor(…)` grants nothing.
        return Hit("SGL205", f"`{grant}` grants nothing in Claude Code: only a bare `Monitor` "
                   "approves Monitor calls, and a `Bash(…)` rule approves those of its commands",
                   hint=f"Write `Bash({grant.content})`, or grant `Monitor` bare.")
    if grant.key == "Skill" and skill.inert_reason(grant) is not None:
        return Hit("SGL206", f"`{grant}` grants nothing in Claude Code: a Skill rule is a "
                   "name, or a prefix ending in ` *` or `:*`")
    if grant.key in vocabulary.PATH_RULES_IGNORED and grant.content is not None:
        hint = ("Scope listing with `Read(path)`, or grant `Glob`." if grant.key == "Glob" else
                f"Scope writes with `Edit({grant.content})`, or grant `{grant.tool}`.")
        return Hit("SGL202", f"the runtime never consults path rules for {grant.tool}; "
                   f"`{grant}` grants nothing", hint=hint)
    return None


# ---------------------------------------------------------------------------- command domain


def _command(grant: Grant, shell: bool, shell_tools: frozenset[str]) -> tuple[list[Hit], list[Hit]]:
    """(over-broad hits, non-canonical hits) for a command-domain grant."""
    if command.has_reserved(grant.content):
        return [], []
    pattern = command.compile_pattern(grant.content)
    if pattern.kind is command.Kind.ANY or pattern.globs == (EVERY_TEXT,):
        if not shell:
            return [], []
        return [Hit("SGL101", f"`{grant}` approves every command, e.g. `{RM}`",
                    example=RM)], []
    content = grant.content or ""
    style: list[Hit] = []
    if _LEGACY_LIST.search(content):
        style.append(_several(grant, content))
    elif pattern.kind is command.Kind.PREFIX:
        style.append(_legacy_prefix(grant, content, shell_tools))
    glob = pattern.globs[-1]
    if not shell or glob.stars == 0:
        return [], style
    broad, shape = _shape(grant, glob, pattern.kind)
    return broad, style or shape  # a list in one entry (SGL307) is rewritten anyway


def _legacy_prefix(grant: Grant, content: str, shell_tools: frozenset[str]) -> Hit:
    prefix = _UNESCAPED_STAR.sub(lambda m: m.group(1) or "\\*", content[:-2])
    candidate = f"{grant.tool}({prefix} *)"
    same = (prove(candidate, [str(grant)], shell_tools=shell_tools).covered
            and prove(str(grant), [candidate], shell_tools=shell_tools).covered)
    if not same:
        return Hit("SGL303", "the trailing `:*` is the legacy prefix form")
    return Hit("SGL303", f"the trailing `:*` is the legacy prefix form; `{candidate}` means the "
               "same", hint=f"Write `{candidate}`.", replacement=candidate)


def _several(grant: Grant, content: str) -> Hit:
    pieces = [piece.strip() for piece in content.split(",")]
    message = (f"`{grant}` is one rule, not {len(pieces)}: the runtime reads `{content}` as a "
               "single command pattern, so it approves none of the commands it lists")
    if not all(pieces):
        return Hit("SGL307", message)
    entries = [f"{grant.tool}({p[:-2]} *)" if p.endswith(":*") else f"{grant.tool}({p})"
               for p in pieces]
    fix = ", ".join(entries)
    return Hit("SGL307", message, hint=f"Write `{fix}`.", replacement=fix)


def _shape(grant: Grant, glob: Glob, kind: command.Kind) -> tuple[list[Hit], list[Hit]]:
    """Judge a shell pattern by the words before its first wildcard."""
    lead = glob.segments[0]
    words = lead.split()
    partial = words.pop() if words and not lead[-1].isspace() else ""
    while words and ASSIGNMENT.match(words[0]):
        words.pop(0)
    shown = command.render(lead)
    if not words:
        if not partial.strip("\"'") or partial.endswith("/") or ASSIGNMENT.match(partial):
            payload = "../../../../../../../../bin/rm -rf ~" if partial.endswith("/") else RM
            spot = f"after `{shown.strip()}`" if shown.strip() else "at the start"
            return [Hit("SGL102", f"the `*` {spot} stands where the program goes, so `{grant}` "
                        "runs any program", example=_example(glob, payload))], []
        if any(program_name(partial) in r.programs for r in RUNNERS):
            words, partial = [partial], ""
            lead += " "  # the wildcard absorbs the space after the program name
        elif "/" not in partial and not set(partial) & set("\"'$"):
            raw = (grant.content or "").strip()
            fix = (f"{grant.tool}({raw[:-1]} *)" if glob.stars == 1 and not glob.segments[1]
                   and not raw.endswith("\\*") else None)
            name = command.render(partial)
            return [], [Hit("SGL306", f"the `*` glued to `{name}` also matches other programs "
                            f"whose name starts with `{name}`",
                            hint=f"Write `{fix}`." if fix else None, replacement=fix)]
        else:
            return [], []
    program = program_name(words[0])
    for runner in RUNNERS:
        if program in runner.programs:
            where, owed = wildcard_place(runner, words[1:], partial)
            if where is not None:
                return [_runner_hit(grant, glob, lead, runner, where, owed, partial)], []
    # A whole-word `*` right after the program, with more pattern after it (`git * main`).
    if kind is command.Kind.GLOB and len(words) == 1 and not partial and glob.segments[1][
            :1].isspace() and "".join(glob.segments[1:]).strip():
        said = command.render("<anything>".join(glob.segments))
        return [], [Hit("SGL304", f"the `*` right after `{words[0]}` stands for any subcommand "
                        f"with any options: `{grant}` approves `{said}`")]
    return [], []


def _runner_hit(grant: Grant, glob: Glob, lead: str, runner: Runner, where: str,
                owed: Sequence[str], partial: str) -> Hit:
    payload = {"command": runner.payload, "lead": runner.payload, "code": runner.code_payload,
               "later": runner.later_payload}.get(where)
    if where == "lead" and payload is not None:
        payload = " ".join([*owed, payload])
    example = _example(glob, payload, lead) if payload and not partial else None
    what = {"SGL103": "runs any command", "SGL104": "runs any code",
            "SGL105": "runs any package or command", "SGL106": "can add `-exec` and run any "
            "command", "SGL107": "can start any container with any mounts and command",
            "SGL108": "runs any remote command"}[runner.rule_id]
    said = f", e.g. `{example}`" if example else ""
    return Hit(runner.rule_id, f"`{grant}` {what}{said}", example=example)


def _example(glob: Glob, payload: str, lead: str | None = None) -> str | None:
    """The glob's instance with ``payload`` at the first wildcard (the rest commented out), or
    None when the wildcard sits inside quotes or the text would fall outside the language."""
    head = glob.segments[0] if lead is None else lead
    if head.count('"') % 2 or head.count("'") % 2:
        return None
    rest = "x".join(glob.segments[1:])
    text = head + payload + (" #" + rest if rest.strip() else rest)
    if not glob.matches(text, Budget()):
        return None
    return command.render(text)


# ------------------------------------------------------------------- path, web and MCP domains


def _anchor(content: str) -> tuple[str, str]:
    for anchor in ("//", "~/", "/", "./"):
        if content.startswith(anchor):
            return anchor, content[len(anchor):]
    if content in ("~", "."):
        return content + "/", ""
    return "./", content


def _everything_under(rest: str) -> bool:
    segments = [s for s in rest.split("/") if s]
    return not segments or ("**" in segments and all(s in ("*", "**") for s in segments))


_PLACE = {"//": "on the machine", "~/": "in the home directory", "/": "under the project root",
          "./": "under the working directory"}


def _path(grant: Grant) -> list[Hit]:
    anchor, rest = ("//", "") if grant.content is None else _anchor(grant.content)
    if _everything_under(rest):
        place = _PLACE[anchor]
        if grant.key == "Edit":
            return [Hit("SGL110", f"`{grant}` lets the agent change every file {place}; "
                        "changed hooks, scripts and start-up files run as code")]
        if anchor in ("//", "~/"):
            return [Hit("SGL109", f"`{grant}` lets the agent read every file {place}, "
                        "SSH keys and cloud credentials included")]
        return []
    segments = [s for s in rest.split("/") if s]
    last = segments[-1]
    directory = rest.endswith("/") or ("*" in last and last != "**" and "." not in last)
    if grant.content is None or not directory:
        return []
    base = grant.content.rstrip("/").replace("*", "x")
    return [Hit("SGL113", f"`{grant}` also matches directories; the runtime may then grant "
                f"everything beneath them, such as `{base}/nested/file`",
                example=f"{base}/nested/file")]


def _web(grant: Grant) -> list[Hit]:
    if grant.content is None:
        return [Hit("SGL111", f"`{grant}` fetches from every host")]
    if not grant.content.startswith("domain:"):
        return []
    host = grant.content[len("domain:"):].strip().lower().rstrip(".")
    if host and not host.strip("*."):
        return [Hit("SGL111", f"`{grant}` fetches from every host")]
    tld = host[2:]
    if host.startswith("*.") and tld and "*" not in tld and "." not in tld:
        return [Hit("SGL111", f"`{grant}` fetches from every site under the top-level domain "
                    f"`.{tld}`")]
    return []


def _mcp(grant: Grant) -> list[Hit]:
    server, tool = mcp.split_name(grant.key)
    if tool is not None and tool != "*":
        return []
    return [Hit("SGL112", f"`{grant}` grants every tool of the MCP server `{server}`, including "
                "ones that write or delete and ones it adds later")]




def agent_reach(entries: Sequence[str]) -> list[tuple[int, Hit]]:
    """SGL117: each entry granting a tool that starts subagents (``SUBAGENT_TOOLS``: ``Agent``,
    ``Task``, ``Workflow``, …, spelled as the runtime matches it)
    in a list that pre-approves anything else. Measured on Claude Code 2.1.332
    (tests/conformance/test_subagents_e2e.py): a skill's ``allowed-tools`` pre-approvals reach
    the subagents it starts, its own hook does not, so a subagent runs what they pre-approve
    unjudged unless a settings-level hook follows the skill (gate/subagents.py)."""
    grants = [_live_grant(entry) for entry in entries]
    if not any(g is not None and g.tool in SUBAGENT_TOOLS for g in grants):
        return []  # (most lists: nothing to say, nothing to write)
    others = [entry.strip() for entry, g in zip(entries, grants, strict=True)
              if g is not None and g.tool not in SUBAGENT_TOOLS]
    if not others:
        return []
    shown = ", ".join(f"`{o}`" for o in others[:3]) + (", …" if len(others) > 3 else "")
    return [(i, Hit("SGL117", f"`{entries[i].strip()}` starts subagents, which the plan's "
                    f"other pre-approvals ({shown}) reach and the skill's own hook does not"))
            for i, g in enumerate(grants) if g is not None and g.tool in SUBAGENT_TOOLS]


@lru_cache(maxsize=4096)
def _live_grant(entry: str) -> Grant | None:
    """The grant ``entry`` is under Claude Code, or None when it grants nothing there (a
    function of the entry alone, remembered: a batch's files repeat their entries)."""
    text, problem = screen(entry)
    try:
        grant = None if problem is not None else parse_grant(text)
    except GrantSyntaxError:
        grant = None
    inert = grant is None or inert_reason(grant) is not None or runtime_inert_reason(
        text, grant, claude_code.PROFILE, approved=True) is not None
    return None if inert else grant
