"""The gate's own files against a program that writes a folder (issue 29, reviews W1c, W2),
end to end through the pinned Claude Code 2.1.332.

A program the plan allows writes a whole folder without naming the file: ``cp -r evil/. .``.
The folder ``evil/`` holds, at the project's paths, a wider plan, a settings file without the
gate's hook, or a SKILL.md without it. The session's own permissions are wider than the plan
(``--allowedTools Bash Agent``), so only the gate stands in the way; each case then asks for a
``touch zz``, outside the plan, and looks whether ``zz`` was made.

* measured with a stub hook: Claude Code 2.1.332 reads a rewritten ``.claude/settings.json``
  again within seconds (its hooks go), and keeps the hooks a skill brought when it loaded;
* the gate: a program writing a folder that holds its plan or its settings is ``unknown``
  (``gate.writers``), and the hook pins the plan's digest (``--plan-sha256``), so a plan
  replaced by a program no list knows makes it deny every call (docs/decisions.md, "Issue
  29: the gate's own files (session 36)").
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cc_probe import Judge
from cc_runtime import SKILL_NAME
from gate_sessions import denied_by_gate
from test_subagents_e2e import bash, load, run

ENTRIES = ["Bash(echo *)", "Bash(cp *)", "Bash(sleep *)"]
COPY = "cp -r evil/. ."


@pytest.fixture
def work() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="sg-files-", dir="/var/tmp"))
    try:
        (folder / "project" / "evil").mkdir(parents=True)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _printed_hook(plan: Path, **options: str) -> dict[str, Any]:
    """The settings ``hook --print-config claude-code`` prints for ``plan``."""
    from skillgrant.gate.config import snippet

    printed, _ = snippet("claude-code", {"--plan": str(plan), **options})
    return dict(json.loads(printed))


def _enforced(work: Path, plan: Path) -> str:
    """The SKILL.md ``apply --enforce`` writes for ``plan`` (its hook as printed)."""
    from skillgrant.gate.config import command
    from skillgrant.plan.model import Plan
    from skillgrant.skillfile.builder import apply_to_text

    submitted = f"---\nname: {SKILL_NAME}\ndescription: probe\nallowed-tools: " \
                f"{', '.join(ENTRIES)}\n---\nprobe\n"
    path = work / "project" / ".claude" / "skills" / SKILL_NAME / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    text, _ = apply_to_text(submitted, Plan.load(plan), enforce=command("claude-code",
                                                                         str(plan)),
                            path=str(path))
    return text


def test_a_plan_replaced_by_a_folder_copy_stops_the_session(judge: Judge, work: Path) -> None:
    """The plan in the project; ``cp -r evil/. .`` (inside the plan's letter) would put a
    plan granting all of Bash in its place (before: it ran, and so did ``touch zz``): the
    copy is denied, and so is ``touch zz``, and the session goes on."""
    plan = work / "project" / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ENTRIES}))
    (work / "project" / "evil" / "plan.json").write_text(json.dumps({"allowed-tools": ["Bash"]}))
    text = _enforced(work, plan)
    got = run(judge, work, text, [load(), bash("echo before"), bash(COPY), bash("touch zz"),
                                  bash("echo after")], {})
    loaded, echoed, copied, touched, after = got.main
    assert loaded is not None and not loaded[0], got.main
    assert echoed is not None and not echoed[0], got.main
    # The copy writes the folder holding the plan: denied (``writers``). Had a program no
    # list knows run it, the pinned digest would deny what follows (tests/gate/
    # test_gate_files.py runs that under bash).
    assert copied is not None and denied_by_gate(copied), got.main
    assert touched is not None and denied_by_gate(touched), got.main
    assert after is not None and not after[0], got.main
    assert "zz" not in got.files


#: A hook of no skillgrant's that denies a Bash command holding ``touch`` (exit 2): what the
#: runtime does with a rewritten settings file or SKILL.md, measured apart from the gate.
STUB = ("python3 -c 'import json,sys; "
        "c=json.load(sys.stdin)[\"tool_input\"].get(\"command\",\"\"); "
        "sys.exit(2 if \"touch\" in c else 0)'")


def _stub_hooks() -> dict[str, Any]:
    return {"PreToolUse": [{"matcher": "*", "hooks": [
        {"type": "command", "command": STUB, "timeout": 30, "onFailure": "block"}]}]}


def _evil_settings(work: Path, replacement: dict[str, Any]) -> None:
    (work / "project" / "evil" / ".claude").mkdir()
    (work / "project" / "evil" / ".claude" / "settings.json").write_text(
        json.dumps(replacement))


@pytest.mark.parametrize("replacement", [{"hooks": {}}, {"disableAllHooks": True}])
def test_claude_code_reads_a_rewritten_settings_file_in_the_session(
        judge: Judge, work: Path, replacement: dict[str, Any]) -> None:
    """The runtime, measured with a stub hook in the project's ``.claude/settings.json``: a
    copy that names no settings file replaces it, and a few seconds later the hook is gone
    (``touch zz`` runs). So the gate must not let a program write that folder."""
    _evil_settings(work, replacement)
    got = run(judge, work, None, [bash("touch before"), bash(COPY), bash("sleep 3"),
                                  bash("touch zz")], {}, settings={"hooks": _stub_hooks()})
    before, copied, _, touched = got.main
    assert before is not None and before[0], got.main  # the stub denied it
    assert copied is not None and not copied[0], got.main
    settings = work / "project" / ".claude" / "settings.json"
    assert json.loads(settings.read_text()) == replacement
    assert touched is not None and not touched[0] and "zz" in got.files, got.main


@pytest.mark.parametrize("replacement", [{"hooks": {}}, {"disableAllHooks": True}])
def test_the_gate_denies_a_copy_over_its_settings(judge: Judge, work: Path,
                                                  replacement: dict[str, Any]) -> None:
    """The printed hook in the project's ``.claude/settings.json`` (the plan outside the
    project, granting ``cp``): the same copy is denied, and so is the ``touch zz`` after it."""
    plan = work / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ENTRIES}))
    _evil_settings(work, replacement)
    printed = _printed_hook(plan)
    got = run(judge, work, None, [bash("echo before"), bash(COPY), bash("sleep 3"),
                                  bash("touch zz")], {}, settings=printed)
    echoed, copied, slept, touched = got.main
    assert echoed is not None and not echoed[0], got.main
    assert copied is not None and denied_by_gate(copied), got.main
    assert slept is not None and not slept[0], got.main
    settings = work / "project" / ".claude" / "settings.json"
    assert json.loads(settings.read_text()) == printed
    assert touched is not None and denied_by_gate(touched), got.main
    assert "zz" not in got.files


def test_claude_code_keeps_a_skills_hook_when_its_file_is_rewritten(judge: Judge,
                                                                    work: Path) -> None:
    """The runtime, measured with a stub hook in the skill's frontmatter: a copy replaces the
    SKILL.md with one granting all of Bash and holding no hook; the hook the skill brought
    when it loaded stays (``touch zz`` denied). (The gate denies that copy anyway: the
    folder holds ``.claude``.)"""
    text = (f"---\nname: {SKILL_NAME}\ndescription: probe\nallowed-tools: Bash(cp *)\n"
            f"hooks: {json.dumps(_stub_hooks())}\n---\nprobe\n")
    evil = work / "project" / "evil" / ".claude" / "skills" / SKILL_NAME
    evil.mkdir(parents=True)
    (evil / "SKILL.md").write_text(f"---\nname: {SKILL_NAME}\ndescription: probe\n"
                                   "allowed-tools: Bash\n---\nprobe\n")
    got = run(judge, work, text, [load(), bash(COPY), bash("sleep 3"), bash("touch zz")], {})
    loaded, copied, _, touched = got.main
    assert loaded is not None and not loaded[0], got.main
    assert copied is not None and not copied[0], got.main
    skill = work / "project" / ".claude" / "skills" / SKILL_NAME / "SKILL.md"
    assert "hooks" not in skill.read_text(), "the copy did not replace it"
    assert touched is not None and touched[0], got.main
    assert "zz" not in got.files


def test_the_gate_denies_a_copy_over_its_settings_after_a_cd(judge: Judge, work: Path) -> None:
    """Review G-6: after ``cd out`` the hook's payload names ``project/out`` as its folder;
    the copy over ``../.claude`` is denied still, and so is ``touch zz``."""
    plan = work / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [*ENTRIES, "Bash(cd *)"]}))
    _evil_settings(work, {"hooks": {}})
    (work / "project" / "out").mkdir()
    printed = _printed_hook(plan)
    got = run(judge, work, None, [bash("cd out"), bash("cp -r ../evil/.claude/. ../.claude"),
                                  bash("sleep 3"), bash("touch zz")], {}, settings=printed)
    moved, copied, _, touched = got.main
    assert moved is not None and not moved[0], got.main
    assert copied is not None and denied_by_gate(copied), got.main
    settings = work / "project" / ".claude" / "settings.json"
    assert json.loads(settings.read_text()) == printed
    assert touched is not None and denied_by_gate(touched), got.main
    assert not (work / "project" / "out" / "zz").exists()


def _git(folder: Path, *args: str) -> None:
    import subprocess

    subprocess.run(["git", "-c", "user.email=a@b", "-c", "user.name=a", *args], cwd=folder,
                   check=True, capture_output=True, timeout=60)


def test_the_gate_denies_a_copy_into_the_hooks_folder_git_is_configured_with(
        judge: Judge, work: Path) -> None:
    """Review G-10: the project's git runs its hooks from ``.husky`` (``core.hooksPath``, as
    husky sets it); a copy of a hook there is denied, and ``git commit`` after it runs none
    (``zz`` is not made)."""
    plan = work / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [*ENTRIES, "Bash(git commit *)"]}))
    project = work / "project"
    _git(project, "init", "-q")
    for key, value in (("core.hooksPath", ".husky"), ("user.email", "a@b"), ("user.name", "a")):
        _git(project, "config", key, value)
    (project / ".husky").mkdir()
    hook = project / "evil" / "pre-commit"
    hook.write_text("#!/bin/sh\ntouch zz\n")
    hook.chmod(0o755)
    got = run(judge, work, None, [bash("cp evil/pre-commit .husky/"),
                                  bash("git commit --allow-empty -qm x"), bash("echo after")],
              {}, settings=_printed_hook(plan))
    copied, committed, echoed = got.main
    assert copied is not None and denied_by_gate(copied), got.main
    assert committed is not None and not committed[0], got.main
    assert echoed is not None and not echoed[0], got.main
    assert not (project / ".husky" / "pre-commit").exists()
    assert "zz" not in got.files


def test_the_gate_denies_a_copy_over_a_linked_worktrees_main_settings(judge: Judge,
                                                                      work: Path) -> None:
    """Review G-12: the session runs in a linked worktree (``git worktree add``); Claude Code
    reads the main checkout's ``.claude/settings.local.json``; the copy of a
    ``disableAllHooks`` there is denied, and so is ``touch zz`` after it."""
    plan = work / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ENTRIES}))
    main, project = work / "main", work / "project"
    shutil.rmtree(project)
    main.mkdir()
    _git(main, "init", "-q")
    _git(main, "commit", "-q", "--allow-empty", "-m", "root")
    _git(main, "worktree", "add", "-q", str(project))
    (project / "evil" / "c").mkdir(parents=True)
    (project / "evil" / "c" / "settings.local.json").write_text('{"disableAllHooks": true}')
    got = run(judge, work, None, [bash("echo before"), bash("cp -r evil/c/. ../main/.claude"),
                                  bash("sleep 3"), bash("touch zz")], {},
              settings=_printed_hook(plan))
    echoed, copied, _, touched = got.main
    assert echoed is not None and not echoed[0], got.main
    assert copied is not None and denied_by_gate(copied), got.main
    assert not (main / ".claude" / "settings.local.json").exists()
    assert touched is not None and denied_by_gate(touched), got.main
    assert "zz" not in got.files
