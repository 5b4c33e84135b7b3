"""Generated grant pairs for every tool domain, and the calls that probe them (issue 28).

A *pair* is one submitted entry and one approved plan. Each domain has a pool of approved
entries (the forms a plan writes, including ones that grant nothing at runtime) and builds its
submitted entries on purpose from each plan: narrowings of an approved entry (a star replaced,
a prefix lengthened, a path below), the runtime's special forms (exact compound rules, shell
expansion, Skill globs, `Monitor(…)`, MCP names with `__`, misspelt names), and wider or
unrelated entries. Pairs are grouped by plan (``Group``), so the soundness test can judge all
the applied files of one plan in one session (allow rules only add: if the union of the applied
entries allows nothing the plan does not, neither does any one of them).

``calls_for(domain, entry)`` gives the concrete calls that tell an entry's grant apart: members
of its language, and the calls just outside it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cc_domains import MCP_SERVERS, SKILLS, Call


@dataclass(frozen=True)
class Group:
    """The pairs of one plan: every submitted entry judged against ``plan``."""

    domain: str
    plan: tuple[str, ...]
    submitted: tuple[str, ...]


_WORDS = ("zz", "a1", "ab", "b2")
_STAR = re.compile(r"(?<!\\)\*")


def _fill(content: str, word: str) -> str:
    return _STAR.sub(word, content)


def _content(entry: str) -> tuple[str, str | None]:
    name, _, rest = entry.partition("(")
    return name, (rest[:-1] if rest else None)


# --- commands: Bash and Monitor -------------------------------------------------------------

_COMMAND_POOL = ("Bash(touch *)", "Bash(touch a*)", "Bash(rm -f *)", "Bash(touch:*)",
                 "Bash(touch zz)", "Bash(rm -f zz)", "Bash", "Monitor", "Monitor(*)",
                 "Bash(touch zz && rm -f yy)", "bash(touch *)", "Bash(mkdir -p *)",
                 "Monitor(touch *)", "Bash(touch ${HOME}/zz)", "Bash(**)", "Bash( * )",
                 "Bash(eval *)", "Bash(exec:*)", "Bash(setsid *)", "Bash(env *)")
#: The runtime's whole-string forms (issue 28, classes 1 and 2), each a write outside the
#: project or refused by a glob rule's static analysis.
_WHOLE = ("touch zz && touch /dev/shm/zz", "touch zz; touch /dev/shm/zz",
          "touch zz || touch /dev/shm/zz", "touch zz\ntouch /dev/shm/zz",
          "touch zz | touch /dev/shm/zz", "touch zz & touch /dev/shm/zz",
          "touch ${HOME}/zz", "touch $HOME/zz", "touch {a,b}", "touch $'zz'",
          "echo hi > $HOME/zz", "touch $PWD/zz", "eval touch /dev/shm/zz",
          "exec touch /dev/shm/zz", "setsid touch /dev/shm/zz", "env -S touch /dev/shm/zz",
          "touch zz > /dev/shm/zz", "FOO=1 touch /dev/shm/zz")


def _command_narrowings(entry: str, rng: random.Random) -> list[str]:
    name, content = _content(entry)
    tool = "Bash" if name.lower() == "bash" else name
    out = [f"{tool}(touch zz)", f"{tool}(touch ab)", f"{tool}(rm -f zz)"]
    if content and "*" in content:
        out += [f"{tool}({_fill(content, w)})" for w in rng.sample(_WORDS, 2)]
        if content.endswith(" *"):
            out.append(f"{tool}({content[:-2]} zz *)")
        if content.endswith(":*"):
            out.append(f"{tool}({content[:-2]} zz:*)")
    out += [f"Bash({rng.choice(_WHOLE)})", f"Bash({rng.choice(_WHOLE)})"]
    return out


def _command_calls(entry: str) -> list[Call]:
    _, content = _content(entry)
    commands = ["touch zz", "touch ab", "rm -f zz", "touch /dev/shm/zz"]
    if content is not None and content not in ("", "*"):
        literal = content[:-2] if content.endswith(":*") else content
        commands += [_fill(literal, w) for w in ("zz", "ab")]
        if "*" not in literal:
            commands += [literal, f"{literal} zz"]
    return [Call(tool, c) for c in dict.fromkeys(commands) for tool in ("Bash", "Monitor")
            if "\n" not in c or tool == "Bash"]


# --- paths: Read (outside the project), Edit, Write, NotebookEdit (inside) --------------------

_READ_POOL = ("Read(~/docs/**)", "Read(~/docs/*.txt)", "Read(~/docs/a.txt)", "Read(~/**)",
              "Read", "Edit(~/docs/**)", "read(~/docs/**)", "Read(~/src/**)", "Edit",
              "Read(~/docs/sub/**)")
_READ_FILES = ("~/docs/a.txt", "~/docs/b.md", "~/docs/sub/c.txt", "~/src/x.txt", "~/x.txt",
               "~/docsx/a.txt")
_EDIT_POOL = ("Edit(src/**)", "Edit(src/*.txt)", "Edit(src/a.txt)", "Edit", "Edit(docs/**)",
              "edit(src/**)", "Edit(*.txt)", "Edit(src/sub/**)", "Write", "Write(src/**)",
              "Edit(/src/**)", "Edit(/docs/*.txt)", "Read", "Read(src/**)",
              "NotebookEdit", "NotebookEdit(src/*.ipynb)")


def _path_narrowings(entry: str, rng: random.Random) -> list[str]:
    name, content = _content(entry)
    tool = name[0].upper() + name[1:]
    base = (content or "**").replace("**", "sub/**") if content else "src/**"
    anchor = "~/" if entry.startswith(("Read", "read")) or "~/" in entry else ""
    out = [f"{tool}({base})", f"{tool}({anchor}src/a.txt)", f"{tool}({anchor}docs/a.txt)",
           f"{tool}({anchor}docs/*.txt)", f"{tool}({anchor}x.txt)"]
    if content and "*" in content:
        out.append(f"{tool}({content.replace('*', 'a', 1)})")
    if tool in ("Edit", "Write", "NotebookEdit"):
        out.append(f"{rng.choice(('Edit', 'Write', 'NotebookEdit'))}(src/**)")
    return out


def _read_calls(entry: str) -> list[Call]:
    del entry
    return [Call("Read", f) for f in _READ_FILES]


def _edit_calls(entry: str) -> list[Call]:
    del entry
    files = ("src/a.txt", "src/b.md", "src/sub/c.txt", "docs/d.txt", "e.txt", "docsx/f.txt")
    return [*(Call("Edit", f"{f}") for f in files),
            *(Call("Write", f"{f.rsplit('.', 1)[0]}-new.txt") for f in files),
            *(Call("NotebookEdit", f"{f.rsplit('.', 1)[0]}.ipynb") for f in files)]


# --- WebFetch, MCP, Skill, Agent, Glob and Grep -----------------------------------------------

_WEB_POOL = ("WebFetch(domain:example.com)", "WebFetch(domain:*.example.com)",
             "WebFetch(domain:api.example.com)", "WebFetch", "WebFetch(domain:*.org)",
             "webfetch(domain:example.com)", "WebFetch(domain:example.*)")
_URLS = ("https://example.com/x", "https://api.example.com/x", "https://a.b.example.com/x",
         "https://example.org/x", "https://evil.com/x", "https://example.evil.com/x")
_MCP_POOL = ("mcp__a", "mcp__a__*", "mcp__a__get_*", "mcp__a__t", "mcp__a__b",
             "mcp__a__b__*", "mcp__a__b__t", "mcp__ab", "mcp__gh__get_*", "mcp__gh",
             "mcp__gh__list_prs")
_SKILL_POOL = ("Skill(deploy)", "Skill(deploy *)", "Skill(deploy:*)", "Skill(deploy-*)",
               "Skill(o *)", "Skill(other)", "Skill", "Skill(commit *)", "skill(deploy)",
               "Skill(/deploy)")
_AGENT_POOL = ("Agent", "Agent(Explore)", "Agent(general-purpose)", "Task(Explore)", "Task",
               "agent(Explore)", "Bash(touch *)", "Bash(touch sub1)")
_GLOB_POOL = ("Glob", "Grep", "Glob(src/*)", "Grep(*)", "Read", "Read(~/g/**)", "PowerShell",
              "LS", "MultiEdit", "PowerShell(New-Item *)")


def _pool_narrowings(pool: Sequence[str]) -> Callable[[str, random.Random], list[str]]:
    def narrow(entry: str, rng: random.Random) -> list[str]:
        name, content = _content(entry)
        out = list(rng.sample(list(pool), 3))
        if content and "*" in content:
            out += [f"{name}({_fill(content, w)})" for w in ("x", "get_x", "deploy-staging")]
        if entry.startswith("mcp__") and entry.endswith("*"):
            out += [entry[:-1] + "x", entry[:-1] + "t", entry[:-1] + "b__t"]
        elif entry.startswith("mcp__"):
            out += [entry + "__t", entry + "__get_x", entry + "__b__t", entry + "__*"]
        if name.lower() == "skill":
            out += ["Skill(deploy-staging)", "Skill(other)", "Skill(oth *)", "Skill(xo)",
                    "Skill(o*r)"]
        return out
    return narrow


def _mcp_calls(entry: str) -> list[Call]:
    del entry
    return [Call(f"mcp__{server}__{tool}", "") for server, tools in MCP_SERVERS.items()
            for tool in tools]


def _skill_calls(entry: str) -> list[Call]:
    del entry
    return [Call("Skill", name) for name in SKILLS]


def _agent_calls(entry: str) -> list[Call]:
    del entry
    return [Call("Agent", "general-purpose"), Call("Agent", "Explore"),
            Call("Agent:Bash", "general-purpose|touch sub1"),
            Call("Agent:Bash", "general-purpose|touch sub2")]


def _glob_calls(entry: str) -> list[Call]:
    del entry
    return [Call("Glob", "~/g"), Call("Grep", "~/g"), Call("Glob", "src"),
            Call("Read", "~/g/probe.txt"), Call("PowerShell", "New-Item zz"), Call("LS", "~/g"),
            Call("MultiEdit", "src/m.txt")]


def _universe(domain: str) -> tuple[str, ...]:
    """Every submitted entry a pair of ``domain`` may draw beside the plan's own narrowings."""
    if domain == "MCP":
        forms = [f"mcp__{s}" for s in MCP_SERVERS] + [f"mcp__{s}__*" for s in MCP_SERVERS]
        for server, tools in MCP_SERVERS.items():
            forms += [f"mcp__{server}__{t}" for t in tools]
            forms += [f"mcp__{server}__{t[:2]}*" for t in tools]
        return tuple(dict.fromkeys([*forms, "mcp__a__b", "mcp__a__b__*", "mcp__a*"]))
    if domain == "Skill":
        return tuple(f for name in SKILLS for f in (
            f"Skill({name})", f"Skill({name} *)", f"Skill({name}:*)", f"Skill({name[:2]}*)",
            f"Skill(/{name})", f"skill({name})"))
    if domain == "Agent":
        return (*(f for t in ("Explore", "general-purpose", "Plan", "x") for f in (
            f"Agent({t})", f"Task({t})", f"agent({t})")),
            "Agent", "Task", "Bash(touch sub1)", "Bash(touch *)", "Bash(touch sub2)")
    if domain == "WebFetch":
        hosts = ("example.com", "*.example.com", "api.example.com", "example.*", "*.org",
                 "evil.com", "*", "a.b.example.com")
        return (*(f"WebFetch(domain:{h})" for h in hosts), "WebFetch", "webfetch")
    if domain == "Glob, Grep and absent tools":
        return ("Glob", "Grep", "Glob(src/*)", "Grep(*)", "Glob(*)", "Read(~/g/**)", "Read",
                "read(~/g/**)", "Grep(probe)", "glob", "PowerShell", "PowerShell(New-Item zz)",
                "LS", "MultiEdit", "NotebookRead", "TodoRead", "powershell")
    if domain in ("Bash", "Monitor"):
        commands = ("touch zz", "touch ab", "rm -f zz", "touch /dev/shm/zz", "mkdir -p zz")
        return tuple(f"{tool}({c})" for tool in ("Bash", "Monitor") for c in commands) + tuple(
            f"Bash({w})" for w in _WHOLE) + ("Bash", "Monitor", "Bash(touch *)", "Bash(*)",
                                             "Monitor(*)", "bash(touch zz)")
    tools = ("Read",) if domain == "Read" else ("Edit", "Write", "NotebookEdit")
    anchor = "~/" if domain == "Read" else ""
    paths = ("docs/**", "docs/*.txt", "docs/a.txt", "src/**", "src/*.txt", "src/a.txt",
             "**", "*.txt", "src/sub/**", "docsx/**")
    return tuple(f"{t}({anchor}{p})" for t in tools for p in paths) + tools


@dataclass(frozen=True)
class Domain:
    pool: tuple[str, ...]
    narrow: Callable[[str, random.Random], list[str]]
    calls: Callable[[str], list[Call]]


DOMAINS: dict[str, Domain] = {
    "Bash": Domain(_COMMAND_POOL, _command_narrowings, _command_calls),
    "Monitor": Domain(("Monitor", "Monitor(*)", "Monitor(touch *)", "Bash(touch *)", "Bash",
                       "Bash(rm -f *)", "Bash(touch zz)"), _command_narrowings, _command_calls),
    "Read": Domain(_READ_POOL, _path_narrowings, _read_calls),
    "Edit": Domain(_EDIT_POOL, _path_narrowings, _edit_calls),
    "Write": Domain(("Write", "Write(src/**)", "Edit(src/**)", "Edit", "Edit(*.txt)",
                     "write"), _path_narrowings, _edit_calls),
    "NotebookEdit": Domain(("NotebookEdit", "NotebookEdit(src/*.ipynb)", "Edit(src/**)",
                            "Edit", "Edit(**/*.ipynb)"), _path_narrowings, _edit_calls),
    "WebFetch": Domain(_WEB_POOL, _pool_narrowings(_WEB_POOL),
                       lambda e: [Call("WebFetch", u) for u in _URLS]),
    "MCP": Domain(_MCP_POOL, _pool_narrowings(_MCP_POOL), _mcp_calls),
    "Skill": Domain(_SKILL_POOL, _pool_narrowings(_SKILL_POOL), _skill_calls),
    "Agent": Domain(_AGENT_POOL, _pool_narrowings(_AGENT_POOL), _agent_calls),
    "Glob, Grep and absent tools": Domain(_GLOB_POOL, _pool_narrowings(_GLOB_POOL), _glob_calls),
}

#: Submitted entries per plan: the pairs of one plan share its two sessions.
PER_PLAN = 28


def groups(domain: str, pairs: int, seed: int = 28) -> list[Group]:
    """At least ``pairs`` pairs of ``domain``, grouped by plan: plans of one to three pool
    entries, each with the entries built from it on purpose (``Domain.narrow``: the positive
    pairs), then entries drawn from the domain's universe, ``PER_PLAN`` in all."""
    spec = DOMAINS[domain]
    universe = list(dict.fromkeys([*_universe(domain), *spec.pool]))
    rng = random.Random(f"{seed}:{domain}")
    out: list[Group] = []
    total = 0
    while total < pairs:
        plan = tuple(dict.fromkeys(rng.sample(list(spec.pool), rng.randint(1, 3))))
        submitted: dict[str, None] = {}
        for entry in plan:
            submitted.update(dict.fromkeys(spec.narrow(entry, rng)))
        rest = [e for e in universe if e not in submitted]
        rng.shuffle(rest)
        submitted.update(dict.fromkeys(rest[:max(0, PER_PLAN - len(submitted))]))
        out.append(Group(domain, plan, tuple(submitted)))
        total += len(submitted)
    return out


def calls_for(domain: str, entries: Sequence[str]) -> list[Call]:
    """The calls that probe ``entries`` of ``domain``, without repeats."""
    spec = DOMAINS[domain]
    return list(dict.fromkeys(c for e in entries for c in spec.calls(e)))
