"""Every stable rule ID skillgrant reports, in one catalogue, and which rule a result hits.

Rule IDs are part of the interface (CI filters, SARIF baselines and suppressions key on them): a
rule is never renumbered or reused, and new rules get new IDs. Three families share one ``Rule``:

    SG001–SG011    check/apply: what became of a submitted entry (``CHECK_RULES``)
    SGL001–SGL309  lint: an approved grant that is invalid (SGL0xx), over-broad (SGL1xx), inert
                   (SGL2xx) or non-canonical (SGL3xx) (``LINT_RULES``, docs/lint-rules.md)
    SGD001–SGD004  diff: a grant that is escalated, inert, narrowed or removed (``DIFF_RULES``)

Beside the rules are the lint rules' data: hint templates and the example parts they are filled
with (``HINT_TEMPLATES``, ``HINT_PARTS``) and the bare grants lint calls over-broad
(``BARE_OVER_BROAD``). The renderers (``skillgrant.reports``) and ``review.lint`` read them from
here; nothing here renders anything.
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
     "Kept entry written in its canonical form",
     "The kept entry is written in its canonical form: its tool name in the canonical (or "
     "the covering approved entry's) spelling, since the runtime matches tool names exactly, "
     "and `T()` or `T(*)` as the bare `T`, which grants the same."),
    ("SG008", "duplicate", "note",
     "Repeated entry",
     "The entry is covered but repeats an earlier entry (same canonical form); it is "
     "written once."),
    ("SG009", "runtime-ignores-allowed-tools", "warning",
     "allowed-tools that Claude Code never reads",
     "Claude Code reads the frontmatter differently (it ends it at the first '---', even "
     "inside a value), so this allowed-tools grants nothing at run time."),
    ("SG010", "runtime-merges-entries", "warning",
     "allowed-tools entries that Claude Code reads as one",
     "Claude Code cuts an allowed-tools string only at ',' and ' ' (not at a line break or a "
     "tab), so entries written one a line in a `|` block, or apart by tabs, are read as one "
     "entry that grants nothing. End each line with a comma, or write a list; apply "
     "rewrites the value so."),
    ("SG011", "removes-tools", "note",
     "Tools the skill's disallowed-tools removes",
     "Claude Code takes the tools the skill's `disallowed-tools` (or `disallowedTools`) names "
     "away from the model while the skill runs. The key only narrows what the skill and the "
     "session allow, so skillgrant keeps it as written and does not judge it against the "
     "plan; Copilot CLI does not read it."),
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
     "List the commands the skill runs, one entry per command."),
    ("SGL102", "any-program", "warning",
     "The first wildcard stands where the program name goes, so any program may run.",
     "Name the program (and script) literally; put wildcards only in its arguments."),
    ("SGL103", "command-wrapper", "warning",
     "A wrapper (`sudo`, `env`, `xargs`, `timeout`, …) whose wildcard is the wrapped command.",
     "Grant the wrapped commands themselves."),
    ("SGL104", "code-runner", "warning",
     "A shell or interpreter whose wildcard can supply code (`bash -c`, `python -c`, `eval`).",
     "Grant a script file with its arguments instead of code given as text."),
    ("SGL105", "package-runner", "warning",
     "A package runner (`npx`, `uvx`, `npm exec`, `uv run`, …) whose wildcard is the package.",
     "Name the package (or the command) it runs."),
    ("SGL106", "find-exec", "warning",
     "`find`/`fd` with a wildcard, which can add `-exec` and run any command.",
     "Grant exact commands, or use the Glob tool to list files."),
    ("SGL107", "container-run", "warning",
     "`docker run`/`exec` (or podman) whose wildcard can add images, mounts and commands.",
     "Name the image and the command."),
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
     "List the server's tools the skill uses, one entry per tool."),
    ("SGL113", "directory-subtree", "warning",
     "A path pattern that matches directories; the runtime may grant everything beneath them.",
     "Write `DIR/**` for a whole tree, or name the files."),
    ("SGL114", "write-everywhere", "warning",
     "Bare `Write`: the agent may create or overwrite any file anywhere.",
     "Scope file writes with `Edit(PATH)` entries; the runtime never consults path rules on "
     "`Write`."),
    ("SGL115", "every-skill", "warning",
     "Bare `Skill`: the agent may run every skill, including skills installed later.",
     "List the skills: `Skill(NAME)`, one entry per skill."),
    ("SGL116", "every-agent-type", "warning",
     "Bare `Agent` (or `Task`): the agent may start every type of subagent.",
     "List the agent types: `Agent(TYPE)`, one entry per type."),
    ("SGL117", "agent-reach", "warning",
     "An `Agent` (or `Task`) grant beside other pre-approvals: they reach the subagents it "
     "starts, where the skill's own hook does not (Claude Code 2.1.332).",
     "Install the hook that follows the skill into its subagents (`skillgrant hook "
     "--print-config claude-code --plan PLAN --for-skill NAME`, merged into "
     ".claude/settings.json), or drop the Agent entry."),
    ("SGL201", "removed-tool", "warning",
     "A removed tool name: the grant approves nothing.",
     "Use the tool that replaced it, or drop the entry."),
    ("SGL202", "ignored-path-rule", "warning",
     "A path rule on a tool whose path rules the runtime never consults.",
     "Scope file writes with `Edit(path)` and file listing with `Read(path)`."),
    ("SGL203", "tool-name-glob", "warning",
     "A glob in a tool name (other than at the end of an MCP tool name) matches no tool.",
     "Name the tool."),
    ("SGL204", "mcp-parentheses", "warning",
     "An MCP tool name with parentheses matches no tool.",
     "Drop the parentheses, and name the MCP tool without a wildcard inside its name."),
    ("SGL205", "monitor-rule", "warning",
     "A `Monitor(…)` rule grants nothing in Claude Code; a `Bash(…)` rule approves the Monitor "
     "calls of its commands.",
     "Grant the commands with `Bash(…)`, or grant `Monitor` bare."),
    ("SGL206", "skill-glob", "warning",
     "A `Skill(…)` rule with a `*` other than a trailing ` *` or `:*` grants nothing in Claude "
     "Code.",
     "Name the skill, `Skill(NAME)`, or every skill that starts with a prefix, `Skill(PREFIX *)`."),
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
     "Write the subcommand where the `*` is, one entry per subcommand."),
    ("SGL305", "runtime-tokenization", "error",
     "Claude Code would split the entry differently than it reads; the plan is invalid.",
     "Drop the inner parentheses: the runtime leaves the parentheses at the first `)` and "
     "has no escapes, so a space or comma after an inner `)` ends the entry there."),
    ("SGL306", "wildcard-glued-to-program", "warning",
     "A `*` glued to the program name (`ls*`) also matches other programs (`lsof`).",
     "Put a space between the program name and the `*`."),
    ("SGL307", "several-commands-in-one-entry", "warning",
     "Several legacy prefixes in one entry (`Bash(ls:*, wc:*)`) form one literal prefix.",
     "Write one entry per command."),
    ("SGL308", "star-means-tool-wide", "note",
     "`T()` or `T(*)` grants every use of the tool, not a pattern match.",
     "Write the bare tool name, or a real specifier."),
    ("SGL309", "unknown-tool-name", "warning",
     "A tool name the runtime does not know, close to a built-in one: likely a misspelling, "
     "which grants nothing.",
     "Write the built-in tool's name as the runtime spells it."),
)

#: Lint hints with an example made from the entry at hand: ``review.lint`` fills each field from
#: the entry (``{tool}`` its tool, ``{head}`` its command up to the first wildcard with the words
#: the program still needs, ``{program}`` its program as written, ...). When the entry cannot
#: fill a field, the rule's ``help`` is the hint: an example never names another entry's tool or
#: program.
HINT_TEMPLATES: Final[dict[str, str]] = {
    "SGL101": "List the commands the skill runs, e.g. `{tool}(gh issue list *)`.",
    "SGL103": "Grant the wrapped commands themselves, e.g. `{tool}({head}{wrapped} *)`.",
    "SGL104": "Grant a script file instead, e.g. `{tool}({program} {script} *)`.",
    "SGL105": "Name the package: `{tool}({head}{package} *)`.",
    "SGL106": "Grant exact `{program}` commands, or use the Glob tool to list files.",
    "SGL107": "Name the image and the command: `{tool}({head}{container})`.",
    "SGL112": "List the tools the skill uses, one entry each: `mcp__{server}__TOOL`.",
    "SGL113": "Write `{tool}({stem}/**)` for the whole tree, or name the files "
              "(`{tool}({stem}/*.ts)`).",
    "SGL203": "Name the tool (`mcp__{server}__TOOL`), or end the name in `*` after a prefix "
              "(`mcp__{server}__get_*`).",
    "SGL304": "Write the subcommand where the `*` is, one entry per subcommand: "
              "`{tool}({program} SUBCOMMAND{rest})`.",
    "SGL306": "Put a space between `{glued}` and the `*`.",
}

_SHELLS = ("sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh")
#: The parts of a command hint's example that depend on the program (``review.runners``): each
#: field, by the runner's words (``uv run``), its program, its last word (``exec``), or "" for any
#: other; a field with no entry is left out, and its template falls back to ``help``.
HINT_PARTS: Final[dict[str, dict[str, str]]] = {
    "script": {**dict.fromkeys(_SHELLS, "scripts/report.sh"),
               **dict.fromkeys(("python", "pypy"), "scripts/report.py"),
               **dict.fromkeys(("node", "nodejs", "bun"), "scripts/report.js"),
               **dict.fromkeys(("pwsh", "powershell"), "-File scripts/report.ps1"),
               "deno": "run scripts/report.ts", "perl": "scripts/report.pl",
               "ruby": "scripts/report.rb", "php": "scripts/report.php",
               "lua": "scripts/report.lua", "luajit": "scripts/report.lua",
               "rscript": "scripts/report.R", "osascript": "scripts/report.applescript"},
    "wrapped": {"sudo": "apt-get install", "doas": "apt-get install", "": "pytest"},
    "package": {"uvx": "ruff", "pipx run": "ruff", "uv tool run": "ruff", "uv run": "pytest",
                "poetry run": "pytest", "bundle exec": "rspec", "": "prettier"},
    "container": {"exec": "app npm test", "docker compose run": "--rm app npm test",
                  "podman compose run": "--rm app npm test",
                  "nerdctl compose run": "--rm app npm test",
                  "docker-compose run": "--rm app npm test", "": "--rm node:20 npm test"},
}

#: The bare grants lint calls over-broad beyond the shell, path, web and MCP rules: the rule,
#: and what the grant lets the agent do.
BARE_OVER_BROAD: Final[dict[str, tuple[str, str]]] = {
    "Write": ("SGL114", "create or overwrite any file anywhere, git hooks and shell start-up "
              "files included"),
    "Skill": ("SGL115", "run every skill, including skills installed later"),
    "Agent": ("SGL116", "start every type of subagent, `general-purpose` (with every tool) "
              "included"),
}

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
