"""What a directory gives ``check`` and ``apply`` (cli/files.py): SKILL.md files and the command
files of ``.claude/`` and of plugins (those with frontmatter), never agent files (their grants
are ``tools:``), narrowed by ``--include`` and ``--exclude``; a file named on the command line
is always read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from skillgrant.cli.files import Filters, collect

FRONT = "---\ndescription: d\nallowed-tools: Bash(gh pr list), Bash(rm -rf /)\n---\nbody\n"
TREE = {
    "skills/a/SKILL.md": FRONT,
    ".claude/commands/commit.md": FRONT,
    ".claude/commands/git/push.md": FRONT,
    ".claude/commands/plain.md": "Just Markdown, no frontmatter.\n",
    ".claude/agents/reviewer.md": FRONT,  # a subagent's grants are its tools: field, not read
    "plugins/p/.claude-plugin/plugin.json": "{}",
    "plugins/p/commands/build.md": FRONT,
    "plugins/p/agents/helper.md": FRONT,  # (nor a plugin's)
    "plugins/p/skills/s/SKILL.md": FRONT,
    "notes/commands/not-a-plugin.md": FRONT,  # a commands folder of neither
    "docs/readme.md": FRONT,
}


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    for name, text in TREE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "plan.yaml").write_text("allowed-tools:\n  - Bash(gh *)\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _found(*paths: str, filters: Filters | None = None) -> list[str]:
    return [p.as_posix() for p in collect(list(paths), filters) if isinstance(p, Path)]


def test_a_directory_gives_skills_and_commands(tree: Path) -> None:
    assert _found(".") == [
        ".claude/commands/commit.md", ".claude/commands/git/push.md",
        "plugins/p/commands/build.md", "plugins/p/skills/s/SKILL.md", "skills/a/SKILL.md"]


def test_include_and_exclude_narrow_what_a_directory_gives(tree: Path) -> None:
    assert _found(".", filters=Filters(include=(".claude/**",))) == [
        ".claude/commands/commit.md", ".claude/commands/git/push.md"]
    assert _found(".", filters=Filters(exclude=("**/commands/**", "plugins/**"))) == [
        "skills/a/SKILL.md"]


def test_a_file_named_is_read_whatever_the_filters(tree: Path) -> None:
    assert _found("docs/readme.md", filters=Filters(exclude=("**",))) == ["docs/readme.md"]


def test_check_reads_command_files(tree: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "skillgrant", "check", ".claude", "--format",
                           "json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert {f["path"]: f["allowed"] for f in json.loads(done.stdout)["files"]} == {
        ".claude/commands/commit.md": ["Bash(gh pr list)"],
        ".claude/commands/git/push.md": ["Bash(gh pr list)"]}
