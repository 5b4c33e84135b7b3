"""Session 47's fixes (s47-ffix): what a skill's ``disallowed-tools`` removes, shown by every
report (issue 27, Deliver 5); the rest of issue 27's open items."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema
import pytest
from reader_review import ADDON, bun_parse, needs_bun, needs_copilot
from typer.testing import CliRunner, Result

from skillgrant.cli.app import app
from skillgrant.reports.schemas import report_schema
from skillgrant.skillfile.removed import removed_tools

SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
PLAN = "allowed-tools:\n  - Bash(git *)\n"


def _skill(lines: str, newline: str = "\n") -> str:
    text = (f"---\nname: probe\ndescription: d\nallowed-tools: Bash(git *), Read\n{lines}\n"
            "---\nbody\n")
    return text.replace("\n", newline)


def _run(tmp_path: Path, text: str, *args: str) -> Result:
    (tmp_path / "sk").mkdir(exist_ok=True)
    (tmp_path / "sk" / "SKILL.md").write_text(text, encoding="utf-8", newline="")
    (tmp_path / "plan.yaml").write_text(PLAN, encoding="utf-8")
    return CliRunner().invoke(app, ["check", "--plan", str(tmp_path / "plan.yaml"),
                                    str(tmp_path / "sk" / "SKILL.md"), *args])


# --- 1. disallowed-tools, as Claude Code's EHe reads it -------------------------------------

@pytest.mark.parametrize(("lines", "key", "entries", "line"), [
    ("disallowed-tools: Bash(git push *), WebFetch", "disallowed-tools",
     ("Bash(git push *)", "WebFetch"), 5),
    ("disallowedTools: [Edit, 3, Write]", "disallowedTools", ("Edit", "Write"), 5),
    # `??`: the second key only when the first is absent or null
    ("disallowed-tools: ~\ndisallowedTools: Edit", "disallowedTools", ("Edit",), 6),
    ("disallowed-tools: ''\ndisallowedTools: Edit", "disallowed-tools", (), 5),
    ("disallowedTools: Edit\ndisallowed-tools: Write", "disallowed-tools", ("Write",), 6),
    # Bun's YAML 1.2 scalars: `yes` and a date are strings, `True` and `0x1F` are not
    ("disallowed-tools: [yes, True, 0x1F, 2001-01-01]", "disallowed-tools",
     ("yes", "2001-01-01"), 5),
    ("disallowed-tools: Read *", "disallowed-tools", ("*",), 5),
    # the runtime's retry reads it (argument-hint with brackets)
    ("argument-hint: [a] [b]\ndisallowed-tools: Bash(rm *)", "disallowed-tools",
     ("Bash(rm *)",), 6),
    # last of duplicates
    ("disallowed-tools: Edit\ndisallowed-tools: Write", "disallowed-tools", ("Write",), 6),
])
def test_what_disallowed_tools_removes(lines: str, key: str, entries: tuple[str, ...],
                                       line: int) -> None:
    text = _skill(lines)
    found = removed_tools(text)
    assert found is not None and (found.key, found.entries) == (key, entries)
    assert text.count("\n", 0, found.offset) + 1 == line
    assert text.startswith(key, found.offset)


def test_a_quoted_value_over_crlf_lines_keeps_its_breaks_as_bun_does() -> None:
    text = _skill('disallowed-tools: "Edit\n  Write"', "\r\n")
    found = removed_tools(text)
    assert found is not None and found.entries == ("Edit\nWrite",)


@pytest.mark.parametrize("lines", [
    "", "disallowed-tools: ~", "disallowed-tools:", "description2: disallowed-tools",
    "x: |\n  disallowed-tools: Edit",
])
def test_nothing_removed(lines: str) -> None:
    assert removed_tools(_skill(lines)) is None


def test_check_shows_what_it_removes(tmp_path: Path) -> None:
    text = _skill("disallowed-tools: Bash(git push *), WebFetch")
    done = _run(tmp_path, text)
    assert done.exit_code == 1, done.output
    line = next(x for x in done.stdout.splitlines() if "SG011" in x)
    assert line.endswith("SKILL.md:5:1:  note  disallowed-tools removes Bash(git push *), "
                         "WebFetch while the skill runs (Claude Code); kept as written, not "
                         "judged against the plan [SG011 removes-tools]")
    assert "SG011" not in _run(tmp_path, text, "--quiet").stdout
    document = json.loads(_run(tmp_path, text, "--format", "json").stdout)
    jsonschema.validate(document, report_schema("check"))
    assert document["files"][0]["disallowed_tools"] == ["Bash(git push *)", "WebFetch"]
    sarif = json.loads(_run(tmp_path, text, "--format", "sarif").stdout)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(
        sarif)
    (result,) = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "SG011"]
    assert result["level"] == "note"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 5
    github = _run(tmp_path, text, "--format", "github").stdout
    assert "::notice file=" in github and "line=5,col=1,title=SG011 removes-tools::" in github
    markdown = _run(tmp_path, text, "--format", "markdown").stdout
    assert "note (SG011 `removes-tools`) | `Bash(git push *)`, `WebFetch` |" in markdown
    jobs = _run(tmp_path, text, "--format", "json", "--jobs", "2").stdout
    assert json.loads(jobs)["files"] == document["files"]


def test_a_file_without_the_key_reports_an_empty_list(tmp_path: Path) -> None:
    done = _run(tmp_path, _skill("x: y"), "--format", "json")
    assert json.loads(done.stdout)["files"][0]["disallowed_tools"] == []
    assert "SG011" not in _run(tmp_path, _skill("x: y")).stdout


def test_the_file_keeps_the_key(tmp_path: Path) -> None:
    text = _skill("disallowedTools: WebFetch")
    _run(tmp_path, text)
    done = CliRunner().invoke(app, ["apply", "--plan", str(tmp_path / "plan.yaml"),
                                    str(tmp_path / "sk" / "SKILL.md")])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "sk" / "SKILL.md").read_text(encoding="utf-8") == text.replace(
        "Bash(git *), Read", "Bash(git *)")


def test_a_plan_read_from_a_skill_says_what_it_removes(tmp_path: Path) -> None:
    plan = tmp_path / "approved" / "SKILL.md"
    plan.parent.mkdir()
    plan.write_text(_skill("disallowed-tools: WebFetch"), encoding="utf-8")
    done = CliRunner().invoke(app, ["explain", "Read", "--plan", str(plan)])
    assert done.exit_code == 0, done.output
    assert ("disallowed-tools removes 'WebFetch' while the skill runs (Claude Code); the plan "
            "is its allowed-tools alone [SG011]") in done.stderr


# --- 2. the size limit is the runtimes' own --------------------------------------------------
# Claude Code 2.1.332 reads a plugin's skill or command file and a `.claude/commands` file of
# up to 1,048,576 bytes (`S7e`, `ian`: `size > limit` skips it), a `.claude/skills` SKILL.md of
# up to 1,000,000 (`tw`); Copilot CLI 1.0.102's skillsParseSkillFile reads 1,048,576 bytes and
# fails with EFBIG on one byte more (measured: test_copilot_reads_a_skill_file_up_to_one_mib).

SIZES = {"claude-code-skills-limit": 1_000_000, "one-byte-more": 1_000_001,
         "one-mib": 1_048_576}


def _sized(size: int) -> bytes:
    head = b"---\nname: probe\ndescription: d\nallowed-tools: Bash(git *), Read\n---\n"
    return head + b"x" * (size - len(head))


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_a_skill_file_any_runtime_reads_is_checked(tmp_path: Path, size: int) -> None:
    from skillgrant.plan import Plan
    from skillgrant.skillfile import apply_to_file

    path = tmp_path / "SKILL.md"
    path.write_bytes(_sized(size))
    done = apply_to_file(path, Plan.from_entries(["Bash(git *)"]))
    assert done.written and done.decision.allowed == ["Bash(git *)"]
    assert path.read_bytes().startswith(b"---\nname: probe\ndescription: d\nallowed-tools: "
                                        b"Bash(git *)\n---\n")


def test_a_skill_file_no_runtime_reads_is_refused_saying_why(tmp_path: Path) -> None:
    from skillgrant.errors import SkillFileError
    from skillgrant.plan import Plan
    from skillgrant.skillfile import apply_to_file

    path = tmp_path / "SKILL.md"
    data = _sized(1_048_577)
    path.write_bytes(data)
    with pytest.raises(SkillFileError) as raised:
        apply_to_file(path, Plan.from_entries(["Bash(git *)"]))
    assert "over 1048576 bytes (MAX_SKILL_BYTES)" in raised.value.message
    assert "Claude Code and Copilot CLI read no skill or command file that large" in (
        raised.value.message)
    assert path.read_bytes() == data


def test_stdin_takes_the_same_limit(tmp_path: Path) -> None:
    (tmp_path / "plan.yaml").write_text(PLAN, encoding="utf-8")
    plan = str(tmp_path / "plan.yaml")
    done = CliRunner().invoke(app, ["check", "--plan", plan, "-"],
                              input=_sized(1_048_576).decode())
    assert done.exit_code == 1, done.output
    done = CliRunner().invoke(app, ["check", "--plan", plan, "-"],
                              input=_sized(1_048_577).decode())
    assert done.exit_code == 2 and "MAX_SKILL_BYTES" in done.stderr


_COPILOT_SIZES = """
const S = require(process.argv[1]);
const fs = require("fs"), path = require("path"), os = require("os");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-s47-"));
(async () => {
  const out = [];
  for (const size of JSON.parse(fs.readFileSync(0, "utf8"))) {
    const head = "---\\nname: probe\\ndescription: d\\nallowed-tools: shell(touch)\\n---\\n";
    const file = path.join(dir, String(size), "probe", "SKILL.md");
    fs.mkdirSync(path.dirname(file), {recursive: true});
    fs.writeFileSync(file, head + "x".repeat(size - head.length));
    const got = await S.skillsParseSkillFile(file, "project");
    out.push(got.kind === "success" ? got.value.allowedTools : got.message);
  }
  fs.rmSync(dir, {recursive: true, force: true});
  process.stdout.write(JSON.stringify(out));
})();
"""


@needs_copilot
def test_copilot_reads_a_skill_file_up_to_one_mib() -> None:
    done = subprocess.run(["node", "-e", _COPILOT_SIZES, str(ADDON)],
                          input=json.dumps([1_048_576, 1_048_577]), capture_output=True,
                          text=True, timeout=120, check=True)
    read, refused = json.loads(done.stdout)
    assert read == ["shell(touch)"]
    assert "EFBIG" in refused


# --- 4. the gate finds a skill by its name as the runtime reads it (one reader) --------------

NAMED = {
    "quoted-key": '"name": other',
    "explicit-key": "? name\n: other",
    "escaped": 'name: "oth\\x65r"',
    "block": "name: >-\n  other",
    "after-a-long-description": "description: '" + "d" * 9000 + "'\nname: other",
    "retried": "argument-hint: [a] [b]\nname: other",
    "last-of-two": "name: x\nname: other",
    "tab-after-dash": "x:\n  -\tb\nname: other",
    "unreadable": "name: other\nx: [a,\ny]",  # a continuation line Bun rejects: may be
    "not-a-string": "name: [other]",  # String(['other']) is 'other' to the runtime
}
NOT_NAMED = {
    "another-name": "name: another",
    "in-a-block": "description: |\n  name: other",
    "commented": "# name: other\nname: another",
    "after-the-runtimes-end": "description: a---b\nname: other",
    "no-name": "description: d",
    "null": "name: ~",
}


def _skills(tmp_path: Path, frontmatter: str) -> Path:
    skill = tmp_path / "project" / ".claude" / "skills" / "folder" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(f"---\n{frontmatter}\n---\nRun !`echo $ARGUMENTS`\n", encoding="utf-8")
    return skill


@pytest.mark.parametrize("frontmatter", NAMED.values(), ids=NAMED.keys())
def test_the_gate_finds_a_skill_named_as_the_runtime_reads_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, frontmatter: str) -> None:
    from skillgrant.gate.skillfiles import skill_files

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    skill = _skills(tmp_path, frontmatter)
    assert str(skill) in skill_files("other", str(tmp_path / "project"))


@pytest.mark.parametrize("frontmatter", NOT_NAMED.values(), ids=NOT_NAMED.keys())
def test_the_gate_leaves_a_skill_named_otherwise(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, frontmatter: str) -> None:
    from skillgrant.gate.skillfiles import skill_files

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    skill = _skills(tmp_path, frontmatter)
    assert str(skill) not in skill_files("other", str(tmp_path / "project"))


# --- X1 (found here): a flow collection PyYAML rejects and Bun reads -------------------------
# `x: [PreToolUse: y, : b]`: libyaml stops at the empty key; Bun 1.4.5 reads
# [{"PreToolUse": "y"}, {"null": "b"}] as written (or keeps it unquoted on its retry, after
# `argument-hint: [a] [b]`), so the runtime drops the skill's hooks; skillgrant read the
# retry's string and `apply --enforce` wrote a hook that never runs.
X1 = {
    "direct": ("x: [PreToolUse: y, : b]", (5, 20)),
    "kept-on-the-retry": ("argument-hint: [a] [b]\nx: [PreToolUse: y, : b]", (6, 1)),
    "mapping": ("x: {a, : b}", (5, 8)),
    "glued-colon": ("x: [PreToolUse: y:? , :]", (5, 18)),
}


@pytest.mark.parametrize(("lines", "where"), X1.values(), ids=X1.keys())
def test_x1_a_flow_value_bun_may_read_is_refused(lines: str, where: tuple[int, int]) -> None:
    from skillgrant.errors import SkillFileError
    from skillgrant.plan import Plan
    from skillgrant.skillfile import apply_to_text, read_skill

    text = _skill(lines)
    with pytest.raises(SkillFileError) as raised:
        read_skill(text, "SKILL.md")
    assert (raised.value.line, raised.value.column) == where
    assert "flow collection" in raised.value.message
    with pytest.raises(SkillFileError):
        apply_to_text(text, Plan.from_entries(["Bash(git *)"]),
                      enforce="/usr/bin/skillgrant hook --plan /p/plan.json",
                      path="/nonexistent/.claude/skills/probe/SKILL.md")


def test_x1_what_bun_rejects_in_brackets_is_still_read() -> None:
    from skillgrant.skillfile import read_skill

    for lines in ("argument-hint: [file.typ] [output.pdf]", "x: [a, b]",
                  "y: [Bash(${CLAUDE_PLUGIN_ROOT}/x.sh *)]"):
        assert read_skill(_skill(lines)).allowed_tools is not None, lines


@needs_bun
def test_x1_bun_reads_the_flow_values_as_written() -> None:
    texts = ["x: [PreToolUse: y, : b]", "x: {a, : b}", "x: [PreToolUse: y:? , :]",
             'argument-hint: "[a] [b]"\nx: [PreToolUse: y, : b]']
    assert bun_parse(texts) == [
        {"x": [{"PreToolUse": "y"}, {"null": "b"}]}, {"x": {"a": None, "null": "b"}},
        {"x": [{"PreToolUse": "y:?"}, {"null": None}]},
        {"argument-hint": "[a] [b]", "x": [{"PreToolUse": "y"}, {"null": "b"}]}]
