"""Adversarial review: inputs an attacker who controls the SKILL.md (not the plan) might use to
get a kept grant wider than the plan, or a rewrite that differs from what was proven.

Findings are ``xfail(strict=True)`` tests asserting the *correct* behaviour; the passing tests
pin subtle rules that held and are worth keeping.
"""

from __future__ import annotations

import logging

import frontmatter
import pytest
import yaml

from skillgrant import Plan, SkillFileError, apply_to_text, prove

# --------------------------------------------------------------------------------------------
# MCP: a server name ending in "_" makes the "__" delimiter ambiguous
# --------------------------------------------------------------------------------------------
#
# The runtime reads an MCP name by splitting it on "__" (server = the text before the first
# "__" after "mcp__"), for rules and tool names alike. `mcp__a___b` is therefore server `a`,
# tool `_b` -- and it is also the full name of tool `b` on a server named `a_` (the runtime
# normalises server names, so `a.` or `a!` become `a_`). The prover models `mcp__a_` as the
# full-name glob `mcp__a___*`, which contains `mcp__a___b`; at runtime the approved server rule
# `mcp__a_` compares its server `a_` with the tool's parsed server `a` and never matches, while
# the kept rule `mcp__a___b` matches the tool name exactly.


@pytest.mark.parametrize("submitted", ["mcp__a___b", "mcp__a___*"])
def test_mcp_server_ending_in_underscore_does_not_cover_triple_underscore_names(
    submitted: str,
) -> None:
    assert prove(submitted, ["mcp__a_"]).status != "covered"


def test_mcp_ambiguous_boundaries_are_decided_by_identity_only() -> None:
    # (Claude Code's reading: under Copilot CLI an MCP entry is covered only by itself.)
    # `mcp__gh___x` splits to server `gh` (tool `_x`) on the first "__", but a runtime that
    # knows a server `gh_` reads it as that server's tool `x`: fail closed, unless identical.
    assert prove("mcp__gh___x", ["mcp__gh"], runtime="claude-code").status == "unknown"
    assert prove("mcp__gh___x", ["mcp__gh___x"], runtime="claude-code").covered
    assert prove("mcp__a_", ["mcp__a_"], runtime="claude-code").covered
    # (not covered; no certain witness, as the approved name itself can be read two ways)
    assert not prove("mcp__a__x", ["mcp__a_"], runtime="claude-code").covered
    # Issue 28, class 6: a server name may hold "__", and rules match the tool's own server.
    assert prove("mcp__a__b__*", ["mcp__a"], runtime="claude-code").status == "unknown"
    assert prove("mcp__a__b__t", ["mcp__a"], runtime="claude-code").status == "unknown"
    assert prove("mcp__a__b__t", ["mcp__a__b__t"], runtime="claude-code").covered
    assert prove("mcp__a__t", ["mcp__a"], runtime="claude-code").covered


# --------------------------------------------------------------------------------------------
# Fences: a "..." closing fence followed by a later "---" line
# --------------------------------------------------------------------------------------------
#
# skillgrant ends the frontmatter at the "..." line and treats what follows as body. A reader
# that fences only on "---" lines (python-frontmatter itself, gray-matter, many hand-written
# loaders) takes everything up to the later "---" as frontmatter: python-frontmatter raises on
# the raw file, a YAML 1.2 stream reader sees a second document holding `allowed-tools: Bash`,
# and a line-based "key: value" loader (last key wins) reads `allowed-tools: Bash`. The file is
# accepted and the unapproved grant is left in place; readers disagree on which allowed-tools
# is in force, which docs/builder-stage.md already treats as a reason to refuse (dash lines).

DOTS_THEN_DASHES = (
    "---\n"
    "name: x\n"
    "allowed-tools: Read\n"
    "...\n"
    "allowed-tools: Bash\n"
    "---\n"
    "body\n"
)


def test_python_frontmatter_cannot_read_the_dots_then_dashes_file() -> None:
    # The premise of the finding below: the contract's own metadata reader fails on the raw file
    # (skillgrant hides this by showing it the "..." as "---").
    with pytest.raises(yaml.YAMLError):
        frontmatter.parse(DOTS_THEN_DASHES)



def test_dots_fence_followed_by_dashes_with_allowed_tools_is_refused() -> None:
    with pytest.raises(SkillFileError):
        apply_to_text(DOTS_THEN_DASHES, Plan.from_entries(["Read"]))


# --------------------------------------------------------------------------------------------
# Rules that held (pinned: each is a subtle line an optimisation could cross)
# --------------------------------------------------------------------------------------------


def test_a_tab_in_a_command_pattern_is_decided_by_identity_only() -> None:
    # Claude Code 2.1.332 collapses tabs and runs of spaces to one space in a wildcard rule and
    # in the command, so `ls\t*` may read as `ls *` there: neither side is decided by how it
    # is written (it used to be `not_covered` both ways, which the runtime does not bear out).
    assert prove("Bash(ls *)", ["Bash(ls\t*)"]).status == "unknown"
    assert prove("Bash(a\tb)", ["Bash(a *)"]).status == "unknown"
    assert prove("Bash(ls\t*)", ["Bash(ls\t*)"]).status == "covered"


@pytest.mark.parametrize("separator", ["\u00a0", "\ufeff", "\u3000"])
def test_js_whitespace_separator_in_file_value_is_split_before_proving(separator: str) -> None:
    # The runtime splits on JavaScript's \s; so must we, or `Bash(rm -rf /)` would hide inside
    # a "single" entry that starts with Read. (U+2028 is a YAML 1.1 line break: refused.)
    text = f"---\nallowed-tools: Read{separator}Bash(rm -rf /)\n---\n"
    logging.getLogger("skillgrant").disabled = True
    try:
        out, decision = apply_to_text(text, Plan.from_entries(["Read"]))
    finally:
        logging.getLogger("skillgrant").disabled = False
    assert decision.allowed == ["Read"]
    assert out == "---\nallowed-tools: Read\n---\n"


def test_escaped_paren_that_the_runtime_reads_as_a_close_is_ambiguous() -> None:
    # Ours: one entry (the `\)` is escaped); the runtime: `Bash(x\)` and a second entry.
    assert prove("Bash(x\\) Read(y)", ["Bash", "Read"]).status == "ambiguous"


def test_glob_whose_bare_form_is_compound_is_kept_only_because_globs_match_per_part() -> None:
    # `Bash(gh pr list && rm -rf / *)` is a GLOB: the runtime applies it to each part of a
    # compound command, and no part holds an unquoted `&&`, so it approves nothing wider than
    # `gh *`. Pinned: if the runtime ever approved a trailing-` *` rule's bare form whole (as it
    # does an EXACT rule), this verdict would have to become "unknown".
    verdict = prove("Bash(gh pr list && rm -rf / *)", ["Bash(gh *)"])
    assert verdict.covered
    assert prove("Bash(gh pr list && rm -rf /)", ["Bash(gh *)"]).status == "unknown"



# --------------------------------------------------------------------------------------------
# The filler of a generic instance must be absent from the approved literals, always
# --------------------------------------------------------------------------------------------
#
# Inclusion is decided by replacing each star of the submitted pattern with a character that
# occurs in no approved literal (domains/base.py). When the approved entries used every
# readable filler, the last resort U+FDEF was returned unchecked, so `src/*\ufdef*` matched the
# "generic" instance `src/\ufdef` and `Read(src/*)` was kept although `Read(src/a)` is not
# under it.

_EVERY_READABLE_FILLER = "xyzqwkjvbgfmp0123456789_"


@pytest.mark.parametrize(("entry", "approved"), [
    ("Read(src/*)", ["Read(src/*\ufdef*)", f"Read(other/{_EVERY_READABLE_FILLER})"]),
    ("Read(src/**)", ["Read(src/*\ufdef*)", f"Read(other/{_EVERY_READABLE_FILLER})"]),
    ("WebSearch(a*)", ["WebSearch(a*\ufdef*)", f"WebSearch({_EVERY_READABLE_FILLER})"]),
    ("MyTool(a*)", ["MyTool(a*\ufdef*)", f"MyTool({_EVERY_READABLE_FILLER})"]),
    ("Bash(a*)", ["Bash(a*\ufdef*)", f"Bash({_EVERY_READABLE_FILLER})"]),
    ("Bash(a*)", ["Bash(a*\ue000*)", f"Bash({_EVERY_READABLE_FILLER})"]),
    ("PowerShell(a*)", ["PowerShell(a*\ue000*)", f"PowerShell({_EVERY_READABLE_FILLER})"]),
    ("WebFetch(domain:a*.com)", ["WebFetch(domain:a*x.com)",
                                 f"WebFetch(domain:{_EVERY_READABLE_FILLER}-.com)"]),
])
def test_last_resort_filler_checked_against_approved(entry: str, approved: list[str]) -> None:
    verdict = prove(entry, approved)
    assert verdict.status in {"not_covered", "unknown"}, verdict
    if verdict.witness is not None:
        # The witness is built from the filler: it must escape every approved literal.
        assert not any(c in "".join(approved) for c in verdict.witness
                       if c not in entry), verdict.witness


def test_no_free_filler_fails_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    from skillgrant.domains import base, cover
    from skillgrant.prepared import clear_caches

    monkeypatch.setattr(cover, "_LAST_RESORT_FILLERS", range(0xE000, 0xE002))
    clear_caches()
    try:
        with pytest.raises(base.NoFreeFiller):
            cover.choose_filler([_EVERY_READABLE_FILLER, "\ue000\ue001"])
        for entry, approved in [
            ("Read(src/*)", ["Read(src/*\ue000*)", f"Read(o/{_EVERY_READABLE_FILLER}\ue001)"]),
            ("MyTool(a*)", ["MyTool(a*\ue000*)", f"MyTool({_EVERY_READABLE_FILLER}\ue001)"]),
            ("Bash(a*)", ["Bash(a*\ue000*)", f"Bash({_EVERY_READABLE_FILLER}\ue001)"]),
        ]:
            verdict = prove(entry, approved)
            assert verdict.status == "unknown", verdict
            assert "every character" in verdict.reason
    finally:
        clear_caches()
