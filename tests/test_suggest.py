"""``skillgrant suggest``: the plan covers every observed call the gate understands (checked with
``check_call``, the gate itself), lists the others with the gate's reason, is read by the plan
loader and ``lint`` without an error, groups calls at ``command``, and is the same bytes for the
same evidence. The laws (adding calls keeps covered calls covered; exact ⊆ command ⊆ directory,
by the prover) are checked on generated evidence.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import forkrun
import pytest
from evidence_calls import (
    CWD,
    UNDERSTOOD_NOT,
    audit_lines,
    copilot_lines,
    make_calls,
    transcript_lines,
)
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant import Plan
from skillgrant.evidence.levels import LEVELS, Level
from skillgrant.evidence.read import Evidence, EvidenceError, Observed, read_evidence
from skillgrant.evidence.suggest import Suggestion, suggest
from skillgrant.gate.call import check_call
from skillgrant.prepared import plan_for
from skillgrant.prover import prove_prepared
from skillgrant.reports.suggest import plan_text
from skillgrant.review.lint import lint_entries


def observed(calls: Sequence[tuple[str, Mapping[str, object]]], cwd: str = CWD) -> Evidence:
    return Evidence([Observed("log", i + 1, tool, tool_input, cwd)
                     for i, (tool, tool_input) in enumerate(calls)])


def covered_keys(found: Suggestion, evidence: Evidence) -> set[str]:
    """The calls ``check_call`` covers under the suggested plan (the gate's own answer)."""
    return {c.key() for c in evidence.calls
            if check_call(c.tool, c.tool_input, found.entries, cwd=c.cwd).covered}


def assert_covers_all_but_listed(found: Suggestion, evidence: Evidence) -> None:
    listed = {d.call.key() for d in found.not_suggestible}
    for call in evidence.calls:
        verdict = check_call(call.tool, call.tool_input, found.entries, cwd=call.cwd)
        if found.level == "tool" and call.key() in listed:
            continue  # a bare Bash other calls asked for covers an eval too: listed all the same
        assert verdict.covered != (call.key() in listed), (call, verdict)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", range(3))
def test_every_observed_call_is_covered_or_listed(level: Level, seed: int) -> None:
    evidence = observed(make_calls(300, seed))
    found = suggest(evidence, level)
    assert_covers_all_but_listed(found, evidence)
    not_understood = {d.call.tool_input.get("command") for d in found.not_suggestible}
    seen = {c.tool_input.get("command") for c in evidence.calls} & set(UNDERSTOOD_NOT)
    assert seen and seen <= not_understood  # eval, bash -c, $(…) and the like: never covered
    for item in found.not_suggestible:
        assert item.reason and (item.status != "covered" or level == "tool")
    if level == "command":
        assert len(found.entries) < found.distinct
    if level != "tool":
        assert not any("(" not in e and e in ("Bash", "Read", "Edit", "Write", "WebFetch",
                                                "Glob") for e in found.entries)


@pytest.mark.parametrize("level", LEVELS)
def test_the_plan_file_is_a_plan_lint_and_the_gate_read(tmp_path: Path, level: Level) -> None:
    evidence = observed(make_calls(200, 7))
    found = suggest(evidence, level)
    plan_file = tmp_path / "plan.yaml"
    plan_file.write_text(plan_text(found, ["log"]))
    plan = Plan.load(plan_file)
    assert list(plan.allowed_tools) == found.entries
    assert not [f for f in lint_entries(found.entries) if f.severity == "error"]
    done = forkrun.run_text(["lint", str(plan_file), "--fail-on", "error"], timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    for call in evidence.calls[:50]:
        by_file = check_call(call.tool, call.tool_input, plan, cwd=call.cwd).covered
        assert by_file == check_call(call.tool, call.tool_input, found.entries,
                                     cwd=call.cwd).covered


def test_comments_hold_no_line_a_yaml_reader_would_see() -> None:
    """Text from the evidence lands in comments: a newline, a NEL or a line separator in a
    command must not start a YAML line of its own."""
    hostile = "git log\n- Bash\r\u0085- Read\u2028- Edit"
    evidence = observed([("Bash", {"command": hostile}), ("Bash", {"command": "git log -5"})])
    text = plan_text(suggest(evidence), ["log\n- Bash"])
    assert text.isascii()
    import yaml

    assert yaml.safe_load(text) == {"allowed-tools": suggest(evidence).entries}


@pytest.mark.slow
def test_the_same_evidence_gives_the_same_bytes(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    log.write_text(audit_lines(make_calls(300, 3)))
    runs = [subprocess.run([sys.executable, "-m", "skillgrant", "suggest", str(log), *extra],
                           capture_output=True, timeout=120, cwd=tmp_path)
            for extra in ([], [], ["--format", "json"])]
    assert runs[0].returncode == 0, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout
    document = json.loads(runs[2].stdout)
    assert document["allowed_tools"] == Plan.from_text(runs[0].stdout.decode()).allowed_tools
    for entry in document["entries"]:
        assert entry["covers"] and entry["calls"] == sum(c["count"] for c in entry["covers"])
    # Every call the gate does not understand is listed, with its reason (the gate now also
    # refuses some compounds, e.g. a redirection after a program that may move the file).
    listed = {c["input"]["command"] for c in document["not_suggestible"]}
    observed_not = {c[1]["command"] for c in make_calls(300, 3) if c[0] == "Bash"}
    assert observed_not & set(UNDERSTOOD_NOT) <= listed
    assert all(c["reason"] for c in document["not_suggestible"])


def test_command_level_groups_by_program_and_subcommand() -> None:
    """Only a key of the reviewed table groups (``ls``, ``gh pr list``); ``git log`` (its
    ``--output`` writes any file) and ``npm run test`` (``--script-shell``) stay exact."""
    calls = [("Bash", {"command": c}) for c in (
        "git log -5", "git log --oneline", "npm run test", "npm run test -- -u", "gh pr list",
        "gh pr list -L 5", "ls -la", "ls src", "python -c pass", "FOO=1 make",
        "git -C /x status", "python -c 'print(1)'")]
    found = suggest(observed(calls), "command")
    assert found.entries == [
        "Bash(FOO=1 make)", "Bash(gh pr list *)", "Bash(git -C /x status)",
        "Bash(git log --oneline)", "Bash(git log -5)", "Bash(ls *)", "Bash(npm run test -- -u)",
        "Bash(npm run test)", "Bash(python -c pass)"]
    (parenthesised,) = found.not_suggestible  # an exact entry cannot hold its parentheses
    assert "exact entry" in str(parenthesised.why)


def test_exact_level_is_one_entry_per_distinct_command_and_path() -> None:
    calls = [("Bash", {"command": "git log -5"}), ("Bash", {"command": "git log -5"}),
             ("Bash", {"command": "cat a > out.txt"}), ("Read", {"file_path": "src/x.py"}),
             ("Bash", {"command": "ls *.py"})]
    found = suggest(observed(calls), "exact")
    assert found.entries == ["Bash(cat a)", "Bash(git log -5)", f"Edit(/{CWD}/out.txt)",
                             f"Read(/{CWD}/src/x.py)"]
    (glob,) = found.not_suggestible  # a glob word: no exact entry names every value
    assert glob.call.tool_input == {"command": "ls *.py"} and "glob" in str(glob.why)


def test_directory_level_and_tool_level() -> None:
    calls = [("Read", {"file_path": f"{CWD}/src/a.py"}), ("Write", {"file_path": "out/x.txt"}),
             ("WebFetch", {"url": "https://Docs.Python.org/3/", "prompt": "p"})]
    # Writes stay exact at directory: a write grant by directory would let the agent plant
    # what an observed command runs (a .git's core.fsmonitor, a program on PATH).
    assert suggest(observed(calls), "directory").entries == [
        f"Edit(/{CWD}/out/x.txt)", f"Read(/{CWD}/src/**)", "WebFetch(domain:docs.python.org)"]
    assert suggest(observed(calls), "tool").entries == ["Read", "WebFetch", "Write"]


def test_the_three_kinds_of_evidence_give_the_same_calls(tmp_path: Path) -> None:
    """The Copilot CLI file is written from its documented format (no real one was produced
    here); the transcript has the shape the pinned runtime writes."""
    calls = make_calls(60, 11)
    files = {"audit.jsonl": audit_lines(calls), "session.jsonl": transcript_lines(calls),
             "events.jsonl": copilot_lines(calls)}
    read = {}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        evidence = read_evidence([str(tmp_path / name)])
        read[name] = [(c.tool, dict(c.tool_input), c.cwd) for c in evidence.calls]
    assert read["audit.jsonl"] == read["session.jsonl"] == read["events.jsonl"]
    assert len(read["audit.jsonl"]) == 60
    assert read_evidence([str(tmp_path / "session.jsonl")]).kinds == {
        str(tmp_path / "session.jsonl"): "claude-code"}


def test_bad_evidence_is_an_error_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "x.jsonl").write_text('{"hello": 1}\n')
    with pytest.raises(EvidenceError, match=r"x\.jsonl:1: not an audit log"):
        read_evidence([str(tmp_path / "x.jsonl")])
    done = forkrun.run_text(["suggest", str(tmp_path / "absent.jsonl")])
    assert done.returncode == 2 and "absent.jsonl" in done.stderr


def test_torn_and_callless_records_are_skipped_and_counted(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    log.write_text(audit_lines([("Bash", {"command": "git status"})])
                   + '{"time": "cut\n'
                   + json.dumps({"decision": "deny", "status": "error", "runtime_tool": None,
                                 "input": None}) + "\n")
    evidence = read_evidence([str(log)])
    assert len(evidence.calls) == 1 and [s.line for s in evidence.skipped] == [2, 3]


# --- the laws ---------------------------------------------------------------------------------

EXAMPLES = examples(100)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 40), st.integers(1, 40))
def test_adding_calls_never_removes_a_covered_call(seed: int, first: int, more: int) -> None:
    calls = make_calls(first + more, seed)
    for level in ("exact", "command", "directory"):
        small, large = observed(calls[:first]), observed(calls)
        before = covered_keys(suggest(small, level), small)
        after = covered_keys(suggest(large, level), large)
        assert before <= after, (level, before - after)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 60))
def test_exact_within_command_within_directory_by_the_prover(seed: int, count: int) -> None:
    """Each entry of a narrower level is proved covered by the wider level's plan: the prover
    decides inclusion between grants, independently of how suggest chose them."""
    evidence = observed(make_calls(count, seed, odd=False))
    plans = [suggest(evidence, level).entries for level in ("exact", "command", "directory")]
    for narrow, wide in itertools.pairwise(plans):
        for entry in narrow:
            # The gate's reading (the plan's own vocabulary: no runtime approves a rule whole).
            verdict = prove_prepared(entry, plan_for(list(wide), None, None))
            assert verdict.covered, (entry, wide, verdict.reason)


def test_no_entry_is_wider_than_its_call_where_a_name_is_a_glob_or_a_file_is_at_the_root() -> None:
    calls = [("mcp__gh__get*", {}), ("B*", {}), ("Write", {"file_path": "/top.txt"}),
             ("mcp__gh__get_issue", {}), ("mcp__gh", {}), ("mcp__gh__", {})]
    found = suggest(observed(calls), "directory")
    assert found.entries == ["Edit(//top.txt)", "mcp__gh__get_issue"]
    assert sorted(d.call.tool for d in found.not_suggestible) == [
        "B*", "mcp__gh", "mcp__gh__", "mcp__gh__get*"]


@pytest.mark.parametrize("command", [
    "awk '{print $1}' data.txt", "sed -n 1p README.md", "tar -xf a.tar", "make build",
    "git fetch origin", "git rebase main", "npm install left-pad", "pip install requests",
    "go test ./...", "cargo run", "docker run alpine", "less README.md", "rsync a b"])
def test_programs_that_run_code_from_their_arguments_are_never_grouped(command: str) -> None:
    """``Bash(awk *)`` would allow ``awk 'BEGIN{system("…")}'``, and ``Bash(git fetch *)``
    ``--upload-pack=…``: as wide as a tool-wide Bash. Such a command stays exact."""
    found = suggest(observed([("Bash", {"command": command})]), "directory")
    import shlex

    assert found.entries == [f"Bash({shlex.join(shlex.split(command))})"]
