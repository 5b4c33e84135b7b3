"""Review s58 (s58-hreview) of s58-hfix (the hook's speed, issue 29: reader modules loaded only
for plans that run their program, the module bundle read lazily, imports deferred), with
decisions that must stay main's. Two jobs:

1. A differential of main's printed hook (ba24a2b8) against the fixer's, run side by side at
   the same moment on the same files (every hook call of the review files' sessions, generated
   projects × plans × calls, each allowed call then run under bash), and attacks on what the
   change added: a lazy import that fails must deny, the module bundle must never serve code
   its source no longer has. The differential's counts are in /work/wt/reports/s58-hreview.md;
   the rows here pin what it checked.
2. A fresh review of the hook as a whole with the real programs as the judge: what the hook's
   own process reads and runs (its interpreter's imports), and how long it takes (a hook past
   its printed timeout is, in a runtime that lets a late hook through, a call allowed).

Each hole is proved with real programs in a scratch project, then the printed hook is asked
for each call in turn, the allowed ones run; the hook allowing them all is the finding. A hole
left open is a strict xfail (``OPEN``); a case the change holds is a plain test pinning it.
Every payload only touches a file (``zz``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import tree_sitter
from bash_review import LeftOpen, hooked_project
from test_gate_files import _settings_hook, payload

import skillgrant

#: Real bash and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()

#: The folder holding the package (the worktree, or a site folder) and the one holding the
#: hook's parser (tree_sitter): in this project's own environments a `.pth` file adds the
#: second to every worktree's venv.
_SOURCE = Path(skillgrant.__file__).resolve().parent.parent
_DEPS = Path(tree_sitter.__file__).resolve().parent.parent


def _ask(hook: str, call: str, folder: Path, env: dict[str, str] | None = None,
         timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """The printed hook's answer to ``call`` from ``folder``, run as the runtime runs it."""
    return subprocess.run(["/bin/sh", "-c", hook], input=payload(call, folder), cwd=folder,
                          env=env, capture_output=True, timeout=timeout, check=False)


def _bash(call: str, folder: Path, env: dict[str, str] | None = None) -> None:
    subprocess.run(["bash", "-c", call], cwd=folder, env=env, capture_output=True, timeout=60,
                   check=False)


# --- H: what the hook's own process imports at its start ------------------------------------------

def _layered_venv(root: Path) -> tuple[Path, Path]:
    """A venv whose dependencies come through a `.pth` file, as this project's worktree venvs
    (and an editable install of a dependency) have them: the package's folder, a folder of its
    own holding copies of tree_sitter and tree_sitter_bash, then the shared site folder. Its
    python, and the dependencies' folder."""
    subprocess.run([sys.base_prefix + "/bin/python3", "-m", "venv", "--without-pip",
                    str(root / "venv")], check=True, capture_output=True, timeout=120)
    deps = root / "deps"
    deps.mkdir()
    for name in ("tree_sitter", "tree_sitter_bash"):
        shutil.copytree(_DEPS / name, deps / name, ignore=shutil.ignore_patterns("__pycache__"))
    site = next((root / "venv" / "lib").glob("python3*/site-packages"))
    (site / "00src.pth").write_text(f"{_SOURCE}\n")
    (site / "01deps.pth").write_text(f"{deps}\n")
    (site / "02shared.pth").write_text(f"{_DEPS}\n")
    return root / "venv" / "bin" / "python", deps


#: Where the planted tree_sitter lies: the `.pth`-added folder the hook imports it from (H1,
#: closed in s58-hfix c355a68d: every folder of the hook's sys.path and loaded modules is
#: guarded), or a folder a `.pth` line names that is missing when the hook starts (site leaves
#: it off sys.path), listed before the dependencies: the call that makes it plants the package,
#: which the next hook finds first (H1b).
#: (H1b closed in 80122c32: the site folders' `.pth` lines are read as site reads them.) Or a
#: dependency an editable install's finder maps (setuptools' `__editable___*_finder.py`: its
#: folder is on no sys.path, and a plain call's hook has not imported tree_sitter: H1c, closed
#: in s58-hfix 75d72034: the editable finders' MAPPING and NAMESPACES folders are guarded).
PLANTED = {
    "a-pth-added-dependency-folder": ("", "cp out/p.py {deps}/tree_sitter/__init__.py"),
    "a-missing-pth-folder-made-by-the-call": (
        "later", "mkdir -p {later}/tree_sitter && cp out/p.py {later}/tree_sitter/__init__.py"),
    "an-editable-finders-mapped-folder": ("finder", "cp out/p.py {later}/tree_sitter/__init__.py"),
}
#: A minimal editable finder, as setuptools writes one: a meta path finder after the path
#: finder, mapping a top-level name to its source folder.
FINDER = """import sys
MAPPING = {{"tree_sitter": "{folder}"}}
NAMESPACES = {{}}
class _Finder:
    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if fullname not in MAPPING:
            return None
        from importlib.util import spec_from_file_location
        return spec_from_file_location(fullname, MAPPING[fullname] + "/__init__.py",
                                       submodule_search_locations=[MAPPING[fullname]])
def install():
    sys.meta_path.append(_Finder)
"""


@pytest.mark.parametrize("case", PLANTED)
def test_a_module_the_hooks_own_process_imports_is_guarded(tmp_path: Path, case: str) -> None:
    """The hook guarded its package's folder, its venv, the standard library and the base
    interpreter's `lib` (guards.py), not every folder its interpreter imports from: a
    dependency reached through a `.pth` (tree_sitter, which the hook imports for every call
    the fast path does not read) could be replaced by a plain `cp`, and the next hook process
    ran it. Proved: the payload in a tree_sitter `__init__.py` runs in the hook itself."""
    missing, planting = PLANTED[case]
    found = []
    for side in ("proof", "run"):
        python, deps = _layered_venv(tmp_path / side)
        later = tmp_path / side / "later"
        site = next((tmp_path / side / "venv" / "lib").glob("python3*/site-packages"))
        if missing == "later":
            (site / "00first.pth").write_text(f"{later}\n")
        elif missing == "finder":  # tree_sitter only through the finder, from `later`
            later.mkdir()
            shutil.move(deps / "tree_sitter", later / "tree_sitter")
            (site / "02shared.pth").unlink()  # (its tree_sitter the path finder finds first)
            (site / "__editable___ts_finder.py").write_text(
                FINDER.format(folder=later / "tree_sitter"))
            (site / "__editable__.ts-0.pth").write_text(
                "import __editable___ts_finder; __editable___ts_finder.install()\n")
        project = hooked_project(tmp_path / side, ["Bash(cp *)", "Bash(echo *)",
                                                   "Bash(mkdir *)", "Edit(out/**)"])
        hook = _settings_hook(project).replace(sys.executable, str(python), 1)
        assert str(python) in hook
        calls = ["echo 'open(\"zz\", \"w\").close()' > out/p.py",
                 planting.format(deps=deps, later=later)]
        allowed = True
        for call in calls:
            if side == "run" and _ask(hook, call, project).returncode == 2:
                allowed = False
                break
            _bash(call, project)
        _ask(hook, "echo next > out/next.txt", project)  # (the next call: not a plain one)
        if side == "proof":
            assert (project / "zz").exists(), "the hook's process ran no payload"
        else:
            found.append(allowed and (project / "zz").exists())
            assert allowed or _ask(hook, calls[0], project).returncode == 0  # (not every write)
    assert not found[0], "the hook allowed the calls planting a module its process imports"


# --- T: how long the hook takes on the call's own text ----------------------------------------

#: Calls near the command limit whose reading was superlinear in their words, each denied in
#: the end: the hook must decide them in 10 s (the printed timeout is 30 s; a Copilot CLI hook
#: that times out lets the call run, docs/runtime-conformance.md; Claude Code 2.1.332 with
#: onFailure: block blocks it, and I checked that with the real runtime).
#: T1: a quoted here-document's lines are words of `moves._operands`, whose `_move_at` built a
#: set of every word before each word (30,000 lines: 95 s; closed in s58-hfix d538a255, 1.2 s).
#: T3: `readers.writer_of` asks, for each doubtful word (each occurrence: `..` 1,500 times),
#: every simple command holding it (1,500 `cd ..; cd dir` pairs, 22 KB: over 120 s).
#: T4: `moves._operand` reads every word up to a control operator after each `cd`; in quoted
#: code read again as a command (`echo '` 10,000 × `cd x ` `'`, 50 KB) none comes: 72 s.
BOMBS = {
    "T1-a-quoted-here-documents-lines": 'cat <<"E"\n' + "x\n" * 30000 + "E\ncp notes.txt "
                                        ".claude/settings.json",
    "T3-a-doubtful-word-in-many-commands": "cd out; cd ..; " * 1500 + "cp notes.txt x",
    "T4-moves-in-quoted-code": "echo '" + "cd x " * 10000 + "'; cp notes.txt x",
}


@pytest.mark.parametrize("case", BOMBS)
def test_a_long_call_is_decided_well_inside_the_hooks_timeout(tmp_path: Path, case: str) -> None:
    """A call near the command limit is decided in 8 s."""
    project = hooked_project(tmp_path, ["Bash(cat *)", "Bash(cp *)", "Bash(cd *)",
                                        "Bash(echo *)"])
    started = time.monotonic()
    try:
        done = _ask(_settings_hook(project), BOMBS[case], project, timeout=8)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the hook took over 8 s ({time.monotonic() - started:.1f} s)")
    assert done.returncode in (0, 2), done  # (decided; main decides each as slowly)


# --- B: the module bundle serves a module's code only while its source is as kept ---------------

def _copied_package(root: Path) -> Path:
    """A copy of the package (no bytecode, no bundle) and a venv importing it: its python."""
    source = root / "src"
    shutil.copytree(_SOURCE / "skillgrant", source / "skillgrant",
                    ignore=shutil.ignore_patterns("__pycache__", "*.marshal"))
    subprocess.run([sys.base_prefix + "/bin/python3", "-m", "venv", "--without-pip",
                    str(root / "venv")], check=True, capture_output=True, timeout=120)
    site = next((root / "venv" / "lib").glob("python3*/site-packages"))
    (site / "00src.pth").write_text(f"{source}\n")
    (site / "01shared.pth").write_text(f"{_DEPS}\n")
    return root / "venv" / "bin" / "python"


@pytest.fixture(scope="module")
def copied(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One copy of the package and its venv for the tests below (each restores what it
    changes): its python, and the copy's folder holding ``skillgrant``."""
    root = tmp_path_factory.mktemp("copied")
    return _copied_package(root), root / "src"


def test_the_bundle_never_serves_a_changed_modules_code(tmp_path: Path,
                                                        copied: tuple[Path, Path]) -> None:
    """The hook keeps the modules it imported in one file of the package's `__pycache__` and
    serves the next hook from it. A module whose source changed since (its size, or only its
    modification time) is imported from its source: each change of a denial's wording shows in
    the next hook's answer, the bundle read lazily or not."""
    python, source = copied
    project = hooked_project(tmp_path, ["Bash(git status)"])
    hook = _settings_hook(project).replace(sys.executable, str(python), 1)
    module = source / "skillgrant" / "gate" / "hook.py"
    text = module.read_text()
    said = "Stay within it"
    assert said in text
    answers: list[tuple[str, int, bool]] = []
    for wording in (said, "STAY WITHIN it", "Stay WITHIN IT"):
        if wording != said:
            module.write_text(text.replace(said, wording))
            stamp = module.stat().st_mtime_ns + 2_000_000_000 * len(answers)
            os.utime(module, ns=(stamp, stamp))
        for _ in range(2):  # (the first keeps the bundle, the second is served from it)
            done = _ask(hook, "git push", project)
            answers.append((wording, done.returncode, wording in done.stderr.decode()))
    module.write_text(text)
    assert all(status == 2 and shown for _, status, shown in answers), answers
    bundle = list((source / "skillgrant" / "__pycache__").glob("modules.*"))
    assert bundle, "no bundle was kept: the test checked nothing"


def test_a_bundle_of_another_package_copy_is_not_served(tmp_path: Path,
                                                       copied: tuple[Path, Path]) -> None:
    """A copy of the package made with its `__pycache__` (its bundle naming the first copy's
    files): the copy's hook imports its own sources (a changed wording shows)."""
    python, source = copied
    project = hooked_project(tmp_path, ["Bash(git status)"])
    hook = _settings_hook(project).replace(sys.executable, str(python), 1)
    for _ in range(2):
        _ask(hook, "git push", project)
    copy = tmp_path / "b" / "skillgrant"
    shutil.copytree(source / "skillgrant", copy)  # (with its bundle)
    module = copy / "gate" / "hook.py"
    module.write_text(module.read_text().replace("Stay within it", "STAY WITHIN it"))
    # (the same size as before: a stamp Python's own bytecode check cannot confuse with the
    # earlier test's future stamps, kept in seconds in the copied `.pyc`)
    stamp = module.stat().st_mtime_ns - 1_000_000_000_000
    os.utime(module, ns=(stamp, stamp))
    site = next((python.parent.parent / "lib").glob("python3*/site-packages"))
    (site / "00src.pth").write_text(f"{copy.parent}\n")
    try:
        done = _ask(hook, "git push", project)
    finally:
        (site / "00src.pth").write_text(f"{source}\n")
    assert done.returncode == 2 and b"STAY WITHIN it" in done.stderr


# --- the differential's rows: main's decisions on the calls the change touched -------------------

def _plain_hook(project: Path) -> str:
    return _settings_hook(project)


def test_decisions_recorded_by_the_differential_hold(tmp_path: Path) -> None:
    """A sample of the differential's calls (each decided alike by main's hook and the
    fixer's), with main's answer pinned: plans whose program's readers are now loaded only
    for them (make, pytest, npm, git with a program in its settings)."""
    project = hooked_project(tmp_path, ["Bash(make test)", "Bash(cp *)", "Bash(git *)",
                                        "Bash(npm test)", "Bash(pytest *)"])
    (project / "Makefile").write_text("test:\n\t@echo ok\n")
    (project / "package.json").write_text(json.dumps({"scripts": {"test": "jest"}}))
    (project / "tests").mkdir()
    (project / "tests" / "test_a.py").write_text("def test_a():\n    pass\n")
    hook = _plain_hook(project)
    rows = [("cp notes.txt out/x", 0), ("cp notes.txt Makefile", 2),
            ("cp notes.txt tests/conftest.py", 2), ("cp notes.txt package.json", 2),
            ("git -c core.pager=./x log", 2)]
    got = [(call, _ask(hook, call, project).returncode) for call, _ in rows]
    assert got == rows


# --- L: a reader module loaded only where the plan needs it: its import failing denies ----------

#: Each lazy import s58-hfix made (179c1f06), the project that reaches it, the plan and a call
#: the intact hook allows: with the import failing, the hook must deny the call (the
#: differential's mutation run checked every new site against 531 calls: never wider).
LAZY = {
    "gitvalues-where-git-settings-name-a-program": (
        "worktree.py", "from .gitvalues import", ["Bash(git *)", "Bash(cp *)"],
        "git config core.pager ./pager.sh", "git status"),
    "sitenames-where-a-site-import-is-asked": (
        "startvars.py", "from .sitenames import", ["Bash(PYTHONPATH=src pytest)", "Bash(cp *)"],
        "mkdir -p src tests && printf 'def test_a():\\n    pass\\n' > tests/test_a.py",
        "cp notes.txt src/y.py"),
}


@pytest.mark.parametrize("case", LAZY)
def test_a_lazy_import_that_fails_denies(tmp_path: Path, case: str,
                                         copied: tuple[Path, Path]) -> None:
    module, line, entries, setup, call = LAZY[case]
    python, folder = copied
    project = hooked_project(tmp_path, entries)
    _bash(setup, project)
    hook = _settings_hook(project).replace(sys.executable, str(python), 1)
    assert _ask(hook, call, project).returncode == 0, "the intact hook denies: nothing checked"
    source = folder / "skillgrant" / "gate" / module
    text = source.read_text()
    lines = text.split("\n")
    at = next(i for i, text in enumerate(lines) if text.strip().startswith(line))
    indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())]
    lines[at] = f"{indent}raise ImportError('s58-hreview: a lazy import failing')"
    source.write_text("\n".join(lines))
    try:
        done = _ask(hook, call, project)
    finally:
        source.write_text(text)
    assert done.returncode == 2 and b"a lazy import failing" in done.stderr, done


# --- K: a careful user's everyday call the change denies --------------------------------------

def test_cost_a_write_to_the_projects_own_editable_source(tmp_path: Path) -> None:
    """The commonest Python setup: the project's own venv holds skillgrant and the project
    installed editable (`pip install -e .`: a `.pth` naming its `src`). H1's guards
    (s58-hfix c355a68d, 80122c32) guard every folder on the hook's sys.path whole, so every
    write below `src` is denied (allowed at ba24a2b8), though the hook imports from `src` only
    a module no folder before it holds (its own names: skillgrant, tree_sitter, the standard
    library's). Guarding those names there would keep H1 closed."""
    python, _ = _layered_venv(tmp_path)
    project = hooked_project(tmp_path, ["Bash(cp *)", "Edit(src/**)"])
    (project / "src" / "mypkg").mkdir()
    site = next((tmp_path / "venv" / "lib").glob("python3*/site-packages"))
    (site / "__editable__.mypkg-0.1.pth").write_text(f"{project / 'src'}\n")
    hook = _settings_hook(project).replace(sys.executable, str(python), 1)
    assert _ask(hook, "cp notes.txt src/mypkg/y.py", project).returncode == 0


OPEN.add("test_cost_a_write_to_the_projects_own_editable_source",
         "loadedlibs.imported_from (s58-hfix c355a68d, 80122c32): every sys.path folder of the "
         "hook guarded whole; an editable install of the project itself puts its `src` there")
