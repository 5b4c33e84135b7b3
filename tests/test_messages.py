"""Issue 16, "Messages a user reads": what prove(), constrain(), diff and explain say about an
entry must describe that entry. Expected texts are written out here from the issue's wording,
never computed by the code under test.

- a bare tool with no specifiers gets a witness that reads as what it grants ("any use of
  Write"), not a stand-in specifier such as 'x';
- an unknown tool name close to a built-in one says "did you mean";
- a bare Skill grants every skill, not every command;
- a bare Agent with no Agent entry approved says that no agent is approved;
- `T(*)` kept as `T` is not described as a tool-name change;
- an `unknown` caused by missing base directories says how to give them.
Statuses are pinned too: only the words change.
"""

from __future__ import annotations

import re

import pytest
from pinned import constrain, prove
from typer.testing import CliRunner

from skillgrant import Plan
from skillgrant.review.lint import diff_entries
from skillgrant.rules import RULE_BY_ID, rule_for

# The messages of one runtime's reading (several runtimes name theirs: tests/test_copilot_cli.py).

# --- 1. a bare tool without specifiers ------------------------------------------------------


@pytest.mark.parametrize(("tool", "approved"), [
    ("Write", ["Read"]),
    ("WebSearch", ["Bash(gh *)"]),
    ("TodoWrite", ["Edit(docs/**)"]),
    ("Glob", ["Read(src/**)"]),
    ("NotebookEdit", ["mcp__gh__get_issue"]),
    ("LSP", []),
])
def test_bare_tool_witness_says_what_it_grants(tool: str, approved: list[str]) -> None:
    verdict = prove(tool, approved)
    assert verdict.status == "not_covered"
    assert verdict.witness == f"any use of {tool}"
    assert verdict.reason == f"it allows every use of {tool}, and no approved grant is for {tool}"


@pytest.mark.parametrize("entry", ["Write()", "Write(*)", "write"])
def test_every_spelling_of_the_bare_form_gets_the_same_witness(entry: str) -> None:
    verdict = prove(entry, ["Read"])
    assert (verdict.status, verdict.witness) == ("not_covered", "any use of Write")


def test_bare_tool_against_its_own_narrower_grants_keeps_a_concrete_specifier() -> None:
    # An approved WebSearch(foo) is for the same tool: the witness is then one use outside it,
    # and the reason names the tool rather than "the tool".
    verdict = prove("WebSearch", ["WebSearch(foo)"])
    assert verdict.status == "not_covered"
    assert verdict.witness not in (None, "foo", "any use of WebSearch")
    expected = "it allows every use of WebSearch; no approved grant allows "
    assert verdict.reason == expected + repr(verdict.witness)
    assert not prove(f"WebSearch({verdict.witness})", ["WebSearch(foo)"]).covered


def test_the_witness_reads_well_in_constrain_and_diff() -> None:
    decision = constrain(["Read", "Write"], ["Read"])
    [dropped] = decision.dropped
    assert (dropped.entry, dropped.witness) == ("Write", "any use of Write")
    escalated = diff_entries(["Read"], ["Read", "Write"]).escalated
    assert [(e.entry, e.witness) for e in escalated] == [("Write", "any use of Write")]
    # A removed grant's witness is shown as "no longer granted, e.g. <witness>".
    removed = diff_entries(["Read", "WebSearch"], ["Read"]).of_kind("removed")
    assert [(e.entry, e.witness) for e in removed] == [("WebSearch", "any use of WebSearch")]


def test_the_witness_reads_well_in_explain() -> None:
    from skillgrant.cli.app import app

    result = CliRunner().invoke(app, ["explain", "Write", "--approved", "Read"])
    assert result.exit_code == 1, result.output
    witness = [line for line in result.stdout.splitlines() if "witness:" in line]
    assert len(witness) == 1 and "any use of Write" in witness[0], result.stdout
    assert "it allows every use of Write, and no approved grant is for Write" in result.stdout


# --- 2. unknown tool names: did you mean -----------------------------------------------------


@pytest.mark.parametrize(("entry", "note"), [
    ("Wirte", "the runtime knows no tool named 'Wirte' (did you mean 'Write'?)"),
    ("WIRTE", "the runtime knows no tool named 'WIRTE' (did you mean 'Write'?)"),
    ("Raed(src/**)", "the runtime knows no tool named 'Raed' (did you mean 'Read'?)"),
    ("Gerp", "the runtime knows no tool named 'Gerp' (did you mean 'Grep'?)"),
    ("WebSerch", "the runtime knows no tool named 'WebSerch' (did you mean 'WebSearch' or "
                 "'WebFetch'?)"),
])
def test_unknown_tool_name_suggests_the_nearest_known_one(entry: str, note: str) -> None:
    verdict = prove(entry, ["Read(src/**)"])
    assert verdict.status == "not_covered"  # as before issue 16: only the reason changed
    assert verdict.reason.endswith("; " + note), verdict.reason


def test_did_you_mean_keeps_the_rest_of_the_reason() -> None:
    verdict = prove("Wirte", ["Read"])
    assert (verdict.status, verdict.witness) == ("not_covered", "any use of Wirte")
    assert verdict.reason == ("it allows every use of Wirte, and no approved grant is for Wirte; "
                              "the runtime knows no tool named 'Wirte' (did you mean 'Write'?)")


@pytest.mark.parametrize("entry", ["my_tool", "exec_command", "shell", "read_file",
                                   "mcp__gh__get_issue", "Write", "write"])
def test_no_suggestion_for_names_far_from_every_built_in_one_or_known(entry: str) -> None:
    assert "did you mean" not in prove(entry, ["Bash(gh *)"]).reason


def test_an_identical_unknown_tool_is_still_covered_without_a_note() -> None:
    verdict = prove("Wirte(x)", ["Wirte(x)"])
    assert verdict.covered and "did you mean" not in verdict.reason


def test_close_names_compares_ignoring_case() -> None:
    from skillgrant.vocabulary import close_names

    assert close_names("wirte") == close_names("WIRTE") == close_names("Wirte") == ["Write"]
    assert close_names("Monitr") == ["Monitor"]
    assert close_names("Bash") == close_names("bash") == close_names("Task") == []
    assert close_names("LS") == close_names("multiedit") == []  # removed names are known
    assert close_names("mcp__gh") == []


# --- 3. a bare Skill is every skill ----------------------------------------------------------


@pytest.mark.parametrize("approved", [["Bash(gh *)"], ["Skill(commit)"], ["Read", "Bash"]])
def test_bare_skill_is_described_as_every_skill(approved: list[str]) -> None:
    verdict = prove("Skill", approved)
    assert verdict.status == "not_covered"
    assert verdict.witness == "any-skill"
    assert verdict.reason == "it allows every skill; no approved grant allows the skill 'any-skill'"
    assert "rm -rf" not in verdict.reason and "command" not in verdict.reason


def test_bare_skill_witness_escapes_an_approved_skill_of_that_name() -> None:
    approved = ["Skill(any-skill)", "Skill(any-other-skill)"]
    verdict = prove("Skill", approved)
    assert verdict.status == "not_covered" and verdict.witness is not None
    assert verdict.witness not in ("any-skill", "any-other-skill")
    assert verdict.reason.startswith("it allows every skill; no approved grant allows the skill ")
    assert not prove(f"Skill({verdict.witness})", approved).covered


def test_skill_semantics_are_unchanged() -> None:
    # semantics §4.1: Skill(name) is exact, Skill(name *) a prefix; a bare Skill covers both.
    # Claude Code 2.1.332 reads the prefix as a raw string prefix (issue 28): `commitx` too.
    assert prove("Skill(commit)", ["Skill"]).covered
    assert prove("Skill(commit fix)", ["Skill(commit *)"]).covered
    assert prove("Skill(commitx)", ["Skill(commit *)"]).covered
    assert prove("Skill(commitx)", ["Skill(commit)"]).status == "not_covered"
    assert prove("Skill(commit)", ["Bash"]).status == "not_covered"
    # A bare Bash is still described as every command, with a command as its witness.
    bash = prove("Bash", ["Read"])
    assert (bash.witness, bash.reason) == (
        "rm -rf build", "it allows every command, and no approved grant allows 'rm -rf build'")


# --- 4. a bare Agent with no Agent entry -----------------------------------------------------


@pytest.mark.parametrize(("entry", "approved", "reason"), [
    ("Agent", ["Read"], "it allows every agent type; no approved entry allows any agent"),
    ("Task", ["Bash(gh *)", "Skill"], "it allows every agent type; no approved entry allows any "
                                     "agent"),
    ("Agent", [], "it allows every agent type; no approved entry allows any agent"),
    ("Agent", ["Agent(reviewer)"], "it allows every agent type; only some are approved"),
    ("Agent(*)", ["Task(explore)", "Read"], "it allows every agent type; only some are approved"),
])
def test_bare_agent_says_whether_any_agent_is_approved(entry: str, approved: list[str],
                                                       reason: str) -> None:
    verdict = prove(entry, approved)
    assert (verdict.status, verdict.reason) == ("not_covered", reason)
    assert verdict.witness == "general-purpose"


# --- 5. T(*) written as T is not a tool-name change ------------------------------------------


@pytest.mark.parametrize(("entry", "approved", "written"), [
    ("Read(*)", ["Read"], "Read"),
    ("Read()", ["Read"], "Read"),
    ("Glob(*)", ["Glob"], "Glob"),
    ("Bash(*)", ["Bash"], "Bash"),
])
def test_a_bare_form_respelling_is_not_called_a_tool_name_change(entry: str, approved: list[str],
                                                                  written: str) -> None:
    verdict = prove(entry, approved)
    assert verdict.covered and verdict.written == written
    assert "tool name" not in verdict.reason
    # The rule that reports the rewrite says it covers `T(*)` → `T`, not only a name's spelling.
    rule = rule_for(verdict)
    assert rule is not None and rule.id == "SG007"
    assert rule.summary == "Kept entry written in its canonical form"
    assert "`T()` or `T(*)` as the bare `T`, which grants the same" in rule.help


def test_the_canonical_form_rule_still_explains_tool_name_spelling() -> None:
    verdict = prove("bash(gh pr list)", ["Bash(gh *)"])
    assert verdict.written == "Bash(gh pr list)"
    assert rule_for(verdict) is RULE_BY_ID["SG007"]
    assert "the runtime matches tool names exactly" in RULE_BY_ID["SG007"].help


def test_diff_calls_a_bare_form_respelling_unchanged() -> None:
    result = diff_entries(["Read(*)", "Glob"], ["Read", "Glob(*)"])
    assert [(e.kind, e.entry) for e in result.entries] == [("unchanged", "Read"),
                                                            ("unchanged", "Glob(*)")]


# --- 7. missing base directories say how to give them ----------------------------------------


def test_missing_base_dirs_reason_says_how_to_set_them() -> None:
    verdict = prove("Read(src/**)", ["Read(//repo/src/**)"])
    assert verdict.status == "unknown"
    assert verdict.reason == (
        "a cwd-relative pattern cannot be compared with an absolute Read(//repo/src/**) without "
        "the base directories cwd (base-dirs); give them as absolute paths in the plan, e.g. "
        "`base-dirs: {cwd: /path/to/project}` (base_dirs= in the API)")


def test_every_missing_base_directory_is_in_the_example() -> None:
    verdict = prove("Read(~/proj/notes.md)", ["Read(/proj/**)"])
    assert verdict.status == "unknown"
    assert "`base-dirs: {home: /home/you, root: /path/to/project}`" in verdict.reason


def test_the_suggested_plan_syntax_is_a_valid_plan_that_decides() -> None:
    # Follow the advice literally (with a real path): the plan loads and the entry is decided.
    suggestion = re.search(r"`(base-dirs: \{.*?\})`",
                           prove("Read(src/**)", ["Read(//repo/src/**)"]).reason)
    assert suggestion is not None
    text = "allowed-tools: [Read(//repo/src/**)]\n" + suggestion[1].replace(
        "/path/to/project", "/repo") + "\n"
    plan = Plan.from_text(text, source="plan.yaml")
    decision = constrain(["Read(src/**)"], plan.allowed_tools, **plan.constrain_kwargs())
    assert decision.allowed == ["Read(src/**)"] and not decision.restored
    assert prove("Read(src/**)", ["Read(//repo/src/**)"], base_dirs={"cwd": "/repo"}).covered


def test_an_unusable_base_directory_is_still_named() -> None:
    verdict = prove("Read(src/**)", ["Read(//repo/src/**)"], base_dirs={"cwd": "repo"})
    assert verdict.status == "unknown"
    assert "base directory cwd='repo' is not an absolute POSIX path" in verdict.reason
    assert "`base-dirs: {cwd: /path/to/project}`" in verdict.reason
