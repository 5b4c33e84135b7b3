"""semantics §3, tool names: the vocabulary, aliases, removed names, case, inert grants, and
shell-tool aliases. Expectations come from the contract's words; row ids name the rule."""

from __future__ import annotations

import pytest
from pinned import constrain, prove

from skillgrant import parse_grant
from skillgrant.prepared import plan_for
from skillgrant.prover import prove_prepared
from skillgrant.vocabulary import ALIASES, CANONICAL, REMOVED

SPEC_CANONICAL = [
    "Agent", "AskUserQuestion", "Bash", "Edit", "Glob", "Grep", "LSP", "Monitor", "NotebookEdit",
    "PowerShell", "Read", "Skill", "TaskCreate", "TaskGet", "TaskList", "TaskOutput", "TaskStop",
    "TaskUpdate", "TodoWrite", "WebFetch", "WebSearch", "Write",
]
SPEC_ALIASES = {
    "Task": "Agent",
    "KillShell": "TaskStop",
    "AgentOutputTool": "TaskOutput",
    "BashOutputTool": "TaskOutput",
}
SPEC_REMOVED = ("LS", "MultiEdit", "NotebookRead", "TodoRead")


# --------------------------------------------------------------------------------------------
# The tables
# --------------------------------------------------------------------------------------------


def test_vocabulary_holds_every_name_the_spec_lists() -> None:
    assert set(SPEC_CANONICAL) <= set(CANONICAL)
    assert ALIASES.items() >= SPEC_ALIASES.items()
    assert set(SPEC_REMOVED) <= set(REMOVED)


def test_tables_do_not_overlap() -> None:
    folded = [n.lower() for n in CANONICAL]
    assert len(folded) == len(set(folded))
    assert not {a.lower() for a in ALIASES} & set(folded)
    assert not {r.lower() for r in REMOVED} & set(folded)
    assert set(ALIASES.values()) <= set(CANONICAL)


# --------------------------------------------------------------------------------------------
# Canonical spelling on output, case-insensitive built-ins
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", CANONICAL)
@pytest.mark.parametrize("spelling", [str.lower, str.upper, str.swapcase])
def test_builtin_names_are_written_canonically(name: str, spelling: object) -> None:
    written = spelling(name)  # type: ignore[operator]
    assert str(parse_grant(written)) == name


@pytest.mark.parametrize(("alias", "target"), sorted(SPEC_ALIASES.items()))
def test_aliases_are_written_as_their_target(alias: str, target: str) -> None:
    assert str(parse_grant(alias)) == target
    assert str(parse_grant(alias.lower())) == target


#: Claude Code matches tool names exactly: an approved entry spelled otherwise grants nothing,
#: so it covers nothing (issue 28, class 3; a submitted one is written canonically instead).
MISSPELT_APPROVED = [
    pytest.param("Bash(ls)", ["BASH(ls)"], id="approved-uppercase"),
    pytest.param("READ", ["read"], id="both-wrong"),
    pytest.param("Read(//etc/**)", ["read(//etc/**)"], id="read-lowercase"),
    pytest.param("Bash(touch zz)", ["bash(touch *)"], id="bash-lowercase"),
    pytest.param("TaskStop", ["killshell"], id="alias-lowercase"),
]


@pytest.mark.parametrize("entry", ["AgentOutputTool", "BashOutputTool", "bashoutputtool"])
def test_names_claude_code_removed_grant_nothing_there(entry: str) -> None:
    # The runtime lists AgentOutputTool and BashOutputTool as removed tools (review of issue
    # 28): no longer TaskOutput there, so they grant nothing, approved or submitted.
    assert prove(entry, ["TaskOutput"]).status == "inert"
    assert prove("TaskOutput", [entry]).status == "not_covered"


@pytest.mark.parametrize(("entry", "approved"), MISSPELT_APPROVED)
def test_an_approved_entry_spelt_otherwise_covers_nothing(entry: str,
                                                           approved: list[str]) -> None:
    verdict = prove(entry, approved)
    assert verdict.status == "not_covered", verdict
    decision = constrain([entry], approved)
    # Nothing kept, so the plan is restored as the plan writes it: never a wider spelling.
    assert decision.restored and decision.allowed == approved


CASE_ROWS = [
    # (submitted, approved, written)
    pytest.param("bash(ls)", ["Bash(ls)"], "Bash(ls)", id="submitted-lowercase"),
    pytest.param("READ", ["Read"], "Read", id="submitted-upper"),
    pytest.param("webSearch", ["WebSearch"], "WebSearch", id="camel-slip"),
    pytest.param("Task(Explore)", ["Agent"], "Agent(Explore)", id="alias-task-submitted"),
    pytest.param("Agent(Explore)", ["Task"], "Agent(Explore)", id="alias-task-approved"),
    pytest.param("KillShell", ["TaskStop"], "TaskStop", id="alias-killshell-submitted"),
    pytest.param("TaskStop", ["KillShell"], "TaskStop", id="alias-killshell-approved"),
    # Not built in, not MCP: case-insensitive, written as the covering approved entry spells it.
    pytest.param("mytool(x)", ["MyTool"], "MyTool(x)", id="other-tool-approved-spelling"),
    pytest.param("MYTOOL", ["MyTool"], "MyTool", id="other-tool-bare"),
]


@pytest.mark.parametrize(("entry", "approved", "written"), CASE_ROWS)
def test_case_and_aliases_compare_equal_and_write_canonically(
    entry: str, approved: list[str], written: str
) -> None:
    verdict = prove(entry, approved)
    assert verdict.status == "covered"
    assert verdict.written == written
    assert constrain([entry], approved).allowed == [written]


MCP_VERBATIM_ROWS = [
    pytest.param("mcp__GH__x", ["mcp__gh"], id="server-case"),
    pytest.param("mcp__gh__X", ["mcp__gh__x"], id="tool-case"),
    pytest.param("mcp__gh", ["mcp__GH"], id="bare-server-case"),
    pytest.param("MCP__gh__x", ["mcp__gh"], id="prefix-case-submitted"),
    # The sound-relevant direction: the runtime matches names exactly, so approved `MCP__gh`
    # does not grant the `gh` server's tools, and keeping `mcp__gh__x` would widen the plan.
    pytest.param("mcp__gh__x", ["MCP__gh"], id="prefix-case-approved"),
    pytest.param("mcp__gh", ["MCP__GH"], id="prefix-case-approved-bare"),
]


@pytest.mark.parametrize(("entry", "approved"), MCP_VERBATIM_ROWS)
def test_mcp_names_compare_verbatim(entry: str, approved: list[str]) -> None:
    assert not prove(entry, approved).covered


def test_mcp_kept_entry_keeps_its_spelling() -> None:
    verdict = prove("mcp__GitHub__get_issue", ["mcp__GitHub"])
    assert verdict.status == "covered"
    assert verdict.written == "mcp__GitHub__get_issue"


# --------------------------------------------------------------------------------------------
# Inert grants
# --------------------------------------------------------------------------------------------

INERT_ROWS = [
    pytest.param("LS", ["LS"], id="removed-ls"),
    pytest.param("ls", ["Bash"], id="removed-ls-case"),
    pytest.param("MultiEdit", ["Edit", "MultiEdit"], id="removed-multiedit"),
    pytest.param("NotebookRead", ["Read"], id="removed-notebookread"),
    pytest.param("TodoRead", ["TodoWrite"], id="removed-todoread"),
    pytest.param("TodoRead(x)", ["TodoWrite"], id="removed-with-parens"),
    pytest.param("Write(src/**)", ["Write"], id="write-path"),
    pytest.param("write(x.md)", ["Write"], id="write-path-case"),
    pytest.param("NotebookEdit(a.ipynb)", ["NotebookEdit"], id="notebookedit-path"),
    pytest.param("Glob(src/**)", ["Glob"], id="glob-path"),
    pytest.param("*", ["Bash", "Read"], id="star-tool-glob"),
    pytest.param("B*", ["Bash"], id="prefix-tool-glob"),
    pytest.param("mcp__*", ["mcp__gh"], id="mcp-server-glob"),
    pytest.param("mcp__gh(x)", ["mcp__gh"], id="mcp-with-parens"),
    pytest.param("mcp__gh__get_issue(x)", ["mcp__gh"], id="mcp-tool-with-parens"),
    pytest.param("mcp__gh()", ["mcp__gh"], id="mcp-empty-parens"),
    pytest.param("B*", ["B*"], id="approved-identical-inert-covers-nothing"),
]


@pytest.mark.parametrize(("entry", "approved"), INERT_ROWS)
def test_inert_entries_are_dropped_as_inert(entry: str, approved: list[str]) -> None:
    verdict = prove(entry, approved)
    assert verdict.status == "inert"
    assert not verdict.covered
    decision = constrain([entry, "Bash(ls)"], [*approved, "Bash(ls)"])
    assert decision.allowed == ["Bash(ls)"]
    assert [(v.entry, v.status) for v in decision.dropped] == [(entry, "inert")]


@pytest.mark.parametrize(
    ("entry", "approved"),
    [
        pytest.param("Write()", ["Write"], id="write-empty-parens"),
        pytest.param("Write(*)", ["Write"], id="write-star"),
        pytest.param("Write", ["Write(*)"], id="write-bare-under-star"),
        pytest.param("NotebookEdit()", ["NotebookEdit"], id="notebookedit-empty"),
        pytest.param("Glob(*)", ["Glob"], id="glob-star"),
        pytest.param("Glob", ["Glob"], id="glob-bare"),
        pytest.param("mcp__gh__get_*", ["mcp__gh"], id="mcp-tool-star-is-anchored"),
    ],
)
def test_tool_level_forms_are_not_inert(entry: str, approved: list[str]) -> None:
    assert prove(entry, approved).status == "covered"


@pytest.mark.parametrize(
    "approved",
    [
        pytest.param(["LS", "Read"], id="removed"),
        pytest.param(["Write(src/**)", "Read"], id="path-rule"),
        pytest.param(["*", "Read"], id="tool-glob"),
        pytest.param(["mcp__gh(x)", "Read"], id="mcp-parens"),
    ],
)
def test_inert_approved_entries_are_valid_and_cover_nothing(approved: list[str]) -> None:
    assert prove("Read", approved).status == "covered"
    assert not prove("Bash(ls)", approved).covered
    assert not prove("Write(x)", approved).covered


def test_inert_approved_entries_are_restored_as_approved() -> None:
    # §5: nothing kept, approved non-empty → the approved entries are restored, inert or not.
    decision = constrain(["Bash(ls)"], ["*"])
    assert decision.restored
    assert decision.allowed == ["*"]


# --------------------------------------------------------------------------------------------
# Shell-tool aliases
# --------------------------------------------------------------------------------------------

SHELL_TOOLS = {"exec_command": {"command-argument": "cmd"}}

SHELL_ALIAS_ROWS = [
    pytest.param("exec_command(npm install)", ["Bash(npm *)"], "covered", id="alias-under-bash"),
    pytest.param("Bash(npm install)", ["exec_command(npm *)"], "covered", id="bash-under-alias"),
    pytest.param("exec_command(npm)", ["Bash(npm *)"], "covered", id="alias-trailing-space-rule"),
    pytest.param("exec_command(npm)", ["exec_command(npm *)"], "covered", id="alias-own-glob"),
    pytest.param("exec_command(npm test)", ["Bash(npm:*)"], "covered", id="alias-under-prefix"),
    pytest.param("exec_command(rm -rf /)", ["Bash(npm *)"], "not_covered", id="alias-escalation"),
    pytest.param("exec_command", ["Bash(npm *)"], "not_covered", id="alias-tool-wide"),
    pytest.param("exec_command(ls)", ["Bash"], "covered", id="alias-under-tool-wide-bash"),
    pytest.param("Bash(ls)", ["exec_command"], "covered", id="bash-under-tool-wide-alias"),
]


@pytest.mark.parametrize(("entry", "approved", "status"), SHELL_ALIAS_ROWS)
@pytest.mark.parametrize(
    "shell_tools",
    [pytest.param(SHELL_TOOLS, id="mapping"), pytest.param(["exec_command"], id="names")],
)
def test_shell_tool_aliases_share_the_command_domain(
    entry: str, approved: list[str], status: str, shell_tools: object
) -> None:
    # In the plan's own vocabulary (no runtime profile: the call gate, which translates each
    # runtime's tools itself), a declared alias joins Bash.
    verdict = prove_prepared(entry, plan_for(approved, shell_tools, None))  # type: ignore[arg-type]
    assert verdict.status == status
    if status == "not_covered":
        assert verdict.witness is not None


@pytest.mark.parametrize(("entry", "approved", "status"), SHELL_ALIAS_ROWS)
def test_shell_tool_aliases_join_nothing_under_claude_code(entry: str, approved: list[str],
                                                           status: str) -> None:
    # Claude Code has no exec_command (issue 28, class 5): there the alias is a tool it does not
    # have, which grants nothing, so it neither covers Bash nor is covered by it. An identical
    # entry still covers itself (a tool-wide alias under an identical one: no wider).
    verdict = prove(entry, approved, shell_tools=SHELL_TOOLS, runtime="claude-code")
    assert verdict.status == "not_covered", verdict


def test_shell_alias_kept_entry_is_written_for_its_own_tool() -> None:
    # The covering approved entry belongs to another tool (Bash); writing the kept entry as
    # `Bash(...)` would change which tool it grants.
    verdict = prove_prepared("exec_command(npm install)",
                             plan_for(["Bash(npm *)"], SHELL_TOOLS, None))
    assert verdict.written == "exec_command(npm install)"
    # Under Claude Code the alias is no shell tool: dropped, and the plan restored.
    decision = constrain(["exec_command(npm install)"], ["Bash(npm *)"], shell_tools=SHELL_TOOLS)
    assert decision.restored and decision.allowed == ["Bash(npm *)"]


NO_ALIAS_ROWS = [
    # Without a declared alias, exec_command is just another tool (§4.6).
    pytest.param("exec_command(npm install)", ["Bash(npm *)"], "not_covered", id="different-tool"),
    pytest.param("Bash(npm install)", ["exec_command(npm *)"], "not_covered", id="reverse"),
    pytest.param("exec_command(npm)", ["exec_command(npm *)"], "not_covered", id="no-space-rule"),
    pytest.param("exec_command(npm:x)", ["exec_command(npm:*)"], "covered", id="no-prefix-form"),
    pytest.param("exec_command(npm i)", ["exec_command(npm *)"], "covered", id="generic-glob"),
]


@pytest.mark.parametrize(("entry", "approved", "status"), NO_ALIAS_ROWS)
@pytest.mark.parametrize("shell_tools", [None, {}], ids=["none", "empty"])
def test_without_aliases_nothing_changes(
    entry: str, approved: list[str], status: str, shell_tools: dict[str, object] | None
) -> None:
    assert prove(entry, approved, shell_tools=shell_tools).status == status


def test_other_command_tools_do_not_cover_each_other_through_aliases() -> None:
    assert not prove("Monitor(npm test)", ["Bash(npm *)"], shell_tools=SHELL_TOOLS).covered
    assert not prove("exec_command(npm test)", ["Monitor(npm *)"], shell_tools=SHELL_TOOLS).covered
    assert not prove("exec_command(npm test)", ["PowerShell(npm *)"],
                     shell_tools=SHELL_TOOLS).covered
