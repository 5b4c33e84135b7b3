"""Review s47-freview2 of session 47's reader fixes (s47-ffix, s47-pfix, s47-batch): files
``check`` passes or ``apply`` keeps (or writes, under ``--enforce``) that a runtime reads with
more grants than the plan, or that run something the plan does not carry. Each test in
``OPEN`` fails today and is a strict xfail, so a fix shows as an unexpected pass (then drop
its row).

The runtimes' readings written here were measured: Bun 1.4.5 running the runtime's frontmatter
steps (``test_*_bun_reads_*`` pin them, skipped without Bun).
"""

from __future__ import annotations

import pytest
from reader_review import bun_parse, copilot_allowed, enforce_refuses, needs_bun, needs_copilot
from reader_review import past_claude_code as _past_claude_code
from reader_review import skill as _skill
from review_table import LeftOpen

from skillgrant.errors import SkillFileError
from skillgrant.plan import Plan
from skillgrant.skillfile import apply_to_text, read_skill
from skillgrant.skillfile.removed import removed_tools

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

# R1: s47-ffix's F1 fix reads past comments between a node's properties (``&a # c`` ⏎
# ``!!null ev``), but a comment ends at any line break, and a lone CR is one for both parsers:
# ``_separated`` skips the comment to the next LF, over the tag, so the tag is not seen.
# PyYAML builds None (or a set); Bun reads ``ev``, ``fork``, a mapping.
R1_AGENT = {
    "cr-after-anchor-comment": "agent: &a # c\r  !!null ev",
    "cr-comment-line": "agent: &a\n  # c\r  !!null ev",
    "fork-and-agent": "context: fork\nagent: &a # c\r  !!null helper",
    # in the runtime's retried text (Bun rejects `: ` in a plain value, or `[a] b`): the
    # runtime's `_u` leaves these lines, and its tab rule (`^` after a CR too) makes the last
    # one's `\t` two spaces
    "retried-colon-value": "when_to_use: use it: now\nagent: &a # c\r  !!null ev",
    "retried-argument-hint": "argument-hint: [a] b\nagent:\n  &a # c\r  !!null ev",
    "retried-quoted-key-tab": 'when_to_use: use it: now\n"agent": &a # c\r\t!!null ev',
}
R1_ENFORCE = {
    "pretooluse-null": "PreToolUse: &a # c\r  !!null x",
    "context-null-fork": "context: &a # c\r  !!null fork",
    "set-mapping": "x: &a # c\r  !!set {PreToolUse: y}",
}


@pytest.mark.parametrize("row", sorted(R1_AGENT))
def test_r1_apply_keeps_an_agent_tagged_after_a_cr_ended_comment(row: str) -> None:
    with pytest.raises(SkillFileError):
        apply_to_text(_skill("Read", R1_AGENT[row]), Plan.from_entries(["Read"]))


@pytest.mark.parametrize("row", sorted(R1_ENFORCE))
def test_r1_enforce_writes_a_hook_beside_a_value_tagged_after_a_cr_ended_comment(
        row: str) -> None:
    enforce_refuses(R1_ENFORCE[row])


#: Past Claude Code's frontmatter (which ends inside ``a---b``), Copilot CLI 1.0.102 reads the
#: key ``allowed-tools: Bash`` (every shell command); with an empty plan apply keeps the file.
R1_COPILOT = {
    "complex-key-cr-comment": "? &a # c\r  !!binary allowed-tools\n: Bash",
    "complex-key-cr-comment-line": "? &a\n  # c\r  !!binary allowed-tools\n: Bash",
}


@pytest.mark.parametrize("row", sorted(R1_COPILOT))
def test_r1_apply_keeps_a_key_tagged_after_a_cr_ended_comment_copilot_reads(row: str) -> None:
    with pytest.raises(SkillFileError):
        apply_to_text(_past_claude_code(R1_COPILOT[row]), Plan.from_entries([]))


@needs_copilot
def test_r1_copilot_reads_the_key_tagged_after_a_cr_ended_comment() -> None:
    texts = [_past_claude_code(R1_COPILOT[row]) for row in sorted(R1_COPILOT)]
    assert copilot_allowed(texts) == [["Bash"]] * len(texts)


@needs_bun
def test_r1_bun_reads_a_value_tagged_after_a_cr_ended_comment_untagged() -> None:
    texts = [R1_AGENT["cr-after-anchor-comment"], R1_AGENT["cr-comment-line"],
             R1_ENFORCE["pretooluse-null"], R1_ENFORCE["context-null-fork"],
             R1_ENFORCE["set-mapping"]]
    assert bun_parse(texts) == [{"agent": "ev"}, {"agent": "ev"}, {"PreToolUse": "x"},
                                {"context": "fork"}, {"x": {"PreToolUse": "y"}}]


# R2: s47-ffix's X1 fix (flowlenient.bun_may_accept) refuses an error PyYAML reports inside a
# flow collection, but where a ``${`` is on the error's line (Bun rejects ``${`` in a plain
# scalar there: real skill 34). A ``${`` in a comment or a quoted item does not make Bun reject
# it: Bun reads ``[{"PreToolUse": "y"}, {"null": "b"}, ...]`` as written (the runtime drops the
# skill's hooks), skillgrant reads the retry's string and ``apply --enforce`` writes its hook.
R2 = {
    "comment": "x: [PreToolUse: y, : b] # ${V}",
    "single-quoted": "x: [PreToolUse: y, : b, '${V}']",
    "double-quoted": 'x: [PreToolUse: y, : b, "${V}"]',
    "quoted-before": "x: [PreToolUse: y, '${V}', : b]",
    "mapping": "x: {PreToolUse: y, : b, k: '${V}'}",
}


@pytest.mark.parametrize("row", sorted(R2))
def test_r2_enforce_writes_a_hook_beside_a_flow_value_with_a_quoted_or_commented_dollar(
        row: str) -> None:
    enforce_refuses(R2[row])


@needs_bun
def test_r2_bun_reads_the_flow_values_as_written() -> None:
    assert bun_parse([R2["comment"], R2["single-quoted"], R2["mapping"]]) == [
        {"x": [{"PreToolUse": "y"}, {"null": "b"}]},
        {"x": [{"PreToolUse": "y"}, {"null": "b"}, "${V}"]},
        {"x": {"PreToolUse": "y", "null": "b", "k": "${V}"}}]


# R3: ``x: `` CR ``: b``. A lone CR is a YAML line break, so the text holds an empty key at
# column 0, which PyYAML rejects and Bun 1.4.5 reads (``{"x": null, "null": "b"}``).
# ``runtime._rejected`` takes PyYAML's error for Bun's rejection and reads the runtime's retry
# (whose ``_u`` splits on LF only: the CR line is one ``key: value`` line, and re-quoting it
# changes the text, so the retry is computed). Every other line the retry re-quotes is then
# read as a string where Bun reads it as written: ``y: {PreToolUse: y}`` a mapping (the runtime
# drops the skill's hooks, X1's mechanism), ``context: &a fork`` the fork.
R3 = {
    "mapping-after": "x: \r: b\ny: {PreToolUse: y}",
    "mapping-before": "y: {PreToolUse: y}\nx: \r: b",
    "permission-request": "x: \r: b\nz: {PermissionRequest: y}",
    "context-anchored-fork": "x: \r: b\ncontext: &a fork",
}


@pytest.mark.parametrize("row", sorted(R3))
def test_r3_enforce_writes_a_hook_beside_an_empty_key_after_a_cr(row: str) -> None:
    enforce_refuses(R3[row])


@needs_bun
def test_r3_bun_reads_an_empty_key_after_a_cr_as_written() -> None:
    assert bun_parse([R3["mapping-after"], R3["context-anchored-fork"]]) == [
        {"x": None, "null": "b", "y": {"PreToolUse": "y"}},
        {"x": None, "null": "b", "context": "fork"}]


# R4: R3's mechanism with another text PyYAML rejects and Bun 1.4.5 reads as written: a plain
# value starting with ``,`` after an anchor or a tag (``x: &a , a`` is ``", a"`` to Bun). The
# anchor or tag makes the runtime's retry re-quote the line, so the retry is computed, and the
# other re-quoted lines are read as strings where Bun reads them as written.
R4 = {
    "anchor": "x: &a , a\ny: {PreToolUse: y}",
    "tag": "x: !!null , a\ny: {PreToolUse: y}",
    "anchor-fork": "x: &a , a\ncontext: &b fork",
}


@pytest.mark.parametrize("row", sorted(R4))
def test_r4_enforce_writes_a_hook_beside_a_comma_value_after_an_anchor(row: str) -> None:
    enforce_refuses(R4[row])


@needs_bun
def test_r4_bun_reads_a_comma_value_after_an_anchor_as_written() -> None:
    assert bun_parse([R4["anchor"], R4["anchor-fork"]]) == [
        {"x": ", a", "y": {"PreToolUse": "y"}}, {"x": ", a", "context": "fork"}]


# R5 (low: shown wrongly): what ``disallowed-tools`` removes, read through R1, R3, R4, R7. Bun
# 1.4.5 runs the runtime's EHe on each and removes ``Read`` alone (tests/oracle/bun_reader.js's
# ``removed``); skillgrant showed ``&a``/``#``/``Write`` too. Closed (session 48): the runtime's
# reading of each cannot be computed (``runtime._rejected``'s ``_BUN_READS``, R1's comment at
# a lone CR), so the reader refuses the file (``check`` reports an error, a plan source is
# refused) and ``removed_tools`` shows nothing; a value shown must be the runtime's.
R5 = {
    "cr-empty-key": "x: \r: b\ndisallowed-tools: &a Read",
    "comma-after-anchor": "x: &a , a\ndisallowed-tools: Read # Write",
    "leading-comma": "disallowed-tools: , Read # Write",
    "tab-comment-line": "disallowed-tools: Read # Write\n\t# c",
    "tag-after-cr-comment": "disallowed-tools: &a # c\r  !!null Read",
}


@pytest.mark.parametrize("row", sorted(R5))
def test_r5_disallowed_tools_shown_as_the_runtime_reads_them(row: str) -> None:
    text = _skill("Read", R5[row])
    found = removed_tools(text)
    if found is not None:
        assert found.entries == ("Read",)
        return
    with pytest.raises(SkillFileError):  # nothing shown: the file itself is refused
        read_skill(text)


# R6: R3's mechanism with a control character: ``x: `` U+000C ``@``. PyYAML refuses U+000B and
# U+000C anywhere; Bun 1.4.5 reads them as a plain scalar's first character (``"\x0c@"``). The
# runtime's retry (``_u``: ``\s+`` is JavaScript's, which takes them) re-quotes the line without
# it, so the retry composes and is read; ``y: {PreToolUse: y}`` is a string there.
R6 = {
    "form-feed": "x: \x0c@\ny: {PreToolUse: y}",
    "vertical-tab": "x:\t\x0b*a\ny: {PreToolUse: y}",
    "form-feed-fork": "x: \x0c@\ncontext: &c fork",
}


@pytest.mark.parametrize("row", sorted(R6))
def test_r6_enforce_writes_a_hook_beside_a_value_opening_with_a_form_feed(row: str) -> None:
    enforce_refuses(R6[row])


@needs_bun
def test_r6_bun_reads_a_value_opening_with_a_form_feed_as_written() -> None:
    assert bun_parse([R6["form-feed"], R6["vertical-tab"], R6["form-feed-fork"]]) == [
        {"x": "\x0c@", "y": {"PreToolUse": "y"}}, {"x": "\x0b*a", "y": {"PreToolUse": "y"}},
        {"x": "\x0c@", "context": "fork"}]


# R7: R3's mechanism with a comment line indented by a tab (``\t# c``), as editors write them.
# PyYAML rejects the tab; Bun 1.4.5 reads a comment. The runtime's retry turns leading tabs into
# spaces, so it composes, and skillgrant reads it: ``y: {PreToolUse: y}`` is a string there.
R7 = {
    "between-keys": "x: 1\n\t# c\ny: {PreToolUse: y}",
    "first": "\t# c\ny: {PreToolUse: y}",
    "last": "y: {PreToolUse: y}\n\t# c",
    "tab-only-line": "y: {PreToolUse: y}\n\t",
}


@pytest.mark.parametrize("row", sorted(R7))
def test_r7_enforce_writes_a_hook_beside_a_tab_indented_comment_line(row: str) -> None:
    enforce_refuses(R7[row])


@needs_bun
def test_r7_bun_reads_a_tab_indented_comment_line_as_a_comment() -> None:
    assert bun_parse([R7["between-keys"], R7["last"], R7["tab-only-line"]]) == [
        {"x": 1, "y": {"PreToolUse": "y"}}, {"y": {"PreToolUse": "y"}},
        {"y": {"PreToolUse": "y"}}]


# R8 (low: reported entries the runtime does not read; issue 27's differential counts it a
# failure): R7's line after a block scalar. Bun 1.4.5 reads the file as written (the runtime's
# entries, measured through bun_reader.js); skillgrant reads the retry, where ``  # c`` is the
# scalar's text. No grant: apply's rewrite is read back, or refused.
R8 = {
    "folded-crlf": ("allowed-tools: >\r\n Bash(touch *)\n\t# c", ("Bash(touch *)",)),
    "literal-indicator-cr": ("allowed-tools: |2\r  Bash(touch *)\n\t# c\ny: z",
                             ("Bash(touch *)",)),
    "cr-then-key": ("allowed-tools: \ra: b\n\t# c", ()),
}


@pytest.mark.parametrize("row", sorted(R8))
def test_r8_check_reports_the_entries_the_runtime_reads(row: str) -> None:
    text, entries = R8[row]
    try:
        doc = read_skill(f"---\nname: p\ndescription: d\n{text}\n---\nb\n")
    except SkillFileError:
        return  # refused: sound
    assert doc.runtime_entries == entries
