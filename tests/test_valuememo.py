"""A batch's decisions kept by the value submitted (skillfile/valuememo.py, issue 27, session
59): the same decision as ``constrain``'s, the key the whole value, what is kept bounded.
(tests/test_staged.py checks a batch's outcomes, the kept decisions among them, against each
file's alone.)"""

from __future__ import annotations

from skillgrant.plan.model import Plan
from skillgrant.prover import constrain
from skillgrant.skillfile.builder import _decide, read_skill
from skillgrant.skillfile.valuememo import ValueMemo
from skillgrant.verdicts import Decision

PLAN = Plan.from_entries(["Read", "Bash(git *)"])


def test_a_kept_decision_is_constrains() -> None:
    decided: ValueMemo[Decision] = ValueMemo()
    texts = ["---\nallowed-tools: Read, Bash(rm *)\n---\n",
             "---\nname: y\nallowed-tools: Read, Bash(rm *)\n---\nbody\n",  # the same string
             "---\nallowed-tools: [Read, Bash(rm *)]\n---\n",  # a list: another key
             "---\nallowed-tools:\n  - Read\n  - Bash(rm *)\n---\n", "---\nname: x\n---\n"]
    for text in texts:
        doc = read_skill(text)
        value = doc.allowed_tools
        submitted = [] if value is None else (
            value.value if isinstance(value.value, str) else list(value.value))
        assert _decide(doc, PLAN, None, None, decided) == constrain(
            submitted, PLAN.allowed_tools, **PLAN.constrain_kwargs())
    assert len(decided._known) == 3  # the string, the list, nothing submitted


def test_what_is_kept_is_bounded() -> None:
    made: list[str] = []

    def make(key: str) -> str:
        made.append(key)
        return key.upper()

    memo: ValueMemo[str] = ValueMemo(entries=2, chars=10)
    for key in ["a", "b", "a", "c", "c", "b"]:
        assert memo.get(key, len(key), lambda key=key: make(key)) == key.upper()  # type: ignore[misc]
    assert made == ["a", "b", "c", "c"]  # two kept; then nothing more
    by_size: ValueMemo[str] = ValueMemo(entries=10, chars=5)
    for key in ["abcd", "efgh", "abcd", "efgh", "x", "x"]:
        by_size.get(key, len(key), lambda key=key: make(key))  # type: ignore[misc]
    assert made[4:] == ["abcd", "efgh", "efgh", "x"]
