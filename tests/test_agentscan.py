"""agentscan's walk answers as the regular expression it replaced (tests/agentscan_reference.py:
where its first match starts), on any text; and reads the shapes that expression walked from
each start in linear time (review of s49-ffix's law, tests/property/test_linear_patterns.py)."""

from __future__ import annotations

import time

import agentscan_reference as reference
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant.skillfile.agentscan import first_run

_ALPHABET = st.sampled_from([*"?&!*-:[]{},|>+1 #'\"\t\r\nab\\", "hooks", "github", "HOOKS",
                             "hoo\u212as", "mcp", "? ", "&a", "&a ", "# x", "|-", "!t "])


@settings(max_examples=examples(3000), deadline=None)
@given(st.lists(_ALPHABET, max_size=30).map("".join))
def test_the_walk_answers_as_the_expression(text: str) -> None:
    assert first_run(text) == reference.answer(text), text


def test_real_agent_texts() -> None:
    assert first_run("---\nname: ev\ntools: [Read]\n---\n# Git hooks\nReviews GitHub PRs\n") < 0
    text = "---\nname: ev\nhooks:\n  x: y\n---\n"
    assert first_run(text) == text.index("hooks")
    assert first_run("---\nname: ev\n? # c\n  hooks\n: x\n---\n") == 12
    assert first_run("a: b\n&k hooks: c\n") == 5
    assert first_run("x: '\\u0068ooks'\n") == 4


def test_the_shapes_a_search_walked_from_each_start_are_read_in_linear_time() -> None:
    """``[&`` (an anchor's run from each '&'), ``hooks #``, ``[? #``, `` &a #`` (a comment
    from each start inside it): 4N characters cost about 4 times N (the expression: 16), best of
    3 process times."""
    for token in ("[&", "hooks #", "[? #", " &a #", 'hooks"#', "&a &a ", "? !t |- "):
        costs = [_cost(token * (size // len(token))) for size in (20_000, 80_000)]
        assert costs[1] < 8 * max(costs[0], 0.001), (token, costs)


def _cost(text: str) -> float:
    """The process time of ``first_run(text)``, best of 3."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        first_run(text)
        best = min(best, time.process_time() - start)
    return best
