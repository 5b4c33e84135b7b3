"""The audit log's hash chain: ``audit verify`` names the first record where a changed byte, a
deleted, inserted or swapped record breaks it; eight processes appending 1,000 records each at
once, and ``skillgrant hook`` processes at once, leave one valid chain; a record cut short by a
kill is named by the next record and the chain still holds; an anchor shows a cut at the end.
"""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from examples import examples

from skillgrant.evidence.chain import verify
from skillgrant.gate.audit import MAX_TORN, append, link, record


def _record(i: int) -> bytes:
    return record(session=f"s{i}", runtime_tool="Bash", tool="Bash", decision="deny",
                  status="not_covered", reason=f"reason {i}", tool_input={"command": f"c {i}"},
                  cwd="/w")


def _log(tmp_path: Path, count: int = 10) -> tuple[Path, list[bytes]]:
    log = tmp_path / "audit.jsonl"
    for i in range(count):
        append(str(log), _record(i))
    lines = log.read_bytes().splitlines(keepends=True)
    assert len(lines) == count and verify(str(log)).valid
    return log, lines


def _broken_at(log: Path) -> int | None:
    report = verify(str(log))
    return None if report.broken is None else report.broken.line


def test_each_record_links_to_the_bytes_of_the_one_before(tmp_path: Path) -> None:
    log, lines = _log(tmp_path, 3)
    records = [json.loads(line) for line in lines]
    assert records[0]["prev"] is None
    assert [r["prev"] for r in records[1:]] == [link(line) for line in lines[:2]]
    assert verify(str(log)).head == link(lines[2])


@pytest.mark.parametrize("index", [0, 4, 8])
def test_a_changed_byte_breaks_the_chain_at_the_next_record(tmp_path: Path, index: int) -> None:
    log, lines = _log(tmp_path)
    lines[index] = lines[index].replace(b"reason", b"reasoN")
    log.write_bytes(b"".join(lines))
    assert _broken_at(log) == index + 2


def test_a_changed_byte_that_breaks_the_json_breaks_the_chain(tmp_path: Path) -> None:
    log, lines = _log(tmp_path)
    lines[3] = lines[3][:40] + lines[3][41:]  # no longer a record: a "cut" line
    log.write_bytes(b"".join(lines))
    assert _broken_at(log) == 5


@pytest.mark.parametrize("index", [0, 3, 8])
def test_a_deleted_record_breaks_the_chain(tmp_path: Path, index: int) -> None:
    log, lines = _log(tmp_path)
    del lines[index]
    log.write_bytes(b"".join(lines))
    assert _broken_at(log) == index + 1


def test_an_inserted_record_breaks_the_chain(tmp_path: Path) -> None:
    log, lines = _log(tmp_path)
    copied = [*lines[:5], lines[2], *lines[5:]]  # an old record replayed
    log.write_bytes(b"".join(copied))
    assert _broken_at(log) == 6
    # A forged record that links correctly to the one before it: the next one no longer does.
    forged = json.loads(lines[4])
    forged["prev"], forged["reason"] = link(lines[4]), "forged"
    line = (json.dumps(forged) + "\n").encode()
    log.write_bytes(b"".join([*lines[:5], line, *lines[5:]]))
    assert _broken_at(log) == 7


def test_swapped_records_break_the_chain(tmp_path: Path) -> None:
    log, lines = _log(tmp_path)
    lines[3], lines[4] = lines[4], lines[3]
    log.write_bytes(b"".join(lines))
    assert _broken_at(log) == 4


def test_a_cut_at_the_end_shows_only_against_an_anchor(tmp_path: Path) -> None:
    log, lines = _log(tmp_path)
    head = verify(str(log)).head
    log.write_bytes(b"".join(lines[:-2]))
    assert verify(str(log)).valid  # what the chain alone cannot show
    anchored = verify(str(log), anchor=head)
    assert not anchored.valid and anchored.broken is None and anchored.anchor_line is None
    log.write_bytes(b"".join(lines))
    assert verify(str(log), anchor=head).anchor_line == len(lines)
    done = subprocess.run([sys.executable, "-m", "skillgrant", "audit", "verify", str(log),
                           "--anchor", str(head), "--format", "json"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["logs"][0]["anchor"]["line"] == len(lines)


def test_verify_exits_1_naming_the_line(tmp_path: Path) -> None:
    log, lines = _log(tmp_path)
    lines[6], lines[7] = lines[7], lines[6]
    log.write_bytes(b"".join(lines))
    done = subprocess.run([sys.executable, "-m", "skillgrant", "audit", "verify", str(log)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout.startswith(f"{log}:7: the chain breaks: ")


def test_lines_cut_short_by_a_kill_are_named_and_the_chain_holds(tmp_path: Path) -> None:
    log, _ = _log(tmp_path, 2)
    with log.open("ab") as stream:
        stream.write(b'{"time": "cut sh')  # a writer killed mid-record
    append(str(log), _record(2))
    with log.open("ab") as stream:
        stream.write(b'{"ti')
    append(str(log), _record(3))
    report = verify(str(log))
    assert report.valid and report.records == 4 and report.cut == [3, 5]
    text = log.read_bytes().replace(b'{"ti\n', b"")  # removing the cut line breaks the chain
    log.write_bytes(text)
    assert _broken_at(log) == 5


def test_a_log_ending_in_too_many_cut_lines_is_refused(tmp_path: Path) -> None:
    log, _ = _log(tmp_path, 1)
    with log.open("ab") as stream:
        stream.write(b"garbage\n" * (MAX_TORN + 1))
    with pytest.raises(OSError, match="lines that are not records"):
        append(str(log), _record(1))


def _appender(path: str, tag: int, count: int) -> None:
    for i in range(count):
        append(path, _record(tag * 100_000 + i))


@pytest.mark.slow  # 8 processes, 8,000 records: CI's slow step (the quick suite's time)
def test_eight_processes_writing_1000_records_at_once_leave_one_valid_chain(
        tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_appender, args=(str(log), tag, 1000))
               for tag in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(600)
        assert worker.exitcode == 0
    report = verify(str(log))
    assert report.valid and report.records == 8000 and not report.cut, report.broken
    sessions = {json.loads(line)["session_id"] for line in log.read_bytes().splitlines()}
    assert len(sessions) == 8000


def test_hook_processes_at_once_keep_one_chain(tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(git *)"]}))
    log = tmp_path / "audit.jsonl"

    def one(i: int) -> int:
        payload = {"session_id": f"h{i}", "tool_name": "Bash", "cwd": "/w",
                   "hook_event_name": "PreToolUse",
                   "tool_input": {"command": "git status" if i % 2 else f"rm -rf /{i}"}}
        flag = ["--observe"] if i % 3 == 0 else []
        return subprocess.run([sys.executable, "-P", "-m", "skillgrant",
                               "hook", "--plan", str(plan),
                               "--audit-log", str(log), *flag], input=json.dumps(payload),
                              capture_output=True, text=True, timeout=120).returncode

    count = examples(40)  # hook processes: 40 in CI, 10 in the quick run (8 at once)
    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(one, range(count)))
    assert statuses == [0 if i % 2 or i % 3 == 0 else 2 for i in range(count)]
    report = verify(str(log))
    assert report.valid and report.records == count
    records = [json.loads(line) for line in log.read_bytes().splitlines()]
    assert {r["session_id"] for r in records if r["observed"]} == {
        f"h{i}" for i in range(count) if i % 3 == 0}


@pytest.mark.parametrize("tail", [b"garbage\n", b'{"time": "cut\n{"ti', b"x\ny\n"])
def test_lines_after_the_last_record_beyond_one_cut_record_break_the_chain(
        tmp_path: Path, tail: bytes) -> None:
    """Records at the end replaced by lines that are not records (or a file that holds none)
    are not what a kill leaves: one line, cut short, with no newline."""
    log, _ = _log(tmp_path, 3)
    with log.open("ab") as stream:
        stream.write(tail)
    assert _broken_at(log) == 4
    log.write_bytes(tail)
    assert _broken_at(log) == 1


def test_one_record_cut_short_at_the_end_is_what_a_kill_leaves(tmp_path: Path) -> None:
    log, _ = _log(tmp_path, 3)
    with log.open("ab") as stream:
        stream.write(b'{"time": "2026-12-0')
    report = verify(str(log))
    assert report.valid and report.cut == [4]


def test_a_large_input_keeps_the_arguments_the_gate_reads(tmp_path: Path) -> None:
    """MAX_INPUT_CHARS: a Write's long content is left out (and named), its path kept, so the
    call can still be suggested and replayed; a command cut is skipped, with the reason."""
    from skillgrant.evidence.read import read_evidence
    from skillgrant.gate.audit import MAX_INPUT_CHARS

    log = tmp_path / "audit.jsonl"
    big = "x" * (MAX_INPUT_CHARS + 1)
    for tool, tool_input in (("Write", {"file_path": "/w/a.txt", "content": big}),
                             ("Bash", {"command": "echo " + big, "description": "d"}),
                             ("Write", {"file_path": "/w/b.txt", "content": "small"})):
        append(str(log), record(session="s", runtime_tool=tool, tool=tool, decision="none",
                                status="covered", reason="r", tool_input=tool_input, cwd="/w"))
    first, second, third = (json.loads(x) for x in log.read_bytes().splitlines())
    assert first["input"] == {"file_path": "/w/a.txt"} and first["input_cut"] == ["content"]
    assert second["input"] == {"description": "d"} and second["input_cut"] == ["command"]
    assert "input_cut" not in third
    evidence = read_evidence([str(log)])
    assert [c.tool_input for c in evidence.calls] == [first["input"], third["input"]]
    assert [s.line for s in evidence.skipped] == [2] and "cut" in evidence.skipped[0].reason
