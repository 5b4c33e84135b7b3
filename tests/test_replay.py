"""``skillgrant replay``: counts of calls now denied and now allowed under a changed plan, against
the logged decisions or an old plan, exit 1 when anything changed, in every format (JSON,
SARIF and the record itself against their schemas). Also the hook's ``--observe``: logged,
never denied, and said so by ``--print-config``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import forkrun
import jsonschema
import pytest

from skillgrant.evidence.read import read_evidence
from skillgrant.evidence.replay import ReplayError, replay
from skillgrant.reports.schemas import report_schema

SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
COMMANDS = ["git status", "git log -5", "ls -la", "ls src", "git status", "rm -rf build",
            "cat README.md"]


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """What ``skillgrant ARGS`` prints, forked from tests/forkrun.py's server."""
    return forkrun.run_text(list(args), input=stdin, timeout=120)


def _plan(path: Path, entries: list[str]) -> Path:
    path.write_text(json.dumps({"allowed-tools": entries}))
    return path


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """An audit log of COMMANDS decided by the real hook under the plan ``old.json`` (git and
    ls allowed), observed; made once a module (the tests only read it)."""
    folder = tmp_path_factory.mktemp("logged")
    old = _plan(folder / "old.json", ["Bash(git *)", "Bash(ls *)"])
    log = folder / "audit.jsonl"
    for i, command in enumerate(COMMANDS):
        payload = {"session_id": f"s{i}", "tool_name": "Bash", "cwd": "/w",
                   "hook_event_name": "PreToolUse", "tool_input": {"command": command}}
        done = _run("hook", "--plan", str(old), "--audit-log", str(log), "--observe",
                    stdin=json.dumps(payload))
        assert (done.returncode, done.stdout) == (0, "")  # observing: never denied
    return log, old


def test_counts_against_the_logged_decisions_and_an_old_plan(tmp_path: Path,
                                                             logged: tuple[Path, Path]) -> None:
    log, old = logged
    new = _plan(tmp_path / "new.json", ["Bash(git status)", "Bash(ls *)", "Bash(cat *)"])
    for against in (None, str(old)):
        found = replay(read_evidence([str(log)]), str(new), against)
        assert found.calls == 7 and found.distinct == 6
        assert [c.call.tool_input["command"] for c in found.now_denied] == ["git log -5"]
        assert [c.call.tool_input["command"] for c in found.now_allowed] == ["cat README.md"]
        assert (found.count(found.now_denied), found.count(found.now_allowed),
                found.unchanged) == (1, 1, 5)


def test_exit_status_and_every_format(tmp_path: Path, logged: tuple[Path, Path]) -> None:
    log, old = logged
    same = _run("replay", str(log), "--plan", str(old))
    assert same.returncode == 0, same.stderr
    assert "0 now denied, 0 now allowed, 7 unchanged" in same.stdout
    new = _plan(tmp_path / "new.json", ["Bash(git status)", "Bash(ls *)", "Bash(cat *)"])
    text = _run("replay", str(log), "--plan", str(new))
    assert text.returncode == 1 and "1 now denied, 1 now allowed, 5 unchanged" in text.stdout
    document = json.loads(_run("replay", str(log), "--plan", str(new), "-f", "json").stdout)
    jsonschema.Draft202012Validator(report_schema("replay")).validate(document)
    assert document["counts"] == {"now_denied": 1, "now_allowed": 1, "unchanged": 5,
                                  "skipped": 0}
    sarif = json.loads(_run("replay", str(log), "--plan", str(new), "-f", "sarif").stdout)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text())).validate(sarif)
    assert sorted(r["ruleId"] for r in sarif["runs"][0]["results"]) == ["SGR001", "SGR002"]
    markdown = _run("replay", str(log), "--plan", str(new), "-f", "markdown").stdout
    assert "#### Now denied (1)" in markdown and "`git log -5`" in markdown


def test_a_transcript_needs_an_old_plan(tmp_path: Path) -> None:
    from evidence_calls import transcript_lines

    session = tmp_path / "session.jsonl"
    session.write_text(transcript_lines([("Bash", {"command": "git status"})]))
    new = _plan(tmp_path / "new.json", ["Bash(git *)"])
    with pytest.raises(ReplayError, match="give --against OLD"):
        replay(read_evidence([str(session)]), str(new))
    found = replay(read_evidence([str(session)]), str(new),
                   str(_plan(tmp_path / "old.json", [])))
    assert found.count(found.now_allowed) == 1


def test_records_and_documents_match_their_schemas(tmp_path: Path,
                                                   logged: tuple[Path, Path]) -> None:
    log, _ = logged
    record = jsonschema.Draft202012Validator(report_schema("audit-record"))
    for line in log.read_text().splitlines():
        record.validate(json.loads(line))
    verified = json.loads(_run("audit", "verify", str(log), "-f", "json").stdout)
    jsonschema.Draft202012Validator(report_schema("audit-verify")).validate(verified)
    suggested = json.loads(_run("suggest", str(log), "-f", "json").stdout)
    jsonschema.Draft202012Validator(report_schema("suggest")).validate(suggested)
    assert suggested["allowed_tools"] == ["Bash(cat *)", "Bash(git log -5)",
                                          "Bash(git status *)", "Bash(ls *)",
                                          "Bash(rm -rf build)"]


def _records(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_observe_logs_failures_too_and_denies_nothing(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    done = _run("hook", "--plan", str(tmp_path / "absent.json"), "--audit-log", str(log),
                "--observe", stdin=json.dumps({"tool_name": "Bash", "session_id": "x",
                                               "tool_input": {"command": "ls"}}))
    assert (done.returncode, done.stdout) == (0, "") and "not enforced" in done.stderr
    ((record),) = _records(log)
    assert (record["decision"], record["status"], record["observed"]) == ("deny", "error", True)
    # A command line that cannot be read is denied, --observe or not: which options hold is
    # not known.
    bad = _run("hook", "--observe", "--outside", "never", stdin="{}")
    assert bad.returncode == 2 and '"deny"' in bad.stdout


def test_print_config_says_observe_in_a_comment_line(tmp_path: Path) -> None:
    plan = _plan(tmp_path / "p.json", ["Bash(git *)"])
    done = _run("hook", "--print-config", "claude-code", "--plan", str(plan), "--observe",
                "--audit-log", str(tmp_path / "a.jsonl"))
    command = json.loads(done.stdout)["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert command.endswith(" --observe") and "--audit-log" in command
    assert done.stderr.startswith("# Observe mode (--observe): ")
    plain = _run("hook", "--print-config", "claude-code", "--plan", str(plan))
    assert "--observe" not in plain.stdout and "Observe" not in plain.stderr
    served = _run("serve", "--plan", str(plan), "--print-config", "--observe", "--audit-log",
                  str(tmp_path / "a.jsonl"))
    assert served.returncode == 0 and served.stderr.startswith("# Observe mode")
    # Observing without a log would watch nothing: refused (the hook: denied, as a bad
    # command line is).
    assert _run("serve", "--plan", str(plan), "--observe", "--print-config").returncode == 2
    alone = _run("hook", "--plan", str(plan), "--observe", stdin="{}")
    assert alone.returncode == 2 and "--observe needs --audit-log" in alone.stderr
