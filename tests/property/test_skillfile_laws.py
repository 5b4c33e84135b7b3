"""Laws of the builder stage (semantics §6), over generated SKILL.md files and plans.

The generator writes files its own way (JSON strings for quoted YAML, hand-built block lists),
independently of the splicer's renderer: only the allowed-tools lines may change, applying twice
equals applying once, and every entry written is covered by the plan or is a restored one.
"""

from __future__ import annotations

import json
import re

import frontmatter
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_text, read_skill

SUBMITTED = [
    "Read", "Grep", "Glob", "Write", "Edit", "Bash", "Agent", "read", "GREP",
    "Bash(gh pr list)", "Bash(gh *)", "Bash(rm -rf /)", "bash(gh pr view *)",
    "Bash(npm run test:*)", 'Bash(git commit -m "fix: typo")', "Bash(echo a #b)",
    "WebFetch(domain:example.com)", "WebFetch(domain:docs.example.com)", "mcp__gh__get_issue",
    "Read(src/**)", "Edit(docs/*.md)", "Bash(a, b)",
]
APPROVED = ["Bash(gh *)", "Read", "Grep", "Edit", "mcp__gh", "WebFetch(domain:*.example.com)",
            "Bash(git commit *)", "Bash(echo *)"]
#: What covers each submitted entry, worked out by hand from semantics §4 (not by the prover): the
#: kept spelling, and each set of approved entries that covers it together. ``Edit(p)`` needs
#: its read side too, and a bare ``Edit`` grants no ``Read``. Entries not listed are covered by
#: nothing in APPROVED: ``Write`` is not ``Edit``, ``*.example.com`` leaves out the apex,
#: ``test:*`` is a prefix of ``npm run test:`` only, ``Bash(a, b)`` is ambiguous.
COVERED_BY: dict[str, list[frozenset[str]]] = {
    "Read": [frozenset({"Read"})],
    "Grep": [frozenset({"Grep"})],
    "Edit": [frozenset({"Edit"})],
    "Bash(gh pr list)": [frozenset({"Bash(gh *)"})],
    "Bash(gh *)": [frozenset({"Bash(gh *)"})],
    "Bash(gh pr view *)": [frozenset({"Bash(gh *)"})],
    # Exact rules the runtime may approve whole (a program it analyzes, a shell word, quoting:
    # issue 28): no plan drawn here covers them.
    'Bash(git commit -m "fix: typo")': [],
    "Bash(echo a #b)": [],
    "WebFetch(domain:docs.example.com)": [frozenset({"WebFetch(domain:*.example.com)"})],
    "mcp__gh__get_issue": [frozenset({"mcp__gh"})],
    "Read(src/**)": [frozenset({"Read"})],
    # An Edit(path) rule also approves Write and NotebookEdit calls there, which a bare Edit
    # does not (Claude Code 2.1.332, issue 28): no plan drawn here covers it.
    "Edit(docs/*.md)": [],
}
#: The kept spelling of a submitted entry written in another case (semantics §3).
KEPT_AS = {"read": "Read", "GREP": "Grep", "bash(gh pr view *)": "Bash(gh pr view *)"}


def _covered(entry: str, approved: list[str]) -> bool:
    return any(needed <= set(approved) for needed in COVERED_BY.get(entry, []))


BODIES = [
    "# Skill\n\nDo the thing.\n",
    "Body\n\n---\n\nallowed-tools: Bash\n\n```yaml\n---\nallowed-tools: [Bash]\n---\n```\n",
    "Ünïcödé — 日本語 😀\n...\n",
    "",
]
_SIMPLE = re.compile(r"[A-Za-z][A-Za-z_(]*[A-Za-z0-9_ ()*/.-]*")


def _item(entry: str, draw_quote: bool) -> str:
    plain = _SIMPLE.fullmatch(entry) and "#" not in entry and "," not in entry
    return entry if plain and not draw_quote else json.dumps(entry, ensure_ascii=False)


@st.composite
def allowed_values(draw: st.DrawFn) -> str | None:
    """The ``allowed-tools`` key and value lines (LF), or None for an absent key."""
    pool = st.sampled_from([e for e in SUBMITTED if _SIMPLE.fullmatch(e)])
    entries = draw(st.lists(pool | st.sampled_from(SUBMITTED), max_size=6))
    form = draw(st.sampled_from(["comma", "block", "flow", "space", "tight", "double", "single",
                                 "block-comments", "literal", "folded", "absent"]))
    if form == "absent":
        return None
    quote = draw(st.booleans())
    simple = all(_SIMPLE.fullmatch(e) and "#" not in e and "," not in e for e in entries)
    if form in ("comma", "tight", "space"):
        sep = {"comma": ", ", "tight": ",", "space": " "}[form]
        joined = sep.join(entries)
        value = joined if simple and entries and not quote else json.dumps(joined)
        return f"allowed-tools: {value}"
    if form in ("double", "single"):
        joined = ", ".join(entries)
        value = json.dumps(joined) if form == "double" or "'" in joined else f"'{joined}'"
        return f"allowed-tools: {value}"
    if form == "flow":
        return "allowed-tools: [" + ", ".join(_item(e, quote) for e in entries) + "]"
    if form in ("literal", "folded"):
        if not entries:
            return "allowed-tools: ''"
        header = "|" if form == "literal" else ">-"
        return f"allowed-tools: {header}\n" + "\n".join(f"  {e}," for e in entries)
    if not entries:
        return "allowed-tools: []"
    comment = form == "block-comments"
    return "allowed-tools:\n" + "\n".join(
        f"  - {_item(e, quote)}" + (f"  # item {i}" if comment else "")
        for i, e in enumerate(entries))


OTHER_KEYS = st.lists(st.sampled_from([
    "name: generated-skill",
    'description: "Quoted: with a colon"',
    "description: >\n  Folded text\n  over lines.",
    "description: |\n  Literal text\n\n  with a blank line.",
    "description: plain text  # and a comment",
    "# a comment line",
    "version: 3",
    "metadata:\n  tags: [a, b]\n  owner: team",
    "argument-hint: '[pr] [--draft]'",
    "user-invocable: true",
]), max_size=5, unique=True)


@st.composite
def skill_files(draw: st.DrawFn) -> str:
    keys = draw(OTHER_KEYS)
    keys = [k for i, k in enumerate(keys)
            if not k.startswith("description") or not any(
                o.startswith("description") for o in keys[:i])]
    allowed = draw(allowed_values())
    if allowed is not None:
        keys.insert(draw(st.integers(0, len(keys))), allowed)
    text = "---\n" + "".join(k + "\n" for k in keys) + "---\n" + draw(st.sampled_from(BODIES))
    if draw(st.booleans()):
        text = text.rstrip("\n")
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    if draw(st.booleans()):
        text = "\ufeff" + text
    return text


# COVERED_BY is Claude Code's reading: the plans are judged under it alone.
plans = st.lists(st.sampled_from(APPROVED), max_size=4, unique=True).map(
    lambda entries: Plan.from_entries(entries, runtime="claude-code"))


def _allowed_lines(text: str) -> tuple[int, int]:
    doc = read_skill(text)
    value = doc.allowed_tools
    if value is None:
        at = text.count("\n", 0, doc.insert_at)
        return at, at
    return text.count("\n", 0, value.key_start), text.count("\n", 0, value.line_end) + 1


@settings(max_examples=examples(500))
@given(skill_files(), plans)
def test_only_the_allowed_tools_lines_change(text: str, plan: Plan) -> None:
    new_text, _ = apply_to_text(text, plan)
    old_lines, new_lines = text.splitlines(keepends=True), new_text.splitlines(keepends=True)
    a, b = _allowed_lines(text)
    c, d = _allowed_lines(new_text)
    if read_skill(new_text).allowed_tools is None:
        c = d = a
    assert c == a
    assert old_lines[:a] == new_lines[:c]
    assert old_lines[b:] == new_lines[d:]
    # The changed lines use the file's own line ending.
    if "\r\n" in text:
        assert "\n" not in new_text.replace("\r\n", "")


@settings(max_examples=examples(500))
@given(skill_files(), plans)
def test_apply_is_idempotent(text: str, plan: Plan) -> None:
    once, _ = apply_to_text(text, plan)
    twice, decision = apply_to_text(once, plan)
    assert twice == once
    assert not decision.dropped


@settings(max_examples=examples(500))
@given(skill_files(), plans)
def test_every_written_entry_is_covered_or_restored(text: str, plan: Plan) -> None:
    new_text, decision = apply_to_text(text, plan)
    doc = read_skill(new_text)
    written = [] if doc.allowed_tools is None else list(doc.allowed_tools.entries)
    assert written == decision.allowed
    metadata, _ = frontmatter.parse(new_text.lstrip("\ufeff"))
    assert ("allowed-tools" in metadata) == bool(written)
    if not plan.allowed_tools:
        assert written == []
        return
    old = read_skill(text).allowed_tools
    submitted = [KEPT_AS.get(e, e) for e in (old.entries if old is not None else ())]
    if decision.restored:
        assert written == list(dict.fromkeys(plan.allowed_tools))
        assert not any(_covered(e, plan.allowed_tools) for e in submitted)
        return
    # Sound: every entry written is covered. Complete here: every covered entry is written.
    assert written == list(dict.fromkeys(e for e in submitted if _covered(e, plan.allowed_tools)))
