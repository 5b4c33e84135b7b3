"""Issue 16 for lint: the new rules (a misspelt tool name with "did you mean", bare `Write`,
`Skill` and `Agent`), and hints whose examples belong to the entry at hand. Expected rule IDs,
names and texts are written out here, from the issue and docs/lint-rules.md."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from skillgrant import prove
from skillgrant.prepared import plan_for
from skillgrant.prover import prove_prepared
from skillgrant.review.lint import BY_ID, lint_entries

DOCS = Path(__file__).resolve().parents[1] / "docs" / "lint-rules.md"


def _ids(entry: str, shell_tools: Mapping[str, object] | None = None) -> list[str]:
    return [f.rule_id for f in lint_entries([entry], shell_tools=shell_tools)]


def _only(entry: str, rule_id: str) -> str:
    """The hint of the one finding of ``rule_id`` on ``entry``."""
    [hint] = [f.hint for f in lint_entries([entry]) if f.rule_id == rule_id]
    return hint


# --- the new rules: stable IDs in the right families ---------------------------------------


def test_new_rules_have_new_ids_in_their_families() -> None:
    # SGL1xx over-broad, SGL3xx non-canonical; no ID before them was renumbered or reused.
    expected = {
        "SGL114": ("write-everywhere", "warning", "over-broad"),
        "SGL115": ("every-skill", "warning", "over-broad"),
        "SGL116": ("every-agent-type", "warning", "over-broad"),
        "SGL309": ("unknown-tool-name", "warning", "non-canonical"),
        # Issue 33: a skill's pre-approvals reach the subagents an Agent grant starts.
        "SGL117": ("agent-reach", "warning", "over-broad"),
        # Issue 28: forms Claude Code 2.1.332 reads as granting nothing.
        "SGL205": ("monitor-rule", "warning", "inert"),
        "SGL206": ("skill-glob", "warning", "inert"),
    }
    for rule_id, (name, severity, category) in expected.items():
        rule = BY_ID[rule_id]
        assert (rule.name, rule.severity, rule.category) == (name, severity, category)
    before = {"SGL001", "SGL002", *(f"SGL1{n:02}" for n in range(1, 14)),
              *(f"SGL20{n}" for n in range(1, 5)), *(f"SGL30{n}" for n in range(1, 9))}
    assert set(BY_ID) == before | set(expected)
    assert BY_ID["SGL113"].name == "directory-subtree" and BY_ID["SGL308"].name == (
        "star-means-tool-wide")


@pytest.mark.parametrize("rule_id", ["SGL114", "SGL115", "SGL116", "SGL117", "SGL309"])
def test_new_rules_are_documented_like_the_others(rule_id: str) -> None:
    text = DOCS.read_text(encoding="utf-8")
    rule = BY_ID[rule_id]
    heading = f"### {rule_id} `{rule.name}` ({rule.severity})"
    assert heading in text
    section = text.split(heading, 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
    for part in ("**Rationale.**", "**Flagged:**", "**Not flagged:**", "**Fix:**"):
        assert part in section, (rule_id, part)


LINT_TABLE: list[tuple[str, list[str], list[str]]] = [
    ("SGL114", ["Write", "Write()", "Write(*)", "write", "WRITE"],
     ["Edit(docs/**)", "Write(src/**)", "TodoWrite", "Read"]),
    ("SGL115", ["Skill", "Skill(*)", "Skill()", "skill"],
     ["Skill(commit)", "Skill(deploy *)", "Skill(deploy:*)"]),
    ("SGL116", ["Agent", "Agent(*)", "Task", "task", "Task()"],
     ["Agent(reviewer)", "Task(reviewer)", "TaskStop", "TaskOutput"]),
    ("SGL309", ["Wirte", "wirte", "Raed(src/**)", "WebFecth(domain:example.com)", "Gerp",
                "Bassh(ls)", "Monitr"],
     ["Write", "write", "my_tool", "exec_command", "shell", "mcp__gh__get_issue", "LS", "Task",
      "KillShell", "B*", "mcp__Wirte"]),
]


@pytest.mark.parametrize(("rule_id", "entry", "fires"), [
    pytest.param(rule, entry, fires, id=f"{rule}{'+' if fires else '-'}{entry}")
    for rule, positive, negative in LINT_TABLE
    for entry, fires in [*((e, True) for e in positive), *((e, False) for e in negative)]
])
def test_rule_table(rule_id: str, entry: str, fires: bool) -> None:
    assert (rule_id in _ids(entry)) is fires


def test_new_over_broad_messages() -> None:
    found = [f for entry in ("Write", "Skill", "Agent") for f in lint_entries([entry])]
    assert [(f.rule_id, f.message, f.hint) for f in found] == [
        ("SGL114", "`Write` lets the agent create or overwrite any file anywhere, git hooks and "
         "shell start-up files included",
         "Scope file writes with `Edit(PATH)` entries; the runtime never consults path rules on "
         "`Write`."),
        ("SGL115", "`Skill` lets the agent run every skill, including skills installed later",
         "List the skills: `Skill(NAME)`, one entry per skill."),
        ("SGL116", "`Agent` lets the agent start every type of subagent, `general-purpose` (with "
         "every tool) included",
         "List the agent types: `Agent(TYPE)`, one entry per type."),
    ]


@pytest.mark.parametrize(("entries", "flagged"), [
    (["Bash(touch *)", "Agent(general-purpose)"], [1]),
    (["Agent(fork)", "Read(src/**)", "Task(reviewer)"], [0, 2]),
    (["Agent", "Bash(echo *)"], [0]),
    (["Agent(general-purpose)"], []),  # nothing else is pre-approved
    (["Agent(reviewer)", "Task(x)"], []),
    (["Agent(fork)", "LS", "Monitor(x)"], []),  # the others grant nothing
    (["agent(fork)", "Bash(ls)"], []),  # `agent` grants nothing: the runtime matches exactly
    (["Bash(ls)", "Read"], []),
])
def test_an_agent_grant_beside_pre_approvals_is_flagged(entries: list[str],
                                                         flagged: list[int]) -> None:
    found = [f for f in lint_entries(entries) if f.rule_id == "SGL117"]
    assert [f.index for f in found] == flagged
    for finding in found:
        assert "pre-approvals" in finding.message and "--for-skill" in finding.hint
        assert finding.entry == entries[finding.index or 0]


def test_bare_forms_keep_their_other_findings() -> None:
    assert _ids("Task") == ["SGL116", "SGL302"]
    assert _ids("Write(*)") == ["SGL114", "SGL308"]
    assert _ids("skill") == ["SGL115", "SGL301"]
    assert _ids("Write(src/**)") == ["SGL202"]  # inert: never also over-broad


def test_misspelt_name_says_did_you_mean() -> None:
    [finding] = lint_entries(["Raed(src/**)"])
    assert finding.rule_id == "SGL309"
    assert finding.message == ("the runtime knows no tool named `Raed`, so the entry likely "
                               "grants nothing; did you mean `Read`?")
    assert finding.hint == "Write `Read(src/**)` if that is the tool you meant."
    assert finding.replacement is None  # a guess is never given as what to write


def test_misspelt_name_lists_every_near_name() -> None:
    [finding] = lint_entries(["WebSerch"])
    assert finding.message.endswith("did you mean `WebSearch` or `WebFetch`?")
    assert finding.hint == "Write `WebSearch` if that is the tool you meant."


def test_declared_shell_tools_are_never_misspellings() -> None:
    aliases = {"Bassh": {"command-argument": "cmd"}}
    assert "SGL309" in _ids("Bassh(ls)")
    assert "SGL309" not in _ids("Bassh(ls)", shell_tools=aliases)


def test_the_prover_agrees_the_misspelt_entry_is_not_the_built_in_one() -> None:
    # SGL309 is a spelling finding, not an inert one: the prover judges the name as a tool of
    # its own, never as the tool it looks like.
    assert prove("Raed(src/**)", ["Read(src/**)"]).status == "not_covered"
    assert prove("Raed(src/**)", ["Raed(src/**)"]).covered


# --- 6. hints name the entry at hand ---------------------------------------------------------


@pytest.mark.parametrize(("entry", "rule_id", "hint"), [
    ("Bash(sudo *)", "SGL103",
     "Grant the wrapped commands themselves, e.g. `Bash(sudo apt-get install *)`."),
    ("Bash(sudo -u deploy *)", "SGL103",
     "Grant the wrapped commands themselves, e.g. `Bash(sudo -u deploy apt-get install *)`."),
    ("Bash(env *)", "SGL103", "Grant the wrapped commands themselves, e.g. `Bash(env pytest *)`."),
    ("Bash(timeout *)", "SGL103",
     "Grant the wrapped commands themselves, e.g. `Bash(timeout 10 pytest *)`."),
    ("Monitor(nice -n 5 *)", "SGL205",
     "Write `Bash(nice -n 5 *)`, or grant `Monitor` bare."),
    ("Bash(env -S *)", "SGL103", "Grant the wrapped commands themselves."),
    ("Bash(bash -c *)", "SGL104",
     "Grant a script file instead, e.g. `Bash(bash scripts/report.sh *)`."),
    ("Bash(python3 -c *)", "SGL104",
     "Grant a script file instead, e.g. `Bash(python3 scripts/report.py *)`."),
    ("Bash(node -e *)", "SGL104",
     "Grant a script file instead, e.g. `Bash(node scripts/report.js *)`."),
    ("PowerShell(pwsh -Command *)", "SGL104",
     "Grant a script file instead, e.g. `PowerShell(pwsh -File scripts/report.ps1 *)`."),
    ("Bash(eval *)", "SGL104",
     "Grant a script file with its arguments instead of code given as text."),
    ("Bash(npx *)", "SGL105", "Name the package: `Bash(npx prettier *)`."),
    ("Bash(uvx *)", "SGL105", "Name the package: `Bash(uvx ruff *)`."),
    ("Bash(uv run *)", "SGL105", "Name the package: `Bash(uv run pytest *)`."),
    ("Bash(npm *)", "SGL105", "Name the package: `Bash(npm exec prettier *)`."),
    ("Bash(find *)", "SGL106", "Grant exact `find` commands, or use the Glob tool to list files."),
    ("Bash(fd *)", "SGL106", "Grant exact `fd` commands, or use the Glob tool to list files."),
    ("Bash(docker run *)", "SGL107",
     "Name the image and the command: `Bash(docker run --rm node:20 npm test)`."),
    ("Bash(podman run *)", "SGL107",
     "Name the image and the command: `Bash(podman run --rm node:20 npm test)`."),
    ("Bash(docker exec *)", "SGL107",
     "Name the image and the command: `Bash(docker exec app npm test)`."),
    ("Bash", "SGL101", "List the commands the skill runs, e.g. `Bash(gh issue list *)`."),
    ("PowerShell", "SGL101",
     "List the commands the skill runs, e.g. `PowerShell(gh issue list *)`."),
    ("mcp__postgres", "SGL112",
     "List the tools the skill uses, one entry each: `mcp__postgres__TOOL`."),
    ("Read(build/)", "SGL113",
     "Write `Read(build/**)` for the whole tree, or name the files (`Read(build/*.ts)`)."),
    ("Edit(lib/*)", "SGL113",
     "Write `Edit(lib/**)` for the whole tree, or name the files (`Edit(lib/*.ts)`)."),
    ("mcp__gh__get_*_x", "SGL203",
     "Name the tool (`mcp__gh__TOOL`), or end the name in `*` after a prefix "
     "(`mcp__gh__get_*`)."),
    ("B*", "SGL203", "Name the tool."),
    ("mcp__*(x)", "SGL204",
     "Drop the parentheses, and name the MCP tool without a wildcard inside its name."),
    ("Bash(gh * --json *)", "SGL304",
     "Write the subcommand where the `*` is, one entry per subcommand: "
     "`Bash(gh SUBCOMMAND --json *)`."),
    ("Bash(ls* -l)", "SGL306", "Put a space between `ls` and the `*`."),
    ("Bash(ls:*,,wc:*)", "SGL307", "Write one entry per command."),
])
def test_hint_examples_come_from_the_entry(entry: str, rule_id: str, hint: str) -> None:
    assert _only(entry, rule_id) == hint


def test_a_declared_shell_alias_gets_hints_in_its_own_name() -> None:
    aliases = {"exec_command": {"command-argument": "cmd"}}
    [wide] = lint_entries(["exec_command"], shell_tools=aliases)
    assert wide.hint == "List the commands the skill runs, e.g. `exec_command(gh issue list *)`."
    [wrapper] = lint_entries(["exec_command(sudo *)"], shell_tools=aliases)
    assert wrapper.hint == ("Grant the wrapped commands themselves, e.g. "
                            "`exec_command(sudo apt-get install *)`.")


# Every broad, wrapper-like or misspelt entry a reviewer might meet; each hint is checked below.
CORPUS = [
    "Bash", "Monitor", "PowerShell", "Bash(*)", "Bash(sudo *)", "Bash(doas *)", "Bash(env *)",
    "Bash(env FOO=1 *)", "Bash(xargs *)", "Bash(xargs -n 1 *)", "Bash(nohup *)", "Bash(nice *)",
    "Bash(timeout *)", "Bash(chroot *)", "Bash(stdbuf -oL *)", "Bash(sudo:*)", "Bash(sudo*)",
    "Bash(bash -c *)", "Bash(sh *)", "Bash(sh:*)", "Bash(zsh -lc *)", "Bash(python *)",
    "Bash(python3 -c *)", "Bash(/usr/bin/python3.12 *)", "Bash(node -e *)", "Bash(bun -e *)",
    "Bash(deno eval *)", "Bash(perl -e *)", "Bash(ruby -e *)", "Bash(lua -e *)",
    "Bash(Rscript -e *)", "Bash(osascript -e *)", "Bash(eval *)", "Bash(su -c *)",
    "PowerShell(iex *)", "PowerShell(pwsh -Command *)", "Bash(cmd /c *)", "Bash(npx *)",
    "Bash(npx -y *)", "Bash(pnpx *)", "Bash(bunx *)", "Bash(npm *)", "Bash(npm exec *)",
    "Bash(npm x *)", "Bash(pnpm dlx *)", "Bash(yarn dlx *)", "Bash(pnpm exec *)", "Bash(uvx *)",
    "Bash(uv run *)", "Bash(uv tool run *)", "Bash(pipx run *)", "Bash(poetry run *)",
    "Bash(bundle exec *)", "Bash(find *)", "Bash(find . -name *.py)", "Bash(fd *)",
    "Bash(docker *)", "Bash(docker run *)", "Bash(podman run *)", "Bash(docker compose run *)",
    "Bash(docker-compose run *)", "Bash(nerdctl exec *)", "Bash(ssh *)", "Bash(ssh host *)",
    "Bash(* --version)", "Bash(./scripts/*.sh)", "Bash(git * main)", "Bash(gh * --json *)",
    "Bash(ls*)", "Bash(git*)", "Bash(ls:*, wc:*)", "Bash(git add:*)", "Monitor(nice -n 5 *)",
    "Read", "Read(//**)", "Read(~/**)", "Read(src/*)", "Read(build-*)", "Edit", "Edit(**)",
    "Edit(src/*)", "WebFetch", "WebFetch(domain:*.com)", "mcp__github", "mcp__postgres__*",
    "mcp__gh__get_*_x", "mcp__gh(x)", "B*", "*", "LS", "MultiEdit", "Write(src/**)",
    "Glob(src/**)", "NotebookEdit(x)", "bash(gh *)", "Task(reviewer)", "Glob(*)", "Write",
    "Skill", "Agent", "Task", "Wirte", "Raed(src/**)", "Skil", "Agnet",
]

# Tools a hint may name besides the entry's own: the tool that replaces it (semantics §3: path
# rules for Write, Glob and NotebookEdit live on Edit and Read; removed names' successors) and
# the tool named in a did-you-mean.
OTHER_TOOLS = {"Write": {"Edit"}, "NotebookEdit": {"Edit"}, "Glob": {"Read"}, "LS": {"Bash"},
               "MultiEdit": {"Edit"}, "Wirte": {"Write"}, "Raed": {"Read"}, "Skil": {"Skill"},
               "Agnet": {"Agent"}, "Monitor": {"Bash"}}
_QUOTED = re.compile(r"`([A-Za-z][A-Za-z0-9_-]*)\(([^`]*)\)`")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def _program(specifier: str) -> str | None:
    """The first word of a command that is not an assignment (test-side, naive)."""
    words = [w for w in specifier.replace(":*", " ").replace("*", " ").split()
             if not _ASSIGNMENT.match(w)]
    return words[0] if words else None


@pytest.mark.parametrize("entry", CORPUS)
def test_no_hint_names_another_entrys_tool_or_program(entry: str) -> None:
    tool, _, rest = entry.partition("(")
    canonical = {"Task": "Agent", "bash": "Bash"}.get(tool, tool)
    allowed = {tool, canonical, *OTHER_TOOLS.get(tool, ())}
    program = _program(rest[:-1]) if rest else None
    for finding in lint_entries([entry]):
        for named, specifier in _QUOTED.findall(finding.hint):
            assert named in allowed, (entry, finding.rule_id, finding.hint)
            if named == canonical and program is not None and named in ("Bash", "Monitor",
                                                                          "PowerShell"):
                assert _program(specifier) == program, (entry, finding.rule_id, finding.hint)
        if "sudo" not in entry:
            assert "sudo" not in finding.hint, (entry, finding.hint)
        if "git" not in entry:
            assert "git checkout" not in finding.hint, (entry, finding.hint)
        if not entry.startswith("mcp__github"):
            assert "mcp__github" not in finding.hint, (entry, finding.hint)


NARROWING = ("SGL101", "SGL103", "SGL105", "SGL107")


@pytest.mark.parametrize("entry", [e for e in CORPUS if e.startswith(("Bash", "Monitor"))])
def test_every_command_hint_example_is_a_narrower_grant(entry: str) -> None:
    # Where the advice is to narrow the grant (a shell tool-wide, a wrapper, a package runner,
    # a container), the example must be covered by the entry itself: it narrows the grant,
    # never swaps it for another program's. (A code runner's advice is a script instead of
    # code, which is another grant, not a narrower one.)
    for finding in lint_entries([entry]):
        for named, specifier in _QUOTED.findall(finding.hint):
            if named in ("Bash", "Monitor") and finding.rule_id in NARROWING:
                example = f"{named}({specifier})"
                # Narrower in the language (the plan's own vocabulary): under Claude Code a
                # `Bash(…)` rule also approves Monitor calls, which a bare Bash does not.
                assert prove_prepared(example, plan_for([entry], None, None)).covered, (
                    entry, example)
