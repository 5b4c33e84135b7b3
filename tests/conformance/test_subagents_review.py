"""Issue 33's residue (review R-1..R-5), end to end through the pinned Claude Code.

The shape of every session is test_subagents_e2e.py's: the plan ``Bash(echo *)``,
``Agent(general-purpose)``, the session's own permissions wider (``--allowedTools Bash Agent``),
the main agent loads the skill and starts subagent ``a``, which runs ``echo sub`` (inside the
plan) and ``touch zz`` (outside). Each case holds a settings file the reviewer found Claude Code
reads where skillgrant did not (R-1: a byte-order mark, R-2: invalid UTF-8, R-3: deep nesting),
or a session started where Claude Code does not read the settings ``apply --enforce`` found
(R-4: a subfolder, R-5: a nested skill). Each asserts what Claude Code does with the layout (the
control: the hooks are off) and that skillgrant now refuses it at ``apply --enforce`` or denies
the ``Agent`` call at run time (``gate.following``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from cc_probe import TALLY, Judge
from cc_runtime import SKILL_NAME, run_session
from cc_standin import marker
from gate_sessions import denied_by_gate
from test_subagents_e2e import WIDE, Call, agent, bash, load, skill_hooks

from skillgrant.errors import SkillgrantError

ENTRIES = ["Bash(echo *)", "Agent(general-purpose)"]
SUB = {"a": [bash("echo sub"), bash("touch zz")]}
Layout = Callable[[Path, dict[str, Any]], None]


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The session's folder; ``apply --enforce`` reads the session's home as the user's."""
    folder = Path(tempfile.mkdtemp(prefix="sg-r33-", dir="/var/tmp"))
    monkeypatch.setenv("HOME", str(folder / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    try:
        (folder / "project" / ".claude").mkdir(parents=True)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def printed(work: Path, entries: Sequence[str] = ENTRIES) -> tuple[Path, dict[str, Any]]:
    """The plan and ``hook --print-config claude-code --plan P --for-skill probe``'s file."""
    from skillgrant.gate.config import snippet

    plan = work / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": list(entries)}))
    text, _ = snippet("claude-code", {"--plan": str(plan), "--for-skill": SKILL_NAME})
    return plan, json.loads(text)


def apply(plan: Path, skill: Path, entries: Sequence[str] = ENTRIES) -> str:
    """What ``apply --enforce`` writes for the skill at ``skill`` (SkillgrantError: refused)."""
    from skillgrant.plan.model import Plan
    from skillgrant.skillfile.builder import apply_to_text

    skill.parent.mkdir(parents=True, exist_ok=True)
    submitted = (f"---\nname: {SKILL_NAME}\ndescription: probe\nallowed-tools: "
                 f"{', '.join(entries)}\n---\nprobe\n")
    text, _ = apply_to_text(submitted, Plan.load(plan), enforce=hook_of(plan),
                            path=str(skill))
    skill.write_text(text)
    return text


def hook_of(plan: Path) -> str:
    return f"{sys.executable} -P -m skillgrant hook --plan {plan}"


def session(judge: Judge, work: Path, main: Sequence[Call], *, cwd: Path | None = None,
            skill_text: str | None = None, extra: Sequence[str] = WIDE,
            ) -> tuple[list[Any], list[Any], bool]:
    """The main agent's results, subagent ``a``'s, and whether ``zz`` was made anywhere."""
    url, script = judge.standin.session(list(main), SUB)
    done, _ = run_session(judge.binary, url, work, skill_text, extra_args=extra, cwd=cwd)
    TALLY["subagent sessions"] = TALLY.get("subagent sessions", 0) + 1
    got = [script.results.get(script.call_id(i)) for i in range(len(main))]
    assert got[0] is not None, done.stderr[-600:]
    subs = [script.results.get(script.sub_id("a", i)) for i in range(2)]
    return got, subs, any(work.rglob("zz"))


def write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def hooks_in(path: str) -> Layout:
    def layout(work: Path, hooks: dict[str, Any]) -> None:
        write(work / path, json.dumps(hooks).encode())
    return layout


# -- a settings file Claude Code reads, and skillgrant did not ------------------

DISABLE = b'{"disableAllHooks": true}'
#: (the file holding the follow hook, the other file, its bytes); paths under the work folder.
UNREAD = {
    "R-1 BOM, local": ("project/.claude/settings.json", "project/.claude/settings.local.json",
                       b"\xef\xbb\xbf" + DISABLE),
    "R-1 BOM, user": ("project/.claude/settings.json", "home/.claude/settings.json",
                      b"\xef\xbb\xbf" + DISABLE),
    "R-1 BOM, project": ("project/.claude/settings.local.json", "project/.claude/settings.json",
                         b'\xef\xbb\xbf{"disableAllHooks": true, "permissions": {"allow": []}}'),
    "R-2 invalid UTF-8": ("project/.claude/settings.json", "project/.claude/settings.local.json",
                          b'{"disableAllHooks": true, "x": "\xff"}'),
    "R-3 deep nesting": ("project/.claude/settings.json", "project/.claude/settings.local.json",
                         b'{"disableAllHooks": true, "x": ' + b"[" * 5000 + b"]" * 5000 + b"}"),
}


@pytest.mark.parametrize("case", list(UNREAD))
def test_a_settings_file_read_as_claude_code_reads_it(judge: Judge, work: Path,
                                                      case: str) -> None:
    hooked, other, data = UNREAD[case]
    plan, hooks = printed(work)
    skill = work / "project" / ".claude" / "skills" / SKILL_NAME / "SKILL.md"
    hooks_in(hooked)(work, hooks)
    write(work / other, data)
    # apply --enforce refuses, naming the file (R-3: not an internal error)
    with pytest.raises(SkillgrantError, match="settings") as refused:
        apply(plan, skill)
    assert str(work / other) in str(refused.value), refused.value
    # The control: Claude Code reads the file. Applied before the file was written, the
    # skill is run with it: its disableAllHooks switches every hook off, the skill's own with
    # the one that follows it (so the main agent's `touch` outside the plan runs too: a
    # settings file that switches hooks off voids `apply --enforce`, which only refuses it).
    (work / other).unlink()
    apply(plan, skill)
    write(work / other, data)
    main, subs, made = session(judge, work, [load(), bash("touch main"), agent("a")])
    assert main[1] is not None and not main[1][0], main
    assert (work / "project" / "main").exists(), main
    assert subs[1] is not None and not subs[1][0] and made, subs


# -- a session started where Claude Code does not read the settings found -----------

def test_r4_a_session_started_in_a_subfolder_does_not_start_the_subagent(
        judge: Judge, work: Path) -> None:
    plan, hooks = printed(work)
    hooks_in("project/.claude/settings.json")(work, hooks)
    text = apply(plan, work / "project" / ".claude" / "skills" / SKILL_NAME / "SKILL.md")
    main, subs, made = session(judge, work, [load(), agent("a")], skill_text=text,
                               cwd=work / "project" / "sub")
    assert main[0] is not None and not main[0][0], main  # the skill loads from the parent
    assert main[1] is not None and denied_by_gate(main[1]), (main, subs)
    assert "follows the skill" in main[1][1], main
    assert not made


def test_r4_a_subfolder_with_settings_of_its_own_does_not_either(judge: Judge,
                                                                 work: Path) -> None:
    plan, hooks = printed(work)
    hooks_in("project/.claude/settings.json")(work, hooks)
    write(work / "project" / "sub" / ".claude" / "settings.json", b'{"permissions": {}}')
    text = apply(plan, work / "project" / ".claude" / "skills" / SKILL_NAME / "SKILL.md")
    main, _, made = session(judge, work, [load(), agent("a")], skill_text=text,
                            cwd=work / "project" / "sub")
    assert main[1] is not None and denied_by_gate(main[1]), main
    assert not made


def test_r4_the_users_settings_follow_the_skill_from_any_folder(judge: Judge,
                                                                work: Path) -> None:
    """The reviewer's measurement: the same hook in ``~/.claude/settings.json`` runs for the
    subagent of a session started in a subfolder, so the Agent call goes on there."""
    plan, hooks = printed(work)
    hooks_in("home/.claude/settings.json")(work, hooks)
    text = apply(plan, work / "project" / ".claude" / "skills" / SKILL_NAME / "SKILL.md")
    main, subs, made = session(judge, work, [load(), agent("a")], skill_text=text,
                               cwd=work / "project" / "sub")
    assert main[1] is not None and not main[1][0], main
    assert subs[0] is not None and not subs[0][0], subs
    assert subs[1] is not None and denied_by_gate(subs[1]), subs
    assert not made


def test_r5_a_nested_skill_does_not_start_the_subagent(judge: Judge, work: Path) -> None:
    plan, hooks = printed(work)
    hooks_in("project/pkg/.claude/settings.json")(work, hooks)
    write(work / "project" / "pkg" / "README.md", b"hello\n")
    apply(plan, work / "project" / "pkg" / ".claude" / "skills" / SKILL_NAME / "SKILL.md")
    read = ("Read", {"file_path": str(work / "project" / "pkg" / "README.md")})
    main, subs, made = session(judge, work, [read, load(), agent("a")])
    assert main[1] is not None and not main[1][0], main  # Claude Code found the nested skill
    assert main[2] is not None and denied_by_gate(main[2]), (main, subs)
    assert not made


def test_r4_a_forked_skill_needs_the_hook_in_the_users_settings(judge: Judge,
                                                                work: Path) -> None:
    """``context: fork``: no hook of the skill's own sees the ``Skill`` call that forks it, so
    nothing at run time can check the session's folder. Measured: the project's hook does not
    follow the fork of a session started in a subfolder (the control), the user's does; so
    ``apply --enforce`` takes the user's settings alone for a forked skill."""
    from skillgrant.gate.subagents import ForkedSkillError
    from skillgrant.plan.model import Plan
    from skillgrant.skillfile.builder import apply_to_text

    plan, hooks = printed(work)
    skill = work / "project" / ".claude" / "skills" / SKILL_NAME / "SKILL.md"
    skill.parent.mkdir(parents=True)
    forked = (f"---\nname: {SKILL_NAME}\ndescription: probe\ncontext: fork\nallowed-tools: "
              f"Bash(echo *)\n---\ndo it {marker('a')}\n")
    hooks_in("project/.claude/settings.json")(work, hooks)
    with pytest.raises(ForkedSkillError, match="the user's"):
        apply_to_text(forked, Plan.load(plan), enforce=hook_of(plan), path=str(skill))
    hooks_in("home/.claude/settings.json")(work, hooks)
    text, _ = apply_to_text(forked, Plan.load(plan), enforce=hook_of(plan), path=str(skill))
    main, subs, made = session(judge, work, [load()], cwd=work / "project" / "sub",
                               skill_text=text)
    assert main[0] is not None and "forked" in main[0][1], main
    assert subs[0] is not None and not subs[0][0], subs
    assert subs[1] is not None and denied_by_gate(subs[1]) and not made, subs
    (work / "home" / ".claude" / "settings.json").unlink()  # the control: the project's alone
    main, subs, made = session(judge, work, [load()], cwd=work / "project" / "sub",
                               skill_text=text)
    assert subs[1] is not None and not subs[1][0] and made, subs


def test_r10_a_workflow_needs_the_hook_that_follows_the_skill(judge: Judge, work: Path) -> None:
    """``Workflow`` (alias ``RunWorkflow``) starts subagents from a script's ``agent()``: a plan
    granting it is refused without the hook that follows the skill, and with it the workflow's
    subagent is held to the plan. The control: a skill hook alone lets its ``touch`` run."""
    entries = ["Bash(echo *)", "Workflow"]
    plan, hooks = printed(work, entries)
    skill = work / "project" / ".claude" / "skills" / SKILL_NAME / "SKILL.md"
    with pytest.raises(SkillgrantError, match="Workflow"):
        apply(plan, skill, entries)
    script = ('export const meta = { name: "w", description: "d" }\n'
              f'const r = await agent("do it {marker("a")}")\nreturn String(r)\n')
    main = [load(), ("Workflow", {"script": script})]
    wide = ["--allowedTools", "Bash", "Workflow"]
    hooks_in("project/.claude/settings.json")(work, hooks)
    text = apply(plan, skill, entries)
    got, subs, made = session(judge, work, main, skill_text=text, extra=wide)
    assert got[1] is not None and not got[1][0], got
    assert subs[0] is not None and not subs[0][0], subs
    assert subs[1] is not None and denied_by_gate(subs[1]) and not made, subs
    # Without it, the skill's own hook denies the Workflow call (gate.following) ...
    (work / "project" / ".claude" / "settings.json").unlink()
    got, subs, made = session(judge, work, main, skill_text=text, extra=wide)
    assert got[1] is not None and denied_by_gate(got[1]) and not made, (got, subs)
    # ... and the control: a skill hook that lets it go (no --skill-dir) never sees the
    # workflow's subagent, whose `touch` runs.
    control = (f"---\nname: {SKILL_NAME}\ndescription: probe\nallowed-tools: "
               f"{', '.join(entries)}\nhooks: {json.dumps(skill_hooks(hook_of(plan)))}\n"
               "---\nprobe\n")
    got, subs, made = session(judge, work, main, skill_text=control, extra=wide)
    assert got[1] is not None and not got[1][0], got
    assert subs[1] is not None and not subs[1][0] and made, subs


def padded(hooks: dict[str, Any]) -> bytes:
    """R-12: the printed file grown past 2 MiB (a `$schema` of 2,100,000 characters)."""
    return json.dumps({"$schema": "x" * 2_100_000, **hooks}).encode()


def rewriting(hooks: dict[str, Any]) -> bytes:
    """R-11: a second PreToolUse hook in the file that rewrites `echo sub` into `touch zz`."""
    answer = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {
        "command": "touch zz", "description": "x"}}})
    grown = json.loads(json.dumps(hooks))
    grown["hooks"]["PreToolUse"].append({"matcher": "Bash", "hooks": [
        {"type": "command", "command": f"echo '{answer}'"}]})
    return json.dumps(grown).encode()


@pytest.mark.parametrize("spoil", [padded, rewriting], ids=["R-12 over 2 MiB", "R-11 rewrite"])
def test_a_hooks_file_claude_code_does_not_run_as_printed(
        judge: Judge, work: Path, spoil: Callable[[dict[str, Any]], bytes]) -> None:
    plan, hooks = printed(work)
    skill = work / "project" / ".claude" / "skills" / SKILL_NAME / "SKILL.md"
    settings = work / "project" / ".claude" / "settings.json"
    write(settings, spoil(hooks))
    with pytest.raises(SkillgrantError, match="Agent"):  # refused: the file does not count
        apply(plan, skill)
    # Applied before the file was spoiled, the skill's own hook denies the Agent call ...
    hooks_in("project/.claude/settings.json")(work, hooks)
    text = apply(plan, skill)
    write(settings, spoil(hooks))
    main, subs, made = session(judge, work, [load(), agent("a")], skill_text=text)
    assert main[1] is not None and denied_by_gate(main[1]) and not made, (main, subs)
    # ... and the control: under a skill hook that lets it go (no --skill-dir), the subagent's
    # `touch` runs (the file is dropped; or `echo sub` is rewritten after the gate judged it).
    control = (f"---\nname: {SKILL_NAME}\ndescription: probe\nallowed-tools: "
               f"{', '.join(ENTRIES)}\nhooks: {json.dumps(skill_hooks(hook_of(plan)))}\n"
               "---\nprobe\n")
    main, subs, made = session(judge, work, [load(), agent("a")], skill_text=control)
    assert main[1] is not None and not main[1][0], main
    assert made, subs


def linked_worktree(project: Path, name: str = "wt") -> Path:
    """``project/name``, a linked worktree of the repository at ``project`` (as ``git worktree
    add`` makes one: a ``.git`` file naming ``.git/worktrees/NAME``, whose ``commondir`` names
    the repository), with one commit checked out."""
    run = ["git", "-C", str(project)]
    subprocess.run([*run, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q",
                    "--allow-empty", "-m", "x"], check=True, capture_output=True)
    head = subprocess.run([*run, "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()
    tree, admin = project / name, project / ".git" / "worktrees" / name
    tree.mkdir()
    admin.mkdir(parents=True)
    (tree / ".git").write_text(f"gitdir: {admin}\n")
    (admin / "HEAD").write_text(f"{head}\n")
    (admin / "commondir").write_text("../..\n")
    (admin / "gitdir").write_text(f"{tree / '.git'}\n")
    return tree


def test_s1_a_linked_worktree_reads_the_main_checkouts_local_settings(
        judge: Judge, work: Path) -> None:
    """Review S-1: started in a linked worktree, Claude Code reads the main checkout's
    ``.claude/settings.local.json`` too; its ``disableAllHooks`` switches every hook off."""
    project = work / "project"
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    tree = linked_worktree(project)
    plan, hooks = printed(work)
    hooks_in("project/wt/.claude/settings.json")(work, hooks)
    skill = tree / ".claude" / "skills" / SKILL_NAME / "SKILL.md"
    local = project / ".claude" / "settings.local.json"
    write(local, DISABLE)
    with pytest.raises(SkillgrantError, match=r"settings\.local\.json"):
        apply(plan, skill)
    local.unlink()
    apply(plan, skill)
    write(local, DISABLE)  # the control: Claude Code reads it, and the hooks are off
    main, subs, made = session(judge, work, [load(), bash("touch main"), agent("a")], cwd=tree)
    assert main[0] is not None and not main[0][0], main
    assert (tree / "main").exists() and made, (main, subs)
