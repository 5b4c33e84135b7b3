"""Review s48-freview2 through Claude Code 2.1.332 (run with ``--conformance``): files ``check``
passes or ``apply --enforce`` writes that the runtime reads with more grants than the plan, or
whose hook it drops (tests/test_s48_freview2.py: M1, L1, N1, R1). Each hole row fails today (strict
xfail, ``OPEN``); its control row passes. (Not named test_s48_freview2.py: two test modules of
one basename stop the suite's collection.)"""

from __future__ import annotations

import pytest
from cc_probe import Judge
from file_review import allowed_then_checked, enforce_session, work_folder
from review_table import LeftOpen

#: The holes left open by this review, by test name and case (tests/conftest.py reads it).
OPEN = LeftOpen()

#: M1 (closed by s48-ffix), N1, R1: the runtime's retry reads ``allowed-tools: Read #
#: Bash(touch *)`` whole (Bun rejects the text as written; skillgrant reads ``Read`` or nothing).
M1 = {"m1-pair-list-value": "y:\n  x: [k: [x]\n\t , b]",
      "m1-second-item": "y:\n  x: [a, k: [x]\n\t , b]",
      "n1-empty-value": "y:\n  x: [k:\n\t , b]",
      "n1-braced-mapping": "y:\n  x: {k:\n\t , b: c}",
      "r1-glued-list": "x: [a]#[a]"}
# (M1: closed by s48-ffix f522e15; N1: 52cd394; R1: s48-ffix, a '#' glued to ']' refused)


@pytest.mark.parametrize("row", [*sorted(M1), "control"])
def test_check_passes_a_file_the_runtime_grants_touch_under(judge: Judge, row: str) -> None:
    """``check --plan Read`` must not pass the skill, where Claude Code pre-approves
    ``touch zz`` (the control: the canary alone, ``allowed-tools: Bash(touch *)``, plainly)."""
    lines = f"{M1[row]}\nallowed-tools: Read # Bash(touch *)" if row in M1 else \
        "allowed-tools: Read Bash(touch *)"
    with work_folder("sg-s48fr2-") as work:
        allowed_then_checked(judge, work, f"---\nname: probe\ndescription: d\n{lines}\n---\n"
                             "Run it.\n", "m1", review="s48-freview2")


#: L1: a lone '-' first on a flow continuation line: the runtime reads no frontmatter.
L1 = {"l1-list-after-comma": "x: [a,\n  -]", "l1-mapping-value": "x: {a:\n  -}",
      "control": "x: [a,\n  b]"}
# (L1: closed by s48-ffix c51a1b3)


@pytest.mark.parametrize("row", sorted(L1))
def test_enforce_writes_a_hook_the_runtime_drops(judge: Judge, row: str) -> None:
    """``apply --enforce`` (plan ``Bash(echo *)``) writes its hook; under a session allowing
    Bash the skill's hook must deny ``touch zz``."""
    enforce_session(judge, "---\nname: probe\ndescription: d\nallowed-tools: Bash(echo *)\n"
                           f"{L1[row]}\n---\nRun it.\n")
