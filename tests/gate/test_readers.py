"""Review s41 W2 at its root (gate/readers.py): a path in a guarded folder is written by any
program in no list of writers (``gcc -o``, ``python3 -m zipfile -e``), so such a path, or one
the gate cannot name, is let through only to programs known to write nothing their words name.
Real bash judges: each write case first proves that bash rewrites the hook script in a
scratch copy, and each read case that bash leaves every guarded file as it was."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from files_fixture import gated_project
from test_gate_files import _settings_hook, run_hook

from skillgrant.gate import guards, planprograms
from skillgrant.gate.named import GUARDED

#: Each case is judged by real bash and then the printed hook, a process a case, as the
#: reviews' modules are: CI's slow step runs them (.ci/steps/30-slow.sh), and
#: tests/conformance/test_gate_files_e2e.py runs W2's class through Claude Code.
pytestmark = pytest.mark.slow

_COMPILE = "gcc -E -P -x c src/x.sh"
#: Commands bash runs to rewrite ``.claude/hooks/x.sh`` (each with the payload ``touch zz``).
WRITES = [
    f"{_COMPILE} -o .claude/hooks/x.sh",
    f"{_COMPILE} -o.claude/hooks/x.sh",  # an option's attached value
    f"{_COMPILE} -o ./.claude/hooks/../hooks/x.sh",
    f"{_COMPILE} -o .cl*/hooks/x.sh",  # a pattern whose folder holds the guarded one
    f"{_COMPILE} -o .claude/h?oks/x.sh",
    f"{_COMPILE} -o > log .claude/hooks/x.sh",  # a redirection between option and value
    f"{_COMPILE} -o lnk/x.sh",  # a link into the folder, made before the session
    f"{_COMPILE} -olnk/x.sh",
    f"{_COMPILE} -o $PWD/.claude/hooks/x.sh",
    f"{_COMPILE} -o \"$(echo .claude)/hooks/x.sh\"",
    f"true\n{_COMPILE} -o .claude/hooks/x.sh",  # a line break separates two commands
    f"cat .claude/hooks/x.sh && {_COMPILE} -o .claude/hooks/x.sh",
    "cd .claude/hooks && gcc -E -P -x c ../../src/x.sh -o x.sh",
    "python3 -m zipfile -e src/a.zip .claude/hooks/",
    f"timeout 5 {_COMPILE} -o .claude/hooks/x.sh",  # a wrapper runs its words
    # comments and here-documents folded into their command (gate/folded.py)
    f"{_COMPILE} -o .claude/hooks/x.sh # it's the hook",
    f"cat <<'EOF'\nit's .claude/hooks/x.sh\nEOF\n{_COMPILE} -o .claude/hooks/x.sh",
    "cat <<'EOF' > .claude/hooks/x.sh\ntouch zz\nEOF",
    "cat <<EOF >.claude/hooks/x.sh\ntouch zz\nEOF",
    "python3 - <<'EOF'\nimport shutil; shutil.copy('src/x.sh', '.claude/hooks/x.sh')\nEOF",
    "echo \"$(cat <<'EOF'\nit's\nEOF\n)\"; cp src/x.sh .claude/hooks/x.sh # it's",
]
#: Commands that only read what they name in the guarded folders.
READS = [
    "cat .claude/hooks/x.sh", "grep -rn zz .claude/hooks", "ls -la .claude/hooks",
    "wc -l .claude/hooks/x.sh | cat", "git diff .claude/hooks/x.sh",
    "find .claude -name '*.sh'", "python3 .claude/skills/s/run.py",
    "python3 -u .claude/skills/s/run.py data", "diff .claude/hooks/x.sh src/x.sh",
    "sha256sum .claude/skills/s/run.py", "cd .claude/skills/s && cat run.py",
    "nice cat .claude/hooks/x.sh", "timeout 5 grep -c sh .claude/hooks/x.sh",  # review s42 C4
    # a quote in a comment or a literal here-document is data (gate/folded.py)
    "cat .claude/hooks/x.sh # it's the hook",
    "cat <<'EOF'\nsee .claude/hooks/x.sh, it's there\nEOF",
    "git commit -qm \"$(cat <<'EOF'\nUpdate .claude/hooks/x.sh: it's fixed\nEOF\n)\"",
    "gh pr create --title \"it's\" --body \"$(cat .claude/hooks/x.sh)\"",
]


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    """A gated project with a hook script in ``.claude/hooks``, a skill's script, ``lnk``
    linking to the hooks folder and the payload ``touch zz`` in ``src/x.sh`` and ``src/a.zip``;
    the guarded set made from it is ``GUARDED`` for the test."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(gcc *)", "Bash(cat *)"])
    (project / ".claude" / "hooks").mkdir()
    (project / ".claude" / "hooks" / "x.sh").write_text("#!/bin/sh\n")
    (project / ".claude" / "skills" / "s").mkdir(parents=True)
    (project / ".claude" / "skills" / "s" / "run.py").write_text("print('run')\n")
    (project / "src").mkdir()
    (project / "src" / "x.sh").write_text("touch zz\n")
    with zipfile.ZipFile(project / "src" / "a.zip", "w") as packed:
        packed.writestr("x.sh", "touch zz\n")
    (project / "lnk").symlink_to(".claude/hooks")
    items = guards.guarded_items(str(project / "plan.json"), None, None, str(project),
                                 str(project))
    token = GUARDED.set(items)
    yield project
    GUARDED.reset(token)


def _in_bash(project: Path, command: str) -> Path:
    """A copy of ``project`` (links kept) after real bash ran ``command`` in it."""
    scratch = project.parent / "scratch"
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60,
                   env={**os.environ, "PWD": str(scratch)})
    return scratch


def _digests(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted((folder / ".claude").rglob("*")) if p.is_file()}


@pytest.mark.parametrize("command", WRITES)
def test_a_program_in_no_list_writing_a_guarded_folder_is_denied(project: Path,
                                                                 command: str) -> None:
    scratch = _in_bash(project, command)
    assert "touch zz" in (scratch / ".claude" / "hooks" / "x.sh").read_text(), \
        "bash wrote nothing: the case proves nothing"
    assert guards.guarded_word(command, str(project)) is not None


@pytest.mark.parametrize("command", READS)
def test_a_reader_of_a_guarded_folder_is_let_through(project: Path, command: str) -> None:
    scratch = _in_bash(project, command)
    assert _digests(scratch) == _digests(project), "bash wrote a guarded file"
    assert guards.guarded_word(command, str(project)) is None


def test_the_hook_denies_the_write_and_allows_the_read(project: Path) -> None:
    """The same, through the printed hook as the runtime runs it."""
    hook = _settings_hook(project)
    assert run_hook(hook, f"{_COMPILE} -o .claude/hooks/x.sh", project).returncode == 2
    assert run_hook(hook, "cat .claude/hooks/x.sh", project).returncode == 0


@pytest.mark.parametrize("command", [
    "gh release download -D .claude/hooks --title \"$(cat src/x.sh)\"",
    "gh pr create --body \"$(cat src/x.sh)\" --body-file .claude/hooks/x.sh",
    "gh pr create --body \"$(cp src/x.sh .claude/hooks/x.sh)\"",
    "gh repo clone \"$(cat src/x.sh)\"",
    "python3 <<'EOF'\n.claude/hooks/x.sh\nEOF"])
def test_a_text_option_or_a_here_document_takes_no_path_to_a_writer(project: Path,
                                                                  command: str) -> None:
    """gh reads ``--title`` and ``--body`` as text (``readers._TEXT_OPTIONS``), and nothing
    else it is given; an interpreter's here-document is its program, not a script it names."""
    assert guards.guarded_word(command, str(project)) is not None


def test_claude_codes_commit_idiom_and_a_pr_body_pass_the_hook(tmp_path: Path) -> None:
    """Issue 29's over-strict rows through the printed hook, under a plan granting
    ``git commit``, ``cat`` and ``gh``: a quote in the message, and a guarded path it names,
    are data."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(git commit *)", "Bash(cat *)", "Bash(gh *)"])
    (project / ".claude" / "hooks").mkdir()
    (project / ".claude" / "hooks" / "x.sh").write_text("#!/bin/sh\n")
    (project / "src").mkdir()
    (project / "src" / "x.sh").write_text("touch zz\n")
    hook = _settings_hook(project)
    for command in ["git commit -m \"$(cat <<'EOF'\nFix the parser's case\n\n"
                    "Co-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"",
                    "git commit -m \"$(cat <<'EOF'\nUpdate .claude/hooks/x.sh\nEOF\n)\"",
                    "gh pr create --title \"Fix the parser's case\" --body \"$(cat src/x.sh)\"",
                    "cat .claude/hooks/x.sh # it's the hook"]:
        ran = run_hook(hook, command, project)
        assert ran.returncode == 0 and not ran.stdout, (command, ran.stdout, ran.stderr)


@pytest.mark.parametrize(("grant", "write"), [
    ("./tools/run.sh", "cp payload tools/run.sh"),
    ("python3 tools/run.py", "cp payload tools/json.py"),
    ("pytest -q tests/test_a.py", "cp payload tests/conftest.py")])
def test_a_program_the_plan_names_runs_and_is_not_written(tmp_path: Path, grant: str,
                                                         write: str) -> None:
    """Review s42 P1: the paths a plan's entries run (``planprograms.plan_programs``) are guarded
    whole, with the folder beside an interpreter's script: the write is denied, the approved
    run is not."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", f"Bash({grant})"])
    named = planprograms.plan_programs(("Bash(cp *)", f"Bash({grant})", "Read"))
    items = guards.guarded_items(str(project / "plan.json"), None, None, str(project),
                                 str(project), named)
    token = GUARDED.set(items)
    try:
        assert guards.guarded_word(write, str(project)) is not None
        assert guards.guarded_word(grant, str(project)) is None
    finally:
        GUARDED.reset(token)
