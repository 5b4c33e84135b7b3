"""Session 46's second review of the reader (s46-freview2) through Claude Code 2.1.332 (run with
``--conformance``): calls the printed gate allows that run what the plan does not carry. Each
hole row fails today (strict xfail, ``OPEN``); its control row passes. (Copilot CLI's rows
are in test_copilot_s46_freview2.py, where the suite's ``--copilot`` gate applies.)
"""

from __future__ import annotations

import pytest
from cc_probe import Judge
from file_review import gated_skill_call
from review_table import LeftOpen

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()  # (G3, G4, G5, G7: closed by s46-gfix)

#: Skill ``other``: its body's ``!`echo $ARGUMENTS``` after a U+FEFF (the runtime finds it,
#: the gate does not), and the control (a space: both find it; the gate denies).
G3 = {"bom-before-marker": ("---\nname: other\ndescription: d\nallowed-tools: Bash(echo *)\n"
                            "---\nResult:\ufeff!`echo $ARGUMENTS`\n"),
      "control": ("---\nname: other\ndescription: d\nallowed-tools: Bash(echo *)\n"
                  "---\nResult: !`echo $ARGUMENTS`\n")}


@pytest.mark.parametrize("row", sorted(G3))
def test_g3_a_skill_command_after_a_byte_order_mark_runs_the_calls_args(judge: Judge,
                                                                        row: str) -> None:
    """review s46-freview's G1 session (plan ``Skill(other)``, ``Bash(echo *)``; the session
    allows Bash; the gate's hook in the project's settings): ``Skill(other, args="hi; touch
    zz")`` makes the runtime run ``echo hi; touch zz`` as the skill loads. The gate must deny
    the Skill call; ``apply --plan Bash(echo *)`` keeps the file unchanged."""
    gated_skill_call(judge, G3[row], "hi; touch zz")


_G4_HEAD = "---\nname: other\ndescription: d\nallowed-tools: Bash(echo *)\n"
_MANY = ", ".join(["x" * 65] + [f"a{i}" for i in range(63)] + ["who"])
#: (skill file, args): the runtime fills ``$who`` (or ``$ who``) with the word that makes
#: ``touch zz``; the gate fills nothing there (or another word: ``echo zz``).
G4 = {"space-in-item": (_G4_HEAD + 'arguments: [" who"]\n---\nResult: !`echo $ who`\n',
                        "'x; touch zz'"),
      "arabic-digit-name": (_G4_HEAD + 'arguments: ["\u0663", who]\n---\nResult: !`$who zz`\n',
                            "echo touch"),
      # a name the gate's [\\w.-]+ refuses: every $word is then a placeholder to it, but
      # not `$+x` / `$(w)`, which the runtime fills (`\\$\\+x(?![\\[\\w])`)
      "plus-name": (_G4_HEAD + 'arguments: ["+x"]\n---\nResult: !`echo $+x`\n', "'x; touch zz'"),
      "paren-name": (_G4_HEAD + 'arguments: ["(w)"]\n---\nResult: !`echo $(w)`\n',
                     "'x; touch zz'"),
      "long-name-first": (_G4_HEAD + f"arguments: [{_MANY}]\n---\nResult: !`$who zz`\n",
                          " ".join(["echo"] * 64 + ["touch"])),
      "control": (_G4_HEAD + "arguments: [who]\n---\nResult: !`$who zz`\n", "touch")}


@pytest.mark.parametrize("row", sorted(G4))
def test_g4_a_named_argument_the_gate_reads_otherwise_runs_the_calls_args(judge: Judge,
                                                                         row: str) -> None:
    """G3's session with named arguments: ``Skill(other, args=ARGS)`` makes the runtime run
    ``touch zz`` (or ``echo x; touch zz``) as the skill loads; the gate must deny the call."""
    gated_skill_call(judge, *G4[row])


#: ``arguments: [ARGUMENTS]``: the runtime fills ``$ARGUMENTS`` with word 0 (``x; touch zz``,
#: the args' quotes removed); the gate with the whole args (``echo 'x; touch zz'``: covered).
G5 = {"named-arguments": (_G4_HEAD + "arguments: [ARGUMENTS]\n---\nResult: !`echo $ARGUMENTS`\n",
                          "'x; touch zz'"),
      "control": (_G4_HEAD + "---\nResult: !`echo $ARGUMENTS`\n", "'x; touch zz'")}


@pytest.mark.parametrize("row", sorted(G5))
def test_g5_a_name_called_arguments_runs_the_calls_args(judge: Judge, row: str) -> None:
    """``Skill(other, args="'x; touch zz'")`` runs ``echo x; touch zz`` as the skill loads
    when it names an argument ``ARGUMENTS``; the gate must deny the call. (The control, no
    names: ``echo 'x; touch zz'`` runs, quoted: zz is not created.)"""
    gated_skill_call(judge, *G5[row])


#: ``!`touch zz``` is inert as written (the runtime's Bit blanks the code spans around it);
#: filled from args holding backticks, the spans pair otherwise and it runs. The gate fills
#: the word it cannot split with a marker, which pairs like the text as written.
G7 = {"backticks-in-args": (_G4_HEAD + "arguments: [who]\n---\nResult `!`echo "
                            "$ARGUMENTS[0]` !`touch zz`\n", "\\!`x`"),
      "control": (_G4_HEAD + "arguments: [who]\n---\nResult `!`echo $ARGUMENTS` !`touch zz`\n",
                  "a`b")}


@pytest.mark.parametrize("row", sorted(G7))
def test_g7_args_with_backticks_make_an_inert_command_live(judge: Judge, row: str) -> None:
    """``Skill(other, args=ARGS)``: the runtime runs ``touch zz`` as the skill loads; the
    gate must deny the call (the control fills ``$ARGUMENTS``, which the gate fills as the
    runtime does, and denies)."""
    gated_skill_call(judge, *G7[row])
