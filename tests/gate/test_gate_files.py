"""The gate's own files against what a call can do to them (issue 29, reviews W1c, W2, A1b,
S2e), judged by running the call under real bash and then the printed hook command.

* the plan: the printed hook pins its digest (``--plan-sha256``); a plan replaced by any program
  (here ``cp -r evil/. .`` and ``tar -x``, which name no plan file) makes it deny every call;
* the audit log: never written through a folder on its way that became a symbolic link;
End to end through Claude Code: tests/conformance/test_gate_files_e2e.py.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest
from files_fixture import gated_project

from skillgrant.gate.config import snippet

#: Each case runs a program under real bash and then the printed hook, a process a case, as
#: the reviews' modules do: CI's slow step runs them (.ci/steps/30-slow.sh), and
#: tests/conformance/test_gate_files_e2e.py runs the classes through Claude Code.
pytestmark = pytest.mark.slow

ENTRIES = ["Bash(echo *)", "Bash(cp *)", "Bash(tar *)"]


def payload(command: str, cwd: Path) -> bytes:
    return json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "cwd": str(cwd),
                       "tool_name": "Bash", "tool_input": {"command": command}}).encode()


def printed_command(plan: Path, **options: str) -> str:
    """The hook command ``hook --print-config claude-code`` prints for ``plan``."""
    text, _ = snippet("claude-code", {"--plan": str(plan), **options})
    hooks: list[dict[str, Any]] = json.loads(text)["hooks"]["PreToolUse"][0]["hooks"]
    return str(hooks[0]["command"])


def run_hook(command: str, call: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """The printed hook, run as the runtime runs it (``/bin/sh -c``) from ``cwd``."""
    return subprocess.run(["/bin/sh", "-c", command], input=payload(call, cwd), cwd=cwd,
                          capture_output=True, timeout=60, check=False)


def in_bash(command: str, cwd: Path) -> None:
    subprocess.run(["bash", "-c", command], cwd=cwd, check=True, timeout=60)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / "evil").mkdir(parents=True)
    (folder / "plan.json").write_text(json.dumps({"allowed-tools": ENTRIES}))
    (folder / "evil" / "plan.json").write_text(json.dumps({"allowed-tools": ["Bash"]}))
    return folder


@pytest.mark.parametrize("copy", ["cp -r evil/. .", "cp -rT evil .", "tar -xf evil.tar",
                                  "python3 -c 'import shutil; shutil.copytree(\"evil\", \".\", "
                                  "dirs_exist_ok=True)'"])
def test_a_plan_replaced_by_a_program_naming_no_plan_denies_every_call(
        project: Path, copy: str) -> None:
    """Review W1c: the copy names no plan file; bash runs it, the plan now grants all of
    Bash, and the hook denies the next call, and the one after."""
    with tarfile.open(project / "evil.tar", "w") as archive:
        archive.add(project / "evil" / "plan.json", arcname="plan.json")
    hook = printed_command(project / "plan.json")
    assert "--plan-sha256" in shlex.split(hook)
    assert run_hook(hook, "echo before", project).returncode == 0
    # The copy itself is denied too (it writes the folder holding the plan: ``writers``);
    # bash runs it here as it would run a program no list knows.
    in_bash(copy, project)
    assert json.loads((project / "plan.json").read_text()) == {"allowed-tools": ["Bash"]}
    for call in ("touch zz", "echo after"):
        done = run_hook(hook, call, project)
        assert done.returncode == 2, done
        assert b"holds another plan" in done.stderr, done.stderr


def test_the_plan_approved_again_is_enforced_again(project: Path) -> None:
    """The person changes the plan and prints the hook again: the new digest is pinned."""
    (project / "plan.json").write_text(json.dumps({"allowed-tools": ["Bash(touch *)"]}))
    hook = printed_command(project / "plan.json")
    assert run_hook(hook, "touch zz", project).returncode == 0
    assert run_hook(hook, "echo x", project).returncode == 2


@pytest.mark.parametrize("pin", ["0" * 63, "X" * 64, "A" * 64])
def test_a_malformed_pin_denies(project: Path, pin: str) -> None:
    hook = printed_command(project / "plan.json")
    words = shlex.split(hook)
    words[words.index("--plan-sha256") + 1] = pin
    done = run_hook(shlex.join(words), "echo hi", project)
    assert done.returncode == 2 and b"--plan-sha256" in done.stderr, done


def test_the_audit_log_is_not_written_through_a_linked_folder(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Review A1b: ``--audit-log logs/audit.jsonl``; a call replaces ``logs`` with a link to
    a folder the person's shell sources (``~/.bashrc.d``): the hook denies, and writes
    nothing there."""
    (project / "logs").mkdir()
    monkeypatch.chdir(project)  # the log named relative to the project, as the docs do
    hook = printed_command(project / "plan.json", **{"--audit-log": "logs/audit.jsonl"})
    assert run_hook(hook, "echo hi", project).returncode == 0
    assert (project / "logs" / "audit.jsonl").exists()
    sourced = tmp_path / "bashrc.d"
    sourced.mkdir()
    (project / "logs" / "audit.jsonl").unlink()
    (project / "logs").rmdir()
    (project / "logs").symlink_to(sourced)
    done = run_hook(hook, 'echo "$(touch PWNED)"', project)
    assert done.returncode == 2 and b"symbolic link" in done.stderr, done
    assert list(sourced.iterdir()) == []


def test_the_printed_audit_log_names_its_folders_real_path(project: Path,
                                                           tmp_path: Path) -> None:
    """A link on the way when the hook is printed is resolved then, so the hook still
    writes."""
    (tmp_path / "real").mkdir()
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    hook = printed_command(project / "plan.json",
                           **{"--audit-log": str(tmp_path / "alias" / "audit.jsonl")})
    assert str(tmp_path / "real" / "audit.jsonl") in shlex.split(hook)
    assert run_hook(hook, "echo hi", project).returncode == 0
    assert (tmp_path / "real" / "audit.jsonl").exists()


# --- programs that write a folder: the settings holding the hook, the installation ---------

WRITERS = ["Bash(cp *)", "Bash(mv *)", "Bash(rm *)", "Bash(tar *)", "Bash(unzip *)",
           "Bash(git *)", "Bash(echo *)", "Bash(cat *)", "Bash(find *)", "Bash(sed *)",
           "Bash(perl *)"]
#: Each writes the project's .claude/settings.json (Claude Code reads it again in the session:
#: tests/conformance/test_gate_files_e2e.py) without naming it.
REWRITES = ["cp -r evil/. .", "cp -rT evil .", "cp -a evil/.claude .", "tar -xf evil.tar",
            "unzip -o evil.zip", "git checkout rev -- .", "git checkout -f rev",
            "git stash pop", "git restore --source rev .", "git reset --hard rev",
            "git merge -q -X theirs rev", "rm -rf .claude", "find . -name settings.json -delete",
            "sed -i s/PreToolUse/Nothing/ .claude/*", "mv .claude old", "cp -r evil/. {x,.}",
            "git restore --source rev -- :/", "perl -pi.bak -e s/PreToolUse/X/ .claude/*",
            # the review of this branch (G-1, G-2, G-3)
            "cp -rt. evil/.", "cp -r -t.claude evil/.claude/.", "tar --extr -f evil.tar",
            "tar --ge -f evil.tar", "find -type f -delete", "find -name x -o -delete",
            # a here-string or here-document is stdin, no word of cp's (s48-greview G1)
            *(f"{pre}cp evil/.claude/settings.json .claude/settings.json{post}" for pre, post in (
                ("", "<<<x"), ("", " <<< x"), ("", ' <<< "x"'), ("", " <<'x'\nhi\nx\n"),
                ("", "<<<x <<<y"), ("echo | ", "<<<x"), ("", "<<<-"), ("", "<<x\nhi\nx\n")))]
#: Inside the same plan and bash's reading, and nothing of the gate's is written.
KEPT = ["git status", "git add .", "git commit -qm x", "git log --oneline",
        "git diff HEAD", "cp notes.txt copy.txt", "tar -czf out.tgz notes.txt",
        "echo hi", "git checkout -- notes.txt", "find . -name notes.txt",
        "find out -name x -delete", "tar --create -f out.tar notes.txt", "tar -tf evil.tar"]


@pytest.fixture
def claude_project(tmp_path: Path) -> Path:
    """A project whose .claude/settings.json holds the gate's hook (``files_fixture``)."""
    gated_project(tmp_path / "project", WRITERS)
    return tmp_path / "project"


def _settings_hook(project: Path) -> str:
    hook = json.loads((project / ".claude" / "settings.json").read_text())
    return str(hook["hooks"]["PreToolUse"][0]["hooks"][0]["command"])


def test_each_rewrite_is_real_under_bash(claude_project: Path, tmp_path: Path) -> None:
    """The premise: bash runs each command, and the settings no longer hold the hook."""
    for i, command in enumerate(REWRITES):
        scratch = tmp_path / f"scratch{i}"
        shutil.copytree(claude_project, scratch, symlinks=True)
        subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60)
        settings = scratch / ".claude" / "settings.json"
        assert not settings.exists() or "PreToolUse" not in settings.read_text(), command


@pytest.mark.parametrize("command", REWRITES)
def test_a_program_writing_a_folder_that_holds_the_settings_is_denied(
        claude_project: Path, command: str) -> None:
    done = run_hook(_settings_hook(claude_project), command, claude_project)
    assert done.returncode == 2, (command, done)
    assert b"may be written by it" in done.stderr or b"options" in done.stderr or \
        b"a pattern" in done.stderr, done.stderr  # the options' allow-list (optables) first


@pytest.mark.parametrize("command", KEPT)
def test_a_program_writing_none_of_the_gates_files_is_covered(
        claude_project: Path, command: str) -> None:
    done = run_hook(_settings_hook(claude_project), command, claude_project)
    assert done.returncode == 0, (command, done)


def test_a_file_in_the_installation_is_not_written_by_a_program(tmp_path: Path) -> None:
    """Review W2: the hook's installation is a project's virtual environment; ``cp`` names a
    file in it (Python runs a ``skillgrant.py`` beside the console script first)."""
    from skillgrant.gate.call import check_call
    from skillgrant.gate.guardedset import GUARDED
    from skillgrant.gate.hook import load_plan

    (tmp_path / "plan.json").write_text(json.dumps({"allowed-tools": WRITERS}))
    plan = load_plan(str(tmp_path / "plan.json"), "auto", {}).plan
    venv = tmp_path / "project" / ".venv"
    (venv / "bin").mkdir(parents=True)
    token = GUARDED.set(((str(tmp_path / "plan.json"), False), (str(venv), True)))
    try:
        for command in ("cp /tmp/evil.py .venv/bin/skillgrant.py", "cp -r evil/. .venv",
                        "cp -r evil/. .", "tar -xf evil.tar", "rm -rf .venv/bin"):
            got = check_call("Bash", {"command": command}, plan, cwd=str(tmp_path / "project"))
            assert got.status == "unknown", (command, got)
        got = check_call("Bash", {"command": ".venv/bin/python -V && cat .venv/pyvenv.cfg"},
                         plan, cwd=str(tmp_path / "project"))
        assert got.status == "not_covered", got  # the plan has no python; cat only reads
        got = check_call("Bash", {"command": "cat .venv/pyvenv.cfg"}, plan,
                         cwd=str(tmp_path / "project"))
        assert got.status == "covered", got
    finally:
        GUARDED.reset(token)


@pytest.mark.parametrize("name", ["skillgrant", "python3"])
def test_a_stub_named_like_the_hooks_program_does_not_follow_the_skill(
        tmp_path: Path, name: str) -> None:
    """Review S2e: the settings hook that follows a skill into its subagents must run this
    installation, not any executable of the same name (a stub exiting 0 decides nothing)."""
    from skillgrant.gate.subagents import enforce_command

    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(echo *)", "Agent"]}))
    stub = tmp_path / "stub" / name
    stub.parent.mkdir()
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    project = tmp_path / "project"
    skill = project / ".claude" / "skills" / "probe" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    printed = json.loads(snippet("claude-code", {"--plan": str(plan),
                                                 "--for-skill": "probe"})[0])
    settings = project / ".claude" / "settings.json"
    settings.write_text(json.dumps(printed))
    own = f"skillgrant hook --plan {plan}"
    assert enforce_command(own, "probe", ["Agent"], str(skill)) == own  # the real one counts
    words = shlex.split(printed["hooks"]["PreToolUse"][0]["hooks"][0]["command"])
    start = words.index("hook") if name == "skillgrant" else 1
    printed["hooks"]["PreToolUse"][0]["hooks"][0]["command"] = shlex.join(
        [str(stub), *words[start:]])
    settings.write_text(json.dumps(printed))
    with pytest.raises(ValueError, match="--for-skill probe"):
        enforce_command(own, "probe", ["Agent"], str(skill))


# --- T2b: a star after a folder spans words ---------------------------------------------------

T2B = ["rm -rf ./build/x ../victim", "rm -rf ./build/x {root}/victim", "rm -rf ./build/x victim",
       "tee ./out/x ../victim", "tee ./out/x {root}/victim", "tee ./out/x ~/victim",
       "tee ./out/x --output-error=warn {root}/victim"]


@pytest.mark.parametrize("command", T2B)
def test_a_word_after_the_folder_a_writers_star_follows_is_unknown(tmp_path: Path,
                                                                   command: str) -> None:
    """Review T2b: under ``Bash(rm -rf ./build/*)`` and ``Bash(tee ./out/*)`` a second word
    lies outside the folder; bash (with ``HOME`` in the test's folder) writes or removes
    the victim there."""
    from skillgrant.gate.call import check_call
    from skillgrant.gate.hook import load_plan

    root, project = tmp_path, tmp_path / "project"
    (project / "build" / "x").mkdir(parents=True)
    (project / "out").mkdir()
    (project / "victim").write_text("keep\n")
    (root / "victim").write_text("keep\n")
    (root / "plan.json").write_text(json.dumps(
        {"allowed-tools": ["Bash(rm -rf ./build/*)", "Bash(tee ./out/*)"]}))
    plan = load_plan(str(root / "plan.json"), "auto", {}).plan
    text = command.format(root=root)
    assert check_call("Bash", {"command": text}, plan, cwd=str(project)).status == "unknown"
    for kept in ("rm -rf ./build/x", "rm -rf ./build/x ./build/y", "tee ./out/x ./out/y",
                 "tee ./out/x -a"):
        assert check_call("Bash", {"command": kept}, plan, cwd=str(project)).covered, kept
    before = {p: p.read_text() for p in (root / "victim", project / "victim")}
    subprocess.run(["bash", "-c", text], cwd=project, input=b"pwned\n", capture_output=True,
                   env={**os.environ, "HOME": str(root)}, timeout=60)
    after = {p: p.read_text() if p.exists() else None for p in before}
    assert after != before, "bash left the victims alone: the case proves nothing"


def test_a_plan_that_cannot_be_read_pins_what_no_plan_holds(tmp_path: Path) -> None:
    """``command`` for a plan file not there (a library caller; the CLI loads it first): the
    hook it makes denies every call, even once a file appears there."""
    from skillgrant.gate.config import UNREADABLE_PIN, command

    plan = tmp_path / "later.json"
    made = command("claude-code", str(plan))
    assert shlex.split(made)[-1] == UNREADABLE_PIN
    plan.write_text(json.dumps({"allowed-tools": ["Bash"]}))
    done = run_hook(made, "echo hi", tmp_path)
    assert done.returncode == 2 and b"holds another plan" in done.stderr, done


# --- the review of this branch: G-4 (a name spelled in escapes), G-6 (after a `cd`) ---------

def _hook_gone(settings: Path) -> bool:
    """Whether Claude Code would find no PreToolUse hook in ``settings`` (gone, not JSON)."""
    try:
        return "PreToolUse" not in json.loads(settings.read_text()).get("hooks", {})
    except (OSError, ValueError, AttributeError):
        return True


G4 = ["git log -1 --pretty=tformat:{} --output=$'.claude/\\x73ettings.json'",
      "git diff --output=$'.claude/\\x73ettings.json'",
      "sed -n $'1s/.*/{}/w .claude/\\x73ettings.json' notes.txt",
      "sort -o $'.claude/\\x73ettings.json' notes.txt",
      "uniq notes.txt $'.claude/\\x73ettings.json'",
      'sort -o "$(printf .claude/settings.json)" notes.txt']


@pytest.mark.parametrize("command", G4)
def test_a_name_spelled_in_escapes_or_made_by_a_program_is_unknown(
        tmp_path: Path, command: str) -> None:
    """Review G-4: ANSI-C quoting spells the settings' name without its letters; bash writes
    the file; the gate says unknown (the plan names each program with a star)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(git *)", "Bash(sed *)", "Bash(sort *)", "Bash(uniq *)",
                            "Bash(printf *)"])
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60)
    assert _hook_gone(scratch / ".claude" / "settings.json"), command
    done = run_hook(_settings_hook(project), command, project)
    assert done.returncode == 2, (command, done)


def test_the_projects_settings_stay_guarded_after_a_cd(tmp_path: Path) -> None:
    """Review G-6: the Bash tool's folder is a subfolder (the payload's cwd); the project's
    settings above it are guarded still."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(echo *)"])
    done = run_hook(_settings_hook(project), "cp -r ../evil/.claude/. ../.claude",
                    project / "out")
    assert done.returncode == 2, done
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", "cp -r ../evil/.claude/. ../.claude"], cwd=scratch / "out",
                   check=True, timeout=60)
    assert _hook_gone(scratch / ".claude" / "settings.json")
    assert run_hook(_settings_hook(project), "echo hi", project / "out").returncode == 0


@pytest.mark.parametrize(("command", "guarded"), [
    ("openssl rand -out .claude/{s,x}ettings.json 8", True), ("cp a {plan,x}.json", True),
    ("cp a pl{a,}n.json", True), ("echo {a,b}", False), ("cat notes{,.txt}", False)])
def test_a_brace_may_spell_a_guarded_name(tmp_path: Path, command: str, guarded: bool) -> None:
    """bash expands ``{s,x}ettings.json`` to ``settings.json``; the gate reads each form (a
    writer's word; ``cat`` reads a guarded file: review s44 C13)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(openssl *)", "Bash(cat *)", "Bash(echo *)", "Bash(cp *)"])
    forms = subprocess.run(["bash", "-c", "printf '%s\\n' " + command.split(" ", 1)[1]],
                           capture_output=True, text=True, check=True).stdout
    assert ("settings.json" in forms or "plan.json" in forms) == guarded, forms
    done = run_hook(_settings_hook(project), command, project)
    assert (done.returncode == 2) == guarded, (command, done)


@pytest.mark.parametrize("write", ["cp evil/gitconfig .git/config", "cp -r evil/dotgit/. .git",
                                   "cp evil/hook .git/hooks/pre-commit"])
def test_git_config_and_hooks_are_not_written(tmp_path: Path, write: str) -> None:
    """Review G-7: git runs what its repository's config (core.fsmonitor) and hooks name, under
    `git status` and `git commit`; a plain writer there is unknown. Under bash the write, then
    `git status` or `git commit`, runs a program outside the plan."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(git status)", "Bash(git commit *)"])
    evil = project / "evil"
    (evil / "hook").write_text("#!/bin/sh\ntouch zz\n")
    (evil / "hook").chmod(0o755)
    config = "[core]\n\trepositoryformatversion = 0\n\tfsmonitor = ./evil/hook\n"
    (evil / "gitconfig").write_text(config)
    (evil / "dotgit").mkdir()
    (evil / "dotgit" / "config").write_text(config)
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    then = "git status" if "config" in write or "dotgit" in write else \
        "git -c user.email=a@b -c user.name=a commit --allow-empty -qm x"
    subprocess.run(["bash", "-c", f"{write} && {then}"], cwd=scratch, capture_output=True,
                   timeout=60)
    assert (scratch / "zz").exists(), "bash ran no program: the case proves nothing"
    done = run_hook(_settings_hook(project), write, project)
    assert done.returncode == 2, (write, done)
    assert run_hook(_settings_hook(project), "git status", project).returncode == 0


@pytest.mark.parametrize("command", [
    "git restore --source=rev --pathspec-from-file=evil/list",  # G-8
    "git rm -q --pathspec-from-file=evil/list",
    "git config core.fsmonitor evil/hook",  # G-9
    "git init -q --template=evil/tpl",
    "cp -r evil/gd out/.git",  # G-15
    "sed -n '1e evil/h2' notes.txt",  # G-16
    "sed 's/.*/evil\\/h2/e' notes.txt",
    "tar -I evil/h2 -cf out/x.tar notes.txt"])
def test_the_second_review_round(tmp_path: Path, command: str) -> None:
    """Reviews G-8, G-9, G-15, G-16 of this branch: each is unknown (the plan names each
    program with a star)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(git *)", "Bash(cp *)", "Bash(sed *)", "Bash(tar *)"])
    (project / "evil" / "list").write_text(".claude/settings.json\n")
    done = run_hook(_settings_hook(project), command, project)
    assert done.returncode == 2, (command, done)
    assert run_hook(_settings_hook(project), "sed -n p notes.txt", project).returncode == 0
    assert run_hook(_settings_hook(project), "git config --get user.name", project
                    ).returncode == 0
