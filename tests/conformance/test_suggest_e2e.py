"""Plans from evidence with the pinned Claude Code: the loop observe → suggest → enforce.

1. A session runs a script of calls with a tool-wide pre-approval and ``skillgrant hook
   --observe`` as its PreToolUse hook: every call runs (the hook denies nothing), the runtime
   writes its transcript under the session's ``~/.claude/projects/…/<session>.jsonl`` and the
   hook writes the audit log, every record ``"observed": true``.
2. ``suggest`` reads the real transcript (and the audit log): every call is covered by
   ``check_call`` under the suggested plan, or listed as not suggestible (``eval``,
   ``bash -c``: a substitution is judged now, issue 29); at ``command`` there are fewer entries
   than distinct calls; ``lint`` finds no error; transcript and log give the same plan.
3. A second session in the same folder enforces the suggested plan (``skillgrant hook``):
   every suggested call runs, the ones not suggestible are denied by the gate.
4. ``replay`` of the observed log under the suggested plan changes only those calls.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cc_probe import TALLY, Judge
from cc_runtime import run_session

from skillgrant.evidence.read import read_evidence
from skillgrant.evidence.replay import replay
from skillgrant.evidence.suggest import suggest
from skillgrant.gate.call import check_call
from skillgrant.reports.suggest import plan_text
from skillgrant.review.lint import lint_entries

WIDE = ["--allowedTools", "Bash", "Read", "Edit", "Write", "Glob"]
#: (tool, input); ``{project}`` is the session's project folder.
SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("Bash", {"command": "mkdir -p out"}),
    ("Bash", {"command": "git status"}),
    ("Bash", {"command": "git branch --list"}),
    ("Bash", {"command": "git status --short"}),
    ("Bash", {"command": "ls -la"}),
    ("Bash", {"command": "ls src"}),
    ("Bash", {"command": "cat src/a.txt > out/copy.txt"}),
    ("Read", {"file_path": "{project}/src/a.txt"}),
    ("Write", {"file_path": "{project}/out/new.txt", "content": "written\n"}),
    ("Glob", {"pattern": "**/*.txt"}),
    ("Bash", {"command": "eval 'touch out/evaled'"}),
    ("Bash", {"command": "bash -c 'touch out/substituted'"}),
]
NOT_SUGGESTIBLE = {"eval 'touch out/evaled'", "bash -c 'touch out/substituted'"}


def _hook(work: Path, plan: Path, *extra: str) -> dict[str, Any]:
    command = (f"{sys.executable} -P -m skillgrant hook --plan {plan} --audit-log "
               f"{work}/audit.jsonl {' '.join(extra)}")
    return {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
        {"type": "command", "command": command, "timeout": 30, "onFailure": "block"}]}]}}


def _run(judge: Judge, work: Path, settings: dict[str, Any]) -> dict[int, tuple[bool, str]]:
    project = work / "project"
    calls = [(tool, {k: (v.replace("{project}", str(project)) if isinstance(v, str) else v)
                     for k, v in tool_input.items()}) for tool, tool_input in SCRIPT]
    url, script = judge.standin.session(calls)
    done, _ = run_session(judge.binary, url, work, None, extra_args=WIDE, settings=settings)
    results = {i: script.results[script.call_id(i)] for i in range(len(SCRIPT))
               if script.call_id(i) in script.results}
    assert len(results) == len(SCRIPT), (done.returncode, done.stderr[-400:])
    return results


@pytest.fixture(scope="module")
def observed(judge: Judge) -> Iterator[tuple[Path, dict[int, tuple[bool, str]]]]:
    work = Path(tempfile.mkdtemp(prefix="sg-suggest-", dir="/var/tmp"))
    try:
        (work / "project" / "src").mkdir(parents=True)
        (work / "project" / "src" / "a.txt").write_text("a\n")
        plan = work / "nothing.json"
        plan.write_text(json.dumps({"allowed-tools": []}))
        results = _run(judge, work, _hook(work, plan, "--observe"))
        # The transcript the runtime wrote, kept before a later session writes another.
        (written,) = (work / "home" / ".claude" / "projects").glob("*/*.jsonl")
        shutil.copy(written, work / "observed.jsonl")
        yield work, results
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _transcript(work: Path) -> Path:
    return work / "observed.jsonl"


def test_observing_denies_nothing_and_logs_every_call(observed: Any) -> None:
    work, results = observed
    denied = {i: text for i, (error, text) in results.items()
              if error and ("skillgrant" in text or "permission" in text.lower())}
    assert not denied, denied
    records = [json.loads(line) for line in (work / "audit.jsonl").read_text().splitlines()]
    assert len(records) == len(SCRIPT) and all(r["observed"] for r in records)
    assert (work / "project" / "out" / "evaled").exists()  # the runtime ran it: not enforced


def test_the_runtimes_transcript_is_read_call_for_call(observed: Any) -> None:
    work, _ = observed
    evidence = read_evidence([str(_transcript(work))])
    assert [c.tool for c in evidence.calls] == [tool for tool, _ in SCRIPT]
    assert evidence.calls[0].tool_input["command"] == "mkdir -p out"
    assert {c.cwd for c in evidence.calls} == {str(work / "project")}
    TALLY["suggest transcript calls"] = TALLY.get("suggest transcript calls", 0) + len(
        evidence.calls)


@pytest.mark.parametrize("level", ["exact", "command", "directory", "tool"])
def test_every_call_of_the_transcript_is_covered_or_listed(observed: Any, level: str) -> None:
    work, _ = observed
    evidence = read_evidence([str(_transcript(work))])
    found = suggest(evidence, level)  # type: ignore[arg-type]
    listed = {d.call.tool_input.get("command") for d in found.not_suggestible}
    assert listed == NOT_SUGGESTIBLE
    for call in evidence.calls:
        verdict = check_call(call.tool, call.tool_input, found.entries, cwd=call.cwd)
        if call.tool_input.get("command") not in NOT_SUGGESTIBLE:
            assert verdict.covered, (call, verdict.reason)
        elif level != "tool":
            assert not verdict.covered
    assert not [f for f in lint_entries(found.entries) if f.severity == "error"]
    if level == "command":
        assert len(found.entries) < found.distinct
    log = suggest(read_evidence([str(work / "audit.jsonl")]), level)  # type: ignore[arg-type]
    assert log.entries == found.entries


def test_the_suggested_plan_enforced_runs_every_suggested_call(judge: Judge,
                                                               observed: Any) -> None:
    work, _ = observed
    found = suggest(read_evidence([str(_transcript(work))]), "command")
    plan = work / "suggested.yaml"
    plan.write_text(plan_text(found, ["transcript"]))
    for leftover in ("out/evaled", "out/substituted", "out/new.txt"):
        (work / "project" / leftover).unlink(missing_ok=True)
    (work / "audit.jsonl").unlink()
    results = _run(judge, work, _hook(work, plan))
    for i, (error, text) in results.items():
        command = SCRIPT[i][1].get("command")
        if command in NOT_SUGGESTIBLE:
            assert error and "skillgrant" in text, (command, text)
        else:
            assert not error and "skillgrant" not in text, (SCRIPT[i], text[:300])
    assert not (work / "project" / "out" / "evaled").exists()
    TALLY["suggest enforced calls"] = TALLY.get("suggest enforced calls", 0) + len(results)


def test_replay_of_the_observed_log_changes_only_the_unsuggestible(observed: Any,
                                                                    tmp_path: Path) -> None:
    work, _ = observed
    plan = tmp_path / "suggested.yaml"
    found = suggest(read_evidence([str(_transcript(work))]), "command")
    plan.write_text(plan_text(found, ["transcript"]))
    transcript = tmp_path / "t.jsonl"
    shutil.copy(_transcript(work), transcript)
    result = replay(read_evidence([str(transcript)]), str(plan),
                    str(work / "nothing.json"))
    assert not result.now_denied
    assert len(result.now_allowed) == len(SCRIPT) - len(NOT_SUGGESTIBLE)
