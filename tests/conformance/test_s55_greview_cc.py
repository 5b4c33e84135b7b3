"""Review s55 (s55-greview) of s55-gfix, end to end through the pinned Claude Code 2.1.332
(``--conformance``): a makefile's ``$(eval …)`` names the file make includes (a doubt: make's
folder is write-guarded), and the runtime's Write tool writes the payload there
(tests/gate/test_s55_greview.py T1, proved there by real make with the printed hook): here
the skill is loaded by the runtime, its hook written by ``apply --enforce``, and the model's
calls run by the runtime's tools."""

from __future__ import annotations

from pathlib import Path

from cc_probe import Judge
from gate_sessions import denied_by_gate
from review_table import LeftOpen
from test_subagents_e2e import bash, enforced_skill, load, run, work  # noqa: F401

#: The holes left open by this review here (tests/conftest.py reads it).
OPEN = LeftOpen()
# (T1 closed by s55-gfix 4de49e7: the row pins it end to end.)

ENTRIES = ["Bash(make test)", "Write"]


def test_t1_the_write_tool_writes_an_evaluated_include(judge: Judge,
                                                       work: Path) -> None:  # noqa: F811
    """The skill ``probe`` (plan ``Bash(make test)``, ``Write``) in a project whose Makefile
    includes ``local.conf`` by ``$(foreach f,local.conf,$(eval -include $(f)))``: the runtime
    loads it, then runs ``touch yy`` (outside the plan: the hook is live, it denies it), the
    Write tool (``local.conf``: ``$(shell touch zz)``) and ``make test``; the payload makes
    ``zz`` in the project unless a call is denied."""
    project = work / "project"
    project.mkdir(parents=True)
    (project / "Makefile").write_text("$(foreach f,local.conf,$(eval -include $(f)))\n"
                                      "test:\n\t@echo ok\n")
    _, text = enforced_skill(work, ENTRIES)
    write = ("Write", {"file_path": str(project / "local.conf"),
                       "content": "$(shell touch zz)\n"})
    got = run(judge, work, text, [load(), bash("touch yy"), write, bash("make test")], {},
              extra=["--allowedTools", "Bash", "Write"])
    assert all(r is not None for r in got.main), got.main
    outside = got.main[1]
    assert outside is not None and denied_by_gate(outside), got.main
    assert not (project / "zz").exists(), f"the runtime ran the payload: {got.main}"
    assert any(r is not None and denied_by_gate(r) for r in got.main[2:]), got.main
