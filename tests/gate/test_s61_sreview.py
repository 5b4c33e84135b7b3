"""Review s61 (s61-sreview) of session 61's speed work, which must change no decision and no
output byte: s61-hfix (the printed hook's process: ``modulecache`` serving a kept module by
the import system's steps in one function and reading its groups through a mapping of the kept
file; imports moved into the functions that use them) and s61-bfix (batch ``check``/``apply``).

Each row holds on main too; after the merge it pins the change:

* H: a module a call needs that fails to import (its file broken or moved away) denies the
  call with status 2, whatever path imports it and wherever its import was moved (status 1 is
  a runtime's non-blocking error: the call runs), or changes nothing (a module the answer does
  not need); a kept file changed in place under a running hook (truncated, rewritten: what a
  mapping of it sees at once) still gives the hook's own answer, never a process killed by a
  signal (s61-hfix 4a4ac0ba read the groups through a mapping: hooks died by SIGBUS, status 135
  through the printed hook; 35e3cfda reads them again); an installation copied with its times
  kept (``cp -a``) and then changed serves its own code, not the copy's kept code; the calls
  of plan kinds the earlier review did not take (cargo, a subagent's, Read/Edit/WebFetch/MCP)
  answered by a hook that keeps as by one that keeps nothing.
* B: a batch answers each file as that file checked alone where one ``allowed-tools`` value
  stands in many surroundings (plans, line ends, its place among the keys, a repeated key, a
  comment after it, another key's block holding its text, ``tools`` for ``allowed-tools``):
  a memo keyed by less than its answer depends on shows here.

Each hook process runs a copy of the package (``python -I``, the copy first on ``sys.path``,
as the printed hook runs the installed one), so its kept files are the test's own."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from bash_review import LeftOpen
from test_s60_sreview import START, _copy, _kept  # (a copy of the package, its kept files)

#: Fresh hook processes and ``check`` processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()



#: A project whose files make, pytest, npm, cmake and cargo read, with a skill whose hook
#: follows it into its subagents.
PROJECT = {
    "Makefile": "include rules.mk\ntest:\n\t@echo ok\n",
    "rules.mk": "X = 1\n",
    "tests/conftest.py": "import os\n",
    "tests/test_a.py": "def test_a():\n    assert 1\n",
    "package.json": json.dumps({"name": "p", "scripts": {"test": "jest"}}),
    "jest.config.js": "module.exports = {};\n",
    "CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(p C)\n",
    "Cargo.toml": "[package]\nname = 'p'\nversion = '0.1.0'\n",
    "src/a.c": "int main(void) { return 0; }\n",
    "notes.txt": "notes\n",
    "out/.keep": "",
    ".claude/settings.json": "{}",
    ".claude/skills/s/SKILL.md": "---\nname: s\ndescription: d\n"
                                 "allowed-tools: Agent, Bash(touch *)\n---\nbody\n",
}
#: Plans of each kind the hook loads other modules for.
PLANS: dict[str, list[str]] = {
    "git": ["Bash(git *)", "Bash(cp *)"],
    "make": ["Bash(make test)", "Bash(cp *)", "Bash(echo *)"],
    "pytest": ["Bash(pytest *)", "Bash(sed *)", "Bash(cp *)"],
    "npm": ["Bash(npm test)", "Bash(npx jest)", "Bash(cp *)"],
    "cmake": ["Bash(cmake *)", "Bash(ctest)", "Bash(cp *)"],
    "cargo": ["Bash(cargo test)", "Bash(cp *)"],
    "agent": ["Agent(general-purpose)", "Bash(touch *)", "Skill(s)", "Bash(cp *)"],
    "tools": ["Read(src/**)", "Edit(out/**)", "WebFetch(domain:example.com)", "mcp__srv__tool",
              "Bash(echo *)"],
}


def _payload(project: Path, tool: str, tool_input: dict[str, object],
             **extra: object) -> str:
    return json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "cwd": str(project),
                       "tool_name": tool, "tool_input": tool_input, **extra})


def _cases(project: Path) -> dict[str, list[tuple[str, list[str]]]]:
    """Each plan kind's calls (payload, the hook's options): allowed ones and denied ones, the
    paths into the plan's programs' files (its rare modules)."""
    def bash(command: str, **extra: object) -> str:
        return _payload(project, "Bash", {"command": command}, **extra)

    skill = ["--skill-dir", str(project / ".claude" / "skills" / "s")]
    return {
        "git": [(bash("git -c core.pager=./x log"), []),
                (bash("cp notes.txt .git/hooks/pre-commit"), [])],
        "make": [(bash("make test"), []), (bash("cp notes.txt rules.mk"), [])],
        "pytest": [(bash("pytest tests"), []), (bash("sed -i s/a/b/ tests/conftest.py"), [])],
        "npm": [(bash("npx jest"), []), (bash("cp notes.txt jest.config.js"), [])],
        "cmake": [(bash("cmake -S . -B build"), []), (bash("cp notes.txt CMakeLists.txt"), [])],
        "cargo": [(bash("cargo test"), []), (bash("cp notes.txt out/x"), [])],
        "agent": [(_payload(project, "Agent", {"subagent_type": "general-purpose",
                                               "prompt": "x"}), skill),
                  (bash("touch out/x", agent_id="a1", agent_type="general-purpose"),
                   ["--for-skill", "s"])],
        "tools": [(_payload(project, "Edit", {"file_path": str(project / "out" / "x"),
                                              "old_string": "a", "new_string": "b"}), []),
                  (_payload(project, "WebFetch", {"url": "https://example.com/",
                                                  "prompt": "p"}), [])],
    }


def _hook(root: Path, plan: Path, payload: str, cwd: Path, options: list[str],
          *flags: str) -> tuple[int, str, str]:
    """The copy's hook on ``payload`` from ``cwd``: status, stdout, stderr (the copy's folder
    written ``<R>``)."""
    done = subprocess.run([sys.executable, "-I", *flags, "-c", START.format(str(root)), "hook",
                           "--plan", str(plan), *options], input=payload.encode(), cwd=cwd,
                          capture_output=True, timeout=120, check=False,
                          env={"PATH": os.environ.get("PATH", ""), "HOME": str(cwd.parent)})
    return (done.returncode, done.stdout.decode(errors="replace").replace(str(root), "<R>"),
            done.stderr.decode(errors="replace").replace(str(root), "<R>"))


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Path]]:
    """The reference copy (it keeps nothing, so reads nothing kept), the project (a git
    repository), and a plan file for each of ``PLANS``."""
    top = tmp_path_factory.mktemp("s61sr")
    project = top / "project"
    for name, text in PROJECT.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    subprocess.run("git init -q && git add -A && git -c user.name=a -c user.email=a@b "
                   "commit -qm x", shell=True, cwd=project, check=True, capture_output=True)
    plans = {}
    for kind, entries in PLANS.items():
        plans[kind] = top / "plans" / f"{kind}.json"
        plans[kind].parent.mkdir(exist_ok=True)
        plans[kind].write_text(json.dumps({"allowed-tools": entries}))
    return _copy(top / "fresh"), project, plans


def _fresh(fresh: Path, plan: Path, payload: str, project: Path,
           options: list[str]) -> tuple[int, str, str]:
    return _hook(fresh, plan, payload, project, options, "-X",
                 f"pycache_prefix={fresh / 'bytecode'}")


# --- H: an import that fails denies ----------------------------------------------------------

#: Modules broken per plan kind at most (spread over those its calls import past a plain
#: call's): CI's budget.
MOST_BROKEN = 6
_IMPORTED = re.compile(r"\|\s+(skillgrant[\w.]*)\s*$", re.M)


def _imports(root: Path, plan: Path, payload: str, project: Path,
             options: list[str]) -> set[str]:
    """The package's modules a hook of the copy imports to answer ``payload``."""
    return set(_IMPORTED.findall(_hook(root, plan, payload, project, options, "-X",
                                       "importtime")[2]))


def _module_file(root: Path, name: str) -> Path:
    file = root.joinpath(*name.split(".")).with_suffix(".py")
    return file if file.exists() else root.joinpath(*name.split("."), "__init__.py")


@pytest.mark.parametrize("kind", list(PLANS))
def test_a_module_a_call_needs_that_fails_to_import_denies_with_status_2(
        tmp_path: Path, shared: tuple[Path, Path, dict[str, Path]], kind: str) -> None:
    """Each module the kind's calls import past what a plain call imports (the ones an import
    moved into a function reaches only there), its file made to raise ``ImportError`` (and,
    for every other one, moved away), under a hook whose kept files are warm: the answer is a
    denial with status 2, or the fresh answer (a module the answer does not need). Never
    status 1, never an allow that the fresh hook denies."""
    fresh, project, plans = shared
    root = _copy(tmp_path / "kept")
    plain = _payload(project, "Bash", {"command": "echo hi"})
    for _ in range(2):  # (kept: the modules, then their groups split)
        for payload, options in _cases(project)[kind]:
            _hook(root, plans[kind], payload, project, options)
    baseline = _imports(root, plans["tools"], plain, project, [])
    wrong = []
    broken = 0
    for payload, options in _cases(project)[kind]:
        want = _fresh(fresh, plans[kind], payload, project, options)
        rare = sorted(_imports(root, plans[kind], payload, project, options) - baseline)
        step = max(1, len(rare) // MOST_BROKEN)
        for i, name in enumerate(rare[::step][:MOST_BROKEN]):
            file = _module_file(root, name)
            was, times = file.read_bytes(), file.stat()
            if i % 2:
                file.rename(file.with_name(file.name + ".away"))
            else:
                file.write_bytes(b"raise ImportError('s61-sreview: broken')\n")
            got = _hook(root, plans[kind], payload, project, options)
            broken += 1
            if file.with_name(file.name + ".away").exists():
                file.with_name(file.name + ".away").rename(file)
            file.write_bytes(was)
            os.utime(file, ns=(times.st_atime_ns, times.st_mtime_ns))
            denied = got[0] == 2 and '"deny"' in got[1]
            if got != want and not denied:
                wrong.append((name, payload[-80:], got[0], got[2][-200:]))
    assert broken > 0
    assert wrong == []


# --- H: kept state under a running hook --------------------------------------------------------

def test_a_kept_file_changed_in_place_under_running_hooks_never_kills_one(
        tmp_path: Path, shared: tuple[Path, Path, dict[str, Path]]) -> None:
    """While hooks run, the kept files are cut short and written back in place, over and over
    (what a mapping of the file sees at once: past its new end, a read kills the process with
    SIGBUS): every hook ends with its own answer, a denial with status 2, or the fresh
    answer; never a signal (the runtime runs a call whose hook died)."""
    fresh, project, plans = shared
    root = _copy(tmp_path / "kept")
    payload = _payload(project, "Bash", {"command": "make test"})
    want = _fresh(fresh, plans["make"], payload, project, [])
    for kind in ("git", "make", "make"):
        _hook(root, plans[kind], _payload(project, "Bash", {"command": "make test"}), project,
              [])
    files = _kept(root)
    assert files
    datas = {path: path.read_bytes() for path in files}
    stop = threading.Event()

    def churn() -> None:
        while not stop.is_set():
            for path, data in datas.items():
                with open(path, "r+b") as f:
                    f.truncate(len(data) // 8)
                    time.sleep(0.002)
                    f.seek(0)
                    f.write(data)
            time.sleep(0.001)

    worker = threading.Thread(target=churn)
    worker.start()
    try:
        answers = [_hook(root, plans["make"], payload, project, []) for _ in range(12)]
    finally:
        stop.set()
        worker.join()
    assert [a[0] for a in answers if a != want and a[0] != 2] == []


def test_a_copied_installation_changed_after_the_copy_serves_its_own_code(
        tmp_path: Path, shared: tuple[Path, Path, dict[str, Path]]) -> None:
    """An installation copied with its times (``cp -a``: its kept files name the first
    one's modules), a module of the copy then edited to the same size with its time kept:
    the copy's hook runs the copy's code (its kept file is the first one's, refused)."""
    _, project, plans = shared
    first = _copy(tmp_path / "first")
    payload = _payload(project, "Bash", {"command": "ls"})  # (denied: the answer's text)
    for kind in ("make", "git", "make"):
        _hook(first, plans[kind], payload, project, [])
    assert _kept(first)
    second = tmp_path / "second"
    subprocess.run(["cp", "-a", str(first), str(second)], check=True)
    module = second / "skillgrant" / "gate" / "hook.py"
    was = module.stat()
    text = module.read_bytes()
    assert text.count(b"Stay within it") == 1
    module.write_bytes(text.replace(b"Stay within it", b"Stay within IT"))
    os.utime(module, ns=(was.st_atime_ns, was.st_mtime_ns))
    for pyc in (second / "skillgrant" / "gate" / "__pycache__").glob("hook.*.pyc"):
        pyc.unlink()  # (Python's own bytecode checks the second only)
    assert "Stay within IT" in _hook(second, plans["make"], payload, project, [])[2]
    assert "Stay within it" in _hook(first, plans["make"], payload, project, [])[2]


def test_kept_code_answers_the_other_plan_kinds_as_a_hook_that_keeps_nothing(
        tmp_path: Path, shared: tuple[Path, Path, dict[str, Path]]) -> None:
    """Every kind's calls in turn, twice (the groups split), then in the other order: each
    answer the fresh one's (cargo, a subagent's, Read/Edit/WebFetch/MCP and the rest)."""
    fresh, project, plans = shared
    root = _copy(tmp_path / "kept")
    cases = [(kind, payload, options) for kind, each in _cases(project).items()
             for payload, options in each]
    wrong = []
    for order in (cases, cases, cases[::-1]):
        for kind, payload, options in order:
            if _hook(root, plans[kind], payload, project, options) != _fresh(
                    fresh, plans[kind], payload, project, options):
                wrong.append((kind, payload[-60:]))
    assert wrong == []
    assert len(_kept(root)) == 2


# --- B: a batch answers each file as that file alone ------------------------------------------

#: ``allowed-tools`` values (a string, a flow list: each narrowed by one plan, not the other).
VALUES = ("Bash(git *), Bash(rm -rf *), Read", "[Read, 'Bash(git:*)', Edit, Write(src/**)]")
#: Where a value stands: ``{v}`` the value.
CONTEXTS = {
    "plain": "---\nname: s\ndescription: d\nallowed-tools: {v}\n---\nb\n",
    "first": "---\nallowed-tools: {v}\nname: s\ndescription: d\n---\nb\n",
    "crlf": "---\r\nname: s\r\ndescription: d\r\nallowed-tools: {v}\r\n---\r\nb\r\n",
    "in-a-block": "---\nname: s\ndescription: |\n  allowed-tools: Bash\nallowed-tools: {v}\n---\n",
    "repeated": "---\nname: s\nallowed-tools: Read\nallowed-tools: {v}\n---\n",
    "commented": "---\nname: s\nallowed-tools: {v} # c\nmodel: x\n---\n",
    "bom": "\ufeff---\nname: s\nallowed-tools: {v}\n---\n",
    "tools": "---\nname: s\ntools: {v}\n---\n",
}
#: The plans the values stand under (``plan.yaml`` beside them, in a repository).
BATCH_PLANS = {"p1": "allowed-tools:\n  - Bash(git *)\n  - Read\n",
               "p2": "allowed-tools:\n  - Bash\n  - Read\n  - Edit\n  - Write\n"}


def _skillgrant(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-P", "-m", "skillgrant", *args], cwd="/",
                          capture_output=True, text=True, timeout=300, check=False)


def _by_file(output: str) -> dict[str, dict[str, object]]:
    """A JSON report's file objects by path (the artifact, named from the batch's root,
    left out)."""
    files: dict[str, dict[str, object]] = {}
    for found in json.loads(output)["files"]:
        found.pop("artifact", None)
        files[str(found.pop("path"))] = found
    return files


def test_one_value_in_many_surroundings_is_answered_as_each_file_alone(tmp_path: Path) -> None:
    """``apply --dry-run`` (the decisions, the rewrite read back) of the tree at once and of
    each file alone: the same value, one after another, under two plans and eight
    surroundings."""
    top = tmp_path / "tree"
    (top / ".git").mkdir(parents=True)
    for plan, text in BATCH_PLANS.items():
        (top / plan).mkdir()
        (top / plan / "plan.yaml").write_text(text)
        for i, value in enumerate(VALUES):
            for name, context in CONTEXTS.items():
                folder = top / plan / f"v{i}" / name
                folder.mkdir(parents=True)
                (folder / "SKILL.md").write_bytes(context.replace("{v}", value).encode())
    files = sorted(top.rglob("SKILL.md"))
    batch = _by_file(_skillgrant("apply", "--dry-run", "-f", "json", str(top)).stdout)
    assert sorted(batch) == [str(path) for path in files]
    alone = {}
    for path in files:
        alone.update(_by_file(_skillgrant("apply", "--dry-run", "-f", "json", str(path)).stdout))
    assert [path for path in batch if batch[path] != alone[path]] == []


@pytest.mark.parametrize("spelling", ['"d\\x69sallowed-tools"', '"dis\\u0061llowedTools"'])
def test_a_key_spelled_with_escapes_removes_as_its_plain_spelling(tmp_path: Path,
                                                                  spelling: str) -> None:
    """A double-quoted key's escapes spell ``disallowed-tools`` (or ``disallowedTools``):
    Claude Code removes what it names, as for the plain spelling, and ``check`` notes it
    (SG011)."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "plan.yaml").write_text("allowed-tools:\n  - Bash\n  - Read\n")
    skill = tmp_path / "s" / "SKILL.md"
    skill.parent.mkdir()
    skill.write_text("---\nname: s\ndescription: d\nallowed-tools: Bash(git *), Read\n"
                     f"{spelling}: Bash(git *)\n---\nbody\n")
    assert "[SG011 removes-tools]" in _skillgrant("check", str(skill)).stdout
