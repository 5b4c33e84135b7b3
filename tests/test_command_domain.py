"""semantics §4.1 (command domain), §4.4 (MCP), §4.5 (Agent) and §4.6 (everything else) as tables.

Each row is (entry, approved, expected status[, covered_by][, witness]) with an id naming the
rule of the contract it pins. Expectations are read off the contract's words, not off the prover.
Where the SPEC says only "not covered" without choosing between ``not_covered`` and ``unknown`` (the
"covered only by…" rules), the row accepts either: both are fail-closed.

For ``not_covered`` rows without a pinned witness, the witness is checked against the
independent reference model (tests/reference.py): allowed by the submitted entry, by
no approved entry of the same tool.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from pinned import prove
from reference import Mode, ref_allows, ref_allows_any

from skillgrant import Verdict, parse_grant
from skillgrant.domains import command, registry
from skillgrant.domains.base import EVERY_TEXT, Budget
from skillgrant.prepared import plan_for
from skillgrant.prover import prove_prepared
from skillgrant.runtimes import claude_code
from skillgrant.vocabulary import Domain

# These tables are Claude Code's command language (tests/reference.py models it), judged under
# it alone; Copilot CLI's reading has its own tables (tests/test_copilot_cli.py).
#: The tables pin the language of §4.1. Claude Code also approves an exact (or prefix) rule whole
#: unless its command is plain (``commandpattern.plain_command``), so under its profile a
#: covered row whose entry is not plain is `unknown`: the tables below judge the language alone
#: (the profile without that reading) where the two differ, and
#: ``test_exact_rules_that_are_not_plain_commands`` pins the reading itself.
_LANGUAGE = claude_code.PROFILE._replace(name="claude-code (language)", whole_exact_rules=False)


def _not_plain(entry: str) -> bool:
    grant = parse_grant(entry)
    return grant.key == "Bash" and command.compile_pattern(grant.content).whole


def prove_language(entry: str, approved: Sequence[str]) -> Verdict:
    return prove_prepared(entry, plan_for(list(approved), None, None, _LANGUAGE))

NOT_COVERED = frozenset({"not_covered", "unknown"})
Expected = str | frozenset[str]

_MODES: dict[str, Mode] = {
    "bash": "command",
    "monitor": "command",
    "skill": "skill",
    "powershell": "powershell",
}


def row(
    rule: str,
    entry: str,
    approved: Sequence[str],
    status: Expected,
    *,
    covered_by: str | None = None,
    witness: str | None = None,
    ref: bool = True,
    marks: Sequence[pytest.MarkDecorator] = (),
) -> object:
    return pytest.param(entry, list(approved), status, covered_by, witness, ref, id=rule,
                        marks=marks)


def _split_entry(entry: str) -> tuple[str, str | None]:
    """(tool key, content) with ``None`` for every use of the tool; test-side, naive."""
    if "(" not in entry:
        return entry.lower(), None
    name, _, rest = entry.partition("(")
    content = rest[:-1]
    return name.lower(), (None if content in ("", "*") else content)


def _check_witness_with_reference(entry: str, approved: list[str], witness: str) -> None:
    tool, content = _split_entry(entry)
    mode = _MODES.get(tool, "generic")
    assert content is None or ref_allows(content, witness, mode), (entry, witness)
    same_tool = [_split_entry(a) for a in approved if _split_entry(a)[0] == tool]
    assert all(c is not None for _, c in same_tool), "a tool-wide approved entry allows it all"
    assert not ref_allows_any([c for _, c in same_tool if c is not None], witness, mode), witness


def run_row(
    entry: str,
    approved: list[str],
    status: Expected,
    covered_by: str | None,
    witness: str | None,
    ref: bool,
) -> None:
    expected = {status} if isinstance(status, str) else set(status)
    verdict = prove(entry, approved)
    if expected == {"covered"} and verdict.status == "unknown" and _not_plain(entry):
        # The runtime may approve the entry whole (the rows of test_exact_rules_that_are_not_
        # plain_commands pin that); the row pins its language.
        verdict = prove_language(entry, approved)
    assert verdict.status in expected, (verdict.status, verdict.reason)
    assert verdict.entry == entry
    assert verdict.covered is (verdict.status == "covered")
    assert isinstance(verdict.reason, str) and verdict.reason
    if verdict.status == "covered":
        assert verdict.covered_by in approved
        assert set(verdict.also_covered_by) <= set(approved)
        if covered_by is not None:
            assert verdict.covered_by == covered_by
    else:
        assert verdict.covered_by is None
    if verdict.status == "not_covered":
        assert verdict.witness is not None
        if witness is not None:
            assert verdict.witness == witness
        elif ref:
            _check_witness_with_reference(entry, approved, verdict.witness)


# --------------------------------------------------------------------------------------------
# §4.1 PREFIX `P:*`: {P} ∪ {P␠w}, a star inside P is literal
# --------------------------------------------------------------------------------------------

PREFIX_ROWS = [
    row("prefix-P-itself", "Bash(npm run test)", ["Bash(npm run test:*)"], "covered",
        covered_by="Bash(npm run test:*)"),
    row("prefix-P-space-w", "Bash(npm run test --watch)", ["Bash(npm run test:*)"], "covered"),
    row("prefix-colon-is-not-a-separator", "Bash(npm run test:unit)",
        ["Bash(npm run test:*)"], "not_covered", witness="npm run test:unit"),
    row("prefix-needs-a-space", "Bash(npm run testing)", ["Bash(npm run test:*)"],
        "not_covered", witness="npm run testing"),
    row("prefix-narrower-prefix", "Bash(git log:*)", ["Bash(git:*)"], "covered"),
    row("prefix-wider-prefix", "Bash(git:*)", ["Bash(git log:*)"], "not_covered"),
    row("prefix-same-language-as-trailing-space-glob", "Bash(npm run test:*)",
        ["Bash(npm run test *)"], "covered"),
    row("trailing-space-glob-same-language-as-prefix", "Bash(npm run test *)",
        ["Bash(npm run test:*)"], "covered"),
    row("prefix-under-glob", "Bash(npm run test:*)", ["Bash(npm *)"], "covered"),
    row("prefix-not-under-exact", "Bash(ls:*)", ["Bash(ls)"], "not_covered"),
    row("exact-under-prefix", "Bash(ls)", ["Bash(ls:*)"], "covered"),
    row("prefix-reflexive", "Bash(npm run test:*)", ["Bash(npm run test:*)"], "covered"),
    row("prefix-star-in-P-is-literal", "Bash(echo hi)", ["Bash(echo *:*)"], "not_covered",
        witness="echo hi"),
    row("prefix-star-in-P-escaped-star-identity-only", r"Bash(echo \*)", ["Bash(echo *:*)"],
        "unknown"),
    row("prefix-star-in-P-extension", "Bash(echo * x:*)", ["Bash(echo *:*)"], "covered"),
    row("prefix-literal-star-under-glob", "Bash(echo *:*)", ["Bash(echo *)"], "covered"),
    row("glob-not-under-literal-star-prefix", "Bash(echo *)", ["Bash(echo *:*)"],
        "not_covered"),
    # A backslash is decided by identity only (semantics §2: the runtime unescapes it twice).
    row("prefix-escaped-star-in-P-identity-only", r"Bash(echo \*:*)", ["Bash(echo *:*)"],
        "unknown"),
    row("escaped-final-star-identity-only", r"Bash(a:\*)", ["Bash(a:*)"], "unknown"),
    row("prefix-union-of-approved", "Bash(git:*)", ["Bash(git)", "Bash(git **)"], "covered"),
]


# --------------------------------------------------------------------------------------------
# §4.1 GLOB: unescaped `*` matches any text; trailing `␠*` rule; nothing else is special
# --------------------------------------------------------------------------------------------

GLOB_ROWS = [
    row("glob-narrowing", "Bash(gh pr list)", ["Bash(gh *)"], "covered",
        covered_by="Bash(gh *)"),
    row("glob-covered-by-names-the-right-entry", "Bash(gh pr list)",
        ["Read", "Bash(npm *)", "Bash(gh *)"], "covered", covered_by="Bash(gh *)"),
    row("glob-star-matches-spaces", "Bash(gh pr list --json a)", ["Bash(gh * a)"], "covered"),
    row("glob-star-matches-nothing", "Bash(ab)", ["Bash(a*b)"], "covered"),
    row("trailing-space-bare-prefix", "Bash(ls)", ["Bash(ls *)"], "covered"),
    row("trailing-space-with-args", "Bash(ls -la)", ["Bash(ls *)"], "covered"),
    row("trailing-space-not-lsof", "Bash(lsof)", ["Bash(ls *)"], "not_covered",
        witness="lsof"),
    row("no-space-star-lsof", "Bash(lsof)", ["Bash(ls*)"], "covered"),
    row("no-space-star-bare", "Bash(ls)", ["Bash(ls*)"], "covered"),
    row("trailing-space-glob-under-no-space", "Bash(ls *)", ["Bash(ls*)"], "covered"),
    row("no-space-glob-not-under-trailing-space", "Bash(ls*)", ["Bash(ls *)"], "not_covered"),
    row("trailing-rule-only-when-only-wildcard", "Bash(git)", ["Bash(git * *)"], "not_covered",
        witness="git"),
    row("trailing-rule-only-when-only-wildcard-2", "Bash(git a)", ["Bash(git * *)"],
        "not_covered", witness="git a"),
    row("trailing-rule-escaped-star-identity-only", r"Bash(echo \*)", [r"Bash(echo \* *)"],
        "unknown"),
    row("trailing-rule-narrower-trailing", "Bash(ls -la *)", ["Bash(ls *)"], "covered"),
    row("glob-narrower-glob", "Bash(gh pr *)", ["Bash(gh *)"], "covered"),
    row("glob-wider-glob", "Bash(gh *)", ["Bash(gh pr *)"], "not_covered"),
    row("glob-inner-star-narrowing", "Bash(git * --force)", ["Bash(git *)"], "covered"),
    row("glob-more-stars-under-fewer", "Bash(a*b*c)", ["Bash(a*c)"], "covered"),
    row("glob-fewer-stars-not-under-more", "Bash(a*c)", ["Bash(a*b*c)"], "not_covered"),
    row("glob-star-is-tool-wide", "Bash(*)", ["Bash(gh *)"], "not_covered"),
    row("bare-not-under-glob", "Bash", ["Bash(gh *)"], "not_covered"),
    row("glob-under-bare", "Bash(gh *)", ["Bash", "Monitor"], "covered", covered_by="Bash"),
    row("glob-under-star", "Bash(* --help)", ["Bash(*)", "Monitor"], "covered",
        covered_by="Bash(*)"),
    row("glob-content-trimmed-approved", "Bash(ls)", ["Bash( ls * )"], "covered"),
    row("glob-content-trimmed-submitted", "Bash( gh * )", ["Bash(gh *)"], "covered"),
    row("glob-no-question-mark", "Bash(ls abc)", ["Bash(ls a?c *)"], "not_covered",
        witness="ls abc"),
    row("glob-question-mark-matches-itself", "Bash(ls a?c)", ["Bash(ls a?c *)"], "covered"),
    row("glob-no-brackets", "Bash(ls a)", ["Bash(ls [ab]*)"], "not_covered", witness="ls a"),
    row("glob-no-regex-dot", "Bash(echo axb)", ["Bash(echo a.b*)"], "not_covered",
        witness="echo axb"),
    row("glob-no-regex-plus", "Bash(echo aab)", ["Bash(echo a+b*)"], "not_covered",
        witness="echo aab"),
    row("glob-case-sensitive", "Bash(GH pr list)", ["Bash(gh *)"], "not_covered",
        witness="GH pr list"),
    row("glob-union-of-approved", "Bash(git *)", ["Bash(git)", "Bash(git **)"], "covered"),
    row("glob-union-not-enough", "Bash(git *)", ["Bash(git)", "Bash(git a*)"], "not_covered"),
]


# --------------------------------------------------------------------------------------------
# §4.1 EXACT and escapes
# --------------------------------------------------------------------------------------------

EXACT_ROWS = [
    row("exact-escalation", "Bash(rm -rf /)", ["Bash(gh *)"], "not_covered",
        witness="rm -rf /"),
    row("exact-self", "Bash(ls)", ["Bash(ls)"], "covered", covered_by="Bash(ls)"),
    row("exact-not-a-prefix", "Bash(ls -la)", ["Bash(ls)"], "not_covered", witness="ls -la"),
    row("exact-shorter", "Bash(ls)", ["Bash(ls -la)"], "not_covered", witness="ls"),
    row("exact-case-sensitive", "Bash(LS)", ["Bash(ls)"], "not_covered", witness="LS"),
    row("exact-regex-metachar-literal", "Bash(echo axb)", ["Bash(echo a.b)"], "not_covered",
        witness="echo axb"),
    row("bare-not-under-exact", "Bash", ["Bash(ls)"], "not_covered"),
    row("exact-under-bare", "Bash(ls)", ["Bash", "Monitor"], "covered"),
    row("exact-nbsp-is-not-a-space", "Bash(echo\u00a0hi)", ["Bash(echo hi)", "Bash(echo *)"],
        "not_covered", witness="echo\u00a0hi"),
    row("exact-under-empty-parens", "Bash(ls)", ["Bash()", "Monitor"], "covered"),
    # Escapes: the runtime unescapes a backslash twice (semantics §2, measured on 2.1.332), so a
    # pattern with one is decided by identity only (see BACKSLASH_ROWS below).
    row("escape-literal-star-not-under-glob", r"Bash(echo \*)", ["Bash(echo *)"], "unknown"),
    row("escape-glob-not-under-literal-star", "Bash(echo *)", [r"Bash(echo \*)"],
        NOT_COVERED),
    row("escape-literal-star-self", r"Bash(echo \*)", [r"Bash(echo \*)"], "covered"),
    row("escape-literal-star-under-bare", r"Bash(echo \*)", ["Bash", "Monitor"], "covered"),
    row("escape-approved-covers-nothing-else", "Bash(echo a)", [r"Bash(echo \*)"],
        NOT_COVERED),
    row("escape-parens-identity-only", r"Bash(echo \(hi\))", ["Bash(echo *)"], "unknown"),
    row("escape-backslash-identity-only", r"Bash(echo \\)", ["Bash(ls *)"], "unknown"),
    row("escape-star-with-glob-identity-only", r"Bash(a\*bc)", [r"Bash(a\*b*)"], "unknown"),
    row("escape-star-with-glob-negative", "Bash(axbc)", [r"Bash(a\*b*)"], NOT_COVERED),
    row("escape-star-no-trailing-rule", "Bash(ls)", [r"Bash(ls \*)"], NOT_COVERED),
    row("escape-approved-unrelated-witness", "Bash(rm -rf /)", [r"Bash(echo \*)"],
        "not_covered", witness="rm -rf /"),
]


# --------------------------------------------------------------------------------------------
# §4.1 compound commands
# --------------------------------------------------------------------------------------------

# (operator text as written in a command, id) for every operator the runtime splits on.
SPLITTING_OPERATORS = [
    (" && ", "and"),
    (" || ", "or"),
    ("; ", "semicolon"),
    (" | ", "pipe"),
    (" |& ", "pipe-amp"),
    (" & ", "background"),
    ("\n", "newline"),
]

#: Operators whose exact compound the runtime checks part by part (not approved whole).
PART_BY_PART = frozenset({"pipe", "pipe-amp", "background"})

COMPOUND_ROWS: list[object] = []
for _op, _name in SPLITTING_OPERATORS:
    _ok, _bad = f"echo a{_op}echo b", f"echo a{_op}rm -rf x"
    COMPOUND_ROWS += [
        # An exact rule holding `&&`, `||`, `;` or a line break is approved whole by the
        # runtime, skipping the checks each part gets under a glob (issue 28, class 1).
        row(f"compound-{_name}-every-part-covered", f"Bash({_ok})", ["Bash(echo *)"],
            "covered" if _name in PART_BY_PART else "unknown", ref=False),
        # 2.1.332 approves some exact compound rules whole and checks others part by part,
        # so the compound string is no certain witness (tests/conformance, the witness test).
        row(f"compound-{_name}-a-part-not-covered", f"Bash({_bad})", ["Bash(echo *)"],
            "unknown", ref=False),
        # A bare Bash approves no Monitor call; a Bash(…) rule does (hence Monitor beside it).
        row(f"compound-{_name}-tool-wide", f"Bash({_bad})", ["Bash", "Monitor"], "covered",
            ref=False),
        row(f"compound-{_name}-tool-wide-star", f"Bash({_bad})", ["Bash(*)", "Monitor"],
            "covered", ref=False),
        row(f"compound-{_name}-identical", f"Bash({_bad})", [f"Bash({_bad})"], "covered",
            ref=False),
    ]

# Operators after which a split is never unambiguous: covered only by tool-wide or identical.
SUBSTITUTIONS = [
    ("echo $(rm -rf x)", "echo $(echo x)", "dollar-paren"),
    ("echo `rm -rf x`", "echo `echo x`", "backtick"),
    ("cat <(rm -rf x)", "cat <(cat x)", "process-substitution-in"),
    ("tee >(rm -rf x)", "tee >(tee x)", "process-substitution-out"),
]
for _bad, _benign, _name in SUBSTITUTIONS:
    _first = _bad.split()[0]
    COMPOUND_ROWS += [
        row(f"compound-{_name}-not-under-glob", f"Bash({_bad})", [f"Bash({_first} *)"],
            NOT_COVERED, ref=False),
        row(f"compound-{_name}-benign-still-not-under-glob", f"Bash({_benign})",
            [f"Bash({_first} *)"], NOT_COVERED, ref=False),
        row(f"compound-{_name}-tool-wide", f"Bash({_bad})", ["Bash", "Monitor"], "covered",
            ref=False),
        row(f"compound-{_name}-identical", f"Bash({_bad})", [f"Bash({_bad})"], "covered",
            ref=False),
    ]

COMPOUND_ROWS += [
    row("compound-cr-is-a-control-character", "Bash(echo a\rrm -rf x)", ["Bash(echo *)"],
        "invalid", ref=False),
    row("compound-star-must-not-absorb-operator", "Bash(git add . && rm -rf /)",
        ["Bash(git *)"], "unknown", ref=False),
    row("compound-parts-covered-by-different-entries", "Bash(git log | head)",
        ["Bash(git *)", "Bash(head *)"], "covered", ref=False),
    row("compound-pipe-second-part-not-covered", "Bash(git log | head)", ["Bash(git *)"],
        "unknown", ref=False),
    # The runtime matches a GLOB rule against each part, so a star cannot absorb the `;`.
    row("compound-approved-glob-holding-operator", "Bash(echo a; rm x)", ["Bash(echo *; rm *)"],
        "unknown", ref=False),
    row("compound-approved-exact-is-whole-string", "Bash(git add .)",
        ["Bash(git add . && git push)"], "not_covered", witness="git add .", ref=False),
    # An ambiguity of the contract, resolved for soundness (§1.1 before §1.2): the extension w of a
    # PREFIX may itself hold operators (`git add . && git commit ; rm -rf /`), so "every part
    # covered" cannot be read off P's parts alone.
    row("compound-prefix-extension-may-hold-operators", "Bash(git add . && git commit:*)",
        ["Bash(git *)"], NOT_COVERED, ref=False),
    row("compound-prefix-part-not-covered", "Bash(git add . && git commit:*)",
        ["Bash(git add *)"], NOT_COVERED, ref=False),
    row("compound-prefix-identical", "Bash(git add . && git commit:*)",
        ["Bash(git add . && git commit:*)"], "covered", ref=False),
    # Ambiguous splits: an empty part, quotes, backslashes, parentheses, `$`.
    row("compound-empty-last-part", "Bash(echo a &&)", ["Bash(echo *)"], NOT_COVERED,
        ref=False),
    row("compound-empty-first-part", "Bash(&& echo a)", ["Bash(echo *)"], NOT_COVERED,
        ref=False),
    row("compound-empty-middle-part", "Bash(echo a ;; echo b)", ["Bash(echo *)"], NOT_COVERED,
        ref=False),
    row("compound-single-quotes", "Bash(echo 'a;b')", ["Bash(echo *)"], NOT_COVERED,
        ref=False),
    row("compound-double-quotes", 'Bash(echo "a" && echo b)', ["Bash(echo *)"], NOT_COVERED,
        ref=False),
    row("compound-dollar", "Bash(echo $HOME && echo b)", ["Bash(echo *)"], NOT_COVERED,
        ref=False),
    row("compound-backslash", r"Bash(echo \\ && echo b)", ["Bash(echo *)"], NOT_COVERED,
        ref=False),
    row("compound-parenthesis", r"Bash(echo \(a && echo b)", ["Bash(echo *)"], NOT_COVERED,
        ref=False),
    row("compound-quotes-identical", "Bash(echo 'a;b')", ["Bash(echo 'a;b')"], "covered",
        ref=False),
    row("compound-quotes-tool-wide", "Bash(echo 'a;b')", ["Bash", "Monitor"], "covered", ref=False),
    row("compound-parts-under-trailing-space-rule", "Bash(ls | ls -la)", ["Bash(ls *)"],
        "covered", ref=False),
    row("compound-whole-and-not-by-parts", "Bash(ls && ls -la)", ["Bash(ls *)"],
        "unknown", ref=False),
    # Issue 28, class 2: shell expansion in an exact rule is approved whole, where a glob
    # rule's static analysis refuses it.
    row("expansion-dollar-brace", "Bash(touch ${HOME}/zz)", ["Bash(touch *)"], "unknown",
        ref=False),
    row("expansion-dollar", "Bash(touch $PWD/zz)", ["Bash(touch *)"], "unknown", ref=False),
    row("expansion-brace", "Bash(touch {a,b})", ["Bash(touch *)"], "unknown", ref=False),
    row("expansion-ansi-c-quote", "Bash(touch $'zz')", ["Bash(touch *)"], "unknown", ref=False),
    row("expansion-in-redirection", "Bash(echo hi > $F)", ["Bash(echo *)"], "unknown",
        ref=False),
    row("expansion-prefix", "Bash(touch ${HOME}:*)", ["Bash(touch *)"], "unknown", ref=False),
    row("expansion-identical", "Bash(touch ${HOME}/zz)", ["Bash(touch ${HOME}/zz)"], "covered",
        ref=False),
    # Review F28-2: an exact rule run through a builtin or a wrapper, or holding a
    # redirection or an assignment, is approved whole too.
    row("whole-eval", "Bash(eval touch zz)", ["Bash(eval *)"], "unknown", ref=False),
    row("whole-exec-prefix-plan", "Bash(exec touch /dev/shm/zz)", ["Bash(exec:*)"], "unknown",
        ref=False),
    row("whole-printf-v", "Bash(printf -v A x)", ["Bash(printf *)"], "unknown", ref=False),
    row("whole-env", "Bash(env -S touch zz)", ["Bash(env *)"], "unknown", ref=False),
    row("whole-assignment", "Bash(FOO=1 touch zz)", ["Bash(FOO=1 *)"], "unknown", ref=False),
    row("whole-redirection", "Bash(touch zz > /dev/shm/x)", ["Bash(touch *)"], "unknown",
        ref=False),
    row("whole-identical", "Bash(eval touch zz)", ["Bash(eval touch zz)"], "covered",
        ref=False),
    row("not-whole-plain-program", "Bash(gh pr list)", ["Bash(gh *)"], "covered"),
    row("expansion-exact-not-under-same-prefix", "Bash(touch ${HOME})",
        ["Bash(touch ${HOME}:*)"], "unknown", ref=False),
    row("expansion-tool-wide", "Bash(touch ${HOME}/zz)", ["Bash", "Monitor"], "covered",
        ref=False),
    # The compound rule is about EXACT/PREFIX grants; a GLOB is judged by its language.
    row("compound-glob-by-language", "Bash(git add * && git commit *)", ["Bash(git *)"],
        "covered", ref=False),
]


# --------------------------------------------------------------------------------------------
# §4.1 placeholders: one opaque symbol each
# --------------------------------------------------------------------------------------------

PLACEHOLDERS = ["CLAUDE_SKILL_DIR", "CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT",
                "CLAUDE_PLUGIN_DATA"]

PLACEHOLDER_ROWS: list[object] = []
for _ph in PLACEHOLDERS:
    PLACEHOLDER_ROWS += [
        row(f"placeholder-{_ph}-self", f"Bash(${{{_ph}}}/run.sh)", [f"Bash(${{{_ph}}}/run.sh)"],
            "covered", ref=False),
        row(f"placeholder-{_ph}-under-same-glob", f"Bash(${{{_ph}}}/run.sh)",
            [f"Bash(${{{_ph}}}/*)"], "covered", ref=False),
        row(f"placeholder-{_ph}-absorbed-by-star", f"Bash(${{{_ph}}}/run.sh)",
            ["Bash(*/run.sh)"], "covered", ref=False),
        row(f"placeholder-{_ph}-no-literal-inside", f"Bash(${{{_ph}}}/run.sh)",
            ["Bash(${CLAUDE_*)"], NOT_COVERED, ref=False),
    ]

PLACEHOLDER_ROWS += [
    row("placeholder-argument-absorbed", "Bash(python ${CLAUDE_PLUGIN_ROOT}/x.py)",
        ["Bash(python *)"], "covered", ref=False),
    row("placeholder-different-symbols", "Bash(${CLAUDE_SKILL_DIR}/run.sh)",
        ["Bash(${CLAUDE_PROJECT_DIR}/*)"], NOT_COVERED, ref=False),
    row("placeholder-dollar-literal-cannot-match-inside", "Bash(${CLAUDE_SKILL_DIR}/run.sh)",
        ["Bash($*)"], NOT_COVERED, ref=False),
    row("placeholder-brace-literal-cannot-match-inside", "Bash(${CLAUDE_SKILL_DIR}/run.sh)",
        ["Bash(*}/run.sh)"], NOT_COVERED, ref=False),
    row("placeholder-concrete-path-not-under-symbol", "Bash(/home/u/.claude/skills/x/run.sh)",
        ["Bash(${CLAUDE_SKILL_DIR}/run.sh)"], NOT_COVERED, ref=False),
    row("placeholder-star-not-under-symbol", "Bash(*/run.sh)",
        ["Bash(${CLAUDE_SKILL_DIR}/run.sh)"], NOT_COVERED, ref=False),
    row("placeholder-glob-under-glob", "Bash(${CLAUDE_SKILL_DIR}/*)", ["Bash(*/*)"], "covered",
        ref=False),
    row("placeholder-glob-under-tool-wide", "Bash(${CLAUDE_SKILL_DIR}/*)", ["Bash", "Monitor"],
        "covered",
        ref=False),
    row("placeholder-in-prefix", "Bash(${CLAUDE_SKILL_DIR}/x.sh:*)",
        ["Bash(${CLAUDE_SKILL_DIR}/*)"], "covered", ref=False),
    # `${HOME}` in an exact rule is approved whole; under a glob the runtime refuses it.
    row("placeholder-other-dollar-brace-is-expansion", "Bash(${HOME}/x)", ["Bash(${HOME}/*)"],
        "unknown", ref=False),
]


# --------------------------------------------------------------------------------------------
# §4.1 PowerShell (ASCII case only), Skill, Monitor; different tools
# --------------------------------------------------------------------------------------------

TOOL_ROWS = [
    row("powershell-ascii-case-exact", "PowerShell(Get-ChildItem)",
        ["PowerShell(get-childitem)"], "covered"),
    row("powershell-ascii-case-glob", "PowerShell(GET-CHILDITEM -Path x)",
        ["PowerShell(Get-ChildItem *)"], "covered"),
    row("powershell-ascii-case-prefix", "PowerShell(GIT status)", ["PowerShell(git:*)"],
        "covered"),
    row("powershell-ascii-case-trailing-space", "PowerShell(ls)", ["PowerShell(LS *)"],
        "covered"),
    row("powershell-ascii-upper-ss", "PowerShell(Write-Host STRASSE)",
        ["PowerShell(Write-Host strasse)"], "covered"),
    row("powershell-non-ascii-kept-identical", "PowerShell(echo stra\u00dfe)",
        ["PowerShell(echo STRA\u00dfE)"], "covered"),
    row("powershell-no-sharp-s-folding", "PowerShell(Write-Host strasse)",
        ["PowerShell(Write-Host stra\u00dfe)"], "not_covered", witness="Write-Host strasse"),
    row("powershell-no-sharp-s-folding-reverse", "PowerShell(Write-Host stra\u00dfe)",
        ["PowerShell(Write-Host strasse)"], "not_covered", witness="Write-Host stra\u00dfe"),
    row("powershell-no-sharp-s-upper", "PowerShell(Write-Host STRASSE)",
        ["PowerShell(Write-Host stra\u00dfe)"], "not_covered"),
    row("powershell-no-kelvin-folding", "PowerShell(echo \u212a)", ["PowerShell(echo k)"],
        "not_covered", witness="echo \u212a"),
    row("powershell-no-kelvin-folding-reverse", "PowerShell(echo k)",
        ["PowerShell(echo \u212a)"], "not_covered", witness="echo k"),
    row("powershell-no-kelvin-folding-glob", "PowerShell(echo \u212a)",
        ["PowerShell(echo k*)"], "not_covered"),
    row("powershell-no-dotted-capital-i-folding", "PowerShell(echo \u0130)",
        ["PowerShell(echo i*)"], "not_covered"),
    row("powershell-no-long-s-folding", "PowerShell(echo \u017f)", ["PowerShell(echo s)"],
        "not_covered", witness="echo \u017f"),
    row("bash-is-case-sensitive", "Bash(Get-ChildItem)", ["Bash(get-childitem)"],
        "not_covered", witness="Get-ChildItem"),
    row("skill-exact", "Skill(commit)", ["Skill(commit)"], "covered"),
    row("skill-exact-is-not-prefix", "Skill(commit-all)", ["Skill(commit)"], "not_covered",
        witness="commit-all"),
    row("skill-prefix-bare", "Skill(commit)", ["Skill(commit *)"], "covered"),
    row("skill-prefix-args", "Skill(commit fix typo)", ["Skill(commit *)"], "covered"),
    # `Skill(x *)` is a raw string prefix (measured): it allows `xy` and `x:sub` too.
    row("skill-prefix-is-a-raw-string-prefix", "Skill(commitx)", ["Skill(commit *)"],
        "covered"),
    row("skill-other-under-o-prefix", "Skill(other)", ["Skill(o *)"], "covered"),
    row("skill-colon-prefix", "Skill(o:sub)", ["Skill(o:*)"], "covered"),
    row("skill-prefix-under-shorter-prefix", "Skill(oth *)", ["Skill(o *)"], "covered"),
    row("skill-prefix-not-under-longer", "Skill(o *)", ["Skill(oth *)"], "not_covered"),
    row("skill-prefix-not-under-exact", "Skill(o *)", ["Skill(o)"], "not_covered"),
    row("skill-slash-is-dropped", "Skill(/other)", ["Skill(other)"], "covered"),
    row("skill-glob-grants-nothing", "Skill(deploy-staging)", ["Skill(deploy-*)"],
        "not_covered", witness="deploy-staging"),
    row("skill-glob-submitted-is-inert", "Skill(deploy-*)", ["Skill"], "inert"),
    row("skill-inner-star-is-inert", "Skill(o*r)", ["Skill(o *)"], "inert"),
    row("skill-case-sensitive", "Skill(Commit)", ["Skill(commit)"], "not_covered",
        witness="Commit"),
    row("skill-bare-not-under-name", "Skill", ["Skill(commit)"], "not_covered"),
    row("skill-name-under-bare", "Skill(commit)", ["Skill"], "covered"),
    # Monitor(…) rules grant nothing; Bash(…) rules approve Monitor calls, a bare Bash does not.
    row("monitor-content-is-inert", "Monitor(tail -f log)", ["Monitor(tail *)"], "inert"),
    row("monitor-content-under-bash-is-inert", "Monitor(tail -f log)",
        ["Bash(tail *)", "Bash"], "inert"),
    row("monitor-bare-under-monitor", "Monitor", ["Monitor"], "covered"),
    row("monitor-bare-under-monitor-star", "Monitor", ["Monitor(*)"], "covered"),
    row("monitor-bare-not-under-bash", "Monitor", ["Bash"], "not_covered"),
    # A content of stars only is a glob rule, not tool-wide (review F28-1): it covers narrower
    # rules by its language, never a bare Bash nor a rule the runtime approves whole.
    row("stars-only-is-no-tool-wide", "Bash", ["Bash(**)"], "unknown"),
    row("stars-only-spaced-is-no-tool-wide", "Bash", ["Bash( * )", "Monitor"], "unknown"),
    row("stars-only-covers-a-narrower-rule", "Bash(touch zz)", ["Bash(***)"], "covered"),
    row("stars-only-not-a-whole-exact", "Bash(touch ${HOME}/zz)", ["Bash(**)"], "unknown",
        ref=False),
    row("stars-only-not-a-whole-compound", "Bash(touch zz && touch /dev/shm/zz)",
        ["Bash(* )", "Monitor"], "unknown", ref=False),
    row("bash-rule-not-under-bare-bash-alone", "Bash(touch zz)", ["Bash"], "not_covered",
        witness="touch zz", ref=False),
    row("bash-rule-not-under-bash-star-alone", "Bash(touch zz)", ["Bash(*)"], "not_covered",
        ref=False),
    row("bash-rule-under-bare-bash-and-monitor", "Bash(touch zz)", ["Bash", "Monitor"],
        "covered", covered_by="Bash"),
    row("bash-rule-under-bash-rule-with-bare-bash", "Bash(touch zz)", ["Bash", "Bash(touch *)"],
        "covered", covered_by="Bash(touch *)"),
    row("bare-bash-under-bare-bash", "Bash", ["Bash"], "covered"),
    row("bash-not-under-monitor", "Bash(tail log)", ["Monitor(tail *)", "Monitor"],
        "not_covered"),
    row("bash-not-under-powershell", "Bash(ls)", ["PowerShell"], "not_covered"),
    row("powershell-not-under-bash", "PowerShell(ls)", ["Bash"], "not_covered"),
    row("skill-not-under-bash", "Skill(commit)", ["Bash"], "not_covered"),
]


# --------------------------------------------------------------------------------------------
# §4.6 everything else: bare covers all; star-only globs, no trailing-space rule, no `:*`
# --------------------------------------------------------------------------------------------

GENERIC_ROWS = [
    row("generic-bare-covers-specifier", "WebSearch(foo)", ["WebSearch"], "covered"),
    row("generic-bare-self", "WebSearch", ["WebSearch"], "covered"),
    row("generic-bare-self-todowrite", "TodoWrite", ["TodoWrite"], "covered"),
    row("generic-bare-not-under-specifier", "WebSearch", ["WebSearch(foo)"], "not_covered"),
    row("generic-star-is-bare", "WebSearch(*)", ["WebSearch"], "covered"),
    row("generic-bare-under-star", "WebSearch", ["WebSearch(*)"], "covered"),
    row("generic-glob", "MyTool(a b)", ["MyTool(a *)"], "covered"),
    row("generic-no-trailing-space-rule", "MyTool(a)", ["MyTool(a *)"], "not_covered",
        witness="a"),
    row("generic-star-any-text", "MyTool(ab)", ["MyTool(a*)"], "covered"),
    row("generic-star-matches-spaces", "MyTool(a b c)", ["MyTool(a*c)"], "covered"),
    row("generic-no-prefix-form", "MyTool(a b)", ["MyTool(a:*)"], "not_covered",
        witness="a b"),
    row("generic-colon-star-is-a-glob", "MyTool(a:b)", ["MyTool(a:*)"], "covered"),
    row("generic-identical", "MyTool(a?b)", ["MyTool(a?b)"], "covered"),
    row("generic-identical-spaces", "WebSearch(x y)", ["WebSearch(x y)"], "covered"),
    row("generic-question-mark-literal", "MyTool(axb)", ["MyTool(a?b)"], "not_covered",
        witness="axb"),
    row("generic-escape-identity-only", r"MyTool(a\*)", ["MyTool(a*)"], "unknown"),
    row("generic-escape-self", r"MyTool(a\*)", [r"MyTool(a\*)"], "covered"),
    row("generic-star-not-under-escaped", "MyTool(a*)", [r"MyTool(a\*)"], NOT_COVERED),
    row("generic-escape-not-under-other", r"MyTool(a\*)", ["MyTool(b)"], "unknown"),
    row("generic-specifier-case-sensitive", "MyTool(A)", ["MyTool(a)"], "not_covered",
        witness="A"),
    row("generic-different-tools", "MyTool(x)", ["OtherTool", "Bash"], "not_covered"),
    row("generic-narrower-glob", "TodoWrite(a*b)", ["TodoWrite(a*)"], "covered"),
    row("generic-wider-glob", "TodoWrite(a*)", ["TodoWrite(a*b)"], "not_covered"),
    row("generic-tool-name-case", "mytool(x)", ["MyTool(x)"], "covered"),
]


# --------------------------------------------------------------------------------------------
# §4.4 MCP and §4.5 Agent
# --------------------------------------------------------------------------------------------

MCP_ROWS = [
    row("mcp-server-covers-tool", "mcp__s__get_issue", ["mcp__s"], "covered"),
    row("mcp-server-star-covers-tool", "mcp__s__get_issue", ["mcp__s__*"], "covered"),
    row("mcp-tool-glob-covers-tool", "mcp__s__get_issue", ["mcp__s__get_*"], "covered"),
    row("mcp-tool-glob-under-server", "mcp__s__get_*", ["mcp__s"], "covered"),
    row("mcp-tool-glob-under-server-star", "mcp__s__get_*", ["mcp__s__*"], "covered"),
    row("mcp-tool-glob-under-shorter-glob", "mcp__s__get_*", ["mcp__s__ge*"], "covered"),
    row("mcp-server-equals-server-star", "mcp__s", ["mcp__s__*"], "covered"),
    row("mcp-server-star-equals-server", "mcp__s__*", ["mcp__s"], "covered"),
    row("mcp-server-not-under-tool-glob", "mcp__s", ["mcp__s__get_*"], "not_covered",
        ref=False),
    row("mcp-tool-glob-not-under-tool", "mcp__s__get_*", ["mcp__s__get_issue"], "not_covered",
        ref=False),
    row("mcp-tool-not-under-other-glob", "mcp__s__list", ["mcp__s__get_*"], "not_covered",
        witness="mcp__s__list"),
    row("mcp-server-name-boundary", "mcp__gh__x", ["mcp__ghx"], "not_covered",
        witness="mcp__gh__x"),
    row("mcp-server-name-boundary-tool", "mcp__ghx__y", ["mcp__gh"], "not_covered",
        witness="mcp__ghx__y"),
    row("mcp-server-name-boundary-bare", "mcp__ghx", ["mcp__gh"], "not_covered", ref=False),
    row("mcp-tool-exact", "mcp__gh__x", ["mcp__gh__x"], "covered"),
    row("mcp-tool-name-is-not-a-prefix", "mcp__s__get_issue", ["mcp__s__get"], "not_covered",
        witness="mcp__s__get_issue"),
    row("mcp-dash-in-server", "mcp__my-server__tool", ["mcp__my-server"], "covered"),
    row("mcp-not-under-other-tools", "mcp__s__x", ["Bash", "Read"], "not_covered",
        witness="mcp__s__x"),
]

AGENT_ROWS = [
    row("agent-type-under-bare", "Agent(Explore)", ["Agent"], "covered"),
    row("agent-type-equal", "Agent(Explore)", ["Agent(Explore)"], "covered"),
    row("agent-type-different", "Agent(Explore)", ["Agent(Plan)"], "not_covered", ref=False),
    row("agent-bare-not-under-type", "Agent", ["Agent(Explore)"], "not_covered", ref=False),
    row("agent-alias-task-submitted", "Task(Explore)", ["Agent(Explore)"], "covered"),
    row("agent-alias-task-approved", "Agent(Explore)", ["Task"], "covered"),
    row("agent-star-is-bare", "Agent(*)", ["Agent"], "covered"),
    row("agent-type-case-is-part-of-equality", "Agent(explore)", ["Agent(Explore)"],
        NOT_COVERED, ref=False),
    row("agent-type-is-not-a-glob-approved", "Agent(Explore)", ["Agent(Ex*)"], NOT_COVERED,
        ref=False),
    row("agent-type-is-not-a-glob-submitted", "Agent(Ex*)", ["Agent(Explore)"], NOT_COVERED,
        ref=False),
    row("agent-type-not-a-prefix", "Agent(Explore)", ["Agent(Explore-2)"], NOT_COVERED,
        ref=False),
    row("agent-not-under-other-tools", "Agent(Explore)", ["Bash", "Skill"], "not_covered",
        ref=False),
]

ROW_ARGS = ("entry", "approved", "status", "covered_by", "witness", "ref")


@pytest.mark.parametrize(ROW_ARGS, PREFIX_ROWS)
def test_prefix(entry: str, approved: list[str], status: Expected, covered_by: str | None,
                witness: str | None, ref: bool) -> None:
    run_row(entry, approved, status, covered_by, witness, ref)


@pytest.mark.parametrize(ROW_ARGS, GLOB_ROWS)
def test_glob(entry: str, approved: list[str], status: Expected, covered_by: str | None,
              witness: str | None, ref: bool) -> None:
    run_row(entry, approved, status, covered_by, witness, ref)


@pytest.mark.parametrize(ROW_ARGS, EXACT_ROWS)
def test_exact_and_escapes(entry: str, approved: list[str], status: Expected,
                           covered_by: str | None, witness: str | None, ref: bool) -> None:
    run_row(entry, approved, status, covered_by, witness, ref)


@pytest.mark.parametrize(ROW_ARGS, COMPOUND_ROWS)
def test_compound_commands(entry: str, approved: list[str], status: Expected,
                           covered_by: str | None, witness: str | None, ref: bool) -> None:
    run_row(entry, approved, status, covered_by, witness, ref)


@pytest.mark.parametrize(ROW_ARGS, PLACEHOLDER_ROWS)
def test_placeholders(entry: str, approved: list[str], status: Expected,
                      covered_by: str | None, witness: str | None, ref: bool) -> None:
    run_row(entry, approved, status, covered_by, witness, ref)


@pytest.mark.parametrize(ROW_ARGS, TOOL_ROWS)
def test_powershell_skill_monitor(entry: str, approved: list[str], status: Expected,
                                  covered_by: str | None, witness: str | None, ref: bool) -> None:
    run_row(entry, approved, status, covered_by, witness, ref)


@pytest.mark.parametrize(ROW_ARGS, GENERIC_ROWS)
def test_generic_tools(entry: str, approved: list[str], status: Expected,
                       covered_by: str | None, witness: str | None, ref: bool) -> None:
    run_row(entry, approved, status, covered_by, witness, ref)


@pytest.mark.parametrize(ROW_ARGS, MCP_ROWS)
def test_mcp(entry: str, approved: list[str], status: Expected, covered_by: str | None,
             witness: str | None, ref: bool) -> None:
    run_row(entry, approved, status, covered_by, witness, ref)
    verdict = prove(entry, approved)
    if verdict.status == "not_covered":
        # §10: for MCP the witness is a tool name the submitted entry names.
        assert verdict.witness is not None and verdict.witness.startswith("mcp__")
        prefix = entry.removesuffix("*")
        assert verdict.witness.startswith(prefix.removesuffix("__")), verdict.witness


@pytest.mark.parametrize(ROW_ARGS, AGENT_ROWS)
def test_agent(entry: str, approved: list[str], status: Expected, covered_by: str | None,
               witness: str | None, ref: bool) -> None:
    run_row(entry, approved, status, covered_by, witness, ref)


def test_approved_may_be_one_string() -> None:
    # §2: a value is a string or a list; prove() splits an approved string like any value.
    assert prove("Bash(gh)", "Read, Bash(gh *)").covered_by == "Bash(gh *)"


# --------------------------------------------------------------------------------------------
# §2, §4.1, §4.6: content with a backslash is decided by identity only
# --------------------------------------------------------------------------------------------
#
# Measured on 2.1.332: the runtime unescapes `\\` when it parses the rule, and its wildcard
# matcher unescapes again (`\*` a literal star, `\\` a literal backslash, any other `\x` a
# backslash and x). So approved `Bash(touch \\*)` (two backslashes) allows only the literal
# command `touch *`, not `touch \` followed by anything as one level of escapes suggests.

_TWO_BACKSLASHES_STAR = "Bash(touch \\\\*)"  # the entry text `Bash(touch \\*)`

BACKSLASH_ROWS = [
    # A submitted entry with a backslash: only an identical entry or a tool-wide grant.
    row("backslash-submitted-not-under-one-level-reading", "Bash(touch \\zz)",
        [_TWO_BACKSLASHES_STAR], "unknown"),
    row("backslash-submitted-not-under-glob", "Bash(touch \\zz)", ["Bash(touch *)"], "unknown"),
    row("backslash-submitted-identical", "Bash(touch \\zz)", ["Bash(touch \\zz)"], "covered",
        covered_by="Bash(touch \\zz)"),
    row("backslash-submitted-identical-two", _TWO_BACKSLASHES_STAR, [_TWO_BACKSLASHES_STAR],
        "covered"),
    row("backslash-submitted-under-bare", "Bash(touch \\zz)", ["Bash(gh *)", "Bash", "Monitor"],
        "covered",
        covered_by="Bash"),
    row("backslash-submitted-under-star", "Bash(touch \\zz)", ["Bash(*)", "Monitor"],
        "covered"),
    row("backslash-submitted-not-under-other-escape", "Bash(touch \\*)", ["Bash(touch \\\\*)"],
        "unknown"),
    row("backslash-submitted-prefix", "Bash(touch \\zz:*)", ["Bash(touch *)"], "unknown"),
    row("backslash-submitted-compound", "Bash(a \\b && c)", ["Bash(a *)", "Bash(c)"],
        "unknown"),
    # An approved entry with a backslash covers nothing but itself.
    row("backslash-approved-covers-no-narrowing", "Bash(touch *)", [_TWO_BACKSLASHES_STAR],
        NOT_COVERED),
    row("backslash-approved-covers-no-instance", "Bash(touch a)", [_TWO_BACKSLASHES_STAR],
        NOT_COVERED),
    row("backslash-approved-is-not-tool-wide", "Bash", ["Bash(\\*)"], NOT_COVERED),
    row("backslash-approved-unrelated-witness", "Bash(rm *)", [_TWO_BACKSLASHES_STAR],
        "not_covered"),
    row("backslash-approved-compound-part", "Bash(a && b)", ["Bash(a)", "Bash(\\b*)"],
        NOT_COVERED, ref=False),
    row("backslash-approved-others-still-cover", "Bash(gh pr list)",
        [_TWO_BACKSLASHES_STAR, "Bash(gh *)"], "covered", covered_by="Bash(gh *)"),
    # Every tool of the command domain, and the generic star-glob domain.
    row("backslash-powershell", "PowerShell(echo \\zz)", ["PowerShell(echo \\\\*)"], "unknown"),
    row("backslash-powershell-identical", "PowerShell(echo \\zz)", ["PowerShell(echo \\zz)"],
        "covered"),
    row("backslash-monitor", "Monitor(tail \\zz)", ["Monitor(tail \\\\*)"], "inert"),
    row("backslash-skill", "Skill(x \\zz)", ["Skill(x \\\\*)"], "unknown"),
    row("backslash-skill-identical", "Skill(x \\zz)", ["Skill(x \\zz)"], "covered"),
    row("backslash-generic", "WebSearch(a \\zz)", ["WebSearch(a \\\\*)"], "unknown"),
    row("backslash-generic-identical", "WebSearch(a \\zz)", ["WebSearch(a \\zz)"], "covered"),
    row("backslash-generic-under-bare", "WebSearch(a \\zz)", ["WebSearch"], "covered"),
    row("backslash-generic-approved-covers-no-narrowing", "MyTool(a b)", ["MyTool(a \\\\*)"],
        NOT_COVERED),
    row("backslash-generic-approved-unrelated-witness", "MyTool(b*)", ["MyTool(a \\\\*)"],
        "not_covered"),
]


@pytest.mark.parametrize(ROW_ARGS, BACKSLASH_ROWS)
def test_backslash_content_decided_by_identity_only(
    entry: str, approved: list[str], status: Expected, covered_by: str | None,
    witness: str | None, ref: bool,
) -> None:
    run_row(entry, approved, status, covered_by, witness, ref)
    verdict = prove(entry, approved)
    # (A compound command is never given a witness at all: that reason says so instead.)
    if verdict.status == "unknown" and "compound string" not in verdict.reason \
            and "one whole string" not in verdict.reason:
        assert "backslash" in verdict.reason and "twice" in verdict.reason, verdict.reason


def test_backslash_runtime_reading_of_the_measured_pair() -> None:
    # The exact pair measured on the runtime, and the reason a reader is given.
    verdict = prove("Bash(touch \\zz)", ["Bash(touch \\\\*)"])
    assert not verdict.covered
    assert verdict.status == "unknown"
    assert "unescapes backslashes twice" in verdict.reason
    # The independent model agrees with the measurement: `touch *` only.
    assert ref_allows("touch \\\\*", "touch *")
    assert not ref_allows("touch \\\\*", "touch \\zz")


def _as_declared(entry: str, approved: list[str], shell_tools: object) -> Verdict:
    """``prove`` in the plan's own vocabulary (no runtime profile: the call gate's reading),
    where declared shell aliases join Bash."""
    return prove_prepared(entry, plan_for(approved, shell_tools, None))  # type: ignore[arg-type]


def test_backslash_shell_alias_decided_by_identity_only() -> None:
    aliases = {"exec_command": {"command-argument": "cmd"}}
    assert not _as_declared("exec_command(touch \\zz)", ["Bash(touch \\\\*)"],
                            aliases).covered
    assert _as_declared("exec_command(touch \\zz)", ["exec_command(touch \\zz)"],
                        aliases).covered
    assert _as_declared("exec_command(touch \\zz)", ["Bash"], aliases).covered
    assert not _as_declared("exec_command(touch a)", ["exec_command(touch \\\\*)"],
                            aliases).covered
    # Claude Code has no exec_command: there the alias grants nothing and joins nothing.
    assert not prove("exec_command(touch zz)", ["Bash"], shell_tools=aliases).covered
    assert not prove("Bash", ["exec_command"], shell_tools=aliases).covered


@pytest.mark.parametrize(("entry", "approved"), [
    ("Bash(timeout 5 touch *)", ["Bash(touch *)"]),
    ("Bash(nohup touch *)", ["Bash(git log *)"]),
    ("Bash(env touch a)", ["Bash(git status)"]),
])
def test_a_witness_the_runtime_would_unwrap_is_not_certain(entry: str,
                                                           approved: list[str]) -> None:
    # Claude Code 2.1.332 strips `timeout N`, `nohup`, `time`… before it matches: under
    # Bash(touch *) it allows `timeout 5 touch zz` (tests/conformance, the witness test).
    verdict = prove(entry, approved)
    assert verdict.status == "unknown" and verdict.witness is None
    # (an exact rule run through a wrapper is also approved whole: review F28-2)
    assert "strips the wrapper" in verdict.reason or "wrapper" in verdict.reason


def test_a_wrapper_word_later_in_the_command_keeps_its_witness() -> None:
    verdict = prove("Bash(touch timeout *)", ["Bash(git status)"])
    assert verdict.status == "not_covered" and verdict.witness == "touch timeout"


@pytest.mark.parametrize(("entry", "approved", "status"), [
    # 2.1.332 collapses runs of spaces and tabs in a wildcard rule and in the command: under
    # `Bash(a  b*)` it allows `a bz`, which `Bash(a * b*)` does not, so that pair is not kept.
    ("Bash(a  b*)", ["Bash(a * b*)"], "unknown"),
    ("Bash(touch  a*)", ["Bash(touch a*)"], "unknown"),
    ("Bash(gh  pr  view:*)", ["Bash(gh pr view:*)"], "unknown"),
    ("Bash(touch\ta*)", ["Bash(touch *)"], "unknown"),
    ("Bash(touch  a*)", ["Bash(touch  a*)"], "covered"),  # identical
    ("Bash(touch  a*)", ["Bash", "Monitor"], "covered"),  # tool-wide
    # An approved run of spaces covers only its twin, and leaves no certain witness nearby.
    ("Bash(touch a*)", ["Bash(touch  a*)"], "unknown"),
    ("Bash(touch a b)", ["Bash(touch *)"], "covered"),  # single spaces: decided as written
])
def test_spacing_runs_are_decided_by_identity_only(entry: str, approved: list[str],
                                                   status: str) -> None:
    verdict = prove(entry, approved)
    assert verdict.status == status, verdict
    if status == "unknown":
        assert "run of spaces" in verdict.reason, verdict.reason


# --------------------------------------------------------------------------------------------
# What the command domain owns: its tool groups, its case folding, its top
# --------------------------------------------------------------------------------------------


def test_every_domain_has_its_rules_in_one_table() -> None:
    assert set(registry.DOMAINS) == set(Domain)
    assert registry.rules_for("PowerShell", frozenset()) is command
    assert registry.rules_for("exec_command", frozenset({"exec_command"})) is command
    assert registry.rules_for("exec_command", frozenset()) is not command


@pytest.mark.parametrize(("submitted", "other", "relevant"), [
    ("Bash", "exec_command", True),  # a declared shell alias joins Bash (semantics §3)
    ("exec_command", "Bash", True),
    ("Bash", "Bash", True),
    ("PowerShell", "Bash", False),  # every other command tool is its own group
    ("Monitor", "Bash", False),
    ("Skill", "Skill", True),
])
def test_command_tool_groups(submitted: str, other: str, relevant: bool) -> None:
    shell_tools = frozenset({"exec_command"})
    assert command.relevant(parse_grant(submitted), parse_grant(other), shell_tools) is relevant


def test_only_powershell_folds_case_and_only_ascii() -> None:
    fold = command.case_fold("PowerShell")
    assert fold is not None and fold("Write-Host ÄSS\u212a") == "write-host Äss\u212a"
    assert command.case_fold("Bash") is None
    assert command.case_fold("exec_command") is None


def test_every_command_is_the_named_top() -> None:
    assert command.compile_pattern(None) is command.ANY_COMMAND
    # Only `Bash`, `Bash()` and `Bash(*)` are tool-wide at runtime: a content of stars only
    # is a glob rule, with every command as its language (issue 28, review F28-1).
    for content in ("**", " * ", "* ", " *", "***"):
        pattern = command.compile_pattern(content)
        assert pattern.kind is command.Kind.GLOB and pattern.globs == (EVERY_TEXT,)
    assert command.compile_pattern("ls *") is not command.ANY_COMMAND
    assert command.ANY_COMMAND.globs == (EVERY_TEXT,)
    assert all(EVERY_TEXT.matches(text, Budget()) for text in ("", "rm -rf /", "a\nb"))


@pytest.mark.parametrize(("entry", "approved"), [
    ("Bash(find . -fprint /dev/shm/zz)", "Bash(find *)"),
    ("Bash(/usr/bin/ionice touch /dev/shm/zz)", "Bash(/usr/bin/ionice *)"),
    ("Bash('exec' rm -rf .claude)", "Bash('exec' *)"),
    ("Bash(A[0]=1 eval x)", "Bash(A[0]=1 *)"),
    ("Bash(typeset x)", "Bash(typeset *)"),
])
def test_exact_rules_whose_program_may_hide_a_wrapper_are_approved_whole(
        entry: str, approved: str) -> None:
    # Review F28-2b: the runtime approves these exact rules whole, skipping a glob rule's checks.
    assert prove(entry, [approved]).status == "unknown"


@pytest.mark.parametrize(("entry", "approved"), [
    ("Bash(${CLAUDE_SKILL_DIR}/run.sh)", "Bash(${CLAUDE_SKILL_DIR}/*)"),
])
def test_exact_rules_of_a_plain_program_stay_covered_by_a_glob(entry: str, approved: str) -> None:
    assert prove(entry, [approved]).covered


@pytest.mark.parametrize(("entry", "approved"), [
    ("Bash(git status)", "Bash(git *)"),  # a program the runtime's analysis names
    ("Bash(npm run test)", "Bash(npm run test:*)"),
    ("Bash(ls -la)", "Bash(ls *)"),
    ("Bash(echo hi)", "Bash(echo *)"),  # a builtin of the shell
    ("Bash(/usr/bin/python3.11 x.py)", "Bash(/usr/bin/python3.11 *)"),  # python, by its path
    ("Bash(gh pr view eval)", "Bash(gh *)"),  # a word of the shell's among the arguments
    ("Bash(gh pr view ~/x)", "Bash(gh *)"),  # a tilde
    ("Bash(gh pr view 'x')", "Bash(gh *)"),  # quoting
    ("Bash(gh pr list && gh pr view 1)", "Bash(gh *)"),
    ("Bash(gh pr list > x)", "Bash(gh *)"),
    ("Bash(GH_TOKEN=x gh pr list)", "Bash(GH_TOKEN=x *)"),
])
def test_exact_rules_that_are_not_plain_commands(entry: str, approved: str) -> None:
    # Issue 28: the runtime approves an exact or prefix rule whole, before the analysis a glob
    # rule's command gets; only a plain command (commandpattern.plain_command) is no wider.
    assert prove(entry, [approved]).status == "unknown"
    assert prove(entry, [entry, approved]).covered_by == entry
    assert prove_language(entry, [approved]).covered


@pytest.mark.parametrize(("entry", "approved"), [
    ("Bash(gh pr list)", "Bash(gh *)"),
    ("Bash(gh pr view:*)", "Bash(gh *)"),
    ("Bash(pnpm --dir ../x install)", "Bash(pnpm *)"),
    ("Bash(cargo build --release)", "Bash(cargo build *)"),
    ("Bash(gh pr list | gh pr view 1)", "Bash(gh *)"),  # a pipe of plain parts
    ("Bash(/opt/bin/tinymist compile a.typ)", "Bash(/opt/bin/tinymist *)"),
    ("Bash(chmod 755 /dev/shm/zz)", "Bash(chmod *)"),  # path-checked under both
    # A prefix rule is judged as the glob of the same language, whatever its program:
    ("Bash(git tag:*)", "Bash(git tag *)"),
    ("Bash(find:*)", "Bash(find *)"),
    ("Bash(eval:*)", "Bash(eval *)"),
])
def test_exact_rules_of_plain_commands_stay_covered_by_a_glob(entry: str, approved: str) -> None:
    assert prove(entry, [approved]).covered
