"""The compiled plan's plain path against the general path it stands in for.

``prover._decide_plain`` answers entries of a plain content (command tools compared exactly, and
the generic tools a grant covers outright) in a few C-level steps; every other entry, and every
plain one it does not settle, goes through screening, parsing and the domain's ``decide``. The
general path is the reference here: the same verdict, field for field, for every entry and plan
drawn, and the same decision for whole values whose work budgets run out part-way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant import combined, constrain, prove, prover, runtimes
from skillgrant.domains.base import Budget
from skillgrant.prepared import clear_caches, plan_for

TOOLS = ["Bash", "bash", "Monitor", "Skill", "PowerShell", "WebSearch", "MyTool", "Sh", "Read",
         "mcp__x__y"]
#: Words a content is made of: plain ones, and near-misses of every kind the plain path
#: refuses (escapes, operators, placeholders, blanks, parentheses, non-ASCII).
WORDS = ["gh", "pr", "list", "git", "a", "A", "*", "**", "-x", "a*", "*b", "x:*", ":*", "rm",
         "timeout", "sudo", "'q w'", '"d"', "#c", "~", "!", "a=b", "x", "y", "0", "_", "\\*",
         "&&", "|", ";", "$(id)", "${CLAUDE_SKILL_DIR}", "a\tb", "(p)", "é", "\u00a0", "`t`"]
contents = st.lists(st.sampled_from(WORDS), min_size=0, max_size=5).flatmap(
    lambda words: st.sampled_from([" ".join(words), "".join(words), "  ".join(words),
                                   " ".join(words) + " "]))
entries = st.builds(lambda tool, content, bare: tool if bare else f"{tool}({content})",
                    st.sampled_from(TOOLS), contents, st.booleans())
plans = st.lists(entries, min_size=0, max_size=6)
SHELL_TOOLS = ["Sh"]


@contextmanager
def general_path() -> Iterator[None]:
    """Every entry decided by the general path, from cold caches."""
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(prover, "_decide_plain", lambda *args: None)
        clear_caches()
        yield
    clear_caches()


def _both(decide: object) -> tuple[object, object]:
    clear_caches()
    try:
        ours = decide()  # type: ignore[operator]
    except Exception as e:  # a bad plan: the same error both ways
        ours = repr(e)
    with general_path():
        try:
            theirs = decide()  # type: ignore[operator]
        except Exception as e:
            theirs = repr(e)
    return ours, theirs


@settings(max_examples=examples(4000), deadline=None)
@given(entry=entries, approved=plans, aliases=st.booleans())
def test_the_plain_path_gives_the_general_verdict(entry: str, approved: list[str],
                                                  aliases: bool) -> None:
    shell = SHELL_TOOLS if aliases else None

    def decide() -> tuple[object, int]:
        """The verdict, and the work charged to the value's budget for it."""
        value = Budget(limit=10**9, name="VALUE")
        plan = plan_for(approved, shell, None)
        return prover._decide(entry, plan, value), value.spent

    ours, theirs = _both(decide)
    assert ours == theirs


@settings(max_examples=examples(1000), deadline=None)
@given(submitted=st.lists(entries, max_size=12), approved=plans,
       per_decision=st.integers(1, 400), per_value=st.integers(1, 1500))
def test_budgets_run_out_where_they_ran_out(submitted: list[str], approved: list[str],
                                            per_decision: int, per_value: int) -> None:
    """Small budgets, so that decisions and whole values stop part-way: the plain path charges
    at once what the general path charges step by step, and stops where it stops."""
    from skillgrant.domains import base

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(prover, "MAX_WORK_PER_DECISION", per_decision)
        patched.setattr(prover, "MAX_WORK_PER_VALUE", per_value)
        patched.setattr(base.Budget.__init__, "__defaults__",
                        (per_decision, 0, None, "MAX_WORK_PER_DECISION"))
        ours, theirs = _both(lambda: constrain(submitted, approved))
    assert ours == theirs


@pytest.mark.parametrize("approved", [["Bash(gh *)"], ["Bash(gh *)", "Bash(a  b)"],
                                      ["Bash(git commit:*)", "Read"], ["Bash(timeout *)"]])
@pytest.mark.parametrize("entry", [
    "Bash(timeout 5 rm x)", "Bash(sudo rm)", "Bash(nohup)", "Bash(env X=1 rm)", "Bash(rm -rf /)",
    "Bash(xtimeout 5)", "Bash(rm timeout)", "Bash(gh pr list)", "Bash(a b)", "Bash(git commit)"])
def test_literal_entries_are_refuted_as_the_general_path_refutes_them(
        entry: str, approved: list[str]) -> None:
    """A wrapper in front, a loose reading in the plan: the literal refutation's doubts."""
    ours, theirs = _both(lambda: prover._decide(entry, plan_for(approved, None, None)))
    assert ours == theirs


def test_the_plain_path_decides_the_usual_entries() -> None:
    """It is taken: the usual entries never reach the general path."""
    clear_caches()
    approved = ["Bash(gh *)", "Bash(git commit:*)", "WebSearch", "Bash(npm run *)"]
    for entry in ["Bash(gh pr list)", "Bash(git commit -m x)", "WebSearch(q)", "Bash(rm -rf /)",
                  "Bash(npm run test:*)", "Bash(git commit:*)"]:
        assert prover._decide_plain(entry, plan_for(approved, None, None),
                                    None) is not None, entry


REAL = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "real-skills"


@pytest.mark.skipif(not REAL.is_dir(), reason="the real-skills corpus is not beside the project")
def test_real_entries_against_real_plans() -> None:
    """Every allowed-tools entry of the real skills, against each real skill's list as the
    plan (and a few usual plans)."""
    import frontmatter

    from skillgrant import split_allowed_tools

    values = []
    for path in sorted(REAL.rglob("*.md")):
        try:
            value = frontmatter.loads(path.read_text(encoding="utf-8")).get("allowed-tools")
            entries = split_allowed_tools(value) if isinstance(value, (str, list)) else []
        except Exception:
            continue
        if entries:
            values.append(entries)
    assert values
    every = sorted({e for value in values for e in value})
    for approved in [*values, ["Bash(git *)", "Bash(gh *)", "Read"], ["Bash"], []]:
        ours, theirs = _both(lambda a=approved: [prove(e, a) for e in every])
        assert ours == theirs, approved


#: The plain entry's expression as first written, with runs that can give characters back: the
#: reference for its possessive form (``commandpattern.PLAIN_CONTENT``).
_BACKTRACKING_ENTRY = re.compile(r"([A-Za-z][A-Za-z0-9_-]*)\(([!-#%'*-:<-\[\]-_a-z~]+"
                                 r"(?: [!-#%'*-:<-\[\]-_a-z~]+)*)\)")


@settings(max_examples=examples(3000), deadline=None)
@given(st.text(alphabet="Bash(gh *-x:) \t$|'é", max_size=24)
       | st.builds("{}({})".format, st.sampled_from(TOOLS), contents))
def test_possessive_runs_match_what_the_backtracking_ones_match(text: str) -> None:
    ours = prover._PLAIN_ENTRY.fullmatch(text)
    reference = _BACKTRACKING_ENTRY.fullmatch(text)
    assert (ours and ours.groups()) == (reference and reference.groups())


def _decision(value: list[str], approved: list[str], runtime: str | None) -> object:
    try:
        decision = constrain(value, approved, runtime=runtime)
    except Exception as e:  # a bad plan: the same error both ways
        return repr(e)
    return decision.allowed, decision.restored, decision.verdicts


@settings(max_examples=examples(600), deadline=None)
@given(first=st.lists(entries, max_size=8), second=st.lists(entries, max_size=8),
       approved=plans, per_value=st.integers(1, 3000),
       runtime=st.sampled_from([None, "claude-code", "copilot-cli", "copilot-cli,claude-code"]))
def test_verdicts_combined_across_values_are_the_cold_ones(
        first: list[str], second: list[str], approved: list[str], per_value: int,
        runtime: str | None) -> None:
    """``constrain`` keeps an entry's verdict combined over the runtimes once every decision in
    it is remembered (``skillgrant.combined``): later values, their budgets run down to any
    point by the entries before, decide as they do with nothing combined kept, and as a cold
    ``constrain`` of each value does while no value's budget runs out. (Past a budget run out,
    a verdict remembered at no cost is taken where a cold decision stops: so on main too.)"""
    values = [first, second, first + second, second + first, first, second, first + first]
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(prover, "MAX_WORK_PER_VALUE", per_value)
        clear_caches()
        warm = [_decision(value, approved, runtime) for value in values]
        with pytest.MonkeyPatch.context() as uncombined:
            uncombined.setattr(combined, "_keep", lambda *args: None)
            clear_caches()
            plain = [_decision(value, approved, runtime) for value in values]
        cold = []
        for value in values:
            clear_caches()
            cold.append(_decision(value, approved, runtime))
    clear_caches()
    assert warm == plain
    if "(MAX_WORK_PER_VALUE)" not in repr(cold):
        assert warm == cold


def test_combined_verdicts_are_kept_and_taken() -> None:
    """The usual batch: the same entries in value after value are combined once."""
    clear_caches()
    approved = ["Read", "Grep", "Bash(git *)"]
    value = ["Read", "Bash(git log)", "Bash(rm -rf /)", "Write"]
    first = constrain(value, approved)
    assert constrain(value, approved) == first  # every decision remembered from here
    plan = plan_for(approved, None, None, runtimes.profiles(None)[0])
    kept = next(iter(plan.combined.values()))
    assert set(kept) == set(value)
    assert constrain(value, approved) == first
    clear_caches()


def test_a_combined_verdict_is_not_taken_past_the_value_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry combined before, after entries that used up the value's budget, stops where a
    cold decision stops (12,430 units each here; 30,000 for the value)."""
    approved = [f"Bash(git {'x' * 200} {i} *)" for i in range(10)]
    submitted = [f"Bash(git {'y' * 200} {i})" for i in range(3)]
    monkeypatch.setattr(prover, "MAX_WORK_PER_VALUE", 30_000)
    value = [submitted[1], submitted[2], submitted[0]]
    clear_caches()
    cold = _decision(value, approved, None)
    for _ in range(3):  # the first entry's verdict remembered, then combined
        constrain(submitted[:1], approved)
    assert _decision(value, approved, None) == cold
    statuses = [v.status for v in cold[2]]  # type: ignore[index]
    assert statuses == ["not_covered", "not_covered", "unknown"]
    clear_caches()


def test_a_verdict_stopped_by_the_value_budget_is_not_combined(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A remembered verdict that the value's budget stopped (its work charged past the limit) is
    not kept combined: the same entry in a value with room decides in full."""
    approved = [f"Bash(git {'x' * 200} {i} *)" for i in range(10)]
    submitted = [f"Bash(git {'y' * 200} {i})" for i in range(3)]
    monkeypatch.setattr(prover, "MAX_WORK_PER_VALUE", 30_000)
    clear_caches()
    alone = _decision(submitted[:1], approved, None)
    stopped = _decision([submitted[1], submitted[2], submitted[0]], approved, None)
    assert [v.status for v in stopped[2]] == ["not_covered", "not_covered", "unknown"]  # type: ignore[index]
    assert _decision(submitted[:1], approved, None) == alone
    assert [v.status for v in alone[2]] == ["not_covered"]  # type: ignore[index]
    clear_caches()
