"""Fixes of review s45's gate holes (s45-gfix2): each case of tests/gate/test_s45_greview.py
that this branch closes, copied (the reviewer's file stays as written), plus the checks of each
fix. Real bash proves each hole in a scratch copy; the printed hook must then deny a call of
the sequence. K1 runs the pinned Claude Code."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bash_review import bash, first_denied, home_env, needs
from files_fixture import gated_project
from test_gate_files import payload
from test_s45_greview import github  # noqa: F401  (the stand-in GitHub, a fixture)

#: Real bash and fresh hook processes (or Claude Code): CI's slow step runs them, as
#: `pytest --slow -m slow` does here.
slow = pytest.mark.slow


@slow
def test_p1_npm_runs_the_package_json_of_a_folder_above_the_call(tmp_path: Path) -> None:
    """P1 (planprograms.STARTS: for the node runners ``package.json`` and ``node_modules/``
    are guarded in the call's folder only; ``.npmrc``, ``.yarnrc``, … from it up, ``^``):
    npm runs the scripts of the nearest folder above holding a ``package.json``. A session
    in ``web/src`` of the package ``web`` (started there, or moved there) is allowed ``cp
    ../../evil.json ../package.json``; the covered ``npm test`` then runs its ``test``
    script. Plan ``Bash(cp *)``, ``Bash(npm test)``."""
    needs("npm")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(npm test)"])
    src = project / "web" / "src"
    src.mkdir(parents=True)
    (project / "web" / "package.json").write_text(json.dumps(
        {"name": "x", "version": "1.0.0", "scripts": {"test": "echo ok"}}))
    (project / "evil.json").write_text(json.dumps(
        {"name": "x", "version": "1.0.0", "scripts": {"test": "touch zz"}}))
    calls = ["cp ../../evil.json ../package.json", "npm test"]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        bash(call, scratch / "web" / "src")
    assert (scratch / "web" / "zz").exists(), "npm ran no payload: the case proves nothing"
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(src)}
    assert first_denied(project, calls, env, src) is not None, \
        "the hook allows writing the package.json above the call that npm test runs"


@slow
def test_p1b_cargo_runs_the_build_script_of_the_package_above_the_call(
        tmp_path: Path) -> None:
    """P1b (the same: ``build.rs`` is guarded in the call's folder, ``^Cargo.toml`` from it
    up): cargo builds the package of the nearest ``Cargo.toml`` above, and runs its
    ``build.rs``. From ``crate/src``, ``cp ../../evil.rs ../build.rs`` is allowed; the
    covered ``cargo build`` compiles and runs it. Plan ``Bash(cp *)``, ``Bash(cargo build)``."""
    needs("cargo")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(cargo build)"])
    src = project / "crate" / "src"
    src.mkdir(parents=True)
    (project / "crate" / "Cargo.toml").write_text(
        '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
    (src / "main.rs").write_text("fn main() {}\n")
    (project / "evil.rs").write_text(
        'fn main() { std::process::Command::new("touch").arg("zz").status().unwrap(); }\n')
    calls = ["cp ../../evil.rs ../build.rs", "cargo build"]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        bash(call, scratch / "crate" / "src")
    assert (scratch / "crate" / "zz").exists(), "cargo ran no payload: the case proves nothing"
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(src)}
    assert first_denied(project, calls, env, src) is not None, \
        "the hook allows writing the build.rs above the call that cargo build runs"


@slow
def test_h1_npm_init_runs_the_users_init_module(tmp_path: Path) -> None:
    """H1 (homefiles.HOME_CODE holds ``.npmrc``, not npm's ``init-module``): ``npm init``
    loads and runs ``~/.npm-init.js`` (its ``init-module`` setting's default), ``-y`` too.
    Plan ``Bash(cp *)``, ``Bash(npm init *)``: ``cp e.js ~/.npm-init.js`` (the home spelled
    absolute) is allowed; ``npm init -y`` runs it."""
    needs("npm")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(npm init *)"])
    (project / "e.js").write_text(
        "require('child_process').execSync('touch zz'); module.exports = {}\n")
    calls = ["cp e.js {home}/.npm-init.js", "npm init -y"]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    proof = home_env(tmp_path / "proof-home")
    for call in calls:
        bash(call.format(home=proof["HOME"]), scratch, proof)
    assert (scratch / "zz").exists(), "npm ran no init module: the case proves nothing"
    env = home_env(tmp_path / "home")
    assert first_denied(project, [c.format(home=env["HOME"]) for c in calls], env) \
        is not None, "the hook allows writing ~/.npm-init.js, and the npm init that runs it"


TF_MAIN = ('terraform {\n  required_providers {\n    evil = {\n'
           '      source  = "hashicorp/evil"\n      version = "1.0.0"\n    }\n  }\n}\n')
TF_PROVIDER = ".terraform/providers/registry.terraform.io/hashicorp/evil/1.0.0/linux_amd64"


def _h1(folder: Path) -> str:
    """Terraform's ``h1:`` hash of a provider's folder (Go's dirhash.Hash1)."""
    lines = "".join(f"{hashlib.sha256(f.read_bytes()).hexdigest()}  {f.name}\n"
                    for f in sorted(folder.iterdir()))
    return "h1:" + base64.b64encode(hashlib.sha256(lines.encode()).digest()).decode()


@slow
def test_t1_terraform_validate_starts_the_providers_of_the_working_folder(
        tmp_path: Path) -> None:
    """T1 (planprograms.STARTS has no rule for terraform; homefiles guards ~/.terraformrc and
    ~/.terraform.d only): ``terraform validate`` starts each provider the configuration
    requires, from ``.terraform/providers/…`` of the working folder, once its ``h1:`` hash
    equals the one ``.terraform.lock.hcl`` records. Plan ``Bash(cp *)``, ``Bash(terraform
    validate)`` (a validator): ``cp -r evil/tf/.terraform .terraform`` and ``cp
    evil/tf/lock.hcl .terraform.lock.hcl`` are allowed; ``terraform validate`` runs the
    provider, a script of the model's."""
    needs("terraform")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(terraform validate)"])
    (project / "main.tf").write_text(TF_MAIN)
    provider = project / "evil" / "tf" / TF_PROVIDER
    provider.mkdir(parents=True)
    (provider / "terraform-provider-evil").write_text("#!/bin/sh\ntouch zz\n")
    (provider / "terraform-provider-evil").chmod(0o755)
    (project / "evil" / "tf" / "lock.hcl").write_text(
        'provider "registry.terraform.io/hashicorp/evil" {\n  version = "1.0.0"\n'
        f'  hashes = ["{_h1(provider)}"]\n}}\n')
    calls = ["cp -r evil/tf/.terraform .terraform", "cp evil/tf/lock.hcl .terraform.lock.hcl",
             "terraform validate"]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        bash(call, scratch)
    assert (scratch / "zz").exists(), "terraform started no provider: the case proves nothing"
    assert first_denied(project, calls) is not None, \
        "the hook allows planting a provider that terraform validate starts"


@slow
def test_k1_a_skill_call_runs_its_bodys_command_with_the_models_arguments(
        tmp_path: Path) -> None:
    """K1 (judge.named reads a Skill call by its name; the call's ``args`` are not judged):
    Claude Code 2.1.332 fills ``$ARGUMENTS`` in a skill's body from the Skill call's
    ``args`` and runs each ``!`cmd``` line as it loads the skill; no PreToolUse hook sees
    that command (measured: the printed hook is asked about the Skill call alone). With
    ``other`` (``!`echo $ARGUMENTS```, allowed-tools ``Bash(echo *)``) in the project and a
    plan of ``Skill(other)``, the call ``Skill(other, args="hi; touch zz")`` runs ``touch
    zz`` once the session's own permissions allow Bash (only the gate stands in the way, as
    in tests/conformance/test_subagents_e2e.py). Measured with the pinned runtime."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))
    from cc_runtime import binary_path, run_session
    from cc_standin import StandIn

    binary = binary_path()
    if not binary.exists():
        pytest.skip("the pinned Claude Code is not installed (cc_runtime.py install)")
    work = tmp_path / "work"
    project = work / "project"
    gated_project(project, ["Skill(other)"])
    skill = project / ".claude" / "skills" / "other"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: other\ndescription: echo things\n"
                                    "allowed-tools: Bash(echo *)\n---\n"
                                    "Result: !`echo $ARGUMENTS`\n")
    call = ("Skill", {"skill": "other", "args": "hi; touch zz"})
    with StandIn() as standin:
        url, session = standin.session([call])
        done, _ = run_session(binary, url, work, None, timeout=120, prompt="hello",
                              extra_args=["--allowedTools", "Skill(other)", "Bash"])
    result = session.results.get(session.call_id(0))
    assert result is not None, done.stderr[-2000:]
    assert not (project / "zz").exists(), \
        f"the gate let the skill's command run the call's arguments: {result}"


# --- K1: a Skill call's args, judged as the runtime fills them ---------------------------

OTHER = ("---\nname: other\ndescription: echo things\nallowed-tools: Bash(echo *)\n---\n"
         "Result: !`echo $ARGUMENTS`\n")


@pytest.mark.parametrize(("entries", "args", "status"), [
    (["Skill(other)", "Bash(echo *)"], "hi; touch zz", "not_covered"),
    (["Skill(other)", "Bash(echo *)"], "$(touch zz)", "not_covered"),
    (["Skill(other)", "Bash(echo *)"], "hi", "covered"),
    (["Skill(other)", "Bash(echo *)"], 'a "b c"', "covered"),
    (["Skill(other)"], "hi", "not_covered"),  # echo hi is a command the plan must cover
    (["Skill(other)"], None, "covered"),  # no args: the skill's own commands, as written
])
def test_k1_a_skill_calls_args_are_judged_in_its_commands(
        tmp_path: Path, entries: list[str], args: str | None, status: str) -> None:
    from skillgrant.gate.call import check_call

    skill = tmp_path / ".claude" / "skills" / "other"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(OTHER)
    tool_input = {"skill": "other"} if args is None else {"skill": "other", "args": args}
    assert check_call("Skill", tool_input, entries, cwd=str(tmp_path / "src")).status == status


@pytest.mark.parametrize(("body", "args", "command"), [
    ("!`echo $0 $1`", "a b", "echo a b"),
    ("!`echo $ARGUMENTS[1] $ARGUMENTS[7]`", "a b", "echo b $ARGUMENTS[7]"),
    ("!`echo \\$1 $2`", "a b", "echo $1 $2"),  # escaped; past the words: kept
    ("```!\necho $ARGUMENTS\n```", "x; y", "echo x; y"),
    ("!`echo hi`", "!`touch zz`", "\x00unsplit\x00"),  # (args with a backtick: refused,
    # review s46-freview2 G7; the runtime appends them with the marker broken, uG)
    ("---\narguments: [who, what]\n---\n!`echo $what $who $whom`", "a b", "echo b a $whom"),
    ("---\narguments: who\n---\n!`echo [$who]`", "", "echo []"),
])
def test_k1_the_runtime_fill_is_followed(body: str, args: str, command: str | None) -> None:
    from skillgrant.gate.skillargs import _filled_commands

    assert _filled_commands(body, args) == ([] if command is None else [command])


def test_k1_a_skill_the_gate_cannot_find_or_split_is_refused(tmp_path: Path) -> None:
    from skillgrant.gate.call import check_call

    plan = ["Skill", "Bash(echo *)"]
    cwd = str(tmp_path)
    assert check_call("Skill", {"skill": "nosuch", "args": "x"}, plan, cwd=cwd).status \
        == "unknown"
    assert check_call("Skill", {"skill": "nosuch", "args": ""}, plan, cwd=cwd).status \
        == "covered"
    commands = tmp_path / ".claude" / "commands" / "ns"
    commands.mkdir(parents=True)
    (commands / "cmd.md").write_text("!`echo $1`\n")
    assert check_call("Skill", {"skill": "ns:cmd", "args": "a b"}, plan, cwd=cwd).status \
        == "covered"
    assert check_call("Skill", {"skill": "ns:cmd", "args": "a 'b;touch zz'"}, plan,
                      cwd=cwd).status == "unknown"
    assert check_call("Skill", {"skill": "ns:cmd", "args": ["a"]}, plan, cwd=cwd).status \
        == "invalid"


# --- git's read-only commands under Bash(git *) (review s45, a cost) ---------------------

GIT_READS = ["git ls-remote", "git ls-remote origin", "git stash list", "git worktree list",
             "git submodule status",
             "git show-branch", "git cherry -v HEAD", "git merge-base HEAD HEAD",
             "git name-rev HEAD", "git -C . stash list"]
#: Their writing neighbours, still denied where the project holds `.claude`.
GIT_WRITES = ["git stash", "git stash pop", "git stash -q", "git worktree add w",
              "git submodule update", "git submodule foreach touch zz",
              "git stash list --output=.claude/settings.json",
              "git stash show -p --output .claude/settings.json", "git stash -- list"]


@slow
def test_git_read_only_commands_are_allowed_their_writing_kin_are_not(tmp_path: Path) -> None:
    """Each read under ``Bash(git *)`` runs under bash and leaves the tree as it was; the hook
    allows it. Each writing kin is still denied."""
    project = tmp_path / "project"
    hook = gated_project(project, ["Bash(git *)"])
    before = subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=project,
                            capture_output=True, text=True, check=True).stdout
    for call in GIT_READS:
        done = subprocess.run(["/bin/sh", "-c", hook], input=payload(call, project),
                              cwd=project, capture_output=True, timeout=60, check=False)
        assert done.returncode == 0, (call, done.stderr)
        bash(call, project)
    after = subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=project,
                           capture_output=True, text=True, check=True).stdout
    assert after == before
    for call in GIT_WRITES:
        done = subprocess.run(["/bin/sh", "-c", hook], input=payload(call, project),
                              cwd=project, capture_output=True, timeout=60, check=False)
        assert done.returncode == 2, call


# --- G3: gh clone hands git clone its options after -- ----------------------------------


@slow
@pytest.mark.parametrize("extra", ["--template=tpl", "--templ=tpl"])
def test_g3_gh_repo_clone_hands_its_words_after_dashes_to_git_clone(
        tmp_path: Path, github: dict[str, str], extra: str) -> None:  # noqa: F811
    """G3 (writers: ``git clone --template`` by any prefix is read as writing a repository's
    hooks, s44 G1; the words ``gh repo clone`` hands to ``git clone`` after ``--`` are not
    read as git's): ``gh repo clone o/r sub -- --template=tpl`` runs ``git clone
    --template=tpl``, which copies ``tpl/hooks/post-checkout`` into the new repository and
    runs it at the clone's checkout. Plan ``Bash(gh repo *)`` (``-- --upload-pack=…``,
    ``-- -c core.fsmonitor=…`` are allowed too)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(gh repo *)"])
    served = tmp_path / "served" / "o" / "r.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(project), str(served)], check=True,
                   capture_output=True, timeout=60)
    hooks = project / "tpl" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "post-checkout").write_text("#!/bin/sh\ntouch zz\n")
    (hooks / "post-checkout").chmod(0o755)
    call = f"gh repo clone o/r sub -- {extra}"
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    bash(call, scratch, github)
    assert any(scratch.rglob("zz")), "git ran no hook: the case proves nothing"
    assert first_denied(project, [call], github) is not None, \
        "the hook allows gh to hand git clone a template of hooks"

@pytest.mark.parametrize(("command", "allowed"), [
    ("gh repo clone o/r sub -- --template=tpl", False),
    ("gh repo clone o/r -- --upload-pack=x", False),
    ("gh repo clone o/r -- -c core.fsmonitor=x", False),
    ("gh repo fork o/r --clone -- --sep=x", False),
    ("gh gist clone abc -- -u x", False),
    ("gh repo clone o/r $X", False),  # may split into `-- --template=…`
    ("gh repo clone o/r -- --depth=1", True),
    ("gh repo clone o/r sub", True),
    ("gh repo view o/r", True),
])
def test_g3_gh_clone_options_after_dashes_are_git_clones(command: str, allowed: bool) -> None:
    from skillgrant.gate.call import check_call

    status = check_call("Bash", {"command": command}, ["Bash(gh *)"], cwd="/tmp").status
    assert (status == "covered") == allowed, status


# --- L1: a PATH link into a node package ----------------------------------------------------


@slow
def test_l1_a_path_link_into_a_node_package_guards_the_package(tmp_path: Path) -> None:
    """L1 for any node tool installed under a user's prefix (``npm i -g`` with ``prefix =
    ~/.npm-global``): ``bin/tool -> ../lib/node_modules/tool/bin/tool.js`` loads the package's
    ``lib/main.js``. Plan ``Bash(cp *)``, ``Bash(tool run)``: ``cp e.js …/tool/lib/main.js``
    is denied (the package's ``node_modules`` folder is guarded whole); before it was allowed
    and ``tool run`` ran it. (npm itself was closed by P1/P10: its ``node_modules`` by name.)"""
    needs("node")

    def installed(home: Path) -> dict[str, str]:
        env = home_env(home)
        prefix = home / ".npm-global"
        package = prefix / "lib" / "node_modules" / "tool"
        (package / "bin").mkdir(parents=True)
        (package / "lib").mkdir()
        (package / "package.json").write_text('{"name": "tool", "version": "1.0.0"}')
        (package / "bin" / "tool.js").write_text(
            "#!/usr/bin/env node\nrequire('../lib/main.js')\n")
        (package / "bin" / "tool.js").chmod(0o755)
        (package / "lib" / "main.js").write_text("console.log('ok')\n")
        (prefix / "bin").mkdir()
        (prefix / "bin" / "tool").symlink_to("../lib/node_modules/tool/bin/tool.js")
        return {**env, "PATH": f"{prefix / 'bin'}{os.pathsep}{env['PATH']}"}

    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(tool run)"])
    (project / "e.js").write_text("require('child_process').execSync('touch zz')\n")
    calls = ["cp e.js {home}/.npm-global/lib/node_modules/tool/lib/main.js", "tool run"]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    proof = installed(tmp_path / "proof-home")
    for call in calls:
        bash(call.format(home=proof["HOME"]), scratch, proof)
    assert (scratch / "zz").exists(), "the tool ran no payload: the case proves nothing"
    env = installed(tmp_path / "home")
    assert first_denied(project, [c.format(home=env["HOME"]) for c in calls], env) \
        == calls[0].format(home=env["HOME"])
