"""Plan review (semantics §8, issue 8): one table row per lint rule ID with entries that must and
must not fire it; the diff kinds (escalation with its witness, narrowing, identity, reordering,
case-only changes); reading ``REV:path`` from git; the docs page listing every rule."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pinned
import pytest
from reference import Mode, ref_allows

from skillgrant import PlanError, SkillgrantError, parse_grant, prove
from skillgrant.limits import MAX_ENTRIES_PER_VALUE, MAX_ENTRY_LENGTH, MAX_WILDCARDS_PER_PATTERN
from skillgrant.prepared import plan_for
from skillgrant.prover import prove_prepared
from skillgrant.review.lint import (
    BY_ID,
    RULES,
    DiffResult,
    Finding,
    RevisionError,
    diff_entries,
    lint_entries,
    read_revision,
)

DOCS = Path(__file__).resolve().parents[1] / "docs" / "lint-rules.md"

# rule ID, entries that fire it, entries that do not. Expectations come from the issue text and
# semantics §3, §4.1–§4.4 and §8, not from running the linter.
LINT_TABLE: list[tuple[str, list[str], list[str]]] = [
    ("SGL001", ["Bash(", "Bаsh(ls)", "Bash(ls)x", "Read\x00", "(ls)"],
     ["Bash(ls)", "Bash(echo \\))"]),
    ("SGL002", ["Bash(" + "a" * MAX_ENTRY_LENGTH + ")",
                "Bash(" + "a* " * (MAX_WILDCARDS_PER_PATTERN + 1) + ")"],
     ["Bash(" + "a* " * 10 + ")"]),
    ("SGL101", ["Bash", "Bash(*)", "Bash()", "bash", "Bash(**)", "Monitor", "PowerShell"],
     ["Bash(gh *)", "Skill", "Agent", "Bash(ls)"]),
    ("SGL102", ["Bash(* --version)", "Bash(./scripts/*.sh)", "Bash(${CLAUDE_SKILL_DIR}/scripts/*)",
                "Bash(FOO=1 *)"],
     ["Bash(${CLAUDE_SKILL_DIR}/scripts/project *)", "Bash(./scripts/build.sh *)",
      "Bash(gh *)"]),
    ("SGL103", ["Bash(sudo *)", "Bash(sudo -u deploy *)", "Bash(sudo:*)", "Bash(sudo*)",
                "Bash(env *)", "Bash(env FOO=1 *)", "Bash(xargs *)", "Bash(xargs -n 1 *)",
                "Bash(timeout *)", "Bash(timeout 10 *)", "Bash(nohup *)"],
     ["Bash(sudo apt-get install *)", "Bash(xargs -0 rm *)", "Bash(timeout 10 pytest *)",
      "Bash(sudo systemctl restart nginx)", "Bash(envsubst *)"]),
    ("SGL104", ["Bash(bash -c *)", "Bash(sh -c *)", "Bash(bash -lc *)", "Bash(bash *)",
                "Bash(sh:*)", "Bash(bash -c \"npm *\")", "Bash(eval *)", "Bash(python3 -c *)",
                "Bash(python *)", "Bash(/usr/bin/python3.12 *)", "Bash(node -e *)",
                "Bash(perl -e *)", "Bash(ruby -e *)", "Bash(su -c *)", "PowerShell(iex *)",
                "PowerShell(pwsh -Command *)", "Bash(bash \"*/scripts/*\")"],
     ["Bash(bash scripts/build.sh *)", "Bash(python3 scripts/report.py *)",
      "Bash(node dist/cli.js *)", "Bash(python -m pytest *)", "Bash(bash -c 'npm test')",
      "Bash(shellcheck *)"]),
    ("SGL105", ["Bash(npx *)", "Bash(npx -y *)", "Bash(uvx *)", "Bash(npm exec *)", "Bash(npm *)",
                "Bash(pnpm dlx *)", "Bash(uv run *)", "Bash(bunx *)"],
     ["Bash(npx prettier *)", "Bash(npm run *)", "Bash(npm install)", "Bash(uv pip install *)",
      "Bash(uv run pytest *)"]),
    ("SGL106", ["Bash(find * -exec *)", "Bash(find *)", "Bash(find . -name *.py)",
                "Bash(find . -name '*.md')", "Bash(fd *)"],
     ["Bash(find . -maxdepth 1 -type f)", "Bash(findmnt *)"]),
    ("SGL107", ["Bash(docker run *)", "Bash(docker *)", "Bash(docker run -v x:/y *)",
                "Bash(podman run *)", "Bash(docker compose run *)", "Bash(docker exec *)"],
     ["Bash(docker ps *)", "Bash(docker run --rm alpine *)", "Bash(docker logs *)"]),
    ("SGL108", ["Bash(ssh *)", "Bash(ssh host *)", "Bash(ssh -i key host *)", "Bash(ssh -o *)"],
     ["Bash(ssh -T git@github.com)", "Bash(ssh-keygen *)"]),
    ("SGL109", ["Read(//**)", "Read(~/**)", "Read", "Read(*)", "Read(~)", "Read(//)"],
     ["Read(./**)", "Read(src/**)", "Read(~/.config/app/**)", "Read(**)"]),
    ("SGL110", ["Edit(**)", "Edit", "Edit(//**)", "Edit(~/**)", "Edit(./**)", "Edit(/**)"],
     ["Edit(docs/**)", "Edit(CHANGELOG.md)"]),
    ("SGL111", ["WebFetch", "WebFetch(*)", "WebFetch(domain:*)", "WebFetch(domain:*.com)",
                "WebFetch(domain:*.*)"],
     ["WebFetch(domain:api.github.com)", "WebFetch(domain:*.github.com)"]),
    ("SGL112", ["mcp__github", "mcp__github__*"],
     ["mcp__github__get_issue", "mcp__github__get_*"]),
    ("SGL113", ["Read(src/*)", "Edit(src/*)", "Read(src/)", "Read(build-*)"],
     ["Read(src/**)", "Read(src/*.ts)", "Read(CHANGELOG.md)"]),
    ("SGL114", ["Write", "Write(*)"], ["Write(src/**)", "Edit"]),
    ("SGL115", ["Skill", "Skill(*)"], ["Skill(deploy)", "Skill(deploy *)"]),
    ("SGL116", ["Agent", "Task"], ["Agent(reviewer)", "Task(reviewer)"]),
    ("SGL201", ["LS", "MultiEdit", "NotebookRead", "TodoRead", "ls", "LS(src)",
                "BashOutputTool", "AgentOutputTool"],
     ["Glob", "Edit", "TodoWrite"]),
    ("SGL202", ["Write(src/**)", "NotebookEdit(notebooks/*.ipynb)", "Glob(src/*)"],
     ["Write", "Write(*)", "Write()", "Edit(src/**)"]),
    ("SGL203", ["*", "B*", "mcp__*", "mcp__gh__get_*_x"],
     ["mcp__gh__get_*", "Bash(*)"]),
    ("SGL204", ["mcp__gh__get_issue(x)", "mcp__gh()", "mcp__gh(*)"],
     ["mcp__gh__get_issue"]),
    ("SGL205", ["Monitor(nice -n 5 *)", "Monitor(tail -f log)"],
     ["Monitor", "Monitor(*)", "Bash(tail *)"]),
    ("SGL206", ["Skill(deploy-*)", "Skill(*-staging)", "Skill(o*r *)"],
     ["Skill(deploy *)", "Skill(deploy:*)", "Skill(deploy)", "Skill(*)"]),
    ("SGL301", ["bash(gh *)", "READ", "webfetch", "task"],
     ["Bash(gh *)", "Task", "mcp__GH__x", "my_tool"]),
    ("SGL302", ["Task", "KillShell", "Task(reviewer)"],
     ["Agent", "TaskStop", "task"]),
    ("SGL303", ["Bash(git add:*)", "Skill(deploy:*)", "Bash(npm run test:*)"],
     ["Bash(git add *)", "Bash(npm run test:unit)"]),
    ("SGL304", ["Bash(git * main)", "Bash(gh * --json *)"],
     ["Bash(git checkout *)", "Bash(git push origin *)", "Bash(git *)", "Bash(rm *.go)"]),
    ("SGL305", ["Foo(x (y) Bash )", "Bash(echo (a) b)", "Bash(echo \\(a\\) b)"],
     ["Bash(echo (a))", "Bash(git log --format=%H)"]),
    ("SGL306", ["Bash(ls*)", "Bash(git*)"],
     ["Bash(ls *)", "Bash(npm run migrate*)"]),
    ("SGL307", ["Bash(test:*, mkdir:*, ls:*)", "Bash(ls:*,wc:*)"],
     ["Bash(ls:*)", "Bash(echo a, b)"]),
    # a list: a plan value holding several entries (semantics §2), its Agent entry flagged
    ("SGL117", ["Agent(fork), Bash(ls)", "Task(x) Read"], ["Agent(fork)", "Agent(x), Task(y)",
                                                           "Agent(fork), LS"]),
    ("SGL308", ["Glob(*)", "Write()", "Grep(*)", "WebSearch()"],
     ["Glob", "Bash(*)", "Read(*)"]),
    ("SGL309", ["Wirte", "Raed(src/**)", "WebFetc"], ["Write", "exec_command", "MyTool"]),
]

_CASES = [pytest.param(rule, entry, True, id=f"{rule}+{entry[:40]!r}")
          for rule, positive, _ in LINT_TABLE for entry in positive]
_CASES += [pytest.param(rule, entry, False, id=f"{rule}-{entry[:40]!r}")
           for rule, _, negative in LINT_TABLE for entry in negative]


def _ids(entry: str) -> list[str]:
    return [f.rule_id for f in lint_entries([entry])]


@pytest.mark.parametrize(("rule_id", "entry", "fires"), _CASES)
def test_rule_table(rule_id: str, entry: str, fires: bool) -> None:
    assert (rule_id in _ids(entry)) is fires


def test_table_has_a_positive_and_a_negative_row_for_every_rule() -> None:
    tabled = {rule for rule, positive, negative in LINT_TABLE if positive and negative}
    assert tabled == set(BY_ID)


def test_rule_ids_are_stable_and_unique() -> None:
    assert len({r.rule_id for r in RULES}) == len({r.name for r in RULES}) == len(RULES)
    category = {"0": "invalid", "1": "over-broad", "2": "inert", "3": "non-canonical"}
    for rule in RULES:
        assert re.fullmatch(r"SGL[0-3]\d\d", rule.rule_id)
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", rule.name)
        assert rule.category == category[rule.rule_id[3]]


def test_findings_carry_their_rule() -> None:
    [finding] = lint_entries(["Bash(sudo *)"])
    rule = BY_ID["SGL103"]
    assert (finding.rule_id, finding.name, finding.severity, finding.category) == (
        rule.rule_id, rule.name, rule.severity, rule.category)
    assert finding.entry == "Bash(sudo *)"
    assert finding.index == 0
    assert finding.hint


def test_plan_invalidating_findings_are_errors() -> None:
    # semantics §5: these make the approved plan invalid, so lint ranks them above everything else.
    for entry in ("Bash(", "Foo(x (y) Bash )", "Bash(" + "a" * MAX_ENTRY_LENGTH + ")"):
        assert [f.severity for f in lint_entries([entry])] == ["error"]


def test_unparseable_entries_are_findings_not_exceptions() -> None:
    [finding] = lint_entries(["Bash(ls"])
    assert finding.rule_id == "SGL001"
    assert "column 8" in finding.message


def test_a_clean_plan_has_no_findings() -> None:
    assert lint_entries(["Bash(gh issue list *)", "Bash(git add *)", "Read(src/**)",
                         "Edit(CHANGELOG.md)", "WebFetch(domain:api.github.com)",
                         "mcp__github__get_issue", "WebSearch"]) == []
    # an Agent grant beside them is SGL117: their pre-approvals reach its subagents
    assert [f.rule_id for f in lint_entries(["Bash(git add *)", "Agent(reviewer)"])] == [
        "SGL117"]


def test_entries_are_split_like_a_plan_value() -> None:
    # semantics §2: a string value and a list item holding two entries are both split.
    findings = lint_entries("Bash(gh *), LS Bash(sudo *)")
    assert [(f.index, f.entry, f.rule_id) for f in findings] == [
        (1, "LS", "SGL201"), (2, "Bash(sudo *)", "SGL103")]
    assert [f.entry for f in lint_entries(["Read LS"])] == ["Read", "LS"]


def test_findings_for_one_entry_are_in_rule_order() -> None:
    assert _ids("bash(sh:*)") == ["SGL104", "SGL301", "SGL303"]


def test_too_many_entries_is_one_finding_about_the_list() -> None:
    findings = lint_entries(["WebSearch"] * (MAX_ENTRIES_PER_VALUE + 1))
    assert [(f.rule_id, f.entry, f.index) for f in findings] == [("SGL002", "", None)]


def test_declared_shell_aliases_are_linted_like_bash() -> None:
    # semantics §3: a declared shell alias carries shell semantics, so it is as broad as Bash.
    aliases = {"exec_command": {"command-argument": "cmd"}}
    assert _ids("exec_command") == []
    assert [f.rule_id for f in lint_entries(["exec_command"], shell_tools=aliases)] == ["SGL101"]
    assert [f.rule_id for f in lint_entries(["exec_command(sudo *)"], shell_tools=aliases)] == [
        "SGL103"]


@pytest.mark.parametrize("entry", [e for rule, pos, _ in LINT_TABLE if rule.startswith("SGL2")
                                   for e in pos])
def test_inert_rules_agree_with_the_prover(entry: str) -> None:
    # semantics §3: lint reports the approved entries that prove() calls inert when submitted
    # under Claude Code (its rules name Claude Code's tools and forms).
    assert pinned.prove(entry, ["Bash"]).status == "inert"


@pytest.mark.parametrize("entry", [e for rule, pos, _ in LINT_TABLE if rule[3] in "13"
                                   and rule != "SGL305" for e in pos])
def test_broad_and_non_canonical_entries_are_not_inert(entry: str) -> None:
    assert prove(entry, []).status != "inert"


def _within(entry: str, approved: list[str]) -> bool:
    """Whether ``entry``'s commands are in ``approved``'s language: the prover in the plan's own
    vocabulary (no runtime profile), where a bare Bash is every command and an exact rule is
    its one command (under Claude Code a `Bash(…)` rule also approves Monitor calls, and an
    exact rule holding braces is approved whole: not the language question asked here)."""
    return prove_prepared(entry, plan_for(approved, None, None)).covered


def _escape(command: str) -> str:
    return re.sub(r"([()\\*])", r"\\\1", command)


@pytest.mark.parametrize("entry", [e for rule, pos, _ in LINT_TABLE if rule[3] == "1"
                                   for e in pos])
def test_every_example_command_is_approved_by_its_entry(entry: str) -> None:
    for finding in lint_entries([entry]):
        if finding.example is None:
            continue
        grant = parse_grant(finding.entry)  # a row may be a list (SGL117)
        if grant.key not in ("Bash", "Monitor", "PowerShell"):
            continue
        mode: Mode = "powershell" if grant.key == "PowerShell" else "command"
        assert grant.content is None or ref_allows(grant.content, finding.example, mode), (
            finding.example, entry)
        if _escape(finding.example) == finding.example:
            # Without escapes the example is an EXACT entry the prover can judge (an entry
            # with a backslash is decided by identity only, semantics §2).
            exact = f"{grant.tool}({finding.example})"
            assert _within(exact, [entry]), (finding.example, entry)


@pytest.mark.parametrize(("entry", "example"), [
    ("Bash(sudo *)", "sudo rm -rf ~"),
    ("Bash(sudo -u deploy *)", "sudo -u deploy rm -rf ~"),
    ("Bash(bash -c *)", "bash -c 'rm -rf ~'"),
    ("Bash(docker *)", "docker run --privileged -v /:/host alpine sh"),
    ("Bash(ssh *)", "ssh host rm -rf ~"),
    ("Bash(./scripts/*.sh)", "./scripts/../../../../../../../../bin/rm -rf ~ #.sh"),
])
def test_examples_show_the_escape(entry: str, example: str) -> None:
    assert [f.example for f in lint_entries([entry])] == [example]


def test_no_example_when_the_wildcard_is_inside_quotes() -> None:
    [finding] = lint_entries(['Bash(bash "*/scripts/*")'])
    assert finding.rule_id == "SGL104"
    assert finding.example is None


@pytest.mark.parametrize(("entry", "replacement"), [
    ("bash(gh *)", "Bash(gh *)"),
    ("Task(reviewer)", "Agent(reviewer)"),
    ("mcp__gh__get_issue(x)", "mcp__gh__get_issue"),
    ("Glob(*)", "Glob"),
])
def test_replacements_mean_the_same(entry: str, replacement: str) -> None:
    [finding] = [f for f in lint_entries([entry]) if f.replacement is not None]
    assert finding.replacement == replacement
    if finding.category != "inert":
        # Under Claude Code a misspelt approved name grants nothing, so only the language is
        # compared (issue 28): the replacement means what the entry was meant to.
        assert _within(replacement, [entry])
        assert _within(entry, [replacement])


@pytest.mark.parametrize("entry", [
    # A leading space is part of a PREFIX literal but trimmed from a glob: not the same grant.
    "Bash( git add:*)",
    # A star inside the prefix needs an escape in the glob form, and an entry with a backslash
    # is decided by identity only (semantics §2): the prover cannot show the two mean the same.
    "Bash(echo a*:*)",
    "Bash(echo a\\*:*)",
    # Under Copilot CLI, judged by default, `git add:*` approves the command key `git add` and
    # `git add *` no key at all (it has no globs): not the same grant there (issue 30).
    "Bash(git add:*)",
])
def test_legacy_prefix_without_a_safe_rewrite_has_no_replacement(entry: str) -> None:
    [finding] = lint_entries([entry])
    assert finding.rule_id == "SGL303"
    assert finding.replacement is None


def test_glued_wildcard_suggests_the_narrower_form() -> None:
    [finding] = lint_entries(["Bash(ls*)"])
    assert finding.replacement == "Bash(ls *)"
    assert pinned.prove("Bash(ls *)", ["Bash(ls*)"]).covered
    assert not pinned.prove("Bash(lsof)", ["Bash(ls *)"]).covered


def test_several_commands_in_one_entry_are_split_into_entries() -> None:
    [finding] = lint_entries(["Bash(test:*, mkdir:*, ls:*)"])
    assert finding.replacement == "Bash(test *), Bash(mkdir *), Bash(ls *)"
    assert "one rule, not 3" in finding.message


def test_tool_name_case_says_what_the_runtime_expects() -> None:
    [finding] = lint_entries(["webfetch(domain:example.com)"])
    assert "`WebFetch`" in finding.message and "`webfetch`" in finding.message


# --------------------------------------------------------------------------------------------
# diff
# --------------------------------------------------------------------------------------------


def _kinds(result: DiffResult) -> list[tuple[str, str]]:
    return [(e.kind, e.entry) for e in result.entries]


def test_diff_escalation_carries_its_witness() -> None:
    result = diff_entries(["Bash(gh *)", "Read"], ["Bash(gh *)", "Read", "Bash(rm -rf /)"])
    assert result.escalates
    [escalated] = result.escalated
    assert escalated.entry == "Bash(rm -rf /)"
    assert escalated.witness == "rm -rf /"
    assert escalated.verdict.status == "not_covered"
    assert _kinds(result)[:2] == [("unchanged", "Bash(gh *)"), ("unchanged", "Read")]


def test_diff_widening_a_grant_escalates_with_a_witness_old_denied() -> None:
    result = diff_entries(["Bash(gh *)"], ["Bash"])
    [escalated] = result.escalated
    assert escalated.witness is not None
    assert not prove(f"Bash({_escape(escalated.witness)})", ["Bash(gh *)"]).covered
    # Under Claude Code the bare Bash approves no Monitor call, which `Bash(gh *)` did: the
    # old entry counts as removed (issue 28).
    assert [e.entry for e in result.of_kind("removed")] == ["Bash(gh *)"]


def test_diff_narrowing_is_not_an_escalation() -> None:
    result = diff_entries(["Bash(gh *)", "Read"], ["Bash(gh pr list)", "Read"])
    assert not result.escalates
    assert _kinds(result) == [("narrowed", "Bash(gh pr list)"), ("unchanged", "Read")]
    assert result.entries[0].old == "Bash(gh *)"


def test_diff_identity() -> None:
    entries = ["Bash(gh *)", "Read(src/**)", "WebFetch(domain:api.github.com)", "mcp__gh__x"]
    result = diff_entries(entries, entries)
    assert not result.escalates
    assert _kinds(result) == [("unchanged", e) for e in entries]


def test_diff_reordering() -> None:
    old = ["Bash(gh *)", "Read", "WebSearch"]
    result = diff_entries(old, list(reversed(old)))
    assert not result.escalates
    assert _kinds(result) == [("unchanged", e) for e in reversed(old)]


def test_diff_case_and_spelling_only_changes() -> None:
    # semantics §3: built-in tool names compare case-insensitively, and T(*) is T.
    result = diff_entries(["Bash(gh *)", "Read", "WebSearch", "Task(x)", "Edit(*)"],
                          ["bash(gh *)", "READ", "websearch", "Agent(x)", "Edit"])
    assert not result.escalates
    assert {kind for kind, _ in _kinds(result)} == {"unchanged"}
    assert [e.old for e in result.entries] == ["Bash(gh *)", "Read", "WebSearch", "Task(x)",
                                               "Edit(*)"]


def test_diff_mcp_case_change_escalates() -> None:
    # semantics §3: MCP names compare verbatim.
    result = diff_entries(["mcp__gh__get_issue"], ["mcp__GH__get_issue"])
    assert result.escalates
    assert result.escalated[0].witness == "mcp__GH__get_issue"


def test_diff_unknown_counts_as_escalation() -> None:
    # semantics §4.2: differently anchored paths without base directories are unknown; §8: counts.
    result = diff_entries(["Read(//home/u/proj/**)"], ["Read(~/proj/notes.md)"])
    [escalated] = result.escalated
    assert escalated.verdict.status == "unknown"
    assert escalated.witness is None and escalated.reason


def test_diff_passes_base_dirs_to_the_prover() -> None:
    result = diff_entries(["Read(//home/u/proj/**)"], ["Read(~/proj/notes.md)"],
                          base_dirs={"home": "/home/u"})
    assert _kinds(result) == [("narrowed", "Read(~/proj/notes.md)")]


def test_diff_passes_shell_tools_to_the_prover() -> None:
    aliases = {"exec_command": {"command-argument": "cmd"}}
    assert diff_entries(["Bash(npm *)"], ["exec_command(npm install)"]).escalates
    # Claude Code has no exec_command: the alias grants nothing there (issue 28, class 5), so
    # the new entry is still unprovable, and `Bash(npm *)` removed.
    result = diff_entries(["Bash(npm *)"], ["exec_command(npm install)"], shell_tools=aliases)
    assert result.escalates


@pytest.mark.parametrize(("entry", "status"), [
    ("Bash(", "invalid"),
    ("Foo(x (y) Bash )", "ambiguous"),
    ("Bash(echo \"a\" && ls)", "unknown"),
])
def test_diff_unprovable_new_entries_escalate(entry: str, status: str) -> None:
    result = diff_entries(["Bash(echo *)", "Bash(ls)"], ["Bash(echo *)", "Bash(ls)", entry])
    assert [(e.entry, e.verdict.status) for e in result.escalated] == [(entry, status)]


def test_diff_inert_new_entries_grant_nothing() -> None:
    result = pinned.diff_entries(["Read"], ["Read", "Write(src/**)", "LS"])
    assert not result.escalates
    assert _kinds(result)[1:] == [("inert", "Write(src/**)"), ("inert", "LS")]


def test_diff_under_every_runtime_escalates_what_copilot_reads_as_a_grant() -> None:
    # Copilot CLI reads `Write(src/**)` as a rule for writing files, whose paths are not
    # modelled (issue 30); `LS` is no name it is measured to read: neither is shown to grant
    # nothing there, so both are escalations, named under Copilot CLI.
    result = diff_entries(["Read"], ["Read", "Write(src/**)", "LS"])
    assert [(e.entry, e.verdict.status) for e in result.escalated] == [
        ("Write(src/**)", "unknown"), ("LS", "unknown")]
    assert all("Copilot CLI" in e.verdict.reason for e in result.escalated)


def test_diff_removed_entries() -> None:
    result = diff_entries(["Bash(gh *)", "WebSearch", "Read"], ["Read", "Bash(gh *)"])
    assert not result.escalates
    [removed] = result.of_kind("removed")
    assert (removed.entry, removed.index) == ("WebSearch", 1)


def test_diff_narrowed_source_is_not_also_removed() -> None:
    result = diff_entries(["Bash(gh *)"], ["Bash(gh pr list)", "Bash(gh issue list)"])
    assert [kind for kind, _ in _kinds(result)] == ["narrowed", "narrowed"]


def test_diff_added_entry_covered_by_a_kept_one() -> None:
    result = diff_entries(["Bash(gh *)"], ["Bash(gh *)", "Bash(gh pr list)"])
    assert _kinds(result) == [("unchanged", "Bash(gh *)"), ("added-covered", "Bash(gh pr list)")]


def test_diff_respelling_is_equivalent() -> None:
    # semantics §4.1: `P:*` and `P *` both denote {P} ∪ {P␠w} under Claude Code.
    result = pinned.diff_entries(["Bash(git add:*)"], ["Bash(git add *)"])
    assert _kinds(result) == [("equivalent", "Bash(git add *)")]
    assert not result.escalates
    # Under Copilot CLI as well (the default), `git add *` grants nothing: a narrowing.
    both = diff_entries(["Bash(git add:*)"], ["Bash(git add *)"])
    assert _kinds(both) == [("narrowed", "Bash(git add *)")] and not both.escalates


def test_diff_accepts_plan_values() -> None:
    result = diff_entries("Bash(gh *) Read", "Read, Bash(gh *)")
    assert _kinds(result) == [("unchanged", "Read"), ("unchanged", "Bash(gh *)")]


def test_diff_empty_lists() -> None:
    assert diff_entries([], []).entries == ()
    assert diff_entries([], ["Bash(ls)"]).escalates
    assert _kinds(diff_entries(["Bash(ls)"], [])) == [("removed", "Bash(ls)")]


@pytest.mark.parametrize("bad", ["Bash(", "Foo(x (y) Bash )", "Read\x00"])
def test_diff_invalid_old_entries_are_a_plan_error(bad: str) -> None:
    # semantics §5: the baseline is an approved list; an invalid one is never silently ignored.
    with pytest.raises(PlanError, match="old entry"):
        diff_entries(["Read", bad], ["Read"])


def test_diff_old_list_over_the_limit_is_a_plan_error() -> None:
    with pytest.raises(PlanError, match="MAX_ENTRIES_PER_VALUE"):
        diff_entries(["Read"] * (MAX_ENTRIES_PER_VALUE + 1), ["Read"])


def test_diff_new_list_over_the_limit_is_rejected_whole() -> None:
    # semantics §5: a value over the entry limit is rejected whole: every entry unknown.
    result = diff_entries(["Read"], ["Read"] * (MAX_ENTRIES_PER_VALUE + 1))
    assert {(e.kind, e.verdict.status) for e in result.entries} == {("escalated", "unknown")}


# --------------------------------------------------------------------------------------------
# REV:path
# --------------------------------------------------------------------------------------------


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com",
                    "-c", "commit.gpgsign=false", *args], cwd=repo, check=True,
                   capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    _git(tmp_path, "init", "-q")
    (tmp_path / "skill").mkdir()
    (tmp_path / "skill" / "SKILL.md").write_text("---\nallowed-tools: Read\n---\nnaïve\n",
                                                 encoding="utf-8")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "one")
    (tmp_path / "skill" / "SKILL.md").write_text("changed\n", encoding="utf-8")
    return tmp_path


def test_read_revision_reads_the_committed_text(repo: Path) -> None:
    assert read_revision("HEAD:skill/SKILL.md", repo) == "---\nallowed-tools: Read\n---\nnaïve\n"
    assert read_revision("HEAD:./SKILL.md", repo / "skill").endswith("naïve\n")


@pytest.mark.parametrize("spec", ["HEAD:missing.md", "nosuchrev:skill/SKILL.md", "HEAD:skill",
                                  "HEAD", "HEAD:", "--output=x:y"])
def test_read_revision_errors(repo: Path, spec: str) -> None:
    with pytest.raises(RevisionError) as info:
        read_revision(spec, repo)
    assert isinstance(info.value, SkillgrantError)
    assert not (repo / "x").exists()


# --------------------------------------------------------------------------------------------
# docs
# --------------------------------------------------------------------------------------------


def test_docs_list_every_rule_with_its_name_and_severity() -> None:
    text = DOCS.read_text(encoding="utf-8")
    headings = re.findall(r"^### (SGL\d{3}) `([a-z-]+)` \((error|warning|info)\)$", text, re.M)
    assert sorted(headings) == sorted((r.rule_id, r.name, r.severity) for r in RULES)
    assert set(re.findall(r"SGL\d{3}", text)) == set(BY_ID)


def test_finding_is_a_frozen_value() -> None:
    [finding] = lint_entries(["LS"])
    assert isinstance(finding, Finding)
    with pytest.raises(AttributeError):
        finding.rule_id = "SGL000"  # type: ignore[misc]
