"""The service keeps the audit log's hash chain under load, with hook processes appending to
the same file at the same time, and across a kill -9 in the middle of a record; ``serve
--observe`` logs every decision as observed and denies nothing.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from serving import Served, start
from statehome import scratch_state  # noqa: F401 (autouse: a state folder of its own)

from skillgrant.evidence.chain import verify
from skillgrant.gate.audit import append, record


def _payload(command: str, session: str) -> dict[str, object]:
    return {"session_id": session, "cwd": "/srv/project", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}}


def _hammer(served: Served, count: int, clients: int, tag: str) -> list[bytes]:
    def one(i: int) -> bytes | None:
        try:
            reply = served.post("/v1/hook/p", _payload(f"rm -rf /{'x' * (i % 3000)}",
                                                        f"{tag}-{i}"), timeout=30)
        except (OSError, http.client.HTTPException):  # killed mid-answer
            return None
        return reply.body if reply.status == 200 else None

    with ThreadPoolExecutor(clients) as pool:
        return [b for b in pool.map(one, range(count)) if b is not None]


def _hooks(path: str, count: int) -> None:
    for i in range(count):
        append(path, record(session=f"hook-{i}", runtime_tool="Bash", tool="Bash",
                            decision="deny", status="not_covered", reason="r",
                            tool_input={"command": "x"}, cwd="/w"))


def _plan(tmp_path: Path) -> Path:
    plan = tmp_path / "p.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(echo *)"]}))
    return plan


@pytest.mark.slow
def test_the_service_and_hook_processes_keep_one_chain_under_load(tmp_path: Path) -> None:
    audit = tmp_path / "audit.jsonl"
    context = multiprocessing.get_context("spawn")
    with start([str(_plan(tmp_path))], "--audit-log", str(audit)) as served:
        hooks = [context.Process(target=_hooks, args=(str(audit), 300)) for _ in range(3)]
        for process in hooks:
            process.start()
        answers = _hammer(served, 1000, 32, "load")
        for process in hooks:
            process.join(300)
            assert process.exitcode == 0
    assert len(answers) == 1000 and all(b'"deny"' in a for a in answers)
    report = verify(str(audit))
    witnesses = sum(json.loads(line)["status"] == "sessions-file"  # (the sessions file's)
                    for line in audit.read_bytes().splitlines())
    assert report.valid and report.records == 1900 + witnesses and not report.cut, \
        report.broken


def test_a_kill_9_mid_record_leaves_a_chain_the_next_writer_continues(tmp_path: Path) -> None:
    audit = tmp_path / "audit.jsonl"
    served = start([str(_plan(tmp_path))], "--audit-log", str(audit))
    with ThreadPoolExecutor(1) as pool:
        hammering = pool.submit(_hammer, served, 3000, 16, "k")
        deadline = time.monotonic() + 60
        while not (audit.exists() and audit.stat().st_size > 200_000):
            assert time.monotonic() < deadline
            time.sleep(0.005)
        served.process.kill()
        hammering.result()
    served.stop()
    append(str(audit), record(session="after", runtime_tool="Bash", tool="Bash",
                              decision="deny", status="not_covered", reason="r"))
    report = verify(str(audit))
    assert report.valid, report.broken
    assert 2 <= report.records < 3001  # the kill landed mid-run
    assert [json.loads(line)["session_id"] for line in audit.read_bytes().splitlines()
            if line.startswith(b"{") and line.endswith(b"}")][-1] == "after"


def test_serve_observe_logs_every_decision_and_denies_none(tmp_path: Path) -> None:
    audit = tmp_path / "audit.jsonl"
    with start([str(_plan(tmp_path))], "--audit-log", str(audit), "--observe") as served:
        outside = served.post("/v1/hook/p", _payload("rm -rf /", "o1"))
        inside = served.post("/v1/hook/p", _payload("echo hi", "o2"))
        unknown = served.post("/v1/hook/absent", _payload("echo hi", "o3"))
    assert [r.status for r in (outside, inside, unknown)] == [200, 200, 200]
    assert outside.body == inside.body == unknown.body == b""
    records = [json.loads(line) for line in audit.read_bytes().splitlines()]
    records = [r for r in records if r["status"] != "sessions-file"]  # (the sessions file's)
    assert [(r["decision"], r["status"], r["observed"]) for r in records] == [
        ("deny", "not_covered", True), ("none", "covered", True), ("deny", "error", True)]
    assert records[0]["input"] == {"command": "rm -rf /"}
    assert verify(str(audit)).valid
