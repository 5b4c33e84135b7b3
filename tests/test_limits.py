"""semantics §1.5, §9 and issue 6: every named limit in skillgrant/limits.py, at and just past its
boundary. Past a limit a submitted entry is ``unknown`` (fail closed, the approved entries are
restored if nothing else survives), an approved entry or a plan is a PlanError, a file is a
SkillFileError or PlanError naming the file and the limit; never a crash, never a hang.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pinned import constrain, prove

from skillgrant import PlanError, SkillFileError, limits
from skillgrant.limits import (
    MAX_ENTRIES_PER_VALUE,
    MAX_ENTRY_LENGTH,
    MAX_FILE_BYTES,
    MAX_FRONTMATTER_CHARS,
    MAX_NESTING_DEPTH,
    MAX_PLAN_CHARS,
    MAX_SKILL_BYTES,
    MAX_WILDCARDS_PER_PATTERN,
    MAX_WORK_PER_DECISION,
    MAX_YAML_ALIASES,
)
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_file, apply_to_text

LIMITS_SOURCE = Path(limits.__file__).read_text(encoding="utf-8")
PLAN = Plan.from_entries(["Bash(gh pr list)", "Read(src/**)"])
SKILL = "---\nname: t\nallowed-tools: Bash(gh pr list)\n---\n"


def _entry_of_length(length: int) -> str:
    """``Bash(aaa…)`` exactly ``length`` characters long."""
    return "Bash(" + "a" * (length - 6) + ")"


def test_every_limit_is_a_documented_positive_constant() -> None:
    tree = ast.parse(LIMITS_SOURCE)
    names = [node.target.id for node in tree.body
             if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)]
    assert names == ["MAX_ENTRY_LENGTH", "MAX_ENTRIES_PER_VALUE", "MAX_WILDCARDS_PER_PATTERN",
                     "MAX_WORK_PER_DECISION", "MAX_WORK_PER_VALUE", "MAX_FILE_BYTES",
                     "MAX_SKILL_BYTES", "MAX_FRONTMATTER_CHARS", "MAX_PLAN_CHARS",
                     "MAX_YAML_ALIASES", "MAX_NESTING_DEPTH", "MAX_SHELL_COMMAND_CHARS",
                     "MAX_SHELL_NODES", "MAX_HOOK_PAYLOAD_BYTES", "MAX_PAYLOAD_DEPTH",
                     "MAX_REQUEST_BODY_BYTES", "MAX_REQUEST_HEADER_BYTES"]
    lines = LIMITS_SOURCE.splitlines()
    for name in names:
        value = getattr(limits, name)
        assert isinstance(value, int) and value >= 0, name
        at = next(i for i, line in enumerate(lines) if line.startswith(f"{name}:"))
        assert lines[at - 1].startswith("#:"), f"{name} has no #: comment"
    assert MAX_YAML_ALIASES == 0  # aliases are refused outright, not counted
    # A file within MAX_FILE_BYTES is always within the in-memory character limits.
    assert MAX_FRONTMATTER_CHARS >= MAX_SKILL_BYTES and MAX_PLAN_CHARS >= MAX_FILE_BYTES


# --- MAX_ENTRY_LENGTH ----------------------------------------------------------------------

def test_entry_at_the_length_limit_is_decided() -> None:
    entry = _entry_of_length(MAX_ENTRY_LENGTH)
    assert len(entry) == MAX_ENTRY_LENGTH
    assert prove(entry, ["Bash(a*)"]).status == "covered"
    assert prove(entry, [entry]).status == "covered"


def test_entry_past_the_length_limit_is_unknown_even_when_it_would_be_covered() -> None:
    entry = _entry_of_length(MAX_ENTRY_LENGTH + 1)
    verdict = prove(entry, ["Bash"])
    assert verdict.status == "unknown"
    assert f"over the limit of {MAX_ENTRY_LENGTH} (MAX_ENTRY_LENGTH)" in verdict.reason


def test_approved_entry_past_the_length_limit_is_a_plan_error() -> None:
    Plan.from_entries([_entry_of_length(MAX_ENTRY_LENGTH)])
    with pytest.raises(PlanError, match="MAX_ENTRY_LENGTH"):
        Plan.from_entries([_entry_of_length(MAX_ENTRY_LENGTH + 1)])
    with pytest.raises(PlanError, match="MAX_ENTRY_LENGTH"):
        prove("Read", [_entry_of_length(MAX_ENTRY_LENGTH + 1)])


# --- MAX_ENTRIES_PER_VALUE -----------------------------------------------------------------

def test_value_at_the_entry_limit_is_decided() -> None:
    value = ["Bash(gh pr list)"] + [f"Bash(echo {i})" for i in range(MAX_ENTRIES_PER_VALUE - 1)]
    decision = constrain(value, ["Bash(gh pr list)"])
    assert decision.allowed == ["Bash(gh pr list)"]
    assert not decision.restored
    assert {v.status for v in decision.dropped} == {"not_covered"}


def test_value_past_the_entry_limit_is_rejected_whole() -> None:
    value = ["Bash(gh pr list)"] + [f"Bash(echo {i})" for i in range(MAX_ENTRIES_PER_VALUE)]
    decision = constrain(value, ["Bash(gh pr list)", "Read"])
    assert decision.kept == [] and decision.restored
    assert decision.allowed == ["Bash(gh pr list)", "Read"]
    assert {v.status for v in decision.verdicts} == {"unknown"}
    assert "(MAX_ENTRIES_PER_VALUE)" in decision.verdicts[0].reason


def test_skill_file_past_the_entry_limit_is_restored() -> None:
    entries = ", ".join(["Bash(gh pr list)"] * (MAX_ENTRIES_PER_VALUE + 1))
    text, decision = apply_to_text(f"---\nallowed-tools: {entries}\n---\n", PLAN)
    assert decision.restored
    assert text == "---\nallowed-tools: Bash(gh pr list), Read(src/**)\n---\n"


def test_plan_past_the_entry_limit_is_a_plan_error() -> None:
    Plan.from_entries(["Read"] * MAX_ENTRIES_PER_VALUE)
    with pytest.raises(PlanError, match="MAX_ENTRIES_PER_VALUE"):
        Plan.from_entries(["Read"] * (MAX_ENTRIES_PER_VALUE + 1))
    with pytest.raises(PlanError, match="MAX_ENTRIES_PER_VALUE"):
        prove("Read", ["Read"] * (MAX_ENTRIES_PER_VALUE + 1))


# --- MAX_WILDCARDS_PER_PATTERN -------------------------------------------------------------

def test_pattern_at_the_wildcard_limit_is_decided() -> None:
    entry = "Bash(" + "a*" * MAX_WILDCARDS_PER_PATTERN + ")"
    assert prove(entry, ["Bash(a*)"]).status == "covered"
    assert prove(entry, ["Bash(b*)"]).status == "not_covered"
    Plan.from_entries([entry])


def test_pattern_past_the_wildcard_limit_is_unknown() -> None:
    entry = "Bash(" + "a*" * (MAX_WILDCARDS_PER_PATTERN + 1) + ")"
    verdict = prove(entry, ["Bash(a*)"])
    assert verdict.status == "unknown"
    assert f"more than {MAX_WILDCARDS_PER_PATTERN} wildcards (MAX_WILDCARDS_PER_PATTERN)" in (
        verdict.reason)
    with pytest.raises(PlanError, match="MAX_WILDCARDS_PER_PATTERN"):
        Plan.from_entries([entry])


def test_escaped_stars_are_not_wildcards() -> None:
    entry = "Bash(" + "\\*" * (MAX_WILDCARDS_PER_PATTERN + 10) + ")"
    assert prove(entry, [entry]).status == "covered"
    # Not refused by the limit: decided, by identity only (a backslash, semantics §2).
    verdict = prove(entry, ["Bash(gh *)"])
    assert verdict.status == "unknown"
    assert "backslash" in verdict.reason and "MAX_WILDCARDS" not in verdict.reason


# --- MAX_WORK_PER_DECISION -----------------------------------------------------------------

def test_a_decision_over_the_work_budget_is_unknown_and_bounded() -> None:
    """512 long approved patterns × a long submitted prefix rule. Each membership test scans
    about 16,000 characters; the submitted ``X:*`` is two globs, the first covered only by the
    last approved entry, so both globs are tried against every approved one: over 30 million
    units, past the budget of 20 million."""
    length = MAX_ENTRY_LENGTH - 16
    body = "x" * length
    approved = [f"Bash({'y' * (length - 4)}{i:04d} *)" for i in range(MAX_ENTRIES_PER_VALUE - 1)]
    approved.append(f"Bash({body})")
    units_per_test = 2 * length
    assert 2 * 2 * MAX_ENTRIES_PER_VALUE * units_per_test > MAX_WORK_PER_DECISION
    verdict = prove(f"Bash({body}:*)", approved)
    assert verdict.status == "unknown"
    assert "(MAX_WORK_PER_DECISION)" in verdict.reason
    assert f"more than {MAX_WORK_PER_DECISION} units of work" in verdict.reason
    # The same entry under a small plan is decided, with its witness.
    assert prove(f"Bash({body}:*)", [f"Bash({body})"]).status == "not_covered"


# --- MAX_FILE_BYTES ------------------------------------------------------------------------

def test_skill_file_at_the_byte_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "SKILL.md"
    data = (SKILL + "x" * (MAX_SKILL_BYTES - len(SKILL))).encode()
    assert len(data) == MAX_SKILL_BYTES
    path.write_bytes(data)
    assert not apply_to_file(path, PLAN).changed


def test_skill_file_past_the_byte_limit_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "SKILL.md"
    data = ("---\nallowed-tools: Bash\n---\n" + "x" * MAX_SKILL_BYTES).encode()
    path.write_bytes(data)
    with pytest.raises(SkillFileError) as raised:
        apply_to_file(path, PLAN)
    assert str(raised.value) == (
        f"{path}: the file is over {MAX_SKILL_BYTES} bytes (MAX_SKILL_BYTES): Claude Code and "
        "Copilot CLI read no skill or command file that large, so it grants nothing as it is; "
        "skillgrant refuses it rather than pass a file that would grant once cut down")
    assert path.read_bytes() == data
    assert [p.name for p in tmp_path.iterdir()] == ["SKILL.md"]


def test_a_huge_sparse_file_is_refused_without_being_read(tmp_path: Path) -> None:
    path = tmp_path / "SKILL.md"
    with path.open("wb") as handle:
        handle.write(b"---\nallowed-tools: Bash\n---\n")
        handle.truncate(16 * 1024**3)  # 16 GiB, sparse: reading it whole would never finish
    with pytest.raises(SkillFileError, match="MAX_SKILL_BYTES"):
        apply_to_file(path, PLAN)


def test_an_endless_device_is_refused() -> None:
    with pytest.raises(SkillFileError, match="not a regular file: a character device"):
        apply_to_file("/dev/zero", PLAN)


def test_plan_file_past_the_byte_limit_is_a_plan_error(tmp_path: Path) -> None:
    path = tmp_path / "plan.yaml"
    head = b"allowed-tools: [Read]\n"
    path.write_bytes(head + b"#" * (MAX_FILE_BYTES - len(head)))
    assert Plan.load(path).allowed_tools == ["Read"]
    path.write_bytes(head + b"#" * (MAX_FILE_BYTES - len(head) + 1))
    with pytest.raises(PlanError) as raised:
        Plan.load(path)
    assert str(raised.value) == (f"{path}: the plan file is over {MAX_FILE_BYTES} bytes "
                                 "(MAX_FILE_BYTES)")
    with pytest.raises(PlanError, match="cannot read the plan: not a regular file"):
        Plan.load("/dev/zero")


# --- MAX_FRONTMATTER_CHARS, MAX_PLAN_CHARS (texts in memory) -------------------------------

def test_frontmatter_past_the_character_limit_is_refused() -> None:
    text = "---\nx: '" + "a" * MAX_FRONTMATTER_CHARS + "'\nallowed-tools: Read\n---\n"
    with pytest.raises(SkillFileError, match=r"over 1048576 characters \(MAX_FRONTMATTER_CHARS\)"):
        apply_to_text(text, PLAN)


def test_plan_text_past_the_character_limit_is_refused() -> None:
    with pytest.raises(PlanError, match="MAX_PLAN_CHARS"):
        Plan.from_text("allowed-tools: [Read]\n" + "#" * MAX_PLAN_CHARS)


# --- MAX_YAML_ALIASES ----------------------------------------------------------------------

LAUGHS = "".join(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}" if i else "lol"] * 9) + "]\n"
                 for i in range(10))  # 9**10 strings if expanded


def test_billion_laughs_in_a_skill_file_is_refused_at_once() -> None:
    with pytest.raises(SkillFileError, match=r"YAML aliases \(\*name\) are not accepted here"):
        apply_to_text(f"---\n{LAUGHS}allowed-tools: Read\n---\n", PLAN)


def test_billion_laughs_in_a_plan_is_refused_at_once() -> None:
    with pytest.raises(PlanError, match=r"YAML aliases \(\*name\) are not accepted here"):
        Plan.from_text(LAUGHS.replace("l", "x-l") + "allowed-tools: [Read]\n")


def test_a_single_alias_is_refused() -> None:
    with pytest.raises(SkillFileError) as raised:
        apply_to_text("---\nx: &a Read\nallowed-tools: *a\n---\n", PLAN)
    assert str(raised.value) == (
        "<input>:3:16: YAML aliases (*name) are not accepted here: Claude Code's YAML parser "
        "accepts what skillgrant's refuses here, so what it grants cannot be computed; write "
        "the frontmatter without anchors, aliases, merge keys or deep nesting")


# --- MAX_NESTING_DEPTH ---------------------------------------------------------------------

def _nested(levels: int) -> str:
    # The frontmatter mapping is level 1; each bracket adds one.
    return "[" * (levels - 1) + "]" * (levels - 1)


def test_skill_frontmatter_at_the_nesting_limit_is_read() -> None:
    text = f"---\nx: {_nested(MAX_NESTING_DEPTH)}\nallowed-tools: Bash(gh pr list)\n---\n"
    assert apply_to_text(text, PLAN)[0] == text


@pytest.mark.parametrize("levels", [MAX_NESTING_DEPTH + 1, 900, 100_000])
def test_skill_frontmatter_past_the_nesting_limit_is_refused(levels: int) -> None:
    text = f"---\nx: {_nested(levels)}\nallowed-tools: Read\n---\n"
    with pytest.raises(SkillFileError, match="nest"):
        apply_to_text(text, PLAN)


def test_block_nesting_past_the_limit_is_refused() -> None:
    text = "---\nx:\n" + "- " * MAX_NESTING_DEPTH + "a\n---\n"
    with pytest.raises(SkillFileError, match=r"nested more than 64 levels deep \(MAX_NESTING"):
        apply_to_text(text, PLAN)
    assert apply_to_text("---\nx:\n" + "- " * (MAX_NESTING_DEPTH - 1) + "a\n---\n", PLAN)


@pytest.mark.parametrize("source", ["plan.yaml", "plan.json"])
def test_plan_nesting_limit(source: str) -> None:
    def plan(levels: int) -> str:
        return '{"allowed-tools": ["Read"], "x-a": ' + _nested(levels) + "}"

    assert Plan.from_text(plan(MAX_NESTING_DEPTH), source=source).allowed_tools == ["Read"]
    with pytest.raises(PlanError, match="MAX_NESTING_DEPTH"):
        Plan.from_text(plan(MAX_NESTING_DEPTH + 1), source=source)
    with pytest.raises(PlanError, match="MAX_NESTING_DEPTH"):
        Plan.from_text(plan(200_000), source=source)


def test_json_strings_do_not_count_as_nesting() -> None:
    text = '{"allowed-tools": ["Read"], "x-a": "' + "[{" * 500 + '\\"]"}'
    assert Plan.from_text(text, source="plan.json").allowed_tools == ["Read"]


@pytest.mark.parametrize("kind", ["plan", "skill", "settings"])
def test_every_plan_kind_is_read_within_the_byte_limit(kind: str, tmp_path: Path) -> None:
    big = tmp_path / "plan"
    big.write_bytes(b"x" * (MAX_FILE_BYTES + 1))
    with pytest.raises(PlanError, match="MAX_FILE_BYTES"):
        Plan.load(big, kind=kind)  # type: ignore[arg-type]
    with pytest.raises(PlanError, match="not a regular file: a character device"):
        Plan.load("/dev/zero", kind=kind)  # type: ignore[arg-type]


# --- MAX_FILE_BYTES: one bounded reader for SKILL.md files, plan files and review sides ------

def test_a_file_is_read_whole_up_to_the_limit_and_never_past_it(tmp_path: Path) -> None:
    from skillgrant.skillfile.bounded import read_bounded

    for size, expected in [(0, 0), (10, 10), (MAX_FILE_BYTES, MAX_FILE_BYTES),
                           (MAX_FILE_BYTES + 5, MAX_FILE_BYTES + 1)]:
        path = tmp_path / f"f{size}"
        path.write_bytes(b"x" * size)
        assert len(read_bounded(path)) == expected, size
    with pytest.raises(IsADirectoryError):
        read_bounded(tmp_path)


def test_a_file_of_the_size_it_gives_is_read_in_one_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Exactly the size ``fstat`` gave, short of the byte more asked for, is the whole file:
    one read; a file longer than its size said (it grew) is read on to its end."""
    import os

    from skillgrant.skillfile import bounded

    path = tmp_path / "f"
    path.write_bytes(b"x" * 1000)
    sizes: list[int] = []
    real_read, real_fstat = os.read, os.fstat

    def read(fd: int, n: int) -> bytes:
        sizes.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(os, "read", read)  # the os bounded reads through
    assert bounded.read_bounded(path) == b"x" * 1000
    assert sizes == [1001]

    class Smaller:  # what fstat gives of a file that grew since
        def __init__(self, info: os.stat_result) -> None:
            self.st_mode, self.st_size = info.st_mode, 400

    monkeypatch.setattr(os, "fstat", lambda fd: Smaller(real_fstat(fd)))
    sizes.clear()
    assert bounded.read_bounded(path) == b"x" * 1000
    assert sizes[0] == 401 and len(sizes) > 1


def test_only_a_regular_file_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A device, a FIFO or a socket is refused before it is opened (never read forever, never
    waited on); a symlink to one is refused the same; a directory is IsADirectoryError."""
    import os
    import socket

    from skillgrant.skillfile.bounded import NotRegularFileError, read_bounded

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "link").symlink_to("/dev/zero")
    monkeypatch.chdir(tmp_path)  # a socket's path is short (108 bytes at most)
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind("sock")
        cases: list[tuple[str | Path, str]] = [
            ("/dev/zero", "a character device"), ("/dev/null", "a character device"),
            (fifo, "a FIFO"), (tmp_path / "link", "a character device"), ("sock", "a socket")]
        for name, kind in cases:
            with pytest.raises(NotRegularFileError) as raised:
                read_bounded(name)
            assert raised.value.strerror == f"not a regular file: {kind}", name
            assert raised.value.filename == os.fspath(name)
    finally:
        server.close()
    with pytest.raises(IsADirectoryError):
        read_bounded(tmp_path)
    proc = Path("/proc/self/status")  # regular, but gives no size: read to its end
    if proc.is_file():
        assert read_bounded(proc).startswith(b"Name:")


# --- the call gate: MAX_SHELL_COMMAND_CHARS, MAX_SHELL_NODES ----------------------------------
# (MAX_HOOK_PAYLOAD_BYTES and MAX_PAYLOAD_DEPTH: tests/gate/test_hook_payloads.py;
# MAX_REQUEST_BODY_BYTES, MAX_REQUEST_HEADER_BYTES: tests/service/test_fail_closed.py)

def test_a_command_at_the_length_limit_is_analysed_and_one_past_it_is_unknown() -> None:
    from skillgrant import check_call
    from skillgrant.limits import MAX_SHELL_COMMAND_CHARS

    at = "echo " + "a" * (MAX_SHELL_COMMAND_CHARS - 5)
    assert check_call("Bash", {"command": at}, ["Bash(echo *)"]).covered
    past = at + "a"
    verdict = check_call("Bash", {"command": past}, ["Bash(echo *)"])
    assert verdict.status == "unknown" and "MAX_SHELL_COMMAND_CHARS" in verdict.reason


def test_a_command_over_the_node_limit_is_unknown() -> None:
    from skillgrant import check_call
    from skillgrant.limits import MAX_SHELL_COMMAND_CHARS, MAX_SHELL_NODES

    words = MAX_SHELL_NODES  # one node a word, with the program, its command and the tree
    command = "echo" + " a" * words
    assert len(command) < MAX_SHELL_COMMAND_CHARS
    verdict = check_call("Bash", {"command": command}, ["Bash(echo *)"])
    assert verdict.status == "unknown" and "MAX_SHELL_NODES" in verdict.reason
