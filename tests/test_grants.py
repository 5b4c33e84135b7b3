"""semantics §2, the ``allowed-tools`` value: splitting, the runtime-tokenizer check, control
characters, the entry grammar, syntax errors, and the ``Grant`` value (str/eq/hash).

Every expectation below is read off the contract's words; the row ids name the rule.
"""

from __future__ import annotations

import dataclasses

import pytest
from pinned import prove

import skillgrant
from skillgrant import AllowedToolsError, GrantSyntaxError, parse_grant, split_allowed_tools
from skillgrant.grants import runtime_split

# --------------------------------------------------------------------------------------------
# Splitting a value into entries
# --------------------------------------------------------------------------------------------

SPLIT_ROWS = [
    pytest.param("Bash(git add *), Read", ["Bash(git add *)", "Read"], id="spec-comma"),
    pytest.param(
        "Bash(git add *) Bash(git commit *)",
        ["Bash(git add *)", "Bash(git commit *)"],
        id="spec-whitespace",
    ),
    pytest.param(["Read Grep"], ["Read", "Grep"], id="spec-list-item-split"),
    pytest.param(["Read", "Grep"], ["Read", "Grep"], id="list-of-entries"),
    pytest.param(
        ["Bash(git add *), Read", "Grep"], ["Bash(git add *)", "Read", "Grep"], id="list-mixed"
    ),
    pytest.param("Bash(echo a, b) Read", ["Bash(echo a, b)", "Read"], id="comma-inside-parens"),
    pytest.param("Bash(echo a  b)", ["Bash(echo a  b)"], id="space-inside-parens"),
    pytest.param(
        "Bash(echo (a, b)) Read", ["Bash(echo (a, b))", "Read"], id="depth-aware-nested"
    ),
    pytest.param("Foo(x (y) Bash )", ["Foo(x (y) Bash )"], id="depth-aware-one-entry"),
    # `\(` does not open a group: depth stays 1, so the `)` closes the entry.
    pytest.param(r"Bash(echo \( x) Read", [r"Bash(echo \( x)", "Read"], id="escaped-open-paren"),
    pytest.param(r"Bash(echo \) x) Read", [r"Bash(echo \) x)", "Read"], id="escaped-close-paren"),
    pytest.param(" Read ,  Grep ", ["Read", "Grep"], id="trimmed"),
    pytest.param("Read,,Grep, ,", ["Read", "Grep"], id="blank-entries-ignored"),
    pytest.param("", [], id="empty-string"),
    pytest.param("  ,  ", [], id="only-separators"),
    pytest.param([], [], id="empty-list"),
    pytest.param(["", "   "], [], id="blank-list-items"),
    pytest.param("Read\tGrep\nGlob", ["Read", "Grep", "Glob"], id="tab-newline"),
    pytest.param("Read\u00a0Grep", ["Read", "Grep"], id="nbsp-is-whitespace"),
    pytest.param("Read\ufeffGrep", ["Read", "Grep"], id="bom-is-whitespace"),
    pytest.param("\ufeffRead", ["Read"], id="leading-bom-trimmed"),
    pytest.param("Read\u2028Grep\u3000Glob", ["Read", "Grep", "Glob"], id="js-unicode-spaces"),
    pytest.param("Read\vGrep\fGlob", ["Read", "Grep", "Glob"], id="vt-ff"),
]


@pytest.mark.parametrize(("value", "expected"), SPLIT_ROWS)
def test_split_allowed_tools(value: str | list[str], expected: list[str]) -> None:
    assert split_allowed_tools(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(3, id="number"),
        pytest.param(None, id="null"),
        pytest.param({"Bash": "ls"}, id="mapping"),
        pytest.param(["Read", None], id="null-item"),
        pytest.param(["Read", 3], id="number-item"),
        pytest.param(["Read", {"a": 1}], id="mapping-item"),
    ],
)
def test_split_rejects_non_strings(value: object) -> None:
    # §2: anything else is an input error for that file.
    with pytest.raises(AllowedToolsError) as excinfo:
        split_allowed_tools(value)  # type: ignore[arg-type]
    assert isinstance(excinfo.value, skillgrant.SkillgrantError)


# --------------------------------------------------------------------------------------------
# The runtime tokenizer check
# --------------------------------------------------------------------------------------------


def test_runtime_split_of_the_spec_example_yields_a_bare_bash() -> None:
    assert "Bash" in runtime_split("Foo(x (y) Bash )")
    assert len(runtime_split("Foo(x (y) Bash )")) != 1


AMBIGUOUS_ROWS = [
    pytest.param("Foo(x (y) Bash )", ["Bash", "Foo"], id="spec-nested-then-space"),
    pytest.param("Bash(a (b) c)", ["Bash"], id="nested-then-space"),
    pytest.param("Bash(f(a),b)", ["Bash"], id="nested-then-comma"),
    # No escape handling at runtime: the escaped `)` ends the group there.
    pytest.param(r"Bash(echo \) x)", ["Bash"], id="escaped-close-then-space"),
    pytest.param("Bash(ls) Read", ["Bash", "Read"], id="prove-one-entry-only-space"),
    pytest.param("Bash(ls), Read", ["Bash", "Read"], id="prove-one-entry-only-comma"),
    pytest.param("Read\u00a0Grep", ["Read", "Grep"], id="prove-one-entry-only-nbsp"),
    pytest.param("Read\ufeffGrep", ["Read", "Grep"], id="prove-one-entry-only-bom"),
]


@pytest.mark.parametrize(("entry", "approved"), AMBIGUOUS_ROWS)
def test_ambiguous_entries_are_never_kept(entry: str, approved: list[str]) -> None:
    verdict = prove(entry, approved)
    assert verdict.status == "ambiguous"
    assert not verdict.covered
    assert verdict.covered_by is None


def test_ambiguous_entry_is_never_written() -> None:
    decision = skillgrant.constrain(["Foo(x (y) Bash )", "Read"], ["Bash", "Foo", "Read"])
    assert decision.allowed == ["Read"]
    assert [(v.entry, v.status) for v in decision.dropped] == [("Foo(x (y) Bash )", "ambiguous")]


NOT_AMBIGUOUS_ROWS = [
    # Nested parentheses not followed by a separator: the runtime's flag yields the same entry.
    pytest.param("Bash(echo (hi))", ["Bash(echo *)", "Bash(echo (hi))"], id="nested-at-end"),
    # (with a backslash, decided by identity only: semantics §2, the runtime unescapes it twice)
    pytest.param(r"Bash(echo \( x)", [r"Bash(echo \( x)"], id="escaped-open-paren"),
    pytest.param(r"Bash(echo \))", ["Bash", "Monitor", "Bash(echo *)"],
                 id="escaped-close-paren-at-end"),
    pytest.param("Bash(echo\u00a0hi)", ["Bash(echo*)", "Bash(echo\u00a0hi)"],
                 id="nbsp-inside-parens"),
]


@pytest.mark.parametrize(("entry", "approved"), NOT_AMBIGUOUS_ROWS)
def test_same_entry_for_both_tokenizers_is_decided(entry: str, approved: list[str]) -> None:
    assert runtime_split(entry) == [entry]
    assert prove(entry, approved).status == "covered"


# --------------------------------------------------------------------------------------------
# Control characters
# --------------------------------------------------------------------------------------------

CONTROL_ROWS = [
    pytest.param("Bash(ls\x00)", 7, id="nul"),
    pytest.param("Bash(ls\r)", 7, id="cr"),
    pytest.param("Bash(ls\x7f)", 7, id="del"),
    pytest.param("Bash(ls\x1b[0m)", 7, id="esc"),
    pytest.param("Bash(ls\x08)", 7, id="backspace"),
    pytest.param("Bash(ls\x85)", 7, id="c1-nel"),
    pytest.param("Re\x00ad", 2, id="in-name"),
    # Python whitespace, not JavaScript whitespace: a control character, not a separator.
    pytest.param("Read\x1cGrep", 4, id="file-separator"),
]


@pytest.mark.parametrize(("entry", "position"), CONTROL_ROWS)
def test_control_characters_make_an_entry_invalid(entry: str, position: int) -> None:
    verdict = prove(entry, ["Bash", "Read"])
    assert verdict.status == "invalid"
    assert not verdict.covered
    with pytest.raises(GrantSyntaxError) as excinfo:
        parse_grant(entry)
    assert excinfo.value.entry == entry
    assert excinfo.value.position == position


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param("Bash(printf a\tb)", id="tab"),
        pytest.param("Bash(echo a\nb)", id="newline"),
    ],
)
def test_tab_and_newline_are_allowed(entry: str) -> None:
    parse_grant(entry)
    assert prove(entry, ["Bash", "Monitor"]).status == "covered"


# --------------------------------------------------------------------------------------------
# Entry grammar
# --------------------------------------------------------------------------------------------

VALID_ENTRIES = [
    pytest.param("Bash", id="bare"),
    pytest.param("Bash(gh *)", id="with-content"),
    pytest.param("my-tool_2", id="ascii-name-dash-underscore"),
    pytest.param("X", id="one-letter"),
    pytest.param("mcp__github", id="mcp-server"),
    pytest.param("mcp__github__get_issue", id="mcp-tool"),
    pytest.param("mcp__gh__get_*", id="mcp-tool-star"),
    pytest.param("mcp__my-server__do_it", id="mcp-dash"),
    pytest.param(r"Bash(echo \(x\))", id="escaped-parens"),
    pytest.param(r"Bash(echo \\)", id="escaped-backslash"),
    pytest.param(r"Bash(echo \*)", id="escaped-star"),
    pytest.param("Bash(echo (hi))", id="nested-parens"),
    pytest.param("Bash(a)b)", id="content-to-final-paren"),
    pytest.param("Bash()", id="empty-content"),
    pytest.param("mcp__gh__x(y)", id="mcp-with-parens-parses"),
]


@pytest.mark.parametrize("entry", VALID_ENTRIES)
def test_valid_entries_parse(entry: str) -> None:
    grant = parse_grant(entry)
    assert parse_grant(str(grant)) == grant


SYNTAX_ERROR_ROWS = [
    pytest.param("B\u0430sh", 1, id="cyrillic-a"),
    pytest.param("\u0412ash", 0, id="cyrillic-first-letter"),
    pytest.param("\uff22ash", 0, id="fullwidth-letter"),
    pytest.param("Bash\uff08ls\uff09", 4, id="fullwidth-paren"),
    pytest.param("R\u00e9ad", 1, id="latin-accent"),
    pytest.param("1Bash", 0, id="leading-digit"),
    pytest.param("_Bash", 0, id="leading-underscore"),
    pytest.param("Foo.bar", 3, id="dot-in-name"),
    pytest.param("(ls)", 0, id="no-name"),
]


@pytest.mark.parametrize(("entry", "position"), SYNTAX_ERROR_ROWS)
def test_syntax_errors_name_entry_and_position(entry: str, position: int) -> None:
    with pytest.raises(GrantSyntaxError) as excinfo:
        parse_grant(entry)
    err = excinfo.value
    assert err.entry == entry
    assert err.position == position
    assert isinstance(err, skillgrant.SkillgrantError)
    caret_line = str(err).splitlines()[-1]
    assert caret_line.rstrip().endswith("^")
    entry_line = str(err).splitlines()[-2]
    # The caret sits under the offending character of the echoed entry.
    assert len(caret_line) - 1 - (len(entry_line) - len(entry)) == position
    assert prove(entry, ["Bash", "Read"]).status == "invalid"


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param("Bash(ls", id="unclosed"),
        pytest.param(r"Bash(ls\)", id="final-paren-escaped"),
        pytest.param("Bash(ls)x", id="text-after-final-paren"),
        pytest.param("Bash)", id="close-without-open"),
        pytest.param("Bash(", id="open-only"),
    ],
)
def test_content_must_end_the_entry(entry: str) -> None:
    with pytest.raises(GrantSyntaxError) as excinfo:
        parse_grant(entry)
    assert excinfo.value.entry == entry
    assert 0 <= excinfo.value.position <= len(entry)
    assert prove(entry, ["Bash"]).status == "invalid"


# The whole message, pinned: the message, the entry, and a caret under the right column.
MESSAGE_ROWS = [
    pytest.param(
        "B\u0430sh(ls)",
        "non-ASCII character '\u0430' (U+0430) in a tool name"
        " in entry 'B\u0430sh(ls)' at column 2\n"
        "    B\u0430sh(ls)\n"
        "     ^",
        id="cyrillic",
    ),
    pytest.param(
        "Bash\uff08ls\uff09",
        "non-ASCII character '\uff08' (U+FF08) in a tool name"
        " in entry 'Bash\uff08ls\uff09' at column 5\n"
        "    Bash\uff08ls\uff09\n"
        "        ^",
        id="fullwidth-paren",
    ),
    pytest.param(
        "Bash(ls\x00)",
        "control character U+0000 in entry 'Bash(ls\\x00)' at column 8\n"
        "    Bash(ls?)\n"
        "           ^",
        id="nul",
    ),
    pytest.param(
        "1Bash",
        "a tool name must start with an ASCII letter in entry '1Bash' at column 1\n"
        "    1Bash\n"
        "    ^",
        id="leading-digit",
    ),
    pytest.param(
        "Bash(ls",
        "an entry with '(' must end with an unescaped ')' in entry 'Bash(ls' at column 8\n"
        "    Bash(ls\n"
        "           ^",
        id="unclosed-caret-at-end",
    ),
]


@pytest.mark.parametrize(("entry", "message"), MESSAGE_ROWS)
def test_syntax_error_message_pinned(entry: str, message: str) -> None:
    with pytest.raises(GrantSyntaxError) as excinfo:
        parse_grant(entry)
    assert str(excinfo.value) == message


# --------------------------------------------------------------------------------------------
# Tool-wide forms and MCP parentheses
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("tool", ["Bash", "Read", "WebFetch", "Agent", "MyTool"])
def test_empty_and_star_content_mean_the_bare_tool(tool: str) -> None:
    bare, empty, star = parse_grant(tool), parse_grant(f"{tool}()"), parse_grant(f"{tool}(*)")
    assert bare == empty == star
    assert hash(bare) == hash(empty) == hash(star)
    assert str(empty) == str(star) == tool
    for a in (tool, f"{tool}()", f"{tool}(*)"):
        for b in (tool, f"{tool}()", f"{tool}(*)"):
            assert prove(a, [b]).status == "covered", (a, b)


@pytest.mark.parametrize("entry", ["mcp__gh()", "mcp__gh(*)", "mcp__gh__get_issue(x)"])
def test_mcp_entries_with_parentheses_are_not_the_bare_tool(entry: str) -> None:
    assert parse_grant(entry) != parse_grant(entry.split("(")[0])
    assert prove(entry, ["mcp__gh"]).status == "inert"


# --------------------------------------------------------------------------------------------
# The Grant value: canonical str, equality, hash, immutability
# --------------------------------------------------------------------------------------------

STR_ROWS = [
    pytest.param("bash(gh *)", "Bash(gh *)", id="canonical-case"),
    pytest.param("BASH", "Bash", id="canonical-case-bare"),
    pytest.param("Read(*)", "Read", id="star-is-bare"),
    pytest.param("Read()", "Read", id="empty-is-bare"),
    pytest.param("webfetch(domain:x.com)", "WebFetch(domain:x.com)", id="webfetch-case"),
    pytest.param("Task(Explore)", "Agent(Explore)", id="alias-task"),
    pytest.param("killshell", "TaskStop", id="alias-killshell"),
    pytest.param(r"Bash(echo \(x\))", r"Bash(echo \(x\))", id="escapes-kept"),
    pytest.param("mcp__GitHub__Get", "mcp__GitHub__Get", id="mcp-verbatim"),
    pytest.param("MyTool(x)", "MyTool(x)", id="unknown-tool-as-given"),
]


@pytest.mark.parametrize(("entry", "text"), STR_ROWS)
def test_str_is_canonical_and_round_trips(entry: str, text: str) -> None:
    grant = parse_grant(entry)
    assert str(grant) == text
    assert parse_grant(str(grant)) == grant
    assert str(parse_grant(str(grant))) == text


EQUAL_ROWS = [
    pytest.param("bash(ls)", "Bash(ls)", True, id="tool-case-insensitive"),
    pytest.param("Bash(ls)", "Bash(LS)", False, id="bash-content-case-sensitive"),
    pytest.param("Task(x)", "Agent(x)", True, id="alias-equals-canonical"),
    pytest.param("mcp__gh", "mcp__GH", False, id="mcp-verbatim"),
    pytest.param("Bash(ls)", "Monitor(ls)", False, id="different-tools"),
    pytest.param("Bash(ls)", "Bash(ls *)", False, id="different-content"),
    pytest.param("Bash", "Bash(ls)", False, id="bare-vs-scoped"),
]


@pytest.mark.parametrize(("left", "right", "equal"), EQUAL_ROWS)
def test_equality_and_hash(left: str, right: str, equal: bool) -> None:
    a, b = parse_grant(left), parse_grant(right)
    assert (a == b) is equal
    if equal:
        assert hash(a) == hash(b)
        assert len({a, b}) == 1


def test_grants_are_immutable() -> None:
    grant = parse_grant("Bash(ls)")
    with pytest.raises((dataclasses.FrozenInstanceError, AttributeError)):
        grant.content = "rm -rf /"  # type: ignore[misc]


def test_parse_grant_rejects_non_strings() -> None:
    with pytest.raises(skillgrant.SkillgrantError):
        parse_grant(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("entry", "shown"),
    [
        pytest.param("Bash(" + "a" * 200 + "\x00)", "?", id="control-near-end"),
        pytest.param("B\u0430sh(" + "x" * 300 + ")", "\u0430", id="cyrillic-near-start"),
        pytest.param("B" + "a" * 150 + "\u0430" + "a" * 150, "\u0430",
                     id="cyrillic-in-the-middle-of-a-long-name"),
    ],
)
def test_caret_stays_under_the_offending_character_in_long_entries(
    entry: str, shown: str
) -> None:
    with pytest.raises(GrantSyntaxError) as excinfo:
        parse_grant(entry)
    *_, echoed, caret = str(excinfo.value).splitlines()
    column = caret.index("^")
    assert echoed[column] == shown, (echoed, caret)
    assert excinfo.value.entry == entry
    assert entry[excinfo.value.position] in {shown, "\x00"}
