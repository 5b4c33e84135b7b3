"""Every stable rule ID skillgrant reports, in one catalogue, and which rule a result hits.

Rule IDs are part of the interface (CI filters, SARIF baselines and suppressions key on them): a
rule is never renumbered or reused, and new rules get new IDs. Three families share one ``Rule``:

    SG001–SG009    check/apply: what became of a submitted entry (``CHECK_RULES``)
    SGL001–SGL308  lint: an approved grant that is invalid (SGL0xx), over-broad (SGL1xx), inert
                   (SGL2xx) or non-canonical (SGL3xx) (``LINT_RULES``, docs/lint-rules.md)
    SGD001–SGD004  diff: a grant that is escalated, inert, narrowed or removed (``DIFF_RULES``)

The renderers (``skillgrant.reports``) and ``review.lint`` read them from here; nothing here
renders anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:
    from .verdicts import Verdict

#: A rule's default level, as SARIF names it (a GitHub annotation's ``note`` is ``notice``).
Level = Literal["error", "warning", "note"]
#: A lint finding's severity: a level, with ``info`` for ``note``.
Severity = Literal["error", "warning", "info"]
#: What kind of problem a lint rule reports; the first digit of its ID says which.
Category = Literal["invalid", "over-broad", "inert", "non-canonical"]

_SEVERITY: Final[dict[Level, Severity]] = {"error": "error", "warning": "warning", "note": "info"}
_CATEGORY: Final[dict[str, Category]] = {"SGL0": "invalid", "SGL1": "over-broad",
                                         "SGL2": "inert", "SGL3": "non-canonical"}


@dataclass(frozen=True)
class Rule:
    """One stable rule: ``id`` never changes meaning, ``name`` is kebab-case, ``level`` its
    default level; ``summary`` says in a line what a hit means, ``help`` how to read or fix one
    (a lint rule's default hint)."""

    id: str
    name: str
    level: Level
    summary: str
    help: str

    @property
    def rule_id(self) -> str:
        """``id``, by the name lint findings and docs/lint-rules.md give it."""
        return self.id

    @property
    def severity(self) -> Severity:
        """``level`` as lint reports it."""
        return _SEVERITY[self.level]

    @property
    def category(self) -> Category | None:
        """A lint rule's category (from its ID); None for the rules of other commands."""
        return _CATEGORY.get(self.id[:4])


#: A row of a rule table: id, name, level, summary, help.
_Row = tuple[str, str, Level, str, str]


def _table(*rows: _Row) -> tuple[Rule, ...]:
    return tuple(Rule(*row) for row in rows)


CHECK_RULES: Final = _table(
    ("SG001", "not-covered", "error",
     "Grant wider than the approved plan",
     "The submitted grant allows an invocation (the witness) that no approved grant "
     "allows. It is dropped."),
    ("SG002", "unknown", "warning",
     "Grant not proven to be within the plan",
     "skillgrant could not prove the grant is covered (an undecided form, a limit, or the "
     "work budget). It is dropped: unproven grants are never kept."),
    ("SG003", "invalid", "error",
     "Entry that does not parse",
     "The entry does not follow the allowed-tools entry grammar. It is dropped."),
    ("SG004", "inert", "warning",
     "Entry that grants nothing",
     "The runtime grants nothing for this entry (a removed tool name, a path rule on a "
     "tool that ignores path rules, a tool-name glob). It is dropped."),
    ("SG005", "ambiguous", "error",
     "Entry the runtime would read differently",
     "Claude Code's own splitter would not read this text as this one entry. It is "
     "dropped."),
    ("SG006", "restored", "warning",
     "Approved grants restored",
     "Nothing submitted survived, so the approved entries were written: an absent "
     "allowed-tools may mean the agent's wider default set."),
    ("SG007", "tool-name-normalized", "note",
     "Kept entry written in canonical spelling",
     "The runtime matches tool names exactly; the kept entry is written with the "
     "canonical (or the covering approved entry's) spelling."),
    ("SG008", "duplicate", "note",
     "Repeated entry",
     "The entry is covered but repeats an earlier entry (same canonical form); it is "
     "written once."),
    ("SG009", "runtime-ignores-allowed-tools", "warning",
     "allowed-tools that Claude Code never reads",
     "Claude Code reads the frontmatter differently (it ends it at the first '---', even "
     "inside a value), so this allowed-tools grants nothing at run time."),
)

LINT_RULES: Final = _table(
    ("SGL001", "invalid-entry", "error",
     "The entry does not follow the entry grammar; the plan is invalid.",
     "Write `Tool` or `Tool(specifier)`, escaping literal parentheses as `\\(` and `\\)`."),
    ("SGL002", "over-limit", "error",
     "The entry (or the list) is over a named limit; the plan is invalid.",
     "Split the pattern into shorter, more specific entries."),
    ("SGL101", "tool-wide-shell", "warning",
     "A shell tool granted tool-wide approves every command.",
     "List the commands the skill runs, e.g. `Bash(gh issue list *)`."),
    ("SGL102", "any-program", "warning",
     "The first wildcard stands where the program name goes, so any program may run.",
     "Name the program (and script) literally; put wildcards only in its arguments."),
    ("SGL103", "command-wrapper", "warning",
     "A wrapper (`sudo`, `env`, `xargs`, `timeout`, …) whose wildcard is the wrapped command.",
     "Grant the wrapped commands themselves, e.g. `Bash(sudo apt-get install *)`."),
    ("SGL104", "code-runner", "warning",
     "A shell or interpreter whose wildcard can supply code (`bash -c`, `python -c`, `eval`).",
     "Grant a script file instead, e.g. `Bash(python3 scripts/report.py *)`."),
    ("SGL105", "package-runner", "warning",
     "A package runner (`npx`, `uvx`, `npm exec`, `uv run`, …) whose wildcard is the package.",
     "Name the package: `Bash(npx prettier *)`."),
    ("SGL106", "find-exec", "warning",
     "`find`/`fd` with a wildcard, which can add `-exec` and run any command.",
     "Grant exact `find` commands, or use the Glob tool to list files."),
    ("SGL107", "container-run", "warning",
     "`docker run`/`exec` (or podman) whose wildcard can add images, mounts and commands.",
     "Name the image and the command: `Bash(docker run --rm node:20 npm test)`."),
    ("SGL108", "remote-shell", "warning",
     "`ssh` with a wildcard: any command on the remote host, and local ones via options.",
     "Grant exact `ssh` commands."),
    ("SGL109", "read-everywhere", "warning",
     "Read access to the whole machine or the whole home directory.",
     "Scope reads to the project: `Read(./**)` or `Read(src/**)`."),
    ("SGL110", "edit-everywhere", "warning",
     "Edit access to every file under an anchor (project, home, or the machine).",
     "Name the files or directories the skill edits: `Edit(docs/**)`."),
    ("SGL111", "any-host", "warning",
     "WebFetch for every host (bare `WebFetch`, `domain:*`) or a whole top-level domain.",
     "List the hosts: `WebFetch(domain:api.github.com)`."),
    ("SGL112", "whole-mcp-server", "warning",
     "Every tool of an MCP server, including tools it adds later.",
     "List the tools: `mcp__github__get_issue`."),
    ("SGL113", "directory-subtree", "warning",
     "A path pattern that matches directories; the runtime may grant everything beneath them.",
     "Write `dir/**` for a whole tree, or name the files (`src/*.ts`)."),
    ("SGL201", "removed-tool", "warning",
     "A removed tool name: the grant approves nothing.",
     "Use the tool that replaced it, or drop the entry."),
    ("SGL202", "ignored-path-rule", "warning",
     "A path rule on a tool whose path rules the runtime never consults.",
     "Scope file writes with `Edit(path)` and file listing with `Read(path)`."),
    ("SGL203", "tool-name-glob", "warning",
     "A glob in a tool name (other than at the end of an MCP tool name) matches no tool.",
     "Name the tool: `Bash(…)`, `mcp__server__tool`, or `mcp__server__get_*`."),
    ("SGL204", "mcp-parentheses", "warning",
     "An MCP tool name with parentheses matches no tool.",
     "Drop the parentheses: `mcp__github__get_issue`."),
    ("SGL301", "tool-name-case", "warning",
     "A built-in tool name in another case; the runtime matches tool names exactly.",
     "Write the canonical spelling."),
    ("SGL302", "legacy-alias", "note",
     "An old tool name the runtime still accepts as an alias.",
     "Write the current name."),
    ("SGL303", "legacy-prefix", "note",
     "The legacy `:*` prefix form; ` *` means the same and is the current form.",
     "Replace the trailing `:*` with ` *`."),
    ("SGL304", "wildcard-before-subcommand", "warning",
     "A `*` between a program and its subcommand (`git * main`) matches any subcommand.",
     "Name the subcommand first: `Bash(git checkout main)`, `Bash(git push origin *)`."),
    ("SGL305", "runtime-tokenization", "error",
     "Claude Code would split the entry differently than it reads; the plan is invalid.",
     "Drop the inner parentheses: the runtime leaves the parentheses at the first `)` and "
     "has no escapes, so a space or comma after an inner `)` ends the entry there."),
    ("SGL306", "wildcard-glued-to-program", "warning",
     "A `*` glued to the program name (`ls*`) also matches other programs (`lsof`).",
     "Put a space before the `*`: `Bash(ls *)`."),
    ("SGL307", "several-commands-in-one-entry", "warning",
     "Several legacy prefixes in one entry (`Bash(ls:*, wc:*)`) form one literal prefix.",
     "Write one entry per command: `Bash(ls *), Bash(wc *)`."),
    ("SGL308", "star-means-tool-wide", "note",
     "`T()` or `T(*)` grants every use of the tool, not a pattern match.",
     "Write the bare tool name, or a real specifier."),
)

DIFF_RULES: Final = _table(
    ("SGD001", "escalated", "error",
     "Grant not covered by the old version",
     "The new version grants an invocation (the witness) that no old grant allows, or one "
     "skillgrant cannot prove an old grant allows (unknown, invalid, ambiguous): a "
     "capability escalation."),
    ("SGD002", "inert-added", "warning",
     "New entry that grants nothing",
     "The runtime grants nothing for this entry (a removed tool name, an ignored path "
     "rule, a tool-name glob); it is likely a mistake."),
    ("SGD003", "narrowed", "note",
     "Grant narrowed",
     "The new entry is covered by an old grant the new version no longer has."),
    ("SGD004", "removed", "note",
     "Grant removed",
     "An old grant the new version no longer grants (the witness is an example)."),
)

RULES: Final[tuple[Rule, ...]] = CHECK_RULES + LINT_RULES + DIFF_RULES
RULE_BY_ID: Final[dict[str, Rule]] = {rule.id: rule for rule in RULES}

#: The rule a verdict that is not kept hits, by its status.
STATUS_RULE: Final = {"not_covered": "SG001", "unknown": "SG002", "invalid": "SG003",
                      "inert": "SG004", "ambiguous": "SG005"}
#: The rule a diff entry hits, by its kind (the other kinds are not findings).
DIFF_KIND_RULE: Final = {"escalated": "SGD001", "inert": "SGD002", "narrowed": "SGD003",
                         "removed": "SGD004"}


def status_rule(status: str) -> Rule | None:
    """The rule a verdict of this status hits when it is dropped, or None (``covered``)."""
    rule_id = STATUS_RULE.get(status)
    return None if rule_id is None else RULE_BY_ID[rule_id]


def rule_for(verdict: Verdict) -> Rule | None:
    """The rule a verdict hits, or None for a kept entry written as given."""
    dropped = status_rule(verdict.status)
    if dropped is not None:
        return dropped
    if verdict.duplicate:
        return RULE_BY_ID["SG008"]
    if verdict.written is not None and verdict.written != verdict.entry.strip():
        return RULE_BY_ID["SG007"]
    return None


def diff_rule(kind: str) -> Rule | None:
    """The rule a diff entry of this kind hits, or None for a kind that is not a finding."""
    rule_id = DIFF_KIND_RULE.get(kind)
    return None if rule_id is None else RULE_BY_ID[rule_id]
