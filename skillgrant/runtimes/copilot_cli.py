"""What an ``allowed-tools`` entry grants under GitHub Copilot CLI, as measured on 1.0.102.

Copilot CLI reads the field its own way (``docs/runtime-conformance.md``, "Copilot CLI"; every
rule below is confirmed by a conformance case against the binary):

- A tool name is mapped: ``Bash``/``bash``/``shell`` in any case are the ``shell`` tool;
  ``Write``, ``Edit``, ``create``, ``write``, ``edit`` the ``write`` tool. Read-only tools
  (``Read``, ``view``, ``Grep``, ``Glob``, ``WebFetch``, ``LS``) make no rule. ``*`` and
  ``shell()`` grant nothing. Any other ``Name(x)`` is read as an MCP server's rule.
- A shell call is split into parts; each part has a *key*: the command name, or "command
  subcommand" for tools like git, gh and npm (``gh pr create`` → ``gh pr``). ``shell(X)``
  matches a part whose key is exactly ``X``; ``shell(X:*)`` one whose key is ``X`` or starts
  with ``X␠``. There are no globs: ``shell(gh *)`` matches the key ``gh *`` only.
- A call runs without a question when every part is approved or read-only.

So an entry stands for a set of keys, and an entry is no wider than a plan under Copilot CLI
when its keys are among the plan's: a string inclusion that holds whatever the runtime's list of
subcommand tools and read-only commands is (``covers``). A witness is a command the entry allows
and the plan does not, built so that both possible keys of it (one word or two) decide alike.

Everything here is a pure function of the entry text; ``judge`` is the one the builder asks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, Literal, NamedTuple

from ..verdicts import Verdict
from .profile import COPILOT_KEYS, Profile

#: The runtime, as profiles and reports name it.
NAME: Final = "copilot-cli"
TITLE: Final = "Copilot CLI 1.0.102"

#: Tool names read as the shell tool: the spellings measured, and no others (a plan's name
#: read wider than the runtime reads it could cover what it does not).
SHELL_NAMES: Final = frozenset({"Bash", "bash", "BASH", "Shell", "SHELL", "shell"})
#: Tool names read as the write tool (the shared reference's; `Edit` measured).
WRITE_NAMES: Final = frozenset({"Write", "Edit", "create", "write", "edit"})
#: Tools that make no rule (the shared reference's; `Read` measured). Any other name is an MCP
#: server's rule, decided by identity.
READ_ONLY_NAMES: Final = frozenset({"Read", "view", "Grep", "Glob", "WebFetch"})
#: Commands whose key holds their subcommand, measured: `git commit:*` allows `git commit -m
#: x` and `git commit`, `gh pr:*` allows `gh pr create`, `npm run:*`, `cargo build:*`,
#: `yarn add:*` likewise. So the key of "command subcommand" alone is those two words.
SUBCOMMAND_TOOLS: Final = frozenset({"git", "gh", "npm", "cargo", "yarn"})
#: Of those, the ones whose keys are measured to be two words and no more: `shell(gh pr)`
#: allows `gh pr create`, `shell(gh pr create)` does not; `npm run test:*` allows nothing.
TWO_WORD_TOOLS: Final = frozenset({"gh", "npm"})
#: Commands whose key is measured to be the name alone: `shell(touch zz)`, `rm -f:*`,
#: `docker rm:*` and `kubectl delete:*` approve none of their commands. (The wrappers `env`,
#: `timeout`, `xargs`, `find`, `sudo`, `bash` are keys themselves, but how many words their
#: keys hold was not measured: both are kept possible.)
PLAIN_TOOLS: Final = frozenset({"touch", "rm", "docker", "kubectl"})
#: Words that make a command read-only there whatever follows (no rule needed), and commands
#: read-only as written (measured: bare `gh`, `gh pr list`, `git status`): never a witness.
READ_ONLY_WORDS: Final = frozenset({"ls", "cat", "echo", "pwd", "head", "tail", "wc", "grep",
                                    "which", "true", "date", "cd"})
READ_ONLY_COMMANDS: Final = frozenset({"gh", "gh pr", "git", "npm", "cargo", "yarn",
                                       "gh pr list", "git status"})
#: Witnesses tried against a plan for the tool-wide shell rule, in order.
SHELL_WITNESSES: Final = ("rm -rf build", "touch zz", "mkdir -p zz")

_WORD = r"[A-Za-z0-9_./@+=%^,-]+"
#: A rule content read literally: words of ordinary characters, one space apart.
_PLAIN: Final = re.compile(rf"{_WORD}(?: {_WORD})*")
_ENTRY: Final = re.compile(r"(?s)([^()]*)(?:\((.*)\))?")

#: The copilot-cli profile: its entries are read whole, by ``verdict`` (no domain has its
#: language of command keys).
PROFILE: Final = Profile(
    name=NAME,
    title=TITLE,
    tool_names={},
    names_case_sensitive=False,
    shell_tools=frozenset(),
    entry_reading=COPILOT_KEYS,
)

Kind = Literal["nothing", "shell-all", "exact", "prefix", "write-all", "write", "mcp", "unread"]
Tool = Literal["shell", "write", "mcp", ""]


class Rule(NamedTuple):
    """The rule one entry gives under Copilot CLI.

    ``kind``: ``nothing`` (the entry grants nothing there), ``shell-all`` (every command),
    ``exact``/``prefix`` (shell parts whose key is ``key``, or also starts with ``key␠``),
    ``write-all``/``write`` (file writes: every one, or a rule on ``key``), ``mcp`` (an MCP
    server's rule, ``key`` the entry as written), ``unread`` (a reading this module cannot
    compute exactly: covered by an identical rule only, never a witness).
    """

    kind: Kind
    key: str = ""
    why: str = ""
    tool: Tool = ""


class Judgement(NamedTuple):
    """Whether an entry is no wider than a plan under Copilot CLI.

    ``status`` is ``covered`` (``covered_by`` names the plan entry), ``inert`` (the entry
    grants nothing there), ``not_covered`` (``witness``: a shell command or, for a write rule,
    a file the entry lets the agent write and the plan does not) or ``unknown``.
    """

    status: Literal["covered", "inert", "not_covered", "unknown"]
    reason: str
    covered_by: str | None = None
    witness: str | None = None


@lru_cache(maxsize=512)
def rule(entry: str) -> Rule:
    """The rule ``entry`` gives under Copilot CLI (a pure function of the text, remembered:
    a batch asks it for the same plan entries once a file entry; a plan's few entries stay in
    the cache while a batch's distinct file entries pass through it).

    >>> rule("Bash(gh:*)")
    Rule(kind='prefix', key='gh', why='', tool='shell')
    >>> rule("Bash(gh *)").key
    'gh *'
    >>> rule("Read(//etc/**)").kind
    'nothing'
    """
    text = entry.strip()
    found = _ENTRY.fullmatch(text)
    if found is None:
        return Rule("unread", text, "its parentheses were not measured")
    name, content = found.group(1), found.group(2)
    if not re.fullmatch(r"[A-Za-z0-9_*.-]+", name):
        return Rule("unread", text, "its tool name is not a plain name")
    if "\\" in text or any(ord(c) < 0x20 or c == "\x7f" for c in text):
        tool: Tool = "shell" if name in SHELL_NAMES else ""
        return Rule("unread", text, "it holds characters whose reading was not measured",
                    tool=tool)
    if name == "*":
        return Rule("nothing", why="'*' grants nothing under Copilot CLI")
    if name in READ_ONLY_NAMES:
        return Rule("nothing", why=f"{name} is read-only there: it makes no rule")
    if name in SHELL_NAMES:
        return _shell_rule(content)
    if name in WRITE_NAMES:
        if content is None:
            return Rule("write-all", tool="write")
        return Rule("write", content, tool="write") if content else Rule(
            "nothing", why=f"{name}() grants nothing")
    return Rule("mcp", text, tool="mcp")


def _shell_rule(content: str | None) -> Rule:
    if content is None:
        return Rule("shell-all", tool="shell")
    if content == "":
        return Rule("nothing", why="shell() grants nothing under Copilot CLI")
    prefix = content.endswith(":*")
    key = content[:-2] if prefix else content
    if key == "*" or content == "*":
        return Rule("nothing", why="shell(*) grants nothing: Copilot CLI has no globs")
    words = key.split(" ")
    # A measured tool's keys have a known number of words, so a longer content (of words one
    # space apart, whatever their characters) matches no key, exactly or as a prefix.
    if re.fullmatch(r"[^\s\\\"']+(?: [^\s\\\"']+)*", key) and (
            (len(words) > 1 and words[0] in PLAIN_TOOLS)
            or (len(words) > 2 and words[0] in TWO_WORD_TOOLS)):
        return Rule("nothing", why=f"no command's key is {key!r} there ({words[0]}'s key is "
                    f"{'its name' if words[0] in PLAIN_TOOLS else 'two words'}): it grants "
                    "nothing")
    if not _PLAIN.fullmatch(key.replace("*", "x")) or ":*" in key:
        return Rule("unread", content, "its content is not plain words one space apart",
                    tool="shell")
    if prefix and ((len(words) == 1 and words[0] in PLAIN_TOOLS) or (
            len(words) == 2 and words[0] in TWO_WORD_TOOLS)):
        prefix = False  # no key is longer: the prefix rule approves what the exact one does
    return Rule("prefix" if prefix else "exact", key, tool="shell")


def matches(r: Rule, key: str) -> bool:
    """Whether the shell rule ``r`` approves a command part whose key is ``key``."""
    if r.kind == "shell-all":
        return True
    if r.kind == "exact":
        return key == r.key
    if r.kind == "prefix":
        return key == r.key or key.startswith(r.key + " ")
    return False


def keys_of(command: str) -> tuple[str, ...]:
    """The keys a simple command (no options, no operators) may have: its name, or more of its
    words; a measured tool's one key, else every one its words allow (a witness must then
    hold for each)."""
    words = command.split()
    if not words:
        return ()
    if words[0] in PLAIN_TOOLS or len(words) == 1:
        return (words[0],)
    if words[0] in SUBCOMMAND_TOOLS and (len(words) == 2 or words[0] in TWO_WORD_TOOLS):
        return (" ".join(words[:2]),)
    start = 2 if words[0] in SUBCOMMAND_TOOLS else 1
    return tuple(" ".join(words[:n]) for n in range(start, len(words) + 1))


def covered_by(a: Rule, s: Rule) -> bool:
    """Whether the plan's rule ``a`` approves everything the entry's rule ``s`` approves."""
    if s.kind in ("exact", "prefix"):
        if a.kind == "shell-all":
            return True
        if a.kind == "exact":
            return s.kind == "exact" and s.key == a.key
        return a.kind == "prefix" and (s.key == a.key or s.key.startswith(a.key + " "))
    if s.tool == "shell" and a.kind == "shell-all":
        return True  # shell-all and an unread shell rule
    if s.kind == "write" and a.kind == "write-all":
        return True
    return s.kind != "nothing" and (a.kind, a.key, a.tool) == (s.kind, s.key, s.tool)


def covers(approved: Sequence[str], entry: str) -> str | None:
    """The first approved entry whose rule holds every key ``entry``'s rule approves, or None.

    >>> covers(["Bash(gh *)"], "Bash(gh:*)") is None
    True
    >>> covers(["Bash(gh:*)"], "Bash(gh pr:*)")
    'Bash(gh:*)'
    """
    s = rule(entry)
    return next((a for a in approved if covered_by(rule(a), s)), None)

def judge(entry: str, approved: Sequence[str]) -> Judgement:
    """Whether ``entry`` is no wider than the plan ``approved`` under Copilot CLI, with a
    witness when it is wider and one can be named for certain.

    >>> judge("Bash(gh:*)", ["Bash(gh *)"]).witness
    'gh zz'
    >>> judge("Bash(gh pr:*)", ["Bash(gh:*)"]).status
    'covered'
    """
    s = rule(entry)
    if s.kind == "nothing":
        return Judgement("inert", s.why)
    cover = covers(approved, entry)
    if cover is not None:
        return Judgement("covered", f"{cover!r} approves everything it does there",
                         covered_by=cover)
    rules = [rule(a) for a in approved]
    witness = _witness(s, rules)
    if witness is None:
        return Judgement("unknown", "it is not known to be within the plan there"
                         + (f" ({s.why})" if s.why else ""))
    what = "writes the file" if s.kind in ("write", "write-all") else "runs"
    return Judgement("not_covered", f"it {_describe(s)} there, so the agent {what} "
                     f"{witness!r} without asking, which the plan does not allow",
                     witness=witness)


def _describe(s: Rule) -> str:
    if s.kind == "shell-all":
        return "approves every command"
    if s.kind == "exact":
        return f"approves every command whose key is {s.key!r}"
    if s.kind == "prefix":
        return f"approves every command whose key is {s.key!r} or starts with {s.key + ' '!r}"
    return "approves every file write"


def _witness(s: Rule, plan: Sequence[Rule]) -> str | None:
    """A command (or file) ``s`` approves and no rule of ``plan`` does, for certain, or None."""
    if s.kind == "write-all":
        return None if any(a.kind in ("write-all", "write") for a in plan) else "zz.txt"
    if s.kind == "shell-all":
        candidates = list(SHELL_WITNESSES)
    elif s.kind in ("exact", "prefix") and _PLAIN.fullmatch(s.key):
        words = s.key.split(" ")
        if len(words) == 2 and words[0] not in SUBCOMMAND_TOOLS:
            return None  # its key may never occur: nothing certain to show
        # A prefix rule's command gets an argument; so does an exact one whose key keeps its
        # length with one (a measured tool); any other is run bare (its key is its name).
        longer = s.key + " zz"
        fixed = keys_of(longer) == (s.key,)
        candidates = [longer if s.kind == "prefix" or fixed else s.key]
    else:
        return None
    for command in candidates:
        keys = keys_of(command)
        if command in READ_ONLY_COMMANDS or command.split()[0] in READ_ONLY_WORDS:
            continue
        if all(matches(s, k) for k in keys) and not any(
                matches(a, k) for a in plan for k in keys):
            return command
    return None


def verdict(entry: str, approved: Sequence[str]) -> Verdict:
    """``judge`` as the prover's verdict on ``entry`` (the profile's ``entry_reading``)."""
    got = judge(entry, approved)
    return Verdict(entry, got.status, got.reason, covered_by=got.covered_by, witness=got.witness)
