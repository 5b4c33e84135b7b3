"""Review s54 (s54-greview) of s54-gfix, end to end through the pinned Claude Code 2.1.332
(``--conformance``): a makefile's own ``$(shell …)`` copies a default configuration into the
makefile it includes (tests/gate/test_s54_greview.py M14, proved there by real bash with the
printed hook): here the skill is loaded by the runtime, its hook written by ``apply
--enforce``, and the model's calls run by the runtime's Bash tool."""

from __future__ import annotations

from pathlib import Path

from cc_probe import Judge
from gate_sessions import denied_by_gate
from review_table import LeftOpen
from test_subagents_e2e import bash, enforced_skill, load, run, work  # noqa: F401

#: The holes left open by this review here (tests/conftest.py reads it).
OPEN = LeftOpen()

ENTRIES = ["Bash(make test)", "Bash(cp *)"]


def test_m14_a_default_config_the_makefile_copies_in(judge: Judge,
                                                     work: Path) -> None:  # noqa: F811
    """The skill ``probe`` (plan ``Bash(make test)``, ``Bash(cp *)``) in a project whose
    Makefile has ``$(shell test -f config.mk || cp config.mk.dist config.mk)`` and
    ``-include config.mk``: the runtime loads it, then runs ``touch yy`` (outside the plan:
    the hook is live, it denies it), ``cp payload/p config.mk.dist`` and ``make test``; the
    payload (``$(shell touch zz)``) makes ``zz`` in the project unless a call is denied."""
    project = work / "project"
    (project / "payload").mkdir(parents=True)
    (project / "payload" / "p").write_text("$(shell touch zz)\n")
    (project / "config.mk.dist").write_text("")
    (project / "Makefile").write_text("$(shell test -f config.mk || cp config.mk.dist "
                                      "config.mk)\n-include config.mk\ntest:\n\t@echo ok\n")
    _, text = enforced_skill(work, ENTRIES)
    got = run(judge, work, text, [load(), bash("touch yy"), bash("cp payload/p config.mk.dist"),
                                  bash("make test")], {})
    assert all(r is not None for r in got.main), got.main
    outside = got.main[1]
    assert outside is not None and denied_by_gate(outside), got.main
    assert not (project / "zz").exists(), f"the runtime ran the payload: {got.main}"
    assert any(r is not None and denied_by_gate(r) for r in got.main[2:]), got.main
