"""Review s62 (s62-sreview) of session 62's speed work, which must change no decision and no
output byte: s62-hfix (the write guard's set kept across hook processes in the state folder,
``gate/guardkeep.py``, under a record of every question its computation put to the system,
``gate/readlog.py``; a later hook takes it where the key and every recorded answer are the same)
and s62-bfix (batch ``check``/``apply``).

Each row holds on main; after the merge it pins the change:

* H: a call answered from a kept set is answered as the computed set answers it. The kept set
  skips the computation, so what the computation leaves in the process for the decision is
  not there (``testlinks.remember``'s real spelling of a collecting folder: the link walk
  started at the folded path, ``/x/myproj`` for ``/x/MyProj``, or "" for ``/``, and
  ``testroots._settings_roots("")`` looped for ever: the hook never answered, and a hook that
  times out lets the call run); a change between two calls of anything the set was made of
  (a makefile rewritten in place to the same size with its time put back, a file made, a link
  made, a repository's settings, the plan, the session's variables) is answered as a hook
  keeping nothing answers it; a kept file that is not one the hook wrote (corrupted) costs the
  hook no seconds.
* B: (batch rows: see the B section.)

The projects of the H rows lie below a folder of ``/var/tmp`` (``stable``): a kept set is
taken only where no folder above the project changed its entries since it was made (the record
lists them), and ``/tmp``'s change every second on a busy machine, so a project there is never
answered from a kept set. Each hook names its own ``--state-dir`` (its kept files are the
test's). Every payload only touches a file."""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from bash_review import LeftOpen, home_env, needs
from test_gate_files import printed_command

#: Fresh hook processes, real node: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()


@pytest.fixture(scope="module")
def stable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder for the H rows' projects whose folders above change seldom (``/var/tmp``;
    the session's temporary folder where there is none)."""
    base = Path("/var/tmp")
    if not (base.is_dir() and os.access(base, os.W_OK)):
        yield tmp_path_factory.mktemp("s62sr")
        return
    made = Path(tempfile.mkdtemp(prefix="skillgrant-s62sr-", dir=base))
    try:
        yield made
    finally:
        shutil.rmtree(made, ignore_errors=True)


def _project(folder: Path, entries: list[str], files: dict[str, str],
             links: dict[str, str] | None = None, git: bool = False) -> tuple[Path, str]:
    """A project ``folder`` holding ``files`` and the symbolic ``links`` (name: target), a plan
    of ``entries`` beside it, and the printed hook of that plan keeping its state beside it."""
    folder.mkdir(parents=True)
    for name, text in {**files, "notes.txt": "notes\n", "out/.keep": ""}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    for name, to in (links or {}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(to, folder / name)
    if git:
        subprocess.run("git init -q && git add -A && git -c user.name=a -c user.email=a@b "
                       "commit -qm x", shell=True, cwd=folder, check=True, capture_output=True)
    plan = folder.parent / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": entries}))
    (folder.parent / "state" / "guards").mkdir(parents=True)  # (made before the first call:
    # a folder made after a listing the record holds makes the next call compute again)
    return folder, printed_command(plan, **{"--state-dir": str(folder.parent / "state")})


def _ask(hook: str, command: str, cwd: Path | str, env: dict[str, str],
         timeout: float = 120, tool: str = "Bash",
         tool_input: dict[str, object] | None = None) -> int:
    """The printed hook's status for a call of ``tool`` (a Bash ``command``) from ``cwd``."""
    data = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "cwd": str(cwd),
                       "tool_name": tool, "tool_input": tool_input or {"command": command}})
    return subprocess.run(["/bin/sh", "-c", hook], input=data.encode(), cwd=cwd, env=env,
                          capture_output=True, timeout=timeout, check=False).returncode


def _session_env(home: Path, project: Path | None) -> dict[str, str]:
    """The session's environment with its own home; ``CLAUDE_PROJECT_DIR`` the project, or
    none (the runtimes but Claude Code give their hooks none)."""
    env = home_env(home)
    env.pop("CLAUDE_PROJECT_DIR", None)
    env.pop("SKILLGRANT_STATE_DIR", None)
    if project is not None:
        env["CLAUDE_PROJECT_DIR"] = str(project)
    return env


# --- H: what the kept set leaves out of the process -------------------------------------------

#: A node project whose test folder holds a link out of it (a monorepo's shared tests), the
#: payload in ``src/x.js`` (the project's own file, run by no call of the plan).
NODE = {"package.json": json.dumps({"name": "p", "scripts": {"test": "node --test"}}),
        "test/a.js": "require('node:test')('t', () => {})\n",
        "src/x.js": "require('fs').writeFileSync(require('path').join(process.cwd(), 'zz'), '')\n"}
#: Each case: its plan, the call running the tests; the copy into the folder the link leads to
#: (a folder ``node --test`` runs every ``.js`` file of, through ``test/more``).
FOLDED = {"node-test": (["Bash(node --test)", "Bash(cp *)"], "node --test")}  # (npm's: the
# scripts row)


@pytest.mark.parametrize("case", list(FOLDED))
def test_a_kept_set_walks_a_collecting_folder_spelled_with_capitals(
        stable: Path, case: str) -> None:
    """The project's folder has a capital (``MyProj``), the session no project folder
    (Copilot CLI's, Codex's, Gemini CLI's hooks), the plan runs node's test runner, whose test
    folder holds ``more -> ../../ext``. A first call keeps the set; then ``cp -r src
    ../ext/foo`` puts ``x.js`` where ``node --test`` runs it through the link: main denies it
    (its link walk starts at ``MyProj``); s62-hfix 6aa2d4e0 allowed it (a kept set left
    ``testlinks._REAL`` empty: the walk started at ``myproj``, not there) and node ran it."""
    needs("node")
    entries, run = FOLDED[case]
    calls = ["cp notes.txt out/x", "cp notes.txt out/y", "cp -r src ../ext/foo", run]
    assert _denied_where_proved(stable / case, entries, NODE, {"test/more": "../../ext"},
                                calls, None, "node") == "cp -r src ../ext/foo"


def _denied_where_proved(base: Path, entries: list[str], files: dict[str, str],
                         links: dict[str, str], calls: list[str], notes: str | None,
                         program: str) -> str | None:
    """``calls`` in two fresh projects ``base/<side>/MyProj`` (``ext`` beside; ``notes.txt``
    holding ``notes`` where given): in ``proof`` each run by bash, and the payload must run
    (``zz`` made); in ``run`` each asked of the printed hook first, up to the first it denies
    (the answer), the others run by bash."""
    found = None
    for side in ("proof", "run"):
        (base / side / "ext").mkdir(parents=True)
        project, hook = _project(base / side / "MyProj", entries, files, links)
        if notes is not None:
            (project / "notes.txt").write_text(notes)
        env = _session_env(base / side / "home", None)
        denied = None
        for call in calls:
            if side == "run" and _ask(hook, call, project, env) == 2:
                denied = call
                break
            subprocess.run(["bash", "-c", call], cwd=project, env=env, capture_output=True,
                           timeout=120, check=False)
        if side == "proof":
            assert (project / "zz").exists(), f"{program} ran no payload"
        else:
            found = denied
    return found


def test_a_kept_set_reads_the_scripts_of_a_folder_spelled_with_capitals(stable: Path) -> None:
    """``npm test`` runs ``sh scripts/run.sh`` (``package.json``); the project's folder has a
    capital, the session no project folder. Two calls keep the set; ``cp notes.txt
    scripts/run.sh`` (the payload over the script npm runs): main denies it; s62-hfix 6aa2d4e0
    allowed it (on a kept set ``testroots.runner_roots`` read the scripts of ``myproj``, not
    there) and ``npm test`` ran it."""
    needs("npm")
    calls = ["cp notes.txt out/x", "cp notes.txt out/y", "cp notes.txt scripts/run.sh",
             "npm test"]
    files = {"package.json": json.dumps({"name": "p", "scripts": {"test": "sh scripts/run.sh"}}),
             "scripts/run.sh": "echo ok\n"}
    assert _denied_where_proved(stable / "scripts", ["Bash(npm test)", "Bash(cp *)"], files, {},
                                calls, "touch zz\n", "npm") == "cp notes.txt scripts/run.sh"


def test_a_call_from_the_root_folder_is_answered_after_one_was_kept(stable: Path) -> None:
    """A call from ``/`` under a plan that collects tests (``pytest``), after one call from
    there kept the set: answered (main: denied, its walk of ``/`` past its 10 seconds). At
    s62-hfix 6aa2d4e0 it was never answered: the folded collecting folder "" (``/``) was not
    mapped back to ``/``, and ``testroots._settings_roots("")`` climbed from "" for ever; a
    hook that times out lets the call run."""
    project, hook = _project(stable / "root" / "proj", ["Bash(pytest *)", "Bash(cp *)"], {})
    env = _session_env(stable / "root" / "home", None)
    assert [_ask(hook, "", "/", env, tool="Read", tool_input={  # (denied: no Read in the
        "file_path": str(project / "notes.txt")}) for _ in range(2)] == [2, 2]  # plan; kept)
    try:
        status = _ask(hook, "cp -b target/debug/x out/x", "/", env, timeout=120)
    except subprocess.TimeoutExpired:
        status = None
    assert status == 2


#: Each case: the plan, the project's files, the probe (a write), the change between the first
#: calls and the probe (bash in the project: ``$H`` the home, ``$P`` the project), the
#: session's variables at the probe (``{P}`` the project) and whether the session has a
#: project folder. Before the change the probe is allowed, after it denied.
CHANGES: dict[str, tuple[list[str], dict[str, str], str, str, dict[str, str]]] = {
    "an-include-rewritten-in-place": (
        ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": "include rules.conf\ntest:\n\t@echo ok\n", "rules.conf": "X = 1\n"},
        "cp notes.txt ruleY.conf",
        "t=$(stat -c %y Makefile) && printf 'include ruleY.conf\\ntest:\\n\\t@echo ok\\n' "
        "> Makefile.new && cat Makefile.new > Makefile && touch -d \"$t\" Makefile", {}),
    "a-gnumakefile-made": (
        ["Bash(make test)", "Bash(cp *)"], {"Makefile": "test:\n\t@echo ok\n"},
        "cp notes.txt g.conf", "printf 'include g.conf\\ntest:\\n\\t@echo\\n' > GNUmakefile", {}),
    "a-hooks-folder-set": (
        ["Bash(git *)", "Bash(cp *)"], {}, "cp notes.txt hk2/pre-commit",
        "git config core.hooksPath hk2", {}),
    "the-users-git-settings": (
        ["Bash(git *)", "Bash(cp *)"], {}, "cp notes.txt hh/pre-commit",
        "printf '[core]\\n\\thooksPath = %s/hh\\n' \"$P\" > \"$H/.gitconfig\"", {}),
    "a-link-in-a-programs-folder": (
        ["Bash(make test)", "Bash(cp *)"], {"Makefile": "test:\n\t@echo ok\n"},
        "cp notes.txt tools/mytool",
        "mkdir -p \"$H/bin\" tools && ln -s \"$P/tools/mytool\" \"$H/bin/mytool\"",
        {"PATH": "{H}/bin:/usr/local/bin:/usr/bin:/bin"}),
    "a-test-folder-link-made": (
        ["Bash(node --test)", "Bash(cp *)"], {**NODE}, "cp -r src ../ext/foo",
        "mkdir -p ../ext && ln -s ../../ext test/more", {}),
    "a-variable-naming-a-file": (
        ["Bash(make test)", "Bash(cp *)"], {"Makefile": "test:\n\t@echo ok\n"},
        "cp notes.txt benv.sh", "true", {"BASH_ENV": "{P}/benv.sh"}),
    "a-preloaded-library": (
        ["Bash(make test)", "Bash(cp *)"], {"Makefile": "test:\n\t@echo ok\n"},
        "cp notes.txt x.so", "true", {"LD_PRELOAD": "{P}/x.so"}),
}


@pytest.mark.parametrize("case", list(CHANGES))
def test_a_change_between_calls_is_answered_as_a_hook_keeping_nothing_answers(
        stable: Path, case: str) -> None:
    """Two calls keep the set (the probe among them, allowed); the change; the probe: denied,
    as by a hook that keeps nothing (main; and after the merge, a kept set whose record holds
    what changed is not taken)."""
    entries, files, probe, change, variables = CHANGES[case]
    project, hook = _project(stable / case / "proj", entries, files, git=True)
    home = stable / case / "home"
    env = _session_env(home, project)
    assert [_ask(hook, c, project, env) for c in ("cp notes.txt out/x", probe)] == [0, 0]
    subprocess.run(["bash", "-c", change], cwd=project, check=True, capture_output=True,
                   env={**env, "H": str(home), "P": str(project)}, timeout=60)
    after = {**env, **{k: v.replace("{P}", str(project)).replace("{H}", str(home))
                       for k, v in variables.items()}}
    assert _ask(hook, probe, project, after) == 2


def test_a_corrupted_kept_file_costs_the_hook_no_seconds(stable: Path) -> None:
    """Each file of the hook's kept state made a few bytes that unmarshal as a list of 2**31
    items and end (a bit flipped in a length, a file of another writer): the next call is
    answered as before, in well under a second of its CPU. (``marshal.loads`` of such a file
    takes some 4 s of CPU a level: ``(`` or ``[`` then a length; s62-hfix 6aa2d4e0 unmarshals
    ``guards/*.kept`` before any check; main's ``modulecache`` file is the package's.)"""
    project, hook = _project(stable / "corrupt" / "proj", ["Bash(make test)", "Bash(cp *)"],
                             {"Makefile": "test:\n\t@echo ok\n"})
    env = _session_env(stable / "corrupt" / "home", project)
    assert _ask(hook, "cp notes.txt out/x", project, env) == 0
    for kept in (stable / "corrupt" / "state").rglob("*"):
        if kept.is_file() and kept.suffix in (".kept", ".json"):
            kept.write_bytes(b"[\xff\xff\xff\x7f" * 3)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert _ask(hook, "cp notes.txt out/x", project, env) == 0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    assert spent < 3.0, f"the hook spent {spent:.1f} s of CPU on a corrupted kept file"


# --- B: the batch's reading of disallowed-tools -----------------------------------------------

#: Frontmatters whose ``disallowed-tools`` the batch reads from the reader's own document
#: (s62-bfix: its runtime span and, where Bun reads the reader's nodes as written, those
#: nodes): each key spelling and value in surroundings where the runtime's span and reading
#: may not be the reader's (line ends, a byte-order mark, a fence's trailing blanks, the key
#: in the body or a second block, escapes, tabs, anchors, merge keys, block scalars).
_KEYS = ("disallowed-tools", "disallowedTools", '"d\\x69sallowed-tools"', "'disallowed-tools'")
_VALUES = ("Bash(rm *), Write", "[Bash, 'Edit']", "\n  - Bash\n  - Write", "|\n  Bash\n  Write",
           "&a Bash", "~", "", "\n  -\tBash", '"B\\x61sh"', "Bash  # c")


def _surrounded(key: str, value: str, at: int) -> str:
    text = f"---\nname: s\nallowed-tools: Read\n{key}: {value}\n---\nbody\n"
    return [text, text.replace("\n", "\r\n"), "\ufeff" + text, text.replace("---\n", "---  \n", 1),
            text + "disallowed-tools: Edit\n", text + "---\ndisallowed-tools: Edit\n---\n",
            text.replace("name: s\n", "name: &n s\n<<: {x: 1}\n"),
            text.replace(f"{key}:", f"{key}: \t", 1)][at % 8]


def test_the_batch_reads_disallowed_tools_as_the_plan_loader_reads_them(tmp_path: Path) -> None:
    """Each file of a batch ``check -f json`` the reader takes shows as removed exactly what
    ``removed_tools(text)`` (no reader's document: the plan loader's way, main's) finds (the
    report shows none as ``[]``)."""
    from skillgrant.skillfile.removed import removed_tools

    texts = {}
    for i, (key, value) in enumerate((k, v) for k in _KEYS for v in _VALUES):
        texts[tmp_path / "skills" / f"s{i}" / "SKILL.md"] = _surrounded(key, value, i)
    for path, text in texts.items():
        path.parent.mkdir(parents=True)
        path.write_bytes(text.encode())
    plan = tmp_path / "plan.yaml"
    plan.write_text("allowed-tools:\n  - Read\n")
    done = subprocess.run([sys.executable, "-m", "skillgrant", "check", "-p", str(plan), "-f",
                           "json", str(tmp_path / "skills")], capture_output=True, timeout=120,
                          check=False, cwd=tmp_path)
    shown = {f["path"]: f.get("disallowed_tools") for f in json.loads(done.stdout)["files"]}
    wanted = {}
    for path, text in texts.items():
        found = removed_tools(text)
        if shown.get(str(path)) is not None:  # (a file the reader refuses: no decision)
            wanted[str(path)] = [] if found is None else list(found.entries)
    assert {p: shown[p] for p in wanted} == wanted
    assert len(wanted) > 30 and sum(bool(v) for v in wanted.values()) > 15
