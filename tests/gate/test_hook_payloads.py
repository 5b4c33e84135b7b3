"""Hostile hook payloads: ``skillgrant hook`` denies every one, and says so in its contract.

``tests/badinput/payloads.toml`` holds the cases as data (its header names the keys); the payloads
past MAX_HOOK_PAYLOAD_BYTES or one level past MAX_PAYLOAD_DEPTH are built in
tests/payload_corpus.py, with the limit, as are a few failures repeated under every
``--dialect``. Each case is a real hook process: exit
status 2, exactly one JSON deny document on standard output in the expected dialect, the same
reason on standard error, no traceback, no "internal error" (a crash mapped to a denial still
denies, but is a bug), within TIMEOUT seconds. The cases in REAL (one of each kind of input:
the corpus, over a limit, a failure in a named dialect, no plan) run as new processes of
``python -m skillgrant hook``, their payload on a pipe; every other case runs in a process
forked from one interpreter that has imported the entry point (tests/forkrun.py): the same
entry point and streams of its own, without an interpreter's start each.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import forkrun
import pytest
from payload_corpus import (
    CASES,
    CORPUS,
    CORPUS_CASES,
    DIALECTS,
    INPUTS,
    KEYS,
    PLAN,
    TABLES,
    Case,
    denial_reason,
    nested,
    padded,
)

from skillgrant import check_call
from skillgrant.limits import MAX_HOOK_PAYLOAD_BYTES, MAX_PAYLOAD_DEPTH

HOOK = [sys.executable, "-P", "-m", "skillgrant", "hook"]
TIMEOUT = 20
#: The cases run as processes of their own (the rest are forked: see the module's doc).
REAL = ("truncated-in-a-string", "over-limit-by-one-byte", "one-level-past-max-depth",
        "gemini-cli:invalid-utf8", "copilot-cli:plan-absent", "codex:not-json")
# The module's cases are run at once by the fixture ``outcomes``: pytest-xdist keeps them in
# one worker, which runs the fixture once.
pytestmark = pytest.mark.xdist_group("hook-payloads")


@dataclass(frozen=True)
class Outcome:
    status: int
    stdout: bytes
    stderr: str
    seconds: float


def _run(case: Case, plan: Path) -> Outcome:
    start = time.monotonic()
    try:
        done = subprocess.run([*HOOK, *_arguments(case, plan)], input=case.data,
                              capture_output=True, timeout=TIMEOUT, check=False, cwd=plan.parent)
    except subprocess.TimeoutExpired:
        return Outcome(-1, b"", f"no answer within {TIMEOUT} s", time.monotonic() - start)
    return Outcome(done.returncode, done.stdout, done.stderr.decode("utf-8", "replace"),
                   time.monotonic() - start)


def _arguments(case: Case, plan: Path) -> list[str]:
    return [*{"plan": ["--plan", str(plan)], "absent": ["--plan", str(plan.parent / "absent.json")],
              "none": []}[case.plan], *case.args]


def _forked(case: Case, plan: Path) -> Outcome:
    """``case`` forked from the server of tests/forkrun.py."""
    start = time.monotonic()
    done = forkrun.run(["hook", *_arguments(case, plan)], input=case.data, cwd=plan.parent,
                       timeout=TIMEOUT)
    return Outcome(done.returncode, done.stdout, done.stderr.decode("utf-8", "replace"),
                   time.monotonic() - start)


@pytest.fixture(scope="module")
def outcomes(request: pytest.FixtureRequest,
             tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    """The hook of every selected case, run once: REAL's cases as processes of their own,
    several at a time, the others forked one by one (tests/forkrun.py)."""
    here, chosen = Path(__file__).resolve(), set()
    for item in request.session.items:
        spec = getattr(item, "callspec", None)
        if spec is not None and "case" in spec.params and Path(str(item.path)).resolve() == here:
            chosen.add(spec.params["case"].id)
    cases = [case for case in CASES if case.id in chosen]
    plan = tmp_path_factory.mktemp("payloads") / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": PLAN}))
    real = [case for case in cases if case.id in REAL]
    with ThreadPoolExecutor(max_workers=len(REAL)) as pool:
        running = pool.map(lambda case: _run(case, plan), real)
        forked = {case.id: _forked(case, plan) for case in cases if case.id not in REAL}
        return {**forked, **{case.id: outcome for case, outcome in zip(real, running,
                                                                          strict=True)}}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_hostile_payload_is_denied(case: Case, outcomes: dict[str, Outcome]) -> None:
    outcome = outcomes[case.id]
    assert outcome.status == 2, outcome
    assert outcome.seconds < TIMEOUT, outcome
    assert "Traceback" not in outcome.stderr, outcome.stderr
    stdout = outcome.stdout.decode("ascii")  # the document is ASCII, one line
    assert stdout.endswith("\n") and stdout.count("\n") == 1, stdout[:500]
    reason = denial_reason(case.shape, json.loads(stdout))
    # the same text on standard error, a lone surrogate written as its escape there
    shown = reason.encode("utf-8", "backslashreplace").decode("utf-8")
    assert reason and outcome.stderr == shown + "\n", (reason[:300], outcome.stderr[:300])
    assert "internal error" not in reason, reason[:500]
    assert case.fragment in reason, reason[:500]


# --- the corpus and the limits ----------------------------------------------------------------

def test_the_corpus_is_well_formed() -> None:
    assert len(CORPUS_CASES) >= 40
    # tests/test_badinput.py reads every corpus file's `case` array: this one's stays empty
    assert tomllib.loads(CORPUS.read_text(encoding="utf-8"))["case"] == []
    ids = [c.id for c in CASES]
    assert len(set(ids)) == len(ids), "case ids repeat"
    assert set(REAL) <= set(ids), set(REAL) - set(ids)
    for table in TABLES:
        assert set(table) <= KEYS, table["id"]
        assert table.get("why") and table.get("fragment"), table["id"]
        assert sum(key in table for key in INPUTS) == 1, table["id"]
        assert table.get("shape", "claude-code") in DIALECTS, table["id"]
        assert table.get("plan", "plan") in ("plan", "absent", "none"), table["id"]
    sizes = {c.id: len(c.data) for c in CASES}
    assert sizes["over-limit-by-one-byte"] == MAX_HOOK_PAYLOAD_BYTES + 1
    assert min(sizes[i] for i in ids if i.startswith("over-limit")) > MAX_HOOK_PAYLOAD_BYTES
    assert sizes["megabyte-command"] > 1_000_000


@pytest.mark.parametrize(("data", "what"), [
    (padded(MAX_HOOK_PAYLOAD_BYTES), "a payload of exactly MAX_HOOK_PAYLOAD_BYTES"),
    (nested(MAX_PAYLOAD_DEPTH), "a payload nested exactly MAX_PAYLOAD_DEPTH deep"),
], ids=["size", "depth"])
def test_the_limits_are_exact(tmp_path: Path, data: bytes, what: str) -> None:
    """The cases one past a limit are denied for the limit alone: at the limit, the same call is
    judged, and it is inside the plan."""
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": PLAN}))
    done = subprocess.run([*HOOK, "--plan", str(plan)], input=data, capture_output=True,
                          timeout=TIMEOUT, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b""), what


def test_check_call_answers_a_lone_surrogate_with_a_verdict() -> None:
    """BUG: check_call promises a malformed call is a verdict, never an exception; a lone
    surrogate in a shell command raises UnicodeDecodeError from shell.analyse."""
    verdict = check_call("Bash", {"command": "git status \ud800"}, PLAN, cwd="/srv/project")
    assert not verdict.covered


@pytest.mark.parametrize(("tool", "tool_input", "cwd"), [
    ("Read", {"file_path": "/srv/project/a\ud800"}, "/srv/project"),
    ("Bash", {"command": "git status"}, "/srv/\ud800"),
    ("Bash", {"command": "git status"}, "/srv/a\x00b"),
])
def test_check_call_answers_a_lone_surrogate_in_a_path_or_folder_with_a_verdict(
        tool: str, tool_input: dict[str, str], cwd: str) -> None:
    """Review K-0: the real path of such a name was asked for, and raised."""
    verdict = check_call(tool, tool_input, PLAN, cwd=cwd)
    assert verdict.status == "unknown"
    assert "lone surrogate" in verdict.reason
