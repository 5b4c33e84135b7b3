"""s58-mfix's pins (issue 29): make's command-line values and assignments read as make reads
them, proved with real bash 5.2 and GNU make 4.3 (recipes under dash) and asked of the printed
hook call by call (``test_s53_greview._session``); and the costs the change keeps allowed."""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_review import first_denied, home_env, hooked_project, needs
from test_s53_greview import _session
from test_s57_greview import LIB

#: Real bash, make and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: A recursive loop over ``DIRS`` into ``$$d/lib`` (``../lib`` where ``DIRS`` holds ``..``).
_LOOP = "test:\n\tfor d in $(DIRS); do $(MAKE) -C $$d/lib test; done\n"

#: Each case: the plan's make call, its makefile's text, the copy (then the plan's make call).
HOLES: dict[str, tuple[str, str, str]] = {
    # `X+=v` (no blank): make appends; the gate read a variable `X+` (its `_ASSIGNMENT`).
    "an-append-without-blanks": ("make test", "DIRS := lib\nDIRS+=..\n" + _LOOP,
                                 "../pay/p ../lib/local.conf"),
}


@pytest.mark.parametrize("case", HOLES)
def test_make_reads_its_values_as_make_does(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(<its make call>)``, ``Bash(cp *)``: the copy, then the plan's make call
    runs the payload. The hook must deny a call."""
    needs("make", "bash")
    call, makefile, copy = HOLES[case]
    assert _session(tmp_path, [f"Bash({call})", "Bash(cp *)"], {"Makefile": makefile},
                    [f"cp {copy}", call], setup=LIB) is not None


#: Each case: the plan's make call, its makefile's text, the everyday calls.
COSTS: dict[str, tuple[str, str, list[str]]] = {
    # The plan's own value, plain: read as make's (make's folder bounds the loop).
    "a-plain-value-of-the-plans-make": ("make test DIRS=lib", "DIRS := a\n" + _LOOP,
                                        ["mkdir -p ../out", "cp src/a.c ../out/a.c"]),
}


@pytest.mark.parametrize("case", COSTS)
def test_an_everyday_call_beside_a_value_read(case: str, tmp_path: Path) -> None:
    """Each everyday call, harmless, under the plan's make call and ``cp``/``mkdir``, is
    allowed."""
    needs("make")
    call, makefile, calls = COSTS[case]
    project = hooked_project(tmp_path, [f"Bash({call})", "Bash(cp *)", "Bash(mkdir *)"])
    (project / "Makefile").write_text(makefile)
    (project / "src").mkdir(exist_ok=True)
    (project / "src" / "a.c").write_text("int a;\n")
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    assert first_denied(project, calls, env) is None
