"""Review s52 (s52-greview) of s52-gfix, end to end through the pinned Claude Code 2.1.332
(``--conformance``): a name ``deepnames`` guards at any depth is left out when the project's
own path passes it (tests/gate/test_s52_greview.py P2, proved there by real bash with the
Bash tool's kept folder: here by the runtime, the project in a folder named ``src``). The
case fails while the hole is open (``OPEN`` marks it a strict xfail)."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from cc_probe import Judge
from gate_sessions import denied_by_gate
from review_table import LeftOpen
from test_subagents_e2e import bash, run

from skillgrant.gate.config import snippet

OPEN = LeftOpen()

ENTRIES = ["Bash(cd sub)", "Bash(python3 src/x.py)", "Bash(cp *)"]


@pytest.fixture
def work() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="sg-s52gr-", dir="/var/tmp"))
    try:
        yield folder / "src"  # (the project at …/src/project: a path passing `src`)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_p2_a_project_under_src_leaves_src_unguarded_below(judge: Judge, work: Path) -> None:
    """``cp payload/p sub/src/helper.py`` (allowed: ``src`` is a part of the project's path,
    so it is no deep name), ``cd sub`` (the Bash tool's folder is now ``sub``), ``python3
    src/x.py`` (``sub/src/x.py`` imports ``helper``): the runtime runs each, and the payload
    makes ``sub/zz`` (the hole); the gate should deny the copy."""
    project = work / "project"
    for name, text in {"src/x.py": "import helper\n", "src/helper.py": "print('ok')\n",
                       "sub/src/x.py": "import helper\n", "sub/src/helper.py": "print('ok')\n",
                       "payload/p": "import os\nos.system('touch zz')\n"}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    plan = work / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ENTRIES}))
    printed = json.loads(snippet("claude-code", {"--plan": str(plan)})[0])
    got = run(judge, work, None, [bash("cp payload/p sub/src/helper.py"), bash("cd sub"),
                                  bash("python3 src/x.py")], {}, settings=printed)
    assert all(r is not None for r in got.main), got.main
    assert not (project / "sub" / "zz").exists(), f"the runtime ran the payload: {got.main}"
    copied = got.main[0]
    assert copied is not None and denied_by_gate(copied), got.main


OPEN.add("test_p2_a_project_under_src_leaves_src_unguarded_below",
         "deep_names drops a name the project's path passes (tests/gate/test_s52_greview.py "
         "P2)")
