"""The fixes of session 45 (s45-gfix) to issue 29's open rows, each judged by real bash: a
module shadowing a standard one in the folder a plan's Python puts first on ``sys.path``
(review s44 P3), a walked-up settings folder written below the call's folder (P10), and the
costs of the readers rule (C5, C7, C13): the call allowed, and sound under bash."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from bash_review import bash, first_denied, home_env, hook_allows, proved
from files_fixture import gated_project
from review_table import LeftOpen
from test_gate_files import _settings_hook, payload, run_hook

#: Real bash and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

PAYLOAD_PY = "import os\nos.system('touch zz')\n"


# --- P3: a module of a standard name in the folder first on sys.path --------------------


#: (the plan's Python entry, the covered run, the writes that shadow a module it imports)
SHADOWS = [
    ("Bash(python3 -m json.tool *)", "python3 -m json.tool notes.txt",
     ["cp payload argparse.py"]),
    ("Bash(python3 -m json.tool *)", "python3 -m json.tool notes.txt",
     ["mkdir argparse", "cp payload argparse/__init__.py"]),
    ("Bash(python3 -m json.tool *)", "python3 -m json.tool notes.txt",
     ["cp -r pkg argparse"]),
    ("Bash(python3 -m json.tool *)", "python3 -m json.tool notes.txt",
     ["cp -r pkg/. .", "mv __init__.py argparse.py"]),
    ("Bash(python3 -m json.tool *)", "python3 -m json.tool notes.txt",
     ["ln -s payload argparse.py"]),
    ("Bash(python3 -m http.server --help)", "python3 -m http.server --help",
     ["cp payload socketserver.py"]),
    ("Bash(python3 run.py)", "python3 run.py", ["cp payload json.py"]),
    ("Bash(cd sub && python3 -m json.tool ../notes.txt)",
     "cd sub && python3 -m json.tool ../notes.txt", ["cp payload sub/argparse.py"]),
]


@pytest.mark.parametrize(("entry", "run", "writes"), SHADOWS,
                         ids=[f"{e}:{' ; '.join(w)}" for e, _, w in SHADOWS])
def test_p3_a_module_shadowing_a_standard_one_is_not_written(
        tmp_path: Path, entry: str, run: str, writes: list[str]) -> None:
    """P3: the plan's Python puts the call's folder (``-m``, a script there) first on
    ``sys.path``; a file there named as a standard module (``argparse.py``, a package
    ``argparse/__init__.py``) runs in place of it. Bash runs the payload; the hook denies a
    write of it (``cp``, ``mkdir`` then ``cp``, a tree copied, a link)."""
    project = tmp_path / "project"
    gated_project(project, [entry, "Bash(cp *)", "Bash(mkdir *)", "Bash(mv *)", "Bash(ln *)"])
    (project / "sub").mkdir()
    (project / "pkg").mkdir()
    (project / "pkg" / "__init__.py").write_text(PAYLOAD_PY)
    (project / "payload").write_text(PAYLOAD_PY)
    (project / "run.py").write_text("import json\nprint(json.dumps(1))\n")
    (project / "notes.txt").write_text("{}\n")
    calls = [*writes, run]
    assert proved(project, tmp_path, calls), "bash ran no payload: the case proves nothing"
    assert first_denied(project, calls) in writes, f"the hook allows {calls}"


#: Under a plan naming python -m: the plan's own runs, reads of those names, and writes of
#: other names (or in a folder no run puts on sys.path) stay allowed.
P3_KEPT = ["python3 -m json.tool notes.txt", "cat argparse.py", "ls json",
           "cp notes.txt notes2.txt", "cp payload tools/argparse.py", "cp payload jsonx.py",
           "cp payload argparse.txt", "cp notes.txt out/b", "npm run test", "echo test"]


@pytest.mark.parametrize("call", P3_KEPT)
def test_p3_the_plans_own_runs_and_other_writes_stay_allowed(tmp_path: Path,
                                                             call: str) -> None:
    project = tmp_path / "project"
    gated_project(project, ["Bash(python3 -m json.tool *)", "Bash(python3 -m pytest *)",
                            "Bash(cp *)", "Bash(cat *)", "Bash(ls *)", "Bash(npm run *)",
                            "Bash(echo *)"])
    (project / "tools").mkdir()
    (project / "payload").write_text(PAYLOAD_PY)
    assert hook_allows(project, call), call


def test_p3_the_folder_is_not_guarded_where_python_keeps_it_off_sys_path(
        tmp_path: Path) -> None:
    """``-I`` (and ``-P``) keep the call's folder off ``sys.path``: measured, the copy runs
    nothing, and the hook allows it."""
    project = tmp_path / "project"
    run = "python3 -I -m json.tool notes.txt"
    gated_project(project, ["Bash(python3 -I -m json.tool *)", "Bash(cp *)"])
    (project / "payload").write_text(PAYLOAD_PY)
    (project / "notes.txt").write_text("{}\n")
    calls = ["cp payload argparse.py", run]
    assert not proved(project, tmp_path, calls)
    assert first_denied(project, calls) is None


OPEN = LeftOpen()
OPEN.add("test_p3_the_plans_own_runs_and_other_writes_stay_allowed",
         "cost (session 54, s54-gfix2's module rule): under a plan whose Python reads code, a "
         "file named like a standard module is guarded at any depth outside a package folder "
         "(pytest's basedirs, a script's real folder, pythonpath folders), so `tools/argparse.py` "
         "is denied though no run puts tools/ on sys.path", "cp payload tools/argparse.py")
OPEN.add("test_p3_the_folder_is_not_guarded_where_python_keeps_it_off_sys_path",
         "cost (session 54, s54-gfix2's module rule): the rule does not read -I/-P (the call's "
         "folder kept off sys.path); the copy runs nothing, and the hook denies it")


# --- P10: a settings folder found walking up, written below the call's folder -------------


CARGO_WRITES = [["mkdir -p sub/.cargo", "cp m/config.toml sub/.cargo/config.toml"],
                ["cp -r m sub/.cargo"], ["cd sub && cp -r ../m .cargo"],
                ["mkdir -p sub/.cargo", "cp m/config.toml sub/.cargo/"],
                ["cp -r n/. sub"], ["cp -r n sub/n", "cp -r sub/n/. sub"]]


@pytest.mark.parametrize("writes", CARGO_WRITES, ids=[" ; ".join(w) for w in CARGO_WRITES])
def test_p10_a_walked_up_settings_folder_below_the_call_is_not_written(
        tmp_path: Path, writes: list[str]) -> None:
    """P10: cargo reads ``.cargo/config.toml`` in every folder from its own up; a copy into
    ``sub/.cargo`` is read once a call runs in ``sub``. Bash runs the rustc wrapper it names;
    the hook denies the write (in each form)."""
    if shutil.which("cargo") is None:
        pytest.skip("no cargo")
    project = tmp_path / "project"
    run = "cd sub && cargo tree"
    gated_project(project, ["Bash(cd *)", "Bash(cargo tree)", "Bash(cp *)", "Bash(mkdir *)"])
    (project / "sub" / "src").mkdir(parents=True)
    (project / "sub" / "Cargo.toml").write_text(
        '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n')
    (project / "sub" / "src" / "main.rs").write_text("fn main() {}\n")
    (project / "e.sh").write_text('#!/bin/sh\ntouch zz\nexec "$@"\n')
    (project / "e.sh").chmod(0o755)
    (project / "m").mkdir()
    (project / "m" / "config.toml").write_text(f'[build]\nrustc-wrapper = "{project}/e.sh"\n')
    (project / "n" / ".cargo").mkdir(parents=True)  # (made before the session: copied whole)
    shutil.copy(project / "m" / "config.toml", project / "n" / ".cargo")
    calls = [*writes, run]
    assert proved(project, tmp_path, calls), "bash ran no payload: the case proves nothing"
    assert first_denied(project, calls) in writes, f"the hook allows {calls}"


def test_p10_the_write_tool_is_refused_a_settings_folder_at_any_depth(tmp_path: Path) -> None:
    """The Write tool's path is read by the same guard: ``a/b/.mvn/jvm.config`` is refused
    under a plan naming mvn, ``a/b/notes.md`` is not."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(mvn -v)", "Write"])
    hook = _settings_hook(project)
    for path, denied in ((project / "a" / "b" / ".mvn" / "jvm.config", True),
                         (project / "a" / "b" / "notes.md", False)):
        payload = json.dumps({"session_id": "s", "cwd": str(project), "hook_event_name":
                              "PreToolUse", "tool_name": "Write", "tool_input": {
                                  "file_path": str(path), "content": "x\n"}}).encode()
        done = subprocess.run(["/bin/sh", "-c", hook], input=payload, cwd=project,
                              capture_output=True, timeout=60, check=False)
        assert (done.returncode == 2) == denied, (path, done.stderr)


#: Under plans naming cargo, mvn and pytest: a member's manifest below the call's folder, and
#: reads of a settings folder, stay allowed. (``tests/conftest.py`` is no longer among them:
#: ``pytest -q`` collects the folder below and imports it, session 50's s49-greview2 C2.)
P10_KEPT = ["cat sub/.mvn/jvm.config", "ls -a sub/.cargo", "git add sub/.cargo/config.toml",
            "cp notes.txt tests/data.json"]
#: A member's manifest below, kept writable by review s45 (P10), is a start name guarded at
#: any depth since session 53 (s53-gfix rule 1: an approved build file may start its program
#: in any folder; a cost, docs/call-gate.md): the plan's own Edit grant of the path opens it.
P10_DENIED = ["cp notes.txt crates/a/Cargo.toml", "cp notes.txt pkg/pyproject.toml"]


@pytest.mark.parametrize("call", [*P10_KEPT, *P10_DENIED])
def test_p10_manifests_below_and_reads_stay_allowed(tmp_path: Path, call: str) -> None:
    project = tmp_path / "project"
    gated_project(project, ["Bash(cargo build)", "Bash(mvn -v)", "Bash(pytest -q)",
                            "Bash(cp *)", "Bash(cat *)", "Bash(ls *)", "Bash(git add *)"])
    for folder in ("crates/a", "pkg", "sub/.mvn", "sub/.cargo", "tests"):
        (project / folder).mkdir(parents=True)
    (project / "sub" / ".mvn" / "jvm.config").write_text("\n")
    (project / "sub" / ".cargo" / "config.toml").write_text("\n")
    assert hook_allows(project, call) == (call not in P10_DENIED), call


# --- C5, C7, C13: the readers rule's costs ------------------------------------------------


def _unchanged_after(project: Path, call: str) -> bool:
    """Whether bash, running the allowed ``call`` in ``project``, leaves the settings holding
    the hook and runs no payload."""
    before = (project / ".claude" / "settings.json").read_text()
    subprocess.run(["bash", "-c", call], cwd=project, capture_output=True, timeout=120,
                   check=False)
    return (project / ".claude" / "settings.json").read_text() == before and not any(
        project.rglob("zz"))


#: (the plan's entries, a call they cover that the readers rule denied, the program it needs)
READ_RUNS = [
    # C5: an interpreter the plan names by its path runs its script (the script is guarded)
    (["Bash(.venv/bin/python x.py)"], ".venv/bin/python x.py", "python3"),
    (["Bash(.venv/bin/python -m json.tool *)"],
     ".venv/bin/python -m json.tool notes.txt", "python3"),
    # C7: the file an option names a program to run
    (["Bash(awk -f tools/x.awk notes.txt)"], "awk -f tools/x.awk notes.txt", "awk"),
    (["Bash(awk -ftools/x.awk notes.txt)"], "awk -ftools/x.awk notes.txt", "awk"),
    (["Bash(java -jar x.jar)"], "java -jar x.jar", "java"),
    # C13: reading a guarded file
    (["Bash(cat *)"], "cat .claude/settings.json", "cat"),
    (["Bash(cat *)"], "cat plan.json", "cat"),
    (["Bash(grep *)"], "grep -c hook .claude/settings.json plan.json", "grep"),
    (["Bash(cat *)", "Bash(head *)"], "cat .claude/settings.json | head -n 1", "cat"),
    (["Bash(git diff *)"], "git diff -- .claude/settings.json", "git"),
]


@pytest.mark.parametrize(("entries", "call", "program"), READ_RUNS,
                         ids=[c for _, c, _ in READ_RUNS])
def test_a_covered_run_or_read_of_a_guarded_file_is_allowed_and_writes_nothing(
        tmp_path: Path, entries: list[str], call: str, program: str) -> None:
    """C5, C7, C13: allowed by the printed hook, and under bash the settings keep the hook."""
    if shutil.which(program) is None:
        pytest.skip(f"not installed: {program}")
    project = tmp_path / "project"
    gated_project(project, entries)
    (project / ".venv" / "bin").mkdir(parents=True)
    (project / ".venv" / "bin" / "python").symlink_to(shutil.which("python3") or "python3")
    (project / "x.py").write_text("print('x')\n")
    (project / "tools").mkdir()
    (project / "tools" / "x.awk").write_text("{ print }\n")
    (project / "notes.txt").write_text("{}\n")
    (project / "x.jar").write_bytes(b"")
    assert hook_allows(project, call), call
    assert _unchanged_after(project, call), call


#: Writers of a guarded file stay denied. (A plain copy of one out, ``cp
#: .claude/settings.json x.json``, reads it since session 46: gate/copied.py; a hard link of
#: it, which a later write to the copy writes through, does not.)
GUARDED_WRITES = ["cp notes.txt .claude/settings.json", "cat notes.txt > .claude/settings.json",
                  "tee .claude/settings.json < notes.txt", "sed -i s/a/b/ plan.json",
                  "cat notes.txt | tee plan.json", "gcc -E -P -x c notes.txt -o plan.json",
                  ".venv/bin/python x.py plan.json", "awk -f tools/x.awk plan.json",
                  "cp -l .claude/settings.json x.json"]


@pytest.mark.parametrize("call", GUARDED_WRITES)
def test_a_writer_of_a_guarded_file_stays_denied(tmp_path: Path, call: str) -> None:
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(cat *)", "Bash(tee *)", "Bash(sed *)",
                            "Bash(gcc *)", "Bash(.venv/bin/python *)", "Bash(awk *)"])
    (project / "tools").mkdir()
    (project / "tools" / "x.awk").write_text("{ print }\n")
    done = run_hook(_settings_hook(project), call, project)
    assert done.returncode == 2, call


# --- review s45 C1 (s45-greview's test, copied): a name the program composes -----------

GITCONFIG = '[core]\n\tfsmonitor = "touch zz; false"\n'
GITCONFIG_LINE = '[core] fsmonitor = "touch zz; false"\n'


def _c1first_denied(project: Path, calls: list[str], env: dict[str, str]) -> str | None:
    hook = _settings_hook(project)
    for call in calls:
        done = subprocess.run(["/bin/sh", "-c", hook], input=payload(call, project),
                              cwd=project, capture_output=True, timeout=60, check=False,
                              env=env)
        if done.returncode == 2:
            return call
        bash(call, project, env)
    return None


#: (the plan, the calls: ``{home}`` is the session's home folder)
COMPOSED = {
    "cp-backup-suffix": (["Bash(cp *)", "Bash(git status)"],
                         ["cp cfg {home}/.gitconf", "cp -b -S ig notes.txt {home}/.gitconf",
                          "git status"]),
    "cp-long-suffix": (["Bash(cp *)", "Bash(git status)"],
                       ["cp cfg {home}/.gitconf", "cp --su=ig -b notes.txt {home}/.gitconf",
                        "git status"]),
    "mv-backup-suffix": (["Bash(mv *)", "Bash(git status)"],
                         ["mv cfg {home}/.gitconf", "mv -b -S ig notes.txt {home}/.gitconf",
                          "git status"]),
    "install-backup-suffix": (["Bash(install *)", "Bash(git status)"],
                              ["install -m 644 cfg {home}/.gitconf",
                               "install -b -S ig notes.txt {home}/.gitconf", "git status"]),
    "sed-in-place-suffix": (["Bash(cp *)", "Bash(sed *)", "Bash(git status)"],
                            ["cp cfg {home}/.gitconf", "sed -iig -n p {home}/.gitconf",
                             "git status"]),
    "split-generated-suffix": (["Bash(split *)", "Bash(git status)"],
                               ["split -a 1 -l 1 lines {home}/.gitconfi", "git status"]),
    # the brief's own plan, in the project alone: the .npmrc guarded for npm test
    "cp-backup-npmrc": (["Bash(cp *)", "Bash(npm test)"],
                        ["cp e.rc .npm", "cp -b -S rc notes.txt .npm", "npm test"]),
}


@pytest.mark.parametrize("case", list(COMPOSED))
def test_c1_a_name_the_program_composes_is_a_guarded_file(tmp_path: Path, case: str) -> None:
    """C1 (guards.guarded_word, named.named_word: each word is compared with the guarded
    names; optables admits the options): a program that writes a file named by a word plus a
    suffix writes a name no word holds. cp/mv/install (and ln) ``-b -S SUFFIX`` rename the
    destination's old file to DEST+SUFFIX; ``sed -iSUFFIX`` copies the file it edits to
    FILE+SUFFIX; ``split -a 1 -l 1 F PREFIX`` writes PREFIX+``a``…, its seventh line to
    PREFIX+``g``. So ``{home}/.gitconf`` plus ``ig`` is ``~/.gitconfig`` (guarded), whose
    ``core.fsmonitor`` the covered ``git status`` runs; ``.npm`` plus ``rc`` is the project's
    ``.npmrc`` (guarded for ``npm test``), whose ``script-shell`` the covered ``npm test``
    runs. (Likewise ``.mcp`` + ``.json``, ``~/.bash`` + ``rc``, ``.pre-commit-config`` +
    ``.yaml``.)"""
    entries, calls = COMPOSED[case]
    project = tmp_path / "project"
    gated_project(project, entries)
    (project / "cfg").write_text(GITCONFIG)
    (project / "lines").write_text("1\n2\n3\n4\n5\n6\n" + GITCONFIG_LINE + "8\n")
    (project / "e.rc").write_text("script-shell=./e.sh\n")
    (project / "e.sh").write_text("#!/bin/sh\ntouch zz\n")
    (project / "e.sh").chmod(0o755)
    (project / "package.json").write_text(json.dumps(
        {"name": "x", "version": "1.0.0", "scripts": {"test": "echo ok"}}))
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    proof = home_env(tmp_path / "proof-home")
    for call in calls:
        bash(call.format(home=proof["HOME"]), scratch, proof)
    assert (scratch / "zz").exists(), "bash ran no payload: the case proves nothing"
    env = home_env(tmp_path / "home")
    assert _c1first_denied(project, [c.format(home=env["HOME"]) for c in calls], env) \
        is not None, "the hook allows a write of ~/.gitconfig under a name no word holds"


#: Under the same plans: a backup, an in-place suffix or a split beside no guarded name.
C1_KEPT = ["cp -b notes.txt out/notes.txt", "cp -b -S .bak notes.txt out/n.txt",
           "sed -i.bak s/a/b/ notes.txt", "sed -i s/a/b/ out/n.txt", "split -l 1 notes.txt out/p-",
           "mv -b out/a out/b", "install -b -m 644 notes.txt out/n.txt"]


@pytest.mark.parametrize("call", C1_KEPT)
def test_c1_a_composed_name_beside_no_guarded_one_is_allowed(tmp_path: Path, call: str) -> None:
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(sed *)", "Bash(split *)", "Bash(mv *)",
                            "Bash(install *)"])
    (project / "out" / "a").write_text("a\n")
    (project / "out" / "n.txt").write_text("a\n")
    assert hook_allows(project, call), call


#: Reviews s45 G1, G2, S1 (tests/gate/test_s45_greview.py): the same programs' reading
#: commands stay allowed under the plans there.
OWN_KEPT = ["gh pr view 1", "gh pr list --state open", "gh config get browser", "gh auth status",
            "npm test", "npm run build", "npm config get script-shell", "kubectl get pods",
            "kubectl config view", "aws s3 ls", "gh issue create --title config --body x"]


@pytest.mark.parametrize("call", OWN_KEPT)
def test_a_programs_reading_commands_stay_allowed(tmp_path: Path, call: str) -> None:
    project = tmp_path / "project"
    gated_project(project, ["Bash(gh *)", "Bash(npm *)", "Bash(kubectl *)", "Bash(aws *)"])
    assert hook_allows(project, call), call


# --- a subagent's worktree (review s45, a cost): Claude Code's `isolation: "worktree"` -----


def _in_folder(project: Path, call: str, folder: Path) -> int:
    return subprocess.run(["/bin/sh", "-c", _settings_hook(project)],
                          input=payload(call, folder), cwd=folder, capture_output=True,
                          timeout=60, check=False).returncode


WORKTREE_CALLS = [("touch zz", True), ("cp notes.txt src/b.py", True),
                  ("mkdir -p src/deep && touch src/deep/x", True),
                  ("touch .claude/settings.json", False), ("mkdir -p .claude/hooks", False),
                  ("cp notes.txt ../../settings.json", False), ("touch ../../hooks/x.sh", False),
                  ("cp notes.txt .mcp.json", False), ("touch .github/hooks/x.json", False),
                  ("cp -r src/. ../../skills", False), ("ln -s ../../settings.json l", False)]


@pytest.mark.parametrize(("call", "allowed"), WORKTREE_CALLS, ids=[c for c, _ in WORKTREE_CALLS])
def test_a_subagents_worktree_is_written_as_a_work_tree(tmp_path: Path, call: str,
                                                        allowed: bool) -> None:
    """A subagent started with ``isolation: "worktree"`` runs in
    ``<project>/.claude/worktrees/agent-<id>``: its files are written under the plan, its own
    runtime folders and the project's ``.claude`` stay guarded; under bash the allowed calls
    leave the project's settings holding the hook."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(touch *)", "Bash(cp *)", "Bash(mkdir *)", "Bash(ln *)"])
    tree = project / ".claude" / "worktrees" / "agent-1"
    (tree / "src").mkdir(parents=True)
    (tree / "notes.txt").write_text("{}\n")
    assert (_in_folder(project, call, tree) == 0) == allowed, call
    if allowed:
        bash(call, tree)
        assert "PreToolUse" in (project / ".claude" / "settings.json").read_text()


# --- review s45, a cost: the plan's own Edit grant over what its programs read ------------


def _edit(project: Path, path: Path) -> int:
    call = json.dumps({"session_id": "s", "cwd": str(project), "hook_event_name": "PreToolUse",
                       "tool_name": "Write", "tool_input": {"file_path": str(path),
                                                            "content": "x = 1\n"}}).encode()
    return subprocess.run(["/bin/sh", "-c", _settings_hook(project)], input=call, cwd=project,
                          capture_output=True, timeout=60, check=False).returncode


EDITS = [
    (["Edit(tests/**)", "Bash(pytest tests)"], "tests/test_a.py", True),
    (["Edit(src/**)", "Bash(python3 src/x.py)"], "src/y.py", True),
    (["Edit(src/**)", "Bash(python3 src/x.py)"], "src/x.py", True),
    (["Edit(Makefile)", "Bash(make test)"], "Makefile", True),
    (["Edit(package.json)", "Bash(npm test)"], "package.json", True),
    # not named by the Edit grant, or not only a plan's program's: still refused
    (["Edit(src/**)", "Bash(python3 tools/x.py)"], "tools/x.py", False),
    (["Edit(**)", "Bash(python3 tools/x.py)"], ".claude/settings.json", False),
    (["Edit(**)", "Bash(python3 -m json.tool *)"], "argparse.py", False),
    (["Edit(**)", "Bash(mvn -v)"], "sub/.mvn/jvm.config", False),
    (["Edit(tests/**)", "Bash(pytest tests)"], "tests/.git/config", False),
]


@pytest.mark.parametrize(("entries", "path", "allowed"), EDITS,
                         ids=[f"{e[0]}:{p}" for e, p, _ in EDITS])
def test_the_plans_own_edit_grant_writes_what_its_programs_read(
        tmp_path: Path, entries: list[str], path: str, allowed: bool) -> None:
    project = tmp_path / "project"
    gated_project(project, entries)
    for folder in ("tests", "src", "tools"):
        (project / folder).mkdir()
    assert (_edit(project, project / path) == 0) == allowed, path


def test_a_path_another_source_guards_too_is_not_only_planned() -> None:
    """``~/.cargo`` is a plan's `^.cargo/` in the home and the user's own (HOME_CODE): an Edit
    grant does not open it."""
    from skillgrant.gate.nested import only_planned

    planned = [("/h/.cargo", True), ("/p/tests", True)]
    every = [("/p/tests", True), ("/h/.cargo", True), ("/h/.cargo", True), ("/p/.claude", True)]
    reals = {p: p for p, _ in every}
    assert only_planned(planned, every, reals) == frozenset({"/p/tests"})


@pytest.mark.parametrize("words", ["gh pr checkout 1", "gh co 1", "gh pr merge 1 --squash",
                                   "gh repo sync", "gh -R o/r pr checkout 2"])
def test_gh_checking_out_a_branch_writes_gits_working_tree(words: str) -> None:
    """Review s45 G1: read as ``git checkout`` is."""
    from skillgrant.gate.writers import writes

    assert writes(words.split(), "/tmp") == (True, "git")


#: Review s45 X1: a file system that folds case (APFS's default, NTFS) reads `.CLAUDE/` as
#: `.claude/`; the guard compares in lower case, everywhere.
FOLDED = ["cp notes.txt .Claude/Settings.Json", "cp -r evil/.claude/. .CLAUDE/",
          "cp notes.txt PLAN.JSON", "cp notes.txt .GIT/config", "mkdir -p sub/.MVN"]


@pytest.mark.parametrize("call", FOLDED)
def test_x1_a_guarded_name_in_another_case_is_refused(tmp_path: Path, call: str) -> None:
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(mkdir *)", "Bash(mvn -v)"])
    assert not hook_allows(project, call), call


def test_x1_other_names_in_upper_case_stay_allowed(tmp_path: Path) -> None:
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)"])
    assert hook_allows(project, "cp notes.txt out/README.MD")
