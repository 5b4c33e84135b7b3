"""Review s52 (s52-greview) of s52-gfix, end to end through the pinned Claude Code 2.1.332
(``--conformance``): a name ``deepnames`` guards at any depth is left out when the project's
own path passes it (tests/gate/test_s52_greview.py P2, proved there by real bash with the
Bash tool's kept folder: here by the runtime, the project in a folder named ``src``). Held
since s52-gfix's run folders (2452836): pinned as plain tests; ``OPEN`` holds no row."""

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
    made ``sub/zz`` (the hole, at 9223022); since s52-gfix's run folders (2452836) the run in
    ``sub`` is denied (held: pinned here)."""
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
    assert any(r is not None and denied_by_gate(r) for r in got.main), got.main




#: More rows of tests/gate/test_s52_greview.py, through the runtime: the plan, the project's
#: files (a name starting ``->`` is a symbolic link to the rest), the calls.
RUNTIME = {
    "L1-linked-makefile": (["Bash(cd sub)", "Bash(make test)", "Bash(cp *)"],
                           {"Makefile": "test:\n\techo ok\n",
                            "shared/common.mk": "test:\n\techo ok\n",
                            "sub/Makefile": "->../shared/common.mk",
                            "payload/mk": "test:\n\ttouch zz\n"},
                           ["cp payload/mk shared/common.mk", "cd sub", "make test"]),
    "M1-standard-module": (["Bash(cd sub)", "Bash(python3 tool.py)", "Bash(cp *)"],
                           {"tool.py": "import json\n", "sub/tool.py": "import json\n",
                            "payload/p": "import os\nos.system('touch zz')\n"},
                           ["cp payload/p sub/json.py", "cd sub", "python3 tool.py"]),
    "G1-moving-script-reached": (["Bash(cd x)", "Bash(sh build.sh)", "Bash(cp *)"],
                                 {"build.sh": "echo ok\n",
                                  "x/build.sh": "cd ../sub && make test\n",
                                  "sub/Makefile": "test:\n\techo ok\n",
                                  "payload/mk": "test:\n\ttouch zz\n"},
                                 ["cp payload/mk sub/Makefile", "cd x", "sh build.sh"]),
}


@pytest.mark.parametrize("case", list(RUNTIME))
def test_a_kept_folder_row_under_the_runtime(judge: Judge, work: Path, case: str) -> None:
    """Each row's calls, one Bash call each, through the runtime with the printed hook (its
    Bash tool keeping the folder a ``cd`` left): the payload made ``sub/zz`` at 9223022;
    since s52-gfix's run folders (2452836) a call is denied and it does not (held)."""
    entries, files, calls = RUNTIME[case]
    project = work / "project"
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        if text.startswith("->"):
            (project / name).symlink_to(text[2:])
        else:
            (project / name).write_text(text)
    plan = work / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": entries}))
    printed = json.loads(snippet("claude-code", {"--plan": str(plan)})[0])
    got = run(judge, work, None, [bash(c) for c in calls], {}, settings=printed)
    assert all(r is not None for r in got.main), got.main
    assert not (project / "sub" / "zz").exists(), f"the runtime ran the payload: {got.main}"
    assert any(r is not None and denied_by_gate(r) for r in got.main), got.main
